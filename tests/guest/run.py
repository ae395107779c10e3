#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot the Linux test guest on the r500 card and check what it reports.

    run.py [--model rv515] [--scenario boot] [--have atombios,cp,display|all]
           [--build build] [--out DIR] [--timeout S] [--append ARGS] [-v]

Scenarios (the guest's r500.test=): boot, kms, modetest, vbltest, blit,
reboot, and desktop (X.org, Mesa r300, kmscube on the desktop image of
tests/guest/mkdesktop.py); see docs/guests.md.  QEMU runs under TCG on q35 with the card as the
only display; the serial console goes through a socket this script serves
(transcript in OUT/serial.log), QMP takes the screendumps the guest asks
for (OUT/<name>.ppm) and does the system_reset of the reboot scenario.

Each check prints PASS, FAIL or SKIP with its reason; the exit status is 1
if any check failed, 0 otherwise.  Checks needing a part of the card that
is not in --have (or $R500_GUEST_HAVE) are reported as SKIP, with what they
would have said.
"""
import argparse
import json
import os
import select
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True          # keep the source tree clean
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import checks       # noqa: E402
import checks_desktop  # noqa: E402,F401  (registers the desktop checks)
import mkdesktop    # noqa: E402
import mkguest      # noqa: E402
from qmp import qmp  # noqa: E402

SCENARIOS = {
    # name: (host wall-clock budget in s, guest RAM in MiB, kernel arguments)
    "boot": (180, 1024, ""),
    "kms": (240, 1024, ""),
    "modetest": (420, 1024, ""),
    "vbltest": (300, 1024, ""),
    # radeon_test_moves pins the whole GART (512 MiB) in guest pages; TTM
    # lets it use at most half of the RAM.  It never unpins them, so the
    # GEM size limit (GTT minus pinned GTT) is 0 afterwards and fbdev
    # cannot allocate its frame buffer; 6.1's error path then leaves a
    # dangling fbdev that oopses at shutdown.  This scenario is about the
    # moves, so fbdev emulation is off.
    "blit": (900, 2048, "radeon.test=1 drm_kms_helper.fbdev_emulation=0"),
    "reboot": (420, 1024, ""),
    # GPU resets (debugfs, lockup) under X and glxgears, then GL, fbcon.
    "gpureset": (600, 1024, "r500.root=/dev/vda"),
    # r500-hostile's garbage under X and glxgears (the seeds and seconds
    # of --hostile; the budget grows with them: hostile_budget()).
    "hostile": (240, 1024, "r500.root=/dev/vda"),
    # The desktop image is the virtio disk (DESKTOP_DISK).
    "desktop": (600, 1024, "r500.root=/dev/vda"),
    # bench/guest.py: kmscube, glmark2, glxgears on the card and llvmpipe.
    # One EDID for every display compared (the kernel's built-in 1920x1080
    # one): glmark2-es2-drm draws at the largest mode whatever -s says, and
    # virtio-gpu's own EDID offers 5120x2160 where the card's stops at
    # 1920x1440.
    "bench": (1500, 1024, "r500.root=/dev/vda drm.edid_firmware=edid/1920x1080.bin"),
}
DESKTOP_SCENARIOS = ("desktop", "bench", "gpureset", "hostile")
# How often the host asks QMP whether QEMU answers while a hostile guest
# runs (how long an answer may take: checks_desktop.QMP_SLOW).
QMP_POLL_S = 1.0


def hostile_budget(a):
    """hostile: boot and X (240 s under TCG), then each seed's seconds and
    a minute for its program to end and the host to answer."""
    if a.scenario != "hostile":
        return None
    seeds, _, secs = a.hostile.partition(":")
    return SCENARIOS["hostile"][0] + len(seeds.split(",")) * (int(secs) + 60)


def kernel_args(scenario, timeout, extra):
    # Guest watchdog well inside the host budget, so the log still comes out.
    return " ".join(filter(None, [
        "console=tty0 console=ttyS0,115200 panic=-1",
        "r500.test=%s r500.timeout=%d" % (scenario, max(30, timeout - 40)),
        SCENARIOS[scenario][2], extra]))


class Run:
    def __init__(self, args, guest, disk=None):
        self.args = args
        self.guest = guest
        self.disk = disk
        self.out = args.out
        self.sockdir = tempfile.mkdtemp(prefix="r500-guest-")
        self.qmp_path = os.path.join(self.sockdir, "qmp")
        self.facts = {"shots": {}, "status": [], "resets": 0,
                      "timeout": args.timeout, "memory_mb": int(args.memory)}
        self.transcript = []
        self.boot = 0

    def qemu_cmd(self, serial):
        a = self.args
        cmd = [a.qemu, "-machine", "q35", "-accel", "tcg", "-m", a.memory,
               "-smp", "1", "-nodefaults", "-vga", "none", "-display", "none",
               # Two heads: one console per CRTC, so a mode set on either
               # connector can be screendumped while fbcon holds the other.
               "-device", a.device or "r500,id=r500gpu,heads=2,model=%s,vram-size=%s"
               % (a.model, a.vram),
               "-kernel", os.path.join(self.guest, "vmlinuz"),
               "-initrd", self.initrd(),
               "-append", kernel_args(a.scenario, a.timeout, a.append +
                                      (" r500.driver=" + a.driver if a.driver else "")),
               "-chardev", "socket,id=ser0,path=" + serial,
               "-serial", "chardev:ser0",
               "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path]
        if a.scenario != "hostile":
            # what the card found wrong or unimplemented, for the report
            # (a hostile guest's garbage would fill a disk with it)
            cmd += ["-d", "guest_errors,unimp",
                    "-D", os.path.join(self.out, "qemu-d.log")]
        if self.disk:
            # read-only: runs in parallel share the cached image
            cmd += ["-drive", "file=%s,if=virtio,format=raw,readonly=on" % self.disk]
        if a.scenario != "reboot":
            cmd.append("-no-reboot")       # a crash-reboot ends the run
        return cmd + a.qemu_args

    def initrd(self):
        """The guest's initramfs; for hostile, with r500-hostile added as
        a second cpio archive (the kernel unpacks them in turn)."""
        base = os.path.join(self.guest, "initrd.img")
        if self.args.scenario != "hostile":
            return base
        cpio = mkguest.Cpio()
        with open(self.args.hostile_bin, "rb") as f:
            cpio.file("bin/r500-hostile", f.read(), 0o755)
        path = os.path.join(self.out, "initrd-hostile.img")
        with open(base, "rb") as f, open(path, "wb") as out:
            data = f.read()
            out.write(data + b"\0" * (-len(data) % 4) + cpio.finish())
        return path

    def poll(self, proc, stop):
        """Until stop: QMP query-status every QMP_POLL_S, its answer and
        time, and QEMU's resident memory (VmRSS, peak VmHWM)."""
        f = self.facts
        f.update(qmp_polls=0, qmp_failed=[], qmp_max_s=0.0, rss_max_kb=0,
                 hwm_kb=0)
        while not stop.wait(QMP_POLL_S) and proc.poll() is None:
            t = time.time()
            st = self.q("query-status")
            dt = time.time() - t
            if proc.poll() is not None:
                break
            f["qmp_polls"] += 1
            f["qmp_max_s"] = max(f["qmp_max_s"], round(dt, 2))
            if st.get("return", {}).get("status") != "running":
                f["qmp_failed"].append([round(t - self.t0, 1), str(st)[:200]])
            try:
                with open("/proc/%d/status" % proc.pid) as sf:
                    kb = dict(l.split(":", 1) for l in sf if ":" in l)
                f["rss_max_kb"] = max(f["rss_max_kb"],
                                      int(kb["VmRSS"].split()[0]))
                f["hwm_kb"] = int(kb["VmHWM"].split()[0])
            except (OSError, KeyError, ValueError):
                pass

    def q(self, command, arguments=None):
        try:
            return qmp(self.qmp_path, command, arguments, timeout=60)
        except (OSError, ValueError) as e:
            return {"error": {"desc": str(e)}}

    def on_marker(self, conn, text):
        ev, _, rest = text.partition(" ")
        if ev == "INIT":
            self.boot += 1
            st = self.q("query-status")
            self.facts["status"].append(st.get("return", {}).get("status", str(st)))
            self.facts.setdefault("init_s", []).append(round(time.time() - self.t0, 1))
        elif ev == "DONE":
            self.facts.setdefault("done_s", []).append(round(time.time() - self.t0, 1))
            if not self.args.device:
                # the card's counters at the end of the guest's work
                st = self.q("qom-get", {"path": "/machine/peripheral/r500gpu",
                                        "property": "stats"})
                self.facts["stats"] = st.get("return", st)
        elif ev == "SYNC":
            what = rest.split()
            reply = "ok"
            if what[:1] == ["shot"] and len(what) == 2:
                name = what[1]
                paths = []
                for head in range(1 if self.args.device else 2):
                    path = os.path.join(self.out, "%s-boot%d%s.ppm" % (
                        name, self.boot, "-head%d" % head if head else ""))
                    cmd = {"filename": path}
                    if not self.args.device:
                        cmd.update({"device": "r500gpu", "head": head})
                    r = self.q("screendump", cmd)
                    if "return" not in r or not os.path.exists(path):
                        reply = "error " + json.dumps(r)
                        break
                    paths.append(path)
                else:
                    self.facts["shots"][(self.boot, name)] = paths
            elif what[:1] in (["hostile-begin"], ["hostile-end"]):
                # the monitor answers around each seed (the poller too)
                st = self.q("query-status")
                self.facts.setdefault("hostile", []).append(
                    [what[0], what[1:], round(time.time() - self.t0, 1),
                     st.get("return", {}).get("status", str(st)[:200])])
            elif what == ["quit"]:
                # hostile: the seeds ran; QEMU, not the guest, ends here
                self.facts["quit"] = "return" in self.q("quit")
                return
            elif what == ["boot"]:
                reply = "boot=%d" % self.boot
            elif what == ["reset"]:
                r = self.q("system_reset")
                self.facts["resets"] += "return" in r
                return
            conn.sendall(("@@HOST %s\n" % reply).encode())

    def run(self):
        serial = os.path.join(self.sockdir, "serial")
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(serial)
        srv.listen(1)
        cmd = self.qemu_cmd(serial)
        with open(os.path.join(self.out, "qemu-cmd.txt"), "w") as f:
            f.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
        errf = open(os.path.join(self.out, "qemu.log"), "w+")
        logf = open(os.path.join(self.out, "serial.log"), "w")
        self.t0 = time.time()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=errf,
                                stderr=subprocess.STDOUT)
        deadline = self.t0 + self.args.timeout
        conn, buf = None, b""
        stop = threading.Event()
        poller = None
        if self.args.scenario == "hostile":
            poller = threading.Thread(target=self.poll, args=(proc, stop))
            poller.start()
        srv.settimeout(1)
        try:
            while proc.poll() is None and time.time() < deadline:
                if conn is None:
                    try:
                        conn, _ = srv.accept()
                    except socket.timeout:
                        continue
                if not select.select([conn], [], [], 0.5)[0]:
                    continue
                data = conn.recv(65536)
                if not data:
                    conn.close()
                    conn = None
                    continue
                buf += data
                *lines, buf = buf.split(b"\n")
                for raw in lines:
                    line = raw.decode("utf-8", "replace").rstrip("\r")
                    self.transcript.append(line)
                    logf.write(line + "\n")
                    logf.flush()
                    if self.args.verbose:
                        print(line, flush=True)
                    i = line.find("@@R500 ")
                    if i >= 0:
                        self.on_marker(conn, line[i + 7:])
            if proc.poll() is None:
                self.facts["timed_out"] = True
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        finally:
            stop.set()
            if poller:
                poller.join()
            if buf:
                self.transcript.append(buf.decode("utf-8", "replace"))
                logf.write(self.transcript[-1] + "\n")
            logf.close()
            if conn:
                conn.close()
            srv.close()
            for p in (serial, self.qmp_path):
                if os.path.exists(p):
                    os.unlink(p)
            os.rmdir(self.sockdir)
        self.facts["exit_code"] = proc.returncode
        self.facts["seconds"] = time.time() - self.t0
        errf.seek(0)
        self.facts["stderr"] = errf.read()
        errf.close()
        return "\n".join(self.transcript)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="Extra QEMU arguments go after --.")
    ap.add_argument("--model", default="rv515", choices=sorted(checks.MODELS))
    ap.add_argument("--scenario", default="boot", choices=sorted(SCENARIOS))
    ap.add_argument("--have", default=os.environ.get("R500_GUEST_HAVE", ""),
                    help="parts of the card whose checks count: comma-separated "
                    "of %s, 'all' (all%s) (default $R500_GUEST_HAVE)" % (
                        ",".join(checks.NEEDS_ALL + checks.PENDING),
                        " but the pending " + ",".join(checks.PENDING)
                        if checks.PENDING else ""))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--qemu", help="default BUILD/qemu/build/qemu-system-x86_64")
    ap.add_argument("--out", help="default BUILD/guest/MODEL-SCENARIO")
    ap.add_argument("--release", choices=sorted(mkguest.RELEASES),
                    default=os.environ.get("R500_GUEST_RELEASE") or
                    mkguest.DEFAULT_RELEASE,
                    help="the Debian release of the guest (default "
                    "$R500_GUEST_RELEASE, else %s)" % mkguest.DEFAULT_RELEASE)
    ap.add_argument("--hostile", default="1,2,3:20", metavar="SEEDS:SECONDS",
                    help="hostile: r500-hostile's seeds, each for SECONDS")
    ap.add_argument("--hostile-bin", help="hostile: the static r500-hostile "
                    "(default BUILD/tests/guest/r500-hostile)")
    ap.add_argument("--vram", default="256M")
    ap.add_argument("--memory", help="guest RAM in MiB (per scenario)")
    ap.add_argument("--timeout", type=int, help="wall-clock limit in seconds")
    ap.add_argument("--append", default="", help="extra kernel arguments")
    ap.add_argument("--connectors", default=",".join(
        "%s=%s" % kv for kv in checks.DEFAULT_CONNECTORS.items()),
        help="expected connector states, NAME=connected|disconnected,...")
    ap.add_argument("--device", help="harness self-test: another display "
                    "device instead of the card (e.g. bochs-display)")
    ap.add_argument("--driver", help="harness self-test: the guest's DRM "
                    "driver for --device (e.g. bochs)")
    ap.add_argument("--offline", action="store_true",
                    help="use the cached guest, do not look at apt")
    ap.add_argument("--recheck", action="store_true",
                    help="judge OUT/serial.log of an earlier run again, no QEMU")
    ap.add_argument("-v", "--verbose", action="store_true", help="echo the serial console")
    ap.add_argument("qemu_args", nargs="*")
    a = ap.parse_args()
    a.qemu = a.qemu or os.path.join(a.build, "qemu", "build", "qemu-system-x86_64")
    a.out = os.path.abspath(a.out or os.path.join(a.build, "guest", "%s-%s" % (a.model, a.scenario)))
    a.timeout = a.timeout or hostile_budget(a) or SCENARIOS[a.scenario][0]
    a.hostile_bin = a.hostile_bin or os.path.join(a.build, "tests", "guest",
                                                  "r500-hostile")
    if a.scenario == "hostile":
        a.append += " r500.hostile=" + a.hostile
    a.memory = a.memory or str(SCENARIOS[a.scenario][1])
    have = []
    for h in a.have.replace(" ", "").split(","):
        if h == "all":
            have += checks.NEEDS_ALL
        elif h in checks.NEEDS_ALL + checks.PENDING:
            have.append(h)
        elif h:
            ap.error("--have: unknown part %r" % h)
    if "flip" in have:      # the guest runs the step that needs it
        a.append += " r500.kill_flips=1"
    os.makedirs(a.out, exist_ok=True)

    if a.recheck:
        with open(os.path.join(a.out, "run.json")) as f:
            facts = json.load(f)
        facts["shots"] = {tuple(json.loads(k)): v for k, v in facts["shots"].items()}
        with open(os.path.join(a.out, "serial.log")) as f:
            text = f.read()
    else:
        if not os.access(a.qemu, os.X_OK):
            print("run: %s is not built (make test / ninja -C build)" % a.qemu,
                  file=sys.stderr)
            return 1
        try:
            guest = mkguest.ensure(offline=a.offline, release=a.release)
            disk = None
            if a.scenario in DESKTOP_SCENARIOS:
                disk = os.path.join(mkdesktop.ensure(offline=a.offline,
                                                     release=a.release),
                                    "root.img")
        except mkguest.GuestError as e:
            print("run: cannot build the guest: %s" % e, file=sys.stderr)
            return 1
        for f in os.listdir(a.out):
            if f.endswith(".ppm"):
                os.unlink(os.path.join(a.out, f))
        r = Run(a, guest, disk)
        text = r.run()
        facts = r.facts
        with open(os.path.join(a.out, "run.json"), "w") as f:
            json.dump(dict(facts, shots={json.dumps(k): v for k, v in facts["shots"].items()},
                           guest=guest, disk=disk), f, indent=1)

    gart = 512
    for w in (a.append + " " + SCENARIOS[a.scenario][2]).split():
        if w.startswith("radeon.gartsize="):
            gart = int(w.split("=")[1])
    facts["out"] = a.out              # where checks write their PNGs
    ctx = checks.Context(a.model, a.scenario, checks.parse_size(a.vram),
                         checks.parse_transcript(text), facts, have,
                         dict(kv.split("=") for kv in a.connectors.split(",") if kv),
                         gart)
    results = checks.evaluate(ctx)
    lines = ["%-4s %-28s %s" % (s, n, d) for n, s, d in results]
    inits = facts.get("init_s", [])
    dlog = os.path.join(a.out, "qemu-d.log")
    if os.path.exists(dlog):
        with open(dlog, errors="replace") as f:
            d = f.read().splitlines()
        lines.append("device log: %d lines (%s)%s" % (
            len(d), dlog, "".join("\n  " + l for l in d[:8])))
    lines.append("time: %.0f s in all; /init reached at %s s; done at %s s "
                 "(model %s, scenario %s, out %s)" % (
                     facts.get("seconds", 0), inits, facts.get("done_s", []),
                     a.model, a.scenario, a.out))
    with open(os.path.join(a.out, "report.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    failed = [n for n, s, _ in results if s == "FAIL"]
    if failed:
        print("FAILED: %s (serial log: %s)" % (" ".join(failed),
                                                os.path.join(a.out, "serial.log")))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
