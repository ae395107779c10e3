/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TX: the texture units.  r500-3d-pipeline.md 2.10, 5; seed 003 (TX_FORMAT1);
 * docs/3d.md.
 *
 * tx.c      the block (reset), per-draw sampler set-up (formats, mip
 *           chain layout of 5.4, wrap modes, filters) and sampling for
 *           the US TEX instruction
 * texel.c   texel decoding: every TX_FORMAT1 format to four floats
 * tx_glsl.c a unit's sampling as GLSL, for the host-GL renderer
 * Surface addressing is mem/tiling.c, shared with every block.
 */
#ifndef HW_R500_TX_TX_H
#define HW_R500_TX_TX_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/tiling.h"

typedef struct R500Chip R500Chip;
typedef struct R500Worker R500Worker;

#define R500_TX_UNITS           16
#define R500_TX_LEVELS          13      /* NUM_LEVELS 0..12 */

/* TX_FORMAT1.TXFORMAT, with TXFORMAT_MSB as bit 5 (table 5.2). */
enum {
    R500_TXF_8 = 0x00, R500_TXF_16 = 0x01, R500_TXF_4_4 = 0x02,
    R500_TXF_8_8 = 0x03, R500_TXF_16_16 = 0x04, R500_TXF_3_3_2 = 0x05,
    R500_TXF_5_6_5 = 0x06, R500_TXF_6_5_5 = 0x07, R500_TXF_11_11_10 = 0x08,
    R500_TXF_10_11_11 = 0x09, R500_TXF_4_4_4_4 = 0x0A,
    R500_TXF_1_5_5_5 = 0x0B, R500_TXF_8_8_8_8 = 0x0C,
    R500_TXF_2_10_10_10 = 0x0D, R500_TXF_16_16_16_16 = 0x0E,
    R500_TXF_DXT1 = 0x0F, R500_TXF_DXT3 = 0x10, R500_TXF_DXT5 = 0x11,
    R500_TXF_Y8 = 0x12, R500_TXF_AVYU444 = 0x13,
    R500_TXF_VYUY422 = 0x14, R500_TXF_YVYU422 = 0x15,
    R500_TXF_16_MPEG = 0x16, R500_TXF_16_16_MPEG = 0x17,
    R500_TXF_16F = 0x18, R500_TXF_16F_16F = 0x19,
    R500_TXF_16F_16F_16F_16F = 0x1A, R500_TXF_32F = 0x1B,
    R500_TXF_32F_32F = 0x1C, R500_TXF_32F_32F_32F_32F = 0x1D,
    R500_TXF_W24_FP = 0x1E, R500_TXF_ATI2N = 0x1F,
    R500_TXF_1 = 0x20, R500_TXF_1_REVERSE = 0x21, R500_TXF_10 = 0x22,
    R500_TXF_10_10 = 0x23, R500_TXF_10_10_10_10 = 0x24,
    R500_TXF_ATI1N = 0x25, R500_TXF_24_8 = 0x26,
};

/* How a format is stored. */
typedef struct R500TxFormatInfo {
    uint8_t bytes;              /* per texel, or per 4x4 block */
    bool block;                 /* 4x4 compressed blocks */
    bool supported;
    uint8_t small;              /* components of 8 bits or less (GAMMA) */
    bool yuv;                   /* Y/YUV: SIGNED_COMP and SEL_* ignored */
} R500TxFormatInfo;

const R500TxFormatInfo *r500_tx_format_info(unsigned fmt);
/*
 * Decode one texel (or, for block formats, texel (x & 3, y & 3) of the
 * block at p; for the 4:2:2 formats, texel x & 1 of the pixel pair at p)
 * into components 0-3, before the SEL swizzle.  The YUV formats decode
 * to (U, Y, V, A); Y8 to (Y, Y, Y, 1).
 */
void r500_tx_decode(unsigned fmt, const uint8_t *p, unsigned x, unsigned y,
                    uint8_t sign, bool pow2fix, float c[4]);
/* The 4:2:2 formats: two texels share one 32-bit word. */
static inline bool r500_tx_fmt_pair(unsigned fmt)
{
    return fmt == R500_TXF_VYUY422 || fmt == R500_TXF_YVYU422;
}
/* sRGB to linear, the curve GAMMA removes (IEC 61966-2-1). */
float r500_tx_srgb_to_linear(float v);
/*
 * YUV_TO_RGB of (U, Y, V) in c[0..2], in place: ITU-R BT.601 with
 * studio-range Y (16-235) and chroma (16-240); clamped to [0, 1] when
 * clamp is set (mode 1).  The coefficients are the standard's, the
 * hardware's own are not documented (docs/3d.md).
 */
void r500_tx_yuv_to_rgb(float c[4], bool clamp);

typedef struct R500TxLevel {
    R500Surf surf;              /* base = the level's first layer */
    uint32_t w, h, d;
    uint64_t layer_bytes;       /* one cube face or 3D slice */
} R500TxLevel;

/* How a unit's texels are read (tx.c texel()). */
enum {
    R500_TX_FETCH_PLAIN,        /* one texel at its address */
    R500_TX_FETCH_BLOCK,        /* the 4x4 block holding it */
    R500_TX_FETCH_SPECIAL,      /* 4:2:2 pairs, ENDIAN_SWAP or SWAP_YUV */
};

typedef struct R500TxUnit {
    bool valid;                 /* enabled and usable */
    uint32_t fmt;
    const R500TxFormatInfo *info;
    uint8_t sign;               /* SIGNED_COMP */
    bool pow2fix, gamma;
    uint8_t gamma_mask;         /* components GAMMA linearises */
    uint8_t yuv_to_rgb;         /* YUV_TO_RGB: 0 off, 1 clamp, 2 no clamp */
    bool swap_yuv;              /* SWAP_YUV: U and V bit 7 inverted */
    uint8_t endian;             /* TX_OFFSET.ENDIAN_SWAP */
    uint8_t vol;                /* VOL_FILTER */
    uint8_t fetch;              /* R500_TX_FETCH_*: how a texel is read */
    bool finish;                /* DXTC swizzle, YUV_TO_RGB or GAMMA */
    uint8_t sel[4];             /* SEL_RED, GREEN, BLUE, ALPHA */
    uint8_t wrap[3];            /* CLAMP_S, T, R */
    uint8_t mag, min, mip;      /* filters */
    uint8_t coord_type;
    uint32_t first, last;       /* usable levels */
    float lod_bias;
    bool dxtc_swizzle;          /* swap components 0 and 2 (DXT1/3/5 only) */
    uint8_t id;                 /* TX_FILTER0.ID */
    float border[4];            /* decoded border colour, after SEL */
    R500TxLevel level[R500_TX_LEVELS];
    uint64_t chain_end;         /* MC address past the last level */
} R500TxUnit;

typedef struct R500Tx {
    R500TxUnit unit[R500_TX_UNITS];
    /* bit n: unit n's problem reported (r500_once: workers report too) */
    uint32_t logged;
    uint64_t samples;
} R500Tx;

/* US_TEX_INST.INST */
enum {
    R500_TEX_NOP = 0, R500_TEX_LD = 1, R500_TEX_KILL = 2, R500_TEX_PROJ = 3,
    R500_TEX_LODBIAS = 4, R500_TEX_LOD = 5, R500_TEX_DXDY = 6,
};

/* Latch TX_ENABLE and every enabled unit's registers for this draw. */
void r500_tx_prepare(R500Chip *s);
/*
 * Sample unit id (matched against TX_FILTER0.ID) for the four pixels of a
 * quad: coord[comp S/T/R/Q][pixel] -> out[channel R/G/B/A][pixel].  The
 * LOD comes from the quad's derivatives (LD, PROJ, LODBIAS with each
 * pixel's Q as its bias), from each pixel's Q (LOD), or from the
 * gradients grad[0] (d/dx) and grad[1] (d/dy), [comp][pixel] (DXDY; NULL
 * for the others).
 */
void r500_tx_sample_quad(R500Worker *w, unsigned id, unsigned op,
                         bool unscaled, const float coord[4][4],
                         const float (*grad)[4][4], float out[4][4]);

/*
 * The host-GL renderer's view of a unit: every texel of level l, layer by
 * layer (cube faces +X..-Z, 3D slices; layers() of them), row by row, as
 * four floats each: decoded and finished (YUV_TO_RGB, GAMMA, the DXTC
 * swizzle), before the SEL swizzle, exactly what sampling filters.  False
 * for an invalid unit or level.  rgba holds w * h * layers * 4 floats.
 */
unsigned r500_tx_layers(const R500TxUnit *t, unsigned l);
bool r500_tx_image(R500Worker *w, const R500TxUnit *t, unsigned l,
                   float *rgba);


#endif
