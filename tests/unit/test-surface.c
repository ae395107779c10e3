/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the graphics surface: format conversions through the LUT,
 * byte swapping, borders and viewport, what a CRTC shows, the LUT port
 * and the legacy CRTC (radeon-kms-r500.md 7.1, 7.3, 7.7).
 */
#include "disp-util.h"
#include "mem/tiling.h"

#define W       8
#define H       4
#define BASE    0x10000u
#define FRAME_NS 100000000      /* longer than any frame (>= 10 Hz) */

/* GRPH_CONTROL: depth 1:0, format 10:8, swap R/B bit 16. */
#define CTL(depth, fmt)  ((depth) | (fmt) << 8)

static uint32_t pattern(uint32_t x, uint32_t y)
{
    uint32_t v = (x * 0x9E3779B9u) ^ (y * 0x85EBCA6Bu) ^ 0x5bd1e995u;

    return v ^ (v >> 13);
}

/* Widen an n-bit component by replicating its top bits (docs/display.md). */
static uint32_t widen(uint32_t v, unsigned bits)
{
    v &= (1u << bits) - 1;
    switch (bits) {
    case 4:
        return v * 0x11;
    case 5:
        return (v * 33) >> 2;
    case 6:
        return (v * 65) >> 4;
    }
    return v;
}

static void store(TestHost *h, uint64_t off, uint32_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        h->vram[off + i] = v >> (8 * i);
    }
}

/* Fill the surface with the pattern; return the expected x8r8g8b8. */
typedef uint32_t (*ExpectFn)(uint32_t raw);

static void check_format_lut(TestHost *h, uint32_t ctl, unsigned bpp,
                             uint32_t pitch_px, uint32_t lut_sel,
                             ExpectFn expect)
{
    R500Chip *s = &h->chip;
    pixman_image_t *img;
    R500Scanout so;

    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            store(h, BASE + (y * pitch_px + x) * bpp, pattern(x, y), bpp);
        }
    }
    disp_surface(s, 0, W, H, ctl, pitch_px, BASE);
    r500_reg_write(s, R_D1GRPH_LUT_SEL, lut_sel);
    img = disp_render(s, 0, &so);
    g_assert_cmpuint(so.width, ==, W);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            uint32_t raw = pattern(x, y);

            if (bpp < 4) {
                raw &= (1u << (8 * bpp)) - 1;
            }

            g_assert_cmphex(disp_pixel(img, x, y), ==, expect(raw));
        }
    }
    pixman_image_unref(img);
}

static void check_format(TestHost *h, uint32_t ctl, unsigned bpp,
                         uint32_t pitch_px, ExpectFn expect)
{
    check_format_lut(h, ctl, bpp, pitch_px, 0, expect);
}

static TestHost *mode_host(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    disp_timing_small(&h->chip, 0, W, H);
    disp_surface(&h->chip, 0, W, H, CTL(2, 0), W, BASE);
    disp_enable(&h->chip, 0);
    return h;
}

static uint32_t rgb(uint32_t r, uint32_t g, uint32_t b)
{
    return r << 16 | g << 8 | b;
}

static uint32_t exp_8888(uint32_t v)
{
    return v & 0xFFFFFF;
}

static uint32_t exp_8888_swap(uint32_t v)
{
    return rgb(v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF);
}

static uint32_t exp_565(uint32_t v)
{
    return rgb(widen(v >> 11, 5), widen(v >> 5, 6), widen(v, 5));
}

static uint32_t exp_1555(uint32_t v)
{
    return rgb(widen(v >> 10, 5), widen(v >> 5, 5), widen(v, 5));
}

static uint32_t exp_4444(uint32_t v)
{
    return rgb(widen(v >> 8, 4), widen(v >> 4, 4), widen(v, 4));
}

static uint32_t exp_2101010(uint32_t v)
{
    return rgb((v >> 22) & 0xFF, (v >> 12) & 0xFF, (v >> 2) & 0xFF);
}

static uint32_t exp_8888_inverted(uint32_t v)
{
    return ~v & 0xFFFFFF;
}

static uint32_t exp_565_inverted(uint32_t v)
{
    return ~exp_565(v) & 0xFFFFFF;
}

static void test_formats(void)
{
    TestHost *h = mode_host();

    check_format(h, CTL(2, 0), 4, W, exp_8888);
    check_format(h, CTL(2, 0) | 1u << 16, 4, W, exp_8888_swap);
    check_format(h, CTL(1, 1), 2, W, exp_565);
    check_format(h, CTL(1, 0), 2, W, exp_1555);
    check_format(h, CTL(1, 2), 2, W, exp_4444);
    check_format(h, CTL(2, 1), 4, W, exp_2101010);
    /* Rows not 32-bit aligned: the same pixels without pixman. */
    check_format(h, CTL(1, 1), 2, W + 1, exp_565);
    check_format(h, CTL(1, 0), 2, W + 3, exp_1555);
    g_assert_cmpuint(test_host_count_logs(h, ""), ==, 0);
    test_host_free(h);
}

/* avivo_crtc_load_lut: 256 entries through DC_LUT_30_COLOR. */
static void load_lut(R500Chip *s, unsigned lut, uint32_t (*entry)(unsigned))
{
    r500_reg_write(s, lut ? R_DC_LUTB_CONTROL : R_DC_LUTA_CONTROL, 0);
    r500_reg_write(s, R_DC_LUT_RW_SELECT, lut);
    r500_reg_write(s, R_DC_LUT_RW_MODE, 0);
    r500_reg_write(s, R_DC_LUT_WRITE_EN_MASK, 0x3F);
    r500_reg_write_mask(s, R_DC_LUT_RW_INDEX, 0, 0xFF);   /* WREG8 */
    for (unsigned i = 0; i < 256; i++) {
        r500_reg_write(s, R_DC_LUT_30_COLOR, entry(i));
    }
}

static uint32_t lut_inverted(unsigned i)
{
    uint32_t c = (255 - i) << 2;

    return c << 20 | c << 10 | c;
}

static uint32_t lut_palette(unsigned i)
{
    return (pattern(i, 99) & 0x3FFFFFFF);
}

static uint32_t exp_indexed(uint32_t v)
{
    uint32_t e = lut_palette(v & 0xFF);

    return rgb((e >> 22) & 0xFF, (e >> 12) & 0xFF, (e >> 2) & 0xFF);
}

static void test_lut(void)
{
    TestHost *h = mode_host();
    R500Chip *s = &h->chip;

    /* 8 bpp indexed through LUT A. */
    load_lut(s, 0, lut_palette);
    check_format(h, CTL(0, 0), 1, W, exp_indexed);
    /* The LUT applies to direct colour too (no pixman shortcut). */
    load_lut(s, 0, lut_inverted);
    check_format(h, CTL(2, 0), 4, W, exp_8888_inverted);
    check_format(h, CTL(1, 1), 2, W, exp_565_inverted);
    /* 2101010 with the 10-bit bypass ignores it. */
    check_format_lut(h, CTL(2, 1), 4, W, 1u << 8, exp_2101010);
    /* LUT B is another table: D1 selecting B sees the identity. */
    disp_surface(s, 0, W, H, CTL(2, 0), W, BASE);
    r500_reg_write(s, R_D1GRPH_LUT_SEL, 1);
    {
        R500Scanout so;
        pixman_image_t *img = disp_render(s, 0, &so);

        g_assert_cmphex(disp_pixel(img, 3, 2), ==, pattern(3, 2) & 0xFFFFFF);
        pixman_image_unref(img);
    }
    test_host_free(h);
}

static void test_lut_port(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    load_lut(s, 1, lut_palette);
    /* Read back LUT B from entry 0 (radeonhd LUTxSave), auto-increment. */
    r500_reg_write(s, R_DC_LUT_READ_PIPE_SELECT, 1);
    r500_reg_write_mask(s, R_DC_LUT_RW_INDEX, 0, 0xFF);
    for (unsigned i = 0; i < 256; i++) {
        g_assert_cmphex(r500_reg_read(s, R_DC_LUT_30_COLOR), ==,
                        lut_palette(i));
    }
    /* LUT A untouched: the reset ramp. */
    r500_reg_write(s, R_DC_LUT_READ_PIPE_SELECT, 0);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 0x40);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_30_COLOR), ==,
                    0x101u << 20 | 0x101u << 10 | 0x101u);
    /* Write mask: only red (bits 4-5). */
    r500_reg_write(s, R_DC_LUT_RW_SELECT, 0);
    r500_reg_write(s, R_DC_LUT_WRITE_EN_MASK, 0x30);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 7);
    r500_reg_write(s, R_DC_LUT_30_COLOR, 0x3FFFFFFF);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 7);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_30_COLOR), ==,
                    0x3FFu << 20 | 0x1Cu << 10 | 0x1C);
    /* Sequential 16-bit components: red, green, blue, then the next. */
    r500_reg_write(s, R_DC_LUT_WRITE_EN_MASK, 0x3F);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 9);
    r500_reg_write(s, R_DC_LUT_SEQ_COLOR, 0xFFC0);
    r500_reg_write(s, R_DC_LUT_SEQ_COLOR, 0x0040);
    r500_reg_write(s, R_DC_LUT_SEQ_COLOR, 0x8000);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_RW_INDEX), ==, 10);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 9);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_30_COLOR), ==,
                    0x3FFu << 20 | 1u << 10 | 0x200);
    /* Autofill restores the ramp of the selected LUT. */
    r500_reg_write(s, R_DC_LUT_RW_SELECT, 1);
    r500_reg_write(s, R_DC_LUT_AUTOFILL, 1);
    r500_reg_write(s, R_DC_LUT_READ_PIPE_SELECT, 1);
    r500_reg_write(s, R_DC_LUT_RW_INDEX, 255);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_30_COLOR), ==, 0x3FFFFFFF);
    test_host_free(h);
}

static uint32_t exp_565_of_be(uint32_t v)
{
    return exp_565(v);
}

static void test_endian_swap(void)
{
    TestHost *h = mode_host();
    R500Chip *s = &h->chip;
    pixman_image_t *img;
    R500Scanout so;

    /* 8in32 on 32 bpp: memory holds big-endian pixels. */
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            store(h, BASE + (y * W + x) * 4,
                  GUINT32_SWAP_LE_BE(pattern(x, y)), 4);
        }
    }
    disp_surface(s, 0, W, H, CTL(2, 0), W, BASE);
    r500_reg_write(s, R_D1GRPH_SWAP_CNTL, 2);
    img = disp_render(s, 0, &so);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            g_assert_cmphex(disp_pixel(img, x, y), ==,
                            pattern(x, y) & 0xFFFFFF);
        }
    }
    pixman_image_unref(img);

    /* 8in16 on 16 bpp. */
    for (uint32_t i = 0; i < W * H; i++) {
        store(h, BASE + i * 2, GUINT16_SWAP_LE_BE(pattern(i % W, i / W)), 2);
    }
    disp_surface(s, 0, W, H, CTL(1, 1), W, BASE);
    r500_reg_write(s, R_D1GRPH_SWAP_CNTL, 1);
    img = disp_render(s, 0, &so);
    for (uint32_t i = 0; i < W * H; i++) {
        g_assert_cmphex(disp_pixel(img, i % W, i / W), ==,
                        exp_565_of_be(pattern(i % W, i / W) & 0xFFFF));
    }
    pixman_image_unref(img);

    /* 8in32 on 16 bpp: each dword is reversed, so pixel pairs swap too. */
    for (uint32_t i = 0; i < W * H; i += 2) {
        uint32_t lo = pattern(i % W, i / W) & 0xFFFF;
        uint32_t hi = pattern((i + 1) % W, (i + 1) / W) & 0xFFFF;

        store(h, BASE + i * 2, GUINT32_SWAP_LE_BE(hi << 16 | lo), 4);
    }
    r500_reg_write(s, R_D1GRPH_SWAP_CNTL, 2);
    img = disp_render(s, 0, &so);
    for (uint32_t i = 0; i < W * H; i++) {
        g_assert_cmphex(disp_pixel(img, i % W, i / W), ==,
                        exp_565(pattern(i % W, i / W) & 0xFFFF));
    }
    pixman_image_unref(img);
    test_host_free(h);
}

/* Borders, viewport offset, desktop extent, blank, overscan colour. */
static void test_layout(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const uint32_t sw = 32, sh = 16;
    pixman_image_t *img;
    R500Scanout so;

    for (uint32_t y = 0; y < sh; y++) {
        for (uint32_t x = 0; x < sw; x++) {
            store(h, BASE + (y * sw + x) * 4, rgb(x, y, 0x80), 4);
        }
    }
    /* 12x6 active, 2/3 pixel side borders, 1/2 line top/bottom borders. */
    disp_timing_small(s, 0, 12, 6);
    disp_surface(s, 0, sw, sh, CTL(2, 0), sw, BASE);
    r500_reg_write(s, R_D1MODE_VIEWPORT_SIZE, 12 << 16 | 6);
    /* The desktop shows from (20, 12): 12 columns, but only 4 rows left. */
    r500_reg_write(s, R_D1MODE_VIEWPORT_START, 20 << 16 | 12);
    r500_reg_write(s, R_D1GRPH_X_START, 0);
    r500_reg_write(s, R_D1GRPH_X_END, 28);
    r500_reg_write(s, R_D1MODE_EXT_OVERSCAN_LEFT_RIGHT, 2 << 16 | 3);
    r500_reg_write(s, R_D1MODE_EXT_OVERSCAN_TOP_BOTTOM, 1 << 16 | 2);
    r500_reg_write(s, R_D1CRTC_OVERSCAN_COLOR, 0x3FFu << 20 | 0x200);
    disp_enable(s, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmpuint(so.width, ==, 17);
    g_assert_cmpuint(so.height, ==, 9);
    for (uint32_t y = 0; y < so.height; y++) {
        for (uint32_t x = 0; x < so.width; x++) {
            uint32_t e;

            if (x < 2 || x >= 14 || y < 1 || y >= 7) {
                e = rgb(0xFF, 0, 0x80);             /* overscan colour */
            } else if (20 + x - 2 >= 28 || 12 + y - 1 >= sh) {
                e = 0;                              /* outside the desktop */
            } else {
                e = rgb(20 + x - 2, 12 + y - 1, 0x80);
            }
            g_assert_cmphex(disp_pixel(img, x, y), ==, e);
        }
    }
    pixman_image_unref(img);

    /* BlankCRTC: the whole area in the black colour. */
    r500_reg_write(s, R_D1CRTC_BLACK_COLOR, 0x100u << 10);
    r500_reg_write(s, R_D1CRTC_BLANK_CONTROL, 1u << 8);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, rgb(0, 0x40, 0));
    g_assert_cmphex(disp_pixel(img, 5, 4), ==, rgb(0, 0x40, 0));
    pixman_image_unref(img);
    r500_reg_write(s, R_D1CRTC_BLANK_CONTROL, 0);

    /* Graphics off: the viewport is black, the borders stay. */
    r500_reg_write(s, R_D1GRPH_ENABLE, 0);
    img = disp_render(s, 0, &so);
    g_assert_cmphex(disp_pixel(img, 5, 4), ==, 0);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, rgb(0xFF, 0, 0x80));
    pixman_image_unref(img);
    test_host_free(h);
}

static void test_bad_surface(void)
{
    TestHost *h = mode_host();
    R500Chip *s = &h->chip;
    pixman_image_t *img;
    R500Scanout so;

    /* Last row one byte past the end of the 16 MiB of VRAM. */
    disp_surface(s, 0, W, H, CTL(2, 0), W, VRAM_16M - W * H * 4 + 4);
    h->host.now += FRAME_NS;     /* a running CRTC takes it at vblank */
    img = disp_render(s, 0, &so);
    g_assert_cmpuint(so.rect_w, ==, 0);
    g_assert_cmphex(disp_pixel(img, 0, 0), ==, 0);
    pixman_image_unref(img);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(test_host_count_logs(h, "G: D1: surface outside VRAM"),
                     ==, 1);
    /* Exactly at the end is fine. */
    disp_surface(s, 0, W, H, CTL(2, 0), W, VRAM_16M - W * H * 4);
    h->host.now += FRAME_NS;
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.rect_w, ==, W);
    /* Below MC_FB_LOCATION's base: not VRAM. */
    *r500_mc_reg(s, MC_MC_FB_LOCATION) = 0x00FF0010;
    disp_surface(s, 0, W, H, CTL(2, 0), W, 0x80000);
    h->host.now += FRAME_NS;
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.rect_w, ==, 0);
    disp_surface(s, 0, W, H, CTL(2, 0), W, 0x100000);
    h->host.now += FRAME_NS;
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.rect_w, ==, W);
    g_assert_cmphex(so.base, ==, 0);
    /* 64 bpp: not modelled, black, reported once. */
    r500_reg_write(s, R_D1GRPH_CONTROL, 3);
    r500_disp_scanout(s, 0, &so);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.rect_w, ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "U: D1: GRPH_CONTROL"), ==, 1);
    test_host_free(h);
}

/*
 * Tiled front buffers (GRPH_CONTROL bits 20/21), as the 3D engine writes
 * them (mem/tiling.h): each tiling mode shows the surface's pixels where
 * they belong, with a viewport that starts inside a tile, and the VRAM
 * span dirty tracking watches covers every byte of each row.
 */
static void test_tiled(void)
{
    enum { SW = 64, SH = 20, VX = 4, VY = 2, MW = 56, MH = 18 };
    static const struct { bool macro; uint32_t micro; } modes[] = {
        { true, R500_MICRO_LINEAR }, { false, R500_MICRO_TILED },
        { true, R500_MICRO_TILED },
    };
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    disp_timing_small(s, 0, MW, MH);
    disp_surface(s, 0, SW, SH, CTL(2, 0), SW, BASE);
    r500_reg_write(s, R_D1MODE_VIEWPORT_START, VX << 16 | VY);
    r500_reg_write(s, R_D1MODE_VIEWPORT_SIZE, MW << 16 | MH);
    disp_enable(s, 0);
    for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
        uint32_t ctl = CTL(2, 0) |
                       (modes[m].micro ? R500_FMASK(D1GRPH_CONTROL, TILED) : 0) |
                       (modes[m].macro ?
                        R500_FMASK(D1GRPH_CONTROL, MACRO_ADDRESS_MODE) : 0);
        pixman_image_t *img;
        R500Scanout so;
        R500Surf sf;

        g_assert_true(r500_surf_init(&sf, 0, SW, 4, modes[m].macro,
                                     modes[m].micro));
        memset(h->vram, 0, VRAM_16M);
        for (uint32_t y = 0; y < SH; y++) {
            for (uint32_t x = 0; x < SW; x++) {
                uint32_t v = GUINT32_TO_LE(pattern(x, y));

                memcpy(h->vram + BASE + r500_surf_offset(&sf, x, y), &v, 4);
            }
        }
        r500_reg_write(s, R_D1GRPH_CONTROL, ctl);
        h->host.now += FRAME_NS;
        img = disp_render(s, 0, &so);
        g_assert_cmpuint(so.rect_w, ==, MW);
        for (uint32_t y = 0; y < MH; y++) {
            uint64_t lo, hi;

            g_assert_true(r500_disp_surface_span(&so, y, y + 1, &lo, &hi));
            for (uint32_t x = 0; x < MW; x++) {
                uint64_t a = BASE + r500_surf_offset(&sf, x + VX, y + VY);

                g_assert_cmphex(disp_pixel(img, x, y), ==,
                                pattern(x + VX, y + VY) & 0xFFFFFF);
                g_assert_cmpuint(a, >=, lo);
                g_assert_cmpuint(a + 4, <=, hi);
            }
        }
        pixman_image_unref(img);
    }
    /*
     * A desktop wider than the tiled rows (pitch 64, macro tiles 64
     * pixels wide, desktop 128): the pixels right of the rows are not
     * fetched (in the last tile row of VRAM they would lie past its end).
     */
    disp_timing_small(s, 0, 128, 8);
    disp_surface(s, 0, 128, 8, CTL(2, 0) |
                 R500_FMASK(D1GRPH_CONTROL, MACRO_ADDRESS_MODE), 64,
                 VRAM_16M - 64 * 4 * 8);
    h->host.now += FRAME_NS;
    {
        R500Scanout so;

        r500_disp_scanout(s, 0, &so);
        g_assert_cmpuint(so.rect_w, ==, 64);
        g_assert_cmpuint(test_host_count_logs(h, "wider than the tiled"), ==,
                         1);
    }
    disp_timing_small(s, 0, MW, MH);
    /* A tiled surface whose last tile row passes the end of VRAM. */
    disp_surface(s, 0, SW, SH, CTL(2, 0) | R500_FMASK(D1GRPH_CONTROL, TILED),
                 SW, VRAM_16M - SW * 4 * 16);
    h->host.now += FRAME_NS;
    {
        R500Scanout so;

        r500_disp_scanout(s, 0, &so);
        g_assert_cmpuint(so.rect_w, ==, 0);
    }
    test_host_free(h);
}

/* A CRTC reaches the screen through an enabled output (atombios-rom 5.3). */
static void test_outputs(void)
{
    TestHost *h = mode_host();
    R500Chip *s = &h->chip;
    R500Scanout so;

    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_NATIVE);
    /* DAC1OutputControl(0): powered down. */
    r500_reg_write(s, R_DACA_POWERDOWN, 0x01010101);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_OFF);
    /* DAC B from D1 instead. */
    r500_reg_write(s, R_DACB_SOURCE_SELECT, 0);
    r500_reg_write(s, R_DACB_ENABLE, 1);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_NATIVE);
    r500_reg_write(s, R_DACB_SOURCE_SELECT, 1);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_OFF);
    /* TMDS A needs the encoder and the transmitter. */
    r500_reg_write(s, R_TMDSA_SOURCE_SELECT, 0);
    r500_reg_write(s, R_TMDSA_CNTL, 1);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_OFF);
    r500_reg_write(s, R_TMDSA_TRANSMITTER_ENABLE, 0x1F);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_NATIVE);
    /* VGA mode wins over the native surface. */
    r500_reg_write(s, R_D1VGA_CONTROL, 1);
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_VGA);
    test_host_free(h);
}

/* SeaVGABIOS atiext.c ati_ext_mode for 1024x768x32. */
static void test_legacy_crtc(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    R500LegacyMode m;

    r500_disp_legacy_mode(s, &m);
    g_assert_false(m.enabled);
    r500_reg_write(s, R_CRTC_EXT_CNTL, 0x400);
    r500_reg_write(s, R_CRTC_GEN_CNTL, 0x03000600);
    r500_reg_write(s, R_CRTC_H_TOTAL_DISP, (1024 / 8 - 1) << 16);
    r500_reg_write(s, R_CRTC_V_TOTAL_DISP, (768 - 1) << 16);
    r500_reg_write(s, R_CRTC_OFFSET, 0);
    r500_reg_write(s, R_CRTC_PITCH, 1024 / 8);
    r500_disp_legacy_mode(s, &m);
    g_assert_true(m.enabled && m.blank);
    r500_reg_write(s, R_CRTC_EXT_CNTL, 0);
    r500_disp_legacy_mode(s, &m);
    g_assert_true(m.enabled && !m.blank);
    g_assert_cmpuint(m.width, ==, 1024);
    g_assert_cmpuint(m.height, ==, 768);
    g_assert_cmpuint(m.bpp, ==, 32);
    g_assert_cmpuint(m.pitch, ==, 1024);
    /* ati_set_mode for a standard VGA mode clears CRTC_GEN_CNTL. */
    r500_reg_write(s, R_CRTC_GEN_CNTL, 0);
    r500_disp_legacy_mode(s, &m);
    g_assert_false(m.enabled);
    /* Pixel width 7 does not exist: off, reported once. */
    r500_reg_write(s, R_CRTC_GEN_CNTL, 0x03000700);
    r500_disp_legacy_mode(s, &m);
    r500_disp_legacy_mode(s, &m);
    g_assert_false(m.enabled);
    g_assert_cmpuint(test_host_count_logs(h, "pixel width 7"), ==, 1);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/surface/formats", test_formats);
    g_test_add_func("/surface/lut", test_lut);
    g_test_add_func("/surface/lut-port", test_lut_port);
    g_test_add_func("/surface/endian-swap", test_endian_swap);
    g_test_add_func("/surface/layout", test_layout);
    g_test_add_func("/surface/bad-surface", test_bad_surface);
    g_test_add_func("/surface/tiled", test_tiled);
    g_test_add_func("/surface/outputs", test_outputs);
    g_test_add_func("/surface/legacy-crtc", test_legacy_crtc);
    return g_test_run();
}
