/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GEM buffer objects of the fake radeon device (radeon_gem.c,
 * radeon_object.c): VRAM buffers live in the chip's VRAM, GTT buffers in
 * the "guest RAM" the PCIE GART maps.  A buffer is placed once, in the
 * first domain of its initial_domain that has room (VRAM, falling back to
 * GTT as radeon_gem_object_create retries), and never migrates; the
 * kernel may move buffers at CS time, but their contents and the
 * relocations that follow them are the same.
 *
 * mmap offsets: buffer id << 32, which keeps them page aligned and far
 * from any real file offset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <radeon_drm.h>

#include "shim.h"

#define MMAP_SHIFT 32

/* ---- range allocator ---- */

bool heap_alloc(ShimHeap *h, uint64_t size, uint64_t align, uint64_t *out)
{
    uint64_t at = 0;
    guint i;

    if (!size || align & (align - 1)) {
        return false;
    }
    for (i = 0; i <= h->used->len; i++) {
        uint64_t end = i < h->used->len
            ? g_array_index(h->used, ShimRange, i).start : h->size;

        at = (at + align - 1) & ~(align - 1);
        if (at <= end && end - at >= size) {
            ShimRange r = { at, size };
            g_array_insert_val(h->used, i, r);
            h->in_use += size;
            *out = at;
            return true;
        }
        if (i < h->used->len) {
            const ShimRange *r = &g_array_index(h->used, ShimRange, i);
            at = r->start + r->size;
        }
    }
    return false;
}

void heap_free(ShimHeap *h, uint64_t start)
{
    for (guint i = 0; i < h->used->len; i++) {
        const ShimRange *r = &g_array_index(h->used, ShimRange, i);

        if (r->start == start) {
            h->in_use -= r->size;
            g_array_remove_index(h->used, i);
            return;
        }
    }
    g_assert_not_reached();
}

/* ---- objects ---- */

void gem_init(void)
{
    shim.bos = g_hash_table_new(NULL, NULL);
    shim.fds = g_hash_table_new(NULL, NULL);
    shim.next_bo_id = 1;
}

uint64_t gem_usage(uint32_t domain)
{
    GHashTableIter it;
    gpointer v;
    uint64_t sum = 0;

    g_hash_table_iter_init(&it, shim.bos);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        ShimBo *bo = v;
        if (bo->domain == domain) {
            sum += bo->size;
        }
    }
    return sum;
}

static void bo_unref(ShimBo *bo)
{
    if (--bo->refs) {
        return;
    }
    if (bo->domain == RADEON_GEM_DOMAIN_VRAM) {
        heap_free(&shim.vram_heap, bo->offset);
    } else {
        kms_gart_bind(bo->offset, bo->size, false);
        heap_free(&shim.gtt_heap, bo->offset);
    }
    if (shim.cap && bo->cap_known) {
        cap_write_bo_free(shim.cap, bo->id);
    }
    shim_log(1, "bo %u freed", bo->id);
    g_hash_table_remove(shim.bos, GUINT_TO_POINTER(bo->id));
    g_free(bo->cap_copy);
    g_free(bo);
}

ShimBo *gem_lookup(ShimFile *f, uint32_t handle)
{
    return g_hash_table_lookup(f->handles, GUINT_TO_POINTER(handle));
}

static uint32_t handle_new(ShimFile *f, ShimBo *bo)
{
    uint32_t h = f->next_handle++;

    g_hash_table_insert(f->handles, GUINT_TO_POINTER(h), bo);
    bo->refs++;
    return h;
}

int gem_close(ShimFile *f, uint32_t handle)
{
    ShimBo *bo = gem_lookup(f, handle);

    if (!bo) {
        return -EINVAL;         /* drm_gem_handle_delete */
    }
    g_hash_table_remove(f->handles, GUINT_TO_POINTER(handle));
    bo_unref(bo);
    return 0;
}

void gem_file_release(ShimFile *f)
{
    GHashTableIter it;
    gpointer v;

    g_hash_table_iter_init(&it, f->handles);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        g_hash_table_iter_remove(&it);
        bo_unref(v);
    }
}

static bool place(ShimBo *bo, uint32_t domain, uint64_t align)
{
    uint64_t off;

    if ((domain & RADEON_GEM_DOMAIN_VRAM) &&
        heap_alloc(&shim.vram_heap, bo->size, align, &off)) {
        bo->domain = RADEON_GEM_DOMAIN_VRAM;
        bo->offset = off;
        bo->gpu_addr = shim.vram_start + off;
        bo->ptr = shim.vram + off;
        return true;
    }
    /* GTT, and CPU-only buffers, which TTM keeps in system pages */
    if ((domain & (RADEON_GEM_DOMAIN_GTT | RADEON_GEM_DOMAIN_CPU)) &&
        heap_alloc(&shim.gtt_heap, bo->size, align, &off)) {
        bo->domain = RADEON_GEM_DOMAIN_GTT;
        bo->offset = off;
        bo->gpu_addr = shim.gtt_start + off;
        bo->ptr = shim.ram + off;
        kms_gart_bind(off, bo->size, true);
        return true;
    }
    return false;
}

static int gem_create(ShimFile *f, struct drm_radeon_gem_create *args)
{
    uint64_t size = (args->size + SHIM_PAGE_SIZE - 1) & ~(uint64_t)(SHIM_PAGE_SIZE - 1);
    uint64_t align = MAX(args->alignment, SHIM_PAGE_SIZE);
    uint32_t domain = args->initial_domain;
    ShimBo *bo;

    /* the biggest buffer is the unpinned GTT (radeon_gem_object_create) */
    if (size > shim.gtt_size - shim.gtt_pinned || size == 0) {
        return -ENOMEM;
    }
    if (align & (align - 1)) {
        return -EINVAL;
    }
    args->size = size;
    bo = g_new0(ShimBo, 1);
    bo->size = size;
    bo->initial_domain = domain;
    bo->flags = args->flags;
    if (!place(bo, domain, align)) {
        /* a VRAM-only request retries with GTT allowed */
        if (domain != RADEON_GEM_DOMAIN_VRAM ||
            !place(bo, domain | RADEON_GEM_DOMAIN_GTT, align)) {
            shim_log(0, "Failed to allocate GEM object (%" G_GUINT64_FORMAT
                     ", %u, %" G_GUINT64_FORMAT ", %d)", size, domain, align,
                     -ENOMEM);
            g_free(bo);
            return -ENOMEM;
        }
    }
    /* fresh TTM pages are zeroed */
    memset(bo->ptr, 0, size);
    bo->id = shim.next_bo_id++;
    g_hash_table_insert(shim.bos, GUINT_TO_POINTER(bo->id), bo);
    args->handle = handle_new(f, bo);
    shim_log(1, "GEM_CREATE size %" G_GUINT64_FORMAT " align %" G_GUINT64_FORMAT
             " domain 0x%x flags 0x%x -> handle %u bo %u %s @0x%08" G_GINT64_MODIFIER "x",
             size, align, domain, args->flags, args->handle, bo->id,
             bo->domain == RADEON_GEM_DOMAIN_VRAM ? "VRAM" : "GTT",
             bo->gpu_addr);
    return 0;
}

void *gem_mmap(uint64_t offset, size_t len, int prot, int flags)
{
    ShimBo *bo;
    void *p;
    int fd;
    uint64_t file_off;

    g_mutex_lock(&shim.lock);
    bo = g_hash_table_lookup(shim.bos, GUINT_TO_POINTER(offset >> MMAP_SHIFT));
    if (!bo || (offset & ((1ull << MMAP_SHIFT) - 1)) || len > bo->size) {
        g_mutex_unlock(&shim.lock);
        errno = EINVAL;
        return MAP_FAILED;
    }
    fd = bo->domain == RADEON_GEM_DOMAIN_VRAM ? shim.vram_fd : shim.ram_fd;
    file_off = bo->offset;
    g_mutex_unlock(&shim.lock);
    /* The same pages the chip sees: a second view of the memfd. */
    p = shim_real_mmap(NULL, len, prot, MAP_SHARED | (flags & MAP_POPULATE),
                       fd, file_off);
    shim_log(2, "mmap bo %u len %zu -> %p", bo->id, len, p);
    if (fd == shim.vram_fd) {
        /* Mesa's view of VRAM: where the renderer's holds trap */
        hold_view_add(p, len, file_off, prot);
    }
    return p;
}

static const char *gem_name(unsigned nr)
{
    switch (nr) {
    case DRM_RADEON_GEM_MMAP: return "GEM_MMAP";
    case DRM_RADEON_GEM_SET_DOMAIN: return "GEM_SET_DOMAIN";
    case DRM_RADEON_GEM_WAIT_IDLE: return "GEM_WAIT_IDLE";
    case DRM_RADEON_GEM_BUSY: return "GEM_BUSY";
    case DRM_RADEON_GEM_GET_TILING: return "GEM_GET_TILING";
    case DRM_RADEON_GEM_OP: return "GEM_OP";
    default: return NULL;
    }
}

int gem_ioctl(ShimFile *f, unsigned nr, void *arg)
{
    ShimBo *bo;

    switch (nr) {
    case DRM_RADEON_GEM_INFO: {
        /* radeon_gem_info_ioctl: pinned kernel buffers are not available */
        struct drm_radeon_gem_info *a = arg;
        a->vram_size = shim.vram_size;
        a->vram_visible = shim.vram_size - shim.vram_pinned;
        a->gart_size = shim.gtt_size - shim.gtt_pinned;
        shim_log(1, "GEM_INFO vram %" G_GUINT64_FORMAT " visible %"
                 G_GUINT64_FORMAT " gart %" G_GUINT64_FORMAT,
                 (uint64_t)a->vram_size, (uint64_t)a->vram_visible,
                 (uint64_t)a->gart_size);
        return 0;
    }
    case DRM_RADEON_GEM_CREATE:
        return gem_create(f, arg);
    case DRM_RADEON_GEM_USERPTR: {
        /* radeon_gem_userptr_ioctl's argument checks for CHIP < R600 */
        struct drm_radeon_gem_userptr *a = arg;
        shim_log(1, "GEM_USERPTR addr 0x%" G_GINT64_MODIFIER "x size %"
                 G_GUINT64_FORMAT " flags 0x%x", (uint64_t)a->addr,
                 (uint64_t)a->size, a->flags);
        if ((a->addr | a->size) & (SHIM_PAGE_SIZE - 1)) {
            return -EINVAL;
        }
        if (a->flags & ~(RADEON_GEM_USERPTR_READONLY |
                         RADEON_GEM_USERPTR_ANONONLY |
                         RADEON_GEM_USERPTR_VALIDATE |
                         RADEON_GEM_USERPTR_REGISTER)) {
            return -EINVAL;
        }
        if (a->flags & RADEON_GEM_USERPTR_READONLY) {
            return -EINVAL;
        }
        if (!(a->flags & RADEON_GEM_USERPTR_ANONONLY) ||
            !(a->flags & RADEON_GEM_USERPTR_REGISTER)) {
            return -EACCES;
        }
        /* user memory cannot become guest RAM of the emulated card */
        shim_log(0, "GEM_USERPTR buffers are not supported by the shim");
        return -ENOMEM;
    }
    case DRM_RADEON_GEM_VA:
        /* no virtual memory before Cayman */
        shim_log(1, "GEM_VA -> -ENOTTY");
        ((struct drm_radeon_gem_va *)arg)->operation = RADEON_VA_RESULT_ERROR;
        return -ENOTTY;
    default:
        break;
    }

    /* The rest name a buffer by handle first. */
    bo = gem_lookup(f, *(uint32_t *)arg);
    if (gem_name(nr)) {
        shim_log(2, "%s handle %u (bo %u)", gem_name(nr), *(uint32_t *)arg,
                 bo ? bo->id : 0);
    }
    if (!bo) {
        return -ENOENT;
    }
    switch (nr) {
    case DRM_RADEON_GEM_MMAP: {
        struct drm_radeon_gem_mmap *a = arg;
        a->addr_ptr = (uint64_t)bo->id << MMAP_SHIFT;
        return 0;
    }
    case DRM_RADEON_GEM_SET_DOMAIN: {
        struct drm_radeon_gem_set_domain *a = arg;
        if (!a->write_domain && !a->read_domains) {
            shim_log(0, "Set domain without domain !");
        }
        /* a CPU domain waits for idle; our CS completes synchronously */
        return 0;
    }
    case DRM_RADEON_GEM_WAIT_IDLE:
        return kms_bo_busy(bo) ? -EBUSY : 0;
    case DRM_RADEON_GEM_BUSY: {
        struct drm_radeon_gem_busy *a = arg;
        a->domain = bo->domain;
        return kms_bo_busy(bo) ? -EBUSY : 0;
    }
    case DRM_RADEON_GEM_SET_TILING: {
        struct drm_radeon_gem_set_tiling *a = arg;
        /* radeon_bo_set_tiling_flags validates only from CEDAR on */
        bo->tiling_flags = a->tiling_flags;
        bo->pitch = a->pitch;
        shim_log(1, "GEM_SET_TILING bo %u flags 0x%x pitch %u", bo->id,
                 a->tiling_flags, a->pitch);
        return 0;
    }
    case DRM_RADEON_GEM_GET_TILING: {
        struct drm_radeon_gem_get_tiling *a = arg;
        a->tiling_flags = bo->tiling_flags;
        a->pitch = bo->pitch;
        return 0;
    }
    case DRM_RADEON_GEM_OP: {
        struct drm_radeon_gem_op *a = arg;
        switch (a->op) {
        case RADEON_GEM_OP_GET_INITIAL_DOMAIN:
            a->value = bo->initial_domain;
            return 0;
        case RADEON_GEM_OP_SET_INITIAL_DOMAIN:
            bo->initial_domain = a->value & (RADEON_GEM_DOMAIN_VRAM |
                                             RADEON_GEM_DOMAIN_GTT |
                                             RADEON_GEM_DOMAIN_CPU);
            return 0;
        default:
            return -EINVAL;
        }
    }
    default:
        return -EINVAL;
    }
}
