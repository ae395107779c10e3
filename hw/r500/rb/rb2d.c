/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 2D engine (reference radeon-kms-r500.md 5.9; Linux radeon_reg.h;
 * xf86-video-ati radeon_exa_funcs.c and its XAA code; RadeonHD
 * r5xx_xaa.c; QEMU ati_2d.c for the register semantics).
 *
 * A write of DST_HEIGHT_WIDTH (or DST_WIDTH_HEIGHT) starts an operation
 * described by the other registers:
 *   DP_GUI_MASTER_CNTL  which pitch/offset and clip registers apply, write
 *                       mask enable; its datatype and mix fields are also
 *                       stored in DP_DATATYPE and DP_MIX, which the engine
 *                       reads (one source of truth for direct writes);
 *   DP_DATATYPE         destination format (bytes per pixel), brush type,
 *                       source type (colour, mono opaque, mono transparent);
 *   DP_MIX              ROP3 and source (memory rectangle or host data);
 *   DP_CNTL             X/Y direction: DST_Y_X and SRC_Y_X name the right/
 *                       bottom pixel when a direction is reversed;
 *   D/SRC_PITCH_OFFSET  surfaces: MC address >> 10, pitch / 64, and the
 *                       tile bits the kernel ORs in from the BO's tiling
 *                       (r100_reloc_pitch_offset: bit 30 macro, bit 31
 *                       micro, which it refuses for sources);
 *   SC_*                clip rectangle (right/bottom exclusive).
 * Each operation is validated once, in the trigger write, into a
 * descriptor: the rectangle is clipped (coordinates limited to 14 bits),
 * pitches must be non-zero and hold a row, and the destination and source
 * spans must lie in the 32-bit MC space.
 *
 * The descriptor is queued in the engine's command FIFO (64 entries,
 * RBBM_STATUS.CMDFIFO_AVAIL), as the hardware's FIFO holds the register
 * writes: the driver may program the next operation at once.  The block's
 * run() draws the FIFO in order, a band of whole rows per slice, within
 * R500_CP_SLICE_BUDGET units (docs/cp.md "2D engine"), so no guest action
 * holds the main loop for long.  A band wholly in VRAM is written directly
 * (pixman for fills, memmove for copies); any other goes row by row
 * through the MC, where each row is checked and a failure aborts the rest
 * of the operation.  A tiled surface is laid out as for every other block
 * (mem/tiling.h, docs/display.md "Tiled surfaces"): its rows go through
 * the MC in runs of consecutive addresses, and its span is whole rows of
 * tiles that the rectangle must not leave sideways.  Rows go in the
 * programmed Y order, so overlapping copies split across slices are
 * right (the drawing: rb2d_draw.c).  Host-data blits consume their
 * data pixel by pixel, in stream order (left to right, top to bottom);
 * HOST_DATA writes queue behind the operations before them.
 */
#include <glib.h>
#include <inttypes.h>
#include <pixman.h>
#include <string.h>

#include "rb2d_int.h"

typedef struct Blit {
    uint32_t bpp;
    uint32_t bpp_mask;
    uint32_t rop;
    uint32_t mask;
    bool need_s, need_d, need_p;
    bool host;                  /* source is host data */
    uint32_t src_type;
    uint32_t brush;
    uint32_t brush_fg, brush_bg;
    uint32_t pat[2];            /* 8x8 mono pattern, rows 0-3 and 4-7 */
    int32_t pat_x, pat_y;
    bool lsb_first;
    Surf dst, src;
    int64_t rx, ry;             /* the unclipped rectangle */
    uint32_t w, h;
    int64_t cl, ct, cr, cb;     /* clip */
    int64_t x0, y0, x1, y1;     /* clipped destination */
    int64_t sx0, sy0;           /* source pixel of (x0, y0) */
    bool ttb;
} Blit;

/* ---- Validation ---- */

static uint32_t dst_bpp(R500Chip *s, uint32_t type)
{
    switch (type) {
    case GMC_VAL(DST_DATATYPE, CI8):
    case GMC_VAL(DST_DATATYPE, RGB332):
    case GMC_VAL(DST_DATATYPE, Y8):
    case GMC_VAL(DST_DATATYPE, RGB8):
        return 1;
    case GMC_VAL(DST_DATATYPE, ARGB1555):
    case GMC_VAL(DST_DATATYPE, RGB565):
    case GMC_VAL(DST_DATATYPE, VYUY):
    case GMC_VAL(DST_DATATYPE, YVYU):
    case GMC_VAL(DST_DATATYPE, ARGB4444):
        return 2;
    case GMC_VAL(DST_DATATYPE, ARGB8888):
    case GMC_VAL(DST_DATATYPE, AYUV444):
        return 4;
    case GMC_VAL(DST_DATATYPE, RGB888):
        r500_unimp(s, "2D: 24 bpp destinations are not modelled; operation "
                   "dropped");
        return 0;
    default:
        r500_guest_error(s, "2D: destination datatype %u is reserved; "
                         "operation dropped", type);
        return 0;
    }
}

static Surf surf_decode(R500Chip *s, uint32_t po)
{
    Surf sf = {
        .base = (uint64_t)R500_FGET(po, DST_PITCH_OFFSET, OFFSET) << 10,
        .pitch = R500_FGET(po, DST_PITCH_OFFSET, PITCH) << 6,
        .tile = po & R500_RB2D_TILE_BITS,
    };

    return sf;
}

/* SC_TOP_LEFT / SC_BOTTOM_RIGHT halves: sign and 14-bit magnitude. */
static int64_t sc_coord(uint32_t v, bool hi)
{
    uint32_t half = hi ? v >> 16 : v & 0xFFFF;
    int64_t mag = half & 0x3FFF;

    return (half & 0x8000) ? -mag : mag;
}

static int64_t clamp_coord(int64_t v)
{
    return MIN(MAX(v, 0), R500_2D_COORD_MAX);
}

/* The surface span [first byte, last byte] of a w x h rectangle at (x, y). */
static bool span_ok(R500Chip *s, const char *what, const Surf *sf,
                    int64_t x, int64_t y, uint32_t w, uint32_t h,
                    uint32_t bpp)
{
    uint64_t first, last, off;

    if (sf->pitch == 0 || sf->pitch < (uint64_t)w * bpp) {
        r500_guest_error(s, "2D: %s pitch %u is %s for %u pixels of %u "
                         "bytes; operation dropped", what, sf->pitch,
                         sf->pitch ? "too short" : "zero", w, bpp);
        return false;
    }
    if (x < 0 || y < 0) {
        r500_guest_error(s, "2D: %s rectangle starts at negative (%" PRId64
                         ", %" PRId64 "); operation dropped", what, x, y);
        return false;
    }
    if (sf->tile) {
        /* Whole rows of tiles; no pixel beyond the laid-out row. */
        R500Surf t;

        surf_layout(&t, sf->base, sf->pitch | sf->tile, bpp);
        if ((uint64_t)x + w > r500_surf_row_pixels(&t)) {
            r500_guest_error(s, "2D: %s rectangle x %" PRId64 "..%" PRId64
                             " leaves the tiled surface's %u-pixel rows; "
                             "operation dropped", what, x, x + w - 1,
                             r500_surf_row_pixels(&t));
            return false;
        }
        first = sf->base + r500_surf_rows_bytes(&t, y + 1) - t.row_bytes;
        last = sf->base + r500_surf_rows_bytes(&t, y + h) - 1;
    } else {
        first = sf->base + (uint64_t)y * sf->pitch + (uint64_t)x * bpp;
        last = first + (uint64_t)(h - 1) * sf->pitch + (uint64_t)w * bpp - 1;
    }
    if (last > UINT32_MAX) {
        r500_guest_error(s, "2D: %s span 0x%" PRIx64 "..0x%" PRIx64 " leaves "
                         "the 32-bit MC space; operation dropped", what, first,
                         last);
        return false;
    }
    /*
     * A span is wholly in VRAM or wholly outside it: one that starts in
     * VRAM and runs off its end is dropped before a pixel is written.
     * Outside VRAM each row is translated (and checked) as it is drawn.
     */
    if (r500_mc_vram_span(s, first, 1, &off) !=
        r500_mc_vram_span(s, last, 1, &off)) {
        r500_guest_error(s, "2D: %s span 0x%" PRIx64 "..0x%" PRIx64 " crosses "
                         "the end of VRAM; operation dropped", what, first,
                         last);
        return false;
    }
    return true;
}

/* The brush a ROP3 with a pattern reads (DP_DATATYPE.BRUSH_DATATYPE). */
static bool blit_brush(R500Chip *s, Blit *b, uint32_t dt)
{
    const uint32_t *r = s->regs;

    b->brush = R500_FGET(dt, DP_DATATYPE, BRUSH_DATATYPE);
    b->brush_fg = r[R_DP_BRUSH_FRGD_CLR / 4] & b->bpp_mask;
    b->brush_bg = r[R_DP_BRUSH_BKGD_CLR / 4] & b->bpp_mask;
    if (b->need_p) {
        switch (b->brush) {
        case BRUSH_SOLID_COLOR:
            break;
        case BRUSH_8X8_MONO_FG_BG:
        case BRUSH_8X8_MONO_FG_LA:
            b->pat[0] = r[R500_REGA_AT(BRUSH_DATA, 0) / 4];
            b->pat[1] = r[R500_REGA_AT(BRUSH_DATA, 1) / 4];
            b->pat_x = R500_FGET(r[R_BRUSH_Y_X / 4], BRUSH_Y_X, X);
            b->pat_y = R500_FGET(r[R_BRUSH_Y_X / 4], BRUSH_Y_X, Y);
            b->need_d |= b->brush == BRUSH_8X8_MONO_FG_LA;
            break;
        case BRUSH_NONE:
            r500_guest_error(s, "2D: ROP3 0x%02x needs a pattern but the brush "
                             "is none; pattern taken as 0", b->rop);
            b->brush_fg = 0;
            b->brush = BRUSH_SOLID_COLOR;
            break;
        default:
            r500_unimp(s, "2D: brush type %u is not modelled (solid, none "
                       "and 8x8 mono are); operation dropped", b->brush);
            return false;
        }
    }
    return true;
}

/* Clip: SC_* with GMC_DST_CLIPPING, else 0,0 to the default corner. */
static void blit_clip(const uint32_t *r, uint32_t gmc, Blit *b)
{
    if (R500_FGET(gmc, DP_GUI_MASTER_CNTL, DST_CLIPPING)) {
        b->cl = sc_coord(r[R_SC_TOP_LEFT / 4], false);
        b->ct = sc_coord(r[R_SC_TOP_LEFT / 4], true);
        b->cr = sc_coord(r[R_SC_BOTTOM_RIGHT / 4], false);
        b->cb = sc_coord(r[R_SC_BOTTOM_RIGHT / 4], true);
    } else {
        uint32_t br = r[R_DEFAULT_SC_BOTTOM_RIGHT / 4];

        b->cr = R500_FGET(br, DEFAULT_SC_BOTTOM_RIGHT, RIGHT);
        b->cb = R500_FGET(br, DEFAULT_SC_BOTTOM_RIGHT, BOTTOM);
    }
    b->cl = clamp_coord(b->cl);
    b->ct = clamp_coord(b->ct);
    b->cr = clamp_coord(b->cr);
    b->cb = clamp_coord(b->cb);
}

static bool blit_setup(R500Chip *s, Blit *b)
{
    const uint32_t *r = s->regs;
    uint32_t gmc = r[R_DP_GUI_MASTER_CNTL / 4];
    uint32_t dt = r[R_DP_DATATYPE / 4];
    uint32_t mix = r[R_DP_MIX / 4];
    uint32_t hw = r[R_DST_HEIGHT_WIDTH / 4];
    uint32_t dyx = r[R_DST_Y_X / 4], syx = r[R_SRC_Y_X / 4];
    uint32_t source = R500_FGET(mix, DP_MIX, SRC_SOURCE);
    bool ltr, mem;

    memset(b, 0, sizeof(*b));
    b->bpp = dst_bpp(s, R500_FGET(dt, DP_DATATYPE, DST_DATATYPE));
    if (!b->bpp) {
        return false;
    }
    b->bpp_mask = b->bpp == 4 ? ~0u : (1u << (8 * b->bpp)) - 1;
    b->rop = R500_FGET(mix, DP_MIX, ROP3);
    b->mask = (R500_FGET(gmc, DP_GUI_MASTER_CNTL, WR_MSK_DIS)
               ? ~0u : r[R_DP_WRITE_MASK / 4]) & b->bpp_mask;
    b->need_s = ((b->rop >> 2) ^ b->rop) & 0x33;
    b->need_p = ((b->rop >> 4) ^ b->rop) & 0x0F;
    b->need_d = ((b->rop >> 1) ^ b->rop) & 0x55;
    b->src_type = R500_FGET(dt, DP_DATATYPE, SRC_DATATYPE);
    b->lsb_first = R500_FGET(dt, DP_DATATYPE, BYTE_PIX_ORDER);
    /* Host data is consumed even when the ROP ignores it. */
    b->host = source == SRC_SOURCE_HOST || source == SRC_SOURCE_HOST_BYTEALIGN;
    mem = b->need_s && source == SRC_SOURCE_MEMORY;

    if (b->need_s && !b->host && !mem) {
        r500_guest_error(s, "2D: ROP3 0x%02x needs a source but DP_SRC_SOURCE "
                         "is %u; operation dropped", b->rop, source);
        return false;
    }
    if ((b->need_s || b->host) && b->src_type == 2) {
        r500_guest_error(s, "2D: source datatype 2 is reserved; operation "
                         "dropped");
        return false;
    }
    if (mem && b->src_type != SRC_COLOR) {
        r500_unimp(s, "2D: mono sources in memory (screen-to-screen colour "
                   "expansion) are not modelled; operation dropped");
        return false;
    }

    if (!blit_brush(s, b, dt)) {
        return false;
    }
    if (!R500_FGET(gmc, DP_GUI_MASTER_CNTL, CLR_CMP_CNTL_DIS) &&
        r[R_CLR_CMP_CNTL / 4] &&
        r500_once(&s->rb2d.logged, R500_RB2D_LOG_CMP)) {
        r500_unimp(s, "2D: colour compare (CLR_CMP_CNTL 0x%08x) is not "
                   "modelled; pixels are always written",
                   r[R_CLR_CMP_CNTL / 4]);
    }

    b->dst = surf_decode(s, R500_FGET(gmc, DP_GUI_MASTER_CNTL,
                                      DST_PITCH_OFFSET_CNTL)
                         ? r[R_DST_PITCH_OFFSET / 4]
                         : r[R_DEFAULT_PITCH_OFFSET / 4]);
    if (mem) {
        b->src = surf_decode(s, R500_FGET(gmc, DP_GUI_MASTER_CNTL,
                                          SRC_PITCH_OFFSET_CNTL)
                             ? r[R_SRC_PITCH_OFFSET / 4]
                             : r[R_DEFAULT_PITCH_OFFSET / 4]);
    }

    blit_clip(r, gmc, b);

    /* The rectangle: 16-bit two's complement corner, 16-bit size. */
    b->w = R500_FGET(hw, DST_HEIGHT_WIDTH, WIDTH);
    b->h = R500_FGET(hw, DST_HEIGHT_WIDTH, HEIGHT);
    b->rx = (int16_t)R500_FGET(dyx, DST_Y_X, X);
    b->ry = (int16_t)R500_FGET(dyx, DST_Y_X, Y);
    b->sx0 = (int16_t)R500_FGET(syx, DST_Y_X, X);
    b->sy0 = (int16_t)R500_FGET(syx, DST_Y_X, Y);
    /*
     * Host data is always left to right, top to bottom (XAA leaves DP_CNTL
     * as its last copy set it).
     */
    ltr = b->host || R500_FGET(r[R_DP_CNTL / 4], DP_CNTL, DST_X_LEFT_TO_RIGHT);
    b->ttb = b->host || R500_FGET(r[R_DP_CNTL / 4], DP_CNTL,
                                  DST_Y_TOP_TO_BOTTOM);
    if (!ltr) {
        b->rx -= (int64_t)b->w - 1;
        b->sx0 -= (int64_t)b->w - 1;
    }
    if (!b->ttb) {
        b->ry -= (int64_t)b->h - 1;
        b->sy0 -= (int64_t)b->h - 1;
    }
    b->x0 = MAX(b->rx, b->cl);
    b->y0 = MAX(b->ry, b->ct);
    b->x1 = MIN(b->rx + b->w, b->cr);
    b->y1 = MIN(b->ry + b->h, b->cb);
    if (b->x1 <= b->x0 || b->y1 <= b->y0) {
        /* Nothing visible; a host blit must still consume its data. */
        b->x1 = b->x0;
        b->y1 = b->y0;
        return b->host && b->w && b->h;
    }
    b->sx0 += b->x0 - b->rx;
    b->sy0 += b->y0 - b->ry;

    if (!span_ok(s, "destination", &b->dst, b->x0, b->y0, b->x1 - b->x0,
                 b->y1 - b->y0, b->bpp)) {
        return false;
    }
    if (mem && !span_ok(s, "source", &b->src, b->sx0, b->sy0, b->x1 - b->x0,
                        b->y1 - b->y0, b->bpp)) {
        return false;
    }
    return true;
}


/* ---- The descriptor a trigger queues ---- */

static R500Rb2dCmd cmd_from_blit(R500Chip *s, const Blit *b)
{
    if (b->host) {
        /* The source colours are taken now, as the other registers. */
        return (R500Rb2dCmd) {
            .kind = R500_RB2D_CMD_HOST, .bpp = b->bpp, .rop = b->rop,
            .mask = b->mask,
            .fg = s->regs[R_DP_SRC_FRGD_CLR / 4] & b->bpp_mask,
            .bg = s->regs[R_DP_SRC_BKGD_CLR / 4] & b->bpp_mask,
            .src_type = b->src_type, .lsb_first = b->lsb_first,
            .dst_base = b->dst.base, .dst_pitch = b->dst.pitch | b->dst.tile,
            .x = b->rx, .y = b->ry, .w = b->w, .h = b->h,
            .x0 = b->x0, .y0 = b->y0, .x1 = b->x1, .y1 = b->y1,
        };
    }
    return (R500Rb2dCmd) {
        .kind = R500_RB2D_CMD_BLIT, .bpp = b->bpp, .rop = b->rop,
        .mask = b->mask, .brush = b->brush, .fg = b->brush_fg,
        .bg = b->brush_bg, .pat = { b->pat[0], b->pat[1] },
        .pat_x = b->pat_x, .pat_y = b->pat_y,
        .need_s = b->need_s, .need_d = b->need_d, .need_p = b->need_p,
        .lsb_first = b->lsb_first, .ttb = b->ttb,
        .dst_base = b->dst.base, .dst_pitch = b->dst.pitch | b->dst.tile,
        .src_base = b->src.base, .src_pitch = b->src.pitch | b->src.tile,
        .x0 = b->x0, .y0 = b->y0, .x1 = b->x1, .y1 = b->y1,
        .sx0 = b->sx0, .sy0 = b->sy0,
    };
}

/* ---- The command FIFO ---- */

/* An entry other than a BLIT: O(1) work. */
static void cmd_exec(R500Chip *s, const R500Rb2dCmd *c)
{
    switch (c->kind) {
    case R500_RB2D_CMD_HOST:
        r500_rb2d_host_arm(s, c);
        break;
    case R500_RB2D_CMD_DATA:
        r500_rb2d_host_data(s, c->data, c->last);
        break;
    default:
        r500_rb2d_host_cancel(s, "a new operation started");
        break;
    }
}

/*
 * The engine drained its FIFO: the GUI is idle unless the CP has work
 * (the CP raises GUI_IDLE then, when it drains), and a CP waiting for 2D
 * idle or FIFO room may go on.
 */
static void rb2d_drained(R500Chip *s)
{
    if (!(r500_reg_read(s, R_RBBM_STATUS) &
          R500_FMASK(RBBM_STATUS, GUI_ACTIVE))) {
        r500_irq_raise(s, R500_FMASK(GEN_INT_STATUS, GUI_IDLE));
    }
    r500_kick(s);
}

/* Work through the FIFO for at most budget units (a whole row more). */
static void rb2d_slice(R500Chip *s, uint64_t budget)
{
    R500Rb2d *e = &s->rb2d;
    uint64_t used = 0;

    if (!e->fifo_count) {
        return;
    }
    e->slices++;
    while (e->fifo_count && used < budget) {
        const R500Rb2dCmd *c = &e->fifo[e->fifo_head];
        bool done = true;

        if (c->kind == R500_RB2D_CMD_BLIT) {
            if (e->row == 0) {
                r500_rb2d_host_cancel(s, "a new operation started");
            }
            used += r500_rb2d_blit_band(s, c, budget - used, &done);
        } else {
            cmd_exec(s, c);
            used++;
        }
        if (done) {
            e->fifo_head = (e->fifo_head + 1) % R500_RB2D_FIFO_SIZE;
            e->fifo_count--;
            e->row = 0;
        }
    }
    if (!e->fifo_count) {
        rb2d_drained(s);
    }
}

static const char *cmd_name(uint32_t kind)
{
    switch (kind) {
    case R500_RB2D_CMD_BLIT:
        return "operation";
    case R500_RB2D_CMD_HOST:
        return "host-data blit";
    case R500_RB2D_CMD_DATA:
        return "HOST_DATA dword";
    default:
        return "trigger";
    }
}

/*
 * A trigger or HOST_DATA write.  With the FIFO empty, entries that cost
 * O(1) (starting a host-data blit, its data) are done at once; everything
 * else queues behind what is there, and run() draws it.  A driver waits
 * for RBBM_STATUS.CMDFIFO_AVAIL before writing (r100_rbbm_fifo_wait_for_
 * entry, RADEONWaitForFifo, radeon_fifo_wait), and the CP stops before it
 * would overfill the FIFO (r500_cp_yield()).  On a write to a full FIFO
 * the hardware stalls the bus until an entry drains: here the engine
 * works one slice inside the write, and if that frees no entry the write
 * is dropped, so no MMIO write costs more than a slice.
 */
static void fifo_submit(R500Chip *s, const R500Rb2dCmd *c)
{
    R500Rb2d *e = &s->rb2d;

    if (e->fifo_count == R500_RB2D_FIFO_SIZE) {
        rb2d_slice(s, R500_CP_SLICE_BUDGET);
        if (e->fifo_count == R500_RB2D_FIFO_SIZE) {
            e->overflows++;
            r500_guest_error(s, "2D: command FIFO full (%u entries) after a "
                             "slice of work; this %s is dropped (wait for "
                             "RBBM_STATUS.CMDFIFO_AVAIL)", R500_RB2D_FIFO_SIZE,
                             cmd_name(c->kind));
            return;
        }
    }
    if (!e->fifo_count && c->kind != R500_RB2D_CMD_BLIT) {
        cmd_exec(s, c);
        return;
    }
    e->fifo[(e->fifo_head + e->fifo_count) % R500_RB2D_FIFO_SIZE] = *c;
    if (e->fifo_count++ == 0) {
        r500_kick(s);
    }
}

static int64_t rb2d_run(R500Chip *s, int64_t now)
{
    rb2d_slice(s, R500_CP_SLICE_BUDGET);
    return s->rb2d.fifo_count ? now : INT64_MAX;
}

bool r500_rb2d_busy(R500Chip *s)
{
    return s->rb2d.fifo_count != 0;
}

uint32_t r500_rb2d_fifo_avail(R500Chip *s)
{
    return R500_RB2D_FIFO_SIZE - s->rb2d.fifo_count;
}

static uint32_t rb2d_busy_bits(R500Chip *s)
{
    return r500_rb2d_busy(s) ? R500_FMASK(RBBM_STATUS, E2_BUSY) |
                               R500_FMASK(RBBM_STATUS, RB2D_BUSY) : 0;
}

static void fifo_clear(R500Chip *s)
{
    s->rb2d.fifo_head = s->rb2d.fifo_count = s->rb2d.row = 0;
}

void r500_rb2d_soft_reset(R500Chip *s)
{
    /* the host-data blit whole, not only its flag (/regs/reset-whole) */
    s->rb2d.host_active = false;
    memset(&s->rb2d.host, 0, sizeof(s->rb2d.host));
    fifo_clear(s);
}

/* ---- Register hooks ---- */

static void rb2d_trigger(R500Chip *s)
{
    R500Rb2dCmd c = { .kind = R500_RB2D_CMD_END };
    Blit b;

    s->rb2d.ops++;
    if (blit_setup(s, &b)) {
        c = cmd_from_blit(s, &b);
    }
    fifo_submit(s, &c);
}

static void dst_height_width_write(R500Chip *s, uint32_t reg, uint32_t old,
                                   uint32_t mask)
{
    rb2d_trigger(s);
}

static uint32_t swap_halves(uint32_t v)
{
    return (v << 16) | (v >> 16);
}

/* The X_Y / WIDTH_HEIGHT aliases store into the Y_X / HEIGHT_WIDTH form. */
static void alias_write(R500Chip *s, uint32_t reg, uint32_t old,
                        uint32_t mask)
{
    uint32_t v = swap_halves(s->regs[reg / 4]);

    switch (reg) {
    case R_SRC_X_Y:
        s->regs[R_SRC_Y_X / 4] = v;
        break;
    case R_DST_X_Y:
        s->regs[R_DST_Y_X / 4] = v;
        break;
    case R_DST_WIDTH_HEIGHT:
        s->regs[R_DST_HEIGHT_WIDTH / 4] = v;
        rb2d_trigger(s);
        break;
    }
}

/* DP_GUI_MASTER_CNTL also loads DP_DATATYPE and DP_MIX (QEMU ati.c). */
static void gmc_write(R500Chip *s, uint32_t reg, uint32_t old, uint32_t mask)
{
    uint32_t g = s->regs[reg / 4];
    uint32_t *dt = &s->regs[R_DP_DATATYPE / 4];
    uint32_t *mix = &s->regs[R_DP_MIX / 4];

    *dt = R500_FSET(*dt, DP_DATATYPE, DST_DATATYPE,
                    R500_FGET(g, DP_GUI_MASTER_CNTL, DST_DATATYPE));
    *dt = R500_FSET(*dt, DP_DATATYPE, BRUSH_DATATYPE,
                    R500_FGET(g, DP_GUI_MASTER_CNTL, BRUSH_DATATYPE));
    *dt = R500_FSET(*dt, DP_DATATYPE, SRC_DATATYPE,
                    R500_FGET(g, DP_GUI_MASTER_CNTL, SRC_DATATYPE));
    *dt = R500_FSET(*dt, DP_DATATYPE, BYTE_PIX_ORDER,
                    R500_FGET(g, DP_GUI_MASTER_CNTL, BYTE_PIX_ORDER));
    *mix = R500_FSET(*mix, DP_MIX, ROP3,
                     R500_FGET(g, DP_GUI_MASTER_CNTL, ROP3));
    *mix = R500_FSET(*mix, DP_MIX, SRC_SOURCE,
                     R500_FGET(g, DP_GUI_MASTER_CNTL, SRC_SOURCE));
}

static void host_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    R500Rb2dCmd c = {
        .kind = R500_RB2D_CMD_DATA, .data = s->regs[reg / 4],
        .last = reg == R_HOST_DATA_LAST,
    };

    fifo_submit(s, &c);
}

/*
 * The destination cache is not modelled: a flush is done when the engine
 * has drawn what is queued, so the cache reads busy while it works
 * (RADEONEngineFlush and radeonfb poll RB2D_DC_BUSY after a flush).
 */
static uint32_t dstcache_read(R500Chip *s, uint32_t reg)
{
    uint32_t busy = R500_FMASK(DSTCACHE_CTLSTAT, RB2D_DC_BUSY);

    return (s->regs[reg / 4] & ~busy) | (r500_rb2d_busy(s) ? busy : 0);
}

static void guicntl_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    if (R500_FGET(s->regs[reg / 4], RBBM_GUICNTL, HOST_DATA_SWAP) &&
        r500_once(&s->rb2d.logged, R500_RB2D_LOG_SWAP)) {
        r500_unimp(s, "2D: host data byte swapping (RBBM_GUICNTL 0x%08x) is "
                   "not modelled", s->regs[reg / 4]);
    }
}

static void rb2d_unimp_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    char name[48];

    if (r500_once(&s->rb2d.logged, R500_RB2D_LOG_UNIMP)) {
        r500_unimp(s, "2D: %s (and lines, separate offset/pitch registers) "
                   "are stored but have no effect",
                   r500_reg_name(reg, name, sizeof(name)));
    }
}

static const R500RegHook rb2d_hooks[] = {
    { R_DST_OFFSET, R_DST_PITCH, NULL, rb2d_unimp_write },
    { R_SRC_OFFSET, R_SRC_PITCH, NULL, rb2d_unimp_write },
    { R_DST_LINE_END, R_DST_LINE_END, NULL, rb2d_unimp_write },
    { R_DST_HEIGHT_WIDTH, R_DST_HEIGHT_WIDTH, NULL, dst_height_width_write },
    { R_DP_GUI_MASTER_CNTL, R_DP_GUI_MASTER_CNTL, NULL, gmc_write },
    { R_SRC_X_Y, R_DST_WIDTH_HEIGHT, NULL, alias_write },
    { R_HOST_DATA, R_HOST_DATA_LAST, NULL, host_data_write },
    { R_DSTCACHE_CTLSTAT, R_DSTCACHE_CTLSTAT, dstcache_read, NULL },
    { R_RB2D_DSTCACHE_CTLSTAT, R_RB2D_DSTCACHE_CTLSTAT, dstcache_read, NULL },
    { R_RBBM_GUICNTL, R_RBBM_GUICNTL, NULL, guicntl_write },
    { 0 }
};

/*
 * Reset values are not documented; these let an unprogrammed engine draw
 * (no clipping below 8191, all planes, left to right, top to bottom).
 */
static void rb2d_reset(R500Chip *s)
{
    r500_rb2d_soft_reset(s);
    s->rb2d.work = 0;
    s->regs[R_DEFAULT_SC_BOTTOM_RIGHT / 4] =
        R500_FSET(R500_FSET(0, DEFAULT_SC_BOTTOM_RIGHT, RIGHT, 0x1FFF),
                  DEFAULT_SC_BOTTOM_RIGHT, BOTTOM, 0x1FFF);
    s->regs[R_DP_WRITE_MASK / 4] = ~0u;
    s->regs[R_DP_CNTL / 4] = R500_FMASK(DP_CNTL, DST_X_LEFT_TO_RIGHT) |
                             R500_FMASK(DP_CNTL, DST_Y_TOP_TO_BOTTOM);
}

/* ---- Migration: what was loaded is checked, never trusted ---- */

/* A queued pitch: bytes (tile bits aside) that hold a row. */
static bool pitch_ok(uint32_t pitch, uint32_t bytes)
{
    uint32_t b = pitch & ~R500_RB2D_TILE_BITS;

    return b && b % 64 == 0 && b <= R500_2D_ROW_BYTES && bytes <= b;
}

static bool coords_ok(int32_t a, int32_t b)
{
    return a >= 0 && a < b && b <= R500_2D_COORD_MAX;
}

/*
 * What drawing relies on: the row buffers hold a row, pixman's stride is
 * whole words, bpp is one of three; addresses are checked as they are
 * used (VRAM spans, the MC), so any base or origin is safe.
 */
static bool cmd_sane(const R500Rb2dCmd *c)
{
    bool bpp_ok = c->bpp == 1 || c->bpp == 2 || c->bpp == 4;
    uint32_t bytes;

    switch (c->kind) {
    case R500_RB2D_CMD_BLIT:
        if (!bpp_ok || !coords_ok(c->x0, c->x1) || !coords_ok(c->y0, c->y1)) {
            return false;
        }
        bytes = (uint32_t)(c->x1 - c->x0) * c->bpp;
        return pitch_ok(c->dst_pitch, bytes) &&
               (!c->need_s || (pitch_ok(c->src_pitch, bytes) &&
                               c->sx0 >= 0 && c->sy0 >= 0));
    case R500_RB2D_CMD_HOST:
        return bpp_ok && c->w && c->h && c->w <= 0xFFFF && c->h <= 0xFFFF;
    case R500_RB2D_CMD_DATA:
    case R500_RB2D_CMD_END:
        return true;
    default:
        return false;
    }
}

static bool fifo_sane(R500Chip *s)
{
    R500Rb2d *e = &s->rb2d;
    const R500Rb2dCmd *head = &e->fifo[e->fifo_head % R500_RB2D_FIFO_SIZE];

    if (e->fifo_head >= R500_RB2D_FIFO_SIZE ||
        e->fifo_count > R500_RB2D_FIFO_SIZE) {
        return false;
    }
    for (uint32_t i = 0; i < e->fifo_count; i++) {
        if (!cmd_sane(&e->fifo[(e->fifo_head + i) % R500_RB2D_FIFO_SIZE])) {
            return false;
        }
    }
    /* Rows drawn: of the head BLIT, fewer than it has. */
    return e->row == 0 ||
           (e->fifo_count && head->kind == R500_RB2D_CMD_BLIT &&
            e->row < (uint32_t)(head->y1 - head->y0));
}

static void rb2d_post_load(R500Chip *s)
{
    const R500HostBlit *hb = &s->rb2d.host;

    if (s->rb2d.host_active &&
        ((hb->bpp != 1 && hb->bpp != 2 && hb->bpp != 4) ||
         hb->w > 0xFFFF || hb->h > 0xFFFF || hb->cx >= hb->w ||
         hb->cy >= hb->h)) {
        s->rb2d.host_active = false;
        r500_guest_error(s, "2D: migrated host-data blit state is "
                         "inconsistent; dropped");
    }
    if (!fifo_sane(s)) {
        r500_guest_error(s, "2D: migrated command FIFO (%u entries from %u, "
                         "row %u) is inconsistent; dropped",
                         s->rb2d.fifo_count, s->rb2d.fifo_head, s->rb2d.row);
        fifo_clear(s);
    }
}

const R500Block r500_rb2d_block = {
    .name = "rb2d",
    .hooks = rb2d_hooks,
    .reset = rb2d_reset,
    .run = rb2d_run,
    .post_load = rb2d_post_load,
    .busy = rb2d_busy_bits,
};
