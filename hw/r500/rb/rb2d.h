/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 2D engine (E2/RB2D): rectangle fills and copies with ROP3, write
 * mask, clipping, 8/16/32 bpp, and host-data blits with colour expansion.
 * Driven by its registers (MMIO, type-0 packets or the CP's CNTL_*
 * packets, all through the one register path); docs/cp.md.
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
 * A host-data blit waiting for its data (HOST_DATAn / HOST_DATA_LAST or
 * a CNTL_HOSTDATA_BLT payload): the descriptor validated when
 * DST_HEIGHT_WIDTH started it, and the next pixel of the data stream.
 */
typedef struct R500HostBlit {
    uint32_t base;          /* MC address of the destination surface */
    uint32_t pitch;         /* bytes */
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

typedef struct R500Rb2d {
    /* Migrated ("r500/rb2d" subsection in r500_pci.c). */
    bool host_active;
    R500HostBlit host;

    /* Not migrated. */
    uint64_t work;          /* pixels written: the CP charges them */
    uint64_t ops;
    bool stray_logged, tile_logged, cmp_logged, swap_logged, unimp_logged;
    /* Row buffers, whole words (rb2d.c rop_row()). */
    uint8_t row_src[R500_2D_ROW_BYTES + 4];
    uint8_t row_dst[R500_2D_ROW_BYTES + 4];
} R500Rb2d;

/* RBBM_SOFT_RESET of the 2D engine: drop a pending host-data blit. */
void r500_rb2d_soft_reset(R500Chip *s);

#endif
