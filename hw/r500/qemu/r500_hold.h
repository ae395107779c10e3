/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Board side of the renderer's holds (r500_hold.c; R500HostOps.vram_hold,
 * docs/3d.md "Write-back when someone looks"): over each span of VRAM the
 * host-GL renderer keeps on the host past a fence, an MMIO overlay of
 * BAR0, so that the first access of the CPU (or of any other bus master)
 * there calls r500_vram_release() before it reaches memory.
 */
#ifndef HW_R500_QEMU_R500_HOLD_H
#define HW_R500_QEMU_R500_HOLD_H

#include "r500_compat.h"

#include "../r500.h"
#include "r500_lock.h"

/*
 * Spans one board keeps at once: the renderer holds at most 16, and a
 * span it lets go stays mapped until the big lock is next taken.
 */
#define R500_HOLD_SPANS 32

typedef struct R500HoldSpan {
    MemoryRegion mr;
    struct R500Holds *holds;
    uint64_t lo, hi;            /* VRAM offsets, page aligned */
    bool want;                  /* the renderer holds it */
    bool mapped;                /* the overlay is in BAR0 */
} R500HoldSpan;

typedef struct R500Holds {
    MemoryRegion *vram;         /* BAR0's region (the VGA core's VRAM) */
    uint8_t *vram_ptr;
    uint64_t vram_size;
    R500Chip *chip;
    R500Lock *lock;             /* the chip's, set before realize */
    bool pending;               /* a span's want and mapped differ */
    uint64_t traps;             /* accesses that released a span */
    R500HoldSpan span[R500_HOLD_SPANS];
} R500Holds;

void r500_hold_realize(R500Holds *hs, Object *owner, MemoryRegion *vram,
                       uint8_t *vram_ptr, R500Chip *chip);
/*
 * R500HostOps.vram_hold / vram_unhold / vram_holds_ready, under the chip's
 * lock.  Where the memory map may not change now (without the big lock,
 * or under TCG while a vCPU may be in its translated code) the overlays
 * change later: *later is set, and the board has r500_hold_apply called
 * with every vCPU stopped and kicks the chip.
 */
bool r500_hold_add(R500Holds *hs, uint64_t offset, uint64_t len,
                   bool *later);
void r500_hold_remove(R500Holds *hs, uint64_t offset, uint64_t len,
                      bool *later);
bool r500_hold_ready(R500Holds *hs, bool *later);
/*
 * Whether the memory map may change here and now: under the big lock,
 * and under TCG only in work run with every vCPU stopped (r500_hold.c
 * says why).  The board's aperture follows the same rule.
 */
bool r500_hold_may_map(void);
/* Map and unmap the overlays as the spans want: big lock, chip lock. */
void r500_hold_apply(R500Holds *hs);

#endif
