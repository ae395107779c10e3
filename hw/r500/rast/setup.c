/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GA and SU: primitive assembly, clipping, the viewport transform, culling,
 * points and lines.  r500-3d-pipeline.md 1.5, 2.3-2.7, 4.5, 7.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/* VAP_VF_CNTL.PRIM_TYPE (reference 1.5) */
enum {
    PRIM_NONE = 0, PRIM_POINTS = 1, PRIM_LINES = 2, PRIM_LINE_STRIP = 3,
    PRIM_TRIANGLES = 4, PRIM_TRI_FAN = 5, PRIM_TRI_STRIP = 6,
    PRIM_TRI_FLAGS = 7, PRIM_RECTS = 8, PRIM_POINTS_3 = 9, PRIM_LINES_3 = 10,
    PRIM_LINE_LOOP = 12, PRIM_QUADS = 13, PRIM_QUAD_STRIP = 14,
    PRIM_POLYGON = 15,
};

/* GA_COLOR_CONTROL.PROVOKING_VERTEX */
enum { PROV_FIRST = 0, PROV_SECOND = 1, PROV_THIRD = 2, PROV_LAST = 3 };

/* RS_IP COL_FMT (reference 2.8): per channel attribute or constant. */
static const char *const col_fmt[16] = {
    [0] = "rgba", [1] = "rgb0", [2] = "rgb1", [4] = "000a", [5] = "0000",
    [6] = "0001", [8] = "111a", [9] = "1110", [10] = "1111",
};

/* Planes of the clipper: x, y, z against w, then 6 user planes. */
#define CLIP_PLANES     12
#define CLIP_MAX_VERTS  (3 + CLIP_PLANES)

static float reg_float(R500Chip *s, uint32_t reg)
{
    float f;

    memcpy(&f, &s->regs[reg / 4], 4);
    return f;
}

/* ---- RS routing (reference 2.8) ---- */

/* The texture component list of this draw: list[n] = source of comp n. */
static unsigned rs_tex_list(R500Chip *s, bool points, R500RsChan *list)
{
    R500Rast *r = &s->rast;
    uint32_t gb = s->regs[R_GB_ENABLE / 4];
    uint32_t f1 = s->regs[R_VAP_OUTPUT_VTX_FMT_1 / 4];
    unsigned n = 0;

    r->point_stuff = false;
    for (unsigned t = 0; t < 8; t++) {
        unsigned src = (gb >> (R_GB_ENABLE_TEX0_SOURCE_SHIFT + 2 * t)) & 3;
        unsigned cnt = (f1 >> (t * R_VAP_OUTPUT_VTX_FMT_1_TEX0_COMP_CNT_WIDTH))
                       & R500_FMASK(VAP_OUTPUT_VTX_FMT_1, TEX0_COMP_CNT);

        if (points && src && R500_FGET(gb, GB_ENABLE, POINT_STUFF_ENABLE)) {
            /* 1: stuff (S, T); 2: stuff (S, T, R) (reference 2.4) */
            unsigned k = src == 1 ? 2 : 3;

            r->point_stuff = true;
            for (unsigned c = 0; c < k && n < 62; c++) {
                list[n++] = (R500RsChan){ .src = R500_RS_STUFF, .attr = c };
            }
            continue;
        }
        for (unsigned c = 0; c < MIN(cnt, 4u) && n < 62; c++) {
            list[n++] = (R500RsChan){ .src = R500_RS_ATTR,
                                      .attr = R500_ATTR_TEX(t) + c };
        }
    }
    return n;
}

static R500RsChan rs_tex_ptr(const R500RsChan *list, unsigned n,
                             unsigned ptr)
{
    if (ptr == 62 || ptr >= n) {
        return (R500RsChan){ .src = ptr == 63 ? R500_RS_ONE : R500_RS_ZERO };
    }
    return list[ptr];
}

static bool rs_prepare(R500Chip *s, bool points)
{
    R500Rast *r = &s->rast;
    R500RsChan list[64];
    unsigned ntex = rs_tex_list(s, points, list);
    uint32_t f0 = s->regs[R_VAP_OUTPUT_VTX_FMT_0 / 4];
    uint32_t cc = s->regs[R_GA_COLOR_CONTROL / 4];
    unsigned ninst = R500_FGET(s->regs[R_RS_INST_COUNT / 4], RS_INST_COUNT,
                               INST_COUNT) + 1;
    int colours[4], ncol = 0;

    for (int c = 0; c < 4; c++) {
        if ((R500_FGET(f0, VAP_OUTPUT_VTX_FMT_0, COLOR_PRESENT) >> c) & 1) {
            colours[ncol++] = c;
        }
    }
    r->colours = R500_FGET(f0, VAP_OUTPUT_VTX_FMT_0, COLOR_PRESENT);
    r->nrs = 0;
    for (unsigned i = 0; i < ninst; i++) {
        uint32_t inst = s->regs[R500_REGA_AT(RS_INST, i) / 4];
        unsigned col_cn = R500_FGET(inst, RS_INST, COL_CN);

        if (R500_FGET(inst, RS_INST, TEX_CN)) {
            uint32_t ip = s->regs[R500_REGA_AT(RS_IP,
                                  R500_FGET(inst, RS_INST, TEX_ID)) / 4];
            R500RsWrite *w = &r->rs[r->nrs++];

            w->temp = R500_FGET(inst, RS_INST, TEX_ADDR);
            w->ch[0] = rs_tex_ptr(list, ntex, R500_FGET(ip, RS_IP, TEX_PTR_S));
            w->ch[1] = rs_tex_ptr(list, ntex, R500_FGET(ip, RS_IP, TEX_PTR_T));
            w->ch[2] = rs_tex_ptr(list, ntex, R500_FGET(ip, RS_IP, TEX_PTR_R));
            w->ch[3] = rs_tex_ptr(list, ntex, R500_FGET(ip, RS_IP, TEX_PTR_Q));
        }
        if (col_cn) {
            uint32_t ip = s->regs[R500_REGA_AT(RS_IP,
                                  R500_FGET(inst, RS_INST, COL_ID)) / 4];
            R500RsWrite *w = &r->rs[r->nrs++];
            unsigned ptr = R500_FGET(ip, RS_IP, COL_PTR);
            unsigned fmt = R500_FGET(ip, RS_IP, COL_FMT);

            w->temp = R500_FGET(inst, RS_INST, COL_ADDR);
            if (col_cn == 3) {
                /* back-face flag in red (reference 2.8, open question 12) */
                w->ch[0] = (R500RsChan){ .src = R500_RS_FACE };
                w->ch[1] = w->ch[2] = w->ch[3] =
                    (R500RsChan){ .src = R500_RS_ZERO };
                continue;
            }
            if (col_cn == 2) {
                w->ch[0] = (R500RsChan){ .src = R500_RS_WINX };
                w->ch[1] = (R500RsChan){ .src = R500_RS_WINY };
                w->ch[2] = w->ch[3] = (R500RsChan){ .src = R500_RS_ZERO };
                continue;
            }
            if (!col_fmt[fmt]) {
                r500_guest_error(s, "3D: RS_IP COL_FMT %u is reserved; "
                                 "reads as 0000", fmt);
                fmt = 5;
            }
            for (int c = 0; c < 4; c++) {
                char k = col_fmt[fmt][c];

                if (k == '0' || k == '1' || (int)ptr >= ncol) {
                    w->ch[c] = (R500RsChan){ .src = k == '1' ? R500_RS_ONE :
                                             R500_RS_ZERO };
                } else {
                    int colour = colours[ptr];
                    unsigned shade = (cc >> (4 * colour + (c == 3 ? 2 : 0))) & 3;

                    /* 0 solid, 1 flat, 2 Gouraud: solid is taken as flat */
                    w->ch[c] = (R500RsChan){
                        .src = R500_RS_ATTR,
                        .attr = R500_ATTR_COL(colour) + (k == 'a' ? 3 : c),
                        .flat = shade != 2,
                    };
                }
            }
        }
    }
    if (R500_FGET(s->regs[R_RS_INST_COUNT / 4], RS_INST_COUNT, TX_OFFSET)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_RS_OFFSET, "3D: RS_INST_COUNT."
                           "TX_OFFSET is not modelled");
    }
    return true;
}

/* ---- Per-draw state ---- */

bool r500_rast_prepare(R500Chip *s, uint32_t prim_type, bool psize,
                       const uint32_t ucp[6 * 4])
{
    R500Rast *r = &s->rast;
    uint32_t tl = s->regs[R_RE_SCISSORS_TL / 4];
    uint32_t br = s->regs[R_RE_SCISSORS_BR / 4];
    uint32_t clip = s->regs[R_VAP_CLIP_CNTL / 4];
    uint32_t cull = s->regs[R_SU_CULL_MODE / 4];
    uint32_t ps = s->regs[R_GA_POINT_SIZE / 4];
    uint32_t mm = s->regs[R_GA_POINT_MINMAX / 4];
    uint32_t gb = s->regs[R_GB_ENABLE / 4];
    bool points = prim_type == PRIM_POINTS || prim_type == PRIM_POINTS_3;

    r->prim_type = prim_type;
    r->sc_x0 = R500_FGET(tl, RE_SCISSORS_TL, X);
    r->sc_y0 = R500_FGET(tl, RE_SCISSORS_TL, Y);
    r->sc_x1 = R500_FGET(br, RE_SCISSORS_BR, X);
    r->sc_y1 = R500_FGET(br, RE_SCISSORS_BR, Y);
    r->clip_rule = R500_FGET(s->regs[R_SC_CLIP_RULE / 4], SC_CLIP_RULE, RULE);
    for (int i = 0; i < 4; i++) {
        uint32_t a = s->regs[R500_REGA_AT(SC_CLIPRECT_TL, i) / 4];
        uint32_t b = s->regs[R500_REGA_AT(SC_CLIPRECT_BR, i) / 4];

        r->cr[i][0] = R500_FGET(a, SC_CLIPRECT_TL, X);
        r->cr[i][1] = R500_FGET(a, SC_CLIPRECT_TL, Y);
        r->cr[i][2] = R500_FGET(b, SC_CLIPRECT_BR, X);
        r->cr[i][3] = R500_FGET(b, SC_CLIPRECT_BR, Y);
    }
    r->vte = s->regs[R_VAP_VTE_CNTL / 4];
    for (int i = 0; i < 6; i++) {
        r->vport[i] = reg_float(s, R_SE_VPORT_XSCALE + 4 * i);
    }
    /*
     * Clipping happens in clip space; vertices already in window
     * coordinates (VTX_XY_FMT, the blitter) are never clipped.
     */
    r->clip_enable = !R500_FGET(clip, VAP_CLIP_CNTL, CLIP_DISABLE) &&
                     !R500_FGET(r->vte, VAP_VTE_CNTL, VTX_XY_FMT);
    r->ucp_enable = r->clip_enable ? R500_FGET(clip, VAP_CLIP_CNTL, UCP_ENA)
                                   : 0;
    for (int i = 0; i < 6; i++) {
        memcpy(r->ucp[i], &ucp[i * 4], 16);
    }
    r->dx_clip = R500_FGET(s->regs[R_VAP_CNTL / 4], VAP_CNTL,
                           DX_CLIP_SPACE_DEF);
    r->depth_scale = reg_float(s, R_SU_DEPTH_SCALE);
    r->depth_offset = reg_float(s, R_SU_DEPTH_OFFSET);
    r->cull_front = R500_FGET(cull, SU_CULL_MODE, CULL_FRONT);
    r->cull_back = R500_FGET(cull, SU_CULL_MODE, CULL_BACK);
    r->face_cw = R500_FGET(cull, SU_CULL_MODE, FACE);
    r->w_select = R500_FGET(s->regs[R_GB_SELECT / 4], GB_SELECT, W_SELECT);
    r->provoking = R500_FGET(s->regs[R_GA_COLOR_CONTROL / 4],
                             GA_COLOR_CONTROL, PROVOKING_VERTEX);
    r->point_hw = R500_FGET(ps, GA_POINT_SIZE, WIDTH);
    r->point_hh = R500_FGET(ps, GA_POINT_SIZE, HEIGHT);
    r->point_min = R500_FGET(mm, GA_POINT_MINMAX, MIN);
    r->point_max = R500_FGET(mm, GA_POINT_MINMAX, MAX);
    r->line_hw = s->regs[R_GA_LINE_CNTL / 4] & 0xFFFF;
    r->stuff_s0 = reg_float(s, R_GA_POINT_S0);
    r->stuff_t0 = reg_float(s, R_GA_POINT_T0);
    r->stuff_s1 = reg_float(s, R_GA_POINT_S1);
    r->stuff_t1 = reg_float(s, R_GA_POINT_T1);
    if (!points && (R500_FGET(gb, GB_ENABLE, LINE_STUFF_ENABLE) ||
                    R500_FGET(gb, GB_ENABLE, TRIANGLE_STUFF_ENABLE))) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_STUFF, "3D: GB_ENABLE line/"
                           "triangle texture stuffing is not modelled (VAP "
                           "texcoords are used)");
    }
    /*
     * Line stipple (GA_LINE_STIPPLE_CONFIG/VALUE, Mesa leaves both 0 when
     * it is off): not modelled, the lines are drawn solid.
     */
    if ((s->regs[R_GA_LINE_STIPPLE_CONFIG / 4] ||
         s->regs[R_GA_LINE_STIPPLE_VALUE / 4]) &&
        (prim_type == PRIM_LINES || prim_type == PRIM_LINE_STRIP ||
         prim_type == PRIM_LINE_LOOP || prim_type == PRIM_LINES_3 ||
         R500_FGET(s->regs[R_GA_POLY_MODE / 4], GA_POLY_MODE, DUAL))) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_LINE_STIPPLE, "3D: line stipple "
                           "is not modelled (lines drawn solid)");
    }
    if (R500_FGET(s->regs[R_SU_POLY_OFFSET_ENABLE / 4], SU_POLY_OFFSET_ENABLE,
                  PARA)) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_POLY_OFFSET_PARA, "3D: "
                           "SU_POLY_OFFSET_ENABLE.PARA (offset of line and "
                           "point primitives) is not modelled (no offset)");
    }
    r->quad_budget = R500_RAST_QUAD_BUDGET;
    r->psize = psize;
    return rs_prepare(s, points);
}

/* ---- Viewport transform (VAP_VTE_CNTL, reference 2.3) ---- */

static bool vte(R500Rast *r, R500Vertex *v)
{
    uint32_t c = r->vte;
    float rw = R500_FGET(c, VAP_VTE_CNTL, VTX_W0_FMT) ? 1.0f / v->clip[3]
                                                      : v->clip[3];
    float x = R500_FGET(c, VAP_VTE_CNTL, VTX_XY_FMT) ? v->clip[0]
                                                     : v->clip[0] * rw;
    float y = R500_FGET(c, VAP_VTE_CNTL, VTX_XY_FMT) ? v->clip[1]
                                                     : v->clip[1] * rw;
    float z = R500_FGET(c, VAP_VTE_CNTL, VTX_Z_FMT) ? v->clip[2]
                                                    : v->clip[2] * rw;

    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_X_SCALE_ENA)) {
        x *= r->vport[0];
    }
    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_X_OFFSET_ENA)) {
        x += r->vport[1];
    }
    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_Y_SCALE_ENA)) {
        y *= r->vport[2];
    }
    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_Y_OFFSET_ENA)) {
        y += r->vport[3];
    }
    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_Z_SCALE_ENA)) {
        z *= r->vport[4];
    }
    if (R500_FGET(c, VAP_VTE_CNTL, VPORT_Z_OFFSET_ENA)) {
        z += r->vport[5];
    }
    v->win[0] = x;
    v->win[1] = y;
    v->win[2] = z;
    v->win[3] = r->w_select ? 1.0f : rw;
    /* Window positions beyond +-2^22 pixels are outside any target. */
    return isfinite(x) && isfinite(y) && isfinite(z) && isfinite(rw) &&
           fabsf(x) < 4194304.0f && fabsf(y) < 4194304.0f;
}

/* ---- Clipping (reference 2.3, 7 "Clipping") ---- */

static float clip_dist(const R500Rast *r, const R500Vertex *v, unsigned p)
{
    const float *c = v->clip;

    switch (p) {
    case 0:
        return c[3] + c[0];
    case 1:
        return c[3] - c[0];
    case 2:
        return c[3] + c[1];
    case 3:
        return c[3] - c[1];
    case 4:
        return r->dx_clip ? c[2] : c[3] + c[2];
    case 5:
        return c[3] - c[2];
    default: {
        const float *u = r->ucp[p - 6];
        return c[0] * u[0] + c[1] * u[1] + c[2] * u[2] + c[3] * u[3];
    }
    }
}

static unsigned clip_code(const R500Rast *r, const R500Vertex *v)
{
    unsigned code = 0;

    for (unsigned p = 0; p < 6; p++) {
        /* !(>= 0) so that NaN counts as outside */
        if (!(clip_dist(r, v, p) >= 0.0f)) {
            code |= 1u << p;
        }
    }
    for (unsigned p = 0; p < 6; p++) {
        if ((r->ucp_enable >> p) & 1 && !(clip_dist(r, v, 6 + p) >= 0.0f)) {
            code |= 1u << (6 + p);
        }
    }
    return code;
}

static void vtx_lerp(R500Vertex *o, const R500Vertex *a, const R500Vertex *b,
                     float t)
{
    for (int i = 0; i < 4; i++) {
        o->clip[i] = a->clip[i] + (b->clip[i] - a->clip[i]) * t;
    }
    o->psize = a->psize + (b->psize - a->psize) * t;
    for (int i = 0; i < R500_VTX_ATTRS; i++) {
        o->attr[i] = a->attr[i] + (b->attr[i] - a->attr[i]) * t;
    }
}

static void point(R500Chip *s, R500Vertex *v, bool back);
static void line(R500Chip *s, R500Vertex *a, R500Vertex *b,
                 const R500Vertex *prov, bool back);

/*
 * Edge flags: bit k marks the edge from vertex k to the next as drawn in
 * polygon mode (the diagonals of quads and polygons are not).
 */
#define EDGES_ALL 7u

/* SU polygon offset of this triangle, in 24-bit depth units (2.6). */
static float poly_offset(R500Chip *s, const R500Vertex *a,
                         const R500Vertex *b, const R500Vertex *c, bool front)
{
    R500Rast *r = &s->rast;
    uint32_t en = s->regs[R_SU_POLY_OFFSET_ENABLE / 4];
    double x1 = b->win[0] - a->win[0], y1 = b->win[1] - a->win[1];
    double x2 = c->win[0] - a->win[0], y2 = c->win[1] - a->win[1];
    double z1 = b->win[2] - a->win[2], z2 = c->win[2] - a->win[2];
    double det = x1 * y2 - x2 * y1, dzdx, dzdy, m;
    float scale, offset;

    if (!(front ? R500_FGET(en, SU_POLY_OFFSET_ENABLE, FRONT)
                : R500_FGET(en, SU_POLY_OFFSET_ENABLE, BACK))) {
        return 0.0f;
    }
    memcpy(&scale, &s->regs[(front ? R_SU_POLY_OFFSET_FRONT_SCALE
                                   : R_SU_POLY_OFFSET_BACK_SCALE) / 4], 4);
    memcpy(&offset, &s->regs[(front ? R_SU_POLY_OFFSET_FRONT_OFFSET
                                    : R_SU_POLY_OFFSET_BACK_OFFSET) / 4], 4);
    dzdx = (z1 * y2 - z2 * y1) / det;
    dzdy = (z2 * x1 - z1 * x2) / det;
    /* the slope per 1/12-pixel step, in depth-buffer units */
    m = fmax(fabs(dzdx), fabs(dzdy)) * r->depth_scale / 12.0;
    /*
     * The constant part is in units of the buffer's own LSB: Mesa writes
     * GL units x 2 for Z24 and x 4 for Z16 (inferred, reference 2.6).
     */
    if (R500_FGET(s->regs[R_ZB_FORMAT / 4], ZB_FORMAT, DEPTHFORMAT) == 0) {
        offset *= 256.0f;
    }
    return (float)(m * scale) + offset;
}

/* Emit a triangle whose vertices went through the VTE. */
static void tri_emit(R500Chip *s, R500Vertex *a, R500Vertex *b, R500Vertex *c,
                     const R500Vertex *prov, unsigned edges)
{
    R500Rast *r = &s->rast;
    uint32_t pm = s->regs[R_GA_POLY_MODE / 4];
    double d = ((double)a->win[0] - c->win[0]) * ((double)b->win[1] - c->win[1])
             - ((double)a->win[1] - c->win[1]) * ((double)b->win[0] - c->win[0]);
    R500Vertex *v[3] = { a, b, c };
    unsigned ptype = 2;
    bool front;

    if (d == 0.0) {
        return;
    }
    /*
     * Gallium's counter-clockwise is d < 0 in these y-down coordinates,
     * and Mesa programs FACE = 0 for front_ccw (reference 2.6).
     */
    front = (d < 0) == !r->face_cw;
    if ((front && r->cull_front) || (!front && r->cull_back)) {
        r->culled++;
        return;
    }
    if (R500_FGET(pm, GA_POLY_MODE, DUAL)) {
        ptype = front ? R500_FGET(pm, GA_POLY_MODE, FRONT_PTYPE)
                      : R500_FGET(pm, GA_POLY_MODE, BACK_PTYPE);
    }
    /*
     * The polygon's offset, by its facing and slope, also for its edges
     * and vertices in GA_POLY_MODE: Mesa enables FRONT and BACK for
     * GL_POLYGON_OFFSET_LINE/POINT with polygon-mode lines and points
     * (GL 3.6.4; piglit polygon-offset).
     */
    r->prim.depth_bias = poly_offset(s, a, b, c, front);
    if (ptype == 0 || ptype == 1) {
        /* GA_POLY_MODE: the polygon's vertices or edges (2.5) */
        for (int k = 0; k < 3; k++) {
            if (!((edges >> k) & 1)) {
                continue;
            }
            if (ptype == 0) {
                point(s, v[k], !front);
            } else {
                line(s, v[k], v[(k + 1) % 3], prov, !front);
            }
        }
        r->prim.depth_bias = 0.0f;
        return;
    }
    r->prim.back = !front;
    r->prims++;
    r500_rast_triangle(s, a, b, c, prov);
    r->prim.depth_bias = 0.0f;
}

/*
 * Clip a triangle against the frustum and the enabled user planes
 * (Sutherland-Hodgman in clip space, attributes interpolated linearly),
 * then transform and emit the fan.  The vertices are the caller's copies.
 */
static void tri_clip(R500Chip *s, R500Vertex *v0, R500Vertex *v1,
                     R500Vertex *v2, const R500Vertex *prov, unsigned edges)
{
    R500Rast *r = &s->rast;
    R500Vertex poly[2][CLIP_MAX_VERTS];
    bool flag[2][CLIP_MAX_VERTS];
    unsigned c0 = 0, c1 = 0, c2 = 0, n = 3, cur = 0;

    if (r->clip_enable) {
        c0 = clip_code(r, v0);
        c1 = clip_code(r, v1);
        c2 = clip_code(r, v2);
        if (c0 & c1 & c2) {
            r->culled++;
            return;
        }
    }
    if (!(c0 | c1 | c2)) {
        if (vte(r, v0) && vte(r, v1) && vte(r, v2)) {
            tri_emit(s, v0, v1, v2, prov, edges);
        } else {
            r->culled++;
        }
        return;
    }
    poly[0][0] = *v0;
    poly[0][1] = *v1;
    poly[0][2] = *v2;
    for (int k = 0; k < 3; k++) {
        flag[0][k] = (edges >> k) & 1;
    }
    for (unsigned p = 0; p < CLIP_PLANES && n >= 3; p++) {
        R500Vertex *in = poly[cur], *out = poly[cur ^ 1];
        bool *fin = flag[cur], *fout = flag[cur ^ 1];
        unsigned m = 0;

        if (!(((c0 | c1 | c2) >> p) & 1)) {
            continue;
        }
        for (unsigned i = 0; i < n && m + 2 <= CLIP_MAX_VERTS; i++) {
            const R500Vertex *a = &in[i], *b = &in[(i + 1) % n];
            float da = clip_dist(r, a, p), db = clip_dist(r, b, p);

            if (da >= 0.0f) {
                fout[m] = fin[i];
                out[m++] = *a;
            }
            if ((da >= 0.0f) != (db >= 0.0f)) {
                /* edges along the clip plane are not polygon edges */
                fout[m] = da >= 0.0f ? false : fin[i];
                vtx_lerp(&out[m++], a, b, da / (da - db));
            }
        }
        n = m;
        cur ^= 1;
    }
    if (n < 3) {
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!vte(r, &poly[cur][i])) {
            r->culled++;
            return;
        }
    }
    for (unsigned i = 1; i + 1 < n; i++) {
        unsigned e = (i == 1 && flag[cur][0]) |
                     flag[cur][i] << 1 |
                     (i + 2 == n && flag[cur][n - 1]) << 2;

        tri_emit(s, &poly[cur][0], &poly[cur][i], &poly[cur][i + 1], prov, e);
    }
}

/* ---- Points and lines ---- */

static void point(R500Chip *s, R500Vertex *v, bool back)
{
    R500Rast *r = &s->rast;
    int64_t hw = r->point_hw, hh = r->point_hh, cx, cy;

    if (r->clip_enable && (clip_code(r, v) & 0x30)) {
        r->culled++;        /* near/far: the whole point goes */
        return;
    }
    if (!vte(r, v)) {
        r->culled++;
        return;
    }
    if (r->psize) {
        /* per-vertex size in pixels -> half size in 1/12 pixel */
        float h = v->psize * 6.0f;

        h = h < r->point_min ? r->point_min : h > r->point_max ? r->point_max
                                                                : h;
        hw = hh = (int64_t)(h + 0.5f);
    }
    cx = llroundf(v->win[0] * 12.0f);
    cy = llroundf(v->win[1] * 12.0f);
    r->prim.back = back;
    r->prims++;
    r500_rast_rect(s, v, cx - hw, cy - hh, cx + hw, cy + hh);
}

/*
 * A line as the parallelogram GL defines for aliased lines: shifted
 * across its minor axis by the half width (GA_LINE_CNTL, 1/12 pixel).
 */
static void line(R500Chip *s, R500Vertex *a, R500Vertex *b,
                 const R500Vertex *prov, bool back)
{
    R500Rast *r = &s->rast;
    R500Vertex q[4];
    float hw = (r->line_hw ? r->line_hw : 6) / 12.0f;
    float dx, dy;

    if (r->clip_enable && (clip_code(r, a) & clip_code(r, b))) {
        r->culled++;
        return;
    }
    if (r->clip_enable && ((clip_code(r, a) | clip_code(r, b)) & 0x30)) {
        /* near/far crossings: clip the segment in clip space */
        R500Vertex ca = *a, cb = *b;

        for (unsigned p = 4; p < 6; p++) {
            float da = clip_dist(r, &ca, p), db = clip_dist(r, &cb, p);

            if (da < 0 && db < 0) {
                return;
            }
            if (da < 0) {
                vtx_lerp(&ca, &ca, &cb, da / (da - db));
            } else if (db < 0) {
                vtx_lerp(&cb, &ca, &cb, da / (da - db));
            }
        }
        q[0] = ca;
        q[2] = cb;
    } else {
        q[0] = *a;
        q[2] = *b;
    }
    if (!vte(r, &q[0]) || !vte(r, &q[2])) {
        r->culled++;
        return;
    }
    dx = q[2].win[0] - q[0].win[0];
    dy = q[2].win[1] - q[0].win[1];
    if (dx == 0.0f && dy == 0.0f) {
        return;
    }
    q[1] = q[0];
    q[3] = q[2];
    if (fabsf(dx) >= fabsf(dy)) {
        q[0].win[1] -= hw;
        q[1].win[1] += hw;
        q[2].win[1] += hw;
        q[3].win[1] -= hw;
    } else {
        q[0].win[0] -= hw;
        q[1].win[0] += hw;
        q[2].win[0] += hw;
        q[3].win[0] -= hw;
    }
    r->prim.back = back;
    r->prims++;
    r500_rast_triangle(s, &q[0], &q[1], &q[2], prov);
    r500_rast_triangle(s, &q[0], &q[2], &q[3], prov);
}

/* ---- Assembly (reference 1.5, 2.5 provoking vertex) ---- */

/* Which of a primitive's vertices provokes (0-3: first .. last). */
static unsigned pick(unsigned mode, unsigned first, unsigned second,
                     unsigned third, unsigned last)
{
    switch (mode) {
    case PROV_FIRST:
        return first;
    case PROV_SECOND:
        return second;
    case PROV_THIRD:
        return third;
    default:
        return last;
    }
}

/*
 * A polygon's provoking vertex: "last" provokes the first vertex; the
 * other modes count from the second (Mesa r300_render.c,
 * r300_provoking_vertex_fixes).
 */
static uint32_t polygon_prov(unsigned mode, uint32_t num)
{
    return mode == PROV_LAST ? 0 : MIN(mode + 1, num - 1);
}

/*
 * A quad's provoking vertex, of the quad's own order (a strip's quad is
 * 0 1 3 2): the first vertex never provokes; "first" and "second" pick
 * the second, "third" and "last" the fourth (r300_render.c).
 */
static unsigned quad_prov(unsigned mode, bool strip)
{
    return mode <= PROV_SECOND ? 1 : strip ? 2 : 3;
}

static bool budget_left(R500Chip *s)
{
    return s->rast.quad_budget > 0 && !s->rast.stopped;
}

/*
 * The start of an input primitive (a point, line, triangle, quad or
 * polygon fan triangle of the sequence): false when it is not drawn in
 * this call, because an earlier call of a split draw drew it, or because
 * this call's work reached its limit (pipe/pipe.c).  Stopping needs work
 * done in this call, so every call makes progress.
 */
static bool prim_begin(R500Chip *s)
{
    R500Rast *r = &s->rast;
    uint32_t seq = r->prim_seq++;

    if (seq < r->skip.prims) {
        return false;
    }
    if (r->work_limit) {
        uint64_t work = r->sink->work(r->sink->opaque);

        if (work && work >= r->work_limit) {
            r->stopped = true;
            r->stop = (R500RastPos) { seq, 0, INT32_MIN, INT32_MIN };
            return false;
        }
    }
    r->prim_sub = 0;
    r->skip_here = seq == r->skip.prims;
    r->redo = r->skip_here && r->skip.y != INT32_MIN && r->work_limit;
    r->redo_from = r->redo ? r->sink->work(r->sink->opaque) : 0;
    return true;
}

/*
 * Copy sequence element i: the vertex cache may reuse a slot while a
 * primitive still needs it.
 */
static bool get(R500Chip *s, const R500RastSink *sink, uint32_t i,
                R500Vertex *d)
{
    const R500Vertex *v = sink->vertex(sink->opaque, i);

    if (!v) {
        return false;
    }
    *d = *v;
    return true;
}

void r500_rast_draw(R500Chip *s, uint32_t num, const R500RastSink *sink)
{
    R500Rast *r = &s->rast;
    unsigned pm = r->provoking;
    R500Vertex v[4], pv[3];

    r->sink = sink;
#define V(k, i) get(s, sink, (i), &v[k])
    switch (r->prim_type) {
    case PRIM_POINTS:
    case PRIM_POINTS_3:
        for (uint32_t i = 0; i < num && budget_left(s); i++) {
            if (prim_begin(s) && V(0, i)) {
                point(s, &v[0], false);
            }
        }
        break;
    case PRIM_LINES:
    case PRIM_LINE_STRIP:
    case PRIM_LINE_LOOP: {
        uint32_t step = r->prim_type == PRIM_LINES ? 2 : 1;

        for (uint32_t i = 0; i + 1 < num && budget_left(s); i += step) {
            if (prim_begin(s) && V(0, i) && V(1, i + 1)) {
                line(s, &v[0], &v[1], pm == PROV_FIRST ? &v[0] : &v[1], false);
            }
        }
        if (r->prim_type == PRIM_LINE_LOOP && num > 2 && budget_left(s) &&
            prim_begin(s) && V(0, num - 1) && V(1, 0)) {
            line(s, &v[0], &v[1], pm == PROV_FIRST ? &v[0] : &v[1], false);
        }
        break;
    }
    case PRIM_TRIANGLES:
    case PRIM_TRI_STRIP:
        for (uint32_t i = 0; i + 2 < num && budget_left(s);
             i += r->prim_type == PRIM_TRIANGLES ? 3 : 1) {
            if (!prim_begin(s) || !V(0, i) || !V(1, i + 1) || !V(2, i + 2)) {
                continue;
            }
            pv[0] = v[pick(pm, 0, 1, 2, 2)];
            /* odd strip triangles swap their first two vertices (winding) */
            if (r->prim_type == PRIM_TRI_STRIP && (i & 1)) {
                tri_clip(s, &v[1], &v[0], &v[2], &pv[0], EDGES_ALL);
            } else {
                tri_clip(s, &v[0], &v[1], &v[2], &pv[0], EDGES_ALL);
            }
        }
        break;
    case PRIM_TRI_FAN:
        for (uint32_t i = 1; i + 1 < num && budget_left(s); i++) {
            if (prim_begin(s) && V(0, 0) && V(1, i) && V(2, i + 1)) {
                pv[0] = v[pick(pm, 0, 1, 2, 2)];
                tri_clip(s, &v[0], &v[1], &v[2], &pv[0], EDGES_ALL);
            }
        }
        break;
    case PRIM_POLYGON:
        if (num < 3 || !get(s, sink, polygon_prov(pm, num), &pv[0])) {
            break;
        }
        for (uint32_t i = 1; i + 1 < num && budget_left(s); i++) {
            if (prim_begin(s) && V(0, 0) && V(1, i) && V(2, i + 1)) {
                /* the polygon's own edges only */
                tri_clip(s, &v[0], &v[1], &v[2], &pv[0],
                         (i == 1) | 2u | (i + 2 == num) << 2);
            }
        }
        break;
    case PRIM_QUADS:
    case PRIM_QUAD_STRIP:
        for (uint32_t i = 0; i + 3 < num && budget_left(s);
             i += r->prim_type == PRIM_QUADS ? 4 : 2) {
            bool ok = prim_begin(s) && (r->prim_type == PRIM_QUADS
                ? V(0, i) && V(1, i + 1) && V(2, i + 2) && V(3, i + 3)
                /* a strip's quad is 0 1 3 2 */
                : V(0, i) && V(1, i + 1) && V(3, i + 2) && V(2, i + 3));

            if (!ok) {
                continue;
            }
            pv[0] = v[quad_prov(pm, r->prim_type == PRIM_QUAD_STRIP)];
            pv[1] = v[0];
            pv[2] = v[2];
            tri_clip(s, &v[0], &v[1], &v[2], &pv[0], 3u);
            tri_clip(s, &pv[1], &pv[2], &v[3], &pv[0], 6u);
        }
        break;
    default:
        r500_3d_unimp_once(s, R500_3D_UNIMP_PRIM, "3D: primitive type %u is "
                           "not modelled; such draws are skipped",
                           r->prim_type);
        break;
    }
#undef V
    r->sink = NULL;
}

/*
 * The triangles of num sequence elements, as r500_rast_draw() assembles
 * them (winding, provoking vertex), for a renderer that shades the
 * vertices itself (the host-GL renderer's vertex stage, pipe/
 * gl_vertex.c).
 */
bool r500_rast_tri_seq(R500Chip *s, uint32_t num, R500RastSeqTri tri,
                       void *opaque)
{
    R500Rast *r = &s->rast;
    unsigned pm = r->provoking;

    if (R500_FGET(s->regs[R_GA_POLY_MODE / 4], GA_POLY_MODE, DUAL)) {
        return false;
    }
    switch (r->prim_type) {
    case PRIM_TRIANGLES:
    case PRIM_TRI_STRIP:
        for (uint32_t i = 0; i + 2 < num;
             i += r->prim_type == PRIM_TRIANGLES ? 3 : 1) {
            uint32_t pv = i + pick(pm, 0, 1, 2, 2);

            /* odd strip triangles swap their first two vertices */
            if (r->prim_type == PRIM_TRI_STRIP && (i & 1)) {
                tri(opaque, i + 1, i, i + 2, pv);
            } else {
                tri(opaque, i, i + 1, i + 2, pv);
            }
        }
        return true;
    case PRIM_TRI_FAN:
        for (uint32_t i = 1; i + 1 < num; i++) {
            const uint32_t k[3] = { 0, i, i + 1 };

            tri(opaque, 0, i, i + 1, k[pick(pm, 0, 1, 2, 2)]);
        }
        return true;
    case PRIM_POLYGON:
        for (uint32_t i = 1; i + 1 < num; i++) {
            tri(opaque, 0, i, i + 1, polygon_prov(pm, num));
        }
        return true;
    case PRIM_QUADS:
    case PRIM_QUAD_STRIP: {
        bool strip = r->prim_type == PRIM_QUAD_STRIP;

        for (uint32_t i = 0; i + 3 < num; i += strip ? 2 : 4) {
            const uint32_t q[4] = { i, i + 1, strip ? i + 3 : i + 2,
                                    strip ? i + 2 : i + 3 };
            uint32_t pv = q[quad_prov(pm, strip)];

            tri(opaque, q[0], q[1], q[2], pv);
            tri(opaque, q[0], q[2], q[3], pv);
        }
        return true;
    }
    default:
        return false;
    }
}

/* ---- The block ---- */

/*
 * GA/SU/SC/RS state is latched from the registers for every draw
 * (r500_rast_prepare) and a split draw's position lives in the VAP's
 * resume state: reset forgets the primitive in flight and the reports.
 */
static void rast_reset(R500Chip *s)
{
    R500Rast *r = &s->rast;

    r->unimp_logged = 0;
    r->stopped = false;
    r->sink = NULL;
    memset(&r->prim, 0, sizeof(r->prim));
}

const R500Block r500_rast_block = {
    .name = "rast",
    .reset = rast_reset,
};
