/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two colour LUTs (A and B) and their shared programming port.
 *
 * Reference radeon-kms-r500.md 7.7 (avivo_crtc_load_lut) and radeonhd's
 * rhd_lut.c: DC_LUT_RW_SELECT picks the LUT written, DC_LUT_READ_PIPE_SELECT
 * the one read back; DC_LUT_RW_INDEX (radeon writes it with a byte
 * access) sets the entry; each access to DC_LUT_30_COLOR (R10 << 20 |
 * G10 << 10 | B10) moves to the next entry.  DC_LUT_SEQ_COLOR takes the
 * same entry as three successive 16-bit components, red, green, blue
 * (top 10 bits kept), like the VGA DAC; writing RW_INDEX restarts the
 * sequence.  DC_LUT_WRITE_EN_MASK bits 0-1, 2-3, 4-5 enable blue, green
 * and red.  DC_LUT_AUTOFILL loads a linear ramp and reports done at once
 * (the ROM's EnableVGA_Render polls its bit 1 without a bound).
 * The piecewise-linear mode and the black/white offsets are not modelled.
 */
#include <glib.h>
#include <string.h>

#include "disp_int.h"

#define LUT_RED(v)      (((v) >> 20) & 0x3FF)
#define LUT_GREEN(v)    (((v) >> 10) & 0x3FF)
#define LUT_BLUE(v)     ((v) & 0x3FF)

static uint32_t ramp(unsigned i)
{
    uint32_t c = i << 2 | i >> 6;

    return c << 20 | c << 10 | c;
}

static void lut_changed(R500Chip *s, unsigned l)
{
    s->disp.lut8_valid[l] = false;
    s->disp.lut_gen++;
}

const R500Lut8 *lut_get8(R500Chip *s, unsigned l)
{
    R500Lut8 *t = &s->disp.lut8[l & 1];

    if (!s->disp.lut8_valid[l & 1]) {
        t->identity = true;
        for (unsigned i = 0; i < 256; i++) {
            uint32_t v = s->disp.st.lut[l & 1][i];

            t->r[i] = LUT_RED(v) >> 2;
            t->g[i] = LUT_GREEN(v) >> 2;
            t->b[i] = LUT_BLUE(v) >> 2;
            t->index[i] = 0xFF000000u | (uint32_t)t->r[i] << 16 |
                          (uint32_t)t->g[i] << 8 | t->b[i];
            if (t->r[i] != i || t->g[i] != i || t->b[i] != i) {
                t->identity = false;
            }
        }
        s->disp.lut8_valid[l & 1] = true;
    }
    return t;
}

static uint32_t lut_index(R500Chip *s)
{
    return R500_FGET(REG(s, R_DC_LUT_RW_INDEX), DC_LUT_RW_INDEX, INDEX);
}

static void lut_next(R500Chip *s)
{
    REG(s, R_DC_LUT_RW_INDEX) = R500_FSET(REG(s, R_DC_LUT_RW_INDEX),
                                          DC_LUT_RW_INDEX, INDEX,
                                          lut_index(s) + 1);
}

/* Store entry rgb30 at the current index of the write LUT, then advance. */
static void lut_store(R500Chip *s, uint32_t rgb30)
{
    unsigned l = R500_FGET(REG(s, R_DC_LUT_RW_SELECT), DC_LUT_RW_SELECT, SEL);
    uint32_t en = R500_FGET(REG(s, R_DC_LUT_WRITE_EN_MASK),
                            DC_LUT_WRITE_EN_MASK, MASK);
    uint32_t keep = 0, *e = &s->disp.st.lut[l][lut_index(s)];

    if (R500_FGET(REG(s, R_DC_LUT_RW_MODE), DC_LUT_RW_MODE, PWL)) {
        r500_unimp(s, "DC_LUT_RW_MODE piecewise-linear LUT not modelled");
        return;
    }
    keep |= (en & 0x03) ? 0 : 0x3FFu;
    keep |= (en & 0x0C) ? 0 : 0x3FFu << 10;
    keep |= (en & 0x30) ? 0 : 0x3FFu << 20;
    *e = (*e & keep) | (rgb30 & ~keep & 0x3FFFFFFF);
    lut_changed(s, l);
    lut_next(s);
}

static void lut_30_color_write(R500Chip *s, uint32_t reg, uint32_t old,
                               uint32_t mask)
{
    lut_store(s, REG(s, reg));
}

static uint32_t lut_30_color_read(R500Chip *s, uint32_t reg)
{
    unsigned l = R500_FGET(REG(s, R_DC_LUT_READ_PIPE_SELECT),
                           DC_LUT_READ_PIPE_SELECT, SEL);
    uint32_t v = s->disp.st.lut[l][lut_index(s)];

    lut_next(s);
    return v;
}

static void lut_seq_color_write(R500Chip *s, uint32_t reg, uint32_t old,
                                uint32_t mask)
{
    uint32_t c = (REG(s, reg) >> 6) & 0x3FF;
    uint32_t n = s->disp.st.lut_seq % 3;

    /* red, green, blue */
    s->disp.st.lut_seq_rgb |= c << (20 - 10 * n);
    if (n == 2) {
        lut_store(s, s->disp.st.lut_seq_rgb);
        s->disp.st.lut_seq_rgb = 0;
    }
    s->disp.st.lut_seq = (n + 1) % 3;
}

static void lut_index_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    s->disp.st.lut_seq = 0;
    s->disp.st.lut_seq_rgb = 0;
}

static void lut_autofill_write(R500Chip *s, uint32_t reg, uint32_t old,
                               uint32_t mask)
{
    unsigned l = R500_FGET(REG(s, R_DC_LUT_RW_SELECT), DC_LUT_RW_SELECT, SEL);

    if (R500_FGET(REG(s, reg), DC_LUT_AUTOFILL, AUTOFILL)) {
        for (unsigned i = 0; i < 256; i++) {
            s->disp.st.lut[l][i] = ramp(i);
        }
        lut_changed(s, l);
    }
    REG(s, reg) &= ~R500_FMASK(DC_LUT_AUTOFILL, AUTOFILL);
}

static uint32_t lut_autofill_read(R500Chip *s, uint32_t reg)
{
    return REG(s, reg) | R500_FMASK(DC_LUT_AUTOFILL, DONE);
}

static void lut_pwl_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    r500_unimp(s, "DC_LUT_PWL_DATA: piecewise-linear LUT not modelled");
}

static const R500RegHook lut_hooks[] = {
    { R_DC_LUT_RW_INDEX, R_DC_LUT_RW_INDEX, NULL, lut_index_write },
    { R_DC_LUT_SEQ_COLOR, R_DC_LUT_SEQ_COLOR, NULL, lut_seq_color_write },
    { R_DC_LUT_PWL_DATA, R_DC_LUT_PWL_DATA, NULL, lut_pwl_write },
    { R_DC_LUT_30_COLOR, R_DC_LUT_30_COLOR, lut_30_color_read,
      lut_30_color_write },
    { R_DC_LUT_AUTOFILL, R_DC_LUT_AUTOFILL, lut_autofill_read,
      lut_autofill_write },
    { 0 }
};

/* As after the VGA BIOS's autofill: both LUTs linear. */
static void lut_reset(R500Chip *s)
{
    for (unsigned l = 0; l < 2; l++) {
        for (unsigned i = 0; i < 256; i++) {
            s->disp.st.lut[l][i] = ramp(i);
        }
        lut_changed(s, l);
    }
    s->disp.st.lut_seq = 0;
    s->disp.st.lut_seq_rgb = 0;
    REG(s, R_DC_LUT_WRITE_EN_MASK) = 0x3F;
}

static void lut_post_load(R500Chip *s)
{
    lut_changed(s, 0);
    lut_changed(s, 1);
}

const R500Block r500_lut_block = {
    .name = "lut",
    .hooks = lut_hooks,
    .reset = lut_reset,
    .post_load = lut_post_load,
};
