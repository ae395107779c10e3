#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Migration compatibility of the card (docs/reliability.md): dump the
# vmstate description of the built QEMU (-dump-vmstate), keep the r500
# device, and check with QEMU's scripts/vmstate-static-checker.py that a
# stream of the recorded layout still loads into it.
#   vmstate-check.sh QEMU CHECKER REFERENCE            check
#   vmstate-check.sh QEMU CHECKER REFERENCE --update   record a release
set -euo pipefail

qemu=$1 checker=$2 ref=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$qemu" -M none -display none -dump-vmstate "$tmp/all.json"
python3 - "$tmp/all.json" "$tmp/r500.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keep = {k: d[k] for k in ("vmschkmachine", "r500")}
json.dump(keep, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
if [ "${4:-}" = --update ]; then
    cp "$tmp/r500.json" "$ref"
    echo "vmstate-check: recorded $ref"
    exit 0
fi
# The checker reports, and exits non-zero on, what would break loading
# a stream of the reference layout into this build.
python3 "$checker" -s "$ref" -d "$tmp/r500.json"
echo "vmstate-check: streams of $(basename "$ref") load into this build"
