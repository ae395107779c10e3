/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "r500-cp-env.h"
#include "r500-driver-seq.h"

void cp_env_w(void *opaque, uint32_t reg, uint32_t val)
{
    r500_wreg(opaque, reg, val);
}

static void qtest_wpcie(void *opaque, uint32_t index, uint32_t val)
{
    r500_wreg_pcie(opaque, index, val);
}

/* GTT page i is guest page GTT_PAGES - 1 - i: only the GART finds it. */
uint64_t gtt_phys(CpEnv *e, uint32_t mc)
{
    uint32_t page = (mc - GTT_MC) >> 12;

    g_assert_cmpuint(page, <, GTT_PAGES);
    return e->ram + (uint64_t)(GTT_PAGES - 1 - page) * 4096 + (mc & 0xFFF);
}

void gtt_w(CpEnv *e, uint32_t mc, uint32_t v)
{
    qtest_writel(e->t.qts, gtt_phys(e, mc), v);
}

uint32_t gtt_r(CpEnv *e, uint32_t mc)
{
    return qtest_readl(e->t.qts, gtt_phys(e, mc));
}

/* rv370_pcie_gart_enable with the table in VRAM, then the TLB flush. */
void gart_enable(CpEnv *e)
{
    R500Test *t = &e->t;

    for (uint32_t i = 0; i < GTT_PAGES; i++) {
        uint64_t page = e->ram + (uint64_t)(GTT_PAGES - 1 - i) * 4096;
        uint32_t pte = (uint32_t)(page >> 8) | (uint32_t)(page >> 32) << 24 |
                       0xD;     /* readable, writeable, unsnooped */
        qpci_io_writel(t->dev, t->vram, TABLE_VRAM + 4 * i, pte);
    }
    r500_seq_gart_enable(qtest_wpcie, t, GTT_MC, GTT_PAGES, TABLE_VRAM);
    for (int i = 0; i < 2; i++) {
        uint32_t c = r500_rreg_pcie(t, PCIE_PCIE_TX_GART_CNTL);

        r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, c | (1u << 8));
        r500_rreg_pcie(t, PCIE_PCIE_TX_GART_CNTL);
        r500_wreg_pcie(t, PCIE_PCIE_TX_GART_CNTL, c);
    }
}

/* r100_cp_load_microcode and r100_cp_init, in order, with its values. */
void cp_init(CpEnv *e)
{
    R500Test *t = &e->t;

    r500_wreg(t, R_CP_ME_RAM_ADDR, 0);
    for (uint32_t i = 0; i < 256; i++) {
        r500_wreg(t, R_CP_ME_RAM_DATAH, 0x1000 + i);
        r500_wreg(t, R_CP_ME_RAM_DATAL, 0x2000 + i);
    }
    e->wptr = 0;
    r500_seq_cp_init(cp_env_w, t, RING_MC, RING_BUFSZ, WB_MC);
}

void cp_env_start_args(CpEnv *e, const R500TestModel *m,
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

void cp_env_start(CpEnv *e, const R500TestModel *m)
{
    cp_env_start_args(e, m, NULL);
}

void cp_env_stop(CpEnv *e)
{
    alloc_destroy(&e->alloc);
    r500_test_stop(&e->t);
}

void cp_emit(CpEnv *e, uint32_t v)
{
    gtt_w(e, RING_MC + 4 * e->wptr, v);
    e->wptr = (e->wptr + 1) % RING_DWORDS;
}

/* radeon_ring_commit: pad to 16 dwords, publish the write pointer. */
void cp_commit(CpEnv *e)
{
    while (e->wptr & 15) {
        cp_emit(e, R500_PM4_PACKET2);
    }
    r500_wreg(&e->t, R_CP_RB_WPTR, e->wptr);
    (void)r500_rreg(&e->t, R_CP_RB_WPTR);
}

/* Poll like the driver's usec_timeout loops (each read lets QEMU run). */
bool cp_poll_reg(CpEnv *e, uint32_t reg, uint32_t mask, uint32_t want)
{
    for (int i = 0; i < 10000; i++) {
        if ((r500_rreg(&e->t, reg) & mask) == want) {
            return true;
        }
    }
    return false;
}

bool cp_wait_idle(CpEnv *e)
{
    return cp_poll_reg(e, R_RBBM_STATUS, GUI_ACTIVE, 0);
}

bool cp_poll_reg_ms(CpEnv *e, uint32_t reg, uint32_t mask, uint32_t want,
                    int ms)
{
    gint64 end = g_get_monotonic_time() + ms * 1000ll;

    do {
        if ((r500_rreg(&e->t, reg) & mask) == want) {
            return true;
        }
    } while (g_get_monotonic_time() < end);
    return false;
}

/* r100_ring_test on SCRATCH_REG1. */
void cp_ring_test(CpEnv *e)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 1);

    r500_wreg(&e->t, scratch, 0xCAFEDEAD);
    cp_emit(e, R500_PM4_PACKET0(scratch, 0));
    cp_emit(e, 0xDEADBEEF);
    cp_commit(e);
    g_assert_true(cp_poll_reg(e, scratch, ~0u, 0xDEADBEEF));
    g_assert_true(cp_wait_idle(e));
    /* The read pointer reaches the write-back page (r100_gfx_get_rptr). */
    g_assert_cmpuint(gtt_r(e, WB_MC + 1024), ==, e->wptr);
    g_assert_cmpuint(r500_rreg(&e->t, R_CP_RB_RPTR), ==, e->wptr);
}

/* r300_fence_ring_emit */
void cp_fence(CpEnv *e)
{
    uint32_t dw[R500_SEQ_FENCE_DWORDS];

    r500_seq_fence(dw, ++e->seq);
    for (unsigned i = 0; i < R500_SEQ_FENCE_DWORDS; i++) {
        cp_emit(e, dw[i]);
    }
}

/* r100_ib_test: the IB in a GTT page, then a fence; waits for WB+0. */
void cp_ib_test(CpEnv *e)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 2);

    r500_wreg(&e->t, scratch, 0xCAFEDEAD);
    gtt_w(e, IB_MC, R500_PM4_PACKET0(scratch, 0));
    gtt_w(e, IB_MC + 4, 0xDEADBEEF);
    for (int i = 2; i < 8; i++) {
        gtt_w(e, IB_MC + 4 * i, R500_PM4_PACKET2);
    }
    /* r100_ring_ib_execute with the rptr-save scratch (REG3). */
    cp_emit(e, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 3), 0));
    cp_emit(e, e->wptr + 4);
    cp_emit(e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    cp_emit(e, IB_MC);
    cp_emit(e, 8);
    cp_fence(e);
    cp_commit(e);
    for (int i = 0; i < 10000 && gtt_r(e, WB_MC) != e->seq; i++) {
        (void)r500_rreg(&e->t, R_RBBM_STATUS);
    }
    g_assert_cmpuint(gtt_r(e, WB_MC), ==, e->seq);
    g_assert_cmphex(r500_rreg(&e->t, scratch), ==, 0xDEADBEEF);
    g_assert_true(cp_wait_idle(e));
}

uint32_t cp_vram_r(CpEnv *e, uint32_t off)
{
    return qpci_io_readl(e->t.dev, e->t.vram, off);
}

bool r500_qmp_alive(CpEnv *e)
{
    QDict *r = qtest_qmp(e->t.qts, "{'execute': 'query-status'}");
    bool ok = qdict_haskey(r, "return");

    qobject_unref(r);
    return ok;
}

/* An MC register's index in this model's map (mc_regs.def). */
uint32_t cp_mc_idx(CpEnv *e, R500McReg reg)
{
    static const int idx[MC__COUNT][2] = {
#define R500_MC_REG(name, rv515, r520) [MC_##name] = { rv515, r520 },
#include "hw/r500/regs/mc_regs.def"
#undef R500_MC_REG
    };

    return idx[reg][e->m->mc_r520_map];
}

/* rs600_asic_reset's CP part, then r100_cp_init again. */
void cp_gpu_reset(CpEnv *e)
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
    r500_wreg_mc(t, cp_mc_idx(e, MC_MC_FB_LOCATION), 0x0FFF0000);
    r500_wreg_mc(t, cp_mc_idx(e, MC_MC_AGP_LOCATION), 0xFFFFFFFF);
    r500_wreg(t, R_MM_INDEX, 0);
    gart_enable(e);
    cp_init(e);
}

const char *r500_qmp_status(QTestState *qts, const char *cmd)
{
    static char buf[32];
    QDict *r = qtest_qmp(qts, "{'execute': %s}", cmd);
    QDict *ret = qdict_get_qdict(r, "return");

    g_assert_nonnull(ret);
    g_strlcpy(buf, qdict_get_try_str(ret, "status") ?: "", sizeof(buf));
    qobject_unref(r);
    return buf;
}
