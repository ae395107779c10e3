/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PVS interpreter: one vertex at a time, in fp32, over the decoded
 * program (vap.c).  Opcodes and operand rules: r500-3d-pipeline.md 4.4;
 * the arithmetic follows the TGSI definitions of seed 004 (ARL, MOV via
 * ADD, LIT, RCP, RSQ, EXP, LOG, MUL, ADD, DP3 via DP4, DP4, DST, MIN, MAX,
 * SLT, SGE, MAD).  Flow control: VAP_PVS_FLOW_CNTL_* loops and jumps
 * (reference 2.2), bounded by the draw's instruction budget.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"

/* Flow-control slot types (VAP_PVS_FLOW_CNTL_OPC, 2 bits per slot). */
enum { FC_NONE = 0, FC_JUMP = 1, FC_LOOP = 2, FC_JSR = 3 };
#define FC_SLOTS        16
#define FC_LOOP_DEPTH   4

static float sat(float x)
{
    return x > 1.0f ? 1.0f : x > 0.0f ? x : 0.0f;   /* NaN -> 0 */
}

static float clamp_pow_exp(float e)
{
    return e < -128.0f ? -128.0f : e > 128.0f ? 128.0f : e;
}

/*
 * The predicate ops keep a nesting counter in a temporary (Mesa
 * radeon_vert_fc.c): 0 means "predicate true at this level", n > 0 that
 * the pixel is off for n levels.  They set the predicate bit and return the
 * new counter.
 */
static bool pvs_pred_op(const R500PvsInst *in, const float a[4],
                        const float b[4], bool *pred, float r[4])
{
    float v, x = a[0], cnt = a[3], cond = b[3];
    bool p;

    if (in->kind == R500_PVS_MATH) {
        switch (in->op) {
        case PVS_ME_PRED_SET_EQ:
            p = x == 0.0f;
            v = p ? 0.0f : 1.0f;
            break;
        case PVS_ME_PRED_SET_GT:
            p = x > 0.0f;
            v = p ? 0.0f : 1.0f;
            break;
        case PVS_ME_PRED_SET_GTE:
            p = x >= 0.0f;
            v = p ? 0.0f : 1.0f;
            break;
        case PVS_ME_PRED_SET_NEQ:
            p = x != 0.0f;
            v = p ? 0.0f : 1.0f;
            break;
        case PVS_ME_PRED_SET_CLR:
            p = false;
            v = INFINITY;
            break;
        case PVS_ME_PRED_SET_INV:
            /* ELSE: on at this level <-> off by exactly one level */
            p = x == 1.0f;
            v = x == 0.0f ? 1.0f : x == 1.0f ? 0.0f : x;
            break;
        case PVS_ME_PRED_SET_POP:
            v = x - 1.0f;
            p = v <= 0.0f;
            v = p ? 0.0f : v;
            break;
        case PVS_ME_PRED_SET_RESTORE:
            p = x == 0.0f;
            v = x;
            break;
        default:
            return false;
        }
    } else {
        bool c;

        switch (in->op) {
        case PVS_VE_PRED_SET_EQ_PUSH:
            c = cond == 0.0f;
            break;
        case PVS_VE_PRED_SET_GT_PUSH:
            c = cond > 0.0f;
            break;
        case PVS_VE_PRED_SET_GTE_PUSH:
            c = cond >= 0.0f;
            break;
        case PVS_VE_PRED_SET_NEQ_PUSH:
            c = cond != 0.0f;
            break;
        default:
            return false;
        }
        /* push: the counter (in w) goes one level deeper when off */
        if (cnt == 0.0f) {
            p = c;
            v = c ? 0.0f : 1.0f;
        } else {
            p = false;
            v = cnt + 1.0f;
        }
    }
    *pred = p;
    r[0] = r[1] = r[2] = r[3] = v;
    return true;
}

/* The math engine's ops (PVS_ME_*): one result in every channel. */
static void pvs_math(const R500PvsInst *in, const float a[4], const float b[4],
                     const float c[4], float r[4])
{
    float x = a[0];
    float v;

    switch (in->op) {
    case PVS_ME_EXP_BASE2_DX:
        /* TGSI EXP */
        r[0] = exp2f(floorf(x));
        r[1] = x - floorf(x);
        r[2] = exp2f(x);
        r[3] = 1.0f;
        return;
    case PVS_ME_LOG_BASE2_DX: {
        /* TGSI LOG */
        float ax = fabsf(x), fl = floorf(log2f(ax));
        r[0] = fl;
        r[1] = ax / exp2f(fl);
        r[2] = log2f(ax);
        r[3] = 1.0f;
        return;
    }
    case PVS_ME_LIGHT_COEFF_DX:
        /*
         * TGSI LIT on the original source (x, y, w): Mesa feeds
         * A = src.xw0y, B = src.yw0x, C = src.yx0w (reference 4.4), so
         * x = A.x, y = A.w, w = A.y.
         */
        r[0] = 1.0f;
        r[1] = MAX(a[0], 0.0f);
        r[2] = a[0] > 0.0f ? powf(MAX(a[3], 0.0f), clamp_pow_exp(a[1]))
                           : 0.0f;
        r[3] = 1.0f;
        return;
    case PVS_ME_EXP_BASEE_FF:
        v = expf(x);
        break;
    case PVS_ME_POWER_FUNC_FF:
    case PVS_ME_POWER_FUNC_FF_CLAMP_B:
    case PVS_ME_POWER_FUNC_FF_CLAMP_B1:
    case PVS_ME_POWER_FUNC_FF_CLAMP_01:
        /* base in A, exponent in C (Mesa) */
        v = powf(x, c[0]);
        break;
    case PVS_ME_RECIP_DX:
    case PVS_ME_RECIP_FF:
    case PVS_ME_RECIP_IEEE:
        v = 1.0f / x;
        break;
    case PVS_ME_RECIP_SQRT_DX:
    case PVS_ME_RECIP_SQRT_FF:
    case PVS_ME_RECIP_SQRT_IEEE:
        /* TGSI RSQ: 1 / sqrt(|x|) */
        v = 1.0f / sqrtf(fabsf(x));
        break;
    case PVS_ME_MULTIPLY:
        v = x * b[0];
        break;
    case PVS_ME_EXP_BASE2_FULL_DX:
        v = exp2f(x);
        break;
    case PVS_ME_LOG_BASE2_FULL_DX:
    case PVS_ME_LOG_BASE2_IEEE:
        v = log2f(fabsf(x));
        break;
    case PVS_ME_SIN:
        v = sinf(x);
        break;
    case PVS_ME_COS:
        v = cosf(x);
        break;
    default:
        v = 0.0f;
        break;
    }
    r[0] = r[1] = r[2] = r[3] = v;
    return;
}

/* The vector or math result of one instruction from its operands. */
void r500_pvs_exec(const R500PvsInst *in, const float a[4], const float b[4],
                   const float c[4], bool *pred, float r[4])
{
    if (in->kind != R500_PVS_MACRO && pvs_pred_op(in, a, b, pred, r)) {
        return;
    }

    if (in->kind == R500_PVS_MACRO) {
        /* 0: MADD, 1: M2X_ADD (reference 4.4) */
        float k = in->op == 1 ? 2.0f : 1.0f;
        for (int i = 0; i < 4; i++) {
            r[i] = k * a[i] * b[i] + c[i];
        }
        return;
    }
    if (in->kind == R500_PVS_MATH) {
        pvs_math(in, a, b, c, r);
        return;
    }
    switch (in->op) {
    case PVS_VE_DOT_PRODUCT: {
        float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        r[0] = r[1] = r[2] = r[3] = d;
        return;
    }
    case PVS_VE_DISTANCE_VECTOR:
        /* TGSI DST */
        r[0] = 1.0f;
        r[1] = a[1] * b[1];
        r[2] = a[2];
        r[3] = b[3];
        return;
    default:
        break;
    }
    for (int i = 0; i < 4; i++) {
        float v;

        switch (in->op) {
        case PVS_VE_MULTIPLY:
            v = a[i] * b[i];
            break;
        case PVS_VE_ADD:
            v = a[i] + b[i];
            break;
        case PVS_VE_MULTIPLY_ADD:
            v = a[i] * b[i] + c[i];
            break;
        case PVS_VE_FRACTION:
            v = a[i] - floorf(a[i]);
            break;
        case PVS_VE_MAXIMUM:
            v = a[i] >= b[i] ? a[i] : b[i];
            break;
        case PVS_VE_MINIMUM:
            v = a[i] < b[i] ? a[i] : b[i];
            break;
        case PVS_VE_SET_GREATER_THAN_EQUAL:
            v = a[i] >= b[i] ? 1.0f : 0.0f;
            break;
        case PVS_VE_SET_LESS_THAN:
            v = a[i] < b[i] ? 1.0f : 0.0f;
            break;
        case PVS_VE_MULTIPLYX2_ADD:
            v = 2.0f * a[i] * b[i] + c[i];
            break;
        case PVS_VE_MULTIPLY_CLAMP:
            v = sat(a[i] * b[i]);
            break;
        case PVS_VE_FLT2FIX_DX:
            v = floorf(a[i]);
            break;
        case PVS_VE_FLT2FIX_DX_RND:
            v = floorf(a[i] + 0.5f);
            break;
        case PVS_VE_SET_GREATER_THAN:
            v = a[i] > b[i] ? 1.0f : 0.0f;
            break;
        case PVS_VE_SET_EQUAL:
            v = a[i] == b[i] ? 1.0f : 0.0f;
            break;
        case PVS_VE_SET_NOT_EQUAL:
            v = a[i] != b[i] ? 1.0f : 0.0f;
            break;
        case PVS_VE_COND_MUX_EQ:
            v = a[i] == 0.0f ? b[i] : c[i];
            break;
        case PVS_VE_COND_MUX_GT:
            v = a[i] > 0.0f ? b[i] : c[i];
            break;
        case PVS_VE_COND_MUX_GTE:
            v = a[i] >= 0.0f ? b[i] : c[i];
            break;
        default:
            v = 0.0f;
            break;
        }
        r[i] = v;
    }
}

/* A source operand: register, relative addressing, swizzle, abs, negate. */
static void pvs_fetch(R500Chip *s, const R500PvsState *st,
                      const R500PvsSrc *src, float out[4])
{
    static const float zero[4];
    const float *reg = zero;
    int idx = src->index;

    if (src->addr_mode == 1) {
        idx += st->a0[src->addr_sel];
    } else if (src->addr_mode == 2) {
        idx += st->al;
    }
    switch (src->file) {
    case R500_PVS_SRC_TEMP:
        if (idx >= 0 && idx < R500_PVS_TEMPS) {
            reg = st->temp[idx];
        }
        break;
    case R500_PVS_SRC_ALT_TEMP:
        if (idx >= 0 && idx < R500_PVS_TEMPS) {
            reg = st->alt[idx];
        }
        break;
    case R500_PVS_SRC_INPUT:
        if (idx >= 0 && idx < R500_PVS_INPUTS) {
            reg = st->in[idx];
        }
        break;
    case R500_PVS_SRC_CONST: {
        uint32_t cc = s->regs[R_VAP_PVS_CONST_CNTL / 4];
        int max = R500_FGET(cc, VAP_PVS_CONST_CNTL, PVS_MAX_CONST_ADDR);

        /*
         * Addresses outside 0..MAX_CONST_ADDR read (0,0,0,0); the base
         * offset is added after that check (Mesa uploads a program's
         * constants at BASE_OFFSET with MAX = its constant count - 1).
         */
        if (idx < 0 || idx > max) {
            break;
        }
        idx += R500_FGET(cc, VAP_PVS_CONST_CNTL, PVS_CONST_BASE_OFFSET);
        if (idx < R500_PVS_CONSTS) {
            reg = (const float *)&s->vap.pvs_mem[(R500_PVS_CONST_BASE + idx)
                                                 * 4];
        }
        break;
    }
    }
    for (int i = 0; i < 4; i++) {
        float v = src->swz[i] < 4 ? reg[src->swz[i]] :
                  src->swz[i] == 5 ? 1.0f : 0.0f;

        if (src->abs) {
            v = fabsf(v);
        }
        if (src->neg & (1u << i)) {
            v = -v;
        }
        out[i] = v;
    }
}

static void pvs_write(R500PvsState *st, const R500PvsInst *in,
                      const float r[4])
{
    float (*file)[4];
    int idx = in->dst_index, n;
    float v[4];

    if (in->pred_enable && st->pred != in->pred_sense) {
        return;
    }
    if (in->dst_addr_mode == 1) {
        idx += st->a0[in->dst_addr_sel];
    } else if (in->dst_addr_mode == 2) {
        idx += st->al;
    }
    memcpy(v, r, sizeof(v));
    if ((in->kind != R500_PVS_MATH && in->ve_sat) ||
        (in->kind == R500_PVS_MATH && in->me_sat)) {
        for (int i = 0; i < 4; i++) {
            v[i] = sat(v[i]);
        }
    }
    switch (in->dst_file) {
    case R500_PVS_DST_TEMP:
        file = st->temp;
        n = R500_PVS_TEMPS;
        break;
    case R500_PVS_DST_ALT_TEMP:
        file = st->alt;
        n = R500_PVS_TEMPS;
        break;
    case R500_PVS_DST_OUT_REPL_X:
        v[1] = v[2] = v[3] = v[0];
        /* fall through */
    case R500_PVS_DST_OUT:
        file = st->out;
        n = R500_PVS_OUTPUTS;
        break;
    case R500_PVS_DST_A0:
        /* ARL: float to integer, toward minus infinity (seed 004) */
        for (int i = 0; i < 4; i++) {
            if (in->wmask & (1u << i)) {
                float f = floorf(v[i]);
                st->a0[i] = f > 4096.0f ? 4096 : f < -4096.0f ? -4096 :
                            (int32_t)f;
            }
        }
        return;
    default:
        return;     /* inputs are read-only; other files do not exist */
    }
    if (idx < 0 || idx >= n) {
        return;
    }
    for (int i = 0; i < 4; i++) {
        if (in->wmask & (1u << i)) {
            file[idx][i] = v[i];
        }
    }
}

/*
 * Operations whose behaviour no source read defines (r500-3d-pipeline.md
 * 4.4, docs/3d.md): PVS_VE_COND_WRITE_* ("conditional write": which operand is
 * compared and what is written is not documented) and the clamped
 * PVS_ME_POWER_FUNC_FF_CLAMP_* variants (what is clamped to what is not).
 * Reported once as unimplemented; the outcome is defined: COND_WRITE
 * writes nothing, the clamped POWs compute the unclamped power.  Returns
 * true when the instruction must not write.
 */
static bool pvs_unmodelled(R500Chip *s, const R500PvsInst *in)
{
    if (in->kind == R500_PVS_VECTOR && in->op >= PVS_VE_COND_WRITE_EQ &&
        in->op <= PVS_VE_COND_WRITE_NEQ) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_PVS_OP, "3D: PVS op %u "
                           "(VE_COND_WRITE) is not modelled (writes nothing)",
                           in->op);
        return true;
    }
    if (in->kind == R500_PVS_MATH && in->op >= PVS_ME_POWER_FUNC_FF_CLAMP_B &&
        in->op <= PVS_ME_POWER_FUNC_FF_CLAMP_01) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_PVS_OP, "3D: PVS math op %u "
                           "(clamped POW) is not modelled (computed "
                           "unclamped)", in->op);
    }
    return false;
}

/*
 * Flow control: a loop or subroutine in progress.  A LOOP slot runs its
 * body [RTN_INST, LAST_INST] count times; a JSR slot jumps to
 * LOOP_CNT_JMP_INST after ACT_ADRS and returns to RTN_INST after
 * LAST_INST (reference 2.2).
 */
typedef struct PvsLoop {
    int slot;
    bool call;                  /* a JSR, not a LOOP */
    uint32_t count;
} PvsLoop;

uint32_t r500_pvs_run(R500Chip *s, R500PvsState *st)
{
    const R500PvsProg *p = &s->vap.prog;
    uint32_t opc = s->regs[R_VAP_PVS_FLOW_CNTL_OPC / 4];
    PvsLoop loops[FC_LOOP_DEPTH];
    unsigned depth = 0;
    uint32_t pc = p->first, executed = 0;
    /* a vertex stops after 2^16 instructions, the draw after its budget */
    uint64_t budget = MIN(s->vap.inst_budget, R500_PVS_VERTEX_STEPS);

    st->al = 0;
    st->pred = false;
    memset(st->a0, 0, sizeof(st->a0));
    while (pc >= p->first && pc <= p->last && executed < budget) {
        const R500PvsInst *in = &p->inst[pc - p->first];
        float a[4], b[4], c[4], r[4];
        uint32_t next = pc + 1;

        executed++;
        if (!(in->kind == R500_PVS_VECTOR && in->op == PVS_VE_NO_OP) &&
            !(in->kind == R500_PVS_MATH && in->op == PVS_ME_NO_OP)) {
            bool pred = st->pred, skip = pvs_unmodelled(s, in);

            pvs_fetch(s, st, &in->src[0], a);
            pvs_fetch(s, st, &in->src[1], b);
            pvs_fetch(s, st, &in->src[2], c);
            r500_pvs_exec(in, a, b, c, &pred, r);
            if (!skip) {
                pvs_write(st, in, r);
            }
            st->pred = pred;
        }
        /* The end of the innermost loop body or subroutine. */
        if (depth) {
            PvsLoop *l = &loops[depth - 1];
            uint32_t uw = s->regs[R500_REGA_AT(VAP_PVS_FLOW_CNTL_ADDRS_UW,
                                               l->slot) / 4];
            uint32_t li = s->regs[R500_REGA_AT(VAP_PVS_FLOW_CNTL_LOOP_INDEX,
                                               l->slot) / 4];

            if (pc == (uw & 0xFFFF) && l->call) {
                next = uw >> 16;
                depth--;
            } else if (pc == (uw & 0xFFFF)) {
                st->al += (int8_t)(li >> 8);
                if (--l->count) {
                    next = uw >> 16;
                } else {
                    depth--;
                }
            }
        }
        /* A redirection after this instruction. */
        for (int i = 0; i < FC_SLOTS && opc; i++) {
            uint32_t type = (opc >> (2 * i)) & 3;
            uint32_t lw = s->regs[R500_REGA_AT(VAP_PVS_FLOW_CNTL_ADDRS_LW, i)
                                  / 4];

            if (type == FC_NONE || (lw & 0xFFFF) != pc) {
                continue;
            }
            if (type == FC_JUMP) {
                next = lw >> 16;
            } else if (type == FC_JSR && depth < FC_LOOP_DEPTH) {
                loops[depth++] = (PvsLoop){ .slot = i, .call = true };
                next = lw >> 16;
            } else if (type == FC_LOOP && depth < FC_LOOP_DEPTH &&
                       (lw >> 16)) {
                uint32_t li = s->regs[R500_REGA_AT(
                    VAP_PVS_FLOW_CNTL_LOOP_INDEX, i) / 4];
                uint32_t uw = s->regs[R500_REGA_AT(
                    VAP_PVS_FLOW_CNTL_ADDRS_UW, i) / 4];

                loops[depth++] = (PvsLoop){ .slot = i, .count = lw >> 16 };
                if (!(li >> 31)) {
                    st->al = li & 0xFF;
                }
                next = uw >> 16;
            }
            break;
        }
        pc = next;
    }
    /* still inside the program: it did not end */
    st->cut = pc >= p->first && pc <= p->last;
    return executed;
}
