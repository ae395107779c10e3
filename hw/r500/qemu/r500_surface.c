/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU's view of tiled VRAM: BAR0 stays RAM (fast, and what the VGA
 * core and VBE use) except over the windows of the surface registers,
 * where an MMIO subregion of higher priority sends each access to
 * r500_hdp_read/write, which translate the CPU's linear view to the tiled
 * layout (hw/r500/hdp.c).  The core decides everything, overlaps too;
 * this file only maps.  The windows are rebuilt from the register file
 * whenever it changes, at reset and after loadvm (the core calls
 * aperture_changed), so migration needs nothing of its own here.
 *
 * The windows are mapped in whole 4 KiB pages (the smallest target page
 * the board builds for), rounded outwards: the core translates every
 * byte by the registers, so a byte of a window's page outside the window
 * is linear through the window as through RAM.  An overlay that starts
 * or ends inside a page makes QEMU split that page into a subpage, and
 * under TCG a guest that reprogrammed unaligned windows while it wrote
 * through them crashed QEMU (iotlb_to_section's assertion; found by
 * r500-hostile, docs/reliability.md "A hostile guest").
 */
#include "qemu/osdep.h"
#include "qemu/units.h"

#include "r500_surface.h"
#include "trace.h"

#define R500_SURFACE_PAGE   (4 * KiB)

static uint64_t r500_surface_read(void *opaque, hwaddr addr, unsigned size)
{
    R500SurfaceWindow *w = opaque;
    uint64_t val;

    r500_lock(w->lock);
    val = r500_hdp_read(w->chip, w->lower + addr, size);
    r500_unlock(w->lock);
    return val;
}

static void r500_surface_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    R500SurfaceWindow *w = opaque;

    r500_lock(w->lock);
    r500_hdp_write(w->chip, w->lower + addr, val, size);
    r500_unlock(w->lock);
}

static const MemoryRegionOps r500_surface_ops = {
    .read = r500_surface_read,
    .write = r500_surface_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

void r500_surface_realize(R500SurfaceMap *m, Object *owner,
                          MemoryRegion *vram, R500Chip *chip)
{
    for (unsigned i = 0; i < R500_HDP_SURFACES; i++) {
        R500SurfaceWindow *w = &m->win[i];
        g_autofree char *name = g_strdup_printf("r500.surface%u", i);

        w->chip = chip;
        w->lock = m->lock;
        /* The size is set when the window is mapped. */
        memory_region_init_io(&w->mr, owner, &r500_surface_ops, w, name,
                              memory_region_size(vram));
    }
    m->vram = vram;
    m->chip = chip;
    r500_surface_update(m);
}

void r500_surface_update(R500SurfaceMap *m)
{
    uint64_t lower[R500_HDP_SURFACES], upper[R500_HDP_SURFACES];
    unsigned n;

    if (!m->chip) {
        return;                 /* the chip resets before the board maps */
    }
    n = r500_hdp_windows(m->chip, lower, upper);
    for (unsigned i = 0; i < n; i++) {
        lower[i] = QEMU_ALIGN_DOWN(lower[i], R500_SURFACE_PAGE);
        upper[i] = MIN(QEMU_ALIGN_UP(upper[i] + 1, R500_SURFACE_PAGE),
                       memory_region_size(m->vram)) - 1;
    }
    memory_region_transaction_begin();
    for (unsigned i = 0; i < R500_HDP_SURFACES; i++) {
        R500SurfaceWindow *w = &m->win[i];

        if (w->mapped) {
            memory_region_del_subregion(m->vram, &w->mr);
            w->mapped = false;
        }
        if (i < n) {
            trace_r500_surface_window(i, lower[i], upper[i]);
            w->lower = lower[i];
            memory_region_set_size(&w->mr, upper[i] - lower[i] + 1);
            memory_region_add_subregion_overlap(m->vram, lower[i], &w->mr, 1);
            w->mapped = true;
        }
    }
    memory_region_transaction_commit();
}
