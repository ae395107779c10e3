/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory controller: MC address translation for every engine, and the
 * RV370-style PCIE GART (reference radeon-kms-r500.md 4; Linux r300.c
 * rv370_pcie_gart_*, radeon_reg.h).
 *
 * The location registers live in the MC indirect space (per-model maps,
 * mc_regs.def, reached with r500_mc_reg()), the GART registers in the
 * PCIE indirect space (pcie_regs.def).  Translation order:
 *   1. MC_FB_LOCATION window  -> VRAM (the window may be larger than VRAM:
 *      the part past the end of VRAM is an error);
 *   2. GART range (enabled)   -> one 32-bit little-endian PTE per 4 KiB
 *      page, read from VRAM when PCIE_TX_GART_BASE falls in the FB window
 *      and from system memory (a bus address) otherwise;
 *   3. MC_AGP_LOCATION window -> not modelled (PCIe boards; radeon
 *      disables it with 0xFFFFFFFF);
 *   4. anything else          -> PCIE_TX_GART_CNTL's unmapped-access mode:
 *      pass-through (0) sends the MC address to the bus unchanged; the
 *      clamp (1) and discard (2, 3) modes fail the access.
 * A failed access is a guest error: the engine gets false and abandons
 * what it was doing.  Discarded reads are not turned into data.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

#define GPU_PAGE_MASK               ((uint64_t)R500_GPU_PAGE_SIZE - 1)

/* One contiguous piece of a translated access. */
typedef struct McPiece {
    bool vram;          /* addr is a VRAM offset, else a bus address */
    uint64_t addr;
    uint64_t len;
} McPiece;

/* ---- The VRAM watcher (mc.h) ---- */

void r500_mem_sync(R500Chip *s, R500Sync why)
{
    if (s->mem_watch && s->mem_watch->sync) {
        s->mem_watch->sync(s, why);
    }
}

bool r500_mem_fill(R500Chip *s, const R500Surf *sf, uint32_t w, uint32_t h,
                   uint32_t v)
{
    return s->mem_watch && s->mem_watch->fill &&
           s->mem_watch->fill(s, sf, w, h, v);
}

void r500_vram_release(R500Chip *s, uint64_t offset, uint64_t len)
{
    if (len && s->mem_watch && s->mem_watch->release) {
        s->mem_watch->release(s, offset, len);
    }
}

void r500_vram_dirty(R500Chip *s, uint64_t offset, uint64_t len)
{
    if (len && s->mem_watch && s->mem_watch->written) {
        s->mem_watch->written(s, offset, len);
    }
    if (len && s->ops->vram_dirty) {
        s->ops->vram_dirty(s->host, offset, len);
    }
}

static bool fb_window(R500Chip *s, uint64_t *start, uint64_t *end)
{
    uint32_t v = *r500_mc_reg(s, MC_MC_FB_LOCATION);

    /* MC_FB_START in 15:0, MC_FB_TOP in 31:16, both in 64 KiB units. */
    *start = (uint64_t)(v & 0xFFFF) << 16;
    *end = ((uint64_t)(v >> 16) << 16) | 0xFFFF;
    return *end >= *start;
}

uint64_t r500_mc_fb_base(R500Chip *s)
{
    uint64_t start, end;

    fb_window(s, &start, &end);
    return start;
}

bool r500_mc_vram_span(R500Chip *s, uint64_t mc_addr, uint64_t len,
                       uint64_t *offset)
{
    uint64_t start, end, off;

    if (!fb_window(s, &start, &end) || mc_addr < start || mc_addr > end) {
        return false;
    }
    off = mc_addr - start;
    /* The span must stay in the window and in VRAM: 64-bit, no overflow. */
    if (!r500_span_in(off, len, s->vram_size) ||
        (len && len - 1 > end - mc_addr)) {
        return false;
    }
    *offset = off;
    return true;
}

static bool gart_range(R500Chip *s, uint64_t *start, uint64_t *end)
{
    const uint32_t *p = s->pcie;

    if (!R500_FGET(p[PCIE_PCIE_TX_GART_CNTL], PCIE_TX_GART_CNTL, EN)) {
        return false;
    }
    /* END is the address of the last page (rv370_pcie_gart_enable). */
    *start = (((uint64_t)p[PCIE_PCIE_TX_GART_START_HI] << 32) |
              p[PCIE_PCIE_TX_GART_START_LO]) & ~GPU_PAGE_MASK;
    *end = (((uint64_t)p[PCIE_PCIE_TX_GART_END_HI] << 32) |
            p[PCIE_PCIE_TX_GART_END_LO]) | GPU_PAGE_MASK;
    return *end >= *start;
}

void r500_gart_flush(R500Chip *s)
{
    memset(s->mc_state.tlb, 0, sizeof(s->mc_state.tlb));
}

/* The PTE of GPU page number index (relative to the GART start). */
static const char *gart_pte(R500Chip *s, uint64_t page, uint64_t index,
                            uint32_t *pte)
{
    R500GartTlbEntry *e = &s->mc_state.tlb[page % R500_GART_TLB_ENTRIES];
    uint64_t ea = (uint64_t)s->pcie[PCIE_PCIE_TX_GART_BASE] + index * 4;
    uint64_t off;
    uint32_t v;

    if (e->tag == page + 1) {
        *pte = e->pte;
        return NULL;
    }
    s->mc_state.tlb_misses++;
    /* Table in VRAM (the KMS driver's choice) or in system memory. */
    if (r500_mc_vram_span(s, ea, 4, &off)) {
        memcpy(&v, s->vram + off, 4);
    } else if (!s->ops->dma_read || !s->ops->dma_read(s->host, ea, &v, 4)) {
        return "its GART table entry is unreadable";
    }
    *pte = GUINT32_FROM_LE(v);
    e->tag = page + 1;
    e->pte = *pte;
    return NULL;
}

/* Translate the start of [mc, mc + len); NULL or why it failed. */
static const char *mc_translate(R500Chip *s, uint64_t mc, uint64_t len,
                                bool write, McPiece *p)
{
    uint32_t cntl = s->pcie[PCIE_PCIE_TX_GART_CNTL];
    uint32_t agp = *r500_mc_reg(s, MC_MC_AGP_LOCATION);
    uint64_t start, end;

    if (fb_window(s, &start, &end) && mc >= start && mc <= end) {
        uint64_t off = mc - start;

        if (off >= s->vram_size) {
            return "it is in the FB window but past the end of VRAM";
        }
        p->vram = true;
        p->addr = off;
        p->len = MIN(len, MIN(end - mc + 1, s->vram_size - off));
        return NULL;
    }
    if (gart_range(s, &start, &end) && mc >= start && mc <= end) {
        uint32_t pte;
        const char *err = gart_pte(s, mc >> R500_GPU_PAGE_SHIFT,
                                   (mc - start) >> R500_GPU_PAGE_SHIFT, &pte);

        if (err) {
            return err;
        }
        if (R500_FGET(cntl, PCIE_TX_GART_CNTL, CHK_RW_VALID_EN) &&
            !(pte & (write ? R500_GART_PTE_WRITEABLE
                           : R500_GART_PTE_READABLE))) {
            return write ? "its GART page is not writeable"
                         : "its GART page is not readable";
        }
        p->vram = false;
        p->addr = ((uint64_t)(pte >> 24) << 32) |
                  ((uint64_t)(pte & 0x00FFFFF0u) << 8) | (mc & GPU_PAGE_MASK);
        p->len = MIN(len, R500_GPU_PAGE_SIZE - (mc & GPU_PAGE_MASK));
        return NULL;
    }
    if (agp != 0xFFFFFFFFu) {
        start = (uint64_t)(agp & 0xFFFF) << 16;
        end = ((uint64_t)(agp >> 16) << 16) | 0xFFFF;
        if (mc >= start && mc <= end) {
            r500_unimp(s, "MC: the AGP aperture (MC_AGP_LOCATION 0x%08x) is "
                       "not modelled", agp);
            return "it is in the AGP aperture";
        }
    }
    if (R500_FGET(cntl, PCIE_TX_GART_CNTL, UNMAPPED_ACCESS) ==
        R500_FVAL(PCIE_TX_GART_CNTL, UNMAPPED_ACCESS, PASS_THRU)) {
        /* One page at a time, so a later window boundary is honoured. */
        p->vram = false;
        p->addr = mc;
        p->len = MIN(len, R500_GPU_PAGE_SIZE - (mc & GPU_PAGE_MASK));
        return NULL;
    }
    return "it is outside VRAM and the GART (unmapped accesses discarded)";
}

static bool mem_access(R500Chip *s, uint64_t mc, void *buf, uint64_t len,
                       bool write)
{
    uint8_t *b = buf;

    if (len > UINT64_MAX - mc) {
        r500_guest_error(s, "MC: %s of 0x%" G_GINT64_MODIFIER "x bytes at 0x%"
                         G_GINT64_MODIFIER "x wraps the address space",
                         write ? "write" : "read", len, mc);
        s->mc_state.faults++;
        return false;
    }
    while (len) {
        McPiece p;
        const char *err = mc_translate(s, mc, len, write, &p);
        bool ok;

        if (!err && p.vram) {
            /* what the renderer holds there goes back first */
            r500_vram_release(s, p.addr, p.len);
            if (write) {
                memcpy(s->vram + p.addr, b, p.len);
                r500_vram_dirty(s, p.addr, p.len);
            } else {
                memcpy(b, s->vram + p.addr, p.len);
            }
        } else if (!err) {
            ok = write ? s->ops->dma_write &&
                         s->ops->dma_write(s->host, p.addr, b, p.len)
                       : s->ops->dma_read &&
                         s->ops->dma_read(s->host, p.addr, b, p.len);
            if (!ok) {
                err = "the bus access failed";
            }
        }
        if (err) {
            s->mc_state.faults++;
            r500_guest_error(s, "MC: %s at MC address 0x%" G_GINT64_MODIFIER
                             "x failed: %s", write ? "write" : "read", mc, err);
            return false;
        }
        mc += p.len;
        b += p.len;
        len -= p.len;
    }
    return true;
}

bool r500_mem_read(R500Chip *s, uint64_t mc_addr, void *buf, uint64_t len)
{
    return mem_access(s, mc_addr, buf, len, false);
}

bool r500_mem_write(R500Chip *s, uint64_t mc_addr, const void *buf,
                    uint64_t len)
{
    return mem_access(s, mc_addr, (void *)buf, len, true);
}

/*
 * Any change of the GART registers, and the INVALIDATE_TLB pulse the
 * driver writes after each bind (rv370_pcie_gart_tlb_flush), drops the TLB.
 */
static void mc_ind_write(R500Chip *s, R500Space space, uint32_t index,
                         uint32_t old)
{
    if (space == R500_SPACE_PCIE && index >= PCIE_PCIE_TX_GART_CNTL &&
        index <= PCIE_PCIE_TX_GART_END_HI) {
        r500_gart_flush(s);
    }
}

static void mc_reset(R500Chip *s)
{
    r500_gart_flush(s);
}

const R500Block r500_mc_block = {
    .name = "mc",
    .reset = mc_reset,
    .post_load = mc_reset,
    .ind_write = mc_ind_write,
};
