/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ioctl dispatch for the fake render node: the DRM core ioctls a render
 * client may use (drm_ioctl.c's DRM_RENDER_ALLOW set) and the radeon KMS
 * ioctls (radeon_kms.c radeon_ioctls_kms), answered the way radeon 2.50.0
 * answers them for our chip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <radeon_drm.h>

#include "shim.h"

Shim shim = {
    .vram_fd = -1,
    .ram_fd = -1,
};

static FILE *log_file;

__attribute__((constructor))
static void shim_config(void)
{
    const char *model = getenv("R500_MODEL");
    const char *dbg = getenv("R500_SHIM_DEBUG");
    const char *log = getenv("R500_SHIM_LOG");
    int m = model ? r500_model_from_name(model) : R500_MODEL_RV515;

    if (m < 0) {
        fprintf(stderr, "r500-drm-shim: unknown R500_MODEL '%s', using rv515\n",
                model);
        m = R500_MODEL_RV515;
    }
    shim.model = m;
    shim.log_level = dbg ? atoi(dbg) : 0;
    if (log && *log) {
        log_file = fopen(log, "we");
    }
}

void shim_log(int level, const char *fmt, ...)
{
    va_list ap;
    FILE *f = log_file ? log_file : stderr;

    if (level > shim.log_level) {
        return;
    }
    fputs("r500-drm-shim: ", f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

ShimFile *shim_file_new(void)
{
    ShimFile *f = g_new0(ShimFile, 1);

    f->handles = g_hash_table_new(NULL, NULL);
    f->next_handle = 1;
    return f;
}

/* Called with the lock held when a descriptor of f goes away. */
void shim_file_unref(ShimFile *f)
{
    if (--f->fds > 0) {
        return;
    }
    /* radeon_driver_postclose_kms: the file gives up Hyper-Z and CMASK */
    if (shim.hyperz_owner == f) {
        shim.hyperz_owner = NULL;
    }
    if (shim.cmask_owner == f) {
        shim.cmask_owner = NULL;
    }
    gem_file_release(f);
    g_hash_table_unref(f->handles);
    g_free(f);
}

/* drm_copy_field: copy what fits, report the full length. */
static void copy_field(char *buf, __kernel_size_t *len, const char *value)
{
    size_t n = strlen(value);

    if (buf && *len) {
        memcpy(buf, value, MIN(n, *len));
    }
    *len = n;
}

static int drm_version(struct drm_version *v)
{
    /* radeon_drv.c: KMS_DRIVER_MAJOR/MINOR/PATCHLEVEL, name, date, desc */
    v->version_major = 2;
    v->version_minor = 50;
    v->version_patchlevel = 0;
    copy_field(v->name, &v->name_len, "radeon");
    copy_field(v->date, &v->date_len, "20080528");
    copy_field(v->desc, &v->desc_len, "ATI Radeon");
    return 0;
}

static int drm_get_cap(struct drm_get_cap *c)
{
    switch (c->capability) {
    case DRM_CAP_TIMESTAMP_MONOTONIC:
    case DRM_CAP_DUMB_BUFFER:
    case DRM_CAP_VBLANK_HIGH_CRTC:
    case DRM_CAP_DUMB_PREFER_SHADOW:
    case DRM_CAP_ASYNC_PAGE_FLIP:
    case DRM_CAP_PAGE_FLIP_TARGET:
    case DRM_CAP_CRTC_IN_VBLANK_EVENT:
        c->value = 1;
        return 0;
    case DRM_CAP_PRIME:
        c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
        return 0;
    case DRM_CAP_DUMB_PREFERRED_DEPTH:
        c->value = 24;
        return 0;
    case DRM_CAP_CURSOR_WIDTH:
    case DRM_CAP_CURSOR_HEIGHT:
        c->value = 64;
        return 0;
    case DRM_CAP_SYNCOBJ:
    case DRM_CAP_SYNCOBJ_TIMELINE:
    case DRM_CAP_ADDFB2_MODIFIERS:
        c->value = 0;
        return 0;
    default:
        return -EINVAL;
    }
}

static const char *const info_names[] = {
    [RADEON_INFO_DEVICE_ID] = "DEVICE_ID",
    [RADEON_INFO_NUM_GB_PIPES] = "NUM_GB_PIPES",
    [RADEON_INFO_NUM_Z_PIPES] = "NUM_Z_PIPES",
    [RADEON_INFO_ACCEL_WORKING] = "ACCEL_WORKING",
    [RADEON_INFO_CRTC_FROM_ID] = "CRTC_FROM_ID",
    [RADEON_INFO_ACCEL_WORKING2] = "ACCEL_WORKING2",
    [RADEON_INFO_TILING_CONFIG] = "TILING_CONFIG",
    [RADEON_INFO_WANT_HYPERZ] = "WANT_HYPERZ",
    [RADEON_INFO_WANT_CMASK] = "WANT_CMASK",
    [RADEON_INFO_CLOCK_CRYSTAL_FREQ] = "CLOCK_CRYSTAL_FREQ",
    [RADEON_INFO_NUM_BACKENDS] = "NUM_BACKENDS",
    [RADEON_INFO_NUM_TILE_PIPES] = "NUM_TILE_PIPES",
    [RADEON_INFO_FUSION_GART_WORKING] = "FUSION_GART_WORKING",
    [RADEON_INFO_BACKEND_MAP] = "BACKEND_MAP",
    [RADEON_INFO_VA_START] = "VA_START",
    [RADEON_INFO_IB_VM_MAX_SIZE] = "IB_VM_MAX_SIZE",
    [RADEON_INFO_MAX_PIPES] = "MAX_PIPES",
    [RADEON_INFO_TIMESTAMP] = "TIMESTAMP",
    [RADEON_INFO_MAX_SE] = "MAX_SE",
    [RADEON_INFO_MAX_SH_PER_SE] = "MAX_SH_PER_SE",
    [RADEON_INFO_FASTFB_WORKING] = "FASTFB_WORKING",
    [RADEON_INFO_RING_WORKING] = "RING_WORKING",
    [RADEON_INFO_SI_TILE_MODE_ARRAY] = "SI_TILE_MODE_ARRAY",
    [RADEON_INFO_SI_CP_DMA_COMPUTE] = "SI_CP_DMA_COMPUTE",
    [RADEON_INFO_CIK_MACROTILE_MODE_ARRAY] = "CIK_MACROTILE_MODE_ARRAY",
    [RADEON_INFO_SI_BACKEND_ENABLED_MASK] = "SI_BACKEND_ENABLED_MASK",
    [RADEON_INFO_MAX_SCLK] = "MAX_SCLK",
    [RADEON_INFO_VCE_FW_VERSION] = "VCE_FW_VERSION",
    [RADEON_INFO_VCE_FB_VERSION] = "VCE_FB_VERSION",
    [RADEON_INFO_NUM_BYTES_MOVED] = "NUM_BYTES_MOVED",
    [RADEON_INFO_VRAM_USAGE] = "VRAM_USAGE",
    [RADEON_INFO_GTT_USAGE] = "GTT_USAGE",
    [RADEON_INFO_ACTIVE_CU_COUNT] = "ACTIVE_CU_COUNT",
    [RADEON_INFO_CURRENT_GPU_TEMP] = "CURRENT_GPU_TEMP",
    [RADEON_INFO_CURRENT_GPU_SCLK] = "CURRENT_GPU_SCLK",
    [RADEON_INFO_CURRENT_GPU_MCLK] = "CURRENT_GPU_MCLK",
    [RADEON_INFO_READ_REG] = "READ_REG",
    [RADEON_INFO_VA_UNMAP_WORKING] = "VA_UNMAP_WORKING",
    [RADEON_INFO_GPU_RESET_COUNTER] = "GPU_RESET_COUNTER",
};

static const char *info_name(uint32_t req)
{
    return req < G_N_ELEMENTS(info_names) && info_names[req]
           ? info_names[req] : "?";
}

/* radeon_set_filp_rights */
static void set_rights(ShimFile **owner, ShimFile *f, uint32_t *value)
{
    if (*value == 1 && !*owner) {
        *owner = f;
    } else if (*value == 0 && *owner == f) {
        *owner = NULL;
    }
    *value = *owner == f;
}

/*
 * radeon_info_ioctl for CHIP_RV515..CHIP_R580 (radeon_kms.c).  Clocks are
 * the defaults of our AtomBIOS FirmwareInfo (reference atombios-rom.md
 * 5.1: engine 450 MHz, memory 250 MHz, reference 27 MHz), which is what
 * radeon_pm and radeon_get_clock_info read.
 */
static int radeon_info(ShimFile *f, struct drm_radeon_info *info)
{
    const R500ModelInfo *m = r500_model_info(shim.model);
    uint32_t *ptr = (uint32_t *)(uintptr_t)info->value;
    uint32_t v = 0;
    uint64_t v64 = 0;
    bool wide = false;

    switch (info->request) {
    case RADEON_INFO_DEVICE_ID:
        v = m->device_id;
        break;
    case RADEON_INFO_NUM_GB_PIPES:
        v = m->quad_pipes;
        break;
    case RADEON_INFO_NUM_Z_PIPES:
        v = m->z_pipes;
        break;
    case RADEON_INFO_ACCEL_WORKING:
    case RADEON_INFO_ACCEL_WORKING2:
        v = 1;
        break;
    case RADEON_INFO_CRTC_FROM_ID:
        /* a render-only device has no KMS CRTC objects */
        return -EINVAL;
    case RADEON_INFO_WANT_HYPERZ:
    case RADEON_INFO_WANT_CMASK:
        v = *ptr;
        if (v >= 2) {
            return -EINVAL;
        }
        set_rights(info->request == RADEON_INFO_WANT_HYPERZ
                   ? &shim.hyperz_owner : &shim.cmask_owner, f, &v);
        break;
    case RADEON_INFO_CLOCK_CRYSTAL_FREQ:
        v = 2700 * 10;          /* spll reference_freq * 10, in kHz */
        break;
    case RADEON_INFO_FUSION_GART_WORKING:
    case RADEON_INFO_MAX_SE:
    case RADEON_INFO_SI_CP_DMA_COMPUTE:
    case RADEON_INFO_ACTIVE_CU_COUNT:
    case RADEON_INFO_VA_UNMAP_WORKING:
        v = 1;
        break;
    case RADEON_INFO_FASTFB_WORKING:       /* RS780/RS880 only */
    case RADEON_INFO_VCE_FW_VERSION:
    case RADEON_INFO_VCE_FB_VERSION:
    case RADEON_INFO_CURRENT_GPU_TEMP:     /* no sensor on R5xx */
    case RADEON_INFO_GPU_RESET_COUNTER:
    case RADEON_INFO_SI_BACKEND_ENABLED_MASK:
        v = 0;
        break;
    case RADEON_INFO_RING_WORKING:
        switch (*ptr) {
        case RADEON_CS_RING_GFX:
        case RADEON_CS_RING_COMPUTE:
            v = 1;
            break;
        case RADEON_CS_RING_DMA:
        case RADEON_CS_RING_UVD:
        case RADEON_CS_RING_VCE:
            v = 0;      /* no such ring before R600/RV770 */
            break;
        default:
            return -EINVAL;
        }
        break;
    case RADEON_INFO_MAX_SCLK:
        v = 45000 * 10;         /* default_sclk (10 kHz) * 10 */
        break;
    case RADEON_INFO_CURRENT_GPU_SCLK:
        v = 450;                /* MHz */
        break;
    case RADEON_INFO_CURRENT_GPU_MCLK:
        v = 250;
        break;
    case RADEON_INFO_NUM_BYTES_MOVED:
        wide = true;            /* buffers never migrate here */
        break;
    case RADEON_INFO_VRAM_USAGE:
        wide = true;
        v64 = gem_usage(RADEON_GEM_DOMAIN_VRAM);
        break;
    case RADEON_INFO_GTT_USAGE:
        wide = true;
        v64 = gem_usage(RADEON_GEM_DOMAIN_GTT);
        break;
    case RADEON_INFO_READ_REG:
        /* r100_get_allowed_info_register: RBBM_STATUS only */
        if (*ptr != R_RBBM_STATUS) {
            return -EINVAL;
        }
        v = r500_reg_read(&shim.chip, R_RBBM_STATUS);
        break;
    case RADEON_INFO_TILING_CONFIG:         /* r6xx+ only */
    case RADEON_INFO_NUM_BACKENDS:
    case RADEON_INFO_NUM_TILE_PIPES:
    case RADEON_INFO_BACKEND_MAP:
    case RADEON_INFO_VA_START:              /* no VM before Cayman */
    case RADEON_INFO_IB_VM_MAX_SIZE:
    case RADEON_INFO_MAX_PIPES:
    case RADEON_INFO_TIMESTAMP:
    case RADEON_INFO_MAX_SH_PER_SE:
    case RADEON_INFO_SI_TILE_MODE_ARRAY:
    case RADEON_INFO_CIK_MACROTILE_MODE_ARRAY:
    default:
        return -EINVAL;
    }
    if (wide) {
        memcpy(ptr, &v64, sizeof(v64));
        shim_log(1, "INFO %s -> %" G_GUINT64_FORMAT, info_name(info->request),
                 v64);
    } else {
        *ptr = v;
        shim_log(1, "INFO %s -> %u (0x%x)", info_name(info->request), v, v);
    }
    return 0;
}

static int radeon_ioctl(ShimFile *f, unsigned nr, void *arg)
{
    switch (nr) {
    case DRM_RADEON_INFO: {
        int r = radeon_info(f, arg);
        if (r) {
            shim_log(1, "INFO %s -> %d",
                     info_name(((struct drm_radeon_info *)arg)->request), r);
        }
        return r;
    }
    case DRM_RADEON_CS:
        return kms_cs_ioctl(f, arg);
    case DRM_RADEON_GEM_INFO:
    case DRM_RADEON_GEM_CREATE:
    case DRM_RADEON_GEM_MMAP:
    case DRM_RADEON_GEM_SET_DOMAIN:
    case DRM_RADEON_GEM_WAIT_IDLE:
    case DRM_RADEON_GEM_SET_TILING:
    case DRM_RADEON_GEM_GET_TILING:
    case DRM_RADEON_GEM_BUSY:
    case DRM_RADEON_GEM_VA:
    case DRM_RADEON_GEM_OP:
    case DRM_RADEON_GEM_USERPTR:
        return gem_ioctl(f, nr, arg);
    case DRM_RADEON_GEM_PREAD:
    case DRM_RADEON_GEM_PWRITE:
        shim_log(0, "unimplemented GEM_PREAD/PWRITE (as in the kernel)");
        return -ENOSYS;
    default:
        /* the UMS ioctls carry no DRM_RENDER_ALLOW */
        shim_log(1, "radeon ioctl 0x%02x refused on a render node", nr);
        return -EACCES;
    }
}

int shim_ioctl(int fd, unsigned long request, void *arg)
{
    unsigned nr = _IOC_NR(request);
    ShimFile *f;
    int r;

    if (_IOC_TYPE(request) != DRM_IOCTL_BASE) {
        errno = ENOTTY;
        return -1;
    }
    g_mutex_lock(&shim.lock);
    f = g_hash_table_lookup(shim.fds, GINT_TO_POINTER(fd));
    if (!f) {
        r = -EBADF;
    } else if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
        r = radeon_ioctl(f, nr - DRM_COMMAND_BASE, arg);
    } else {
        switch (nr) {
        case _IOC_NR(DRM_IOCTL_VERSION):
            r = drm_version(arg);
            shim_log(1, "VERSION -> radeon 2.50.0");
            break;
        case _IOC_NR(DRM_IOCTL_GET_CAP):
            r = drm_get_cap(arg);
            shim_log(1, "GET_CAP 0x%" G_GINT64_MODIFIER "x -> %d",
                     (uint64_t)((struct drm_get_cap *)arg)->capability, r);
            break;
        case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
            r = gem_close(f, ((struct drm_gem_close *)arg)->handle);
            shim_log(2, "GEM_CLOSE handle %u -> %d",
                     ((struct drm_gem_close *)arg)->handle, r);
            break;
        case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
        case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
            shim_log(0, "PRIME is not supported by the shim yet");
            r = -ENOSYS;
            break;
        default:
            /* GEM_FLINK/OPEN, auth, modesetting: not for render nodes */
            shim_log(1, "DRM ioctl 0x%02x refused on a render node", nr);
            r = -EACCES;
            break;
        }
    }
    g_mutex_unlock(&shim.lock);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return r;
}
