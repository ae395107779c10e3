/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Surface tiling geometry (r500-3d-pipeline.md 6.4; see tiling.h). */
#include <string.h>

#include "tiling.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

bool r500_surf_init(R500Surf *sf, uint64_t base, uint32_t pitch,
                    uint32_t bpp, bool macro, uint32_t micro)
{
    *sf = (R500Surf){ .base = base, .pitch = pitch, .bpp = bpp,
                      .macro = macro, .micro = micro, .mtw = 1, .mth = 1 };

    if (bpp != 1 && bpp != 2 && bpp != 4 && bpp != 8 && bpp != 16) {
        return false;
    }
    if (micro == R500_MICRO_SQUARE && bpp != 2) {
        return false;
    }
    sf->tiled = micro != R500_MICRO_LINEAR && bpp < 16;
    if (sf->tiled) {
        if (micro == R500_MICRO_SQUARE) {
            sf->mtw = sf->mth = 4;
        } else {
            /* 32 bytes: 8x4, 8x2, 4x2, 2x2 */
            sf->mtw = bpp <= 2 ? 8 : 32 / (bpp * 2);
            sf->mth = 32 / (sf->mtw * bpp);
        }
    }
    sf->mtw_log2 = __builtin_ctz(sf->mtw);
    sf->mth_log2 = __builtin_ctz(sf->mth);
    if (macro) {
        sf->Mtw = sf->tiled ? 8 * sf->mtw : 256 / bpp;
        sf->Mth = sf->tiled ? 8 * sf->mth : 8;
        sf->Mtw_log2 = __builtin_ctz(sf->Mtw);
        sf->Mth_log2 = __builtin_ctz(sf->Mth);
        sf->row_bytes = align_up(pitch, sf->Mtw) * bpp * sf->Mth;
    } else if (sf->tiled) {
        sf->row_bytes = align_up(pitch, sf->mtw) * bpp * sf->mth;
    } else {
        sf->row_bytes = (uint64_t)pitch * bpp;
    }
    return true;
}

uint32_t r500_surf_row_pixels(const R500Surf *sf)
{
    uint32_t w = sf->macro ? sf->Mtw : sf->mtw;

    return (uint32_t)align_up(sf->pitch, w);
}

uint64_t r500_surf_rows_bytes(const R500Surf *sf, uint32_t y1)
{
    uint32_t th = sf->macro ? sf->Mth : sf->mth;

    return (uint64_t)((y1 + (uint64_t)th - 1) >> __builtin_ctz(th)) *
           sf->row_bytes;
}

/* The tile (bytes, pixels) whose pixels lie together: see r500_surf_fill. */
static void fill_tile(const R500Surf *sf, uint32_t *bytes, uint32_t *tw,
                      uint32_t *th)
{
    if (sf->macro) {
        *bytes = 2048;
        *tw = sf->Mtw;
        *th = sf->Mth;
    } else if (sf->tiled) {
        *bytes = 32;
        *tw = sf->mtw;
        *th = sf->mth;
    } else {
        *bytes = 0;
        *tw = *th = 1;
    }
}

void r500_surf_rect_span(const R500Surf *sf, uint32_t x0, uint32_t y0,
                         uint32_t x1, uint32_t y1, uint64_t *lo,
                         uint64_t *hi)
{
    uint32_t bytes, tw, th;

    fill_tile(sf, &bytes, &tw, &th);
    /*
     * Tiles are row-major across the pitch and every pixel of a tile lies
     * in its bytes: the tile holding (x0, y0) starts at or below every
     * pixel of the rectangle, the one holding (x1, y1) ends at or above.
     */
    *lo = r500_surf_offset(sf, x0 & ~(tw - 1), y0 & ~(th - 1));
    *hi = r500_surf_offset(sf, x1 | (tw - 1), y1 | (th - 1)) + sf->bpp;
}

/*
 * bytes from p, a whole number of pixels: pat is the pixel repeated over
 * 256 bytes; with keep (the same, of the bits to keep), a masked store.
 */
static void fill_run(uint8_t *p, const uint8_t *pat, const uint8_t *keep,
                     uint64_t bytes)
{
    if (keep) {
        uint64_t i = 0;

        /* 16 bytes at a time: a whole number of pixels, vectorised */
        for (; i + 16 <= bytes; i += 16) {
            for (int j = 0; j < 16; j++) {
                p[i + j] = (p[i + j] & keep[j]) | pat[j];
            }
        }
        for (; i < bytes; i++) {
            p[i] = (p[i] & keep[i % 16]) | pat[i % 16];
        }
        return;
    }
    while (bytes > 256) {
        memcpy(p, pat, 256);
        p += 256;
        bytes -= 256;
    }
    memcpy(p, pat, bytes);
}

void r500_surf_fill(const R500Surf *sf, uint8_t *mem, uint32_t x0,
                    uint32_t y0, uint32_t x1, uint32_t y1, const uint8_t *px,
                    const uint8_t *keep)
{
    uint8_t pat[256], kp[16];
    uint32_t bytes, tw, th;

    for (unsigned i = 0; i < sizeof(pat); i++) {
        pat[i] = px[i % sf->bpp];
    }
    for (unsigned i = 0; keep && i < sizeof(kp); i++) {
        kp[i] = keep[i % sf->bpp];
        pat[i] &= ~kp[i];
    }
    fill_tile(sf, &bytes, &tw, &th);
    for (uint32_t ty = y0 & ~(th - 1); ty <= y1; ty += th) {
        uint32_t ya = ty > y0 ? ty : y0, yb = ty + th - 1 < y1 ? ty + th - 1
                                                               : y1;

        for (uint32_t tx = x0 & ~(tw - 1); bytes && tx <= x1; tx += tw) {
            uint32_t xa = tx > x0 ? tx : x0;
            uint32_t xb = tx + tw - 1 < x1 ? tx + tw - 1 : x1;

            if (xa == tx && xb == tx + tw - 1 && ya == ty &&
                yb == ty + th - 1) {
                /* a whole tile: its bytes in one go, whatever the order */
                fill_run(mem + r500_surf_offset(sf, tx, ty), pat,
                         keep ? kp : NULL, bytes);
                continue;
            }
            for (uint32_t y = ya; y <= yb; y++) {
                for (uint32_t x = xa; x <= xb;) {
                    uint32_t n = r500_surf_run(sf, x, xb - x + 1);

                    fill_run(mem + r500_surf_offset(sf, x, y), pat,
                             keep ? kp : NULL, (uint64_t)n * sf->bpp);
                    x += n;
                }
            }
        }
        if (!bytes) {
            /* linear: each row is one run */
            fill_run(mem + r500_surf_offset(sf, x0, ty), pat,
                     keep ? kp : NULL, (uint64_t)(x1 - x0 + 1) * sf->bpp);
        }
    }
}
