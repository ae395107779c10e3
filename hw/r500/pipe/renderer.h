/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The renderer interface below the seam (DESIGN.md section 6).
 *
 * Above it, pipe/pipe.c keeps the guest's semantics: the draw command of
 * the CP, the draw walk, budgets and split draws, draw statistics and the
 * once-per-draw reports.  Below it, a renderer is told "draw these
 * primitives with this decoded state": the prepares of vap/, rast/, us/,
 * tx/ and rb/ have run (their results are the draw's R500DrawCtx,
 * pipe/ctx.h) and the sequence's shaded vertices come from in->vertex().
 * The renderer must stop where the rasteriser stops (in->work() against
 * the rast's work limit), so a split draw is the same on every renderer.
 *
 * Memory stays the truth: at every sync point a renderer has finished
 * the work it was given and written it to VRAM/GART, so whoever looks
 * next (the CP's fence or scratch write, a wait for idle, the 2D engine,
 * the display, the CPU through the aperture, migration, reset) sees it.
 * soft (pipe/soft.c) finishes every draw before draw() returns; the
 * host-GL one (gl/gl.c) keeps the draws' surfaces on the host between
 * sync points and writes them back there.
 */
#ifndef HW_R500_PIPE_RENDERER_H
#define HW_R500_PIPE_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/mc.h"
#include "../rast/rast.h"

typedef struct R500Chip R500Chip;

typedef void (*R500StatFn)(void *opaque, const char *name, uint64_t val);

typedef struct R500RendererOps {
    const char *name;           /* as the renderer setting names it */
    /*
     * Make it ready on this chip (its thread, context): false, with the
     * reason, where it cannot run here (then close() undoes what open
     * made).  NULL: always ready.
     */
    bool (*open)(R500Chip *s, const char **why);
    /*
     * The chip leaves it (another is chosen, or the chip ends): memory
     * the truth, its threads and contexts freed.  It may be opened again.
     */
    void (*close)(R500Chip *s);
    /*
     * Draw num sequence elements with the prepared state (R500Pipe: the
     * seam set it and the caller's worker w0 before the call); in
     * supplies the vertices and the pipe's work meter (its quad member
     * is unused: the renderer shades the quads itself).  The counters of
     * the draw's blocks are up to date when it returns true.  False: the
     * renderer cannot draw this one and drew nothing, counted nothing;
     * the seam makes memory the truth (sync R500_SYNC_MEMORY) and soft
     * draws it.
     */
    bool (*draw)(R500Chip *s, uint32_t num, const R500RastSink *in);
    /*
     * The work of the shading so far in this draw() call, budget units
     * (the seam adds soft's when soft drew what another left).
     */
    uint64_t (*work)(R500Chip *s);
    /* Make memory the truth (see above). */
    void (*sync)(R500Chip *s, R500Sync why);
    /*
     * An engine wrote VRAM [offset, offset + len) (r500_vram_dirty): a
     * copy of those bytes the renderer keeps is stale.  May be NULL.
     */
    void (*written)(R500Chip *s, uint64_t offset, uint64_t len);
    /*
     * Someone the chip does not see touches VRAM [offset, offset + len):
     * what the renderer holds there (R500HostOps.vram_hold) goes back.
     * May be NULL (nothing is ever held).
     */
    void (*release)(R500Chip *s, uint64_t offset, uint64_t len);
    /*
     * Fill pixels (0, 0) to (w - 1, h - 1) of depth buffer sf with the
     * word v (its low sf->bpp bytes): the ZB's fast-clear expansion, on
     * the renderer's copy.  False (or NULL): the caller fills memory,
     * after a sync.
     */
    bool (*zb_fill)(R500Chip *s, const R500Surf *sf, uint32_t w, uint32_t h,
                    uint32_t v);
    /* Chip reset (the seam resets soft besides the chosen renderer). */
    void (*reset)(R500Chip *s);
    /*
     * Its counters, by name (QOM style), in a fixed order: every renderer
     * built in is asked, chosen or not, so the chip's list of counters
     * (r500_chip_stats) does not change.  May be NULL.
     */
    void (*stats)(R500Chip *s, R500StatFn fn, void *opaque);
} R500RendererOps;

/* The renderers (the table in pipe.c); gl where built with OpenGL. */
extern const R500RendererOps r500_soft_renderer;
extern const R500RendererOps r500_gl_renderer;

typedef struct R500Gl R500Gl;
/*
 * Whether the calling thread is a host-GL renderer's (the DRM shim lets
 * it see the host's devices, not its own).
 */
bool r500_gl_on_thread(void);      /* gl/gl_thread.c (R500_HAVE_GL) */

/*
 * pipe.c: select the renderer by its name ("soft", "gl"), or "auto":
 * the first of the others that can run here, else soft.  False for a
 * name no renderer has, or for one that cannot run here (the renderer
 * is kept; *why says why).  What auto tried is logged.
 * r500_pipe_configure: the host's settings "render-threads" and
 * "renderer" (dflt when unset; one that cannot be had is logged, and the
 * renderer kept): the host tools' way.  The DRM shim defaults to auto, as
 * the device does; replay and the unit-test host to soft, the reference
 * their bit-exact comparisons are made against.
 * r500_pipe_stats: every renderer's counters (R500RendererOps.stats).
 */
bool r500_pipe_set_renderer(R500Chip *s, const char *word, const char **why);
void r500_pipe_configure(R500Chip *s, const char *dflt);
void r500_pipe_stats(R500Chip *s, R500StatFn fn, void *opaque);

/*
 * pipe.c: the sync points, for the blocks that have them: the CP before
 * every packet and register write that is not the 3D pipeline's own
 * (r500_reg_is_3d, pm4_ops.def PIPE), the end of every run of the
 * chip that leaves the engines idle (core.c: the display and the CPU
 * look between runs; while the CP has work they have been told of
 * nothing new but by a fence, which is a sync of its own), the ZB's
 * fast-clear expansion (unless the renderer makes it: zb_fill), the
 * occlusion count's reset and store (rb3d.c), migration and reset.
 */
void r500_pipe_sync(R500Chip *s, R500Sync why);
/*
 * The same for a point where the guest may learn that the work is done
 * (a fence, scratch or interrupt, the engines' status): true when what
 * the renderer keeps on the host is held (R500HostOps.vram_holds_ready)
 * or written back; false: the caller waits and asks again.
 */
bool r500_pipe_sync_ready(R500Chip *s, R500Sync why);
/*
 * pipe.c: the chip starts with the soft renderer, and the seam watches
 * VRAM for it (mem/mc.h R500MemWatch: an engine's writes, others' looks,
 * the engines' sync points, the ZB's fills).
 */
void r500_pipe_init(R500Chip *s);
/*
 * pipe.c: the draw's decoded state (R500Pipe.ctx) set from the blocks'
 * prepared state and the caller's worker cleared for the draw: done by
 * the seam before it hands a draw down; unit tests call it to run one
 * engine on one quad.  The renderers' reset (soft's, which every renderer
 * may leave a draw to, and the chosen one's) and their end.
 */
R500Worker *r500_pipe_begin(R500Chip *s);
void r500_pipe_reset_renderers(R500Chip *s);
void r500_pipe_fini(R500Chip *s);

#endif
