/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Render to texture on the host-GL renderer (gl_tex.c r500_gl_tex_slot,
 * gl_thread.c gl_slot_texture): a target GL drew, not yet written back,
 * sampled by the next draw as an 8_8_8_8 texture is made from the host's
 * copy, not from memory:
 *
 *   exact   every texel value 0..255 of every channel, point sampled into
 *           a float target, the same bits as soft's decode of memory, and
 *           nothing written back for it; linear and macro-tiled;
 *   pieces  the texture over two slots, the halves of a target drawn as
 *           two surfaces whole rows apart (r300's CBZB clear), both used;
 *   memory  what the slots cannot say (a signed fetch) goes through
 *           memory as before, with the same pixels;
 *   kept    a texture sampled by draw after draw is made once, and made
 *           again when a draw has changed the surface it came from;
 *   as-is   a texture of its slot's size (64 x 256: slots are 256 rows)
 *           sampled again, unchanged: from the slot itself with no
 *           conversion, point sampled to soft's bits, bilinear within a
 *           step of 255.
 */
#include <math.h>
#include <string.h>

#include "gl-host.h"

#define SRC             T3D_CB
#define DST             0x180000u
#define N               T3D_W           /* the texture is N x N */

/*
 * Pass 1: every pixel (x, y) of the texture its own flat colour, a
 * different byte in each channel (all 256 values over the texture), for
 * rows y0..y1 - 1, drawn shift rows up (a surface that many rows on).
 */
/*
 * The renderer's textures made from surfaces it held, the conversions
 * they took and the draws that sampled a held surface as it is.
 */
static uint64_t gl_slot_textures(R500Chip *s, uint64_t *passes,
                                 uint64_t *as_is)
{
    *passes = r500_chip_stat(s, "render-gl-slot-texture-passes");
    *as_is = r500_chip_stat(s, "render-gl-slot-textures-as-is");
    return r500_chip_stat(s, "render-gl-slot-textures");
}

static void pass1(TestHost *h, unsigned y0, unsigned y1, unsigned shift)
{
    float *v = g_new(float, 64 * N * 6 * 8), *p = v;

    r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 0);
    for (unsigned y = y0; y < y1; y++) {
        for (unsigned x = 0; x < N; x++) {
            unsigned c[4] = {
                (x * 4 + y) & 255, (y * 4 + x) & 255,
                ((x ^ y) * 4 + 1) & 255, (x + y * 3 + 7) & 255,
            };

            rect_verts(p, x, y - shift, x + 1, y - shift + 1,
                       c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f,
                       c[3] / 255.0f);
            p += 6 * 8;
        }
        /* a draw takes at most 65535 vertices: 64 rows a draw */
        if ((y + 1 - y0) % 64 == 0 || y + 1 == y1) {
            t3d_draw(h, TRIANGLES, v, (p - v) / 8);
            p = v;
        }
    }
    g_free(v);
}

/*
 * Pass 2: target 0 at DST as ARGB32323232 (the texels' floats whole),
 * unit 0 the N x N ARGB8888 surface at SRC (tile: TX_OFFSET's macro
 * bit), point sampled at every texel centre by TEX of the interpolated
 * colour.  sign: SIGNED_COMP on every channel (no slot can say that).
 */
static void pass2_of(TestHost *h, uint32_t src, bool tile, bool sign,
                     unsigned tw, unsigned th, bool linear);

static void pass2(TestHost *h, bool tile, bool sign)
{
    pass2_of(h, SRC, tile, sign, N, N, false);
}

/*
 * Pass 2 of a tw x th texture at src (multiples of N): pixel (x, y)
 * samples texel (x * tw / N + tw / N / 2, likewise y), each a texel
 * centre; linear: a quarter texel to the lower right of one, so that
 * every sample blends four texels.
 */
static void pass2_of(TestHost *h, uint32_t src, bool tile, bool sign,
                     unsigned tw, unsigned th, bool linear)
{
    R500Chip *s = &h->chip;
    float v[6 * 8], qx = tw / N, qy = th / N, off = linear ? 0.25f : 0.0f;

    r500_reg_write(s, R_RB3D_COLOROFFSET, DST);
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | R500_CF_ARGB32323232 << 21);
    r500_reg_write(s, R_US_OUT_FMT, R500_OF_C4_32_FP | 1u << 8 | 2u << 10 |
                   3u << 12);
    r500_reg_write(s, R_TX_ENABLE, 1);
    /* clamp to edge, point sampled, no mipmaps */
    r500_reg_write(s, R_TX_FILTER0, 2 | 2u << 3 | 2u << 6 |
                   (linear ? 2u : 1u) << 9 | (linear ? 2u : 1u) << 11);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, (tw - 1) | (th - 1) << 11);
    /* 8_8_8_8, SEL_R/G/B/A of components 0..3, 2D */
    r500_reg_write(s, R_TX_FORMAT1, R500_TXF_8_8_8_8 | 0u << 9 | 1u << 12 |
                   2u << 15 | 3u << 18 | (sign ? 0xFu << 5 : 0));
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, src | (tile ? 1u << 2 : 0));
    tex_program(h, R500_TEX_LD);
    /* colour = texture coordinates: (0, 0) to (1, 1) over N x N */
    rect_verts(v, 0, 0, N, N, 0, 0, 0, 1);
    for (unsigned i = 0; i < 6; i++) {
        v[8 * i + 4] = (v[8 * i] * qx + (qx - 1) * 0.5f + off) / tw;
        v[8 * i + 5] = (v[8 * i + 1] * qy + (qy - 1) * 0.5f + off) / th;
    }
    t3d_draw(h, TRIANGLES, v, 6);
}

/* A host whose pass-1 target is macro-tiled when tile. */
static TestHost *rtt_host(const char *w, bool tile)
{
    TestHost *h = host(w);

    r500_reg_write(&h->chip, R_RB3D_COLORPITCH, T3D_W | (tile ? 1u << 16 : 0) |
                   R500_CF_ARGB8888 << 21);
    return h;
}

static void assert_same_dst(TestHost *soft, TestHost *gl)
{
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    r500_pipe_sync(&soft->chip, R500_SYNC_FENCE);
    g_assert_true(!memcmp(soft->vram + DST, gl->vram + DST, N * N * 16));
    /* and what was drawn is the texture, not the clear */
    g_assert_cmpuint(gl->vram[DST + 16 * (N * 5 + 3) + 4], !=, 0);
}

static void test_exact(void)
{
    for (unsigned tile = 0; tile < 2; tile++) {
        TestHost *soft = rtt_host("soft", tile), *gl = rtt_host("gl", tile);
        uint64_t up;

        pass1(soft, 0, N, 0);
        pass1(gl, 0, N, 0);
        up = r500_chip_stat(&gl->chip, "render-gl-uploaded");
        pass2(soft, tile, false);
        pass2(gl, tile, false);
        /* made on the host: of memory only the new target was read */
        g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-slot-textures"), ==,
                         1);
        g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-uploaded"), ==, up + N * N * 16);
        assert_gl_draws(gl, 2, 0);
        assert_same_dst(soft, gl);
        test_host_free(soft);
        test_host_free(gl);
    }
}

/* The upper half drawn at SRC, the lower as the surface 32 rows on. */
static void halves(TestHost *h)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_RB3D_COLOROFFSET, SRC);
    pass1(h, 0, N / 2, 0);
    r500_reg_write(s, R_RB3D_COLOROFFSET, SRC + N * N * 2);
    pass1(h, N / 2, N, N / 2);
}

static void test_pieces(void)
{
    TestHost *soft = rtt_host("soft", false), *gl = rtt_host("gl", false);
    TestHost *whole = rtt_host("soft", false);

    halves(soft);
    halves(gl);
    pass1(whole, 0, N, 0);
    /* the two halves make the same surface as one draw */
    g_assert_true(!memcmp(soft->vram + SRC, whole->vram + SRC, N * N * 4));
    pass2(soft, false, false);
    pass2(gl, false, false);
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-slot-textures"), ==, 1);
    assert_gl_draws(gl, 3, 0);
    assert_same_dst(soft, gl);
    test_host_free(soft);
    test_host_free(gl);
    test_host_free(whole);
}

static void test_memory(void)
{
    TestHost *soft = rtt_host("soft", false), *gl = rtt_host("gl", false);

    pass1(soft, 0, N, 0);
    pass1(gl, 0, N, 0);
    pass2(soft, false, true);
    pass2(gl, false, true);
    g_assert_cmpuint(r500_chip_stat(&gl->chip, "render-gl-slot-textures"), ==, 0);
    assert_same_dst(soft, gl);
    test_host_free(soft);
    test_host_free(gl);
}

/* Pass 1's state again after a pass 2: ARGB8888 at SRC, no texture. */
static void to_src(TestHost *h, uint32_t out_fmt)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_RB3D_COLOROFFSET, SRC);
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | R500_CF_ARGB8888 << 21);
    r500_reg_write(s, R_US_OUT_FMT, out_fmt);
    r500_reg_write(s, R_TX_ENABLE, 0);
    t3d_us_passthrough(h);
}

static void test_kept(void)
{
    TestHost *soft = rtt_host("soft", false), *gl = rtt_host("gl", false);
    TestHost *hs[2] = { soft, gl };
    uint32_t out_fmt = gl->chip.regs[R_US_OUT_FMT / 4];
    uint64_t passes, as_is;

    for (unsigned i = 0; i < 2; i++) {
        pass1(hs[i], 0, N, 0);
        pass2(hs[i], false, false);
        pass2(hs[i], false, false);
    }
    /* two draws sampled the target, one conversion made their texture */
    g_assert_cmpuint(gl_slot_textures(&gl->chip, &passes, &as_is), ==,
                     2);
    g_assert_cmpuint(passes, ==, 1);
    /* 64 rows of a 256-row slot: not the slot as it is */
    g_assert_cmpuint(as_is, ==, 0);
    /*
     * the target drawn again (no sync between: GL still holds it), three
     * rows up: the texture is made anew, and the pixels are soft's, which
     * the old texture's are not
     */
    for (unsigned i = 0; i < 2; i++) {
        to_src(hs[i], out_fmt);
        pass1(hs[i], 0, N, 3);
        pass2(hs[i], false, false);
    }
    g_assert_cmpuint(gl_slot_textures(&gl->chip, &passes, &as_is), ==,
                     3);
    g_assert_cmpuint(passes, ==, 2);
    assert_same_dst(soft, gl);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_as_is(void)
{
    for (unsigned linear = 0; linear < 2; linear++) {
        TestHost *soft = rtt_host("soft", false), *gl = rtt_host("gl", false);
        TestHost *hs[2] = { soft, gl };
        uint64_t passes, as_is;

        for (unsigned i = 0; i < 2; i++) {
            /* 256 rows to draw on */
            r500_reg_write(&hs[i]->chip, R_RE_SCISSORS_BR,
                           (N - 1) | 255u << 13);
            pass1(hs[i], 0, 256, 0);
            pass2_of(hs[i], SRC, false, false, N, 256, linear);
            pass2_of(hs[i], SRC, false, false, N, 256, linear);
        }
        /* the first made the RGBA32F texture, the second sampled the slot */
        g_assert_cmpuint(gl_slot_textures(&gl->chip, &passes, &as_is),
                         ==, 2);
        g_assert_cmpuint(passes, ==, 1);
        g_assert_cmpuint(as_is, ==, 1);
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        r500_pipe_sync(&soft->chip, R500_SYNC_FENCE);
        if (!linear) {
            assert_same_dst(soft, gl);
        } else {
            const float *a = (const float *)(soft->vram + DST);
            const float *b = (const float *)(gl->vram + DST);

            for (unsigned i = 0; i < N * N * 4; i++) {
                g_assert_cmpfloat_with_epsilon(a[i], b[i], 1.0 / 255);
            }
            /* texels blended: not the point-sampled bytes */
            g_assert_cmpfloat(fmodf(a[4 * (N * 5 + 3)] * 255, 1), !=, 0);
        }
        test_host_free(soft);
        test_host_free(gl);
    }
}

/*
 * A texture too large to keep as RGBA32F (2048 x 1024, 32 MiB) is
 * still sampled as it is the second time: what it was made from is
 * remembered without the texture.
 */
static void test_as_is_large(void)
{
    enum { BIG = 0x800000, BW = 2048, BH = 1024 };
    TestHost *soft = rtt_host("soft", false), *gl = rtt_host("gl", false);
    TestHost *hs[2] = { soft, gl };
    uint64_t passes, as_is;
    float v[5][6 * 8];

    /* four quadrants and a square across them, flat colours k / 255 */
    rect_verts(v[0], 0, 0, BW / 2, BH / 2, 0.8f, 0.2f, 0.4f, 1);
    rect_verts(v[1], BW / 2, 0, BW, BH / 2, 0.2f, 0.6f, 1, 1);
    rect_verts(v[2], 0, BH / 2, BW / 2, BH, 1, 1, 0.2f, 0.4f);
    rect_verts(v[3], BW / 2, BH / 2, BW, BH, 0, 0.4f, 0.8f, 0.6f);
    rect_verts(v[4], 300, 400, 700, 800, 0.6f, 0, 0.2f, 1);
    for (unsigned i = 0; i < 2; i++) {
        R500Chip *s = &hs[i]->chip;

        r500_reg_write(s, R_RB3D_COLOROFFSET, BIG);
        r500_reg_write(s, R_RB3D_COLORPITCH, BW | R500_CF_ARGB8888 << 21);
        r500_reg_write(s, R_RE_SCISSORS_BR, (BW - 1) | (BH - 1u) << 13);
        r500_reg_write(s, R_RB3D_BLENDCNTL, 0);
        t3d_draw(hs[i], TRIANGLES, v[0], 5 * 6);
        pass2_of(hs[i], BIG, false, false, BW, BH, false);
        pass2_of(hs[i], BIG, false, false, BW, BH, false);
    }
    g_assert_cmpuint(gl_slot_textures(&gl->chip, &passes, &as_is),
                     ==, 2);
    g_assert_cmpuint(passes, ==, 1);
    g_assert_cmpuint(as_is, ==, 1);
    assert_same_dst(soft, gl);
    test_host_free(soft);
    test_host_free(gl);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/rtt/exact", test_exact);
    g_test_add_func("/gl/rtt/pieces", test_pieces);
    g_test_add_func("/gl/rtt/memory", test_memory);
    g_test_add_func("/gl/rtt/kept", test_kept);
    g_test_add_func("/gl/rtt/as-is", test_as_is);
    g_test_add_func("/gl/rtt/as-is-large", test_as_is_large);
    return g_test_run();
}
