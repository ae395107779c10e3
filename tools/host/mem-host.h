/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip core's host (R500HostOps) in memory, for every program that
 * runs the core without QEMU: the unit tests (tests/unit/test-host.c), the
 * fuzzers (tests/fuzz/fuzz-host.c) and the kernel-driver model of the
 * host tools (tools/cs/kdrv.c: the DRM shim, r500-replay, the bench).
 *
 * Guest RAM is a buffer at bus address 0; DMA outside it fails (a guest
 * error for the core, never data).  Time is virtual: now, which the
 * caller sets or mem_host_step() advances.  The host records what the
 * core did: the IRQ line and its rising edges, the last schedule()
 * deadline, the spans of guest RAM written by DMA and of VRAM reported
 * by vram_dirty() (a report outside VRAM aborts: the core broke its
 * contract), the log lines (counted; kept, printed or passed on) and the
 * trace points (kept).
 */
#ifndef R500_MEM_HOST_H
#define R500_MEM_HOST_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "r500.h"

typedef struct MemHost MemHost;

/* One trace point the core reported (R500HostOps.trace). */
typedef struct MemHostTrace {
    R500TraceEvent ev;
    uint64_t a, b, c, d;
} MemHostTrace;

struct MemHost {
    /* Set by the caller (mem_host_init()). */
    R500Chip *chip;             /* for mem_host_step() */
    uint8_t *ram;               /* guest RAM at bus address 0 */
    uint64_t ram_size;
    uint64_t vram_size;         /* bound of vram_dirty() reports */
    GPtrArray *logs;            /* if set: "G: msg" / "U: msg" kept */
    GArray *traces;             /* if set: MemHostTrace, in order */
    bool verbose;               /* log lines also to stderr */
    /*
     * If set (one byte per 4 KiB page of VRAM, the caller's): the pages
     * the CPU wrote (mem_host_cpu_wrote()) that vram_cpu_written() has not
     * answered for yet.  Unset, the host cannot tell: every answer is yes.
     */
    uint8_t *cpu_pages;
    /*
     * Holds (R500HostOps.vram_hold): with holds, the host keeps the
     * spans the renderer holds (a test then looks through
     * r500_vram_release() itself, as a trap would); holds_late: they are
     * not in force until the caller sets holds_set (a host that sets its
     * traps on another thread).  Unset, the host holds nothing.
     */
    bool holds, holds_late, holds_set;
    /*
     * Or a host's own holds (the DRM shim's, on Mesa's views of VRAM):
     * called to hold (held) and to let go; false: not held.
     */
    bool (*on_hold)(MemHost *h, uint64_t offset, uint64_t len, bool held);
    uint64_t held_bytes;        /* VRAM bytes held now */
    unsigned hold_calls, unhold_calls;
    /* Optional hooks, for a host that traces or forwards. */
    void (*on_log)(MemHost *h, R500LogKind kind, const char *msg);
    void (*on_irq)(MemHost *h, bool level);

    /* What the core did. */
    int64_t now;                /* virtual time, ns */
    int64_t scheduled;          /* last schedule() deadline, -1 none */
    bool irq;
    unsigned irq_edges;
    uint64_t last_dma_addr;     /* bus address of the last DMA, even failed */
    unsigned dma_writes;        /* successful DMA writes */
    unsigned irq_dma_writes;    /* dma_writes when the line last rose */
    uint64_t ram_lo, ram_hi;    /* guest RAM written, [lo, hi) */
    uint64_t dirty_lo, dirty_hi;    /* VRAM reported written, [lo, hi) */
    uint64_t guest_errors, unimps;
    unsigned aperture_changes;  /* aperture_changed() calls */
};

extern const R500HostOps mem_host_ops;
/*
 * For the next input on the same host: what the chip reported writing to
 * VRAM (vram, the host's) and guest RAM zeroed, then mem_host_init() with
 * the same buffers and sizes.
 */
void mem_host_clean(MemHost *h, uint8_t *vram);

/* Clear what the core did and describe the memory (chip set later). */
void mem_host_init(MemHost *h, uint8_t *ram, uint64_t ram_size,
                   uint64_t vram_size);
/* Grow the span [*lo, *hi) to cover [off, off + len). */
void mem_host_span_add(uint64_t *lo, uint64_t *hi, uint64_t off,
                       uint64_t len);
/*
 * One r500_run() slice if one is scheduled: when advance, virtual time
 * first jumps to the deadline; otherwise only a deadline already due
 * runs.  False when nothing ran.
 */
bool mem_host_step(MemHost *h, bool advance);
/* The CPU wrote VRAM [off, off + len) (for cpu_pages). */
void mem_host_cpu_wrote(MemHost *h, uint64_t off, uint64_t len);
/* Number of kept log lines containing needle. */
unsigned mem_host_count_logs(const MemHost *h, const char *needle);

#endif
