/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The input layout the US, PVS and TX targets share after their vertices
 * (fuzz-3d.c), shared with the seed generator (seeds.c) as pm4-format.h
 * is: the pipeline byte's bits.
 */
#ifndef R500_FUZZ_3D_FORMAT_H
#define R500_FUZZ_3D_FORMAT_H

/*
 * The pipeline byte: 0 (or absent, as in older inputs) keeps
 * t3d_setup()'s window-space vertices without clipping.
 */
#define FUZZ_3D_TCL     0x01    /* clip-space positions, the VTE's scales
                                   and offsets over the target, w divided
                                   (VTX_W0_FMT), clipping on */
#define FUZZ_3D_FLIP    0x02    /* ... with y flipped */
#define FUZZ_3D_CULL    0x1C    /* SU_CULL_MODE's CULL_FRONT, CULL_BACK,
                                   FACE */
#define FUZZ_3D_VPORT   0x20    /* the VTE's x, y scales and offsets from
                                   the input (4 u32s) */
#define FUZZ_3D_UCP     0x40    /* user clip plane 0 on, from the input
                                   (4 u32s) */
#define FUZZ_3D_ZB      0x80    /* a depth buffer at T3D_ZB: ZB_FORMAT,
                                   ZB_CNTL, ZB_ZSTENCILCNTL and
                                   ZB_STENCILREFMASK from the input */

#endif
