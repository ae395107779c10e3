/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RB3D block (rb3d.c the colour pipeline, zb.c depth and stencil):
 * its register hooks (the Hyper-Z RAMs' index/data ports, the occlusion
 * query's ZPASS registers), reset and the block table's entry.
 */
#include <glib.h>
#include <stddef.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/*
 * ZB_ZMASK_/ZB_HIZ_/RB3D_CMASK_ WRINDEX, DWORD and RDINDEX: a DWORD write
 * stores at WRINDEX, a DWORD read returns the dword at RDINDEX; each
 * advances its index (the RAMs are not otherwise reachable).
 */
typedef struct RamPort {
    uint32_t wrindex, dword, rdindex;
    size_t off;
    uint32_t size;
} RamPort;

static const RamPort ram_ports[] = {
    { R_ZB_ZMASK_WRINDEX, R_ZB_ZMASK_DWORD, R_ZB_ZMASK_RDINDEX,
      offsetof(R500Rb3d, zmask_ram), R500_ZMASK_DWORDS },
    { R_ZB_HIZ_WRINDEX, R_ZB_HIZ_DWORD, R_ZB_HIZ_RDINDEX,
      offsetof(R500Rb3d, hiz_ram), R500_HIZ_DWORDS },
    { R_RB3D_CMASK_WRINDEX, R_RB3D_CMASK_DWORD, R_RB3D_CMASK_RDINDEX,
      offsetof(R500Rb3d, cmask_ram), R500_CMASK_DWORDS },
};

static const RamPort *ram_port(uint32_t reg)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(ram_ports); i++) {
        if (ram_ports[i].dword == reg) {
            return &ram_ports[i];
        }
    }
    g_assert_not_reached();
}

static uint32_t *ram_at(R500Chip *s, const RamPort *rp, uint32_t idx)
{
    return (uint32_t *)((uint8_t *)&s->rb3d + rp->off) + idx % rp->size;
}

static uint32_t ram_dword_read(R500Chip *s, uint32_t reg)
{
    const RamPort *rp = ram_port(reg);
    uint32_t *idx = &s->regs[rp->rdindex / 4];
    uint32_t v = *ram_at(s, rp, *idx);

    *idx = (*idx + 1) % rp->size;
    return v;
}

static void ram_dword_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    const RamPort *rp = ram_port(reg);
    uint32_t *idx = &s->regs[rp->wrindex / 4];

    *ram_at(s, rp, *idx) = s->regs[reg / 4];
    *idx = (*idx + 1) % rp->size;
}

/*
 * Occlusion queries (reference 2.12): ZB_ZPASS_DATA = 0 resets the count,
 * a write of ZB_ZPASS_ADDR stores it there for the pipes SU_REG_DEST (RV530:
 * FG_ZBREG_DEST) selects.  The model counts in one pipe, pipe 0: a write
 * for another pipe stores 0, so Mesa's per-pipe sum is the count.
 */
static void zpass_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    /* a renderer counting on the host adds its draws' samples first */
    r500_mem_sync(s, R500_SYNC_COUNT);
    s->rb3d.zpass = s->regs[reg / 4];
}

static void zpass_addr_write(R500Chip *s, uint32_t reg, uint32_t old,
                             uint32_t mask)
{
    uint32_t dest = s->model == R500_MODEL_RV530
                    ? s->regs[R_FG_ZBREG_DEST / 4] : s->regs[R_SU_REG_DEST / 4];
    uint32_t v;
    uint64_t addr = s->regs[reg / 4] & ~3u;

    /* the count complete, and a write into memory the draws' are in */
    r500_mem_sync(s, R500_SYNC_MEMORY);
    v = GUINT32_TO_LE(dest & 1 ? s->rb3d.zpass : 0);
    if (!r500_mem_write(s, addr, &v, 4)) {
        r500_guest_error(s, "3D: ZB_ZPASS_ADDR 0x%08" G_GINT64_MODIFIER "x "
                         "not writable; occlusion result lost", addr);
    }
}

static const R500RegHook rb3d_hooks[] = {
    { R_ZB_ZPASS_DATA, R_ZB_ZPASS_DATA, NULL, zpass_data_write },
    { R_ZB_ZPASS_ADDR, R_ZB_ZPASS_ADDR, NULL, zpass_addr_write },
    { R_ZB_ZMASK_DWORD, R_ZB_ZMASK_DWORD, ram_dword_read, ram_dword_write },
    { R_ZB_HIZ_DWORD, R_ZB_HIZ_DWORD, ram_dword_read, ram_dword_write },
    { R_RB3D_CMASK_DWORD, R_RB3D_CMASK_DWORD, ram_dword_read,
      ram_dword_write },
    { 0 }
};

static void rb3d_reset(R500Chip *s)
{
    R500Rb3d *rb = &s->rb3d;

    memset(rb->zmask_ram, 0, sizeof(rb->zmask_ram));
    memset(rb->hiz_ram, 0, sizeof(rb->hiz_ram));
    memset(rb->cmask_ram, 0, sizeof(rb->cmask_ram));
    rb->zmask_cleared = false;
    rb->zpass = 0;
    memset(&rb->cache, 0, sizeof(rb->cache));
    rb->cache.dirty_lo = UINT64_MAX;
}

const R500Block r500_rb3d_block = {
    .name = "rb3d",
    .hooks = rb3d_hooks,
    .reset = rb3d_reset,
};
