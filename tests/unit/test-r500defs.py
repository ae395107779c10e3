#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Python reader of the register tables (roms/r500defs.py) reads them
as the C preprocessor does: registers of r500_3d_regs.def, which
r500_regs.def #includes, are there; so are the PCIE indices.  Expected
offsets are Mesa's r300_reg.h and Linux rv515d.h / radeon_reg.h values,
written here by hand.

    test-r500defs.py
"""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "roms"))
import r500defs     # noqa: E402


class ReaderTest(unittest.TestCase):
    def setUp(self):
        self.defs = r500defs.default_defs(ROOT)

    def test_included_3d_registers(self):
        regs = self.defs.regs
        # r300_reg.h R300_SE_VPORT_XSCALE, R300_RB3D_COLOROFFSET0,
        # R500_US_CONFIG, R300_ZB_CNTL
        self.assertEqual(regs["SE_VPORT_XSCALE"], 0x1D98)
        self.assertEqual(regs["RB3D_COLOROFFSET[0]"], 0x4E28)
        self.assertEqual(regs["US_CONFIG"], 0x4600)
        self.assertEqual(regs["ZB_CNTL"], 0x4F00)
        self.assertEqual(self.defs.reg_name(0x4F00), "ZB_CNTL")

    def test_main_table_still_read(self):
        # radeon_reg.h RADEON_CP_RB_WPTR, avivod.h D1GRPH_ENABLE, D2 = +0x800
        self.assertEqual(self.defs.regs["CP_RB_WPTR"], 0x0714)
        self.assertEqual(self.defs.regs["D1GRPH_ENABLE"], 0x6100)
        self.assertEqual(self.defs.regs["D2GRPH_ENABLE"], 0x6900)

    def test_pcie_indices(self):
        # rv370_pcie_gart: RADEON_PCIE_TX_GART_CNTL 0x10, _START_LO 0x14
        self.assertEqual(self.defs.pcie["PCIE_TX_GART_CNTL"], 0x10)
        self.assertEqual(self.defs.pcie["PCIE_TX_GART_START_LO"], 0x14)

    def test_field_values(self):
        # radeon_reg.h RADEON_GMC_BRUSH_SOLID_COLOR (13 << 4),
        # RADEON_PCIE_TX_GART_UNMAPPED_ACCESS_DISCARD (3 << 1)
        d = self.defs
        self.assertEqual(d.fields[("DP_GUI_MASTER_CNTL", "BRUSH_DATATYPE")],
                         (4, 4))
        self.assertEqual(d.values[("DP_GUI_MASTER_CNTL", "BRUSH_DATATYPE",
                                   "SOLID_COLOR")], 13)
        self.assertEqual(d.fields[("PCIE_TX_GART_CNTL", "UNMAPPED_ACCESS")],
                         (1, 2))
        self.assertEqual(d.values[("PCIE_TX_GART_CNTL", "UNMAPPED_ACCESS",
                                   "DISCARD")], 3)

    def test_include_relative_and_nested(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "sub"))
            with open(os.path.join(d, "a.def"), "w") as f:
                f.write('A /* x */\n#include "sub/b.def"\nC\n')
            with open(os.path.join(d, "sub", "b.def"), "w") as f:
                f.write('B\n#  include "c.def"\n')
            with open(os.path.join(d, "sub", "c.def"), "w") as f:
                f.write('D\n')
            text = r500defs.read_def(os.path.join(d, "a.def"))
            self.assertEqual(text.split(), ["A", "B", "D", "C"])
            with open(os.path.join(d, "sub", "c.def"), "w") as f:
                f.write('#include "c.def"\n')
            with self.assertRaises(ValueError):
                r500defs.read_def(os.path.join(d, "a.def"))


if __name__ == "__main__":
    unittest.main()
