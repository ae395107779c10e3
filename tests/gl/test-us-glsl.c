/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GLSL translation of US programs (hw/r500/gl/us_glsl.c) against the
 * soft interpreter (us_exec.c): each program runs on soft, quad by quad,
 * and as a fragment shader on the host's OpenGL (EGL surfaceless: llvmpipe
 * here), over the same 8x8 pixels of inputs, and the outputs are compared
 * bit for bit (the transcendental ops to 1e-5 relative, where the C
 * library and the GL compiler differ; denormals as zero; us-glsl-host.c).
 * Programs: one per feature, written by hand, then seeded random ones over
 * everything the translation covers: straight-line ALU programs, the
 * products of zero-times-anything, textures, predication, relative
 * addresses and derivatives, fetches with gradients.  What it declines is
 * checked to be declined.  Flow control: test-us-glsl-fc.c.
 */
#include <math.h>
#include <string.h>

#include "us-glsl-host.h"

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
        g_assert_true(r500_tx_image(r500_pipe_begin(s), t, 0, img));
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
        g_assert_true(r500_tx_image(r500_pipe_begin(s), t, l, img));
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
    g_test_add_func("/us-glsl/dxdy", test_dxdy);
    g_test_add_func("/us-glsl/declines", test_declines);
    return g_test_run();
}
