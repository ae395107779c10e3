/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "atom-chip.h"

/* rv515_mc_rreg/wreg: all block selects with the index; bit 23 writes. */
#define RADEON_MC_IND_READ   0x7F0000u
#define RADEON_MC_IND_WRITE  0xFF0000u

/* cail_reg_read/write: MMIO for the register BAR, MM_INDEX beyond it. */
static uint32_t ac_reg_read(void *opaque, uint32_t idx)
{
    AtomChip *c = opaque;
    uint64_t off = (uint64_t)idx * 4;

    if (c->inject_sense &&
        (off == R_DACA_COMPARATOR_OUTPUT || off == R_DACB_COMPARATOR_OUTPUT)) {
        uint32_t d = off == R_DACA_COMPARATOR_OUTPUT ? 0 :
                     R_DACB_ENABLE - R_DACA_ENABLE;
        uint32_t comp = r500_reg_read(c->s, R_DACA_COMPARATOR_ENABLE + d);
        uint32_t force = r500_reg_read(c->s, R_DACA_FORCE_OUTPUT_CNTL + d);
        uint32_t on = R500_FMASK(DACA_COMPARATOR_ENABLE, SENSE) |
                      R500_FMASK(DACA_COMPARATOR_ENABLE, RGB_EN);
        bool sensing = (comp & on) == on &&
            (force & R500_FMASK(DACA_FORCE_OUTPUT_CNTL, FORCE_DATA_EN)) &&
            (r500_reg_read(c->s, R_DACA_ENABLE + d) &
             R500_FMASK(DACA_ENABLE, ENABLE)) &&
            r500_reg_read(c->s, R_DACA_POWERDOWN + d) == 0;

        return sensing && c->monitor[d ? 1 : 0] ?
            R500_FMASK(DACA_COMPARATOR_OUTPUT, RGB) : 0;
    }
    if (off + 4 <= R500_MMIO_SIZE) {
        return r500_mmio_read(c->s, off, 4);
    }
    r500_mmio_write(c->s, R_MM_INDEX, off, 4);
    return r500_mmio_read(c->s, R_MM_DATA, 4);
}

static void ac_reg_write(void *opaque, uint32_t idx, uint32_t val)
{
    AtomChip *c = opaque;
    uint64_t off = (uint64_t)idx * 4;

    if (off + 4 <= R500_MMIO_SIZE) {
        r500_mmio_write(c->s, off, val, 4);
        return;
    }
    r500_mmio_write(c->s, R_MM_INDEX, off, 4);
    r500_mmio_write(c->s, R_MM_DATA, val, 4);
}

/* r100_pll_rreg/wreg: a byte write of the index, then the data port. */
static uint32_t ac_pll_read(void *opaque, uint32_t idx)
{
    AtomChip *c = opaque;

    r500_mmio_write(c->s, R_CLOCK_CNTL_INDEX,
                    R500_FSET(0, CLOCK_CNTL_INDEX, PLL_ADDR, idx), 1);
    return r500_mmio_read(c->s, R_CLOCK_CNTL_DATA, 4);
}

static void ac_pll_write(void *opaque, uint32_t idx, uint32_t val)
{
    AtomChip *c = opaque;
    uint32_t index = R500_FSET(0, CLOCK_CNTL_INDEX, PLL_ADDR, idx) |
                     R500_FMASK(CLOCK_CNTL_INDEX, PLL_WR_EN);

    r500_mmio_write(c->s, R_CLOCK_CNTL_INDEX, index, 1);
    r500_mmio_write(c->s, R_CLOCK_CNTL_DATA, val, 4);
}

static uint32_t ac_mc_read(void *opaque, uint32_t idx)
{
    AtomChip *c = opaque;
    uint32_t v;

    r500_mmio_write(c->s, R_MC_IND_INDEX, RADEON_MC_IND_READ | (idx & 0xFFFF),
                    4);
    v = r500_mmio_read(c->s, R_MC_IND_DATA, 4);
    r500_mmio_write(c->s, R_MC_IND_INDEX, 0, 4);
    return v;
}

static void ac_mc_write(void *opaque, uint32_t idx, uint32_t val)
{
    AtomChip *c = opaque;

    r500_mmio_write(c->s, R_MC_IND_INDEX,
                    RADEON_MC_IND_WRITE | (idx & 0xFFFF), 4);
    r500_mmio_write(c->s, R_MC_IND_DATA, val, 4);
    r500_mmio_write(c->s, R_MC_IND_INDEX, 0, 4);
}

/* The I/O BAR aliases the first 256 bytes of the registers. */
static uint32_t ac_io_read(void *opaque, uint32_t idx)
{
    AtomChip *c = opaque;

    g_assert_cmpuint(idx, <, 0x100 / 4);
    return r500_mmio_read(c->s, idx * 4, 4);
}

static void ac_io_write(void *opaque, uint32_t idx, uint32_t val)
{
    AtomChip *c = opaque;

    g_assert_cmpuint(idx, <, 0x100 / 4);
    r500_mmio_write(c->s, idx * 4, val, 4);
}

/* Delays pass virtual time, so the chip's timers (vblank) can move. */
static void ac_delay(void *opaque, unsigned us)
{
    AtomChip *c = opaque;

    c->h->now += (int64_t)us * 1000;
    test_host_run(c->h);
}

uint8_t *atom_rom_load(R500Model model, size_t *len)
{
    const char *dir = g_getenv("R500_ROMDIR");
    g_autofree char *path = NULL;
    gchar *data;
    gsize n;

    if (!dir) {
        return NULL;
    }
    path = g_strdup_printf("%s/r500-%s.rom", dir, r500_model_info(model)->name);
    /*
     * With R500_ROMDIR set (meson sets it) a missing ROM is a failure, not
     * a skip: a build that stopped making a model's ROM would otherwise
     * drop that model's ROM tests without a word.
     */
    if (!g_file_get_contents(path, &data, &n, NULL)) {
        g_error("R500_ROMDIR is %s but %s cannot be read", dir, path);
    }
    *len = n;
    return (uint8_t *)data;
}

AtomChip *atom_chip_new(R500Model model, unsigned vram_mb)
{
    AtomChip *c = g_new0(AtomChip, 1);
    char *err = NULL;

    c->rom = atom_rom_load(model, &c->rom_len);
    if (!c->rom) {
        g_test_skip("no built ROM: run through meson (R500_ROMDIR)");
        g_free(c);
        return NULL;
    }
    c->h = test_host_new(model, vram_mb);
    c->s = &c->h->chip;
    c->bus = (AtomBus) {
        .reg_read = ac_reg_read, .reg_write = ac_reg_write,
        .pll_read = ac_pll_read, .pll_write = ac_pll_write,
        .mc_read = ac_mc_read, .mc_write = ac_mc_write,
        .io_read = ac_io_read, .io_write = ac_io_write,
        .delay_us = ac_delay, .opaque = c,
    };
    if (!atom_interp_init(&c->atom, c->rom, c->rom_len, &c->bus, &err)) {
        g_error("%s ROM: %s", r500_model_info(model)->name, err);
    }
    return c;
}

void atom_chip_free(AtomChip *c)
{
    if (c) {
        test_host_free(c->h);
        g_free(c->rom);
        g_free(c);
    }
}

void atom_chip_exec(AtomChip *c, unsigned table, void *ps, size_t size)
{
    if (!atom_execute(&c->atom, table, ps, size)) {
        g_error("%s: table 0x%02x: %s", r500_model_info(c->s->model)->name,
                table, c->atom.error);
    }
    /* Every table leaves the register block where radeon expects it. */
    g_assert_cmphex(c->atom.reg_block, ==, 0);
}
