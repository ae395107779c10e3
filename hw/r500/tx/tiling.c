/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Surface tiling geometry (r500-3d-pipeline.md 6.4; see tiling.h). */
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
