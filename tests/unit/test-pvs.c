/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PVS vertex shader: the upload port (VAP_PVS_VECTOR_INDX_REG/DATA),
 * decoding, every arithmetic op against the TGSI definitions of seed 004
 * (the expected values are computed here from those formulas), constant
 * addressing, predicates and loops.  r500-3d-pipeline.md 2.2, 4.
 */
#include <math.h>
#include <string.h>

#include "test-3d.h"

/* Vector (VE_*) and math (ME_*) opcodes, reference 4.4. */
enum {
    VE_DOT = 1, VE_MUL = 2, VE_ADD = 3, VE_MAD = 4, VE_DST = 5, VE_FRC = 6,
    VE_MAX = 7, VE_MIN = 8, VE_SGE = 9, VE_SLT = 10, VE_ARL = 13,
    ME_EXP = 1, ME_LOG = 2, ME_LIT = 4, ME_RCP = 6, ME_RSQ = 8,
    ME_PRED_SET_EQ = 21, ME_PRED_SET_POP = 27, VE_PRED_SET_NEQ_PUSH = 18,
    ME_POW = 5, ME_EX2 = 11, ME_LG2 = 12, ME_POW_CLAMP_B = 13,
    ME_POW_CLAMP_01 = 15, VE_COND_WRITE_EQ = 19, VE_COND_WRITE_NEQ = 22,
};

static void set_const(TestHost *h, unsigned c, const float v[4])
{
    uint32_t w[4] = { t3d_fbits(v[0]), t3d_fbits(v[1]), t3d_fbits(v[2]), t3d_fbits(v[3]) };

    t3d_pvs_upload(h, 1024 + c, w, 4);
}

/* Run n instructions on inputs v0, v1, v2; result in temp 0 / output 0. */
static void run(TestHost *h, const uint32_t *code, unsigned n,
                const float in[3][4], R500PvsState *st)
{
    R500Chip *s = &h->chip;

    t3d_pvs_upload(h, 0, code, 4 * n);
    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_0, (n - 1) << 20);
    g_assert_true(r500_pvs_load(s));
    memset(st, 0, sizeof(*st));
    memcpy(st->in, in, sizeof(float[3][4]));
    s->vap.inst_budget = 1000000;
    r500_pvs_run(s, st);
}

/* One instruction t0 = op(v0, v1, v2) with plain xyzw sources. */
static void op1(TestHost *h, unsigned op, bool math, const float a[4],
                const float b[4], const float c[4], float r[4])
{
    uint32_t w[4] = {
        t3d_pvs_dst(op, math, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 2, PVS_XYZW, 0),
    };
    float in[3][4];
    R500PvsState st;

    memcpy(in[0], a, 16);
    memcpy(in[1], b, 16);
    memcpy(in[2], c, 16);
    run(h, w, 1, (const float (*)[4])in, &st);
    memcpy(r, st.temp[0], 16);
}

static void assert_vec(const float r[4], float x, float y, float z, float w)
{
    const float want[4] = { x, y, z, w };

    for (int i = 0; i < 4; i++) {
        if (isinf(want[i])) {
            g_assert_true(isinf(r[i]) && (r[i] > 0) == (want[i] > 0));
        } else {
            g_assert_cmpfloat_with_epsilon(r[i], want[i],
                                           1e-5f * MAX(1.0f, fabsf(want[i])));
        }
    }
}

static void test_upload(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[10];

    for (int i = 0; i < 10; i++) {
        w[i] = 0x1000 + i;
    }
    /* 4 dwords per vector, the index advances per vector */
    t3d_pvs_upload(h, 7, w, 10);
    g_assert_cmphex(h->chip.vap.pvs_mem[7 * 4 + 0], ==, 0x1000);
    g_assert_cmphex(h->chip.vap.pvs_mem[8 * 4 + 3], ==, 0x1007);
    g_assert_cmphex(h->chip.vap.pvs_mem[9 * 4 + 1], ==, 0x1009);
    g_assert_cmpuint(R500_FGET(r500_reg_read(&h->chip,
                                             R_VAP_PVS_VECTOR_INDX_REG),
                               VAP_PVS_VECTOR_INDX_REG, OCTWORD_OFFSET), ==, 9);
    /* a new index restarts the vector */
    t3d_pvs_upload(h, 2047, w, 6);
    g_assert_cmphex(h->chip.vap.pvs_mem[2047 * 4 + 3], ==, 0x1003);
    g_assert_cmphex(h->chip.vap.pvs_mem[0], ==, 0x1004);    /* wrapped */
    /* the viewport's two copies are one register */
    r500_reg_write(&h->chip, R_VAP_VPORT_YSCALE, t3d_fbits(3.0f));
    g_assert_cmphex(r500_reg_read(&h->chip, R_SE_VPORT_YSCALE), ==,
                    t3d_fbits(3.0f));
    r500_reg_write(&h->chip, R_SE_VPORT_XOFFSET, t3d_fbits(5.0f));
    g_assert_cmphex(r500_reg_read(&h->chip, R_VAP_VPORT_XOFFSET), ==,
                    t3d_fbits(5.0f));
    test_host_free(h);
}

/* Seed 004: the TGSI definitions, one op at a time. */
static void test_tgsi_ops(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float a[4] = { 1.5f, -2.0f, 3.0f, 0.5f };
    const float b[4] = { -4.0f, 0.25f, 3.0f, 2.0f };
    const float c[4] = { 10.0f, 20.0f, 30.0f, 40.0f };
    const float z[4] = { 0 };
    float r[4];

    /* MUL, ADD, MAD */
    op1(h, VE_MUL, false, a, b, c, r);
    assert_vec(r, a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]);
    op1(h, VE_ADD, false, a, b, c, r);
    assert_vec(r, a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]);
    op1(h, VE_MAD, false, a, b, c, r);
    assert_vec(r, a[0] * b[0] + c[0], a[1] * b[1] + c[1],
               a[2] * b[2] + c[2], a[3] * b[3] + c[3]);
    /* MOV: ADD with a zero second operand (Mesa) */
    op1(h, VE_ADD, false, a, z, c, r);
    assert_vec(r, a[0], a[1], a[2], a[3]);
    /* DP4, and DP3 as DOT with w forced to 0 by the swizzle */
    {
        float d4 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        float d3 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        uint32_t w[4] = {
            t3d_pvs_dst(VE_DOT, false, PVS_DT, 0, 0xF),
            t3d_pvs_src(PVS_V, 0, PVS_SWZ(0, 1, 2, 4), 0),
            t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0),
            t3d_pvs_src(PVS_V, 2, PVS_XYZW, 0),
        };
        float in[3][4];
        R500PvsState st;

        op1(h, VE_DOT, false, a, b, c, r);
        assert_vec(r, d4, d4, d4, d4);
        memcpy(in[0], a, 16);
        memcpy(in[1], b, 16);
        memcpy(in[2], c, 16);
        run(h, w, 1, (const float (*)[4])in, &st);
        assert_vec(st.temp[0], d3, d3, d3, d3);
    }
    /* DST: (1, a.y * b.y, a.z, b.w) */
    op1(h, VE_DST, false, a, b, c, r);
    assert_vec(r, 1.0f, a[1] * b[1], a[2], b[3]);
    /* MIN, MAX, SLT, SGE */
    op1(h, VE_MIN, false, a, b, c, r);
    assert_vec(r, -4.0f, -2.0f, 3.0f, 0.5f);
    op1(h, VE_MAX, false, a, b, c, r);
    assert_vec(r, 1.5f, 0.25f, 3.0f, 2.0f);
    op1(h, VE_SLT, false, a, b, c, r);
    assert_vec(r, 0.0f, 1.0f, 0.0f, 1.0f);
    op1(h, VE_SGE, false, a, b, c, r);
    assert_vec(r, 1.0f, 0.0f, 1.0f, 0.0f);
    op1(h, VE_FRC, false, a, b, c, r);
    assert_vec(r, 0.5f, 0.0f, 0.0f, 0.5f);
    /* RCP, RSQ (of |x|) replicate the scalar of A.x */
    op1(h, ME_RCP, true, b, a, c, r);
    assert_vec(r, -0.25f, -0.25f, -0.25f, -0.25f);
    op1(h, ME_RSQ, true, b, a, c, r);
    assert_vec(r, 0.5f, 0.5f, 0.5f, 0.5f);
    /* EXP of 2.5: (2^floor, fraction, 2^x, 1) */
    {
        const float e[4] = { 2.5f, 0, 0, 0 };

        op1(h, ME_EXP, true, e, a, c, r);
        assert_vec(r, 4.0f, 0.5f, exp2f(2.5f), 1.0f);
    }
    /* LOG of -10: (floor(lg2 |x|), |x| / 2^floor, lg2 |x|, 1) */
    {
        const float l[4] = { -10.0f, 0, 0, 0 };

        op1(h, ME_LOG, true, l, a, c, r);
        assert_vec(r, 3.0f, 10.0f / 8.0f, log2f(10.0f), 1.0f);
    }
    /*
     * LIT of src = (x, y, ., w) = (0.5, 0.25, ., 2): Mesa's operand A is
     * src.xw0y, so the unit sees x = A.x, w = A.y, y = A.w.
     */
    {
        const float lit[4] = { 0.5f, 2.0f, 0.0f, 0.25f };

        op1(h, ME_LIT, true, lit, a, c, r);
        assert_vec(r, 1.0f, 0.5f, powf(0.25f, 2.0f), 1.0f);
    }
    test_host_free(h);
}

/* ARL: floor into A0, then A0.x-relative constant addressing. */
static void test_arl_relative(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float in[3][4] = { { 2.7f, -0.5f, 0, 0 } };
    const float k2[4] = { 7, 8, 9, 10 }, k1[4] = { 1, 2, 3, 4 };
    /* ARL a0.xy = v0; t0 = c[0 + a0.x]; t1 = c[3 + a0.y] */
    uint32_t w[12] = {
        t3d_pvs_dst(VE_ARL, false, PVS_DA0, 0, 0x3),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_C, 0, PVS_XYZW, 0) | 1u << 4,        /* + A0.x */
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 1, 0xF),
        t3d_pvs_src(PVS_C, 3, PVS_XYZW, 0) | 1u << 4 | 1u << 29, /* + A0.y */
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
    };
    R500PvsState st;

    set_const(h, 2, k2);
    set_const(h, 1, k1);
    r500_reg_write(&h->chip, R_VAP_PVS_CONST_CNTL, 255u << 16);
    run(h, w, 3, in, &st);
    g_assert_cmpint(st.a0[0], ==, 2);
    g_assert_cmpint(st.a0[1], ==, -1);         /* floor(-0.5) */
    assert_vec(st.temp[0], 7, 8, 9, 10);
    assert_vec(st.temp[1], 7, 8, 9, 10);
    test_host_free(h);
}

/*
 * VAP_PVS_CONST_CNTL: the program's index is bounded by MAX_CONST_ADDR,
 * then BASE_OFFSET is added (how Mesa places a second program's constants).
 */
static void test_const_window(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float in[3][4] = { { 0 } };
    const float k9[4] = { 9, 9, 9, 9 }, k10[4] = { 10, 10, 10, 10 };
    uint32_t w[8] = {
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_C, 1, PVS_XYZW, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 1, 0xF),
        t3d_pvs_src(PVS_C, 2, PVS_XYZW, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_C, 0, PVS_ZERO4, 0),
    };
    R500PvsState st;

    set_const(h, 9, k9);
    set_const(h, 10, k10);
    /* base 8, max 1: c1 is constant 9; c2 is out of range, reads 0 */
    r500_reg_write(&h->chip, R_VAP_PVS_CONST_CNTL, 8 | 1u << 16);
    run(h, w, 2, in, &st);
    assert_vec(st.temp[0], 9, 9, 9, 9);
    assert_vec(st.temp[1], 0, 0, 0, 0);
    test_host_free(h);
}

/*
 * A counted loop (VAP_PVS_FLOW_CNTL slot 0) with a predicated break, as
 * Mesa's radeon_vert_fc.c builds it: for (i = 0; i < 255; i++) { if (i >=
 * n) break; t1 += 1; }  with n = 5 in v0.x, so t1 ends at 5.
 */
static void test_loop_break(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float in[3][4] = { { 5.0f, 0, 0, 0 } };
    const uint32_t pred = 1u << 26 | 1u << 27;  /* write if predicate set */
    uint32_t w[] = {
        /* 0: t4.w = PRED_SET_EQ(0): predicate on, counter 0 */
        t3d_pvs_dst(ME_PRED_SET_EQ, true, PVS_DT, 4, 0x8),
        t3d_pvs_src(PVS_T, 0, PVS_ZERO4, 0), 0, 0,
        /* 1: nothing (the loop is entered after it) */
        0, t3d_pvs_src(PVS_T, 0, PVS_ZERO4, 0), 0, 0,
        /* 2: t2.x = (t0.x >= v0.x)  [pred] */
        t3d_pvs_dst(VE_SGE, false, PVS_DT, 2, 0x1) | pred,
        t3d_pvs_src(PVS_T, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0), 0,
        /* 3: if (t2.x): push on the counter in t4.w */
        t3d_pvs_dst(VE_PRED_SET_NEQ_PUSH, false, PVS_DT, 4, 0x8),
        t3d_pvs_src(PVS_T, 4, PVS_SWZ(3, 3, 3, 3), 0),
        t3d_pvs_src(PVS_T, 2, PVS_SWZ(0, 0, 0, 0), 0), 0,
        /* 4: break: t4.w = 1 / 0  [pred] */
        t3d_pvs_dst(ME_RCP, true, PVS_DT, 4, 0x8) | pred,
        t3d_pvs_src(PVS_T, 0, PVS_ZERO4, 0), 0, 0,
        /* 5: endif: pop */
        t3d_pvs_dst(ME_PRED_SET_POP, true, PVS_DT, 4, 0x8),
        t3d_pvs_src(PVS_T, 4, PVS_SWZ(3, 3, 3, 3), 0), 0, 0,
        /* 6: t1 += 1 [pred]; 7: t0.x += 1 [pred] (i++) */
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 1, 0xF) | pred,
        t3d_pvs_src(PVS_T, 1, PVS_XYZW, 0),
        t3d_pvs_src(PVS_T, 0, PVS_SWZ(5, 5, 5, 5), 0), 0,
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0x1) | pred,
        t3d_pvs_src(PVS_T, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_T, 0, PVS_SWZ(5, 5, 5, 5), 0), 0,
    };
    R500PvsState st;
    R500Chip *s = &h->chip;

    /* slot 0: LOOP after instruction 1, 255 times, body 2..7 */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 2);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_LW, 1 | 255u << 16);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_UW, 7 | 2u << 16);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_LOOP_INDEX, 1u << 8);
    run(h, w, G_N_ELEMENTS(w) / 4, in, &st);
    g_assert_cmpfloat(st.temp[1][0], ==, 5.0f);
    g_assert_cmpfloat(st.temp[0][0], ==, 5.0f);
    g_assert_false(st.pred);
    test_host_free(h);
}

/* A program range past the code memory is refused, the draw skipped. */
static void test_bad_range(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);

    r500_reg_write(&h->chip, R_VAP_PVS_CODE_CNTL_0, 1023u << 20 | 5);
    g_assert_true(r500_pvs_load(&h->chip));
    r500_reg_write(&h->chip, R_VAP_PVS_CODE_CNTL_0, 3u << 20 | 5);
    g_assert_false(r500_pvs_load(&h->chip));
    g_assert_cmpuint(test_host_count_logs(h, "VAP_PVS_CODE_CNTL_0"), ==, 1);
    test_host_free(h);
}

/*
 * A vertex program that never ends (a VAP_PVS_FLOW_CNTL jump from an
 * instruction to itself): the vertex stops after R500_PVS_VERTEX_STEPS
 * instructions, or the draw's budget, whichever is less, and is marked cut.
 */
static void test_endless_vertex(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    const float in[3][4] = { { 1, 2, 3, 4 } };
    uint32_t w[4] = {
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 0, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_V, 0, PVS_ZERO4, 0),
    };
    R500PvsState st;

    /* slot 0: JUMP after instruction 0 to instruction 0 */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 1);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_LW, 0);
    t3d_pvs_upload(h, 0, w, 4);
    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_0, 0);
    g_assert_true(r500_pvs_load(s));
    memset(&st, 0, sizeof(st));
    memcpy(st.in, in, sizeof(in));
    s->vap.inst_budget = 1ull << 40;
    g_assert_cmpuint(r500_pvs_run(s, &st), ==, R500_PVS_VERTEX_STEPS);
    g_assert_true(st.cut);
    assert_vec(st.temp[0], 1, 2, 3, 4);
    /* the draw's budget, when smaller */
    s->vap.inst_budget = 1000;
    g_assert_cmpuint(r500_pvs_run(s, &st), ==, 1000);
    g_assert_true(st.cut);
    /* without the jump it ends */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 0);
    g_assert_cmpuint(r500_pvs_run(s, &st), ==, 1);
    g_assert_false(st.cut);
    test_host_free(h);
}

/*
 * The same through a draw: the vertices that do not end are dropped with
 * their primitives, once said per draw; nothing is drawn, the draw ends.
 */
static void test_endless_vertex_draw(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8] = {
        0, 0, 0, 1, 1, 1, 1, 1,
        8, 0, 0, 1, 1, 1, 1, 1,
        0, 8, 0, 1, 1, 1, 1, 1,
    };
    uint64_t shaded0;

    t3d_setup(h);
    t3d_fill(h, 0x11223344);
    /* t3d_setup's program is o0 = v0, o1 = v1: loop on the second */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 1);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_LW, 1 | 1u << 16);
    shaded0 = s->vap.shaded;
    t3d_draw(h, 4, v, 3);
    /* the triangle is given up at its first vertex that is dropped */
    g_assert_cmpuint(s->vap.shaded - shaded0, >=, 1);
    g_assert_cmpuint(s->vap.shaded - shaded0, <=, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x11223344);
    g_assert_cmpuint(test_host_count_logs(h, "vertex shader does not end"),
                     ==, 1);
    t3d_draw(h, 4, v, 3);
    g_assert_cmpuint(test_host_count_logs(h, "vertex shader does not end"),
                     ==, 2);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x11223344);
    /* the jump gone, the same draw draws */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 0);
    t3d_draw(h, 4, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0xFFFFFFFF);
    g_assert_cmpuint(test_host_count_logs(h, "vertex shader does not end"),
                     ==, 2);
    test_host_free(h);
}

/*
 * Uploads past the 1024 instruction slots: the port addresses the whole
 * 2048-vector PVS memory, so they continue into the constants (where
 * Mesa uploads them, at 1024) and wrap at 2048 (/pvs/upload); the
 * program range cannot name a slot past 1023 (/pvs/bad-range).
 */
static void test_upload_past_code(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    uint32_t w[8];

    for (int i = 0; i < 8; i++) {
        w[i] = 0x2000 + i;
    }
    t3d_pvs_upload(h, 1023, w, 8);
    g_assert_cmphex(h->chip.vap.pvs_mem[1023 * 4 + 3], ==, 0x2003);
    g_assert_cmphex(h->chip.vap.pvs_mem[1024 * 4], ==, 0x2004);
    r500_reg_write(&h->chip, R_VAP_PVS_CODE_CNTL_0, 1023u << 20 | 1023);
    g_assert_true(r500_pvs_load(&h->chip));
    g_assert_cmpuint(h->chip.guest_errors, ==, 0);
    test_host_free(h);
}

/* An expected value that may be NaN or an infinity, compared exactly. */
static void assert_special(float r, float want)
{
    if (isnan(want)) {
        g_assert_true(isnan(r));
    } else if (isinf(want)) {
        g_assert_true(isinf(r) && (r > 0) == (want > 0));
    } else {
        g_assert_cmpfloat_with_epsilon(r, want, 1e-6f * MAX(1.0f, fabsf(want)));
    }
}

/* The scalar math op of A.x, replicated: every component is want. */
static void scalar(TestHost *h, unsigned op, float x, float want)
{
    const float a[4] = { x, x, x, x }, z[4] = { 0 };
    float r[4];

    op1(h, op, true, a, z, z, r);
    for (int i = 0; i < 4; i++) {
        assert_special(r[i], want);
    }
}

/*
 * Seed 004's formulas at their special values, evaluated in IEEE single
 * precision as written: RCP = 1 / x, RSQ = 1 / sqrt(|x|), LOG/EXP and
 * LG2/EX2 of 0, negatives and large values, POW, FRC and ARL's floor of
 * negatives.  (Whether the _DX/_FF variants flush these differently is an
 * open question, docs/3d.md; the model takes the formulas literally.)
 */
static void test_tgsi_special(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float z[4] = { 0 };
    float r[4];

    scalar(h, ME_RCP, 0.0f, INFINITY);
    scalar(h, ME_RCP, -0.0f, -INFINITY);
    scalar(h, ME_RCP, -2.0f, -0.5f);
    scalar(h, ME_RSQ, 0.0f, INFINITY);
    scalar(h, ME_RSQ, -0.0f, INFINITY);         /* |-0| = +0 */
    scalar(h, ME_RSQ, -16.0f, 0.25f);
    scalar(h, ME_LG2, 0.0f, -INFINITY);
    scalar(h, ME_LG2, 8.0f, 3.0f);
    scalar(h, ME_EX2, 200.0f, INFINITY);        /* 2^200 > FLT_MAX */
    scalar(h, ME_EX2, -200.0f, 0.0f);
    scalar(h, ME_EX2, -1.0f, 0.5f);
    /* LOG(0): floor(lg2 0) = -inf; 0 / 2^-inf = 0 / 0; lg2 0 = -inf */
    {
        const float a[4] = { 0.0f };

        op1(h, ME_LOG, true, a, z, z, r);
        assert_special(r[0], -INFINITY);
        assert_special(r[1], NAN);
        assert_special(r[2], -INFINITY);
        assert_special(r[3], 1.0f);
    }
    /* EXP(-1.25): (2^-2, -1.25 - -2, 2^-1.25, 1) */
    {
        const float a[4] = { -1.25f };

        op1(h, ME_EXP, true, a, z, z, r);
        assert_vec(r, 0.25f, 0.75f, 0.42044820762685725f, 1.0f);
    }
    /* EXP(200): 2^200 overflows */
    {
        const float a[4] = { 200.0f };

        op1(h, ME_EXP, true, a, z, z, r);
        assert_special(r[0], INFINITY);
        assert_special(r[1], 0.0f);
        assert_special(r[2], INFINITY);
    }
    /* POW: base A.x, exponent C.x (Mesa); x^0 = 1 even for 0, 0^2 = 0 */
    {
        const float cases[][3] = {
            { 2.0f, 10.0f, 1024.0f }, { 0.0f, 0.0f, 1.0f },
            { 0.0f, 2.0f, 0.0f }, { 4.0f, -0.5f, 0.5f },
            { 0.0f, -1.0f, INFINITY },
        };

        for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
            const float a[4] = { cases[i][0] }, c[4] = { cases[i][1] };

            op1(h, ME_POW, true, a, z, c, r);
            assert_special(r[0], cases[i][2]);
            assert_special(r[3], cases[i][2]);
        }
    }
    /* FRC of negatives: x - floor(x) */
    {
        const float a[4] = { -1.25f, -0.5f, -3.0f, -0.0f };

        op1(h, VE_FRC, false, a, z, z, r);
        assert_vec(r, 0.75f, 0.5f, 0.0f, 0.0f);
    }
    /* ARL (FLR to A0) of negatives: floor, toward minus infinity */
    {
        const float in[3][4] = { { -1.25f, -0.5f, -3.0f, 2.75f } };
        uint32_t w[4] = {
            t3d_pvs_dst(VE_ARL, false, PVS_DA0, 0, 0xF),
            t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
            t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
            t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0),
        };
        R500PvsState st;

        run(h, w, 1, in, &st);
        g_assert_cmpint(st.a0[0], ==, -2);
        g_assert_cmpint(st.a0[1], ==, -1);
        g_assert_cmpint(st.a0[2], ==, -3);
        g_assert_cmpint(st.a0[3], ==, 2);
    }
    test_host_free(h);
}

/*
 * A JSR flow-control slot (reference 2.2): after ACT_ADRS jump to
 * LOOP_CNT_JMP_INST, return to RTN_INST after LAST_INST.  Program
 *   0: t0 = v0   1: t1 = t0   2: t3 = t1   3: t0 *= v2   4: t0 += v1
 * with slot 0 = JSR after 0 to 3, body ending at 4, returning to 1:
 * 0, 3, 4, 1, 2, 3, 4 -> t1 = (1 * 3) + 10 = 13, t0 = 13 * 3 + 10 = 49.
 * Without the call: 0..4 once, t1 = 1, t0 = 13.
 */
static void test_jsr(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    const float in[3][4] = { { 1, 1, 1, 1 }, { 10, 10, 10, 10 },
                             { 3, 3, 3, 3 } };
    const uint32_t zero = t3d_pvs_src(PVS_V, 0, PVS_ZERO4, 0);
    uint32_t w[] = {
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0), zero, zero,
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 1, 0xF),
        t3d_pvs_src(PVS_T, 0, PVS_XYZW, 0), zero, zero,
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 3, 0xF),
        t3d_pvs_src(PVS_T, 1, PVS_XYZW, 0), zero, zero,
        t3d_pvs_dst(VE_MUL, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_T, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 2, PVS_XYZW, 0), zero,
        t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
        t3d_pvs_src(PVS_T, 0, PVS_XYZW, 0),
        t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0), zero,
    };
    R500PvsState st;

    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 3);          /* slot 0 JSR */
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_LW, 0 | 3u << 16);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_ADDRS_UW, 4 | 1u << 16);
    run(h, w, G_N_ELEMENTS(w) / 4, in, &st);
    g_assert_cmpfloat(st.temp[1][0], ==, 13.0f);
    g_assert_cmpfloat(st.temp[3][2], ==, 13.0f);
    g_assert_cmpfloat(st.temp[0][3], ==, 49.0f);
    test_host_free(h);
}

/*
 * The ops no source defines (docs/3d.md): VE_COND_WRITE_* and the clamped
 * POWs are reported once as unimplemented, with a defined outcome:
 * COND_WRITE leaves its destination as it was (it used to write 0), the
 * clamped POW computes the power.
 */
static void test_unmodelled_ops(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const float in[3][4] = { { 7, 7, 7, 7 }, { 0, 0, 0, 0 },
                             { 5, 5, 5, 5 } };
    const uint32_t zero = t3d_pvs_src(PVS_V, 0, PVS_ZERO4, 0);
    R500PvsState st;

    for (unsigned op = VE_COND_WRITE_EQ; op <= VE_COND_WRITE_NEQ; op++) {
        uint32_t w[] = {
            t3d_pvs_dst(VE_ADD, false, PVS_DT, 0, 0xF),
            t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0), zero, zero,
            t3d_pvs_dst(op, false, PVS_DT, 0, 0xF),
            t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0),
            t3d_pvs_src(PVS_V, 2, PVS_XYZW, 0),
            t3d_pvs_src(PVS_V, 2, PVS_XYZW, 0),
        };

        run(h, w, 2, in, &st);
        assert_vec(st.temp[0], 7, 7, 7, 7);
    }
    g_assert_cmpuint(test_host_count_logs(h, "VE_COND_WRITE"), ==, 1);
    for (unsigned op = ME_POW_CLAMP_B; op <= ME_POW_CLAMP_01; op++) {
        const float a[4] = { 2.0f }, c[4] = { 3.0f }, z[4] = { 0 };
        float r[4];

        op1(h, op, true, a, z, c, r);
        assert_vec(r, 8, 8, 8, 8);
    }
    g_assert_cmpuint(test_host_count_logs(h, "not modelled"), ==, 1);
    g_assert_cmpuint(h->chip.unimp_events, ==, 1);
    test_host_free(h);
}

/*
 * An indexed grid as Mesa draws a mesh: rows of 129 vertices, each
 * triangle of a cell taking two from its row and one or two from the
 * next.  The post-transform cache keeps a row until the next is done, so
 * every vertex is shaded once (a cache of 32 slots shaded 1024 for the
 * 387: index and index + 129 shared a slot).
 */
#define MESH_W 128
#define MESH_ROWS 3
#define MESH_VB 0x400000u

static void test_vertex_reuse(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    uint32_t *idx = g_new(uint32_t, MESH_W * (MESH_ROWS - 1) * 6), n = 0;
    R500DrawCmd cmd = {
        .opcode = 0x34, .source = R500_DRAW_INDICES, .prim_type = 4,
        .index32 = true, .num_arrays = 1,
        .arrays = { { .addr = MESH_VB, .size = 8, .stride = 8 } },
    };
    uint64_t shaded0;

    t3d_setup(h);
    for (unsigned j = 0; j < MESH_ROWS; j++) {
        for (unsigned i = 0; i <= MESH_W; i++) {
            const float in[8] = { i * 0.5f, j * 8.0f, 0.5f, 1, 1, 1, 1, 1 };

            for (unsigned c = 0; c < 8; c++) {
                uint32_t le = GUINT32_TO_LE(t3d_fbits(in[c]));

                memcpy(h->vram + MESH_VB +
                       ((j * (MESH_W + 1) + i) * 8 + c) * 4, &le, 4);
            }
        }
    }
    for (unsigned j = 0; j + 1 < MESH_ROWS; j++) {
        for (unsigned i = 0; i < MESH_W; i++) {
            uint32_t a = j * (MESH_W + 1) + i;
            const uint32_t cell[6] = {
                a, a + 1, a + MESH_W + 2, a, a + MESH_W + 2, a + MESH_W + 1,
            };

            for (unsigned k = 0; k < 6; k++) {
                idx[n++] = GUINT32_TO_LE(cell[k]);
            }
        }
    }
    cmd.num_vertices = n;
    cmd.data = idx;
    cmd.data_dwords = n;
    cmd.vf_cntl = 4 | 1u << 4 | 1u << 11 | n << 16;
    shaded0 = s->vap.shaded;
    r500_3d_draw(s, &cmd);
    g_assert_false(r500_3d_draw_stopped(s));
    g_assert_cmpuint(s->vap.shaded - shaded0, ==, MESH_ROWS * (MESH_W + 1));
    g_assert_cmphex(t3d_px(h, 10, 4), !=, 0);
    g_free(idx);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pvs/upload", test_upload);
    g_test_add_func("/pvs/tgsi-ops", test_tgsi_ops);
    g_test_add_func("/pvs/tgsi-special", test_tgsi_special);
    g_test_add_func("/pvs/jsr", test_jsr);
    g_test_add_func("/pvs/unmodelled-ops", test_unmodelled_ops);
    g_test_add_func("/pvs/arl-relative", test_arl_relative);
    g_test_add_func("/pvs/const-window", test_const_window);
    g_test_add_func("/pvs/loop-break", test_loop_break);
    g_test_add_func("/pvs/bad-range", test_bad_range);
    g_test_add_func("/pvs/contract/endless-vertex", test_endless_vertex);
    g_test_add_func("/pvs/contract/endless-vertex-draw",
                    test_endless_vertex_draw);
    g_test_add_func("/pvs/contract/upload-past-code", test_upload_past_code);
    g_test_add_func("/pvs/vertex-reuse", test_vertex_reuse);
    return g_test_run();
}
