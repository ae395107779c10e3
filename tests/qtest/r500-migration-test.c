/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration of the card in the middle of work (docs/reliability.md): the
 * state is saved with the VM stopped (which stops the card too), loaded
 * by another QEMU (-incoming, through a file), and the guest goes on
 * there with exactly the results of a run that never migrated.
 *
 *   mid-ring     the CP waiting for the rest of a ring packet, a
 *                host-data blit half fed, the microcode (every model);
 *   mid-ib       a long IB stopped half way, then a PAINT_MULTI stopped
 *                with the CP between two of its rectangles (its resume
 *                point, the 2D FIFO full) and the 2D engine half way
 *                through one (its FIFO and the rows drawn), migrated
 *                twice; registers, write-back page and VRAM compared
 *                with a reference run.
 *   mid-draw     a 3D draw stopped between two slices of the soft
 *                renderer, with and without the card's thread;
 *   mid-draw-gl  the same draw on the host-GL renderer, migrated before
 *                it is known to have ended (skipped where auto picks soft).
 *   held-gl      the draw on the host-GL renderer ended, its marker seen,
 *                its pixels not looked at (held on the host, not in VRAM):
 *                the stop before migration's last pass over RAM writes
 *                them back, and the destination has them.
 * The display's mid-frame state (scanout, vblank counter, a pending flip)
 * joins as a scenario of its own, with its registers in snapshot().
 */
#include "r500-qtest.h"
#include "qobject/qdict.h"
#include "r500-cp-env.h"
#include "r500-3d-env.h"

/*
 * Migrate src into a new QEMU started as dst: the CpEnv moves over (the
 * guest RAM, so the GTT pages, and the allocator that owns them).
 */
static void migrate(CpEnv *src, CpEnv *dst, const char *args)
{
    char *file = g_strdup_printf("%s/r500-mig-%d", g_get_tmp_dir(), getpid());
    char *uri = g_strdup_printf("exec:cat > %s", file);
    char *dst_args = g_strdup_printf("%s -incoming defer", args);
    bool was_running = !strcmp(r500_qmp_status(src->t.qts, "query-status"),
                               "running");

    qobject_unref(qtest_qmp(src->t.qts, "{'execute': 'migrate', "
                            "'arguments': {'uri': %s}}", uri));
    for (int i = 0; i < 3000 &&
         strcmp(r500_qmp_status(src->t.qts, "query-migrate"), "completed");
         i++) {
        g_usleep(10000);
    }
    g_assert_cmpstr(r500_qmp_status(src->t.qts, "query-migrate"), ==,
                    "completed");

    *dst = *src;
    r500_test_start(&dst->t, src->m->name, dst_args, true);
    g_free(uri);
    uri = g_strdup_printf("exec:cat %s", file);
    qobject_unref(qtest_qmp(dst->t.qts, "{'execute': 'migrate-incoming', "
                            "'arguments': {'uri': %s}}", uri));
    for (int i = 0; i < 3000 &&
         !strcmp(r500_qmp_status(dst->t.qts, "query-status"), "inmigrate");
         i++) {
        g_usleep(10000);
    }
    /* The destination runs if the source ran; else it waits for cont. */
    g_assert_cmpstr(r500_qmp_status(dst->t.qts, "query-status"), ==,
                    was_running ? "running" : "paused");
    r500_test_stop(&src->t);
    unlink(file);
    g_free(dst_args);
    g_free(uri);
    g_free(file);
}

/*
 * The CP waiting for the rest of a ring packet, a host-data blit half
 * fed, the microcode; both finish on the destination.
 */
static void test_mid_ring(const R500TestModel *m)
{
    const char *args = "-m 64 -global r500.vram-size=16M";
    const uint32_t surf = 0x100000, pitch = 4096;
    uint32_t scratch = R500_REGA_AT(SCRATCH_REG, 4);
    CpEnv e, d;

    cp_env_start_args(&e, m, args);
    cp_ring_test(&e);
    /* Three of the four dwords of a packet: the CP waits, busy. */
    cp_emit(&e, R500_PM4_PACKET0(scratch, 2));
    cp_emit(&e, 11);
    cp_emit(&e, 12);
    r500_wreg(&e.t, R_CP_RB_WPTR, e.wptr);
    g_assert_false(cp_wait_idle(&e));
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
    g_assert_cmphex(cp_vram_r(&e, surf + 50 * pitch + 15 * 4), ==, 0xAAAAAAAA);

    migrate(&e, &d, args);

    /* The microcode, the waiting CP and the half-done blit came along. */
    r500_wreg(&d.t, R_CP_ME_RAM_RADDR, 200);
    g_assert_cmphex(r500_rreg(&d.t, R_CP_ME_RAM_DATAH), ==, 0x1000 + 200);
    g_assert_false(cp_wait_idle(&d));
    cp_emit(&d, 13);
    cp_commit(&d);
    g_assert_true(cp_poll_reg(&d, scratch + 8, ~0u, 13));
    g_assert_cmpuint(r500_rreg(&d.t, scratch), ==, 11);
    g_assert_true(cp_wait_idle(&d));
    r500_wreg(&d.t, R_HOST_DATA_LAST, 0xFFFF0000);
    g_assert_cmphex(cp_vram_r(&d, surf + 50 * pitch + 16 * 4), ==, 0x55555555);
    g_assert_cmphex(cp_vram_r(&d, surf + 51 * pitch + 15 * 4), ==, 0x55555555);
    g_assert_cmphex(cp_vram_r(&d, surf + 51 * pitch + 16 * 4), ==, 0xAAAAAAAA);
    cp_env_stop(&d);
}


/* ---- mid-IB and mid-packet, against a reference run ---- */

#define MIG_ARGS        "-m 64"
#define MIG_IB_VRAM     0x0C000000u     /* 4 Mi dwords of zeroes, markers */
#define MIG_IB_DWORDS   (4u << 20)
#define MIG_MARKERS     8u
#define MIG_SURF        0x00100000u
#define MIG_PITCH       (255u * 64)
#define MIG_RECTS       80u             /* more than the 2D FIFO holds */
#define MIG_RECT_W      2040u
#define MIG_RECT_H      1024u           /* 8 MiB: several 2D slices */
#define MIG_MARK        R500_REGA_AT(SCRATCH_REG, 5)

/* Pixel (x, y) of the surface. */
static uint32_t mig_px(CpEnv *e, uint32_t x, uint32_t y)
{
    return cp_vram_r(e, MIG_SURF + y * MIG_PITCH + x * 4);
}

/*
 * The work: an IB of MIG_IB_DWORDS dwords (type-0 MM_INDEX writes of 0,
 * which is what zeroes decode to) with a SCRATCH_REG5 marker every
 * 1/MIG_MARKERS of it, then one PAINT_MULTI of MIG_RECTS rectangles, each
 * several 2D slices of work, XORing a colour, rectangle k at x = k + 1:
 * column x of the first rows shows the parity of the rectangles that
 * covered it, so one drawn twice or never shows; DST_Y_X tells which
 * rectangle the CP queued last.  Then a fence.
 */
static void mig_submit(CpEnv *e)
{
    uint32_t step = MIG_IB_DWORDS / MIG_MARKERS;

    for (uint32_t k = 1; k <= MIG_MARKERS; k++) {
        uint32_t at = MIG_IB_VRAM + 4 * (k * step - 2);

        qpci_io_writel(e->t.dev, e->t.vram, at, R500_PM4_PACKET0(MIG_MARK, 0));
        qpci_io_writel(e->t.dev, e->t.vram, at + 4, k);
    }
    cp_emit(e, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    cp_emit(e, MIG_IB_VRAM);
    cp_emit(e, MIG_IB_DWORDS);
    cp_emit(e, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI,
                                2 * MIG_RECTS + 2));
    cp_emit(e, (1u << 1) | (13u << 4) | (6u << 8) | (3u << 12) |
            (0x5Au << 16) | (1u << 28) | (1u << 30));
    cp_emit(e, (MIG_PITCH / 64) << 22 | MIG_SURF >> 10);
    cp_emit(e, 0x00C0FFEE);
    for (uint32_t r = 0; r < MIG_RECTS; r++) {
        cp_emit(e, (r + 1) << 16);
        cp_emit(e, MIG_RECT_W << 16 | MIG_RECT_H);
    }
    cp_fence(e);
    cp_commit(e);
}

/* Rectangles the CP queued so far: the x of the last one (DST_Y_X). */
static uint32_t mig_rects_done(CpEnv *e)
{
    return r500_rreg(&e->t, R_DST_Y_X) & 0xFFFF;
}

/*
 * A rectangle is half drawn: every rectangle covers the column MIG_RECTS,
 * and rows are drawn top to bottom, so its first and last rows differ
 * only while one is.
 */
static bool mig_half_drawn(CpEnv *e)
{
    return mig_px(e, MIG_RECTS, 0) != mig_px(e, MIG_RECTS, MIG_RECT_H - 1);
}

/* What a stopped VM must keep still: the CP, the 2D FIFO, the pixels. */
static uint32_t mig_progress(CpEnv *e)
{
    return mig_rects_done(e) << 16 ^
           R500_FGET(r500_rreg(&e->t, R_RBBM_STATUS), RBBM_STATUS,
                     CMDFIFO_AVAIL) << 8 ^
           mig_px(e, MIG_RECTS, 0) ^ mig_px(e, MIG_RECTS, MIG_RECT_H / 2) * 3 ^
           mig_px(e, MIG_RECTS, MIG_RECT_H - 1) * 5;
}

/* Everything the guest can see of the work's results, as text. */
static char *snapshot(CpEnv *e)
{
#define REG(r) { R_##r, #r }
    static const struct {
        uint32_t reg;
        const char *name;
    } regs[] = {
        REG(CP_RB_RPTR), REG(CP_RB_WPTR), REG(GEN_INT_STATUS),
        REG(RBBM_STATUS), REG(DP_CNTL), REG(DP_GUI_MASTER_CNTL),
        REG(DST_PITCH_OFFSET), REG(DST_Y_X), REG(DST_HEIGHT_WIDTH),
        REG(MM_INDEX), REG(CP_IB_BASE), REG(CP_IB_BUFSZ),
    };
#undef REG
    GString *g = g_string_new(NULL);

    for (unsigned i = 0; i < R_SCRATCH_REG__COUNT; i++) {
        g_string_append_printf(g, "SCRATCH_REG%u %08x\n", i,
            r500_rreg(&e->t, R500_REGA_AT(SCRATCH_REG, i)));
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
        g_string_append_printf(g, "%s %08x\n", regs[i].name,
                               r500_rreg(&e->t, regs[i].reg));
    }
    for (unsigned i = 0; i < 8; i++) {
        g_string_append_printf(g, "WB+%u %08x\n", 4 * i,
                               gtt_r(e, WB_MC + 4 * i));
    }
    g_string_append_printf(g, "WB+1024 %08x\n", gtt_r(e, WB_MC + 1024));
    /* The columns where the rectangles start and end, and beyond. */
    for (uint32_t x = 0; x < MIG_RECTS + 4; x++) {
        uint32_t x2 = MIG_RECT_W + x - 2;

        g_string_append_printf(g, "x%u: %08x %08x %08x x%u: %08x %08x\n", x,
                               mig_px(e, x, 0), mig_px(e, x, MIG_RECT_H - 1),
                               mig_px(e, x, MIG_RECT_H), x2, mig_px(e, x2, 0),
                               mig_px(e, x2, MIG_RECT_H - 1));
    }
    return g_string_free(g, FALSE);
}

/* Stop the VM; a stopped VM's card makes no progress either. */
static void stop_vm(CpEnv *e, uint32_t (*progress)(CpEnv *e))
{
    uint32_t p;

    qobject_unref(qtest_qmp(e->t.qts, "{'execute': 'stop'}"));
    p = progress(e);
    for (int i = 0; i < 20; i++) {
        g_assert_true(r500_qmp_alive(e));
        g_usleep(5000);
    }
    g_assert_cmpuint(progress(e), ==, p);
}

static uint32_t mig_marker(CpEnv *e)
{
    return r500_rreg(&e->t, MIG_MARK);
}

static void test_mid_ib(const void *data)
{
    const R500TestModel *m = data;
    CpEnv ref, a, b, c;
    char *want, *got;
    uint32_t v, status;

    /* The reference: the same work, never interrupted. */
    cp_env_start_args(&ref, m, MIG_ARGS);
    mig_submit(&ref);
    g_assert_true(cp_poll_reg_ms(&ref, R_SCRATCH_REG, ~0u, ref.seq, 60000));
    g_assert_true(cp_wait_idle(&ref));
    want = snapshot(&ref);
    cp_env_stop(&ref);

    /* Stopped half way through the IB, migrated, resumed. */
    cp_env_start_args(&a, m, MIG_ARGS);
    mig_submit(&a);
    for (int i = 0; i < 100000 && mig_marker(&a) == 0; i++) {
        continue;
    }
    stop_vm(&a, mig_marker);
    v = mig_marker(&a);
    g_test_message("stopped in the IB after marker %u of %u", v, MIG_MARKERS);
    g_assert_cmpuint(v, >, 0);
    g_assert_cmpuint(v, <, MIG_MARKERS);
    migrate(&a, &b, MIG_ARGS);
    g_assert_cmpuint(mig_marker(&b), ==, v);
    qobject_unref(qtest_qmp(b.t.qts, "{'execute': 'cont'}"));

    /*
     * Then in the PAINT_MULTI, again: the CP stopped between two of its
     * rectangles because the 2D FIFO is full, and the 2D engine half way
     * through one.  The VM stops some slices after the test saw that; if
     * a rectangle just ended, it goes on and tries again.
     */
    for (int tries = 0; tries < 50; tries++) {
        for (int i = 0; i < 100000 && !(mig_rects_done(&b) > 64 &&
                                          mig_half_drawn(&b)); i++) {
            continue;
        }
        stop_vm(&b, mig_progress);
        if (mig_half_drawn(&b) || mig_rects_done(&b) >= MIG_RECTS) {
            break;
        }
        qobject_unref(qtest_qmp(b.t.qts, "{'execute': 'cont'}"));
    }
    v = mig_rects_done(&b);
    status = r500_rreg(&b.t, R_RBBM_STATUS);
    g_test_message("stopped in PAINT_MULTI after queueing %u of %u "
                   "rectangles, %u free 2D FIFO entries", v, MIG_RECTS,
                   R500_FGET(status, RBBM_STATUS, CMDFIFO_AVAIL));
    g_assert_cmpuint(v, >, 64);
    g_assert_cmpuint(v, <, MIG_RECTS);
    g_assert_true(mig_half_drawn(&b));
    g_assert_true(status & R500_FMASK(RBBM_STATUS, RB2D_BUSY));
    migrate(&b, &c, MIG_ARGS);
    /* The queue and the half-drawn rectangle came along. */
    g_assert_cmphex(r500_rreg(&c.t, R_RBBM_STATUS), ==, status);
    g_assert_true(mig_half_drawn(&c));
    qobject_unref(qtest_qmp(c.t.qts, "{'execute': 'cont'}"));

    /* The same results as the uninterrupted run. */
    g_assert_true(cp_poll_reg_ms(&c, R_SCRATCH_REG, ~0u, c.seq, 60000));
    g_assert_true(cp_wait_idle(&c));
    got = snapshot(&c);
    g_assert_cmpstr(got, ==, want);
    cp_env_stop(&c);
    g_free(want);
    g_free(got);
}

/* ---- mid-draw: a draw split across CP slices ---- */

#define DRAW_CB         0x01000000u
#define DRAW_W          512u
#define DRAW_LAYERS     40u

/*
 * One draw packet of DRAW_LAYERS full-surface layers (two triangles
 * each) adding 0.01 per layer with additive blending, then a marker.
 * Hundreds of slices of work: the draw stops and goes on many times.
 */
static void draw_submit_layers(CpEnv *e)
{
    d3_setup(e, DRAW_CB, DRAW_W, DRAW_W);
    d3_emit_layers(e, DRAW_W, DRAW_LAYERS, 0.01f, 0.02f, 0.005f, 0.01f);
    cp_emit(e, R500_PM4_PACKET0(MIG_MARK, 0));
    cp_emit(e, 1);
    cp_commit(e);
}

static uint32_t draw_px(CpEnv *e, uint32_t x, uint32_t y)
{
    return cp_vram_r(e, DRAW_CB + (y * DRAW_W + x) * 4);
}

/* The surface on a grid that meets both triangles of every layer. */
static char *draw_snapshot(CpEnv *e)
{
    GString *g = g_string_new(NULL);

    g_string_append_printf(g, "marker %u\n", mig_marker(e));
    for (uint32_t y = 3; y < DRAW_W; y += 29) {
        for (uint32_t x = 1; x < DRAW_W; x += 31) {
            g_string_append_printf(g, "%08x ", draw_px(e, x, y));
        }
        g_string_append_c(g, '\n');
    }
    return g_string_free(g, FALSE);
}

static uint32_t draw_progress(CpEnv *e)
{
    return mig_marker(e) << 24 ^ draw_px(e, 0, 0) ^
           draw_px(e, DRAW_W / 2, DRAW_W / 2) * 3 ^
           draw_px(e, DRAW_W - 1, DRAW_W - 1) * 5;
}

/* The layers drawn to the end: the snapshot every migrated run must give. */
static char *draw_reference(CpEnv *e)
{
    draw_submit_layers(e);
    g_assert_true(cp_poll_reg_ms(e, MIG_MARK, ~0u, 1, 120000));
    return draw_snapshot(e);
}

/* The migrated run goes on to the marker and gives want; both freed. */
static void draw_resume(CpEnv *e, char *want)
{
    char *got;

    qobject_unref(qtest_qmp(e->t.qts, "{'execute': 'cont'}"));
    g_assert_true(cp_poll_reg_ms(e, MIG_MARK, ~0u, 1, 120000));
    got = draw_snapshot(e);
    g_assert_cmpstr(got, ==, want);
    cp_env_stop(e);
    g_free(want);
    g_free(got);
}

/*
 * Migrated while a draw is stopped between two slices (r500/3d-draw):
 * the destination goes on where the draw stopped; every sampled pixel
 * matches a run that never migrated, so nothing was drawn twice or lost.
 */
typedef struct DrawCase {
    const R500TestModel *m;
    const char *args;
} DrawCase;

/*
 * With the card's own thread the draw runs beside the test's polls.  On
 * soft, whose draws stop between slices; the GL renderer's draw is one
 * piece of work (mid-draw-gl below).
 */
#define DRAW_SOFT       MIG_ARGS " -global r500.renderer=soft"
static const DrawCase draw_cases[2] = {
    { &r500_test_models[0], DRAW_SOFT " -global r500.card-thread=off" },
    { &r500_test_models[0], DRAW_SOFT " -global r500.card-thread=on" },
};

static void test_mid_draw(const void *data)
{
    const DrawCase *dc = data;
    const R500TestModel *m = dc->m;
    CpEnv ref, a, b;
    char *want;
    bool mid = false;

    cp_env_start_args(&ref, m, dc->args);
    want = draw_reference(&ref);
    /* each layer adds 3, 5, 1, 3 of 255 to R, G, B, A: all, once */
    g_assert_cmphex(draw_px(&ref, 0, 0), ==, DRAW_LAYERS * 0x03010503u);
    g_assert_cmphex(draw_px(&ref, DRAW_W - 1, DRAW_W - 1), ==,
                    DRAW_LAYERS * 0x03010503u);
    cp_env_stop(&ref);

    cp_env_start_args(&a, m, dc->args);
    draw_submit_layers(&a);
    /* stop once the draw has begun and not ended; retry if it ended */
    for (int i = 0; i < 200000 && !mid; i++) {
        mid = draw_px(&a, 0, 0) != 0 && mig_marker(&a) == 0;
    }
    g_assert_true(mid);
    stop_vm(&a, draw_progress);
    g_test_message("stopped with pixel (0, 0) %08x, (%u, %u) %08x",
                   draw_px(&a, 0, 0), DRAW_W - 1, DRAW_W - 1,
                   draw_px(&a, DRAW_W - 1, DRAW_W - 1));
    g_assert_cmpuint(mig_marker(&a), ==, 0);
    g_assert_true(r500_rreg(&a.t, R_RBBM_STATUS) & GUI_ACTIVE);
    migrate(&a, &b, dc->args);
    draw_resume(&b, want);
}

/*
 * The same layers on the host-GL renderer, the VM stopped as soon as the
 * draw is queued and migrated to another gl card: the source's pre_save
 * writes back what GL drew, the destination goes on, and every sampled
 * pixel is soft's.  Skipped where auto does not pick gl.
 */
#define DRAW_AUTO       MIG_ARGS " -global r500.renderer=auto"

static bool renderer_is_gl(CpEnv *e)
{
    char *active = r500_qom_str(&e->t, "renderer-active");
    bool gl = !g_strcmp0(active, "gl");

    g_free(active);
    return gl;
}

/*
 * The source of a migration on the host-GL renderer, and soft's pixels
 * of the layers; NULL (the test skipped) where auto chose soft.
 */
static char *gl_source(CpEnv *a)
{
    const R500TestModel *m = &r500_test_models[0];
    CpEnv ref;
    char *want;

    cp_env_start_args(a, m, DRAW_AUTO);
    if (!renderer_is_gl(a)) {
        cp_env_stop(a);
        /* the fuzzing build's QEMU has no OpenGL; a host may lack EGL */
        g_test_skip("renderer=auto chose soft: no GL renderer here");
        return NULL;
    }
    cp_env_start_args(&ref, m, DRAW_SOFT);
    want = draw_reference(&ref);
    cp_env_stop(&ref);
    return want;
}

static void test_mid_draw_gl(void)
{
    CpEnv a, b;
    char *want = gl_source(&a);

    if (!want) {
        return;
    }
    draw_submit_layers(&a);
    stop_vm(&a, draw_progress);
    g_test_message("stopped with marker %u, pixel (0, 0) %08x",
                   mig_marker(&a), draw_px(&a, 0, 0));
    migrate(&a, &b, DRAW_AUTO);
    g_assert_true(renderer_is_gl(&b));
    draw_resume(&b, want);
}

static void test_held_gl(void)
{
    CpEnv a, b;
    char *want = gl_source(&a), *got;
    int64_t held;

    if (!want) {
        return;
    }
    /* drawn and fenced: the marker read, no pixel of it */
    draw_submit_layers(&a);
    g_assert_true(cp_poll_reg_ms(&a, MIG_MARK, ~0u, 1, 120000));
    held = r500_qom_stat(&a.t, "render-gl-held");
    g_assert_cmpint(held, >=, 1);
    g_assert_cmpint(r500_qom_stat(&a.t, "render-gl-released"), ==, 0);
    migrate(&a, &b, DRAW_AUTO);
    qobject_unref(qtest_qmp(b.t.qts, "{'execute': 'cont'}"));
    got = draw_snapshot(&b);
    g_assert_cmpstr(got, ==, want);
    /* the destination kept nothing of the source's: nothing to release */
    g_assert_cmpint(r500_qom_stat(&b.t, "render-gl-released"), ==, 0);
    cp_env_stop(&b);
    g_free(want);
    g_free(got);
}

int main(int argc, char **argv)
{
    char *path = g_strdup_printf("/r500/%s/migration/mid-ib",
                                 r500_test_models[3].name);

    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("migration/mid-ring", test_mid_ring);
    /* One model: the CP does not differ, and it takes four VMs. */
    qtest_add_data_func(path, &r500_test_models[3], test_mid_ib);
    g_free(path);
    path = g_strdup_printf("/r500/%s/migration/mid-draw",
                           r500_test_models[0].name);
    qtest_add_data_func(path, &draw_cases[0], test_mid_draw);
    g_free(path);
    path = g_strdup_printf("/r500/%s/migration/mid-draw-thread",
                           r500_test_models[0].name);
    qtest_add_data_func(path, &draw_cases[1], test_mid_draw);
    g_free(path);
    path = g_strdup_printf("/r500/%s/migration/mid-draw-gl",
                           r500_test_models[0].name);
    qtest_add_func(path, test_mid_draw_gl);
    g_free(path);
    path = g_strdup_printf("/r500/%s/migration/held-gl",
                           r500_test_models[0].name);
    qtest_add_func(path, test_held_gl);
    g_free(path);
    return g_test_run();
}
