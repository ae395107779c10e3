/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The register file: the one path every register access takes (MMIO,
 * MM_INDEX/MM_DATA, PM4 type-0 packets, AtomBIOS tables), byte lanes, the
 * indirect spaces behind their index/data ports (PLL, MC, PCIE), and the
 * blocks' register hooks.  The bottom of the core (docs/architecture.md):
 * it calls the blocks only through the hooks of the block table.
 *
 * Reference: ../shared/reference/radeon-kms-r500.md section 2.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/* ---- Register hooks ---- */

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

/* Unknown registers are stored like any other, and reported once each. */
static void note_unknown(R500Chip *s, uint32_t reg, bool write, uint32_t val)
{
    if (r500_reg_known(reg) ||
        !r500_once(&s->unimp_logged[reg / 4 / 32], 1u << ((reg / 4) % 32))) {
        return;
    }
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

/* Store val in slot index of an indirect space and tell the blocks. */
static void ind_store(R500Chip *s, R500Space space, uint32_t *slots,
                      uint32_t index, uint32_t val)
{
    uint32_t old = slots[index];

    slots[index] = val;
    ind_notify(s, space, index, old);
}

void r500_pll_write(R500Chip *s, uint32_t index, uint32_t val)
{
    ind_store(s, R500_SPACE_PLL, s->pll, index % R500_PLL_NUM, val);
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
    if (mc_index_ok(s, index)) {
        ind_store(s, R500_SPACE_MC, s->mc, index, val);
    }
}

uint32_t r500_pcie_read(R500Chip *s, uint32_t index)
{
    return s->pcie[index % R500_PCIE_NUM];
}

void r500_pcie_write(R500Chip *s, uint32_t index, uint32_t val)
{
    ind_store(s, R500_SPACE_PCIE, s->pcie, index % R500_PCIE_NUM, val);
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

static const R500RegHook regfile_hooks[] = {
    { R_CLOCK_CNTL_DATA, R_CLOCK_CNTL_DATA, clock_cntl_data_read,
      clock_cntl_data_write },
    { R_MC_IND_DATA, R_MC_IND_DATA, mc_ind_data_read, mc_ind_data_write },
    { R_PCIE_DATA, R_PCIE_DATA, pcie_data_read, pcie_data_write },
    { 0 }
};

const R500Block r500_regfile_block = {
    .name = "regfile",
    .hooks = regfile_hooks,
};
