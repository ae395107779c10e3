/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 2D engine (E2/RB2D): rectangle fills and copies with ROP3, write
 * mask, clipping, 8/16/32 bpp, linear or tiled surfaces, and host-data
 * blits with colour expansion.
 * Driven by its registers (MMIO, type-0 packets or the CP's CNTL_*
 * packets, all through the one register path); docs/cp.md.
 *
 * A trigger register write validates the operation and queues it in the
 * engine's command FIFO; the block's run() draws it, a band of rows per
 * slice, under the CP's slice budget (docs/cp.md "2D engine").
 */
#ifndef HW_R500_RB_RB2D_H
#define HW_R500_RB_RB2D_H

#include <stdbool.h>
#include <stdint.h>

typedef struct R500Chip R500Chip;

/* Coordinates are clipped to [0, R500_2D_COORD_MAX) (14-bit fields). */
#define R500_2D_COORD_MAX   16384
/* A row fits its pitch, at most 255 * 64 bytes (PITCH is 8 bits). */
#define R500_2D_ROW_BYTES   (255 * 64)
/*
 * A queued surface pitch (R500Rb2dCmd.dst_pitch and src_pitch,
 * R500HostBlit.pitch): bytes, with the surface's tile bits where the
 * pitch/offset register has them (bits 30 and 31, Linux radeon_reg.h
 * RADEON_DST_TILE_MACRO / RADEON_DST_TILE_MICRO), so tiled surfaces
 * migrate in the fields there were.
 */
#define R500_RB2D_PITCH_BYTES   0xFFFFu
#define R500_RB2D_TILE_MACRO    (1u << 30)
#define R500_RB2D_TILE_MICRO    (1u << 31)
#define R500_RB2D_TILE_BITS     (R500_RB2D_TILE_MACRO | R500_RB2D_TILE_MICRO)

/*
 * The command FIFO: RBBM_STATUS.CMDFIFO_AVAIL counts its free entries
 * (64 when empty, as radeon's r100_gui_wait_for_idle expects).  A trigger
 * or a HOST_DATA write takes one entry until it is done.
 */
#define R500_RB2D_FIFO_SIZE 64

/*
 * A host-data blit waiting for its data (HOST_DATAn / HOST_DATA_LAST or
 * a CNTL_HOSTDATA_BLT payload): the descriptor validated when
 * DST_HEIGHT_WIDTH started it, and the next pixel of the data stream.
 */
typedef struct R500HostBlit {
    uint32_t base;          /* MC address of the destination surface */
    uint32_t pitch;         /* bytes and tile bits (R500_RB2D_TILE_*) */
    uint32_t bpp;           /* bytes per pixel: 1, 2 or 4 */
    int32_t x, y;           /* the rectangle the stream covers */
    uint32_t w, h;
    int32_t cl, ct, cr, cb; /* clip rectangle, right/bottom exclusive */
    uint32_t rop;
    uint32_t mask;          /* write mask */
    uint32_t fg, bg;        /* DP_SRC_FRGD_CLR / DP_SRC_BKGD_CLR */
    uint32_t src_type;      /* DP_DATATYPE.SRC_DATATYPE: 0/1 mono, 3 colour */
    bool lsb_first;         /* mono bit order (GMC_BYTE_LSB_TO_MSB) */
    uint32_t cx, cy;        /* next pixel of the stream */
} R500HostBlit;

/* What a FIFO entry does when it reaches the head. */
typedef enum R500Rb2dCmdKind {
    R500_RB2D_CMD_BLIT = 1, /* draw a validated rectangle */
    R500_RB2D_CMD_HOST,     /* start a host-data blit (ends the last one) */
    R500_RB2D_CMD_DATA,     /* one HOST_DATA dword (last: HOST_DATA_LAST) */
    R500_RB2D_CMD_END,      /* a trigger that draws nothing: ends a host blit */
} R500Rb2dCmdKind;

/*
 * One FIFO entry: an operation as validated when its trigger was written
 * (the registers it came from may be rewritten behind it, as with the
 * hardware's command FIFO), or a host-data dword.
 */
typedef struct R500Rb2dCmd {
    uint32_t kind;          /* R500Rb2dCmdKind */
    uint32_t bpp;           /* bytes per pixel: 1, 2 or 4 */
    uint32_t rop;           /* ROP3 */
    uint32_t mask;          /* write mask, bpp bits */
    uint32_t brush;         /* DP_DATATYPE.BRUSH_DATATYPE */
    uint32_t fg, bg;        /* BLIT: brush colours; HOST: source colours */
    uint32_t pat[2];        /* 8x8 mono pattern, rows 0-3 and 4-7 */
    int32_t pat_x, pat_y;   /* pattern origin (BRUSH_Y_X) */
    uint32_t src_type;      /* HOST: 0/1 mono, 3 colour */
    bool need_s, need_d, need_p;    /* BLIT: what the ROP reads */
    bool lsb_first;         /* mono bit order */
    bool ttb;               /* BLIT: rows top to bottom */
    bool last;              /* DATA: HOST_DATA_LAST */
    uint32_t dst_base, dst_pitch;   /* MC address; bytes and tile bits */
    uint32_t src_base, src_pitch;
    int32_t x, y;           /* HOST: the unclipped rectangle */
    uint32_t w, h;
    int32_t x0, y0, x1, y1; /* clipped destination, right/bottom exclusive */
    int32_t sx0, sy0;       /* BLIT: source pixel of (x0, y0) */
    uint32_t data;          /* DATA: the dword */
} R500Rb2dCmd;

/* The 2D engine's reports made once (R500Rb2d.logged). */
enum {
    R500_RB2D_LOG_STRAY = 1u << 0,  /* HOST_DATA with no blit (per blit) */
    R500_RB2D_LOG_CMP = 1u << 1,    /* colour compare */
    R500_RB2D_LOG_SWAP = 1u << 2,   /* host data byte swapping */
    R500_RB2D_LOG_UNIMP = 1u << 3,  /* registers stored without effect */
};

typedef struct R500Rb2d {
    /* Migrated ("r500/rb2d" subsection in r500_pci.c). */
    bool host_active;
    R500HostBlit host;
    /*
     * Migrated ("r500/2d-fifo"): the command FIFO, a ring of count
     * entries from head, and the rows of the head BLIT already drawn.
     */
    R500Rb2dCmd fifo[R500_RB2D_FIFO_SIZE];
    uint32_t fifo_head, fifo_count;
    uint32_t row;

    /* Not migrated. */
    uint64_t work;          /* pixels written */
    uint64_t ops;           /* triggers */
    uint64_t slices;        /* run() slices that drew */
    uint64_t overflows;     /* entries dropped on a full FIFO */
    uint32_t logged;        /* R500_RB2D_LOG_*: reported (r500_once) */
    /* Row buffers, whole words (rb2d.c rop_row()). */
    uint8_t row_src[R500_2D_ROW_BYTES + 4];
    uint8_t row_dst[R500_2D_ROW_BYTES + 4];
} R500Rb2d;

/* RBBM_SOFT_RESET of the 2D engine: drop the FIFO and a host-data blit. */
void r500_rb2d_soft_reset(R500Chip *s);
/* Entries queued or being drawn: the engine is busy (RBBM_STATUS). */
bool r500_rb2d_busy(R500Chip *s);
/* Free FIFO entries (RBBM_STATUS.CMDFIFO_AVAIL). */
uint32_t r500_rb2d_fifo_avail(R500Chip *s);

#endif
