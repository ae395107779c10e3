/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The 3D engine's page cache (cache.h). */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "cache.h"

#define PAGE_MASK  ((uint64_t)R500_GPU_PAGE_SIZE - 1)

static void slot_writeback(R500Chip *s, R500Cache *c, R500CacheSlot *e)
{
    uint64_t addr = (e->tag - 1) << R500_GPU_PAGE_SHIFT;

    if (!e->dirty || !e->ptr) {
        return;
    }
    e->dirty = false;
    if (e->staged) {
        c->writebacks++;
        if (!r500_mem_write(s, addr, e->data, R500_GPU_PAGE_SIZE)) {
            c->faults++;
        }
        return;
    }
    /* A VRAM page: only report it. */
    r500_cache_vram_written(c, e->ptr - s->vram, R500_GPU_PAGE_SIZE);
}

static void slot_fill(R500Chip *s, R500Cache *c, R500CacheSlot *e,
                      uint64_t page)
{
    uint64_t addr = page << R500_GPU_PAGE_SHIFT, off;

    c->misses++;
    e->tag = page + 1;
    e->dirty = false;
    e->staged = false;
    if (r500_mc_vram_span(s, addr, R500_GPU_PAGE_SIZE, &off)) {
        e->ptr = s->vram + off;
        return;
    }
    /*
     * The 32-bit MC space ends at 4 GiB; r500_mem_read checks the rest
     * and logs what it refuses.
     */
    if (addr < (1ull << 32) &&
        r500_mem_read(s, addr, e->data, R500_GPU_PAGE_SIZE)) {
        e->ptr = e->data;
        e->staged = true;
        return;
    }
    e->ptr = NULL;
    c->faults++;
    if (r500_once(&s->draw_logged, R500_DRAW_LOG_CACHE)) {
        r500_guest_error(s, "3D: surface page at MC 0x%" G_GINT64_MODIFIER
                         "x is not reachable: reads return 0, writes are "
                         "dropped (reported once per draw)", addr);
    }
}

uint8_t *r500_cache_miss(R500Chip *s, R500Cache *c, uint64_t mc, bool write)
{
    uint64_t page = mc >> R500_GPU_PAGE_SHIFT;
    R500CacheSlot *e = r500_cache_slot(c, page);

    slot_writeback(s, c, e);
    slot_fill(s, c, e, page);
    if (!e->ptr) {
        return NULL;
    }
    e->dirty |= write;
    return e->ptr + (mc & PAGE_MASK);
}

void r500_cache_flush(R500Chip *s, R500Cache *c)
{
    for (unsigned i = 0; i < R500_CACHE_SLOTS; i++) {
        slot_writeback(s, c, &c->slot[i]);
        c->slot[i].tag = 0;
        c->slot[i].ptr = NULL;
    }
    if (c->dirty_hi > c->dirty_lo) {
        r500_vram_dirty(s, c->dirty_lo, c->dirty_hi - c->dirty_lo);
    }
    c->dirty_lo = UINT64_MAX;
    c->dirty_hi = 0;
}
