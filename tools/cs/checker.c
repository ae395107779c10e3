/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The radeon kernel driver's command-stream checker for R300-R500, as a
 * host library: what it accepts, rejects (with the same message) and
 * patches.  Behaviour follows Linux drivers/gpu/drm/radeon: radeon_cs.c
 * (radeon_cs_packet_parse, radeon_cs_packet_next_reloc), r100.c
 * (r100_cs_parse_packet0, r100_packet3_load_vbpntr,
 * r100_reloc_pitch_offset, r100_cs_track_*), r300.c (r300_cs_parse,
 * r300_packet0_check, r300_packet3_check) and the rv515 safe-register
 * list (safe_regs.def).  Arithmetic keeps the kernel's integer widths, so
 * a size that wraps there wraps here.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cs.h"

/* radeon_drm.h values the checker reads. */
#define CS_KEEP_TILING_FLAGS    0x01
#define TILING_MACRO            0x1
#define TILING_MICRO            0x2
#define TILING_MICRO_SQUARE     0x20

/*
 * rv515_reg_safe_bm covers registers below the "last register" 0x6D40 of
 * reg_srcs/rv515 rounded up to whole words: ((0x6D40 >> 2) + 31) / 32
 * words of 32 registers.  A register in word n (one past the end) is read
 * beyond the table by r100_cs_parse_packet0 (its range check is '>', not
 * '>='); we treat that word as all-checked, i.e. rejected.
 */
#define CS_BM_WORDS     219

static uint32_t safe_bm[CS_BM_WORDS + 1];

static void safe_mark(uint32_t reg)
{
    g_assert(reg / 128 < CS_BM_WORDS);
    safe_bm[reg >> 7] &= ~(1u << ((reg >> 2) & 31));
}

static gpointer build_safe_bm(gpointer unused)
{
    memset(safe_bm, 0xFF, sizeof(safe_bm));
#define CS_SAFE(name) safe_mark(R_##name);
#define CS_SAFE_ARRAY(name) \
    for (unsigned i = 0; i < R_##name##__COUNT; i++) { \
        safe_mark(R500_REGA_AT(name, i)); \
    }
#define CS_SAFE_SPAN(name, n) \
    for (unsigned i = 0; i < (n); i++) { \
        safe_mark(R_##name + 4 * i); \
    }
#include "safe_regs.def"
#undef CS_SAFE
#undef CS_SAFE_ARRAY
#undef CS_SAFE_SPAN
    return NULL;
}

static void safe_init(void)
{
    static GOnce once = G_ONCE_INIT;

    g_once(&once, build_safe_bm, NULL);
}

bool cs_reg_checked(uint32_t reg)
{
    safe_init();
    if ((reg >> 7) > CS_BM_WORDS) {
        return true;
    }
    return safe_bm[reg >> 7] & (1u << ((reg >> 2) & 31));
}

/* ---- State tracked for the bounds checks (struct r100_cs_track) ---- */

enum { COMP_NONE, COMP_DXT1, COMP_DXT35 };

typedef struct TrackCb {
    const CsReloc *robj;
    uint32_t pitch, cpp, offset;
} TrackCb;

typedef struct TrackArray {
    const CsReloc *robj;
    uint32_t esize;
} TrackArray;

typedef struct TrackTexture {
    const CsReloc *robj;
    uint32_t pitch, width, height, width_11, height_11, num_levels;
    uint32_t tex_coord_type, txdepth, cpp, compress_format;
    bool use_pitch, enabled, roundup_w, roundup_h;
} TrackTexture;

typedef struct Track {
    uint32_t num_cb, num_texture, maxy, vtx_size, vap_vf_cntl;
    uint32_t vap_alt_nverts, immd_dwords, num_arrays, max_indx;
    uint32_t color_channel_mask;
    TrackArray arrays[16];
    TrackCb cb[4];
    TrackCb zb;
    TrackCb aa;
    TrackTexture textures[16];
    bool z_enabled, zb_cb_clear, blend_read_enable, aaresolve;
    bool cb_dirty, zb_dirty, tex_dirty, aa_dirty;
} Track;

typedef struct Parser {
    const CsConfig *cfg;
    uint32_t *ib;
    uint32_t ndw;
    uint32_t idx;               /* p->idx: the next packet */
    const CsReloc *relocs;
    uint32_t reloc_dw;
    bool have_relocs;
    Track track;
    GString *log;
} Parser;

typedef struct Packet {
    uint32_t idx, type, reg, opcode;
    int32_t count;
    bool one_reg_wr;
} Packet;

static void cs_err(Parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void cs_err(Parser *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_string_append_vprintf(p->log, fmt, ap);
    va_end(ap);
    g_string_append_c(p->log, '\n');
}

/* radeon_cs_dump_packet (DRM_INFO lines). */
static void dump_packet(Parser *p, const Packet *pkt)
{
    uint32_t idx = pkt->idx;

    for (int32_t i = 0; i <= pkt->count + 1 && idx < p->ndw; i++, idx++) {
        g_string_append_printf(p->log, "ib[%u]=0x%08X\n", idx, p->ib[idx]);
    }
}

static bool family_r500(const Parser *p)
{
    return true;    /* every modelled chip is CHIP_RV515 or later */
}

/*
 * The kernel reads and patches the IB through radeon_get_ib_value() and
 * ib[] without checking that an index lies inside the packet; past the
 * end of the IB it would touch the rest of its IB pool.  Here reads past
 * the end give 0 and writes there are dropped.
 */
static uint32_t ib_get(const Parser *p, uint32_t idx)
{
    return idx < p->ndw ? p->ib[idx] : 0;
}

static void ib_add(Parser *p, uint32_t idx, uint32_t addend)
{
    if (idx < p->ndw) {
        p->ib[idx] += addend;
    }
}

static void track_clear(Track *t)
{
    memset(t, 0, sizeof(*t));
    t->cb_dirty = t->zb_dirty = t->tex_dirty = t->aa_dirty = true;
    /* family >= CHIP_R300 */
    t->num_cb = 4;
    t->num_texture = 16;
    t->maxy = 4096;
    for (unsigned i = 0; i < t->num_cb; i++) {
        t->cb[i].pitch = 8192;
        t->cb[i].cpp = 16;
    }
    t->z_enabled = true;
    t->zb.pitch = 8192;
    t->zb.cpp = 4;
    t->vtx_size = 0x7F;
    t->immd_dwords = 0xFFFFFFFFu;
    t->num_arrays = 11;
    t->max_indx = 0x00FFFFFF;
    for (unsigned i = 0; i < t->num_arrays; i++) {
        t->arrays[i].esize = 0x7F;
    }
    for (unsigned i = 0; i < t->num_texture; i++) {
        TrackTexture *tx = &t->textures[i];

        tx->compress_format = COMP_NONE;
        tx->pitch = tx->width = tx->height = 16536;
        tx->width_11 = tx->height_11 = 1 << 11;
        tx->num_levels = 12;
        tx->txdepth = 16;
        tx->tex_coord_type = 1;
        tx->cpp = 64;
        tx->roundup_w = tx->roundup_h = true;
    }
}

/* radeon_cs_packet_parse */
static int packet_parse(Parser *p, Packet *pkt, uint32_t idx)
{
    uint32_t h;

    if (idx >= p->ndw) {
        cs_err(p, "Can not parse packet at %u after CS end %u !", idx, p->ndw);
        return -EINVAL;
    }
    h = p->ib[idx];
    memset(pkt, 0, sizeof(*pkt));
    pkt->idx = idx;
    pkt->type = R500_PM4_TYPE(h);
    pkt->count = R500_PM4_COUNT(h);
    switch (pkt->type) {
    case 0:
        pkt->reg = R500_PM4_TYPE0_REG(h);
        pkt->one_reg_wr = h & R500_PM4_TYPE0_ONE_REG_WR;
        break;
    case 3:
        pkt->opcode = R500_PM4_OPCODE(h);
        break;
    case 2:
        pkt->count = -1;
        break;
    default:
        cs_err(p, "Unknown packet type %u at %u !", pkt->type, idx);
        return -EINVAL;
    }
    if ((uint32_t)(pkt->count + 1) + pkt->idx >= p->ndw) {
        cs_err(p, "Packet (%u:%u:%d) end after CS buffer (%u) !",
               pkt->idx, pkt->type, pkt->count, p->ndw);
        return -EINVAL;
    }
    return 0;
}

/* radeon_cs_packet_next_reloc: consume the NOP that names the buffer. */
static int next_reloc(Parser *p, const CsReloc **out)
{
    Packet p3;
    uint32_t idx;
    int r;

    *out = NULL;
    if (!p->have_relocs) {
        cs_err(p, "No relocation chunk !");
        return -EINVAL;
    }
    r = packet_parse(p, &p3, p->idx);
    if (r) {
        return r;
    }
    p->idx += p3.count + 2;
    if (p3.type != 3 || p3.opcode != R500_PM4_OP_NOP) {
        cs_err(p, "No packet3 for relocation for packet at %u.", p3.idx);
        dump_packet(p, &p3);
        return -EINVAL;
    }
    idx = p->ib[p3.idx + 1];
    /*
     * The second test guards the kernel's relocs_ptr[idx / 4] when the
     * chunk length is not a multiple of 4 (it would read past the array).
     */
    if (idx >= p->reloc_dw || idx / 4 >= p->reloc_dw / 4) {
        cs_err(p, "Relocs at %u after relocations chunk end %u !",
               idx, p->reloc_dw);
        dump_packet(p, &p3);
        return -EINVAL;
    }
    /* Entries are 4 dwords; duplicates were resolved by the caller. */
    *out = &p->relocs[idx / 4];
    return 0;
}

static int no_reloc(Parser *p, const Packet *pkt, uint32_t idx, uint32_t reg)
{
    cs_err(p, "No reloc for ib[%u]=0x%04X", idx, reg);
    dump_packet(p, pkt);
    return -EINVAL;
}

/* r100_cs_packet_parse_vline: WAIT_UNTIL + NOP naming a CRTC object. */
static int parse_vline(Parser *p)
{
    Packet wait, p3;
    int r;

    r = packet_parse(p, &wait, p->idx);
    if (r) {
        return r;
    }
    if (wait.type != 0 || wait.reg != R_WAIT_UNTIL || wait.count != 0) {
        cs_err(p, "vline wait had illegal wait until segment");
        return -EINVAL;
    }
    /* RADEON_WAIT_CRTC_VLINE */
    if (ib_get(p, wait.idx + 1) != (1u << 3)) {
        cs_err(p, "vline wait had illegal wait until");
        return -EINVAL;
    }
    r = packet_parse(p, &p3, p->idx + wait.count + 2);
    if (r) {
        return r;
    }
    /*
     * The NOP names a KMS CRTC object; this render-only device has none,
     * so drm_crtc_find() fails as it would for an unknown id.
     */
    cs_err(p, "cannot find crtc %u", ib_get(p, p->idx - 2 + 5));
    return -ENOENT;
}

/* r100_reloc_pitch_offset (DST/SRC_PITCH_OFFSET, 2D) */
static int reloc_pitch_offset(Parser *p, const Packet *pkt, uint32_t idx,
                              uint32_t reg)
{
    const CsReloc *reloc;
    uint32_t value, tmp, tile_flags = 0;

    if (next_reloc(p, &reloc)) {
        return no_reloc(p, pkt, idx, reg);
    }
    value = p->ib[idx];
    tmp = value & 0x003FFFFF;
    tmp += (uint32_t)reloc->gpu_offset >> 10;
    if (!(p->cfg->cs_flags & CS_KEEP_TILING_FLAGS)) {
        if (reloc->tiling_flags & TILING_MACRO) {
            tile_flags |= 1u << 30;             /* RADEON_DST_TILE_MACRO */
        }
        if (reloc->tiling_flags & TILING_MICRO) {
            if (reg == R_SRC_PITCH_OFFSET) {
                cs_err(p, "Cannot src blit from microtiled surface");
                dump_packet(p, pkt);
                return -EINVAL;
            }
            tile_flags |= 2u << 30;             /* RADEON_DST_TILE_MICRO */
        }
        tmp |= tile_flags;
        p->ib[idx] = (value & 0x3FC00000) | tmp;
    } else {
        p->ib[idx] = (value & 0xFFC00000) | tmp;
    }
    return 0;
}

static bool in_array(uint32_t reg, uint32_t base, uint32_t n, unsigned *i)
{
    if (reg >= base && reg < base + 4 * n) {
        *i = (reg - base) / 4;
        return true;
    }
    return false;
}

/* The TX_FORMAT1 format field (r300_packet0_check); false: invalid. */
static bool tx_format_cpp(Parser *p, uint32_t fmt, TrackTexture *t)
{
    t->compress_format = COMP_NONE;
    switch (fmt) {
    case 0x00: case 0x02: case 0x05:                    /* X8 Y4X4 Z3Y3X2 */
        t->cpp = 1;
        return true;
    case 0x01: case 0x18: case 0x03: case 0x06: case 0x07:
    case 0x0A: case 0x0B: case 0x12: case 0x14: case 0x15:
        t->cpp = 2;
        return true;
    case 0x04: case 0x19: case 0x08: case 0x09: case 0x0C:
    case 0x0D: case 0x17: case 0x1B: case 0x1E:
        t->cpp = 4;
        return true;
    case 0x0E: case 0x1A: case 0x1C:
        t->cpp = 8;
        return true;
    case 0x1D:
        t->cpp = 16;
        return true;
    case 0x0F:                                          /* DXT1 */
        t->cpp = 1;
        t->compress_format = COMP_DXT1;
        return true;
    case 0x1F:      /* ATI2N: R420 and later, like DXT3/5 */
    case 0x10: case 0x11:                               /* DXT3 DXT5 */
        t->cpp = 1;
        t->compress_format = COMP_DXT35;
        return true;
    default:
        return false;
    }
}

/* r300_packet0_check */
static int packet0_check(Parser *p, const Packet *pkt, uint32_t idx,
                         uint32_t reg)
{
    Track *t = &p->track;
    const CsReloc *reloc;
    uint32_t v = p->ib[idx], tmp, tile_flags = 0;
    unsigned i;

    if (reg == R_D1MODE_VLINE_START_END || reg == R_CRTC_GUI_TRIG_VLINE) {
        int r = parse_vline(p);
        if (r) {
            cs_err(p, "No reloc for ib[%u]=0x%04X", idx, reg);
            dump_packet(p, pkt);
            return r;
        }
        return 0;
    }
    if (reg == R_DST_PITCH_OFFSET || reg == R_SRC_PITCH_OFFSET) {
        return reloc_pitch_offset(p, pkt, idx, reg);
    }
    if (in_array(reg, R_RB3D_COLOROFFSET, 4, &i)) {
        if (next_reloc(p, &reloc)) {
            return no_reloc(p, pkt, idx, reg);
        }
        t->cb[i].robj = reloc;
        t->cb[i].offset = v;
        t->cb_dirty = true;
        p->ib[idx] = v + (uint32_t)reloc->gpu_offset;
        return 0;
    }
    if (reg == R_ZB_DEPTHOFFSET) {
        if (next_reloc(p, &reloc)) {
            return no_reloc(p, pkt, idx, reg);
        }
        t->zb.robj = reloc;
        t->zb.offset = v;
        t->zb_dirty = true;
        p->ib[idx] = v + (uint32_t)reloc->gpu_offset;
        return 0;
    }
    if (in_array(reg, R_TX_OFFSET, 16, &i)) {
        if (next_reloc(p, &reloc)) {
            return no_reloc(p, pkt, idx, reg);
        }
        if (p->cfg->cs_flags & CS_KEEP_TILING_FLAGS) {
            /* keep the first 5 bits (endian swap, tiling) */
            p->ib[idx] = (v & 31) | ((v & ~31u) + (uint32_t)reloc->gpu_offset);
        } else {
            if (reloc->tiling_flags & TILING_MACRO) {
                tile_flags |= 1u << 2;          /* R300_TXO_MACRO_TILE */
            }
            if (reloc->tiling_flags & TILING_MICRO) {
                tile_flags |= 1u << 3;          /* R300_TXO_MICRO_TILE */
            } else if (reloc->tiling_flags & TILING_MICRO_SQUARE) {
                tile_flags |= 2u << 3;          /* ..._SQUARE */
            }
            p->ib[idx] = (v + (uint32_t)reloc->gpu_offset) | tile_flags;
        }
        t->textures[i].robj = reloc;
        t->tex_dirty = true;
        return 0;
    }
    if (in_array(reg, R_RB3D_COLORPITCH, 4, &i)) {
        if (!(p->cfg->cs_flags & CS_KEEP_TILING_FLAGS)) {
            if (next_reloc(p, &reloc)) {
                return no_reloc(p, pkt, idx, reg);
            }
            if (reloc->tiling_flags & TILING_MACRO) {
                tile_flags |= 1u << 16;         /* R300_COLOR_TILE_ENABLE */
            }
            if (reloc->tiling_flags & TILING_MICRO) {
                tile_flags |= 1u << 17;         /* ..._MICROTILE_ENABLE */
            } else if (reloc->tiling_flags & TILING_MICRO_SQUARE) {
                tile_flags |= 2u << 17;         /* ..._MICROTILE_SQUARE */
            }
            p->ib[idx] = (v & ~(7u << 16)) | tile_flags;
        }
        t->cb[i].pitch = v & 0x3FFE;
        switch ((v >> 21) & 0xF) {
        case 9: case 11: case 12:
            t->cb[i].cpp = 1;
            break;
        case 3: case 4: case 13: case 15:
            t->cb[i].cpp = 2;
            break;
        case 5:     /* valid from RV515 on */
        case 6:
            t->cb[i].cpp = 4;
            break;
        case 10:
            t->cb[i].cpp = 8;
            break;
        case 7:
            t->cb[i].cpp = 16;
            break;
        default:
            cs_err(p, "Invalid color buffer format (%u) !", (v >> 21) & 0xF);
            return -EINVAL;
        }
        t->cb_dirty = true;
        return 0;
    }
    if (in_array(reg, R_TX_FORMAT1, 16, &i)) {
        t->textures[i].tex_coord_type = (v >> 25) & 0x3;
        if (!tx_format_cpp(p, v & 0x1F, &t->textures[i])) {
            cs_err(p, "Invalid texture format %u", v & 0x1F);
            return -EINVAL;
        }
        t->tex_dirty = true;
        return 0;
    }
    if (in_array(reg, R_TX_FILTER0, 16, &i)) {
        tmp = v & 0x7;
        if (tmp == 2 || tmp == 4 || tmp == 6) {
            t->textures[i].roundup_w = false;
        }
        tmp = (v >> 3) & 0x7;
        if (tmp == 2 || tmp == 4 || tmp == 6) {
            t->textures[i].roundup_h = false;
        }
        t->tex_dirty = true;
        return 0;
    }
    if (in_array(reg, R_TX_FORMAT2, 16, &i)) {
        t->textures[i].pitch = (v & 0x3FFF) + 1;
        if (family_r500(p)) {
            t->textures[i].width_11 = ((v >> 15) & 1) << 11;
            t->textures[i].height_11 = ((v >> 16) & 1) << 11;
            if (v & (1u << 14)) {           /* ATI1N: rules of DXT1 */
                t->textures[i].compress_format = COMP_DXT1;
            }
        }
        t->tex_dirty = true;
        return 0;
    }
    if (in_array(reg, R_TX_FORMAT0, 16, &i)) {
        t->textures[i].width = (v & 0x7FF) + 1;
        t->textures[i].height = ((v >> 11) & 0x7FF) + 1;
        t->textures[i].num_levels = (v >> 26) & 0xF;
        t->textures[i].use_pitch = !!(v & (1u << 31));
        t->textures[i].txdepth = (v >> 22) & 0xF;
        t->tex_dirty = true;
        return 0;
    }

    switch (reg) {
    case R_VAP_VF_CNTL:
        t->vap_vf_cntl = v;
        return 0;
    case R_VAP_VTX_SIZE:
        t->vtx_size = v & 0x7F;
        return 0;
    case R_VAP_VF_MAX_VTX_INDX:
        t->max_indx = v & 0x00FFFFFF;
        return 0;
    case R_VAP_ALT_NUM_VERTICES:        /* R500 only */
        t->vap_alt_nverts = v & 0xFFFFFF;
        return 0;
    case R_RE_SCISSORS_BR:              /* SC_SCISSOR1; no 1440 offset on R5xx */
        t->maxy = ((v >> 13) & 0x1FFF) + 1;
        t->cb_dirty = t->zb_dirty = true;
        return 0;
    case R_RB3D_CCTL:
        if ((v & R500_FMASK(RB3D_CCTL, CMASK_ENABLE)) && !p->cfg->cmask_owner) {
            cs_err(p, "Invalid RB3D_CCTL: Cannot enable CMASK.");
            return -EINVAL;
        }
        t->num_cb = R500_FGET(v, RB3D_CCTL, NUM_MULTIWRITES) + 1;
        t->cb_dirty = true;
        return 0;
    case R_ZB_CNTL:
        t->z_enabled = !!(v & 2);
        t->zb_dirty = true;
        return 0;
    case R_ZB_FORMAT:
        switch (v & 0xF) {
        case 0: case 1:
            t->zb.cpp = 2;
            break;
        case 2:
            t->zb.cpp = 4;
            break;
        default:
            cs_err(p, "Invalid z buffer format (%u) !", v & 0xF);
            return -EINVAL;
        }
        t->zb_dirty = true;
        return 0;
    case R_ZB_DEPTHPITCH:
        if (!(p->cfg->cs_flags & CS_KEEP_TILING_FLAGS)) {
            if (next_reloc(p, &reloc)) {
                return no_reloc(p, pkt, idx, reg);
            }
            if (reloc->tiling_flags & TILING_MACRO) {
                tile_flags |= 1u << 16;     /* R300_DEPTHMACROTILE_ENABLE */
            }
            if (reloc->tiling_flags & TILING_MICRO) {
                tile_flags |= 1u << 17;     /* R300_DEPTHMICROTILE_TILED */
            } else if (reloc->tiling_flags & TILING_MICRO_SQUARE) {
                tile_flags |= 2u << 17;     /* ..._TILED_SQUARE */
            }
            p->ib[idx] = (v & ~(7u << 16)) | tile_flags;
        }
        t->zb.pitch = v & 0x3FFC;
        t->zb_dirty = true;
        return 0;
    case R_TX_ENABLE:
        for (i = 0; i < 16; i++) {
            t->textures[i].enabled = !!(v & (1u << i));
        }
        t->tex_dirty = true;
        return 0;
    case R_ZB_ZPASS_ADDR:
        if (next_reloc(p, &reloc)) {
            return no_reloc(p, pkt, idx, reg);
        }
        p->ib[idx] = v + (uint32_t)reloc->gpu_offset;
        return 0;
    case R_RB3D_COLOR_CHANNEL_MASK:
        t->color_channel_mask = v;
        t->cb_dirty = true;
        return 0;
    case R_SC_HYPERZ_EN:
        /* Cleared silently for non-owners (r300c emits it). */
        if (!p->cfg->hyperz_owner && (v & 1)) {
            p->ib[idx] = v & ~1u;
        }
        return 0;
    case R_ZB_BW_CNTL:
        t->zb_cb_clear = !!(v & R500_FMASK(ZB_BW_CNTL, ZB_CB_CLEAR));
        t->cb_dirty = t->zb_dirty = true;
        if (!p->cfg->hyperz_owner &&
            (v & (R500_FMASK(ZB_BW_CNTL, HIZ_ENABLE) |
                  R500_FMASK(ZB_BW_CNTL, RD_COMP_ENABLE) |
                  R500_FMASK(ZB_BW_CNTL, WR_COMP_ENABLE) |
                  R500_FMASK(ZB_BW_CNTL, FAST_FILL)))) {
            break;
        }
        return 0;
    case R_RB3D_BLENDCNTL:
        t->blend_read_enable = !!(v & R500_FMASK(RB3D_BLENDCNTL, READ_ENABLE));
        t->cb_dirty = true;
        return 0;
    case R_RB3D_AARESOLVE_OFFSET:
        if (next_reloc(p, &reloc)) {
            return no_reloc(p, pkt, idx, reg);
        }
        t->aa.robj = reloc;
        t->aa.offset = v;
        t->aa_dirty = true;
        p->ib[idx] = v + (uint32_t)reloc->gpu_offset;
        return 0;
    case R_RB3D_AARESOLVE_PITCH:
        t->aa.pitch = v & 0x3FFE;
        t->aa_dirty = true;
        return 0;
    case R_RB3D_AARESOLVE_CTL:
        t->aaresolve = v & 1;
        t->aa_dirty = true;
        return 0;
    case R_ZB_ZMASK_OFFSET:
    case R_ZB_ZMASK_PITCH:
    case R_ZB_HIZ_OFFSET:
    case R_ZB_HIZ_PITCH:
    case R_GB_Z_PEQ_CONFIG:             /* valid from RV350 on */
        if (v && !p->cfg->hyperz_owner) {
            break;
        }
        return 0;
    case R_FG_ZBREG_DEST:               /* valid register only on RV530 */
        if (p->cfg->model == R500_MODEL_RV530) {
            return 0;
        }
        break;
    default:
        break;
    }
    cs_err(p, "Forbidden register 0x%04X in cs at %u (val=%08x)", reg, idx, v);
    return -EINVAL;
}

/* r100_cs_parse_packet0 */
static int parse_packet0(Parser *p, const Packet *pkt)
{
    uint32_t idx = pkt->idx + 1, reg = pkt->reg;

    /* Out of the bitmap's range: -EINVAL without a message. */
    if (pkt->one_reg_wr) {
        if ((reg >> 7) > CS_BM_WORDS) {
            return -EINVAL;
        }
    } else if (((reg + ((uint32_t)pkt->count << 2)) >> 7) > CS_BM_WORDS) {
        return -EINVAL;
    }
    for (int32_t i = 0; i <= pkt->count; i++, idx++) {
        uint32_t j = reg >> 7, m = 1u << ((reg >> 2) & 31);

        if (safe_bm[j] & m) {
            int r = packet0_check(p, pkt, idx, reg);
            if (r) {
                return r;
            }
        }
        if (pkt->one_reg_wr) {
            if (!(safe_bm[j] & m)) {
                break;
            }
        } else {
            reg += 4;
        }
    }
    return 0;
}

/* r100_packet3_load_vbpntr */
static int load_vbpntr(Parser *p, const Packet *pkt, uint32_t idx)
{
    Track *t = &p->track;
    const CsReloc *reloc;
    uint32_t c, i, v;

    c = ib_get(p, idx++) & 0x1F;
    if (c > 16) {
        cs_err(p, "Only 16 vertex buffers are allowed %u", pkt->opcode);
        dump_packet(p, pkt);
        return -EINVAL;
    }
    t->num_arrays = c;
    if (c == 0) {
        /*
         * The kernel's loop bound is the unsigned c - 1: it consumes
         * relocations until one is missing, then rejects the stream.
         */
        while (!next_reloc(p, &reloc)) {
            /* nothing: the arrays it would patch do not exist */
        }
        goto no_reloc;
    }
    for (i = 0; i < c - 1; i += 2, idx += 3) {
        if (next_reloc(p, &reloc)) {
            goto no_reloc;
        }
        v = ib_get(p, idx);
        ib_add(p, idx + 1, (uint32_t)reloc->gpu_offset);
        t->arrays[i].esize = (v >> 8) & 0x7F;
        t->arrays[i].robj = reloc;
        if (next_reloc(p, &reloc)) {
            goto no_reloc;
        }
        ib_add(p, idx + 2, (uint32_t)reloc->gpu_offset);
        t->arrays[i + 1].robj = reloc;
        t->arrays[i + 1].esize = (v >> 24) & 0x7F;
    }
    if (c & 1) {
        if (next_reloc(p, &reloc)) {
            goto no_reloc;
        }
        v = ib_get(p, idx);
        ib_add(p, idx + 1, (uint32_t)reloc->gpu_offset);
        t->arrays[i].robj = reloc;
        t->arrays[i].esize = (v >> 8) & 0x7F;
    }
    return 0;

no_reloc:
    cs_err(p, "No reloc for packet3 %u", pkt->opcode);
    dump_packet(p, pkt);
    return -EINVAL;
}

static uint32_t roundup_pow2(uint32_t x)
{
    /* roundup_pow_of_two(0) is 1 on x86 (a shift by 64 is a shift by 0) */
    uint32_t r = 1;

    while (r < x && r) {
        r <<= 1;
    }
    return r;
}

static uint32_t compress_size(uint32_t fmt, uint32_t w, uint32_t h)
{
    int block_bytes = fmt == COMP_DXT1 ? 8 : 16;
    int min_wblocks = fmt == COMP_DXT1 ? 4 : 2;
    int hblocks = ((int)h + 3) / 4;
    int wblocks = ((int)w + 3) / 4;

    if (wblocks < min_wblocks) {
        wblocks = min_wblocks;
    }
    return (uint32_t)(wblocks * hblocks * block_bytes);
}

static void texture_print(Parser *p, const TrackTexture *t)
{
    cs_err(p, "pitch                      %u", t->pitch);
    cs_err(p, "use_pitch                  %u", t->use_pitch);
    cs_err(p, "width                      %u", t->width);
    cs_err(p, "width_11                   %u", t->width_11);
    cs_err(p, "height                     %u", t->height);
    cs_err(p, "height_11                  %u", t->height_11);
    cs_err(p, "num levels                 %u", t->num_levels);
    cs_err(p, "depth                      %u", t->txdepth);
    cs_err(p, "bpp                        %u", t->cpp);
    cs_err(p, "coordinate type            %u", t->tex_coord_type);
    cs_err(p, "width round to power of 2  %u", t->roundup_w);
    cs_err(p, "height round to power of 2 %u", t->roundup_h);
    cs_err(p, "compress format            %u", t->compress_format);
}

/* r100_cs_track_texture_check (separate_cube is 0 from R300 on) */
static int texture_check(Parser *p)
{
    Track *t = &p->track;

    for (unsigned u = 0; u < t->num_texture; u++) {
        TrackTexture *tx = &t->textures[u];
        uint64_t size = 0;

        if (!tx->enabled) {
            continue;
        }
        if (!tx->robj) {
            cs_err(p, "No texture bound to unit %u", u);
            return -EINVAL;
        }
        for (unsigned i = 0; i <= tx->num_levels; i++) {
            uint32_t w, h, d;

            if (tx->use_pitch) {
                w = tx->pitch / (1u << i);
            } else {
                w = (tx->width | tx->width_11) / (1u << i);
                if (tx->roundup_w) {
                    w = roundup_pow2(w);
                }
            }
            h = (tx->height | tx->height_11) / (1u << i);
            if (tx->roundup_h) {
                h = roundup_pow2(h);
            }
            if (tx->tex_coord_type == 1) {
                d = (uint32_t)(1u << tx->txdepth) / (1u << i);
                if (!d) {
                    d = 1;
                }
            } else {
                d = 1;
            }
            if (tx->compress_format) {
                size += compress_size(tx->compress_format, w, h) * d;
            } else {
                size += w * h * d;
            }
        }
        size *= tx->cpp;
        switch (tx->tex_coord_type) {
        case 0:
        case 1:
            break;
        case 2:
            size *= 6;
            break;
        default:
            cs_err(p, "Invalid texture coordinate type %u for unit %u",
                   tx->tex_coord_type, u);
            return -EINVAL;
        }
        if (size > tx->robj->size) {
            cs_err(p, "Texture of unit %u needs %" G_GUINT64_FORMAT
                   " bytes but is %" G_GUINT64_FORMAT, u, size, tx->robj->size);
            texture_print(p, tx);
            return -EINVAL;
        }
    }
    return 0;
}

/* r100_cs_track_check */
static int track_check(Parser *p)
{
    Track *t = &p->track;
    uint32_t num_cb = t->cb_dirty ? t->num_cb : 0;
    uint32_t prim_walk, nverts;
    uint64_t size;
    unsigned i;

    if (num_cb && !t->zb_cb_clear && !t->color_channel_mask &&
        !t->blend_read_enable) {
        num_cb = 0;
    }
    for (i = 0; i < num_cb; i++) {
        if (!t->cb[i].robj) {
            cs_err(p, "[drm] No buffer for color buffer %u !", i);
            return -EINVAL;
        }
        size = (uint32_t)(t->cb[i].pitch * t->cb[i].cpp * t->maxy);
        size += t->cb[i].offset;
        if (size > t->cb[i].robj->size) {
            cs_err(p, "[drm] Buffer too small for color buffer %u "
                   "(need %" G_GUINT64_FORMAT " have %" G_GUINT64_FORMAT ") !",
                   i, size, t->cb[i].robj->size);
            cs_err(p, "[drm] color buffer %u (%u %u %u %u)", i,
                   t->cb[i].pitch, t->cb[i].cpp, t->cb[i].offset, t->maxy);
            return -EINVAL;
        }
    }
    t->cb_dirty = false;

    if (t->zb_dirty && t->z_enabled) {
        if (!t->zb.robj) {
            cs_err(p, "[drm] No buffer for z buffer !");
            return -EINVAL;
        }
        size = (uint32_t)(t->zb.pitch * t->zb.cpp * t->maxy);
        size += t->zb.offset;
        if (size > t->zb.robj->size) {
            cs_err(p, "[drm] Buffer too small for z buffer "
                   "(need %" G_GUINT64_FORMAT " have %" G_GUINT64_FORMAT ") !",
                   size, t->zb.robj->size);
            cs_err(p, "[drm] zbuffer (%u %u %u %u)", t->zb.pitch, t->zb.cpp,
                   t->zb.offset, t->maxy);
            return -EINVAL;
        }
    }
    t->zb_dirty = false;

    if (t->aa_dirty && t->aaresolve) {
        /* the kernel prints the colour-buffer loop counter here */
        if (!t->aa.robj) {
            cs_err(p, "[drm] No buffer for AA resolve buffer %u !", i);
            return -EINVAL;
        }
        size = (uint32_t)(t->aa.pitch * t->cb[0].cpp * t->maxy);
        size += t->aa.offset;
        if (size > t->aa.robj->size) {
            cs_err(p, "[drm] Buffer too small for AA resolve buffer %u "
                   "(need %" G_GUINT64_FORMAT " have %" G_GUINT64_FORMAT ") !",
                   i, size, t->aa.robj->size);
            cs_err(p, "[drm] AA resolve buffer %u (%u %u %u %u)", i,
                   t->aa.pitch, t->cb[0].cpp, t->aa.offset, t->maxy);
            return -EINVAL;
        }
    }
    t->aa_dirty = false;

    prim_walk = R500_FGET(t->vap_vf_cntl, VAP_VF_CNTL, PRIM_WALK);
    if (R500_FGET(t->vap_vf_cntl, VAP_VF_CNTL, USE_ALT_NUM_VERTS)) {
        nverts = t->vap_alt_nverts;
    } else {
        nverts = R500_FGET(t->vap_vf_cntl, VAP_VF_CNTL, NUM_VERTICES);
    }
    switch (prim_walk) {
    case 1:     /* indexed: up to VAP_VF_MAX_VTX_INDX */
    case 2:     /* vertex list: nverts - 1 (wrapping in u32 for 0) */
        for (i = 0; i < t->num_arrays; i++) {
            uint32_t last = prim_walk == 1 ? t->max_indx : nverts - 1;

            size = (uint32_t)(t->arrays[i].esize * last * 4);
            if (!t->arrays[i].robj) {
                cs_err(p, "(PW %u) Vertex array %u no buffer bound",
                       prim_walk, i);
                return -EINVAL;
            }
            if (size > t->arrays[i].robj->size) {
                cs_err(p, "(PW %u) Vertex array %u need %" G_GUINT64_FORMAT
                       " dwords have %" G_GUINT64_FORMAT " dwords", prim_walk,
                       i, size >> 2, t->arrays[i].robj->size >> 2);
                if (prim_walk == 1) {
                    cs_err(p, "Max indices %u", t->max_indx);
                }
                return -EINVAL;
            }
        }
        break;
    case 3:
        size = (uint32_t)(t->vtx_size * nverts);
        if (size != t->immd_dwords) {
            cs_err(p, "IMMD draw %u dwors but needs %" G_GUINT64_FORMAT
                   " dwords", t->immd_dwords, size);
            cs_err(p, "VAP_VF_CNTL.NUM_VERTICES %u, VTX_SIZE %u",
                   nverts, t->vtx_size);
            return -EINVAL;
        }
        break;
    default:
        cs_err(p, "[drm] Invalid primitive walk %u for VAP_VF_CNTL",
               prim_walk);
        return -EINVAL;
    }

    if (t->tex_dirty) {
        t->tex_dirty = false;
        return texture_check(p);
    }
    return 0;
}

/* r300_packet3_check */
static int packet3_check(Parser *p, const Packet *pkt)
{
    Track *t = &p->track;
    const CsReloc *reloc;
    uint32_t idx = pkt->idx + 1;

    if (!r500_pm4_op_has(pkt->opcode, R500_PM4_F_CS)) {
        cs_err(p, "Packet3 opcode %x not supported", pkt->opcode);
        return -EINVAL;
    }
    switch (pkt->opcode) {
    case R500_PM4_OP_3D_LOAD_VBPNTR:
        return load_vbpntr(p, pkt, idx);
    case R500_PM4_OP_INDX_BUFFER:
        if (next_reloc(p, &reloc)) {
            cs_err(p, "No reloc for packet3 %u", pkt->opcode);
            dump_packet(p, pkt);
            return -EINVAL;
        }
        ib_add(p, idx + 1, (uint32_t)reloc->gpu_offset);
        /* r100_cs_track_check_pkt3_indx_buffer: "value + 1" in u32 */
        if ((uint32_t)(ib_get(p, idx + 2) + 1) > reloc->size) {
            cs_err(p, "[drm] Buffer too small for PACKET3 INDX_BUFFER "
                   "(need %u have %" G_GUINT64_FORMAT ") !",
                   ib_get(p, idx + 2) + 1, reloc->size);
            return -EINVAL;
        }
        return 0;
    case R500_PM4_OP_3D_DRAW_IMMD:
        if (((ib_get(p, idx + 1) >> 4) & 0x3) != 3) {
            cs_err(p, "PRIM_WALK must be 3 for IMMD draw");
            return -EINVAL;
        }
        t->vap_vf_cntl = ib_get(p, idx + 1);
        t->immd_dwords = pkt->count - 1;
        return track_check(p);
    case R500_PM4_OP_3D_DRAW_IMMD_2:
        if (((ib_get(p, idx) >> 4) & 0x3) != 3) {
            cs_err(p, "PRIM_WALK must be 3 for IMMD draw");
            return -EINVAL;
        }
        t->vap_vf_cntl = ib_get(p, idx);
        t->immd_dwords = pkt->count;
        return track_check(p);
    case R500_PM4_OP_3D_DRAW_VBUF:
    case R500_PM4_OP_3D_DRAW_INDX:
        t->vap_vf_cntl = ib_get(p, idx + 1);
        return track_check(p);
    case R500_PM4_OP_3D_DRAW_VBUF_2:
    case R500_PM4_OP_3D_DRAW_INDX_2:
        t->vap_vf_cntl = ib_get(p, idx);
        return track_check(p);
    case R500_PM4_OP_3D_CLEAR_HIZ:
    case R500_PM4_OP_3D_CLEAR_ZMASK:
        return p->cfg->hyperz_owner ? 0 : -EINVAL;
    case R500_PM4_OP_3D_CLEAR_CMASK:
        return p->cfg->cmask_owner ? 0 : -EINVAL;
    default:
        return 0;   /* NOP: nothing to check */
    }
}

int cs_check(const CsConfig *cfg, uint32_t *ib, uint32_t ndw,
             const CsReloc *relocs, uint32_t reloc_dw, bool have_relocs,
             GString *log)
{
    Parser p = {
        .cfg = cfg, .ib = ib, .ndw = ndw, .relocs = relocs,
        .reloc_dw = reloc_dw, .have_relocs = have_relocs, .log = log,
    };
    Packet pkt;
    int r;

    safe_init();
    track_clear(&p.track);
    /* radeon_cs_parser_init: a zero-length IB chunk is -EINVAL. */
    if (!ndw) {
        return -EINVAL;
    }
    do {
        r = packet_parse(&p, &pkt, p.idx);
        if (r) {
            return r;
        }
        p.idx += pkt.count + 2;
        switch (pkt.type) {
        case 0:
            r = parse_packet0(&p, &pkt);
            break;
        case 2:
            break;
        case 3:
            r = packet3_check(&p, &pkt);
            break;
        default:
            cs_err(&p, "Unknown packet type %u !", pkt.type);
            return -EINVAL;
        }
        if (r) {
            return r;
        }
    } while (p.idx < ndw);
    return 0;
}
