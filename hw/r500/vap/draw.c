/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The draw entry points of draw.h: latch the state of every block for the
 * draw, then walk the sequence of vertices through fetch and the PVS into
 * the rasteriser (rast/), which hands quads to the US and the RB.
 *
 * Every draw is bounded: vertices by the packet's count, PVS instructions
 * by R500_DRAW_PVS_BUDGET, quads by R500_RAST_QUAD_BUDGET (rast/), US
 * instructions by R500_US_DRAW_BUDGET.  A draw that exceeds a budget is
 * cut short with a guest error.  Those budgets allow seconds of work, so
 * a draw is also split across CP slices: it stops when its work reaches
 * the budget the CP gives it and goes on in the next slice (draw.h), its
 * progress in s->vap.resume.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"

/* PVS instructions one draw may execute (seconds of interpretation). */
#define R500_DRAW_PVS_BUDGET    (1ull << 28)

/*
 * The cost of a draw's work in CP budget units (cp.h: a slice of 2^17
 * units is about a millisecond, so a unit is about 8 ns), as measured on
 * the core (docs/3d.md, "Split draws"): a vertex fetched and handed over,
 * a PVS instruction of one vertex (~50 ns), a US instruction of one quad
 * (~15 ns), a texture sample of one quad (~400 ns), a quad rasterised,
 * interpolated and written (~250 ns).
 */
#define R500_3D_WORK_VERTEX     8
#define R500_3D_WORK_PVS        7
#define R500_3D_WORK_US         2
#define R500_3D_WORK_TEX        48
#define R500_3D_WORK_QUAD       32

/*
 * Which PVS output vector feeds position, point size, colours and
 * texcoords: they are consumed in this fixed order, absent ones skipped
 * (VAP_OUTPUT_VTX_FMT_0/1, reference 2.3).
 */
static bool vap_map_outputs(R500Chip *s)
{
    R500Vap *v = &s->vap;
    uint32_t f0 = s->regs[R_VAP_OUTPUT_VTX_FMT_0 / 4];
    uint32_t f1 = s->regs[R_VAP_OUTPUT_VTX_FMT_1 / 4];
    int o = 0;

    if (!R500_FGET(f0, VAP_OUTPUT_VTX_FMT_0, POS_PRESENT)) {
        r500_guest_error(s, "3D: VAP_OUTPUT_VTX_FMT_0 declares no position; "
                         "draw skipped");
        return false;
    }
    v->out_pos = o++;
    v->out_psize = R500_FGET(f0, VAP_OUTPUT_VTX_FMT_0, PT_SIZE_PRESENT)
                   ? o++ : -1;
    for (int c = 0; c < 4; c++) {
        v->out_col[c] = (R500_FGET(f0, VAP_OUTPUT_VTX_FMT_0, COLOR_PRESENT)
                         >> c) & 1 ? o++ : -1;
    }
    for (int t = 0; t < 8; t++) {
        unsigned n = (f1 >> (t * R_VAP_OUTPUT_VTX_FMT_1_TEX0_COMP_CNT_WIDTH)) &
                     R500_FMASK(VAP_OUTPUT_VTX_FMT_1, TEX0_COMP_CNT);

        v->out_tex[t] = n ? o++ : -1;
    }
    if (o > R500_PVS_OUTPUTS) {
        return false;
    }
    return true;
}

/* Shade one vertex into out; false when it cannot be (budget, bad read). */
static bool vap_shade(R500Chip *s, uint32_t index, uint32_t seq,
                      R500Vertex *out)
{
    R500Vap *v = &s->vap;
    R500PvsState *st = &v->pvs;
    uint32_t ran;

    if (!v->inst_budget) {
        if (r500_once(&s->draw_logged, R500_DRAW_LOG_PVS_BUDGET)) {
            r500_guest_error(s, "3D: draw exceeds %llu vertex-shader "
                             "instructions; the rest is dropped",
                             (unsigned long long)R500_DRAW_PVS_BUDGET);
        }
        return false;
    }
    memset(st->in, 0, sizeof(st->in));
    memset(st->out, 0, sizeof(st->out));
    r500_vf_fetch(s, index, seq, st);
    ran = r500_pvs_run(s, st);
    v->inst_budget -= MIN(ran, v->inst_budget);
    v->shaded++;
    /*
     * A program that did not end (an endless jump or loop nest) used to
     * give a vertex of whatever it had written, silently.  Such a vertex
     * is dropped, as the US drops a quad that does not end, and said once
     * per draw (docs/reliability.md, the bad-input contract).
     */
    if (st->cut) {
        if (r500_once(&s->draw_logged, R500_DRAW_LOG_PVS_CUT)) {
            r500_guest_error(s, "3D: vertex shader does not end within %u "
                             "instructions (or the draw's budget); vertex "
                             "dropped (reported once per draw)",
                             R500_PVS_VERTEX_STEPS);
        }
        return false;
    }

    memcpy(out->clip, st->out[v->out_pos], sizeof(out->clip));
    out->psize = v->out_psize >= 0 ? st->out[v->out_psize][0] : 0.0f;
    for (int c = 0; c < 4; c++) {
        if (v->out_col[c] >= 0) {
            memcpy(&out->attr[R500_ATTR_COL(c)], st->out[v->out_col[c]], 16);
        } else {
            static const float def[4] = { 0, 0, 0, 1 };
            memcpy(&out->attr[R500_ATTR_COL(c)], def, 16);
        }
    }
    for (int t = 0; t < 8; t++) {
        if (v->out_tex[t] >= 0) {
            memcpy(&out->attr[R500_ATTR_TEX(t)], st->out[v->out_tex[t]], 16);
        } else {
            memset(&out->attr[R500_ATTR_TEX(t)], 0, 16);
        }
    }
    return true;
}

/* Sequence element i, through the post-transform cache. */
static const R500Vertex *vap_vertex(void *opaque, uint32_t i)
{
    R500Chip *s = opaque;
    R500Vap *v = &s->vap;
    uint32_t index;
    unsigned slot;

    if (!r500_vf_index(s, i, &index)) {
        return NULL;
    }
    /* Embedded data is addressed by sequence, not by index. */
    if (v->cmd->source == R500_DRAW_EMBEDDED) {
        index = i;
    }
    slot = index % R500_VTX_CACHE;
    if (v->cache[slot].tag != index + 1) {
        v->cache[slot].tag = index + 1;
        v->cache[slot].ok = vap_shade(s, index, i, &v->cache[slot].v);
        v->vertices++;
    }
    return v->cache[slot].ok ? &v->cache[slot].v : NULL;
}

/*
 * The work this call of the draw has done, in CP budget units: the
 * workers' counters start from zero at each call.
 */
static uint64_t draw_work(void *opaque)
{
    R500Chip *s = opaque;
    const R500Vap *v = &s->vap;
    const R500WorkerStats *st = &s->soft.w0.st;

    return (v->shaded - v->work_shaded) * R500_3D_WORK_VERTEX +
           (v->work_pvs - v->inst_budget) * R500_3D_WORK_PVS +
           st->us_insts * R500_3D_WORK_US +
           st->tx_samples * R500_3D_WORK_TEX +
           (s->rast.quads - v->work_quads) * R500_3D_WORK_QUAD;
}

static void draw_quad(void *opaque, const R500Prim *prim, int x, int y,
                      unsigned mask)
{
    R500Chip *s = opaque;

    r500_soft_quad(&s->soft.w0, prim, x, y, mask);
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
        v->draws++;
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
        !vap_map_outputs(s) ||
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
    r500_soft_begin(s);

    {
        const R500RastSink sink = {
            .vertex = vap_vertex, .work = draw_work, .quad = draw_quad,
            .opaque = s,
        };

        r500_rast_draw(s, cmd->num_vertices, &sink);
    }
    logged = s->draw_logged;
    r500_rb3d_finish(s);
    v->cmd = NULL;
    work = draw_work(s);
    r500_soft_end(s);
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
