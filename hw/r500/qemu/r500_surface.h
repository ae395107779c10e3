/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Board side of the host aperture's surface registers (r500_surface.c):
 * BAR0 is VRAM mapped as RAM, with an MMIO overlay over each tiled window
 * whose accesses go through the chip core's translation (hdp.c).
 */
#ifndef HW_R500_QEMU_R500_SURFACE_H
#define HW_R500_QEMU_R500_SURFACE_H

#include "r500_compat.h"

#include "../r500.h"
#include "r500_lock.h"

typedef struct R500SurfaceWindow {
    MemoryRegion mr;
    R500Chip *chip;
    R500Lock *lock;             /* the chip's (r500_lock.h) */
    uint64_t lower;             /* aperture offset of the window */
    bool mapped;
} R500SurfaceWindow;

typedef struct R500SurfaceMap {
    MemoryRegion *vram;         /* BAR0's region (the VGA core's VRAM) */
    R500Chip *chip;
    R500Lock *lock;             /* set by the board before realize */
    R500SurfaceWindow win[R500_HDP_SURFACES];
} R500SurfaceMap;

void r500_surface_realize(R500SurfaceMap *m, Object *owner,
                          MemoryRegion *vram, R500Chip *chip);
/* Map the chip's current windows (its aperture_changed host call). */
void r500_surface_update(R500SurfaceMap *m);

#endif
