/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names and lookups derived from the register tables.
 */
#include <glib.h>
#include <stdio.h>

#include "regs.h"

typedef struct RegEntry {
    uint32_t offset;
    uint16_t count;
    uint16_t stride;
    const char *name;
} RegEntry;

static const RegEntry reg_entries[] = {
#define R500_REG(name, off)             { (off), 1, 4, #name },
#define R500_REGA(name, off, n, stride) { (off), (n), (stride), #name },
#define R500_CRTC(name, off)            { (off), 1, 4, "D1" #name }, \
                                        { (off) + R500_CRTC2_OFFSET, 1, 4, "D2" #name },
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "r500_regs.def"
#undef R500_REG
#undef R500_REGA
#undef R500_CRTC
#undef R500_FIELD
#undef R500_VALUE
};

/*
 * Per dword of the MMIO space: 1 + index into reg_entries, 0 if unnamed.
 * Built once; read-only afterwards, so safe to share between devices.
 */
static uint16_t *reg_lookup;

static gpointer build_lookup(gpointer unused)
{
    uint16_t *t = g_new0(uint16_t, R500_NUM_REGS);

    for (unsigned i = 0; i < G_N_ELEMENTS(reg_entries); i++) {
        const RegEntry *e = &reg_entries[i];
        for (unsigned j = 0; j < e->count; j++) {
            uint32_t off = e->offset + j * e->stride;
            g_assert(off < R500_MMIO_SIZE && (off & 3) == 0);
            /* A duplicate offset in the table is a bug in the table. */
            g_assert(t[off / 4] == 0);
            t[off / 4] = i + 1;
        }
    }
    return t;
}

static const uint16_t *lookup(void)
{
    static GOnce once = G_ONCE_INIT;

    if (!reg_lookup) {
        reg_lookup = g_once(&once, build_lookup, NULL);
    }
    return reg_lookup;
}

int r500_reg_known(uint32_t offset)
{
    return offset < R500_MMIO_SIZE && lookup()[offset / 4] != 0;
}

const char *r500_reg_name(uint32_t offset, char *buf, unsigned len)
{
    unsigned idx = offset < R500_MMIO_SIZE ? lookup()[offset / 4] : 0;

    if (!idx) {
        snprintf(buf, len, "0x%04x", offset);
    } else {
        const RegEntry *e = &reg_entries[idx - 1];
        if (e->count > 1) {
            snprintf(buf, len, "%s[%u]", e->name,
                     ((offset & ~3u) - e->offset) / e->stride);
        } else {
            snprintf(buf, len, "%s", e->name);
        }
    }
    return buf;
}

typedef struct IndEntry {
    int index;
    const char *name;
} IndEntry;

static const IndEntry pll_entries[] = {
#define R500_PLL_REG(name, idx) { (idx), #name },
#include "pll_regs.def"
#undef R500_PLL_REG
};

static const IndEntry pcie_entries[] = {
#define R500_PCIE_REG(name, idx) { (idx), #name },
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "pcie_regs.def"
#undef R500_PCIE_REG
#undef R500_FIELD
#undef R500_VALUE
};

static const struct {
    int index[2];
    const char *name;
} mc_entries[MC__COUNT] = {
#define R500_MC_REG(name, rv515, r520) [MC_##name] = { { (rv515), (r520) }, #name },
#include "mc_regs.def"
#undef R500_MC_REG
};

static const char *ind_name(const IndEntry *t, unsigned n, uint32_t index)
{
    for (unsigned i = 0; i < n; i++) {
        if (t[i].index == (int)index) {
            return t[i].name;
        }
    }
    return NULL;
}

const char *r500_pll_name(uint32_t index)
{
    return ind_name(pll_entries, G_N_ELEMENTS(pll_entries), index);
}

const char *r500_pcie_name(uint32_t index)
{
    return ind_name(pcie_entries, G_N_ELEMENTS(pcie_entries), index);
}

int r500_mc_index(R500McMap map, R500McReg reg)
{
    g_assert(reg < MC__COUNT && (map == R500_MC_MAP_RV515 || map == R500_MC_MAP_R520));
    return mc_entries[reg].index[map];
}

const char *r500_mc_name(R500McMap map, uint32_t index)
{
    for (unsigned i = 0; i < MC__COUNT; i++) {
        if (mc_entries[i].index[map] == (int)index) {
            return mc_entries[i].name;
        }
    }
    return NULL;
}

bool r500_reg_is_3d(uint32_t reg)
{
    static const struct {
        uint32_t first, end;
    } windows[] = {
#define R500_3D_WINDOW(first, end)      { (first), (end) },
#define R500_REG(name, off)
#define R500_REGA(name, off, n, stride)
#define R500_FIELD(reg, f, shift, width)
#define R500_VALUE(reg, f, name, v)
#include "r500_3d_regs.def"
#undef R500_3D_WINDOW
#undef R500_REG
#undef R500_REGA
#undef R500_FIELD
#undef R500_VALUE
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(windows); i++) {
        if (reg >= windows[i].first && reg < windows[i].end) {
            return true;
        }
    }
    return false;
}
