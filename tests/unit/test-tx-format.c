/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every TX_FORMAT1 format code of seed 003 (with TXFORMAT_MSB, table 5.2)
 * sampled: the texel bytes are written here by hand and the expected
 * components computed by hand from the layouts (components numbered from
 * the least-significant bits), not from the decoder.  Then the other
 * fields of the word: SIGNED_COMP, SEL_*, GAMMA (8-bit and smaller only,
 * before filtering), YUV_TO_RGB, SWAP_YUV, and TX_OFFSET.ENDIAN_SWAP.
 */
#include <math.h>
#include <string.h>

#include "test-3d.h"

#define SEL_ID      (3u << 9 | 0u << 12 | 1u << 15 | 2u << 18)
#define SEL(r, g, b, a) ((a) << 9 | (r) << 12 | (g) << 15 | (b) << 18)
#define FILTER_POINT_CLAMP  (2 | 2u << 3 | 2u << 6 | 1u << 9 | 1u << 11)
#define FILTER_LINEAR_CLAMP (2 | 2u << 3 | 2u << 6 | 2u << 9 | 2u << 11)

/* Unit 0: fmt (bit 5: TXFORMAT_MSB) w x 1, f1 the rest of TX_FORMAT1. */
static void unit(TestHost *h, unsigned fmt, uint32_t f1, unsigned w,
                 uint32_t filter, unsigned endian)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, filter);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, w - 1);
    r500_reg_write(s, R_TX_FORMAT1, (fmt & 0x1F) | f1);
    r500_reg_write(s, R_TX_FORMAT2, (fmt >> 5) << 14);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX | endian);
    r500_tx_prepare(s);
}

/* Sample at texel coordinate (x, 0.5) of level 0 (unscaled), pixel 0. */
static void sample_at(TestHost *h, float x, float c[4])
{
    float coord[4][4], out[4][4];

    for (int p = 0; p < 4; p++) {
        coord[0][p] = x;
        coord[1][p] = 0.5f;
        coord[2][p] = 0.0f;
        coord[3][p] = 1.0f;
    }
    r500_tx_sample_quad(r500_pipe_begin(&h->chip), 0, R500_TEX_LD, true,
                        (const float (*)[4])coord, NULL, out);
    for (int ch = 0; ch < 4; ch++) {
        c[ch] = out[ch][0];
    }
}

static void put(TestHost *h, const void *bytes, unsigned n)
{
    memset(h->vram + T3D_TEX, 0, 64);
    memcpy(h->vram + T3D_TEX, bytes, n);
}

static void expect(const float c[4], float r, float g, float b, float a)
{
    const float want[4] = { r, g, b, a };

    for (int i = 0; i < 4; i++) {
        g_assert_cmpfloat_with_epsilon(c[i], want[i], 1e-6f);
    }
}

/* Sample texel x of a texture holding bytes, format fmt, SEL identity. */
static void fmt_texel(TestHost *h, unsigned fmt, uint32_t f1,
                      const void *bytes, unsigned n, unsigned x, float c[4])
{
    put(h, bytes, n);
    unit(h, fmt, SEL_ID | f1, 4, FILTER_POINT_CLAMP, 0);
    g_assert_true(h->chip.tx.unit[0].valid);
    sample_at(h, x + 0.5f, c);
}

/* The uncompressed RGB(A) formats 0x00-0x0E, one texel each. */
static void test_plain_formats(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];

    fmt_texel(h, 0x00, 0, (uint8_t[]){ 0x80 }, 1, 0, c);
    expect(c, 128 / 255.0f, 0, 0, 0);
    fmt_texel(h, 0x01, 0, (uint8_t[]){ 0x00, 0x80 }, 2, 0, c);
    expect(c, 32768 / 65535.0f, 0, 0, 0);
    /* 4_4: c0 [3:0], c1 [7:4] */
    fmt_texel(h, 0x02, 0, (uint8_t[]){ 0x3C }, 1, 0, c);
    expect(c, 12 / 15.0f, 3 / 15.0f, 0, 0);
    fmt_texel(h, 0x03, 0, (uint8_t[]){ 0x11, 0xEE }, 2, 0, c);
    expect(c, 17 / 255.0f, 238 / 255.0f, 0, 0);
    fmt_texel(h, 0x04, 0, (uint8_t[]){ 1, 0, 0xFF, 0xFF }, 4, 0, c);
    expect(c, 1 / 65535.0f, 1, 0, 0);
    /* 3_3_2: 101 011 10 -> c0 [1:0] = 2, c1 [4:2] = 3, c2 [7:5] = 5 */
    fmt_texel(h, 0x05, 0, (uint8_t[]){ 0xAE }, 1, 0, c);
    expect(c, 2 / 3.0f, 3 / 7.0f, 5 / 7.0f, 0);
    /* 5_6_5: 0x07E1 -> c0 [4:0] = 1, c1 [10:5] = 63, c2 = 0 */
    fmt_texel(h, 0x06, 0, (uint8_t[]){ 0xE1, 0x07 }, 2, 0, c);
    expect(c, 1 / 31.0f, 1, 0, 0);
    /* 6_5_5: c0 [4:0] = 2, c1 [9:5] = 3, c2 [15:10] = 63 -> 0xFC62 */
    fmt_texel(h, 0x07, 0, (uint8_t[]){ 0x62, 0xFC }, 2, 0, c);
    expect(c, 2 / 31.0f, 3 / 31.0f, 1, 0);
    /* 11_11_10: c0 [9:0] = 1023, c1 [20:10] = 1, c2 [31:21] = 2047 */
    {
        uint32_t v = 1023 | 1u << 10 | 2047u << 21;

        fmt_texel(h, 0x08, 0, &v, 4, 0, c);
        expect(c, 1, 1 / 2047.0f, 1, 0);
    }
    /* 10_11_11: c0 [10:0] = 2047, c1 [21:11] = 0, c2 [31:22] = 512 */
    {
        uint32_t v = 2047 | 512u << 22;

        fmt_texel(h, 0x09, 0, &v, 4, 0, c);
        expect(c, 1, 0, 512 / 1023.0f, 0);
    }
    /* 4_4_4_4: 0x1234 -> 4, 3, 2, 1 */
    fmt_texel(h, 0x0A, 0, (uint8_t[]){ 0x34, 0x12 }, 2, 0, c);
    expect(c, 4 / 15.0f, 3 / 15.0f, 2 / 15.0f, 1 / 15.0f);
    /* 1_5_5_5: c0 = 1, c1 = 0, c2 [14:10] = 31, c3 [15] = 1 */
    fmt_texel(h, 0x0B, 0, (uint8_t[]){ 0x01, 0xFC }, 2, 0, c);
    expect(c, 1 / 31.0f, 0, 1, 1);
    fmt_texel(h, 0x0C, 0, (uint8_t[]){ 10, 20, 30, 40 }, 4, 0, c);
    expect(c, 10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f);
    /* 2_10_10_10: 1, 1023, 0, 2 */
    {
        uint32_t v = 1 | 1023u << 10 | 2u << 30;

        fmt_texel(h, 0x0D, 0, &v, 4, 0, c);
        expect(c, 1 / 1023.0f, 1, 0, 2 / 3.0f);
    }
    {
        uint16_t v[4] = { 0, 65535, 32768, 1 };

        fmt_texel(h, 0x0E, 0, v, 8, 0, c);
        expect(c, 0, 1, 32768 / 65535.0f, 1 / 65535.0f);
    }
    g_assert_cmpuint(h->chip.unimp_events, ==, 0);
    test_host_free(h);
}

/* The float formats 0x18-0x1D and 24_8 (MSB + 6). */
static void test_float_formats(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];

    fmt_texel(h, 0x18, 0, (uint16_t[]){ 0x3C00 }, 2, 0, c);
    expect(c, 1.0f, 0, 0, 0);
    fmt_texel(h, 0x19, 0, (uint16_t[]){ 0xC000, 0x3800 }, 4, 0, c);
    expect(c, -2.0f, 0.5f, 0, 0);
    /* 1, -1, 0.25, 65504 (the largest half) */
    fmt_texel(h, 0x1A, 0, (uint16_t[]){ 0x3C00, 0xBC00, 0x3400, 0x7BFF }, 8,
              0, c);
    g_assert_cmpfloat(c[0], ==, 1.0f);
    g_assert_cmpfloat(c[1], ==, -1.0f);
    g_assert_cmpfloat(c[2], ==, 0.25f);
    g_assert_cmpfloat(c[3], ==, 65504.0f);
    fmt_texel(h, 0x1B, 0, (float[]){ 1.5f }, 4, 0, c);
    expect(c, 1.5f, 0, 0, 0);
    fmt_texel(h, 0x1C, 0, (float[]){ -3.0f, 0.125f }, 8, 0, c);
    expect(c, -3.0f, 0.125f, 0, 0);
    fmt_texel(h, 0x1D, 0, (float[]){ 1, 2, 3, 4 }, 16, 0, c);
    expect(c, 1, 2, 3, 4);
    /* 24_8: depth [31:8] in component 0, [7:0] in component 1 */
    fmt_texel(h, 0x26, 0, (uint32_t[]){ 0xFFFFFF80u }, 4, 0, c);
    expect(c, 1.0f, 128 / 255.0f, 0, 0);
    test_host_free(h);
}

/* DXT1/3/5 (0x0F-0x11), ATI1N (MSB + 5) and ATI2N (0x1F), unsigned. */
static void test_block_formats(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];
    /* DXT1: c0 white, c1 black; texel 0 index 0, texel 1 index 1 */
    const uint8_t dxt1[8] = { 0xFF, 0xFF, 0x00, 0x00, 0x04, 0, 0, 0 };
    /* DXT3: alpha nibble 7 for texel 0; colour c0 red (0xF800) */
    const uint8_t dxt3[16] = { 0x07, 0, 0, 0, 0, 0, 0, 0,
                               0x00, 0xF8, 0x00, 0x00, 0, 0, 0, 0 };
    /* DXT5: alpha a0 = 255, a1 = 0, texel 0 index 0; colour blue */
    const uint8_t dxt5[16] = { 0xFF, 0x00, 0, 0, 0, 0, 0, 0,
                               0x1F, 0x00, 0x00, 0x00, 0, 0, 0, 0 };
    /* BC4 blocks: texel 0 index 0 (a0), texel 1 index 1 (a1) */
    const uint8_t bc4[16] = { 0x40, 0xC0, 0x08, 0, 0, 0, 0, 0,
                              0x80, 0x20, 0x08, 0, 0, 0, 0, 0 };

    fmt_texel(h, 0x0F, 0, dxt1, 8, 0, c);
    expect(c, 1, 1, 1, 1);
    fmt_texel(h, 0x0F, 0, dxt1, 8, 1, c);
    expect(c, 0, 0, 0, 1);
    fmt_texel(h, 0x10, 0, dxt3, 16, 0, c);
    expect(c, 1, 0, 0, 7 / 15.0f);
    fmt_texel(h, 0x11, 0, dxt5, 16, 0, c);
    expect(c, 0, 0, 1, 1);
    fmt_texel(h, 0x25, 0, bc4, 8, 0, c);
    expect(c, 0x40 / 255.0f, 0, 0, 0);
    fmt_texel(h, 0x25, 0, bc4, 8, 1, c);
    expect(c, 0xC0 / 255.0f, 0, 0, 0);
    fmt_texel(h, 0x1F, 0, bc4, 16, 0, c);
    expect(c, 0x40 / 255.0f, 0x80 / 255.0f, 0, 0);
    test_host_free(h);
}

/*
 * SIGNED_COMP on ATI1N/ATI2N (Mesa sets it for signed RGTC/LATC): BC4
 * SNORM, endpoints two's complement / 127, -128 as -1, and the six-value
 * mode's codes 6 and 7 are -1 and +1.  And on 8_8_8_8.
 */
static void test_signed(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];
    /* a0 = 0x40 (64) > a1 = 0xC0 (-64): texel 0 a0, texel 1 a1,
     * texel 2 index 2: (6 * 64 + 1 * -64) / 7 */
    const uint8_t bc4[16] = { 0x40, 0xC0, 0x08 | 0x02 << 6, 0, 0, 0, 0, 0,
                              0x80, 0x20, 0x08, 0, 0, 0, 0, 0 };
    /* six-value mode: a0 = -100 <= a1 = 100; texels 0-3 codes 6, 7, 0, 1 */
    const uint8_t six[8] = { 0x9C, 0x64, 0x3E, 0x02, 0, 0, 0, 0 };

    fmt_texel(h, 0x25, 1u << 5, bc4, 8, 0, c);
    expect(c, 64 / 127.0f, 0, 0, 0);
    fmt_texel(h, 0x25, 1u << 5, bc4, 8, 1, c);
    expect(c, -64 / 127.0f, 0, 0, 0);
    fmt_texel(h, 0x25, 1u << 5, bc4, 8, 2, c);
    expect(c, (6 * 64 - 64) / (7 * 127.0f), 0, 0, 0);
    fmt_texel(h, 0x25, 1u << 5, six, 8, 0, c);
    expect(c, -1.0f, 0, 0, 0);
    fmt_texel(h, 0x25, 1u << 5, six, 8, 1, c);
    expect(c, 1.0f, 0, 0, 0);
    fmt_texel(h, 0x25, 1u << 5, six, 8, 2, c);
    expect(c, -100 / 127.0f, 0, 0, 0);
    /*
     * An interpolated value below 0: a0 = -26 <= a1 = 52 (six values),
     * texel 0 code 2: (4 * -26 + 1 * 52) / 5 (Mesa's tex_rgtc1_snorm
     * found it: the weights were unsigned)
     */
    fmt_texel(h, 0x25, 1u << 5, (uint8_t[]){ 0xE6, 0x34, 0x02, 0, 0, 0, 0, 0 },
              8, 0, c);
    expect(c, (4 * -26 + 52) / (5 * 127.0f), 0, 0, 0);
    /* ATI2N: both components signed; the second block's a0 is -128 */
    fmt_texel(h, 0x1F, 3u << 5, bc4, 16, 0, c);
    expect(c, 64 / 127.0f, -1.0f, 0, 0);
    /* only component 1 signed */
    fmt_texel(h, 0x1F, 2u << 5, bc4, 16, 0, c);
    expect(c, 64 / 255.0f, -1.0f, 0, 0);
    /* 8_8_8_8 signed: 127, -127, -128 (-> -1), 0 */
    fmt_texel(h, 0x0C, 0xFu << 5, (uint8_t[]){ 0x7F, 0x81, 0x80, 0x00 }, 4,
              0, c);
    expect(c, 1, -1, -1, 0);
    test_host_free(h);
}

/*
 * Y8 (0x12, seed 003 — not CxV8U8) and the YUV formats: AVYU444 (0x13),
 * VYUY422 (0x14), YVYU422 (0x15) decode to (U, Y, V, A); SEL_* and
 * SIGNED_COMP are ignored for them (seed 003), so scrambled selects and
 * sign bits change nothing.
 */
static void test_yuv_formats(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    /* OR-ed with SEL_ID: selects 4, 5, 6, 7 (constants), all signed */
    const uint32_t junk = SEL(4, 4, 4, 4) | 0xFu << 5;
    const uint8_t pair[4] = { 0x11, 0x22, 0x33, 0x44 };
    float c[4];

    /* Y8: one byte per texel; texel 1 is the second byte */
    fmt_texel(h, 0x12, 0, (uint8_t[]){ 0x40, 0xC0 }, 2, 1, c);
    expect(c, 0xC0 / 255.0f, 0xC0 / 255.0f, 0xC0 / 255.0f, 1);
    /* AVYU444: U byte 0, Y 1, V 2, A 3 */
    fmt_texel(h, 0x13, junk, (uint8_t[]){ 0x10, 0x20, 0x30, 0x40 }, 4, 0, c);
    expect(c, 0x10 / 255.0f, 0x20 / 255.0f, 0x30 / 255.0f, 0x40 / 255.0f);
    /* VYUY422, memory Y0 U Y1 V */
    fmt_texel(h, 0x14, junk, pair, 4, 0, c);
    expect(c, 0x22 / 255.0f, 0x11 / 255.0f, 0x44 / 255.0f, 1);
    fmt_texel(h, 0x14, junk, pair, 4, 1, c);
    expect(c, 0x22 / 255.0f, 0x33 / 255.0f, 0x44 / 255.0f, 1);
    /* YVYU422, memory U Y0 V Y1 */
    fmt_texel(h, 0x15, junk, pair, 4, 0, c);
    expect(c, 0x11 / 255.0f, 0x22 / 255.0f, 0x33 / 255.0f, 1);
    fmt_texel(h, 0x15, junk, pair, 4, 1, c);
    expect(c, 0x11 / 255.0f, 0x44 / 255.0f, 0x33 / 255.0f, 1);
    g_assert_cmpuint(h->chip.unimp_events, ==, 0);
    test_host_free(h);
}

/*
 * YUV_TO_RGB (BT.601, studio range; docs/3d.md): white (235, 128, 128),
 * black (16, 128, 128), red (81, 90, 240) as BT.601 defines it; Y 255 is
 * (255 - 16) / 219 > 1, clamped in mode 1 only.  SWAP_YUV inverts bit 7
 * of U and V (seed 003).
 */
static void test_yuv_to_rgb(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];

    fmt_texel(h, 0x13, 1u << 22, (uint8_t[]){ 128, 235, 128, 255 }, 4, 0, c);
    expect(c, 1, 1, 1, 1);
    fmt_texel(h, 0x13, 1u << 22, (uint8_t[]){ 128, 16, 128, 255 }, 4, 0, c);
    expect(c, 0, 0, 0, 1);
    fmt_texel(h, 0x13, 2u << 22, (uint8_t[]){ 90, 81, 240, 255 }, 4, 0, c);
    g_assert_cmpfloat_with_epsilon(c[0], 1.0f, 0.01f);
    g_assert_cmpfloat_with_epsilon(c[1], 0.0f, 0.01f);
    g_assert_cmpfloat_with_epsilon(c[2], 0.0f, 0.01f);
    fmt_texel(h, 0x14, 1u << 22, (uint8_t[]){ 255, 128, 16, 128 }, 4, 0, c);
    expect(c, 1, 1, 1, 1);
    fmt_texel(h, 0x14, 2u << 22, (uint8_t[]){ 255, 128, 16, 128 }, 4, 0, c);
    expect(c, 239 / 219.0f, 239 / 219.0f, 239 / 219.0f, 1);
    fmt_texel(h, 0x14, 2u << 22, (uint8_t[]){ 255, 128, 16, 128 }, 4, 1, c);
    expect(c, 0, 0, 0, 1);
    /* SWAP_YUV: U 0x00 and V 0xFF read as 0x80 and 0x7F */
    fmt_texel(h, 0x13, 1u << 24, (uint8_t[]){ 0x00, 0x20, 0xFF, 0x40 }, 4, 0,
              c);
    expect(c, 0x80 / 255.0f, 0x20 / 255.0f, 0x7F / 255.0f, 0x40 / 255.0f);
    fmt_texel(h, 0x15, 1u << 24, (uint8_t[]){ 0x00, 0x20, 0xFF, 0x40 }, 4, 1,
              c);
    expect(c, 0x80 / 255.0f, 0x40 / 255.0f, 0x7F / 255.0f, 1);
    test_host_free(h);
}

/*
 * The codes no source describes (docs/3d.md): the MPEG formats, W24_FP,
 * 1, 1_REVERSE, 10, 10_10, 10_10_10_10.  They sample as 0 and are
 * reported once as unimplemented.
 */
static void test_unmodelled_formats(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const unsigned codes[] = { 0x16, 0x17, 0x1E, 0x20, 0x21, 0x22, 0x23,
                               0x24 };
    float c[4];

    for (unsigned i = 0; i < G_N_ELEMENTS(codes); i++) {
        put(h, (uint8_t[]){ 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
            8);
        unit(h, codes[i], SEL_ID, 4, FILTER_POINT_CLAMP, 0);
        g_assert_false(h->chip.tx.unit[0].valid);
        sample_at(h, 0.5f, c);
        expect(c, 0, 0, 0, 0);
    }
    g_assert_cmpuint(h->chip.unimp_events, ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "format 0x16 is not modelled"),
                     ==, 1);
    test_host_free(h);
}

/* SEL_RED/GREEN/BLUE/ALPHA: components 0-3, 4 the value 0, 5 the value 1 */
static void test_selects(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const uint8_t t[4] = { 10, 20, 30, 40 };
    float c[4];

    put(h, t, 4);
    unit(h, 0x0C, SEL(3, 2, 1, 0), 4, FILTER_POINT_CLAMP, 0);
    sample_at(h, 0.5f, c);
    expect(c, 40 / 255.0f, 30 / 255.0f, 20 / 255.0f, 10 / 255.0f);
    unit(h, 0x0C, SEL(4, 5, 0, 4), 4, FILTER_POINT_CLAMP, 0);
    sample_at(h, 0.5f, c);
    expect(c, 0, 1, 10 / 255.0f, 0);
    test_host_free(h);
}

static float srgb(float v)
{
    /* IEC 61966-2-1 decoding */
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

/*
 * GAMMA (seed 003: "remove gamma ... only apply to 8bit or less
 * components"): colour components of 8_8_8_8 linearised, alpha not; a
 * 16-bit and a float format untouched; 2_10_10_10's 10-bit colour not.
 * Removal happens before filtering: halfway between black and white is
 * 0.5 linear, not the linearised 0.5 (0.214).
 */
static void test_gamma(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const uint32_t gamma = 1u << 21;
    float c[4];

    fmt_texel(h, 0x0C, gamma, (uint8_t[]){ 0x80, 0x40, 0xFF, 0x80 }, 4, 0,
              c);
    expect(c, srgb(128 / 255.0f), srgb(64 / 255.0f), 1.0f, 128 / 255.0f);
    fmt_texel(h, 0x0E, gamma, (uint16_t[]){ 0x8000, 0, 0, 0 }, 8, 0, c);
    expect(c, 32768 / 65535.0f, 0, 0, 0);
    fmt_texel(h, 0x1B, gamma, (float[]){ 0.5f }, 4, 0, c);
    expect(c, 0.5f, 0, 0, 0);
    {
        uint32_t v = 512 | 2u << 30;

        fmt_texel(h, 0x0D, gamma, &v, 4, 0, c);
        expect(c, 512 / 1023.0f, 0, 0, 2 / 3.0f);
    }
    /* 2 x 1, black and white, bilinear, sampled at the midpoint */
    put(h, (uint8_t[]){ 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF }, 8);
    unit(h, 0x0C, SEL_ID | gamma, 2, FILTER_LINEAR_CLAMP, 0);
    sample_at(h, 1.0f, c);
    expect(c, 0.5f, 0.5f, 0.5f, 0.5f);
    test_host_free(h);
}

/*
 * TX_OFFSET.ENDIAN_SWAP: 1 swaps bytes in 16-bit words, 2 bytes in 32-bit
 * words, 3 the 16-bit halves of 32-bit words (reference 5.1, as
 * COLORENDIAN).  Texel 1 of an 8-bit texture with a 16-bit swap is byte 0.
 */
static void test_endian_swap(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float c[4];

    put(h, (uint8_t[]){ 40, 30, 20, 10 }, 4);
    unit(h, 0x0C, SEL_ID, 4, FILTER_POINT_CLAMP, 2);
    sample_at(h, 0.5f, c);
    expect(c, 10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f);
    put(h, (uint8_t[]){ 30, 40, 10, 20 }, 4);
    unit(h, 0x0C, SEL_ID, 4, FILTER_POINT_CLAMP, 3);
    sample_at(h, 0.5f, c);
    expect(c, 10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f);
    /* 5_6_5 0x07E1 stored big-endian */
    put(h, (uint8_t[]){ 0x07, 0xE1 }, 2);
    unit(h, 0x06, SEL_ID, 4, FILTER_POINT_CLAMP, 1);
    sample_at(h, 0.5f, c);
    expect(c, 1 / 31.0f, 1, 0, 0);
    put(h, (uint8_t[]){ 0x11, 0x22 }, 2);
    unit(h, 0x00, SEL_ID, 4, FILTER_POINT_CLAMP, 1);
    sample_at(h, 1.5f, c);
    expect(c, 0x11 / 255.0f, 0, 0, 0);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tx/seed003/plain-formats", test_plain_formats);
    g_test_add_func("/tx/seed003/float-formats", test_float_formats);
    g_test_add_func("/tx/seed003/block-formats", test_block_formats);
    g_test_add_func("/tx/seed003/signed", test_signed);
    g_test_add_func("/tx/seed003/yuv-formats", test_yuv_formats);
    g_test_add_func("/tx/seed003/yuv-to-rgb", test_yuv_to_rgb);
    g_test_add_func("/tx/seed003/unmodelled-formats", test_unmodelled_formats);
    g_test_add_func("/tx/seed003/selects", test_selects);
    g_test_add_func("/tx/seed003/gamma", test_gamma);
    g_test_add_func("/tx/endian-swap", test_endian_swap);
    return g_test_run();
}
