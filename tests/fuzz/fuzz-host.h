/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host of the chip core in the libFuzzer targets (docs/reliability.md):
 * one chip per model over 16 MiB of VRAM and 4 MiB of fake guest RAM at
 * bus address 0, reset between inputs.  VRAM is restored by zeroing the
 * span the engines reported through vram_dirty(), so an input never sees
 * what the previous one left; a write the core did not report is caught by
 * the check that everything outside that span is still zero (a missed
 * dirty notice means a stale display).
 *
 * Besides ASan and UBSan, the host turns two more kinds of misbehaviour
 * into crashes libFuzzer reports: an unreported VRAM write (above), and
 * one r500_run() slice taking longer than FUZZ_SLICE_LIMIT_MS (bounded
 * work: the CP yields after its budget, whatever the stream).
 */
#ifndef R500_FUZZ_HOST_H
#define R500_FUZZ_HOST_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r500.h"
#include "mem-host.h"

#define FUZZ_VRAM_SIZE      (16u << 20)
#define FUZZ_RAM_SIZE       (4u << 20)
/*
 * One slice is budgeted at about 1 ms (R500_CP_SLICE_BUDGET); sanitizers
 * and a busy CI machine cost up to 20x.  Far above that is a bug.
 */
#define FUZZ_SLICE_LIMIT_MS 2000

typedef struct FuzzHost {
    /*
     * One chip per model, made at its first input and reset for each
     * later one (r500_chip_reset leaves it as new: /regs/reset-whole), so
     * a renderer's thread and context are made once per model, not per
     * input; chip is the current input's.
     */
    R500Chip chips[R500_MODEL__COUNT];
    bool made[R500_MODEL__COUNT];
    R500Chip *chip;
    uint8_t *vram;
    /*
     * The shared in-memory host (tools/host/mem-host.h): its ram_lo/hi
     * also cover what the input wrote, dirty_lo/hi what it put in VRAM.
     */
    MemHost host;
    int64_t worst_slice_us;
} FuzzHost;

/* The process's host, created on first use (model may change per input). */
FuzzHost *fuzz_host(void);
/*
 * Start an input: the chip of the given model, new or reset (reset
 * values, VRAM at MC 0), on the renderer R500_RENDERER names (soft when
 * unset), over VRAM and RAM cleaned of what the last input left.
 */
R500Chip *fuzz_begin(FuzzHost *h, R500Model model);
/*
 * End an input: a sync (the renderer's surfaces to VRAM), then abort() if
 * VRAM outside the reported span changed.
 */
void fuzz_end(FuzzHost *h);
/*
 * Add the chip's host-GL renderer draws to the run's, said at its exit
 * ("fuzz: renderer gl: N draws on gl (M with the vertex stage on the
 * host), K on soft"); nothing when the chip draws on soft.
 */
void fuzz_gl_tally(R500Chip *s);
/* Run the chip like the board does, at most max_slices slices. */
void fuzz_run(FuzzHost *h, unsigned max_slices);
/* Copy into fake guest RAM at a bus address (clipped to RAM). */
void fuzz_ram_write(FuzzHost *h, uint64_t addr, const void *buf, size_t len);
/* Copy into VRAM at an offset (clipped), as a BAR0 write would. */
void fuzz_vram_write(FuzzHost *h, uint64_t off, const void *buf, size_t len);

/* ---- Decoding fuzz input ---- */

typedef struct FuzzInput {
    const uint8_t *p;
    size_t left;
} FuzzInput;

static inline bool fuzz_more(const FuzzInput *in)
{
    return in->left > 0;
}

/* Little-endian integers of n bytes; missing bytes read as zero. */
uint64_t fuzz_take(FuzzInput *in, unsigned n);
static inline uint8_t fuzz_u8(FuzzInput *in)
{
    return fuzz_take(in, 1);
}
static inline uint32_t fuzz_u32(FuzzInput *in)
{
    return fuzz_take(in, 4);
}

/* ---- Building a CP environment (pm4 and 2D targets, seeds) ---- */

/*
 * The MC layout the targets share, as the Linux driver sets it up: VRAM
 * at MC 0, a PCIE GART of FUZZ_GTT_PAGES pages at FUZZ_GTT_MC whose table
 * is in VRAM at FUZZ_GART_TABLE, mapping GTT page i to a scattered guest
 * RAM page (fuzz_gtt_bus()).
 */
#define FUZZ_GTT_MC         0x10000000u
#define FUZZ_GTT_PAGES      256u
#define FUZZ_GART_TABLE     0x00080000u     /* VRAM at 512 KiB */

uint64_t fuzz_gtt_bus(uint32_t mc);
/* rv370_pcie_gart_enable with the table in VRAM, or in guest RAM. */
void fuzz_gart_enable(R500Chip *s, bool table_in_ram);
/* r100_cp_init: ring of 2^(bufsz+1) dwords at MC ring_mc, write-back on. */
void fuzz_cp_init(R500Chip *s, uint32_t ring_mc, unsigned bufsz,
                  uint32_t wb_mc);
/* Copy dwords (host order) to an MC address (VRAM or GTT). */
void fuzz_mc_put(FuzzHost *h, uint32_t mc, const uint32_t *dw, size_t n);

#endif
