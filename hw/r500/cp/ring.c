/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command processor: registers, ring buffer, indirect buffers and the run
 * loop (reference radeon-kms-r500.md 5.1-5.8; Linux r100.c r100_cp_init,
 * r100_ring_ib_execute, rs600_asic_reset).
 *
 * Execution model (docs/cp.md): a CP_RB_WPTR write only stores the
 * pointer and kicks r500_run(), which the board calls from a bottom half
 * guarded by the device's re-entrancy guard.  Each call runs one slice:
 * whole packets until R500_CP_SLICE_BUDGET units are spent, the ring is
 * drained, or a packet is incomplete (waiting for the next CP_RB_WPTR);
 * then the read pointer is written back and, if work remains, another
 * slice is scheduled.  Packets are copied out of guest memory before they
 * are parsed, and executed in order.  The 3D pipeline completes inside the
 * packet; the 2D engine queues its operations in its FIFO and draws them
 * in its own run(), so a write that waits for 2D idle (WAIT_UNTIL, ISYNC,
 * a 2D cache flush), a 3D packet or WAIT_FOR_IDLE stops the CP before it
 * until the 2D engine has drained (r500_cp_stall()), and the CP does not
 * write into a full FIFO (r500_cp_yield()).
 *
 * Streams: the ring (CP_RB_BASE, 2^(RB_BUFSZ+1) dwords, CP_RB_RPTR to
 * CP_RB_WPTR) and one level of indirect buffer, launched when the ring
 * writes CP_IB_BUFSZ.  Structural errors (a packet running past the end
 * of its IB or larger than the ring, a fetch that fails) halt the CP with
 * RBBM_STATUS busy, as a hung CP would look: radeon's lockup detection
 * then soft-resets it (RBBM_SOFT_RESET.SOFT_RESET_CP), which clears the
 * halt.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/* CP_CSQ_CNTL.CSQ_MODE (r500_regs.def, radeon_reg.h RADEON_CSQ_*). */
#define CSQ(mode)   R500_FVAL(CP_CSQ_CNTL, CSQ_MODE, mode)

typedef enum CpStep {
    CP_STEP_PROGRESS,   /* a packet was executed */
    CP_STEP_YIELD,      /* a packet stopped half way: the budget is spent */
    CP_STEP_IDLE,       /* nothing to do */
    CP_STEP_WAIT,       /* an incomplete packet: wait for CP_RB_WPTR */
    CP_STEP_STOP,       /* halted or reset */
    CP_STEP_STALL,      /* waiting for the 2D engine */
} CpStep;

/* A stream being fetched: the ring or the current indirect buffer. */
typedef struct CpStream {
    bool ib;
    uint64_t base;      /* MC address of dword 0 */
    uint32_t mask;      /* ring: size - 1 (positions wrap); IB: ~0 */
    uint32_t pos;       /* next dword */
    uint32_t avail;     /* dwords available from pos */
} CpStream;

static bool cp_enabled(R500Chip *s)
{
    uint32_t m = r500_cp_csq_mode(s);

    return (m == CSQ(PRIBM_INDDIS) || m == CSQ(PRIBM_INDBM)) &&
           !R500_FGET(s->regs[R_RBBM_SOFT_RESET / 4], RBBM_SOFT_RESET, CP);
}

static uint32_t ring_mask(R500Chip *s)
{
    uint32_t bufsz = R500_FGET(s->regs[R_CP_RB_CNTL / 4], CP_RB_CNTL,
                               RB_BUFSZ);

    return (2u << MIN(bufsz, R500_CP_RB_BUFSZ_MAX)) - 1;
}

static bool ring_pending(R500Chip *s)
{
    uint32_t mask = ring_mask(s);

    return ((s->regs[R_CP_RB_RPTR / 4] ^ s->regs[R_CP_RB_WPTR / 4]) & mask)
           != 0;
}

/* Work is waiting (halted CPs included: they look busy, as when hung). */
static bool cp_has_work(R500Chip *s)
{
    return cp_enabled(s) && (s->cp.ib_active || ring_pending(s));
}

static void cp_halt(R500Chip *s, const char *why, uint32_t where)
{
    s->cp.halted = true;
    s->cp.stats.errors++;
    r500_guest_error(s, "CP: %s at %s dword 0x%x; the CP is halted until "
                     "RBBM_SOFT_RESET.SOFT_RESET_CP", why,
                     s->cp.ib_active ? "IB" : "ring", where);
}

/* ---- Fetching ---- */

/* Copy n dwords at stream position pos into dst (CPU order). */
static bool stream_fetch(R500Chip *s, const CpStream *st, uint32_t pos,
                         uint32_t n, uint32_t *dst)
{
    while (n) {
        uint32_t p = pos & st->mask;
        uint32_t chunk = st->ib ? n : MIN(n, st->mask - p + 1);

        if (!r500_mem_read(s, st->base + 4ull * p, dst, 4ull * chunk)) {
            return false;
        }
        for (uint32_t i = 0; i < chunk; i++) {
            dst[i] = GUINT32_FROM_LE(dst[i]);
        }
        dst += chunk;
        pos += chunk;
        n -= chunk;
    }
    return true;
}

/*
 * n dwords at the stream position (n <= st->avail), from the prefetch
 * window when it holds them; NULL when the fetch failed.  A packet larger
 * than the window is copied into cp->pkt.
 */
static const uint32_t *stream_get(R500Chip *s, const CpStream *st,
                                  uint32_t n)
{
    R500CP *cp = &s->cp;
    uint32_t off = (st->pos - cp->fetch_pos) & st->mask;

    if (cp->fetch_len && cp->fetch_ib == st->ib && off < cp->fetch_len &&
        n <= cp->fetch_len - off) {
        return cp->fetch + off;
    }
    if (n <= R500_CP_FETCH_DWORDS) {
        uint32_t want = MIN(st->avail, R500_CP_FETCH_DWORDS);

        cp->fetch_len = 0;
        if (!stream_fetch(s, st, st->pos, want, cp->fetch)) {
            return NULL;
        }
        cp->fetch_ib = st->ib;
        cp->fetch_pos = st->pos;
        cp->fetch_len = want;
        return cp->fetch;
    }
    return stream_fetch(s, st, st->pos, n, cp->pkt) ? cp->pkt : NULL;
}

/* ---- Write-back ---- */

static void cp_rptr_writeback(R500Chip *s)
{
    R500CP *cp = &s->cp;
    uint32_t rptr = s->regs[R_CP_RB_RPTR / 4];
    uint32_t addr = s->regs[R_CP_RB_RPTR_ADDR / 4] &
                    R500_FMASK(CP_RB_RPTR_ADDR, RB_RPTR_ADDR);
    uint32_t le = GUINT32_TO_LE(rptr);

    if (R500_FGET(s->regs[R_CP_RB_CNTL / 4], CP_RB_CNTL, RB_NO_UPDATE) ||
        (cp->rptr_wb_valid && cp->rptr_wb == rptr)) {
        return;
    }
    /* Tried once per value, so a bad address logs once per change. */
    cp->rptr_wb = rptr;
    cp->rptr_wb_valid = true;
    if (!r500_mem_write(s, addr, &le, 4)) {
        r500_guest_error(s, "CP: read-pointer write-back to CP_RB_RPTR_ADDR "
                         "0x%08x failed", addr);
    }
}

/* ---- The run loop ---- */

static CpStep cp_step(R500Chip *s, uint64_t *used)
{
    R500CP *cp = &s->cp;
    CpStream st;
    const uint32_t *pkt;
    uint32_t hdr, total, epoch;

    if (cp->halted) {
        return CP_STEP_STOP;
    }
    if (!r500_rb2d_fifo_avail(s)) {
        return CP_STEP_STALL;   /* a 2D trigger would overfill the FIFO */
    }
    if (cp->ib_active) {
        if (cp->ib_pos >= cp->ib_size) {
            cp->ib_active = false;
            r500_cp_fetch_invalidate(s);
            return CP_STEP_PROGRESS;
        }
        st = (CpStream) { .ib = true, .base = cp->ib_base, .mask = ~0u,
                          .pos = cp->ib_pos, .avail = cp->ib_size - cp->ib_pos };
    } else {
        uint32_t mask = ring_mask(s);
        uint32_t rptr = s->regs[R_CP_RB_RPTR / 4] & mask;
        uint32_t wptr = s->regs[R_CP_RB_WPTR / 4] & mask;

        if (rptr == wptr) {
            return CP_STEP_IDLE;
        }
        st = (CpStream) { .ib = false, .base = s->regs[R_CP_RB_BASE / 4] & ~3u,
                          .mask = mask, .pos = rptr,
                          .avail = (wptr - rptr) & mask };
    }

    pkt = stream_get(s, &st, 1);
    if (!pkt) {
        cp_halt(s, "fetching a packet header failed", st.pos);
        return CP_STEP_STOP;
    }
    hdr = pkt[0];
    total = r500_pm4_packet_dwords(hdr);
    if (total > st.avail) {
        if (st.ib) {
            cp_halt(s, "a packet runs past the end of the indirect buffer",
                    st.pos);
            return CP_STEP_STOP;
        }
        if (total > st.mask) {
            cp_halt(s, "a packet is larger than the ring", st.pos);
            return CP_STEP_STOP;
        }
        return CP_STEP_WAIT;
    }
    pkt = stream_get(s, &st, total);
    if (!pkt) {
        cp_halt(s, "fetching a packet failed", st.pos);
        return CP_STEP_STOP;
    }
    if (pkt == cp->pkt) {
        cp->pkt[0] = hdr;   /* parse the header that was framed, not a reread */
    }

    /* Consume before executing: the packet may reset the CP. */
    if (st.ib) {
        cp->ib_pos += total;
    } else {
        s->regs[R_CP_RB_RPTR / 4] = (st.pos + total) & st.mask;
    }
    epoch = cp->epoch;
    cp->slice_used = *used;
    cp->yielded = false;
    cp->stalled = false;
    if (!cp->resume) {      /* once per packet, not per resumed slice */
        r500_trace(s, R500_TRACE_CP_PACKET, pkt[0], total,
                   st.base + 4ull * st.pos, st.ib);
    }
    r500_pm4_execute(s, pkt, total, st.ib);
    cp->stats.dwords += total;
    *used += total + cp->cost;
    cp->cost = 0;
    if (cp->epoch != epoch) {
        return CP_STEP_STOP;
    }
    if (cp->yielded) {
        /* Not consumed after all: fetched again, resumed at cp->resume. */
        if (st.ib) {
            cp->ib_pos -= total;
        } else {
            s->regs[R_CP_RB_RPTR / 4] = st.pos;
        }
        return cp->stalled ? CP_STEP_STALL : CP_STEP_YIELD;
    }
    cp->resume = 0;
    return CP_STEP_PROGRESS;
}

static int64_t cp_run(R500Chip *s, int64_t now)
{
    R500CP *cp = &s->cp;
    CpStep step = CP_STEP_IDLE;
    uint64_t used = 0;
    bool worked = false;

    if (!cp_enabled(s) || cp->halted) {
        return INT64_MAX;
    }
    cp->stats.slices++;
    /* The guest may have rewritten memory since the last slice. */
    r500_cp_fetch_invalidate(s);
    cp->in_slice = true;
    while (used < R500_CP_SLICE_BUDGET) {
        step = cp_step(s, &used);
        if (step != CP_STEP_PROGRESS) {
            break;
        }
        worked = true;
    }
    cp->in_slice = false;
    cp_rptr_writeback(s);
    if (step == CP_STEP_YIELD ||
        (step == CP_STEP_PROGRESS && cp_has_work(s))) {
        return now;     /* budget spent: yield to the main loop, resume */
    }
    if (r500_rb2d_busy(s)) {
        /*
         * 2D work queued (by this slice, after the 2D engine's run) or
         * waited for: run again while it drains.  The 2D engine raises
         * GUI_IDLE when it drains with the ring empty.
         */
        cp->stats.waits += step == CP_STEP_STALL;
        return now;
    }
    if (worked && step == CP_STEP_IDLE) {
        r500_irq_raise(s, R500_FMASK(GEN_INT_STATUS, GUI_IDLE));
    }
    return INT64_MAX;
}

/*
 * Busy while work waits, and while halted whatever CP_CSQ_CNTL says: a
 * hung CP stays busy until SOFT_RESET_CP.  radeon's suspend turns the
 * queue off (r100_cp_disable) before rs600_asic_reset, which resets
 * only a GPU that reads busy (GUI_ACTIVE); an idle-looking halted CP
 * would skip the reset and fail the ring test after it.
 */
static uint32_t cp_busy(R500Chip *s)
{
    return cp_has_work(s) || s->cp.halted ?
           R500_FMASK(RBBM_STATUS, CP_CMDSTRM_BUSY) : 0;
}

/* ---- Reset ---- */

static void cp_soft_reset(R500Chip *s)
{
    R500CP *cp = &s->cp;

    cp->ib_active = false;
    cp->ib_base = cp->ib_size = cp->ib_pos = 0;
    cp->halted = false;
    /* the pending draw whole, not only its flag (/regs/reset-whole) */
    cp->draw_pending = false;
    cp->draw_pending_opcode = cp->draw_pending_vf_cntl = 0;
    cp->resume = 0;
    cp->yielded = false;
    cp->stalled = false;
    cp->epoch++;
    cp->rptr_wb_valid = false;
    cp->cost = 0;
    r500_cp_fetch_invalidate(s);
    /* The fetcher restarts at dword 0 (rs600_asic_reset zeroes both). */
    s->regs[R_CP_RB_RPTR / 4] = 0;
    s->regs[R_CP_RB_WPTR / 4] = 0;
}

static void cp_reset(R500Chip *s)
{
    R500CP *cp = &s->cp;

    memset(cp->me_ram, 0, sizeof(cp->me_ram));
    cp_soft_reset(s);
    memset(&cp->stats, 0, sizeof(cp->stats));
    memset(&cp->draw_stats, 0, sizeof(cp->draw_stats));
}

static void cp_post_load(R500Chip *s)
{
    R500CP *cp = &s->cp;

    cp->epoch++;
    cp->rptr_wb_valid = false;
    r500_cp_fetch_invalidate(s);
    if (cp->ib_active &&
        (cp->ib_size > R500_FMASK(CP_IB_BUFSZ, IB_BUFSZ) ||
         cp->ib_pos > cp->ib_size)) {
        cp->ib_active = false;
        cp_halt(s, "migrated IB state is inconsistent", cp->ib_pos);
    }
    /* A packet has at most 2^14 items; resuming past them ends it. */
    cp->resume = MIN(cp->resume, R500_CP_PKT_MAX);
}

/* ---- Register hooks ---- */

static void cp_kick_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    r500_cp_fetch_invalidate(s);
    s->cp.rptr_wb_valid = false;
    r500_kick(s);
}

static void cp_rb_cntl_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    uint32_t bufsz = R500_FGET(s->regs[reg / 4], CP_RB_CNTL, RB_BUFSZ);

    if (bufsz > R500_CP_RB_BUFSZ_MAX) {
        r500_guest_error(s, "CP: CP_RB_CNTL.RB_BUFSZ %u is larger than the "
                         "model's %u (32 MiB ring); using %u", bufsz,
                         R500_CP_RB_BUFSZ_MAX, R500_CP_RB_BUFSZ_MAX);
    }
    cp_kick_write(s, reg, old, mask);
}

static void cp_rb_rptr_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    s->regs[reg / 4] = old;
    r500_guest_error(s, "CP: CP_RB_RPTR is read-only (use CP_RB_RPTR_WR)");
}

static void cp_rb_rptr_wr_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    if (!R500_FGET(s->regs[R_CP_RB_CNTL / 4], CP_RB_CNTL, RB_RPTR_WR_ENA)) {
        r500_guest_error(s, "CP: CP_RB_RPTR_WR written without "
                         "CP_RB_CNTL.RB_RPTR_WR_ENA; ignored");
        return;
    }
    s->regs[R_CP_RB_RPTR / 4] = R500_FGET(s->regs[reg / 4], CP_RB_RPTR,
                                          RB_RPTR);
    cp_kick_write(s, reg, old, mask);
}

static void cp_rb_wptr_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    uint32_t wptr = s->regs[reg / 4];

    if (wptr > ring_mask(s)) {
        r500_guest_error(s, "CP: CP_RB_WPTR 0x%x is beyond the ring of %u "
                         "dwords; used modulo the ring size", wptr,
                         ring_mask(s) + 1);
    }
    r500_kick(s);
}

static uint32_t cp_csq_cntl_read(R500Chip *s, uint32_t reg)
{
    /* CSQ_CNT_PRIMARY: the PIO queue is always empty. */
    return s->regs[reg / 4] & ~R500_FMASK(CP_CSQ_CNTL, CSQ_CNT_PRIMARY);
}

static void cp_pio_unimp(R500Chip *s)
{
    if (r500_once(&s->cp.logged, R500_CP_LOG_PIO)) {
        r500_unimp(s, "CP: the PIO modes of CP_CSQ_CNTL and the "
                   "CP_CSQ_APER_* FIFO windows are not modelled");
    }
}

static void cp_csq_cntl_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    switch (r500_cp_csq_mode(s)) {
    case CSQ(PRIDIS_INDDIS):
    case CSQ(PRIBM_INDDIS):
    case CSQ(PRIBM_INDBM):
        break;
    case CSQ(PRIPIO_INDDIS):
    case CSQ(PRIPIO_INDBM):
    case CSQ(PRIPIO_INDPIO):
        cp_pio_unimp(s);
        break;
    default:
        r500_guest_error(s, "CP: CP_CSQ_CNTL mode %u is reserved; the CP "
                         "stays stopped", r500_cp_csq_mode(s));
        break;
    }
    cp_kick_write(s, reg, old, mask);
}

static void cp_csq_aper_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    cp_pio_unimp(s);
}

/*
 * Microcode (r100_cp_load_microcode): CP_ME_RAM_ADDR, then DATAH/DATAL
 * pairs; the DATAL write stores the pair and advances the address.
 * Reads: CP_ME_RAM_RADDR, then DATAH/DATAL; the DATAL read advances.
 */
static uint32_t me_index(R500Chip *s, uint32_t reg)
{
    return s->regs[reg / 4] % R500_CP_ME_RAM_ENTRIES;
}

static void cp_me_datah_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    s->cp.me_ram[me_index(s, R_CP_ME_RAM_ADDR) * 2] = s->regs[reg / 4];
}

static void cp_me_datal_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    uint32_t i = me_index(s, R_CP_ME_RAM_ADDR);

    s->cp.me_ram[i * 2 + 1] = s->regs[reg / 4];
    s->regs[R_CP_ME_RAM_ADDR / 4] = (i + 1) % R500_CP_ME_RAM_ENTRIES;
}

static uint32_t cp_me_datah_read(R500Chip *s, uint32_t reg)
{
    return s->cp.me_ram[me_index(s, R_CP_ME_RAM_RADDR) * 2];
}

static uint32_t cp_me_datal_read(R500Chip *s, uint32_t reg)
{
    uint32_t i = me_index(s, R_CP_ME_RAM_RADDR);

    s->regs[R_CP_ME_RAM_RADDR / 4] = (i + 1) % R500_CP_ME_RAM_ENTRIES;
    return s->cp.me_ram[i * 2 + 1];
}

static void cp_ib_bufsz_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    /* The stream's writes launch IBs (pm4_exec.c); an MMIO write only stores. */
    if (!s->cp.stream_write && r500_once(&s->cp.logged, R500_CP_LOG_IB_MMIO)) {
        r500_unimp(s, "CP: CP_IB_BUFSZ written by MMIO stores only; IBs are "
                   "launched from the ring");
    }
}

static void cp_soft_reset_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    uint32_t v = s->regs[reg / 4];

    /* Held in reset while the bit is set; released by writing 0. */
    if (R500_FGET(v, RBBM_SOFT_RESET, CP)) {
        cp_soft_reset(s);
    }
    if (v & (R500_FMASK(RBBM_SOFT_RESET, E2) |
             R500_FMASK(RBBM_SOFT_RESET, RB))) {
        r500_rb2d_soft_reset(s);
    }
    if (R500_FGET(old, RBBM_SOFT_RESET, CP) && !R500_FGET(v, RBBM_SOFT_RESET,
                                                          CP)) {
        r500_kick(s);
    }
}

static void cp_wait_until_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    uint32_t crtc = R500_FMASK(WAIT_UNTIL, WAIT_CRTC_PFLIP) |
                    R500_FMASK(WAIT_UNTIL, WAIT_RE_CRTC_VLINE) |
                    R500_FMASK(WAIT_UNTIL, WAIT_FE_CRTC_VLINE) |
                    R500_FMASK(WAIT_UNTIL, WAIT_CRTC_VLINE) |
                    R500_FMASK(WAIT_UNTIL, WAIT_BOTH_CRTC_PFLIP);

    /*
     * 2D idle waits stop the stream before this write until the 2D engine
     * drained (r500_cp_write_waits()); the 3D pipeline is always idle
     * here.  Display waits (vline, flip) are treated as satisfied
     * (reference 5.11).
     */
    if ((s->regs[reg / 4] & crtc) &&
        r500_once(&s->cp.logged, R500_CP_LOG_WAIT_CRTC)) {
        r500_unimp(s, "CP: WAIT_UNTIL display conditions (0x%08x) do not "
                   "wait", s->regs[reg / 4] & crtc);
    }
}

static const R500RegHook cp_hooks[] = {
    { R_RBBM_SOFT_RESET, R_RBBM_SOFT_RESET, NULL, cp_soft_reset_write },
    { R_CP_RB_BASE, R_CP_RB_BASE, NULL, cp_kick_write },
    { R_CP_RB_CNTL, R_CP_RB_CNTL, NULL, cp_rb_cntl_write },
    { R_CP_RB_RPTR_ADDR, R_CP_RB_RPTR_ADDR, NULL, cp_kick_write },
    { R_CP_RB_RPTR, R_CP_RB_RPTR, NULL, cp_rb_rptr_write },
    { R_CP_RB_WPTR, R_CP_RB_WPTR, NULL, cp_rb_wptr_write },
    { R_CP_RB_RPTR_WR, R_CP_RB_RPTR_WR, NULL, cp_rb_rptr_wr_write },
    { R_CP_IB_BUFSZ, R_CP_IB_BUFSZ, NULL, cp_ib_bufsz_write },
    { R_CP_CSQ_CNTL, R_CP_CSQ_CNTL, cp_csq_cntl_read, cp_csq_cntl_write },
    { R_CP_ME_RAM_DATAH, R_CP_ME_RAM_DATAH, cp_me_datah_read,
      cp_me_datah_write },
    { R_CP_ME_RAM_DATAL, R_CP_ME_RAM_DATAL, cp_me_datal_read,
      cp_me_datal_write },
    { R_WAIT_UNTIL, R_WAIT_UNTIL, NULL, cp_wait_until_write },
    { R_CP_CSQ_APER_PRIMARY,
      R500_REGA_AT(CP_CSQ_APER_INDIRECT, R_CP_CSQ_APER_INDIRECT__COUNT - 1),
      NULL, cp_csq_aper_write },
    { 0 }
};

const R500Block r500_cp_block = {
    .name = "cp",
    .hooks = cp_hooks,
    .reset = cp_reset,
    .run = cp_run,
    .post_load = cp_post_load,
    .busy = cp_busy,
};
