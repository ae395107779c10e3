/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl: the surfaces the host-GL renderer keeps on the host (gl.c says the
 * whole).  Memory stays the truth: a draw's colour and depth surfaces
 * are uploaded into GL slots for the box it touches, written back at a
 * sync (r500_gl_flush), kept past a fence where the host can hold the
 * bytes (R500HostOps.vram_hold), forgotten or written back when another
 * writer or reader of VRAM comes near them (the VRAM watcher: written,
 * release).  This file is the slots: their spans, upload and write-back,
 * holds, moves between slots and the attachment of a draw's targets.
 */
#include <math.h>
#include <string.h>

#include "gl_int.h"

/*
 * Said once per reason and reset: a limit of host memory is the guest's
 * doing (a guest error), every other reason is what gl lacks.
 */
void r500_gl_note(R500Chip *s, unsigned what, const char *why)
{
    R500Gl *g = s->gl;

    g->last_why = why;
    if (!r500_once(&g->noted, 1u << what)) {
        return;
    }
    if (what == R500_GL_NOTE_LIMIT) {
        r500_guest_error(s, "3D: renderer gl: %s; such draws are drawn by "
                         "soft", why);
    } else {
        r500_unimp(s, "3D: renderer gl: %s; such draws are drawn by soft",
                   why);
    }
}

/*
 * A run of pixels: a micro tile's row is 16 bytes at 32 bpp (4 x 2
 * tiles, tiling.c), so most runs of a tiled target are; a copy of a
 * constant size is a move, not a call (the per-run call was a third of
 * the time the surfaces took).
 */
static inline void copy_run(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n == 16) {
        memcpy(d, s, 16);
    } else if (n == 32) {
        memcpy(d, s, 32);
    } else {
        memcpy(d, s, n);
    }
}

/*
 * Rows y and y + 1 of rectangle r (y + r->y even) of a surface whose
 * micro tiles are two rows of 16 bytes (32 and 16 bpp, tiling.c): each
 * tile is 32 bytes in one place, row y's run then row y + 1's, so the
 * two rows go in one pass over the tiles instead of two.
 */
static void io_tile_rows(const R500Surf *sf, const GlRect *r, int y,
                         uint8_t *mem, uint8_t *px, bool write)
{
    size_t row = (size_t)r->w * sf->bpp;
    uint8_t *p = px + (size_t)y * row;

    for (int x = 0; x < r->w; x += sf->mtw, p += 16) {
        uint8_t *m = mem + r500_surf_offset(sf, r->x + x, r->y + y);

        if (write) {
            memcpy(m, p, 16);
            memcpy(m + 16, p + row, 16);
        } else {
            memcpy(p, m, 16);
            memcpy(p + row, m + 16, 16);
        }
    }
}

/*
 * Read (or write) rectangle r of a surface between memory and px (rows of
 * r->w pixels of sf->bpp bytes): VRAM directly, GART through the MC;
 * false (a guest error logged by the MC) when part of it is neither.
 */
static bool gl_surface_io_do(R500Chip *s, const R500Surf *sf,
                             const GlRect *r, uint8_t *px, bool write);

/*
 * Rectangle r of a surface between memory and px (gl_surface_io_do): the
 * renderer's own accesses, which release nothing it holds (r500_gl_release).
 */
static bool gl_surface_io(R500Chip *s, const R500Surf *sf, const GlRect *r,
                          uint8_t *px, bool write)
{
    bool ok;

    s->gl->in_io = true;
    ok = gl_surface_io_do(s, sf, r, px, write);
    s->gl->in_io = false;
    return ok;
}

static bool gl_surface_io_do(R500Chip *s, const R500Surf *sf,
                             const GlRect *r, uint8_t *px, bool write)
{
    uint64_t lo, hi, off;
    uint8_t *mem, *tmp = NULL;
    /* whole micro tiles of two 16-byte rows across the rectangle */
    bool pairs = sf->tiled && sf->mth == 2 && sf->mtw * sf->bpp == 16 &&
                 !(r->x & (sf->mtw - 1)) && !(r->w & (sf->mtw - 1));

    r500_surf_rect_span(sf, r->x, r->y, r->x + r->w - 1, r->y + r->h - 1,
                        &lo, &hi);
    if (r500_mc_vram_span(s, sf->base + lo, hi - lo, &off)) {
        mem = s->vram + off - lo;       /* the surface's base in VRAM */
    } else {
        /*
         * GART (or a bad address): the span through the MC in one piece,
         * checked; written back whole (the bytes between the rectangle's
         * pixels as they were read: nobody else writes meanwhile).
         */
        if (hi - lo > GL_SPAN_MAX) {
            return false;
        }
        tmp = g_malloc(hi - lo);
        if (!r500_mem_read(s, sf->base + lo, tmp, hi - lo)) {
            g_free(tmp);
            return false;
        }
        mem = tmp - lo;
    }
    for (int y = 0; y < r->h; y++) {
        if (pairs && !((r->y + y) & 1) && y + 1 < r->h) {
            io_tile_rows(sf, r, y, mem, px, write);
            y++;
            continue;
        }
        for (int x = 0; x < r->w;) {
            uint32_t n = r500_surf_run(sf, r->x + x, r->w - x);
            uint8_t *m = mem + r500_surf_offset(sf, r->x + x, r->y + y);
            uint8_t *p = px + ((size_t)y * r->w + x) * sf->bpp;

            if (write) {
                copy_run(m, p, n * sf->bpp);
            } else {
                copy_run(p, m, n * sf->bpp);
            }
            x += n;
        }
    }
    if (tmp) {
        bool ok = !write || r500_mem_write(s, sf->base + lo, tmp, hi - lo);

        g_free(tmp);
        return ok;
    }
    if (write) {
        r500_vram_dirty(s, off, hi - lo);
    }
    return true;
}

static GlRect rect_union(GlRect a, GlRect b)
{
    int x0, y0, x1, y1;

    if (!a.w) {
        return b;
    }
    if (!b.w) {
        return a;
    }
    x0 = MIN(a.x, b.x);
    y0 = MIN(a.y, b.y);
    x1 = MAX(a.x + a.w, b.x + b.w);
    y1 = MAX(a.y + a.h, b.y + b.h);
    return (GlRect) { x0, y0, x1 - x0, y1 - y0 };
}

/* The MC bytes [lo, hi) rectangle r of surface sf spans. */
static void rect_span(const R500Surf *sf, const GlRect *r, uint64_t *lo,
                      uint64_t *hi)
{
    r500_surf_rect_span(sf, r->x, r->y, r->x + r->w - 1, r->y + r->h - 1,
                        lo, hi);
    *lo += sf->base;
    *hi += sf->base;
}

/* The VRAM bytes resident slot k spans; false when not in VRAM. */
static bool gl_res_span(R500Chip *s, unsigned k, uint64_t *off,
                        uint64_t *len)
{
    uint64_t lo, hi;

    rect_span(&s->gl->res[k].surf, &s->gl->res[k].res, &lo, &hi);
    *len = hi - lo;
    return r500_mc_vram_span(s, lo, hi - lo, off);
}

/*
 * Whether resident slot k, written back, may stay on the host: its
 * bytes are in VRAM and nobody the chip does not see (the CPU) has
 * written them since the last look (R500HostOps.vram_cpu_written, which
 * this clears).  The engines' writes drop it themselves (r500_gl_written).
 */
static bool gl_res_keep(R500Chip *s, unsigned k)
{
    uint64_t off, len;

    return s->ops->vram_cpu_written && gl_res_span(s, k, &off, &len) &&
           !s->ops->vram_cpu_written(s->host, off, len);
}

/*
 * Write back what GL drew into the slots of mask since the last sync:
 * memory is the truth again for them.  With keep, their host copies
 * stay where gl_res_keep() allows, so the next draws upload nothing;
 * else, or where it does not, they are forgotten.  A flush of every
 * slot collects the draws' occlusion counts too.  Nothing happens when
 * nothing is resident.
 */
void r500_gl_flush_slots(R500Chip *s, uint32_t mask, bool keep)
{
    R500Gl *g = s->gl;
    GlJob j = { .sync_only = true };
    bool any;

    if (!g) {
        return;
    }
    /* the draws' occlusion counts come with their pixels */
    any = j.counts = mask == UINT32_MAX && g->uncounted != 0;
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        if ((mask >> k & 1) && g->res[k].on && g->res[k].dirty.w) {
            j.back[k].r = g->res[k].dirty;
            j.back[k].px = g_malloc((size_t)g->res[k].dirty.w *
                                    g->res[k].dirty.h * g->res[k].surf.bpp);
            any = true;
        }
    }
    if (any) {
        r500_gl_call(g, &j);
        g->flushes++;
        if (j.counts) {
            s->rb3d.zpass += j.zpass;
            g->uncounted = 0;
        }
        /* its own write-back is no engine's write to its copies */
        g->writing_back = true;
        for (unsigned k = 0; k < GL_RES_MAX; k++) {
            if (j.back[k].px && !j.error) {
                gl_surface_io(s, &g->res[k].surf, &j.back[k].r,
                              j.back[k].px, true);
            }
            g_free(j.back[k].px);
        }
        g->writing_back = false;
        if (j.error) {
            r500_gl_note(s, R500_GL_NOTE_GL, j.error);
        }
    }
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        if (!(mask >> k & 1) || !g->res[k].on) {
            continue;
        }
        if (keep && !j.error && gl_res_keep(s, k)) {
            g->res[k].dirty = (GlRect) { 0 };
            g->res[k].kept = true;
            g->kept++;
        } else {
            g->res[k].on = false;
        }
    }
}

static void gl_unhold(R500Chip *s, unsigned i)
{
    R500Gl *g = s->gl;

    s->ops->vram_unhold(s->host, g->holds[i].lo,
                        g->holds[i].hi - g->holds[i].lo);
    g->holds[i] = g->holds[--g->nholds];
}

void r500_gl_flush(R500Chip *s, bool keep)
{
    r500_gl_flush_slots(s, UINT32_MAX, keep);
    /* nothing is left to hold */
    while (s->gl && s->gl->nholds) {
        gl_unhold(s, 0);
    }
}

/*
 * The VRAM bytes [*lo, *hi) slot k's pixels GL drew span; false: none,
 * or not in VRAM.
 */
static bool gl_dirty_vram(R500Chip *s, unsigned k, uint64_t *lo,
                          uint64_t *hi)
{
    R500Gl *g = s->gl;
    uint64_t a, b;

    if (!g->res[k].on || !g->res[k].dirty.w) {
        return false;
    }
    rect_span(&g->res[k].surf, &g->res[k].dirty, &a, &b);
    if (!r500_mc_vram_span(s, a, b - a, lo)) {
        return false;
    }
    *hi = *lo + (b - a);
    return true;
}

/*
 * A sync where only someone the chip does not see could look next (a
 * fence, the engines' status, the end of a run: the CPU, the display):
 * what GL drew stays on the host, its bytes in VRAM held by the host
 * (R500HostOps.vram_hold), so nothing is read back until someone looks
 * (r500_gl_release).  What is not in VRAM, or what the host will not hold,
 * goes back now, as do the draws' occlusion counts.  Holds over no
 * drawn byte any more are let go.  False: the host holds nothing (every
 * sync writes back).
 */
bool r500_gl_hold(R500Chip *s)
{
    R500Gl *g = s->gl;
    GlJob submit = { .submit = true };

    if (!g || !s->ops->vram_hold || !s->ops->vram_unhold) {
        return false;
    }
    /*
     * The work the guest was told is done is under way: llvmpipe draws
     * what it was given on its threads now, instead of when someone
     * next looks (by then a later frame could have made it moot: the
     * guest asked for it, and the benchmark counts it).
     */
    if (g->unsubmitted) {
        r500_gl_call(g, &submit);
        g->unsubmitted = false;
    }
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        uint64_t lo, hi;
        bool covered = false;

        if (!g->res[k].on || !g->res[k].dirty.w) {
            continue;
        }
        if (!gl_dirty_vram(s, k, &lo, &hi)) {
            r500_gl_flush_slots(s, 1u << k, true);
            continue;
        }
        for (unsigned i = 0; i < g->nholds && !covered; i++) {
            covered = g->holds[i].lo <= lo && hi <= g->holds[i].hi;
        }
        if (covered) {
            continue;
        }
        if (g->nholds < GL_HOLDS &&
            s->ops->vram_hold(s->host, lo, hi - lo)) {
            g->holds[g->nholds].lo = lo;
            g->holds[g->nholds].hi = hi;
            g->nholds++;
            g->held++;
        } else {
            r500_gl_flush_slots(s, 1u << k, true);
        }
    }
    for (unsigned i = 0; i < g->nholds;) {
        bool used = false;

        for (unsigned k = 0; k < GL_RES_MAX && !used; k++) {
            uint64_t lo, hi;

            used = gl_dirty_vram(s, k, &lo, &hi) && lo < g->holds[i].hi &&
                   g->holds[i].lo < hi;
        }
        if (used) {
            i++;
        } else {
            gl_unhold(s, i);
        }
    }
    return true;
}

/*
 * Someone looks at VRAM [offset, offset + len): the holds over it, whole,
 * and every slot with drawn bytes in them go back to memory, and those
 * holds are let go.  Not the renderer's own accesses (gl_surface_io).
 */
void r500_gl_release(R500Chip *s, uint64_t offset, uint64_t len)
{
    R500Gl *g = s->gl;
    uint64_t lo = offset, hi = offset + len;
    uint32_t mask = 0;
    bool grew = true;

    if (!g || !g->nholds || g->in_io || g->writing_back) {
        return;
    }
    /* the holds it touches, whole, and those they touch */
    while (grew) {
        grew = false;
        for (unsigned i = 0; i < g->nholds; i++) {
            if (g->holds[i].lo < hi && lo < g->holds[i].hi &&
                (g->holds[i].lo < lo || g->holds[i].hi > hi)) {
                lo = MIN(lo, g->holds[i].lo);
                hi = MAX(hi, g->holds[i].hi);
                grew = true;
            }
        }
    }
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        uint64_t a, b;

        if (gl_dirty_vram(s, k, &a, &b) && a < hi && lo < b) {
            mask |= 1u << k;
        }
    }
    if (mask) {
        r500_gl_flush_slots(s, mask, true);
        g->released++;
    }
    for (unsigned i = 0; i < g->nholds;) {
        if (g->holds[i].lo < hi && lo < g->holds[i].hi) {
            gl_unhold(s, i);
        } else {
            i++;
        }
    }
}


void r500_gl_flush_over(R500Chip *s, uint64_t lo, uint64_t hi)
{
    if (r500_gl_res_overlaps(s->gl, lo, hi, 0)) {
        r500_gl_flush(s, true);
    }
}

/*
 * Before a draw uses the host copies kept across a sync: one the CPU
 * wrote since is forgotten (it has nothing of GL's to write back: a
 * kept copy is clean until the first draw after the sync, which comes
 * here first).  Between syncs the CPU has no business in a surface the
 * GPU draws (the guest waits for a fence first), as before.
 */
void r500_gl_res_validate(R500Chip *s)
{
    R500Gl *g = s->gl;

    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        if (g->res[k].on && g->res[k].kept) {
            g->res[k].kept = false;
            if (!gl_res_keep(s, k)) {
                g->res[k].on = false;
            }
        }
    }
}

/*
 * An engine (soft's draws, the 2D engine, the CP, the aperture) wrote
 * VRAM: a host copy of those bytes with nothing of GL's own to write
 * back is forgotten.  One with (the engine wrote a surface GL holds
 * without a sync between, which the sync points rule out) is written
 * back at the next sync as before.
 */
void r500_gl_written(R500Chip *s, uint64_t offset, uint64_t len)
{
    R500Gl *g = s->gl;

    if (!g || g->writing_back) {
        return;
    }
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        uint64_t off, n;

        if (g->res[k].on && !g->res[k].dirty.w &&
            (!gl_res_span(s, k, &off, &n) ||
             (offset < off + n && off < offset + len))) {
            g->res[k].on = false;
        }
    }
}

/*
 * Whether MC bytes [lo, hi) may hold pixels GL drew and memory does not
 * have yet, in a slot not in mask skip.
 */
bool r500_gl_res_overlaps(R500Gl *g, uint64_t lo, uint64_t hi,
                          uint32_t skip)
{
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        uint64_t slo, shi;

        if (!g->res[k].on || !g->res[k].dirty.w || (skip >> k & 1)) {
            continue;
        }
        rect_span(&g->res[k].surf, &g->res[k].dirty, &slo, &shi);
        if (lo < shi && slo < hi) {
            return true;
        }
    }
    return false;
}

/* Bytes of a slot's texture: w x h pixels of its kind. */
static uint64_t slot_bytes(R500Gl *g, unsigned k)
{
    return (uint64_t)g->res[k].tw * g->res[k].th *
           r500_gl_kinds[g->res[k].kind].bytes;
}

/* The rectangle both a and b cover (w == 0: none). */
GlRect r500_gl_rect_clip(GlRect a, GlRect b)
{
    int x0 = MAX(a.x, b.x), y0 = MAX(a.y, b.y);
    int x1 = MIN(a.x + a.w, b.x + b.w), y1 = MIN(a.y + a.h, b.y + b.h);

    return x1 > x0 && y1 > y0 ? (GlRect) { x0, y0, x1 - x0, y1 - y0 }
                              : (GlRect) { 0 };
}

/*
 * Slot i holds bytes of surface sf's slot k (its kind and texture size
 * set) in the same kind and layout, its base whole rows of tiles away:
 * Mesa's colour clear through both units (r300's CBZB clear) draws a
 * target's upper half as colour and its lower half as the ZB, and the
 * next draw takes the whole target again.  The rows of i inside k's
 * texture move to k on the host (one copy of a byte still: i keeps the
 * rest, a band above or below), instead of through memory.  False where
 * that is not exact (the caller writes i back): the rest not a
 * rectangle, k's resident rectangle and the rows not adjoining, or, for
 * a slot of this draw (taken), its box in the rows moved.
 */
static bool gl_res_move(R500Chip *s, unsigned i, unsigned k,
                        const R500Surf *sf, GlRect b, bool taken)
{
    R500Gl *g = s->gl;
    const R500Surf *si = &g->res[i].surf;
    int64_t d = (int64_t)(si->base - sf->base);
    int64_t unit = sf->macro ? sf->Mth : sf->tiled ? sf->mth : 1;
    GlRect r = g->res[i].res, band, rest = { 0 }, m, kr = g->res[k].res;
    GlJob j = { .copy = true };
    int64_t oy, y0, y1;

    if (g->res[i].kind != g->res[k].kind || si->pitch != sf->pitch ||
        si->bpp != sf->bpp || si->macro != sf->macro ||
        si->micro != sf->micro || d % (int64_t)sf->row_bytes) {
        return false;
    }
    /* sf's row where i's row 0 is */
    oy = d / (int64_t)sf->row_bytes * unit;
    if (oy < -GL_TARGET_MAX || oy > GL_TARGET_MAX) {
        return false;
    }
    y0 = MAX(r.y, -oy);
    y1 = MIN(r.y + r.h, g->res[k].th - oy);
    if (y1 <= y0 || r.x + r.w > g->res[k].tw) {
        return false;
    }
    band = (GlRect) { r.x, y0, r.w, y1 - y0 };
    if (y0 > r.y && y1 < r.y + r.h) {
        return false;
    } else if (y0 > r.y) {
        rest = (GlRect) { r.x, r.y, r.w, y0 - r.y };
    } else if (y1 < r.y + r.h) {
        rest = (GlRect) { r.x, y1, r.w, r.y + r.h - y1 };
    }
    if (taken && (!rest.w || b.x < r.x || b.x + b.w > r.x + r.w ||
                  r500_gl_rect_clip(rect_union(rest, b), band).w)) {
        return false;
    }
    m = (GlRect) { band.x, band.y + oy, band.w, band.h };
    if (g->res[k].on && (kr.x != m.x || kr.w != m.w || m.y > kr.y + kr.h ||
                         kr.y > m.y + m.h)) {
        return false;
    }
    j.att[0].used = true;
    j.att[0].slot = k;
    j.att[0].kind = g->res[k].kind;
    j.att[0].tw = g->res[k].tw;
    j.att[0].th = g->res[k].th;
    j.copy_src = i;
    j.copy_r = band;
    j.copy_dx = m.x;
    j.copy_dy = m.y;
    r500_gl_call(g, &j);
    if (j.error) {
        r500_gl_note(s, R500_GL_NOTE_GL, j.error);
        return false;
    }
    {
        GlRect db = r500_gl_rect_clip(g->res[i].dirty, band);
        GlRect dm = db.w ? (GlRect) { db.x, db.y + oy, db.w, db.h }
                         : (GlRect) { 0 };

        if (g->res[k].on) {
            g->res[k].res = rect_union(kr, m);
            g->res[k].dirty = rect_union(g->res[k].dirty, dm);
        } else {
            g->res[k].on = true;
            g->res[k].kept = false;
            g->res[k].surf = *sf;
            g->res[k].res = m;
            g->res[k].dirty = dm;
        }
        g->res[i].dirty = r500_gl_rect_clip(g->res[i].dirty, rest);
        g->res[i].res = rest;
        g->res[i].on = rest.w != 0;
    }
    return true;
}

/*
 * The slot for surface sf as kind in this draw, box b; taken: the slots
 * this draw's other attachments have.  The surface's own slot if it has
 * one whose texture holds the box; else a free one (or the least
 * recently drawn, written back), its texture sized for the surface.
 * Any other slot over the same bytes moves its pixels in on the host
 * where it can (gl_res_move), else goes back to memory first: one copy
 * of a byte at a time.  -1 when this draw's attachments overlap.
 */
int r500_gl_res_slot(R500Chip *s, GlJob *j, const R500Surf *sf,
                     uint8_t kind, GlRect b, uint32_t taken)
{
    R500Gl *g = s->gl;
    int k = -1;
    uint64_t lo, hi, total = 0;
    GlRect u = b;

    for (unsigned i = 0; i < GL_RES_MAX; i++) {
        if (g->res[i].on && g->res[i].kind == kind &&
            gl_surf_same(&g->res[i].surf, sf)) {
            k = i;
            u = rect_union(g->res[i].res, b);
        }
    }
    if (k >= 0 && (taken >> k & 1)) {
        return -1;
    }
    if (k >= 0 && (u.x + u.w > g->res[k].tw || u.y + u.h > g->res[k].th)) {
        /* its texture would grow, losing its contents: memory first */
        r500_gl_flush_slots(s, 1u << k, false);
        u = b;
    }
    if (k < 0) {
        /*
         * A free slot, else the least recently drawn not this draw's.  Of
         * the free ones, the one this surface had last (its texture is
         * this size and kind: nothing to make again), else one of the
         * size and kind, else the least recently drawn.
         */
        int best = -1;

        for (unsigned i = 0; i < GL_RES_MAX; i++) {
            int fit = 0;

            if (taken >> i & 1) {
                continue;
            }
            if (!g->res[i].on) {
                fit = g->res[i].kind != kind ? 1
                      : gl_surf_same(&g->res[i].surf, sf) ? 3 : 2;
            }
            if (fit > best || (fit == best &&
                               g->res[i].used < g->res[k].used)) {
                k = i;
                best = fit;
            }
        }
        r500_gl_flush_slots(s, 1u << k, false);
    }
    if (!g->res[k].on) {
        /*
         * A new texture: the surface's width (its pitch; a box never
         * passes it) and the box's rows rounded up, so the next draws
         * rarely grow it.  A free slot's texture of this kind that holds
         * them already is kept as it is.
         */
        int tw = MAX(u.x + u.w, (int)MIN(sf->pitch, GL_TARGET_MAX));
        int th = MIN((u.y + u.h + 255) & ~255, GL_TARGET_MAX);

        if (g->res[k].kind != kind || g->res[k].tw < tw ||
            g->res[k].th < u.y + u.h) {
            g->res[k].kind = kind;
            g->res[k].tw = tw;
            g->res[k].th = th;
        }
    }
    g->res[k].used = g->tick;
    /* a texture this draw let go earlier is made again, not dropped */
    j->drop &= ~(1u << k);
    for (unsigned i = 0; i < GL_RES_MAX; i++) {
        uint64_t slo, shi;

        if (i == k || !g->res[i].on) {
            continue;
        }
        rect_span(sf, &u, &lo, &hi);
        rect_span(&g->res[i].surf, &g->res[i].res, &slo, &shi);
        if (lo < shi && slo < hi) {
            if (gl_res_move(s, i, k, sf, b, taken >> i & 1)) {
                u = rect_union(g->res[k].res, b);
                continue;
            }
            if (taken >> i & 1) {
                return -1;
            }
            r500_gl_flush_slots(s, 1u << i, false);
        }
    }
    /* within the budget: the least recently drawn others' textures go */
    for (unsigned i = 0; i < GL_RES_MAX; i++) {
        total += slot_bytes(g, i);
    }
    while (total > GL_RES_BYTES) {
        int v = -1;

        for (unsigned i = 0; i < GL_RES_MAX; i++) {
            if (i != k && !(taken >> i & 1) && g->res[i].tw &&
                (v < 0 || g->res[i].used < g->res[v].used)) {
                v = i;
            }
        }
        if (v < 0) {
            break;
        }
        r500_gl_flush_slots(s, 1u << v, false);
        total -= slot_bytes(g, v);
        g->res[v].tw = g->res[v].th = 0;
        j->drop |= 1u << v;
    }
    return k;
}

/*
 * Attachment a of this draw, surface sf as kind, box b: its slot, and
 * what to upload (the strips of the new resident rectangle not resident
 * yet), read from memory.  With covered, the draw fills all of b first
 * (gl_rect): nothing under it is read.  False when they are not in
 * memory.
 */
bool r500_gl_attach(R500Chip *s, GlJob *j, unsigned a, unsigned k,
                    const R500Surf *sf, GlRect b, bool covered)
{
    R500Gl *g = s->gl;
    GlRect r = g->res[k].on ? g->res[k].res : (GlRect) { 0 };
    GlRect u = rect_union(r, b);
    GlRect strips[4];
    unsigned n = 0;

    if (covered && (!r.w || gl_rect_in(r, b))) {
        /* all of u is b, which the fill writes */
    } else if (!r.w) {
        strips[n++] = u;
    } else {
        /* above and below r across u, left and right of it in its rows */
        if (r.y > u.y) {
            strips[n++] = (GlRect) { u.x, u.y, u.w, r.y - u.y };
        }
        if (u.y + u.h > r.y + r.h) {
            strips[n++] = (GlRect) { u.x, r.y + r.h, u.w,
                                     u.y + u.h - (r.y + r.h) };
        }
        if (r.x > u.x) {
            strips[n++] = (GlRect) { u.x, r.y, r.x - u.x, r.h };
        }
        if (u.x + u.w > r.x + r.w) {
            strips[n++] = (GlRect) { r.x + r.w, r.y,
                                     u.x + u.w - (r.x + r.w), r.h };
        }
    }
    j->att[a].used = true;
    j->att[a].slot = k;
    j->att[a].kind = g->res[k].kind;
    j->att[a].tw = g->res[k].tw;
    j->att[a].th = g->res[k].th;
    j->att[a].nup = n;
    for (unsigned i = 0; i < n; i++) {
        size_t bytes = (size_t)strips[i].w * strips[i].h * sf->bpp;

        j->att[a].up[i] = strips[i];
        j->att[a].up_px[i] = g_malloc(bytes);
        if (!gl_surface_io(s, sf, &strips[i], j->att[a].up_px[i], false)) {
            return false;
        }
        g->uploaded += bytes;
    }
    return true;
}

/* After the draw: the slot's resident and written rectangles. */
void r500_gl_attached(R500Gl *g, unsigned k, const R500Surf *sf, GlRect b,
                      bool written)
{
    GlRect r = g->res[k].on ? g->res[k].res : (GlRect) { 0 };
    GlRect d = g->res[k].on ? g->res[k].dirty : (GlRect) { 0 };

    g->res[k].on = true;
    g->res[k].kept = false;
    g->res[k].surf = *sf;
    g->res[k].res = rect_union(r, b);
    g->res[k].dirty = written ? rect_union(d, b) : d;
    g->res[k].used = g->tick;
}

void r500_gl_job_free(GlJob *j)
{
    for (unsigned a = 0; a < GL_ATTS; a++) {
        for (unsigned k = 0; k < 4; k++) {
            g_free(j->att[a].up_px[k]);
        }
    }
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        for (unsigned l = 0; l < R500_TX_LEVELS; l++) {
            g_free(j->tex[u].img[l]);
        }
    }
}
