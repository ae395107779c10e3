/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Display qtests: modes, surfaces, LUT, cursor and flips set by register
 * writes, checked pixel by pixel in QMP screendumps; tiled front buffers
 * written through a surface register and by the 2D engine; EDID over
 * bit-banged DDC; the vblank counter and interrupt status in virtual
 * time; VGA text and the SeaVGABIOS VESA path through the VGA core;
 * switching between VGA and native scanout; the second head.
 * Reference radeon-kms-r500.md 7; docs/display.md.
 */
#include "r500-qtest.h"

#define CRTC(c, d1reg)  ((d1reg) + (c) * R500_CRTC2_OFFSET)

/* ---- Programming a mode like the AtomBIOS tables and radeon do ---- */

typedef struct Timing {
    uint32_t h, hblank, hso, hsw, v, vblank, vso, vsw;
    uint32_t ref, fb, post;         /* 27 MHz * fb / (ref * post) */
} Timing;

/* DMT 1024x768@60, 65 MHz (atombios-rom.md 5.3 check values). */
static const Timing mode_1024 = {
    1024, 320, 24, 136, 768, 38, 3, 6, 9, 130, 6,
};
/* DMT 640x480@60, 25.2 MHz. */
static const Timing mode_640 = { 640, 160, 16, 96, 480, 45, 10, 2, 15, 112, 8 };

/* SetPixelClock, SetCRTC_UsingDTDTiming (ROM convention). */
static void set_timing(R500Test *t, unsigned c, const Timing *m)
{
    uint32_t ht = m->h + m->hblank, vt = m->v + m->vblank;

    r500_wreg(t, c ? R_EXT2_PPLL_REF_DIV : R_EXT1_PPLL_REF_DIV, m->ref);
    r500_wreg(t, c ? R_EXT2_PPLL_FB_DIV : R_EXT1_PPLL_FB_DIV, m->fb << 16);
    r500_wreg(t, c ? R_EXT2_PPLL_POST_DIV : R_EXT1_PPLL_POST_DIV, m->post);
    r500_wreg(t, c ? R_P2PLL_CNTL : R_P1PLL_CNTL, 0);
    r500_wreg(t, c ? R_PCLK_CRTC2_CNTL : R_PCLK_CRTC1_CNTL, c << 16);
    r500_wreg(t, CRTC(c, R_D1CRTC_H_TOTAL), ht - 1);
    r500_wreg(t, CRTC(c, R_D1CRTC_H_BLANK_START_END),
              (ht - m->hso) | (m->hblank - m->hso) << 16);
    r500_wreg(t, CRTC(c, R_D1CRTC_H_SYNC_A), m->hsw << 16);
    r500_wreg(t, CRTC(c, R_D1CRTC_V_TOTAL), vt - 1);
    r500_wreg(t, CRTC(c, R_D1CRTC_V_BLANK_START_END),
              (vt - m->vso) | (m->vblank - m->vso) << 16);
    r500_wreg(t, CRTC(c, R_D1CRTC_V_SYNC_A), m->vsw << 16);
}

/* avivo_crtc_do_set_base. */
static void set_surface(R500Test *t, unsigned c, uint32_t w, uint32_t h,
                        uint32_t control, uint32_t addr)
{
    r500_wreg(t, c ? R_D2VGA_CONTROL : R_D1VGA_CONTROL, 0);
    r500_wreg(t, CRTC(c, R_D1GRPH_FLIP_CONTROL), 0);
    r500_wreg(t, CRTC(c, R_D1GRPH_PRIMARY_SURFACE_ADDRESS), addr);
    r500_wreg(t, CRTC(c, R_D1GRPH_SECONDARY_SURFACE_ADDRESS), addr);
    r500_wreg(t, CRTC(c, R_D1GRPH_CONTROL), control);
    r500_wreg(t, CRTC(c, R_D1GRPH_LUT_SEL), c);
    r500_wreg(t, CRTC(c, R_D1GRPH_X_END), w);
    r500_wreg(t, CRTC(c, R_D1GRPH_Y_END), h);
    r500_wreg(t, CRTC(c, R_D1GRPH_PITCH), w);
    r500_wreg(t, CRTC(c, R_D1GRPH_ENABLE), 1);
    r500_wreg(t, CRTC(c, R_D1MODE_VIEWPORT_START), 0);
    r500_wreg(t, CRTC(c, R_D1MODE_VIEWPORT_SIZE), w << 16 | h);
}

/* D1 on DAC A (VGA connector) or D2 on TMDS A (DVI), CRTC enabled. */
static void enable_output(R500Test *t, unsigned c)
{
    if (c == 0) {
        r500_wreg(t, R_DACA_SOURCE_SELECT, 0);
        r500_wreg(t, R_DACA_ENABLE, 1);
        r500_wreg(t, R_DACA_POWERDOWN, 0);
    } else {
        r500_wreg(t, R_TMDSA_SOURCE_SELECT, 1);
        r500_wreg(t, R_TMDSA_CNTL, 1);
        r500_wreg(t, R_TMDSA_TRANSMITTER_ENABLE, 0x1F);
    }
    r500_wreg(t, CRTC(c, R_D1CRTC_CONTROL), 1);
}

static void vram_write(R500Test *t, uint64_t off, const void *buf, size_t len)
{
    qtest_bufwrite(t->qts, t->vram.addr + off, buf, len);
}

static uint32_t pattern(uint32_t x, uint32_t y)
{
    uint32_t v = (x * 0x9E3779B9u) ^ (y * 0x85EBCA6Bu) ^ 0x27d4eb2fu;

    return v ^ (v >> 15);
}

static void fill_pattern(R500Test *t, uint64_t off, uint32_t w, uint32_t h,
                         unsigned bpp)
{
    uint8_t *buf = g_malloc((size_t)w * h * bpp);

    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t v = pattern(x, y);

            memcpy(buf + ((size_t)y * w + x) * bpp, &v, bpp);
        }
    }
    vram_write(t, off, buf, (size_t)w * h * bpp);
    g_free(buf);
}

/* ---- Native scanout ---- */

static void check_32bpp(R500Image *img, uint32_t w, uint32_t h)
{
    g_assert_cmpuint(img->width, ==, w);
    g_assert_cmpuint(img->height, ==, h);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            if (r500_image_pixel(img, x, y) != (pattern(x, y) & 0xFFFFFF)) {
                g_error("pixel (%u, %u) is %06x, expected %06x", x, y,
                        r500_image_pixel(img, x, y), pattern(x, y) & 0xFFFFFF);
            }
        }
    }
}

static void test_native_32bpp(const R500TestModel *m)
{
    R500Test t;
    R500Image img;
    uint32_t v;

    r500_test_start(&t, m->name, NULL, true);
    fill_pattern(&t, 0, 1024, 768, 4);
    set_timing(&t, 0, &mode_1024);
    set_surface(&t, 0, 1024, 768, 2 /* 32 bpp ARGB8888 */, 0);
    enable_output(&t, 0);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 1024, 768);
    r500_image_free(&img);

    /* Writes through BAR0 and through MM_DATA both reach the screen. */
    v = 0x00123456;
    vram_write(&t, (700 * 1024 + 1000) * 4, &v, 4);
    r500_wreg(&t, R_MM_INDEX, 0x80000000u | (5 * 1024 + 7) * 4);
    r500_wreg(&t, R_MM_DATA, 0x00ABCDEF);
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, 1000, 700), ==, 0x123456);
    g_assert_cmphex(r500_image_pixel(&img, 7, 5), ==, 0xABCDEF);
    g_assert_cmphex(r500_image_pixel(&img, 8, 5), ==, pattern(8, 5) & 0xFFFFFF);
    r500_image_free(&img);
    r500_test_stop(&t);
}

static uint32_t widen5(uint32_t v)
{
    v &= 31;
    return (v * 33) >> 2;
}

static uint32_t widen6(uint32_t v)
{
    v &= 63;
    return (v * 65) >> 4;
}

static void test_native_16bpp(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    fill_pattern(&t, 0x100000, 640, 480, 2);
    set_timing(&t, 0, &mode_640);
    set_surface(&t, 0, 640, 480, 1 | 1 << 8 /* RGB565 */, 0x100000);
    enable_output(&t, 0);
    r500_screendump(&t, 0, &img);
    g_assert_cmpuint(img.width, ==, 640);
    g_assert_cmpuint(img.height, ==, 480);
    for (uint32_t y = 0; y < 480; y++) {
        for (uint32_t x = 0; x < 640; x++) {
            uint32_t p = pattern(x, y);

            g_assert_cmphex(r500_image_pixel(&img, x, y), ==,
                            widen5(p >> 11) << 16 | widen6(p >> 5) << 8 |
                            widen5(p));
        }
    }
    r500_image_free(&img);
    r500_test_stop(&t);
}

static uint32_t lut_entry(unsigned i)
{
    return pattern(i, 1000) & 0x3FFFFFFF;
}

static void test_native_8bpp_lut(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    fill_pattern(&t, 0, 640, 480, 1);
    set_timing(&t, 0, &mode_640);
    set_surface(&t, 0, 640, 480, 0 /* 8 bpp indexed */, 0);
    /* avivo_crtc_load_lut, index set with a byte write. */
    r500_wreg(&t, R_DC_LUTA_CONTROL, 0);
    r500_wreg(&t, R_DC_LUT_RW_SELECT, 0);
    r500_wreg(&t, R_DC_LUT_RW_MODE, 0);
    r500_wreg(&t, R_DC_LUT_WRITE_EN_MASK, 0x3F);
    qpci_io_writeb(t.dev, t.mmio, R_DC_LUT_RW_INDEX, 0);
    for (unsigned i = 0; i < 256; i++) {
        r500_wreg(&t, R_DC_LUT_30_COLOR, lut_entry(i));
    }
    enable_output(&t, 0);
    r500_screendump(&t, 0, &img);
    for (uint32_t y = 0; y < 480; y++) {
        for (uint32_t x = 0; x < 640; x++) {
            uint32_t e = lut_entry(pattern(x, y) & 0xFF);

            g_assert_cmphex(r500_image_pixel(&img, x, y), ==,
                            ((e >> 22) & 0xFF) << 16 | ((e >> 12) & 0xFF) << 8 |
                            ((e >> 2) & 0xFF));
        }
    }
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* ---- Cursor ---- */

static void test_cursor(void)
{
    const uint32_t cur_addr = 0x400000, px = 300, py = 200;
    uint32_t cur[64 * 64];
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    fill_pattern(&t, 0, 640, 480, 4);
    /* Opaque where x + y is even, transparent elsewhere. */
    for (uint32_t y = 0; y < 64; y++) {
        for (uint32_t x = 0; x < 64; x++) {
            cur[y * 64 + x] = (x + y) & 1 ? 0
                              : 0xFF000000u | (x * 4) << 8 | y * 4;
        }
    }
    vram_write(&t, cur_addr, cur, sizeof(cur));
    set_timing(&t, 0, &mode_640);
    set_surface(&t, 0, 640, 480, 2, 0);
    enable_output(&t, 0);
    /* radeon_cursor.c: lock, address, control by MM_INDEX, place, unlock. */
    r500_wreg(&t, R_D1CUR_UPDATE, 1u << 16);
    r500_wreg(&t, R_D1CUR_SURFACE_ADDRESS, cur_addr);
    r500_wreg(&t, R_MM_INDEX, R_D1CUR_CONTROL);
    r500_wreg(&t, R_MM_DATA, 1 | 2 << 8);
    r500_wreg(&t, R_D1CUR_POSITION, px << 16 | py);
    r500_wreg(&t, R_D1CUR_HOT_SPOT, 0);
    r500_wreg(&t, R_D1CUR_SIZE, 63 << 16 | 63);
    r500_wreg(&t, R_D1CUR_UPDATE, 0);
    r500_screendump(&t, 0, &img);
    for (uint32_t y = py - 8; y < py + 72; y++) {
        for (uint32_t x = px - 8; x < px + 72; x++) {
            uint32_t e = pattern(x, y) & 0xFFFFFF;

            if (x >= px && x < px + 64 && y >= py && y < py + 64 &&
                !((x - px + y - py) & 1)) {
                e = cur[(y - py) * 64 + (x - px)] & 0xFFFFFF;
            }
            g_assert_cmphex(r500_image_pixel(&img, x, y), ==, e);
        }
    }
    r500_image_free(&img);

    /* Moved: the old place shows the frame again. */
    r500_wreg(&t, R_D1CUR_POSITION, 10 << 16 | 20);
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, px, py), ==,
                    pattern(px, py) & 0xFFFFFF);
    g_assert_cmphex(r500_image_pixel(&img, 10, 20), ==, cur[0] & 0xFFFFFF);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* ---- Flip ---- */

static void test_flip(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    fill_pattern(&t, 0, 640, 480, 4);
    qtest_memset(t.qts, t.vram.addr + 0x200000, 0xFF, 640 * 480 * 4);
    set_timing(&t, 0, &mode_640);
    set_surface(&t, 0, 640, 480, 2, 0);
    enable_output(&t, 0);
    /* rs600_page_flip: lock, addresses, pending seen, unlock. */
    r500_wreg(&t, R_D1GRPH_UPDATE, 1u << 16);
    r500_wreg(&t, R_D1GRPH_SECONDARY_SURFACE_ADDRESS, 0x200000);
    r500_wreg(&t, R_D1GRPH_PRIMARY_SURFACE_ADDRESS, 0x200000);
    g_assert_cmphex(r500_rreg(&t, R_D1GRPH_UPDATE) & 4, ==, 4);
    r500_wreg(&t, R_D1GRPH_UPDATE, 0);
    /* Until the next vblank the old frame is on screen. */
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, 5, 5), ==, pattern(5, 5) & 0xFFFFFF);
    r500_image_free(&img);
    qtest_clock_step(t.qts, 20 * 1000 * 1000);
    g_assert_cmphex(r500_rreg(&t, R_D1GRPH_UPDATE) & 4, ==, 0);
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, 5, 5), ==, 0xFFFFFF);
    g_assert_cmphex(r500_image_pixel(&img, 639, 479), ==, 0xFFFFFF);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* ---- Vblank ---- */

static void test_vblank(const R500TestModel *m)
{
    R500Test t;
    uint32_t f0, f1;

    r500_test_start(&t, m->name, NULL, true);
    set_timing(&t, 1, &mode_1024);
    set_surface(&t, 1, 1024, 768, 2, 0);
    enable_output(&t, 1);
    f0 = r500_rreg(&t, R_D2CRTC_STATUS_FRAME_COUNT);
    /* 65 MHz / (1344 * 806) = 60.004 Hz. */
    qtest_clock_step(t.qts, 1000 * 1000 * 1000);
    f1 = r500_rreg(&t, R_D2CRTC_STATUS_FRAME_COUNT);
    g_assert_cmpuint(f1 - f0, ==, 60);
    /* rs600_irq_set: D2 vblank interrupt; it fires within a frame. */
    r500_wreg(&t, R_D2MODE_VBLANK_STATUS, 1u << 4);
    r500_wreg(&t, R_DXMODE_INT_MASK, 1u << 8);
    g_assert_cmphex(r500_rreg(&t, R_GEN_INT_STATUS) & 1, ==, 0);
    qtest_clock_step(t.qts, 17 * 1000 * 1000);
    g_assert_cmphex(r500_rreg(&t, R_GEN_INT_STATUS) & 1, ==, 1);
    g_assert_cmphex(r500_rreg(&t, R_DISP_INTERRUPT_STATUS), ==, 1u << 5);
    /* rs600_irq_ack. */
    r500_wreg(&t, R_D2MODE_VBLANK_STATUS, 1u << 4);
    g_assert_cmphex(r500_rreg(&t, R_GEN_INT_STATUS) & 1, ==, 0);
    qtest_clock_step(t.qts, 17 * 1000 * 1000);
    g_assert_cmphex(r500_rreg(&t, R_GEN_INT_STATUS) & 1, ==, 1);
    r500_test_stop(&t);
}

/* ---- DDC / EDID ---- */

typedef struct Ddc {
    R500Test *t;
    uint32_t mask, en, y;
} Ddc;

#define SCL 1u
#define SDA (1u << 8)

static void ddc_line(Ddc *d, uint32_t bit, bool level)
{
    uint32_t en = r500_rreg(d->t, d->en);

    r500_wreg(d->t, d->en, level ? en & ~bit : en | bit);
}

static bool ddc_get(Ddc *d, uint32_t bit)
{
    return r500_rreg(d->t, d->y) & bit;
}

static bool ddc_byte_out(Ddc *d, uint8_t v)
{
    bool ack;

    for (int i = 7; i >= 0; i--) {
        ddc_line(d, SDA, (v >> i) & 1);
        ddc_line(d, SCL, 1);
        ddc_line(d, SCL, 0);
    }
    ddc_line(d, SDA, 1);
    ddc_line(d, SCL, 1);
    ack = !ddc_get(d, SDA);
    ddc_line(d, SCL, 0);
    return ack;
}

static uint8_t ddc_byte_in(Ddc *d, bool ack)
{
    uint8_t v = 0;

    for (int i = 0; i < 8; i++) {
        ddc_line(d, SCL, 1);
        v = v << 1 | ddc_get(d, SDA);
        ddc_line(d, SCL, 0);
    }
    ddc_line(d, SDA, !ack);
    ddc_line(d, SCL, 1);
    ddc_line(d, SCL, 0);
    ddc_line(d, SDA, 1);
    return v;
}

static void ddc_start(Ddc *d)
{
    ddc_line(d, SDA, 1);
    ddc_line(d, SCL, 1);
    ddc_line(d, SDA, 0);
    ddc_line(d, SCL, 0);
}

static void ddc_stop(Ddc *d)
{
    ddc_line(d, SDA, 0);
    ddc_line(d, SCL, 1);
    ddc_line(d, SDA, 1);
}

/* radeon_i2c.c pre_xfer, then drm_do_probe_ddc_edid for 128 bytes. */
static void read_edid(R500Test *t, unsigned bus, uint8_t *edid)
{
    uint32_t stride = R_DC_GPIO_DDC2_MASK - R_DC_GPIO_DDC1_MASK;
    uint32_t a = R_DC_GPIO_DDC1_A + bus * stride;
    Ddc d = {
        t, R_DC_GPIO_DDC1_MASK + bus * stride,
        R_DC_GPIO_DDC1_EN + bus * stride, R_DC_GPIO_DDC1_Y + bus * stride,
    };

    r500_wreg(t, a, r500_rreg(t, a) & ~(SCL | SDA));
    r500_wreg(t, d.en, r500_rreg(t, d.en) & ~(SCL | SDA));
    r500_wreg(t, d.mask, r500_rreg(t, d.mask) | SCL | SDA);
    ddc_start(&d);
    g_assert_true(ddc_byte_out(&d, 0x50 << 1));
    g_assert_true(ddc_byte_out(&d, 0));
    ddc_start(&d);
    g_assert_true(ddc_byte_out(&d, 0x50 << 1 | 1));
    for (unsigned i = 0; i < 128; i++) {
        edid[i] = ddc_byte_in(&d, i < 127);
    }
    ddc_stop(&d);
    r500_wreg(t, d.mask, r500_rreg(t, d.mask) & ~(SCL | SDA));
}

static void check_edid(const uint8_t *e, uint32_t xres, uint32_t yres)
{
    static const uint8_t header[8] = {
        0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,
    };
    uint8_t sum = 0;

    g_assert_cmpmem(e, 8, header, 8);
    for (unsigned i = 0; i < 128; i++) {
        sum += e[i];
    }
    g_assert_cmpuint(sum, ==, 0);
    g_assert_cmpuint(e[18], ==, 1);                     /* EDID 1.4 */
    /* The preferred (first detailed) timing is the xres x yres property. */
    g_assert_cmpuint(e[56] | (e[58] & 0xF0) << 4, ==, xres);
    g_assert_cmpuint(e[59] | (e[61] & 0xF0) << 4, ==, yres);
}

static void test_edid(void)
{
    uint8_t vga[128], dvi[128];
    R500Test t;

    r500_test_start(&t, "rv530",
                    "-global r500.xres=1600 -global r500.yres=1200", true);
    read_edid(&t, 0, vga);
    read_edid(&t, 1, dvi);
    check_edid(vga, 1600, 1200);
    check_edid(dvi, 1600, 1200);
    /* Analogue input on the VGA connector, digital DVI on DVI-D. */
    g_assert_cmphex(vga[20] & 0x80, ==, 0);
    g_assert_cmphex(dvi[20], ==, 0xA1);
    /* The same monitor otherwise. */
    g_assert_cmpmem(vga, 20, dvi, 20);
    g_assert_cmpmem(vga + 25, 127 - 25, dvi + 25, 127 - 25);
    /* HPD1 senses the DVI monitor. */
    g_assert_cmphex(r500_rreg(&t, R_DC_HOT_PLUG_DETECT1_INT_STATUS) & 2, ==, 2);
    r500_test_stop(&t);
}

/* ---- VGA: text mode, VESA through the legacy CRTC, switching ---- */

static const uint8_t glyph_a[16] = {
    0x00, 0x18, 0x3C, 0x66, 0xC3, 0xFF, 0xC3, 0x81,
    0x5A, 0xA5, 0x0F, 0xF0, 0x01, 0x80, 0x00, 0xFF,
};

static void vga_seq(R500Test *t, uint8_t i, uint8_t v)
{
    qtest_outb(t->qts, 0x3C4, i);
    qtest_outb(t->qts, 0x3C5, v);
}

static void vga_gc(R500Test *t, uint8_t i, uint8_t v)
{
    qtest_outb(t->qts, 0x3CE, i);
    qtest_outb(t->qts, 0x3CF, v);
}

static void vga_crtc(R500Test *t, uint8_t i, uint8_t v)
{
    qtest_outb(t->qts, 0x3D4, i);
    qtest_outb(t->qts, 0x3D5, v);
}

static void vga_attr(R500Test *t, uint8_t i, uint8_t v)
{
    qtest_inb(t->qts, 0x3DA);           /* flip-flop to index */
    qtest_outb(t->qts, 0x3C0, i);
    qtest_outb(t->qts, 0x3C0, v);
}

static void vga_dac(R500Test *t, uint8_t i, uint8_t r, uint8_t g, uint8_t b)
{
    qtest_outb(t->qts, 0x3C8, i);
    qtest_outb(t->qts, 0x3C9, r);
    qtest_outb(t->qts, 0x3C9, g);
    qtest_outb(t->qts, 0x3C9, b);
}

/*
 * What the VGA BIOS does for mode 3 (80x25 text), with 8-pixel glyphs
 * and the text cursor off, a glyph for 'A' in plane 2, and blue (DAC 1)
 * and yellow (DAC 14) in the DAC.
 */
static void vga_text_mode(R500Test *t)
{
    static const uint8_t crtc[25] = {
        0x5f, 0x4f, 0x50, 0x82, 0x55, 0x81, 0xbf, 0x1f, 0x00, 0x4f, 0x20,
        0x0e, 0x00, 0x00, 0x00, 0x00, 0x9c, 0x8e, 0x8f, 0x28, 0x1f, 0x96,
        0xb9, 0xa3, 0xff,
    };
    static const uint8_t gc[9] = {
        0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0e, 0x0f, 0xff,
    };

    qtest_outb(t->qts, 0x3C2, 0x67);
    vga_seq(t, 0, 0x03);
    vga_seq(t, 1, 0x01);                /* 8-dot characters */
    vga_seq(t, 2, 0x03);
    vga_seq(t, 3, 0x00);
    vga_seq(t, 4, 0x02);
    vga_crtc(t, 0x11, 0x00);            /* unlock */
    for (unsigned i = 0; i < sizeof(crtc); i++) {
        vga_crtc(t, i, crtc[i]);
    }
    for (unsigned i = 0; i < sizeof(gc); i++) {
        vga_gc(t, i, gc[i]);
    }
    for (unsigned i = 0; i < 16; i++) {
        vga_attr(t, i, i);
    }
    vga_attr(t, 0x10, 0x00);
    vga_attr(t, 0x11, 0x00);
    vga_attr(t, 0x12, 0x0f);
    vga_attr(t, 0x13, 0x00);
    vga_attr(t, 0x14, 0x00);
    qtest_inb(t->qts, 0x3DA);
    qtest_outb(t->qts, 0x3C0, 0x20);    /* video on */
    vga_dac(t, 1, 0, 0, 63);
    vga_dac(t, 14, 63, 63, 0);
    /* Plane 2, glyph 'A': VGA memory byte (ch * 32 + row) * 4 + 2. */
    for (unsigned row = 0; row < 16; row++) {
        uint8_t v = glyph_a[row];

        vram_write(t, ('A' * 32 + row) * 4 + 2, &v, 1);
    }
}

/* Cell (col, 0) is 'A' yellow on blue: check its 8x16 pixels. */
static void check_text_cell(R500Image *img, unsigned col)
{
    for (unsigned row = 0; row < 16; row++) {
        for (unsigned x = 0; x < 8; x++) {
            bool fg = (glyph_a[row] >> (7 - x)) & 1;

            g_assert_cmphex(r500_image_pixel(img, col * 8 + x, row), ==,
                            fg ? 0xFFFF00 : 0x0000FF);
        }
    }
}

static void test_vga_text_and_switch(void)
{
    static const uint8_t cells[6] = { 'A', 0x1E, ' ', 0x1E, 'A', 0x1E };
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    vga_text_mode(&t);
    qtest_memwrite(t.qts, 0xB8000, cells, sizeof(cells));
    r500_screendump(&t, 0, &img);
    g_assert_cmpuint(img.width, ==, 640);
    g_assert_cmpuint(img.height, ==, 400);
    check_text_cell(&img, 0);
    check_text_cell(&img, 2);
    for (unsigned x = 8; x < 16; x++) {
        g_assert_cmphex(r500_image_pixel(&img, x, 5), ==, 0x0000FF);
    }
    r500_image_free(&img);

    /* The driver's set_base turns D1 native (D1VGA_CONTROL <- 0). */
    fill_pattern(&t, 0x800000, 1024, 768, 4);
    set_timing(&t, 0, &mode_1024);
    set_surface(&t, 0, 1024, 768, 2, 0x800000);
    enable_output(&t, 0);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 1024, 768);
    r500_image_free(&img);

    /* VGA mode again: the text comes back. */
    r500_wreg(&t, R_D1VGA_CONTROL, 1);
    r500_screendump(&t, 0, &img);
    g_assert_cmpuint(img.width, ==, 640);
    check_text_cell(&img, 2);
    r500_image_free(&img);

    /* rv515_vga_render_disable and D1 off: no signal, not the text. */
    r500_wreg(&t, R_VGA_RENDER_CONTROL, 0);
    r500_wreg(&t, R_D1CRTC_CONTROL, 0);
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, 0, 0), !=, 0x0000FF);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* SeaVGABIOS atiext.c: registers below 0x100 by I/O, others by MM_INDEX. */
static void ati_write(R500Test *t, uint32_t reg, uint32_t val)
{
    if (reg < 0x100) {
        qpci_io_writel(t->dev, t->io, reg, val);
    } else {
        qpci_io_writel(t->dev, t->io, R_MM_INDEX, reg);
        qpci_io_writel(t->dev, t->io, R_MM_DATA, val);
    }
}

static void test_vesa_legacy_crtc(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    qtest_inb(t.qts, 0x3DA);
    qtest_outb(t.qts, 0x3C0, 0x20);     /* video on, as after POST */
    fill_pattern(&t, 0, 800, 600, 4);
    /* ati_ext_mode(800x600x32). */
    ati_write(&t, R_CRTC_EXT_CNTL, 0x400);
    ati_write(&t, R_CRTC_GEN_CNTL, 0x03000600);
    ati_write(&t, R_CRTC_H_TOTAL_DISP, (800 / 8 - 1) << 16);
    ati_write(&t, R_CRTC_V_TOTAL_DISP, (600 - 1) << 16);
    ati_write(&t, R_CRTC_OFFSET, 0);
    ati_write(&t, R_CRTC_PITCH, 800 / 8);
    ati_write(&t, R_CRTC_EXT_CNTL, 0);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 800, 600);
    r500_image_free(&img);
    /* CRTC_EXT_CNTL display disable: no picture. */
    ati_write(&t, R_CRTC_EXT_CNTL, 0x400);
    r500_screendump(&t, 0, &img);
    g_assert_cmphex(r500_image_pixel(&img, 400, 300), !=,
                    pattern(400, 300) & 0xFFFFFF);
    r500_image_free(&img);
    ati_write(&t, R_CRTC_EXT_CNTL, 0);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 800, 600);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* ---- Heads ---- */

static void test_two_heads(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "r520", "-global r500.heads=2", true);
    vga_text_mode(&t);
    qtest_memwrite(t.qts, 0xB8000, "A\x1e", 2);
    fill_pattern(&t, 0x100000, 640, 480, 4);
    /* D2 on the DVI connector; D1 stays in VGA mode. */
    set_timing(&t, 1, &mode_640);
    set_surface(&t, 1, 640, 480, 2, 0x100000);
    enable_output(&t, 1);
    r500_screendump(&t, 1, &img);
    check_32bpp(&img, 640, 480);
    r500_image_free(&img);
    r500_screendump(&t, 0, &img);
    check_text_cell(&img, 0);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* One console: it shows D2 while D1 is dark. */
static void test_one_head_follows_d2(void)
{
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    fill_pattern(&t, 0x100000, 640, 480, 4);
    r500_wreg(&t, R_D1VGA_CONTROL, 0);
    set_timing(&t, 1, &mode_640);
    set_surface(&t, 1, 640, 480, 2, 0x100000);
    enable_output(&t, 1);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 640, 480);
    r500_image_free(&img);
    r500_test_stop(&t);
}

/* ---- Migration: the display state in the r500/disp subsection ---- */

static void test_migration(void)
{
    char *sock = g_strdup_printf("%s/r500-mig-%d.sock", g_get_tmp_dir(),
                                 getpid());
    char *uri = g_strdup_printf("unix:%s", sock);
    char *args = g_strdup_printf("-incoming %s", uri);
    R500Test src, dst;
    R500Image before, after;
    uint32_t frames, lut5, cur[64 * 64];
    QDict *rsp;

    r500_test_start(&src, "rv530", NULL, true);
    fill_pattern(&src, 0, 640, 480, 4);
    qtest_memset(src.qts, src.vram.addr + 0x200000, 0x80, 640 * 480 * 4);
    for (unsigned i = 0; i < 64 * 64; i++) {
        cur[i] = 0xFF00FF00u;
    }
    vram_write(&src, 0x400000, cur, sizeof(cur));
    set_timing(&src, 0, &mode_640);
    set_surface(&src, 0, 640, 480, 2, 0);
    enable_output(&src, 0);
    /* A LUT entry, a cursor, a pending flip, some frames. */
    r500_wreg(&src, R_DC_LUT_RW_SELECT, 0);
    r500_wreg(&src, R_DC_LUT_RW_INDEX, 5);
    r500_wreg(&src, R_DC_LUT_30_COLOR, 0x3FF00000);
    r500_wreg(&src, R_D1CUR_SURFACE_ADDRESS, 0x400000);
    r500_wreg(&src, R_D1CUR_SIZE, 15 << 16 | 15);
    r500_wreg(&src, R_D1CUR_POSITION, 100 << 16 | 50);
    r500_wreg(&src, R_D1CUR_CONTROL, 1 | 2 << 8);
    qtest_clock_step(src.qts, 500 * 1000 * 1000);
    r500_wreg(&src, R_D1GRPH_UPDATE, 1u << 16);
    r500_wreg(&src, R_D1GRPH_PRIMARY_SURFACE_ADDRESS, 0x200000);
    frames = r500_rreg(&src, R_D1CRTC_STATUS_FRAME_COUNT);
    g_assert_cmpuint(frames, >=, 29);
    r500_screendump(&src, 0, &before);

    r500_test_start(&dst, "rv530", args, false);
    rsp = qtest_qmp(src.qts, "{ 'execute': 'migrate', 'arguments': "
                    "{ 'uri': %s } }", uri);
    g_assert_false(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    qtest_qmp_eventwait(src.qts, "STOP");
    qtest_qmp_eventwait(dst.qts, "RESUME");
    /* The destination is the same machine: reuse the source's BARs. */
    dst.mmio = src.mmio;
    dst.vram = src.vram;

    r500_screendump(&dst, 0, &after);
    g_assert_cmpuint(after.width, ==, before.width);
    g_assert_cmpuint(after.height, ==, before.height);
    g_assert_cmpmem(after.rgb, after.width * after.height * 4,
                    before.rgb, before.width * before.height * 4);
    /* The cursor is part of it (green square at 100, 50). */
    g_assert_cmphex(r500_image_pixel(&after, 100, 50), ==, 0x00FF00);
    g_assert_cmpuint(r500_rreg(&dst, R_D1CRTC_STATUS_FRAME_COUNT), >=, frames);
    r500_wreg(&dst, R_DC_LUT_READ_PIPE_SELECT, 0);
    r500_wreg(&dst, R_DC_LUT_RW_INDEX, 5);
    lut5 = r500_rreg(&dst, R_DC_LUT_30_COLOR);
    g_assert_cmphex(lut5, ==, 0x3FF00000);
    /* The flip is still pending, and completes after the unlock. */
    g_assert_cmphex(r500_rreg(&dst, R_D1GRPH_UPDATE), ==, 1u << 16 | 1u << 2);
    r500_wreg(&dst, R_D1GRPH_UPDATE, 0);
    qtest_clock_step(dst.qts, 20 * 1000 * 1000);
    g_assert_cmphex(r500_rreg(&dst, R_D1GRPH_UPDATE), ==, 0);
    r500_image_free(&after);
    r500_screendump(&dst, 0, &after);
    g_assert_cmphex(r500_image_pixel(&after, 300, 300), ==, 0x808080);

    r500_image_free(&before);
    r500_image_free(&after);
    r500_test_stop(&dst);
    r500_test_stop(&src);
    unlink(sock);
    g_free(sock);
    g_free(uri);
    g_free(args);
}

/* ---- Tiled front buffers (docs/display.md "Tiled surfaces") ---- */

#define TFB         0x100000u           /* the tiled front buffer */
#define TFB_PITCH   (640u * 4)          /* 256-byte aligned, as the DDX */
#define TFB_SIZE    (640u * 480 * 4)    /* a multiple of 1 KiB */
#define CTL_MACRO   (1u << 21)          /* D1GRPH_CONTROL.MACRO_ADDRESS_MODE */

/*
 * r100_set_surface_reg for a BO flagged RADEON_TILING_SURFACE: INFO =
 * pitch / 8 | R300_SURF_TILE_MACRO (1 << 16), LOWER, UPPER inclusive.
 */
static void surface_reg(R500Test *t, unsigned i, uint32_t info)
{
    r500_wreg(t, R_SURFACE_INFO + 16 * i, info);
    r500_wreg(t, R_SURFACE_LOWER_BOUND + 16 * i, TFB);
    r500_wreg(t, R_SURFACE_UPPER_BOUND + 16 * i, TFB + TFB_SIZE - 1);
}

static void tiled_front(R500Test *t, unsigned c)
{
    /* D2: D1 leaves VGA mode and goes dark, so the one head shows D2. */
    r500_wreg(t, R_D1VGA_CONTROL, 0);
    surface_reg(t, 0, 1u << 16 | TFB_PITCH / 8);
    fill_pattern(t, TFB, 640, 480, 4);
    set_timing(t, c, &mode_640);
    set_surface(t, c, 640, 480, 2 | CTL_MACRO, TFB);
    enable_output(t, c);
}

/*
 * The CPU writes a linear image through BAR0 into a macro-tiled front
 * buffer covered by a surface register; the CRTC scans it out tiled: the
 * screen is the image.  Without the register the CPU sees the tiles.
 */
static void test_tiled_aperture(gconstpointer data)
{
    unsigned c = GPOINTER_TO_UINT(data);
    R500Test t;
    R500Image img;
    uint32_t row[640];

    r500_test_start(&t, "rv515", NULL, true);
    tiled_front(&t, c);
    r500_screendump(&t, 0, &img);
    check_32bpp(&img, 640, 480);
    r500_image_free(&img);
    qtest_bufread(t.qts, t.vram.addr + TFB + 77 * TFB_PITCH, row, sizeof(row));
    for (uint32_t x = 0; x < 640; x++) {
        g_assert_cmphex(row[x], ==, pattern(x, 77));
    }
    /*
     * Register off: BAR0 is VRAM as it is, 2 KiB macro tiles of 8 rows of
     * 256 bytes: bytes 256..259 are pixel (0, 1), 2048.. pixel (64, 0).
     */
    r500_wreg(&t, R_SURFACE_INFO, 0);
    g_assert_cmphex(qtest_readl(t.qts, t.vram.addr + TFB + 256), ==,
                    pattern(0, 1));
    g_assert_cmphex(qtest_readl(t.qts, t.vram.addr + TFB + 2048), ==,
                    pattern(64, 0));
    r500_test_stop(&t);
}

/* An integer property of the card's QOM child (a memory region). */
static uint64_t child_prop(R500Test *t, const char *child, const char *prop)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/"
                                            R500_TEST_ID "/%s", child);
    QDict *r = qtest_qmp(t->qts, "{ 'execute': 'qom-get', 'arguments': "
                         "{ 'path': %s, 'property': %s } }", path, prop);
    uint64_t v;

    g_assert_true(qdict_haskey(r, "return"));
    v = qdict_get_int(r, "return");
    qobject_unref(r);
    return v;
}

/*
 * A window whose bounds are not page aligned (the registers have 1 KiB
 * granularity) is mapped over whole pages (r500_surface.c: a subpage
 * overlay crashed QEMU under TCG), and the bytes of those pages outside
 * the window stay linear.  The overlay's region says where it lies.
 */
static void test_tiled_window_pages(void)
{
    const uint64_t lo = TFB + 0x400, hi = TFB + TFB_SIZE + 0x7FF;
    R500Test t;

    r500_test_start(&t, "rv515", NULL, true);
    qtest_writel(t.qts, t.vram.addr + TFB + 0x3FC, 0x12345678);
    r500_wreg(&t, R_SURFACE_INFO, 1u << 16 | TFB_PITCH / 8);
    r500_wreg(&t, R_SURFACE_LOWER_BOUND, lo);
    r500_wreg(&t, R_SURFACE_UPPER_BOUND, hi);
    g_assert_cmphex(child_prop(&t, "r500.surface0[0]", "addr"), ==,
                    QEMU_ALIGN_DOWN(lo, 4096));
    g_assert_cmphex(child_prop(&t, "r500.surface0[0]", "size"), ==,
                    QEMU_ALIGN_UP(hi + 1, 4096) - QEMU_ALIGN_DOWN(lo, 4096));
    /* the window's page, below its bound: linear, as written before */
    g_assert_cmphex(qtest_readl(t.qts, t.vram.addr + TFB + 0x3FC), ==,
                    0x12345678);
    r500_wreg(&t, R_SURFACE_INFO, 0);
    g_assert_cmphex(qtest_readl(t.qts, t.vram.addr + TFB + 0x3FC), ==,
                    0x12345678);
    r500_test_stop(&t);
}

static void wait_2d_idle(R500Test *t)
{
    for (int i = 0; i < 100000; i++) {
        if (!(r500_rreg(t, R_RBBM_STATUS) & R500_FMASK(RBBM_STATUS,
                                                       GUI_ACTIVE))) {
            return;
        }
    }
    g_error("the 2D engine did not go idle");
}

/*
 * EXA on the tiled front buffer: a solid fill and a screen-to-screen copy
 * with the tile bit the kernel ORs into DST/SRC_PITCH_OFFSET (bit 30,
 * RADEON_DST_TILE_MACRO), scanned out tiled: the screen is right.
 */
static void test_tiled_2d(void)
{
    /*
     * radeon_reg.h RADEON_GMC_*: pitch/offset regs, solid brush, 32 bpp,
     * colour source, no compare, no write mask
     */
    const uint32_t gmc = 3 | 13u << 4 | 6u << 8 | 3u << 12 | 1u << 28 |
                         1u << 30;
    const uint32_t tpo = 1u << 30 | (TFB_PITCH / 64) << 22 | TFB >> 10;
    R500Test t;
    R500Image img;

    r500_test_start(&t, "rv515", NULL, true);
    tiled_front(&t, 0);
    r500_wreg(&t, R_DP_GUI_MASTER_CNTL, gmc | 0xF0u << 16);     /* PATCOPY */
    r500_wreg(&t, R_DP_BRUSH_FRGD_CLR, 0x00FF8000);
    r500_wreg(&t, R_DP_CNTL, 3);
    r500_wreg(&t, R_DST_PITCH_OFFSET, tpo);
    r500_wreg(&t, R_DST_Y_X, 50 << 16 | 100);
    r500_wreg(&t, R_DST_HEIGHT_WIDTH, 100 << 16 | 200);
    /* SRCCOPY from memory (RADEON_DP_SRC_SOURCE_MEMORY) */
    r500_wreg(&t, R_DP_GUI_MASTER_CNTL, (gmc & ~(15u << 4)) | 15u << 4 |
              0xCCu << 16 | 2u << 24);
    r500_wreg(&t, R_SRC_PITCH_OFFSET, tpo);
    r500_wreg(&t, R_DST_PITCH_OFFSET, tpo);
    r500_wreg(&t, R_SRC_Y_X, 0);
    r500_wreg(&t, R_DST_Y_X, 300 << 16 | 400);
    r500_wreg(&t, R_DST_HEIGHT_WIDTH, 70 << 16 | 90);
    wait_2d_idle(&t);
    r500_screendump(&t, 0, &img);
    for (uint32_t y = 0; y < 480; y++) {
        for (uint32_t x = 0; x < 640; x++) {
            uint32_t want = pattern(x, y) & 0xFFFFFF;

            if (x >= 100 && x < 300 && y >= 50 && y < 150) {
                want = 0xFF8000;
            } else if (x >= 400 && x < 490 && y >= 300 && y < 370) {
                want = pattern(x - 400, y - 300) & 0xFFFFFF;
            }
            if (r500_image_pixel(&img, x, y) != want) {
                g_error("pixel (%u, %u) is %06x, expected %06x", x, y,
                        r500_image_pixel(&img, x, y), want);
            }
        }
    }
    r500_image_free(&img);
    r500_test_stop(&t);
}

/*
 * The surface register's window migrates with the register file: on the
 * destination, CPU writes through BAR0 still land tiled.
 */
static void test_tiled_migration(void)
{
    char *sock = g_strdup_printf("%s/r500-tmig-%d.sock", g_get_tmp_dir(),
                                 getpid());
    char *uri = g_strdup_printf("unix:%s", sock);
    char *args = g_strdup_printf("-incoming %s", uri);
    R500Test src, dst;
    R500Image img;
    QDict *rsp;

    r500_test_start(&src, "rv515", NULL, true);
    tiled_front(&src, 0);
    r500_test_start(&dst, "rv515", args, false);
    rsp = qtest_qmp(src.qts, "{ 'execute': 'migrate', 'arguments': "
                    "{ 'uri': %s } }", uri);
    g_assert_false(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    qtest_qmp_eventwait(src.qts, "STOP");
    qtest_qmp_eventwait(dst.qts, "RESUME");
    dst.mmio = src.mmio;
    dst.vram = src.vram;

    /* Rows 200..203 rewritten through BAR0 on the destination. */
    for (uint32_t y = 200; y < 204; y++) {
        for (uint32_t x = 0; x < 640; x++) {
            qtest_writel(dst.qts, dst.vram.addr + TFB + y * TFB_PITCH + x * 4,
                         0x00102030 + x);
        }
    }
    r500_screendump(&dst, 0, &img);
    for (uint32_t y = 196; y < 208; y++) {
        for (uint32_t x = 0; x < 640; x++) {
            uint32_t want = y >= 200 && y < 204 ? (0x00102030 + x) & 0xFFFFFF
                                                : pattern(x, y) & 0xFFFFFF;

            g_assert_cmphex(r500_image_pixel(&img, x, y), ==, want);
        }
    }
    r500_image_free(&img);
    r500_test_stop(&dst);
    r500_test_stop(&src);
    unlink(sock);
    g_free(sock);
    g_free(uri);
    g_free(args);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("display/native-32bpp", test_native_32bpp);
    r500_add_model_tests("display/vblank", test_vblank);
    qtest_add_func("/r500/display/native-16bpp", test_native_16bpp);
    qtest_add_func("/r500/display/native-8bpp-lut", test_native_8bpp_lut);
    qtest_add_func("/r500/display/cursor", test_cursor);
    qtest_add_func("/r500/display/flip", test_flip);
    qtest_add_func("/r500/display/edid", test_edid);
    qtest_add_func("/r500/display/vga-text-and-switch",
                   test_vga_text_and_switch);
    qtest_add_func("/r500/display/vesa-legacy-crtc", test_vesa_legacy_crtc);
    qtest_add_func("/r500/display/two-heads", test_two_heads);
    qtest_add_func("/r500/display/one-head-follows-d2",
                   test_one_head_follows_d2);
    qtest_add_func("/r500/display/migration", test_migration);
    qtest_add_data_func("/r500/display/tiled/aperture-d1", GUINT_TO_POINTER(0),
                        test_tiled_aperture);
    qtest_add_data_func("/r500/display/tiled/aperture-d2", GUINT_TO_POINTER(1),
                        test_tiled_aperture);
    qtest_add_func("/r500/display/tiled/window-pages",
                   test_tiled_window_pages);
    qtest_add_func("/r500/display/tiled/2d", test_tiled_2d);
    qtest_add_func("/r500/display/tiled/migration", test_tiled_migration);
    return g_test_run();
}
