/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-bench-core: throughput of the chip core's command processor and 2D
 * engine, driven directly through the core library (no QEMU, no Mesa),
 * and the chip's own memory footprint.  docs/bench.md.
 *
 *   r500-bench-core [--quick]
 *
 * The chip is brought up as the radeon kernel does it (tools/cs/kdrv.c:
 * MC, PCIE GART, ring); each case builds one indirect buffer in the IB
 * pool and executes it through the ring with a fence, repeatedly, timing
 * only kdrv_submit().  Prints one "case: value unit (detail)" line per
 * measurement, and the sizes as "size NAME: bytes".
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cs.h"
#include "kdrv.h"

#define VRAM_SIZE   (64u << 20)
#define GTT_SIZE    (64u << 20)

/* DP_GUI_MASTER_CNTL values (r500_regs.def, radeon_reg.h RADEON_GMC_*) */
#define GMC_VAL(f, name)    R500_FVAL(DP_GUI_MASTER_CNTL, f, name)

/* 2D surfaces: 1024x1024 ARGB8888, 4 KiB rows. */
#define SURF_W      1024
#define SURF_H      1024
#define SURF_PITCH  (SURF_W * 4)
#define SURF_A      (4u << 20)          /* VRAM offsets */
#define SURF_B      (12u << 20)
#define SURF_GTT    (8u << 20)          /* GTT offset */

typedef struct Bench {
    KDrv kd;
    R500Chip chip;
    double min_seconds;
    bool failed;            /* a result was wrong */
} Bench;

static void bench_log(int level, const char *msg)
{
    if (level == 0) {
        fprintf(stderr, "r500-bench-core: %s\n", msg);
    }
}

static bool bench_init(Bench *b, char **err)
{
    KDrv *k = &b->kd;

    *k = (KDrv){
        .chip = &b->chip, .model = R500_MODEL_RV515,
        .vram_size = VRAM_SIZE, .ram_size = GTT_SIZE + KDRV_PAGE_SIZE,
        .vram_start = 0, .gtt_start = VRAM_SIZE, .gtt_size = GTT_SIZE,
        .dummy_page = GTT_SIZE,
        /* as the shim places them: after the VGA area, at GTT start */
        .gart_table = KDRV_STOLEN_VGA_SIZE,
        .wb_off = 0, .ring_off = KDRV_PAGE_SIZE,
        .ib_off = KDRV_PAGE_SIZE + KDRV_RING_SIZE,
        .log = bench_log,
    };
    k->vram = g_malloc0(k->vram_size);
    k->ram = g_malloc0(k->ram_size);
    if (!kdrv_init(k, err)) {
        return false;
    }
    kdrv_gart_bind(k, 0, GTT_SIZE, true);
    return true;
}

static uint32_t *ib(Bench *b)
{
    return (uint32_t *)(b->kd.ram + b->kd.ib_off);
}

/*
 * Run the IB of ndw dwords until min_seconds have passed; returns the
 * seconds one execution takes.
 */
static double run_ib(Bench *b, uint32_t ndw)
{
    int64_t spent = 0;
    unsigned n = 0;

    /* once untimed: the pages are touched and the caches warm */
    kdrv_submit(&b->kd, b->kd.gtt_start + b->kd.ib_off, ndw);
    do {
        int64_t t0 = g_get_monotonic_time();

        if (kdrv_submit(&b->kd, b->kd.gtt_start + b->kd.ib_off, ndw) !=
            KDRV_EXEC_DONE) {
            fprintf(stderr, "r500-bench-core: the IB did not complete\n");
            return -1;
        }
        spent += g_get_monotonic_time() - t0;
        n++;
    } while (spent < b->min_seconds * 1e6);
    return spent / 1e6 / n;
}

/* Host memory of an MC address of the benchmark's surfaces. */
static uint8_t *host(Bench *b, uint64_t mc)
{
    return mc >= VRAM_SIZE ? b->kd.ram + (mc - VRAM_SIZE) : b->kd.vram + mc;
}

static uint32_t ldl_le(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t po(uint32_t mc, uint32_t pitch)
{
    return (pitch / 64) << 22 | mc >> 10;
}

/* ---- CP ---- */

/* Type-0 bursts: 16 texture filter registers a packet (store only). */
static void cp_type0(Bench *b, uint32_t max)
{
    uint32_t *p = ib(b), n = 0, pkts = 0;
    double t;

    while (n + 17 <= max) {
        p[n++] = R500_PM4_PACKET0(R500_REGA_AT(TX_FILTER0, 0), 15);
        for (int i = 0; i < 16; i++) {
            p[n++] = i * 0x01000193u;
        }
        pkts++;
    }
    t = run_ib(b, n);
    printf("cp type-0 burst: %.1f MB/s (%.2f M packets/s, 16 registers "
           "each)\n", n * 4 / t / 1e6, pkts / t / 1e6);
}

/* ONE_REG_WR uploads of the 256 fragment-shader constants, as Mesa does. */
static void cp_consts(Bench *b, uint32_t max)
{
    uint32_t *p = ib(b), n = 0, regs = 0;
    double t;

    while (n + 2 + 1025 <= max) {
        p[n++] = R500_PM4_PACKET0(R_GA_US_VECTOR_INDEX, 0);
        p[n++] = R500_FSET(0, GA_US_VECTOR_INDEX, TYPE, 1);
        p[n++] = R500_PM4_PACKET0_ONE(R_GA_US_VECTOR_DATA, 1023);
        for (int i = 0; i < 1024; i++) {
            p[n++] = 0x3F800000u + i;
        }
        regs += 1025;
    }
    t = run_ib(b, n);
    printf("cp constant upload: %.1f MB/s (%.1f M register writes/s)\n",
           n * 4 / t / 1e6, regs / t / 1e6);
}

/* Type-3 NOPs of 4 dwords. */
static void cp_nops(Bench *b, uint32_t max)
{
    uint32_t *p = ib(b), n = 0, pkts = 0;
    double t;

    while (n + 4 <= max) {
        p[n++] = R500_PM4_PACKET3(R500_PM4_OP_NOP, 2);
        p[n++] = 0;
        p[n++] = 0;
        p[n++] = 0;
        pkts++;
    }
    t = run_ib(b, n);
    printf("cp type-3 NOP: %.1f MB/s (%.2f M packets/s)\n", n * 4 / t / 1e6,
           pkts / t / 1e6);
}

/* ---- 2D ---- */

static uint32_t gmc(bool src, unsigned brush, unsigned rop)
{
    uint32_t v = 0;

    v = R500_FSET(v, DP_GUI_MASTER_CNTL, SRC_PITCH_OFFSET_CNTL, src);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, DST_PITCH_OFFSET_CNTL, 1);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, BRUSH_DATATYPE, brush);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, DST_DATATYPE,
                   GMC_VAL(DST_DATATYPE, ARGB8888));
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, SRC_DATATYPE,
                   GMC_VAL(SRC_DATATYPE, COLOR));
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, ROP3, rop);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, SRC_SOURCE,
                   src ? GMC_VAL(SRC_SOURCE, MEMORY) : 0);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, CLR_CMP_CNTL_DIS, 1);
    v = R500_FSET(v, DP_GUI_MASTER_CNTL, WR_MSK_DIS, 1);
    return v;
}

/* A 1024x1024x32 solid fill (PAINT_MULTI), reps times per IB. */
static void blit_fill(Bench *b, unsigned reps)
{
    uint32_t *p = ib(b), n = 0;
    double t;

    p[n++] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 2 + 2 * reps);
    p[n++] = gmc(false, GMC_VAL(BRUSH_DATATYPE, SOLID_COLOR),
                   GMC_VAL(ROP3, PATCOPY));
    p[n++] = po(SURF_A, SURF_PITCH);
    p[n++] = 0xFF336699;
    for (unsigned i = 0; i < reps; i++) {
        p[n++] = 0;
        p[n++] = SURF_W << 16 | SURF_H;
    }
    t = run_ib(b, n);
    for (uint32_t i = 0; i < SURF_W * SURF_H; i++) {
        if (ldl_le(b->kd.vram + SURF_A + i * 4) != 0xFF336699) {
            fprintf(stderr, "r500-bench-core: the fill missed pixel %u\n", i);
            b->failed = true;
            break;
        }
    }
    printf("2d fill VRAM: %.1f MB/s (%ux%u ARGB8888 rectangles)\n",
           (double)SURF_PITCH * SURF_H * reps / t / 1e6, SURF_W, SURF_H);
}

/* A 1024x1024x32 copy (BITBLT_MULTI) from src to dst, reps times per IB. */
static void blit_copy(Bench *b, const char *what, uint64_t src, uint64_t dst,
                      unsigned reps)
{
    uint32_t *p = ib(b), n = 0;
    double t;

    p[n++] = R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 2 + 3 * reps);
    p[n++] = gmc(true, GMC_VAL(BRUSH_DATATYPE, NONE), GMC_VAL(ROP3, SRCCOPY));
    p[n++] = po(src, SURF_PITCH);
    p[n++] = po(dst, SURF_PITCH);
    for (unsigned i = 0; i < reps; i++) {
        p[n++] = 0;
        p[n++] = 0;
        p[n++] = SURF_W << 16 | SURF_H;
    }
    /* a pattern to copy, different from what dst holds */
    for (uint32_t i = 0; i < SURF_PITCH * SURF_H; i++) {
        host(b, src)[i] = i * 13 + (i >> 12);
    }
    t = run_ib(b, n);
    if (memcmp(host(b, src), host(b, dst), SURF_PITCH * SURF_H)) {
        fprintf(stderr, "r500-bench-core: the %s copy is wrong\n", what);
        b->failed = true;
    }
    printf("2d copy %s: %.1f MB/s (%ux%u ARGB8888 rectangles)\n", what,
           (double)SURF_PITCH * SURF_H * reps / t / 1e6, SURF_W, SURF_H);
}

/* ---- Footprint ---- */

static void sizes(void)
{
#define SZ(name, v) printf("size %s: %zu\n", name, (size_t)(v))
    SZ("R500Chip", sizeof(R500Chip));
    SZ("regs", sizeof(((R500Chip *)0)->regs));
    SZ("cp", sizeof(R500CP));
    SZ("rb2d", sizeof(R500Rb2d));
    SZ("disp", sizeof(R500Disp));
    SZ("vap", sizeof(R500Vap));
    SZ("vap.prog (decoded PVS program)", sizeof(R500PvsProg));
    SZ("rast", sizeof(R500Rast));
    SZ("us", sizeof(R500Us));
    SZ("us.prog (decoded US program)", sizeof(R500UsProg));
    SZ("tx", sizeof(R500Tx));
    SZ("rb3d", sizeof(R500Rb3d));
    SZ("rb3d.cache (3D page cache)", sizeof(R500Cache));
#undef SZ
}

int main(int argc, char **argv)
{
    static Bench b;
    bool quick = argc > 1 && !strcmp(argv[1], "--quick");
    uint32_t max = KDRV_IB_POOL_SIZE / 4;
    char *err = NULL;

    b.min_seconds = quick ? 0.0 : 0.5;
    if (!bench_init(&b, &err)) {
        fprintf(stderr, "r500-bench-core: %s\n", err);
        return 1;
    }
    printf("model: %s\n", b.chip.info->marketing);
    cp_type0(&b, quick ? 1024 : max);
    cp_consts(&b, quick ? 2048 : max);
    cp_nops(&b, quick ? 1024 : max);
    blit_fill(&b, quick ? 1 : 8);
    blit_copy(&b, "VRAM to VRAM", SURF_A, SURF_B, quick ? 1 : 8);
    blit_copy(&b, "GTT to VRAM", VRAM_SIZE + SURF_GTT, SURF_B, quick ? 1 : 4);
    blit_copy(&b, "VRAM to GTT", SURF_A, VRAM_SIZE + SURF_GTT, quick ? 1 : 4);
    sizes();
    printf("guest errors: %" G_GUINT64_FORMAT "\n", b.chip.guest_errors);
    r500_chip_finalize(&b.chip);
    g_free(b.kd.vram);
    g_free(b.kd.ram);
    return b.chip.guest_errors || b.failed ? 1 : 0;
}
