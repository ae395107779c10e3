/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Type-3 packets (the opcodes are pm4_ops.def; r500-3d-pipeline.md
 * 1.2-1.5; reference radeon-kms-r500.md 5.9-5.11).
 *
 * The 2D CNTL_* packets start with a DP_GUI_MASTER_CNTL dword whose bits
 * say which fields follow, in this order: SRC_PITCH_OFFSET, DST_PITCH_
 * OFFSET, SRC_SC_BOTTOM_RIGHT, SC_TOP_LEFT + SC_BOTTOM_RIGHT, the brush
 * colour, the source colours; then the operation's own dwords.  They are
 * executed as the register writes they stand for, so the 2D engine sees
 * one path whether the driver used MMIO, type-0 packets or CNTL_*.
 *
 * The 3D packets are decoded and checked here and handed to pipe/draw.h.
 */
#include <glib.h>

#include "../r500.h"
#include "../blocks.h"


/* Brush and source datatypes of DP_GUI_MASTER_CNTL (r500_regs.def). */
#define GMC_BRUSH_SOLID_COLOR \
    R500_FVAL(DP_GUI_MASTER_CNTL, BRUSH_DATATYPE, SOLID_COLOR)
#define GMC_BRUSH_NONE  R500_FVAL(DP_GUI_MASTER_CNTL, BRUSH_DATATYPE, NONE)
#define GMC_SRC_DATATYPE_COLOR \
    R500_FVAL(DP_GUI_MASTER_CNTL, SRC_DATATYPE, COLOR)

static void p3_error(R500Chip *s, unsigned op, const char *what)
{
    s->cp.stats.errors++;
    r500_guest_error(s, "CP: type-3 opcode 0x%02x: %s; packet skipped", op,
                     what);
}

/* ---- 2D ---- */

#define DP_CNTL_LTR_TTB (R500_FMASK(DP_CNTL, DST_X_LEFT_TO_RIGHT) | \
                         R500_FMASK(DP_CNTL, DST_Y_TOP_TO_BOTTOM))

/*
 * One BITBLT_MULTI rectangle, given by its top-left corners.  The packet
 * takes no direction from DP_CNTL (the kernel's TTM copies never set it,
 * whatever X left there): it picks the one that copies overlapping
 * rectangles right, and names the right/bottom pixels where reversed.
 */
static void p3_bitblt_rect(R500Chip *s, uint32_t src_xy, uint32_t dst_xy,
                           uint32_t wh)
{
    uint32_t sx = src_xy >> 16, sy = src_xy & 0xFFFF;
    uint32_t dx = dst_xy >> 16, dy = dst_xy & 0xFFFF;
    uint32_t w = wh >> 16, h = wh & 0xFFFF;
    bool ltr = (int16_t)dx <= (int16_t)sx, ttb = (int16_t)dy <= (int16_t)sy;

    if (!ltr && w) {
        sx += w - 1;
        dx += w - 1;
    }
    if (!ttb && h) {
        sy += h - 1;
        dy += h - 1;
    }
    r500_reg_write(s, R_DP_CNTL,
                   R500_FSET(R500_FSET(0, DP_CNTL, DST_X_LEFT_TO_RIGHT, ltr),
                             DP_CNTL, DST_Y_TOP_TO_BOTTOM, ttb));
    r500_reg_write(s, R_SRC_Y_X, (sy & 0xFFFF) << 16 | (sx & 0xFFFF));
    r500_reg_write(s, R_DST_Y_X, (dy & 0xFFFF) << 16 | (dx & 0xFFFF));
    r500_reg_write(s, R_DST_HEIGHT_WIDTH, h << 16 | w);
}

static void p3_2d(R500Chip *s, unsigned op, const uint32_t *pl, uint32_t n)
{
    uint32_t gmc, brush, need, i = 1, first;
    uint32_t dp_cntl = s->regs[R_DP_CNTL / 4];
    bool src_colours;

    if (n < 1) {
        p3_error(s, op, "no DP_GUI_MASTER_CNTL dword");
        return;
    }
    gmc = pl[0];
    brush = R500_FGET(gmc, DP_GUI_MASTER_CNTL, BRUSH_DATATYPE);
    if (brush != GMC_BRUSH_SOLID_COLOR && brush != GMC_BRUSH_NONE) {
        /* The packet layout of pattern brushes is not documented. */
        r500_unimp(s, "CP: 2D packet 0x%02x with brush type %u (only solid "
                   "and none are decoded); skipped", op, brush);
        return;
    }
    need = 1 + R500_FGET(gmc, DP_GUI_MASTER_CNTL, SRC_PITCH_OFFSET_CNTL) +
           R500_FGET(gmc, DP_GUI_MASTER_CNTL, DST_PITCH_OFFSET_CNTL) +
           R500_FGET(gmc, DP_GUI_MASTER_CNTL, SRC_CLIPPING) +
           2 * R500_FGET(gmc, DP_GUI_MASTER_CNTL, DST_CLIPPING) +
           (brush == GMC_BRUSH_SOLID_COLOR);
    /* Host data always carries both source colours (XAA, r128 DRM). */
    src_colours = op == R500_PM4_OP_CNTL_HOSTDATA_BLT ||
        R500_FGET(gmc, DP_GUI_MASTER_CNTL, SRC_DATATYPE) !=
        GMC_SRC_DATATYPE_COLOR;
    need += 2 * src_colours;
    if (n < need) {
        p3_error(s, op, "shorter than its DP_GUI_MASTER_CNTL fields");
        return;
    }

    r500_reg_write(s, R_DP_GUI_MASTER_CNTL, gmc);
    if (R500_FGET(gmc, DP_GUI_MASTER_CNTL, SRC_PITCH_OFFSET_CNTL)) {
        r500_reg_write(s, R_SRC_PITCH_OFFSET, pl[i++]);
    }
    if (R500_FGET(gmc, DP_GUI_MASTER_CNTL, DST_PITCH_OFFSET_CNTL)) {
        r500_reg_write(s, R_DST_PITCH_OFFSET, pl[i++]);
    }
    if (R500_FGET(gmc, DP_GUI_MASTER_CNTL, SRC_CLIPPING)) {
        r500_reg_write(s, R_SRC_SC_BOTTOM_RIGHT, pl[i++]);
    }
    if (R500_FGET(gmc, DP_GUI_MASTER_CNTL, DST_CLIPPING)) {
        r500_reg_write(s, R_SC_TOP_LEFT, pl[i++]);
        r500_reg_write(s, R_SC_BOTTOM_RIGHT, pl[i++]);
    }
    if (brush == GMC_BRUSH_SOLID_COLOR) {
        r500_reg_write(s, R_DP_BRUSH_FRGD_CLR, pl[i++]);
    }
    if (src_colours) {
        r500_reg_write(s, R_DP_SRC_FRGD_CLR, pl[i++]);
        r500_reg_write(s, R_DP_SRC_BKGD_CLR, pl[i++]);
    }
    first = i;

    switch (op) {
    case R500_PM4_OP_CNTL_PAINT_MULTI:
        /* {x << 16 | y, w << 16 | h} per rectangle (radeon_clear_box). */
        for (i += 2 * MIN(s->cp.resume, (n - i) / 2); n - i >= 2; i += 2) {
            r500_reg_write(s, R_DP_CNTL, DP_CNTL_LTR_TTB);
            r500_reg_write(s, R_DST_X_Y, pl[i]);
            r500_reg_write(s, R_DST_WIDTH_HEIGHT, pl[i + 1]);
            if (n - i >= 4 && r500_cp_yield(s, (i + 2 - first) / 2)) {
                break;
            }
        }
        break;
    case R500_PM4_OP_CNTL_BITBLT_MULTI:
        /* {src x << 16 | y, dst x << 16 | y, w << 16 | h} (r100_copy_blit). */
        for (i += 3 * MIN(s->cp.resume, (n - i) / 3); n - i >= 3; i += 3) {
            p3_bitblt_rect(s, pl[i], pl[i + 1], pl[i + 2]);
            if (n - i >= 6 && r500_cp_yield(s, (i + 3 - first) / 3)) {
                break;
            }
        }
        break;
    case R500_PM4_OP_CNTL_HOSTDATA_BLT: {
        /*
         * dst y << 16 | x, h << 16 | w, dword count, data (XAA, RadeonHD).
         * Item 0 starts the blit, item k + 1 is data dword k: behind
         * queued 2D work each dword takes a FIFO entry, so a long payload
         * may stop when the FIFO is full and resume at its next dword.
         */
        uint32_t count, resume = s->cp.resume;

        if (n - i < 3) {
            p3_error(s, op, "no destination, size and count");
            return;
        }
        if (!resume) {
            r500_reg_write(s, R_DST_Y_X, pl[i]);
            r500_reg_write(s, R_DST_HEIGHT_WIDTH, pl[i + 1]);
        }
        count = pl[i + 2];
        i += 3;
        if (count != n - i && !resume) {
            s->cp.stats.errors++;
            r500_guest_error(s, "CP: HOSTDATA_BLT announces %u data dwords "
                             "and carries %u; using what is there", count,
                             n - i);
        }
        if (!resume && i < n && r500_cp_yield(s, 1)) {
            return;
        }
        for (i += MIN(resume ? resume - 1 : 0, n - i); i < n; i++) {
            r500_reg_write(s, i + 1 == n ? R_HOST_DATA_LAST : R_HOST_DATA,
                           pl[i]);
            if (i + 1 < n && r500_cp_yield(s, i + 2 - (first + 3))) {
                return;
            }
        }
        return;
    }
    }
    /* The packet's own directions do not outlive it (nor a yield). */
    r500_reg_write(s, R_DP_CNTL, dp_cntl);
    if (s->cp.yielded) {
        return;
    }
    if (i != n) {
        s->cp.stats.errors++;
        r500_guest_error(s, "CP: 2D packet 0x%02x has %u trailing dwords; "
                         "ignored", op, n - i);
    }
}

/* ---- 3D ---- */

/* The vertex arrays of the last 3D_LOAD_VBPNTR, from VAP_VTX_AOS_*. */
static bool draw_arrays(R500Chip *s, R500DrawCmd *cmd)
{
    uint32_t num = R500_FGET(s->regs[R_VAP_VTX_NUM_ARRAYS / 4],
                             VAP_VTX_NUM_ARRAYS, NUM);

    if (num > R500_DRAW_MAX_ARRAYS) {
        return false;
    }
    cmd->num_arrays = num;
    for (uint32_t k = 0; k < num; k++) {
        uint32_t attr = s->regs[R500_REGA_AT(VAP_VTX_AOS_ATTR, k / 2) / 4];
        R500DrawArray *a = &cmd->arrays[k];

        if (k & 1) {
            a->size = R500_FGET(attr, VAP_VTX_AOS_ATTR, COUNT1);
            a->stride = R500_FGET(attr, VAP_VTX_AOS_ATTR, STRIDE1);
            a->addr = s->regs[R500_REGA_AT(VAP_VTX_AOS_ADDR_ODD, k / 2) / 4];
        } else {
            a->size = R500_FGET(attr, VAP_VTX_AOS_ATTR, COUNT0);
            a->stride = R500_FGET(attr, VAP_VTX_AOS_ATTR, STRIDE0);
            a->addr = s->regs[R500_REGA_AT(VAP_VTX_AOS_ADDR_EVEN, k / 2) / 4];
        }
        a->addr &= ~3u;
    }
    return true;
}

static uint32_t index_dwords(const R500DrawCmd *cmd)
{
    return cmd->index32 ? cmd->num_vertices : (cmd->num_vertices + 1) / 2;
}

/*
 * A draw does at most what is left of the slice's budget; if it stops
 * there, the packet runs again in the next slice and the draw goes on
 * (pipe/draw.h), so no draw holds the main loop for more than a slice.
 */
static void draw_submit(R500Chip *s, R500DrawCmd *cmd)
{
    cmd->budget = r500_cp_budget_left(s);
    cmd->resume = s->cp.resume != 0;
    s->cp.cost += r500_3d_draw(s, cmd);
    if (r500_3d_draw_stopped(s)) {
        r500_cp_suspend(s, 1);
    }
}

/*
 * A draw packet: VAP_VF_CNTL, then the vertex data or indices it carries
 * (data, n dwords).  The walk must be the packet's (r300_packet3_check).
 */
static void p3_draw(R500Chip *s, unsigned op, uint32_t vf_cntl,
                    const uint32_t *data, uint32_t n)
{
    R500DrawCmd cmd = { .opcode = op, .vf_cntl = vf_cntl };
    uint32_t walk = R500_FGET(vf_cntl, VAP_VF_CNTL, PRIM_WALK);
    uint32_t want = (op == R500_PM4_OP_3D_DRAW_VBUF ||
                     op == R500_PM4_OP_3D_DRAW_VBUF_2) ? R500_DRAW_ARRAYS
                    : (op == R500_PM4_OP_3D_DRAW_IMMD ||
                       op == R500_PM4_OP_3D_DRAW_IMMD_2) ? R500_DRAW_EMBEDDED
                    : R500_DRAW_INDICES;

    if (s->cp.draw_pending) {
        s->cp.draw_pending = false;
        p3_error(s, s->cp.draw_pending_opcode,
                 "indexed draw without INDX_BUFFER before the next draw");
    }
    if (walk != want) {
        p3_error(s, op, "VAP_VF_CNTL.PRIM_WALK does not match the packet");
        return;
    }
    cmd.source = want;
    cmd.prim_type = R500_FGET(vf_cntl, VAP_VF_CNTL, PRIM_TYPE);
    cmd.index32 = R500_FGET(vf_cntl, VAP_VF_CNTL, INDEX_SIZE);
    cmd.num_vertices = R500_FGET(vf_cntl, VAP_VF_CNTL, USE_ALT_NUM_VERTS)
        ? R500_FGET(s->regs[R_VAP_ALT_NUM_VERTICES / 4],
                    VAP_ALT_NUM_VERTICES, NUM_VERTICES)
        : R500_FGET(vf_cntl, VAP_VF_CNTL, NUM_VERTICES);
    if (cmd.prim_type == 11) {
        p3_error(s, op, "reserved primitive type 11");
        return;
    }
    cmd.data = data;
    cmd.data_dwords = n;

    switch (want) {
    case R500_DRAW_EMBEDDED:
        cmd.vtx_size = R500_FGET(s->regs[R_VAP_VTX_SIZE / 4], VAP_VTX_SIZE,
                                 DWORDS);
        if (cmd.vtx_size == 0 ||
            (uint64_t)cmd.num_vertices * cmd.vtx_size != n) {
            p3_error(s, op, "vertex data does not match NUM_VERTICES x "
                     "VAP_VTX_SIZE");
            return;
        }
        break;
    case R500_DRAW_INDICES:
        if (n == 0) {
            /* Indices follow in an INDX_BUFFER packet (Mesa r300). */
            s->cp.draw_pending = true;
            s->cp.draw_pending_opcode = op;
            s->cp.draw_pending_vf_cntl = vf_cntl;
            return;
        }
        if (index_dwords(&cmd) > n) {
            p3_error(s, op, "fewer inline indices than NUM_VERTICES");
            return;
        }
        /* fall through */
    case R500_DRAW_ARRAYS:
        if (want == R500_DRAW_ARRAYS && n != 0) {
            p3_error(s, op, "unexpected payload after VAP_VF_CNTL");
            return;
        }
        if (!draw_arrays(s, &cmd)) {
            p3_error(s, op, "VAP_VTX_NUM_ARRAYS above 16");
            return;
        }
        if (want == R500_DRAW_ARRAYS && cmd.num_vertices) {
            for (uint32_t k = 0; k < cmd.num_arrays; k++) {
                const R500DrawArray *a = &cmd.arrays[k];
                uint64_t end = a->addr + 4ull *
                    ((uint64_t)(cmd.num_vertices - 1) * a->stride + a->size);

                if (end > (1ull << 32)) {
                    p3_error(s, op, "a vertex array runs past the 4 GiB MC "
                             "address space");
                    return;
                }
            }
        }
        break;
    }
    draw_submit(s, &cmd);
}

static void p3_indx_buffer(R500Chip *s, const uint32_t *pl, uint32_t n)
{
    R500DrawCmd cmd = { 0 };
    uint32_t dest, base, size;

    if (!r500_pm4_op_len_ok(R500_PM4_OP_INDX_BUFFER, n)) {
        p3_error(s, R500_PM4_OP_INDX_BUFFER, "payload is not 3 dwords");
        s->cp.draw_pending = false;
        return;
    }
    if (!s->cp.draw_pending) {
        p3_error(s, R500_PM4_OP_INDX_BUFFER,
                 "no indexed draw is waiting for indices");
        return;
    }
    s->cp.draw_pending = false;
    dest = R500_PM4_INDX_DEST(pl[0]);
    if (dest != R_VAP_PORT_IDX0 || R500_PM4_INDX_SKIP(pl[0])) {
        r500_unimp(s, "CP: INDX_BUFFER to register 0x%04x with skip %u (only "
                   "VAP_PORT_IDX0, skip 0 is modelled); skipped", dest,
                   R500_PM4_INDX_SKIP(pl[0]));
        return;
    }
    base = pl[1] & ~3u;
    size = pl[2];

    cmd.opcode = s->cp.draw_pending_opcode;
    cmd.vf_cntl = s->cp.draw_pending_vf_cntl;
    cmd.source = R500_DRAW_INDICES;
    cmd.prim_type = R500_FGET(cmd.vf_cntl, VAP_VF_CNTL, PRIM_TYPE);
    cmd.index32 = R500_FGET(cmd.vf_cntl, VAP_VF_CNTL, INDEX_SIZE);
    cmd.num_vertices = R500_FGET(cmd.vf_cntl, VAP_VF_CNTL, USE_ALT_NUM_VERTS)
        ? R500_FGET(s->regs[R_VAP_ALT_NUM_VERTICES / 4],
                    VAP_ALT_NUM_VERTICES, NUM_VERTICES)
        : R500_FGET(cmd.vf_cntl, VAP_VF_CNTL, NUM_VERTICES);
    if (index_dwords(&cmd) > size) {
        p3_error(s, R500_PM4_OP_INDX_BUFFER,
                 "BUFFER_SIZE is smaller than the draw's index count");
        return;
    }
    if ((uint64_t)base + 4ull * index_dwords(&cmd) > (1ull << 32)) {
        p3_error(s, R500_PM4_OP_INDX_BUFFER,
                 "the index buffer runs past the 4 GiB MC address space");
        return;
    }
    if (!draw_arrays(s, &cmd)) {
        p3_error(s, R500_PM4_OP_INDX_BUFFER, "VAP_VTX_NUM_ARRAYS above 16");
        return;
    }
    cmd.index_buffer = true;
    cmd.index_addr = base;
    cmd.index_dwords = index_dwords(&cmd);
    draw_submit(s, &cmd);
    if (s->cp.yielded) {
        s->cp.draw_pending = true;      /* the packet runs again */
    }
}

static void p3_load_vbpntr(R500Chip *s, const uint32_t *pl, uint32_t n)
{
    uint32_t num, need;

    if (n < 1) {
        p3_error(s, R500_PM4_OP_3D_LOAD_VBPNTR, "empty");
        return;
    }
    num = R500_FGET(pl[0], VAP_VTX_NUM_ARRAYS, NUM);
    if (num > R500_DRAW_MAX_ARRAYS) {
        p3_error(s, R500_PM4_OP_3D_LOAD_VBPNTR, "more than 16 arrays");
        return;
    }
    /* 1 + 3 per pair of arrays + 2 for an odd one (r100_packet3_load_vbpntr) */
    need = 1 + 3 * (num / 2) + 2 * (num % 2);
    if (n != need) {
        p3_error(s, R500_PM4_OP_3D_LOAD_VBPNTR,
                 "payload does not match the array count");
        return;
    }
    /* The payload is VAP_VTX_NUM_ARRAYS and the AOS registers, in order. */
    for (uint32_t i = 0; i < n; i++) {
        r500_reg_write(s, R_VAP_VTX_NUM_ARRAYS + 4 * i, pl[i]);
    }
}

static void p3_clear(R500Chip *s, unsigned op, const uint32_t *pl, uint32_t n)
{
    R500ClearCmd cmd = { .opcode = op };

    if (!r500_pm4_op_len_ok(op, n)) {
        p3_error(s, op, "payload is not START, COUNT, VALUE");
        return;
    }
    cmd.start = pl[0];
    cmd.count = pl[1];
    cmd.value = pl[2];
    s->cp.cost += r500_3d_clear(s, &cmd);
}

void r500_cp_packet3(R500Chip *s, const uint32_t *pkt, uint32_t dwords,
                     bool in_ib)
{
    unsigned op = R500_PM4_OPCODE(pkt[0]);
    const uint32_t *pl = pkt + 1;
    uint32_t n = dwords - 1;

    if (r500_pm4_op_has(op, R500_PM4_F_SYNC)) {
        /*
         * The 3D pipeline draws inside the packet: it waits for 2D work
         * queued before it (radeon sets ISYNC_ANY3D_IDLE2D), as the whole
         * GUI does for WAIT_FOR_IDLE.
         */
        if (r500_rb2d_busy(s) && r500_cp_stall(s, s->cp.resume)) {
            return;     /* (a split draw goes on where it stopped) */
        }
    }
    if (r500_pm4_op_has(op, R500_PM4_F_GMC)) {
        /* the 2D engine touches memory: the renderer's results first */
        r500_pipe_sync(s, R500_SYNC_2D);
    } else if (!r500_pm4_op_has(op, R500_PM4_F_PIPE) &&
               !r500_pipe_sync_ready(s, R500_SYNC_FENCE) &&
               r500_cp_stall(s, s->cp.resume)) {
        /* it may signal the end of the work: held or written back first */
        return;
    }
    s->cp.stats.type3[op] += !s->cp.resume;
    switch (op) {
    case R500_PM4_OP_NOP:
        /* Also the relocation markers Mesa leaves in IBs (reference 5.11). */
        return;
    case R500_PM4_OP_WAIT_FOR_IDLE:
        /* The 2D engine is idle (above); the 3D pipeline always is. */
        return;
    case R500_PM4_OP_3D_DRAW_VBUF:
    case R500_PM4_OP_3D_DRAW_IMMD:
    case R500_PM4_OP_3D_DRAW_INDX:
        /* Legacy forms: VAP_VTX_FMT (ignored on R500), then VAP_VF_CNTL. */
        if (!r500_pm4_op_len_ok(op, n)) {
            p3_error(s, op, "no VAP_VF_CNTL");
            return;
        }
        p3_draw(s, op, pl[1], pl + 2, n - 2);
        return;
    case R500_PM4_OP_3D_DRAW_VBUF_2:
    case R500_PM4_OP_3D_DRAW_IMMD_2:
    case R500_PM4_OP_3D_DRAW_INDX_2:
        p3_draw(s, op, pl[0], pl + 1, n - 1);
        return;
    case R500_PM4_OP_3D_LOAD_VBPNTR:
        p3_load_vbpntr(s, pl, n);
        return;
    case R500_PM4_OP_INDX_BUFFER:
        p3_indx_buffer(s, pl, n);
        return;
    case R500_PM4_OP_3D_CLEAR_ZMASK:
    case R500_PM4_OP_3D_CLEAR_HIZ:
    case R500_PM4_OP_3D_CLEAR_CMASK:
        p3_clear(s, op, pl, n);
        return;
    case R500_PM4_OP_CNTL_PAINT_MULTI:
    case R500_PM4_OP_CNTL_BITBLT_MULTI:
    case R500_PM4_OP_CNTL_HOSTDATA_BLT:
        p3_2d(s, op, pl, n);
        return;
    default:
        /* The others of pm4_ops.def are known but not implemented. */
        r500_cp_op_unimp(s, op, r500_pm4_op(op) != NULL);
        return;
    }
}
