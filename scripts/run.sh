#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Start a q35 machine with the emulated card as its only display.
#   scripts/run.sh BUILD_DIR [extra QEMU arguments...]
# By default it boots the Linux test guest (tests/guest/mkguest.py: Debian
# 12's kernel and radeon driver, busybox, libdrm's modetest/vbltest, or
# those of R500_GUEST_RELEASE=11|13; built once and cached under
# ~/.cache/r500/guest) to a shell on the card's
# console and on this terminal.  Boot media among the extra arguments
# (-hda, -cdrom, -drive, -kernel, ...) or R500_GUEST=none boot those
# instead, through the firmware as usual (docs/guests.md).
# Shows a window when the QEMU build has one and a desktop is there, else
# serves VNC on 127.0.0.1:5900.  A screenshot of the card's output is
# written to BUILD_DIR/run-screenshot.ppm some seconds after start.
# Environment: R500_MODEL (rv515), R500_VRAM (256M), R500_MEM (512),
# R500_SHOT_AFTER (seconds: 30 with the Linux guest, else 8),
# R500_GUEST (linux|none), R500_GUEST_TEST (shell; see docs/guests.md),
# R500_GUEST_APPEND (extra kernel arguments, e.g. radeon.test=1),
# R500_RUN_DIR (where the QMP socket, serial log and screenshot go:
# BUILD_DIR).
set -euo pipefail

here=$(dirname "$(realpath "$0")")
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

guest="${R500_GUEST:-linux}"
for a in "$@"; do
    case "$a" in
    -hd[a-d] | -cdrom | -drive | -blockdev | -kernel | -bios | -pflash | -fd[ab] | -boot)
        guest=none ;;
    esac
done
# R500_GUEST=desktop: the same kernel and initramfs with the desktop image
# (tests/guest/mkdesktop.py: X.org, Mesa r300, kmscube, glmark2) as a
# read-only virtio disk; /init starts X with twm and an xterm on the card.
if [ "$guest" = desktop ]; then
    img=$(python3 "$here/../tests/guest/mkdesktop.py") || {
        echo "run: could not build the desktop image" >&2
        exit 1
    }
    set -- -drive "file=$img/root.img,if=virtio,format=raw,readonly=on" "$@"
    R500_GUEST_APPEND="r500.root=/dev/vda ${R500_GUEST_APPEND:-}"
    guest=linux
fi
boot=()
if [ "$guest" = linux ]; then
    dir=$(python3 "$here/../tests/guest/mkguest.py") || {
        echo "run: could not build the Linux guest; R500_GUEST=none starts" \
             "the machine without it" >&2
        exit 1
    }
    boot=(-kernel "$dir/vmlinuz" -initrd "$dir/initrd.img"
          -append "console=tty0 console=ttyS0,115200 r500.test=${R500_GUEST_TEST:-shell} ${R500_GUEST_APPEND:-}")
    echo "run: booting the Linux guest in $dir (a shell on the card's console" \
         "and here; 'poweroff -f' ends it)" >&2
fi

# The serial console: this terminal when there is one (Ctrl-A X quits,
# Ctrl-A C is QEMU's monitor), else a file.
if [ -t 0 ] && [ -t 1 ]; then
    serial=(-serial mon:stdio)
else
    serial=(-serial "file:${R500_RUN_DIR:-$build}/run-serial.log")
    echo "run: serial console in ${R500_RUN_DIR:-$build}/run-serial.log" >&2
fi

rundir=${R500_RUN_DIR:-$build}
qmp="$rundir/run-qmp.sock"
shot="$rundir/run-screenshot.ppm"
rm -f "$qmp" "$shot"
after=${R500_SHOT_AFTER:-$([ "$guest" = linux ] && echo 30 || echo 8)}
(
    sleep "$after"
    python3 "$here/qmp.py" "$qmp" screendump "{\"filename\": \"$shot\"}" \
        >/dev/null 2>&1 && echo "run: screenshot written to $shot" >&2
) &

exec "$qemu" -machine q35 -m "${R500_MEM:-512}" -vga none -nodefaults \
    -device "r500,model=${R500_MODEL:-rv515},vram-size=${R500_VRAM:-256M}" \
    -qmp "unix:$qmp,server=on,wait=off" "${display[@]}" "${serial[@]}" \
    "${boot[@]}" "$@"
