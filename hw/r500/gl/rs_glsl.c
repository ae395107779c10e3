/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RS as GLSL, for the host-OpenGL renderer (DESIGN.md section 6,
 * issue 19): the vertex shader that takes the rasteriser's window-space
 * vertices and the fragment-shader prologue that fills the US
 * temporaries from them, as scan.c's interp_attrs() does.  With
 * us_glsl.c's program after the prologue it is the whole draw's fragment
 * stage; tests/gl/test-rs-glsl.c compares it with soft.
 *
 * The vertex interface (one vertex = what R500Vertex holds after the VTE),
 * as R500RsGlslLayout says:
 *   location 0    vec4: window x, y (pixels, y down as the surface's
 *                 rows), z (0..1) and 1/w;
 *   location 1+i  vec4: attributes 4g..4g+3 for input i = (group g, flat):
 *                 a flat one is the provoking vertex's (the caller repeats
 *                 it on all three), so flat values do not depend on GL's
 *                 provoking-vertex convention;
 *   back_loc      float: 1 for a back-facing primitive;
 *   sprite_loc    vec4 (with lay->sprite): a stuffed point's S, T at the
 *                 corner (R500Vertex.sprite), read for R500_RS_STUFF.
 * Two-sided colour is the caller's (the back colours put in place of the
 * front ones before upload), as is culling: the renderer takes the
 * primitives soft's set-up has already clipped, culled and faced.
 * Uniform vec2 r500_size: the surface's width and height.  Row 0 of the
 * surface is GL's bottom row, so nothing is flipped and the surface's
 * memory order is GL's.
 *
 * With the vertex stage on the host (r500_rs_glsl_pvs, pipe/
 * gl_vertex.c) the vertex shader is the PVS program's (gl/pvs_glsl.c)
 * followed by the RS's varyings and a main() that gives GL the clip-
 * space position for a viewport equal to the VTE's; the prologue is the
 * same but for facing and two-sided colour, which come from
 * gl_FrontFacing (GL's front face is the SU's), and flat inputs take
 * GL's provoking vertex (the caller turns each triangle so that the
 * SU's provoking vertex is last).
 */
#include <glib.h>
#include <string.h>

#include "glsl.h"

#define ATTR_VEC4S (R500_VTX_ATTRS / 4)

static const char chan[4] = { 'x', 'y', 'z', 'w' };

/* The input of (group, flat), adding it to the layout on first use. */
static int input_of(R500RsGlslLayout *lay, unsigned group, bool flat)
{
    for (unsigned i = 0; i < lay->n; i++) {
        if (lay->group[i] == group && lay->flat[i] == flat) {
            return i;
        }
    }
    lay->group[lay->n] = group;
    lay->flat[lay->n] = flat;
    return lay->n++;
}

/*
 * The fragment prologue's body: each RS write of r, in order (a later
 * write of the same temporary wins, as in soft), its channels from the
 * inputs (r500_v<i>, added to lay), the facing flag r500_b, the window
 * position or the sprite's S, T.
 */
static void rs_body(const R500Rast *r, R500RsGlslLayout *lay, GString *body)
{
    memset(lay, 0, sizeof(*lay));
    for (unsigned i = 0; i < r->nrs; i++) {
        for (int c = 0; c < 4; c++) {
            lay->sprite |= r->rs[i].ch[c].src == R500_RS_STUFF;
        }
    }
    for (unsigned i = 0; i < r->nrs; i++) {
        const R500RsWrite *w = &r->rs[i];

        g_string_append_printf(body, "    if (n == %u) {\n", w->temp);
        for (int c = 0; c < 4; c++) {
            const R500RsChan *ch = &w->ch[c];

            g_string_append_printf(body, "        t.%c = ", chan[c]);
            switch (ch->src) {
            case R500_RS_ONE:
                g_string_append(body, "1.0;\n");
                break;
            case R500_RS_FACE:
                g_string_append(body, "r500_b;\n");
                break;
            case R500_RS_WINX:
                g_string_append(body, "gl_FragCoord.x;\n");
                break;
            case R500_RS_WINY:
                g_string_append(body, "gl_FragCoord.y;\n");
                break;
            case R500_RS_STUFF:
                /* the corners' sprite S, T (scan.c); R is 0 (2.4) */
                g_string_append(body, ch->attr == 0 ? "r500_st.x;\n"
                                : ch->attr == 1 ? "r500_st.y;\n" : "0.0;\n");
                break;
            case R500_RS_ATTR:
                g_string_append_printf(body, "r500_v%d.%c;\n",
                                       input_of(lay, ch->attr / 4, ch->flat),
                                       chan[ch->attr % 4]);
                break;
            default:
                g_string_append(body, "0.0;\n");
                break;
            }
        }
        g_string_append(body, "    }\n");
    }
    lay->back_loc = 1 + lay->n;
    lay->sprite_loc = lay->back_loc + 1;
}

/* The prologue's function from its body (rs_body()). */
static void rs_prologue(GString *fs, const GString *body)
{
    g_string_append(fs, "vec4 r500_temp_in(int n) {\n"
                        "    vec4 t = vec4(0.0);\n");
    g_string_append(fs, body->str);
    g_string_append(fs, "    return t;\n}\n"
                        "#define R500_TEMP_IN(n) r500_temp_in(n)\n");
}

bool r500_rs_glsl(const R500Rast *r, GString *vs, GString *fs,
                  R500RsGlslLayout *lay, const char **why)
{
    GString *body = g_string_new(NULL), *sprite_decl = g_string_new(NULL);

    *why = NULL;
    rs_body(r, lay, body);
    if (lay->sprite) {
        g_string_append_printf(sprite_decl, "layout(location = %u) in vec4 "
                               "r500_sprite;\nsmooth out vec4 r500_st;\n",
                               lay->sprite_loc);
        g_string_append(fs, "smooth in vec4 r500_st;\n");
    }
    g_string_append(vs, "#version 450 core\n"
                        "layout(location = 0) in vec4 r500_win;\n");
    for (unsigned i = 0; i < lay->n; i++) {
        const char *q = lay->flat[i] ? "flat" : "smooth";

        g_string_append_printf(vs, "layout(location = %u) in vec4 r500_a%u;\n"
                               "%s out vec4 r500_v%u;\n", 1 + i, i, q, i);
        g_string_append_printf(fs, "%s in vec4 r500_v%u;\n", q, i);
    }
    g_string_append_printf(vs,
        "layout(location = %u) in float r500_back;\n"
        "flat out float r500_b;\n"
        "uniform vec2 r500_size;\n"
        "%s"
        "void main() {\n"
        /*
         * Window position back to clip space with w = 1/(1/w): GL's
         * perspective interpolation is then soft's (attribute times 1/w
         * over the 1/w plane).
         */
        "    float w = 1.0 / r500_win.w;\n"
        "    vec3 ndc = vec3(r500_win.xy / r500_size * 2.0 - 1.0, "
        "r500_win.z);\n"
        "    gl_Position = vec4(ndc * w, w);\n"
        "    r500_b = r500_back;\n", lay->back_loc, sprite_decl->str);
    for (unsigned i = 0; i < lay->n; i++) {
        g_string_append_printf(vs, "    r500_v%u = r500_a%u;\n", i, i);
    }
    if (lay->sprite) {
        g_string_append(vs, "    r500_st = r500_sprite;\n");
    }
    g_string_append(vs, "}\n");
    g_string_append(fs, "flat in float r500_b;\n");
    rs_prologue(fs, body);
    g_string_free(body, true);
    g_string_free(sprite_decl, true);
    return true;
}

bool r500_rs_glsl_pvs(const R500Rast *r, GString *vs, GString *fs,
                      R500RsGlslLayout *lay, const char **why)
{
    GString *body = g_string_new(NULL);
    unsigned nclip = 0;

    *why = NULL;
    rs_body(r, lay, body);
    if (lay->sprite) {
        *why = "point sprites";
        g_string_free(body, true);
        return false;
    }
    for (unsigned p = 0; p < 6; p++) {
        nclip += r->ucp_enable >> p & 1;
    }
    if (nclip) {
        g_string_append_printf(vs, "out float gl_ClipDistance[%u];\n"
                               "uniform vec4 r500_ucp[6];\n", nclip);
    }
    for (unsigned i = 0; i < lay->n; i++) {
        const char *q = lay->flat[i] ? "flat" : "smooth";
        unsigned g = lay->group[i];

        /* two-sided colour: back faces take colours 2/3 (scan.c) */
        if (g < 2 && (r->colours >> (2 + g) & 1)) {
            g_string_append_printf(vs, "%s out vec4 r500_f%u;\n"
                                   "%s out vec4 r500_k%u;\n", q, i, q, i);
            g_string_append_printf(fs, "%s in vec4 r500_f%u;\n"
                                   "%s in vec4 r500_k%u;\n"
                                   "#define r500_v%u (gl_FrontFacing ? "
                                   "r500_f%u : r500_k%u)\n", q, i, q, i,
                                   i, i, i);
        } else {
            g_string_append_printf(vs, "%s out vec4 r500_v%u;\n", q, i);
            g_string_append_printf(fs, "%s in vec4 r500_v%u;\n", q, i);
        }
    }
    /*
     * The clip-space position to GL's: GL's viewport is the VTE's
     * (gl_vertex.c), its scale made positive by flipping x or y here, so
     * GL clips where the rasteriser's clipper does (x, y and z against w,
     * the user planes) and lands on the VTE's window coordinates; z
     * within 0..w as GL's clip control (0..1) wants it.
     */
    g_string_append(vs, "void main() {\n"
                        "    r500_pvs();\n"
                        "    vec4 p = R500_VTX_POS;\n");
    nclip = 0;
    for (unsigned p = 0; p < 6; p++) {
        if (r->ucp_enable >> p & 1) {
            g_string_append_printf(vs, "    gl_ClipDistance[%u] = "
                                   "dot(p, r500_ucp[%u]);\n", nclip++, p);
        }
    }
    g_string_append_printf(vs, "    gl_Position = vec4(%sp.x, %sp.y, %s, "
                           "p.w);\n", r->vport[0] < 0 ? "-" : "",
                           r->vport[2] < 0 ? "-" : "",
                           r->dx_clip ? "p.z" : "(p.z + p.w) * 0.5");
    for (unsigned i = 0; i < lay->n; i++) {
        unsigned g = lay->group[i];

        if (g < 2 && (r->colours >> (2 + g) & 1)) {
            g_string_append_printf(vs, "    r500_f%u = R500_VTX_G%u;\n"
                                   "    r500_k%u = R500_VTX_G%u;\n", i, g,
                                   i, g + 2);
        } else {
            g_string_append_printf(vs, "    r500_v%u = R500_VTX_G%u;\n", i,
                                   g);
        }
    }
    g_string_append(vs, "}\n");
    /* the SU's facing is GL's (glFrontFace): 1 for back faces */
    g_string_append(fs, "#define r500_b (gl_FrontFacing ? 0.0 : 1.0)\n");
    rs_prologue(fs, body);
    g_string_free(body, true);
    return true;
}
