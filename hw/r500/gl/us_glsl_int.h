/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US-to-GLSL translation's own parts (us.h has its interface):
 *
 * us_glsl.c     the instructions (ALU, OUT, TEX) and the shader around
 *               them; straight-line programs
 * us_glsl_fc.c  flow control: the program counter loop, the FC
 *               instruction, the quad-wide votes and the exchange of
 *               values across the quad that derivatives need
 */
#ifndef HW_R500_US_US_GLSL_INT_H
#define HW_R500_US_US_GLSL_INT_H

#include "glsl.h"

/* Shader text is bounded: 512 instructions make well under this. */
#define R500_US_GLSL_MAX    (4u << 20)
/* The aL values a relative temporary may be chosen among. */
#define R500_US_GLSL_AL_MAX 16

/* What one translation has found and decided so far. */
typedef struct UsGlsl {
    const R500UsProg *p;
    const R500UsGlslIn *in;
    /*
     * The program has FC instructions: it runs as us_exec.c runs it, a
     * program counter over blocks, with each pixel's active bit and
     * branch counter (us_glsl_fc.c).  Without, aL is 0 throughout.
     */
    bool fc;
    /*
     * The values aL & 127 can take (us_glsl_fc.c, from the loop
     * constants), for relative addresses under flow control: a relative
     * temporary is chosen among them, not indexed (an array indexed at
     * run time takes llvmpipe seconds to compile).  nal 0: no relative
     * temporary.
     */
    uint8_t al[R500_US_GLSL_AL_MAX];
    unsigned nal;
    /* Pixels can be inactive (a B_ELSE or B_OP INCR): r500_act varies. */
    bool diverge;
    /* The predicate bits are kept: a predicated write or an FC reads them. */
    bool pred;
    /* r500_quad_get() / r500_quad_mask() are called (us_glsl_fc.c). */
    bool quad;
    bool consts, depth;
    uint8_t targets;
    uint8_t used[R500_US_TEMPS];    /* t<n> declared */
    uint16_t tex_ops[16];
} UsGlsl;

/* us_glsl.c: one ALU, OUT or TEX instruction as a GLSL block. */
/* us_glsl_inst.c: a float literal with the exact bits of v. */
void r500_us_glsl_lit(GString *g, float v);
bool r500_us_glsl_inst(UsGlsl *c, GString *g, const R500UsInst *in,
                       const char **why);

/* us_glsl_fc.c: the values of aL (UsGlsl.al); false past the bound. */
bool r500_us_glsl_al(UsGlsl *c, const char **why);
/* us_glsl_fc.c: the program with flow control, the body of main(). */
bool r500_us_glsl_flow(UsGlsl *c, GString *g, const char **why);
/* us_glsl_fc.c: the functions of the quad exchange, before main(). */
void r500_us_glsl_quad_fns(const UsGlsl *c, GString *out);

#endif
