# SPDX-License-Identifier: GPL-2.0-or-later
"""Register names of the chip, read from hw/r500/regs/*.def and models.def.

The .def files are the only place register offsets are written down; the
ROM builder, the bytecode verifier, the disassembler and the benchmarks all
take them from here: the one Python reader of the tables.  It reads them as
the C preprocessor does, following `#include "file"` (r500_regs.def pulls in
r500_3d_regs.def).
"""
import os
import re

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.M)


def read_def(path, _depth=0):
    """The text of a .def file without comments, #include "x" expanded
    (x relative to the including file, as cpp looks first)."""
    if _depth > 8:
        raise ValueError("#include nested too deep at %s" % path)
    with open(path) as f:
        text = _COMMENT.sub("", f.read())
    base = os.path.dirname(path)
    return _INCLUDE.sub(
        lambda m: read_def(os.path.join(base, m.group(1)), _depth + 1), text)


_strip = read_def


class ChipDefs:
    """Registers (byte offsets), fields, PLL and MC indices, models."""

    CRTC2_OFFSET = 0x800    # R500_CRTC2_OFFSET in regs.h

    def __init__(self, regs_dir, models_def):
        self.regs = {}        # name -> byte offset
        self.fields = {}      # (reg, field) -> (shift, width)
        self.values = {}      # (reg, field, name) -> value
        self.pll = {}         # name -> index
        self.pcie = {}        # name -> index
        self.mc = {}          # name -> {"RV515": idx, "R520": idx}
        self.models = {}      # name -> {"device_id": n, "mc_map": s}
        self._parse_regs(os.path.join(regs_dir, "r500_regs.def"))
        self._parse_pll(os.path.join(regs_dir, "pll_regs.def"))
        self._parse_pcie(os.path.join(regs_dir, "pcie_regs.def"))
        self._parse_mc(os.path.join(regs_dir, "mc_regs.def"))
        self._parse_models(models_def)
        self.names = {}       # byte offset -> name (first spelling)
        for name, off in self.regs.items():
            self.names.setdefault(off, name)

    def _add(self, name, off):
        if name in self.regs:
            raise ValueError("register %s defined twice" % name)
        self.regs[name] = off

    def _parse_regs(self, path):
        for line in _strip(path).splitlines():
            line = line.strip()
            m = re.match(r"R500_REG\((\w+),\s*(0x[0-9A-Fa-f]+)\)", line)
            if m:
                self._add(m.group(1), int(m.group(2), 16))
                continue
            m = re.match(r"R500_REGA\((\w+),\s*(0x[0-9A-Fa-f]+),\s*(\d+),"
                         r"\s*(\d+)\)", line)
            if m:
                base, n, stride = (int(m.group(2), 16), int(m.group(3)),
                                   int(m.group(4)))
                for i in range(n):
                    self._add("%s[%d]" % (m.group(1), i), base + i * stride)
                continue
            m = re.match(r"R500_CRTC\((\w+),\s*(0x[0-9A-Fa-f]+)\)", line)
            if m:
                off = int(m.group(2), 16)
                self._add("D1" + m.group(1), off)
                self._add("D2" + m.group(1), off + self.CRTC2_OFFSET)
                continue
            self._parse_field(line)

    def _parse_field(self, line):
        m = re.match(r"R500_FIELD\((\w+),\s*(\w+),\s*(\d+),\s*(\d+)\)", line)
        if m:
            self.fields[(m.group(1), m.group(2))] = (int(m.group(3)),
                                                     int(m.group(4)))
        m = re.match(r"R500_VALUE\((\w+),\s*(\w+),\s*(\w+),\s*(\w+)\)",
                     line)
        if m:
            self.values[m.groups()[:3]] = int(m.group(4), 0)

    def _parse_pll(self, path):
        for m in re.finditer(r"R500_PLL_REG\((\w+),\s*(0x[0-9A-Fa-f]+)\)",
                             _strip(path)):
            self.pll[m.group(1)] = int(m.group(2), 16)

    def _parse_pcie(self, path):
        text = _strip(path)
        for m in re.finditer(r"R500_PCIE_REG\((\w+),\s*(0x[0-9A-Fa-f]+)\)",
                             text):
            self.pcie[m.group(1)] = int(m.group(2), 16)
        for line in text.splitlines():
            self._parse_field(line.strip())

    def _parse_mc(self, path):
        for m in re.finditer(r"R500_MC_REG\((\w+),\s*(-?\w+),\s*(-?\w+)\)",
                             _strip(path)):
            idx = {}
            for key, val in (("RV515", m.group(2)), ("R520", m.group(3))):
                if int(val, 0) >= 0:
                    idx[key] = int(val, 0)
            self.mc[m.group(1)] = idx

    def _parse_models(self, path):
        for m in re.finditer(r"^R500_MODEL\(\w+,\s*(\w+),\s*(0x[0-9A-Fa-f]+),"
                             r"\s*\d+,\s*\d+,\s*\d+,\s*\w+,\s*(\w+),",
                             _strip(path), re.M):
            self.models[m.group(1)] = {"device_id": int(m.group(2), 16),
                                       "mc_map": m.group(3)}

    def field_mask(self, reg, field):
        if (reg, field) not in self.fields:
            raise KeyError("no field %s.%s in r500_regs.def" % (reg, field))
        shift, width = self.fields[(reg, field)]
        return ((1 << width) - 1) << shift

    def reg_name(self, byte_off):
        return self.names.get(byte_off)

    def mc_index(self, model, name):
        idx = self.mc.get(name, {}).get(self.models[model]["mc_map"])
        if idx is None:
            raise KeyError("MC register %s does not exist on %s" %
                           (name, model))
        return idx

    def mc_name(self, model, index):
        cmap = self.models[model]["mc_map"]
        for name, idx in self.mc.items():
            if idx.get(cmap) == index:
                return name
        return None

    def pll_name(self, index):
        for name, idx in self.pll.items():
            if idx == index:
                return name
        return None


# Where the chip's definitions and the AtomBIOS sources are in the source
# tree (QEMU's own tree has them in hw/display/r500 and roms/r500/atom:
# scripts/upstream-series.py rewrites these two lines).
CHIP_DIR = ("hw", "r500")
ATOM_DIR = ("roms", "atom")


def source_root():
    """The source tree this file lives in: the nearest directory above it
    with the chip's definitions."""
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, *CHIP_DIR, "models.def")):
        if d == os.path.dirname(d):
            raise SystemExit("no %s/models.def above %s" % (
                "/".join(CHIP_DIR), __file__))
        d = os.path.dirname(d)
    return d


def default_defs(root=None):
    """ChipDefs of the source tree (default: the one this file is in)."""
    root = root or source_root()
    return ChipDefs(os.path.join(root, *CHIP_DIR, "regs"),
                    os.path.join(root, *CHIP_DIR, "models.def"))
