/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VAP block: the PVS vector memory and its upload port, the second
 * copy of the viewport registers, and the PVS decoder with its cache.
 * r500-3d-pipeline.md 2.2, 2.3, 4.2-4.3.
 */
#include <glib.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/*
 * PVS instruction words (reference 4.2, 4.3; Mesa r300_reg.h PVS_*).
 * They live in PVS memory, not in the register file, so their fields are
 * listed here rather than in regs/.
 */
#define PVS_OPCODE(w)           ((w) & 0x3F)
#define PVS_MATH_INST(w)        (((w) >> 6) & 1)
#define PVS_MACRO_INST(w)       (((w) >> 7) & 1)
#define PVS_DST_REG_TYPE(w)     (((w) >> 8) & 0xF)
#define PVS_DST_ADDR_MODE_1(w)  (((w) >> 12) & 1)
#define PVS_DST_OFFSET(w)       (((w) >> 13) & 0x7F)
#define PVS_DST_WE(w)           (((w) >> 20) & 0xF)
#define PVS_DST_VE_SAT(w)       (((w) >> 24) & 1)
#define PVS_DST_ME_SAT(w)       (((w) >> 25) & 1)
#define PVS_DST_PRED_ENABLE(w)  (((w) >> 26) & 1)
#define PVS_DST_PRED_SENSE(w)   (((w) >> 27) & 1)
#define PVS_DST_ADDR_SEL(w)     (((w) >> 29) & 3)
#define PVS_DST_ADDR_MODE_0(w)  (((w) >> 31) & 1)
#define PVS_SRC_REG_TYPE(w)     ((w) & 3)
#define PVS_SRC_ABS(w)          (((w) >> 3) & 1)
#define PVS_SRC_ADDR_MODE_0(w)  (((w) >> 4) & 1)
#define PVS_SRC_OFFSET(w)       (((w) >> 5) & 0xFF)
#define PVS_SRC_SWIZZLE(w, n)   (((w) >> (13 + 3 * (n))) & 7)
#define PVS_SRC_NEG(w)          (((w) >> 25) & 0xF)
#define PVS_SRC_ADDR_SEL(w)     (((w) >> 29) & 3)
#define PVS_SRC_ADDR_MODE_1(w)  (((w) >> 31) & 1)

void r500_pvs_decode(const uint32_t w[4], R500PvsInst *in)
{
    memset(in, 0, sizeof(*in));
    in->kind = PVS_MACRO_INST(w[0]) ? R500_PVS_MACRO :
               PVS_MATH_INST(w[0]) ? R500_PVS_MATH : R500_PVS_VECTOR;
    in->op = PVS_OPCODE(w[0]);
    in->dst_file = PVS_DST_REG_TYPE(w[0]);
    in->dst_index = PVS_DST_OFFSET(w[0]);
    in->wmask = PVS_DST_WE(w[0]);
    in->ve_sat = PVS_DST_VE_SAT(w[0]);
    in->me_sat = PVS_DST_ME_SAT(w[0]);
    in->pred_enable = PVS_DST_PRED_ENABLE(w[0]);
    in->pred_sense = PVS_DST_PRED_SENSE(w[0]);
    /* ADDR_MODE: destination bit 1 at [12], bit 0 at [31] (4.2). */
    in->dst_addr_mode = PVS_DST_ADDR_MODE_1(w[0]) << 1 |
                        PVS_DST_ADDR_MODE_0(w[0]);
    in->dst_addr_sel = PVS_DST_ADDR_SEL(w[0]);
    for (unsigned i = 0; i < 3; i++) {
        uint32_t s = w[1 + i];
        R500PvsSrc *src = &in->src[i];

        src->file = PVS_SRC_REG_TYPE(s);
        src->index = PVS_SRC_OFFSET(s);
        for (unsigned c = 0; c < 4; c++) {
            src->swz[c] = PVS_SRC_SWIZZLE(s, c);
        }
        src->neg = PVS_SRC_NEG(s);
        src->abs = PVS_SRC_ABS(s);
        /* source: bit 0 at [4], bit 1 at [31] */
        src->addr_mode = PVS_SRC_ADDR_MODE_1(s) << 1 | PVS_SRC_ADDR_MODE_0(s);
        src->addr_sel = PVS_SRC_ADDR_SEL(s);
    }
}

/*
 * The program of VAP_PVS_CODE_CNTL_0, decoded once: Mesa uploads the same
 * code with every command stream, so an upload of identical words keeps
 * the decoded form.
 */
bool r500_pvs_load(R500Chip *s)
{
    R500Vap *v = &s->vap;
    R500PvsProg *p = &v->prog;
    uint32_t cntl = s->regs[R_VAP_PVS_CODE_CNTL_0 / 4];
    uint32_t first = R500_FGET(cntl, VAP_PVS_CODE_CNTL_0, PVS_FIRST_INST);
    uint32_t last = R500_FGET(cntl, VAP_PVS_CODE_CNTL_0, PVS_LAST_INST);
    size_t bytes;

    if (first > last || last >= R500_PVS_CODE_VECTORS) {
        r500_guest_error(s, "3D: VAP_PVS_CODE_CNTL_0 names instructions "
                         "%u..%u (at most 0..%u); draw skipped", first, last,
                         R500_PVS_CODE_VECTORS - 1);
        return false;
    }
    bytes = (last - first + 1) * 16;
    if (p->valid && p->first == first && p->last == last &&
        (!v->code_dirty ||
         !memcmp(p->code, &v->pvs_mem[first * 4], bytes))) {
        v->code_dirty = false;
        return true;
    }
    memcpy(p->code, &v->pvs_mem[first * 4], bytes);
    for (uint32_t i = first; i <= last; i++) {
        r500_pvs_decode(&v->pvs_mem[i * 4], &p->inst[i - first]);
    }
    p->first = first;
    p->last = last;
    p->valid = true;
    p->decodes++;
    v->code_dirty = false;
    return true;
}

/* ---- Upload port: VAP_PVS_VECTOR_INDX_REG + DATA (reference 2.2) ---- */

static void pvs_index_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    s->vap.pvs_dword = 0;
}

static void pvs_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                           uint32_t mask)
{
    R500Vap *v = &s->vap;
    uint32_t *ireg = &s->regs[R_VAP_PVS_VECTOR_INDX_REG / 4];
    uint32_t vec = R500_FGET(*ireg, VAP_PVS_VECTOR_INDX_REG, OCTWORD_OFFSET);

    v->pvs_mem[vec * 4 + (v->pvs_dword & 3)] = s->regs[reg / 4];
    if (vec < R500_PVS_CODE_VECTORS) {
        v->code_dirty = true;
    }
    if (++v->pvs_dword == 4) {
        /* Auto-increment per vector; the 11-bit index wraps. */
        v->pvs_dword = 0;
        *ireg = R500_FSET(*ireg, VAP_PVS_VECTOR_INDX_REG, OCTWORD_OFFSET,
                          vec + 1);
    }
}

/* ---- Viewport: VAP_VPORT_* at 0x2098 name SE_VPORT_* (reference 2.3) ---- */

static void vport_alias_write(R500Chip *s, uint32_t reg, uint32_t old,
                              uint32_t mask)
{
    uint32_t se = R_SE_VPORT_XSCALE + (reg - R_VAP_VPORT_XSCALE);

    s->regs[se / 4] = s->regs[reg / 4];
}

static uint32_t vport_alias_read(R500Chip *s, uint32_t reg)
{
    return s->regs[(R_SE_VPORT_XSCALE + (reg - R_VAP_VPORT_XSCALE)) / 4];
}

static void vport_write(R500Chip *s, uint32_t reg, uint32_t old,
                        uint32_t mask)
{
    uint32_t alias = R_VAP_VPORT_XSCALE + (reg - R_SE_VPORT_XSCALE);

    s->regs[alias / 4] = s->regs[reg / 4];
}

static const R500RegHook vap_hooks[] = {
    { R_SE_VPORT_XSCALE, R_SE_VPORT_ZOFFSET, NULL, vport_write },
    { R_VAP_VPORT_XSCALE, R_VAP_VPORT_ZOFFSET, vport_alias_read,
      vport_alias_write },
    { R_VAP_PVS_VECTOR_INDX_REG, R_VAP_PVS_VECTOR_INDX_REG, NULL,
      pvs_index_write },
    { R_VAP_PVS_VECTOR_DATA_REG, R_VAP_PVS_VECTOR_DATA_REG_128, NULL,
      pvs_data_write },
    { 0 }
};

static void vap_reset(R500Chip *s)
{
    R500Vap *v = &s->vap;

    memset(v->pvs_mem, 0, sizeof(v->pvs_mem));
    v->pvs_dword = 0;
    v->prog.valid = false;
    v->code_dirty = true;
    memset(&v->resume, 0, sizeof(v->resume));
}

static void vap_post_load(R500Chip *s)
{
    /*
     * A split draw's progress (pipe/pipe.c) is only a position to pass over and
     * what is left of its budgets: any position is safe (past the end the
     * draw just ends); budgets above the draw's are clamped when it goes
     * on.  It is used only when the CP runs a draw packet with a resume
     * point, so a stale one does nothing.
     */
    s->vap.pvs_dword &= 3;
    s->vap.prog.valid = false;
    s->vap.code_dirty = true;
}

const R500Block r500_vap_block = {
    .name = "vap",
    .hooks = vap_hooks,
    .reset = vap_reset,
    .post_load = vap_post_load,
};
