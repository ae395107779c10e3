#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A private apt for one Debian release, on the machine's own mirrors:
#
#   scripts/apt-release.sh RELEASE      prints the path of its apt.conf
#
# RELEASE is a codename (bullseye, bookworm, trixie, sid) or a version
# (11, 12, 13).  Use it as APT_CONFIG=<that path> apt-cache/apt-get
# download/apt-get source: what the QEMU build (the distro's QEMU source
# packages of trixie and sid) and the guests (tests/guest/mkguest.py:
# each release's kernel, firmware and userland) take from Debian.  The
# machine's own apt configuration is left as it is, so a Debian 12 host
# never sees trixie or sid among its own sources.
#
# The mirrors are the machine's: each enabled entry of the machine's own
# release (scripts/apt-sources.sh) is taken with its suite renamed,
# bookworm-updates -> trixie-updates, bookworm-security -> trixie-security
# (sid: the release itself only), with deb and deb-src lines, the
# release's firmware component and no preferences or installed packages
# of the host.  The lists live under ~/.cache/r500/apt/<codename> and are
# refreshed when older than a day or when the machine's sources change.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
# shellcheck source=apt-sources.sh
. "$here/apt-sources.sh"

release=$(apt_codename "${1:?usage: apt-release.sh RELEASE}")
case "$release" in
bullseye) comps="main non-free" ;;     # firmware was in non-free then
bookworm|trixie|sid) comps="main non-free-firmware" ;;
*) echo "apt-release: unknown release '$release' (11, 12, 13 or sid)" >&2
   exit 2 ;;
esac

cache=${R500_CACHE:-$HOME/.cache/r500}
dir="$cache/apt/$release"
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/parts"
# one writer at a time (guests built in parallel, QEMU's source)
exec 9>"$dir/lock"
flock 9

want=""
while IFS=$'\t' read -r uri suite sb; do
    opt=""
    [ -n "$sb" ] && opt=" [signed-by=$sb]"
    want+="deb$opt $uri $suite $comps
deb-src$opt $uri $suite $comps
"
done < <(apt_release_entries "$release")
[ -n "$want" ] || { echo "apt-release: the machine has no enabled apt entry of its own release ($(apt_host_codename))" >&2; exit 1; }

conf="$dir/apt.conf"
cat > "$conf.tmp" <<EOF
// Written by r500 scripts/apt-release.sh: Debian $release on this
// machine's mirrors, apart from the machine's own apt state.
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "$dir/parts";
Dir::Etc::Preferences "$dir/preferences";
Dir::Etc::PreferencesParts "$dir/parts";
Dir::State::Lists "$dir/lists";
Dir::State::status "$dir/status";
Dir::Cache "$dir/cache";
APT::Sandbox::User "$(id -un)";
// The suites' signatures are checked as ever; their Valid-Until is not:
// a mirror that is a snapshot serves sid with a Release file past its
// week of validity (apt: "Release file ... is expired"), and what is
// taken from here is pinned by checksum (qemu-build.sh's version table)
// or is a guest's package, not the machine's.
Acquire::Check-Valid-Until "false";
EOF
mv "$conf.tmp" "$conf"
: >> "$dir/status"
: >> "$dir/preferences"

stale=""
if [ "$(cat "$dir/sources.list" 2>/dev/null)" != "${want%$'\n'}" ]; then
    printf '%s' "$want" > "$dir/sources.list"
    stale=1
fi
if [ -n "$stale" ] || [ ! -f "$dir/updated" ] ||
   [ -n "$(find "$dir/updated" -mmin +1440)" ]; then
    echo "apt-release: apt-get update for Debian $release" >&2
    if APT_CONFIG=$conf apt-get update -qq > "$dir/update.log" 2>&1; then
        touch "$dir/updated"
    elif [ -f "$dir/updated" ]; then
        # offline: the lists we have still say what was there
        echo "apt-release: update failed, using the lists of $(date -r "$dir/updated" +%F) ($dir/update.log)" >&2
    else
        cat "$dir/update.log" >&2
        exit 1
    fi
fi
echo "$conf"
