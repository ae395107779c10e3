#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the Linux test guest from a Debian release's packages, cached.

    mkguest.py [--release 11|12|13] [--force] [--offline] [--quiet]

Prints the directory holding `vmlinuz`, `initrd.img` (gzip'd newc cpio) and
`manifest.json` (package versions, kernel release, modules, sizes).

The release is --release, else $R500_GUEST_RELEASE, else 12 (Debian 12,
whatever the host runs).  Nothing is installed on the host: the packages
are fetched with `apt-get download` from the release's own suites on the
machine's mirrors (scripts/apt-release.sh: an apt state of its own, beside
the machine's) and unpacked with `dpkg-deb -x`.  The guest is the distro
kernel, the radeon module and what it depends on (read from each module's
.modinfo, the .deb has no modules.dep), a few virtio modules,
radeon/R520_cp.bin from firmware-amd-graphics, a static busybox, and libdrm's
test programs with the shared libraries they need, taken from the guest's own
libc6/libdrm packages (found by walking DT_NEEDED, never the host's).

Cache, under ~/.cache/r500/guest/<codename> (or $R500_CACHE/guest/...):
    debs/<package>_<version>_<arch>.deb    downloads, shared between builds
    <key>/                                 one built guest, key = hash of this
                                           directory's files and the versions
Nothing is pinned: the current candidate versions are resolved each time
(cheap), and a guest is rebuilt only when they or the scripts change.  The
packages come only from the mirrors in the machine's own apt configuration
(no URL is written here): when a kernel version has left
them, an older kernel apt still knows is tried; when nothing can be fetched
(offline), the newest guest built by the same scripts is used.
"""
import argparse
import fcntl
import gzip
import hashlib
import io
import json
import lzma
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FORMAT = 1                      # bump when the image layout changes
# The Debian releases a guest is built from (docs/guests.md).
RELEASES = {"11": "bullseye", "12": "bookworm", "13": "trixie"}
DEFAULT_RELEASE = "12"

# Modules shipped, each with its dependency closure (from the modules' own
# .modinfo "depends=" fields), in load order.  init loads radeon's (or, for
# the harness self-test, bochs'), i2c_dev, and virtio's when such a device
# is present (virtio_gpu only as the driver: bench/guest.py's virgl boot);
# ext4 (and the crc32c its checksums ask the crypto API for,
# which no modprobe would load here) when the desktop image is the root
# (r500.root=, tests/guest/mkdesktop.py).
MODULE_SETS = ["radeon", "bochs", "i2c_dev", "virtio_pci", "virtio_blk",
               "virtio_net", "virtio_console", "crc32c_generic", "ext4",
               "virtio_gpu"]
# What older kernels call a module of MODULE_SETS (Debian 11's 5.10 has
# bochs-drm.ko); the closure keeps the name init knows it by.
OLD_NAMES = {"bochs": "bochs_drm"}
FIRMWARE = ["radeon/R520_cp.bin"]
DRM_TESTS = ["modetest", "vbltest", "proptest", "modeprint", "drmdevice"]
USER_PACKAGES = ["busybox-static", "libdrm-tests"]
FIRMWARE_PACKAGE = "firmware-amd-graphics"
KERNEL_META = "linux-image-amd64"


class GuestError(Exception):
    pass


def log(msg):
    if not QUIET:
        print("mkguest: " + msg, file=sys.stderr, flush=True)


QUIET = False
# The release of the guest being built (use_release()).
RELEASE = os.environ.get("R500_GUEST_RELEASE") or DEFAULT_RELEASE
_apt_env = {}


def use_release(release):
    """Build from Debian `release` (11, 12, 13) from now on."""
    global RELEASE
    release = str(release or os.environ.get("R500_GUEST_RELEASE")
                  or DEFAULT_RELEASE)
    if release not in RELEASES:
        raise GuestError("unknown Debian release %r (one of %s)" %
                         (release, ", ".join(sorted(RELEASES))))
    RELEASE = release


def codename():
    return RELEASES[RELEASE]


def cache_base():
    return os.environ.get("R500_CACHE") or os.path.expanduser("~/.cache/r500")


def cache_root():
    return os.path.join(cache_base(), "guest", codename())


def apt_env():
    """The environment of an apt command on the release's own apt state
    (scripts/apt-release.sh; updated at most daily)."""
    if RELEASE not in _apt_env:
        try:
            conf = subprocess.run(
                [os.path.join(ROOT, "scripts", "apt-release.sh"), RELEASE],
                check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True).stdout.strip()
        except (subprocess.CalledProcessError, OSError) as e:
            raise GuestError("no apt for Debian %s: %s" % (RELEASE, " ".join(
                getattr(e, "stderr", str(e)).strip().splitlines()[-2:])))
        _apt_env[RELEASE] = dict(os.environ, APT_CONFIG=conf)
    return _apt_env[RELEASE]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kw).stdout


# ---- apt metadata ----------------------------------------------------------

def apt_records(pkgs, all_versions=False):
    """{package: [records]} for the packages apt knows, candidate first."""
    cmd = ["apt-cache", "show"]
    if not all_versions:
        cmd.append("--no-all-versions")
    try:
        # Exits non-zero when one name is unknown; the others still print.
        out = subprocess.run(cmd + list(pkgs), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True,
                             env=apt_env()).stdout
    except FileNotFoundError as e:
        raise GuestError("apt-cache: %s" % e)
    recs, cur, key = {}, {}, None
    for line in out.splitlines() + [""]:
        if not line.strip():
            if cur.get("Package"):
                recs.setdefault(cur["Package"], []).append(cur)
            cur, key = {}, None
        elif line[0] in " \t" and key:
            cur[key] += "\n" + line.strip()
        elif ":" in line:
            key, val = line.split(":", 1)
            cur[key] = val.strip()
    return recs


def depends(rec):
    """First alternative of each Depends/Pre-Depends entry, names only."""
    names = []
    for field in ("Pre-Depends", "Depends"):
        for alt in filter(None, (a.strip() for a in rec.get(field, "").split(","))):
            names.append(alt.split("|")[0].split()[0].split(":")[0])
    return names


def resolve():
    """(kernel records newest first, [(package, record)] of the rest)."""
    top = [FIRMWARE_PACKAGE] + USER_PACKAGES
    found = apt_records(top)
    missing = [p for p in top if p not in found]
    if missing:
        raise GuestError("Debian %s's apt does not know %s" % (
            RELEASE, " ".join(missing)))
    wanted = [(n, found[n][0]) for n in top]
    # Userspace closure over Depends: small (libc6, libdrm*, libgcc-s1...);
    # only ELF-needed files end up in the image.  Virtual names are skipped.
    seen = set(top)
    level = [r for n, r in wanted if n != FIRMWARE_PACKAGE]
    while level:
        names = sorted({d for r in level for d in depends(r)} - seen)
        seen.update(names)
        found = apt_records(names) if names else {}
        level = [found[n][0] for n in names if n in found]
        wanted += [(r["Package"], r) for r in level]
    kernels = []
    for meta in apt_records([KERNEL_META], all_versions=True).get(KERNEL_META, []):
        for d in depends(meta):
            if d.startswith("linux-image-") and d not in kernels:
                kernels.append(d)
    krecs = apt_records(kernels, all_versions=True) if kernels else {}
    krecs = [r for k in kernels for r in krecs.get(k, [])]
    if not krecs:
        raise GuestError("%s depends on no linux-image-* apt knows" % KERNEL_META)
    return krecs, wanted


def apt_lists_key():
    """Changes whenever apt's view of the release may have changed."""
    h = hashlib.sha256(RELEASE.encode())
    conf_dir = os.path.dirname(apt_env()["APT_CONFIG"])
    for d in (os.path.join(conf_dir, "lists"), conf_dir):
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            st = os.stat(os.path.join(d, f))
            h.update(("%s %d %d\n" % (f, st.st_size, st.st_mtime_ns)).encode())
    return h.hexdigest()


def resolve_cached(root):
    """resolve(), memoised until apt's lists change (apt-cache is slow)."""
    path = os.path.join(root, "resolved.json")
    key = apt_lists_key() + script_hash()
    try:
        with open(path) as f:
            memo = json.load(f)
        if memo["key"] == key:
            return memo["kernels"], [tuple(x) for x in memo["wanted"]]
    except (OSError, ValueError, KeyError):
        pass
    krecs, wanted = resolve()
    with open(path + ".tmp", "w") as f:
        json.dump({"key": key, "kernels": krecs, "wanted": wanted}, f)
    os.replace(path + ".tmp", path)
    return krecs, wanted


# ---- downloads -------------------------------------------------------------

def deb_name(rec):
    return "%s_%s_%s.deb" % (rec["Package"], rec["Version"].replace(":", "%3a"),
                             rec["Architecture"])


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def download_many(recs, debs):
    """{package: path of its .deb in the cache}, fetching the missing ones
    with one apt-get download (the mirrors of the machine's apt sources)."""
    out, todo = {}, []
    for rec in recs:
        dest = os.path.join(debs, deb_name(rec))
        want = rec.get("SHA256")
        if os.path.exists(dest) and (not want or sha256_file(dest) == want):
            out[rec["Package"]] = dest
        else:
            todo.append(rec)
    if not todo:
        return out
    specs = ["%s=%s" % (r["Package"], r["Version"]) for r in todo]
    log("downloading %s (%.1f MB)" % (
        specs[0] if len(specs) == 1 else "%d packages" % len(specs),
        sum(int(r.get("Size", 0)) for r in todo) / 1e6))
    with tempfile.TemporaryDirectory(dir=debs) as tmp:
        try:
            run(["apt-get", "-q", "download"] + specs, cwd=tmp,
                env=apt_env())
        except (subprocess.CalledProcessError, FileNotFoundError) as e:
            raise GuestError("apt-get download %s failed: %s" % (
                " ".join(specs) if len(specs) < 4 else "(%d packages)" % len(specs),
                " ".join(getattr(e, "stderr", str(e)).strip().splitlines()[-1:])))
        for rec in todo:
            got = os.path.join(tmp, deb_name(rec))
            want = rec.get("SHA256")
            if not os.path.exists(got) or (want and sha256_file(got) != want):
                raise GuestError("apt-get download did not give %s (%s)" %
                                 (deb_name(rec), "checksum mismatch"
                                  if os.path.exists(got) else "missing"))
            dest = os.path.join(debs, deb_name(rec))
            os.replace(got, dest)
            out[rec["Package"]] = dest
    return {r["Package"]: out[r["Package"]] for r in recs}


def download(rec, debs):
    """Path of rec's .deb in the cache, downloading it if needed."""
    return download_many([rec], debs)[rec["Package"]]


# ---- ELF -------------------------------------------------------------------

def elf_sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise GuestError("not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = secs[shstrndx][4]
    out = {}
    for s in secs:
        name = data[stroff + s[0]:data.index(b"\0", stroff + s[0])].decode()
        out[name] = s
    return out, secs


def read_module(path):
    """A module's ELF bytes: Debian 13's are xz-compressed (.ko.xz), and
    busybox's insmod takes them plain."""
    with open(path, "rb") as f:
        data = f.read()
    return lzma.decompress(data) if path.endswith(".xz") else data


def modinfo(path):
    data = read_module(path)
    secs, _ = elf_sections(data)
    s = secs.get(".modinfo")
    if not s:
        return {}
    info = {}
    for item in data[s[4]:s[4] + s[5]].split(b"\0"):
        if b"=" in item:
            k, v = item.decode(errors="replace").split("=", 1)
            info.setdefault(k, v)
    return info


def elf_needed(path):
    """(interpreter or None, [DT_NEEDED sonames]) of an ELF executable."""
    with open(path, "rb") as f:
        data = f.read()
    secs, table = elf_sections(data)
    interp = None
    if ".interp" in secs:
        s = secs[".interp"]
        interp = data[s[4]:s[4] + s[5]].rstrip(b"\0").decode()
    needed = []
    dyn = secs.get(".dynamic")
    if dyn:
        strtab = table[dyn[6]]                       # sh_link -> .dynstr
        for off in range(dyn[4], dyn[4] + dyn[5], 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == 0:
                break
            if tag == 1:                             # DT_NEEDED
                o = strtab[4] + val
                needed.append(data[o:data.index(b"\0", o)].decode())
    return interp, needed


# ---- cpio (newc) -----------------------------------------------------------

class Cpio:
    def __init__(self):
        self.buf = io.BytesIO()
        self.ino = 1000
        self.names = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name = name.lstrip("/")
        if name in self.names:
            return
        self.names.add(name)
        self.ino += 1
        nb = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
            len(nb), 0))
        self.buf.write(hdr.encode() + nb)
        self.buf.write(b"\0" * (-(110 + len(nb)) % 4))
        self.buf.write(data)
        self.buf.write(b"\0" * (-len(data) % 4))

    def dir(self, name):
        parts = name.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            self._entry("/".join(parts[:i]), stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        self.dir(os.path.dirname(name.strip("/")) or ".")
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self.dir(os.path.dirname(name.strip("/")))
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, name, major, minor):
        self.dir(os.path.dirname(name.strip("/")))
        self._entry(name, stat.S_IFCHR | 0o600, rdev=(major, minor))

    def finish(self):
        self._entry("TRAILER!!!", 0)
        return self.buf.getvalue()


# ---- image -----------------------------------------------------------------

def module_closure(moddir, roots):
    """([(root, [modules in load order])], {module: path})."""
    paths = {}
    for top, _, files in os.walk(os.path.join(moddir, "kernel")):
        for f in files:
            for ext in (".ko", ".ko.xz"):
                if f.endswith(ext):
                    paths[f[:-len(ext)].replace("-", "_")] = os.path.join(top, f)
    deps = {}
    # Built into the kernel (Debian 13 builds virtio_pci in, 12 a module):
    # nothing to ship or load.
    builtin = set()
    if os.path.exists(os.path.join(moddir, "modules.builtin")):
        with open(os.path.join(moddir, "modules.builtin")) as f:
            builtin = {os.path.basename(l.strip()).split(".ko")[0]
                       .replace("-", "_") for l in f}

    def visit(m, chain, order):
        if m in order or (m in builtin and m not in paths):
            return
        if m not in paths:
            raise GuestError("module %s (needed by %s) is not in the kernel "
                             "package" % (m, " <- ".join(chain) or "init"))
        if m not in deps:
            deps[m] = [d.replace("-", "_") for d in filter(
                None, modinfo(paths[m]).get("depends", "").split(","))]
        for d in deps[m]:
            visit(d, chain + [m], order)
        order.append(m)
    out = []
    for r in roots:
        order = []
        visit(OLD_NAMES.get(r, r) if r not in paths else r, [], order)
        out.append((r, order))
    return out, paths


# Debian 13's packages ship /lib, /lib64, /bin and /sbin files under /usr
# (the merged-/usr layout, with the top-level names symlinks that base-files
# makes, not any of the packages unpacked here); 11 and 12 ship them at the
# top level.
MERGED_USR = ("/lib/", "/lib64/", "/bin/", "/sbin/")


def merged_usr(path):
    """The places an absolute path can be in an unpacked package tree."""
    return [path] + ["/usr" + path for p in MERGED_USR if path.startswith(p)]


def find_in_tree(root, path):
    """Resolve path (absolute, guest view) inside the unpacked tree root."""
    for _ in range(16):
        for cand in merged_usr(path):
            full = os.path.join(root, cand.lstrip("/"))
            if os.path.lexists(full):
                break
        if os.path.islink(full):
            t = os.readlink(full)
            path = t if t.startswith("/") else os.path.join(os.path.dirname(cand), t)
            continue
        return full if os.path.isfile(full) else None
    return None


def find_dir(root, path):
    """An absolute directory inside the unpacked tree root, merged-/usr or not."""
    for cand in merged_usr(path):
        full = os.path.join(root, cand.lstrip("/"))
        if os.path.isdir(full):
            return full
    raise GuestError("no %s in the unpacked packages" % path)


def build_image(out, kernel_pkg, kernel_deb, user_debs, fw_deb, manifest):
    tmp = tempfile.mkdtemp(dir=out, prefix="unpack-")
    try:
        kroot, uroot = os.path.join(tmp, "k"), os.path.join(tmp, "u")
        log("unpacking %s" % os.path.basename(kernel_deb))
        run(["dpkg-deb", "-x", kernel_deb, kroot])
        for d in user_debs + [fw_deb]:
            run(["dpkg-deb", "-x", d, uroot])
        modroot = find_dir(kroot, "/lib/modules")
        kvers = os.listdir(modroot)
        if len(kvers) != 1:
            raise GuestError("%s ships %d module trees" % (kernel_pkg, len(kvers)))
        kver = kvers[0]
        moddir = os.path.join(modroot, kver)
        closures, paths = module_closure(moddir, MODULE_SETS)
        cpio = Cpio()
        for d in ("dev", "proc", "sys", "tmp", "run", "mnt", "root", "bin",
                  "sbin", "usr/bin", "etc"):
            cpio.dir(d)
        cpio.chardev("dev/console", 5, 1)
        with open(os.path.join(HERE, "init"), "rb") as f:
            cpio.file("init", f.read(), 0o755)
        with open(find_in_tree(uroot, "/bin/busybox"), "rb") as f:
            cpio.file("bin/busybox", f.read(), 0o755)
        cpio.symlink("bin/sh", "busybox")
        listing = []
        for root, order in closures:
            for m in order:
                rel = os.path.relpath(paths[m], moddir)
                rel = rel[:-3] if rel.endswith(".xz") else rel
                cpio.file("lib/modules/%s/%s" % (kver, rel), read_module(paths[m]))
                listing.append("%s %s %s\n" % (m, rel, root))
        cpio.file("etc/r500/modules", "".join(listing).encode())
        for fw in FIRMWARE:
            src = find_in_tree(uroot, "/lib/firmware/" + fw)
            if not src:
                raise GuestError("%s lacks %s" % (os.path.basename(fw_deb), fw))
            with open(src, "rb") as f:
                cpio.file("lib/firmware/" + fw, f.read())
        libs = {}
        for prog in DRM_TESTS:
            src = find_in_tree(uroot, "/usr/bin/" + prog)
            if not src:
                raise GuestError("libdrm-tests lacks %s" % prog)
            with open(src, "rb") as f:
                cpio.file("usr/bin/" + prog, f.read(), 0o755)
            todo = [src]
            while todo:
                interp, needed = elf_needed(todo.pop())
                if interp and interp not in libs:
                    libs[interp] = find_in_tree(uroot, interp)
                    if not libs[interp]:
                        raise GuestError("interpreter %s not in the guest "
                                         "packages" % interp)
                for so in needed:
                    if so in libs:
                        continue
                    for d in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"):
                        libs[so] = find_in_tree(uroot, d + "/" + so)
                        if libs[so]:
                            todo.append(libs[so])
                            break
                    else:
                        raise GuestError("%s needs %s, which no guest package "
                                         "provides" % (prog, so))
        for name, src in sorted(libs.items()):
            with open(src, "rb") as f:
                data = f.read()
            if name.startswith("/"):                 # the ELF interpreter
                cpio.file("lib/x86_64-linux-gnu/" + os.path.basename(name), data, 0o755)
                if os.path.dirname(name) != "/lib/x86_64-linux-gnu":
                    cpio.symlink(name, "/lib/x86_64-linux-gnu/" + os.path.basename(name))
            else:
                cpio.file("lib/x86_64-linux-gnu/" + name, data, 0o755)
        manifest.update(kernel_release=kver, modules=dict(closures),
                        firmware=FIRMWARE, programs=DRM_TESTS,
                        libraries=sorted({os.path.basename(n) for n in libs}))
        cpio.file("etc/r500/manifest.json",
                  json.dumps(manifest, indent=1, sort_keys=True).encode())
        image = gzip.compress(cpio.finish(), 6, mtime=0)
        with open(os.path.join(out, "initrd.img"), "wb") as f:
            f.write(image)
        shutil.copyfile(os.path.join(kroot, "boot", "vmlinuz-" + kver),
                        os.path.join(out, "vmlinuz"))
        manifest.update(initrd_bytes=len(image),
                        vmlinuz_bytes=os.path.getsize(os.path.join(out, "vmlinuz")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def script_hash():
    h = hashlib.sha256(b"r500-guest-%d\n" % FORMAT)
    for name in sorted(os.listdir(HERE)):
        if name in ("mkguest.py", "init"):
            with open(os.path.join(HERE, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


def complete_builds(root, shash):
    found = []
    for d in os.listdir(root) if os.path.isdir(root) else []:
        mf = os.path.join(root, d, "manifest.json")
        try:
            with open(mf) as f:
                m = json.load(f)
        except (OSError, ValueError):
            continue
        if m.get("scripts") == shash:
            found.append((os.path.getmtime(mf), os.path.join(root, d)))
    return [d for _, d in sorted(found, reverse=True)]


def prune(root, keep):
    """Keep the newest `keep` guests and the .debs some kept guest uses."""
    builds = []
    for d in os.listdir(root):
        mf = os.path.join(root, d, "manifest.json")
        if os.path.exists(mf):
            builds.append((os.path.getmtime(mf), d))
    builds.sort(reverse=True)
    used = set()
    for _, d in builds[keep:]:
        shutil.rmtree(os.path.join(root, d), ignore_errors=True)
    for _, d in builds[:keep]:
        with open(os.path.join(root, d, "manifest.json")) as f:
            used.update(json.load(f).get("debs", []))
    debs = os.path.join(root, "debs")
    for f in os.listdir(debs):
        if f.endswith(".deb") and f not in used:
            os.unlink(os.path.join(debs, f))


def ensure(force=False, offline=False, release=None):
    """Directory of an up-to-date guest of Debian `release` (default:
    $R500_GUEST_RELEASE, else 12), building it if needed."""
    use_release(release)
    root = cache_root()
    debs = os.path.join(root, "debs")
    os.makedirs(debs, exist_ok=True)
    shash = script_hash()
    with open(os.path.join(root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)     # parallel tests share one build
        try:
            if offline:
                raise GuestError("offline requested")
            krecs, wanted = resolve_cached(root)
            key_src = [shash] + ["%s=%s" % (n, r["Version"]) for n, r in wanted]
            # The kernel: the newest that can still be fetched.
            last = None
            for krec in krecs:
                kpkg = krec["Package"]
                key = hashlib.sha256("\n".join(
                    key_src + ["%s=%s" % (kpkg, krec["Version"])]).encode()
                ).hexdigest()[:16]
                out = os.path.join(root, key)
                if os.path.exists(os.path.join(out, "manifest.json")) and not force:
                    os.utime(os.path.join(out, "manifest.json"))
                    return out
                try:
                    kdeb = download(krec, debs)
                    break
                except GuestError as e:
                    last = e
            else:
                raise last
            files = download_many([r for _, r in wanted], debs)
        except GuestError as e:
            prev = complete_builds(root, shash)
            if force:
                raise
            if not prev:
                raise GuestError("%s, and no guest built by these scripts is "
                                 "cached" % e)
            log("%s; using the cached guest %s" % (e, prev[0]))
            return prev[0]
        t0 = time.time()
        if os.path.exists(out):
            shutil.rmtree(out)
        os.makedirs(out)
        manifest = {
            "scripts": shash, "format": FORMAT,
            "packages": dict([(n, r["Version"]) for n, r in wanted] +
                             [(kpkg, krec["Version"])]),
            "debs": [os.path.basename(p) for p in [kdeb] + list(files.values())],
            "download_bytes": sum(os.path.getsize(p)
                                  for p in [kdeb] + list(files.values())),
        }
        try:
            build_image(out, kpkg, kdeb,
                        [files[n] for n in files if n != FIRMWARE_PACKAGE],
                        files[FIRMWARE_PACKAGE], manifest)
            manifest["build_seconds"] = round(time.time() - t0, 1)
            with open(os.path.join(out, "manifest.json"), "w") as f:
                json.dump(manifest, f, indent=1, sort_keys=True)
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)
            raise
        log("built %s in %.0f s (%s, initrd %.1f MB)" % (
            out, time.time() - t0, manifest["kernel_release"],
            manifest["initrd_bytes"] / 1e6))
        prune(root, keep=3)
        return out


def cli(prog, description, ensure_fn, what):
    """The command line of mkguest.py and mkdesktop.py: build (or find
    cached) and print the directory, or its manifest."""
    global QUIET
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--force", action="store_true", help="rebuild even if cached")
    ap.add_argument("--offline", action="store_true",
                    help="use the newest cached %s built by these scripts" % what)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--release", choices=sorted(RELEASES),
                    help="the Debian release (default $R500_GUEST_RELEASE, "
                    "else %s)" % DEFAULT_RELEASE)
    ap.add_argument("--manifest", action="store_true",
                    help="print the manifest instead of the directory")
    args = ap.parse_args()
    QUIET = args.quiet
    try:
        out = ensure_fn(args.force, args.offline, args.release)
    except GuestError as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return 1
    if args.manifest:
        with open(os.path.join(out, "manifest.json")) as f:
            print(f.read())
    else:
        print(out)
    return 0


def main():
    return cli("mkguest", __doc__.split("\n")[0], ensure, "guest")


if __name__ == "__main__":
    sys.exit(main())
