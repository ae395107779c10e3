/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Texture units against hostile state (docs/reliability.md, the bad-input
 * contract): sizes at the fields' limits, mip chains past the end of VRAM
 * and past 4 GiB, huge pitches and depths, too many levels.  Sampling goes
 * through r500_tx_prepare() and r500_tx_sample_quad() as the US does.
 */
#include <string.h>

#include "test-3d.h"

#define MIB (1024u * 1024u)

/* Unit 0: ARGB8888 (SEL R G B A = 0 1 2 3), point sampled, clamped. */
static void tex_unit0(TestHost *h, uint32_t f0, uint32_t f2, uint32_t off,
                      unsigned coord_type)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, 2 | 2u << 3 | 2u << 6 | 1u << 9 |
                   1u << 11);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, f0);
    r500_reg_write(s, R_TX_FORMAT1, R500_TXF_8_8_8_8 | 3u << 9 | 0u << 12 |
                   1u << 15 | 2u << 18 | coord_type << 25);
    r500_reg_write(s, R_TX_FORMAT2, f2);
    r500_reg_write(s, R_TX_OFFSET, off);
    r500_tx_prepare(s);
}

/* Sample unit 0 at texel (x, y) of level 0 (unscaled coordinates). */
static void sample(TestHost *h, float x, float y, float c[4])
{
    float coord[4][4], out[4][4];

    for (int p = 0; p < 4; p++) {
        coord[0][p] = x + 0.5f;
        coord[1][p] = y + 0.5f;
        coord[2][p] = 0.0f;
        coord[3][p] = 1.0f;
    }
    r500_tx_sample_quad(r500_pipe_begin(&h->chip), 0, R500_TEX_LD, true,
                        (const float (*)[4])coord, NULL, out);
    for (int ch = 0; ch < 4; ch++) {
        c[ch] = out[ch][0];
    }
}

static void assert_rgba(const float c[4], float v)
{
    for (int ch = 0; ch < 4; ch++) {
        g_assert_cmpfloat(c[ch], ==, v);
    }
}

/*
 * The largest 2D texture the fields allow (4096 x 4096, 64 MiB) at 8 MiB
 * on a 16 MiB card: the unit is usable; texels inside VRAM sample, texels
 * past its end read as 0 (one guest error per failing page from the MC,
 * one per draw from the page cache), and nothing outside VRAM is touched
 * (the sanitized build checks).
 */
static void test_past_vram(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const uint32_t base = 8 * MIB, pitch = 4096 * 4;
    float c[4];

    memset(h->vram + base, 0xFF, 4);                    /* texel (0, 0) */
    memset(h->vram + base + 511 * pitch + 4095 * 4, 0xFF, 4);  /* last row */
    tex_unit0(h, 4095 | 4095u << 11, 1u << 15 | 1u << 16, base, 0);
    g_assert_true(s->tx.unit[0].valid);
    g_assert_cmpuint(s->tx.unit[0].level[0].w, ==, 4096);
    g_assert_cmpuint(s->tx.unit[0].level[0].h, ==, 4096);
    sample(h, 0, 0, c);
    assert_rgba(c, 1.0f);
    sample(h, 4095, 511, c);
    assert_rgba(c, 1.0f);
    g_assert_cmpuint(s->guest_errors, ==, 0);
    /* row 512 starts at 16 MiB: the end of VRAM */
    sample(h, 0, 512, c);
    assert_rgba(c, 0.0f);
    sample(h, 4095, 4095, c);
    assert_rgba(c, 0.0f);
    /*
     * Past the FB window the MC passes the address to the bus (guest RAM
     * is 16 MiB here): each page that fails says so, and the page cache
     * once per draw.
     */
    g_assert_cmpuint(test_host_count_logs(h, "not reachable"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "MC: read at MC address "
                                          "0x1000000 failed"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "MC: read"), ==, 2);
    g_assert_cmpuint(s->guest_errors, ==, 3);
    test_host_free(h);
}

/*
 * Chains that end past the 32-bit MC space: a 64 x 64 texture 4 KiB below
 * 4 GiB, a 4096-row texture with the largest pitch (16384 texels), a 3D
 * texture 2^15 deep.  The unit is unusable: it samples as 0, one guest
 * error per unit (until reset), no texel is read.
 */
static void test_past_4g(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint64_t misses;
    float c[4];

    tex_unit0(h, 63 | 63u << 11, 0, 0xFFFFF000u, 0);
    g_assert_false(s->tx.unit[0].valid);
    g_assert_cmpuint(test_host_count_logs(h, "runs past 4 GiB"), ==, 1);
    misses = s->rb3d.cache.misses;
    sample(h, 0, 0, c);
    assert_rgba(c, 0.0f);
    g_assert_cmpuint(s->rb3d.cache.misses, ==, misses);
    /* said once per unit */
    g_assert_cmpuint(test_host_count_logs(h, "texture unit 0"), ==, 1);

    /* TXPITCH_EN, pitch 16384 texels, 4096 rows at 3.5 GiB: 256 MiB */
    tex_unit0(h, 4095 | 4095u << 11 | 1u << 31, 0x3FFF | 1u << 15 | 1u << 16,
              0xF8000000u, 0);
    g_assert_false(s->tx.unit[0].valid);
    sample(h, 0, 0, c);
    assert_rgba(c, 0.0f);
    /* a 3D texture 4096 x 4096 x 32768 at 0 */
    tex_unit0(h, 4095 | 4095u << 11 | 15u << 22, 1u << 15 | 1u << 16, 0, 1);
    g_assert_false(s->tx.unit[0].valid);
    g_assert_cmpuint(test_host_count_logs(h, "texture unit 0"), ==, 1);
    g_assert_cmpuint(s->rb3d.cache.misses, ==, misses);
    test_host_free(h);
}

/*
 * NUM_LEVELS past the last level the unit has (12, for 4096): clamped,
 * the smallest levels are 1 x 1; no error.
 */
static void test_too_many_levels(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const R500TxUnit *t = &s->tx.unit[0];

    tex_unit0(h, 3 | 3u << 11 | 15u << 26, 0, 0, 0);
    g_assert_true(t->valid);
    g_assert_cmpuint(t->last, ==, R500_TX_LEVELS - 1);
    g_assert_cmpuint(t->level[2].w, ==, 1);
    g_assert_cmpuint(t->level[R500_TX_LEVELS - 1].w, ==, 1);
    g_assert_cmpuint(t->level[R500_TX_LEVELS - 1].h, ==, 1);
    g_assert_cmpuint(s->guest_errors, ==, 0);
    test_host_free(h);
}

/* ---- LOD, 3D and cube mip chains ---- */

#define FMT_8888_ID     (R500_TXF_8_8_8_8 | 3u << 9 | 0u << 12 | 1u << 15 | \
                         2u << 18)
/* point MIN and MAG, point between levels, clamped */
#define FILTER_MIP_POINT (2 | 2u << 3 | 2u << 6 | 1u << 9 | 1u << 11 | \
                          1u << 13)

/*
 * Fill every texel of level l, layer (face or slice) z of unit 0 with the
 * byte v(l, z).  The addresses are the unit's own layout (tested against
 * 5.4 elsewhere); what is tested here is which level and layer is read.
 */
static void fill_levels(TestHost *h, uint8_t (*v)(unsigned l, unsigned z))
{
    const R500TxUnit *t = &h->chip.tx.unit[0];

    g_assert_true(t->valid);
    for (unsigned l = 0; l <= t->last; l++) {
        const R500TxLevel *lv = &t->level[l];
        unsigned layers = t->coord_type == 2 ? 6 : lv->d;

        for (unsigned z = 0; z < layers; z++) {
            for (unsigned y = 0; y < lv->h; y++) {
                for (unsigned x = 0; x < lv->w; x++) {
                    uint64_t a = lv->surf.base + z * lv->layer_bytes +
                                 r500_surf_offset(&lv->surf, x, y);

                    memset(h->vram + a, v(l, z), 4);
                }
            }
        }
    }
}

static uint8_t level_byte(unsigned l, unsigned z)
{
    return (l + 1) * 40 + z * 10;
}

/* An 8 x 8 RGBA8 2D texture with levels 0-3, point mip filtering. */
static void mip2d(TestHost *h)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, FILTER_MIP_POINT);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, 7 | 7u << 11 | 3u << 26);
    r500_reg_write(s, R_TX_FORMAT1, FMT_8888_ID);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(s);
    fill_levels(h, level_byte);
}

static void quad(TestHost *h, unsigned op, const float coord[4][4],
                 float out[4][4])
{
    r500_tx_sample_quad(r500_pipe_begin(&h->chip), 0, op, false, coord, NULL, out);
}

/*
 * The LOD of the LOD instruction and the bias of LODBIAS are each
 * pixel's own Q (reference 5.3), not pixel 0's: Q = p selects level p.
 * For LODBIAS the quad's footprint is one texel per pixel (LOD 0).
 */
static void test_per_pixel_lod(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float coord[4][4], out[4][4];

    mip2d(h);
    for (int op = R500_TEX_LODBIAS; op <= R500_TEX_LOD; op++) {
        for (int p = 0; p < 4; p++) {
            coord[0][p] = ((p & 1) + 0.5f) / 8;
            coord[1][p] = ((p >> 1) + 0.5f) / 8;
            coord[2][p] = 0.0f;
            coord[3][p] = p;
        }
        quad(h, op, (const float (*)[4])coord, out);
        for (int p = 0; p < 4; p++) {
            for (int ch = 0; ch < 4; ch++) {
                g_assert_cmpfloat(out[ch][p], ==, level_byte(p, 0) / 255.0f);
            }
        }
    }
    test_host_free(h);
}

/*
 * DXDY (reference 3.9, 5.3): the LOD from the gradients in the DX and DY
 * registers, per pixel: d(S)/dx = 2^p texels selects level p.  Run as a
 * US program: TEX DXDY t0 -> t3, DX t1, DY t2.
 */
static void test_dxdy(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500UsQuad *q = &h->chip.pipe.w0.q;
    uint32_t w[6] = {
        3 | 7u << 11 | 1u << 14,                    /* TEX, write RGBA */
        6u << 22,                                   /* TEX_ID 0, DXDY */
        0 | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14 |
        3u << 16 | 0u << 24 | 1u << 26 | 2u << 28 | 3u << 30,
        /* DX t1, DY t2, S/T/R/Q from R/G/B/A */
        1 | 0xE4u << 8 | 2u << 16 | 0xE4u << 24,
    };

    mip2d(h);
    t3d_us_program(h, w, 1);
    g_assert_true(r500_us_prepare(&h->chip));
    memset(q->t, 0, sizeof(q->t));
    q->cover = 0xF;
    for (int p = 0; p < 4; p++) {
        q->t[0][0][p] = q->t[0][1][p] = 0.5f;
        q->t[1][0][p] = (float)(1 << p) / 8;        /* dS/dx, normalised */
        q->t[2][1][p] = 1.0f / 8;                   /* dT/dy: one texel */
    }
    r500_us_run_quad(r500_pipe_begin(&h->chip));
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat(q->t[3][0][p], ==, level_byte(p, 0) / 255.0f);
    }
    test_host_free(h);
}

static uint8_t slice_byte(unsigned l, unsigned z)
{
    return l * 64 + z * 16 + 8;
}

/* A 4 x 4 x 4 RGBA8 3D texture, levels 0-2, VOL_FILTER vol. */
static void mip3d(TestHost *h, unsigned vol)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, FILTER_MIP_POINT | vol << 15);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, 3 | 3u << 11 | 2u << 22 | 2u << 26);
    r500_reg_write(s, R_TX_FORMAT1, FMT_8888_ID | 1u << 25);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(s);
    fill_levels(h, slice_byte);
}

/* Sample unit 0 with the LOD instruction at (0.5, 0.5, r), LOD lod. */
static float sample_lod(TestHost *h, float s, float t, float r, float lod)
{
    float coord[4][4], out[4][4];

    for (int p = 0; p < 4; p++) {
        coord[0][p] = s;
        coord[1][p] = t;
        coord[2][p] = r;
        coord[3][p] = lod;
    }
    quad(h, R500_TEX_LOD, (const float (*)[4])coord, out);
    return out[0][0];
}

/*
 * A 3D texture's slice is chosen in each level's own depth d_L (5.3):
 * at level 1 (depth 2) R = 0.75 is slice 1, R = 0.25 slice 0.  Between
 * slices VOL_FILTER: 1 point (R = 0.5 at depth 4: slice 2), 2 linear
 * (slices 1 and 2 half each), 0 as the point MIN/MAG filter.
 */
static void test_3d_mips(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);

    mip3d(h, 0);
    g_assert_cmpfloat(sample_lod(h, 0.5f, 0.5f, 0.75f, 1), ==,
                      slice_byte(1, 1) / 255.0f);
    g_assert_cmpfloat(sample_lod(h, 0.5f, 0.5f, 0.25f, 1), ==,
                      slice_byte(1, 0) / 255.0f);
    g_assert_cmpfloat(sample_lod(h, 0.5f, 0.5f, 0.9f, 2), ==,
                      slice_byte(2, 0) / 255.0f);
    g_assert_cmpfloat(sample_lod(h, 0.5f, 0.5f, 0.5f, 0), ==,
                      slice_byte(0, 2) / 255.0f);
    mip3d(h, 1);
    g_assert_cmpfloat(sample_lod(h, 0.5f, 0.5f, 0.5f, 0), ==,
                      slice_byte(0, 2) / 255.0f);
    mip3d(h, 2);
    g_assert_cmpfloat_with_epsilon(sample_lod(h, 0.5f, 0.5f, 0.5f, 0),
                                   (slice_byte(0, 1) + slice_byte(0, 2)) /
                                   2 / 255.0f, 1e-6);
    /* a quarter of the way from slice 0's centre to slice 1's */
    g_assert_cmpfloat_with_epsilon(sample_lod(h, 0.5f, 0.5f, 0.1875f, 0),
                                   (0.75f * slice_byte(0, 0) +
                                    0.25f * slice_byte(0, 1)) / 255.0f, 1e-6);
    test_host_free(h);
}

static uint8_t face_byte(unsigned l, unsigned f)
{
    return l * 100 + f * 10 + 5;
}

/*
 * An RGBA8 cube map of size x size faces with levels 0..last, point
 * mip filtering, every texel of level l, face f face_byte(l, f).
 */
static void cube_mips(TestHost *h, unsigned size, unsigned last)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, FILTER_MIP_POINT);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, (size - 1) | (size - 1) << 11 |
                   last << 26);
    r500_reg_write(s, R_TX_FORMAT1, FMT_8888_ID | 2u << 25);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
    r500_tx_prepare(s);
    fill_levels(h, face_byte);
}

/* A 4 x 4 cube map with levels 0-1: face and level both chosen. */
static void test_cube_mips(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);

    cube_mips(h, 4, 1);
    /* -X at level 1, +Z at level 0, -Y at level 1 (GL table 3.21) */
    g_assert_cmpfloat(sample_lod(h, -1.0f, 0.1f, 0.2f, 1), ==,
                      face_byte(1, 1) / 255.0f);
    g_assert_cmpfloat(sample_lod(h, 0.1f, 0.2f, 1.0f, 0), ==,
                      face_byte(0, 4) / 255.0f);
    g_assert_cmpfloat(sample_lod(h, 0.1f, -1.0f, 0.2f, 1), ==,
                      face_byte(1, 3) / 255.0f);
    test_host_free(h);
}

/*
 * The LOD of a cube map quad whose lower pixels fall on another face (as
 * a helper pixel below a primitive's edge does): each pixel's face
 * coordinates are differentiated on its own face (GL, llvmpipe), so the
 * two pixels on +X take level 1 (2 texels per pixel).  Differencing the
 * face coordinates of pixels on different faces gave level 2 (piglit
 * cubemap, every 4x4 level drawn at an odd row).
 */
static void test_cube_lod_across_faces(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    /* 8 x 8 faces: 0.5 in r is 2 texels on +X */
    static const float coord[4][4] = {
        { 1.0f, 1.0f, 1.0f, 1.0f },
        { 0.9f, 0.9f, 1.4f, 1.4f },
        { 0.0f, -0.5f, 0.0f, -0.5f },
        { 0.0f, 0.0f, 0.0f, 0.0f },
    };
    static const unsigned face[4] = { 0, 0, 2, 2 };
    float out[4][4];

    cube_mips(h, 8, 3);
    quad(h, R500_TEX_LD, coord, out);
    for (int p = 0; p < 4; p++) {
        g_assert_cmpfloat(out[0][p], ==, face_byte(1, face[p]) / 255.0f);
    }
    test_host_free(h);
}

/*
 * r500_tx_image (the GL renderer's upload) against sampling: every texel
 * of levels 0 and 1, every layer, of textures of several formats and
 * tilings filled with random bytes, equals what point sampling at the
 * texel's centre returns (identity SEL), bit for bit.  It is the layout
 * walk that is checked: formats, tiles, pitches, faces and slices.
 */
static void test_image(void)
{
    static const struct {
        uint32_t fmt, tiling;       /* TX_OFFSET bits 2-4 */
        bool three;
    } cases[] = {
        { R500_TXF_8_8_8_8, 0 }, { R500_TXF_8_8_8_8, 1u << 3 },
        { R500_TXF_8_8_8_8, 1u << 2 | 1u << 3 }, { R500_TXF_5_6_5, 2u << 3 },
        { R500_TXF_8_8, 0 }, { R500_TXF_DXT1, 0 }, { R500_TXF_DXT5, 0 },
        { R500_TXF_16F_16F_16F_16F, 1u << 3 }, { R500_TXF_32F, 0 },
        { R500_TXF_8_8_8_8, 1u << 3, true }, { R500_TXF_16F, 0, true },
    };
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    GRand *r = g_rand_new_with_seed(3);
    static float img[64 * 32 * 4 * 4];

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        const R500TxUnit *t = &s->tx.unit[0];
        unsigned w = 64, hh = 32, dlog = cases[i].three ? 2 : 0;

        r500_reg_write(s, R_TX_ENABLE, 1);
        r500_reg_write(s, R_TX_FILTER0, FILTER_MIP_POINT);
        r500_reg_write(s, R_TX_FILTER1, 0);
        r500_reg_write(s, R_TX_FORMAT0, (w - 1) | (hh - 1) << 11 |
                       dlog << 22 | 1u << 26);
        r500_reg_write(s, R_TX_FORMAT1, (FMT_8888_ID & ~0x1Fu) |
                       cases[i].fmt | (cases[i].three ? 1u << 25 : 0));
        r500_reg_write(s, R_TX_FORMAT2, 0);
        r500_reg_write(s, R_TX_OFFSET, T3D_TEX | cases[i].tiling);
        r500_tx_prepare(s);
        g_assert_true(t->valid);
        for (uint64_t a = T3D_TEX; a < t->chain_end; a++) {
            h->vram[a] = g_rand_int(r);
        }
        for (unsigned l = 0; l <= 1; l++) {
            const R500TxLevel *lv = &t->level[l];
            unsigned layers = r500_tx_layers(t, l);

            g_assert_cmpuint(layers, ==, cases[i].three ? lv->d : 1);
            g_assert_cmpuint(lv->w * lv->h * layers * 4, <=,
                             G_N_ELEMENTS(img));
            g_assert_true(r500_tx_image(r500_pipe_begin(s), t, l, img));
            for (unsigned z = 0; z < layers; z++) {
                for (unsigned y = 0; y < lv->h; y++) {
                    for (unsigned x = 0; x < lv->w; x++) {
                        const float *e = img + ((z * lv->h + y) * lv->w + x) * 4;
                        float coord[4][4], out[4][4];

                        for (int p = 0; p < 4; p++) {
                            coord[0][p] = (x + 0.5f) / lv->w;
                            coord[1][p] = (y + 0.5f) / lv->h;
                            coord[2][p] = (z + 0.5f) / lv->d;
                            coord[3][p] = l;
                        }
                        quad(h, R500_TEX_LOD, (const float (*)[4])coord, out);
                        for (int c = 0; c < 4; c++) {
                            if (memcmp(&out[c][0], &e[c], 4)) {
                                g_error("case %u level %u texel %u,%u,%u "
                                        "channel %d: sampled %g, image %g",
                                        i, l, x, y, z, c, out[c][0], e[c]);
                            }
                        }
                    }
                }
            }
        }
    }
    /* what a unit cannot give */
    g_assert_false(r500_tx_image(r500_pipe_begin(s), &s->tx.unit[0], 5, img));
    g_assert_false(r500_tx_image(r500_pipe_begin(s), &s->tx.unit[1], 0, img));
    g_rand_free(r);
    test_host_free(h);
}

/* Anisotropic filtering is not modelled: said once, filtered bilinear. */
static void test_aniso_reported(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;

    mip2d(h);
    g_assert_cmpuint(s->unimp_events, ==, 0);
    r500_reg_write(s, R_TX_FILTER0, FILTER_MIP_POINT | 2u << 21);
    r500_tx_prepare(s);
    r500_tx_prepare(s);
    g_assert_cmpuint(test_host_count_logs(h, "anisotropic"), ==, 1);
    g_assert_cmpuint(s->unimp_events, ==, 1);
    test_host_free(h);
}

/*
 * The TX block's own reset: a unit's problem is reported once, until the
 * chip is reset; reset also forgets the decoded units.
 */
static void test_reset(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    tex_unit0(h, 3 | 3u << 11, 0, 0, 0);
    g_assert_true(s->tx.unit[0].valid);
    tex_unit0(h, 3 | 3u << 11, 0, 0, 3);
    tex_unit0(h, 3 | 3u << 11, 0, 0, 3);
    g_assert_cmpuint(test_host_count_logs(h, "TEX_COORD_TYPE 3"), ==, 1);
    r500_chip_reset(s);
    g_assert_false(s->tx.unit[0].valid);
    tex_unit0(h, 3 | 3u << 11, 0, 0, 3);
    g_assert_cmpuint(test_host_count_logs(h, "TEX_COORD_TYPE 3"), ==, 2);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tx/reset", test_reset);
    g_test_add_func("/tx/per-pixel-lod", test_per_pixel_lod);
    g_test_add_func("/tx/dxdy", test_dxdy);
    g_test_add_func("/tx/3d-mips", test_3d_mips);
    g_test_add_func("/tx/cube-mips", test_cube_mips);
    g_test_add_func("/tx/cube-lod-across-faces", test_cube_lod_across_faces);
    g_test_add_func("/tx/image", test_image);
    g_test_add_func("/tx/aniso-reported", test_aniso_reported);
    g_test_add_func("/tx/contract/past-vram", test_past_vram);
    g_test_add_func("/tx/contract/past-4g", test_past_4g);
    g_test_add_func("/tx/contract/too-many-levels", test_too_many_levels);
    return g_test_run();
}
