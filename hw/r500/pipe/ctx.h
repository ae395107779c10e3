/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-draw context of the 3D pipeline (DESIGN.md section 6).
 *
 * A draw has two kinds of state:
 *   - what it decodes once, before any quad runs, and never changes while
 *     the draw runs: the rasteriser's prepared state (s->rast), the colour
 *     and depth targets, blend and depth state (s->rb3d), the US program
 *     (s->us.prog), the texture units (s->tx).  R500DrawCtx points at it,
 *     read-only;
 *   - what each quad changes: the quad in flight, the page cache through
 *     which pixels, depth values and texels are reached, the draw's
 *     per-quad budget and counters.  That is an R500Worker, one per thread
 *     of the soft renderer (pipe/soft.c), so workers share nothing they
 *     write.
 * The per-quad engines (rast/scan.c's interpolation, us_exec.c, tx.c's
 * sampling, rb3d.c, zb.c) take the worker as their argument and read the
 * draw's state only through it; none reads another block's struct.
 */
#ifndef HW_R500_PIPE_CTX_H
#define HW_R500_PIPE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "../rast/rast.h"
#include "../mem/cache.h"
#include "../us/us.h"

typedef struct R500Chip R500Chip;
typedef struct R500Rb3d R500Rb3d;
typedef struct R500Tx R500Tx;

/* The immutable state of one draw (set by the prepares, main thread). */
typedef struct R500DrawCtx {
    const R500Rast *rast;       /* GA/SU/SC/RS */
    const R500Rb3d *rb;         /* targets, blend, depth/stencil */
    const R500Us *us;           /* program, constants */
    const R500Tx *tx;           /* texture units */
    const uint32_t *regs;       /* the register file (read-only) */
} R500DrawCtx;

/*
 * Reports a draw makes once (R500Chip.draw_logged): a split draw makes
 * them once too, not once per slice, and N workers once, not N times.
 */
enum {
    R500_DRAW_LOG_US_BUDGET = 1u << 0,  /* US instruction budget spent */
    R500_DRAW_LOG_US_DEPTH = 1u << 1,   /* US loop/call nesting too deep */
    R500_DRAW_LOG_PVS_BUDGET = 1u << 2, /* PVS instruction budget spent */
    R500_DRAW_LOG_PVS_CUT = 1u << 3,    /* a vertex shader did not end */
    R500_DRAW_LOG_QUADS = 1u << 4,      /* quad budget spent */
    R500_DRAW_LOG_CACHE = 1u << 5,      /* a surface page not reachable */
};

/*
 * The cost of a draw's work in CP budget units (cp.h: a slice of 2^17
 * units is about a millisecond, so a unit is about 8 ns), as measured on
 * the core (docs/3d.md, "Split draws"): a vertex fetched and handed over,
 * a PVS instruction of one vertex (~50 ns), a US instruction of one quad
 * (~25 ns), a texture sample of one quad (~400 ns), a quad rasterised,
 * interpolated and written (~130 ns: 70 for one the depth test rejects,
 * 170 for one blended; measured again after the quad path, docs/bench.md).
 * The pipe meters the first two and the quads; the renderer the shading
 * (renderer.h, work()).
 */
#define R500_3D_WORK_VERTEX     8
#define R500_3D_WORK_PVS        7
#define R500_3D_WORK_US         3
#define R500_3D_WORK_TEX        48
#define R500_3D_WORK_QUAD       16
/*
 * A fill (pipe/soft.c): bytes stored per unit (about 8 GB/s), and the
 * most one fill may cost, in the call's work limits.
 */
#define R500_3D_FILL_BYTES      64
#define R500_3D_FILL_SLICES     8

/* Counters a worker keeps; the pipe adds them to the blocks' own. */
typedef struct R500WorkerStats {
    uint64_t us_quads, us_insts;
    uint64_t tx_samples;
    uint64_t rb_pixels, zfail;
    uint32_t zpass;             /* occlusion samples passed */
    uint64_t fill_work;         /* work of the fills (pipe/soft.c) */
} R500WorkerStats;

/* Per-thread scratch of the soft renderer. */
typedef struct R500Worker {
    R500Chip *s;                /* logging only; no state is read here */
    const R500DrawCtx *ctx;
    const R500Prim *prim;       /* the primitive of the current quad */
    R500UsQuad q;
    R500Cache *cache;           /* this worker's page cache */
    uint64_t us_budget;         /* US instructions this worker may run */
    R500WorkerStats st;
} R500Worker;

/*
 * The seam's per-draw state (pipe.c r500_pipe_begin): the draw's decoded
 * state, built once before the renderer is handed the draw, and the
 * caller's own worker, which both renderers use (soft for its quads when
 * it has no other threads, gl for the fills and texture images it makes
 * on the CPU).  The caller writes w0 for every quad: on cache lines of
 * its own, apart from ctx, which the soft renderer's workers read.
 * Padding, not an alignment attribute: hosts allocate the chip with
 * malloc.
 */
typedef struct R500Pipe {
    uint8_t pad0[R500_CACHE_LINE];
    R500DrawCtx ctx;            /* this draw's decoded state */
    uint8_t pad1[R500_CACHE_LINE];
    R500Worker w0;              /* the caller's own worker */
    uint8_t pad2[R500_CACHE_LINE];
} R500Pipe;

#endif
