/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * soft: the reference renderer below the seam (DESIGN.md section 6).
 * Quads are shaded by rast/ (interpolation), us/ (the fragment program),
 * tx/ (sampling) and rb/ (depth, stencil, blending, formats) on the
 * workers of pipe/ctx.h.
 */
#ifndef HW_R500_PIPE_SOFT_H
#define HW_R500_PIPE_SOFT_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"

typedef struct R500Soft {
    R500DrawCtx ctx;            /* this draw's decoded state */
    R500Worker w0;              /* the caller's own worker */
} R500Soft;

/*
 * Set the draw context from the blocks' prepared state (after the
 * prepares) and clear the worker's counters: the caller's worker.  Unit
 * tests call it to run one engine on one quad.
 */
R500Worker *r500_soft_begin(R500Chip *s);
/* Add the workers' counters and what is left of the budgets to the blocks. */
void r500_soft_end(R500Chip *s);
/* Shade and write one covered quad of prim on worker w. */
void r500_soft_quad(R500Worker *w, const R500Prim *prim, int x, int y,
                    unsigned mask);

#endif
