/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The card's display, board side: one QEMU console per CRTC head, fed
 * either by QEMU's common VGA core (text, VGA graphics, VBE, and the
 * legacy Radeon CRTC of the SeaVGABIOS ATI extension translated to VBE)
 * or by the AVIVO scanout of the chip core (hw/r500/disp/).
 *
 * Which one a head shows is the core's decision (r500_disp_scanout,
 * docs/display.md).  The native path redraws only rows whose VRAM pages
 * were written since it last drew them (DIRTY_MEMORY_VGA, which the VGA
 * core keeps enabled on VRAM, and which the engines feed through the
 * vram_dirty host op), plus rows under a moving cursor, so an unchanged
 * screen costs one dirty-bitmap snapshot per refresh.
 */
#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/qdev-core.h"
#include "trace.h"

#include "r500_display.h"
#include "r500_migrate.h"

#define DIRTY_PAGE      4096u

/* ---- EDID ---- */

static void edid_checksum(uint8_t *edid)
{
    uint8_t sum = 0;

    for (unsigned i = 0; i < 127; i++) {
        sum += edid[i];
    }
    edid[127] = -sum;
}

/*
 * One base block per connector from QEMU's generator and the xres/yres
 * properties: analogue input on the VGA connector, digital DVI on DVI-D
 * (radeon reports a DVI-D connector without a digital EDID disconnected,
 * atombios-rom.md 5.4).
 */
static void r500_display_edid(R500Display *d)
{
    for (unsigned c = 0; c < R500_NUM_DDC; c++) {
        qemu_edid_info info = d->edid_info;
        uint8_t edid[128] = { 0 };

        qemu_edid_generate(edid, sizeof(edid), &info);
        if (c == 0) {
            edid[20] = 0x08;                    /* analogue, separate sync */
            edid[24] = (edid[24] & ~0x18) | 0x08;   /* RGB colour */
        } else {
            edid[20] = 0xA1;                        /* digital, 8 bpc, DVI */
        }
        edid_checksum(edid);
        r500_disp_set_edid(d->chip, c, edid, sizeof(edid));
    }
}

/* ---- Legacy CRTC (SeaVGABIOS ATI extension) -> VBE ---- */

static void vbe_write(VGACommonState *vga, uint32_t index, uint32_t val)
{
    vbe_ioport_write_index(vga, 0, index);
    vbe_ioport_write_data(vga, 0, val);
}

/*
 * Hand a changed legacy CRTC mode to the VGA core's VBE state, as QEMU's
 * ati-vga does, so the VGA core scans it out.  A mode the guest set
 * through the Bochs DISPI ports directly is left alone.
 */
static void r500_display_legacy_sync(R500Display *d)
{
    VGACommonState *vga = d->vga;
    R500LegacyMode m;

    r500_disp_legacy_mode(d->chip, &m);
    if (!memcmp(&m, &d->legacy, sizeof(m))) {
        return;
    }
    trace_r500_display_legacy(m.enabled, m.width, m.height, m.bpp, m.pitch,
                              m.offset);
    if (m.enabled) {
        uint32_t line = m.pitch * DIV_ROUND_UP(m.bpp, 8);

        vbe_write(vga, VBE_DISPI_INDEX_ENABLE, VBE_DISPI_DISABLED);
        vga->vbe_regs[VBE_DISPI_INDEX_XRES] = m.width;
        vga->vbe_regs[VBE_DISPI_INDEX_YRES] = m.height;
        vga->vbe_regs[VBE_DISPI_INDEX_BPP] = m.bpp;
        vbe_write(vga, VBE_DISPI_INDEX_ENABLE, VBE_DISPI_ENABLED |
                  VBE_DISPI_LFB_ENABLED | VBE_DISPI_NOCLEARMEM);
        /* Enabling resets the virtual width and the offsets. */
        vbe_write(vga, VBE_DISPI_INDEX_VIRT_WIDTH, m.pitch);
        if (line) {
            vbe_write(vga, VBE_DISPI_INDEX_X_OFFSET,
                      m.offset % line / DIV_ROUND_UP(m.bpp, 8));
            vbe_write(vga, VBE_DISPI_INDEX_Y_OFFSET, m.offset / line);
        }
    } else if (d->legacy.enabled) {
        vbe_write(vga, VBE_DISPI_INDEX_ENABLE, VBE_DISPI_DISABLED);
    }
    d->legacy = m;
}

/* ---- Dirty tracking ---- */

static bool scanout_span(const R500Scanout *so, uint64_t *lo, uint64_t *hi)
{
    return r500_disp_surface_span(so, 0, so->rect_h, lo, hi);
}

static void mark_pending(R500Display *d, uint64_t page)
{
    for (unsigned h = 0; h < R500_NUM_CRTC; h++) {
        if (d->head[h].pending) {
            set_bit(page, d->head[h].pending);
        }
    }
}

/* Pages looked at together in a snapshot: most of VRAM is clean. */
#define DIRTY_CHUNK     (64 * DIRTY_PAGE)

/*
 * The CPU's writes in [lo, hi) (page aligned), which the VGA client of
 * QEMU's dirty memory holds alone (r500_vram_mark_dirty()): into every
 * head's pending pages and into the renderer's record.
 */
static void snapshot_cpu(R500Display *d, uint64_t lo, uint64_t hi)
{
    MemoryRegion *mr = &d->vga->vram;
    DirtyBitmapSnapshot *snap;

    snap = memory_region_snapshot_and_clear_dirty(mr, lo, hi - lo,
                                                  DIRTY_MEMORY_VGA);
    for (uint64_t c = lo; c < hi; c += DIRTY_CHUNK) {
        uint64_t end = MIN(hi, c + DIRTY_CHUNK);

        if (!memory_region_snapshot_get_dirty(mr, snap, c, end - c)) {
            continue;
        }
        for (uint64_t p = c; p < end; p += DIRTY_PAGE) {
            if (memory_region_snapshot_get_dirty(mr, snap, p, DIRTY_PAGE)) {
                mark_pending(d, p / DIRTY_PAGE);
                set_bit_atomic(p / DIRTY_PAGE, d->cpu);
            }
        }
    }
    g_free(snap);
}

void r500_display_engine_wrote(R500Display *d, uint64_t off, uint64_t len)
{
    uint64_t first = off / DIRTY_PAGE, last = (off + len - 1) / DIRTY_PAGE;

    if (!len || off >= d->vga->vram_size) {
        return;
    }
    last = MIN(last, d->pages - 1);
    bitmap_set_atomic(d->engine, first, last - first + 1);
    /* no dirty page past VRAM's end, whatever the report says */
    r500_vram_mark_dirty(&d->vga->vram, off,
                         MIN(len, d->vga->vram_size - off));
}

void r500_display_collect_cpu(R500Display *d)
{
    /*
     * The VGA core's refresh takes the VGA client's pages itself: while
     * it shows the VGA engine, leave them to it, and the renderer takes
     * everything as written.
     */
    if (d->head[0].last.kind == R500_SCANOUT_VGA) {
        bitmap_set_atomic(d->cpu, 0, d->pages);
        return;
    }
    snapshot_cpu(d, 0, d->pages * DIRTY_PAGE);
}

bool r500_display_cpu_written(R500Display *d, uint64_t off, uint64_t len)
{
    uint64_t first = off / DIRTY_PAGE, last = (off + len - 1) / DIRTY_PAGE;

    if (!len || off >= d->vga->vram_size) {
        return false;
    }
    last = MIN(last, d->pages - 1);
    return bitmap_test_and_clear_atomic(d->cpu, first, last - first + 1);
}

/*
 * Move the VRAM pages written since the last snapshot into every head's
 * pending bitmap, over the union of what the heads show: two heads may
 * scan out the same framebuffer (clone mode), and each must see a write.
 * The CPU's come from QEMU's dirty memory, the engines' from d->engine.
 */
static void r500_display_collect(R500Display *d, unsigned head,
                                 const R500Scanout *cur)
{
    uint64_t lo = UINT64_MAX, hi = 0, a, b;

    for (unsigned h = 0; h < R500_NUM_CRTC; h++) {
        const R500Scanout *so = h == head ? cur : &d->head[h].last;

        if (d->head[h].con && scanout_span(so, &a, &b)) {
            lo = MIN(lo, a);
            hi = MAX(hi, b);
        }
    }
    if (lo >= hi) {
        return;
    }
    lo = QEMU_ALIGN_DOWN(lo, DIRTY_PAGE);
    hi = MIN(QEMU_ALIGN_UP(hi, DIRTY_PAGE), d->pages * DIRTY_PAGE);
    snapshot_cpu(d, lo, hi);
    for (uint64_t p = lo / DIRTY_PAGE; p < hi / DIRTY_PAGE; p++) {
        if (test_bit(p, d->engine) &&
            bitmap_test_and_clear_atomic(d->engine, p, 1)) {
            mark_pending(d, p);
        }
    }
}

static bool row_pending(R500Head *hd, const R500Scanout *so, uint32_t y)
{
    uint64_t lo, hi, first, last;

    if (y < so->rect_y ||
        !r500_disp_surface_span(so, y - so->rect_y, y - so->rect_y + 1,
                                &lo, &hi)) {
        return false;
    }
    first = lo / DIRTY_PAGE;
    last = (hi - 1) / DIRTY_PAGE;
    return find_next_bit(hd->pending, last + 1, first) <= last;
}

/* ---- Cursor ---- */

static bool cursor_equal(const R500CursorImage *a, const R500CursorImage *b)
{
    return a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h &&
           !memcmp(a->argb, b->argb, sizeof(a->argb)) &&
           !memcmp(a->invert, b->invert, sizeof(a->invert));
}

/*
 * Host cursor: the image, with its top-left corner as the hotspot (the
 * driver folds the real hotspot into POSITION).  Defined when the image
 * changes; moved only when the guest moves it, since some UIs warp the
 * host pointer on dpy_mouse_set.
 */
static void r500_display_host_cursor(R500Head *hd, bool shown,
                                     const R500CursorImage *ci)
{
    if (!shown) {
        if (hd->cursor_shown) {
            dpy_mouse_set(hd->con, hd->cursor->x, hd->cursor->y, 0);
        }
        return;
    }
    if (!hd->cursor_shown || hd->cursor->w != ci->w ||
        hd->cursor->h != ci->h ||
        memcmp(hd->cursor->argb, ci->argb, sizeof(ci->argb))) {
        QEMUCursor *c = cursor_alloc(ci->w, ci->h);

        for (uint32_t y = 0; y < ci->h; y++) {
            memcpy(c->data + y * ci->w, ci->argb + y * R500_CURSOR_MAX,
                   ci->w * 4);
        }
        dpy_cursor_define(hd->con, c);
        if (hd->qcursor) {
            cursor_unref(hd->qcursor);
        }
        hd->qcursor = c;
    }
    if (!hd->cursor_shown || hd->cursor->x != ci->x || hd->cursor->y != ci->y) {
        dpy_mouse_set(hd->con, ci->x, ci->y, 1);
    }
}

/*
 * Work out the cursor for this update.  When it is drawn into the frame,
 * mark the rows it covered before and covers now in rows[].
 */
static void r500_display_cursor(R500Display *d, R500Head *hd,
                                const R500Scanout *so, bool compose,
                                unsigned long *rows)
{
    R500CursorImage *ci = g_new(R500CursorImage, 1);
    bool shown = false;

    if (so->cursor) {
        r500_lock(d->lock);
        shown = r500_disp_cursor(d->chip, so, ci);
        r500_unlock(d->lock);
    }

    if (!compose) {
        r500_display_host_cursor(hd, shown, ci);
    } else if (shown != hd->cursor_shown ||
               (shown && !cursor_equal(ci, hd->cursor))) {
        const R500CursorImage *rect[2] = { hd->cursor_shown ? hd->cursor : NULL,
                                           shown ? ci : NULL };

        for (unsigned i = 0; i < 2; i++) {
            int64_t y0, y1;

            if (!rect[i]) {
                continue;
            }
            y0 = MAX(rect[i]->y, 0);
            y1 = MIN((int64_t)rect[i]->y + rect[i]->h, (int64_t)so->height);
            if (y0 < y1) {
                bitmap_set(rows, y0, y1 - y0);
            }
        }
    }
    if (shown) {
        memcpy(hd->cursor, ci, sizeof(*ci));
    }
    hd->cursor_shown = shown;
    g_free(ci);
}

/* ---- Native scanout ---- */

static bool scanout_same(const R500Scanout *a, const R500Scanout *b)
{
    R500Scanout x = *a, y = *b;

    /* The cursor is redrawn on its own; the refresh rate draws nothing. */
    x.cursor = y.cursor = 0;
    x.cursor_gen = y.cursor_gen = 0;
    x.refresh_mhz = y.refresh_mhz = 0;
    return !memcmp(&x, &y, sizeof(x));
}

static void r500_display_native(R500Display *d, R500Head *hd,
                                const R500Scanout *so)
{
    DisplaySurface *surface = qemu_console_surface(hd->con);
    /*
     * The cursor goes into the frame when asked to, or when no display
     * shows this console (a screendump is all there is to see: -display
     * none, qtest); a display that attaches later gets the host cursor,
     * and the frame is drawn again without it.
     */
    bool compose = d->guest_hwcursor || !qemu_console_is_visible(hd->con);
    unsigned long *rows;
    uint64_t lo, hi;
    int64_t y0 = -1;

    if (compose != hd->composed) {
        hd->composed = compose;
        hd->cursor_shown = false;
        hd->full = true;
    }
    if (!scanout_same(so, &hd->last)) {
        trace_r500_display_mode(so->crtc, so->width, so->height, so->format,
                                so->base, so->pitch, so->refresh_mhz);
        hd->full = true;
    }
    if (!surface || surface_width(surface) != so->width ||
        surface_height(surface) != so->height ||
        !surface_is_allocated(surface)) {
        qemu_console_resize(hd->con, so->width, so->height);
        surface = qemu_console_surface(hd->con);
        hd->full = true;
    }
    r500_display_collect(d, hd - d->head, so);
    rows = bitmap_new(so->height);
    r500_display_cursor(d, hd, so, compose, rows);

    for (uint32_t y = 0; y <= so->height; y++) {
        bool dirty = y < so->height &&
                     (hd->full || test_bit(y, rows) || row_pending(hd, so, y));

        if (dirty && y0 < 0) {
            y0 = y;
        } else if (!dirty && y0 >= 0) {
            r500_lock(d->lock);
            r500_disp_render(d->chip, so, surface->image, y0, y, compose);
            r500_unlock(d->lock);
            dpy_gfx_update(hd->con, 0, y0, so->width, y - y0);
            y0 = -1;
        }
    }
    if (scanout_span(so, &lo, &hi)) {
        bitmap_clear(hd->pending, lo / DIRTY_PAGE,
                     DIV_ROUND_UP(hi, DIRTY_PAGE) - lo / DIRTY_PAGE);
    }
    g_free(rows);
    hd->full = false;
}

/* ---- Console callbacks ---- */

/* What head h shows: its CRTC, or with one console D2 when D1 is dark. */
static void r500_display_scanout(R500Display *d, unsigned h, R500Scanout *so)
{
    r500_disp_scanout(d->chip, h, so);
    if (d->heads == 1 && so->kind == R500_SCANOUT_OFF) {
        R500Scanout d2;

        r500_disp_scanout(d->chip, 1, &d2);
        if (d2.kind == R500_SCANOUT_NATIVE) {
            *so = d2;
        }
    }
}

/*
 * The chip's lock is held only while the chip is read (what the heads
 * scan out, the cursor, the rows drawn), never across the dirty-bitmap
 * snapshot or the VGA core's refresh: under TCG those wait for the vCPUs
 * (run_on_cpu) with the big lock dropped, and a vCPU may be waiting for
 * the chip's lock in a register access.
 */
static void r500_display_update(R500Display *d, unsigned h)
{
    R500Head *hd = &d->head[h];
    R500Scanout so;

    r500_lock(d->lock);
    r500_display_scanout(d, h, &so);
    if (so.kind == R500_SCANOUT_VGA && h == 0) {
        r500_display_legacy_sync(d);
    }
    {
        /*
         * The display looks at what it scans out: what the renderer
         * keeps on the host there goes to VRAM first (its pages dirty).
         * The VGA core may read any of VRAM.
         */
        uint64_t lo = 0, hi = d->vga->vram_size;

        if (so.kind == R500_SCANOUT_VGA ||
            (so.kind == R500_SCANOUT_NATIVE && scanout_span(&so, &lo, &hi))) {
            r500_vram_release(d->chip, lo, hi - lo);
        }
    }
    r500_unlock(d->lock);
    if (so.kind == R500_SCANOUT_VGA && h != 0) {
        if (!d->logged_vga_d2) {
            d->logged_vga_d2 = true;
            qemu_log_mask(LOG_UNIMP, "r500: the VGA engine is shown on the "
                          "first head only (D2VGA_CONTROL)\n");
        }
        so.kind = R500_SCANOUT_OFF;
    } else if (so.kind == R500_SCANOUT_VGA) {
        if (d->legacy.enabled && d->legacy.blank) {
            so.kind = R500_SCANOUT_OFF;     /* CRTC_EXT_CNTL display off */
        }
    }
    if (so.kind != hd->last.kind || so.crtc != hd->last.crtc) {
        trace_r500_display_source(h, so.crtc, so.kind);
        hd->full = true;
        if (hd->last.kind == R500_SCANOUT_NATIVE && hd->cursor_shown &&
            !d->guest_hwcursor) {
            dpy_mouse_set(hd->con, 0, 0, 0);
        }
        hd->cursor_shown = false;
    }

    if (so.kind == R500_SCANOUT_NATIVE) {
        r500_display_native(d, hd, &so);
    } else if (so.kind == R500_SCANOUT_VGA) {
        /*
         * The VGA core sees the CPU's writes (the VGA client of the dirty
         * memory), not the engines' (d->engine): those redraw it all.
         * What it takes of the client, the renderer counts as written.
         */
        if (hd->full || bitmap_test_and_clear_atomic(d->engine, 0, d->pages)) {
            d->vga->hw_ops->invalidate(d->vga);
        }
        d->vga->hw_ops->gfx_update(d->vga);
        bitmap_set_atomic(d->cpu, 0, d->pages);
        hd->full = false;
    } else if (hd->full) {
        /* No signal. */
        dpy_gfx_replace_surface(hd->con, NULL);
        hd->full = false;
    }
    hd->last = so;
}

static void r500_display_gfx_update0(void *opaque)
{
    r500_display_update(opaque, 0);
}

static void r500_display_gfx_update1(void *opaque)
{
    r500_display_update(opaque, 1);
}

static void r500_display_invalidate0(void *opaque)
{
    R500Display *d = opaque;

    d->head[0].full = true;
}

static void r500_display_invalidate1(void *opaque)
{
    R500Display *d = opaque;

    d->head[1].full = true;
}

static void r500_display_text_update(void *opaque, console_ch_t *chardata)
{
    R500Display *d = opaque;

    if (d->head[0].last.kind == R500_SCANOUT_VGA &&
        d->vga->hw_ops->text_update) {
        d->vga->hw_ops->text_update(d->vga, chardata);
    }
}

static const GraphicHwOps r500_display_ops[R500_NUM_CRTC] = {
    {
        .invalidate = r500_display_invalidate0,
        .gfx_update = r500_display_gfx_update0,
        .text_update = r500_display_text_update,
    }, {
        .invalidate = r500_display_invalidate1,
        .gfx_update = r500_display_gfx_update1,
    },
};

/* ---- Lifetime ---- */

bool r500_display_realize(R500Display *d, DeviceState *dev,
                          VGACommonState *vga, R500Chip *chip, Error **errp)
{
    if (d->heads < 1 || d->heads > R500_NUM_CRTC) {
        error_setg(errp, "r500: heads must be 1 or 2");
        return false;
    }
    d->chip = chip;
    d->vga = vga;
    d->pages = DIV_ROUND_UP(vga->vram_size, DIRTY_PAGE);
    d->engine = bitmap_new(d->pages);
    /* nothing is known of the CPU's writes before the first snapshot */
    d->cpu = bitmap_new(d->pages);
    bitmap_set(d->cpu, 0, d->pages);
    for (unsigned h = 0; h < d->heads; h++) {
        R500Head *hd = &d->head[h];

        hd->con = graphic_console_init(dev, h, &r500_display_ops[h], d);
        hd->pending = bitmap_new(d->pages);
        hd->cursor = g_new0(R500CursorImage, 1);
        hd->full = true;
    }
    /* The VGA core draws into the first head's console. */
    vga->con = d->head[0].con;
    r500_display_edid(d);
    return true;
}

void r500_display_reset(R500Display *d)
{
    memset(&d->legacy, 0, sizeof(d->legacy));
    bitmap_set_atomic(d->cpu, 0, d->pages);
    for (unsigned h = 0; h < d->heads; h++) {
        d->head[h].full = true;
    }
}

void r500_display_post_load(R500Display *d)
{
    r500_display_reset(d);
    /* Already in the VBE state, which the VGA core migrated. */
    r500_disp_legacy_mode(d->chip, &d->legacy);
}

void r500_display_exit(R500Display *d)
{
    for (unsigned h = 0; h < d->heads; h++) {
        R500Head *hd = &d->head[h];

        graphic_console_close(hd->con);
        if (hd->qcursor) {
            cursor_unref(hd->qcursor);
        }
        g_free(hd->pending);
        g_free(hd->cursor);
    }
    g_free(d->engine);
    g_free(d->cpu);
}

/* ---- Migration ---- */

/* The fields come from the lists of hw/r500/migrate.h (the fuzzer's too). */
#define VMS_CRTC(kind, f, n)        VMS_##kind(f, R500CrtcState, n)
#define VMS_I2C(kind, f, n)         VMS_##kind(f, R500I2CSlave, n)
#define VMS_DISP(kind, f, n)        VMS_##kind(f, R500DispState, n)

static const VMStateDescription vmstate_r500_crtc_state = {
    .name = "r500/crtc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_CRTC(VMS_CRTC)
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_r500_i2c = {
    .name = "r500/i2c",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_I2C(VMS_I2C)
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_r500_disp_state = {
    .name = "r500/disp-state",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(crtc, R500DispState, R500_NUM_CRTC, 1,
                             vmstate_r500_crtc_state, R500CrtcState),
        VMSTATE_UINT32_2DARRAY(lut, R500DispState, 2, 256),
        R500_MIG_DISP(VMS_DISP)
        VMSTATE_STRUCT_ARRAY(ddc, R500DispState, R500_NUM_DDC, 1,
                             vmstate_r500_i2c, R500I2CSlave),
        VMSTATE_END_OF_LIST()
    },
};
