/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the register file: byte lanes, the indirect spaces, reset
 * values, unknown registers, the name table.
 */
#include <string.h>

#include "migrate.h"
#include "test-host.h"

#define MiB (1024u * 1024u)

static void test_reset_values(void)
{
    for (int m = 0; m < R500_MODEL__COUNT; m++) {
        TestHost *h = test_host_new(m, 128);
        R500Chip *s = &h->chip;
        const R500ModelInfo *info = r500_model_info(m);

        g_assert_cmphex(r500_reg_read(s, R_CONFIG_MEMSIZE), ==, 128 * MiB);
        g_assert_cmphex(r500_reg_read(s, R_CONFIG_APER_SIZE), ==, 128 * MiB);
        g_assert_cmphex(r500_reg_read(s, R_RBBM_STATUS), ==, 0x40);
        g_assert_cmpuint(R500_FGET(r500_reg_read(s, R_GB_PIPE_SELECT),
                                   GB_PIPE_SELECT, NUM_PIPES_M1), ==,
                         info->quad_pipes - 1);
        g_assert_cmphex(r500_pcie_read(s, PCIE_PCIE_LC_LINK_WIDTH_CNTL), ==,
                        0x66);
        g_assert_cmphex(*r500_mc_reg(s, MC_MC_FB_LOCATION), ==, 0x07ff0000);
        /* RV530 alone reports two Z pipes through GB_PIPE_SELECT2. */
        g_assert_cmphex(r500_reg_read(s, R_RV530_GB_PIPE_SELECT2) & 3, ==,
                        m == R500_MODEL_RV530 ? 3 : 0);
        test_host_free(h);
    }
}

static void test_byte_lanes(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint32_t r = R500_REGA_AT(SCRATCH_REG, 1);

    r500_mmio_write(s, r, 0xaabbccdd, 4);
    r500_mmio_write(s, r + 2, 0x11, 1);
    g_assert_cmphex(r500_reg_read(s, r), ==, 0xaa11ccdd);
    g_assert_cmphex(r500_mmio_read(s, r + 1, 2), ==, 0x11cc);
    /* Unaligned access crossing a dword boundary touches both. */
    r500_mmio_write(s, r + 3, 0x2233, 2);
    g_assert_cmphex(r500_reg_read(s, r), ==, 0x3311ccdd);
    g_assert_cmphex(r500_reg_read(s, r + 4) & 0xff, ==, 0x22);
    g_assert_cmphex(r500_mmio_read(s, r + 3, 2), ==, 0x2233);
    /* 8-byte access. */
    r500_mmio_write(s, r, 0x0123456789abcdefull, 8);
    g_assert_cmphex(r500_mmio_read(s, r, 8), ==, 0x0123456789abcdefull);
    /* Outside the 64 KiB file: logged, no effect, reads 0; across its
     * end, the part inside is done (/regs/contract/mmio-bounds). */
    r500_mmio_write(s, 0xfffe, 0xffffffff, 4);
    g_assert_cmphex(r500_reg_read(s, 0xfffc), ==, 0xffff0000);
    g_assert_cmphex(r500_mmio_read(s, 0x10000, 4), ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "outside the register file"),
                     ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "runs past the register file"),
                     ==, 1);
    test_host_free(h);
}

static void test_mm_index(void)
{
    TestHost *h = test_host_new(R500_MODEL_R520, 16);
    R500Chip *s = &h->chip;
    uint32_t r = R500_REGA_AT(SCRATCH_REG, 2);

    r500_reg_write(s, R_MM_INDEX, r);
    r500_reg_write(s, R_MM_DATA, 0x5555aaaa);
    g_assert_cmphex(r500_reg_read(s, r), ==, 0x5555aaaa);
    /* Byte lanes pass through MM_DATA. */
    r500_mmio_write(s, R_MM_DATA + 1, 0x77, 1);
    g_assert_cmphex(r500_reg_read(s, r), ==, 0x555577aa);
    /* Indirect reads run read hooks (RBBM_STATUS is computed). */
    r500_reg_write(s, R_MM_INDEX, R_RBBM_STATUS);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0x40);
    /* VRAM aperture. */
    r500_reg_write(s, R_MM_INDEX, 0x80000000u | 0x1000);
    r500_reg_write(s, R_MM_DATA, 0x04030201);
    g_assert_cmpmem(h->vram + 0x1000, 4, "\x01\x02\x03\x04", 4);
    h->vram[0x1004] = 0x99;
    r500_reg_write(s, R_MM_INDEX, 0x80000000u | 0x1004);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0x99);
    /* The last dword of VRAM is reachable, the next is not. */
    r500_reg_write(s, R_MM_INDEX, 0x80000000u | (16 * MiB - 4));
    r500_reg_write(s, R_MM_DATA, 0xffffffff);
    g_assert_cmphex(h->vram[16 * MiB - 1], ==, 0xff);
    r500_reg_write(s, R_MM_INDEX, 0x80000000u | (16 * MiB));
    r500_reg_write(s, R_MM_DATA, 0xffffffff);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0);
    /* Self-reference and beyond-64K register indices are refused. */
    r500_reg_write(s, R_MM_INDEX, R_MM_DATA);
    r500_reg_write(s, R_MM_DATA, 1);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0);
    r500_reg_write(s, R_MM_INDEX, 0x10000);
    g_assert_cmphex(r500_reg_read(s, R_MM_DATA), ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "G: MM_DATA"), ==, 5);
    test_host_free(h);
}

static void test_pll(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    r500_mmio_write(s, R_CLOCK_CNTL_INDEX, PLL_CP_DYN_CNTL | 0x80, 1);
    r500_reg_write(s, R_CLOCK_CNTL_DATA, 0xabcd);
    r500_mmio_write(s, R_CLOCK_CNTL_INDEX, PLL_CP_DYN_CNTL, 1);
    g_assert_cmphex(r500_reg_read(s, R_CLOCK_CNTL_DATA), ==, 0xabcd);
    g_assert_cmphex(r500_pll_read(s, PLL_CP_DYN_CNTL), ==, 0xabcd);
    /* No write without PLL_WR_EN. */
    r500_reg_write(s, R_CLOCK_CNTL_DATA, 0x1);
    g_assert_cmphex(r500_pll_read(s, PLL_CP_DYN_CNTL), ==, 0xabcd);
    g_assert_cmpuint(test_host_count_logs(h, "PLL_WR_EN"), ==, 1);
    test_host_free(h);
}

static void test_mc_maps(void)
{
    TestHost *a = test_host_new(R500_MODEL_RV515, 32);
    TestHost *b = test_host_new(R500_MODEL_R580, 32);

    /* The same index means different registers on the two maps. */
    g_assert_cmpint(r500_mc_index(R500_MC_MAP_RV515, MC_MC_STATUS), ==, 0x08);
    g_assert_cmpint(r500_mc_index(R500_MC_MAP_R520, MC_MC_CNTL), ==, 0x08);
    g_assert_cmpint(r500_mc_index(R500_MC_MAP_R520, MC_MC_MISC_LAT_TIMER), ==,
                    -1);
    /* Driver access pattern: 0x7F0000 | idx to read. */
    r500_reg_write(&a->chip, R_MC_IND_INDEX, 0x7f0008);
    g_assert_cmphex(r500_reg_read(&a->chip, R_MC_IND_DATA) & 0x10, ==, 0x10);
    r500_reg_write(&b->chip, R_MC_IND_INDEX, 0x7f0000);
    g_assert_cmphex(r500_reg_read(&b->chip, R_MC_IND_DATA) & 0x2, ==, 0x2);
    /* R580 MC_CNTL0: 256-bit memory. */
    r500_reg_write(&b->chip, R_MC_IND_INDEX, 0x7f0008);
    g_assert_cmphex((r500_reg_read(&b->chip, R_MC_IND_DATA) >> 24) & 3, ==, 3);
    /* Writes need bit 23; index past the space is refused. */
    r500_reg_write(&a->chip, R_MC_IND_INDEX, 0xff0003);
    r500_reg_write(&a->chip, R_MC_IND_DATA, 0x1234);
    g_assert_cmphex(r500_mc_read(&a->chip, 3), ==, 0x1234);
    r500_reg_write(&a->chip, R_MC_IND_INDEX, 0xffffff);
    r500_reg_write(&a->chip, R_MC_IND_DATA, 0x1);
    g_assert_cmpuint(test_host_count_logs(a, "does not exist"), ==, 1);
    test_host_free(a);
    test_host_free(b);
}

static void test_pcie(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV530, 16);
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_PCIE_INDEX, PCIE_PCIE_TX_GART_BASE);
    r500_reg_write(s, R_PCIE_DATA, 0x80000);
    g_assert_cmphex(r500_pcie_read(s, PCIE_PCIE_TX_GART_BASE), ==, 0x80000);
    r500_reg_write(s, R_PCIE_INDEX, 0xf800 | PCIE_PCIE_TX_GART_BASE);
    g_assert_cmphex(r500_reg_read(s, R_PCIE_DATA), ==, 0x80000);
    test_host_free(h);
}

static void test_unknown_logged_once(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    g_assert_false(r500_reg_known(0x0f00));
    r500_reg_write(s, 0x0f00, 7);
    r500_reg_write(s, 0x0f00, 8);
    g_assert_cmphex(r500_reg_read(s, 0x0f00), ==, 8);
    g_assert_cmpuint(test_host_count_logs(h, "U: unknown register 0x0f00"),
                     ==, 1);
    /* Named registers are not reported. */
    r500_reg_write(s, R_BIOS_SCRATCH, 1);
    g_assert_cmpuint(test_host_count_logs(h, "unknown register"), ==, 1);
    /* RBBM_STATUS is read-only. */
    r500_reg_write(s, R_RBBM_STATUS, 0xffffffff);
    g_assert_cmphex(r500_reg_read(s, R_RBBM_STATUS), ==, 0x40);
    test_host_free(h);
}

static void test_names(void)
{
    char buf[48];

    g_assert_cmpstr(r500_reg_name(R_RBBM_STATUS, buf, sizeof(buf)), ==,
                    "RBBM_STATUS");
    g_assert_cmpstr(r500_reg_name(0x6880, buf, sizeof(buf)), ==,
                    "D2CRTC_CONTROL");
    g_assert_cmpstr(r500_reg_name(0x15EC, buf, sizeof(buf)), ==,
                    "SCRATCH_REG[3]");
    g_assert_cmpstr(r500_reg_name(0x0f00, buf, sizeof(buf)), ==, "0x0f00");
    /* Byte offsets inside a register name the register. */
    g_assert_cmpstr(r500_reg_name(R_MM_DATA + 2, buf, sizeof(buf)), ==,
                    "MM_DATA");
    g_assert_cmpstr(r500_pcie_name(0x13), ==, "PCIE_TX_GART_BASE");
    g_assert_cmpstr(r500_pll_name(0x0F), ==, "CP_DYN_CNTL");
    g_assert_cmpstr(r500_mc_name(R500_MC_MAP_RV515, 0x08), ==, "MC_STATUS");
    g_assert_cmpstr(r500_mc_name(R500_MC_MAP_R520, 0x08), ==, "MC_CNTL");
}

static void test_models(void)
{
    g_assert_cmpint(r500_model_from_name("rv515"), ==, R500_MODEL_RV515);
    g_assert_cmpint(r500_model_from_name("r580"), ==, R500_MODEL_R580);
    g_assert_cmpint(r500_model_from_name("r600"), ==, -1);
    g_assert_cmphex(r500_model_info(R500_MODEL_RV530)->device_id, ==, 0x71C2);
    g_assert_cmphex(r500_model_info(R500_MODEL_R520)->device_id, ==, 0x7100);
}

static void test_bad_init(void)
{
    R500Chip *s = g_new0(R500Chip, 1);
    static const R500HostOps ops;
    uint8_t vram[16];
    char *err = NULL;

    g_assert_false(r500_chip_init(s, R500_MODEL_RV515, vram, 24 * MiB, &ops,
                                  NULL, &err));
    g_assert_nonnull(strstr(err, "power of two"));
    g_free(err);
    err = NULL;
    g_assert_false(r500_chip_init(s, R500_MODEL__COUNT, vram, 16 * MiB, &ops,
                                  NULL, &err));
    g_free(err);
    g_free(s);
}

/*
 * Bad-input contract: an access that runs past the register file does its
 * part inside (the rest is dropped or reads 0); one outside, or of a size
 * no bus makes, does nothing.  Each is a guest error.
 */
static void test_mmio_bounds(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    const uint32_t last = R500_MMIO_SIZE - 4;

    r500_mmio_write(s, last, 0x99999999CAFEF00Dull, 8);
    g_assert_cmphex(r500_reg_read(s, last), ==, 0xCAFEF00D);
    g_assert_cmphex(r500_mmio_read(s, last, 8), ==, 0xCAFEF00D);
    g_assert_cmphex(r500_mmio_read(s, last + 2, 4), ==, 0xCAFE);
    g_assert_cmpuint(test_host_count_logs(h, "runs past the register file"),
                     ==, 3);
    r500_mmio_write(s, R500_MMIO_SIZE, 1, 4);
    r500_mmio_write(s, 0x100, 1, 0);
    r500_mmio_write(s, 0x100, 1, 9);
    g_assert_cmphex(r500_mmio_read(s, R500_MMIO_SIZE, 4), ==, 0);
    g_assert_cmphex(r500_mmio_read(s, 0x100, 16), ==, 0);
    g_assert_cmphex(r500_reg_read(s, 0x100), ==, 0);
    g_assert_cmpuint(test_host_count_logs(h, "outside the register file"),
                     ==, 5);
    test_host_free(h);
}

/*
 * Field values of the tables, placed in their fields, against the Linux
 * definitions written here by hand: radeon_reg.h RADEON_GMC_*,
 * RADEON_ROP3_*, RADEON_DP_SRC_SOURCE_*, RADEON_CSQ_PRIBM_INDBM,
 * RADEON_PCIE_TX_GART_*, r300_reg.h R300_RB3D_DC_FLUSH_ALL /
 * R300_ZC_FLUSH_ALL, r300.c R300_PTE_*.
 */
static void test_field_values(void)
{
#define GMC(f, name) \
    R500_FSET(0, DP_GUI_MASTER_CNTL, f, \
              R500_FVAL(DP_GUI_MASTER_CNTL, f, name))
    g_assert_cmphex(GMC(BRUSH_DATATYPE, 8X8_MONO_FG_BG), ==, 0u << 4);
    g_assert_cmphex(GMC(BRUSH_DATATYPE, 8X8_MONO_FG_LA), ==, 1u << 4);
    g_assert_cmphex(GMC(BRUSH_DATATYPE, SOLID_COLOR), ==, 13u << 4);
    g_assert_cmphex(GMC(BRUSH_DATATYPE, NONE), ==, 15u << 4);
    g_assert_cmphex(GMC(DST_DATATYPE, CI8), ==, 2u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, ARGB1555), ==, 3u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, RGB565), ==, 4u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, RGB888), ==, 5u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, ARGB8888), ==, 6u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, RGB332), ==, 7u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, Y8), ==, 8u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, RGB8), ==, 9u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, VYUY), ==, 11u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, YVYU), ==, 12u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, AYUV444), ==, 14u << 8);
    g_assert_cmphex(GMC(DST_DATATYPE, ARGB4444), ==, 15u << 8);
    g_assert_cmphex(GMC(SRC_DATATYPE, MONO_FG_BG), ==, 0u << 12);
    g_assert_cmphex(GMC(SRC_DATATYPE, MONO_FG_LA), ==, 1u << 12);
    g_assert_cmphex(GMC(SRC_DATATYPE, COLOR), ==, 3u << 12);
    g_assert_cmphex(GMC(ROP3, SRCCOPY), ==, 0x00CC0000u);
    g_assert_cmphex(GMC(ROP3, PATCOPY), ==, 0x00F00000u);
    g_assert_cmphex(GMC(SRC_SOURCE, MEMORY), ==, 2u << 24);
    g_assert_cmphex(GMC(SRC_SOURCE, HOST_DATA), ==, 3u << 24);
    g_assert_cmphex(GMC(SRC_SOURCE, HOST_DATA_BYTEALIGN), ==, 4u << 24);
#undef GMC
    g_assert_cmphex(R500_FSET(0, CP_CSQ_CNTL, CSQ_MODE,
                              R500_FVAL(CP_CSQ_CNTL, CSQ_MODE, PRIBM_INDBM)),
                    ==, 4u << 28);
    g_assert_cmphex(R500_FSET(0, CP_CSQ_CNTL, CSQ_MODE,
                              R500_FVAL(CP_CSQ_CNTL, CSQ_MODE, PRIPIO_INDPIO)),
                    ==, 15u << 28);
    /* the indirect PCIE space has fields like MMIO registers */
    g_assert_cmphex(R500_FMASK(PCIE_TX_GART_CNTL, EN), ==, 1u << 0);
    g_assert_cmphex(R500_FSET(0, PCIE_TX_GART_CNTL, UNMAPPED_ACCESS,
                              R500_FVAL(PCIE_TX_GART_CNTL, UNMAPPED_ACCESS,
                                        DISCARD)), ==, 3u << 1);
    g_assert_cmphex(R500_FMASK(PCIE_TX_GART_CNTL, CHK_RW_VALID_EN), ==,
                    1u << 5);
    g_assert_cmphex(R500_FMASK(PCIE_TX_GART_CNTL, INVALIDATE_TLB), ==,
                    1u << 8);
    g_assert_cmphex(R500_FSET(0, RB3D_DSTCACHE_CTLSTAT, DC_FLUSH,
                              R500_FVAL(RB3D_DSTCACHE_CTLSTAT, DC_FLUSH,
                                        FLUSH_DIRTY_3D)) |
                    R500_FSET(0, RB3D_DSTCACHE_CTLSTAT, DC_FREE,
                              R500_FVAL(RB3D_DSTCACHE_CTLSTAT, DC_FREE,
                                        FREE_3D_TAGS)), ==, 0xA);
    g_assert_cmphex(R500_FMASK(ZB_ZCACHE_CTLSTAT, ZC_FLUSH) |
                    R500_FMASK(ZB_ZCACHE_CTLSTAT, ZC_FREE), ==, 0x3);
    g_assert_cmphex(R500_FMASK(ISYNC_CNTL, ANY2D_IDLE3D) |
                    R500_FMASK(ISYNC_CNTL, ANY3D_IDLE2D), ==, 0x3);
    g_assert_cmphex(R500_FMASK(WAIT_UNTIL, WAIT_DMA_GUI_IDLE) |
                    R500_FMASK(WAIT_UNTIL, WAIT_3D_IDLECLEAN), ==,
                    (1u << 9) | (1u << 17));
    g_assert_cmphex(R500_GART_PTE_UNSNOOPED | R500_GART_PTE_WRITEABLE |
                    R500_GART_PTE_READABLE, ==, 0xD);
}

/*
 * The 3D pipeline's state windows come from r500_3d_regs.def: its
 * registers are in, the CP's, scratch and the display's are not, and the
 * windows end where the table says.
 */
static void test_3d_windows(void)
{
    g_assert_true(r500_reg_is_3d(R_SE_VPORT_XSCALE));
    g_assert_true(r500_reg_is_3d(R_ZB_CNTL));
    g_assert_true(r500_reg_is_3d(R_US_CONFIG));
    g_assert_true(r500_reg_is_3d(R500_REGA_AT(US_ALU_RGB_ADDR, 511)));
    g_assert_false(r500_reg_is_3d(R_SE_VPORT_XSCALE - 4));
    g_assert_false(r500_reg_is_3d(0x1E00));
    g_assert_false(r500_reg_is_3d(R_CP_RB_WPTR));
    g_assert_false(r500_reg_is_3d(R_SCRATCH_REG));
    g_assert_false(r500_reg_is_3d(R_WAIT_UNTIL));
    g_assert_false(r500_reg_is_3d(R_D1GRPH_ENABLE));
    g_assert_false(r500_reg_is_3d(0xC000));
}

/* Every migrated field of the chip (migrate.h), as data. */
#define CHIP_FIELD(kind, f, n) R500_MIG_FIELD(R500Chip, kind, f, n)
static const R500MigField chip_fields[] = { R500_MIG_CHIP(CHIP_FIELD) };

static size_t mig_size(const R500MigField *m)
{
    static const size_t sizes[] = {
        [R500_MIG_BOOL] = sizeof(bool), [R500_MIG_UINT8] = 1,
        [R500_MIG_UINT32] = 4, [R500_MIG_INT32] = 4,
        [R500_MIG_UINT64] = 8, [R500_MIG_INT64] = 8,
        [R500_MIG_UINT32_ARRAY] = 4,
    };

    return sizes[m->kind] * m->count;
}

/* The first word where two arrays differ, or n. */
static unsigned first_diff(const uint32_t *a, const uint32_t *b, unsigned n)
{
    unsigned i = 0;

    while (i < n && a[i] == b[i]) {
        i++;
    }
    return i;
}

/*
 * r500_chip_reset() leaves the chip as r500_chip_init() made it: every
 * register of the four spaces and every field a migration carries, after
 * the chip ran with every known register written (the CP kicked, the
 * engines started) and its migrated state loaded with garbage.  A guest's
 * reboot depends on it, and the fuzzers reuse one chip per model between
 * inputs on it (tests/fuzz/fuzz-host.c), so an input never sees the last.
 */
static void test_reset_whole(void)
{
    for (int m = 0; m < R500_MODEL__COUNT; m++) {
        TestHost *a = test_host_new(m, 16), *b = test_host_new(m, 16);
        R500Chip *s = &a->chip;
        uint32_t x = 0x9E3779B9u * (m + 1);
        unsigned i;

        for (uint32_t r = 0; r < R500_MMIO_SIZE; r += 4) {
            if (r500_reg_known(r)) {
                x = x * 1664525u + 1013904223u;
                r500_reg_write(s, r, x);
            }
        }
        test_host_run(a);
        for (i = 0; i < G_N_ELEMENTS(chip_fields); i++) {
            uint8_t *p = (uint8_t *)s + chip_fields[i].offset;

            /* a bool holds only 0 or 1 (UBSan checks every load) */
            if (chip_fields[i].kind == R500_MIG_BOOL) {
                *(bool *)p = true;
            } else {
                memset(p, 0xA5 + i, mig_size(&chip_fields[i]));
            }
        }
        r500_chip_post_load(s);
        test_host_run(a);
        r500_chip_reset(s);

        i = first_diff(s->regs, b->chip.regs, R500_NUM_REGS);
        g_assert_cmphex(i * 4, ==, R500_NUM_REGS * 4);
        g_assert_cmpuint(first_diff(s->pll, b->chip.pll, R500_PLL_NUM), ==,
                         R500_PLL_NUM);
        g_assert_cmpuint(first_diff(s->mc, b->chip.mc, R500_MC_NUM), ==,
                         R500_MC_NUM);
        g_assert_cmpuint(first_diff(s->pcie, b->chip.pcie, R500_PCIE_NUM),
                         ==, R500_PCIE_NUM);
        for (i = 0; i < G_N_ELEMENTS(chip_fields); i++) {
            const R500MigField *f = &chip_fields[i];

            if (memcmp((uint8_t *)s + f->offset,
                       (uint8_t *)&b->chip + f->offset, mig_size(f))) {
                g_error("%s: %s differs after a reset from a new chip",
                        r500_model_info(m)->name, f->name);
            }
        }
        test_host_free(a);
        test_host_free(b);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regs/reset-values", test_reset_values);
    g_test_add_func("/regs/byte-lanes", test_byte_lanes);
    g_test_add_func("/regs/contract/mmio-bounds", test_mmio_bounds);
    g_test_add_func("/regs/mm-index", test_mm_index);
    g_test_add_func("/regs/pll", test_pll);
    g_test_add_func("/regs/mc-maps", test_mc_maps);
    g_test_add_func("/regs/pcie", test_pcie);
    g_test_add_func("/regs/unknown", test_unknown_logged_once);
    g_test_add_func("/regs/names", test_names);
    g_test_add_func("/regs/models", test_models);
    g_test_add_func("/regs/bad-init", test_bad_init);
    g_test_add_func("/regs/field-values", test_field_values);
    g_test_add_func("/regs/3d-windows", test_3d_windows);
    g_test_add_func("/regs/reset-whole", test_reset_whole);
    return g_test_run();
}
