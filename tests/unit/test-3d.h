/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal 3D pipeline for the unit tests: the state Mesa's r300 driver
 * would program for "window-space vertices with a colour, drawn into a
 * 64x64 ARGB8888 buffer", written through the register path, and draws
 * handed to the pipeline through the CP's interface (pipe/draw.h).
 * Instruction words are built here from the field tables of
 * r500-3d-pipeline.md 3 and 4, not from the implementation.
 */
#ifndef R500_TEST_3D_H
#define R500_TEST_3D_H

#include "test-host.h"

#define T3D_CB          0x100000u   /* VRAM offset of the colour buffer */
#define T3D_ZB          0x200000u   /* VRAM offset of the depth buffer */
#define T3D_TEX         0x300000u   /* VRAM offset of a texture */
#define T3D_W           64
#define T3D_H           64

/* ---- PVS instruction words (reference 4.2, 4.3) ---- */
enum { PVS_T = 0, PVS_V = 1, PVS_C = 2 };               /* source files */
enum { PVS_DT = 0, PVS_DA0 = 1, PVS_DO = 2 };           /* destinations */
#define PVS_SWZ(x, y, z, w)   ((x) | (y) << 3 | (z) << 6 | (w) << 9)
#define PVS_XYZW            PVS_SWZ(0, 1, 2, 3)
#define PVS_ZERO4           PVS_SWZ(4, 4, 4, 4)
uint32_t t3d_pvs_dst(unsigned op, bool math, unsigned file, unsigned idx,
                     unsigned wmask);
uint32_t t3d_pvs_src(unsigned file, unsigned idx, unsigned swz,
                     unsigned neg);

/* ---- US instruction words (reference 3.2-3.7) ---- */
/* One ALU/OUT instruction: rgb = A * B + C style ops with explicit fields. */
typedef struct T3DAlu {
    bool out;                   /* OUT type: write render target 0 */
    unsigned rgb_wmask, alpha_wmask, rgb_omask, alpha_omask;
    unsigned addr[3];           /* ADDR0-2 of both RGB and alpha (9 bits:
                                   bit 8 = CONST) */
    unsigned rgb_op, alpha_op;
    unsigned sel[3], swz[3][3], mod[3];     /* RGB operands A, B, C */
    unsigned asel[3], aswz[3], amod[3];     /* alpha operands */
    unsigned srcp;              /* SRCP_OP (both units) */
    unsigned omod;              /* both units */
    bool clamp;
    unsigned dst;               /* RGB_ADDRD and ALPHA_ADDRD */
    unsigned extra_cmn;         /* OR'd into CMN_INST */
    unsigned extra_rgb_inst;    /* OR'd into ALU_RGB_INST */
} T3DAlu;
void t3d_us_alu(const T3DAlu *a, uint32_t w[6]);
/* Upload instructions at slot 0 and set US_CODE_* for n of them. */
void t3d_us_program(TestHost *h, const uint32_t *words, unsigned n);
void t3d_us_const(TestHost *h, unsigned idx, float r, float g, float b,
                  float a);
/* An OUT instruction: temp's RGBA (times 1, plus 0) to target 0. */
void t3d_us_out(unsigned temp, uint32_t w[6]);
/* The default fragment program: OUT temp 0 (the colour) to target 0. */
void t3d_us_passthrough(TestHost *h);

/*
 * Reset the pipeline state: 64x64 linear ARGB8888 colour buffer at T3D_CB
 * (C0 = R ... C3 = A: byte 0 is red), no depth, window-space vertices of
 * 8 floats (x, y, z, w, r, g, b, a), Gouraud colour 0 into temp 0.
 */
void t3d_setup(TestHost *h);
/* Draw n vertices of 8 floats as primitive prim (VAP_VF_CNTL type). */
void t3d_draw(TestHost *h, unsigned prim, const float *v, unsigned n);
/*
 * The same, split as the CP splits it: calls of at most budget work units
 * (0: one call), each going on where the last stopped after the sync
 * that ends a run of the chip.  Returns the
 * number of calls; the largest work one call did in *max_work.
 */
unsigned t3d_draw_split(TestHost *h, unsigned prim, const float *v,
                        unsigned n, uint64_t budget, uint64_t *max_work);
/* A float's bits. */
uint32_t t3d_fbits(float f);
/* n words into PVS memory from vector vec (VAP_PVS_VECTOR_INDX/DATA). */
void t3d_pvs_upload(TestHost *h, unsigned vec, const uint32_t *w,
                    unsigned n);
/*
 * The depth buffer at T3D_ZB, T3D_W pixels wide, in ZB_FORMAT format,
 * with ZB_CNTL cntl and ZB_ZSTENCILCNTL zs_cntl.
 */
void t3d_depth(TestHost *h, unsigned format, uint32_t cntl,
               uint32_t zs_cntl);
/* A colour buffer pixel (linear layout) as 0xAABBGGRR. */
uint32_t t3d_px(TestHost *h, unsigned x, unsigned y);
/* Fill the colour buffer with one value. */
void t3d_fill(TestHost *h, uint32_t v);
/* Additive blending (ONE, ONE): each covering primitive adds its colour. */
void t3d_blend_add(TestHost *h);

#endif
