/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command processor: ring buffer, indirect buffers, PM4 decoding.
 *
 * ring.c     the CP registers, the ring and IB streams, the run loop and
 *            its budget, read-pointer write-back, soft reset;
 * pm4.h      the packet format and the type-3 opcodes (pm4_ops.def);
 * pm4_exec.c packet framing, type-0/1/2 packets;
 * packet3.c  type-3 packets: NOP, sync, the 2D CNTL_* packets (turned into
 *            2D register writes) and the 3D packets (handed to pipe/draw.h);
 * cp.c       the CP's services to its packets: scratch write-back, IB
 *            launch, stopping a packet half way, writes that wait.
 * Calls run ring.c -> pm4_exec.c -> packet3.c -> cp.c, never back.
 * docs/cp.md lists every packet and register and the execution model.
 */
#ifndef HW_R500_CP_CP_H
#define HW_R500_CP_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "../pipe/draw.h"
#include "pm4.h"

typedef struct R500Chip R500Chip;

/* A packet is a header and at most 2^14 payload dwords (pm4.h). */
#define R500_CP_PKT_MAX         (1u + R500_PM4_PAYLOAD_MAX)
/* Dwords fetched from a stream at once (one DMA per window). */
#define R500_CP_FETCH_DWORDS    1024u
/*
 * Work per slice, in budget units: one per dword consumed, plus what the
 * 3D pipeline reports (draw.h).  About 1 ms.  The 2D engine draws its
 * FIFO in slices of the same budget (rb2d.c row_cost()).
 */
#define R500_CP_SLICE_BUDGET    (1u << 17)
/* Largest ring: RB_BUFSZ 22, 2^23 dwords (32 MiB). */
#define R500_CP_RB_BUFSZ_MAX    22u
/* Microcode RAM: 256 entries of DATAH:DATAL (R520_cp.bin is 2 KiB). */
#define R500_CP_ME_RAM_ENTRIES  256u

typedef struct R500CPStats {
    uint64_t type0, type0_regs, type1, type2;
    uint64_t type3[256];
    uint64_t ibs;
    uint64_t slices;
    uint64_t dwords;
    uint64_t waits;          /* slices that ended waiting for the 2D engine */
    uint64_t errors;
} R500CPStats;

typedef struct R500CP {
    /* ---- Migrated ("r500/cp" subsection in r500_pci.c) ---- */
    uint32_t me_ram[R500_CP_ME_RAM_ENTRIES * 2];   /* DATAH, DATAL pairs */
    bool ib_active;          /* executing the indirect buffer below */
    uint32_t ib_base;        /* MC address */
    uint32_t ib_size;        /* dwords */
    uint32_t ib_pos;         /* dwords consumed */
    bool halted;             /* stopped on a stream error until soft reset */
    bool draw_pending;       /* 3D_DRAW_INDX_2 waiting for INDX_BUFFER */
    uint32_t draw_pending_opcode;
    uint32_t draw_pending_vf_cntl;
    /*
     * A packet that ran out of slice budget half way: the item (register
     * write, rectangle) it resumes at when it is fetched again ("r500/cp/
     * packet" subsection).  0: packets start from the beginning.
     */
    uint32_t resume;

    /* ---- Not migrated ---- */
    uint32_t epoch;          /* bumped by every CP reset: stops a slice */
    bool stream_write;       /* a register write comes from the stream */
    uint32_t rptr_wb;        /* last read pointer written back */
    bool rptr_wb_valid;
    bool fetch_ib;           /* the window holds IB (else ring) dwords */
    uint32_t fetch_pos, fetch_len;
    uint64_t cost;           /* extra budget units charged by handlers */
    bool in_slice;           /* executing packets from cp_run() */
    bool yielded;            /* the packet stopped at cp->resume */
    bool stalled;            /* ... to wait for the 2D engine */
    uint64_t slice_used;     /* budget units of the slice's earlier packets */
    uint32_t fetch[R500_CP_FETCH_DWORDS];
    uint32_t pkt[R500_CP_PKT_MAX];   /* packets larger than the window */
    R500CPStats stats;
    R500DrawStats draw_stats;
    uint32_t op_logged[256 / 32];    /* type-3 opcodes reported once */
    uint32_t logged;                 /* R500_CP_LOG_*: reported once */
} R500CP;

/* The CP's reports made once (r500_once on R500CP.logged). */
enum {
    R500_CP_LOG_PIO = 1u << 0,       /* PIO modes, CP_CSQ_APER_* */
    R500_CP_LOG_IB_MMIO = 1u << 1,   /* CP_IB_BUFSZ written by MMIO */
    R500_CP_LOG_WAIT_CRTC = 1u << 2, /* WAIT_UNTIL's display conditions */
};

/* cp.c: the CP's services to its packets */
/* The stream wrote CP_IB_BUFSZ: launch the IB at CP_IB_BASE. */
void r500_cp_launch_ib(R500Chip *s, bool from_ib);
/* CP_CSQ_CNTL.CSQ_MODE; forget what was fetched ahead of the CP. */
uint32_t r500_cp_csq_mode(R500Chip *s);
void r500_cp_fetch_invalidate(R500Chip *s);
/* The stream wrote SCRATCH_REG[n]: mirror it to memory if enabled. */
void r500_cp_scratch_writeback(R500Chip *s, unsigned n, uint32_t val);
/* Log an unimplemented/unknown type-3 opcode once. */
void r500_cp_op_unimp(R500Chip *s, unsigned opcode, bool known);
/*
 * Inside a packet of several items (register writes, rectangles), after
 * item done - 1: when the slice's budget is spent or the 2D engine's
 * FIFO is full, remember done in cp->resume and return true; the handler
 * then stops, the packet stays in the stream and the next slice runs it
 * again from item done.  Packets whose every item costs work (a burst of
 * 2D triggers, a PAINT_MULTI of 8191 screens) so never hold the main loop
 * beyond the budget plus one item, and never overfill the 2D FIFO.  Never
 * yields outside cp_run() (MMIO) or after an IB launch.
 */
bool r500_cp_yield(R500Chip *s, uint32_t done);
/*
 * Item done of the packet must wait for the 2D engine to drain: stop
 * before it as r500_cp_yield() does (true), and run it again from there
 * once the engine is idle.  False where a packet cannot stop (the write
 * then goes ahead without waiting).
 */
bool r500_cp_stall(R500Chip *s, uint32_t done);
/*
 * For a handler that can stop part way and go on when its packet runs
 * again (a draw: pipe/draw.h): the budget units left in this slice, at
 * least 1; 0 where a packet cannot stop (no limit).
 */
uint64_t r500_cp_budget_left(R500Chip *s);
/* Such a handler stopped: run the packet again, with resume = done. */
void r500_cp_suspend(R500Chip *s, uint32_t done);
/*
 * The stream's write of val to reg waits for the 2D engine to drain
 * (WAIT_UNTIL 2D idle, ISYNC_CNTL, 2D cache flushes, scratch writes
 * under ISYNC_CPSCRATCH_IDLEGUI), and the engine is busy.
 */
bool r500_cp_write_waits(R500Chip *s, uint32_t reg, uint32_t val);

/* pm4_exec.c */
/* Total dwords of the packet starting with header, header included. */
uint32_t r500_pm4_packet_dwords(uint32_t header);
/*
 * Execute one whole packet (pkt[0] is the header, dwords its length).
 * in_ib: it comes from an indirect buffer.
 */
void r500_pm4_execute(R500Chip *s, const uint32_t *pkt, uint32_t dwords,
                      bool in_ib);
/*
 * A register write by the command stream (the one register path); false
 * when the register may not be written from the stream (not logged).
 */
bool r500_cp_stream_write(R500Chip *s, uint32_t reg, uint32_t val,
                          bool in_ib);

/* packet3.c */
void r500_cp_packet3(R500Chip *s, const uint32_t *pkt, uint32_t dwords,
                     bool in_ib);

#endif
