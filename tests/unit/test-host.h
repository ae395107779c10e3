/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A chip for unit tests over the shared in-memory host (tools/host/
 * mem-host.h): guest RAM as a plain buffer, a clock the test sets, the
 * recorded IRQ line, schedule requests and the log lines, in h->host.
 */
#ifndef R500_TEST_HOST_H
#define R500_TEST_HOST_H

#include <glib.h>

#include "r500.h"
#include "mem-host.h"

typedef struct TestHost {
    R500Chip chip;
    uint8_t *vram;
    /* logs: "G: msg" (guest error), "U: msg"; traces: TestTrace */
    MemHost host;
} TestHost;

typedef MemHostTrace TestTrace;

/* A chip of the model with vram_mb MiB of VRAM and 16 MiB of guest RAM. */
TestHost *test_host_new(R500Model model, unsigned vram_mb);
void test_host_free(TestHost *h);
/*
 * The same host for the next test input (the fuzzers': tests/fuzz/):
 * the chip reset (r500_chip_reset), what the chip reported writing to
 * VRAM and guest RAM zeroed, the clock, counts and log lines cleared.
 * What the caller wrote to h->vram itself, unreported, stays.
 */
void test_host_reuse(TestHost *h);
/* Number of log lines containing needle; clears nothing. */
unsigned test_host_count_logs(TestHost *h, const char *needle);
/* Run the chip like the board does while deadlines are due (bounded). */
void test_host_run(TestHost *h);

#endif
