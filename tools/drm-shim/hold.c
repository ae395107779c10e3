/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The renderer's holds in the shim (R500HostOps.vram_hold; docs/3d.md
 * "Write-back when someone looks"), as the QEMU board makes them with
 * MMIO overlays: the CPU here is Mesa, which reaches VRAM through the
 * views of the VRAM memfd that gem_mmap() hands out.  A held span is made
 * PROT_NONE in every such view; Mesa's first access there faults, the
 * handler below releases the span (r500_vram_release(), under the shim's
 * lock: the renderer writes the pixels back and lets the hold go, which
 * gives the views their protection back) and the access is made again.
 * The chip's own view (shim.vram) is never protected.
 *
 * The views are recorded at gem_mmap() and forgotten at munmap() (libc.c),
 * so no page that is not a view is ever protected.  SIGSEGV is the
 * shim's while holds are on: an application's handler is kept and called
 * for faults that are not a hold's (libc.c sigaction()).
 * R500_SHIM_HOLDS=0 turns holds off: every fence writes back.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shim.h"

#define HOLD_SPANS      32

typedef struct HoldView {
    uint8_t *addr;
    uint64_t len;
    uint64_t off;               /* VRAM offset of addr */
    int prot;
} HoldView;

/*
 * The views and spans, under their own lock (munmap() comes from every
 * thread, often: not the shim's lock, which a CS holds for whole draws).
 * Lock order: the shim's, then this one.
 */
static struct {
    GMutex lock;
    bool on;
    GArray *views;              /* HoldView */
    struct {
        uint64_t lo, hi;
    } span[HOLD_SPANS];
    unsigned nspans;
    struct sigaction app;       /* the application's SIGSEGV action */
    uint64_t faults;
} hold;

static uint64_t page_size(void)
{
    static uint64_t ps;

    if (!ps) {
        ps = (uint64_t)sysconf(_SC_PAGESIZE);
    }
    return ps;
}

/* Give view v's pages in VRAM [lo, hi) prot. */
static void view_protect(const HoldView *v, uint64_t lo, uint64_t hi,
                         int prot)
{
    uint64_t ps = page_size();
    uint64_t a = MAX(lo, v->off), b = MIN(hi, v->off + v->len);

    if (a >= b) {
        return;
    }
    a = (a - v->off) & ~(ps - 1);
    b = ((b - v->off) + ps - 1) & ~(ps - 1);
    b = MIN(b, (v->len + ps - 1) & ~(ps - 1));
    mprotect(v->addr + a, b - a, prot);
}

/* Protection of view v's page at VRAM offset off: none where held. */
static void view_restore(const HoldView *v)
{
    mprotect(v->addr, v->len, v->prot);
    for (unsigned i = 0; i < hold.nspans; i++) {
        view_protect(v, hold.span[i].lo, hold.span[i].hi, PROT_NONE);
    }
}

static bool shim_hold(MemHost *h, uint64_t off, uint64_t len, bool held)
{
    g_mutex_lock(&hold.lock);
    if (!hold.on) {
        g_mutex_unlock(&hold.lock);
        return false;
    }
    if (held) {
        if (hold.nspans == HOLD_SPANS) {
            g_mutex_unlock(&hold.lock);
            return false;
        }
        hold.span[hold.nspans].lo = off;
        hold.span[hold.nspans].hi = off + len;
        hold.nspans++;
        for (unsigned i = 0; i < hold.views->len; i++) {
            view_protect(&g_array_index(hold.views, HoldView, i), off, off + len, PROT_NONE);
        }
        g_mutex_unlock(&hold.lock);
        return true;
    }
    for (unsigned i = 0; i < hold.nspans; i++) {
        if (hold.span[i].lo == off && hold.span[i].hi == off + len) {
            hold.span[i] = hold.span[--hold.nspans];
            break;
        }
    }
    /* its pages back, but those another span still holds */
    for (unsigned i = 0; i < hold.views->len; i++) {
        if (off < g_array_index(hold.views, HoldView, i).off + g_array_index(hold.views, HoldView, i).len &&
            g_array_index(hold.views, HoldView, i).off < off + len) {
            view_restore(&g_array_index(hold.views, HoldView, i));
        }
    }
    g_mutex_unlock(&hold.lock);
    return true;
}

/* The fault of an access to a held page: release it, else the app's. */
static void hold_fault(int sig, siginfo_t *si, void *uc)
{
    uint8_t *p = si->si_addr;
    HoldView v = { 0 };

    g_mutex_lock(&hold.lock);
    /* hold.views exists: the handler is installed after it */
    for (unsigned i = 0; i < hold.views->len && !v.addr; i++) {
        if (p >= g_array_index(hold.views, HoldView, i).addr &&
            p < g_array_index(hold.views, HoldView, i).addr + g_array_index(hold.views, HoldView, i).len) {
            v = g_array_index(hold.views, HoldView, i);
        }
    }
    g_mutex_unlock(&hold.lock);
    if (v.addr) {
        g_mutex_lock(&shim.lock);
        hold.faults++;
        r500_vram_release(&shim.chip, v.off + (uint64_t)(p - v.addr), 1);
        g_mutex_unlock(&shim.lock);
        /* whatever the renderer did, this page is Mesa's again */
        mprotect((void *)((uintptr_t)p & ~(page_size() - 1)), page_size(),
                 v.prot);
        return;
    }
    if (hold.app.sa_flags & SA_SIGINFO && hold.app.sa_sigaction) {
        hold.app.sa_sigaction(sig, si, uc);
    } else if (hold.app.sa_handler != SIG_DFL &&
               hold.app.sa_handler != SIG_IGN) {
        hold.app.sa_handler(sig);
    } else {
        /* the default: die of it, as without the shim */
        signal(SIGSEGV, SIG_DFL);
    }
}

void hold_init(void)
{
    struct sigaction sa;
    const char *e = getenv("R500_SHIM_HOLDS");

    if (e && !strcmp(e, "0")) {
        return;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = hold_fault;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    hold.views = g_array_new(false, false, sizeof(HoldView));
    if (shim_real_sigaction(SIGSEGV, &sa, &hold.app)) {
        return;
    }
    hold.on = true;
    shim.kd.host.on_hold = shim_hold;
    shim_log(1, "holds on: Mesa's views of VRAM trap what the renderer "
             "holds");
}

bool hold_sigaction(const struct sigaction *act, struct sigaction *old)
{
    if (!hold.on) {
        return false;
    }
    if (old) {
        *old = hold.app;
    }
    if (act) {
        hold.app = *act;
    }
    return true;
}

void hold_view_add(void *addr, uint64_t len, uint64_t off, int prot)
{
    HoldView *v;

    if (addr == MAP_FAILED) {
        return;
    }
    g_mutex_lock(&hold.lock);
    if (hold.on) {
        g_array_set_size(hold.views, hold.views->len + 1);
        v = &g_array_index(hold.views, HoldView, hold.views->len - 1);
        v->addr = addr;
        v->len = len;
        v->off = off;
        v->prot = prot;
        view_restore(v);
    }
    g_mutex_unlock(&hold.lock);
}

void hold_view_remove(void *addr, uint64_t len)
{
    uint8_t *a = addr;

    if (!hold.views) {
        return;
    }
    g_mutex_lock(&hold.lock);
    for (unsigned i = 0; i < hold.views->len;) {
        HoldView *v = &g_array_index(hold.views, HoldView, i);

        if (v->addr < a + len && a < v->addr + v->len) {
            g_array_remove_index_fast(hold.views, i);
        } else {
            i++;
        }
    }
    g_mutex_unlock(&hold.lock);
}

uint64_t hold_faults(void)
{
    return hold.faults;
}
