/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US program as a GLSL fragment shader, for the host-OpenGL renderer
 * (DESIGN.md section 6, issue 19).  It reads the decoded program of us.c
 * (the one decoder) and says in GLSL what us_exec.c does for one pixel;
 * tests/gl/test-us-glsl.c (and test-us-glsl-fc.c) runs both on the same
 * inputs and compares the bits.
 *
 * This file writes the instructions (us_glsl.c the program around them,
 * us_glsl_fc.c its flow): ALU and OUT with every operand
 * feature (temporaries, constants, inline constants, relative addresses,
 * the swizzles and their 0/0.5/1 selects, modifiers, presubtract), every
 * RGB and alpha op with the derivatives (MDH/MDV, through the quad
 * exchange of us_glsl_fc.c), OMOD, clamps, the ZERO_TIMES_ANYTHING rule,
 * predicate bits and predicated writes, the ALU result bit, the W
 * (depth) output; TEX KILL and the fetches LD, PROJ, LODBIAS, LOD and
 * DXDY; and the shader around them.  A program with flow control runs
 * as us_exec.c runs it, a program counter over blocks
 * (us_glsl_fc.c); one without is straight-line code.  It declines
 * (returns false with the reason) what GL cannot say: unscaled
 * coordinates; the renderer draws such a program with soft.
 *
 * Semantics kept exactly where GLSL allows: products, sums and selects are
 * exact IEEE single operations, and `precise` keeps the compiler from
 * fusing a multiply with the add after it (soft never fuses).  The
 * transcendental ops (EX2, LN2, RSQ, SIN, COS) are the host's, as in soft
 * they are the C library's: the two agree to the last bits only where the
 * libraries do.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "us_glsl_int.h"

static const char chan[4] = { 'r', 'g', 'b', 'a' };

/*
 * A float operand with the exact bits of v.  A zero goes through
 * r500_one, a uniform the compiler cannot see is 1, so that nothing with
 * a literal zero is folded away: GLSL compilers fold x * 0 to 0 where the
 * R500 gives NaN for x = NaN or infinity without ZERO_TIMES_ANYTHING, and
 * x + 0 to x where -0 + 0 is +0.  A product or sum with any other finite
 * value folds to what IEEE arithmetic gives (x * 1 is x), so the others
 * are literals the compiler may fold (one multiply fewer each).
 */
void r500_us_glsl_lit(GString *g, float v)
{
    uint32_t b;

    memcpy(&b, &v, 4);
    g_string_append_printf(g, v == 0.0f || !isfinite(v)
                           ? "(r500_one * uintBitsToFloat(0x%08xu))"
                           : "uintBitsToFloat(0x%08xu)", b);
}

/*
 * Temporary idx, with aL added when rel (us_exec.c: the index plus the
 * innermost loop's aL, wrapped to the 128 temporaries), as a value.
 * Without flow control aL is 0, so the index is the address; with it,
 * the temporary is chosen among those aL's values reach.
 */
static void temp(GString *g, UsGlsl *c, unsigned idx, bool rel)
{
    unsigned n = rel && c->fc ? c->nal : 0;

    if (!n) {
        c->used[idx & (R500_US_TEMPS - 1)] = 1;
        g_string_append_printf(g, "t%u", idx & (R500_US_TEMPS - 1));
        return;
    }
    g_string_append(g, "(");
    for (unsigned k = 0; k < n; k++) {
        unsigned t = (idx + c->al[k]) & (R500_US_TEMPS - 1);

        c->used[t] = 1;
        if (k + 1 < n) {
            g_string_append_printf(g, "(r500_al & 127) == %u ? t%u : ",
                                   c->al[k], t);
        } else {
            g_string_append_printf(g, "t%u)", t);
        }
    }
}

/* dst.<ch> = src, under the condition (none when empty). */
static void store(GString *g, const GString *cond, const char *dst,
                  unsigned ch, const char *src)
{
    if (cond->len) {
        g_string_append_printf(g, "        if (%s) {\n    ", cond->str);
    }
    g_string_append_printf(g, "        %s.%c = %s;\n", dst, chan[ch], src);
    if (cond->len) {
        g_string_append(g, "        }\n");
    }
}

/* Temporary idx (+ aL when rel) channel ch = src, under the condition. */
static void store_temp(GString *g, UsGlsl *c, const GString *cond,
                       unsigned idx, bool rel, unsigned ch, const char *src)
{
    GString *dst = g_string_new(NULL), *cnd = g_string_new(NULL);

    if (!rel || !c->fc) {
        temp(dst, c, idx, false);
        store(g, cond, dst->str, ch, src);
    }
    for (unsigned k = 0; rel && c->fc && k < c->nal; k++) {
        g_string_truncate(dst, 0);
        g_string_printf(cnd, "(r500_al & 127) == %u%s%s", c->al[k],
                        cond->len ? " && " : "", cond->str);
        temp(dst, c, idx + c->al[k], false);
        store(g, cnd, dst->str, ch, src);
    }
    g_string_free(dst, true);
    g_string_free(cnd, true);
}

/* Source n (0-2) channel ch of an instruction: temp, constant or inline. */
static void src_chan(GString *g, UsGlsl *c, const R500UsInst *in,
                     unsigned n, unsigned ch)
{
    const R500UsAddr *a = ch < 3 ? &in->rgb_addr[n] : &in->alpha_addr[n];

    switch (a->kind) {
    case R500_US_SRC_TEMP:
        temp(g, c, a->index, a->rel);
        g_string_append_printf(g, ".%c", chan[ch]);
        break;
    case R500_US_SRC_CONST:
        c->consts = true;
        if (a->rel && c->fc) {
            g_string_append_printf(g, "r500_k[(%u + r500_al) & %u].%c",
                                   a->index, R500_US_CONSTS - 1, chan[ch]);
        } else {
            g_string_append_printf(g, "r500_k[%u].%c", a->index, chan[ch]);
        }
        break;
    default:
        /* an inline constant supplies every channel (open question 2) */
        r500_us_glsl_lit(g, a->inline_val);
        break;
    }
}

/* Channel ch of the presubtract result (sel 3). */
static void presub_chan(GString *g, UsGlsl *c, const R500UsInst *in,
                        unsigned ch)
{
    unsigned op = ch < 3 ? in->rgb_srcp : in->alpha_srcp;
    GString *s0 = g_string_new(NULL), *s1 = g_string_new(NULL);

    src_chan(s0, c, in, 0, ch);
    src_chan(s1, c, in, 1, ch);
    switch (op) {
    case 0:
        g_string_append_printf(g, "(1.0 - 2.0 * %s)", s0->str);
        break;
    case 1:
        g_string_append_printf(g, "(%s - %s)", s1->str, s0->str);
        break;
    case 2:
        g_string_append_printf(g, "(%s + %s)", s1->str, s0->str);
        break;
    default:
        g_string_append_printf(g, "(1.0 - %s)", s0->str);
        break;
    }
    g_string_free(s0, true);
    g_string_free(s1, true);
}

/* An operand slot (us.c: sel * 4 + channel, or a constant select). */
static void slot(GString *g, UsGlsl *c, const R500UsInst *in, unsigned sl)
{
    switch (sl) {
    case R500_US_SLOT_0:
        r500_us_glsl_lit(g, 0.0f);
        return;
    case R500_US_SLOT_HALF:
        r500_us_glsl_lit(g, 0.5f);
        return;
    case R500_US_SLOT_ONE:
        r500_us_glsl_lit(g, 1.0f);
        return;
    }
    if (sl / 4 == 3) {
        presub_chan(g, c, in, sl % 4);
    } else {
        src_chan(g, c, in, sl / 4, sl % 4);
    }
}

/* The input modifiers (none, negate, abs, -abs), as us_exec.c operand(). */
static const char *const mod_pre[4] = { "(", "(-", "abs(", "(-abs(" };
static const char *const mod_post[4] = { ")", ")", ")", "))" };

/* One operand channel with its modifier, as us_exec.c's operand(). */
static void operand(GString *g, UsGlsl *c, const R500UsInst *in,
                    unsigned sl, unsigned mod)
{
    g_string_append(g, mod_pre[mod & 3]);
    slot(g, c, in, sl);
    g_string_append(g, mod_post[mod & 3]);
}

/*
 * ZERO_TIMES_ANYTHING: a product with a zero factor is +0, whatever the
 * other (us_exec.c mul4).  In GLSL that is two compares and a select a
 * product, most of the time of an ALU-bound program on llvmpipe; most
 * products need neither, and which is known from the operands' sources:
 *
 * PROD_PLAIN  x * y as it is: no ZERO_TIMES_ANYTHING, or the same value
 *             twice (a square is +0, inf or NaN, as mul4 makes it)
 * PROD_SIGN   x * y + 0 (r500_z), turning -0 into +0: a finite non-zero
 *             literal factor (the product is zero only when the other
 *             factor is, never NaN from 0 * inf), two finite literals,
 *             or the same value with different modifiers
 * PROD_FULL   the compares (r500_mul)
 *
 * (A product that underflows to -0 becomes +0 under PROD_SIGN where soft
 * keeps -0: llvmpipe flushes denormals to zero already, and soft does
 * not, so results that small differ between the two anyway.)
 */
enum { PROD_PLAIN, PROD_SIGN, PROD_FULL };

/* Operand slot sl: a literal (its value in *v), or its text in txt. */
static bool slot_lit(GString *txt, UsGlsl *c, const R500UsInst *in,
                     unsigned sl, float *v)
{
    static const float k[3] = { 0.0f, 0.5f, 1.0f };
    const R500UsAddr *a;

    if (sl >= R500_US_SLOT_0) {
        *v = k[(sl - R500_US_SLOT_0) % 3];
        return true;
    }
    a = sl % 4 < 3 ? &in->rgb_addr[sl / 4 % 3] : &in->alpha_addr[sl / 4 % 3];
    if (sl / 4 < 3 && a->kind == R500_US_SRC_INLINE) {
        *v = a->inline_val;
        return true;
    }
    slot(txt, c, in, sl);
    return false;
}

/* How to multiply operand slots sa (modifier ma) and sb (mb). */
static unsigned prod_kind(UsGlsl *c, const R500UsInst *in, unsigned sa,
                          unsigned ma, unsigned sb, unsigned mb)
{
    GString *ta = g_string_new(NULL), *tb = g_string_new(NULL);
    float va = 0, vb = 0;
    bool la = slot_lit(ta, c, in, sa, &va), lb = slot_lit(tb, c, in, sb, &vb);
    bool fa = la && isfinite(va), fb = lb && isfinite(vb);
    unsigned k = PROD_FULL;

    if (!c->in || !c->in->ztae) {
        k = PROD_PLAIN;
    } else if ((fa && fb) || (fa && va != 0.0f) || (fb && vb != 0.0f)) {
        k = PROD_SIGN;
    } else if (!la && !lb && g_str_equal(ta->str, tb->str)) {
        k = (ma & 3) == (mb & 3) ? PROD_PLAIN : PROD_SIGN;
    }
    g_string_free(ta, true);
    g_string_free(tb, true);
    return k;
}

/* The product x * y of kind k (scalars; vec3 with v3). */
static void prod(GString *g, unsigned k, bool v3, const char *x,
                 const char *y)
{
    if (k == PROD_FULL) {
        g_string_append_printf(g, "%s(%s, %s)", v3 ? "r500_mul3" : "r500_mul",
                               x, y);
    } else if (k == PROD_SIGN) {
        g_string_append_printf(g, "(%s * %s + %s)", x, y,
                               v3 ? "vec3(r500_z)" : "r500_z");
    } else {
        g_string_append_printf(g, "%s * %s", x, y);
    }
}

/* The kind of the product of RGB operands a and b in channel ch. */
static unsigned rgb_prod(UsGlsl *c, const R500UsInst *in, unsigned ch)
{
    return prod_kind(c, in, in->rgb_slot[0][ch], in->rgb_op[0].mod,
                     in->rgb_slot[1][ch], in->rgb_op[1].mod);
}

/* The three RGB operands as vec3 a, b, c and the alpha ones as floats. */
static void operands(GString *g, UsGlsl *c, const R500UsInst *in)
{
    for (unsigned n = 0; n < 3; n++) {
        g_string_append_printf(g, "        precise vec3 %c = vec3(", 'a' + n);
        for (unsigned ch = 0; ch < 3; ch++) {
            operand(g, c, in, in->rgb_slot[n][ch], in->rgb_op[n].mod);
            g_string_append(g, ch < 2 ? ", " : ");\n");
        }
    }
    for (unsigned n = 0; n < 3; n++) {
        g_string_append_printf(g, "        precise float %c%c = ", 'a' + n,
                               'a' + n);
        operand(g, c, in, in->alpha_slot[n], in->alpha_op[n].mod);
        g_string_append(g, ";\n");
    }
}

static bool is_md(unsigned op, bool rgb)
{
    return rgb ? op == R500_US_RGB_MDH || op == R500_US_RGB_MDV
               : op == R500_US_A_MDH || op == R500_US_A_MDV;
}

/*
 * The derivatives' sources (us_exec.c): src0 by channel, whatever the
 * swizzles (RGB from the RGB address, alpha from the alpha one), of the
 * quad's top-left pixel (operand A) and of its right (MDH) or lower (MDV)
 * neighbour (operand C): vec4 q<k>, src0 of pixel k, for each k needed.
 */
static void md_sources(GString *g, UsGlsl *c, const R500UsInst *in)
{
    unsigned need = 0;

    if (is_md(in->rgb_opcode, true)) {
        need |= 1u << 0 | 1u << (in->rgb_opcode == R500_US_RGB_MDH ? 1 : 2);
    }
    if (is_md(in->alpha_opcode, false)) {
        need |= 1u << 0 | 1u << (in->alpha_opcode == R500_US_A_MDH ? 1 : 2);
    }
    for (unsigned k = 0; k < 3; k++) {
        if (!((need >> k) & 1)) {
            continue;
        }
        g_string_append_printf(g, "        precise vec4 q%u = "
                               "r500_quad_get(vec4(", k);
        for (unsigned ch = 0; ch < 4; ch++) {
            src_chan(g, c, in, 0, ch);
            g_string_append(g, ch < 3 ? ", " : "), ");
        }
        g_string_append_printf(g, "%u);\n", k);
        c->quad = true;
    }
}

/*
 * A derivative: A (pixel 0's src0 channel, A's modifier) times operand B
 * plus C (the neighbour's, C's modifier), us_exec.c's MDH/MDV.
 */
static void md_expr(GString *g, const R500UsInst *in, bool rgb, bool h)
{
    const char *sw = rgb ? "rgb" : "a";
    unsigned ma = rgb ? in->rgb_op[0].mod : in->alpha_op[0].mod;
    unsigned mc = rgb ? in->rgb_op[2].mod : in->alpha_op[2].mod;

    g_string_append_printf(g, "%s(%sq0.%s%s, %s) + %sq%u.%s%s",
                           rgb ? "r500_mul3" : "r500_mul", mod_pre[ma & 3],
                           sw, mod_post[ma & 3], rgb ? "b" : "bb",
                           mod_pre[mc & 3], h ? 1 : 2, sw, mod_post[mc & 3]);
}

static const float omod_k[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };

/* OMOD and clamp of expression v into variable name (us_exec finish()). */
static void finish(GString *g, const char *name, unsigned omod, bool clamp)
{
    if (omod < 7 && omod) {
        g_string_append_printf(g, "        %s = %s * ", name, name);
        r500_us_glsl_lit(g, omod_k[omod]);
        g_string_append(g, ";\n");
    }
    if (clamp) {
        /* soft's clamp4: below 0 is 0, above 1 is 1, NaN stays */
        g_string_append_printf(g, "        %s = r500_sat(%s);\n", name, name);
    }
}

static void alpha_op(GString *g, UsGlsl *c, const R500UsInst *in)
{
    const char *e;

    g_string_append(g, "        precise float al = ");
    switch (in->alpha_opcode) {
    case R500_US_A_MAD:
        prod(g, prod_kind(c, in, in->alpha_slot[0], in->alpha_op[0].mod,
                          in->alpha_slot[1], in->alpha_op[1].mod),
             false, "aa", "bb");
        e = " + cc";
        break;
    case R500_US_A_DP:
        e = "dot_";
        break;
    case R500_US_A_MIN:
        e = "aa < bb ? aa : bb";
        break;
    case R500_US_A_MAX:
        e = "aa >= bb ? aa : bb";
        break;
    case R500_US_A_CND:
        e = "cc > 0.5 ? aa : bb";
        break;
    case R500_US_A_CMP:
        e = "cc >= 0.0 ? aa : bb";
        break;
    case R500_US_A_FRC:
        e = "aa - floor(aa)";
        break;
    case R500_US_A_EX2:
        e = "exp2(aa)";
        break;
    case R500_US_A_LN2:
        e = "log2(aa)";
        break;
    case R500_US_A_RCP:
        e = "1.0 / aa";
        break;
    case R500_US_A_RSQ:
        e = "1.0 / sqrt(aa)";
        break;
    case R500_US_A_SIN:
        e = "sin(aa * 6.2831855)";
        break;
    case R500_US_A_COS:
        e = "cos(aa * 6.2831855)";
        break;
    case R500_US_A_MDH:
    case R500_US_A_MDV:
        md_expr(g, in, false, in->alpha_opcode == R500_US_A_MDH);
        e = "";
        break;
    default:
        e = "0.0";
        break;
    }
    g_string_append_printf(g, "%s;\n", e);
}

/*
 * The channels of an RGB result read: written, output, compared into the
 * predicate or the ALU result (conservatively, whatever the type).
 */
static unsigned rgb_need(const R500UsInst *in)
{
    return in->rgb_wmask | in->rgb_omask | (in->alu_wmask ? 1 : 0);
}

static void rgb_op(GString *g, UsGlsl *c, const R500UsInst *in)
{
    const char *e;
    unsigned k = PROD_PLAIN;

    g_string_append(g, "        precise vec3 rgb = ");
    switch (in->rgb_opcode) {
    case R500_US_RGB_MAD:
        for (unsigned ch = 0; ch < 3; ch++) {
            if (rgb_need(in) & (1u << ch)) {
                k = MAX(k, rgb_prod(c, in, ch));
            }
        }
        prod(g, k, true, "a", "b");
        e = " + c";
        break;
    case R500_US_RGB_DP3:
    case R500_US_RGB_DP4:
    case R500_US_RGB_D2A:
        e = "vec3(dot_)";
        break;
    case R500_US_RGB_MIN:
        e = "mix(b, a, lessThan(a, b))";
        break;
    case R500_US_RGB_MAX:
        e = "mix(b, a, greaterThanEqual(a, b))";
        break;
    case R500_US_RGB_CND:
        e = "mix(b, a, greaterThan(c, vec3(0.5)))";
        break;
    case R500_US_RGB_CMP:
        e = "mix(b, a, greaterThanEqual(c, vec3(0.0)))";
        break;
    case R500_US_RGB_FRC:
        e = "a - floor(a)";
        break;
    case R500_US_RGB_SOP:
        e = "vec3(al)";
        break;
    case R500_US_RGB_MDH:
    case R500_US_RGB_MDV:
        md_expr(g, in, true, in->rgb_opcode == R500_US_RGB_MDH);
        e = "";
        break;
    default:
        e = "vec3(0.0)";
        break;
    }
    g_string_append_printf(g, "%s;\n", e);
}

/* The dot product both units may use (us_exec.c, in the same order). */
static void dot(GString *g, UsGlsl *c, const R500UsInst *in)
{
    static const char *const ax[3] = { "a.x", "a.y", "a.z" };
    static const char *const bx[3] = { "b.x", "b.y", "b.z" };
    unsigned rop = in->rgb_opcode;

    if (rop != R500_US_RGB_DP3 && rop != R500_US_RGB_DP4 &&
        rop != R500_US_RGB_D2A && in->alpha_opcode != R500_US_A_DP) {
        return;
    }
    for (unsigned ch = 0; ch < 3; ch++) {
        if (ch == 2 && rop == R500_US_RGB_D2A) {
            g_string_append(g, "        dot_ = dot_ + c.z;\n");
            return;
        }
        g_string_append(g, ch ? "        dot_ = dot_ + "
                              : "        precise float dot_ = ");
        prod(g, rgb_prod(c, in, ch), false, ax[ch], bx[ch]);
        g_string_append(g, ";\n");
    }
    if (rop != R500_US_RGB_DP3) {
        g_string_append(g, "        dot_ = dot_ + ");
        prod(g, prod_kind(c, in, in->alpha_slot[0], in->alpha_op[0].mod,
                          in->alpha_slot[1], in->alpha_op[1].mod),
             false, "aa", "bb");
        g_string_append(g, ";\n");
    }
}

/* The compares of the predicate and ALU result bits (us_exec compare()). */
static const char *const cmp_op[4] = {
    " == 0.0", " < 0.0", " >= 0.0", " != 0.0",
};

/*
 * The condition of a write of channel ch (us_exec.c write_chan() and
 * pred_ok()): the pixel is active (or WRITE_INACTIVE), the predicate
 * select sel passes (inverted by inv), and for a TEX with
 * IGNORE_UNCOVERED the pixel is covered (a helper invocation is GL's
 * uncovered pixel).  Empty when the write always happens.
 */
static void write_cond(GString *cond, const UsGlsl *c, const R500UsInst *in,
                       unsigned sel, bool inv, unsigned ch, bool covered)
{
    g_string_truncate(cond, 0);
    if (c->fc && !in->write_inactive) {
        g_string_append(cond, "r500_act");
    }
    if (sel) {
        g_string_append_printf(cond, "%s%sr500_pred.%c",
                               cond->len ? " && " : "", inv ? "!" : "",
                               chan[r500_us_pred_chan(sel, ch)]);
    }
    if (covered) {
        g_string_append_printf(cond, "%sr500_cov",
                               cond->len ? " && " : "");
    }
}

/*
 * The channels of mask (bit ch: r, g, b) of rgb into render target out,
 * or (out < 0) into temporary idx (+ aL when rel) under the predicate.
 */
static void mask_store(GString *g, UsGlsl *c, const R500UsInst *in, int out,
                       unsigned idx, bool rel, unsigned mask)
{
    GString *cond = g_string_new(NULL);
    char src[8], dst[12];

    g_snprintf(dst, sizeof(dst), "r500_o%d", out);
    for (unsigned ch = 0; ch < 3; ch++) {
        if (!(mask & (1u << ch))) {
            continue;
        }
        write_cond(cond, c, in, out < 0 ? in->rgb_pred_sel : 0,
                   in->rgb_pred_inv, ch, false);
        g_snprintf(src, sizeof(src), "rgb.%c", chan[ch]);
        if (out < 0) {
            store_temp(g, c, cond, idx, rel, ch, src);
        } else {
            store(g, cond, dst, ch, src);
        }
    }
    g_string_free(cond, true);
}

/*
 * What an ALU instruction sets besides its writes: the ALU result bit
 * an FC reads (3.8, ALU_WMASK), and the predicate bits of an ALU (not
 * OUT) instruction's OMASK, both for active pixels only.
 */
static void alu_bits(GString *g, UsGlsl *c, const R500UsInst *in)
{
    const char *act = c->fc ? "r500_act" : "true";

    if (c->fc && in->alu_wmask) {
        g_string_append_printf(g, "        if (r500_act) {\n"
                               "            r500_ar = %s%s;\n        }\n",
                               in->alu_result_sel ? "al" : "rgb.r",
                               cmp_op[in->alu_result_op & 3]);
    }
    if (!c->pred || in->type == R500_US_OUT ||
        !(in->rgb_omask || in->alpha_omask)) {
        return;
    }
    g_string_append_printf(g, "        if (%s) {\n", act);
    for (unsigned ch = 0; ch < 3; ch++) {
        if (in->rgb_omask & (1u << ch)) {
            g_string_append_printf(g, "            r500_pred.%c = rgb.%c%s;\n",
                                   chan[ch], chan[ch],
                                   cmp_op[in->rgb_target & 3]);
        }
    }
    if (in->alpha_omask) {
        g_string_append_printf(g, "            r500_pred.a = al%s;\n",
                               cmp_op[in->alpha_target & 3]);
    }
    g_string_append(g, "        }\n");
}

static void alu(GString *g, UsGlsl *c, const R500UsInst *in)
{
    GString *dst = g_string_new(NULL), *cond = g_string_new(NULL);

    g_string_append(g, "    {\n");
    operands(g, c, in);
    md_sources(g, c, in);
    dot(g, c, in);
    /* alpha first: SOP hands the finished alpha to the RGB unit */
    alpha_op(g, c, in);
    finish(g, "al", in->alpha_omod, in->alpha_clamp);
    rgb_op(g, c, in);
    if (in->rgb_opcode != R500_US_RGB_SOP) {
        finish(g, "rgb", in->rgb_omod, in->rgb_clamp);
    }
    /* the destinations are addressed by aL after the sources are read */
    mask_store(g, c, in, -1, in->rgb_addrd, in->rgb_addrd_rel,
               in->rgb_wmask);
    if (in->alpha_wmask) {
        write_cond(cond, c, in, in->alpha_pred_sel, in->alpha_pred_inv, 3,
                   false);
        store_temp(g, c, cond, in->alpha_addrd, in->alpha_addrd_rel, 3,
                   "al");
    }
    alu_bits(g, c, in);
    if (in->type == R500_US_OUT) {
        if (in->rgb_omask) {
            mask_store(g, c, in, in->rgb_target & 3, 0, false,
                       in->rgb_omask);
            c->targets |= 1u << (in->rgb_target & 3);
        }
        write_cond(cond, c, in, 0, false, 3, false);
        if (in->alpha_omask) {
            g_string_printf(dst, "r500_o%u", in->alpha_target & 3);
            store(g, cond, dst->str, 3, "al");
            c->targets |= 1u << (in->alpha_target & 3);
        }
        if (in->w_omask) {
            /* gl_FragDepth has no channels: a float of its own */
            if (cond->len) {
                g_string_append_printf(g, "        if (%s) {\n    ",
                                       cond->str);
            }
            g_string_append(g, "        gl_FragDepth = al;\n");
            if (cond->len) {
                g_string_append(g, "        }\n");
            }
            c->depth = true;
        }
    }
    g_string_append(g, "    }\n");
    g_string_free(dst, true);
    g_string_free(cond, true);
}

/* A TEX operand: four channels of a register through selects (seed 000). */
static void tex_vec(GString *g, UsGlsl *c, unsigned reg, bool rel,
                    const uint8_t swz[4])
{
    GString *t = g_string_new(NULL);

    temp(t, c, reg, rel);
    g_string_append_printf(g, "vec4(%s.%c, %s.%c, %s.%c, %s.%c)",
                           t->str, chan[swz[0] & 3], t->str, chan[swz[1] & 3],
                           t->str, chan[swz[2] & 3], t->str, chan[swz[3] & 3]);
    g_string_free(t, true);
}

static bool tex(GString *g, UsGlsl *c, const R500UsInst *in,
                const char **why)
{
    unsigned op = in->tex_op, wmask = in->rgb_wmask | in->alpha_wmask << 3;
    unsigned bit;
    GString *cond;

    if (op == R500_TEX_NOP) {
        return true;
    }
    if (op == R500_TEX_KILL) {
        /*
         * KILL: any selected coordinate below zero, active pixels only
         * (us_exec exec_tex)
         */
        g_string_append_printf(g, "    {\n        vec4 k = ");
        tex_vec(g, c, in->tex_src, in->tex_src_rel, in->tex_src_swz);
        g_string_append_printf(g, ";\n        if (%sany(lessThan(k, "
                               "vec4(0.0)))) {\n"
                               "            r500_killed = true;\n"
                               "        }\n    }\n",
                               c->fc ? "r500_act && " : "");
        return true;
    }
    if (!r500_tx_glsl_op(op)) {
        *why = "TEX op past DXDY";
        return false;
    }
    if (in->tex_unscaled && op == R500_TEX_DXDY) {
        /* gradients in texels too: tx.c's rule for them is not known */
        *why = "unscaled texture coordinates with gradients (DXDY)";
        return false;
    }
    /* UNSCALED: S, T (and a 3D R) in texels of level 0 (tx.c) */
    bit = op + (in->tex_unscaled ? R500_TX_GLSL_UNSCALED : 0);
    c->tex_ops[in->tex_id & 15] |= 1u << bit;
    /*
     * S, T, R, Q through the source selects; R, G, B, A through the
     * destination selects, the write mask per channel
     */
    g_string_append(g, "    {\n        vec4 r = ");
    r500_tx_glsl_fn(g, in->tex_id & 15, bit);
    g_string_append(g, "(");
    tex_vec(g, c, in->tex_src, in->tex_src_rel, in->tex_src_swz);
    if (op == R500_TEX_DXDY) {
        /* the gradients from DX_ADDR and DY_ADDR (US_TEX_ADDR_DXDY) */
        g_string_append(g, ", ");
        tex_vec(g, c, in->tex_dx, in->tex_dx_rel, in->tex_dx_swz);
        g_string_append(g, ", ");
        tex_vec(g, c, in->tex_dy, in->tex_dy_rel, in->tex_dy_swz);
    }
    g_string_append(g, ");\n");
    cond = g_string_new(NULL);
    write_cond(cond, c, in, 0, false, 0, in->tex_ignore_uncovered);
    for (unsigned ch = 0; ch < 4; ch++) {
        if (wmask & (1u << ch)) {
            char src[8];

            g_snprintf(src, sizeof(src), "r.%c", chan[in->tex_dst_swz[ch] & 3]);
            store_temp(g, c, cond, in->tex_dst, in->tex_dst_rel, ch, src);
        }
    }
    g_string_append(g, "    }\n");
    g_string_free(cond, true);
    return true;
}

bool r500_us_glsl_inst(UsGlsl *c, GString *g, const R500UsInst *in,
                       const char **why)
{
    if (in->type == R500_US_TEX) {
        return tex(g, c, in, why);
    }
    alu(g, c, in);
    return true;
}
