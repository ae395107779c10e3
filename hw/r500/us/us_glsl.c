/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US program as a GLSL fragment shader, for the host-OpenGL renderer
 * (DESIGN.md section 6, issue 19).  It reads the decoded program of us.c
 * (the one decoder) and says in GLSL what us_exec.c does for one pixel;
 * tests/gl/test-us-glsl.c runs both on the same inputs and compares the
 * bits.
 *
 * This first step covers straight-line programs: ALU and OUT instructions
 * with every operand feature (temporaries, constants, inline constants,
 * the swizzles and their 0/0.5/1 selects, modifiers, presubtract), every
 * RGB and alpha op but the derivatives (MDH/MDV), OMOD, clamps, the
 * ZERO_TIMES_ANYTHING rule, the W (depth) output, and TEX KILL.  It
 * declines (returns false with the reason) what it cannot yet say: flow
 * control, predicated writes, relative addressing, derivatives and texture
 * fetches; the renderer draws such a program with soft.
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

#include "../r500.h"

static const char chan[4] = { 'r', 'g', 'b', 'a' };

/*
 * A float operand with the exact bits of v.  Through r500_one, a uniform
 * the compiler cannot see is 1, so that no product with a literal zero is
 * folded away (GLSL compilers fold x * 0 to 0 where the R500 gives NaN
 * for x = NaN or infinity without ZERO_TIMES_ANYTHING).
 */
static void lit(GString *g, float v)
{
    uint32_t b;

    memcpy(&b, &v, 4);
    g_string_append_printf(g, "(r500_one * uintBitsToFloat(0x%08xu))", b);
}

/* Source n (0-2) channel c of an instruction: temp, constant or inline. */
static void src_chan(GString *g, const R500UsInst *in, unsigned n,
                     unsigned c)
{
    const R500UsAddr *a = c < 3 ? &in->rgb_addr[n] : &in->alpha_addr[n];

    switch (a->kind) {
    case R500_US_SRC_TEMP:
        g_string_append_printf(g, "t%u.%c", a->index, chan[c]);
        break;
    case R500_US_SRC_CONST:
        g_string_append_printf(g, "r500_k[%u].%c", a->index, chan[c]);
        break;
    default:
        /* an inline constant supplies every channel (open question 2) */
        lit(g, a->inline_val);
        break;
    }
}

/* Channel c of the presubtract result (sel 3). */
static void presub_chan(GString *g, const R500UsInst *in, unsigned c)
{
    unsigned op = c < 3 ? in->rgb_srcp : in->alpha_srcp;
    GString *s0 = g_string_new(NULL), *s1 = g_string_new(NULL);

    src_chan(s0, in, 0, c);
    src_chan(s1, in, 1, c);
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
static void slot(GString *g, const R500UsInst *in, unsigned sl)
{
    switch (sl) {
    case R500_US_SLOT_0: lit(g, 0.0f); return;
    case R500_US_SLOT_HALF: lit(g, 0.5f); return;
    case R500_US_SLOT_ONE: lit(g, 1.0f); return;
    }
    if (sl / 4 == 3) {
        presub_chan(g, in, sl % 4);
    } else {
        src_chan(g, in, sl / 4, sl % 4);
    }
}

/* One operand channel with its modifier, as us_exec.c's operand(). */
static void operand(GString *g, const R500UsInst *in, unsigned sl,
                    unsigned mod)
{
    static const char *const pre[4] = { "(", "(-", "abs(", "(-abs(" };
    static const char *const post[4] = { ")", ")", ")", "))" };

    g_string_append(g, pre[mod & 3]);
    slot(g, in, sl);
    g_string_append(g, post[mod & 3]);
}

/* The three RGB operands as vec3 a, b, c and the alpha ones as floats. */
static void operands(GString *g, const R500UsInst *in)
{
    for (unsigned n = 0; n < 3; n++) {
        g_string_append_printf(g, "        precise vec3 %c = vec3(", 'a' + n);
        for (unsigned c = 0; c < 3; c++) {
            operand(g, in, in->rgb_slot[n][c], in->rgb_op[n].mod);
            g_string_append(g, c < 2 ? ", " : ");\n");
        }
    }
    for (unsigned n = 0; n < 3; n++) {
        g_string_append_printf(g, "        precise float %c%c = ", 'a' + n,
                               'a' + n);
        operand(g, in, in->alpha_slot[n], in->alpha_op[n].mod);
        g_string_append(g, ";\n");
    }
}

static const float omod_k[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };

/* OMOD and clamp of expression v into variable name (us_exec finish()). */
static void finish(GString *g, const char *name, unsigned omod, bool clamp)
{
    if (omod < 7 && omod) {
        g_string_append_printf(g, "        %s = %s * ", name, name);
        lit(g, omod_k[omod]);
        g_string_append(g, ";\n");
    }
    if (clamp) {
        /* soft's clamp4: below 0 is 0, above 1 is 1, NaN stays */
        g_string_append_printf(g, "        %s = r500_sat(%s);\n", name, name);
    }
}

static bool alpha_op(GString *g, const R500UsInst *in, const char **why)
{
    const char *e;

    switch (in->alpha_opcode) {
    case R500_US_A_MAD: e = "r500_mul(aa, bb) + cc"; break;
    case R500_US_A_DP: e = "dot_"; break;
    case R500_US_A_MIN: e = "aa < bb ? aa : bb"; break;
    case R500_US_A_MAX: e = "aa >= bb ? aa : bb"; break;
    case R500_US_A_CND: e = "cc > 0.5 ? aa : bb"; break;
    case R500_US_A_CMP: e = "cc >= 0.0 ? aa : bb"; break;
    case R500_US_A_FRC: e = "aa - floor(aa)"; break;
    case R500_US_A_EX2: e = "exp2(aa)"; break;
    case R500_US_A_LN2: e = "log2(aa)"; break;
    case R500_US_A_RCP: e = "1.0 / aa"; break;
    case R500_US_A_RSQ: e = "1.0 / sqrt(aa)"; break;
    case R500_US_A_SIN: e = "sin(aa * 6.2831855)"; break;
    case R500_US_A_COS: e = "cos(aa * 6.2831855)"; break;
    case R500_US_A_MDH:
    case R500_US_A_MDV:
        *why = "alpha derivative (MDH/MDV)";
        return false;
    default:
        e = "0.0";
        break;
    }
    g_string_append_printf(g, "        precise float al = %s;\n", e);
    return true;
}

static bool rgb_op(GString *g, const R500UsInst *in, const char **why)
{
    const char *e;

    switch (in->rgb_opcode) {
    case R500_US_RGB_MAD: e = "r500_mul3(a, b) + c"; break;
    case R500_US_RGB_DP3:
    case R500_US_RGB_DP4:
    case R500_US_RGB_D2A: e = "vec3(dot_)"; break;
    case R500_US_RGB_MIN: e = "mix(b, a, lessThan(a, b))"; break;
    case R500_US_RGB_MAX: e = "mix(b, a, greaterThanEqual(a, b))"; break;
    case R500_US_RGB_CND: e = "mix(b, a, greaterThan(c, vec3(0.5)))"; break;
    case R500_US_RGB_CMP: e = "mix(b, a, greaterThanEqual(c, vec3(0.0)))";
        break;
    case R500_US_RGB_FRC: e = "a - floor(a)"; break;
    case R500_US_RGB_SOP: e = "vec3(al)"; break;
    case R500_US_RGB_MDH:
    case R500_US_RGB_MDV:
        *why = "RGB derivative (MDH/MDV)";
        return false;
    default:
        e = "vec3(0.0)";
        break;
    }
    g_string_append_printf(g, "        precise vec3 rgb = %s;\n", e);
    return true;
}

/* The dot product both units may use (us_exec.c, in the same order). */
static void dot(GString *g, const R500UsInst *in)
{
    unsigned rop = in->rgb_opcode;

    if (rop != R500_US_RGB_DP3 && rop != R500_US_RGB_DP4 &&
        rop != R500_US_RGB_D2A && in->alpha_opcode != R500_US_A_DP) {
        return;
    }
    g_string_append(g, "        precise float dot_ = r500_mul(a.x, b.x) + "
                       "r500_mul(a.y, b.y);\n");
    if (rop == R500_US_RGB_D2A) {
        g_string_append(g, "        dot_ = dot_ + c.z;\n");
    } else {
        g_string_append(g, "        dot_ = dot_ + r500_mul(a.z, b.z);\n");
        if (rop != R500_US_RGB_DP3) {
            g_string_append(g, "        dot_ = dot_ + r500_mul(aa, bb);\n");
        }
    }
}

/* The channels of mask (bit c: r, g, b) of rgb into dst. */
static void mask_store(GString *g, const char *dst, unsigned mask)
{
    for (unsigned c = 0; c < 3; c++) {
        if (mask & (1u << c)) {
            g_string_append_printf(g, "        %s.%c = rgb.%c;\n", dst,
                                   chan[c], chan[c]);
        }
    }
}

static bool alu(GString *g, const R500UsInst *in, const char **why)
{
    char dst[16];

    if (in->rgb_pred_sel || in->alpha_pred_sel) {
        *why = "predicated write";
        return false;
    }
    for (unsigned n = 0; n < 3; n++) {
        if (in->rgb_addr[n].rel || in->alpha_addr[n].rel) {
            *why = "relative source address";
            return false;
        }
    }
    if (in->rgb_addrd_rel || in->alpha_addrd_rel) {
        *why = "relative destination address";
        return false;
    }
    g_string_append(g, "    {\n");
    operands(g, in);
    dot(g, in);
    /* alpha first: SOP hands the finished alpha to the RGB unit */
    if (!alpha_op(g, in, why)) {
        return false;
    }
    finish(g, "al", in->alpha_omod, in->alpha_clamp);
    if (!rgb_op(g, in, why)) {
        return false;
    }
    if (in->rgb_opcode != R500_US_RGB_SOP) {
        finish(g, "rgb", in->rgb_omod, in->rgb_clamp);
    }
    g_snprintf(dst, sizeof(dst), "t%u", in->rgb_addrd);
    mask_store(g, dst, in->rgb_wmask);
    if (in->alpha_wmask) {
        g_string_append_printf(g, "        t%u.a = al;\n", in->alpha_addrd);
    }
    if (in->type == R500_US_OUT) {
        if (in->rgb_omask) {
            g_snprintf(dst, sizeof(dst), "r500_o%u", in->rgb_target & 3);
            mask_store(g, dst, in->rgb_omask);
        }
        if (in->alpha_omask) {
            g_string_append_printf(g, "        r500_o%u.a = al;\n",
                                   in->alpha_target & 3);
        }
        if (in->w_omask) {
            g_string_append(g, "        gl_FragDepth = al;\n");
        }
    }
    /* an ALU OMASK sets predicate bits only read by predicated writes */
    g_string_append(g, "    }\n");
    return true;
}

/* The sampling functions' names: r500_tex_<op>_<unit> (us.h). */
static const char *const tex_op_name[8] = {
    [R500_TEX_LD] = "ld", [R500_TEX_PROJ] = "proj",
    [R500_TEX_LODBIAS] = "lodbias", [R500_TEX_LOD] = "lod",
};

static bool tex(GString *g, const R500UsInst *in, uint16_t *tex_ops,
                const char **why)
{
    unsigned op = in->tex_op, wmask = in->rgb_wmask | in->alpha_wmask << 3;

    if (op == R500_TEX_NOP) {
        return true;
    }
    if (in->tex_src_rel || in->tex_dst_rel) {
        *why = "relative TEX address";
        return false;
    }
    if (op == R500_TEX_KILL) {
        /* KILL: any selected coordinate below zero (us_exec exec_tex) */
        g_string_append_printf(g, "    if (t%u.%c < 0.0 || t%u.%c < 0.0 || "
                               "t%u.%c < 0.0 || t%u.%c < 0.0) {\n"
                               "        r500_killed = true;\n    }\n",
                               in->tex_src, chan[in->tex_src_swz[0] & 3],
                               in->tex_src, chan[in->tex_src_swz[1] & 3],
                               in->tex_src, chan[in->tex_src_swz[2] & 3],
                               in->tex_src, chan[in->tex_src_swz[3] & 3]);
        return true;
    }
    if (op > R500_TEX_LOD || !tex_op_name[op]) {
        *why = "texture fetch with gradients (DXDY)";
        return false;
    }
    if (in->tex_unscaled) {
        *why = "unscaled texture coordinates";
        return false;
    }
    if (in->tex_id >= 16) {
        *why = "texture unit past 15";
        return false;
    }
    tex_ops[in->tex_id] |= 1u << op;
    /* S, T, R, Q through the source selects; R, G, B, A through the
     * destination selects, the write mask per channel */
    g_string_append_printf(g, "    {\n        vec4 r = r500_tex_%s_%u(vec4("
                           "t%u.%c, t%u.%c, t%u.%c, t%u.%c));\n",
                           tex_op_name[op], in->tex_id,
                           in->tex_src, chan[in->tex_src_swz[0] & 3],
                           in->tex_src, chan[in->tex_src_swz[1] & 3],
                           in->tex_src, chan[in->tex_src_swz[2] & 3],
                           in->tex_src, chan[in->tex_src_swz[3] & 3]);
    for (unsigned c = 0; c < 4; c++) {
        if (wmask & (1u << c)) {
            g_string_append_printf(g, "        t%u.%c = r.%c;\n", in->tex_dst,
                                   chan[c], chan[in->tex_dst_swz[c] & 3]);
        }
    }
    g_string_append(g, "    }\n");
    return true;
}

/* Temporaries an instruction names (read or written). */
static void temps_named(const R500UsInst *in, uint8_t *used)
{
    if (in->type == R500_US_TEX) {
        used[in->tex_src] = used[in->tex_dst] = 1;
        return;
    }
    for (unsigned n = 0; n < 3; n++) {
        if (in->rgb_addr[n].kind == R500_US_SRC_TEMP) {
            used[in->rgb_addr[n].index] = 1;
        }
        if (in->alpha_addr[n].kind == R500_US_SRC_TEMP) {
            used[in->alpha_addr[n].index] = 1;
        }
    }
    used[in->rgb_addrd] = used[in->alpha_addrd] = 1;
}

bool r500_us_glsl(const R500UsProg *p, const R500UsGlslIn *in, GString *out,
                  uint16_t *tex_ops_out, const char **why)
{
    GString *body = g_string_new(NULL);
    uint8_t used[R500_US_TEMPS] = { 0 }, targets = 0;
    uint16_t tex_ops[16] = { 0 };
    bool depth = false, ok = true, consts = false;
    uint32_t n;

    *why = NULL;
    if (!p->valid) {
        *why = "no valid program";
        g_string_free(body, true);
        return false;
    }
    if (p->uses_fc) {
        *why = "flow control";
        g_string_free(body, true);
        return false;
    }
    n = p->end - p->start + 1;
    for (uint32_t i = 0; i < n && ok; i++) {
        const R500UsInst *ins = &p->inst[i];

        temps_named(ins, used);
        if (ins->type == R500_US_TEX) {
            ok = tex(body, ins, tex_ops, why);
        } else if (ins->type == R500_US_FC) {
            *why = "flow control";
            ok = false;
        } else {
            for (unsigned k = 0; k < 3; k++) {
                consts |= ins->rgb_addr[k].kind == R500_US_SRC_CONST ||
                          ins->alpha_addr[k].kind == R500_US_SRC_CONST;
            }
            if (ins->type == R500_US_OUT) {
                targets |= (ins->rgb_omask ? 1u << (ins->rgb_target & 3) : 0)
                           | (ins->alpha_omask
                              ? 1u << (ins->alpha_target & 3) : 0);
                depth |= ins->w_omask;
            }
            ok = alu(body, ins, why);
        }
        if (ins->last) {
            break;
        }
    }
    if (!ok) {
        g_string_free(body, true);
        return false;
    }
    if (tex_ops_out) {
        memcpy(tex_ops_out, tex_ops, sizeof(tex_ops));
    }

    g_string_append(out, "#version 450 core\n");
    if (in && in->prologue) {
        g_string_append(out, in->prologue);
    }
    if (in && in->epilogue) {
        /* all four: the caller's epilogue reads the ones it stores */
        targets = 0xF;
    }
    for (unsigned t = 0; t < 4; t++) {
        if (!(targets & (1u << t))) {
            continue;
        }
        if (in && in->epilogue) {
            /* the caller's r500_epilogue() stores them */
            g_string_append_printf(out, "vec4 r500_o%u;\n", t);
        } else {
            g_string_append_printf(out, "layout(location = %u) out vec4 "
                                   "r500_o%u;\n", t, t);
        }
    }
    if (in && in->epilogue) {
        g_string_append(out, "void r500_epilogue();\n");
    }
    if (consts) {
        g_string_append(out, "uniform vec4 r500_k[256];\n");
    }
    g_string_append(out, "uniform float r500_one = 1.0;\n");
    /*
     * ZERO_TIMES_ANYTHING_EQUALS_ZERO (US_CONFIG, Mesa sets it): a product
     * with a zero factor is +0 whatever the other is.
     */
    /*
     * The sampling functions the program calls, one per unit and op,
     * defined by the caller after this text: vec4 r500_tex_<op>_<unit>(vec4
     * s_t_r_q), returning R, G, B, A after the unit's selects.
     */
    for (unsigned u = 0; u < 16; u++) {
        for (unsigned op = 0; op < 8; op++) {
            if ((tex_ops[u] >> op) & 1) {
                g_string_append_printf(out, "vec4 r500_tex_%s_%u(vec4 c);\n",
                                       tex_op_name[op], u);
            }
        }
    }
    /*
     * Macros, not functions: `precise` on the variable a product feeds
     * must reach the product itself.
     */
    if (in && in->ztae) {
        g_string_append(out,
            "#define r500_mul(x, y) (((x) == 0.0 || (y) == 0.0) ? 0.0 : "
            "(x) * (y))\n"
            "#define r500_mul3(x, y) mix((x) * (y), vec3(0.0), "
            "bvec3(uvec3(equal((x), vec3(0.0))) | "
            "uvec3(equal((y), vec3(0.0)))))\n");
    } else {
        g_string_append(out, "#define r500_mul(x, y) ((x) * (y))\n"
                             "#define r500_mul3(x, y) ((x) * (y))\n");
    }
    g_string_append(out,
        /* soft's clamp4: NaN and -0 become +0 */
        "float r500_sat(float v) { return v > 1.0 ? 1.0 : v > 0.0 ? v : 0.0; }\n"
        "vec3 r500_sat(vec3 v) {\n"
        "    return vec3(r500_sat(v.x), r500_sat(v.y), r500_sat(v.z));\n}\n"
        "void main() {\n"
        "    bool r500_killed = false;\n");
    for (unsigned t = 0; t < 4; t++) {
        if (targets & (1u << t)) {
            g_string_append_printf(out, "    r500_o%u = vec4(0.0);\n", t);
        }
    }
    for (unsigned t = 0; t < R500_US_TEMPS; t++) {
        if (used[t]) {
            /* the RS fills the temporaries it writes; the rest start 0 */
            g_string_append_printf(out, "    vec4 t%u = R500_TEMP_IN(%u);\n",
                                   t, t);
        }
    }
    if (depth) {
        g_string_append(out, "    gl_FragDepth = gl_FragCoord.z;\n");
    }
    g_string_append(out, body->str);
    if (in && in->epilogue) {
        g_string_append(out, "    r500_epilogue();\n");
    }
    g_string_append(out, "    if (r500_killed) {\n        discard;\n    }\n}\n");
    g_string_free(body, true);
    return true;
}
