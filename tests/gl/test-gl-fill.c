/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer's fills (hw/r500/gl/gl.c gl_rect): a draw whose
 * first primitive is a rectangle of one colour (a point: Mesa r300 clears
 * with one point the size of the target) is stored on the host as soft's
 * fill path stores it, bit for bit, without drawing it and without
 * reading the memory under it:
 *
 *   clear       a point over the whole target, colour and a Z24S8 depth
 *               word (depth test ALWAYS, written), over noise: the bytes
 *               of soft, nothing read from memory, the draw gl's;
 *   partial     a scissored point over part of the target: the rest of
 *               the surfaces keeps its noise;
 *   then-tris   one draw of two points, the first a fill, the second
 *               drawn over it as triangles: soft's bytes, in that order;
 *   z16         the same clear over a Z16 buffer;
 *   occlusion   the fill's pixels are counted (ZB_ZPASS_*) as soft's are;
 *   declined    a blended point, or one over a depth buffer whose stencil
 *               bits it keeps, is no fill: drawn, with what is under it
 *               read, and still soft's bytes.
 */
#include <string.h>

#include "../unit/test-3d.h"

#define POINTS  1
#define BYTES   (T3D_W * T3D_H * 4)

static TestHost *host(const char *w)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const char *why;

    if (!r500_pipe_set_renderer(&h->chip, w, &why)) {
        g_error("renderer %s: %s", w, why);
    }
    t3d_setup(h);
    /* noise under everything: what a fill must not leave, or read */
    for (unsigned i = 0; i < BYTES; i++) {
        h->vram[T3D_CB + i] = (uint8_t)(i * 7 + (i >> 8) * 13);
        h->vram[T3D_ZB + i] = (uint8_t)(i * 11 + (i >> 8) * 5);
    }
    return h;
}

/*
 * A Z24S8 (or Z16) buffer tested ALWAYS and written, as Mesa clears one:
 * with stencil, its reference REPLACEd through a full write mask; without
 * (keep_stencil), the stencil bits are kept, which no fill can do.
 */
static void depth_always(TestHost *h, bool z16, bool keep_stencil)
{
    R500Chip *s = &h->chip;
    bool st = !z16 && !keep_stencil;

    /*
     * STENCIL_ENABLE, Z_ENABLE, Z_WRITE_ENABLE; ZFUNC ALWAYS; STENCILFUNC
     * ALWAYS, STENCILZPASS REPLACE
     */
    t3d_depth(h, z16 ? 0 : 2, st ? 7 : 6, st ? 7 | 7u << 3 | 2u << 9 : 7);
    r500_reg_write(s, R_ZB_STENCILREFMASK, 0x5A | 0xFFu << 8 | 0xFFu << 16);
}

static void vtx(float *v, float x, float y, float z, float r, float g,
                float b, float a)
{
    const float in[8] = { x, y, z, 1.0f, r, g, b, a };

    memcpy(v, in, sizeof(in));
}

/* A point of half sizes hw, hh pixels at (x, y), one colour. */
static void point(TestHost *h, float x, float y, unsigned hw, unsigned hh,
                  float z, float r, float g, float b)
{
    float v[8];

    vtx(v, x, y, z, r, g, b, 0.75f);
    r500_reg_write(&h->chip, R_GA_POINT_SIZE, (hh * 12) << 16 | hw * 12);
    t3d_draw(h, POINTS, v, 1);
}

static void sync_gl(TestHost *h)
{
    r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
}

static void assert_same(TestHost *a, TestHost *b)
{
    g_assert_true(!memcmp(a->vram + T3D_CB, b->vram + T3D_CB, BYTES));
    g_assert_true(!memcmp(a->vram + T3D_ZB, b->vram + T3D_ZB, BYTES));
}

static void assert_gl(TestHost *h, uint64_t draws)
{
    uint64_t d, soft;

    d = r500_chip_stat(&h->chip, "render-gl-draws");

    soft = r500_chip_stat(&h->chip, "render-gl-fallbacks");
    g_assert_cmpuint(d, ==, draws);
    g_assert_cmpuint(soft, ==, 0);
}

static void test_clear(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };

    for (unsigned k = 0; k < 2; k++) {
        depth_always(hs[k], false, false);
        point(hs[k], 32, 32, 32, 32, 0.25f, 0.2f, 0.4f, 0.6f);
    }
    sync_gl(gl);
    assert_same(soft, gl);
    /* the whole target took the colour and the depth word */
    g_assert_cmphex(t3d_px(gl, 0, 63), ==, t3d_px(gl, 40, 7));
    g_assert_cmphex(t3d_px(gl, 0, 63), !=, 0);
    assert_gl(gl, 1);
    /* nothing under the fill was read */
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_partial(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };

    for (unsigned k = 0; k < 2; k++) {
        depth_always(hs[k], false, false);
        /* scissor (10, 20) to (41, 52) */
        r500_reg_write(&hs[k]->chip, R_RE_SCISSORS_TL, 10 | 20u << 13);
        r500_reg_write(&hs[k]->chip, R_RE_SCISSORS_BR, 41 | 52u << 13);
        point(hs[k], 32, 32, 32, 32, 0.5f, 0.9f, 0.1f, 0.3f);
    }
    sync_gl(gl);
    assert_same(soft, gl);
    g_assert_cmphex(t3d_px(gl, 10, 20), !=, t3d_px(gl, 9, 20));
    g_assert_cmphex(t3d_px(gl, 10, 20), ==, t3d_px(gl, 41, 52));
    assert_gl(gl, 1);
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_then_tris(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };
    float v[2 * 8];

    vtx(v, 25, 25, 0.5f, 0.1f, 0.2f, 0.3f, 1);
    vtx(v + 8, 40, 40, 0.5f, 0.8f, 0.2f, 0.3f, 1);
    for (unsigned k = 0; k < 2; k++) {
        /* two points of 40 x 40 in one draw: the first a fill, the
         * second drawn over it */
        r500_reg_write(&hs[k]->chip, R_GA_POINT_SIZE, 240u << 16 | 240);
        t3d_draw(hs[k], POINTS, v, 2);
    }
    sync_gl(gl);
    assert_same(soft, gl);
    /* where they overlap, the second */
    g_assert_cmphex(t3d_px(gl, 30, 30), ==, t3d_px(gl, 50, 50));
    g_assert_cmphex(t3d_px(gl, 30, 30), !=, t3d_px(gl, 10, 10));
    assert_gl(gl, 1);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_z16(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };

    for (unsigned k = 0; k < 2; k++) {
        depth_always(hs[k], true, false);
        point(hs[k], 32, 32, 32, 32, 0.7f, 0.3f, 0.3f, 0.3f);
    }
    sync_gl(gl);
    assert_same(soft, gl);
    assert_gl(gl, 1);
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

/* The occlusion count of one fill of the scissored 32 x 33 pixels. */
static uint32_t fill_count(TestHost *h)
{
    uint32_t got;

    r500_reg_write(&h->chip, R_SU_REG_DEST, 1);
    r500_reg_write(&h->chip, R_RE_SCISSORS_TL, 10 | 20u << 13);
    r500_reg_write(&h->chip, R_RE_SCISSORS_BR, 41 | 52u << 13);
    r500_reg_write(&h->chip, R_ZB_ZPASS_DATA, 0);
    point(h, 32, 32, 32, 32, 0.5f, 0.1f, 0.1f, 0.1f);
    r500_reg_write(&h->chip, R_ZB_ZPASS_ADDR, T3D_ZB + BYTES);
    memcpy(&got, h->vram + T3D_ZB + BYTES, 4);
    return GUINT32_FROM_LE(got);
}

static void test_occlusion(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");

    g_assert_cmpuint(fill_count(soft), ==, 32 * 33);
    g_assert_cmpuint(fill_count(gl), ==, 32 * 33);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_declined(void)
{
    for (unsigned c = 0; c < 2; c++) {
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };

        for (unsigned k = 0; k < 2; k++) {
            if (c == 0) {
                t3d_blend_add(hs[k]);
            } else {
                depth_always(hs[k], false, true);
            }
            point(hs[k], 32, 32, 32, 32, 0.5f, 0.1f, 0.1f, 0.1f);
        }
        sync_gl(gl);
        if (c == 0) {
            /* GL's blender rounds in fixed point: 2 steps (formats) */
            for (unsigned i = 0; i < BYTES; i++) {
                g_assert_cmpint(ABS((int)soft->vram[T3D_CB + i] -
                                    (int)gl->vram[T3D_CB + i]), <=, 2);
            }
        } else {
            assert_same(soft, gl);
        }
        assert_gl(gl, 1);
        /* blended over what was there, or stencil kept: that was read */
        g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), >=, BYTES);
        test_host_free(soft);
        test_host_free(gl);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/fill/clear", test_clear);
    g_test_add_func("/gl/fill/partial", test_partial);
    g_test_add_func("/gl/fill/then-tris", test_then_tris);
    g_test_add_func("/gl/fill/z16", test_z16);
    g_test_add_func("/gl/fill/occlusion", test_occlusion);
    g_test_add_func("/gl/fill/declined", test_declined);
    return g_test_run();
}
