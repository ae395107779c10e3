/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A texture unit's sampling as GLSL, for the host-OpenGL renderer
 * (DESIGN.md section 6, issue 19): the functions r500_tex_<op>_<unit>
 * that us_glsl.c's programs call, over a sampler holding the unit's
 * r500_tx_image() texels (RGBA32F: decoded and finished, before SEL),
 * with the unit's SEL selects applied after filtering as tx.c does.
 * Wrap modes and filters are sampler state, which the renderer sets from
 * the unit (r500_tx_gl_wrap() says which wraps GL can express).
 */
#include <glib.h>

#include "../r500.h"

static const char *const op_name[8] = {
    [R500_TEX_LD] = "ld", [R500_TEX_PROJ] = "proj",
    [R500_TEX_LODBIAS] = "lodbias", [R500_TEX_LOD] = "lod",
    [R500_TEX_DXDY] = "dxdy",
};

const char *r500_tx_glsl_op(unsigned op)
{
    return op < 8 ? op_name[op] : NULL;
}

/* TEX_COORD_TYPE: 2D, 3D, cube (tx.c) */
static const char *const sampler_type[3] = {
    "sampler2D", "sampler3D", "samplerCube",
};
/* the coordinates (and gradients) a sampler of each type takes */
static const char *const coord[3] = { "xy", "xyz", "xyz" };

bool r500_tx_gl_wrap(unsigned mode)
{
    /*
     * Core GL has repeat, mirrored repeat, clamp to edge, mirror clamp to
     * edge and clamp to border; GL_CLAMP (CLAMP_HALF and its mirror) and
     * the mirror-once-to-border mode are not core.
     */
    return mode <= 3 || mode == 6;
}

/*
 * r500_cube<unit>(d, bias): a cube map sampled at direction d with the
 * LOD tx.c takes for it, each pixel's own: the direction's differences
 * across the quad (GL's coarse derivatives, as tx.c takes pixel 1 - 0
 * and 2 - 0) carried onto the pixel's own face, d(sc/ma) = (dsc ma -
 * sc dma) / ma^2 (tx.c cube_derivs), in texels of the base level, log2
 * of the longer (tx_lod); plus bias.  The signs of sc, tc and ma only
 * flip the derivatives' signs, so the face is its major axis (tx.c
 * cube_face's order of ties).  GL's own LOD for a cube map is taken once
 * per quad by llvmpipe and with approximations (its rho and log2),
 * which moves trilinear filtering by tens of 255ths.
 */
static void cube_lod(GString *out, unsigned unit)
{
    g_string_append_printf(out,
        "vec4 r500_cube%u(vec3 d, float bias) {\n"
        "    vec3 dx = dFdxCoarse(d), dy = dFdyCoarse(d), a = abs(d);\n"
        "    int m = a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;\n"
        "    vec3 p = m == 0 ? d : m == 1 ? d.yzx : d.zxy;\n"
        "    vec3 px = m == 0 ? dx : m == 1 ? dx.yzx : dx.zxy;\n"
        "    vec3 py = m == 0 ? dy : m == 1 ? dy.yzx : dy.zxy;\n"
        "    float ma = p.x == 0.0 ? 1.0 : p.x;\n"
        "    float k = 0.5 * float(textureSize(r500_s%u, 0).x) / "
        "(ma * ma);\n"
        "    vec2 gx = (px.yz * ma - p.yz * px.x) * k;\n"
        "    vec2 gy = (py.yz * ma - p.yz * py.x) * k;\n"
        "    return textureLod(r500_s%u, d, log2(max(length(gx), "
        "length(gy))) + bias);\n}\n", unit, unit, unit);
}

bool r500_tx_glsl(const R500TxUnit *t, unsigned unit, uint16_t ops,
                  GString *out, const char **why)
{
    static const char ch[4] = { 'x', 'y', 'z', 'w' };
    unsigned ct = t->coord_type;

    *why = NULL;
    if (!t->valid || ct > 2) {
        *why = "texture unit not usable";
        return false;
    }
    for (int k = 0; k < 3; k++) {
        if (!r500_tx_gl_wrap(t->wrap[k])) {
            *why = "wrap mode GL has not (GL_CLAMP, mirror once to border)";
            return false;
        }
    }
    g_string_append_printf(out, "uniform %s r500_s%u;\n"
                           "vec4 r500_sel%u(vec4 v) {\n    return vec4(",
                           sampler_type[ct], unit, unit);
    /* SEL_RED/GREEN/BLUE/ALPHA: component 0-3, 4 zero, 5 one */
    for (int k = 0; k < 4; k++) {
        unsigned sel = t->sel[k];

        if (sel < 4) {
            g_string_append_printf(out, "v.%c", ch[sel]);
        } else {
            g_string_append(out, sel == 5 ? "1.0" : "0.0");
        }
        g_string_append(out, k < 3 ? ", " : ");\n}\n");
    }
    if (ct == 2 && (ops & (1u << R500_TEX_LD | 1u << R500_TEX_PROJ |
                           1u << R500_TEX_LODBIAS))) {
        cube_lod(out, unit);
    }
    for (unsigned op = 0; op < 8; op++) {
        const char *c = coord[ct];

        if (!((ops >> op) & 1)) {
            continue;
        }
        if (!op_name[op]) {
            *why = "TEX op the translation does not call";
            return false;
        }
        g_string_append_printf(out, "vec4 r500_tex_%s_%u(vec4 c%s) {\n"
                               "    return r500_sel%u(", op_name[op], unit,
                               op == R500_TEX_DXDY ? ", vec4 dx, vec4 dy" : "",
                               unit);
        switch (ct == 2 && op != R500_TEX_LOD && op != R500_TEX_DXDY ? 8
                : op) {
        case 8:
            /* a cube map with soft's LOD, each pixel's own (cube_lod) */
            g_string_append_printf(out, "r500_cube%u(c.%s%s, %s)", unit, c,
                                   op == R500_TEX_PROJ ? " / c.w" : "",
                                   op == R500_TEX_LODBIAS ? "c.w" : "0.0");
            break;
        case R500_TEX_LD:
            g_string_append_printf(out, "texture(r500_s%u, c.%s)", unit, c);
            break;
        case R500_TEX_PROJ:
            /* S, T and R over Q (tx.c); a cube map ignores the scale */
            g_string_append_printf(out, "texture(r500_s%u, c.%s / c.w)",
                                   unit, c);
            break;
        case R500_TEX_LODBIAS:
            g_string_append_printf(out, "texture(r500_s%u, c.%s, c.w)", unit,
                                   c);
            break;
        case R500_TEX_DXDY:
            /*
             * The given gradients (tx.c: each pixel's own, in the
             * coordinates' units); GL's rho from them is tx.c's tx_lod(),
             * the unit's LOD_BIAS the sampler's as for the other ops.
             */
            g_string_append_printf(out, "textureGrad(r500_s%u, c.%s, dx.%s, "
                                   "dy.%s)", unit, c, c, c);
            break;
        default:
            g_string_append_printf(out, "textureLod(r500_s%u, c.%s, c.w)",
                                   unit, c);
            break;
        }
        g_string_append(out, ");\n}\n");
    }
    return true;
}
