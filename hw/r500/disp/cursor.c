/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hardware cursor of each CRTC.
 *
 * Reference radeon-kms-r500.md 7.6 (radeon_cursor.c) and radeonhd's
 * rhd_cursor.c.  The image is 64x64 with a fixed pitch of 64 pixels,
 * SIZE crops it.  POSITION is in desktop coordinates ("avivo cursors are
 * offset into the total surface", radeon_cursor_move_locked) and
 * HOT_SPOT is the image pixel shown at POSITION, which lets the driver
 * place the cursor partly off the top-left edge; so the image's corner is
 * at POSITION - HOT_SPOT - VIEWPORT_START in the viewport.
 *
 * Modes (CUR_CONTROL 9:8, as the later DCE CURSOR_MODE values):
 *   0  monochrome, 2 bits per pixel: per row 8 bytes of AND mask then
 *      8 bytes of XOR mask, most significant bit first (the legacy Radeon
 *      layout); AND 0 -> COLOR1 (XOR 0) or COLOR2 (XOR 1), AND 1 ->
 *      transparent (XOR 0) or inverted screen (XOR 1);
 *   1  32 bpp, 24-bit colour with a 1-bit alpha (alpha byte non-zero);
 *   2  32 bpp ARGB, premultiplied (radeon and radeonhd use this mode);
 *   3  32 bpp ARGB, not premultiplied.
 * The registers are double-buffered by CUR_UPDATE.UPDATE_LOCK: while it
 * is set, writes wait and take effect together on unlock.
 */
#include <glib.h>
#include <string.h>

#include "../mem/mc.h"
#include "disp_int.h"

/* Cursor registers, in the order of R500CrtcState.cursor[]. */
static const uint32_t cursor_regs[R500_CURSOR_REGS] = {
    R_D1CUR_CONTROL, R_D1CUR_SURFACE_ADDRESS, R_D1CUR_SIZE, R_D1CUR_POSITION,
    R_D1CUR_HOT_SPOT, R_D1CUR_COLOR1, R_D1CUR_COLOR2,
};
enum { CUR_CONTROL, CUR_SURFACE, CUR_SIZE, CUR_POSITION, CUR_HOT_SPOT,
       CUR_COLOR1, CUR_COLOR2 };

static unsigned crtc_of(uint32_t reg)
{
    return (reg & R500_CRTC2_OFFSET) != 0;
}

static bool cursor_locked(R500Chip *s, unsigned c)
{
    return R500_FGET(CREG(s, c, R_D1CUR_UPDATE), D1CUR_UPDATE, UPDATE_LOCK);
}

/* Take the cursor registers into effect. */
static void cursor_latch(R500Chip *s, unsigned c)
{
    uint32_t *cur = s->disp.st.crtc[c].cursor;

    for (unsigned i = 0; i < R500_CURSOR_REGS; i++) {
        cur[i] = CREG(s, c, cursor_regs[i]);
    }
    s->disp.cursor_gen[c]++;
}

static void cursor_reg_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    unsigned c = crtc_of(reg);

    if (!cursor_locked(s, c)) {
        cursor_latch(s, c);
    }
}

static void cursor_update_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    unsigned c = crtc_of(reg);

    /*
     * Bit 0 is the read-only update-pending flag; EnableHW_IconCursor
     * polls it for 0 without a bound, so it never sets.
     */
    REG(s, reg) &= ~R500_FMASK(D1CUR_UPDATE, UPDATE_PENDING);
    if (R500_FGET(old, D1CUR_UPDATE, UPDATE_LOCK) && !cursor_locked(s, c)) {
        cursor_latch(s, c);
    }
}

static uint32_t premultiply(uint32_t argb)
{
    uint32_t a = argb >> 24, out = argb & 0xFF000000u;

    for (unsigned sh = 0; sh < 24; sh += 8) {
        out |= (((argb >> sh) & 0xFF) * a + 127) / 255 << sh;
    }
    return out;
}

bool r500_disp_cursor(R500Chip *s, const R500Scanout *so, R500CursorImage *ci)
{
    unsigned c = so->crtc;
    const uint32_t *cur = s->disp.st.crtc[c].cursor;
    uint32_t mode = R500_FGET(cur[CUR_CONTROL], D1CUR_CONTROL, MODE);
    uint32_t vps = CREG(s, c, R_D1MODE_VIEWPORT_START);
    uint32_t pitch = mode ? R500_CURSOR_MAX * 4 : R500_CURSOR_MAX / 4;
    uint64_t off;

    if (so->kind != R500_SCANOUT_NATIVE ||
        !R500_FGET(cur[CUR_CONTROL], D1CUR_CONTROL, EN)) {
        return false;
    }
    if (!r500_mc_vram_span(s, cur[CUR_SURFACE], pitch * R500_CURSOR_MAX, &off)) {
        disp_log_once(s, c, DISP_LOG_CURSOR, cur[CUR_SURFACE],
                      R500_LOG_GUEST_ERROR, "cursor outside VRAM, not shown; "
                      "address");
        return false;
    }
    ci->w = R500_FGET(cur[CUR_SIZE], D1CUR_SIZE, WIDTH) + 1;
    ci->h = R500_FGET(cur[CUR_SIZE], D1CUR_SIZE, HEIGHT) + 1;
    ci->x = (int32_t)R500_FGET(cur[CUR_POSITION], D1CUR_POSITION, X) -
            (int32_t)R500_FGET(cur[CUR_HOT_SPOT], D1CUR_HOT_SPOT, X) -
            (int32_t)R500_FGET(vps, D1MODE_VIEWPORT_START, X) + so->vp_x;
    ci->y = (int32_t)R500_FGET(cur[CUR_POSITION], D1CUR_POSITION, Y) -
            (int32_t)R500_FGET(cur[CUR_HOT_SPOT], D1CUR_HOT_SPOT, Y) -
            (int32_t)R500_FGET(vps, D1MODE_VIEWPORT_START, Y) + so->vp_y;
    memset(ci->invert, 0, sizeof(ci->invert));

    for (unsigned y = 0; y < R500_CURSOR_MAX; y++) {
        const uint8_t *row = s->vram + off + y * pitch;
        uint32_t *out = ci->argb + y * R500_CURSOR_MAX;

        for (unsigned x = 0; x < R500_CURSOR_MAX; x++) {
            uint32_t v, and_bit, xor_bit;

            if (mode == 0) {
                and_bit = (row[x / 8] >> (7 - x % 8)) & 1;
                xor_bit = (row[8 + x / 8] >> (7 - x % 8)) & 1;
                if (!and_bit) {
                    uint32_t col = cur[xor_bit ? CUR_COLOR2 : CUR_COLOR1];

                    out[x] = 0xFF000000u | (col & 0xFFFFFF);
                } else {
                    out[x] = 0;
                    ci->invert[y * R500_CURSOR_MAX + x] = xor_bit;
                }
                continue;
            }
            v = row[x * 4] | row[x * 4 + 1] << 8 | row[x * 4 + 2] << 16 |
                (uint32_t)row[x * 4 + 3] << 24;
            switch (mode) {
            case 1:
                out[x] = (v >> 24) ? 0xFF000000u | (v & 0xFFFFFF) : 0;
                break;
            case 2:
                out[x] = v;
                break;
            default:
                out[x] = premultiply(v);
                break;
            }
        }
    }
    return true;
}

/* Blend a premultiplied pixel over an opaque one. */
static uint32_t blend(uint32_t src, uint32_t dst)
{
    uint32_t a = src >> 24, out = 0xFF000000u;

    for (unsigned sh = 0; sh < 24; sh += 8) {
        uint32_t v = ((src >> sh) & 0xFF) +
                     (((dst >> sh) & 0xFF) * (255 - a) + 127) / 255;
        out |= MIN(v, 255u) << sh;
    }
    return out;
}

void cursor_compose(R500Chip *s, const R500Scanout *so, pixman_image_t *dst,
                    uint32_t y0, uint32_t y1)
{
    R500CursorImage *ci = g_new(R500CursorImage, 1);
    uint32_t *bits = pixman_image_get_data(dst);
    uint32_t stride = pixman_image_get_stride(dst) / 4;
    int64_t w = MIN(so->width, (uint32_t)pixman_image_get_width(dst));

    if (r500_disp_cursor(s, so, ci)) {
        for (int64_t y = MAX((int64_t)y0, ci->y);
             y < MIN((int64_t)y1, (int64_t)ci->y + ci->h); y++) {
            uint32_t *row = bits + y * stride;
            unsigned iy = y - ci->y;

            for (int64_t x = MAX(0, ci->x); x < MIN(w, (int64_t)ci->x + ci->w);
                 x++) {
                unsigned i = iy * R500_CURSOR_MAX + (x - ci->x);

                row[x] = blend(ci->argb[i], row[x]);
                if (ci->invert[i]) {
                    row[x] ^= 0xFFFFFF;
                }
            }
        }
    }
    g_free(ci);
}

static const R500RegHook cursor_hooks[] = {
    { R_D1CUR_CONTROL, R_D1CUR_COLOR2, NULL, cursor_reg_write },
    { R_D2CUR_CONTROL, R_D2CUR_COLOR2, NULL, cursor_reg_write },
    { R_D1CUR_UPDATE, R_D1CUR_UPDATE, NULL, cursor_update_write },
    { R_D2CUR_UPDATE, R_D2CUR_UPDATE, NULL, cursor_update_write },
    { 0 }
};

static void cursor_reset(R500Chip *s)
{
    for (unsigned c = 0; c < R500_NUM_CRTC; c++) {
        cursor_latch(s, c);
    }
}

const R500Block r500_cursor_block = {
    .name = "cursor",
    .hooks = cursor_hooks,
    .reset = cursor_reset,
};
