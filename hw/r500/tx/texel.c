/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Texel decoding for the texture unit: the TX_FORMAT1 formats of seed 003
 * and r500-3d-pipeline.md table 5.2, to four float components numbered
 * from the least-significant bits, before the SEL_* swizzle.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "tx.h"

/*
 * Bytes, block, modelled, components of at most 8 bits (GAMMA applies to
 * those only, seed 003), Y/YUV (SIGNED_COMP and SEL_* ignored, seed 003).
 * Not modelled (sampled as 0, reported once): the two MPEG formats, whose
 * arithmetic is not documented; W24_FP, whose bit layout is not (open
 * question 18); the 1-bit and 10-bit formats of TXFORMAT_MSB, whose
 * storage (bits per texel, container, bit order) is not.
 */
static const R500TxFormatInfo formats[64] = {
    [R500_TXF_8] = { 1, false, true, 0x1 },
    [R500_TXF_16] = { 2, false, true, 0x0 },
    [R500_TXF_4_4] = { 1, false, true, 0x3 },
    [R500_TXF_8_8] = { 2, false, true, 0x3 },
    [R500_TXF_16_16] = { 4, false, true, 0x0 },
    [R500_TXF_3_3_2] = { 1, false, true, 0x7 },
    [R500_TXF_5_6_5] = { 2, false, true, 0x7 },
    [R500_TXF_6_5_5] = { 2, false, true, 0x7 },
    [R500_TXF_11_11_10] = { 4, false, true, 0x0 },
    [R500_TXF_10_11_11] = { 4, false, true, 0x0 },
    [R500_TXF_4_4_4_4] = { 2, false, true, 0xF },
    [R500_TXF_1_5_5_5] = { 2, false, true, 0xF },
    [R500_TXF_8_8_8_8] = { 4, false, true, 0xF },
    [R500_TXF_2_10_10_10] = { 4, false, true, 0x8 },
    [R500_TXF_16_16_16_16] = { 8, false, true, 0x0 },
    [R500_TXF_DXT1] = { 8, true, true, 0xF },
    [R500_TXF_DXT3] = { 16, true, true, 0xF },
    [R500_TXF_DXT5] = { 16, true, true, 0xF },
    [R500_TXF_Y8] = { 1, false, true, 0xF, true },
    [R500_TXF_AVYU444] = { 4, false, true, 0xF, true },
    [R500_TXF_VYUY422] = { 2, false, true, 0xF, true },
    [R500_TXF_YVYU422] = { 2, false, true, 0xF, true },
    [R500_TXF_16_MPEG] = { 2, false, false },
    [R500_TXF_16_16_MPEG] = { 4, false, false },
    [R500_TXF_16F] = { 2, false, true, 0x0 },
    [R500_TXF_16F_16F] = { 4, false, true, 0x0 },
    [R500_TXF_16F_16F_16F_16F] = { 8, false, true, 0x0 },
    [R500_TXF_32F] = { 4, false, true, 0x0 },
    [R500_TXF_32F_32F] = { 8, false, true, 0x0 },
    [R500_TXF_32F_32F_32F_32F] = { 16, false, true, 0x0 },
    [R500_TXF_W24_FP] = { 4, false, false },
    [R500_TXF_ATI2N] = { 16, true, true, 0x3 },
    [R500_TXF_1] = { 1, false, false },
    [R500_TXF_1_REVERSE] = { 1, false, false },
    [R500_TXF_10] = { 2, false, false },
    [R500_TXF_10_10] = { 4, false, false },
    [R500_TXF_10_10_10_10] = { 8, false, false },
    [R500_TXF_ATI1N] = { 8, true, true, 0x1 },
    [R500_TXF_24_8] = { 4, false, true, 0x2 },
};

const R500TxFormatInfo *r500_tx_format_info(unsigned fmt)
{
    return fmt < 64 && formats[fmt].bytes ? &formats[fmt] : NULL;
}

static float half_float(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    float v = e == 0 ? ldexpf(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                : ldexpf(m | 0x400, e - 25);

    return (h & 0x8000) ? -v : v;
}

/* An n-bit field as unsigned or signed normalised (5.2 "Value conversion"). */
static float unorm(uint32_t v, unsigned n, bool is_signed, bool pow2fix)
{
    uint32_t mask = (1u << n) - 1;

    v &= mask;
    if (is_signed) {
        int32_t sv = (int32_t)(v << (32 - n)) >> (32 - n);
        float f = sv / (float)((1u << (n - 1)) - 1);

        return f < -1.0f ? -1.0f : f;
    }
    if (pow2fix && n == 8) {
        return v / 256.0f;
    }
    return v / (float)mask;
}

static uint32_t le32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return GUINT32_FROM_LE(v);
}

static uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

/* Packed fields: widths listed from component 0 (the lowest bits). */
static void packed(uint32_t v, const uint8_t *w, unsigned n, uint8_t sign,
                   bool pow2fix, float c[4])
{
    unsigned shift = 0;

    for (unsigned i = 0; i < n; i++) {
        c[i] = unorm(v >> shift, w[i], (sign >> i) & 1, pow2fix);
        shift += w[i];
    }
}

/* ---- Compressed blocks (S3TC, BC4/BC5) ---- */

static void rgb565(uint16_t v, float c[3])
{
    c[0] = ((v >> 11) & 31) / 31.0f;
    c[1] = ((v >> 5) & 63) / 63.0f;
    c[2] = (v & 31) / 31.0f;
}

/* The colour block of DXT1/3/5: c[] gets R, G, B, A of texel (x, y). */
static void dxt_colour(const uint8_t *b, unsigned x, unsigned y, bool dxt1,
                       float c[4])
{
    uint16_t c0 = le16(b), c1 = le16(b + 2);
    unsigned idx = (le32(b + 4) >> (2 * (4 * y + x))) & 3;
    float e0[3], e1[3];

    rgb565(c0, e0);
    rgb565(c1, e1);
    c[3] = 1.0f;
    for (int i = 0; i < 3; i++) {
        switch (idx) {
        case 0:
            c[i] = e0[i];
            break;
        case 1:
            c[i] = e1[i];
            break;
        case 2:
            c[i] = (c0 > c1 || !dxt1) ? (2 * e0[i] + e1[i]) / 3.0f
                                      : (e0[i] + e1[i]) / 2.0f;
            break;
        default:
            if (c0 > c1 || !dxt1) {
                c[i] = (e0[i] + 2 * e1[i]) / 3.0f;
            } else {
                c[i] = 0.0f;
                c[3] = 0.0f;
            }
            break;
        }
    }
}

/*
 * An interpolated 8-bit channel block (DXT5 alpha, BC4).  Signed (BC4
 * SNORM, what SIGNED_COMP asks of ATI1N/ATI2N): the endpoints are two's
 * complement, -128 and -127 both -1, and the six-value mode's extra codes
 * are -1 and 1 (the BC4 definition).
 */
static float bc4_channel(const uint8_t *b, unsigned x, unsigned y,
                         bool is_signed)
{
    int a0 = is_signed ? (int8_t)b[0] : b[0];
    int a1 = is_signed ? (int8_t)b[1] : b[1];
    float scale = is_signed ? 127.0f : 255.0f, v;
    unsigned bit = 3 * (4 * y + x);
    uint64_t bits = 0;
    int idx;        /* signed: the weights multiply negative endpoints */

    if (is_signed) {
        a0 = MAX(a0, -127);
        a1 = MAX(a1, -127);
    }
    for (int i = 0; i < 6; i++) {
        bits |= (uint64_t)b[2 + i] << (8 * i);
    }
    idx = (bits >> bit) & 7;
    if (idx == 0) {
        return a0 / scale;
    }
    if (idx == 1) {
        return a1 / scale;
    }
    if (a0 > a1) {
        return ((8 - idx) * a0 + (idx - 1) * a1) / (7.0f * scale);
    }
    if (idx == 6) {
        return is_signed ? -1.0f : 0.0f;
    }
    if (idx == 7) {
        return 1.0f;
    }
    v = ((6 - idx) * a0 + (idx - 1) * a1) / (5.0f * scale);
    return v;
}

float r500_tx_srgb_to_linear(float v)
{
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

void r500_tx_yuv_to_rgb(float c[4], bool clamp)
{
    float y = (c[1] * 255.0f - 16.0f) / 219.0f;
    float u = (c[0] * 255.0f - 128.0f) / 224.0f;
    float v = (c[2] * 255.0f - 128.0f) / 224.0f;

    /* Kr = 0.299, Kb = 0.114: R = Y + 1.402 V', B = Y + 1.772 U' */
    c[0] = y + 1.402f * v;
    c[1] = y - (0.114f * 1.772f / 0.587f) * u - (0.299f * 1.402f / 0.587f) * v;
    c[2] = y + 1.772f * u;
    if (clamp) {
        for (int i = 0; i < 3; i++) {
            c[i] = c[i] > 1.0f ? 1.0f : c[i] > 0.0f ? c[i] : 0.0f;
        }
    }
}

void r500_tx_decode(unsigned fmt, const uint8_t *p, unsigned x, unsigned y,
                    uint8_t sign, bool pow2fix, float c[4])
{
    static const uint8_t w44[] = { 4, 4 }, w332[] = { 2, 3, 3 },
        w565[] = { 5, 6, 5 }, w655[] = { 5, 5, 6 }, w11[] = { 10, 11, 11 },
        w1011[] = { 11, 11, 10 }, w4444[] = { 4, 4, 4, 4 },
        w1555[] = { 5, 5, 5, 1 }, w8888[] = { 8, 8, 8, 8 },
        w2101010[] = { 10, 10, 10, 2 };

    c[0] = c[1] = c[2] = c[3] = 0.0f;
    x &= 3;
    y &= 3;
    switch (fmt) {
    case R500_TXF_8:
        c[0] = unorm(p[0], 8, sign & 1, pow2fix);
        break;
    case R500_TXF_16:
        c[0] = unorm(le16(p), 16, sign & 1, false);
        break;
    case R500_TXF_4_4:
        packed(p[0], w44, 2, sign, false, c);
        break;
    case R500_TXF_8_8:
        c[0] = unorm(p[0], 8, sign & 1, pow2fix);
        c[1] = unorm(p[1], 8, sign & 2, pow2fix);
        break;
    case R500_TXF_16_16:
        c[0] = unorm(le16(p), 16, sign & 1, false);
        c[1] = unorm(le16(p + 2), 16, sign & 2, false);
        break;
    case R500_TXF_3_3_2:
        packed(p[0], w332, 3, sign, false, c);
        break;
    case R500_TXF_5_6_5:
        packed(le16(p), w565, 3, sign, false, c);
        break;
    case R500_TXF_6_5_5:
        packed(le16(p), w655, 3, sign, false, c);
        break;
    case R500_TXF_11_11_10:
        packed(le32(p), w11, 3, sign, false, c);
        break;
    case R500_TXF_10_11_11:
        packed(le32(p), w1011, 3, sign, false, c);
        break;
    case R500_TXF_4_4_4_4:
        packed(le16(p), w4444, 4, sign, false, c);
        break;
    case R500_TXF_1_5_5_5:
        packed(le16(p), w1555, 4, sign, false, c);
        break;
    case R500_TXF_8_8_8_8:
        if (!sign && !pow2fix) {
            /* the common case, as packed() computes it */
            for (int i = 0; i < 4; i++) {
                c[i] = p[i] / 255.0f;
            }
            break;
        }
        packed(le32(p), w8888, 4, sign, pow2fix, c);
        break;
    case R500_TXF_2_10_10_10:
        packed(le32(p), w2101010, 4, sign, false, c);
        break;
    case R500_TXF_16_16_16_16:
        for (int i = 0; i < 4; i++) {
            c[i] = unorm(le16(p + 2 * i), 16, (sign >> i) & 1, false);
        }
        break;
    case R500_TXF_Y8:
        /*
         * Seed 003 names 0x12 Y8 (Mesa's and the kernel's headers call it
         * CxV8U8; the seed is binding).  Luminance only: Y in the colour
         * components, alpha 1 (assumed; with no chroma YUV_TO_RGB is not
         * applied).
         */
        c[0] = c[1] = c[2] = p[0] / 255.0f;
        c[3] = 1.0f;
        break;
    case R500_TXF_AVYU444:
        /* A V Y U from the most significant byte: U byte 0 ... A byte 3 */
        for (int i = 0; i < 4; i++) {
            c[i] = p[i] / 255.0f;
        }
        break;
    case R500_TXF_VYUY422:
        /* V Y1 U Y0 from the top (memory Y0 U Y1 V): texel x & 1's Y */
        c[0] = p[1] / 255.0f;
        c[1] = p[(x & 1) * 2] / 255.0f;
        c[2] = p[3] / 255.0f;
        c[3] = 1.0f;
        break;
    case R500_TXF_YVYU422:
        /* Y1 V Y0 U from the top (memory U Y0 V Y1) */
        c[0] = p[0] / 255.0f;
        c[1] = p[1 + (x & 1) * 2] / 255.0f;
        c[2] = p[2] / 255.0f;
        c[3] = 1.0f;
        break;
    case R500_TXF_16F:
        c[0] = half_float(le16(p));
        break;
    case R500_TXF_16F_16F:
        c[0] = half_float(le16(p));
        c[1] = half_float(le16(p + 2));
        break;
    case R500_TXF_16F_16F_16F_16F:
        for (int i = 0; i < 4; i++) {
            c[i] = half_float(le16(p + 2 * i));
        }
        break;
    case R500_TXF_32F:
    case R500_TXF_32F_32F:
    case R500_TXF_32F_32F_32F_32F: {
        unsigned n = fmt == R500_TXF_32F ? 1 : fmt == R500_TXF_32F_32F ? 2 : 4;

        for (unsigned i = 0; i < n; i++) {
            uint32_t v = le32(p + 4 * i);
            memcpy(&c[i], &v, 4);
        }
        break;
    }
    case R500_TXF_24_8:
        /* depth [31:8] through component 0 (Mesa; open question 3) */
        c[0] = (le32(p) >> 8) / 16777215.0f;
        c[1] = (le32(p) & 0xFF) / 255.0f;
        break;
    case R500_TXF_DXT1:
        dxt_colour(p, x, y, true, c);
        break;
    case R500_TXF_DXT3:
        dxt_colour(p + 8, x, y, false, c);
        c[3] = ((le16(p + 2 * y) >> (4 * x)) & 15) / 15.0f;
        break;
    case R500_TXF_DXT5:
        dxt_colour(p + 8, x, y, false, c);
        c[3] = bc4_channel(p, x, y, false);
        break;
    case R500_TXF_ATI1N:
        c[0] = bc4_channel(p, x, y, sign & 1);
        break;
    case R500_TXF_ATI2N:
        /* component 0 from the first block (Mesa's RGTC2 red) */
        c[0] = bc4_channel(p, x, y, sign & 1);
        c[1] = bc4_channel(p + 8, x, y, sign & 2);
        break;
    default:
        break;
    }
}
