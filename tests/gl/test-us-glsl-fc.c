/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GLSL translation of US programs with flow control (us_glsl_fc.c)
 * against soft (us_exec.c), as test-us-glsl.c does for straight-line
 * programs (us-glsl-host.c): seeded random structured programs (branches
 * diverging per pixel, nested loops with aL-relative addresses, breaks,
 * continues, calls) and FC instructions of random fields; the
 * instruction bound, exactly and statically; the nesting limits; the
 * uncovered pixels of a quad in the votes.
 */
#include <string.h>

#include "us-glsl-host.h"

/* ---- Flow-control programs ---- */

#define GEN_MAX 64              /* instructions of a generated program */

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!gl_up()) {
        return 1;
    }
    g_test_add_func("/us-glsl/random-flow", test_random_flow);
    g_test_add_func("/us-glsl/flow-bound", test_flow_bound);
    g_test_add_func("/us-glsl/flow-steps", test_flow_steps);
    g_test_add_func("/us-glsl/flow-deep", test_flow_deep);
    g_test_add_func("/us-glsl/flow-uncovered", test_flow_uncovered);
    return g_test_run();
}
