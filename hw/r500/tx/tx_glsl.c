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
};

/* TEX_COORD_TYPE: 2D, 3D, cube (tx.c) */
static const char *const sampler_type[3] = {
    "sampler2D", "sampler3D", "samplerCube",
};
static const char *const coord[3] = { "c.xy", "c.xyz", "c.xyz" };

bool r500_tx_gl_wrap(unsigned mode)
{
    /*
     * Core GL has repeat, mirrored repeat, clamp to edge, mirror clamp to
     * edge and clamp to border; GL_CLAMP (CLAMP_HALF and its mirror) and
     * the mirror-once-to-border mode are not core.
     */
    return mode <= 3 || mode == 6;
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
    for (unsigned op = 0; op < 8; op++) {
        const char *c = coord[ct];

        if (!((ops >> op) & 1)) {
            continue;
        }
        if (!op_name[op]) {
            *why = "TEX op the translation does not call";
            return false;
        }
        g_string_append_printf(out, "vec4 r500_tex_%s_%u(vec4 c) {\n"
                               "    return r500_sel%u(", op_name[op], unit,
                               unit);
        switch (op) {
        case R500_TEX_LD:
            g_string_append_printf(out, "texture(r500_s%u, %s)", unit, c);
            break;
        case R500_TEX_PROJ:
            /* S, T and R over Q (tx.c); a cube map ignores the scale */
            g_string_append_printf(out, "texture(r500_s%u, %s / c.w)", unit,
                                   c);
            break;
        case R500_TEX_LODBIAS:
            g_string_append_printf(out, "texture(r500_s%u, %s, c.w)", unit,
                                   c);
            break;
        default:
            g_string_append_printf(out, "textureLod(r500_s%u, %s, c.w)", unit,
                                   c);
            break;
        }
        g_string_append(out, ");\n}\n");
    }
    return true;
}
