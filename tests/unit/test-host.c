/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "test-host.h"

TestHost *test_host_new(R500Model model, unsigned vram_mb)
{
    TestHost *h = g_new0(TestHost, 1);
    uint64_t ram_size = 16u << 20;
    char *err = NULL;

    h->vram = g_malloc0((gsize)vram_mb << 20);
    mem_host_init(&h->host, g_malloc0(ram_size), ram_size,
                  (uint64_t)vram_mb << 20);
    h->host.chip = &h->chip;
    h->host.logs = g_ptr_array_new_with_free_func(g_free);
    h->host.traces = g_array_new(FALSE, FALSE, sizeof(TestTrace));
    h->host.verbose = g_getenv("R500_TEST_VERBOSE") != NULL;
    if (!r500_chip_init(&h->chip, model, h->vram, (uint64_t)vram_mb << 20,
                        &mem_host_ops, &h->host, &err)) {
        g_error("chip init: %s", err);
    }
    /* soft unless asked: the unit tests assert the reference's pixels */
    r500_pipe_configure(&h->chip, "soft");
    return h;
}

void test_host_free(TestHost *h)
{
    r500_chip_finalize(&h->chip);
    g_ptr_array_free(h->host.logs, TRUE);
    g_array_free(h->host.traces, TRUE);
    g_free(h->vram);
    g_free(h->host.ram);
    g_free(h);
}

void test_host_reuse(TestHost *h)
{
    MemHost *m = &h->host;

    r500_chip_reset(&h->chip);
    mem_host_clean(m, h->vram);
    g_ptr_array_set_size(m->logs, 0);
    g_array_set_size(m->traces, 0);
}

unsigned test_host_count_logs(TestHost *h, const char *needle)
{
    return mem_host_count_logs(&h->host, needle);
}

void test_host_run(TestHost *h)
{
    for (int i = 0; i < 100000; i++) {
        if (!mem_host_step(&h->host, false)) {
            break;
        }
    }
}
