/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: sequences of register-BAR accesses of every size (1-8)
 * and alignment, with the indirect ports (MM_INDEX/MM_DATA, PLL, MC,
 * PCIE) reached as the driver reaches them, interleaved with guest RAM and
 * VRAM writes, chip runs (so a kicked CP executes what the input put in
 * RAM), clock steps, resets, and "migrations" that load arbitrary values
 * into the migrated state before post_load (r500_pci.c's vmstate: the
 * stream is validated, never trusted).
 *
 * Input: records, each an op byte then its operands (little endian):
 *   op & 7 = 0  write: size 1 + (op >> 3 & 7), addr u16, value (size bytes)
 *            1  read:  size as above, addr u16
 *            2  run:   1 + (op >> 3 & 7) slices
 *            3  clock: advance virtual time by u16 microseconds
 *            4  RAM:   bus offset u16 * 64, length u8, bytes
 *            5  VRAM:  offset u24, length u8, bytes (a BAR0 write)
 *            6  reset: r500_chip_reset()
 *            7  load:  field u8, value u32, then post_load
 *   op & 0x40 on a read or write: addr indexes the registers the table
 *   names (the .def tables) instead of being an offset, so the known registers
 *   are found without luck.
 * The first byte picks the model.
 */
#include "fuzz-host.h"

static uint32_t known[R500_NUM_REGS];
static unsigned num_known;
/* The 2D FIFO entry load_field()'s rb2d/fifo cases change (case 59). */
static unsigned fifo_sel;

static void init_known(void)
{
    if (num_known) {
        return;
    }
    for (uint32_t r = 0; r < R500_MMIO_SIZE; r += 4) {
        if (r500_reg_known(r)) {
            known[num_known++] = r;
        }
    }
}

/*
 * A migrated field set to a value from the stream: the fields of the
 * vmstate in hw/r500/qemu/r500_pci.c beyond the register arrays (those
 * the write ops reach).  A block that adds a vmstate subsection adds its
 * fields here.
 */
static void load_field(R500Chip *s, unsigned field, uint32_t v)
{
    R500Rb2dCmd *c = &s->rb2d.fifo[fifo_sel % R500_RB2D_FIFO_SIZE];
    R500CP *cp = &s->cp;
    R500HostBlit *hb = &s->rb2d.host;
    R500DispState *ds = &s->disp.st;
    R500CrtcState *cs = &ds->crtc[(v >> 24) % R500_NUM_CRTC];
    R500I2CSlave *i2c = &ds->ddc[(v >> 24) % R500_NUM_DDC];

    switch (field % 91) {
    case 0: cp->ib_active = v & 1; break;
    case 1: cp->ib_base = v; break;
    case 2: cp->ib_size = v; break;
    case 3: cp->ib_pos = v; break;
    case 4: cp->halted = v & 1; break;
    case 5: cp->draw_pending = v & 1; break;
    case 6: cp->draw_pending_opcode = v; break;
    case 7: cp->draw_pending_vf_cntl = v; break;
    case 8: cp->me_ram[v % G_N_ELEMENTS(cp->me_ram)] = v; break;
    case 9: s->rb2d.host_active = v & 1; break;
    case 10: hb->base = v; break;
    case 11: hb->pitch = v; break;
    case 12: hb->bpp = v; break;
    case 13: hb->x = v; break;
    case 14: hb->y = v; break;
    case 15: hb->w = v; break;
    case 16: hb->h = v; break;
    case 17: hb->cl = v; break;
    case 18: hb->ct = v; break;
    case 19: hb->cr = v; break;
    case 20: hb->cb = v; break;
    case 21: hb->rop = v; break;
    case 22: hb->mask = v; break;
    case 23: hb->fg = v; break;
    case 24: hb->bg = v; break;
    case 25: hb->src_type = v; break;
    case 26: hb->lsb_first = v & 1; break;
    case 27: hb->cx = v; break;
    case 28: hb->cy = v; break;
    case 29: s->regs[(v >> 16) % R500_NUM_REGS] = v; break;
    case 30: cp->resume = v; break;
    /* r500/disp: as r500_pci.c migrates it (epochs travel as ages) */
    case 31: cs->epoch_age_ns = (int32_t)v * 1000LL; break;
    case 32: cs->frame_base = v; break;
    case 33: cs->vblank_base = v; break;
    case 34: cs->vblank_acked = v; break;
    case 35: cs->flip_armed = v; break;
    case 36: cs->surface_addr = v; break;
    case 37: cs->flip_pending = v; break;
    case 38: cs->cursor[v % R500_CURSOR_REGS] = v; break;
    case 39: ds->lut[v & 1][(v >> 1) & 0xFF] = v; break;
    case 40: ds->lut_seq = v; break;
    case 41: ds->lut_seq_rgb = v; break;
    case 42: ds->hpd_int[v % R500_NUM_DDC] = v; break;
    case 43: i2c->state = v; i2c->next = v >> 8; break;
    case 44: i2c->nbits = v; i2c->shift = v >> 8; break;
    case 45: i2c->offset = v; i2c->segment = v >> 8; break;
    case 46: i2c->scl = v; i2c->sda = v >> 8; i2c->sda_out = v >> 16; break;
    /* r500/vap, r500/us, r500/rb3d */
    case 47: s->vap.pvs_mem[v % G_N_ELEMENTS(s->vap.pvs_mem)] = v; break;
    case 48: s->vap.pvs_dword = v; break;
    case 49: s->us.inst[v % G_N_ELEMENTS(s->us.inst)] = v; break;
    case 50: s->us.consts[v % G_N_ELEMENTS(s->us.consts)] = v; break;
    case 51: s->us.upload_dword = v; break;
    case 52: s->rb3d.zmask_ram[v % G_N_ELEMENTS(s->rb3d.zmask_ram)] = v; break;
    case 53: s->rb3d.hiz_ram[v % G_N_ELEMENTS(s->rb3d.hiz_ram)] = v; break;
    case 54: s->rb3d.cmask_ram[v % G_N_ELEMENTS(s->rb3d.cmask_ram)] = v; break;
    case 55: s->rb3d.zmask_cleared = v & 1; s->rb3d.zpass = v >> 1; break;
    /* r500/2d-fifo */
    case 56: s->rb2d.fifo_head = v; break;
    case 57: s->rb2d.fifo_count = v; break;
    case 58: s->rb2d.row = v; break;
    case 59: fifo_sel = v; break;
    case 60: c->kind = v; break;
    case 61: c->bpp = v; break;
    case 62: c->rop = v; break;
    case 63: c->mask = v; break;
    case 64: c->brush = v; break;
    case 65: c->fg = v; c->bg = ~v; break;
    case 66: c->pat[v & 1] = v; break;
    case 67: c->pat_x = v; c->pat_y = v >> 16; break;
    case 68: c->src_type = v; break;
    case 69:
        c->need_s = v & 1;
        c->need_d = v & 2;
        c->need_p = v & 4;
        c->lsb_first = v & 8;
        c->ttb = v & 16;
        c->last = v & 32;
        break;
    case 70: c->dst_base = v; break;
    case 71: c->dst_pitch = v; break;
    case 72: c->src_base = v; break;
    case 73: c->src_pitch = v; break;
    case 74: c->x = v; break;
    case 75: c->y = v; break;
    case 76: c->w = v; break;
    case 77: c->h = v; break;
    case 78: c->x0 = v; c->y0 = v >> 16; break;
    case 79: c->x1 = v; c->y1 = v >> 16; break;
    case 80: c->sx0 = v; break;
    case 81: c->sy0 = v; break;
    case 82: c->data = v; break;
    case 83: c->y1 = v; break;
    /* r500/3d-draw: a split draw's progress */
    case 84: s->vap.resume.active = v & 1; break;
    case 85: s->vap.resume.pos.prims = v; break;
    case 86: s->vap.resume.pos.sub = v; break;
    case 87: s->vap.resume.pos.y = v; s->vap.resume.pos.x = v >> 16; break;
    case 88: s->vap.resume.pvs_budget = (uint64_t)v << (v & 31); break;
    case 89: s->vap.resume.us_budget = (uint64_t)v << (v & 31); break;
    case 90: s->vap.resume.quad_budget = (uint64_t)v << (v & 31); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    R500Chip *s;

    init_known();
    fifo_sel = 0;
    s = fuzz_begin(h, fuzz_u8(&in));
    while (fuzz_more(&in)) {
        uint8_t op = fuzz_u8(&in);
        unsigned n = 1 + ((op >> 3) & 7);
        uint32_t addr;

        switch (op & 7) {
        case 0:
        case 1:
            addr = fuzz_take(&in, 2);
            if (op & 0x40) {
                addr = known[addr % num_known];
            }
            if (op & 1) {
                (void)r500_mmio_read(s, addr, n);
            } else {
                r500_mmio_write(s, addr, fuzz_take(&in, n), n);
            }
            break;
        case 2:
            fuzz_run(h, n);
            break;
        case 3:
            h->host.now += fuzz_take(&in, 2) * 1000;
            break;
        case 4:
        case 5: {
            uint64_t off = op & 1 ? fuzz_take(&in, 3) : fuzz_take(&in, 2) * 64;
            size_t len = fuzz_u8(&in);

            len = MIN(len, in.left);

            if (op & 1) {
                fuzz_vram_write(h, off, in.p, len);
            } else {
                fuzz_ram_write(h, off, in.p, len);
            }
            in.p += len;
            in.left -= len;
            break;
        }
        case 6:
            r500_chip_reset(s);
            break;
        case 7: {
            unsigned field = fuzz_u8(&in);

            load_field(s, field, fuzz_u32(&in));
            r500_chip_post_load(s);
            break;
        }
        }
    }
    /* Whatever the input started finishes (or yields) here. */
    fuzz_run(h, 4);
    fuzz_end(h);
    return 0;
}
