/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The smallest 3D set-up that draws, for the qtests that need draws
 * through the ring (liveness, migration): a linear ARGB8888 colour buffer
 * in VRAM, window-space vertices of 8 floats (x y z w r g b a), a vertex
 * program that passes position and colour 0 through, Gouraud colour into
 * a fragment program that outputs it, additive blending (so a pixel drawn
 * twice shows).  The same state the unit tests' t3d_setup() writes
 * (tests/unit/test-3d.c), here by MMIO as a driver would.
 */
#ifndef R500_3D_ENV_H
#define R500_3D_ENV_H

#include "r500-cp-env.h"

/* Colour buffer of w x h pixels at VRAM (= MC) offset cb. */
void d3_setup(CpEnv *e, uint32_t cb, unsigned w, unsigned h);
/* Fragment program: OUT the colour, then JUMP to itself: never ends. */
void d3_us_endless(CpEnv *e);
/* Vertex program: its second instruction jumps to itself: never ends. */
void d3_pvs_endless(CpEnv *e);
/* A 3D_DRAW_IMMD_2 of n triangles (3 n vertices of 8 floats) on the ring. */
void d3_emit_triangles(CpEnv *e, const float *v, unsigned n);
/*
 * n full-surface layers of a w x w colour buffer (two triangles each, all
 * of colour r g b a) in one 3D_DRAW_IMMD_2: with additive blending every
 * pixel adds the colour n times; pixel (w - 1, w - 1) is in the last
 * triangle, the last pixel drawn.
 */
void d3_emit_layers(CpEnv *e, unsigned w, unsigned n, float r, float g,
                    float b, float a);
/* A vertex of the layout above. */
void d3_vtx(float *v, float x, float y, float r, float g, float b, float a);

#endif
