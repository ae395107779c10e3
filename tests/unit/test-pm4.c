/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PM4 format of hw/r500/cp/pm4.h and its opcode table pm4_ops.def,
 * against an independent list written here by hand from the Linux radeon
 * headers: radeon_reg.h RADEON_CP_PACKET3_* (the IT_OPCODE byte of
 * 0xC000xx00), r300d.h PACKET3_* and CP_PACKET_GET_*, and the cases of
 * r300_packet3_check (r300.c), which are what the kernel accepts.
 */
#include <string.h>

#include "r500.h"

typedef struct LinuxOp {
    unsigned opcode;
    const char *name;
    bool cs;                /* a case of r300_packet3_check */
} LinuxOp;

static const LinuxOp linux_ops[] = {
    /* radeon_reg.h RADEON_CP_PACKET3_<name>, value 0xC000<op>00 */
    { 0x10, "NOP", true },
    { 0x19, "NEXT_CHAR", false },
    { 0x1D, "PLY_NEXTSCAN", false },
    { 0x1E, "SET_SCISSORS", false },
    { 0x23, "3D_RNDR_GEN_INDX_PRIM", false },
    { 0x24, "LOAD_MICROCODE", false },
    { 0x26, "WAIT_FOR_IDLE", false },
    { 0x28, "3D_DRAW_VBUF", true },
    { 0x29, "3D_DRAW_IMMD", true },
    { 0x2A, "3D_DRAW_INDX", true },
    { 0x2C, "LOAD_PALETTE", false },
    { 0x2F, "3D_LOAD_VBPNTR", true },
    { 0x91, "CNTL_PAINT", false },
    { 0x92, "CNTL_BITBLT", false },
    { 0x93, "CNTL_SMALLTEXT", false },
    { 0x94, "CNTL_HOSTDATA_BLT", false },
    { 0x95, "CNTL_POLYLINE", false },
    { 0x98, "CNTL_POLYSCANLINES", false },
    { 0x9A, "CNTL_PAINT_MULTI", false },
    { 0x9B, "CNTL_BITBLT_MULTI", false },   /* r300d.h PACKET3_BITBLT_MULTI */
    { 0x9C, "CNTL_TRANS_BITBLT", false },
    /* r300d.h PACKET3_<name> */
    { 0x32, "3D_CLEAR_ZMASK", true },
    { 0x33, "INDX_BUFFER", true },
    { 0x34, "3D_DRAW_VBUF_2", true },
    { 0x35, "3D_DRAW_IMMD_2", true },
    { 0x36, "3D_DRAW_INDX_2", true },
    { 0x37, "3D_CLEAR_HIZ", true },
    { 0x38, "3D_CLEAR_CMASK", true },
    /* reference r500-3d-pipeline.md 1.2 (no Linux user) */
    { 0x39, "3D_DRAW_128", false },
};

/* Every opcode the Linux headers name is in the table, with that name. */
static void test_opcodes_match_linux(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(linux_ops); i++) {
        const LinuxOp *l = &linux_ops[i];
        const R500PM4Op *o = r500_pm4_op(l->opcode);

        g_assert_nonnull(o);
        g_assert_cmphex(o->opcode, ==, l->opcode);
        g_assert_cmpstr(o->name, ==, l->name);
        g_assert_cmpint(!!(o->flags & R500_PM4_F_CS), ==, l->cs);
    }
}

/* ... and the table has nothing else. */
static void test_no_other_opcodes(void)
{
    for (unsigned op = 0; op < 256; op++) {
        bool listed = false;

        for (unsigned i = 0; i < G_N_ELEMENTS(linux_ops); i++) {
            listed |= linux_ops[i].opcode == op;
        }
        g_assert_cmpint(r500_pm4_op(op) != NULL, ==, listed);
    }
    g_assert_null(r500_pm4_op_name(0x11));  /* PAINT, the R128-era form */
    g_assert_null(r500_pm4_op_name(0x1A));
    g_assert_null(r500_pm4_op(256));
}

/* The enum names the same values (spot checks of what the code uses). */
static void test_enum(void)
{
    g_assert_cmphex(R500_PM4_OP_3D_LOAD_VBPNTR, ==, 0x2F);
    g_assert_cmphex(R500_PM4_OP_3D_DRAW_VBUF_2, ==, 0x34);
    g_assert_cmphex(R500_PM4_OP_3D_DRAW_IMMD_2, ==, 0x35);
    g_assert_cmphex(R500_PM4_OP_CNTL_PAINT, ==, 0x91);
    g_assert_cmphex(R500_PM4_OP_CNTL_BITBLT, ==, 0x92);
    g_assert_cmphex(R500_PM4_OP_CNTL_PAINT_MULTI, ==, 0x9A);
    g_assert_cmphex(R500_PM4_OP_CNTL_BITBLT_MULTI, ==, 0x9B);
}

/*
 * Lengths: START, COUNT, VALUE for the clears and 3 dwords for
 * INDX_BUFFER (reference 1.2, 1.4); 3D_LOAD_VBPNTR has at most 16
 * arrays, 1 + 3 x 8 dwords (r100_packet3_load_vbpntr); the legacy draws
 * carry VAP_VTX_FMT and VAP_VF_CNTL.
 */
static void test_lengths(void)
{
    static const unsigned three[] = { 0x32, 0x33, 0x37, 0x38 };

    for (unsigned i = 0; i < G_N_ELEMENTS(three); i++) {
        g_assert_false(r500_pm4_op_len_ok(three[i], 2));
        g_assert_true(r500_pm4_op_len_ok(three[i], 3));
        g_assert_false(r500_pm4_op_len_ok(three[i], 4));
    }
    g_assert_true(r500_pm4_op_len_ok(0x2F, 25));
    g_assert_false(r500_pm4_op_len_ok(0x2F, 26));
    g_assert_false(r500_pm4_op_len_ok(0x28, 1));
    g_assert_true(r500_pm4_op_len_ok(0x28, 2));
    g_assert_true(r500_pm4_op_len_ok(0x10, 0x4000));
}

/* Header fields, against headers computed by hand. */
static void test_headers(void)
{
    /* RADEON_CP_PACKET3_CNTL_PAINT_MULTI with 5 payload dwords */
    g_assert_cmphex(R500_PM4_PACKET3(0x9A, 4), ==, 0xC0049A00u);
    g_assert_cmpuint(R500_PM4_TYPE(0xC0049A00u), ==, 3);
    g_assert_cmpuint(R500_PM4_COUNT(0xC0049A00u), ==, 4);
    g_assert_cmphex(R500_PM4_OPCODE(0xC0049A00u), ==, 0x9A);
    /* COUNT is bits 29:16, all 14 of them */
    g_assert_cmpuint(R500_PM4_COUNT(0xFFFFFFFFu), ==, 0x3FFF);
    g_assert_cmpuint(R500_PM4_PAYLOAD_MAX, ==, 0x3FFF + 1);
    /* SCRATCH_REG0 (0x15E0) with 2 dwords; ONE_REG_WR is 0x8000 */
    g_assert_cmphex(R500_PM4_PACKET0(0x15E0, 1), ==, 0x00010578u);
    g_assert_cmphex(R500_PM4_PACKET0_ONE(0x15E0, 1), ==, 0x00018578u);
    g_assert_cmpuint(R500_PM4_TYPE(0x00018578u), ==, 0);
    g_assert_cmphex(R500_PM4_TYPE0_REG(0x00018578u), ==, 0x15E0);
    g_assert_true(0x00018578u & R500_PM4_TYPE0_ONE_REG_WR);
    /* BASE_INDEX is 13 bits: bits 13-14 are not part of the register */
    g_assert_cmphex(R500_PM4_TYPE0_REG(0x00006000u | 0x578), ==, 0x15E0);
    /* Type 1: REG0 [10:0], REG1 [21:11] */
    g_assert_cmpuint(R500_PM4_TYPE(0x40000000u), ==, 1);
    g_assert_cmphex(R500_PM4_TYPE1_REG0(0x40000000u | 0x578u), ==, 0x15E0);
    g_assert_cmphex(R500_PM4_TYPE1_REG1(0x40000000u | (0x579u << 11)), ==,
                    0x15E4);
    g_assert_cmphex(R500_PM4_PACKET2, ==, 0x80000000u);
    g_assert_cmpuint(R500_PM4_TYPE(R500_PM4_PACKET2), ==, 2);
    /* INDX_BUFFER dword 0 as Mesa writes it: ONE_REG_WR | 0x2040 >> 2 */
    g_assert_cmphex(R500_PM4_INDX_DEST(0x80000810u), ==, 0x2040);
    g_assert_cmpuint(R500_PM4_INDX_SKIP(0x80000810u | (5u << 16)), ==, 5);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pm4/opcodes-match-linux", test_opcodes_match_linux);
    g_test_add_func("/pm4/no-other-opcodes", test_no_other_opcodes);
    g_test_add_func("/pm4/enum", test_enum);
    g_test_add_func("/pm4/lengths", test_lengths);
    g_test_add_func("/pm4/headers", test_headers);
    return g_test_run();
}
