#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compose the card's option ROM for one model.

Two parts (docs/rom.md):
  * x86: the distro's SeaVGABIOS ATI build (package seabios,
    vgabios-ati.bin, LGPLv3), unmodified code: SeaBIOS guests get text and
    VESA modes.  Its PCI data structure gets the model's device ID.
  * AtomBIOS: assembled here from roms/atom/*.atom (roms/atomasm.py),
    verified (roms/atomverify.py) and appended after the VGA BIOS.  The
    ATI signature goes to 0x30 and the ATOM header pointer to 0x48, which
    in the ATI build hold only zero padding and the pointer to fake
    COMBIOS tables for the radeonfb/aty128fb fbdev drivers (vgasrc/
    ati-tables.S; no SeaVGABIOS code reads them).
The size byte, the PCIR image length and the checksum then cover the whole
image, so SeaBIOS shadows the ATOM tables with the VGA BIOS and Linux finds
them in the shadow copy at 0xC0000.
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atomasm      # noqa: E402
import atomverify   # noqa: E402
import r500defs     # noqa: E402

ATI_MAGIC = b" 761295520"


def fail(msg):
    sys.exit("mkrom: " + msg)


def patch_vgabios(vgabios, device_id):
    """The VGA BIOS with the model's PCI device ID; returns (rom, pcir)."""
    rom = bytearray(vgabios)
    if rom[0:2] != b"\x55\xaa":
        fail("VGA BIOS lacks the 55 AA signature")
    if rom[2] * 512 != len(rom):
        fail("VGA BIOS size byte (%d) disagrees with its length (%d)"
             % (rom[2] * 512, len(rom)))
    pcir = struct.unpack_from("<H", rom, 0x18)[0]
    if rom[pcir:pcir + 4] != b"PCIR":
        fail("no PCI data structure at 0x%x" % pcir)
    vendor = struct.unpack_from("<H", rom, pcir + 4)[0]
    if vendor != 0x1002:
        fail("VGA BIOS is not the ATI build (vendor 0x%04x)" % vendor)
    # The ATI build keeps 0x30-0x39 zero and 0x48 for its fake tables.
    if any(rom[0x30:0x3A]) or struct.unpack_from("<H", rom, 0x48)[0] >= 0x200:
        fail("VGA BIOS has something at 0x30 or 0x48 (not the ATI build?)")
    struct.pack_into("<H", rom, pcir + 6, device_id)
    return rom, pcir


def compose(vgabios, defs, model, source):
    """The option ROM and the assembler that built its ATOM part."""
    rom, pcir = patch_vgabios(vgabios, defs.models[model]["device_id"])
    base = len(rom)
    try:
        asm = atomasm.assemble(defs, model, source, base, (0x1AF4, 0x1100),
                               pcir)
    except atomasm.AsmError as e:
        fail(str(e))
    rom += asm.image
    rom += bytes(-len(rom) % 512)
    if len(rom) // 512 > 0xFF:
        fail("ROM of %d bytes is too large for the size byte" % len(rom))
    rom[0x30:0x3A] = ATI_MAGIC
    struct.pack_into("<H", rom, 0x48, base)
    rom[2] = len(rom) // 512
    struct.pack_into("<H", rom, pcir + 0x10, len(rom) // 512)
    # Checksum: all bytes sum to 0 mod 256; byte 6 is SeaVGABIOS's fix-up
    # byte (it recomputes it at POST over the size byte's length).
    rom[6] = 0
    rom[6] = (-sum(rom)) & 0xFF
    return bytes(rom), asm


def verify(rom, defs, model, asm):
    locs = {t.name: t.locs for t in asm.cmds.values()}
    errors = atomverify.Verifier(rom, defs, model, locs).run()
    if errors:
        fail("the AtomBIOS fails verification:\n  " + "\n  ".join(errors))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", default=r500defs.source_root(),
                    help="source tree")
    ap.add_argument("--list", action="store_true",
                    help="print the model names and exit")
    ap.add_argument("--vgabios")
    ap.add_argument("--model")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    defs = r500defs.default_defs(a.root)
    if a.list:
        print("\n".join(defs.models))
        return
    if not (a.vgabios and a.model and a.output):
        fail("--vgabios, --model and -o are required")
    if a.model not in defs.models:
        fail("model %s not in models.def" % a.model)
    with open(a.vgabios, "rb") as f:
        rom, asm = compose(f.read(), defs, a.model,
                           os.path.join(a.root, *r500defs.ATOM_DIR, "rom.atom"))
    verify(rom, defs, a.model, asm)
    with open(a.output, "wb") as f:
        f.write(rom)


if __name__ == "__main__":
    main()
