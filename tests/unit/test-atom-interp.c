/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test interpreter against hand-assembled tables (encodings from
 * ../shared/reference/atombios-rom.md 2.2-2.6): the Linux quirks the ROM
 * scenarios rely on, checked on their own, on a fake bus.
 */
#include <glib.h>
#include <string.h>

#include "atom-interp.h"
#include "r500.h"

#define ROM_SIZE    0x1000
#define HDR         0x100
#define CMD_MASTER  0x200
#define DATA_MASTER 0x300
#define IIO_TABLE   0x380
#define FW_TABLE    0x3C0

/* Dword indices of two registers, for REG operands. */
#define REG_A (R_D1CRTC_CONTROL / 4)
#define REG_B (R_D1CRTC_H_TOTAL / 4)

typedef struct FakeBus {
    uint32_t regs[0x10000];
    uint32_t pll[64], mc[0x200], io[64];
    unsigned reg_reads, reg_writes, io_reads[64];
    uint32_t last_write_idx, last_write_val;
    uint64_t delay;
} FakeBus;

static uint32_t fb_reg_read(void *o, uint32_t i)
{
    FakeBus *b = o;
    b->reg_reads++;
    return b->regs[i & 0xFFFF];
}

static void fb_reg_write(void *o, uint32_t i, uint32_t v)
{
    FakeBus *b = o;
    b->reg_writes++;
    b->last_write_idx = i;
    b->last_write_val = v;
    b->regs[i & 0xFFFF] = v;
}

static uint32_t fb_pll_read(void *o, uint32_t i) { return ((FakeBus *)o)->pll[i & 63]; }
static void fb_pll_write(void *o, uint32_t i, uint32_t v) { ((FakeBus *)o)->pll[i & 63] = v; }
static uint32_t fb_mc_read(void *o, uint32_t i) { return ((FakeBus *)o)->mc[i & 0x1FF]; }
static void fb_mc_write(void *o, uint32_t i, uint32_t v) { ((FakeBus *)o)->mc[i & 0x1FF] = v; }

static uint32_t fb_io_read(void *o, uint32_t i)
{
    FakeBus *b = o;
    b->io_reads[i & 63]++;
    return b->io[i & 63];
}

static void fb_io_write(void *o, uint32_t i, uint32_t v) { ((FakeBus *)o)->io[i & 63] = v; }
static void fb_delay(void *o, unsigned us) { ((FakeBus *)o)->delay += us; }

typedef struct Fixture {
    uint8_t rom[ROM_SIZE];
    uint16_t next;          /* where the next table goes */
    FakeBus bus;
    AtomBus ops;
    AtomInterp atom;
} Fixture;

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void fx_init(Fixture *f)
{
    memset(f, 0, sizeof(*f));
    f->rom[0] = 0x55;
    f->rom[1] = 0xAA;
    memcpy(f->rom + 0x30, " 761295520", 10);
    put16(f->rom + 0x48, HDR);
    memcpy(f->rom + HDR + 4, "ATOM", 4);
    put16(f->rom + HDR + 0x1E, CMD_MASTER);
    put16(f->rom + HDR + 0x20, DATA_MASTER);
    put16(f->rom + DATA_MASTER + 4 + 2 * ATOM_DATA_IIO, IIO_TABLE);
    put16(f->rom + DATA_MASTER + 4 + 2 * ATOM_DATA_FIRMWARE_INFO, FW_TABLE);
    f->rom[IIO_TABLE + 4] = 0;              /* no IIO programs */
    put16(f->rom + FW_TABLE, 16);
    f->rom[FW_TABLE + 8] = 0x78;            /* a dword to read via ID */
    f->rom[FW_TABLE + 11] = 0x12;
    f->next = 0x400;
    f->ops = (AtomBus) {
        .reg_read = fb_reg_read, .reg_write = fb_reg_write,
        .pll_read = fb_pll_read, .pll_write = fb_pll_write,
        .mc_read = fb_mc_read, .mc_write = fb_mc_write,
        .io_read = fb_io_read, .io_write = fb_io_write,
        .delay_us = fb_delay, .opaque = &f->bus,
    };
}

/* A command table: header (frev 1, crev 1, ws, ps bytes) and code. */
static void fx_table(Fixture *f, unsigned index, uint8_t ws, uint8_t ps,
                     const uint8_t *code, size_t n)
{
    uint8_t *t = f->rom + f->next;

    g_assert_cmpuint(f->next + 6 + n, <=, ROM_SIZE);
    put16(t, 6 + n);
    t[2] = t[3] = 1;
    t[4] = ws;
    t[5] = ps;
    memcpy(t + 6, code, n);
    put16(f->rom + CMD_MASTER + 4 + 2 * index, f->next);
    f->next += (6 + n + 15) & ~15;
}

static void fx_start(Fixture *f)
{
    char *err = NULL;

    if (!atom_interp_init(&f->atom, f->rom, ROM_SIZE, &f->ops, &err)) {
        g_error("init: %s", err);
    }
}

#define LO(x) ((x) & 0xFF)
#define HI(x) (((x) >> 8) & 0xFF)

static void test_field_rmw(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    /* MOVE REG[A].[15:8] <- 0x12: attr IMM | byte0 source | d=1. */
    const uint8_t code[] = {
        0x01, 0x65, LO(REG_A), HI(REG_A), 0x12,
        /* MOVE REG[B] <- 0x11223344: a dword move writes blind. */
        0x01, 0x05, LO(REG_B), HI(REG_B), 0x44, 0x33, 0x22, 0x11,
        0x5B,
    };

    fx_init(f);
    fx_table(f, 0, 0, 0, code, sizeof(code));
    fx_start(f);
    f->bus.regs[REG_A] = 0xAABBCCDD;
    g_assert_true(atom_execute(&f->atom, 0, NULL, 0));
    g_assert_cmphex(f->bus.regs[REG_A], ==, 0xAABB12DD);
    g_assert_cmphex(f->bus.regs[REG_B], ==, 0x11223344);
    g_assert_cmpuint(f->bus.reg_reads, ==, 1);
    g_assert_cmpuint(f->bus.reg_writes, ==, 2);
}

static void test_mm_index_shift(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    /* MOVE REG[MM_INDEX] <- 0x1234: Linux writes the value << 2. */
    const uint8_t code[] = {
        0x01, 0x05, LO(R_MM_INDEX / 4), HI(R_MM_INDEX / 4), 0x34, 0x12, 0, 0,
        0x5B,
    };

    fx_init(f);
    fx_table(f, 0, 0, 0, code, sizeof(code));
    fx_start(f);
    g_assert_true(atom_execute(&f->atom, 0, NULL, 0));
    g_assert_cmphex(f->bus.last_write_idx, ==, R_MM_INDEX / 4);
    g_assert_cmphex(f->bus.last_write_val, ==, 0x1234 << 2);
}

/* Register block and data block are shared with nested calls; the
 * callee's parameters start after the caller's declared PS. */
static void test_nested_call(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    const uint8_t caller[] = {
        0x3A, 0x00, 0x02,                       /* SET_REG_BLOCK 0x200 */
        0x02, 0x05, 0x02, 7, 0, 0, 0,           /* MOVE PS[2] <- 7 */
        0x52, 0x01,                             /* CALL_TABLE 1 */
        0x01, 0x05, LO(REG_A), HI(REG_A), 1, 0, 0, 0,   /* REG[A + block] */
        0x5B,
    };
    const uint8_t callee[] = {
        0x02, 0x01, 0x01, 0x00,                 /* MOVE PS[1] <- PS[0] */
        0x03, 0x05, 0x48, 0x80, 0, 0, 0,        /* WS[regptr] <- 0x80 */
        0x5B,
    };
    uint32_t ps[4] = { 0 };

    fx_init(f);
    fx_table(f, 0, 0, 8, caller, sizeof(caller));
    fx_table(f, 1, 0, 4, callee, sizeof(callee));
    fx_start(f);
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    /* The callee's PS[0] is the caller's PS[2]: it copied 7 to PS[3]. */
    g_assert_cmpuint(GUINT32_FROM_LE(ps[3]), ==, 7);
    /* The callee changed the block for the caller. */
    g_assert_cmpuint(f->bus.regs[REG_A + 0x80], ==, 1);
    g_assert_cmpuint(f->bus.regs[REG_A + 0x200], ==, 0);
    g_assert_cmpuint(f->atom.stats.calls, ==, 2);
    /* A new top-level call starts at block 0 again. */
    g_assert_true(atom_execute(&f->atom, 1, ps, sizeof(ps)));
    g_assert_cmphex(f->atom.reg_block, ==, 0x80);
}

static void test_switch_jumps(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    /* SWITCH PS[0].[7:0]: 1 -> 0x1C, 2 -> 0x23; else PS[1] <- 0xAA.
     * 0x1C: PS[1] <- 0x11.  0x23: COMPARE PS[0].[15:8], 5; JUMP_ABOVE. */
    const uint8_t code[] = {
        /* 06 */ 0x42, 0x21, 0x00, 0x63, 1, 0x1C, 0, 0x63, 2, 0x23, 0,
                 0x5A, 0x5A,
        /* 13 */ 0x02, 0x05, 0x01, 0xAA, 0, 0, 0,
        /* 1a */ 0x5B, 0x5A,
        /* 1c */ 0x02, 0x05, 0x01, 0x11, 0, 0, 0,
        /* 23 */ 0x3D, 0x65, 0x00, 5,
        /* 27 */ 0x46, 0x2B, 0x00,
        /* 2a */ 0x5B,
        /* 2b */ 0x0E, 0x05, 0x01, 0x00, 0x01, 0, 0,    /* OR PS[1], 0x100 */
        /* 32 */ 0x5B,
    };
    uint32_t ps[2];

    fx_init(f);
    fx_table(f, 0, 0, 0, code, sizeof(code));
    fx_start(f);
    ps[0] = GUINT32_TO_LE(1);
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, 0x11);
    ps[0] = GUINT32_TO_LE(3);
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, 0xAA);
    ps[0] = GUINT32_TO_LE(0x0602);      /* case 2, byte 1 = 6 > 5 */
    ps[1] = 0;
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, 0x100);
    ps[0] = GUINT32_TO_LE(0x0502);      /* equal: not above */
    ps[1] = 0;
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, 0);
}

/* WS, MASK, TEST, CLEAR, SHIFT on fields; MUL/DIV results. */
static void test_alu(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    const uint8_t code[] = {
        0x03, 0x05, 0x00, 0x78, 0x56, 0x34, 0x12,  /* WS[0] <- 0x12345678 */
        0x15, 0x08, 0x00, 4,                /* SHIFT_LEFT WS[0].[15:0], 4 */
        0x56, 0x38, 0x00,                   /* CLEAR WS[0].[31:24] */
        0x5E, 0x62, 0x00, 0x0F, 0x00,       /* MASK WS[0].[15:8], 0x0F, WS[0].[7:0] */
        0x02, 0x02, 0x00, 0x00,             /* PS[0] <- WS[0] */
        0x21, 0x05, 0x00, 3, 0, 0, 0,       /* MUL WS[0], 3 */
        0x02, 0x02, 0x01, 0x40,             /* PS[1] <- WS[quotient] */
        0x27, 0x05, 0x00, 0x10, 0, 0, 0,    /* DIV WS[0], 16 */
        0x02, 0x02, 0x02, 0x41,             /* PS[2] <- WS[remainder] */
        0x4C, 0x05, 0x00, 0x80, 0, 0, 0,    /* TEST WS[0], 0x80 */
        0x44, 0x3E, 0x00,                   /* JUMP_EQUAL (bit clear) */
        0x5B,
        /* 3e */ 0x02, 0x05, 0x03, 1, 0, 0, 0, 0x5B,
    };
    uint32_t ps[4] = { 0 };
    uint32_t w;

    fx_init(f);
    fx_table(f, 0, 4, 0, code, sizeof(code));
    fx_start(f);
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    /* 0x12345678 -> [15:0] << 4 = 0x12346780 -> [31:24] = 0 -> 0x00346780
     * -> [15:8] = (0x67 & 0x0F) | 0x80 = 0x87 -> 0x00348780. */
    w = 0x00348780;
    g_assert_cmphex(GUINT32_FROM_LE(ps[0]), ==, w);
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, w * 3);
    g_assert_cmphex(GUINT32_FROM_LE(ps[2]), ==, w % 16);
    g_assert_cmphex(GUINT32_FROM_LE(ps[3]), ==, 0);     /* bit 7 was set */
}

/* Indirect I/O: program 1 reads, 0x81 writes (SET_ATI_PORT 1). */
static void test_iio(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    const uint8_t iio[] = {
        0x01, 0x01,                 /* read program 1 */
        0x02, 0x05, 0x00,           /* READ io[5] */
        0x06, 8, 0, 8,              /* MOVE_INDEX [7:0] -> [15:8] */
        0x09, 0, 0,                 /* END */
        0x01, 0x81,                 /* write program 0x81 */
        0x04, 32, 0,                /* CLEAR all */
        0x08, 16, 0, 0,             /* MOVE_DATA [15:0] -> [15:0] */
        0x06, 8, 0, 16,             /* MOVE_INDEX [7:0] -> [23:16] */
        0x03, 0x06, 0x00,           /* WRITE io[6] */
        0x09, 0, 0,
        0x00,                       /* no more programs */
    };
    const uint8_t code[] = {
        0x37, 0x01, 0x00,                   /* SET_ATI_PORT 1 */
        0x03, 0x00, 0x00, 0x12, 0x00,       /* WS[0] <- REG[0x12] */
        0x01, 0x05, 0x34, 0x00, 0xEF, 0xBE, 0, 0,   /* REG[0x34] <- 0xBEEF */
        0x37, 0x00, 0x00,                   /* SET_ATI_PORT 0 */
        0x02, 0x02, 0x00, 0x00,             /* PS[0] <- WS[0] */
        0x5B,
    };
    uint32_t ps[1];

    fx_init(f);
    memcpy(f->rom + IIO_TABLE + 4, iio, sizeof(iio));
    fx_table(f, 0, 4, 0, code, sizeof(code));
    fx_start(f);
    f->bus.io[5] = 0xA5A5A5A5;
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[0]), ==, 0xA5A512A5);
    g_assert_cmphex(f->bus.io[6], ==, 0x0034BEEF);
    g_assert_cmpuint(f->bus.io_reads[6], ==, 1);    /* dummy read first */
    g_assert_cmpuint(f->bus.reg_reads + f->bus.reg_writes, ==, 0);
}

/* PLL, MC, ID (data block) and FB operands; FB persists across calls. */
static void test_spaces(void)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    const uint8_t code[] = {
        0x05, 0x05, 0x0D, 0x01, 0x02, 0, 0,     /* PLL[0x0D] <- 0x201 */
        0x06, 0x06, 0x05, 0x0D,                 /* MC[5] <- PLL[0x0D] */
        0x66, ATOM_DATA_FIRMWARE_INFO,          /* SET_DATA_BLOCK 4 */
        0x02, 0x04, 0x00, 0x08, 0x00,           /* PS[0] <- ID[8] */
        0x04, 0x01, 0x04, 0x00,                 /* FB[4] <- PS[0] */
        0x5B,
    };
    const uint8_t reader[] = {
        0x02, 0x03, 0x01, 0x04,                 /* PS[1] <- FB[4] */
        0x5B,
    };
    uint32_t ps[2] = { 0 };

    fx_init(f);
    fx_table(f, 0, 0, 0, code, sizeof(code));
    fx_table(f, 1, 0, 0, reader, sizeof(reader));
    fx_start(f);
    g_assert_true(atom_execute(&f->atom, 0, ps, sizeof(ps)));
    g_assert_cmphex(f->bus.pll[0x0D], ==, 0x201);
    g_assert_cmphex(f->bus.mc[5], ==, 0x201);
    g_assert_cmphex(GUINT32_FROM_LE(ps[0]), ==, 0x12000078);
    g_assert_true(atom_execute(&f->atom, 1, ps, sizeof(ps)));
    g_assert_cmphex(GUINT32_FROM_LE(ps[1]), ==, 0x12000078);
}

/* What the tests refuse: each must fail with a clear error. */
static void expect_error(const uint8_t *code, size_t n, uint8_t ws,
                         size_t ps_size, const char *needle)
{
    g_autofree Fixture *f = g_new(Fixture, 1);
    uint32_t ps[4] = { 0 };

    fx_init(f);
    fx_table(f, 0, ws, 0, code, n);
    fx_start(f);
    g_assert_false(atom_execute(&f->atom, 0, ps, ps_size));
    if (!strstr(f->atom.error, needle)) {
        g_error("error '%s' lacks '%s'", f->atom.error, needle);
    }
}

static void test_errors(void)
{
    const uint8_t loop[] = { 0x43, 0x06, 0x00 };        /* JUMP to itself */
    const uint8_t ps_oob[] = { 0x02, 0x05, 0x02, 1, 0, 0, 0, 0x5B };
    const uint8_t ws_oob[] = { 0x03, 0x05, 0x01, 1, 0, 0, 0, 0x5B };
    const uint8_t repeat[] = { 0x53, 0x5B };
    const uint8_t no_eot[] = { 0x5A };
    const uint8_t past_end[] = { 0x01, 0x05, 0x00 };

    expect_error(loop, sizeof(loop), 0, 0, "budget");
    expect_error(ps_oob, sizeof(ps_oob), 0, 8, "PS[2]");
    expect_error(ws_oob, sizeof(ws_oob), 4, 0, "WS[1]");
    expect_error(repeat, sizeof(repeat), 0, 0, "opcode 0x53");
    expect_error(no_eot, sizeof(no_eot), 0, 0, "without EOT");
    expect_error(past_end, sizeof(past_end), 0, 0, "past the table end");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/atom-interp/field-rmw", test_field_rmw);
    g_test_add_func("/atom-interp/mm-index-shift", test_mm_index_shift);
    g_test_add_func("/atom-interp/nested-call", test_nested_call);
    g_test_add_func("/atom-interp/switch-jumps", test_switch_jumps);
    g_test_add_func("/atom-interp/alu", test_alu);
    g_test_add_func("/atom-interp/iio", test_iio);
    g_test_add_func("/atom-interp/spaces", test_spaces);
    g_test_add_func("/atom-interp/errors", test_errors);
    return g_test_run();
}
