/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GLSL translation of US programs (hw/r500/us/us_glsl.c) against the
 * soft interpreter (us_exec.c): each program runs on soft, quad by quad,
 * and as a fragment shader on the host's OpenGL (EGL surfaceless: llvmpipe
 * here), over the same 8x8 pixels of inputs, and the outputs are compared
 * bit for bit (the transcendental ops to 1e-5 relative, where the C
 * library and the GL compiler differ; denormals as zero).  Programs: one per
 * feature, written by hand, then seeded random ones over everything the
 * translation covers.  What it declines is checked to be declined.
 */
#include <float.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "../unit/test-3d.h"
#include "gltest.h"

#define W 8
#define NIN 4           /* temporaries 0-3 come from the "RS" */

static GString *last_fs;        /* the shader last run, for failures */
static GString *last_fs;        /* the shader last run, for failures */
static GLuint fbo, tin_tex, vao;

/* Inputs: temp n of pixel (x, y) is in[y][x][n]. */
static float in[W][W][NIN][4];
/* Outputs of soft: [target][y][x][ch]; kill per pixel. */
static float soft_out[4][W][W][4];
static bool soft_kill[W][W];

static bool gl_up(void)
{
    if (!gltest_context()) {
        return false;
    }
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    for (int t = 0; t < 4; t++) {
        GLuint rb;

        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, W, W);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + t,
                                  GL_RENDERBUFFER, rb);
    }
    {
        static const GLenum bufs[4] = {
            GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2,
            GL_COLOR_ATTACHMENT3,
        };

        glDrawBuffers(4, bufs);
    }
    g_assert_cmphex(glCheckFramebufferStatus(GL_FRAMEBUFFER), ==,
                    GL_FRAMEBUFFER_COMPLETE);
    glGenTextures(1, &tin_tex);
    glBindTexture(GL_TEXTURE_2D, tin_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, W * W, NIN, 0, GL_RGBA,
                 GL_FLOAT, NULL);
    /* complete without mip levels, or texelFetch reads (0, 0, 0, 1) */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    /* complete without mip levels, or texelFetch reads (0, 0, 0, 1) */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, W, W);
    return true;
}

/* The inputs as the texture R500_TEMP_IN reads: texel (x + 8y, n). */
static const char prologue[] =
    "uniform sampler2D r500_tin;\n"
    "#define R500_TEMP_IN(n) ((n) < 4 ? texelFetch(r500_tin, "
    "ivec2(int(gl_FragCoord.x) + 8 * int(gl_FragCoord.y), (n)), 0) "
    ": vec4(0.0))\n";

/* Run the chip's current program on GL; out[target][y][x][ch]. */
static void run_gl(TestHost *h, float out[4][W][W][4], bool kill[W][W])
{
    static const char vs[] =
        "#version 450 core\n"
        "void main() {\n"
        "    vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1);\n"
        "    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    static const float sentinel[4] = { -12345.0f, -12345.0f, -12345.0f,
                                       -12345.0f };
    R500UsGlslIn gin = { .prologue = prologue,
                         .ztae = h->chip.us.zero_times_anything };
    GString *fs = g_string_new(NULL);
    const char *why;
    float tex[NIN][W * W][4];
    GLuint prog;
    GLint loc;

    uint16_t tex_ops[16];

    g_assert_true(r500_us_glsl(&h->chip.us.prog, &gin, fs, tex_ops, &why));
    /* the sampling functions of the units the program fetches from */
    for (unsigned u = 0; u < 16; u++) {
        if (tex_ops[u]) {
            g_assert_true(r500_tx_glsl(&h->chip.tx.unit[u], u, tex_ops[u], fs,
                                       &why));
        }
    }
    prog = gltest_program(vs, fs->str);
    glUseProgram(prog);
    for (int n = 0; n < NIN; n++) {
        for (int y = 0; y < W; y++) {
            for (int x = 0; x < W; x++) {
                memcpy(tex[n][y * W + x], in[y][x][n], 16);
            }
        }
    }
    glBindTexture(GL_TEXTURE_2D, tin_tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W * W, NIN, GL_RGBA, GL_FLOAT,
                    tex);
    glUniform1i(glGetUniformLocation(prog, "r500_tin"), 0);
    /* the sampled texture (test_tex) is on unit 1 */
    glUniform1i(glGetUniformLocation(prog, "r500_s0"), 1);
    loc = glGetUniformLocation(prog, "r500_k");
    if (loc >= 0) {
        glUniform4fv(loc, R500_US_CONSTS, &h->chip.us.kconst[0][0]);
    }
    for (int t = 0; t < 4; t++) {
        glClearBufferfv(GL_COLOR, t, sentinel);
    }
    glDrawArrays(GL_TRIANGLES, 0, 3);
    for (int t = 0; t < 4; t++) {
        glReadBuffer(GL_COLOR_ATTACHMENT0 + t);
        glReadPixels(0, 0, W, W, GL_RGBA, GL_FLOAT, out[t]);
    }
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            kill[y][x] = out[0][y][x][0] == -12345.0f &&
                         out[0][y][x][3] == -12345.0f;
        }
    }
    g_assert_cmphex(glGetError(), ==, GL_NO_ERROR);
    glDeleteProgram(prog);
    if (last_fs) {
        g_string_free(last_fs, true);
    }
    last_fs = fs;
}

/* Run the chip's current program on soft, quad by quad. */
static void run_soft(TestHost *h)
{
    R500Worker *w = r500_soft_begin(&h->chip);

    for (int qy = 0; qy < W; qy += 2) {
        for (int qx = 0; qx < W; qx += 2) {
            memset(w->q.t, 0, sizeof(w->q.t));
            for (int p = 0; p < 4; p++) {
                int x = qx + (p & 1), y = qy + (p >> 1);

                for (int n = 0; n < NIN; n++) {
                    for (int c = 0; c < 4; c++) {
                        w->q.t[n][c][p] = in[y][x][n][c];
                    }
                }
            }
            w->q.cover = 0xF;
            r500_us_run_quad(w);
            for (int p = 0; p < 4; p++) {
                int x = qx + (p & 1), y = qy + (p >> 1);

                soft_kill[y][x] = (w->q.kill >> p) & 1;
                for (int t = 0; t < 4; t++) {
                    for (int c = 0; c < 4; c++) {
                        soft_out[t][y][x][c] = w->q.out[t][c][p];
                    }
                }
            }
        }
    }
}

/* Whether a and b agree: the same bits, both NaN, or (tol) close. */
static bool same(float a, float b, bool tol)
{
    if (isnan(a) || isnan(b)) {
        return isnan(a) && isnan(b);
    }
    if (!memcmp(&a, &b, 4)) {
        return true;
    }
    /*
     * llvmpipe flushes denormal results to zero, soft keeps them (the
     * R500's own rule is not documented), and it does not keep the sign
     * of a zero (-0 and +0 come out either way), so both are one value.
     */
    if (fabsf(a) < FLT_MIN && fabsf(b) < FLT_MIN) {
        return true;
    }
    if (!tol || isinf(a) || isinf(b)) {
        return a == b && !tol ? false : a == b;
    }
    return fabsf(a - b) <= 1e-5f * fmaxf(1.0f, fabsf(a));
}

/* The program in the chip's store on both; compare the written targets. */
static void check(TestHost *h, unsigned targets, bool tol, const char *what)
{
    static float gl_out[4][W][W][4];
    static bool gl_kill[W][W];

    g_assert_true(r500_us_prepare(&h->chip));
    run_soft(h);
    run_gl(h, gl_out, gl_kill);
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            if (soft_kill[y][x] || gl_kill[y][x]) {
                if (soft_kill[y][x] != gl_kill[y][x]) {
                    g_error("%s: pixel %d,%d killed on %s only", what, x, y,
                            soft_kill[y][x] ? "soft" : "gl");
                }
                continue;
            }
            for (int t = 0; t < 4; t++) {
                if (!((targets >> t) & 1)) {
                    continue;
                }
                for (int c = 0; c < 4; c++) {
                    float a = soft_out[t][y][x][c], b = gl_out[t][y][x][c];

                    if (!same(a, b, tol)) {
                        uint32_t ab, bb;

                        memcpy(&ab, &a, 4);
                        memcpy(&bb, &b, 4);
                        g_printerr("%s", last_fs->str);
                        g_error("%s: target %d pixel %d,%d channel %d: soft "
                                "%.9g (0x%08x), gl %.9g (0x%08x)", what, t, x,
                                y, c, a, ab, b, bb);
                    }
                }
            }
        }
    }
}

/*
 * Inputs: signed zeros, small integers and halves, and a spread, different
 * in every pixel; for the transcendental ops positive values only.  No
 * infinities or NaNs: llvmpipe compiles shaders assuming there are none
 * (inf * 0 gives 0 there, NaN in IEEE and on soft), so the R500's special
 * values cannot be compared on it (docs/3d.md, "The host-GL translation").
 */
static void fill_inputs(GRand *r, bool positive)
{
    static const float special[] = {
        0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 0.25f, -3.5f, 0.75f, 1e-20f,
    };

    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            for (int n = 0; n < NIN; n++) {
                for (int c = 0; c < 4; c++) {
                    in[y][x][n][c] = positive
                        ? (float)g_rand_double_range(r, 0.25, 4.0)
                        : g_rand_int_range(r, 0, 3) == 0
                        ? special[g_rand_int_range(r, 0, G_N_ELEMENTS(special))]
                        : (float)g_rand_double_range(r, -4.0, 4.0);
                }
            }
        }
    }
}

static TestHost *host(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);

    t3d_setup(h);
    return h;
}

/* Random ALU/OUT programs over every covered field. */
static void random_alu(GRand *r, T3DAlu *a, bool out, bool transcendental)
{
    static const unsigned rops[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 10 };
    static const unsigned aops[] = { 0, 1, 2, 3, 5, 6, 7 };
    static const unsigned tops[] = { 8, 9, 10, 11, 12, 13 };

    memset(a, 0, sizeof(*a));
    a->out = out;
    a->rgb_wmask = out ? 0 : g_rand_int_range(r, 1, 8);
    a->alpha_wmask = out ? 0 : g_rand_int_range(r, 0, 2);
    a->rgb_omask = out ? 7 : 0;
    a->alpha_omask = out ? 1 : 0;
    for (int i = 0; i < 3; i++) {
        unsigned k = g_rand_int_range(r, 0, 10);

        /* temps 0-5, constants 0-3, inline constants */
        a->addr[i] = k < 6 ? g_rand_int_range(r, 0, 6)
                     : k < 8 ? 0x100 | g_rand_int_range(r, 0, 4)
                     : 0x80 | g_rand_int_range(r, 0, 128);
        a->sel[i] = g_rand_int_range(r, 0, 4);
        a->asel[i] = g_rand_int_range(r, 0, 4);
        a->mod[i] = g_rand_int_range(r, 0, 4);
        a->amod[i] = g_rand_int_range(r, 0, 4);
        a->aswz[i] = g_rand_int_range(r, 0, 7);
        for (int c = 0; c < 3; c++) {
            a->swz[i][c] = g_rand_int_range(r, 0, 7);
        }
    }
    a->srcp = g_rand_int_range(r, 0, 4);
    a->rgb_op = rops[g_rand_int_range(r, 0, G_N_ELEMENTS(rops))];
    a->alpha_op = transcendental
                  ? tops[g_rand_int_range(r, 0, G_N_ELEMENTS(tops))]
                  : aops[g_rand_int_range(r, 0, G_N_ELEMENTS(aops))];
    a->omod = g_rand_int_range(r, 0, 8);
    a->clamp = g_rand_boolean(r);
    a->dst = g_rand_int_range(r, 0, 6);
}

static void run_random(bool transcendental, unsigned count, guint32 seed)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(seed);

    for (int k = 0; k < 4; k++) {
        t3d_us_const(h, k, (float)g_rand_double_range(r, -2, 2),
                     k == 1 ? 0.0f : (float)g_rand_double_range(r, -2, 2),
                     k == 2 ? -0.0f : 0.5f, transcendental ? 1.0f : -1.0f);
    }
    for (unsigned i = 0; i < count; i++) {
        uint32_t w[4 * 6];
        unsigned n = g_rand_int_range(r, 1, 4);
        char what[64];
        T3DAlu a;

        for (unsigned k = 0; k < n; k++) {
            random_alu(r, &a, k == n - 1, transcendental);
            t3d_us_alu(&a, w + 6 * k);
        }
        t3d_us_program(h, w, n);
        h->chip.us.zero_times_anything = g_rand_boolean(r);
        fill_inputs(r, transcendental);
        g_snprintf(what, sizeof(what), "program %u (seed %u)", i, seed);
        check(h, 1, transcendental, what);
    }
    g_rand_free(r);
    test_host_free(h);
}

static void test_random_exact(void)
{
    run_random(false, 300, 17);
}

static void test_random_transcendental(void)
{
    run_random(true, 100, 23);
}

/* OUT to render target 1 and the W output; KILL of a negative coordinate. */
static void test_targets_kill(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(5);
    uint32_t w[12] = { 0 };
    T3DAlu a = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 1, 2, 3 }, .rgb_op = 0, .alpha_op = 0,
        .swz = { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } },
        .aswz = { 3, 3, 3 }, .sel = { 0, 1, 2 }, .asel = { 0, 1, 2 },
    };

    /* TEX KILL of t0.xyzw (US_TEX_INST INST 2) */
    w[0] = R500_US_TEX | 7u << 11 | 1u << 14;
    w[1] = 2u << 22;
    w[2] = 0 | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14;
    t3d_us_alu(&a, w + 6);
    /* RGB and alpha to target 1 (US_ALU_RGB_INST/ALPHA_INST.TARGET) */
    w[6 + 3] |= 1u << 29;
    w[6 + 4] |= 1u << 29;
    t3d_us_program(h, w, 2);
    fill_inputs(r, false);
    check(h, 2, false, "target 1 after KILL");
    g_rand_free(r);
    test_host_free(h);
}

/*
 * TEX LD, PROJ, LODBIAS and LOD of a 16x16 micro-tiled RGBA8 texture with
 * random texels, point filtered: soft samples the chip's unit, GL the
 * same texels uploaded from r500_tx_image as RGBA32F through the sampling
 * functions of tx_glsl.c, in each wrap mode core GL has, with crossed
 * selects (B, 0, R, 1) and as a 16x16x4 3D texture.  Coordinates stay a
 * tenth of a texel off texel edges, where the two could round one
 * differently.
 */
static void test_tex(void)
{
    static const struct {
        unsigned wrap, sel;         /* SEL_* fields of TX_FORMAT1 */
        bool three;
        GLenum gl;
    } cases[] = {
        { 0, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, false, GL_REPEAT },
        { 1, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, false,
          GL_MIRRORED_REPEAT },
        { 2, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, false,
          GL_CLAMP_TO_EDGE },
        { 3, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, false,
          GL_MIRROR_CLAMP_TO_EDGE },
        { 6, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, false,
          GL_CLAMP_TO_BORDER },
        { 0, 5u << 9 | 2u << 12 | 4u << 15 | 0u << 18, false, GL_REPEAT },
        { 1, 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18, true,
          GL_MIRRORED_REPEAT },
    };
    TestHost *h = host();
    R500Chip *s = &h->chip;
    GRand *r = g_rand_new_with_seed(11);
    static float img[16 * 16 * 4 * 4];
    GLuint tex[2];

    glGenTextures(2, tex);
    for (unsigned ci = 0; ci < G_N_ELEMENTS(cases); ci++) {
        const R500TxUnit *t = &s->tx.unit[0];
        unsigned wm = cases[ci].wrap;
        bool three = cases[ci].three;
        GLenum target = three ? GL_TEXTURE_3D : GL_TEXTURE_2D;

        r500_reg_write(s, R_TX_ENABLE, 1);
        /* point MIN and MAG, no mip filter, the wrap on S, T and R */
        r500_reg_write(s, R_TX_FILTER0, wm | wm << 3 | wm << 6 | 1u << 9 |
                       1u << 11);
        r500_reg_write(s, R_TX_FILTER1, 0);
        r500_reg_write(s, R_TX_FORMAT0, 15 | 15u << 11 |
                       (three ? 2u << 22 : 0));
        r500_reg_write(s, R_TX_FORMAT1, 0x0C | cases[ci].sel |
                       (three ? 1u << 25 : 0));
        r500_reg_write(s, R_TX_FORMAT2, 0);
        r500_reg_write(s, R_TX_BORDER_COLOR, 0x80402010);
        r500_reg_write(s, R_TX_OFFSET, T3D_TEX | 1u << 3);
        r500_tx_prepare(s);
        g_assert_true(t->valid);
        for (uint64_t a = T3D_TEX; a < t->chain_end; a++) {
            h->vram[a] = g_rand_int(r);
        }
        g_assert_true(r500_tx_image(r500_soft_begin(s), t, 0, img));
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(target, tex[three]);
        if (three) {
            glTexImage3D(target, 0, GL_RGBA32F, 16, 16, 4, 0, GL_RGBA,
                         GL_FLOAT, img);
        } else {
            glTexImage2D(target, 0, GL_RGBA32F, 16, 16, 0, GL_RGBA,
                         GL_FLOAT, img);
        }
        glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(target, GL_TEXTURE_WRAP_S, cases[ci].gl);
        glTexParameteri(target, GL_TEXTURE_WRAP_T, cases[ci].gl);
        glTexParameteri(target, GL_TEXTURE_WRAP_R, cases[ci].gl);
        glTexParameterfv(target, GL_TEXTURE_BORDER_COLOR, t->border);
        glActiveTexture(GL_TEXTURE0);
        for (unsigned op = R500_TEX_LD; op <= R500_TEX_LOD; op++) {
            uint32_t w[12] = { 0 };
            char what[48];

            if (op == R500_TEX_KILL) {
                continue;
            }
            /* TEX op t0.xyzw -> t1.rgb = sample.bgr, unit 0 (t1.a kept) */
            w[0] = R500_US_TEX | 7u << 11;
            w[1] = op << 22;
            w[2] = 0 | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14 |
                   1u << 16 | 2u << 24 | 1u << 26 | 0u << 28 | 3u << 30;
            t3d_us_out(1, w + 6);
            t3d_us_program(h, w, 2);
            for (int y = 0; y < W; y++) {
                for (int x = 0; x < W; x++) {
                    float q = op == R500_TEX_PROJ
                              ? (float)g_rand_double_range(r, 0.5, 2.0)
                              : op == R500_TEX_LD ? 1.0f
                              : (float)g_rand_double_range(r, -2.0, 2.0);

                    for (int c = 0; c < 3; c++) {
                        /* S and T over 16 texels, R over 4 slices */
                        float n = c < 2 ? 16.0f : 4.0f;
                        float f = g_rand_int_range(r, -24, 40) +
                                  (float)g_rand_double_range(r, 0.1, 0.9);

                        in[y][x][0][c] = f / n *
                                         (op == R500_TEX_PROJ ? q : 1.0f);
                    }
                    in[y][x][0][3] = q;
                }
            }
            g_snprintf(what, sizeof(what), "TEX op %u, case %u", op, ci);
            check(h, 1, false, what);
        }
    }
    glDeleteTextures(2, tex);
    g_rand_free(r);
    test_host_free(h);
}

/* What the translation does not cover yet is declined, not miswritten. */
static void test_declines(void)
{
    TestHost *h = host();
    GString *g = g_string_new(NULL);
    R500UsGlslIn gin = { .prologue = prologue };
    const char *why;
    uint32_t w[6];
    T3DAlu a = { .out = true, .rgb_omask = 7, .alpha_omask = 1,
                 .rgb_op = 11 /* MDH */ };

    t3d_us_alu(&a, w);
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_false(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    g_assert_nonnull(strstr(why, "derivative"));
    /* a fetch with gradients (TEX DXDY) */
    memset(w, 0, sizeof(w));
    w[0] = R500_US_TEX | 7u << 11 | 1u << 14;
    w[1] = 6u << 22;
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_false(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    g_assert_cmpstr(why, ==, "texture fetch with gradients (DXDY)");
    /* a unit GL cannot sample as the card does: GL_CLAMP (CLAMP_HALF) */
    r500_reg_write(&h->chip, R_TX_ENABLE, 1);
    r500_reg_write(&h->chip, R_TX_FILTER0, 4 | 4u << 3 | 1u << 9 | 1u << 11);
    r500_reg_write(&h->chip, R_TX_FORMAT0, 15 | 15u << 11);
    r500_reg_write(&h->chip, R_TX_FORMAT1, 0x0C);
    r500_reg_write(&h->chip, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(&h->chip);
    g_assert_true(h->chip.tx.unit[0].valid);
    g_assert_false(r500_tx_glsl(&h->chip.tx.unit[0], 0, 1u << R500_TEX_LD, g,
                                &why));
    g_assert_nonnull(strstr(why, "GL_CLAMP"));
    g_string_free(g, true);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!gl_up()) {
        return 1;
    }
    g_test_add_func("/us-glsl/random-exact", test_random_exact);
    g_test_add_func("/us-glsl/random-transcendental",
                    test_random_transcendental);
    g_test_add_func("/us-glsl/targets-kill", test_targets_kill);
    g_test_add_func("/us-glsl/tex", test_tex);
    g_test_add_func("/us-glsl/declines", test_declines);
    return g_test_run();
}
