/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r500-replay internals. */
#ifndef R500_TOOLS_REPLAY_H
#define R500_TOOLS_REPLAY_H

#include <stdbool.h>

#include "cs.h"

/*
 * Run every stream the recording executed on a fresh chip and compare
 * the buffers with the recorded results; true when all are identical.
 */
bool replay_execute(const CapFile *f, bool verbose);

#endif
