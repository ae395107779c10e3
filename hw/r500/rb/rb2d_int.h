/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the 2D engine: what rb2d.c (registers, validation, the command
 * FIFO, migration) and rb2d_draw.c (pixels, ROP3, drawing a band of a
 * BLIT, host data) share.
 */
#ifndef HW_R500_RB_RB2D_INT_H
#define HW_R500_RB_RB2D_INT_H

#include "../r500.h"
#include "../blocks.h"
#include "../mem/tiling.h"

/*
 * Datatypes, sources and ROPs: the values r500_regs.def names for
 * DP_GUI_MASTER_CNTL, which DP_DATATYPE and DP_MIX share.
 */
#define GMC_VAL(f, name)        R500_FVAL(DP_GUI_MASTER_CNTL, f, name)
#define BRUSH_8X8_MONO_FG_BG    GMC_VAL(BRUSH_DATATYPE, 8X8_MONO_FG_BG)
#define BRUSH_8X8_MONO_FG_LA    GMC_VAL(BRUSH_DATATYPE, 8X8_MONO_FG_LA)
#define BRUSH_SOLID_COLOR       GMC_VAL(BRUSH_DATATYPE, SOLID_COLOR)
#define BRUSH_NONE              GMC_VAL(BRUSH_DATATYPE, NONE)
#define SRC_MONO_FG_BG          GMC_VAL(SRC_DATATYPE, MONO_FG_BG)
#define SRC_MONO_FG_LA          GMC_VAL(SRC_DATATYPE, MONO_FG_LA)
#define SRC_COLOR               GMC_VAL(SRC_DATATYPE, COLOR)
#define SRC_SOURCE_MEMORY       GMC_VAL(SRC_SOURCE, MEMORY)
#define SRC_SOURCE_HOST         GMC_VAL(SRC_SOURCE, HOST_DATA)
#define SRC_SOURCE_HOST_BYTEALIGN GMC_VAL(SRC_SOURCE, HOST_DATA_BYTEALIGN)

#define ROP_SRCCOPY             GMC_VAL(ROP3, SRCCOPY)

typedef struct Surf {
    uint64_t base;      /* MC address */
    uint32_t pitch;     /* bytes */
    uint32_t tile;      /* R500_RB2D_TILE_* */
} Surf;

/* The layout of a surface at base with a queued pitch (bytes, tile bits). */
static inline void surf_layout(R500Surf *sf, uint64_t base, uint32_t pitch,
                        uint32_t bpp)
{
    r500_surf_init(sf, base, (pitch & R500_RB2D_PITCH_BYTES) / bpp, bpp,
                   pitch & R500_RB2D_TILE_MACRO,
                   pitch & R500_RB2D_TILE_MICRO ? R500_MICRO_TILED
                                                : R500_MICRO_LINEAR);
}

/* A validated operation. */

/* The write mask of a pixel of bpp bytes. */
static inline uint32_t bpp_mask(uint32_t bpp)
{
    return bpp == 4 ? ~0u : (1u << (8 * bpp)) - 1;
}

/*
 * rb2d_draw.c: the next band of the BLIT at the head of the FIFO (the
 * units spent; *done when it is finished or stopped); a host-data blit
 * armed, cancelled (why: a guest error unless it had finished), and one
 * dword of its data.
 */
uint64_t r500_rb2d_blit_band(R500Chip *s, const R500Rb2dCmd *c, uint64_t avail,
                             bool *done);
void r500_rb2d_host_cancel(R500Chip *s, const char *why);
void r500_rb2d_host_arm(R500Chip *s, const R500Rb2dCmd *c);
void r500_rb2d_host_data(R500Chip *s, uint32_t v, bool last);

#endif
