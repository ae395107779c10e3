/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-host.h"
#include "../qtest/r500-driver-seq.h"

static bool verbose;

static void span_add(uint64_t *lo, uint64_t *hi, uint64_t off, uint64_t len)
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

static bool fh_dma_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    FuzzHost *h = opaque;

    if (!r500_span_in(addr, len, FUZZ_RAM_SIZE)) {
        return false;
    }
    memcpy(buf, h->ram + addr, len);
    return true;
}

static bool fh_dma_write(void *opaque, uint64_t addr, const void *buf,
                         uint64_t len)
{
    FuzzHost *h = opaque;

    if (!r500_span_in(addr, len, FUZZ_RAM_SIZE)) {
        return false;
    }
    memcpy(h->ram + addr, buf, len);
    span_add(&h->ram_lo, &h->ram_hi, addr, len);
    return true;
}

static void fh_set_irq(void *opaque, bool level)
{
    ((FuzzHost *)opaque)->irq = level;
}

static int64_t fh_clock(void *opaque)
{
    return ((FuzzHost *)opaque)->now;
}

static void fh_schedule(void *opaque, int64_t deadline)
{
    ((FuzzHost *)opaque)->scheduled = deadline;
}

static void fh_vram_dirty(void *opaque, uint64_t offset, uint64_t len)
{
    FuzzHost *h = opaque;

    /* The core must only report what lies in VRAM. */
    if (offset > FUZZ_VRAM_SIZE || len > FUZZ_VRAM_SIZE - offset) {
        fprintf(stderr, "fuzz: vram_dirty(0x%" G_GINT64_MODIFIER "x, 0x%"
                G_GINT64_MODIFIER "x) outside VRAM\n", offset, len);
        abort();
    }
    span_add(&h->dirty_lo, &h->dirty_hi, offset, len);
}

static void fh_log(void *opaque, R500LogKind kind, const char *msg)
{
    FuzzHost *h = opaque;

    if (kind == R500_LOG_GUEST_ERROR) {
        h->guest_errors++;
    } else {
        h->unimps++;
    }
    if (verbose) {
        fprintf(stderr, "%c: %s\n", kind == R500_LOG_GUEST_ERROR ? 'G' : 'U',
                msg);
    }
}

static const R500HostOps fuzz_host_ops = {
    .dma_read = fh_dma_read,
    .dma_write = fh_dma_write,
    .set_irq = fh_set_irq,
    .clock_ns = fh_clock,
    .schedule = fh_schedule,
    .vram_dirty = fh_vram_dirty,
    .log = fh_log,
};

FuzzHost *fuzz_host(void)
{
    static FuzzHost *h;

    if (!h) {
        h = g_new0(FuzzHost, 1);
        h->vram = g_malloc0(FUZZ_VRAM_SIZE);
        h->ram = g_malloc0(FUZZ_RAM_SIZE);
        verbose = g_getenv("R500_FUZZ_VERBOSE") != NULL;
    }
    return h;
}

R500Chip *fuzz_begin(FuzzHost *h, R500Model model)
{
    char *err = NULL;

    if (h->dirty_hi > h->dirty_lo) {
        memset(h->vram + h->dirty_lo, 0, h->dirty_hi - h->dirty_lo);
    }
    if (h->ram_hi > h->ram_lo) {
        memset(h->ram + h->ram_lo, 0, h->ram_hi - h->ram_lo);
    }
    h->dirty_lo = h->dirty_hi = h->ram_lo = h->ram_hi = 0;
    h->now = 0;
    h->scheduled = -1;
    h->irq = false;
    if (!r500_chip_init(&h->chip, model % R500_MODEL__COUNT, h->vram,
                        FUZZ_VRAM_SIZE, &fuzz_host_ops, h, &err)) {
        fprintf(stderr, "fuzz: chip init: %s\n", err);
        abort();
    }
    return &h->chip;
}

/* Word scan without sanitizer checks: it runs once per input over 16 MiB. */
__attribute__((no_sanitize("address", "undefined")))
static bool zero_words(const uint8_t *p, uint64_t len)
{
    const uint64_t *w = (const uint64_t *)p;
    uint64_t acc = 0;

    for (uint64_t i = 0; i < len / 8; i++) {
        acc |= w[i];
    }
    return acc == 0;
}

void fuzz_end(FuzzHost *h)
{
    uint64_t lo = h->dirty_lo & ~7ull, hi = (h->dirty_hi + 7) & ~7ull;

    if (hi <= lo) {
        lo = hi = 0;
    }
    if (!zero_words(h->vram, lo) ||
        !zero_words(h->vram + hi, FUZZ_VRAM_SIZE - hi)) {
        fprintf(stderr, "fuzz: VRAM outside the reported span [0x%"
                G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) was "
                "written without vram_dirty()\n", h->dirty_lo, h->dirty_hi);
        abort();
    }
}

void fuzz_run(FuzzHost *h, unsigned max_slices)
{
    for (unsigned i = 0; i < max_slices && h->scheduled >= 0; i++) {
        gint64 t0;
        int64_t us;

        /* Virtual time jumps to the deadline the chip asked for. */
        h->now = MAX(h->now, h->scheduled);
        h->scheduled = -1;
        t0 = g_get_monotonic_time();
        r500_run(&h->chip);
        us = g_get_monotonic_time() - t0;
        h->worst_slice_us = MAX(h->worst_slice_us, us);
        if (us > FUZZ_SLICE_LIMIT_MS * 1000) {
            fprintf(stderr, "fuzz: one r500_run() slice took %" G_GINT64_FORMAT
                    " ms (limit %d ms): unbounded work\n", us / 1000,
                    FUZZ_SLICE_LIMIT_MS);
            abort();
        }
    }
}

void fuzz_ram_write(FuzzHost *h, uint64_t addr, const void *buf, size_t len)
{
    if (addr >= FUZZ_RAM_SIZE) {
        return;
    }
    len = MIN(len, FUZZ_RAM_SIZE - addr);
    memcpy(h->ram + addr, buf, len);
    span_add(&h->ram_lo, &h->ram_hi, addr, len);
}

void fuzz_vram_write(FuzzHost *h, uint64_t off, const void *buf, size_t len)
{
    if (off >= FUZZ_VRAM_SIZE) {
        return;
    }
    len = MIN(len, FUZZ_VRAM_SIZE - off);
    memcpy(h->vram + off, buf, len);
    span_add(&h->dirty_lo, &h->dirty_hi, off, len);
}

uint64_t fuzz_take(FuzzInput *in, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < n && in->left; i++) {
        v |= (uint64_t)*in->p++ << (8 * i);
        in->left--;
    }
    return v;
}

/* ---- CP environment ---- */

/* Where the table lives when it is in guest RAM: the last page. */
#define GART_TABLE_BUS  (FUZZ_RAM_SIZE - 4096)

uint64_t fuzz_gtt_bus(uint32_t mc)
{
    uint32_t page = ((mc - FUZZ_GTT_MC) >> 12) % FUZZ_GTT_PAGES;

    /* Scattered and below the table page: only the GART finds them. */
    return (uint64_t)((page * 37u + 11u) % 1000u) * 4096 + (mc & 0xFFF);
}

void fuzz_gart_enable(R500Chip *s, bool table_in_ram)
{
    FuzzHost *h = s->host;
    uint64_t table = table_in_ram ? GART_TABLE_BUS : FUZZ_GART_TABLE;

    for (uint32_t i = 0; i < FUZZ_GTT_PAGES; i++) {
        uint64_t bus = fuzz_gtt_bus(FUZZ_GTT_MC + i * 4096);
        /* r300.c: address bits 31:12 in 23:4, readable | writeable. */
        uint32_t pte = GUINT32_TO_LE((uint32_t)(bus >> 8) | 0xC);

        if (table_in_ram) {
            fuzz_ram_write(h, table + 4 * i, &pte, 4);
        } else {
            fuzz_vram_write(h, table + 4 * i, &pte, 4);
        }
    }
    r500_seq_gart_enable(r500_seq_chip_wpcie, s, FUZZ_GTT_MC, FUZZ_GTT_PAGES,
                         table);
}

void fuzz_cp_init(R500Chip *s, uint32_t ring_mc, unsigned bufsz,
                  uint32_t wb_mc)
{
    r500_seq_cp_init(r500_seq_chip_w, s, ring_mc, bufsz, wb_mc);
}

void fuzz_mc_put(FuzzHost *h, uint32_t mc, const uint32_t *dw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t le = GUINT32_TO_LE(dw[i]);
        uint32_t a = mc + 4 * i;

        if (a < FUZZ_VRAM_SIZE) {
            fuzz_vram_write(h, a, &le, 4);
        } else if (a >= FUZZ_GTT_MC &&
                   a < FUZZ_GTT_MC + FUZZ_GTT_PAGES * 4096) {
            fuzz_ram_write(h, fuzz_gtt_bus(a), &le, 4);
        } else {
            fuzz_ram_write(h, a, &le, 4);
        }
    }
}
