/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RB3D: the colour side of the 3D render backend, and the block that owns
 * the Hyper-Z RAMs.  Per draw: the colour buffers of RB3D_COLOROFFSET/
 * PITCH with the output formats of US_OUT_FMT (6.1, 6.2); per pixel: the
 * alpha test (FG_ALPHA_FUNC), depth and stencil (zb.c), then blending,
 * ROP and channel masks (2.11).  r500-3d-pipeline.md 2.11-2.12, 6.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../base/v4.h"
#include "../blocks.h"

/* Blend factors (RB3D_BLENDCNTL SRCBLEND/DESTBLEND; GL set and D3D set) */
enum {
    BF_ZERO = 32, BF_ONE = 33, BF_SRC_COLOR = 34, BF_ONE_MINUS_SRC_COLOR = 35,
    BF_DST_COLOR = 36, BF_ONE_MINUS_DST_COLOR = 37, BF_SRC_ALPHA = 38,
    BF_ONE_MINUS_SRC_ALPHA = 39, BF_DST_ALPHA = 40,
    BF_ONE_MINUS_DST_ALPHA = 41, BF_SRC_ALPHA_SATURATE = 42,
    BF_CONST_COLOR = 43, BF_ONE_MINUS_CONST_COLOR = 44,
    BF_CONST_ALPHA = 45, BF_ONE_MINUS_CONST_ALPHA = 46,
};

/* ---- Colour formats (table 6.1) ---- */

unsigned r500_rb3d_bytes(uint32_t cformat, uint32_t ofmt)
{
    switch (cformat) {
    case R500_CF_I8:
        return 1;
    case R500_CF_ARGB1555:
    case R500_CF_RGB565:
    case R500_CF_ARGB4444:
    case R500_CF_UV88:
        return 2;
    case R500_CF_ARGB8888:
    case R500_CF_ARGB2101010:
        return 4;
    case R500_CF_ARGB16161616:
        return 8;
    case R500_CF_ARGB32323232:
        return 16;
    default:
        return 0;
    }
}

/* [0, 1] (NaN: 0) to an unsigned bits-bit field, four lanes at a time */
static inline V4i to_unorm4(V4 v, unsigned bits)
{
    /*
     * Round to nearest even, as lrintf in the default rounding mode: below
     * 2^23, adding and taking away 2^23 leaves the rounded integer (and,
     * unlike lrintf, is inline on every host).
     */
    return __builtin_convertvector((clamp4(v) * (float)((1u << bits) - 1) +
                                    0x1p23f) - 0x1p23f, V4i);
}

static uint32_t to_unorm(float v, unsigned bits)
{
    return to_unorm4(splat(v), bits)[0];
}

static float from_unorm(uint32_t v, unsigned bits)
{
    return v / (float)((1u << bits) - 1);
}

/*
 * US_OUT_FMT.OUT_SIGN (reference 6.1): a signed component is clamped to
 * [-1, 1], scaled by 2^(n-1) - 1 and stored two's complement; read back,
 * the most negative code is -1 too (GL's SNORM rule).
 */
static uint32_t to_snorm(float v, unsigned bits)
{
    float max = (float)((1u << (bits - 1)) - 1);
    int32_t i;

    /* NaN: 0 */
    v = v > 1.0f ? 1.0f : v >= -1.0f ? v : v < -1.0f ? -1.0f : 0.0f;
    i = (int32_t)lrintf(v * max);
    return (uint32_t)i & ((1u << bits) - 1);
}

static float from_snorm(uint32_t v, unsigned bits)
{
    int32_t i = (int32_t)(v << (32 - bits)) >> (32 - bits);
    float f = i / (float)((1u << (bits - 1)) - 1);

    return f < -1.0f ? -1.0f : f;
}

static uint16_t to_half(float f)
{
    uint32_t x;
    uint32_t sign, e, m;

    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000;
    e = (x >> 23) & 0xFF;
    m = x & 0x7FFFFF;
    if (e == 0xFF) {
        return sign | 0x7C00 | (m ? 0x200 : 0);
    }
    if (e > 142) {
        return sign | 0x7C00;               /* overflow: infinity */
    }
    if (e < 113) {
        /* denormal or zero, round to nearest even */
        if (e < 102) {
            return sign;
        }
        m |= 0x800000;
        {
            unsigned shift = 126 - e;
            uint32_t h = m >> shift, rem = m & ((1u << shift) - 1);
            uint32_t half = 1u << (shift - 1);

            if (rem > half || (rem == half && (h & 1))) {
                h++;
            }
            return sign | h;
        }
    }
    {
        uint32_t h = ((e - 112) << 10) | (m >> 13), rem = m & 0x1FFF;

        if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) {
            h++;
        }
        return sign | h;
    }
}

static float from_half(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    float v = e == 0 ? ldexpf(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                : ldexpf(m | 0x400, e - 25);

    return (h & 0x8000) ? -v : v;
}

/*
 * How C0..C3 are stored for a COLORFORMAT / OUT_FMT pair (table 6.1): one
 * field per stored component, at a bit offset in the little-endian pixel
 * (R500ColorField, rb3d.h).
 */
enum { F_UNORM = R500_FIELD_UNORM, F_HALF = R500_FIELD_HALF,
       F_FLOAT = R500_FIELD_FLOAT };

typedef R500ColorField ColorField;

typedef struct R500ColorLayout {
    uint8_t cformat, ofmt;      /* ofmt 0xFF: any fixed-point C4 format */
    uint8_t n;
    ColorField f[4];
} ColorLayout;

#define ANY_C4 0xFF

static const ColorLayout layouts[] = {
    { R500_CF_ARGB8888, ANY_C4, 4,
      { { 0, 0, 8 }, { 1, 8, 8 }, { 2, 16, 8 }, { 3, 24, 8 } } },
    { R500_CF_ARGB2101010, ANY_C4, 4,
      { { 0, 0, 10 }, { 1, 10, 10 }, { 2, 20, 10 }, { 3, 30, 2 } } },
    { R500_CF_RGB565, ANY_C4, 3, { { 0, 0, 5 }, { 1, 5, 6 }, { 2, 11, 5 } } },
    { R500_CF_ARGB1555, ANY_C4, 4,
      { { 0, 0, 5 }, { 1, 5, 5 }, { 2, 10, 5 }, { 3, 15, 1 } } },
    { R500_CF_ARGB4444, ANY_C4, 4,
      { { 0, 0, 4 }, { 1, 4, 4 }, { 2, 8, 4 }, { 3, 12, 4 } } },
    /* UV88: C2 in the low byte, C0 in the high one */
    { R500_CF_UV88, ANY_C4, 2, { { 2, 0, 8 }, { 0, 8, 8 } } },
    { R500_CF_I8, ANY_C4, 1, { { 2, 0, 8 } } },
    { R500_CF_ARGB8888, R500_OF_C2_16, 2, { { 0, 0, 16 }, { 1, 16, 16 } } },
    { R500_CF_ARGB8888, R500_OF_C2_16_FP, 2,
      { { 0, 0, 16, F_HALF }, { 1, 16, 16, F_HALF } } },
    { R500_CF_ARGB8888, R500_OF_C_32_FP, 1, { { 0, 0, 32, F_FLOAT } } },
    { R500_CF_UV88, R500_OF_C_16, 1, { { 0, 0, 16 } } },
    { R500_CF_UV88, R500_OF_C_16_FP, 1, { { 0, 0, 16, F_HALF } } },
    { R500_CF_ARGB16161616, R500_OF_C4_16, 4,
      { { 0, 0, 16 }, { 1, 16, 16 }, { 2, 32, 16 }, { 3, 48, 16 } } },
    { R500_CF_ARGB16161616, R500_OF_C4_16_FP, 4,
      { { 0, 0, 16, F_HALF }, { 1, 16, 16, F_HALF }, { 2, 32, 16, F_HALF },
        { 3, 48, 16, F_HALF } } },
    /* RG32F: C0 = R, C2 = G */
    { R500_CF_ARGB16161616, R500_OF_C2_32_FP, 2,
      { { 0, 0, 32, F_FLOAT }, { 2, 32, 32, F_FLOAT } } },
    { R500_CF_ARGB32323232, R500_OF_C4_32_FP, 4,
      { { 0, 0, 32, F_FLOAT }, { 1, 32, 32, F_FLOAT }, { 2, 64, 32, F_FLOAT },
        { 3, 96, 32, F_FLOAT } } },
};

static const ColorLayout *color_layout(uint32_t cformat, uint32_t ofmt)
{
    bool c4 = ofmt == R500_OF_C4_8 || ofmt == R500_OF_C4_10 ||
              ofmt == R500_OF_C4_10_GAMMA;

    for (unsigned i = 0; i < G_N_ELEMENTS(layouts); i++) {
        const ColorLayout *l = &layouts[i];

        if (l->cformat == cformat &&
            (l->ofmt == ofmt || (l->ofmt == ANY_C4 && c4))) {
            return l;
        }
    }
    return NULL;
}

/* The bits of a field (at most 32, never straddling a dword). */
static uint32_t field_get(const uint8_t *p, const ColorField *f)
{
    uint32_t v;

    memcpy(&v, p + f->shift / 32 * 4, 4);
    v = GUINT32_FROM_LE(v) >> (f->shift % 32);
    return f->width == 32 ? v : v & ((1u << f->width) - 1);
}

static void field_put(uint8_t *p, const ColorField *f, uint32_t bits)
{
    uint32_t mask = (f->width == 32 ? 0xFFFFFFFFu : (1u << f->width) - 1)
                    << (f->shift % 32);
    uint32_t v;

    memcpy(&v, p + f->shift / 32 * 4, 4);
    v = (GUINT32_FROM_LE(v) & ~mask) | ((bits << (f->shift % 32)) & mask);
    v = GUINT32_TO_LE(v);
    memcpy(p + f->shift / 32 * 4, &v, 4);
}

/* Every field fixed point inside the first dword (the common formats). */
static bool layout_unorm32(const ColorLayout *l)
{
    for (unsigned i = 0; l && i < l->n; i++) {
        if (l->f[i].kind != F_UNORM || l->f[i].shift + l->f[i].width > 32) {
            return false;
        }
    }
    return l != NULL;
}

static void pack_layout(const ColorLayout *l, bool unorm32, unsigned sign,
                        unsigned bytes, const float c[4], uint8_t *p)
{
    uint8_t buf[16] = { 0 };

    if (unorm32) {
        uint32_t v = 0;

        for (unsigned i = 0; i < l->n; i++) {
            v |= to_unorm(c[l->f[i].comp], l->f[i].width) << l->f[i].shift;
        }
        for (unsigned i = 0; i < bytes; i++) {
            p[i] = v >> (8 * i);
        }
        return;
    }

    for (unsigned i = 0; l && i < l->n; i++) {
        const ColorField *f = &l->f[i];
        uint32_t bits;

        switch (f->kind) {
        case F_HALF:
            bits = to_half(c[f->comp]);
            break;
        case F_FLOAT:
            memcpy(&bits, &c[f->comp], 4);
            break;
        default:
            bits = (sign >> f->comp) & 1 ? to_snorm(c[f->comp], f->width)
                                         : to_unorm(c[f->comp], f->width);
            break;
        }
        field_put(buf, f, bits);
    }
    memcpy(p, buf, bytes);
}

/*
 * The one- and two-byte formats read back their bytes into the components
 * they do not store.  I8 is an intensity: its byte is every component.
 * UV88 (C2 low byte, C0 high byte): C0 is also C1 and C3.  Mesa relies on
 * it: for A8/L8/R8 and L8A8 targets it keeps DST_ALPHA blend factors as
 * they are, where for RGBX formats it rewrites them to ONE
 * (r300_create_blend_state), and for L8A8 its alpha is C0 (US_OUT_FMT
 * 0x1000, the blend constant's alpha in C0's slot).
 */
static inline void read_replicate(const ColorLayout *l, float c[4])
{
    if (l->cformat == R500_CF_I8) {
        c[0] = c[1] = c[3] = c[2];
    } else if (l->cformat == R500_CF_UV88 && l->n == 2) {
        c[1] = c[3] = c[0];
    }
}

bool r500_rb3d_replicates(const R500ColorTarget *t)
{
    const ColorLayout *l = t->layout;

    /* the formats read_replicate() fills in */
    return l && (l->cformat == R500_CF_I8 ||
                 (l->cformat == R500_CF_UV88 && l->n == 2));
}

unsigned r500_rb3d_fields(const R500ColorTarget *t, const R500ColorField **f)
{
    *f = t->layout ? t->layout->f : NULL;
    return t->layout ? t->layout->n : 0;
}

static void unpack_layout(const ColorLayout *l, bool unorm32, unsigned sign,
                          unsigned bytes, const uint8_t *p, float c[4])
{
    uint8_t buf[16] = { 0 };

    /* components a format does not store read as (0, 0, 0, 1) */
    c[0] = c[1] = c[2] = 0.0f;
    c[3] = 1.0f;
    if (unorm32) {
        uint32_t v = 0;

        for (unsigned i = 0; i < bytes; i++) {
            v |= (uint32_t)p[i] << (8 * i);
        }
        for (unsigned i = 0; i < l->n; i++) {
            const ColorField *f = &l->f[i];

            c[f->comp] = from_unorm((v >> f->shift) &
                                    ((1u << f->width) - 1), f->width);
        }
        read_replicate(l, c);
        return;
    }
    memcpy(buf, p, bytes);
    for (unsigned i = 0; l && i < l->n; i++) {
        const ColorField *f = &l->f[i];
        uint32_t bits = field_get(buf, f);

        switch (f->kind) {
        case F_HALF:
            c[f->comp] = from_half(bits);
            break;
        case F_FLOAT:
            memcpy(&c[f->comp], &bits, 4);
            break;
        default:
            c[f->comp] = (sign >> f->comp) & 1 ? from_snorm(bits, f->width)
                                               : from_unorm(bits, f->width);
            break;
        }
    }
    if (l) {
        read_replicate(l, c);
    }
}

/*
 * The fields of the components mask leaves alone keep their old bits in
 * p: a masked component is not written, where unpacking and packing it
 * again would turn a signed -128 into -127 and rewrite a NaN.
 */
static void keep_masked(const ColorLayout *l, unsigned mask, unsigned bytes,
                        const uint8_t *old, uint8_t *p)
{
    uint8_t o[16] = { 0 }, n[16] = { 0 };

    memcpy(o, old, bytes);
    memcpy(n, p, bytes);
    for (unsigned i = 0; i < l->n; i++) {
        if (!(mask >> l->f[i].comp & 1)) {
            field_put(n, &l->f[i], field_get(o, &l->f[i]));
        }
    }
    memcpy(p, n, bytes);
}

void r500_rb3d_pack(uint32_t cformat, uint32_t ofmt, const float c[4],
                    uint8_t *p)
{
    const ColorLayout *l = color_layout(cformat, ofmt);
    unsigned bytes = r500_rb3d_bytes(cformat, ofmt);

    pack_layout(l, bytes <= 4 && layout_unorm32(l), 0, bytes, c, p);
}

void r500_rb3d_unpack(uint32_t cformat, uint32_t ofmt, const uint8_t *p,
                      float c[4])
{
    const ColorLayout *l = color_layout(cformat, ofmt);
    unsigned bytes = r500_rb3d_bytes(cformat, ofmt);

    unpack_layout(l, bytes <= 4 && layout_unorm32(l), 0, bytes, p, c);
}

/* Whether the pair is one the formats above store. */
static bool format_ok(uint32_t cformat, uint32_t ofmt)
{
    return r500_rb3d_bytes(cformat, ofmt) && color_layout(cformat, ofmt);
}

static float reg_float(R500Chip *s, uint32_t reg)
{
    float f;

    memcpy(&f, &s->regs[reg / 4], 4);
    return f;
}

/*
 * Colour target i of the draw (RB3D_COLORPITCH/OFFSET, US_OUT_FMT, the
 * channel masks): enabled only when its format, pitch and tiling can be
 * written.
 */
static void prepare_target(R500Chip *s, int i, uint32_t cctl, uint32_t cmask)
{
    R500Rb3d *rb = &s->rb3d;
    unsigned multi = R500_FGET(cctl, RB3D_CCTL, NUM_MULTIWRITES);
    bool indep_fmt = R500_FGET(cctl, RB3D_CCTL,
                               INDEPENDENT_COLORFORMAT_ENABLE);
    bool indep_mask = (cctl >> 12) & 1;
    static const uint8_t sel_to_chan[4] = { 3, 0, 1, 2 };   /* A R G B */
    R500ColorTarget *t = &rb->cb[i];
    /*
     * NUM_MULTIWRITES replicates output 0 to buffers 1..n in output
     * 0's format: Mesa leaves US_OUT_FMT 1-3 UNUSED for a broadcast
     * gl_FragColor (piglit fbo-drawbuffers-fragcolor).
     */
    uint32_t of = s->regs[R500_REGA_AT(US_OUT_FMT, multi ? 0 : i) / 4];
    uint32_t pitch = s->regs[R500_REGA_AT(RB3D_COLORPITCH, i) / 4];
    uint32_t fpitch = indep_fmt ? pitch : s->regs[R_RB3D_COLORPITCH / 4];
    uint64_t base = s->regs[R500_REGA_AT(RB3D_COLOROFFSET, i) / 4] & ~31u;
    unsigned bytes;

    memset(t, 0, sizeof(*t));
    t->ofmt = R500_FGET(of, US_OUT_FMT, OUT_FMT);
    t->cformat = R500_FGET(fpitch, RB3D_COLORPITCH, FORMAT);
    t->mask = (indep_mask ? cmask >> (4 * i) : cmask) & 0xF;
    t->src = multi ? 0 : i;
    if (t->ofmt == R500_OF_UNUSED || !t->mask ||
        (multi && i > (int)multi)) {
        return;
    }
    t->csel[0] = sel_to_chan[R500_FGET(of, US_OUT_FMT, C0_SEL)];
    t->csel[1] = sel_to_chan[R500_FGET(of, US_OUT_FMT, C1_SEL)];
    t->csel[2] = sel_to_chan[R500_FGET(of, US_OUT_FMT, C2_SEL)];
    t->csel[3] = sel_to_chan[R500_FGET(of, US_OUT_FMT, C3_SEL)];
    if (!format_ok(t->cformat, t->ofmt)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_CB_FORMAT, "3D: colour format "
                           "%u with US_OUT_FMT %u is not modelled (that "
                           "target is not written)", t->cformat, t->ofmt);
        return;
    }
    bytes = r500_rb3d_bytes(t->cformat, t->ofmt);
    if (!r500_surf_init(&t->surf, base,
                        R500_FGET(pitch, RB3D_COLORPITCH, PITCH) << 1,
                        bytes, R500_FGET(pitch, RB3D_COLORPITCH,
                                         MACRO_TILE),
                        R500_FGET(pitch, RB3D_COLORPITCH, MICRO_TILE)) ||
        !t->surf.pitch) {
        r500_guest_error(s, "3D: colour buffer %d: pitch %u, tiling %u "
                         "not usable with %u-byte pixels; not written", i,
                         t->surf.pitch,
                         R500_FGET(pitch, RB3D_COLORPITCH, TILE), bytes);
        return;
    }
    t->layout = color_layout(t->cformat, t->ofmt);
    /* OUT_SIGN: C0..C3 signed (Mesa sets all four for SNORM targets) */
    t->sign = t->ofmt < R500_OF_C_16_FP ? R500_FGET(of, US_OUT_FMT,
                                                    OUT_SIGN) : 0;
    t->unorm32 = !t->sign && bytes <= 4 && layout_unorm32(t->layout);
    t->enabled = true;
}

/* ---- Per draw ---- */

bool r500_rb3d_prepare(R500Chip *s)
{
    R500Rb3d *rb = &s->rb3d;
    uint32_t cctl = s->regs[R_RB3D_CCTL / 4];
    uint32_t cmask = s->regs[R_RB3D_COLOR_CHANNEL_MASK / 4];
    uint32_t ar = s->regs[R_RB3D_CONSTANT_COLOR_AR / 4];
    uint32_t gb = s->regs[R_RB3D_CONSTANT_COLOR_GB / 4];

    if ((s->regs[R_GB_AA_CONFIG / 4] & 1) ||
        (s->regs[R_RB3D_AARESOLVE_CTL / 4] & 1)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_MSAA, "3D: multisampling and "
                           "the AA resolve are not modelled (one sample per "
                           "pixel, no resolve)");
    }
    if (R500_FGET(cctl, RB3D_CCTL, CMASK_ENABLE)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_CMASK, "3D: CMASK colour "
                           "compression is not modelled (colour is written "
                           "uncompressed)");
    }
    for (int i = 0; i < 4; i++) {
        prepare_target(s, i, cctl, cmask);
    }
    rb->blend = s->regs[R_RB3D_BLENDCNTL / 4];
    rb->ablend = s->regs[R_RB3D_ABLENDCNTL / 4];
    rb->rop = s->regs[R_RB3D_ROPCNTL / 4];
    rb->blend_on = R500_FGET(rb->blend, RB3D_BLENDCNTL, ALPHA_BLEND_ENABLE);
    rb->rop_on = R500_FGET(rb->rop, RB3D_ROPCNTL, ROP_ENABLE);
    rb->need_dst = rb->blend_on || rb->rop_on;
    rb->discard = R500_FGET(rb->blend, RB3D_BLENDCNTL, DISCARD_SRC_PIXELS);
    for (int i = 0; i < 4; i++) {
        uint32_t b = (i == 3 && R500_FGET(rb->blend, RB3D_BLENDCNTL,
                                          SEPARATE_ALPHA_ENABLE))
                     ? rb->ablend : rb->blend;

        rb->bf[i].fn = R500_FGET(b, RB3D_BLENDCNTL, COMB_FCN);
        rb->bf[i].src = R500_FGET(b, RB3D_BLENDCNTL, SRCBLEND);
        rb->bf[i].dst = R500_FGET(b, RB3D_BLENDCNTL, DESTBLEND);
    }
    rb->alpha_func = s->regs[R_FG_ALPHA_FUNC / 4];
    rb->alpha_ref = from_half(R500_FGET(s->regs[R_FG_ALPHA_VALUE / 4],
                                        FG_ALPHA_VALUE, AF_VAL));
    /*
     * RB3D_CONSTANT_COLOR_AR/GB: 10-bit fixed for fixed-point targets,
     * FP16 for float ones (2.11), named in ARGB terms: blue -> C0, green
     * -> C1, red -> C2, alpha -> C3.
     */
    if (rb->cb[0].ofmt >= R500_OF_C_16_FP) {
        rb->const_color[0] = from_half(gb & 0xFFFF);
        rb->const_color[1] = from_half(gb >> 16);
        rb->const_color[2] = from_half(ar & 0xFFFF);
        rb->const_color[3] = from_half(ar >> 16);
    } else {
        rb->const_color[0] = MIN(gb & 0xFFFF, 1023u) / 1023.0f;
        rb->const_color[1] = MIN(gb >> 16, 1023u) / 1023.0f;
        rb->const_color[2] = MIN(ar & 0xFFFF, 1023u) / 1023.0f;
        rb->const_color[3] = MIN(ar >> 16, 1023u) / 1023.0f;
    }
    for (int i = 0; i < 4; i++) {
        R500ColorTarget *t = &rb->cb[i];

        memcpy(t->const_color, rb->const_color, sizeof(t->const_color));
        /*
         * I8 stores C2 but blends it with the green constant (C1's): Mesa
         * puts an A8 target's constant alpha there and nowhere else
         * (r300_set_blend_color: color[1] = color[3]; for R8/L8/I8 red in
         * both).  Inferred from the driver, not documented.
         */
        if (t->cformat == R500_CF_I8) {
            t->const_color[2] = t->const_color[1];
        }
    }
    rb->depth_scale = reg_float(s, R_SU_DEPTH_SCALE);
    rb->depth_offset = reg_float(s, R_SU_DEPTH_OFFSET);
    rb->depth_from_shader = R500_FGET(s->regs[R_FG_DEPTH_SRC / 4],
                                      FG_DEPTH_SRC, SHADER);
    if (!r500_zb_prepare(s)) {
        return false;
    }
    rb->early_z = rb->zb.enabled && !rb->cb_clear && !rb->depth_from_shader &&
                  !R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN) &&
                  !s->us.prog.uses_kill;
    /*
     * A pixel's bytes depend on the shader's colour alone: no blend, ROP,
     * channel mask or alpha test, so a uniform colour fills; the depth
     * buffer is decided per rectangle (fill_depth).
     */
    rb->fill = !rb->blend_on && !rb->rop_on && !rb->zero_output &&
               !R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN);
    rb->quad8 = NULL;
    for (int i = 0, n = 0; i < 4; i++) {
        const R500ColorTarget *t = &rb->cb[i];

        if (!t->enabled) {
            continue;
        }
        if (t->mask != 0xF) {
            rb->fill = false;
        }
        /* one target: pixel order between targets cannot matter */
        rb->quad8 = ++n == 1 && t->layout == &layouts[0] && t->unorm32 &&
                    !t->sign && t->mask == 0xF && !rb->rop_on &&
                    t->ofmt < R500_OF_C_16_FP ? t : NULL;
    }
    return true;
}

void r500_rb3d_finish(R500Chip *s)
{
    r500_cache_flush(s, &s->rb3d.cache);
}

/* ---- Per pixel ---- */

static bool alpha_test(const R500Rb3d *rb, float a)
{
    uint32_t f = rb->alpha_func;
    float ref;

    if (!R500_FGET(f, FG_ALPHA_FUNC, AF_EN)) {
        return true;
    }
    if (R500_FGET(f, FG_ALPHA_FUNC, AF_EN_8BIT)) {
        /* 8-bit compare of the quantised alpha */
        a = (float)to_unorm(a, 8);
        ref = R500_FGET(f, FG_ALPHA_FUNC, AF_VAL);
    } else {
        ref = rb->alpha_ref;
    }
    switch (R500_FGET(f, FG_ALPHA_FUNC, AF_FUNC)) {
    case 0:
        return false;
    case 1:
        return a < ref;
    case 2:
        return a == ref;
    case 3:
        return a <= ref;
    case 4:
        return a > ref;
    case 5:
        return a != ref;
    case 6:
        return a >= ref;
    default:
        return true;
    }
}

/*
 * A blend factor for channel i of the four pixels of a quad (pixel by
 * pixel, the scalar colour path uses lane 0).
 */
static V4 factor4(unsigned f, int i, const V4 src[4], const V4 dst[4],
                  const float k[4])
{
    switch (f) {
    case 1:
    case BF_ZERO:
        return splat(0.0f);
    case 2:
    case BF_ONE:
        return splat(1.0f);
    case 3:
    case BF_SRC_COLOR:
        return src[i];
    case 4:
    case BF_ONE_MINUS_SRC_COLOR:
        return 1.0f - src[i];
    case 5:
    case 12:
    case BF_SRC_ALPHA:
        return src[3];
    case 6:
    case 13:
    case BF_ONE_MINUS_SRC_ALPHA:
        return 1.0f - src[3];
    case 7:
    case BF_DST_ALPHA:
        return dst[3];
    case 8:
    case BF_ONE_MINUS_DST_ALPHA:
        return 1.0f - dst[3];
    case 9:
    case BF_DST_COLOR:
        return dst[i];
    case 10:
    case BF_ONE_MINUS_DST_COLOR:
        return 1.0f - dst[i];
    case 11:
    case BF_SRC_ALPHA_SATURATE: {
        V4 v, a = 1.0f - dst[3];

        for (int p = 0; p < 4; p++) {
            v[p] = i == 3 ? 1.0f : fminf(src[3][p], a[p]);
        }
        return v;
    }
    case BF_CONST_COLOR:
        return splat(k[i]);
    case BF_ONE_MINUS_CONST_COLOR:
        return splat(1.0f - k[i]);
    case BF_CONST_ALPHA:
        return splat(k[3]);
    case BF_ONE_MINUS_CONST_ALPHA:
        return splat(1.0f - k[3]);
    default:
        return splat(0.0f);
    }
}

/*
 * RB3D_BLENDCNTL/ABLENDCNTL on the four pixels of a quad: src becomes the
 * blended colour.  A fixed-point target clamps every result to [0, 1], a
 * float one only the clamping functions' (COMB_FCN bit 0 clear).
 */
static void blend4(const R500Rb3d *rb, const float k[4], bool fixed,
                   V4 src[4], const V4 dst[4])
{
    V4 out[4];

    for (int i = 0; i < 4; i++) {
        unsigned fn = rb->bf[i].fn;
        V4 sv = src[i] * factor4(rb->bf[i].src, i, src, dst, k);
        V4 dv = dst[i] * factor4(rb->bf[i].dst, i, src, dst, k);
        V4 v;

        switch (fn) {
        case 0:
        case 1:
            v = sv + dv;
            break;
        case 2:
        case 3:
            v = sv - dv;
            break;
        case 4:
        case 5:
            for (int p = 0; p < 4; p++) {
                v[p] = fn == 4 ? fminf(src[i][p], dst[i][p])
                               : fmaxf(src[i][p], dst[i][p]);
            }
            break;
        default:
            v = dv - sv;
            break;
        }
        out[i] = !(fn & 1) || fixed ? clamp4(v) : v;
    }
    memcpy(src, out, sizeof(out));
}

/* DISCARD_SRC_PIXELS against the 8-bit thresholds (2.11). */
static bool discard(const uint32_t *regs, const R500Rb3d *rb,
                    const float c[4])
{
    unsigned mode = rb->discard;
    uint32_t thr;
    bool gte = mode >= 4;
    unsigned first, last;

    if (!mode || mode == 7) {
        return false;
    }
    thr = regs[(gte ? R_RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD
                       : R_RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD) / 4];
    /* 1/4: alpha; 2/5: RGB; 3/6: ARGB.  Bytes: B, G, R, A */
    first = (mode == 1 || mode == 4) ? 3 : 0;
    last = (mode == 2 || mode == 5) ? 2 : 3;
    for (unsigned i = first; i <= last; i++) {
        static const unsigned byte_of[4] = { 2, 1, 0, 3 };   /* R G B A */
        uint32_t t = (thr >> (8 * byte_of[i])) & 0xFF;
        uint32_t v = to_unorm(c[i], 8);

        if (gte ? v < t : v > t) {
            return false;
        }
    }
    return true;
}

static void color_write(R500Worker *w, const R500ColorTarget *t, int x, int y,
                        int p)
{
    const R500Rb3d *rb = w->ctx->rb;
    const R500UsQuad *q = &w->q;
    uint8_t *mem, old[16];
    float src[4], dst[4];
    unsigned bytes = t->surf.bpp;
    bool fixed = t->ofmt < R500_OF_C_16_FP;

    for (int i = 0; i < 4; i++) {
        src[i] = q->out[t->src][t->csel[i]][p];
    }
    if (rb->blend_on && rb->discard &&
        discard(w->ctx->regs, rb, (const float[4]) { q->out[t->src][0][p],
                                         q->out[t->src][1][p],
                                         q->out[t->src][2][p],
                                         q->out[t->src][3][p] })) {
        return;
    }
    if ((uint32_t)x >= t->surf.pitch) {
        /* beyond the pitch: not part of the surface (zb.c, r500_zb_cb_clear) */
        return;
    }
    mem = r500_cache_access(w->s, w->cache, t->surf.base +
                            r500_surf_offset(&t->surf, x, y), bytes, true);
    if (!mem) {
        return;
    }
    memcpy(old, mem, bytes);
    if (rb->need_dst) {
        unpack_layout(t->layout, t->unorm32, t->sign, bytes, old, dst);
    }
    if (rb->blend_on && !rb->rop_on) {
        /* one pixel: lane 0 of the quad's blend */
        V4 s4[4], d4[4];

        for (int i = 0; i < 4; i++) {
            s4[i] = splat(src[i]);
            d4[i] = splat(dst[i]);
        }
        blend4(rb, t->const_color, fixed, s4, d4);
        for (int i = 0; i < 4; i++) {
            src[i] = s4[i][0];
        }
    }
    pack_layout(t->layout, t->unorm32, t->sign, bytes, src, mem);
    if (t->mask != 0xF) {
        keep_masked(t->layout, t->mask, bytes, old, mem);
    }
    if (rb->rop_on) {
        /* bit = ROP code bit ((s << 1) | d) (2.11), on the stored bits */
        unsigned code = R500_FGET(rb->rop, RB3D_ROPCNTL, ROP);
        for (unsigned i = 0; i < bytes; i++) {
            uint8_t sb = mem[i], db = old[i], v = 0;

            for (int b = 0; b < 8; b++) {
                unsigned k = ((sb >> b) & 1) << 1 | ((db >> b) & 1);
                v |= ((code >> k) & 1) << b;
            }
            mem[i] = v;
        }
        if (t->mask != 0xF) {
            /* masked components keep their old bits */
            keep_masked(t->layout, t->mask, bytes, old, mem);
        }
    }
}

/* ---- The quad path: one ARGB8888 target, a quad at a time ---- */

/* from_unorm(b, 8) for every byte */
static float unorm8[256];

static void __attribute__((constructor)) unorm8_init(void)
{
    for (int b = 0; b < 256; b++) {
        unorm8[b] = from_unorm(b, 8);
    }
}

/*
 * color_write() of the pixels in mask for the one target of a draw that
 * is ARGB8888 (C0..C3 in bytes 0..3), unsigned, all channels written, no
 * ROP (R500Rb3d.quad8): each operation on the four pixels at once, lane
 * by lane the scalar path's, so the bytes are the same.
 */
static void quad_color8(R500Worker *w, const R500ColorTarget *t,
                        unsigned mask)
{
    const R500Rb3d *rb = w->ctx->rb;
    const R500UsQuad *q = &w->q;
    uint8_t *mem[4];
    V4 src[4], dst[4];
    V4i bits[4];

    for (int p = 0; p < 4; p++) {
        uint32_t x = q->x + (p & 1), y = q->y + (p >> 1);

        mem[p] = NULL;
        if (rb->blend_on && rb->discard && ((mask >> p) & 1) &&
            discard(w->ctx->regs, rb, (const float[4]) {
                q->out[t->src][0][p], q->out[t->src][1][p],
                q->out[t->src][2][p], q->out[t->src][3][p] })) {
            continue;
        }
        if (((mask >> p) & 1) && x < t->surf.pitch) {
            mem[p] = r500_cache_access(w->s, w->cache, t->surf.base +
                                       r500_surf_offset(&t->surf, x, y), 4,
                                       true);
        }
    }
    for (int i = 0; i < 4; i++) {
        src[i] = ld4(q->out[t->src][t->csel[i]]);
    }
    if (rb->blend_on) {
        for (int p = 0; p < 4; p++) {
            const uint8_t *m = mem[p] ? mem[p] : (const uint8_t[4]) { 0 };

            for (int i = 0; i < 4; i++) {
                dst[i][p] = unorm8[m[i]];
            }
        }
        blend4(rb, t->const_color, true, src, dst);
    }
    for (int i = 0; i < 4; i++) {
        bits[i] = to_unorm4(src[i], 8);
    }
    for (int p = 0; p < 4; p++) {
        if (mem[p]) {
            for (int i = 0; i < 4; i++) {
                mem[p][i] = bits[i][p];
            }
        }
    }
}

/* A pixel's depth as stored: clamped to [0, 1], SU_DEPTH_SCALE/OFFSET (2.6) */
static uint32_t depth_fixed(const R500Rb3d *rb, const R500Prim *prim, float z)
{
    double zf;

    z = z > 1.0f ? 1.0f : z > 0.0f ? z : 0.0f;
    zf = (double)z * rb->depth_scale + rb->depth_offset + prim->depth_bias;
    zf = zf < 0 ? 0 : zf > 16777215.0 ? 16777215.0 : zf;
    return (uint32_t)lrint(zf);
}

unsigned r500_rb3d_quad_z(R500Worker *w, unsigned live)
{
    const R500Rb3d *rb = w->ctx->rb;
    const R500UsQuad *q = &w->q;
    unsigned pass = 0;

    for (int p = 0; p < 4; p++) {
        int x = q->x + (p & 1), y = q->y + (p >> 1);

        if (!((live >> p) & 1)) {
            continue;
        }
        if (!alpha_test(rb, q->out[0][3][p])) {
            continue;
        }
        if (rb->cb_clear) {
            r500_zb_cb_clear(w, x, y);
        } else if (rb->zb.enabled) {
            float z = rb->depth_from_shader && q->depth_written ? q->depth[p]
                                                                : q->z[p];

            if (!r500_zb_pixel(w, x, y, depth_fixed(rb, w->prim, z),
                               q->back)) {
                w->st.zfail++;
                continue;
            }
        }
        /* samples passed, for occlusion queries (ZB_ZPASS_*) */
        w->st.zpass++;
        pass |= 1u << p;
    }
    return pass;
}

void r500_rb3d_quad_color(R500Worker *w, unsigned mask)
{
    const R500Rb3d *rb = w->ctx->rb;
    const R500UsQuad *q = &w->q;

    if (rb->zero_output) {
        return;
    }
    if (rb->quad8) {
        w->st.rb_pixels += (0x4332322132212110ull >> (4 * mask)) & 0xF;
        quad_color8(w, rb->quad8, mask);
        return;
    }
    for (int p = 0; p < 4; p++) {
        int x = q->x + (p & 1), y = q->y + (p >> 1);

        if (!((mask >> p) & 1)) {
            continue;
        }
        w->st.rb_pixels++;
        for (int i = 0; i < 4; i++) {
            if (rb->cb[i].enabled) {
                color_write(w, &rb->cb[i], x, y, p);
            }
        }
    }
}

/* ---- The fill path: one colour over a rectangle (rb3d.h) ---- */

/* Target k of the fill: colour buffers 0..3, then the depth buffer. */
static const R500Surf *fill_target(const R500Rb3d *rb, int k)
{
    if (k < 4) {
        return rb->cb[k].enabled ? &rb->cb[k].surf : NULL;
    }
    return rb->zb.enabled ? &rb->zb.surf : NULL;
}

/* What the depth buffer stores for a fill; false: no fill. */
static bool fill_depth(const R500Rb3d *rb, const uint32_t *regs,
                       const R500Prim *prim, int x1, R500RbFill *f)
{
    uint32_t word, keep;

    if (rb->cb_clear) {
        word = regs[R_ZB_DEPTHCLEARVALUE / 4];  /* raw (r500_zb_cb_clear) */
        keep = 0;
    } else {
        /*
         * A pixel at x >= the depth pitch fails (r500_zb_pixel): no
         * colour either.  The depth is prim's, constant over a rectangle.
         */
        if ((uint32_t)x1 >= rb->zb.surf.pitch || rb->depth_from_shader ||
            prim->z.dx != 0 || prim->z.dy != 0 ||
            !r500_zb_fill_word(rb, depth_fixed(rb, prim, prim->z.c),
                               prim->back, &word, &keep)) {
            return false;
        }
    }
    f->zmasked = false;
    for (int i = 0; i < 4; i++) {
        f->zpx[i] = word >> (8 * i);
        f->zkeep[i] = keep >> (8 * i);
        f->zmasked |= i < (int)rb->zb.surf.bpp && f->zkeep[i];
    }
    return true;
}

bool r500_rb3d_fill_begin(R500Worker *w, const R500Prim *prim, int x0,
                          int y0, int x1, int y1, R500RbFill *f)
{
    const R500Rb3d *rb = w->ctx->rb;

    if (!rb->fill || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 ||
        (rb->zb.enabled && !fill_depth(rb, w->ctx->regs, prim, x1, f))) {
        return false;
    }
    for (int k = 0; k < R500_FILL_TARGETS; k++) {
        const R500Surf *sf = fill_target(rb, k);
        uint64_t lo, hi, off;

        f->mem[k] = NULL;
        /* nothing at x >= pitch is written (color_write, zb.c) */
        if (!sf || (uint32_t)x0 >= sf->pitch ||
            (k == 4 && !memcmp(f->zkeep, "\xff\xff\xff\xff", sf->bpp))) {
            continue;
        }
        f->x1[k] = MIN((uint32_t)x1, sf->pitch - 1);
        r500_surf_rect_span(sf, x0, y0, f->x1[k], y1, &lo, &hi);
        if (!r500_mc_vram_span(w->s, sf->base + lo, hi - lo, &off)) {
            return false;           /* not wholly in VRAM: pixel by pixel */
        }
        f->mem[k] = w->s->vram + off - lo;
        f->lo[k] = off;
        f->hi[k] = off + (hi - lo);
        /*
         * Targets that share bytes: per pixel, the depth clear and the
         * colour buffers' writes interleave; leave that to the quads.
         */
        for (int j = 0; j < k; j++) {
            if (f->mem[j] && f->lo[j] < f->hi[k] && f->lo[k] < f->hi[j]) {
                return false;
            }
        }
    }
    return true;
}

void r500_rb3d_fill_px(R500Worker *w, const R500RbFill *f, int k,
                       uint8_t px[16])
{
    const R500Rb3d *rb = w->ctx->rb;
    const R500UsQuad *q = &w->q;

    if (k < 4) {
        /* what color_write() stores without blend, ROP or mask */
        const R500ColorTarget *t = &rb->cb[k];
        float src[4];

        for (int i = 0; i < 4; i++) {
            src[i] = q->out[t->src][t->csel[i]][0];
        }
        pack_layout(t->layout, t->unorm32, t->sign, t->surf.bpp, src, px);
    } else {
        memcpy(px, f->zpx, 4);
    }
}

void r500_rb3d_fill(R500Worker *w, const R500RbFill *f, int x0, int y0,
                    int y1)
{
    const R500Rb3d *rb = w->ctx->rb;

    for (int k = 0; k < R500_FILL_TARGETS; k++) {
        const R500Surf *sf = fill_target(rb, k);
        uint8_t px[16];

        if (!f->mem[k]) {
            continue;
        }
        r500_rb3d_fill_px(w, f, k, px);
        r500_surf_fill(sf, f->mem[k], x0, y0, f->x1[k], y1, px,
                       k == 4 && f->zmasked ? f->zkeep : NULL);
        r500_cache_vram_written(w->cache, f->lo[k], f->hi[k] - f->lo[k]);
    }
}

void r500_rb3d_quad(R500Worker *w)
{
    const R500UsQuad *q = &w->q;
    unsigned live = q->cover & ~q->kill;

    /*
     * Per pixel in the hardware's order; one pixel's colour write before
     * the next one's depth test only matters for surfaces that overlap.
     * Without a depth buffer the tests touch no memory: the whole quad.
     */
    if (!w->ctx->rb->zb.enabled) {
        r500_rb3d_quad_color(w, r500_rb3d_quad_z(w, live));
        return;
    }
    for (int p = 0; p < 4; p++) {
        if ((live >> p) & 1) {
            r500_rb3d_quad_color(w, r500_rb3d_quad_z(w, 1u << p));
        }
    }
}
