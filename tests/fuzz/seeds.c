/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seed corpora of the fuzz targets, made from the scenarios the unit tests
 * and qtests run (the kernel's ring test, IB test and fences, 2D fills,
 * copies and host-data blits, the 3D packets Mesa emits, a triangle
 * through a one-instruction shader or a texture, the AtomBIOS tables the
 * driver runs), in each target's input format.  Built and run by meson
 * (tests/fuzz/meson.build):
 *
 *   fuzz-seeds DIR                  write DIR/<target>/<scenario> for all
 *   fuzz-seeds --pm4-ib FILE OUT    a pm4 seed running FILE (raw
 *                                   little-endian dwords: an IB, e.g. a
 *                                   Mesa harness capture's CS) from the ring
 *   fuzz-seeds --pm4-ring FILE OUT  a pm4 seed whose ring is FILE (ring
 *                                   traffic recorded from a guest)
 */
#include <stdio.h>
#include <string.h>

#include "3d-format.h"
#include "pm4-format.h"
#include "mmio-load.h"
#include "../qtest/r500-driver-seq.h"

typedef struct Seed {
    GByteArray *b;
} Seed;

static void put8(Seed *s, uint8_t v)
{
    g_byte_array_append(s->b, &v, 1);
}

static void putn(Seed *s, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        put8(s, v >> (8 * i));
    }
}

static uint32_t fl(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

static void write_seed(const char *path, Seed *s)
{
    GError *err = NULL;

    if (!g_file_set_contents(path, (const char *)s->b->data, s->b->len,
                             &err)) {
        g_printerr("fuzz-seeds: %s\n", err->message);
        exit(1);
    }
    g_byte_array_unref(s->b);
    s->b = NULL;
}

static void save(const char *dir, const char *target, const char *name,
                 Seed *s)
{
    char *d = g_build_filename(dir, target, NULL);
    char *path = g_build_filename(d, name, NULL);

    g_mkdir_with_parents(d, 0755);
    write_seed(path, s);
    g_free(path);
    g_free(d);
}

/* ---- pm4 ---- */

typedef struct Pm4 {
    GArray *ring, *ib;
    uint8_t flags, bufsz;
    uint32_t seq;
} Pm4;

static Pm4 pm4_new(uint8_t flags)
{
    return (Pm4) {
        .ring = g_array_new(FALSE, FALSE, 4),
        .ib = g_array_new(FALSE, FALSE, 4),
        .flags = flags,
        .bufsz = 10 - 4,        /* 2048 dwords */
    };
}

static void r(Pm4 *p, uint32_t v)
{
    g_array_append_val(p->ring, v);
}

static void ib(Pm4 *p, uint32_t v)
{
    g_array_append_val(p->ib, v);
}

/* r300_fence_ring_emit */
static void fence(Pm4 *p)
{
    uint32_t dw[R500_SEQ_FENCE_DWORDS];

    r500_seq_fence(dw, ++p->seq);
    for (unsigned i = 0; i < R500_SEQ_FENCE_DWORDS; i++) {
        r(p, dw[i]);
    }
}

/* r100_ring_ib_execute: the IB area from dword 'at', n dwords. */
static void launch(Pm4 *p, uint32_t mc, uint32_t n)
{
    r(p, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 3), 0));
    r(p, p->ring->len + 4);
    r(p, R500_PM4_PACKET0(R_CP_IB_BASE, 1));
    r(p, mc);
    r(p, n);
}

static Seed pm4_encode(Pm4 *p)
{
    Seed s = { g_byte_array_new() };

    while (p->ring->len & 15) {
        r(p, R500_PM4_PACKET2);
    }
    put8(&s, p->flags);
    put8(&s, p->bufsz);
    putn(&s, p->ring->len, 2);
    for (unsigned i = 0; i < p->ring->len; i++) {
        putn(&s, g_array_index(p->ring, uint32_t, i), 4);
    }
    for (unsigned i = 0; i < p->ib->len; i++) {
        putn(&s, g_array_index(p->ib, uint32_t, i), 4);
    }
    g_array_free(p->ring, TRUE);
    g_array_free(p->ib, TRUE);
    return s;
}

static void pm4_save(const char *dir, const char *name, Pm4 *p)
{
    Seed s = pm4_encode(p);

    save(dir, "pm4", name, &s);
}

/*
 * A triangle in clip space for the TCL state (FUZZ_3D_TCL, the pm4 seed's
 * too), w differing so the perspective divide is not a no-op, z over the
 * depth range; x, y, z, w, then colour.
 */
static const float clip_tri[3][8] = {
    { -0.9f, -0.9f, 0.1f, 1, 0, 0, 0, 1 },
    { 1.8f, -1.8f, 1.0f, 2, 1, 0, 0, 1 },
    { -0.9f, 0.9f, 0.8f, 1, 0, 1, 0, 1 },
};

/* A type-0 write into the IB (r500-driver-seq.h's writer). */
static void ib_w(void *opaque, uint32_t reg, uint32_t val)
{
    ib(opaque, R500_PM4_PACKET0(reg, 0));
    ib(opaque, val);
}

/* DP_GUI_MASTER_CNTL: 32 bpp, solid brush or none, ROP, source. */
#define GMC(src_po, dst_po, brush, srctype, rop, srcsrc, clip) \
    ((src_po) | (dst_po) << 1 | (clip) << 3 | (brush) << 4 | 6u << 8 | \
     (srctype) << 12 | (uint32_t)(rop) << 16 | (srcsrc) << 24 | 1u << 28 | \
     1u << 30)

static uint32_t surf_po(uint32_t mc, uint32_t pitch)
{
    return (pitch / 64) << 22 | mc >> 10;
}

static void pm4_seeds(const char *dir)
{
    uint32_t po = surf_po(PM4_SURF_VRAM, PM4_SURF_PITCH);
    Pm4 p;

    /* r100_ring_test */
    p = pm4_new(0);
    r(&p, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 1), 0));
    r(&p, 0xDEADBEEF);
    pm4_save(dir, "ring-test", &p);

    /* r100_ib_test with a fence and its interrupt; IB in the GTT */
    p = pm4_new(PM4_IRQS);
    ib(&p, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 2), 0));
    ib(&p, 0xDEADBEEF);
    for (int i = 0; i < 6; i++) {
        ib(&p, R500_PM4_PACKET2);
    }
    launch(&p, PM4_IB_GTT, 8);
    fence(&p);
    pm4_save(dir, "ib-test-fence", &p);

    /* The same from VRAM, ring in VRAM, table in RAM, run twice */
    p = pm4_new(PM4_RING_VRAM | PM4_TABLE_RAM | PM4_RERUN | 3);
    ib(&p, R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 2), 0));
    ib(&p, 0xDEADBEEF);
    launch(&p, PM4_IB_VRAM, 2);
    fence(&p);
    pm4_save(dir, "ib-vram-rerun", &p);

    /* 2D: PAINT_MULTI, BITBLT_MULTI (r100_copy_blit), host data */
    p = pm4_new(1);
    r(&p, R500_PM4_PACKET3(R500_PM4_OP_CNTL_PAINT_MULTI, 4));
    r(&p, GMC(0, 1, 13u, 3u, 0xF0, 0u, 0));
    r(&p, po);
    r(&p, 0x00C0FFEE);
    r(&p, 16u << 16 | 4);
    r(&p, 64u << 16 | 8);
    r(&p, R500_PM4_PACKET3(R500_PM4_OP_CNTL_BITBLT_MULTI, 8));
    r(&p, 0x52CC36FF);
    r(&p, po);
    r(&p, surf_po(FUZZ_GTT_MC + 128 * 4096, 4096));
    r(&p, 0x1FFF1FFF);
    r(&p, 0);
    r(&p, 0x1FFF1FFF);
    r(&p, 4);
    r(&p, 0);
    r(&p, 1024u << 16 | 2);
    r(&p, R500_PM4_PACKET3(R500_PM4_OP_CNTL_HOSTDATA_BLT, 8));
    r(&p, GMC(0, 1, 15u, 0u, 0xCC, 3u, 0));
    r(&p, po);
    r(&p, 0xAAAAAAAA);
    r(&p, 0x55555555);
    r(&p, 50u << 16);
    r(&p, 2u << 16 | 32);
    r(&p, 2);
    r(&p, 0x0000FFFF);
    r(&p, 0xFFFF0000);
    r(&p, R500_PM4_PACKET0(R_DSTCACHE_CTLSTAT, 0));
    r(&p, 0xF);
    fence(&p);
    pm4_save(dir, "2d", &p);

    /* 2D by type-0 writes: an overlapping right-to-left copy (XAA) */
    p = pm4_new(2);
    r(&p, R500_PM4_PACKET0(R_DP_GUI_MASTER_CNTL, 0));
    r(&p, GMC(1, 1, 15u, 3u, 0xCC, 2u, 0));
    r(&p, R500_PM4_PACKET0(R_DP_CNTL, 0));
    r(&p, 2);
    r(&p, R500_PM4_PACKET0(R_SRC_PITCH_OFFSET, 1));
    r(&p, po);
    r(&p, po);
    r(&p, R500_PM4_PACKET0(R_SRC_Y_X, 0));
    r(&p, 4u << 16 | 79);
    r(&p, R500_PM4_PACKET0(R_DST_Y_X, 1));
    r(&p, 4u << 16 | 87);
    r(&p, 1u << 16 | 64);
    pm4_save(dir, "2d-type0", &p);

    /* 3D packets as Mesa emits them (IB), with INDX_BUFFER */
    p = pm4_new(PM4_IRQS | 1);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_LOAD_VBPNTR, 5));
    ib(&p, 3);
    ib(&p, (4 << 8) | 3 | (2 << 24) | (2 << 16));
    ib(&p, 0x1000);
    ib(&p, 0x2000);
    ib(&p, (1 << 8) | 1);
    ib(&p, 0x3000);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
    ib(&p, (3u << 16) | (2 << 4) | 4);
    ib(&p, R500_PM4_PACKET0(R_VAP_VTX_SIZE, 0));
    ib(&p, 2);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 4));
    ib(&p, (2u << 16) | (3 << 4) | 1);
    for (int i = 0; i < 4; i++) {
        ib(&p, i);
    }
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_INDX_2, 0));
    ib(&p, (5u << 16) | (1 << 4) | 4);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_INDX_BUFFER, 2));
    ib(&p, (1u << 31) | (R_VAP_PORT_IDX0 >> 2));
    ib(&p, PM4_IB_GTT);
    ib(&p, 3);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_CLEAR_HIZ, 2));
    ib(&p, 0);
    ib(&p, 64);
    ib(&p, 0xFFFFFFFF);
    launch(&p, PM4_IB_GTT, p.ib->len);
    fence(&p);
    pm4_save(dir, "3d-packets", &p);

    /*
     * A triangle through the CP as Mesa with hardware TCL draws it (IB
     * in the GTT): the minimal 3D state into a 64x64 target, the VTE's
     * viewport with clipping on, clip-space vertices in the packet, a
     * fence: on gl, the vertex stage on the host and a sync point.
     */
    p = pm4_new(PM4_IRQS | 1);
    r500_seq_3d_minimal(ib_w, &p, PM4_SURF_VRAM, 64, 64);
    r500_seq_3d_tcl(ib_w, &p, 64, 64, false);
    ib(&p, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 3 * 8));
    ib(&p, (3u << 16) | (3 << 4) | 4);
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned k = 0; k < 8; k++) {
            ib(&p, fl(clip_tri[i][k]));
        }
    }
    launch(&p, PM4_IB_GTT, p.ib->len);
    fence(&p);
    pm4_save(dir, "3d-tcl-triangle", &p);

    /* Indirect ports and GART registers written by the stream */
    p = pm4_new(0);
    r(&p, R500_PM4_PACKET0(R_PCIE_INDEX, 1));
    r(&p, PCIE_PCIE_TX_GART_CNTL);
    r(&p, 7 | (1u << 8));
    r(&p, R500_PM4_PACKET0(R_MM_INDEX, 1));
    r(&p, 0x80000000u | PM4_SURF_VRAM);
    r(&p, 0x12345678);
    r(&p, R500_PM4_PACKET0(R_CLOCK_CNTL_INDEX, 1));
    r(&p, 0x80 | 0x0F);
    r(&p, 0xC0FFEE);
    r(&p, R500_PM4_PACKET3(R500_PM4_OP_NOP, 1));
    r(&p, 0);
    r(&p, 0);
    pm4_save(dir, "ports", &p);
}

/* A seed around a file of raw little-endian dwords. */
static int pm4_from_file(const char *file, const char *out, bool as_ib)
{
    /* The largest ring the target makes, less the commit padding. */
    const uint32_t ring_max = (2u << 14) - 16;
    gchar *data;
    gsize len;
    GError *err = NULL;
    Pm4 p = pm4_new(PM4_IRQS);
    Seed s;

    if (!g_file_get_contents(file, &data, &len, &err)) {
        g_printerr("fuzz-seeds: %s\n", err->message);
        return 1;
    }
    len /= 4;
    if (as_ib) {
        len = MIN(len, PM4_IB_DWORDS);
        launch(&p, PM4_IB_GTT, len);
        fence(&p);
    } else {
        len = MIN(len, ring_max);
    }
    for (gsize i = 0; i < len; i++) {
        uint32_t v;

        memcpy(&v, data + 4 * i, 4);
        if (as_ib) {
            ib(&p, GUINT32_FROM_LE(v));
        } else {
            r(&p, GUINT32_FROM_LE(v));
        }
    }
    g_free(data);
    p.bufsz = 14 - 4;
    s = pm4_encode(&p);
    write_seed(out, &s);
    return 0;
}

/* ---- mmio ---- */

static void mw(Seed *s, uint32_t reg, uint64_t val, unsigned size)
{
    put8(s, 0 | (size - 1) << 3);
    putn(s, reg, 2);
    putn(s, val, size);
}

static void mr(Seed *s, uint32_t reg, unsigned size)
{
    put8(s, 1 | (size - 1) << 3);
    putn(s, reg, 2);
}

static void mrun(Seed *s)
{
    put8(s, 2 | 7 << 3);
}

static void mram(Seed *s, uint32_t bus, const uint32_t *dw, unsigned n)
{
    put8(s, 4);
    putn(s, bus / 64, 2);
    put8(s, 4 * n);
    for (unsigned i = 0; i < n; i++) {
        putn(s, dw[i], 4);
    }
}

static void mmio_seeds(const char *dir)
{
    const uint32_t ring = 0x100000, wb = 0x80000;
    const uint32_t ring_dw[] = {
        R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 1), 0), 0xDEADBEEF,
        R500_PM4_PACKET0(R_GEN_INT_STATUS, 0),
        R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE),
    };
    Seed s = { g_byte_array_new() };

    /* r100_cp_init by MMIO, a ring in guest RAM (pass-through), kick. */
    put8(&s, 0);
    mw(&s, R_CP_RB_CNTL, 10 | (1u << 27), 4);
    mw(&s, R_CP_RB_BASE, ring, 4);
    mw(&s, R_CP_RB_RPTR_ADDR, wb + 1024, 4);
    mw(&s, R_SCRATCH_ADDR, wb, 4);
    mw(&s, R_SCRATCH_UMSK, 0xFF, 4);
    mw(&s, R_CP_RB_CNTL, 10, 4);
    mw(&s, R_GEN_INT_CNTL, R500_FMASK(GEN_INT_STATUS, SW_INT), 4);
    mw(&s, R_CP_CSQ_CNTL, 4u << 28, 4);
    mram(&s, ring, ring_dw, G_N_ELEMENTS(ring_dw));
    mw(&s, R_CP_RB_WPTR, 4, 4);
    mrun(&s);
    mr(&s, R500_REGA_AT(SCRATCH_REG, 1), 4);
    mr(&s, R_RBBM_STATUS, 4);
    mr(&s, R_GEN_INT_STATUS, 4);
    mw(&s, R_GEN_INT_STATUS, R500_FMASK(GEN_INT_STATUS, SW_INT), 4);
    save(dir, "mmio", "cp-init", &s);

    /* The indirect ports as radeon reaches them. */
    s.b = g_byte_array_new();
    put8(&s, 1);
    mw(&s, R_CLOCK_CNTL_INDEX, 0x8F, 1);
    mw(&s, R_CLOCK_CNTL_DATA, 0xC0FFEE, 4);
    mr(&s, R_CLOCK_CNTL_DATA, 4);
    mw(&s, R_MC_IND_INDEX, 0xFF0004, 4);
    mw(&s, R_MC_IND_DATA, 0x00FF0000, 4);
    mw(&s, R_MC_IND_INDEX, 0x7F0000, 4);
    mr(&s, R_MC_IND_DATA, 4);
    mw(&s, R_PCIE_INDEX, PCIE_PCIE_TX_GART_CNTL, 4);
    mw(&s, R_PCIE_DATA, 7, 4);
    mw(&s, R_MM_INDEX, 0x80000000u | 0x1000, 4);
    mw(&s, R_MM_DATA, 0xA5A55A5A, 4);
    mr(&s, R_MM_DATA, 4);
    mw(&s, R_MM_INDEX, R500_REGA_AT(SCRATCH_REG, 3), 4);
    mw(&s, R_MM_DATA, 0x12345678, 4);
    save(dir, "mmio", "ports", &s);

    /* Every access size and alignment on a scratch register. */
    s.b = g_byte_array_new();
    put8(&s, 2);
    for (unsigned size = 1; size <= 8; size++) {
        for (unsigned a = 0; a < 4; a++) {
            mw(&s, R500_REGA_AT(SCRATCH_REG, 5) + a, 0x0102030405060708ull,
               size);
            mr(&s, R500_REGA_AT(SCRATCH_REG, 5) + a, size);
        }
    }
    mr(&s, R500_MMIO_SIZE - 2, 8);
    save(dir, "mmio", "sizes", &s);

    /* A host-data blit interrupted by reset, then a corrupt migration. */
    s.b = g_byte_array_new();
    put8(&s, 3);
    mw(&s, R_DP_GUI_MASTER_CNTL, GMC(0, 1, 15u, 0u, 0xCC, 3u, 0), 4);
    mw(&s, R_DST_PITCH_OFFSET, surf_po(PM4_SURF_VRAM, 4096), 4);
    mw(&s, R_DST_Y_X, 50u << 16, 4);
    mw(&s, R_DST_HEIGHT_WIDTH, 2u << 16 | 32, 4);
    mw(&s, R_HOST_DATA, 0x0000FFFF, 4);
    put8(&s, 7);            /* load: host.cy = a large value */
    put8(&s, fuzz_load_chip_field("rb2d.host.cy"));
    putn(&s, 0x7FFFFFFF, 4);
    mw(&s, R_HOST_DATA_LAST, 0xFFFF0000, 4);
    put8(&s, 6);            /* reset */
    mr(&s, R_RBBM_STATUS, 4);
    save(dir, "mmio", "hostdata-load-reset", &s);

    /*
     * Surface registers as r100_set_surface_reg writes them (INFO, LOWER,
     * UPPER), MM_DATA through the window, an overlap, one past VRAM, and
     * translation switched off.
     */
    s.b = g_byte_array_new();
    put8(&s, 0);
    mw(&s, R500_REGA_AT(SURFACE_INFO, 0), 1u << 16 | 4096 / 8, 4);
    mw(&s, R500_REGA_AT(SURFACE_LOWER_BOUND, 0), 0x100000, 4);
    mw(&s, R500_REGA_AT(SURFACE_UPPER_BOUND, 0), 0x1FFFFF, 4);
    mw(&s, R_MM_INDEX, 0x80000000u | 0x101234, 4);
    mw(&s, R_MM_DATA, 0xA5A55A5A, 4);
    mr(&s, R_MM_DATA, 4);
    mw(&s, R500_REGA_AT(SURFACE_INFO, 1), 3u << 16 | 8 / 8, 4);
    mw(&s, R500_REGA_AT(SURFACE_LOWER_BOUND, 1), 0x180000, 4);
    mw(&s, R500_REGA_AT(SURFACE_UPPER_BOUND, 1), FUZZ_VRAM_SIZE - 1, 4);
    mw(&s, R_MM_INDEX, 0x80000000u | (FUZZ_VRAM_SIZE - 0x400), 4);
    mw(&s, R_MM_DATA, 0x12345678, 4);
    mw(&s, R500_REGA_AT(SURFACE_UPPER_BOUND, 2), FUZZ_VRAM_SIZE + 0x1000, 4);
    mw(&s, R500_REGA_AT(SURFACE_INFO, 2), 2u << 16 | 1024 / 8, 4);
    mw(&s, R_SURFACE_CNTL, 1u << 8, 4);
    mr(&s, R_MM_DATA, 4);
    put8(&s, 6);            /* reset */
    mr(&s, R_MM_DATA, 4);
    save(dir, "mmio", "surfaces", &s);
}

/* ---- rb2d ---- */

/* Index of a register in fuzz-rb2d.c's list (kept in the same order). */
enum {
    S_GMC, S_DATATYPE, S_MIX, S_CNTL, S_WMASK, S_DST_PO, S_SRC_PO,
    S_DEF_PO, S_SC_TL, S_SC_BR, S_DEF_SC_BR, S_SRC_SC_BR, S_SRC_YX, S_DST_YX,
    S_SRC_XY, S_DST_XY, S_DST_HW, S_DST_WH, S_BRUSH_FG, S_BRUSH_BG, S_SRC_FG,
    S_SRC_BG, S_BRUSH_YX, S_BRUSH0, S_BRUSH1, S_CMP, S_HOST0, S_HOST1,
    S_HOST7, S_HOST_LAST, S_SOFT_RESET, S_GUICNTL, S_DST_OFFSET, S_DST_PITCH,
    S_RUN,
};

static void w2(Seed *s, uint8_t sel, uint32_t v)
{
    put8(s, sel);
    putn(s, v, 4);
}

static void rb2d_seeds(const char *dir)
{
    uint32_t po = surf_po(PM4_SURF_VRAM, PM4_SURF_PITCH);
    uint32_t end = surf_po(FUZZ_VRAM_SIZE - 2 * PM4_SURF_PITCH,
                           PM4_SURF_PITCH);
    Seed s = { g_byte_array_new() };

    /* Fill, then one touching the last byte of VRAM, then past it. */
    put8(&s, 0);
    w2(&s, S_GMC, GMC(0, 1, 13u, 3u, 0xF0, 0u, 0));
    w2(&s, S_DST_PO, po);
    w2(&s, S_BRUSH_FG, 0x00C0FFEE);
    w2(&s, S_DST_YX, 4u << 16 | 16);
    w2(&s, S_DST_HW, 8u << 16 | 64);
    w2(&s, S_DST_PO, end);
    w2(&s, S_DST_YX, 1u << 16);
    w2(&s, S_DST_HW, 1u << 16 | 1024);
    w2(&s, S_DST_YX, 1u << 16 | 1);
    w2(&s, S_DST_HW, 1u << 16 | 1024);
    save(dir, "rb2d", "fill-vram-end", &s);

    /* Overlapping copies both ways, ROP with a write mask, clipped. */
    s.b = g_byte_array_new();
    put8(&s, 1);
    w2(&s, S_GMC, GMC(1, 1, 15u, 3u, 0xCC, 2u, 1));
    w2(&s, S_SRC_PO, po);
    w2(&s, S_DST_PO, po);
    w2(&s, S_SC_TL, 0);
    w2(&s, S_SC_BR, 100u << 16 | 100);
    w2(&s, S_CNTL, 3);
    w2(&s, S_SRC_YX, 10u << 16 | 10);
    w2(&s, S_DST_YX, 12u << 16 | 13);
    w2(&s, S_DST_HW, 30u << 16 | 40);
    w2(&s, S_CNTL, 0);
    w2(&s, S_SRC_YX, 39u << 16 | 49);
    w2(&s, S_DST_YX, 41u << 16 | 52);
    w2(&s, S_DST_HW, 30u << 16 | 40);
    w2(&s, S_GMC, GMC(1, 1, 15u, 3u, 0x66, 2u, 0) & ~(1u << 30));
    w2(&s, S_WMASK, 0x00FF00FF);
    w2(&s, S_DST_HW, 3u << 16 | 3);
    save(dir, "rb2d", "copy-overlap", &s);

    /* Host data: mono expansion (XAA) and colour, cut short. */
    s.b = g_byte_array_new();
    put8(&s, 2);
    w2(&s, S_GMC, GMC(0, 1, 15u, 0u, 0xCC, 3u, 0));
    w2(&s, S_DST_PO, po);
    w2(&s, S_SRC_FG, 0xAAAAAAAA);
    w2(&s, S_SRC_BG, 0x55555555);
    w2(&s, S_DST_YX, 50u << 16);
    w2(&s, S_DST_HW, 2u << 16 | 32);
    w2(&s, S_HOST0, 0x0000FFFF);
    w2(&s, S_HOST_LAST, 0xFFFF0000);
    w2(&s, S_GMC, GMC(0, 1, 15u, 3u, 0xCC, 3u, 0));
    w2(&s, S_DST_HW, 4u << 16 | 3);
    for (int i = 0; i < 6; i++) {
        w2(&s, S_HOST1, 0x01010101u * i);
    }
    w2(&s, S_HOST_LAST, 0);
    save(dir, "rb2d", "host-data", &s);

    /* 8x8 mono pattern brush, 8 and 16 bpp, table in guest RAM. */
    s.b = g_byte_array_new();
    put8(&s, 4 | 3);
    w2(&s, S_GMC, (GMC(0, 1, 0u, 3u, 0xF0, 0u, 0) & ~(0xFu << 8)) | 2u << 8);
    w2(&s, S_DST_PO, po);
    w2(&s, S_BRUSH0, 0xAA55AA55);
    w2(&s, S_BRUSH1, 0x0FF00FF0);
    w2(&s, S_BRUSH_FG, 0x12);
    w2(&s, S_BRUSH_BG, 0x34);
    w2(&s, S_BRUSH_YX, 3u << 8 | 5);
    w2(&s, S_DST_YX, 1u << 16 | 3);
    w2(&s, S_DST_HW, 20u << 16 | 20);
    w2(&s, S_DATATYPE, 4);
    w2(&s, S_DST_HW, 20u << 16 | 20);
    save(dir, "rb2d", "pattern", &s);

    /*
     * The FIFO: big fills drawn a slice at a time, an overlapping copy
     * bottom to top, host data queued behind them, a reset with work
     * queued, and more triggers than the FIFO holds.
     */
    s.b = g_byte_array_new();
    put8(&s, 1);
    w2(&s, S_GMC, GMC(0, 1, 13u, 3u, 0x5A, 0u, 0));
    w2(&s, S_DST_PO, surf_po(PM4_SURF_VRAM, 255 * 64));
    w2(&s, S_BRUSH_FG, 0x00FF00FF);
    w2(&s, S_DST_YX, 0);
    w2(&s, S_DST_HW, 256u << 16 | 4080);
    w2(&s, S_DST_HW, 128u << 16 | 4080);
    w2(&s, S_RUN, 1);
    w2(&s, S_GMC, GMC(1, 1, 15u, 3u, 0xCC, 2u, 0));
    w2(&s, S_SRC_PO, surf_po(PM4_SURF_VRAM, 255 * 64));
    w2(&s, S_CNTL, 1);
    w2(&s, S_SRC_YX, 198u << 16);
    w2(&s, S_DST_YX, 199u << 16);
    w2(&s, S_DST_HW, 199u << 16 | 4080);
    w2(&s, S_GMC, GMC(0, 1, 15u, 0u, 0xCC, 3u, 0));
    w2(&s, S_DST_YX, 20u << 16);
    w2(&s, S_DST_HW, 2u << 16 | 32);
    w2(&s, S_HOST0, 0x0000FFFF);
    w2(&s, S_RUN, 2);
    w2(&s, S_HOST_LAST, 0xFFFF0000);
    w2(&s, S_GMC, GMC(0, 1, 13u, 3u, 0x55, 0u, 0));
    w2(&s, S_DST_HW, 256u << 16 | 4080);
    w2(&s, S_SOFT_RESET, 1u << 5);
    w2(&s, S_SOFT_RESET, 0);
    for (int i = 0; i < 70; i++) {
        w2(&s, S_DST_HW, 16u << 16 | 256);
    }
    w2(&s, S_RUN, 7);
    save(dir, "rb2d", "fifo", &s);

    /*
     * Tiled surfaces, as the kernel ORs the BO's tiling into the pitch/
     * offset (bit 30 macro, 31 micro): a fill, a copy tiled to tiled and
     * to linear, host data, and a rectangle leaving the tiled row.
     */
    s.b = g_byte_array_new();
    put8(&s, 0);
    w2(&s, S_GMC, GMC(0, 1, 13u, 3u, 0xF0, 0u, 0));
    w2(&s, S_DST_PO, po | 1u << 30);
    w2(&s, S_BRUSH_FG, 0x00C0FFEE);
    w2(&s, S_DST_YX, 3u << 16 | 5);
    w2(&s, S_DST_HW, 40u << 16 | 70);
    w2(&s, S_GMC, GMC(1, 1, 15u, 3u, 0xCC, 2u, 0));
    w2(&s, S_SRC_PO, po | 1u << 30);
    w2(&s, S_DST_PO, po | 3u << 30);
    w2(&s, S_SRC_YX, 2u << 16 | 1);
    w2(&s, S_DST_YX, 9u << 16 | 11);
    w2(&s, S_DST_HW, 30u << 16 | 60);
    w2(&s, S_SRC_PO, po | 3u << 30);
    w2(&s, S_DST_PO, end);
    w2(&s, S_DST_HW, 30u << 16 | 60);
    w2(&s, S_GMC, GMC(0, 1, 15u, 3u, 0xCC, 3u, 0));
    w2(&s, S_DST_PO, po | 2u << 30);
    w2(&s, S_DST_HW, 2u << 16 | 4);
    for (int i = 0; i < 8; i++) {
        w2(&s, S_HOST1, 0x01010101u * i);
    }
    w2(&s, S_GMC, GMC(0, 1, 13u, 3u, 0xF0, 0u, 0));
    w2(&s, S_DST_PO, po | 1u << 30);
    w2(&s, S_DST_YX, 0u << 16 | (PM4_SURF_PITCH / 4 - 8));
    w2(&s, S_DST_HW, 4u << 16 | 64);
    save(dir, "rb2d", "tiled", &s);
}

/* ---- generic-fuzz-r500 (QEMU's tests/qtest/fuzz/generic_fuzz.c) ---- */

/*
 * Its commands, separated by "FUZZ": OP_WRITE = 3 (struct { u8 size;
 * u8 base; u32 offset; u64 value }, 16 bytes with padding), OP_ADD_DMA_
 * PATTERN = 7 (u8 index, u8 stride, data), OP_CLOCK_STEP = 9.  base
 * indexes the card's MMIO regions in address order (vga-lowmem, then
 * r500.mmio), modulo their number: both indices are tried.
 */
static void g_sep(Seed *s)
{
    g_byte_array_append(s->b, (const guint8 *)"FUZZ", 4);
}

static void g_write(Seed *s, uint8_t base, uint32_t reg, uint32_t val)
{
    put8(s, 3);
    put8(s, 2);         /* a dword */
    put8(s, base);
    putn(s, 0, 2);
    putn(s, reg, 4);
    putn(s, val, 8);
    g_sep(s);
}

static void generic_seeds(const char *dir)
{
    const uint32_t ring[] = {
        R500_PM4_PACKET0(R500_REGA_AT(SCRATCH_REG, 1), 0), 0xDEADBEEF,
        R500_PM4_PACKET0(R_GEN_INT_STATUS, 0),
        R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE),
    };

    for (uint8_t base = 1; base <= 2; base++) {
        Seed s = { g_byte_array_new() };
        char name[32];

        /* The ring is read by DMA: the pattern is what the CP finds. */
        put8(&s, 7);
        put8(&s, 0);
        put8(&s, 0);
        for (unsigned i = 0; i < G_N_ELEMENTS(ring); i++) {
            putn(&s, ring[i], 4);
        }
        g_sep(&s);
        g_write(&s, base, R_CP_RB_CNTL, 10);
        g_write(&s, base, R_CP_RB_BASE, 0x100000);
        g_write(&s, base, R_GEN_INT_CNTL, R500_FMASK(GEN_INT_STATUS, SW_INT));
        g_write(&s, base, R_CP_CSQ_CNTL, 4u << 28);
        g_write(&s, base, R_CP_RB_WPTR, 64);
        put8(&s, 9);
        g_snprintf(name, sizeof(name), "cp-ring-%u", base);
        save(dir, "generic", name, &s);

        s.b = g_byte_array_new();
        g_write(&s, base, R_DP_GUI_MASTER_CNTL,
                GMC(0, 1, 13u, 3u, 0xF0, 0u, 0));
        g_write(&s, base, R_DST_PITCH_OFFSET,
                surf_po(PM4_SURF_VRAM / 16, 1024));
        g_write(&s, base, R_DP_BRUSH_FRGD_CLR, 0xFF00FF);
        g_write(&s, base, R_DST_Y_X, 3u << 16 | 5);
        g_write(&s, base, R_DST_HEIGHT_WIDTH, 9u << 16 | 7);
        g_write(&s, base, R_MM_INDEX, 0x80000000u | 0x40);
        g_write(&s, base, R_MM_DATA, 0x12345678);
        g_snprintf(name, sizeof(name), "2d-%u", base);
        save(dir, "generic", name, &s);
    }
}

/* ---- us, pvs, tx: fuzz-3d.c's draw tail; atom ---- */

/* A triangle list over the 64x64 target, colour = texcoords (0..1). */
static const float win_tri[3][8] = {
    { 0, 0, 0.5f, 1, 0, 0, 0, 1 },
    { 64, 0, 0.5f, 1, 1, 0, 0, 1 },
    { 0, 64, 0.5f, 1, 0, 1, 0, 1 },
};


/*
 * fuzz-3d.c's tail: the triangle, then the pipeline byte pipe
 * (fuzz-3d.h) and the u32s its bits take.
 */
static void draw_tail(Seed *s, const float v[3][8], uint8_t pipe,
                      const uint32_t *more, unsigned nmore)
{
    put8(s, 3);             /* PRIM_TYPE 1 + 3 = triangle list */
    put8(s, 2);             /* 3 vertices */
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned k = 0; k < 8; k++) {
            putn(s, fl(v[i][k]), 4);
        }
    }
    put8(s, pipe);
    for (unsigned i = 0; i < nmore; i++) {
        putn(s, more[i], 4);
    }
}

/*
 * A Z24S8 buffer (ZB_FORMAT 2), Z_ENABLE and ZWRITEENABLE, ZFUNC ALWAYS:
 * the draw writes depth, whatever the buffer held.
 */
static const uint32_t zb_always[4] = { 2, 6, 7, 0 };

/* US: rgb, a = t0 (the colour) to target 0, constants 1.0. */
static void us_seed(Seed *s, const uint32_t inst[6])
{
    put8(s, 0);
    put8(s, 0);             /* one instruction */
    for (int i = 0; i < 8; i++) {
        putn(s, 0, 4);
    }
    for (int i = 0; i < 16; i++) {
        putn(s, fl(1.0f), 4);
    }
    for (int i = 0; i < 6; i++) {
        putn(s, inst[i], 4);
    }
}

/* PVS: the n instructions of code, no flow control, constants 0.5. */
static void pvs_seed(Seed *s, uint8_t count, uint32_t code_cntl_0,
                     const uint32_t *code, unsigned n)
{
    put8(s, 1);
    put8(s, count);         /* count x 2 + 1 instructions */
    putn(s, code_cntl_0, 4);
    for (int i = 0; i < 4 + 16 * 3; i++) {
        putn(s, 0, 4);
    }
    for (int i = 0; i < 32; i++) {
        putn(s, fl(0.5f), 4);
    }
    for (unsigned i = 0; i < 4 * (count * 2u + 1); i++) {
        putn(s, i < n ? code[i] : 0, 4);
    }
}

/*
 * TX: unit 0 a 64x64 ARGB8888 texture at 3 MiB; with all, the other units
 * too, each of another format, filter, wrap and mip chain over the same
 * memory (the host-GL renderer draws only when every unit the program
 * samples is usable).
 */
static void tx_seed(Seed *s, bool all)
{
    /* W8Z8Y8X8, Z5Y6X5, W4Z4Y4X4, DXT1, X8, Y8X8, W16Z16Y16X16, DXT3 */
    static const uint8_t fmt[8] = { 0xC, 0x6, 0xA, 0xF, 0x0, 0x3, 0xE, 0x10 };

    put8(s, 2);
    putn(s, all ? 0xFFFF : 1, 4);
    for (unsigned u = 0; u < 16; u++) {
        bool on = !u || all;
        /* MAG/MIN point or linear, MIP none/point/linear, CLAMP_S/T */
        uint32_t filter0 = (u % 3) | (u / 3 % 3) << 3 | (1 + u % 2) << 9 |
                           (1 + u / 2 % 2) << 11 | (u % 3) << 13;

        putn(s, on && u ? filter0 : 0, 4);              /* FILTER0 */
        putn(s, 0, 4);                                  /* FILTER1 */
        /* 64x64, u % 4 levels below the first */
        putn(s, on ? 63u | 63u << 11 | (u % 4) << 26 : 0, 4);
        putn(s, on ? fmt[u % 8] | 1u << 12 | 2u << 15 | 3u << 18 : 0, 4);
        putn(s, 0, 4);                                  /* FORMAT2 */
        putn(s, on ? 0x300000 : 0, 4);                  /* OFFSET */
        putn(s, on ? 0xFF00FF00u : 0, 4);               /* BORDER */
    }
}

static void shader_seeds(const char *dir)
{
    static const uint32_t zeros[6];
    /* user clip plane 0: x > -0.5 in clip space */
    const uint32_t ucp[4] = { fl(1.0f), 0, 0, fl(0.5f) };
    Seed s = { g_byte_array_new() };

    /* One ALU instruction of zeros. */
    us_seed(&s, zeros);
    draw_tail(&s, win_tri, 0, NULL, 0);
    save(dir, "us", "one-instruction", &s);

    /*
     * The colour out, clip-space vertices in the TCL state over a depth
     * buffer: the host-GL renderer's vertex stage and depth.
     */
    s.b = g_byte_array_new();
    us_seed(&s, r500_seq_us_out);
    draw_tail(&s, clip_tri, FUZZ_3D_TCL | FUZZ_3D_ZB, zb_always, 4);
    save(dir, "us", "tcl-depth", &s);

    /* The first instruction only (PVS_LAST_INST 0), no flow control. */
    s.b = g_byte_array_new();
    pvs_seed(&s, 0, 0, zeros, 0);
    draw_tail(&s, win_tri, 0, NULL, 0);
    save(dir, "pvs", "one-instruction", &s);

    /*
     * The driver's pass-through (o0 = v0, o1 = v1; PVS_LAST_INST and
     * PVS_XYZW_VALID_INST 1) in the TCL state, y flipped, a user clip
     * plane: the vertex program as GLSL on the host.
     */
    s.b = g_byte_array_new();
    pvs_seed(&s, 2, 1u << 20 | 1u << 10, r500_seq_pvs_passthrough,
             G_N_ELEMENTS(r500_seq_pvs_passthrough));
    draw_tail(&s, clip_tri, FUZZ_3D_TCL | FUZZ_3D_FLIP | FUZZ_3D_UCP, ucp,
              4);
    save(dir, "pvs", "tcl-passthrough", &s);

    s.b = g_byte_array_new();
    tx_seed(&s, false);
    draw_tail(&s, win_tri, 0, NULL, 0);
    save(dir, "tx", "one-texture", &s);

    /* Every unit, clip-space vertices in the TCL state. */
    s.b = g_byte_array_new();
    tx_seed(&s, true);
    draw_tail(&s, clip_tri, FUZZ_3D_TCL, NULL, 0);
    save(dir, "tx", "tcl-all-units", &s);
}

/* The tables the driver runs at boot and modeset, as they are. */
static void atom_seeds(const char *dir)
{
    static const uint8_t tables[] = {
        0x00, 0x06, 0x0A, 0x0C, 0x18, 0x1E, 0x22, 0x23, 0x27, 0x2A, 0x42,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(tables); i++) {
        Seed s = { g_byte_array_new() };
        char name[16];

        put8(&s, i % R500_MODEL__COUNT);
        put8(&s, tables[i]);
        putn(&s, 0, 4);     /* parameter space: 32 bytes */
        putn(&s, 0, 4);
        putn(&s, 0, 8);
        putn(&s, 0, 8);
        putn(&s, 0, 8);
        g_snprintf(name, sizeof(name), "table-%02x", tables[i]);
        save(dir, "atom", name, &s);
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--pm4-ib")) {
        return pm4_from_file(argv[2], argv[3], true);
    }
    if (argc == 4 && !strcmp(argv[1], "--pm4-ring")) {
        return pm4_from_file(argv[2], argv[3], false);
    }
    if (argc != 2) {
        g_printerr("usage: fuzz-seeds DIR | --pm4-ib FILE OUT | "
                   "--pm4-ring FILE OUT\n");
        return 2;
    }
    pm4_seeds(argv[1]);
    mmio_seeds(argv[1]);
    rb2d_seeds(argv[1]);
    generic_seeds(argv[1]);
    shader_seeds(argv[1]);
    atom_seeds(argv[1]);
    return 0;
}
