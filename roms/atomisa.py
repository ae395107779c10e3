# SPDX-License-Identifier: GPL-2.0-or-later
"""The ATOM bytecode as the Linux radeon interpreter executes it.

Facts of the format (opcode numbers, operand encodings, table indices) from
../shared/reference/atombios-rom.md sections 1.4, 1.5 and 2; written here
once and used by the assembler (roms/atomasm.py), the verifier
(roms/atomverify.py) and the disassembler (tools/atomdis).
"""
import struct

# ---- Operand kinds (attr bits 2:0) ----
ARG_REG, ARG_PS, ARG_WS, ARG_FB, ARG_ID, ARG_IMM, ARG_PLL, ARG_MC = range(8)
ARG_NAMES = ["reg", "ps", "ws", "fb", "id", "imm", "pll", "mc"]
# Destination kinds of the six-opcode families, in opcode order.
DST_KINDS = [ARG_REG, ARG_PS, ARG_WS, ARG_FB, ARG_PLL, ARG_MC]

# ---- Field selectors (attr bits 5:3) ----
SEL_DWORD, SEL_W0, SEL_W8, SEL_W16, SEL_B0, SEL_B8, SEL_B16, SEL_B24 = range(8)
SEL_TEXT = ["[31:0]", "[15:0]", "[23:8]", "[31:16]",
            "[7:0]", "[15:8]", "[23:16]", "[31:24]"]
SEL_MASK = [0xFFFFFFFF, 0xFFFF, 0xFFFF00, 0xFFFF0000,
            0xFF, 0xFF00, 0xFF0000, 0xFF000000]
SEL_SHIFT = [0, 0, 8, 16, 0, 8, 16, 24]
SEL_BYTES = [4, 2, 2, 2, 1, 1, 1, 1]      # immediate width per selector
# Destination field from (source selector, attr bits 7:6).
DST_TO_SRC = [[0, 0, 0, 0]] + [[1, 2, 3, 0]] * 3 + [[4, 5, 6, 7]] * 4
# Shift, clear: the destination field is the selector itself.
DEF_DST = [0, 0, 1, 2, 0, 1, 2, 3]

# ---- Special workspace indices (shared interpreter state) ----
WS_SPECIAL = {
    "quotient": 0x40, "remainder": 0x41, "dataptr": 0x42, "shift": 0x43,
    "or_mask": 0x44, "and_mask": 0x45, "fb_window": 0x46,
    "attributes": 0x47, "regptr": 0x48,
}
WS_SPECIAL_NAMES = {v: k for k, v in WS_SPECIAL.items()}

CASE_MAGIC = 0x63
CASE_END = 0x5A5A
OP_EOT = 0x5B

# ---- Opcodes ----
# Six-opcode families: name -> (first opcode, form).
#   dst_src  attr, dst, src            dst <- dst op src (MOVE: dst <- src)
#   operands attr, op1, op2            reads both, writes no operand
#   shift    attr, dst, u8 count       field given by the selector
#   clear    attr, dst                 field given by the selector
#   mask     attr, dst, imm mask, src  dst <- (dst & mask) | src
FAMILIES = {
    "move": (0x01, "dst_src"), "and": (0x07, "dst_src"),
    "or": (0x0D, "dst_src"), "shift_left": (0x13, "shift"),
    "shift_right": (0x19, "shift"), "mul": (0x1F, "operands"),
    "div": (0x25, "operands"), "add": (0x2B, "dst_src"),
    "sub": (0x31, "dst_src"), "compare": (0x3C, "operands"),
    "test": (0x4A, "operands"), "clear": (0x54, "clear"),
    "mask": (0x5C, "mask"), "xor": (0x67, "dst_src"),
    "shl": (0x6D, "dst_src"), "shr": (0x73, "dst_src"),
}
JUMPS = {
    "jump": 0x43, "jump_equal": 0x44, "jump_below": 0x45, "jump_above": 0x46,
    "jump_below_or_equal": 0x47, "jump_above_or_equal": 0x48,
    "jump_not_equal": 0x49,
}
# Single opcodes: name -> (opcode, operand bytes after the opcode or a form).
SINGLES = {
    "set_ati_port": (0x37, "u16"), "set_pci_port": (0x38, "u8"),
    "set_sys_io_port": (0x39, "u8"), "set_reg_block": (0x3A, "u16"),
    "set_fb_base": (0x3B, "src"), "switch": (0x42, "switch"),
    "delay_millisec": (0x50, "u8"), "delay_microsec": (0x51, "u8"),
    "call_table": (0x52, "u8"), "repeat": (0x53, ""),
    "nop": (0x5A, ""), "eot": (0x5B, ""), "post_card": (0x62, "u8"),
    "beep": (0x63, ""), "save_reg": (0x64, ""), "restore_reg": (0x65, ""),
    "set_data_block": (0x66, "u8"), "debug": (0x79, ""),
}
# Never emitted: Linux lacks them (and does not consume their operands) or
# they select I/O modes Linux does not implement (guide 2.3, 2.7).
FORBIDDEN = {
    0x38: "SET_PCI_PORT is not implemented by Linux",
    0x39: "SET_SYS_IO_PORT is not implemented by Linux",
    0x3B: "SET_FB_BASE moves the FB window; the tables keep it at 0",
    0x53: "REPEAT is unimplemented in Linux and desynchronises the stream",
    0x63: "BEEP only prints",
    0x64: "SAVE_REG is unimplemented in Linux",
    0x65: "RESTORE_REG is unimplemented in Linux",
    0x79: "DEBUG is unimplemented in Linux",
    0x7A: "opcode 0x7A has a NULL handler in radeon (kernel crash)",
}
# SHL/SHR shift the field in older kernels, the whole register in newer.
FORBIDDEN.update({op: "SHL/SHR changed meaning between Linux versions"
                  for op in range(0x6D, 0x79)})
OP_LIMIT = 0x7B     # Linux ends a table silently at 0 or at >= 0x7B


def opcode_info(op):
    """(mnemonic, form, destination kind or None) of an opcode, or None."""
    for name, (base, form) in FAMILIES.items():
        if base <= op < base + 6:
            return name, form, DST_KINDS[op - base]
    for name, code in JUMPS.items():
        if code == op:
            return name, "jump", None
    for name, (code, form) in SINGLES.items():
        if code == op:
            return name, form, None
    return None


# ---- Command and data tables ----
COMMAND_TABLES = [
    "ASIC_Init", "GetDisplaySurfaceSize", "ASIC_RegistersInit",
    "VRAM_BlockVenderDetection", "DIGxEncoderControl", "MemoryControllerInit",
    "EnableCRTCMemReq", "MemoryParamAdjust", "DVOEncoderControl",
    "GPIOPinControl", "SetEngineClock", "SetMemoryClock", "SetPixelClock",
    "DynamicClockGating", "ResetMemoryDLL", "ResetMemoryDevice",
    "MemoryPLLInit", "AdjustDisplayPll", "AdjustMemoryController",
    "EnableASIC_StaticPwrMgt", "SetUniphyInstance", "DAC_LoadDetection",
    "LVTMAEncoderControl", "LCD1OutputControl", "DAC1EncoderControl",
    "DAC2EncoderControl", "DVOOutputControl", "CV1OutputControl",
    "GetConditionalGoldenSetting", "TVEncoderControl", "TMDSAEncoderControl",
    "LVDSEncoderControl", "TV1OutputControl", "EnableScaler", "BlankCRTC",
    "EnableCRTC", "GetPixelClock", "EnableVGA_Render", "EnableVGA_Access",
    "SetCRTC_Timing", "SetCRTC_OverScan", "SetCRTC_Replication",
    "SelectCRTC_Source", "EnableGraphSurfaces",
    "UpdateCRTC_DoubleBufferRegisters", "LUT_AutoFill", "EnableHW_IconCursor",
    "GetMemoryClock", "GetEngineClock", "SetCRTC_UsingDTDTiming",
    "ExternalEncoderControl", "LVTMAOutputControl",
    "VRAM_BlockDetectionByStrap", "MemoryCleanUp",
    "ProcessI2cChannelTransaction", "WriteOneByteToHWAssistedI2C",
    "ReadHWAssistedI2CStatus", "SpeedFanControl", "PowerConnectorDetection",
    "MC_Synchronization", "ComputeMemoryEnginePLL", "MemoryRefreshConversion",
    "VRAM_GetCurrentInfoBlock", "DynamicMemorySettings", "MemoryTraining",
    "EnableSpreadSpectrumOnPPLL", "TMDSAOutputControl", "SetVoltage",
    "DAC1OutputControl", "DAC2OutputControl", "SetupHWAssistedI2CStatus",
    "ClockSource", "MemoryDeviceInit", "EnableYUV", "DIG1EncoderControl",
    "DIG2EncoderControl", "DIG1TransmitterControl", "DIG2TransmitterControl",
    "ProcessAuxChannelTransaction", "DPEncoderService", "GetVoltageInfo",
]
DATA_TABLES = [
    "UtilityPipeLine", "MultimediaCapabilityInfo", "MultimediaConfigInfo",
    "StandardVESA_Timing", "FirmwareInfo", "DAC_Info", "LVDS_Info",
    "TMDS_Info", "AnalogTV_Info", "SupportedDevicesInfo", "GPIO_I2C_Info",
    "VRAM_UsageByFirmware", "GPIO_Pin_LUT", "VESA_ToInternalModeLUT",
    "ComponentVideoInfo", "PowerPlayInfo", "CompassionateData",
    "SaveRestoreInfo", "PPLL_SS_Info", "OemInfo", "XTMDS_Info",
    "MclkSS_Info", "Object_Header", "IndirectIOAccess", "MC_InitParameter",
    "ASIC_VDDC_Info", "ASIC_InternalSS_Info", "TV_VideoMode", "VRAM_Info",
    "MemoryTrainingInfo", "IntegratedSystemInfo", "ASIC_ProfilingInfo",
    "VoltageObjectInfo", "PowerSourceInfo",
]
assert len(COMMAND_TABLES) == 81 and len(DATA_TABLES) == 34

# What radeon passes to each command table it runs on R500: the size in
# bytes of its parameter structure (a table must not touch PS beyond it)
# and the (frev, crev) it accepts; None: not checked.  Guide section 3.2.
DRIVER_ABI = {
    "ASIC_Init": (64, None),
    "SetEngineClock": (12, None), "SetMemoryClock": (12, None),
    "GetEngineClock": (4, None), "GetMemoryClock": (4, None),
    "DynamicClockGating": (4, None), "SpeedFanControl": (64, None),
    "SetPixelClock": (20, {(1, 1), (1, 2), (1, 3)}),
    "SetCRTC_UsingDTDTiming": (24, None), "SetCRTC_Timing": (24, None),
    "SetCRTC_OverScan": (12, None), "EnableScaler": (4, None),
    "UpdateCRTC_DoubleBufferRegisters": (4, None), "EnableCRTC": (4, None),
    "EnableCRTCMemReq": (4, None), "BlankCRTC": (8, None),
    "SelectCRTC_Source": (4, {(1, 1), (1, 2)}),
    "DAC1EncoderControl": (4, None), "DAC2EncoderControl": (4, None),
    "DAC1OutputControl": (4, None), "DAC2OutputControl": (4, None),
    "TMDSAEncoderControl": (8, {(f, c) for f in (1, 2) for c in (1, 2, 3)}),
    "TMDSAOutputControl": (4, None), "DAC_LoadDetection": (12, None),
    "EnableYUV": (4, None),
}


class DecodeError(Exception):
    pass


class Operand:
    """One decoded operand: kind, value (index, offset or immediate), field."""

    def __init__(self, kind, value, sel):
        self.kind, self.value, self.sel = kind, value, sel

    def __repr__(self):
        return "Operand(%s, %#x, %s)" % (ARG_NAMES[self.kind], self.value,
                                         SEL_TEXT[self.sel])


class Insn:
    """A decoded instruction at a table-relative offset."""

    def __init__(self, pos, op, name, form):
        self.pos, self.op, self.name, self.form = pos, op, name, form
        self.size = 1
        self.dst = None        # Operand written or compared
        self.src = None        # Operand read
        self.mask = None       # MASK immediate
        self.count = None      # shift count / u8 / u16 argument
        self.cases = []        # SWITCH: [(value, target)]
        self.target = None     # jump target (table-relative)

    def targets(self):
        if self.target is not None:
            return [self.target]
        return [t for _, t in self.cases]

    def falls_through(self):
        return self.name not in ("eot", "jump")


def _u8(code, pos, end):
    if pos + 1 > end:
        raise DecodeError("operand runs past the end of the table")
    return code[pos]


def _u16(code, pos, end):
    if pos + 2 > end:
        raise DecodeError("operand runs past the end of the table")
    return struct.unpack_from("<H", code, pos)[0]


def _u32(code, pos, end):
    if pos + 4 > end:
        raise DecodeError("operand runs past the end of the table")
    return struct.unpack_from("<I", code, pos)[0]


def _operand(code, pos, end, kind, sel):
    """Decode an operand of a kind; returns (Operand, new pos)."""
    if kind in (ARG_REG, ARG_ID):
        return Operand(kind, _u16(code, pos, end), sel), pos + 2
    if kind == ARG_IMM:
        width = SEL_BYTES[sel]
        read = {4: _u32, 2: _u16, 1: _u8}[width]
        return Operand(kind, read(code, pos, end), sel), pos + width
    return Operand(kind, _u8(code, pos, end), sel), pos + 1


def decode(code, pos, end):
    """Decode the instruction at code[pos] (table bytes, table-relative
    offsets); end is the table's declared size.  Raises DecodeError."""
    op = _u8(code, pos, end)
    info = opcode_info(op)
    if op == 0 or op >= OP_LIMIT or info is None:
        raise DecodeError("opcode 0x%02x ends the table in Linux (not EOT)"
                          % op)
    name, form, dkind = info
    insn = Insn(pos, op, name, form)
    p = pos + 1
    if form in ("dst_src", "operands", "shift", "clear", "mask"):
        attr = _u8(code, p, end)
        p += 1
        sel = (attr >> 3) & 7
        if form in ("shift", "clear"):
            dsel = DST_TO_SRC[sel][DEF_DST[sel]]
        else:
            dsel = DST_TO_SRC[sel][(attr >> 6) & 3]
        insn.dst, p = _operand(code, p, end, dkind, dsel)
        if form == "shift":
            insn.count, p = _u8(code, p, end), p + 1
        elif form == "mask":
            m, p = _operand(code, p, end, ARG_IMM, sel)
            insn.mask = m.value
            insn.src, p = _operand(code, p, end, attr & 7, sel)
        elif form != "clear":
            insn.src, p = _operand(code, p, end, attr & 7, sel)
    elif form == "jump":
        insn.target, p = _u16(code, p, end), p + 2
    elif form == "u8":
        insn.count, p = _u8(code, p, end), p + 1
    elif form == "u16":
        insn.count, p = _u16(code, p, end), p + 2
    elif form == "src":
        attr = _u8(code, p, end)
        insn.src, p = _operand(code, p + 1, end, attr & 7, (attr >> 3) & 7)
    elif form == "switch":
        attr = _u8(code, p, end)
        sel = (attr >> 3) & 7
        insn.src, p = _operand(code, p + 1, end, attr & 7, sel)
        while _u16(code, p, end) != CASE_END:
            if code[p] != CASE_MAGIC:
                raise DecodeError("SWITCH: byte 0x%02x where a case (0x63) "
                                  "or the end (5A 5A) belongs" % code[p])
            val, p = _operand(code, p + 1, end, ARG_IMM, sel)
            insn.cases.append((val.value, _u16(code, p, end)))
            p += 2
        p += 2
    insn.size = p - pos
    return insn


def table_header(rom, off):
    """Command table header at a ROM offset: (size, frev, crev, ws, ps)."""
    size, frev, crev, ws, ps = struct.unpack_from("<HBBBB", rom, off)
    return size, frev, crev, ws, ps & 0x7F


def master_entries(rom, master, count):
    """The u16 entries of a master table (0: absent)."""
    return [struct.unpack_from("<H", rom, master + 4 + 2 * i)[0]
            for i in range(count)]


def atom_header(rom):
    """ROM offsets (header, command master, data master) or ValueError."""
    if rom[0:2] != b"\x55\xaa":
        raise ValueError("no 55 AA signature")
    if rom[0x30:0x3A] != b" 761295520":
        raise ValueError('no " 761295520" at 0x30')
    hdr = struct.unpack_from("<H", rom, 0x48)[0]
    if hdr == 0 or rom[hdr + 4:hdr + 8] != b"ATOM":
        raise ValueError("0x48 does not point at an ATOM_ROM_HEADER")
    cmd, data = struct.unpack_from("<HH", rom, hdr + 0x1E)
    return hdr, cmd, data
