# SPDX-License-Identifier: GPL-2.0-or-later
"""Acceptance checks of the Linux guest, judged from its serial transcript
and the screendumps the host took (tests/guest/run.py drives the guest).

Every check has a name, the scenarios it applies to, and the parts of the
card it needs ("atombios", "cp", "display").  A check whose needs are not
all declared present still runs, but its outcome is reported as SKIP with
the reason, so it cannot fail a run before its part has landed
(docs/guests.md, "Switching checks on").
"""
import re
import struct

MODELS = {
    # model: (radeon family name, PCI device ID)   (reference 1.1)
    "rv515": ("RV515", 0x7142),
    "rv530": ("RV530", 0x71C2),
    "r520": ("R520", 0x7100),
    "r580": ("R580", 0x7249),
}
SUBSYSTEM = "0x1af4:0x1100"          # r500_pci.c: outside radeon's quirk table
NEEDS_ALL = ("atombios", "cp", "display", "tiling", "flip")
# Parts not landed yet, outside --have all: their checks report SKIP with
# what they would say.  ("tiling", the DDX's default ColorTiling front
# buffer drawn and scanned out with one layout, landed: issue 15.
# "flip", killing a flipping kmscube without meeting radeon's
# rs600_page_flip race, docs/guests.md "Known guest-kernel bug": the
# window is a frame's render time, which the fill and quad paths of issue
# 16 cut four-fold; it passed on RV515 and R520 with the host loaded
# three to six times over, 2026-12-02.)
PENDING = ()

# Kernel lines that mean something went wrong anywhere (any scenario).
KERNEL_BAD = [
    r"Oops", r"\bBUG:", r"WARNING:", r"Call Trace:", r"Kernel panic",
    r"general protection fault", r"divide error", r"invalid opcode:",
    r"soft lockup", r"hard LOCKUP", r"blocked for more than",
    r"rcu_\w+ detected stalls", r"rcu: INFO:", r"nobody cared",
    r"Disabling IRQ #", r"segfault at",
]
# radeon / drm lines that mean the driver gave up on something (reference
# section 8: every poll and timeout that can fail the driver).
RADEON_BAD = [
    r"Disabling GPU acceleration", r"cp isn't working", r"failed testing IB",
    r"ring \d+ test failed", r"ib test failed", r"GPU lockup",
    r"GPU softreset", r"failed to reset GPU", r"GPU reset",
    r"wait for empty RBBM fifo failed", r"wait idle failed",
    r"timeout", r"timed out", r"Fatal error during GPU init",
    r"probe of \S+ failed", r"Failed to load firmware",
    r"failed to", r"Failed to", r"Wait for MC idle timedout",
    r"Unable to locate a BIOS ROM", r"Expecting atombios",
    r"trying to bind memory to uninitialized GART",
    r"\[drm:\w+\] \*ERROR\*",
]
# Default monitors: one on each connector of the HELPERS.md contract.
DEFAULT_CONNECTORS = {"VGA-1": "connected", "DVI-D-1": "connected"}
# fbcon's default VGA palette (drivers/tty/vt/vt.c default_red/grn/blu).
VGA_PALETTE = {41: (0xAA, 0, 0), 42: (0, 0xAA, 0), 43: (0xAA, 0x55, 0),
               44: (0, 0, 0xAA), 45: (0xAA, 0, 0xAA), 46: (0, 0xAA, 0xAA),
               47: (0xAA, 0xAA, 0xAA)}
FBCON_TEXT = "R500 FBCON TEST"
# libdrm tests/util/pattern.c, SMPTE top bars in XRGB8888.
SMPTE_TOP = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
             (192, 0, 192), (192, 0, 0), (0, 0, 192)]


# ---- transcript ------------------------------------------------------------

class Boot:
    """What one boot of the guest printed."""

    def __init__(self, index):
        self.index = index
        self.init_index = None   # ordinal of its INIT, as the host counts boots
        self.lines = []          # every serial line of this boot
        self.events = []         # (EVENT, rest) of @@R500 lines
        self.sections = {}       # name -> (lines, rc)
        self.host = []           # what the host did during this boot
        self.shutdown = None     # console lines after DONE/REBOOTING

    def event(self, name):
        return [rest for ev, rest in self.events if ev == name]

    def first(self, name, default=None):
        ev = self.event(name)
        return ev[0] if ev else default

    def section(self, name):
        return self.sections.get(name, (None, None))[0]

    def kernel_log(self):
        """dmesg as the guest dumped it; the live console when it could not."""
        dm = self.section("dmesg")
        if dm is not None:
            return dm, "dmesg"
        return [l for l in self.lines if l.startswith("[")], "console"

    def kv(self, name):
        """key=value pairs of each `name` event, as dicts."""
        return [kv_pairs(rest) for rest in self.event(name)]


def kv_pairs(text):
    out = {}
    for m in re.finditer(r"(\w[\w.-]*)=(\S*)", text):
        out.setdefault(m.group(1), m.group(2))
    return out


# A kernel message's timestamp; printk can land on the serial console in
# the middle of a line /init is writing (after its text, before its
# newline): "@@R500 PCI-BAR ... flags=0x40200[    2.177950] tsc: ...".
KMSG_TS = re.compile(r"\[\s*\d+\.\d{6}\] ")


def split_printk(text):
    """Serial lines, with a kernel message glued to a marker split off."""
    for raw in text.splitlines():
        line = raw.replace("\r", "")
        i = line.find("@@R500 ")
        m = KMSG_TS.search(line, i) if i >= 0 else None
        if m:
            yield line[:m.start()]
            yield line[m.start():]
        else:
            yield line


def parse_transcript(text):
    """Split the serial transcript into boots (at the kernel's first line)."""
    boots, cur, open_sec, inits = [], None, None, 0
    for line in split_printk(text):
        if cur is None or open_sec is None and \
                re.match(r"\[\s*0\.000000\] Linux version", line):
            cur = Boot(len(boots) + 1)
            boots.append(cur)
            open_sec = None
        cur.lines.append(line)
        i = line.find("@@R500 ")
        if i >= 0:
            ev, _, rest = line[i + 7:].partition(" ")
            if ev == "BEGIN":
                open_sec = rest.strip()
                cur.sections[open_sec] = ([], None)
            elif ev == "END":
                name, _, rc = rest.partition(" rc=")
                if name in cur.sections:
                    cur.sections[name] = (cur.sections[name][0],
                                          int(rc) if rc.strip().isdigit() else None)
                open_sec = None
            else:
                cur.events.append((ev, rest))
                if ev in ("DONE", "REBOOTING"):
                    cur.shutdown = []
                if ev == "INIT":
                    inits += 1
                    cur.init_index = inits
            continue
        if open_sec is not None:
            cur.sections[open_sec][0].append(line)
        elif cur.shutdown is not None:
            cur.shutdown.append(line)
    return [b for b in boots if b.events or any(l.startswith("[") for l in b.lines)]


# ---- helpers ---------------------------------------------------------------

def grep(lines, pattern):
    rx = re.compile(pattern)
    return [l for l in lines if rx.search(l)]


def parse_size(text):
    """'256M' -> bytes."""
    m = re.fullmatch(r"(\d+)([KMG]?)i?B?", text.strip(), re.I)
    if not m:
        raise ValueError("bad size %r" % text)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def edid_preferred(hexstr):
    """(width, height, refresh Hz) of the first detailed timing, or None."""
    try:
        e = bytes.fromhex(hexstr)
    except ValueError:
        return None
    if len(e) < 128 or e[:8] != b"\x00\xff\xff\xff\xff\xff\xff\x00" or sum(e[:128]) & 0xFF:
        return None
    d = e[54:72]
    clock = struct.unpack_from("<H", d, 0)[0] * 10000
    if not clock:
        return None
    ha = d[2] | (d[4] & 0xF0) << 4
    hb = d[3] | (d[4] & 0x0F) << 8
    va = d[5] | (d[7] & 0xF0) << 4
    vb = d[6] | (d[7] & 0x0F) << 8
    return ha, va, clock / ((ha + hb) * (va + vb))


def edid_valid(hexstr):
    try:
        e = bytes.fromhex(hexstr)
    except ValueError:
        return False
    return len(e) >= 128 and e[:8] == b"\x00\xff\xff\xff\xff\xff\xff\x00" and \
        sum(e[:128]) & 0xFF == 0


def read_ppm(path):
    """(width, height, rgb bytes) of a binary PPM as QEMU's screendump writes."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m or m.group(3) != b"255":
        raise ValueError("%s: not an 8-bit P6 PPM" % path)
    w, h = int(m.group(1)), int(m.group(2))
    px = data[m.end():m.end() + w * h * 3]
    if len(px) != w * h * 3:
        raise ValueError("%s: truncated" % path)
    return w, h, px


def near(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def region_share(img, x0, y0, x1, y1, color, tol=12):
    """Share of pixels of the rectangle within tol of color."""
    w, h, px = img
    x0, x1, y0, y1 = max(0, x0), min(w, x1), max(0, y0), min(h, y1)
    if x0 >= x1 or y0 >= y1:
        return 0.0
    lo = [max(0, c - tol) for c in color]
    hi = [min(255, c + tol) for c in color]
    hit = 0
    for y in range(y0, y1):
        row = px[(y * w + x0) * 3:(y * w + x1) * 3]
        hit += sum(1 for r, g, b in zip(row[0::3], row[1::3], row[2::3])
                   if lo[0] <= r <= hi[0] and lo[1] <= g <= hi[1] and lo[2] <= b <= hi[2])
    return hit / ((x1 - x0) * (y1 - y0))


# ---- the checks ------------------------------------------------------------

class Context:
    """Everything a check may look at."""

    def __init__(self, model, scenario, vram, boots, run, have, connectors,
                 gart_mb=512):
        self.model = model
        self.family, self.device_id = MODELS[model]
        self.scenario = scenario
        self.vram = vram
        self.boots = boots
        self.run = run           # host facts: exit code, timeouts, shots, qmp...
        self.have = set(have)
        self.connectors = connectors
        self.gart_mb = gart_mb


CHECKS = []


def check(name, needs=(), scenarios=None, per_boot=True):
    """Register a check.  per_boot checks run on each boot that ran the
    scenario (all three of the reboot scenario, as name@bootN)."""
    def reg(fn):
        CHECKS.append((name, tuple(needs), scenarios, per_boot, fn))
        return fn
    return reg


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg if len(msg) < 300 else msg[:297] + "...")


# Guest and PCI (no prerequisites) ------------------------------------------

@check("guest.init")
def c_init(ctx, b):
    need(b.event("INIT"), "the guest's /init never started")
    return b.first("INIT")


@check("guest.done")
def c_done(ctx, b):
    to = b.first("TIMEOUT")
    need(to is None, "guest watchdog fired: " + str(to))
    if ctx.scenario == "reboot" and b.index < 3:
        if b.index == 1:
            need(b.event("REBOOTING"), "boot 1 did not reboot")
            return "boot 1 rebooted"
        need("reset" in b.event("SYNC"), "boot 2 did not ask for system_reset")
        return "boot 2 handed over to system_reset"
    need(b.event("DONE"), "the scenario did not finish (last step: %s)" %
         (b.event("STEP")[-1:] or ["none"])[0])
    return "scenario finished"


def card(b):
    for p in b.kv("PCI"):
        if p.get("vendor") == "0x1002":
            return p
    return None


@check("pci.identity")
def c_pci(ctx, b):
    p = card(b)
    need(p, "no vendor 0x1002 device on the guest's PCI bus")
    need(int(p["device"], 16) == ctx.device_id,
         "device %s, expected 0x%04x for %s" % (p["device"], ctx.device_id, ctx.model))
    need(p["class"] == "0x030000", "class %s, expected 0x030000" % p["class"])
    need(p["subsystem"] == SUBSYSTEM, "subsystem %s" % p["subsystem"])
    return "1002:%s class %s" % (p["device"][2:], p["class"])


@check("pci.only-display")
def c_only(ctx, b):
    disp = [p for p in b.kv("PCI") if p.get("class", "").startswith("0x03")]
    need(len(disp) == 1, "%d display-class devices" % len(disp))
    return "the card is the only display device"


@check("pci.bars")
def c_bars(ctx, b):
    p = card(b)
    need(p, "no card")
    bars = {}
    for rest in b.event("PCI-BAR"):
        f = rest.split()
        kv = kv_pairs(rest)
        bars[int(f[1])] = (int(kv["end"], 16) - int(kv["start"], 16) + 1,
                           int(kv["flags"], 16))
    need(0 in bars and bars[0][0] == ctx.vram,
         "BAR0 %s bytes, expected vram-size %d" % (bars.get(0, ("none",))[0], ctx.vram))
    need(2 in bars and bars[2][0] == 64 << 10, "BAR2 (registers) not 64 KiB")
    need(1 in bars and bars[1][1] & 0x100, "BAR1 is not an I/O BAR")
    need(6 in bars, "no expansion ROM")
    return "BAR0 %d MiB VRAM, BAR1 I/O, BAR2 64 KiB, ROM %d KiB" % (
        bars[0][0] >> 20, bars[6][0] >> 10)


@check("modules.load")
def c_modules(ctx, b):
    mods = b.kv("MODULE")
    need(mods, "no module was loaded")
    bad = [m for m in mods if m.get("rc") != "0"]
    names = [e.split()[0] for e in b.event("MODULE")]
    need(not bad, "insmod failed: " + ", ".join(
        n for n, m in zip(names, mods) if m.get("rc") != "0"))
    need("radeon" in names, "radeon was not loaded")
    radeon_ms = mods[names.index("radeon")]["ms"]
    return "%d modules, radeon insmod %s ms" % (len(mods), radeon_ms)


@check("radeon.probe")
def c_probe(ctx, b):
    log, src = b.kernel_log()
    rx = r"initializing kernel modesetting \((\w+) 0x1002:0x([0-9A-F]{4}) 0x([0-9A-F]{4}):0x([0-9A-F]{4})"
    m = [re.search(rx, l) for l in grep(log, rx)]
    need(m, "radeon never probed the card (no 'initializing kernel "
         "modesetting' in %s)" % src)
    fam, dev = m[0].group(1), int(m[0].group(2), 16)
    need(fam == ctx.family, "family %s, expected %s" % (fam, ctx.family))
    need(dev == ctx.device_id, "device 0x%04x" % dev)
    return "radeon probed %s 0x1002:0x%04X" % (fam, dev)


@check("kernel.clean")
def c_clean(ctx, b):
    log, src = b.kernel_log()
    log, known = drop_known_warns(log, ctx.scenario)
    bad = [l for p in KERNEL_BAD for l in grep(log, p)]
    need(not bad, "%s: %s" % (src, bad[0].strip() if bad else ""))
    taint = b.first("TAINT")
    if taint is not None and taint.strip().isdigit():
        t = int(taint)
        # W (9) warning, D (7) oops, L (14) soft lockup, B (5) bad page;
        # W alone is the known WARNs' when they were all there was
        need(not t & ((0 if known else 1 << 9) | 1 << 7 | 1 << 14 | 1 << 5),
             "kernel tainted %d" % t)
    return "no oops, WARN, lockup or stall (%s)%s" % (
        src, "; %d known upstream WARN(s) left out" % known if known else "")


# WARNs of the guest kernel's own that a scenario provokes on any R500,
# each a block whose call trace holds all the names given:
# - blit: on success radeon_do_test_moves never unpins its GTT buffers
#   (upstream; amdgpu's copy was fixed), so at unload ttm_range_man_fini
#   finds the GTT manager in use;
# - gpureset: radeon_gpu_reset suspends (rv515_suspend, r520's too,
#   unpins the GART table) and rv515_resume / r520_resume disable the
#   GART again, unpinning the table a second time (ttm_bo_unpin's
#   WARN_ON_ONCE of a zero pin count);
#   and it ends in drm_helper_resume_force_mode, whose mode set pins each
#   CRTC's frame buffer again (avivo_crtc_do_set_base unpins only an old
#   frame buffer other than the CRTC's) where system resume has it
#   unpinned by radeon_suspend_kms first: that buffer stays pinned once
#   too often, and when its owner (X, kmscube) frees it ttm_bo_release
#   finds it pinned.
KNOWN_WARNS = {
    "blit": [("ttm_range_man_fini", "radeon_ttm_fini")],
    "gpureset": [("ttm_bo_unpin", "radeon_gart_table_vram_unpin",
                  "radeon_gpu_reset"),
                 ("ttm_bo_release", "radeon_bo_unref",
                  "radeon_gem_object_free")],
}


def drop_known_warns(lines, scenario):
    """lines without the scenario's KNOWN_WARNS blocks, and how many."""
    out, block, dropped = [], None, 0
    for l in lines:
        if block is None and "[ cut here ]" in l:
            block = [l]
        elif block is not None:
            block.append(l)
            if "---[ end trace" in l:
                text = "\n".join(block)
                if any(all(n in text for n in names)
                       for names in KNOWN_WARNS.get(scenario, ())):
                    dropped += 1
                else:
                    out += block
                block = None
        else:
            out.append(l)
    return out + (block or []), dropped


@check("kernel.shutdown")
def c_shutdown(ctx, b):
    if b.shutdown is None:
        if ctx.scenario == "reboot" and b.index == 2:
            raise Skip("boot 2 ends by system_reset")
        raise Fail("the guest never reached power-off or reboot")
    rebooting = bool(b.event("REBOOTING"))
    lines = b.shutdown
    lines = drop_known_warns(lines, ctx.scenario)[0]
    end = grep(lines, r"reboot: (Restarting system|Power down)")
    need(end, "the kernel never %s (last: %s)" % (
        "restarted" if rebooting else "powered down",
        (lines[-1:] or ["nothing"])[0].strip()))
    bad = [l for p in KERNEL_BAD for l in grep(lines, p)]
    drv = grep(lines, r"radeon|\[drm|ttm")
    bad += [l for p in RADEON_BAD for l in grep(drv, p)]
    need(not bad, "while shutting down: " + (bad[0].strip() if bad else ""))
    # The driver's teardown must not sit in timeouts (reference section 8).
    start = kv_pairs(b.first("REBOOTING" if rebooting else "DONE", "")).get("uptime_ms")
    m = re.match(r"\[\s*([0-9.]+)\]", end[0])
    if start and m:
        secs = max(0.0, float(m.group(1)) - int(start) / 1000)
        need(secs < 5, "shutdown took %.1f s" % secs)
        return "%s %.1f s after the scenario, cleanly" % (
            "restarted" if rebooting else "powered down", secs)
    return "clean " + ("restart" if rebooting else "power-down")


# radeon bring-up ------------------------------------------------------------

@check("radeon.bound", needs=("atombios",))
def c_bound(ctx, b):
    bound = kv_pairs(b.first("DRIVER", "")).get("bound", "none")
    need(bound in ("radeon", "none"), "the card is bound to " + bound)
    log, _ = b.kernel_log()
    fail = grep(log, r"radeon: probe of .* failed|Fatal error during GPU init|"
                r"Expecting atombios")
    need(bound != "none", "radeon did not bind: " + (fail[0].strip() if fail else "?"))
    return "radeon bound to " + kv_pairs(b.first("DRIVER", "")).get("device")


def log_line(ctx, b, pattern, what):
    log, src = b.kernel_log()
    hit = grep(log, pattern)
    need(hit, "no %s in %s (expected /%s/)" % (what, src, pattern))
    return re.sub(r"^\[[ 0-9.]+\] ", "", hit[0]).strip()


@check("radeon.atombios", needs=("atombios",))
def c_atom(ctx, b):
    return log_line(ctx, b, r"ATOM BIOS: \S", "'ATOM BIOS:' line")


@check("radeon.vram", needs=("atombios",))
def c_vram(ctx, b):
    mb = ctx.vram >> 20
    log_line(ctx, b, r"Detected VRAM RAM=%dM, BAR=%dM" % (mb, mb), "VRAM size")
    return log_line(ctx, b, r"radeon: %dM of VRAM memory ready" % mb, "VRAM ready")


@check("radeon.gart", needs=("atombios", "cp"))
def c_gart(ctx, b):
    return log_line(ctx, b, r"PCIE GART of %dM enabled" % ctx.gart_mb, "PCIE GART")


@check("radeon.microcode", needs=("atombios", "cp"))
def c_ucode(ctx, b):
    log, _ = b.kernel_log()
    need(not grep(log, r"radeon_cp: Failed to load firmware|Direct firmware load .*R520_cp"),
         "firmware radeon/R520_cp.bin did not load")
    return log_line(ctx, b, r"Loading R500 Microcode", "microcode load")


@check("radeon.ring-test", needs=("atombios", "cp"))
def c_ring(ctx, b):
    return log_line(ctx, b, r"ring test succeeded in \d+ usecs", "ring test")


@check("radeon.ib-test", needs=("atombios", "cp"))
def c_ib(ctx, b):
    return log_line(ctx, b, r"ib test succeeded in \d+ usecs", "IB test")


@check("radeon.accel", needs=("atombios", "cp"))
def c_accel(ctx, b):
    log, _ = b.kernel_log()
    bad = grep(log, r"Disabling GPU acceleration|cp isn't working|failed testing IB")
    need(not bad, bad[0].strip() if bad else "")
    need(grep(log, r"radeon: irq initialized"), "no 'radeon: irq initialized'")
    return "acceleration stays enabled"


# What the gpureset scenario's resets print when they work: radeon's
# lockup detection (radeon_fence_check_lockup), radeon_gpu_reset and
# rs600_asic_reset; "failed to reset GPU" stays bad.
RESET_OK = (r"GPU reset succeed(ed, trying to resume)?\s*$|"
            r"rs600_asic_reset:\d+\) RBBM_STATUS=|ring \d+ stalled for more than \d+msec|"
            r"GPU lockup \(current fence id")


@check("radeon.no-errors", needs=("atombios", "cp", "display"))
def c_noerr(ctx, b):
    log, src = b.kernel_log()
    drv = [l for l in grep(log, r"radeon|\[drm|ttm|fbcon")
           if "command line:" not in l.lower() and
           not (ctx.scenario == "gpureset" and re.search(RESET_OK, l))]
    bad = [l for p in RADEON_BAD for l in grep(drv, p)]
    need(not bad, "%s: %s" % (src, bad[0].strip() if bad else ""))
    return "no driver errors, timeouts or lockups (%d driver lines)" % len(drv)


# display ---------------------------------------------------------------------

def connectors(b):
    out = {}
    for rest in b.event("CONNECTOR"):
        name = rest.split()[0]
        kv = kv_pairs(rest)
        out[re.sub(r"^card\d+-", "", name)] = kv
    return out


@check("connectors.hotplug", needs=("atombios", "display"))
def c_hotplug(ctx, b):
    cons = connectors(b)
    need(cons, "the guest saw no DRM connectors")
    for name, want in ctx.connectors.items():
        need(name in cons, "no connector %s (have %s)" % (name, ", ".join(cons)))
        got = cons[name]["status"]
        need(got == want, "%s is %s, the device reports %s" % (name, got, want))
        has_edid = edid_valid(cons[name].get("edid", ""))
        need(has_edid == (want == "connected"),
             "%s: %s but EDID %s" % (name, got, "read" if has_edid else "missing/invalid"))
    return ", ".join("%s %s" % (n, c["status"]) for n, c in sorted(cons.items()))


def preferred_modes(b):
    out = []
    for name, c in sorted(connectors(b).items()):
        if c.get("status") == "connected":
            p = edid_preferred(c.get("edid", ""))
            if p:
                out.append((name, p))
    return out


# Every scenario but blit, which turns fbdev off (run.py explains why).
FBCON_SCENARIOS = ("boot", "kms", "modetest", "vbltest", "reboot")


@check("fbcon.radeondrmfb", needs=("atombios", "display"),
       scenarios=FBCON_SCENARIOS)
def c_fbcon(ctx, b):
    fb = kv_pairs(b.first("FB", ""))
    need(fb.get("name") == "radeondrmfb", "fb0 is %s" % fb.get("name", "absent"))
    log, _ = b.kernel_log()
    need(grep(log, r"fbcon: radeondrmfb \(fb0\) is primary device"),
         "fbcon did not take radeondrmfb as primary")
    vt = [kv_pairs(v) for v in b.event("VTCON")]
    need(any(v.get("bind") == "1" and "frame" in b.event("VTCON")[i]
             for i, v in enumerate(vt)), "no frame buffer console bound")
    return "fbcon on radeondrmfb %s" % fb.get("virtual_size")


@check("fbcon.mode", needs=("atombios", "display"), scenarios=FBCON_SCENARIOS)
def c_fbmode(ctx, b):
    fb = kv_pairs(b.first("FB", ""))
    need(fb.get("virtual_size"), "no fb0")
    w, h = (int(x) for x in fb["virtual_size"].split(","))
    prefs = preferred_modes(b)
    need(prefs, "no connected connector with a valid EDID")
    need(any((pw, ph) == (w, h) for _, (pw, ph, _) in prefs),
         "fb0 is %dx%d, EDID preferred: %s" % (w, h, ", ".join(
             "%s %dx%d" % (n, pw, ph) for n, (pw, ph, _) in prefs)))
    return "fb0 %dx%d = EDID preferred mode" % (w, h)


def shot_for(ctx, b, name, size=None):
    """The screendump of one head: the first whose size is size (w, h)
    when given (the CRTC a mode set went to), else head 0."""
    shots = ctx.run.get("shots", {})
    paths = shots.get((b.init_index, name))
    if not paths:
        raise Fail("the host took no screendump '%s'" % name)
    if isinstance(paths, str):
        paths = [paths]
    imgs = [read_ppm(p) for p in paths]
    for img in imgs:
        if size is None or img[:2] == size:
            return img
    return imgs[0]


def fbcon_geometry(ctx, b, shot):
    """(image, cell width, cell height) of a screendump of fbcon."""
    img = shot_for(ctx, b, shot)
    w, h, _ = img
    fb = kv_pairs(b.first("FB", ""))
    fw, fh = (int(x) for x in fb.get("virtual_size", "0,0").split(","))
    need((w, h) == (fw, fh), "screendump %dx%d, fb0 %dx%d" % (w, h, fw, fh))
    size = kv_pairs(b.first("TTY1", "")).get("size", "")
    need(re.fullmatch(r"\d+x\d+", size), "tty1 size unknown")
    rows, cols = (int(x) for x in size.split("x"))
    cw, ch = w // cols, h // rows
    need(cw >= 4 and ch >= 8, "implausible cells %dx%d" % (cw, ch))
    return img, cw, ch


@check("fbcon.console", needs=("atombios", "display"),
       scenarios=("kms", "modetest"))
def c_fbconsole(ctx, b):
    img, cw, ch = fbcon_geometry(ctx, b, "console")
    w, h, _ = img
    # The kernel log as fbcon draws it: rows of cells, each either blank or
    # part black, part the default grey foreground.
    text_rows = 0
    for r in range(h // ch):
        black = region_share(img, 0, r * ch, w, (r + 1) * ch, (0, 0, 0), 8)
        grey = region_share(img, 0, r * ch, w, (r + 1) * ch, VGA_PALETTE[47], 24)
        need(black + grey > 0.98, "row %d is neither text nor background "
             "(%.0f%% black, %.0f%% grey)" % (r, black * 100, grey * 100))
        text_rows += grey > 0.003
    need(text_rows >= 5, "only %d rows of text on the console" % text_rows)
    return "%d rows of console text" % text_rows


@check("fbcon.screendump", needs=("atombios", "display"),
       scenarios=("kms", "modetest"))
def c_fbshot(ctx, b):
    return fbcon_text_shown(ctx, b, "fbcon")


def fbcon_text_shown(ctx, b, shot):
    """fbcon_shot's text and colour cells in the screendump shot."""
    img, cw, ch = fbcon_geometry(ctx, b, shot)
    w, h, _ = img
    # Row 2: four cells of each ANSI background colour.
    for i, code in enumerate(sorted(VGA_PALETTE)):
        x0, y0 = i * 4 * cw, 2 * ch
        share = region_share(img, x0, y0, x0 + 4 * cw, y0 + ch, VGA_PALETTE[code])
        need(share > 0.97, "colour cell %d (\\e[%dm) only %.0f%% %s" %
             (i, code, share * 100, VGA_PALETTE[code]))
    # Row 0: glyphs in letter cells, nothing in the blanks.
    for i, c in enumerate(FBCON_TEXT):
        bg = region_share(img, i * cw, 0, (i + 1) * cw, ch, (0, 0, 0), 8)
        if c == " ":
            need(bg > 0.99, "blank cell %d of the text is not blank" % i)
        else:
            need(0.3 < bg < 0.97, "cell %d ('%s') shows no glyph (%.0f%% black)" %
                 (i, c, bg * 100))
    return "console text and colours on screen (%dx%d, %dx%d cells)" % (w, h, cw, ch)


# modetest / vbltest ---------------------------------------------------------

def connected_names(b):
    return [n for n, c in sorted(connectors(b).items()) if c.get("status") == "connected"]


def freqs(lines):
    return [float(m.group(1)) for l in lines or []
            for m in [re.search(r"freq: ([0-9.]+)Hz", l)] if m]


@check("modetest.modes", needs=("atombios", "display"), scenarios=("modetest",))
def c_modes(ctx, b):
    names = connected_names(b)
    need(names, "no connected connector")
    done = []
    for name in names:
        for mode in ("1024x768", "800x600"):
            tag = "modetest-%s-%s" % (name, mode)
            out = b.section(tag)
            need(out is not None, "%s did not run" % tag)
            set_ = grep(out, r"setting mode %s-[0-9.]+Hz" % mode)
            need(set_, "%s: no 'setting mode' (%s)" % (tag, " | ".join(out[-3:])))
            bad = grep(out, r"failed|Failed|timed out")
            need(not bad, "%s: %s" % (tag, bad[0] if bad else ""))
            mw, mh = (int(x) for x in mode.split("x"))
            img = shot_for(ctx, b, tag, (mw, mh))
            need(img[:2] == (mw, mh), "%s: screendump %dx%d" % (tag, img[0], img[1]))
            for i, col in enumerate(SMPTE_TOP):
                x, y = int((i + 0.5) * mw / 7), mh // 3
                o = (y * mw + x) * 3
                need(near(img[2][o:o + 3], col, 8), "%s: bar %d is %s, expected %s" %
                     (tag, i, tuple(img[2][o:o + 3]), col))
            done.append("%s %s" % (name, mode))
    return "set and scanned out: " + ", ".join(done)


def refresh_of(line):
    m = re.search(r"setting mode \d+x\d+-([0-9.]+)Hz", line)
    return float(m.group(1)) if m else None


@check("modetest.pageflip", needs=("atombios", "display"), scenarios=("modetest",))
def c_flip(ctx, b):
    res = []
    for name in connected_names(b):
        tag = "modetest-%s-flip" % name
        out = b.section(tag)
        need(out is not None, "%s did not run" % tag)
        bad = grep(out, r"failed to page flip|select timed out")
        need(not bad, "%s: %s" % (tag, bad[0] if bad else ""))
        rate = refresh_of((grep(out, r"setting mode") or [""])[0])
        need(rate, "%s: mode not set" % tag)
        f = freqs(out)
        need(len(f) >= 3, "%s: %d 'freq:' lines in 6 s" % (tag, len(f)))
        steady = sorted(f[1:])
        # Each 'freq:' line averages about a second of flips.  Under TCG on
        # a loaded host a vCPU can miss a vblank now and then, so one
        # second may come out low; the median must be the mode's rate and
        # none may be far off (a stuck or halved flip rate fails).
        median = steady[len(steady) // 2]
        need(0.9 * rate <= median <= 1.02 * rate and
             all(0.75 * rate <= x <= 1.02 * rate for x in steady),
             "%s: flip rates %s, mode %.2f Hz" % (tag, f[1:], rate))
        res.append("%s %.1f Hz" % (name, sum(steady) / len(steady)))
    need(res, "no connected connector")
    return "page flips at the mode's rate: " + ", ".join(res)


def starting_count(lines):
    for l in lines or []:
        m = re.search(r"starting count: (\d+)", l)
        if m:
            return int(m.group(1))
    return None


@check("vbltest.rate", needs=("atombios", "display"), scenarios=("vbltest",))
def c_vbl(ctx, b):
    prefs = [p[2] for _, p in preferred_modes(b)]
    need(prefs, "no connected connector with a valid EDID")
    ts = {}
    for rest in b.event("VBL"):
        ts.update({(kv_pairs(rest)["crtc"], k): int(v) for k, v in kv_pairs(rest).items()
                   if k.endswith("_ms")})
    res = []
    for crtc in range(min(2, len(prefs))):
        out = b.section("vbltest-%d" % crtc)
        end = b.section("vbltest-%d-end" % crtc)
        c0, c1 = starting_count(out), starting_count(end)
        need(c0 is not None and c1 is not None,
             "crtc %d: vbltest gave no counts (%s)" % (crtc, " | ".join((out or [])[:2])))
        dt = (ts[(str(crtc), "t1_ms")] - ts[(str(crtc), "t0_ms")]) / 1000
        rate = (c1 - c0) / dt
        # The two counts are read by vbltest after it starts, the times by
        # the shell before: process start-up on a loaded TCG host shifts
        # the window by up to ~0.3 s of the 6 s, hence 5 %.  A counter that
        # stands still or runs at another mode's rate is far outside.
        need(any(abs(rate - p) <= 0.05 * p for p in prefs),
             "crtc %d: counter %.2f Hz, modes %s" % (crtc, rate, prefs))
        f = freqs(out)
        need(f, "crtc %d: no vblank events" % crtc)
        # Every second's events at the mode's rate, but one: a TCG guest
        # whose host is busy (CI's two cores shared with a build) can
        # lose most of one second's events (seen: 48.9 and 61.6 Hz for
        # 75 among samples of 74.9), which the counter above still
        # counts.  A missing or slow interrupt fails every second.
        low = [x for x in f[1:] or f if x < 0.9 * min(prefs)]
        need(len(low) <= 1 and len(low) < len(f[1:] or f),
             "crtc %d: event rates %s" % (crtc, f))
        res.append("crtc %d counter %.2f Hz, events %.1f Hz" % (crtc, rate, f[-1]))
    return "; ".join(res)


# buffer moves ----------------------------------------------------------------

@check("blit.moves", needs=("atombios", "cp"), scenarios=("blit",))
def c_blit(ctx, b):
    log, _ = b.kernel_log()
    bad = grep(log, r"Incorrect (GTT->VRAM|VRAM->GTT) copy|Failed .*copy|"
               r"Failed to wait for .* fence|Error while testing BO move|"
               r"acceleration disabled, skipping move tests")
    need(not bad, bad[0].strip() if bad else "")
    ok = grep(log, r"Tested GTT->VRAM and VRAM->GTT copy for GTT offset")
    # radeon_do_test_moves: (GTT - IB pool 1 MiB - ring 1 MiB - WB page) / 1 MiB
    want = ctx.gart_mb - 3
    need(len(ok) >= want, "%d of at least %d 1 MiB round trips verified" % (len(ok), want))
    return "%d GTT<->VRAM blit round trips, data verified by the kernel" % len(ok)


# whole run (host side) -------------------------------------------------------

@check("qemu.exit", per_boot=False)
def c_qexit(ctx, _):
    r = ctx.run
    need(not r.get("timed_out"), "wall-clock timeout after %d s (QEMU killed)" %
         r.get("timeout", 0))
    need(r.get("exit_code") == 0, "QEMU exit status %s" % r.get("exit_code"))
    bad = grep(r.get("stderr", "").splitlines(),
               r"Assertion|Aborted|Segmentation|AddressSanitizer|hardware error|"
               r"qemu: fatal|core dumped")
    need(not bad, "QEMU: " + (bad[0] if bad else ""))
    return "QEMU exited cleanly after the guest powered off (%.0f s)" % r.get("seconds", 0)


@check("qemu.healthy", per_boot=False)
def c_qhealthy(ctx, _):
    st = ctx.run.get("status", [])
    need(st, "QMP was never queried")
    need(all(s == "running" for s in st), "QMP status: %s" % st)
    return "QMP answered 'running' at each of %d boots" % len(st)


@check("reboot.boots", per_boot=False, scenarios=("reboot",))
def c_reboot(ctx, _):
    inits = [b for b in ctx.boots if b.event("INIT")]
    need(len(inits) >= 3, "%d boots reached /init, expected 3 (reboot, "
         "system_reset)" % len(inits))
    need(ctx.run.get("resets") == 1, "system_reset was not issued")
    need(inits[2].event("DONE"), "the third boot did not finish")
    return "guest reboot, then system_reset: 3 boots"


# ---- evaluation --------------------------------------------------------------

# Scenarios judged by the host alone: what the guest does after them is
# not the point (a hostile guest's own kernel may not survive its garbage),
# so only the checks that name them apply.
HOST_JUDGED = ("hostile",)


def evaluate(ctx):
    """[(name, status, detail)] for the scenario; status PASS/FAIL/SKIP."""
    results = []
    boots = [b for b in ctx.boots if b.event("INIT")] or ctx.boots[-1:]
    for name, needs, scenarios, per_boot, fn in CHECKS:
        if scenarios and ctx.scenario not in scenarios:
            continue
        if not scenarios and ctx.scenario in HOST_JUDGED:
            continue
        targets = [None]
        if per_boot:
            targets = boots if ctx.scenario == "reboot" else boots[-1:]
        if per_boot and not targets:
            results.append((name, "FAIL", "the guest printed nothing"))
            continue
        for b in targets:
            full = name + ("@boot%d" % b.index if ctx.scenario == "reboot" and b else "")
            try:
                status, detail = "PASS", fn(ctx, b) or ""
            except Fail as e:
                status, detail = "FAIL", str(e)
            except Skip as e:
                status, detail = "SKIP", str(e)
            except (KeyError, ValueError, IndexError, OSError) as e:
                status, detail = "FAIL", "%s: %s" % (type(e).__name__, e)
            missing = [n for n in needs if n not in ctx.have]
            if missing and status != "SKIP":
                detail = "needs %s; today: %s%s" % (
                    "+".join(missing), status.lower(), ": " + detail if detail else "")
                status = "SKIP"
            results.append((full, status, detail))
    return results
