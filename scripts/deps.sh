#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install what a fresh Debian 12 machine lacks to build and test r500.
# Idempotent and quiet when everything is present.  Uses sudo when not root.
set -euo pipefail

packages=(
    # the project and QEMU's build
    gcc make meson ninja-build ccache pkg-config python3 python3-venv
    libglib2.0-dev libpixman-1-dev zlib1g-dev libslirp-dev flex bison bzip2
    # obtaining QEMU's source package
    dpkg-dev curl ca-certificates xz-utils
    # firmware the built QEMU loads: SeaBIOS + SeaVGABIOS (also the x86 part
    # of our ROM), iPXE, keymaps
    seabios ipxe-qemu qemu-system-data
    # the host Mesa harness (tools/drm-shim, tests/mesa): Mesa's r300 and
    # llvmpipe drivers, EGL/GL/GLES/GBM and the libdrm headers
    libgl1-mesa-dri libegl-mesa0 libegl1 libgles2 libgbm1 libopengl0
    libdrm-dev libegl-dev libgles-dev libopengl-dev libgbm-dev
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

# Source packages (QEMU) come from deb-src; the guest's firmware from
# non-free-firmware.  Add both for the running Debian release, once.
src_list=/etc/apt/sources.list.d/r500.sources
need_update=""
if [ ! -f "$src_list" ]; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    $sudo tee "$src_list" >/dev/null <<EOT
# Added by r500 scripts/deps.sh: QEMU source package, guest firmware.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $codename-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian
Suites: $codename
Components: non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
    need_update=1
fi

if [ ${#missing[@]} -gt 0 ] || [ -n "$need_update" ]; then
    echo "deps: installing ${missing[*]:-(apt sources only)}" >&2
    $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi
