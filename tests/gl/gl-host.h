/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the host-GL renderer's tests on the chip core share (test-gl-
 * renderer.c, test-gl-state.c): a host on either renderer with t3d's 3D
 * set-up, window-space vertices and scenes, and the comparisons of a gl
 * host's pixels with a soft one's.
 */
#ifndef R500_TESTS_GL_HOST_H
#define R500_TESTS_GL_HOST_H

#include "../unit/test-3d.h"

#define TRIANGLES 4

/* A host on renderer w (soft or gl), the usual 3D set-up, cleared, with
 * additive blending. */
TestHost *host(const char *w);
/* The draws h's gl renderer drew, and those it left to soft. */
void assert_gl_draws(TestHost *h, uint64_t want, uint64_t soft);
/* A window-space vertex at z 0.5 of t3d's layout. */
void vtx(float *v, float x, float y, float r, float g, float b, float a);
/* Two triangles over pixels (x0, y0) to (x1, y1), one flat colour. */
void rect_verts(float *v, float x0, float y0, float x1, float y1,
                float r, float g, float b, float a);
/* Two overlapping smooth triangles and a third crossing both, one draw. */
void scene(TestHost *h);
/* The largest difference of the two pixels' bytes. */
unsigned chan_diff(uint32_t a, uint32_t b);
/*
 * Pixels more than tol/255 a channel apart: those where the triangles'
 * edges cover a pixel centre on one renderer and not on the other (soft
 * snaps vertices to 1/12 pixel, GL to its own subpixel grid); at least
 * min of a's pixels drawn (not 0).
 */
unsigned differ(TestHost *a, TestHost *b, unsigned tol, unsigned min);
/* differ() with more than half the target drawn. */
unsigned compare_tol(TestHost *a, TestHost *b, unsigned tol);
/* compare_tol() within an LSB. */
unsigned compare(TestHost *a, TestHost *b);
/* Pixels whose stored bits differ, and the count of a's not fill. */
unsigned compare_bits(TestHost *a, TestHost *b, uint32_t fill,
                      unsigned *drawn);
/*
 * The program: TEX op of unit 0 at t0 (the colour: the coordinates, and
 * in alpha LODBIAS's bias or LOD's level) into t1, OUT t1.
 */
void tex_program(TestHost *h, unsigned op);

#endif
