/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the US, PVS and TX targets share: the unit tests' minimal 3D
 * pipeline (tests/unit/test-3d.h: a 64x64 ARGB8888 colour buffer,
 * window-space vertices of 8 floats, Gouraud colour into temp 0), set up
 * anew for each input on a test host reset to new, and a draw of vertices taken
 * from the input, bit for bit (NaN, Inf and denormals included), in the
 * state the pipeline byte after them picks: the window-space set-up, or
 * a driver's TCL state (clip-space positions, the VTE's viewport,
 * clipping on), which the host-GL renderer draws with its vertex stage
 * on the host.
 *
 * The test host takes its renderer from R500_RENDERER (soft unless set):
 * the smoke runs draw on soft and on gl (docs/reliability.md).  On gl a
 * run ends by saying where its draws went (fuzz_gl_tally).
 *
 * Built only when the 3D engines are in the tree (tests/fuzz/meson.build).
 */
#ifndef R500_FUZZ_3D_H
#define R500_FUZZ_3D_H

#include "3d-format.h"
#include "fuzz-host.h"
#include "test-3d.h"

/*
 * A test host of the input's model, as new, with the 3D state of
 * t3d_setup(); the target's until fuzz_3d_draw_end().
 */
TestHost *fuzz_3d_begin(FuzzInput *in);
/*
 * Draw up to 8 vertices of 8 dwords from the input as a primitive whose
 * type the input picks too, in the state of the pipeline byte after them
 * (and its u32s, in the order of 3d-format.h), then sync: what a
 * renderer drew is in VRAM, for the next input's reset to clean.
 */
void fuzz_3d_draw_end(TestHost *h, FuzzInput *in);

#endif
