/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * soft: the reference renderer (soft.h), on one thread or on a pool of
 * workers over interleaved screen tiles.
 *
 * What is shared while workers run, and why it is safe:
 *   - the draw's decoded state (R500DrawCtx) and the register file: only
 *     read; nobody writes them until every worker has finished;
 *   - the batch of quads and primitives: written by the caller before it
 *     wakes the workers (under the pool's lock), only read by them;
 *   - VRAM: each pixel of a colour or depth target belongs to one tile,
 *     so one worker writes it; the workers' page caches use VRAM pages in
 *     place.  Pages outside VRAM (GTT, through the GART) are copied into
 *     a cache and written back whole, which would clobber the bytes
 *     another worker wrote, and are read through the host's DMA, which in
 *     QEMU may take the big lock the caller holds: a draw whose colour or
 *     depth target or a texture is not wholly in VRAM is drawn by the
 *     caller alone (draw_in_vram());
 *   - the occlusion counter and every statistic: kept per worker, summed
 *     by the caller after the batch;
 *   - the US instruction budget of the draw: split between the workers
 *     per batch, what is left summed afterwards (only a draw that
 *     exhausts it, a guest error, can differ from one thread);
 *   - reports: once-flags are set atomically (r500_once), r500_log()
 *     takes a lock.
 * Budgets of a split draw: the quads' work reaches the pipe's meter when
 * their batch is shaded, so the rasteriser's stop is decided at batch
 * ends; batches are sized from the budget left and the cost per quad of
 * the previous batch, so a CP slice overshoots by a few quads at most.
 * Batch ends depend only on the stream, so a given thread count always
 * stops at the same points (migration mid-draw replays the same way).
 *
 * The pool uses POSIX threads, mutexes and condition variables rather
 * than glib's (whose GMutex is a bare futex on Linux): the thread
 * sanitizer sees their ordering (meson test --suite tsan).
 */
#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "../r500.h"

/* Quads of one batch at most. */
#define BATCH_MAX_QUADS         4096

typedef struct SoftQuad {
    uint32_t prim;              /* index into the batch's primitives */
    int32_t x, y;
    uint32_t mask;
} SoftQuad;

typedef struct SoftThread {
    R500SoftPool *pool;
    unsigned index;             /* worker index; 0 is the caller */
    pthread_t thread;
    R500Worker w;
    R500Cache cache;
} SoftThread;

struct R500SoftPool {
    unsigned n;                 /* workers, the caller included */
    SoftThread t[R500_SOFT_MAX_THREADS];    /* t[0]: unused (w0) */
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    uint64_t gen;               /* batches handed out */
    uint64_t busy;              /* workers still shading this batch */
    bool quit;
    /*
     * Waiting workers spin on the words above while the caller records
     * the next batch below for every quad: not on one cache line.
     */
    uint8_t pad[R500_CACHE_LINE];
    /* The batch (written by the caller only while no worker runs). */
    R500Prim *prims;
    unsigned nprims, cap_prims;
    uint32_t last_seq;
    SoftQuad *quads;
    unsigned nquads, cap_quads;
    unsigned limit;             /* quads before the batch is shaded */
    uint64_t quad_cost;         /* the program's work per quad, straight */
    const R500RastSink *in;     /* the pipe's meter */
};

static void worker_init(R500Chip *s, R500Worker *w)
{
    w->s = s;
    w->ctx = &s->pipe.ctx;
    memset(&w->st, 0, sizeof(w->st));
}

/* ---- The pool ---- */

/* The quads of worker k's tiles, in the batch's order. */
static void tiles_run(R500SoftPool *p, R500Worker *w, unsigned k)
{
    for (unsigned i = 0; i < p->nquads; i++) {
        const SoftQuad *q = &p->quads[i];

        if (((uint32_t)q->x / R500_SOFT_TILE_W +
             (uint32_t)q->y / R500_SOFT_TILE_H) % p->n == k) {
            r500_rast_quad(w, &p->prims[q->prim], q->x, q->y, q->mask);
        }
    }
}

/*
 * A batch is short (a CP slice is about a millisecond): waiting for one
 * by sleeping costs a wake-up through the host's scheduler each time,
 * tens of microseconds on an idle core, which was most of what a second
 * thread gained.  Both sides first spin a little on the word that ends
 * their wait (written atomically under the lock), then sleep as before.
 */
#define SPIN_TRIES      4000

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Spin until *word == v is want (or *quit), a bounded number of tries. */
static void spin_for(const uint64_t *word, uint64_t v, bool want,
                     const bool *quit)
{
    for (int i = 0; i < SPIN_TRIES; i++) {
        if ((__atomic_load_n(word, __ATOMIC_ACQUIRE) == v) == want ||
            (quit && __atomic_load_n(quit, __ATOMIC_ACQUIRE))) {
            return;
        }
        spin_pause();
    }
}

static void *soft_thread(void *opaque)
{
    SoftThread *t = opaque;
    R500SoftPool *p = t->pool;
    uint64_t seen = 0;

    for (;;) {
        spin_for(&p->gen, seen, false, &p->quit);
        pthread_mutex_lock(&p->lock);
        while (p->gen == seen && !p->quit) {
            pthread_cond_wait(&p->go, &p->lock);
        }
        if (p->quit) {
            break;
        }
        seen = p->gen;
        pthread_mutex_unlock(&p->lock);
        tiles_run(p, &t->w, t->index);
        pthread_mutex_lock(&p->lock);
        if (__atomic_sub_fetch(&p->busy, 1, __ATOMIC_RELEASE) == 0) {
            pthread_cond_signal(&p->done);
        }
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void pool_free(R500Chip *s)
{
    R500SoftPool *p = s->soft.pool;

    if (!p) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->quit, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (unsigned k = 1; k < p->n; k++) {
        pthread_join(p->t[k].thread, NULL);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    g_free(p->prims);
    g_free(p->quads);
    g_free(p);
    s->soft.pool = NULL;
}

static R500SoftPool *pool_get(R500Chip *s)
{
    R500SoftPool *p = s->soft.pool;

    if (p || s->soft.threads <= 1) {
        return p;
    }
    p = g_new0(R500SoftPool, 1);
    p->n = s->soft.threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (unsigned k = 1; k < p->n; k++) {
        SoftThread *t = &p->t[k];

        t->pool = p;
        t->index = k;
        t->w.cache = &t->cache;
        t->cache.dirty_lo = UINT64_MAX;
        worker_init(s, &t->w);
        if (pthread_create(&t->thread, NULL, soft_thread, t)) {
            /* no thread: draw with the ones made so far */
            p->n = k;
            break;
        }
    }
    s->soft.pool = p;
    return p;
}

void r500_soft_set_threads(R500Chip *s, unsigned n)
{
    n = MAX(1u, MIN(n, (unsigned)R500_SOFT_MAX_THREADS));
    if (n != s->soft.threads) {
        pool_free(s);
        s->soft.threads = n;
    }
}


/* Shade the batch on every worker; the caller is worker 0. */
static void batch_run(R500Chip *s, R500SoftPool *p)
{
    uint64_t budget = s->pipe.w0.us_budget, share = budget / p->n;

    if (!p->nquads) {
        return;
    }
    s->soft.batches++;
    /* the US budget, split (the caller keeps the remainder) */
    for (unsigned k = 1; k < p->n; k++) {
        p->t[k].w.us_budget = share;
    }
    s->pipe.w0.us_budget = budget - share * (p->n - 1);
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->busy, p->n - 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);

    tiles_run(p, &s->pipe.w0, 0);

    spin_for(&p->busy, 0, true, NULL);
    pthread_mutex_lock(&p->lock);
    while (p->busy) {
        pthread_cond_wait(&p->done, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    for (unsigned k = 1; k < p->n; k++) {
        s->pipe.w0.us_budget += p->t[k].w.us_budget;
    }
    p->nquads = 0;
    p->nprims = 0;
}

static uint64_t soft_work(R500Chip *s)
{
    const R500Soft *so = &s->soft;
    uint64_t us = s->pipe.w0.st.us_insts, tex = s->pipe.w0.st.tx_samples;

    if (so->batching) {
        for (unsigned k = 1; k < so->pool->n; k++) {
            us += so->pool->t[k].w.st.us_insts;
            tex += so->pool->t[k].w.st.tx_samples;
        }
    }
    return us * R500_3D_WORK_US + tex * R500_3D_WORK_TEX +
           s->pipe.w0.st.fill_work;
}

/*
 * Quads the next batch may take: all it can hold without a limit.  With
 * one, a draw's first call starts with a batch of one quad (of what the
 * budget pays for at the program's straight cost when it has no flow
 * control), a call that resumes it with what the budget pays for at the
 * cost per quad last measured; each batch at most doubles the one
 * before, never past what the rest of the call's budget pays for at the
 * cost per quad of the batch before: a quad of an endless shader costs
 * a slice, so such a call still stops after one quad.  Every input is
 * the stream's, so the batches (and the stops) are deterministic.
 */
static unsigned batch_limit(R500Chip *s, R500SoftPool *p, uint64_t cost)
{
    const R500Rast *r = &s->rast;
    uint64_t work, left, q;

    if (!r->work_limit) {
        return BATCH_MAX_QUADS;
    }
    work = p->in->work(p->in->opaque);
    left = work < r->work_limit ? r->work_limit - work : 0;
    q = left / MAX(MAX(cost, p->quad_cost), 1);
    return MAX(MIN(MIN(q, 2ull * p->limit), BATCH_MAX_QUADS), 1);
}

/* A quad's work when its program runs straight through once. */
static uint64_t quad_cost(const R500UsProg *prog)
{
    uint64_t cost = R500_3D_WORK_QUAD;

    for (uint32_t i = prog->start; prog->valid && i <= prog->end; i++) {
        cost += R500_3D_WORK_US +
                (prog->inst[i - prog->start].type == R500_US_TEX
                 ? R500_3D_WORK_TEX : 0);
    }
    return cost;
}

static void record_quad(void *opaque, const R500Prim *prim, int x, int y,
                        unsigned mask)
{
    R500Chip *s = opaque;
    R500SoftPool *p = s->soft.pool;

    if (!p->nprims || prim->seq != p->last_seq) {
        if (p->nprims == p->cap_prims) {
            p->cap_prims = MAX(16, 2 * p->cap_prims);
            p->prims = g_renew(R500Prim, p->prims, p->cap_prims);
        }
        p->prims[p->nprims++] = *prim;
        p->last_seq = prim->seq;
    }
    if (p->nquads == p->cap_quads) {
        p->cap_quads = MAX(256, 2 * p->cap_quads);
        p->quads = g_renew(SoftQuad, p->quads, p->cap_quads);
    }
    p->quads[p->nquads++] = (SoftQuad) { p->nprims - 1, x, y, mask };
    if (p->nquads >= p->limit) {
        uint64_t before = soft_work(s), n = p->nquads;

        batch_run(s, p);
        /* work per quad of this batch: shading plus the rast's own */
        s->soft.cost = (soft_work(s) - before) / n + R500_3D_WORK_QUAD;
        p->limit = batch_limit(s, p, s->soft.cost);
    }
}

/* This call goes on with a draw an earlier call stopped (pipe.c). */
static bool resumed(const R500Rast *r)
{
    return r->skip.prims || r->skip.sub || r->skip.y != INT32_MIN;
}

static void direct_quad(void *opaque, const R500Prim *prim, int x, int y,
                        unsigned mask)
{
    R500Chip *s = opaque;

    r500_rast_quad(&s->pipe.w0, prim, x, y, mask);
}

static bool soft_rect(void *opaque, const R500Prim *prim, int x0, int y0,
                      int x1, int y1, uint64_t quads)
{
    R500Chip *s = opaque;
    R500Soft *so = &s->soft;
    R500Worker *w = &s->pipe.w0;
    const R500Rast *r = &s->rast;
    uint64_t pixels = (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
    uint64_t bytes = 0, cost;
    R500RbFill f;

    if (so->no_fill || !r500_rast_rect_uniform(w->ctx, prim) ||
        !s->us.prog.straight ||
        !r500_rb3d_fill_begin(w, prim, x0, y0, x1, y1, &f)) {
        return false;
    }
    for (int k = 0; k < R500_FILL_TARGETS; k++) {
        bytes += f.mem[k] ? f.hi[k] - f.lo[k] : 0;
    }
    cost = R500_3D_WORK_QUAD + bytes / R500_3D_FILL_BYTES;
    /*
     * A fill does not stop half way: once the call's work is spent, or
     * when one fill would be more than a few calls' work, the quads go
     * one by one and the draw splits between them as ever.
     */
    if (r->work_limit &&
        (r->sink->work(r->sink->opaque) >= r->work_limit ||
         cost > R500_3D_FILL_SLICES * r->work_limit)) {
        return false;
    }
    if (so->batching) {
        /* the quads recorded so far are drawn first */
        batch_run(s, so->pool);
    }
    if (!r500_rast_fill_shade(w, prim, x0, y0)) {
        /* the US budget ran out on this quad: nothing is written */
        return true;
    }
    r500_rb3d_fill(w, &f, x0, y0, y1);
    w->st.rb_pixels += pixels;
    w->st.zpass += pixels;      /* every pixel passes (occlusion queries) */
    w->st.fill_work += cost;
    so->fills++;
    return true;
}

/* Whether the surface's pixels inside the scissor are all in VRAM. */
static bool surf_in_vram(R500Chip *s, const R500Surf *sf, const R500Rast *r)
{
    uint32_t tw = sf->macro ? sf->Mtw : sf->tiled ? sf->mtw : 1;
    uint32_t th = sf->macro ? sf->Mth : sf->tiled ? sf->mth : 1;
    uint64_t off, end;

    if (r->sc_x1 < 0 || r->sc_y1 < 0) {
        return true;
    }
    /* the last byte of the tile holding the scissor's far corner */
    end = r500_surf_offset(sf, (uint32_t)r->sc_x1 | (tw - 1),
                           (uint32_t)r->sc_y1 | (th - 1)) + sf->bpp;
    return r500_mc_vram_span(s, sf->base, end, &off);
}

/*
 * Whether the workers can draw this draw: every colour and depth target
 * and every texture wholly in VRAM.  Staged pages of other memory would
 * be written back whole over another worker's bytes; and a worker must
 * not reach the host's DMA, which in QEMU may take the big lock the
 * caller holds while it waits for the workers.
 */
static bool draw_in_vram(R500Chip *s)
{
    const R500Rb3d *rb = &s->rb3d;
    uint64_t off;

    for (int i = 0; i < 4; i++) {
        if (rb->cb[i].enabled && !surf_in_vram(s, &rb->cb[i].surf, &s->rast)) {
            return false;
        }
    }
    if (rb->zb.enabled && !surf_in_vram(s, &rb->zb.surf, &s->rast)) {
        return false;
    }
    for (unsigned i = 0; i < R500_TX_UNITS; i++) {
        const R500TxUnit *t = &s->tx.unit[i];

        if (t->valid && t->chain_end > t->level[0].surf.base &&
            !r500_mc_vram_span(s, t->level[0].surf.base,
                               t->chain_end - t->level[0].surf.base, &off)) {
            return false;
        }
    }
    return true;
}

static bool soft_draw(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    R500Soft *so = &s->soft;
    R500SoftPool *p = pool_get(s);
    R500RastSink sink = *in;
    const R500Worker *w;

    so->batching = p && draw_in_vram(s);
    sink.quad = direct_quad;
    sink.quad_opaque = s;
    sink.rect = soft_rect;
    if (so->batching) {
        so->threaded_draws++;
        for (unsigned k = 1; k < p->n; k++) {
            worker_init(s, &p->t[k].w);
        }
        p->nquads = p->nprims = 0;
        p->in = in;
        p->quad_cost = quad_cost(&s->us.prog);
        p->limit = BATCH_MAX_QUADS;
        if (!resumed(&s->rast)) {
            so->cost = 0;
        }
        if (s->rast.work_limit) {
            /*
             * Without flow control a quad costs at most its program's
             * straight run (quad_cost): the first batch can be what the
             * budget pays for at that cost.  A program with loops starts
             * at one quad.
             */
            p->limit = so->cost ? batch_limit(s, p, so->cost)
                       : !s->us.prog.uses_fc ? batch_limit(s, p, p->quad_cost)
                       : 1;
        }
        sink.quad = record_quad;
    }
    r500_rast_draw(s, num, &sink);
    if (so->batching) {
        batch_run(s, p);
    }

    /* write back and report the memory touched; sum the counters */
    r500_rb3d_finish(s);
    for (unsigned k = 0; k < (so->batching ? p->n : 1); k++) {
        w = k ? &p->t[k].w : &s->pipe.w0;
        if (k) {
            r500_cache_flush(s, w->cache);
        }
        s->us.quads += w->st.us_quads;
        s->us.insts += w->st.us_insts;
        s->tx.samples += w->st.tx_samples;
        s->rb3d.pixels += w->st.rb_pixels;
        s->rb3d.zfail += w->st.zfail;
        s->rb3d.zpass += w->st.zpass;
    }
    s->us.budget = s->pipe.w0.us_budget;
    return true;
}

/* Every draw is finished when soft_draw() returns: nothing to drain. */
static void soft_sync(R500Chip *s, R500Sync why)
{
}

static void soft_reset(R500Chip *s)
{
    s->soft.batching = false;
}

/* Its threads go; made again on its next draw. */
static void soft_close(R500Chip *s)
{
    pool_free(s);
}

/*
 * Its counters: threads wanted, draw calls its workers shaded, their
 * batches, rectangles stored as one colour.
 */
static void soft_stats(R500Chip *s, R500StatFn fn, void *opaque)
{
    fn(opaque, "render-threads", s->soft.threads);
    fn(opaque, "render-threaded-draws", s->soft.threaded_draws);
    fn(opaque, "render-batches", s->soft.batches);
    fn(opaque, "render-fills", s->soft.fills);
}

const R500RendererOps r500_soft_renderer = {
    .name = "soft",
    .draw = soft_draw,
    .work = soft_work,
    .sync = soft_sync,
    .reset = soft_reset,
    .close = soft_close,
    .stats = soft_stats,
};
