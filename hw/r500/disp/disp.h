/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AVIVO display controller: state and the interface the board uses.
 *
 * Reference radeon-kms-r500.md 7 and atombios-rom.md 5.2-5.4.  The chip
 * has two CRTCs (D1, D2) with a graphics surface, a cursor and a LUT each,
 * two DACs and one TMDS transmitter, HPD and bit-banged DDC pins.  The
 * board (hw/r500/qemu/r500_display.c) asks what a CRTC shows with
 * r500_disp_scanout() and converts VRAM rows into its console with
 * r500_disp_render(); everything else is register side effects.
 */
#ifndef HW_R500_DISP_DISP_H
#define HW_R500_DISP_DISP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pixman.h>

typedef struct R500Chip R500Chip;

#define R500_NUM_CRTC       2
#define R500_NUM_DDC        2       /* DDC1: VGA connector, DDC2: DVI-D */
#define R500_EDID_MAX       512     /* four EDID blocks, two E-DDC segments */
#define R500_CURSOR_MAX     64
#define R500_CURSOR_REGS    7       /* CONTROL .. COLOR2, see cursor.c */
#define R500_SCANOUT_MAX_W  4096    /* larger modes are clipped (LOG_UNIMP) */
#define R500_SCANOUT_MAX_H  4096

/* ---- Migrated state (vmstate subsection "r500/disp" in the board) ---- */

/* Bit-banged I2C slave on one DDC pin pair (ddc.c). */
typedef struct R500I2CSlave {
    uint8_t state;          /* I2CState (ddc.c) */
    uint8_t next;           /* state after the current acknowledge */
    uint8_t nbits;          /* bits of the current byte done */
    uint8_t shift;          /* byte being received or sent */
    uint8_t offset;         /* EEPROM word address */
    uint8_t segment;        /* E-DDC segment pointer (address 0x30) */
    uint8_t scl, sda;       /* line levels last seen, 1 = high */
    uint8_t sda_out;        /* the slave's drive: 1 released, 0 low */
} R500I2CSlave;

typedef struct R500CrtcState {
    /*
     * Scan position is a function of virtual time: at epoch_ns the CRTC
     * was at pixel 0 of line 0 having completed frame_base frames and
     * vblank_base vblank starts (crtc.c).  Both counts are frozen while
     * the CRTC is off.
     */
    int64_t epoch_ns;
    int64_t epoch_age_ns;   /* now - epoch_ns, as migrated (see below) */
    uint64_t frame_base;
    uint64_t vblank_base;
    uint64_t vblank_acked;  /* vblank starts acknowledged (VBLANK_STATUS) */
    uint64_t flip_armed;    /* pending surface update latches after this */
    uint32_t surface_addr;  /* primary surface address being scanned out */
    uint32_t flip_pending;  /* GRPH_UPDATE.SURFACE_UPDATE_PENDING */
    uint32_t cursor[R500_CURSOR_REGS];  /* cursor registers in effect */
} R500CrtcState;

typedef struct R500DispState {
    R500CrtcState crtc[R500_NUM_CRTC];
    uint32_t lut[2][256];   /* LUT A and B, R10 << 20 | G10 << 10 | B10 */
    uint32_t lut_seq;       /* DC_LUT_SEQ_COLOR: component 0..2 */
    uint32_t lut_seq_rgb;   /* components gathered so far */
    uint32_t hpd_int[R500_NUM_DDC];     /* latched HPD interrupt status */
    R500I2CSlave ddc[R500_NUM_DDC];
} R500DispState;

/* ---- Runtime caches (recomputed, never migrated) ---- */

/* One axis of a CRTC's timing: pixels of a line, or lines of a frame. */
typedef struct R500CrtcAxis {
    uint32_t total;
    uint32_t bs, be;                /* blank start, end: active = [be, bs) */
    uint32_t ss, se;                /* sync A start, end */
    uint32_t active;
} R500CrtcAxis;

typedef struct R500CrtcTiming {
    R500CrtcAxis h, v;
    uint32_t khz;                   /* effective pixel clock */
} R500CrtcTiming;

typedef struct R500Lut8 {
    uint8_t r[256], g[256], b[256]; /* 8-bit component maps */
    uint32_t index[256];            /* 8 bpp indexed: x8r8g8b8 */
    bool identity;
} R500Lut8;

typedef struct R500Disp {
    R500DispState st;

    /* Not reset, not migrated: configuration from the board. */
    uint8_t edid[R500_NUM_DDC][R500_EDID_MAX];
    uint32_t edid_len[R500_NUM_DDC];

    /* Caches and bookkeeping. */
    R500CrtcTiming timing[R500_NUM_CRTC];
    R500Lut8 lut8[2];
    bool lut8_valid[2];
    uint32_t lut_gen;               /* bumped on every LUT change */
    uint32_t cursor_gen[R500_NUM_CRTC];
    /* Each report about a scanout once per distinct value (surface.c). */
    uint32_t logged[R500_NUM_CRTC][8];
    uint32_t logged_legacy;
} R500Disp;

/* ---- What a CRTC shows ---- */

typedef enum R500ScanoutKind {
    R500_SCANOUT_OFF,       /* CRTC off or no enabled output: no signal */
    R500_SCANOUT_VGA,       /* the legacy VGA engine (DxVGA_CONTROL) */
    R500_SCANOUT_NATIVE,    /* AVIVO timing: borders, viewport, surface */
} R500ScanoutKind;

typedef enum R500SurfaceFormat {
    R500_FMT_NONE,          /* nothing fetched: the viewport is black */
    R500_FMT_I8,            /* 8 bpp indexed through the LUT */
    R500_FMT_ARGB1555,
    R500_FMT_RGB565,
    R500_FMT_ARGB4444,
    R500_FMT_ARGB8888,
    R500_FMT_ARGB2101010,
} R500SurfaceFormat;

/*
 * A native scanout, in coordinates of the visible area (the console):
 * the area is filled with border_rgb, the viewport rectangle with
 * vp_rgb, and the surface rectangle with pixels fetched from VRAM.
 * Zeroed before filling, so two descriptions compare with memcmp.
 */
typedef struct R500Scanout {
    uint32_t kind;                      /* R500ScanoutKind */
    uint32_t crtc;
    uint32_t width, height;             /* visible area */
    uint32_t border_rgb, vp_rgb;        /* x8r8g8b8 */
    uint32_t vp_x, vp_y, vp_w, vp_h;
    uint32_t rect_x, rect_y, rect_w, rect_h;
    /* VRAM offset of the rect's pixel 0; tiled: of the surface's (0, 0) */
    uint64_t base;
    uint32_t pitch;                     /* bytes */
    uint32_t tiled_macro, tiled_micro;  /* GRPH_CONTROL tiling (mem/tiling.h) */
    /* tiled: surface pixel of the rect's top-left */
    uint32_t org_x, org_y;
    uint32_t format;                    /* R500SurfaceFormat */
    uint32_t bpp;                       /* bytes per pixel */
    uint32_t endian_swap;               /* 0, 2, 4 or 8: bytes per swap unit */
    uint32_t swap_rb;
    uint32_t lut;                       /* 0: LUT A, 1: LUT B */
    uint32_t lut_bypass;                /* 2101010 without the LUT */
    uint32_t lut_gen;
    uint32_t cursor;                    /* cursor enabled */
    uint32_t cursor_gen;
    uint32_t refresh_mhz;               /* frame rate in mHz */
} R500Scanout;

/* Fill *so with what CRTC crtc shows now. */
void r500_disp_scanout(R500Chip *s, unsigned crtc, R500Scanout *so);

/*
 * Draw rows [y0, y1) of the visible area into dst (x8r8g8b8 or
 * a8r8g8b8, at least so->width x y1 pixels; the rest is clipped), and
 * the cursor on top when draw_cursor is set.
 */
void r500_disp_render(R500Chip *s, const R500Scanout *so, pixman_image_t *dst,
                      uint32_t y0, uint32_t y1, bool draw_cursor);

/*
 * The VRAM bytes [*lo, *hi) that hold rows [y0, y1) of the surface
 * rectangle (rows relative to it): what dirty tracking watches.  Whole
 * rows of tiles when the surface is tiled.  False when nothing is fetched.
 */
bool r500_disp_surface_span(const R500Scanout *so, uint32_t y0, uint32_t y1,
                            uint64_t *lo, uint64_t *hi);

/*
 * Convert n pixels of a linear surface row starting at VRAM offset off
 * (checked by the caller) to x8r8g8b8, through the LUT: the generic path
 * of r500_disp_render, exposed for the unit tests.
 */
void r500_disp_convert_row(R500Chip *s, const R500Scanout *so, uint64_t off,
                           uint32_t *dst, uint32_t n);

/*
 * The cursor of a native scanout: its top-left corner in the visible
 * area (may be negative), visible size, and the image as premultiplied
 * ARGB, 64 pixels per row; invert marks the pixels of a monochrome
 * cursor that invert the screen.  Returns false when no cursor is shown.
 */
typedef struct R500CursorImage {
    int32_t x, y;
    uint32_t w, h;
    uint32_t argb[R500_CURSOR_MAX * R500_CURSOR_MAX];
    uint8_t invert[R500_CURSOR_MAX * R500_CURSOR_MAX];
} R500CursorImage;
bool r500_disp_cursor(R500Chip *s, const R500Scanout *so, R500CursorImage *ci);

/*
 * The legacy Radeon CRTC (CRTC_GEN_CNTL...) as SeaVGABIOS programs it
 * for VESA modes; the board hands it to the VGA core's VBE state.
 */
typedef struct R500LegacyMode {
    bool enabled;           /* extended display on, valid pixel width */
    bool blank;             /* CRTC_EXT_CNTL display disable */
    uint32_t width, height, bpp;
    uint32_t pitch;         /* pixels */
    uint32_t offset;        /* bytes into VRAM */
} R500LegacyMode;
void r500_disp_legacy_mode(R500Chip *s, R500LegacyMode *m);

/* EDID served on DDC bus ddc (0: VGA, 1: DVI-D); len <= R500_EDID_MAX. */
void r500_disp_set_edid(R500Chip *s, unsigned ddc, const uint8_t *edid,
                        size_t len);

#endif
