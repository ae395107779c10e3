/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 3D engine's view of memory: one page cache in front of the memory
 * controller, standing for the colour (RB3D_DSTCACHE), depth (ZB_ZCACHE)
 * and texture caches of the hardware.
 *
 * Pixels, texels and depth values are reached by MC address, one element
 * (at most 16 bytes, never crossing a 4 KiB page: surfaces are 32-byte
 * aligned and elements are naturally aligned) at a time.  VRAM pages are
 * used in place; pages elsewhere (GTT, through the GART) are copied in with
 * r500_mem_read() on first use and written back with r500_mem_write() when
 * evicted or flushed.  The pipeline flushes after every draw, so memory is
 * coherent whenever the CP or the host looks at it.  A page that cannot be
 * translated reads as zero and drops writes (one guest error per draw).
 */
#ifndef HW_R500_MEM_CACHE_H
#define HW_R500_MEM_CACHE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "mc.h"

typedef struct R500Chip R500Chip;

#define R500_CACHE_SLOTS 64

typedef struct R500CacheSlot {
    uint64_t tag;               /* MC page number + 1; 0: empty */
    uint8_t *ptr;               /* the page: in VRAM or data[]; NULL: failed */
    bool staged;                /* ptr == data (system memory) */
    bool dirty;
    uint8_t data[R500_GPU_PAGE_SIZE];
} R500CacheSlot;

typedef struct R500Cache {
    R500CacheSlot slot[R500_CACHE_SLOTS];
    uint64_t dirty_lo, dirty_hi;    /* VRAM bytes written since the flush */
    uint64_t misses, writebacks, faults;
} R500Cache;

/* The slot page (MC address >> 12) lives in. */
static inline R500CacheSlot *r500_cache_slot(R500Cache *c, uint64_t page)
{
    return &c->slot[(page ^ (page >> 6)) % R500_CACHE_SLOTS];
}

/* A miss: write back the slot's page, bring in page (cache.c). */
uint8_t *r500_cache_miss(R500Chip *s, R500Cache *c, uint64_t mc, bool write);

/*
 * Pointer to len bytes at mc (len <= 16, not crossing a page), or NULL
 * when the page is not reachable.  write marks the page dirty.  The hit
 * is inline: every pixel, texel and depth value comes through here.
 */
static inline uint8_t *r500_cache_access(R500Chip *s, R500Cache *c,
                                         uint64_t mc, unsigned len,
                                         bool write)
{
    uint64_t page = mc >> 12;
    R500CacheSlot *e = r500_cache_slot(c, page);

    if ((mc & (R500_GPU_PAGE_SIZE - 1)) + len > R500_GPU_PAGE_SIZE ||
        len > 16) {
        g_assert_not_reached();
    }
    if (e->tag != page + 1) {
        return r500_cache_miss(s, c, mc, write);
    }
    if (!e->ptr) {
        return NULL;
    }
    e->dirty |= write;
    return e->ptr + (mc & (R500_GPU_PAGE_SIZE - 1));
}
/* VRAM [off, off + len) was written past the cache: report it at flush. */
static inline void r500_cache_vram_written(R500Cache *c, uint64_t off,
                                           uint64_t len)
{
    c->dirty_lo = MIN(c->dirty_lo, off);
    c->dirty_hi = MAX(c->dirty_hi, off + len);
}

/* Write back dirty pages, report VRAM writes, drop every page. */
void r500_cache_flush(R500Chip *s, R500Cache *c);

#endif
