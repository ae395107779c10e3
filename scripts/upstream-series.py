#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The card as a patch series for QEMU's own tree (docs/upstream.md).

    upstream-series.py [--version 10.2] [--out DIR] [--check] [--build]
                       [--romdir DIR]

Writes `git format-patch` output against the pristine QEMU source of
--version (the upstream tarball of the distro's source package, without
Debian's patches: scripts/qemu-build.sh --source) into DIR/patches:

  hw/display/r500/       the chip core and the board (hw/r500 here)
  hw/display/Kconfig, hw/display/meson.build, meson.build (trace events)
  pc-bios/r500-*.rom     the AtomBIOS images the device loads by default,
  roms/r500/             with the sources they are assembled from
  tests/qtest/r500-*     the qtests, registered as QEMU's own
  docs/system/devices/r500.rst, MAINTAINERS

The out-of-tree build's compatibility header (hw/r500/qemu/r500_compat.h)
is not in the series: the board is written against the newest QEMU, and
the few names the header maps for older trees are written out as that
tree spells them (REWRITES below; a name left over fails the script).

--check applies the series with `git am` to a new clone of the pristine
tree and runs QEMU's scripts/checkpatch.pl on every patch (what it may
report and the series still pass: ALLOWED below); --build also
configures that tree (x86_64, the qtest accelerator only, no TCG; QEMU's
default devices, the card among them) and builds it; --test runs the
r500 qtests of that build through QEMU's own `meson test`
(qtest-x86_64/r500-*), with the ROMs of --romdir.  `make test` does all
of it (meson.build: the `upstream` target and test), so the series
never goes stale.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEST = "hw/display/r500"

# What the compatibility header maps, as the newest tree spells it.
REWRITES = [
    (r'#include "r500_compat.h"\n', '#include "system/memory.h"\n'),
    (r'#define R500_COMPAT_DIRTY_MEMORY\n', '#include "system/physmem.h"\n'),
    (r"\bR500ClassData\b", "const void *"),
    (r"\bR500InterfaceInfo\b", "const InterfaceInfo"),
    (r"const void \* data\)", "const void *data)"),
    (r'"hw/r500/', '"' + DEST + '/'),
    (r'"trace/trace-hw_r500_qemu.h"', '"trace/trace-hw_display_r500_qemu.h"'),
]
# The ROM builder's view of the tree (roms/r500defs.py).
ROM_REWRITES = [
    (r'CHIP_DIR = \("hw", "r500"\)', 'CHIP_DIR = ("hw", "display", "r500")'),
    (r'ATOM_DIR = \("roms", "atom"\)', 'ATOM_DIR = ("roms", "r500", "atom")'),
]
LEFTOVER = re.compile(r"R500_QEMU_AT_LEAST|R500ClassData|R500InterfaceInfo|"
                      r"R500_COMPAT_|r500_compat\.h")

# The chip core's patches, in order: a file goes into the first whose
# patterns match (the rest of hw/r500 outside qemu/ into the first).
CORE_PATCHES = [
    ("chip core: register file, memory controller, interrupts, command "
     "processor",
     [],
     "The R500's register file and indirect spaces (PLL, MC, PCIE), the\n"
     "memory controller with the PCIE GART, the host data path, interrupts\n"
     "and the command processor (ring and indirect buffers, PM4), in plain\n"
     "C11 with glib: the chip core has no QEMU headers; it reaches the\n"
     "machine through R500HostOps, implemented by the board in a later\n"
     "patch (and, out of tree, by unit tests, fuzzers and a host harness\n"
     "that runs Mesa's r300 driver on it).  Nothing is built yet."),
    ("display controller (AVIVO)", [r"disp/"],
     "The AVIVO display controller: two CRTCs with their surfaces, the\n"
     "hardware cursor, the LUTs, the outputs and DDC, as radeon KMS and\n"
     "the AtomBIOS drive them."),
    ("2D engine", [r"rb/rb2d"],
     "The 2D engine (GUI blits, fills, host data, ROPs) as radeon's TTM\n"
     "moves and X.org's EXA use it."),
    ("3D pipeline and its software renderer",
     [r"vap/", r"rast/", r"us/", r"tx/", r"rb/", r"pipe/(?!gl)"],
     "The 3D pipeline: vertex fetch and the PVS vertex shader, setup and\n"
     "rasterisation, the US fragment shader, texture units, the render\n"
     "backend with Hyper-Z, and the seam below which a renderer draws.\n"
     "The software renderer here is the reference."),
    ("host-GL renderer", [r"pipe/gl", r"gl/", r".*_glsl"],
     "A second renderer below the seam: the host's OpenGL through EGL on\n"
     "a thread of its own, built where QEMU has OpenGL (--enable-opengl);\n"
     "a draw it cannot express goes to the software renderer."),
]


def run(cmd, **kw):
    kw.setdefault("check", True)
    return subprocess.run(cmd, **kw)


def git(tree, *args, **kw):
    return run(["git", "-C", tree, "-c", "user.name=r500",
                "-c", "user.email=r500@invalid"] + list(args), **kw)


def identity():
    p = run(["git", "-C", ROOT, "var", "GIT_AUTHOR_IDENT"],
            stdout=subprocess.PIPE, text=True, check=False)
    m = re.match(r"(.*?) <([^>]*)>", p.stdout)
    return (m.group(1), m.group(2)) if m else ("r500", "r500@invalid")


def log(msg):
    print("upstream-series: " + msg, file=sys.stderr, flush=True)


def pristine_repo(version, cache):
    """A git repository of the pristine tree, made once per version."""
    src = run([os.path.join(HERE, "qemu-build.sh"), "--source", version],
              stdout=subprocess.PIPE, text=True).stdout.strip()
    repo = os.path.join(cache, "series", "qemu-%s.git" % version)
    if os.path.exists(os.path.join(repo, ".r500-done")):
        return repo
    log("making a git repository of %s" % src)
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.dirname(repo), exist_ok=True)
    run(["cp", "-a", src, repo])
    os.unlink(os.path.join(repo, ".r500-unpacked"))
    git(repo, "init", "-q")
    git(repo, "add", "-A", "-f")
    with open(os.path.join(src, "VERSION")) as f:
        ver = f.read().strip()
    git(repo, "commit", "-q", "-m", "QEMU %s (the upstream tarball of Debian's "
        "source package)" % ver)
    git(repo, "tag", "pristine")
    open(os.path.join(repo, ".r500-done"), "w").close()
    return repo


def rewrite(text, rules=REWRITES):
    for pat, rep in rules:
        text = re.sub(pat, rep, text)
    return text


def put(tree, dest, text=None, src=None):
    path = os.path.join(tree, dest)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if src is not None:
        shutil.copyfile(src, path)
    else:
        with open(path, "w") as f:
            f.write(text)


def core_files():
    """hw/r500's files (paths relative to it) by core patch, and the
    board's; the compatibility header is left out."""
    groups = [[] for _ in CORE_PATCHES]
    board = []
    for top, dirs, files in os.walk(os.path.join(ROOT, "hw/r500")):
        dirs.sort()
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(top, f), os.path.join(ROOT, "hw/r500"))
            if rel.startswith("qemu/") or rel in ("meson.build", "Kconfig"):
                if rel != "qemu/r500_compat.h":
                    board.append(rel)
                continue
            first = [i for i, (_, pats, _) in enumerate(CORE_PATCHES)
                     if any(re.match(p, rel) for p in pats)]
            groups[(first or [0])[0]].append(rel)
    return groups, board


def edit(tree, path, fn):
    p = os.path.join(tree, path)
    with open(p) as f:
        old = f.read()
    new = fn(old)
    if new == old:
        raise SystemExit("upstream-series: %s did not change" % path)
    with open(p, "w") as f:
        f.write(new)


def insert_before(text, anchor, block):
    i = text.index(anchor)
    return text[:i] + block + text[i:]


def commit(tree, author, subject, body):
    git(tree, "add", "-A")
    git(tree, "-c", "user.name=" + author[0], "-c", "user.email=" + author[1],
        "commit", "-q", "-m", subject + "\n\n" + body + "\n")


def qtest_names():
    with open(os.path.join(ROOT, "tests/qtest/meson.build")) as f:
        m = re.search(r"r500_qtests = \[(.*?)\]", f.read(), re.S)
    return re.findall(r"'([^']+)'", m.group(1))


def qemu_fixes():
    """Fixes to QEMU itself that the device's tests need, sent first
    (scripts/upstream/qemu/; scripts/qemu-build.sh applies the same files
    to the out-of-tree build)."""
    d = os.path.join(HERE, "upstream", "qemu")
    return sorted(os.path.join(d, p) for p in os.listdir(d)
                  if p.endswith(".patch"))


def make_series(version, out, romdir, cache):
    base = pristine_repo(version, cache)
    tree = os.path.join(out, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    git(ROOT, "clone", "-q", "--shared", base, tree)
    author = identity()
    groups, board = core_files()

    # 0: QEMU's own fixes, as written (their author and message).
    fixes = qemu_fixes()
    if fixes:
        git(tree, "am", "-q", "--whitespace=error", *fixes)

    # 1-5: the chip core, by block; MAINTAINERS with the first.
    for i, ((subject, _, body), files) in enumerate(zip(CORE_PATCHES, groups)):
        for rel in files:
            with open(os.path.join(ROOT, "hw/r500", rel), errors="surrogateescape") as f:
                put(tree, os.path.join(DEST, rel), rewrite(f.read()))
        if i == 0:
            edit(tree, "MAINTAINERS", lambda t: insert_before(t, "virtio-gpu\n", (
                "ATI Radeon X1000 (R500)\nM: %s <%s>\nS: Maintained\n"
                "F: %s/\nF: pc-bios/r500-*.rom\nF: roms/r500/\n"
                "F: tests/qtest/r500-*\nF: docs/system/devices/r500.rst\n\n"
                % (author[0], author[1], DEST))))
        commit(tree, author, "hw/display/r500: " + subject, body)

    # 6: the board and the build.
    for rel in board:
        with open(os.path.join(ROOT, "hw/r500", rel)) as f:
            text = rewrite(f.read())
        if rel == "Kconfig":
            edit(tree, "hw/display/Kconfig", lambda t: t + "\n" + "".join(
                l for l in text.splitlines(True) if not l.startswith("#")))
            continue
        put(tree, os.path.join(DEST, rel), text)
    edit(tree, "hw/display/meson.build", lambda t: t + "\nsubdir('r500')\n")
    edit(tree, "meson.build", lambda t: t.replace(
        "trace_events_subdirs = [\n",
        "trace_events_subdirs = [\n  '%s/qemu',\n" % DEST, 1))
    commit(tree, author, "hw/display/r500: the r500 device",
           "The QEMU board of the chip core: a PCI Express VGA-class device\n"
           "'r500' (models rv515, rv530, r520, r580) with QEMU's common VGA\n"
           "core, one console per CRTC, DMA, INTx/MSI, migration, trace\n"
           "events, and the card's own thread outside the big lock.")

    # 7: the ROMs and their sources.
    for name in sorted(os.listdir(romdir)):
        if re.match(r"r500-\w+\.rom$", name):
            put(tree, os.path.join("pc-bios", name), src=os.path.join(romdir, name))
    for top, dirs, files in os.walk(os.path.join(ROOT, "roms")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".py", ".atom")):
                src = os.path.join(top, f)
                with open(src) as fh:
                    put(tree, os.path.join("roms/r500", os.path.relpath(
                        src, os.path.join(ROOT, "roms"))),
                        rewrite(fh.read(), ROM_REWRITES))
    edit(tree, "pc-bios/meson.build", lambda t: t.replace(
        "blobs = [\n", "blobs = [\n  'r500-r520.rom',\n  'r500-r580.rom',\n"
        "  'r500-rv515.rom',\n  'r500-rv530.rom',\n", 1))
    commit(tree, author, "pc-bios: the r500's AtomBIOS images",
           "One option ROM per model: SeaVGABIOS's ATI build (boot text and\n"
           "VESA modes) followed by the AtomBIOS that radeon KMS and the\n"
           "X.org driver run, assembled from roms/r500/atom by\n"
           "roms/r500/mkrom.py (python3 mkrom.py --model rv515 --vgabios\n"
           "vgabios-ati.bin -o r500-rv515.rom).")

    # 8: the qtests, registered as QEMU's own.
    names = qtest_names()
    for f in sorted(os.listdir(os.path.join(ROOT, "tests/qtest"))):
        if f.endswith((".c", ".h")):
            with open(os.path.join(ROOT, "tests/qtest", f)) as fh:
                put(tree, os.path.join("tests/qtest", f), rewrite(fh.read()))
    block = ("# ATI Radeon X1000 (R500), hw/display/r500\n"
             "r500_qtests = [\n%s]\n"
             "if config_all_devices.has_key('CONFIG_R500')\n"
             "  qtests_x86_64 += r500_qtests\n"
             "  foreach t : r500_qtests\n"
             "    qtests += {t: files('r500-qtest.c', 'r500-cp-env.c',\n"
             "                        'r500-3d-env.c')}\n"
             "  endforeach\n"
             "endif\n\n") % "".join("  '%s',\n" % n for n in names)
    edit(tree, "tests/qtest/meson.build", lambda t: insert_before(
        t.replace("slow_qtests = {\n", "slow_qtests = {\n%s" % "".join(
            "  '%s': 300,\n" % n for n in names), 1),
        "qtest_executables = {}\n", block))
    commit(tree, author, "tests/qtest: r500 tests",
           "Register-level tests of the r500: PCI identity and BARs, the CP\n"
           "(ring, IBs, fences, the kernel's ring and IB tests), the ROM,\n"
           "the display (modes, cursor, flips, vblank, EDID, tiling), the\n"
           "card's liveness under a hostile guest, migration in the middle\n"
           "of the ring, an IB and a draw, the contract with the driver and\n"
           "the card's own thread.")

    # 9: the documentation.
    with open(os.path.join(HERE, "upstream", "r500.rst")) as f:
        put(tree, "docs/system/devices/r500.rst", f.read())
    edit(tree, "docs/system/device-emulation.rst", lambda t: t.replace(
        "   devices/nvme.rst\n", "   devices/nvme.rst\n   devices/r500.rst\n", 1))
    commit(tree, author, "docs/system: the r500 device",
           "What the r500 is for, how to start it, its properties, and what\n"
           "a guest can and cannot do with it.")

    bad = subprocess.run(["git", "-C", tree, "grep", "-lE", LEFTOVER.pattern,
                          "--", DEST, "tests/qtest"], stdout=subprocess.PIPE,
                         text=True).stdout.split()
    if bad:
        raise SystemExit("upstream-series: the compatibility layer is left in "
                         "%s: add a rule to REWRITES" % " ".join(bad))

    patches = os.path.join(out, "patches")
    shutil.rmtree(patches, ignore_errors=True)
    git(tree, "format-patch", "-q", "--binary", "--cover-letter",
        "-o", patches, "pristine..HEAD")
    cover = [p for p in os.listdir(patches) if p.startswith("0000-")][0]
    edit(patches, cover, lambda t: t.replace(
        "*** SUBJECT HERE ***", "Add the ATI Radeon X1000 (R500) GPU").replace(
        "*** BLURB HERE ***", open(os.path.join(HERE, "upstream",
                                                "cover-letter.txt")).read().strip()))
    log("wrote %d patches to %s" % (len(os.listdir(patches)), patches))
    return base, patches


# What checkpatch.pl may say and the series still pass.  Everywhere: the
# notice that a patch adding files does not touch MAINTAINERS (the entry
# comes with the first patch, for every path the series adds).  The ROM
# images are binary (no SPDX line).  In the chip core's patches: the
# X-macro tables (registers, migration lists, models: each written once,
# DESIGN.md section 3), and warnings, which are reported.
ALLOWED = [r"WARNING: added, moved or deleted file",
           r"WARNING: Does new file 'pc-bios/r500-\w+\.rom' need"]
ALLOWED_CORE = [r"ERROR: Macros with (complex values|multiple statements)",
                r"WARNING: "]


def check(base, patches, out, romdir, build):
    tree = os.path.join(out, "applied")
    if os.path.exists(os.path.join(tree, ".git")):
        # back to the pristine tree: files the series does not touch keep
        # their times, so the build redoes only what it changed
        git(tree, "am", "--abort", check=False, stderr=subprocess.DEVNULL)
        git(tree, "reset", "-q", "--hard", "pristine")
        git(tree, "clean", "-q", "-fdx")
    else:
        shutil.rmtree(tree, ignore_errors=True)
        git(ROOT, "clone", "-q", "--shared", base, tree)
    files = sorted(os.path.join(patches, p) for p in os.listdir(patches)
                   if not p.startswith("0000-"))
    git(tree, "am", "-q", "--whitespace=error", *files)
    log("the series applies to the pristine tree (%d patches)" % len(files))
    failed = []
    # the core's patches follow QEMU's own fixes in the series
    core_first = len(qemu_fixes())
    core_end = core_first + len(CORE_PATCHES)
    for n, p in enumerate(files):
        r = run(["perl", os.path.join(tree, "scripts/checkpatch.pl"),
                 "--no-signoff", "--terse", "--no-summary", "--color=never", p],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                check=False, cwd=tree)
        lines = [l for l in r.stdout.splitlines()
                 if "ERROR:" in l or "WARNING:" in l]
        core = core_first <= n < core_end
        allowed = ALLOWED + (ALLOWED_CORE if core else [])
        bad = [l for l in lines if not any(re.search(a, l) for a in allowed)]
        log("checkpatch %s: %d errors, %d warnings%s" % (
            os.path.basename(p), sum("ERROR:" in l for l in lines),
            sum("WARNING:" in l for l in lines),
            ", %d not allowed" % len(bad) if bad else ""))
        for l in [l for l in lines if "added, moved" not in l][:12]:
            log("  " + l.split(": ", 1)[-1] if "FILE" not in l else "  " + l)
        if bad:
            failed.append(os.path.basename(p))
    if failed:
        raise SystemExit("upstream-series: checkpatch is not clean on %s"
                         % " ".join(failed))
    if not build:
        return
    bdir = os.path.join(out, "build")
    # A local change to the patched tree, not in the series: no edk2
    # images to unpack (Debian's +ds tarball has none, as the overlay of
    # scripts/qemu-build.sh says).
    edit(tree, "meson.build", lambda t: t.replace(
        "unpack_edk2_blobs = bzip2.found()",
        "unpack_edk2_blobs = bzip2.found() and "
        "fs.exists('pc-bios/edk2-x86_64-code.fd.bz2')"))
    env = dict(os.environ, PATH="/usr/lib/ccache:" + os.environ["PATH"],
               CCACHE_BASEDIR=bdir, CCACHE_NOHASHDIR="1")
    env.setdefault("CCACHE_DIR", os.path.join(
        os.environ.get("R500_CACHE") or os.path.expanduser("~/.cache/r500"), "ccache"))
    fw = "%s:/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu" % os.path.realpath(romdir)
    opts = [os.path.join(tree, "configure"), "--python=/usr/bin/python3",
            "--target-list=x86_64-softmmu", "--firmwarepath=" + fw,
            "--disable-docs", "--disable-tools", "--disable-guest-agent",
            "--disable-install-blobs", "--disable-tcg", "--enable-opengl",
            "--disable-gtk", "--disable-sdl", "--disable-vnc",
            "--disable-slirp", "--disable-rust", "--disable-xen"]
    marker = os.path.join(bdir, ".r500-configured")
    if not (os.path.exists(os.path.join(bdir, "build.ninja")) and
            os.path.exists(marker) and open(marker).read() == " ".join(opts)):
        shutil.rmtree(bdir, ignore_errors=True)
        os.makedirs(bdir)
        log("configuring the patched tree (log: %s/configure.log)" % bdir)
        with open(os.path.join(bdir, "configure.log"), "w") as lf:
            run(opts, cwd=bdir, stdout=lf, stderr=subprocess.STDOUT, env=env)
        with open(marker, "w") as f:
            f.write(" ".join(opts))
    log("building the patched tree (log: %s/ninja.log)" % bdir)
    with open(os.path.join(bdir, "ninja.log"), "w") as lf:
        r = run(["ninja", "qemu-system-x86_64"] + ["tests/qtest/" + n for n in qtest_names()],
                cwd=bdir, stdout=lf, stderr=subprocess.STDOUT, env=env, check=False)
    if r.returncode:
        with open(os.path.join(bdir, "ninja.log")) as lf:
            print("".join(lf.readlines()[-40:]), file=sys.stderr)
        raise SystemExit("upstream-series: the patched tree does not build")
    run([os.path.join(HERE, "qemu-bundle.sh"), bdir, fw])


def test(out):
    """The r500 qtests of the built series, through QEMU's own meson test."""
    bdir = os.path.join(out, "build")
    if not os.path.exists(os.path.join(bdir, "qemu-system-x86_64")):
        raise SystemExit("upstream-series: %s is not built (--build)" % bdir)
    log("running the r500 qtests with QEMU's own meson test")
    r = run(["meson", "test", "-C", bdir, "--no-rebuild", "--print-errorlogs"] +
            ["qtest-x86_64/" + n for n in qtest_names()], check=False)
    if r.returncode:
        raise SystemExit("upstream-series: the r500 qtests fail in the patched tree")


def inputs_hash(version, romdir):
    """What the series and its build are made from."""
    h = hashlib.sha256(version.encode())
    tops = ["hw/r500", "tests/qtest", "roms", "scripts/upstream",
            "scripts/upstream-series.py", "scripts/qemu-build.sh",
            "scripts/qemu-bundle.sh"]
    paths = []
    for t in tops:
        p = os.path.join(ROOT, t)
        if os.path.isfile(p):
            paths.append(p)
        for top, dirs, files in os.walk(p):
            dirs.sort()
            paths += [os.path.join(top, f) for f in sorted(files)]
    paths += sorted(os.path.join(romdir, f) for f in os.listdir(romdir)
                    if f.endswith(".rom"))
    for p in paths:
        with open(p, "rb") as f:
            h.update(p.encode() + b"\0" + f.read())
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", default="10.2")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "upstream"))
    ap.add_argument("--romdir", default=os.path.join(ROOT, "build", "roms"))
    ap.add_argument("--check", action="store_true",
                    help="apply the series to the pristine tree, checkpatch.pl")
    ap.add_argument("--build", action="store_true",
                    help="--check, then configure and build the patched tree")
    ap.add_argument("--test", action="store_true",
                    help="only run the r500 qtests of the built tree")
    ap.add_argument("--stamp", help="touch this file when done (meson)")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    if a.test:
        test(out)
        return 0
    cache = os.environ.get("R500_CACHE") or os.path.expanduser("~/.cache/r500")
    os.makedirs(out, exist_ok=True)
    done = os.path.join(out, ".done")
    key = "%s %s %s" % (inputs_hash(a.version, a.romdir), a.check, a.build)
    if os.path.exists(done) and open(done).read() == key:
        log("up to date (%s)" % out)
    else:
        if os.path.exists(done):
            os.unlink(done)
        base, patches = make_series(a.version, out, a.romdir, cache)
        if a.check or a.build:
            check(base, patches, out, a.romdir, a.build)
        with open(done, "w") as f:
            f.write(key)
    if a.stamp:
        open(a.stamp, "w").close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
