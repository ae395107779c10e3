/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the display unit tests: program modes and surfaces through
 * registers, as the AtomBIOS tables and avivo_crtc_do_set_base do.
 */
#ifndef R500_TEST_DISP_UTIL_H
#define R500_TEST_DISP_UTIL_H

#include "test-host.h"

#define DISP_CRTC(c, d1reg)  ((d1reg) + (c) * R500_CRTC2_OFFSET)
#define VRAM_16M             (16u << 20)

/* 1024x768@60 (DMT, 65 MHz) as SetCRTC_UsingDTDTiming programs it
 * (atombios-rom.md 5.3 check values), pixel clock 27 MHz * 130 / (9 * 6). */
static inline void disp_timing_1024x768(R500Chip *s, unsigned c)
{
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_H_TOTAL), 0x53F);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_H_BLANK_START_END), 0x01280528);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_H_SYNC_A), 0x00880000);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_V_TOTAL), 0x325);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_V_BLANK_START_END), 0x00230323);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_V_SYNC_A), 0x00060000);
    r500_reg_write(s, c ? R_EXT2_PPLL_REF_DIV : R_EXT1_PPLL_REF_DIV, 9);
    r500_reg_write(s, c ? R_EXT2_PPLL_FB_DIV : R_EXT1_PPLL_FB_DIV, 130 << 16);
    r500_reg_write(s, c ? R_EXT2_PPLL_POST_DIV : R_EXT1_PPLL_POST_DIV, 6);
    r500_reg_write(s, c ? R_P2PLL_CNTL : R_P1PLL_CNTL, 0);
    r500_reg_write(s, c ? R_PCLK_CRTC2_CNTL : R_PCLK_CRTC1_CNTL,
                   c ? 1u << 16 : 0);
}

/* A small mode, active area [0, w) x [0, h), the driver's convention. */
static inline void disp_timing_small(R500Chip *s, unsigned c, uint32_t w,
                                     uint32_t h)
{
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_H_TOTAL), w + 8 - 1);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_H_BLANK_START_END), w);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_V_TOTAL), h + 4 - 1);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_V_BLANK_START_END), h);
}

/* avivo_crtc_do_set_base: a w x h surface at MC address addr. */
static inline void disp_surface(R500Chip *s, unsigned c, uint32_t w,
                                uint32_t h, uint32_t control,
                                uint32_t pitch_px, uint32_t addr)
{
    r500_reg_write(s, c ? R_D2VGA_CONTROL : R_D1VGA_CONTROL, 0);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_FLIP_CONTROL), 0);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_PRIMARY_SURFACE_ADDRESS), addr);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_SECONDARY_SURFACE_ADDRESS), addr);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_CONTROL), control);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_LUT_SEL), c);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_X_END), w);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_Y_END), h);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_PITCH), pitch_px);
    r500_reg_write(s, DISP_CRTC(c, R_D1GRPH_ENABLE), 1);
    r500_reg_write(s, DISP_CRTC(c, R_D1MODE_DESKTOP_HEIGHT), h);
    r500_reg_write(s, DISP_CRTC(c, R_D1MODE_VIEWPORT_START), 0);
    r500_reg_write(s, DISP_CRTC(c, R_D1MODE_VIEWPORT_SIZE), w << 16 | h);
}

/* DAC A from CRTC c, then the CRTC on (EnableCRTC). */
static inline void disp_enable(R500Chip *s, unsigned c)
{
    r500_reg_write(s, R_DACA_SOURCE_SELECT, c);
    r500_reg_write(s, R_DACA_ENABLE, 1);
    r500_reg_write(s, R_DACA_POWERDOWN, 0);
    r500_reg_write(s, DISP_CRTC(c, R_D1CRTC_CONTROL), 1);
}

/* Everything CRTC c shows, in a new x8r8g8b8 image (cursor drawn). */
static inline pixman_image_t *disp_render(R500Chip *s, unsigned c,
                                          R500Scanout *so)
{
    pixman_image_t *img;

    r500_disp_scanout(s, c, so);
    g_assert_cmpuint(so->kind, ==, R500_SCANOUT_NATIVE);
    img = pixman_image_create_bits(PIXMAN_x8r8g8b8, so->width, so->height,
                                   NULL, 0);
    r500_disp_render(s, so, img, 0, so->height, true);
    return img;
}

static inline uint32_t disp_pixel(pixman_image_t *img, uint32_t x, uint32_t y)
{
    return pixman_image_get_data(img)[y * pixman_image_get_stride(img) / 4 + x]
           & 0xFFFFFF;
}

#endif
