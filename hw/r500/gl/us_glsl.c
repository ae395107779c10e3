/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US program as a GLSL fragment shader, for the host-OpenGL renderer
 * (DESIGN.md section 6, issue 19).  It reads the decoded program of us.c
 * (the one decoder) and says in GLSL what us_exec.c does for one pixel;
 * tests/gl/test-us-glsl.c (and test-us-glsl-fc.c) runs both on the same
 * inputs and compares the bits.
 *
 * This file writes the program around the instructions (us_glsl_inst.c
 * the instructions, us_glsl_fc.c the flow), which cover: ALU and OUT with every operand
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

/* The declarations before main(): outputs, constants, functions. */
static void declarations(const UsGlsl *c, GString *out)
{
    const R500UsGlslIn *in = c->in;
    bool epi = in && in->epilogue;

    for (unsigned t = 0; t < 4; t++) {
        /* all four with an epilogue: the caller's reads the ones it stores */
        if (!epi && !(c->targets & (1u << t))) {
            continue;
        }
        if (epi) {
            /* the caller's r500_epilogue() stores them */
            g_string_append_printf(out, "vec4 r500_o%u;\n", t);
        } else {
            g_string_append_printf(out, "layout(location = %u) out vec4 "
                                   "r500_o%u;\n", t, t);
        }
    }
    if (epi) {
        g_string_append(out, "void r500_epilogue();\n");
    }
    if (c->consts) {
        g_string_append(out, "uniform vec4 r500_k[256];\n");
    }
    g_string_append(out, "uniform float r500_one = 1.0;\n");
    /*
     * The sampling functions the program calls, one per unit and op (and
     * unscaled or not), defined by the caller after this text
     * (tx_glsl.c): vec4 fn(vec4 s_t_r_q), returning R, G, B, A after the
     * unit's selects; DXDY's also takes the two gradients.
     */
    for (unsigned u = 0; u < 16; u++) {
        for (unsigned bit = 0; bit < 16; bit++) {
            if ((c->tex_ops[u] >> bit) & 1) {
                g_string_append(out, "vec4 ");
                r500_tx_glsl_fn(out, u, bit);
                g_string_append(out, (bit & 7) == R500_TEX_DXDY
                                ? "(vec4 c, vec4 dx, vec4 dy);\n"
                                : "(vec4 c);\n");
            }
        }
    }
    /*
     * ZERO_TIMES_ANYTHING_EQUALS_ZERO (US_CONFIG, Mesa sets it): a product
     * with a zero factor is +0 whatever the other is.  Macros, not
     * functions: `precise` on the variable a product feeds must reach the
     * product itself.
     */
    g_string_append(out, "#define r500_z ");
    r500_us_glsl_lit(out, 0.0f);
    g_string_append(out, "\n");
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
        "    return vec3(r500_sat(v.x), r500_sat(v.y), r500_sat(v.z));\n}\n");
    if (c->quad) {
        r500_us_glsl_quad_fns(c, out);
    }
}

/* main() up to the program: outputs, temporaries, predicate bits. */
static void main_start(const UsGlsl *c, GString *out)
{
    /*
     * Covered (us_exec.c's q->cover): not a helper invocation, GL's
     * pixel outside the primitive that only feeds derivatives
     */
    g_string_append(out, "void main() {\n"
                         "    bool r500_killed = false;\n"
                         "    bool r500_cov = !gl_HelperInvocation;\n");
    for (unsigned t = 0; t < 4; t++) {
        if ((c->in && c->in->epilogue) || (c->targets & (1u << t))) {
            g_string_append_printf(out, "    r500_o%u = vec4(0.0);\n", t);
        }
    }
    /* the RS fills the temporaries it writes; the rest start 0 */
    for (unsigned t = 0; t < R500_US_TEMPS; t++) {
        if (c->used[t]) {
            g_string_append_printf(out, "    vec4 t%u = R500_TEMP_IN(%u);\n",
                                   t, t);
        }
    }
    if (c->pred) {
        /* us_exec.c's UsFlow starts with every bit clear */
        g_string_append(out, "    bvec4 r500_pred = bvec4(false);\n");
    }
    if (c->depth) {
        g_string_append(out, "    gl_FragDepth = gl_FragCoord.z;\n");
    }
}

bool r500_us_glsl(const R500UsProg *p, const R500UsGlslIn *in, GString *out,
                  uint16_t *tex_ops_out, const char **why)
{
    GString *body;
    UsGlsl c = { .p = p, .in = in };
    bool ok = true, rel = false;
    uint32_t n;

    *why = NULL;
    if (!p->valid) {
        *why = "no valid program";
        return false;
    }
    n = p->end - p->start + 1;
    for (uint32_t i = 0; i < n; i++) {
        const R500UsInst *ins = &p->inst[i];

        if (ins->type == R500_US_TEX) {
            rel |= ins->tex_src_rel || ins->tex_dst_rel ||
                   (ins->tex_op == R500_TEX_DXDY &&
                    (ins->tex_dx_rel || ins->tex_dy_rel));
        } else if (ins->type != R500_US_FC) {
            c.pred |= ins->rgb_pred_sel || ins->alpha_pred_sel;
            rel |= ins->rgb_addrd_rel || ins->alpha_addrd_rel;
            for (unsigned k = 0; k < 3; k++) {
                rel |= ins->rgb_addr[k].rel || ins->alpha_addr[k].rel;
            }
        }
    }
    c.fc = p->uses_fc;
    c.pred |= c.fc;
    if (c.fc && rel && !r500_us_glsl_al(&c, why)) {
        return false;
    }

    body = g_string_new(NULL);
    if (c.fc) {
        ok = r500_us_glsl_flow(&c, body, why);
    } else {
        /* straight-line: from the start to the first LAST (us_exec.c) */
        for (uint32_t i = 0; i < n && ok; i++) {
            ok = r500_us_glsl_inst(&c, body, &p->inst[i], why);
            if (p->inst[i].last) {
                break;
            }
        }
    }
    if (ok && body->len > R500_US_GLSL_MAX) {
        *why = "shader text too long";
        ok = false;
    }
    if (!ok) {
        g_string_free(body, true);
        return false;
    }
    if (tex_ops_out) {
        memcpy(tex_ops_out, c.tex_ops, sizeof(c.tex_ops));
    }

    g_string_append(out, "#version 450 core\n");
    if (in && in->prologue) {
        g_string_append(out, in->prologue);
    }
    declarations(&c, out);
    main_start(&c, out);
    g_string_append(out, body->str);
    if (in && in->epilogue) {
        g_string_append(out, "    r500_epilogue();\n");
    }
    g_string_append(out, "    if (r500_killed) {\n        discard;\n    }\n}\n");
    g_string_free(body, true);
    return true;
}
