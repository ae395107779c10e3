# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of the desktop scenario (docs/guests.md, "The desktop guest"):
kmscube on the card, a kmscube killed while it flips, X.org with the radeon
DDX's defaults (EXA, DRI2), Mesa r300 through GLX, GL still scenes on the
card compared with the same scenes on llvmpipe, and the X desktop compared
with the same desktop on a linear (ColorTiling off) front buffer.

Registered into checks.CHECKS on import (run.py imports it).
"""
import importlib.util
import os
import re

import checks
from checks import Fail, Skip, check, grep, need, shot_for

QMP_SLOW = 5.0      # seconds a monitor answer may take (run.py QMP_SLOW_S)

HERE = os.path.dirname(os.path.abspath(__file__))
D = ("desktop",)


def _mesa_harness():
    """tests/mesa/run.py: its image comparison and tolerance are the ones
    this check uses (one definition of "the same image")."""
    path = os.path.join(os.path.dirname(HERE), "mesa", "run.py")
    spec = importlib.util.spec_from_file_location("r500_mesa_run", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MESA = _mesa_harness()


def rgba(img):
    w, h, px = img
    out = bytearray(w * h * 4)
    for c in range(3):
        out[c::4] = px[c::3]
    out[3::4] = b"\xff" * (w * h)
    return bytes(out)


def same_image(ctx, name, got, ref, tol=None, png=True):
    """(matches, detail): the Mesa harness's rule, a pixel matches when
    every channel is within tol, the image when at most frac of the
    pixels drawn (not the common background) do not; PNGs of both (and
    the difference) land in OUT."""
    tol, frac = tol or MESA.TOLERANCE_DEFAULT
    need(got[:2] == ref[:2], "%s: %dx%d against a %dx%d reference" % (
        name, got[0], got[1], ref[0], ref[1]))
    w, h = got[:2]
    a, b = rgba(ref), rgba(got)
    bad, worst, diff, drawn = MESA.compare(a, b, tol)
    out = ctx.run.get("out")
    if out and png:
        MESA.write_png(os.path.join(out, name + ".png"), w, h, b)
        MESA.write_png(os.path.join(out, name + "-ref.png"), w, h, a)
        if bad > frac * drawn:
            MESA.write_png(os.path.join(out, name + "-diff.png"), w, h, diff)
    return bad <= frac * drawn, "%d of %d drawn pixels beyond %d/255 (allowed " \
        "%.0f %%), worst %d" % (bad, drawn, tol, frac * 100, worst)


def section_ok(b, name):
    lines, rc = b.sections.get(name, (None, None))
    need(lines is not None, "no '%s' output (the step did not run)" % name)
    # A program the guest's release does not package (mkdesktop.py
    # OPTIONAL: Debian 11 has no glmark2): busybox env's exit 127.
    gone = [m.group(1) for m in (re.search(r"can't execute '([^']+)': No such "
                                           r"file", l) for l in lines) if m]
    if rc == 127 and gone:
        raise Skip("%s is not packaged by the guest's release" % gone[0])
    return lines, rc


@check("desktop.root", scenarios=D)
def c_root(ctx, b):
    r = b.first("ROOT")
    need(r is not None, "/init did not mount the desktop image (no r500.root=?)")
    need("mounted=yes" in r, "the desktop image did not mount: " + r)
    return r


@check("board.map-changes", scenarios=D, per_boot=False)
def c_map_changes(ctx, _):
    """Under TCG the board changes the memory map (the spans the GL
    renderer keeps on the host, the tiled windows) only with every vCPU
    stopped (hw/r500/qemu/r500_hold.c; r500_hold_apply() asserts it, and
    qemu.exit fails on the assertion).  Here: that path ran."""
    st = ctx.run.get("stats")
    need(isinstance(st, dict) and "board-map-deferred" in st,
         "no card counters from QMP at the end: %s" % st)
    if st.get("render-gl-held", 0) == 0:
        raise Skip("the GL renderer held nothing on the host (renderer %s)"
                   % ("gl" if st.get("render-gl-draws") else "soft"))
    need(st["board-map-deferred"] > 0,
         "the renderer held %d surfaces, yet no memory-map change was "
         "left for the stopped vCPUs" % st["render-gl-held"])
    return "%d holds, %d map changes made with the vCPUs stopped, %d " \
        "trapped accesses" % (st["render-gl-held"], st["board-map-deferred"],
                              st.get("board-held-traps", 0))


@check("kmscube.frames", needs=("atombios", "cp", "display"), scenarios=D)
def c_kmscube(ctx, b):
    lines, rc = section_ok(b, "kmscube")
    text = "\n".join(lines)
    m = re.search(r'renderer: "([^"]*)"', text)
    need(m, "kmscube printed no GLES renderer")
    # Mesa r300's renderer string names the chip family (r300_screen.c)
    need("ATI " + ctx.family in m.group(1), "renderer %r, not the card's "
         "r300 driver (ATI %s)" % (m.group(1), ctx.family))
    need(rc == 0, "kmscube -c 120 exited %s: %s" % (rc, lines[-3:]))
    t = [checks.kv_pairs(e) for e in b.event("KMSCUBE")]
    secs = (int(t[1]["t1_ms"]) - int(t[0]["t0_ms"])) / 1000
    # Each frame waits for its page flip, one per vblank: 120 frames take
    # at least two seconds at 60 Hz whatever the renderer's speed.
    need(secs >= 120 / 61, "120 flipped frames in %.1f s: faster than the "
         "display's 60 Hz, the flips do not wait for vblank" % secs)
    return "%s, 120 frames in %.1f s (%.1f fps)" % (m.group(1), secs, 120 / secs)


GLMARK2_SCENES = ("build", "texture", "shading", "effect2d")


@check("glmark2.scenes", needs=("atombios", "cp", "display"), scenarios=D)
def c_glmark2(ctx, b):
    lines, rc = section_ok(b, "glmark2")
    text = "\n".join(lines)
    m = re.search(r"GL_RENDERER:\s*(.*)", text)
    need(m and "ATI " + ctx.family in m.group(1), "glmark2 did not run on "
         "the card's r300 driver: %s" % (m.group(1) if m else lines[-3:]))
    fps = {}
    for scene, f in re.findall(r"^\[(\w+)\].*FPS: (\d+)", text, re.M):
        fps.setdefault(scene, int(f))
    missing = [s for s in GLMARK2_SCENES if s not in fps]
    need(not missing, "glmark2 scenes without a result: %s (%s)" % (
         missing, lines[-3:]))
    need(all(fps[s] > 0 for s in GLMARK2_SCENES), "a scene drew no frame: "
         "%s" % fps)
    score = re.search(r"glmark2 Score: (\d+)", text)
    need(score and rc == 0, "glmark2 did not finish (rc %s): %s" % (
         rc, lines[-3:]))
    return "score %s; %s" % (score.group(1), ", ".join(
        "%s %d fps" % (s, fps[s]) for s in GLMARK2_SCENES))


# The screendump is taken while the first kmscube of the kill step flips.
@check("kmscube.screendump", needs=("atombios", "cp", "display", "flip"),
       scenarios=D)
def c_kmsshot(ctx, b):
    w, h, px = img = shot_for(ctx, b, "kmscube")
    # kmscube's smooth mode clears to (0.5, 0.5, 0.5) and draws the cube
    # with per-vertex colours in the middle of the screen.
    corner = checks.region_share(img, 0, 0, w // 8, h // 8, (128, 128, 128), 3)
    need(corner > 0.95, "the corner is not kmscube's grey clear colour "
         "(%.0f %%)" % (corner * 100))
    cx = px[(h // 2 * w + w // 4) * 3:(h // 2 * w + 3 * w // 4) * 3]
    colours = {cx[i:i + 3] for i in range(0, len(cx), 3)}
    need(len(colours) > 30, "the middle row has %d colours: no smooth-shaded "
         "cube" % len(colours))
    return "grey clear, %d colours across the cube" % len(colours)


@check("kmscube.kill-flipping", needs=("atombios", "cp", "display", "flip"),
       scenarios=D)
def c_kill(ctx, b):
    kills = b.kv("KMSKILL")
    need(len(kills) == 3, "%d of 3 kmscube kills happened" % len(kills))
    need(all(k.get("flipping") == "yes" for k in kills),
         "kmscube was not seen flipping before the kill: %s" % kills)
    need(all(k.get("alive") == "yes" for k in kills),
         "kmscube had already exited when killed: %s" % kills)
    stuck = [e for e in b.event("STUCK") if e.startswith("kmscube")]
    need(not stuck, "a killed kmscube did not die: %s" % stuck)
    log, src = b.kernel_log()
    bad = [l for p in checks.KERNEL_BAD + [r"flip queue", r"page_flip"]
           for l in grep(log, p)]
    need(not bad, "%s: %s" % (src, bad[0].strip() if bad else ""))
    need(b.event("DONE"), "the guest did not get past the kills")
    return "3 kmscubes killed while flipping; no oops, the guest went on"


XLOG_BAD = [r"^\[\s*[\d.]+\] \(EE\)", r"GPU lockup", r"Fatal server error",
            r"Segmentation", r"Backtrace"]
# Errors of the environment, not of the card: the guest runs no D-Bus, and
# the image has only the radeon and modesetting drivers of the list X's
# autoconfiguration tries for an ATI card (ati, modesetting, fbdev, vesa).
XLOG_BENIGN = [r"dbus-core: error connecting to system bus",
               r'Failed to load module "(ati|fbdev|vesa)" \(module does not exist']


def xorg_errors(log):
    return [l for p in XLOG_BAD for l in grep(log, p)
            if not any(re.search(b, l) for b in XLOG_BENIGN)]


def xorg_log(b, tag):
    lines, _ = section_ok(b, "xorg-%s-log" % tag)
    return lines


@check("xorg.radeon", needs=("atombios", "cp", "display"), scenarios=D)
def c_xorg(ctx, b):
    st = [e for e in b.event("XSTART") if e.startswith("card ")]
    need(st and "up=yes" in st[0], "Xorg did not start: %s" % st)
    stuck = b.event("STUCK")
    need(not stuck, "a process did not end when killed: %s" % stuck)
    log = xorg_log(b, "card")
    need(not grep(log, r"Using config file"), "Xorg read a config file")
    for pat, what in ((r"RADEON\(0\): .*Chipset: \"ATI ", "the radeon DDX"),
                      (r"EXA\(0\): Driver registered support", "EXA"),
                      (r"RADEON\(0\): \[DRI2\] Setup complete", "DRI2"),
                      (r"GLX: Initialized DRI2 GL provider", "GLX over DRI2")):
        need(grep(log, pat), "the Xorg log lacks %s (%s)" % (what, pat))
    bad = xorg_errors(log)
    need(not bad, "Xorg: " + (bad[0].strip() if bad else ""))
    ms = checks.kv_pairs(st[0]).get("ms")
    return "radeon DDX, EXA, DRI2, no (EE); up in %s ms" % ms


@check("xorg.reference", needs=("atombios", "cp", "display"), scenarios=D)
def c_xref(ctx, b):
    st = [e for e in b.event("XSTART") if e.startswith("ref ")]
    need(st and "up=yes" in st[0], "the reference Xorg did not start: %s" % st)
    log = xorg_log(b, "ref")
    bad = xorg_errors(log)
    need(not bad, "Xorg: " + (bad[0].strip() if bad else ""))
    # the reference is X's software path: the option read, EXA never up
    need(grep(log, r'Option "NoAccel" "true"'), "the reference Xorg did not "
         "read NoAccel")
    need(not grep(log, r"EXA\(0\): Driver registered support"),
         "the reference Xorg accelerated with EXA despite NoAccel")
    return "Xorg with NoAccel (X's software path, the reference desktop) ran cleanly"


@check("desktop.compositor", needs=("atombios", "cp", "display"), scenarios=D)
def c_compositor(ctx, b):
    # xcompmgr must still run at each screendump, or the scenes compared
    # would be uncomposited
    ev = b.event("COMPOSITOR")
    need(len(ev) == 2, "%d of 2 desktop scenes started a compositor" % len(ev))
    need(all("alive=yes" in e for e in ev), "xcompmgr exited: %s" % ev)
    return "xcompmgr -c composited both desktops"


@check("glx.renderer", needs=("atombios", "cp", "display"), scenarios=D)
def c_glx(ctx, b):
    lines, rc = section_ok(b, "glxinfo")
    need(rc == 0, "glxinfo -B exited %s: %s" % (rc, lines[-3:]))
    ren = [l for l in lines if "OpenGL renderer string:" in l]
    need(ren, "no renderer string")
    need("ATI " + ctx.family in ren[0], ren[0].strip())
    need(grep(lines, r"Accelerated: yes"), "glxinfo: not 'Accelerated: yes'")
    need(grep(lines, r"direct rendering: Yes"), "no direct rendering")
    return ren[0].split(":", 1)[1].strip()


@check("glxgears.runs", needs=("atombios", "cp", "display"), scenarios=D)
def c_gears(ctx, b):
    lines, _ = section_ok(b, "glxgears")
    fr = [re.search(r"(\d+) frames in ([\d.]+) seconds", l) for l in lines]
    fr = [m for m in fr if m]
    need(fr, "glxgears reported no frames in its run: %s" % lines[-3:])
    need(all(int(m.group(1)) > 0 for m in fr), "a period without frames")
    return "; ".join("%s frames in %s s" % m.groups() for m in fr)


def renderer(b, section, pattern):
    lines, _ = section_ok(b, section)
    m = [re.search(pattern, l) for l in lines]
    m = [x.group(1).strip() for x in m if x]
    need(m, "%s printed no renderer" % section)
    return m[0]


def gl_still(ctx, b, prog):
    # The reference really is llvmpipe and the card's frame the card's.
    api = "egl" if prog == "es2tri" else "glx"
    pat = r"GL_RENDERER: (.*)" if api == "egl" else r"OpenGL renderer string: (.*)"
    soft = renderer(b, "renderer-%s-soft" % api, pat)
    need("llvmpipe" in soft, "LIBGL_ALWAYS_SOFTWARE=1 gave %r, not llvmpipe" % soft)
    if api == "egl":
        card = renderer(b, "renderer-egl-card", pat)
        need("ATI " + ctx.family in card, "the card's EGL renderer is %r" % card)
    for tag in ("card", "soft"):
        lines, _ = section_ok(b, "%s-%s" % (prog, tag))
        err = grep(lines, r"(?i)error|failed|couldn't|unable")
        need(not err, "%s on %s: %s" % (prog, tag, err[0].strip() if err else ""))
    card, soft = (shot_for(ctx, b, "%s-%s" % (prog, t)) for t in ("card", "soft"))
    desk = shot_for(ctx, b, "desktop-ref")      # the same X session
    # the program drew: where its llvmpipe frame is not the desktop, it is
    # not all black (an X window before its first frame)
    w, h = soft[:2]
    drawn = sum(1 for i in range(0, w * h * 3, 3)
                if soft[2][i:i + 3] != desk[2][i:i + 3] and any(soft[2][i:i + 3]))
    need(drawn >= max(50, w * h // 1000),
         "%s drew nothing on llvmpipe (%d pixels)" % (prog, drawn))
    ok, detail = same_image(ctx, prog, card, soft)
    need(ok, "card against llvmpipe: " + detail)
    return "card = llvmpipe: " + detail


@check("gl.still-es2tri", needs=("atombios", "cp", "display"), scenarios=D)
def c_es2tri(ctx, b):
    return gl_still(ctx, b, "es2tri")


@check("gl.still-glxdemo", needs=("atombios", "cp", "display"), scenarios=D)
def c_glxdemo(ctx, b):
    return gl_still(ctx, b, "glxdemo")


# The DDX's defaults (EXA: the 2D engine and, for Render composites such
# as xcompmgr's shadows, the 3D engine; the ColorTiling front buffer with
# the kernel's tile bits, scanned out tiled) show the same desktop as X's
# software path (NoAccel: pixman into a linear buffer) within the Mesa
# harness's tolerance (issues 15, 18; docs/display.md "Tiled surfaces").
@check("desktop.correct", needs=("atombios", "cp", "display", "tiling"),
       scenarios=D)
def c_desktop(ctx, b):
    got, ref = shot_for(ctx, b, "desktop"), shot_for(ctx, b, "desktop-ref")
    ok, detail = same_image(ctx, "desktop", got, ref)
    need(ok, "the accelerated (EXA, ColorTiling) desktop against X's "
         "software path: " + detail)
    return detail


# GPU resets (the gpureset scenario: radeon's debugfs request, then a CP
# hang its lockup detection finds, while X and glxgears draw;
# docs/guests.md, "GPU resets") ---------------------------------------------

R = ("gpureset",)


def reset_event(b, how):
    for e in b.event("RESET"):
        kv = checks.kv_pairs(e)
        if kv.get("how") == how:
            return kv
    raise Fail("the %s reset step did not finish" % how)


def reset_recovered(b, how):
    """The reset's time, and the IB test ran again after it."""
    ev = reset_event(b, how)
    log, _ = b.kernel_log()
    failed = grep(log, r"GPU reset failed|failed to reset GPU|ib ring test "
                  r"failed|failed testing IB|ring test failed|cp isn't working")
    need(not failed, failed[0].strip() if failed else "")
    need(ev["ms"] != "none", "radeon did not reset the GPU (no 'GPU reset "
         "succeeded' within 3 minutes of the %s trigger)" % how)
    before, after = int(ev["ib_tests_before"]), int(ev["ib_tests_after"])
    need(after > before, "no IB test ran after the %s reset (%d, then %d)" %
         (how, before, after))
    return ev, "reset %s ms after the trigger, IB test passed again" % ev["ms"]


@check("reset.debugfs", needs=("atombios", "cp", "display"), scenarios=R)
def c_reset_debugfs(ctx, b):
    return reset_recovered(b, "debugfs")[1]


@check("reset.lockup", needs=("atombios", "cp", "display"), scenarios=R)
def c_reset_lockup(ctx, b):
    ev, detail = reset_recovered(b, "lockup")
    log, _ = b.kernel_log()
    need(grep(log, r"GPU lockup \(current fence id"),
         "radeon's lockup detection did not fire ('GPU lockup')")
    # rs600_asic_reset prints RBBM_STATUS around its soft resets, and
    # skips them for a GPU that reads idle
    need(grep(log, r"rs600_asic_reset:\d+\) RBBM_STATUS="),
         "rs600_asic_reset did not soft-reset the GPU (it read idle)")
    return "lockup detected, soft reset; " + detail


@check("reset.x-through", needs=("atombios", "cp", "display"), scenarios=R)
def c_reset_x(ctx, b):
    lines, _ = section_ok(b, "glxgears-through-resets")
    fr = [int(m.group(1)) for m in
          (re.search(r"(\d+) frames in", l) for l in lines) if m]
    for how in ("debugfs", "lockup"):
        ev = reset_event(b, how)
        after = fr[int(ev["gears_reports_before"]):
                   int(ev["gears_reports_after"])]
        need(len(after) >= 2 and after[-1] > 0,
             "glxgears drew no frames after the %s reset: reports %s" %
             (how, after))
    return "glxgears went on in X after both resets (%d reports)" % len(fr)


def kmscube_on_card(ctx, b, name):
    lines, rc = section_ok(b, name)
    m = re.search(r'renderer: "([^"]*)"', "\n".join(lines))
    need(m and "ATI " + ctx.family in m.group(1),
         "%s: renderer %s, not the card's r300 driver" %
         (name, m.group(1) if m else "unknown"))
    need(rc == 0, "%s exited %s: %s" % (name, rc, lines[-3:]))
    return m.group(1)


@check("reset.gl-after", needs=("atombios", "cp", "display"), scenarios=R)
def c_reset_gl(ctx, b):
    return "a new kmscube drew 60 frames on " + \
        kmscube_on_card(ctx, b, "kmscube-after-reset")


@check("reset.fbcon", needs=("atombios", "display"), scenarios=R)
def c_reset_fbcon(ctx, b):
    return "after the resets: " + checks.fbcon_text_shown(ctx, b,
                                                          "fbcon-after-reset")


# A hostile guest (the hostile scenario: r500-hostile's seeded garbage
# through the card's BARs under X and glxgears; docs/reliability.md, "A
# hostile guest").  The host alone judges: QEMU survives every seed, its
# monitor answers throughout, its memory stays bounded. -----------------------

H = ("hostile",)
# Peak resident memory QEMU may reach: the guest's RAM and the card's VRAM
# (both touched), the renderer's host memory (r500-resources-test's 2 GiB
# bound), and 1 GiB for QEMU itself with TCG's code buffer.
HOSTILE_OVERHEAD_MB = 2048 + 1024


@check("hostile.ran", scenarios=H, per_boot=False)
def c_hostile_ran(ctx, _):
    b = ctx.boots[-1]
    runs = [checks.kv_pairs(l) for l in b.lines if l.startswith("HOSTILE ")]
    ends = [checks.kv_pairs(e) for e in b.event("HOSTILE-END")]
    need(runs, "r500-hostile never reported (%d seeds ended: %s)" %
         (len(ends), ends))
    ops = sum(int(r["ops"]) for r in runs)
    need(all(int(r["ops"]) > 0 for r in runs), "a seed ran no operation")
    return "%d seeds, %d operations (%s)" % (len(runs), ops, ", ".join(
        "seed %s: %s" % (r["seed"], r["ops"]) for r in runs))


@check("hostile.qemu-survived", scenarios=H, per_boot=False)
def c_hostile_alive(ctx, _):
    r = ctx.run
    bad = grep(r.get("stderr", "").splitlines(),
               r"Assertion|Aborted|Segmentation|AddressSanitizer|"
               r"runtime error|hardware error|qemu: fatal|core dumped")
    need(not bad, "QEMU: " + (bad[0] if bad else ""))
    code = r.get("exit_code")
    # 0: the guest powered off (or its kernel panicked: -no-reboot);
    # timed out: the guest hung and the host ended QEMU, which answered
    # the monitor up to then (hostile.qmp)
    need(code == 0 or (r.get("timed_out") and r.get("qmp_polls")),
         "QEMU exit status %s" % code)
    return "QEMU %s after %.0f s" % (
        "exited normally" if code == 0 else "ran until the host ended it",
        r.get("seconds", 0))


@check("hostile.qmp", scenarios=H, per_boot=False)
def c_hostile_qmp(ctx, _):
    r = ctx.run
    need(r.get("qmp_polls"), "the monitor was never polled")
    need(not r.get("qmp_failed"), "the monitor did not answer 'running': %s"
         % r.get("qmp_failed")[:3])
    seeds = r.get("hostile", [])
    need(seeds and all(st == "running" for *_, st in seeds),
         "around the seeds: %s" % seeds)
    need(r["qmp_max_s"] <= QMP_SLOW,
         "an answer took %.1f s (at most %.0f s)" % (r["qmp_max_s"], QMP_SLOW))
    return "%d polls answered 'running', the slowest in %.2f s" % (
        r["qmp_polls"], r["qmp_max_s"])


@check("hostile.rss", scenarios=H, per_boot=False)
def c_hostile_rss(ctx, _):
    r = ctx.run
    need(r.get("hwm_kb"), "QEMU's memory was never read")
    ram = int(r.get("memory_mb", 1024))
    bound = ram + ctx.vram // (1 << 20) + HOSTILE_OVERHEAD_MB
    peak = r["hwm_kb"] // 1024
    need(peak <= bound, "QEMU's peak RSS %d MiB, over %d MiB" % (peak, bound))
    return "peak RSS %d MiB (bound %d MiB: RAM %d + VRAM %d + %d)" % (
        peak, bound, ram, ctx.vram >> 20, HOSTILE_OVERHEAD_MB)
