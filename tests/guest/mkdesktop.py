#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the desktop test guest's root file system from Debian, cached.

    mkdesktop.py [--release 11|12|13] [--force] [--offline] [--quiet] [--manifest]

Prints the directory holding `root.img` (an ext4 image, made with
`mke2fs -d`, no root rights or loop devices needed) and `manifest.json`.
The guest boots the small test guest's kernel and initramfs
(tests/guest/mkguest.py: radeon and its firmware load from there) with
`r500.root=/dev/vda`; its /init mounts this image read-only and runs the
desktop programs in it with chroot (docs/guests.md, "The desktop guest").

The packages: X.org with the radeon DDX, Mesa (the r300 Gallium driver and
llvmpipe in libgl1-mesa-dri), mesa-utils, kmscube, glmark2 (es2-drm and
x11), xterm, twm, xcompmgr and a static busybox, with their Depends closure and no
Recommends, as apt itself resolves it against an empty dpkg status
(`apt-get -s install` on the release's own suites on the machine's
mirrors, scripts/apt-release.sh; no mirror is named here).  The release
is chosen as for mkguest.py (default 12).  They are fetched with `apt-get download` and
unpacked with `dpkg-deb -x`; no maintainer script runs (none is needed for
what the guest runs: Xorg is started directly, libraries are found through
the multiarch default paths and LD_LIBRARY_PATH).  Documentation, manual
pages and translations are left out.

Cache, under ~/.cache/r500/desktop/<codename> (or $R500_CACHE/...):
    debs/*.deb          downloads
    <key>/root.img      key = hash of this script and the versions
    <key>/manifest.json
    resolved.json       apt's resolution, valid until apt's lists change
Nothing is pinned; the image is rebuilt only when a version or a script
changes.  Offline (nothing can be resolved or fetched), the newest image
built by the same scripts is used.
"""
import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mkguest      # noqa: E402
from mkguest import GuestError, log, run  # noqa: E402

FORMAT = 1
PACKAGES = [
    "xserver-xorg-core", "xserver-xorg-video-radeon",
    "libgl1-mesa-dri", "libglx-mesa0", "libegl-mesa0", "libgles2",
    "mesa-utils", "mesa-utils-extra", "kmscube", "glmark2-es2-drm", "glmark2-x11",
    "xterm", "twm", "xcompmgr", "busybox-static",
]
# Packages a release may not have: Debian 11 has no glmark2, and its
# es2_info and es2tri are in mesa-utils-extra (mesa-utils from 12 on).
# Left out where absent (manifest "absent"); a check whose program is
# missing reports SKIP (checks_desktop.section_ok).
OPTIONAL = ["glmark2-es2-drm", "glmark2-x11", "mesa-utils-extra"]
# Left out of the image: nothing the guest runs reads them.
STRIP = ["usr/share/doc", "usr/share/man", "usr/share/info",
         "usr/share/locale", "usr/share/lintian", "usr/share/bug",
         "usr/share/bash-completion", "usr/share/gtk-doc",
         "lib/udev/hwdb.d"]
INST = re.compile(r"^Inst (\S+) \((\S+) .*\[(\S+)\]\)")


def cache_root():
    return os.path.join(mkguest.cache_base(), "desktop", mkguest.codename())


def script_hash():
    h = hashlib.sha256(b"r500-desktop-%d\n" % FORMAT)
    for name in ("mkdesktop.py",):
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


def resolve(root):
    """[apt record] of every package of the closure, as apt resolves it for
    a system with nothing installed (memoised until apt's lists change)."""
    path = os.path.join(root, "resolved.json")
    key = mkguest.apt_lists_key() + script_hash()
    try:
        with open(path) as f:
            memo = json.load(f)
        if memo["key"] == key:
            return memo["records"]
    except (OSError, ValueError, KeyError):
        pass
    known = mkguest.apt_records(OPTIONAL)
    wanted = [p for p in PACKAGES if p not in OPTIONAL or p in known]
    with tempfile.NamedTemporaryFile() as status:
        try:
            p = subprocess.run(
                ["apt-get", "-s", "-q", "-o", "Dir::State::status=" + status.name,
                 "-o", "APT::Install-Recommends=false", "install"] + wanted,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env=mkguest.apt_env())
        except FileNotFoundError as e:
            raise GuestError("apt-get: %s" % e)
    if p.returncode:
        raise GuestError("apt cannot resolve the desktop packages: %s (run "
                         "apt-get update)" % p.stderr.strip().splitlines()[-1:])
    inst = [INST.match(l).groups() for l in p.stdout.splitlines() if INST.match(l)]
    if not inst:
        raise GuestError("apt-get -s install printed no Inst line")
    recs = mkguest.apt_records(sorted({n for n, _, _ in inst}), all_versions=True)
    out = []
    for name, version, arch in inst:
        rec = [r for r in recs.get(name, []) if r.get("Version") == version]
        if not rec:
            raise GuestError("apt-cache has no record of %s %s" % (name, version))
        r = rec[0]
        out.append({k: r[k] for k in ("Package", "Version", "Architecture",
                                      "Size", "SHA256", "Installed-Size") if k in r})
    with open(path + ".tmp", "w") as f:
        json.dump({"key": key, "records": out}, f)
    os.replace(path + ".tmp", path)
    return out


def du(path):
    """Bytes allocated under path, each inode once (Mesa's drivers are hard
    links of one file, and mke2fs -d keeps them so)."""
    seen = {}
    for top, dirs, files in os.walk(path):
        for f in files + dirs:
            st = os.lstat(os.path.join(top, f))
            seen[(st.st_dev, st.st_ino)] = st.st_blocks * 512
    return sum(seen.values())


def merge_usr(root):
    """The top-level /bin, /sbin, /lib and /lib64 of a merged-/usr system
    (Debian 13's packages ship only /usr/...; base-files makes the links,
    and no maintainer script runs here).  What a package still ships at
    the top level moves under /usr first.  A release whose packages use
    the top level (11, 12) keeps its layout."""
    def real_dir(p):
        return os.path.isdir(p) and not os.path.islink(p)

    tops = [os.path.join(root, d) for d in ("bin", "sbin", "lib", "lib64")
            if os.path.isdir(os.path.join(root, "usr", d))]
    if all(real_dir(top) for top in tops):
        return
    for top in tops:
        if real_dir(top):
            for t, dirs, files in os.walk(top):
                dest = os.path.join(root, "usr", os.path.relpath(t, root))
                os.makedirs(dest, exist_ok=True)
                # a link to a directory is listed with the directories
                # (os.walk does not follow it): it moves as a file does
                links = [d for d in dirs if os.path.islink(os.path.join(t, d))]
                dirs[:] = [d for d in dirs if d not in links]
                for f in files + links:
                    os.replace(os.path.join(t, f), os.path.join(dest, f))
            shutil.rmtree(top)
        if not os.path.lexists(top):
            os.symlink("usr/" + os.path.basename(top), top)


def build_image(out, debs, manifest):
    tmp = tempfile.mkdtemp(dir=out, prefix="unpack-")
    try:
        root = os.path.join(tmp, "root")
        os.makedirs(root)
        for d in debs:
            run(["dpkg-deb", "-x", d, root])
        for s in STRIP:
            shutil.rmtree(os.path.join(root, s), ignore_errors=True)
        merge_usr(root)
        # Mount points and the places Xorg and xkbcomp write (the image is
        # mounted read-only; /init puts tmpfs on /tmp, /run and /var).
        for d in ("proc", "sys", "dev", "tmp", "run", "var", "root", "etc/X11"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        # What base-files, base-passwd and dash's maintainer scripts would
        # have provided: popen()'s /bin/sh (Xorg runs xkbcomp through it)
        # and the root user (xterm looks its entry up).
        if not os.path.lexists(os.path.join(root, "bin/sh")):
            os.symlink("busybox", os.path.join(root, "bin/sh"))
        for name, text in (("passwd", "root:x:0:0:root:/root:/bin/sh\n"),
                           ("group", "root:x:0:\n")):
            if not os.path.exists(os.path.join(root, "etc", name)):
                with open(os.path.join(root, "etc", name), "w") as f:
                    f.write(text)
        with open(os.path.join(root, "etc/r500-desktop.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        used = du(root)
        # ext4 without a journal (read-only in the guest), 25 % room for
        # metadata, block size 4 KiB.
        size = (used * 5 // 4 + (32 << 20)) // 4096 * 4096
        img = os.path.join(out, "root.img.tmp")
        run(["mke2fs", "-q", "-F", "-t", "ext4", "-O", "^has_journal",
             "-L", "r500-desktop", "-m", "0", "-b", "4096", "-E", "root_owner=0:0",
             "-d", root, img, str(size // 1024) + "k"])
        os.replace(img, os.path.join(out, "root.img"))
        manifest.update(unpacked_bytes=used, image_bytes=size)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def complete_builds(root, shash):
    found = []
    for d in os.listdir(root) if os.path.isdir(root) else []:
        mf = os.path.join(root, d, "manifest.json")
        try:
            with open(mf) as f:
                if json.load(f).get("scripts") == shash:
                    found.append((os.path.getmtime(mf), os.path.join(root, d)))
        except (OSError, ValueError):
            continue
    return [d for _, d in sorted(found, reverse=True)]


def ensure(force=False, offline=False, release=None):
    mkguest.use_release(release)
    root = cache_root()
    debdir = os.path.join(root, "debs")
    os.makedirs(debdir, exist_ok=True)
    shash = script_hash()
    with open(os.path.join(root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if offline:
                raise GuestError("offline requested")
            recs = resolve(root)
            key = hashlib.sha256("\n".join(
                [shash] + ["%s=%s" % (r["Package"], r["Version"]) for r in recs]
            ).encode()).hexdigest()[:16]
            out = os.path.join(root, key)
            if os.path.exists(os.path.join(out, "manifest.json")) and not force:
                os.utime(os.path.join(out, "manifest.json"))
                return out
            t0 = time.time()
            files = mkguest.download_many(recs, debdir)
            t_dl = time.time() - t0
        except GuestError as e:
            prev = complete_builds(root, shash)
            if force or not prev:
                raise GuestError("%s, and no desktop image built by these "
                                 "scripts is cached" % e if not prev else str(e))
            log("%s; using the cached desktop image %s" % (e, prev[0]))
            return prev[0]
        t1 = time.time()
        if os.path.exists(out):
            shutil.rmtree(out)
        os.makedirs(out)
        manifest = {
            "scripts": shash, "format": FORMAT, "requested": PACKAGES,
            "absent": sorted(set(OPTIONAL) - {r["Package"] for r in recs}),
            "packages": {r["Package"]: r["Version"] for r in recs},
            "debs": sorted(os.path.basename(p) for p in files.values()),
            "download_bytes": sum(os.path.getsize(p) for p in files.values()),
        }
        try:
            build_image(out, list(files.values()), manifest)
            manifest.update(download_seconds=round(t_dl, 1),
                            build_seconds=round(time.time() - t1, 1))
            with open(os.path.join(out, "manifest.json"), "w") as f:
                json.dump(manifest, f, indent=1, sort_keys=True)
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)
            raise
        log("built %s in %.0f s (%d packages, %.0f MB downloaded, image %.0f MB)"
            % (out, time.time() - t1, len(recs), manifest["download_bytes"] / 1e6,
               manifest["image_bytes"] / 1e6))
        mkguest.prune(root, 2)
        return out


def main():
    return mkguest.cli("mkdesktop", __doc__.split("\n")[0], ensure, "image")


if __name__ == "__main__":
    sys.exit(main())
