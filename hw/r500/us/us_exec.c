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

typedef float Chan[4];          /* one channel of the four pixels */

static inline float mul(bool ztae, float a, float b)
{
    /* US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO: 0 * inf = 0 (2.9) */
    return ztae && (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}

/*
 * The channels an operand selects: R G B A of a source (0-3), or the
 * constants of swizzles 4-7 (0, 0.5, 1, 0).
 */
static const float k_swz[8][4] = {
    [5] = { 0.5f, 0.5f, 0.5f, 0.5f }, [6] = { 1.0f, 1.0f, 1.0f, 1.0f },
};

/*
 * The sources of one ALU instruction: src0-2 and the presubtract result
 * (3), by channel RGBA.  Temporaries are used in place (every read of an
 * instruction happens before its writes); constants and presubtract
 * results are materialised in buf.  Only the channels the instruction's
 * operands select are set up (R500UsInst.src_need, us.c).
 */
typedef struct AluSrc {
    const float *c[4][4];
    Chan buf[4][4];
} AluSrc;

static void alu_src_load(const R500Us *u, const R500UsInst *in, int al,
                         AluSrc *s)
{
    for (int n = 0; n < 3; n++) {
        for (int c = 0; c < 4; c++) {
            const R500UsAddr *a = c < 3 ? &in->rgb_addr[n] : &in->alpha_addr[n];
            int idx;
            float v;

            if (!(in->src_need & R500_US_NEED(n, c))) {
                continue;
            }
            idx = a->index + (a->rel ? al : 0);
            if (a->kind == R500_US_SRC_TEMP) {
                s->c[n][c] = u->q.t[idx & (R500_US_TEMPS - 1)][c];
                continue;
            }
            /* an inline constant supplies every channel (open question 2) */
            v = a->kind == R500_US_SRC_CONST
                ? u->kconst[idx & (R500_US_CONSTS - 1)][c] : a->inline_val;
            s->buf[n][c][0] = s->buf[n][c][1] = s->buf[n][c][2] =
                s->buf[n][c][3] = v;
            s->c[n][c] = s->buf[n][c];
        }
    }
    for (int c = 0; c < 4; c++) {
        unsigned op = c < 3 ? in->rgb_srcp : in->alpha_srcp;
        const float *s0 = s->c[0][c], *s1 = s->c[1][c];
        float *d = s->buf[3][c];

        if (!(in->src_need & R500_US_NEED(3, c))) {
            continue;
        }
        for (int p = 0; p < 4; p++) {
            switch (op) {
            case 0: d[p] = 1.0f - 2.0f * s0[p]; break;
            case 1: d[p] = s1[p] - s0[p]; break;
            case 2: d[p] = s1[p] + s0[p]; break;
            default: d[p] = 1.0f - s0[p]; break;
            }
        }
        s->c[3][c] = d;
    }
}

/*
 * Operand channel: select, swizzle (0 R 1 G 2 B 3 A 4 0 5 0.5 6 1), mod;
 * the result is the source itself when there is no modifier.
 */
static inline const float *operand(const AluSrc *s, unsigned sel, unsigned swz,
                            unsigned mod, float *buf)
{
    const float *v = swz < 4 ? s->c[sel][swz] : k_swz[swz & 7];

    switch (mod) {
    case 0:
        return v;
    case 1:
        for (int p = 0; p < 4; p++) {
            buf[p] = -v[p];
        }
        break;
    case 2:
        for (int p = 0; p < 4; p++) {
            buf[p] = fabsf(v[p]);
        }
        break;
    default:
        for (int p = 0; p < 4; p++) {
            buf[p] = -fabsf(v[p]);
        }
        break;
    }
    return buf;
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

static const float omod_k[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };

/*
 * OMOD (m 7: none) and clamp of one channel of results.  OMOD 0 multiplies
 * by one, which changes nothing but a signalling NaN: only the ops that
 * pass a source through unchanged (select) can produce one.
 */
static inline void finish(unsigned m, bool clamp, bool select, float *v)
{
    if (m < 7 && (m || select)) {
        float k = omod_k[m];

        for (int p = 0; p < 4; p++) {
            v[p] *= k;
        }
    }
    if (clamp) {
        for (int p = 0; p < 4; p++) {
            v[p] = clamp01(v[p]);
        }
    }
}

/* The ops whose result may be a source passed through. */
static inline bool alpha_select(unsigned op)
{
    return op == R500_US_A_MIN || op == R500_US_A_MAX ||
           op == R500_US_A_CND || op == R500_US_A_CMP;
}

static inline bool rgb_select(unsigned op)
{
    return op == R500_US_RGB_MIN || op == R500_US_RGB_MAX ||
           op == R500_US_RGB_CND || op == R500_US_RGB_CMP;
}

/* a * b + c over the four pixels */
static inline void mad4(bool ztae, const float *a, const float *b,
                        const float *c, float *d)
{
    if (ztae) {
        /* branch-free, so the compiler keeps it in vector registers */
        for (int p = 0; p < 4; p++) {
            float m = a[p] * b[p];

            d[p] = ((a[p] == 0.0f) | (b[p] == 0.0f) ? 0.0f : m) + c[p];
        }
    } else {
        for (int p = 0; p < 4; p++) {
            d[p] = a[p] * b[p] + c[p];
        }
    }
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

/*
 * Store one channel of results into dst for the pixels that execute (or
 * all, WRITE_INACTIVE) and whose predicate passes.
 */
static void write_chan(const UsFlow *f, const R500UsInst *in, unsigned sel,
                       bool inv, int c, float *dst, const float *v)
{
    if (!sel && (f->active == 0xF || in->write_inactive)) {
        memcpy(dst, v, sizeof(Chan));
        return;
    }
    for (int p = 0; p < 4; p++) {
        if (us_live(f, in, p) && pred_ok(f->pred, sel, inv, c, p)) {
            dst[p] = v[p];
        }
    }
}

static void exec_alu(R500Chip *s, const R500UsInst *in, UsFlow *f)
{
    bool (*pred)[4] = f->pred;
    R500Us *u = &s->us;
    R500UsQuad *q = &u->q;
    bool ztae = u->zero_times_anything;
    AluSrc src;
    Chan abuf[3][3], bbuf[3][3], cbuf[3][3], mbuf[3];
    const float *a[3], *b[3], *c[3], *aa, *ab, *ac;
    Chan rgb[3], alpha, dot;
    unsigned rop = in->rgb_opcode, aop = in->alpha_opcode;
    int al = f->loops ? f->loop[f->loops - 1].al : 0;

    alu_src_load(u, in, al, &src);
    for (int ch = 0; ch < 3; ch++) {
        a[ch] = operand(&src, in->rgb_op[0].sel, in->rgb_op[0].swz[ch],
                        in->rgb_op[0].mod, abuf[0][ch]);
        b[ch] = operand(&src, in->rgb_op[1].sel, in->rgb_op[1].swz[ch],
                        in->rgb_op[1].mod, bbuf[0][ch]);
        c[ch] = operand(&src, in->rgb_op[2].sel, in->rgb_op[2].swz[ch],
                        in->rgb_op[2].mod, cbuf[0][ch]);
    }
    aa = operand(&src, in->alpha_op[0].sel, in->alpha_op[0].swz[0],
                 in->alpha_op[0].mod, abuf[1][0]);
    ab = operand(&src, in->alpha_op[1].sel, in->alpha_op[1].swz[0],
                 in->alpha_op[1].mod, bbuf[1][0]);
    ac = operand(&src, in->alpha_op[2].sel, in->alpha_op[2].swz[0],
                 in->alpha_op[2].mod, cbuf[1][0]);

    /* The dot product both units may use. */
    if (rop == R500_US_RGB_DP3 || rop == R500_US_RGB_DP4 || rop == R500_US_RGB_D2A || aop == R500_US_A_DP) {
        for (int p = 0; p < 4; p++) {
            float d = mul(ztae, a[0][p], b[0][p]) +
                      mul(ztae, a[1][p], b[1][p]);

            if (rop == R500_US_RGB_D2A) {
                dot[p] = d + c[2][p];
            } else {
                d += mul(ztae, a[2][p], b[2][p]);
                /* DP4 takes the fourth term from the alpha unit's A and B */
                dot[p] = rop == R500_US_RGB_DP3 ? d : d + mul(ztae, aa[p], ab[p]);
            }
        }
    }

    /* Alpha unit. */
    switch (aop) {
    case R500_US_A_MAD:
        mad4(ztae, aa, ab, ac, alpha);
        break;
    case R500_US_A_DP:
        memcpy(alpha, dot, sizeof(Chan));
        break;
    case R500_US_A_MIN:
        for (int p = 0; p < 4; p++) {
            alpha[p] = aa[p] < ab[p] ? aa[p] : ab[p];
        }
        break;
    case R500_US_A_MAX:
        for (int p = 0; p < 4; p++) {
            alpha[p] = aa[p] >= ab[p] ? aa[p] : ab[p];
        }
        break;
    case R500_US_A_CND:
        for (int p = 0; p < 4; p++) {
            alpha[p] = ac[p] > 0.5f ? aa[p] : ab[p];
        }
        break;
    case R500_US_A_CMP:
        for (int p = 0; p < 4; p++) {
            alpha[p] = ac[p] >= 0.0f ? aa[p] : ab[p];
        }
        break;
    case R500_US_A_MDH:
    case R500_US_A_MDV: {
        /* A from the top-left pixel, C from its right/lower neighbour */
        const float *sa = operand(&src, 0, 3, in->alpha_op[0].mod, mbuf[0]);
        const float *sc = operand(&src, 0, 3, in->alpha_op[2].mod, mbuf[1]);
        float n = sc[aop == R500_US_A_MDH ? 1 : 2];

        for (int p = 0; p < 4; p++) {
            alpha[p] = mul(ztae, sa[0], ab[p]) + n;
        }
        break;
    }
    default:
        for (int p = 0; p < 4; p++) {
            float x = aa[p], v;

            switch (aop) {
            case R500_US_A_FRC: v = x - floorf(x); break;
            case R500_US_A_EX2: v = exp2f(x); break;
            case R500_US_A_LN2: v = log2f(x); break;
            case R500_US_A_RCP: v = 1.0f / x; break;
            case R500_US_A_RSQ: v = 1.0f / sqrtf(x); break;
            case R500_US_A_SIN: v = sinf(x * 2.0f * (float)M_PI); break;
            case R500_US_A_COS: v = cosf(x * 2.0f * (float)M_PI); break;
            default: v = 0.0f; break;
            }
            alpha[p] = v;
        }
        break;
    }
    finish(in->alpha_omod, in->alpha_clamp, alpha_select(aop), alpha);

    /* RGB unit. */
    for (int ch = 0; ch < 3; ch++) {
        const float *x = a[ch], *y = b[ch], *z = c[ch];
        float *v = rgb[ch];

        switch (rop) {
        case R500_US_RGB_MAD:
            mad4(ztae, x, y, z, v);
            break;
        case R500_US_RGB_DP3:
        case R500_US_RGB_DP4:
        case R500_US_RGB_D2A:
            memcpy(v, dot, sizeof(Chan));
            break;
        case R500_US_RGB_MIN:
            for (int p = 0; p < 4; p++) {
                v[p] = x[p] < y[p] ? x[p] : y[p];
            }
            break;
        case R500_US_RGB_MAX:
            for (int p = 0; p < 4; p++) {
                v[p] = x[p] >= y[p] ? x[p] : y[p];
            }
            break;
        case R500_US_RGB_CND:
            for (int p = 0; p < 4; p++) {
                v[p] = z[p] > 0.5f ? x[p] : y[p];
            }
            break;
        case R500_US_RGB_CMP:
            for (int p = 0; p < 4; p++) {
                v[p] = z[p] >= 0.0f ? x[p] : y[p];
            }
            break;
        case R500_US_RGB_FRC:
            for (int p = 0; p < 4; p++) {
                v[p] = x[p] - floorf(x[p]);
            }
            break;
        case R500_US_RGB_SOP:
            memcpy(v, alpha, sizeof(Chan));
            break;
        case R500_US_RGB_MDH:
        case R500_US_RGB_MDV: {
            /* channel ch of src0, whatever the swizzle */
            const float *sa = operand(&src, 0, ch, in->rgb_op[0].mod,
                                      mbuf[0]);
            const float *sc = operand(&src, 0, ch, in->rgb_op[2].mod,
                                      mbuf[1]);
            float n = sc[rop == R500_US_RGB_MDH ? 1 : 2];

            for (int p = 0; p < 4; p++) {
                v[p] = mul(ztae, sa[0], y[p]) + n;
            }
            break;
        }
        default:
            memset(v, 0, sizeof(Chan));
            break;
        }
        if (rop != R500_US_RGB_SOP) {
            finish(in->rgb_omod, in->rgb_clamp, rgb_select(rop), v);
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
