/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The renderer's holds on the board (r500_hold.h).  BAR0 is RAM; over a
 * span the renderer holds, an MMIO subregion of priority 0 (under the
 * surface windows, whose accesses reach the core's hdp.c, which releases
 * on its own) sends the first access to r500_vram_release(): the
 * renderer writes the span back and lets it go, the overlay is unmapped
 * (a memory transaction, under the big lock the access holds), and the
 * access is made on RAM, marking it dirty as the CPU's own writes are.
 * Every later access is RAM's again.
 *
 * Memory regions change under the big lock only, and under TCG only
 * while every vCPU is out of its translated code: QEMU 10's tcg_commit()
 * gives a vCPU the new memory map at once (iotlb_to_section() reads the
 * address space's current dispatch) but flushes its TLB only when it
 * next leaves its translated code, even on the vCPU that made the
 * change, and an MMIO access in between reaches another region's
 * callback (a virtio MSI-X table, seen in the desktop guest under QEMU
 * 7.2, where only the other vCPUs lagged).  So the spans are recorded, and
 * mapped where that is safe: at once without TCG (or before any vCPU
 * exists), else by work the board queues with async_safe_run_on_cpu(),
 * which runs with every vCPU stopped (as target/i386/kvm/hyperv.c maps
 * the SynIC's pages).  A trapped access reads or writes RAM itself and
 * leaves the unmapping to that work.  Until the spans are mapped the
 * chip's CP waits before the fence (R500HostOps.vram_holds_ready), so
 * the guest never learns of the work before the CPU's reads of it are
 * trapped.
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/units.h"
#include "hw/core/cpu.h"
#include "system/tcg.h"

#include "r500_hold.h"
#include "trace.h"

/*
 * Spans are whole 4 KiB pages, the smallest page of any target the board
 * builds for (common code cannot name the target's own).
 */
#define R500_HOLD_PAGE  (4 * KiB)

/* The access after the release: RAM, as if no overlay had been there. */
static uint64_t r500_hold_read(void *opaque, hwaddr addr, unsigned size)
{
    R500HoldSpan *sp = opaque;
    R500Holds *hs = sp->holds;
    uint64_t off = sp->lo + addr, val = 0;

    r500_lock(hs->lock);
    hs->traps++;
    trace_r500_hold_trap(off, size, 0);
    r500_vram_release(hs->chip, off, size);
    if (off < hs->vram_size && size <= hs->vram_size - off) {
        val = ldn_le_p(hs->vram_ptr + off, size);
    }
    r500_unlock(hs->lock);
    return val;
}

static void r500_hold_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    R500HoldSpan *sp = opaque;
    R500Holds *hs = sp->holds;
    uint64_t off = sp->lo + addr;

    r500_lock(hs->lock);
    hs->traps++;
    trace_r500_hold_trap(off, size, 1);
    r500_vram_release(hs->chip, off, size);
    if (off < hs->vram_size && size <= hs->vram_size - off) {
        stn_le_p(hs->vram_ptr + off, size, val);
        /* the CPU's write, for migration, the display and the renderer */
        memory_region_set_dirty(hs->vram, off, size);
    }
    r500_unlock(hs->lock);
}

static const MemoryRegionOps r500_hold_ops = {
    .read = r500_hold_read,
    .write = r500_hold_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

void r500_hold_realize(R500Holds *hs, Object *owner, MemoryRegion *vram,
                       uint8_t *vram_ptr, R500Chip *chip)
{
    hs->vram = vram;
    hs->vram_ptr = vram_ptr;
    hs->vram_size = memory_region_size(vram);
    hs->chip = chip;
    for (unsigned i = 0; i < R500_HOLD_SPANS; i++) {
        R500HoldSpan *sp = &hs->span[i];

        sp->holds = hs;
        /* the size is set when the span is mapped */
        memory_region_init_io(&sp->mr, owner, &r500_hold_ops, sp,
                              "r500.held", hs->vram_size);
    }
}

void r500_hold_apply(R500Holds *hs)
{
    assert(r500_hold_may_map());
    if (!hs->pending) {
        return;
    }
    memory_region_transaction_begin();
    for (unsigned i = 0; i < R500_HOLD_SPANS; i++) {
        R500HoldSpan *sp = &hs->span[i];

        if (sp->mapped && !sp->want) {
            memory_region_del_subregion(hs->vram, &sp->mr);
            sp->mapped = false;
        } else if (sp->want && !sp->mapped) {
            memory_region_set_size(&sp->mr, sp->hi - sp->lo);
            memory_region_add_subregion_overlap(hs->vram, sp->lo, &sp->mr, 0);
            sp->mapped = true;
        }
    }
    memory_region_transaction_commit();
    hs->pending = false;
}

bool r500_hold_may_map(void)
{
    /* without a vCPU yet, nothing can reach a stale TLB either */
    return bql_locked() &&
           (!tcg_enabled() || !first_cpu ||
            (current_cpu && cpu_in_exclusive_context(current_cpu)));
}

/* Map now where that is safe, else later (*later). */
static void r500_hold_changed(R500Holds *hs, bool *later)
{
    hs->pending = true;
    if (r500_hold_may_map()) {
        r500_hold_apply(hs);
    } else {
        *later = true;
    }
}

bool r500_hold_add(R500Holds *hs, uint64_t offset, uint64_t len,
                   bool *later)
{
    uint64_t lo = QEMU_ALIGN_DOWN(offset, R500_HOLD_PAGE);
    uint64_t hi = QEMU_ALIGN_UP(offset + len, R500_HOLD_PAGE);

    if (!len || offset >= hs->vram_size || len > hs->vram_size - offset) {
        return false;
    }
    hi = MIN(hi, hs->vram_size);
    for (unsigned i = 0; i < R500_HOLD_SPANS; i++) {
        R500HoldSpan *sp = &hs->span[i];

        if (!sp->want && !sp->mapped) {
            sp->lo = lo;
            sp->hi = hi;
            sp->want = true;
            trace_r500_hold(lo, hi - lo, 1);
            r500_hold_changed(hs, later);
            return true;
        }
    }
    /* every span in use (some still mapped, let go): written back now */
    return false;
}

void r500_hold_remove(R500Holds *hs, uint64_t offset, uint64_t len,
                      bool *later)
{
    uint64_t lo = QEMU_ALIGN_DOWN(offset, R500_HOLD_PAGE);
    uint64_t hi = MIN(QEMU_ALIGN_UP(offset + len, R500_HOLD_PAGE),
                      hs->vram_size);

    for (unsigned i = 0; i < R500_HOLD_SPANS; i++) {
        R500HoldSpan *sp = &hs->span[i];

        if (sp->want && sp->lo == lo && sp->hi == hi) {
            sp->want = false;
            trace_r500_hold(lo, hi - lo, 0);
            r500_hold_changed(hs, later);
            return;
        }
    }
}

bool r500_hold_ready(R500Holds *hs, bool *later)
{
    if (!hs->pending) {
        return true;
    }
    if (r500_hold_may_map()) {
        r500_hold_apply(hs);
        return true;
    }
    /*
     * Spans let go may stay mapped for now (an access there releases
     * nothing and unmaps them): only spans held but not mapped yet wait.
     */
    for (unsigned i = 0; i < R500_HOLD_SPANS; i++) {
        if (hs->span[i].want && !hs->span[i].mapped) {
            *later = true;
            return false;
        }
    }
    return true;
}
