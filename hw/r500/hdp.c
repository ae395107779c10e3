/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host data path: the CPU's view of VRAM.
 *
 * BAR0 (and MM_DATA with MM_INDEX.APER) show VRAM linearly, except inside
 * the range of a surface register with tiling bits: there the CPU sees
 * the surface as linear rows of PITCH bytes while VRAM holds it tiled, as
 * the engines and the display read and write it.  Linux programs one
 * register per BO flagged RADEON_TILING_SURFACE (radeon_bo_check_tiling,
 * r100_set_surface_reg: LOWER = the BO's VRAM offset, UPPER = offset +
 * size - 1, INFO = pitch / 8 | R300_SURF_TILE_MACRO/MICRO), so CPU
 * writes through its mapping land where the GPU expects them.
 *
 * The layout behind a window is the one every block uses (mem/tiling.h)
 * for a surface of 4-byte pixels at LOWER: the register carries no pixel
 * size.  With micro tiling off the layout does not depend on the pixel
 * size (8 rows of 256 bytes per macro tile); micro tiles of 2-, 4- and
 * 8-byte pixels are all 16 bytes x 2 rows, so those match too.  1-byte
 * and square (4x4 16-bit) micro tiles are 8 bytes x 4 rows and do not.
 * docs/display.md "Tiled surfaces".
 *
 * Checks (the guest is untrusted): a window must lie inside VRAM and
 * have a non-zero pitch and a known tile mode, or it is off (linear, one
 * guest-error line); LOWER above UPPER covers nothing; overlapping
 * windows are reported (once) and the lower-numbered one wins; an
 * access whose tiled address falls outside VRAM reads 0 and writes
 * nothing.  Byte swapping (SURF_AP*_SWP, NONSURF_AP*_SWP) is for
 * big-endian hosts and not modelled.
 */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "r500.h"
#include "blocks.h"

/* INFO.TILE on R300 and later (Linux r300_reg.h R300_SURF_TILE_*). */
#define SURF_TILE_MACRO     1u
#define SURF_TILE_MICRO     2u
/* Bounds have 1 KiB granularity (RADEON_SURF_ADDRESS_FIXED_MASK). */
#define SURF_BOUND_MASK     0x3FFu
/* R500Hdp.logged: bit n SURFACEn's error (until it is valid again), ... */
#define HDP_LOGGED_OVERLAP  (1u << 8)
#define HDP_LOGGED_SWAP     (1u << 9)
#define HDP_LOGGED_PITCH    (1u << 16)  /* << n: SURFACEn's pitch notice */

/* The ranges changed (not only a pitch or a mode, which need no remap). */
static bool hdp_ranges_differ(const R500Hdp *a, const R500Hdp *b)
{
    if (a->count != b->count) {
        return true;
    }
    for (unsigned i = 0; i < a->count; i++) {
        if (a->surf[i].lower != b->surf[i].lower ||
            a->surf[i].upper != b->surf[i].upper) {
            return true;
        }
    }
    return false;
}

/*
 * Decode the registers into windows; tell the host when their ranges
 * changed (force: always, after reset and loadvm).
 */
static void hdp_rebuild(R500Chip *s, bool force)
{
    R500Hdp *h = &s->hdp;
    R500Hdp old = *h;
    uint32_t cntl = s->regs[R_SURFACE_CNTL / 4];
    uint32_t swaps = R500_FGET(cntl, SURFACE_CNTL, NONSURF_SWP);

    h->count = 0;
    for (unsigned i = 0; i < R500_HDP_SURFACES; i++) {
        uint32_t info = s->regs[R500_REGA_AT(SURFACE_INFO, i) / 4];
        uint64_t lo = s->regs[R500_REGA_AT(SURFACE_LOWER_BOUND, i) / 4] &
                      ~(uint64_t)SURF_BOUND_MASK;
        uint64_t hi = s->regs[R500_REGA_AT(SURFACE_UPPER_BOUND, i) / 4] |
                      SURF_BOUND_MASK;
        uint32_t tile = R500_FGET(info, SURFACE_INFO, TILE);
        uint32_t pitch = R500_FGET(info, SURFACE_INFO, PITCH) * 8;
        R500HdpSurface *w = &h->surf[h->count];

        swaps |= R500_FGET(info, SURFACE_INFO, SWP);
        /*
         * LOWER above UPPER matches nothing: the kernel writes INFO, then
         * the bounds, so a register passes through such states.
         */
        if (tile == 0 || lo > hi ||
            R500_FGET(cntl, SURFACE_CNTL, SURF_TRANSLATION_DIS)) {
            continue;
        }
        if (tile > (SURF_TILE_MACRO | SURF_TILE_MICRO) || !pitch ||
            hi >= s->vram_size) {
            if (!(h->logged & (1u << i))) {
                h->logged |= 1u << i;
                r500_guest_error(s, "HDP: SURFACE%u (INFO 0x%08x, 0x%" PRIx64
                                 "..0x%" PRIx64 ") has a reserved tile mode, "
                                 "pitch 0 or a range outside %" PRIu64
                                 " bytes of VRAM; not translated", i, info,
                                 lo, hi, s->vram_size);
            }
            continue;
        }
        h->logged &= ~(1u << i);
        for (unsigned k = 0; k < h->count; k++) {
            if (lo <= h->surf[k].upper && h->surf[k].lower <= hi &&
                !(h->logged & HDP_LOGGED_OVERLAP)) {
                h->logged |= HDP_LOGGED_OVERLAP;
                r500_guest_error(s, "HDP: SURFACE%u overlaps SURFACE%u; "
                                 "SURFACE%u applies where both do (reported "
                                 "once)", i, h->surf[k].index,
                                 h->surf[k].index);
                break;
            }
        }
        *w = (R500HdpSurface) { .lower = lo, .upper = hi, .pitch = pitch,
                                .index = i };
        r500_surf_init(&w->sf, 0, pitch / 4, 4, tile & SURF_TILE_MACRO,
                       tile & SURF_TILE_MICRO ? R500_MICRO_TILED
                                              : R500_MICRO_LINEAR);
        if ((uint64_t)r500_surf_row_pixels(&w->sf) * 4 == pitch) {
            h->logged &= ~(HDP_LOGGED_PITCH << i);
        } else if (!(h->logged & (HDP_LOGGED_PITCH << i))) {
            h->logged |= HDP_LOGGED_PITCH << i;
            r500_guest_error(s, "HDP: SURFACE%u pitch %u is not a multiple "
                             "of its tile width; tiles cover %u bytes a row",
                             i, pitch, r500_surf_row_pixels(&w->sf) * 4);
        }
        h->count++;
    }
    if (swaps && !(h->logged & HDP_LOGGED_SWAP)) {
        h->logged |= HDP_LOGGED_SWAP;
        r500_unimp(s, "HDP: aperture byte swapping (SURFACE_CNTL 0x%08x) is "
                   "not modelled", cntl);
    }
    if ((force || hdp_ranges_differ(&old, h)) && s->ops->aperture_changed) {
        s->ops->aperture_changed(s->host);
    }
}

unsigned r500_hdp_windows(R500Chip *s, uint64_t lower[], uint64_t upper[])
{
    for (unsigned i = 0; i < s->hdp.count; i++) {
        lower[i] = s->hdp.surf[i].lower;
        upper[i] = s->hdp.surf[i].upper;
    }
    return s->hdp.count;
}

/* The window that covers aperture offset off, or NULL. */
static const R500HdpSurface *hdp_window(R500Chip *s, uint64_t off)
{
    for (unsigned i = 0; i < s->hdp.count; i++) {
        if (off >= s->hdp.surf[i].lower && off <= s->hdp.surf[i].upper) {
            return &s->hdp.surf[i];
        }
    }
    return NULL;
}

/*
 * VRAM offset of aperture byte off; false when it is not in VRAM.  Inside
 * a window, off is byte (x, y) of the linear view and goes to the same
 * byte of pixel (x / 4, y) of the tiled surface at lower.
 */
bool r500_hdp_translate(R500Chip *s, uint64_t off, uint64_t *vram_off)
{
    const R500HdpSurface *w = hdp_window(s, off);
    uint64_t rel, t;
    uint32_t xb;

    if (!w) {
        *vram_off = off;
        return off < s->vram_size;
    }
    rel = off - w->lower;
    xb = rel % w->pitch;
    t = w->lower + (xb & 3) +
        r500_surf_offset(&w->sf, xb / 4, (uint32_t)(rel / w->pitch));
    if (t >= s->vram_size) {
        if (s->hdp.xlate_errors++ == 0) {
            r500_guest_error(s, "HDP: SURFACE%u maps aperture offset 0x%"
                             PRIx64 " beyond VRAM; reads 0, writes dropped",
                             w->index, off);
        }
        return false;
    }
    *vram_off = t;
    return true;
}

/*
 * An access that is naturally aligned never crosses 8 bytes, and every
 * contiguous run of a window (a 16-byte micro-tile row, a 256-byte
 * macro-tile row, a pitch that is a multiple of 8, 1 KiB bounds) is a
 * multiple of 8 bytes: it translates as one piece.  Others go by bytes.
 */
static bool hdp_one_piece(uint64_t off, unsigned size)
{
    return size <= 8 && (off & (size - 1)) == 0 && (size & (size - 1)) == 0;
}

uint64_t r500_hdp_read(R500Chip *s, uint64_t off, unsigned size)
{
    uint64_t v = 0, t;

    /* the CPU looks: what the renderer holds there goes back first */
    if (hdp_one_piece(off, size)) {
        if (r500_hdp_translate(s, off, &t)) {
            r500_vram_release(s, t, size);
            memcpy(&v, s->vram + t, size);
        }
        return GUINT64_FROM_LE(v);
    }
    for (unsigned i = 0; i < size && i < 8; i++) {
        if (r500_hdp_translate(s, off + i, &t)) {
            r500_vram_release(s, t, 1);
            v |= (uint64_t)s->vram[t] << (8 * i);
        }
    }
    return v;
}

void r500_hdp_write(R500Chip *s, uint64_t off, uint64_t val, unsigned size)
{
    uint64_t t;

    if (hdp_one_piece(off, size)) {
        val = GUINT64_TO_LE(val);
        if (r500_hdp_translate(s, off, &t)) {
            r500_vram_release(s, t, size);
            memcpy(s->vram + t, &val, size);
            r500_vram_dirty(s, t, size);
        }
        return;
    }
    for (unsigned i = 0; i < size && i < 8; i++) {
        if (r500_hdp_translate(s, off + i, &t)) {
            r500_vram_release(s, t, 1);
            s->vram[t] = val >> (8 * i);
            r500_vram_dirty(s, t, 1);
        }
    }
}

static void surface_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    if (s->regs[reg / 4] != old) {
        hdp_rebuild(s, false);
    }
}

static const R500RegHook hdp_hooks[] = {
    { R_SURFACE_CNTL, R500_REGA_AT(SURFACE_INFO, R500_HDP_SURFACES - 1),
      NULL, surface_write },
    { 0 }
};

/* The kernel clears them at init (radeon_surface_init); so does reset. */
static void hdp_reset(R500Chip *s)
{
    s->hdp.logged = 0;
    s->hdp.xlate_errors = 0;
    hdp_rebuild(s, true);
}

/* The registers came with the register file; the windows follow them. */
static void hdp_post_load(R500Chip *s)
{
    hdp_rebuild(s, true);
}

const R500Block r500_hdp_block = {
    .name = "hdp",
    .hooks = hdp_hooks,
    .reset = hdp_reset,
    .post_load = hdp_post_load,
};
