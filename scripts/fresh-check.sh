#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Prove the README on a fresh Debian 12 or 13: build a clean root of the
# release with debootstrap (minbase: what a minimal install has, plus git,
# make and sudo, which a user needs to clone and type the README's commands),
# clone this repository into it, and run the README's two commands there
# in a chroot, each with its time:
#
#   make run    must build QEMU with the card and boot the demo guest to
#               the point where run.sh writes its screenshot
#   make test   must pass
#
#   scripts/fresh-check.sh [--keep] [--cold] [--release 12|13] [DIR]
#                                                        (as root)
#
# --release: the Debian release of the root (default: the machine's own).
# DIR defaults to ~/.cache/r500/fresh-<codename>.  The mirror is the
# machine's own (scripts/apt-sources.sh), and the chroot gets the
# release's suites on the machine's mirrors (bookworm-updates becomes
# trixie-updates, ...) and the machine's proxy settings, as a user's fresh
# install would have its own.  The
# chroot shares ccache with the machine (compiler output, not packages;
# --cold gives it an empty one).  --keep leaves the root for inspection.
# The report goes to DIR/report.txt; docs/build.md records the last pass.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/..")
keep="" cold="" release=""
while [ $# -gt 0 ]; do
    case "$1" in
    --keep) keep=1; shift ;;
    --cold) cold=1; shift ;;
    --release) release=${2:?--release 12|13}; shift 2 ;;
    *) break ;;
    esac
done
# shellcheck source=apt-sources.sh
. "$here/apt-sources.sh"
host=$(apt_host_codename)
suite=$(apt_codename "${release:-$host}")
cache=${R500_CACHE:-$HOME/.cache/r500}
dir=$(realpath -m "${1:-$cache/fresh-$suite}")
root="$dir/root"
report="$dir/report.txt"
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: run as root (debootstrap, chroot)" >&2; exit 1; }

log() { echo "fresh-check: $*" | tee -a "$report" >&2; }
stamp() { date +%s; }

mkdir -p "$dir" "$cache/fresh-debs-$suite"
: > "$report"
if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap"
    apt-get install -y -qq debootstrap >/dev/null
fi
mirror=$(apt_main_uri "$host")
[ -n "$mirror" ] || { log "no enabled apt source of suite $host with main"; exit 1; }

cleanup() {
    for m in dev/pts dev proc sys root/.cache/r500/ccache; do
        mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" || true
    done
    [ -n "$keep" ] || rm -rf "$root"
}
trap cleanup EXIT
cleanup

t0=$(stamp)
log "debootstrap $suite (minbase) from $mirror into $root"
debootstrap --variant=minbase --include=git,make,sudo,ca-certificates \
    --cache-dir="$cache/fresh-debs-$suite" "$suite" "$root" "$mirror" \
    > "$dir/debootstrap.log" 2>&1 || { tail -20 "$dir/debootstrap.log"; exit 1; }
log "root ready in $(( $(stamp) - t0 )) s"

# The release's suites on the machine's mirrors, as a user's own machine
# has its own apt configuration.
rm -f "$root/etc/apt/sources.list"
apt_release_entries "$suite" | while IFS=$'\t' read -r uri rsuite sb; do
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n%s\n' \
        "$uri" "$rsuite" "${sb:+Signed-By: $sb
}"
done > "$root/etc/apt/sources.list.d/debian.sources"
log "apt sources of the root: $(awk '/^Suites:/ {printf "%s ", $2}' "$root/etc/apt/sources.list.d/debian.sources")"
for f in /etc/apt/apt.conf.d/*; do
    grep -qi proxy "$f" 2>/dev/null && cp "$f" "$root$f"
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
if [ -z "$cold" ]; then
    mkdir -p "$cache/ccache" "$root/root/.cache/r500/ccache"
    mount --bind "$cache/ccache" "$root/root/.cache/r500/ccache"
fi

git clone -q "$repo" "$root/root/r500"
in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 bash -c "cd /root/r500 || exit 1
$1"
}

status=0
t1=$(stamp)
log "make run (default demo guest; stopped once its screenshot is written)"
# run.sh writes its screenshot R500_SHOT_AFTER seconds after QEMU starts;
# then QEMU is stopped (make run itself ends only with the guest).
if in_root 'R500_SHOT_AFTER=60 setsid make run </dev/null > /root/run.log 2>&1 & pid=$!
            for i in $(seq 600); do
                [ -s build/run-screenshot.ppm ] && break
                kill -0 $pid 2>/dev/null || break
                sleep 5
            done
            test -s build/run-screenshot.ppm; r=$?
            kill -- -$pid 2>/dev/null; wait; exit $r'; then
    log "make run: ok in $(( $(stamp) - t1 )) s (build/run-screenshot.ppm written)"
    cp "$root/root/r500/build/run-screenshot.ppm" "$dir/" || true
else
    status=1
    log "make run: FAILED after $(( $(stamp) - t1 )) s; end of its output:"
    tail -30 "$root/root/run.log" | tee -a "$report" >&2
fi

t2=$(stamp)
log "make test"
if in_root "make test </dev/null > /root/test.log 2>&1"; then
    log "make test: ok in $(( $(stamp) - t2 )) s: $(grep -E '^(Ok|Fail|Skipped):' "$root/root/test.log" | tr -s ' ' | tr '\n' ' ')"
else
    status=1
    log "make test: FAILED after $(( $(stamp) - t2 )) s; end of its output:"
    tail -40 "$root/root/test.log" | tee -a "$report" >&2
fi
cp "$root/root/run.log" "$root/root/test.log" "$dir/" 2>/dev/null || true
# what each guest run said, for a failure's why (the root goes)
rm -rf "$dir/guest-reports"
mkdir -p "$dir/guest-reports"
for f in "$root"/root/r500/build/guest/*/report.txt; do
    [ -e "$f" ] && cp "$f" "$dir/guest-reports/$(basename "$(dirname "$f")").txt"
done
log "$( [ $status = 0 ] && echo PASSED || echo FAILED ) on $(date -u +%F) in $(( $(stamp) - t0 )) s in all (commit $(git -C "$root/root/r500" rev-parse --short HEAD))"
exit $status
