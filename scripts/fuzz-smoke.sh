#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One bounded, deterministic fuzzing run: the smoke test `make test` runs
# for every target (docs/reliability.md).  Long campaigns: scripts/fuzz.sh.
#   fuzz-smoke.sh FUZZER SEEDS RUNS MAX_LEN ARTIFACTS [FUZZER ARGS...]
#   fuzz-smoke.sh --skip REASON
# The new inputs the run finds go to a temporary corpus; a crash leaves its
# input in ARTIFACTS (reproduce: FUZZER FILE) and fails the test.  With
# FUZZ_SMOKE_EXPECT set (an extended regular expression), a run whose
# output has no line matching it fails too: the run did not reach what it
# is there for (the 3D targets on gl: that gl drew, fuzz-3d.c).
set -euo pipefail

if [ "$1" = --skip ]; then
    echo "SKIP: $2"
    exit 77
fi
fuzzer=$1 seeds=$2 runs=$3 max_len=$4 artifacts=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$artifacts"
start=$(date +%s%N)
status=0
# libFuzzer's own error exit code is 77, which meson takes for a skip.
"$fuzzer" "$@" -seed=1 -runs="$runs" -max_len="$max_len" -timeout=60 \
    -error_exitcode=1 -timeout_exitcode=1 -rss_limit_mb=3072 \
    -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work/corpus" "$seeds" \
    >"$work/log" 2>&1 || status=$?
# Progress lines are noise in a test log; keep the rest.
grep -v '^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\)' "$work/log" || true
echo "fuzz-smoke: $(basename "$fuzzer"): $runs runs in" \
     "$(( ($(date +%s%N) - start) / 1000000 )) ms," \
     "$(ls "$work/corpus" | wc -l) new inputs, exit $status"
[ "$status" -ne 77 ] || status=1
if [ "$status" -eq 0 ] && [ -n "${FUZZ_SMOKE_EXPECT:-}" ] &&
   ! grep -Eq -- "$FUZZ_SMOKE_EXPECT" "$work/log"; then
    echo "fuzz-smoke: no line of the run matches '$FUZZ_SMOKE_EXPECT'"
    status=1
fi
exit "$status"
