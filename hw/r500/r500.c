/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip's top (docs/architecture.md): its blocks in reset and run
 * order, its lifetime, the run loop, its counters, reset values, RBBM
 * status and MM_INDEX/MM_DATA (which reach VRAM through the host data
 * path).  The register file and the base services are in base/.
 *
 * Reference: ../shared/reference/radeon-kms-r500.md section 2.
 */
#include <glib.h>
#include <string.h>

#include "r500.h"
#include "blocks.h"

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
    /* the renderers' own: every one built in, chosen or not */
    r500_pipe_stats(s, fn, opaque);
}

typedef struct StatFind {
    const char *name;
    uint64_t val;
    bool found;
} StatFind;

static void stat_find(void *opaque, const char *name, uint64_t val)
{
    StatFind *f = opaque;

    if (!strcmp(name, f->name)) {
        f->val = val;
        f->found = true;
    }
}

uint64_t r500_chip_stat(R500Chip *s, const char *name)
{
    StatFind f = { .name = name };

    r500_chip_stats(s, stat_find, &f);
    if (!f.found) {
        g_error("r500: no counter %s", name);
    }
    return f.val;
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

/* ---- The blocks of the chip, in reset and run order ---- */

const R500Block *const r500_blocks[] = {
    &r500_core_block,
    &r500_regfile_block,
    &r500_irq_block,
    &r500_mc_block,
    &r500_hdp_block,
    &r500_rb2d_block,
    &r500_pipe_block,
    &r500_vap_block,
    &r500_rast_block,
    &r500_us_block,
    &r500_tx_block,
    &r500_rb3d_block,
    &r500_cp_block,
    &r500_crtc_block,
    &r500_cursor_block,
    &r500_lut_block,
    &r500_output_block,
    &r500_ddc_block,
};
const unsigned r500_num_blocks = G_N_ELEMENTS(r500_blocks);

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
    r500_pipe_init(s);
    s->soft.threads = 1;
    r500_chip_reset(s);
    return true;
}

void r500_chip_reset(R500Chip *s)
{
    r500_pipe_sync(s, R500_SYNC_RESET);
    r500_pipe_reset_renderers(s);
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
    r500_pipe_fini(s);
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
     * told, and each syncs itself (pm4_exec.c, packet3.c).  A sync at every
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
