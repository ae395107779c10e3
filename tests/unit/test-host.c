/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "test-host.h"

static bool th_dma_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    TestHost *h = opaque;

    h->last_dma_addr = addr;
    if (!r500_span_in(addr, len, h->ram_size)) {
        return false;
    }
    memcpy(buf, h->ram + addr, len);
    return true;
}

static bool th_dma_write(void *opaque, uint64_t addr, const void *buf,
                         uint64_t len)
{
    TestHost *h = opaque;

    h->last_dma_addr = addr;
    if (!r500_span_in(addr, len, h->ram_size)) {
        return false;
    }
    memcpy(h->ram + addr, buf, len);
    h->dma_writes++;
    return true;
}

static void th_set_irq(void *opaque, bool level)
{
    TestHost *h = opaque;

    if (level && !h->irq) {
        h->irq_edges++;
        h->irq_dma_writes = h->dma_writes;
    }
    h->irq = level;
}

static int64_t th_clock(void *opaque)
{
    return ((TestHost *)opaque)->now;
}

static void th_schedule(void *opaque, int64_t deadline)
{
    ((TestHost *)opaque)->scheduled = deadline;
}

static void th_log(void *opaque, R500LogKind kind, const char *msg)
{
    TestHost *h = opaque;

    g_ptr_array_add(h->logs, g_strdup_printf("%c: %s",
                    kind == R500_LOG_GUEST_ERROR ? 'G' : 'U', msg));
    if (g_getenv("R500_TEST_VERBOSE")) {
        g_printerr("%c: %s\n", kind == R500_LOG_GUEST_ERROR ? 'G' : 'U', msg);
    }
}

static void th_trace(void *opaque, R500TraceEvent ev, uint64_t a,
                     uint64_t b, uint64_t c, uint64_t d)
{
    TestTrace t = { ev, a, b, c, d };

    g_array_append_val(((TestHost *)opaque)->traces, t);
}

static const R500HostOps test_host_ops = {
    .dma_read = th_dma_read,
    .dma_write = th_dma_write,
    .set_irq = th_set_irq,
    .clock_ns = th_clock,
    .schedule = th_schedule,
    .log = th_log,
    .trace = th_trace,
};

TestHost *test_host_new(R500Model model, unsigned vram_mb)
{
    TestHost *h = g_new0(TestHost, 1);
    char *err = NULL;

    h->vram = g_malloc0((gsize)vram_mb << 20);
    h->ram_size = 16u << 20;
    h->ram = g_malloc0(h->ram_size);
    h->logs = g_ptr_array_new_with_free_func(g_free);
    h->traces = g_array_new(FALSE, FALSE, sizeof(TestTrace));
    h->scheduled = -1;
    if (!r500_chip_init(&h->chip, model, h->vram, (uint64_t)vram_mb << 20,
                        &test_host_ops, h, &err)) {
        g_error("chip init: %s", err);
    }
    r500_soft_set_threads(&h->chip, r500_soft_threads_env());
    return h;
}

void test_host_free(TestHost *h)
{
    r500_chip_finalize(&h->chip);
    g_ptr_array_free(h->logs, TRUE);
    g_array_free(h->traces, TRUE);
    g_free(h->vram);
    g_free(h->ram);
    g_free(h);
}

unsigned test_host_count_logs(TestHost *h, const char *needle)
{
    unsigned n = 0;

    for (unsigned i = 0; i < h->logs->len; i++) {
        if (strstr(g_ptr_array_index(h->logs, i), needle)) {
            n++;
        }
    }
    return n;
}

void test_host_run(TestHost *h)
{
    for (int i = 0; i < 100000 && h->scheduled >= 0 && h->scheduled <= h->now;
         i++) {
        h->scheduled = -1;
        r500_run(&h->chip);
    }
}
