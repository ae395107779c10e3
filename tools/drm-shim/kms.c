/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The radeon kernel driver's side of the shim: memory for VRAM and the
 * GTT, the kernel's own buffers, and the CS ioctl (radeon_cs.c): chunks,
 * relocations, the R300/R500 checker (tools/cs), then the IB dispatched on
 * the ring with a fence and waited for.  The chip bring-up and the ring
 * (MC, GART, CP, fences) are tools/cs/kdrv.c, shared with r500-replay.
 * A stream whose fence never arrives is recorded as not executed and its
 * fence counted as signalled, so Mesa carries on (reference
 * radeon-kms-r500.md 5.2-5.8).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <radeon_drm.h>

#include "shim.h"

/* radeon_device.c: default GART size before RV770 */
#define GTT_SIZE            (512ull << 20)

static void kms_log(int level, const char *msg)
{
    shim_log(level, "%s", msg);
}

static uint8_t *map_memfd(const char *name, uint64_t size, int *fd)
{
    void *p;

    *fd = memfd_create(name, MFD_CLOEXEC);
    if (*fd < 0 || ftruncate(*fd, size)) {
        return NULL;
    }
    /* sparse: untouched pages cost nothing */
    p = shim_real_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void kms_gart_bind(uint64_t gtt_off, uint64_t size, bool bind)
{
    kdrv_gart_bind(&shim.kd, gtt_off, size, bind);
}

/* radeon_bo_create(..., pinned) of a kernel buffer */
static bool kernel_bo(ShimHeap *h, uint64_t size, uint64_t *off)
{
    if (!heap_alloc(h, size, SHIM_PAGE_SIZE, off)) {
        return false;
    }
    if (h == &shim.gtt_heap) {
        shim.gtt_pinned += size;
    } else {
        shim.vram_pinned += size;
    }
    return true;
}

bool kms_bo_busy(const ShimBo *bo)
{
    /* CS ioctls complete synchronously, so nothing stays busy */
    return bo->last_seq > shim.kd.fence_done;
}

static bool capture_open(char **err)
{
    const char *path = getenv("R500_CAPTURE");
    CapDevice dev = {
        .pci_id = shim.chip.info->device_id,
        .model = shim.model,
        .vram_size = shim.vram_size,
        .vram_start = shim.vram_start,
        .gtt_start = shim.gtt_start,
        .gtt_size = shim.gtt_size,
    };

    if (!path || !*path) {
        return true;
    }
    shim.cap = cap_create(path, &dev, err);
    return shim.cap != NULL;
}

bool kms_init(char **err)
{
    const char *mb = getenv("R500_VRAM_MB");
    uint64_t vram = (mb ? strtoull(mb, NULL, 0) : 256) << 20;
    const char *stats = getenv("R500_SHIM_STATS");
    KDrv *k = &shim.kd;
    uint64_t stolen;

    gem_init();
    shim.vram_size = vram;
    shim.gtt_size = GTT_SIZE;
    /* one more page: the GART dummy page */
    shim.ram_size = GTT_SIZE + SHIM_PAGE_SIZE;
    shim.vram = map_memfd("r500-vram", vram, &shim.vram_fd);
    shim.ram = map_memfd("r500-guest-ram", shim.ram_size, &shim.ram_fd);
    if (!shim.vram || !shim.ram) {
        *err = g_strdup_printf("cannot allocate VRAM/guest RAM: %s",
                               g_strerror(errno));
        return false;
    }
    /* rv515_mc_init: VRAM at MC 0, the GTT right above it */
    shim.vram_start = 0;
    shim.gtt_start = shim.vram_start + vram;
    shim.vram_heap = (ShimHeap){ "VRAM", vram, g_array_new(FALSE, FALSE,
                                 sizeof(ShimRange)), 0 };
    shim.gtt_heap = (ShimHeap){ "GTT", GTT_SIZE, g_array_new(FALSE, FALSE,
                                sizeof(ShimRange)), 0 };
    *k = (KDrv){
        .chip = &shim.chip, .model = shim.model,
        .vram = shim.vram, .ram = shim.ram,
        .vram_size = vram, .ram_size = shim.ram_size,
        .vram_start = shim.vram_start, .gtt_start = shim.gtt_start,
        .gtt_size = shim.gtt_size, .dummy_page = GTT_SIZE,
        .log = kms_log, .log_level = shim.log_level,
    };
    if (!kernel_bo(&shim.vram_heap, KDRV_STOLEN_VGA_SIZE, &stolen) ||
        !kernel_bo(&shim.vram_heap, GTT_SIZE / SHIM_PAGE_SIZE * 4,
                   &k->gart_table)) {
        *err = g_strdup("VRAM too small for the kernel's buffers");
        return false;
    }
    if (!kernel_bo(&shim.gtt_heap, SHIM_PAGE_SIZE, &k->wb_off) ||
        !kernel_bo(&shim.gtt_heap, KDRV_RING_SIZE, &k->ring_off) ||
        !kernel_bo(&shim.gtt_heap, KDRV_IB_POOL_SIZE, &k->ib_off)) {
        *err = g_strdup("GTT too small for the kernel's buffers");
        return false;
    }
    if (!kdrv_init(k, err)) {
        return false;
    }
    /*
     * The host-GL renderer on the software device: a surfaceless EGL
     * display in this process could find this very shim's device.
     */
    g_setenv("R500_GL_DEVICE", "software", FALSE);
    /* Mesa r300 on the host at the host's speed where EGL works */
    r500_pipe_configure(k->chip, "auto");
    /* what it draws stays on the host until Mesa looks (hold.c) */
    hold_init();
    if (stats && *stats) {
        shim.stats = g_new0(CsStats, 1);
        shim.stats_path = g_strdup(stats);
    }
    if (!capture_open(err)) {
        return false;
    }
    shim.ready = true;
    shim_log(1, "%s, %" G_GUINT64_FORMAT " MiB VRAM at MC 0x%08" G_GINT64_MODIFIER
             "x, %" G_GUINT64_FORMAT " MiB GTT at MC 0x%08" G_GINT64_MODIFIER "x",
             shim.chip.info->marketing, vram >> 20, shim.vram_start,
             shim.gtt_size >> 20, shim.gtt_start);
    return true;
}

/* ---- the CS ioctl ---- */

/*
 * The capture looks at a buffer's bytes: what the renderer holds there
 * (hold.c) goes back to memory first.
 */
static void capture_look(const ShimBo *bo)
{
    if (bo->domain == RADEON_GEM_DOMAIN_VRAM) {
        r500_vram_release(&shim.chip, bo->offset, bo->size);
    }
}

/* Capture the buffers a stream references, as they are before it runs. */
static void capture_bos(ShimBo **bos, uint32_t nbos)
{
    for (uint32_t i = 0; i < nbos; i++) {
        ShimBo *bo = bos[i];

        capture_look(bo);
        if (!bo->cap_known || bo->cap_tiling != bo->tiling_flags ||
            bo->cap_pitch != bo->pitch) {
            CapBo b = {
                .id = bo->id, .domain = bo->domain, .size = bo->size,
                .gpu_addr = bo->gpu_addr, .tiling_flags = bo->tiling_flags,
                .pitch = bo->pitch,
            };
            cap_write_bo(shim.cap, &b);
            bo->cap_known = true;
            bo->cap_tiling = bo->tiling_flags;
            bo->cap_pitch = bo->pitch;
        }
        if (!bo->cap_copy || memcmp(bo->cap_copy, bo->ptr, bo->size)) {
            if (!bo->cap_copy) {
                bo->cap_copy = g_malloc(bo->size);
            }
            memcpy(bo->cap_copy, bo->ptr, bo->size);
            cap_write_bo_data(shim.cap, bo->id, 0, bo->ptr, bo->size);
        }
    }
}

static int cs_reject(int r, const char *why)
{
    if (why) {
        shim_log(0, "%s", why);
    }
    shim.cs_rejected++;
    return r;
}

int kms_cs_ioctl(ShimFile *f, void *arg)
{
    struct drm_radeon_cs *cs = arg;
    const uint64_t *chunks = (const uint64_t *)(uintptr_t)cs->chunks;
    const struct drm_radeon_cs_chunk *ib_chunk = NULL, *reloc_chunk = NULL;
    uint32_t cs_flags = 0, ring = RADEON_CS_RING_GFX, nrelocs = 0, ndw;
    CsReloc *relocs = NULL;
    CapCsReloc *cap_relocs = NULL;
    ShimBo **bos = NULL;
    uint32_t nbos = 0;
    uint32_t *ib = NULL, *orig = NULL;
    GString *log = NULL;
    CsConfig cfg;
    KDrvExec exec = KDRV_EXEC_NO_CP;
    int r = 0;

    if (!cs->num_chunks) {
        return 0;
    }
    shim.cs_count++;
    /* radeon_cs_parser_init */
    for (uint32_t i = 0; i < cs->num_chunks; i++) {
        const struct drm_radeon_cs_chunk *c = (const void *)(uintptr_t)chunks[i];
        const uint32_t *data = (const uint32_t *)(uintptr_t)c->chunk_data;

        switch (c->chunk_id) {
        case RADEON_CHUNK_ID_RELOCS:
            reloc_chunk = c;
            break;
        case RADEON_CHUNK_ID_IB:
            ib_chunk = c;
            /* fall through: a zero-length IB is refused too */
        case RADEON_CHUNK_ID_CONST_IB:
            if (!c->length_dw) {
                return cs_reject(-EINVAL, "Failed to initialize parser !");
            }
            break;
        case RADEON_CHUNK_ID_FLAGS:
            if (!c->length_dw) {
                return cs_reject(-EINVAL, "Failed to initialize parser !");
            }
            cs_flags = data[0];
            if (c->length_dw > 1) {
                ring = data[1];
            }
            break;
        default:
            break;
        }
    }
    if (cs_flags & RADEON_CS_USE_VM) {
        return cs_reject(-EINVAL, "VM not active on asic!");
    }
    switch (ring) {
    case RADEON_CS_RING_GFX:
    case RADEON_CS_RING_COMPUTE:    /* the GFX ring before Tahiti */
        break;
    case RADEON_CS_RING_DMA:        /* no DMA ring before RV770 */
        return cs_reject(-EINVAL, "Failed to initialize parser !");
    case RADEON_CS_RING_UVD:
    case RADEON_CS_RING_VCE:
        /* rv515's asic table has no such ring (the kernel oopses) */
        return cs_reject(-EINVAL, "Ring requires VM!");
    default: {
        char *why = g_strdup_printf("unknown ring id: %u", ring);
        r = cs_reject(-EINVAL, why);
        g_free(why);
        return r;
    }
    }
    if (!ib_chunk) {
        return 0;
    }

    /* radeon_cs_ib_fill: the IB pool is 1 MiB */
    ndw = ib_chunk->length_dw;
    if ((uint64_t)ndw * 4 > KDRV_IB_POOL_SIZE) {
        return cs_reject(-ENOMEM, "Failed to get ib !");
    }
    orig = g_memdup2((const void *)(uintptr_t)ib_chunk->chunk_data, ndw * 4);
    ib = g_memdup2(orig, ndw * 4);
    cfg = (CsConfig){
        .model = shim.model, .cs_flags = cs_flags,
        .hyperz_owner = shim.hyperz_owner == f,
        .cmask_owner = shim.cmask_owner == f,
    };

    /* radeon_cs_parser_relocs */
    if (reloc_chunk) {
        const uint32_t *d = (const uint32_t *)(uintptr_t)reloc_chunk->chunk_data;

        nrelocs = reloc_chunk->length_dw / 4;
        relocs = g_new0(CsReloc, nrelocs ? nrelocs : 1);
        cap_relocs = g_new0(CapCsReloc, nrelocs ? nrelocs : 1);
        bos = g_new0(ShimBo *, nrelocs ? nrelocs : 1);
        for (uint32_t i = 0; i < nrelocs; i++) {
            const struct drm_radeon_cs_reloc *rel = (const void *)(d + 4 * i);

            cap_relocs[i] = (CapCsReloc){ rel->handle, 0, rel->read_domains,
                                          rel->write_domain, rel->flags };
        }
        for (uint32_t i = 0; i < nrelocs; i++) {
            const struct drm_radeon_cs_reloc *rel = (const void *)(d + 4 * i);
            uint32_t domain;
            ShimBo *bo;
            uint32_t j;

            for (j = 0; j < i; j++) {
                if (relocs[j].handle == rel->handle) {
                    break;
                }
            }
            if (j < i) {            /* a duplicate names the first entry */
                relocs[i] = relocs[j];
                cap_relocs[i].bo = cap_relocs[j].bo;
                continue;
            }
            bo = gem_lookup(f, rel->handle);
            if (!bo) {
                char *why = g_strdup_printf("gem object lookup failed 0x%x",
                                            rel->handle);
                shim_log(0, "%s", why);
                g_free(why);
                r = cs_reject(-ENOENT, "Failed to parse relocation -2!");
                goto record;
            }
            domain = rel->write_domain ? rel->write_domain : rel->read_domains;
            if (domain & RADEON_GEM_DOMAIN_CPU) {
                r = cs_reject(-EINVAL, "RADEON_GEM_DOMAIN_CPU is not valid "
                              "for command submission");
                shim_log(0, "Failed to parse relocation -22!");
                goto record;
            }
            relocs[i] = (CsReloc){
                .handle = rel->handle, .read_domains = rel->read_domains,
                .write_domain = rel->write_domain, .flags = rel->flags,
                .gpu_offset = bo->gpu_addr, .size = bo->size,
                .tiling_flags = bo->tiling_flags, .bo = bo->id,
            };
            cap_relocs[i].bo = bo->id;
            bos[nbos++] = bo;
        }
    }

    log = g_string_new(NULL);
    r = cs_check(&cfg, ib, ndw, relocs, reloc_chunk ? reloc_chunk->length_dw : 0,
                 reloc_chunk != NULL, log);
    if (r) {
        shim_log(0, "%s" "Invalid command stream !", log->str);
        shim.cs_rejected++;
    } else {
        /* into the IB pool, then the ring */
        memcpy(shim.ram + shim.kd.ib_off, ib, ndw * 4);
        for (uint32_t i = 0; i < nbos; i++) {
            bos[i]->last_seq = shim.kd.fence_seq + 1;
        }
        if (shim.stats) {
            cs_stats_add(shim.stats, ib, ndw);
        }
    }
record:
    if (shim.cap) {
        capture_bos(bos, nbos);
    }
    if (!r) {
        exec = kdrv_submit(&shim.kd, shim.gtt_start + shim.kd.ib_off, ndw);
        if (exec != KDRV_EXEC_DONE) {
            shim.cs_not_executed++;
        }
        shim_log(1, "CS %" G_GUINT64_FORMAT ": %u dwords, %u relocs, %s",
                 shim.kd.fence_seq, ndw, nrelocs,
                 exec == KDRV_EXEC_DONE ? "executed" :
                 exec == KDRV_EXEC_NO_CP ? "not executed (no CP)" :
                 "CP stalled before the fence");
        if (shim.log_level >= 2) {
            GString *d = g_string_new(NULL);
            cs_decode(ib, ndw, d);
            shim_log(2, "IB:\n%s", d->str);
            g_string_free(d, TRUE);
        }
    }
    if (shim.cap) {
        CapCs c = {
            .seq = r ? 0 : (uint32_t)shim.kd.fence_seq, .cs_flags = cs_flags,
            .ring = ring, .result = r, .exec = r ? 0 : exec,
            .owners = (cfg.hyperz_owner ? 1 : 0) | (cfg.cmask_owner ? 2 : 0),
            .nrelocs = nrelocs, .ndw = ndw, .have_relocs = reloc_chunk != NULL,
            .relocs = cap_relocs, .ib = orig, .checked = r ? NULL : ib,
        };
        cap_write_cs(shim.cap, &c);
        if (!r && exec == KDRV_EXEC_DONE) {
            /* what the stream left in its buffers, for r500-replay */
            uint32_t *ids = g_new(uint32_t, nbos ? nbos : 1);
            uint8_t *hashes = g_malloc((size_t)CAP_HASH_SIZE * (nbos + 1));

            for (uint32_t i = 0; i < nbos; i++) {
                ids[i] = bos[i]->id;
                capture_look(bos[i]);
                cap_hash(bos[i]->ptr, bos[i]->size, hashes + i * CAP_HASH_SIZE);
            }
            cap_write_result(shim.cap, nbos, ids, hashes);
            g_free(ids);
            g_free(hashes);
        }
    }

    if (log) {
        g_string_free(log, TRUE);
    }
    g_free(relocs);
    g_free(cap_relocs);
    g_free(bos);
    g_free(ib);
    g_free(orig);
    return r;
}

/* At exit: close the capture, write the statistics. */
__attribute__((destructor))
static void kms_fini(void)
{
    if (!shim.ready) {
        return;
    }
    g_mutex_lock(&shim.lock);
    if (shim.cap && !cap_close(shim.cap)) {
        shim_log(0, "error writing the capture file");
    }
    shim.cap = NULL;
    if (shim.stats) {
        GString *s = g_string_new(NULL);
        FILE *f;

        g_string_append_printf(s, "model %s\n", shim.chip.info->name);
        g_string_append_printf(s, "cs_ioctls %lu\nrejected %lu\n"
                               "not_executed %lu\n", shim.cs_count,
                               shim.cs_rejected, shim.cs_not_executed);
#ifdef R500_HAVE_GL
        {
            uint64_t gl_draws, gl_soft, held, released, passes, as_is;
            uint64_t vtx, slots;

            /* what the renderer held past a fence, the looks, the faults */
            held = r500_chip_stat(&shim.chip, "render-gl-held");
            released = r500_chip_stat(&shim.chip, "render-gl-released");
            g_string_append_printf(s, "gl_held %" G_GUINT64_FORMAT "\n"
                                   "gl_released %" G_GUINT64_FORMAT "\n"
                                   "hold_faults %" G_GUINT64_FORMAT "\n",
                                   held, released, hold_faults());

            /* the host-GL renderer's draws, and those it left to soft */
            gl_draws = r500_chip_stat(&shim.chip, "render-gl-draws");
            gl_soft = r500_chip_stat(&shim.chip, "render-gl-fallbacks");
            vtx = r500_chip_stat(&shim.chip, "render-gl-vertex-draws");
            slots = r500_chip_stat(&shim.chip, "render-gl-slot-textures");
            passes = r500_chip_stat(&shim.chip,
                                    "render-gl-slot-texture-passes");
            as_is = r500_chip_stat(&shim.chip,
                                   "render-gl-slot-textures-as-is");
            g_string_append_printf(s, "gl_draws %" G_GUINT64_FORMAT "\n"
                                   "gl_fallbacks %" G_GUINT64_FORMAT "\n"
                                   "gl_vertex_draws %" G_GUINT64_FORMAT
                                   "\ngl_slot_textures %" G_GUINT64_FORMAT
                                   "\ngl_slot_texture_passes %"
                                   G_GUINT64_FORMAT "\ngl_slot_textures_as_is"
                                   " %" G_GUINT64_FORMAT "\n", gl_draws,
                                   gl_soft, vtx, slots, passes, as_is);
        }
#endif
        cs_stats_format(shim.stats, s);
        f = fopen(shim.stats_path, "w");
        if (!f || fwrite(s->str, 1, s->len, f) != s->len) {
            shim_log(0, "cannot write %s", shim.stats_path);
        }
        if (f) {
            fclose(f);
        }
        g_string_free(s, TRUE);
    }
    if (shim.cs_rejected) {
        shim_log(0, "%lu of %lu command streams rejected", shim.cs_rejected,
                 shim.cs_count);
    }
    g_mutex_unlock(&shim.lock);
}
