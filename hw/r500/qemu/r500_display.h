/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Board side of the display: QEMU consoles for the CRTCs, the legacy VGA
 * core, dirty tracking, cursor, EDID generation (r500_display.c).
 */
#ifndef HW_R500_QEMU_R500_DISPLAY_H
#define HW_R500_QEMU_R500_DISPLAY_H

#include "hw/display/edid.h"
#include "hw/display/vga_int.h"
#include "migration/vmstate.h"
#include "ui/console.h"

#include "../r500.h"
#include "r500_lock.h"

typedef struct R500Head {
    QemuConsole *con;
    R500Scanout last;           /* what the console shows */
    bool full;                  /* redraw everything at the next update */
    unsigned long *pending;     /* VRAM pages written since drawn */
    R500CursorImage *cursor;    /* last cursor drawn or defined */
    bool cursor_shown;
    bool composed;              /* the cursor is drawn into the frame */
    QEMUCursor *qcursor;        /* host cursor */
} R500Head;

typedef struct R500Display {
    /* properties */
    uint32_t heads;             /* consoles: 1 (D1, else D2) or 2 */
    bool guest_hwcursor;        /* always draw the cursor into the frame */
    qemu_edid_info edid_info;   /* xres, yres, xmax, ymax, refresh_rate */

    R500Chip *chip;
    R500Lock *lock;             /* the chip's; set by the board */
    VGACommonState *vga;
    R500Head head[R500_NUM_CRTC];
    R500LegacyMode legacy;      /* legacy CRTC mode handed to VBE */
    uint64_t pages;
    /*
     * VRAM pages (atomic bitmaps, any thread): written by the engines
     * since the display drew them (the VGA client of QEMU's dirty memory
     * has the CPU's writes only: r500_vram_mark_dirty()), and written by
     * the CPU since the renderer last asked (r500_display_cpu_written()).
     */
    unsigned long *engine;
    unsigned long *cpu;
    bool logged_vga_d2;
} R500Display;

bool r500_display_realize(R500Display *d, DeviceState *dev,
                          VGACommonState *vga, R500Chip *chip, Error **errp);
void r500_display_reset(R500Display *d);
void r500_display_post_load(R500Display *d);
void r500_display_exit(R500Display *d);

/* The engines wrote VRAM [off, off + len) (R500HostOps.vram_dirty). */
void r500_display_engine_wrote(R500Display *d, uint64_t off, uint64_t len);
/*
 * The CPU's writes to VRAM so far into every head's pending pages and
 * the renderer's record; under the big lock, not the chip's (as every
 * dirty-bitmap snapshot: see r500_display_update()).
 */
void r500_display_collect_cpu(R500Display *d);
/* R500HostOps.vram_cpu_written: test and clear the renderer's record. */
bool r500_display_cpu_written(R500Display *d, uint64_t off, uint64_t len);
/* r500_dirty.c: migration's dirty pages for the engines' writes. */
void r500_vram_mark_dirty(MemoryRegion *vram, uint64_t off, uint64_t len);

/* R500DispState, for the board's "r500/disp" subsection. */
extern const VMStateDescription vmstate_r500_disp_state;

#endif
