#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Start a q35 machine with the emulated card as its only display.
#   scripts/run.sh BUILD_DIR [extra QEMU arguments...]
# Shows a window when the QEMU build has one and a desktop is there, else
# serves VNC on 127.0.0.1:5900.  A screenshot of the card's output is
# written to BUILD_DIR/run-screenshot.ppm a few seconds after start.
# Environment: R500_MODEL (rv515), R500_VRAM (256M), R500_SHOT_AFTER (8).
set -euo pipefail

build=$(realpath "${1:-build}")
shift || true
qemu="$build/qemu/build/qemu-system-x86_64"
[ -x "$qemu" ] || { echo "run: $qemu not built; run 'make run'" >&2; exit 1; }

display=(-display vnc=127.0.0.1:0)
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] &&
   "$qemu" -display help | grep -qE '^(gtk|sdl)$'; then
    display=()
fi
[ ${#display[@]} -gt 0 ] && echo "run: no window available; VNC on 127.0.0.1:5900" >&2

qmp="$build/run-qmp.sock"
shot="$build/run-screenshot.ppm"
rm -f "$qmp" "$shot"
(
    sleep "${R500_SHOT_AFTER:-8}"
    python3 "$(dirname "$0")/qmp.py" "$qmp" screendump "{\"filename\": \"$shot\"}" \
        >/dev/null 2>&1 && echo "run: screenshot written to $shot" >&2
) &

exec "$qemu" -machine q35 -m 512 -vga none -nodefaults \
    -device "r500,model=${R500_MODEL:-rv515},vram-size=${R500_VRAM:-256M}" \
    -qmp "unix:$qmp,server=on,wait=off" "${display[@]}" "$@"
