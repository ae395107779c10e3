/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: ATOM command tables through the test interpreter
 * (tests/unit/atom-interp.h) bound to the chip core as radeon binds it
 * (atom-chip.h).  The model's built ROM is loaded, one command table is
 * perturbed, and it is executed with the input's parameter space: every
 * register, PLL, MC and I/O write a table can make reaches the chip
 * through the one register path, and the interpreter's own bounds checks
 * (ROM reads past the end, WS/PS indices, the instruction budget for
 * loops without end) meet hostile bytecode.
 *
 * Input: byte 0 model, byte 1 table index, 32 bytes of parameter space;
 * the rest is XORed onto the table's code, so an input with nothing more
 * runs the real table and mutations start from real bytecode.
 * Needs R500_ROMDIR (the smoke run sets it).  Built when the test
 * interpreter is in the tree (tests/unit's atom_interp_dep).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atom-chip.h"
#include "fuzz-host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The model's chip and ROM, made at its first input and reused: the
 * test host reset to new (test_host_reuse()), the ROM restored from its
 * file's bytes (an input XORs code into it), the interpreter parsed
 * again (its state new).  Not loaded and allocated per input.
 */
static AtomChip *atom_chip(R500Model model)
{
    static AtomChip *chips[R500_MODEL__COUNT];
    static uint8_t *pristine[R500_MODEL__COUNT];
    AtomChip *c = chips[model];
    char *err = NULL;

    if (!c) {
        c = chips[model] = atom_chip_new(model, 16);
        if (!c) {
            fprintf(stderr, "fuzz-atom: no ROM; set R500_ROMDIR\n");
            abort();
        }
        pristine[model] = g_memdup2(c->rom, c->rom_len);
        return c;
    }
    memcpy(c->rom, pristine[model], c->rom_len);
    test_host_reuse(c->h);
    c->inject_sense = false;
    c->monitor[0] = c->monitor[1] = false;
    if (!atom_interp_init(&c->atom, c->rom, c->rom_len, &c->bus, &err)) {
        fprintf(stderr, "fuzz-atom: ROM: %s\n", err);
        abort();
    }
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in = { data, size };
    R500Model model = fuzz_u8(&in) % R500_MODEL__COUNT;
    unsigned table = fuzz_u8(&in) % ATOM_CMD_COUNT;
    uint32_t ps[8];
    AtomChip *c = atom_chip(model);
    uint32_t off, len;

    for (unsigned i = 0; i < G_N_ELEMENTS(ps); i++) {
        ps[i] = GUINT32_TO_LE(fuzz_u32(&in));
    }
    off = atom_cmd_offset(&c->atom, table);
    if (off && off + 6 <= c->rom_len) {
        /* Command table: u16 size, revisions, WS, PS, then the code. */
        len = MIN(c->rom[off] | c->rom[off + 1] << 8, c->rom_len - off);
        for (uint32_t i = 6; i < len && fuzz_more(&in); i++) {
            c->rom[off + i] ^= fuzz_u8(&in);
        }
    }
    /* Failing is allowed (absent table, budget, bounds): crashing is not. */
    (void)atom_execute(&c->atom, table, ps, sizeof(ps));
    return 0;
}
