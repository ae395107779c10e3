/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Surface addressing shared by every block that reads or writes a tiled
 * surface: the texture unit, the colour and depth buffers, the display,
 * the 2D engine and the host aperture's surface registers (hdp.c).  One
 * layout, so what one block writes the others read.  r500-3d-pipeline.md
 * 6.4; docs/display.md "Tiled surfaces".
 *
 * A micro tile is one 32-byte cache line, row-major inside; a macro tile
 * is 2 KiB: 8 x 8 micro tiles, or 8 rows of 256 bytes when micro tiling
 * is off.  Micro tiles are row-major inside a macro tile and macro tiles
 * row-major across the pitch (the interior order is not documented; any
 * bijection works as long as every unit uses this one, reference 6.4).
 */
#ifndef HW_R500_MEM_TILING_H
#define HW_R500_MEM_TILING_H

#include <stdbool.h>
#include <stdint.h>

/* Micro tiling modes (RB3D_COLORPITCH, ZB_DEPTHPITCH, TX_OFFSET). */
enum {
    R500_MICRO_LINEAR = 0,
    R500_MICRO_TILED = 1,
    R500_MICRO_SQUARE = 2,      /* 4 x 4, 16-bit pixels only */
};

typedef struct R500Surf {
    uint64_t base;              /* MC address of pixel (0, 0) */
    uint32_t pitch;             /* pixels per row */
    uint32_t bpp;               /* bytes per pixel (or per block): 1..16 */
    bool macro;
    uint32_t micro;
    /* Derived by r500_surf_init(). */
    bool tiled;                 /* micro tiles in use */
    uint32_t mtw, mth;          /* micro tile, pixels */
    uint32_t Mtw, Mth;          /* macro tile, pixels */
    uint64_t row_bytes;         /* bytes per row of pixels or of tiles */
    uint8_t mtw_log2, mth_log2, Mtw_log2, Mth_log2;
} R500Surf;

/*
 * Fill in the derived fields.  Returns false (surface unusable) for a
 * size other than 1, 2, 4, 8 or 16 bytes, or square micro tiles with
 * other than 2 bytes per pixel.  16-byte pixels are never micro tiled
 * (table 6.4): the micro mode is ignored for them.
 */
bool r500_surf_init(R500Surf *sf, uint64_t base, uint32_t pitch,
                    uint32_t bpp, bool macro, uint32_t micro);

/*
 * Byte offset of pixel (x, y) from base.  Every tile dimension is a power
 * of two: shifts and masks instead of divisions (per pixel, per texel).
 */
static inline uint64_t r500_surf_offset(const R500Surf *sf, uint32_t x,
                                        uint32_t y)
{
    if (sf->macro) {
        uint32_t ix = x & (sf->Mtw - 1), iy = y & (sf->Mth - 1);
        uint64_t off = sf->row_bytes * (y >> sf->Mth_log2) +
                       2048u * (uint64_t)(x >> sf->Mtw_log2);

        if (!sf->tiled) {
            return off + iy * 256u + ix * sf->bpp;
        }
        return off + (((iy >> sf->mth_log2) << 3) + (ix >> sf->mtw_log2)) *
               32u + (((iy & (sf->mth - 1)) << sf->mtw_log2) +
                      (ix & (sf->mtw - 1))) * sf->bpp;
    }
    if (sf->tiled) {
        return (uint64_t)(y >> sf->mth_log2) * sf->row_bytes +
               (uint64_t)(x >> sf->mtw_log2) * 32u +
               (((y & (sf->mth - 1)) << sf->mtw_log2) + (x & (sf->mtw - 1))) *
               sf->bpp;
    }
    return (uint64_t)y * sf->row_bytes + (uint64_t)x * sf->bpp;
}

/*
 * Pixels from (x, y) rightwards, at most n, that lie at consecutive
 * addresses: to the end of x's micro tile row (micro tiled), of its
 * macro tile row (macro tiled, micro linear), or all n (linear).  The
 * 2D engine and the host aperture copy runs instead of single pixels.
 */
static inline uint32_t r500_surf_run(const R500Surf *sf, uint32_t x,
                                     uint32_t n)
{
    uint32_t w = sf->tiled ? sf->mtw : sf->macro ? sf->Mtw : 0;
    uint32_t left = w ? w - (x & (w - 1)) : n;

    return left < n ? left : n;
}

/*
 * Bytes from base that hold pixel rows [0, y1): whole rows of tiles
 * (row_bytes each) for a tiled surface.  Every pixel (x, y) with y < y1
 * and x below the pitch rounded up to the tile width lies in them.
 */
uint64_t r500_surf_rows_bytes(const R500Surf *sf, uint32_t y1);

/* Pixels per row as laid out: the pitch rounded up to the tile width. */
uint32_t r500_surf_row_pixels(const R500Surf *sf);

/*
 * The bytes [lo, hi) from base that hold every pixel of the rectangle
 * [x0, x1] x [y0, y1] (inclusive): from the start of the tile of its
 * first pixel to the end of the tile of its last.
 */
void r500_surf_rect_span(const R500Surf *sf, uint32_t x0, uint32_t y0,
                         uint32_t x1, uint32_t y1, uint64_t *lo,
                         uint64_t *hi);

/*
 * Store the bpp bytes px into every pixel of [x0, x1] x [y0, y1]; mem is
 * base in host memory, and [lo, hi) of r500_surf_rect_span() must be
 * writable from it.  With keep (bpp bytes, or NULL), the bits set in it
 * keep their stored value.  Whole tiles are filled as one run of bytes,
 * the rest run by run: a constant colour or depth at memory speed.
 */
void r500_surf_fill(const R500Surf *sf, uint8_t *mem, uint32_t x0,
                    uint32_t y0, uint32_t x1, uint32_t y1, const uint8_t *px,
                    const uint8_t *keep);

#endif
