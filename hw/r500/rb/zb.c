/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ZB: depth and stencil.  Formats Z16 and Z24S8 (ZB_FORMAT), the tests
 * and updates of ZB_CNTL / ZB_ZSTENCILCNTL / ZB_STENCILREFMASK(_BF), the
 * ZB colour clear (ZB_BW_CNTL.ZB_CB_CLEAR) and Hyper-Z fast clears.
 * r500-3d-pipeline.md 2.12, 6.3, 6.5, 6.6.
 *
 * Hyper-Z, in software (6.6): HiZ only ever rejects early, so it is not
 * modelled beyond its RAM.  Z compression is: 3D_CLEAR_ZMASK with value 0
 * marks the Z-mask "cleared"; the next draw with ZB_BW_CNTL.FAST_FILL
 * first writes ZB_DEPTHCLEARVALUE into the depth buffer bound at that
 * draw, over the framebuffer (0,0)..RE_SCISSORS_BR (Mesa always sets the
 * scissor to the framebuffer), and the mark is dropped.  Mesa's
 * decompress pass (FAST_FILL, no Z_ENABLE) then leaves memory as it is.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"

enum { ZFMT_16 = 0, ZFMT_16_13E3 = 1, ZFMT_24_8 = 2 };

/* Store a depth buffer word (bpp bytes, little-endian) at (x, y). */
static void zb_store(R500Chip *s, R500Cache *c, const R500Surf *sf,
                     uint32_t x, uint32_t y, uint32_t word)
{
    uint8_t *p = r500_cache_access(s, c, sf->base + r500_surf_offset(sf, x, y),
                                   sf->bpp, true);

    for (unsigned i = 0; p && i < sf->bpp; i++) {
        p[i] = word >> (8 * i);
    }
}

/* The depth bits a pixel's 24-bit z stores: Z16 keeps the top 16 (2.6). */
static inline uint32_t zb_depth_bits(const R500Rb3d *rb, uint32_t z)
{
    return rb->zb.format == ZFMT_24_8 ? z : z >> 8;
}

R500ZsFace r500_zb_face(const R500Rb3d *rb, bool back)
{
    uint32_t zs = rb->zs_cntl, rm = rb->ref[back ? 1 : 0];
    bool bf = back && R500_FGET(rb->zb_cntl, ZB_CNTL, STENCIL_FRONT_BACK);

    return (R500ZsFace) {
        .ref = R500_FGET(rm, ZB_STENCILREFMASK, STENCILREF),
        .cmask = R500_FGET(rm, ZB_STENCILREFMASK, STENCILMASK),
        .wmask = R500_FGET(rm, ZB_STENCILREFMASK, STENCILWRITEMASK),
        .func = bf ? R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILFUNC_BF)
                   : R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILFUNC),
        .fail = bf ? R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILFAIL_BF)
                   : R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILFAIL),
        .zfail = bf ? R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILZFAIL_BF)
                    : R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILZFAIL),
        .zpass = bf ? R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILZPASS_BF)
                    : R500_FGET(zs, ZB_ZSTENCILCNTL, STENCILZPASS),
    };
}

/* Expand a pending fast clear onto the bound depth buffer (6.6, step 2). */
static void zb_expand_clear(R500Chip *s)
{
    R500Rb3d *rb = &s->rb3d;
    uint32_t br = s->regs[R_RE_SCISSORS_BR / 4];
    uint32_t w = R500_FGET(br, RE_SCISSORS_BR, X) + 1;
    uint32_t h = R500_FGET(br, RE_SCISSORS_BR, Y) + 1;
    uint32_t v = s->regs[R_ZB_DEPTHCLEARVALUE / 4];

    uint64_t lo, hi, off;
    uint8_t px[4];

    rb->zmask_cleared = false;
    if (w > rb->zb.surf.pitch) {
        w = rb->zb.surf.pitch;      /* see r500_zb_cb_clear */
    }
    /* on the renderer's copy where it holds the ZB (gl: every frame's) */
    if (r500_mem_fill(s, &rb->zb.surf, w, h, v)) {
        return;
    }
    /* memory is written here: the renderer's copy of the ZB goes first */
    r500_mem_sync(s, R500_SYNC_MEMORY);
    for (unsigned i = 0; i < 4; i++) {
        px[i] = v >> (8 * i);
    }
    /* in VRAM (as ever): at memory speed; elsewhere pixel by pixel */
    r500_surf_rect_span(&rb->zb.surf, 0, 0, w - 1, h - 1, &lo, &hi);
    if (r500_mc_vram_span(s, rb->zb.surf.base + lo, hi - lo, &off)) {
        r500_surf_fill(&rb->zb.surf, s->vram + off - lo, 0, 0, w - 1, h - 1,
                       px, NULL);
        /*
         * Said now, not at the draw's end (the cache's range): a copy
         * the renderer kept across the sync is stale from here on.
         */
        r500_vram_dirty(s, off, hi - lo);
        return;
    }
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            zb_store(s, &rb->cache, &rb->zb.surf, x, y, v);
        }
    }
}

bool r500_zb_prepare(R500Chip *s)
{
    R500Rb3d *rb = &s->rb3d;
    uint32_t cntl = s->regs[R_ZB_CNTL / 4];
    uint32_t bw = s->regs[R_ZB_BW_CNTL / 4];
    uint32_t pitch = s->regs[R_ZB_DEPTHPITCH / 4];
    uint32_t fmt = R500_FGET(s->regs[R_ZB_FORMAT / 4], ZB_FORMAT, DEPTHFORMAT);
    bool stencil = R500_FGET(cntl, ZB_CNTL, STENCIL_ENABLE);
    bool z = R500_FGET(cntl, ZB_CNTL, Z_ENABLE);
    unsigned bytes;

    rb->zb.enabled = false;
    rb->zb_cntl = cntl;
    rb->zs_cntl = s->regs[R_ZB_ZSTENCILCNTL / 4];
    rb->ref[0] = s->regs[R_ZB_STENCILREFMASK / 4];
    rb->ref[1] = R500_FGET(cntl, ZB_CNTL, STENCIL_REFMASK_FRONT_BACK)
                 ? s->regs[R_ZB_STENCILREFMASK_BF / 4] : rb->ref[0];
    rb->cb_clear = R500_FGET(bw, ZB_BW_CNTL, ZB_CB_CLEAR);
    rb->zero_output = R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL,
                                ZERO_OUTPUT_MASK);
    rb->z_test = z;
    rb->z_write = z && R500_FGET(cntl, ZB_CNTL, Z_WRITE_ENABLE);
    rb->stencil = stencil;

    if (!z && !stencil && !rb->cb_clear &&
        !(rb->zmask_cleared && R500_FGET(bw, ZB_BW_CNTL, FAST_FILL))) {
        return true;
    }
    if (fmt != ZFMT_16 && fmt != ZFMT_24_8) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_ZB_FORMAT, "3D: depth format %u "
                           "is not modelled (depth and stencil off)", fmt);
        return true;
    }
    rb->zb.format = fmt;
    bytes = fmt == ZFMT_24_8 ? 4 : 2;
    if (!r500_surf_init(&rb->zb.surf,
                        s->regs[R_ZB_DEPTHOFFSET / 4] & ~31u,
                        R500_FGET(pitch, ZB_DEPTHPITCH, PITCH) << 2, bytes,
                        R500_FGET(pitch, ZB_DEPTHPITCH, MACRO_TILE),
                        R500_FGET(pitch, ZB_DEPTHPITCH, MICRO_TILE)) ||
        !rb->zb.surf.pitch) {
        r500_guest_error(s, "3D: depth buffer pitch %u / tiling %u not "
                         "usable; depth and stencil off",
                         rb->zb.surf.pitch, R500_FGET(pitch, ZB_DEPTHPITCH,
                                                      TILE));
        rb->cb_clear = false;
        return true;
    }
    rb->zb.enabled = true;
    if (rb->zmask_cleared && R500_FGET(bw, ZB_BW_CNTL, FAST_FILL)) {
        zb_expand_clear(s);
    }
    return true;
}

void r500_zb_cb_clear(R500Worker *w, int x, int y)
{
    const R500Rb3d *rb = w->ctx->rb;

    /*
     * A surface is PITCH pixels wide: nothing at x >= pitch is written.
     * The kernel's CS checker (r100_cs_track_check) bounds a colour or
     * depth buffer by pitch x rows only, and Mesa r300's CBZB clear
     * scissors to the width aligned to 64 (r300_create_surface_custom,
     * cbzb_width) whatever the pitch: were those pixels wrapped into the
     * next tile row, the last one would land past the buffer, on whatever
     * follows it (piglit tex3d: the texture allocated after a 160-wide
     * window).
     */
    if (!rb->zb.enabled || (uint32_t)x >= rb->zb.surf.pitch) {
        return;
    }
    /* the raw word, whatever ZB_CNTL says (6.5) */
    zb_store(w->s, w->cache, &rb->zb.surf, x, y,
             w->ctx->regs[R_ZB_DEPTHCLEARVALUE / 4]);
}

static bool zfunc(unsigned f, uint32_t a, uint32_t b)
{
    switch (f) {
    case 0:
        return false;
    case 1:
        return a < b;
    case 2:
        return a <= b;
    case 3:
        return a == b;
    case 4:
        return a >= b;
    case 5:
        return a > b;
    case 6:
        return a != b;
    default:
        return true;
    }
}

static uint8_t stencil_op(unsigned op, uint8_t v, uint8_t ref)
{
    switch (op) {
    case 0:
        return v;
    case 1:
        return 0;
    case 2:
        return ref;
    case 3:
        return v == 0xFF ? v : v + 1;
    case 4:
        return v == 0 ? v : v - 1;
    case 5:
        return ~v;
    case 6:
        return v + 1;
    default:
        return v - 1;
    }
}

bool r500_zb_pixel(R500Worker *w, int x, int y, uint32_t z, bool back)
{
    const R500Rb3d *rb = w->ctx->rb;
    bool z24 = rb->zb.format == ZFMT_24_8, pass = true;
    const uint8_t *p;
    uint32_t word, zval, nword;

    if ((uint32_t)x >= rb->zb.surf.pitch) {
        return false;               /* not in the surface (r500_zb_cb_clear) */
    }
    p = r500_cache_access(w->s, w->cache, rb->zb.surf.base +
                          r500_surf_offset(&rb->zb.surf, x, y),
                          rb->zb.surf.bpp, false);
    if (!p) {
        return false;
    }
    word = z24 ? p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24
               : (uint32_t)(p[0] | p[1] << 8);
    zval = z24 ? word >> 8 : word;
    z = zb_depth_bits(rb, z);
    if (rb->stencil && z24) {
        /* the stencil's steps: only a Z24S8 buffer has a stencil byte */
        R500ZsFace f = r500_zb_face(rb, back);
        uint8_t sv = word & 0xFF, nsv;
        unsigned op;

        if (!zfunc(f.func, f.ref & f.cmask, sv & f.cmask)) {
            op = f.fail;
            pass = false;
        } else if (rb->z_test &&
                   !zfunc(R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL, ZFUNC), z,
                          zval)) {
            op = f.zfail;
            pass = false;
        } else {
            op = f.zpass;
        }
        nsv = stencil_op(op, sv, f.ref);
        nsv = (sv & ~f.wmask) | (nsv & f.wmask);
        nword = (pass && rb->z_write ? z : zval) << 8 | nsv;
    } else {
        pass = !rb->z_test ||
               zfunc(R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL, ZFUNC), z, zval);
        nword = pass && rb->z_write ? z : zval;
        nword = z24 ? nword << 8 | (word & 0xFF) : nword;
    }
    if (nword != word) {
        zb_store(w->s, w->cache, &rb->zb.surf, x, y, nword);
    }
    return pass;
}

bool r500_zb_fill_word(const R500Rb3d *rb, uint32_t z, bool back,
                       uint32_t *word, uint32_t *keep)
{
    bool z24 = rb->zb.format == ZFMT_24_8;
    uint32_t skeep = 0xFF, sval = 0;

    /* every pixel passes whatever is stored (r500_zb_pixel) */
    if (rb->z_test && R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL, ZFUNC) != 7) {
        return false;
    }
    if (rb->stencil && z24) {
        R500ZsFace f = r500_zb_face(rb, back);

        if (f.func != 7 || f.zpass > 2) {
            return false;       /* only KEEP, ZERO and REPLACE are constant */
        }
        if (f.zpass) {
            skeep = (uint8_t)~f.wmask;
            sval = (f.zpass == 2 ? f.ref : 0) & f.wmask;
        }
    }
    *word = rb->z_write ? zb_depth_bits(rb, z) : 0;
    *keep = rb->z_write ? 0 : z24 ? 0xFFFFFFu : 0xFFFF;
    if (z24) {
        *word = *word << 8 | sval;
        *keep = *keep << 8 | skeep;
    }
    return true;
}

/* 3D_CLEAR_ZMASK / 3D_CLEAR_HIZ / 3D_CLEAR_CMASK (reference 1.2, 6.6). */
uint64_t r500_zb_clear_cmd(R500Chip *s, unsigned op, uint32_t start,
                           uint32_t count, uint32_t value)
{
    R500Rb3d *rb = &s->rb3d;
    uint32_t *ram, size;

    switch (op) {
    case 0x32:
        ram = rb->zmask_ram;
        size = R500_ZMASK_DWORDS;
        break;
    case 0x37:
        ram = rb->hiz_ram;
        size = R500_HIZ_DWORDS;
        break;
    default:
        ram = rb->cmask_ram;
        size = R500_CMASK_DWORDS;
        break;
    }
    if (!r500_span_in(start, count, size)) {
        r500_guest_error(s, "3D: clear of dwords %u..+%u past the %u-dword "
                         "RAM; clamped", start, count, size);
        start = MIN(start, size);
        count = size - start;
    }
    for (uint32_t i = 0; i < count; i++) {
        ram[start + i] = value;
    }
    if (op == 0x32 && count) {
        /* Z-mask 0: tiles read as ZB_DEPTHCLEARVALUE under FAST_FILL */
        rb->zmask_cleared = value == 0;
    }
    if (op == 0x38 && count) {
        r500_3d_unimp_once(s, R500_3D_UNIMP_CMASK, "3D: CMASK fast colour "
                           "clears are stored but not applied");
    }
    return 1 + count / 64;
}
