/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Texture units: per-draw set-up of TX_FILTER0/1, TX_FORMAT0/1/2 and
 * TX_OFFSET, the mip chain layout, and sampling for the US.
 * r500-3d-pipeline.md 2.10, 5; seed 003.
 *
 * Filtering: point and bilinear per level, nearest or linear between
 * levels; the LOD comes from the quad's derivatives.  Bilinear weights
 * are truncated to 1/256 (the unit filters in fixed point; 8 fraction
 * bits is an assumption, and what llvmpipe uses for 8-bit textures).
 * Anisotropic filtering is done as bilinear.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/* TX_FILTER0 filter codes */
enum { FILTER_4 = 0, FILTER_POINT = 1, FILTER_LINEAR = 2, FILTER_ANISO = 3 };
enum { MIP_NONE = 0, MIP_POINT = 1, MIP_LINEAR = 2 };
/* CLAMP_x wrap modes (5.1) */
enum {
    WRAP_REPEAT = 0, WRAP_MIRROR = 1, WRAP_CLAMP_EDGE = 2,
    WRAP_MIRROR_ONCE_EDGE = 3, WRAP_CLAMP_HALF = 4,
    WRAP_MIRROR_ONCE_HALF = 5, WRAP_CLAMP_BORDER = 6,
    WRAP_MIRROR_ONCE_BORDER = 7,
};
enum { COORD_2D = 0, COORD_3D = 1, COORD_CUBE = 2 };

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static uint32_t next_pow2(uint32_t v)
{
    uint32_t p = 1;

    while (p < v) {
        p <<= 1;
    }
    return p;
}

static void tx_problem(R500Chip *s, unsigned i, const char *what)
{
    if (r500_once(&s->tx.logged, 1u << i)) {
        r500_guest_error(s, "3D: texture unit %u: %s; it samples as 0 "
                         "(reported once per unit)", i, what);
    }
}

/*
 * The mip chain as the hardware derives it from the base and the sizes
 * (5.4): levels one after the other, each holding its faces or slices.
 */
static bool tx_layout(R500Chip *s, unsigned i, R500TxUnit *t, uint32_t f0,
                      uint32_t f2, uint32_t off)
{
    uint32_t w = R500_FGET(f0, TX_FORMAT0, TXWIDTH) |
                 R500_FGET(f2, TX_FORMAT2, TXWIDTH_11) << 11;
    uint32_t h = R500_FGET(f0, TX_FORMAT0, TXHEIGHT) |
                 R500_FGET(f2, TX_FORMAT2, TXHEIGHT_11) << 11;
    uint32_t d = 1u << R500_FGET(f0, TX_FORMAT0, TXDEPTH);
    bool macro = R500_FGET(off, TX_OFFSET, MACRO_TILE);
    uint32_t micro = R500_FGET(off, TX_OFFSET, MICRO_TILE);
    uint64_t addr = (uint64_t)R500_FGET(off, TX_OFFSET, OFFSET) << 5;
    unsigned bytes = t->info->bytes, levels = t->last + 1;

    w += 1;
    h += 1;
    if (t->coord_type != COORD_3D) {
        d = 1;
    }
    if (t->info->block && (macro || micro)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_TX_FORMAT, "3D: tiled compressed "
                           "textures are not modelled (sampled linear)");
        macro = false;
        micro = 0;
    }
    for (unsigned l = 0; l < levels; l++) {
        R500TxLevel *lv = &t->level[l];
        uint32_t lw = MAX(1u, w >> l), lh = MAX(1u, h >> l);
        uint32_t pitch, rows;
        R500Surf probe;
        bool lmacro = false;

        if (t->info->block) {
            pitch = align_up((lw + 3) / 4 * bytes, 32) / bytes;
        } else {
            if (!r500_surf_init(&probe, 0, 1, bytes, macro, micro)) {
                tx_problem(s, i, "tiling mode not valid for its format");
                return false;
            }
            /* macro tiled only while the level covers a macro tile */
            lmacro = macro && lw >= probe.Mtw && lh >= probe.Mth;
            r500_surf_init(&probe, 0, 1, bytes, lmacro, micro);
            pitch = align_up(lw, lmacro ? probe.Mtw : probe.tiled ? probe.mtw
                                         : MAX(1u, 32u / bytes));
        }
        if (l == 0 && R500_FGET(f0, TX_FORMAT0, TXPITCH_EN)) {
            pitch = R500_FGET(f2, TX_FORMAT2, TXPITCH) + 1;
            if (t->info->block) {
                pitch = (pitch + 3) / 4;
            }
        }
        rows = lh;
        if (levels > 1 || t->coord_type != COORD_2D) {
            rows = next_pow2(rows);
        }
        if (t->info->block) {
            rows = (rows + 3) / 4;
        } else {
            rows = align_up(rows, lmacro ? probe.Mth : probe.tiled ? probe.mth
                                                                   : 1);
        }
        r500_surf_init(&lv->surf, addr, pitch, bytes, lmacro, micro);
        lv->w = lw;
        lv->h = lh;
        lv->d = MAX(1u, d >> l);
        lv->layer_bytes = (uint64_t)pitch * bytes * rows;
        addr += lv->layer_bytes *
                (t->coord_type == COORD_CUBE ? 6 : lv->d);
        if (addr >= (1ull << 32)) {
            tx_problem(s, i, "mip chain runs past 4 GiB");
            return false;
        }
    }
    t->chain_end = addr;
    return true;
}

/*
 * TX_OFFSET.ENDIAN_SWAP (0 none, 1 bytes in 16-bit words, 2 bytes in
 * 32-bit words, 3 16-bit halves in 32-bit words, as the colour buffer's
 * COLORENDIAN): byte i of a swap unit comes from byte i ^ k.
 */
static const uint8_t endian_xor[4] = { 0, 1, 3, 2 };
static const uint8_t endian_unit[4] = { 1, 2, 4, 4 };

/* What the shader sees of a decoded texel (or border): YUV_TO_RGB, GAMMA. */
static void tx_finish_texel(const R500TxUnit *t, float c[4])
{
    if (t->yuv_to_rgb && t->fmt != R500_TXF_Y8) {
        r500_tx_yuv_to_rgb(c, t->yuv_to_rgb == 1);
    }
    for (unsigned m = t->gamma_mask; m; m &= m - 1) {
        unsigned k = __builtin_ctz(m);

        c[k] = r500_tx_srgb_to_linear(c[k]);
    }
}

void r500_tx_prepare(R500Chip *s)
{
    uint32_t en = s->regs[R_TX_ENABLE / 4];

    for (unsigned i = 0; i < R500_TX_UNITS; i++) {
        R500TxUnit *t = &s->tx.unit[i];
        uint32_t fl0 = s->regs[R500_REGA_AT(TX_FILTER0, i) / 4];
        uint32_t fl1 = s->regs[R500_REGA_AT(TX_FILTER1, i) / 4];
        uint32_t f0 = s->regs[R500_REGA_AT(TX_FORMAT0, i) / 4];
        uint32_t f1 = s->regs[R500_REGA_AT(TX_FORMAT1, i) / 4];
        uint32_t f2 = s->regs[R500_REGA_AT(TX_FORMAT2, i) / 4];
        uint32_t off = s->regs[R500_REGA_AT(TX_OFFSET, i) / 4];
        uint32_t border = s->regs[R500_REGA_AT(TX_BORDER_COLOR, i) / 4];
        int bias;

        t->valid = false;
        if (!((en >> i) & 1)) {
            continue;
        }
        t->fmt = R500_FGET(f1, TX_FORMAT1, TXFORMAT) |
                 R500_FGET(f2, TX_FORMAT2, TXFORMAT_MSB) << 5;
        t->info = r500_tx_format_info(t->fmt);
        if (!t->info || !t->info->supported) {
            r500_3d_unimp_once(s, R500_3D_UNIMP_TX_FORMAT, "3D: texture "
                               "format 0x%02x is not modelled (samples as 0)",
                               t->fmt);
            continue;
        }
        t->sign = R500_FGET(f1, TX_FORMAT1, SIGNED_COMP);
        t->pow2fix = R500_FGET(f2, TX_FORMAT2, POW2FIX2FLT);
        t->gamma = R500_FGET(f1, TX_FORMAT1, GAMMA);
        t->sel[0] = R500_FGET(f1, TX_FORMAT1, SEL_RED);
        t->sel[1] = R500_FGET(f1, TX_FORMAT1, SEL_GREEN);
        t->sel[2] = R500_FGET(f1, TX_FORMAT1, SEL_BLUE);
        t->sel[3] = R500_FGET(f1, TX_FORMAT1, SEL_ALPHA);
        t->coord_type = R500_FGET(f1, TX_FORMAT1, TEX_COORD_TYPE);
        if (t->coord_type == 3) {
            tx_problem(s, i, "TEX_COORD_TYPE 3 is reserved");
            continue;
        }
        /* YUV_TO_RGB and SWAP_YUV act on the YUV formats only (seed 003) */
        t->yuv_to_rgb = t->info->yuv ? R500_FGET(f1, TX_FORMAT1, YUV_TO_RGB)
                                     : 0;
        if (t->yuv_to_rgb == 3) {
            tx_problem(s, i, "YUV_TO_RGB 3 is not defined");
            continue;
        }
        t->swap_yuv = t->info->yuv && R500_FGET(f1, TX_FORMAT1, SWAP_YUV);
        t->endian = R500_FGET(off, TX_OFFSET, ENDIAN_SWAP);
        t->vol = R500_FGET(fl0, TX_FILTER0, VOL_FILTER);
        t->fetch = t->endian || t->swap_yuv || r500_tx_fmt_pair(t->fmt)
                   ? R500_TX_FETCH_SPECIAL
                   : t->info->block ? R500_TX_FETCH_BLOCK : R500_TX_FETCH_PLAIN;
        if (t->info->yuv) {
            /* SIGNED_COMP and SEL_* are ignored for Y/YUV formats */
            t->sign = 0;
            for (int k = 0; k < 4; k++) {
                t->sel[k] = k;
            }
        }
        /*
         * GAMMA: the components of 8 bits or less that feed red, green or
         * blue, before filtering (seed 003; alpha untouched, as GL's sRGB
         * formats and open question 15 assume).
         */
        t->gamma_mask = 0;
        if (t->gamma) {
            for (int k = 0; k < 3; k++) {
                if (t->sel[k] < 4) {
                    t->gamma_mask |= 1u << t->sel[k];
                }
            }
            t->gamma_mask &= t->info->small;
        }
        t->wrap[0] = R500_FGET(fl0, TX_FILTER0, CLAMP_S);
        t->wrap[1] = R500_FGET(fl0, TX_FILTER0, CLAMP_T);
        t->wrap[2] = R500_FGET(fl0, TX_FILTER0, CLAMP_R);
        t->mag = R500_FGET(fl0, TX_FILTER0, MAG_FILTER);
        t->min = R500_FGET(fl0, TX_FILTER0, MIN_FILTER);
        t->mip = R500_FGET(fl0, TX_FILTER0, MIP_FILTER);
        if (t->mag == FILTER_ANISO || t->min == FILTER_ANISO ||
            R500_FGET(fl0, TX_FILTER0, MAX_ANISO) ||
            ((fl1 >> 23) & 0x3F)) {
            r500_3d_unimp_once(s, R500_3D_UNIMP_TX_ANISO, "3D: anisotropic "
                               "texture filtering is not modelled (filtered "
                               "bilinear)");
        }
        t->last = MIN(R500_FGET(f0, TX_FORMAT0, NUM_LEVELS),
                      R500_TX_LEVELS - 1u);
        t->first = MIN(R500_FGET(fl0, TX_FILTER0, MAX_MIP_LEVEL), t->last);
        /* LOD_BIAS: signed s4.5 */
        bias = (int)(R500_FGET(fl1, TX_FILTER1, LOD_BIAS) << 22) >> 22;
        t->lod_bias = bias / 32.0f;
        /* DXTC_SWIZZLE: R and B of DXT1/3/5 only (open question 5) */
        t->dxtc_swizzle = R500_FGET(fl1, TX_FILTER1, DXTC_SWIZZLE_ENABLE) &&
                          t->fmt >= R500_TXF_DXT1 && t->fmt <= R500_TXF_DXT5;
        t->finish = t->dxtc_swizzle || t->gamma_mask || t->yuv_to_rgb;
        t->id = R500_FGET(fl0, TX_FILTER0, ID);
        if (!tx_layout(s, i, t, f0, f2, off)) {
            continue;
        }
        /* The border colour is a texel of the texture's own format. */
        {
            uint8_t b[16] = { 0 };
            float c[4];

            memcpy(b, &border, 4);
            r500_tx_decode(t->info->block ? R500_TXF_8_8_8_8 : t->fmt, b, 0,
                           0, t->sign, t->pow2fix, c);
            tx_finish_texel(t, c);
            memcpy(t->border, c, sizeof(c));
        }
        t->valid = true;
    }
}

/* ---- Sampling ---- */

/* Texel index i wrapped into [0, n), or -1 for the border colour. */
static inline __attribute__((always_inline)) int wrap(int64_t i, int64_t n,
                                                   unsigned mode)
{
    switch (mode) {
    case WRAP_REPEAT:
        i %= n;
        return i < 0 ? i + n : i;
    case WRAP_MIRROR: {
        int64_t m = i % (2 * n);

        m = m < 0 ? m + 2 * n : m;
        return m < n ? m : 2 * n - 1 - m;
    }
    case WRAP_CLAMP_EDGE:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    case WRAP_MIRROR_ONCE_EDGE:
        i = i < 0 ? -1 - i : i;
        return i >= n ? n - 1 : i;
    case WRAP_MIRROR_ONCE_HALF:
    case WRAP_MIRROR_ONCE_BORDER:
        i = i < 0 ? -1 - i : i;
        /* fall through */
    default:
        /* border modes, and GL_CLAMP past its clamped coordinate */
        return i < 0 || i >= n ? -1 : i;
    }
}

/* A float texel coordinate as an index, whatever the float. */
static inline int64_t tx_index(float f)
{
    return isfinite(f) ? (int64_t)fmaxf(fminf(f, 1e9f), -1e9f) : 0;
}

/*
 * Decode texel (x, y) of a unit with special_fetch: a 4:2:2 texel's pixel
 * pair (one 32-bit word), ENDIAN_SWAP, SWAP_YUV.  Out of line, so that
 * the common path keeps no buffer on its stack.  False when the memory
 * cannot be read.
 */
static __attribute__((noinline)) bool
texel_special(R500Worker *w, const R500TxUnit *t, const R500TxLevel *lv,
              uint64_t layer_base, int x, int y, float c[4])
{
    unsigned bytes = t->info->bytes;
    unsigned unit = endian_unit[t->endian], k = endian_xor[t->endian];
    uint8_t buf[16];
    uint64_t mc, at;
    unsigned span;
    const uint8_t *p;

    if (t->info->block) {
        mc = layer_base + r500_surf_offset(&lv->surf, x / 4, y / 4);
    } else if (r500_tx_fmt_pair(t->fmt)) {
        /* a 4:2:2 pixel pair is one 32-bit word */
        mc = layer_base + r500_surf_offset(&lv->surf, x & ~1, y);
        bytes = 4;
    } else {
        mc = layer_base + r500_surf_offset(&lv->surf, x, y);
    }
    at = mc & ~(uint64_t)(unit - 1);
    span = MAX(unit, bytes);
    p = r500_cache_access(w->s, w->cache, at, span, false);
    if (!p) {
        return false;
    }
    for (unsigned i = 0; i < span; i++) {
        buf[i] = p[i ^ k];
    }
    if (t->swap_yuv && t->fmt != R500_TXF_Y8) {
        /* SWAP_YUV: the top bit of U and V inverted (seed 003) */
        bool vyuy = t->fmt == R500_TXF_VYUY422;

        /* VYUY422: U byte 1, V byte 3; YVYU422 and AVYU444: 0 and 2 */
        buf[(mc - at) + (vyuy ? 1 : 0)] ^= 0x80;
        buf[(mc - at) + (vyuy ? 3 : 2)] ^= 0x80;
    }
    r500_tx_decode(t->fmt, buf + (mc - at), x, y, t->sign, t->pow2fix, c);
    return true;
}

/* One texel's components (before SEL), or the border. */
static void texel(R500Worker *w, const R500TxUnit *t, unsigned l,
                  uint32_t layer, int x, int y, float c[4])
{
    const R500TxLevel *lv = &t->level[l];
    const uint8_t *p;

    if (x < 0 || y < 0) {
        memcpy(c, t->border, sizeof(t->border));
        return;
    }
    switch (t->fetch) {
    case R500_TX_FETCH_PLAIN:
        p = r500_cache_access(w->s, w->cache,
                              lv->surf.base + layer * lv->layer_bytes +
                              r500_surf_offset(&lv->surf, x, y),
                              t->info->bytes, false);
        break;
    case R500_TX_FETCH_BLOCK:
        p = r500_cache_access(w->s, w->cache,
                              lv->surf.base + layer * lv->layer_bytes +
                              r500_surf_offset(&lv->surf, x / 4, y / 4),
                              t->info->bytes, false);
        break;
    default:
        if (!texel_special(w, t, lv, lv->surf.base + layer * lv->layer_bytes,
                           x, y, c)) {
            c[0] = c[1] = c[2] = c[3] = 0.0f;
        } else if (t->finish) {
            tx_finish_texel(t, c);
        }
        return;
    }
    if (!p) {
        c[0] = c[1] = c[2] = c[3] = 0.0f;
        return;
    }
    r500_tx_decode(t->fmt, p, x, y, t->sign, t->pow2fix, c);
    if (G_UNLIKELY(t->finish)) {
        if (t->dxtc_swizzle) {
            float r = c[0];

            c[0] = c[2];
            c[2] = r;
        }
        tx_finish_texel(t, c);
    }
}

/* Filter one 2D image (a level's face or slice) at normalised (u, v). */
static inline __attribute__((always_inline)) void
sample_2d(R500Worker *w, const R500TxUnit *t, unsigned l,
                      uint32_t layer, float u, float v, bool linear,
                      float c[4])
{
    const R500TxLevel *lv = &t->level[l];
    float x = u * lv->w, y = v * lv->h;

    /* GL_CLAMP-style modes clamp the coordinate to [0, 1] first */
    if (t->wrap[0] == WRAP_CLAMP_HALF || t->wrap[0] == WRAP_MIRROR_ONCE_HALF) {
        x = t->wrap[0] == WRAP_MIRROR_ONCE_HALF ? fabsf(x) : x;
        x = x < 0 ? 0 : x > lv->w ? lv->w : x;
    }
    if (t->wrap[1] == WRAP_CLAMP_HALF || t->wrap[1] == WRAP_MIRROR_ONCE_HALF) {
        y = t->wrap[1] == WRAP_MIRROR_ONCE_HALF ? fabsf(y) : y;
        y = y < 0 ? 0 : y > lv->h ? lv->h : y;
    }
    if (!linear) {
        int ix = wrap(tx_index(floorf(x)), lv->w, t->wrap[0]);
        int iy = wrap(tx_index(floorf(y)), lv->h, t->wrap[1]);

        texel(w, t, l, layer, ix, iy, c);
        return;
    }
    {
        float xs = x - 0.5f, ys = y - 0.5f;
        float fx = floorf(xs), fy = floorf(ys);
        /* weights in 1/256 */
        float ax = floorf((xs - fx) * 256.0f) / 256.0f;
        float ay = floorf((ys - fy) * 256.0f) / 256.0f;
        int64_t x0 = tx_index(fx), y0 = tx_index(fy);
        int ix[2] = { wrap(x0, lv->w, t->wrap[0]),
                      wrap(x0 + 1, lv->w, t->wrap[0]) };
        int iy[2] = { wrap(y0, lv->h, t->wrap[1]),
                      wrap(y0 + 1, lv->h, t->wrap[1]) };
        float tc[4][4];

        for (int k = 0; k < 4; k++) {
            int kx = ix[k & 1], ky = iy[k >> 1];

            if (kx < 0 || ky < 0) {
                memcpy(tc[k], t->border, sizeof(t->border));
            } else {
                texel(w, t, l, layer, kx, ky, tc[k]);
            }
        }
        if (!isfinite(ax) || !isfinite(ay)) {
            ax = ay = 0.0f;
        }
        for (int i = 0; i < 4; i++) {
            float top = tc[0][i] + (tc[1][i] - tc[0][i]) * ax;
            float bot = tc[2][i] + (tc[3][i] - tc[2][i]) * ax;

            c[i] = top + (bot - top) * ay;
        }
    }
}

/*
 * Filter level l at (u, v) and, for 3D textures, r: the slice is chosen
 * in the level's own depth d_L (5.3), point or linear between slices as
 * VOL_FILTER says (0: as the level's MIN/MAG filter), R wrapped by
 * CLAMP_R; a slice outside a border-mode texture is the border colour.
 */
static void sample_level(R500Worker *w, const R500TxUnit *t, unsigned l,
                         uint32_t face, float u, float v, float r,
                         bool linear, float c[4])
{
    const R500TxLevel *lv = &t->level[l];
    bool vlin;
    float z;

    if (t->coord_type != COORD_3D) {
        sample_2d(w, t, l, face, u, v, linear, c);
        return;
    }
    vlin = t->vol == MIP_LINEAR || (t->vol == MIP_NONE && linear);
    z = r * lv->d;
    if (t->wrap[2] == WRAP_CLAMP_HALF || t->wrap[2] == WRAP_MIRROR_ONCE_HALF) {
        z = t->wrap[2] == WRAP_MIRROR_ONCE_HALF ? fabsf(z) : z;
        z = z < 0 ? 0 : z > lv->d ? lv->d : z;
    }
    if (!vlin || lv->d == 1) {
        int iz = wrap(tx_index(floorf(z)), lv->d, t->wrap[2]);

        if (iz < 0) {
            memcpy(c, t->border, sizeof(t->border));
        } else {
            sample_2d(w, t, l, iz, u, v, linear, c);
        }
        return;
    }
    {
        float zs = z - 0.5f, fz = floorf(zs);
        float az = floorf((zs - fz) * 256.0f) / 256.0f;
        int64_t z0 = tx_index(fz);
        int iz[2] = { wrap(z0, lv->d, t->wrap[2]),
                      wrap(z0 + 1, lv->d, t->wrap[2]) };
        float sc[2][4];

        for (int k = 0; k < 2; k++) {
            if (iz[k] < 0) {
                memcpy(sc[k], t->border, sizeof(t->border));
            } else {
                sample_2d(w, t, l, iz[k], u, v, linear, sc[k]);
            }
        }
        if (!isfinite(az)) {
            az = 0.0f;
        }
        for (int i = 0; i < 4; i++) {
            c[i] = sc[0][i] + (sc[1][i] - sc[0][i]) * az;
        }
    }
}

/*
 * Cube map faces (GL table 3.21 order +X -X +Y -Y +Z -Z): for each, the
 * direction component and sign giving sc, tc and the major axis ma.
 */
static const int8_t cube_axes[6][3][2] = {
    { { 2, -1 }, { 1, -1 }, { 0, 1 } },
    { { 2, 1 }, { 1, -1 }, { 0, -1 } },
    { { 0, 1 }, { 2, 1 }, { 1, 1 } },
    { { 0, 1 }, { 2, -1 }, { 1, -1 } },
    { { 0, 1 }, { 1, -1 }, { 2, 1 } },
    { { 0, -1 }, { 1, -1 }, { 2, -1 } },
};

static inline float cube_comp(const float d[3], unsigned face, unsigned k)
{
    return cube_axes[face][k][1] * d[cube_axes[face][k][0]];
}

/* The face of direction d, and its face coordinates in [0, 1]. */
static unsigned cube_face(const float d[3], float *s, float *t)
{
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    unsigned face = ax >= ay && ax >= az ? (d[0] >= 0 ? 0 : 1)
                    : ay >= az ? (d[1] >= 0 ? 2 : 3) : (d[2] >= 0 ? 4 : 5);
    float ma = cube_comp(d, face, 2);

    ma = ma == 0.0f ? 1.0f : ma;
    *s = (cube_comp(d, face, 0) / ma + 1.0f) * 0.5f;
    *t = (cube_comp(d, face, 1) / ma + 1.0f) * 0.5f;
    return face;
}

/*
 * The derivatives of a pixel's face coordinates (in texels of a face of
 * size texels) from those of its direction d: d(sc/ma) = (dsc ma - sc
 * dma) / ma^2, on the pixel's own face.  Differencing the face
 * coordinates of neighbouring pixels instead would make the LOD jump
 * wherever a pixel of the quad (a helper pixel past the primitive, say)
 * falls on another face; GL and llvmpipe derive it this way, the R500's
 * own rule is not documented (docs/3d.md).
 */
static void cube_derivs(const float d[3], unsigned face, const float dd[3],
                        float size, float out[3])
{
    float ma = cube_comp(d, face, 2), dma = cube_comp(dd, face, 2);
    float k;

    ma = ma == 0.0f ? 1.0f : ma;
    k = 0.5f * size / (ma * ma);
    for (unsigned c = 0; c < 2; c++) {
        out[c] = (cube_comp(dd, face, c) * ma - cube_comp(d, face, c) * dma) *
                 k;
    }
    out[2] = 0.0f;
}

static const R500TxUnit *tx_unit(const R500Tx *tx, unsigned id)
{
    /* TX_FILTER0.ID names the logical unit; Mesa uses the identity. */
    if (id < R500_TX_UNITS && tx->unit[id].valid && tx->unit[id].id == id) {
        return &tx->unit[id];
    }
    for (unsigned i = 0; i < R500_TX_UNITS; i++) {
        if (tx->unit[i].valid && tx->unit[i].id == id) {
            return &tx->unit[i];
        }
    }
    return NULL;
}

/*
 * The LOD of one pixel from its texel-space footprint: the longer of the
 * x and y gradient vectors (u, v and, for 3D textures, r; in level-0
 * texels), as GL's scale factor rho.
 */
static float tx_lod(const float dx[3], const float dy[3], bool three)
{
    float lx = dx[0] * dx[0] + dx[1] * dx[1];
    float ly = dy[0] * dy[0] + dy[1] * dy[1];

    if (three) {
        lx += dx[2] * dx[2];
        ly += dy[2] * dy[2];
    }
    return log2f(fmaxf(sqrtf(lx), sqrtf(ly)));
}

void r500_tx_sample_quad(R500Worker *w, unsigned id, unsigned op,
                         bool unscaled, const float coord[4][4],
                         const float (*grad)[4][4], float out[4][4])
{
    const R500TxUnit *t = tx_unit(w->ctx->tx, id);
    float u[4], v[4], r[4], lod[4], dir[4][3];
    uint32_t layer[4] = { 0, 0, 0, 0 };
    float w0, h0, d0;

    w->st.tx_samples++;
    if (!t) {
        for (int c = 0; c < 4; c++) {
            for (int p = 0; p < 4; p++) {
                out[c][p] = 0.0f;
            }
        }
        if (id < R500_TX_UNITS) {
            tx_problem(w->s, id, "sampled while not enabled or not usable");
        }
        return;
    }
    w0 = t->level[0].w;
    h0 = t->level[0].h;
    d0 = t->coord_type == COORD_3D ? t->level[0].d : 0.0f;
    for (int p = 0; p < 4; p++) {
        float q = coord[3][p];

        u[p] = coord[0][p];
        v[p] = coord[1][p];
        r[p] = coord[2][p];
        if (op == R500_TEX_PROJ) {
            u[p] /= q;
            v[p] /= q;
            r[p] /= q;
        }
        if (unscaled) {
            u[p] /= w0;
            v[p] /= h0;
            if (d0) {
                r[p] /= d0;
            }
        }
        if (t->coord_type == COORD_CUBE) {
            dir[p][0] = u[p];
            dir[p][1] = v[p];
            dir[p][2] = r[p];
            layer[p] = cube_face(dir[p], &u[p], &v[p]);
        }
    }
    if (op == R500_TEX_LOD) {
        /* the explicit LOD in each pixel's Q */
        for (int p = 0; p < 4; p++) {
            lod[p] = coord[3][p];
        }
    } else if (t->coord_type == COORD_CUBE) {
        /* each pixel's face coordinates differentiated on its own face */
        for (int p = 0; p < 4; p++) {
            float dd[2][3], fd[2][3];

            for (int k = 0; k < 3; k++) {
                bool g = op == R500_TEX_DXDY && grad;

                dd[0][k] = g ? grad[0][k][p] : dir[1][k] - dir[0][k];
                dd[1][k] = g ? grad[1][k][p] : dir[2][k] - dir[0][k];
            }
            cube_derivs(dir[p], layer[p], dd[0], w0, fd[0]);
            cube_derivs(dir[p], layer[p], dd[1], w0, fd[1]);
            lod[p] = tx_lod(fd[0], fd[1], false) +
                     (op == R500_TEX_LODBIAS ? coord[3][p] : 0.0f);
        }
    } else if (op == R500_TEX_DXDY && grad) {
        /* each pixel's own gradients, in the coordinates' units */
        float sw = unscaled ? 1.0f : w0, sh = unscaled ? 1.0f : h0;
        float sd = unscaled ? 1.0f : d0;

        for (int p = 0; p < 4; p++) {
            float dx[3] = { grad[0][0][p] * sw, grad[0][1][p] * sh,
                            grad[0][2][p] * sd };
            float dy[3] = { grad[1][0][p] * sw, grad[1][1][p] * sh,
                            grad[1][2][p] * sd };

            lod[p] = tx_lod(dx, dy, d0 != 0.0f);
        }
    } else {
        /* derivatives across the quad, in level-0 texels */
        float dx[3] = { (u[1] - u[0]) * w0, (v[1] - v[0]) * h0,
                        (r[1] - r[0]) * d0 };
        float dy[3] = { (u[2] - u[0]) * w0, (v[2] - v[0]) * h0,
                        (r[2] - r[0]) * d0 };
        float l = tx_lod(dx, dy, d0 != 0.0f);

        for (int p = 0; p < 4; p++) {
            /* LODBIAS: each pixel's Q is its own bias */
            lod[p] = op == R500_TEX_LODBIAS ? l + coord[3][p] : l;
        }
    }

    for (int p = 0; p < 4; p++) {
        float lp = lod[p] + t->lod_bias;
        bool mag;
        unsigned filt;
        bool linear;
        float c[4], l;

        if (isnan(lp)) {
            lp = 0.0f;
        }
        mag = lp <= 0.0f;
        filt = mag ? t->mag : t->min;
        linear = filt == FILTER_LINEAR || filt == FILTER_ANISO;
        l = fminf(fmaxf(lp, (float)t->first), (float)t->last);
        if (mag || t->mip == MIP_NONE) {
            sample_level(w, t, t->first, layer[p], u[p], v[p], r[p], linear,
                         c);
        } else if (t->mip == MIP_POINT) {
            unsigned lv = (unsigned)floorf(l + 0.5f);

            sample_level(w, t, MIN(lv, t->last), layer[p], u[p], v[p], r[p],
                         linear, c);
        } else {
            unsigned l0 = (unsigned)floorf(l), l1 = MIN(l0 + 1, t->last);
            float f = l - l0, c1[4];

            sample_level(w, t, l0, layer[p], u[p], v[p], r[p], linear, c);
            if (l1 != l0 && f > 0.0f) {
                sample_level(w, t, l1, layer[p], u[p], v[p], r[p], linear,
                             c1);
                for (int i = 0; i < 4; i++) {
                    c[i] += (c1[i] - c[i]) * f;
                }
            }
        }
        /* SEL_RED/GREEN/BLUE/ALPHA: component 0-3, 4 zero, 5 one */
        for (int ch = 0; ch < 4; ch++) {
            unsigned sel = t->sel[ch];

            out[ch][p] = sel < 4 ? c[sel] : sel == 5 ? 1.0f : 0.0f;
        }
    }
}

/* ---- Whole images, for the host-GL renderer's uploads ---- */

unsigned r500_tx_layers(const R500TxUnit *t, unsigned l)
{
    return t->coord_type == COORD_CUBE ? 6
           : t->coord_type == COORD_3D ? t->level[l].d : 1;
}

bool r500_tx_image(R500Worker *w, const R500TxUnit *t, unsigned l,
                   float *rgba)
{
    const R500TxLevel *lv;

    if (!t->valid || l > t->last) {
        return false;
    }
    lv = &t->level[l];
    for (unsigned z = 0; z < r500_tx_layers(t, l); z++) {
        for (uint32_t y = 0; y < lv->h; y++) {
            for (uint32_t x = 0; x < lv->w; x++) {
                texel(w, t, l, z, x, y, rgba);
                rgba += 4;
            }
        }
    }
    return true;
}

/* ---- The block ---- */

/*
 * The units are decoded again from the registers for every draw
 * (r500_tx_prepare); reset forgets them and the reports made.
 */
static void tx_reset(R500Chip *s)
{
    memset(s->tx.unit, 0, sizeof(s->tx.unit));
    s->tx.logged = 0;
}

const R500Block r500_tx_block = {
    .name = "tx",
    .reset = tx_reset,
};
