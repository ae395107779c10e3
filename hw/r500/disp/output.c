/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Display outputs: DAC A and B, TMDS A, hot-plug detect and DAC load
 * detection.
 *
 * The card's connectors (HELPERS.md contract, atombios-rom.md 5): 0 is
 * VGA on DAC A with DDC1, 1 is DVI-D on TMDS A with HPD1 and DDC2.  A
 * monitor is attached to a connector when the board gave it an EDID.
 *
 * A CRTC reaches a monitor when an enabled output takes it as source
 * (atombios-rom.md 5.3): a DAC when DACx_ENABLE is set and DACx_POWERDOWN
 * does not power it down (DAC1EncoderControl / DAC1OutputControl), TMDS
 * A when TMDSA_CNTL is enabled and its transmitter is on
 * (TMDSAEncoderControl / TMDSAOutputControl).
 *
 * HPD (reference 6.1, rs600_hpd_*): INT_STATUS bit 1 is the sense line;
 * the interrupt latches when the sense line becomes equal to the polarity
 * bit (rs600_hpd_set_polarity sets it to "disconnected" while connected)
 * with detection enabled; INT_CONTROL bit 0 acknowledges.
 */
#include <glib.h>

#include "disp_int.h"

#define DACB(daca_reg)  ((daca_reg) + (R_DACB_ENABLE - R_DACA_ENABLE))
#define HPD2(hpd1_reg)  ((hpd1_reg) + (R_DC_HOT_PLUG_DETECT2_CONTROL - \
                                       R_DC_HOT_PLUG_DETECT1_CONTROL))

static bool dac_live(R500Chip *s, uint32_t delta, unsigned c)
{
    return R500_FGET(REG(s, R_DACA_ENABLE + delta), DACA_ENABLE, ENABLE) &&
           !R500_FGET(REG(s, R_DACA_POWERDOWN + delta), DACA_POWERDOWN,
                      POWERDOWN) &&
           R500_FGET(REG(s, R_DACA_SOURCE_SELECT + delta), DACA_SOURCE_SELECT,
                     SOURCE) == c;
}

bool output_crtc_live(R500Chip *s, unsigned c)
{
    return dac_live(s, 0, c) || dac_live(s, DACB(0), c) ||
           (R500_FGET(REG(s, R_TMDSA_CNTL), TMDSA_CNTL, ENABLE) &&
            REG(s, R_TMDSA_TRANSMITTER_ENABLE) != 0 &&
            R500_FGET(REG(s, R_TMDSA_SOURCE_SELECT), TMDSA_SOURCE_SELECT,
                      SOURCE) == c);
}

/* ---- Load detection (DAC_LoadDetection reads the comparator) ---- */

static uint32_t daca_comparator_read(R500Chip *s, uint32_t reg)
{
    /* Bits 3:1 all set: a CRT loads R, G and B. */
    return s->disp.edid_len[0] ? 0x0E : 0;
}

static uint32_t dacb_comparator_read(R500Chip *s, uint32_t reg)
{
    return 0;   /* nothing on DAC B (TV / second CRT) */
}

/* ---- Hot-plug detect ---- */

static unsigned hpd_of(uint32_t reg)
{
    return reg >= R_DC_HOT_PLUG_DETECT2_CONTROL;
}

static bool hpd_sense(R500Chip *s, unsigned h)
{
    /* HPD1 is the DVI-D connector; HPD2 has nothing attached. */
    return h == 0 && s->disp.edid_len[1] != 0;
}

static bool hpd_condition(R500Chip *s, unsigned h, uint32_t control,
                          uint32_t int_control)
{
    return R500_FGET(control, DC_HOT_PLUG_DETECT1_CONTROL, EN) &&
           hpd_sense(s, h) == R500_FGET(int_control,
                                        DC_HOT_PLUG_DETECT1_INT_CONTROL,
                                        POLARITY);
}

static void hpd_write(R500Chip *s, uint32_t reg, uint32_t old, uint32_t mask)
{
    unsigned h = hpd_of(reg);
    uint32_t delta = h ? HPD2(0) : 0;
    uint32_t ctl = REG(s, R_DC_HOT_PLUG_DETECT1_CONTROL + delta);
    uint32_t ictl = REG(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL + delta);
    uint32_t old_ctl = reg == R_DC_HOT_PLUG_DETECT1_CONTROL + delta ? old : ctl;
    uint32_t old_ictl = reg == R_DC_HOT_PLUG_DETECT1_INT_CONTROL + delta ?
                        old : ictl;

    if (reg == R_DC_HOT_PLUG_DETECT1_INT_CONTROL + delta &&
        R500_FGET(ictl, DC_HOT_PLUG_DETECT1_INT_CONTROL, ACK)) {
        s->disp.st.hpd_int[h] = 0;
        REG(s, reg) &= ~R500_FMASK(DC_HOT_PLUG_DETECT1_INT_CONTROL, ACK);
    }
    if (!hpd_condition(s, h, old_ctl, old_ictl) &&
        hpd_condition(s, h, ctl, ictl)) {
        s->disp.st.hpd_int[h] = 1;
    }
    r500_irq_update(s);
}

static uint32_t hpd_int_status_read(R500Chip *s, uint32_t reg)
{
    unsigned h = hpd_of(reg);

    return (s->disp.st.hpd_int[h] ?
            R500_FMASK(DC_HOT_PLUG_DETECT1_INT_STATUS, INT) : 0) |
           (hpd_sense(s, h) ? R500_FMASK(DC_HOT_PLUG_DETECT1_INT_STATUS, SENSE)
                            : 0);
}

static void read_only(R500Chip *s, uint32_t reg, uint32_t old, uint32_t mask)
{
    REG(s, reg) = old;
}

static bool output_irq_pending(R500Chip *s)
{
    for (unsigned h = 0; h < 2; h++) {
        uint32_t ictl = REG(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL +
                               (h ? HPD2(0) : 0));

        if (s->disp.st.hpd_int[h] &&
            R500_FGET(ictl, DC_HOT_PLUG_DETECT1_INT_CONTROL, INT_EN)) {
            return true;
        }
    }
    return false;
}

static const R500RegHook output_hooks[] = {
    { R_DACA_COMPARATOR_OUTPUT, R_DACA_COMPARATOR_OUTPUT,
      daca_comparator_read, read_only },
    { R_DACB_COMPARATOR_OUTPUT, R_DACB_COMPARATOR_OUTPUT,
      dacb_comparator_read, read_only },
    { R_DC_HOT_PLUG_DETECT1_CONTROL, R_DC_HOT_PLUG_DETECT1_CONTROL,
      NULL, hpd_write },
    { R_DC_HOT_PLUG_DETECT1_INT_STATUS, R_DC_HOT_PLUG_DETECT1_INT_STATUS,
      hpd_int_status_read, read_only },
    { R_DC_HOT_PLUG_DETECT1_INT_CONTROL, R_DC_HOT_PLUG_DETECT1_INT_CONTROL,
      NULL, hpd_write },
    { R_DC_HOT_PLUG_DETECT2_CONTROL, R_DC_HOT_PLUG_DETECT2_CONTROL,
      NULL, hpd_write },
    { R_DC_HOT_PLUG_DETECT2_INT_STATUS, R_DC_HOT_PLUG_DETECT2_INT_STATUS,
      hpd_int_status_read, read_only },
    { R_DC_HOT_PLUG_DETECT2_INT_CONTROL, R_DC_HOT_PLUG_DETECT2_INT_CONTROL,
      NULL, hpd_write },
    { 0 }
};

static void output_reset(R500Chip *s)
{
    s->disp.st.hpd_int[0] = s->disp.st.hpd_int[1] = 0;
}

const R500Block r500_output_block = {
    .name = "output",
    .hooks = output_hooks,
    .reset = output_reset,
    .irq_pending = output_irq_pending,
};
