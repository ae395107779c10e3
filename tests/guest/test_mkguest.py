#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkguest.py's reading of unpacked kernel and user packages, on synthetic
trees laid out as each Debian release lays them out: 11 and 12 with
top-level /lib and plain .ko files, 13 with merged /usr, xz-compressed
modules and modules built into the kernel (docs/guests.md)."""
import lzma
import os
import struct
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkdesktop  # noqa: E402
import mkguest  # noqa: E402


def module_elf(depends):
    """A minimal ELF64 with a .modinfo section naming depends."""
    modinfo = b"license=GPL\0depends=%s\0" % ",".join(depends).encode()
    shstr = b"\0.modinfo\0.shstrtab\0"
    body = modinfo + shstr
    shoff = 64 + len(body)
    hdr = bytearray(64)
    hdr[0:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<Q", hdr, 0x28, shoff)
    struct.pack_into("<HHH", hdr, 0x3A, 64, 3, 2)
    secs = b"".join(struct.pack("<IIQQQQIIQQ", name, 1, 0, 0, off, size,
                                0, 0, 1, 0)
                    for name, off, size in ((0, 0, 0),
                                            (1, 64, len(modinfo)),
                                            (10, 64 + len(modinfo),
                                             len(shstr))))
    return bytes(hdr) + body + secs


def put(root, rel, data, xz=False):
    path = os.path.join(root, rel + (".xz" if xz else ""))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(lzma.compress(data) if xz else data)


class Layouts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_merged_usr_paths(self):
        put(self.root, "usr/bin/busybox", b"bb")
        put(self.root, "usr/lib/firmware/radeon/R520_cp.bin", b"fw")
        self.assertEqual(mkguest.find_in_tree(self.root, "/bin/busybox"),
                         os.path.join(self.root, "usr/bin/busybox"))
        self.assertTrue(mkguest.find_in_tree(
            self.root, "/lib/firmware/radeon/R520_cp.bin"))
        # only the top-level directories moved under /usr
        self.assertIsNone(mkguest.find_in_tree(self.root, "/etc/busybox"))
        self.assertEqual(mkguest.find_dir(self.root, "/lib/firmware"),
                         os.path.join(self.root, "usr/lib/firmware"))

    def test_top_level_paths_win(self):
        put(self.root, "lib/firmware/a.bin", b"old")
        put(self.root, "usr/lib/firmware/a.bin", b"new")
        self.assertEqual(mkguest.find_in_tree(self.root, "/lib/firmware/a.bin"),
                         os.path.join(self.root, "lib/firmware/a.bin"))

    def test_symlink_into_usr(self):
        put(self.root, "usr/lib/x86_64-linux-gnu/libc.so.6", b"libc")
        os.makedirs(os.path.join(self.root, "usr/lib64"))
        os.symlink("/lib/x86_64-linux-gnu/libc.so.6",
                   os.path.join(self.root, "usr/lib64/ld.so"))
        self.assertEqual(mkguest.find_in_tree(self.root, "/lib64/ld.so"),
                         os.path.join(self.root, "usr/lib/x86_64-linux-gnu/libc.so.6"))

    def test_missing_dir(self):
        with self.assertRaises(mkguest.GuestError):
            mkguest.find_dir(self.root, "/lib/modules")

    def modules(self, xz, builtin=(), names=None):
        names = names or {"radeon": ["drm", "virtio_pci"], "drm": [],
                          "virtio_pci": [], "bochs": ["drm"]}
        moddir = os.path.join(self.root, "lib/modules/6.12.0")
        for name, deps in names.items():
            put(moddir, "kernel/drivers/%s.ko" % name.replace("_", "-"),
                module_elf(deps), xz=xz)
        with open(os.path.join(moddir, "modules.builtin"), "w") as f:
            f.writelines("kernel/drivers/%s.ko\n" % b for b in builtin)
        return moddir

    def test_plain_modules(self):
        moddir = self.modules(xz=False)
        out, paths = mkguest.module_closure(moddir, ["radeon"])
        self.assertEqual(out, [("radeon", ["drm", "virtio_pci", "radeon"])])
        self.assertEqual(mkguest.modinfo(paths["radeon"])["depends"],
                         "drm,virtio_pci")

    def test_xz_modules_and_builtin(self):
        names = {"radeon": ["drm"], "drm": []}
        moddir = self.modules(xz=True, builtin=["virtio-pci"], names=names)
        out, paths = mkguest.module_closure(moddir, ["radeon", "virtio_pci"])
        # virtio_pci is built in: nothing to load, and no error
        self.assertEqual(out, [("radeon", ["drm", "radeon"]),
                               ("virtio_pci", [])])
        self.assertTrue(paths["radeon"].endswith(".ko.xz"))
        self.assertEqual(mkguest.read_module(paths["drm"])[:4], b"\x7fELF")

    def test_missing_module_fails(self):
        moddir = self.modules(xz=False, names={"drm": []})
        with self.assertRaises(mkguest.GuestError):
            mkguest.module_closure(moddir, ["radeon"])

    def test_old_name(self):
        # Debian 11's 5.10 calls bochs' module bochs-drm
        moddir = self.modules(xz=False, names={"bochs_drm": ["drm"], "drm": []})
        out, _ = mkguest.module_closure(moddir, ["bochs"])
        self.assertEqual(out, [("bochs", ["drm", "bochs_drm"])])


class MergeUsr(unittest.TestCase):
    """mkdesktop.merge_usr on an unpacked Debian 13 desktop root."""
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_top_level_moves_under_usr(self):
        put(self.root, "usr/lib/x86_64-linux-gnu/libc.so.6", b"c")
        put(self.root, "usr/bin/Xorg", b"x")
        # a package that still ships under /lib, with a link to a directory
        put(self.root, "lib/udev/rules.d/60-drm.rules", b"r")
        os.symlink("udev/rules.d", os.path.join(self.root, "lib/rules"))
        os.symlink("udev/rules.d/60-drm.rules",
                   os.path.join(self.root, "lib/drm.rules"))
        mkdesktop.merge_usr(self.root)
        for d in ("bin", "lib"):
            self.assertEqual(os.readlink(os.path.join(self.root, d)),
                             "usr/" + d)
        self.assertTrue(os.path.isfile(os.path.join(
            self.root, "usr/lib/udev/rules.d/60-drm.rules")))
        # the links survive, and still resolve, through the merged path
        for link in ("lib/rules/60-drm.rules", "lib/drm.rules",
                     "usr/lib/rules/60-drm.rules"):
            self.assertTrue(os.path.isfile(os.path.join(self.root, link)),
                            link)

    def test_split_layout_kept(self):
        put(self.root, "usr/bin/Xorg", b"x")
        put(self.root, "bin/busybox", b"bb")
        mkdesktop.merge_usr(self.root)
        self.assertFalse(os.path.islink(os.path.join(self.root, "bin")))
        self.assertTrue(os.path.isfile(os.path.join(self.root, "bin/busybox")))


if __name__ == "__main__":
    unittest.main()
