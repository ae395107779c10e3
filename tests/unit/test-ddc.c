/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of DDC (bit-banged I2C with an EDID EEPROM), HPD and DAC
 * load detection (radeon-kms-r500.md 7.8, 6.1; atombios-rom.md 5.4).
 * The master below drives the pins the way radeon_i2c.c and
 * i2c-algo-bit do.
 */
#include <string.h>

#include "disp-util.h"

#define SCL     (1u << 0)
#define SDA     (1u << 8)

typedef struct Bus {
    R500Chip *s;
    uint32_t mask, a, en, y;
} Bus;

static Bus bus(R500Chip *s, unsigned ddc)
{
    uint32_t stride = R_DC_GPIO_DDC2_MASK - R_DC_GPIO_DDC1_MASK;
    Bus b = {
        s, R_DC_GPIO_DDC1_MASK + ddc * stride, R_DC_GPIO_DDC1_A + ddc * stride,
        R_DC_GPIO_DDC1_EN + ddc * stride, R_DC_GPIO_DDC1_Y + ddc * stride,
    };

    /* pre_xfer: outputs low, released, under software control. */
    r500_reg_write(s, b.a, r500_reg_read(s, b.a) & ~(SCL | SDA));
    r500_reg_write(s, b.en, r500_reg_read(s, b.en) & ~(SCL | SDA));
    r500_reg_write(s, b.mask, r500_reg_read(s, b.mask) | SCL | SDA);
    return b;
}

/* EN set pulls the line low; clear releases it. */
static void set_line(Bus *b, uint32_t bit, bool level)
{
    uint32_t en = r500_reg_read(b->s, b->en);

    r500_reg_write(b->s, b->en, level ? en & ~bit : en | bit);
}

static bool get_line(Bus *b, uint32_t bit)
{
    return r500_reg_read(b->s, b->y) & bit;
}

static void scl_hi(Bus *b)
{
    set_line(b, SCL, 1);
    /* sclhi(): the clock must read high (no stretching). */
    g_assert_true(get_line(b, SCL));
}

static void i2c_start(Bus *b)
{
    set_line(b, SDA, 1);
    scl_hi(b);
    set_line(b, SDA, 0);
    set_line(b, SCL, 0);
}

static void i2c_stop(Bus *b)
{
    set_line(b, SDA, 0);
    scl_hi(b);
    set_line(b, SDA, 1);
}

/* Returns true when the slave acknowledged. */
static bool i2c_write(Bus *b, uint8_t v)
{
    bool ack;

    for (int i = 7; i >= 0; i--) {
        set_line(b, SDA, (v >> i) & 1);
        scl_hi(b);
        set_line(b, SCL, 0);
    }
    set_line(b, SDA, 1);
    scl_hi(b);
    ack = !get_line(b, SDA);
    set_line(b, SCL, 0);
    return ack;
}

static uint8_t i2c_read(Bus *b, bool ack)
{
    uint8_t v = 0;

    set_line(b, SDA, 1);
    for (int i = 0; i < 8; i++) {
        scl_hi(b);
        v = v << 1 | get_line(b, SDA);
        set_line(b, SCL, 0);
    }
    set_line(b, SDA, !ack);
    scl_hi(b);
    set_line(b, SCL, 0);
    set_line(b, SDA, 1);
    return v;
}

/* drm_do_probe_ddc_edid: offset write, repeated start, read, stop. */
static bool read_edid(Bus *b, uint8_t segment, uint8_t offset, uint8_t *buf,
                      unsigned len)
{
    if (segment) {
        i2c_start(b);
        if (!i2c_write(b, 0x30 << 1) || !i2c_write(b, segment)) {
            i2c_stop(b);
            return false;
        }
    }
    i2c_start(b);
    if (!i2c_write(b, 0x50 << 1) || !i2c_write(b, offset)) {
        i2c_stop(b);
        return false;
    }
    i2c_start(b);
    if (!i2c_write(b, 0x50 << 1 | 1)) {
        i2c_stop(b);
        return false;
    }
    for (unsigned i = 0; i < len; i++) {
        buf[i] = i2c_read(b, i + 1 < len);
    }
    i2c_stop(b);
    return true;
}

static void fake_edid(uint8_t *e, unsigned len)
{
    static const uint8_t header[8] = {
        0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,
    };

    for (unsigned i = 0; i < len; i++) {
        e[i] = i * 7 + (i >> 8) * 13;
    }
    memcpy(e, header, 8);
}

static void test_edid_read(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t edid[384], buf[128];
    Bus b;

    fake_edid(edid, sizeof(edid));
    r500_disp_set_edid(s, 0, edid, 128);
    r500_disp_set_edid(s, 1, edid, sizeof(edid));

    /* radeon_ddc_probe: one byte 0, eight bytes back, header matches. */
    b = bus(s, 0);
    g_assert_true(read_edid(&b, 0, 0, buf, 8));
    g_assert_cmpmem(buf, 8, edid, 8);
    /* drm_get_edid: the whole base block, twice in a row. */
    for (unsigned n = 0; n < 2; n++) {
        memset(buf, 0, sizeof(buf));
        g_assert_true(read_edid(&b, 0, 0, buf, 128));
        g_assert_cmpmem(buf, 128, edid, 128);
    }
    /* From an offset; past the EDID the EEPROM reads 0xFF. */
    g_assert_true(read_edid(&b, 0, 120, buf, 16));
    g_assert_cmpmem(buf, 8, edid + 120, 8);
    g_assert_cmphex(buf[8], ==, 0xFF);

    /* DDC2 has three blocks: the third behind segment pointer 1. */
    b = bus(s, 1);
    g_assert_true(read_edid(&b, 0, 128, buf, 128));
    g_assert_cmpmem(buf, 128, edid + 128, 128);
    g_assert_true(read_edid(&b, 1, 0, buf, 128));
    g_assert_cmpmem(buf, 128, edid + 256, 128);
    /* The segment pointer resets at STOP. */
    g_assert_true(read_edid(&b, 0, 0, buf, 8));
    g_assert_cmpmem(buf, 8, edid, 8);
    test_host_free(h);
}

static void test_nack(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t edid[128], buf[8];
    Bus b;

    fake_edid(edid, sizeof(edid));
    r500_disp_set_edid(s, 0, edid, sizeof(edid));
    b = bus(s, 0);
    /* Another address: nobody answers, the bus stays free. */
    i2c_start(&b);
    g_assert_false(i2c_write(&b, 0x51 << 1));
    i2c_stop(&b);
    g_assert_true(get_line(&b, SDA) && get_line(&b, SCL));
    g_assert_true(read_edid(&b, 0, 0, buf, 8));
    /* No monitor on DDC2, nothing on DDC3. */
    b = bus(s, 1);
    g_assert_false(read_edid(&b, 0, 0, buf, 8));
    b = bus(s, 2);
    g_assert_false(read_edid(&b, 0, 0, buf, 8));
    test_host_free(h);
}

/* Open drain: low if either side pulls; without MASK the host does not. */
static void test_wires(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t edid[128];
    Bus b;

    fake_edid(edid, sizeof(edid));
    r500_disp_set_edid(s, 0, edid, sizeof(edid));
    b = bus(s, 0);
    g_assert_cmphex(r500_reg_read(s, b.y) & (SCL | SDA), ==, SCL | SDA);
    set_line(&b, SCL, 0);
    g_assert_cmphex(r500_reg_read(s, b.y) & (SCL | SDA), ==, SDA);
    /* A set A bit drives high even with EN set. */
    r500_reg_write(s, b.a, SCL);
    g_assert_cmphex(r500_reg_read(s, b.y) & SCL, ==, SCL);
    r500_reg_write(s, b.a, 0);
    /* post_xfer: MASK cleared, the pins float high. */
    r500_reg_write(s, b.mask, 0);
    g_assert_cmphex(r500_reg_read(s, b.y) & (SCL | SDA), ==, SCL | SDA);
    b = bus(s, 0);
    set_line(&b, SCL, 1);
    /* The slave acknowledging holds SDA low against a released host. */
    i2c_start(&b);
    for (int i = 7; i >= 0; i--) {
        set_line(&b, SDA, (0xA0 >> i) & 1);
        scl_hi(&b);
        set_line(&b, SCL, 0);
    }
    set_line(&b, SDA, 1);
    g_assert_false(get_line(&b, SDA));
    scl_hi(&b);
    g_assert_false(get_line(&b, SDA));
    set_line(&b, SCL, 0);
    g_assert_true(get_line(&b, SDA));
    /* Y is read-only. */
    r500_reg_write(s, b.y, 0);
    g_assert_true(get_line(&b, SDA));
    i2c_stop(&b);
    test_host_free(h);
}

static void test_hpd(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;
    uint8_t edid[128];

    /* No monitor: no sense, no load. */
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT1_INT_STATUS), ==, 0);
    g_assert_cmphex(r500_reg_read(s, R_DACA_COMPARATOR_OUTPUT), ==, 0);
    fake_edid(edid, sizeof(edid));
    r500_disp_set_edid(s, 0, edid, sizeof(edid));
    r500_disp_set_edid(s, 1, edid, sizeof(edid));
    /* DAC_LoadDetection: bits 3:1 on the VGA DAC, nothing on DAC B. */
    g_assert_cmphex(r500_reg_read(s, R_DACA_COMPARATOR_OUTPUT), ==, 0x0E);
    g_assert_cmphex(r500_reg_read(s, R_DACB_COMPARATOR_OUTPUT), ==, 0);
    /* HPD1 senses the DVI monitor; HPD2 has none. */
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT1_INT_STATUS), ==, 2);
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT2_INT_STATUS), ==, 0);
    /* rs600_hpd_init while connected: polarity "disconnected", no event. */
    r500_reg_write(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL, 1u << 16);
    r500_reg_write(s, R_DC_HOT_PLUG_DETECT1_CONTROL, 1);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_DISP_INTERRUPT_STATUS), ==, 0);
    /* Polarity "connected" while connected: the interrupt fires. */
    r500_reg_write(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL, 1u << 16 | 1u << 8);
    g_assert_true(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT1_INT_STATUS), ==, 3);
    g_assert_cmphex(r500_reg_read(s, R_DISP_INTERRUPT_STATUS), ==, 1u << 18);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS) & 1, ==, 1);
    /* rs600_irq_ack: INT_ACK. */
    r500_reg_write(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL,
                   1u << 16 | 1u << 8 | 1);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT1_INT_STATUS), ==, 2);
    g_assert_cmphex(r500_reg_read(s, R_DC_HOT_PLUG_DETECT1_INT_CONTROL), ==,
                    1u << 16 | 1u << 8);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ddc/edid-read", test_edid_read);
    g_test_add_func("/ddc/nack", test_nack);
    g_test_add_func("/ddc/wires", test_wires);
    g_test_add_func("/ddc/hpd", test_hpd);
    return g_test_run();
}
