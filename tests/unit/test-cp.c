/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the command processor on crafted PM4 streams: the
 * kernel's init, ring and IB tests, fences, write-back, packet framing
 * (wrap, incomplete packets, counts past the buffer), unknown opcodes,
 * IB loops, the slice budget, garbage, soft reset and the 3D handover
 * (reference radeon-kms-r500.md 5; r500-3d-pipeline.md 1).
 */
#include <string.h>

#include "test-host.h"
#include "../qtest/r500-driver-seq.h"

#define RING_BUS    0x100000u   /* ring, in guest RAM (pass-through) */
#define WB_BUS      0x080000u   /* write-back page */
#define IB_BUS      0x400000u
#define VRAM_MC     0xC0000000u

#define SW_INT_FIRE         (1u << 26)
#define SW_INT              (1u << 25)
#define GUI_IDLE            (1u << 19)

typedef struct Cp {
    TestHost *h;
    R500Chip *s;
    uint32_t mask;
    uint32_t wptr;
} Cp;

static uint32_t ram32(TestHost *h, uint64_t addr)
{
    uint32_t v;

    memcpy(&v, h->host.ram + addr, 4);
    return GUINT32_FROM_LE(v);
}

static void ram_put32(TestHost *h, uint64_t addr, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(h->host.ram + addr, &v, 4);
}

/* r100_cp_init with a ring of 2^(bufsz+1) dwords at RING_BUS. */
static Cp cp_new(R500Model model, unsigned bufsz)
{
    Cp c = { .h = test_host_new(model, 16) };
    R500Chip *s = c.s = &c.h->chip;

    c.mask = (2u << bufsz) - 1;
    /* VRAM high in the MC space: low addresses pass through to RAM. */
    r500_mc_write(s, r500_mc_index(s->info->mc_map, MC_MC_FB_LOCATION),
                  ((VRAM_MC >> 16) + 0xFF) << 16 | VRAM_MC >> 16);
    r500_seq_cp_init(r500_seq_chip_w, s, RING_BUS, bufsz, WB_BUS);
    test_host_run(c.h);
    return c;
}

static void emit(Cp *c, uint32_t v)
{
    ram_put32(c->h, RING_BUS + 4 * (c->wptr & c->mask), v);
    c->wptr = (c->wptr + 1) & c->mask;
}

static void commit(Cp *c)
{
    r500_reg_write(c->s, R_CP_RB_WPTR, c->wptr);
    test_host_run(c->h);
}

static uint32_t rreg(Cp *c, uint32_t reg)
{
    return r500_reg_read(c->s, reg);
}

static bool cp_busy(Cp *c)
{
    return rreg(c, R_RBBM_STATUS) & (1u << 31);
}

static void test_ring_and_ib(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 17);
    R500Chip *s = c.s;
    uint32_t scratch1 = R500_REGA_AT(SCRATCH_REG, 1);
    uint32_t scratch2 = R500_REGA_AT(SCRATCH_REG, 2);
    unsigned dma_writes;

    /* Ring test (r100_ring_test). */
    r500_reg_write(s, scratch1, 0xCAFEDEAD);
    emit(&c, R500_PM4_PACKET0(scratch1, 0));
    emit(&c, 0xDEADBEEF);
    while (c.wptr & 15) {
        emit(&c, R500_PM4_PACKET2);
    }
    commit(&c);
    g_assert_cmphex(rreg(&c, scratch1), ==, 0xDEADBEEF);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 16);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 1024), ==, 16);
    g_assert_false(cp_busy(&c));
    /* The ring drained: GUI idle is latched. */
    g_assert_cmphex(rreg(&c, R_GEN_INT_STATUS) & GUI_IDLE, ==, GUI_IDLE);

    /* IB test (r100_ib_test) with a fence (r300_fence_ring_emit). */
    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    r500_reg_write(s, scratch2, 0xCAFEDEAD);
    ram_put32(c.h, IB_BUS, R500_PM4_PACKET0(scratch2, 0));
    ram_put32(c.h, IB_BUS + 4, 0xDEADBEEF);
    for (unsigned i = 2; i < 8; i++) {
        ram_put32(c.h, IB_BUS + 4 * i, R500_PM4_PACKET2);
    }
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, IB_BUS);
    emit(&c, 8);
    emit(&c, R500_PM4_PACKET0(R_WAIT_UNTIL, 0));
    emit(&c, 0x30200);
    emit(&c, R500_PM4_PACKET0(R_SCRATCH_REG, 0));
    emit(&c, 1234);
    emit(&c, R500_PM4_PACKET0(R_GEN_INT_STATUS, 0));
    emit(&c, SW_INT_FIRE);
    while (c.wptr & 15) {
        emit(&c, R500_PM4_PACKET2);
    }
    g_assert_false(c.h->host.irq);
    dma_writes = c.h->host.dma_writes;
    commit(&c);
    g_assert_cmphex(rreg(&c, scratch2), ==, 0xDEADBEEF);
    /*
     * The fence through the scratch write-back, before the interrupt: the
     * line rose after the SCRATCH_REG2 and SCRATCH_REG0 write-backs and
     * before the read-pointer write-back that ends the slice.
     */
    g_assert_cmpuint(ram32(c.h, WB_BUS), ==, 1234);
    g_assert_true(c.h->host.irq);
    g_assert_cmpuint(c.h->host.irq_dma_writes, ==, dma_writes + 2);
    g_assert_cmpuint(c.h->host.dma_writes, ==, dma_writes + 3);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 4 * 2), ==, 0xDEADBEEF);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 1024), ==, 32);
    g_assert_cmpuint(s->cp.stats.ibs, ==, 1);
    /* Acknowledge (rs600_irq_ack): the line drops. */
    r500_reg_write(s, R_GEN_INT_STATUS, rreg(&c, R_GEN_INT_STATUS));
    g_assert_false(c.h->host.irq);
    test_host_free(c.h);
}

/* Where the n-th trace point of kind ev is, from index from; -1 if none. */
static int trace_find(TestHost *h, int from, R500TraceEvent ev)
{
    for (int i = MAX(from, 0); i < (int)h->host.traces->len; i++) {
        if (g_array_index(h->host.traces, TestTrace, i).ev == ev) {
            return i;
        }
    }
    return -1;
}

static void stat_put(void *opaque, const char *name, uint64_t val)
{
    g_hash_table_insert(opaque, g_strdup(name), g_memdup2(&val, sizeof(val)));
}

static uint64_t stat_get(GHashTable *t, const char *name)
{
    uint64_t *v = g_hash_table_lookup(t, name);

    g_assert_nonnull(v);
    return *v;
}

/*
 * The trace points a driver developer follows (r500_trace.def), in the order
 * the hardware does the work: the ring packet that launches the IB, the
 * IB, the IB's packet, its scratch write, the fence's scratch write-back
 * and the interrupt; and the counters the board shows as QOM "stats".
 */
static void test_trace_points(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 12);
    R500Chip *s = c.s;
    uint32_t scratch2 = R500_REGA_AT(SCRATCH_REG, 2);
    GHashTable *st = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           g_free);
    uint32_t launch_pos;
    int i, ib, fence;
    const TestTrace *t;

    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    ram_put32(c.h, IB_BUS, R500_PM4_PACKET0(scratch2, 0));
    ram_put32(c.h, IB_BUS + 4, 0xDEADBEEF);
    g_array_set_size(c.h->host.traces, 0);
    launch_pos = c.wptr;
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, IB_BUS);
    emit(&c, 2);
    emit(&c, R500_PM4_PACKET0(R_SCRATCH_REG, 0));
    emit(&c, 1234);
    emit(&c, R500_PM4_PACKET0(R_GEN_INT_STATUS, 0));
    emit(&c, SW_INT_FIRE);
    commit(&c);

    i = trace_find(c.h, 0, R500_TRACE_CP_PACKET);
    g_assert_cmpint(i, >=, 0);
    t = &g_array_index(c.h->host.traces, TestTrace, i);
    g_assert_cmphex(t->a, ==, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    g_assert_cmpuint(t->b, ==, 3);
    g_assert_cmphex(t->c, ==, RING_BUS + 4 * launch_pos);
    g_assert_cmpuint(t->d, ==, 0);
    ib = trace_find(c.h, i, R500_TRACE_CP_IB);
    g_assert_cmpint(ib, >, i);
    t = &g_array_index(c.h->host.traces, TestTrace, ib);
    g_assert_cmphex(t->a, ==, IB_BUS);
    g_assert_cmpuint(t->b, ==, 2);
    i = trace_find(c.h, ib, R500_TRACE_CP_PACKET);
    t = &g_array_index(c.h->host.traces, TestTrace, i);
    g_assert_cmphex(t->a, ==, R500_PM4_PACKET0(scratch2, 0));
    g_assert_cmphex(t->c, ==, IB_BUS);
    g_assert_cmpuint(t->d, ==, 1);
    i = trace_find(c.h, i, R500_TRACE_SCRATCH);
    t = &g_array_index(c.h->host.traces, TestTrace, i);
    g_assert_cmpuint(t->a, ==, 2);
    g_assert_cmphex(t->b, ==, 0xDEADBEEF);
    g_assert_cmphex(t->c, ==, WB_BUS + 8);
    fence = trace_find(c.h, i + 1, R500_TRACE_SCRATCH);
    t = &g_array_index(c.h->host.traces, TestTrace, fence);
    g_assert_cmpuint(t->a, ==, 0);
    g_assert_cmpuint(t->b, ==, 1234);
    /* the interrupt follows its fence */
    i = trace_find(c.h, 0, R500_TRACE_IRQ);
    g_assert_cmpint(i, >, fence);
    t = &g_array_index(c.h->host.traces, TestTrace, i);
    g_assert_cmphex(t->a & SW_INT, ==, SW_INT);
    g_assert_true(c.h->host.irq);

    r500_chip_stats(s, stat_put, st);
    g_assert_cmpuint(stat_get(st, "cp-ibs"), ==, 1);
    g_assert_cmpuint(stat_get(st, "cp-type0-packets"), ==,
                     s->cp.stats.type0);
    g_assert_cmpuint(stat_get(st, "cp-type0-packets"), >=, 4);
    g_assert_cmpuint(stat_get(st, "guest-errors"), ==, 0);
    /* a guest error counts */
    emit(&c, R500_PM4_PACKET0(R_CP_RB_BASE, 0));
    emit(&c, 0);
    commit(&c);
    g_hash_table_remove_all(st);
    r500_chip_stats(s, stat_put, st);
    g_assert_cmpuint(stat_get(st, "guest-errors"), ==, 1);
    g_assert_cmpuint(stat_get(st, "cp-errors"), >=, 1);
    g_hash_table_destroy(st);
    test_host_free(c.h);
}

static void test_writeback_masks(void)
{
    Cp c = cp_new(R500_MODEL_R520, 10);
    uint32_t scratch5 = R500_REGA_AT(SCRATCH_REG, 5);

    /* SCRATCH_UMSK bit 5 clear: no write-back; RB_NO_UPDATE: no rptr. */
    r500_reg_write(c.s, R_SCRATCH_UMSK, 0xDF);
    r500_reg_write(c.s, R_CP_RB_CNTL, rreg(&c, R_CP_RB_CNTL) | (1u << 27));
    ram_put32(c.h, WB_BUS + 1024, 0x5555);
    emit(&c, R500_PM4_PACKET0(scratch5, 0));
    emit(&c, 77);
    commit(&c);
    g_assert_cmpuint(rreg(&c, scratch5), ==, 77);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 20), ==, 0);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 1024), ==, 0x5555);
    /* MMIO writes of scratch registers are not mirrored (the CP does it). */
    r500_reg_write(c.s, R_SCRATCH_UMSK, 0xFF);
    r500_reg_write(c.s, scratch5, 99);
    g_assert_cmpuint(ram32(c.h, WB_BUS + 20), ==, 0);
    test_host_free(c.h);
}

static void test_type0_forms(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 10);
    uint32_t sc3 = R500_REGA_AT(SCRATCH_REG, 3);

    emit(&c, R500_PM4_PACKET0_ONE(sc3, 2));
    emit(&c, 1);
    emit(&c, 2);
    emit(&c, 3);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc3), ==, 3);
    g_assert_cmpuint(rreg(&c, sc3 + 4), ==, 0);
    emit(&c, R500_PM4_PACKET0(sc3, 2));
    emit(&c, 4);
    emit(&c, 5);
    emit(&c, 6);
    /* Type 1: two registers, 11-bit indices. */
    emit(&c, 0x40000000u | (R500_REGA_AT(SCRATCH_REG, 0) >> 2) |
         ((R500_REGA_AT(SCRATCH_REG, 7) >> 2) << 11));
    emit(&c, 10);
    emit(&c, 17);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc3), ==, 4);
    g_assert_cmpuint(rreg(&c, sc3 + 4), ==, 5);
    g_assert_cmpuint(rreg(&c, sc3 + 8), ==, 6);
    g_assert_cmpuint(rreg(&c, R500_REGA_AT(SCRATCH_REG, 0)), ==, 10);
    g_assert_cmpuint(rreg(&c, R500_REGA_AT(SCRATCH_REG, 7)), ==, 17);

    /* CP control registers cannot be written from the stream. */
    emit(&c, R500_PM4_PACKET0(R_CP_RB_WPTR, 0));
    emit(&c, 3);
    emit(&c, R500_PM4_PACKET0(sc3, 0));
    emit(&c, 8);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc3), ==, 8);
    g_assert_cmpuint(rreg(&c, R_CP_RB_WPTR), ==, c.wptr);
    g_assert_cmpuint(test_host_count_logs(c.h, "CP control registers"), ==, 1);

    test_host_free(c.h);
}

/* A type-0 burst from the highest index (13 bits) runs off the file. */
static void test_type0_overrun(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 14);
    uint32_t base = (0x1FFFu << 2), n = (R500_MMIO_SIZE - base) / 4 + 2;

    emit(&c, R500_PM4_PACKET0(base, n - 1));
    for (uint32_t i = 0; i < n; i++) {
        emit(&c, 0);
    }
    emit(&c, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 2), 0));
    emit(&c, 5);
    commit(&c);
    g_assert_cmpuint(test_host_count_logs(c.h, "runs past the register "
                                          "file"), ==, 1);
    g_assert_cmpuint(rreg(&c, R500_REGA_AT(SCRATCH_REG, 2)), ==, 5);
    g_assert_false(cp_busy(&c));
    test_host_free(c.h);
}

static void test_ring_wrap_and_partial(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 4);   /* 32 dwords */
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 4);

    /* Move to dword 30 with fillers. */
    for (unsigned i = 0; i < 30; i++) {
        emit(&c, R500_PM4_PACKET2);
    }
    commit(&c);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 30);
    /* A 4-dword packet straddling the end of the ring. */
    emit(&c, R500_PM4_PACKET0(sc, 2));
    emit(&c, 11);
    emit(&c, 12);
    /* Publish it only partly: the CP waits, busy, rptr unchanged. */
    r500_reg_write(c.s, R_CP_RB_WPTR, c.wptr);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 30);
    g_assert_true(cp_busy(&c));
    g_assert_cmpuint(rreg(&c, sc), ==, 0);
    emit(&c, 13);
    commit(&c);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 2);
    g_assert_cmpuint(rreg(&c, sc + 8), ==, 13);
    g_assert_false(cp_busy(&c));

    /* A packet larger than the ring can never complete: halt. */
    emit(&c, R500_PM4_PACKET0(sc, 40));
    emit(&c, 0);
    commit(&c);
    g_assert_true(c.s->cp.halted);
    g_assert_true(cp_busy(&c));
    g_assert_cmpuint(test_host_count_logs(c.h, "larger than the ring"), ==, 1);
    /*
     * radeon_gpu_reset: radeon_suspend turns the queue off
     * (r100_cp_disable), then rs600_asic_reset resets only a GPU that
     * reads busy: the hung CP still does.
     */
    r500_reg_write(c.s, R_CP_CSQ_CNTL, 0);
    g_assert_true(cp_busy(&c));
    /* rs600_asic_reset: zero the pointers, soft reset the CP. */
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
    g_assert_false(c.s->cp.halted);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 0);
    g_assert_cmpuint(rreg(&c, R_CP_RB_WPTR), ==, 0);
    g_assert_false(cp_busy(&c));
    /* And the CP works again. */
    r500_reg_write(c.s, R_CP_CSQ_CNTL, 4u << 28);
    c.wptr = 0;
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 99);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 99);
    test_host_free(c.h);
}

static void test_ib_errors(void)
{
    Cp c = cp_new(R500_MODEL_RV530, 10);
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 6);

    /* An IB that launches itself: not nested, it just ends. */
    ram_put32(c.h, IB_BUS, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    ram_put32(c.h, IB_BUS + 4, IB_BUS);
    ram_put32(c.h, IB_BUS + 8, 4);
    ram_put32(c.h, IB_BUS + 12, R500_PM4_PACKET2);
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, IB_BUS);
    emit(&c, 4);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 1);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 1);
    g_assert_false(cp_busy(&c));
    g_assert_cmpuint(test_host_count_logs(c.h, "IBs do not nest"), ==, 1);

    /* A packet whose count runs past the end of its IB: halt. */
    ram_put32(c.h, IB_BUS, R500_PM4_PACKET0(sc, 5));
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, IB_BUS);
    emit(&c, 3);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 2);
    commit(&c);
    g_assert_true(c.s->cp.halted);
    g_assert_cmpuint(rreg(&c, sc), ==, 1);
    g_assert_true(cp_busy(&c));
    g_assert_cmpuint(test_host_count_logs(c.h, "past the end of the "
                                          "indirect buffer"), ==, 1);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
    g_assert_false(c.s->cp.ib_active);

    /* An IB in unmapped memory: the fetch fails, the CP halts. */
    c.wptr = 0;
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, 0x7FFF0000);
    emit(&c, 16);
    commit(&c);
    g_assert_true(c.s->cp.halted);
    g_assert_cmpuint(test_host_count_logs(c.h, "fetching"), ==, 1);

    /* IBs disabled by CP_CSQ_CNTL mode PRIBM_INDDIS. */
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
    r500_reg_write(c.s, R_CP_CSQ_CNTL, 2u << 28);
    c.wptr = 0;
    emit(&c, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    emit(&c, IB_BUS);
    emit(&c, 3);
    commit(&c);
    g_assert_false(c.s->cp.ib_active);
    g_assert_cmpuint(test_host_count_logs(c.h, "disables indirect"), ==, 1);
    test_host_free(c.h);
}

static void test_opcodes(void)
{
    Cp c = cp_new(R500_MODEL_R580, 10);
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 1);

    /* NOP (relocation marker), WAIT_FOR_IDLE, unknown, unimplemented. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_NOP, 0));
    emit(&c, 0x40);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_WAIT_FOR_IDLE, 0));
    emit(&c, 0);
    emit(&c, R500_PM4_PACKET3(0x77, 2));
    emit(&c, 1);
    emit(&c, 2);
    emit(&c, 3);
    emit(&c, R500_PM4_PACKET3(0x77, 0));
    emit(&c, 1);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_LOAD_PALETTE, 0));
    emit(&c, 0);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 42);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 42);
    g_assert_cmpuint(c.s->cp.stats.type3[0x10], ==, 1);
    g_assert_cmpuint(c.s->cp.stats.type3[0x77], ==, 2);
    g_assert_cmpuint(test_host_count_logs(c.h, "unknown type-3 opcode 0x77"),
                     ==, 1);
    g_assert_cmpuint(test_host_count_logs(c.h, "opcode 0x2c is not "
                                          "implemented"), ==, 1);
    test_host_free(c.h);
}

static void test_microcode(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 10);
    R500Chip *s = c.s;

    r500_reg_write(s, R_CP_ME_RAM_ADDR, 0);
    for (uint32_t i = 0; i < 256; i++) {
        r500_reg_write(s, R_CP_ME_RAM_DATAH, i);
        r500_reg_write(s, R_CP_ME_RAM_DATAL, ~i);
    }
    r500_reg_write(s, R_CP_ME_RAM_RADDR, 7);
    g_assert_cmphex(rreg(&c, R_CP_ME_RAM_DATAH), ==, 7);
    g_assert_cmphex(rreg(&c, R_CP_ME_RAM_DATAL), ==, ~7u);
    g_assert_cmphex(rreg(&c, R_CP_ME_RAM_DATAH), ==, 8);
    test_host_free(c.h);
}

static void test_budget(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 18);    /* 512 Ki dwords */
    uint32_t n = c.mask - 15;

    for (uint32_t i = 0; i < n; i++) {
        emit(&c, R500_PM4_PACKET2);
    }
    r500_reg_write(c.s, R_CP_RB_WPTR, c.wptr);
    c.h->host.scheduled = -1;
    r500_run(c.s);
    /* One slice stops at its budget and asks to run again at once. */
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, R500_CP_SLICE_BUDGET);
    g_assert_cmpint(c.h->host.scheduled, ==, 0);
    g_assert_true(cp_busy(&c));
    /* The write-back follows each slice. */
    g_assert_cmpuint(ram32(c.h, WB_BUS + 1024), ==, R500_CP_SLICE_BUDGET);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, n);
    g_assert_false(cp_busy(&c));
    test_host_free(c.h);
}

/*
 * A single packet may hold thousands of 2D operations (a type-0 burst of
 * DST_HEIGHT_WIDTH triggers, a PAINT_MULTI of many rectangles).  The
 * packet stops after the item that filled the 2D engine's FIFO and is
 * resumed at the next one by a later slice, while the engine draws a
 * slice's budget at a time; every item runs exactly once (an XOR fill run
 * an odd number of times shows).  Regression test of the liveness
 * finding in docs/reliability.md.
 */
static void test_budget_inside_packets(void)
{
    Cp c = cp_new(R500_MODEL_RV530, 12);
    R500Chip *s = c.s;
    const uint32_t surf = 0x100000, pitch = 4096;
    /* DP_GUI_MASTER_CNTL: DST_PITCH_OFFSET, solid brush, 32 bpp, PDx. */
    const uint32_t gmc = (1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) |
                         (0x5Au << 16) | (1u << 28) | (1u << 30);
    const uint32_t items = 255;     /* odd: the net effect is one XOR */
    uint32_t slices = 0, px, dp_cntl;

    r500_reg_write(s, R_DP_GUI_MASTER_CNTL, gmc);
    r500_reg_write(s, R_DST_PITCH_OFFSET,
                   (pitch / 64) << 22 | (VRAM_MC + surf) >> 10);
    r500_reg_write(s, R_DP_BRUSH_FRGD_CLR, 0x00FF00FF);
    r500_reg_write(s, R_DST_Y_X, 0);
    dp_cntl = rreg(&c, R_DP_CNTL);

    /* 1024x256 pixels each, 1 MiB: 255 MiB to draw. */
    emit(&c, R500_PM4_PACKET0_ONE(R_DST_HEIGHT_WIDTH, items - 1));
    for (uint32_t i = 0; i < items; i++) {
        emit(&c, 256u << 16 | 1024);
    }
    r500_reg_write(s, R_CP_RB_WPTR, c.wptr);
    for (; c.h->host.scheduled >= 0 && slices < 100000; slices++) {
        uint64_t ops = s->rb2d.ops, work = s->rb2d.work;

        c.h->host.scheduled = -1;
        r500_run(s);
        /*
         * The CP fills the FIFO at most; the engine draws one slice, at
         * most 32 bytes a budget unit (docs/cp.md), and a row more.
         */
        g_assert_cmpuint(s->rb2d.ops - ops, <=, R500_RB2D_FIFO_SIZE);
        g_assert_cmpuint((s->rb2d.work - work) * 4, <=,
                         (uint64_t)R500_CP_SLICE_BUDGET * 32 + pitch);
    }
    g_assert_cmpuint(s->rb2d.ops, ==, items);
    g_assert_cmpuint(slices, >=,
                     (uint64_t)items * 256 * pitch /
                     ((uint64_t)R500_CP_SLICE_BUDGET * 32 + pitch));
    g_assert_cmpuint(s->rb2d.overflows, ==, 0);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, c.wptr);
    g_assert_cmpuint(s->cp.resume, ==, 0);
    memcpy(&px, c.h->vram + surf + 255 * pitch + 1023 * 4, 4);
    g_assert_cmphex(px, ==, 0x00FF00FF);

    /* PAINT_MULTI: 101 rectangles in one packet, the same way. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 3 + 2 * 101 - 1));
    emit(&c, gmc);
    emit(&c, (pitch / 64) << 22 | (VRAM_MC + surf) >> 10);
    emit(&c, 0x00FF00FF);
    for (uint32_t i = 0; i < 101; i++) {
        emit(&c, 0);
        emit(&c, 1024u << 16 | 256);
    }
    commit(&c);
    g_assert_cmpuint(s->rb2d.ops, ==, items + 101);
    memcpy(&px, c.h->vram + surf + 255 * pitch + 1023 * 4, 4);
    g_assert_cmphex(px, ==, 0);
    /* The packet's directions did not outlive it, nor its yields. */
    g_assert_cmphex(rreg(&c, R_DP_CNTL), ==, dp_cntl);
    test_host_free(c.h);
}

static void test_disabled_and_reset(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 10);
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 1);

    r500_reg_write(c.s, R_CP_CSQ_CNTL, 0);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 5);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 0);
    g_assert_false(cp_busy(&c));
    r500_reg_write(c.s, R_CP_CSQ_CNTL, 4u << 28);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, sc), ==, 5);

    /* Held in soft reset: nothing runs until it is released. */
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
    c.wptr = 0;
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 6);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 5);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, sc), ==, 6);

    /* A soft reset written by the stream itself stops the stream. */
    emit(&c, R500_PM4_PACKET0(R_RBBM_SOFT_RESET, 0));
    emit(&c, 1);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 7);
    commit(&c);
    r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, sc), ==, 6);
    g_assert_false(cp_busy(&c));
    /* CP_RB_RPTR is read-only. */
    r500_reg_write(c.s, R_CP_RB_RPTR, 9);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 0);
    test_host_free(c.h);
}

static void test_garbage(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 15);    /* 64 Ki dwords */
    GRand *rnd = g_rand_new_with_seed(0x500);

    for (int round = 0; round < 4; round++) {
        r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
        r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
        /* Garbage may have moved the ring or disabled the CP: redo init. */
        r500_reg_write(c.s, R_CP_RB_BASE, RING_BUS);
        r500_reg_write(c.s, R_CP_RB_CNTL, 15);
        r500_reg_write(c.s, R_CP_CSQ_CNTL, 4u << 28);
        r500_mc_write(c.s, r500_mc_index(c.s->info->mc_map,
                                         MC_MC_FB_LOCATION),
                      ((VRAM_MC >> 16) + 0xFF) << 16 | VRAM_MC >> 16);
        r500_pcie_write(c.s, PCIE_PCIE_TX_GART_CNTL, 0);
        for (uint32_t i = 0; i <= c.mask; i++) {
            ram_put32(c.h, RING_BUS + 4 * i, g_rand_int(rnd));
        }
        r500_reg_write(c.s, R_CP_RB_WPTR, c.mask);
        test_host_run(c.h);
        /*
         * It ends: idle, halted, waiting for data, or reset.  Nothing is
         * due now; garbage may have left a display timer (vblank) armed
         * for later, which is not CP work.
         */
        g_assert_true(c.h->host.scheduled < 0 ||
                      c.h->host.scheduled > c.h->host.now);
        g_assert_cmpuint(c.s->cp.stats.dwords, >, 0);
    }
    g_rand_free(rnd);
    test_host_free(c.h);
}

/*
 * Garbage with the shape of real streams: type-3 packets of every
 * implemented opcode with random payloads, and type-0 bursts into the 2D
 * and VAP registers, so the handlers themselves meet hostile values.
 */
static void test_structured_garbage(void)
{
    static const uint8_t ops[] = {
        R500_PM4_OP_NOP,
        R500_PM4_OP_WAIT_FOR_IDLE,
        R500_PM4_OP_3D_DRAW_VBUF,
        R500_PM4_OP_3D_DRAW_IMMD,
        R500_PM4_OP_3D_DRAW_INDX,
        R500_PM4_OP_3D_LOAD_VBPNTR,
        R500_PM4_OP_3D_CLEAR_ZMASK,
        R500_PM4_OP_INDX_BUFFER,
        R500_PM4_OP_3D_DRAW_VBUF_2,
        R500_PM4_OP_3D_DRAW_IMMD_2,
        R500_PM4_OP_3D_DRAW_INDX_2,
        R500_PM4_OP_3D_CLEAR_HIZ,
        R500_PM4_OP_3D_CLEAR_CMASK,
        R500_PM4_OP_CNTL_HOSTDATA_BLT,
        R500_PM4_OP_CNTL_PAINT_MULTI,
        R500_PM4_OP_CNTL_BITBLT_MULTI,
        R500_PM4_OP_CNTL_PAINT,
        R500_PM4_OP_LOAD_MICROCODE,
    };
    Cp c = cp_new(R500_MODEL_R520, 14);
    GRand *rnd = g_rand_new_with_seed(0x2d);

    for (int round = 0; round < 8; round++) {
        uint32_t n = 0;

        c.wptr = 0;
        r500_reg_write(c.s, R_RBBM_SOFT_RESET, 1);
        r500_reg_write(c.s, R_RBBM_SOFT_RESET, 0);
        while (n < c.mask - 64) {
            uint32_t k = g_rand_int_range(rnd, 0, 4), cnt, i;

            if (k == 0) {
                cnt = g_rand_int_range(rnd, 0, 12);
                emit(&c, R500_PM4_PACKET3(ops[g_rand_int_range(rnd, 0,
                                                               sizeof(ops))],
                                          cnt));
            } else if (k == 1) {
                uint32_t base = g_rand_boolean(rnd) ? 0x1400 : 0x2000;

                cnt = g_rand_int_range(rnd, 0, 8);
                emit(&c, R500_PM4_PACKET0(base + 4 * g_rand_int_range(rnd, 0,
                                                                       256),
                                          cnt));
            } else {
                cnt = g_rand_int_range(rnd, 0, 4);
                emit(&c, R500_PM4_PACKET3(g_rand_int_range(rnd, 0, 256), cnt));
            }
            for (i = 0; i <= cnt; i++) {
                /* Small values make plausible sizes and addresses. */
                emit(&c, g_rand_boolean(rnd) ? g_rand_int(rnd)
                                             : g_rand_int_range(rnd, 0, 4096));
            }
            n += cnt + 2;
        }
        commit(&c);
        g_assert_true(c.h->host.scheduled < 0 ||
                      c.h->host.scheduled > c.h->host.now);
    }
    g_assert_cmpuint(c.s->rb2d.ops, >, 0);
    g_assert_cmpuint(c.s->cp.draw_stats.draws + c.s->cp.stats.errors, >, 0);
    g_rand_free(rnd);
    test_host_free(c.h);
}

/* ---- 3D handover ---- */

static void test_draws(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 10);
    R500Chip *s = c.s;
    uint64_t errors;

    /* 3D_LOAD_VBPNTR with 3 arrays = the AOS registers. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_LOAD_VBPNTR, 5));
    emit(&c, 3);
    emit(&c, (4 << 8) | 3 | (2 << 24) | (2 << 16));
    emit(&c, 0x1000);
    emit(&c, 0x2000);
    emit(&c, (1 << 8) | 1);
    emit(&c, 0x3000);
    /* DRAW_VBUF_2: 3 vertices, triangle list, walk 2. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
    emit(&c, (3u << 16) | (2 << 4) | 4);
    commit(&c);
    g_assert_cmphex(rreg(&c, R_VAP_VTX_NUM_ARRAYS), ==, 3);
    g_assert_cmphex(rreg(&c, R500_REGA_AT(VAP_VTX_AOS_ADDR_ODD, 0)), ==,
                    0x2000);
    g_assert_cmphex(rreg(&c, R500_REGA_AT(VAP_VTX_AOS_ADDR_EVEN, 1)), ==,
                    0x3000);
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, 1);
    g_assert_cmpuint(s->cp.draw_stats.vertices, ==, 3);
    /* it reached the 3D pipeline, which refuses a state with no position */
    g_assert_cmpuint(test_host_count_logs(c.h, "declares no position"), ==, 1);

    /* IMMD_2: 2 vertices of VAP_VTX_SIZE 2 = 4 dwords, then a bad one. */
    r500_reg_write(s, R_VAP_VTX_SIZE, 2);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 4));
    emit(&c, (2u << 16) | (3 << 4) | 1);
    for (int i = 0; i < 4; i++) {
        emit(&c, i);
    }
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 3));
    emit(&c, (2u << 16) | (3 << 4) | 1);
    for (int i = 0; i < 3; i++) {
        emit(&c, i);
    }
    /* Walk that does not match the packet. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
    emit(&c, (3u << 16) | (1 << 4) | 4);
    commit(&c);
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, 2);
    g_assert_cmpuint(test_host_count_logs(c.h, "NUM_VERTICES x"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(c.h, "PRIM_WALK"), ==, 1);

    /* INDX_2 + INDX_BUFFER (Mesa), and inline 16-bit indices. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_INDX_2, 0));
    emit(&c, (5u << 16) | (1 << 4) | 4);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_INDX_BUFFER, 2));
    emit(&c, (1u << 31) | (R_VAP_PORT_IDX0 >> 2));
    emit(&c, 0x8000);
    emit(&c, 3);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_NOP, 0));
    emit(&c, 0);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_INDX_2, 2));
    emit(&c, (3u << 16) | (1 << 4) | 4);
    emit(&c, 0x00010000);
    emit(&c, 0x00000002);
    /* Too few inline indices for 5 vertices. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_INDX_2, 1));
    emit(&c, (5u << 16) | (1 << 4) | 4);
    emit(&c, 0);
    /* INDX_BUFFER with no draw waiting; one too small for its draw. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_INDX_BUFFER, 2));
    emit(&c, (1u << 31) | (R_VAP_PORT_IDX0 >> 2));
    emit(&c, 0x8000);
    emit(&c, 3);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_INDX_2, 0));
    emit(&c, (8u << 16) | (1 << 4) | 4 | (1 << 11));
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_INDX_BUFFER, 2));
    emit(&c, (1u << 31) | (R_VAP_PORT_IDX0 >> 2));
    emit(&c, 0x8000);
    emit(&c, 7);
    /* Clears. */
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_CLEAR_HIZ, 2));
    emit(&c, 0);
    emit(&c, 64);
    emit(&c, 0xFFFFFFFF);
    errors = s->cp.stats.errors;
    commit(&c);
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, 4);
    g_assert_cmpuint(s->cp.draw_stats.clears, ==, 1);
    g_assert_cmpuint(s->cp.stats.errors - errors, ==, 3);
    g_assert_cmpuint(test_host_count_logs(c.h, "fewer inline indices"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(c.h, "no indexed draw"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(c.h, "smaller than the draw"), ==, 1);

    /* A vertex array that would run past 4 GiB. */
    r500_reg_write(s, R500_REGA_AT(VAP_VTX_AOS_ADDR_EVEN, 0), 0xFFFFFF00u);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
    emit(&c, (1000u << 16) | (2 << 4) | 4);
    commit(&c);
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, 4);
    g_assert_cmpuint(test_host_count_logs(c.h, "past the 4 GiB"), ==, 1);
    test_host_free(c.h);
}

static void test_gart_ring(void)
{
    /* The kernel's layout: GART table in VRAM, ring and WB in GTT pages. */
    TestHost *h = test_host_new(R500_MODEL_R520, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x01000000, table = 0x100000;
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 1), v;

    /* GTT page i -> RAM 0x200000 + 0x2000 * i (scattered), 8 pages. */
    for (unsigned i = 0; i < 8; i++) {
        v = GUINT32_TO_LE(((0x200000u + 0x2000u * i) >> 8) | 0xD);
        memcpy(h->vram + table + 4 * i, &v, 4);
    }
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, 6);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_START_LO, gtt);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_END_LO, gtt + 7 * 4096);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_BASE, table);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_CNTL, 7);
    /* Ring of 2048 dwords = pages 0 and 1; WB = page 4. */
    r500_reg_write(s, R_CP_RB_CNTL, 10);
    r500_reg_write(s, R_CP_RB_BASE, gtt);
    r500_reg_write(s, R_CP_RB_RPTR_ADDR, gtt + 4 * 4096 + 1024);
    r500_reg_write(s, R_CP_CSQ_CNTL, 4u << 28);
    /* A packet straddling the page boundary at dword 1024. */
    for (unsigned i = 0; i < 1023; i++) {
        ram_put32(h, 0x200000 + 4 * i, R500_PM4_PACKET2);
    }
    ram_put32(h, 0x200000 + 4 * 1023, R500_PM4_PACKET0(sc, 0));
    ram_put32(h, 0x202000, 0x600DF00D);
    r500_reg_write(s, R_CP_RB_WPTR, 1025);
    test_host_run(h);
    g_assert_cmphex(r500_reg_read(s, sc), ==, 0x600DF00D);
    g_assert_cmpuint(ram32(h, 0x208000 + 1024), ==, 1025);
    test_host_free(h);
}

/* ---- The bad-input contract (docs/reliability.md), CP rows ---- */

/* RB_BUFSZ 0 is a ring of 2 dwords: fillers run, a 2-dword packet halts. */
static void test_ring_size_0(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 0);

    g_assert_cmpuint(c.mask, ==, 1);
    emit(&c, R500_PM4_PACKET2);
    commit(&c);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 1);
    g_assert_false(c.s->cp.halted);
    emit(&c, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 1), 0));
    commit(&c);
    g_assert_true(c.s->cp.halted);
    g_assert_cmpuint(test_host_count_logs(c.h, "larger than the ring"), ==, 1);
    /* RB_BUFSZ above 22: the largest ring, said once per write. */
    r500_reg_write(c.s, R_CP_RB_CNTL, 31);
    g_assert_cmpuint(test_host_count_logs(c.h, "RB_BUFSZ 31"), ==, 1);
    test_host_free(c.h);
}

/* Pointers beyond the ring are used modulo its size. */
static void test_pointers_beyond_ring(void)
{
    Cp c = cp_new(R500_MODEL_R580, 6);      /* 128 dwords */
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 2);

    /* CP_RB_WPTR 128 + 2 = 2: the packet at 0..1 runs. */
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 21);
    r500_reg_write(c.s, R_CP_RB_WPTR, 128 + 2);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, sc), ==, 21);
    g_assert_cmpuint(test_host_count_logs(c.h, "beyond the ring"), ==, 1);
    g_assert_false(cp_busy(&c));
    /* CP_RB_RPTR_WR 1000 (needs RB_RPTR_WR_ENA): position 1000 % 128. */
    r500_reg_write(c.s, R_CP_RB_CNTL, 6 | (1u << 31));
    r500_reg_write(c.s, R_CP_RB_RPTR_WR, 1000);
    r500_reg_write(c.s, R_CP_RB_CNTL, 6);
    ram_put32(c.h, RING_BUS + 4 * (1000 % 128), R500_PM4_PACKET0(sc, 0));
    ram_put32(c.h, RING_BUS + 4 * (1000 % 128 + 1), 22);
    r500_reg_write(c.s, R_CP_RB_WPTR, 1000 % 128 + 2);
    test_host_run(c.h);
    g_assert_cmpuint(rreg(&c, sc), ==, 22);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 1000 % 128 + 2);
    /* Without RB_RPTR_WR_ENA the write is refused. */
    r500_reg_write(c.s, R_CP_RB_RPTR_WR, 5);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, 1000 % 128 + 2);
    g_assert_cmpuint(test_host_count_logs(c.h, "without "
                                          "CP_RB_CNTL.RB_RPTR_WR_ENA"), ==, 1);
    test_host_free(c.h);
}

/*
 * GART pages out of range: a GTT page whose entry points past guest RAM,
 * and a GTT address whose entry lies past the table's memory.  The ring
 * fetch fails (CP halted, a guest error), no byte is written anywhere.
 */
static void test_gart_out_of_range(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x01000000, table = 0x100000;
    uint32_t v;

    /* Page 0: 64 MiB (RAM is 16 MiB); page 1: fine. */
    v = GUINT32_TO_LE((0x4000000u >> 8) | 0xD);
    memcpy(h->vram + table, &v, 4);
    v = GUINT32_TO_LE((0x200000u >> 8) | 0xD);
    memcpy(h->vram + table + 4, &v, 4);
    r500_seq_gart_enable(r500_seq_chip_wpcie, s, gtt, 4096, table);
    g_assert_false(r500_mem_write(s, gtt, &v, 4));
    g_assert_true(r500_mem_write(s, gtt + 4096, &v, 4));
    /* Entry 4095 is at VRAM 0x100000 + 16380: in VRAM, zero: bus 0. */
    g_assert_true(r500_mem_read(s, gtt + 4095 * 4096, &v, 4));
    /* A table based past VRAM and RAM: the entry itself is unreadable. */
    r500_pcie_write(s, PCIE_PCIE_TX_GART_BASE, 0x7FF00000);
    g_assert_false(r500_mem_read(s, gtt + 4096, &v, 4));
    g_assert_cmpuint(test_host_count_logs(h, "GART table entry is "
                                          "unreadable"), ==, 1);
    r500_pcie_write(s, PCIE_PCIE_TX_GART_BASE, table);

    /* A ring in the bad page: the CP halts, busy, until reset. */
    r500_reg_write(s, R_CP_RB_CNTL, 10);
    r500_reg_write(s, R_CP_RB_BASE, gtt);
    r500_reg_write(s, R_CP_RB_RPTR_ADDR, gtt + 4096 + 512);
    r500_reg_write(s, R_CP_CSQ_CNTL, 4u << 28);
    r500_reg_write(s, R_CP_RB_WPTR, 16);
    test_host_run(h);
    g_assert_true(s->cp.halted);
    g_assert_true(r500_reg_read(s, R_RBBM_STATUS) & (1u << 31));
    g_assert_cmpuint(test_host_count_logs(h, "fetching a packet header "
                                          "failed"), ==, 1);
    g_assert_cmpuint(s->mc_state.faults, ==, 2 + 1);
    test_host_free(h);
}

/* A write-back that fails is lost, with a guest error; the CP goes on. */
static void test_writeback_fails(void)
{
    Cp c = cp_new(R500_MODEL_RV530, 10);
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 0);

    /* Past the 16 MiB of guest RAM (pass-through: a bus address). */
    r500_reg_write(c.s, R_CP_RB_RPTR_ADDR, 0x7FFF0000);
    r500_reg_write(c.s, R_SCRATCH_ADDR, 0x7FFF0000);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 5);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 6);
    commit(&c);
    g_assert_cmpuint(rreg(&c, sc), ==, 6);
    g_assert_false(c.s->cp.halted);
    g_assert_false(cp_busy(&c));
    g_assert_cmpuint(test_host_count_logs(c.h, "SCRATCH_REG0 write-back"),
                     ==, 2);
    g_assert_cmpuint(test_host_count_logs(c.h, "read-pointer write-back"),
                     ==, 1);
    test_host_free(c.h);
}

/*
 * Migrated state is checked, not trusted: an IB position past its size,
 * a resume point past any packet; the CP ends up halted (recoverable by
 * the driver's reset) or restarting the packet, never reading wild.
 */
static void test_migrated_state(void)
{
    Cp c = cp_new(R500_MODEL_R520, 10);
    R500Chip *s = c.s;

    s->cp.ib_active = true;
    s->cp.ib_base = IB_BUS;
    s->cp.ib_size = 16;
    s->cp.ib_pos = 17;
    s->cp.resume = 0xFFFFFFFF;
    r500_chip_post_load(s);
    g_assert_false(s->cp.ib_active);
    g_assert_true(s->cp.halted);
    g_assert_cmpuint(s->cp.resume, <=, R500_CP_PKT_MAX);
    g_assert_cmpuint(test_host_count_logs(c.h, "migrated IB state is "
                                          "inconsistent"), ==, 1);
    /* Halted: new work waits, busy, until the driver's reset. */
    emit(&c, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 3), 0));
    emit(&c, 3);
    commit(&c);
    g_assert_true(cp_busy(&c));
    g_assert_cmpuint(rreg(&c, R500_REGA_AT(SCRATCH_REG, 3)), ==, 0);
    r500_reg_write(s, R_RBBM_SOFT_RESET, 1);
    r500_reg_write(s, R_RBBM_SOFT_RESET, 0);
    g_assert_cmpuint(s->cp.resume, ==, 0);
    c.wptr = 0;
    emit(&c, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 3), 0));
    emit(&c, 3);
    commit(&c);
    g_assert_cmpuint(rreg(&c, R500_REGA_AT(SCRATCH_REG, 3)), ==, 3);
    g_assert_false(cp_busy(&c));
    test_host_free(c.h);
}

/* ---- The CP and the 2D engine's FIFO ---- */

/* r100_copy_blit's DP_GUI_MASTER_CNTL: both pitch/offsets, clips, S. */
#define COPY_BLIT_GMC   0x52CC36FFu

static void emit_copy_blit(Cp *c, uint32_t src_mc, uint32_t dst_mc,
                           uint32_t pages)
{
    emit(c, R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 8));
    emit(c, COPY_BLIT_GMC);
    emit(c, (4096 / 64) << 22 | src_mc >> 10);
    emit(c, (4096 / 64) << 22 | dst_mc >> 10);
    emit(c, 0x1FFF1FFF);
    emit(c, 0);
    emit(c, 0x1FFF1FFF);
    emit(c, 0);                     /* src x 0, y 0 */
    emit(c, 0);                     /* dst x 0, y 0 */
    emit(c, 1024u << 16 | pages);   /* 1024 pixels a page, a row a page */
}

/*
 * radeon's TTM move: r100_copy_blit (BITBLT_MULTI, the 2D cache flush,
 * WAIT_UNTIL 2D_IDLECLEAN) then the fence (r300_fence_ring_emit).  The
 * 2D engine draws the copy over several slices; the CP stops at the
 * WAIT_UNTIL until it is done, so the fence's write-back and its
 * interrupt come after the last page, whenever the guest looks.
 */
static void test_2d_fence_order(void)
{
    Cp c = cp_new(R500_MODEL_RV515, 12);
    R500Chip *s = c.s;
    const uint32_t src = 0x100000, dst = 0x800000, pages = 2048;
    const size_t len = (size_t)pages * 4096;
    uint32_t fence[R500_SEQ_FENCE_DWORDS];
    unsigned slices = 0, partial = 0;

    for (size_t i = 0; i < len; i++) {
        c.h->vram[src + i] = i * 13 + (i >> 12);
    }
    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    emit_copy_blit(&c, VRAM_MC + src, dst, pages);
    emit(&c, R500_PM4_PACKET0(R_DSTCACHE_CTLSTAT, 0));
    emit(&c, 0xF);                  /* RB2D_DC_FLUSH_ALL */
    emit(&c, R500_PM4_PACKET0(R_WAIT_UNTIL, 0));
    emit(&c, (1u << 16) | (1u << 18) | (1u << 9));
    r500_seq_fence(fence, 0x1234);
    for (unsigned i = 0; i < R500_SEQ_FENCE_DWORDS; i++) {
        emit(&c, fence[i]);
    }
    r500_reg_write(s, R_CP_RB_WPTR, c.wptr);
    for (; c.h->host.scheduled == 0 && slices < 1000; slices++) {
        bool first, last;

        c.h->host.scheduled = -1;
        r500_run(s);
        first = !memcmp(c.h->host.ram + dst, c.h->vram + src, 4096);
        last = !memcmp(c.h->host.ram + dst + len - 4096,
                       c.h->vram + src + len - 4096,
                       4096);
        partial += first && !last;
        if (ram32(c.h, WB_BUS) == 0x1234 || c.h->host.irq) {
            g_assert_cmpmem(c.h->host.ram + dst, len, c.h->vram + src, len);
        }
    }
    g_test_message("%u slices, %u with the copy half done", slices, partial);
    g_assert_cmpuint(ram32(c.h, WB_BUS), ==, 0x1234);
    g_assert_true(c.h->host.irq);
    g_assert_cmpuint(partial, >=, 2);
    g_assert_cmpuint(s->cp.stats.waits, >=, 2);
    g_assert_false(cp_busy(&c));
    g_assert_cmpuint(c.h->host.logs->len, ==, 0);
    test_host_free(c.h);
}

/* A big fill through the ring: PAINT_MULTI, 32 bpp, at VRAM offset 1 MiB. */
static void emit_big_fill(Cp *c, uint32_t colour)
{
    emit(c, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 4));
    emit(c, (1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) | (0xF0u << 16) |
         (1u << 28) | (1u << 30));
    emit(c, (4096u / 64) << 22 | (VRAM_MC + 0x100000) >> 10);
    emit(c, colour);
    emit(c, 0);
    emit(c, 1024u << 16 | 2048);    /* 8 MiB */
}

static uint32_t big_fill_last(Cp *c)
{
    uint32_t v;

    memcpy(&v, c->h->vram + 0x100000 + 2047 * 4096 + 1023 * 4, 4);
    return GUINT32_FROM_LE(v);
}

/*
 * The other ways a stream waits for the 2D engine: a scratch write under
 * ISYNC_CPSCRATCH_IDLEGUI (r100_ring_start sets it), WAIT_FOR_IDLE, a 3D
 * packet; and GUI_IDLE latched only when the CP and the 2D engine are
 * both idle, not when the CP drained with 2D work queued.
 */
static void test_2d_sync(void)
{
    Cp c = cp_new(R500_MODEL_R580, 12);
    R500Chip *s = c.s;
    uint32_t sc = R500_REGA_AT(SCRATCH_REG, 3);
    uint32_t st;

    /* No wait in the stream: the CP drains first, the GUI stays active. */
    r500_reg_write(s, R_GEN_INT_STATUS, GUI_IDLE);
    emit_big_fill(&c, 0x11111111);
    r500_reg_write(s, R_CP_RB_WPTR, c.wptr);
    c.h->host.scheduled = -1;
    r500_run(s);
    st = rreg(&c, R_RBBM_STATUS);
    g_assert_cmpuint(rreg(&c, R_CP_RB_RPTR), ==, c.wptr);
    g_assert_false(st & R500_FMASK(RBBM_STATUS, CP_CMDSTRM_BUSY));
    g_assert_true(st & R500_FMASK(RBBM_STATUS, RB2D_BUSY));
    g_assert_true(st & R500_FMASK(RBBM_STATUS, GUI_ACTIVE));
    g_assert_false(rreg(&c, R_GEN_INT_STATUS) & GUI_IDLE);
    test_host_run(c.h);
    g_assert_cmphex(big_fill_last(&c), ==, 0x11111111);
    g_assert_true(rreg(&c, R_GEN_INT_STATUS) & GUI_IDLE);

    /* The scratch write waits under ISYNC_CPSCRATCH_IDLEGUI. */
    emit(&c, R500_PM4_PACKET0(R_ISYNC_CNTL, 0));
    emit(&c, 0x33);
    emit_big_fill(&c, 0x22222222);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 1);
    /* WAIT_FOR_IDLE, then another scratch write (ISYNC off). */
    emit(&c, R500_PM4_PACKET0(R_ISYNC_CNTL, 0));
    emit(&c, 0);
    emit_big_fill(&c, 0x33333333);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_WAIT_FOR_IDLE, 0));
    emit(&c, 0);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 2);
    /* A 3D clear waits too: it counts in the CP's statistics after it. */
    emit_big_fill(&c, 0x44444444);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_3D_CLEAR_CMASK, 2));
    emit(&c, 0);
    emit(&c, 1);
    emit(&c, 0);
    emit(&c, R500_PM4_PACKET0(sc, 0));
    emit(&c, 3);
    r500_reg_write(s, R_CP_RB_WPTR, c.wptr);
    for (unsigned i = 0; c.h->host.scheduled == 0 && i < 1000; i++) {
        static const uint32_t before[] = {
            0, 0x22222222, 0x33333333, 0x44444444,
        };
        uint32_t mark = rreg(&c, sc);
        uint64_t clears = s->cp.stats.type3[0x38];

        c.h->host.scheduled = -1;
        r500_run(s);
        /* A mark lands only after the fill before it is complete. */
        if (rreg(&c, sc) != mark) {
            mark = rreg(&c, sc);
            g_assert_cmpuint(mark, <=, 3);
            g_assert_cmphex(big_fill_last(&c), ==, before[mark]);
        }
        if (s->cp.stats.type3[0x38] != clears) {
            g_assert_cmphex(big_fill_last(&c), ==, 0x44444444);
        }
    }
    g_assert_cmpuint(rreg(&c, sc), ==, 3);
    g_assert_cmphex(big_fill_last(&c), ==, 0x44444444);
    g_assert_cmpuint(s->cp.stats.waits, >=, 3);
    test_host_free(c.h);
}

/*
 * A HOSTDATA_BLT queued behind a big fill: its 256 data dwords take FIFO
 * entries, so the packet stops when the FIFO is full and resumes at its
 * next dword; the image lands on top of the fill, every dword once.
 */
static void test_2d_hostdata_resume(void)
{
    Cp c = cp_new(R500_MODEL_RV530, 12);
    R500Chip *s = c.s;
    unsigned slices = 0, stopped = 0;

    emit_big_fill(&c, 0x55555555);
    emit(&c, R500_PM4_PACKET3(R500_PM4_OP_CNTL_HOSTDATA_BLT, 4 + 3 + 256 - 1));
    emit(&c, (1u << 1) | (15u << 4) | (6u << 8) | (3u << 12) |
         (0xCCu << 16) | (3u << 24) | (1u << 28) | (1u << 30));
    emit(&c, (4096u / 64) << 22 | (VRAM_MC + 0x100000) >> 10);
    emit(&c, 0);
    emit(&c, 0);
    emit(&c, 2040u << 16 | 1000);   /* dst y 2040, x 1000 */
    emit(&c, 16u << 16 | 16);
    emit(&c, 256);
    for (uint32_t i = 0; i < 256; i++) {
        emit(&c, 0xD0000000 + i);
    }
    r500_reg_write(s, R_CP_RB_WPTR, c.wptr);
    for (; c.h->host.scheduled == 0 && slices < 1000; slices++) {
        c.h->host.scheduled = -1;
        r500_run(s);
        stopped += s->cp.resume != 0;
    }
    g_assert_cmpuint(slices, >=, 3);
    g_assert_cmpuint(stopped, >=, 1);
    for (uint32_t y = 2038; y < 2048; y++) {
        for (uint32_t x = 998; x < 1018; x++) {
            uint32_t v, want = 0x55555555;

            if (x >= 1000 && x < 1016 && y >= 2040) {
                want = 0xD0000000 + (y - 2040) * 16 + (x - 1000);
            }
            memcpy(&v, c.h->vram + 0x100000 + y * 4096 + x * 4, 4);
            g_assert_cmphex(GUINT32_FROM_LE(v), ==, want);
        }
    }
    g_assert_cmpuint(s->rb2d.overflows, ==, 0);
    g_assert_cmpuint(s->cp.resume, ==, 0);
    g_assert_cmpuint(c.h->host.logs->len, ==, 0);
    test_host_free(c.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cp/ring-and-ib", test_ring_and_ib);
    g_test_add_func("/cp/writeback-masks", test_writeback_masks);
    g_test_add_func("/cp/trace-points", test_trace_points);
    g_test_add_func("/cp/type0", test_type0_forms);
    g_test_add_func("/cp/type0-overrun", test_type0_overrun);
    g_test_add_func("/cp/wrap-and-partial", test_ring_wrap_and_partial);
    g_test_add_func("/cp/ib-errors", test_ib_errors);
    g_test_add_func("/cp/opcodes", test_opcodes);
    g_test_add_func("/cp/microcode", test_microcode);
    g_test_add_func("/cp/budget", test_budget);
    g_test_add_func("/cp/budget-inside-packets", test_budget_inside_packets);
    g_test_add_func("/cp/2d-fence-order", test_2d_fence_order);
    g_test_add_func("/cp/2d-sync", test_2d_sync);
    g_test_add_func("/cp/2d-hostdata-resume", test_2d_hostdata_resume);
    g_test_add_func("/cp/disabled-and-reset", test_disabled_and_reset);
    g_test_add_func("/cp/garbage", test_garbage);
    g_test_add_func("/cp/structured-garbage", test_structured_garbage);
    g_test_add_func("/cp/draws", test_draws);
    g_test_add_func("/cp/gart-ring", test_gart_ring);
    g_test_add_func("/cp/contract/ring-size-0", test_ring_size_0);
    g_test_add_func("/cp/contract/pointers-beyond-ring",
                    test_pointers_beyond_ring);
    g_test_add_func("/cp/contract/gart-out-of-range", test_gart_out_of_range);
    g_test_add_func("/cp/contract/writeback-fails", test_writeback_fails);
    g_test_add_func("/cp/contract/migrated-state", test_migrated_state);
    return g_test_run();
}
