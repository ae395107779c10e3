/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sequences of the Linux radeon driver that the unit tests, the fuzzers
 * and the qtests all replay, each through its own way of writing a
 * register (the chip core directly, or MMIO over qtest): r100_cp_init,
 * rv370_pcie_gart_enable, r300_fence_ring_emit (reference
 * radeon-kms-r500.md 4.4, 5.2, 5.8), the smallest 3D state that draws,
 * and a driver's TCL state over it.  Include the register table
 * (regs/regs.h) first.  Lives here because tests/qtest is the directory
 * QEMU's build sees; tests/unit and tests/fuzz include it too.
 */
#ifndef R500_DRIVER_SEQ_H
#define R500_DRIVER_SEQ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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

/*
 * The smallest 3D state that draws (the unit tests' t3d_setup, the qtests'
 * d3_setup): a linear ARGB8888 colour buffer of wd x ht pixels at MC
 * address cb, window-space vertices of 8 floats (x y z w r g b a) read as
 * two FLOAT_4 streams, a vertex program passing both through, Gouraud
 * colour 0 into temporary 0, a fragment program that outputs it, no
 * depth, no blending.  tests/unit/test-3d.c checks that the program words
 * are what its field encoders build.
 */
static const uint32_t r500_seq_pvs_passthrough[8] = {
    /* o0 = v0 + 0, o1 = v1 + 0 (VE_ADD), instructions 0..1 */
    0x00f00203, 0x00d10001, 0x01248001, 0x01248001,
    0x00f02203, 0x00d10021, 0x01248021, 0x01248021,
};

static const uint32_t r500_seq_us_out[6] = {
    /* ALU + OUT: rgb = t0.rgb * 1 + 0, a = t0.a * 1 + 0 */
    0x00078001, 0x08020000, 0x08020000, 0x00db0220, 0x00c0c000, 0x20490000,
};

/*
 * A US TEX instruction (seeds/US_TEX_INST): LD from unit into temporary
 * dst at temporary src, xyzw swizzles, RGB and alpha written.
 */
static inline void r500_seq_us_tex(unsigned unit, unsigned src,
                                   unsigned dst, uint32_t w[6])
{
    w[0] = 3 | 7u << 11 | 1u << 14;                 /* TEX, RGB + A mask */
    w[1] = unit << 16 | 1u << 22;                   /* TEX_ID, INST LD */
    w[2] = src | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14 |
           dst << 16 | 0u << 24 | 1u << 26 | 2u << 28 | 3u << 30;
    w[3] = w[4] = w[5] = 0;
}

/* A fragment program of n instructions (6 dwords each) at offset 0. */
static inline void r500_seq_us_program(R500SeqWrite *w, void *opaque,
                                       const uint32_t *words, unsigned n)
{
    w(opaque, R_US_CODE_OFFSET, 0);
    w(opaque, R_US_CODE_RANGE, (n - 1) << 16);
    w(opaque, R_US_CODE_ADDR, (n - 1) << 16);
    w(opaque, R_GA_US_VECTOR_INDEX, 0);
    for (unsigned i = 0; i < n * 6; i++) {
        w(opaque, R_GA_US_VECTOR_DATA, words[i]);
    }
}

static inline void r500_seq_3d_minimal(R500SeqWrite *w, void *opaque,
                                       uint32_t cb, unsigned wd, unsigned ht)
{
    /* colour buffer 0: ARGB8888 (format 6), linear */
    w(opaque, R_RB3D_CCTL,
      R500_FMASK(RB3D_CCTL, INDEPENDENT_COLORFORMAT_ENABLE));
    w(opaque, R_RB3D_COLOROFFSET, cb);
    w(opaque, R_RB3D_COLORPITCH, wd | 6u << 21);
    w(opaque, R_RB3D_COLOR_CHANNEL_MASK, 0xF);
    w(opaque, R_RB3D_BLENDCNTL, 0);
    w(opaque, R_RB3D_ROPCNTL, 0);
    /* C4_8, C0 = red, C1 = green, C2 = blue, C3 = alpha; others unused */
    w(opaque, R_US_OUT_FMT, 1u << 8 | 2u << 10 | 3u << 12);
    w(opaque, R500_REGA_AT(US_OUT_FMT, 1), 15);
    w(opaque, R500_REGA_AT(US_OUT_FMT, 2), 15);
    w(opaque, R500_REGA_AT(US_OUT_FMT, 3), 15);
    w(opaque, R_ZB_CNTL, 0);
    w(opaque, R_ZB_BW_CNTL, 0);
    w(opaque, R_FG_ALPHA_FUNC, 0);
    w(opaque, R_SU_DEPTH_SCALE, 0x4B7FFFFFu);       /* 16777215.0f */
    w(opaque, R_SU_CULL_MODE, 0);
    w(opaque, R_RE_SCISSORS_TL, 0);
    w(opaque, R_RE_SCISSORS_BR, (wd - 1) | (ht - 1) << 13);
    w(opaque, R_SC_CLIP_RULE, 0xFFFF);
    /* window-space vertices, no clipping (the blitter's set-up) */
    w(opaque, R_VAP_CLIP_CNTL, R500_FMASK(VAP_CLIP_CNTL, CLIP_DISABLE));
    w(opaque, R_VAP_VTE_CNTL, R500_FMASK(VAP_VTE_CNTL, VTX_XY_FMT) |
      R500_FMASK(VAP_VTE_CNTL, VTX_Z_FMT));
    w(opaque, R_VAP_CNTL, 0);
    w(opaque, R_VAP_CNTL_STATUS, 0);
    /* PSC: FLOAT_4 -> v0, FLOAT_4 -> v1 (last), xyzw, all written */
    w(opaque, R_VAP_PROG_STREAM_CNTL, 3 | (3 | 1u << 8 | 1u << 13) << 16);
    w(opaque, R_VAP_PROG_STREAM_CNTL_EXT, 0xF688u * 0x10001u);
    w(opaque, R_VAP_VTX_SIZE, 8);
    w(opaque, R_VAP_VF_MAX_VTX_INDX, 0xFFFFFF);
    w(opaque, R_VAP_VF_MIN_VTX_INDX, 0);
    w(opaque, R_VAP_PVS_CONST_CNTL, 0);
    w(opaque, R_VAP_PVS_FLOW_CNTL_OPC, 0);
    /* outputs: position, colour 0 */
    w(opaque, R_VAP_OUTPUT_VTX_FMT_0, 3);
    w(opaque, R_VAP_OUTPUT_VTX_FMT_1, 0);
    /* RS: colour 0 (RGBA) -> temp 0, Gouraud, last vertex provokes */
    w(opaque, R_GB_ENABLE, 0);
    w(opaque, R_RS_IP, 0);
    w(opaque, R_RS_COUNT, 1u << 7);
    w(opaque, R_RS_INST_COUNT, 0);
    w(opaque, R_RS_INST, 1u << 16);
    w(opaque, R_GA_COLOR_CONTROL, 0xAAAA | 3u << 16);
    w(opaque, R_GA_POLY_MODE, 0);
    w(opaque, R_TX_ENABLE, 0);
    w(opaque, R_US_CONFIG, 0);
    w(opaque, R_VAP_PVS_VECTOR_INDX_REG, 0);
    for (int i = 0; i < 8; i++) {
        w(opaque, R_VAP_PVS_VECTOR_DATA_REG_128, r500_seq_pvs_passthrough[i]);
    }
    w(opaque, R_VAP_PVS_CODE_CNTL_0, 1u << 20 | 1u << 10);
    r500_seq_us_program(w, opaque, r500_seq_us_out, 1);
}

/*
 * Over r500_seq_3d_minimal: the state of a driver with hardware TCL
 * (Mesa r300's r300_update_viewport and clip state): positions in clip
 * space from the vertex program, the VTE's scales and offsets mapping
 * them over wd x ht pixels (y flipped when flip_y), z over 0..1, w
 * divided (VTX_W0_FMT), clipping on.
 */
static inline void r500_seq_3d_tcl(R500SeqWrite *w, void *opaque,
                                   unsigned wd, unsigned ht, bool flip_y)
{
    const float vp[6] = { wd / 2.0f, wd / 2.0f,
                          flip_y ? ht / -2.0f : ht / 2.0f, ht / 2.0f,
                          0.5f, 0.5f };
    static const uint32_t reg[6] = {
        R_SE_VPORT_XSCALE, R_SE_VPORT_XOFFSET, R_SE_VPORT_YSCALE,
        R_SE_VPORT_YOFFSET, R_SE_VPORT_ZSCALE, R_SE_VPORT_ZOFFSET,
    };

    w(opaque, R_VAP_VTE_CNTL,
      R500_FMASK(VAP_VTE_CNTL, VPORT_X_SCALE_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VPORT_X_OFFSET_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VPORT_Y_SCALE_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VPORT_Y_OFFSET_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VPORT_Z_SCALE_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VPORT_Z_OFFSET_ENA) |
      R500_FMASK(VAP_VTE_CNTL, VTX_W0_FMT));
    w(opaque, R_VAP_CLIP_CNTL, 0);
    for (unsigned i = 0; i < 6; i++) {
        uint32_t bits;

        memcpy(&bits, &vp[i], 4);
        w(opaque, reg[i], bits);
    }
}

#endif
