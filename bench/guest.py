#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The in-guest benchmark: the card against the guest's own llvmpipe.

    bench/guest.py [--build DIR] [--model rv515] [--out DIR]
                   [--card-thread on|off] [--recheck]

One boot of the desktop guest (tests/guest/mkdesktop.py) on the card
under TCG, scenario "bench" of tests/guest/init: kmscube (page flips on
the card's KMS), glmark2-es2-drm off screen (throughput, no flips; at the connector's
largest mode, since it ignores -s) and
glxgears in X, each first on the card (Mesa r300) and then, in the same
boot, on the guest's llvmpipe (LIBGL_ALWAYS_SOFTWARE=1: kms_swrast or
llvmpipe in X).  The ratio card/llvmpipe is the figure a user of the
guest cares about (docs/bench.md).  kmscube is paced by page flips at the
mode's refresh: a frame takes a whole number of vblanks, so its fps is a
step function of the render time; glmark2 off screen is not paced.

Results: stdout and OUT/guest-bench.md, OUT/guest-bench.json.
"""
import argparse
import json
import os
import re
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--model", default="rv515")
    ap.add_argument("--out", help="default BUILD/bench-results")
    ap.add_argument("--card-thread", default="on", choices=("on", "off"),
                    help="the card's own thread (docs/architecture.md)")
    ap.add_argument("--recheck", action="store_true",
                    help="read the last run's serial log again, no QEMU")
    a = ap.parse_args()
    out = os.path.abspath(a.out or os.path.join(a.build, "bench-results"))
    gout = os.path.join(out, "guest-%s" % a.model)
    os.makedirs(gout, exist_ok=True)
    if not a.recheck:
        cmd = [sys.executable, os.path.join(ROOT, "tests", "guest", "run.py"),
               "--build", a.build, "--model", a.model, "--scenario", "bench",
               "--have", "all", "--out", gout, "--",
               "-global", "r500.card-thread=" + a.card_thread]
        print("bench-guest: one boot of the desktop guest on %s (TCG), "
              "a few minutes: %s" % (a.model, gout), flush=True)
        r = subprocess.run(cmd)
        if r.returncode:
            print("bench-guest: the guest run failed (%s/report.txt)" % gout,
                  file=sys.stderr)
            return 1
    with open(os.path.join(gout, "serial.log"), errors="replace") as f:
        sec = sections(f.read())

    rows, res = [], {"model": a.model, "card_thread": a.card_thread}
    for r in ("card", "soft"):
        res[r] = {
            "kmscube_fps": kmscube_fps(sec.get("bench-kmscube-" + r, [])),
            "kmscube_renderer": renderer(sec.get("bench-kmscube-" + r, []),
                                         r'renderer: "([^"]*)"'),
            "glmark2": glmark2(sec.get("bench-glmark2-" + r, [])),
            "glmark2_renderer": renderer(sec.get("bench-glmark2-" + r, []),
                                         r"GL_RENDERER:\s*(.*)"),
            "glxgears_fps": glxgears_fps(sec.get("bench-glxgears-" + r, [])),
        }

    # the comparison means something only if each side ran where it should
    bad = [(r, k, res[r][k]) for r in ("card", "soft")
           for k in ("kmscube_renderer", "glmark2_renderer")
           if ("llvmpipe" in res[r][k]) != (r == "soft")]
    if bad:
        print("bench-guest: a program ran on the wrong renderer: %s" % bad,
              file=sys.stderr)
        return 1

    def num(v):
        return "-" if v is None else "%.1f" % v if isinstance(v, float) else str(v)

    def row(name, c, s):
        ratio = "%.2f" % (c / s) if c and s else "-"
        rows.append("| %s | %s | %s | %s |" % (name, num(c), num(s), ratio))

    row("kmscube fps (1280x800, page flips)", res["card"]["kmscube_fps"],
        res["soft"]["kmscube_fps"])
    cf, cs, size = res["card"]["glmark2"]
    sf, ss, _ = res["soft"]["glmark2"]
    # glmark2-es2-drm draws at the connector's largest mode whatever -s
    # says (docs/bench.md)
    for scene in sorted(set(cf) | set(sf)):
        row("glmark2 %s fps (%s, off screen)" % (scene, size), cf.get(scene),
            sf.get(scene))
    row("glmark2 score", cs, ss)
    row("glxgears fps (300x300, X)", res["card"]["glxgears_fps"],
        res["soft"]["glxgears_fps"])
    text = "\n".join([
        "# In-guest benchmark: %s, card-thread=%s" % (a.model, a.card_thread),
        "",
        "renderers: card %r, guest llvmpipe %r" % (
            res["card"]["glmark2_renderer"], res["soft"]["glmark2_renderer"]),
        "",
        "| workload | card | guest llvmpipe | card/llvmpipe |",
        "|---|---|---|---|"] + rows) + "\n"
    print(text)
    with open(os.path.join(out, "guest-bench.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "guest-bench.json"), "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
