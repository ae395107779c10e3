/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * US execution over one 2x2 quad, structure of arrays: every value is a
 * channel of four pixels, so the derivative ops (MDH/MDV) and texture LOD
 * see the whole quad.  Arithmetic is fp32.  r500-3d-pipeline.md 3.3-3.9.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../base/v4.h"

typedef float Chan[4];          /* one channel of the four pixels */

/* US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO: 0 * inf = 0 (2.9) */
static inline V4 mul4(bool ztae, V4 a, V4 b)
{
    V4 m = a * b;

    if (ztae) {
        V4i zero = (a == 0.0f) | (b == 0.0f);

        m = (V4)((V4i)m & ~zero);
    }
    return m;
}


/*
 * The source table of one ALU instruction: slot sel * 4 + channel for
 * src0-2 and the presubtract result (sel 3), then the constants of the
 * swizzles (R500_US_SLOT_*).  Only the channels the instruction's
 * operands select are loaded (R500UsInst.src_need, us.c).
 */
typedef struct AluSrc {
    V4 v[R500_US_SLOTS];
} AluSrc;

static void alu_src_load(const R500Us *u, const R500UsQuad *q,
                         const R500UsInst *in, int al, AluSrc *s)
{
    for (unsigned m = in->src_need & 0xFFF; m; m &= m - 1) {
        unsigned i = __builtin_ctz(m), n = i / 4, c = i % 4;
        const R500UsAddr *a = c < 3 ? &in->rgb_addr[n] : &in->alpha_addr[n];
        int idx = a->index + (a->rel ? al : 0);

        if (a->kind == R500_US_SRC_TEMP) {
            s->v[i] = ld4(q->t[idx & (R500_US_TEMPS - 1)][c]);
        } else if (a->kind == R500_US_SRC_CONST) {
            s->v[i] = splat(u->kconst[idx & (R500_US_CONSTS - 1)][c]);
        } else {
            /* an inline constant supplies every channel (open question 2) */
            s->v[i] = splat(a->inline_val);
        }
    }
    for (unsigned m = in->src_need >> 12; m; m &= m - 1) {
        unsigned c = __builtin_ctz(m);
        unsigned op = c < 3 ? in->rgb_srcp : in->alpha_srcp;
        V4 s0 = s->v[c], s1 = s->v[4 + c];

        switch (op) {
        case 0:
            s->v[12 + c] = 1.0f - 2.0f * s0;
            break;
        case 1:
            s->v[12 + c] = s1 - s0;
            break;
        case 2:
            s->v[12 + c] = s1 + s0;
            break;
        default:
            s->v[12 + c] = 1.0f - s0;
            break;
        }
    }
}

/*
 * Operand: a slot with its modifier (none, negate, abs, -abs) applied
 * to the sign bit, as the scalar -x and fabsf do.
 */
static inline V4 operand(const AluSrc *s, unsigned slot, unsigned mod)
{
    static const int32_t sign = INT32_MIN;
    V4i v = (V4i)s->v[slot];

    switch (mod) {
    case 0:
        return (V4)v;
    case 1:
        return (V4)(v ^ sign);
    case 2:
        return (V4)(v & ~sign);
    default:
        return (V4)(v | sign);
    }
}

static const float omod_k[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };

/* OMOD (m 7: none) and clamp of one channel of results. */
static inline V4 finish(unsigned m, bool clamp, V4 v)
{
    if (m < 7) {
        v *= omod_k[m];
    }
    return clamp ? clamp4(v) : v;
}

static bool compare(unsigned op, float v)
{
    switch (op) {
    case 0:
        return v == 0.0f;
    case 1:
        return v < 0.0f;
    case 2:
        return v >= 0.0f;
    default:
        return v != 0.0f;
    }
}

/* Per-pixel predicate result for a write of channel c (3.2 PRED_SEL). */
static bool pred_ok(const bool pred[4][4], unsigned sel, bool inv, int c,
                    int p)
{
    bool v;

    if (!sel) {
        return true;
    }
    v = pred[r500_us_pred_chan(sel, c)][p];
    return v != inv;
}

/* Flow-control state of the quad in flight (reference 3.10). */
typedef struct UsFlow {
    bool pred[4][4];            /* predicate bits R, G, B, A per pixel */
    bool alu_result[4];
    uint8_t active;             /* bit p: pixel p executes */
    int32_t bcount[4];          /* branch counters of inactive pixels */
    struct {
        uint32_t count;
        int32_t al, step;
    } loop[R500_US_LOOP_DEPTH];
    unsigned loops;
    uint32_t astack[R500_US_LOOP_DEPTH];
    unsigned addrs;
} UsFlow;

/* The loop register aL of the innermost loop (0 outside loops). */
static inline int us_al(const UsFlow *f)
{
    return f->loops ? f->loop[f->loops - 1].al : 0;
}

/* A write to pixel p happens if it is active (or WRITE_INACTIVE). */
static inline bool us_live(const UsFlow *f, const R500UsInst *in, int p)
{
    return ((f->active >> p) & 1) || in->write_inactive;
}

/*
 * Store one channel of results into dst for the pixels that execute (or
 * all, WRITE_INACTIVE) and whose predicate passes.
 */
static void write_chan(const UsFlow *f, const R500UsInst *in, unsigned sel,
                       bool inv, int c, float *dst, V4 v)
{
    if (!sel && (f->active == 0xF || in->write_inactive)) {
        st4(dst, v);
        return;
    }
    for (int p = 0; p < 4; p++) {
        if (us_live(f, in, p) && pred_ok(f->pred, sel, inv, c, p)) {
            dst[p] = v[p];
        }
    }
}

/* The alpha unit's result (before OMOD and clamp). */
static V4 alu_alpha(const R500UsInst *in, AluSrc *src, bool ztae, V4 aa,
                    V4 ab, V4 ac, V4 dot)
{
    unsigned aop = in->alpha_opcode;
    V4 alpha;

    switch (aop) {
    case R500_US_A_MAD:
        alpha = mul4(ztae, aa, ab) + ac;
        break;
    case R500_US_A_DP:
        alpha = dot;
        break;
    case R500_US_A_MIN:
        alpha = sel4(aa < ab, aa, ab);
        break;
    case R500_US_A_MAX:
        alpha = sel4(aa >= ab, aa, ab);
        break;
    case R500_US_A_CND:
        alpha = sel4(ac > 0.5f, aa, ab);
        break;
    case R500_US_A_CMP:
        alpha = sel4(ac >= 0.0f, aa, ab);
        break;
    case R500_US_A_MDH:
    case R500_US_A_MDV: {
        /* A from the top-left pixel, C from its right/lower neighbour */
        V4 sa = operand(src, 3, in->alpha_op[0].mod);
        V4 sc = operand(src, 3, in->alpha_op[2].mod);

        alpha = mul4(ztae, splat(sa[0]), ab) +
                splat(sc[aop == R500_US_A_MDH ? 1 : 2]);
        break;
    }
    default:
        for (int p = 0; p < 4; p++) {
            float x = aa[p], v;

            switch (aop) {
            case R500_US_A_FRC:
                v = x - floorf(x);
                break;
            case R500_US_A_EX2:
                v = exp2f(x);
                break;
            case R500_US_A_LN2:
                v = log2f(x);
                break;
            case R500_US_A_RCP:
                v = 1.0f / x;
                break;
            case R500_US_A_RSQ:
                v = 1.0f / sqrtf(x);
                break;
            case R500_US_A_SIN:
                v = sinf(x * 2.0f * (float)M_PI);
                break;
            case R500_US_A_COS:
                v = cosf(x * 2.0f * (float)M_PI);
                break;
            default:
                v = 0.0f;
                break;
            }
            alpha[p] = v;
        }
        break;
    }
    return alpha;
}

/*
 * The results to the temporaries, the ALU result bit, and the outputs
 * (OUT) or the predicate bits (ALU with OMASK).
 */
static void alu_store(R500Worker *w, const R500UsInst *in, UsFlow *f, int al,
                      const V4 rgb[3], V4 alpha)
{
    bool (*pred)[4] = f->pred;
    R500UsQuad *q = &w->q;

    /* Temporaries. */
    {
        int rd = (in->rgb_addrd + (in->rgb_addrd_rel ? al : 0)) &
                 (R500_US_TEMPS - 1);
        int ad = (in->alpha_addrd + (in->alpha_addrd_rel ? al : 0)) &
                 (R500_US_TEMPS - 1);

        for (int ch = 0; ch < 3; ch++) {
            if (in->rgb_wmask & (1u << ch)) {
                write_chan(f, in, in->rgb_pred_sel, in->rgb_pred_inv, ch,
                           q->t[rd][ch], rgb[ch]);
            }
        }
        if (in->alpha_wmask) {
            write_chan(f, in, in->alpha_pred_sel, in->alpha_pred_inv, 3,
                       q->t[ad][3], alpha);
        }
    }
    /* The ALU result bit for the next FC instruction (3.8). */
    if (in->alu_wmask) {
        for (int p = 0; p < 4; p++) {
            if ((f->active >> p) & 1) {
                f->alu_result[p] = compare(in->alu_result_op,
                                           in->alu_result_sel ? alpha[p]
                                                              : rgb[0][p]);
            }
        }
    }

    if (in->type == R500_US_OUT) {
        for (int ch = 0; ch < 3; ch++) {
            if (in->rgb_omask & (1u << ch)) {
                write_chan(f, in, 0, false, ch, q->out[in->rgb_target][ch],
                           rgb[ch]);
                q->out_written |= 1u << in->rgb_target;
            }
        }
        if (in->alpha_omask) {
            write_chan(f, in, 0, false, 3, q->out[in->alpha_target][3],
                       alpha);
            q->out_written |= 1u << in->alpha_target;
        }
        if (in->w_omask) {
            write_chan(f, in, 0, false, 3, q->depth, alpha);
            q->depth_written = true;
        }
        return;
    }
    /* ALU with OMASK: set predicate bits from the results (3.8). */
    for (int p = 0; p < 4; p++) {
        if (!((f->active >> p) & 1)) {
            continue;
        }
        for (int ch = 0; ch < 3; ch++) {
            if (in->rgb_omask & (1u << ch)) {
                pred[ch][p] = compare(in->rgb_target, rgb[ch][p]);
            }
        }
        if (in->alpha_omask) {
            pred[3][p] = compare(in->alpha_target, alpha[p]);
        }
    }
}

static void exec_alu(R500Worker *w, const R500UsInst *in, UsFlow *f,
                     AluSrc *src)
{
    const R500Us *u = w->ctx->us;
    R500UsQuad *q = &w->q;
    bool ztae = u->zero_times_anything;
    V4 a[3], b[3], c[3], aa, ab, ac, rgb[3], alpha, dot = splat(0.0f);
    unsigned rop = in->rgb_opcode, aop = in->alpha_opcode;
    int al = us_al(f);

    alu_src_load(u, q, in, al, src);
    for (int ch = 0; ch < 3; ch++) {
        a[ch] = operand(src, in->rgb_slot[0][ch], in->rgb_op[0].mod);
        b[ch] = operand(src, in->rgb_slot[1][ch], in->rgb_op[1].mod);
        c[ch] = operand(src, in->rgb_slot[2][ch], in->rgb_op[2].mod);
    }
    aa = operand(src, in->alpha_slot[0], in->alpha_op[0].mod);
    ab = operand(src, in->alpha_slot[1], in->alpha_op[1].mod);
    ac = operand(src, in->alpha_slot[2], in->alpha_op[2].mod);

    /* The dot product both units may use. */
    if (rop == R500_US_RGB_DP3 || rop == R500_US_RGB_DP4 ||
        rop == R500_US_RGB_D2A || aop == R500_US_A_DP) {
        V4 d = mul4(ztae, a[0], b[0]) + mul4(ztae, a[1], b[1]);

        if (rop == R500_US_RGB_D2A) {
            dot = d + c[2];
        } else {
            d += mul4(ztae, a[2], b[2]);
            /* DP4 takes the fourth term from the alpha unit's A and B */
            dot = rop == R500_US_RGB_DP3 ? d : d + mul4(ztae, aa, ab);
        }
    }

    alpha = alu_alpha(in, src, ztae, aa, ab, ac, dot);
    alpha = finish(in->alpha_omod, in->alpha_clamp, alpha);

    /* RGB unit. */
    for (int ch = 0; ch < 3; ch++) {
        V4 x = a[ch], y = b[ch], z = c[ch], v;

        switch (rop) {
        case R500_US_RGB_MAD:
            v = mul4(ztae, x, y) + z;
            break;
        case R500_US_RGB_DP3:
        case R500_US_RGB_DP4:
        case R500_US_RGB_D2A:
            v = dot;
            break;
        case R500_US_RGB_MIN:
            v = sel4(x < y, x, y);
            break;
        case R500_US_RGB_MAX:
            v = sel4(x >= y, x, y);
            break;
        case R500_US_RGB_CND:
            v = sel4(z > 0.5f, x, y);
            break;
        case R500_US_RGB_CMP:
            v = sel4(z >= 0.0f, x, y);
            break;
        case R500_US_RGB_FRC:
            for (int p = 0; p < 4; p++) {
                v[p] = x[p] - floorf(x[p]);
            }
            break;
        case R500_US_RGB_SOP:
            v = alpha;
            break;
        case R500_US_RGB_MDH:
        case R500_US_RGB_MDV: {
            /* channel ch of src0, whatever the swizzle */
            V4 sa = operand(src, ch, in->rgb_op[0].mod);
            V4 sc = operand(src, ch, in->rgb_op[2].mod);

            v = mul4(ztae, splat(sa[0]), y) +
                splat(sc[rop == R500_US_RGB_MDH ? 1 : 2]);
            break;
        }
        default:
            v = splat(0.0f);
            break;
        }
        rgb[ch] = rop == R500_US_RGB_SOP ? v
                  : finish(in->rgb_omod, in->rgb_clamp, v);
    }

    alu_store(w, in, f, al, rgb, alpha);
}

/* A TEX operand register, with aL added when its _REL bit is set. */
static inline unsigned tex_reg(unsigned addr, bool rel, int al)
{
    return (addr + (rel ? al : 0)) & (R500_US_TEMPS - 1);
}

/*
 * TEX (reference 3.9, seed 000): S/T/R/Q from SRC_ADDR (+ aL when
 * SRC_ADDR_REL) through the source selects, the result through the
 * destination selects into DST_ADDR (+ aL when DST_ADDR_REL).  DXDY takes
 * its gradients from DX_ADDR/DY_ADDR (US_TEX_ADDR_DXDY) the same way.
 * IGNORE_UNCOVERED: uncovered pixels fetch nothing, so their destination
 * keeps its value.
 */
static void exec_tex(R500Worker *w, const R500UsInst *in, const UsFlow *f)
{
    R500UsQuad *q = &w->q;
    float coord[4][4], res[4][4], grad[2][4][4];
    unsigned wmask = in->rgb_wmask | (in->alpha_wmask << 3);
    int al = us_al(f);
    unsigned src = tex_reg(in->tex_src, in->tex_src_rel, al);
    unsigned dst = tex_reg(in->tex_dst, in->tex_dst_rel, al);
    uint8_t fetch = in->tex_ignore_uncovered ? q->cover : 0xF;

    for (int k = 0; k < 4; k++) {
        memcpy(coord[k], q->t[src][in->tex_src_swz[k]], sizeof(Chan));
    }
    switch (in->tex_op) {
    case R500_TEX_NOP:
        return;
    case R500_TEX_KILL:
        for (int p = 0; p < 4; p++) {
            if (((f->active >> p) & 1) &&
                (coord[0][p] < 0.0f || coord[1][p] < 0.0f ||
                 coord[2][p] < 0.0f || coord[3][p] < 0.0f)) {
                q->kill |= 1u << p;
            }
        }
        return;
    case R500_TEX_DXDY: {
        unsigned dx = tex_reg(in->tex_dx, in->tex_dx_rel, al);
        unsigned dy = tex_reg(in->tex_dy, in->tex_dy_rel, al);

        for (int k = 0; k < 4; k++) {
            memcpy(grad[0][k], q->t[dx][in->tex_dx_swz[k]], sizeof(Chan));
            memcpy(grad[1][k], q->t[dy][in->tex_dy_swz[k]], sizeof(Chan));
        }
        r500_tx_sample_quad(w, in->tex_id, in->tex_op, in->tex_unscaled,
                            (const float (*)[4])coord,
                            (const float (*)[4][4])grad, res);
        break;
    }
    default:
        r500_tx_sample_quad(w, in->tex_id, in->tex_op, in->tex_unscaled,
                            (const float (*)[4])coord, NULL, res);
        break;
    }
    for (int ch = 0; ch < 4; ch++) {
        if (wmask & (1u << ch)) {
            for (int p = 0; p < 4; p++) {
                if (us_live(f, in, p) && ((fetch >> p) & 1)) {
                    q->t[dst][ch][p] = res[in->tex_dst_swz[ch]][p];
                }
            }
        }
    }
}

/* Branch-state operations B_OP0/B_OP1 (reference 3.10). */
static void fc_bop(UsFlow *f, unsigned op, unsigned pop, uint8_t voters,
                   uint8_t want, bool jumped)
{
    if (op == 1) {
        /* DECR: inactive pixels count down; negative ones wake up */
        for (int p = 0; p < 4; p++) {
            if ((f->active >> p) & 1) {
                continue;
            }
            f->bcount[p] -= pop;
            if (f->bcount[p] < 0) {
                f->active |= 1u << p;
                f->bcount[p] = 0;
            }
        }
    } else if (op == 2) {
        /* INCR: one level deeper; pixels that went the other way sleep */
        uint8_t off = voters & (jumped ? ~want : want);

        for (int p = 0; p < 4; p++) {
            if (!((f->active >> p) & 1)) {
                f->bcount[p]++;
            } else if ((off >> p) & 1) {
                f->active &= ~(1u << p);
                f->bcount[p] = 0;
            }
        }
    }
}

/*
 * Loops or calls nested past R500_US_LOOP_DEPTH: the loop is skipped, the
 * return address lost.  Said once per draw (it was silent before; the
 * bad-input contract in docs/reliability.md asks for a guest error).
 */
static void us_too_deep(R500Worker *w)
{
    if (r500_once(&w->s->draw_logged, R500_DRAW_LOG_US_DEPTH)) {
        r500_guest_error(w->s, "3D: fragment shader nests loops or calls "
                         "deeper than %u; the loop is skipped, the return "
                         "address lost", R500_US_LOOP_DEPTH);
    }
}

/* One FC instruction; returns the next program counter. */
static uint32_t exec_fc(R500Worker *w, const R500UsInst *in, UsFlow *f,
                        uint32_t pc)
{
    const uint32_t *regs = w->ctx->regs;
    const R500UsQuad *q = &w->q;
    uint32_t fi = in->fc_inst, fa = in->fc_addr;
    unsigned op = R500_FGET(fi, US_FC_INST, OP);
    unsigned func = R500_FGET(fi, US_FC_INST, JUMP_FUNC);
    bool jump_any = R500_FGET(fi, US_FC_INST, JUMP_ANY);
    bool bval = (regs[R_US_FC_BOOL_CONST / 4] >>
                 R500_FGET(fa, US_FC_ADDR, BOOL_ADDR)) & 1;
    uint32_t target = R500_FGET(fa, US_FC_ADDR, JUMP_ADDR);
    uint8_t voters, want = 0;
    bool jump;

    if (!R500_FGET(fa, US_FC_ADDR, JUMP_GLOBAL)) {
        target += R500_FGET(regs[R_US_CODE_OFFSET / 4], US_CODE_OFFSET,
                            OFFSET_ADDR);
    }
    if (R500_FGET(fi, US_FC_INST, B_ELSE)) {
        /* active <-> branch-inactive with a zero counter */
        for (int p = 0; p < 4; p++) {
            if ((f->active >> p) & 1) {
                f->active &= ~(1u << p);
                f->bcount[p] = 0;
            } else if (f->bcount[p] == 0) {
                f->active |= 1u << p;
            }
        }
    }
    voters = f->active;
    if (R500_FGET(fi, US_FC_INST, IGNORE_UNCOVERED)) {
        voters &= q->cover;
    }
    for (int p = 0; p < 4; p++) {
        /* the FC predicate is a replicate select of CMN RGB_PRED_SEL */
        bool pr = pred_ok(f->pred, in->rgb_pred_sel ? in->rgb_pred_sel : 5,
                          in->rgb_pred_inv, 3, p);
        unsigned bit = f->alu_result[p] << 2 | pr << 1 | bval;

        if ((voters >> p) & 1 && (func >> bit) & 1) {
            want |= 1u << p;
        }
    }
    jump = jump_any ? want != 0 : want == voters;

    switch (op) {
    case 1:
    case 3: {   /* LOOP, REP: KR iterations, aL from KG step KB */
        uint32_t k = regs[R500_REGA_AT(US_FC_INT_CONST,
                                          R500_FGET(fa, US_FC_ADDR,
                                                    INT_ADDR)) / 4];
        if ((k & 0xFF) == 0) {
            jump = true;
        } else if (!jump) {
            if (f->loops == R500_US_LOOP_DEPTH) {
                jump = true;        /* too deep: skip the loop */
                us_too_deep(w);
            } else {
                f->loop[f->loops].count = k & 0xFF;
                f->loop[f->loops].al = op == 1 ? (k >> 8) & 0xFF
                                     : f->loops ? f->loop[f->loops - 1].al : 0;
                f->loop[f->loops].step = op == 1 ? (int8_t)(k >> 16) : 0;
                f->loops++;
            }
        }
        break;
    }
    case 2: case 4:     /* ENDLOOP, ENDREP */
        if (f->loops) {
            f->loop[f->loops - 1].al += f->loop[f->loops - 1].step;
            if (--f->loop[f->loops - 1].count == 0) {
                jump = false;
            }
        } else {
            jump = false;
        }
        if (!jump && f->loops) {
            f->loops--;
        }
        break;
    case 5: case 6:     /* BREAKLOOP, BREAKREP: leaving pops the loop */
        if (jump && f->loops) {
            f->loops--;
        }
        break;
    default:            /* JUMP, CONTINUE */
        break;
    }
    if (jump) {
        unsigned aop = R500_FGET(fi, US_FC_INST, A_OP);

        if (aop == 1) {
            target = f->addrs ? f->astack[--f->addrs] : pc + 1;
        } else if (aop == 2 && f->addrs < R500_US_LOOP_DEPTH) {
            f->astack[f->addrs++] = pc + 1;
        } else if (aop == 2) {
            us_too_deep(w);         /* the push is lost */
        }
        fc_bop(f, R500_FGET(fi, US_FC_INST, B_OP1),
               R500_FGET(fi, US_FC_INST, B_POP_CNT), voters, want, true);
        return target;
    }
    fc_bop(f, R500_FGET(fi, US_FC_INST, B_OP0),
           R500_FGET(fi, US_FC_INST, B_POP_CNT), voters, want, false);
    return pc + 1;
}

void r500_us_run_quad(R500Worker *w)
{
    const R500UsProg *p = &w->ctx->us->prog;
    R500UsQuad *q = &w->q;
    UsFlow f = { .active = 0xF };
    /* the constant slots stay; instructions load the others they read */
    AluSrc srcs = { .v = {
        [R500_US_SLOT_HALF] = { 0.5f, 0.5f, 0.5f, 0.5f },
        [R500_US_SLOT_ONE] = { 1.0f, 1.0f, 1.0f, 1.0f },
    } };
    uint32_t pc = p->start, steps = 0;

    q->out_written = 0;
    q->depth_written = false;
    q->kill = 0;
    memset(q->out, 0, sizeof(q->out));
    w->st.us_quads++;
    while (pc >= p->start && pc <= p->end) {
        const R500UsInst *in = &p->inst[pc - p->start];
        uint32_t next = pc + 1;

        /* flow control is bounded per quad and per draw */
        if (++steps > R500_US_QUAD_STEPS || !w->us_budget) {
            if (r500_once(&w->s->draw_logged, R500_DRAW_LOG_US_BUDGET)) {
                r500_guest_error(w->s, "3D: fragment shader exceeds its "
                                 "instruction budget; pixels left as they "
                                 "are");
            }
            q->kill = 0xF;
            break;
        }
        w->us_budget--;
        w->st.us_insts++;
        switch (in->type) {
        case R500_US_ALU:
        case R500_US_OUT:
            exec_alu(w, in, &f, &srcs);
            break;
        case R500_US_TEX:
            exec_tex(w, in, &f);
            break;
        default:
            next = exec_fc(w, in, &f, pc);
            break;
        }
        if (in->last && !p->uses_fc) {
            break;
        }
        pc = next;
    }
}
