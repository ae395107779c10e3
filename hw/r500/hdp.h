/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host data path: the CPU's view of VRAM through the BAR0 aperture (and
 * MM_INDEX/MM_DATA), made tiled inside the ranges of the surface
 * registers SURFACE0..7 (hdp.c).  The public calls are in r500.h.
 */
#ifndef HW_R500_HDP_H
#define HW_R500_HDP_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/tiling.h"

#define R500_HDP_SURFACES   8

/* A surface register in effect, decoded and checked. */
typedef struct R500HdpSurface {
    uint64_t lower, upper;      /* aperture offsets, upper inclusive */
    uint32_t pitch;             /* bytes per row of the CPU's linear view */
    uint8_t index;              /* SURFACEn */
    R500Surf sf;                /* the tiled layout behind it (base 0) */
} R500HdpSurface;

/*
 * Derived from the register file (not migrated): rebuilt when a surface
 * register is written, at reset and after loadvm.
 */
typedef struct R500Hdp {
    R500HdpSurface surf[R500_HDP_SURFACES];
    uint32_t count;             /* in SURFACEn order: lower n wins */
    uint32_t logged;            /* errors reported (hdp.c HDP_LOGGED_*) */
    uint64_t xlate_errors;      /* accesses translated outside VRAM */
} R500Hdp;

#endif
