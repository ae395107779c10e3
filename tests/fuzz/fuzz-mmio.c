/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: sequences of register-BAR accesses of every size (1-8)
 * and alignment, with the indirect ports (MM_INDEX/MM_DATA, PLL, MC,
 * PCIE) reached as the driver reaches them, interleaved with guest RAM and
 * VRAM writes, chip runs (so a kicked CP executes what the input put in
 * RAM), clock steps, resets, and "migrations" that load arbitrary values
 * into the migrated state before post_load (r500_pci.c's vmstate: the
 * stream is validated, never trusted).
 *
 * Input: records, each an op byte then its operands (little endian):
 *   op & 7 = 0  write: size 1 + (op >> 3 & 7), addr u16, value (size bytes)
 *            1  read:  size as above, addr u16
 *            2  run:   1 + (op >> 3 & 7) slices
 *            3  clock: advance virtual time by u16 microseconds
 *            4  RAM:   bus offset u16 * 64, length u8, bytes
 *            5  VRAM:  offset u24, length u8, bytes (a BAR0 write)
 *            6  reset: r500_chip_reset()
 *            7  load:  field u8, value u32, then post_load
 *   op & 0x40 on a read or write: addr indexes the registers the table
 *   names (the .def tables) instead of being an offset, so the known registers
 *   are found without luck.
 * The first byte picks the model.
 */
#include "fuzz-host.h"
#include "mmio-load.h"

static uint32_t known[R500_NUM_REGS];
static unsigned num_known;
/* The 2D FIFO entry, CRTC and DDC slave load_field() changes. */
static unsigned sel;

static void init_known(void)
{
    if (num_known) {
        return;
    }
    for (uint32_t r = 0; r < R500_MMIO_SIZE; r += 4) {
        if (r500_reg_known(r)) {
            known[num_known++] = r;
        }
    }
}

/* A migrated field of kind m->kind at base + m->offset, set from v. */
static void mig_set(void *base, const R500MigField *m, uint32_t v)
{
    uint8_t *p = (uint8_t *)base + m->offset;
    uint64_t wide = (uint64_t)v << (v & 31);

    switch (m->kind) {
    case R500_MIG_BOOL:
        *(bool *)p = v & 1;
        break;
    case R500_MIG_UINT8:
        *p = v;
        break;
    case R500_MIG_UINT32:
    case R500_MIG_INT32:
        memcpy(p, &v, 4);
        break;
    case R500_MIG_UINT64:
    case R500_MIG_INT64:
        memcpy(p, &wide, 8);
        break;
    case R500_MIG_UINT32_ARRAY:
        memcpy(p + 4 * (v % m->count), &v, 4);
        break;
    }
}

/* Set field i of list (n entries) if i is in it; else i -= n. */
static bool mig_pick(void *base, const R500MigField *list, unsigned n,
                     unsigned *i, uint32_t v)
{
    if (*i < n) {
        mig_set(base, &list[*i], v);
        return true;
    }
    *i -= n;
    return false;
}

/*
 * A migrated field set to a value from the stream (mmio-load.h): the
 * fields of hw/r500/migrate.h's lists, which the board's vmstate is
 * built from (the selected FIFO entry, CRTC and DDC slave), then what
 * the lists leave to explicit code: the selector, a register, a LUT
 * entry.
 */
static void load_field(R500Chip *s, unsigned field, uint32_t v)
{
    R500DispState *ds = &s->disp.st;
    unsigned i = field % (FUZZ_NUM_CHIP_FIELDS + FUZZ_NUM_CMD_FIELDS +
                          G_N_ELEMENTS(fuzz_crtc_fields) +
                          G_N_ELEMENTS(fuzz_i2c_fields) +
                          G_N_ELEMENTS(fuzz_disp_fields) + 3);

    if (mig_pick(s, fuzz_chip_fields, FUZZ_NUM_CHIP_FIELDS, &i, v) ||
        mig_pick(&s->rb2d.fifo[sel % R500_RB2D_FIFO_SIZE], fuzz_cmd_fields,
                 FUZZ_NUM_CMD_FIELDS, &i, v) ||
        mig_pick(&ds->crtc[sel % R500_NUM_CRTC], fuzz_crtc_fields,
                 G_N_ELEMENTS(fuzz_crtc_fields), &i, v) ||
        mig_pick(&ds->ddc[sel % R500_NUM_DDC], fuzz_i2c_fields,
                 G_N_ELEMENTS(fuzz_i2c_fields), &i, v) ||
        mig_pick(ds, fuzz_disp_fields, G_N_ELEMENTS(fuzz_disp_fields), &i,
                 v)) {
        return;
    }
    switch (i) {
    case 0: sel = v; break;
    case 1: s->regs[(v >> 16) % R500_NUM_REGS] = v; break;
    case 2: ds->lut[v & 1][(v >> 1) & 0xFF] = v; break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    R500Chip *s;

    init_known();
    sel = 0;
    s = fuzz_begin(h, fuzz_u8(&in));
    while (fuzz_more(&in)) {
        uint8_t op = fuzz_u8(&in);
        unsigned n = 1 + ((op >> 3) & 7);
        uint32_t addr;

        switch (op & 7) {
        case 0:
        case 1:
            addr = fuzz_take(&in, 2);
            if (op & 0x40) {
                addr = known[addr % num_known];
            }
            if (op & 1) {
                (void)r500_mmio_read(s, addr, n);
            } else {
                r500_mmio_write(s, addr, fuzz_take(&in, n), n);
            }
            break;
        case 2:
            fuzz_run(h, n);
            break;
        case 3:
            h->host.now += fuzz_take(&in, 2) * 1000;
            break;
        case 4:
        case 5: {
            uint64_t off = op & 1 ? fuzz_take(&in, 3) : fuzz_take(&in, 2) * 64;
            size_t len = fuzz_u8(&in);

            len = MIN(len, in.left);

            if (op & 1) {
                fuzz_vram_write(h, off, in.p, len);
            } else {
                fuzz_ram_write(h, off, in.p, len);
            }
            in.p += len;
            in.left -= len;
            break;
        }
        case 6:
            r500_chip_reset(s);
            break;
        case 7: {
            unsigned field = fuzz_u8(&in);

            load_field(s, field, fuzz_u32(&in));
            r500_chip_post_load(s);
            break;
        }
        }
    }
    /* Whatever the input started finishes (or yields) here. */
    fuzz_run(h, 4);
    fuzz_end(h);
    return 0;
}
