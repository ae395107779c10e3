/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the memory controller: the FB window of both MC maps, the
 * PCIE GART walk (table in VRAM and in system memory, 40-bit entries,
 * TLB invalidation, permission checks, out-of-range pages) and the
 * unmapped-access modes (reference radeon-kms-r500.md 4).
 */
#include <string.h>

#include "test-host.h"

#define MiB (1024u * 1024u)

#define GART_EN             (1u << 0)
#define GART_DISCARD        (3u << 1)
#define GART_CHK_RW         (1u << 5)
#define GART_INVALIDATE     (1u << 8)
#define PTE_W               (1u << 2)
#define PTE_R               (1u << 3)

static void set_fb(R500Chip *s, uint32_t v)
{
    r500_mc_write(s, r500_mc_index(s->info->mc_map, MC_MC_FB_LOCATION), v);
}

static uint32_t pte_for(uint64_t bus, uint32_t flags)
{
    return (uint32_t)((bus & 0xFFFFFFFFu) >> 8) |
           (uint32_t)(((bus >> 32) & 0xFF) << 24) | flags;
}

/* GART of npages at MC gtt, table at VRAM offset table_off. */
static void gart_setup(R500Chip *s, uint32_t gtt, unsigned npages,
                       uint32_t table_mc, uint32_t cntl)
{
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, GART_DISCARD);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_START_LO, gtt);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_END_LO, gtt + (npages - 1) * 4096);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_START_HI, 0);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_END_HI, 0);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_BASE, table_mc);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, cntl | GART_EN | GART_DISCARD);
}

static void tlb_flush(R500Chip *s)
{
    /* rv370_pcie_gart_tlb_flush */
    uint32_t c = r500_pcie_read(s, PCIE_PCIE_TX_GART_CNTL);

    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, c | GART_INVALIDATE);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, c);
}

static void vram_put32(TestHost *h, uint64_t off, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(h->vram + off, &v, 4);
}

static void test_fb_window(gconstpointer data)
{
    R500Model model = GPOINTER_TO_INT(data);
    TestHost *h = test_host_new(model, 16);
    R500Chip *s = &h->chip;
    uint32_t v = 0x11223344, r = 0;
    uint64_t off;

    /* Reset: VRAM at MC 0 (core_reset), 16 MiB. */
    g_assert_true(r500_mem_write(s, 0x100, &v, 4));
    g_assert_cmpmem(h->vram + 0x100, 4, &v, 4);
    g_assert_true(r500_mc_vram_span(s, 16 * MiB - 4, 4, &off));
    g_assert_cmphex(off, ==, 16 * MiB - 4);
    g_assert_false(r500_mc_vram_span(s, 16 * MiB - 4, 5, &off));

    /* Move VRAM to MC 0x40000000: the old address is no longer VRAM. */
    set_fb(s, (0x40FFu << 16) | 0x4000);
    g_assert_cmphex(r500_mc_fb_base(s), ==, 0x40000000);
    g_assert_true(r500_mem_read(s, 0x40000100, &r, 4));
    g_assert_cmphex(r, ==, 0x11223344);
    /* Below the window, pass-through (GART off, CNTL 0) reaches RAM. */
    h->host.ram[0x100] = 0x5a;
    r = 0;
    g_assert_true(r500_mem_read(s, 0x100, &r, 1));
    g_assert_cmphex(r, ==, 0x5a);

    /* A window larger than VRAM: its tail is an error, not a wrap. */
    set_fb(s, (0x5FFFu << 16) | 0x4000);
    g_assert_false(r500_mem_read(s, 0x40000000 + 16 * MiB, &r, 4));
    g_assert_cmpuint(test_host_count_logs(h, "past the end of VRAM"), ==, 1);
    /* A read straddling the end of VRAM fails as a whole. */
    g_assert_false(r500_mem_read(s, 0x40000000 + 16 * MiB - 2, &r, 4));
    test_host_free(h);
}

static void test_gart_vram_table(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x10000000, table = 0x80000;
    uint8_t buf[8192];

    /* Pages scattered in RAM: page i at 0x100000 + 0x3000 * i. */
    for (unsigned i = 0; i < 4; i++) {
        vram_put32(h, table + 4 * i, pte_for(0x100000 + 0x3000 * i,
                                             PTE_R | PTE_W | 1));
        memset(h->host.ram + 0x100000 + 0x3000 * i, 0xA0 + i, 4096);
    }
    gart_setup(s, gtt, 4, table, 0);

    /* 8 KiB from the middle of page 0: pages 0, 1 and 2 stitched. */
    g_assert_true(r500_mem_read(s, gtt + 0x800, buf, sizeof(buf)));
    g_assert_cmpuint(buf[0], ==, 0xA0);
    g_assert_cmpuint(buf[0x7FF], ==, 0xA0);
    g_assert_cmpuint(buf[0x800], ==, 0xA1);
    g_assert_cmpuint(buf[0x17FF], ==, 0xA1);
    g_assert_cmpuint(buf[0x1800], ==, 0xA2);

    /* Writes land in the scattered page. */
    memset(buf, 0x77, 16);
    g_assert_true(r500_mem_write(s, gtt + 3 * 4096 + 8, buf, 16));
    g_assert_cmpuint(h->host.ram[0x100000 + 0x9000 + 8], ==, 0x77);

    /* Past the last page: discarded (fails), logged. */
    g_assert_false(r500_mem_read(s, gtt + 4 * 4096, buf, 4));
    g_assert_cmpuint(test_host_count_logs(h, "unmapped accesses discarded"),
                     ==, 1);
    /* A span running off the end fails too. */
    g_assert_false(r500_mem_read(s, gtt + 4 * 4096 - 2, buf, 4));

    /* GART disabled: the range is no longer translated. */
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, GART_DISCARD);
    g_assert_false(r500_mem_read(s, gtt, buf, 4));
    test_host_free(h);
}

static void test_gart_tlb(void)
{
    TestHost *h = test_host_new(R500_MODEL_R520, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x10000000, table = 0x1000;
    uint8_t b = 0;

    h->host.ram[0x200000] = 1;
    h->host.ram[0x300000] = 2;
    vram_put32(h, table, pte_for(0x200000, PTE_R | PTE_W));
    gart_setup(s, gtt, 1, table, 0);
    g_assert_true(r500_mem_read(s, gtt, &b, 1));
    g_assert_cmpuint(b, ==, 1);

    /* Rebind without a flush: the TLB still holds the old entry. */
    vram_put32(h, table, pte_for(0x300000, PTE_R | PTE_W));
    g_assert_true(r500_mem_read(s, gtt, &b, 1));
    g_assert_cmpuint(b, ==, 1);
    /* After the driver's flush sequence the new page is used. */
    tlb_flush(s);
    g_assert_true(r500_mem_read(s, gtt, &b, 1));
    g_assert_cmpuint(b, ==, 2);
    g_assert_cmpuint(s->mc_state.tlb_misses, ==, 2);
    test_host_free(h);
}

static void test_gart_system_table(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x20000000;
    uint32_t pte = GUINT32_TO_LE(pte_for(0x400000, PTE_R));
    uint8_t b = 0;

    /* Table base outside the FB window: a bus address in system RAM. */
    set_fb(s, (0x40FFu << 16) | 0x4000);
    memcpy(h->host.ram + 0x8000 + 4, &pte, 4);
    h->host.ram[0x400000 + 5] = 0x42;
    gart_setup(s, gtt, 2, 0x8000, 0);
    g_assert_true(r500_mem_read(s, gtt + 4096 + 5, &b, 1));
    g_assert_cmpuint(b, ==, 0x42);

    /* Table unreadable (beyond RAM): the access fails. */
    r500_pcie_write(s, PCIE_PCIE_TX_GART_BASE, 0xFFFFF000u);
    g_assert_false(r500_mem_read(s, gtt + 4096, &b, 1));
    g_assert_cmpuint(test_host_count_logs(h, "GART table entry"), ==, 1);
    test_host_free(h);
}

static void test_gart_40bit(void)
{
    TestHost *h = test_host_new(R500_MODEL_R580, 16);
    R500Chip *s = &h->chip;
    uint8_t b;

    /* Address bits 39:32 come from PTE bits 31:24. */
    vram_put32(h, 0, pte_for(0xAB12345000ull, PTE_R));
    gart_setup(s, 0x10000000, 1, 0, 0);
    g_assert_false(r500_mem_read(s, 0x10000000 + 0x67, &b, 1));
    g_assert_cmphex(h->host.last_dma_addr, ==, 0xAB12345067ull);
    g_assert_cmpuint(test_host_count_logs(h, "bus access failed"), ==, 1);
    test_host_free(h);
}

static void test_gart_permissions(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t b = 9;

    /* The driver's dummy page: no R/W bits. */
    vram_put32(h, 0, pte_for(0x10000, 1));
    vram_put32(h, 4, pte_for(0x11000, PTE_R));
    gart_setup(s, 0x10000000, 2, 0, GART_CHK_RW);
    g_assert_false(r500_mem_read(s, 0x10000000, &b, 1));
    g_assert_cmpuint(test_host_count_logs(h, "not readable"), ==, 1);
    g_assert_true(r500_mem_read(s, 0x10001000, &b, 1));
    g_assert_false(r500_mem_write(s, 0x10001000, &b, 1));
    g_assert_cmpuint(test_host_count_logs(h, "not writeable"), ==, 1);
    /* Without CHK_RW_VALID_EN the flags are not checked (radeon KMS). */
    gart_setup(s, 0x10000000, 2, 0, 0);
    g_assert_true(r500_mem_write(s, 0x10000000, &b, 1));
    g_assert_cmpuint(h->host.ram[0x10000], ==, b);
    test_host_free(h);
}

static void test_unmapped_modes(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t b = 0;

    h->host.ram[0x1000000 - 1] = 0x33;
    /* VRAM at 0x80000000 so low addresses are not VRAM. */
    set_fb(s, (0x80FFu << 16) | 0x8000);
    g_assert_true(r500_mem_read(s, 0x1000000 - 1, &b, 1));
    g_assert_cmphex(b, ==, 0x33);
    /* Discard mode refuses it. */
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, GART_DISCARD);
    g_assert_false(r500_mem_read(s, 0x1000000 - 1, &b, 1));
    /* The AGP window is reported as unimplemented. */
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, 0);
    r500_mc_write(s, r500_mc_index(s->info->mc_map, MC_MC_AGP_LOCATION),
                  (0x20FFu << 16) | 0x2000);
    g_assert_false(r500_mem_read(s, 0x20000000, &b, 1));
    g_assert_cmpuint(test_host_count_logs(h, "AGP aperture"), ==, 2);
    /* Wrapping the 64-bit space is refused before any access. */
    g_assert_false(r500_mem_read(s, UINT64_MAX - 1, &b, 4));
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/mc/fb-window/rv515",
                         GINT_TO_POINTER(R500_MODEL_RV515), test_fb_window);
    g_test_add_data_func("/mc/fb-window/r520",
                         GINT_TO_POINTER(R500_MODEL_R520), test_fb_window);
    g_test_add_func("/mc/gart/vram-table", test_gart_vram_table);
    g_test_add_func("/mc/gart/tlb", test_gart_tlb);
    g_test_add_func("/mc/gart/system-table", test_gart_system_table);
    g_test_add_func("/mc/gart/40-bit", test_gart_40bit);
    g_test_add_func("/mc/gart/permissions", test_gart_permissions);
    g_test_add_func("/mc/unmapped", test_unmapped_modes);
    return g_test_run();
}
