/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bad-input contract (docs/reliability.md), the rows that involve the
 * board and QEMU's memory core: MMIO of every size at any alignment and
 * across the end of the BAR, reads of the ROM past its image and past its
 * BAR, and DMA the command processor aims at the card's own registers
 * (blocked by the device's re-entrancy guard: a failed access, never a
 * re-entered chip).  The core rows are unit tests (/cp/contract/...,
 * /rb2d/contract/..., /regs/...).
 */
#include "r500-qtest.h"
#include "r500-cp-env.h"

/*
 * Unaligned accesses reach the registers they cover, byte for byte; an
 * 8-byte access across the end of the BAR writes what lies inside it.
 */
static void test_unaligned(const R500TestModel *m)
{
    R500Test t;
    uint32_t s5 = R500_REGA_AT(SCRATCH_REG, 5), s6 = s5 + 4;

    r500_test_start(&t, m->name, NULL, true);
    r500_wreg(&t, s5, 0x11223344);
    r500_wreg(&t, s6, 0x55667788);
    qpci_io_writel(t.dev, t.mmio, s5 + 2, 0xAABBCCDD);
    g_assert_cmphex(r500_rreg(&t, s5), ==, 0xCCDD3344);
    g_assert_cmphex(r500_rreg(&t, s6), ==, 0x5566AABB);
    g_assert_cmphex(qpci_io_readl(t.dev, t.mmio, s5 + 2), ==, 0xAABBCCDD);
    g_assert_cmphex(qpci_io_readw(t.dev, t.mmio, s5 + 3), ==, 0xBBCC);
    qpci_io_writeq(t.dev, t.mmio, s5 + 1, 0x0102030405060708ull);
    g_assert_cmphex(r500_rreg(&t, s5), ==, 0x06070844);
    g_assert_cmphex(r500_rreg(&t, s6), ==, 0x02030405);
    g_assert_cmphex(qpci_io_readq(t.dev, t.mmio, s5 + 1), ==,
                    0x0102030405060708ull);

    /* The last register, by an 8-byte write that runs past the BAR. */
    qpci_io_writeq(t.dev, t.mmio, R500_MMIO_SIZE - 4, 0x99999999CAFEF00Dull);
    g_assert_cmphex(r500_rreg(&t, R500_MMIO_SIZE - 4), ==, 0xCAFEF00D);
    g_assert_cmphex(r500_rreg(&t, R_RBBM_STATUS), ==, 0x40);
    r500_test_stop(&t);
}

/*
 * The expansion ROM: the image, then zeros to the end of its BAR (QEMU
 * pads it to a power of two); read-only; past the BAR the card does not
 * answer (QEMU's unassigned memory reads 0).
 */
static void test_rom_past_end(const R500TestModel *m)
{
    R500Test t;
    uint32_t size, image, addr;

    r500_test_start(&t, m->name, NULL, true);
    size = ~(r500_bar_probe(&t, PCI_ROM_ADDRESS) & PCI_ROM_ADDRESS_MASK) + 1;
    addr = (t.bus->mmio_alloc_ptr + size - 1) & ~(size - 1);
    g_assert_cmpuint(addr + 2ull * size, <=, t.bus->mmio_limit);
    qpci_config_writel(t.dev, PCI_ROM_ADDRESS, addr | PCI_ROM_ADDRESS_ENABLE);

    g_assert_cmphex(qtest_readw(t.qts, addr), ==, 0xAA55);
    image = qtest_readb(t.qts, addr + 2) * 512u;
    g_test_message("ROM image %u bytes in a BAR of %u", image, size);
    g_assert_cmpuint(image, <=, size);
    if (image < size) {
        g_assert_cmphex(qtest_readl(t.qts, addr + image), ==, 0);
        g_assert_cmphex(qtest_readl(t.qts, addr + size - 4), ==, 0);
    }
    /* Writes are ignored. */
    qtest_writel(t.qts, addr + 4, 0xDEADBEEF);
    g_assert_cmphex(qtest_readl(t.qts, addr + 4), !=, 0xDEADBEEF);
    /* Across and past the end of the BAR. */
    g_assert_cmphex(qtest_readl(t.qts, addr + size - 2) & 0xFFFF, ==,
                    image < size ? 0 : qtest_readw(t.qts, addr + size - 2));
    g_assert_cmphex(qtest_readl(t.qts, addr + size), ==, 0);
    g_assert_cmphex(r500_rreg(&t, R_RBBM_STATUS), ==, 0x40);
    r500_test_stop(&t);
}

/*
 * The CP's DMA aimed at the card's own register BAR: the read-pointer
 * and scratch write-backs are blocked (a guest error each; the registers
 * keep their values), a ring there cannot be fetched (the CP halts until
 * the driver's reset).  The MC passes addresses outside VRAM and the
 * GART through to the bus (PCIE_TX_GART_CNTL: enabled, unmapped mode 0).
 *
 * In the main loop the device's re-entrancy guard blocks it; from the
 * card's own thread (card-thread=on), which holds the chip's lock and not
 * the big one, the board reaches guest RAM only (r500_dma_ram): were it
 * to dispatch to an MMIO region there, that would wait for the big lock
 * while this test's register reads, under the big lock, wait for the
 * chip's, and the test would hang.
 */
static const CpEnvCase dma_main_loop = {
    &r500_test_models[1], "-global r500.card-thread=off"
};
static const CpEnvCase dma_card_thread = {
    &r500_test_models[1], "-global r500.card-thread=on"
};

static void test_dma_own_bar(const void *data)
{
    const CpEnvCase *c = data;
    CpEnv e;
    uint64_t bar;
    uint32_t sc0 = R_SCRATCH_REG, sc1 = R500_REGA_AT(SCRATCH_REG, 1);

    cp_env_start_args(&e, c->m, c->args);
    bar = e.t.mmio.addr;
    g_assert_cmpuint(bar, <, 1ull << 32);
    r500_wreg_pcie(&e.t, PCIE_PCIE_TX_GART_CNTL, 1);
    r500_wreg(&e.t, sc0, 0x5C0);
    r500_wreg(&e.t, R_CP_RB_RPTR_ADDR, bar + sc0);
    r500_wreg(&e.t, R_SCRATCH_ADDR, bar + R500_REGA_AT(SCRATCH_REG, 4));
    r500_wreg(&e.t, R500_REGA_AT(SCRATCH_REG, 5), 0x5C5);
    cp_emit(&e, R500_PM4_PACKET0(sc1, 0));
    cp_emit(&e, 0x600D);
    cp_commit(&e);
    g_assert_true(cp_poll_reg(&e, sc1, ~0u, 0x600D));
    g_assert_true(cp_wait_idle(&e));
    /* SCRATCH_REG1's write-back would land on SCRATCH_REG5. */
    g_assert_cmphex(r500_rreg(&e.t, R500_REGA_AT(SCRATCH_REG, 5)), ==, 0x5C5);
    g_assert_cmphex(r500_rreg(&e.t, sc0), ==, 0x5C0);

    /* The ring itself in the register BAR. */
    r500_wreg(&e.t, R_CP_RB_BASE, bar);
    r500_wreg(&e.t, R_CP_RB_WPTR, r500_rreg(&e.t, R_CP_RB_RPTR) + 16);
    g_assert_false(cp_wait_idle(&e));
    g_assert_true(r500_qmp_alive(&e));
    cp_gpu_reset(&e);
    cp_ring_test(&e);
    cp_env_stop(&e);
}

int main(int argc, char **argv)
{
    char *path = g_strdup_printf("/r500/%s/contract/dma-own-bar",
                                 r500_test_models[1].name);
    char *thread = g_strdup_printf("%s/card-thread", path);

    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("contract/unaligned-mmio", test_unaligned);
    r500_add_model_tests("contract/rom-past-end", test_rom_past_end);
    qtest_add_data_func(path, &dma_main_loop, test_dma_own_bar);
    qtest_add_data_func(thread, &dma_card_thread, test_dma_own_bar);
    g_free(path);
    g_free(thread);
    return g_test_run();
}
