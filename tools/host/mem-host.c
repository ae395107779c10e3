/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem-host.h"

void mem_host_span_add(uint64_t *lo, uint64_t *hi, uint64_t off,
                       uint64_t len)
{
    if (!len) {
        return;
    }
    if (*lo >= *hi) {
        *lo = off;
        *hi = off + len;
    } else {
        *lo = MIN(*lo, off);
        *hi = MAX(*hi, off + len);
    }
}

static bool mh_dma_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    MemHost *h = opaque;

    h->last_dma_addr = addr;
    if (!r500_span_in(addr, len, h->ram_size)) {
        return false;
    }
    memcpy(buf, h->ram + addr, len);
    return true;
}

static bool mh_dma_write(void *opaque, uint64_t addr, const void *buf,
                         uint64_t len)
{
    MemHost *h = opaque;

    h->last_dma_addr = addr;
    if (!r500_span_in(addr, len, h->ram_size)) {
        return false;
    }
    memcpy(h->ram + addr, buf, len);
    mem_host_span_add(&h->ram_lo, &h->ram_hi, addr, len);
    h->dma_writes++;
    return true;
}

static void mh_set_irq(void *opaque, bool level)
{
    MemHost *h = opaque;

    if (level && !h->irq) {
        h->irq_edges++;
        h->irq_dma_writes = h->dma_writes;
    }
    h->irq = level;
    if (h->on_irq) {
        h->on_irq(h, level);
    }
}

static int64_t mh_clock(void *opaque)
{
    return ((MemHost *)opaque)->now;
}

static void mh_schedule(void *opaque, int64_t deadline)
{
    ((MemHost *)opaque)->scheduled = deadline;
}

/* The core must only report or hold what lies in VRAM. */
static void mh_in_vram(MemHost *h, const char *what, uint64_t offset,
                       uint64_t len)
{
    if (offset > h->vram_size || len > h->vram_size - offset) {
        fprintf(stderr, "mem-host: %s(0x%" G_GINT64_MODIFIER "x, 0x%"
                G_GINT64_MODIFIER "x) outside VRAM\n", what, offset, len);
        abort();
    }
}

static void mh_vram_dirty(void *opaque, uint64_t offset, uint64_t len)
{
    MemHost *h = opaque;

    mh_in_vram(h, "vram_dirty", offset, len);
    mem_host_span_add(&h->dirty_lo, &h->dirty_hi, offset, len);
}

#define MH_PAGE 4096

static bool mh_vram_cpu_written(void *opaque, uint64_t offset, uint64_t len)
{
    MemHost *h = opaque;
    bool any = false;

    if (!h->cpu_pages) {
        return true;
    }
    if (!len || offset >= h->vram_size) {
        return false;
    }
    len = MIN(len, h->vram_size - offset);
    for (uint64_t p = offset / MH_PAGE; p <= (offset + len - 1) / MH_PAGE;
         p++) {
        any |= h->cpu_pages[p];
        h->cpu_pages[p] = 0;
    }
    return any;
}

void mem_host_cpu_wrote(MemHost *h, uint64_t off, uint64_t len)
{
    if (!h->cpu_pages || !len || off >= h->vram_size) {
        return;
    }
    len = MIN(len, h->vram_size - off);
    memset(h->cpu_pages + off / MH_PAGE, 1,
           (off + len - 1) / MH_PAGE - off / MH_PAGE + 1);
}

static bool mh_vram_hold(void *opaque, uint64_t offset, uint64_t len)
{
    MemHost *h = opaque;

    mh_in_vram(h, "vram_hold", offset, len);
    if (h->on_hold ? !h->on_hold(h, offset, len, true) : !h->holds) {
        return false;
    }
    h->held_bytes += len;
    h->hold_calls++;
    h->holds_set = !h->holds_late;
    return true;
}

static bool mh_vram_holds_ready(void *opaque)
{
    MemHost *h = opaque;

    return !h->holds || !h->holds_late || h->holds_set || !h->held_bytes;
}

static void mh_vram_unhold(void *opaque, uint64_t offset, uint64_t len)
{
    MemHost *h = opaque;

    if (len > h->held_bytes) {
        fprintf(stderr, "mem-host: vram_unhold of more than is held\n");
        abort();
    }
    h->held_bytes -= len;
    h->unhold_calls++;
    if (h->on_hold) {
        h->on_hold(h, offset, len, false);
    }
}

static void mh_log(void *opaque, R500LogKind kind, const char *msg)
{
    MemHost *h = opaque;
    char tag = kind == R500_LOG_GUEST_ERROR ? 'G' : 'U';

    if (kind == R500_LOG_NOTE) {
        /* detail the user asked for (gl-verbose): said, not counted */
        fprintf(stderr, "r500: %s\n", msg);
        return;
    }
    if (kind == R500_LOG_GUEST_ERROR) {
        h->guest_errors++;
    } else {
        h->unimps++;
    }
    if (h->logs) {
        g_ptr_array_add(h->logs, g_strdup_printf("%c: %s", tag, msg));
    }
    if (h->verbose) {
        fprintf(stderr, "%c: %s\n", tag, msg);
    }
    if (h->on_log) {
        h->on_log(h, kind, msg);
    }
}

/*
 * The core's settings, for the host tools (the Mesa harness's DRM shim,
 * replay, the benchmark, the tests): the environment, R500_ and the
 * setting's name in capitals with '_' for '-' (R500_RENDERER,
 * R500_RENDER_THREADS, R500_GL_VERTEX, R500_GL_VERBOSE, R500_GL_DEVICE,
 * R500_GL_FAULT).
 */
static const char *mh_setting(void *opaque, const char *name)
{
    char var[64] = "R500_";
    size_t n = strlen(var);

    for (const char *c = name; *c && n < sizeof(var) - 1; c++) {
        var[n++] = *c == '-' ? '_' : g_ascii_toupper(*c);
    }
    var[n] = 0;
    return g_getenv(var);
}

static void mh_trace(void *opaque, R500TraceEvent ev, uint64_t a,
                     uint64_t b, uint64_t c, uint64_t d)
{
    MemHost *h = opaque;
    MemHostTrace t = { ev, a, b, c, d };

    if (h->traces) {
        g_array_append_val(h->traces, t);
    }
}

static void mh_aperture_changed(void *opaque)
{
    ((MemHost *)opaque)->aperture_changes++;
}

const R500HostOps mem_host_ops = {
    .dma_read = mh_dma_read,
    .dma_write = mh_dma_write,
    .set_irq = mh_set_irq,
    .clock_ns = mh_clock,
    .schedule = mh_schedule,
    .vram_dirty = mh_vram_dirty,
    .vram_cpu_written = mh_vram_cpu_written,
    .vram_hold = mh_vram_hold,
    .vram_holds_ready = mh_vram_holds_ready,
    .vram_unhold = mh_vram_unhold,
    .log = mh_log,
    .setting = mh_setting,
    .trace = mh_trace,
    .aperture_changed = mh_aperture_changed,
};

void mem_host_init(MemHost *h, uint8_t *ram, uint64_t ram_size,
                   uint64_t vram_size)
{
    h->ram = ram;
    h->ram_size = ram_size;
    h->vram_size = vram_size;
    h->now = 0;
    h->scheduled = -1;
    h->irq = false;
    h->irq_edges = h->dma_writes = h->irq_dma_writes = 0;
    h->last_dma_addr = 0;
    h->ram_lo = h->ram_hi = h->dirty_lo = h->dirty_hi = 0;
    h->guest_errors = h->unimps = 0;
}

void mem_host_clean(MemHost *h, uint8_t *vram)
{
    if (h->dirty_hi > h->dirty_lo) {
        memset(vram + h->dirty_lo, 0, h->dirty_hi - h->dirty_lo);
    }
    if (h->ram_hi > h->ram_lo) {
        memset(h->ram + h->ram_lo, 0, h->ram_hi - h->ram_lo);
    }
    mem_host_init(h, h->ram, h->ram_size, h->vram_size);
}

bool mem_host_step(MemHost *h, bool advance)
{
    if (h->scheduled < 0 || (!advance && h->scheduled > h->now)) {
        return false;
    }
    h->now = MAX(h->now, h->scheduled);
    h->scheduled = -1;
    r500_run(h->chip);
    return true;
}

unsigned mem_host_count_logs(const MemHost *h, const char *needle)
{
    unsigned n = 0;

    for (unsigned i = 0; h->logs && i < h->logs->len; i++) {
        if (strstr(g_ptr_array_index(h->logs, i), needle)) {
            n++;
        }
    }
    return n;
}
