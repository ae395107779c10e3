/* SPDX-License-Identifier: GPL-2.0-or-later */
/* soft: the reference renderer's per-quad work (soft.h). */
#include <glib.h>
#include <string.h>

#include "../r500.h"

bool r500_once(uint32_t *flags, uint32_t bit)
{
    return !(g_atomic_int_or(flags, bit) & bit);
}

void r500_soft_quad(R500Worker *w, const R500Prim *prim, int x, int y,
                    unsigned mask)
{
    R500UsQuad *q = &w->q;

    w->prim = prim;
    q->x = x;
    q->y = y;
    q->cover = mask;
    q->back = prim->back;
    r500_rast_interp(w, x, y);
    if (w->ctx->rb->early_z) {
        /* depth and stencil first; the shader only where a pixel passed */
        unsigned pass = r500_rb3d_quad_z(w, mask);

        if (pass) {
            r500_us_run_quad(w);
            r500_rb3d_quad_color(w, pass & ~q->kill);
        }
    } else {
        r500_us_run_quad(w);
        r500_rb3d_quad(w);
    }
}

R500Worker *r500_soft_begin(R500Chip *s)
{
    R500Soft *so = &s->soft;

    so->ctx = (R500DrawCtx) {
        .rast = &s->rast, .rb = &s->rb3d, .us = &s->us, .tx = &s->tx,
        .regs = s->regs,
    };
    so->w0.s = s;
    so->w0.ctx = &so->ctx;
    so->w0.cache = &s->rb3d.cache;
    so->w0.us_budget = s->us.budget;
    memset(&so->w0.st, 0, sizeof(so->w0.st));
    return &so->w0;
}

void r500_soft_end(R500Chip *s)
{
    const R500Worker *w = &s->soft.w0;

    s->us.budget = w->us_budget;
    s->us.quads += w->st.us_quads;
    s->us.insts += w->st.us_insts;
    s->tx.samples += w->st.tx_samples;
    s->rb3d.pixels += w->st.rb_pixels;
    s->rb3d.zfail += w->st.zfail;
    s->rb3d.zpass += w->st.zpass;
}
