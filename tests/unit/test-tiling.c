/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Surface tiling (r500-3d-pipeline.md 6.4): micro tiles are 32-byte lines
 * of the listed footprints, macro tiles 2 KiB blocks of the listed pixel
 * sizes, and the layout is a bijection over the surface.  The micro-tile
 * address formula is the one the reference gives (Mesa's classic CPU
 * tiling), written out here.
 */
#include <string.h>

#include "test-host.h"

/* Reference 6.4, micro tiled, macro linear. */
static uint64_t micro_formula(uint32_t x, uint32_t y, uint32_t pitch,
                              uint32_t bpp, uint32_t tw, uint32_t th)
{
    return (uint64_t)(y / th) * (pitch * bpp * th) + (x / tw) * 32 +
           (y % th) * (tw * bpp) + (x % tw) * bpp;
}

static void test_micro_formula(void)
{
    static const struct { uint32_t bpp, tw, th; } t[] = {
        { 1, 8, 4 }, { 2, 8, 2 }, { 4, 4, 2 }, { 8, 2, 2 },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(t); i++) {
        R500Surf sf;

        g_assert_true(r500_surf_init(&sf, 0, 64, t[i].bpp, false, 1));
        g_assert_cmpuint(sf.mtw, ==, t[i].tw);
        g_assert_cmpuint(sf.mth, ==, t[i].th);
        for (uint32_t y = 0; y < 16; y++) {
            for (uint32_t x = 0; x < 64; x++) {
                g_assert_cmpuint(r500_surf_offset(&sf, x, y), ==,
                                 micro_formula(x, y, 64, t[i].bpp, t[i].tw,
                                               t[i].th));
            }
        }
    }
}

/* Each 2 KiB block holds exactly one macro tile of the table's size. */
static void check_macro(uint32_t bpp, uint32_t micro, uint32_t mw,
                        uint32_t mh)
{
    const uint32_t pitch = 4 * mw, rows = 3 * mh;
    uint64_t size = (uint64_t)pitch * rows * bpp;
    uint8_t *seen = g_malloc0(size / bpp);
    R500Surf sf;

    g_assert_true(r500_surf_init(&sf, 0x10000, pitch, bpp, true, micro));
    g_assert_cmpuint(sf.Mtw, ==, mw);
    g_assert_cmpuint(sf.Mth, ==, mh);
    for (uint32_t y = 0; y < rows; y++) {
        for (uint32_t x = 0; x < pitch; x++) {
            uint64_t off = r500_surf_offset(&sf, x, y);
            uint64_t block = off / 2048;

            g_assert_cmpuint(off % bpp, ==, 0);
            g_assert_cmpuint(off, <, size);
            /* bijective */
            g_assert_cmpuint(seen[off / bpp], ==, 0);
            seen[off / bpp] = 1;
            /* the block is the macro tile the pixel falls in */
            g_assert_cmpuint(block, ==, (y / mh) * (pitch / mw) + x / mw);
        }
    }
    g_free(seen);
}

static void test_macro_tiles(void)
{
    /* micro tiled */
    check_macro(1, 1, 64, 32);
    check_macro(2, 1, 64, 16);
    check_macro(4, 1, 32, 16);
    check_macro(8, 1, 16, 16);
    /* square micro tiles, 16 bpp */
    check_macro(2, 2, 32, 32);
    /* micro linear */
    check_macro(1, 0, 256, 8);
    check_macro(4, 0, 64, 8);
    check_macro(16, 0, 16, 8);
}

static void test_square_and_limits(void)
{
    R500Surf sf;

    g_assert_true(r500_surf_init(&sf, 0, 32, 2, false, 2));
    /* 4x4 square micro tile: (1, 1) is the sixth 2-byte pixel */
    g_assert_cmpuint(r500_surf_offset(&sf, 1, 1), ==, 10);
    g_assert_cmpuint(r500_surf_offset(&sf, 4, 0), ==, 32);
    /* square tiles exist for 16 bpp only; sizes are 1-16 bytes */
    g_assert_false(r500_surf_init(&sf, 0, 32, 4, false, 2));
    g_assert_false(r500_surf_init(&sf, 0, 32, 3, false, 0));
    /* 16-byte pixels are never micro tiled */
    g_assert_true(r500_surf_init(&sf, 0, 32, 16, false, 1));
    g_assert_cmpuint(r500_surf_offset(&sf, 3, 2), ==, (2 * 32 + 3) * 16);
    /* linear */
    g_assert_true(r500_surf_init(&sf, 0, 100, 4, false, 0));
    g_assert_cmpuint(r500_surf_offset(&sf, 7, 3), ==, (3 * 100 + 7) * 4);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tiling/micro-formula", test_micro_formula);
    g_test_add_func("/tiling/macro-tiles", test_macro_tiles);
    g_test_add_func("/tiling/square-and-limits", test_square_and_limits);
    return g_test_run();
}
