/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tests of the US-to-GLSL translation share (us-glsl-host.h):
 * the GL context and targets, a program run on soft and on GL over the
 * same 8x8 pixels of inputs, the comparison, and the random instructions
 * both test programs draw from.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "us-glsl-host.h"

GString *last_fs;        /* the shader last run, for failures */
static GLuint fbo, tin_tex, vao;

/*
 * The pixels the triangle covers: x + y below edge (W + W: all of them).
 * GL shades the others of a partly covered quad as helper invocations,
 * soft as uncovered pixels of the quad (q->cover).
 */
int edge = 2 * W;

bool covered(int x, int y)
{
    return x + y < edge;
}

/* Inputs: temp n of pixel (x, y) is in[y][x][n]. */
float in[W][W][NIN][4];
/* Outputs of soft: [target][y][x][ch]; kill per pixel. */
float soft_out[4][W][W][4];
bool soft_kill[W][W];

bool gl_up(void)
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
const char prologue[] =
    "uniform sampler2D r500_tin;\n"
    "#define R500_TEMP_IN(n) ((n) < 4 ? texelFetch(r500_tin, "
    "ivec2(int(gl_FragCoord.x) + 8 * int(gl_FragCoord.y), (n)), 0) "
    ": vec4(0.0))\n";

/* Run the chip's current program on GL; out[target][y][x][ch]. */
void run_gl(TestHost *h, float out[4][W][W][4], bool kill[W][W])
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
    /*
     * Killed: no target written.  Not target 0 alone: a program may write
     * other targets only, and what GL stores in an attachment the shader
     * has no output for differs (Mesa 22's llvmpipe wrote it, Mesa 25's
     * leaves it), so every target is looked at.
     */
    for (int y = 0; y < W; y++) {
        for (int x = 0; x < W; x++) {
            kill[y][x] = true;
            for (int t = 0; t < 4; t++) {
                kill[y][x] &= out[t][y][x][0] == -12345.0f &&
                              out[t][y][x][3] == -12345.0f;
            }
        }
    }
    g_assert_cmphex(glGetError(), ==, GL_NO_ERROR);
    glDeleteProgram(prog);
    if (last_fs) {
        g_string_free(last_fs, true);
    }
    last_fs = fs;
}

/* The most instructions one quad ran in the last run_soft(). */
uint64_t soft_max_steps;

/* Run the chip's current program on soft, quad by quad. */
void run_soft(TestHost *h)
{
    R500Worker *w = r500_pipe_begin(&h->chip);

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
void check(TestHost *h, unsigned targets, bool tol, const char *what)
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
void fill_inputs(GRand *r, unsigned mode)
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

TestHost *host(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);

    t3d_setup(h);
    return h;
}

/* Random ALU/OUT programs over every covered field. */
void random_alu(GRand *r, T3DAlu *a, bool out, bool transcendental)
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

/* ---- Predication, relative addresses, derivatives, flow control ---- */

unsigned rnd(GRand *r, unsigned n)
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
void random_alu_x(GRand *r, uint32_t w[6], bool out, unsigned x)
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
void random_fc_consts(TestHost *h, GRand *r)
{
    for (unsigned k = 0; k < 4; k++) {
        int step = g_rand_int_range(r, -2, 3);

        r500_reg_write(&h->chip, R500_REGA_AT(US_FC_INT_CONST, k),
                       rnd(r, 5) | rnd(r, 9) << 8 | (uint32_t)(step & 0xFF)
                       << 16);
    }
    r500_reg_write(&h->chip, R_US_FC_BOOL_CONST, g_rand_int(r));
}

/* OUT of t<src> to target 0 (t3d_us_passthrough() for another temp). */
void out_temp(uint32_t w[6], unsigned src)
{
    T3DAlu o = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { src, 0x80, 0x80 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };

    t3d_us_alu(&o, w);
}

void fc_words(const TFc *f, uint32_t w[6])
{
    memset(w, 0, 6 * sizeof(w[0]));
    w[0] = R500_US_FC;
    w[2] = f->op | f->belse << 4 | f->any << 5 | f->aop << 6 |
           f->func << 8 | f->pop << 16 | f->bop0 << 24 | f->bop1 << 26 |
           f->uncovered << 28;
    w[3] = f->bool_addr | f->int_addr << 8 | f->target << 16;
}
