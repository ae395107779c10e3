/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A texture unit's sampling as GLSL, for the host-OpenGL renderer
 * (DESIGN.md section 6, issue 19): the functions r500_tex_<op>_<unit>
 * that us_glsl.c's programs call, over a sampler holding the unit's
 * r500_tx_image() texels (RGBA32F: decoded and finished, before SEL),
 * with the unit's SEL selects applied after filtering as tx.c does.
 * Wrap modes and filters are sampler state, which the renderer sets from
 * the unit (r500_tx_gl_wrap() says which wraps GL can express).  The LOD
 * is tx.c's, computed in the shader and handed to textureLod(): GL's own
 * is taken with approximations by llvmpipe (its rho and log2: trilinear
 * filtering moves by tens of 255ths) and from the base level.
 */
#include <glib.h>

#include "glsl.h"

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
 * r500_cube<unit>(d): the LOD tx.c takes for a cube map at direction d,
 * each pixel's own: the direction's differences across the quad (GL's
 * coarse derivatives, as tx.c takes pixel 1 - 0 and 2 - 0; or the
 * gradients DXDY gives, r500_cubeg<unit>(d, dx, dy)) carried onto
 * the pixel's own face, d(sc/ma) = (dsc ma - sc dma) / ma^2 (tx.c
 * cube_derivs), in texels of level 0, log2 of the longer (tx_lod).  The
 * signs of sc, tc and ma only flip the derivatives' signs, so the face
 * is its major axis (tx.c cube_face's order of ties).
 */
static void cube_lod(GString *out, unsigned unit)
{
    g_string_append_printf(out,
        "float r500_cubeg%u(vec3 d, vec3 dx, vec3 dy) {\n"
        "    vec3 a = abs(d);\n"
        "    int m = a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;\n"
        "    vec3 p = m == 0 ? d : m == 1 ? d.yzx : d.zxy;\n"
        "    vec3 px = m == 0 ? dx : m == 1 ? dx.yzx : dx.zxy;\n"
        "    vec3 py = m == 0 ? dy : m == 1 ? dy.yzx : dy.zxy;\n"
        "    float ma = p.x == 0.0 ? 1.0 : p.x;\n"
        "    float k = 0.5 * r500_ts%u.x / (ma * ma);\n"
        "    vec2 gx = (px.yz * ma - p.yz * px.x) * k;\n"
        "    vec2 gy = (py.yz * ma - p.yz * py.x) * k;\n"
        "    return log2(max(length(gx), length(gy)));\n}\n"
        "float r500_cube%u(vec3 d) {\n"
        "    return r500_cubeg%u(d, dFdxCoarse(d), dFdyCoarse(d));\n}\n",
        unit, unit, unit, unit);
}

/*
 * r500_quad<unit>(p): the LOD tx.c takes for a 2D or 3D texture at p: the
 * differences across the quad (or the gradients DXDY gives,
 * r500_quadg<unit>(p, dx, dy)) in texels of level 0 (R only for 3D, where
 * level 0's depth is not 0), log2 of the longer.
 */
static void quad_lod(GString *out, unsigned unit)
{
    g_string_append_printf(out,
        "float r500_quadg%u(vec3 p, vec3 dx, vec3 dy) {\n"
        "    dx *= r500_ts%u.xyz;\n"
        "    dy *= r500_ts%u.xyz;\n"
        "    return log2(max(length(dx), length(dy)));\n}\n"
        "float r500_quad%u(vec3 p) {\n"
        "    return r500_quadg%u(p, dFdxCoarse(p), dFdyCoarse(p));\n}\n",
        unit, unit, unit, unit, unit);
}

/*
 * r500_lod<unit>(l): tx.c's LOD l (from level 0, the unit's bias in) as
 * GL's for textureLod().  tx.c magnifies at l <= 0 (NaN too), at level
 * first (MAX_MIP_LEVEL), and minifies at l clamped to [first, last]; GL
 * measures from its base level, first, and magnifies at 0 and below: so
 * -1 there, else the clamped level over first, never quite 0 (GL would
 * magnify; the 2^-16 of the next level a linear mip filter then takes is
 * under a 255th).  GL's sampler cannot say this itself: its MIN_LOD is
 * from the base level too, and clamps before it tells magnification from
 * minification.
 */
static void lod_map(GString *out, const R500TxUnit *t, unsigned unit)
{
    g_string_append_printf(out,
        "float r500_lod%u(float l) {\n"
        "    return !(l > 0.0) ? -1.0 : max(clamp(l, %u.0, %u.0) - %u.0, "
        "1.0 / 65536.0);\n}\n", unit, t->first, t->last, t->first);
}

void r500_tx_glsl_fn(GString *out, unsigned unit, unsigned bit)
{
    g_string_append_printf(out, "r500_tex_%s%s_%u", op_name[bit & 7],
                           bit >= R500_TX_GLSL_UNSCALED ? "u" : "", unit);
}

void r500_tx_glsl_size(const R500TxUnit *t, float v[4])
{
    v[0] = t->level[0].w;
    v[1] = t->level[0].h;
    /* tx.c's d0: a 3D texture's depth, else no R in the LOD */
    v[2] = t->coord_type == 1 ? t->level[0].d : 0.0f;
    v[3] = t->lod_bias;
}

bool r500_tx_plain8(const R500TxUnit *t)
{
    return t->fmt == R500_TXF_8_8_8_8 && !t->sign && !t->finish &&
           t->fetch == R500_TX_FETCH_PLAIN;
}

bool r500_tx_glsl_point8(const R500TxUnit *t)
{
    /* one level's texel, not a blend (MIP_FILTER none or nearest) */
    return r500_tx_plain8(t) && t->mag < 2 && t->min < 2 && t->mip <= 1;
}

bool r500_tx_glsl(const R500TxUnit *t, unsigned unit, uint16_t ops,
                  GString *out, const char **why)
{
    static const char ch[4] = { 'x', 'y', 'z', 'w' };
    static const char *const coord[3] = { "p.xy", "p", "p" };
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
    /*
     * r500_ts<unit>: level 0's width, height and (3D) depth, for
     * unscaled coordinates and the LOD tx.c takes in level 0's texels,
     * and the unit's LOD bias (r500_tx_glsl_size): uniforms, so that
     * another size is not another program.
     */
    g_string_append_printf(out, "uniform %s r500_s%u;\n"
                           "uniform vec4 r500_ts%u;\n"
                           "vec4 r500_sel%u(vec4 v) {\n",
                           sampler_type[ct], unit, unit, unit);
    if (r500_tx_glsl_point8(t)) {
        /*
         * A texel of 8-bit components as it is: exact from RGBA32F
         * already, and made exact where the renderer samples an RGBA8
         * texture (a surface it holds, gl_thread.c gl_slot_as_is), whose
         * conversion llvmpipe does by a multiply that misses by an ulp
         */
        g_string_append(out, "    v = round(v * 255.0) / 255.0;\n");
    }
    g_string_append(out, "    return vec4(");
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
    lod_map(out, t, unit);
    if (ct == 2) {
        cube_lod(out, unit);
    } else {
        quad_lod(out, unit);
    }
    for (unsigned bit = 0; bit < 16; bit++) {
        unsigned op = bit & 7;
        const char *c = coord[ct];

        if (!((ops >> bit) & 1)) {
            continue;
        }
        if (!op_name[op]) {
            *why = "TEX op the translation does not call";
            return false;
        }
        g_string_append(out, "vec4 ");
        r500_tx_glsl_fn(out, unit, bit);
        /* S, T and R; over Q (PROJ); over level 0's size (unscaled) */
        g_string_append_printf(out, "(vec4 c%s) {\n    vec3 p = c.xyz;\n%s",
                               op == R500_TEX_DXDY ? ", vec4 dx, vec4 dy" : "",
                               op == R500_TEX_PROJ ? "    p /= c.w;\n" : "");
        if (bit >= R500_TX_GLSL_UNSCALED) {
            /* tx.c: R too where level 0 has a depth (3D) */
            const char *m = ct == 1 ? "xyz" : "xy";

            g_string_append_printf(out, "    p.%s /= r500_ts%u.%s;\n", m,
                                   unit, m);
        }
        g_string_append_printf(out, "    return r500_sel%u(", unit);
        if (op == R500_TEX_LOD) {
            /* the explicit LOD in Q, the unit's bias added */
            g_string_append_printf(out, "textureLod(r500_s%u, %s, "
                                   "r500_lod%u(c.w + r500_ts%u.w))", unit, c,
                                   unit, unit);
        } else if (op == R500_TEX_DXDY) {
            /*
             * tx.c's LOD from the given gradients, each pixel's own (in
             * the coordinates' units, as the quad's differences are), the
             * unit's bias
             */
            g_string_append_printf(out, "textureLod(r500_s%u, %s, "
                                   "r500_lod%u(r500_%sg%u(p, dx.xyz, "
                                   "dy.xyz) + r500_ts%u.w))", unit, c, unit,
                                   ct == 2 ? "cube" : "quad", unit, unit);
        } else {
            /* tx.c's LOD from the quad, the unit's bias; LODBIAS adds Q */
            g_string_append_printf(out, "textureLod(r500_s%u, %s, "
                                   "r500_lod%u(r500_%s%u(p)%s + "
                                   "r500_ts%u.w))", unit, c, unit,
                                   ct == 2 ? "cube" : "quad", unit,
                                   op == R500_TEX_LODBIAS ? " + c.w" : "",
                                   unit);
        }
        g_string_append(out, ");\n}\n");
    }
    return true;
}
