/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Foundation qtests, for every model: PCI identity and BARs, capabilities,
 * reset values the Linux driver depends on (reference radeon-kms-r500.md
 * 1-2), and round trips through every indirect register space.
 */
#include "r500-qtest.h"
#include "qobject/qdict.h"
#include "standard-headers/linux/pci_regs.h"

static void test_identity(const R500TestModel *m)
{
    R500Test t;

    r500_test_start(&t, m->name, NULL, false);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_VENDOR_ID), ==, 0x1002);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_DEVICE_ID), ==, m->device_id);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_CLASS_DEVICE), ==, 0x0300);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_CLASS_PROG), ==, 0);
    /* Subsystem: not ATI/Apple, so no driver quirk applies. */
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x1af4);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_INTERRUPT_PIN), ==, 1);
    r500_test_stop(&t);
}

/* Size of a BAR from its all-ones probe value. */
static uint32_t bar_size(uint32_t probe, uint32_t flag_mask)
{
    return (uint32_t)~(probe & ~flag_mask) + 1;
}

static void test_bars(const R500TestModel *m)
{
    R500Test t;
    uint32_t bar0, bar1, bar2, rom;

    r500_test_start(&t, m->name, NULL, false);
    bar0 = r500_bar_probe(&t, PCI_BASE_ADDRESS_0);
    bar1 = r500_bar_probe(&t, PCI_BASE_ADDRESS_1);
    bar2 = r500_bar_probe(&t, PCI_BASE_ADDRESS_2);
    rom = r500_bar_probe(&t, PCI_ROM_ADDRESS);

    /* BAR0: 256 MiB prefetchable 32-bit memory (VRAM). */
    g_assert_cmphex(bar0 & 0xf, ==, PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_size(bar0, 0xf), ==, 256 * MiB);
    /* BAR1: 256 bytes of I/O. */
    g_assert_cmphex(bar1 & PCI_BASE_ADDRESS_SPACE, ==,
                    PCI_BASE_ADDRESS_SPACE_IO);
    g_assert_cmphex(bar_size(bar1 | 0xffff0000, 0x3), ==, 256);
    /* BAR2: 64 KiB non-prefetchable 32-bit memory (registers). */
    g_assert_cmphex(bar2 & 0xf, ==, 0);
    g_assert_cmphex(bar_size(bar2, 0xf), ==, 64 * KiB);
    /* Nothing else. */
    g_assert_cmphex(r500_bar_probe(&t, PCI_BASE_ADDRESS_3), ==, 0);
    g_assert_cmphex(r500_bar_probe(&t, PCI_BASE_ADDRESS_4), ==, 0);
    g_assert_cmphex(r500_bar_probe(&t, PCI_BASE_ADDRESS_5), ==, 0);
    /* Expansion ROM present (the model's default romfile). */
    g_assert_cmphex(rom & PCI_ROM_ADDRESS_MASK, !=, 0);
    r500_test_stop(&t);
}

static void test_vram_size_property(const R500TestModel *m)
{
    R500Test t;
    uint32_t bar0;

    r500_test_start(&t, m->name, "-global r500.vram-size=64M", false);
    bar0 = r500_bar_probe(&t, PCI_BASE_ADDRESS_0);
    g_assert_cmphex(bar_size(bar0, 0xf), ==, 64 * MiB);
    r500_test_stop(&t);
}

static void test_caps(const R500TestModel *m)
{
    R500Test t;
    uint8_t exp, msi, pm;

    r500_test_start(&t, m->name, NULL, false);
    g_assert_true(qpci_config_readw(t.dev, PCI_STATUS) & PCI_STATUS_CAP_LIST);
    exp = qpci_find_capability(t.dev, PCI_CAP_ID_EXP, 0);
    pm = qpci_find_capability(t.dev, PCI_CAP_ID_PM, 0);
    msi = qpci_find_capability(t.dev, PCI_CAP_ID_MSI, 0);
    g_assert_cmpuint(exp, !=, 0);
    g_assert_cmpuint(pm, !=, 0);
    /* No AGP capability: radeon would take the AGP path (reference 1.2). */
    g_assert_cmpuint(qpci_find_capability(t.dev, PCI_CAP_ID_AGP, 0), ==, 0);
    /* MSI on the R520 family only; RV515 is INTx (radeon_msi_ok). */
    if (m->msi) {
        g_assert_cmpuint(msi, !=, 0);
    } else {
        g_assert_cmpuint(msi, ==, 0);
    }
    r500_test_stop(&t);
}

static void test_reset_values(const R500TestModel *m)
{
    R500Test t;
    uint32_t mc_status, fb_loc, idle_bit;

    r500_test_start(&t, m->name, NULL, true);
    /* Posted card: CONFIG_MEMSIZE = VRAM; aperture = BAR0. */
    g_assert_cmphex(r500_rreg(&t, R_CONFIG_MEMSIZE), ==, 256 * MiB);
    g_assert_cmphex(r500_rreg(&t, R_CONFIG_APER_SIZE), ==, 256 * MiB);
    /* Idle, 64 FIFO slots free. */
    g_assert_cmphex(r500_rreg(&t, R_RBBM_STATUS), ==, 0x40);
    /* Quad pipes - 1 in GB_PIPE_SELECT 13:12. */
    g_assert_cmpuint((r500_rreg(&t, R_GB_PIPE_SELECT) >> 12) & 3, ==,
                     m->quad_pipes - 1);
    /* CRTCs off: posted by MEMSIZE, not by a running CRTC. */
    g_assert_cmphex(r500_rreg(&t, R_D1CRTC_CONTROL), ==, 0);
    g_assert_cmphex(r500_rreg(&t, R_D2CRTC_CONTROL), ==, 0);
    g_assert_cmphex(r500_rreg(&t, R_GEN_INT_STATUS), ==, 0);
    /* The two MC maps: status and FB location at different indices. */
    mc_status = r500_rreg_mc(&t, m->mc_r520_map ? 0x00 : 0x08);
    idle_bit = m->mc_r520_map ? 1u << 1 : 1u << 4;
    g_assert_cmphex(mc_status & idle_bit, ==, idle_bit);
    fb_loc = r500_rreg_mc(&t, m->mc_r520_map ? 0x04 : 0x01);
    g_assert_cmphex(fb_loc, ==, 0x0fff0000);
    /* PCIe link width x16, never all ones (rv370_set_pcie_lanes). */
    g_assert_cmphex(r500_rreg_pcie(&t, 0xa2), ==, 0x66);
    r500_test_stop(&t);
}

static void test_indirect(const R500TestModel *m)
{
    R500Test t;
    uint32_t scratch3 = R500_REGA_AT(SCRATCH_REG, 3);

    r500_test_start(&t, m->name, NULL, true);

    /* MM_INDEX/MM_DATA to a register, both directions. */
    r500_wreg(&t, R_MM_INDEX, scratch3);
    r500_wreg(&t, R_MM_DATA, 0x12345678);
    g_assert_cmphex(r500_rreg(&t, scratch3), ==, 0x12345678);
    r500_wreg(&t, scratch3, 0xcafef00d);
    g_assert_cmphex(r500_rreg(&t, R_MM_DATA), ==, 0xcafef00d);

    /* MM_INDEX with bit 31: VRAM, seen through BAR0. */
    r500_wreg(&t, R_MM_INDEX, 0x80000000u | 0x100000);
    r500_wreg(&t, R_MM_DATA, 0xa5a55a5a);
    g_assert_cmphex(qpci_io_readl(t.dev, t.vram, 0x100000), ==, 0xa5a55a5a);
    qpci_io_writel(t.dev, t.vram, 0x100004, 0x01020304);
    r500_wreg(&t, R_MM_INDEX, 0x80000000u | 0x100004);
    g_assert_cmphex(r500_rreg(&t, R_MM_DATA), ==, 0x01020304);
    /* VRAM offset past the end: ignored, reads 0, QEMU alive. */
    r500_wreg(&t, R_MM_INDEX, 0x80000000u | 0x7ffffff0);
    r500_wreg(&t, R_MM_DATA, 0xdeadbeef);
    g_assert_cmphex(r500_rreg(&t, R_MM_DATA), ==, 0);

    /* PLL: index written as a byte, PLL_WR_EN for the write. */
    r500_wreg_pll(&t, 0x0f, 0x00c0ffee);
    g_assert_cmphex(r500_rreg_pll(&t, 0x0f), ==, 0x00c0ffee);
    g_assert_cmphex(r500_rreg_pll(&t, 0x0e), ==, 0);
    /* Without PLL_WR_EN the data write is dropped. */
    qpci_io_writeb(t.dev, t.mmio, R_CLOCK_CNTL_INDEX, 0x0f);
    r500_wreg(&t, R_CLOCK_CNTL_DATA, 0x11111111);
    g_assert_cmphex(r500_rreg_pll(&t, 0x0f), ==, 0x00c0ffee);

    /* MC: write with 0xFF0000 prefix, read with 0x7F0000. */
    r500_wreg_mc(&t, 0x03, 0x5a5a0000);
    g_assert_cmphex(r500_rreg_mc(&t, 0x03), ==, 0x5a5a0000);
    /* Without the write enable (bit 23) nothing changes. */
    r500_wreg(&t, R_MC_IND_INDEX, 0x7f0003);
    r500_wreg(&t, R_MC_IND_DATA, 0x1);
    g_assert_cmphex(r500_rreg_mc(&t, 0x03), ==, 0x5a5a0000);

    /* PCIE: GART base register. */
    r500_wreg_pcie(&t, 0x13, 0x00040000);
    g_assert_cmphex(r500_rreg_pcie(&t, 0x13), ==, 0x00040000);
    /* The index is masked to 11 bits (rv370_pcie_rreg). */
    g_assert_cmphex(r500_rreg_pcie(&t, 0x813), ==, 0x00040000);

    /* The I/O BAR aliases the low registers. */
    g_assert_cmphex(qpci_io_readl(t.dev, t.io, R_CONFIG_MEMSIZE), ==,
                    256 * MiB);
    qpci_io_writel(t.dev, t.io, R_MM_INDEX, scratch3);
    g_assert_cmphex(qpci_io_readl(t.dev, t.io, R_MM_DATA), ==, 0xcafef00d);

    r500_test_stop(&t);
}

static void test_access_sizes(const R500TestModel *m)
{
    R500Test t;
    uint32_t s5 = R500_REGA_AT(SCRATCH_REG, 5);

    r500_test_start(&t, m->name, NULL, true);
    r500_wreg(&t, s5, 0x11223344);
    /* Byte and word writes merge into the dword. */
    qpci_io_writeb(t.dev, t.mmio, s5 + 1, 0xaa);
    qpci_io_writew(t.dev, t.mmio, s5 + 2, 0xbbcc);
    g_assert_cmphex(r500_rreg(&t, s5), ==, 0xbbccaa44);
    g_assert_cmphex(qpci_io_readb(t.dev, t.mmio, s5 + 3), ==, 0xbb);
    g_assert_cmphex(qpci_io_readw(t.dev, t.mmio, s5), ==, 0xaa44);
    /* An 8-byte access covers two registers. */
    qpci_io_writeq(t.dev, t.mmio, s5, 0x0102030405060708ull);
    g_assert_cmphex(r500_rreg(&t, s5), ==, 0x05060708);
    g_assert_cmphex(r500_rreg(&t, s5 + 4), ==, 0x01020304);
    g_assert_cmphex(qpci_io_readq(t.dev, t.mmio, s5), ==,
                    0x0102030405060708ull);
    r500_test_stop(&t);
}

static void test_unknown_register(const R500TestModel *m)
{
    R500Test t;
    /* Not in the register table: stored and read back, logged once. */
    const uint32_t unknown = 0x0f00;

    r500_test_start(&t, m->name, NULL, true);
    r500_wreg(&t, unknown, 0x600dcafe);
    g_assert_cmphex(r500_rreg(&t, unknown), ==, 0x600dcafe);
    r500_wreg(&t, unknown, 0x0badf00d);
    g_assert_cmphex(r500_rreg(&t, unknown), ==, 0x0badf00d);
    /* Still answering. */
    g_assert_cmphex(r500_rreg(&t, R_RBBM_STATUS), ==, 0x40);
    r500_test_stop(&t);
}

/*
 * QEMU conventions: the core's counters through QMP qom-get "stats"; the
 * old property spelling guest_hwcursor reaches guest-hwcursor.
 */
static void test_qom(const R500TestModel *m)
{
    R500Test t;
    uint64_t errors;
    QDict *rsp;

    r500_test_start(&t, m->name, "-global r500.guest_hwcursor=on", true);
    errors = r500_qom_stat(&t, "guest-errors");
    g_assert_cmpuint(r500_qom_stat(&t, "cp-type0-packets"), ==, 0);
    /* MM_DATA into nowhere is a guest error (docs/architecture.md) */
    r500_wreg(&t, R_MM_INDEX, 0x80000000u | 0x7ffffff0);
    r500_wreg(&t, R_MM_DATA, 0xdeadbeef);
    g_assert_cmpuint(r500_qom_stat(&t, "guest-errors"), ==, errors + 1);
    rsp = qtest_qmp(t.qts, "{'execute': 'qom-get', 'arguments': "
                    "{'path': %s, 'property': 'guest-hwcursor'}}",
                    R500_TEST_ID);
    g_assert_true(qdict_get_bool(rsp, "return"));
    qobject_unref(rsp);
    r500_test_stop(&t);
}

static void test_reset_restores(const R500TestModel *m)
{
    R500Test t;

    r500_test_start(&t, m->name, NULL, true);
    r500_wreg(&t, R_CONFIG_MEMSIZE, 0x1000);
    r500_wreg_pll(&t, 0x0f, 0xffff);
    qobject_unref(qtest_qmp(t.qts, "{'execute': 'system_reset'}"));
    qtest_qmp_eventwait(t.qts, "RESET");
    /* Re-enable after reset: the BARs were cleared by the PCI reset. */
    qpci_device_enable(t.dev);
    t.mmio = qpci_iomap(t.dev, 2, NULL);
    g_assert_cmphex(r500_rreg(&t, R_CONFIG_MEMSIZE), ==, 256 * MiB);
    g_assert_cmphex(r500_rreg_pll(&t, 0x0f), ==, 0);
    r500_test_stop(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("identity", test_identity);
    r500_add_model_tests("bars", test_bars);
    r500_add_model_tests("vram-size", test_vram_size_property);
    r500_add_model_tests("caps", test_caps);
    r500_add_model_tests("reset-values", test_reset_values);
    r500_add_model_tests("indirect", test_indirect);
    r500_add_model_tests("access-sizes", test_access_sizes);
    r500_add_model_tests("unknown-register", test_unknown_register);
    r500_add_model_tests("system-reset", test_reset_restores);
    r500_add_model_tests("qom", test_qom);
    return g_test_run();
}
