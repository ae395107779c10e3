/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the CRTCs: timing and pixel clock, scan position, vblank,
 * frame counter, vblank interrupts and the flip handshake
 * (radeon-kms-r500.md 7.4, 7.5, 8).
 */
#include "disp-util.h"
#include "../qtest/r500-driver-seq.h"

#define FP_1024     (1344u * 806u)      /* pixels per frame */
#define KHZ_1024    65000u

/* Position the model must report at t ns after the CRTC was enabled. */
static void expect_position(R500Chip *s, uint64_t t)
{
    uint64_t p = t * KHZ_1024 / 1000000 % FP_1024;
    uint32_t line = p / 1344, pix = p % 1344;
    uint32_t pos = r500_reg_read(s, R_D1CRTC_STATUS_POSITION);
    uint32_t st = r500_reg_read(s, R_D1CRTC_STATUS);
    bool vblank = line >= 0x323 || line < 0x23;

    g_assert_cmpuint(pos & 0x1FFF, ==, line);
    g_assert_cmpuint(pos >> 16, ==, pix);
    g_assert_cmpuint(st & 1, ==, vblank);
    g_assert_cmpuint((st >> 1) & 1, ==, !vblank);
    /* V_SYNC_A: lines [0, 6) with the sync at the origin. */
    g_assert_cmpuint((st >> 2) & 1, ==, line < 6);
    /* H_BLANK outside [296, 1320). */
    g_assert_cmpuint((st >> 16) & 1, ==, pix < 296 || pix >= 1320);
}

static void test_position(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    static const uint64_t times[] = {
        0, 1, 999, 20677, 5000000, 16665600, 16666000, 123456789, 999999999,
    };

    disp_timing_1024x768(s, 0);
    /* Off: no position, no vblank. */
    g_assert_cmphex(r500_reg_read(s, R_D1CRTC_STATUS_POSITION), ==, 0);
    g_assert_cmphex(r500_reg_read(s, R_D1CRTC_STATUS), ==, 0);
    h->host.now = 1000;
    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    for (unsigned i = 0; i < G_N_ELEMENTS(times); i++) {
        h->host.now = 1000 + times[i];
        expect_position(s, times[i]);
    }
    /* Read-only. */
    r500_reg_write(s, R_D1CRTC_STATUS_POSITION, 0x12345678);
    expect_position(s, times[G_N_ELEMENTS(times) - 1]);
    test_host_free(h);
}

static void test_frame_count(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint64_t frame_ns = (uint64_t)FP_1024 * 1000000 / KHZ_1024 + 1;

    disp_timing_1024x768(s, 0);
    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    g_assert_cmpuint(r500_reg_read(s, R_D1CRTC_STATUS_FRAME_COUNT), ==, 0);
    /* 65 MHz / (1344 * 806) = 60.004 Hz: 60 frames in a second. */
    h->host.now = 1000000000;
    g_assert_cmpuint(r500_reg_read(s, R_D1CRTC_STATUS_FRAME_COUNT), ==, 60);
    /* Off: frozen; on again: counts on from there. */
    r500_reg_write(s, R_D1CRTC_CONTROL, 0);
    h->host.now += 5 * frame_ns;
    g_assert_cmpuint(r500_reg_read(s, R_D1CRTC_STATUS_FRAME_COUNT), ==, 60);
    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    h->host.now += 2 * frame_ns;
    g_assert_cmpuint(r500_reg_read(s, R_D1CRTC_STATUS_FRAME_COUNT), ==, 62);
    /* A new mode keeps the count (rebased, not reset). */
    disp_timing_small(s, 0, 640, 480);
    g_assert_cmpuint(r500_reg_read(s, R_D1CRTC_STATUS_FRAME_COUNT), ==, 62);
    test_host_free(h);
}

static void test_pixel_clock(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    R500Chip *s = &h->chip;
    R500Scanout so;

    disp_timing_1024x768(s, 1);
    disp_surface(s, 1, 1024, 768, 2, 1024, 0);
    r500_reg_write(s, R_TMDSA_SOURCE_SELECT, 1);
    r500_reg_write(s, R_TMDSA_CNTL, 1);
    r500_reg_write(s, R_TMDSA_TRANSMITTER_ENABLE, 0x1F);
    r500_reg_write(s, R_D2CRTC_CONTROL, 1);
    r500_disp_scanout(s, 1, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_NATIVE);
    g_assert_cmpuint(so.width, ==, 1024);
    g_assert_cmpuint(so.height, ==, 768);
    g_assert_cmpuint(so.refresh_mhz, ==, 60003);   /* 65e9 / 1083264 */
    /* Fraction: fb 130.5 -> 65.25 MHz. */
    r500_reg_write(s, R_EXT2_PPLL_FB_DIV, 130 << 16 | 5);
    r500_disp_scanout(s, 1, &so);
    g_assert_cmpuint(so.refresh_mhz, ==, 60234);
    /* PLL in reset: 60 Hz fallback; P1PLL selected but unprogrammed: too. */
    r500_reg_write(s, R_P2PLL_CNTL, 1);
    r500_disp_scanout(s, 1, &so);
    g_assert_cmpuint(so.refresh_mhz / 1000, ==, 60);
    /* The lock bits read set only while the PLL runs. */
    g_assert_cmphex(r500_reg_read(s, R_P2PLL_CNTL) & 0x300000, ==, 0);
    r500_reg_write(s, R_P2PLL_CNTL, 0);
    g_assert_cmphex(r500_reg_read(s, R_P2PLL_CNTL) & 0x300000, ==, 0x300000);
    /* An absurd clock is held to 500 Hz. */
    r500_reg_write(s, R_EXT2_PPLL_FB_DIV, 0x7FF << 16);
    r500_reg_write(s, R_EXT2_PPLL_REF_DIV, 1);
    r500_reg_write(s, R_EXT2_PPLL_POST_DIV, 1);
    disp_timing_small(s, 1, 16, 8);
    r500_disp_scanout(s, 1, &so);
    g_assert_cmpuint(so.refresh_mhz, <=, 500000);
    g_assert_cmpuint(so.refresh_mhz, >=, 499000);
    test_host_free(h);
}

/*
 * avivo_wait_for_vblank spins on the vblank bit while the position moves
 * (reference 8): whatever the guest writes, a running CRTC must show the
 * bit both set and clear within a bounded time.
 */
static void test_no_frozen_vblank(void)
{
    static const uint32_t regs[] = {
        R_D1CRTC_H_TOTAL, R_D1CRTC_H_BLANK_START_END, R_D1CRTC_V_TOTAL,
        R_D1CRTC_V_BLANK_START_END, R_D1CRTC_V_SYNC_A, R_D1MODE_VIEWPORT_SIZE,
        R_EXT1_PPLL_REF_DIV, R_EXT1_PPLL_FB_DIV, R_EXT1_PPLL_POST_DIV,
        R_P1PLL_CNTL,
    };
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    GRand *rand = g_rand_new_with_seed(500);

    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    for (unsigned iter = 0; iter < 300; iter++) {
        bool seen[2] = { false, false };
        uint32_t first_pos = r500_reg_read(s, R_D1CRTC_STATUS_POSITION);
        bool moved = false;

        for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
            uint32_t v = g_rand_int(rand);

            /* Degenerate values often: zero, or tiny totals. */
            switch (g_rand_int_range(rand, 0, 4)) {
            case 0:
                v = 0;
                break;
            case 1:
                v &= 0x00070007;
                break;
            }
            r500_reg_write(s, regs[i], v);
        }
        /*
         * 10 Hz is the slowest frame: 110 ms sees a whole one; a poll
         * every 10 us sees both phases (each at least 1/64 of a frame).
         */
        for (unsigned step = 0; step < 11000; step++) {
            h->host.now += 10000;
            seen[r500_reg_read(s, R_D1CRTC_STATUS) & 1] = true;
            moved |= r500_reg_read(s, R_D1CRTC_STATUS_POSITION) != first_pos;
        }
        g_assert_true(seen[0] && seen[1] && moved);
    }
    g_rand_free(rand);
    test_host_free(h);
}

static void test_vblank_irq(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    /* Vblank starts at line 803 of the first frame. */
    int64_t start = 1000, first = start + ((uint64_t)803 * 1344 * 1000000 +
                                           KHZ_1024 - 1) / KHZ_1024;
    int64_t frame = (uint64_t)FP_1024 * 1000000 / KHZ_1024;

    disp_timing_1024x768(s, 0);
    h->host.now = start;
    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    /* rs600_irq_set: D1 vblank in DxMODE_INT_MASK asks for the deadline. */
    r500_reg_write(s, R_DXMODE_INT_MASK, 1);
    test_host_run(h);
    g_assert_cmpint(h->host.scheduled, ==, first);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_D1MODE_VBLANK_STATUS), ==, 0);
    /* One nanosecond early: nothing. */
    h->host.now = first - 1;
    g_assert_cmphex(r500_reg_read(s, R_DISP_INTERRUPT_STATUS), ==, 0);
    h->host.now = first;
    test_host_run(h);
    g_assert_true(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, 1);
    g_assert_cmphex(r500_reg_read(s, R_DISP_INTERRUPT_STATUS), ==, 1u << 4);
    g_assert_cmphex(r500_reg_read(s, R_D1MODE_VBLANK_STATUS), ==, 1);
    /* No deadline while the interrupt is pending. */
    g_assert_cmpint(h->host.scheduled, ==, -1);
    /* rs600_irq_ack: write bit 4 to VBLANK_STATUS. */
    r500_reg_write(s, R_D1MODE_VBLANK_STATUS, 1u << 4);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, 0);
    g_assert_cmphex(r500_reg_read(s, R_D1MODE_VBLANK_STATUS), ==, 0);
    test_host_run(h);
    g_assert_cmpint(h->host.scheduled, >=, first + frame);
    g_assert_cmpint(h->host.scheduled, <=, first + frame + 1);
    /* Masked, the status latches but the line stays low. */
    r500_reg_write(s, R_DXMODE_INT_MASK, 0);
    h->host.now = first + 3 * frame;
    test_host_run(h);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_D1MODE_VBLANK_STATUS), ==, 1);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, 0);
    /* Unmasking a latched vblank raises the line at once. */
    r500_reg_write(s, R_DXMODE_INT_MASK, 1);
    g_assert_true(h->host.irq);
    r500_reg_write(s, R_D1MODE_VBLANK_STATUS, 1u << 4);
    g_assert_false(h->host.irq);
    test_host_free(h);
}

/*
 * r500_run_clocked (the board's timer while the engines run on the card's
 * thread): the vblank interrupt at its time, no engine slice, no
 * deadline of its own (the full r500_run that follows sets it).
 */
static void test_vblank_clocked(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    int64_t start = 1000, first = start + ((uint64_t)803 * 1344 * 1000000 +
                                           KHZ_1024 - 1) / KHZ_1024;
    uint32_t rptr;
    int64_t sched;

    disp_timing_1024x768(s, 0);
    h->host.now = start;
    r500_reg_write(s, R_D1CRTC_CONTROL, 1);
    r500_reg_write(s, R_DXMODE_INT_MASK, 1);
    test_host_run(h);
    /*
     * The CP has work: r100_cp_init with the ring in guest RAM (VRAM high
     * in the MC space), then 16 dwords of zeroes (type-0 writes).
     */
    r500_mc_write(s, r500_mc_index(s->info->mc_map, MC_MC_FB_LOCATION),
                  0xC0FFu << 16 | 0xC000u);
    r500_seq_cp_init(r500_seq_chip_w, s, 0x100000, 10, 0x80000);
    test_host_run(h);
    r500_reg_write(s, R_CP_RB_WPTR, 16);
    rptr = r500_reg_read(s, R_CP_RB_RPTR);
    sched = h->host.scheduled;          /* the kick: run as soon as possible */
    h->host.now = first - 1;
    r500_run_clocked(s);
    g_assert_false(h->host.irq);
    h->host.now = first;
    r500_run_clocked(s);
    g_assert_true(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_D1MODE_VBLANK_STATUS), ==, 1);
    g_assert_cmpint(h->host.scheduled, ==, sched);
    g_assert_cmpuint(r500_reg_read(s, R_CP_RB_RPTR), ==, rptr);
    /* the engines' run does move it (so the check above could fail) */
    test_host_run(h);
    g_assert_cmpuint(r500_reg_read(s, R_CP_RB_RPTR), !=, rptr);
    test_host_free(h);
}

static uint32_t scanout_base(R500Chip *s, unsigned c)
{
    R500Scanout so;

    r500_disp_scanout(s, c, &so);
    return so.base;
}

/* rs600_page_flip and radeon_crtc_handle_vblank (reference 7.5). */
static void test_flip(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    int64_t frame = (uint64_t)FP_1024 * 1000000 / KHZ_1024;
    int64_t vbl;

    disp_timing_1024x768(s, 0);
    /* CRTC off: an address takes effect at once. */
    disp_surface(s, 0, 1024, 768, 2, 1024, 0x100000);
    disp_enable(s, 0);
    g_assert_cmphex(scanout_base(s, 0), ==, 0x100000);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 0);

    /* Lock, program, see the update pending, unlock. */
    r500_reg_write(s, R_D1GRPH_UPDATE, 1u << 16);
    r500_reg_write(s, R_D1GRPH_FLIP_CONTROL, 0);
    r500_reg_write(s, R_D1GRPH_SECONDARY_SURFACE_ADDRESS, 0x400000);
    r500_reg_write(s, R_D1GRPH_PRIMARY_SURFACE_ADDRESS, 0x400000);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 1u << 16 | 1u << 2);
    /* Locked: a vblank passes and nothing latches. */
    h->host.now += 2 * frame;
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE) & 4, ==, 4);
    g_assert_cmphex(scanout_base(s, 0), ==, 0x100000);
    r500_reg_write(s, R_D1GRPH_UPDATE, 0);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 4);
    /* The next vblank start latches it, and is the vblank interrupt. */
    r500_reg_write(s, R_DXMODE_INT_MASK, 1);
    r500_reg_write(s, R_D1MODE_VBLANK_STATUS, 1u << 4);
    test_host_run(h);
    vbl = h->host.scheduled;
    h->host.now = vbl - 1;
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 4);
    g_assert_cmphex(scanout_base(s, 0), ==, 0x100000);
    h->host.now = vbl;
    test_host_run(h);
    g_assert_true(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 0);
    g_assert_cmphex(scanout_base(s, 0), ==, 0x400000);

    /* Async (H-retrace) flip: latched as soon as unlocked. */
    r500_reg_write(s, R_D1GRPH_UPDATE, 1u << 16);
    r500_reg_write(s, R_D1GRPH_FLIP_CONTROL, 1);
    r500_reg_write(s, R_D1GRPH_PRIMARY_SURFACE_ADDRESS, 0x800000);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE) & 4, ==, 4);
    r500_reg_write(s, R_D1GRPH_UPDATE, 0);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 0);
    g_assert_cmphex(scanout_base(s, 0), ==, 0x800000);

    /* Pending bits are status: writes do not set them. */
    r500_reg_write(s, R_D1GRPH_UPDATE, 5);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 0);
    /* Disabling the CRTC applies a pending address. */
    r500_reg_write(s, R_D1GRPH_FLIP_CONTROL, 0);
    r500_reg_write(s, R_D1GRPH_PRIMARY_SURFACE_ADDRESS, 0x200000);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 4);
    r500_reg_write(s, R_D1CRTC_CONTROL, 0);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE), ==, 0);
    test_host_free(h);
}

/* ROM polls that must end (real-atombios-trace.md 4). */
static void test_rom_polls(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_D1GRPH_UPDATE, 0xFFFFFFFF);
    g_assert_cmphex(r500_reg_read(s, R_D1GRPH_UPDATE) & 1, ==, 0);
    r500_reg_write(s, R_D1CUR_UPDATE, 0xFFFFFFFF);
    g_assert_cmphex(r500_reg_read(s, R_D1CUR_UPDATE) & 1, ==, 0);
    r500_reg_write(s, R_DC_LUT_AUTOFILL, 1);
    g_assert_cmphex(r500_reg_read(s, R_DC_LUT_AUTOFILL) & 2, ==, 2);
    r500_reg_write(s, R_P1PLL_CNTL, 3);
    r500_reg_write(s, R_P1PLL_CNTL, 0);
    g_assert_cmphex((r500_reg_read(s, R_P1PLL_CNTL) >> 16) & 0x30, ==, 0x30);
    test_host_free(h);
}

/* The state at power-on: the VGA engine drives D1, the CRTCs are off. */
static void test_reset_state(void)
{
    TestHost *h = test_host_new(R500_MODEL_R580, 16);
    R500Chip *s = &h->chip;
    R500Scanout so;

    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_VGA);
    r500_disp_scanout(s, 1, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_OFF);
    g_assert_cmphex(r500_reg_read(s, R_D1CRTC_CONTROL), ==, 0);
    /* rv515_vga_render_disable: no VGA, and D1 is off. */
    r500_reg_write(s, R_VGA_RENDER_CONTROL,
                   r500_reg_read(s, R_VGA_RENDER_CONTROL) & ~(3u << 16));
    r500_disp_scanout(s, 0, &so);
    g_assert_cmpuint(so.kind, ==, R500_SCANOUT_OFF);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/crtc/position", test_position);
    g_test_add_func("/crtc/frame-count", test_frame_count);
    g_test_add_func("/crtc/pixel-clock", test_pixel_clock);
    g_test_add_func("/crtc/no-frozen-vblank", test_no_frozen_vblank);
    g_test_add_func("/crtc/vblank-irq", test_vblank_irq);
    g_test_add_func("/crtc/vblank-clocked", test_vblank_clocked);
    g_test_add_func("/crtc/flip", test_flip);
    g_test_add_func("/crtc/rom-polls", test_rom_polls);
    g_test_add_func("/crtc/reset-state", test_reset_state);
    return g_test_run();
}
