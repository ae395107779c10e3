#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The ROM builder refuses what the Linux interpreter would mishandle.

Builds the real ROM for a model, checks that it verifies, then breaks it
one way at a time (a byte patch at a decoded instruction, or a small
source) and checks that the verifier or the assembler names the problem.

  test-atombuild.py VGABIOS     (meson passes the SeaVGABIOS image)
"""
import os
import struct
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "roms"))
import atomasm      # noqa: E402
import atomisa as isa   # noqa: E402
import atomverify   # noqa: E402
import mkrom        # noqa: E402
import r500defs     # noqa: E402

VGABIOS = None
MODEL = "rv515"


class Built:
    rom = None


def build():
    if Built.rom is None:
        defs = r500defs.default_defs(ROOT)
        with open(VGABIOS, "rb") as f:
            rom, asm = mkrom.compose(f.read(), defs, MODEL, os.path.join(
                ROOT, "roms", "atom", "rom.atom"))
        Built.rom, Built.defs = rom, defs
    return bytearray(Built.rom), Built.defs


def table(rom, name):
    _, cmd, _ = isa.atom_header(rom)
    off = isa.master_entries(rom, cmd, 81)[isa.COMMAND_TABLES.index(name)]
    size = struct.unpack_from("<H", rom, off)[0]
    insns, pos = [], 6
    while pos < size:
        insn = isa.decode(rom[off:off + size], pos, size)
        insns.append(insn)
        pos += insn.size
    return off, size, insns


def errors(rom, defs):
    return "\n".join(atomverify.Verifier(bytes(rom), defs, MODEL).run())


class VerifierTest(unittest.TestCase):
    def expect(self, rom, defs, needle):
        errs = errors(rom, defs)
        self.assertIn(needle, errs)

    def test_built_rom_verifies(self):
        rom, defs = build()
        self.assertEqual(errors(rom, defs), "")

    def test_forbidden_opcode(self):
        rom, defs = build()
        off, size, insns = table(rom, "EnableYUV")
        rom[off + 6] = 0x53          # REPEAT where EOT was
        self.expect(rom, defs, "REPEAT")

    def test_workspace_undeclared(self):
        rom, defs = build()
        off, _, _ = table(rom, "EnableCRTC")
        rom[off + 4] = 0             # WS size 0, WS still used
        self.expect(rom, defs, "beyond the declared workspace")

    def test_jump_into_an_instruction(self):
        rom, defs = build()
        off, _, insns = table(rom, "EnableCRTC")
        j = next(i for i in insns if i.name == "jump")
        struct.pack_into("<H", rom, off + j.pos + 1, j.target + 1)
        self.expect(rom, defs, "is not an instruction")

    def test_no_eot(self):
        rom, defs = build()
        off, size, insns = table(rom, "SetCRTC_OverScan")
        rom[off + insns[-1].pos] = 0x5A      # the last EOT becomes NOP
        self.expect(rom, defs, "without EOT")

    def test_register_not_modelled(self):
        rom, defs = build()
        off, _, insns = table(rom, "SetCRTC_OverScan")
        mv = next(i for i in insns if i.dst and i.dst.kind == isa.ARG_REG)
        # One dword past the last register the tables may touch.
        free = max(defs.regs.values()) // 4 + 1
        struct.pack_into("<H", rom, off + mv.pos + 2, free)
        self.expect(rom, defs, "is not a register of r500_regs.def")

    def test_parameter_beyond_struct(self):
        rom, defs = build()
        off, _, insns = table(rom, "EnableScaler")
        i = next(i for i in insns if i.src and i.src.kind == isa.ARG_PS)
        # EnableScaler gets 4 bytes: PS[1] is radeon's stack.
        rom[off + i.pos + 3] = 1
        self.expect(rom, defs, "structure radeon passes")

    def test_call_missing_table(self):
        rom, defs = build()
        off, _, insns = table(rom, "SetPixelClock")
        i = next(i for i in insns if i.name == "call_table")
        rom[off + i.pos + 1] = isa.COMMAND_TABLES.index("GetPixelClock")
        self.expect(rom, defs, "no such table")

    def test_unportable_encoding(self):
        rom, defs = build()
        off, _, insns = table(rom, "BlankCRTC")
        # move ws[n][15:0], ps[k][31:16]: make it the word-to-dword form
        # Linux and AMD's parser read differently (d = 3).
        i = next(i for i in insns if i.name == "move" and i.src and
                 i.src.kind == isa.ARG_PS and i.src.sel == isa.SEL_W16)
        rom[off + i.pos + 1] |= 0xC0
        self.expect(rom, defs, "disagree")

    def test_checksum(self):
        rom, defs = build()
        rom[0x10] ^= 1
        self.expect(rom, defs, "checksum")


class AssemblerTest(unittest.TestCase):
    """Source errors the assembler reports with file and line."""

    def assemble(self, body):
        defs = r500defs.default_defs(ROOT)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.atom")
            with open(path, "w") as f:
                f.write('message "T"\n' + body)
            asm = atomasm.Assembler(defs, MODEL)
            asm.load(path)
            return asm.build(0x9C00, (0, 0), 0)

    def expect(self, body, needle):
        with self.assertRaises(atomasm.AsmError) as e:
            self.assemble(body)
        self.assertIn(needle, str(e.exception))
        self.assertIn("t.atom:", str(e.exception))

    def test_field_widths(self):
        self.expect("table EnableYUV\nrevision 1 1\nworkspace 1\n"
                    "move ws[0], ps[0][7:0]\neot\nend\n", "same width")

    def test_unknown_register(self):
        self.expect("table EnableYUV\nrevision 1 1\n"
                    "move D1CRTC_NO_SUCH, 0\neot\nend\n", "no register")

    def test_unknown_label(self):
        self.expect("table EnableYUV\nrevision 1 1\njump nowhere\neot\nend\n",
                    "no label")

    def test_data_offset(self):
        self.expect("data FirmwareInfo\nrevision 1 4\nu32 a = 1 @0x08\nend\n",
                    "at offset 0x4")

    def test_good_table(self):
        img = self.assemble("table EnableYUV\nrevision 1 1\nparams 4\n"
                            "move D1CRTC_CONTROL[7:0], ps[0][15:8]\neot\nend\n")
        self.assertIn(bytes([0x01, 0x29, 0x20, 0x18, 0x00, 0x5B]), img)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test-atombuild.py VGABIOS")
    VGABIOS = sys.argv.pop(1)
    unittest.main(verbosity=2)
