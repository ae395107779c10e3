/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The core's base services (docs/architecture.md): the host's log with
 * the counters the stats property shows, the host's settings, the one
 * report-once mechanism,
 * the interrupt line and the request to run.  Every block may call them;
 * they call nothing of the chip's but the host interface.
 */
#include <glib.h>
#include <pthread.h>
#include <stdarg.h>

#include "../r500.h"

/*
 * The soft renderer's workers log too (pipe/soft.c): one lock keeps the
 * counters and the host's log callback to one caller at a time (POSIX,
 * so the thread sanitizer sees it: pipe/soft.c).
 */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void r500_log(R500Chip *s, R500LogKind kind, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&log_lock);
    if (kind == R500_LOG_GUEST_ERROR) {
        s->guest_errors++;
    } else if (kind == R500_LOG_UNIMP) {
        s->unimp_events++;
    }
    if (s->ops->log) {
        s->ops->log(s->host, kind, msg);
    }
    pthread_mutex_unlock(&log_lock);
    g_free(msg);
}

const char *r500_setting(R500Chip *s, const char *name)
{
    const char *v = s->ops->setting ? s->ops->setting(s->host, name) : NULL;

    return v && *v ? v : NULL;
}

unsigned r500_setting_uint(R500Chip *s, const char *name, unsigned dflt)
{
    const char *v = r500_setting(s, name);
    char *end;
    guint64 n;

    if (!v) {
        return dflt;
    }
    n = g_ascii_strtoull(v, &end, 10);
    return *end || n > UINT32_MAX ? dflt : (unsigned)n;
}

/*
 * The one report-once mechanism: true the first time bit is set in *flags
 * (atomically: the soft renderer's workers report too).  A block keeps
 * one flags word per kind of report and clears it when a report may come
 * again (at reset, at the next draw).
 */
bool r500_once(uint32_t *flags, uint32_t bit)
{
    return !(g_atomic_int_or(flags, bit) & bit);
}

void r500_set_irq(R500Chip *s, bool level)
{
    if (level != s->irq_level) {
        s->irq_level = level;
        if (s->ops->set_irq) {
            s->ops->set_irq(s->host, level);
        }
    }
}

void r500_kick(R500Chip *s)
{
    if (s->ops->schedule) {
        s->ops->schedule(s->host, 0);
    }
}
