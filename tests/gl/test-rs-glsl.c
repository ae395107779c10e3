/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RS as GLSL (hw/r500/gl/rs_glsl.c) with the US translation after
 * it, against soft: a triangle drawn by the chip core into a 64x64 float
 * colour buffer (ARGB32323232, C4_32_FP: the interpolated values stored
 * exactly) and by the host's OpenGL (EGL surfaceless, llvmpipe here) from
 * the same window-space vertices, through the RS table the draw decoded.
 * The values agree to interpolation precision (soft's planes in double,
 * llvmpipe's in float: 1e-4 relative); coverage may differ on the edges
 * (1/12 against 1/256 pixel snapping), so only pixels both drew are
 * compared, and those must be nearly all.
 */
#include <math.h>
#include <string.h>

#include "../unit/test-3d.h"
#include "gltest.h"
#include "gl/glsl.h"

#define SENTINEL (-12345.0f)
#define NATTR (R500_VTX_ATTRS / 4)

static bool gl_up(void)
{
    GLuint fbo, rb, vao;

    if (!gltest_context()) {
        return false;
    }
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, T3D_W, T3D_H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    g_assert_cmphex(glCheckFramebufferStatus(GL_FRAMEBUFFER), ==,
                    GL_FRAMEBUFFER_COMPLETE);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, T3D_W, T3D_H);
    /* window z is 0..1 already */
    glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    return true;
}

/* Vertices as the test gives them: x, y, z, 1/w, r, g, b, a (window). */
static void draw_gl(TestHost *h, const float *v, unsigned n, bool back,
                    float out[T3D_H][T3D_W][4])
{
    const R500Rast *r = &h->chip.rast;
    GString *vs = g_string_new(NULL), *pro = g_string_new(NULL);
    GString *fs = g_string_new(NULL);
    R500UsGlslIn gin = { .ztae = h->chip.us.zero_times_anything };
    R500RsGlslLayout lay;
    const char *why;
    /* per vertex: win, the layout's inputs, back */
    enum { MAXF = 4 + 4 * NATTR * 2 + 1 };
    float buf[3 * MAXF];
    static const float sentinel[4] = { SENTINEL, SENTINEL, SENTINEL,
                                       SENTINEL };
    GLuint prog, vbo;
    unsigned stride;

    g_assert_cmpuint(n, ==, 3);
    g_assert_true(r500_rs_glsl(r, vs, pro, &lay, &why));
    gin.prologue = pro->str;
    g_assert_true(r500_us_glsl(&h->chip.us.prog, &gin, fs, NULL, &why));
    stride = 4 + 4 * lay.n + 1;
    memset(buf, 0, sizeof(buf));
    for (unsigned k = 0; k < n; k++) {
        float *b = buf + k * stride;

        memcpy(b, v + 8 * k, 4 * sizeof(float));
        for (unsigned i = 0; i < lay.n; i++) {
            /* the vertices carry colour 0 (attributes 0-3) only; the
             * provoking vertex is the last (GA_COLOR_CONTROL default) */
            const float *src = v + 8 * (lay.flat[i] ? n - 1 : k) + 4;

            if (lay.group[i] == 0) {
                memcpy(b + 4 + 4 * i, src, 4 * sizeof(float));
            }
        }
        b[stride - 1] = back;
    }
    prog = gltest_program(vs->str, fs->str);
    glUseProgram(prog);
    glUniform2f(glGetUniformLocation(prog, "r500_size"), T3D_W, T3D_H);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, 3 * stride * 4, buf, GL_STREAM_DRAW);
    for (unsigned k = 0; k < 1 + lay.n; k++) {
        glEnableVertexAttribArray(k);
        glVertexAttribPointer(k, 4, GL_FLOAT, GL_FALSE, stride * 4,
                              (void *)(uintptr_t)(k * 16));
    }
    glEnableVertexAttribArray(lay.back_loc);
    glVertexAttribPointer(lay.back_loc, 1, GL_FLOAT, GL_FALSE, stride * 4,
                          (void *)(uintptr_t)((stride - 1) * 4));
    glClearBufferfv(GL_COLOR, 0, sentinel);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glReadPixels(0, 0, T3D_W, T3D_H, GL_RGBA, GL_FLOAT, out);
    g_assert_cmphex(glGetError(), ==, GL_NO_ERROR);
    for (unsigned k = 0; k < 2 + lay.n; k++) {
        glDisableVertexAttribArray(k);
    }
    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    g_string_free(vs, true);
    g_string_free(pro, true);
    g_string_free(fs, true);
}

/* The same on soft into a float buffer; out in the same row order. */
static void draw_soft(TestHost *h, const float *v, unsigned n,
                      float out[T3D_H][T3D_W][4])
{
    R500Chip *s = &h->chip;

    for (int i = 0; i < T3D_W * T3D_H * 4; i++) {
        memcpy(h->vram + T3D_CB + i * 4, &(float){ SENTINEL }, 4);
    }
    t3d_draw(h, 4 /* VAP_VF_CNTL triangle list */, v, n);
    (void)s;
    memcpy(out, h->vram + T3D_CB, T3D_W * T3D_H * 16);
}

static void compare(const char *what, float a[T3D_H][T3D_W][4],
                    float b[T3D_H][T3D_W][4])
{
    unsigned both = 0, one = 0;

    for (int y = 0; y < T3D_H; y++) {
        for (int x = 0; x < T3D_W; x++) {
            bool da = a[y][x][0] != SENTINEL, db = b[y][x][0] != SENTINEL;

            if (da != db) {
                one++;
                continue;
            }
            if (!da) {
                continue;
            }
            both++;
            for (int c = 0; c < 4; c++) {
                float e = fabsf(a[y][x][c] - b[y][x][c]);

                if (e > 1e-4f * fmaxf(1.0f, fabsf(a[y][x][c]))) {
                    g_error("%s: pixel %d,%d channel %d: soft %.9g gl %.9g",
                            what, x, y, c, a[y][x][c], b[y][x][c]);
                }
            }
        }
    }
    g_test_message("%s: %u pixels compared, %u drawn by one only", what,
                   both, one);
    /* edges may round differently, not more */
    g_assert_cmpuint(both, >, 500);
    g_assert_cmpuint(one, <=, both / 10);
}

static TestHost *float_host(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;

    t3d_setup(h);
    /* ARGB32323232 with C4_32_FP: the shader's floats stored as they are */
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | 7u << 21);
    r500_reg_write(s, R_US_OUT_FMT, 21 | 1u << 8 | 2u << 10 | 3u << 12);
    return h;
}

/*
 * One triangle on soft and on GL, compared; the soft image (for checks
 * of its own) in *soft.
 */
static void draw_both(TestHost *h, const float *v, const char *what,
                      float (**soft)[T3D_W][4])
{
    static float a[T3D_H][T3D_W][4], b[T3D_H][T3D_W][4];

    draw_soft(h, v, 3, a);
    draw_gl(h, v, 3, h->chip.rast.prim.back, b);
    compare(what, a, b);
    if (soft) {
        *soft = a;
    }
}

/* Gouraud colour with the same 1/w at every vertex: affine. */
static void test_smooth(void)
{
    TestHost *h = float_host();
    const float v[3 * 8] = {
        2, 3, 0.25f, 1, 1, 0, 0.5f, 1,
        61, 9, 0.5f, 1, 0, 1, -2, 0.25f,
        20, 60, 0.75f, 1, 0.25f, 0.5f, 3, 0,
    };

    draw_both(h, v, "smooth", NULL);
    test_host_free(h);
}

/* Different 1/w per vertex: perspective-correct on both. */
static void test_perspective(void)
{
    TestHost *h = float_host();
    const float v[3 * 8] = {
        1, 1, 0.1f, 1.0f, 1, 0, 0, 1,
        63, 5, 0.5f, 0.125f, 0, 1, 0, 0.5f,
        10, 62, 0.9f, 0.5f, 0, 0, 1, 0,
    };

    draw_both(h, v, "perspective", NULL);
    test_host_free(h);
}

/*
 * Flat colour (GA_COLOR_CONTROL shade 1 for colour 0), the window position
 * (RS_INST COL_CN 2) and the facing flag (COL_CN 3) instead of colour 0.
 */
static void test_rs_sources(void)
{
    static const struct {
        const char *what;
        uint32_t cc_mask, cc, rs_inst;
    } cases[] = {
        { "flat", 0xF, 0x5, 1u << 16 },
        { "window position", 0, 0, 2u << 16 },
        { "facing", 0, 0, 3u << 16 },
        { "facing, other winding", 0, 0, 3u << 16 },
    };
    const float v[3 * 8] = {
        2, 3, 0.25f, 1, 1, 0, 0.5f, 1,
        61, 9, 0.5f, 0.5f, 0, 1, -2, 0.25f,
        20, 60, 0.75f, 0.25f, 0.25f, 0.5f, 3, 0.125f,
    };

    float face = -1.0f;

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TestHost *h = float_host();
        R500Chip *s = &h->chip;
        float (*a)[T3D_W][4];
        uint32_t cc = s->regs[R_GA_COLOR_CONTROL / 4];

        r500_reg_write(s, R_GA_COLOR_CONTROL,
                       (cc & ~cases[i].cc_mask) | cases[i].cc);
        float vv[3 * 8];

        memcpy(vv, v, sizeof(vv));
        if (i == 3) {
            /* vertices 1 and 2 swapped: the other facing */
            memcpy(vv + 8, v + 16, 8 * sizeof(float));
            memcpy(vv + 16, v + 8, 8 * sizeof(float));
        }
        r500_reg_write(s, R_RS_INST, cases[i].rs_inst);
        draw_both(h, vv, cases[i].what, &a);
        if (i == 2) {
            face = a[30][20][0];
            g_assert_true(face == 0.0f || face == 1.0f);
        } else if (i == 3) {
            /* the flag is the facing's: the other winding, the other value */
            g_assert_cmpfloat(a[30][20][0], ==, 1.0f - face);
        }
        test_host_free(h);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!gl_up()) {
        return 1;
    }
    g_test_add_func("/rs-glsl/smooth", test_smooth);
    g_test_add_func("/rs-glsl/perspective", test_perspective);
    g_test_add_func("/rs-glsl/sources", test_rs_sources);
    return g_test_run();
}
