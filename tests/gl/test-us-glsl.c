/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GLSL translation of US programs (hw/r500/us/us_glsl.c) against the
 * soft interpreter (us_exec.c): each program runs on soft, quad by quad,
 * and as a fragment shader on the host's OpenGL (EGL surfaceless: llvmpipe
 * here), over the same 8x8 pixels of inputs, and the outputs are compared
 * bit for bit (the transcendental ops to 1e-5 relative, where the C
 * library and the GL compiler differ; denormals as zero).  Programs: one per
 * feature, written by hand, then seeded random ones over everything the
 * translation covers: straight-line ALU programs, predication, relative
 * addresses and derivatives, flow control (branches diverging per pixel,
 * nested loops with aL-relative addresses, breaks, continues, calls, and
 * FC instructions of random fields), the instruction bound and the
 * nesting limits, fetches with gradients.  What it declines is checked
 * to be declined.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../unit/test-3d.h"
#include "gltest.h"

#define W 8
#define NIN 4           /* temporaries 0-3 come from the "RS" */

static GString *last_fs;        /* the shader last run, for failures */
static GLuint fbo, tin_tex, vao;

/*
 * The pixels the triangle covers: x + y below edge (W + W: all of them).
 * GL shades the others of a partly covered quad as helper invocations,
 * soft as uncovered pixels of the quad (q->cover).
 */
static int edge = 2 * W;

static bool covered(int x, int y)
{
    return x + y < edge;
}

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
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    /*
     * The triangle (0, 0), (16.6, 0), (0, 16.6) in pixels of a 32x32
     * viewport covers the 8x8 target whole, and lies in the clip volume
     * (run_gl()): one GL would clip
     * (llvmpipe does, into two triangles) puts helper invocations in
     * the quads along its seam, which soft's quads, all covered, have
     * not (IGNORE_UNCOVERED would differ there).
     */
    glViewport(0, 0, 4 * W, 4 * W);
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
        "uniform float edge;\n"
        "void main() {\n"
        "    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * edge / 16.0;\n"
        "    gl_Position = vec4(p - 1.0, 0.0, 1.0);\n}\n";
    static const float sentinel[4] = { -12345.0f, -12345.0f, -12345.0f,
                                       -12345.0f };
    R500UsGlslIn gin = { .prologue = prologue,
                         .ztae = h->chip.us.zero_times_anything,
                         .regs = h->chip.regs };
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
    /* pixel centres x + y + 1 = edge + 0.6: none on the edge */
    glUniform1f(glGetUniformLocation(prog, "edge"), edge + 0.6f);
    /* the sampled texture (test_tex) is on unit 1 */
    glUniform1i(glGetUniformLocation(prog, "r500_s0"), 1);
    loc = glGetUniformLocation(prog, "r500_ts0");
    if (loc >= 0) {
        float size[4];

        r500_tx_glsl_size(&h->chip.tx.unit[0], size);
        glUniform4fv(loc, 1, size);
    }
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
/* The most instructions one quad ran in the last run_soft(). */
static uint64_t soft_max_steps;

static void run_soft(TestHost *h)
{
    R500Worker *w = r500_soft_begin(&h->chip);

    soft_max_steps = 0;

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
            w->q.cover = 0;
            for (int p = 0; p < 4; p++) {
                w->q.cover |= covered(qx + (p & 1), qy + (p >> 1)) << p;
            }
            {
                uint64_t before = w->st.us_insts;

                r500_us_run_quad(w);
                soft_max_steps = MAX(soft_max_steps,
                                     w->st.us_insts - before);
            }
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
    const R500UsProg *p = &h->chip.us.prog;

    g_assert_true(r500_us_prepare(&h->chip));
    run_soft(h);
    run_gl(h, gl_out, gl_kill);
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            if (!covered(x, y)) {
                continue;
            }
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
                        for (uint32_t k = 0; k <= p->end - p->start; k++) {
                            const uint32_t *i = &p->code[6 * k];

                            g_printerr("%3u: %08x %08x %08x %08x %08x "
                                       "%08x\n", k, i[0], i[1], i[2], i[3],
                                       i[4], i[5]);
                        }
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
 * IN_NORMAL leaves out the tiny value too: its products are denormals,
 * which llvmpipe flushes, and where a compare of one decides a branch or
 * a predicate the two would part ways for good.
 */
enum { IN_ANY, IN_POSITIVE, IN_NORMAL };

static void fill_inputs(GRand *r, unsigned mode)
{
    static const float special[] = {
        0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 0.25f, -3.5f, 0.75f, 1e-20f,
    };
    int ns = G_N_ELEMENTS(special) - (mode == IN_NORMAL);

    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            for (int n = 0; n < NIN; n++) {
                for (int c = 0; c < 4; c++) {
                    in[y][x][n][c] = mode == IN_POSITIVE
                        ? (float)g_rand_double_range(r, 0.25, 4.0)
                        : g_rand_int_range(r, 0, 3) == 0
                        ? special[g_rand_int_range(r, 0, ns)]
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
        r500_reg_write(&h->chip, R_US_CONFIG, g_rand_boolean(r) ? 2 : 0);
        fill_inputs(r, transcendental ? IN_POSITIVE : IN_ANY);
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
    fill_inputs(r, IN_ANY);
    check(h, 2, false, "target 1 after KILL");
    g_rand_free(r);
    test_host_free(h);
}

/*
 * ZERO_TIMES_ANYTHING without its compares where the operands make them
 * needless (us_glsl.c prod_kind): a square, a product with a finite
 * non-zero literal, one value under two modifiers; with them where
 * nothing is known, a literal zero included (the other factor may be
 * infinite).  The text says which way each product went, the pixels
 * agree with soft's (signed zeros among the inputs).
 */
static void test_ztae_products(void)
{
    static const struct {
        unsigned addr1, swz1, mod1;
        bool ztae;
        const char *rgb, *al;
    } cases[] = {
        /* t1 * t1: a square */
        { 1, 0, 0, true, "rgb = a * b + c;", "al = aa * bb + cc;" },
        /* t1 * 1.0, t1 * 0.5: a literal */
        { 1, 6, 0, true, "rgb = (a * b + vec3(r500_z)) + c;",
          "al = (aa * bb + r500_z) + cc;" },
        { 1, 5, 3, true, "rgb = (a * b + vec3(r500_z)) + c;",
          "al = (aa * bb + r500_z) + cc;" },
        /* t1 * -t1, t1 * |t1|: one value, two modifiers */
        { 1, 0, 1, true, "rgb = (a * b + vec3(r500_z)) + c;",
          "al = (aa * bb + r500_z) + cc;" },
        { 1, 0, 2, true, "rgb = (a * b + vec3(r500_z)) + c;",
          "al = (aa * bb + r500_z) + cc;" },
        /* t1 * t2, t1 * 0.0: the compares */
        { 2, 0, 0, true, "rgb = r500_mul3(a, b) + c;",
          "al = r500_mul(aa, bb) + cc;" },
        { 1, 4, 0, true, "rgb = r500_mul3(a, b) + c;",
          "al = r500_mul(aa, bb) + cc;" },
        /* IEEE products without ZERO_TIMES_ANYTHING */
        { 2, 0, 0, false, "rgb = a * b + c;", "al = aa * bb + cc;" },
    };
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(23);

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        unsigned s1 = cases[i].swz1;
        T3DAlu a = {
            .out = true, .rgb_omask = 7, .alpha_omask = 1,
            .addr = { 1, cases[i].addr1, 3 }, .rgb_op = 0, .alpha_op = 0,
            .sel = { 0, 1, 2 }, .asel = { 0, 1, 2 },
            .swz = { { 0, 1, 2 }, { s1 ? s1 : 0, s1 ? s1 : 1, s1 ? s1 : 2 },
                     { 0, 1, 2 } },
            .aswz = { 3, s1 ? s1 : 3, 3 },
            .mod = { 0, cases[i].mod1, 0 }, .amod = { 0, cases[i].mod1, 0 },
        };
        uint32_t w[6];
        char what[48];

        t3d_us_alu(&a, w);
        t3d_us_program(h, w, 1);
        r500_reg_write(&h->chip, R_US_CONFIG, cases[i].ztae ? 2 : 0);
        fill_inputs(r, IN_ANY);
        g_snprintf(what, sizeof(what), "product case %u", i);
        check(h, 1, false, what);
        if (!strstr(last_fs->str, cases[i].rgb) ||
            !strstr(last_fs->str, cases[i].al)) {
            g_printerr("%s", last_fs->str);
            g_error("%s: want \"%s\" and \"%s\"", what, cases[i].rgb,
                    cases[i].al);
        }
    }
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
        /* every op, with coordinates scaled and UNSCALED (in texels) */
        for (unsigned k = 0; k < 2 * (R500_TEX_LOD + 1); k++) {
            unsigned op = k % (R500_TEX_LOD + 1);
            bool unscaled = k > R500_TEX_LOD;
            uint32_t w[12] = { 0 };
            char what[48];

            if (op == R500_TEX_NOP || op == R500_TEX_KILL) {
                continue;
            }
            /* TEX op t0.xyzw -> t1.rgb = sample.bgr, unit 0 (t1.a kept) */
            w[0] = R500_US_TEX | 7u << 11;
            w[1] = op << 22 | (unscaled ? 1u << 27 : 0);
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
                        /*
                         * S and T over 16 texels, R over 4 slices; in
                         * texels when unscaled (R of a 2D texture too,
                         * which it does not divide)
                         */
                        float n = unscaled && (three || c < 2) ? 1.0f
                                  : c < 2 ? 16.0f : 4.0f;
                        float f = g_rand_int_range(r, -24, 40) +
                                  (float)g_rand_double_range(r, 0.1, 0.9);

                        in[y][x][0][c] = f / n *
                                         (op == R500_TEX_PROJ ? q : 1.0f);
                    }
                    in[y][x][0][3] = q;
                }
            }
            g_snprintf(what, sizeof(what), "TEX op %u%s, case %u", op,
                       unscaled ? " unscaled" : "", ci);
            check(h, 1, false, what);
        }
    }
    glDeleteTextures(2, tex);
    g_rand_free(r);
    test_host_free(h);
}

/* ---- Predication, relative addresses, derivatives, flow control ---- */

/* What random_alu_x() adds to random_alu()'s instructions. */
enum {
    X_PRED = 1,         /* predicated writes, predicate bits from OMASK */
    X_REL = 2,          /* ADDRn_REL, ADDRD_REL: aL-relative addresses */
    X_MD = 4,           /* MDH/MDV */
    X_FC = 8,           /* WRITE_INACTIVE and the ALU result bit */
};

static unsigned rnd(GRand *r, unsigned n)
{
    return g_rand_int_range(r, 0, n);
}

/*
 * A random ALU or OUT instruction (random_alu(), no transcendental ops)
 * with the fields of x set at random: US_CMN_INST's RGB/ALPHA_PRED_SEL
 * and _INV, WRITE_INACTIVE, ALU_RESULT_SEL/OP; US_ALU_RGB_INST's
 * ALU_WMASK and TARGET (an ALU's predicate compare); the _REL bits of
 * US_ALU_RGB/ALPHA_ADDR and of RGB/ALPHA_ADDRD; the MDH/MDV ops.
 */
static void random_alu_x(GRand *r, uint32_t w[6], bool out, unsigned x)
{
    T3DAlu a;

    random_alu(r, &a, out, false);
    if (!out && (x & X_PRED) && rnd(r, 3) == 0) {
        a.rgb_omask = rnd(r, 8);
        a.alpha_omask = rnd(r, 2);
    }
    if ((x & X_MD) && rnd(r, 3) == 0) {
        a.rgb_op = 11 + rnd(r, 2);
    }
    if ((x & X_MD) && rnd(r, 3) == 0) {
        a.alpha_op = 14 + rnd(r, 2);
    }
    t3d_us_alu(&a, w);
    if (x & X_PRED) {
        if (rnd(r, 2)) {
            w[0] |= rnd(r, 8) << 3 | rnd(r, 2) << 6;
        }
        if (rnd(r, 2)) {
            w[0] |= rnd(r, 8) << 25 | rnd(r, 2) << 22;
        }
        if (!out) {
            w[3] |= rnd(r, 4) << 29;
            w[4] |= rnd(r, 4) << 29;
        }
    }
    if (x & X_FC) {
        w[0] |= (rnd(r, 4) == 0) << 7 | rnd(r, 2) << 21 | rnd(r, 4) << 23;
        w[3] |= rnd(r, 2) << 31;
    }
    if (x & X_REL) {
        for (int k = 0; k < 3; k++) {
            w[1] |= (rnd(r, 3) == 0) << (9 + 10 * k);
            w[2] |= (rnd(r, 3) == 0) << (9 + 10 * k);
        }
        w[4] |= (rnd(r, 3) == 0) << 11;
        w[5] |= (rnd(r, 3) == 0) << 11;
    }
}

/*
 * Loop constants (US_FC_INT_CONST 0-3: KR iterations 0-4, aL from KG
 * 0-8, step KB -2..2) and the booleans, at random.
 */
static void random_fc_consts(TestHost *h, GRand *r)
{
    for (unsigned k = 0; k < 4; k++) {
        int step = g_rand_int_range(r, -2, 3);

        r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, k),
                       rnd(r, 5) | rnd(r, 9) << 8 | (uint32_t)(step & 0xFF)
                       << 16);
    }
    r500_reg_write(&h->chip, R_US_FC_BOOL_CONST, g_rand_int(r));
}

/*
 * Straight-line programs with predicated writes, predicate bits set by
 * ALU OMASK, relative addresses (aL is 0 without loops) and MDH/MDV:
 * each derivative reads pixel 0 and a neighbour of the quad, which GL
 * gets through fine derivatives (us_glsl_fc.c's quad exchange).
 */
static void test_random_pred_md(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(29);
    unsigned md = 0;

    for (int k = 0; k < 4; k++) {
        t3d_us_const(h, k, (float)g_rand_double_range(r, -2, 2),
                     (float)g_rand_double_range(r, -2, 2), 0.5f, -1.0f);
    }
    for (unsigned i = 0; i < 300; i++) {
        uint32_t w[6 * 6];
        unsigned n = g_rand_int_range(r, 2, 7);
        char what[64];

        for (unsigned k = 0; k < n; k++) {
            random_alu_x(r, w + 6 * k, k == n - 1, X_PRED | X_REL | X_MD);
        }
        t3d_us_program(h, w, n);
        r500_reg_write(&h->chip, R_US_CONFIG, g_rand_boolean(r) ? 2 : 0);
        fill_inputs(r, IN_NORMAL);
        g_snprintf(what, sizeof(what), "pred/md program %u", i);
        check(h, 1, false, what);
        for (unsigned k = 0; k < n; k++) {
            unsigned rop = w[6 * k + 5] & 15, aop = w[6 * k + 4] & 15;

            md += rop == 11 || rop == 12 || aop == 14 || aop == 15;
        }
    }
    /* the generator made derivatives often enough to mean something */
    g_assert_cmpuint(md, >, 100);
    g_rand_free(r);
    test_host_free(h);
}

/* ---- Flow-control programs ---- */

#define GEN_MAX 64              /* instructions of a generated program */

/* FC instruction fields (US_FC_INST, US_FC_ADDR; reference 3.10) */
typedef struct TFc {
    unsigned op, func, aop, bop0, bop1, pop, target, int_addr, bool_addr;
    bool any, belse, uncovered;
} TFc;
enum { FC_JUMP, FC_LOOP, FC_ENDLOOP, FC_REP, FC_ENDREP, FC_BREAKLOOP,
       FC_BREAKREP, FC_CONTINUE };
enum { B_NONE, B_DECR, B_INCR };

static void fc_words(const TFc *f, uint32_t w[6])
{
    memset(w, 0, 6 * sizeof(w[0]));
    w[0] = R500_US_FC;
    w[2] = f->op | f->belse << 4 | f->any << 5 | f->aop << 6 |
           f->func << 8 | f->pop << 16 | f->bop0 << 24 | f->bop1 << 26 |
           f->uncovered << 28;
    w[3] = f->bool_addr | f->int_addr << 8 | f->target << 16;
}

/*
 * A program made as a compiler would: if/else/endif with per-pixel
 * branch counters (the IF sends the pixels whose condition fails to
 * sleep, B_OP INCR; ELSE swaps, B_ELSE; ENDIF wakes them, B_OP DECR),
 * LOOP and REP with breaks and continues on per-pixel conditions, calls
 * of a subroutine (A_OP push and pop); the fields a compiler would fix
 * varied at random (JUMP_ANY, the condition's JUMP_FUNC).
 */
typedef struct GenLoop {
    unsigned brk[GEN_MAX], nbrk, cont[GEN_MAX], ncont;
    bool rep;
} GenLoop;

typedef struct Gen {
    GRand *r;
    uint32_t w[(GEN_MAX + 16) * 6];
    unsigned n;
    unsigned calls[GEN_MAX], ncalls;
    bool sub;                   /* in the subroutine: no calls */
    GenLoop lp[8];
    unsigned nlp;
} Gen;

static void gen_fc(Gen *g, const TFc *f)
{
    fc_words(f, g->w + 6 * g->n++);
}

static void gen_patch(Gen *g, unsigned at, unsigned target)
{
    uint32_t *w = &g->w[6 * at + 3];

    *w = (*w & ~(0x1FFu << 16)) | target << 16;
}

static void gen_alu(Gen *g, bool out)
{
    random_alu_x(g->r, g->w + 6 * g->n++, out,
                 X_PRED | X_REL | X_MD | X_FC);
}

/* The ALU result bit of a fresh instruction: a per-pixel condition. */
static unsigned gen_cond(Gen *g)
{
    static const unsigned funcs[] = { 0x0F, 0xF0, 0x33, 0xCC, 0x55 };

    gen_alu(g, false);
    g->w[6 * (g->n - 1) + 3] |= 1u << 31;       /* ALU_WMASK */
    return rnd(g->r, 4) ? funcs[rnd(g->r, G_N_ELEMENTS(funcs))]
                        : rnd(g->r, 256);
}

static void gen_block(Gen *g, unsigned depth);

static void gen_if(Gen *g, unsigned depth)
{
    unsigned func = gen_cond(g), fif = g->n, fel;

    gen_fc(g, &(TFc){ .func = func, .any = rnd(g->r, 4) == 0,
                      .bop0 = B_INCR, .bop1 = B_INCR,
                      .uncovered = rnd(g->r, 2) });
    gen_block(g, depth + 1);
    if (rnd(g->r, 2)) {
        /* ELSE: jump to the ENDIF when no pixel is left active */
        fel = g->n;
        gen_fc(g, &(TFc){ .func = 0x00, .belse = true });
        gen_patch(g, fif, g->n);
        gen_block(g, depth + 1);
        gen_patch(g, fel, g->n);
    } else {
        gen_patch(g, fif, g->n);
    }
    gen_fc(g, &(TFc){ .func = 0x00, .bop0 = B_DECR, .bop1 = B_DECR,
                      .pop = 1, .target = g->n + 1 });
}

static void gen_loop(Gen *g, unsigned depth)
{
    bool rep = rnd(g->r, 2);
    unsigned fl = g->n, fe;

    /* LOOP/REP: skipped (to past its end) when no pixel is active */
    gen_fc(g, &(TFc){ .op = rep ? FC_REP : FC_LOOP, .func = 0x00,
                      .int_addr = rnd(g->r, 4) });
    g->lp[g->nlp].nbrk = g->lp[g->nlp].ncont = 0;
    g->lp[g->nlp].rep = rep;
    g->nlp++;
    gen_block(g, depth + 1);
    g->nlp--;
    fe = g->n;
    gen_fc(g, &(TFc){ .op = rep ? FC_ENDREP : FC_ENDLOOP, .func = 0xFF,
                      .any = rnd(g->r, 4) == 0, .target = fl + 1 });
    gen_patch(g, fl, g->n);
    for (unsigned k = 0; k < g->lp[g->nlp].nbrk; k++) {
        gen_patch(g, g->lp[g->nlp].brk[k], g->n);
    }
    for (unsigned k = 0; k < g->lp[g->nlp].ncont; k++) {
        gen_patch(g, g->lp[g->nlp].cont[k], fe);
    }
}

/* BREAKLOOP/BREAKREP or CONTINUE of the innermost loop, on a condition. */
static void gen_break(Gen *g)
{
    unsigned func = gen_cond(g);
    bool cont = rnd(g->r, 2);
    GenLoop *l = &g->lp[g->nlp - 1];

    if (cont) {
        l->cont[l->ncont++] = g->n;
    } else {
        l->brk[l->nbrk++] = g->n;
    }
    gen_fc(g, &(TFc){ .op = cont ? FC_CONTINUE
                                 : l->rep ? FC_BREAKREP : FC_BREAKLOOP,
                      .func = func, .any = rnd(g->r, 2),
                      .bop1 = rnd(g->r, 3), .pop = rnd(g->r, 2) });
}

static void gen_block(Gen *g, unsigned depth)
{
    unsigned items = g_rand_int_range(g->r, 1, 4);

    for (unsigned i = 0; i < items; i++) {
        unsigned k = g->n + 12 < GEN_MAX && depth < 3 ? rnd(g->r, 8) : 0;

        switch (k) {
        case 3:
            gen_if(g, depth);
            break;
        case 4:
        case 5:
            gen_loop(g, depth);
            break;
        case 6:
            if (g->nlp) {
                gen_break(g);
                break;
            }
            /* fall through */
        case 7:
            if (!g->sub) {
                g->calls[g->ncalls++] = g->n;
                gen_fc(g, &(TFc){ .func = 0xFF, .aop = 2 });
                break;
            }
            /* fall through */
        default:
            gen_alu(g, rnd(g->r, 6) == 0);
            break;
        }
    }
}

/* A whole program: the main block, an OUT, then any subroutine. */
static void gen_program(Gen *g)
{
    g->n = g->ncalls = g->nlp = 0;
    g->sub = false;
    gen_block(g, 0);
    gen_alu(g, true);
    if (g->ncalls) {
        /* the end of the main part: a jump out of the program */
        gen_fc(g, &(TFc){ .func = 0xFF, .target = 511 });
        for (unsigned k = 0; k < g->ncalls; k++) {
            gen_patch(g, g->calls[k], g->n);
        }
        g->sub = true;
        gen_block(g, 1);
        gen_fc(g, &(TFc){ .func = 0xFF, .aop = 1 });     /* RET */
    }
    g_assert_cmpuint(g->n, <=, G_N_ELEMENTS(g->w) / 6);
}

/*
 * Any FC at all: every field at random, jumps anywhere in or just past
 * the program; many never end and are dropped by the instruction bound.
 */
static void chaos_program(GRand *r, uint32_t *w, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        if (k < n - 1 && rnd(r, 3) == 0) {
            TFc f = {
                .op = rnd(r, 8), .func = rnd(r, 256), .aop = rnd(r, 4),
                .bop0 = rnd(r, 4), .bop1 = rnd(r, 4), .pop = rnd(r, 4),
                .target = rnd(r, n + 1), .int_addr = rnd(r, 4),
                .bool_addr = rnd(r, 32), .any = rnd(r, 2),
                .belse = rnd(r, 4) == 0, .uncovered = rnd(r, 2),
            };

            fc_words(&f, w + 6 * k);
            w[6 * k] |= rnd(r, 8) << 3 | rnd(r, 2) << 6;  /* PRED_SEL/INV */
        } else {
            random_alu_x(r, w + 6 * k, k == n - 1 || rnd(r, 6) == 0,
                         X_PRED | X_REL | X_MD | X_FC);
        }
    }
}

/* Whether soft dropped every pixel (the instruction bound). */
static bool soft_all_killed(void)
{
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            if (!soft_kill[y][x]) {
                return false;
            }
        }
    }
    return true;
}

/*
 * The static bound the translation puts on a quad's instructions
 * (R500UsGlslIn.max_steps): the least max_steps it accepts the program
 * under, 0 if it declines it at the quad bound.
 */
static uint32_t glsl_steps(TestHost *h)
{
    R500UsGlslIn gin = { .prologue = prologue, .regs = h->chip.regs };
    GString *g = g_string_new(NULL);
    uint32_t lo = 1, hi = R500_US_QUAD_STEPS;
    const char *why;

    gin.max_steps = hi;
    if (!r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why)) {
        g_assert_nonnull(strstr(why, "bound"));
        g_string_free(g, true);
        return 0;
    }
    while (lo < hi) {
        gin.max_steps = lo + (hi - lo) / 2;
        g_string_truncate(g, 0);
        if (r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why)) {
            hi = gin.max_steps;
        } else {
            lo = gin.max_steps + 1;
        }
    }
    g_string_free(g, true);
    return lo;
}

/*
 * Random programs with flow control on soft and on GL, bit for bit:
 * structured ones (branches that diverge per pixel, nested loops with
 * aL-relative addresses, breaks, continues, calls) and chaotic ones.
 */
static void test_random_flow(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(31);
    Gen *g = g_new0(Gen, 1);
    unsigned ended = 0, runaway = 0, nfc = 0, bounded = 0;

    g->r = r;
    for (int k = 0; k < 4; k++) {
        t3d_us_const(h, k, (float)g_rand_double_range(r, -2, 2),
                     (float)g_rand_double_range(r, -2, 2), 0.5f, -1.0f);
    }
    for (unsigned i = 0; i < 400; i++) {
        bool chaos = i % 4 == 3;
        char what[64];

        /*
         * The last hundred on a triangle over half the target: helper
         * invocations in the quads along its edge vote, feed MDH/MDV,
         * and are the uncovered pixels of IGNORE_UNCOVERED.
         */
        edge = i < 300 ? 2 * W : W;
        if (chaos) {
            g->n = g_rand_int_range(r, 3, 12);
            chaos_program(r, g->w, g->n);
        } else {
            gen_program(g);
        }
        t3d_us_program(h, g->w, g->n);
        random_fc_consts(h, r);
        r500_reg_write(&h->chip, R_US_CONFIG, g_rand_boolean(r) ? 2 : 0);
        fill_inputs(r, IN_NORMAL);
        g_snprintf(what, sizeof(what), "flow program %u (%s)", i,
                   chaos ? "chaos" : "structured");
        check(h, 1, false, what);
        nfc += h->chip.us.prog.uses_fc;
        if (h->chip.us.prog.uses_fc) {
            /* the static bound holds: no quad on soft ran more */
            uint32_t b = glsl_steps(h);

            if (b) {
                g_assert_cmpuint(soft_max_steps, <=, b);
                bounded++;
            }
        }
        if (soft_all_killed()) {
            runaway++;
        } else if (!chaos) {
            ended++;
        }
    }
    edge = 2 * W;
    g_test_message("%u flow programs: %u structured ones ended, %u ran "
                   "past the bound, %u with a static bound", nfc, ended,
                   runaway, bounded);
    /* not a test of the bound alone: most structured programs end */
    g_assert_cmpuint(nfc, >, 300);
    g_assert_cmpuint(ended, >, 250);
    g_free(g);
    g_rand_free(r);
    test_host_free(h);
}

/* OUT of t<src> to target 0 (t3d_us_passthrough() for another temp). */
static void out_temp(uint32_t w[6], unsigned src)
{
    T3DAlu o = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { src, 0x80, 0x80 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };

    t3d_us_alu(&o, w);
}

/*
 * The instruction bound, exactly: OUT, LOOP 217 { LOOP 150 { ALU } } is
 * 2 + 217 * (1 + 150 * 2 + 1) = 65536 instructions a quad, the most soft
 * runs; one more instruction after it and every pixel is dropped, on
 * both.  And a JUMP to itself, which ends only by the bound.
 */
static void test_flow_bound(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(37);
    uint32_t w[8 * 6];
    T3DAlu a = {
        .rgb_wmask = 7, .addr = { 1, 2, 3 },
        .swz = { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } },
        .aswz = { 3, 3, 3 }, .sel = { 0, 1, 2 }, .asel = { 0, 1, 2 },
        .dst = 5, .clamp = true,
    };

    out_temp(w, 0);
    fc_words(&(TFc){ .op = FC_LOOP, .target = 6 }, w + 6);
    fc_words(&(TFc){ .op = FC_LOOP, .int_addr = 1, .target = 5 }, w + 12);
    t3d_us_alu(&a, w + 18);
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 3 }, w + 24);
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 2 }, w + 30);
    t3d_us_alu(&a, w + 36);
    r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, 0), 217);
    r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, 1), 150);
    fill_inputs(r, IN_NORMAL);
    t3d_us_program(h, w, 6);
    check(h, 1, false, "65536 instructions");
    g_assert_false(soft_kill[3][3]);
    t3d_us_program(h, w, 7);
    check(h, 1, false, "65537 instructions");
    g_assert_true(soft_all_killed());
    /* 1: JUMP 1, always */
    fc_words(&(TFc){ .func = 0xFF, .target = 1 }, w + 6);
    t3d_us_program(h, w, 2);
    check(h, 1, false, "a jump to itself");
    g_assert_true(soft_all_killed());
    g_rand_free(r);
    test_host_free(h);
}

/*
 * The static bound on a quad's instructions (R500UsGlslIn.max_steps, the
 * renderer's guard against loops GL could not stop): exact for a loop as
 * Mesa emits it, none for a jump back or a call.
 */
static void test_flow_steps(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(43);
    uint32_t w[5 * 6];
    T3DAlu a = {
        .rgb_wmask = 7, .addr = { 1, 2, 3 },
        .swz = { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } },
        .aswz = { 3, 3, 3 }, .sel = { 0, 1, 2 }, .asel = { 0, 1, 2 },
        .dst = 5, .clamp = true,
    };

    fill_inputs(r, IN_NORMAL);
    /* 0: LOOP to 3; 1: ALU; 2: BREAKLOOP to 4, never; 3: ENDLOOP to 1;
     * 4: OUT -- r500_fragprog_emit.c's shape */
    fc_words(&(TFc){ .op = FC_LOOP, .target = 3 }, w);
    t3d_us_alu(&a, w + 6);
    fc_words(&(TFc){ .op = FC_BREAKLOOP, .target = 4 }, w + 12);
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 1 }, w + 18);
    out_temp(w + 24, 5);
    for (unsigned k = 1; k <= 255; k += 254) {
        r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, 0), k);
        t3d_us_program(h, w, 5);
        check(h, 1, false, "a loop");
        g_assert_cmpuint(soft_max_steps, ==, 2 + 3 * k);
        g_assert_cmpuint(glsl_steps(h), ==, 2 + 3 * k);
    }
    /* the loop's end a JUMP back: no bound short of the quad's */
    fc_words(&(TFc){ .func = 0xFF, .target = 1 }, w + 18);
    t3d_us_program(h, w, 5);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_cmpuint(glsl_steps(h), ==, 0);
    /* a CALL (a push) of the body */
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 1,
                     .aop = 2 }, w + 18);
    t3d_us_program(h, w, 5);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_cmpuint(glsl_steps(h), ==, 0);
    /* a break out of no loop's region: into the loop's own body */
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 1 }, w + 18);
    fc_words(&(TFc){ .op = FC_BREAKLOOP, .target = 3 }, w + 12);
    t3d_us_program(h, w, 5);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_cmpuint(glsl_steps(h), ==, 0);
    g_rand_free(r);
    test_host_free(h);
}

/*
 * Loops nested past R500_US_LOOP_DEPTH (a LOOP whose body jumps back to
 * it: the ninth is skipped), calls past the address stack (a CALL of
 * itself: the ninth push is lost, so the returns come back to the
 * eighth's), on soft and GL alike.
 */
static void test_flow_deep(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(41);
    uint32_t w[6 * 6];
    /* t5 = t5 * 1 + 1; t6 = t1 * -1 + t5 */
    T3DAlu inc = {
        .rgb_wmask = 7, .alpha_wmask = 1, .addr = { 5 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 6, 6, 6 } },
        .aswz = { 3, 6, 6 }, .dst = 5,
    };
    T3DAlu sub = {
        .rgb_wmask = 7, .addr = { 1, 5 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 0, 1, 2 } },
        .mod = { 0, 1, 0 }, .sel = { 0, 0, 1 },
        .aswz = { 3, 6, 3 }, .amod = { 0, 1, 0 }, .asel = { 0, 0, 1 },
        .dst = 6,
    };

    fill_inputs(r, IN_NORMAL);
    /* 0: LOOP (255) to 2; 1: JUMP 0; 2: OUT */
    fc_words(&(TFc){ .op = FC_LOOP, .target = 2 }, w);
    fc_words(&(TFc){ .func = 0xFF, .target = 0 }, w + 6);
    out_temp(w + 12, 0);
    r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, 0), 255);
    t3d_us_program(h, w, 3);
    check(h, 1, false, "loops too deep");
    g_assert_false(soft_kill[0][0]);
    /*
     * 0: t5 = t5 + 1; 1: t6 = t5 - t1, the ALU result t6.r < 0;
     * 2: CALL 0 if that result, for any pixel (JUMP_ANY), the pixels that
     * did not want it asleep (B_OP1 INCR); 3: RET (waking a level,
     * B_OP1 DECR); 4: OUT t5.  Each pixel's t1.r is its own depth, up
     * to 12: past 8 the pushes are lost and the returns come back to
     * the eighth call's.
     */
    t3d_us_alu(&inc, w);
    t3d_us_alu(&sub, w + 6);
    w[6] |= 1u << 23;                       /* ALU_RESULT_OP: < 0 */
    w[6 + 3] |= 1u << 31;                   /* ALU_WMASK */
    fc_words(&(TFc){ .func = 0xF0, .any = true, .aop = 2, .bop1 = B_INCR,
                     .target = 0 }, w + 12);
    fc_words(&(TFc){ .func = 0xFF, .aop = 1, .bop1 = B_DECR, .pop = 1 },
             w + 18);
    out_temp(w + 24, 5);
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x][1][0] = g_rand_int_range(r, 0, 13) + 0.5f;
        }
    }
    t3d_us_program(h, w, 5);
    check(h, 1, false, "calls too deep");
    g_assert_false(soft_kill[0][0]);
    g_rand_free(r);
    test_host_free(h);
}

/*
 * Uncovered pixels on a triangle over half the target: t0.r is negative
 * exactly where the triangle does not cover.  0: ALU result t0.r >= 0;
 * 1: JUMP to 4 if every voter's result is (JUMP_FUNC 0xF0); 2: OUT t1;
 * 3: JUMP out; 4: OUT t2.  With IGNORE_UNCOVERED the quads along the
 * edge jump (their uncovered pixels do not vote) and draw t2; without,
 * the uncovered pixels (GL's helper invocations) vote no and the quad
 * draws t1.  Both against soft, and each way seen.
 */
static void test_flow_uncovered(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(47);
    uint32_t w[5 * 6];
    T3DAlu a = {
        .rgb_wmask = 7, .addr = { 0 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 }, .dst = 5,
    };

    t3d_us_alu(&a, w);
    w[0] |= 2u << 23;                       /* ALU_RESULT_OP: >= 0 */
    w[3] |= 1u << 31;                       /* ALU_WMASK */
    out_temp(w + 12, 1);
    fc_words(&(TFc){ .func = 0xFF, .target = 511 }, w + 18);
    out_temp(w + 24, 2);
    fill_inputs(r, IN_NORMAL);
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x][0][0] = x + y < W ? 1.0f : -1.0f;
        }
    }
    edge = W;
    for (int iu = 0; iu < 2; iu++) {
        fc_words(&(TFc){ .func = 0xF0, .uncovered = iu, .target = 4 },
                 w + 6);
        t3d_us_program(h, w, 5);
        check(h, 1, false, iu ? "IGNORE_UNCOVERED" : "uncovered pixels vote");
        /* pixel (6, 1) is covered, (7, 1) not: their quad's choice */
        g_assert_cmpfloat(soft_out[0][1][6][0], ==, in[1][6][iu ? 2 : 1][0]);
    }
    edge = 2 * W;
    g_rand_free(r);
    test_host_free(h);
}

/*
 * A 16x16 RGBA8 texture on unit 0 with its mip chain (16 ... 1), random
 * texels in every level, point filtered within and between levels, each
 * level uploaded from r500_tx_image to GL's texture on unit 1.
 */
static void tex_mipmapped(TestHost *h, GRand *r, GLuint tex)
{
    R500Chip *s = &h->chip;
    const R500TxUnit *t = &s->tx.unit[0];
    static float img[16 * 16 * 4];

    r500_reg_write(s, R_TX_ENABLE, 1);
    /* repeat, point MAG and MIN, point MIP */
    r500_reg_write(s, R_TX_FILTER0, 1u << 9 | 1u << 11 | 1u << 13);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, 15 | 15u << 11 | 4u << 26);
    r500_reg_write(s, R_TX_FORMAT1, 0x0C | 3u << 9 | 0u << 12 | 1u << 15 |
                   2u << 18);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(s);
    g_assert_true(t->valid);
    g_assert_cmpuint(t->last, ==, 4);
    for (uint64_t a = T3D_TEX; a < t->chain_end; a++) {
        h->vram[a] = g_rand_int(r);
    }
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, tex);
    for (unsigned l = 0; l <= 4; l++) {
        g_assert_true(r500_tx_image(r500_soft_begin(s), t, l, img));
        glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA32F, 16 >> l, 16 >> l, 0,
                     GL_RGBA, GL_FLOAT, img);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glActiveTexture(GL_TEXTURE0);
}

/* TEX word: op of unit 0, src t<src> S T R Q = .xyzw, RGBA to t<dst>. */
static void tex_words(uint32_t w[6], unsigned op, unsigned src, bool src_rel,
                      unsigned dst, bool dst_rel)
{
    memset(w, 0, 6 * sizeof(w[0]));
    w[0] = R500_US_TEX | 7u << 11 | 1u << 14;
    w[1] = op << 22;
    w[2] = src | src_rel << 7 | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14 |
           dst << 16 | dst_rel << 23 | 0u << 24 | 1u << 26 | 2u << 28 |
           3u << 30;
}

/*
 * TEX DXDY (seed 000, US_TEX_ADDR_DXDY): S, T from t0, the gradients from
 * t1 (selects G, R, A, B) and t2 (B, A, R, G), at LODs -1..4 with every
 * level in reach.  Each quad's gradients are one pair: llvmpipe takes one
 * LOD per quad, soft one per pixel (GL's rule, tx.c tx_lod()), so pixels
 * of a quad with other gradients could differ there; LODs stay 0.25 from
 * where MIP_POINT rounds to another level.  Then LD with aL-relative
 * source and destination in a loop (t0..t2 into t8..t10).
 */
static void test_dxdy(void)
{
    TestHost *h = host();
    GRand *r = g_rand_new_with_seed(43);
    uint32_t w[5 * 6];
    T3DAlu mad = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 8, 9, 10 },
        .swz = { { 0, 1, 2 }, { 0, 1, 2 }, { 0, 1, 2 } },
        .aswz = { 3, 3, 3 }, .sel = { 0, 1, 2 }, .asel = { 0, 1, 2 },
    };
    GLuint tex;

    glGenTextures(1, &tex);
    tex_mipmapped(h, r, tex);
    tex_words(w, R500_TEX_DXDY, 0, false, 3, false);
    /* DX_ADDR t1 selects G R A B, DY_ADDR t2 selects B A R G */
    w[3] = 1 | (1u << 8 | 0u << 10 | 3u << 12 | 2u << 14) |
           2u << 16 | (2u << 24 | 3u << 26 | 0u << 28 | 1u << 30);
    out_temp(w + 6, 3);
    t3d_us_program(h, w, 2);
    for (unsigned round = 0; round < 8; round++) {
        for (int qy = 0; qy < W; qy += 2) {
            for (int qx = 0; qx < W; qx += 2) {
                /* rho = 2^lod texels: the longer gradient, 16 a unit */
                float lod = g_rand_int_range(r, -1, 5) +
                            (float)g_rand_double_range(r, -0.25, 0.25);
                float len = exp2f(lod) / 16.0f;
                float k = (float)g_rand_double_range(r, 0.1, 1.0);
                /* along S or T: the length GL's rho and llvmpipe's
                 * approximation of it (the largest component) agree on */
                bool on_t = rnd(r, 2);
                float sg = rnd(r, 2) ? -1.0f : 1.0f;
                float gx[2] = { on_t ? 0.0f : sg * len, on_t ? sg * len : 0.0f };
                float gy[2] = { -k * gx[1], k * gx[0] };
                bool swap = rnd(r, 2);

                for (int p = 0; p < 4; p++) {
                    float (*v)[4] = in[qy + p / 2][qx + p % 2];

                    for (int c = 0; c < 2; c++) {
                        v[0][c] = (g_rand_int_range(r, -16, 32) +
                                   (float)g_rand_double_range(r, 0.1, 0.9))
                                  / 16.0f;
                    }
                    v[0][2] = v[0][3] = 0.0f;
                    /* t1: dx in G, R (S, T); t2: dy in B, A */
                    v[1][1] = swap ? gy[0] : gx[0];
                    v[1][0] = swap ? gy[1] : gx[1];
                    v[1][2] = v[1][3] = 7.0f;
                    v[2][2] = swap ? gx[0] : gy[0];
                    v[2][3] = swap ? gx[1] : gy[1];
                    v[2][0] = v[2][1] = -9.0f;
                }
            }
        }
        check(h, 1, false, "TEX DXDY");
    }
    /* 0: LOOP (3, aL 0 step 1) to 3; 1: LD t[0 + aL] -> t[8 + aL];
     * 2: ENDLOOP to 1; 3: OUT t8 * t9 + t10 */
    fc_words(&(TFc){ .op = FC_LOOP, .target = 3 }, w);
    tex_words(w + 6, R500_TEX_LD, 0, true, 8, true);
    fc_words(&(TFc){ .op = FC_ENDLOOP, .func = 0xFF, .target = 1 }, w + 12);
    t3d_us_alu(&mad, w + 18);
    r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, 0), 3 | 1u << 16);
    t3d_us_program(h, w, 4);
    fill_inputs(r, IN_NORMAL);
    /* S, T at texel centres, a texel a pixel: the LOD is 0 in every quad */
    for (int n = 0; n < 3; n++) {
        int ds = g_rand_int_range(r, -16, 16), dt = g_rand_int_range(r, -16, 16);

        for (int y = 0; y < W; y++) {
            for (int x = 0; x < W; x++) {
                in[y][x][n][0] = (x + ds + 0.5f) / 16.0f;
                in[y][x][n][1] = (y + dt + 0.5f) / 16.0f;
            }
        }
    }
    check(h, 1, false, "TEX LD, relative, in a loop");
    glDeleteTextures(1, &tex);
    g_rand_free(r);
    test_host_free(h);
}

/*
 * What the translation cannot say is declined, not miswritten; what it
 * once declined (MDH/MDV, DXDY) is translated.
 */
static void test_declines(void)
{
    TestHost *h = host();
    GString *g = g_string_new(NULL);
    R500UsGlslIn gin = { .prologue = prologue, .regs = h->chip.regs };
    const char *why;
    uint32_t w[2 * 6];
    T3DAlu a = { .out = true, .rgb_omask = 7, .alpha_omask = 1,
                 .rgb_op = 11 /* MDH */, .alpha_op = 15 /* MDV */ };

    t3d_us_alu(&a, w);
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_true(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    /* a fetch with gradients (TEX DXDY) */
    tex_words(w, R500_TEX_DXDY, 0, false, 1, false);
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_true(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    /* unscaled coordinates: GL's sampler has no such mode */
    w[1] |= 1u << 27;
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_false(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    g_assert_nonnull(strstr(why, "unscaled"));
    /* flow control needs the FC registers */
    fc_words(&(TFc){ .func = 0xFF, .target = 1 }, w);
    t3d_us_alu(&a, w + 6);
    t3d_us_program(h, w, 2);
    g_assert_true(r500_us_prepare(&h->chip));
    g_assert_true(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    gin.regs = NULL;
    g_assert_false(r500_us_glsl(&h->chip.us.prog, &gin, g, NULL, &why));
    g_assert_nonnull(strstr(why, "FC registers"));
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
    g_test_add_func("/us-glsl/ztae-products", test_ztae_products);
    g_test_add_func("/us-glsl/tex", test_tex);
    g_test_add_func("/us-glsl/random-pred-md", test_random_pred_md);
    g_test_add_func("/us-glsl/random-flow", test_random_flow);
    g_test_add_func("/us-glsl/flow-bound", test_flow_bound);
    g_test_add_func("/us-glsl/flow-steps", test_flow_steps);
    g_test_add_func("/us-glsl/flow-deep", test_flow_deep);
    g_test_add_func("/us-glsl/flow-uncovered", test_flow_uncovered);
    g_test_add_func("/us-glsl/dxdy", test_dxdy);
    g_test_add_func("/us-glsl/declines", test_declines);
    return g_test_run();
}
