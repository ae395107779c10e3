/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_vertex: the host-GL renderer's vertex stage on the host (DESIGN.md
 * section 6, issue 19; docs/3d.md "The vertex stage on the host").
 *
 * For a draw of triangles in the usual state of a driver with hardware
 * TCL (clip-space positions, the VTE's viewport, clipping on), the CPU
 * only fetches: it reads the draw's indices, fetches each vertex once
 * through the PSC (vf.c) into the PVS inputs the program reads, and hands
 * GL those, the triangles as sequence positions of the SU's assembly
 * (setup.c r500_rast_tri_seq) and the program as GLSL (gl/pvs_glsl.c):
 * GL shades the vertices, clips (its viewport is the VTE's), culls and
 * faces them (its front face the SU's), where the CPU path shades,
 * clips, culls and transforms every vertex itself before GL sees a
 * window-space triangle.
 *
 * Everything else takes the CPU's vertex stage (gl.c, r500_rast_draw
 * with the triangle sink), which is exact to soft in what it hands GL:
 * points, lines and rectangles, polygon mode, polygon offset, window-
 * space vertices (VTX_XY_FMT) and unclipped draws, a VTE without its
 * scales and offsets, W_SELECT, depth mappings GL cannot say, flow
 * control in the vertex program, flat shading whose provoking vertex is
 * not one of the triangle's (quads, polygons), a draw that resumes after
 * a split, and draws too large to run without splitting.
 */
#include <math.h>
#include <string.h>

#include "gl_int.h"

/* Sequence elements one draw may hand to GL's vertex stage. */
#define GL_VTX_MAX_SEQ          (1u << 20)
/*
 * Vertex-shader instructions (vertices x program length) such a draw may
 * run on the host: a few tens of milliseconds of llvmpipe, where a larger
 * draw takes the CPU's path, which splits it across CP slices.
 */
#define GL_VTX_MAX_INSTS        (1ull << 26)
/* Input vectors (vertices x inputs) of such a draw: 64 MiB of floats. */
#define GL_VTX_MAX_INPUTS       (1ull << 22)

typedef struct VtxAsm {
    GArray *elems;
    const uint32_t *slot;               /* sequence position -> vertex */
    bool flat;                          /* flat attributes are read */
    /* ... and a provoking vertex is not one of its triangle's */
    bool bad;
    uint64_t tris;
} VtxAsm;

/*
 * One triangle of the assembly: its vertices turned (the winding kept)
 * so that the provoking vertex is the last, GL's provoking vertex.
 */
static void vtx_tri(void *opaque, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t pv)
{
    VtxAsm *m = opaque;
    uint32_t k[3];

    if (pv == a) {
        k[0] = m->slot[b], k[1] = m->slot[c], k[2] = m->slot[a];
    } else if (pv == b) {
        k[0] = m->slot[c], k[1] = m->slot[a], k[2] = m->slot[b];
    } else {
        m->bad |= pv != c && m->flat;
        k[0] = m->slot[a], k[1] = m->slot[b], k[2] = m->slot[c];
    }
    g_array_append_vals(m->elems, k, 3);
    m->tris++;
}

static void vtx_none(void *opaque, uint32_t a, uint32_t b, uint32_t c,
                     uint32_t pv)
{
}

/*
 * Whether the SU, VTE and clipper state of this draw is one GL says as
 * it is (the reasons in the file's comment); its GL state into j.
 */
static bool vtx_state(R500Chip *s, uint32_t num, GlJob *j)
{
    R500Gl *g = s->gl;
    const R500Rast *r = &s->rast;
    const uint32_t ena = R500_FMASK(VAP_VTE_CNTL, VPORT_X_SCALE_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VPORT_X_OFFSET_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VPORT_Y_SCALE_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VPORT_Y_OFFSET_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VPORT_Z_SCALE_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VPORT_Z_OFFSET_ENA) |
        R500_FMASK(VAP_VTE_CNTL, VTX_W0_FMT);
    const uint32_t fmt = ena | R500_FMASK(VAP_VTE_CNTL, VTX_XY_FMT) |
        R500_FMASK(VAP_VTE_CNTL, VTX_Z_FMT);
    uint32_t po = s->regs[R_SU_POLY_OFFSET_ENABLE / 4];
    float xs = fabsf(r->vport[0]), ys = fabsf(r->vport[2]);
    double n, f;

    if (num > GL_VTX_MAX_SEQ || g->vtx_cpu || r->skip.prims ||
        r->skip.y != INT32_MIN || (r->vte & fmt) != ena ||
        !r->clip_enable || r->w_select ||
        R500_FGET(po, SU_POLY_OFFSET_ENABLE, FRONT) ||
        R500_FGET(po, SU_POLY_OFFSET_ENABLE, BACK) ||
        !r500_rast_tri_seq(s, 0, vtx_none, NULL)) {
        return false;
    }
    /* GL's viewport, whole pixels (GL may round a fraction) */
    j->vtx.vp[0] = r->vport[1] - xs;
    j->vtx.vp[1] = r->vport[3] - ys;
    j->vtx.vp[2] = 2.0f * xs;
    j->vtx.vp[3] = 2.0f * ys;
    for (int i = 0; i < 4; i++) {
        float v = j->vtx.vp[i];

        if (!isfinite(v) || v != floorf(v) ||
            v < (i < 2 ? g->vp_range[0] : 1.0f) ||
            v > (i < 2 ? g->vp_range[1] : g->vp_max)) {
            return false;
        }
    }
    /*
     * GL's depth range from the VTE's z and the SU's depth scale: window
     * z = ndc (0..1 in GL's clip control) x (f - n) + n, stored as GL's
     * unorm of the buffer.  The SU clamps window z to 0..1 before the
     * scale (depth_fixed()), which clipping makes a no-op only where
     * n and f are within 0..1.
     */
    n = r->dx_clip ? r->vport[5] : (double)r->vport[5] - r->vport[4];
    f = (double)r->vport[5] + r->vport[4];
    if (!(n >= 0.0 && n <= 1.0 && f >= 0.0 && f <= 1.0)) {
        return false;
    }
    if (g->zb_on) {
        n = (n * g->zscale + g->zoffset) / 16777215.0;
        f = (f * g->zscale + g->zoffset) / 16777215.0;
        if (!(n >= 0.0 && n <= 1.0 && f >= 0.0 && f <= 1.0)) {
            return false;
        }
    }
    j->vtx.depth[0] = n;
    j->vtx.depth[1] = f;
    j->vtx.cull = r->cull_front && r->cull_back ? GL_FRONT_AND_BACK
                  : r->cull_front ? GL_FRONT : r->cull_back ? GL_BACK : 0;
    /*
     * The SU's front: counter-clockwise in window coordinates with y
     * down (FACE 0), which is clockwise by GL's rule on the same numbers
     * (setup.c tri_emit()).
     */
    j->vtx.front = r->face_cw ? GL_CCW : GL_CW;
    j->vtx.nclip = 0;
    for (unsigned p = 0; p < 6; p++) {
        if (r->ucp_enable >> p & 1) {
            j->vtx.nclip++;
        }
    }
    memcpy(j->vtx.ucp, r->ucp, sizeof(j->vtx.ucp));
    return true;
}

/*
 * The draw's vertex indices (sequence order) into idx, their range; false
 * (the CPU's path reads them again and reports) when one is unreadable.
 * The index buffer goes to memory first if GL drew into it.
 */
static bool vtx_indices(R500Chip *s, uint32_t num, uint32_t *idx,
                        uint32_t *lo, uint32_t *hi)
{
    const R500DrawCmd *cmd = s->vap.cmd;

    if (cmd->source == R500_DRAW_INDICES && cmd->index_buffer) {
        r500_gl_flush_over(s, cmd->index_addr,
                           cmd->index_addr + 4ull * cmd->index_dwords);
    }
    *lo = UINT32_MAX;
    *hi = 0;
    for (uint32_t i = 0; i < num; i++) {
        /* embedded data is addressed by sequence, not by index (vtx.c) */
        if (cmd->source == R500_DRAW_EMBEDDED) {
            idx[i] = i;
        } else if (!r500_vf_index(s, i, &idx[i])) {
            return false;
        }
        *lo = MIN(*lo, idx[i]);
        *hi = MAX(*hi, idx[i]);
    }
    return true;
}

bool r500_gl_vertex(R500Chip *s, uint32_t num, GlJob *j, GString *vs,
                    GString *fs)
{
    R500Gl *g = s->gl;
    R500Vap *v = &s->vap;
    const R500DrawCmd *cmd = v->cmd;
    GString *tvs = NULL, *tfs = NULL;
    uint32_t *idx = NULL, *map = NULL, *slot = NULL, lo, hi, nverts = 0;
    uint64_t range;
    unsigned nin;
    R500PvsGlsl info;
    VtxAsm m = { .elems = g->elems };
    const char *why;
    bool ok = false;

    if (!vtx_state(s, num, j) || num < 3) {
        return false;
    }
    tvs = g_string_new("#version 450 core\n");
    tfs = g_string_new(NULL);
    if (!r500_pvs_glsl(s, tvs, &info, &why) ||
        !r500_rs_glsl_pvs(&s->rast, tvs, tfs, &j->lay, &why)) {
        goto out;
    }
    for (unsigned i = 0; i < j->lay.n; i++) {
        m.flat |= j->lay.flat[i];
    }
    idx = g_new(uint32_t, num);
    if (!vtx_indices(s, num, idx, &lo, &hi)) {
        goto out;
    }
    /*
     * Each index's vertex once: a direct map over the draw's index range,
     * which a mesh's indices fill densely (a sparse one takes the CPU's
     * path and its post-transform cache).
     */
    range = (uint64_t)hi - lo + 1;
    if (range > 4ull * num + 4096) {
        goto out;
    }
    map = g_new(uint32_t, range);
    slot = g_new(uint32_t, num);
    memset(map, 0xFF, range * sizeof(uint32_t));
    for (uint32_t i = 0; i < num; i++) {
        uint32_t *k = &map[idx[i] - lo];

        if (*k == UINT32_MAX) {
            *k = nverts++;
        }
        slot[i] = *k;
    }
    /* a vertex of no inputs still takes a vec4 (GL's stride) */
    nin = MAX(info.ninputs, 1u);
    if ((uint64_t)nverts * info.insts >
        MIN(GL_VTX_MAX_INSTS, v->inst_budget) ||
        (uint64_t)nverts * nin > GL_VTX_MAX_INPUTS) {
        goto out;
    }
    j->nverts = nverts;
    g_array_set_size(g->verts, (size_t)nverts * 4 * nin);
    g_array_set_size(g->elems, 0);
    m.slot = slot;
    r500_rast_tri_seq(s, num, vtx_tri, &m);
    if (m.bad || !m.tris) {
        goto out;
    }
    /* vertex arrays GL drew into go to memory first */
    for (uint32_t k = 0; k < cmd->num_arrays &&
                         cmd->source != R500_DRAW_EMBEDDED; k++) {
        const R500DrawArray *a = &cmd->arrays[k];

        r500_gl_flush_over(s, a->addr + 4ull * a->stride * lo,
                           a->addr + 4ull * a->stride * hi + 4ull * a->size);
    }
    /* each vertex's inputs, through the PSC as the CPU's path fetches */
    for (uint32_t i = 0; i < num; i++) {
        uint32_t k = slot[i];
        float *dst = &g_array_index(g->verts, float, (size_t)k * 4 * nin);

        if (map[idx[i] - lo] != k) {
            continue;           /* fetched at its first sequence position */
        }
        map[idx[i] - lo] = UINT32_MAX - 1;
        for (unsigned n = 0; n < info.ninputs; n++) {
            memset(v->pvs.in[info.input[n]], 0, 16);
        }
        r500_vf_fetch(s, idx[i], i, &v->pvs);
        for (unsigned n = 0; n < info.ninputs; n++) {
            memcpy(dst + 4 * n, v->pvs.in[info.input[n]], 16);
        }
    }
    j->vtx.on = true;
    j->vtx.nin = info.ninputs;
    j->vtx.elems = (const uint32_t *)g->elems->data;
    j->vtx.nelems = g->elems->len;
    j->vtx.consts = (const float *)&v->pvs_mem[R500_PVS_CONST_BASE * 4];
    j->stride = 4 * nin;
    j->verts = (const float *)g->verts->data;
    g->tris = m.tris;
    /* what the triangles can touch: the viewport (GL clips to it) */
    g->bx0 = (int64_t)j->vtx.vp[0];
    g->by0 = (int64_t)j->vtx.vp[1];
    g->bx1 = (int64_t)(j->vtx.vp[0] + j->vtx.vp[2]);
    g->by1 = (int64_t)(j->vtx.vp[1] + j->vtx.vp[3]);
    g_string_append(vs, tvs->str);
    g_string_append(fs, tfs->str);
    ok = true;
out:
    g_string_free(tvs, true);
    g_string_free(tfs, true);
    g_free(idx);
    g_free(map);
    g_free(slot);
    return ok;
}
