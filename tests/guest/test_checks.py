#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest checks against synthetic transcripts and screendumps: each
check passes on what a healthy guest prints and fails when one fact is
wrong, so the checks that cannot run on the card yet are known to judge."""
import os
import struct
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
import checks_desktop  # noqa: E402,F401  (registers the desktop checks)


def edid_1024x768():
    """EDID 1.3 whose first detailed timing is VESA 1024x768@60."""
    e = bytearray(128)
    e[0:8] = b"\x00\xff\xff\xff\xff\xff\xff\x00"
    e[18], e[19] = 1, 3
    d = bytearray(18)
    struct.pack_into("<H", d, 0, 6500)              # 65 MHz
    d[2], d[3], d[4] = 1024 & 0xFF, 320 & 0xFF, (1024 >> 8) << 4 | 320 >> 8
    d[5], d[6], d[7] = 768 & 0xFF, 38, (768 >> 8) << 4
    e[54:72] = d
    e[127] = -sum(e[:127]) & 0xFF
    return e.hex()


def transcript(scenario="kms", extra=(), dmesg=(), connectors=None,
               shutdown=("[    9.40] radeon 0000:00:01.0: finishing device.",
                         "[    9.50] reboot: Power down")):
    edid = edid_1024x768()
    cons = connectors or {"VGA-1": edid, "DVI-D-1": edid}
    lines = ["[    0.000000] Linux version 6.1.0-57-amd64",
             "@@R500 INIT kernel=6.1.0-57-amd64 test=%s" % scenario,
             "@@R500 PCI 0000:00:01.0 vendor=0x1002 device=0x71c2 class=0x030000 "
             "subsystem=0x1af4:0x1100 revision=0x00 driver=radeon",
             "@@R500 PCI-BAR 0000:00:01.0 0 start=0x00000000e0000000 "
             "end=0x00000000efffffff flags=0x0000000000042208",
             "@@R500 PCI-BAR 0000:00:01.0 1 start=0x000000000000c000 "
             "end=0x000000000000c0ff flags=0x0000000000040101",
             "@@R500 PCI-BAR 0000:00:01.0 2 start=0x00000000febd0000 "
             "end=0x00000000febdffff flags=0x0000000000040200",
             "@@R500 PCI-BAR 0000:00:01.0 6 start=0x00000000000c0000 "
             "end=0x00000000000dffff flags=0x0000000000000212",
             "@@R500 MODULE drm rc=0 ms=200", "@@R500 MODULE radeon rc=0 ms=900",
             "@@R500 DRIVER radeon device=0000:00:01.0 bound=radeon"]
    for name, e in cons.items():
        lines.append("@@R500 CONNECTOR card0-%s status=%s enabled=enabled dpms=On "
                     "modes=1024x768,800x600, edid=%s" %
                     (name, "connected" if e else "disconnected", e))
    lines += ["@@R500 FB name=radeondrmfb virtual_size=1024,768 bpp=32 stride=4096",
              "@@R500 VTCON vtcon1 bind=1 name=(M) frame buffer device",
              "@@R500 TTY1 size=48x128"]
    lines += list(extra)
    lines += ["@@R500 TAINT 0", "@@R500 BEGIN dmesg",
              "[    0.000000] Linux version 6.1.0-57-amd64",
              "[    5.2] [drm] initializing kernel modesetting (RV530 0x1002:0x71C2 "
              "0x1AF4:0x1100 0x00).",
              "[    5.3] ATOM BIOS: R500",
              "[    5.4] [drm] Detected VRAM RAM=256M, BAR=256M",
              "[    5.4] [drm] radeon: 256M of VRAM memory ready",
              "[    5.5] [drm] PCIE GART of 512M enabled (table at 0x0000000000040000).",
              "[    5.6] [drm] radeon: irq initialized.",
              "[    5.6] [drm] Loading R500 Microcode",
              "[    5.7] [drm] ring test succeeded in 4 usecs",
              "[    5.7] [drm] ib test succeeded in 0 usecs",
              "[    6.0] fbcon: radeondrmfb (fb0) is primary device"] + list(dmesg)
    lines += ["@@R500 END dmesg rc=0", "@@R500 DONE %s uptime_ms=9000" % scenario]
    return "\n".join(lines + list(shutdown))


def write_ppm(path, w, h, paint):
    px = bytearray(w * h * 3)
    paint(px, w, h)
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h) + bytes(px))


def fill(px, w, x0, y0, x1, y1, c):
    for y in range(y0, y1):
        for x in range(x0, x1):
            px[(y * w + x) * 3:(y * w + x) * 3 + 3] = bytes(c)


def paint_console(px, w, h, broken=None):
    """fbcon at 8x16 cells: the test text, then the colour cells."""
    for i, ch in enumerate(checks.FBCON_TEXT):
        if ch != " " and i != broken:
            fill(px, w, i * 8 + 1, 3, i * 8 + 6, 13, checks.VGA_PALETTE[47])
    for i, code in enumerate(sorted(checks.VGA_PALETTE)):
        fill(px, w, i * 32, 32, i * 32 + 32, 48, checks.VGA_PALETTE[code])


def paint_log(px, w, h):
    """fbcon showing the kernel log: grey text rows."""
    for r in range(20):
        fill(px, w, 0, r * 16 + 4, 300, r * 16 + 6, checks.VGA_PALETTE[47])


def paint_smpte(px, w, h):
    for y in range(h * 6 // 9):
        for x in range(w):
            o = (y * w + x) * 3
            px[o:o + 3] = bytes(checks.SMPTE_TOP[x * 7 // w])


class Checks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def judge(self, text, scenario="kms", shots=None, have=checks.NEEDS_ALL,
              run=None):
        facts = {"shots": shots or {}, "status": ["running"], "exit_code": 0,
                 "resets": 0}
        facts.update(run or {})
        ctx = checks.Context("rv530", scenario, 256 << 20,
                             checks.parse_transcript(text), facts, have,
                             dict(checks.DEFAULT_CONNECTORS))
        return {n: (s, d) for n, s, d in checks.evaluate(ctx)}

    def shot(self, name, w, h, paint):
        path = os.path.join(self.tmp, name + ".ppm")
        write_ppm(path, w, h, paint)
        return path

    def test_edid(self):
        w, h, hz = checks.edid_preferred(edid_1024x768())
        self.assertEqual((w, h), (1024, 768))
        self.assertAlmostEqual(hz, 60.0, places=1)
        bad = bytearray.fromhex(edid_1024x768())
        bad[127] ^= 1
        self.assertIsNone(checks.edid_preferred(bad.hex()))

    def test_healthy_kms(self):
        shots = {(1, "fbcon"): self.shot("f", 1024, 768, paint_console),
                 (1, "console"): self.shot("c", 1024, 768, paint_log)}
        r = self.judge(transcript(), shots=shots)
        failed = {n: v for n, v in r.items() if v[0] != "PASS"}
        self.assertEqual(failed, {})
        self.assertIn("fbcon.screendump", r)

    def test_each_fact_matters(self):
        cases = {
            "pci.identity": transcript().replace("device=0x71c2", "device=0x7142"),
            "radeon.probe": transcript().replace("(RV530 ", "(RV515 "),
            "radeon.ring-test": transcript().replace("ring test succeeded", "ring x"),
            "radeon.accel": transcript(dmesg=["[ 7] radeon: Disabling GPU acceleration"]),
            "radeon.no-errors": transcript(dmesg=["[ 7] [drm] radeon: fence wait timed out"]),
            "kernel.clean": transcript(dmesg=["[ 7] WARNING: CPU: 0 PID: 1 at x"]),
            "connectors.hotplug": transcript(connectors={"VGA-1": edid_1024x768(),
                                                         "DVI-D-1": ""}),
            "fbcon.mode": transcript().replace("virtual_size=1024,768",
                                               "virtual_size=800,600"),
            "pci.bars": transcript().replace("end=0x00000000efffffff",
                                             "end=0x00000000e7ffffff"),
        }
        cases["kernel.shutdown"] = transcript(shutdown=["[ 9.2] WARNING: CPU: 0 PID: 1 at x",
                                                        "[ 9.5] reboot: Power down"])
        cases["kernel.shutdown "] = transcript(shutdown=["[ 30.5] reboot: Power down"])
        cases["kernel.shutdown  "] = transcript(shutdown=["[ 9.2] radeon: fence timed out"])
        for name, text in cases.items():
            with self.subTest(name):
                self.assertEqual(self.judge(text)[name.strip()][0], "FAIL")

    def test_printk_inside_a_marker_line(self):
        # a kernel message written between /init's text and its newline
        text = transcript().replace(
            "flags=0x0000000000040200",
            "flags=0x0000000000040200[    2.177950] tsc: Refined TSC "
            "clocksource calibration: 2299.980 MHz")
        self.assertNotEqual(text, transcript())
        r = self.judge(text)
        self.assertEqual(r["pci.bars"][0], "PASS")
        boot = checks.parse_transcript(text)[0]
        self.assertTrue(any(l.startswith("[    2.177950] tsc:")
                            for l in boot.lines))

    def test_console_text(self):
        r = self.judge(transcript(), shots={(1, "console"): self.shot("c", 1024, 768, paint_log)})
        self.assertEqual(r["fbcon.console"][0], "PASS")
        blank = self.shot("b", 1024, 768, lambda *a: None)
        r = self.judge(transcript(), shots={(1, "console"): blank})
        self.assertEqual(r["fbcon.console"][0], "FAIL")

    def test_screendump_glyphs_and_colours(self):
        good = self.shot("f", 1024, 768, paint_console)
        missing = self.shot("m", 1024, 768, lambda p, w, h: paint_console(p, w, h, 2))
        self.assertEqual(self.judge(transcript(), shots={(1, "fbcon"): good})
                         ["fbcon.screendump"][0], "PASS")
        self.assertEqual(self.judge(transcript(), shots={(1, "fbcon"): missing})
                         ["fbcon.screendump"][0], "FAIL")
        shifted = self.shot("s", 1024, 768, lambda p, w, h: (
            paint_console(p, w, h), fill(p, w, 64, 32, 96, 48, (0, 0, 0))))
        self.assertEqual(self.judge(transcript(), shots={(1, "fbcon"): shifted})
                         ["fbcon.screendump"][0], "FAIL")

    def test_needs_turn_fail_into_skip(self):
        r = self.judge(transcript().replace("ring test succeeded", "x"), have=["atombios"])
        self.assertEqual(r["radeon.ring-test"][0], "SKIP")
        self.assertIn("needs cp", r["radeon.ring-test"][1])
        self.assertEqual(r["radeon.atombios"][0], "PASS")

    def modetest_text(self, rate="60.00", flips=("59.9", "60.0", "60.0")):
        extra = []
        for con in ("VGA-1", "DVI-D-1"):
            for mode in ("1024x768", "800x600"):
                extra += ["@@R500 BEGIN modetest-%s-%s" % (con, mode),
                          "setting mode %s-%sHz on connectors 37, crtc 35" % (mode, rate),
                          "@@R500 END modetest-%s-%s rc=0" % (con, mode)]
            extra += ["@@R500 BEGIN modetest-%s-flip" % con,
                      "setting mode 1024x768-%sHz on connectors 37, crtc 35" % rate]
            extra += ["freq: %sHz" % f for f in flips]
            extra += ["@@R500 END modetest-%s-flip rc=0" % con]
        return transcript("modetest", extra)

    def test_modetest(self):
        shots = {}
        for con in ("VGA-1", "DVI-D-1"):
            for mode in ("1024x768", "800x600"):
                w, h = (int(x) for x in mode.split("x"))
                shots[(1, "modetest-%s-%s" % (con, mode))] = self.shot(
                    con + mode, w, h, paint_smpte)
        r = self.judge(self.modetest_text(), "modetest", shots)
        self.assertEqual(r["modetest.modes"][0], "PASS", r["modetest.modes"])
        self.assertEqual(r["modetest.pageflip"][0], "PASS", r["modetest.pageflip"])
        slow = self.judge(self.modetest_text(flips=("60", "30.1", "30.0")), "modetest", shots)
        self.assertEqual(slow["modetest.pageflip"][0], "FAIL")
        shots[(1, "modetest-VGA-1-800x600")] = self.shot("x", 800, 600, lambda *a: None)
        self.assertEqual(self.judge(self.modetest_text(), "modetest", shots)
                         ["modetest.modes"][0], "FAIL")

    def vbl_text(self, counts):
        extra = []
        for crtc, (c0, c1, f) in enumerate(counts):
            extra += ["@@R500 VBL crtc=%d t0_ms=10000" % crtc,
                      "@@R500 BEGIN vbltest-%d" % crtc, "starting count: %d" % c0,
                      "freq: %.2fHz" % f, "freq: %.2fHz" % f,
                      "@@R500 END vbltest-%d rc=0" % crtc,
                      "@@R500 VBL crtc=%d t1_ms=16100" % crtc,
                      "@@R500 BEGIN vbltest-%d-end" % crtc, "starting count: %d" % c1,
                      "@@R500 END vbltest-%d-end rc=0" % crtc]
        return transcript("vbltest", extra)

    def test_vbltest(self):
        ok = self.judge(self.vbl_text([(100, 466, 59.9), (7, 373, 60.0)]), "vbltest")
        self.assertEqual(ok["vbltest.rate"][0], "PASS", ok["vbltest.rate"])
        stuck = self.judge(self.vbl_text([(100, 466, 59.9), (7, 7, 60.0)]), "vbltest")
        self.assertEqual(stuck["vbltest.rate"][0], "FAIL")
        slow = self.judge(self.vbl_text([(100, 283, 30.0), (7, 190, 30.0)]), "vbltest")
        self.assertEqual(slow["vbltest.rate"][0], "FAIL")

    def test_blit(self):
        moved = ["[ 9] [drm] Tested GTT->VRAM and VRAM->GTT copy for GTT offset 0x%x"
                 % (i << 20) for i in range(509)]
        self.assertEqual(self.judge(transcript("blit", dmesg=moved), "blit")
                         ["blit.moves"][0], "PASS")
        warn = ["[ 9.1] ------------[ cut here ]------------",
                "[ 9.1] WARNING: CPU: 0 PID: 491 at include/drm/ttm/ttm_resource.h:313 "
                "ttm_range_man_fini_nocheck+0xdc/0x100 [ttm]",
                "[ 9.1] Call Trace:", "[ 9.1]  radeon_ttm_fini+0xba/0xf0 [radeon]",
                "[ 9.1] ---[ end trace 0000000000000000 ]---", "[ 9.2] reboot: Power down"]
        r = self.judge(transcript("blit", dmesg=moved, shutdown=warn), "blit")
        self.assertEqual(r["kernel.shutdown"][0], "PASS", r["kernel.shutdown"])
        other = [w.replace("radeon_ttm_fini", "radeon_fence_fini") for w in warn]
        r = self.judge(transcript("blit", dmesg=moved, shutdown=other), "blit")
        self.assertEqual(r["kernel.shutdown"][0], "FAIL")
        r = self.judge(transcript("kms", shutdown=warn))
        self.assertEqual(r["kernel.shutdown"][0], "FAIL")
        wrong = moved[:100] + ["[ 9] [drm:radeon_test_moves] *ERROR* Incorrect "
                               "GTT->VRAM copy 100: Got 0x0"]
        self.assertEqual(self.judge(transcript("blit", dmesg=wrong), "blit")
                         ["blit.moves"][0], "FAIL")

    def desktop_text(self, fps_ms=35000, renderer="ATI RV530", xerr=(),
                     kills=("yes",) * 3, dmesg=(), soft="llvmpipe (LLVM 15.0.6, 256 bits)",
                     glmark=("build", "texture", "shading", "effect2d"), glmark_rc=0,
                     noaccel=True, compositor=("yes", "yes")):
        xlog = ['[    50.1] (--) RADEON(0): Chipset: "ATI Radeon X1600" (ChipID = 0x71c2)',
                "[    50.2] (II) EXA(0): Driver registered support for the following operations:",
                "[    50.3] (II) RADEON(0): [DRI2] Setup complete",
                "[    50.4] (II) GLX: Initialized DRI2 GL provider for screen 0",
                "[    50.5] (EE) dbus-core: error connecting to system bus: x",
                '[    50.5] (EE) Failed to load module "fbdev" (module does not exist, 0)',
                "\t(WW) warning, (EE) error, (NI) not implemented, (??) unknown."]
        # the reference: the DDX on X's software path
        reflog = [l for l in xlog if "EXA(0)" not in l and "DRI2" not in l]
        reflog.append('[    60.1] (**) RADEON(0): Option "NoAccel" "true"' if noaccel
                      else xlog[1])
        extra = ["@@R500 ROOT /dev/vda mounted=yes", "@@R500 KMSCUBE t0_ms=10000",
                 "@@R500 BEGIN kmscube", '  renderer: "%s"' % renderer,
                 "Rendered 119 frames in 30.0 sec (3.9 fps)", "@@R500 END kmscube rc=0",
                 "@@R500 KMSCUBE t1_ms=%d" % (10000 + fps_ms),
                 "@@R500 BEGIN glmark2", "    GL_RENDERER:   %s" % renderer]
        extra += ["[%s] <default>: FPS: %d FrameTime: 100.000 ms" % (sc, 10 - i)
                  for i, sc in enumerate(glmark)]
        extra += ["                                  glmark2 Score: 8",
                  "@@R500 END glmark2 rc=%d" % glmark_rc,
                 "@@R500 STEP xorg", "@@R500 XSTART card up=yes ms=900",
                 "@@R500 BEGIN glxinfo", "direct rendering: Yes",
                 "    Accelerated: yes",
                 "OpenGL renderer string: %s (DRM 2.50.0)" % renderer,
                 "@@R500 END glxinfo rc=0", "@@R500 BEGIN glxgears",
                 "61 frames in 5.0 seconds = 12.2 FPS", "@@R500 END glxgears rc=137"]
        extra += ["@@R500 BEGIN renderer-glx-soft",
                  "OpenGL renderer string: llvmpipe (LLVM 15.0.6, 256 bits)",
                  "@@R500 END renderer-glx-soft rc=0",
                  "@@R500 BEGIN renderer-egl-card", "GL_RENDERER: %s" % renderer,
                  "@@R500 END renderer-egl-card rc=0",
                  "@@R500 BEGIN renderer-egl-soft", "GL_RENDERER: %s" % soft,
                  "@@R500 END renderer-egl-soft rc=0"]
        for prog in ("es2tri", "glxdemo"):
            for tag in ("card", "soft"):
                extra += ["@@R500 BEGIN %s-%s" % (prog, tag), "@@R500 END %s-%s rc=143" % (prog, tag)]
        extra += ["@@R500 BEGIN xorg-card-log"] + xlog + list(xerr) + ["@@R500 END xorg-card-log rc=0",
                  "@@R500 XSTART ref up=yes ms=800",
                  "@@R500 BEGIN xorg-ref-log"] + reflog + ["@@R500 END xorg-ref-log rc=0"]
        extra += ["@@R500 COMPOSITOR alive=%s" % c for c in compositor]
        extra += ["@@R500 KMSKILL n=%d delay_us=0 flipping=%s alive=yes uptime_ms=1" % (i, k)
                  for i, k in enumerate(kills)]
        return transcript("desktop", extra, dmesg)

    def desktop_shots(self, card_off=0, tiled=False, black=False):
        self.nshots = getattr(self, "nshots", 0) + 1
        n = self.nshots

        def shot(name, *a):
            return self.shot("%d-%s" % (n, name), *a)

        def grey_cube(px, w, h):
            fill(px, w, 0, 0, w, h, (128, 128, 128))
            for x in range(w // 4, 3 * w // 4):
                fill(px, w, x, h // 4, x + 1, 3 * h // 4, (x * 4 % 256, 40, 200))

        def desk(px, w, h, stripe=False):
            fill(px, w, 4, 4, 40, 20, (255, 255, 255))
            if stripe:
                fill(px, w, 4, 8, 40, 10, (0, 0, 0))

        def tri(off):
            def paint(px, w, h):
                desk(px, w, h)      # the reference desktop under the window
                if black:           # a window before its first frame
                    fill(px, w, 10, 18, 50, 42, (0, 0, 0))
                    return
                for y in range(20, 40):
                    fill(px, w, 30 - (y - 20), y, 30 + (y - 20), y + 1,
                         (min(255, y * 6 + off), 100, 50))
            return paint
        shots = {(1, "kmscube"): shot("kms", 64, 48, grey_cube),
                 (1, "desktop"): shot("d", 64, 48, lambda px, w, h: desk(px, w, h, tiled)),
                 (1, "desktop-ref"): shot("dr", 64, 48, desk)}
        for prog in ("es2tri", "glxdemo"):
            shots[(1, prog + "-soft")] = shot(prog + "s", 64, 48, tri(0))
            shots[(1, prog + "-card")] = shot(prog + "c", 64, 48, tri(card_off))
        return shots

    def test_desktop(self):
        names = ["desktop.root", "kmscube.frames", "glmark2.scenes", "desktop.compositor",
                 "xorg.radeon", "xorg.reference",
                 "glx.renderer", "glxgears.runs", "gl.still-es2tri", "gl.still-glxdemo"]
        r = self.judge(self.desktop_text(), "desktop", self.desktop_shots())
        for n in names + ["kernel.clean", "guest.done"]:
            self.assertEqual(r[n][0], "PASS", (n, r[n]))
        # killing flipping kmscubes needs 'flip': without it, judged but
        # not counted
        flip = checks.NEEDS_ALL
        self.assertIn("flip", flip)
        noflip = tuple(h for h in checks.NEEDS_ALL if h != "flip")
        r = self.judge(self.desktop_text(), "desktop", self.desktop_shots(), flip)
        rn = self.judge(self.desktop_text(), "desktop", self.desktop_shots(), noflip)
        for n in ("kmscube.kill-flipping", "kmscube.screendump"):
            self.assertEqual(rn[n][0], "SKIP")
            self.assertIn("today: pass", rn[n][1])
            self.assertEqual(r[n][0], "PASS", (n, r[n]))
        # the tiled desktop against the linear one
        self.assertEqual(r["desktop.correct"][0], "PASS", r["desktop.correct"])
        tiled = self.desktop_shots(tiled=True)
        have = checks.NEEDS_ALL + ("tiling",)
        self.assertEqual(self.judge(self.desktop_text(), "desktop", tiled, have)
                         ["desktop.correct"][0], "FAIL")
        self.assertEqual(self.judge(self.desktop_text(), "desktop", self.desktop_shots(), have)
                         ["desktop.correct"][0], "PASS")
        for text, shots, name in (
                (self.desktop_text(fps_ms=1500), None, "kmscube.frames"),
                (self.desktop_text(renderer="llvmpipe (LLVM 15.0.6, 256 bits)"), None,
                 "kmscube.frames"),
                (self.desktop_text(renderer="llvmpipe (LLVM 15.0.6, 256 bits)"), None,
                 "glx.renderer"),
                (self.desktop_text(xerr=["[    51.0] (EE) RADEON(0): failed to set mode"]),
                 None, "xorg.radeon"),
                (self.desktop_text(kills=("yes", "no", "yes")), None,
                 "kmscube.kill-flipping"),
                (self.desktop_text(dmesg=["[   90.1] BUG: kernel NULL pointer dereference, "
                                          "address: 0000000000000000",
                                          "[   90.1] RIP: 0010:rs600_page_flip+0x2a/0x90 [radeon]"]),
                 None, "kmscube.kill-flipping"),
                (self.desktop_text(glmark=("build", "texture", "shading")), None,
                 "glmark2.scenes"),
                (self.desktop_text(glmark_rc=139), None, "glmark2.scenes"),
                (self.desktop_text(noaccel=False), None, "xorg.reference"),
                (self.desktop_text(compositor=("yes", "no")), None, "desktop.compositor"),
                (self.desktop_text(compositor=("yes",)), None, "desktop.compositor"),
                (self.desktop_text(renderer="llvmpipe (LLVM 15.0.6, 256 bits)"), None,
                 "glmark2.scenes"),
                (self.desktop_text(soft="ATI RV530"), None, "gl.still-es2tri"),
                (self.desktop_text(), self.desktop_shots(black=True), "gl.still-glxdemo"),
                (self.desktop_text(), self.desktop_shots(card_off=40), "gl.still-es2tri")):
            got = self.judge(text, "desktop", shots or self.desktop_shots(), flip)[name]
            self.assertEqual(got[0], "FAIL", (name, got))

    def reset_text(self, succeeded=True, after=3, gears=True, lockup=True,
                   soft_reset=True, warns=()):
        """The gpureset scenario: a debugfs reset, then a lockup, under X
        and glxgears."""
        kms = ['renderer: "ATI RV530"', "Using modifier ..."]
        rate = "%d frames in 5.0 seconds = 12.6 FPS" % (63 if gears else 0)
        extra = ["@@R500 ROOT /dev/vda mounted=yes",
                 "@@R500 XSTART reset up=yes ms=460",
                 "@@R500 RESET how=debugfs resets=0 ib_tests_before=1 "
                 "ib_tests_after=2 ms=31240 gears_reports_before=1 "
                 "gears_reports_after=3",
                 "@@R500 RESET how=lockup resets=1 ib_tests_before=2 "
                 "ib_tests_after=%d ms=33060 gears_reports_before=3 "
                 "gears_reports_after=5" % after,
                 "@@R500 BEGIN glxgears-through-resets",
                 "Running synchronized to the vertical refresh.",
                 "63 frames in 5.0 seconds = 12.6 FPS"] + [rate] * 4 + [
                 "@@R500 END glxgears-through-resets rc=0",
                 "@@R500 BEGIN kmscube-after-reset"] + kms + [
                 "@@R500 END kmscube-after-reset rc=0"]
        dev = "[   %s] radeon 0000:00:01.0: "
        dmesg = ["[   40.1] [drm] ib test succeeded in 0 usecs",
                 dev % "54.7" + "GPU reset succeeded, trying to resume",
                 "[   54.9] [drm] ib test succeeded in 0 usecs"]
        if lockup:
            dmesg += [dev % "71.1" + "ring 0 stalled for more than 10076msec",
                      dev % "71.1" + "GPU lockup (current fence id "
                      "0x00000000000004e8 last fence id 0x00000000000004eb on "
                      "ring 0)"]
        if soft_reset:
            dmesg += [dev % "91.7" + "(rs600_asic_reset:476) "
                      "RBBM_STATUS=0x80010040",
                      dev % "93.2" + "GPU reset succeed"]
        if succeeded:
            dmesg += [dev % "93.3" + "GPU reset succeeded, trying to resume",
                      "[   93.4] [drm] ib test succeeded in 0 usecs"]
        else:
            dmesg += [dev % "93.3" + "GPU reset failed"]
        for w in warns:
            dmesg += ["[   99.4] ------------[ cut here ]------------",
                      "[   99.4] WARNING: CPU: 0 PID: 752 at somewhere",
                      "[   99.4] Call Trace:"] + \
                     ["[   99.4]  %s+0x1a/0x30 [radeon]" % f for f in w] + \
                     ["[   99.4] ---[ end trace 0000000000000000 ]---"]
        return transcript("gpureset", extra=extra, dmesg=dmesg)

    def test_gpu_reset(self):
        shots = {(1, "fbcon-after-reset"): self.shot("r", 1024, 768, paint_console)}
        names = ("reset.debugfs", "reset.lockup", "reset.x-through",
                 "reset.gl-after", "reset.fbcon", "radeon.no-errors",
                 "kernel.clean")
        # the guest kernel's own WARNs on any R500 (checks.KNOWN_WARNS)
        known = (("ttm_bo_unpin", "radeon_gart_table_vram_unpin",
                  "rv515_resume", "radeon_gpu_reset"),
                 ("ttm_bo_release", "radeon_bo_unref",
                  "radeon_gem_object_free"))
        r = self.judge(self.reset_text(warns=known), "gpureset", shots)
        for n in names:
            self.assertEqual(r[n][0], "PASS", (n, r[n]))
        self.assertIn("2 known upstream WARN", r["kernel.clean"][1])
        for text, name in ((self.reset_text(succeeded=False), "reset.lockup"),
                           (self.reset_text(succeeded=False), "radeon.no-errors"),
                           (self.reset_text(after=2), "reset.lockup"),
                           (self.reset_text(lockup=False), "reset.lockup"),
                           (self.reset_text(soft_reset=False), "reset.lockup"),
                           (self.reset_text(gears=False), "reset.x-through"),
                           (self.reset_text(warns=[("ttm_bo_release",
                                                    "radeon_fence_wait")]),
                            "kernel.clean"),
                           (self.reset_text().replace("how=debugfs", "how=x"),
                            "reset.debugfs")):
            got = self.judge(text, "gpureset", shots)[name]
            self.assertEqual(got[0], "FAIL", (name, got))
        blank = {(1, "fbcon-after-reset"): self.shot("rb", 1024, 768,
                                                     lambda *a: None)}
        self.assertEqual(self.judge(self.reset_text(), "gpureset", blank)
                         ["reset.fbcon"][0], "FAIL")
        # the resets' own lines are no driver error there, and are
        # elsewhere; the known WARNs are bad elsewhere too
        other = self.reset_text(warns=known).replace("test=gpureset",
                                                     "test=kms")
        r = self.judge(other, "kms")
        self.assertEqual(r["radeon.no-errors"][0], "FAIL")
        self.assertEqual(r["kernel.clean"][0], "FAIL")

    def test_reboot(self):
        boot = transcript("reboot")
        b1 = boot.replace("@@R500 DONE reboot", "@@R500 REBOOTING").replace(
            "Power down", "Restarting system")
        b2 = boot.replace("@@R500 DONE reboot uptime_ms=9000", "@@R500 SYNC reset").split(
            "\n[    9.40]")[0]
        run = {"resets": 1, "status": ["running"] * 3}
        r = self.judge("\n".join([b1, b2, boot]), "reboot", run=run)
        self.assertEqual(r["reboot.boots"][0], "PASS", r["reboot.boots"])
        self.assertEqual(r["guest.done@boot2"][0], "PASS")
        self.assertEqual(r["kernel.shutdown@boot1"][0], "PASS", r["kernel.shutdown@boot1"])
        self.assertEqual(r["kernel.shutdown@boot2"][0], "SKIP")
        r = self.judge("\n".join([b1, b1, boot]), "reboot", run=run)
        self.assertEqual(r["guest.done@boot2"][0], "FAIL")
        r = self.judge("\n".join([b1, b2]), "reboot", run=run)
        self.assertEqual(r["reboot.boots"][0], "FAIL")


class Sections(unittest.TestCase):
    """A program the guest's release does not package is a SKIP with the
    reason; a program that fails is not."""

    class B:
        def __init__(self, lines, rc):
            self.sections = {"glmark2": (lines, rc)}

    def test_absent_program_skips(self):
        b = self.B(["env: can't execute 'glmark2-es2-drm': No such file or "
                    "directory"], 127)
        with self.assertRaises(checks.Skip) as e:
            checks_desktop.section_ok(b, "glmark2")
        self.assertIn("glmark2-es2-drm", str(e.exception))

    def test_failing_program_does_not_skip(self):
        lines = ["glmark2: error: no suitable GL config"]
        self.assertEqual(checks_desktop.section_ok(self.B(lines, 1), "glmark2"),
                         (lines, 1))
        # rc 127 alone (a shell's "not found" of something else) is no skip
        self.assertEqual(checks_desktop.section_ok(self.B(lines, 127), "glmark2"),
                         (lines, 127))


if __name__ == "__main__":
    unittest.main()
