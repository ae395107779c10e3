/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VAP: vertex fetch (programmable stream control, PSC) and the
 * programmable vertex shader (PVS).  r500-3d-pipeline.md 1.3-1.5, 2.1-2.3,
 * 4; docs/3d.md.
 *
 * vap.c    the block: PVS memory upload port, viewport aliases, reset,
 *          migration; the PVS decoder and its cache
 * pvs.c    the PVS interpreter (one vertex at a time, fp32)
 * vf.c     vertex fetch: indices, arrays, embedded data, PSC conversion
 * vtx.c    the VAP's side of a draw (pipe/): output mapping, each
 *          vertex fetched and shaded through the post-transform cache
 */
#ifndef HW_R500_VAP_VAP_H
#define HW_R500_VAP_VAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../pipe/draw.h"
#include "../rast/rast.h"

typedef struct R500Chip R500Chip;

/* PVS vector memory (R500 map, reference 2.2), in 4-dword vectors. */
#define R500_PVS_MEM_VECTORS    2048    /* VAP_PVS_VECTOR_INDX_REG: 11 bits */
#define R500_PVS_CODE_VECTORS   1024    /* instructions 0..1023 */
#define R500_PVS_CONST_BASE     1024    /* 256 float4 constants */
#define R500_PVS_CONSTS         256
#define R500_PVS_UCP_BASE       1536    /* user clip planes 0..5 */
#define R500_PVS_INPUTS         32      /* PSC DST_VEC_LOC: 5 bits */
#define R500_PVS_TEMPS          128     /* destination OFFSET: 7 bits */
#define R500_PVS_OUTPUTS        32
#define R500_PVS_PSC_ENTRIES    16
/* Instructions one vertex may execute (loops of up to 255 iterations). */
#define R500_PVS_VERTEX_STEPS   (1u << 16)

/* Destination and source register files (reference 4.2, 4.3). */
enum {
    R500_PVS_DST_TEMP = 0,
    R500_PVS_DST_A0 = 1,
    R500_PVS_DST_OUT = 2,
    R500_PVS_DST_OUT_REPL_X = 3,
    R500_PVS_DST_ALT_TEMP = 4,
    R500_PVS_DST_INPUT = 5,
};
enum {
    R500_PVS_SRC_TEMP = 0,
    R500_PVS_SRC_INPUT = 1,
    R500_PVS_SRC_CONST = 2,
    R500_PVS_SRC_ALT_TEMP = 3,
};
enum {
    R500_PVS_VECTOR = 0,
    R500_PVS_MATH = 1,
    R500_PVS_MACRO = 2,
};

/*
 * PVS opcodes (reference 4.4; pvs.c interprets them, pvs_glsl.c
 * translates them).
 */
/* Vector engine (MATH_INST = 0). */
enum {
    PVS_VE_NO_OP = 0, PVS_VE_DOT_PRODUCT = 1, PVS_VE_MULTIPLY = 2,
    PVS_VE_ADD = 3, PVS_VE_MULTIPLY_ADD = 4, PVS_VE_DISTANCE_VECTOR = 5,
    PVS_VE_FRACTION = 6, PVS_VE_MAXIMUM = 7, PVS_VE_MINIMUM = 8,
    PVS_VE_SET_GREATER_THAN_EQUAL = 9, PVS_VE_SET_LESS_THAN = 10,
    PVS_VE_MULTIPLYX2_ADD = 11, PVS_VE_MULTIPLY_CLAMP = 12,
    PVS_VE_FLT2FIX_DX = 13, PVS_VE_FLT2FIX_DX_RND = 14,
    PVS_VE_PRED_SET_EQ_PUSH = 15, PVS_VE_PRED_SET_GT_PUSH = 16,
    PVS_VE_PRED_SET_GTE_PUSH = 17, PVS_VE_PRED_SET_NEQ_PUSH = 18,
    PVS_VE_COND_WRITE_EQ = 19, PVS_VE_COND_WRITE_GT = 20,
    PVS_VE_COND_WRITE_GTE = 21, PVS_VE_COND_WRITE_NEQ = 22,
    PVS_VE_COND_MUX_EQ = 23, PVS_VE_COND_MUX_GT = 24, PVS_VE_COND_MUX_GTE = 25,
    PVS_VE_SET_GREATER_THAN = 26, PVS_VE_SET_EQUAL = 27,
    PVS_VE_SET_NOT_EQUAL = 28,
};

/* Math engine (MATH_INST = 1). */
enum {
    PVS_ME_NO_OP = 0, PVS_ME_EXP_BASE2_DX = 1, PVS_ME_LOG_BASE2_DX = 2,
    PVS_ME_EXP_BASEE_FF = 3, PVS_ME_LIGHT_COEFF_DX = 4,
    PVS_ME_POWER_FUNC_FF = 5, PVS_ME_RECIP_DX = 6, PVS_ME_RECIP_FF = 7,
    PVS_ME_RECIP_SQRT_DX = 8, PVS_ME_RECIP_SQRT_FF = 9, PVS_ME_MULTIPLY = 10,
    PVS_ME_EXP_BASE2_FULL_DX = 11, PVS_ME_LOG_BASE2_FULL_DX = 12,
    PVS_ME_POWER_FUNC_FF_CLAMP_B = 13, PVS_ME_POWER_FUNC_FF_CLAMP_B1 = 14,
    PVS_ME_POWER_FUNC_FF_CLAMP_01 = 15, PVS_ME_SIN = 16, PVS_ME_COS = 17,
    PVS_ME_LOG_BASE2_IEEE = 18, PVS_ME_RECIP_IEEE = 19,
    PVS_ME_RECIP_SQRT_IEEE = 20, PVS_ME_PRED_SET_EQ = 21,
    PVS_ME_PRED_SET_GT = 22, PVS_ME_PRED_SET_GTE = 23,
    PVS_ME_PRED_SET_NEQ = 24, PVS_ME_PRED_SET_CLR = 25,
    PVS_ME_PRED_SET_INV = 26, PVS_ME_PRED_SET_POP = 27,
    PVS_ME_PRED_SET_RESTORE = 28,
};

/* One source operand, decoded. */
typedef struct R500PvsSrc {
    uint8_t file;
    uint8_t index;              /* register (constants: before the base) */
    uint8_t swz[4];             /* 0-3 xyzw, 4 zero, 5 one (6/7 as zero) */
    uint8_t neg;                /* bit n: negate component n */
    bool abs;
    uint8_t addr_mode;          /* 0 absolute, 1 + A0.sel, 2 + aL */
    uint8_t addr_sel;
} R500PvsSrc;

/* One instruction, decoded once (vap.c) and interpreted (pvs.c). */
typedef struct R500PvsInst {
    uint8_t kind;               /* R500_PVS_VECTOR / MATH / MACRO */
    uint8_t op;
    uint8_t dst_file;
    uint8_t dst_index;
    uint8_t wmask;              /* bit n: write component n */
    bool ve_sat, me_sat;
    bool pred_enable, pred_sense;
    uint8_t dst_addr_mode, dst_addr_sel;
    R500PvsSrc src[3];
} R500PvsInst;

/* The decoded program of the last draw and the code it came from. */
typedef struct R500PvsProg {
    bool valid;
    uint32_t first, last;       /* instruction range, inclusive */
    uint32_t code[R500_PVS_CODE_VECTORS * 4];
    R500PvsInst inst[R500_PVS_CODE_VECTORS];
    uint64_t decodes;           /* statistics: programs decoded */
} R500PvsProg;

/* One PSC entry, from VAP_PROG_STREAM_CNTL(_EXT) (reference 2.1). */
typedef struct R500PscEntry {
    uint8_t type;               /* DATA_TYPE */
    uint8_t skip;               /* SKIP_DWORDS after the element */
    uint8_t dst;                /* DST_VEC_LOC */
    bool is_signed, normalize;
    uint8_t sgn_mode;           /* VAP_PSC_SGN_NORM_CNTL method */
    uint8_t swz[4];             /* SWIZZLE_SELECT: 0-3 xyzw, 4 zero, 5 one */
    uint8_t wmask;              /* WRITE_ENA */
} R500PscEntry;

/* Per-vertex machine state of the PVS interpreter. */
typedef struct R500PvsState {
    float in[R500_PVS_INPUTS][4];
    float temp[R500_PVS_TEMPS][4];
    float alt[R500_PVS_TEMPS][4];
    float out[R500_PVS_OUTPUTS][4];
    int32_t a0[4];
    int32_t al;                 /* loop index I0 */
    bool pred;
    /*
     * stopped by R500_PVS_VERTEX_STEPS or the draw's budget before the program
     * ended
     */
    bool cut;
} R500PvsState;

/* PVS instructions one draw may execute (seconds of interpretation). */
#define R500_DRAW_PVS_BUDGET    (1ull << 28)

/*
 * Post-transform vertex cache (per draw), direct-mapped by index.  Not
 * the chip's size (nothing the guest sees depends on it): large enough
 * that a mesh's row stays while the next row is drawn, so an indexed
 * grid shades each vertex once (with rows of 129 and 32 slots it shaded
 * 2.6 times as many: index and index + 129 shared a slot).
 */
#define R500_VTX_CACHE 256
/* Dwords of an index buffer read at once. */
#define R500_VAP_INDEX_CHUNK 256

/*
 * Where a draw that stopped at the end of a CP slice goes on (pipe/pipe.c):
 * the point of its rasterisation order it reached, and what is left of
 * the draw's budgets.
 */
typedef struct R500DrawResume {
    bool active;
    R500RastPos pos;
    uint64_t pvs_budget;        /* PVS instructions */
    uint64_t us_budget;         /* US instructions */
    uint64_t quad_budget;       /* quads */
    /* once-per-draw reports made (not migrated: at worst said again) */
    uint32_t logged;
} R500DrawResume;

typedef struct R500Vap {
    /* ---- Migrated ("r500/vap" subsection) ---- */
    uint32_t pvs_mem[R500_PVS_MEM_VECTORS * 4];
    uint32_t pvs_dword;         /* next dword of the vector being uploaded */
    /* ---- Migrated ("r500/3d-draw" subsection, while active) ---- */
    R500DrawResume resume;

    /* ---- Not migrated ---- */
    bool code_dirty;            /* PVS code written since the last decode */
    R500PvsProg prog;
    /* This draw's stream state (pipe/pipe.c, vf.c). */
    R500PscEntry psc[R500_PVS_PSC_ENTRIES];
    unsigned psc_count;
    uint32_t out_map;           /* bit n: output vector n is consumed */
    int out_pos, out_psize, out_col[4], out_tex[8];
    uint32_t max_index, min_index;
    int32_t index_offset;
    const R500DrawCmd *cmd;
    uint32_t idx_chunk[R500_VAP_INDEX_CHUNK];
    uint64_t idx_chunk_addr;
    uint64_t inst_budget;       /* PVS instructions left in this draw */
    /* Counters at the start of this call, for the work meter. */
    uint64_t work_shaded, work_pvs, work_quads;
    R500PvsState pvs;
    struct {
        uint32_t tag;           /* index + 1; 0: empty */
        bool ok;                /* fetched and shaded without error */
        R500Vertex v;
    } cache[R500_VTX_CACHE];
    uint64_t vertices, shaded;
} R500Vap;


/* vap.c: (re)decode the program of VAP_PVS_CODE_CNTL_0; false if unusable */
bool r500_pvs_load(R500Chip *s);
/* Decode one instruction (exposed for the unit tests and a disassembler). */
void r500_pvs_decode(const uint32_t w[4], R500PvsInst *inst);

/*
 * vtx.c: map the PVS outputs of this draw (false: nothing to draw); the
 * shaded vertex of sequence element i (opaque: the chip; NULL: dropped),
 * the vertex source of the draw walk (pipe/).
 */
bool r500_vap_map_outputs(R500Chip *s);
const R500Vertex *r500_vap_vertex(void *opaque, uint32_t i);

/* pvs.c: run the loaded program on st; returns instructions executed. */
uint32_t r500_pvs_run(R500Chip *s, R500PvsState *st);
/* One PVS operation on explicit operands (for the unit tests). */
void r500_pvs_exec(const R500PvsInst *in, const float a[4], const float b[4],
                   const float c[4], bool *pred, float r[4]);


/* vf.c */
bool r500_vf_prepare(R500Chip *s, const R500DrawCmd *cmd);
/* Vertex index of sequence element i (indices or arrays); false: bad read */
bool r500_vf_index(R500Chip *s, uint32_t i, uint32_t *index);
/* Fill st->in for vertex (index, sequence i). */
void r500_vf_fetch(R500Chip *s, uint32_t index, uint32_t seq,
                   R500PvsState *st);
/* Convert one element of PSC type from dwords (for the unit tests). */
unsigned r500_psc_convert(const R500PscEntry *e, const uint32_t *dw,
                          unsigned avail, float out[4]);

#endif
