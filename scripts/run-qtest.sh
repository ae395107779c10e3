#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run one of our qtests against the QEMU we built: run-qtest.sh QEMU TEST
set -e
QTEST_QEMU_BINARY=$1
export QTEST_QEMU_BINARY
shift
exec "$@" --tap -k
