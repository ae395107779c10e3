/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Register offsets, field constants and names, all derived from the
 * tables in this directory (r500_regs.def, pll_regs.def, mc_regs.def,
 * pcie_regs.def).  Never write an offset anywhere else.
 *
 *   R_<NAME>                     byte offset of an MMIO register
 *   R_<REG>_<FIELD>_SHIFT/_WIDTH bit field position
 *   R500_FMASK(REG, FIELD)       the field's mask, in place
 *   R500_FGET(v, REG, FIELD)     extract a field
 *   R500_FSET(v, REG, FIELD, x)  v with the field replaced by x
 *   R500_FVAL(REG, FIELD, NAME)  a named value of the field (R500_VALUE)
 *   PLL_<NAME>, PCIE_<NAME>      indirect indices
 *   MC_<NAME>                    logical MC register (see r500_mc_index())
 */
#ifndef HW_R500_REGS_H
#define HW_R500_REGS_H

#include <stdbool.h>
#include <stdint.h>

#define R500_MMIO_SIZE      0x10000u
#define R500_NUM_REGS       (R500_MMIO_SIZE / 4)
#define R500_CRTC2_OFFSET   0x800u      /* D2 registers = D1 + 0x800 */
#define R500_PLL_NUM        64
#define R500_MC_NUM         0x200
#define R500_PCIE_NUM       0x800

enum R500RegOffset {
#define R500_REG(name, off)             R_##name = (off),
#define R500_REGA(name, off, n, stride) R_##name = (off),
#define R500_CRTC(name, off)            R_D1##name = (off), \
                                        R_D2##name = (off) + R500_CRTC2_OFFSET,
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "r500_regs.def"
#undef R500_REG
#undef R500_REGA
#undef R500_CRTC
#undef R500_FIELD
#undef R500_VALUE
};

/* Array register i: R500_REGA_AT(SCRATCH_REG, 2) */
enum R500RegArrayStride {
#define R500_REG(name, off)
#define R500_REGA(name, off, n, stride) R_##name##__STRIDE = (stride), \
                                        R_##name##__COUNT = (n),
#define R500_CRTC(name, off)
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "r500_regs.def"
#undef R500_REG
#undef R500_REGA
#undef R500_CRTC
#undef R500_FIELD
#undef R500_VALUE
};
#define R500_REGA_AT(name, i)  (R_##name + (i) * R_##name##__STRIDE)

/*
 * Fields, and the named values of a field (radeon_reg.h's RADEON_GMC_*,
 * ...): R500_FVAL(DP_GUI_MASTER_CNTL, BRUSH_DATATYPE, SOLID_COLOR) is 13,
 * to be placed with R500_FSET().  The indirect PCIE registers have fields
 * too: R500_FMASK(PCIE_TX_GART_CNTL, EN).
 */
enum R500RegField {
#define R500_REG(name, off)
#define R500_REGA(name, off, n, stride)
#define R500_CRTC(name, off)
#define R500_FIELD(reg, f, shift, width) R_##reg##_##f##_SHIFT = (shift), \
                                         R_##reg##_##f##_WIDTH = (width),
#define R500_VALUE(reg, f, name, v)     R_##reg##_##f##__##name = (v),
#include "r500_regs.def"
#define R500_PCIE_REG(name, idx)
#include "pcie_regs.def"
#undef R500_PCIE_REG
#undef R500_REG
#undef R500_REGA
#undef R500_CRTC
#undef R500_FIELD
#undef R500_VALUE
};
#define R500_FVAL(reg, f, name)     R_##reg##_##f##__##name

#define R500_FMASK(reg, f) \
    ((uint32_t)(0xFFFFFFFFu >> (32 - R_##reg##_##f##_WIDTH)) << R_##reg##_##f##_SHIFT)
#define R500_FGET(v, reg, f) \
    (((uint32_t)(v) & R500_FMASK(reg, f)) >> R_##reg##_##f##_SHIFT)
#define R500_FSET(v, reg, f, x) \
    (((uint32_t)(v) & ~R500_FMASK(reg, f)) | \
     (((uint32_t)(x) << R_##reg##_##f##_SHIFT) & R500_FMASK(reg, f)))

enum R500PllIndex {
#define R500_PLL_REG(name, idx) PLL_##name = (idx),
#include "pll_regs.def"
#undef R500_PLL_REG
};

enum R500PcieIndex {
#define R500_PCIE_REG(name, idx) PCIE_##name = (idx),
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "pcie_regs.def"
#undef R500_PCIE_REG
#undef R500_FIELD
#undef R500_VALUE
};

/* Logical MC registers; the per-map index comes from r500_mc_index(). */
typedef enum R500McReg {
#define R500_MC_REG(name, rv515, r520) MC_##name,
#include "mc_regs.def"
#undef R500_MC_REG
    MC__COUNT
} R500McReg;

typedef enum R500McMap {
    R500_MC_MAP_RV515,
    R500_MC_MAP_R520,
} R500McMap;

/* Index of a logical MC register in a map, or -1 when the map lacks it. */
int r500_mc_index(R500McMap map, R500McReg reg);

/* Whether an MMIO offset is named in the table. */
int r500_reg_known(uint32_t offset);
/*
 * Whether an MMIO offset is the 3D pipeline's state (the windows of
 * r500_3d_regs.def): a write there starts and signals nothing.
 */
bool r500_reg_is_3d(uint32_t offset);

/*
 * Name of the register at a byte offset for traces and logs, e.g.
 * "D2CRTC_CONTROL", "SCRATCH_REG[3]", or "0x1234" for unnamed offsets.
 * Writes into buf (always terminated) and returns it.
 */
const char *r500_reg_name(uint32_t offset, char *buf, unsigned len);
const char *r500_pll_name(uint32_t index);
const char *r500_pcie_name(uint32_t index);
const char *r500_mc_name(R500McMap map, uint32_t index);

#endif
