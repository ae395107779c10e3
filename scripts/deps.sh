#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install what a fresh Debian 12 or 13 machine lacks to build and test
# r500.  Idempotent and quiet when everything is present.  Uses sudo when
# not root.  scripts/fresh-check.sh proves the list on clean roots of both.
#
# Every package named here exists in both releases.  QEMU 10 needs meson
# 1.5 or newer, and 10.2 also pycotap (its meson test's TAP output):
# Debian 13 has both; on Debian 12 they come from bookworm-backports, on
# the very mirror the machine's apt already uses (nothing here names a
# host).  QEMU's source and the guests' packages
# come from scripts/apt-release.sh, beside the machine's apt state.
set -euo pipefail

packages=(
    # the project and QEMU's build (libfdt: QEMU needs it for
    # x86_64-softmmu and has no bundled copy in the +ds tarball)
    gcc make meson ninja-build ccache pkg-config python3 python3-venv git
    libglib2.0-dev libpixman-1-dev zlib1g-dev libslirp-dev libfdt-dev
    flex bison bzip2
    # QEMU's window (GTK, SDL) with OpenGL (epoxy, GBM), so `make run`
    # opens one on a desktop (docs/build.md)
    libgtk-3-dev libsdl2-dev libepoxy-dev
    # obtaining QEMU's source package
    dpkg-dev ca-certificates xz-utils
    # firmware the built QEMU loads: SeaBIOS + SeaVGABIOS (also the x86 part
    # of our ROM), iPXE, keymaps
    seabios ipxe-qemu qemu-system-data
    # the host Mesa harness (tools/drm-shim, tests/mesa): Mesa's r300 and
    # llvmpipe drivers, EGL/GL/GLES/GBM and the libdrm headers
    libgl1-mesa-dri libegl-mesa0 libegl1 libgles2 libgbm1 libopengl0
    libdrm-dev libegl-dev libgles-dev libopengl-dev libgbm-dev
    # the window test (tests/window): an X server without a screen and a
    # screenshot of it
    xvfb x11-apps
    # the ASan+UBSan builds and the fuzzers (docs/reliability.md): clang,
    # its sanitizer and libFuzzer runtimes, llvm-symbolizer for the traces
    clang libclang-rt-dev llvm
    # QEMU 10.2's build: pycotap (from bookworm-backports on Debian 12,
    # below), dtc (the +ds tarball has the device trees as sources only)
    python3-pycotap device-tree-compiler
    # the static C library: the hostile guest program (tests/guest/hostile.c)
    # runs in any release's initramfs
    libc6-dev
    # the desktop guest's disk image (tests/guest/mkdesktop.py: mke2fs -d):
    # Debian 12's minimal install has it, Debian 13's no longer does
    e2fsprogs
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing+=("$p")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# shellcheck source=apt-sources.sh
. "$(dirname "$0")/apt-sources.sh"
host=$(apt_host_codename)

# meson >= 1.5 and pycotap (QEMU 10): on Debian 12 from
# bookworm-backports, which apt never takes a package from unless asked
# (NotAutomatic).
meson_ok() {
    dpkg --compare-versions \
        "$(dpkg-query -W -f='${Version}' meson 2>/dev/null || echo 0)" ge 1.5
}
backports=""
from_backports=()
if [ "$host" = bookworm ]; then
    meson_ok || from_backports+=(meson)
    for i in "${!missing[@]}"; do
        case "${missing[$i]}" in
        meson) unset 'missing[i]' ;;       # not bookworm's own 1.0 first
        python3-pycotap) from_backports+=(python3-pycotap); unset 'missing[i]' ;;
        esac
    done
    missing=("${missing[@]}")
    [ ${#from_backports[@]} -eq 0 ] || backports=bookworm-backports
fi

# The machine's sources with bookworm-backports added where meson needs
# it, in a file of our own; rewritten (or removed) whenever that changes,
# so it never names a mirror the machine has stopped using.  (Earlier
# versions of this script put deb-src and non-free-firmware here.)
src_list=/etc/apt/sources.list.d/r500.sources
want=""
if [ "$host" = bookworm ]; then
    uri=$(apt_main_uri bookworm)
    sb=$(apt_entries | awk -F'\t' -v u="$uri" '$1 == u && $2 == "bookworm" { print $4; exit }')
    want="# Added by r500 scripts/deps.sh from this machine's apt sources:
# meson 1.5 or newer and pycotap for QEMU 10 (bookworm-backports).

Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main${sb:+
Signed-By: $sb}"
fi
need_update=""
if [ -z "$want" ]; then
    [ -f "$src_list" ] && { $sudo rm -f "$src_list"; need_update=1; }
elif [ "$(cat "$src_list" 2>/dev/null)" != "$want" ]; then
    printf '%s\n' "$want" | $sudo tee "$src_list" >/dev/null
    need_update=1
fi

if [ ${#missing[@]} -gt 0 ] || [ -n "$need_update" ] || [ -n "$backports" ]; then
    echo "deps: apt-get update" >&2
    $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: installing ${#missing[@]} packages: ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi
if [ -n "$backports" ]; then
    echo "deps: installing ${from_backports[*]} from $backports (QEMU 10)" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        -t "$backports" "${from_backports[@]}" >/dev/null
    meson_ok || { echo "deps: meson is still older than 1.5" >&2; exit 1; }
fi
[ ${#missing[@]} -eq 0 ] && [ -z "$backports" ] || echo "deps: done" >&2
