/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the US, PVS and TX targets share: a card brought up by the driver's
 * sequence (fuzz-host.h) with a small render target, and a draw submitted
 * through the ring as Mesa submits it (3D_DRAW_IMMD_2), so a fuzzed shader
 * or texture runs the whole path: CP, VAP, rasterizer, US, TX, RB.
 *
 * Built only when the 3D engines are in the tree (tests/fuzz/meson.build).
 */
#ifndef R500_FUZZ_3D_H
#define R500_FUZZ_3D_H

#include "fuzz-host.h"

/* The render target: 64x64 ARGB8888 in VRAM at 8 MiB. */
#define FUZZ_3D_RT          0x00800000u
#define FUZZ_3D_RT_SIZE     64u

/* Chip as the model, CP running, render target and viewport set. */
R500Chip *fuzz_3d_begin(FuzzHost *h, R500Model model);
/*
 * Draw n vertices of vtx_dwords dwords each (VAP_VTX_SIZE) as a triangle
 * strip from the ring, and run the chip until the ring is drained.
 */
void fuzz_3d_draw(FuzzHost *h, const uint32_t *vtx, uint32_t n,
                  uint32_t vtx_dwords);

#endif
