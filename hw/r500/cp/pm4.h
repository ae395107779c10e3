/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PM4 packet format, defined once for the CP, the host tools
 * (tools/cs), the tests (unit, qtest, mesa), the bench and the fuzzers:
 * the header fields and the type-3 opcodes of pm4_ops.def.  Reference
 * r500-3d-pipeline.md 1.1, Linux r100d.h / r300d.h (CP_PACKET*,
 * PACKET0_BASE_INDEX, PACKET3_IT_OPCODE, CP_PACKET_GET_*):
 *
 *   [31:30] type
 *   type 0: [29:16] COUNT = data dwords - 1, [15] ONE_REG_WR (every dword
 *           to the same register), [12:0] BASE_INDEX = register >> 2
 *           (so type 0 reaches 0x0000-0x7FFC);
 *   type 1: [10:0] and [21:11] two register indices, one dword each;
 *   type 2: a one-dword filler;
 *   type 3: [29:16] COUNT = payload dwords - 1, [15:8] IT_OPCODE.
 *
 * Plain C with no dependency, so the QEMU-side qtests include it too.
 */
#ifndef HW_R500_CP_PM4_H
#define HW_R500_CP_PM4_H

#include <stdint.h>

/* ---- Header fields ---- */

#define R500_PM4_TYPE(h)            (((uint32_t)(h) >> 30) & 3u)
#define R500_PM4_COUNT(h)           (((uint32_t)(h) >> 16) & 0x3FFFu)
#define R500_PM4_TYPE0_ONE_REG_WR   (1u << 15)
#define R500_PM4_TYPE0_REG(h)       (((uint32_t)(h) & 0x1FFFu) << 2)
#define R500_PM4_TYPE1_REG0(h)      (((uint32_t)(h) & 0x7FFu) << 2)
#define R500_PM4_TYPE1_REG1(h)      ((((uint32_t)(h) >> 11) & 0x7FFu) << 2)
#define R500_PM4_OPCODE(h)          (((uint32_t)(h) >> 8) & 0xFFu)

/* INDX_BUFFER dword 0: [31] ONE_REG_WR, [18:16] SKIP, [12:0] register >> 2. */
#define R500_PM4_INDX_DEST(d)       (((uint32_t)(d) & 0x1FFFu) << 2)
#define R500_PM4_INDX_SKIP(d)       (((uint32_t)(d) >> 16) & 7u)

/* Payload dwords of a type-0/3 packet: COUNT is 14 bits. */
#define R500_PM4_PAYLOAD_MAX        0x4000u

/*
 * Headers, as Linux builds them: n is COUNT (payload dwords - 1).
 * PACKET0(reg, n) writes n + 1 registers from reg on.
 */
#define R500_PM4_PACKET0(reg, n)    (((uint32_t)(reg) >> 2) | \
                                     ((uint32_t)(n) << 16))
#define R500_PM4_PACKET0_ONE(reg, n) (R500_PM4_PACKET0(reg, n) | \
                                      R500_PM4_TYPE0_ONE_REG_WR)
#define R500_PM4_PACKET2            0x80000000u
#define R500_PM4_PACKET3(op, n)     (0xC0000000u | ((uint32_t)(op) << 8) | \
                                     ((uint32_t)(n) << 16))

/* ---- Type-3 opcodes (pm4_ops.def) ---- */

enum {
    R500_PM4_F_CS = 1u << 0,
    R500_PM4_F_RUN = 1u << 1,
    R500_PM4_F_SYNC = 1u << 2,
    R500_PM4_F_GMC = 1u << 3,
    R500_PM4_F_PIPE = 1u << 4,
};

enum {
#define R500_PM4_OP(op, name, flags, min, max) R500_PM4_OP_##name = (op),
#include "pm4_ops.def"
#undef R500_PM4_OP
};

typedef struct R500PM4Op {
    uint8_t opcode;
    const char *name;           /* as in pm4_ops.def: "3D_DRAW_IMMD_2" */
    unsigned flags;             /* R500_PM4_F_* */
    uint16_t min, max;          /* payload dwords */
} R500PM4Op;

/* The entry of opcode (0-255), NULL for an opcode no driver knows. */
static inline const R500PM4Op *r500_pm4_op(unsigned opcode)
{
    enum {
        CS = R500_PM4_F_CS, RUN = R500_PM4_F_RUN, SYNC = R500_PM4_F_SYNC,
        GMC = R500_PM4_F_GMC, PIPE = R500_PM4_F_PIPE,
        ANY = R500_PM4_PAYLOAD_MAX,
    };
    static const R500PM4Op ops[256] = {
#define R500_PM4_OP(op, name, flags, min, max) \
        [(op)] = { (op), #name, (flags), (min), (max) },
#include "pm4_ops.def"
#undef R500_PM4_OP
    };

    return opcode < 256 && ops[opcode].name ? &ops[opcode] : (void *)0;
}

/* Its name, NULL when unknown. */
static inline const char *r500_pm4_op_name(unsigned opcode)
{
    const R500PM4Op *o = r500_pm4_op(opcode);

    return o ? o->name : (void *)0;
}

/* Whether opcode has every flag of flags (false when unknown). */
static inline int r500_pm4_op_has(unsigned opcode, unsigned flags)
{
    const R500PM4Op *o = r500_pm4_op(opcode);

    return o && (o->flags & flags) == flags;
}

/* Whether a packet of opcode with n payload dwords has the length it needs. */
static inline int r500_pm4_op_len_ok(unsigned opcode, uint32_t n)
{
    const R500PM4Op *o = r500_pm4_op(opcode);

    return !o || (n >= o->min && n <= o->max);
}

#endif
