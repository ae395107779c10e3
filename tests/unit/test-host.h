/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host for the chip core in unit tests: guest RAM as a plain buffer,
 * a clock the test sets, a recorded IRQ line, schedule requests and log
 * lines.
 */
#ifndef R500_TEST_HOST_H
#define R500_TEST_HOST_H

#include <glib.h>

#include "r500.h"

typedef struct TestHost {
    R500Chip chip;
    uint8_t *vram;
    uint8_t *ram;           /* guest RAM at bus address 0 */
    uint64_t ram_size;
    int64_t now;
    bool irq;
    unsigned irq_edges;
    int64_t scheduled;      /* last schedule() deadline, -1 none */
    uint64_t last_dma_addr; /* bus address of the last DMA, even failed */
    unsigned dma_writes;    /* successful DMA writes */
    unsigned irq_dma_writes;    /* dma_writes when the line last rose */
    unsigned aperture_changes;  /* aperture_changed() calls */
    GPtrArray *logs;        /* "G: msg" (guest error) or "U: msg" (unimp) */
    GArray *traces;         /* TestTrace, in the order the core traced */
} TestHost;

typedef struct TestTrace {
    R500TraceEvent ev;
    uint64_t a, b, c, d;
} TestTrace;

/* A chip of the model with vram_mb MiB of VRAM and 16 MiB of guest RAM. */
TestHost *test_host_new(R500Model model, unsigned vram_mb);
void test_host_free(TestHost *h);
/* Number of log lines containing needle; clears nothing. */
unsigned test_host_count_logs(TestHost *h, const char *needle);
/* Run the chip like the board does while deadlines are due (bounded). */
void test_host_run(TestHost *h);

#endif
