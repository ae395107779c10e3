/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded work (docs/reliability.md): the worst command streams a guest
 * can submit, and QEMU keeps answering its monitor.  For each stream the
 * test polls QMP query-status for a fixed window while the CP works, and
 * fails if one answer takes longer than LIVENESS_LIMIT_MS; then the
 * driver's reset (rs600_asic_reset) must bring the CP back, as radeon's
 * lockup recovery expects.
 *
 * Streams: the largest IB; a ring full of launches of the largest IB (an
 * IB chain that takes hours); type-0 bursts of 8000 big 2D fills in one
 * packet; PAINT_MULTI with 8000 big rectangles; the slowest largest 2D
 * operation, queued 64 times by MMIO, and a write past the full FIFO;
 * draws and clears with the largest counts; waits that would never
 * resolve.  When the 3D pipeline and the display land, their worst cases
 * join the list (shader loops, vline waits).
 */
#include "r500-qtest.h"
#include "r500-cp-env.h"
#include "r500-3d-env.h"

/*
 * The slowest monitor answer allowed, on the 2-core CI machine running
 * the sanitized and plain suites side by side (measured: docs).
 */
#define LIVENESS_LIMIT_MS   2000
/* How long an endless stream is watched. */
#define LIVENESS_WINDOW_MS  1500

/* DP_GUI_MASTER_CNTL: DST_PITCH_OFFSET, solid brush, 32 bpp, ROP3. */
#define GMC_FILL(rop)   ((1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) | \
                         ((uint32_t)(rop) << 16) | (1u << 28) | (1u << 30))
/* The largest 2D surface: pitch 255 x 64 bytes (4080 pixels), at 1 MiB. */
#define BIG_PITCH       (255u * 64)
#define BIG_SURF        0x00100000u
#define BIG_PO          ((BIG_PITCH / 64) << 22 | BIG_SURF >> 10)

typedef struct Watch {
    gint64 worst_us;
    int polls;
} Watch;

/*
 * Poll QMP for up to window_ms, or until reg & mask == want when reg is
 * non-zero; each answer must come within the limit.
 */
static Watch watch(CpEnv *e, const char *what, int window_ms, uint32_t reg,
                   uint32_t mask, uint32_t want)
{
    gint64 start = g_get_monotonic_time();
    Watch w = { 0 };

    do {
        gint64 t0 = g_get_monotonic_time(), dt;

        g_assert_true(r500_qmp_alive(e));
        dt = g_get_monotonic_time() - t0;
        w.worst_us = MAX(w.worst_us, dt);
        w.polls++;
        if (reg && (r500_rreg(&e->t, reg) & mask) == want) {
            break;
        }
    } while (g_get_monotonic_time() - start < window_ms * 1000);
    g_test_message("%s: %d QMP answers in %.0f ms, slowest %.1f ms", what,
                   w.polls, (g_get_monotonic_time() - start) / 1000.0,
                   w.worst_us / 1000.0);
    g_assert_cmpint(w.worst_us, <, LIVENESS_LIMIT_MS * 1000);
    return w;
}

/*
 * After the stream: radeon's lockup recovery, and the ring test passes.
 * rs600_asic_reset does not reset the 2D engine: what it queued drains
 * first (at most a FIFO of operations, each bounded).
 */
static void recover(CpEnv *e)
{
    cp_gpu_reset(e);
    g_assert_true(cp_poll_reg_ms(e, R_RBBM_STATUS, GUI_ACTIVE, 0, 120000));
    cp_ring_test(e);
    cp_env_stop(e);
}

/* The largest IB: 2^23 - 2 dwords of zeroes in VRAM (MM_INDEX writes). */
static void test_largest_ib(const void *data)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 4);
    CpEnv e;

    cp_env_start(&e, data);
    cp_emit(&e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    cp_emit(&e, 0x01000000);
    cp_emit(&e, 0x7FFFFE);
    cp_emit(&e, R500_PM4_PACKET0(scratch, 0));
    cp_emit(&e, 2);
    cp_commit(&e);
    watch(&e, "8 Mi-dword IB", 60000, scratch, ~0u, 2);
    g_assert_cmpuint(r500_rreg(&e.t, scratch), ==, 2);
    recover(&e);
}

/* A ring of IB launches, each the largest IB: hours of work. */
static void test_ib_chain(const void *data)
{
    CpEnv e;
    uint32_t rptr;

    cp_env_start(&e, data);
    while (e.wptr + 3 < RING_DWORDS - 16) {
        cp_emit(&e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
        cp_emit(&e, 0x01000000);
        cp_emit(&e, 0x7FFFFE);
    }
    cp_commit(&e);
    watch(&e, "ring of 5000 largest IBs", LIVENESS_WINDOW_MS, 0, 0, 0);
    /* Still working (IBs launched and running), never finished. */
    rptr = r500_rreg(&e.t, R_CP_RB_RPTR);
    g_assert_cmpuint(rptr, >, 0);
    g_assert_cmpuint(rptr, <, e.wptr);
    recover(&e);
}

/*
 * A type-0 packet of 8000 DST_HEIGHT_WIDTH writes (ONE_REG_WR), each a
 * 2040 x 2048 inverting fill (16 MiB, read and written), twice: minutes
 * of 2D work in two packets.  The CP stops when the 2D FIFO is full.
 */
static void test_2d_burst(const void *data)
{
    CpEnv e;

    cp_env_start(&e, data);
    cp_emit(&e, R500_PM4_PACKET0(R_DP_GUI_MASTER_CNTL, 0));
    cp_emit(&e, GMC_FILL(0x55));        /* Dn: invert */
    cp_emit(&e, R500_PM4_PACKET0(R_DST_PITCH_OFFSET, 0));
    cp_emit(&e, BIG_PO);
    cp_emit(&e, R500_PM4_PACKET0(R_DST_Y_X, 0));
    cp_emit(&e, 0);
    for (int k = 0; k < 2; k++) {
        cp_emit(&e, R500_PM4_PACKET0_ONE(R_DST_HEIGHT_WIDTH, 8000 - 1));
        for (int i = 0; i < 8000; i++) {
            cp_emit(&e, 2048u << 16 | 2040);
        }
    }
    cp_commit(&e);
    watch(&e, "2 type-0 bursts of 8000 2040x2048 fills", LIVENESS_WINDOW_MS,
          0, 0, 0);
    g_assert_true(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
    recover(&e);
}

/* PAINT_MULTI with 8000 rectangles of 2040 x 2048 pixels. */
static void test_paint_multi(const void *data)
{
    const uint32_t rects = 8000;
    CpEnv e;

    cp_env_start(&e, data);
    cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 2 + 2 * rects));
    cp_emit(&e, GMC_FILL(0x5A));        /* PDx */
    cp_emit(&e, BIG_PO);
    cp_emit(&e, 0x00FF00FF);
    for (uint32_t i = 0; i < rects; i++) {
        cp_emit(&e, 0);
        cp_emit(&e, 2040u << 16 | 2048);
    }
    cp_commit(&e);
    watch(&e, "PAINT_MULTI of 8000 2040x2048 rectangles", LIVENESS_WINDOW_MS,
          0, 0, 0);
    g_assert_true(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
    recover(&e);
}

/*
 * The slowest 2D operation the fields allow: an 8x8 mono pattern fill,
 * pixel by pixel, of the largest rectangle (4080 x 8191 at 32 bpp, 134
 * MB), triggered by MMIO 64 times (the FIFO full: half an hour of work),
 * then once more, which the full FIFO drops after a slice of work.  Each
 * write returns at once; run() draws a slice at a time.  X's engine reset
 * (RADEONEngineReset: SOFT_RESET_E2) empties the FIFO.
 */
static void test_2d_largest(const void *data)
{
    gint64 worst_write = 0;
    CpEnv e;

    cp_env_start(&e, data);
    r500_wreg(&e.t, R_DP_GUI_MASTER_CNTL, (1u << 1) | (0u << 4) | (6u << 8) |
              (3u << 12) | (0xF0u << 16) | (1u << 28) | (1u << 30));
    r500_wreg(&e.t, R_DST_PITCH_OFFSET, BIG_PO);
    r500_wreg(&e.t, R500_REGA_AT(BRUSH_DATA, 0), 0xAA55AA55);
    r500_wreg(&e.t, R500_REGA_AT(BRUSH_DATA, 1), 0x0FF00FF0);
    r500_wreg(&e.t, R_DP_CNTL, 3);
    r500_wreg(&e.t, R_DST_Y_X, 0);
    for (int i = 0; i <= 64; i++) {
        gint64 t0 = g_get_monotonic_time();

        r500_wreg(&e.t, R_DST_HEIGHT_WIDTH, 8191u << 16 | 4080);
        worst_write = MAX(worst_write, g_get_monotonic_time() - t0);
    }
    g_test_message("65 MMIO triggers of 4080x8191 pattern fills: slowest "
                   "write %.1f ms", worst_write / 1000.0);
    g_assert_cmpuint(R500_FGET(r500_rreg(&e.t, R_RBBM_STATUS), RBBM_STATUS,
                               CMDFIFO_AVAIL), ==, 0);
    watch(&e, "64 4080x8191 pattern fills queued by MMIO",
          LIVENESS_WINDOW_MS, 0, 0, 0);
    g_assert_true(r500_rreg(&e.t, R_RBBM_STATUS) &
                  R500_FMASK(RBBM_STATUS, RB2D_BUSY));
    g_assert_cmpint(worst_write, <, LIVENESS_LIMIT_MS * 1000);
    r500_wreg(&e.t, R_RBBM_SOFT_RESET, R500_FMASK(RBBM_SOFT_RESET, E2));
    r500_wreg(&e.t, R_RBBM_SOFT_RESET, 0);
    g_assert_false(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
    recover(&e);
}

/* 3D_LOAD_VBPNTR: one array of dwords-dword vertices at GTT_MC. */
static void emit_one_array(CpEnv *e, unsigned dwords)
{
    cp_emit(e, R500_PM4_PACKET3(R500_PM4_OP_3D_LOAD_VBPNTR, 2));
    cp_emit(e, 1);
    cp_emit(e, dwords << 8 | dwords);       /* stride, size */
    cp_emit(e, GTT_MC);
}

/*
 * Draws of 65535 vertices and clears of 2^32 - 1 dwords, a ring full:
 * the 3D pipeline charges its work to the CP's budget (pipe/draw.h).
 */
static void test_draws(const void *data)
{
    CpEnv e;

    cp_env_start(&e, data);
    emit_one_array(&e, 4);
    while (e.wptr + 6 < RING_DWORDS - 16) {
        cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
        cp_emit(&e, 0xFFFFu << 16 | 2u << 4 | 4);
        cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_3D_CLEAR_CMASK, 2));
        cp_emit(&e, 0);
        cp_emit(&e, 0xFFFFFFFF);
        cp_emit(&e, 0);
    }
    cp_commit(&e);
    watch(&e, "a ring of 65535-vertex draws and 4 G-dword clears", 30000,
          R_RBBM_STATUS, GUI_ACTIVE, 0);
    recover(&e);
}

/* Two triangles covering a 1024 x 1024 colour buffer, dim grey. */
static void full_screen(float v[6 * 8])
{
    d3_vtx(v, 0, 0, 0.01f, 0.01f, 0.01f, 0.01f);
    d3_vtx(v + 8, 1024, 0, 0.01f, 0.01f, 0.01f, 0.01f);
    d3_vtx(v + 16, 0, 1024, 0.01f, 0.01f, 0.01f, 0.01f);
    d3_vtx(v + 24, 1024, 0, 0.01f, 0.01f, 0.01f, 0.01f);
    d3_vtx(v + 32, 1024, 1024, 0.01f, 0.01f, 0.01f, 0.01f);
    d3_vtx(v + 40, 0, 1024, 0.01f, 0.01f, 0.01f, 0.01f);
}

/*
 * A ring of full-screen draws (1024 x 1024) whose fragment shader never
 * ends: every quad runs 2^16 instructions, a draw up to 2^30, hours of
 * work in all.  Draws are split across slices (pipe/draw.h).
 */
static void test_endless_fragment(const void *data)
{
    float v[6 * 8];
    CpEnv e;

    cp_env_start(&e, data);
    d3_setup(&e, 16u << 20, 1024, 1024);
    d3_us_endless(&e);
    full_screen(v);
    while (e.wptr + 2 + 6 * 8 < RING_DWORDS - 16) {
        d3_emit_triangles(&e, v, 2);
    }
    cp_commit(&e);
    watch(&e, "a ring of full-screen draws with an endless fragment shader",
          LIVENESS_WINDOW_MS, 0, 0, 0);
    g_assert_true(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
    recover(&e);
}

/*
 * Draws whose vertex shader never ends: each vertex runs 2^16
 * instructions, and each draw of 4096 vertices (from a vertex buffer in
 * GTT) the draw's limit of 2^28: seconds per draw, a ring of about 8000
 * of them hours of work.  (A ring of immediate-mode draws holds only
 * three of 600 vertices: a fast build finished them inside the window.)
 */
static void test_endless_vertex(const void *data)
{
    CpEnv e;

    cp_env_start(&e, data);
    d3_setup(&e, 16u << 20, 1024, 1024);
    d3_pvs_endless(&e);
    emit_one_array(&e, 8);         /* d3_setup's 8-dword vertices */
    while (e.wptr + 2 < RING_DWORDS - 16) {
        cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
        cp_emit(&e, 4096u << 16 | 2u << 4 | 4);
    }
    cp_commit(&e);
    watch(&e, "draws of 4096 vertices with an endless vertex shader",
          LIVENESS_WINDOW_MS, 0, 0, 0);
    g_assert_true(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
    recover(&e);
}

/*
 * Waits that never resolve on hardware without a display: every
 * WAIT_UNTIL condition, WAIT_FOR_IDLE, ISYNC_CNTL; they must not stall.
 */
static void test_waits(const void *data)
{
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 5);
    CpEnv e;

    cp_env_start(&e, data);
    while (e.wptr + 6 < RING_DWORDS - 32) {
        cp_emit(&e, R500_PM4_PACKET0(R_WAIT_UNTIL, 0));
        cp_emit(&e, 0xFFFFFFFF);
        cp_emit(&e, R500_PM4_PACKET3(R500_PM4_OP_WAIT_FOR_IDLE, 0));
        cp_emit(&e, 0);
        cp_emit(&e, R500_PM4_PACKET0(R_ISYNC_CNTL, 0));
        cp_emit(&e, 0xFFFFFFFF);
    }
    cp_emit(&e, R500_PM4_PACKET0(scratch, 0));
    cp_emit(&e, 7);
    cp_commit(&e);
    watch(&e, "a ring of waits", 30000, scratch, ~0u, 7);
    g_assert_cmpuint(r500_rreg(&e.t, scratch), ==, 7);
    recover(&e);
}

static void add(const char *name, void (*fn)(const void *))
{
    /*
     * One model: the CP and the 2D engine are the same on all four, and
     * each stream runs for seconds.
     */
    char *path = g_strdup_printf("/r500/%s/liveness/%s",
                                 r500_test_models[0].name, name);

    qtest_add_data_func(path, &r500_test_models[0], fn);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add("largest-ib", test_largest_ib);
    add("ib-chain", test_ib_chain);
    add("2d-burst", test_2d_burst);
    add("paint-multi", test_paint_multi);
    add("2d-largest", test_2d_largest);
    add("draws", test_draws);
    add("endless-fragment-shader", test_endless_fragment);
    add("endless-vertex-shader", test_endless_vertex);
    add("waits", test_waits);
    return g_test_run();
}
