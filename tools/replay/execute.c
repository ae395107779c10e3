/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-replay --execute: run a capture's command streams on a fresh chip
 * core, without Mesa, and compare what they leave in their buffers with
 * the SHA-256 the capturing run recorded after each stream (RESULT
 * records, capture version 2).  The chip is brought up as the kernel does
 * it (tools/cs/kdrv.c); buffers are placed where the capture says, their
 * contents loaded from BO_DATA records before each stream.
 */
#include <stdio.h>
#include <string.h>

#include "cs.h"
#include "kdrv.h"
#include "replay.h"

#define DOMAIN_VRAM 0x4

typedef struct Exec {
    const CapFile *f;
    KDrv kd;
    R500Chip chip;
    GHashTable *bos;            /* id -> const CapBo * (current placement) */
    bool verbose;
    unsigned executed, identical, differ, failed;
    int64_t core_us;            /* time spent running the chip */
} Exec;

/* Host memory of an MC range of a buffer, or NULL outside VRAM/GTT. */
static uint8_t *bo_mem(Exec *e, const CapBo *bo, uint64_t off, uint64_t len)
{
    const CapDevice *d = &e->f->dev;
    uint64_t at = bo->gpu_addr + off;

    if (bo->domain == DOMAIN_VRAM) {
        if (at < d->vram_start ||
            !r500_span_in(at - d->vram_start, len, d->vram_size)) {
            return NULL;
        }
        return e->kd.vram + (at - d->vram_start);
    }
    /* GTT page n is backed by bus page n, as the shim binds it */
    if (at < d->gtt_start ||
        !r500_span_in(at - d->gtt_start, len, d->gtt_size)) {
        return NULL;
    }
    return e->kd.ram + (at - d->gtt_start);
}

/*
 * The lowest page-aligned range of size bytes in [0, limit) that no
 * buffer of the domain ever occupies: where the kernel's own buffers go.
 */
static bool free_range(const CapFile *f, bool vram, uint64_t base,
                       uint64_t limit, uint64_t size, uint64_t *out)
{
    uint64_t cand = 0;
    bool moved = true;

    while (moved) {
        moved = false;
        if (cand + size > limit) {
            return false;
        }
        for (guint i = 0; i < f->records->len; i++) {
            const CapRecord *r = &g_array_index(f->records, CapRecord, i);
            uint64_t s0, s1;

            if (r->type != CAP_BO || (r->u.bo.domain == DOMAIN_VRAM) != vram) {
                continue;
            }
            s0 = r->u.bo.gpu_addr - base;
            s1 = s0 + r->u.bo.size;
            if (cand < s1 && s0 < cand + size) {
                cand = (s1 + KDRV_PAGE_SIZE - 1) & ~(uint64_t)(KDRV_PAGE_SIZE - 1);
                moved = true;
            }
        }
    }
    *out = cand;
    return true;
}

static void exec_log(int level, const char *msg)
{
    fprintf(stderr, "r500-replay: %s\n", msg);
}

static bool exec_init(Exec *e, char **err)
{
    const CapDevice *d = &e->f->dev;
    KDrv *k = &e->kd;
    uint64_t table = d->gtt_size / KDRV_PAGE_SIZE * 4;

    if (d->vram_size > (1ull << 30) || d->gtt_size > (1ull << 32)) {
        *err = g_strdup("capture device too large to replay");
        return false;
    }
    *k = (KDrv){
        .chip = &e->chip, .model = d->model,
        .vram_size = d->vram_size,
        .ram_size = d->gtt_size + KDRV_PAGE_SIZE,
        .vram_start = d->vram_start, .gtt_start = d->gtt_start,
        .gtt_size = d->gtt_size, .dummy_page = d->gtt_size,
        .log = exec_log, .log_level = e->verbose ? 1 : 0,
    };
    if (!free_range(e->f, true, d->vram_start, d->vram_size, table,
                    &k->gart_table) ||
        !free_range(e->f, false, d->gtt_start, d->gtt_size,
                    KDRV_PAGE_SIZE + KDRV_RING_SIZE + KDRV_IB_POOL_SIZE,
                    &k->wb_off)) {
        *err = g_strdup("no room for the kernel's buffers beside the "
                        "captured ones");
        return false;
    }
    k->ring_off = k->wb_off + KDRV_PAGE_SIZE;
    k->ib_off = k->ring_off + KDRV_RING_SIZE;
    /* calloc: large zeroed mappings cost nothing until touched */
    k->vram = g_malloc0(k->vram_size);
    k->ram = g_malloc0(k->ram_size);
    if (!kdrv_init(k, err)) {
        return false;
    }
    /* the reference unless asked: replays compare bytes */
    r500_pipe_configure(k->chip, "soft");
    return true;
}

/* Compare a RESULT record with the buffers as the replay left them. */
static void check_result(Exec *e, unsigned cs, const CapRecord *r)
{
    unsigned bad = 0;

    for (uint32_t i = 0; i < r->u.result.n; i++) {
        const uint8_t *ent = r->u.result.entries + i * (8 + CAP_HASH_SIZE);
        uint32_t id = ent[0] | ent[1] << 8 | ent[2] << 16 |
                      (uint32_t)ent[3] << 24;
        const CapBo *bo = g_hash_table_lookup(e->bos, GUINT_TO_POINTER(id));
        uint8_t *mem = bo ? bo_mem(e, bo, 0, bo->size) : NULL;
        uint8_t h[CAP_HASH_SIZE];

        if (!mem) {
            bad++;
            continue;
        }
        cap_hash(mem, bo->size, h);
        if (memcmp(h, ent + 8, CAP_HASH_SIZE)) {
            bad++;
            printf("CS %u: buffer %u (%s 0x%08" G_GINT64_MODIFIER "x, %"
                   G_GUINT64_FORMAT " bytes) differs from the recording\n",
                   cs, id, bo->domain == DOMAIN_VRAM ? "VRAM" : "GTT",
                   bo->gpu_addr, bo->size);
        }
    }
    if (bad) {
        e->differ++;
    } else {
        e->identical++;
    }
}

bool replay_execute(const CapFile *f, bool verbose)
{
    Exec e = { .f = f, .verbose = verbose };
    char *err = NULL;
    unsigned cs = 0, results = 0;
    bool ok;

    e.bos = g_hash_table_new(NULL, NULL);
    if (!exec_init(&e, &err)) {
        printf("execution: cannot start the chip: %s\n", err);
        g_free(err);
        g_hash_table_unref(e.bos);
        return false;
    }
    for (guint i = 0; i < f->records->len; i++) {
        const CapRecord *r = &g_array_index(f->records, CapRecord, i);

        switch (r->type) {
        case CAP_BO: {
            const CapBo *old = g_hash_table_lookup(e.bos,
                                                   GUINT_TO_POINTER(r->u.bo.id));

            if (old && old->domain != DOMAIN_VRAM) {
                kdrv_gart_bind(&e.kd, old->gpu_addr - f->dev.gtt_start,
                               old->size, false);
            }
            g_hash_table_insert(e.bos, GUINT_TO_POINTER(r->u.bo.id),
                                (gpointer)&r->u.bo);
            if (r->u.bo.domain != DOMAIN_VRAM && bo_mem(&e, &r->u.bo, 0,
                                                        r->u.bo.size)) {
                kdrv_gart_bind(&e.kd, r->u.bo.gpu_addr - f->dev.gtt_start,
                               r->u.bo.size, true);
            }
            break;
        }
        case CAP_BO_DATA: {
            const CapBo *bo = g_hash_table_lookup(e.bos,
                                                  GUINT_TO_POINTER(r->u.data.id));
            uint8_t *mem = bo ? bo_mem(&e, bo, r->u.data.offset,
                                       r->u.data.len) : NULL;

            if (mem) {
                memcpy(mem, r->u.data.bytes, r->u.data.len);
            }
            break;
        }
        case CAP_BO_FREE: {
            const CapBo *bo = g_hash_table_lookup(e.bos,
                                                  GUINT_TO_POINTER(r->u.free_id));

            if (bo && bo->domain != DOMAIN_VRAM && bo_mem(&e, bo, 0, bo->size)) {
                kdrv_gart_bind(&e.kd, bo->gpu_addr - f->dev.gtt_start,
                               bo->size, false);
            }
            g_hash_table_remove(e.bos, GUINT_TO_POINTER(r->u.free_id));
            break;
        }
        case CAP_CS:
            cs++;
            /* streams the recording executed, as the checker left them */
            if (r->u.cs.result || r->u.cs.exec || !r->u.cs.checked) {
                break;
            }
            memcpy(e.kd.ram + e.kd.ib_off, r->u.cs.checked, r->u.cs.ndw * 4);
            e.executed++;
            {
                int64_t t0 = g_get_monotonic_time();
                KDrvExec x = kdrv_submit(&e.kd, f->dev.gtt_start + e.kd.ib_off,
                                         r->u.cs.ndw);

                e.core_us += g_get_monotonic_time() - t0;
                if (x != KDRV_EXEC_DONE) {
                    e.failed++;
                    printf("CS %u: the stream did not reach its fence\n", cs);
                }
            }
            break;
        case CAP_RESULT:
            results++;
            check_result(&e, cs, r);
            break;
        }
    }
    printf("execution time: %.2f ms in the chip core\n", e.core_us / 1000.0);
    printf("execution: %u streams run, %u with recorded results: %u "
           "identical, %u differ, %u did not finish\n", e.executed, results,
           e.identical, e.differ, e.failed);
    printf("renderer: %s, %u threads; %" G_GUINT64_FORMAT " draws, %"
           G_GUINT64_FORMAT " draw calls (CP slices) on the workers in %"
           G_GUINT64_FORMAT " batches; %" G_GUINT64_FORMAT " rectangles "
           "filled as one colour\n", e.chip.renderer->name,
           e.chip.soft.threads, e.chip.cp.draw_stats.draws,
           e.chip.soft.threaded_draws, e.chip.soft.batches,
           e.chip.soft.fills);
    ok = !e.differ && !e.failed;
    r500_chip_finalize(&e.chip);
    g_free(e.kd.vram);
    g_free(e.kd.ram);
    g_hash_table_unref(e.bos);
    return ok;
}
