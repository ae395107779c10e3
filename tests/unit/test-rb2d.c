/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the 2D engine: fills, copies (overlapping, both
 * directions), ROP3, write mask, clipping, 8/16/32 bpp, pattern brushes,
 * host-data colour expansion, the CNTL_* packets (r100_copy_blit,
 * radeon_clear_box, XAA's HOSTDATA_BLT), tiled surfaces (against the
 * linear rendering and the CPU's view through a surface register) and
 * hostile parameters.
 * Expected pixels are computed here from the operation's definition.
 */
#include <string.h>

#include "test-host.h"
#include "tiling-ref.h"
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

/* Trigger a rectangle: the engine queues it. */
static void rect_q(TestHost *h, int x, int y, int wd, int ht)
{
    w(h, R_DST_Y_X, (uint32_t)(y & 0xFFFF) << 16 | (x & 0xFFFF));
    w(h, R_DST_HEIGHT_WIDTH, (uint32_t)ht << 16 | wd);
}

/* ... and let the engine draw it, as the board runs it. */
static void rect(TestHost *h, int x, int y, int wd, int ht)
{
    rect_q(h, x, y, wd, ht);
    test_host_run(h);
}

/* A packet as the CP executes it, then the 2D work it queued. */
static void packet(TestHost *h, const uint32_t *pkt, unsigned n)
{
    r500_pm4_execute(&h->chip, pkt, n, false);
    test_host_run(h);
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
    g_assert_cmpuint(h->host.logs->len, ==, 0);
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

        memcpy(&v, h->host.ram + 0x200000 + (1 + y) * 256 + 4, 4);
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
    uint32_t pkt[64];
    unsigned n = 0;

    seed(h, 2);
    /* radeon_clear_box: PAINT_MULTI, 16 bpp, two rectangles. */
    pkt[n++] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 6);
    pkt[n++] = GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) | GMC_DST(DT_16) |
               GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS;
    pkt[n++] = po(SURF, PITCH);
    pkt[n++] = 0xBEEF;
    pkt[n++] = 2 << 16 | 3;         /* x 2, y 3 */
    pkt[n++] = 4 << 16 | 1;         /* w 4, h 1 */
    pkt[n++] = 100 << 16 | 0;
    pkt[n++] = 1 << 16 | 1;
    packet(h, pkt, n);
    g_assert_cmphex(px(h, 2, 2, 3), ==, 0xBEEF);
    g_assert_cmphex(px(h, 2, 5, 3), ==, 0xBEEF);
    g_assert_cmphex(px(h, 2, 6, 3), ==, seed_px(6, 3) & 0xFFFF);
    g_assert_cmphex(px(h, 2, 100, 0), ==, 0xBEEF);

    /* XAA HOSTDATA_BLT, 16 bpp colour image: 2 rows of 2 pixels. */
    n = 0;
    pkt[n++] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_HOSTDATA_BLT, 10);
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
    packet(h, pkt, n);
    g_assert_cmphex(px(h, 2, 10, 20), ==, 0x1111);
    g_assert_cmphex(px(h, 2, 11, 20), ==, 0x2222);
    g_assert_cmphex(px(h, 2, 10, 21), ==, 0x3333);
    g_assert_cmphex(px(h, 2, 11, 21), ==, 0x4444);
    g_assert_cmphex(px(h, 2, 12, 21), ==, seed_px(12, 21) & 0xFFFF);

    /* Short packet and unsupported brush: skipped, logged. */
    n = 0;
    pkt[n++] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 1);
    pkt[n++] = GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID);
    pkt[n++] = po(SURF, PITCH);
    packet(h, pkt, n);
    g_assert_cmpuint(test_host_count_logs(h, "shorter than"), ==, 1);
    pkt[1] = GMC_BRUSH(10);
    packet(h, pkt, n);
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
    pkt[0] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 8);
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
    packet(h, pkt, 10);
    g_assert_cmpmem(h->host.ram + dst, 3 * 4096, h->vram + src, 3 * 4096);
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    g_assert_cmpuint(r500_reg_read(s, R_DP_CNTL), ==, 0);
    test_host_free(h);
}

/* BITBLT_MULTI picks the direction that copies overlaps right. */
static void test_bitblt_overlap(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    uint32_t pkt[8];

    seed(h, 4);
    pkt[0] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 6);
    pkt[1] = GMC_SRC_PO | GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
             GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xCC) |
             GMC_SRC_MEM | GMC_CMP_DIS | GMC_WRMSK_DIS;
    pkt[2] = po(SURF, PITCH);
    pkt[3] = po(SURF, PITCH);
    pkt[4] = 10 << 16 | 10;         /* src x 10, y 10 */
    pkt[5] = 13 << 16 | 12;         /* dst x 13, y 12 */
    pkt[6] = 40 << 16 | 30;
    packet(h, pkt, 7);
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
    g_assert_cmpuint(h->host.logs->len, ==, 0);

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
    memset(h->host.ram + 0x300000, 0xEE, 2 * 4096);

    copy_state(h, DT_32, 0xCC, true, true);
    w(h, R_DST_PITCH_OFFSET, po(gtt, PITCH));
    w(h, R_SRC_Y_X, 0);
    rect(h, 0, 0, PITCH / 4, 8);            /* rows 4..7 in the bad page */
    for (uint32_t y = 0; y < 4; y++) {
        memcpy(&v, h->host.ram + 0x300000 + y * PITCH, 4);
        g_assert_cmphex(GUINT32_FROM_LE(v), ==, seed_px(0, y));
    }
    g_assert_cmphex(h->host.ram[0x300000 + 4096], ==, 0xEE);
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

/* ---- The command FIFO: operations drawn by run(), in slices ---- */

#define BIG_SURF    (16u << 20)         /* VRAM offset, 64 MiB chips */
#define BIG_PITCH   (255u * 64)         /* the largest pitch: 4080 pixels */
#define BIG_ROWS    2048u

static uint32_t status(TestHost *h)
{
    return r500_reg_read(&h->chip, R_RBBM_STATUS);
}

static uint32_t fifo_avail(TestHost *h)
{
    return R500_FGET(status(h), RBBM_STATUS, CMDFIFO_AVAIL);
}

static bool engine_busy(TestHost *h)
{
    uint32_t st = status(h);

    return (st & R500_FMASK(RBBM_STATUS, RB2D_BUSY)) &&
           (st & R500_FMASK(RBBM_STATUS, GUI_ACTIVE));
}

/* One r500_run(), as the board's bottom half runs it. */
static void one_slice(TestHost *h)
{
    h->host.scheduled = -1;
    r500_run(&h->chip);
}

static uint32_t rnd_byte(uint64_t i)
{
    return (uint32_t)((i * 0x9E3779B97F4A7C15ull) >> 56);
}

typedef enum BigOp { BIG_XOR, BIG_SOLID16, BIG_COPY_UP, BIG_PATTERN } BigOp;

/*
 * The largest operations, started by MMIO: the write returns with the
 * engine busy and nothing drawn, run() draws them over several slices in
 * the programmed row order, and the result is exactly the operation's
 * definition, computed here from a copy of VRAM.
 */
static void test_huge_op(gconstpointer data)
{
    BigOp op = GPOINTER_TO_UINT(data);
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const size_t span = (size_t)BIG_ROWS * BIG_PITCH;
    uint8_t *want, *vram = h->vram + BIG_SURF;
    uint32_t first_row, last_row, wd = 4080, ht = BIG_ROWS;
    unsigned slices = 0;

    for (size_t i = 0; i < span; i++) {
        vram[i] = rnd_byte(i);
    }
    want = g_memdup2(vram, span);
    w(h, R_DP_WRITE_MASK, ~0u);
    w(h, R_DST_PITCH_OFFSET, po(BIG_SURF, BIG_PITCH));
    w(h, R_SRC_PITCH_OFFSET, po(BIG_SURF, BIG_PITCH));
    w(h, R_DP_CNTL, 3);
    switch (op) {
    case BIG_XOR:       /* PDx through the MC rows, 32 bpp */
        w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
          GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0x5A) | GMC_CMP_DIS);
        w(h, R_DP_BRUSH_FRGD_CLR, 0x0F1E2D3C);
        for (size_t i = 0; i < span; i += 4) {
            if (i % BIG_PITCH < wd * 4) {
                uint32_t v;

                memcpy(&v, want + i, 4);
                v ^= GUINT32_TO_LE(0x0F1E2D3C);
                memcpy(want + i, &v, 4);
            }
        }
        w(h, R_DST_Y_X, 0);
        break;
    case BIG_SOLID16:   /* pixman, 16 bpp, 8160 pixels wide */
        wd = 8160;
        w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
          GMC_DST(DT_16) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS);
        w(h, R_DP_BRUSH_FRGD_CLR, 0xBEEF);
        for (size_t i = 0; i < span; i += 2) {
            if (i % BIG_PITCH < wd * 2) {
                want[i] = 0xEF;
                want[i + 1] = 0xBE;
            }
        }
        w(h, R_DST_Y_X, 0);
        break;
    case BIG_COPY_UP:   /* overlapping copy one row down: bottom to top */
        ht = BIG_ROWS - 1;
        w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_SRC_PO |
          GMC_BRUSH(BRUSH_NONE) | GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) |
          GMC_ROP(0xCC) | GMC_SRC_MEM | GMC_CMP_DIS);
        w(h, R_DP_CNTL, 1);
        memmove(want + BIG_PITCH, want, (size_t)ht * BIG_PITCH);
        w(h, R_SRC_Y_X, (ht - 1) << 16);
        w(h, R_DST_Y_X, ht << 16);
        break;
    case BIG_PATTERN:   /* 8x8 mono opaque, pixel by pixel */
        ht = 512;
        w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(0) | GMC_DST(DT_32) |
          GMC_SRC(SRC_COLOR) | GMC_ROP(0xF0) | GMC_CMP_DIS);
        w(h, R_DP_BRUSH_FRGD_CLR, 0x111);
        w(h, R_DP_BRUSH_BKGD_CLR, 0x222);
        w(h, R500_REGA_AT(BRUSH_DATA, 0), 0x8040201F);
        w(h, R500_REGA_AT(BRUSH_DATA, 1), 0x0102A5C3);
        w(h, R_BRUSH_Y_X, 0);
        for (uint32_t y = 0; y < ht; y++) {
            for (uint32_t x = 0; x < wd; x++) {
                uint32_t byte = (y % 8 < 4 ? 0x8040201Fu : 0x0102A5C3u) >>
                                (8 * (y % 4)) & 0xFF;
                uint32_t v = GUINT32_TO_LE(byte >> (7 - x % 8) & 1 ? 0x111
                                                                  : 0x222);

                memcpy(want + (size_t)y * BIG_PITCH + x * 4, &v, 4);
            }
        }
        w(h, R_DST_Y_X, 0);
        break;
    }
    test_host_run(h);       /* nothing pending before the trigger */
    g_assert_false(engine_busy(h));
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE);

    /* The trigger only queues: busy, one FIFO entry, not a pixel drawn. */
    w(h, R_DST_HEIGHT_WIDTH, ht << 16 | wd);
    g_assert_true(engine_busy(h));
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE - 1);
    g_assert_true(r500_reg_read(&h->chip, R_RB2D_DSTCACHE_CTLSTAT) &
                  R500_FMASK(DSTCACHE_CTLSTAT, RB2D_DC_BUSY));
    g_assert_cmpuint(h->chip.rb2d.work, ==, 0);
    g_assert_cmphex(h->host.scheduled, ==, 0);

    /* One slice: the first rows in the programmed order, not the last. */
    first_row = op == BIG_COPY_UP ? ht : 0;
    last_row = op == BIG_COPY_UP ? 1 : ht - 1;
    one_slice(h);
    g_assert_true(engine_busy(h));
    g_assert_cmpmem(vram + (size_t)first_row * BIG_PITCH, BIG_PITCH,
                    want + (size_t)first_row * BIG_PITCH, BIG_PITCH);
    g_assert_true(memcmp(vram + (size_t)last_row * BIG_PITCH,
                         want + (size_t)last_row * BIG_PITCH, BIG_PITCH));
    for (slices = 1; h->host.scheduled == 0 && slices < 10000; slices++) {
        one_slice(h);
    }
    g_test_message("%u slices", slices);
    g_assert_cmpuint(slices, >=, 4);
    g_assert_true(memcmp(vram, want, span) == 0);
    g_assert_false(engine_busy(h));
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE);
    /* The GUI went idle: GEN_INT_STATUS latched it. */
    g_assert_true(r500_reg_read(&h->chip, R_GEN_INT_STATUS) &
                  R500_FMASK(GEN_INT_STATUS, GUI_IDLE));
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    g_free(want);
    test_host_free(h);
}

/*
 * The FIFO holds each operation as it was programmed when triggered: the
 * driver reprograms everything for the next one (another surface, ROP,
 * colour, direction, clip) before the engine drew the first, and queues
 * a host-data blit and its data behind both; CMDFIFO_AVAIL counts them.
 */
static void test_fifo_snapshot(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    const uint32_t surf2 = SURF + 512 * PITCH;

    seed(h, 4);
    memset(h->vram + surf2, 0x5A, 64 * 512);
    solid_state(h, DT_32, 0xF0, 0x11111111, ~0u);
    rect_q(h, 0, 0, 64, 64);
    /* B: XOR, another surface and pitch, bottom to top, clipped. */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_DST_CLIP |
      GMC_BRUSH(BRUSH_SOLID) | GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) |
      GMC_ROP(0x5A) | GMC_CMP_DIS);
    w(h, R_DST_PITCH_OFFSET, po(surf2, 512));
    w(h, R_DP_BRUSH_FRGD_CLR, 0x0F0F0F0F);
    w(h, R_DP_CNTL, 0);
    w(h, R_SC_TOP_LEFT, 0);
    w(h, R_SC_BOTTOM_RIGHT, 8u << 16 | 100);
    rect_q(h, 127, 63, 128, 64);            /* names the right/bottom pixel */
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE - 2);
    /* H: 16 colour pixels over A's corner, 4 at a time. */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
      GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xCC) | GMC_SRC_HOST |
      GMC_CMP_DIS);
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
    w(h, R_DST_Y_X, 2u << 16 | 3);
    w(h, R_DST_HEIGHT_WIDTH, 4u << 16 | 4);
    for (uint32_t i = 0; i < 15; i++) {
        w(h, R500_REGA_AT(HOST_DATA, i % 8), 0xC0DE0000 + i);
    }
    w(h, R_HOST_DATA_LAST, 0xC0DE000F);
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE - 19);
    g_assert_cmphex(px(h, 4, 0, 0), ==, seed_px(0, 0));
    test_host_run(h);

    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE);
    for (uint32_t y = 0; y < 66; y++) {
        for (uint32_t x = 0; x < 66; x++) {
            uint32_t want = x < 64 && y < 64 ? 0x11111111 : seed_px(x, y);

            if (x >= 3 && x < 7 && y >= 2 && y < 6) {
                want = 0xC0DE0000 + (y - 2) * 4 + (x - 3);
            }
            g_assert_cmphex(px(h, 4, x, y), ==, want);
        }
    }
    for (uint32_t y = 0; y < 10; y++) {
        for (uint32_t x = 0; x < 128; x++) {
            uint32_t v;

            memcpy(&v, h->vram + surf2 + y * 512 + x * 4, 4);
            g_assert_cmphex(v, ==, y < 8 && x < 100 ? 0x55555555 : 0x5A5A5A5A);
        }
    }
    g_assert_false(h->chip.rb2d.host_active);
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    test_host_free(h);
}

/*
 * A guest that ignores CMDFIFO_AVAIL: a write to the full FIFO does one
 * slice of work in the write (enough for small operations, so they all
 * land); when that frees no entry the write is dropped, said once each.
 */
static void test_fifo_overflow(void)
{
    TestHost *h = test_host_new(R500_MODEL_R520, 64);
    uint64_t before;

    memset(h->vram + BIG_SURF, 0x3C, (size_t)512 * BIG_PITCH);
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
      GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0x5A) | GMC_CMP_DIS);
    w(h, R_DP_BRUSH_FRGD_CLR, 0xFFFFFFFF);
    w(h, R_DP_WRITE_MASK, ~0u);
    w(h, R_DP_CNTL, 3);
    w(h, R_DST_PITCH_OFFSET, po(BIG_SURF, BIG_PITCH));
    test_host_run(h);

    /* 65 inversions of 4080x512, each several slices: the last dropped. */
    for (unsigned i = 0; i < R500_RB2D_FIFO_SIZE; i++) {
        rect_q(h, 0, 0, 4080, 512);
    }
    g_assert_cmpuint(fifo_avail(h), ==, 0);
    before = h->chip.rb2d.work;
    rect_q(h, 0, 0, 4080, 512);
    g_assert_cmpuint(test_host_count_logs(h, "command FIFO full"), ==, 1);
    g_assert_cmpuint(h->chip.rb2d.overflows, ==, 1);
    /* The write did a slice of work, not a whole operation. */
    g_assert_cmpuint(h->chip.rb2d.work - before, >, 0);
    g_assert_cmpuint(h->chip.rb2d.work - before, <, 4080 * 512);
    test_host_run(h);
    /* 64 inversions: every byte as it was. */
    for (size_t i = 0; i < (size_t)512 * BIG_PITCH; i++) {
        g_assert_cmphex(h->vram[BIG_SURF + i], ==, 0x3C);
    }

    /* Small operations: the slice in the write makes room. */
    for (unsigned i = 0; i < R500_RB2D_FIFO_SIZE + 1; i++) {
        rect_q(h, i, 0, 1, 1);
    }
    g_assert_cmpuint(h->chip.rb2d.overflows, ==, 1);
    test_host_run(h);
    for (unsigned i = 0; i < R500_RB2D_FIFO_SIZE + 2; i++) {
        g_assert_cmphex(h->vram[BIG_SURF + 4 * i], ==,
                        i <= R500_RB2D_FIFO_SIZE ? 0xC3 : 0x3C);
    }
    test_host_free(h);
}

/* RBBM_SOFT_RESET of the 2D engine (radeon's GPU reset) empties the FIFO. */
static void test_fifo_soft_reset(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    seed(h, 4);
    solid_state(h, DT_32, 0xF0, 0x12345678, ~0u);
    rect_q(h, 0, 0, 16, 16);
    rect_q(h, 0, 16, 16, 16);
    g_assert_true(engine_busy(h));
    w(h, R_RBBM_SOFT_RESET, R500_FMASK(RBBM_SOFT_RESET, E2));
    w(h, R_RBBM_SOFT_RESET, 0);
    g_assert_false(engine_busy(h));
    g_assert_cmpuint(fifo_avail(h), ==, R500_RB2D_FIFO_SIZE);
    test_host_run(h);
    g_assert_cmphex(px(h, 4, 0, 0), ==, seed_px(0, 0));
    g_assert_cmphex(px(h, 4, 0, 16), ==, seed_px(0, 16));
    test_host_free(h);
}

/* The migrated parts of the engine (r500_pci.c "r500/rb2d", "/fifo"). */
static void migrate_rb2d(TestHost *from, TestHost *to)
{
    R500Rb2d *a = &from->chip.rb2d, *b = &to->chip.rb2d;

    memcpy(to->chip.regs, from->chip.regs, sizeof(from->chip.regs));
    memcpy(to->chip.mc, from->chip.mc, sizeof(from->chip.mc));
    memcpy(to->vram, from->vram, 16u << 20);
    b->host_active = a->host_active;
    b->host = a->host;
    memcpy(b->fifo, a->fifo, sizeof(a->fifo));
    b->fifo_head = a->fifo_head;
    b->fifo_count = a->fifo_count;
    b->row = a->row;
    r500_chip_post_load(&to->chip);
}

/* A queue with an operation half drawn, for the migration tests. */
static void half_done_queue(TestHost *h)
{
    seed(h, 4);
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_SOLID) |
      GMC_DST(DT_32) | GMC_SRC(SRC_COLOR) | GMC_ROP(0x5A) | GMC_CMP_DIS);
    w(h, R_DP_BRUSH_FRGD_CLR, 0x00FFFF00);
    w(h, R_DP_WRITE_MASK, ~0u);
    w(h, R_DP_CNTL, 2);                     /* right to left */
    w(h, R_DST_PITCH_OFFSET, po(SURF, PITCH));
    rect_q(h, 255, 0, 256, 4096);           /* 4 MiB: several slices */
    copy_state(h, DT_32, 0xCC, true, false);
    w(h, R_SRC_Y_X, 200u << 16);
    rect_q(h, 0, 201, 64, 100);             /* one row down, overlapping */
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
      GMC_DST(DT_32) | GMC_SRC(0) | GMC_ROP(0xCC) | GMC_LSB_FIRST |
      GMC_SRC_HOST | GMC_CMP_DIS);
    w(h, R_DP_SRC_FRGD_CLR, 0xF0F0F0F0);
    w(h, R_DP_SRC_BKGD_CLR, 0x0B0B0B0B);
    w(h, R_DST_Y_X, 5u << 16 | 7);
    w(h, R_DST_HEIGHT_WIDTH, 2u << 16 | 32);
    w(h, R500_REGA_AT(HOST_DATA, 0), 0x12345678);
    one_slice(h);
    one_slice(h);
    g_assert_cmpuint(h->chip.rb2d.row, >, 0);
    g_assert_cmpuint(h->chip.rb2d.fifo_count, ==, 4);
}

/*
 * Migrated with an operation half drawn and more queued behind it: the
 * destination finishes with exactly the pixels of a run that stayed.
 */
static void test_fifo_migration(void)
{
    TestHost *a = test_host_new(R500_MODEL_RV515, 16);
    TestHost *b = test_host_new(R500_MODEL_RV515, 16);

    half_done_queue(a);
    migrate_rb2d(a, b);
    g_assert_cmpuint(b->host.logs->len, ==, 0);
    g_assert_true(engine_busy(b));
    /* The host blit's second row arrives at the destination only. */
    w(a, R_HOST_DATA_LAST, 0x9ABCDEF0);
    w(b, R_HOST_DATA_LAST, 0x9ABCDEF0);
    test_host_run(a);
    test_host_run(b);
    g_assert_false(engine_busy(b));
    g_assert_true(memcmp(a->vram, b->vram, 16u << 20) == 0);
    /* And they are the right pixels: the XOR and the copy. */
    g_assert_cmphex(px(b, 4, 0, 100), ==, seed_px(0, 100) ^ 0x00FFFF00);
    g_assert_cmphex(px(b, 4, 255, 4095), ==, 0x00FFFF00);
    g_assert_cmphex(px(b, 4, 10, 201), ==, seed_px(10, 200) ^ 0x00FFFF00);
    g_assert_cmphex(px(b, 4, 10, 102), ==, seed_px(10, 101) ^ 0x00FFFF00);
    g_assert_cmphex(px(b, 4, 7 + 3, 5), ==, 0xF0F0F0F0);
    g_assert_cmpuint(b->host.logs->len, ==, 0);
    test_host_free(a);
    test_host_free(b);
}

/* A migrated FIFO that does not add up is dropped, never drawn. */
static void test_fifo_migrated_bad(void)
{
    static const char *const cases[] = {
        "bpp", "pitch", "row", "count", "head", "kind", "src",
    };
    TestHost *a = test_host_new(R500_MODEL_RV515, 16);

    half_done_queue(a);
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TestHost *b = test_host_new(R500_MODEL_RV515, 16);
        R500Rb2d *e = &b->chip.rb2d;
        R500Rb2dCmd *head;
        uint8_t *copy;

        migrate_rb2d(a, b);
        head = &e->fifo[e->fifo_head];
        switch (i) {
        case 0: head->bpp = 3; break;
        case 1: head->dst_pitch = 1000; break;
        case 2: e->row = head->y1 - head->y0; break;
        case 3: e->fifo_count = R500_RB2D_FIFO_SIZE + 1; break;
        case 4: e->fifo_head = R500_RB2D_FIFO_SIZE; break;
        case 5: e->fifo[(e->fifo_head + 2) % R500_RB2D_FIFO_SIZE].kind = 9;
            break;
        case 6: e->fifo[(e->fifo_head + 1) % R500_RB2D_FIFO_SIZE].sy0 = -1;
            break;
        }
        copy = g_memdup2(b->vram, 16u << 20);
        r500_chip_post_load(&b->chip);
        g_assert_cmpuint(test_host_count_logs(b, "migrated command FIFO"), ==,
                         1);
        g_assert_false(engine_busy(b));
        test_host_run(b);
        g_assert_true(memcmp(copy, b->vram, 16u << 20) == 0);
        g_test_message("%s: dropped", cases[i]);
        g_free(copy);
        test_host_free(b);
    }
    test_host_free(a);
}

/* ---- Tiled surfaces (docs/display.md "Tiled surfaces") ---- */

#define TSURF       0x200000u   /* tiled surface */
#define LSURF       0x400000u   /* the same operations, linear */
#define DSURF       0x600000u   /* the tiled one copied back to linear */
#define TPITCH      768u        /* bytes: 3 x 256, the DDX's tiled alignment */
#define TROWS       64u
/* Linux radeon_reg.h RADEON_DST_TILE_MACRO / MICRO (r100_reloc_pitch_offset) */
#define PO_MACRO    (1u << 30)
#define PO_MICRO    (1u << 31)

typedef struct TiledCase {
    const char *name;
    uint32_t bpp;
    bool macro, micro;
} TiledCase;

static const TiledCase tiled_cases[] = {
    { "macro/8bpp", 1, true, false }, { "macro/16bpp", 2, true, false },
    { "macro/32bpp", 4, true, false }, { "micro/8bpp", 1, false, true },
    { "micro/16bpp", 2, false, true }, { "micro/32bpp", 4, false, true },
    { "both/8bpp", 1, true, true }, { "both/16bpp", 2, true, true },
    { "both/32bpp", 4, true, true },
};

static uint64_t surf_off(const TiledCase *tc, uint32_t base, uint32_t x,
                         uint32_t y)
{
    if (base == TSURF) {
        return TSURF + tiling_ref_offset(x, y, TPITCH / tc->bpp, tc->bpp,
                                         tc->macro, tc->micro);
    }
    return base + (uint64_t)y * TPITCH + x * tc->bpp;
}

static uint32_t surf_get(TestHost *h, const TiledCase *tc, uint32_t base,
                         uint32_t x, uint32_t y)
{
    uint32_t v = 0;

    memcpy(&v, h->vram + surf_off(tc, base, x, y), tc->bpp);
    return GUINT32_FROM_LE(v);
}

static void surf_set(TestHost *h, const TiledCase *tc, uint32_t base,
                     uint32_t x, uint32_t y, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(h->vram + surf_off(tc, base, x, y), &v, tc->bpp);
}

static uint32_t surf_po(const TiledCase *tc, uint32_t base)
{
    return po(base, TPITCH) |
           (base == TSURF ? (tc->macro ? PO_MACRO : 0) |
                            (tc->micro ? PO_MICRO : 0) : 0);
}

static uint32_t tc_dt(const TiledCase *tc)
{
    return tc->bpp == 1 ? DT_8 : tc->bpp == 2 ? DT_16 : DT_32;
}

/* SRCCOPY from (sx, sy) to (dx, dy), directions as a driver picks them. */
static void tiled_copy(TestHost *h, const TiledCase *tc, uint32_t spo,
                       uint32_t dpo, int sx, int sy, int dx, int dy, int wd,
                       int ht)
{
    bool ltr = dx <= sx, ttb = dy <= sy;

    copy_state(h, tc_dt(tc), 0xCC, ltr, ttb);
    w(h, R_SRC_PITCH_OFFSET, spo);
    w(h, R_DST_PITCH_OFFSET, dpo);
    w(h, R_SRC_Y_X, (uint32_t)(ttb ? sy : sy + ht - 1) << 16 |
      (ltr ? sx : sx + wd - 1));
    rect(h, ltr ? dx : dx + wd - 1, ttb ? dy : dy + ht - 1, wd, ht);
}

/*
 * What EXA and the kernel do to a surface: solid, XOR and write-masked
 * fills, overlapping copies both ways, colour and clipped mono host data.
 */
static void tiled_ops(TestHost *h, const TiledCase *tc, uint32_t base)
{
    uint32_t dpo = surf_po(tc, base);
    uint32_t n = 12 * 5 * tc->bpp / 4;

    solid_state(h, tc_dt(tc), 0xF0, 0xC3A5F00Fu, ~0u);
    w(h, R_DST_PITCH_OFFSET, dpo);
    rect(h, 5, 3, 40, 20);
    solid_state(h, tc_dt(tc), 0x5A, 0x0FF00FF0u, ~0u);
    w(h, R_DST_PITCH_OFFSET, dpo);
    rect(h, 17, 9, 50, 30);
    solid_state(h, tc_dt(tc), 0xF0, 0xFFFFFFFFu, 0x00FF00FFu);
    w(h, R_DST_PITCH_OFFSET, dpo);
    rect(h, 30, 33, 61, 27);
    tiled_copy(h, tc, dpo, dpo, 9, 7, 3, 2, 70, 30);
    tiled_copy(h, tc, dpo, dpo, 3, 2, 12, 9, 60, 40);

    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_BRUSH(BRUSH_NONE) |
      GMC_DST(tc_dt(tc)) | GMC_SRC(SRC_COLOR) | GMC_ROP(0xCC) |
      GMC_SRC_HOST | GMC_CMP_DIS | GMC_WRMSK_DIS);
    w(h, R_DST_PITCH_OFFSET, dpo);
    w(h, R_DST_Y_X, 50 << 16 | 7);
    w(h, R_DST_HEIGHT_WIDTH, 5 << 16 | 12);
    for (uint32_t i = 0; i < n; i++) {
        w(h, i + 1 < n ? R500_REGA_AT(HOST_DATA, i % 8) : R_HOST_DATA_LAST,
          i * 0x9E3779B9u);
    }
    w(h, R_DP_GUI_MASTER_CNTL, GMC_DST_PO | GMC_DST_CLIP |
      GMC_BRUSH(BRUSH_NONE) | GMC_DST(tc_dt(tc)) | GMC_SRC(0) |
      GMC_ROP(0xCC) | GMC_LSB_FIRST | GMC_SRC_HOST | GMC_CMP_DIS |
      GMC_WRMSK_DIS);
    w(h, R_DP_SRC_FRGD_CLR, 0x12345678);
    w(h, R_DP_SRC_BKGD_CLR, 0x9ABCDEF0);
    w(h, R_SC_TOP_LEFT, 40 << 16 | 60);
    w(h, R_SC_BOTTOM_RIGHT, 44 << 16 | 85);
    w(h, R_DST_Y_X, 40 << 16 | 58);
    w(h, R_DST_HEIGHT_WIDTH, 4 << 16 | 32);
    for (uint32_t i = 0; i < 4; i++) {
        w(h, i < 3 ? R500_REGA_AT(HOST_DATA, i) : R_HOST_DATA_LAST,
          0xF0E1D2C3u * (i + 1));
    }
}

static void check_same(TestHost *h, const TiledCase *tc, uint32_t a,
                       uint32_t b)
{
    for (uint32_t y = 0; y < TROWS; y++) {
        for (uint32_t x = 0; x < TPITCH / tc->bpp; x++) {
            if (surf_get(h, tc, a, x, y) != surf_get(h, tc, b, x, y)) {
                g_error("%s: pixel (%u, %u) is 0x%x, the linear rendering "
                        "0x%x", tc->name, x, y, surf_get(h, tc, a, x, y),
                        surf_get(h, tc, b, x, y));
            }
        }
    }
}

/*
 * Every operation on a tiled surface gives the linear rendering's pixels
 * at the reference layout; a copy back to linear (EXA's DownloadFrom-
 * Screen), one from linear into it (UploadToScreen) and the CPU's view through a surface register (where the
 * register's layout is this one) show the same.
 */
static void test_tiled(gconstpointer data)
{
    const TiledCase *tc = data;
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    uint32_t wpx = TPITCH / tc->bpp;

    for (uint32_t y = 0; y < TROWS; y++) {
        for (uint32_t x = 0; x < wpx; x++) {
            surf_set(h, tc, TSURF, x, y, seed_px(x, y));
            surf_set(h, tc, LSURF, x, y, seed_px(x, y));
        }
    }
    tiled_ops(h, tc, TSURF);
    tiled_ops(h, tc, LSURF);
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    check_same(h, tc, TSURF, LSURF);

    /* Tiled to linear (the kernel refuses micro-tiled sources; we copy). */
    tiled_copy(h, tc, surf_po(tc, TSURF), surf_po(tc, DSURF), 0, 0, 0, 0,
               wpx, TROWS);
    check_same(h, tc, DSURF, LSURF);
    /* Linear to tiled (UploadToScreen's blit from its scratch BO). */
    memset(h->vram + TSURF, 0, TROWS * TPITCH);
    tiled_copy(h, tc, surf_po(tc, DSURF), surf_po(tc, TSURF), 0, 0, 0, 0,
               wpx, TROWS);
    check_same(h, tc, TSURF, LSURF);

    /*
     * The surface register has no pixel size: its micro tiles are those
     * of 2- to 8-byte pixels (hdp.c), so 8 bpp micro tiling differs.
     */
    if (tc->bpp > 1 || !tc->micro) {
        uint32_t tile = (tc->macro ? 1 : 0) | (tc->micro ? 2 : 0);

        w(h, R500_REGA_AT(SURFACE_LOWER_BOUND, 2), TSURF);
        w(h, R500_REGA_AT(SURFACE_UPPER_BOUND, 2), TSURF + 0x3FFFF);
        w(h, R500_REGA_AT(SURFACE_INFO, 2), tile << 16 | TPITCH / 8);
        for (uint32_t off = 0; off < TROWS * TPITCH; off += 4) {
            uint32_t want;

            memcpy(&want, h->vram + LSURF + off, 4);
            g_assert_cmphex(r500_hdp_read(&h->chip, TSURF + off, 4), ==,
                            GUINT32_FROM_LE(want));
        }
        /* And what the CPU writes there, the 2D engine reads. */
        for (uint32_t off = 0; off < TROWS * TPITCH; off += 4) {
            r500_hdp_write(&h->chip, TSURF + off, off * 0x01000193u, 4);
        }
        tiled_copy(h, tc, surf_po(tc, TSURF), surf_po(tc, DSURF), 0, 0, 0, 0,
                   wpx, TROWS);
        for (uint32_t off = 0; off < TROWS * TPITCH; off += 4) {
            uint32_t got;

            memcpy(&got, h->vram + DSURF + off, 4);
            g_assert_cmphex(GUINT32_FROM_LE(got), ==, off * 0x01000193u);
        }
    }
    g_assert_cmpuint(h->host.logs->len, ==, 0);
    test_host_free(h);
}

/* A rectangle that leaves the tiled rows sideways is dropped. */
static void test_tiled_hostile(void)
{
    static const TiledCase tc = { "macro/32bpp", 4, true, false };
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);

    solid_state(h, DT_32, 0xF0, 0x11111111, ~0u);
    w(h, R_DST_PITCH_OFFSET, surf_po(&tc, TSURF));
    rect(h, 184, 0, 16, 4);     /* 192-pixel rows */
    g_assert_cmpuint(test_host_count_logs(h, "tiled surface's 192-pixel"),
                     ==, 1);
    for (uint32_t x = 0; x < 192; x++) {
        g_assert_cmphex(surf_get(h, &tc, TSURF, x, 0), ==, 0);
    }
    /*
     * The whole tile row must be in VRAM, not just the pixels: rows of
     * 6 KiB (192 x 8 pixels) from 9 KiB below the end of VRAM.
     */
    w(h, R_DST_PITCH_OFFSET, po((16u << 20) - 9216, TPITCH) | PO_MACRO);
    rect(h, 0, 8, 4, 1);
    g_assert_cmpuint(test_host_count_logs(h, "crosses the end of VRAM"), ==,
                     1);
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
    g_test_add_data_func("/rb2d/async/huge-xor-fill", GUINT_TO_POINTER(BIG_XOR),
                         test_huge_op);
    g_test_add_data_func("/rb2d/async/huge-solid-fill",
                         GUINT_TO_POINTER(BIG_SOLID16), test_huge_op);
    g_test_add_data_func("/rb2d/async/huge-overlapping-copy",
                         GUINT_TO_POINTER(BIG_COPY_UP), test_huge_op);
    g_test_add_data_func("/rb2d/async/huge-pattern",
                         GUINT_TO_POINTER(BIG_PATTERN), test_huge_op);
    for (unsigned i = 0; i < G_N_ELEMENTS(tiled_cases); i++) {
        g_autofree char *path = g_strdup_printf("/rb2d/tiled/%s",
                                                tiled_cases[i].name);
        g_test_add_data_func(path, &tiled_cases[i], test_tiled);
    }
    g_test_add_func("/rb2d/tiled/hostile", test_tiled_hostile);
    g_test_add_func("/rb2d/async/fifo-snapshot", test_fifo_snapshot);
    g_test_add_func("/rb2d/async/fifo-overflow", test_fifo_overflow);
    g_test_add_func("/rb2d/async/soft-reset", test_fifo_soft_reset);
    g_test_add_func("/rb2d/async/migration", test_fifo_migration);
    g_test_add_func("/rb2d/contract/migrated-fifo", test_fifo_migrated_bad);
    return g_test_run();
}
