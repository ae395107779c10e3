/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bottom of the chip core (docs/architecture.md): the register file
 * (base/regfile.c), the host's log and the one report-once mechanism, the
 * interrupt line and the request to run (base/log.c), the interrupt block
 * (base/irq.c).  Every block may call these; they call no block but
 * through the block table's hooks.  Included by r500.h after R500Chip.
 */
#ifndef HW_R500_BASE_BASE_H
#define HW_R500_BASE_BASE_H

/* MMIO (BAR2) and I/O BAR accesses: any size 1..8, any alignment. */
uint64_t r500_mmio_read(R500Chip *s, uint64_t addr, unsigned size);
void r500_mmio_write(R500Chip *s, uint64_t addr, uint64_t val, unsigned size);

/*
 * The one register path: MMIO, MM_INDEX/MM_DATA, PM4 type-0 packets and
 * AtomBIOS tables all end here.  reg is a byte offset; mask selects byte
 * lanes.
 */
uint32_t r500_reg_read(R500Chip *s, uint32_t reg);
void r500_reg_write_mask(R500Chip *s, uint32_t reg, uint32_t val,
                         uint32_t mask);
static inline void r500_reg_write(R500Chip *s, uint32_t reg, uint32_t val)
{
    r500_reg_write_mask(s, reg, val, 0xFFFFFFFFu);
}

/* Indirect spaces, as reached through their index/data ports. */
uint32_t r500_pll_read(R500Chip *s, uint32_t index);
void r500_pll_write(R500Chip *s, uint32_t index, uint32_t val);
uint32_t r500_mc_read(R500Chip *s, uint32_t index);
void r500_mc_write(R500Chip *s, uint32_t index, uint32_t val);
uint32_t r500_pcie_read(R500Chip *s, uint32_t index);
void r500_pcie_write(R500Chip *s, uint32_t index, uint32_t val);

/* Logical MC register of this chip's map (see mc_regs.def). */
uint32_t *r500_mc_reg(R500Chip *s, R500McReg reg);

/* Ask the host to call r500_run() soon (new work for some block). */
void r500_kick(R500Chip *s);

/* Logging for the engines (printf-style; one line each). */
void r500_log(R500Chip *s, R500LogKind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define r500_guest_error(s, ...) r500_log((s), R500_LOG_GUEST_ERROR, __VA_ARGS__)
#define r500_unimp(s, ...)       r500_log((s), R500_LOG_UNIMP, __VA_ARGS__)

/* A trace point: cheap when the host traces nothing. */
static inline void r500_trace(R500Chip *s, R500TraceEvent ev, uint64_t a,
                              uint64_t b, uint64_t c, uint64_t d)
{
    if (s->ops->trace) {
        s->ops->trace(s->host, ev, a, b, c, d);
    }
}

/* The IRQ line was recomputed by the interrupt logic. */
void r500_set_irq(R500Chip *s, bool level);

/*
 * The host's value of setting name (R500HostOps.setting), NULL when
 * unset; as a number, dflt when unset or not a number.
 */
const char *r500_setting(R500Chip *s, const char *name);
unsigned r500_setting_uint(R500Chip *s, const char *name, unsigned dflt);
#define r500_note(s, ...)        r500_log((s), R500_LOG_NOTE, __VA_ARGS__)

/*
 * Report once: true the first time bit is set in *flags (atomic: the
 * soft renderer's workers report too).  The core's one mechanism for
 * reports that would otherwise repeat with every packet, draw or quad.
 */
bool r500_once(uint32_t *flags, uint32_t bit);

/* base/irq.c: recompute the line after any source or enable changed. */
void r500_irq_update(R500Chip *s);
/* base/irq.c: latch GEN_INT_STATUS bits (SW_INT, GUI_IDLE) and update. */
void r500_irq_raise(R500Chip *s, uint32_t gen_int_status_bits);

#endif
