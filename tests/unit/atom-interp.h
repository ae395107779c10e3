/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An interpreter of ATOM bytecode for the tests: the semantics the Linux
 * radeon interpreter gives it (../shared/reference/atombios-rom.md
 * section 2), written from that description.  It mirrors the Linux quirks
 * the tables can meet (register block, MM_INDEX shift, nested parameter
 * windows, shared global state, field read-modify-write, IIO programs) and
 * is stricter where Linux is silent: every ROM, PS, WS and FB access is
 * bounds-checked, opcodes Linux lacks are errors, and an instruction budget
 * replaces the "stuck in loop" timer.
 */
#ifndef R500_ATOM_INTERP_H
#define R500_ATOM_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How the interpreter reaches the card (radeon's card_info callbacks). */
typedef struct AtomBus {
    uint32_t (*reg_read)(void *opaque, uint32_t dword_index);
    void (*reg_write)(void *opaque, uint32_t dword_index, uint32_t val);
    uint32_t (*pll_read)(void *opaque, uint32_t index);
    void (*pll_write)(void *opaque, uint32_t index, uint32_t val);
    uint32_t (*mc_read)(void *opaque, uint32_t index);
    void (*mc_write)(void *opaque, uint32_t index, uint32_t val);
    /* I/O BAR, dword index (indirect-I/O programs). */
    uint32_t (*io_read)(void *opaque, uint32_t dword_index);
    void (*io_write)(void *opaque, uint32_t dword_index, uint32_t val);
    void (*delay_us)(void *opaque, unsigned us);
    void *opaque;
} AtomBus;

/* Command and data table indices the tests use (atombios-rom.md 1.4). */
enum {
    ATOM_CMD_ASIC_INIT = 0x00,
    ATOM_CMD_ENABLE_CRTC_MEM_REQ = 0x06,
    ATOM_CMD_SET_ENGINE_CLOCK = 0x0A,
    ATOM_CMD_SET_MEMORY_CLOCK = 0x0B,
    ATOM_CMD_SET_PIXEL_CLOCK = 0x0C,
    ATOM_CMD_DYNAMIC_CLOCK_GATING = 0x0D,
    ATOM_CMD_DAC_LOAD_DETECTION = 0x15,
    ATOM_CMD_DAC1_ENCODER_CONTROL = 0x18,
    ATOM_CMD_DAC2_ENCODER_CONTROL = 0x19,
    ATOM_CMD_TMDSA_ENCODER_CONTROL = 0x1E,
    ATOM_CMD_ENABLE_SCALER = 0x21,
    ATOM_CMD_BLANK_CRTC = 0x22,
    ATOM_CMD_ENABLE_CRTC = 0x23,
    ATOM_CMD_SET_CRTC_TIMING = 0x27,
    ATOM_CMD_SET_CRTC_OVERSCAN = 0x28,
    ATOM_CMD_SELECT_CRTC_SOURCE = 0x2A,
    ATOM_CMD_UPDATE_CRTC_DOUBLE_BUFFER = 0x2C,
    ATOM_CMD_GET_MEMORY_CLOCK = 0x2F,
    ATOM_CMD_GET_ENGINE_CLOCK = 0x30,
    ATOM_CMD_SET_CRTC_DTD_TIMING = 0x31,
    ATOM_CMD_SPEED_FAN_CONTROL = 0x39,
    ATOM_CMD_TMDSA_OUTPUT_CONTROL = 0x42,
    ATOM_CMD_DAC1_OUTPUT_CONTROL = 0x44,
    ATOM_CMD_DAC2_OUTPUT_CONTROL = 0x45,
    ATOM_CMD_ENABLE_YUV = 0x49,
    ATOM_CMD_COUNT = 81,

    ATOM_DATA_FIRMWARE_INFO = 0x04,
    ATOM_DATA_SUPPORTED_DEVICES = 0x09,
    ATOM_DATA_GPIO_I2C_INFO = 0x0A,
    ATOM_DATA_IIO = 0x17,
    ATOM_DATA_COUNT = 34,
};

typedef struct AtomStats {
    uint64_t insns;          /* instructions executed */
    uint64_t delay_us;       /* microseconds of DELAY_* requested */
    unsigned calls;          /* table invocations, nested included */
} AtomStats;

typedef struct AtomInterp {
    const uint8_t *rom;
    size_t rom_len;
    const AtomBus *bus;
    uint16_t cmd_table, data_table;
    uint16_t iio[256];           /* program start per id, 0: none */

    /* State shared by a call and its nested calls (Linux atom_context). */
    uint32_t reg_block, data_block, fb_base, io_attr;
    uint32_t divmul[2];
    uint8_t shift;
    int io_mode;                 /* 0 MMIO, 0x80 | port: IIO */
    bool cs_equal, cs_above;
    uint32_t scratch[20 * 1024 / 4];  /* FB operands (Linux default size) */

    uint64_t budget;             /* instructions per top-level call */
    AtomStats stats;
    char error[256];             /* first error of the last call */
    int depth;
} AtomInterp;

/* Parse the ROM like atom_parse(); false with *err (g_free it). */
bool atom_interp_init(AtomInterp *a, const uint8_t *rom, size_t rom_len,
                      const AtomBus *bus, char **err);

/*
 * radeon's atom_execute_table(): reset the register block, FB window and
 * I/O mode, run command table index with params (params_size bytes, the
 * structure the driver would pass).  Returns false, with a->error set,
 * when the table is absent or does something the tests forbid.
 */
bool atom_execute(AtomInterp *a, unsigned index, void *params,
                  size_t params_size);

/* ROM offset of a master-table entry (0: absent). */
uint16_t atom_cmd_offset(const AtomInterp *a, unsigned index);
uint16_t atom_data_offset(const AtomInterp *a, unsigned index);

/* Length of the instruction at ROM offset pos, inside [.., end); 0 if it
 * does not decode (static checks of the tests). */
unsigned atom_insn_length(const AtomInterp *a, uint32_t pos, uint32_t end);

#endif
