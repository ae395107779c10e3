/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R500 chip core: public interface.
 *
 * The core is the GPU itself (register file and engines) in plain C11 with
 * glib, and no QEMU headers (DESIGN.md section 1).  It reaches the outside
 * world only through R500HostOps, so the same code runs inside the QEMU
 * board (hw/r500/qemu/), unit tests, fuzzers, benchmarks and the host Mesa
 * harness.
 */
#ifndef HW_R500_R500_H
#define HW_R500_R500_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "regs/regs.h"
#include "mem/mc.h"
#include "hdp.h"
#include "cp/cp.h"
#include "rb/rb2d.h"
#include "disp/disp.h"
#include "vap/vap.h"
#include "rast/rast.h"
#include "us/us.h"
#include "tx/tx.h"
#include "rb/rb3d.h"
#include "pipe/ctx.h"
#include "pipe/soft.h"
#include "pipe/renderer.h"

typedef struct R500Chip R500Chip;

/* ---- Models ---- */

typedef enum R500Model {
#define R500_MODEL(id, ...) R500_MODEL_##id,
#include "models.def"
#undef R500_MODEL
    R500_MODEL__COUNT
} R500Model;

typedef struct R500ModelInfo {
    const char *name;        /* QOM property value: "rv515" */
    const char *marketing;   /* "Radeon X1300/X1550" */
    uint16_t device_id;      /* PCI device ID, vendor 0x1002 */
    uint8_t quad_pipes;      /* GB_PIPE_SELECT, Mesa's RADEON_INFO_NUM_GB_PIPES */
    uint8_t z_pipes;         /* RV530 only reports 2 (GB_PIPE_SELECT2) */
    uint8_t mem_width_code;  /* MC_CNTL memory width field */
    bool msi;                /* the driver uses MSI on the R520 family only */
    R500McMap mc_map;        /* RV515 or R520-family MC register map */
} R500ModelInfo;

const R500ModelInfo *r500_model_info(R500Model model);
/* Model from its property name; -1 when unknown. */
int r500_model_from_name(const char *name);

/* ---- Host interface (implemented by the board, the tests, the harness) ---- */

typedef enum R500LogKind {
    R500_LOG_GUEST_ERROR,   /* the guest did something the hardware forbids */
    R500_LOG_UNIMP,         /* a feature the model does not implement yet */
    R500_LOG_NOTE,          /* asked-for detail (a setting such as gl-verbose) */
} R500LogKind;

/* Trace points of the core (r500_trace.def). */
typedef enum R500TraceEvent {
#define R500_TRACE(name, what) R500_TRACE_##name,
#include "r500_trace.def"
#undef R500_TRACE
    R500_TRACE__COUNT
} R500TraceEvent;

typedef struct R500HostOps {
    /*
     * Bus-master DMA to/from guest physical (bus) addresses.  Returns true
     * on success; a failure is a guest error, never data.
     */
    bool (*dma_read)(void *host, uint64_t addr, void *buf, uint64_t len);
    bool (*dma_write)(void *host, uint64_t addr, const void *buf, uint64_t len);
    /* Level of the interrupt line (the board turns it into INTx or MSI). */
    void (*set_irq)(void *host, bool level);
    /* Virtual time in nanoseconds. */
    int64_t (*clock_ns)(void *host);
    /*
     * Ask for r500_run() at virtual time deadline_ns; 0 means as soon as
     * possible, off the caller's stack.  A later call replaces an earlier.
     */
    void (*schedule)(void *host, int64_t deadline_ns);
    /* The engines wrote VRAM [offset, offset + len). */
    void (*vram_dirty)(void *host, uint64_t offset, uint64_t len);
    /*
     * Whether a writer the chip does not see (the CPU through the VRAM
     * BAR) may have written VRAM [offset, offset + len) since the last
     * call that covered it; the call clears that record.  The engines'
     * own writes (vram_dirty) do not count.  What the CPU wrote before
     * its last kick of the chip (a write of CP_RB_WPTR) must be known by
     * then.  May be NULL: then it may always have (the host-GL renderer
     * then uploads its surfaces again after every sync).
     */
    bool (*vram_cpu_written)(void *host, uint64_t offset, uint64_t len);
    /*
     * Holds (docs/3d.md "Write-back when someone looks"): the host-GL
     * renderer may keep what it drew on the host past a fence, when the
     * host can make every access it does not see (the CPU through the
     * VRAM BAR) call r500_vram_release() first.  vram_hold asks that of
     * VRAM [offset, offset + len); false: the host cannot (the renderer
     * writes the bytes back now).  vram_holds_ready: whether every hold
     * asked for is in force, so the CPU can no longer read those bytes
     * unseen; a host that sets its traps later (on another thread) says
     * false until then, and the CP waits before anything the guest could
     * take for the end of the work (a fence, an interrupt).  vram_unhold:
     * the bytes are memory's again.  All three may be NULL (no holds);
     * called under whatever the caller of the core holds.
     */
    bool (*vram_hold)(void *host, uint64_t offset, uint64_t len);
    bool (*vram_holds_ready)(void *host);
    void (*vram_unhold)(void *host, uint64_t offset, uint64_t len);
    /*
     * The tiled windows of the host aperture changed (r500_hdp_windows()):
     * a host that maps VRAM directly for the CPU remaps them.  May be NULL.
     */
    void (*aperture_changed)(void *host);
    /* One formatted line, without trailing newline. */
    void (*log)(void *host, R500LogKind kind, const char *msg);
    /*
     * The host's value of a setting of the core, NULL when unset (the
     * core's default); may be NULL.  The core never reads the process's
     * environment: the host decides where settings come from (the board
     * from its properties, the host tools from R500_* variables).
     *   "renderer"        soft, gl or auto (r500_pipe_configure)
     *   "render-threads"  soft's threads, 1..R500_SOFT_MAX_THREADS
     *   "gl-vertex"       cpu: the GL renderer shades vertices on the CPU
     *   "gl-verbose"      1: where each draw went; 2: its programs too
     *                     (R500_LOG_NOTE lines)
     *   "gl-device"       software: EGL's software device, not surfaceless
     *   "gl-fault"        testing: display or context (gl cannot open),
     *                     draw:N (the Nth draw job fails with a GL error)
     * Called from the chip's caller and from the GL renderer's thread.
     */
    const char *(*setting)(void *host, const char *name);
    /* A trace point (r500_trace.def says what a..d are); NULL: not traced. */
    void (*trace)(void *host, R500TraceEvent ev, uint64_t a, uint64_t b,
                  uint64_t c, uint64_t d);
} R500HostOps;

/* ---- Blocks ---- */

/*
 * Register side effects.  Writes have already stored the merged value in
 * s->regs[] when the write hook runs; it receives the previous value and
 * the byte-lane mask of the access, and may rewrite s->regs[].
 */
typedef uint32_t (*R500RegReadFn)(R500Chip *s, uint32_t reg);
typedef void (*R500RegWriteFn)(R500Chip *s, uint32_t reg, uint32_t old,
                               uint32_t mask);

typedef struct R500RegHook {
    uint32_t first, last;    /* byte offsets, inclusive, dword aligned */
    R500RegReadFn read;      /* NULL: read s->regs[] */
    R500RegWriteFn write;    /* NULL: store only */
} R500RegHook;

/* The indirect register spaces behind index/data ports. */
typedef enum R500Space {
    R500_SPACE_PLL,
    R500_SPACE_MC,
    R500_SPACE_PCIE,
} R500Space;

/*
 * A hardware block of the chip: its register hooks (terminated by an entry
 * with neither hook), reset, periodic work and post-migration fix-ups.
 * Every member may be NULL.
 *   run()       returns the virtual time it next needs to run at
 *               (INT64_MAX: not before new work arrives); clocked:
 *               see the field;
 *   busy()      RBBM_STATUS bits the block sets while it has work;
 *   pre_save()  bring migrated state up to date before it is saved (e.g.
 *               a position derived from the clock); post_load() checks
 *               and repairs what was loaded (the stream is not trusted);
 *   ind_write() side effects of a write to an indirect space (the value
 *               is already stored; old is the previous one);
 *   irq_pending() a display-controller interrupt source is pending and
 *               enabled (GEN_INT_STATUS.DISPLAY_INT, reference 6.1).
 */
typedef struct R500Block {
    const char *name;
    const R500RegHook *hooks;
    void (*reset)(R500Chip *s);
    int64_t (*run)(R500Chip *s, int64_t now);
    /*
     * run() only follows the clock (the CRTCs' vblank interrupts): short,
     * no engine work, so a host may call it from its timer on its own
     * (r500_run_clocked) while the engines work elsewhere.
     */
    bool clocked;
    void (*pre_save)(R500Chip *s);
    void (*post_load)(R500Chip *s);
    uint32_t (*busy)(R500Chip *s);
    void (*ind_write)(R500Chip *s, R500Space space, uint32_t index,
                      uint32_t old);
    bool (*irq_pending)(R500Chip *s);
} R500Block;

/* ---- The chip ---- */

struct R500Chip {
    R500Model model;
    const R500ModelInfo *info;
    uint8_t *vram;            /* owned by the host */
    uint64_t vram_size;
    const R500HostOps *ops;
    void *host;

    /* Register file (migrated). */
    uint32_t regs[R500_NUM_REGS];
    uint32_t pll[R500_PLL_NUM];
    uint32_t mc[R500_MC_NUM];
    uint32_t pcie[R500_PCIE_NUM];

    /* Engines (their own headers; migrated parts in r500_pci.c). */
    R500MCState mc_state;
    R500Hdp hdp;              /* host aperture windows (derived, hdp.h) */
    R500CP cp;
    R500Rb2d rb2d;
    /* Display controller (disp/disp.h; migrated as "r500/disp"). */
    R500Disp disp;
    R500Vap vap;              /* 3D pipeline: vertex fetch, PVS */
    R500Rast rast;            /* GA/SU/SC/RS */
    R500Us us;                /* fragment shader */
    R500Tx tx;                /* texture units */
    R500Rb3d rb3d;            /* colour, depth, Hyper-Z RAMs */
    const R500RendererOps *renderer;  /* below the seam (pipe/) */
    const R500MemWatch *mem_watch;    /* the seam's, in mem (mem/mc.h) */
    R500Pipe pipe;            /* the seam's per-draw state (pipe/ctx.h) */
    R500Soft soft;            /* the soft renderer's workers (pipe/) */
    R500Gl *gl;               /* the host-GL renderer, made on first use */

    /* Bookkeeping (not migrated). */
    bool irq_level;
    uint64_t guest_errors;
    uint64_t unimp_events;
    uint32_t unimp_logged[R500_NUM_REGS / 32];
    uint32_t draw_logged;     /* R500_DRAW_LOG_*: reported this draw */
};

/*
 * Initialise a chip over host-owned VRAM (vram_size: a power of two,
 * 16 MiB .. 512 MiB) and reset it.  Returns false with a message in *err
 * (free with g_free) when the arguments are invalid.
 */
bool r500_chip_init(R500Chip *s, R500Model model, uint8_t *vram,
                    uint64_t vram_size, const R500HostOps *ops, void *host,
                    char **err);
void r500_chip_reset(R500Chip *s);
void r500_chip_finalize(R500Chip *s);
/*
 * The machine stops (migration's last pass over RAM, a snapshot, a
 * pause): memory becomes the truth again, what the renderer keeps on the
 * host written back.
 */
void r500_chip_stop(R500Chip *s);
/* Before migration saves the chip; after it restored it. */
void r500_chip_pre_save(R500Chip *s);
void r500_chip_post_load(R500Chip *s);

/*
 * Someone the chip does not see (the CPU through the BAR, the display,
 * another device) is about to touch VRAM [offset, offset + len): what
 * the renderer holds there goes back to memory first (R500HostOps
 * vram_hold).
 */
void r500_vram_release(R500Chip *s, uint64_t offset, uint64_t len);


/*
 * ---- The host aperture (BAR0): the CPU's view of VRAM (hdp.c) ----
 * VRAM is linear to the CPU except inside the windows of the surface
 * registers (SURFACE0..7 with tiling bits), where the CPU's linear view
 * is translated to the tiled layout the engines and the display use.  A
 * board maps VRAM straight to the CPU outside the windows and sends
 * accesses inside them through r500_hdp_read/write; it asks for the
 * windows again on aperture_changed().
 *
 * r500_hdp_windows: the windows, aperture offsets, upper inclusive;
 *   fills lower[] and upper[] (R500_HDP_SURFACES entries) and returns how
 *   many there are.  They may overlap (the lower-numbered surface wins,
 *   which r500_hdp_read/write decide).
 * r500_hdp_translate: VRAM offset of aperture byte off (identity outside
 *   the windows); false when that is outside VRAM.
 * r500_hdp_read/write: a CPU access of 1..8 bytes at aperture offset off,
 *   little-endian, inside or outside a window; parts that translate
 *   outside VRAM read 0 and are not written.
 */
unsigned r500_hdp_windows(R500Chip *s, uint64_t lower[], uint64_t upper[]);
bool r500_hdp_translate(R500Chip *s, uint64_t off, uint64_t *vram_off);
uint64_t r500_hdp_read(R500Chip *s, uint64_t off, unsigned size);
void r500_hdp_write(R500Chip *s, uint64_t off, uint64_t val, unsigned size);

/* Called by the host when a schedule() deadline is reached. */
void r500_run(R500Chip *s);
/*
 * Only the clocked blocks' run() (the vblank interrupts), without the
 * engines and without scheduling: a host whose engines run on a thread
 * of their own calls it from its timer, so an interrupt that follows the
 * clock is raised on time however long the engines' slice is, then asks
 * for r500_run() as usual (which schedules the next deadline).
 */
void r500_run_clocked(R500Chip *s);

/*
 * The chip's counters, by name, in a fixed order: the board's QOM
 * property "stats" (QMP qom-get), tests and tools list the same ones.
 * Names are QOM-style (lower case, dashes).
 */
void r500_chip_stats(R500Chip *s, R500StatFn fn, void *opaque);
/* One of them by name (tests, tools); aborts for a name there is not. */
uint64_t r500_chip_stat(R500Chip *s, const char *name);


/* The register file and the base services every block uses. */
#include "base/base.h"

#endif
