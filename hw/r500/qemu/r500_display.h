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
    bool logged_vga_d2;
} R500Display;

#define DEFINE_R500_DISPLAY_PROPERTIES(_state, _field)                      \
    DEFINE_PROP_UINT32("heads", _state, _field.heads, 1),                   \
    DEFINE_PROP_BOOL("guest-hwcursor", _state, _field.guest_hwcursor,       \
                     false),                                                \
    DEFINE_EDID_PROPERTIES(_state, _field.edid_info)

bool r500_display_realize(R500Display *d, DeviceState *dev,
                          VGACommonState *vga, R500Chip *chip, Error **errp);
void r500_display_reset(R500Display *d);
void r500_display_post_load(R500Display *d);
void r500_display_exit(R500Display *d);

/* R500DispState, for the board's "r500/disp" subsection. */
extern const VMStateDescription vmstate_r500_disp_state;

#endif
