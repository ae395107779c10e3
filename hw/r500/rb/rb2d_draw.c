/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 2D engine's drawing (rb2d.c says the whole): pixels and the ROP3,
 * a band of whole rows of a BLIT (pixman fills and memmove copies where
 * the band lies in VRAM, row by row through the MC elsewhere), and the
 * host data a host-data blit consumes pixel by pixel.
 */
#include <glib.h>
#include <inttypes.h>
#include <pixman.h>
#include <string.h>

#include "rb2d_int.h"

/* ---- Pixels and ROP3 ---- */

static uint32_t px_load(const uint8_t *p, uint32_t bpp)
{
    uint32_t v = 0;

    memcpy(&v, p, bpp);
    return GUINT32_FROM_LE(v);
}

static void px_store(uint8_t *p, uint32_t bpp, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(p, &v, bpp);
}

/* ROP3: bit (P << 2 | S << 1 | D) of rop is the result (0xCC = S). */
static uint32_t rop3(uint32_t rop, uint32_t p, uint32_t s, uint32_t d)
{
    uint32_t r = 0;

    switch (rop) {
    case 0x00:
        return 0;
    case 0xFF:
        return ~0u;
    case 0xCC:
        return s;
    case 0xF0:
        return p;
    case 0xAA:
        return d;
    case 0x66:
        return s ^ d;
    case 0x5A:
        return p ^ d;
    case 0x88:
        return s & d;
    case 0xEE:
        return s | d;
    }
    for (unsigned i = 0; i < 8; i++) {
        if (rop & (1u << i)) {
            r |= ((i & 4) ? p : ~p) & ((i & 2) ? s : ~s) & ((i & 1) ? d : ~d);
        }
    }
    return r;
}

/* ---- Drawing ---- */

/* The pattern at (x, y); false where a transparent pattern leaves D. */
static bool pattern(const R500Rb2dCmd *c, int64_t x, int64_t y, uint32_t *p)
{
    uint32_t row, col, byte, bit;

    if (c->brush != BRUSH_8X8_MONO_FG_BG && c->brush != BRUSH_8X8_MONO_FG_LA) {
        *p = c->fg;
        return true;
    }
    /* Screen-aligned 8x8, origin at BRUSH_Y_X (XAA SCREEN_ORIGIN). */
    row = (uint32_t)(y - c->pat_y) & 7;
    col = (uint32_t)(x - c->pat_x) & 7;
    byte = (c->pat[row / 4] >> (8 * (row % 4))) & 0xFF;
    bit = c->lsb_first ? (byte >> col) & 1 : (byte >> (7 - col)) & 1;
    if (bit) {
        *p = c->fg;
    } else if (c->brush == BRUSH_8X8_MONO_FG_BG) {
        *p = c->bg;
    } else {
        return false;
    }
    return true;
}

/* Rows y0..y0+h-1 from VRAM offset off (span-checked): a solid fill. */
static void fill_vram(R500Chip *s, const R500Rb2dCmd *c, uint64_t off,
                      uint32_t h, uint32_t v)
{
    uint32_t w = c->x1 - c->x0;
    uint32_t *bits = (uint32_t *)(s->vram + (off & ~3ull));

    /* pixman needs a dword-aligned start; pitches are multiples of 64. */
    if (!pixman_fill(bits, c->dst_pitch / 4, c->bpp * 8,
                     (off & 3) / c->bpp, 0, w, h, v)) {
        for (uint32_t y = 0; y < h; y++) {
            uint8_t *row = s->vram + off + (uint64_t)y * c->dst_pitch;

            for (uint32_t x = 0; x < w; x++) {
                px_store(row + x * c->bpp, c->bpp, v);
            }
        }
    }
}

/* A pixel value repeated over 32 bits. */
static uint32_t replicate(uint32_t v, uint32_t bpp)
{
    return bpp == 1 ? (v & 0xFF) * 0x01010101u
         : bpp == 2 ? (v & 0xFFFF) * 0x00010001u : v;
}

static uint32_t ld32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

#define ROP_ROW(expr)                                                   \
    for (uint32_t i = 0; i < bytes; i += 4) {                          \
        uint32_t S = ld32(src + i), D = ld32(dst + i), v = (expr);     \
        (void)S;                                                       \
        v = (v & mask) | (D & ~mask);                                  \
        memcpy(dst + i, &v, 4);                                        \
    }

/*
 * ROP3 and write mask over a row with a solid pattern P, 32 bits at a
 * time: bitwise operations do not care where pixels start, so every bpp
 * works on whole words (P and the mask replicated).  The buffers hold a
 * whole number of words; bytes past the row are computed, not stored.
 */
static void rop_row(uint32_t rop, uint32_t P, const uint8_t *src,
                    uint8_t *dst, uint32_t bytes, uint32_t mask)
{
    switch (rop) {
    case 0x00:
        ROP_ROW(0);
        break;
    case 0x11:
        ROP_ROW(~(S | D));
        break;
    case 0x22:
        ROP_ROW(~S & D);
        break;
    case 0x33:
        ROP_ROW(~S);
        break;
    case 0x44:
        ROP_ROW(S & ~D);
        break;
    case 0x55:
        ROP_ROW(~D);
        break;
    case 0x5A:
        ROP_ROW(P ^ D);
        break;
    case 0x66:
        ROP_ROW(S ^ D);
        break;
    case 0x77:
        ROP_ROW(~(S & D));
        break;
    case 0x88:
        ROP_ROW(S & D);
        break;
    case 0x99:
        ROP_ROW(~(S ^ D));
        break;
    case 0xA0:
        ROP_ROW(P & D);
        break;
    case 0xAA:
        ROP_ROW(D);
        break;
    case 0xBB:
        ROP_ROW(~S | D);
        break;
    case 0xCC:
        ROP_ROW(S);
        break;
    case 0xDD:
        ROP_ROW(S | ~D);
        break;
    case 0xEE:
        ROP_ROW(S | D);
        break;
    case 0xF0:
        ROP_ROW(P);
        break;
    case 0xFA:
        ROP_ROW(P | D);
        break;
    case 0xFF:
        ROP_ROW(~0u);
        break;
    default:
        ROP_ROW(rop3(rop, P, S, D));
        break;
    }
}

/* 8x8 mono patterns: pixel by pixel. */
static void pattern_row(const R500Rb2dCmd *c, int64_t y, const uint8_t *src,
                        uint8_t *dst, uint32_t w)
{
    for (uint32_t x = 0; x < w; x++) {
        uint8_t *dp = dst + x * c->bpp;
        uint32_t d = px_load(dp, c->bpp);
        uint32_t sv = c->need_s ? px_load(src + x * c->bpp, c->bpp) : 0;
        uint32_t p, v;

        if (pattern(c, c->x0 + x, y, &p)) {
            v = rop3(c->rop, p, sv, d);
            px_store(dp, c->bpp, (v & c->mask) | (d & ~c->mask));
        }
    }
}

static uint64_t dst_addr(const R500Rb2dCmd *c, int64_t y)
{
    return c->dst_base + (uint64_t)y * c->dst_pitch +
           (uint64_t)c->x0 * c->bpp;
}

static uint64_t src_addr(const R500Rb2dCmd *c, int64_t y)
{
    return c->src_base + (uint64_t)(c->sy0 + (y - c->y0)) * c->src_pitch +
           (uint64_t)c->sx0 * c->bpp;
}

/*
 * A surface as a band of rows is drawn: its layout and, when the bytes of
 * the band lie wholly in VRAM, where (else every run goes through the MC).
 */
typedef struct SurfIO {
    R500Surf sf;
    bool direct;
    uint64_t first, len;    /* the band's bytes, from base */
    uint64_t voff;          /* VRAM offset of base + first, when direct */
} SurfIO;

/*
 * Rows [ya, yb) of pixels [x, x + w): whole tile rows of a tiled surface
 * (pixels right of the laid-out row, which validation rejects, are never
 * direct), first to last byte of a linear one.
 */
static void surf_io_band(R500Chip *s, SurfIO *io, uint64_t base,
                         uint32_t pitch, uint32_t bpp, int64_t x, uint32_t w,
                         int64_t ya, int64_t yb)
{
    surf_layout(&io->sf, base, pitch, bpp);
    io->direct = false;
    if (pitch & R500_RB2D_TILE_BITS) {
        if (x + w > r500_surf_row_pixels(&io->sf)) {
            return;
        }
        io->first = r500_surf_rows_bytes(&io->sf, ya + 1) - io->sf.row_bytes;
        io->len = r500_surf_rows_bytes(&io->sf, yb) - io->first;
    } else {
        io->first = (uint64_t)ya * io->sf.row_bytes + (uint64_t)x * bpp;
        io->len = (uint64_t)(yb - ya - 1) * io->sf.row_bytes +
                  (uint64_t)w * bpp;
    }
    io->direct = r500_mc_vram_span(s, base + io->first, io->len, &io->voff);
}

/*
 * n pixels of row y from x of a surface, to or from buf: one access for a
 * linear row, one per run of consecutive addresses for a tiled one, each
 * straight to VRAM when the band is there and the run inside it, else
 * through the MC (checked).
 */
static bool surf_rw(R500Chip *s, const SurfIO *io, int64_t x, int64_t y,
                    uint8_t *buf, uint32_t n, bool write)
{
    uint32_t bpp = io->sf.bpp;

    for (uint32_t i = 0; i < n;) {
        uint32_t k = r500_surf_run(&io->sf, x + i, n - i);
        uint64_t o = r500_surf_offset(&io->sf, x + i, y);
        uint8_t *b = buf + i * bpp;
        bool ok = true;

        if (io->direct && o >= io->first && o - io->first <= io->len &&
            (uint64_t)k * bpp <= io->len - (o - io->first)) {
            uint8_t *p = s->vram + io->voff + (o - io->first);

            memcpy(write ? p : b, write ? b : p, (size_t)k * bpp);
        } else if (write) {
            ok = r500_mem_write(s, io->sf.base + o, b, (uint64_t)k * bpp);
        } else {
            ok = r500_mem_read(s, io->sf.base + o, b, (uint64_t)k * bpp);
        }
        if (!ok) {
            return false;
        }
        i += k;
    }
    return true;
}

/* A row's result depends on the destination's pixels. */
static bool row_reads_dst(const R500Rb2dCmd *c)
{
    return c->need_d || c->mask != bpp_mask(c->bpp) ||
           (c->need_p && c->brush != BRUSH_SOLID_COLOR);
}

/*
 * One row; dst and src are the surfaces of the band.  again: the row
 * buffer already holds this row's result (a fill: every row is the same).
 * A plain copy reads the source straight into the result.
 */
static bool draw_row(R500Chip *s, const R500Rb2dCmd *c, const SurfIO *dsf,
                     const SurfIO *ssf, int64_t y, bool again)
{
    R500Rb2d *e = &s->rb2d;
    uint32_t w = c->x1 - c->x0, bytes = w * c->bpp;
    bool mono_pat = c->need_p && c->brush != BRUSH_SOLID_COLOR;
    bool read_d = row_reads_dst(c);
    bool copy = c->rop == ROP_SRCCOPY && !read_d;

    if (!again) {
        if (c->need_s && !surf_rw(s, ssf, c->sx0, c->sy0 + (y - c->y0),
                                  copy ? e->row_dst : e->row_src, w, false)) {
            return false;
        }
        if (read_d && !surf_rw(s, dsf, c->x0, y, e->row_dst, w, false)) {
            return false;
        }
        if (mono_pat) {
            pattern_row(c, y, e->row_src, e->row_dst, w);
        } else if (!copy) {
            rop_row(c->rop, replicate(c->fg, c->bpp), e->row_src, e->row_dst,
                    bytes, replicate(c->mask, c->bpp));
        }
    }
    return surf_rw(s, dsf, c->x0, y, e->row_dst, w, true);
}

typedef enum BlitPath {
    PATH_FILL,      /* solid fill of a VRAM span: pixman */
    PATH_COPY,      /* SRCCOPY between VRAM spans: memmove per row */
    PATH_ROWS,      /* anything else (and tiled surfaces): row by row */
} BlitPath;

/*
 * Budget units a row costs, so that a slice of R500_CP_SLICE_BUDGET units
 * takes about as long as a CP slice (about 1 ms; docs/cp.md has the
 * figures): fills and copies move about 32 bytes per unit, rows through
 * the MC (read, ROP3, write) 16, mono patterns go pixel by pixel.
 */
static uint64_t row_cost(const R500Rb2dCmd *c, BlitPath path)
{
    uint32_t w = c->x1 - c->x0, bytes = w * c->bpp;

    switch (path) {
    case PATH_FILL:
    case PATH_COPY:
        return 1 + bytes / 32;
    default:
        return 1 + bytes / 16 +
               (c->need_p && c->brush != BRUSH_SOLID_COLOR ? 2ull * w : 0);
    }
}

/*
 * The path for rows [ra, rb): wholly in VRAM (checked now, whatever the
 * MC did since the trigger) or through the MC.
 */
static BlitPath blit_path(R500Chip *s, const R500Rb2dCmd *c, int64_t ra,
                          int64_t rb, uint64_t *doff, uint64_t *soff)
{
    uint64_t bytes = (uint64_t)(c->x1 - c->x0) * c->bpp;
    bool solid = !c->need_p || c->brush == BRUSH_SOLID_COLOR;

    if (c->mask != bpp_mask(c->bpp) || (c->dst_pitch & R500_RB2D_TILE_BITS) ||
        (c->need_s && (c->src_pitch & R500_RB2D_TILE_BITS)) ||
        !r500_mc_vram_span(s, dst_addr(c, ra),
                           (uint64_t)(rb - ra - 1) * c->dst_pitch + bytes,
                           doff)) {
        return PATH_ROWS;
    }
    if (!c->need_s && !c->need_d && solid) {
        return PATH_FILL;
    }
    if (c->rop == ROP_SRCCOPY &&
        r500_mc_vram_span(s, src_addr(c, ra),
                          (uint64_t)(rb - ra - 1) * c->src_pitch + bytes,
                          soff)) {
        return PATH_COPY;
    }
    return PATH_ROWS;
}

/*
 * Draw the next band of whole rows of the BLIT at the head of the FIFO,
 * as many as avail budget units pay for (at least one), in the programmed
 * Y order: top to bottom, rows [y0 + row, y1) remain; bottom to top,
 * rows [y0, y1 - row).  Returns the units spent; *done when the operation
 * is finished or was stopped by a failed access.
 */
uint64_t r500_rb2d_blit_band(R500Chip *s, const R500Rb2dCmd *c, uint64_t avail,
                             bool *done)
{
    R500Rb2d *e = &s->rb2d;
    uint32_t w = c->x1 - c->x0, h = c->y1 - c->y0;
    int64_t ra = c->ttb ? c->y0 + e->row : c->y0;
    int64_t rb = c->ttb ? c->y1 : c->y1 - e->row;
    uint64_t doff = 0, soff = 0, cost, n;
    BlitPath path = blit_path(s, c, ra, rb, &doff, &soff);
    int64_t ba, bb;
    SurfIO dio, sio;

    cost = row_cost(c, path);
    n = MIN((uint64_t)(rb - ra), MAX(avail / cost, 1));
    /* The band [ba, bb); doff and soff move to its first row. */
    ba = c->ttb ? ra : rb - (int64_t)n;
    bb = ba + (int64_t)n;
    doff += (uint64_t)(ba - ra) * c->dst_pitch;
    soff += (uint64_t)(ba - ra) * c->src_pitch;
    /*
     * The engine looks at the band's rows in VRAM: what the 3D renderer
     * holds there goes back first (r500_vram_release; through the MC
     * every access does that itself).  The 2D engine is started by
     * register writes too (MMIO, type-0 packets), which sync nothing.
     */
    surf_io_band(s, &dio, c->dst_base, c->dst_pitch, c->bpp, c->x0, w, ba, bb);
    if (dio.direct) {
        r500_vram_release(s, dio.voff, dio.len);
    }
    if (c->need_s) {
        surf_io_band(s, &sio, c->src_base, c->src_pitch, c->bpp, c->sx0, w,
                     c->sy0 + (ba - c->y0), c->sy0 + (bb - c->y0));
        if (sio.direct) {
            r500_vram_release(s, sio.voff, sio.len);
        }
    }

    switch (path) {
    case PATH_FILL:
        fill_vram(s, c, doff, n, rop3(c->rop, c->fg, 0, 0) & bpp_mask(c->bpp));
        r500_vram_dirty(s, doff, (n - 1) * c->dst_pitch + (uint64_t)w * c->bpp);
        break;
    case PATH_COPY:
        /* memmove makes either X order right. */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = c->ttb ? i : n - 1 - i;

            memmove(s->vram + doff + k * c->dst_pitch,
                    s->vram + soff + k * c->src_pitch, (size_t)w * c->bpp);
        }
        r500_vram_dirty(s, doff, (n - 1) * c->dst_pitch + (uint64_t)w * c->bpp);
        break;
    case PATH_ROWS:
        surf_io_band(s, &dio, c->dst_base, c->dst_pitch, c->bpp, c->x0, w,
                     ba, bb);
        surf_io_band(s, &sio, c->src_base, c->src_pitch, c->bpp, c->sx0, w,
                     c->sy0 + (ba - c->y0), c->sy0 + (bb - c->y0));
        for (uint64_t i = 0; i < n; i++) {
            if (!draw_row(s, c, &dio, &sio,
                          c->ttb ? ba + (int64_t)i : bb - 1 - (int64_t)i,
                          i > 0 && !c->need_s && !row_reads_dst(c))) {
                r500_guest_error(s, "2D: memory access failed; the rest of "
                                 "the %ux%u operation is dropped", w, h);
                if (dio.direct) {
                    r500_vram_dirty(s, dio.voff, dio.len);
                }
                *done = true;
                return (i + 1) * cost;
            }
        }
        if (dio.direct) {
            r500_vram_dirty(s, dio.voff, dio.len);
        }
        break;
    }
    e->row += n;
    e->work += (uint64_t)w * n;
    *done = e->row >= h;
    return n * cost;
}

/* ---- Host data ---- */

void r500_rb2d_host_cancel(R500Chip *s, const char *why)
{
    R500HostBlit *hb = &s->rb2d.host;

    if (s->rb2d.host_active) {
        s->rb2d.host_active = false;
        r500_guest_error(s, "2D: host-data blit %ux%u stopped after %u of its "
                         "rows: %s", hb->w, hb->h, hb->cy, why);
    }
}

void r500_rb2d_host_arm(R500Chip *s, const R500Rb2dCmd *c)
{
    R500HostBlit *hb = &s->rb2d.host;

    r500_rb2d_host_cancel(s, "a new operation started");
    *hb = (R500HostBlit) {
        .base = c->dst_base, .pitch = c->dst_pitch, .bpp = c->bpp,
        .x = c->x, .y = c->y, .w = c->w, .h = c->h,
        .cl = c->x0, .ct = c->y0, .cr = c->x1, .cb = c->y1,
        .rop = c->rop, .mask = c->mask, .fg = c->fg, .bg = c->bg,
        .src_type = c->src_type, .lsb_first = c->lsb_first,
    };
    s->rb2d.host_active = true;
    s->rb2d.logged &= ~R500_RB2D_LOG_STRAY;
}

/* Apply n stream pixels of one row, starting at (x, y), to memory. */
static bool host_segment(R500Chip *s, const R500HostBlit *hb, int64_t x,
                         int64_t y, const uint32_t *sv, const bool *opaque,
                         uint32_t n)
{
    uint8_t buf[32 * 4];
    SurfIO sf = { .direct = false };

    surf_layout(&sf.sf, hb->base, hb->pitch, hb->bpp);
    if (!surf_rw(s, &sf, x, y, buf, n, false)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = px_load(buf + i * hb->bpp, hb->bpp);
        uint32_t v = rop3(hb->rop, 0, sv[i], d);

        if (opaque[i]) {
            px_store(buf + i * hb->bpp, hb->bpp,
                     (v & hb->mask) | (d & ~hb->mask));
        }
    }
    s->rb2d.work += n;
    return surf_rw(s, &sf, x, y, buf, n, true);
}

void r500_rb2d_host_data(R500Chip *s, uint32_t v, bool last)
{
    R500Rb2d *e = &s->rb2d;
    R500HostBlit *hb = &e->host;
    bool mono = hb->src_type != SRC_COLOR;
    uint32_t per = mono ? 32 : 4 / hb->bpp;
    uint32_t sv[32];
    bool opaque[32];
    uint32_t n = 0;
    int64_t seg_x = 0, seg_y = 0;

    if (!e->host_active) {
        if (r500_once(&e->logged, R500_RB2D_LOG_STRAY)) {
            r500_guest_error(s, "2D: HOST_DATA written with no host-data blit "
                             "in progress; dropped");
        }
        return;
    }
    for (uint32_t k = 0; k < per && hb->cy < hb->h; k++) {
        int64_t x = (int64_t)hb->x + hb->cx, y = (int64_t)hb->y + hb->cy;
        bool in = x >= hb->cl && x < hb->cr && y >= hb->ct && y < hb->cb;

        if (n && (!in || y != seg_y || x != seg_x + n)) {
            if (!host_segment(s, hb, seg_x, seg_y, sv, opaque, n)) {
                goto fail;
            }
            n = 0;
        }
        if (in) {
            if (!n) {
                seg_x = x;
                seg_y = y;
            }
            if (mono) {
                /* GMC_BYTE_LSB_TO_MSB: pixel k is bit k, else MSB first. */
                uint32_t bit = hb->lsb_first ? (v >> k) & 1
                                             : (v >> ((k & ~7u) + 7 - (k & 7))) & 1;
                sv[n] = bit ? hb->fg : hb->bg;
                opaque[n] = bit || hb->src_type == SRC_MONO_FG_BG;
            } else {
                sv[n] = (v >> (8 * hb->bpp * k)) & bpp_mask(hb->bpp);
                opaque[n] = true;
            }
            n++;
        }
        if (++hb->cx == hb->w) {
            hb->cx = 0;
            hb->cy++;
        }
    }
    if (n && !host_segment(s, hb, seg_x, seg_y, sv, opaque, n)) {
        goto fail;
    }
    if (hb->cy >= hb->h) {
        e->host_active = false;
    } else if (last) {
        r500_rb2d_host_cancel(s, "HOST_DATA_LAST came before the rectangle was full");
    }
    return;

fail:
    r500_rb2d_host_cancel(s, "its destination is not accessible");
}
