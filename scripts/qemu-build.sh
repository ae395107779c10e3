#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Obtain the distro's QEMU source (pinned), lay our device into it and
# build qemu-system-x86_64 with ccache.  Called by meson (see meson.build);
# usable by hand:
#   R500_ROMDIR=... [R500_QEMU_VERSION=10.2] \
#       scripts/qemu-build.sh REPO BUILD STAMP [TARGETS]
#   scripts/qemu-build.sh --source VERSION     fetch and unpack only; print
#                                              the pristine tree's path
#
# Nothing of QEMU is committed: the source is unpacked once under
# ~/.cache/r500, and every build directory gets an overlay of it (a tree of
# symlinks) where a few build files are patched to pull in hw/r500 and
# tests/qtest from this repository.  Several checkouts can therefore share
# one download while each builds its own device sources.
set -euo pipefail

cache=${R500_CACHE:-$HOME/.cache/r500}
here=$(dirname "$(realpath "$0")")

# The QEMU versions the board builds into (docs/build.md): the source
# package, the Debian release whose sources serve it, and the checksums
# that pin what we build (.orig.tar.xz, .debian.tar.xz, .dsc).  10.0 is
# Debian 13's QEMU (bookworm-backports has the same series), the default;
# 10.2 the newest the mirror serves (unstable).  A new version is a new
# row here; hw/r500/qemu/r500_compat.h takes the API's changes.
qemu_versions() {
    cat <<'TABLE'
10.0  1:10.0.13+ds-0+deb13u1  trixie  6a0888e806c2ffc0c5f0733e974f9aea55491950d3c47c98669c8b236dde59ae  da73c092f5684c551b0334d675eb16a3dec91e1edea94759cfb1102fa4a0364e  a426c892e5369058c3423816c8625bc8010bb5a58ece57261f62b64ee4d765ad
10.2  1:10.2.2+ds-1           sid     be05230fe47a6937cd29f28f562932c8125f9c93c2a82c625198f7a4aa601dfb  ddf75aceab4f8f77374f3cb34fc97b41514895aeb293ce8b2ddd5e072bb0f5c0  f1684b3aa5ec500c3389d346c6501dee45041ea91656c6556d4da9023b7987dd
TABLE
}

log() { echo "qemu-build: $*" >&2; }

source_only=""
if [ "${1:-}" = --source ]; then
    source_only=1
    R500_QEMU_VERSION=${2:?usage: qemu-build.sh --source VERSION}
fi
version=${R500_QEMU_VERSION:-10.0}
row=$(qemu_versions | awk -v v="$version" '$1 == v')
if [ -z "$row" ]; then
    log "no QEMU $version in the table; one of: $(qemu_versions | awk '{printf "%s ", $1}')"
    exit 2
fi
read -r _ deb_version suite orig_sha debtar_sha dsc_sha <<<"$row"
nover=${deb_version#*:}                 # 10.0.13+ds-0+deb13u1
upstream=${nover%-*}                    # 10.0.13+ds
debian_rev=${nover##*-}                 # 0+deb13u1
orig="qemu_${upstream}.orig.tar.xz"
debtar="qemu_${upstream}-${debian_rev}.debian.tar.xz"
dsc="qemu_${upstream}-${debian_rev}.dsc"

dl="$cache/downloads"
src="$cache/qemu-${upstream}-${debian_rev}"
mkdir -p "$dl"

have_file() { # name sha
    [ -f "$dl/$1" ] && echo "$2  $dl/$1" | sha256sum -c --status
}

fetch_source() {
    if have_file "$orig" "$orig_sha" && have_file "$debtar" "$debtar_sha" &&
       have_file "$dsc" "$dsc_sha"; then
        return
    fi
    log "[1/4] downloading the QEMU $deb_version source package (about 40 MB) of Debian $suite"
    # From the machine's own mirrors, with Debian $suite's sources beside
    # the machine's apt state (scripts/apt-release.sh); no mirror is named
    # here, so a local mirror or proxy is used.
    local conf
    conf=$("$here/apt-release.sh" "$suite")
    (cd "$dl" && APT_CONFIG=$conf apt-get source --download-only \
         "qemu=$deb_version" 2>&1 | grep -E '^(Get|Fetched|E:)' >&2) || :
    have_file "$orig" "$orig_sha" && have_file "$debtar" "$debtar_sha" &&
        have_file "$dsc" "$dsc_sha" || {
        log "the source package qemu=$deb_version could not be fetched (or its checksum differs):"
        log "'APT_CONFIG=\$(scripts/apt-release.sh $suite) apt-cache madison qemu' lists what the"
        log "mirror has; a version it no longer serves needs a new row in qemu_versions"
        exit 1
    }
}

# The distro's QEMU: the upstream tarball with Debian's patches.
unpack_source() {
    [ -f "$src/.r500-unpacked" ] && return
    log "[2/4] unpacking into $src"
    rm -rf "$src" "$src.tmp"
    (cd "$dl" && dpkg-source --no-check -x "$dsc" "$src.tmp" >/dev/null)
    touch "$src.tmp/.r500-unpacked"
    mv "$src.tmp" "$src"
}

fetch_source
if [ -n "$source_only" ]; then
    # Upstream's files alone (scripts/upstream-series.sh): no Debian patch.
    pristine="$cache/qemu-${upstream}-pristine"
    if [ ! -f "$pristine/.r500-unpacked" ]; then
        log "unpacking the pristine tree into $pristine"
        rm -rf "$pristine" "$pristine.tmp"
        (cd "$dl" && dpkg-source --no-check --skip-patches -x "$dsc" \
             "$pristine.tmp" >/dev/null)
        rm -rf "$pristine.tmp/debian"
        touch "$pristine.tmp/.r500-unpacked"
        mv "$pristine.tmp" "$pristine"
    fi
    echo "$pristine"
    exit 0
fi

repo=$(realpath "$1")
build=$(realpath -m "$2")
stamp=$(realpath -m "$3")
unpack_source

# The overlay: symlinks to the pristine tree, real copies of patched files.
overlay="$build/src"
# Bump when make_overlay or configure change what they produce.
patch_stamp="r500-overlay-7 $version"

make_overlay() {
    if [ -f "$overlay/.r500-overlay" ] &&
       [ "$(cat "$overlay/.r500-overlay")" = "$patch_stamp $repo" ]; then
        return
    fi
    log "making the source overlay in $overlay"
    rm -rf "$overlay"
    mkdir -p "$overlay"
    cp -as "$src/." "$overlay/"
    for f in meson.build hw/meson.build hw/Kconfig tests/qtest/meson.build \
             tests/qtest/fuzz/generic_fuzz_configs.h; do
        rm "$overlay/$f"
        cp "$src/$f" "$overlay/$f"
    done
    ln -s "$repo/hw/r500" "$overlay/hw/r500"
    ln -s "$repo/tests/qtest" "$overlay/tests/qtest/r500"

    # 1. the device: Kconfig symbol, sources, trace events.
    echo "source r500/Kconfig" >> "$overlay/hw/Kconfig"
    echo "subdir('r500')" >> "$overlay/hw/meson.build"
    sed -i "s|^trace_events_subdirs = \[|trace_events_subdirs = [\n  'hw/r500/qemu',|" \
        "$overlay/meson.build"
    # 2. the +ds tarball has no edk2 blobs; do not try to unpack them.
    sed -i "s|unpack_edk2_blobs = bzip2.found()|unpack_edk2_blobs = bzip2.found() and fs.exists('pc-bios/edk2-x86_64-code.fd.bz2')|" \
        "$overlay/meson.build"
    # 3. our qtests, built against this tree's libqtest.
    echo "subdir('r500')" >> "$overlay/tests/qtest/meson.build"
    # 4. generic-fuzz-r500 for --enable-fuzzing builds (docs/reliability.md):
    #    the card's MMIO, I/O and VGA regions; its DMA goes through pci_dma_*,
    #    which the fuzzer fills with its patterns.
    sed -i "s|^const generic_fuzz_config predefined_configs\[\] = {|&\n    {\n\
        .name = \"r500\",\n\
        .args = \"-machine q35 -nodefaults -device r500,vram-size=16M\",\n\
        .objects = \"r500*\",\n\
    },|" "$overlay/tests/qtest/fuzz/generic_fuzz_configs.h"

    # 5. the devices the qtests and generic-fuzz-r500 need, for builds
    #    configured --without-default-devices --with-devices-x86_64=r500
    #    (the sanitized build: q35 with its default VGA, parallel port and
    #    NIC, and the card; nothing else).
    printf '%s\n' CONFIG_Q35=y CONFIG_VGA_PCI=y CONFIG_PARALLEL=y \
        CONFIG_E1000E_PCI_EXPRESS=y CONFIG_R500=y \
        > "$overlay/configs/devices/x86_64-softmmu/r500.mak"

    # 6. fixes to QEMU itself, the patches the upstream series sends
    #    before the device (scripts/upstream/qemu/, docs/upstream.md).
    local p f
    for p in "$here"/upstream/qemu/*.patch; do
        for f in $(sed -n 's|^+++ b/||p' "$p"); do
            rm "$overlay/$f"
            cp "$src/$f" "$overlay/$f"
        done
        patch -s -p1 -d "$overlay" < "$p"
    done

    grep -q "'hw/r500/qemu'" "$overlay/meson.build"
    grep -q "fs.exists('pc-bios/edk2" "$overlay/meson.build"
    grep -q '"r500\*"' "$overlay/tests/qtest/fuzz/generic_fuzz_configs.h"
    echo "$patch_stamp $repo" > "$overlay/.r500-overlay"
}

: "${R500_ROMDIR:?set R500_ROMDIR to the directory of the built ROMs}"

# The firmware path is baked in so the binary finds our ROMs, SeaBIOS,
# iPXE and keymaps (Debian's binary packages) without -L.
fwpath="$(realpath -m "$R500_ROMDIR"):/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu"

configure() {
    local qb="$build/build"
    # The UI: GTK and SDL windows with OpenGL (`make run` on a desktop), or
    # none for the sanitized build, which only serves qtests and fuzzing.
    local ui="--enable-gtk --enable-sdl --enable-opengl"
    [ "${R500_QEMU_UI:-window}" = headless ] &&
        ui="--disable-gtk --disable-sdl --disable-opengl"
    local want="$patch_stamp $fwpath $ui ${R500_QEMU_CONFIGURE_EXTRA:-}"
    if [ -f "$qb/build.ninja" ] && [ "$(cat "$qb/.r500-configured" 2>/dev/null)" = "$want" ]; then
        return
    fi
    log "[3/4] configuring QEMU $version (log: $qb/configure.log)"
    rm -rf "$qb"
    mkdir -p "$qb"
    # The distro's Python, which has the distro's meson (QEMU 10 needs
    # 1.5 or newer and Debian's source has no bundled copy: deps.sh
    # installs it), whatever python3 comes first in PATH.
    # shellcheck disable=SC2086
    (cd "$qb" && "$overlay/configure" \
        --python=/usr/bin/python3 \
        --target-list=x86_64-softmmu \
        --firmwarepath="$fwpath" \
        --disable-docs --disable-tools --disable-guest-agent \
        --disable-install-blobs \
        --disable-xen --disable-spice --disable-virglrenderer \
        $ui \
        --disable-vhost-user --disable-capstone --disable-libusb \
        --disable-usb-redir --disable-smartcard --disable-rust \
        --enable-slirp --enable-vnc \
        --enable-trace-backends=log \
        ${R500_QEMU_CONFIGURE_EXTRA:-} >"$qb/configure.log" 2>&1) ||
        { tail -30 "$qb/configure.log"; exit 1; }
    echo "$want" > "$qb/.r500-configured"
}

export PATH="/usr/lib/ccache:$PATH"
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_BASEDIR=$build
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}

make_overlay
configure
shift 3
targets=("qemu-system-x86_64" "$@")
# A line per tenth of the build, as it goes, instead of a thousand; the
# whole output is kept in ninja.log and its end shown when the build fails.
log "[4/4] building ${targets[*]} (log: $build/build/ninja.log)"
if ! ninja -C "$build/build" "${targets[@]}" < /dev/null 2>&1 |
        tee "$build/build/ninja.log" |
        awk 'match($0, /^\[[0-9]+\/[0-9]+\]/) {
                 split(substr($0, 2, RLENGTH - 2), n, "/");
                 t = int(10 * n[1] / n[2]);
                 if (t > last) { last = t;
                     printf "qemu-build:   %3d%% (%d of %d steps)\n", 10 * t, n[1], n[2] > "/dev/stderr";
                     fflush("/dev/stderr") } }'; then
    tail -40 "$build/build/ninja.log" >&2
    log "build failed (full log: $build/build/ninja.log)"
    exit 1
fi
# Firmware for QEMU run from its build tree.
"$here/qemu-bundle.sh" "$build/build" "$fwpath"
touch "$stamp"
