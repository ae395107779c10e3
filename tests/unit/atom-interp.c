/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ATOM bytecode interpreter for the tests (see atom-interp.h).  Opcode
 * numbers, operand encodings and the semantics of each instruction are
 * those of ../shared/reference/atombios-rom.md section 2.
 */
#include <glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "atom-interp.h"

enum { ARG_REG, ARG_PS, ARG_WS, ARG_FB, ARG_ID, ARG_IMM, ARG_PLL, ARG_MC };

/* Field selectors: mask and shift of the field, immediate width. */
static const uint32_t sel_mask[8] = {
    0xFFFFFFFF, 0xFFFF, 0xFFFF00, 0xFFFF0000, 0xFF, 0xFF00, 0xFF0000,
    0xFF000000,
};
static const unsigned sel_shift[8] = { 0, 0, 8, 16, 0, 8, 16, 24 };
static const unsigned sel_bytes[8] = { 4, 2, 2, 2, 1, 1, 1, 1 };
/* Destination field from (source selector, attr bits 7:6). */
static const int dst_to_src[8][4] = {
    { 0, 0, 0, 0 }, { 1, 2, 3, 0 }, { 1, 2, 3, 0 }, { 1, 2, 3, 0 },
    { 4, 5, 6, 7 }, { 4, 5, 6, 7 }, { 4, 5, 6, 7 }, { 4, 5, 6, 7 },
};
/* SHIFT_LEFT/RIGHT and CLEAR: the field is the selector's own. */
static const int def_dst[8] = { 0, 0, 1, 2, 0, 1, 2, 3 };
/* Destination kinds of the six-opcode families, in opcode order. */
static const int family_kind[6] = {
    ARG_REG, ARG_PS, ARG_WS, ARG_FB, ARG_PLL, ARG_MC,
};

enum {
    WS_QUOTIENT = 0x40, WS_REMAINDER, WS_DATAPTR, WS_SHIFT, WS_OR_MASK,
    WS_AND_MASK, WS_FB_WINDOW, WS_ATTRIBUTES, WS_REGPTR,
};

#define ATOM_CASE_MAGIC 0x63
#define ATOM_CASE_END   0x5A5A
#define ATOM_MAX_DEPTH  8
#define ATOM_IIO_MAX    256         /* operations per IIO program run */

/* One table invocation (Linux atom_exec_context). */
typedef struct Frame {
    AtomInterp *a;
    uint32_t start, end;          /* ROM offsets of the table */
    uint8_t *ps;
    size_t ps_len;                /* bytes of PS from ps to the caller's end */
    unsigned ps_decl;             /* header: bytes, offsets nested calls */
    uint32_t *ws;
    unsigned ws_n;                /* usable workspace dwords */
    uint32_t ip;
    bool eot;
} Frame;

/* Where a destination operand lives, to write it back. */
typedef struct Loc {
    int kind;
    uint32_t idx;
} Loc;

static bool failed(AtomInterp *a)
{
    return a->error[0] != 0;
}

static void G_GNUC_PRINTF(2, 3) fail(AtomInterp *a, const char *fmt, ...)
{
    va_list ap;

    if (failed(a)) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(a->error, sizeof(a->error), fmt, ap);
    va_end(ap);
}

/* ---- ROM and stream access (bounds-checked) ---- */

static uint32_t rom_get(AtomInterp *a, uint32_t off, unsigned n)
{
    uint32_t v = 0;

    if (off > a->rom_len || n > a->rom_len - off) {
        fail(a, "ROM read of %u bytes at 0x%x outside the %zu-byte ROM", n,
             off, a->rom_len);
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)a->rom[off + i] << (8 * i);
    }
    return v;
}

uint16_t atom_cmd_offset(const AtomInterp *a, unsigned index)
{
    return index < ATOM_CMD_COUNT ?
        rom_get((AtomInterp *)a, a->cmd_table + 4 + 2 * index, 2) : 0;
}

uint16_t atom_data_offset(const AtomInterp *a, unsigned index)
{
    return index < ATOM_DATA_COUNT ?
        rom_get((AtomInterp *)a, a->data_table + 4 + 2 * index, 2) : 0;
}

static uint32_t fetch(Frame *f, unsigned n)
{
    if (f->ip + n > f->end) {
        fail(f->a, "instruction at 0x%x runs past the table end 0x%x",
             f->ip, f->end);
        f->ip = f->end;
        return 0;
    }
    f->ip += n;
    return rom_get(f->a, f->ip - n, n);
}

/* ---- Indirect I/O programs (data table IndirectIOAccess) ---- */

static uint32_t iio_run(AtomInterp *a, int id, uint32_t index, uint32_t data)
{
    uint32_t p = a->iio[id & 0xFF], temp = 0xCDCDCDCD;

    if (!p) {
        fail(a, "indirect I/O program %d is not defined", id);
        return 0;
    }
    for (int n = 0; n < ATOM_IIO_MAX && !failed(a); n++) {
        uint8_t op = rom_get(a, p, 1);
        uint32_t width = 0, s1 = 0, s2 = 0, m;

        if (op >= 4 && op <= 8) {
            width = rom_get(a, p + 1, 1);
            s1 = rom_get(a, p + 2, 1);
            s2 = op >= 6 ? rom_get(a, p + 3, 1) : 0;
        }
        m = width >= 32 ? 0xFFFFFFFF : (1u << width) - 1;
        s1 &= 31;
        s2 &= 31;
        switch (op) {
        case 0: /* NOP */
            p += 1;
            break;
        case 2: /* READ port */
            temp = a->bus->io_read(a->bus->opaque, rom_get(a, p + 1, 2));
            p += 3;
            break;
        case 3: /* WRITE port: RV515-era Linux reads the port first */
            (void)a->bus->io_read(a->bus->opaque, rom_get(a, p + 1, 2));
            a->bus->io_write(a->bus->opaque, rom_get(a, p + 1, 2), temp);
            p += 3;
            break;
        case 4: /* CLEAR width, shift */
            temp &= ~(m << s1);
            p += 3;
            break;
        case 5: /* SET width, shift */
            temp |= m << s1;
            p += 3;
            break;
        case 6: /* MOVE_INDEX width, from, to */
        case 7: /* MOVE_ATTR */
        case 8: /* MOVE_DATA */ {
            uint32_t src = op == 6 ? index : op == 7 ? a->io_attr : data;
            temp &= ~(m << s2);
            temp |= ((src >> s1) & m) << s2;
            p += 4;
            break;
        }
        case 9: /* END */
            return temp;
        default:
            fail(a, "unknown indirect I/O operation %u at 0x%x", op, p);
            return 0;
        }
    }
    fail(a, "indirect I/O program %d does not end", id);
    return 0;
}

/* ---- Operands ---- */

static uint32_t reg_read(AtomInterp *a, uint32_t idx)
{
    if (a->io_mode == 0) {
        return a->bus->reg_read(a->bus->opaque, idx);
    }
    return iio_run(a, a->io_mode & 0x7F, idx, 0);
}

static void reg_write(AtomInterp *a, uint32_t idx, uint32_t val)
{
    if (a->io_mode == 0) {
        /* Linux: MM_INDEX takes a dword index from ATOM code. */
        a->bus->reg_write(a->bus->opaque, idx, idx == 0 ? val << 2 : val);
    } else {
        iio_run(a, (a->io_mode & 0x7F) | 0x80, idx, val);
    }
}

static uint32_t *ps_slot(Frame *f, uint32_t idx)
{
    if ((uint64_t)idx * 4 + 4 > f->ps_len) {
        fail(f->a, "PS[%u] beyond the %zu bytes the caller passed", idx,
             f->ps_len);
        return NULL;
    }
    return (uint32_t *)(f->ps + idx * 4);
}

static uint32_t *ws_slot(Frame *f, uint32_t idx)
{
    if (idx >= f->ws_n) {
        fail(f->a, "WS[%u] beyond the declared workspace (%u dwords)", idx,
             f->ws_n);
        return NULL;
    }
    return &f->ws[idx];
}

static uint32_t *fb_slot(Frame *f, uint32_t idx)
{
    uint64_t slot = f->a->fb_base / 4 + (uint64_t)idx;

    if (slot >= G_N_ELEMENTS(f->a->scratch)) {
        fail(f->a, "FB[%u] outside the firmware scratch", idx);
        return NULL;
    }
    return &f->a->scratch[slot];
}

static uint32_t ws_special_read(AtomInterp *a, uint32_t idx)
{
    switch (idx) {
    case WS_QUOTIENT:
        return a->divmul[0];
    case WS_REMAINDER:
        return a->divmul[1];
    case WS_DATAPTR:
        return a->data_block;
    case WS_SHIFT:
        return a->shift;
    case WS_OR_MASK:
        return 1u << (a->shift & 31);
    case WS_AND_MASK:
        return ~(1u << (a->shift & 31));
    case WS_FB_WINDOW:
        return a->fb_base;
    case WS_ATTRIBUTES:
        return a->io_attr;
    default:
        return a->reg_block;
    }
}

static void ws_special_write(AtomInterp *a, uint32_t idx, uint32_t val)
{
    switch (idx) {
    case WS_QUOTIENT:
        a->divmul[0] = val;
        break;
    case WS_REMAINDER:
        a->divmul[1] = val;
        break;
    case WS_DATAPTR:
        a->data_block = val;
        break;
    case WS_SHIFT:
        a->shift = val;
        break;
    case WS_FB_WINDOW:
        a->fb_base = val;
        break;
    case WS_ATTRIBUTES:
        a->io_attr = val;
        break;
    case WS_REGPTR:
        a->reg_block = val;
        break;
    default:    /* OR/AND masks: read only */
        break;
    }
}

/* Read the location's whole dword. */
static uint32_t loc_read(Frame *f, const Loc *l)
{
    AtomInterp *a = f->a;
    uint32_t *p;

    switch (l->kind) {
    case ARG_REG:
        return reg_read(a, l->idx);
    case ARG_PS:
        p = ps_slot(f, l->idx);
        return p ? GUINT32_FROM_LE(*p) : 0;
    case ARG_WS:
        if (l->idx >= WS_QUOTIENT && l->idx <= WS_REGPTR) {
            return ws_special_read(a, l->idx);
        }
        p = ws_slot(f, l->idx);
        return p ? *p : 0;
    case ARG_FB:
        p = fb_slot(f, l->idx);
        return p ? *p : 0;
    case ARG_ID:
        return rom_get(a, l->idx, 4);
    case ARG_PLL:
        return a->bus->pll_read(a->bus->opaque, l->idx);
    case ARG_MC:
        return a->bus->mc_read(a->bus->opaque, l->idx);
    }
    return 0;
}

static void loc_write(Frame *f, const Loc *l, uint32_t val)
{
    AtomInterp *a = f->a;
    uint32_t *p;

    switch (l->kind) {
    case ARG_REG:
        reg_write(a, l->idx, val);
        break;
    case ARG_PS:
        p = ps_slot(f, l->idx);
        if (p) {
            *p = GUINT32_TO_LE(val);
        }
        break;
    case ARG_WS:
        if (l->idx >= WS_QUOTIENT && l->idx <= WS_REGPTR) {
            ws_special_write(a, l->idx, val);
        } else if ((p = ws_slot(f, l->idx))) {
            *p = val;
        }
        break;
    case ARG_FB:
        if ((p = fb_slot(f, l->idx))) {
            *p = val;
        }
        break;
    case ARG_PLL:
        a->bus->pll_write(a->bus->opaque, l->idx, val);
        break;
    case ARG_MC:
        a->bus->mc_write(a->bus->opaque, l->idx, val);
        break;
    default:
        fail(a, "write to a read-only operand kind %d", l->kind);
    }
}

/* Decode an operand's location (REG and ID include their base). */
static Loc decode_loc(Frame *f, int kind)
{
    Loc l = { kind, 0 };

    switch (kind) {
    case ARG_REG:
        l.idx = fetch(f, 2) + f->a->reg_block;
        break;
    case ARG_ID:
        l.idx = fetch(f, 2) + f->a->data_block;
        break;
    case ARG_IMM:
        break;
    default:
        l.idx = fetch(f, 1);
    }
    return l;
}

/* A source operand: whole value in *saved, field value returned.
 * Immediates are used as they are (Linux atom_get_src_int). */
static uint32_t get_src(Frame *f, int kind, int sel, uint32_t *saved)
{
    Loc l;
    uint32_t v;

    if (kind == ARG_IMM) {
        v = fetch(f, sel_bytes[sel]);
        if (saved) {
            *saved = v;
        }
        return v;
    }
    l = decode_loc(f, kind);
    v = failed(f->a) ? 0 : loc_read(f, &l);
    if (saved) {
        *saved = v;
    }
    return (v & sel_mask[sel]) >> sel_shift[sel];
}

/* Merge the field value into saved and write the destination back. */
static void put_dst(Frame *f, const Loc *l, int align, uint32_t val,
                    uint32_t saved)
{
    val = (val << sel_shift[align]) & sel_mask[align];
    loc_write(f, l, (saved & ~sel_mask[align]) | val);
}

/* ---- Instructions ---- */

static int attr_dst_align(uint8_t attr)
{
    return dst_to_src[(attr >> 3) & 7][(attr >> 6) & 3];
}

/* MOVE, AND, OR, ADD, SUB, XOR, SHL, SHR: dst <- dst op src. */
static void op_alu(Frame *f, int kind, char op)
{
    uint8_t attr = fetch(f, 1);
    int align = attr_dst_align(attr);
    uint32_t saved = 0, dst = 0, src;
    Loc l;

    l = decode_loc(f, kind);
    if (op != 'm' || ((attr >> 3) & 7) != 0) {
        /* Every instruction but a dword MOVE reads its destination. */
        saved = failed(f->a) ? 0 : loc_read(f, &l);
        dst = (saved & sel_mask[align]) >> sel_shift[align];
    }
    src = get_src(f, attr & 7, (attr >> 3) & 7, NULL);
    switch (op) {
    case 'm': dst = src; break;
    case '&': dst &= src; break;
    case '|': dst |= src; break;
    case '+': dst += src; break;
    case '-': dst -= src; break;
    case '^': dst ^= src; break;
    case '<': dst = src >= 32 ? 0 : dst << src; break;
    case '>': dst = src >= 32 ? 0 : dst >> src; break;
    }
    if (!failed(f->a)) {
        put_dst(f, &l, align, dst, saved);
    }
}

/* SHIFT_LEFT, SHIFT_RIGHT (by an immediate byte) and CLEAR. */
static void op_field(Frame *f, int kind, char op)
{
    uint8_t attr = fetch(f, 1);
    int sel = (attr >> 3) & 7;
    int align = dst_to_src[sel][def_dst[sel]];
    uint32_t saved, dst, n = 0;
    Loc l = decode_loc(f, kind);

    saved = failed(f->a) ? 0 : loc_read(f, &l);
    dst = (saved & sel_mask[align]) >> sel_shift[align];
    if (op != 'c') {
        n = fetch(f, 1);
    }
    if (op == 'c') {
        dst = 0;
    } else if (op == '<') {
        dst = n >= 32 ? 0 : dst << n;
    } else {
        dst = n >= 32 ? 0 : dst >> n;
    }
    if (!failed(f->a)) {
        put_dst(f, &l, align, dst, saved);
    }
}

/* COMPARE, TEST, MUL, DIV: read two operands, write no operand. */
static void op_operands(Frame *f, int kind, char op)
{
    uint8_t attr = fetch(f, 1);
    int align = attr_dst_align(attr);
    uint32_t a1 = get_src(f, kind, align, NULL);
    uint32_t a2 = get_src(f, attr & 7, (attr >> 3) & 7, NULL);
    AtomInterp *a = f->a;

    switch (op) {
    case '=':
        a->cs_equal = a1 == a2;
        a->cs_above = a1 > a2;
        break;
    case 't':
        a->cs_equal = (a1 & a2) == 0;
        break;
    case '*':
        a->divmul[0] = a1 * a2;
        break;
    case '/':
        a->divmul[0] = a2 ? a1 / a2 : 0;
        a->divmul[1] = a2 ? a1 % a2 : 0;
        break;
    }
}

static void op_mask(Frame *f, int kind)
{
    uint8_t attr = fetch(f, 1);
    int sel = (attr >> 3) & 7, align = attr_dst_align(attr);
    Loc l = decode_loc(f, kind);
    uint32_t saved = failed(f->a) ? 0 : loc_read(f, &l);
    uint32_t dst = (saved & sel_mask[align]) >> sel_shift[align];
    uint32_t mask = fetch(f, sel_bytes[sel]);
    uint32_t src = get_src(f, attr & 7, sel, NULL);

    if (!failed(f->a)) {
        put_dst(f, &l, align, (dst & mask) | src, saved);
    }
}

static void op_jump(Frame *f, uint8_t op)
{
    AtomInterp *a = f->a;
    uint32_t target = fetch(f, 2);
    bool take;

    switch (op) {
    case 0x43: take = true; break;
    case 0x44: take = a->cs_equal; break;
    case 0x45: take = !a->cs_above && !a->cs_equal; break;
    case 0x46: take = a->cs_above; break;
    case 0x47: take = !a->cs_above; break;
    case 0x48: take = a->cs_above || a->cs_equal; break;
    default:   take = !a->cs_equal; break;
    }
    if (take) {
        f->ip = f->start + target;
    }
}

static void op_switch(Frame *f)
{
    uint8_t attr = fetch(f, 1);
    int sel = (attr >> 3) & 7;
    uint32_t v = get_src(f, attr & 7, sel, NULL);

    while (!failed(f->a) && rom_get(f->a, f->ip, 2) != ATOM_CASE_END) {
        uint32_t val, target;

        if (fetch(f, 1) != ATOM_CASE_MAGIC) {
            fail(f->a, "SWITCH: bad case marker at 0x%x", f->ip - 1);
            return;
        }
        val = fetch(f, sel_bytes[sel]);
        target = fetch(f, 2);
        if (val == v) {
            f->ip = f->start + target;
            return;
        }
    }
    fetch(f, 2);
}

static bool execute_locked(AtomInterp *a, unsigned index, uint8_t *ps,
                           size_t ps_len);

static void op_call(Frame *f)
{
    unsigned idx = fetch(f, 1);
    size_t skip = f->ps_decl / 4 * 4;

    if (failed(f->a) || !atom_cmd_offset(f->a, idx)) {
        return;                 /* Linux skips absent tables silently */
    }
    if (skip > f->ps_len) {
        fail(f->a, "CALL_TABLE %u: caller's PS (%u bytes) is larger than "
             "what was passed", idx, f->ps_decl);
        return;
    }
    execute_locked(f->a, idx, f->ps + skip, f->ps_len - skip);
}

/* One instruction; false at EOT, at the end of the table or on error. */
static bool step(Frame *f)
{
    AtomInterp *a = f->a;
    uint32_t at = f->ip;
    uint8_t op = fetch(f, 1);

    if (failed(a)) {
        return false;
    }
    if (a->budget == 0) {
        fail(a, "instruction budget exhausted at 0x%x (a loop that does "
             "not end?)", at);
        return false;
    }
    a->budget--;
    a->stats.insns++;
    if (op >= 0x01 && op <= 0x36) {
        static const char alu[] = "m&|<>*/+-";
        int fam = (op - 1) / 6, kind = family_kind[(op - 1) % 6];
        char c = alu[fam];

        if (c == '<' || c == '>') {
            op_field(f, kind, c);
        } else if (c == '*' || c == '/') {
            op_operands(f, kind, c);
        } else {
            op_alu(f, kind, c);
        }
    } else if (op >= 0x3C && op <= 0x41) {
        op_operands(f, family_kind[op - 0x3C], '=');
    } else if (op >= 0x4A && op <= 0x4F) {
        op_operands(f, family_kind[op - 0x4A], 't');
    } else if (op >= 0x54 && op <= 0x59) {
        op_field(f, family_kind[op - 0x54], 'c');
    } else if (op >= 0x5C && op <= 0x61) {
        op_mask(f, family_kind[op - 0x5C]);
    } else if (op >= 0x67 && op <= 0x6C) {
        op_alu(f, family_kind[op - 0x67], '^');
    } else if (op >= 0x43 && op <= 0x49) {
        op_jump(f, op);
    } else {
        switch (op) {
        case 0x37: { /* SET_ATI_PORT */
            uint32_t port = fetch(f, 2);
            a->io_mode = port ? 0x80 | (port & 0x7F) : 0;
            break;
        }
        case 0x3A: /* SET_REG_BLOCK */
            a->reg_block = fetch(f, 2);
            break;
        case 0x3B: { /* SET_FB_BASE */
            uint8_t attr = fetch(f, 1);
            a->fb_base = get_src(f, attr & 7, (attr >> 3) & 7, NULL);
            break;
        }
        case 0x42:
            op_switch(f);
            break;
        case 0x50:
        case 0x51: { /* DELAY_MILLISEC, DELAY_MICROSEC */
            unsigned us = fetch(f, 1) * (op == 0x50 ? 1000 : 1);
            a->bus->delay_us(a->bus->opaque, us);
            a->stats.delay_us += us;
            break;
        }
        case 0x52:
            op_call(f);
            break;
        case 0x5A: /* NOP */
            break;
        case 0x5B: /* EOT */
            f->eot = true;
            return false;
        case 0x62: /* POST_CARD */
            fetch(f, 1);
            break;
        case 0x66: { /* SET_DATA_BLOCK */
            unsigned n = fetch(f, 1);
            a->data_block = n == 0 ? 0 : n == 255 ? f->start :
                atom_data_offset(a, n);
            break;
        }
        default:
            /* REPEAT, SAVE_REG, RESTORE_REG, DEBUG: Linux prints and does
             * not consume operands; 0x38/0x39: I/O modes Linux lacks;
             * 0x7A: NULL handler; 0 and >= 0x7B end the table silently;
             * SHL/SHR (0x6D-0x78) changed meaning between Linux versions
             * (field or whole register shifted), so the tables avoid them. */
            fail(a, "opcode 0x%02x at 0x%x: not something Linux executes",
                 op, at);
            return false;
        }
    }
    return !failed(a) && f->ip < f->end;
}

static bool execute_locked(AtomInterp *a, unsigned index, uint8_t *ps,
                           size_t ps_len)
{
    Frame f = { .a = a, .ps = ps, .ps_len = ps_len };
    uint32_t base = atom_cmd_offset(a, index);
    unsigned size, ws;

    if (!base) {
        fail(a, "command table 0x%02x is absent", index);
        return false;
    }
    if (++a->depth > ATOM_MAX_DEPTH) {
        fail(a, "CALL_TABLE nests deeper than %d", ATOM_MAX_DEPTH);
        a->depth--;
        return false;
    }
    a->stats.calls++;
    size = rom_get(a, base, 2);
    ws = rom_get(a, base + 4, 1);
    f.ps_decl = rom_get(a, base + 5, 1) & 0x7F;
    f.start = base;
    f.end = base + size;
    f.ip = base + 6;
    /* Linux allocates ws dwords; AMD's parser ws bytes: use the smaller. */
    f.ws_n = ws / 4;
    f.ws = g_new0(uint32_t, MAX(ws, 1));
    if (f.end > a->rom_len) {
        fail(a, "command table 0x%02x ends outside the ROM", index);
    }
    while (!failed(a) && step(&f)) {
        continue;
    }
    if (!failed(a) && !f.eot) {
        fail(a, "command table 0x%02x ran off its end without EOT", index);
    }
    g_free(f.ws);
    a->depth--;
    return !failed(a);
}

bool atom_execute(AtomInterp *a, unsigned index, void *params,
                  size_t params_size)
{
    a->error[0] = 0;
    a->reg_block = 0;
    a->fb_base = 0;
    a->io_mode = 0;
    a->data_block = 0;          /* Linux 6.1 resets these two as well */
    a->divmul[0] = a->divmul[1] = 0;
    a->depth = 0;
    a->budget = 1000000;
    return execute_locked(a, index, params, params_size);
}

bool atom_interp_init(AtomInterp *a, const uint8_t *rom, size_t rom_len,
                      const AtomBus *bus, char **err)
{
    uint32_t hdr, base;

    memset(a, 0, sizeof(*a));
    a->rom = rom;
    a->rom_len = rom_len;
    a->bus = bus;
    if (rom_len < 0x4A || rom[0] != 0x55 || rom[1] != 0xAA) {
        *err = g_strdup("no 55 AA signature");
        return false;
    }
    if (memcmp(rom + 0x30, " 761295520", 10)) {
        *err = g_strdup("no ATI magic at 0x30");
        return false;
    }
    hdr = rom_get(a, 0x48, 2);
    if (hdr + 0x24 > rom_len || memcmp(rom + hdr + 4, "ATOM", 4)) {
        *err = g_strdup("no ATOM_ROM_HEADER at the offset in 0x48");
        return false;
    }
    a->cmd_table = rom_get(a, hdr + 0x1E, 2);
    a->data_table = rom_get(a, hdr + 0x20, 2);
    /* atom_index_iio(): programs from IndirectIOAccess + 4. */
    base = atom_data_offset(a, ATOM_DATA_IIO) + 4;
    for (int n = 0; n < 256 && rom_get(a, base, 1) == 1; n++) {
        static const unsigned len[] = { 1, 2, 3, 3, 3, 3, 4, 4, 4, 3 };

        a->iio[rom_get(a, base + 1, 1)] = base + 2;
        base += 2;
        while (!failed(a) && rom_get(a, base, 1) != 9) {
            uint8_t op = rom_get(a, base, 1);
            base += op < G_N_ELEMENTS(len) ? len[op] : 1;
        }
        base += 3;
    }
    if (failed(a)) {
        *err = g_strdup(a->error);
        return false;
    }
    return true;
}

unsigned atom_insn_length(const AtomInterp *a, uint32_t pos, uint32_t end)
{
    static const unsigned kind_bytes[8] = { 2, 1, 1, 1, 2, 0, 1, 1 };
    AtomInterp *m = (AtomInterp *)a;
    uint32_t p = pos + 1;
    uint8_t op = rom_get(m, pos, 1), attr;
    unsigned sel;

#define OPND(kind, sel) ((kind) == ARG_IMM ? sel_bytes[sel] : kind_bytes[kind])
    if ((op >= 0x01 && op <= 0x36) || (op >= 0x3C && op <= 0x41) ||
        (op >= 0x4A && op <= 0x4F) || (op >= 0x54 && op <= 0x59) ||
        (op >= 0x5C && op <= 0x61) ||
        (op >= 0x67 && op <= 0x78)) {
        bool mask = op >= 0x5C && op <= 0x61;
        bool clear = op >= 0x54 && op <= 0x59;
        bool shift = op >= 0x13 && op <= 0x1E;
        int base = op <= 0x36 ? 0x01 : op <= 0x41 ? 0x3C : op <= 0x4F ? 0x4A :
                   op <= 0x59 ? 0x54 : op <= 0x61 ? 0x5C : 0x67;

        attr = rom_get(m, p++, 1);
        sel = (attr >> 3) & 7;
        p += kind_bytes[family_kind[(op - base) % 6]];
        if (shift) {
            p += 1;
        } else if (mask) {
            p += sel_bytes[sel] + OPND(attr & 7, sel);
        } else if (!clear) {
            p += OPND(attr & 7, sel);
        }
    } else if (op >= 0x43 && op <= 0x49) {
        p += 2;
    } else if (op == 0x37 || op == 0x3A) {
        p += 2;
    } else if (op == 0x50 || op == 0x51 || op == 0x52 || op == 0x62 ||
               op == 0x66) {
        p += 1;
    } else if (op == 0x3B) {
        attr = rom_get(m, p++, 1);
        p += OPND(attr & 7, (attr >> 3) & 7);
    } else if (op == 0x42) {
        attr = rom_get(m, p++, 1);
        sel = (attr >> 3) & 7;
        p += OPND(attr & 7, sel);
        while (p + 2 <= end && rom_get(m, p, 2) != ATOM_CASE_END) {
            if (rom_get(m, p, 1) != ATOM_CASE_MAGIC) {
                return 0;
            }
            p += 1 + sel_bytes[sel] + 2;
        }
        p += 2;
    } else if (op != 0x5A && op != 0x5B) {
        return 0;
    }
#undef OPND
    return p <= end ? p - pos : 0;
}
