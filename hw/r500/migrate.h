/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip state that migrates beyond the register arrays, one list per
 * vmstate subsection: the board (hw/r500/qemu/r500_pci.c) builds its
 * VMStateDescriptions from these lists, and the fuzzer's state loader
 * (tests/fuzz/fuzz-mmio.c) sets the same fields, so a field added here
 * reaches both.  Plain C, no QEMU: the chip core's one list of what a
 * migration carries (docs/reliability.md).
 *
 * R500_MIG_<SECTION>(X) expands X(kind, field, count) per field, in
 * stream order, each followed by a comma (array initialisers):
 *   kind   BOOL, UINT8, UINT32, INT32, UINT64, INT64 (count 1) or
 *          UINT32_ARRAY
 *   field  a member path in R500Chip, or in the struct a list names
 *   count  elements of an array, else 1
 * The stream layout is frozen once released (tests/qtest/r500-vmstate.json,
 * the 'vmstate' test): never reorder or insert into a released list; new
 * state goes into a new subsection with a list of its own.
 */
#ifndef HW_R500_MIGRATE_H
#define HW_R500_MIGRATE_H

#include <stddef.h>
#include <stdint.h>

/* "r500/cp": the microcode RAM and an IB in flight. */
#define R500_MIG_CP(X) \
    X(UINT32_ARRAY, cp.me_ram, R500_CP_ME_RAM_ENTRIES * 2), \
    X(BOOL, cp.ib_active, 1), \
    X(UINT32, cp.ib_base, 1), \
    X(UINT32, cp.ib_size, 1), \
    X(UINT32, cp.ib_pos, 1), \
    X(BOOL, cp.halted, 1), \
    X(BOOL, cp.draw_pending, 1), \
    X(UINT32, cp.draw_pending_opcode, 1), \
    X(UINT32, cp.draw_pending_vf_cntl, 1),

/* "r500/cp/packet": where a packet stopped part way resumes. */
#define R500_MIG_CP_PACKET(X) \
    X(UINT32, cp.resume, 1),

/* "r500/rb2d": a host-data blit in progress. */
#define R500_MIG_RB2D(X) \
    X(BOOL, rb2d.host_active, 1), \
    X(UINT32, rb2d.host.base, 1), \
    X(UINT32, rb2d.host.pitch, 1), \
    X(UINT32, rb2d.host.bpp, 1), \
    X(INT32, rb2d.host.x, 1), \
    X(INT32, rb2d.host.y, 1), \
    X(UINT32, rb2d.host.w, 1), \
    X(UINT32, rb2d.host.h, 1), \
    X(INT32, rb2d.host.cl, 1), \
    X(INT32, rb2d.host.ct, 1), \
    X(INT32, rb2d.host.cr, 1), \
    X(INT32, rb2d.host.cb, 1), \
    X(UINT32, rb2d.host.rop, 1), \
    X(UINT32, rb2d.host.mask, 1), \
    X(UINT32, rb2d.host.fg, 1), \
    X(UINT32, rb2d.host.bg, 1), \
    X(UINT32, rb2d.host.src_type, 1), \
    X(BOOL, rb2d.host.lsb_first, 1), \
    X(UINT32, rb2d.host.cx, 1), \
    X(UINT32, rb2d.host.cy, 1),

/* One entry of the 2D FIFO (R500Rb2dCmd), "r500/2d-fifo" below. */
#define R500_MIG_RB2D_CMD(X) \
    X(UINT32, kind, 1), \
    X(UINT32, bpp, 1), \
    X(UINT32, rop, 1), \
    X(UINT32, mask, 1), \
    X(UINT32, brush, 1), \
    X(UINT32, fg, 1), \
    X(UINT32, bg, 1), \
    X(UINT32_ARRAY, pat, 2), \
    X(INT32, pat_x, 1), \
    X(INT32, pat_y, 1), \
    X(UINT32, src_type, 1), \
    X(BOOL, need_s, 1), \
    X(BOOL, need_d, 1), \
    X(BOOL, need_p, 1), \
    X(BOOL, lsb_first, 1), \
    X(BOOL, ttb, 1), \
    X(BOOL, last, 1), \
    X(UINT32, dst_base, 1), \
    X(UINT32, dst_pitch, 1), \
    X(UINT32, src_base, 1), \
    X(UINT32, src_pitch, 1), \
    X(INT32, x, 1), \
    X(INT32, y, 1), \
    X(UINT32, w, 1), \
    X(UINT32, h, 1), \
    X(INT32, x0, 1), \
    X(INT32, y0, 1), \
    X(INT32, x1, 1), \
    X(INT32, y1, 1), \
    X(INT32, sx0, 1), \
    X(INT32, sy0, 1), \
    X(UINT32, data, 1),

/*
 * "r500/2d-fifo": the queue's position, then its R500_RB2D_FIFO_SIZE
 * entries of R500_MIG_RB2D_CMD (rb2d.fifo, an array of structs).
 */
#define R500_MIG_RB2D_FIFO(X) \
    X(UINT32, rb2d.fifo_head, 1), \
    X(UINT32, rb2d.fifo_count, 1), \
    X(UINT32, rb2d.row, 1),

/* "r500/vap": the PVS vector memory and its upload port. */
#define R500_MIG_VAP(X) \
    X(UINT32_ARRAY, vap.pvs_mem, R500_PVS_MEM_VECTORS * 4), \
    X(UINT32, vap.pvs_dword, 1),

/* "r500/3d-draw": a draw split across CP slices. */
#define R500_MIG_VAP_DRAW(X) \
    X(BOOL, vap.resume.active, 1), \
    X(UINT32, vap.resume.pos.prims, 1), \
    X(UINT32, vap.resume.pos.sub, 1), \
    X(INT32, vap.resume.pos.y, 1), \
    X(INT32, vap.resume.pos.x, 1), \
    X(UINT64, vap.resume.pvs_budget, 1), \
    X(UINT64, vap.resume.us_budget, 1), \
    X(UINT64, vap.resume.quad_budget, 1),

/* "r500/us": the fragment-shader instruction store and constants. */
#define R500_MIG_US(X) \
    X(UINT32_ARRAY, us.inst, R500_US_INSTS * R500_US_INST_DWORDS), \
    X(UINT32_ARRAY, us.consts, R500_US_CONSTS * 4), \
    X(UINT32, us.upload_dword, 1),

/* "r500/rb3d": the Hyper-Z and CMASK RAMs and a pending fast clear. */
#define R500_MIG_RB3D(X) \
    X(UINT32_ARRAY, rb3d.zmask_ram, R500_ZMASK_DWORDS), \
    X(UINT32_ARRAY, rb3d.hiz_ram, R500_HIZ_DWORDS), \
    X(UINT32_ARRAY, rb3d.cmask_ram, R500_CMASK_DWORDS), \
    X(BOOL, rb3d.zmask_cleared, 1), \
    X(UINT32, rb3d.zpass, 1),

/*
 * "r500/disp" (hw/r500/qemu/r500_display.c): the display state of
 * R500DispState: its CRTCs (crtc[], R500_MIG_CRTC each), the LUTs (lut,
 * 2 x 256), R500_MIG_DISP, then its DDC slaves (ddc[], R500_MIG_I2C each).
 * epoch_age_ns is the CRTC's age at the save (pre_save), not a time.
 */
#define R500_MIG_CRTC(X) \
    X(INT64, epoch_age_ns, 1), \
    X(UINT64, frame_base, 1), \
    X(UINT64, vblank_base, 1), \
    X(UINT64, vblank_acked, 1), \
    X(UINT64, flip_armed, 1), \
    X(UINT32, surface_addr, 1), \
    X(UINT32, flip_pending, 1), \
    X(UINT32_ARRAY, cursor, R500_CURSOR_REGS),

#define R500_MIG_DISP(X) \
    X(UINT32, lut_seq, 1), \
    X(UINT32, lut_seq_rgb, 1), \
    X(UINT32_ARRAY, hpd_int, R500_NUM_DDC),

#define R500_MIG_I2C(X) \
    X(UINT8, state, 1), \
    X(UINT8, next, 1), \
    X(UINT8, nbits, 1), \
    X(UINT8, shift, 1), \
    X(UINT8, offset, 1), \
    X(UINT8, segment, 1), \
    X(UINT8, scl, 1), \
    X(UINT8, sda, 1), \
    X(UINT8, sda_out, 1),

/* Every chip-relative list, for code that walks them all (the fuzzer). */
#define R500_MIG_CHIP(X) \
    R500_MIG_CP(X) R500_MIG_CP_PACKET(X) R500_MIG_RB2D(X) \
    R500_MIG_RB2D_FIFO(X) R500_MIG_VAP(X) R500_MIG_VAP_DRAW(X) \
    R500_MIG_US(X) R500_MIG_RB3D(X)

/* A field of a list as data: where it is, of what kind, how many. */
typedef enum R500MigKind {
    R500_MIG_BOOL,
    R500_MIG_UINT8,
    R500_MIG_UINT32,
    R500_MIG_INT32,
    R500_MIG_UINT64,
    R500_MIG_INT64,
    R500_MIG_UINT32_ARRAY,
} R500MigKind;

typedef struct R500MigField {
    const char *name;           /* the member path, "rb2d.host.cy" */
    R500MigKind kind;
    size_t offset;              /* in R500Chip (or the list's struct) */
    uint32_t count;
} R500MigField;

#define R500_MIG_FIELD(type, kind, f, n) \
    { #f, R500_MIG_##kind, offsetof(type, f), (n) }

#endif
