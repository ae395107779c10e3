/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the radeon kernel driver does to the chip, for the host tools: the
 * memory controller and PCIE GART as rv515_startup programs them, the CP
 * ring as r100_cp_init and rv515_ring_start set it up, and an IB executed
 * from the ring with a fence (r100_ring_ib_execute, r300_fence_ring_emit),
 * waited for by running the chip.  The DRM shim (tools/drm-shim/kms.c)
 * drives Mesa's streams through it; r500-replay --execute runs captured
 * streams through the same code on a fresh chip.
 */
#ifndef R500_TOOLS_KDRV_H
#define R500_TOOLS_KDRV_H

#include <stdbool.h>
#include <stdint.h>

#include "r500.h"
#include "mem-host.h"

/* radeon_ttm_init: the first 256 KiB of VRAM stay with VGA */
#define KDRV_STOLEN_VGA_SIZE    (256u << 10)
/* r300_startup: r100_cp_init(rdev, 1024 * 1024) */
#define KDRV_RING_SIZE          (1u << 20)
/* radeon_ib_pool_init: RADEON_IB_POOL_SIZE (16) * 64 KiB */
#define KDRV_IB_POOL_SIZE       (1u << 20)
#define KDRV_PAGE_SIZE          4096u

typedef enum KDrvExec {
    KDRV_EXEC_DONE,         /* the CP executed the IB and wrote the fence */
    KDRV_EXEC_NO_CP,        /* nothing consumed the ring */
    KDRV_EXEC_STALLED,      /* the CP started but never reached the fence */
} KDrvExec;

typedef struct KDrv {
    /* Set by the caller before kdrv_init(). */
    R500Chip *chip;
    R500Model model;
    uint8_t *vram;          /* VRAM, vram_size bytes */
    uint8_t *ram;           /* system memory at bus address 0, ram_size */
    uint64_t vram_size, ram_size;
    uint64_t vram_start;    /* MC address of VRAM */
    uint64_t gtt_start;     /* MC address of the GART aperture */
    uint64_t gtt_size;
    uint64_t gart_table;    /* VRAM offset of the page table */
    uint64_t dummy_page;    /* bus address unbound GART entries point at */
    uint64_t wb_off, ring_off, ib_off;  /* GTT offsets: write-back, ring,
                                           IB pool (GTT page n = bus page n) */
    void (*log)(int level, const char *msg);    /* 0 errors, 1 info, 2 debug */
    int log_level;

    /* State. */
    uint32_t ring_wptr;     /* dwords */
    uint32_t fence_scratch; /* register the fence sequence goes to */
    uint64_t fence_seq;     /* last emitted */
    uint64_t fence_done;    /* last known signalled */
    bool cp_seen;           /* the CP ever consumed the ring */
    uint32_t hdp_cntl;      /* HOST_PATH_CNTL as read at start-up */
    MemHost host;           /* the chip's host: ram, virtual time */
} KDrv;

/*
 * Initialise the chip over k->vram and bring it up as the kernel does;
 * false with a message when the chip cannot be made.  A ring that the CP
 * does not execute is not an error (it is logged).
 */
bool kdrv_init(KDrv *k, char **err);
/* rv370_pcie_gart_set_page for [gtt_off, gtt_off + size), then a flush */
void kdrv_gart_bind(KDrv *k, uint64_t gtt_off, uint64_t size, bool bind);
/* Execute the IB at MC address ib_gpu (ndw dwords) with a fence, and wait. */
KDrvExec kdrv_submit(KDrv *k, uint64_t ib_gpu, uint32_t ndw);

#endif
