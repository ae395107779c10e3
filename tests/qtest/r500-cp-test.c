/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qtests of the command processor, GART, interrupts and 2D engine, with
 * the Linux radeon driver's own sequences (reference radeon-kms-r500.md
 * 4.4, 5.2-5.9, 6): GART table in VRAM, ring, write-back page and IBs in
 * GTT pages of guest RAM, the ring test, the IB test with a fence and its
 * interrupt, 2D fills and copies, and hostile streams that must end with
 * QEMU still answering (the worst ones: r500-liveness-test.c).
 */
#include "r500-qtest.h"
#include "r500-cp-env.h"

/* The INTx line of the card, seen at the I/O APIC (PIRQ -> GSI 16-23). */
static int intx_level(CpEnv *e, int *gsi)
{
    int n = 0;

    for (int i = 16; i < 24; i++) {
        if (qtest_get_irq(e->t.qts, i)) {
            *gsi = i;
            n++;
        }
    }
    return n;
}

static void test_ring_ib_fence(const R500TestModel *m)
{
    CpEnv e;
    int gsi = -1;

    cp_env_start(&e, m);
    qtest_irq_intercept_in(e.t.qts, "ioapic");
    cp_ring_test(&e);
    g_assert_cmpint(intx_level(&e, &gsi), ==, 0);

    /* The fence interrupt (rs600_irq_set: SW_INT_EN). */
    r500_wreg(&e.t, R_GEN_INT_CNTL, SW_INT);
    cp_ib_test(&e);
    g_assert_cmphex(r500_rreg(&e.t, R_GEN_INT_STATUS) & SW_INT, ==, SW_INT);
    g_assert_cmpint(intx_level(&e, &gsi), ==, 1);
    /* rs600_irq_ack writes back what it read: the line falls. */
    r500_wreg(&e.t, R_GEN_INT_STATUS, r500_rreg(&e.t, R_GEN_INT_STATUS));
    g_assert_cmphex(r500_rreg(&e.t, R_GEN_INT_STATUS) & SW_INT, ==, 0);
    g_assert_false(qtest_get_irq(e.t.qts, gsi));
    /* The next fence raises it again. */
    cp_ib_test(&e);
    g_assert_true(qtest_get_irq(e.t.qts, gsi));
    r500_wreg(&e.t, R_GEN_INT_STATUS, SW_INT);
    g_assert_false(qtest_get_irq(e.t.qts, gsi));
    /* The microcode was accepted and reads back. */
    r500_wreg(&e.t, R_CP_ME_RAM_RADDR, 5);
    g_assert_cmphex(r500_rreg(&e.t, R_CP_ME_RAM_DATAH), ==, 0x1005);
    g_assert_cmphex(r500_rreg(&e.t, R_CP_ME_RAM_DATAL), ==, 0x2005);
    cp_env_stop(&e);
}

/* R520 family: radeon_msi_ok enables MSI; each fence is one message. */
static void test_msi(const R500TestModel *m)
{
    CpEnv e;
    uint8_t cap;
    uint64_t msg;

    if (!m->msi) {
        g_test_skip("RV515 has no MSI capability (radeon_msi_ok)");
        return;
    }
    cp_env_start(&e, m);
    cap = qpci_find_capability(e.t.dev, PCI_CAP_ID_MSI, 0);
    g_assert_cmpuint(cap, !=, 0);
    msg = guest_alloc(&e.alloc, 4096);
    qtest_writel(e.t.qts, msg, 0);
    qpci_config_writel(e.t.dev, cap + PCI_MSI_ADDRESS_LO, (uint32_t)msg);
    qpci_config_writel(e.t.dev, cap + PCI_MSI_ADDRESS_HI, msg >> 32);
    qpci_config_writew(e.t.dev, cap + PCI_MSI_DATA_64, 0x4321);
    qpci_config_writew(e.t.dev, cap + PCI_MSI_FLAGS,
                       qpci_config_readw(e.t.dev, cap + PCI_MSI_FLAGS) |
                       PCI_MSI_FLAGS_ENABLE);
    r500_wreg(&e.t, R_GEN_INT_CNTL, SW_INT);
    cp_ib_test(&e);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0x4321);
    /* Acknowledged and rearmed with nothing pending: no new message. */
    qtest_writel(e.t.qts, msg, 0);
    r500_wreg(&e.t, R_GEN_INT_STATUS, SW_INT);
    r500_wreg(&e.t, R_MSI_REARM_EN, 1);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0);
    cp_ib_test(&e);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0x4321);
    cp_env_stop(&e);
}

/* 2D through the ring: PAINT_MULTI, an overlapping copy, r100_copy_blit. */
static void test_2d(const R500TestModel *m)
{
    CpEnv e;
    const uint32_t surf = 0x00100000, pitch = 4096;
    uint32_t po = (pitch / 64) << 22 | surf >> 10;

    cp_env_start(&e, m);
    /* Fill (radeon_clear_box): 64x8 at (16, 4), 32 bpp. */
    cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 4));
    cp_emit(&e, (1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) |
         (0xF0u << 16) | (1u << 28));
    cp_emit(&e, po);
    cp_emit(&e, 0x00C0FFEE);
    cp_emit(&e, 16u << 16 | 4);
    cp_emit(&e, 64u << 16 | 8);
    cp_commit(&e);
    g_assert_true(cp_wait_idle(&e));
    g_assert_cmphex(cp_vram_r(&e, surf + 4 * pitch + 16 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(cp_vram_r(&e, surf + 11 * pitch + 79 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(cp_vram_r(&e, surf + 4 * pitch + 80 * 4), ==, 0);
    g_assert_cmphex(cp_vram_r(&e, surf + 12 * pitch + 16 * 4), ==, 0);

    /* Copy it 8 pixels right onto itself, right to left (XAA). */
    for (uint32_t x = 16; x < 80; x++) {
        qpci_io_writel(e.t.dev, e.t.vram, surf + 4 * pitch + x * 4, x);
    }
    cp_emit(&e, R500_PM4_PACKET0(R_DP_GUI_MASTER_CNTL, 0));
    cp_emit(&e, 3u | (15u << 4) | (6u << 8) | (3u << 12) | (0xCCu << 16) |
         (2u << 24) | (1u << 28) | (1u << 30));
    cp_emit(&e, R500_PM4_PACKET0(R_DP_CNTL, 0));
    cp_emit(&e, 2);                    /* right to left, top to bottom */
    cp_emit(&e, R500_PM4_PACKET0(R_SRC_PITCH_OFFSET, 1));
    cp_emit(&e, po);
    cp_emit(&e, po);
    cp_emit(&e, R500_PM4_PACKET0(R_SRC_Y_X, 0));
    cp_emit(&e, 4u << 16 | 79);
    cp_emit(&e, R500_PM4_PACKET0(R_DST_Y_X, 1));
    cp_emit(&e, 4u << 16 | 87);
    cp_emit(&e, 1u << 16 | 64);
    cp_commit(&e);
    g_assert_true(cp_wait_idle(&e));
    for (uint32_t x = 24; x < 88; x++) {
        g_assert_cmpuint(cp_vram_r(&e, surf + 4 * pitch + x * 4), ==, x - 8);
    }

    /* r100_copy_blit: 2 pages of VRAM to GTT, rows of 1024 pixels. */
    cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 8));
    cp_emit(&e, 0x52CC36FF);
    cp_emit(&e, (4096 / 64) << 22 | surf >> 10);
    cp_emit(&e, (4096 / 64) << 22 | DATA_MC >> 10);
    cp_emit(&e, 0x1FFF1FFF);
    cp_emit(&e, 0);
    cp_emit(&e, 0x1FFF1FFF);
    cp_emit(&e, 4);                    /* source row 4 */
    cp_emit(&e, 0);
    cp_emit(&e, 1024u << 16 | 2);
    cp_emit(&e, R500_PM4_PACKET0(R_DSTCACHE_CTLSTAT, 0));
    cp_emit(&e, 0xF);
    cp_emit(&e, R500_PM4_PACKET0(R_WAIT_UNTIL, 0));
    cp_emit(&e, 0x50200);
    cp_commit(&e);
    g_assert_true(cp_wait_idle(&e));
    for (uint32_t x = 24; x < 88; x++) {
        g_assert_cmpuint(gtt_r(&e, DATA_MC + x * 4), ==, x - 8);
    }
    /* Row 5 of the fill, on the second (scattered) page. */
    g_assert_cmphex(gtt_r(&e, DATA_MC + 4096 + 16 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(gtt_r(&e, DATA_MC + 4096 + 15 * 4), ==, 0);
    cp_env_stop(&e);
}

static void test_hostile(const R500TestModel *m)
{
    CpEnv e;
    GRand *rnd = g_rand_new_with_seed(0x500);
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 4);

    cp_env_start(&e, m);

    /* An IB that launches itself: ignored inside the IB, the ring goes on. */
    gtt_w(&e, IB_MC, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    gtt_w(&e, IB_MC + 4, IB_MC);
    gtt_w(&e, IB_MC + 8, 3);
    cp_emit(&e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    cp_emit(&e, IB_MC);
    cp_emit(&e, 3);
    cp_emit(&e, R500_PM4_PACKET0(scratch, 0));
    cp_emit(&e, 1);
    cp_commit(&e);
    g_assert_true(cp_poll_reg(&e, scratch, ~0u, 1));
    g_assert_true(cp_wait_idle(&e));

    /* A count past the end of an IB halts the CP; radeon's reset helps. */
    gtt_w(&e, IB_MC, R500_PM4_PACKET0(scratch, 0x3FFF));
    cp_emit(&e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    cp_emit(&e, IB_MC);
    cp_emit(&e, 4);
    cp_commit(&e);
    g_assert_false(cp_wait_idle(&e));
    g_assert_true(r500_qmp_alive(&e));
    cp_gpu_reset(&e);
    cp_ring_test(&e);

    /* A whole ring of garbage, twice. */
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < RING_DWORDS; i++) {
            gtt_w(&e, RING_MC + 4 * i, g_rand_int(rnd));
        }
        r500_wreg(&e.t, R_CP_RB_WPTR, RING_DWORDS - 1);
        g_assert_true(r500_qmp_alive(&e));
        g_assert_true(r500_qmp_alive(&e));
        /* Whatever it did, the driver's reset brings the CP back. */
        cp_gpu_reset(&e);
        cp_ring_test(&e);
    }
    g_rand_free(rnd);
    cp_env_stop(&e);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("cp/ring-ib-fence", test_ring_ib_fence);
    r500_add_model_tests("cp/msi", test_msi);
    r500_add_model_tests("cp/2d", test_2d);
    r500_add_model_tests("cp/hostile", test_hostile);
    return g_test_run();
}
