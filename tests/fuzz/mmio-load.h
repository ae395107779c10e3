/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "load" records of the fuzz-mmio target (fuzz-mmio.c), shared with
 * the seed generator (seeds.c): field u8 picks, modulo their number, one
 * of the migrated fields of hw/r500/migrate.h (the lists the board's
 * vmstate is built from): the chip's, then those of the selected 2D FIFO
 * entry, CRTC and DDC slave, the display's; then the extra fields of
 * fuzz-mmio.c (the selector, a register, a LUT entry).
 */
#ifndef R500_FUZZ_MMIO_LOAD_H
#define R500_FUZZ_MMIO_LOAD_H

#include <stdlib.h>
#include <string.h>

#include "r500.h"
#include "migrate.h"

#define FUZZ_CHIP_FIELD(kind, f, n) R500_MIG_FIELD(R500Chip, kind, f, n)
#define FUZZ_CMD_FIELD(kind, f, n)  R500_MIG_FIELD(R500Rb2dCmd, kind, f, n)
#define FUZZ_CRTC_FIELD(kind, f, n) R500_MIG_FIELD(R500CrtcState, kind, f, n)
#define FUZZ_I2C_FIELD(kind, f, n)  R500_MIG_FIELD(R500I2CSlave, kind, f, n)
#define FUZZ_DISP_FIELD(kind, f, n) R500_MIG_FIELD(R500DispState, kind, f, n)

static const R500MigField fuzz_chip_fields[] = {
    R500_MIG_CHIP(FUZZ_CHIP_FIELD)
};

static const R500MigField fuzz_cmd_fields[] = {
    R500_MIG_RB2D_CMD(FUZZ_CMD_FIELD)
};

static const R500MigField fuzz_crtc_fields[] = {
    R500_MIG_CRTC(FUZZ_CRTC_FIELD)
};

static const R500MigField fuzz_i2c_fields[] = {
    R500_MIG_I2C(FUZZ_I2C_FIELD)
};

static const R500MigField fuzz_disp_fields[] = {
    R500_MIG_DISP(FUZZ_DISP_FIELD)
};

#define FUZZ_NUM_CHIP_FIELDS \
    (sizeof(fuzz_chip_fields) / sizeof(fuzz_chip_fields[0]))
#define FUZZ_NUM_CMD_FIELDS \
    (sizeof(fuzz_cmd_fields) / sizeof(fuzz_cmd_fields[0]))

/* The load field number of the migrated chip field called name. */
static inline unsigned fuzz_load_chip_field(const char *name)
{
    for (unsigned i = 0; i < FUZZ_NUM_CHIP_FIELDS; i++) {
        if (!strcmp(fuzz_chip_fields[i].name, name)) {
            return i;
        }
    }
    abort();    /* a seed names a field migrate.h does not have */
}

#endif
