/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qtests of the command processor, GART, interrupts and 2D engine, with
 * the Linux radeon driver's own sequences (reference radeon-kms-r500.md
 * 4.4, 5.2-5.9, 6): GART table in VRAM, ring, write-back page and IBs in
 * GTT pages of guest RAM, the ring test, the IB test with a fence and its
 * interrupt, 2D fills and copies, and hostile streams that must end with
 * QEMU still answering.
 */
#include "r500-qtest.h"
#include "libqos/malloc-pc.h"
#include "qapi/qmp/qdict.h"
#include "standard-headers/linux/pci_regs.h"

#define GTT_MC          0x10000000u /* after 256 MiB of VRAM */
#define GTT_PAGES       64u
#define TABLE_VRAM      0x00800000u /* GART table, VRAM offset = MC */
#define RING_MC         GTT_MC      /* 16 pages: 2^14 dwords */
#define RING_BUFSZ      13u
#define RING_DWORDS     (2u << RING_BUFSZ)
#define WB_MC           (GTT_MC + 16 * 4096)
#define IB_MC           (GTT_MC + 17 * 4096)
#define DATA_MC         (GTT_MC + 20 * 4096)

#define PACKET0(reg, n) (((reg) >> 2) | ((uint32_t)(n) << 16))
#define PACKET2         0x80000000u
#define PACKET3(op, n)  (0xC0000000u | ((op) << 8) | ((uint32_t)(n) << 16))

#define SW_INT          (1u << 25)
#define SW_INT_FIRE     (1u << 26)
#define GUI_ACTIVE      (1u << 31)

typedef struct CpEnv {
    R500Test t;
    const R500TestModel *m;
    QGuestAllocator alloc;
    uint64_t ram;       /* guest-physical base of the GTT pages */
    uint32_t wptr;
    uint32_t seq;
} CpEnv;

/* GTT page i is guest page GTT_PAGES - 1 - i: only the GART finds it. */
static uint64_t gtt_phys(CpEnv *e, uint32_t mc)
{
    uint32_t page = (mc - GTT_MC) >> 12;

    g_assert_cmpuint(page, <, GTT_PAGES);
    return e->ram + (uint64_t)(GTT_PAGES - 1 - page) * 4096 + (mc & 0xFFF);
}

static void gtt_w(CpEnv *e, uint32_t mc, uint32_t v)
{
    qtest_writel(e->t.qts, gtt_phys(e, mc), v);
}

static uint32_t gtt_r(CpEnv *e, uint32_t mc)
{
    return qtest_readl(e->t.qts, gtt_phys(e, mc));
}

/* rv370_pcie_gart_enable with the table in VRAM, then the TLB flush. */
static void gart_enable(CpEnv *e)
{
    R500Test *t = &e->t;

    for (uint32_t i = 0; i < GTT_PAGES; i++) {
        uint64_t page = e->ram + (uint64_t)(GTT_PAGES - 1 - i) * 4096;
        uint32_t pte = (uint32_t)(page >> 8) | (uint32_t)(page >> 32) << 24 |
                       0xD;     /* readable, writeable, unsnooped */
        qpci_io_writel(t->dev, t->vram, TABLE_VRAM + 4 * i, pte);
    }
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, 6);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_START_LO, GTT_MC);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_END_LO,
                   GTT_MC + (GTT_PAGES - 1) * 4096);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_START_HI, 0);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_END_HI, 0);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_BASE, TABLE_VRAM);
    r500_wreg_pcie(t, PCIE_PCIE_TX_DISCARD_RD_ADDR_LO, 0);
    r500_wreg_pcie(t, PCIE_PCIE_TX_DISCARD_RD_ADDR_HI, 0);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_ERROR, 0);
    r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, 7);
    for (int i = 0; i < 2; i++) {
        uint32_t c = r500_rreg_pcie(t, PCIE_PCIE_TX_GART_CNTL);

        r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, c | (1u << 8));
        r500_rreg_pcie(t, PCIE_PCIE_TX_GART_CNTL);
        r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, c);
    }
}

/* r100_cp_load_microcode and r100_cp_init, in order, with its values. */
static void cp_init(CpEnv *e)
{
    R500Test *t = &e->t;
    uint32_t tmp = RING_BUFSZ | (9u << 8) | (1u << 18);

    r500_wreg(t, R_CP_ME_RAM_ADDR, 0);
    for (uint32_t i = 0; i < 256; i++) {
        r500_wreg(t, R_CP_ME_RAM_DATAH, 0x1000 + i);
        r500_wreg(t, R_CP_ME_RAM_DATAL, 0x2000 + i);
    }
    r500_wreg(t, R_CP_RB_WPTR_DELAY, 64);
    r500_wreg(t, R_CP_RB_CNTL, tmp | (1u << 27));
    r500_wreg(t, R_CP_RB_BASE, RING_MC);
    r500_wreg(t, R_CP_RB_CNTL, tmp | (1u << 31) | (1u << 27));
    r500_wreg(t, R_CP_RB_RPTR_WR, 0);
    e->wptr = 0;
    r500_wreg(t, R_CP_RB_WPTR, 0);
    r500_wreg(t, R_CP_RB_RPTR_ADDR, WB_MC + 1024);
    r500_wreg(t, R_SCRATCH_ADDR, WB_MC);
    r500_wreg(t, R_SCRATCH_UMSK, 0xFF);
    r500_wreg(t, R_CP_RB_CNTL, tmp);
    r500_wreg(t, R_CP_CSQ_MODE, 0x1050);
    r500_wreg(t, R_CP_RB_WPTR_DELAY, 0);
    r500_wreg(t, R_CP_CSQ_MODE, 0x4D4D);
    r500_wreg(t, R_CP_CSQ_CNTL, 4u << 28);
}

static void cp_env_start_args(CpEnv *e, const R500TestModel *m,
                              const char *extra)
{
    memset(e, 0, sizeof(*e));
    e->m = m;
    r500_test_start(&e->t, m->name, extra, true);
    pc_alloc_init(&e->alloc, e->t.qts, ALLOC_NO_FLAGS);
    e->ram = guest_alloc(&e->alloc, GTT_PAGES * 4096);
    g_assert_cmphex(e->ram & 0xFFF, ==, 0);
    qtest_memset(e->t.qts, e->ram, 0, GTT_PAGES * 4096);
    gart_enable(e);
    cp_init(e);
}

static void cp_env_start(CpEnv *e, const R500TestModel *m)
{
    cp_env_start_args(e, m, NULL);
}

static void cp_env_stop(CpEnv *e)
{
    alloc_destroy(&e->alloc);
    r500_test_stop(&e->t);
}

static void emit(CpEnv *e, uint32_t v)
{
    gtt_w(e, RING_MC + 4 * e->wptr, v);
    e->wptr = (e->wptr + 1) % RING_DWORDS;
}

/* radeon_ring_commit: pad to 16 dwords, publish the write pointer. */
static void commit(CpEnv *e)
{
    while (e->wptr & 15) {
        emit(e, PACKET2);
    }
    r500_wreg(&e->t, R_CP_RB_WPTR, e->wptr);
    (void)r500_rreg(&e->t, R_CP_RB_WPTR);
}

/* Poll like the driver's usec_timeout loops (each read lets QEMU run). */
static bool poll_reg(CpEnv *e, uint32_t reg, uint32_t mask, uint32_t want)
{
    for (int i = 0; i < 10000; i++) {
        if ((r500_rreg(&e->t, reg) & mask) == want) {
            return true;
        }
    }
    return false;
}

static bool wait_idle(CpEnv *e)
{
    return poll_reg(e, R_RBBM_STATUS, GUI_ACTIVE, 0);
}

/* r100_ring_test on SCRATCH_REG1. */
static void ring_test(CpEnv *e)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 1);

    r500_wreg(&e->t, scratch, 0xCAFEDEAD);
    emit(e, PACKET0(scratch, 0));
    emit(e, 0xDEADBEEF);
    commit(e);
    g_assert_true(poll_reg(e, scratch, ~0u, 0xDEADBEEF));
    g_assert_true(wait_idle(e));
    /* The read pointer reaches the write-back page (r100_gfx_get_rptr). */
    g_assert_cmpuint(gtt_r(e, WB_MC + 1024), ==, e->wptr);
    g_assert_cmpuint(r500_rreg(&e->t, R_CP_RB_RPTR), ==, e->wptr);
}

/* r300_fence_ring_emit */
static void fence(CpEnv *e)
{
    emit(e, PACKET0(R_RE_SCISSORS_TL, 0));
    emit(e, 0);
    emit(e, PACKET0(R_RE_SCISSORS_BR, 0));
    emit(e, 0);
    emit(e, PACKET0(R_RB3D_DSTCACHE_CTLSTAT, 0));
    emit(e, 2);
    emit(e, PACKET0(R_ZB_ZCACHE_CTLSTAT, 0));
    emit(e, 1);
    emit(e, PACKET0(R_WAIT_UNTIL, 0));
    emit(e, 0x30200);
    emit(e, PACKET0(R_HOST_PATH_CNTL, 0));
    emit(e, 1u << 27);
    emit(e, PACKET0(R_HOST_PATH_CNTL, 0));
    emit(e, 0);
    emit(e, PACKET0(R_SCRATCH_REG, 0));
    emit(e, ++e->seq);
    emit(e, PACKET0(R_GEN_INT_STATUS, 0));
    emit(e, SW_INT_FIRE);
}

/* r100_ib_test: the IB in a GTT page, then a fence; waits for WB+0. */
static void ib_test(CpEnv *e)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 2);

    r500_wreg(&e->t, scratch, 0xCAFEDEAD);
    gtt_w(e, IB_MC, PACKET0(scratch, 0));
    gtt_w(e, IB_MC + 4, 0xDEADBEEF);
    for (int i = 2; i < 8; i++) {
        gtt_w(e, IB_MC + 4 * i, PACKET2);
    }
    /* r100_ring_ib_execute with the rptr-save scratch (REG3). */
    emit(e, PACKET0(R500_REGA_AT(SCRATCH_REG, 3), 0));
    emit(e, e->wptr + 4);
    emit(e, PACKET0(R_CP_IB_BASE, 1));
    emit(e, IB_MC);
    emit(e, 8);
    fence(e);
    commit(e);
    for (int i = 0; i < 10000 && gtt_r(e, WB_MC) != e->seq; i++) {
        (void)r500_rreg(&e->t, R_RBBM_STATUS);
    }
    g_assert_cmpuint(gtt_r(e, WB_MC), ==, e->seq);
    g_assert_cmphex(r500_rreg(&e->t, scratch), ==, 0xDEADBEEF);
    g_assert_true(wait_idle(e));
}

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
    ring_test(&e);
    g_assert_cmpint(intx_level(&e, &gsi), ==, 0);

    /* The fence interrupt (rs600_irq_set: SW_INT_EN). */
    r500_wreg(&e.t, R_GEN_INT_CNTL, SW_INT);
    ib_test(&e);
    g_assert_cmphex(r500_rreg(&e.t, R_GEN_INT_STATUS) & SW_INT, ==, SW_INT);
    g_assert_cmpint(intx_level(&e, &gsi), ==, 1);
    /* rs600_irq_ack writes back what it read: the line falls. */
    r500_wreg(&e.t, R_GEN_INT_STATUS, r500_rreg(&e.t, R_GEN_INT_STATUS));
    g_assert_cmphex(r500_rreg(&e.t, R_GEN_INT_STATUS) & SW_INT, ==, 0);
    g_assert_false(qtest_get_irq(e.t.qts, gsi));
    /* The next fence raises it again. */
    ib_test(&e);
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
    ib_test(&e);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0x4321);
    /* Acknowledged and rearmed with nothing pending: no new message. */
    qtest_writel(e.t.qts, msg, 0);
    r500_wreg(&e.t, R_GEN_INT_STATUS, SW_INT);
    r500_wreg(&e.t, R_MSI_REARM_EN, 1);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0);
    ib_test(&e);
    g_assert_cmphex(qtest_readl(e.t.qts, msg), ==, 0x4321);
    cp_env_stop(&e);
}

static uint32_t vram_r(CpEnv *e, uint32_t off)
{
    return qpci_io_readl(e->t.dev, e->t.vram, off);
}

/* 2D through the ring: PAINT_MULTI, an overlapping copy, r100_copy_blit. */
static void test_2d(const R500TestModel *m)
{
    CpEnv e;
    const uint32_t surf = 0x00100000, pitch = 4096;
    uint32_t po = (pitch / 64) << 22 | surf >> 10;

    cp_env_start(&e, m);
    /* Fill (radeon_clear_box): 64x8 at (16, 4), 32 bpp. */
    emit(&e, PACKET3(0x9A, 4));
    emit(&e, (1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) |
         (0xF0u << 16) | (1u << 28));
    emit(&e, po);
    emit(&e, 0x00C0FFEE);
    emit(&e, 16u << 16 | 4);
    emit(&e, 64u << 16 | 8);
    commit(&e);
    g_assert_true(wait_idle(&e));
    g_assert_cmphex(vram_r(&e, surf + 4 * pitch + 16 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(vram_r(&e, surf + 11 * pitch + 79 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(vram_r(&e, surf + 4 * pitch + 80 * 4), ==, 0);
    g_assert_cmphex(vram_r(&e, surf + 12 * pitch + 16 * 4), ==, 0);

    /* Copy it 8 pixels right onto itself, right to left (XAA). */
    for (uint32_t x = 16; x < 80; x++) {
        qpci_io_writel(e.t.dev, e.t.vram, surf + 4 * pitch + x * 4, x);
    }
    emit(&e, PACKET0(R_DP_GUI_MASTER_CNTL, 0));
    emit(&e, 3u | (15u << 4) | (6u << 8) | (3u << 12) | (0xCCu << 16) |
         (2u << 24) | (1u << 28) | (1u << 30));
    emit(&e, PACKET0(R_DP_CNTL, 0));
    emit(&e, 2);                    /* right to left, top to bottom */
    emit(&e, PACKET0(R_SRC_PITCH_OFFSET, 1));
    emit(&e, po);
    emit(&e, po);
    emit(&e, PACKET0(R_SRC_Y_X, 0));
    emit(&e, 4u << 16 | 79);
    emit(&e, PACKET0(R_DST_Y_X, 1));
    emit(&e, 4u << 16 | 87);
    emit(&e, 1u << 16 | 64);
    commit(&e);
    g_assert_true(wait_idle(&e));
    for (uint32_t x = 24; x < 88; x++) {
        g_assert_cmpuint(vram_r(&e, surf + 4 * pitch + x * 4), ==, x - 8);
    }

    /* r100_copy_blit: 2 pages of VRAM to GTT, rows of 1024 pixels. */
    emit(&e, PACKET3(0x9B, 8));
    emit(&e, 0x52CC36FF);
    emit(&e, (4096 / 64) << 22 | surf >> 10);
    emit(&e, (4096 / 64) << 22 | DATA_MC >> 10);
    emit(&e, 0x1FFF1FFF);
    emit(&e, 0);
    emit(&e, 0x1FFF1FFF);
    emit(&e, 4);                    /* source row 4 */
    emit(&e, 0);
    emit(&e, 1024u << 16 | 2);
    emit(&e, PACKET0(R_DSTCACHE_CTLSTAT, 0));
    emit(&e, 0xF);
    emit(&e, PACKET0(R_WAIT_UNTIL, 0));
    emit(&e, 0x50200);
    commit(&e);
    g_assert_true(wait_idle(&e));
    for (uint32_t x = 24; x < 88; x++) {
        g_assert_cmpuint(gtt_r(&e, DATA_MC + x * 4), ==, x - 8);
    }
    /* Row 5 of the fill, on the second (scattered) page. */
    g_assert_cmphex(gtt_r(&e, DATA_MC + 4096 + 16 * 4), ==, 0x00C0FFEE);
    g_assert_cmphex(gtt_r(&e, DATA_MC + 4096 + 15 * 4), ==, 0);
    cp_env_stop(&e);
}

static bool qmp_alive(CpEnv *e)
{
    QDict *r = qtest_qmp(e->t.qts, "{'execute': 'query-status'}");
    bool ok = qdict_haskey(r, "return");

    qobject_unref(r);
    return ok;
}

/* An MC register's index in this model's map (mc_regs.def). */
static uint32_t mc_idx(CpEnv *e, R500McReg reg)
{
    static const int idx[MC__COUNT][2] = {
#define R500_MC_REG(name, rv515, r520) [MC_##name] = { rv515, r520 },
#include "hw/r500/regs/mc_regs.def"
#undef R500_MC_REG
    };

    return idx[reg][e->m->mc_r520_map];
}

/* rs600_asic_reset's CP part, then r100_cp_init again. */
static void gpu_reset(CpEnv *e)
{
    R500Test *t = &e->t;

    r500_wreg(t, R_CP_CSQ_CNTL, 0);
    r500_wreg(t, R_CP_RB_CNTL, r500_rreg(t, R_CP_RB_CNTL) | (1u << 31));
    r500_wreg(t, R_CP_RB_RPTR_WR, 0);
    r500_wreg(t, R_CP_RB_WPTR, 0);
    r500_wreg(t, R_RBBM_SOFT_RESET, 1);
    (void)r500_rreg(t, R_RBBM_SOFT_RESET);
    r500_wreg(t, R_RBBM_SOFT_RESET, 0);
    /* Garbage may have moved VRAM and the AGP window: rv515_mc_program. */
    r500_wreg_mc(t, mc_idx(e, MC_MC_FB_LOCATION), 0x0FFF0000);
    r500_wreg_mc(t, mc_idx(e, MC_MC_AGP_LOCATION), 0xFFFFFFFF);
    r500_wreg(t, R_MM_INDEX, 0);
    gart_enable(e);
    cp_init(e);
}

static void test_hostile(const R500TestModel *m)
{
    CpEnv e;
    GRand *rnd = g_rand_new_with_seed(0x500);
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 4);

    cp_env_start(&e, m);

    /* An IB that launches itself: ignored inside the IB, the ring goes on. */
    gtt_w(&e, IB_MC, PACKET0(R_CP_IB_BASE, 1));
    gtt_w(&e, IB_MC + 4, IB_MC);
    gtt_w(&e, IB_MC + 8, 3);
    emit(&e, PACKET0(R_CP_IB_BASE, 1));
    emit(&e, IB_MC);
    emit(&e, 3);
    emit(&e, PACKET0(scratch, 0));
    emit(&e, 1);
    commit(&e);
    g_assert_true(poll_reg(&e, scratch, ~0u, 1));
    g_assert_true(wait_idle(&e));

    /* A count past the end of an IB halts the CP; radeon's reset helps. */
    gtt_w(&e, IB_MC, PACKET0(scratch, 0x3FFF));
    emit(&e, PACKET0(R_CP_IB_BASE, 1));
    emit(&e, IB_MC);
    emit(&e, 4);
    commit(&e);
    g_assert_false(wait_idle(&e));
    g_assert_true(qmp_alive(&e));
    gpu_reset(&e);
    ring_test(&e);

    /*
     * The largest IB (2^23 - 2 dwords, 32 MiB of zeroes in VRAM: type-0
     * writes of MM_INDEX): QMP keeps answering while the CP works.
     */
    {
        gint64 worst = 0, t0, start = g_get_monotonic_time();
        int polls = 0;

        emit(&e, PACKET0(R_CP_IB_BASE, 1));
        emit(&e, 0x01000000);
        emit(&e, 0x7FFFFE);
        emit(&e, PACKET0(scratch, 0));
        emit(&e, 2);
        commit(&e);
        do {
            t0 = g_get_monotonic_time();
            g_assert_true(qmp_alive(&e));
            worst = MAX(worst, g_get_monotonic_time() - t0);
            polls++;
        } while (r500_rreg(&e.t, scratch) != 2 &&
                 g_get_monotonic_time() - start < 60 * G_USEC_PER_SEC);
        g_assert_cmpuint(r500_rreg(&e.t, scratch), ==, 2);
        g_test_message("8 Mi-dword IB: %.0f ms, %d QMP polls, slowest "
                       "answer %.1f ms", (g_get_monotonic_time() - start) /
                       1000.0, polls, worst / 1000.0);
        g_assert_cmpint(worst, <, 2 * G_USEC_PER_SEC);
    }

    /* A whole ring of garbage, twice. */
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < RING_DWORDS; i++) {
            gtt_w(&e, RING_MC + 4 * i, g_rand_int(rnd));
        }
        r500_wreg(&e.t, R_CP_RB_WPTR, RING_DWORDS - 1);
        g_assert_true(qmp_alive(&e));
        g_assert_true(qmp_alive(&e));
        /* Whatever it did, the driver's reset brings the CP back. */
        gpu_reset(&e);
        ring_test(&e);
    }
    g_rand_free(rnd);
    cp_env_stop(&e);
}

static const char *qmp_status(QTestState *qts, const char *cmd)
{
    static char buf[32];
    QDict *r = qtest_qmp(qts, "{'execute': %s}", cmd);
    QDict *ret = qdict_get_qdict(r, "return");

    g_assert_nonnull(ret);
    g_strlcpy(buf, qdict_get_try_str(ret, "status") ?: "", sizeof(buf));
    qobject_unref(r);
    return buf;
}

/*
 * Migrate in the middle of things: the CP waiting for the rest of a ring
 * packet, a host-data blit half fed, the microcode; finish both on the
 * destination.
 */
static void test_migration(const R500TestModel *m)
{
    const char *args = "-m 64 -global r500.vram-size=16M";
    const uint32_t surf = 0x100000, pitch = 4096;
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 4);
    char *file = g_strdup_printf("%s/r500-mig-%d", g_get_tmp_dir(), getpid());
    char *uri = g_strdup_printf("exec:cat > %s", file);
    char *dst_args;
    CpEnv e, d;

    cp_env_start_args(&e, m, args);
    ring_test(&e);
    /* Three of the four dwords of a packet: the CP waits, busy. */
    emit(&e, PACKET0(scratch, 2));
    emit(&e, 11);
    emit(&e, 12);
    r500_wreg(&e.t, R_CP_RB_WPTR, e.wptr);
    g_assert_false(wait_idle(&e));
    /* A 32x2 mono host-data blit (XAA), first row only. */
    r500_wreg(&e.t, R_DP_GUI_MASTER_CNTL, (1u << 1) | (15u << 4) | (6u << 8) |
              (0u << 12) | (1u << 14) | (0xCCu << 16) | (3u << 24) |
              (1u << 28));
    r500_wreg(&e.t, R_DP_SRC_FRGD_CLR, 0xAAAAAAAA);
    r500_wreg(&e.t, R_DP_SRC_BKGD_CLR, 0x55555555);
    r500_wreg(&e.t, R_DST_PITCH_OFFSET, (pitch / 64) << 22 | surf >> 10);
    r500_wreg(&e.t, R_DST_Y_X, 50u << 16);
    r500_wreg(&e.t, R_DST_HEIGHT_WIDTH, 2u << 16 | 32);
    r500_wreg(&e.t, R500_REGA_AT(HOST_DATA, 0), 0x0000FFFF);
    g_assert_cmphex(vram_r(&e, surf + 50 * pitch + 15 * 4), ==, 0xAAAAAAAA);

    qobject_unref(qtest_qmp(e.t.qts, "{'execute': 'migrate', 'arguments': "
                            "{'uri': %s}}", uri));
    for (int i = 0; i < 1000 &&
         strcmp(qmp_status(e.t.qts, "query-migrate"), "completed"); i++) {
        g_usleep(10000);
    }
    g_assert_cmpstr(qmp_status(e.t.qts, "query-migrate"), ==, "completed");

    dst_args = g_strdup_printf("%s -incoming defer", args);
    d = e;
    r500_test_start(&d.t, m->name, dst_args, true);
    g_free(uri);
    uri = g_strdup_printf("exec:cat %s", file);
    qobject_unref(qtest_qmp(d.t.qts, "{'execute': 'migrate-incoming', "
                            "'arguments': {'uri': %s}}", uri));
    for (int i = 0; i < 1000 &&
         !strcmp(qmp_status(d.t.qts, "query-status"), "inmigrate"); i++) {
        g_usleep(10000);
    }
    g_assert_cmpstr(qmp_status(d.t.qts, "query-status"), ==, "running");
    r500_test_stop(&e.t);
    alloc_destroy(&e.alloc);
    unlink(file);

    /* The microcode, the waiting CP and the half-done blit came along. */
    r500_wreg(&d.t, R_CP_ME_RAM_RADDR, 200);
    g_assert_cmphex(r500_rreg(&d.t, R_CP_ME_RAM_DATAH), ==, 0x1000 + 200);
    g_assert_false(wait_idle(&d));
    emit(&d, 13);
    commit(&d);
    g_assert_true(poll_reg(&d, scratch + 8, ~0u, 13));
    g_assert_cmpuint(r500_rreg(&d.t, scratch), ==, 11);
    g_assert_true(wait_idle(&d));
    r500_wreg(&d.t, R_HOST_DATA_LAST, 0xFFFF0000);
    g_assert_cmphex(vram_r(&d, surf + 50 * pitch + 16 * 4), ==, 0x55555555);
    g_assert_cmphex(vram_r(&d, surf + 51 * pitch + 15 * 4), ==, 0x55555555);
    g_assert_cmphex(vram_r(&d, surf + 51 * pitch + 16 * 4), ==, 0xAAAAAAAA);
    r500_test_stop(&d.t);
    g_free(dst_args);
    g_free(uri);
    g_free(file);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("cp/ring-ib-fence", test_ring_ib_fence);
    r500_add_model_tests("cp/msi", test_msi);
    r500_add_model_tests("cp/2d", test_2d);
    r500_add_model_tests("cp/hostile", test_hostile);
    r500_add_model_tests("cp/migration", test_migration);
    return g_test_run();
}
