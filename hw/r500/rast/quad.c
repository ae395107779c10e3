/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One quad through the pixel pipeline, for whichever renderer shades
 * quads on the CPU (docs/architecture.md): the RS's interpolation, the
 * US program, the RB's depth, stencil and colour, in the order the
 * hardware's early Z allows; and the fill path's two questions.  The
 * engines' own interfaces, on a worker (pipe/ctx.h): no renderer's
 * state is read here.
 */
#include <glib.h>

#include "../r500.h"

/* Shade and write one covered quad of prim on worker w. */
void r500_rast_quad(R500Worker *w, const R500Prim *prim, int x, int y,
                    unsigned mask)
{
    R500UsQuad *q = &w->q;

    w->prim = prim;
    q->x = x;
    q->y = y;
    q->cover = mask;
    q->back = prim->back;
    if (w->ctx->rb->early_z) {
        /*
         * Depth and stencil first; the shader's inputs and the shader
         * only where a pixel passed.
         */
        unsigned pass;

        r500_rast_interp_z(w, x, y);
        pass = r500_rb3d_quad_z(w, mask);
        if (pass) {
            r500_rast_interp(w, x, y);
            r500_us_run_quad(w);
            r500_rb3d_quad_color(w, pass & ~q->kill);
        }
    } else {
        r500_rast_interp(w, x, y);
        r500_us_run_quad(w);
        r500_rb3d_quad(w);
    }
}

/*
 * The fill path (rast.h, rect()): a rectangle whose every pixel the
 * shader gives the same colour, stored by the RB as one colour
 * (r500_rb3d_fill_begin), is written at memory speed instead of quad by
 * quad; clears are such rectangles (Mesa r300 clears with one point
 * sprite).  The program must be uniform (us.h) and the temporaries it
 * reads before writing filled by the RS with the same value at every
 * pixel.  One quad is shaded for the colour (the US counters and budget
 * count that one), the pixels and the occlusion count are all of them,
 * and the work meter gets the fill's real cost: its bytes at memory speed.
 */
bool r500_rast_rect_uniform(const R500DrawCtx *c, const R500Prim *prim)
{
    const R500UsProg *p = &c->us->prog;
    const R500Rast *r = c->rast;

    if (!p->uniform) {
        return false;
    }
    for (unsigned t = 0; t < R500_US_TEMPS; t++) {
        int last = -1;

        if (!p->temp_in[t]) {
            continue;
        }
        /* the RS write that lands last in t (rast_interp's order) */
        for (unsigned i = 0; i < r->nrs; i++) {
            if (r->rs[i].temp == t) {
                last = i;
            }
        }
        if (last < 0) {
            return false;           /* left from another pixel: varies */
        }
        for (int ch = 0; ch < 4; ch++) {
            const R500Plane *pl = &prim->plane[last][ch];

            if (((p->temp_in[t] >> ch) & 1) && (pl->dx != 0 || pl->dy != 0)) {
                return false;
            }
        }
    }
    return true;
}

/*
 * The fill's colour: one quad of the rectangle at (x0, y0) shaded on w
 * (false: the quad was killed, nothing is written).
 */
bool r500_rast_fill_shade(R500Worker *w, const R500Prim *prim, int x0,
                          int y0)
{
    /* one quad of the rectangle, shaded for its colour */
    w->prim = prim;
    w->q.x = x0 & ~1;
    w->q.y = y0 & ~1;
    w->q.cover = 0xF;
    w->q.back = prim->back;
    r500_rast_interp(w, w->q.x, w->q.y);
    r500_us_run_quad(w);
    return !w->q.kill;
}
