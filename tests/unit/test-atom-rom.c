/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Structure of each model's built option ROM: the checks Linux, SeaBIOS
 * and QEMU make (../shared/reference/atombios-rom.md 1.6, 7.1), the data
 * tables radeon parses, the board wiring they describe (the DDC/connector
 * contract of the display block) and a decode of every command table.
 * Written independently of the Python builder and verifier.
 */
#include <string.h>

#include "atom-chip.h"

static uint32_t le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

/* What radeon passes to each table it runs on R500: bytes of parameter
 * structure (guide 3.2).  A table must not declare more. */
static const struct {
    unsigned index, ps_alloc;
} radeon_tables[] = {
    { ATOM_CMD_ASIC_INIT, 64 },
    { ATOM_CMD_SET_ENGINE_CLOCK, 12 }, { ATOM_CMD_SET_MEMORY_CLOCK, 12 },
    { ATOM_CMD_GET_ENGINE_CLOCK, 4 }, { ATOM_CMD_GET_MEMORY_CLOCK, 4 },
    { ATOM_CMD_SET_PIXEL_CLOCK, 20 }, { ATOM_CMD_SET_CRTC_DTD_TIMING, 24 },
    { ATOM_CMD_SET_CRTC_TIMING, 24 }, { ATOM_CMD_SET_CRTC_OVERSCAN, 12 },
    { ATOM_CMD_ENABLE_SCALER, 4 }, { ATOM_CMD_UPDATE_CRTC_DOUBLE_BUFFER, 4 },
    { ATOM_CMD_ENABLE_CRTC, 4 }, { ATOM_CMD_BLANK_CRTC, 8 },
    { ATOM_CMD_SELECT_CRTC_SOURCE, 4 },
    { ATOM_CMD_DAC1_ENCODER_CONTROL, 4 }, { ATOM_CMD_DAC2_ENCODER_CONTROL, 4 },
    { ATOM_CMD_DAC1_OUTPUT_CONTROL, 4 }, { ATOM_CMD_DAC2_OUTPUT_CONTROL, 4 },
    { ATOM_CMD_TMDSA_ENCODER_CONTROL, 8 },
    { ATOM_CMD_TMDSA_OUTPUT_CONTROL, 4 },
    { ATOM_CMD_DAC_LOAD_DETECTION, 12 }, { ATOM_CMD_ENABLE_YUV, 4 },
    { ATOM_CMD_DYNAMIC_CLOCK_GATING, 4 }, { ATOM_CMD_SPEED_FAN_CONTROL, 64 },
};

static void check_pci_rom(R500Model m, const uint8_t *rom, size_t len)
{
    uint32_t sum = 0, pcir;

    g_assert_cmphex(rom[0], ==, 0x55);
    g_assert_cmphex(rom[1], ==, 0xAA);
    /* SeaBIOS copies and checks size x 512 bytes: the whole file. */
    g_assert_cmpuint(rom[2] * 512u, ==, len);
    for (size_t i = 0; i < len; i++) {
        sum += rom[i];
    }
    g_assert_cmphex(sum & 0xFF, ==, 0);
    pcir = le(rom + 0x18, 2);
    g_assert_cmpuint(pcir % 4, ==, 0);
    g_assert_cmpmem(rom + pcir, 4, "PCIR", 4);
    g_assert_cmphex(le(rom + pcir + 4, 2), ==, 0x1002);
    g_assert_cmphex(le(rom + pcir + 6, 2), ==, r500_model_info(m)->device_id);
    g_assert_cmphex(le(rom + pcir + 0x0D, 3), ==, 0x030000);
    /* Linux sizes the shadow copy from the PCIR image length. */
    g_assert_cmpuint(le(rom + pcir + 0x10, 2) * 512u, ==, len);
    g_assert_cmphex(rom[pcir + 0x14], ==, 0);       /* x86, or radeon refuses */
    g_assert_cmphex(rom[pcir + 0x15] & 0x80, ==, 0x80);
}

static void check_atom_header(R500Model m, AtomInterp *a, size_t len)
{
    const uint8_t *rom = a->rom;
    uint32_t hdr = le(rom + 0x48, 2), msg;
    g_autofree char *want = g_ascii_strup(r500_model_info(m)->name, -1);
    char name[64];
    unsigned n = 0;

    g_assert_cmpmem(rom + 0x30, 10, " 761295520", 10);
    g_assert_cmpuint(hdr, !=, 0);
    g_assert_cmpmem(rom + hdr + 4, 4, "ATOM", 4);
    g_assert_cmpuint(le(rom + hdr, 2), ==, 0x24);
    /* Master tables: 81 command and 34 data entries, inside the image. */
    g_assert_cmpuint(le(rom + a->cmd_table, 2), ==, 4 + 2 * ATOM_CMD_COUNT);
    g_assert_cmpuint(le(rom + a->data_table, 2), ==, 4 + 2 * ATOM_DATA_COUNT);
    g_assert_cmpuint(a->cmd_table + 4 + 2 * ATOM_CMD_COUNT, <=, len);
    g_assert_cmpuint(a->data_table + 4 + 2 * ATOM_DATA_COUNT, <=, len);
    for (unsigned i = 0; i < ATOM_CMD_COUNT + ATOM_DATA_COUNT; i++) {
        uint32_t off = i < ATOM_CMD_COUNT ? atom_cmd_offset(a, i) :
                       atom_data_offset(a, i - ATOM_CMD_COUNT);
        if (off) {
            /* Linux dereferences ATOM offsets without bounds checks. */
            g_assert_cmpuint(off + le(rom + off, 2), <=, len);
            g_assert_cmpuint(off + le(rom + off, 2), <=, 0x10000);
        }
    }
    /* Boot message: atom_parse() copies '.'..'z' after CR/LF. */
    msg = le(rom + hdr + 0x10, 2);
    while (rom[msg] == '\r' || rom[msg] == '\n') {
        msg++;
    }
    while (n < sizeof(name) - 1 && rom[msg + n] >= '.' && rom[msg + n] <= 'z') {
        name[n] = rom[msg + n];
        n++;
    }
    name[n] = 0;
    g_assert_true(g_str_has_prefix(name, "QEMU_R500_"));
    g_assert_nonnull(strstr(name, want));
}

static void check_data_tables(AtomInterp *a)
{
    const uint8_t *rom = a->rom;
    uint32_t fw = atom_data_offset(a, ATOM_DATA_FIRMWARE_INFO);
    uint32_t sd = atom_data_offset(a, ATOM_DATA_SUPPORTED_DEVICES);
    uint32_t gpio = atom_data_offset(a, ATOM_DATA_GPIO_I2C_INFO);
    uint32_t iio = atom_data_offset(a, ATOM_DATA_IIO), p;
    unsigned n;

    g_assert_cmpuint(fw && sd && gpio && iio, ==, 1);
    /* FirmwareInfo v1.3+: clocks, VCO range and reference are non-zero. */
    g_assert_cmpuint(rom[fw + 2], ==, 1);
    g_assert_cmpuint(rom[fw + 3], >=, 3);
    g_assert_cmpuint(le(rom + fw, 2), >=, 0x59);
    g_assert_cmpuint(le(rom + fw + 0x08, 4), !=, 0);    /* engine clock */
    g_assert_cmpuint(le(rom + fw + 0x0C, 4), !=, 0);    /* memory clock */
    g_assert_cmpuint(le(rom + fw + 0x20, 4), >, le(rom + fw + 0x38, 4));
    g_assert_cmpuint(le(rom + fw + 0x38, 4), !=, 0);
    g_assert_cmpuint(le(rom + fw + 0x52, 2), ==, 2700); /* 27 MHz crystal */

    /* The IIO walk of atom_parse() ends inside the table. */
    p = iio + 4;
    while (rom[p] == 1) {
        p += 2;
        while (rom[p] != 9) {
            p++;
        }
        p += 3;
    }
    g_assert_cmpuint(p, <, iio + le(rom + iio, 2));

    /* GPIO_I2C_Info: DDC1 (id 0x90) and DDC2 (id 0x91), clock on bit 0,
     * data on bit 8 of DC_GPIO_DDCn_{MASK,EN,Y,A} (display contract). */
    g_assert_cmpuint((le(rom + gpio, 2) - 4) % 27, ==, 0);
    n = (le(rom + gpio, 2) - 4) / 27;
    g_assert_cmpuint(n, ==, 2);
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *e = rom + gpio + 4 + 27 * i;
        uint32_t d = i ? R_DC_GPIO_DDC2_MASK - R_DC_GPIO_DDC1_MASK : 0;
        const uint32_t regs[4] = {
            R_DC_GPIO_DDC1_MASK + d, R_DC_GPIO_DDC1_EN + d,
            R_DC_GPIO_DDC1_Y + d, R_DC_GPIO_DDC1_A + d,
        };

        g_assert_cmphex(e[16], ==, 0x90 + i);
        for (unsigned r = 0; r < 4; r++) {
            g_assert_cmphex(le(e + 2 * r, 2), ==, regs[r] / 4);      /* clock */
            g_assert_cmphex(le(e + 8 + 2 * r, 2), ==, regs[r] / 4);  /* data */
            g_assert_cmpuint(e[17 + r], ==, 0);
            g_assert_cmpuint(e[21 + r], ==, 8);
        }
    }

    /* SupportedDevicesInfo: CRT1 = VGA on DAC A over DDC1, DFP1 = DVI-D
     * (TMDS A, HPD 1) over DDC2, nothing else. */
    g_assert_cmpuint(rom[sd + 2], ==, 1);
    g_assert_cmphex(le(rom + sd + 4, 2), ==, 0x0009);
    g_assert_cmphex(rom[sd + 6 + 0], ==, 0x11);
    g_assert_cmphex(rom[sd + 6 + 1], ==, 0x90);
    g_assert_cmphex(rom[sd + 6 + 6], ==, 0x30);
    g_assert_cmphex(rom[sd + 6 + 7], ==, 0x91);
}

static void check_command_tables(AtomInterp *a)
{
    const uint8_t *rom = a->rom;

    for (unsigned i = 0; i < G_N_ELEMENTS(radeon_tables); i++) {
        uint32_t t = atom_cmd_offset(a, radeon_tables[i].index);
        uint32_t size, pos;

        g_assert_cmpuint(t, !=, 0);
        size = le(rom + t, 2);
        g_assert_cmpuint(size, >, 6);
        g_assert_cmpuint(rom[t + 4] % 4, ==, 0);             /* WS, dwords */
        g_assert_cmpuint(rom[t + 5] & 0x7F, <=, radeon_tables[i].ps_alloc);
        /* Every instruction decodes inside the table, the last is EOT. */
        for (pos = t + 6; pos < t + size;) {
            unsigned n = atom_insn_length(a, pos, t + size);
            if (!n) {
                g_error("table 0x%02x: nothing decodes at +0x%x",
                        radeon_tables[i].index, pos - t);
            }
            pos += n;
        }
        g_assert_cmpuint(pos, ==, t + size);
        g_assert_cmphex(rom[t + size - 1], ==, 0x5B);
    }
    /* Versions radeon switches on. */
    g_assert_cmpuint(rom[atom_cmd_offset(a, ATOM_CMD_SET_PIXEL_CLOCK) + 2],
                     ==, 1);
    g_assert_cmpuint(rom[atom_cmd_offset(a, ATOM_CMD_SET_PIXEL_CLOCK) + 3],
                     ==, 2);
    g_assert_cmpuint(rom[atom_cmd_offset(a, ATOM_CMD_SELECT_CRTC_SOURCE) + 3],
                     ==, 1);
    g_assert_cmpuint(rom[atom_cmd_offset(a, ATOM_CMD_TMDSA_ENCODER_CONTROL) +
                         3], ==, 1);
}

static void test_rom(gconstpointer data)
{
    R500Model m = GPOINTER_TO_INT(data);
    g_autofree uint8_t *rom = NULL;
    AtomInterp a;
    AtomBus none = { 0 };
    char *err = NULL;
    size_t len;

    rom = atom_rom_load(m, &len);
    if (!rom) {
        g_test_skip("no built ROM: run through meson (R500_ROMDIR)");
        return;
    }
    check_pci_rom(m, rom, len);
    if (!atom_interp_init(&a, rom, len, &none, &err)) {
        g_error("%s", err);
    }
    check_atom_header(m, &a, len);
    check_data_tables(&a);
    check_command_tables(&a);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (int m = 0; m < R500_MODEL__COUNT; m++) {
        g_autofree char *path = g_strdup_printf("/atom-rom/%s",
                                                r500_model_info(m)->name);
        g_test_add_data_func(path, GINT_TO_POINTER(m), test_rom);
    }
    return g_test_run();
}
