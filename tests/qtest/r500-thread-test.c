/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The card's own thread (card-thread=on; docs/architecture.md): the
 * ordering a driver relies on while the card works beside the guest.
 *
 *   fence-after-draw  a scratch write queued after a long draw is never
 *                     visible before the draw's last pixels are in VRAM,
 *                     and the engine reads busy until then;
 *   stopped           a stopped VM's card does no work (the state at a
 *                     stop is what migration saves), and goes on at cont;
 *   reset             a reset in the middle of a long draw takes effect
 *                     (the draw does not go on after it) and the CP comes
 *                     back for the driver's ring test;
 *   renderer-gl       the draw on the GL renderer (renderer=auto where
 *                     this QEMU has it, else skipped) leaves soft's pixels
 *                     in VRAM by the time the marker after it is written;
 *   gl-kept           its surfaces stay on the host across the markers
 *                     (render-gl-kept), yet a pixel the CPU writes through
 *                     the BAR between two draws is read by the next, as
 *                     soft reads it.
 *
 * Each runs with the thread and, for comparison, without it (the bottom
 * half in QEMU's main loop): the rules hold for both.
 */
#include "r500-qtest.h"
#include "qobject/qdict.h"
#include "r500-cp-env.h"
#include "r500-3d-env.h"

#define CB              0x01000000u
#define CB_W            512u
#define LAYERS          24u
#define MARK            R500_REGA_AT(SCRATCH_REG, 3)

/*
 * On soft, the reference: its draws are long enough to be seen busy and
 * are split into slices; the GL renderer's case is renderer-gl below.
 */
static const CpEnvCase with_thread = {
    &r500_test_models[0], "-global r500.card-thread=on "
    "-global r500.renderer=soft"
};
static const CpEnvCase without_thread = {
    &r500_test_models[0], "-global r500.card-thread=off "
    "-global r500.renderer=soft"
};

static uint32_t px(CpEnv *e, uint32_t x, uint32_t y)
{
    return cp_vram_r(e, CB + (y * CB_W + x) * 4);
}

/*
 * LAYERS full-surface layers of additive grey in one draw packet, then
 * the marker: pixel (CB_W - 1, CB_W - 1) is the last pixel the draw
 * writes.
 */
static void submit_layers(CpEnv *e, uint32_t mark)
{
    d3_emit_layers(e, CB_W, LAYERS, 0.01f, 0.01f, 0.01f, 0.01f);
    cp_emit(e, R500_PM4_PACKET0(MARK, 0));
    cp_emit(e, mark);
    cp_commit(e);
}

static void test_fence_after_draw(const void *data)
{
    const CpEnvCase *c = data;
    CpEnv e;
    uint32_t at_mark, final;
    int busy = 0, polls = 0;
    gint64 end;

    cp_env_start_args(&e, c->m, c->args);
    d3_setup(&e, CB, CB_W, CB_W);
    r500_wreg(&e.t, MARK, 0);
    submit_layers(&e, 1);
    /* Poll as a driver waits for its fence, watching the busy bit. */
    end = g_get_monotonic_time() + 120 * G_USEC_PER_SEC;
    while (r500_rreg(&e.t, MARK) != 1) {
        g_assert_cmpint(g_get_monotonic_time(), <, end);
        busy += !!(r500_rreg(&e.t, R_RBBM_STATUS) & GUI_ACTIVE);
        polls++;
    }
    at_mark = px(&e, CB_W - 1, CB_W - 1);
    g_assert_true(cp_wait_idle(&e));
    final = px(&e, CB_W - 1, CB_W - 1);
    g_test_message("%d polls before the marker, %d of them busy; last "
                   "pixel %08x at the marker, %08x at idle", polls, busy,
                   at_mark, final);
    g_assert_cmphex(final, !=, 0);
    g_assert_cmphex(at_mark, ==, final);
    /* every layer reached every pixel: the first equals the last */
    g_assert_cmphex(px(&e, 0, 0), ==, final);
    /* the work took long enough to be seen at work, and said so */
    g_assert_cmpint(busy, >, 0);
    cp_env_stop(&e);
}

static void test_stopped(const void *data)
{
    const CpEnvCase *c = data;
    CpEnv e;
    uint32_t rptr;

    cp_env_start_args(&e, c->m, c->args);
    d3_setup(&e, CB, CB_W, CB_W);
    r500_wreg(&e.t, MARK, 0);
    rptr = r500_rreg(&e.t, R_CP_RB_RPTR);
    qobject_unref(qtest_qmp(e.t.qts, "{'execute': 'stop'}"));
    submit_layers(&e, 7);
    g_usleep(300 * 1000);
    /* register reads work while stopped; the CP has not moved */
    g_assert_cmpuint(r500_rreg(&e.t, R_CP_RB_RPTR), ==, rptr);
    g_assert_cmpuint(r500_rreg(&e.t, MARK), ==, 0);
    g_assert_cmphex(px(&e, 0, 0), ==, 0);
    qobject_unref(qtest_qmp(e.t.qts, "{'execute': 'cont'}"));
    g_assert_true(cp_poll_reg_ms(&e, MARK, ~0u, 7, 120000));
    g_assert_cmphex(px(&e, 0, 0), !=, 0);
    cp_env_stop(&e);
}

static void test_reset(const void *data)
{
    const CpEnvCase *c = data;
    CpEnv e;
    uint32_t p;
    int i;

    cp_env_start_args(&e, c->m, c->args);
    d3_setup(&e, CB, CB_W, CB_W);
    r500_wreg(&e.t, MARK, 0);
    submit_layers(&e, 9);
    /* reset once the draw has begun */
    for (i = 0; i < 200000 && px(&e, 0, 0) == 0; i++) {
        continue;
    }
    g_assert_cmpint(i, <, 200000);
    cp_gpu_reset(&e);
    p = px(&e, CB_W - 1, CB_W - 1);
    g_usleep(200 * 1000);
    /* nothing of the dropped stream is drawn after the reset */
    g_assert_cmphex(px(&e, CB_W - 1, CB_W - 1), ==, p);
    g_assert_cmpuint(r500_rreg(&e.t, MARK), ==, 0);
    cp_ring_test(&e);
    cp_env_stop(&e);
}

/*
 * A counter of the GL renderer; 0 where QEMU is built without it (no
 * draw of its was gl's then: the card has no render-gl-* counters).
 */
static uint64_t gl_stat(R500Test *t, const char *name)
{
    return r500_qom_has_stat(t, name) ? r500_qom_stat(t, name) : 0;
}

/*
 * A card on renderer (soft or auto) with the 3D set-up and the marker
 * cleared; false (the card stopped) when auto did not pick gl.
 */
static bool start_on(CpEnv *e, const char *renderer, bool *gl)
{
    char *args = g_strdup_printf("-global r500.card-thread=on "
                                 "-global r500.renderer=%s", renderer);
    char *active;

    cp_env_start_args(e, &r500_test_models[0], args);
    g_free(args);
    active = r500_qom_str(&e->t, "renderer-active");
    *gl = !strcmp(active, "gl");
    g_free(active);
    if (strcmp(renderer, "soft") && !*gl) {
        cp_env_stop(e);
        return false;
    }
    d3_setup(e, CB, CB_W, CB_W);
    r500_wreg(&e->t, MARK, 0);
    return true;
}

/*
 * The same layers drawn on the host-GL renderer (renderer=gl, on the
 * card's thread): the pixels soft draws, in VRAM when the marker after
 * the draw is (the renderer writes each draw back before the CP goes on).
 * layers_on(): the layers on renderer (soft or auto); false: auto did not
 * pick gl.
 */
static bool layers_on(const char *renderer, uint32_t out[3])
{
    CpEnv e;
    bool gl;

    if (!start_on(&e, renderer, &gl)) {
        return false;
    }
    submit_layers(&e, 5);
    g_assert_true(cp_poll_reg_ms(&e, MARK, ~0u, 5, 120000));
    out[0] = px(&e, 0, 0);
    out[1] = px(&e, CB_W / 2 + 3, CB_W / 3);
    out[2] = px(&e, CB_W - 1, CB_W - 1);
    /* the draw was gl's, or soft's on soft */
    g_assert_cmpint(gl_stat(&e.t, "render-gl-draws"), ==, gl ? 1 : 0);
    cp_env_stop(&e);
    return true;
}

/*
 * Three rounds of layers with their markers; between the second and the
 * third the CPU writes pixel (7, 9) through the BAR.  out: that pixel and
 * (0, 0) at the end; render-gl-kept and render-gl-held (copies kept
 * across a marker: written back then kept, or held), and
 * render-gl-released (looks at held pixels: the CPU's write).  False:
 * auto did not pick gl.
 */
static bool kept_on(const char *renderer, uint32_t out[2], int64_t *kept,
                    int64_t *released)
{
    CpEnv e;
    bool gl;

    if (!start_on(&e, renderer, &gl)) {
        return false;
    }
    for (uint32_t round = 1; round <= 3; round++) {
        if (round == 3) {
            qpci_io_writel(e.t.dev, e.t.vram, CB + (9 * CB_W + 7) * 4,
                           0x00400000);
        }
        submit_layers(&e, round);
        g_assert_true(cp_poll_reg_ms(&e, MARK, ~0u, round, 120000));
    }
    out[0] = px(&e, 7, 9);
    out[1] = px(&e, 0, 0);
    *kept = gl_stat(&e.t, "render-gl-kept") + gl_stat(&e.t, "render-gl-held");
    *released = gl_stat(&e.t, "render-gl-released");
    cp_env_stop(&e);
    return true;
}

static void test_gl_kept(void)
{
    uint32_t soft[2], gl[2];
    int64_t kept, released;

    kept_on("soft", soft, &kept, &released);
    g_assert_cmpint(kept, ==, 0);
    if (!kept_on("auto", gl, &kept, &released)) {
        g_test_skip("renderer=auto chose soft: no GL renderer here");
        return;
    }
    /* the CPU's red under the third round's grey, on both */
    g_assert_cmphex(soft[0], !=, soft[1]);
    g_assert_cmphex(gl[0], ==, soft[0]);
    g_assert_cmphex(gl[1], ==, soft[1]);
    g_assert_cmpint(kept, >=, 1);
    /*
     * The board holds what gl drew past the markers: the CPU's write
     * released it (r500_hold.c), and the end's reads of the pixels too.
     */
    g_assert_cmpint(released, >=, 1);
}

static void test_gl_renderer(void)
{
    uint32_t soft[3], gl[3];

    layers_on("soft", soft);
    if (!layers_on("auto", gl)) {
        /* the fuzzing build's QEMU has no OpenGL; a host may lack EGL */
        g_test_skip("renderer=auto chose soft: no GL renderer here");
        return;
    }
    for (int i = 0; i < 3; i++) {
        g_assert_cmphex(soft[i], !=, 0);
        g_assert_cmphex(gl[i], ==, soft[i]);
    }
}

static void add(const char *name, const CpEnvCase *c, GTestDataFunc fn)
{
    char *path = g_strdup_printf("/r500/%s/thread/%s-%s", c->m->name, name,
                                 c == &with_thread ? "on" : "off");

    qtest_add_data_func(path, c, fn);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add("fence-after-draw", &with_thread, test_fence_after_draw);
    add("fence-after-draw", &without_thread, test_fence_after_draw);
    add("stopped", &with_thread, test_stopped);
    add("stopped", &without_thread, test_stopped);
    add("reset", &with_thread, test_reset);
    add("reset", &without_thread, test_reset);
    qtest_add_func("/r500/rv515/thread/renderer-gl", test_gl_renderer);
    qtest_add_func("/r500/rv515/thread/gl-kept", test_gl_kept);
    return g_test_run();
}
