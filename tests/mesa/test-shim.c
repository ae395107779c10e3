/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DRM shim seen through libdrm, without Mesa: device discovery, the
 * radeon ioctls' answers and errors, buffer objects, Hyper-Z ownership and
 * the CS ioctl's verdicts.  Runs with LD_PRELOAD=libr500-drm-shim.so.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <radeon_drm.h>

#include "cs.h"

#define NODE "/dev/dri/renderD128"

static int node_open(void)
{
    int fd = open(NODE, O_RDWR | O_CLOEXEC);

    g_assert_cmpint(fd, >=, 0);
    return fd;
}

static int info(int fd, uint32_t request, uint32_t *value)
{
    struct drm_radeon_info a = { .request = request,
                                 .value = (uintptr_t)value };

    return drmCommandWriteRead(fd, DRM_RADEON_INFO, &a, sizeof(a));
}

static void test_discovery(void)
{
    drmDevicePtr devs[8], dev;
    int n = drmGetDevices2(0, devs, 8), fd;
    drmVersionPtr v;
    char *name;

    g_assert_cmpint(n, ==, 1);
    g_assert_cmpint(devs[0]->bustype, ==, DRM_BUS_PCI);
    g_assert_true(devs[0]->available_nodes & (1 << DRM_NODE_RENDER));
    g_assert_cmpstr(devs[0]->nodes[DRM_NODE_RENDER], ==, NODE);
    g_assert_cmphex(devs[0]->deviceinfo.pci->vendor_id, ==, 0x1002);
    g_assert_cmphex(devs[0]->deviceinfo.pci->device_id, ==, 0x7142);
    g_assert_cmphex(devs[0]->deviceinfo.pci->subvendor_id, ==, 0x1af4);
    drmFreeDevices(devs, n);

    fd = node_open();
    g_assert_cmpint(drmGetNodeTypeFromFd(fd), ==, DRM_NODE_RENDER);
    g_assert_cmpint(drmGetDevice2(fd, 0, &dev), ==, 0);
    g_assert_cmpuint(dev->businfo.pci->bus, ==, 1);
    drmFreeDevice(&dev);
    name = drmGetDeviceNameFromFd2(fd);
    g_assert_cmpstr(name, ==, NODE);
    free(name);
    v = drmGetVersion(fd);
    g_assert_cmpstr(v->name, ==, "radeon");
    g_assert_cmpint(v->version_major, ==, 2);
    g_assert_cmpint(v->version_minor, ==, 50);
    drmFreeVersion(v);
    close(fd);
}

static void test_info(void)
{
    int fd = node_open(), fd2;
    uint32_t v;

    g_assert_cmpint(info(fd, RADEON_INFO_DEVICE_ID, &v), ==, 0);
    g_assert_cmphex(v, ==, 0x7142);
    g_assert_cmpint(info(fd, RADEON_INFO_NUM_GB_PIPES, &v), ==, 0);
    g_assert_cmpuint(v, ==, 1);
    /* r6xx+ and VM queries do not exist on R5xx */
    g_assert_cmpint(info(fd, RADEON_INFO_TILING_CONFIG, &v), ==, -EINVAL);
    g_assert_cmpint(info(fd, RADEON_INFO_VA_START, &v), ==, -EINVAL);
    g_assert_cmpint(info(fd, RADEON_INFO_TIMESTAMP, &v), ==, -EINVAL);
    v = RADEON_CS_RING_GFX;
    g_assert_cmpint(info(fd, RADEON_INFO_RING_WORKING, &v), ==, 0);
    g_assert_cmpuint(v, ==, 1);
    v = RADEON_CS_RING_UVD;
    g_assert_cmpint(info(fd, RADEON_INFO_RING_WORKING, &v), ==, 0);
    g_assert_cmpuint(v, ==, 0);
    v = R_RBBM_STATUS;
    g_assert_cmpint(info(fd, RADEON_INFO_READ_REG, &v), ==, 0);
    g_assert_cmphex(v & 0x7F, ==, 0x40);        /* 64 free FIFO entries */
    v = R_WAIT_UNTIL;
    g_assert_cmpint(info(fd, RADEON_INFO_READ_REG, &v), ==, -EINVAL);

    /* Hyper-Z belongs to the first file that asks, until it closes */
    fd2 = node_open();
    v = 1;
    g_assert_cmpint(info(fd, RADEON_INFO_WANT_HYPERZ, &v), ==, 0);
    g_assert_cmpuint(v, ==, 1);
    v = 1;
    g_assert_cmpint(info(fd2, RADEON_INFO_WANT_HYPERZ, &v), ==, 0);
    g_assert_cmpuint(v, ==, 0);
    v = 2;
    g_assert_cmpint(info(fd2, RADEON_INFO_WANT_HYPERZ, &v), ==, -EINVAL);
    close(fd);
    v = 1;
    g_assert_cmpint(info(fd2, RADEON_INFO_WANT_HYPERZ, &v), ==, 0);
    g_assert_cmpuint(v, ==, 1);
    close(fd2);
}

static uint32_t bo_create(int fd, uint64_t size, uint32_t domain)
{
    struct drm_radeon_gem_create c = { .size = size, .alignment = 0,
                                       .initial_domain = domain };

    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_CREATE, &c,
                                        sizeof(c)), ==, 0);
    g_assert_cmpuint(c.size % 4096, ==, 0);
    g_assert_cmpuint(c.size, >=, size);
    return c.handle;
}

static void *bo_map(int fd, uint32_t handle, size_t size)
{
    struct drm_radeon_gem_mmap m = { .handle = handle, .size = size };
    void *p;

    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_MMAP, &m,
                                        sizeof(m)), ==, 0);
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.addr_ptr);
    g_assert_true(p != MAP_FAILED);
    return p;
}

static void test_gem(void)
{
    int fd = node_open(), dupfd;
    uint32_t vram = bo_create(fd, 5000, RADEON_GEM_DOMAIN_VRAM);
    uint32_t gtt = bo_create(fd, 4096, RADEON_GEM_DOMAIN_GTT);
    struct drm_radeon_gem_busy busy = { .handle = vram };
    struct drm_radeon_gem_set_tiling st = { .handle = vram,
                                            .tiling_flags = 3, .pitch = 256 };
    struct drm_radeon_gem_get_tiling gt = { .handle = vram };
    struct drm_radeon_gem_op op = { .handle = gtt,
                                    .op = RADEON_GEM_OP_GET_INITIAL_DOMAIN };
    struct drm_radeon_gem_va va = { .handle = vram, .operation = RADEON_VA_MAP };
    struct drm_radeon_gem_userptr up = { 0 };
    struct drm_radeon_gem_info gi;
    struct drm_gem_close cl = { .handle = vram };
    uint8_t *a, *b;

    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_INFO, &gi,
                                        sizeof(gi)), ==, 0);
    g_assert_cmpuint(gi.vram_size, ==, 256u << 20);
    g_assert_cmpuint(gi.vram_visible, <, gi.vram_size);   /* pinned buffers */
    /* two views of one buffer see the same bytes */
    a = bo_map(fd, vram, 8192);
    b = bo_map(fd, vram, 8192);
    g_assert_cmpuint(a[100], ==, 0);        /* fresh buffers are zeroed */
    memset(a, 0x5A, 8192);
    g_assert_cmpuint(b[8191], ==, 0x5A);
    munmap(a, 8192);
    munmap(b, 8192);
    /* dup()ed descriptors share the file and its handles */
    dupfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    g_assert_cmpint(drmCommandWriteRead(dupfd, DRM_RADEON_GEM_BUSY, &busy,
                                        sizeof(busy)), ==, 0);
    g_assert_cmpuint(busy.domain, ==, RADEON_GEM_DOMAIN_VRAM);
    close(dupfd);
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_SET_TILING, &st,
                                        sizeof(st)), ==, 0);
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_GET_TILING, &gt,
                                        sizeof(gt)), ==, 0);
    g_assert_cmpuint(gt.tiling_flags, ==, 3);
    g_assert_cmpuint(gt.pitch, ==, 256);
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_OP, &op,
                                        sizeof(op)), ==, 0);
    g_assert_cmpuint(op.value, ==, RADEON_GEM_DOMAIN_GTT);
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_VA, &va,
                                        sizeof(va)), ==, -ENOTTY);
    g_assert_cmpuint(va.operation, ==, RADEON_VA_RESULT_ERROR);
    /* the winsys's probe: the ioctl exists but wants flags */
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_USERPTR, &up,
                                        sizeof(up)), ==, -EACCES);
    g_assert_cmpint(drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), ==, 0);
    g_assert_cmpint(drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), ==, -1);
    g_assert_cmpint(errno, ==, EINVAL);
    busy.handle = vram;
    g_assert_cmpint(drmCommandWriteRead(fd, DRM_RADEON_GEM_BUSY, &busy,
                                        sizeof(busy)), ==, -ENOENT);
    close(fd);
}

static int submit(int fd, const uint32_t *ib, uint32_t ndw,
                  const struct drm_radeon_cs_reloc *relocs, uint32_t nrelocs,
                  uint32_t ring)
{
    uint32_t flags[2] = { RADEON_CS_KEEP_TILING_FLAGS, ring };
    struct drm_radeon_cs_chunk chunks[3] = {
        { RADEON_CHUNK_ID_IB, ndw, (uintptr_t)ib },
        { RADEON_CHUNK_ID_RELOCS, nrelocs * 4, (uintptr_t)relocs },
        { RADEON_CHUNK_ID_FLAGS, 2, (uintptr_t)flags },
    };
    uint64_t ptrs[3] = { (uintptr_t)&chunks[0], (uintptr_t)&chunks[1],
                         (uintptr_t)&chunks[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };

    return drmCommandWriteRead(fd, DRM_RADEON_CS, &cs, sizeof(cs));
}

static void test_cs(void)
{
    int fd = node_open();
    uint32_t cb = bo_create(fd, 64 * 64 * 4, RADEON_GEM_DOMAIN_VRAM);
    struct drm_radeon_cs_reloc rel = { .handle = cb, .read_domains = 4,
                                       .write_domain = 4 };
    uint32_t ib[32], n = 0;

    ib[n++] = R500_PM4_PACKET0(R500_REGA_AT(RB3D_COLOROFFSET, 0), 0);
    ib[n++] = 0;
    ib[n++] = R500_PM4_PACKET3(R500_PM4_OP_NOP, 0);  /* relocation marker */
    ib[n++] = 0;
    ib[n++] = R500_PM4_PACKET0(R_ZB_CNTL, 0);
    ib[n++] = 0;
    ib[n++] = R500_PM4_PACKET0(R_VAP_VTX_SIZE, 0);
    ib[n++] = 4;
    ib[n++] = R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 12);
    ib[n++] = 4 | (3 << 4) | (3u << 16);
    for (int i = 0; i < 12; i++) {
        ib[n++] = 0;
    }
    g_assert_cmpint(submit(fd, ib, n, &rel, 1, RADEON_CS_RING_GFX), ==, 0);
    /* no DMA ring before RV770, unknown rings refused */
    g_assert_cmpint(submit(fd, ib, n, &rel, 1, RADEON_CS_RING_DMA), ==,
                    -EINVAL);
    g_assert_cmpint(submit(fd, ib, n, &rel, 1, 9), ==, -EINVAL);
    /* an unknown handle, a missing marker */
    rel.handle = 77;
    g_assert_cmpint(submit(fd, ib, n, &rel, 1, RADEON_CS_RING_GFX), ==,
                    -ENOENT);
    rel.handle = cb;
    ib[2] = R500_PM4_PACKET0(R_WAIT_UNTIL, 0);
    g_assert_cmpint(submit(fd, ib, n, &rel, 1, RADEON_CS_RING_GFX), ==,
                    -EINVAL);
    close(fd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/drm-shim/discovery", test_discovery);
    g_test_add_func("/drm-shim/info", test_info);
    g_test_add_func("/drm-shim/gem", test_gem);
    g_test_add_func("/drm-shim/cs", test_cs);
    return g_test_run();
}
