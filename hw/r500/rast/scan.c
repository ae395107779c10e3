/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SC and RS: scan conversion into 2x2 quads and interpolation of the
 * fragment-shader inputs.  r500-3d-pipeline.md 2.7, 2.8, 7.
 *
 * Vertices are snapped to 1/12 pixel (GB_TILE_CONFIG.SUBPIXEL = 0, what
 * Mesa assumes); pixel centres are at +6/12 (GB_MSPOS = 6, single
 * sample).  Edge functions are evaluated exactly in 64-bit integers with
 * the top-left rule (SC_EDGERULE as Mesa programs it).  Coverage is also
 * limited by the scissor (RE_SCISSORS_*) and the clip rectangles with
 * SC_CLIP_RULE.  Every quad with a covered pixel runs the shader on all
 * four pixels (helpers feed derivatives) and goes to the RB.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"

#define SUB     12              /* subpixel steps per pixel */

/* Pixel p of a quad: p = 2 * dy + dx. */
static const int qdx[4] = { 0, 1, 0, 1 };
static const int qdy[4] = { 0, 0, 1, 1 };

/* Pixels the scissor and SC_CLIP_RULE keep (the bbox is in the scissor). */
static unsigned clip_rule_mask(const R500Rast *r, int x, int y)
{
    unsigned mask = 0;

    if (r->clip_rule == 0xFFFF) {
        return 0xF;
    }
    for (int p = 0; p < 4; p++) {
        int px = x + qdx[p], py = y + qdy[p];
        unsigned idx = 0;

        for (int k = 0; k < 4; k++) {
            if (px >= r->cr[k][0] && px <= r->cr[k][2] &&
                py >= r->cr[k][1] && py <= r->cr[k][3]) {
                idx |= 1u << k;
            }
        }
        mask |= ((r->clip_rule >> idx) & 1u) << p;
    }
    return mask;
}

/* Pixel p's offset from the primitive's origin. */
static inline void interp_pos(const R500Prim *pr, int x, int y, int p,
                              float *fx, float *fy)
{
    *fx = x + qdx[p] + 0.5f - pr->x0;
    *fy = y + qdy[p] + 0.5f - pr->y0;
}

void r500_rast_interp_z(R500Worker *w, int x, int y)
{
    const R500Prim *pr = w->prim;

    for (int p = 0; p < 4; p++) {
        float fx, fy;

        interp_pos(pr, x, y, p, &fx, &fy);
        w->q.z[p] = pr->z.c + pr->z.dx * fx + pr->z.dy * fy;
    }
}

/* Fill the US inputs of w's quad at (x, y) from its primitive's planes. */
void r500_rast_interp(R500Worker *w, int x, int y)
{
    const R500Rast *r = w->ctx->rast;
    const R500Prim *pr = w->prim;
    R500UsQuad *q = &w->q;
    float fx[4], fy[4], iw[4];

    r500_rast_interp_z(w, x, y);
    for (int p = 0; p < 4; p++) {
        interp_pos(pr, x, y, p, &fx[p], &fy[p]);
        iw[p] = 1.0f / (pr->w.c + pr->w.dx * fx[p] + pr->w.dy * fy[p]);
    }
    for (unsigned i = 0; i < r->nrs; i++) {
        float (*t)[4] = q->t[r->rs[i].temp];

        for (int c = 0; c < 4; c++) {
            const R500Plane *pl = &pr->plane[i][c];

            for (int p = 0; p < 4; p++) {
                float v = pl->c + pl->dx * fx[p] + pl->dy * fy[p];
                t[c][p] = pl->persp ? v * iw[p] : v;
            }
        }
    }
}

static bool budget(R500Chip *s)
{
    R500Rast *r = &s->rast;

    if (r->quad_budget) {
        r->quad_budget--;
        return true;
    }
    if (r500_once(&s->draw_logged, R500_DRAW_LOG_QUADS)) {
        r500_guest_error(s, "3D: draw exceeds %llu quads; the rest is "
                         "dropped", (unsigned long long)R500_RAST_QUAD_BUDGET);
    }
    return false;
}

static void quad_emit(R500Chip *s, int x, int y, unsigned mask)
{
    R500Rast *r = &s->rast;

    r->sink->quad(r->sink->quad_opaque, &r->prim, x, y, mask);
    r->quads++;
    /* pixels in a 4-bit mask (no popcount call on baseline x86-64) */
    r->pixels += (0x4332322132212110ull >> (4 * mask)) & 0xF;
}

/*
 * A quad whose coverage inside the primitive and the scissor box
 * [bx0, bx1] x [by0, by1] is mask: apply the clip rule, shade and write.
 * Returns false when the draw's quad budget is spent or this call of a
 * split draw stops (pipe/pipe.c): after this quad, once the call's work
 * reached its limit.  The quads an earlier call drew are walked in the
 * same order and skipped.
 */
static bool quad_finish(R500Chip *s, int x, int y, unsigned mask)
{
    R500Rast *r = &s->rast;

    mask &= clip_rule_mask(r, x, y);
    if (!mask) {
        return true;
    }
    if (!budget(s)) {
        return false;
    }
    quad_emit(s, x, y, mask);
    if (r->work_limit && r->sink->work(r->sink->opaque) >= r->work_limit) {
        r->stopped = true;
        r->stop = (R500RastPos) { r->prim_seq - 1, r->prim_sub - 1, y, x };
        return false;
    }
    return true;
}

/*
 * The start of a scan call (a triangle or rectangle of the current input
 * primitive): false when it is not drawn at all (stopped, or wholly drawn
 * by an earlier call of a split draw); *partial when that call stopped
 * inside it, so its quads up to r->skip.y/x are passed over.
 */
static bool scan_begin(R500Chip *s, bool *partial)
{
    R500Rast *r = &s->rast;
    uint32_t sub = r->prim_sub++;

    *partial = false;
    if (r->stopped) {
        return false;
    }
    if (!r->skip_here || sub > r->skip.sub) {
        return true;
    }
    if (sub < r->skip.sub) {
        return false;
    }
    *partial = true;
    if (r->redo) {
        r->redo = false;
        r->work_limit += r->sink->work(r->sink->opaque) - r->redo_from;
    }
    return true;
}

/*
 * Rows from y0 (even) on: with partial, the rows before r->skip.y are
 * jumped over (their count in *rows) and in that row the quads up to
 * *sx; otherwise *sx is below every quad.
 */
static int64_t scan_first_row(const R500Rast *r, bool partial, int64_t y0,
                              int64_t *rows, int64_t *sx)
{
    *rows = 0;
    *sx = INT64_MIN;
    if (partial && r->skip.y >= y0) {
        *rows = (r->skip.y - y0) / 2;
        *sx = r->skip.x;
        return r->skip.y;
    }
    return y0;
}

/* Pixels of the quad at (x, y) inside the box [x0, x1] x [y0, y1]. */
static unsigned box_mask(int64_t x, int64_t y, int64_t x0, int64_t y0,
                         int64_t x1, int64_t y1)
{
    unsigned mask = 0;

    for (int p = 0; p < 4; p++) {
        int64_t px = x + qdx[p], py = y + qdy[p];

        mask |= (unsigned)(px >= x0 && px <= x1 && py >= y0 && py <= y1) << p;
    }
    return mask;
}

/* The pixel bounding box [x0, x1] x [y0, y1] clipped to the scissor. */
static bool bbox_clip(const R500Rast *r, int64_t *x0, int64_t *y0,
                      int64_t *x1, int64_t *y1)
{
    *x0 = MAX(*x0, r->sc_x0);
    *y0 = MAX(*y0, r->sc_y0);
    *x1 = MIN(*x1, r->sc_x1);
    *y1 = MIN(*y1, r->sc_y1);
    return *x0 <= *x1 && *y0 <= *y1;
}

/* ---- Attribute planes ---- */

typedef struct PlaneSetup {
    double x[3], y[3];
    double det;
} PlaneSetup;

static R500Plane plane3(const PlaneSetup *ps, double f0, double f1,
                        double f2, bool persp)
{
    double a1 = f1 - f0, a2 = f2 - f0;
    double dx1 = ps->x[1] - ps->x[0], dy1 = ps->y[1] - ps->y[0];
    double dx2 = ps->x[2] - ps->x[0], dy2 = ps->y[2] - ps->y[0];

    return (R500Plane){
        .c = f0,
        .dx = (a1 * dy2 - a2 * dy1) / ps->det,
        .dy = (a2 * dx1 - a1 * dx2) / ps->det,
        .persp = persp,
    };
}

static R500Plane plane_const(float v)
{
    return (R500Plane){ .c = v };
}

static R500Plane chan_const(const R500Rast *r, const R500RsChan *ch,
                            const R500Vertex *v)
{
    switch (ch->src) {
    case R500_RS_ONE:
        return plane_const(1.0f);
    case R500_RS_FACE:
        return plane_const(r->prim.back ? 1.0f : 0.0f);
    case R500_RS_WINX:
        return (R500Plane){ .c = r->prim.x0, .dx = 1.0f };
    case R500_RS_WINY:
        return (R500Plane){ .c = r->prim.y0, .dy = 1.0f };
    case R500_RS_ATTR:
        return plane_const(v->attr[ch->attr]);
    default:
        return plane_const(0.0f);
    }
}

/* ---- Triangles ---- */

void r500_rast_triangle(R500Chip *s, const R500Vertex *v0,
                        const R500Vertex *v1, const R500Vertex *v2,
                        const R500Vertex *prov)
{
    R500Rast *r = &s->rast;
    const R500Vertex *v[3] = { v0, v1, v2 };
    int64_t X[3], Y[3], edge[3][3], area, bx0, by0, bx1, by1;
    PlaneSetup ps;
    bool partial;

    if (!scan_begin(s, &partial)) {
        return;
    }
    if (r->sink->tri) {
        /* a renderer that rasterises itself (rast.h) */
        r->sink->tri(r->sink->quad_opaque, &r->prim, v0, v1, v2, prov);
        return;
    }
    for (int i = 0; i < 3; i++) {
        X[i] = llround((double)v[i]->win[0] * SUB);
        Y[i] = llround((double)v[i]->win[1] * SUB);
    }
    area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0) {
        return;
    }
    if (area < 0) {
        /* make the edge functions positive inside */
        const R500Vertex *tv = v[1];
        int64_t tx = X[1], ty = Y[1];

        v[1] = v[2];
        X[1] = X[2];
        Y[1] = Y[2];
        v[2] = tv;
        X[2] = tx;
        Y[2] = ty;
    }
    for (int e = 0; e < 3; e++) {
        int a = e, b = (e + 1) % 3;
        int64_t dx = X[b] - X[a], dy = Y[b] - Y[a];
        /* top-left edges own the pixel centres on them */
        bool tl = dy < 0 || (dy == 0 && dx > 0);

        edge[e][0] = -dy;
        edge[e][1] = dx;
        edge[e][2] = dy * X[a] - dx * Y[a] - (tl ? 0 : 1);
    }
    bx0 = MIN(MIN(X[0], X[1]), X[2]) / SUB - 1;
    by0 = MIN(MIN(Y[0], Y[1]), Y[2]) / SUB - 1;
    bx1 = MAX(MAX(X[0], X[1]), X[2]) / SUB + 1;
    by1 = MAX(MAX(Y[0], Y[1]), Y[2]) / SUB + 1;
    if (!bbox_clip(r, &bx0, &by0, &bx1, &by1)) {
        return;
    }

    /* Planes through the snapped positions (reference 7, "Shading"). */
    for (int i = 0; i < 3; i++) {
        ps.x[i] = (double)X[i] / SUB;
        ps.y[i] = (double)Y[i] / SUB;
    }
    ps.det = (ps.x[1] - ps.x[0]) * (ps.y[2] - ps.y[0]) -
             (ps.x[2] - ps.x[0]) * (ps.y[1] - ps.y[0]);
    r->prim.x0 = ps.x[0];
    r->prim.y0 = ps.y[0];
    r->prim.w = plane3(&ps, v[0]->win[3], v[1]->win[3], v[2]->win[3], false);
    r->prim.z = plane3(&ps, v[0]->win[2], v[1]->win[2], v[2]->win[2], false);
    for (unsigned i = 0; i < r->nrs; i++) {
        for (int c = 0; c < 4; c++) {
            const R500RsChan *ch = &r->rs[i].ch[c];
            R500Plane *pl = &r->prim.plane[i][c];

            R500RsChan bc = *ch;

            /*
             * Back faces take colours 2/3 in place of 0/1 when the VAP
             * outputs them (two-sided colour, reference 2.3).
             */
            if (r->prim.back && bc.src == R500_RS_ATTR &&
                bc.attr < R500_ATTR_COL(2) &&
                ((r->colours >> (2 + bc.attr / 4)) & 1)) {
                bc.attr += R500_ATTR_COL(2);
            }
            if (bc.src == R500_RS_ATTR && !bc.flat) {
                *pl = plane3(&ps, (double)v[0]->attr[bc.attr] * v[0]->win[3],
                             (double)v[1]->attr[bc.attr] * v[1]->win[3],
                             (double)v[2]->attr[bc.attr] * v[2]->win[3],
                             true);
            } else {
                *pl = chan_const(r, &bc, prov);
            }
        }
    }

    r->prim.seq++;
    /*
     * Edge functions stepped exactly in integers: at pixel 0 of the quad,
     * +12 A to the right, +12 B down (exact: no rounding).
     */
    {
        int64_t qx0 = bx0 & ~1, row[3], rows, sx;
        int64_t y0 = scan_first_row(r, partial, by0 & ~1, &rows, &sx);

        for (int e = 0; e < 3; e++) {
            row[e] = edge[e][0] * (qx0 * SUB + SUB / 2) +
                     edge[e][1] * ((by0 & ~1) * SUB + SUB / 2) + edge[e][2] +
                     rows * 2 * SUB * edge[e][1];
        }
        for (int64_t y = y0; y <= by1; y += 2) {
            int64_t ev[3] = { row[0], row[1], row[2] };

            for (int64_t x = qx0; x <= bx1; x += 2) {
                unsigned mask = 0xF;

                for (int e = 0; e < 3; e++) {
                    int64_t a = edge[e][0] * SUB, b = edge[e][1] * SUB;

                    mask &= (ev[e] >= 0) | (ev[e] + a >= 0) << 1 |
                            (ev[e] + b >= 0) << 2 | (ev[e] + a + b >= 0) << 3;
                    ev[e] += 2 * a;
                }
                /* scissor edges inside the quad */
                mask &= mask ? box_mask(x, y, bx0, by0, bx1, by1) : 0;
                if (mask && (y != y0 || x > sx) &&
                    !quad_finish(s, x, y, mask)) {
                    return;
                }
            }
            for (int e = 0; e < 3; e++) {
                row[e] += 2 * SUB * edge[e][1];
            }
        }
    }
}

/* ---- Rectangles: points and point sprites ---- */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/*
 * A rectangle as two triangles of v's attributes, a stuffed point's S and
 * T in the corners' sprite[], for a renderer that rasterises itself.
 * Pixel centres are never on its edges, at 1/12 pixel and centres at
 * 6/12, so any fill rule covers what r500_rast_rect's loop would.
 */
static void rect_tris(R500Rast *r, const R500Vertex *v, int64_t x0,
                      int64_t y0, int64_t x1, int64_t y1)
{
    R500Vertex q[4];

    for (int k = 0; k < 4; k++) {
        q[k] = *v;
        q[k].win[0] = (float)((k == 1 || k == 2) ? x1 : x0) / SUB;
        q[k].win[1] = (float)(k >= 2 ? y1 : y0) / SUB;
        /*
         * stuffing: S from S0 left to S1 right, T from T1 at the top
         * row to T0 at the bottom (the planes below)
         */
        q[k].sprite[0] = (k == 1 || k == 2) ? r->stuff_s1 : r->stuff_s0;
        q[k].sprite[1] = k >= 2 ? r->stuff_t0 : r->stuff_t1;
    }
    r->sink->tri(r->sink->quad_opaque, &r->prim, &q[0], &q[1], &q[2], v);
    r->sink->tri(r->sink->quad_opaque, &r->prim, &q[0], &q[2], &q[3], v);
}

void r500_rast_rect(R500Chip *s, const R500Vertex *v, int64_t x0, int64_t y0,
                    int64_t x1, int64_t y1)
{
    R500Rast *r = &s->rast;
    int64_t bx0, by0, bx1, by1, ys, rows, sx;
    bool partial;

    if (!scan_begin(s, &partial) || x1 <= x0 || y1 <= y0) {
        return;
    }
    /*
     * A renderer that rasterises itself takes the rectangle as two
     * triangles, unless it fills it whole (its rect(), offered below:
     * nothing of it skipped, no clip rectangles).
     */
    if (r->sink->tri && (!r->sink->rect || r->clip_rule != 0xFFFF ||
                         (partial && r->skip.y != INT32_MIN))) {
        rect_tris(r, v, x0, y0, x1, y1);
        return;
    }
    /* pixels whose centre 12 p + 6 lies in [x0, x1) */
    bx0 = ceil_div(x0 - SUB / 2, SUB);
    by0 = ceil_div(y0 - SUB / 2, SUB);
    bx1 = ceil_div(x1 - SUB / 2, SUB) - 1;
    by1 = ceil_div(y1 - SUB / 2, SUB) - 1;
    if (!bbox_clip(r, &bx0, &by0, &bx1, &by1)) {
        return;
    }

    r->prim.x0 = (double)x0 / SUB;
    r->prim.y0 = (double)y0 / SUB;
    r->prim.w = plane_const(v->win[3]);
    r->prim.z = plane_const(v->win[2]);
    for (unsigned i = 0; i < r->nrs; i++) {
        for (int c = 0; c < 4; c++) {
            const R500RsChan *ch = &r->rs[i].ch[c];
            R500Plane *pl = &r->prim.plane[i][c];

            if (ch->src != R500_RS_STUFF) {
                *pl = chan_const(r, ch, v);
            } else if (ch->attr == 0) {
                /* S runs from S0 on the left to S1 on the right */
                *pl = (R500Plane){
                    .c = r->stuff_s0,
                    .dx = (r->stuff_s1 - r->stuff_s0) * SUB / (x1 - x0),
                };
            } else if (ch->attr == 1) {
                /* T from T1 at the top row to T0 at the bottom (2.4) */
                *pl = (R500Plane){
                    .c = r->stuff_t1,
                    .dy = (r->stuff_t0 - r->stuff_t1) * SUB / (y1 - y0),
                };
            } else {
                *pl = plane_const(0.0f);
            }
        }
    }

    r->prim.seq++;
    ys = scan_first_row(r, partial, by0 & ~1, &rows, &sx);
    if (sx == INT64_MIN && r->clip_rule == 0xFFFF && r->sink->rect) {
        /*
         * Nothing skipped (no earlier call of a split draw drew part of
         * it): the loop below would emit every quad of the box, none
         * masked but by the box.
         */
        uint64_t quads = (uint64_t)((by1 - (by0 & ~1)) / 2 + 1) *
                         (uint64_t)((bx1 - (bx0 & ~1)) / 2 + 1);

        if (quads <= r->quad_budget &&
            r->sink->rect(r->sink->quad_opaque, &r->prim, bx0, by0, bx1, by1,
                          quads)) {
            r->quad_budget -= quads;
            r->pixels += (uint64_t)(bx1 - bx0 + 1) * (uint64_t)(by1 - by0 + 1);
            return;
        }
    }
    if (r->sink->tri) {
        rect_tris(r, v, x0, y0, x1, y1);
        return;
    }
    for (int64_t y = ys; y <= by1; y += 2) {
        for (int64_t x = bx0 & ~1; x <= bx1; x += 2) {
            unsigned mask = box_mask(x, y, bx0, by0, bx1, by1);

            if (mask && (y != ys || x > sx) && !quad_finish(s, x, y, mask)) {
                return;
            }
        }
    }
}
