#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install what a fresh Debian 12 machine lacks to build and test r500.
# Idempotent and quiet when everything is present.  Uses sudo when not root.
# scripts/fresh-check.sh proves the list on a clean bookworm root.
#
# Mirrors: nothing here names a host.  The deb-src entries (QEMU's source
# package) and the non-free-firmware component (the guest's radeon
# firmware) are added for the very mirrors the machine's apt already uses,
# so a machine behind a local mirror or proxy keeps working.
set -euo pipefail

packages=(
    # the project and QEMU's build (libfdt: QEMU 7.2 needs it for
    # x86_64-softmmu and has no bundled copy in the dfsg tarball)
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
    clang libclang-rt-14-dev llvm
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

# deb-src for every Debian suite the machine uses, and non-free-firmware
# where its entry lacks it.  Rewritten whenever the machine's sources
# change, so it never names a mirror the machine has stopped using.
src_list=/etc/apt/sources.list.d/r500.sources
# deb-src entries the machine already has (then apt-get source works as is)
have_src=$(for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
                    /etc/apt/sources.list.d/*.sources; do
               [ -f "$f" ] && [ "$f" != "$src_list" ] && cat "$f"
           done | grep -E '^[[:space:]]*(deb-src|Types:.*deb-src)' | head -1 || true)
want="# Added by r500 scripts/deps.sh from this machine's apt sources:
# QEMU's source package (deb-src) and the guest's radeon firmware
# (non-free-firmware)."
while IFS=$'\t' read -r uri suite comps sb; do
    [ -n "$uri" ] || continue
    # Only Debian's own archives carry these components.
    case " $comps " in *" main "*) ;; *) continue ;; esac
    signed=""
    [ -n "$sb" ] && signed="Signed-By: $sb"
    if [ -z "$have_src" ]; then
        want+="

Types: deb-src
URIs: $uri
Suites: $suite
Components: main
$signed"
    fi
    case " $comps " in *" non-free-firmware "*) continue ;; esac
    want+="

Types: deb
URIs: $uri
Suites: $suite
Components: non-free-firmware
$signed"
done < <(apt_entries | sort -u)

need_update=""
if [ "$(cat "$src_list" 2>/dev/null)" != "$want" ]; then
    printf '%s\n' "$want" | $sudo tee "$src_list" >/dev/null
    need_update=1
fi

if [ ${#missing[@]} -gt 0 ] || [ -n "$need_update" ]; then
    echo "deps: apt-get update" >&2
    $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: installing ${#missing[@]} packages: ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
    echo "deps: done" >&2
fi
