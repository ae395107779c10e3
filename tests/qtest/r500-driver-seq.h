/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sequences of the Linux radeon driver that the unit tests, the fuzzers
 * and the qtests all replay, each through its own way of writing a
 * register (the chip core directly, or MMIO over qtest): r100_cp_init,
 * rv370_pcie_gart_enable, r300_fence_ring_emit (reference
 * radeon-kms-r500.md 4.4, 5.2, 5.8).  Include the register table
 * (regs/regs.h) first.  Lives here because tests/qtest is the directory
 * QEMU's build sees; tests/unit and tests/fuzz include it too.
 */
#ifndef R500_DRIVER_SEQ_H
#define R500_DRIVER_SEQ_H

#include <stdint.h>

typedef void R500SeqWrite(void *opaque, uint32_t reg, uint32_t val);

#ifdef HW_R500_R500_H
/* Writers for the chip core itself (opaque: the R500Chip). */
static inline void r500_seq_chip_w(void *opaque, uint32_t reg, uint32_t val)
{
    r500_reg_write(opaque, reg, val);
}

static inline void r500_seq_chip_wpcie(void *opaque, uint32_t index,
                                       uint32_t val)
{
    r500_pcie_write(opaque, index, val);
}
#endif

/*
 * r100_cp_init after the microcode: a ring of 2^(bufsz+1) dwords at MC
 * ring_mc, the read pointer written back to wb_mc + 1024 and the scratch
 * registers to wb_mc, bus-master mode with indirect buffers.
 */
static inline void r500_seq_cp_init(R500SeqWrite *w, void *opaque,
                                    uint32_t ring_mc, unsigned bufsz,
                                    uint32_t wb_mc)
{
    /* RB_BUFSZ, RB_BLKSZ 9, MAX_FETCH 2; RB_NO_UPDATE while setting up. */
    uint32_t cntl = bufsz | (9u << 8) | (1u << 18);

    w(opaque, R_CP_RB_WPTR_DELAY, 64);
    w(opaque, R_CP_RB_CNTL, cntl | (1u << 27));
    w(opaque, R_CP_RB_BASE, ring_mc);
    w(opaque, R_CP_RB_CNTL, cntl | (1u << 31) | (1u << 27));
    w(opaque, R_CP_RB_RPTR_WR, 0);
    w(opaque, R_CP_RB_WPTR, 0);
    w(opaque, R_CP_RB_RPTR_ADDR, wb_mc + 1024);
    w(opaque, R_SCRATCH_ADDR, wb_mc);
    w(opaque, R_SCRATCH_UMSK, 0xFF);
    w(opaque, R_CP_RB_CNTL, cntl);
    w(opaque, R_CP_CSQ_MODE, 0x1050);
    w(opaque, R_CP_RB_WPTR_DELAY, 0);
    w(opaque, R_CP_CSQ_MODE, 0x4D4D);
    w(opaque, R_CP_CSQ_CNTL, 4u << 28);         /* CSQ_PRIBM_INDBM */
}

/*
 * rv370_pcie_gart_enable, PCIE indirect space: a GART of pages pages at
 * MC start whose table is at MC (or bus) address table; unmapped
 * accesses discarded.  The caller writes the table entries first.
 */
static inline void r500_seq_gart_enable(R500SeqWrite *wpcie, void *opaque,
                                        uint32_t start, uint32_t pages,
                                        uint32_t table)
{
    wpcie(opaque, PCIE_PCIE_TX_GART_CNTL, 6);
    wpcie(opaque, PCIE_PCIE_TX_GART_START_LO, start);
    wpcie(opaque, PCIE_PCIE_TX_GART_END_LO, start + (pages - 1) * 4096);
    wpcie(opaque, PCIE_PCIE_TX_GART_START_HI, 0);
    wpcie(opaque, PCIE_PCIE_TX_GART_END_HI, 0);
    wpcie(opaque, PCIE_PCIE_TX_GART_BASE, table);
    wpcie(opaque, PCIE_PCIE_TX_DISCARD_RD_ADDR_LO, 0);
    wpcie(opaque, PCIE_PCIE_TX_DISCARD_RD_ADDR_HI, 0);
    wpcie(opaque, PCIE_PCIE_TX_GART_ERROR, 0);
    wpcie(opaque, PCIE_PCIE_TX_GART_CNTL, 7);
}

/* r300_fence_ring_emit for fence seq: the dwords, into dw[18]. */
#define R500_SEQ_FENCE_DWORDS 18
static inline void r500_seq_fence(uint32_t *dw, uint32_t seq)
{
    static const uint32_t regs[] = {
        R_RE_SCISSORS_TL, R_RE_SCISSORS_BR, R_RB3D_DSTCACHE_CTLSTAT,
        R_ZB_ZCACHE_CTLSTAT, R_WAIT_UNTIL, R_HOST_PATH_CNTL,
        R_HOST_PATH_CNTL, R_SCRATCH_REG, R_GEN_INT_STATUS,
    };
    const uint32_t vals[] = {
        0, 0, 2, 1, 0x30200, 1u << 27, 0, seq,
        R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE),
    };

    for (unsigned i = 0; i < 9; i++) {
        dw[2 * i] = regs[i] >> 2;               /* type-0, one register */
        dw[2 * i + 1] = vals[i];
    }
}

#endif
