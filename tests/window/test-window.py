#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`make run` on a desktop opens a window that shows the card.

Starts Xvfb, runs scripts/run.sh (what `make run` runs) on it with no
guest, so the firmware's boot screen on the card's VGA is what the card
shows, and compares a screenshot of the X display (xwd -root) with QEMU's
own screendump of the card: the screendump must appear in the X screen
pixel for pixel.  Without a window (a QEMU built without GTK/SDL) run.sh
serves VNC instead and nothing of the card is on the X display: the test
fails.  Writes window-x.png and window-card.png to --out (docs/).

    test-window.py --build BUILD --out DIR
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts"))
import image  # noqa: E402
from qmp import qmp  # noqa: E402


def start_xvfb():
    for tool in ("Xvfb", "xwd"):
        if not shutil.which(tool):
            sys.exit("window: %s missing (scripts/deps.sh installs xvfb and "
                     "x11-apps)" % tool)
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0",
                             "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        num = f.readline().strip()
    if not num:
        sys.exit("window: Xvfb did not start")
    return xvfb, ":" + num


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    xvfb, display = start_xvfb()
    rundir = tempfile.mkdtemp(prefix="r500-window-")
    env = dict(os.environ, DISPLAY=display, R500_GUEST="none",
               R500_RUN_DIR=rundir, R500_SHOT_AFTER="100000")
    env.pop("WAYLAND_DISPLAY", None)
    log = open(os.path.join(a.out, "run.log"), "w")
    run = subprocess.Popen([os.path.join(here, "..", "..", "scripts",
                                         "run.sh"), a.build],
                           env=env, stdin=subprocess.DEVNULL, stdout=log,
                           stderr=subprocess.STDOUT)
    sock = os.path.join(rundir, "run-qmp.sock")
    card_ppm = os.path.join(rundir, "card.ppm")
    found = None
    deadline = time.time() + a.timeout
    try:
        while time.time() < deadline and run.poll() is None:
            time.sleep(2)
            if not os.path.exists(sock):
                continue
            try:
                qmp(sock, "screendump", {"filename": card_ppm})
                with open(card_ppm, "rb") as f:
                    card = image.read_ppm(f.read())
                xshot = subprocess.run(["xwd", "-root", "-silent",
                                        "-display", display],
                                       capture_output=True, check=True).stdout
                screen = image.read_xwd(xshot)
                qmp(sock, "screendump", {"filename": card_ppm})
                with open(card_ppm, "rb") as f:
                    again = image.read_ppm(f.read())
            except (OSError, ValueError, subprocess.CalledProcessError) as e:
                print("window: not yet: %s" % e)
                continue
            if again.rgb != card.rgb or len(set(card.rgb)) < 2:
                continue        # the card's picture is still changing
            found = image.find(card, screen)
            if found:
                image.write_png(screen, os.path.join(a.out, "window-x.png"))
                image.write_png(card, os.path.join(a.out, "window-card.png"))
                break
    finally:
        if os.path.exists(sock) and run.poll() is None:
            try:
                qmp(sock, "quit")
            except OSError:
                pass
        try:
            run.wait(timeout=20)
        except subprocess.TimeoutExpired:
            run.kill()
        xvfb.terminate()
        xvfb.wait()
        log.close()
        shutil.rmtree(rundir, ignore_errors=True)
    with open(os.path.join(a.out, "run.log")) as f:
        out = f.read()
    print(out.rstrip())
    if "VNC" in out:
        print("window: run.sh found no window in this QEMU build")
    if not found:
        print("not ok: the card's screen (%s) never appeared on the X "
              "display" % card_ppm)
        return 1
    print("ok: the card's %dx%d screen is in the window at (%d, %d) of the "
          "X display" % (card.width, card.height, found[0], found[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
