#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A long fuzzing campaign on one target (docs/reliability.md), after
# `make test` built build/san and build/qemu-san:
#   scripts/fuzz.sh TARGET [SECONDS [JOBS]]
# TARGET: mmio, pm4, rb2d (and us, pvs, tx, atom once their engines are
# in), or generic (QEMU's generic-fuzz-r500).  SECONDS defaults to 3600,
# JOBS (parallel fuzzer processes) to 1.  The corpus grows in
# ~/.cache/r500/fuzz/TARGET across campaigns; crashes land in
# build/fuzz-artifacts/TARGET-campaign/ (reproduce: FUZZER FILE).
set -euo pipefail

target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS [JOBS]]}
seconds=${2:-3600}
jobs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
corpus=${R500_CACHE:-$HOME/.cache/r500}/fuzz/$target
artifacts=$build/fuzz-artifacts/$target-campaign
seeds=$build/san/tests/fuzz/seeds/$target
args=()
case $target in
generic)
    fuzzer=$build/qemu-san/build/qemu-fuzz-x86_64
    args=(--fuzz-target=generic-fuzz-r500 -max_len=4096) ;;
pm4) fuzzer=$build/san/tests/fuzz/fuzz-$target; args=(-max_len=65536) ;;
*) fuzzer=$build/san/tests/fuzz/fuzz-$target; args=(-max_len=16384) ;;
esac
if [ ! -x "$fuzzer" ]; then
    echo "fuzz: no $fuzzer (run make test first)" >&2
    exit 1
fi
mkdir -p "$corpus" "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export R500_ROMDIR=${R500_ROMDIR:-$build/san/roms}
if [ "$jobs" -gt 1 ]; then
    args+=(-jobs="$jobs" -workers="$jobs")
fi
echo "fuzz: $target for $seconds s, $jobs job(s), corpus $corpus"
exec "$fuzzer" "${args[@]}" -max_total_time="$seconds" -timeout=30 \
    -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$seeds"
