/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The radeon kernel driver's side of the chip, done here on the chip core:
 * the memory controller and PCIE GART as rv515_startup programs them, the
 * CP ring as r100_cp_init and rv515_ring_start set it up, and the CS ioctl
 * (radeon_cs.c): chunks, relocations, the R300/R500 checker (tools/cs),
 * then the IB dispatched on the ring with a fence (r100_ring_ib_execute,
 * r300_fence_ring_emit) and waited for.
 *
 * Where the CP plugs in: nowhere in this file.  kms_submit() writes the
 * ring exactly as the kernel does and writes CP_RB_WPTR through the one
 * register path; it then runs the chip (r500_run) until the fence value
 * appears in the write-back page.  A core with a CP block that consumes
 * the ring on CP_RB_WPTR, executes CP_IB_BASE/CP_IB_BUFSZ and mirrors
 * SCRATCH_REG writes to SCRATCH_ADDR executes Mesa's streams with no
 * change here.  Until then nothing moves CP_RB_RPTR: the stream is
 * recorded as "not executed" and its fence counted as signalled, so Mesa
 * carries on (reference radeon-kms-r500.md 5.2-5.8).
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
/* radeon_ttm_init: the first 256 KiB of VRAM stay with VGA */
#define STOLEN_VGA_SIZE     (256u << 10)
/* r300_startup: r100_cp_init(rdev, 1024 * 1024) */
#define RING_SIZE           (1u << 20)
/* radeon_ib_pool_init: RADEON_IB_POOL_SIZE (16) * 64 KiB */
#define IB_POOL_SIZE        (1u << 20)
/* radeon.h: write-back page layout */
#define WB_SCRATCH_OFFSET   0
#define WB_CP_RPTR_OFFSET   1024

/* r300.c / radeon_reg.h bit values (not offsets) */
#define PTE_UNSNOOPED       (1u << 0)
#define PTE_WRITEABLE       (1u << 2)
#define PTE_READABLE        (1u << 3)
#define GART_EN             (1u << 0)
#define GART_UNMAPPED_DISCARD (3u << 1)
#define GART_INVALIDATE_TLB (1u << 8)
#define ISYNC_ANY2D_IDLE3D  (1u << 0)
#define ISYNC_ANY3D_IDLE2D  (1u << 1)
#define ISYNC_WAIT_IDLEGUI  (1u << 4)
#define ISYNC_CPSCRATCH_IDLEGUI (1u << 5)
#define WAIT_DMA_GUI_IDLE   (1u << 9)
#define WAIT_2D_IDLECLEAN   (1u << 16)
#define WAIT_3D_IDLECLEAN   (1u << 17)
#define DC_FLUSH            (2u << 0)
#define DC_FREE             (2u << 2)
#define ZC_FLUSH            (1u << 0)
#define ZC_FREE             (1u << 1)
#define CSQ_PRIBM_INDBM     (4u << 28)

/* Bounds on one wait for the CP: r500_run slices and host seconds. */
#define WAIT_MAX_RUNS       (1u << 24)
#define WAIT_MAX_SECONDS    60

/* ---- host side of the chip ---- */

static bool host_dma_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    if (addr > shim.ram_size || len > shim.ram_size - addr) {
        return false;
    }
    memcpy(buf, shim.ram + addr, len);
    return true;
}

static bool host_dma_write(void *opaque, uint64_t addr, const void *buf,
                           uint64_t len)
{
    if (addr > shim.ram_size || len > shim.ram_size - addr) {
        return false;
    }
    memcpy(shim.ram + addr, buf, len);
    return true;
}

static void host_set_irq(void *opaque, bool level)
{
    /* fences are polled; the line is only traced */
    shim_log(2, "irq %d", level);
}

static int64_t host_clock(void *opaque)
{
    return shim.clock_ns;
}

static void host_schedule(void *opaque, int64_t deadline)
{
    shim.deadline_ns = deadline;
}

static void host_log(void *opaque, R500LogKind kind, const char *msg)
{
    shim_log(kind == R500_LOG_GUEST_ERROR ? 0 : 1, "chip %s: %s",
             kind == R500_LOG_GUEST_ERROR ? "guest error" : "unimplemented",
             msg);
}

static const R500HostOps host_ops = {
    .dma_read = host_dma_read,
    .dma_write = host_dma_write,
    .set_irq = host_set_irq,
    .clock_ns = host_clock,
    .schedule = host_schedule,
    .log = host_log,
};

/* ---- register access, as WREG32/WREG32_MC/WREG32_PCIE do it ---- */

static void wreg(uint32_t reg, uint32_t v)
{
    r500_reg_write(&shim.chip, reg, v);
}

static uint32_t rreg(uint32_t reg)
{
    return r500_reg_read(&shim.chip, reg);
}

static void wreg_mc(R500McReg reg, uint32_t v)
{
    int idx = r500_mc_index(shim.chip.info->mc_map, reg);

    wreg(R_MC_IND_INDEX, R500_FSET(R500_FMASK(MC_IND_INDEX, WR_EN),
                                   MC_IND_INDEX, ADDR, idx));
    wreg(R_MC_IND_DATA, v);
    wreg(R_MC_IND_INDEX, 0);
}

static void wreg_pcie(uint32_t idx, uint32_t v)
{
    wreg(R_PCIE_INDEX, idx);
    wreg(R_PCIE_DATA, v);
}

static uint32_t rreg_pcie(uint32_t idx)
{
    wreg(R_PCIE_INDEX, idx);
    return rreg(R_PCIE_DATA);
}

/* ---- memory ---- */

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

/* rv370_pcie_gart_tlb_flush: twice, as the hardware erratum wants */
static void gart_tlb_flush(void)
{
    for (int i = 0; i < 2; i++) {
        uint32_t tmp = rreg_pcie(PCIE_PCIE_TX_GART_CNTL);
        wreg_pcie(PCIE_PCIE_TX_GART_CNTL, tmp | GART_INVALIDATE_TLB);
        (void)rreg_pcie(PCIE_PCIE_TX_GART_CNTL);
        wreg_pcie(PCIE_PCIE_TX_GART_CNTL, tmp);
    }
}

/* rv370_pcie_gart_set_page for every page of [gtt_off, gtt_off + size) */
void kms_gart_bind(uint64_t gtt_off, uint64_t size, bool bind)
{
    for (uint64_t off = gtt_off; off < gtt_off + size; off += SHIM_PAGE_SIZE) {
        /* GTT page n is backed by guest RAM page n (bus address off) */
        uint64_t addr = bind ? off : shim.dummy_page;
        uint32_t e = (uint32_t)(addr >> 8) & 0x00FFFFF0;

        e |= (uint32_t)((addr >> 32) & 0xFF) << 24;
        e |= PTE_UNSNOOPED | (bind ? PTE_WRITEABLE | PTE_READABLE : 0);
        e = GUINT32_TO_LE(e);
        memcpy(shim.vram + shim.gart_table + (off / SHIM_PAGE_SIZE) * 4, &e, 4);
    }
    gart_tlb_flush();
}

/* radeon_bo_create(..., pinned) of a kernel buffer */
static bool kernel_bo(ShimHeap *h, uint64_t size, uint64_t *off)
{
    if (!heap_alloc(h, size, SHIM_PAGE_SIZE, off)) {
        return false;
    }
    if (h == &shim.gtt_heap) {
        shim.gtt_pinned += size;
        kms_gart_bind(*off, size, true);
    } else {
        shim.vram_pinned += size;
    }
    return true;
}

/* ---- ring ---- */

static void ring_write(uint32_t v)
{
    uint32_t le = GUINT32_TO_LE(v);

    memcpy(shim.ram + shim.ring_off + (shim.ring_wptr & (RING_SIZE / 4 - 1)) * 4,
           &le, 4);
    shim.ring_wptr = (shim.ring_wptr + 1) & (RING_SIZE / 4 - 1);
}

static void ring_reg(uint32_t reg, uint32_t v)
{
    ring_write(CS_PKT0(reg, 1));
    ring_write(v);
}

/* radeon_ring_commit: pad to 16 dwords with type-2 packets, bump WPTR */
static void ring_commit(void)
{
    while (shim.ring_wptr & 15) {
        ring_write(CS_PKT2);
    }
    wreg(R_CP_RB_WPTR, shim.ring_wptr);
    (void)rreg(R_CP_RB_WPTR);
}

static uint32_t fence_read(void)
{
    uint32_t v;

    /* radeon_fence_read with write-back: the scratch mirror in memory */
    memcpy(&v, shim.ram + shim.wb_off + WB_SCRATCH_OFFSET +
           (shim.fence_scratch - R_SCRATCH_REG) , 4);
    return GUINT32_FROM_LE(v);
}

/*
 * Run the chip until done() or until nothing is scheduled; virtual time
 * jumps to each deadline the core asks for.  Returns whether done().
 */
static bool run_until(bool (*done)(void *), void *opaque)
{
    uint32_t rptr0 = rreg(R_CP_RB_RPTR);
    time_t start = time(NULL);

    for (uint32_t i = 0; i < WAIT_MAX_RUNS; i++) {
        int64_t d;

        if (done(opaque)) {
            break;
        }
        d = shim.deadline_ns;
        if (d < 0) {
            break;          /* idle: nothing will ever change */
        }
        shim.deadline_ns = -1;
        if (d > shim.clock_ns) {
            shim.clock_ns = d;
        }
        r500_run(&shim.chip);
        if ((i & 1023) == 1023 && time(NULL) - start > WAIT_MAX_SECONDS) {
            shim_log(0, "gave up waiting for the CP after %d s",
                     WAIT_MAX_SECONDS);
            break;
        }
    }
    if (rreg(R_CP_RB_RPTR) != rptr0) {
        shim.cp_seen = true;
    }
    return done(opaque);
}

static bool fence_done(void *opaque)
{
    uint32_t seq = *(uint32_t *)opaque;

    return (int32_t)(fence_read() - seq) >= 0;
}

static bool scratch_is(void *opaque)
{
    uint32_t *want = opaque;

    return rreg(want[0]) == want[1];
}

/* r300_fence_ring_emit */
static void fence_emit(uint32_t seq)
{
    ring_reg(R_RE_SCISSORS_TL, 0);
    ring_reg(R_RE_SCISSORS_BR, 0);
    ring_reg(R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH);
    ring_reg(R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH);
    ring_reg(R_WAIT_UNTIL, WAIT_3D_IDLECLEAN | WAIT_2D_IDLECLEAN |
                           WAIT_DMA_GUI_IDLE);
    ring_reg(R_HOST_PATH_CNTL, shim.hdp_cntl |
             R500_FMASK(HOST_PATH_CNTL, HDP_READ_BUFFER_INVALIDATE));
    ring_reg(R_HOST_PATH_CNTL, shim.hdp_cntl);
    ring_reg(shim.fence_scratch, seq);
    ring_reg(R_GEN_INT_STATUS, R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE));
}

/*
 * The one place an IB reaches the chip: r100_ring_ib_execute, a fence,
 * radeon_ring_commit, then radeon_fence_wait.  The IB is already in the
 * GTT at ib_gpu.
 */
static ShimExec kms_submit(uint64_t ib_gpu, uint32_t ndw)
{
    uint32_t seq = (uint32_t)++shim.fence_seq;
    uint32_t start = shim.ring_wptr;

    ring_write(CS_PKT0(R_CP_IB_BASE, 2));
    ring_write((uint32_t)ib_gpu);
    ring_write(ndw);
    fence_emit(seq);
    ring_commit();
    if (shim.log_level >= 2 && shim.ring_wptr > start) {
        GString *d = g_string_new(NULL);

        cs_decode((const uint32_t *)(shim.ram + shim.ring_off) + start,
                  shim.ring_wptr - start, d);
        shim_log(2, "ring dwords %u..%u:\n%s", start, shim.ring_wptr, d->str);
        g_string_free(d, TRUE);
    }
    if (run_until(fence_done, &seq)) {
        shim.fence_done = shim.fence_seq;
        return SHIM_EXEC_DONE;
    }
    if (rreg(shim.fence_scratch) == seq) {
        shim_log(0, "the CP wrote the fence to SCRATCH_REG0 but not to the "
                 "write-back page (SCRATCH_UMSK/SCRATCH_ADDR, reference "
                 "radeon-kms-r500.md 5.3)");
    }
    /* Not executed: count the fence as signalled so Mesa carries on. */
    shim.fence_done = shim.fence_seq;
    return shim.cp_seen ? SHIM_EXEC_STALLED : SHIM_EXEC_NO_CP;
}

bool kms_bo_busy(const ShimBo *bo)
{
    /* CS ioctls complete synchronously, so nothing stays busy */
    return bo->last_seq > shim.fence_done;
}

/* ---- start-up: what rv515_startup does to the chip ---- */

static void mc_program(void)
{
    uint64_t vram_end = shim.vram_start + shim.vram_size - 1;

    wreg(R_CONFIG_MEMSIZE, shim.vram_size);
    wreg_mc(MC_MC_FB_LOCATION, (uint32_t)((vram_end >> 16) << 16) |
                               (uint32_t)(shim.vram_start >> 16));
    wreg(R_HDP_FB_LOCATION, shim.vram_start >> 16);
    wreg_mc(MC_MC_AGP_LOCATION, 0xFFFFFFFF);
    wreg_mc(MC_MC_AGP_BASE, 0);
    wreg_mc(MC_MC_AGP_BASE_2, 0);
}

/* rv370_pcie_gart_enable */
static void gart_enable(void)
{
    uint64_t gtt_end = shim.gtt_start + shim.gtt_size - 1;

    kms_gart_bind(0, shim.gtt_size, false);         /* radeon_gart_restore */
    wreg_pcie(PCIE_PCIE_TX_GART_CNTL, GART_UNMAPPED_DISCARD);
    wreg_pcie(PCIE_PCIE_TX_GART_START_LO, shim.gtt_start);
    wreg_pcie(PCIE_PCIE_TX_GART_END_LO, gtt_end & ~(uint64_t)(SHIM_PAGE_SIZE - 1));
    wreg_pcie(PCIE_PCIE_TX_GART_START_HI, 0);
    wreg_pcie(PCIE_PCIE_TX_GART_END_HI, 0);
    wreg_pcie(PCIE_PCIE_TX_GART_BASE, shim.vram_start + shim.gart_table);
    wreg_pcie(PCIE_PCIE_TX_DISCARD_RD_ADDR_LO, shim.vram_start);
    wreg_pcie(PCIE_PCIE_TX_DISCARD_RD_ADDR_HI, 0);
    wreg_pcie(PCIE_PCIE_TX_GART_ERROR, 0);
    wreg_pcie(PCIE_PCIE_TX_GART_CNTL, rreg_pcie(PCIE_PCIE_TX_GART_CNTL) | GART_EN |
              GART_UNMAPPED_DISCARD);
    gart_tlb_flush();
}

/* r100_cp_init (microcode upload skipped: the model interprets PM4) */
static void cp_init(void)
{
    uint32_t tmp = R500_FSET(0, CP_RB_CNTL, RB_BUFSZ, 17) |     /* 1 MiB */
                   R500_FSET(0, CP_RB_CNTL, RB_BLKSZ, 9) |
                   R500_FSET(0, CP_RB_CNTL, MAX_FETCH, 1);
    uint64_t wb = shim.gtt_start + shim.wb_off;

    wreg(R_CP_RB_WPTR_DELAY, 64);
    wreg(R_CP_RB_CNTL, tmp | R500_FMASK(CP_RB_CNTL, RB_NO_UPDATE));
    wreg(R_CP_RB_BASE, shim.gtt_start + shim.ring_off);
    wreg(R_CP_RB_CNTL, tmp | R500_FMASK(CP_RB_CNTL, RB_RPTR_WR_ENA) |
                       R500_FMASK(CP_RB_CNTL, RB_NO_UPDATE));
    wreg(R_CP_RB_RPTR_WR, 0);
    shim.ring_wptr = 0;
    wreg(R_CP_RB_WPTR, 0);
    wreg(R_CP_RB_RPTR_ADDR, (wb + WB_CP_RPTR_OFFSET) & ~3ull);
    wreg(R_SCRATCH_ADDR, wb + WB_SCRATCH_OFFSET);
    wreg(R_SCRATCH_UMSK, 0xFF);
    wreg(R_CP_RB_CNTL, tmp);
    wreg(R_CP_CSQ_MODE, 0x1050);        /* INDIRECT2_START 80, INDIRECT1 16 */
    wreg(R_CP_RB_WPTR_DELAY, 0);
    wreg(R_CP_CSQ_MODE, 0x00004D4D);
    wreg(R_CP_CSQ_CNTL, CSQ_PRIBM_INDBM);
}

/* rv515_ring_start */
static void ring_start(void)
{
    const R500ModelInfo *m = shim.chip.info;

    ring_reg(R_ISYNC_CNTL, ISYNC_ANY2D_IDLE3D | ISYNC_ANY3D_IDLE2D |
                           ISYNC_WAIT_IDLEGUI | ISYNC_CPSCRATCH_IDLEGUI);
    ring_reg(R_WAIT_UNTIL, WAIT_2D_IDLECLEAN | WAIT_3D_IDLECLEAN);
    ring_reg(R_DST_PIPE_CONFIG, R500_FMASK(DST_PIPE_CONFIG, PIPE_AUTO_CONFIG));
    ring_reg(R_GB_SELECT, 0);
    ring_reg(R_GB_ENABLE, 0);
    ring_reg(R_SU_REG_DEST, (1u << m->quad_pipes) - 1);
    ring_reg(R_VAP_INDEX_OFFSET, 0);
    ring_reg(R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH | DC_FREE);
    ring_reg(R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH | ZC_FREE);
    ring_reg(R_WAIT_UNTIL, WAIT_2D_IDLECLEAN | WAIT_3D_IDLECLEAN);
    ring_reg(R_GB_AA_CONFIG, 0);
    ring_reg(R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH | DC_FREE);
    ring_reg(R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH | ZC_FREE);
    ring_reg(R_GB_MSPOS0, 0x66666666);   /* every sample at the centre */
    ring_reg(R_GB_MSPOS1, 0x06666666);
    ring_reg(R_GA_ENHANCE, 3);           /* DEADLOCK_CNTL | FASTSYNC_CNTL */
    ring_reg(R_GA_POLY_MODE, 0x120);     /* front and back: triangles */
    ring_reg(R_GA_ROUND_MODE, 5);        /* geometry, colour: nearest */
    ring_reg(R_VAP_VTX_AOS_ADDR_EVEN, 0); /* rv515_ring_start: 0x20C8 */
    ring_commit();
}

/* r100_ring_test: SCRATCH_REG1 written through the ring */
static bool ring_test(void)
{
    uint32_t want[2] = { R500_REGA_AT(SCRATCH_REG, 1), 0xDEADBEEF };

    wreg(want[0], 0xCAFEDEAD);
    ring_reg(want[0], want[1]);
    ring_commit();
    return run_until(scratch_is, want);
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

    gem_init();
    shim.vram_size = vram;
    shim.gtt_size = GTT_SIZE;
    /* one more page: the GART dummy page */
    shim.ram_size = GTT_SIZE + SHIM_PAGE_SIZE;
    shim.dummy_page = GTT_SIZE;
    shim.vram = map_memfd("r500-vram", vram, &shim.vram_fd);
    shim.ram = map_memfd("r500-guest-ram", shim.ram_size, &shim.ram_fd);
    if (!shim.vram || !shim.ram) {
        *err = g_strdup_printf("cannot allocate VRAM/guest RAM: %s",
                               g_strerror(errno));
        return false;
    }
    if (!r500_chip_init(&shim.chip, shim.model, shim.vram, vram, &host_ops,
                        NULL, err)) {
        return false;
    }

    /* rv515_mc_init: VRAM at MC 0, the GTT right above it */
    shim.vram_start = 0;
    shim.gtt_start = shim.vram_start + vram;
    shim.vram_heap = (ShimHeap){ "VRAM", vram, g_array_new(FALSE, FALSE,
                                 sizeof(ShimRange)), 0 };
    shim.gtt_heap = (ShimHeap){ "GTT", GTT_SIZE, g_array_new(FALSE, FALSE,
                                sizeof(ShimRange)), 0 };
    mc_program();

    {
        uint64_t stolen, table = GTT_SIZE / SHIM_PAGE_SIZE * 4;

        if (!kernel_bo(&shim.vram_heap, STOLEN_VGA_SIZE, &stolen) ||
            !kernel_bo(&shim.vram_heap, table, &shim.gart_table)) {
            *err = g_strdup("VRAM too small for the kernel's buffers");
            return false;
        }
    }
    gart_enable();
    shim.ring_size = RING_SIZE;
    shim.ib_size = IB_POOL_SIZE;
    if (!kernel_bo(&shim.gtt_heap, SHIM_PAGE_SIZE, &shim.wb_off) ||
        !kernel_bo(&shim.gtt_heap, RING_SIZE, &shim.ring_off) ||
        !kernel_bo(&shim.gtt_heap, IB_POOL_SIZE, &shim.ib_off)) {
        *err = g_strdup("GTT too small for the kernel's buffers");
        return false;
    }
    /* radeon_fence_driver_start_ring takes the first scratch register */
    shim.fence_scratch = R500_REGA_AT(SCRATCH_REG, 0);
    /* r100_irq_set with a fence waiter: SW interrupts on */
    wreg(R_GEN_INT_CNTL, R500_FMASK(GEN_INT_CNTL, SW_INT_EN));
    shim.hdp_cntl = rreg(R_HOST_PATH_CNTL);
    cp_init();
    ring_start();
    if (ring_test()) {
        shim_log(1, "ring test passed: the CP executes the ring");
    } else {
        shim_log(1, "ring test: the chip's CP did not execute the ring; "
                 "command streams are checked and recorded, not executed");
    }

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

/* Capture the buffers a stream references, as they are before it runs. */
static void capture_bos(ShimBo **bos, uint32_t nbos)
{
    for (uint32_t i = 0; i < nbos; i++) {
        ShimBo *bo = bos[i];

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
    ShimExec exec = SHIM_EXEC_NO_CP;
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
    if ((uint64_t)ndw * 4 > IB_POOL_SIZE) {
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
        memcpy(shim.ram + shim.ib_off, ib, ndw * 4);
        for (uint32_t i = 0; i < nbos; i++) {
            bos[i]->last_seq = shim.fence_seq + 1;
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
        exec = kms_submit(shim.gtt_start + shim.ib_off, ndw);
        if (exec != SHIM_EXEC_DONE) {
            shim.cs_not_executed++;
        }
        shim_log(1, "CS %" G_GUINT64_FORMAT ": %u dwords, %u relocs, %s",
                 shim.fence_seq, ndw, nrelocs,
                 exec == SHIM_EXEC_DONE ? "executed" :
                 exec == SHIM_EXEC_NO_CP ? "not executed (no CP)" :
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
            .seq = r ? 0 : (uint32_t)shim.fence_seq, .cs_flags = cs_flags,
            .ring = ring, .result = r, .exec = r ? 0 : exec,
            .owners = (cfg.hyperz_owner ? 1 : 0) | (cfg.cmask_owner ? 2 : 0),
            .nrelocs = nrelocs, .ndw = ndw, .have_relocs = reloc_chunk != NULL,
            .relocs = cap_relocs, .ib = orig, .checked = r ? NULL : ib,
        };
        cap_write_cs(shim.cap, &c);
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
