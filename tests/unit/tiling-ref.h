/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tiled layout as r500-3d-pipeline.md 6.4 states it, written out with
 * divisions for the tests (independent of hw/r500/mem/tiling.c, which the
 * blocks use): micro tiles of 32 bytes with the table's footprints (8x4,
 * 8x2, 4x2, 2x2 pixels for 1, 2, 4, 8 bytes; 16-byte pixels never micro
 * tiled), pixels row-major inside; macro tiles of 2 KiB (8 x 8 micro
 * tiles, or 8 rows of 256 bytes when micro linear), micro tiles row-major
 * inside, macro tiles row-major along the pitch rounded up to the tile
 * width.  The reference leaves the interior order open (any bijection,
 * as long as every block uses the same); this is the order chosen.
 */
#ifndef R500_TEST_TILING_REF_H
#define R500_TEST_TILING_REF_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t tiling_ref_offset(uint32_t x, uint32_t y,
                                         uint32_t pitch_px, uint32_t bpp,
                                         bool macro, bool micro)
{
    uint32_t tw = 1, th = 1, mw, mh, row_px;
    uint64_t tile, in;

    if (micro && bpp < 16) {
        tw = bpp == 1 ? 8 : bpp == 2 ? 8 : bpp == 4 ? 4 : 2;
        th = bpp == 1 ? 4 : 2;
    }
    if (!macro) {
        row_px = (pitch_px + tw - 1) / tw * tw;
        return (uint64_t)(y / th) * row_px * bpp * th + (x / tw) * 32 +
               (y % th) * tw * bpp + (x % tw) * bpp;
    }
    mw = tw > 1 ? 8 * tw : 256 / bpp;
    mh = tw > 1 ? 8 * th : 8;
    row_px = (pitch_px + mw - 1) / mw * mw;
    tile = (uint64_t)(y / mh) * (row_px / mw) + x / mw;
    if (tw > 1) {
        uint32_t ix = x % mw, iy = y % mh;

        in = ((iy / th) * 8 + ix / tw) * 32 +
             ((iy % th) * tw + ix % tw) * bpp;
    } else {
        in = (y % mh) * 256 + (x % mw) * bpp;
    }
    return tile * 2048 + in;
}

#endif
