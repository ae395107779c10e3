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
    return true;
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
        if (R500_FGET(f1, TX_FORMAT1, YUV_TO_RGB)) {
            r500_3d_unimp_once(s, R500_3D_UNIMP_TX_FORMAT, "3D: YUV to RGB "
                               "texture conversion is not modelled");
        }
        t->wrap[0] = R500_FGET(fl0, TX_FILTER0, CLAMP_S);
        t->wrap[1] = R500_FGET(fl0, TX_FILTER0, CLAMP_T);
        t->wrap[2] = R500_FGET(fl0, TX_FILTER0, CLAMP_R);
        t->mag = R500_FGET(fl0, TX_FILTER0, MAG_FILTER);
        t->min = R500_FGET(fl0, TX_FILTER0, MIN_FILTER);
        t->mip = R500_FGET(fl0, TX_FILTER0, MIP_FILTER);
        t->last = MIN(R500_FGET(f0, TX_FORMAT0, NUM_LEVELS),
                      R500_TX_LEVELS - 1u);
        t->first = MIN(R500_FGET(fl0, TX_FILTER0, MAX_MIP_LEVEL), t->last);
        /* LOD_BIAS: signed s4.5 */
        bias = (int)(R500_FGET(fl1, TX_FILTER1, LOD_BIAS) << 22) >> 22;
        t->lod_bias = bias / 32.0f;
        t->dxtc_swizzle = R500_FGET(fl1, TX_FILTER1, DXTC_SWIZZLE_ENABLE);
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
            for (int k = 0; k < 4; k++) {
                t->border[k] = c[k];
            }
        }
        t->valid = true;
    }
}

/* ---- Sampling ---- */

/* Texel index i wrapped into [0, n), or -1 for the border colour. */
static int wrap(int64_t i, int64_t n, unsigned mode)
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

/* One texel's components (before SEL), or the border. */
static void texel(R500Worker *w, const R500TxUnit *t, unsigned l,
                  uint32_t layer, int x, int y, float c[4])
{
    const R500TxLevel *lv = &t->level[l];
    const uint8_t *p;
    uint64_t mc;

    if (x < 0 || y < 0) {
        memcpy(c, t->border, sizeof(t->border));
        return;
    }
    if (t->info->block) {
        mc = lv->surf.base + layer * lv->layer_bytes +
             r500_surf_offset(&lv->surf, x / 4, y / 4);
    } else {
        mc = lv->surf.base + layer * lv->layer_bytes +
             r500_surf_offset(&lv->surf, x, y);
    }
    p = r500_cache_access(w->s, w->cache, mc, t->info->bytes, false);
    if (!p) {
        c[0] = c[1] = c[2] = c[3] = 0.0f;
        return;
    }
    r500_tx_decode(t->fmt, p, x, y, t->sign, t->pow2fix, c);
    if (t->dxtc_swizzle && t->fmt >= R500_TXF_DXT1 && t->fmt <= R500_TXF_DXT5) {
        float r = c[0];

        c[0] = c[2];
        c[2] = r;
    }
}

/* Filter one level at normalised (u, v) -> components. */
static void sample_level(R500Worker *w, const R500TxUnit *t, unsigned l,
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
        float fx = floorf(x), fy = floorf(y);
        int ix = wrap(isfinite(fx) ? (int64_t)fmaxf(fminf(fx, 1e9f), -1e9f)
                      : 0, lv->w, t->wrap[0]);
        int iy = wrap(isfinite(fy) ? (int64_t)fmaxf(fminf(fy, 1e9f), -1e9f)
                      : 0, lv->h, t->wrap[1]);

        texel(w, t, l, layer, ix, iy, c);
        return;
    }
    {
        float xs = x - 0.5f, ys = y - 0.5f;
        float fx = floorf(xs), fy = floorf(ys);
        /* weights in 1/256 */
        float ax = floorf((xs - fx) * 256.0f) / 256.0f;
        float ay = floorf((ys - fy) * 256.0f) / 256.0f;
        int64_t x0 = isfinite(fx) ? (int64_t)fmaxf(fminf(fx, 1e9f), -1e9f) : 0;
        int64_t y0 = isfinite(fy) ? (int64_t)fmaxf(fminf(fy, 1e9f), -1e9f) : 0;
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

/* Cube map face and face coordinates (GL table 3.21 order +X -X +Y -Y +Z -Z) */
static unsigned cube_face(float *s, float *t, float r)
{
    float x = *s, y = *t, ax = fabsf(x), ay = fabsf(y), az = fabsf(r);
    float sc, tc, ma;
    unsigned face;

    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        ma = ax;
        sc = x >= 0 ? -r : r;
        tc = -y;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        ma = ay;
        sc = x;
        tc = y >= 0 ? r : -r;
    } else {
        face = r >= 0 ? 4 : 5;
        ma = az;
        sc = r >= 0 ? x : -x;
        tc = -y;
    }
    ma = ma == 0.0f ? 1.0f : ma;
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
    return face;
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

void r500_tx_sample_quad(R500Worker *w, unsigned id, unsigned op,
                         bool unscaled, const float coord[4][4],
                         float out[4][4])
{
    const R500TxUnit *t = tx_unit(w->ctx->tx, id);
    float u[4], v[4], r[4], lod = 0.0f;
    uint32_t layer[4] = { 0, 0, 0, 0 };

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
            u[p] /= t->level[0].w;
            v[p] /= t->level[0].h;
        }
        if (t->coord_type == COORD_CUBE) {
            layer[p] = cube_face(&u[p], &v[p], r[p]);
        }
    }
    if (op == R500_TEX_LOD) {
        lod = coord[3][0];
    } else {
        /* derivatives across the quad, in level-0 texels */
        float w0 = t->level[0].w, h0 = t->level[0].h;
        float dudx = (u[1] - u[0]) * w0, dvdx = (v[1] - v[0]) * h0;
        float dudy = (u[2] - u[0]) * w0, dvdy = (v[2] - v[0]) * h0;
        float rho = fmaxf(sqrtf(dudx * dudx + dvdx * dvdx),
                          sqrtf(dudy * dudy + dvdy * dvdy));

        lod = log2f(rho);
        if (op == R500_TEX_LODBIAS) {
            lod += coord[3][0];
        }
    }
    lod += t->lod_bias;
    if (isnan(lod)) {
        lod = 0.0f;
    }

    for (int p = 0; p < 4; p++) {
        bool mag = lod <= 0.0f;
        unsigned filt = mag ? t->mag : t->min;
        bool linear = filt == FILTER_LINEAR || filt == FILTER_ANISO;
        float c[4], l = fminf(fmaxf(lod, (float)t->first), (float)t->last);

        if (t->coord_type == COORD_3D) {
            const R500TxLevel *lv = &t->level[t->first];
            int z = wrap((int64_t)floorf(fminf(fmaxf(r[p] * lv->d, -1e9f),
                                               1e9f)), lv->d, t->wrap[2]);
            layer[p] = z < 0 ? 0 : z;
        }
        if (mag || t->mip == MIP_NONE) {
            sample_level(w, t, t->first, layer[p], u[p], v[p], linear, c);
        } else if (t->mip == MIP_POINT) {
            unsigned lv = (unsigned)floorf(l + 0.5f);

            sample_level(w, t, MIN(lv, t->last), layer[p], u[p], v[p],
                         linear, c);
        } else {
            unsigned l0 = (unsigned)floorf(l), l1 = MIN(l0 + 1, t->last);
            float f = l - l0, c1[4];

            sample_level(w, t, l0, layer[p], u[p], v[p], linear, c);
            if (l1 != l0 && f > 0.0f) {
                sample_level(w, t, l1, layer[p], u[p], v[p], linear, c1);
                for (int i = 0; i < 4; i++) {
                    c[i] += (c1[i] - c[i]) * f;
                }
            }
        }
        /* SEL_RED/GREEN/BLUE/ALPHA: component 0-3, 4 zero, 5 one */
        for (int ch = 0; ch < 4; ch++) {
            unsigned sel = t->sel[ch];
            float val = sel < 4 ? c[sel] : sel == 5 ? 1.0f : 0.0f;

            if (t->gamma && ch < 3) {
                /* sRGB to linear */
                val = val <= 0.04045f ? val / 12.92f
                                      : powf((val + 0.055f) / 1.055f, 2.4f);
            }
            out[ch][p] = val;
        }
    }
}
