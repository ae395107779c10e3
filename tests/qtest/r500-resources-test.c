/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host memory under the worst a guest can ask of the host-GL renderer
 * (docs/reliability.md, "Host resources"): every host allocation the
 * guest sizes has a bound tied to the card, so QEMU's peak resident
 * memory stays under a sum of them whatever the TX and RB state says.
 *
 *   worst-textures  on renderer=auto (skipped where it is not gl), card
 *                   thread on: a 4096 x 4096 colour buffer, and draws
 *                   sampling R500's largest textures (4096 x 4096 levels,
 *                   decoded to RGBA32F, 256 MiB each on the host):
 *                   sixteen units at once (refused: past the per-draw
 *                   bound, soft draws it), then four draws of two units
 *                   each (at the per-draw bound), their formats changing
 *                   so that most are staged anew (the cache holds one
 *                   such texture, 256 MiB).  QEMU's peak
 *                   RSS (VmHWM) stays within RSS_BOUND of its RSS before
 *                   the draws, the refusal is counted, the others are
 *                   gl's, and the card answers after.
 *
 * RSS_BOUND is the table's sum: one draw's textures staged as floats
 * (GL_TEX_DRAW_TEXELS x 16 bytes, 512 MiB) and their GL copies (as
 * much), the texture cache (256 MiB), the surfaces held on the host (256
 * MiB), VRAM touched by the draws' write-backs (at most its 256 MiB), and
 * 256 MiB for llvmpipe's own (its JIT code, tiles, a target's scratch).
 * Without the per-draw bound the sixteen units alone stage 4 GiB.
 */
#include "r500-qtest.h"
#include "r500-cp-env.h"
#include "r500-3d-env.h"
#include "r500-driver-seq.h"

#define CB              0x00000000u
#define CB_W            4096u
#define MARK            R500_REGA_AT(SCRATCH_REG, 3)
#define TEX_SIDE        4096u
#define RSS_BOUND       (2048ull << 20)

/* TX_FORMAT1 formats (R500_TXF_*): each decodes to 2^24 RGBA32F texels. */
enum {
    TXF_8_8_8_8 = 0x06, TXF_16F4 = 0x1A, TXF_32F = 0x1B, TXF_32F2 = 0x1C,
    TXF_32F4 = 0x1D,
};

/* kB of a /proc/PID/status line (VmRSS, VmHWM). */
static uint64_t proc_kb(pid_t pid, const char *key)
{
    char *path = g_strdup_printf("/proc/%d/status", (int)pid);
    char *text = NULL, *at;
    uint64_t kb = 0;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    at = strstr(text, key);
    g_assert_nonnull(at);
    kb = g_ascii_strtoull(at + strlen(key) + 1, NULL, 10);
    g_free(text);
    g_free(path);
    return kb;
}

/*
 * Unit u: a TEX_SIDE x TEX_SIDE level of fmt at VRAM 0 (the largest
 * R500 level: TX_FORMAT0's 11 bits and TX_FORMAT2's 12th), point
 * sampled, clamped.
 */
static void tex_unit(CpEnv *e, unsigned u, uint32_t fmt)
{
    unsigned m = TEX_SIDE - 1;

    r500_wreg(&e->t, R_TX_FILTER0 + 4 * u,
              2 | 2u << 3 | 2u << 6 | 1u << 9 | 1u << 11 | u << 28);
    r500_wreg(&e->t, R_TX_FILTER1 + 4 * u, 0);
    r500_wreg(&e->t, R_TX_FORMAT0 + 4 * u, (m & 0x7FF) | (m & 0x7FF) << 11);
    r500_wreg(&e->t, R_TX_FORMAT1 + 4 * u, fmt);
    r500_wreg(&e->t, R_TX_FORMAT2 + 4 * u, (m >> 11) << 15 | (m >> 11) << 16);
    r500_wreg(&e->t, R_TX_OFFSET + 4 * u, 0);
}

/*
 * A fragment program sampling units 0..n-1 at t0 (the colour) into
 * t1..tn, then OUT t1: the unit test's three_units() program, n wide.
 */
static void sample_units(CpEnv *e, const uint32_t *fmt, unsigned n)
{
    uint32_t *w = g_new0(uint32_t, 6 * (n + 1));

    r500_wreg(&e->t, R_TX_ENABLE, (1u << n) - 1);
    for (unsigned u = 0; u < n; u++) {
        tex_unit(e, u, fmt[u]);
        r500_seq_us_tex(u, 0, u + 1, w + 6 * u);
    }
    /* r500_seq_us_out with its sources t1 instead of t0 */
    memcpy(w + 6 * n, r500_seq_us_out, sizeof(r500_seq_us_out));
    w[6 * n + 1] |= 1;
    w[6 * n + 2] |= 1;
    r500_seq_us_program(cp_env_w, &e->t, w, n + 1);
    g_free(w);
}

/*
 * A 64 x 64 square of the target (what the host allocates follows the
 * state, not the area drawn; soft samples sixteen units per pixel), then
 * the marker; wait for it.
 */
static void draw(CpEnv *e, uint32_t mark)
{
    static const float xy[6][2] = {
        { 0, 0 }, { 64, 0 }, { 0, 64 }, { 64, 0 }, { 64, 64 }, { 0, 64 },
    };
    float v[6 * 8];

    for (unsigned i = 0; i < 6; i++) {
        d3_vtx(v + 8 * i, xy[i][0], xy[i][1], 0.2f, 0.4f, 0.6f, 1.0f);
    }
    d3_emit_triangles(e, v, 2);
    cp_emit(e, R500_PM4_PACKET0(MARK, 0));
    cp_emit(e, mark);
    cp_commit(e);
    g_assert_true(cp_poll_reg_ms(e, MARK, ~0u, mark, 300000));
}

static void test_worst_textures(void)
{
    static const uint32_t pairs[4][2] = {
        { TXF_32F4, TXF_16F4 }, { TXF_32F2, TXF_8_8_8_8 },
        { TXF_32F, TXF_32F4 }, { TXF_16F4, TXF_8_8_8_8 },
    };
    uint32_t all[16];
    uint64_t before, peak, draws, over;
    pid_t pid;
    CpEnv e;
    char *active;

    cp_env_start_args(&e, &r500_test_models[0], "-global r500.card-thread=on "
                      "-global r500.renderer=auto");
    active = r500_qom_str(&e.t, "renderer-active");
    if (strcmp(active, "gl")) {
        g_free(active);
        cp_env_stop(&e);
        g_test_skip("renderer=auto chose soft: no GL renderer here");
        return;
    }
    g_free(active);
    pid = qtest_pid(e.t.qts);
    d3_setup(&e, CB, CB_W, CB_W);
    r500_wreg(&e.t, MARK, 0);
    before = proc_kb(pid, "VmRSS:");

    /* sixteen units of 2^24 texels: 2^28 staged, past GL_TEX_DRAW_TEXELS */
    for (unsigned u = 0; u < 16; u++) {
        all[u] = u & 1 ? TXF_16F4 : TXF_32F4;
    }
    sample_units(&e, all, 16);
    draw(&e, 1);
    g_assert_cmpuint((proc_kb(pid, "VmHWM:") - before) << 10, <=, RSS_BOUND);
    /* counted for each part of the draw gl was offered */
    over = r500_qom_stat(&e.t, "render-gl-over-limit");
    g_assert_cmpuint(over, >=, 1);
    draws = r500_qom_stat(&e.t, "render-gl-draws");

    /* two units each, at the bound; the cache holds one of them */
    for (unsigned i = 0; i < 4; i++) {
        sample_units(&e, pairs[i], 2);
        draw(&e, 2 + i);
    }
    g_assert_cmpuint(r500_qom_stat(&e.t, "render-gl-over-limit"), ==, over);
    g_assert_cmpuint(r500_qom_stat(&e.t, "render-gl-draws"), >=, draws + 4);
    g_assert_cmpuint(r500_qom_stat(&e.t, "render-gl-texture-cache-bytes"),
                     <=, 256ull << 20);

    peak = proc_kb(pid, "VmHWM:");
    g_test_message("RSS %" PRIu64 " MiB before the draws, peak %" PRIu64
                   " MiB, %" PRIu64 " MiB above (bound %llu MiB)",
                   before >> 10, peak >> 10, (peak - before) >> 10,
                   RSS_BOUND >> 20);
    g_assert_cmpuint((peak - before) << 10, <=, RSS_BOUND);
    /* the card still answers: the driver's ring test */
    cp_ring_test(&e);
    g_assert_true(r500_qmp_alive(&e));
    cp_env_stop(&e);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/r500/rv515/resources/worst-textures",
                   test_worst_textures);
    return g_test_run();
}
