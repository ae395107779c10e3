/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test interpreter (atom-interp.h) bound to a chip core the way the
 * Linux radeon driver reaches an R500: REG through MMIO (BAR2), PLL
 * through CLOCK_CNTL_INDEX/DATA, MC through MC_IND_INDEX/DATA, indirect
 * I/O through the I/O BAR.  The ROM is the one the build made for the
 * model (R500_ROMDIR, set by meson).
 */
#ifndef R500_ATOM_CHIP_H
#define R500_ATOM_CHIP_H

#include "atom-interp.h"
#include "test-host.h"

typedef struct AtomChip {
    TestHost *h;
    R500Chip *s;
    AtomBus bus;
    AtomInterp atom;
    uint8_t *rom;
    size_t rom_len;
    /*
     * DAC load detection: when inject_sense is set, reads of
     * DACx_COMPARATOR_OUTPUT report a load on DAC x iff monitor[x] and the
     * table has the DAC driving its test level with the comparators on
     * (the contract of docs/atombios.md).  Otherwise the chip answers.
     */
    bool inject_sense;
    bool monitor[2];
} AtomChip;

/* NULL (and the test skipped) when the ROM was not built. */
AtomChip *atom_chip_new(R500Model model, unsigned vram_mb);
void atom_chip_free(AtomChip *c);
/* Run a table with radeon's parameter structure; the test fails on error. */
void atom_chip_exec(AtomChip *c, unsigned table, void *ps, size_t size);
/* ROM file of a model: g_free the result; NULL when absent. */
uint8_t *atom_rom_load(R500Model model, size_t *len);

#endif
