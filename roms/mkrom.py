#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compose the card's option ROM for one model.

The x86 part is the distro's SeaVGABIOS ATI build (package seabios,
vgabios-ati.bin, LGPLv3; see docs/rom.md): it gives SeaBIOS guests text
and VESA modes through the VGA core and the legacy Radeon CRTC registers.
Here its PCI data structure gets the model's device ID, so SeaBIOS and
SeaVGABIOS match it to the card, and the image checksum is rebalanced.
"""
import argparse
import re
import struct
import sys


def fail(msg):
    sys.exit("mkrom: " + msg)


def compose(vgabios: bytes, device_id: int) -> bytes:
    rom = bytearray(vgabios)
    if rom[0:2] != b"\x55\xaa":
        fail("VGA BIOS lacks the 55 AA signature")
    size = rom[2] * 512
    if size != len(rom):
        fail("VGA BIOS size byte (%d) disagrees with its length (%d)"
             % (size, len(rom)))
    pcir = struct.unpack_from("<H", rom, 0x18)[0]
    if rom[pcir:pcir + 4] != b"PCIR":
        fail("no PCI data structure at 0x%x" % pcir)
    vendor = struct.unpack_from("<H", rom, pcir + 4)[0]
    if vendor != 0x1002:
        fail("VGA BIOS is not the ATI build (vendor 0x%04x)" % vendor)
    struct.pack_into("<H", rom, pcir + 6, device_id)
    # Checksum: all bytes of the image sum to 0 mod 256; byte 6 is free
    # in SeaVGABIOS (its fix-up byte).
    rom[6] = 0
    rom[6] = (-sum(rom)) & 0xFF
    assert sum(rom) & 0xFF == 0
    return bytes(rom)


def read_models(models_def: str) -> dict:
    """{model name: PCI device ID}, from hw/r500/models.def."""
    with open(models_def) as f:
        return {m.group(1): int(m.group(2), 16) for m in re.finditer(
            r"^R500_MODEL\(\w+,\s*(\w+),\s*(0x[0-9A-Fa-f]+)", f.read(), re.M)}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--models", required=True, help="hw/r500/models.def")
    ap.add_argument("--list", action="store_true",
                    help="print the model names and exit")
    ap.add_argument("--vgabios")
    ap.add_argument("--model")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    models = read_models(a.models)
    if a.list:
        print("\n".join(models))
        return
    if not (a.vgabios and a.model and a.output):
        fail("--vgabios, --model and -o are required")
    if a.model not in models:
        fail("model %s not in %s" % (a.model, a.models))
    with open(a.vgabios, "rb") as f:
        rom = compose(f.read(), models[a.model])
    with open(a.output, "wb") as f:
        f.write(rom)


if __name__ == "__main__":
    main()
