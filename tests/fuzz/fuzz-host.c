/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-host.h"
#include "../qtest/r500-driver-seq.h"

FuzzHost *fuzz_host(void)
{
    static FuzzHost *h;

    if (!h) {
        h = g_new0(FuzzHost, 1);
        h->vram = g_malloc0(FUZZ_VRAM_SIZE);
        mem_host_init(&h->host, g_malloc0(FUZZ_RAM_SIZE), FUZZ_RAM_SIZE,
                      FUZZ_VRAM_SIZE);
        h->host.verbose = g_getenv("R500_FUZZ_VERBOSE") != NULL;
    }
    return h;
}

/* The host-GL renderer's draws over the run (fuzz_gl_tally). */
static uint64_t gl_draws, gl_soft, gl_vtx;

/*
 * At the end of a run on the host-GL renderer: where its draws went, so
 * the smoke run can check that gl drew, and drew with the vertex stage on
 * the host, rather than leaving every input to soft.
 */
static void fuzz_gl_report(void)
{
    printf("fuzz: renderer gl: %" G_GUINT64_FORMAT " draws on gl (%"
           G_GUINT64_FORMAT " with the vertex stage on the host), %"
           G_GUINT64_FORMAT " on soft\n", gl_draws, gl_vtx, gl_soft);
}

/*
 * A chip's counters run on across the resets that reuse it: what each
 * chip had at its last tally is kept, and the difference added.
 */
#define GL_TALLY_CHIPS 16
static struct {
    const R500Chip *chip;
    uint64_t draws, soft, vtx;
} gl_seen[GL_TALLY_CHIPS];

void fuzz_gl_tally(R500Chip *s)
{
    static bool reported;
    unsigned i;
    uint64_t draws, soft, vtx;

    if (strcmp(s->renderer->name, "gl")) {
        return;
    }
    if (!reported) {
        reported = true;
        atexit(fuzz_gl_report);
    }
    for (i = 0; i < GL_TALLY_CHIPS - 1 && gl_seen[i].chip &&
         gl_seen[i].chip != s; i++) {
        /* the chip's entry, or the first free one (the last is shared) */
    }
    if (gl_seen[i].chip != s) {
        gl_seen[i].chip = s;
        gl_seen[i].draws = gl_seen[i].soft = gl_seen[i].vtx = 0;
    }
    draws = r500_chip_stat(s, "render-gl-draws");
    soft = r500_chip_stat(s, "render-gl-fallbacks");
    vtx = r500_chip_stat(s, "render-gl-vertex-draws");
    /* a counter that went back (a chip made anew at the address) */
    gl_draws += draws >= gl_seen[i].draws ? draws - gl_seen[i].draws : draws;
    gl_soft += soft >= gl_seen[i].soft ? soft - gl_seen[i].soft : soft;
    gl_vtx += vtx >= gl_seen[i].vtx ? vtx - gl_seen[i].vtx : vtx;
    gl_seen[i].draws = draws;
    gl_seen[i].soft = soft;
    gl_seen[i].vtx = vtx;
}

R500Chip *fuzz_begin(FuzzHost *h, R500Model model)
{
    MemHost *m = &h->host;
    unsigned k = model % R500_MODEL__COUNT;
    char *err = NULL;

    h->chip = &h->chips[k];
    m->chip = h->chip;
    /* the last input's fuzz_end() synced: no renderer holds VRAM now */
    mem_host_clean(m, h->vram);
    if (h->made[k]) {
        r500_chip_reset(h->chip);
    } else {
        if (!r500_chip_init(h->chip, k, h->vram, FUZZ_VRAM_SIZE,
                            &mem_host_ops, m, &err)) {
            fprintf(stderr, "fuzz: chip init: %s\n", err);
            abort();
        }
        /* soft unless R500_RENDERER says (the smoke runs on gl) */
        r500_pipe_configure(h->chip, "soft");
        h->made[k] = true;
    }
    return h->chip;
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
    uint64_t lo, hi;

    /* the display looks: what a renderer holds goes to VRAM first */
    r500_pipe_sync(h->chip, R500_SYNC_DISPLAY);
    fuzz_gl_tally(h->chip);
    lo = h->host.dirty_lo & ~7ull;
    hi = (h->host.dirty_hi + 7) & ~7ull;

    if (hi <= lo) {
        lo = hi = 0;
    }
    if (!zero_words(h->vram, lo) ||
        !zero_words(h->vram + hi, FUZZ_VRAM_SIZE - hi)) {
        fprintf(stderr, "fuzz: VRAM outside the reported span [0x%"
                G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) was "
                "written without vram_dirty()\n", h->host.dirty_lo,
                h->host.dirty_hi);
        abort();
    }
}

void fuzz_run(FuzzHost *h, unsigned max_slices)
{
    for (unsigned i = 0; i < max_slices; i++) {
        gint64 t0 = g_get_monotonic_time();
        int64_t us;

        /* Virtual time jumps to the deadline the chip asked for. */
        if (!mem_host_step(&h->host, true)) {
            break;
        }
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
    memcpy(h->host.ram + addr, buf, len);
    mem_host_span_add(&h->host.ram_lo, &h->host.ram_hi, addr, len);
}

void fuzz_vram_write(FuzzHost *h, uint64_t off, const void *buf, size_t len)
{
    if (off >= FUZZ_VRAM_SIZE) {
        return;
    }
    len = MIN(len, FUZZ_VRAM_SIZE - off);
    memcpy(h->vram + off, buf, len);
    mem_host_span_add(&h->host.dirty_lo, &h->host.dirty_hi, off, len);
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
    FuzzHost *h = fuzz_host();   /* the process has one chip */
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
