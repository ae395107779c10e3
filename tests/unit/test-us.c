/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The R500 fragment shader: the instruction store and its two views,
 * decoding against the seeds (000: the TEX address word, 002: ALU source
 * addressing and inline constants), and execution of ALU ops, modifiers,
 * presubtract, derivatives, predicates and flow control over a 2x2 quad.
 * Expected values come from the definitions in r500-3d-pipeline.md 3.
 */
#include <math.h>
#include <string.h>

#include "test-3d.h"

/* Swizzle codes (3.4) and ops (3.7). */
enum { R = 0, G = 1, B = 2, A = 3, S0 = 4, SH = 5, S1 = 6 };
enum { RGB_MAD = 0, RGB_DP3 = 1, RGB_DP4 = 2, RGB_MIN = 4, RGB_MAX = 5,
       RGB_CND = 7, RGB_CMP = 8, RGB_FRC = 9, RGB_SOP = 10, RGB_MDH = 11,
       RGB_MDV = 12 };
enum { A_MAD = 0, A_DP = 1, A_RCP = 10, A_RSQ = 11, A_EX2 = 8, A_LN2 = 9,
       A_SIN = 12, A_COS = 13 };
#define INL(v)      (0x80 | (v))        /* inline constant address */
#define CONST(c)    (0x100 | (c))

/* Load temps 0..3 of the quad: t[n][ch][p] = v(n, ch, p). */
static void quad_temps(TestHost *h)
{
    R500UsQuad *q = &h->chip.pipe.w0.q;

    for (int n = 0; n < 4; n++) {
        for (int ch = 0; ch < 4; ch++) {
            for (int p = 0; p < 4; p++) {
                q->t[n][ch][p] = (n + 1) * 0.125f + ch * 0.25f - p * 0.5f;
            }
        }
    }
    q->cover = 0xF;
}

static float tv(int n, int ch, int p)
{
    return (n + 1) * 0.125f + ch * 0.25f - p * 0.5f;
}

/* Run program words (n instructions) on the quad. */
static void run(TestHost *h, const uint32_t *w, unsigned n)
{
    t3d_us_program(h, w, n);
    g_assert_true(r500_us_prepare(&h->chip));
    quad_temps(h);
    r500_us_run_quad(r500_pipe_begin(&h->chip));
}

static float out(TestHost *h, int ch, int p)
{
    return h->chip.pipe.w0.q.out[0][ch][p];
}

/* Seed 002: 4-bit exponent (bias 7), 3-bit mantissa, denormals. */
static void test_inline_constants(void)
{
    g_assert_cmpfloat(r500_us_inline_const(0x00), ==, 0.0f);
    g_assert_cmpfloat(r500_us_inline_const(7u << 3), ==, 1.0f);
    g_assert_cmpfloat(r500_us_inline_const(7u << 3 | 4), ==, 1.5f);
    g_assert_cmpfloat(r500_us_inline_const(6u << 3), ==, 0.5f);
    g_assert_cmpfloat(r500_us_inline_const(0x7F), ==, 480.0f);
    /* exponent 0: denormal, m / 8 * 2^-6 */
    g_assert_cmpfloat(r500_us_inline_const(0x01), ==, ldexpf(1.0f, -9));
    g_assert_cmpfloat(r500_us_inline_const(0x07), ==, ldexpf(7.0f, -9));
    g_assert_cmpfloat(r500_us_inline_const(1u << 3), ==, ldexpf(1.0f, -6));
}

/* Seed 002 source addressing: CONST bit, temporaries, inline values. */
static void test_alu_addressing(void)
{
    uint32_t w[6] = { 0 };
    R500UsInst in;

    /* ADDR0 = const 200, ADDR1 = temp 127, ADDR2 = inline 0x38 (1.0) */
    w[1] = 200 | 1u << 8 | 127u << 10 | (0x80u | 0x38) << 20 | 2u << 30;
    r500_us_decode(w, &in);
    g_assert_cmpuint(in.rgb_addr[0].kind, ==, R500_US_SRC_CONST);
    g_assert_cmpuint(in.rgb_addr[0].index, ==, 200);
    g_assert_cmpuint(in.rgb_addr[1].kind, ==, R500_US_SRC_TEMP);
    g_assert_cmpuint(in.rgb_addr[1].index, ==, 127);
    g_assert_cmpuint(in.rgb_addr[2].kind, ==, R500_US_SRC_INLINE);
    g_assert_cmpfloat(in.rgb_addr[2].inline_val, ==, 1.0f);
    g_assert_cmpuint(in.rgb_srcp, ==, 2);
    /* ADDRn_REL, bits 9, 19, 29 */
    w[1] = 1u << 9 | 1u << 29;
    r500_us_decode(w, &in);
    g_assert_true(in.rgb_addr[0].rel);
    g_assert_false(in.rgb_addr[1].rel);
    g_assert_true(in.rgb_addr[2].rel);
}

/* Seed 000: the TEX address word, field by field. */
static void test_tex_word(void)
{
    uint32_t w[6] = { 3, 0, 0, 0, 0, 0 };   /* CMN TYPE = TEX */
    R500UsInst in;

    w[1] = 5u << 16 | 3u << 22;             /* TEX_ID 5, PROJ */
    w[2] = 0x45 | 1u << 7 | 3u << 8 | 2u << 10 | 1u << 12 | 0u << 14 |
           0x23u << 16 | 1u << 23 | 1u << 24 | 2u << 26 | 3u << 28 |
           0u << 30;
    r500_us_decode(w, &in);
    g_assert_cmpuint(in.type, ==, R500_US_TEX);
    g_assert_cmpuint(in.tex_id, ==, 5);
    g_assert_cmpuint(in.tex_op, ==, R500_TEX_PROJ);
    g_assert_cmpuint(in.tex_src, ==, 0x45);
    g_assert_true(in.tex_src_rel);
    g_assert_cmpuint(in.tex_src_swz[0], ==, 3);
    g_assert_cmpuint(in.tex_src_swz[1], ==, 2);
    g_assert_cmpuint(in.tex_src_swz[2], ==, 1);
    g_assert_cmpuint(in.tex_src_swz[3], ==, 0);
    g_assert_cmpuint(in.tex_dst, ==, 0x23);
    g_assert_true(in.tex_dst_rel);
    g_assert_cmpuint(in.tex_dst_swz[0], ==, 1);
    g_assert_cmpuint(in.tex_dst_swz[1], ==, 2);
    g_assert_cmpuint(in.tex_dst_swz[2], ==, 3);
    g_assert_cmpuint(in.tex_dst_swz[3], ==, 0);
}

/* The store through GA_US_VECTOR_* and through 0x9000-0xBFFC agree. */
static void test_store_views(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    uint32_t w[12];

    for (int i = 0; i < 12; i++) {
        w[i] = 0xA0000000u + i;
    }
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 300);
    for (int i = 0; i < 12; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, w[i]);
    }
    /* slot 301: CMN at 0xB800, RGB_ADDR at 0x9000, ..., RGBA at 0xB000 */
    g_assert_cmphex(r500_reg_read(s, R500_REGA_AT(US_CMN_INST, 301)), ==,
                    0xA0000006);
    g_assert_cmphex(r500_reg_read(s, R500_REGA_AT(US_ALU_RGB_ADDR, 301)), ==,
                    0xA0000007);
    g_assert_cmphex(r500_reg_read(s, R500_REGA_AT(US_ALU_RGBA_INST, 300)), ==,
                    0xA0000005);
    r500_reg_write(s, R500_REGA_AT(US_ALU_RGB_INST, 5), 0x1234);
    g_assert_cmphex(s->us.inst[5 * 6 + 3], ==, 0x1234);
    /* constants: 4 dwords each, CLAMP limits to [-1, 1] */
    t3d_us_const(h, 7, 0.5f, -3.0f, 2.0f, 1.0f);
    g_assert_cmphex(s->us.consts[7 * 4 + 1], ==, 0xC0400000);
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 1u << 16 | 1u << 17 | 8);
    r500_reg_write(s, R_GA_US_VECTOR_DATA, 0xC0400000);  /* -3.0 */
    g_assert_cmphex(s->us.consts[8 * 4], ==, 0xBF800000); /* -1.0 */
    test_host_free(h);
}

static void test_alu_ops(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[6];
    T3DAlu a;

    /* MAD with modifiers: rgb = -t0.rgb * |t1.bgr| + t2.ggg; OMOD x2 */
    a = (T3DAlu){
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 0, 1, 2 },
        .sel = { 0, 1, 2 }, .swz = { { R, G, B }, { B, G, R }, { G, G, G } },
        .mod = { 1, 2, 0 },
        .asel = { 0, 1, 2 }, .aswz = { A, A, A },
        .omod = 1,
    };
    t3d_us_alu(&a, w);
    run(h, w, 1);
    for (int p = 0; p < 4; p++) {
        for (int ch = 0; ch < 3; ch++) {
            float want = 2 * (-tv(0, ch, p) * fabsf(tv(1, 2 - ch, p)) +
                              tv(2, 1, p));
            g_assert_cmpfloat_with_epsilon(out(h, ch, p), want, 1e-6);
        }
        g_assert_cmpfloat_with_epsilon(out(h, 3, p),
                                       2 * (tv(0, 3, p) * tv(1, 3, p) +
                                            tv(2, 3, p)), 1e-6);
    }
    /* presubtract 1 - 2 * src0 as operand A, clamp; constants and swizzle
     * constants 0.5 and 1 */
    t3d_us_const(h, 3, 0.25f, 0.5f, 0.75f, 2.0f);
    a = (T3DAlu){
        .out = true, .rgb_omask = 7, .alpha_omask = 1, .clamp = true,
        .addr = { CONST(3), 1, INL(0) }, .srcp = 0,
        .sel = { 3, 0, 0 }, .swz = { { R, G, B }, { SH, S1, SH }, { S0, S0, S0 } },
        .asel = { 3, 0, 0 }, .aswz = { A, S1, S0 },
    };
    t3d_us_alu(&a, w);
    run(h, w, 1);
    g_assert_cmpfloat_with_epsilon(out(h, 0, 1), 0.25f, 1e-6); /* .5 x .5 */
    g_assert_cmpfloat_with_epsilon(out(h, 1, 1), 0.0f, 1e-6);   /* 0 x 1 */
    g_assert_cmpfloat_with_epsilon(out(h, 2, 1), 0.0f, 1e-6);   /* clamped */
    g_assert_cmpfloat_with_epsilon(out(h, 3, 1), 0.0f, 1e-6);   /* -3 */
    /* DP3 and DP4 (fourth term from the alpha unit's operands) */
    for (int op = RGB_DP3; op <= RGB_DP4; op++) {
        a = (T3DAlu){
            .out = true, .rgb_omask = 7, .alpha_omask = 1,
            .addr = { 0, 1, 0 }, .rgb_op = op, .alpha_op = A_DP,
            .sel = { 0, 1, 0 }, .swz = { { R, G, B }, { R, G, B } },
            .asel = { 0, 1, 0 }, .aswz = { A, A, S0 },
        };
        t3d_us_alu(&a, w);
        run(h, w, 1);
        for (int p = 0; p < 4; p++) {
            float d = 0;

            for (int ch = 0; ch < (op == RGB_DP4 ? 4 : 3); ch++) {
                d += tv(0, ch, p) * tv(1, ch, p);
            }
            g_assert_cmpfloat_with_epsilon(out(h, 0, p), d, 1e-5);
            g_assert_cmpfloat_with_epsilon(out(h, 2, p), d, 1e-5);
            g_assert_cmpfloat_with_epsilon(out(h, 3, p), d, 1e-5);
        }
    }
    /* CMP (C >= 0 ? A : B) and CND (C > 0.5 ? A : B) */
    a = (T3DAlu){
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 0, 1, 2 }, .rgb_op = RGB_CMP, .alpha_op = 5,
        .sel = { 0, 1, 2 }, .swz = { { R, R, R }, { G, G, G }, { R, G, B } },
        .asel = { 0, 1, 2 }, .aswz = { R, G, A },
    };
    t3d_us_alu(&a, w);
    run(h, w, 1);
    for (int p = 0; p < 4; p++) {
        for (int ch = 0; ch < 3; ch++) {
            float want = tv(2, ch, p) >= 0 ? tv(0, 0, p) : tv(1, 1, p);
            g_assert_cmpfloat(out(h, ch, p), ==, want);
        }
        g_assert_cmpfloat(out(h, 3, p), ==, tv(2, 3, p) > 0.5f ? tv(0, 0, p)
                                                                : tv(1, 1, p));
    }
    /* alpha RCP, replicated to RGB by SOP */
    a = (T3DAlu){
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 3 }, .rgb_op = RGB_SOP, .alpha_op = A_RCP,
        .asel = { 0 }, .aswz = { A },
    };
    t3d_us_alu(&a, w);
    run(h, w, 1);
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat_with_epsilon(out(h, 3, p), 1.0f / tv(3, 3, p), 1e-6);
        g_assert_cmpfloat_with_epsilon(out(h, 1, p), 1.0f / tv(3, 3, p), 1e-6);
    }
    /* SIN of a quarter turn: sin(2 pi * 0.25) */
    t3d_us_const(h, 0, 0.25f, 0, 0, 0);
    a = (T3DAlu){
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { CONST(0) }, .rgb_op = RGB_SOP, .alpha_op = A_SIN,
        .aswz = { R },
    };
    t3d_us_alu(&a, w);
    run(h, w, 1);
    g_assert_cmpfloat_with_epsilon(out(h, 3, 0), 1.0f, 1e-6);
    test_host_free(h);
}

/* MDH/MDV: derivatives across the quad (Mesa's DDX: A * -1 + C). */
static void test_derivatives(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500UsQuad *q = &h->chip.pipe.w0.q;
    uint32_t w[12];
    T3DAlu a = {
        .rgb_wmask = 7, .alpha_wmask = 1, .dst = 5,
        .addr = { 0, INL(7u << 3) }, .rgb_op = RGB_MDH, .alpha_op = 14,
        .sel = { 0, 1, 0 }, .swz = { { R, G, B }, { R, R, R }, { R, G, B } },
        .mod = { 0, 1, 0 },
        .asel = { 0, 1, 0 }, .aswz = { A, R, A }, .amod = { 0, 1, 0 },
    };
    T3DAlu o = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 5, INL(0), INL(0) },
        .swz = { { R, G, B }, { S1, S1, S1 }, { S0, S0, S0 } },
        .aswz = { A, S1, S0 },
    };

    t3d_us_alu(&a, w);
    t3d_us_alu(&o, w + 6);
    t3d_us_program(h, w, 2);
    g_assert_true(r500_us_prepare(&h->chip));
    for (int p = 0; p < 4; p++) {
        for (int ch = 0; ch < 4; ch++) {
            /* f(x, y) = 3x + 5y + ch */
            q->t[0][ch][p] = 3.0f * (p & 1) + 5.0f * (p >> 1) + ch;
        }
    }
    q->cover = 0xF;
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    for (int p = 0; p < 4; p++) {
        for (int ch = 0; ch < 4; ch++) {
            g_assert_cmpfloat(out(h, ch, p), ==, 3.0f);
        }
    }
    /* MDV: the vertical one */
    a.rgb_op = RGB_MDV;
    a.alpha_op = 15;
    t3d_us_alu(&a, w);
    t3d_us_program(h, w, 2);
    g_assert_true(r500_us_prepare(&h->chip));
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    g_assert_cmpfloat(out(h, 0, 3), ==, 5.0f);
    g_assert_cmpfloat(out(h, 3, 0), ==, 5.0f);
    test_host_free(h);
}

/*
 * Flow control as Mesa encodes if/else/endif (reference 3.10), with the
 * quad's pixels disagreeing: out = (t0.r >= 0) ? 1 : 0.25.
 */
static void test_branches(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500UsQuad *q = &h->chip.pipe.w0.q;
    uint32_t w[6 * 6] = { 0 };
    /* 0: ALU writing the ALU result: t0.r >= 0 (ALU_RESULT_OP 2) */
    T3DAlu cond = {
        .rgb_wmask = 1, .dst = 9, .addr = { 0, INL(0) },
        .swz = { { R, R, R }, { S1, S1, S1 }, { S0, S0, S0 } },
        .extra_cmn = 2u << 23, .extra_rgb_inst = 1u << 31,
    };
    /* then / else: t1 = 1.0 or 0.25 (inline 0x30: 2^-2) */
    T3DAlu then_ = {
        .rgb_wmask = 7, .alpha_wmask = 1, .dst = 1, .addr = { INL(0x38) },
        .swz = { { R, R, R }, { S1, S1, S1 }, { S0, S0, S0 } },
        .aswz = { R, S1, S0 },
    };
    T3DAlu else_ = then_;
    T3DAlu outi = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 1, INL(0), INL(0) },
        .swz = { { R, G, B }, { S1, S1, S1 }, { S0, S0, S0 } },
        .aswz = { A, S1, S0 },
    };

    else_.addr[0] = INL(0x28);
    t3d_us_alu(&cond, w);
    /* 1: IF: JUMP to ELSE+1 (4) when the result is false (0x0F),
     * INCR either way */
    w[6] = 2 | 1u << 10;
    w[8] = 0 | 0x0Fu << 8 | 2u << 24 | 2u << 26;
    w[9] = 4u << 16;
    t3d_us_alu(&then_, w + 12);
    /* 3: ELSE: B_ELSE, never jumps by itself; DECR 1 when jumping */
    w[18] = 2 | 1u << 10;
    w[20] = 1u << 4 | 0x00u << 8 | 1u << 16 | 1u << 26;
    w[21] = 6u << 16;
    t3d_us_alu(&else_, w + 24);
    /* 5: ENDIF: JUMP_ANY, never wants; DECR 1 when not jumping */
    w[30] = 2 | 1u << 10;
    w[32] = 1u << 5 | 1u << 16 | 1u << 24;
    w[33] = 6u << 16;
    {
        uint32_t prog[7 * 6];

        memcpy(prog, w, sizeof(w));
        t3d_us_alu(&outi, prog + 36);
        t3d_us_program(h, prog, 7);
    }
    g_assert_true(r500_us_prepare(&h->chip));
    q->cover = 0xF;
    for (int p = 0; p < 4; p++) {
        q->t[0][0][p] = p == 2 ? -1.0f : 1.0f;
        q->t[1][0][p] = q->t[1][1][p] = q->t[1][2][p] = 7.0f;
    }
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat(out(h, 0, p), ==, p == 2 ? 0.25f : 1.0f);
    }
    /* all pixels false: the IF jumps straight to the ELSE */
    for (int p = 0; p < 4; p++) {
        q->t[0][0][p] = -1.0f;
    }
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat(out(h, 0, p), ==, 0.25f);
    }
    test_host_free(h);
}

/* US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO: 0 * inf = 0 in MAD. */
static void test_zero_times_anything(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[6];
    T3DAlu a = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { CONST(0), INL(0), INL(0) },
        .swz = { { R, G, B }, { S0, S0, S0 }, { S0, S0, S0 } },
        .aswz = { A, S0, S0 },
    };

    t3d_us_const(h, 0, INFINITY, 1, 1, INFINITY);
    t3d_us_alu(&a, w);
    run(h, w, 1);
    g_assert_true(isnan(out(h, 0, 0)));
    r500_reg_write(&h->chip, R_US_CONFIG, 2);
    run(h, w, 1);
    g_assert_cmpfloat(out(h, 0, 0), ==, 0.0f);
    g_assert_cmpfloat(out(h, 3, 0), ==, 0.0f);
    test_host_free(h);
}

/* A program outside US_CODE_RANGE is refused. */
static void test_bad_window(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_US_CODE_RANGE, 3u << 16);
    r500_reg_write(s, R_US_CODE_OFFSET, 500);
    r500_reg_write(s, R_US_CODE_ADDR, 20u << 16);
    g_assert_false(r500_us_prepare(s));
    g_assert_cmpuint(test_host_count_logs(h, "fragment program"), ==, 1);
    test_host_free(h);
}

/*
 * An upload through GA_US_VECTOR_DATA running past instruction 511: the
 * whole store is writable, the rest is dropped with one guest error and
 * the start of the store is not overwritten; a new INDEX uploads again.
 */
static void test_upload_past_store(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;

    /* exactly the whole store: no error */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 0);
    for (unsigned i = 0; i < R500_US_INSTS * 6; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, 0x5000000u + i);
    }
    g_assert_cmphex(s->us.inst[0], ==, 0x5000000);
    g_assert_cmphex(s->us.inst[R500_US_INSTS * 6 - 1], ==,
                    0x5000000u + R500_US_INSTS * 6 - 1);
    g_assert_cmpuint(test_host_count_logs(h, "upload runs past"), ==, 0);

    /* from 510: two instructions land, the next two are dropped */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 510);
    for (unsigned i = 0; i < 4 * 6; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, 0xE0000000u + i);
    }
    g_assert_cmphex(s->us.inst[510 * 6], ==, 0xE0000000);
    g_assert_cmphex(s->us.inst[511 * 6 + 5], ==, 0xE000000B);
    for (unsigned i = 0; i < 6; i++) {
        g_assert_cmphex(s->us.inst[i], ==, 0x5000000u + i);
    }
    g_assert_cmphex(r500_reg_read(s, R500_REGA_AT(US_CMN_INST, 0)), ==,
                    0x5000000);
    g_assert_cmpuint(R500_FGET(r500_reg_read(s, R_GA_US_VECTOR_INDEX),
                               GA_US_VECTOR_INDEX, INDEX), ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "upload runs past "
                                          "instruction 511"), ==, 1);

    /* a new INDEX starts a new upload */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 0);
    r500_reg_write(s, R_GA_US_VECTOR_DATA, 0x1234);
    g_assert_cmphex(s->us.inst[0], ==, 0x1234);
    g_assert_cmpuint(test_host_count_logs(h, "upload runs past"), ==, 1);
    test_host_free(h);
}

/* A right triangle over [0, 8) x [0, 8) in white. */
static void small_triangle(TestHost *h)
{
    float v[3 * 8] = {
        0, 0, 0, 1, 1, 1, 1, 1,
        8, 0, 0, 1, 1, 1, 1, 1,
        0, 8, 0, 1, 1, 1, 1, 1,
    };

    t3d_draw(h, 4, v, 3);
}

/* FC instruction words: JUMP/LOOP with JUMP_FUNC func to target. */
static void fc_inst(uint32_t w[6], unsigned op, unsigned func,
                    unsigned target)
{
    memset(w, 0, 6 * sizeof(w[0]));
    w[0] = 2;                               /* TYPE FC */
    w[2] = op | func << 8;
    w[3] = target << 16;                    /* INT_ADDR 0, BOOL_ADDR 0 */
}

/* OUT: the interpolated colour (t0), as t3d_us_passthrough() */
static void out_colour(uint32_t w[6])
{
    T3DAlu o = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 0, INL(0), INL(0) },
        .swz = { { R, G, B }, { S1, S1, S1 }, { S0, S0, S0 } },
        .aswz = { A, S1, S0 },
    };

    t3d_us_alu(&o, w);
}

/*
 * A fragment program that never ends (a JUMP to itself after the OUT):
 * every quad stops after R500_US_QUAD_STEPS instructions and is dropped,
 * the pixels keep what they held, the draw finishes and says so once.
 */
static void test_endless_program(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    uint32_t w[2 * 6];
    uint64_t quads0, insts0;

    t3d_setup(h);
    out_colour(w);
    fc_inst(w + 6, 0, 0xFF, 1);             /* 1: JUMP 1, always */
    t3d_us_program(h, w, 2);
    t3d_fill(h, 0x11223344);
    quads0 = s->us.quads;
    insts0 = s->us.insts;
    small_triangle(h);
    g_assert_cmpuint(s->us.quads, >, quads0);
    g_assert_cmpuint(s->us.insts - insts0, ==,
                     (s->us.quads - quads0) * R500_US_QUAD_STEPS);
    for (unsigned y = 0; y < 10; y++) {
        for (unsigned x = 0; x < 10; x++) {
            g_assert_cmphex(t3d_px(h, x, y), ==, 0x11223344);
        }
    }
    g_assert_cmpuint(test_host_count_logs(h, "instruction budget"), ==, 1);
    /* once per draw */
    small_triangle(h);
    g_assert_cmpuint(test_host_count_logs(h, "instruction budget"), ==, 2);
    /*
     * Split as the CP splits it (pipe/draw.h): a call per slice's budget,
     * here about a quad each; no call does much more than a slice.
     */
    {
        float v[3 * 8] = {
            0, 0, 0, 1, 1, 1, 1, 1,
            8, 0, 0, 1, 1, 1, 1, 1,
            0, 8, 0, 1, 1, 1, 1, 1,
        };
        uint64_t most, q = s->us.quads;
        unsigned calls = t3d_draw_split(h, 4, v, 3, R500_CP_SLICE_BUDGET,
                                        &most);

        g_assert_cmpuint(s->us.quads - q, >, 4);
        g_assert_cmpuint(calls, >=, s->us.quads - q);
        g_assert_cmpuint(most, <=, R500_CP_SLICE_BUDGET +
                         2 * R500_US_QUAD_STEPS + 200);
        g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x11223344);
        /* said once for the draw, not once per call */
        g_assert_cmpuint(test_host_count_logs(h, "instruction budget"), ==,
                         3);
    }
    /* the same set-up with a program that ends draws */
    t3d_us_program(h, w, 1);
    small_triangle(h);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0xFFFFFFFF);
    g_assert_cmpuint(test_host_count_logs(h, "instruction budget"), ==, 3);
    test_host_free(h);
}

/*
 * Loops nested without end: a LOOP (255 iterations) whose body jumps back
 * to the LOOP.  Past R500_US_LOOP_DEPTH levels the LOOP is skipped (to its
 * jump target, the OUT), once said; the pixels get the colour.
 */
static void test_loops_too_deep(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    uint32_t w[3 * 6];
    uint64_t quads0, insts0;

    t3d_setup(h);
    fc_inst(w, 1, 0x00, 2);                 /* 0: LOOP, skip to 2 */
    fc_inst(w + 6, 0, 0xFF, 0);             /* 1: JUMP 0, always */
    out_colour(w + 12);                     /* 2: OUT */
    t3d_us_program(h, w, 3);
    r500_reg_write(s, R500_REGA_AT(US_FC_INT_CONST, 0), 255);
    t3d_fill(h, 0);
    quads0 = s->us.quads;
    insts0 = s->us.insts;
    small_triangle(h);
    /* 8 levels of LOOP + JUMP, the ninth LOOP skipped, the OUT */
    g_assert_cmpuint(s->us.insts - insts0, ==,
                     (s->us.quads - quads0) * (2 * R500_US_LOOP_DEPTH + 2));
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0xFFFFFFFF);
    g_assert_cmpuint(test_host_count_logs(h, "deeper than 8"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "instruction budget"), ==, 0);
    test_host_free(h);
}

/* ---- Seeds 000 and 002 executed, field by field ---- */

/*
 * Unit 0: a 4 x 1 RGBA32F texture (format 0x1D, seed 003), point sampled,
 * clamped; texel x = (x + 1) * (1, 10, 100, 1000), SEL identity.
 */
static void tex_ramp(TestHost *h)
{
    R500Chip *s = &h->chip;

    for (int x = 0; x < 4; x++) {
        float v[4] = { x + 1.0f, 10.0f * (x + 1), 100.0f * (x + 1),
                       1000.0f * (x + 1) };

        memcpy(h->vram + T3D_TEX + 16 * x, v, 16);
    }
    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, 2 | 2u << 3 | 1u << 9 | 1u << 11);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, 3);                 /* 4 x 1 */
    r500_reg_write(s, R_TX_FORMAT1, 0x1D | 3u << 9 | 0u << 12 | 1u << 15 |
                   2u << 18);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(s);
}

static float ramp(int x, int comp)
{
    static const float k[4] = { 1, 10, 100, 1000 };

    return (x + 1) * k[comp];
}

enum { TEX_LD = 1, TEX_PROJ = 3 };
#define TEX_IGNORE_UNCOVERED    (1u << 26)
#define TEX_UNSCALED            (1u << 27)

/* A TEX instruction word from the fields of seed 000, writing RGBA. */
static void tex_inst(uint32_t w[6], unsigned op, unsigned flags,
                     unsigned src, bool src_rel, const unsigned sswz[4],
                     unsigned dst, bool dst_rel, const unsigned dswz[4])
{
    memset(w, 0, 6 * sizeof(w[0]));
    w[0] = 3 | 7u << 11 | 1u << 14;         /* TYPE TEX, write RGBA */
    w[1] = 0u << 16 | op << 22 | flags;      /* TEX_ID 0 */
    w[2] = src | (src_rel ? 1u : 0) << 7 | sswz[0] << 8 | sswz[1] << 10 |
           sswz[2] << 12 | sswz[3] << 14 | dst << 16 |
           (dst_rel ? 1u : 0) << 23 | dswz[0] << 24 | dswz[1] << 26 |
           dswz[2] << 28 | dswz[3] << 30;
}

/*
 * Every field of US_TEX_ADDR executed: the coordinates come from t5's
 * B, A, R, G as S, T, R, Q (PROJ divides by Q, so Q's select matters),
 * the result lands in t9 as R <- A, G <- B, B <- R, A <- G.  For pixel p,
 * S / Q = p + 0.5: texel p.
 */
static void test_tex_addr_fields(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500UsQuad *q = &h->chip.pipe.w0.q;
    const unsigned sswz[4] = { B, A, R, G }, dswz[4] = { A, B, R, G };
    uint32_t w[6];

    tex_ramp(h);
    tex_inst(w, TEX_PROJ, TEX_UNSCALED, 5, false, sswz, 9, false, dswz);
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    memset(q->t, 0, sizeof(q->t));
    q->cover = 0xF;
    for (int p = 0; p < 4; p++) {
        q->t[5][R][p] = 0.0f;               /* R: unused by a 2D texture */
        q->t[5][G][p] = 2.0f;               /* Q */
        q->t[5][B][p] = 2.0f * (p + 0.5f);  /* S * Q */
        q->t[5][A][p] = 1.0f;               /* T * Q: row 0.5 */
    }
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat(q->t[9][R][p], ==, ramp(p, 3));
        g_assert_cmpfloat(q->t[9][G][p], ==, ramp(p, 2));
        g_assert_cmpfloat(q->t[9][B][p], ==, ramp(p, 0));
        g_assert_cmpfloat(q->t[9][A][p], ==, ramp(p, 1));
    }
    test_host_free(h);
}

/*
 * SRC_ADDR_REL and DST_ADDR_REL in a loop (seed 000: "add aL before
 * lookup"): LOOP with aL = 5, 6, 7; TEX t[0 + aL] -> t[20 + aL].  t5..t7
 * point at texels 1, 2, 3 (rotated by the pixel); t0 at texel 0, which is
 * what a TEX ignoring the bits would read, into t20.
 */
static void test_tex_relative_loop(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    R500UsQuad *q = &s->pipe.w0.q;
    const unsigned id[4] = { R, G, B, A };
    uint32_t w[4 * 6];

    tex_ramp(h);
    fc_inst(w, 1, 0x00, 3);                 /* 0: LOOP, skip to 3 */
    tex_inst(w + 6, TEX_LD, TEX_UNSCALED, 0, true, id, 20, true, id);
    fc_inst(w + 12, 2, 0xFF, 1);            /* 2: ENDLOOP back to 1 */
    out_colour(w + 18);                     /* 3: OUT */
    t3d_us_program(h, w, 4);
    /* US_FC_INT_CONST 0: 3 iterations (KR), aL from 5 (KG), step 1 (KB) */
    r500_reg_write(s, R500_REGA_AT(US_FC_INT_CONST, 0), 3 | 5u << 8 |
                   1u << 16);
    g_assert_true(r500_us_prepare(s));
    memset(q->t, 0, sizeof(q->t));
    q->cover = 0xF;
    for (int p = 0; p < 4; p++) {
        q->t[0][R][p] = 0.5f;
        for (int i = 0; i < 3; i++) {
            q->t[5 + i][R][p] = (i + 1 + p) % 4 + 0.5f;
            q->t[5 + i][G][p] = 0.5f;
        }
        for (int ch = 0; ch < 4; ch++) {
            q->t[20][ch][p] = -1.0f;
        }
    }
    r500_us_run_quad(r500_pipe_begin(s));
    for (int p = 0; p < 4; p++) {
        for (int i = 0; i < 3; i++) {
            for (int ch = 0; ch < 4; ch++) {
                g_assert_cmpfloat(q->t[25 + i][ch][p], ==,
                                  ramp((i + 1 + p) % 4, ch));
            }
        }
        g_assert_cmpfloat(q->t[20][R][p], ==, -1.0f);
    }
    test_host_free(h);
}

/*
 * Seed 002's ADDRn_REL in the same kind of loop, for temporaries and
 * constants: t[40 + aL] = t[5 + aL] + c[10 + aL] (ADDR0 temp relative,
 * ADDR1 constant relative, destinations relative), aL = 5, 6, 7.
 */
static void test_alu_relative_loop(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    R500UsQuad *q = &s->pipe.w0.q;
    uint32_t w[4 * 6];
    T3DAlu add = {
        .rgb_wmask = 7, .alpha_wmask = 1, .dst = 40,
        .addr = { 0, CONST(5) }, .sel = { 0, 0, 1 },
        .swz = { { R, G, B }, { S1, S1, S1 }, { R, G, B } },
        .asel = { 0, 0, 1 }, .aswz = { A, S1, A },
    };

    fc_inst(w, 1, 0x00, 3);                 /* 0: LOOP, skip to 3 */
    t3d_us_alu(&add, w + 6);                /* 1: the relative ADD */
    for (int k = 1; k <= 2; k++) {
        w[6 + k] |= 1u << 9 | 1u << 19;     /* ADDR0_REL, ADDR1_REL */
    }
    w[6 + 4] |= 1u << 11;                   /* ALPHA_ADDRD_REL */
    w[6 + 5] |= 1u << 11;                   /* RGB_ADDRD_REL */
    fc_inst(w + 12, 2, 0xFF, 1);            /* 2: ENDLOOP back to 1 */
    out_colour(w + 18);                     /* 3: OUT */
    t3d_us_program(h, w, 4);
    r500_reg_write(s, R500_REGA_AT(US_FC_INT_CONST, 0), 3 | 5u << 8 |
                   1u << 16);
    for (int i = 0; i < 3; i++) {
        t3d_us_const(h, 10 + i, 100.0f * (i + 1), 200.0f * (i + 1),
                     300.0f * (i + 1), 400.0f * (i + 1));
    }
    g_assert_true(r500_us_prepare(s));
    memset(q->t, 0, sizeof(q->t));
    q->cover = 0xF;
    for (int p = 0; p < 4; p++) {
        for (int i = 0; i < 3; i++) {
            for (int ch = 0; ch < 4; ch++) {
                q->t[5 + i][ch][p] = i + 0.25f * ch + p;
            }
        }
    }
    r500_us_run_quad(r500_pipe_begin(s));
    for (int p = 0; p < 4; p++) {
        for (int i = 0; i < 3; i++) {
            for (int ch = 0; ch < 4; ch++) {
                g_assert_cmpfloat(q->t[45 + i][ch][p], ==,
                                  i + 0.25f * ch + p + 100.0f * (ch + 1) *
                                  (i + 1));
            }
        }
    }
    test_host_free(h);
}

/*
 * US_TEX_INST.IGNORE_UNCOVERED (reference 3.9: no fetch for uncovered
 * pixels): pixel 3 uncovered keeps its destination; without the bit it
 * is written like the others.
 */
static void test_tex_ignore_uncovered(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500UsQuad *q = &h->chip.pipe.w0.q;
    const unsigned id[4] = { R, G, B, A };
    uint32_t w[6];

    tex_ramp(h);
    for (int pass = 0; pass < 2; pass++) {
        tex_inst(w, TEX_LD, TEX_UNSCALED | (pass ? 0 : TEX_IGNORE_UNCOVERED),
                 1, false, id, 2, false, id);
        t3d_us_program(h, w, 1);
        g_assert_true(r500_us_prepare(&h->chip));
        for (int p = 0; p < 4; p++) {
            q->t[1][R][p] = p + 0.5f;
            q->t[1][G][p] = 0.5f;
            q->t[2][R][p] = -1.0f;
        }
        q->cover = 0x7;
        r500_us_run_quad(r500_pipe_begin(&h->chip));
        for (int p = 0; p < 3; p++) {
            g_assert_cmpfloat(q->t[2][R][p], ==, ramp(p, 0));
        }
        g_assert_cmpfloat(q->t[2][R][3], ==, pass ? ramp(3, 0) : -1.0f);
    }
    test_host_free(h);
}

/*
 * All 128 inline constants of seed 002 through the ALU, in each of the
 * three address slots: 4-bit exponent (bias 7), 3-bit mantissa, with
 * denormals.  The expectation is built as IEEE bits: exponent e - 7 +
 * 127, mantissa m in the top three fraction bits; e = 0 is m / 512.
 */
static void test_inline_all(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[6];

    for (unsigned v = 0; v < 128; v++) {
        unsigned e = v >> 3, m = v & 7;
        uint32_t bits = (e - 7 + 127) << 23 | m << 20;
        float want;

        if (e) {
            memcpy(&want, &bits, 4);
        } else {
            want = m / 512.0f;
        }
        for (int slot = 0; slot < 3; slot++) {
            /* out = src[slot] * 1 + 0, the other sources temps */
            T3DAlu a = {
                .out = true, .rgb_omask = 7, .alpha_omask = 1,
                .addr = { 1, 2, 3 },
                .sel = { slot, 0, 0 },
                .swz = { { R, G, B }, { S1, S1, S1 }, { S0, S0, S0 } },
                .asel = { slot, 0, 0 }, .aswz = { A, S1, S0 },
            };

            a.addr[slot] = INL(v);
            t3d_us_alu(&a, w);
            run(h, w, 1);
            for (int ch = 0; ch < 4; ch++) {
                g_assert_cmpfloat(out(h, ch, 2), ==, want);
            }
        }
    }
    test_host_free(h);
}

/*
 * The four presubtract modes of SRCP_OP (seed 002), RGB and alpha:
 * 0: 1 - 2 * src0, 1: src1 - src0, 2: src1 + src0, 3: 1 - src0.
 */
static void test_presubtract_modes(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[6];

    for (unsigned op = 0; op < 4; op++) {
        T3DAlu a = {
            .out = true, .rgb_omask = 7, .alpha_omask = 1,
            .addr = { 0, 1, 2 }, .srcp = op,
            .sel = { 3, 0, 0 },
            .swz = { { R, G, B }, { S1, S1, S1 }, { S0, S0, S0 } },
            .asel = { 3, 0, 0 }, .aswz = { A, S1, S0 },
        };

        t3d_us_alu(&a, w);
        run(h, w, 1);
        for (int p = 0; p < 4; p++) {
            for (int ch = 0; ch < 4; ch++) {
                float s0 = tv(0, ch, p), s1 = tv(1, ch, p);
                float want = op == 0 ? 1.0f - 2.0f * s0
                           : op == 1 ? s1 - s0
                           : op == 2 ? s1 + s0 : 1.0f - s0;

                g_assert_cmpfloat(out(h, ch, p), ==, want);
            }
        }
    }
    test_host_free(h);
}

/*
 * US ALU special values, evaluated as the IEEE formulas: RCP of +-0 and
 * negatives, LN2 of 0 (-inf), EX2 of large values, FRC of negatives.
 */
static void test_alu_special(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const struct { unsigned op; float x, want; } cases[] = {
        { A_RCP, 0.0f, INFINITY }, { A_RCP, -0.0f, -INFINITY },
        { A_RCP, -4.0f, -0.25f }, { A_LN2, 0.0f, -INFINITY },
        { A_LN2, 0.25f, -2.0f }, { A_EX2, 200.0f, INFINITY },
        { A_EX2, -200.0f, 0.0f }, { A_EX2, -3.0f, 0.125f },
        { 7 /* FRC */, -1.25f, 0.75f }, { 7, -3.0f, 0.0f },
        { A_RSQ, 0.0f, INFINITY },
    };
    uint32_t w[6];

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        T3DAlu a = {
            .out = true, .rgb_omask = 7, .alpha_omask = 1,
            .addr = { CONST(0) }, .rgb_op = RGB_SOP,
            .alpha_op = cases[i].op, .aswz = { R },
        };
        float r;

        t3d_us_const(h, 0, cases[i].x, 0, 0, 0);
        t3d_us_alu(&a, w);
        run(h, w, 1);
        r = out(h, 3, 0);
        if (isinf(cases[i].want)) {
            g_assert_true(isinf(r) && (r > 0) == (cases[i].want > 0));
        } else {
            g_assert_cmpfloat(r, ==, cases[i].want);
        }
    }
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/us/inline-constants", test_inline_constants);
    g_test_add_func("/us/alu-addressing", test_alu_addressing);
    g_test_add_func("/us/tex-word", test_tex_word);
    g_test_add_func("/us/seed000/tex-addr-fields", test_tex_addr_fields);
    g_test_add_func("/us/seed000/tex-relative-loop", test_tex_relative_loop);
    g_test_add_func("/us/seed002/alu-relative-loop", test_alu_relative_loop);
    g_test_add_func("/us/tex-ignore-uncovered", test_tex_ignore_uncovered);
    g_test_add_func("/us/seed002/inline-all", test_inline_all);
    g_test_add_func("/us/seed002/presubtract-modes", test_presubtract_modes);
    g_test_add_func("/us/alu-special", test_alu_special);
    g_test_add_func("/us/store-views", test_store_views);
    g_test_add_func("/us/alu-ops", test_alu_ops);
    g_test_add_func("/us/derivatives", test_derivatives);
    g_test_add_func("/us/branches", test_branches);
    g_test_add_func("/us/zero-times-anything", test_zero_times_anything);
    g_test_add_func("/us/bad-window", test_bad_window);
    g_test_add_func("/us/contract/upload-past-store", test_upload_past_store);
    g_test_add_func("/us/contract/endless-program", test_endless_program);
    g_test_add_func("/us/contract/loops-too-deep", test_loops_too_deep);
    return g_test_run();
}
