#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The in-guest benchmark: the card against the guest's own llvmpipe.

    bench/guest.py [--build DIR] [--model rv515] [--out DIR]
                   [--card-thread on|off] [--renderer soft|gl|auto]
                   [--recheck]

One boot of the desktop guest (tests/guest/mkdesktop.py) on the card
under TCG, scenario "bench" of tests/guest/init: kmscube (page flips on
the card's KMS), glmark2-es2-drm off screen (throughput, no flips; at the connector's
largest mode, since it ignores -s) and on screen (a page flip a frame),
glxgears in X, each first on the card (Mesa r300) and then, in the same
boot, on the guest's llvmpipe (kms_swrast, or llvmpipe in X).  A second
boot runs the same programs on the path a QEMU user picks for 3D today:
Debian's QEMU with virtio-vga-gl and virgl on the host's Mesa (here
llvmpipe), shown through SDL with OpenGL on Xvfb; without Debian's QEMU
(apt-get install qemu-system-x86) that column is skipped, and says so.  The ratios card/llvmpipe and card/virgl are the figures a user of the
guest cares about (docs/bench.md).  kmscube is paced by page flips at the
mode's refresh: a frame takes a whole number of vblanks, so its fps is a
step function of the render time; glmark2 off screen is not paced, on
screen it is as kmscube is.

Results: stdout and OUT/guest-bench.md, OUT/guest-bench.json.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def sections(text):
    """{name: [lines]} of the guest's BEGIN/END sections."""
    out, cur = {}, None
    for line in text.splitlines():
        i = line.find("@@R500 ")
        if i >= 0:
            ev = line[i + 7:].split()
            if ev[:1] == ["BEGIN"] and len(ev) > 1:
                cur = out.setdefault(ev[1], [])
                continue
            if ev[:1] == ["END"]:
                cur = None
                continue
        if cur is not None:
            cur.append(line)
    return out


def kmscube_fps(lines):
    m = [re.search(r"Rendered (\d+) frames in ([\d.]+) sec \(([\d.]+) fps\)", l)
         for l in lines]
    m = [x for x in m if x]
    return float(m[-1].group(3)) if m else None


def glmark2(lines):
    fps = {}
    for l in lines:
        m = re.search(r"^\[(\w+)\].*FPS: (\d+)", l)
        if m:
            fps.setdefault(m.group(1), int(m.group(2)))
    score = [re.search(r"glmark2 Score: (\d+)", l) for l in lines]
    score = [int(x.group(1)) for x in score if x]
    size = renderer(lines, r"Surface Size:\s*(\S+)")
    return fps, (score[0] if score else None), size


def glxgears_fps(lines):
    f = [float(m.group(1)) for m in
         (re.search(r"= ([\d.]+) FPS", l) for l in lines) if m]
    # the first period includes start-up: the steady rate is the rest
    return max(f[1:] or f) if f else None


def renderer(lines, pat):
    for l in lines:
        m = re.search(pat, l)
        if m:
            return m.group(1).strip()
    return "?"


def boot(a, gout, qemu=None, device=None, driver=None, wrap=(), extra=()):
    """One boot of scenario "bench"; its sections, or None."""
    os.makedirs(gout, exist_ok=True)
    if not a.recheck:
        cmd = list(wrap) + [
            sys.executable, os.path.join(ROOT, "tests", "guest", "run.py"),
            "--build", a.build, "--model", a.model, "--scenario", "bench",
            "--have", "all", "--out", gout]
        if qemu:
            cmd += ["--qemu", qemu, "--device", device, "--driver", driver]
        cmd += ["--"] + list(extra)
        print("bench-guest: one boot of the desktop guest on %s (TCG), "
              "a few minutes: %s" % (device or a.model, gout), flush=True)
        r = subprocess.run(cmd)
        # the card's boot must pass its checks; another device's boot is
        # judged by the card's checks too (PCI identity...), so only its
        # sections count
        if r.returncode and not device:
            print("bench-guest: the guest run failed (%s/report.txt)" % gout,
                  file=sys.stderr)
            return None
    try:
        with open(os.path.join(gout, "serial.log"), errors="replace") as f:
            return sections(f.read())
    except OSError:
        return None


def measure(sec, r):
    return {
        "kmscube_fps": kmscube_fps(sec.get("bench-kmscube-" + r, [])),
        "kmscube_renderer": renderer(sec.get("bench-kmscube-" + r, []),
                                     r'renderer: "([^"]*)"'),
        "glmark2": glmark2(sec.get("bench-glmark2-" + r, [])),
        "glmark2_flip": glmark2(sec.get("bench-glmark2-flip-" + r, [])),
        "glmark2_renderer": renderer(sec.get("bench-glmark2-" + r, []),
                                     r"GL_RENDERER:\s*(.*)"),
        "glxgears_fps": glxgears_fps(sec.get("bench-glxgears-" + r, [])),
    }


def virgl_qemu():
    """Debian's QEMU with virtio-vga-gl and xvfb-run, or why not."""
    qemu = "/usr/bin/qemu-system-x86_64"
    if not os.access(qemu, os.X_OK) or not shutil.which("xvfb-run"):
        return None, ("needs Debian's QEMU and Xvfb (apt-get install "
                      "qemu-system-x86 xvfb)")
    out = subprocess.run([qemu, "-device", "help"], capture_output=True,
                         text=True).stdout
    if '"virtio-vga-gl"' not in out:
        return None, "%s has no virtio-vga-gl" % qemu
    return qemu, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--model", default="rv515")
    ap.add_argument("--out", help="default BUILD/bench-results")
    ap.add_argument("--card-thread", default="on", choices=("on", "off"),
                    help="the card's own thread (docs/architecture.md)")
    ap.add_argument("--renderer", default="auto",
                    choices=("soft", "gl", "auto"),
                    help="the card's 3D renderer (docs/3d.md; default the "
                         "card's own, auto: gl where EGL works)")
    ap.add_argument("--no-virgl", action="store_true",
                    help="skip the boot on virtio-vga-gl with virgl")
    ap.add_argument("--recheck", action="store_true",
                    help="read the last run's serial logs again, no QEMU")
    a = ap.parse_args()
    out = os.path.abspath(a.out or os.path.join(a.build, "bench-results"))
    sec = boot(a, os.path.join(out, "guest-%s" % a.model),
               extra=("-global", "r500.card-thread=" + a.card_thread,
                      "-global", "r500.renderer=" + a.renderer))
    if sec is None:
        return 1
    res = {"model": a.model, "card_thread": a.card_thread,
           "renderer": a.renderer,
           "card": measure(sec, "card"), "soft": measure(sec, "soft")}
    # The path a QEMU user picks for 3D today: virtio-vga-gl, virgl on the
    # host's Mesa (llvmpipe on a machine without a GPU), shown by SDL with
    # OpenGL on a virtual X display (egl-headless needs a render node).
    qemu, why = (None, "--no-virgl") if a.no_virgl else virgl_qemu()
    if qemu:
        vsec = boot(a, os.path.join(out, "guest-virgl"), qemu=qemu,
                    # virtio_gpu drops a preferred mode that is not the
                    # host's scanout size: make it the EDID's 1920x1080
                    device="virtio-vga-gl,xres=1920,yres=1080",
                    driver="virtio_gpu",
                    wrap=("xvfb-run", "-a", "-s", "-screen 0 1920x1440x24"),
                    extra=("-display", "sdl,gl=on"))
        if vsec:
            res["virgl"] = measure(vsec, "card")
        else:
            why = "the virgl boot printed nothing"
    if "virgl" not in res:
        print("bench-guest: virgl column skipped: %s" % why, flush=True)

    # the comparison means something only if each side ran where it should
    want = {"card": "ATI ", "soft": "llvmpipe", "virgl": "virgl"}
    bad = [(r, k, res[r][k]) for r in want if r in res
           for k in ("kmscube_renderer", "glmark2_renderer")
           if want[r] not in res[r][k]]
    if bad:
        print("bench-guest: a program ran on the wrong renderer: %s" % bad,
              file=sys.stderr)
        return 1

    cols = ["card", "soft"] + (["virgl"] if "virgl" in res else [])

    def num(v):
        return "-" if v is None else "%.1f" % v if isinstance(v, float) else str(v)

    def ratio(c, s):
        return "%.2f" % (c / s) if c and s else "-"

    rows = []

    def row(name, vals):
        cells = [num(vals[c]) for c in cols]
        cells.append(ratio(vals["card"], vals["soft"]))
        if "virgl" in vals:
            cells.append(ratio(vals["card"], vals["virgl"]))
        rows.append("| %s | %s |" % (name, " | ".join(cells)))

    def pick(f):
        return {c: f(res[c]) for c in cols}

    # every display gets the kernel's built-in 1920x1080 EDID (run.py)
    row("kmscube fps (1920x1080, page flips)", pick(lambda m: m["kmscube_fps"]))
    size = res["card"]["glmark2"][2]
    scenes = sorted(set().union(*(res[c]["glmark2"][0] for c in cols)))
    # glmark2-es2-drm draws at the connector's largest mode whatever -s
    # says (docs/bench.md)
    for scene in scenes:
        row("glmark2 %s fps (%s, off screen)" % (scene, size),
            pick(lambda m: m["glmark2"][0].get(scene)))
    row("glmark2 score", pick(lambda m: m["glmark2"][1]))
    # on screen every frame is a page flip: the card's wait for the
    # vblank (docs/bench.md), virtio-gpu's do not
    row("glmark2 score (on screen, page flips)",
        pick(lambda m: m["glmark2_flip"][1]))
    row("glxgears fps (300x300, X)", pick(lambda m: m["glxgears_fps"]))
    head = ["card", "guest llvmpipe"] + (["virgl"] if "virgl" in res else [])
    head += ["card/llvmpipe"] + (["card/virgl"] if "virgl" in res else [])
    text = "\n".join([
        "# In-guest benchmark: %s, card-thread=%s, renderer=%s" % (
            a.model, a.card_thread, a.renderer),
        "",
        "renderers: " + ", ".join("%s %r" % (c, res[c]["glmark2_renderer"])
                                  for c in cols),
        "" if "virgl" in res else "virgl column skipped: %s" % why,
        "",
        "| workload | %s |" % " | ".join(head),
        "|---|%s" % ("---|" * len(head))] + rows) + "\n"
    print(text)
    with open(os.path.join(out, "guest-bench.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "guest-bench.json"), "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
