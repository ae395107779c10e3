/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PM4 packet framing and the register-write packets (reference
 * radeon-kms-r500.md 5.4; the header format is pm4.h).  Type 3 is
 * packet3.c.  Every register write goes through r500_reg_write(), as
 * MMIO does.
 */
#include <glib.h>

#include "../r500.h"
#include "../blocks.h"

uint32_t r500_pm4_packet_dwords(uint32_t header)
{
    switch (R500_PM4_TYPE(header)) {
    case 0:
    case 3:
        return 2 + R500_PM4_COUNT(header);
    case 1:
        return 3;
    default:
        return 1;
    }
}

/*
 * Registers the command stream may not write: the CP's own ring and
 * queue control (the stream would pull the ground from under itself) and
 * the PIO FIFO windows.  CP_IB_BASE/BUFSZ are the exception: writing
 * them is how the ring launches an indirect buffer (r100_ring_ib_execute).
 */
static bool stream_forbidden(uint32_t reg)
{
    return (reg >= R_CP_RB_BASE && reg <= R_CP_RB_RPTR_WR) ||
           reg == R_CP_CSQ_CNTL || reg == R_CP_CSQ_MODE ||
           (reg >= R_CP_ME_CNTL && reg <= R_CP_ME_RAM_DATAL) ||
           (reg >= R_CP_CSQ_ADDR && reg <= R_CP_CSQ2_STAT) ||
           (reg >= R_CP_CSQ_APER_PRIMARY &&
            reg < R500_REGA_AT(CP_CSQ_APER_INDIRECT,
                               R_CP_CSQ_APER_INDIRECT__COUNT));
}

bool r500_cp_stream_write(R500Chip *s, uint32_t reg, uint32_t val,
                          bool in_ib)
{
    if (stream_forbidden(reg)) {
        s->cp.stats.errors++;
        return false;
    }
    if (!r500_reg_is_3d(reg)) {
        /*
         * A fence or scratch value, an interrupt, a 2D trigger, a wait
         * for idle, an IB launch: whatever it signals or starts sees the
         * draws before it in memory.
         */
        r500_pipe_sync(s, R500_SYNC_FENCE);
    }
    s->cp.stream_write = true;
    r500_reg_write(s, reg, val);
    s->cp.stream_write = false;
    if (reg >= R_SCRATCH_REG &&
        reg < R500_REGA_AT(SCRATCH_REG, R_SCRATCH_REG__COUNT)) {
        /* The fence value reaches memory before any later SW_INT_FIRE. */
        r500_cp_scratch_writeback(s, (reg - R_SCRATCH_REG) / 4, val);
    } else if (reg == R_CP_IB_BUFSZ) {
        r500_cp_launch_ib(s, in_ib);
    }
    return true;
}

/* One line per packet, however many of its writes were dropped. */
static void forbidden_log(R500Chip *s, uint32_t hdr, uint32_t reg,
                          uint32_t dropped)
{
    char name[48];

    r500_guest_error(s, "CP: packet 0x%08x wrote CP control registers from "
                     "the command stream (%u writes, first %s); dropped",
                     hdr, dropped, r500_reg_name(reg, name, sizeof(name)));
}

static void pm4_type0(R500Chip *s, const uint32_t *pkt, uint32_t n,
                      bool in_ib)
{
    uint32_t hdr = pkt[0];
    uint32_t reg = R500_PM4_TYPE0_REG(hdr);
    bool one = hdr & R500_PM4_TYPE0_ONE_REG_WR;
    uint32_t epoch = s->cp.epoch;
    uint32_t dropped = 0, first_dropped = 0;

    s->cp.stats.type0++;
    for (uint32_t i = MIN(s->cp.resume, n); i < n; i++) {
        uint32_t r = one ? reg : reg + 4 * i;

        if (r >= R500_MMIO_SIZE) {
            s->cp.stats.errors++;
            r500_guest_error(s, "CP: type-0 packet 0x%08x runs past the "
                             "register file after %u of %u writes; rest "
                             "dropped", hdr, i, n);
            break;
        }
        if (r500_cp_write_waits(s, r, pkt[1 + i]) && r500_cp_stall(s, i)) {
            break;      /* WAIT_UNTIL 2D idle and the like: this write later */
        }
        s->cp.stats.type0_regs++;
        if (!r500_cp_stream_write(s, r, pkt[1 + i], in_ib) && !dropped++) {
            first_dropped = r;
        }
        if (s->cp.epoch != epoch) {
            break;      /* the write reset the CP: the packet is gone */
        }
        if (i + 1 < n && r500_cp_yield(s, i + 1)) {
            break;      /* a burst of 2D triggers: the rest next slice */
        }
    }
    if (dropped) {
        forbidden_log(s, hdr, first_dropped, dropped);
    }
}

void r500_pm4_execute(R500Chip *s, const uint32_t *pkt, uint32_t dwords,
                      bool in_ib)
{
    uint32_t hdr = pkt[0];

    switch (R500_PM4_TYPE(hdr)) {
    case 0:
        pm4_type0(s, pkt, dwords - 1, in_ib);
        break;
    case 1: {
        /* Never emitted by radeon or Mesa; decoded as the R100 docs say. */
        uint32_t epoch = s->cp.epoch;
        uint32_t reg[2] = { R500_PM4_TYPE1_REG0(hdr),
                            R500_PM4_TYPE1_REG1(hdr) };

        s->cp.stats.type1 += !s->cp.resume;
        for (uint32_t i = MIN(s->cp.resume, 2); i < 2; i++) {
            if (s->cp.epoch != epoch ||
                (r500_cp_write_waits(s, reg[i], pkt[1 + i]) &&
                 r500_cp_stall(s, i))) {
                break;
            }
            if (!r500_cp_stream_write(s, reg[i], pkt[1 + i], in_ib)) {
                forbidden_log(s, hdr, reg[i], 1);
            }
        }
        break;
    }
    case 2:
        s->cp.stats.type2++;
        break;
    default:
        r500_cp_packet3(s, pkt, dwords, in_ib);
        break;
    }
}
