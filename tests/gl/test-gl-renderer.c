/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer (hw/r500/pipe/gl.c) below the seam, on the chip
 * core with the host's OpenGL (llvmpipe here):
 *
 *   same-as-soft  additive, smooth-shaded triangles drawn on gl leave the
 *                 pixels soft leaves (within 1/255 a channel but for a
 *                 few pixels on the edges);
 *   tiled         a macro- and micro-tiled target on gl holds soft's
 *                 words;
 *   deferred      between sync points the surfaces stay on the host:
 *                 memory is unchanged until r500_pipe_sync(), and right
 *                 after it;
 *   cpu-write     a pixel the CPU writes into a drawn surface after a
 *                 sync survives the next draws and their write-back;
 *   kept          with the host's word on the CPU's writes, surfaces stay
 *                 on the host across syncs, and what the CPU or an engine
 *                 writes into them is still read;
 *   fallback      a draw gl leaves to soft (clip rectangles here) follows
 *                 the earlier gl draws, and a gl draw after it sees soft's
 *                 pixels;
 *   rop           ROPs (RB3D_ROPCNTL) drawn as GL's logic ops store the
 *                 bits soft's store;
 *   zero-output   ZERO_OUTPUT_MASK draws on gl and writes no colour;
 *   occlusion     the occlusion count (ZB_ZPASS_DATA/ADDR) of gl's draws
 *                 is soft's, a reset between draws forgets the earlier
 *                 ones, and storing it leaves the pixels in memory;
 *   split         a draw cut in two with a sync between (a CP slice's
 *                 end) leaves the bits of the same draw in one piece;
 *   busy-run      draws through the CP over several slices: memory is
 *                 written back at the end of the run that leaves the CP
 *                 idle, not at the end of each slice;
 *   alternate     frames drawn into two colour buffers in turn over one
 *                 depth buffer, a fence after each, stay on the host: the
 *                 third and later frames upload nothing; more targets
 *                 than the host holds go back to memory as they leave,
 *                 and every byte is what a renderer without the host's
 *                 word on the CPU leaves;
 *   fast-clear    a Hyper-Z clear (3D_CLEAR_ZMASK, then FAST_FILL) of a
 *                 depth buffer the host holds across a fence reaches the
 *                 next frame's depth test, as on a renderer that keeps
 *                 nothing, and is made on the host's copy (no upload);
 *   cbzb-halves   a target cleared as Mesa's CBZB clear does (its upper
 *                 half as colour, its lower half through the ZB) between
 *                 frames on the whole target stays on the host: nothing
 *                 uploaded after the first frame, the bytes of a renderer
 *                 that keeps nothing.
 */
#include <string.h>

#include "../unit/test-3d.h"
#include "../qtest/r500-driver-seq.h"

#define TRIANGLES 4

/* The draws h's gl renderer drew, and those it left to soft. */
static void assert_gl_draws(TestHost *h, uint64_t want, uint64_t soft)
{
    uint64_t draws, fallbacks;

    r500_gl_stats(&h->chip, &draws, &fallbacks);
    g_assert_cmpuint(draws, ==, want);
    g_assert_cmpuint(fallbacks, ==, soft);
}

static void vtx(float *v, float x, float y, float r, float g, float b,
                float a)
{
    const float in[8] = { x, y, 0.5f, 1.0f, r, g, b, a };

    memcpy(v, in, sizeof(in));
}

/* A host on renderer w (soft or gl), the usual 3D set-up, cleared. */
static TestHost *host(const char *w)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const char *why;

    if (!r500_pipe_set_renderer(&h->chip, w, &why)) {
        g_error("renderer %s: %s", w, why);
    }
    t3d_setup(h);
    t3d_fill(h, 0);
    t3d_blend_add(h);
    return h;
}

/*
 * A host on gl that says what the CPU wrote (MemHost.cpu_pages), so its
 * renderer keeps surfaces across syncs; and the end of one.
 */
static TestHost *host_seeing(void)
{
    TestHost *h = host("gl");

    h->host.cpu_pages = g_new0(uint8_t, 64 * 256);
    return h;
}

static void host_free(TestHost *h)
{
    g_free(h->host.cpu_pages);
    h->host.cpu_pages = NULL;
    test_host_free(h);
}

/* Two triangles over pixels (x0, y0) to (x1, y1), one flat colour. */
static void rect_verts(float *v, float x0, float y0, float x1, float y1,
                       float r, float g, float b, float a)
{
    const float c[6][2] = {
        { x0, y0 }, { x1, y0 }, { x0, y1 }, { x1, y0 }, { x1, y1 }, { x0, y1 },
    };

    for (unsigned i = 0; i < 6; i++) {
        vtx(v + 8 * i, c[i][0], c[i][1], r, g, b, a);
    }
}

/* Two overlapping smooth triangles and a third crossing both. */
static void scene(TestHost *h)
{
    float v[9 * 8];

    vtx(v, 3.2f, 2.7f, 0.2f, 0.1f, 0.0f, 0.3f);
    vtx(v + 8, 60.4f, 9.1f, 0.0f, 0.4f, 0.1f, 0.3f);
    vtx(v + 16, 20.6f, 58.3f, 0.3f, 0.0f, 0.5f, 0.3f);
    vtx(v + 24, 10.0f, 40.0f, 0.25f, 0.25f, 0.25f, 0.2f);
    vtx(v + 32, 55.0f, 61.5f, 0.1f, 0.2f, 0.3f, 0.2f);
    vtx(v + 40, 62.0f, 20.0f, 0.3f, 0.2f, 0.1f, 0.2f);
    vtx(v + 48, 1.0f, 30.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    vtx(v + 56, 63.0f, 33.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    vtx(v + 64, 32.0f, 5.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    t3d_draw(h, TRIANGLES, v, 9);
}

static unsigned chan_diff(uint32_t a, uint32_t b)
{
    unsigned d = 0;

    for (int c = 0; c < 32; c += 8) {
        int x = (int)((a >> c) & 0xFF) - (int)((b >> c) & 0xFF);

        d = MAX(d, (unsigned)ABS(x));
    }
    return d;
}

/*
 * Pixels more than tol/255 a channel apart: those where the triangles'
 * edges cover a pixel centre on one renderer and not on the other (soft
 * snaps vertices to 1/12 pixel, GL to its own subpixel grid).  Each
 * blended pass may round one LSB the other way, so tol is the passes.
 */
static unsigned compare_tol(TestHost *a, TestHost *b, unsigned tol)
{
    unsigned edge = 0, drawn = 0;

    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            uint32_t pa = t3d_px(a, x, y), pb = t3d_px(b, x, y);

            drawn += pa != 0;
            edge += chan_diff(pa, pb) > tol;
        }
    }
    g_assert_cmpuint(drawn, >, T3D_W * T3D_H / 2);
    return edge;
}

static unsigned compare(TestHost *a, TestHost *b)
{
    return compare_tol(a, b, 1);
}

static void test_same_as_soft(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");

    scene(soft);
    scene(gl);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    /* a few edge pixels (1/12 against GL's subpixel snapping) at most */
    g_assert_cmpuint(compare(soft, gl), <, 40);
    assert_gl_draws(gl, 1, 0);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * A macro- and micro-tiled target (RB3D_COLORPITCH TILE 1, MICRO_TILE
 * 1): the surfaces go between memory and GL a micro tile's two rows at a
 * time where the rectangle allows, row by row where it does not (boxes
 * of odd rows and columns); soft and gl leave the same words, in their
 * tiled places.
 */
static void test_tiled(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    float v[3 * 8];

    for (unsigned k = 0; k < 2; k++) {
        TestHost *h = k ? gl : soft;

        r500_reg_write(&h->chip, R_RB3D_COLORPITCH,
                       T3D_W | 1u << 16 | 1u << 17 | 6u << 21);
        /* a different word in every place, for the blend to add to */
        for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
            uint32_t le = GUINT32_TO_LE(0x10000000u | (i * 2654435761u >>
                                                       8 & 0x3F3F3F));

            memcpy(h->vram + T3D_CB + 4 * i, &le, 4);
        }
        scene(h);
        /* a box starting on an odd row and column, with an odd height */
        vtx(v, 5.3f, 7.2f, 0.1f, 0.2f, 0.3f, 0.1f);
        vtx(v + 8, 40.6f, 9.9f, 0.1f, 0.2f, 0.3f, 0.1f);
        vtx(v + 16, 22.1f, 36.4f, 0.1f, 0.2f, 0.3f, 0.1f);
        t3d_draw(h, TRIANGLES, v, 3);
        r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
    }
    /* t3d_px reads the words in their tiled order: the same on both */
    g_assert_cmpuint(compare_tol(soft, gl, 2), <, 40);
    assert_gl_draws(gl, 2, 0);
    test_host_free(soft);
    test_host_free(gl);
}

static void test_deferred(void)
{
    TestHost *h = host("gl");
    uint32_t px;

    scene(h);
    /* on the host until a sync: memory as it was */
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            g_assert_cmphex(t3d_px(h, x, y), ==, 0);
        }
    }
    r500_pipe_sync(&h->chip, R500_SYNC_IDLE);
    px = t3d_px(h, 30, 30);
    g_assert_cmphex(px, !=, 0);
    /* a second sync has nothing to write and changes nothing */
    t3d_fill(h, 0x01020304);
    r500_pipe_sync(&h->chip, R500_SYNC_IDLE);
    g_assert_cmphex(t3d_px(h, 30, 30), ==, 0x01020304);
    test_host_free(h);
}

static void test_cpu_write(void)
{
    TestHost *h = host("gl");
    uint32_t mark = 0x11223344, le = GUINT32_TO_LE(mark);
    float v[3 * 8];

    scene(h);
    r500_pipe_sync(&h->chip, R500_SYNC_CPU);
    /* the CPU writes a drawn pixel between runs of the chip */
    memcpy(h->vram + T3D_CB + (30 * T3D_W + 30) * 4, &le, 4);
    /* a draw elsewhere in the same surface, its box over the pixel */
    vtx(v, 2.0f, 2.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    vtx(v + 8, 40.0f, 3.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    vtx(v + 16, 2.0f, 40.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    t3d_draw(h, TRIANGLES, v, 3);
    r500_pipe_sync(&h->chip, R500_SYNC_CPU);
    /* (30, 30) is right of the new triangle, inside its box: kept */
    g_assert_cmphex(t3d_px(h, 30, 35), !=, 0);
    g_assert_cmphex(t3d_px(h, 5, 5), !=, 0);
    g_assert_cmphex(t3d_px(h, 30, 30), ==, mark);
    test_host_free(h);
}

/*
 * With a host that says what the CPU wrote (MemHost.cpu_pages), the
 * surfaces stay on the host across syncs: a draw after a sync uploads
 * nothing (what memory has is what GL has), yet a pixel the CPU writes
 * and reports is read again and survives, and one an engine writes (the
 * 2D engine's fill here, through r500_vram_dirty) too.  Without the
 * host's word, nothing is kept.
 */
static void test_kept(void)
{
    TestHost *h = host_seeing(), *blind = host("gl");
    uint32_t mark = 0x11223344, le = GUINT32_TO_LE(mark);
    float v[3 * 8];

    for (unsigned k = 0; k < 2; k++) {
        TestHost *t = k ? blind : h;

        scene(t);
        r500_pipe_sync(&t->chip, R500_SYNC_FENCE);
        scene(t);
        r500_pipe_sync(&t->chip, R500_SYNC_FENCE);
    }
    /* the second scene's draw found its surface on the host */
    g_assert_cmpuint(r500_gl_kept(&h->chip), >=, 1);
    g_assert_cmpuint(r500_gl_kept(&blind->chip), ==, 0);
    g_assert_cmpuint(compare_tol(h, blind, 0), ==, 0);
    /* the CPU writes a drawn pixel and says so; a draw over its box */
    memcpy(h->vram + T3D_CB + (30 * T3D_W + 30) * 4, &le, 4);
    mem_host_cpu_wrote(&h->host, T3D_CB + (30 * T3D_W + 30) * 4, 4);
    vtx(v, 2.0f, 2.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    vtx(v + 8, 40.0f, 3.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    vtx(v + 16, 2.0f, 40.0f, 0.1f, 0.1f, 0.1f, 0.1f);
    t3d_draw(h, TRIANGLES, v, 3);
    r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
    g_assert_cmphex(t3d_px(h, 30, 30), ==, mark);
    /* an engine's write: the same, without a word from the host */
    le = GUINT32_TO_LE(mark + 1);
    memcpy(h->vram + T3D_CB + (31 * T3D_W + 31) * 4, &le, 4);
    r500_vram_dirty(&h->chip, T3D_CB + (31 * T3D_W + 31) * 4, 4);
    t3d_draw(h, TRIANGLES, v, 3);
    r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
    g_assert_cmphex(t3d_px(h, 31, 31), ==, mark + 1);
    host_free(h);
    test_host_free(blind);
}

static void test_fallback(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };

    for (int k = 0; k < 2; k++) {
        TestHost *h = hs[k];

        scene(h);
        /*
         * Clip rectangle 0 over (0, 0)-(40, 40), the rule keeping the
         * pixels inside it: soft draws this one
         */
        r500_reg_write(&h->chip, R500_REGA_AT(SC_CLIPRECT_TL, 0), 0);
        r500_reg_write(&h->chip, R500_REGA_AT(SC_CLIPRECT_BR, 0),
                       40u | 40u << 13);
        r500_reg_write(&h->chip, R_SC_CLIP_RULE, 0xAAAA);
        scene(h);
        r500_reg_write(&h->chip, R_SC_CLIP_RULE, 0xFFFF);
        scene(h);
        r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
    }
    /*
     * three additive passes, each within an LSB; a lost pass (soft's
     * inside the rectangle, or gl's around it) is tens of LSBs
     */
    g_assert_cmpuint(compare_tol(soft, gl, 3), <, 60);
    assert_gl_draws(gl, 2, 1);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * RB3D_ROPCNTL.ROP takes Mesa's PIPE_LOGICOP_* codes, bit (s << 1 | d)
 * the result: 5 is ~d (INVERT), 3 ~s (COPY_INVERTED), 6 s ^ d (XOR).
 * One smooth triangle (the scene's overlap would invert twice).
 */
static void rop(TestHost *h, unsigned code, bool flat)
{
    float v[3 * 8];

    r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 0);
    r500_reg_write(&h->chip, R_RB3D_ROPCNTL, code << 8 | 1u << 2);
    vtx(v, 3.2f, 2.7f, 0.2f, 0.1f, 0.0f, 0.3f);
    vtx(v + 8, 60.4f, 9.1f, 0.0f, 0.4f, 0.1f, 0.3f);
    vtx(v + 16, 20.6f, 58.3f, 0.3f, 0.0f, 0.5f, 0.3f);
    if (flat) {
        /* 51/255, 102/255, ...: the same bytes on both (B, G, R, A) */
        for (int i = 0; i < 3; i++) {
            vtx(v + 8 * i, v[8 * i], v[8 * i + 1], 0.2f, 0.4f, 0.6f, 0.8f);
        }
    }
    t3d_draw(h, TRIANGLES, v, 3);
}

/* Pixels whose stored bits differ, and the drawn pixels' count. */
static unsigned compare_bits(TestHost *a, TestHost *b, uint32_t fill,
                             unsigned *drawn)
{
    unsigned diff = 0;

    *drawn = 0;
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            *drawn += t3d_px(a, x, y) != fill;
            diff += t3d_px(a, x, y) != t3d_px(b, x, y);
        }
    }
    return diff;
}

static void test_rop(void)
{
    static const unsigned codes[] = { 5, 3, 6 };
    TestHost *soft = host("soft"), *gl = host("gl");
    const uint32_t fill = 0x00FF8040;
    uint64_t draws, fallbacks;
    unsigned drawn;

    for (unsigned i = 0; i < G_N_ELEMENTS(codes); i++) {
        t3d_fill(soft, fill);
        t3d_fill(gl, fill);
        rop(soft, codes[i], codes[i] == 6);
        rop(gl, codes[i], codes[i] == 6);
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        g_assert_cmphex(t3d_px(gl, 0, 63), ==, fill);
        if (codes[i] == 3) {
            /*
             * ~s of a smooth triangle: the renderers' one-LSB rounding
             * differences stay one LSB under the inversion
             */
            g_assert_cmpuint(compare(soft, gl), <, 10);
        } else {
            /* ~d, and s ^ d of a flat colour: the same bits */
            g_assert_cmphex(t3d_px(gl, 30, 20), ==, codes[i] == 5 ? ~fill :
                            fill ^ 0xCC996633);
            /* bit-exact but for pixels on the edge (coverage) */
            g_assert_cmpuint(compare_bits(soft, gl, fill, &drawn), <, 10);
            g_assert_cmpuint(drawn, >, T3D_W * T3D_H / 4);
        }
    }
    r500_gl_stats(&gl->chip, &draws, &fallbacks);
    g_assert_cmpuint(draws, ==, G_N_ELEMENTS(codes));
    g_assert_cmpuint(fallbacks, ==, 0);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * ZB_ZSTENCILCNTL.ZERO_OUTPUT_MASK: the draw runs (on gl, not left to
 * soft) and no colour reaches memory, as on soft; without it, the same
 * draw does.
 */
static void test_zero_output(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    const uint32_t fill = 0x00FF8040;
    TestHost *hs[2] = { soft, gl };
    unsigned drawn;

    for (int k = 0; k < 2; k++) {
        t3d_fill(hs[k], fill);
        r500_reg_write(&hs[k]->chip, R_ZB_ZSTENCILCNTL, 1u << 27);
        scene(hs[k]);
    }
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    g_assert_cmpuint(compare_bits(soft, gl, fill, &drawn), ==, 0);
    g_assert_cmpuint(drawn, ==, 0);
    assert_gl_draws(gl, 1, 0);
    r500_reg_write(&gl->chip, R_ZB_ZSTENCILCNTL, 0);
    scene(gl);
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    g_assert_cmphex(t3d_px(gl, 30, 30), !=, fill);
    test_host_free(soft);
    test_host_free(gl);
}

/* Reset the count, the scene, store it; the count stored. */
static uint32_t counted(TestHost *h, bool twice)
{
    uint32_t got;

    r500_reg_write(&h->chip, R_SU_REG_DEST, 1);
    if (twice) {
        /* a first scene whose count the reset below forgets */
        scene(h);
    }
    r500_reg_write(&h->chip, R_ZB_ZPASS_DATA, 0);
    scene(h);
    r500_reg_write(&h->chip, R_ZB_ZPASS_ADDR, T3D_ZB);
    memcpy(&got, h->vram + T3D_ZB, 4);
    return GUINT32_FROM_LE(got);
}

static void test_occlusion(void)
{
    TestHost *soft = host("soft"), *gl = host("gl"), *gl2 = host("gl");
    uint32_t n = counted(soft, false), n_gl = counted(gl, false);

    /* the three triangles' pixels, overlaps counted twice, with no ZB */
    g_assert_cmpuint(n, >, T3D_W * T3D_H / 2);
    /* edge pixels may differ (GL's subpixel grid against soft's 1/12) */
    g_assert_cmpuint(ABS((int)n_gl - (int)n), <, 40);
    /* the store was a sync: the scene's pixels are in memory already */
    g_assert_cmpuint(compare(soft, gl), <, 40);
    /* the reset counted the first scene's draws before forgetting them */
    g_assert_cmpuint(counted(gl2, true), ==, n_gl);
    test_host_free(soft);
    test_host_free(gl);
    test_host_free(gl2);
}

/*
 * A grid of smooth triangles over the target in one draw, cells of 4
 * pixels off the pixel grid, drawn in calls of budget work units (0:
 * one); returns the calls.  With a window that followed each call's box,
 * GL's window-to-clip round trip moved some vertices across its subpixel
 * grid: a few tens of pixels took the neighbour triangle's colour.
 */
#define GRID_N 16

/* The grid's vertices into v (GRID_N * GRID_N * 6 of 8 floats). */
static unsigned grid_verts(float *v)
{
    float *p = v;

    for (unsigned j = 0; j < GRID_N; j++) {
        for (unsigned i = 0; i < GRID_N; i++) {
            static const int corner[6][2] = {
                { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, { 1, 1 }, { 0, 1 },
            };

            for (unsigned k = 0; k < 6; k++) {
                unsigned ci = i + corner[k][0], cj = j + corner[k][1];

                vtx(p, ci * 4.0f + 0.37f, cj * 4.0f + 0.37f,
                    ci / (float)GRID_N, cj / (float)GRID_N,
                    ((ci ^ cj) & 1) ? 0.9f : 0.2f, 1.0f);
                p += 8;
            }
        }
    }
    return (p - v) / 8;
}

static unsigned grid(TestHost *h, uint64_t budget)
{
    float *v = g_new(float, GRID_N * GRID_N * 6 * 8);
    unsigned n = grid_verts(v), calls;

    calls = t3d_draw_split(h, TRIANGLES, v, n, budget, NULL);
    r500_pipe_sync(&h->chip, R500_SYNC_CPU);
    g_free(v);
    return calls;
}

static void test_split(void)
{
    static const uint64_t budgets[] = { 400, 1500, 3000 };
    TestHost *one = host("gl");

    /* blending off: a pixel is the last triangle's over it */
    r500_reg_write(&one->chip, R_RB3D_BLENDCNTL, 0);
    g_assert_cmpuint(grid(one, 0), ==, 1);
    g_assert_cmphex(t3d_px(one, 30, 30), !=, 0);
    for (unsigned b = 0; b < G_N_ELEMENTS(budgets); b++) {
        TestHost *two = host("gl");
        unsigned differ = 0;

        r500_reg_write(&two->chip, R_RB3D_BLENDCNTL, 0);
        /* in slices, memory the truth after each: other boxes each time */
        g_assert_cmpuint(grid(two, budgets[b]), >, 2);
        for (unsigned y = 0; y < T3D_H; y++) {
            for (unsigned x = 0; x < T3D_W; x++) {
                differ += t3d_px(one, x, y) != t3d_px(two, x, y);
            }
        }
        g_assert_cmpuint(differ, ==, 0);
        test_host_free(two);
    }
    test_host_free(one);
}

/*
 * Draws through the CP, more than one slice of work: while the CP has
 * work, the end of a run of the chip is no sync (the guest has been
 * told of nothing), so memory stays as it was until the run that leaves
 * the CP idle, which writes every draw back.
 */
#define BUSY_RING       0x800000u       /* VRAM: ring, then write-back */
#define BUSY_DRAWS      6

static void test_busy_run(void)
{
    TestHost *h = host("gl");
    R500Chip *s = &h->chip;
    float *v = g_new(float, GRID_N * GRID_N * 6 * 8);
    unsigned n = grid_verts(v), runs = 0;
    uint32_t wptr = 0;

    r500_seq_cp_init(r500_seq_chip_w, s, BUSY_RING, 16, BUSY_RING + 0x80000);
    r500_reg_write(s, R_VAP_VTX_SIZE, 8);
    for (unsigned d = 0; d < BUSY_DRAWS; d++) {
        uint32_t dw[2] = {
            R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 8 * n),
            TRIANGLES | 3u << 4 | n << 16,
        };

        for (unsigned i = 0; i < 2 + 8 * n; i++) {
            uint32_t x = i < 2 ? dw[i] : 0, le;

            if (i >= 2) {
                memcpy(&x, &v[i - 2], 4);
            }
            le = GUINT32_TO_LE(x);
            memcpy(h->vram + BUSY_RING + 4 * wptr++, &le, 4);
        }
    }
    r500_reg_write(s, R_CP_RB_WPTR, wptr);
    r500_run(s);
    /* one slice did part of the draws; the CP has work: nothing back */
    g_assert_true(r500_reg_read(s, R_RBBM_STATUS) & (1u << 31));
    g_assert_cmpuint(s->cp.draw_stats.draws, >=, 1);
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            g_assert_cmphex(t3d_px(h, x, y), ==, 0);
        }
    }
    while (r500_reg_read(s, R_RBBM_STATUS) & (1u << 31)) {
        g_assert_cmpuint(++runs, <, 1000);
        r500_run(s);
    }
    g_assert_cmpuint(runs, >, 0);
    g_assert_cmpuint(s->cp.draw_stats.draws, ==, BUSY_DRAWS);
    /* the run that left the CP idle wrote the pixels back */
    g_assert_cmphex(t3d_px(h, 30, 30), !=, 0);
    g_free(v);
    test_host_free(h);
}

/*
 * Colour buffers of the alternate test, one after the other from T3D_CB,
 * and more of them than the renderer holds (GL_RES_MAX, 8) for its
 * second part.
 */
#define ALT_BUFS        10
#define ALT_BUF_BYTES   (T3D_W * T3D_H * 4)

static void alt_target(TestHost *h, unsigned i)
{
    r500_reg_write(&h->chip, R_RB3D_COLOROFFSET, T3D_CB + i * ALT_BUF_BYTES);
}

static void test_alternate(void)
{
    TestHost *h = host_seeing(), *blind = host("gl");
    TestHost *hs[2] = { h, blind };
    uint64_t up2 = 0;

    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;

        memset(hs[k]->vram + T3D_CB, 0, ALT_BUFS * ALT_BUF_BYTES);
        /* a Z24S8 buffer tested ALWAYS and written: every frame's depth */
        r500_reg_write(s, R_ZB_FORMAT, 2);
        r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
        r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
        memset(hs[k]->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
        r500_reg_write(s, R_ZB_CNTL, 6);
        r500_reg_write(s, R_ZB_ZSTENCILCNTL, 7);
        for (unsigned f = 0; f < 6; f++) {
            alt_target(hs[k], f & 1);
            scene(hs[k]);
            r500_pipe_sync(s, R500_SYNC_FENCE);
            if (f == 1) {
                up2 = r500_gl_uploaded(s);
            }
        }
        if (k == 0) {
            /* both buffers and the depth went up in the first two frames */
            g_assert_cmpuint(up2, >, 2 * ALT_BUF_BYTES);
            g_assert_cmpuint(r500_gl_uploaded(s), ==, up2);
        } else {
            /* without the host's word, every frame uploads its surfaces */
            g_assert_cmpuint(r500_gl_uploaded(s), >, 6 * ALT_BUF_BYTES);
        }
        /* every buffer in turn, no sync between: the oldest go back */
        for (unsigned f = 0; f < 2 * ALT_BUFS; f++) {
            alt_target(hs[k], f % ALT_BUFS);
            scene(hs[k]);
        }
        r500_pipe_sync(s, R500_SYNC_FENCE);
    }
    g_assert_cmphex(t3d_px(h, 30, 30), !=, 0);
    g_assert_true(!memcmp(h->vram + T3D_CB, blind->vram + T3D_CB,
                          ALT_BUFS * ALT_BUF_BYTES));
    g_assert_true(!memcmp(h->vram + T3D_ZB, blind->vram + T3D_ZB,
                          T3D_W * T3D_H * 4));
    /* each of the later buffers holds the scene drawn twice */
    for (unsigned i = 2; i < ALT_BUFS; i++) {
        uint32_t p;

        memcpy(&p, h->vram + T3D_CB + i * ALT_BUF_BYTES +
               (30 * T3D_W + 30) * 4, 4);
        g_assert_cmphex(p, !=, 0);
    }
    host_free(h);
    test_host_free(blind);
}

static void test_fast_clear(void)
{
    TestHost *h = host_seeing(), *blind = host("gl");
    TestHost *hs[2] = { h, blind };
    R500ClearCmd zmask = { .opcode = 0x32, .start = 0, .count = 4 };
    uint64_t up = 0;

    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;

        /* Z24S8, LESS and written: a second frame at the same depth
         * draws only where the clear reached */
        r500_reg_write(s, R_ZB_FORMAT, 2);
        r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
        r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
        memset(hs[k]->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
        r500_reg_write(s, R_ZB_CNTL, 6);
        r500_reg_write(s, R_ZB_ZSTENCILCNTL, 1);
        for (unsigned f = 0; f < 3; f++) {
            if (f) {
                r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, 0xFFFFFF00u | f);
                r500_3d_clear(s, &zmask);
                r500_reg_write(s, R_ZB_BW_CNTL, 4 | 8);
            }
            scene(hs[k]);
            r500_pipe_sync(s, R500_SYNC_FENCE);
            if (f == 0) {
                up = r500_gl_uploaded(s);
            }
        }
        if (k == 0) {
            /* the clears were GL's, on the copies kept: nothing uploaded */
            g_assert_cmpuint(r500_gl_uploaded(s), ==, up);
        }
    }
    g_assert_cmpuint(r500_gl_kept(&h->chip), >=, 1);
    g_assert_true(!memcmp(h->vram + T3D_CB, blind->vram + T3D_CB,
                          T3D_W * T3D_H * 4));
    g_assert_true(!memcmp(h->vram + T3D_ZB, blind->vram + T3D_ZB,
                          T3D_W * T3D_H * 4));
    /* the last clear's stencil under the scene's box, its depth above */
    g_assert_cmphex(h->vram[T3D_ZB + (63 * T3D_W + 0) * 4], ==, 2);
    host_free(h);
    test_host_free(blind);
}

/* One frame of the cbzb-halves test: the CBZB clear, then the scene. */
static void cbzb_frame(TestHost *h, uint32_t word)
{
    R500Chip *s = &h->chip;
    float v[6 * 8];

    /* the upper half as colour, the lower half as a Z24S8 "ZB" */
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_CB + T3D_W * T3D_H / 2 * 4);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, word);
    r500_reg_write(s, R_ZB_BW_CNTL, 1u << 5);
    r500_reg_write(s, R_RB3D_BLENDCNTL, 0);
    /* Mesa's framebuffer is the half: so is the scissor */
    r500_reg_write(s, R_RE_SCISSORS_BR, (T3D_W - 1) | (T3D_H / 2 - 1) << 13);
    rect_verts(v, 0, 0, 64, 32, 0.25f, 0.5f, 0.75f, 1);
    t3d_draw(h, TRIANGLES, v, 6);
    /* the whole target again, blended over the clear */
    r500_reg_write(s, R_ZB_BW_CNTL, 0);
    r500_reg_write(s, R_RE_SCISSORS_BR, (T3D_W - 1) | (T3D_H - 1) << 13);
    t3d_blend_add(h);
    scene(h);
    r500_pipe_sync(s, R500_SYNC_FENCE);
}

static void test_cbzb_halves(void)
{
    TestHost *h = host_seeing(), *blind = host("gl"), *soft = host("soft");
    TestHost *hs[3] = { h, blind, soft };
    uint64_t up = 0;

    for (unsigned k = 0; k < 3; k++) {
        for (unsigned f = 0; f < 4; f++) {
            cbzb_frame(hs[k], 0x10203040u + f);
            if (f == 0) {
                up = r500_gl_uploaded(&hs[k]->chip);
            }
        }
        if (k == 0) {
            /* the halves moved between slots on the host, not memory */
            g_assert_cmpuint(r500_gl_uploaded(&h->chip), ==, up);
        }
    }
    /* the last clear's word under the lower half, where no triangle is */
    g_assert_cmphex(t3d_px(soft, 0, 63), ==, 0x10203043);
    g_assert_cmphex(t3d_px(h, 0, 63), ==, 0x10203043);
    g_assert_true(!memcmp(h->vram + T3D_CB, blind->vram + T3D_CB,
                          T3D_W * T3D_H * 4));
    g_assert_cmpuint(compare(soft, h), <, 40);
    host_free(h);
    test_host_free(blind);
    test_host_free(soft);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/renderer/same-as-soft", test_same_as_soft);
    g_test_add_func("/gl/renderer/tiled", test_tiled);
    g_test_add_func("/gl/renderer/deferred", test_deferred);
    g_test_add_func("/gl/renderer/cpu-write", test_cpu_write);
    g_test_add_func("/gl/renderer/kept", test_kept);
    g_test_add_func("/gl/renderer/fallback", test_fallback);
    g_test_add_func("/gl/renderer/rop", test_rop);
    g_test_add_func("/gl/renderer/zero-output", test_zero_output);
    g_test_add_func("/gl/renderer/occlusion", test_occlusion);
    g_test_add_func("/gl/renderer/split", test_split);
    g_test_add_func("/gl/renderer/busy-run", test_busy_run);
    g_test_add_func("/gl/renderer/alternate", test_alternate);
    g_test_add_func("/gl/renderer/fast-clear", test_fast_clear);
    g_test_add_func("/gl/renderer/cbzb-halves", test_cbzb_halves);
    return g_test_run();
}
