/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer (hw/r500/gl/gl.c) below the seam, on the chip
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
 *   fallback      a draw gl leaves to soft (a reserved blend factor) follows
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
 *                 that keeps nothing;
 *   formats       every colour format Mesa renders to (gl_format.c),
 *                 linear and tiled, masked, drawn on gl with soft's bytes;
 *   formats-blend blended into, within a step or two of soft's;
 *   formats-mrt   two targets of two formats in one draw;
 *   formats-declined  what gl cannot blend or ROP as soft on a format
 *                 goes to soft with its reason;
 *   cube          a mipmapped cube map sampled on every face and across
 *                 a face edge at soft's per-pixel LOD, filtered or not,
 *                 biased, with a border colour through selects, from a
 *                 first level past 0.
 */
#include <math.h>
#include <string.h>

#include "gl-host.h"
#include "../qtest/r500-driver-seq.h"

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
    g_assert_cmpuint(r500_chip_stat(&h->chip, "render-gl-kept"), >=, 1);
    g_assert_cmpuint(r500_chip_stat(&blind->chip, "render-gl-kept"), ==, 0);
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
         * A reserved blend factor (RB3D_BLENDCNTL DESTBLEND 0, 0 on
         * soft): GL has none, so gl leaves the draw to soft
         */
        r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 1 | 33u << 16);
        scene(h);
        t3d_blend_add(h);
        scene(h);
        r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
    }
    /*
     * three additive passes, each within an LSB; a lost pass (soft's, or
     * gl's around it) is tens of LSBs
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
    draws = r500_chip_stat(&gl->chip, "render-gl-draws");
    fallbacks = r500_chip_stat(&gl->chip, "render-gl-fallbacks");
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
        t3d_depth(hs[k], 2, 6, 7);
        memset(hs[k]->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
        for (unsigned f = 0; f < 6; f++) {
            alt_target(hs[k], f & 1);
            scene(hs[k]);
            r500_pipe_sync(s, R500_SYNC_FENCE);
            if (f == 1) {
                up2 = r500_chip_stat(s, "render-gl-uploaded");
            }
        }
        if (k == 0) {
            /* both buffers and the depth went up in the first two frames */
            g_assert_cmpuint(up2, >, 2 * ALT_BUF_BYTES);
            g_assert_cmpuint(r500_chip_stat(s, "render-gl-uploaded"), ==, up2);
        } else {
            /* without the host's word, every frame uploads its surfaces */
            g_assert_cmpuint(r500_chip_stat(s, "render-gl-uploaded"), >, 6 * ALT_BUF_BYTES);
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
                up = r500_chip_stat(s, "render-gl-uploaded");
            }
        }
        if (k == 0) {
            /* the clears were GL's, on the copies kept: nothing uploaded */
            g_assert_cmpuint(r500_chip_stat(s, "render-gl-uploaded"), ==, up);
        }
    }
    g_assert_cmpuint(r500_chip_stat(&h->chip, "render-gl-kept"), >=, 1);
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
                up = r500_chip_stat(&hs[k]->chip, "render-gl-uploaded");
            }
        }
        if (k == 0) {
            /* the halves moved between slots on the host, not memory */
            g_assert_cmpuint(r500_chip_stat(&h->chip, "render-gl-uploaded"), ==, up);
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

/* ---- Colour formats (gl/gl_format.c) against soft ---- */

/*
 * A colour target's format: RB3D_COLORPITCH.FORMAT, US_OUT_FMT's format
 * and OUT_SIGN.  tol: how far (fmt_steps) a blended field of gl's may be
 * from soft's.  Unblended, the epilogue stores what soft stores, bit for
 * bit.  Blended, GL's blender rounds its own result: llvmpipe blends in
 * fixed point, soft in fp32, so an 8- or 16-bit field may be 2 steps off
 * (the Mesa harness allows 3/255), a 4-, 5-, 6- or 10-bit field 1 step,
 * which is the field's own resolution (1/15, 1/31, 1/63, 1/1023), a half
 * 1 unit in the last place; float32 is exact.
 */
typedef struct FmtCase {
    const char *name;
    unsigned cformat, ofmt, sign, tol;
} FmtCase;

static const FmtCase fmt_cases[] = {
    { "argb8888", R500_CF_ARGB8888, R500_OF_C4_8, 0, 2 },
    { "rgb565", R500_CF_RGB565, R500_OF_C4_8, 0, 1 },
    { "argb1555", R500_CF_ARGB1555, R500_OF_C4_8, 0, 1 },
    { "argb4444", R500_CF_ARGB4444, R500_OF_C4_8, 0, 1 },
    { "argb2101010", R500_CF_ARGB2101010, R500_OF_C4_10, 0, 1 },
    { "uv88", R500_CF_UV88, R500_OF_C4_8, 0, 2 },
    { "i8", R500_CF_I8, R500_OF_C4_8, 0, 2 },
    { "uv88-c16", R500_CF_UV88, R500_OF_C_16, 0, 2 },
    { "uv88-c16f", R500_CF_UV88, R500_OF_C_16_FP, 0, 1 },
    { "argb8888-c2-16", R500_CF_ARGB8888, R500_OF_C2_16, 0, 2 },
    { "argb8888-c2-16f", R500_CF_ARGB8888, R500_OF_C2_16_FP, 0, 1 },
    { "argb8888-c32f", R500_CF_ARGB8888, R500_OF_C_32_FP, 0, 0 },
    { "argb16161616", R500_CF_ARGB16161616, R500_OF_C4_16, 0, 2 },
    { "argb16161616-f", R500_CF_ARGB16161616, R500_OF_C4_16_FP, 0, 1 },
    { "argb16161616-c2-32f", R500_CF_ARGB16161616, R500_OF_C2_32_FP, 0, 0 },
    { "argb32323232", R500_CF_ARGB32323232, R500_OF_C4_32_FP, 0, 0 },
    /* signed (OUT_SIGN): GL's SNORM formats, not blended */
    { "argb8888-signed", R500_CF_ARGB8888, R500_OF_C4_8, 0xF, 0 },
    { "uv88-signed", R500_CF_UV88, R500_OF_C4_8, 0xF, 0 },
    { "i8-signed", R500_CF_I8, R500_OF_C4_8, 0xF, 0 },
    { "argb16161616-signed", R500_CF_ARGB16161616, R500_OF_C4_16, 0xF, 0 },
};

static unsigned fmt_bytes(const FmtCase *c)
{
    return r500_rb3d_bytes(c->cformat, c->ofmt);
}

static bool fmt_float(const FmtCase *c)
{
    return c->ofmt >= R500_OF_C_16_FP;
}

/*
 * Target 0 in c's format at T3D_CB, tiling tile (RB3D_COLORPITCH.TILE:
 * 1 macro, 2 micro), channel mask, no blending.
 */
static void fmt_target(TestHost *h, const FmtCase *c, unsigned tile,
                       unsigned mask)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | tile << 16 |
                   c->cformat << 21);
    r500_reg_write(s, R_US_OUT_FMT, c->ofmt | 1u << 8 | 2u << 10 |
                   3u << 12 | c->sign << 16);
    r500_reg_write(s, R_RB3D_COLOR_CHANNEL_MASK, mask);
    r500_reg_write(s, R_RB3D_BLENDCNTL, 0);
}

/*
 * The same background for c at off in every host of hs: random bytes,
 * or for the float formats values soft packs (random bytes would be
 * NaNs, which need not blend alike).
 */
static void fmt_background(TestHost **hs, unsigned n, const FmtCase *c,
                           uint32_t off, uint32_t seed)
{
    GRand *r = g_rand_new_with_seed(seed);
    unsigned bytes = fmt_bytes(c);

    for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
        uint8_t px[16];

        if (fmt_float(c)) {
            float v[4];

            for (int k = 0; k < 4; k++) {
                v[k] = g_rand_double_range(r, -0.5, 1.5);
            }
            r500_rb3d_pack(c->cformat, c->ofmt, v, px);
        } else {
            for (unsigned k = 0; k < bytes; k++) {
                px[k] = g_rand_int(r);
            }
        }
        for (unsigned k = 0; k < n; k++) {
            memcpy(hs[k]->vram + off + i * bytes, px, bytes);
        }
    }
    g_rand_free(r);
}

/*
 * Cells of 4 x 4 pixels over the target, each of one random colour
 * (seed): with wide, components in [-0.25, 1.25] (clamped by fixed-point
 * formats, signed ones to [-1, 1], kept by float ones), else in [0, 1].
 * Flat: a value interpolated over a smooth primitive differs between the
 * renderers in its last bits (GL's subpixel grid), which the 8-bit
 * targets hide and 16-bit and float ones show; a constant does not.
 */
static void fmt_draw(TestHost *h, bool wide, uint32_t seed)
{
    GRand *r = g_rand_new_with_seed(seed);
    float *v = g_new(float, 16 * 16 * 6 * 8), *p = v;

    for (unsigned j = 0; j < 16; j++) {
        for (unsigned i = 0; i < 16; i++) {
            float c[4];

            for (int k = 0; k < 4; k++) {
                c[k] = wide ? g_rand_double_range(r, -0.25, 1.25)
                            : g_rand_double(r);
            }
            rect_verts(p, i * 4.0f, j * 4.0f, i * 4.0f + 4, j * 4.0f + 4,
                       c[0], c[1], c[2], c[3]);
            p += 6 * 8;
        }
    }
    t3d_draw(h, TRIANGLES, v, 16 * 16 * 6);
    g_free(v);
    g_rand_free(r);
}

/* Field f of a pixel's bytes (at most 32 bits, within a dword). */
static uint32_t fmt_field(const uint8_t *px, const R500ColorField *f)
{
    uint32_t v;

    memcpy(&v, px + f->shift / 32 * 4, 4);
    v = GUINT32_FROM_LE(v) >> (f->shift % 32);
    return f->width == 32 ? v : v & ((1u << f->width) - 1);
}

/*
 * How far apart two codes of field f are: steps of a fixed-point field
 * (a signed one's as two's complement), units in the last place of a
 * half; a float's difference relative to its size, in units of 2^-20.
 */
static unsigned fmt_steps(const R500ColorField *f, bool sign, uint32_t a,
                          uint32_t b)
{
    if (f->kind == R500_FIELD_FLOAT) {
        float x, y;

        memcpy(&x, &a, 4);
        memcpy(&y, &b, 4);
        return (unsigned)ceil(fabs(x - y) / fmax(fmax(fabs(x), fabs(y)),
                                                 1e-3) * 0x1p20);
    }
    if (f->kind == R500_FIELD_HALF) {
        /* sign and magnitude to an ordered integer */
        int64_t x = a & 0x8000 ? -(int64_t)(a & 0x7FFF) : a;
        int64_t y = b & 0x8000 ? -(int64_t)(b & 0x7FFF) : b;

        return (unsigned)ABS(x - y);
    }
    if (sign) {
        int64_t x = (int32_t)(a << (32 - f->width)) >> (32 - f->width);
        int64_t y = (int32_t)(b << (32 - f->width)) >> (32 - f->width);

        return (unsigned)ABS(x - y);
    }
    return (unsigned)ABS((int64_t)a - b);
}

/*
 * Target t of gl against soft's at off, pixel by pixel in memory (the
 * same layout in both): the pixels where a field is more than tol apart
 * (fmt_steps); in *drawn, those gl changed from bg.  A field of a
 * component the mask keeps must have bg's bits.
 */
static unsigned fmt_compare(TestHost *soft, TestHost *gl, const FmtCase *c,
                            unsigned t, uint32_t off, const uint8_t *bg,
                            unsigned mask, unsigned tol, unsigned *drawn)
{
    const R500ColorField *f;
    unsigned n = r500_rb3d_fields(&gl->chip.rb3d.cb[t], &f);
    unsigned bytes = fmt_bytes(c), bad = 0;

    g_assert_cmpuint(n, >, 0);
    *drawn = 0;
    for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
        /* each pixel in 16 bytes, so a field's dword stays inside */
        uint8_t a[16] = { 0 }, b[16] = { 0 }, o[16] = { 0 };
        unsigned d = 0;

        memcpy(a, soft->vram + off + i * bytes, bytes);
        memcpy(b, gl->vram + off + i * bytes, bytes);
        memcpy(o, bg + i * bytes, bytes);
        *drawn += memcmp(b, o, bytes) != 0;
        for (unsigned k = 0; k < n; k++) {
            if (!(mask >> f[k].comp & 1)) {
                g_assert_cmphex(fmt_field(b, &f[k]), ==, fmt_field(o, &f[k]));
            }
            d = MAX(d, fmt_steps(&f[k], c->sign >> f[k].comp & 1,
                                 fmt_field(a, &f[k]), fmt_field(b, &f[k])));
        }
        bad += d > tol;
    }
    return bad;
}

/* Whether mask writes a component target t of h stores. */
static bool fmt_writes(TestHost *h, unsigned t, unsigned mask)
{
    const R500ColorField *f;
    unsigned n = r500_rb3d_fields(&h->chip.rb3d.cb[t], &f);
    bool any = false;

    for (unsigned k = 0; k < n; k++) {
        any |= mask >> f[k].comp & 1;
    }
    return any;
}

/* The draws gl drew and left to soft since the last call. */
static void gl_draws_since(TestHost *h, uint64_t *last, uint64_t want,
                           uint64_t soft)
{
    uint64_t draws, fallbacks;

    draws = r500_chip_stat(&h->chip, "render-gl-draws");

    fallbacks = r500_chip_stat(&h->chip, "render-gl-fallbacks");
    g_assert_cmpuint(draws - last[0], ==, want);
    g_assert_cmpuint(fallbacks - last[1], ==, soft);
    last[0] = draws;
    last[1] = fallbacks;
}

/*
 * A draw of c on soft and gl over the same background, then compared:
 * wide colours or a blend (SRC_ALPHA, ONE_MINUS_CONSTANT_COLOR: each
 * stored component blends with its own constant, C2 of I8 with green,
 * rb3d.c), tiling and mask as given.  It must be gl's draw.
 */
static void fmt_pass(TestHost *soft, TestHost *gl, uint64_t *last,
                     const FmtCase *c, unsigned tile, unsigned mask,
                     bool blend, uint32_t seed)
{
    TestHost *hs[2] = { soft, gl };
    size_t size = (size_t)T3D_W * T3D_H * fmt_bytes(c);
    uint8_t *bg = g_malloc(size);
    unsigned drawn, bad;

    fmt_background(hs, 2, c, T3D_CB, seed);
    memcpy(bg, gl->vram + T3D_CB, size);
    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;
        bool fp = fmt_float(c);

        fmt_target(hs[k], c, tile, mask);
        if (blend) {
            /* (R, G, B, A) = (0.25, 0.6, 0.4, 0.5): 10-bit fixed point,
               FP16 for float targets (rb3d.c) */
            r500_reg_write(s, R_RB3D_CONSTANT_COLOR_AR,
                           fp ? 0x38003400u : 512u << 16 | 256u);
            r500_reg_write(s, R_RB3D_CONSTANT_COLOR_GB,
                           fp ? 0x38CD3666u : 614u << 16 | 409u);
            /* ADD, NOCLAMP on float targets (Mesa's choice there) */
            r500_reg_write(s, R_RB3D_BLENDCNTL, 1 | fp << 12 | 38u << 16 |
                           44u << 24);
        }
        fmt_draw(hs[k], !blend, seed);
    }
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    gl_draws_since(gl, last, 1, 0);
    bad = fmt_compare(soft, gl, c, 0, T3D_CB, bg, mask, blend ? c->tol : 0,
                      &drawn);
    if (bad) {
        g_error("%s, tile %u, mask %x%s: %u pixels differ", c->name, tile,
                mask, blend ? ", blended" : "", bad);
    }
    /* every pixel is in a cell, whose colour changes some bits; or the
       mask leaves every stored component alone */
    if (fmt_writes(gl, 0, mask)) {
        g_assert_cmpuint(drawn, >, T3D_W * T3D_H * 3 / 4);
    } else {
        g_assert_cmpuint(drawn, ==, 0);
    }
    g_free(bg);
}

/*
 * Every colour format Mesa renders to, drawn on gl and on soft over the
 * same random background: linear and macro/micro tiled, all channels
 * and two channel masks, colours beyond [0, 1] (clamped by fixed-point
 * formats, signed ones to [-1, 1], kept by float ones): every draw gl's,
 * the bytes soft's, masked components' bits kept.
 */
static void test_formats(void)
{
    static const struct {
        unsigned tile, mask;
    } pass[] = { { 0, 0xF }, { 3, 0xF }, { 0, 0x5 }, { 3, 0xA } };
    TestHost *soft = host("soft"), *gl = host("gl");
    uint64_t last[2] = { 0, 0 };

    for (unsigned ci = 0; ci < G_N_ELEMENTS(fmt_cases); ci++) {
        for (unsigned p = 0; p < G_N_ELEMENTS(pass); p++) {
            fmt_pass(soft, gl, last, &fmt_cases[ci], pass[p].tile,
                     pass[p].mask, false, 100 + ci * 8 + p);
        }
    }
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * Blending into each unsigned format on gl against soft, linear with all
 * channels, then tiled with C0 and C2 written: within the FmtCase
 * tolerance of soft's, masked components' bits kept.
 */
static void test_formats_blend(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    uint64_t last[2] = { 0, 0 };

    for (unsigned ci = 0; ci < G_N_ELEMENTS(fmt_cases); ci++) {
        if (fmt_cases[ci].sign) {
            continue;
        }
        fmt_pass(soft, gl, last, &fmt_cases[ci], 0, 0xF, true, 300 + ci);
        fmt_pass(soft, gl, last, &fmt_cases[ci], 3, 0x5, true, 400 + ci);
    }
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * Two targets of different formats in one draw (ARGB8888 and RGB565,
 * output 0 broadcast by NUM_MULTIWRITES): each in its own kind of
 * texture on the host, both soft's bytes.
 */
static void test_formats_mrt(void)
{
    static const uint32_t cb1 = T3D_CB + 0x40000;
    const FmtCase *c0 = &fmt_cases[0], *c1 = &fmt_cases[1];
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };
    uint8_t *bg0 = g_malloc(T3D_W * T3D_H * 4), *bg1 = g_malloc(T3D_W *
                                                                 T3D_H * 2);
    uint64_t last[2] = { 0, 0 };
    unsigned drawn;

    g_assert_cmpuint(c1->cformat, ==, R500_CF_RGB565);
    fmt_background(hs, 2, c0, T3D_CB, 1);
    fmt_background(hs, 2, c1, cb1, 2);
    memcpy(bg0, gl->vram + T3D_CB, T3D_W * T3D_H * 4);
    memcpy(bg1, gl->vram + cb1, T3D_W * T3D_H * 2);
    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;

        fmt_target(hs[k], c0, 0, 0xF);
        r500_reg_write(s, R_RB3D_CCTL, 1u << 5 | 1u << 14);
        r500_reg_write(s, R500_REGA_AT(RB3D_COLOROFFSET, 1), cb1);
        r500_reg_write(s, R500_REGA_AT(RB3D_COLORPITCH, 1), T3D_W |
                       c1->cformat << 21);
        fmt_draw(hs[k], true, 3);
    }
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    gl_draws_since(gl, last, 1, 0);
    g_assert_cmpuint(fmt_compare(soft, gl, c0, 0, T3D_CB, bg0, 0xF, 0,
                                 &drawn), ==, 0);
    g_assert_cmpuint(drawn, >, T3D_W * T3D_H * 3 / 4);
    g_assert_cmpuint(fmt_compare(soft, gl, c1, 1, cb1, bg1, 0xF, 0,
                                 &drawn), ==, 0);
    g_assert_cmpuint(drawn, >, T3D_W * T3D_H * 3 / 4);
    g_free(bg0);
    g_free(bg1);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * What gl cannot draw as soft does goes to soft, said once with its
 * reason, and the bytes are soft's: each case a format, a blend or ROP
 * and the reason logged.
 */
static void test_formats_declined(void)
{
    static const struct {
        unsigned fmt, sign;             /* fmt_cases index, OUT_SIGN */
        uint32_t blend, rop;
        const char *why;
    } cases[] = {
        /* ONE_MINUS_DST_ALPHA on I8: its byte reads back as alpha */
        { 6, 0, 1 | 38u << 16 | 41u << 24, 0,
          "destination alpha of a target read back replicated" },
        /* ADD_CLAMP on a float target: soft clamps, GL does not */
        { 13, 0, 1 | 38u << 16 | 44u << 24, 0,
          "a clamping blend function on a float target" },
        { 1, 0xF, 0, 0, "a signed colour format GL has no SNORM format" },
        { 0, 0x1, 0, 0, "signed and unsigned components" },
        { 16, 0xF, 1 | 38u << 16 | 39u << 24, 0,
          "blending into a signed target" },
        /* XOR (6) on RGBA16F: GL has no logic op on float buffers */
        { 13, 0, 0, 6u << 8 | 1u << 2, "a ROP on a float or signed target" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        /* a chip each: a reason is said once per kind and reset */
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };
        uint64_t last[2] = { 0, 0 };
        FmtCase c = fmt_cases[cases[i].fmt];

        c.sign = cases[i].sign;
        fmt_background(hs, 2, &c, T3D_CB, 900 + i);
        for (unsigned k = 0; k < 2; k++) {
            fmt_target(hs[k], &c, 0, 0xF);
            r500_reg_write(&hs[k]->chip, R_RB3D_BLENDCNTL, cases[i].blend);
            r500_reg_write(&hs[k]->chip, R_RB3D_ROPCNTL, cases[i].rop);
            fmt_draw(hs[k], cases[i].blend == 0, 950 + i);
        }
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        gl_draws_since(gl, last, 0, 1);
        g_assert_true(!memcmp(soft->vram + T3D_CB, gl->vram + T3D_CB,
                              T3D_W * T3D_H * fmt_bytes(&c)));
        g_assert_cmpuint(test_host_count_logs(gl, cases[i].why), ==, 1);
        test_host_free(soft);
        test_host_free(gl);
    }
}

/* ---- Cube maps (gl_tex.c, tx_glsl.c) against soft ---- */

/*
 * A cube map case: filters, border, TX_FILTER1.LOD_BIAS, the TEX op, and
 * TX_FILTER0.MAX_MIP_LEVEL, the first level sampled.
 */
typedef struct CubeCase {
    bool linear, mip_linear, border;
    int bias;                           /* s4.5: 32 is one level */
    unsigned op, tol, first;
} CubeCase;

/*
 * Unit 0 as an RGBA8 cube map at T3D_TEX of w x h faces, levels 0..last,
 * random texels (the same in every host of hs); wrap modes clamp to edge
 * (2) or, with border, clamp to border (6) with a border colour and
 * selects (B, 1, R, G): GL draws the border through the selects as soft
 * does (tx.c: the border is a texel, then SEL).
 */
static void cube_unit(TestHost **hs, unsigned n, unsigned w, unsigned h,
                      unsigned last, const CubeCase *c)
{
    unsigned wrap = c->border ? 6 : 2, flt = c->linear ? 2 : 1;
    GRand *r = g_rand_new_with_seed(w * 16 + last);

    for (unsigned k = 0; k < n; k++) {
        R500Chip *s = &hs[k]->chip;
        const R500TxUnit *t = &s->tx.unit[0];

        r500_reg_write(s, R_TX_ENABLE, 1);
        /* CLAMP_S/T/R, MAG, MIN (1 point, 2 linear), MIP_FILTER */
        r500_reg_write(s, R_TX_FILTER0, wrap | wrap << 3 | wrap << 6 |
                       flt << 9 | flt << 11 |
                       (c->mip_linear ? 2u : 1u) << 13 | c->first << 17);
        r500_reg_write(s, R_TX_FILTER1, ((unsigned)c->bias & 0x3FF) << 3);
        r500_reg_write(s, R_TX_FORMAT0, (w - 1) | (h - 1) << 11 |
                       last << 26);
        /* 8_8_8_8, SEL_R/G/B/A, TEX_COORD_TYPE 2: cube */
        r500_reg_write(s, R_TX_FORMAT1, R500_TXF_8_8_8_8 |
                       (c->border ? 2u << 9 | 5u << 12 | 0u << 15 | 1u << 18
                                  : 0u << 9 | 1u << 12 | 2u << 15 |
                                    3u << 18) | 2u << 25);
        r500_reg_write(s, R_TX_FORMAT2, 0);
        r500_reg_write(s, R_TX_BORDER_COLOR, 0x80C04020);
        r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
        r500_tx_prepare(s);
        g_assert_true(t->valid);
        g_assert_cmpuint(t->coord_type, ==, 2);
        if (k == 0) {
            for (uint64_t a = T3D_TEX; a < t->chain_end; a++) {
                hs[0]->vram[a] = g_rand_int(r);
            }
        } else {
            memcpy(hs[k]->vram + T3D_TEX, hs[0]->vram + T3D_TEX,
                   t->chain_end - T3D_TEX);
        }
    }
    g_rand_free(r);
}

/* A quad over (x0, y0)-(x1, y1) whose corners carry the directions d. */
static float *cube_quad(float *v, float x0, float y0, float x1, float y1,
                        const float d[4][3])
{
    const float c[4][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 }, { x1, y1 } };
    static const int tri[6] = { 0, 1, 2, 1, 3, 2 };

    for (int i = 0; i < 6; i++) {
        const float *k = d[tri[i]];

        /* alpha: LODBIAS's bias, a level up */
        vtx(v + 8 * i, c[tri[i]][0], c[tri[i]][1], k[0], k[1], k[2], 1.0f);
    }
    return v + 6 * 8;
}

/*
 * Every face of a 32 x 32 cube map with mipmaps, drawn at three sizes
 * (16, 8 and 4 pixels over 94% of the face: about 1.9, 3.8 and 7.5
 * texels a pixel, LOD 0.9, 1.9 and 2.9), and a quad from +X across the
 * edge to +Z, whose quads of pixels straddle the two faces: each pixel's
 * direction interpolated from the corners, its major axis the face.
 */
static void cube_draw(TestHost *h)
{
    float *v = g_new(float, 20 * 6 * 8), *p = v;
    const float e = 0.94f;

    for (unsigned f = 0; f < 6; f++) {
        static const unsigned size[3] = { 16, 8, 4 };
        float sign = f & 1 ? -1.0f : 1.0f;
        unsigned axis = f / 2;

        for (unsigned k = 0; k < 3; k++) {
            float d[4][3];
            float x0 = k == 0 ? (f % 4) * 16.0f : f * size[k];
            float y0 = k == 0 ? (f / 4) * 16.0f : k == 1 ? 32 : 40;

            for (unsigned c = 0; c < 4; c++) {
                /* the major axis constant, the other two across */
                d[c][axis] = sign;
                d[c][(axis + 1) % 3] = c & 1 ? e : -e;
                d[c][(axis + 2) % 3] = c & 2 ? e : -e;
            }
            p = cube_quad(p, x0, y0, x0 + size[k], y0 + size[k],
                          (const float (*)[3])d);
        }
    }
    {
        const float d[4][3] = {
            { 1.0f, -0.3f, 0.3f }, { 0.3f, -0.3f, 1.0f },
            { 1.0f, 0.4f, 0.3f }, { 0.3f, 0.4f, 1.0f },
        };

        p = cube_quad(p, 36, 48, 60, 60, d);
    }
    t3d_draw(h, TRIANGLES, v, (p - v) / 8);
    g_free(v);
}

/*
 * A mipmapped cube map sampled on every face on gl against soft, each
 * draw gl's: point sampled, with the nearest level or between levels,
 * every pixel soft's (the LOD is soft's, per pixel: tx_glsl.c); filtered
 * (bilinear in each of two levels) within 2/255, the filters' fixed
 * point; with a LOD bias in TX_FILTER1, with LODBIAS's own, with a
 * border colour and selects; with MAX_MIP_LEVEL 2 (GL's LOD is from its
 * base level).  A cube map of faces not square is soft's.
 */
static void test_cube(void)
{
    static const CubeCase cases[] = {
        { false, false, false, 0, R500_TEX_LD, 0 },
        { false, true, false, 8, R500_TEX_LD, 0 },
        { false, true, false, 0, R500_TEX_LODBIAS, 0 },
        { true, true, false, 0, R500_TEX_LD, 2 },
        { true, true, true, -16, R500_TEX_LD, 2 },
        /* from level 2: the draws at LOD 0.9 and 1.9 sample level 2 */
        { false, true, false, 0, R500_TEX_LD, 0, 2 },
        { true, true, false, 0, R500_TEX_LODBIAS, 2, 2 },
    };

    for (unsigned i = 0; i <= G_N_ELEMENTS(cases); i++) {
        bool square = i < G_N_ELEMENTS(cases);
        const CubeCase *c = &cases[square ? i : 0];
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };
        uint64_t last[2] = { 0, 0 };

        cube_unit(hs, 2, 32, square ? 32 : 16, 4, c);
        for (unsigned k = 0; k < 2; k++) {
            r500_reg_write(&hs[k]->chip, R_RB3D_BLENDCNTL, 0);
            tex_program(hs[k], c->op);
            cube_draw(hs[k]);
        }
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        if (square) {
            gl_draws_since(gl, last, 1, 0);
            g_assert_cmpuint(compare_tol(soft, gl, c->tol), ==, 0);
        } else {
            gl_draws_since(gl, last, 0, 1);
            g_assert_cmpuint(test_host_count_logs(gl, "faces not square"),
                             ==, 1);
            g_assert_cmpuint(compare_tol(soft, gl, 0), ==, 0);
        }
        test_host_free(soft);
        test_host_free(gl);
    }
}

/*
 * Units 0-2 of size x size texels, 8 bits each (R500_TXF_8, 12-bit sizes
 * through TX_FORMAT2's TXWIDTH_11/TXHEIGHT_11), all over the same bytes,
 * and a program sampling all three (TEX_ID 0-2 into t1-t3) that writes t1.
 */
static void three_units(TestHost *h, unsigned size)
{
    R500Chip *s = &h->chip;
    uint32_t w[24] = { 0 };
    unsigned m = size - 1;

    r500_reg_write(s, R_TX_ENABLE, 7);
    for (unsigned u = 0; u < 3; u++) {
        /* CLAMP_S/T/R 2 (clamp to edge), MAG and MIN point, ID u */
        r500_reg_write(s, R_TX_FILTER0 + 4 * u,
                       2 | 2u << 3 | 2u << 6 | 1u << 9 | 1u << 11 | u << 28);
        r500_reg_write(s, R_TX_FILTER1 + 4 * u, 0);
        r500_reg_write(s, R_TX_FORMAT0 + 4 * u,
                       (m & 0x7FF) | (m & 0x7FF) << 11);
        r500_reg_write(s, R_TX_FORMAT1 + 4 * u, R500_TXF_8);
        r500_reg_write(s, R_TX_FORMAT2 + 4 * u,
                       (m >> 11) << 15 | (m >> 11) << 16);
        r500_reg_write(s, R_TX_OFFSET + 4 * u, T3D_TEX);
    }
    for (unsigned i = 0; i < size * size; i++) {
        h->vram[T3D_TEX + i] = i * 7 + 1;
    }
    for (unsigned u = 0; u < 3; u++) {
        r500_seq_us_tex(u, 0, u + 1, w + 6 * u);
    }
    /* r500-driver-seq.h's words: the US decoder's TEX type and LD op */
    g_assert_cmpuint(w[0] & 3, ==, R500_US_TEX);
    g_assert_cmpuint(w[1] >> 22 & 7, ==, R500_TEX_LD);
    t3d_us_out(1, w + 18);
    t3d_us_program(h, w, 4);
}

/*
 * Host memory (docs/reliability.md, "Host resources"): a draw sampling
 * three units of R500's largest texture would stage 3 x 2^24 RGBA32F
 * texels (768 MiB) on gl.  Past GL_TEX_DRAW_TEXELS it is refused before
 * anything is decoded, counted, said once as the guest's doing, and soft
 * draws it; the same program over small textures draws on gl.
 */
static void test_texture_limit(void)
{
    static const unsigned sizes[2] = { 64, 4096 };

    for (unsigned i = 0; i < 2; i++) {
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };
        uint64_t last[2] = { 0, 0 };
        float v[6 * 8];

        for (unsigned k = 0; k < 2; k++) {
            r500_reg_write(&hs[k]->chip, R_RB3D_BLENDCNTL, 0);
            three_units(hs[k], sizes[i]);
            rect_verts(v, 0, 0, 64, 64, 0.2f, 0.7f, 0.0f, 1.0f);
            t3d_draw(hs[k], TRIANGLES, v, 6);
        }
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        g_assert_cmpuint(compare_tol(soft, gl, 1), ==, 0);
        if (sizes[i] == 64) {
            gl_draws_since(gl, last, 1, 0);
            g_assert_cmpuint(r500_chip_stat(&gl->chip,
                                            "render-gl-over-limit"), ==, 0);
        } else {
            gl_draws_since(gl, last, 0, 1);
            g_assert_cmpuint(r500_chip_stat(&gl->chip,
                                            "render-gl-over-limit"), ==, 1);
            g_assert_cmpuint(test_host_count_logs(gl, "textures larger "
                                                  "together than one draw "
                                                  "uploads (all units: "
                                                  "50331648 texels"), ==, 1);
            /* one line for the refusal, not a second "drawn by soft" */
            g_assert_cmpuint(test_host_count_logs(gl, "textures larger "
                                                  "together than one draw "
                                                  "uploads"), ==, 1);
            /* nothing was decoded for GL, nothing kept in its cache */
            g_assert_cmpuint(r500_chip_stat(&gl->chip,
                                            "render-gl-texture-cache-bytes"),
                             ==, 0);
        }
        test_host_free(soft);
        test_host_free(gl);
    }
}

/*
 * The renderer's faults (docs/reliability.md): no EGL display, or no
 * context, and gl cannot open: the board's configuration (renderer=gl)
 * says so in one line and soft draws every frame, the same frame.
 */
static void test_fault_open(void)
{
    static const char *const faults[2] = { "display", "context" };
    static const char *const whys[2] = {
        "no EGL display", "no OpenGL 4.5 core context",
    };

    for (unsigned i = 0; i < 2; i++) {
        TestHost *soft = host("soft"), *h;

        g_setenv("R500_GL_FAULT", faults[i], true);
        g_setenv("R500_RENDERER", "gl", true);
        /* configured as the board does (r500_pipe_configure) */
        h = test_host_new(R500_MODEL_RV515, 64);
        g_unsetenv("R500_GL_FAULT");
        g_unsetenv("R500_RENDERER");
        g_assert_cmpstr(h->chip.renderer->name, ==, "soft");
        g_assert_cmpuint(test_host_count_logs(h, "renderer gl"), ==, 1);
        g_assert_cmpuint(test_host_count_logs(h, whys[i]), ==, 1);
        t3d_setup(h);
        t3d_fill(h, 0);
        t3d_blend_add(h);
        for (int k = 0; k < 2; k++) {
            scene(soft);
            scene(h);
        }
        g_assert_cmpuint(compare(soft, h), ==, 0);
        test_host_free(soft);
        test_host_free(h);
    }
}

/*
 * An OpenGL error in a draw (gl-fault=draw:2: the second draw job fails
 * as an erring GL command does, drawing nothing): gl writes back what it
 * drew, says so once, and soft draws that draw and every one after; with
 * additive blending a lost or doubled pass would show.
 */
static void test_fault_draw(void)
{
    TestHost *soft = host("soft"), *gl;

    g_setenv("R500_GL_FAULT", "draw:2", true);
    gl = host("gl");
    g_unsetenv("R500_GL_FAULT");
    for (int k = 0; k < 4; k++) {
        scene(soft);
        scene(gl);
    }
    r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
    g_assert_cmpuint(compare_tol(soft, gl, 4), <, 60);
    assert_gl_draws(gl, 1, 3);
    g_assert_cmpuint(test_host_count_logs(gl, "renderer gl"), ==, 1);
    g_assert_cmpuint(test_host_count_logs(gl, "forced by gl-fault); soft "
                                          "draws from here on"), ==, 1);
    test_host_free(soft);
    test_host_free(gl);
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
    g_test_add_func("/gl/renderer/formats", test_formats);
    g_test_add_func("/gl/renderer/formats-blend", test_formats_blend);
    g_test_add_func("/gl/renderer/formats-mrt", test_formats_mrt);
    g_test_add_func("/gl/renderer/formats-declined", test_formats_declined);
    g_test_add_func("/gl/renderer/cube", test_cube);
    g_test_add_func("/gl/renderer/texture-limit", test_texture_limit);
    g_test_add_func("/gl/renderer/fault-open", test_fault_open);
    g_test_add_func("/gl/renderer/fault-draw", test_fault_draw);
    return g_test_run();
}
