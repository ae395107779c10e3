/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the 2D engine: fills, copies (overlapping, both
 * directions), ROP3, write mask, clipping, 8/16/32 bpp, pattern brushes,
 * host-data colour expansion, the CNTL_* packets (r100_copy_blit,
 * radeon_clear_box, XAA's HOSTDATA_BLT) and hostile parameters.
 * Expected pixels are computed here from the operation's definition.
 */
#include <string.h>

#include "test-host.h"
#include "../qtest/r500-driver-seq.h"

#define SURF        0x100000u       /* VRAM offset of the test surface */
#define PITCH       1024u           /* bytes */

/* DP_GUI_MASTER_CNTL (radeon_reg.h RADEON_GMC_*). */
#define GMC_SRC_PO      (1u << 0)
#define GMC_DST_PO      (1u << 1)
#define GMC_SRC_CLIP    (1u << 2)
#define GMC_DST_CLIP    (1u << 3)
#define GMC_BRUSH(t)    ((uint32_t)(t) << 4)
#define GMC_DST(t)      ((uint32_t)(t) << 8)
#define GMC_SRC(t)      ((uint32_t)(t) << 12)
#define GMC_LSB_FIRST   (1u << 14)
#define GMC_ROP(r)      ((uint32_t)(r) << 16)
#define GMC_SRC_MEM     (2u << 24)
#define GMC_SRC_HOST    (3u << 24)
#define GMC_CMP_DIS     (1u << 28)
#define GMC_WRMSK_DIS   (1u << 30)
#define BRUSH_SOLID     13
#define BRUSH_NONE      15
#define DT_8            2
#define DT_16           4
#define DT_32           6
#define SRC_COLOR       3

#define PACKET3(op, n)  (0xC0000000u | ((op) << 8) | ((uint32_t)(n) << 16))

static uint32_t po(uint32_t mc, uint32_t pitch)
{
    return (pitch / 64) << 22 | mc >> 10;
}

static uint32_t px(TestHost *h, uint32_t bpp, uint32_t x, uint32_t y)
{
    uint32_t v = 0;

    memcpy(&v, h->vram + SURF + y * PITCH + x * bpp, bpp);
    return GUINT32_FROM_LE(v);
}

static void put_px(TestHost *h, uint32_t bpp, uint32_t x, uint32_t y,
                   uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(h->vram + SURF + y * PITCH + x * bpp, &v, bpp);
}

/* A recognisable, position-dependent pattern over the surface. */
static uint32_t seed_px(uint32_t x, uint32_t y)
{
    return (x * 0x01010101u) ^ (y << 12) ^ 0x5A000000u;
}

static void seed(TestHost *h, uint32_t bpp)
{
    for (uint32_t y = 0; y < 256; y++) {
        for (uint32_t x = 0; x < PITCH / bpp; x++) {
            put_px(h, bpp, x, y, seed_px(x, y));
        }
    }
}

static void w(TestHost *h, uint32_t reg, uint32_t v)
{
    r500_reg_write(&h->chip, reg, v);
}

static void rect(TestHost *h, int x, int y, int wd, int ht)
{
    w(h, R_DST_Y_X, (uint32_t)(y & 0xFFFF) << 16 | (x & 0xFFFF));
    w(h, R_DST_HEIGHT_WIDTH, (uint32_t)ht << 16 | wd);
}

/* EXA's PrepareSolid state (radeon_exa_funcs.c). */
static void solid_state(TestHost *h, uint32_t dt, uint32_t rop, uint32_t fg,
                        uint32_t mask)
{
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
      GMC_DST(dt) | GMC_SRC(SRC_COLOR) | GMC_ROP(rop) | GMC_CMP_DIS);
    w(h, R_DP_BRUSH_FRGD_CLR, fg);
    w(h, R_DP_WRITE_MASK, mask);
    w(h, R_DP_CNTL, 3);
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
}

static void copy_state(TestHost *h, uint32_t dt, uint32_t rop, bool ltr,
                       bool ttb)
{
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_SRC_PO | GMC_BRUSH(BRUSH_NONE) |
      GMC_DST(dt) | GMC_SRC(SRC_COLOR) | GMC_ROP(rop) | GMC_SRC_MEM |
      GMC_CMP_DIS);
    w(h, R_DP_WRITE_MASK, ~0u);
    w(h, R_DP_CNTL, (ltr ? 1 : 0) | (ttb ? 2 : 0));
    w(h, R_SRC_PITCH_OFFSET, po(SURF, PITCH));
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
}

static void test_fill_bpp(gconstpointer data)
{
    uint32_t bpp = GPOINTER_TO_UINT(data);
    uint32_t dt = bpp == 1 ? DT_8 : bpp == 2 ? DT_16 : DT_32;
    uint32_t mask = bpp == 4 ? ~0u : (1u << (8 * bpp)) - 1;
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, bpp);
    solid_state(h, dt, 0xF0, 0xA1B2C3D4, ~0u);
    rect(h, 5, 7, 13, 9);
    for (uint32_t y = 6; y <= 16; y++) {
        for (uint32_t x = 4; x <= 18; x++) {
            bool in = x >= 5 && x < 18 && y >= 7 && y < 16;
            g_assert_cmphex(px(h, bpp, x, y), ==,
                            in ? 0xA1B2C3D4 & mask : seed_px(x, y) & mask);
        }
    }
    g_assert_cmpuint(h->logs->len, ==, 0);
    test_host_free(h);
}

static void test_fill_rops(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, 4);
    /* PDx with a partial write mask: only the mask bits change. */
    solid_state(h, DT_32, 0x5A, 0x00FF00FF, 0x0000FFFF);
    rect(h, 0, 0, 8, 2);
    for (uint32_t x = 0; x < 9; x++) {
        uint32_t d = seed_px(x, 0);
        uint32_t want = x < 8 ? (((d ^ 0x00FF00FF) & 0xFFFF) | (d & 0xFFFF0000))
                              : d;
        g_assert_cmphex(px(h, 4, x, 0), ==, want);
    }
    /* BLACKNESS, WHITENESS and Dn (invert). */
    solid_state(h, DT_32, 0x00, 0, ~0u);
    rect(h, 20, 0, 2, 1);
    solid_state(h, DT_32, 0xFF, 0, ~0u);
    rect(h, 22, 0, 2, 1);
    solid_state(h, DT_32, 0x55, 0, ~0u);
    rect(h, 24, 0, 2, 1);
    g_assert_cmphex(px(h, 4, 21, 0), ==, 0);
    g_assert_cmphex(px(h, 4, 23, 0), ==, 0xFFFFFFFF);
    g_assert_cmphex(px(h, 4, 25, 0), ==, ~seed_px(25, 0));
    /* A ROP3 that needs a source, with none programmed: dropped. */
    solid_state(h, DT_32, 0xB8, 0xF0F0F0F0, ~0u);
    g_assert_cmpuint(test_host_count_logs(h, "needs a source"), ==, 0);
    rect(h, 30, 0, 1, 1);
    g_assert_cmpuint(test_host_count_logs(h, "needs a source"), ==, 1);
    g_assert_cmphex(px(h, 4, 30, 0), ==, seed_px(30, 0));
    test_host_free(h);
}

/* Copy (sx,sy)-(sx+wd,sy+ht) to (dx,dy) as a driver would (XAA/EXA). */
static void do_copy(TestHost *h, int sx, int sy, int dx, int dy, int wd,
                    int ht)
{
    bool ltr = dx <= sx, ttb = dy <= sy;

    copy_state(h, DT_32, 0xCC, ltr, ttb);
    if (!ltr) {
        sx += wd - 1;
        dx += wd - 1;
    }
    if (!ttb) {
        sy += ht - 1;
        dy += ht - 1;
    }
    w(h, R_SRC_Y_X, (uint32_t)sy << 16 | sx);
    rect(h, dx, dy, wd, ht);
}

static void check_copy(gconstpointer data)
{
    const int *d = data;       /* sx, sy, dx, dy, w, h */
    TestHost *h = test_host_new(R500_MODEL_R520, 16);

    seed(h, 4);
    do_copy(h, d[0], d[1], d[2], d[3], d[4], d[5]);
    for (int y = 0; y < 96; y++) {
        for (int x = 0; x < 96; x++) {
            bool in = x >= d[2] && x < d[2] + d[4] &&
                      y >= d[3] && y < d[3] + d[5];
            uint32_t want = in ? seed_px(x - d[2] + d[0], y - d[3] + d[1])
                               : seed_px(x, y);
            g_assert_cmphex(px(h, 4, x, y), ==, want);
        }
    }
    test_host_free(h);
}

static const int copy_cases[][6] = {
    { 10, 10, 60, 50, 20, 20 },    /* disjoint */
    { 10, 10, 13, 12, 40, 30 },    /* overlap, moving right and down */
    { 13, 12, 10, 10, 40, 30 },    /* overlap, moving left and up */
    { 10, 20, 14, 10, 40, 30 },    /* right and up */
    { 20, 20, 19, 20, 40, 1 },     /* one row, one pixel left */
};

static void test_copy_rop_and_gtt(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, 4);
    /* DSx: dst ^= src. */
    copy_state(h, DT_32, 0x66, true, true);
    w(h, R_SRC_Y_X, 0);
    rect(h, 40, 5, 4, 1);
    g_assert_cmphex(px(h, 4, 41, 5), ==, seed_px(41, 5) ^ seed_px(1, 0));

    /* Destination in system memory: VRAM moved up, MC 0x200000 = RAM. */
    r500_mc_write(&h->chip, r500_mc_index(h->chip.info->mc_map,
                                           MC_MC_FB_LOCATION),
                  0x40FFu << 16 | 0x4000);
    copy_state(h, DT_32, 0xCC, true, true);
    w(h, R_SRC_PITCH_OFFSET, po(0x40000000 + SURF, PITCH));
    w(h, R_DST_PITCH_OFFSET, po(0x200000, 256));
    w(h, R_SRC_Y_X, 3 << 16 | 2);
    rect(h, 1, 1, 10, 4);
    for (uint32_t y = 0; y < 4; y++) {
        uint32_t v;

        memcpy(&v, h->ram + 0x200000 + (1 + y) * 256 + 4, 4);
        g_assert_cmphex(GUINT32_FROM_LE(v), ==, seed_px(2, 3 + y));
    }
    test_host_free(h);
}

static void test_clip(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, 4);
    solid_state(h, DT_32, 0xF0, 0x12345678, ~0u);
    w(h, R_DP_GUI_MASTER_CNTL, r500_reg_read(&h->chip, R_DP_GUI_MASTER_CNTL) |
      GMC_DST_CLIP);
    w(h, R_SC_TOP_LEFT, 3 << 16 | 4);
    w(h, R_SC_BOTTOM_RIGHT, 6 << 16 | 9);
    /* Starts at negative x (XAA's left-edge clipping). */
    rect(h, -5, 0, 30, 30);
    for (uint32_t y = 0; y < 8; y++) {
        for (uint32_t x = 0; x < 12; x++) {
            bool in = x >= 4 && x < 9 && y >= 3 && y < 6;
            g_assert_cmphex(px(h, 4, x, y), ==,
                            in ? 0x12345678 : seed_px(x, y));
        }
    }
    /* Sign-magnitude negative top-left clips at 0. */
    w(h, R_SC_TOP_LEFT, 0x80058005);
    w(h, R_SC_BOTTOM_RIGHT, 1 << 16 | 1);
    rect(h, 0, 0, 5, 5);
    g_assert_cmphex(px(h, 4, 0, 0), ==, 0x12345678);
    g_assert_cmphex(px(h, 4, 1, 0), ==, seed_px(1, 0));
    test_host_free(h);
}

static void test_hostile(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    uint8_t *copy = g_malloc(16 << 20);

    seed(h, 4);
    memcpy(copy, h->vram, 16 << 20);
    solid_state(h, DT_32, 0xF0, 0xFFFFFFFF, ~0u);
    /* Pitch 0. */
    w(h, R_DST_PITCH_OFFSET, SURF >> 10);
    rect(h, 0, 0, 10, 10);
    g_assert_cmpuint(test_host_count_logs(h, "pitch 0 is zero"), ==, 1);
    /* Pitch shorter than a row. */
    w(h, R_DST_PITCH_OFFSET, po(SURF, 64));
    rect(h, 0, 0, 17, 2);
    g_assert_cmpuint(test_host_count_logs(h, "too short"), ==, 1);
    /* Huge rectangle: 8191 rows after the clip, off the end of VRAM. */
    w(h, R_DST_PITCH_OFFSET, po(SURF, 16320));
    rect(h, 0, 0, 4000, 0xFFFF);
    g_assert_cmpuint(test_host_count_logs(h, "crosses the end of VRAM"), ==, 1);
    /* Offset at the top of the MC space. */
    w(h, R_DST_PITCH_OFFSET, po(0xFFFFFC00u, PITCH));
    rect(h, 0, 0, 8, 8);
    g_assert_cmpuint(test_host_count_logs(h, "32-bit MC space"), ==, 1);
    /* Reserved datatype. */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
      GMC_DST(10) | GMC_ROP(0xF0));
    rect(h, 0, 0, 8, 8);
    g_assert_cmpuint(test_host_count_logs(h, "datatype 10"), ==, 1);
    g_assert_true(memcmp(copy, h->vram, 16 << 20) == 0);
    g_free(copy);
    /* Right to left from x 0: only pixel 0 is right of the clip's 0. */
    solid_state(h, DT_32, 0xF0, 0xFFFFFFFF, ~0u);
    w(h, R_DP_CNTL, 0);
    rect(h, 0, 0, 100, 1);
    g_assert_cmphex(px(h, 4, 0, 0), ==, 0xFFFFFFFF);
    g_assert_cmphex(px(h, 4, 1, 0), ==, seed_px(1, 0));
    test_host_free(h);
}

static void test_pattern(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, 4);
    /* 8x8 mono FG_BG, MSB first (XAA Mono8x8PatternFill on RV200+). */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(0) | GMC_DST(DT_32) |
      GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS);
    w(h, R_DP_BRUSH_FRGD_CLR, 0x111);
    w(h, R_DP_BRUSH_BKGD_CLR, 0x222);
    w(h, R500_REGA_AT(BRUSH_DATA, 0), 0x000000F0);     /* row 0: 11110000 */
    w(h, R500_REGA_AT(BRUSH_DATA, 1), 0x01000000);     /* row 7: 00000001 */
    w(h, R_BRUSH_Y_X, 0);
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
    w(h, R_DP_CNTL, 3);
    rect(h, 0, 0, 16, 8);
    g_assert_cmphex(px(h, 4, 0, 0), ==, 0x111);
    g_assert_cmphex(px(h, 4, 3, 0), ==, 0x111);
    g_assert_cmphex(px(h, 4, 4, 0), ==, 0x222);
    g_assert_cmphex(px(h, 4, 8, 0), ==, 0x111);
    g_assert_cmphex(px(h, 4, 7, 7), ==, 0x111);
    g_assert_cmphex(px(h, 4, 6, 7), ==, 0x222);
    g_assert_cmphex(px(h, 4, 0, 1), ==, 0x222);
    /* FG_LA: the zeros leave the destination. */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(1) | GMC_DST(DT_32) |
      GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS);
    rect(h, 0, 8, 8, 1);
    g_assert_cmphex(px(h, 4, 0, 8), ==, 0x111);
    g_assert_cmphex(px(h, 4, 5, 8), ==, seed_px(5, 8));
    test_host_free(h);
}

/* XAA ScanlineCPUToScreenColorExpandFill through HOST_DATA registers. */
static void test_host_mono(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    const uint32_t bits[2] = { 0x80000001u, 0x0000FF00u };

    seed(h, 4);
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_DST_CLIP |
      GMC_BRUSH(BRUSH_NONE) | GMC_DST(DT_32) | GMC_SRC(0) | GMC_ROP(0xCC) |
      GMC_LSB_FIRST | GMC_SRC_HOST | GMC_CMP_DIS);
    w(h, R_DP_WRITE_MASK, ~0u);
    w(h, R_DP_SRC_FRGD_CLR, 0xF0F0F0F0);
    w(h, R_DP_SRC_BKGD_CLR, 0x0B0B0B0B);
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
    /* 20 pixels wide, padded to 32, clipped at x + 20. */
    w(h, R_SC_TOP_LEFT, 4 << 16 | 2);
    w(h, R_SC_BOTTOM_RIGHT, 6 << 16 | 22);
    w(h, R_DST_Y_X, 4 << 16 | 2);
    w(h, R_DST_HEIGHT_WIDTH, 2 << 16 | 32);
    w(h, R500_REGA_AT(HOST_DATA, 0), bits[0]);
    w(h, R_HOST_DATA_LAST, bits[1]);
    for (uint32_t y = 4; y < 6; y++) {
        for (uint32_t x = 0; x < 40; x++) {
            uint32_t want = seed_px(x, y);

            if (x >= 2 && x < 22) {
                want = (bits[y - 4] >> (x - 2)) & 1 ? 0xF0F0F0F0 : 0x0B0B0B0B;
            }
            g_assert_cmphex(px(h, 4, x, y), ==, want);
        }
    }
    g_assert_false(h->chip.rb2d.host_active);

    /* Transparent (FG_LA), MSB first: bit 7 of byte 0 is pixel 0. */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
      GMC_DST(DT_32) | GMC_SRC(1) | GMC_ROP(0xCC) | GMC_SRC_HOST |
      GMC_CMP_DIS);
    w(h, R_DST_Y_X, 10 << 16 | 0);
    w(h, R_DST_HEIGHT_WIDTH, 1 << 16 | 32);
    g_assert_true(h->chip.rb2d.host_active);
    w(h, R_HOST_DATA_LAST, 0x00000180);     /* pixels 0 and 15 */
    g_assert_cmphex(px(h, 4, 0, 10), ==, 0xF0F0F0F0);
    g_assert_cmphex(px(h, 4, 15, 10), ==, 0xF0F0F0F0);
    g_assert_cmphex(px(h, 4, 1, 10), ==, seed_px(1, 10));
    g_assert_cmphex(px(h, 4, 8, 10), ==, seed_px(8, 10));

    /* Ended early by HOST_DATA_LAST; stray data afterwards. */
    w(h, R_DST_HEIGHT_WIDTH, 3 << 16 | 32);
    w(h, R_HOST_DATA_LAST, 0);
    g_assert_cmpuint(test_host_count_logs(h, "before the rectangle"), ==, 1);
    w(h, R500_REGA_AT(HOST_DATA, 3), 0);
    w(h, R500_REGA_AT(HOST_DATA, 3), 0);
    g_assert_cmpuint(test_host_count_logs(h, "no host-data blit"), ==, 1);
    test_host_free(h);
}

/* The CNTL_* packets, executed as the CP would. */
static void test_packets(void)
{
    TestHost *h = test_host_new(R500_MODEL_R580, 16);
    R500Chip *s = &h->chip;
    uint32_t pkt[64];
    unsigned n = 0;

    seed(h, 2);
    /* radeon_clear_box: PAINT_MULTI, 16 bpp, two rectangles. */
    pkt[n++] = PACKET3(0x9A, 6);
    pkt[n++] = GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) | GMC_DST(DT_16) |
               GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS;
    pkt[n++] = po(SURF, PITCH);
    pkt[n++] = 0xBEEF;
    pkt[n++] = 2 << 16 | 3;         /* x 2, y 3 */
    pkt[n++] = 4 << 16 | 1;         /* w 4, h 1 */
    pkt[n++] = 100 << 16 | 0;
    pkt[n++] = 1 << 16 | 1;
    r500_pm4_execute(s, pkt, n, false);
    g_assert_cmphex(px(h, 2, 2, 3), ==, 0xBEEF);
    g_assert_cmphex(px(h, 2, 5, 3), ==, 0xBEEF);
    g_assert_cmphex(px(h, 2, 6, 3), ==, seed_px(6, 3) & 0xFFFF);
    g_assert_cmphex(px(h, 2, 100, 0), ==, 0xBEEF);

    /* XAA HOSTDATA_BLT, 16 bpp colour image: 2 rows of 2 pixels. */
    n = 0;
    pkt[n++] = PACKET3(0x94, 10);
    pkt[n++] = GMC_DST_PO | GMC_DST_CLIP | GMC_BRUSH(BRUSH_NONE) |
               GMC_DST(DT_16) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xCC) |
               GMC_SRC_HOST | GMC_CMP_DIS | GMC_WRMSK_DIS;
    pkt[n++] = po(SURF, PITCH);
    pkt[n++] = 20 << 16 | 10;       /* clip top-left y 20, x 10 */
    pkt[n++] = 22 << 16 | 12;
    pkt[n++] = 0xFFFFFFFF;
    pkt[n++] = 0xFFFFFFFF;
    pkt[n++] = 20 << 16 | 10;       /* dst y << 16 | x */
    pkt[n++] = 2 << 16 | 2;         /* h << 16 | w */
    pkt[n++] = 2;
    pkt[n++] = 0x22221111;
    pkt[n++] = 0x44443333;
    r500_pm4_execute(s, pkt, n, false);
    g_assert_cmphex(px(h, 2, 10, 20), ==, 0x1111);
    g_assert_cmphex(px(h, 2, 11, 20), ==, 0x2222);
    g_assert_cmphex(px(h, 2, 10, 21), ==, 0x3333);
    g_assert_cmphex(px(h, 2, 11, 21), ==, 0x4444);
    g_assert_cmphex(px(h, 2, 12, 21), ==, seed_px(12, 21) & 0xFFFF);

    /* Short packet and unsupported brush: skipped, logged. */
    n = 0;
    pkt[n++] = PACKET3(0x9A, 1);
    pkt[n++] = GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID);
    pkt[n++] = po(SURF, PITCH);
    r500_pm4_execute(s, pkt, n, false);
    g_assert_cmpuint(test_host_count_logs(h, "shorter than"), ==, 1);
    pkt[1] = GMC_BRUSH(10);
    r500_pm4_execute(s, pkt, n, false);
    g_assert_cmpuint(test_host_count_logs(h, "brush type 10"), ==, 1);
    test_host_free(h);
}

/* r100_copy_blit: VRAM pages to system memory, rows are 4 KiB pages. */
static void test_kernel_copy_blit(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    R500Chip *s = &h->chip;
    const uint32_t vram_mc = 0x40000000, src = 0x10000, dst = 0x300000;
    uint32_t pkt[10];

    r500_mc_write(s, r500_mc_index(s->info->mc_map, MC_MC_FB_LOCATION),
                  0x40FFu << 16 | 0x4000);
    for (uint32_t i = 0; i < 3 * 4096; i++) {
        h->vram[src + i] = i * 7 + (i >> 12);
    }
    pkt[0] = PACKET3(0x9B, 8);
    pkt[1] = 0x52CC36FF;
    pkt[2] = (4096 / 64) << 22 | (vram_mc + src) >> 10;
    pkt[3] = (4096 / 64) << 22 | dst >> 10;
    pkt[4] = 0x1FFF1FFF;
    pkt[5] = 0;
    pkt[6] = 0x1FFF1FFF;
    pkt[7] = 0;                     /* src x 0, y 0 */
    pkt[8] = 0;                     /* dst x 0, y 0 */
    pkt[9] = 1024 << 16 | 3;        /* 1024 pixels, 3 pages */
    /* X's last copy went right to left: the packet does not care. */
    w(h, R_DP_CNTL, 0);
    r500_pm4_execute(s, pkt, 10, false);
    g_assert_cmpmem(h->ram + dst, 3 * 4096, h->vram + src, 3 * 4096);
    g_assert_cmpuint(h->logs->len, ==, 0);
    g_assert_cmpuint(r500_reg_read(s, R_DP_CNTL), ==, 0);
    test_host_free(h);
}

/* BITBLT_MULTI picks the direction that copies overlaps right. */
static void test_bitblt_overlap(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    uint32_t pkt[8];

    seed(h, 4);
    pkt[0] = PACKET3(0x9B, 6);
    pkt[1] = GMC_SRC_PO | GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
             GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xCC) |
             GMC_SRC_MEM | GMC_CMP_DIS | GMC_WRMSK_DIS;
    pkt[2] = po(SURF, PITCH);
    pkt[3] = po(SURF, PITCH);
    pkt[4] = 10 << 16 | 10;         /* src x 10, y 10 */
    pkt[5] = 13 << 16 | 12;         /* dst x 13, y 12 */
    pkt[6] = 40 << 16 | 30;
    r500_pm4_execute(&h->chip, pkt, 7, false);
    for (uint32_t y = 12; y < 42; y++) {
        for (uint32_t x = 13; x < 53; x++) {
            g_assert_cmphex(px(h, 4, x, y), ==, seed_px(x - 3, y - 2));
        }
    }
    test_host_free(h);
}

/* ---- The bad-input contract (docs/reliability.md), 2D rows ---- */

/*
 * A surface that ends exactly at the last byte of VRAM is drawn; one
 * byte more (a pixel, or a row with a huge pitch) and nothing is written.
 */
static void test_vram_edge(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    const uint32_t vram = 16 << 20;
    /* The last two 1024-byte rows of VRAM. */
    const uint32_t base = vram - 2 * PITCH;
    uint8_t *copy;

    solid_state(h, DT_32, 0xF0, 0xA5A5A5A5, ~0u);
    w(h, R_DST_PITCH_OFFSET, po(base, PITCH));
    rect(h, 0, 0, PITCH / 4, 2);
    g_assert_cmphex(h->vram[vram - 1], ==, 0xA5);
    g_assert_cmphex(h->vram[base], ==, 0xA5);
    g_assert_cmpuint(h->logs->len, ==, 0);

    copy = g_malloc(vram);
    memcpy(copy, h->vram, vram);
    solid_state(h, DT_32, 0xF0, 0x11111111, ~0u);
    w(h, R_DST_PITCH_OFFSET, po(base, PITCH));
    rect(h, 1, 0, PITCH / 4, 2);            /* one pixel past the end */
    rect(h, 0, 0, PITCH / 4, 3);            /* one row past the end */
    w(h, R_DST_PITCH_OFFSET, po(base, 255 * 64));
    rect(h, 0, 0, 1, 2);                    /* a huge pitch */
    g_assert_cmpuint(test_host_count_logs(h, "crosses the end of VRAM"), ==,
                     3);
    g_assert_true(memcmp(copy, h->vram, vram) == 0);
    g_free(copy);
    test_host_free(h);
}

/*
 * A copy into GTT pages, the second of which points past guest RAM: the
 * rows in the good page are written, the operation stops at the first
 * row that fails, with a guest error; RAM past the page is untouched.
 */
static void test_gart_out_of_range(void)
{
    TestHost *h = test_host_new(R500_MODEL_R580, 16);
    R500Chip *s = &h->chip;
    const uint32_t gtt = 0x02000000, table = 0x200000;
    uint32_t v;

    seed(h, 4);
    v = GUINT32_TO_LE((0x300000u >> 8) | 0xD);
    memcpy(h->vram + table, &v, 4);
    v = GUINT32_TO_LE((0x7F000000u >> 8) | 0xD);
    memcpy(h->vram + table + 4, &v, 4);
    r500_seq_gart_enable(r500_seq_chip_wpcie, s, gtt, 2, table);
    memset(h->ram + 0x300000, 0xEE, 2 * 4096);

    copy_state(h, DT_32, 0xCC, true, true);
    w(h, R_DST_PITCH_OFFSET, po(gtt, PITCH));
    w(h, R_SRC_Y_X, 0);
    rect(h, 0, 0, PITCH / 4, 8);            /* rows 4..7 in the bad page */
    for (uint32_t y = 0; y < 4; y++) {
        memcpy(&v, h->ram + 0x300000 + y * PITCH, 4);
        g_assert_cmphex(GUINT32_FROM_LE(v), ==, seed_px(0, y));
    }
    g_assert_cmphex(h->ram[0x300000 + 4096], ==, 0xEE);
    g_assert_cmpuint(test_host_count_logs(h, "the rest of the 256x8 "
                                          "operation is dropped"), ==, 1);
    test_host_free(h);
}

/* A migrated host-data blit that does not add up is dropped. */
static void test_migrated_host_blit(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    R500Chip *s = &h->chip;

    s->rb2d.host_active = true;
    s->rb2d.host = (R500HostBlit) { .base = SURF, .pitch = PITCH, .bpp = 3,
                                    .w = 8, .h = 8 };
    r500_chip_post_load(s);
    g_assert_false(s->rb2d.host_active);
    s->rb2d.host_active = true;
    s->rb2d.host.bpp = 4;
    s->rb2d.host.cy = 9;                    /* past its last row */
    r500_chip_post_load(s);
    g_assert_false(s->rb2d.host_active);
    g_assert_cmpuint(test_host_count_logs(h, "migrated host-data blit"), ==,
                     2);
    /* Host data now has nowhere to go: dropped, said once. */
    w(h, R_HOST_DATA_LAST, 1);
    g_assert_cmpuint(test_host_count_logs(h, "no host-data blit"), ==, 1);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/rb2d/fill/8bpp", GUINT_TO_POINTER(1),
                         test_fill_bpp);
    g_test_add_data_func("/rb2d/fill/16bpp", GUINT_TO_POINTER(2),
                         test_fill_bpp);
    g_test_add_data_func("/rb2d/fill/32bpp", GUINT_TO_POINTER(4),
                         test_fill_bpp);
    g_test_add_func("/rb2d/fill/rops", test_fill_rops);
    for (unsigned i = 0; i < G_N_ELEMENTS(copy_cases); i++) {
        char *path = g_strdup_printf("/rb2d/copy/%u", i);

        g_test_add_data_func(path, copy_cases[i], check_copy);
        g_free(path);
    }
    g_test_add_func("/rb2d/copy/rop-and-gtt", test_copy_rop_and_gtt);
    g_test_add_func("/rb2d/clip", test_clip);
    g_test_add_func("/rb2d/hostile", test_hostile);
    g_test_add_func("/rb2d/pattern", test_pattern);
    g_test_add_func("/rb2d/host-mono", test_host_mono);
    g_test_add_func("/rb2d/packets", test_packets);
    g_test_add_func("/rb2d/kernel-copy-blit", test_kernel_copy_blit);
    g_test_add_func("/rb2d/bitblt-overlap", test_bitblt_overlap);
    g_test_add_func("/rb2d/contract/vram-edge", test_vram_edge);
    g_test_add_func("/rb2d/contract/gart-out-of-range",
                    test_gart_out_of_range);
    g_test_add_func("/rb2d/contract/migrated-host-blit",
                    test_migrated_host_blit);
    return g_test_run();
}
