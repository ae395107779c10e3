/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipe/: the seam between the command processor and the renderers
 * (DESIGN.md section 6; renderer.h).  The CP hands each draw here
 * (draw.h); this file latches the state of every block for the draw,
 * owns the draw walk's budgets and split draws, the draw statistics and
 * the once-per-draw reports, and hands "these primitives with this
 * decoded state" to the renderer.
 *
 * Every draw is bounded: vertices by the packet's count, PVS instructions
 * by R500_DRAW_PVS_BUDGET, quads by R500_RAST_QUAD_BUDGET (rast/), US
 * instructions by R500_US_DRAW_BUDGET.  A draw that exceeds a budget is
 * cut short with a guest error.  Those budgets allow seconds of work, so
 * a draw is also split across CP slices: it stops when its work reaches
 * the budget the CP gives it and goes on in the next slice (draw.h), its
 * progress in s->vap.resume (migrated there).
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"


/*
 * The work this call of the draw has done, in CP budget units: the
 * workers' counters start from zero at each call.
 */
static uint64_t draw_work(void *opaque)
{
    R500Chip *s = opaque;
    const R500Vap *v = &s->vap;

    uint64_t w = s->renderer->work(s);

    /* soft's, for the draws another renderer left to it */
    if (s->renderer != &r500_soft_renderer) {
        w += r500_soft_renderer.work(s);
    }
    return (v->shaded - v->work_shaded) * R500_3D_WORK_VERTEX +
           (v->work_pvs - v->inst_budget) * R500_3D_WORK_PVS +
           (s->rast.quads - v->work_quads) * R500_3D_WORK_QUAD + w;
}

R500Worker *r500_pipe_begin(R500Chip *s)
{
    R500Worker *w = &s->pipe.w0;

    s->pipe.ctx = (R500DrawCtx) {
        .rast = &s->rast, .rb = &s->rb3d, .us = &s->us, .tx = &s->tx,
        .regs = s->regs,
    };
    w->s = s;
    w->ctx = &s->pipe.ctx;
    memset(&w->st, 0, sizeof(w->st));
    w->cache = &s->rb3d.cache;
    w->us_budget = s->us.budget;
    return w;
}

/*
 * Hand the draw to the renderer; one that cannot draw it (false: nothing
 * drawn, nothing counted) has it drawn by soft, on memory, which the
 * renderer makes the truth first (R500_SYNC_MEMORY: another engine
 * reads and writes VRAM).
 */
static void pipe_render(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    r500_pipe_begin(s);
    if (s->renderer->draw(s, num, in)) {
        return;
    }
    s->renderer->sync(s, R500_SYNC_MEMORY);
    r500_pipe_begin(s);
    r500_soft_renderer.draw(s, num, in);
}

void r500_pipe_reset_renderers(R500Chip *s)
{
    r500_soft_renderer.reset(s);
    if (s->renderer != &r500_soft_renderer) {
        s->renderer->reset(s);
    }
}

void r500_pipe_fini(R500Chip *s)
{
    if (s->renderer && s->renderer->close) {
        s->renderer->close(s);
    }
    if (s->renderer != &r500_soft_renderer) {
        r500_soft_renderer.close(s);
    }
}

void r500_pipe_sync(R500Chip *s, R500Sync why)
{
    s->renderer->sync(s, why);
}

bool r500_pipe_sync_ready(R500Chip *s, R500Sync why)
{
    s->renderer->sync(s, why);
    return !s->ops->vram_holds_ready || s->ops->vram_holds_ready(s->host);
}

static void pipe_release(R500Chip *s, uint64_t offset, uint64_t len)
{
    if (s->renderer->release) {
        s->renderer->release(s, offset, len);
    }
}

static void pipe_written(R500Chip *s, uint64_t offset, uint64_t len)
{
    if (s->renderer->written) {
        s->renderer->written(s, offset, len);
    }
}

static bool pipe_zb_fill(R500Chip *s, const R500Surf *sf, uint32_t w,
                         uint32_t h, uint32_t v)
{
    return s->renderer->zb_fill && s->renderer->zb_fill(s, sf, w, h, v);
}

/* What memory and the engines tell the seam (mem/mc.h), for the renderer. */
static const R500MemWatch pipe_watch = {
    .written = pipe_written,
    .release = pipe_release,
    .sync = r500_pipe_sync,
    .fill = pipe_zb_fill,
};

void r500_pipe_init(R500Chip *s)
{
    s->renderer = &r500_soft_renderer;
    s->mem_watch = &pipe_watch;
}

/*
 * The renderers, in the order auto tries them after soft, chosen by name
 * (docs/architecture.md: what a renderer implements).  soft is first and
 * always there: every other may leave it a draw.
 */
static const R500RendererOps *const renderers[] = {
    &r500_soft_renderer,
#ifdef R500_HAVE_GL
    &r500_gl_renderer,
#endif
};

static bool pipe_open(R500Chip *s, const R500RendererOps *r, const char **why)
{
    if (r == s->renderer) {
        return true;
    }
    if (r->open && !r->open(s, why)) {
        /* what open made before it failed goes with it */
        if (r->close) {
            r->close(s);
        }
        return false;
    }
    /* the renderer left leaves memory the truth */
    if (s->renderer->close) {
        s->renderer->close(s);
    }
    s->renderer = r;
    return true;
}

bool r500_pipe_set_renderer(R500Chip *s, const char *word, const char **why)
{
    *why = NULL;
    if (!strcmp(word, "auto")) {
        for (unsigned i = 1; i < G_N_ELEMENTS(renderers); i++) {
            if (pipe_open(s, renderers[i], why)) {
                return true;
            }
            r500_unimp(s, "3D: renderer auto: %s cannot run here (%s)",
                       renderers[i]->name, *why);
        }
        r500_unimp(s, "3D: renderer auto: soft draws");
        return pipe_open(s, &r500_soft_renderer, why);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(renderers); i++) {
        if (!strcmp(word, renderers[i]->name)) {
            return pipe_open(s, renderers[i], why);
        }
    }
    *why = !strcmp(word, "gl") ? "this build has no OpenGL renderer (libepoxy)"
                                : "the renderer is soft, gl or auto";
    return false;
}

void r500_pipe_configure(R500Chip *s, const char *dflt)
{
    const char *word = r500_setting(s, "renderer");
    const char *why;

    r500_soft_set_threads(s, r500_setting_uint(s, "render-threads", 1));
    if (!r500_pipe_set_renderer(s, word ? word : dflt, &why)) {
        r500_unimp(s, "3D: renderer %s: %s; soft draws", word ? word : dflt,
                   why);
    }
}

void r500_pipe_stats(R500Chip *s, R500StatFn fn, void *opaque)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(renderers); i++) {
        if (renderers[i]->stats) {
            renderers[i]->stats(s, fn, opaque);
        }
    }
}

bool r500_3d_draw_stopped(R500Chip *s)
{
    return s->vap.resume.active;
}

uint64_t r500_3d_draw(R500Chip *s, const R500DrawCmd *cmd)
{
    R500Vap *v = &s->vap;
    R500Rast *r = &s->rast;
    R500DrawResume *re = &v->resume;
    bool resume = cmd->resume && re->active;
    uint64_t work;
    uint32_t logged;

    re->active = false;
    if (!resume) {
        s->cp.draw_stats.draws++;
        s->cp.draw_stats.vertices += cmd->num_vertices;
        r500_trace(s, R500_TRACE_DRAW, cmd->opcode, cmd->vf_cntl,
                   cmd->prim_type, cmd->num_vertices);
    }
    if (!cmd->num_vertices || !cmd->prim_type) {
        return 1;
    }
    if (R500_FGET(s->regs[R_VAP_CNTL_STATUS / 4], VAP_CNTL_STATUS,
                  PVS_BYPASS)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_PVS_BYPASS, "3D: VAP_CNTL_STATUS."
                           "PVS_BYPASS (no vertex shader) is not modelled; "
                           "draws skipped");
        return cmd->num_vertices;
    }
    if (R500_FGET(s->regs[R_VAP_CNTL / 4], VAP_CNTL, VAP_NO_RENDER)) {
        return cmd->num_vertices;
    }
    if (!resume) {
        s->draw_logged = 0;
    }
    if (!r500_vf_prepare(s, cmd) || !r500_pvs_load(s) ||
        !r500_vap_map_outputs(s) ||
        !r500_rast_prepare(s, cmd->prim_type, v->out_psize >= 0,
                           &v->pvs_mem[R500_PVS_UCP_BASE * 4]) ||
        !r500_us_prepare(s) || !r500_rb3d_prepare(s)) {
        return cmd->num_vertices;
    }
    r500_tx_prepare(s);
    for (unsigned i = 0; i < R500_VTX_CACHE; i++) {
        v->cache[i].tag = 0;
    }
    v->inst_budget = R500_DRAW_PVS_BUDGET;
    r->skip = (R500RastPos) { 0, 0, INT32_MIN, INT32_MIN };
    if (resume) {
        /* what is left of the draw's budgets; the prepares reset them */
        v->inst_budget = MIN(re->pvs_budget, R500_DRAW_PVS_BUDGET);
        s->us.budget = MIN(re->us_budget, R500_US_DRAW_BUDGET);
        r->quad_budget = MIN(re->quad_budget, R500_RAST_QUAD_BUDGET);
        r->skip = re->pos;
        s->draw_logged = re->logged;
    }
    r->work_limit = cmd->budget;
    r->redo = false;
    r->prim_seq = 0;
    r->stopped = false;
    v->work_shaded = v->shaded;
    v->work_pvs = v->inst_budget;
    v->work_quads = r->quads;
    {
        const R500RastSink in = {
            .vertex = r500_vap_vertex, .work = draw_work, .opaque = s,
        };

        pipe_render(s, cmd->num_vertices, &in);
    }
    logged = s->draw_logged;
    v->cmd = NULL;
    work = draw_work(s);
    if (r->stopped) {
        *re = (R500DrawResume) {
            .active = true,
            .pos = r->stop,
            .pvs_budget = v->inst_budget,
            .us_budget = s->us.budget,
            .quad_budget = r->quad_budget,
            .logged = logged,
        };
    }
    return 1 + work;
}

uint64_t r500_3d_clear(R500Chip *s, const R500ClearCmd *cmd)
{
    s->cp.draw_stats.clears++;
    r500_trace(s, R500_TRACE_CLEAR, cmd->opcode, cmd->start, cmd->count,
               cmd->value);
    return r500_zb_clear_cmd(s, cmd->opcode, cmd->start, cmd->count,
                             cmd->value);
}

/* ---- The block ---- */

/* The once-per-draw reports start again (the renderer resets in core.c). */
static void pipe_reset(R500Chip *s)
{
    s->draw_logged = 0;
}

const R500Block r500_pipe_block = {
    .name = "pipe",
    .reset = pipe_reset,
};
