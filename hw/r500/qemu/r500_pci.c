/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU board for the R500 chip core: a PCI Express VGA-class endpoint.
 *
 * Thin by design (DESIGN.md section 1): PCI identity, BARs, the legacy VGA
 * core, the console, DMA, interrupts, vmstate and trace events; every
 * register access goes to the chip core in hw/r500.
 *
 * BAR layout (docs/architecture.md):
 *   BAR0  VRAM, 32-bit prefetchable, = vram-size   (radeon: resource 0)
 *   BAR1  I/O, 256 bytes, aliasing registers 0x00-0xFF
 *   BAR2  MMIO registers, 64 KiB, 32-bit           (radeon: resource 2)
 *   ROM   expansion ROM from the "romfile" property
 * The I/O BAR sits at BAR1 because the SeaVGABIOS ATI extension takes its
 * I/O base from BAR1 (reference atombios-rom.md 6.1); Linux radeon accepts
 * any position for it.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/rcu.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/msi.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/display/vga_int.h"
#include "migration/vmstate.h"
#include "system/qtest.h"
#include "system/runstate.h"
#include "system/tcg.h"
#include "hw/core/cpu.h"
#include "ui/console.h"
#include "trace.h"

#include "r500_compat.h"
#include "../r500.h"
#include "r500_migrate.h"
#include "r500_display.h"
#include "r500_surface.h"
#include "r500_hold.h"
#include "r500_lock.h"

#define TYPE_R500 "r500"
OBJECT_DECLARE_SIMPLE_TYPE(R500PCIState, R500)

#define R500_PCI_VENDOR_ATI     0x1002
/* Red Hat / QEMU subsystem: not in radeon_atom_apply_quirks (reference 1.2). */
#define R500_SUBSYS_VENDOR      0x1af4
#define R500_SUBSYS_ID          0x1100

/* Capability offsets as on a real RV516 (lspci): PM, PCIe, MSI. */
#define R500_CAP_PM             0x50
#define R500_CAP_EXP            0x58
#define R500_CAP_MSI            0x80

struct R500PCIState {
    PCIDevice parent_obj;

    /* properties */
    char *model_name;
    uint64_t vram_size;
    uint32_t render_threads;  /* property "render-threads" */
    char *renderer;           /* property "renderer" */
    OnOffAuto card_thread;    /* property "card-thread" */

    VGACommonState vga;
    R500Display display;
    R500SurfaceMap surfaces;    /* tiled windows of BAR0 (r500_surface.c) */
    R500Holds holds;            /* the renderer's held spans (r500_hold.c) */
    MemoryRegion mmio;
    MemoryRegion io;
    QEMUBH *bh;
    QEMUTimer timer;
    VMChangeStateEntry *vmstate_change;
    bool run_deferred;          /* work arrived while the VM was stopped */

    /*
     * The card's own thread (docs/architecture.md): with it, r500_run()
     * runs there instead of in the bottom half.  Fields marked (lock) are
     * read and written under lock.
     */
    R500Lock lock;              /* the chip (r500_lock.h) */
    bool threaded;
    QemuThread thread;
    QemuCond wake;              /* work, a start or the end (lock) */
    bool work;                  /* r500_run() is due (lock) */
    bool vm_running;            /* the card may run (lock) */
    bool quit;                  /* the thread ends (lock) */
    /*
     * What the card's thread cannot do without the big lock, done by a
     * bottom half: the interrupt line and the aperture's windows.
     */
    QEMUBH *bql_bh;
    int irq_want;               /* atomic: the line's level */
    int irq_edges;              /* atomic: MSI messages to send */
    int aperture_stale;         /* atomic: remap the tiled windows */
    int holds_stale;            /* atomic: map the held spans, kick */
    uint64_t map_deferred;      /* changes made so, later (big lock) */
    R500Chip chip;
};

/* ---- Host interface ---- */

/*
 * Bus-master DMA from the card's thread, which does not hold the big
 * lock: guest RAM only.  pci_dma_rw() would reach an MMIO target under
 * the big lock, which a vCPU may hold while it waits for the chip's lock
 * (a deadlock a guest could aim for); a GPU aiming its DMA at another
 * device's registers is a guest error here (the CP reports the failed
 * access).  The translation is the device's bus-master address space,
 * so bus mastering off and IOMMUs hold as for pci_dma_rw().  A write
 * marks the pages dirty (migration, display) but does not invalidate
 * translated guest code in them: a guest running code its GPU just
 * wrote is not supported.
 */
static bool r500_dma_ram(R500PCIState *s, uint64_t addr, uint8_t *buf,
                         uint64_t len, bool is_write)
{
    AddressSpace *as = pci_get_address_space(PCI_DEVICE(s));

    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, l = len;
        MemoryRegion *mr = address_space_translate(as, addr, &xlat, &l,
                                                   is_write,
                                                   MEMTXATTRS_UNSPECIFIED);
        uint8_t *ram;

        if (!l || !memory_region_is_ram(mr) ||
            memory_region_is_ram_device(mr) || (is_write && mr->readonly)) {
            return false;
        }
        ram = (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
        if (is_write) {
            memcpy(ram, buf, l);
            memory_region_set_dirty(mr, xlat, l);
        } else {
            memcpy(buf, ram, l);
        }
        addr += l;
        buf += l;
        len -= l;
    }
    return true;
}

static bool r500_host_dma_read(void *opaque, uint64_t addr, void *buf,
                               uint64_t len)
{
    R500PCIState *s = opaque;

    if (!bql_locked()) {
        return r500_dma_ram(s, addr, buf, len, false);
    }
    return pci_dma_read(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK;
}

static bool r500_host_dma_write(void *opaque, uint64_t addr, const void *buf,
                                uint64_t len)
{
    R500PCIState *s = opaque;

    if (!bql_locked()) {
        return r500_dma_ram(s, addr, (uint8_t *)buf, len, true);
    }
    return pci_dma_write(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK;
}

/* The line as the core last set it; under the big lock. */
static void r500_irq_apply(R500PCIState *s)
{
    PCIDevice *d = PCI_DEVICE(s);

    if (msi_enabled(d)) {
        /* MSI is an edge: one message per rising level. */
        if (qatomic_xchg(&s->irq_edges, 0)) {
            msi_notify(d, 0);
        }
        return;
    }
    qatomic_set(&s->irq_edges, 0);
    pci_set_irq(d, qatomic_read(&s->irq_want));
}

/*
 * The interrupt controllers want the big lock: from the card's thread the
 * change waits for the bottom half, a few microseconds later, as a real
 * interrupt reaches the CPU after the write that raised it.  From a vCPU
 * (an acknowledgement) it is applied at once, so the guest's handler
 * never sees a line it has just cleared.
 */
static void r500_host_set_irq(void *opaque, bool level)
{
    R500PCIState *s = opaque;

    trace_r500_irq(level);
    if (level) {
        qatomic_inc(&s->irq_edges);
    }
    qatomic_set(&s->irq_want, level);
    if (bql_locked()) {
        r500_irq_apply(s);
    } else {
        qemu_bh_schedule(s->bql_bh);
    }
}

/* The card's thread asks for r500_run(); lock held. */
static void r500_work_locked(R500PCIState *s)
{
    s->work = true;
    qemu_cond_signal(&s->wake);
}

static int64_t r500_host_clock_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void r500_host_schedule(void *opaque, int64_t deadline_ns)
{
    R500PCIState *s = opaque;

    if (deadline_ns == 0) {
        if (s->threaded) {
            r500_work_locked(s);        /* the core runs under the lock */
        } else {
            qemu_bh_schedule(s->bh);
        }
    } else {
        timer_mod(&s->timer, deadline_ns);
    }
}

static void r500_host_vram_dirty(void *opaque, uint64_t offset, uint64_t len)
{
    R500PCIState *s = opaque;

    if (!s->display.engine) {
        /* before the display exists: no one draws it yet */
        memory_region_set_dirty(&s->vga.vram, offset, len);
        return;
    }
    r500_display_engine_wrote(&s->display, offset, len);
}

static bool r500_host_vram_cpu_written(void *opaque, uint64_t offset,
                                       uint64_t len)
{
    R500PCIState *s = opaque;

    return !s->display.engine ||
           r500_display_cpu_written(&s->display, offset, len);
}

/*
 * The memory-map changes left for later (the aperture's, the holds'),
 * made where the map may change (r500_hold_may_map: the big lock, and
 * under TCG every vCPU stopped); the CP may wait for the holds
 * (r500_host_vram_holds_ready), so it is kicked after them.
 */
static void r500_map_apply(R500PCIState *s)
{
    if (!r500_hold_may_map()) {
        return;                         /* queued for the vCPUs already */
    }
    if (qatomic_xchg(&s->aperture_stale, 0)) {
        r500_lock(&s->lock);
        r500_surface_update(&s->surfaces);
        r500_unlock(&s->lock);
        s->map_deferred++;
    }
    if (qatomic_xchg(&s->holds_stale, 0)) {
        r500_lock(&s->lock);
        r500_hold_apply(&s->holds);
        r500_kick(&s->chip);
        r500_unlock(&s->lock);
        s->map_deferred++;
    }
}

/* Safe work runs outside the big lock, every vCPU stopped: take it. */
static void r500_map_work(CPUState *cpu, run_on_cpu_data data)
{
    bql_lock();
    r500_map_apply(data.host_ptr);
    bql_unlock();
}

/*
 * Have r500_map_apply() run: under TCG with every vCPU stopped, else in
 * the bottom half.
 */
static void r500_map_later(R500PCIState *s)
{
    if (tcg_enabled() && first_cpu) {
        async_safe_run_on_cpu(first_cpu, r500_map_work,
                              RUN_ON_CPU_HOST_PTR(s));
    } else {
        qemu_bh_schedule(s->bql_bh);
    }
}

static void r500_holds_later(R500PCIState *s, bool later)
{
    if (later && !qatomic_xchg(&s->holds_stale, 1)) {
        r500_map_later(s);
    }
}

static bool r500_host_vram_hold(void *opaque, uint64_t offset, uint64_t len)
{
    R500PCIState *s = opaque;
    bool later = false, ok = r500_hold_add(&s->holds, offset, len, &later);

    r500_holds_later(s, later);
    return ok;
}

static void r500_host_vram_unhold(void *opaque, uint64_t offset,
                                  uint64_t len)
{
    R500PCIState *s = opaque;
    bool later = false;

    r500_hold_remove(&s->holds, offset, len, &later);
    r500_holds_later(s, later);
}

static bool r500_host_vram_holds_ready(void *opaque)
{
    R500PCIState *s = opaque;
    bool later = false, ready = r500_hold_ready(&s->holds, &later);

    r500_holds_later(s, later);
    return ready;
}

static void r500_host_aperture_changed(void *opaque)
{
    R500PCIState *s = opaque;

    if (r500_hold_may_map()) {
        r500_surface_update(&s->surfaces);
    } else if (!qatomic_xchg(&s->aperture_stale, 1)) {
        r500_map_later(s);
    }
}

/* What the card's thread left for the big lock (see above). */
static void r500_bql_cb(void *opaque)
{
    R500PCIState *s = opaque;

    r500_irq_apply(s);
    /* without TCG; under it a BH for an interrupt leaves the map alone */
    r500_map_apply(s);
}

static void r500_host_log(void *opaque, R500LogKind kind, const char *msg)
{
    if (kind == R500_LOG_NOTE) {
        /* detail a setting asked for (gl-verbose) */
        info_report("r500: %s", msg);
        return;
    }
    qemu_log_mask(kind == R500_LOG_GUEST_ERROR ? LOG_GUEST_ERROR : LOG_UNIMP,
                  "r500: %s\n", msg);
}

/*
 * The core's settings: the renderer from the property; the host-GL
 * renderer's debugging switches (docs/3d.md) from the environment, as
 * the host tools take them.
 */
static const char *r500_host_setting(void *opaque, const char *name)
{
    R500PCIState *s = opaque;

    if (!strcmp(name, "renderer")) {
        return s->renderer;
    } else if (!strcmp(name, "gl-vertex")) {
        return g_getenv("R500_GL_VERTEX");
    } else if (!strcmp(name, "gl-verbose")) {
        return g_getenv("R500_GL_VERBOSE");
    } else if (!strcmp(name, "gl-device")) {
        return g_getenv("R500_GL_DEVICE");
    }
    return NULL;
}

/* The core's trace points (r500_trace.def) as QEMU trace events. */
static void r500_host_trace(void *opaque, R500TraceEvent ev, uint64_t a,
                            uint64_t b, uint64_t c, uint64_t d)
{
    switch (ev) {
    case R500_TRACE_CP_PACKET:
        /* tools/cs decodes the header; the trace keeps it whole */
        trace_r500_cp_packet(d ? "IB" : "ring", c, a, b);
        break;
    case R500_TRACE_CP_IB:
        trace_r500_cp_ib(a, b);
        break;
    case R500_TRACE_DRAW:
        trace_r500_draw(a, b, c, d);
        break;
    case R500_TRACE_CLEAR:
        trace_r500_clear(a, b, c, d);
        break;
    case R500_TRACE_SCRATCH:
        trace_r500_scratch(a, b, c);
        break;
    case R500_TRACE_IRQ:
        trace_r500_irq_raise(a, b, c);
        break;
    default:
        break;
    }
}

static const R500HostOps r500_host_ops = {
    .dma_read = r500_host_dma_read,
    .dma_write = r500_host_dma_write,
    .set_irq = r500_host_set_irq,
    .clock_ns = r500_host_clock_ns,
    .schedule = r500_host_schedule,
    .vram_dirty = r500_host_vram_dirty,
    .vram_cpu_written = r500_host_vram_cpu_written,
    .aperture_changed = r500_host_aperture_changed,
    .vram_hold = r500_host_vram_hold,
    .vram_holds_ready = r500_host_vram_holds_ready,
    .vram_unhold = r500_host_vram_unhold,
    .log = r500_host_log,
    .setting = r500_host_setting,
    .trace = r500_host_trace,
};

static void r500_run_cb(void *opaque)
{
    R500PCIState *s = opaque;

    /*
     * Bottom halves run while the VM is stopped (stop, savevm, the last
     * pass of a migration); the card must not: what is saved is the state
     * at the stop, and a stopped guest sees no progress.  Resume with it.
     */
    if (!runstate_is_running()) {
        s->run_deferred = true;
        return;
    }
    r500_lock(&s->lock);
    r500_run(&s->chip);
    r500_unlock(&s->lock);
}

/*
 * The card's own thread: slice after slice while there is work, handing
 * the chip to waiting vCPUs and the display between slices; asleep while
 * the VM is stopped (the state at a stop is the state saved).
 */
static void *r500_card_thread(void *opaque)
{
    R500PCIState *s = opaque;

    rcu_register_thread();
    qemu_mutex_lock(&s->lock.mutex);
    while (!s->quit) {
        if (!s->work || !s->vm_running) {
            qemu_cond_wait(&s->wake, &s->lock.mutex);
            continue;
        }
        s->work = false;
        r500_run(&s->chip);
        r500_lock_yield(&s->lock);
    }
    qemu_mutex_unlock(&s->lock.mutex);
    rcu_unregister_thread();
    return NULL;
}

static void r500_vm_change_state(void *opaque, bool running, RunState state)
{
    R500PCIState *s = opaque;

    if (!running) {
        /*
         * Migration's last pass over RAM and a snapshot come after the
         * stop: what the renderer keeps on the host (past a fence, held)
         * goes to VRAM now, its pages dirty (pre_save is too late for
         * RAM).  A stop waits for the slice under way.
         */
        r500_lock(&s->lock);
        s->vm_running = false;
        r500_chip_stop(&s->chip);
        r500_unlock(&s->lock);
        return;
    }
    if (s->threaded) {
        r500_lock(&s->lock);
        s->vm_running = true;
        qemu_cond_signal(&s->wake);
        r500_unlock(&s->lock);
        return;
    }
    if (running && s->run_deferred) {
        s->run_deferred = false;
        qemu_bh_schedule(s->bh);
    }
}

/*
 * Deadlines only start the chip's work: on the card's thread, or in the
 * bottom half, under the device's re-entrancy guard, so DMA the CP aims
 * at the card's own BARs fails (MEMTX_ACCESS_ERROR) instead of
 * re-entering the chip (on the thread, r500_dma_ram() refuses anything
 * but RAM).
 */
static void r500_timer_cb(void *opaque)
{
    R500PCIState *s = opaque;

    if (s->threaded) {
        /*
         * The vblank interrupts follow the clock: raise them here, under
         * the big lock, rather than after a wake-up of the card's thread
         * (which may be descheduled on a loaded host); the thread then
         * runs everything and sets the next deadline.
         */
        r500_lock(&s->lock);
        if (runstate_is_running()) {
            r500_run_clocked(&s->chip);
        }
        r500_work_locked(s);
        r500_unlock(&s->lock);
    } else {
        qemu_bh_schedule(s->bh);
    }
}

/* ---- Register BARs ---- */

static uint64_t r500_mmio_read_cb(void *opaque, hwaddr addr, unsigned size)
{
    R500PCIState *s = opaque;
    uint64_t val;

    r500_lock(&s->lock);
    val = r500_mmio_read(&s->chip, addr, size);
    r500_unlock(&s->lock);

    if (trace_event_get_state_backends(TRACE_R500_MMIO_READ)) {
        char name[48];
        trace_r500_mmio_read(r500_reg_name(addr, name, sizeof(name)), addr,
                             size, val);
    }
    return val;
}

static void r500_mmio_write_cb(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    R500PCIState *s = opaque;

    if (trace_event_get_state_backends(TRACE_R500_MMIO_WRITE)) {
        char name[48];
        trace_r500_mmio_write(r500_reg_name(addr, name, sizeof(name)), addr,
                              size, val);
    }
    /* any access that covers the register, whatever its size */
    if (addr < R_CP_RB_WPTR + 4 && addr + size > R_CP_RB_WPTR) {
        /*
         * The CP's kick: what the CPU wrote before it is known before
         * the CP can draw with it (R500HostOps.vram_cpu_written).  Not
         * under the chip's lock, as every snapshot of the dirty memory.
         */
        r500_display_collect_cpu(&s->display);
    }
    r500_lock(&s->lock);
    r500_mmio_write(&s->chip, addr, val, size);
    r500_unlock(&s->lock);
}

/*
 * The core splits accesses into dword lanes itself, so every size and
 * alignment a guest can produce reaches it unchanged.
 */
static const MemoryRegionOps r500_mmio_ops = {
    .read = r500_mmio_read_cb,
    .write = r500_mmio_write_cb,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

/* ---- Device ---- */

static bool r500_init_caps(R500PCIState *s, Error **errp)
{
    PCIDevice *d = PCI_DEVICE(s);
    int ret;

    ret = pci_add_capability(d, PCI_CAP_ID_PM, R500_CAP_PM, PCI_PM_SIZEOF,
                             errp);
    if (ret < 0) {
        return false;
    }
    /* PM 1.1 (version 2); D0/D3hot via PMCSR. Nothing in radeon needs more. */
    pci_set_word(d->config + R500_CAP_PM + PCI_PM_PMC, 0x0002);
    pci_set_word(d->wmask + R500_CAP_PM + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK);

    /* radeon only enables its GART on a PCIe device (reference 1.2). */
    ret = pcie_endpoint_cap_v1_init(d, R500_CAP_EXP);
    if (ret < 0) {
        error_setg(errp, "r500: cannot add the PCI Express capability");
        return false;
    }

    if (s->chip.info->msi) {
        ret = msi_init(d, R500_CAP_MSI, 1, true, false, errp);
        /* -ENOTSUP: the machine has no MSI; the card falls back to INTx. */
        if (ret < 0 && ret != -ENOTSUP) {
            return false;
        }
    }
    return true;
}

static void r500_realize(PCIDevice *d, Error **errp)
{
    R500PCIState *s = R500(d);
    VGACommonState *vga = &s->vga;
    int model = r500_model_from_name(s->model_name ? s->model_name : "rv515");
    char *err = NULL;

    if (model < 0) {
        error_setg(errp, "r500: unknown model '%s' (rv515, rv530, r520, r580)",
                   s->model_name);
        return;
    }
    if (s->vram_size < 16 * MiB || s->vram_size > 512 * MiB ||
        !is_power_of_2(s->vram_size)) {
        error_setg(errp, "r500: vram-size must be a power of two from 16M "
                   "to 512M");
        return;
    }

    /* The VGA core's memory is the card's VRAM, so BAR0 and 0xA0000 agree. */
    vga->vram_size_mb = s->vram_size / MiB;
    if (!vga_common_init(vga, OBJECT(s), errp)) {
        return;
    }
    vga_init(vga, OBJECT(s), pci_address_space(d), pci_address_space_io(d),
             true);

    /*
     * The card's own thread, unless asked not to; qtest drives virtual
     * time itself and expects the work of a clock step done when the step
     * returns, so there the bottom half stays the default.
     */
    s->threaded = s->card_thread == ON_OFF_AUTO_ON ||
                  (s->card_thread == ON_OFF_AUTO_AUTO && !qtest_enabled());
    r500_lock_init(&s->lock);
    qemu_cond_init(&s->wake);
    s->bql_bh = qemu_bh_new(r500_bql_cb, s);
    s->display.lock = &s->lock;
    s->surfaces.lock = &s->lock;
    s->holds.lock = &s->lock;
    /* The chip may schedule work as soon as it exists. */
    s->bh = qemu_bh_new_guarded(r500_run_cb, s,
                                &DEVICE(s)->mem_reentrancy_guard);
    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, r500_timer_cb, s);
    d->config[PCI_INTERRUPT_PIN] = 1;
    if (!r500_chip_init(&s->chip, model, vga->vram_ptr, vga->vram_size,
                        &r500_host_ops, s, &err)) {
        error_setg(errp, "r500: %s", err);
        g_free(err);
        return;
    }
    r500_soft_set_threads(&s->chip, s->render_threads ? s->render_threads
                          : MIN(g_get_num_processors(), 4));
    {
        const char *why;

        /* auto by default: gl where EGL works (docs/3d.md), else soft */
        if (!r500_pipe_set_renderer(&s->chip, s->renderer ? s->renderer
                                    : "auto", &why)) {
            error_setg(errp, "r500: renderer=%s: %s", s->renderer, why);
            r500_chip_finalize(&s->chip);
            return;
        }
    }
    if (!r500_display_realize(&s->display, DEVICE(s), vga, &s->chip, errp)) {
        return;
    }
    r500_surface_realize(&s->surfaces, OBJECT(s), &vga->vram, &s->chip);
    r500_hold_realize(&s->holds, OBJECT(s), &vga->vram, vga->vram_ptr,
                      &s->chip);

    pci_set_word(d->config + PCI_DEVICE_ID, s->chip.info->device_id);
    pci_set_word(d->config + PCI_SUBSYSTEM_VENDOR_ID, R500_SUBSYS_VENDOR);
    pci_set_word(d->config + PCI_SUBSYSTEM_ID, R500_SUBSYS_ID);

    if (!r500_init_caps(s, errp)) {
        return;
    }

    memory_region_init_io(&s->mmio, OBJECT(s), &r500_mmio_ops, s,
                          "r500.mmio", R500_MMIO_SIZE);
    memory_region_init_alias(&s->io, OBJECT(s), "r500.io", &s->mmio, 0,
                             0x100);
    pci_register_bar(d, 0, PCI_BASE_ADDRESS_MEM_PREFETCH, &vga->vram);
    pci_register_bar(d, 1, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    pci_register_bar(d, 2, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->mmio);

    /* Default ROM: the one built for this model (roms/). */
    if (!d->romfile) {
        d->romfile = g_strdup_printf("r500-%s.rom", s->chip.info->name);
    }
    s->vmstate_change = qemu_add_vm_change_state_handler(r500_vm_change_state,
                                                         s);
    if (s->threaded) {
        s->vm_running = runstate_is_running();
        qemu_thread_create(&s->thread, "r500", r500_card_thread, s,
                           QEMU_THREAD_JOINABLE);
    }
}

static void r500_exit(PCIDevice *d)
{
    R500PCIState *s = R500(d);

    if (s->threaded) {
        r500_lock(&s->lock);
        s->quit = true;
        qemu_cond_signal(&s->wake);
        r500_unlock(&s->lock);
        qemu_thread_join(&s->thread);
    }
    timer_del(&s->timer);
    qemu_bh_delete(s->bh);
    qemu_bh_delete(s->bql_bh);
    qemu_del_vm_change_state_handler(s->vmstate_change);
    r500_chip_finalize(&s->chip);
    r500_display_exit(&s->display);
    msi_uninit(d);
    qemu_cond_destroy(&s->wake);
    r500_lock_destroy(&s->lock);
}

static void r500_reset(DeviceState *dev)
{
    R500PCIState *s = R500(dev);

    timer_del(&s->timer);
    vga_common_reset(&s->vga);
    r500_lock(&s->lock);
    r500_chip_reset(&s->chip);
    r500_display_reset(&s->display);
    r500_unlock(&s->lock);
}

static int r500_pre_save(void *opaque)
{
    R500PCIState *s = opaque;

    r500_lock(&s->lock);
    r500_chip_pre_save(&s->chip);
    r500_unlock(&s->lock);
    return 0;
}

/* After the subsections: every block re-validates what it was given. */
static int r500_post_load(void *opaque, int version_id)
{
    R500PCIState *s = opaque;

    r500_lock(&s->lock);
    r500_chip_post_load(&s->chip);
    r500_display_post_load(&s->display);
    r500_unlock(&s->lock);
    return 0;
}

/*
 * Migration (docs/reliability.md).  "r500" version 1 is the register file
 * and the PCI/VGA state, frozen.  Every block's state beyond the register
 * file is a subsection of its own, "r500/<block>", with its own version,
 * so a block changes without touching the others; state that is usually
 * idle has .needed, so streams without it still load on older builds.  A
 * new block adds its subsection to the list below and its fields to a
 * list of hw/r500/migrate.h (which tests/fuzz/fuzz-mmio.c loads from);
 * tests/qtest/r500-vmstate.json, checked by
 * scripts/vmstate-check.sh, records the released layout.
 *
 * The fields of the core's subsections come from the lists of
 * hw/r500/migrate.h, which the fuzzer's state loader reads too; each
 * X(kind, field, count) becomes the VMSTATE_<kind> entry it stands for
 * (r500_migrate.h).
 */
#define VMS_CHIP(kind, f, n)        VMS_##kind(chip.f, R500PCIState, n)
#define VMS_CMD(kind, f, n)         VMS_##kind(f, R500Rb2dCmd, n)

static bool r500_cp_packet_needed(void *opaque)
{
    R500PCIState *s = opaque;

    return s->chip.cp.resume != 0;
}

/* A packet the CP stopped in the middle of, at the end of a slice. */
static const VMStateDescription vmstate_r500_cp_packet = {
    .name = "r500/cp/packet",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = r500_cp_packet_needed,
    .fields = (const VMStateField[]) {
        R500_MIG_CP_PACKET(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

/* The command processor: microcode and where it is in its streams. */
static const VMStateDescription vmstate_r500_cp = {
    .name = "r500/cp",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_CP(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_r500_cp_packet,
        NULL
    },
};

static bool r500_rb2d_needed(void *opaque)
{
    R500PCIState *s = opaque;

    return s->chip.rb2d.host_active;
}

/* The 2D engine: a host-data blit waiting for data. */
static const VMStateDescription vmstate_r500_rb2d = {
    .name = "r500/rb2d",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = r500_rb2d_needed,
    .fields = (const VMStateField[]) {
        R500_MIG_RB2D(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

/* One entry of the 2D command FIFO (rb2d.h R500Rb2dCmd). */
static const VMStateDescription vmstate_r500_rb2d_cmd = {
    .name = "r500/rb2d/cmd",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_RB2D_CMD(VMS_CMD)
        VMSTATE_END_OF_LIST()
    },
};

static bool r500_rb2d_fifo_needed(void *opaque)
{
    R500PCIState *s = opaque;

    return s->chip.rb2d.fifo_count != 0;
}

/*
 * The 2D engine's command FIFO: queued operations, host data, and how far
 * the first one is drawn.  A new subsection (r500/rb2d is unchanged), sent
 * only while the engine is busy.  Not "r500/rb2d/..." : QEMU takes a
 * subsection whose name starts with the previous one's for a subsection of
 * it (vmstate_subsection_load), and the load would fail when both are sent.
 */
static const VMStateDescription vmstate_r500_rb2d_fifo = {
    .name = "r500/2d-fifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = r500_rb2d_fifo_needed,
    .fields = (const VMStateField[]) {
        R500_MIG_RB2D_FIFO(VMS_CHIP)
        VMSTATE_STRUCT_ARRAY(chip.rb2d.fifo, R500PCIState,
                             R500_RB2D_FIFO_SIZE, 1, vmstate_r500_rb2d_cmd,
                             R500Rb2dCmd),
        VMSTATE_END_OF_LIST()
    },
};

/* Display controller state not in the register file (hw/r500/disp). */
static const VMStateDescription vmstate_r500_disp = {
    .name = "r500/disp",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(chip.disp.st, R500PCIState, 1, vmstate_r500_disp_state,
                       R500DispState),
        VMSTATE_END_OF_LIST()
    },
};

/* 3D: the PVS vector memory (code, constants, clip planes) and its port. */
static const VMStateDescription vmstate_r500_vap = {
    .name = "r500/vap",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_VAP(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

static bool r500_vap_draw_needed(void *opaque)
{
    R500PCIState *s = opaque;

    return s->chip.vap.resume.active;
}

/*
 * 3D: a draw split across CP slices, stopped at a slice's end (pipe/pipe.c):
 * where it goes on and what is left of its budgets.  Sent only then (the
 * CP's r500/cp/packet subsection holds its packet's resume point).
 */
static const VMStateDescription vmstate_r500_vap_draw = {
    .name = "r500/3d-draw",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = r500_vap_draw_needed,
    .fields = (const VMStateField[]) {
        R500_MIG_VAP_DRAW(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

/* 3D: the fragment-shader instruction store, constants and their port. */
static const VMStateDescription vmstate_r500_us = {
    .name = "r500/us",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_US(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

/* 3D: the on-chip Hyper-Z and CMASK RAMs and a pending fast clear. */
static const VMStateDescription vmstate_r500_rb3d = {
    .name = "r500/rb3d",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        R500_MIG_RB3D(VMS_CHIP)
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_r500 = {
    .name = "r500",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = r500_pre_save,
    .post_load = r500_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, R500PCIState),
        VMSTATE_STRUCT(vga, R500PCIState, 0, vmstate_vga_common,
                       VGACommonState),
        VMSTATE_UINT32_ARRAY(chip.regs, R500PCIState, R500_NUM_REGS),
        VMSTATE_UINT32_ARRAY(chip.pll, R500PCIState, R500_PLL_NUM),
        VMSTATE_UINT32_ARRAY(chip.mc, R500PCIState, R500_MC_NUM),
        VMSTATE_UINT32_ARRAY(chip.pcie, R500PCIState, R500_PCIE_NUM),
        VMSTATE_BOOL(chip.irq_level, R500PCIState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_r500_cp,
        &vmstate_r500_rb2d,
        &vmstate_r500_rb2d_fifo,
        &vmstate_r500_disp,
        &vmstate_r500_vap,
        &vmstate_r500_vap_draw,
        &vmstate_r500_us,
        &vmstate_r500_rb3d,
        NULL
    },
};

/* "stats": the core's counters as one QMP object (qom-get). */
typedef struct R500StatsVisit {
    Visitor *v;
    Error **errp;
    bool ok;
} R500StatsVisit;

static void r500_stats_visit_one(void *opaque, const char *name,
                                 uint64_t val)
{
    R500StatsVisit *sv = opaque;

    if (sv->ok) {
        sv->ok = visit_type_uint64(sv->v, name, &val, sv->errp);
    }
}

static void r500_get_stats(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    R500PCIState *s = R500(obj);
    R500StatsVisit sv = { .v = v, .errp = errp, .ok = true };

    if (!visit_start_struct(v, name, NULL, 0, errp)) {
        return;
    }
    r500_lock(&s->lock);
    r500_chip_stats(&s->chip, r500_stats_visit_one, &sv);
    /* the board's: memory-map changes left for later, trapped accesses */
    r500_stats_visit_one(&sv, "board-map-deferred", s->map_deferred);
    r500_stats_visit_one(&sv, "board-held-traps", s->holds.traps);
    r500_unlock(&s->lock);
    if (sv.ok) {
        visit_check_struct(v, errp);
    }
    visit_end_struct(v, NULL);
}

/* "renderer-active": the renderer below the seam (what auto chose). */
static char *r500_get_renderer_active(Object *obj, Error **errp)
{
    R500PCIState *s = R500(obj);

    return g_strdup(s->chip.renderer ? s->chip.renderer->name : "soft");
}

static void r500_instance_init(Object *obj)
{
    /* The spelling of the first releases (and of QEMU's ati-vga). */
    object_property_add_alias(obj, "guest_hwcursor", obj, "guest-hwcursor");
}

static const Property r500_properties[] = {
    DEFINE_PROP_STRING("model", R500PCIState, model_name),
    DEFINE_PROP_SIZE("vram-size", R500PCIState, vram_size, 256 * MiB),
    /* soft renderer workers; 0: the host's cores, at most 4 */
    DEFINE_PROP_UINT32("render-threads", R500PCIState, render_threads, 0),
    /* below the 3D seam: auto (NULL), soft (the reference), gl */
    DEFINE_PROP_STRING("renderer", R500PCIState, renderer),
    /* the chip's work on its own thread, off the big lock */
    DEFINE_PROP_ON_OFF_AUTO("card-thread", R500PCIState, card_thread,
                            ON_OFF_AUTO_AUTO),
    /* the display (r500_display.c) */
    DEFINE_PROP_UINT32("heads", R500PCIState, display.heads, 1),
    DEFINE_PROP_BOOL("guest-hwcursor", R500PCIState, display.guest_hwcursor,
                     false),
    DEFINE_EDID_PROPERTIES(R500PCIState, display.edid_info),
};

static void r500_class_init(ObjectClass *klass, R500ClassData data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = r500_realize;
    k->exit = r500_exit;
    k->vendor_id = R500_PCI_VENDOR_ATI;
    k->device_id = 0x7142;
    k->class_id = PCI_CLASS_DISPLAY_VGA;
    device_class_set_legacy_reset(dc, r500_reset);
    dc->vmsd = &vmstate_r500;
    dc->desc = "ATI Radeon X1000 series (R500: RV515, RV530, R520, R580)";
    device_class_set_props(dc, r500_properties);
    object_class_property_set_description(klass, "model",
        "chip: rv515 (default, X1300), rv530 (X1600), r520 (X1800), "
        "r580 (X1900)");
    object_class_property_set_description(klass, "vram-size",
        "VRAM and BAR0 size, a power of two from 16M to 512M (default 256M)");
    object_class_property_set_description(klass, "render-threads",
        "threads of the soft 3D renderer: 1 as before, 0 (default) the "
        "host's cores, at most 4");
    object_class_property_add_str(klass, "renderer-active",
                                  r500_get_renderer_active, NULL);
    object_class_property_set_description(klass, "renderer-active",
        "the renderer drawing (read only): soft or gl, what auto chose");
    object_class_property_set_description(klass, "renderer",
        "the 3D renderer: auto (default: gl where EGL works, else soft), "
        "soft (the reference, on the CPU), gl (the host's OpenGL through "
        "EGL, on its own thread; draws it cannot express go to soft)");
    object_class_property_set_description(klass, "card-thread",
        "run the command processor and the draws on the card's own thread, "
        "outside the big QEMU lock: auto (default: on, off under qtest), "
        "on, off (in QEMU's main loop, as before)");
    object_class_property_set_description(klass, "heads",
        "consoles: 1 (default; shows D1, or D2 while D1 is dark) or 2 "
        "(one per CRTC)");
    object_class_property_set_description(klass, "guest-hwcursor",
        "draw the hardware cursor into the frame even when the display "
        "can show a host cursor");
    object_class_property_add(klass, "stats", "R500Stats", r500_get_stats,
                              NULL, NULL, NULL);
    object_class_property_set_description(klass, "stats",
        "the chip's counters (read-only): CP packets by type, IBs, dwords, "
        "slices, draws, vertices, clears, guest errors, unimplemented "
        "features met");
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo r500_info = {
    .name = TYPE_R500,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(R500PCIState),
    .instance_init = r500_instance_init,
    .class_init = r500_class_init,
    .interfaces = (R500InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { },
    },
};

static void r500_register_types(void)
{
    type_register_static(&r500_info);
}

type_init(r500_register_types)
