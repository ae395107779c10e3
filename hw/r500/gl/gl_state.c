/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_state: the RB3D and ZB state of a draw for the host-GL renderer
 * (gl.c): blending, depth and stencil as GL state in the job, and the
 * colour targets' writes, the alpha test, DISCARD_SRC_PIXELS and the ZB
 * colour clear as the US program's GLSL epilogue.  What GL cannot draw as
 * soft (rb3d.c, zb.c) would is a reason, and soft draws it.
 */
#include <string.h>

#include "gl_int.h"

/* GL_ZERO is 0: what gl_factor() gives for a factor GL has not */
#define GL_NO_FACTOR            0xFFFFu

/* The GL blend factor of an RB3D_BLENDCNTL factor (rb3d.c). */
static GLenum gl_factor(unsigned f)
{
    switch (f) {
    case 1:
    case 32:
        return GL_ZERO;
    case 2:
    case 33:
        return GL_ONE;
    case 3:
    case 34:
        return GL_SRC_COLOR;
    case 4:
    case 35:
        return GL_ONE_MINUS_SRC_COLOR;
    case 5:
    case 12:
    case 38:
        return GL_SRC_ALPHA;
    case 6:
    case 13:
    case 39:
        return GL_ONE_MINUS_SRC_ALPHA;
    case 7:
    case 40:
        return GL_DST_ALPHA;
    case 8:
    case 41:
        return GL_ONE_MINUS_DST_ALPHA;
    case 9:
    case 36:
        return GL_DST_COLOR;
    case 10:
    case 37:
        return GL_ONE_MINUS_DST_COLOR;
    case 11:
    case 42:
        return GL_SRC_ALPHA_SATURATE;
    case 43:
        return GL_CONSTANT_COLOR;
    case 44:
        return GL_ONE_MINUS_CONSTANT_COLOR;
    case 45:
        return GL_CONSTANT_ALPHA;
    case 46:
        return GL_ONE_MINUS_CONSTANT_ALPHA;
    default:
        return GL_NO_FACTOR;
    }
}

static GLenum gl_equation(unsigned fn)
{
    static const GLenum eq[8] = {
        GL_FUNC_ADD, GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_SUBTRACT,
        GL_MIN, GL_MAX, GL_FUNC_REVERSE_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT,
    };

    return eq[fn & 7];
}

/* The state GL draws as soft would; NULL, or why not. */
const char *r500_gl_state(R500Chip *s, GlJob *j)
{
    const R500Rb3d *rb = &s->rb3d;
    const R500Rast *r = &s->rast;

    /* the clip rule in the epilogue (r500_gl_targets) */
    j->clip = r->clip_rule != 0xFFFF;
    j->clip_rule = r->clip_rule;
    memcpy(j->cr, r->cr, sizeof(j->cr));
    if (rb->zero_output && rb->cb_clear) {
        return "ZERO_OUTPUT_MASK with the ZB colour clear";
    }
    if (rb->rop_on) {
        /*
         * The ROP (rb3d.c color_write, reference 2.11) on the stored
         * bits, as GL's logic op on a fixed-point target; blending is
         * off under both.  RB3D_ROPCNTL.ROP's bit (s << 1 | d) is the
         * result for source bit s and destination bit d (Mesa passes its
         * PIPE_LOGICOP_* there); GL's ops, in X11's order, keep that
         * table's bits reversed: COPY is 12 (0b1100) there, 3 in GL.
         */
        unsigned code = R500_FGET(rb->rop, RB3D_ROPCNTL, ROP), rev = 0;

        if (rb->cb_clear) {
            /* GL's logic op would reach the ZB's memory too */
            return "a ROP with the ZB colour clear";
        }
        for (int b = 0; b < 4; b++) {
            rev |= ((code >> b) & 1u) << (3 - b);
        }
        j->logic_op = GL_CLEAR + rev;
        return NULL;
    }
    if (rb->blend_on) {
        for (int c = 0; c < 2; c++) {
            int i = c ? 3 : 0;

            j->eq[c] = gl_equation(rb->bf[i].fn);
            j->sf[c] = gl_factor(rb->bf[i].src);
            j->df[c] = gl_factor(rb->bf[i].dst);
            if (j->sf[c] == GL_NO_FACTOR || j->df[c] == GL_NO_FACTOR) {
                return "a blend factor";
            }
            /* fixed-point targets clamp every result (blend4), as GL */
        }
        for (int i = 1; i < 3; i++) {
            if (memcmp(&rb->bf[i], &rb->bf[0], sizeof(rb->bf[0]))) {
                return "per-channel blend";
            }
        }
        j->blend = true;
    }
    return NULL;
}

/* ZB_ZSTENCILCNTL's functions and stencil operations in GL (2.12). */
static const GLenum gl_func[8] = {
    GL_NEVER, GL_LESS, GL_LEQUAL, GL_EQUAL, GL_GEQUAL, GL_GREATER,
    GL_NOTEQUAL, GL_ALWAYS,
};
static const GLenum gl_stencil_op[8] = {
    GL_KEEP, GL_ZERO, GL_REPLACE, GL_INCR, GL_DECR, GL_INVERT, GL_INCR_WRAP,
    GL_DECR_WRAP,
};

/*
 * Depth and stencil (zb.c): the buffer's words are GL's (Z24S8 is GL's
 * 24_8 packing, Z16 its 16-bit depth); window z goes to the buffer's
 * scale with SU_DEPTH_SCALE/OFFSET and the primitive's polygon offset at
 * the vertices (gl_tri), so GL's depth is soft's depth_fixed() but for
 * rounding.
 */
const char *r500_gl_depth(R500Chip *s, GlJob *j)
{
    const R500Rb3d *rb = &s->rb3d;
    const R500UsProg *p = &s->us.prog;
    R500Gl *g = s->gl;
    bool writes_w = false;

    g->zb_on = false;
    if (rb->cb_clear) {
        /*
         * The ZB colour clear (zb.c r500_zb_cb_clear): no depth or
         * stencil, the raw ZB_DEPTHCLEARVALUE into every covered pixel
         * of the ZB's memory, the colour targets written as ever.
         */
        j->cbzb = rb->zb.enabled;
        j->cbzb_bpp = rb->zb.surf.bpp;
        return NULL;
    }
    for (uint32_t i = 0; p->valid && i <= p->end - p->start; i++) {
        writes_w |= p->inst[i].type == R500_US_OUT && p->inst[i].w_omask;
    }
    if (!rb->zb.enabled || (!rb->z_test && !rb->stencil)) {
        /* nothing reads the depth: whatever the program writes there */
        return NULL;
    }
    if (writes_w && !rb->depth_from_shader) {
        return "a depth output the ZB does not take";
    }
    if (writes_w && (rb->depth_scale != 16777215.0f || rb->depth_offset ||
                     (s->regs[R_SU_POLY_OFFSET_ENABLE / 4] & 3))) {
        return "shader depth with a depth scale or polygon offset";
    }
    j->zb.on = true;
    j->zb.z24 = rb->zb.format == 2;
    j->zb.z_test = rb->z_test;
    j->zb.z_write = rb->z_write;
    j->zb.zfunc = gl_func[R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL, ZFUNC)];
    /* only a Z24S8 buffer has a stencil byte (zb.c) */
    j->zb.stencil = rb->stencil && j->zb.z24;
    for (int f = 0; f < 2; f++) {
        R500ZsFace z = r500_zb_face(rb, f);

        j->zb.face[f].func = gl_func[z.func & 7];
        j->zb.face[f].fail = gl_stencil_op[z.fail & 7];
        j->zb.face[f].zfail = gl_stencil_op[z.zfail & 7];
        j->zb.face[f].zpass = gl_stencil_op[z.zpass & 7];
        j->zb.face[f].ref = z.ref;
        j->zb.face[f].cmask = z.cmask;
        j->zb.face[f].wmask = z.wmask;
    }
    g->zb_on = true;
    g->zscale = rb->depth_scale;
    g->zoffset = rb->depth_offset;
    return NULL;
}

/* Whether a blend factor of the draw's is one of codes (rb3d.c). */
static bool blend_uses(const R500Rb3d *rb, const uint8_t *codes, unsigned n)
{
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned k = 0; k < n; k++) {
            if (rb->bf[i].src == codes[k] || rb->bf[i].dst == codes[k]) {
                return true;
            }
        }
    }
    return false;
}

/*
 * What soft does to target t (rb3d.c color_write) that GL, drawing into
 * its kind with channel c holding C(map[c]), would not: NULL, or why.
 */
static const char *gl_target_check(const R500Chip *s, const GlJob *j,
                                   const R500ColorTarget *t, int kind,
                                   const uint8_t map[4])
{
    static const uint8_t dst_alpha[] = { 7, 8, 11, 40, 41, 42 };
    const R500Rb3d *rb = &s->rb3d;
    const R500ColorField *f;
    unsigned n = r500_rb3d_fields(t, &f);
    bool fp = r500_gl_kind_float(kind), c3 = false, rgb = false;

    for (unsigned i = 0; i < n; i++) {
        c3 |= f[i].comp == 3;
        rgb |= f[i].comp < 3;
    }
    if (!(s->gl->kinds_ok >> kind & 1)) {
        return "a colour format the host cannot draw into";
    }
    if (map[3] != 3 && map[3] != GL_CH_NONE) {
        /* GL's source alpha factors would see another component */
        return "a colour format whose alpha GL stores elsewhere";
    }
    if (j->logic_op && (fp || r500_gl_kinds[kind].snorm)) {
        /*
         * GL applies no logic op to float targets; soft's ROP is on
         * the stored bits whatever they code
         */
        return "a ROP on a float or signed target";
    }
    if (!j->blend) {
        return NULL;
    }
    if (r500_gl_kinds[kind].snorm) {
        /*
         * soft clamps a blended fixed-point result to [0, 1] (blend4),
         * GL's SNORM blending to [-1, 1]
         */
        return "blending into a signed target";
    }
    if (fp && ((rgb && !(rb->bf[0].fn & 1)) || (c3 && !(rb->bf[3].fn & 1)))) {
        /*
         * soft clamps these functions' results on float targets too
         * (blend4); GL clamps nothing there.  Mesa picks the NOCLAMP
         * ones for float buffers.
         */
        return "a clamping blend function on a float target";
    }
    if (map[3] != 3 && r500_rb3d_replicates(t) &&
        blend_uses(rb, dst_alpha, G_N_ELEMENTS(dst_alpha))) {
        /*
         * I8 and UV88 read their stored byte back as alpha (rb3d.c
         * read_replicate); GL's destination alpha is 1 without one
         */
        return "destination alpha of a target read back replicated";
    }
    return NULL;
}

/*
 * A value as a target's field stores it (rb3d.c to_unorm, to_snorm,
 * to_half: clamped, rounded to nearest even), so GL's own conversion of
 * the output, exact for a value the field holds, cannot round it another
 * way: llvmpipe rounds 5-, 6- and 10-bit fields and halves otherwise.
 * The half's step is that of v's binade, never under 2^-24 (denormals).
 */
static const char gl_quantizers[] =
    "float r500_qu(float v, float m) {\n"
    "    return roundEven(clamp(v, 0.0, 1.0) * m) * (1.0 / m);\n}\n"
    "float r500_qs(float v, float m) {\n"
    "    return roundEven(clamp(v, -1.0, 1.0) * m) / m;\n}\n"
    "float r500_qh(float v) {\n"
    "    int e;\n"
    "    float q;\n"
    "    frexp(v, e);\n"
    "    q = ldexp(1.0, max(e - 11, -24));\n"
    "    return isinf(v) || isnan(v) ? v : roundEven(v / q) * q;\n}\n";

/*
 * GL channel c of a target of kind: the output value v, or with exact
 * (no blending: the value is stored as it is) v as the field stores it.
 * Blended, GL's blender takes the value and rounds its result itself.
 */
static void gl_channel_out(GString *epi, unsigned kind, unsigned c,
                           bool exact, const char *v)
{
    const GlKind *k = &r500_gl_kinds[kind];

    for (unsigned i = 0; exact && i < k->n; i++) {
        const R500ColorField *f = &k->ch[i];

        if (f->comp != c || f->kind == R500_FIELD_FLOAT) {
            continue;
        }
        if (f->kind == R500_FIELD_HALF) {
            g_string_append_printf(epi, "r500_qh(%s)", v);
        } else {
            g_string_append_printf(epi, "r500_q%c(%s, %u.0)",
                                   k->snorm ? 's' : 'u', v,
                                   k->snorm ? (1u << (f->width - 1)) - 1
                                            : (1u << f->width) - 1);
        }
        return;
    }
    g_string_append(epi, v);
}

/*
 * The draw's colour targets in GL's terms (formats, channel maps into
 * map, write masks, the blend constant), with their outputs declared in
 * epi.  NULL, or why GL cannot draw to them.
 */
static const char *gl_latch_targets(R500Chip *s, GlJob *j, GString *epi,
                                    uint8_t map[4][4])
{
    static const uint8_t consts[] = { 43, 44, 45, 46 };
    const R500Rb3d *rb = &s->rb3d;

    j->ntargets = 0;
    for (int i = 0; i < 4; i++) {
        const R500ColorTarget *t = &rb->cb[i];
        const char *why = NULL;
        float k[4];
        int kind;

        if (!t->enabled) {
            continue;
        }
        if (i != j->ntargets) {
            return "colour targets with gaps";
        }
        kind = r500_gl_color_kind(t, map[i], &why);
        if (kind < 0) {
            return why;
        }
        why = gl_target_check(s, j, t, kind, map[i]);
        if (why) {
            return why;
        }
        /* the blend constant in GL's channels (alpha is C3's) */
        for (int c = 0; c < 4; c++) {
            k[c] = t->const_color[map[i][c] < 4 ? map[i][c] : c];
        }
        if (i > 0 && j->blend && blend_uses(rb, consts, sizeof(consts)) &&
            memcmp(k, j->const_color, 16)) {
            return "blend constants differing per target";
        }
        if (i == 0) {
            memcpy(j->const_color, k, 16);
        }
        j->cb[i].src = t->src;
        j->cb[i].kind = kind;
        /*
         * ZB_ZSTENCILCNTL.ZERO_OUTPUT_MASK: the RB writes no colour (soft's
         * r500_rb3d_quad_color returns), depth and stencil go on
         */
        j->cb[i].mask = 0;
        for (int c = 0; c < 4 && !rb->zero_output; c++) {
            if (map[i][c] < 4 && (t->mask >> map[i][c] & 1)) {
                j->cb[i].mask |= 1u << c;
            }
        }
        g_string_append_printf(epi, "layout(location = %d) out vec4 "
                               "r500_c%d;\n", i, i);
        j->ntargets++;
    }
    return NULL;
}

/*
 * The epilogue's tests before the stores: the alpha test and
 * DISCARD_SRC_PIXELS, as discards.  NULL, or why GL cannot.
 */
static const char *gl_epi_tests(R500Chip *s, GlJob *j, GString *epi)
{
    static const char ch[4] = { 'r', 'g', 'b', 'a' };
    const R500Rb3d *rb = &s->rb3d;

    if (R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN)) {
        /*
         * The alpha test (rb3d.c alpha_test()) on output 0's alpha: the
         * 8-bit compare of its quantised value, or the FP16 reference.
         */
        static const char *const op[8] = {
            "false", "<", "==", "<=", ">", "!=", ">=", "true",
        };
        unsigned f = R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_FUNC);
        bool b8 = R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN_8BIT);
        float ref = b8 ? (float)R500_FGET(rb->alpha_func, FG_ALPHA_FUNC,
                                          AF_VAL) : rb->alpha_ref;
        uint32_t bits;

        memcpy(&bits, &ref, 4);
        g_string_append_printf(epi, "    float aa = %s;\n",
                               b8 ? "roundEven(clamp(r500_o0.a, 0.0, 1.0) "
                                    "* 255.0)" : "r500_o0.a");
        if (f == 0 || f == 7) {
            g_string_append_printf(epi, "    if (!%s) {\n", op[f]);
        } else {
            g_string_append_printf(epi, "    if (!(aa %s uintBitsToFloat("
                                   "0x%08xu))) {\n", op[f], bits);
        }
        g_string_append(epi, "        discard;\n    }\n");
    }
    if (rb->blend_on && rb->discard && rb->discard != 7 && j->ntargets) {
        /*
         * DISCARD_SRC_PIXELS (rb3d.c discard()): the shader's R, G, B, A
         * as 8-bit values against the thresholds' bytes B, G, R, A.  Soft
         * tests it in a colour target's write: without one, nothing.
         */
        unsigned mode = rb->discard, first, last;
        bool gte = mode >= 4;
        uint32_t thr = s->regs[(gte ? R_RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD
                                    : R_RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD)
                               / 4];
        static const unsigned byte_of[4] = { 2, 1, 0, 3 };

        if (j->ntargets > 1) {
            return "DISCARD_SRC_PIXELS with several targets";
        }
        first = (mode == 1 || mode == 4) ? 3 : 0;
        last = (mode == 2 || mode == 5) ? 2 : 3;
        g_string_append_printf(epi, "    uvec4 d = uvec4(roundEven(clamp("
                               "r500_o%u, 0.0, 1.0) * 255.0));\n"
                               "    if (true", rb->cb[0].src);
        for (unsigned c = first; c <= last; c++) {
            g_string_append_printf(epi, " && d.%c %s %uu", ch[c],
                                   gte ? ">=" : "<=",
                                   (thr >> (8 * byte_of[c])) & 0xFF);
        }
        g_string_append(epi, ") {\n        discard;\n    }\n");
    }
    return NULL;
}

/*
 * The colour targets, each in the kind of texture whose texels are its
 * pixels (gl_format.c), its rectangle read from memory.  GL's channels
 * are stored components (the kind's map), so blending and masks act on
 * what soft's act on: the epilogue writes each GL channel the shader
 * output soft stores there, the channel mask and blend constant are
 * permuted alike, and GL's alpha output is always C3's, which source
 * alpha factors read whether the target stores it or not.
 */
const char *r500_gl_targets(R500Chip *s, GlJob *j, GString *epi)
{
    static const char ch[4] = { 'r', 'g', 'b', 'a' };
    const R500Rb3d *rb = &s->rb3d;
    uint8_t map[4][4];
    const char *why;

    why = gl_latch_targets(s, j, epi, map);
    if (why) {
        return why;
    }
    if (j->cbzb) {
        uint32_t v = s->regs[R_ZB_DEPTHCLEARVALUE / 4];

        if (j->ntargets > 3) {
            return "the ZB colour clear with four targets";
        }
        /*
         * Its bytes as 8-bit unorm channels, stored exactly; a uniform,
         * so a new clear value is not a new program.
         */
        g_string_append_printf(epi, "layout(location = %d) out vec4 "
                               "r500_cz;\nuniform vec4 r500_czv;\n",
                               j->ntargets);
        for (int k = 0; k < 4; k++) {
            j->czv[k] = ((v >> (8 * k)) & 0xFF) / 255.0f;
        }
    }
    /*
     * No colour target (every channel masked, or none bound: a depth or
     * stencil pass, a shadow map, a Z pre-pass): the fragments still run
     * the alpha test and write depth and stencil, as soft's quads do
     * (rb3d.c r500_rb3d_quad_z), into a framebuffer of the depth buffer
     * alone, or of nothing but its default size (only the occlusion
     * count sees such a draw).
     */
    g_string_append(epi, gl_quantizers);
    if (j->clip) {
        g_string_append(epi, "uniform ivec4 r500_cr[4];\n"
                             "uniform uint r500_rule;\n");
    }
    g_string_append(epi, "void r500_epilogue() {\n");
    if (j->clip) {
        /*
         * SC_CLIP_RULE (rast/scan.c clip_rule_mask()): bit k of the index
         * says the pixel is inside clip rectangle k, and the rule's bit
         * at that index keeps it.  The scan converter drops a pixel the
         * rule does not keep before shading, so it neither counts nor
         * writes depth or stencil: a discard, which GL's tests then never
         * see (gl_FragCoord's y is the surface's row, as the window's).
         */
        g_string_append(epi,
            "    {\n"
            "        ivec2 p = ivec2(gl_FragCoord.xy);\n"
            "        uint k = 0u;\n"
            "        for (int i = 0; i < 4; i++) {\n"
            "            if (all(greaterThanEqual(p, r500_cr[i].xy)) &&\n"
            "                all(lessThanEqual(p, r500_cr[i].zw))) {\n"
            "                k |= 1u << i;\n"
            "            }\n"
            "        }\n"
            "        if ((r500_rule >> k & 1u) == 0u) {\n"
            "            discard;\n"
            "        }\n"
            "    }\n");
    }
    why = gl_epi_tests(s, j, epi);
    if (why) {
        return why;
    }
    if (j->cbzb) {
        g_string_append(epi, "    r500_cz = r500_czv;\n");
    }
    for (int i = 0; i < j->ntargets; i++) {
        const R500ColorTarget *t = &rb->cb[i];

        g_string_append_printf(epi, "    r500_c%d = vec4(", i);
        for (int c = 0; c < 4; c++) {
            /* GL channel c stores C(map[c]); alpha is C3's regardless */
            unsigned cj = map[i][c] < 4 ? map[i][c] : c == 3 ? 3 : 4;

            if (cj < 4) {
                char v[16];

                g_snprintf(v, sizeof(v), "r500_o%u.%c", t->src,
                           ch[t->csel[cj] & 3]);
                gl_channel_out(epi, j->cb[i].kind, c, !j->blend, v);
            } else {
                g_string_append(epi, "0.0");
            }
            g_string_append(epi, c < 3 ? ", " : ");\n");
        }
    }
    g_string_append(epi, "}\n");
    return NULL;
}
