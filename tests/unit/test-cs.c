/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the host tools' command-stream checker (tools/cs), which
 * must accept, patch and reject exactly as the radeon kernel driver's
 * r300_cs_parse does, and of the capture file format.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cs.h"

#define KEEP_TILING 0x01            /* RADEON_CS_KEEP_TILING_FLAGS */
#define VF_WALK_LIST (2u << 4)      /* VAP_VF_CNTL.PRIM_WALK vertex list */
#define VF_WALK_IMMD (3u << 4)      /* ... data in the packet */
#define VF_TRILIST  4u

typedef struct Ib {
    uint32_t d[512];
    uint32_t n;
} Ib;

static void emit(Ib *b, uint32_t v)
{
    g_assert(b->n < G_N_ELEMENTS(b->d));
    b->d[b->n++] = v;
}

static void reg(Ib *b, uint32_t r, uint32_t v)
{
    emit(b, R500_PM4_PACKET0(r, 0));
    emit(b, v);
}

static void nop_reloc(Ib *b, uint32_t index)
{
    emit(b, R500_PM4_PACKET3(R500_PM4_OP_NOP, 0));
    emit(b, index * 4);
}

/* Two buffers: a 64x64x4 VRAM surface and a 4 KiB GTT buffer. */
static CsReloc relocs[2] = {
    { .handle = 1, .read_domains = 4, .write_domain = 4,
      .gpu_offset = 0x00100000, .size = 64 * 64 * 4, .tiling_flags = 0x3,
      .bo = 1 },
    { .handle = 2, .read_domains = 2, .gpu_offset = 0x10200000,
      .size = 4096, .bo = 2 },
};

static int check_cfg(const CsConfig *cfg, Ib *b, GString *log)
{
    g_string_truncate(log, 0);
    return cs_check(cfg, b->d, b->n, relocs, 8, true, log);
}

static int check(Ib *b, GString *log)
{
    CsConfig cfg = { .model = R500_MODEL_RV515, .cs_flags = KEEP_TILING };

    return check_cfg(&cfg, b, log);
}

/* A draw that passes every bounds check: no depth, no colour reads. */
static void immd_draw(Ib *b)
{
    reg(b, R_ZB_CNTL, 0);
    reg(b, R_VAP_VTX_SIZE, 4);
    emit(b, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 12));
    emit(b, VF_TRILIST | VF_WALK_IMMD | (3u << 16));
    for (int i = 0; i < 12; i++) {
        emit(b, 0x3F800000);
    }
}

static void test_safe_list(void)
{
    unsigned safe = 0;

    /* reg_srcs/rv515 lists 365 registers, the ALU constants as 128 */
    for (uint32_t r = 0; r < 0x8000; r += 4) {
        safe += !cs_reg_checked(r);
    }
    g_assert_cmpuint(safe, ==, 493);
    g_assert_false(cs_reg_checked(R_WAIT_UNTIL));
    g_assert_false(cs_reg_checked(R_GA_US_VECTOR_DATA));
    g_assert_false(cs_reg_checked(R500_REGA_AT(US_FC_INT_CONST, 31) + 4 * 96));
    g_assert_true(cs_reg_checked(R500_REGA_AT(RB3D_COLOROFFSET, 0)));
    g_assert_true(cs_reg_checked(R_ZB_BW_CNTL));
    g_assert_true(cs_reg_checked(R_VAP_VF_CNTL));
    g_assert_true(cs_reg_checked(R_RB3D_COLOR_CLEAR_VALUE_AR));
    g_assert_true(cs_reg_checked(R_CP_RB_BASE));
}

static void test_relocations(void)
{
    GString *log = g_string_new(NULL);
    Ib b = { 0 };
    uint32_t cb, zb, tx, nop;

    reg(&b, R500_REGA_AT(RB3D_COLOROFFSET, 0), 0x1000);
    cb = b.n - 1;
    nop_reloc(&b, 0);
    nop = b.n - 1;
    reg(&b, R_ZB_DEPTHOFFSET, 0x20);
    zb = b.n - 1;
    nop_reloc(&b, 1);
    reg(&b, R500_REGA_AT(TX_OFFSET, 3), 0x40 | 0x1F);
    tx = b.n - 1;
    nop_reloc(&b, 1);
    immd_draw(&b);
    g_assert_cmpint(check(&b, log), ==, 0);
    g_assert_cmphex(b.d[cb], ==, 0x00101000);
    g_assert_cmphex(b.d[zb], ==, 0x10200020);
    /* KEEP_TILING_FLAGS: the low 5 control bits survive the addition */
    g_assert_cmphex(b.d[tx], ==, (0x10200040u) | 0x1F);
    /* the markers stay for the CP to skip */
    g_assert_cmphex(b.d[nop], ==, 0);
    g_assert_cmphex(b.d[nop - 1], ==, R500_PM4_PACKET3(R500_PM4_OP_NOP, 0));
    g_string_free(log, TRUE);
}

static void test_rejections(void)
{
    GString *log = g_string_new(NULL);
    Ib b = { 0 };

    reg(&b, R_RB3D_COLOR_CLEAR_VALUE_AR, 0x1234);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==,
                    "Forbidden register 0x46C0 in cs at 1 (val=00001234)\n");

    b.n = 0;
    reg(&b, R500_REGA_AT(RB3D_COLOROFFSET, 0), 0);
    reg(&b, R_WAIT_UNTIL, 0);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str,
                            "No packet3 for relocation for packet at 2.\n"));
    g_assert_nonnull(strstr(log->str, "No reloc for ib[1]=0x4E28\n"));

    b.n = 0;
    reg(&b, R_ZB_DEPTHOFFSET, 0);
    nop_reloc(&b, 2);          /* dword 8: past the 8-dword chunk */
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str,
                            "Relocs at 8 after relocations chunk end 8 !\n"));

    b.n = 0;
    emit(&b, R500_PM4_PACKET0(R_WAIT_UNTIL, 2));
    emit(&b, 0);
    emit(&b, 0);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "Packet (0:0:2) end after CS buffer (3) !\n");

    b.n = 0;
    emit(&b, 0x40000000);
    emit(&b, 0);
    emit(&b, 0);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "Unknown packet type 1 at 0 !\n");

    b.n = 0;
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_LOAD_MICROCODE, 0));
    emit(&b, 0);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "Packet3 opcode 24 not supported\n");

    /* beyond the bitmap: refused without a message */
    b.n = 0;
    reg(&b, R_DC_GPIO_DDC1_MASK, 0);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "");

    /* no RELOCS chunk at all */
    b.n = 0;
    reg(&b, R_ZB_DEPTHOFFSET, 0);
    nop_reloc(&b, 0);
    {
        CsConfig cfg = { .model = R500_MODEL_RV515, .cs_flags = KEEP_TILING };
        g_string_truncate(log, 0);
        g_assert_cmpint(cs_check(&cfg, b.d, b.n, relocs, 0, false, log), ==,
                        -EINVAL);
        g_assert_nonnull(strstr(log->str, "No relocation chunk !\n"));
    }
    g_string_free(log, TRUE);
}

static void test_bounds(void)
{
    GString *log = g_string_new(NULL);
    Ib b = { 0 };

    /* one 64x64 ARGB8888 colour buffer in the 4 KiB GTT buffer */
    reg(&b, R_RB3D_CCTL, 0);
    reg(&b, R_RE_SCISSORS_BR, (63u << 13) | 63);
    reg(&b, R500_REGA_AT(RB3D_COLORPITCH, 0), 64 | (6u << 21));
    reg(&b, R_RB3D_COLOR_CHANNEL_MASK, 0xF);
    reg(&b, R500_REGA_AT(RB3D_COLOROFFSET, 0), 0);
    nop_reloc(&b, 1);
    immd_draw(&b);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "[drm] Buffer too small for color "
                            "buffer 0 (need 16384 have 4096) !\n"));
    /* the same in the 16 KiB buffer passes (the checker patched the
     * offset in place: put it back) */
    b.d[9] = 0;
    b.d[11] = 0;                        /* the NOP now names reloc 0 */
    g_assert_cmpint(check(&b, log), ==, 0);

    /* immediate draw with the wrong number of dwords */
    b.n = 0;
    reg(&b, R_ZB_CNTL, 0);
    reg(&b, R_VAP_VTX_SIZE, 4);
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, 11));
    emit(&b, VF_TRILIST | VF_WALK_IMMD | (3u << 16));
    for (int i = 0; i < 11; i++) {
        emit(&b, 0);
    }
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "IMMD draw 11 dwors but needs 12 dwords\n"));

    /* vertex arrays against their buffers */
    b.n = 0;
    reg(&b, R_ZB_CNTL, 0);
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_3D_LOAD_VBPNTR, 3));
    emit(&b, 2);                        /* two arrays */
    emit(&b, (4u << 0) | (4u << 8) | (4u << 16) | (4u << 24));
    emit(&b, 0x10);
    emit(&b, 0x20);
    nop_reloc(&b, 0);
    nop_reloc(&b, 1);
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_VBUF_2, 0));
    emit(&b, VF_TRILIST | VF_WALK_LIST | (300u << 16));
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "(PW 2) Vertex array 1 need 1196 "
                            "dwords have 1024 dwords\n"));
    /* the AOS addresses were relocated before the bounds check */
    g_assert_cmphex(b.d[5], ==, 0x00100010);
    g_assert_cmphex(b.d[6], ==, 0x10200020);

    /* index buffer: the kernel compares dwords + 1 against bytes */
    b.n = 0;
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_INDX_BUFFER, 2));
    emit(&b, 0x80000000 | (R_VAP_PORT_IDX0 >> 2));
    emit(&b, 0x100);
    emit(&b, 4096);
    nop_reloc(&b, 1);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "[drm] Buffer too small for PACKET3 "
                            "INDX_BUFFER (need 4097 have 4096) !\n"));
    b.d[2] = 0x100;                     /* undo the relocation */
    b.d[3] = 4095;
    g_assert_cmpint(check(&b, log), ==, 0);
    g_assert_cmphex(b.d[2], ==, 0x10200100);

    /* a 64x64 RGBA8 texture in the 4 KiB buffer */
    b.n = 0;
    reg(&b, R_TX_ENABLE, 1);
    reg(&b, R500_REGA_AT(TX_FORMAT0, 0), 63 | (63u << 11));
    reg(&b, R500_REGA_AT(TX_FORMAT1, 0), 0xC);
    reg(&b, R500_REGA_AT(TX_FORMAT2, 0), 63);   /* clears the 2048 bits */
    reg(&b, R500_REGA_AT(TX_OFFSET, 0), 0);
    nop_reloc(&b, 1);
    immd_draw(&b);
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "Texture of unit 0 needs 16384 bytes "
                            "but is 4096\n"));
    /* format 0x13 (A8R8G8B8) is not in the kernel's list */
    b.d[5] = 0x13;
    g_assert_cmpint(check(&b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "Invalid texture format 19\n");
    g_string_free(log, TRUE);
}

static void test_owners(void)
{
    GString *log = g_string_new(NULL);
    CsConfig cfg = { .model = R500_MODEL_RV515, .cs_flags = KEEP_TILING };
    Ib b = { 0 };

    reg(&b, R_ZB_BW_CNTL, R500_FMASK(ZB_BW_CNTL, HIZ_ENABLE));
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, -EINVAL);
    g_assert_nonnull(strstr(log->str, "Forbidden register 0x4F1C"));
    cfg.hyperz_owner = true;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);

    /* SC_HYPERZ_EN is quietly cleared for a non-owner */
    b.n = 0;
    reg(&b, R_SC_HYPERZ_EN, 0x1D);
    cfg.hyperz_owner = false;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_assert_cmphex(b.d[1], ==, 0x1C);
    b.d[1] = 0x1D;
    cfg.hyperz_owner = true;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_assert_cmphex(b.d[1], ==, 0x1D);

    b.n = 0;
    emit(&b, R500_PM4_PACKET3(R500_PM4_OP_3D_CLEAR_HIZ, 2));
    emit(&b, 0);
    emit(&b, 16);
    emit(&b, 0);
    cfg.hyperz_owner = false;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, -EINVAL);
    cfg.hyperz_owner = true;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);

    b.n = 0;
    reg(&b, R_RB3D_CCTL, R500_FMASK(RB3D_CCTL, CMASK_ENABLE));
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, -EINVAL);
    g_assert_cmpstr(log->str, ==, "Invalid RB3D_CCTL: Cannot enable CMASK.\n");
    cfg.cmask_owner = true;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_string_free(log, TRUE);
}

static void test_tiling_and_models(void)
{
    GString *log = g_string_new(NULL);
    CsConfig cfg = { .model = R500_MODEL_RV515 };
    Ib b = { 0 };

    /* without KEEP_TILING_FLAGS the pitch takes the buffer's tiling */
    reg(&b, R500_REGA_AT(RB3D_COLORPITCH, 1), 64 | (6u << 21) | (7u << 16));
    nop_reloc(&b, 0);
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_assert_cmphex(b.d[1], ==, 64 | (6u << 21) | (1u << 16) | (1u << 17));
    /* with it, the value stays and no relocation is consumed */
    b.n = 0;
    reg(&b, R500_REGA_AT(RB3D_COLORPITCH, 1), 64 | (6u << 21) | (7u << 16));
    reg(&b, R_WAIT_UNTIL, 0);
    cfg.cs_flags = KEEP_TILING;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_assert_cmphex(b.d[1], ==, 64 | (6u << 21) | (7u << 16));

    /* ONE_REG_WR: one check per dword, each with its relocation */
    b.n = 0;
    emit(&b, R500_PM4_PACKET0_ONE(R500_REGA_AT(TX_OFFSET, 0), 1));
    emit(&b, 0x100);
    emit(&b, 0x200);
    nop_reloc(&b, 0);
    nop_reloc(&b, 1);
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);
    g_assert_cmphex(b.d[1], ==, 0x00100100);
    g_assert_cmphex(b.d[2], ==, 0x10200200);

    /* FG_ZBREG_DEST exists on RV530 only */
    b.n = 0;
    reg(&b, R_FG_ZBREG_DEST, 3);
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, -EINVAL);
    cfg.model = R500_MODEL_RV530;
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, 0);

    /* vline waits name a KMS CRTC; a render node has none */
    b.n = 0;
    reg(&b, R_D1MODE_VLINE_START_END, 0);
    reg(&b, R_WAIT_UNTIL, 1u << 3);
    nop_reloc(&b, 0);
    g_assert_cmpint(check_cfg(&cfg, &b, log), ==, -ENOENT);
    g_assert_nonnull(strstr(log->str, "cannot find crtc"));
    g_string_free(log, TRUE);
}

static void test_decode(void)
{
    GString *out = g_string_new(NULL);
    Ib b = { 0 };

    reg(&b, R500_REGA_AT(RB3D_COLOROFFSET, 0), 0x1000);
    nop_reloc(&b, 1);
    immd_draw(&b);
    cs_decode(b.d, b.n, out);
    g_assert_nonnull(strstr(out->str, "RB3D_COLOROFFSET[0]"));
    g_assert_nonnull(strstr(out->str, "NOP (0x10) 1 dw reloc 1"));
    g_assert_nonnull(strstr(out->str, "3D_DRAW_IMMD_2 (0x35) 13 dw "
                            "VAP_VF_CNTL=0x00030034 TRIANGLE_LIST walk=3"));

    /*
     * The 2D packets of r100_copy_blit and radeon_clear_box: 0x9A/0x9B
     * are RADEON_CP_PACKET3_CNTL_PAINT_MULTI/BITBLT_MULTI (radeon_reg.h
     * 0xC0009A00/0xC0009B00); 0x91/0x92 are CNTL_PAINT/CNTL_BITBLT.
     */
    g_string_truncate(out, 0);
    b.n = 0;
    emit(&b, 0xC0009A00u | (2u << 16));
    emit(&b, 0);
    emit(&b, 0);
    emit(&b, 0);
    emit(&b, 0xC0009100u);
    emit(&b, 0);
    cs_decode(b.d, b.n, out);
    g_assert_nonnull(strstr(out->str, "CNTL_PAINT_MULTI (0x9a) 3 dw"));
    g_assert_nonnull(strstr(out->str, "CNTL_PAINT (0x91) 1 dw"));
    g_string_free(out, TRUE);
}

/* ---- capture files ---- */

static char *write_capture(void)
{
    static const uint32_t ib[] = { R500_PM4_PACKET0(0x1720, 0), 0 };
    static const uint32_t checked[] = { R500_PM4_PACKET0(0x1720, 0), 0 };
    static const CapCsReloc rel[] = { { 7, 1, 4, 4, 0 }, { 9, 0, 2, 0, 0 } };
    CapDevice dev = { 0x7142, R500_MODEL_RV515, 256 << 20, 0, 256 << 20,
                      512u << 20 };
    CapBo bo = { 1, 4, 8192, 0x40000, 0x3, 256 };
    uint8_t data[13];
    CapCs ok = { .seq = 1, .cs_flags = 1, .nrelocs = 1, .ndw = 2,
                 .have_relocs = true, .relocs = rel, .ib = ib,
                 .checked = checked, .exec = 1 };
    CapCs bad = { .seq = 0, .cs_flags = 1, .result = -ENOENT, .nrelocs = 2,
                  .ndw = 2, .have_relocs = true, .relocs = rel, .ib = ib };
    CapCs ran = { .seq = 2, .cs_flags = 1, .nrelocs = 1, .ndw = 2,
                  .have_relocs = true, .relocs = rel, .ib = ib,
                  .checked = checked, .exec = 0 };
    uint32_t ids[1] = { 1 };
    uint8_t hash[CAP_HASH_SIZE];
    char *path, *err = NULL;
    int fd = g_file_open_tmp("r500-cap-XXXXXX", &path, NULL);
    CapWriter *w;

    g_assert_cmpint(fd, >=, 0);
    close(fd);
    for (unsigned i = 0; i < sizeof(data); i++) {
        data[i] = i * 17;
    }
    w = cap_create(path, &dev, &err);
    g_assert_nonnull(w);
    cap_write_bo(w, &bo);
    cap_write_bo_data(w, 1, 100, data, sizeof(data));   /* odd length: pad */
    cap_write_cs(w, &ok);
    cap_write_cs(w, &bad);
    cap_write_cs(w, &ran);
    cap_hash(data, sizeof(data), hash);
    cap_write_result(w, 1, ids, hash);
    cap_write_bo_free(w, 1);
    g_assert_true(cap_close(w));
    return path;
}

static void test_capture_roundtrip(void)
{
    char *path = write_capture(), *err = NULL;
    CapFile *f = cap_load(path, &err);
    const CapRecord *r;
    GByteArray *b;

    g_assert_null(err);
    g_assert_nonnull(f);
    g_assert_cmpuint(f->version, ==, CAP_VERSION);
    g_assert_cmphex(f->dev.pci_id, ==, 0x7142);
    g_assert_cmpuint(f->dev.gtt_size, ==, 512u << 20);
    g_assert_cmpuint(f->records->len, ==, 9);
    r = &g_array_index(f->records, CapRecord, 2);
    g_assert_cmpuint(r->type, ==, CAP_BO_DATA);
    g_assert_cmpuint(r->u.data.offset, ==, 100);
    g_assert_cmpuint(r->u.data.len, ==, 13);
    g_assert_cmpuint(r->u.data.bytes[12], ==, (uint8_t)(12 * 17));
    r = &g_array_index(f->records, CapRecord, 3);
    g_assert_cmpuint(r->type, ==, CAP_CS);
    g_assert_cmpuint(r->u.cs.exec, ==, 1);
    g_assert_cmpuint(r->u.cs.relocs[0].handle, ==, 7);
    g_assert_nonnull(r->u.cs.checked);
    r = &g_array_index(f->records, CapRecord, 4);
    g_assert_cmpint(r->u.cs.result, ==, -ENOENT);
    g_assert_null(r->u.cs.checked);
    g_assert_cmpuint(r->u.cs.relocs[1].bo, ==, 0);
    /* the executed stream's RESULT: the buffer's SHA-256 */
    r = &g_array_index(f->records, CapRecord, 6);
    g_assert_cmpuint(r->type, ==, CAP_RESULT);
    g_assert_cmpuint(r->u.result.n, ==, 1);
    {
        uint8_t want[CAP_HASH_SIZE], d[13];

        for (unsigned i = 0; i < sizeof(d); i++) {
            d[i] = i * 17;
        }
        cap_hash(d, sizeof(d), want);
        g_assert_cmpmem(r->u.result.entries + 8, CAP_HASH_SIZE, want,
                        CAP_HASH_SIZE);
    }
    b = cap_serialise(f);
    g_assert_cmpuint(b->len, ==, f->size);
    g_assert_cmpmem(b->data, b->len, f->data, f->size);
    g_byte_array_unref(b);
    cap_free(f);
    g_unlink(path);
    g_free(path);
}

/* Corrupt one byte (or cut the file) and expect the parser to refuse. */
static void expect_bad(const uint8_t *orig, size_t len, size_t at, int value,
                       size_t cut, const char *what)
{
    uint8_t *d = g_memdup2(orig, len);
    char *err = NULL;
    CapFile *f;

    if (value >= 0) {
        d[at] = value;
    }
    f = cap_parse(d, cut ? cut : len, &err);
    g_assert_null(f);
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err, what));
    g_free(err);
    g_free(d);
}

static void test_capture_validation(void)
{
    char *path = write_capture();
    gchar *data;
    gsize len;

    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    expect_bad((uint8_t *)data, len, 0, 'X', 0, "bad magic");
    expect_bad((uint8_t *)data, len, 8, 3, 0, "unsupported capture version");
    /* a version 1 file has no RESULT records */
    expect_bad((uint8_t *)data, len, 8, 1, 0, "RESULT record in a version 1");
    expect_bad((uint8_t *)data, len, 0, -1, len - 12, "no END record");
    expect_bad((uint8_t *)data, len, 0, -1, len - 5, "truncated record");
    /* the END count (last 4 bytes) no longer matches the three CS records */
    expect_bad((uint8_t *)data, len, len - 4, 4, 0, "END count");
    /* BO_DATA (after the header, DEVICE and BO records): offset + 0x4000 */
    expect_bad((uint8_t *)data, len, 16 + 48 + 40 + 8 + 8 + 1, 0x40, 0,
               "BO_DATA outside its buffer");
    g_free(data);
    g_unlink(path);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cs/safe-list", test_safe_list);
    g_test_add_func("/cs/relocations", test_relocations);
    g_test_add_func("/cs/rejections", test_rejections);
    g_test_add_func("/cs/bounds", test_bounds);
    g_test_add_func("/cs/owners", test_owners);
    g_test_add_func("/cs/tiling-models", test_tiling_and_models);
    g_test_add_func("/cs/decode", test_decode);
    g_test_add_func("/capture/roundtrip", test_capture_roundtrip);
    g_test_add_func("/capture/validation", test_capture_validation);
    return g_test_run();
}
