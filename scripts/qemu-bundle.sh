#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run from its build tree, QEMU looks for firmware only inside
# BUILD/qemu-bundle (util/cutils.c: get_relocated_path), not in the
# --firmwarepath it was configured with: link each firmware directory
# there.  Used by scripts/qemu-build.sh and scripts/upstream-series.py.
#   scripts/qemu-bundle.sh QEMU_BUILD_DIR DIR[:DIR...]
set -euo pipefail
build=$1
IFS=: read -ra fwdirs <<<"$2"
for d in "${fwdirs[@]}"; do
    link="$build/qemu-bundle$d"
    [ -L "$link" ] && [ "$(readlink "$link")" = "$d" ] && continue
    mkdir -p "$(dirname "$link")"
    rm -rf "$link"
    ln -s "$d" "$link"
done
