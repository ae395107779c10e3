/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PVS program as GLSL, for the host-OpenGL renderer's vertex stage
 * on the host (DESIGN.md section 6, issue 19; gl/gl_vertex.c).  It
 * reads the decoded program of vap.c (the one decoder) and says in GLSL
 * what pvs.c does for one vertex: the same operations on the same
 * operands, `precise` so that no product is fused with the sum after it
 * (pvs.c never fuses), literals through a uniform 1 so that no product
 * with a literal zero is folded away.
 *
 * Straight-line programs only: with flow control (VAP_PVS_FLOW_CNTL_OPC
 * non-zero) the CPU runs the program, as for an address register used for
 * anything but constants, or an op pvs.c does not model (COND_WRITE, the
 * clamped POWs: pvs.c reports those).  Without flow control the loop
 * register aL is 0 throughout (pvs.c sets it only in loops), so
 * aL-relative operands are absolute ones.  Temporaries start at 0 for
 * every vertex; pvs.c keeps them from the vertex before, which only a
 * program reading a temporary before writing it can see.
 */
#include <glib.h>
#include <string.h>

#include "glsl.h"

static const char chan[4] = { 'x', 'y', 'z', 'w' };

/* An exact float literal, hidden from constant folding (us_glsl.c). */
static void lit(GString *g, float v)
{
    uint32_t b;

    memcpy(&b, &v, 4);
    g_string_append_printf(g, "(r500_one * uintBitsToFloat(0x%08xu))", b);
}

typedef struct PvsGlslCtx {
    R500Chip *s;
    R500PvsGlsl *info;
    int cmax, cbase;                    /* VAP_PVS_CONST_CNTL */
    bool consts, rel_consts;
    uint8_t temps[R500_PVS_TEMPS], alts[R500_PVS_TEMPS];
    uint32_t outs;                      /* outputs written */
    bool a0;
    const char *why;
} PvsGlslCtx;

/* The input's vertex attribute, listed on first use. */
static unsigned input_loc(PvsGlslCtx *c, unsigned reg)
{
    for (unsigned k = 0; k < c->info->ninputs; k++) {
        if (c->info->input[k] == reg) {
            return k;
        }
    }
    c->info->input[c->info->ninputs] = reg;
    return c->info->ninputs++;
}

/*
 * The register a source names, as a vec4 expression (pvs_fetch()):
 * outside its file it reads 0; a constant past PVS_MAX_CONST_ADDR too,
 * the base offset added after that check.
 */
static bool src_reg(PvsGlslCtx *c, const R500PvsSrc *src, GString *g)
{
    unsigned idx = src->index;

    if (src->addr_mode == 1 && src->file != R500_PVS_SRC_CONST) {
        c->why = "relative addressing of a temporary or an input";
        return false;
    }
    switch (src->file) {
    case R500_PVS_SRC_TEMP:
    case R500_PVS_SRC_ALT_TEMP:
        if (idx >= R500_PVS_TEMPS) {
            g_string_append(g, "vec4(0.0)");
        } else if (src->file == R500_PVS_SRC_TEMP) {
            c->temps[idx] = 1;
            g_string_append_printf(g, "t%u", idx);
        } else {
            c->alts[idx] = 1;
            g_string_append_printf(g, "u%u", idx);
        }
        return true;
    case R500_PVS_SRC_INPUT:
        if (idx >= R500_PVS_INPUTS) {
            g_string_append(g, "vec4(0.0)");
        } else {
            g_string_append_printf(g, "r500_i%u", input_loc(c, idx));
        }
        return true;
    default:
        if (src->addr_mode == 1) {
            c->rel_consts = true;
            g_string_append_printf(g, "r500_cst(%d + r500_a0.%c)", idx,
                                   chan[src->addr_sel & 3]);
        } else if ((int)idx > c->cmax || idx + c->cbase >= R500_PVS_CONSTS) {
            g_string_append(g, "vec4(0.0)");
        } else {
            c->consts = true;
            g_string_append_printf(g, "r500_c[%u]", idx + c->cbase);
        }
        return true;
    }
}

/* A source operand: swizzle with its 0 and 1 selects, abs, negation. */
static bool src_op(PvsGlslCtx *c, const R500PvsSrc *src, GString *g)
{
    GString *reg = g_string_new(NULL);
    bool ok = src_reg(c, src, reg);

    g_string_append(g, "vec4(");
    for (unsigned i = 0; i < 4 && ok; i++) {
        bool neg = src->neg >> i & 1;

        g_string_append(g, neg ? "-" : "");
        if (src->swz[i] < 4) {
            g_string_append_printf(g, src->abs ? "abs(%s.%c)" : "%s.%c",
                                   reg->str, chan[src->swz[i]]);
        } else {
            lit(g, src->swz[i] == 5 ? 1.0f : 0.0f);
        }
        g_string_append(g, i < 3 ? ", " : ")");
    }
    g_string_free(reg, true);
    return ok;
}

/*
 * The result r of a predicate op (pvs_pred_op()) and the new predicate
 * np; false when the op is not one.
 */
static bool pred_op(const R500PvsInst *in, GString *g)
{
    const char *set = NULL;

    if (in->kind == R500_PVS_MATH) {
        switch (in->op) {
        case PVS_ME_PRED_SET_EQ:
            set = "a.x == 0.0";
            break;
        case PVS_ME_PRED_SET_GT:
            set = "a.x > 0.0";
            break;
        case PVS_ME_PRED_SET_GTE:
            set = "a.x >= 0.0";
            break;
        case PVS_ME_PRED_SET_NEQ:
            set = "a.x != 0.0";
            break;
        case PVS_ME_PRED_SET_CLR:
            g_string_append(g, "        np = false;\n"
                               "        r = vec4(uintBitsToFloat("
                               "0x7f800000u));\n");
            return true;
        case PVS_ME_PRED_SET_INV:
            /* ELSE: on at this level <-> off by exactly one level */
            g_string_append(g, "        np = a.x == 1.0;\n"
                               "        r = vec4(a.x == 0.0 ? 1.0 : "
                               "a.x == 1.0 ? 0.0 : a.x);\n");
            return true;
        case PVS_ME_PRED_SET_POP:
            g_string_append(g, "        float v = a.x - 1.0;\n"
                               "        np = v <= 0.0;\n"
                               "        r = vec4(np ? 0.0 : v);\n");
            return true;
        case PVS_ME_PRED_SET_RESTORE:
            g_string_append(g, "        np = a.x == 0.0;\n"
                               "        r = a.xxxx;\n");
            return true;
        default:
            return false;
        }
        g_string_append_printf(g, "        np = %s;\n"
                               "        r = vec4(np ? 0.0 : 1.0);\n", set);
        return true;
    }
    switch (in->op) {
    case PVS_VE_PRED_SET_EQ_PUSH:
        set = "b.w == 0.0";
        break;
    case PVS_VE_PRED_SET_GT_PUSH:
        set = "b.w > 0.0";
        break;
    case PVS_VE_PRED_SET_GTE_PUSH:
        set = "b.w >= 0.0";
        break;
    case PVS_VE_PRED_SET_NEQ_PUSH:
        set = "b.w != 0.0";
        break;
    default:
        return false;
    }
    /* push: the counter in w goes one level deeper when off */
    g_string_append_printf(g, "        bool cnd = %s;\n"
                           "        np = a.w == 0.0 && cnd;\n"
                           "        r = vec4(a.w == 0.0 ? (cnd ? 0.0 : 1.0) "
                           ": a.w + 1.0);\n", set);
    return true;
}

/* The math engine's result r from a.x, b.x, c.x (r500_pvs_exec()). */
static bool math_op(const R500PvsInst *in, GString *g)
{
    const char *v;

    switch (in->op) {
    case PVS_ME_EXP_BASE2_DX:
        /* TGSI EXP */
        g_string_append(g, "        r = vec4(exp2(floor(a.x)), "
                           "a.x - floor(a.x), exp2(a.x), 1.0);\n");
        return true;
    case PVS_ME_LOG_BASE2_DX:
        /* TGSI LOG */
        g_string_append(g, "        float ax = abs(a.x), "
                           "fl = floor(log2(ax));\n"
                           "        r = vec4(fl, ax / exp2(fl), log2(ax), "
                           "1.0);\n");
        return true;
    case PVS_ME_LIGHT_COEFF_DX:
        /* TGSI LIT on (x, y, w) = (A.x, A.w, A.y), as pvs.c */
        g_string_append(g, "        r = vec4(1.0, max(a.x, 0.0), a.x > 0.0 "
                           "? r500_pow(max(a.w, 0.0), clamp(a.y, -128.0, "
                           "128.0)) : 0.0, 1.0);\n");
        return true;
    case PVS_ME_EXP_BASEE_FF:
        v = "exp(a.x)";
        break;
    case PVS_ME_POWER_FUNC_FF:
        v = "r500_pow(a.x, c.x)";
        break;
    case PVS_ME_RECIP_DX:
    case PVS_ME_RECIP_FF:
    case PVS_ME_RECIP_IEEE:
        v = "1.0 / a.x";
        break;
    case PVS_ME_RECIP_SQRT_DX:
    case PVS_ME_RECIP_SQRT_FF:
    case PVS_ME_RECIP_SQRT_IEEE:
        /* TGSI RSQ: 1 / sqrt(|x|) */
        v = "1.0 / sqrt(abs(a.x))";
        break;
    case PVS_ME_MULTIPLY:
        v = "a.x * b.x";
        break;
    case PVS_ME_EXP_BASE2_FULL_DX:
        v = "exp2(a.x)";
        break;
    case PVS_ME_LOG_BASE2_FULL_DX:
    case PVS_ME_LOG_BASE2_IEEE:
        v = "log2(abs(a.x))";
        break;
    case PVS_ME_SIN:
        v = "sin(a.x)";
        break;
    case PVS_ME_COS:
        v = "cos(a.x)";
        break;
    case PVS_ME_POWER_FUNC_FF_CLAMP_B:
    case PVS_ME_POWER_FUNC_FF_CLAMP_B1:
    case PVS_ME_POWER_FUNC_FF_CLAMP_01:
        /* not modelled: pvs.c computes them unclamped and says so */
        return false;
    default:
        v = "0.0";
        break;
    }
    g_string_append_printf(g, "        r = vec4(%s);\n", v);
    return true;
}

/* The vector engine's result r (r500_pvs_exec()). */
static bool vector_op(const R500PvsInst *in, GString *g)
{
    const char *v;

    switch (in->op) {
    case PVS_VE_DOT_PRODUCT:
        /* in pvs.c's order of additions */
        v = "vec4(((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w)";
        break;
    case PVS_VE_DISTANCE_VECTOR:
        /* TGSI DST */
        v = "vec4(1.0, a.y * b.y, a.z, b.w)";
        break;
    case PVS_VE_MULTIPLY:
        v = "a * b";
        break;
    case PVS_VE_ADD:
        v = "a + b";
        break;
    case PVS_VE_MULTIPLY_ADD:
        v = "a * b + c";
        break;
    case PVS_VE_FRACTION:
        v = "a - floor(a)";
        break;
    /* selects as pvs.c's comparisons: a NaN picks the second */
    case PVS_VE_MAXIMUM:
        v = "mix(b, a, greaterThanEqual(a, b))";
        break;
    case PVS_VE_MINIMUM:
        v = "mix(b, a, lessThan(a, b))";
        break;
    case PVS_VE_SET_GREATER_THAN_EQUAL:
        v = "vec4(greaterThanEqual(a, b))";
        break;
    case PVS_VE_SET_LESS_THAN:
        v = "vec4(lessThan(a, b))";
        break;
    case PVS_VE_MULTIPLYX2_ADD:
        v = "2.0 * a * b + c";
        break;
    case PVS_VE_MULTIPLY_CLAMP:
        v = "r500_sat(a * b)";
        break;
    case PVS_VE_FLT2FIX_DX:
        v = "floor(a)";
        break;
    case PVS_VE_FLT2FIX_DX_RND:
        v = "floor(a + 0.5)";
        break;
    case PVS_VE_SET_GREATER_THAN:
        v = "vec4(greaterThan(a, b))";
        break;
    case PVS_VE_SET_EQUAL:
        v = "vec4(equal(a, b))";
        break;
    case PVS_VE_SET_NOT_EQUAL:
        v = "vec4(notEqual(a, b))";
        break;
    case PVS_VE_COND_MUX_EQ:
        v = "mix(c, b, equal(a, vec4(0.0)))";
        break;
    case PVS_VE_COND_MUX_GT:
        v = "mix(c, b, greaterThan(a, vec4(0.0)))";
        break;
    case PVS_VE_COND_MUX_GTE:
        v = "mix(c, b, greaterThanEqual(a, vec4(0.0)))";
        break;
    case PVS_VE_COND_WRITE_EQ:
    case PVS_VE_COND_WRITE_GT:
    case PVS_VE_COND_WRITE_GTE:
    case PVS_VE_COND_WRITE_NEQ:
        /* not modelled: pvs.c writes nothing and says so */
        return false;
    default:
        v = "vec4(0.0)";
        break;
    }
    g_string_append_printf(g, "        r = %s;\n", v);
    return true;
}

/* The write of r (pvs_write()): saturate, predicate, file, mask. */
static bool write_op(PvsGlslCtx *c, const R500PvsInst *in, bool pred_op,
                     GString *g)
{
    bool sat = in->kind == R500_PVS_MATH ? in->me_sat : in->ve_sat;
    unsigned idx = in->dst_index;
    char mask[5] = "";
    unsigned n = 0;
    GString *dst = g_string_new(NULL);

    if (in->dst_addr_mode == 1) {
        c->why = "a relative destination";
        g_string_free(dst, true);
        return false;
    }
    for (unsigned i = 0; i < 4; i++) {
        if (in->wmask >> i & 1) {
            mask[n++] = chan[i];
        }
    }
    mask[n] = 0;
    switch (in->dst_file) {
    case R500_PVS_DST_TEMP:
        if (idx < R500_PVS_TEMPS) {
            c->temps[idx] = 1;
            g_string_printf(dst, "t%u", idx);
        }
        break;
    case R500_PVS_DST_ALT_TEMP:
        if (idx < R500_PVS_TEMPS) {
            c->alts[idx] = 1;
            g_string_printf(dst, "u%u", idx);
        }
        break;
    case R500_PVS_DST_OUT_REPL_X:
    case R500_PVS_DST_OUT:
        if (idx < R500_PVS_OUTPUTS) {
            c->outs |= 1u << idx;
            g_string_printf(dst, "r500_o%u", idx);
        }
        break;
    case R500_PVS_DST_A0:
        c->a0 = true;
        g_string_assign(dst, "r500_a0");
        break;
    default:
        break;      /* inputs are read-only; other files do not exist */
    }
    if (!n || !dst->len) {
        g_string_free(dst, true);
        return true;
    }
    if (sat) {
        g_string_append(g, "        r = r500_sat(r);\n");
    }
    if (in->dst_file == R500_PVS_DST_OUT_REPL_X) {
        g_string_append(g, "        r = r.xxxx;\n");
    }
    g_string_append(g, "        ");
    if (in->pred_enable) {
        /* the predicate before this instruction's own update */
        g_string_append_printf(g, "if (r500_p == %s) ",
                               in->pred_sense ? "true" : "false");
    }
    if (in->dst_file == R500_PVS_DST_A0) {
        /* ARL: toward minus infinity, within +-4096 (pvs_write()) */
        g_string_append_printf(g, "r500_a0.%s = ivec4(clamp(floor(r), "
                               "-4096.0, 4096.0)).%s;\n", mask, mask);
    } else {
        g_string_append_printf(g, "%s.%s = r.%s;\n", dst->str, mask, mask);
    }
    if (pred_op) {
        g_string_append(g, "        r500_p = np;\n");
    }
    g_string_free(dst, true);
    return true;
}

static bool inst(PvsGlslCtx *c, const R500PvsInst *in, GString *g)
{
    bool pred = false, ok = true;

    if ((in->kind == R500_PVS_VECTOR && in->op == PVS_VE_NO_OP) ||
        (in->kind == R500_PVS_MATH && in->op == PVS_ME_NO_OP)) {
        return true;
    }
    g_string_append(g, "    {\n");
    for (unsigned n = 0; n < 3 && ok; n++) {
        g_string_append_printf(g, "        precise vec4 %c = ", 'a' + n);
        ok = src_op(c, &in->src[n], g);
        g_string_append(g, ";\n");
    }
    if (!ok) {
        return false;
    }
    g_string_append(g, "        precise vec4 r;\n        bool np;\n");
    if (in->kind == R500_PVS_MACRO) {
        /* 0: MADD, 1: M2X_ADD (reference 4.4) */
        g_string_append(g, in->op == 1 ? "        r = 2.0 * a * b + c;\n"
                                       : "        r = a * b + c;\n");
    } else {
        pred = pred_op(in, g);          /* when it is one: sets r and np */
        if (!pred && (in->kind == R500_PVS_MATH ? !math_op(in, g)
                                                : !vector_op(in, g))) {
            c->why = "a PVS op the CPU reports as not modelled";
            return false;
        }
    }
    if (!write_op(c, in, pred, g)) {
        return false;
    }
    g_string_append(g, "    }\n");
    return true;
}

bool r500_pvs_glsl(R500Chip *s, GString *vs, R500PvsGlsl *info,
                   const char **why)
{
    const R500Vap *v = &s->vap;
    const R500PvsProg *p = &v->prog;
    uint32_t cc = s->regs[R_VAP_PVS_CONST_CNTL / 4];
    PvsGlslCtx c = {
        .s = s, .info = info,
        .cmax = R500_FGET(cc, VAP_PVS_CONST_CNTL, PVS_MAX_CONST_ADDR),
        .cbase = R500_FGET(cc, VAP_PVS_CONST_CNTL, PVS_CONST_BASE_OFFSET),
    };
    GString *body = g_string_new(NULL);
    const int groups[12] = {
        v->out_col[0], v->out_col[1], v->out_col[2], v->out_col[3],
        v->out_tex[0], v->out_tex[1], v->out_tex[2], v->out_tex[3],
        v->out_tex[4], v->out_tex[5], v->out_tex[6], v->out_tex[7],
    };
    bool ok = true;

    memset(info, 0, sizeof(*info));
    *why = NULL;
    if (!p->valid) {
        *why = "no valid vertex program";
        ok = false;
    } else if (s->regs[R_VAP_PVS_FLOW_CNTL_OPC / 4]) {
        *why = "vertex program flow control";
        ok = false;
    }
    for (uint32_t i = p->first; ok && i <= p->last; i++) {
        ok = inst(&c, &p->inst[i - p->first], body);
        if (!ok) {
            *why = c.why;
        }
    }
    if (!ok) {
        g_string_free(body, true);
        return false;
    }
    info->insts = p->last - p->first + 1;

    for (unsigned k = 0; k < info->ninputs; k++) {
        g_string_append_printf(vs, "layout(location = %u) in vec4 r500_i%u;\n",
                               k, k);
    }
    g_string_append(vs, "uniform float r500_one = 1.0;\n");
    if (c.consts || c.rel_consts) {
        g_string_append_printf(vs, "uniform vec4 r500_c[%u];\n",
                               R500_PVS_CONSTS);
    }
    if (c.rel_consts) {
        g_string_append_printf(vs,
            "vec4 r500_cst(int i) {\n"
            "    return i < 0 || i > %d || i + %d >= %u ? vec4(0.0)\n"
            "           : r500_c[i + %d];\n}\n",
            c.cmax, c.cbase, R500_PVS_CONSTS, c.cbase);
    }
    /* every output the caller reads exists, 0 where nothing wrote it */
    c.outs |= 1u << v->out_pos;
    for (unsigned g = 0; g < 12; g++) {
        if (groups[g] >= 0) {
            c.outs |= 1u << groups[g];
        }
    }
    for (unsigned o = 0; o < R500_PVS_OUTPUTS; o++) {
        if (c.outs >> o & 1) {
            g_string_append_printf(vs, "vec4 r500_o%u = vec4(0.0);\n", o);
        }
    }
    g_string_append(vs,
        "ivec4 r500_a0 = ivec4(0);\n"
        "bool r500_p = false;\n"
        /* pvs.c's sat(): NaN goes to 0 */
        "vec4 r500_sat(vec4 v) {\n"
        "    return mix(mix(vec4(0.0), v, greaterThan(v, vec4(0.0))), "
        "vec4(1.0),\n               greaterThan(v, vec4(1.0)));\n}\n"
        /* C's powf where GLSL leaves pow undefined: a zero base */
        "float r500_pow(float b, float e) {\n"
        "    return b == 0.0 ? (e > 0.0 ? 0.0 : e == 0.0 ? 1.0 :\n"
        "                       uintBitsToFloat(0x7f800000u)) : pow(b, e);\n"
        "}\n"
        "void r500_pvs() {\n");
    for (unsigned t = 0; t < R500_PVS_TEMPS; t++) {
        if (c.temps[t]) {
            g_string_append_printf(vs, "    vec4 t%u = vec4(0.0);\n", t);
        }
        if (c.alts[t]) {
            g_string_append_printf(vs, "    vec4 u%u = vec4(0.0);\n", t);
        }
    }
    g_string_append(vs, body->str);
    g_string_append_printf(vs, "}\n#define R500_VTX_POS r500_o%d\n",
                           v->out_pos);
    /* absent colours are (0, 0, 0, 1), absent texcoords 0 (vtx.c) */
    for (unsigned g = 0; g < 12; g++) {
        if (groups[g] >= 0) {
            g_string_append_printf(vs, "#define R500_VTX_G%u r500_o%d\n", g,
                                   groups[g]);
        } else {
            g_string_append_printf(vs, "#define R500_VTX_G%u vec4(0.0, 0.0, "
                                   "0.0, %s)\n", g, g < 4 ? "1.0" : "0.0");
        }
    }
    g_string_free(body, true);
    return true;
}
