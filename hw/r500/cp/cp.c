/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command processor's services to its packets (docs/cp.md): what the
 * PM4 decoder (pm4_exec.c) and the type-3 handlers (packet3.c) ask of the
 * CP: scratch write-back, launching an indirect buffer, stopping a packet
 * half way (yield, suspend, stall) and the writes that wait.  The bottom
 * of cp/: ring.c -> pm4_exec.c -> packet3.c -> cp.c, never back.
 *
 * Reference radeon-kms-r500.md 5.1-5.8.
 */
#include <glib.h>

#include "../r500.h"

/* CP_CSQ_CNTL.CSQ_MODE (r500_regs.def, radeon_reg.h RADEON_CSQ_*). */
#define CSQ(mode)   R500_FVAL(CP_CSQ_CNTL, CSQ_MODE, mode)

uint32_t r500_cp_csq_mode(R500Chip *s)
{
    return R500_FGET(s->regs[R_CP_CSQ_CNTL / 4], CP_CSQ_CNTL, CSQ_MODE);
}

void r500_cp_fetch_invalidate(R500Chip *s)
{
    s->cp.fetch_len = 0;
}

/* ---- Write-back ---- */

void r500_cp_scratch_writeback(R500Chip *s, unsigned n, uint32_t val)
{
    /* SCRATCH_ADDR is 32-byte aligned; REGn lands at +4n (radeon.h). */
    uint32_t addr = (s->regs[R_SCRATCH_ADDR / 4] & ~31u) + 4 * n;
    uint32_t le = GUINT32_TO_LE(val);
    bool wb = s->regs[R_SCRATCH_UMSK / 4] & (1u << n);

    r500_trace(s, R500_TRACE_SCRATCH, n, val, wb ? addr : 0, 0);
    if (!wb) {
        return;
    }
    if (!r500_mem_write(s, addr, &le, 4)) {
        s->cp.stats.errors++;
        r500_guest_error(s, "CP: SCRATCH_REG%u write-back to 0x%08x failed",
                         n, addr);
    }
}

/* ---- Indirect buffers ---- */

void r500_cp_launch_ib(R500Chip *s, bool from_ib)
{
    R500CP *cp = &s->cp;
    uint32_t size = R500_FGET(s->regs[R_CP_IB_BUFSZ / 4], CP_IB_BUFSZ,
                              IB_BUFSZ);
    uint32_t base = s->regs[R_CP_IB_BASE / 4] & ~3u;

    if (from_ib) {
        /* One level, as the hardware: this also ends IB chains and loops. */
        cp->stats.errors++;
        r500_guest_error(s, "CP: an indirect buffer launched another (base "
                         "0x%08x, %u dwords); IBs do not nest, ignored",
                         base, size);
        return;
    }
    if (r500_cp_csq_mode(s) != CSQ(PRIBM_INDBM)) {
        cp->stats.errors++;
        r500_guest_error(s, "CP: IB launch (base 0x%08x) while CP_CSQ_CNTL "
                         "mode %u disables indirect buffers; ignored", base,
                         r500_cp_csq_mode(s));
        return;
    }
    cp->stats.ibs++;
    r500_trace(s, R500_TRACE_CP_IB, base, size, 0, 0);
    if (size == 0) {
        return;
    }
    cp->ib_active = true;
    cp->ib_base = base;
    cp->ib_size = size;
    cp->ib_pos = 0;
    r500_cp_fetch_invalidate(s);
}

/* ---- Stopping a packet half way ---- */

/* A ring packet that launched an IB cannot run again: it stays done. */
static bool cp_can_stop(R500Chip *s)
{
    return s->cp.in_slice && !(s->cp.ib_active && s->cp.ib_pos == 0);
}

bool r500_cp_yield(R500Chip *s, uint32_t done)
{
    R500CP *cp = &s->cp;

    if (!cp_can_stop(s) ||
        (cp->slice_used + cp->cost < R500_CP_SLICE_BUDGET &&
         r500_rb2d_fifo_avail(s))) {
        return false;
    }
    cp->resume = done;
    cp->yielded = true;
    return true;
}

uint64_t r500_cp_budget_left(R500Chip *s)
{
    const R500CP *cp = &s->cp;
    uint64_t used = cp->slice_used + cp->cost;

    if (!cp_can_stop(s)) {
        return 0;
    }
    return used < R500_CP_SLICE_BUDGET ? R500_CP_SLICE_BUDGET - used : 1;
}

void r500_cp_suspend(R500Chip *s, uint32_t done)
{
    if (!cp_can_stop(s)) {
        return;     /* r500_cp_budget_left() gave no limit: unreachable */
    }
    s->cp.resume = done;
    s->cp.yielded = true;
}

bool r500_cp_stall(R500Chip *s, uint32_t done)
{
    R500CP *cp = &s->cp;

    if (!cp_can_stop(s)) {
        return false;
    }
    cp->resume = done;
    cp->yielded = true;
    cp->stalled = true;
    return true;
}

bool r500_cp_write_waits(R500Chip *s, uint32_t reg, uint32_t val)
{
    /*
     * A write that may tell the guest the work is done (a fence, scratch
     * or interrupt: anything but the 3D pipeline's state) waits until
     * what the renderer keeps on the host is held or written back.
     */
    if (!r500_reg_is_3d(reg) &&
        !r500_pipe_sync_ready(s, R500_SYNC_FENCE)) {
        return true;
    }
    if (!r500_rb2d_busy(s)) {
        return false;
    }
    switch (reg) {
    case R_WAIT_UNTIL:
        /* r100_copy_blit and the fences: WAIT_2D_IDLECLEAN. */
        return val & (R500_FMASK(WAIT_UNTIL, WAIT_2D_IDLE) |
                      R500_FMASK(WAIT_UNTIL, WAIT_2D_IDLECLEAN));
    case R_ISYNC_CNTL:
        return R500_FGET(val, ISYNC_CNTL, WAIT_IDLEGUI);
    case R_DSTCACHE_CTLSTAT:
    case R_RB2D_DSTCACHE_CTLSTAT:
        return val & (R500_FMASK(DSTCACHE_CTLSTAT, RB2D_DC_FLUSH) |
                      R500_FMASK(DSTCACHE_CTLSTAT, RB2D_DC_FREE));
    default:
        /* r100_ring_start sets ISYNC_CPSCRATCH_IDLEGUI: fences wait. */
        return reg >= R_SCRATCH_REG &&
               reg < R500_REGA_AT(SCRATCH_REG, R_SCRATCH_REG__COUNT) &&
               R500_FGET(s->regs[R_ISYNC_CNTL / 4], ISYNC_CNTL,
                         CPSCRATCH_IDLEGUI);
    }
}

void r500_cp_op_unimp(R500Chip *s, unsigned opcode, bool known)
{
    s->cp.stats.errors += !known;
    if (!r500_once(&s->cp.op_logged[opcode / 32], 1u << (opcode % 32))) {
        return;
    }
    if (known) {
        r500_unimp(s, "CP: type-3 opcode 0x%02x is not implemented; such "
                   "packets are skipped (reported once)", opcode);
    } else {
        r500_guest_error(s, "CP: unknown type-3 opcode 0x%02x; such packets "
                         "are skipped (reported once)", opcode);
    }
}
