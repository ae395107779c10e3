/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US block: the R500 fragment-shader instruction store and constants,
 * their upload port and register view, and the decoder with its cache.
 * r500-3d-pipeline.md 2.9, 3.2-3.10; seeds 000 (US_TEX_INST word) and 002
 * (US_ALU_RGB_ADDR).
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

#define F(v, reg, field) R500_FGET(v, reg, field)

/* Seed 002: 4-bit exponent (bias 7), 3-bit mantissa, with denormals. */
float r500_us_inline_const(unsigned v)
{
    unsigned e = (v >> 3) & 0xF, m = v & 7;

    if (!e) {
        return ldexpf((float)m / 8.0f, -6);
    }
    return ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);
}

static void decode_addr(uint32_t w, R500UsAddr a[3])
{
    const unsigned addr[3] = {
        F(w, US_ALU_RGB_ADDR, ADDR0), F(w, US_ALU_RGB_ADDR, ADDR1),
        F(w, US_ALU_RGB_ADDR, ADDR2),
    };
    const bool cnst[3] = {
        F(w, US_ALU_RGB_ADDR, ADDR0_CONST), F(w, US_ALU_RGB_ADDR, ADDR1_CONST),
        F(w, US_ALU_RGB_ADDR, ADDR2_CONST),
    };
    const bool rel[3] = {
        F(w, US_ALU_RGB_ADDR, ADDR0_REL), F(w, US_ALU_RGB_ADDR, ADDR1_REL),
        F(w, US_ALU_RGB_ADDR, ADDR2_REL),
    };

    for (int i = 0; i < 3; i++) {
        a[i].rel = rel[i];
        if (cnst[i]) {
            a[i].kind = R500_US_SRC_CONST;
            a[i].index = addr[i];
        } else if (addr[i] & 0x80) {
            a[i].kind = R500_US_SRC_INLINE;
            a[i].index = addr[i] & 0x7F;
            a[i].inline_val = r500_us_inline_const(addr[i] & 0x7F);
        } else {
            a[i].kind = R500_US_SRC_TEMP;
            a[i].index = addr[i] & 0x7F;
        }
    }
}

/* The source channels an ALU instruction's operands select (us_exec.c). */
static uint16_t alu_src_need(const R500UsInst *in)
{
    uint16_t need = 0;

    for (int i = 0; i < 3; i++) {
        const R500UsOperand *r = &in->rgb_op[i], *a = &in->alpha_op[i];

        for (int ch = 0; ch < 3; ch++) {
            if (r->swz[ch] < 4) {
                need |= R500_US_NEED(r->sel, r->swz[ch]);
            }
        }
        if (a->swz[0] < 4) {
            need |= R500_US_NEED(a->sel, a->swz[0]);
        }
    }
    /* MDH/MDV read src0 by channel (RGB) or its alpha */
    if (in->rgb_opcode == R500_US_RGB_MDH ||
        in->rgb_opcode == R500_US_RGB_MDV) {
        need |= R500_US_NEED(0, 0) | R500_US_NEED(0, 1) | R500_US_NEED(0, 2);
    }
    if (in->alpha_opcode == R500_US_A_MDH ||
        in->alpha_opcode == R500_US_A_MDV) {
        need |= R500_US_NEED(0, 3);
    }
    for (int c = 0; c < 4; c++) {
        if (need & R500_US_NEED(3, c)) {
            need |= R500_US_NEED(0, c) | R500_US_NEED(1, c);
        }
    }
    return need;
}

/*
 * Source-table slot of an operand channel (swizzle 0-3 R G B A, 4 0,
 * 5 0.5, 6 1, 7 0).
 */
static uint8_t alu_slot(const R500UsOperand *op, unsigned swz)
{
    if (swz < 4) {
        return op->sel * 4 + swz;
    }
    return swz == 5 ? R500_US_SLOT_HALF : swz == 6 ? R500_US_SLOT_ONE
                                                   : R500_US_SLOT_0;
}

void r500_us_decode(const uint32_t w[6], R500UsInst *in)
{
    uint32_t cmn = w[0];

    memset(in, 0, sizeof(*in));
    in->type = F(cmn, US_CMN_INST, TYPE);
    in->last = F(cmn, US_CMN_INST, LAST);
    in->rgb_wmask = F(cmn, US_CMN_INST, RGB_WMASK);
    in->alpha_wmask = F(cmn, US_CMN_INST, ALPHA_WMASK);
    in->rgb_omask = F(cmn, US_CMN_INST, RGB_OMASK);
    in->alpha_omask = F(cmn, US_CMN_INST, ALPHA_OMASK);
    in->rgb_clamp = F(cmn, US_CMN_INST, RGB_CLAMP);
    in->alpha_clamp = F(cmn, US_CMN_INST, ALPHA_CLAMP);
    in->rgb_pred_sel = F(cmn, US_CMN_INST, RGB_PRED_SEL);
    in->rgb_pred_inv = F(cmn, US_CMN_INST, RGB_PRED_INV);
    in->alpha_pred_sel = F(cmn, US_CMN_INST, ALPHA_PRED_SEL);
    in->alpha_pred_inv = F(cmn, US_CMN_INST, ALPHA_PRED_INV);
    in->write_inactive = F(cmn, US_CMN_INST, WRITE_INACTIVE);
    in->alu_result_sel = F(cmn, US_CMN_INST, ALU_RESULT_SEL);
    in->alu_result_op = F(cmn, US_CMN_INST, ALU_RESULT_OP);

    switch (in->type) {
    case R500_US_ALU:
    case R500_US_OUT: {
        uint32_t ri = w[3], ai = w[4], rai = w[5];

        decode_addr(w[1], in->rgb_addr);
        decode_addr(w[2], in->alpha_addr);
        in->rgb_srcp = F(w[1], US_ALU_RGB_ADDR, SRCP_OP);
        in->alpha_srcp = F(w[2], US_ALU_RGB_ADDR, SRCP_OP);
        in->rgb_op[0] = (R500UsOperand){
            .sel = F(ri, US_ALU_RGB_INST, RGB_SEL_A),
            .swz = { F(ri, US_ALU_RGB_INST, RED_SWIZ_A),
                     F(ri, US_ALU_RGB_INST, GREEN_SWIZ_A),
                     F(ri, US_ALU_RGB_INST, BLUE_SWIZ_A) },
            .mod = F(ri, US_ALU_RGB_INST, RGB_MOD_A),
        };
        in->rgb_op[1] = (R500UsOperand){
            .sel = F(ri, US_ALU_RGB_INST, RGB_SEL_B),
            .swz = { F(ri, US_ALU_RGB_INST, RED_SWIZ_B),
                     F(ri, US_ALU_RGB_INST, GREEN_SWIZ_B),
                     F(ri, US_ALU_RGB_INST, BLUE_SWIZ_B) },
            .mod = F(ri, US_ALU_RGB_INST, RGB_MOD_B),
        };
        in->rgb_op[2] = (R500UsOperand){
            .sel = F(rai, US_ALU_RGBA_INST, RGB_SEL_C),
            .swz = { F(rai, US_ALU_RGBA_INST, RED_SWIZ_C),
                     F(rai, US_ALU_RGBA_INST, GREEN_SWIZ_C),
                     F(rai, US_ALU_RGBA_INST, BLUE_SWIZ_C) },
            .mod = F(rai, US_ALU_RGBA_INST, RGB_MOD_C),
        };
        in->alpha_op[0] = (R500UsOperand){
            .sel = F(ai, US_ALU_ALPHA_INST, ALPHA_SEL_A),
            .swz = { F(ai, US_ALU_ALPHA_INST, ALPHA_SWIZ_A) },
            .mod = F(ai, US_ALU_ALPHA_INST, ALPHA_MOD_A),
        };
        in->alpha_op[1] = (R500UsOperand){
            .sel = F(ai, US_ALU_ALPHA_INST, ALPHA_SEL_B),
            .swz = { F(ai, US_ALU_ALPHA_INST, ALPHA_SWIZ_B) },
            .mod = F(ai, US_ALU_ALPHA_INST, ALPHA_MOD_B),
        };
        in->alpha_op[2] = (R500UsOperand){
            .sel = F(rai, US_ALU_RGBA_INST, ALPHA_SEL_C),
            .swz = { F(rai, US_ALU_RGBA_INST, ALPHA_SWIZ_C) },
            .mod = F(rai, US_ALU_RGBA_INST, ALPHA_MOD_C),
        };
        in->rgb_opcode = F(rai, US_ALU_RGBA_INST, RGB_OP);
        in->rgb_addrd = F(rai, US_ALU_RGBA_INST, RGB_ADDRD);
        in->rgb_addrd_rel = F(rai, US_ALU_RGBA_INST, RGB_ADDRD_REL);
        in->alpha_opcode = F(ai, US_ALU_ALPHA_INST, ALPHA_OP);
        in->alpha_addrd = F(ai, US_ALU_ALPHA_INST, ALPHA_ADDRD);
        in->alpha_addrd_rel = F(ai, US_ALU_ALPHA_INST, ALPHA_ADDRD_REL);
        in->rgb_omod = F(ri, US_ALU_RGB_INST, OMOD);
        in->alpha_omod = F(ai, US_ALU_ALPHA_INST, OMOD);
        in->rgb_target = F(ri, US_ALU_RGB_INST, TARGET);
        in->alpha_target = F(ai, US_ALU_ALPHA_INST, TARGET);
        in->w_omask = F(ai, US_ALU_ALPHA_INST, W_OMASK);
        in->alu_wmask = F(ri, US_ALU_RGB_INST, ALU_WMASK);
        in->src_need = alu_src_need(in);
        for (int i = 0; i < 3; i++) {
            for (int ch = 0; ch < 3; ch++) {
                in->rgb_slot[i][ch] = alu_slot(&in->rgb_op[i],
                                               in->rgb_op[i].swz[ch]);
            }
            in->alpha_slot[i] = alu_slot(&in->alpha_op[i],
                                         in->alpha_op[i].swz[0]);
        }
        break;
    }
    case R500_US_TEX:
        in->tex_id = F(w[1], US_TEX_INST, TEX_ID);
        in->tex_op = F(w[1], US_TEX_INST, INST);
        in->tex_unscaled = F(w[1], US_TEX_INST, UNSCALED);
        in->tex_ignore_uncovered = F(w[1], US_TEX_INST, IGNORE_UNCOVERED);
        in->tex_src = F(w[2], US_TEX_ADDR, SRC_ADDR);
        in->tex_src_rel = F(w[2], US_TEX_ADDR, SRC_ADDR_REL);
        in->tex_src_swz[0] = F(w[2], US_TEX_ADDR, SRC_S_SWIZ);
        in->tex_src_swz[1] = F(w[2], US_TEX_ADDR, SRC_T_SWIZ);
        in->tex_src_swz[2] = F(w[2], US_TEX_ADDR, SRC_R_SWIZ);
        in->tex_src_swz[3] = F(w[2], US_TEX_ADDR, SRC_Q_SWIZ);
        in->tex_dst = F(w[2], US_TEX_ADDR, DST_ADDR);
        in->tex_dst_rel = F(w[2], US_TEX_ADDR, DST_ADDR_REL);
        in->tex_dst_swz[0] = F(w[2], US_TEX_ADDR, DST_R_SWIZ);
        in->tex_dst_swz[1] = F(w[2], US_TEX_ADDR, DST_G_SWIZ);
        in->tex_dst_swz[2] = F(w[2], US_TEX_ADDR, DST_B_SWIZ);
        in->tex_dst_swz[3] = F(w[2], US_TEX_ADDR, DST_A_SWIZ);
        /* US_TEX_ADDR_DXDY (reference 3.9) */
        in->tex_dx = w[3] & 0x7F;
        in->tex_dx_rel = (w[3] >> 7) & 1;
        in->tex_dy = (w[3] >> 16) & 0x7F;
        in->tex_dy_rel = (w[3] >> 23) & 1;
        for (int i = 0; i < 4; i++) {
            in->tex_dx_swz[i] = (w[3] >> (8 + 2 * i)) & 3;
            in->tex_dy_swz[i] = (w[3] >> (24 + 2 * i)) & 3;
        }
        break;
    case R500_US_FC:
        in->fc_inst = w[2];
        in->fc_addr = w[3];
        break;
    }
}

/*
 * Whether the program is uniform (R500UsProg.uniform): walk it as
 * r500_us_run_quad() runs a program without flow control, from start to
 * the first LAST.  A predicated write may not happen, so it does not
 * count as writing its temporary.
 */
static void prog_uniform(R500UsProg *p)
{
    uint8_t written[R500_US_TEMPS] = { 0 };

    memset(p->temp_in, 0, sizeof(p->temp_in));
    p->straight = 0;
    p->uniform = !p->uses_fc && !p->uses_tex;
    for (uint32_t i = p->start; p->uniform && i <= p->end; i++) {
        const R500UsInst *in = &p->inst[i - p->start];

        p->straight++;
        for (unsigned m = in->src_need & 0xFFF; m; m &= m - 1) {
            unsigned b = __builtin_ctz(m), n = b / 4, c = b % 4;
            const R500UsAddr *a = c < 3 ? &in->rgb_addr[n]
                                        : &in->alpha_addr[n];
            unsigned t = a->index & (R500_US_TEMPS - 1);

            if (a->rel) {
                p->uniform = false;
            } else if (a->kind == R500_US_SRC_TEMP &&
                       !(written[t] & (1u << c))) {
                p->temp_in[t] |= 1u << c;
            }
        }
        if (in->rgb_addrd_rel || in->alpha_addrd_rel) {
            p->uniform = false;
        }
        if (!in->rgb_pred_sel) {
            written[in->rgb_addrd & (R500_US_TEMPS - 1)] |= in->rgb_wmask & 7;
        }
        if (!in->alpha_pred_sel && in->alpha_wmask) {
            written[in->alpha_addrd & (R500_US_TEMPS - 1)] |= 8;
        }
        if (in->last) {
            break;
        }
    }
}

/*
 * Latch the program and constants for this draw.  The program window is
 * US_CODE_OFFSET + US_CODE_ADDR.START..END, inside US_CODE_RANGE.
 */
bool r500_us_prepare(R500Chip *s)
{
    R500Us *u = &s->us;
    R500UsProg *p = &u->prog;
    uint32_t ca = s->regs[R_US_CODE_ADDR / 4];
    uint32_t cr = s->regs[R_US_CODE_RANGE / 4];
    uint32_t off = F(s->regs[R_US_CODE_OFFSET / 4], US_CODE_OFFSET,
                     OFFSET_ADDR);
    uint32_t start = off + F(ca, US_CODE_ADDR, START_ADDR);
    uint32_t end = off + F(ca, US_CODE_ADDR, END_ADDR);
    uint32_t r0 = F(cr, US_CODE_RANGE, CODE_ADDR);
    uint32_t r1 = r0 + F(cr, US_CODE_RANGE, CODE_SIZE);

    if (start > end || end >= R500_US_INSTS || start < r0 || end > r1) {
        r500_guest_error(s, "3D: fragment program %u..%u outside the "
                         "instruction store or US_CODE_RANGE %u..%u; draw "
                         "skipped", start, end, r0, r1);
        return false;
    }
    if (!p->valid || p->start != start || p->end != end ||
        (u->code_dirty &&
         memcmp(p->code, &u->inst[start * R500_US_INST_DWORDS],
                (end - start + 1) * R500_US_INST_DWORDS * 4))) {
        p->uses_fc = p->uses_tex = p->uses_kill = false;
        memcpy(p->code, &u->inst[start * R500_US_INST_DWORDS],
               (end - start + 1) * R500_US_INST_DWORDS * 4);
        for (uint32_t i = start; i <= end; i++) {
            R500UsInst *in = &p->inst[i - start];

            r500_us_decode(&u->inst[i * R500_US_INST_DWORDS], in);
            p->uses_fc |= in->type == R500_US_FC;
            p->uses_tex |= in->type == R500_US_TEX;
            p->uses_kill |= in->type == R500_US_TEX &&
                            in->tex_op == R500_TEX_KILL;
        }
        p->start = start;
        p->end = end;
        p->valid = true;
        prog_uniform(p);
        p->decodes++;
    }
    u->code_dirty = false;
    u->budget = R500_US_DRAW_BUDGET;
    u->zero_times_anything = F(s->regs[R_US_CONFIG / 4], US_CONFIG,
                               ZERO_TIMES_ANYTHING_EQUALS_ZERO);
    memcpy(u->kconst, u->consts, sizeof(u->kconst));
    return true;
}

/* ---- GA_US_VECTOR_INDEX / GA_US_VECTOR_DATA (reference 2.9) ---- */

static void us_index_write(R500Chip *s, uint32_t reg, uint32_t old,
                           uint32_t mask)
{
    s->us.upload_dword = 0;
    s->us.logged &= ~R500_US_LOG_UPLOAD_OVERRUN;
}

static void us_data_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    R500Us *u = &s->us;
    uint32_t *ireg = &s->regs[R_GA_US_VECTOR_INDEX / 4];
    uint32_t idx = F(*ireg, GA_US_VECTOR_INDEX, INDEX);
    uint32_t val = s->regs[reg / 4];
    bool consts = F(*ireg, GA_US_VECTOR_INDEX, TYPE);
    unsigned per = consts ? 4 : R500_US_INST_DWORDS;

    if (consts) {
        if (idx >= R500_US_CONSTS) {
            r500_guest_error(s, "GA_US_VECTOR_DATA: constant %u does not "
                             "exist; dropped", idx);
            return;
        }
        if (F(*ireg, GA_US_VECTOR_INDEX, CLAMP)) {
            float f;

            memcpy(&f, &val, 4);
            f = f > 1.0f ? 1.0f : f < -1.0f ? -1.0f : f;
            memcpy(&val, &f, 4);
        }
        u->consts[idx * 4 + u->upload_dword % 4] = val;
    } else {
        /*
         * An upload running on after instruction 511: the 9-bit INDEX
         * has wrapped to 0, and writing on would silently overwrite the
         * start of the store.  The rest of the upload is dropped (until
         * INDEX is written again), with one guest error; upload_dword
         * R500_US_INST_DWORDS marks the state (docs/reliability.md, the
         * bad-input contract).
         */
        if (u->upload_dword >= R500_US_INST_DWORDS) {
            if (r500_once(&u->logged, R500_US_LOG_UPLOAD_OVERRUN)) {
                r500_guest_error(s, "GA_US_VECTOR_DATA: upload runs past "
                                 "instruction %u, the end of the store; "
                                 "dropped", R500_US_INSTS - 1);
            }
            return;
        }
        u->inst[idx * R500_US_INST_DWORDS + u->upload_dword] = val;
        u->code_dirty = true;
        if (u->upload_dword + 1 == R500_US_INST_DWORDS &&
            idx == R500_US_INSTS - 1) {
            *ireg = R500_FSET(*ireg, GA_US_VECTOR_INDEX, INDEX, 0);
            u->upload_dword = R500_US_INST_DWORDS;
            return;
        }
    }
    if (++u->upload_dword >= per) {
        u->upload_dword = 0;
        *ireg = R500_FSET(*ireg, GA_US_VECTOR_INDEX, INDEX, idx + 1);
    }
}

/* The store as registers: dword 1 at 0x9000, ..., dword 5 at 0xB000, 0 at 0xB800 */
static uint32_t *us_inst_reg(R500Chip *s, uint32_t reg)
{
    uint32_t bank = (reg - R_US_ALU_RGB_ADDR) / (R500_US_INSTS * 4);
    uint32_t slot = (reg - R_US_ALU_RGB_ADDR) / 4 % R500_US_INSTS;

    return &s->us.inst[slot * R500_US_INST_DWORDS + (bank + 1) %
                       R500_US_INST_DWORDS];
}

static uint32_t us_inst_read(R500Chip *s, uint32_t reg)
{
    return *us_inst_reg(s, reg);
}

static void us_inst_write(R500Chip *s, uint32_t reg, uint32_t old,
                          uint32_t mask)
{
    *us_inst_reg(s, reg) = s->regs[reg / 4];
    s->us.code_dirty = true;
}

static const R500RegHook us_hooks[] = {
    { R_GA_US_VECTOR_INDEX, R_GA_US_VECTOR_INDEX, NULL, us_index_write },
    { R_GA_US_VECTOR_DATA, R_GA_US_VECTOR_DATA, NULL, us_data_write },
    { R_US_ALU_RGB_ADDR, R500_REGA_AT(US_CMN_INST, R500_US_INSTS - 1),
      us_inst_read, us_inst_write },
    { 0 }
};

static void us_reset(R500Chip *s)
{
    R500Us *u = &s->us;

    memset(u->inst, 0, sizeof(u->inst));
    memset(u->consts, 0, sizeof(u->consts));
    u->upload_dword = 0;
    u->logged &= ~R500_US_LOG_UPLOAD_OVERRUN;
    u->prog.valid = false;
    u->code_dirty = true;
}

static void us_post_load(R500Chip *s)
{
    /* R500_US_INST_DWORDS itself: an upload that ran past the store */
    if (s->us.upload_dword > R500_US_INST_DWORDS) {
        s->us.upload_dword %= R500_US_INST_DWORDS;
    }
    s->us.prog.valid = false;
    s->us.code_dirty = true;
}

const R500Block r500_us_block = {
    .name = "us",
    .hooks = us_hooks,
    .reset = us_reset,
    .post_load = us_post_load,
};
