/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * soft: the reference renderer below the seam (DESIGN.md section 6;
 * renderer.h).  Quads are shaded by rast/ (interpolation), us/ (the
 * fragment program), tx/ (sampling) and rb/ (depth, stencil, blending,
 * formats) on the workers of pipe/ctx.h.
 *
 * Threads (docs/architecture.md, "Threads of the soft renderer"): with
 * more than one, the caller's thread runs the draw walk (vertex shading,
 * assembly, clipping, set-up, scan conversion) and records the covered
 * quads with their primitives in a batch; the workers, the caller among
 * them, then shade the batch, each the quads of its own tiles of
 * R500_SOFT_TILE_W x R500_SOFT_TILE_H pixels (tile (tx, ty) belongs to
 * worker (tx + ty) mod N).  A pixel belongs to one tile, so its quads are
 * shaded by one worker in primitive order: the memory written is the same
 * byte for byte as with one thread.
 */
#ifndef HW_R500_PIPE_SOFT_H
#define HW_R500_PIPE_SOFT_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"

/* Workers of one chip at most (the device property's cap). */
#define R500_SOFT_MAX_THREADS   16
/*
 * A worker's tile (even sizes: tiles hold whole quads; 16 pixels of
 * 32 bits are a 64-byte cache line, so workers rarely share one).
 */
#define R500_SOFT_TILE_W        16
#define R500_SOFT_TILE_H        8

typedef struct R500SoftPool R500SoftPool;

/*
 * The soft renderer's own state; the draw's decoded state and the
 * caller's worker are the seam's (pipe/ctx.h R500Pipe), apart from ours
 * on cache lines of their own: every worker reads ctx for every pixel,
 * the caller writes w0 for every quad, and side by side each write of the
 * caller's took the line from the other cores (a second thread cost half
 * again as much CPU per quad).
 */
typedef struct R500Soft {
    unsigned threads;           /* workers wanted (1: the caller only) */
    R500SoftPool *pool;         /* the other workers, made on first use */
    bool batching;              /* this draw's quads go to the workers */
    uint64_t cost;              /* work per quad this draw measured last */
    uint64_t threaded_draws;    /* draw calls (slices) on the workers */
    uint64_t batches;           /* batches they shaded */
    uint64_t fills;             /* rectangles stored as one colour */
    bool no_fill;               /* every rectangle quad by quad (tests, A/B) */
} R500Soft;

/*
 * Render with n threads (1..R500_SOFT_MAX_THREADS; 1: today's single
 * thread).  Hosts set it from their device property or environment.
 */
void r500_soft_set_threads(R500Chip *s, unsigned n);

#endif
