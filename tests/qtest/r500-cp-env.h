/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A card brought up the way the Linux radeon driver does it, for the
 * qtests that drive the command processor (r500-cp-test, the liveness,
 * migration and bad-input tests): the GART table in VRAM, the ring, the
 * write-back page and IBs in GTT pages of guest RAM (scattered, so only
 * the GART finds them), r100_cp_init, and the driver's ring test, IB
 * test and fences (reference radeon-kms-r500.md 4.4, 5.2-5.8).
 */
#ifndef R500_CP_ENV_H
#define R500_CP_ENV_H

#include "r500-qtest.h"
#include "libqos/malloc-pc.h"
#include "qobject/qdict.h"
#include "standard-headers/linux/pci_regs.h"
#include "hw/r500/cp/pm4.h"

#define GTT_MC          0x10000000u /* after 256 MiB of VRAM */
#define GTT_PAGES       64u
#define TABLE_VRAM      0x00800000u /* GART table, VRAM offset = MC */
#define RING_MC         GTT_MC      /* 16 pages: 2^14 dwords */
#define RING_BUFSZ      13u
#define RING_DWORDS     (2u << RING_BUFSZ)
#define WB_MC           (GTT_MC + 16 * 4096)
#define IB_MC           (GTT_MC + 17 * 4096)
#define DATA_MC         (GTT_MC + 20 * 4096)


#define SW_INT          (1u << 25)
#define SW_INT_FIRE     (1u << 26)
#define GUI_ACTIVE      (1u << 31)

typedef struct CpEnv {
    R500Test t;
    const R500TestModel *m;
    QGuestAllocator alloc;
    uint64_t ram;       /* guest-physical base of the GTT pages */
    uint32_t wptr;
    uint32_t seq;
} CpEnv;

/* A register write for r500-driver-seq.h's sequences (opaque: R500Test). */
void cp_env_w(void *opaque, uint32_t reg, uint32_t val);
/* The guest-physical address of a GTT MC address; its dword. */
uint64_t gtt_phys(CpEnv *e, uint32_t mc);
void gtt_w(CpEnv *e, uint32_t mc, uint32_t v);
uint32_t gtt_r(CpEnv *e, uint32_t mc);
/* rv370_pcie_gart_enable with the table in VRAM, then the TLB flush. */
void gart_enable(CpEnv *e);
/* r100_cp_load_microcode and r100_cp_init. */
void cp_init(CpEnv *e);
/* Start QEMU (extra arguments may be NULL), GART and CP up; stop. */
void cp_env_start_args(CpEnv *e, const R500TestModel *m, const char *extra);
void cp_env_start(CpEnv *e, const R500TestModel *m);
/* A test's case: a model and QEMU's extra arguments (card-thread, ...). */
typedef struct CpEnvCase {
    const R500TestModel *m;
    const char *args;
} CpEnvCase;
void cp_env_stop(CpEnv *e);
/* One ring dword; radeon_ring_commit (pad to 16, publish CP_RB_WPTR). */
void cp_emit(CpEnv *e, uint32_t v);
void cp_commit(CpEnv *e);
/* Poll a register like the driver's usec_timeout loops (bounded). */
bool cp_poll_reg(CpEnv *e, uint32_t reg, uint32_t mask, uint32_t want);
bool cp_wait_idle(CpEnv *e);
/* The same for up to ms milliseconds: long 2D work, sanitized builds. */
bool cp_poll_reg_ms(CpEnv *e, uint32_t reg, uint32_t mask, uint32_t want,
                    int ms);
/* r100_ring_test, r300_fence_ring_emit, r100_ib_test. */
void cp_ring_test(CpEnv *e);
void cp_fence(CpEnv *e);
void cp_ib_test(CpEnv *e);
uint32_t cp_vram_r(CpEnv *e, uint32_t off);
/* rs600_asic_reset's CP part, then the MC, GART and CP set up again. */
void cp_gpu_reset(CpEnv *e);
/* An MC register's index in this model's map (mc_regs.def). */
uint32_t cp_mc_idx(CpEnv *e, R500McReg reg);
/* QMP answers query-status; the "status" of a query command's answer. */
bool r500_qmp_alive(CpEnv *e);
const char *r500_qmp_status(QTestState *qts, const char *cmd);

#endif
