/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VAP's side of a draw: where the PVS outputs go, and each sequence
 * element fetched, shaded and handed to the rasteriser through the
 * post-transform cache.  The draw walk that asks for them is pipe/'s.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"

/*
 * Which PVS output vector feeds position, point size, colours and
 * texcoords: they are consumed in this fixed order, absent ones skipped
 * (VAP_OUTPUT_VTX_FMT_0/1, reference 2.3).
 */
bool r500_vap_map_outputs(R500Chip *s)
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
const R500Vertex *r500_vap_vertex(void *opaque, uint32_t i)
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
