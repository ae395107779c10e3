/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory controller: the GPU (MC) address space and the one translation
 * every engine uses to reach it.
 *
 * An MC address is in VRAM when it falls in MC_FB_LOCATION's window, in
 * system memory through the RV370-style PCIE GART when it falls in
 * [PCIE_TX_GART_START, PCIE_TX_GART_END], and otherwise goes where
 * PCIE_TX_GART_CNTL's unmapped-access mode sends it (reference
 * radeon-kms-r500.md 4.2-4.4; docs/cp.md).  VRAM is reached through
 * s->vram with every span checked; system memory only through the host's
 * dma_read/dma_write (pci_dma_* in QEMU), never through a pointer.
 */
#ifndef HW_R500_MEM_MC_H
#define HW_R500_MEM_MC_H

#include <stdbool.h>
#include <stdint.h>

typedef struct R500Chip R500Chip;

/*
 * The points at which memory must be the truth again: whoever keeps
 * copies of VRAM elsewhere (a renderer that draws on the host) brings
 * them and memory together (R500MemWatch.sync).
 */
typedef enum R500Sync {
    R500_SYNC_FENCE,            /* a fence, scratch write or interrupt */
    R500_SYNC_IDLE,             /* a wait for idle, engine status read */
    R500_SYNC_2D,               /* the 2D engine touches memory */
    R500_SYNC_DISPLAY,          /* the display scans a surface out */
    R500_SYNC_CPU,              /* the CPU reads/writes VRAM (aperture) */
    R500_SYNC_MIGRATE,          /* the state is saved */
    R500_SYNC_RESET,            /* the chip is reset */
    /*
     * another engine writes VRAM (the ZB's fast-clear expansion, an occlusion
     * count stored)
     */
    R500_SYNC_MEMORY,
    /*
     * the occlusion count is reset: the draws' counts first, not their pixels
     */
    R500_SYNC_COUNT,
    /*
     * the machine stops (migration's RAM pass, a snapshot): memory, copies kept
     */
    R500_SYNC_STOP,
} R500Sync;

struct R500Surf;

/*
 * The VRAM watcher (docs/architecture.md): memory and the engines below
 * the seam tell it what happens to VRAM, the seam (pipe/) installs it
 * (R500Chip.mem_watch), and memory never names the seam.  Every member
 * may be NULL.
 *   written: an engine wrote VRAM [offset, offset + len);
 *   release: someone the renderer does not see (the CPU, the 2D engine,
 *            the display, a DMA) is about to touch those bytes: what is
 *            kept elsewhere goes back to memory first;
 *   sync:    a sync point (R500Sync) was reached;
 *   fill:    a depth surface is about to be filled with v (the ZB's
 *            fast-clear expansion): true when the watcher made the fill
 *            itself, false when memory must be written.
 */
typedef struct R500MemWatch {
    void (*written)(R500Chip *s, uint64_t offset, uint64_t len);
    void (*release)(R500Chip *s, uint64_t offset, uint64_t len);
    void (*sync)(R500Chip *s, R500Sync why);
    bool (*fill)(R500Chip *s, const struct R500Surf *sf, uint32_t w,
                 uint32_t h, uint32_t v);
} R500MemWatch;

/* The watcher's calls, for memory, the engines and the host (mc.c). */
void r500_mem_sync(R500Chip *s, R500Sync why);
bool r500_mem_fill(R500Chip *s, const struct R500Surf *sf, uint32_t w,
                   uint32_t h, uint32_t v);

/*
 * The whole-access span check: [off, off + len) lies in [0, size), without
 * overflow for any 64-bit inputs.  Every guest-supplied span (and every
 * host's flat RAM) is checked with it.
 */
static inline bool r500_span_in(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

#define R500_GPU_PAGE_SHIFT     12
#define R500_GPU_PAGE_SIZE      (1u << R500_GPU_PAGE_SHIFT)
#define R500_GART_TLB_ENTRIES   64

/*
 * GART table entry flags (Linux r300.c R300_PTE_*); address bits 39:32
 * are in 31:24, 31:12 in 23:4.
 */
#define R500_GART_PTE_UNSNOOPED (1u << 0)
#define R500_GART_PTE_WRITEABLE (1u << 2)
#define R500_GART_PTE_READABLE  (1u << 3)

/* A cached GART entry: the PTE of one GPU page (gpu_page + 1; 0: empty). */
typedef struct R500GartTlbEntry {
    uint64_t tag;
    uint32_t pte;
} R500GartTlbEntry;

typedef struct R500MCState {
    /*
     * Not migrated: the TLB is refilled from the table after loadvm, as
     * after a guest's own invalidate (PCIE_TX_GART_CNTL.INVALIDATE_TLB).
     */
    R500GartTlbEntry tlb[R500_GART_TLB_ENTRIES];
    uint64_t tlb_misses;
    uint64_t faults;         /* accesses that failed translation */
} R500MCState;

/*
 * Copy len bytes from / to the MC address space.  The access is split at
 * VRAM and GPU-page boundaries; each piece is checked and goes to VRAM or
 * to the bus.  On any failure the rest is not done, a guest error is
 * logged and false is returned: callers treat it as a guest error, never
 * use the buffer.  Writes to VRAM are reported through vram_dirty().
 */
bool r500_mem_read(R500Chip *s, uint64_t mc_addr, void *buf, uint64_t len);
bool r500_mem_write(R500Chip *s, uint64_t mc_addr, const void *buf,
                    uint64_t len);

/*
 * Fast path: when [mc_addr, mc_addr + len) lies entirely in VRAM, its
 * offset into s->vram (returns true); otherwise false, and nothing is
 * logged (callers fall back to r500_mem_read/write).  len may be 0.
 * Writers through s->vram + *offset call r500_vram_dirty() themselves.
 */
bool r500_mc_vram_span(R500Chip *s, uint64_t mc_addr, uint64_t len,
                       uint64_t *offset);
/* The MC address of VRAM offset 0 (MC_FB_LOCATION's start). */
uint64_t r500_mc_fb_base(R500Chip *s);
/* The engines wrote VRAM [offset, offset + len). */
void r500_vram_dirty(R500Chip *s, uint64_t offset, uint64_t len);

/* Drop every cached GART entry. */
void r500_gart_flush(R500Chip *s);

#endif
