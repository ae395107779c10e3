/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl: the renderer on the host's OpenGL, below the seam (DESIGN.md
 * section 6; renderer.h; docs/3d.md "The host-GL renderer").
 *
 * The draw walk stays the chip's: vertex shading (vap/), assembly,
 * clipping, culling, facing and the viewport (rast/setup.c) run on the
 * caller's thread as for soft, and the rasteriser hands each triangle to
 * this renderer's sink (R500RastSink.tri) instead of scan converting it.
 * The triangles go to GL with the RS as a vertex shader and the US
 * program as a fragment shader (rast/rs_glsl.c, us/us_glsl.c,
 * tx/tx_glsl.c), into textures that hold the draw's colour targets.
 *
 * Memory stays the truth: between the sync points of renderer.h the
 * draws' colour and depth surfaces stay in GL (each draw uploads what of
 * its box is not there yet), and a sync writes back what GL drew
 * (gl_flush).  Textures are cached by the hash of their bytes in VRAM.
 *
 * Threads: the renderer's EGL context lives on its own thread, made on
 * first use, so no other context of the process (QEMU's UI, a Mesa client
 * in the harness) ever finds it current, nor it theirs.  The caller
 * prepares everything that touches chip memory (which in QEMU may need
 * the big lock it holds) and hands the GL work over, waiting for it.
 *
 * What the translation or this renderer cannot express (blends GL
 * cannot match on some formats, unscaled fetches, ...) is drawn by soft,
 * that draw only, and said once per reason and reset (R500_GL_NOTE_*).
 *
 * The files: this one is the caller's side (the sink, the surfaces on
 * the host, the draw); gl_thread.c the GL thread; gl_state.c the RB3D/ZB
 * state and the US epilogue; gl_format.c the surfaces' GL formats;
 * gl_tex.c the texture cache; gl_int.h what they share.
 */
#include <math.h>
#include <string.h>

#include "gl_int.h"

/* ---- The caller's side ---- */

static R500Gl *gl_get(R500Chip *s)
{
    R500Gl *g = s->gl;

    if (!g) {
        g = s->gl = g_new0(R500Gl, 1);
        g_mutex_init(&g->lock);
        g_cond_init(&g->cond);
        g->ctx = EGL_NO_CONTEXT;
        g->dpy = EGL_NO_DISPLAY;
        g->verts = g_array_new(false, false, sizeof(float));
        g->elems = g_array_new(false, false, sizeof(uint32_t));
        g->vtx_cpu = !g_strcmp0(g_getenv("R500_GL_VERTEX"), "cpu");
        g->texc = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                        g_free);
        g->thread = g_thread_new("r500-gl", r500_gl_thread, g);
        g_mutex_lock(&g->lock);
        while (!g->started) {
            g_cond_wait(&g->cond, &g->lock);
        }
        g_mutex_unlock(&g->lock);
    }
    return g;
}

bool r500_gl_probe(R500Chip *s, const char **why)
{
    R500Gl *g = gl_get(s);

    *why = g->why;
    return g->ready;
}

static void gl_note(R500Chip *s, unsigned what, const char *why)
{
    R500Gl *g = s->gl;

    g->last_why = why;
    if (!(g->noted & (1u << what))) {
        g->noted |= 1u << what;
        r500_unimp(s, "3D: renderer gl: %s; such draws are drawn by soft",
                   why);
    }
}

/* A window coordinate as a pixel index, bounded (NaN: 0). */
static int64_t px_index(float v, bool up)
{
    float f = up ? ceilf(v) : floorf(v);

    return f > 1e9f ? 1000000000 : f < -1e9f ? -1000000000
           : f == f ? (int64_t)f : 0;
}

/* The rasteriser's triangles, as vertices of the RS layout. */
static void gl_tri(void *opaque, const R500Prim *prim, const R500Vertex *v0,
                   const R500Vertex *v1, const R500Vertex *v2,
                   const R500Vertex *prov)
{
    R500Chip *s = opaque;
    R500Gl *g = s->gl;
    const R500Vertex *v[3] = { v0, v1, v2 };
    float back = prim->back ? 1.0f : 0.0f;
    double area = ((double)v1->win[0] - v0->win[0]) *
                  ((double)v2->win[1] - v0->win[1]) -
                  ((double)v2->win[0] - v0->win[0]) *
                  ((double)v1->win[1] - v0->win[1]);

    /*
     * GL's facing (for two-sided stencil) from the winding: counter-
     * clockwise in GL's window, where y is the surface's row, is front.
     */
    if ((area < 0) != prim->back) {
        v[1] = v2;
        v[2] = v1;
    }
    for (int k = 0; k < 3; k++) {
        float win[4] = { v[k]->win[0], v[k]->win[1], v[k]->win[2],
                         v[k]->win[3] };

        if (g->zb_on) {
            /* depth_fixed() (rb3d.c) in GL's 0..1 of the buffer */
            double z = fmin(fmax(win[2], 0.0), 1.0);

            win[2] = (float)((z * g->zscale + g->zoffset + prim->depth_bias) /
                             16777215.0);
        }
        g_array_append_vals(g->verts, win, 4);
        g->bx0 = MIN(g->bx0, px_index(v[k]->win[0], false));
        g->by0 = MIN(g->by0, px_index(v[k]->win[1], false));
        g->bx1 = MAX(g->bx1, px_index(v[k]->win[0], true));
        g->by1 = MAX(g->by1, px_index(v[k]->win[1], true));
        for (unsigned i = 0; i < g->lay.n; i++) {
            const R500Vertex *src = g->lay.flat[i] ? prov : v[k];
            unsigned grp = g->lay.group[i];

            /* two-sided colour: back faces take colours 2/3 (scan.c) */
            if (prim->back && grp < 2 &&
                ((s->rast.colours >> (2 + grp)) & 1)) {
                grp += 2;
            }
            g_array_append_vals(g->verts, &src->attr[4 * grp], 4);
        }
        g_array_append_vals(g->verts, &back, 1);
        /* padding: every attribute starts at a multiple of 16 bytes */
        g_array_append_vals(g->verts, (const float[3]) { 0, 0, 0 }, 3);
        if (g->lay.sprite) {
            const float st[4] = { v[k]->sprite[0], v[k]->sprite[1], 0, 0 };

            g_array_append_vals(g->verts, st, 4);
        }
    }
    g->tris++;
}

/*
 * With tri() set the rasteriser emits no quads (rast.h): a bug if one
 * comes.
 */
static void gl_stray_quad(void *opaque, const R500Prim *prim, int x, int y,
                          unsigned mask)
{
    R500Chip *s = opaque;

    s->gl->stray = true;
}

/*
 * The rasteriser's rectangles (rast.h rect(): points, Mesa's clears are
 * one point the size of the target): as the first primitive of a draw,
 * one whose every pixel soft's fill path would store as one colour
 * (soft.c r500_soft_rect_uniform, rb3d.c r500_rb3d_fill_begin) is not
 * drawn but filled: its pixel's bytes in each target, from one quad
 * shaded on the CPU as soft does, go over the rectangle of the target's
 * copy on the host (GlJob.fill_*), and what is under it is not uploaded.
 * Anything else goes as triangles.
 */
static bool gl_rect(void *opaque, const R500Prim *prim, int x0, int y0,
                    int x1, int y1, uint64_t quads)
{
    R500Chip *s = opaque;
    R500Gl *g = s->gl;
    R500Worker *w = g->w;
    R500RbFill f;

    if (g->tris || g->rect.on || !r500_soft_rect_uniform(w->ctx, prim) ||
        !s->us.prog.straight ||
        !r500_rb3d_fill_begin(w, prim, x0, y0, x1, y1, &f) || f.zmasked) {
        return false;
    }
    if (!r500_soft_fill_shade(w, prim, x0, y0)) {
        return true;            /* the US budget ran out: nothing written */
    }
    g->rect.on = true;
    g->rect.r = (GlRect) { x0, y0, x1 - x0 + 1, y1 - y0 + 1 };
    g->rect.att = 0;
    for (int k = 0; k < R500_FILL_TARGETS; k++) {
        unsigned a = k < 4 ? k : s->rb3d.cb_clear ? GL_ATT_CBZB : GL_ATT_ZB;

        if (f.mem[k]) {
            g->rect.att |= 1u << a;
            r500_rb3d_fill_px(w, &f, k, g->rect.px[a]);
        }
    }
    /* every pixel passes (occlusion counts), as soft counts its fills */
    s->rb3d.zpass += (uint64_t)g->rect.r.w * g->rect.r.h;
    g->bx0 = x0;
    g->by0 = y0;
    g->bx1 = x1;
    g->by1 = y1;
    return true;
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
 * renderer's own accesses, which release nothing it holds (gl_release).
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
 * this clears).  The engines' writes drop it themselves (gl_written).
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
static void gl_flush_slots(R500Chip *s, uint32_t mask, bool keep)
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
            gl_note(s, R500_GL_NOTE_GL, j.error);
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

static void gl_flush(R500Chip *s, bool keep)
{
    gl_flush_slots(s, UINT32_MAX, keep);
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
 * (gl_release).  What is not in VRAM, or what the host will not hold,
 * goes back now, as do the draws' occlusion counts.  Holds over no
 * drawn byte any more are let go.  False: the host holds nothing (every
 * sync writes back).
 */
static bool gl_hold(R500Chip *s)
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
            gl_flush_slots(s, 1u << k, true);
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
            gl_flush_slots(s, 1u << k, true);
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
static void gl_release(R500Chip *s, uint64_t offset, uint64_t len)
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
        gl_flush_slots(s, mask, true);
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

static bool gl_res_overlaps(R500Gl *g, uint64_t lo, uint64_t hi,
                            uint32_t skip);

void r500_gl_flush_over(R500Chip *s, uint64_t lo, uint64_t hi)
{
    if (gl_res_overlaps(s->gl, lo, hi, 0)) {
        gl_flush(s, true);
    }
}

/*
 * Before a draw uses the host copies kept across a sync: one the CPU
 * wrote since is forgotten (it has nothing of GL's to write back: a
 * kept copy is clean until the first draw after the sync, which comes
 * here first).  Between syncs the CPU has no business in a surface the
 * GPU draws (the guest waits for a fence first), as before.
 */
static void gl_res_validate(R500Chip *s)
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
static void gl_written(R500Chip *s, uint64_t offset, uint64_t len)
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
static bool gl_res_overlaps(R500Gl *g, uint64_t lo, uint64_t hi,
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
static GlRect rect_clip(GlRect a, GlRect b)
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
                  rect_clip(rect_union(rest, b), band).w)) {
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
        gl_note(s, R500_GL_NOTE_GL, j.error);
        return false;
    }
    {
        GlRect db = rect_clip(g->res[i].dirty, band);
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
        g->res[i].dirty = rect_clip(g->res[i].dirty, rest);
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
static int gl_res_slot(R500Chip *s, GlJob *j, const R500Surf *sf,
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
        gl_flush_slots(s, 1u << k, false);
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
        gl_flush_slots(s, 1u << k, false);
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
            gl_flush_slots(s, 1u << i, false);
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
        gl_flush_slots(s, 1u << v, false);
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
static bool gl_attach(R500Chip *s, GlJob *j, unsigned a, unsigned k,
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
static void gl_attached(R500Gl *g, unsigned k, const R500Surf *sf, GlRect b,
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

static void gl_job_free(GlJob *j)
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

/*
 * Draw on GL; false (nothing drawn, nothing counted) when soft must: the
 * reason noted.
 */
static bool gl_try(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    R500Gl *g = gl_get(s);
    R500Worker *w;
    GlJob j = { 0 };
    GString *vs, *fs, *pro, *epi;
    uint16_t ops[16] = { 0 };
    uint64_t keys[R500_TX_UNITS];
    bool keyed[R500_TX_UNITS] = { false };
    const char *why = NULL;
    R500UsGlslIn gin = { 0 };
    R500RastSink sink = *in;
    unsigned note = R500_GL_NOTE_STATE;
    bool ok = false, host_vtx = false;

    g->last_why = NULL;
    g->vtx_last = false;
    if (!g->ready) {
        gl_note(s, R500_GL_NOTE_CONTEXT, g->why ? g->why : "no context");
        return false;
    }
    why = r500_gl_state(s, &j);
    vs = g_string_new(NULL);
    pro = g_string_new(NULL);
    fs = g_string_new(NULL);
    epi = g_string_new(NULL);
    if (!why) {
        why = r500_gl_depth(s, &j);
    }
    if (!why) {
        note = R500_GL_NOTE_TARGET;
        why = r500_gl_targets(s, &j, epi);
    }
    if (!why) {
        /* the vertex stage on the host where it can be, else the CPU's */
        host_vtx = r500_gl_vertex(s, num, &j, vs, pro);
        if (!host_vtx && !r500_rs_glsl(&s->rast, vs, pro, &j.lay, &why)) {
            note = R500_GL_NOTE_PROGRAM;
        }
    }
    if (!why) {
        gin.prologue = pro->str;
        gin.ztae = s->us.zero_times_anything;
        gin.epilogue = true;
        gin.regs = s->regs;
        gin.max_steps = GL_US_STEPS;
        if (!r500_us_glsl(&s->us.prog, &gin, fs, ops, &why)) {
            note = R500_GL_NOTE_PROGRAM;
        }
    }
    for (unsigned u = 0; u < 16 && !why; u++) {
        if (ops[u] && !r500_tx_glsl(&s->tx.unit[u], u, ops[u], fs, &why)) {
            note = R500_GL_NOTE_TEXTURE;
        }
    }
    if (why) {
        goto out;
    }
    g_string_append(fs, epi->str);
    gl_res_validate(s);
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];
        uint64_t lo = t->level[0].surf.base, hi = t->chain_end;
        uint32_t k;

        /*
         * a texture drawn into since the last sync: made from the host's
         * copies where it can be (gl_tex.c), else memory first
         */
        if (ops[u] && t->valid && gl_res_overlaps(g, lo, hi, 0)) {
            k = r500_gl_tex_slot(s, &j, u);
            if (k && !gl_res_overlaps(g, lo, hi, k)) {
                j.tex[u].from_slots = k;
                continue;
            }
            gl_flush(s, true);
            for (unsigned v = 0; v < R500_TX_UNITS; v++) {
                j.tex[v].from_slots = 0;
            }
            break;
        }
    }
    w = r500_soft_begin(s);
    note = R500_GL_NOTE_TEXTURE;
    g->tick++;
    why = r500_gl_textures(s, &j, ops, w, keys, keyed);
    if (why) {
        goto out;
    }

    /*
     * The draw walk, the triangles collected; with the vertex stage on
     * the host, the vertices and triangles are there already.
     */
    g->rect.on = false;
    if (!host_vtx) {
        g->lay = j.lay;
        g->stride = 4 + 4 * j.lay.n + 4 + (j.lay.sprite ? 4 : 0);
        g_array_set_size(g->verts, 0);
        g->bx0 = g->by0 = INT64_MAX;
        g->bx1 = g->by1 = INT64_MIN;
        g->tris = 0;
        g->stray = false;
        sink.tri = gl_tri;
        sink.quad = gl_stray_quad;
        sink.rect = gl_rect;
        sink.quad_opaque = s;
        g->w = w;
        r500_rast_draw(s, num, &sink);
    }
    ok = true;
    if (g->stray) {
        gl_note(s, R500_GL_NOTE_STRAY, "a quad reached the triangle sink");
    }
    if (!g->tris && !g->rect.on) {
        goto out;
    }

    /*
     * The rectangle the triangles can touch: their bounds in the scissor
     * (a pixel more each side for the rounding of their edges), or the
     * fill's pixels where the draw is that alone; no pixel at or past
     * any target's pitch (rb3d.c color_write).
     */
    {
        const R500Rast *r = &s->rast;
        int64_t m = g->tris ? 1 : 0;
        int64_t x0 = MAX(g->bx0 - m, r->sc_x0), y0 = MAX(g->by0 - m, r->sc_y0);
        int64_t x1 = MIN(g->bx1 + m, r->sc_x1), y1 = MIN(g->by1 + m, r->sc_y1);

        x0 = MAX(x0, 0);
        y0 = MAX(y0, 0);
        /* without a colour target, no target's pitch (depth only) */
        for (unsigned t = 0; t < j.ntargets; t++) {
            x1 = MIN(x1, (int64_t)s->rb3d.cb[t].surf.pitch - 1);
        }
        if (j.zb.on || j.cbzb) {
            /*
             * No pixel past the ZB's pitch passes (zb.c); the ZB colour
             * clear writes none there either (its colour target, the
             * other half of one surface, has the same pitch).
             */
            x1 = MIN(x1, (int64_t)s->rb3d.zb.surf.pitch - 1);
        }
        x1 = MIN(x1, GL_TARGET_MAX - 1);
        y1 = MIN(y1, GL_TARGET_MAX - 1);
        if (x1 < x0 || y1 < y0) {
            goto out;
        }
        j.bx = x0;
        j.by = y0;
        j.bw = x1 - x0 + 1;
        j.bh = y1 - y0 + 1;
        j.sc[0] = j.bx;
        j.sc[1] = j.by;
        j.sc[2] = j.bw;
        j.sc[3] = j.bh;
        /*
         * One window for every draw: window to clip space and back in GL
         * is then the same arithmetic whatever the draw's box, so a draw
         * split at a CP slice or a sync gives the pixels of one that is
         * not (a power of two: the divisions are exact).
         */
        j.size[0] = j.size[1] = GL_TARGET_MAX;
    }
    /*
     * The draw's surfaces, each in its slot: colour targets, then the ZB
     * as colour (its clear) or as depth.  Slots of other surfaces stay
     * resident.  If two of them share bytes with each other's copies,
     * everything goes back and they are tried once more from memory;
     * two that still share (targets over each other, which the hardware
     * leaves undefined) drop the draw.
     */
    for (unsigned tries = 0;; tries++) {
        GlRect b = { j.bx, j.by, j.bw, j.bh };
        uint32_t taken = 0;
        unsigned a;

        for (a = 0; a < GL_ATTS; a++) {
            const R500Surf *sf = a < 4 ? &s->rb3d.cb[a].surf
                                       : &s->rb3d.zb.surf;
            bool want = a < 4 ? a < j.ntargets
                        : a == GL_ATT_ZB ? j.zb.on : j.cbzb;
            uint8_t kind = a < 4 ? j.cb[a].kind
                           : a == GL_ATT_ZB ? (j.zb.z24 ? GL_KIND_Z24
                                                        : GL_KIND_Z16)
                           : j.cbzb_bpp == 4 ? GL_KIND_RGBA8 : GL_KIND_RG8;
            int k;

            if (!want) {
                continue;
            }
            k = gl_res_slot(s, &j, sf, kind, b, taken);
            if (k < 0) {
                break;
            }
            taken |= 1u << k;
            if (!gl_attach(s, &j, a, k, sf, b, g->rect.on && !g->tris &&
                           (g->rect.att >> a & 1) &&
                           gl_rect_in(b, g->rect.r))) {
                /*
                 * Not wholly in VRAM.  The vertices are shaded already,
                 * so the draw is finished here: the guest's bad address
                 * draws nothing, as soft drops the pixels it cannot write.
                 */
                r500_guest_error(s, "3D: renderer gl: %s is not in "
                                 "memory; draw dropped", a < 4
                                 ? "a colour target" : "the depth buffer");
                goto out;
            }
        }
        if (a == GL_ATTS) {
            break;
        }
        if (tries) {
            r500_guest_error(s, "3D: renderer gl: the draw's colour "
                             "targets and depth buffer overlap in memory; "
                             "draw dropped");
            goto out;
        }
        gl_flush(s, false);
        for (a = 0; a < GL_ATTS; a++) {
            for (unsigned i = 0; i < 4; i++) {
                g_free(j.att[a].up_px[i]);
            }
            memset(&j.att[a], 0, sizeof(j.att[a]));
        }
    }
    j.vs = vs->str;
    j.fs = fs->str;
    if (!host_vtx) {
        j.verts = (const float *)g->verts->data;
        j.nverts = g->verts->len / g->stride;
        j.stride = g->stride;
    }
    if (g->rect.on) {
        j.fill_r = rect_clip(g->rect.r, (GlRect) { j.bx, j.by, j.bw, j.bh });
        j.fill_att = g->rect.att;
        memcpy(j.fill_px, g->rect.px, sizeof(j.fill_px));
    }
    j.kconst = &s->us.kconst[0][0];
    memcpy(j.doomed, g->doomed, sizeof(j.doomed));
    j.ndoomed = g->ndoomed;
    g->ndoomed = 0;
    r500_gl_call(g, &j);
    r500_gl_tex_keep(g, &j, keys, keyed);
    g->uncounted++;
    g->unsubmitted = true;
    if (j.error) {
        gl_note(s, R500_GL_NOTE_GL, j.error);
        goto out;
    }
    {
        GlRect b = { j.bx, j.by, j.bw, j.bh };

        for (unsigned a = 0; a < GL_ATTS; a++) {
            bool written = a < 4 ? j.cb[a].mask != 0
                           : a == GL_ATT_CBZB || j.zb.z_write || j.zb.stencil;

            if (j.att[a].used) {
                gl_attached(g, j.att[a].slot, a < 4 ? &s->rb3d.cb[a].surf
                            : &s->rb3d.zb.surf, b, written);
            }
        }
    }
    s->rb3d.pixels += (uint64_t)j.bw * j.bh;
    if (host_vtx) {
        /* what the CPU's path counts of its vertices and triangles */
        g->vtx_draws++;
        g->vtx_last = true;
        s->vap.vertices += j.nverts;
        s->vap.shaded += j.nverts;
        s->rast.prims += g->tris;
    }

out:
    if (why) {
        gl_note(s, note, why);
    }
    /*
     * The texels were read through the page cache soft's draws use
     * (r500_soft_begin): drop it as soft does at a draw's end, or the next
     * draw reads pages of GART memory the CPU has rewritten since.
     */
    r500_rb3d_finish(s);
    gl_job_free(&j);
    g_string_free(vs, true);
    g_string_free(pro, true);
    g_string_free(fs, true);
    g_string_free(epi, true);
    return ok;
}

static void gl_draw(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    static int verbose = -1;
    bool ok = gl_try(s, num, in);

    if (verbose < 0) {
        /* R500_GL_VERBOSE: say on stderr where each draw went */
        verbose = g_getenv("R500_GL_VERBOSE") != NULL;
    }
    if (verbose) {
        g_printerr("r500 gl: draw %" G_GUINT64_FORMAT " of %u vertices "
                   "(type %u): %s\n", s->gl->draws + s->gl->fallbacks, num,
                   s->rast.prim_type, !ok ? (s->gl->last_why ?
                   s->gl->last_why : "soft") : s->gl->vtx_last ?
                   "gl, vertices on the host" : "gl");
    }
    if (ok) {
        s->gl->draws++;
        return;
    }
    s->gl->fallbacks++;
    /* soft reads and writes memory: the host's surfaces go there first */
    gl_flush(s, true);
    r500_soft_renderer.draw(s, num, in);
}

static uint64_t gl_work(R500Chip *s)
{
    /* soft's, for the draws it draws; GL's own work is not metered */
    return r500_soft_renderer.work(s);
}

/* The draws' occlusion counts into rb3d.zpass; the surfaces stay. */
static void gl_collect(R500Chip *s)
{
    R500Gl *g = s->gl;
    GlJob j = { .sync_only = true, .counts = true };

    if (g && g->uncounted) {
        r500_gl_call(g, &j);
        s->rb3d.zpass += j.zpass;
        g->uncounted = 0;
    }
}

/* Only the CPU or the display can look at the surfaces after these. */
static bool gl_sync_may_hold(R500Sync why)
{
    return why == R500_SYNC_FENCE || why == R500_SYNC_IDLE ||
           why == R500_SYNC_CPU;
}

/*
 * Whoever looks next sees memory: the surfaces GL holds go back, with
 * the draws' counts.  A reset of the count needs only the counts.
 */
static void gl_sync(R500Chip *s, R500Sync why)
{
    if (why == R500_SYNC_COUNT) {
        gl_collect(s);
        return;
    }
    /* what only the CPU or the display could look at next is held */
    if (gl_sync_may_hold(why) && gl_hold(s)) {
        return;
    }
    /* a reset or a save forgets the copies: nothing is kept across */
    gl_flush(s, why != R500_SYNC_RESET && why != R500_SYNC_MIGRATE);
}

/*
 * The ZB's fast-clear expansion on the host: the depth buffer's slot
 * (made if it has none, nothing uploaded: every pixel it holds is the
 * clear's) is filled by GL, and written back at the next sync like a
 * draw's depth.  A slot holding rows outside the rectangle goes back to
 * memory first.  False, for the memory fill, without a context or past
 * the largest target.
 */
static bool gl_zb_fill(R500Chip *s, const R500Surf *sf, uint32_t w,
                       uint32_t h, uint32_t v)
{
    R500Gl *g = gl_get(s);
    GlJob j = { .fill = true };
    GlRect b = { 0, 0, w, h };
    uint8_t kind = sf->bpp == 4 ? GL_KIND_Z24 : GL_KIND_Z16;
    int k;

    if (!g->ready || !w || !h || w > GL_TARGET_MAX || h > GL_TARGET_MAX) {
        return false;
    }
    g->tick++;
    k = gl_res_slot(s, &j, sf, kind, b, 0);
    if (k < 0) {
        return false;
    }
    if (g->res[k].on) {
        const GlRect *r = &g->res[k].res;

        if (r->x + r->w > b.w || r->y + r->h > b.h) {
            gl_flush_slots(s, 1u << k, false);
        }
    }
    j.att[GL_ATT_ZB] = (typeof(j.att[0])) {
        .used = true, .slot = k, .kind = kind,
        .tw = g->res[k].tw, .th = g->res[k].th,
    };
    j.fill_r = b;
    j.fill_att = 1u << GL_ATT_ZB;
    for (unsigned i = 0; i < sf->bpp; i++) {
        j.fill_px[GL_ATT_ZB][i] = v >> (8 * i);
    }
    r500_gl_call(g, &j);
    if (j.error) {
        gl_note(s, R500_GL_NOTE_GL, j.error);
        g->res[k].on = false;
        return false;
    }
    /* resident whole: what it held before is under the fill */
    g->res[k].on = false;
    gl_attached(g, k, sf, b, true);
    return true;
}

static void gl_reset(R500Chip *s)
{
    if (s->gl) {
        /* written back by the reset's sync (core.c): nothing resident */
        s->gl->noted = 0;
    }
    r500_soft_renderer.reset(s);
}

void r500_gl_free(R500Chip *s)
{
    R500Gl *g = s->gl;

    if (!g) {
        return;
    }
    if (g->ready) {
        /* a renderer switched away from leaves memory the truth */
        gl_flush(s, false);
    }
    g_mutex_lock(&g->lock);
    g->quit = true;
    g_cond_broadcast(&g->cond);
    g_mutex_unlock(&g->lock);
    g_thread_join(g->thread);
    g_array_free(g->verts, true);
    g_array_free(g->elems, true);
    /* the textures went with the context */
    g_hash_table_destroy(g->texc);
    g_mutex_clear(&g->lock);
    g_cond_clear(&g->cond);
    g_free(g);
    s->gl = NULL;
}

static void gl_fini(R500Chip *s)
{
    r500_soft_renderer.fini(s);
    r500_gl_free(s);
}

void r500_gl_stats(R500Chip *s, uint64_t *draws, uint64_t *fallbacks)
{
    *draws = s->gl ? s->gl->draws : 0;
    *fallbacks = s->gl ? s->gl->fallbacks : 0;
}

uint64_t r500_gl_kept(R500Chip *s)
{
    return s->gl ? s->gl->kept : 0;
}

uint64_t r500_gl_uploaded(R500Chip *s)
{
    return s->gl ? s->gl->uploaded : 0;
}

uint64_t r500_gl_vertex_draws(R500Chip *s)
{
    return s->gl ? s->gl->vtx_draws : 0;
}

void r500_gl_holds(R500Chip *s, uint64_t *held, uint64_t *released)
{
    *held = s->gl ? s->gl->held : 0;
    *released = s->gl ? s->gl->released : 0;
}

static const R500RendererOps gl_renderer = {
    .name = "gl",
    .draw = gl_draw,
    .work = gl_work,
    .sync = gl_sync,
    .written = gl_written,
    .release = gl_release,
    .zb_fill = gl_zb_fill,
    .reset = gl_reset,
    .fini = gl_fini,
};

const R500RendererOps *r500_gl_ops(void)
{
    return &gl_renderer;
}
