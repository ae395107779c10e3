/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU generates the trace functions from trace-events in this directory. */
#include "trace/trace-hw_r500_qemu.h"
