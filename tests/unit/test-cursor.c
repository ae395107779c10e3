/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the hardware cursor (radeon-kms-r500.md 7.6). */
#include <string.h>

#include "disp-util.h"

#define SW      32
#define SH      24
#define FB      0x20000u
#define CURSOR  0x80000u
#define BG(x, y)  (((x) * 7) << 16 | ((y) * 9) << 8 | 0x40)

static TestHost *cursor_host(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    for (uint32_t y = 0; y < SH; y++) {
        for (uint32_t x = 0; x < SW; x++) {
            uint32_t v = BG(x, y);

            memcpy(h->vram + FB + (y * SW + x) * 4, &v, 4);
        }
    }
    disp_timing_small(s, 0, SW, SH);
    disp_surface(s, 0, SW, SH, 2, SW, FB);
    disp_enable(s, 0);
    return h;
}

/* radeon_cursor.c: lock, program, unlock. */
static void set_cursor(R500Chip *s, uint32_t mode, uint32_t w, uint32_t h,
                       uint32_t x, uint32_t y, uint32_t hx, uint32_t hy)
{
    r500_reg_write(s, R_D1CUR_UPDATE, 1u << 16);
    r500_reg_write(s, R_D1CUR_SURFACE_ADDRESS, CURSOR);
    r500_reg_write(s, R_D1CUR_CONTROL, 1 | mode << 8);
    r500_reg_write(s, R_D1CUR_SIZE, (w - 1) << 16 | (h - 1));
    r500_reg_write(s, R_D1CUR_POSITION, x << 16 | y);
    r500_reg_write(s, R_D1CUR_HOT_SPOT, hx << 16 | hy);
    r500_reg_write(s, R_D1CUR_UPDATE, 0);
}

static void cursor_pixel(TestHost *h, uint32_t x, uint32_t y, uint32_t argb)
{
    memcpy(h->vram + CURSOR + (y * 64 + x) * 4, &argb, 4);
}

/* Premultiplied "over" with rounding, per channel. */
static uint32_t over(uint32_t src, uint32_t dst)
{
    uint32_t a = src >> 24, out = 0;

    for (unsigned sh = 0; sh < 24; sh += 8) {
        uint32_t d = (dst >> sh) & 0xFF;
        uint32_t v = ((src >> sh) & 0xFF) + (d * (255 - a) + 127) / 255;
        out |= MIN(v, 255u) << sh;
    }
    return out;
}

static uint32_t cursor_argb(uint32_t x, uint32_t y)
{
    switch ((x + y) % 3) {
    case 0:
        return 0xFF000000u | (x * 8) << 16 | (y * 8);   /* opaque */
    case 1:
        return 0;                                       /* transparent */
    }
    return 0x80404040u;                         /* half, premultiplied */
}

static void test_argb(void)
{
    TestHost *h = cursor_host();
    R500Chip *s = &h->chip;
    pixman_image_t *img;
    R500CursorImage *ci = g_new(R500CursorImage, 1);
    R500Scanout so;

    for (uint32_t y = 0; y < 64; y++) {
        for (uint32_t x = 0; x < 64; x++) {
            cursor_pixel(h, x, y, cursor_argb(x, y));
        }
    }
    /* 16x8 shown with its corner at (10 - 4, 5 - 2). */
    set_cursor(s, 2, 16, 8, 10, 5, 4, 2);
    img = disp_render(s, 0, &so);
    for (uint32_t y = 0; y < SH; y++) {
        for (uint32_t x = 0; x < SW; x++) {
            uint32_t e = BG(x, y);

            if (x >= 6 && x < 22 && y >= 3 && y < 11) {
                e = over(cursor_argb(x - 6, y - 3), e);
            }
            g_assert_cmphex(disp_pixel(img, x, y), ==, e);
        }
    }
    pixman_image_unref(img);
    g_assert_true(r500_disp_cursor(s, &so, ci));
    g_assert_cmpint(ci->x, ==, 6);
    g_assert_cmpint(ci->y, ==, 3);
    g_assert_cmpuint(ci->w, ==, 16);
    g_assert_cmpuint(ci->h, ==, 8);

    /* Off the top-left edge: POSITION 0, the hotspot clips the image. */
    set_cursor(s, 2, 64, 64, 0, 0, 5, 3);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==,
                    over(cursor_argb(5, 3), BG(0, 0)));
    g_assert_cmphex(disp_pixel(img, 7, 9), ==,
                    over(cursor_argb(12, 12), BG(7, 9)));
    pixman_image_unref(img);

    /* POSITION is in desktop coordinates: the viewport start subtracts. */
    r500_reg_write(s, R_D1MODE_VIEWPORT_START, 4 << 16 | 2);
    set_cursor(s, 2, 8, 8, 14, 12, 0, 0);
    g_assert_true(r500_disp_cursor(s, &so, ci));
    g_assert_cmpint(ci->x, ==, 10);
    g_assert_cmpint(ci->y, ==, 10);
    g_free(ci);
    test_host_free(h);
}

static void test_modes(void)
{
    TestHost *h = cursor_host();
    R500Chip *s = &h->chip;
    pixman_image_t *img;
    R500Scanout so;

    /* Mode 3: not premultiplied. */
    cursor_pixel(h, 0, 0, 0x80FF0000u);
    cursor_pixel(h, 1, 0, 0xFF00FF00u);
    /* Mode 1: 24-bit colour, 1-bit alpha. */
    cursor_pixel(h, 2, 0, 0x01123456u);
    cursor_pixel(h, 3, 0, 0x00123456u);
    set_cursor(s, 3, 4, 1, 0, 0, 0, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, over(0x80800000u, BG(0, 0)));
    g_assert_cmphex(disp_pixel(img, 1, 0), ==, 0x00FF00);
    pixman_image_unref(img);
    set_cursor(s, 1, 4, 1, 0, 0, 0, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 2, 0), ==, 0x123456);
    g_assert_cmphex(disp_pixel(img, 3, 0), ==, BG(3, 0));
    pixman_image_unref(img);

    /* Mode 0: AND mask bytes 0-7, XOR mask bytes 8-15, MSB first. */
    memset(h->vram + CURSOR, 0, 64 * 16);
    h->vram[CURSOR + 0] = 0x30;         /* AND: pixels 2, 3 */
    h->vram[CURSOR + 8] = 0x50;         /* XOR: pixels 1, 3 */
    r500_reg_write(s, R_D1CUR_COLOR1, 0x111111);
    r500_reg_write(s, R_D1CUR_COLOR2, 0xABCDEF);
    set_cursor(s, 0, 4, 1, 0, 0, 0, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, 0x111111);   /* AND 0 XOR 0 */
    g_assert_cmphex(disp_pixel(img, 1, 0), ==, 0xABCDEF);   /* AND 0 XOR 1 */
    g_assert_cmphex(disp_pixel(img, 2, 0), ==, BG(2, 0));   /* transparent */
    g_assert_cmphex(disp_pixel(img, 3, 0), ==, ~BG(3, 0) & 0xFFFFFF);
    g_assert_cmphex(disp_pixel(img, 4, 0), ==, BG(4, 0));   /* beyond SIZE */
    pixman_image_unref(img);

    /* Disabled: the frame alone. */
    r500_reg_write(s, R_D1CUR_CONTROL, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, BG(0, 0));
    pixman_image_unref(img);
    test_host_free(h);
}

static void test_lock(void)
{
    TestHost *h = cursor_host();
    R500Chip *s = &h->chip;
    R500CursorImage *ci = g_new(R500CursorImage, 1);
    R500Scanout so;
    uint32_t gen;

    set_cursor(s, 2, 8, 8, 4, 4, 0, 0);
    r500_disp_scanout(s, 0, &so);
    gen = so.cursor_gen;
    /* Locked: the move waits for the unlock. */
    r500_reg_write(s, R_D1CUR_UPDATE, 1u << 16);
    r500_reg_write(s, R_D1CUR_POSITION, 20 << 16 | 10);
    g_assert_true(r500_disp_cursor(s, &so, ci));
    g_assert_cmpint(ci->x, ==, 4);
    r500_reg_write(s, R_D1CUR_UPDATE, 0);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.cursor_gen, !=, gen);
    g_assert_true(r500_disp_cursor(s, &so, ci));
    g_assert_cmpint(ci->x, ==, 20);
    g_assert_cmpint(ci->y, ==, 10);
    /* Outside VRAM: not shown, reported once. */
    r500_reg_write(s, R_D1CUR_SURFACE_ADDRESS, VRAM_16M - 4096);
    g_assert_false(r500_disp_cursor(s, &so, ci));
    g_assert_false(r500_disp_cursor(s, &so, ci));
    g_assert_cmpuint(test_host_count_logs(h, "G: D1: cursor outside VRAM"),
                     ==, 1);
    g_free(ci);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cursor/argb", test_argb);
    g_test_add_func("/cursor/modes", test_modes);
    g_test_add_func("/cursor/lock", test_lock);
    return g_test_run();
}
