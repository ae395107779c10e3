/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the host aperture's surface registers (hw/r500/hdp.c):
 * the CPU's linear view of a tiled window lands at the layout of
 * r500-3d-pipeline.md 6.4 (tiling-ref.h), MM_DATA sees the same, the
 * display shows what the CPU wrote through a window (both CRTCs), and
 * what the 3D engine renders into a tiled colour buffer the CPU reads
 * linear, and the registers are checked as the guest is untrusted.
 * Register values are those Linux writes (r100_set_surface_reg: LOWER = BO offset,
 * UPPER = offset + size - 1, INFO = pitch / 8 | R300_SURF_TILE_*).
 */
#include <string.h>

#include "disp-util.h"
#include "test-3d.h"
#include "tiling-ref.h"

#define LO          0x100000u
#define TILE_MACRO  1u          /* Linux r300_reg.h R300_SURF_TILE_MACRO */
#define TILE_MICRO  2u          /* R300_SURF_TILE_MICRO */
#define FRAME_NS    100000000

static void surface(R500Chip *s, unsigned i, uint32_t lo, uint32_t size,
                    uint32_t tile, uint32_t pitch)
{
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, i), tile << 16 | pitch / 8);
    r500_reg_write(s, R500_REGA_AT(SURFACE_LOWER_BOUND, i), lo);
    r500_reg_write(s, R500_REGA_AT(SURFACE_UPPER_BOUND, i), lo + size - 1);
}

static uint32_t cpu_byte(uint64_t off)
{
    return (uint32_t)((off * 0x9E3779B1u) >> 13) & 0xFF;
}

/* The VRAM byte a CPU byte (xb, y) of a window lands in (reference 6.4). */
static uint64_t ref_byte(uint32_t lo, uint32_t pitch, uint32_t tile,
                         uint32_t xb, uint32_t y)
{
    return lo + tiling_ref_offset(xb / 4, y, pitch / 4, 4, tile & TILE_MACRO,
                                  tile & TILE_MICRO) + xb % 4;
}

static void check_layout(uint32_t tile, uint32_t pitch, uint32_t rows)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint32_t size = (pitch * rows + 0x3FF) & ~0x3FFu;
    uint64_t lower[R500_HDP_SURFACES], upper[R500_HDP_SURFACES];
    unsigned changes = h->host.aperture_changes;

    surface(s, 5, LO, size, tile, pitch);
    g_assert_cmpuint(h->host.aperture_changes, >, changes);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 1);
    g_assert_cmphex(lower[0], ==, LO);
    g_assert_cmphex(upper[0], ==, LO + size - 1);
    for (uint32_t off = 0; off < pitch * rows; off += 4) {
        uint32_t v = cpu_byte(off) | cpu_byte(off + 1) << 8 |
                     cpu_byte(off + 2) << 16 | cpu_byte(off + 3) << 24;

        r500_hdp_write(s, LO + off, v, 4);
    }
    for (uint32_t y = 0; y < rows; y++) {
        for (uint32_t xb = 0; xb < pitch; xb++) {
            uint32_t off = y * pitch + xb;

            g_assert_cmphex(h->vram[ref_byte(LO, pitch, tile, xb, y)], ==,
                            cpu_byte(off));
            g_assert_cmphex(r500_hdp_read(s, LO + off, 1), ==, cpu_byte(off));
        }
    }
    /* Nothing outside the window moved. */
    g_assert_cmphex(h->vram[LO - 1], ==, 0);
    g_assert_cmphex(h->vram[LO + size], ==, 0);
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    test_host_free(h);
}

static void test_layout(void)
{
    /* Pitches the DDX allocates (256-byte aligned) and finer ones. */
    check_layout(TILE_MACRO, 5120, 24);
    check_layout(TILE_MACRO, 1024, 17);
    check_layout(TILE_MICRO, 5120, 6);
    check_layout(TILE_MICRO, 48, 40);
    check_layout(TILE_MACRO | TILE_MICRO, 5120, 33);
    check_layout(TILE_MACRO | TILE_MICRO, 384, 40);
}

/* No surface register, or INFO without tiling: the aperture is VRAM. */
static void test_identity(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint64_t lower[R500_HDP_SURFACES], upper[R500_HDP_SURFACES];

    surface(s, 0, LO, 0x10000, 0, 1024);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 0);
    r500_hdp_write(s, LO + 1234, 0x1122334455667788ull, 8);
    g_assert_cmphex(h->vram[LO + 1234], ==, 0x88);
    g_assert_cmphex(h->vram[LO + 1241], ==, 0x11);
    g_assert_cmphex(r500_hdp_read(s, LO + 1235, 2), ==, 0x6677);
    test_host_free(h);
}

/* MM_INDEX.APER accesses are the CPU's too: the window applies. */
static void test_mm_data(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint32_t off = 3 * 1024 + 260;     /* row 3, byte 260 */

    surface(s, 0, LO, 0x10000, TILE_MACRO, 1024);
    r500_reg_write(s, R_MM_INDEX, 0x80000000u | (LO + off));
    r500_reg_write(s, R_MM_DATA, 0xCAFEF00D);
    g_assert_cmphex(h->vram[ref_byte(LO, 1024, TILE_MACRO, 260, 3)], ==, 0x0D);
    g_assert_cmphex(h->vram[ref_byte(LO, 1024, TILE_MACRO, 263, 3)], ==, 0xCA);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0xCAFEF00D);
    /* One byte lane. */
    r500_reg_write_mask(s, R_MM_DATA, 0x00005500, 0x0000FF00);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0xCAFE550D);
    test_host_free(h);
}

static void test_hostile(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint64_t lower[R500_HDP_SURFACES], upper[R500_HDP_SURFACES], t;
    uint32_t end = 16u << 20;

    /* Past the end of VRAM, pitch 0, a reserved tile mode: off. */
    surface(s, 0, end - 0x1000, 0x2000, TILE_MACRO, 1024);
    surface(s, 1, LO, 0x1000, TILE_MACRO, 0);
    surface(s, 2, LO, 0x1000, 5, 1024);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "not translated"), ==, 3);
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, 0), 0);
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, 1), 0);
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, 2), 0);

    /* LOWER above UPPER covers nothing, silently (a state between writes). */
    surface(s, 3, LO, 0x1000, TILE_MACRO, 1024);
    r500_reg_write(s, R500_REGA_AT(SURFACE_LOWER_BOUND, 3), LO + 0x2000);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 0);
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, 3), 0);
    g_assert_cmpuint(h->host.logs->len, ==, 3);

    /* Bounds have 1 KiB granularity. */
    r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, 4), TILE_MACRO << 16 | 128);
    r500_reg_write(s, R500_REGA_AT(SURFACE_LOWER_BOUND, 4), LO + 0x123);
    r500_reg_write(s, R500_REGA_AT(SURFACE_UPPER_BOUND, 4), LO + 0x7F0);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 1);
    g_assert_cmphex(lower[0], ==, LO);
    g_assert_cmphex(upper[0], ==, LO + 0x7FF);

    /* Overlaps: reported once; the lower-numbered surface applies. */
    surface(s, 6, LO + 0x400, 0x10000, TILE_MICRO, 2048);
    surface(s, 7, LO + 0x800, 0x400, TILE_MICRO, 2048);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 3);
    g_assert_cmpuint(test_host_count_logs(h, "overlaps"), ==, 1);
    g_assert_true(r500_hdp_translate(s, LO + 0x500, &t));
    g_assert_cmphex(t, ==, ref_byte(LO, 1024, TILE_MACRO, 0x100, 1));
    g_assert_true(r500_hdp_translate(s, LO + 0x900, &t));
    g_assert_cmphex(t, ==, ref_byte(LO + 0x400, 2048, TILE_MICRO, 0x500, 0));

    /* SURF_TRANSLATION_DIS: the whole aperture is linear. */
    r500_reg_write(s, R_SURFACE_CNTL, R500_FMASK(SURFACE_CNTL,
                                                 SURF_TRANSLATION_DIS));
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 0);
    r500_reg_write(s, R_SURFACE_CNTL, 0);
    for (unsigned i = 4; i < 8; i++) {
        r500_reg_write(s, R500_REGA_AT(SURFACE_INFO, i), 0);
    }

    /*
     * A pitch below the tile width: each 8-byte row of the CPU's view
     * takes a 256-byte tile row, so the last 1 KiB of VRAM maps rows
     * past the end: those read 0 and are not written.
     */
    g_assert_cmpuint(test_host_count_logs(h, "beyond VRAM"), ==, 0);
    surface(s, 0, end - 0x400, 0x400, TILE_MACRO, 8);
    g_assert_cmpuint(test_host_count_logs(h, "not a multiple"), ==, 1);
    memset(h->vram + end - 0x400, 0x77, 0x400);
    g_assert_false(r500_hdp_translate(s, end - 0x400 + 8 * 64, &t));
    g_assert_cmphex(r500_hdp_read(s, end - 0x400 + 8 * 64, 4), ==, 0);
    r500_hdp_write(s, end - 0x400 + 8 * 64, 0x12345678, 4);
    g_assert_cmpuint(test_host_count_logs(h, "beyond VRAM"), ==, 1);
    g_assert_cmphex(r500_hdp_read(s, end - 0x400, 4), ==, 0x77777777);

    /* Unaligned accesses across runs go byte by byte, each translated. */
    surface(s, 0, LO, 0x10000, TILE_MICRO, 1024);
    r500_hdp_write(s, LO + 12, 0x0807060504030201ull, 8);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(h->vram[ref_byte(LO, 1024, TILE_MICRO, 12 + i, 0)],
                        ==, i + 1);
    }
    g_assert_cmphex(r500_hdp_read(s, LO + 13, 8), ==, 0x0008070605040302ull);
    test_host_free(h);
}

/* Reset clears the windows; after loadvm they follow the registers. */
static void test_reset_and_load(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint64_t lower[R500_HDP_SURFACES], upper[R500_HDP_SURFACES];
    uint32_t *saved;
    unsigned changes;

    surface(s, 1, LO, 0x10000, TILE_MACRO, 1024);
    saved = g_memdup2(s->regs, sizeof(s->regs));
    r500_chip_reset(s);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 0);
    memcpy(s->regs, saved, sizeof(s->regs));
    changes = h->host.aperture_changes;
    r500_chip_post_load(s);
    g_assert_cmpuint(h->host.aperture_changes, >, changes);
    g_assert_cmpuint(r500_hdp_windows(s, lower, upper), ==, 1);
    g_assert_cmphex(lower[0], ==, LO);
    g_free(saved);
    test_host_free(h);
}

/*
 * What the CPU writes through a window, the display shows (both CRTCs,
 * every tile mode of the scanout at 32 and 16 bpp, macro at 8 bpp): the
 * screen is the linear image the CPU wrote.  This is the front buffer of a guest that
 * draws with the CPU into a BO flagged RADEON_TILING_SURFACE.
 */
static void check_scanout(unsigned c, uint32_t tile, uint32_t bpp)
{
    enum { W = 128, H = 40 };
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint32_t ctl = (bpp == 4 ? 2 : bpp == 2 ? 1 | 1 << 8 : 0) |
                   (tile & TILE_MICRO ? R500_FMASK(D1GRPH_CONTROL, TILED) : 0) |
                   (tile & TILE_MACRO ?
                    R500_FMASK(D1GRPH_CONTROL, MACRO_ADDRESS_MODE) : 0);
    /* The DDX's tiled pitch alignment: 256 bytes. */
    uint32_t pitch = bpp == 1 ? 256 : W;
    pixman_image_t *img;
    R500Scanout so;

    surface(s, c + 3, LO, pitch * H * bpp, tile, pitch * bpp);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            r500_hdp_write(s, LO + (y * pitch + x) * bpp,
                           (x * 0x010305u) ^ (y * 0x0B0D11u), bpp);
        }
    }
    disp_timing_small(s, c, W, H);
    disp_surface(s, c, W, H, ctl, pitch, LO);
    disp_enable(s, c);
    h->host.now += FRAME_NS;
    img = disp_render(s, c, &so);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            uint32_t v = (x * 0x010305u) ^ (y * 0x0B0D11u), want;

            if (bpp == 4) {
                want = v & 0xFFFFFF;
            } else if (bpp == 1) {
                /* 8 bpp indexed through the LUT's initial linear ramp. */
                want = (v & 0xFF) * 0x010101u;
            } else {
                /* RGB565 widened by replicating the top bits. */
                uint32_t r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31;

                want = ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) |
                       (b << 3 | b >> 2);
            }
            if (disp_pixel(img, x, y) != want) {
                g_error("D%u tile %u %u bpp: (%u, %u) shows %06x, the CPU "
                        "wrote %06x", c + 1, tile, bpp, x, y,
                        disp_pixel(img, x, y), want);
            }
        }
    }
    pixman_image_unref(img);
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    test_host_free(h);
}

static void test_scanout(void)
{
    for (unsigned c = 0; c < 2; c++) {
        for (uint32_t tile = 1; tile <= 3; tile++) {
            check_scanout(c, tile, 4);
            check_scanout(c, tile, 2);
        }
        /* 8 bpp: macro tiles only (its micro tiles are not the window's). */
        check_scanout(c, TILE_MACRO, 1);
    }
}

/*
 * The 3D engine draws the same triangle into a linear colour buffer and
 * into one tiled as RB3D_COLORPITCH says (the kernel ORs the BO's tiling
 * in, r300_packet0_check); through a surface register of that tiling the
 * CPU reads the tiled one as the linear one.
 */
static void test_3d(void)
{
    enum { TRIANGLES = 4 };
    static const float v[3 * 8] = {
        0, 0, 0, 1, 1, 0, 0.25f, 1,
        64, 3, 0, 1, 0, 1, 0.5f, 1,
        5, 64, 0, 1, 0, 0.2f, 1, 1,
    };

    for (uint32_t tile = 1; tile <= 3; tile++) {
        TestHost *h = test_host_new(R500_MODEL_RV515, 16);
        R500Chip *s = &h->chip;
        uint32_t pitch = T3D_W | (tile & TILE_MACRO ? 1u << 16 : 0) |
                         (tile & TILE_MICRO ? 1u << 17 : 0) | 6u << 21;

        t3d_setup(h);
        t3d_draw(h, TRIANGLES, v, 3);
        r500_reg_write(s, R_RB3D_COLOROFFSET, T3D_TEX);
        r500_reg_write(s, R_RB3D_COLORPITCH, pitch);
        t3d_draw(h, TRIANGLES, v, 3);
        surface(s, 0, T3D_TEX, T3D_W * T3D_H * 4, tile, T3D_W * 4);
        for (uint32_t y = 0; y < T3D_H; y++) {
            for (uint32_t x = 0; x < T3D_W; x++) {
                g_assert_cmphex(r500_hdp_read(s, T3D_TEX + (y * T3D_W + x) * 4,
                                              4), ==, t3d_px(h, x, y));
            }
        }
        g_assert_cmphex(t3d_px(h, 10, 10), !=, 0);
        test_host_free(h);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/hdp/layout", test_layout);
    g_test_add_func("/hdp/identity", test_identity);
    g_test_add_func("/hdp/mm-data", test_mm_data);
    g_test_add_func("/hdp/hostile", test_hostile);
    g_test_add_func("/hdp/reset-and-load", test_reset_and_load);
    g_test_add_func("/hdp/scanout", test_scanout);
    g_test_add_func("/hdp/3d", test_3d);
    return g_test_run();
}
