/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a CRTC shows, and the conversion of its graphics surface to the
 * console's x8r8g8b8 through the LUT.
 *
 * Reference radeon-kms-r500.md 7.1 and 7.3 (avivo_crtc_do_set_base).
 * The visible area of a native mode is the CRTC's active area plus the
 * overscan borders (D1MODE_EXT_OVERSCAN_*) in the overscan colour; the
 * viewport (D1MODE_VIEWPORT_*) sits inside it at the top-left border and
 * shows the desktop from VIEWPORT_START; the desktop is the part
 * [X_START, X_END) x [Y_START, Y_END) of the surface, whose pixel (x, y)
 * is at PRIMARY_SURFACE_ADDRESS + ((y + OFFSET_Y) * PITCH + x + OFFSET_X)
 * * bytes per pixel.  What the desktop does not cover is black.
 *
 * Pixels go through the LUT selected by GRPH_LUT_SEL: components are
 * widened to 8 bits by replicating their top bits, then looked up
 * (the 10-bit entries' top 8 bits).  2101010 uses the top 8 bits of each
 * component as the index, or bypasses the LUT (LUT_SEL bit 8).  With an
 * identity LUT and no byte swapping, 16 and 32 bpp surfaces are
 * converted by pixman.
 */
#include <glib.h>
#include <string.h>

#include "../mem/mc.h"
#include "../mem/tiling.h"
#include "disp_int.h"

/* ---- Format of the graphics surface ---- */

static R500SurfaceFormat surface_format(uint32_t ctl, uint32_t *bpp)
{
    uint32_t fmt = R500_FGET(ctl, D1GRPH_CONTROL, FORMAT);

    switch (R500_FGET(ctl, D1GRPH_CONTROL, DEPTH)) {
    case 0:
        *bpp = 1;
        return fmt == 0 ? R500_FMT_I8 : R500_FMT_NONE;
    case 1:
        *bpp = 2;
        switch (fmt) {
        case 0:
            return R500_FMT_ARGB1555;
        case 1:
            return R500_FMT_RGB565;
        case 2:
            return R500_FMT_ARGB4444;
        }
        return R500_FMT_NONE;
    case 2:
        *bpp = 4;
        switch (fmt) {
        case 0:
            return R500_FMT_ARGB8888;
        case 1:
            return R500_FMT_ARGB2101010;
        }
        return R500_FMT_NONE;
    }
    *bpp = 8;
    return R500_FMT_NONE;
}

/*
 * The CRTC's frame: its refresh, visible area (overscan included, at most
 * 4096x4096), border colour, viewport and cursor.  False when nothing of
 * the graphics plane is shown (blanked, or the plane disabled).
 */
static bool scanout_frame(R500Chip *s, unsigned c, R500Scanout *so,
                          const R500CrtcTiming *t)
{
    uint32_t lr, tb, left, right, top, bottom, vpsz;

    so->refresh_mhz = (uint64_t)t->khz * 1000000 /
                      ((uint64_t)t->h.total * t->v.total);

    lr = CREG(s, c, R_D1MODE_EXT_OVERSCAN_LEFT_RIGHT);
    tb = CREG(s, c, R_D1MODE_EXT_OVERSCAN_TOP_BOTTOM);
    left = R500_FGET(lr, D1MODE_EXT_OVERSCAN_LEFT_RIGHT, LEFT);
    right = R500_FGET(lr, D1MODE_EXT_OVERSCAN_LEFT_RIGHT, RIGHT);
    top = R500_FGET(tb, D1MODE_EXT_OVERSCAN_TOP_BOTTOM, TOP);
    bottom = R500_FGET(tb, D1MODE_EXT_OVERSCAN_TOP_BOTTOM, BOTTOM);
    so->width = t->h.active + left + right;
    so->height = t->v.active + top + bottom;
    if (so->width > R500_SCANOUT_MAX_W || so->height > R500_SCANOUT_MAX_H) {
        disp_log_once(s, c, DISP_LOG_SIZE, so->width << 16 | so->height,
                      R500_LOG_UNIMP,
                      "visible area larger than 4096x4096 clipped");
        so->width = MIN(so->width, R500_SCANOUT_MAX_W);
        so->height = MIN(so->height, R500_SCANOUT_MAX_H);
    }
    if ((CREG(s, c, R_D1SCL_SCALER_ENABLE) & 1) ||
        R500_FGET(CREG(s, c, R_D1CRTC_INTERLACE_CONTROL),
                  D1CRTC_INTERLACE_CONTROL, EN)) {
        /* Shown 1:1 and progressive. */
        disp_log_once(s, c, DISP_LOG_SCALER,
                      (CREG(s, c, R_D1SCL_SCALER_ENABLE) & 1) |
                      CREG(s, c, R_D1CRTC_INTERLACE_CONTROL) << 1,
                      R500_LOG_UNIMP,
                      "scaler (bit 0) / interlace (bit 1) not modelled");
    }
    so->border_rgb = disp_rgb30_to_x8r8g8b8(CREG(s, c,
                                                 R_D1CRTC_OVERSCAN_COLOR));
    if (R500_FGET(CREG(s, c, R_D1CRTC_BLANK_CONTROL), D1CRTC_BLANK_CONTROL,
                  BLANK_DATA_EN)) {
        /* Blanked: the whole area in the black colour (BlankCRTC). */
        so->border_rgb = disp_rgb30_to_x8r8g8b8(CREG(s, c,
                                                     R_D1CRTC_BLACK_COLOR));
        return false;
    }

    vpsz = CREG(s, c, R_D1MODE_VIEWPORT_SIZE);
    so->vp_x = MIN(left, so->width);
    so->vp_y = MIN(top, so->height);
    so->vp_w = R500_FGET(vpsz, D1MODE_VIEWPORT_SIZE, WIDTH);
    so->vp_h = R500_FGET(vpsz, D1MODE_VIEWPORT_SIZE, HEIGHT);
    so->vp_w = MIN(so->vp_w ? so->vp_w : t->h.active, so->width - so->vp_x);
    so->vp_h = MIN(so->vp_h ? so->vp_h : t->v.active, so->height - so->vp_y);
    so->cursor = R500_FGET(s->disp.st.crtc[c].cursor[0], D1CUR_CONTROL, EN);
    so->cursor_gen = s->disp.cursor_gen[c];
    return R500_FGET(CREG(s, c, R_D1GRPH_ENABLE), D1GRPH_ENABLE, ENABLE);
}

void r500_disp_scanout(R500Chip *s, unsigned c, R500Scanout *so)
{
    const R500CrtcTiming *t = crtc_timing(s, c);
    uint32_t vps, ctl, pitch_px;
    uint32_t dx, dy, xs, xe, ys, ye, cx0, cx1, cy0, cy1, offx, offy, swap;
    uint64_t first, span, off;
    R500SurfaceFormat fmt;
    uint32_t bpp;

    memset(so, 0, sizeof(*so));
    so->crtc = c;
    if (crtc_vga_mode(s, c)) {
        so->kind = R500_SCANOUT_VGA;
        return;
    }
    if (!crtc_running(s, c) || !output_crtc_live(s, c)) {
        so->kind = R500_SCANOUT_OFF;
        return;
    }
    so->kind = R500_SCANOUT_NATIVE;
    if (!scanout_frame(s, c, so, t)) {
        return;
    }

    ctl = CREG(s, c, R_D1GRPH_CONTROL);
    fmt = surface_format(ctl, &bpp);
    if (fmt == R500_FMT_NONE) {
        disp_log_once(s, c, DISP_LOG_FORMAT, ctl, R500_LOG_UNIMP,
                      "GRPH_CONTROL surface format not modelled");
        return;
    }
    swap = CREG(s, c, R_D1GRPH_SWAP_CNTL);
    if (R500_FGET(swap, D1GRPH_SWAP_CNTL, CROSSBARS)) {
        disp_log_once(s, c, DISP_LOG_CROSSBAR, swap, R500_LOG_UNIMP,
                      "GRPH_SWAP_CNTL colour crossbars ignored");
    }

    crtc_sync_flip(s, c, disp_now(s));
    vps = CREG(s, c, R_D1MODE_VIEWPORT_START);
    dx = R500_FGET(vps, D1MODE_VIEWPORT_START, X);
    dy = R500_FGET(vps, D1MODE_VIEWPORT_START, Y);
    xs = CREG(s, c, R_D1GRPH_X_START) & 0x1FFF;
    ys = CREG(s, c, R_D1GRPH_Y_START) & 0x1FFF;
    xe = CREG(s, c, R_D1GRPH_X_END) & 0x3FFF;
    ye = CREG(s, c, R_D1GRPH_Y_END) & 0x3FFF;
    cx0 = MAX(dx, xs);
    cx1 = MIN(dx + so->vp_w, xe);
    cy0 = MAX(dy, ys);
    cy1 = MIN(dy + so->vp_h, ye);
    if (cx1 <= cx0 || cy1 <= cy0) {
        return;
    }
    offx = CREG(s, c, R_D1GRPH_SURFACE_OFFSET_X) & 0x1FFF;
    offy = CREG(s, c, R_D1GRPH_SURFACE_OFFSET_Y) & 0x1FFF;
    pitch_px = R500_FGET(CREG(s, c, R_D1GRPH_PITCH), D1GRPH_PITCH, PITCH);

    /*
     * The whole fetch must lie in VRAM: first to last pixel, or for a
     * tiled surface (laid out as every block writes it, mem/tiling.h)
     * every tile row up to the last pixel's, and no pixel right of the
     * laid-out row (the pitch rounded up to the tile width): what lies
     * beyond it is not part of the surface and is not shown.
     */
    so->tiled_macro = R500_FGET(ctl, D1GRPH_CONTROL, MACRO_ADDRESS_MODE);
    so->tiled_micro = R500_FGET(ctl, D1GRPH_CONTROL, TILED);
    if (so->tiled_macro || so->tiled_micro) {
        R500Surf sf;

        if (!r500_surf_init(&sf, 0, pitch_px, bpp, so->tiled_macro,
                            so->tiled_micro)) {
            disp_log_once(s, c, DISP_LOG_TILING, ctl, R500_LOG_UNIMP,
                          "GRPH_CONTROL tiling of this depth not modelled");
            return;
        }
        if (cx1 + offx > r500_surf_row_pixels(&sf)) {
            disp_log_once(s, c, DISP_LOG_TILING, pitch_px, R500_LOG_GUEST_ERROR,
                          "desktop wider than the tiled surface's rows, "
                          "clipped; pitch");
            if (cx0 + offx >= r500_surf_row_pixels(&sf)) {
                return;
            }
            cx1 = r500_surf_row_pixels(&sf) - offx;
        }
        first = 0;
        span = r500_surf_rows_bytes(&sf, cy1 + offy);
        so->org_x = cx0 + offx;
        so->org_y = cy0 + offy;
    } else {
        first = ((uint64_t)(cy0 + offy) * pitch_px + cx0 + offx) * bpp;
        span = ((uint64_t)(cy1 - cy0 - 1) * pitch_px + (cx1 - cx0)) * bpp;
    }
    if (!r500_mc_vram_span(s, s->disp.st.crtc[c].surface_addr, first + span,
                           &off)) {
        disp_log_once(s, c, DISP_LOG_ADDRESS,
                      s->disp.st.crtc[c].surface_addr, R500_LOG_GUEST_ERROR,
                      "surface outside VRAM, not shown; address");
        return;
    }
    s->disp.logged[c][DISP_LOG_ADDRESS] = 0;

    so->rect_x = so->vp_x + (cx0 - dx);
    so->rect_y = so->vp_y + (cy0 - dy);
    so->rect_w = cx1 - cx0;
    so->rect_h = cy1 - cy0;
    so->base = off + first;
    so->pitch = pitch_px * bpp;
    so->format = fmt;
    so->bpp = bpp;
    switch (R500_FGET(swap, D1GRPH_SWAP_CNTL, ENDIAN_SWAP)) {
    case 1:
        so->endian_swap = 2;
        break;
    case 2:
        so->endian_swap = 4;
        break;
    case 3:
        so->endian_swap = 8;
        break;
    }
    so->swap_rb = R500_FGET(ctl, D1GRPH_CONTROL, SWAP_RB);
    so->lut = R500_FGET(CREG(s, c, R_D1GRPH_LUT_SEL), D1GRPH_LUT_SEL, LUT_SEL);
    so->lut_bypass = fmt == R500_FMT_ARGB2101010 &&
                     R500_FGET(CREG(s, c, R_D1GRPH_LUT_SEL), D1GRPH_LUT_SEL,
                               LUT_10BIT_BYPASS);
    so->lut_gen = s->disp.lut_gen;
}

/* ---- Conversion ---- */

static inline uint32_t ex4(uint32_t v)
{
    v &= 0xF;
    return v << 4 | v;
}

static inline uint32_t ex5(uint32_t v)
{
    v &= 0x1F;
    return v << 3 | v >> 2;
}

static inline uint32_t ex6(uint32_t v)
{
    v &= 0x3F;
    return v << 2 | v >> 4;
}

/* Byte a of VRAM as the display sees it through the endian swap unit u. */
static inline uint8_t swapped_byte(const uint8_t *vram, uint64_t a, unsigned u)
{
    return u ? vram[(a & ~(uint64_t)(u - 1)) | (u - 1 - (a & (u - 1)))]
             : vram[a];
}

/* One pixel at VRAM offset off as x8r8g8b8, through the LUT. */
static inline uint32_t convert_pixel(R500Chip *s, const R500Scanout *so,
                                     const R500Lut8 *l, uint64_t off)
{
    unsigned bpp = so->bpp, u = so->endian_swap;
    uint32_t v = 0, r, g, b;

    for (unsigned k = 0; k < bpp; k++) {
        v |= (uint32_t)swapped_byte(s->vram, off + k, u) << (8 * k);
    }
    switch (so->format) {
    case R500_FMT_I8:
        return l->index[v & 0xFF];
    case R500_FMT_ARGB1555:
        r = ex5(v >> 10);
        g = ex5(v >> 5);
        b = ex5(v);
        break;
    case R500_FMT_RGB565:
        r = ex5(v >> 11);
        g = ex6(v >> 5);
        b = ex5(v);
        break;
    case R500_FMT_ARGB4444:
        r = ex4(v >> 8);
        g = ex4(v >> 4);
        b = ex4(v);
        break;
    case R500_FMT_ARGB8888:
        r = (v >> 16) & 0xFF;
        g = (v >> 8) & 0xFF;
        b = v & 0xFF;
        break;
    case R500_FMT_ARGB2101010:
        r = (v >> 22) & 0xFF;
        g = (v >> 12) & 0xFF;
        b = (v >> 2) & 0xFF;
        break;
    default:
        return 0xFF000000u;
    }
    if (so->swap_rb) {
        uint32_t tmp = r;
        r = b;
        b = tmp;
    }
    if (!so->lut_bypass) {
        r = l->r[r];
        g = l->g[g];
        b = l->b[b];
    }
    return 0xFF000000u | r << 16 | g << 8 | b;
}

void r500_disp_convert_row(R500Chip *s, const R500Scanout *so, uint64_t off,
                           uint32_t *dst, uint32_t n)
{
    const R500Lut8 *l = lut_get8(s, so->lut);

    for (uint32_t i = 0; i < n; i++, off += so->bpp) {
        dst[i] = convert_pixel(s, so, l, off);
    }
}

/* Row y of the rectangle of a tiled surface (checked by r500_disp_scanout). */
static void convert_tiled_row(R500Chip *s, const R500Scanout *so, uint32_t y,
                              uint32_t *dst, uint32_t n)
{
    const R500Lut8 *l = lut_get8(s, so->lut);
    R500Surf sf;

    r500_surf_init(&sf, 0, so->pitch / so->bpp, so->bpp, so->tiled_macro,
                   so->tiled_micro);
    for (uint32_t i = 0; i < n; i++) {
        dst[i] = convert_pixel(s, so, l, so->base +
                               r500_surf_offset(&sf, so->org_x + i,
                                                so->org_y + y));
    }
}

bool r500_disp_surface_span(const R500Scanout *so, uint32_t y0, uint32_t y1,
                            uint64_t *lo, uint64_t *hi)
{
    R500Surf sf;

    if (so->kind != R500_SCANOUT_NATIVE || !so->rect_w || y0 >= y1 ||
        y1 > so->rect_h) {
        return false;
    }
    if (!so->tiled_macro && !so->tiled_micro) {
        *lo = so->base + (uint64_t)y0 * so->pitch;
        *hi = so->base + (uint64_t)(y1 - 1) * so->pitch +
              (uint64_t)so->rect_w * so->bpp;
        return true;
    }
    r500_surf_init(&sf, 0, so->pitch / so->bpp, so->bpp, so->tiled_macro,
                   so->tiled_micro);
    *lo = so->base + r500_surf_rows_bytes(&sf, so->org_y + y0 + 1) -
          sf.row_bytes;
    *hi = so->base + r500_surf_rows_bytes(&sf, so->org_y + y1);
    return true;
}

static pixman_format_code_t pixman_format_of(const R500Scanout *so)
{
    switch (so->format) {
    case R500_FMT_ARGB1555:
        return so->swap_rb ? PIXMAN_x1b5g5r5 : PIXMAN_x1r5g5b5;
    case R500_FMT_RGB565:
        return so->swap_rb ? PIXMAN_b5g6r5 : PIXMAN_r5g6b5;
    case R500_FMT_ARGB4444:
        return so->swap_rb ? PIXMAN_x4b4g4r4 : PIXMAN_x4r4g4b4;
    case R500_FMT_ARGB8888:
        return so->swap_rb ? PIXMAN_x8b8g8r8 : PIXMAN_x8r8g8b8;
    }
    return 0;
}

/*
 * Rows [y0, y1) of the surface rectangle (relative to it) through pixman,
 * when that gives the same pixels as the LUT path: identity LUT, no byte
 * swap, a format pixman widens by bit replication, 32-bit aligned rows.
 */
static bool render_pixman(R500Chip *s, const R500Scanout *so,
                          pixman_image_t *dst, uint32_t y0, uint32_t y1,
                          uint32_t w)
{
    pixman_format_code_t pf = pixman_format_of(so);
    uint64_t start = so->base + (uint64_t)y0 * so->pitch;
    uint32_t dx = (start & 3) / so->bpp;
    pixman_image_t *src;

    if (!pf || so->tiled_macro || so->tiled_micro || so->endian_swap ||
        !lut_get8(s, so->lut)->identity ||
        (so->pitch & 3) || ((start - dx * so->bpp) & 3)) {
        return false;
    }
    src = pixman_image_create_bits(pf, w + dx, y1 - y0,
                                   (uint32_t *)(s->vram + start - dx * so->bpp),
                                   so->pitch);
    if (!src) {
        return false;
    }
    pixman_image_composite(PIXMAN_OP_SRC, src, NULL, dst, dx, 0, 0, 0,
                           so->rect_x, so->rect_y + y0, w, y1 - y0);
    pixman_image_unref(src);
    return true;
}

static void fill(pixman_image_t *dst, uint32_t x, uint32_t y, uint32_t w,
                 uint32_t h, uint32_t rgb)
{
    if (w && h) {
        pixman_fill(pixman_image_get_data(dst),
                    pixman_image_get_stride(dst) / 4, 32, x, y, w, h,
                    0xFF000000u | rgb);
    }
}

/* [a0, a1) & [b0, b0 + bn) */
static bool overlap(uint32_t a0, uint32_t a1, uint32_t b0, uint32_t bn,
                    uint32_t *o0, uint32_t *o1)
{
    *o0 = MAX(a0, b0);
    *o1 = MIN(a1, b0 + bn);
    return *o0 < *o1;
}

void r500_disp_render(R500Chip *s, const R500Scanout *so, pixman_image_t *dst,
                      uint32_t y0, uint32_t y1, bool draw_cursor)
{
    uint32_t dw = pixman_image_get_width(dst);
    uint32_t w = MIN(so->width, dw);
    uint32_t o0, o1, rw;

    if (so->kind != R500_SCANOUT_NATIVE ||
        PIXMAN_FORMAT_BPP(pixman_image_get_format(dst)) != 32) {
        return;
    }
    y1 = MIN(y1, MIN(so->height, (uint32_t)pixman_image_get_height(dst)));
    if (y0 >= y1 || !w) {
        return;
    }
    fill(dst, 0, y0, w, y1 - y0, so->border_rgb);
    if (overlap(y0, y1, so->vp_y, so->vp_h, &o0, &o1) && so->vp_x < w) {
        fill(dst, so->vp_x, o0, MIN(so->vp_w, w - so->vp_x), o1 - o0,
             so->vp_rgb);
    }
    if (overlap(y0, y1, so->rect_y, so->rect_h, &o0, &o1) && so->rect_x < w) {
        rw = MIN(so->rect_w, w - so->rect_x);
        if (!render_pixman(s, so, dst, o0 - so->rect_y, o1 - so->rect_y, rw)) {
            uint32_t *bits = pixman_image_get_data(dst);
            uint32_t stride = pixman_image_get_stride(dst) / 4;

            for (uint32_t y = o0; y < o1; y++) {
                uint32_t *row = bits + (uint64_t)y * stride + so->rect_x;

                if (so->tiled_macro || so->tiled_micro) {
                    convert_tiled_row(s, so, y - so->rect_y, row, rw);
                } else {
                    r500_disp_convert_row(s, so, so->base +
                                          (uint64_t)(y - so->rect_y) *
                                          so->pitch, row, rw);
                }
            }
        }
    }
    if (draw_cursor && so->cursor) {
        cursor_compose(s, so, dst, y0, y1);
    }
}

/* ---- The legacy CRTC of the SeaVGABIOS ATI extension ---- */

void r500_disp_legacy_mode(R500Chip *s, R500LegacyMode *m)
{
    static const uint8_t bpp_of[8] = { 0, 4, 8, 15, 16, 24, 32, 0 };
    uint32_t gen = REG(s, R_CRTC_GEN_CNTL);

    memset(m, 0, sizeof(*m));
    if (!R500_FGET(gen, CRTC_GEN_CNTL, EXT_DISP_EN) ||
        !R500_FGET(gen, CRTC_GEN_CNTL, EN)) {
        return;
    }
    m->bpp = bpp_of[R500_FGET(gen, CRTC_GEN_CNTL, PIX_WIDTH)];
    if (!m->bpp) {
        if (s->disp.logged_legacy != gen) {
            s->disp.logged_legacy = gen;
            r500_unimp(s, "CRTC_GEN_CNTL pixel width %u not modelled",
                       R500_FGET(gen, CRTC_GEN_CNTL, PIX_WIDTH));
        }
        return;
    }
    m->enabled = true;
    m->blank = R500_FGET(REG(s, R_CRTC_EXT_CNTL), CRTC_EXT_CNTL, DISPLAY_DIS);
    m->width = (R500_FGET(REG(s, R_CRTC_H_TOTAL_DISP), CRTC_H_TOTAL_DISP,
                          H_DISP) + 1) * 8;
    m->height = R500_FGET(REG(s, R_CRTC_V_TOTAL_DISP), CRTC_V_TOTAL_DISP,
                          V_DISP) + 1;
    m->pitch = R500_FGET(REG(s, R_CRTC_PITCH), CRTC_PITCH, PITCH) * 8;
    if (!m->pitch) {
        m->pitch = m->width;
    }
    m->offset = R500_FGET(REG(s, R_CRTC_OFFSET), CRTC_OFFSET, OFFSET);
}
