/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DDC: bit-banged I2C on the DC_GPIO_DDCx pins, with an EDID EEPROM at
 * address 0x50 and the E-DDC segment pointer at 0x30 behind each of the
 * two connectors.
 *
 * Reference radeon-kms-r500.md 7.8 (radeon_i2c.c pre_xfer / set_clock /
 * get_data): a pin is under software control when its MASK bit is set;
 * then EN set drives it to the A bit's level (radeon keeps A at 0, so EN
 * means "pull low"), EN clear releases it.  Y reads the wire: open drain,
 * pulled up, low when the host or the monitor pulls it low.  The monitor
 * never stretches the clock, so a released SCL reads high at once
 * (i2c-algo-bit's sclhi()).  SCL is bit 0, SDA bit 8 of each register
 * (HELPERS.md).  The DDC3 pins have nothing attached.
 *
 * The slave follows the wire levels: START and STOP are SDA edges while
 * SCL is high; it samples on SCL rising edges and changes SDA only while
 * SCL is low, after falling edges.
 */
#include <glib.h>
#include <string.h>

#include "disp_int.h"

#define SCL_BIT     R500_FMASK(DC_GPIO_DDC1_MASK, SCL)
#define SDA_BIT     R500_FMASK(DC_GPIO_DDC1_MASK, SDA)
#define EDID_ADDR   0x50
#define SEG_ADDR    0x30
#define DDC_STRIDE  (R_DC_GPIO_DDC2_MASK - R_DC_GPIO_DDC1_MASK)

typedef enum I2CState {
    I2C_IDLE,       /* not addressed: wait for START */
    I2C_RX_ADDR,    /* receiving the address byte */
    I2C_RX_OFFSET,  /* receiving the EEPROM word address */
    I2C_RX_SEGMENT, /* receiving the segment number */
    I2C_RX_IGNORE,  /* receiving bytes that are acknowledged and dropped */
    I2C_ACK,        /* pulling SDA low for the acknowledge bit */
    I2C_TX,         /* sending a byte, MSB first */
    I2C_TX_ACK,     /* the master's acknowledge of a sent byte */
} I2CState;

/* Register block of DDC bus d (0: DDC1, 1: DDC2, 2: DDC3). */
static uint32_t ddc_base(unsigned d)
{
    return R_DC_GPIO_DDC1_MASK + d * DDC_STRIDE;
}

/* The levels the host drives: 1 where released. */
static uint32_t host_levels(R500Chip *s, unsigned d)
{
    uint32_t b = ddc_base(d);
    uint32_t mask = REG(s, b);
    uint32_t a = REG(s, b + (R_DC_GPIO_DDC1_A - R_DC_GPIO_DDC1_MASK));
    uint32_t en = REG(s, b + (R_DC_GPIO_DDC1_EN - R_DC_GPIO_DDC1_MASK));

    return ~(mask & en & ~a);
}

static uint8_t edid_byte(R500Chip *s, unsigned d, const R500I2CSlave *i2c)
{
    uint32_t addr = i2c->segment * 256u + i2c->offset;

    return addr < s->disp.edid_len[d] ? s->disp.edid[d][addr] : 0xFF;
}

static void i2c_load(R500Chip *s, unsigned d, R500I2CSlave *i2c)
{
    i2c->shift = edid_byte(s, d, i2c);
    i2c->offset++;
    i2c->sda_out = i2c->shift >> 7;
    i2c->nbits = 1;
    i2c->state = I2C_TX;
}

static void i2c_ack(R500I2CSlave *i2c, I2CState next)
{
    i2c->state = I2C_ACK;
    i2c->next = next;
    i2c->sda_out = 0;
}

/* A whole byte has been received (after the 8th falling edge). */
static void i2c_byte_in(R500Chip *s, unsigned d, R500I2CSlave *i2c)
{
    uint8_t v = i2c->shift;

    switch (i2c->state) {
    case I2C_RX_ADDR:
        if (v >> 1 == EDID_ADDR && s->disp.edid_len[d]) {
            i2c_ack(i2c, (v & 1) ? I2C_TX : I2C_RX_OFFSET);
        } else if (v == SEG_ADDR << 1 && s->disp.edid_len[d]) {
            i2c_ack(i2c, I2C_RX_SEGMENT);
        } else {
            i2c->state = I2C_IDLE;      /* not us: no acknowledge */
        }
        return;
    case I2C_RX_OFFSET:
        i2c->offset = v;
        break;
    case I2C_RX_SEGMENT:
        i2c->segment = v;
        break;
    default:
        break;                          /* data to a read-only EEPROM */
    }
    i2c_ack(i2c, I2C_RX_IGNORE);
}

static void i2c_scl_rise(R500I2CSlave *i2c)
{
    switch (i2c->state) {
    case I2C_RX_ADDR:
    case I2C_RX_OFFSET:
    case I2C_RX_SEGMENT:
    case I2C_RX_IGNORE:
        i2c->shift = i2c->shift << 1 | i2c->sda;
        i2c->nbits++;
        break;
    case I2C_TX_ACK:
        /* ACK (low): send on; NACK: the master is done reading. */
        i2c->next = i2c->sda ? I2C_IDLE : I2C_TX;
        break;
    default:
        break;
    }
}

static void i2c_scl_fall(R500Chip *s, unsigned d, R500I2CSlave *i2c)
{
    switch (i2c->state) {
    case I2C_RX_ADDR:
    case I2C_RX_OFFSET:
    case I2C_RX_SEGMENT:
    case I2C_RX_IGNORE:
        if (i2c->nbits == 8) {
            i2c_byte_in(s, d, i2c);
        }
        break;
    case I2C_ACK:
        i2c->sda_out = 1;
        i2c->nbits = 0;
        i2c->shift = 0;
        if (i2c->next == I2C_TX) {
            i2c_load(s, d, i2c);
        } else {
            i2c->state = i2c->next;
        }
        break;
    case I2C_TX:
        if (i2c->nbits < 8) {
            i2c->sda_out = (i2c->shift >> (7 - i2c->nbits)) & 1;
            i2c->nbits++;
        } else {
            i2c->sda_out = 1;           /* release for the master's ACK */
            i2c->state = I2C_TX_ACK;
        }
        break;
    case I2C_TX_ACK:
        if (i2c->next == I2C_TX) {
            i2c_load(s, d, i2c);
        } else {
            i2c->state = I2C_IDLE;
        }
        break;
    default:
        break;
    }
}

static void i2c_sda_edge(R500I2CSlave *i2c, bool sda)
{
    if (!i2c->scl) {
        return;
    }
    if (!sda) {                         /* START (or repeated START) */
        i2c->state = I2C_RX_ADDR;
        i2c->nbits = 0;
        i2c->shift = 0;
        i2c->sda_out = 1;
    } else {                            /* STOP */
        i2c->state = I2C_IDLE;
        i2c->sda_out = 1;
        i2c->segment = 0;               /* E-DDC: the pointer resets */
    }
}

/* New host levels on bus d: run the slave through the changes. */
static void ddc_update(R500Chip *s, unsigned d)
{
    R500I2CSlave *i2c = &s->disp.st.ddc[d];
    uint32_t host = host_levels(s, d);
    bool scl = host & SCL_BIT, host_sda = host & SDA_BIT;
    bool falling = !scl && i2c->scl;

    /* Clock falling: clock first; otherwise data first (no false START). */
    for (unsigned step = 0; step < 2; step++) {
        bool do_scl = (step == 0) == falling;

        if (do_scl && scl != i2c->scl) {
            i2c->scl = scl;
            if (scl) {
                i2c_scl_rise(i2c);
            } else {
                i2c_scl_fall(s, d, i2c);
            }
        } else if (!do_scl) {
            bool sda = host_sda && i2c->sda_out;

            if (sda != i2c->sda) {
                i2c->sda = sda;
                i2c_sda_edge(i2c, sda);
            }
        }
    }
    /* The slave may have changed its drive while SCL is low. */
    i2c->sda = host_sda && i2c->sda_out;
}

static unsigned ddc_of(uint32_t reg)
{
    return (reg - R_DC_GPIO_DDC1_MASK) / DDC_STRIDE;
}

static void ddc_gpio_write(R500Chip *s, uint32_t reg, uint32_t old,
                           uint32_t mask)
{
    unsigned d = ddc_of(reg);

    if (d < R500_NUM_DDC) {
        ddc_update(s, d);
    }
}

static uint32_t ddc_y_read(R500Chip *s, uint32_t reg)
{
    unsigned d = ddc_of(reg);
    uint32_t v = host_levels(s, d);

    if (d < R500_NUM_DDC && !s->disp.st.ddc[d].sda_out) {
        v &= ~SDA_BIT;
    }
    return v;
}

static void read_only(R500Chip *s, uint32_t reg, uint32_t old, uint32_t mask)
{
    REG(s, reg) = old;
}

static const R500RegHook ddc_hooks[] = {
    { R_DC_GPIO_DDC1_MASK, R_DC_GPIO_DDC1_EN, NULL, ddc_gpio_write },
    { R_DC_GPIO_DDC1_Y, R_DC_GPIO_DDC1_Y, ddc_y_read, read_only },
    { R_DC_GPIO_DDC2_MASK, R_DC_GPIO_DDC2_EN, NULL, ddc_gpio_write },
    { R_DC_GPIO_DDC2_Y, R_DC_GPIO_DDC2_Y, ddc_y_read, read_only },
    { R_DC_GPIO_DDC3_MASK, R_DC_GPIO_DDC3_EN, NULL, ddc_gpio_write },
    { R_DC_GPIO_DDC3_Y, R_DC_GPIO_DDC3_Y, ddc_y_read, read_only },
    { 0 }
};

static void ddc_reset(R500Chip *s)
{
    for (unsigned d = 0; d < R500_NUM_DDC; d++) {
        R500I2CSlave *i2c = &s->disp.st.ddc[d];

        memset(i2c, 0, sizeof(*i2c));
        i2c->scl = i2c->sda = i2c->sda_out = 1;
    }
}

void r500_disp_set_edid(R500Chip *s, unsigned d, const uint8_t *edid,
                        size_t len)
{
    g_assert(d < R500_NUM_DDC && len <= R500_EDID_MAX);
    memset(s->disp.edid[d], 0xFF, R500_EDID_MAX);
    memcpy(s->disp.edid[d], edid, len);
    s->disp.edid_len[d] = len;
}

const R500Block r500_ddc_block = {
    .name = "ddc",
    .hooks = ddc_hooks,
    .reset = ddc_reset,
};
