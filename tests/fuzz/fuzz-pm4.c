/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: PM4 streams, interpreted by the real CP.  The card is
 * brought up as the Linux driver does it (GART table, r100_cp_init), the
 * input becomes the ring and an indirect-buffer area, the write pointer
 * is published, and the chip runs.  Packets reach every handler: type-0
 * bursts into any register (the 2D engine, the indirect ports, the GART
 * registers, the CP's own), type-3 2D and draw packets, IB launches and
 * chains, write-backs and fences.
 *
 * Input (pm4-format.h): a 4-byte header, then dwords.
 *   byte 0  model (bits 1:0); bit 2: ring in VRAM, else in the GTT;
 *           bit 3: GART table in guest RAM, else in VRAM;
 *           bit 4: enable the SW_INT and GUI_IDLE interrupts;
 *           bit 5: after the run, soft-reset the CP and run the ring again
 *   byte 1  RB_BUFSZ = 4 + byte % 11 (a ring of 32 .. 32768 dwords)
 *   bytes 2-3  ring length in dwords (clipped to the ring size - 1)
 *   then the ring's dwords, then the IB area's (copied to the GTT at
 *   PM4_IB_GTT and to VRAM at PM4_IB_VRAM, so streams may launch IBs
 *   from either).
 * Captured ring traffic converts by prefixing the header
 * (tests/fuzz/seeds.c, --pm4-capture).
 */
#include "fuzz-host.h"
#include "pm4-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    uint8_t flags = fuzz_u8(&in);
    unsigned bufsz = 4 + fuzz_u8(&in) % 11;
    uint32_t ring_dwords = 2u << bufsz;
    uint32_t ring_len = fuzz_take(&in, 2);
    uint32_t ring_mc = flags & PM4_RING_VRAM ? PM4_RING_VRAM_MC : PM4_RING_GTT;
    R500Chip *s = fuzz_begin(h, flags & 3);
    uint32_t dw[1024];
    uint32_t i, n, ib = 0;

    ring_len = MIN(ring_len, ring_dwords - 1);
    fuzz_gart_enable(s, flags & PM4_TABLE_RAM);
    fuzz_cp_init(s, ring_mc, bufsz, PM4_WB_GTT);
    if (flags & PM4_IRQS) {
        r500_reg_write(s, R_GEN_INT_CNTL, R500_FMASK(GEN_INT_STATUS, SW_INT) |
                       R500_FMASK(GEN_INT_STATUS, GUI_IDLE));
    }
    for (i = 0; i < ring_len; i += n) {
        n = MIN(ring_len - i, G_N_ELEMENTS(dw));
        for (uint32_t k = 0; k < n; k++) {
            dw[k] = fuzz_u32(&in);
        }
        fuzz_mc_put(h, ring_mc + 4 * i, dw, n);
    }
    while (fuzz_more(&in) && ib < PM4_IB_DWORDS) {
        n = MIN(MIN(in.left / 4 + 1, G_N_ELEMENTS(dw)), PM4_IB_DWORDS - ib);
        for (uint32_t k = 0; k < n; k++) {
            dw[k] = fuzz_u32(&in);
        }
        fuzz_mc_put(h, PM4_IB_GTT + 4 * ib, dw, n);
        fuzz_mc_put(h, PM4_IB_VRAM + 4 * ib, dw, n);
        ib += n;
    }

    r500_reg_write(s, R_CP_RB_WPTR, ring_len);
    fuzz_run(h, 4);
    if (flags & PM4_RERUN) {
        /* rs600_asic_reset's CP part, then the same ring from the top. */
        r500_reg_write(s, R_RBBM_SOFT_RESET, R500_FMASK(RBBM_SOFT_RESET, CP));
        r500_reg_write(s, R_RBBM_SOFT_RESET, 0);
        fuzz_cp_init(s, ring_mc, bufsz, PM4_WB_GTT);
        r500_reg_write(s, R_CP_RB_WPTR, ring_len);
        fuzz_run(h, 4);
    }
    fuzz_end(h);
    return 0;
}
