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

/* RGB_OP (reference 3.7) */
enum {
    RGB_MAD = 0, RGB_DP3 = 1, RGB_DP4 = 2, RGB_D2A = 3, RGB_MIN = 4,
    RGB_MAX = 5, RGB_CND = 7, RGB_CMP = 8, RGB_FRC = 9, RGB_SOP = 10,
    RGB_MDH = 11, RGB_MDV = 12,
};

/* ALPHA_OP */
enum {
    A_MAD = 0, A_DP = 1, A_MIN = 2, A_MAX = 3, A_CND = 5, A_CMP = 6,
    A_FRC = 7, A_EX2 = 8, A_LN2 = 9, A_RCP = 10, A_RSQ = 11, A_SIN = 12,
    A_COS = 13, A_MDH = 14, A_MDV = 15,
};

typedef float Chan[4];          /* one channel of the four pixels */

static inline float mul(bool ztae, float a, float b)
{
    /* US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO: 0 * inf = 0 (2.9) */
    return ztae && (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}

/* One register channel of the four pixels. */
static void us_read(const R500Us *u, const R500UsAddr *a, int c, int al,
                    Chan out)
{
    int idx = a->index + (a->rel ? al : 0);

    switch (a->kind) {
    case R500_US_SRC_TEMP:
        memcpy(out, u->q.t[idx & (R500_US_TEMPS - 1)][c], sizeof(Chan));
        break;
    case R500_US_SRC_CONST:
        out[0] = out[1] = out[2] = out[3] =
            u->kconst[idx & (R500_US_CONSTS - 1)][c];
        break;
    default:
        /* an inline constant supplies every channel (open question 2) */
        out[0] = out[1] = out[2] = out[3] = a->inline_val;
        break;
    }
}

static float presub(unsigned op, float s0, float s1)
{
    switch (op) {
    case 0: return 1.0f - 2.0f * s0;
    case 1: return s1 - s0;
    case 2: return s1 + s0;
    default: return 1.0f - s0;
    }
}

/* Operand channel: select, swizzle (0 R 1 G 2 B 3 A 4 0 5 0.5 6 1), mod. */
static void operand(Chan src[4][4], const R500UsOperand *op, unsigned swz,
                    Chan out)
{
    for (int p = 0; p < 4; p++) {
        float v;

        switch (swz) {
        case 0: case 1: case 2: case 3:
            v = src[op->sel][swz][p];
            break;
        case 5:
            v = 0.5f;
            break;
        case 6:
            v = 1.0f;
            break;
        default:
            v = 0.0f;
            break;
        }
        switch (op->mod) {
        case 1: v = -v; break;
        case 2: v = fabsf(v); break;
        case 3: v = -fabsf(v); break;
        }
        out[p] = v;
    }
}

static float omod(unsigned m, float v)
{
    static const float k[7] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f };

    return m < 7 ? v * k[m] : v;
}

static float clamp01(float v)
{
    return v > 1.0f ? 1.0f : v > 0.0f ? v : 0.0f;
}

static bool compare(unsigned op, float v)
{
    switch (op) {
    case 0: return v == 0.0f;
    case 1: return v < 0.0f;
    case 2: return v >= 0.0f;
    default: return v != 0.0f;
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
    v = sel == 1 ? pred[c][p] : pred[(sel - 2) & 3][p];
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

/* A write to pixel p happens if it is active (or WRITE_INACTIVE). */
static inline bool us_live(const UsFlow *f, const R500UsInst *in, int p)
{
    return ((f->active >> p) & 1) || in->write_inactive;
}

static void exec_alu(R500Chip *s, const R500UsInst *in, UsFlow *f)
{
    bool (*pred)[4] = f->pred;
    R500Us *u = &s->us;
    R500UsQuad *q = &u->q;
    bool ztae = u->zero_times_anything;
    Chan src[4][4];                     /* src0-2, srcp x RGBA */
    Chan a[3], b[3], c[3], aa, ab, ac;
    Chan rgb[3], alpha, dot;

    int al = f->loops ? f->loop[f->loops - 1].al : 0;

    for (int n = 0; n < 3; n++) {
        for (int ch = 0; ch < 3; ch++) {
            us_read(u, &in->rgb_addr[n], ch, al, src[n][ch]);
        }
        us_read(u, &in->alpha_addr[n], 3, al, src[n][3]);
    }
    for (int p = 0; p < 4; p++) {
        for (int ch = 0; ch < 3; ch++) {
            src[3][ch][p] = presub(in->rgb_srcp, src[0][ch][p], src[1][ch][p]);
        }
        src[3][3][p] = presub(in->alpha_srcp, src[0][3][p], src[1][3][p]);
    }
    for (int ch = 0; ch < 3; ch++) {
        operand(src, &in->rgb_op[0], in->rgb_op[0].swz[ch], a[ch]);
        operand(src, &in->rgb_op[1], in->rgb_op[1].swz[ch], b[ch]);
        operand(src, &in->rgb_op[2], in->rgb_op[2].swz[ch], c[ch]);
    }
    operand(src, &in->alpha_op[0], in->alpha_op[0].swz[0], aa);
    operand(src, &in->alpha_op[1], in->alpha_op[1].swz[0], ab);
    operand(src, &in->alpha_op[2], in->alpha_op[2].swz[0], ac);

    /* The dot product both units may use. */
    for (int p = 0; p < 4; p++) {
        float d = mul(ztae, a[0][p], b[0][p]) + mul(ztae, a[1][p], b[1][p]);

        if (in->rgb_opcode == RGB_D2A) {
            dot[p] = d + c[2][p];
        } else {
            d += mul(ztae, a[2][p], b[2][p]);
            /* DP4 takes the fourth term from the alpha unit's A and B */
            dot[p] = in->rgb_opcode == RGB_DP3 ? d
                                               : d + mul(ztae, aa[p], ab[p]);
        }
    }

    /* Alpha unit. */
    for (int p = 0; p < 4; p++) {
        float x = aa[p], v;

        switch (in->alpha_opcode) {
        case A_MAD: v = mul(ztae, x, ab[p]) + ac[p]; break;
        case A_DP: v = dot[p]; break;
        case A_MIN: v = x < ab[p] ? x : ab[p]; break;
        case A_MAX: v = x >= ab[p] ? x : ab[p]; break;
        case A_CND: v = ac[p] > 0.5f ? x : ab[p]; break;
        case A_CMP: v = ac[p] >= 0.0f ? x : ab[p]; break;
        case A_FRC: v = x - floorf(x); break;
        case A_EX2: v = exp2f(x); break;
        case A_LN2: v = log2f(x); break;
        case A_RCP: v = 1.0f / x; break;
        case A_RSQ: v = 1.0f / sqrtf(x); break;
        case A_SIN: v = sinf(x * 2.0f * (float)M_PI); break;
        case A_COS: v = cosf(x * 2.0f * (float)M_PI); break;
        case A_MDH:
        case A_MDV: {
            /* A from the top-left pixel, C from its right/lower neighbour */
            Chan sa, sc;
            R500UsOperand oa = in->alpha_op[0], oc = in->alpha_op[2];

            oa.sel = oc.sel = 0;
            operand(src, &oa, 3, sa);
            operand(src, &oc, 3, sc);
            v = mul(ztae, sa[0], ab[p]) +
                sc[in->alpha_opcode == A_MDH ? 1 : 2];
            break;
        }
        default: v = 0.0f; break;
        }
        v = omod(in->alpha_omod, v);
        alpha[p] = in->alpha_clamp ? clamp01(v) : v;
    }

    /* RGB unit. */
    for (int ch = 0; ch < 3; ch++) {
        Chan sa, sc;

        if (in->rgb_opcode == RGB_MDH || in->rgb_opcode == RGB_MDV) {
            R500UsOperand oa = in->rgb_op[0], oc = in->rgb_op[2];

            oa.sel = oc.sel = 0;
            operand(src, &oa, ch, sa);
            operand(src, &oc, ch, sc);
        }
        for (int p = 0; p < 4; p++) {
            float x = a[ch][p], y = b[ch][p], z = c[ch][p], v;

            switch (in->rgb_opcode) {
            case RGB_MAD: v = mul(ztae, x, y) + z; break;
            case RGB_DP3:
            case RGB_DP4:
            case RGB_D2A: v = dot[p]; break;
            case RGB_MIN: v = x < y ? x : y; break;
            case RGB_MAX: v = x >= y ? x : y; break;
            case RGB_CND: v = z > 0.5f ? x : y; break;
            case RGB_CMP: v = z >= 0.0f ? x : y; break;
            case RGB_FRC: v = x - floorf(x); break;
            case RGB_SOP: v = alpha[p]; break;
            case RGB_MDH: v = mul(ztae, sa[0], y) + sc[1]; break;
            case RGB_MDV: v = mul(ztae, sa[0], y) + sc[2]; break;
            default: v = 0.0f; break;
            }
            if (in->rgb_opcode != RGB_SOP) {
                v = omod(in->rgb_omod, v);
                v = in->rgb_clamp ? clamp01(v) : v;
            }
            rgb[ch][p] = v;
        }
    }

    /* Temporaries. */
    {
        int rd = (in->rgb_addrd + (in->rgb_addrd_rel ? al : 0)) &
                 (R500_US_TEMPS - 1);
        int ad = (in->alpha_addrd + (in->alpha_addrd_rel ? al : 0)) &
                 (R500_US_TEMPS - 1);

        for (int ch = 0; ch < 3; ch++) {
            if (in->rgb_wmask & (1u << ch)) {
                for (int p = 0; p < 4; p++) {
                    if (us_live(f, in, p) &&
                        pred_ok(pred, in->rgb_pred_sel, in->rgb_pred_inv, ch,
                                p)) {
                        q->t[rd][ch][p] = rgb[ch][p];
                    }
                }
            }
        }
        if (in->alpha_wmask) {
            for (int p = 0; p < 4; p++) {
                if (us_live(f, in, p) &&
                    pred_ok(pred, in->alpha_pred_sel, in->alpha_pred_inv, 3,
                            p)) {
                    q->t[ad][3][p] = alpha[p];
                }
            }
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
                for (int p = 0; p < 4; p++) {
                    if (us_live(f, in, p)) {
                        q->out[in->rgb_target][ch][p] = rgb[ch][p];
                    }
                }
                q->out_written |= 1u << in->rgb_target;
            }
        }
        if (in->alpha_omask) {
            for (int p = 0; p < 4; p++) {
                if (us_live(f, in, p)) {
                    q->out[in->alpha_target][3][p] = alpha[p];
                }
            }
            q->out_written |= 1u << in->alpha_target;
        }
        if (in->w_omask) {
            for (int p = 0; p < 4; p++) {
                if (us_live(f, in, p)) {
                    q->depth[p] = alpha[p];
                }
            }
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

static void exec_tex(R500Chip *s, const R500UsInst *in, const UsFlow *f)
{
    R500UsQuad *q = &s->us.q;
    float coord[4][4], res[4][4];
    unsigned wmask = in->rgb_wmask | (in->alpha_wmask << 3);

    for (int k = 0; k < 4; k++) {
        memcpy(coord[k], q->t[in->tex_src][in->tex_src_swz[k]], sizeof(Chan));
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
    default:
        r500_tx_sample_quad(s, in->tex_id, in->tex_op, in->tex_unscaled,
                            (const float (*)[4])coord, res);
        break;
    }
    for (int ch = 0; ch < 4; ch++) {
        if (wmask & (1u << ch)) {
            for (int p = 0; p < 4; p++) {
                if (us_live(f, in, p)) {
                    q->t[in->tex_dst][ch][p] = res[in->tex_dst_swz[ch]][p];
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
            if (!((f->active >> p) & 1) && (f->bcount[p] -= pop) < 0) {
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

/* One FC instruction; returns the next program counter. */
static uint32_t exec_fc(R500Chip *s, const R500UsInst *in, UsFlow *f,
                        uint32_t pc)
{
    const R500UsQuad *q = &s->us.q;
    uint32_t fi = in->fc_inst, fa = in->fc_addr;
    unsigned op = R500_FGET(fi, US_FC_INST, OP);
    unsigned func = R500_FGET(fi, US_FC_INST, JUMP_FUNC);
    bool jump_any = R500_FGET(fi, US_FC_INST, JUMP_ANY);
    bool bval = (s->regs[R_US_FC_BOOL_CONST / 4] >>
                 R500_FGET(fa, US_FC_ADDR, BOOL_ADDR)) & 1;
    uint32_t target = R500_FGET(fa, US_FC_ADDR, JUMP_ADDR);
    uint8_t voters, want = 0;
    bool jump;

    if (!R500_FGET(fa, US_FC_ADDR, JUMP_GLOBAL)) {
        target += R500_FGET(s->regs[R_US_CODE_OFFSET / 4], US_CODE_OFFSET,
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
    case 1: case 3: {   /* LOOP, REP: KR iterations, aL from KG step KB */
        uint32_t k = s->regs[R500_REGA_AT(US_FC_INT_CONST,
                                          R500_FGET(fa, US_FC_ADDR,
                                                    INT_ADDR)) / 4];
        if ((k & 0xFF) == 0) {
            jump = true;
        } else if (!jump) {
            if (f->loops == R500_US_LOOP_DEPTH) {
                jump = true;        /* too deep: skip the loop */
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
        }
        fc_bop(f, R500_FGET(fi, US_FC_INST, B_OP1),
               R500_FGET(fi, US_FC_INST, B_POP_CNT), voters, want, true);
        return target;
    }
    fc_bop(f, R500_FGET(fi, US_FC_INST, B_OP0),
           R500_FGET(fi, US_FC_INST, B_POP_CNT), voters, want, false);
    return pc + 1;
}

void r500_us_run_quad(R500Chip *s)
{
    R500Us *u = &s->us;
    const R500UsProg *p = &u->prog;
    R500UsQuad *q = &u->q;
    UsFlow f = { .active = 0xF };
    uint32_t pc = p->start, steps = 0;

    q->out_written = 0;
    q->depth_written = false;
    q->kill = 0;
    memset(q->out, 0, sizeof(q->out));
    u->quads++;
    while (pc >= p->start && pc <= p->end) {
        const R500UsInst *in = &p->inst[pc - p->start];
        uint32_t next = pc + 1;

        /* flow control is bounded per quad and per draw */
        if (++steps > R500_US_QUAD_STEPS || !u->budget) {
            if (!u->budget_logged) {
                u->budget_logged = true;
                r500_guest_error(s, "3D: fragment shader exceeds its "
                                 "instruction budget; pixels left as they "
                                 "are");
            }
            q->kill = 0xF;
            break;
        }
        u->budget--;
        u->insts++;
        switch (in->type) {
        case R500_US_ALU:
        case R500_US_OUT:
            exec_alu(s, in, &f);
            break;
        case R500_US_TEX:
            exec_tex(s, in, &f);
            break;
        default:
            next = exec_fc(s, in, &f, pc);
            break;
        }
        if (in->last && !p->uses_fc) {
            break;
        }
        pc = next;
    }
}
