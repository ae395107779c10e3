/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface between the command processor and the 3D pipeline.
 *
 * The CP (hw/r500/cp/packet3.c) decodes the 3D packets of
 * r500-3d-pipeline.md 1.2-1.5, checks their structure (payload lengths,
 * vertex and index counts against the packet, array and index-buffer
 * address arithmetic), counts them, and hands each draw or clear to the
 * entry points below.  The 3D pipeline implements them; until it does,
 * pipe/pipe.c accepts them and reports them once as unimplemented.
 *
 * Ownership: a command and everything it points to belong to the CP and
 * are valid only during the call; the pipeline copies what it keeps.
 * Vertex arrays and index buffers are not fetched by the CP: the pipeline
 * reads them itself with r500_mem_read() (mc.h) from the MC addresses
 * given here, and must bound every fetch by the counts given here (an
 * index may still point anywhere: clamp it to VAP_VF_MIN/MAX_VTX_INDX and
 * treat a failed read as a guest error).  All other state (PSC, PVS, RS,
 * US, TX, RB3D, ZB...) is in s->regs[], written through the one register
 * path before the draw packet, in stream order.
 */
#ifndef HW_R500_VAP_DRAW_H
#define HW_R500_VAP_DRAW_H

#include <stdbool.h>
#include <stdint.h>

typedef struct R500Chip R500Chip;

#define R500_DRAW_MAX_ARRAYS 16

/* Where a draw's vertices come from (VAP_VF_CNTL.PRIM_WALK). */
typedef enum R500DrawSource {
    R500_DRAW_INDICES = 1,   /* indices: inline, or from INDX_BUFFER */
    R500_DRAW_ARRAYS = 2,    /* vertex arrays, indices 0..n-1 */
    R500_DRAW_EMBEDDED = 3,  /* vertex data in the packet (IMMD) */
} R500DrawSource;

/* One vertex array of 3D_LOAD_VBPNTR (VAP_VTX_AOS_ATTR/ADDR). */
typedef struct R500DrawArray {
    uint32_t addr;           /* MC byte address of element 0 */
    uint32_t size;           /* dwords per element, 0..127 */
    /* dwords between elements, 0..127 (0: all vertices read element 0) */
    uint32_t stride;
} R500DrawArray;

typedef struct R500DrawCmd {
    uint8_t opcode;          /* packet-3 opcode that issued the draw */
    R500DrawSource source;
    uint32_t vf_cntl;        /* VAP_VF_CNTL as given by the packet */
    uint32_t prim_type;      /* VF_CNTL.PRIM_TYPE (1..15; 0 draws nothing) */
    uint32_t num_vertices;   /* NUM_VERTICES or VAP_ALT_NUM_VERTICES */
    /* 32-bit indices, else two 16-bit per dword (low half first) */
    bool index32;

    /*
     * EMBEDDED: num_vertices * vtx_size dwords of vertex data.
     * INDICES without an index buffer: the inline index dwords, at least
     * index32 ? num_vertices : (num_vertices + 1) / 2 of them.
     */
    const uint32_t *data;
    uint32_t data_dwords;
    uint32_t vtx_size;       /* EMBEDDED: VAP_VTX_SIZE, dwords per vertex */

    /* INDICES from INDX_BUFFER: enough dwords for num_vertices indices. */
    bool index_buffer;
    uint64_t index_addr;     /* MC byte address (dword aligned) */
    uint32_t index_dwords;

    /* ARRAYS and INDICES: the arrays loaded by 3D_LOAD_VBPNTR. */
    uint32_t num_arrays;
    R500DrawArray arrays[R500_DRAW_MAX_ARRAYS];

    /*
     * Splitting a draw across CP slices: the work (budget units) this call
     * may do before it stops at a primitive or quad boundary (0: no
     * limit), and whether the call continues the draw that stopped last
     * (the CP runs the same packet again).  r500_3d_draw_stopped() says
     * whether it stopped.
     */
    uint64_t budget;
    bool resume;
} R500DrawCmd;

/* 3D_CLEAR_ZMASK (0x32), 3D_CLEAR_HIZ (0x37), 3D_CLEAR_CMASK (0x38). */
typedef struct R500ClearCmd {
    uint8_t opcode;
    uint32_t start;          /* first dword of the HiZ/ZMask/CMask RAM */
    uint32_t count;          /* dwords */
    uint32_t value;
} R500ClearCmd;

/* Statistics kept by the CP for its handover (not migrated). */
typedef struct R500DrawStats {
    uint64_t draws;
    uint64_t vertices;
    uint64_t clears;
} R500DrawStats;

/*
 * Execute a draw / a clear.  Return the work done in the CP's budget
 * units (R500_3D_WORK_*: vertices, vertex and fragment shader
 * instructions, quads, so a unit is about as long as a dword of CP
 * work), so a slice with heavy draws yields sooner.  A draw given a
 * budget stops once its work reaches it, at the next primitive or quad;
 * the CP then runs the packet again with resume set, in a later slice,
 * and the draw goes on where it stopped (the primitives and quads before
 * that point are walked, not drawn again), so no draw holds the main loop
 * for more than about a slice, whatever its shaders do.
 */
uint64_t r500_3d_draw(R500Chip *s, const R500DrawCmd *cmd);
bool r500_3d_draw_stopped(R500Chip *s);
uint64_t r500_3d_clear(R500Chip *s, const R500ClearCmd *cmd);

#endif
