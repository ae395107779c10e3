/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip's state said in GLSL, for the host-GL renderer (gl/, built
 * only with OpenGL through libepoxy): the RS as the vertex shader and the
 * fragment prologue (rs_glsl.c), the US program as the fragment shader
 * (us_glsl.c, us_glsl_inst.c, us_glsl_fc.c), the texture units'
 * sampling (tx_glsl.c), the PVS program as vertex shader code
 * (pvs_glsl.c).  Each reads the engine's own decoded state (the one
 * decoder) and says in GLSL what the engine does; tests/gl runs both on
 * the same inputs and compares the bits.
 */
#ifndef HW_R500_GL_GLSL_H
#define HW_R500_GL_GLSL_H

#include "../r500.h"

typedef struct _GString GString;

/*
 * gl/rs_glsl.c: the RS as GLSL for the host-GL renderer: the vertex shader
 * over window-space vertices and the fragment prologue defining
 * R500_TEMP_IN for us_glsl.c (the vertex interface is described there).
 * False, with the reason, for what it cannot say yet.
 */
typedef struct R500RsGlslLayout {
    uint8_t n;                  /* attribute inputs, locations 1..n */
    uint8_t group[R500_VTX_ATTRS / 4];  /* input i: attributes 4g..4g+3 */
    bool flat[R500_VTX_ATTRS / 4];      /* ... of the provoking vertex */
    uint8_t back_loc;           /* the back-facing flag's location */
    bool sprite;                /* point-sprite S, T are read (stuffing) */
    uint8_t sprite_loc;         /* ... as a vec4 (S, T, 0, 0) there */
} R500RsGlslLayout;
bool r500_rs_glsl(const R500Rast *r, GString *vs, GString *fs,
                  R500RsGlslLayout *lay, const char **why);
/*
 * The same with the vertex stage on the host (gl/gl_vertex.c): vs
 * holds the PVS program (gl/pvs_glsl.c: R500_VTX_POS, R500_VTX_G<g>)
 * and gets the varyings of the layout and main(), which maps the clip-
 * space position to GL's for a GL viewport equal to the VTE's with
 * positive scales (x or y flipped where the VTE's is negative), z to
 * GL's 0..w, and the enabled user clip planes to gl_ClipDistance (in the
 * order of their bits, uniform r500_ucp[6]).  Facing and two-sided
 * colour come from gl_FrontFacing: the caller makes GL's front face the
 * SU's.  False with the reason for point sprites.
 */
bool r500_rs_glsl_pvs(const R500Rast *r, GString *vs, GString *fs,
                      R500RsGlslLayout *lay, const char **why);

/*
 * gl/us_glsl.c: the program as a GLSL 4.50 fragment shader (the host-GL
 * renderer's translation, DESIGN.md 6).  The caller's prologue defines
 * R500_TEMP_IN(n), the value temporary n starts with (what the RS wrote,
 * else 0); the shader declares r500_o0..3 (the render targets it writes,
 * locations 0..3), when the program reads constants uniform vec4
 * r500_k[256], and declares the sampling functions its TEX instructions
 * call, vec4 r500_tex_<op>_<unit>(vec4 str_q) (DXDY's with the two
 * gradients after it), which the caller defines after the text
 * (gl/tx_glsl.c).  It is drawn with every pixel of a quad shaded
 * together (helper invocations included), as GL does.  False, with the
 * reason, for what it cannot say.
 */
typedef struct R500UsGlslIn {
    const char *prologue;
    bool ztae;                  /* US_CONFIG.ZERO_TIMES_ANYTHING */
    /*
     * The outputs r500_o<t> are plain variables, and main() ends by
     * calling void r500_epilogue(), which the caller defines after this
     * text (it stores them: the host-GL renderer's channel order).
     */
    bool epilogue;
    /*
     * The register file, for programs with flow control: the jumps'
     * US_CODE_OFFSET, US_FC_BOOL_CONST and the loops' US_FC_INT_CONST are
     * written into the text (a change is a new shader).
     */
    const uint32_t *regs;
    /*
     * Non-zero: a program with flow control is declined unless a static
     * bound on the instructions a quad runs is at most this
     * (gl/us_glsl_fc.c fc_steps()): GL cannot stop a draw part way, and
     * has no draw-wide budget like soft's R500_US_DRAW_BUDGET, so an
     * endless loop would keep the host's GPU for hours.
     */
    uint32_t max_steps;
} R500UsGlslIn;
/*
 * tex_ops (16 entries, or NULL): bit op of entry u, r500_tex_<op>_<u>
 * is called (gl/tx_glsl.c writes them).
 */
bool r500_us_glsl(const R500UsProg *p, const R500UsGlslIn *in, GString *out,
                  uint16_t *tex_ops, const char **why);

/*
 * gl/tx_glsl.c: the sampling functions a translated US program calls, bit
 * op of ops for TEX op, bit op + R500_TX_GLSL_UNSCALED for it with
 * unscaled coordinates (US_TEX_INST.UNSCALED: in texels of level 0),
 * named by r500_tx_glsl_fn(), over uniform sampler r500_s<unit> holding
 * r500_tx_image()'s texels (levels first..last, GL's base level first),
 * with the unit's SEL; false with the reason for what GL cannot express.
 * Each takes vec4 c (S, T, R, Q); DXDY's takes the gradients too,
 * (vec4 c, vec4 dx, vec4 dy).  The caller sets uniform vec4 r500_ts<unit>
 * to r500_tx_glsl_size().  r500_tx_gl_wrap: whether core GL has the
 * CLAMP_x mode.  r500_tx_glsl_op: the name of TEX op (US_TEX_INST INST),
 * NULL for NOP, KILL and past DXDY.
 */
#define R500_TX_GLSL_UNSCALED   8
bool r500_tx_gl_wrap(unsigned mode);
const char *r500_tx_glsl_op(unsigned op);
/*
 * Whether the unit's texels are 8_8_8_8 unsigned as they are: each
 * channel k / 255, nothing finished (no YUV, gamma or DXTC swizzle), a
 * plain fetch.
 */
bool r500_tx_plain8(const R500TxUnit *t);
/*
 * Whether the unit's samples are such texels point sampled (tx_glsl.c
 * rounds them to k / 255 again).
 */
bool r500_tx_glsl_point8(const R500TxUnit *t);
bool r500_tx_glsl(const R500TxUnit *t, unsigned unit, uint16_t ops,
                  GString *out, const char **why);
void r500_tx_glsl_fn(GString *out, unsigned unit, unsigned bit);
void r500_tx_glsl_size(const R500TxUnit *t, float v[4]);

/*
 * gl/pvs_glsl.c: the loaded program as GLSL, for the host-GL renderer's
 * vertex stage on the host (gl/gl_vertex.c).  Appends to vs (after its
 * #version line): `layout(location = k) in vec4 r500_i<k>` for the k-th
 * input register the program reads (input[k]), the constants, the
 * outputs, `void r500_pvs()`, and the macros R500_VTX_POS and
 * R500_VTX_G<g> (attributes 4g..4g+3 of R500Vertex: colours 0-3, then
 * texcoords 0-7) for the caller's main().  False, with the reason, for
 * what stays on the CPU: flow control, relative addressing of anything
 * but constants, the ops pvs.c reports as not modelled.
 */
typedef struct R500PvsGlsl {
    uint8_t ninputs;
    uint8_t input[R500_PVS_INPUTS];
    uint32_t insts;             /* instructions each vertex runs */
} R500PvsGlsl;
bool r500_pvs_glsl(R500Chip *s, GString *vs, R500PvsGlsl *info,
                   const char **why);

#endif
