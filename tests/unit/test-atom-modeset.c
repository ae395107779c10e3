/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The built AtomBIOS run against the chip core the way Linux radeon runs
 * it on an R500: ASIC_Init, then mode sets in the DRM helper order of
 * ../shared/reference/atombios-rom.md 3.4 with the parameter blocks
 * atombios_crtc.c / atombios_encoders.c build (dividers from the same
 * search as radeon_compute_pll_avivo), DPMS, CRTC and encoder disable,
 * load detection, clocks; then the register state the tables leave.
 */
#include <string.h>

#include "atom-chip.h"

/*
 * What the display block derives from the registers the tables wrote:
 * whether CRTC crtc scans out natively, its visible size and pixel clock.
 */
static bool scanout(AtomChip *c, unsigned crtc, unsigned *width,
                    unsigned *height, unsigned *pixel_clock_khz)
{
    R500Scanout so;

    r500_disp_scanout(c->s, crtc, &so);
    *width = so.width;
    *height = so.height;
    *pixel_clock_khz = c->s->disp.timing[crtc].khz;
    return so.kind == R500_SCANOUT_NATIVE;
}

/* ATOM ABI values (atombios.h). */
enum {
    DEVICE_CRT1_INDEX = 0, DEVICE_DFP1_INDEX = 3, DEVICE_CRT2_INDEX = 4,
    DEVICE_CRT1 = 0x0001, DEVICE_TV1 = 0x0004, DEVICE_CRT2 = 0x0010,
    S0_CRT1_COLOR = 0x2, S0_CRT1_MASK = 0x3, S0_CRT2_COLOR = 0x200,
    S0_CRT2_MASK = 0x300, S0_TV1_ALL = 0x4C0C,
    HSYNC_POLARITY = 0x02, VSYNC_POLARITY = 0x04,
    DAC1_PS2 = 1, PANEL_MISC_888RGB = 0x02, SCALER_DISABLE = 0,
    MODE_CENTER_NONE = 2,
};

typedef enum Output { OUT_VGA, OUT_DVI } Output;

/* A DRM mode: kHz and the crtc_* timings (no borders). */
typedef struct Mode {
    const char *name;
    unsigned clock;
    unsigned hdisplay, hsync_start, hsync_end, htotal;
    unsigned vdisplay, vsync_start, vsync_end, vtotal;
    bool nhsync, nvsync;
} Mode;

/* VESA DMT timings. */
static const Mode mode_1024x768 = {
    "1024x768@60", 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806,
    true, true,
};
static const Mode mode_800x600 = {
    "800x600@60", 40000, 800, 840, 968, 1056, 600, 601, 605, 628,
    false, false,
};

typedef union Params {
    uint32_t d[16];
    uint8_t b[64];
} Params;

static void put16(Params *p, unsigned off, unsigned v)
{
    p->b[off] = v;
    p->b[off + 1] = v >> 8;
}

static uint32_t rom16(AtomChip *c, uint32_t off)
{
    return c->rom[off] | c->rom[off + 1] << 8;
}

static uint32_t rom32(AtomChip *c, uint32_t off)
{
    return rom16(c, off) | rom16(c, off + 2) << 16;
}

static uint32_t reg(AtomChip *c, uint32_t off)
{
    return r500_reg_read(c->s, off);
}

/* ---- radeon_compute_pll_avivo (Linux 6.1), as a fact of the driver ---- */

typedef struct Pll {
    unsigned ref, fb, post;
} Pll;

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void reduce_ratio(unsigned *nom, unsigned *den, unsigned nom_min,
                         unsigned den_min)
{
    unsigned tmp = gcd_u(*nom, *den);

    *nom /= tmp;
    *den /= tmp;
    if (*nom < nom_min) {
        tmp = (nom_min + *nom - 1) / *nom;
        *nom *= tmp;
        *den *= tmp;
    }
    if (*den < den_min) {
        tmp = (den_min + *den - 1) / *den;
        *nom *= tmp;
        *den *= tmp;
    }
}

static void get_fb_ref_div(unsigned nom, unsigned den, unsigned post,
                           unsigned fb_max, unsigned ref_max, unsigned *fb,
                           unsigned *ref)
{
    ref_max = MAX(MIN(100 / post, ref_max), 1u);
    *ref = MIN(MAX(den / post, 1u), ref_max);
    *fb = (nom * *ref * post + den / 2) / den;
    if (*fb > fb_max) {
        *ref = (*ref * fb_max) / *fb;
        *fb = fb_max;
    }
}

/* R500 flags: PREFER_LOW_REF_DIV | PREFER_MINM_OVER_MAXP; VCO limits and
 * reference from FirmwareInfo; dividers 2..0x7F post, 2..7 ref, 4..0x7FF fb. */
static Pll compute_pll(AtomChip *c, unsigned khz)
{
    uint32_t fw = atom_data_offset(&c->atom, ATOM_DATA_FIRMWARE_INFO);
    unsigned target = khz / 10, ref_freq = rom16(c, fw + 0x52);
    unsigned vco_min = rom32(c, fw + 0x38), vco_max = rom32(c, fw + 0x20);
    unsigned post_min, post_max, post, best, diff_best = ~0u, nom, den;
    Pll p;

    post_min = vco_min / target;
    if (target * post_min < vco_min) {
        post_min++;
    }
    post_min = MAX(post_min, 2u);
    post_max = vco_max / target;
    if (target * post_max > vco_max) {
        post_max--;
    }
    post_max = MIN(post_max, 0x7Fu);
    nom = target;
    den = ref_freq;
    reduce_ratio(&nom, &den, 4, post_min);
    best = post_min;
    for (post = post_min; post <= post_max; post++) {
        unsigned fb, ref, diff, got;

        get_fb_ref_div(nom, den, post, 0x7FF, 7, &fb, &ref);
        got = ref_freq * fb / (ref * post);
        diff = got > target ? got - target : target - got;
        if (diff < diff_best) {
            best = post;
            diff_best = diff;
        }
    }
    p.post = best;
    get_fb_ref_div(nom, den, best, 0x7FF, 7, &p.fb, &p.ref);
    reduce_ratio(&p.fb, &p.ref, 4, 2);
    return p;
}

/* ---- The tables, with the parameter blocks radeon builds ---- */

static void crtc_byte_table(AtomChip *c, unsigned table, unsigned crtc,
                            unsigned arg)
{
    Params p = { { 0 } };

    p.b[0] = crtc;
    p.b[1] = arg;
    atom_chip_exec(c, table, &p, 4);
}

static void select_crtc_source(AtomChip *c, unsigned crtc, unsigned device)
{
    crtc_byte_table(c, ATOM_CMD_SELECT_CRTC_SOURCE, crtc, device);
}

static void blank_crtc(AtomChip *c, unsigned crtc, unsigned blank)
{
    Params p = { { 0 } };

    p.b[0] = crtc;
    p.b[1] = blank;
    atom_chip_exec(c, ATOM_CMD_BLANK_CRTC, &p, 8);
}

static void set_pixel_clock(AtomChip *c, unsigned crtc, unsigned khz,
                            const Pll *d)
{
    Params p = { { 0 } };

    put16(&p, 0, khz / 10);
    if (d) {
        put16(&p, 2, d->ref);
        put16(&p, 4, d->fb);
        p.b[6] = d->post;
    }
    p.b[8] = crtc;              /* on R500 the PLL is the CRTC's index */
    p.b[9] = 1;
    p.b[10] = crtc;
    atom_chip_exec(c, ATOM_CMD_SET_PIXEL_CLOCK, &p, 20);
}

static void set_dtd_timing(AtomChip *c, unsigned crtc, const Mode *m)
{
    Params p = { { 0 } };

    put16(&p, 0, m->hdisplay);
    put16(&p, 2, m->htotal - m->hdisplay);
    put16(&p, 4, m->vdisplay);
    put16(&p, 6, m->vtotal - m->vdisplay);
    put16(&p, 8, m->hsync_start - m->hdisplay);
    put16(&p, 10, m->hsync_end - m->hsync_start);
    put16(&p, 12, m->vsync_start - m->vdisplay);
    put16(&p, 14, m->vsync_end - m->vsync_start);
    put16(&p, 16, (m->nhsync ? HSYNC_POLARITY : 0) |
                  (m->nvsync ? VSYNC_POLARITY : 0));
    p.b[20] = crtc;
    atom_chip_exec(c, ATOM_CMD_SET_CRTC_DTD_TIMING, &p, 24);
}

static void set_overscan(AtomChip *c, unsigned crtc)
{
    Params p = { { 0 } };

    p.b[8] = crtc;
    atom_chip_exec(c, ATOM_CMD_SET_CRTC_OVERSCAN, &p, 12);
}

static void output_control(AtomChip *c, Output out, unsigned on)
{
    Params p = { { 0 } };

    p.b[0] = on;
    atom_chip_exec(c, out == OUT_VGA ? ATOM_CMD_DAC1_OUTPUT_CONTROL :
                   ATOM_CMD_TMDSA_OUTPUT_CONTROL, &p, 4);
}

static void encoder_control(AtomChip *c, Output out, unsigned khz,
                            unsigned on)
{
    Params p = { { 0 } };

    put16(&p, 0, khz / 10);
    if (out == OUT_VGA) {
        p.b[2] = DAC1_PS2;
        p.b[3] = on;
        atom_chip_exec(c, ATOM_CMD_DAC1_ENCODER_CONTROL, &p, 4);
    } else {
        p.b[2] = PANEL_MISC_888RGB;
        p.b[3] = on;
        atom_chip_exec(c, ATOM_CMD_TMDSA_ENCODER_CONTROL, &p, 8);
    }
}

/* What avivo_crtc_do_set_base writes itself: a 32 bpp surface. */
static void set_base(AtomChip *c, unsigned crtc, const Mode *m)
{
    uint32_t o = crtc ? R500_CRTC2_OFFSET : 0;

    r500_mmio_write(c->s, crtc ? R_D2VGA_CONTROL : R_D1VGA_CONTROL, 0, 4);
    r500_mmio_write(c->s, R_D1GRPH_PRIMARY_SURFACE_ADDRESS + o, 0, 4);
    r500_mmio_write(c->s, R_D1GRPH_SECONDARY_SURFACE_ADDRESS + o, 0, 4);
    r500_mmio_write(c->s, R_D1GRPH_CONTROL + o, 2, 4);     /* 32 bpp ARGB */
    r500_mmio_write(c->s, R_D1GRPH_X_END + o, m->hdisplay, 4);
    r500_mmio_write(c->s, R_D1GRPH_Y_END + o, m->vdisplay, 4);
    r500_mmio_write(c->s, R_D1GRPH_PITCH + o, m->hdisplay, 4);
    r500_mmio_write(c->s, R_D1GRPH_ENABLE + o, 1, 4);
    r500_mmio_write(c->s, R_D1MODE_DESKTOP_HEIGHT + o, m->vdisplay, 4);
    r500_mmio_write(c->s, R_D1MODE_VIEWPORT_START + o, 0, 4);
    r500_mmio_write(c->s, R_D1MODE_VIEWPORT_SIZE + o,
                    m->hdisplay << 16 | ((m->vdisplay + 1) & ~1u), 4);
}

/* The DRM helper mode set: encoder prepare, CRTC prepare, CRTC mode set,
 * encoder mode set, CRTC commit, encoder commit. */
static Pll modeset(AtomChip *c, unsigned crtc, Output out, const Mode *m,
                   bool crtc_was_on)
{
    Pll d = compute_pll(c, m->clock);

    select_crtc_source(c, crtc, out == OUT_VGA ? DEVICE_CRT1_INDEX :
                       DEVICE_DFP1_INDEX);
    crtc_byte_table(c, ATOM_CMD_UPDATE_CRTC_DOUBLE_BUFFER, crtc, 1);
    if (crtc_was_on) {
        blank_crtc(c, crtc, 1);
    }
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, crtc, 0);
    set_pixel_clock(c, crtc, m->clock, &d);
    set_dtd_timing(c, crtc, m);
    set_base(c, crtc, m);
    set_overscan(c, crtc);
    crtc_byte_table(c, ATOM_CMD_ENABLE_SCALER, crtc, SCALER_DISABLE);
    output_control(c, out, 0);
    crtc_byte_table(c, ATOM_CMD_ENABLE_YUV, 0, crtc);   /* ucEnable, ucCRTC */
    encoder_control(c, out, m->clock, 1);
    r500_mmio_write(c->s, R_D1MODE_DATA_FORMAT +
                    (crtc ? R500_CRTC2_OFFSET : 0), 0, 4);
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, crtc, 1);
    blank_crtc(c, crtc, 0);
    crtc_byte_table(c, ATOM_CMD_UPDATE_CRTC_DOUBLE_BUFFER, crtc, 0);
    output_control(c, out, 1);
    return d;
}

/* ---- Expected state ---- */

/* Pixel clock in 10 kHz of the PLL a CRTC takes, from the registers. */
static unsigned pll_clock(AtomChip *c, unsigned pll)
{
    uint32_t ref = R500_FGET(reg(c, pll ? R_EXT2_PPLL_REF_DIV :
                                 R_EXT1_PPLL_REF_DIV), EXT1_PPLL_REF_DIV,
                             REF_DIV);
    uint32_t fb = R500_FGET(reg(c, pll ? R_EXT2_PPLL_FB_DIV :
                                R_EXT1_PPLL_FB_DIV), EXT1_PPLL_FB_DIV, FB_DIV);
    uint32_t post = R500_FGET(reg(c, pll ? R_EXT2_PPLL_POST_DIV :
                                  R_EXT1_PPLL_POST_DIV), EXT1_PPLL_POST_DIV,
                              POST_DIV);

    g_assert_cmpuint(ref * post, !=, 0);
    return 2700 * fb / (ref * post);
}

static void check_crtc(AtomChip *c, unsigned crtc, const Mode *m,
                       const Pll *d)
{
    uint32_t o = crtc ? R500_CRTC2_OFFSET : 0;
    uint32_t hbe = m->htotal - m->hsync_start, vbe = m->vtotal - m->vsync_start;
    uint32_t ctl = reg(c, R_D1CRTC_CONTROL + o);
    uint32_t pll_cntl = reg(c, crtc ? R_P2PLL_CNTL : R_P1PLL_CNTL);
    unsigned clk;

    /* Timing counted from the sync start (docs/atombios.md). */
    g_assert_cmphex(reg(c, R_D1CRTC_H_TOTAL + o), ==, m->htotal - 1);
    g_assert_cmphex(reg(c, R_D1CRTC_H_BLANK_START_END + o), ==,
                    hbe << 16 | (hbe + m->hdisplay));
    g_assert_cmphex(reg(c, R_D1CRTC_H_SYNC_A + o), ==,
                    (m->hsync_end - m->hsync_start) << 16);
    g_assert_cmphex(reg(c, R_D1CRTC_V_TOTAL + o), ==, m->vtotal - 1);
    g_assert_cmphex(reg(c, R_D1CRTC_V_BLANK_START_END + o), ==,
                    vbe << 16 | (vbe + m->vdisplay));
    g_assert_cmphex(reg(c, R_D1CRTC_V_SYNC_A + o), ==,
                    (m->vsync_end - m->vsync_start) << 16);
    g_assert_cmpuint(reg(c, R_D1CRTC_H_SYNC_A_CNTL + o), ==, m->nhsync);
    g_assert_cmpuint(reg(c, R_D1CRTC_V_SYNC_A_CNTL + o), ==, m->nvsync);
    g_assert_cmpuint(reg(c, R_D1CRTC_INTERLACE_CONTROL + o), ==, 0);
    g_assert_cmpuint(reg(c, R_D1MODE_EXT_OVERSCAN_LEFT_RIGHT + o), ==, 0);
    g_assert_cmpuint(reg(c, R_D1MODE_EXT_OVERSCAN_TOP_BOTTOM + o), ==, 0);
    g_assert_cmpuint(reg(c, R_D1SCL_SCALER_ENABLE + o), ==, 0);
    g_assert_cmpuint(reg(c, R_D1MODE_CENTER + o), ==, MODE_CENTER_NONE);
    /* Running, fetching, not blanked, not locked. */
    g_assert_cmpuint(R500_FGET(ctl, D1CRTC_CONTROL, CRTC_EN), ==, 1);
    g_assert_cmpuint(R500_FGET(ctl, D1CRTC_CONTROL, DISP_READ_REQUEST_DISABLE),
                     ==, 0);
    g_assert_cmpuint(R500_FGET(reg(c, R_D1CRTC_BLANK_CONTROL + o),
                               D1CRTC_BLANK_CONTROL, BLANK_DATA_EN), ==, 0);
    g_assert_cmpuint(reg(c, R_D1CRTC_BLACK_COLOR + o), ==, 0);
    g_assert_cmpuint(reg(c, R_D1CRTC_UPDATE_LOCK + o), ==, 0);
    /* The CRTC's PLL (PLL n for CRTC n) runs on radeon's dividers. */
    g_assert_cmpuint(R500_FGET(reg(c, crtc ? R_EXT2_PPLL_REF_DIV :
                                   R_EXT1_PPLL_REF_DIV), EXT1_PPLL_REF_DIV,
                               REF_DIV), ==, d->ref);
    g_assert_cmpuint(reg(c, crtc ? R_EXT2_PPLL_FB_DIV : R_EXT1_PPLL_FB_DIV),
                     ==, d->fb << 16);
    g_assert_cmpuint(reg(c, crtc ? R_EXT2_PPLL_POST_DIV : R_EXT1_PPLL_POST_DIV),
                     ==, d->post);
    g_assert_cmpuint(pll_cntl & (R500_FMASK(P1PLL_CNTL, RESET) |
                                 R500_FMASK(P1PLL_CNTL, POWER_DOWN)), ==, 0);
    g_assert_cmpuint(reg(c, crtc ? R_EXT2_PPLL_POST_DIV_SRC :
                         R_EXT1_PPLL_POST_DIV_SRC), ==, 1);
    g_assert_cmpuint(reg(c, crtc ? R_EXT2_PPLL_UPDATE_LOCK :
                         R_EXT1_PPLL_UPDATE_LOCK), ==, 0);
    g_assert_cmpuint(R500_FGET(reg(c, crtc ? R_PCLK_CRTC2_CNTL :
                                   R_PCLK_CRTC1_CNTL), PCLK_CRTC1_CNTL,
                               PLL_SEL), ==, crtc);
    clk = pll_clock(c, crtc) * 10;
    g_assert_cmpuint(clk, >=, m->clock * 995 / 1000);
    g_assert_cmpuint(clk, <=, m->clock * 1005 / 1000);
}

static void check_output(AtomChip *c, Output out, unsigned crtc)
{
    if (out == OUT_VGA) {
        g_assert_cmpuint(R500_FGET(reg(c, R_DACA_SOURCE_SELECT),
                                   DACA_SOURCE_SELECT, SOURCE), ==, crtc);
        g_assert_cmpuint(reg(c, R_DACA_ENABLE), ==, 1);
        g_assert_cmpuint(reg(c, R_DACA_POWERDOWN), ==, 0);
        g_assert_cmpuint(reg(c, R_DACA_FORCE_OUTPUT_CNTL), ==, 0);
    } else {
        uint32_t cntl = reg(c, R_TMDSA_CNTL), tx = reg(c,
                                                        R_TMDSA_TRANSMITTER_ENABLE);

        g_assert_cmpuint(R500_FGET(reg(c, R_TMDSA_SOURCE_SELECT),
                                   TMDSA_SOURCE_SELECT, SOURCE), ==, crtc);
        g_assert_cmpuint(R500_FGET(cntl, TMDSA_CNTL, ENABLE), ==, 1);
        g_assert_cmpuint(R500_FGET(cntl, TMDSA_CNTL, DUAL_LINK_ENABLE), ==, 0);
        g_assert_cmphex(R500_FGET(tx, TMDSA_TRANSMITTER_ENABLE, LINK0), ==,
                        0x1F);
        g_assert_cmphex(R500_FGET(tx, TMDSA_TRANSMITTER_ENABLE, LINK1), ==, 0);
        g_assert_cmpuint(R500_FGET(reg(c, R_TMDSA_TRANSMITTER_CONTROL),
                                   TMDSA_TRANSMITTER_CONTROL, PLL_ENABLE),
                         ==, 1);
    }
}

/* Every access hit a register r500_regs.def names. */
static void check_no_unknown(AtomChip *c)
{
    g_assert_cmpuint(test_host_count_logs(c->h, "unknown register"), ==, 0);
    g_assert_cmpuint(c->s->guest_errors, ==, 0);
}

static AtomChip *posted_chip(gconstpointer data)
{
    AtomChip *c = atom_chip_new(GPOINTER_TO_INT(data), 128);
    uint32_t fw;
    Params p = { { 0 } };

    if (!c) {
        return NULL;
    }
    /* atom_asic_init(): the FirmwareInfo clocks in a 64-byte buffer. */
    fw = atom_data_offset(&c->atom, ATOM_DATA_FIRMWARE_INFO);
    p.d[0] = GUINT32_TO_LE(rom32(c, fw + 0x08));
    p.d[1] = GUINT32_TO_LE(rom32(c, fw + 0x0C));
    atom_chip_exec(c, ATOM_CMD_ASIC_INIT, &p, 64);
    return c;
}

/* ---- Scenarios ---- */

static uint32_t get_clock(AtomChip *c, unsigned table)
{
    Params p = { { 0 } };

    atom_chip_exec(c, table, &p, 4);
    return GUINT32_FROM_LE(p.d[0]);
}

static void test_asic_init(gconstpointer data)
{
    AtomChip *c = atom_chip_new(GPOINTER_TO_INT(data), 64);
    uint32_t fw, sclk, mclk;
    Params p = { { 0 } };

    if (!c) {
        return;
    }
    fw = atom_data_offset(&c->atom, ATOM_DATA_FIRMWARE_INFO);
    sclk = rom32(c, fw + 0x08);
    mclk = rom32(c, fw + 0x0C);
    /* A cold card: ASIC_Init sizes memory from the MC's FB range. */
    r500_reg_write(c->s, R_CONFIG_MEMSIZE, 0);
    p.d[0] = GUINT32_TO_LE(sclk);
    p.d[1] = GUINT32_TO_LE(mclk);
    atom_chip_exec(c, ATOM_CMD_ASIC_INIT, &p, 64);
    g_assert_cmphex(reg(c, R_CONFIG_MEMSIZE), ==, 64u << 20);
    /* Nested SetEngineClock/SetMemoryClock took the defaults. */
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_ENGINE_CLOCK), ==, sclk);
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_MEMORY_CLOCK), ==, mclk);
    /* SetEngineClock keeps bits 23:0 (31:24 are flags). */
    p.d[0] = GUINT32_TO_LE(0x01000000 | 30000);
    atom_chip_exec(c, ATOM_CMD_SET_ENGINE_CLOCK, &p, 12);
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_ENGINE_CLOCK), ==, 30000);
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_MEMORY_CLOCK), ==, mclk);
    check_no_unknown(c);
    atom_chip_free(c);
}

/* The clocks before anything was set: FirmwareInfo's defaults. */
static void test_clock_defaults(gconstpointer data)
{
    AtomChip *c = atom_chip_new(GPOINTER_TO_INT(data), 64);
    uint32_t fw;

    if (!c) {
        return;
    }
    fw = atom_data_offset(&c->atom, ATOM_DATA_FIRMWARE_INFO);
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_ENGINE_CLOCK), ==,
                     rom32(c, fw + 0x08));
    g_assert_cmpuint(get_clock(c, ATOM_CMD_GET_MEMORY_CLOCK), ==,
                     rom32(c, fw + 0x0C));
    atom_chip_free(c);
}

static void test_vga_1024x768_crtc0(gconstpointer data)
{
    AtomChip *c = posted_chip(data);
    Pll d;

    if (!c) {
        return;
    }
    d = modeset(c, 0, OUT_VGA, &mode_1024x768, false);
    /* radeon's dividers for 65 MHz from a 27 MHz crystal. */
    g_assert_cmpuint(d.ref, ==, 2);
    g_assert_cmpuint(d.fb, ==, 53);
    g_assert_cmpuint(d.post, ==, 11);
    /* The check values of atombios-rom.md 5.3 for this mode. */
    g_assert_cmphex(reg(c, R_D1CRTC_H_TOTAL), ==, 0x53F);
    g_assert_cmphex(reg(c, R_D1CRTC_H_BLANK_START_END), ==, 0x01280528);
    g_assert_cmphex(reg(c, R_D1CRTC_H_SYNC_A), ==, 0x00880000);
    g_assert_cmphex(reg(c, R_D1CRTC_V_TOTAL), ==, 0x325);
    g_assert_cmphex(reg(c, R_D1CRTC_V_BLANK_START_END), ==, 0x00230323);
    g_assert_cmphex(reg(c, R_D1CRTC_V_SYNC_A), ==, 0x00060000);
    check_crtc(c, 0, &mode_1024x768, &d);
    check_output(c, OUT_VGA, 0);
    /* CRTC 1, its PLL and the DVI output are untouched. */
    g_assert_cmpuint(reg(c, R_D2CRTC_H_TOTAL), ==, 0);
    g_assert_cmpuint(reg(c, R_D2CRTC_CONTROL), ==, 0);
    g_assert_cmpuint(reg(c, R_EXT2_PPLL_FB_DIV), ==, 0);
    g_assert_cmpuint(reg(c, R_TMDSA_CNTL), ==, 0);
    check_no_unknown(c);
    atom_chip_free(c);
}

static void test_dvi_800x600_crtc1(gconstpointer data)
{
    AtomChip *c = posted_chip(data);
    Pll d;

    if (!c) {
        return;
    }
    d = modeset(c, 1, OUT_DVI, &mode_800x600, false);
    g_assert_cmpuint(d.ref, ==, 2);
    g_assert_cmpuint(d.fb, ==, 80);
    g_assert_cmpuint(d.post, ==, 27);
    check_crtc(c, 1, &mode_800x600, &d);
    check_output(c, OUT_DVI, 1);
    g_assert_cmpuint(reg(c, R_D1CRTC_H_TOTAL), ==, 0);
    g_assert_cmpuint(reg(c, R_D1CRTC_CONTROL), ==, 0);
    g_assert_cmpuint(reg(c, R_DACA_ENABLE), ==, 0);
    check_no_unknown(c);
    atom_chip_free(c);
}

/* Both heads, each mode on each CRTC: a second head leaves the first one
 * alone, and a mode set on a running CRTC blanks it first. */
static void test_dual_head(gconstpointer data)
{
    AtomChip *c = posted_chip(data);
    Pll d0, d1;

    if (!c) {
        return;
    }
    d0 = modeset(c, 0, OUT_VGA, &mode_800x600, false);
    d1 = modeset(c, 1, OUT_DVI, &mode_1024x768, false);
    check_crtc(c, 0, &mode_800x600, &d0);
    check_crtc(c, 1, &mode_1024x768, &d1);
    check_output(c, OUT_VGA, 0);
    check_output(c, OUT_DVI, 1);
    d0 = modeset(c, 0, OUT_VGA, &mode_1024x768, true);
    check_crtc(c, 0, &mode_1024x768, &d0);
    check_crtc(c, 1, &mode_1024x768, &d1);
    check_no_unknown(c);
    atom_chip_free(c);
}

/* DPMS off and on, then CRTC and encoder disable (3.4). */
static void test_dpms_disable(gconstpointer data)
{
    AtomChip *c = posted_chip(data);
    uint32_t off = R500_FMASK(DACA_POWERDOWN, POWERDOWN) |
                   R500_FMASK(DACA_POWERDOWN, BLUE) |
                   R500_FMASK(DACA_POWERDOWN, GREEN) |
                   R500_FMASK(DACA_POWERDOWN, RED);
    uint64_t delay;
    Pll d;

    if (!c) {
        return;
    }
    d = modeset(c, 0, OUT_VGA, &mode_1024x768, false);
    /* Encoder DPMS off, then CRTC DPMS off (blank, stop). */
    output_control(c, OUT_VGA, 0);
    g_assert_cmphex(reg(c, R_DACA_POWERDOWN), ==, off);
    blank_crtc(c, 0, 1);
    g_assert_cmpuint(R500_FGET(reg(c, R_D1CRTC_BLANK_CONTROL),
                               D1CRTC_BLANK_CONTROL, BLANK_DATA_EN), ==, 1);
    delay = c->atom.stats.delay_us;
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, 0, 0);
    g_assert_cmpuint(R500_FGET(reg(c, R_D1CRTC_CONTROL), D1CRTC_CONTROL,
                               CRTC_EN), ==, 0);
    /* The wait for vertical blank ends within a 50 Hz frame even if the
     * chip never reports one. */
    g_assert_cmpuint(c->atom.stats.delay_us - delay, <=, 20000);
    /* DPMS on again. */
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, 0, 1);
    blank_crtc(c, 0, 0);
    output_control(c, OUT_VGA, 1);
    check_crtc(c, 0, &mode_1024x768, &d);
    check_output(c, OUT_VGA, 0);
    /* CRTC disable: DPMS off, then SetPixelClock with clock 0. */
    blank_crtc(c, 0, 1);
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, 0, 0);
    set_pixel_clock(c, 0, 0, NULL);
    g_assert_cmphex(reg(c, R_P1PLL_CNTL) & (R500_FMASK(P1PLL_CNTL, RESET) |
                                            R500_FMASK(P1PLL_CNTL, POWER_DOWN)),
                    ==, R500_FMASK(P1PLL_CNTL, RESET) |
                        R500_FMASK(P1PLL_CNTL, POWER_DOWN));
    /* Encoder disable: output off, then encoder off. */
    output_control(c, OUT_VGA, 0);
    encoder_control(c, OUT_VGA, 0, 0);
    g_assert_cmpuint(reg(c, R_DACA_ENABLE), ==, 0);
    /* The same on the DVI side. */
    modeset(c, 1, OUT_DVI, &mode_800x600, false);
    output_control(c, OUT_DVI, 0);
    g_assert_cmphex(reg(c, R_TMDSA_TRANSMITTER_ENABLE), ==, 0);
    g_assert_cmpuint(reg(c, R_TMDSA_TRANSMITTER_CONTROL), ==, 0);
    encoder_control(c, OUT_DVI, 0, 0);
    g_assert_cmpuint(R500_FGET(reg(c, R_TMDSA_CNTL), TMDSA_CNTL, ENABLE), ==,
                     0);
    check_no_unknown(c);
    atom_chip_free(c);
}

static uint32_t load_detect(AtomChip *c, unsigned device, unsigned dac)
{
    Params p = { { 0 } };

    put16(&p, 0, device);
    p.b[2] = dac;
    atom_chip_exec(c, ATOM_CMD_DAC_LOAD_DETECTION, &p, 12);
    return reg(c, R_BIOS_SCRATCH);
}

/* atombios_dac_load_detect() and the BIOS_0_SCRATCH bits radeon reads. */
static void test_load_detection(gconstpointer data)
{
    AtomChip *c = posted_chip(data);
    uint32_t before[6], after[6];
    Pll d;
    const uint32_t saved[6] = {
        R_DACA_ENABLE, R_DACA_POWERDOWN, R_DACA_FORCE_OUTPUT_CNTL,
        R_DACA_FORCE_DATA, R_DACA_COMPARATOR_ENABLE, R_DACA_SOURCE_SELECT,
    };

    if (!c) {
        return;
    }
    c->inject_sense = true;
    modeset(c, 0, OUT_VGA, &mode_1024x768, false);
    for (int i = 0; i < 6; i++) {
        before[i] = reg(c, saved[i]);
    }
    c->monitor[0] = true;
    r500_reg_write(c->s, R_BIOS_SCRATCH, 0xF0000000);
    g_assert_cmphex(load_detect(c, DEVICE_CRT1, 0), ==,
                    0xF0000000 | S0_CRT1_COLOR);
    /* The sense sequence puts the DAC back as it found it. */
    for (int i = 0; i < 6; i++) {
        after[i] = reg(c, saved[i]);
        g_assert_cmphex(after[i], ==, before[i]);
    }
    c->monitor[0] = false;
    r500_reg_write(c->s, R_BIOS_SCRATCH, S0_CRT1_MASK | S0_CRT2_MASK);
    g_assert_cmphex(load_detect(c, DEVICE_CRT1, 0), ==, S0_CRT2_MASK);
    /* DAC B (CRT2): its own byte. */
    c->monitor[1] = true;
    g_assert_cmphex(load_detect(c, DEVICE_CRT2, 1), ==, S0_CRT2_COLOR);
    c->monitor[1] = false;
    g_assert_cmphex(load_detect(c, DEVICE_CRT2, 1), ==, 0);
    /* No TV encoder on the board: TV is never attached. */
    c->monitor[1] = true;
    r500_reg_write(c->s, R_BIOS_SCRATCH, S0_TV1_ALL);
    g_assert_cmphex(load_detect(c, DEVICE_TV1, 1), ==, 0);
    d = compute_pll(c, mode_1024x768.clock);
    check_crtc(c, 0, &mode_1024x768, &d);
    check_no_unknown(c);
    atom_chip_free(c);
}

/* Scanout follows the mode set: what the display block derives. */
static void test_scanout(gconstpointer data)
{
    AtomChip *c;
    unsigned w, h, khz;

    c = posted_chip(data);
    if (!c) {
        return;
    }
    g_assert_false(scanout(c, 0, &w, &h, &khz));
    modeset(c, 0, OUT_VGA, &mode_1024x768, false);
    modeset(c, 1, OUT_DVI, &mode_800x600, false);
    g_assert_true(scanout(c, 0, &w, &h, &khz));
    g_assert_cmpuint(w, ==, 1024);
    g_assert_cmpuint(h, ==, 768);
    g_assert_cmpuint(khz, >=, 64500);
    g_assert_cmpuint(khz, <=, 65500);
    g_assert_true(scanout(c, 1, &w, &h, &khz));
    g_assert_cmpuint(w, ==, 800);
    g_assert_cmpuint(h, ==, 600);
    /* DPMS off on the VGA output: CRTC 0 is no longer shown. */
    output_control(c, OUT_VGA, 0);
    blank_crtc(c, 0, 1);
    crtc_byte_table(c, ATOM_CMD_ENABLE_CRTC, 0, 0);
    g_assert_false(scanout(c, 0, &w, &h, &khz));
    atom_chip_free(c);
}

/* Random parameter blocks inside what radeon passes: every table ends,
 * within the budget, touching only registers the model names. */
static void test_fuzz(gconstpointer data)
{
    static const struct {
        unsigned table, size;
    } tables[] = {
        { ATOM_CMD_ASIC_INIT, 64 }, { ATOM_CMD_SET_PIXEL_CLOCK, 20 },
        { ATOM_CMD_SET_CRTC_DTD_TIMING, 24 }, { ATOM_CMD_SET_CRTC_TIMING, 24 },
        { ATOM_CMD_SET_CRTC_OVERSCAN, 12 }, { ATOM_CMD_ENABLE_SCALER, 4 },
        { ATOM_CMD_UPDATE_CRTC_DOUBLE_BUFFER, 4 }, { ATOM_CMD_ENABLE_CRTC, 4 },
        { ATOM_CMD_ENABLE_CRTC_MEM_REQ, 4 }, { ATOM_CMD_BLANK_CRTC, 8 },
        { ATOM_CMD_SELECT_CRTC_SOURCE, 4 },
        { ATOM_CMD_DAC1_ENCODER_CONTROL, 4 },
        { ATOM_CMD_DAC2_ENCODER_CONTROL, 4 },
        { ATOM_CMD_DAC1_OUTPUT_CONTROL, 4 },
        { ATOM_CMD_DAC2_OUTPUT_CONTROL, 4 },
        { ATOM_CMD_TMDSA_ENCODER_CONTROL, 8 },
        { ATOM_CMD_TMDSA_OUTPUT_CONTROL, 4 },
        { ATOM_CMD_DAC_LOAD_DETECTION, 12 }, { ATOM_CMD_ENABLE_YUV, 4 },
        { ATOM_CMD_SET_ENGINE_CLOCK, 12 }, { ATOM_CMD_GET_ENGINE_CLOCK, 4 },
        { ATOM_CMD_SET_MEMORY_CLOCK, 12 }, { ATOM_CMD_GET_MEMORY_CLOCK, 4 },
        { ATOM_CMD_DYNAMIC_CLOCK_GATING, 4 },
        { ATOM_CMD_SPEED_FAN_CONTROL, 64 },
    };
    AtomChip *c = posted_chip(data);

    if (!c) {
        return;
    }
    for (int round = 0; round < 40; round++) {
        for (unsigned t = 0; t < G_N_ELEMENTS(tables); t++) {
            Params p;

            for (unsigned i = 0; i < G_N_ELEMENTS(p.d); i++) {
                p.d[i] = g_test_rand_int();
            }
            /* Small values matter most (CRTC, device, action bytes). */
            if (round & 1) {
                for (unsigned i = 0; i < sizeof(p.b); i++) {
                    p.b[i] &= 7;
                }
            }
            atom_chip_exec(c, tables[t].table, &p, tables[t].size);
        }
    }
    check_no_unknown(c);
    atom_chip_free(c);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        GTestDataFunc fn;
    } tests[] = {
        { "asic-init", test_asic_init },
        { "clock-defaults", test_clock_defaults },
        { "vga-1024x768-crtc0", test_vga_1024x768_crtc0 },
        { "dvi-800x600-crtc1", test_dvi_800x600_crtc1 },
        { "dual-head", test_dual_head },
        { "dpms-disable", test_dpms_disable },
        { "load-detection", test_load_detection },
        { "scanout", test_scanout },
        { "fuzz", test_fuzz },
    };

    g_test_init(&argc, &argv, NULL);
    for (int m = 0; m < R500_MODEL__COUNT; m++) {
        for (unsigned t = 0; t < G_N_ELEMENTS(tests); t++) {
            g_autofree char *path = g_strdup_printf(
                "/atom-modeset/%s/%s", r500_model_info(m)->name, tests[t].name);
            g_test_add_data_func(path, GINT_TO_POINTER(m), tests[t].fn);
        }
    }
    return g_test_run();
}
