/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Write-back when someone looks (hw/r500/gl/gl.c gl_hold, gl_release;
 * R500HostOps.vram_hold): with a host that traps the CPU's accesses, what
 * the host-GL renderer drew stays on the host past a fence, its bytes in
 * VRAM held, and goes back when someone looks:
 *
 *   fence       after a fence memory is unchanged and the target held;
 *               a look (r500_vram_release) brings soft's pixels back and
 *               lets the hold go;
 *   next-frame  a draw after the fence draws on the held copy, nothing
 *               uploaded, and a look then finds both draws;
 *   cp-waits    through the CP: with holds the host sets later, the
 *               fence's scratch write waits until they are in force;
 *   engines     the chip's own readers look too: a read through the MC
 *               (the CP, vertex fetch), one through the host aperture
 *               (r500_hdp_read), and the 2D engine started by register
 *               writes (a copy of the target elsewhere) find the drawn
 *               pixels;
 *   stop        a stop (migration's RAM pass) writes back and keeps the
 *               copy: the next draw uploads nothing;
 *   refused     a host that holds nothing gets the pixels at the fence.
 */
#include <string.h>

#include "../unit/test-3d.h"
#include "../qtest/r500-driver-seq.h"

#define TRIANGLES       4
#define BYTES           (T3D_W * T3D_H * 4)
#define RING            0x500000u

static TestHost *host(const char *w, bool holds)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const char *why;

    if (!r500_pipe_set_renderer(&h->chip, w, &why)) {
        g_error("renderer %s: %s", w, why);
    }
    h->host.holds = holds;
    t3d_setup(h);
    t3d_fill(h, 0);
    t3d_blend_add(h);
    return h;
}

static void vtx(float *v, float x, float y, float r, float g, float b)
{
    const float in[8] = { x, y, 0.5f, 1.0f, r, g, b, 0.5f };

    memcpy(v, in, sizeof(in));
}

/* Two smooth triangles over most of the target. */
static void scene_verts(float *v, float shift)
{
    vtx(v, 2 + shift, 3, 0.2f, 0.1f, 0.0f);
    vtx(v + 8, 61, 8 + shift, 0.0f, 0.3f, 0.1f);
    vtx(v + 16, 21, 60, 0.3f, 0.0f, 0.4f);
    vtx(v + 24, 5, 40 - shift, 0.1f, 0.1f, 0.1f);
    vtx(v + 32, 58, 62, 0.1f, 0.2f, 0.3f);
    vtx(v + 40, 62, 15, 0.2f, 0.2f, 0.1f);
}

static void scene(TestHost *h, float shift)
{
    float v[6 * 8];

    scene_verts(v, shift);
    t3d_draw(h, TRIANGLES, v, 6);
}

static bool zero(TestHost *h)
{
    for (unsigned i = 0; i < BYTES; i++) {
        if (h->vram[T3D_CB + i]) {
            return false;
        }
    }
    return true;
}

/* Pixels over 2/255 a channel apart (GL's blending and edges). */
static unsigned differ(TestHost *a, TestHost *b)
{
    unsigned n = 0;

    for (unsigned i = 0; i < BYTES; i++) {
        n += ABS((int)a->vram[T3D_CB + i] - (int)b->vram[T3D_CB + i]) > 2;
    }
    return n;
}

static void test_fence(void)
{
    TestHost *soft = host("soft", false), *gl = host("gl", true);

    scene(soft, 0);
    scene(gl, 0);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    /* held: nothing read back */
    g_assert_true(zero(gl));
    /* the span of what the triangles drew */
    g_assert_cmpuint(gl->host.held_bytes, >, BYTES / 2);
    g_assert_cmpuint(gl->host.hold_calls, ==, 1);
    /* a look at one pixel brings back the whole target */
    r500_vram_release(&gl->chip, T3D_CB + (30 * T3D_W + 30) * 4, 4);
    g_assert_false(zero(gl));
    g_assert_cmpuint(differ(soft, gl), <, 40);
    g_assert_cmpuint(gl->host.held_bytes, ==, 0);
    g_assert_cmpuint(gl->host.unhold_calls, ==, 1);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_next_frame(void)
{
    TestHost *soft = host("soft", false), *gl = host("gl", true);
    uint64_t up = 0;

    for (unsigned f = 0; f < 2; f++) {
        scene(soft, 4.0f * f);
        scene(gl, 4.0f * f);
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        if (f == 0) {
            up = r500_chip_stat(&gl->chip, "render-gl-uploaded");
        }
    }
    g_assert_true(zero(gl));
    /* the second frame drew on the held copy */
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, up);
    r500_vram_release(&gl->chip, T3D_CB, BYTES);
    g_assert_cmpuint(differ(soft, gl), <, 60);
    g_assert_cmpuint(gl->host.held_bytes, ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

/* A draw and a fence (SCRATCH_REG0 := 0x5EED) through the ring. */
static void ring_scene_fence(TestHost *h)
{
    R500Chip *s = &h->chip;
    float v[6 * 8];
    uint32_t dw[2 + 6 * 8 + 2], wptr = 0;

    scene_verts(v, 0);
    r500_seq_cp_init(r500_seq_chip_w, s, RING, 16, RING + 0x80000);
    r500_reg_write(s, R_VAP_VTX_SIZE, 8);
    dw[0] = R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 8 * 6);
    dw[1] = TRIANGLES | 3u << 4 | 6u << 16;
    memcpy(dw + 2, v, sizeof(v));
    dw[50] = R500_PM4_PACKET0(R_SCRATCH_REG, 0);
    dw[51] = 0x5EED;
    for (unsigned i = 0; i < G_N_ELEMENTS(dw); i++) {
        uint32_t le = GUINT32_TO_LE(dw[i]);

        memcpy(h->vram + RING + 4 * wptr++, &le, 4);
    }
    r500_reg_write(s, R_CP_RB_WPTR, wptr);
}

static void test_cp_waits(void)
{
    TestHost *gl = host("gl", true);
    R500Chip *s = &gl->chip;

    gl->host.holds_late = true;
    ring_scene_fence(gl);
    for (unsigned i = 0; i < 3; i++) {
        r500_run(s);
    }
    /* drawn and held, but the traps are not set: the fence waits */
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, 1);
    g_assert_cmpuint(gl->host.hold_calls, >=, 1);
    g_assert_cmphex(s->regs[R_SCRATCH_REG / 4], !=, 0x5EED);
    g_assert_true(zero(gl));
    gl->host.holds_set = true;
    r500_run(s);
    g_assert_cmphex(s->regs[R_SCRATCH_REG / 4], ==, 0x5EED);
    /* still held: the fence said nothing the CPU could not trap */
    g_assert_true(zero(gl));
    r500_vram_release(s, T3D_CB, BYTES);
    g_assert_false(zero(gl));
    test_host_free(gl);
}

static void test_engines(void)
{
    TestHost *soft = host("soft", false);
    uint32_t want, got = 0;

    scene(soft, 0);
    want = t3d_px(soft, 30, 30);
    g_assert_cmphex(want, !=, 0);
    for (unsigned k = 0; k < 2; k++) {
        TestHost *gl = host("gl", true);

        scene(gl, 0);
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        g_assert_true(zero(gl));
        if (k == 0) {
            /* the MC: the FB window starts at 0 after t3d's set-up */
            g_assert_true(r500_mem_read(&gl->chip, r500_mc_fb_base(&gl->chip)
                                        + T3D_CB + (30 * T3D_W + 30) * 4,
                                        &got, 4));
            got = GUINT32_FROM_LE(got);
        } else {
            /* the host aperture, no surface window: linear VRAM */
            got = r500_hdp_read(&gl->chip, T3D_CB + (30 * T3D_W + 30) * 4,
                                4);
        }
        g_assert_cmpint(ABS((int)(got & 0xFF) - (int)(want & 0xFF)), <=, 2);
        g_assert_cmphex(got, !=, 0);
        g_assert_cmpuint(gl->host.held_bytes, ==, 0);
        test_host_free(gl);
    }
    test_host_free(soft);
}

/* The 2D engine's copy of the target (EXA's, radeon_exa_funcs.c) to dst. */
static void copy_2d(TestHost *h, uint32_t dst)
{
    R500Chip *s = &h->chip;
    /* pitch and offset: 64-byte units of pitch, 1 KiB units of offset */
    uint32_t po_src = (T3D_W * 4 / 64) << 22 | T3D_CB >> 10;
    uint32_t po_dst = (T3D_W * 4 / 64) << 22 | dst >> 10;

    /* DST/SRC_PITCH_OFFSET, no brush, 32 bpp, SRCCOPY, source memory */
    r500_reg_write(s, R_DP_GUI_MASTER_CNTL, 3u | 15u << 4 | 6u << 8 |
                   3u << 12 | 0xCCu << 16 | 2u << 24 | 1u << 28);
    r500_reg_write(s, R_DP_WRITE_MASK, ~0u);
    r500_reg_write(s, R_DP_CNTL, 3);
    r500_reg_write(s, R_SRC_PITCH_OFFSET, po_src);
    r500_reg_write(s, R_DST_PITCH_OFFSET, po_dst);
    r500_reg_write(s, R_SRC_Y_X, 0);
    r500_reg_write(s, R_DST_Y_X, 0);
    r500_reg_write(s, R_DST_HEIGHT_WIDTH, (uint32_t)T3D_H << 16 | T3D_W);
    test_host_run(h);
}

static void test_2d(void)
{
    TestHost *soft = host("soft", false), *gl = host("gl", true);
    const uint32_t dst = T3D_CB + 0x40000;
    unsigned off = 0;

    scene(soft, 0);
    scene(gl, 0);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    g_assert_true(zero(gl));
    copy_2d(gl, dst);
    for (unsigned i = 0; i < BYTES; i++) {
        off += ABS((int)gl->vram[dst + i] - (int)soft->vram[T3D_CB + i]) > 2;
    }
    g_assert_cmpuint(off, <, 40);
    g_assert_cmpuint(gl->host.held_bytes, ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_stop(void)
{
    TestHost *gl = host("gl", true);
    uint64_t up;

    /* the host can say what the CPU wrote: copies may be kept */
    gl->host.cpu_pages = g_new0(uint8_t, 64 * 256);
    scene(gl, 0);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    r500_pipe_sync(&gl->chip, R500_SYNC_STOP);
    g_assert_false(zero(gl));
    g_assert_cmpuint(gl->host.held_bytes, ==, 0);
    up = r500_chip_stat(&gl->chip, "render-gl-uploaded");
    scene(gl, 2);
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, up);
    g_free(gl->host.cpu_pages);
    gl->host.cpu_pages = NULL;
    test_host_free(gl);
}

static void test_refused(void)
{
    TestHost *gl = host("gl", false);

    scene(gl, 0);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    g_assert_false(zero(gl));
    g_assert_cmpuint(gl->host.hold_calls, ==, 0);
    test_host_free(gl);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/hold/fence", test_fence);
    g_test_add_func("/gl/hold/next-frame", test_next_frame);
    g_test_add_func("/gl/hold/cp-waits", test_cp_waits);
    g_test_add_func("/gl/hold/engines", test_engines);
    g_test_add_func("/gl/hold/2d", test_2d);
    g_test_add_func("/gl/hold/stop", test_stop);
    g_test_add_func("/gl/hold/refused", test_refused);
    return g_test_run();
}
