/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AVIVO CRTCs: timing and pixel clock, scan position, vblank, frame
 * counter, vblank interrupts and the surface-update (flip) handshake.
 *
 * Reference radeon-kms-r500.md 7.4, 7.5 and 8; real-atombios-trace.md 2.
 *
 * Time: nothing ticks.  A running CRTC's position is computed from
 * virtual time since an epoch (disp.h R500CrtcState), so registers read
 * by polling loops (STATUS, STATUS_POSITION, FRAME_COUNT) always move
 * while the CRTC is on, and cost nothing while nobody reads them.  The
 * block's run() only asks to be called at the next vblank start when a
 * vblank interrupt is enabled and not already pending.
 *
 * Timing registers use the convention the AtomBIOS tables program
 * (SetCRTC_UsingDTDTiming): line and pixel 0 at the start of sync, the
 * active area is [blank end, blank start).  The frame counter increments
 * when the line counter wraps to 0, which radeon_get_vblank_counter_kms
 * expects ("before vsync ... where the hw counter really increments").
 * No register value can stop the clock or freeze the vblank bit while
 * the position moves (avivo_wait_for_vblank would spin forever):
 * degenerate timings (or a vblank or active part shorter than 1/64 of the
 * frame) fall back to a mode built from the viewport, an unprogrammed
 * pixel clock to 60 Hz, and the frame rate stays within 10..500 Hz.
 */
#include <glib.h>
#include <string.h>

#include "disp_int.h"

#define REF_CLOCK_KHZ   27000   /* FirmwareInfo usReferenceClock */
#define MIN_HZ          10
#define MAX_HZ          500
#define FALLBACK_HZ     60
#define NS_PER_MS       1000000ull
#define PLL_OFF         (R500_FMASK(P1PLL_CNTL, RESET) | \
                         R500_FMASK(P1PLL_CNTL, POWER_DOWN))
#define PLL_LOCKED      (R500_FMASK(P1PLL_CNTL, LOCKED) | \
                         R500_FMASK(P1PLL_CNTL, CAL_DONE))

/* ---- Timing ---- */

static bool axis_ok(const R500CrtcAxis *a)
{
    return a->total >= 2 && a->bs < a->total && a->be < a->total &&
           a->bs != a->be;
}

/*
 * Vertically, both the active part and the blank must last at least
 * 1/64 of the frame (31 us at the fastest frame rate), or a vblank poll
 * that reads every few microseconds could keep missing one of them.
 */
static bool vaxis_ok(const R500CrtcAxis *a)
{
    uint32_t active, min = MAX(a->total / 64, 1);

    if (!axis_ok(a)) {
        return false;
    }
    active = (a->bs + a->total - a->be) % a->total;
    return active >= min && a->total - active >= min;
}

/*
 * One axis from its TOTAL, BLANK_START_END and SYNC_A registers (H and V
 * share the layout); a degenerate one becomes a plausible axis around
 * the viewport size, blank after the active part.
 */
static void axis_read(R500CrtcAxis *a, uint32_t total, uint32_t blank,
                      uint32_t sync, bool vertical, uint32_t vp_size)
{
    a->total = R500_FGET(total, D1CRTC_H_TOTAL, TOTAL) + 1;
    a->bs = R500_FGET(blank, D1CRTC_H_BLANK_START_END, START);
    a->be = R500_FGET(blank, D1CRTC_H_BLANK_START_END, END);
    if (vertical ? !vaxis_ok(a) : !axis_ok(a)) {
        uint32_t active = MAX(vp_size ? vp_size : (vertical ? 480 : 640), 1);

        a->total = active + MAX(active / (vertical ? 20 : 4), 2);
        a->bs = active;
        a->be = 0;
    }
    a->active = (a->bs + a->total - a->be) % a->total;
    a->ss = R500_FGET(sync, D1CRTC_H_SYNC_A, START);
    a->se = R500_FGET(sync, D1CRTC_H_SYNC_A, END);
    if (a->ss >= a->total || a->se > a->total) {
        a->ss = a->se = 0;
    }
}

static uint32_t pll_khz(const uint32_t *regs, unsigned pll)
{
    uint32_t ref = R500_FGET(regs[(pll ? R_EXT2_PPLL_REF_DIV
                                       : R_EXT1_PPLL_REF_DIV) / 4],
                             EXT1_PPLL_REF_DIV, REF_DIV);
    uint32_t fbreg = regs[(pll ? R_EXT2_PPLL_FB_DIV : R_EXT1_PPLL_FB_DIV) / 4];
    uint32_t fb = R500_FGET(fbreg, EXT1_PPLL_FB_DIV, FB_DIV);
    uint32_t frac = MIN(R500_FGET(fbreg, EXT1_PPLL_FB_DIV, FB_DIV_FRAC), 9);
    uint32_t post = R500_FGET(regs[(pll ? R_EXT2_PPLL_POST_DIV
                                        : R_EXT1_PPLL_POST_DIV) / 4],
                              EXT1_PPLL_POST_DIV, POST_DIV);
    uint32_t cntl = regs[(pll ? R_P2PLL_CNTL : R_P1PLL_CNTL) / 4];

    if (cntl & PLL_OFF) {
        return 0;
    }
    if (!ref || !fb || !post) {
        return 0;
    }
    /* pixel clock = ref * (fb + frac / 10) / (ref_div * post_div) */
    return (uint64_t)REF_CLOCK_KHZ * (fb * 10 + frac) /
           ((uint64_t)ref * post * 10);
}

void crtc_compute_timing(const uint32_t *regs, unsigned c, R500CrtcTiming *t)
{
#define CR(d1reg) regs[CRTC_REG(c, d1reg) / 4]
    uint32_t vp = CR(R_D1MODE_VIEWPORT_SIZE);
    uint32_t pclk = regs[(c ? R_PCLK_CRTC2_CNTL : R_PCLK_CRTC1_CNTL) / 4];
    uint64_t fp, lo, hi;

    memset(t, 0, sizeof(*t));
    axis_read(&t->h, CR(R_D1CRTC_H_TOTAL), CR(R_D1CRTC_H_BLANK_START_END),
              CR(R_D1CRTC_H_SYNC_A), false,
              R500_FGET(vp, D1MODE_VIEWPORT_SIZE, WIDTH));
    axis_read(&t->v, CR(R_D1CRTC_V_TOTAL), CR(R_D1CRTC_V_BLANK_START_END),
              CR(R_D1CRTC_V_SYNC_A), true,
              R500_FGET(vp, D1MODE_VIEWPORT_SIZE, HEIGHT));

    fp = (uint64_t)t->h.total * t->v.total;
    t->khz = pll_khz(regs, R500_FGET(pclk, PCLK_CRTC1_CNTL, PLL_SEL));
    if (!t->khz) {
        t->khz = (fp * FALLBACK_HZ + 999) / 1000;
    }
    lo = (fp * MIN_HZ + 999) / 1000;
    hi = MAX(fp * MAX_HZ / 1000, lo);
    t->khz = CLAMP((uint64_t)t->khz, lo, hi);
#undef CR
}

const R500CrtcTiming *crtc_timing(R500Chip *s, unsigned c)
{
    return &s->disp.timing[c];
}

bool crtc_running(R500Chip *s, unsigned c)
{
    return R500_FGET(CREG(s, c, R_D1CRTC_CONTROL), D1CRTC_CONTROL, CRTC_EN);
}

bool crtc_vga_mode(R500Chip *s, unsigned c)
{
    uint32_t ctl = REG(s, c ? R_D2VGA_CONTROL : R_D1VGA_CONTROL);

    return R500_FGET(ctl, D1VGA_CONTROL, MODE_ENABLE) &&
           R500_FGET(REG(s, R_VGA_RENDER_CONTROL), VGA_RENDER_CONTROL,
                     VGA_VSTATUS_CNTL) != 0;
}

/* ---- Position as a function of time ---- */

/* Pixels scanned since the epoch: floor(dt * khz / 1e6) without overflow. */
static uint64_t pixels_since(const R500CrtcTiming *t, int64_t dt)
{
    uint64_t q, r;

    if (dt <= 0) {
        return 0;
    }
    q = (uint64_t)dt / NS_PER_MS;
    r = (uint64_t)dt % NS_PER_MS;
    return q * t->khz + r * t->khz / NS_PER_MS;
}

/* Nanoseconds after the epoch at which pixel p starts: ceil(p * 1e6 / khz). */
static int64_t ns_at_pixel(const R500CrtcTiming *t, uint64_t p)
{
    uint64_t a = p / t->khz, b = p % t->khz;

    return a * NS_PER_MS + (b * NS_PER_MS + t->khz - 1) / t->khz;
}

static uint64_t frame_pixels(const R500CrtcTiming *t)
{
    return (uint64_t)t->h.total * t->v.total;
}

/* Pixel index within a frame at which vblank starts; never 0 (see below). */
static uint64_t vblank_pixel(const R500CrtcTiming *t)
{
    uint64_t p = (uint64_t)t->v.bs * t->h.total;

    /* A vblank starting at line 0 starts when the frame wraps. */
    return p ? p : frame_pixels(t);
}

/* Vblank starts in (epoch, epoch + p]. */
static uint64_t vblanks_in(const R500CrtcTiming *t, uint64_t p)
{
    uint64_t vp = vblank_pixel(t);

    return p >= vp ? (p - vp) / frame_pixels(t) + 1 : 0;
}

static uint64_t crtc_pixels(R500Chip *s, unsigned c, int64_t now)
{
    return pixels_since(&s->disp.timing[c], now - s->disp.st.crtc[c].epoch_ns);
}

/* Counters at now, as if the CRTC runs (callers check that it does). */
static uint64_t running_vblanks(R500Chip *s, unsigned c, int64_t now)
{
    return s->disp.st.crtc[c].vblank_base +
           vblanks_in(&s->disp.timing[c], crtc_pixels(s, c, now));
}

static uint64_t running_frames(R500Chip *s, unsigned c, int64_t now)
{
    return s->disp.st.crtc[c].frame_base +
           crtc_pixels(s, c, now) / frame_pixels(&s->disp.timing[c]);
}

uint64_t crtc_vblank_count(R500Chip *s, unsigned c, int64_t now)
{
    return crtc_running(s, c) ? running_vblanks(s, c, now)
                              : s->disp.st.crtc[c].vblank_base;
}

static uint64_t crtc_frame_count(R500Chip *s, unsigned c, int64_t now)
{
    return crtc_running(s, c) ? running_frames(s, c, now)
                              : s->disp.st.crtc[c].frame_base;
}

/* Fold the counts of a running CRTC into the bases; restart the epoch. */
static void crtc_rebase(R500Chip *s, unsigned c, int64_t now)
{
    R500CrtcState *cs = &s->disp.st.crtc[c];

    cs->frame_base = running_frames(s, c, now);
    cs->vblank_base = running_vblanks(s, c, now);
    cs->epoch_ns = now;
}

/* [start, end) on the circle of an axis; start == end is empty. */
static bool in_range(uint32_t v, const R500CrtcAxis *a, uint32_t start,
                     uint32_t end)
{
    return (v + a->total - start) % a->total <
           (end + a->total - start) % a->total;
}

static bool vblank_latched(R500Chip *s, unsigned c, int64_t now)
{
    return crtc_vblank_count(s, c, now) > s->disp.st.crtc[c].vblank_acked;
}

/* Recompute the timing of both CRTCs; a running one restarts its epoch. */
void crtc_retime(R500Chip *s)
{
    int64_t now = disp_now(s);

    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        R500CrtcTiming t;

        crtc_compute_timing(s->regs, c, &t);
        if (memcmp(&t, &s->disp.timing[c], sizeof(t)) != 0) {
            if (crtc_running(s, c)) {
                crtc_rebase(s, c, now);
            }
            s->disp.timing[c] = t;
        }
    }
    r500_kick(s);
}

/* ---- Surface updates (page flips), reference 7.5 ---- */

static bool flip_locked(R500Chip *s, unsigned c)
{
    return R500_FGET(CREG(s, c, R_D1GRPH_UPDATE), D1GRPH_UPDATE, UPDATE_LOCK) ||
           R500_FGET(CREG(s, c, R_D1MODE_MASTER_UPDATE_LOCK),
                     D1MODE_MASTER_UPDATE_LOCK, LOCK);
}

/*
 * Latch a pending primary address when its time has come: with the CRTC
 * off or an H-retrace (async) flip at once, otherwise at the first vblank
 * start after it was written or unlocked; never while locked.
 */
void crtc_sync_flip(R500Chip *s, unsigned c, int64_t now)
{
    R500CrtcState *cs = &s->disp.st.crtc[c];
    bool async = R500_FGET(CREG(s, c, R_D1GRPH_FLIP_CONTROL),
                           D1GRPH_FLIP_CONTROL, SURFACE_UPDATE_H_RETRACE_EN);

    if (!cs->flip_pending || flip_locked(s, c)) {
        return;
    }
    if (async || !crtc_running(s, c) ||
        crtc_vblank_count(s, c, now) > cs->flip_armed) {
        cs->surface_addr = CREG(s, c, R_D1GRPH_PRIMARY_SURFACE_ADDRESS);
        cs->flip_pending = 0;
    }
}

static void primary_address_write(R500Chip *s, uint32_t reg, uint32_t old,
                                  uint32_t mask)
{
    unsigned c = reg >= R500_CRTC2_OFFSET + R_D1GRPH_PRIMARY_SURFACE_ADDRESS;
    int64_t now = disp_now(s);

    s->disp.st.crtc[c].flip_pending = 1;
    s->disp.st.crtc[c].flip_armed = crtc_vblank_count(s, c, now);
    crtc_sync_flip(s, c, now);
}

static unsigned crtc_of(uint32_t reg)
{
    return (reg & R500_CRTC2_OFFSET) != 0;
}

static void update_lock_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    unsigned c = crtc_of(reg);
    int64_t now = disp_now(s);
    bool was_locked, locked;

    if (reg == CRTC_REG(c, R_D1GRPH_UPDATE)) {
        /*
         * The pending bits are status; UpdateCRTC_DoubleBufferRegisters
         * polls bit 0, which never sets here.
         */
        REG(s, reg) &= ~(R500_FMASK(D1GRPH_UPDATE, MODE_UPDATE_PENDING) |
                         R500_FMASK(D1GRPH_UPDATE, SURFACE_UPDATE_PENDING));
        was_locked = R500_FGET(old, D1GRPH_UPDATE, UPDATE_LOCK);
        locked = R500_FGET(REG(s, reg), D1GRPH_UPDATE, UPDATE_LOCK);
    } else {
        was_locked = old & 1;
        locked = REG(s, reg) & 1;
    }
    if (was_locked && !locked) {
        /* Latch at the next vblank after the unlock. */
        s->disp.st.crtc[c].flip_armed = crtc_vblank_count(s, c, now);
    }
    crtc_sync_flip(s, c, now);
}

static uint32_t grph_update_read(R500Chip *s, uint32_t reg)
{
    unsigned c = crtc_of(reg);

    crtc_sync_flip(s, c, disp_now(s));
    return REG(s, reg) |
           (s->disp.st.crtc[c].flip_pending ?
            R500_FMASK(D1GRPH_UPDATE, SURFACE_UPDATE_PENDING) : 0);
}

/* ---- Status registers ---- */

static uint32_t crtc_status_read(R500Chip *s, uint32_t reg)
{
    unsigned c = crtc_of(reg);
    const R500CrtcTiming *t = &s->disp.timing[c];
    uint64_t pos;
    uint32_t line, x, v = 0;

    if (!crtc_running(s, c)) {
        return 0;
    }
    pos = crtc_pixels(s, c, disp_now(s)) % frame_pixels(t);
    line = pos / t->h.total;
    x = pos % t->h.total;
    if (in_range(line, &t->v, t->v.be, t->v.bs)) {
        v |= R500_FMASK(D1CRTC_STATUS, V_ACTIVE_DISP);
    } else {
        /* The double-buffer update window is the vertical blank. */
        v |= R500_FMASK(D1CRTC_STATUS, V_BLANK) |
             R500_FMASK(D1CRTC_STATUS, V_UPDATE);
    }
    if (in_range(line, &t->v, t->v.ss, t->v.se)) {
        v |= R500_FMASK(D1CRTC_STATUS, V_SYNC_A);
    }
    if (in_range(x, &t->h, t->h.be, t->h.bs)) {
        v |= R500_FMASK(D1CRTC_STATUS, H_ACTIVE_DISP);
    } else {
        v |= R500_FMASK(D1CRTC_STATUS, H_BLANK);
    }
    if (in_range(x, &t->h, t->h.ss, t->h.se)) {
        v |= R500_FMASK(D1CRTC_STATUS, H_SYNC_A);
    }
    return v;
}

static uint32_t crtc_position_read(R500Chip *s, uint32_t reg)
{
    unsigned c = crtc_of(reg);
    const R500CrtcTiming *t = &s->disp.timing[c];
    uint64_t pos;

    if (!crtc_running(s, c)) {
        return 0;
    }
    pos = crtc_pixels(s, c, disp_now(s)) % frame_pixels(t);
    return R500_FSET(0, D1CRTC_STATUS_POSITION, VERT, pos / t->h.total) |
           R500_FSET(0, D1CRTC_STATUS_POSITION, HORZ, pos % t->h.total);
}

static uint32_t frame_count_read(R500Chip *s, uint32_t reg)
{
    /* 24-bit counter (radeon's max_vblank_count 0x00FFFFFF). */
    return crtc_frame_count(s, crtc_of(reg), disp_now(s)) & 0xFFFFFF;
}

static void read_only(R500Chip *s, uint32_t reg, uint32_t old, uint32_t mask)
{
    REG(s, reg) = old;
}

static uint32_t vblank_status_read(R500Chip *s, uint32_t reg)
{
    return vblank_latched(s, crtc_of(reg), disp_now(s)) ?
           R500_FMASK(D1MODE_VBLANK_STATUS, OCCURRED) : 0;
}

static void vblank_status_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    unsigned c = crtc_of(reg);

    if (R500_FGET(REG(s, reg), D1MODE_VBLANK_STATUS, ACK)) {
        s->disp.st.crtc[c].vblank_acked = crtc_vblank_count(s, c, disp_now(s));
    }
    REG(s, reg) = 0;
    r500_irq_update(s);
    r500_kick(s);
}

static uint32_t disp_int_status_read(R500Chip *s, uint32_t reg)
{
    int64_t now = disp_now(s);
    uint32_t v = 0;

    if (vblank_latched(s, 0, now)) {
        v |= R500_FMASK(DISP_INTERRUPT_STATUS, LB_D1_VBLANK);
    }
    if (vblank_latched(s, 1, now)) {
        v |= R500_FMASK(DISP_INTERRUPT_STATUS, LB_D2_VBLANK);
    }
    if (s->disp.st.hpd_int[0]) {
        v |= R500_FMASK(DISP_INTERRUPT_STATUS, DC_HPD1);
    }
    if (s->disp.st.hpd_int[1]) {
        v |= R500_FMASK(DISP_INTERRUPT_STATUS, DC_HPD2);
    }
    return v;
}

static void int_mask_write(R500Chip *s, uint32_t reg, uint32_t old,
                           uint32_t mask)
{
    uint32_t v = REG(s, reg);

    if (v & (R500_FMASK(DXMODE_INT_MASK, D1_VLINE) |
             R500_FMASK(DXMODE_INT_MASK, D2_VLINE))) {
        r500_unimp(s, "DxMODE_INT_MASK 0x%08x: vline interrupts are not "
                   "modelled", v);
    }
    r500_irq_update(s);
    r500_kick(s);
}

static void crtc_control_write(R500Chip *s, uint32_t reg, uint32_t old,
                               uint32_t mask)
{
    unsigned c = crtc_of(reg);
    R500CrtcState *cs = &s->disp.st.crtc[c];
    bool was_on = R500_FGET(old, D1CRTC_CONTROL, CRTC_EN);
    bool on = crtc_running(s, c);
    int64_t now = disp_now(s);

    if (was_on && !on) {
        /* The counters freeze where they are. */
        crtc_rebase(s, c, now);
        /* The scanout stops fetching: a pending address applies now. */
        crtc_sync_flip(s, c, now);
    } else if (!was_on && on) {
        cs->epoch_ns = now;
    }
    r500_irq_update(s);
    r500_kick(s);
}

static void timing_write(R500Chip *s, uint32_t reg, uint32_t old,
                         uint32_t mask)
{
    if (REG(s, reg) != old) {
        crtc_retime(s);
    }
}

static uint32_t pll_cntl_read(R500Chip *s, uint32_t reg)
{
    uint32_t v = REG(s, reg);

    /*
     * SetPixelClock polls for lock and calibration without a bound
     * (real-atombios-trace.md 4): report both once out of reset and sleep.
     */
    if (!(v & PLL_OFF)) {
        v |= PLL_LOCKED;
    }
    return v;
}

static void pll_cntl_write(R500Chip *s, uint32_t reg, uint32_t old,
                           uint32_t mask)
{
    REG(s, reg) &= ~PLL_LOCKED;
    timing_write(s, reg, old, mask);
}

/* The hook entries of one register for D1 and D2 (an initializer list). */
#define PER_CRTC(d1reg, rd, wr) \
    { (d1reg), (d1reg), (rd), (wr) }, \
    { (d1reg) + R500_CRTC2_OFFSET, (d1reg) + R500_CRTC2_OFFSET, (rd), (wr) }

static const R500RegHook crtc_hooks[] = {
    /* Timing: H_TOTAL .. V_SYNC_B_CNTL. */
    { R_D1CRTC_H_TOTAL, R_D1CRTC_V_SYNC_B_CNTL, NULL, timing_write },
    { R_D2CRTC_H_TOTAL, R_D2CRTC_V_SYNC_B_CNTL, NULL, timing_write },
    PER_CRTC(R_D1MODE_VIEWPORT_SIZE, NULL, timing_write),
    PER_CRTC(R_D1CRTC_CONTROL, NULL, crtc_control_write),
    PER_CRTC(R_D1CRTC_STATUS, crtc_status_read, read_only),
    PER_CRTC(R_D1CRTC_STATUS_POSITION, crtc_position_read, read_only),
    PER_CRTC(R_D1CRTC_STATUS_FRAME_COUNT, frame_count_read, read_only),
    PER_CRTC(R_D1MODE_VBLANK_STATUS, vblank_status_read, vblank_status_write),
    PER_CRTC(R_D1GRPH_PRIMARY_SURFACE_ADDRESS, NULL, primary_address_write),
    PER_CRTC(R_D1GRPH_UPDATE, grph_update_read, update_lock_write),
    PER_CRTC(R_D1MODE_MASTER_UPDATE_LOCK, NULL, update_lock_write),
    { R_DXMODE_INT_MASK, R_DXMODE_INT_MASK, NULL, int_mask_write },
    { R_DISP_INTERRUPT_STATUS, R_DISP_INTERRUPT_STATUS,
      disp_int_status_read, read_only },
    /* Display PLLs and their routing to the CRTCs. */
    { R_EXT1_PPLL_REF_DIV, R_EXT1_PPLL_REF_DIV, NULL, timing_write },
    { R_EXT2_PPLL_REF_DIV, R_EXT2_PPLL_REF_DIV, NULL, timing_write },
    { R_EXT1_PPLL_FB_DIV, R_EXT2_PPLL_FB_DIV, NULL, timing_write },
    { R_EXT1_PPLL_POST_DIV, R_EXT1_PPLL_POST_DIV, NULL, timing_write },
    { R_EXT2_PPLL_POST_DIV, R_EXT2_PPLL_POST_DIV, NULL, timing_write },
    { R_P1PLL_CNTL, R_P2PLL_CNTL, pll_cntl_read, pll_cntl_write },
    { R_PCLK_CRTC1_CNTL, R_PCLK_CRTC2_CNTL, NULL, timing_write },
    { 0 }
};

static void crtc_reset(R500Chip *s)
{
    memset(s->disp.st.crtc, 0, sizeof(s->disp.st.crtc));
    /*
     * The state the VGA BIOS leaves at POST: D1 in VGA mode with VGA
     * rendering on, so the legacy VGA engine is what the screen shows.
     * The CRTCs themselves stay off (posted by CONFIG_MEMSIZE).
     */
    REG(s, R_D1VGA_CONTROL) = R500_FMASK(D1VGA_CONTROL, MODE_ENABLE);
    REG(s, R_VGA_RENDER_CONTROL) = R500_FSET(0, VGA_RENDER_CONTROL,
                                             VGA_VSTATUS_CNTL, 1);
    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        crtc_compute_timing(s->regs, c, &s->disp.timing[c]);
    }
}

/*
 * Before the state is saved: the epochs travel as ages, so the scan
 * position carries over even where the destination's virtual clock does
 * not continue the source's (crtc_post_load converts back).
 */
static void crtc_pre_save(R500Chip *s)
{
    int64_t now = disp_now(s);

    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        s->disp.st.crtc[c].epoch_age_ns = now - s->disp.st.crtc[c].epoch_ns;
    }
}

static void crtc_post_load(R500Chip *s)
{
    int64_t now = disp_now(s);

    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        s->disp.st.crtc[c].epoch_ns = now - s->disp.st.crtc[c].epoch_age_ns;
        crtc_compute_timing(s->regs, c, &s->disp.timing[c]);
    }
}

static bool crtc_vblank_irq_enabled(R500Chip *s, unsigned c)
{
    uint32_t m = REG(s, R_DXMODE_INT_MASK);

    return c ? R500_FGET(m, DXMODE_INT_MASK, D2_VBLANK)
             : R500_FGET(m, DXMODE_INT_MASK, D1_VBLANK);
}

static bool crtc_irq_pending(R500Chip *s)
{
    int64_t now = disp_now(s);

    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        if (crtc_vblank_irq_enabled(s, c) && vblank_latched(s, c, now)) {
            return true;
        }
    }
    return false;
}

/* Wake up at the next vblank start of a CRTC whose interrupt is armed. */
static int64_t crtc_run(R500Chip *s, int64_t now)
{
    int64_t next = INT64_MAX;

    r500_irq_update(s);
    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        const R500CrtcTiming *t = &s->disp.timing[c];
        R500CrtcState *cs = &s->disp.st.crtc[c];
        uint64_t n, p;

        if (!crtc_running(s, c) || !crtc_vblank_irq_enabled(s, c) ||
            vblank_latched(s, c, now)) {
            continue;
        }
        /* Pixel index of vblank start number n + 1 after the epoch. */
        n = vblanks_in(t, crtc_pixels(s, c, now));
        p = vblank_pixel(t) + n * frame_pixels(t);
        next = MIN(next, cs->epoch_ns + ns_at_pixel(t, p));
    }
    return next;
}

const R500Block r500_crtc_block = {
    .name = "crtc",
    .hooks = crtc_hooks,
    .reset = crtc_reset,
    .run = crtc_run,
    .clocked = true,
    .pre_save = crtc_pre_save,
    .post_load = crtc_post_load,
    .irq_pending = crtc_irq_pending,
};
