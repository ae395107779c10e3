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
 * program as a fragment shader (gl/rs_glsl.c, gl/us_glsl.c,
 * gl/tx_glsl.c), into textures that hold the draw's colour targets.
 *
 * Memory stays the truth: between the sync points of renderer.h the
 * draws' colour and depth surfaces stay in GL (each draw uploads what of
 * its box is not there yet), and a sync writes back what GL drew
 * (r500_gl_flush).  Textures are cached by the hash of their bytes in VRAM.
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
 * The files: this one is the caller's side (the sink, the draw, the
 * renderer's ops); gl_res.c the surfaces kept on the host; gl_thread.c
 * the GL thread; gl_state.c the RB3D/ZB
 * state and the US epilogue; gl_format.c the surfaces' GL formats;
 * gl_tex.c the texture cache; gl_int.h what they share.
 */
#include <math.h>
#include <string.h>

#include "gl_int.h"

/* ---- The caller's side ---- */

/*
 * gl-fault: "display", "context", or "draw:N" (the Nth draw job fails
 * with an OpenGL error); anything else forces nothing.  For the tests of
 * the renderer's faults (/gl/renderer/fault-*).
 */
static void gl_fault_setting(R500Gl *g, const char *v)
{
    if (!v) {
        return;
    }
    if (!strcmp(v, "display")) {
        g->fault_open = GL_FAULT_DISPLAY;
    } else if (!strcmp(v, "context")) {
        g->fault_open = GL_FAULT_CONTEXT;
    } else if (!strncmp(v, "draw:", 5)) {
        g->fault_draw = g_ascii_strtoull(v + 5, NULL, 10);
    }
}

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
        g->s = s;
        g->vtx_cpu = !g_strcmp0(r500_setting(s, "gl-vertex"), "cpu");
        g->device_sw = !g_strcmp0(r500_setting(s, "gl-device"), "software");
        gl_fault_setting(g, r500_setting(s, "gl-fault"));
        g->verbose = !r500_setting(s, "gl-verbose") ? 0 :
                     !strcmp(r500_setting(s, "gl-verbose"), "2") ? 2 : 1;
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

/* The renderer's thread and its context, made on first use. */
static bool gl_open(R500Chip *s, const char **why)
{
    R500Gl *g = gl_get(s);

    *why = g->why;
    return g->ready;
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
 * (rast/quad.c r500_rast_rect_uniform, rb3d.c r500_rb3d_fill_begin) is not
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

    if (g->tris || g->rect.on || !r500_rast_rect_uniform(w->ctx, prim) ||
        !s->us.prog.straight ||
        !r500_rb3d_fill_begin(w, prim, x0, y0, x1, y1, &f) || f.zmasked) {
        return false;
    }
    if (!r500_rast_fill_shade(w, prim, x0, y0)) {
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
 * An OpenGL error in a draw: the context is not to be trusted with the
 * next, so gl gives up for good and soft draws from here on.  What gl
 * held goes back to memory first (the failed draw's command had no
 * effect, GL's rule for an erring command; the draws before it are
 * whole), and soft draws the failed draw from there.  One line, once per
 * reset: the reason's note, and the context's note taken with it.
 */
static void gl_give_up(R500Chip *s, const char *why)
{
    R500Gl *g = s->gl;

    r500_gl_flush(s, false);
    if (r500_once(&g->noted, 1u << R500_GL_NOTE_GL)) {
        r500_unimp(s, "3D: renderer gl: %s; soft draws from here on", why);
    }
    g->noted |= 1u << R500_GL_NOTE_CONTEXT;
    g->why = why;
    g->ready = false;
}

/* The shaders' text as a draw builds it. */
typedef struct GlText {
    GString *vs, *pro, *fs, *epi;
} GlText;

/*
 * The draw's state and programs in GL's terms: the RB3D/ZB state, the
 * targets and the US epilogue (epi), the vertex stage (on the host into
 * vs, or the RS over the CPU's vertices), the US program with its
 * prologue (pro) and its texture functions into fs (ops: the TEX ops each
 * unit is sampled with).  NULL, or why GL cannot (*note: which kind).
 */
static const char *gl_programs(R500Chip *s, GlJob *j, uint32_t num,
                               GlText *t, uint16_t ops[16], bool *host_vtx,
                               unsigned *note)
{
    R500UsGlslIn gin = { 0 };
    const char *why;

    why = r500_gl_state(s, j);
    if (!why) {
        why = r500_gl_depth(s, j);
    }
    if (!why) {
        *note = R500_GL_NOTE_TARGET;
        why = r500_gl_targets(s, j, t->epi);
    }
    if (!why) {
        /* the vertex stage on the host where it can be, else the CPU's */
        *host_vtx = r500_gl_vertex(s, num, j, t->vs, t->pro);
        if (!*host_vtx &&
            !r500_rs_glsl(&s->rast, t->vs, t->pro, &j->lay, &why)) {
            *note = R500_GL_NOTE_PROGRAM;
        }
    }
    if (!why) {
        gin.prologue = t->pro->str;
        gin.ztae = s->us.zero_times_anything;
        gin.epilogue = true;
        gin.regs = s->regs;
        gin.max_steps = GL_US_STEPS;
        if (!r500_us_glsl(&s->us.prog, &gin, t->fs, ops, &why)) {
            *note = R500_GL_NOTE_PROGRAM;
        }
    }
    for (unsigned u = 0; u < 16 && !why; u++) {
        if (ops[u] && !r500_tx_glsl(&s->tx.unit[u], u, ops[u], t->fs, &why)) {
            *note = R500_GL_NOTE_TEXTURE;
        }
    }
    return why;
}

/*
 * A texture drawn into since the last sync: made from the host's copies
 * where it can be (gl_tex.c), else memory first (everything written back,
 * no unit from the slots).
 */
static void gl_tex_sources(R500Chip *s, GlJob *j, const uint16_t ops[16])
{
    R500Gl *g = s->gl;

    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];
        uint64_t lo = t->level[0].surf.base, hi = t->chain_end;
        uint32_t k;

        if (ops[u] && t->valid && r500_gl_res_overlaps(g, lo, hi, 0)) {
            k = r500_gl_tex_slot(s, j, u);
            if (k && !r500_gl_res_overlaps(g, lo, hi, k)) {
                j->tex[u].from_slots = k;
                continue;
            }
            r500_gl_flush(s, true);
            for (unsigned v = 0; v < R500_TX_UNITS; v++) {
                j->tex[v].from_slots = 0;
            }
            break;
        }
    }
}

/*
 * The rectangle the triangles can touch (false: none): their bounds in
 * the scissor (a pixel more each side for the rounding of their edges),
 * or the fill's pixels where the draw is that alone; no pixel at or past
 * any target's pitch (rb3d.c color_write).
 */
static bool gl_box(R500Chip *s, GlJob *j)
{
    R500Gl *g = s->gl;
    const R500Rast *r = &s->rast;
    int64_t m = g->tris ? 1 : 0;
    int64_t x0 = MAX(g->bx0 - m, r->sc_x0), y0 = MAX(g->by0 - m, r->sc_y0);
    int64_t x1 = MIN(g->bx1 + m, r->sc_x1), y1 = MIN(g->by1 + m, r->sc_y1);

    x0 = MAX(x0, 0);
    y0 = MAX(y0, 0);
    /* without a colour target, no target's pitch (depth only) */
    for (unsigned t = 0; t < j->ntargets; t++) {
        x1 = MIN(x1, (int64_t)s->rb3d.cb[t].surf.pitch - 1);
    }
    if (j->zb.on || j->cbzb) {
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
        return false;
    }
    j->bx = x0;
    j->by = y0;
    j->bw = x1 - x0 + 1;
    j->bh = y1 - y0 + 1;
    j->sc[0] = j->bx;
    j->sc[1] = j->by;
    j->sc[2] = j->bw;
    j->sc[3] = j->bh;
    /*
     * One window for every draw: window to clip space and back in GL
     * is then the same arithmetic whatever the draw's box, so a draw
     * split at a CP slice or a sync gives the pixels of one that is
     * not (a power of two: the divisions are exact).
     */
    j->size[0] = j->size[1] = GL_TARGET_MAX;
    return true;
}

/*
 * The draw's surfaces, each in its slot: colour targets, then the ZB
 * as colour (its clear) or as depth.  Slots of other surfaces stay
 * resident.  If two of them share bytes with each other's copies,
 * everything goes back and they are tried once more from memory;
 * two that still share (targets over each other, which the hardware
 * leaves undefined) drop the draw (false, as for a surface not in
 * memory).
 */
static bool gl_attach_all(R500Chip *s, GlJob *j)
{
    R500Gl *g = s->gl;

    for (unsigned tries = 0;; tries++) {
        GlRect b = { j->bx, j->by, j->bw, j->bh };
        uint32_t taken = 0;
        unsigned a;

        for (a = 0; a < GL_ATTS; a++) {
            const R500Surf *sf = a < 4 ? &s->rb3d.cb[a].surf
                                       : &s->rb3d.zb.surf;
            bool want = a < 4 ? a < j->ntargets
                        : a == GL_ATT_ZB ? j->zb.on : j->cbzb;
            uint8_t kind = a < 4 ? j->cb[a].kind
                           : a == GL_ATT_ZB ? (j->zb.z24 ? GL_KIND_Z24
                                                        : GL_KIND_Z16)
                           : j->cbzb_bpp == 4 ? GL_KIND_RGBA8 : GL_KIND_RG8;
            int k;

            if (!want) {
                continue;
            }
            k = r500_gl_res_slot(s, j, sf, kind, b, taken);
            if (k < 0) {
                break;
            }
            taken |= 1u << k;
            if (!r500_gl_attach(s, j, a, k, sf, b,
                                g->rect.on && !g->tris &&
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
                return false;
            }
        }
        if (a == GL_ATTS) {
            return true;
        }
        if (tries) {
            r500_guest_error(s, "3D: renderer gl: the draw's colour "
                             "targets and depth buffer overlap in memory; "
                             "draw dropped");
            return false;
        }
        r500_gl_flush(s, false);
        for (a = 0; a < GL_ATTS; a++) {
            for (unsigned i = 0; i < 4; i++) {
                g_free(j->att[a].up_px[i]);
            }
            memset(&j->att[a], 0, sizeof(j->att[a]));
        }
    }
}

/* GL drew: the slots' records, and the counters the CPU's path keeps. */
static void gl_drawn(R500Chip *s, GlJob *j, bool host_vtx)
{
    R500Gl *g = s->gl;
    GlRect b = { j->bx, j->by, j->bw, j->bh };

    for (unsigned a = 0; a < GL_ATTS; a++) {
        bool written = a < 4 ? j->cb[a].mask != 0
                       : a == GL_ATT_CBZB || j->zb.z_write || j->zb.stencil;

        if (j->att[a].used) {
            r500_gl_attached(g, j->att[a].slot,
                             a < 4 ? &s->rb3d.cb[a].surf : &s->rb3d.zb.surf,
                             b, written);
        }
    }
    s->rb3d.pixels += (uint64_t)j->bw * j->bh;
    if (host_vtx) {
        /* what the CPU's path counts of its vertices and triangles */
        g->vtx_draws++;
        g->vtx_last = true;
        s->vap.vertices += j->nverts;
        s->vap.shaded += j->nverts;
        s->rast.prims += g->tris;
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
    GlText t;
    uint16_t ops[16] = { 0 };
    uint64_t keys[R500_TX_UNITS];
    bool keyed[R500_TX_UNITS] = { false };
    const char *why = NULL;
    R500RastSink sink = *in;
    unsigned note = R500_GL_NOTE_STATE;
    bool ok = false, host_vtx = false;

    g->last_why = NULL;
    g->vtx_last = false;
    if (!g->ready) {
        r500_gl_note(s, R500_GL_NOTE_CONTEXT, g->why ? g->why : "no context");
        return false;
    }
    t.vs = g_string_new(NULL);
    t.pro = g_string_new(NULL);
    t.fs = g_string_new(NULL);
    t.epi = g_string_new(NULL);
    why = gl_programs(s, &j, num, &t, ops, &host_vtx, &note);
    if (why) {
        goto out;
    }
    g_string_append(t.fs, t.epi->str);
    r500_gl_res_validate(s);
    gl_tex_sources(s, &j, ops);
    w = &s->pipe.w0;            /* the seam's (r500_pipe_begin) */
    note = R500_GL_NOTE_TEXTURE;
    g->tick++;
    why = r500_gl_textures(s, &j, ops, w, keys, keyed, &note);
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
        r500_gl_note(s, R500_GL_NOTE_STRAY, "a quad reached the triangle sink");
    }
    if (!g->tris && !g->rect.on) {
        goto out;
    }

    if (!gl_box(s, &j) || !gl_attach_all(s, &j)) {
        goto out;
    }
    j.vs = t.vs->str;
    j.fs = t.fs->str;
    if (!host_vtx) {
        j.verts = (const float *)g->verts->data;
        j.nverts = g->verts->len / g->stride;
        j.stride = g->stride;
    }
    if (g->rect.on) {
        j.fill_r = r500_gl_rect_clip(g->rect.r,
                                     (GlRect) { j.bx, j.by, j.bw, j.bh });
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
        gl_give_up(s, j.error);
        ok = false;
        goto out;
    }
    gl_drawn(s, &j, host_vtx);

out:
    if (why) {
        r500_gl_note(s, note, why);
    }
    /*
     * The texels were read through the page cache soft's draws use
     * (r500_pipe_begin): drop it as soft does at a draw's end, or the next
     * draw reads pages of GART memory the CPU has rewritten since.
     */
    r500_rb3d_finish(s);
    r500_gl_job_free(&j);
    g_string_free(t.vs, true);
    g_string_free(t.pro, true);
    g_string_free(t.fs, true);
    g_string_free(t.epi, true);
    return ok;
}

static bool gl_draw(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    bool ok = gl_try(s, num, in);

    if (s->gl->verbose) {
        /* gl-verbose: where each draw went */
        r500_note(s, "gl: draw %" G_GUINT64_FORMAT " of %u vertices "
                  "(type %u): %s", s->gl->draws + s->gl->fallbacks, num,
                  s->rast.prim_type, !ok ? (s->gl->last_why ?
                  s->gl->last_why : "soft") : s->gl->vtx_last ?
                  "gl, vertices on the host" : "gl");
    }
    if (ok) {
        s->gl->draws++;
    } else {
        /* the seam has soft draw it, on memory (R500_SYNC_MEMORY) */
        s->gl->fallbacks++;
    }
    return ok;
}

static uint64_t gl_work(R500Chip *s)
{
    /* GL's own work is not metered (the seam adds soft's, for its draws) */
    return 0;
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
    if (gl_sync_may_hold(why) && r500_gl_hold(s)) {
        return;
    }
    /* a reset or a save forgets the copies: nothing is kept across */
    r500_gl_flush(s, why != R500_SYNC_RESET && why != R500_SYNC_MIGRATE);
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
    k = r500_gl_res_slot(s, &j, sf, kind, b, 0);
    if (k < 0) {
        return false;
    }
    if (g->res[k].on) {
        const GlRect *r = &g->res[k].res;

        if (r->x + r->w > b.w || r->y + r->h > b.h) {
            r500_gl_flush_slots(s, 1u << k, false);
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
        r500_gl_note(s, R500_GL_NOTE_GL, j.error);
        g->res[k].on = false;
        return false;
    }
    /* resident whole: what it held before is under the fill */
    g->res[k].on = false;
    r500_gl_attached(g, k, sf, b, true);
    return true;
}

static void gl_reset(R500Chip *s)
{
    if (s->gl) {
        /* written back by the reset's sync (r500.c): nothing resident */
        s->gl->noted = 0;
    }
}

static void gl_close(R500Chip *s)
{
    R500Gl *g = s->gl;

    if (!g) {
        return;
    }
    if (g->ready) {
        /* a renderer switched away from leaves memory the truth */
        r500_gl_flush(s, false);
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

/*
 * Its counters (the stats property): its draws and those it left to
 * soft, surfaces kept across a sync, bytes uploaded, draws whose vertices
 * the host shaded, textures made from surfaces it held (and the passes
 * those took, and the draws that sampled a held surface as it is), and
 * what it held past a fence and the looks that brought it back.  All 0
 * while it has not run on this chip.
 */
static void gl_stats(R500Chip *s, R500StatFn fn, void *opaque)
{
    /* not made yet on this chip: every counter 0 (static: it is large) */
    static R500Gl none;
    const R500Gl *g = s->gl ? s->gl : &none;

    fn(opaque, "render-gl-draws", g->draws);
    fn(opaque, "render-gl-fallbacks", g->fallbacks);
    fn(opaque, "render-gl-kept", g->kept);
    fn(opaque, "render-gl-uploaded", g->uploaded);
    fn(opaque, "render-gl-vertex-draws", g->vtx_draws);
    fn(opaque, "render-gl-over-limit", g->over_limit);
    fn(opaque, "render-gl-texture-cache-bytes", g->texc_bytes);
    fn(opaque, "render-gl-slot-textures", g->tex_slots);
    fn(opaque, "render-gl-slot-texture-passes",
       __atomic_load_n(&g->stex_passes, __ATOMIC_RELAXED));
    fn(opaque, "render-gl-slot-textures-as-is",
       __atomic_load_n(&g->stex_as_is, __ATOMIC_RELAXED));
    fn(opaque, "render-gl-held", g->held);
    fn(opaque, "render-gl-released", g->released);
}

const R500RendererOps r500_gl_renderer = {
    .name = "gl",
    .open = gl_open,
    .close = gl_close,
    .draw = gl_draw,
    .work = gl_work,
    .sync = gl_sync,
    .written = r500_gl_written,
    .release = r500_gl_release,
    .zb_fill = gl_zb_fill,
    .reset = gl_reset,
    .stats = gl_stats,
};
