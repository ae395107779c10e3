/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupt block: GEN_INT_CNTL / GEN_INT_STATUS and the line to the bus.
 *
 * Reference radeon-kms-r500.md 6: the software interrupt used by fences
 * (a CP write of SW_INT_FIRE latches SW_INT), the GUI-idle interrupt, and
 * DISPLAY_INT (bit 0), which summarises the display controller's sources
 * (vblank, HPD): any block's irq_pending().  Status bits are
 * write-one-to-clear; rs600_irq_ack writes back what it read.  The line is
 * a level: it drops as soon as nothing enabled is pending, so INTx never
 * fires without a reason the handler can see.
 */
#include <glib.h>

#include "../r500.h"
#include "../blocks.h"

/* Latched sources in GEN_INT_STATUS and their enables in GEN_INT_CNTL. */
#define GEN_INT_LATCHED (R500_FMASK(GEN_INT_STATUS, GUI_IDLE) | \
                         R500_FMASK(GEN_INT_STATUS, SW_INT))

static bool display_pending(R500Chip *s)
{
    for (unsigned b = 0; b < r500_num_blocks; b++) {
        if (r500_blocks[b]->irq_pending && r500_blocks[b]->irq_pending(s)) {
            return true;
        }
    }
    return false;
}

void r500_irq_update(R500Chip *s)
{
    uint32_t st = s->regs[R_GEN_INT_STATUS / 4] & GEN_INT_LATCHED;
    uint32_t en = s->regs[R_GEN_INT_CNTL / 4];

    r500_set_irq(s, (st & en) != 0 || display_pending(s));
}

/* Latch interrupt sources (traced: the fence and idle interrupts). */
static void irq_latch(R500Chip *s, uint32_t bits)
{
    s->regs[R_GEN_INT_STATUS / 4] |= bits & GEN_INT_LATCHED;
    r500_trace(s, R500_TRACE_IRQ, bits, s->regs[R_GEN_INT_STATUS / 4],
               s->regs[R_GEN_INT_CNTL / 4], 0);
}

void r500_irq_raise(R500Chip *s, uint32_t gen_int_status_bits)
{
    irq_latch(s, gen_int_status_bits);
    r500_irq_update(s);
}

static uint32_t gen_int_status_read(R500Chip *s, uint32_t reg)
{
    uint32_t v = s->regs[reg / 4] & GEN_INT_LATCHED;

    if (display_pending(s)) {
        v |= R500_FMASK(GEN_INT_STATUS, DISPLAY_INT);
    }
    return v;
}

static void gen_int_status_write(R500Chip *s, uint32_t reg, uint32_t old,
                                 uint32_t mask)
{
    uint32_t val = s->regs[reg / 4] & mask;
    uint32_t st = old & GEN_INT_LATCHED;

    st &= ~(val & GEN_INT_LATCHED);                 /* acknowledge */
    s->regs[reg / 4] = st;
    if (val & R500_FMASK(GEN_INT_STATUS, SW_INT_FIRE)) {
        irq_latch(s, R500_FMASK(GEN_INT_STATUS, SW_INT));  /* fence */
    }
    r500_irq_update(s);
}

static void gen_int_cntl_write(R500Chip *s, uint32_t reg, uint32_t old,
                               uint32_t mask)
{
    r500_irq_update(s);
}

/*
 * MSI_REARM_EN: radeon writes it after each handled interrupt when MSI is
 * on.  MSI is an edge; if a source is still pending, send another message
 * so it is not lost.
 */
static void msi_rearm_write(R500Chip *s, uint32_t reg, uint32_t old,
                            uint32_t mask)
{
    if (s->irq_level && s->ops->set_irq) {
        s->ops->set_irq(s->host, true);
    }
}

static const R500RegHook irq_hooks[] = {
    { R_GEN_INT_CNTL, R_GEN_INT_CNTL, NULL, gen_int_cntl_write },
    { R_GEN_INT_STATUS, R_GEN_INT_STATUS, gen_int_status_read,
      gen_int_status_write },
    { R_MSI_REARM_EN, R_MSI_REARM_EN, NULL, msi_rearm_write },
    { 0 }
};

static void irq_post_load(R500Chip *s)
{
    r500_irq_update(s);
}

const R500Block r500_irq_block = {
    .name = "irq",
    .hooks = irq_hooks,
    .post_load = irq_post_load,
};
