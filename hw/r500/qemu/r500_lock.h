/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip's lock (docs/architecture.md, "The card's own thread").
 *
 * The chip core is single-threaded: whoever touches R500Chip holds this
 * lock.  The card's thread holds it for a slice of work (about a
 * millisecond of CP budget); everybody else (the vCPUs' MMIO accesses,
 * the display refresh, reset, migration, QOM reads) holds it briefly,
 * under the big QEMU lock.  Lock order: the big lock, then this one; the
 * card's thread never takes the big lock, so nothing waits in a circle.
 *
 * A plain mutex is not fair: the card's thread would release it between
 * slices and take it again before a waiting vCPU woke up.  So a short
 * holder counts itself as waiting, and the card's thread, between
 * slices, hands the lock over (r500_lock_yield) while anyone waits.
 */
#ifndef HW_R500_QEMU_R500_LOCK_H
#define HW_R500_QEMU_R500_LOCK_H

#include "qemu/atomic.h"
#include "qemu/thread.h"

typedef struct R500Lock {
    QemuMutex mutex;
    QemuCond turn;              /* a short holder left: the card goes on */
    int waiters;                /* short holders waiting for the mutex */
} R500Lock;

static inline void r500_lock_init(R500Lock *l)
{
    qemu_mutex_init(&l->mutex);
    qemu_cond_init(&l->turn);
    l->waiters = 0;
}

static inline void r500_lock_destroy(R500Lock *l)
{
    qemu_cond_destroy(&l->turn);
    qemu_mutex_destroy(&l->mutex);
}

static inline void r500_lock(R500Lock *l)
{
    qatomic_inc(&l->waiters);
    qemu_mutex_lock(&l->mutex);
    qatomic_dec(&l->waiters);
}

static inline void r500_unlock(R500Lock *l)
{
    qemu_cond_broadcast(&l->turn);
    qemu_mutex_unlock(&l->mutex);
}

/*
 * The card's thread, holding the lock between two slices: let the short
 * holders that wait now in, once each round (so a guest polling a
 * register in a tight loop cannot starve the card either).
 */
static inline void r500_lock_yield(R500Lock *l)
{
    if (qatomic_read(&l->waiters) > 0) {
        qemu_cond_wait(&l->turn, &l->mutex);
    }
}

#endif
