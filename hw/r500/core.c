/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R500 core: register file, byte-lane MMIO, the indirect spaces (MM, PLL,
 * MC, PCIE), reset values, RBBM status and the block dispatcher.
 *
 * Reference: ../shared/reference/radeon-kms-r500.md section 2.
 */
#include <glib.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>

#include "r500.h"
#include "blocks.h"

/* ---- Blocks and register hooks ---- */

/* Per MMIO dword: the hook covering it, or NULL.  Built once. */
static const R500RegHook **hook_table;

static gpointer build_hook_table(gpointer unused)
{
    const R500RegHook **t = g_new0(const R500RegHook *, R500_NUM_REGS);

    for (unsigned b = 0; b < r500_num_blocks; b++) {
        const R500RegHook *h = r500_blocks[b]->hooks;
        for (; h && (h->read || h->write); h++) {
            g_assert(h->first <= h->last && h->last < R500_MMIO_SIZE);
            g_assert(((h->first | h->last) & 3) == 0);
            for (uint32_t r = h->first; r <= h->last; r += 4) {
                /* Two blocks claiming one register is a bug. */
                g_assert(t[r / 4] == NULL);
                t[r / 4] = h;
            }
        }
    }
    return t;
}

static const R500RegHook *hook_for(uint32_t reg)
{
    static GOnce once = G_ONCE_INIT;

    if (!hook_table) {
        hook_table = g_once(&once, build_hook_table, NULL);
    }
    return hook_table[reg / 4];
}

/* ---- Logging ---- */

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
    } else {
        s->unimp_events++;
    }
    if (s->ops->log) {
        s->ops->log(s->host, kind, msg);
    }
    pthread_mutex_unlock(&log_lock);
    g_free(msg);
}

void r500_chip_stats(R500Chip *s, R500StatFn fn, void *opaque)
{
    const R500CPStats *cp = &s->cp.stats;
    const R500DrawStats *d = &s->cp.draw_stats;
    uint64_t type3 = 0;

    for (unsigned i = 0; i < G_N_ELEMENTS(cp->type3); i++) {
        type3 += cp->type3[i];
    }
    fn(opaque, "cp-type0-packets", cp->type0);
    fn(opaque, "cp-type0-writes", cp->type0_regs);
    fn(opaque, "cp-type1-packets", cp->type1);
    fn(opaque, "cp-type2-packets", cp->type2);
    fn(opaque, "cp-type3-packets", type3);
    fn(opaque, "cp-ibs", cp->ibs);
    fn(opaque, "cp-dwords", cp->dwords);
    fn(opaque, "cp-slices", cp->slices);
    fn(opaque, "cp-2d-waits", cp->waits);
    fn(opaque, "cp-errors", cp->errors);
    fn(opaque, "draws", d->draws);
    fn(opaque, "draw-vertices", d->vertices);
    fn(opaque, "clears", d->clears);
    fn(opaque, "guest-errors", s->guest_errors);
    fn(opaque, "unimplemented-events", s->unimp_events);
    fn(opaque, "render-threads", s->soft.threads);
    fn(opaque, "render-threaded-draws", s->soft.threaded_draws);
    fn(opaque, "render-batches", s->soft.batches);
    fn(opaque, "render-fills", s->soft.fills);
    {
        uint64_t gl, gl_soft, passes, as_is;

        /* the host-GL renderer's draws and those it left to soft */
        r500_gl_stats(s, &gl, &gl_soft);
        fn(opaque, "render-gl-draws", gl);
        fn(opaque, "render-gl-fallbacks", gl_soft);
        /* its surfaces kept on the host across a sync */
        fn(opaque, "render-gl-kept", r500_gl_kept(s));
        /* the surface bytes it read from memory to draw on */
        fn(opaque, "render-gl-uploaded", r500_gl_uploaded(s));
        /* its draws whose vertices the host shaded */
        fn(opaque, "render-gl-vertex-draws", r500_gl_vertex_draws(s));
        /* textures it made from surfaces it held, not memory */
        fn(opaque, "render-gl-slot-textures",
           r500_gl_slot_textures(s, &passes, &as_is));
        /* the conversions those took (fewer: kept while unchanged) */
        fn(opaque, "render-gl-slot-texture-passes", passes);
        /* the draws that sampled the held surface itself */
        fn(opaque, "render-gl-slot-textures-as-is", as_is);
    }
    {
        uint64_t held, released;

        /* what it kept on the host past a fence, and the looks at it */
        r500_gl_holds(s, &held, &released);
        fn(opaque, "render-gl-held", held);
        fn(opaque, "render-gl-released", released);
    }
}

/* Unknown registers are stored like any other, and reported once each. */
static void note_unknown(R500Chip *s, uint32_t reg, bool write, uint32_t val)
{
    uint32_t bit = 1u << ((reg / 4) % 32);
    uint32_t *word = &s->unimp_logged[reg / 4 / 32];

    if (r500_reg_known(reg) || (*word & bit)) {
        return;
    }
    *word |= bit;
    if (write) {
        r500_unimp(s, "unknown register 0x%04x written with 0x%08x "
                   "(stored; reported once)", reg, val);
    } else {
        r500_unimp(s, "unknown register 0x%04x read (stored value 0x%08x; "
                   "reported once)", reg, s->regs[reg / 4]);
    }
}

/* ---- The register path ---- */

uint32_t r500_reg_read(R500Chip *s, uint32_t reg)
{
    const R500RegHook *h;

    if (reg >= R500_MMIO_SIZE || (reg & 3)) {
        r500_guest_error(s, "register read at 0x%x outside the register file",
                         reg);
        return 0;
    }
    h = hook_for(reg);
    if (h && h->read) {
        return h->read(s, reg);
    }
    if (!h) {
        note_unknown(s, reg, false, 0);
    }
    return s->regs[reg / 4];
}

void r500_reg_write_mask(R500Chip *s, uint32_t reg, uint32_t val,
                         uint32_t mask)
{
    const R500RegHook *h;
    uint32_t old;

    if (reg >= R500_MMIO_SIZE || (reg & 3)) {
        r500_guest_error(s, "register write of 0x%08x at 0x%x outside the "
                         "register file", val, reg);
        return;
    }
    old = s->regs[reg / 4];
    s->regs[reg / 4] = (old & ~mask) | (val & mask);
    h = hook_for(reg);
    if (h && h->write) {
        h->write(s, reg, old, mask);
    } else if (!h) {
        note_unknown(s, reg, true, s->regs[reg / 4]);
    }
}

/*
 * The bytes of an access of 1..8 bytes at addr that lie in the register
 * file: an access that runs past its end (QEMU delivers an 8-byte access
 * at the last dword whole) does its part inside, as the bus would split
 * it; one wholly outside does nothing.  0: nothing to do.
 */
static unsigned mmio_bytes(R500Chip *s, uint64_t addr, unsigned size,
                           bool write)
{
    if (size < 1 || size > 8 || addr >= R500_MMIO_SIZE) {
        r500_guest_error(s, "MMIO %s of %u bytes at 0x%" G_GINT64_MODIFIER
                         "x outside the register file",
                         write ? "write" : "read", size, addr);
        return 0;
    }
    if (size > R500_MMIO_SIZE - addr) {
        r500_guest_error(s, "MMIO %s of %u bytes at 0x%" G_GINT64_MODIFIER
                         "x runs past the register file; the bytes past "
                         "it are %s", write ? "write" : "read", size, addr,
                         write ? "dropped" : "read as 0");
        return R500_MMIO_SIZE - addr;
    }
    return size;
}

/* Split an access of 1..8 bytes at any alignment into dword lanes. */
uint64_t r500_mmio_read(R500Chip *s, uint64_t addr, unsigned size)
{
    uint64_t result = 0;
    unsigned done = 0;

    size = mmio_bytes(s, addr, size, false);
    while (done < size) {
        uint32_t reg = (addr + done) & ~3u;
        unsigned lane = (addr + done) & 3;
        unsigned n = MIN(size - done, 4 - lane);
        uint32_t v = r500_reg_read(s, reg) >> (lane * 8);
        uint64_t part = n == 4 ? v : v & ((1u << (n * 8)) - 1);

        result |= part << (done * 8);
        done += n;
    }
    return result;
}

void r500_mmio_write(R500Chip *s, uint64_t addr, uint64_t val, unsigned size)
{
    unsigned done = 0;

    size = mmio_bytes(s, addr, size, true);
    while (done < size) {
        uint32_t reg = (addr + done) & ~3u;
        unsigned lane = (addr + done) & 3;
        unsigned n = MIN(size - done, 4 - lane);
        uint32_t bytes = n == 4 ? 0xFFFFFFFFu : (1u << (n * 8)) - 1;
        uint32_t part = (uint32_t)(val >> (done * 8)) & bytes;

        r500_reg_write_mask(s, reg, part << (lane * 8), bytes << (lane * 8));
        done += n;
    }
}

/* ---- MM_INDEX / MM_DATA: registers, or VRAM when APER is set ---- */

static bool mm_target(R500Chip *s, bool *vram, uint32_t *off)
{
    uint32_t idx = s->regs[R_MM_INDEX / 4];

    *vram = R500_FGET(idx, MM_INDEX, APER);
    *off = R500_FGET(idx, MM_INDEX, ADDR) & ~3u;
    if (*vram) {
        if ((uint64_t)*off + 4 > s->vram_size) {
            r500_guest_error(s, "MM_DATA: VRAM offset 0x%x beyond %" G_GUINT64_FORMAT
                             " bytes of VRAM", *off, s->vram_size);
            return false;
        }
        return true;
    }
    /* Registers only; MM_INDEX/MM_DATA themselves would recurse. */
    if (*off >= R500_MMIO_SIZE || *off == R_MM_INDEX || *off == R_MM_DATA) {
        r500_guest_error(s, "MM_DATA: MM_INDEX 0x%x addresses no register", idx);
        return false;
    }
    return true;
}

static uint32_t mm_data_read(R500Chip *s, uint32_t reg)
{
    bool vram;
    uint32_t off;

    if (!mm_target(s, &vram, &off)) {
        return 0;
    }
    if (vram) {
        /* The CPU's view, as through BAR0 (surface windows apply). */
        return r500_hdp_read(s, off, 4);
    }
    return r500_reg_read(s, off);
}

static void mm_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    uint32_t val = s->regs[reg / 4];
    bool vram;
    uint32_t off;

    if (!mm_target(s, &vram, &off)) {
        return;
    }
    if (vram) {
        if (mask == 0xFFFFFFFFu) {
            r500_hdp_write(s, off, val, 4);
            return;
        }
        for (unsigned i = 0; i < 4; i++) {
            if (mask & (0xFFu << (i * 8))) {
                r500_hdp_write(s, off + i, (val >> (i * 8)) & 0xFF, 1);
            }
        }
        return;
    }
    r500_reg_write_mask(s, off, val, mask);
}

/* ---- Indirect spaces ---- */

static void ind_notify(R500Chip *s, R500Space space, uint32_t index,
                       uint32_t old)
{
    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->ind_write) {
            r500_blocks[b]->ind_write(s, space, index, old);
        }
    }
}

uint32_t r500_pll_read(R500Chip *s, uint32_t index)
{
    return s->pll[index % R500_PLL_NUM];
}

void r500_pll_write(R500Chip *s, uint32_t index, uint32_t val)
{
    uint32_t *p = &s->pll[index % R500_PLL_NUM];
    uint32_t old = *p;

    *p = val;
    ind_notify(s, R500_SPACE_PLL, index % R500_PLL_NUM, old);
}

uint32_t *r500_mc_reg(R500Chip *s, R500McReg reg)
{
    int idx = r500_mc_index(s->info->mc_map, reg);

    g_assert(idx >= 0 && idx < R500_MC_NUM);
    return &s->mc[idx];
}

static bool mc_index_ok(R500Chip *s, uint32_t index)
{
    if (index >= R500_MC_NUM) {
        r500_guest_error(s, "MC register 0x%x does not exist", index);
        return false;
    }
    return true;
}

uint32_t r500_mc_read(R500Chip *s, uint32_t index)
{
    if (!mc_index_ok(s, index)) {
        return 0;
    }
    /*
     * The MC is always idle: requests complete synchronously.  RV515
     * reports idle in MC_STATUS bit 4, the R520 family in bit 1
     * (rv515_mc_wait_for_idle, r520_mc_wait_for_idle).
     */
    if ((int)index == r500_mc_index(s->info->mc_map, MC_MC_STATUS)) {
        uint32_t idle = s->info->mc_map == R500_MC_MAP_RV515 ? 1u << 4 : 1u << 1;
        return s->mc[index] | idle;
    }
    return s->mc[index];
}

void r500_mc_write(R500Chip *s, uint32_t index, uint32_t val)
{
    uint32_t old;

    if (!mc_index_ok(s, index)) {
        return;
    }
    old = s->mc[index];
    s->mc[index] = val;
    ind_notify(s, R500_SPACE_MC, index, old);
}

uint32_t r500_pcie_read(R500Chip *s, uint32_t index)
{
    return s->pcie[index % R500_PCIE_NUM];
}

void r500_pcie_write(R500Chip *s, uint32_t index, uint32_t val)
{
    uint32_t *p = &s->pcie[index % R500_PCIE_NUM];
    uint32_t old = *p;

    *p = val;
    ind_notify(s, R500_SPACE_PCIE, index % R500_PCIE_NUM, old);
}

static uint32_t clock_cntl_data_read(R500Chip *s, uint32_t reg)
{
    return r500_pll_read(s, R500_FGET(s->regs[R_CLOCK_CNTL_INDEX / 4],
                                      CLOCK_CNTL_INDEX, PLL_ADDR));
}

static void clock_cntl_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                                  uint32_t mask)
{
    uint32_t idx = s->regs[R_CLOCK_CNTL_INDEX / 4];

    /* r100_pll_wreg sets PLL_WR_EN with the index; without it, no write. */
    if (!R500_FGET(idx, CLOCK_CNTL_INDEX, PLL_WR_EN)) {
        r500_guest_error(s, "CLOCK_CNTL_DATA written without PLL_WR_EN "
                         "(index 0x%x); ignored", idx);
        return;
    }
    r500_pll_write(s, R500_FGET(idx, CLOCK_CNTL_INDEX, PLL_ADDR),
                   (r500_pll_read(s, R500_FGET(idx, CLOCK_CNTL_INDEX, PLL_ADDR))
                    & ~mask) | (s->regs[reg / 4] & mask));
}

static uint32_t mc_ind_data_read(R500Chip *s, uint32_t reg)
{
    return r500_mc_read(s, R500_FGET(s->regs[R_MC_IND_INDEX / 4],
                                     MC_IND_INDEX, ADDR));
}

static void mc_ind_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    uint32_t idx = s->regs[R_MC_IND_INDEX / 4];
    uint32_t addr = R500_FGET(idx, MC_IND_INDEX, ADDR);

    /* rv515_mc_wreg: index | 0xFF0000, bit 23 enables the write. */
    if (!R500_FGET(idx, MC_IND_INDEX, WR_EN)) {
        r500_guest_error(s, "MC_IND_DATA written without MC_IND_WR_EN "
                         "(index 0x%x); ignored", idx);
        return;
    }
    if (mc_index_ok(s, addr)) {
        r500_mc_write(s, addr, (s->mc[addr] & ~mask) | (s->regs[reg / 4] & mask));
    }
}

static uint32_t pcie_data_read(R500Chip *s, uint32_t reg)
{
    return r500_pcie_read(s, R500_FGET(s->regs[R_PCIE_INDEX / 4],
                                       PCIE_INDEX, ADDR));
}

static void pcie_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    uint32_t addr = R500_FGET(s->regs[R_PCIE_INDEX / 4], PCIE_INDEX, ADDR);

    r500_pcie_write(s, addr, (r500_pcie_read(s, addr) & ~mask) |
                             (s->regs[reg / 4] & mask));
}

/* ---- Status ---- */

/* The RBBM_STATUS busy bits of the blocks that have work (reference 2.3). */
static uint32_t blocks_busy(R500Chip *s)
{
    uint32_t v = 0;

    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->busy) {
            v |= r500_blocks[b]->busy(s);
        }
    }
    return v;
}

static uint32_t rbbm_status_read(R500Chip *s, uint32_t reg)
{
    /*
     * Free command FIFO entries (64 when empty; only 2D entries queue:
     * rb2d.h) and the busy bits of the blocks.
     */
    uint32_t v = r500_rb2d_fifo_avail(s) | blocks_busy(s);

    if (v & ~0x7Fu) {
        v |= R500_FMASK(RBBM_STATUS, GUI_ACTIVE);
    } else {
        /*
         * Idle: the guest may read what was drawn now.  A read of the
         * status comes from a CPU, where the host sets its traps at once
         * (R500HostOps.vram_holds_ready).
         */
        r500_pipe_sync_ready(s, R500_SYNC_IDLE);
    }
    return v;
}

static void read_only_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    s->regs[reg / 4] = old;
}

static const R500RegHook core_hooks[] = {
    { R_MM_DATA, R_MM_DATA, mm_data_read, mm_data_write },
    { R_CLOCK_CNTL_DATA, R_CLOCK_CNTL_DATA, clock_cntl_data_read,
      clock_cntl_data_write },
    { R_MC_IND_DATA, R_MC_IND_DATA, mc_ind_data_read, mc_ind_data_write },
    { R_PCIE_DATA, R_PCIE_DATA, pcie_data_read, pcie_data_write },
    { R_RBBM_STATUS, R_RBBM_STATUS, rbbm_status_read, read_only_write },
    { 0 }
};

/*
 * Reset values (reference 2.7): the card comes up posted (CONFIG_MEMSIZE
 * non-zero, so the driver does not run ASIC_Init at boot), CRTCs off,
 * VRAM at MC address 0, one quad pipe per GB_PIPE_SELECT of the model,
 * and a x16 PCIe link that never reads as all ones.
 */
static void core_reset(R500Chip *s)
{
    const R500ModelInfo *m = s->info;
    uint64_t top = s->vram_size - 1;

    s->regs[R_CONFIG_MEMSIZE / 4] = s->vram_size;
    s->regs[R_CONFIG_APER_SIZE / 4] = s->vram_size;
    s->regs[R_GB_PIPE_SELECT / 4] =
        R500_FSET(0, GB_PIPE_SELECT, NUM_PIPES_M1, m->quad_pipes - 1);
    if (m->z_pipes == 2) {
        s->regs[R_RV530_GB_PIPE_SELECT2 / 4] = 3;
    }
    *r500_mc_reg(s, MC_MC_FB_LOCATION) = (uint32_t)((top >> 16) << 16);
    *r500_mc_reg(s, MC_MC_AGP_LOCATION) = 0xFFFFFFFFu;
    *r500_mc_reg(s, MC_MC_CNTL) = m->mc_map == R500_MC_MAP_RV515
        ? m->mem_width_code : (uint32_t)m->mem_width_code << 24;
    /* Requested and read-back width x16 (codes in 2:0 and 6:4). */
    s->pcie[PCIE_PCIE_LC_LINK_WIDTH_CNTL] = 0x66;
}

const R500Block r500_core_block = {
    .name = "core",
    .hooks = core_hooks,
    .reset = core_reset,
};

/* ---- Chip lifetime ---- */

bool r500_chip_init(R500Chip *s, R500Model model, uint8_t *vram,
                    uint64_t vram_size, const R500HostOps *ops, void *host,
                    char **err)
{
    if (model >= R500_MODEL__COUNT) {
        *err = g_strdup_printf("unknown model %d", model);
        return false;
    }
    if (vram_size < 16 * MiB || vram_size > 512 * MiB ||
        (vram_size & (vram_size - 1))) {
        *err = g_strdup_printf("vram-size must be a power of two from 16 MiB "
                               "to 512 MiB, not %" G_GUINT64_FORMAT, vram_size);
        return false;
    }
    memset(s, 0, sizeof(*s));
    s->model = model;
    s->info = r500_model_info(model);
    s->vram = vram;
    s->vram_size = vram_size;
    s->ops = ops;
    s->host = host;
    s->renderer = &r500_soft_renderer;
    s->soft.threads = 1;
    r500_chip_reset(s);
    return true;
}

void r500_chip_reset(R500Chip *s)
{
    r500_pipe_sync(s, R500_SYNC_RESET);
    s->renderer->reset(s);
    memset(s->regs, 0, sizeof(s->regs));
    memset(s->pll, 0, sizeof(s->pll));
    memset(s->mc, 0, sizeof(s->mc));
    memset(s->pcie, 0, sizeof(s->pcie));
    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->reset) {
            r500_blocks[b]->reset(s);
        }
    }
    r500_set_irq(s, false);
    r500_kick(s);
}

void r500_chip_finalize(R500Chip *s)
{
    if (s->renderer) {
        s->renderer->fini(s);
    }
}

void r500_chip_stop(R500Chip *s)
{
    r500_pipe_sync(s, R500_SYNC_STOP);
}

void r500_chip_pre_save(R500Chip *s)
{
    r500_pipe_sync(s, R500_SYNC_MIGRATE);
    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->pre_save) {
            r500_blocks[b]->pre_save(s);
        }
    }
}

void r500_chip_post_load(R500Chip *s)
{
    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->post_load) {
            r500_blocks[b]->post_load(s);
        }
    }
    r500_kick(s);
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

void r500_run_clocked(R500Chip *s)
{
    int64_t now = s->ops->clock_ns ? s->ops->clock_ns(s->host) : 0;

    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->run && r500_blocks[b]->clocked) {
            r500_blocks[b]->run(s, now);
        }
    }
}

void r500_run(R500Chip *s)
{
    int64_t now = s->ops->clock_ns ? s->ops->clock_ns(s->host) : 0;
    int64_t next = INT64_MAX;

    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->run) {
            /* Not MIN(): it would run the block twice. */
            int64_t t = r500_blocks[b]->run(s, now);

            next = MIN(next, t);
        }
    }
    /*
     * Between runs the display and the CPU look at memory, once the
     * engines are idle.  While they have work (a draw split across CP
     * slices, packets still queued) the guest has been told of nothing
     * it may look at: a fence, scratch write or interrupt is how it is
     * told, and each syncs itself (pm4.c, packet3.c).  A sync at every
     * slice made the host-GL renderer write its surfaces back and upload
     * them again a dozen times a frame (glmark2's build scene: 14).
     */
    if (!blocks_busy(s)) {
        r500_pipe_sync(s, R500_SYNC_CPU);
    }
    if (next != INT64_MAX && s->ops->schedule) {
        s->ops->schedule(s->host, next <= now ? 0 : next);
    }
}
