/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500 DRM shim: an LD_PRELOAD library that presents the emulated card as
 * a radeon KMS render node to unmodified Mesa.
 *
 *   libc.c   the fake device node and sysfs (open, stat, readlink, ...)
 *   drm.c    ioctl dispatch: DRM core ioctls and the radeon ioctls
 *   gem.c    buffer objects and the VRAM / GTT memory managers
 *   kms.c    what the radeon kernel driver does to the chip: MC, GART,
 *            CP ring, fences, IB submission (the place the CP plugs in)
 *
 * Everything runs under one lock: Mesa submits from a worker thread.
 */
#ifndef R500_DRM_SHIM_H
#define R500_DRM_SHIM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "r500.h"
#include "cs.h"
#include "kdrv.h"

/* The node we present: /dev/dri/renderD128, char device 226:128. */
#define SHIM_DRM_MAJOR      226
#define SHIM_RENDER_MINOR   128
#define SHIM_PAGE_SIZE      4096u

typedef struct ShimFile ShimFile;

/* A GEM buffer object (radeon_bo). */
typedef struct ShimBo {
    uint32_t id;            /* process-wide, 1..; names the mmap offset */
    unsigned refs;          /* handles referring to it, in all files */
    uint64_t size;          /* bytes, page multiple */
    uint32_t domain;        /* RADEON_GEM_DOMAIN_VRAM or _GTT: where it is */
    uint32_t initial_domain;
    uint32_t flags;         /* RADEON_GEM_* creation flags */
    uint64_t offset;        /* byte offset in VRAM or in the GTT aperture */
    uint64_t gpu_addr;      /* MC address the relocations add */
    uint8_t *ptr;           /* host view of the backing store */
    uint32_t tiling_flags;  /* GEM_SET_TILING */
    uint32_t pitch;
    uint64_t last_seq;      /* fence of the last CS that used it */
    /* capture bookkeeping */
    bool cap_known;         /* a BO record was written */
    uint32_t cap_tiling, cap_pitch;     /* as that record said */
    uint8_t *cap_copy;      /* contents as last written, NULL before */
} ShimBo;

/* One open() of the render node; dup()ed descriptors share it. */
struct ShimFile {
    GHashTable *handles;    /* handle -> ShimBo * */
    uint32_t next_handle;
    unsigned fds;
};

/* A range allocator for VRAM and the GTT aperture (first fit). */
typedef struct ShimHeap {
    const char *name;
    uint64_t size;
    GArray *used;           /* ShimRange, sorted by start */
    uint64_t in_use;
} ShimHeap;

typedef struct ShimRange {
    uint64_t start, size;
} ShimRange;

typedef struct Shim {
    GMutex lock;
    bool ready;
    bool failed;

    /* The chip and its memory. */
    R500Chip chip;
    R500Model model;
    int vram_fd, ram_fd;    /* memfds: VRAM and the "guest RAM" under GTT */
    uint8_t *vram, *ram;
    uint64_t vram_size, ram_size;

    /* Memory map, as radeon_vram_location/radeon_gtt_location lay it out. */
    uint64_t vram_start;    /* MC address of VRAM */
    uint64_t gtt_start;     /* MC address of the GART aperture */
    uint64_t gtt_size;
    ShimHeap vram_heap, gtt_heap;
    uint64_t vram_pinned, gtt_pinned;
    /* The kernel's side of the chip: GART, ring, fences (kdrv.h). */
    KDrv kd;

    /* Objects. */
    GHashTable *bos;        /* id -> ShimBo * */
    uint32_t next_bo_id;
    GHashTable *fds;        /* fd -> ShimFile * */
    ShimFile *hyperz_owner, *cmask_owner;

    /* Capture (R500_CAPTURE) and statistics (R500_SHIM_STATS). */
    CapWriter *cap;
    CsStats *stats;
    char *stats_path;
    unsigned long cs_count, cs_rejected, cs_not_executed;
    int log_level;          /* 0 errors, 1 + ioctls, 2 + packets */
} Shim;

extern Shim shim;

/* libc.c: the real libc functions behind the interposed ones. */
int shim_real_open(const char *path, int flags, mode_t mode);
int shim_real_close(int fd);
void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
                     off_t off);
struct sigaction;
int shim_real_sigaction(int sig, const struct sigaction *act,
                        struct sigaction *old);

/*
 * hold.c: the renderer's holds on Mesa's views of VRAM (R500HostOps
 * vram_hold): the views gem_mmap() hands out, forgotten at munmap(); the
 * application's SIGSEGV action (sigaction(), false: not the shim's);
 * faults that released a hold.
 */
void hold_init(void);
void hold_view_add(void *addr, uint64_t len, uint64_t off, int prot);
void hold_view_remove(void *addr, uint64_t len);
bool hold_sigaction(const struct sigaction *act, struct sigaction *old);
uint64_t hold_faults(void);

/* drm.c */
int shim_ioctl(int fd, unsigned long request, void *arg);
void shim_log(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
ShimFile *shim_file_new(void);
void shim_file_unref(ShimFile *f);

/* gem.c */
void gem_init(void);
ShimBo *gem_lookup(ShimFile *f, uint32_t handle);
int gem_ioctl(ShimFile *f, unsigned nr, void *arg);
int gem_close(ShimFile *f, uint32_t handle);
void gem_file_release(ShimFile *f);
void *gem_mmap(uint64_t offset, size_t len, int prot, int flags);
uint64_t gem_usage(uint32_t domain);
bool heap_alloc(ShimHeap *h, uint64_t size, uint64_t align, uint64_t *out);
void heap_free(ShimHeap *h, uint64_t start);

/* kms.c */
bool kms_init(char **err);
void kms_gart_bind(uint64_t gtt_off, uint64_t size, bool bind);
int kms_cs_ioctl(ShimFile *f, void *arg);
bool kms_bo_busy(const ShimBo *bo);

#endif
