/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The radeon kernel driver's side of the chip (kdrv.h), shared by the DRM
 * shim and r500-replay.  Register sequences follow Linux rv515_startup,
 * rv370_pcie_gart_enable, r100_cp_init, rv515_ring_start, r100_ring_test,
 * r100_ring_ib_execute and r300_fence_ring_emit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "cs.h"
#include "kdrv.h"

/* radeon.h: write-back page layout */
#define WB_SCRATCH_OFFSET   0
#define WB_CP_RPTR_OFFSET   1024

/* The register values r300.c writes, from r500_regs.def's fields. */
#define ISYNC_ANY2D_IDLE3D  R500_FMASK(ISYNC_CNTL, ANY2D_IDLE3D)
#define ISYNC_ANY3D_IDLE2D  R500_FMASK(ISYNC_CNTL, ANY3D_IDLE2D)
#define ISYNC_WAIT_IDLEGUI  R500_FMASK(ISYNC_CNTL, WAIT_IDLEGUI)
#define ISYNC_CPSCRATCH_IDLEGUI R500_FMASK(ISYNC_CNTL, CPSCRATCH_IDLEGUI)
#define WAIT_DMA_GUI_IDLE   R500_FMASK(WAIT_UNTIL, WAIT_DMA_GUI_IDLE)
#define WAIT_2D_IDLECLEAN   R500_FMASK(WAIT_UNTIL, WAIT_2D_IDLECLEAN)
#define WAIT_3D_IDLECLEAN   R500_FMASK(WAIT_UNTIL, WAIT_3D_IDLECLEAN)
#define DC_FLUSH            R500_FSET(0, RB3D_DSTCACHE_CTLSTAT, DC_FLUSH, \
    R500_FVAL(RB3D_DSTCACHE_CTLSTAT, DC_FLUSH, FLUSH_DIRTY_3D))
#define DC_FREE             R500_FSET(0, RB3D_DSTCACHE_CTLSTAT, DC_FREE, \
    R500_FVAL(RB3D_DSTCACHE_CTLSTAT, DC_FREE, FREE_3D_TAGS))
#define ZC_FLUSH            R500_FMASK(ZB_ZCACHE_CTLSTAT, ZC_FLUSH)
#define ZC_FREE             R500_FMASK(ZB_ZCACHE_CTLSTAT, ZC_FREE)
#define CSQ_PRIBM_INDBM     R500_FSET(0, CP_CSQ_CNTL, CSQ_MODE, \
    R500_FVAL(CP_CSQ_CNTL, CSQ_MODE, PRIBM_INDBM))

/* PCIE_TX_GART_CNTL: unmapped accesses go to the discard page */
#define GART_UNMAPPED_DISCARD \
    R500_FSET(0, PCIE_TX_GART_CNTL, UNMAPPED_ACCESS, \
              R500_FVAL(PCIE_TX_GART_CNTL, UNMAPPED_ACCESS, DISCARD))

/* Bounds on one wait for the CP: r500_run slices and host seconds. */
#define WAIT_MAX_RUNS       (1u << 24)
#define WAIT_MAX_SECONDS    60


static void klog(KDrv *k, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void klog(KDrv *k, int level, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    if (level > k->log_level || !k->log) {
        return;
    }
    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    k->log(level, msg);
    g_free(msg);
}

/* ---- host side of the chip: the shared in-memory host ---- */

static KDrv *kdrv_of(MemHost *h)
{
    return (KDrv *)((char *)h - offsetof(KDrv, host));
}

static void host_irq(MemHost *h, bool level)
{
    /* fences are polled; the line is only traced */
    klog(kdrv_of(h), 2, "irq %d", level);
}

static void host_log(MemHost *h, R500LogKind kind, const char *msg)
{
    klog(kdrv_of(h), kind == R500_LOG_GUEST_ERROR ? 0 : 1, "chip %s: %s",
         kind == R500_LOG_GUEST_ERROR ? "guest error" : "unimplemented", msg);
}

/* ---- register access, as WREG32/WREG32_MC/WREG32_PCIE do it ---- */

static void wreg(KDrv *k, uint32_t reg, uint32_t v)
{
    r500_reg_write(k->chip, reg, v);
}

static uint32_t rreg(KDrv *k, uint32_t reg)
{
    return r500_reg_read(k->chip, reg);
}

static void wreg_mc(KDrv *k, R500McReg reg, uint32_t v)
{
    int idx = r500_mc_index(k->chip->info->mc_map, reg);

    wreg(k, R_MC_IND_INDEX, R500_FSET(R500_FMASK(MC_IND_INDEX, WR_EN),
                                   MC_IND_INDEX, ADDR, idx));
    wreg(k, R_MC_IND_DATA, v);
    wreg(k, R_MC_IND_INDEX, 0);
}

static void wreg_pcie(KDrv *k, uint32_t idx, uint32_t v)
{
    wreg(k, R_PCIE_INDEX, idx);
    wreg(k, R_PCIE_DATA, v);
}

static uint32_t rreg_pcie(KDrv *k, uint32_t idx)
{
    wreg(k, R_PCIE_INDEX, idx);
    return rreg(k, R_PCIE_DATA);
}

/* ---- memory ---- */

/* rv370_pcie_gart_tlb_flush: twice, as the hardware erratum wants */
static void gart_tlb_flush(KDrv *k)
{
    for (int i = 0; i < 2; i++) {
        uint32_t tmp = rreg_pcie(k, PCIE_PCIE_TX_GART_CNTL);
        wreg_pcie(k, PCIE_PCIE_TX_GART_CNTL,
                  tmp | R500_FMASK(PCIE_TX_GART_CNTL, INVALIDATE_TLB));
        (void)rreg_pcie(k, PCIE_PCIE_TX_GART_CNTL);
        wreg_pcie(k, PCIE_PCIE_TX_GART_CNTL, tmp);
    }
}

/* rv370_pcie_gart_set_page for every page of [gtt_off, gtt_off + size) */
void kdrv_gart_bind(KDrv *k, uint64_t gtt_off, uint64_t size, bool bind)
{
    for (uint64_t off = gtt_off; off < gtt_off + size; off += KDRV_PAGE_SIZE) {
        /* GTT page n is backed by guest RAM page n (bus address off) */
        uint64_t addr = bind ? off : k->dummy_page;
        uint32_t e = (uint32_t)(addr >> 8) & 0x00FFFFF0;

        e |= (uint32_t)((addr >> 32) & 0xFF) << 24;
        e |= R500_GART_PTE_UNSNOOPED |
             (bind ? R500_GART_PTE_WRITEABLE | R500_GART_PTE_READABLE : 0);
        e = GUINT32_TO_LE(e);
        memcpy(k->vram + k->gart_table + (off / KDRV_PAGE_SIZE) * 4, &e, 4);
    }
    gart_tlb_flush(k);
}

/* ---- ring ---- */

static void ring_write(KDrv *k, uint32_t v)
{
    uint32_t le = GUINT32_TO_LE(v);

    memcpy(k->ram + k->ring_off + (k->ring_wptr & (KDRV_RING_SIZE / 4 - 1)) * 4,
           &le, 4);
    k->ring_wptr = (k->ring_wptr + 1) & (KDRV_RING_SIZE / 4 - 1);
}

static void ring_reg(KDrv *k, uint32_t reg, uint32_t v)
{
    ring_write(k, R500_PM4_PACKET0(reg, 0));
    ring_write(k, v);
}

/* radeon_ring_commit: pad to 16 dwords with type-2 packets, bump WPTR */
static void ring_commit(KDrv *k)
{
    while (k->ring_wptr & 15) {
        ring_write(k, R500_PM4_PACKET2);
    }
    wreg(k, R_CP_RB_WPTR, k->ring_wptr);
    (void)rreg(k, R_CP_RB_WPTR);
}

static uint32_t fence_read(KDrv *k)
{
    uint32_t v;

    /* radeon_fence_read with write-back: the scratch mirror in memory */
    memcpy(&v, k->ram + k->wb_off + WB_SCRATCH_OFFSET +
           (k->fence_scratch - R_SCRATCH_REG) , 4);
    return GUINT32_FROM_LE(v);
}

/*
 * Run the chip until done() or until nothing is scheduled; virtual time
 * jumps to each deadline the core asks for.  Returns whether done().
 */
static bool run_until(KDrv *k, bool (*done)(KDrv *k, const void *arg),
                      const void *arg)
{
    uint32_t rptr0 = rreg(k, R_CP_RB_RPTR);
    time_t start = time(NULL);

    for (uint32_t i = 0; i < WAIT_MAX_RUNS; i++) {
        if (done(k, arg)) {
            break;
        }
        if (!mem_host_step(&k->host, true)) {
            break;          /* idle: nothing will ever change */
        }
        if ((i & 1023) == 1023 && time(NULL) - start > WAIT_MAX_SECONDS) {
            klog(k, 0, "gave up waiting for the CP after %d s",
                     WAIT_MAX_SECONDS);
            break;
        }
    }
    if (rreg(k, R_CP_RB_RPTR) != rptr0) {
        k->cp_seen = true;
    }
    return done(k, arg);
}

static bool fence_done(KDrv *k, const void *arg)
{
    uint32_t seq = *(const uint32_t *)arg;

    return (int32_t)(fence_read(k) - seq) >= 0;
}

static bool scratch_is(KDrv *k, const void *arg)
{
    const uint32_t *want = arg;

    return rreg(k, want[0]) == want[1];
}

/* r300_fence_ring_emit */
static void fence_emit(KDrv *k, uint32_t seq)
{
    ring_reg(k, R_RE_SCISSORS_TL, 0);
    ring_reg(k, R_RE_SCISSORS_BR, 0);
    ring_reg(k, R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH);
    ring_reg(k, R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH);
    ring_reg(k, R_WAIT_UNTIL, WAIT_3D_IDLECLEAN | WAIT_2D_IDLECLEAN |
                           WAIT_DMA_GUI_IDLE);
    ring_reg(k, R_HOST_PATH_CNTL, k->hdp_cntl |
             R500_FMASK(HOST_PATH_CNTL, HDP_READ_BUFFER_INVALIDATE));
    ring_reg(k, R_HOST_PATH_CNTL, k->hdp_cntl);
    ring_reg(k, k->fence_scratch, seq);
    ring_reg(k, R_GEN_INT_STATUS, R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE));
}

/*
 * The one place an IB reaches the chip: r100_ring_ib_execute, a fence,
 * radeon_ring_commit, then radeon_fence_wait.  The IB is already in the
 * GTT at ib_gpu.
 */
KDrvExec kdrv_submit(KDrv *k, uint64_t ib_gpu, uint32_t ndw)
{
    uint32_t seq = (uint32_t)++k->fence_seq;
    uint32_t start = k->ring_wptr;

    ring_write(k, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    ring_write(k, (uint32_t)ib_gpu);
    ring_write(k, ndw);
    fence_emit(k, seq);
    ring_commit(k);
    if (k->log_level >= 2 && k->ring_wptr > start) {
        GString *d = g_string_new(NULL);

        cs_decode((const uint32_t *)(k->ram + k->ring_off) + start,
                  k->ring_wptr - start, d);
        klog(k, 2, "ring dwords %u..%u:\n%s", start, k->ring_wptr, d->str);
        g_string_free(d, TRUE);
    }
    if (run_until(k, fence_done, &seq)) {
        k->fence_done = k->fence_seq;
        return KDRV_EXEC_DONE;
    }
    if (rreg(k, k->fence_scratch) == seq) {
        klog(k, 0, "the CP wrote the fence to SCRATCH_REG0 but not to the "
                 "write-back page (SCRATCH_UMSK/SCRATCH_ADDR, reference "
                 "radeon-kms-r500.md 5.3)");
    }
    /* Not executed: count the fence as signalled so Mesa carries on. */
    k->fence_done = k->fence_seq;
    return k->cp_seen ? KDRV_EXEC_STALLED : KDRV_EXEC_NO_CP;
}

/* ---- start-up: what rv515_startup does to the chip ---- */

static void mc_program(KDrv *k)
{
    uint64_t vram_end = k->vram_start + k->vram_size - 1;

    wreg(k, R_CONFIG_MEMSIZE, k->vram_size);
    wreg_mc(k, MC_MC_FB_LOCATION, (uint32_t)((vram_end >> 16) << 16) |
                               (uint32_t)(k->vram_start >> 16));
    wreg(k, R_HDP_FB_LOCATION, k->vram_start >> 16);
    wreg_mc(k, MC_MC_AGP_LOCATION, 0xFFFFFFFF);
    wreg_mc(k, MC_MC_AGP_BASE, 0);
    wreg_mc(k, MC_MC_AGP_BASE_2, 0);
}

/* rv370_pcie_gart_enable */
static void gart_enable(KDrv *k)
{
    uint64_t gtt_end = k->gtt_start + k->gtt_size - 1;

    kdrv_gart_bind(k, 0, k->gtt_size, false);         /* radeon_gart_restore */
    wreg_pcie(k, PCIE_PCIE_TX_GART_CNTL, GART_UNMAPPED_DISCARD);
    wreg_pcie(k, PCIE_PCIE_TX_GART_START_LO, k->gtt_start);
    wreg_pcie(k, PCIE_PCIE_TX_GART_END_LO, gtt_end & ~(uint64_t)(KDRV_PAGE_SIZE - 1));
    wreg_pcie(k, PCIE_PCIE_TX_GART_START_HI, 0);
    wreg_pcie(k, PCIE_PCIE_TX_GART_END_HI, 0);
    wreg_pcie(k, PCIE_PCIE_TX_GART_BASE, k->vram_start + k->gart_table);
    wreg_pcie(k, PCIE_PCIE_TX_DISCARD_RD_ADDR_LO, k->vram_start);
    wreg_pcie(k, PCIE_PCIE_TX_DISCARD_RD_ADDR_HI, 0);
    wreg_pcie(k, PCIE_PCIE_TX_GART_ERROR, 0);
    wreg_pcie(k, PCIE_PCIE_TX_GART_CNTL, rreg_pcie(k, PCIE_PCIE_TX_GART_CNTL) |
              R500_FMASK(PCIE_TX_GART_CNTL, EN) | GART_UNMAPPED_DISCARD);
    gart_tlb_flush(k);
}

/* r100_cp_init (microcode upload skipped: the model interprets PM4) */
static void cp_init(KDrv *k)
{
    uint32_t tmp = R500_FSET(0, CP_RB_CNTL, RB_BUFSZ, 17) |     /* 1 MiB */
                   R500_FSET(0, CP_RB_CNTL, RB_BLKSZ, 9) |
                   R500_FSET(0, CP_RB_CNTL, MAX_FETCH, 1);
    uint64_t wb = k->gtt_start + k->wb_off;

    wreg(k, R_CP_RB_WPTR_DELAY, 64);
    wreg(k, R_CP_RB_CNTL, tmp | R500_FMASK(CP_RB_CNTL, RB_NO_UPDATE));
    wreg(k, R_CP_RB_BASE, k->gtt_start + k->ring_off);
    wreg(k, R_CP_RB_CNTL, tmp | R500_FMASK(CP_RB_CNTL, RB_RPTR_WR_ENA) |
                       R500_FMASK(CP_RB_CNTL, RB_NO_UPDATE));
    wreg(k, R_CP_RB_RPTR_WR, 0);
    k->ring_wptr = 0;
    wreg(k, R_CP_RB_WPTR, 0);
    wreg(k, R_CP_RB_RPTR_ADDR, (wb + WB_CP_RPTR_OFFSET) & ~3ull);
    wreg(k, R_SCRATCH_ADDR, wb + WB_SCRATCH_OFFSET);
    wreg(k, R_SCRATCH_UMSK, 0xFF);
    wreg(k, R_CP_RB_CNTL, tmp);
    wreg(k, R_CP_CSQ_MODE, 0x1050);        /* INDIRECT2_START 80, INDIRECT1 16 */
    wreg(k, R_CP_RB_WPTR_DELAY, 0);
    wreg(k, R_CP_CSQ_MODE, 0x00004D4D);
    wreg(k, R_CP_CSQ_CNTL, CSQ_PRIBM_INDBM);
}

/* rv515_ring_start */
static void ring_start(KDrv *k)
{
    const R500ModelInfo *m = k->chip->info;

    ring_reg(k, R_ISYNC_CNTL, ISYNC_ANY2D_IDLE3D | ISYNC_ANY3D_IDLE2D |
                           ISYNC_WAIT_IDLEGUI | ISYNC_CPSCRATCH_IDLEGUI);
    ring_reg(k, R_WAIT_UNTIL, WAIT_2D_IDLECLEAN | WAIT_3D_IDLECLEAN);
    ring_reg(k, R_DST_PIPE_CONFIG, R500_FMASK(DST_PIPE_CONFIG, PIPE_AUTO_CONFIG));
    ring_reg(k, R_GB_SELECT, 0);
    ring_reg(k, R_GB_ENABLE, 0);
    ring_reg(k, R_SU_REG_DEST, (1u << m->quad_pipes) - 1);
    ring_reg(k, R_VAP_INDEX_OFFSET, 0);
    ring_reg(k, R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH | DC_FREE);
    ring_reg(k, R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH | ZC_FREE);
    ring_reg(k, R_WAIT_UNTIL, WAIT_2D_IDLECLEAN | WAIT_3D_IDLECLEAN);
    ring_reg(k, R_GB_AA_CONFIG, 0);
    ring_reg(k, R_RB3D_DSTCACHE_CTLSTAT, DC_FLUSH | DC_FREE);
    ring_reg(k, R_ZB_ZCACHE_CTLSTAT, ZC_FLUSH | ZC_FREE);
    ring_reg(k, R_GB_MSPOS0, 0x66666666);   /* every sample at the centre */
    ring_reg(k, R_GB_MSPOS1, 0x06666666);
    ring_reg(k, R_GA_ENHANCE, 3);           /* DEADLOCK_CNTL | FASTSYNC_CNTL */
    ring_reg(k, R_GA_POLY_MODE, 0x120);     /* front and back: triangles */
    ring_reg(k, R_GA_ROUND_MODE, 5);        /* geometry, colour: nearest */
    ring_reg(k, R_VAP_VTX_AOS_ADDR_EVEN, 0); /* rv515_ring_start: 0x20C8 */
    ring_commit(k);
}

/* r100_ring_test: SCRATCH_REG1 written through the ring */
static bool ring_test(KDrv *k)
{
    uint32_t want[2] = { R500_REGA_AT(SCRATCH_REG, 1), 0xDEADBEEF };

    wreg(k, want[0], 0xCAFEDEAD);
    ring_reg(k, want[0], want[1]);
    ring_commit(k);
    return run_until(k, scratch_is, want);
}

bool kdrv_init(KDrv *k, char **err)
{
    mem_host_init(&k->host, k->ram, k->ram_size, k->vram_size);
    k->host.chip = k->chip;
    k->host.on_irq = host_irq;
    k->host.on_log = host_log;
    if (!r500_chip_init(k->chip, k->model, k->vram, k->vram_size,
                        &mem_host_ops, &k->host, err)) {
        return false;
    }
    mc_program(k);
    gart_enable(k);
    /* the kernel's own GTT buffers are bound like any other */
    kdrv_gart_bind(k, k->wb_off, KDRV_PAGE_SIZE, true);
    kdrv_gart_bind(k, k->ring_off, KDRV_RING_SIZE, true);
    kdrv_gart_bind(k, k->ib_off, KDRV_IB_POOL_SIZE, true);
    /* radeon_fence_driver_start_ring takes the first scratch register */
    k->fence_scratch = R500_REGA_AT(SCRATCH_REG, 0);
    /* r100_irq_set with a fence waiter: SW interrupts on */
    wreg(k, R_GEN_INT_CNTL, R500_FMASK(GEN_INT_CNTL, SW_INT_EN));
    k->hdp_cntl = rreg(k, R_HOST_PATH_CNTL);
    cp_init(k);
    ring_start(k);
    if (ring_test(k)) {
        klog(k, 1, "ring test passed: the CP executes the ring");
    } else {
        klog(k, 1, "ring test: the chip's CP did not execute the ring; "
             "command streams are checked and recorded, not executed");
    }
    return true;
}
