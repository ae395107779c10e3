#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The nested clang ASan+UBSan build of this project (docs/reliability.md):
# the chip core, the unit tests and the libFuzzer targets, configured with
# the options meson.build passes.  Called by meson as a custom target that
# always runs (ninja inside makes it a no-op when nothing changed):
#   scripts/san-build.sh SOURCE BUILD STAMP [MESON OPTIONS...]
set -euo pipefail

src=$(realpath "$1")
build=$(realpath -m "$2")
stamp=$3
shift 3
want="$*"

export CCACHE_DIR=${CCACHE_DIR:-${R500_CACHE:-$HOME/.cache/r500}/ccache}
export CCACHE_BASEDIR=$src
if [ ! -f "$build/build.ninja" ] ||
   [ "$(cat "$build/.r500-san-options" 2>/dev/null)" != "$want" ]; then
    rm -rf "$build"
    echo "san-build: configuring $build" >&2
    CC="ccache clang" meson setup "$build" "$src" "$@" >"$build.log" 2>&1 ||
        { tail -30 "$build.log"; exit 1; }
    echo "$want" > "$build/.r500-san-options"
fi
ninja -C "$build" >&2
touch "$stamp"
