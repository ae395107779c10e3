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
    r500_tx_sample_quad(r500_soft_begin(&h->chip), 0, R500_TEX_LD, true,
                        (const float (*)[4])coord, out);
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tx/contract/past-vram", test_past_vram);
    g_test_add_func("/tx/contract/past-4g", test_past_4g);
    g_test_add_func("/tx/contract/too-many-levels", test_too_many_levels);
    return g_test_run();
}
