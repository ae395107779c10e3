/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * US: the R500 fragment shader.  r500-3d-pipeline.md 2.9, 3; docs/3d.md.
 *
 * us.c       the block: instruction store and constants (GA_US_VECTOR_
 *            INDEX/DATA and the 0x9000-0xBFFC view), reset, migration;
 *            the decoder and its cache
 * us_exec.c  execution over one 2x2 quad in structure-of-arrays form:
 *            ALU (presubtract, swizzles, modifiers, OMOD, clamp, inline
 *            constants, predicates), TEX (through tx/), outputs
 * us_glsl.c  the decoded program as GLSL, for the host-GL renderer
 *            (us_glsl_fc.c its flow control)
 */
#ifndef HW_R500_US_US_H
#define HW_R500_US_US_H

#include <stdbool.h>
#include <stdint.h>

typedef struct R500Chip R500Chip;
typedef struct R500Worker R500Worker;

#define R500_US_INSTS           512
#define R500_US_INST_DWORDS     6
#define R500_US_CONSTS          256
#define R500_US_TEMPS           128
/* Loop and address stack depth (Mesa: 4 nested levels at most). */
#define R500_US_LOOP_DEPTH      8
/* Instructions one quad may execute (loops of up to 255 iterations). */
#define R500_US_QUAD_STEPS      (1u << 16)
/* Instructions one draw may execute (a few seconds of interpretation). */
#define R500_US_DRAW_BUDGET     (1ull << 30)

enum {
    R500_US_ALU = 0,
    R500_US_OUT = 1,
    R500_US_FC = 2,
    R500_US_TEX = 3,
};

/* RGB_OP (reference 3.7) */
enum {
    R500_US_RGB_MAD = 0, R500_US_RGB_DP3 = 1, R500_US_RGB_DP4 = 2,
    R500_US_RGB_D2A = 3, R500_US_RGB_MIN = 4, R500_US_RGB_MAX = 5,
    R500_US_RGB_CND = 7, R500_US_RGB_CMP = 8, R500_US_RGB_FRC = 9,
    R500_US_RGB_SOP = 10, R500_US_RGB_MDH = 11, R500_US_RGB_MDV = 12,
};

/* ALPHA_OP */
enum {
    R500_US_A_MAD = 0, R500_US_A_DP = 1, R500_US_A_MIN = 2, R500_US_A_MAX = 3,
    R500_US_A_CND = 5, R500_US_A_CMP = 6, R500_US_A_FRC = 7, R500_US_A_EX2 = 8,
    R500_US_A_LN2 = 9, R500_US_A_RCP = 10, R500_US_A_RSQ = 11,
    R500_US_A_SIN = 12, R500_US_A_COS = 13, R500_US_A_MDH = 14,
    R500_US_A_MDV = 15,
};

/* Where an ALU source comes from (US_ALU_RGB_ADDR, seed 002). */
enum {
    R500_US_SRC_TEMP,
    R500_US_SRC_CONST,
    R500_US_SRC_INLINE,
};

typedef struct R500UsAddr {
    uint8_t kind;
    uint8_t index;
    bool rel;
    float inline_val;
} R500UsAddr;

/* One operand selector of the RGB or alpha unit. */
typedef struct R500UsOperand {
    uint8_t sel;                /* 0-2 src n, 3 presubtract */
    uint8_t swz[3];             /* RGB: r,g,b; alpha uses swz[0] */
    uint8_t mod;                /* 0 none, 1 neg, 2 abs, 3 -abs */
} R500UsOperand;

typedef struct R500UsInst {
    uint8_t type;
    bool last;
    /* CMN_INST */
    uint8_t rgb_wmask, alpha_wmask, rgb_omask, alpha_omask;
    bool rgb_clamp, alpha_clamp;
    uint8_t rgb_pred_sel, alpha_pred_sel;
    bool rgb_pred_inv, alpha_pred_inv;
    bool write_inactive;
    bool alu_wmask;             /* update the ALU result bit */
    uint8_t alu_result_sel, alu_result_op;
    /* ALU / OUT */
    R500UsAddr rgb_addr[3], alpha_addr[3];
    uint8_t rgb_srcp, alpha_srcp;
    R500UsOperand rgb_op[3], alpha_op[3];    /* A, B, C */
    uint8_t rgb_opcode, alpha_opcode;
    uint8_t rgb_addrd, alpha_addrd;
    bool rgb_addrd_rel, alpha_addrd_rel;
    uint8_t rgb_omod, alpha_omod;
    uint8_t rgb_target, alpha_target;
    bool w_omask;
    /* TEX */
    uint8_t tex_id, tex_op;
    bool tex_unscaled, tex_ignore_uncovered;
    uint8_t tex_src, tex_dst;
    bool tex_src_rel, tex_dst_rel;
    uint8_t tex_src_swz[4], tex_dst_swz[4];
    uint8_t tex_dx, tex_dy;
    bool tex_dx_rel, tex_dy_rel;
    uint8_t tex_dx_swz[4], tex_dy_swz[4];
    /* FC */
    uint32_t fc_inst, fc_addr;
    /* Derived (us.c): source channels the ALU reads, R500_US_NEED(). */
    uint16_t src_need;
    /*
     * Derived: each operand channel as a slot of the executor's source
     * table: sel * 4 + swizzle for R G B A, R500_US_SLOT_0/HALF/ONE for the
     * constant swizzles.  RGB: [operand A B C][channel]; alpha: [A B C].
     */
    uint8_t rgb_slot[3][3], alpha_slot[3];
} R500UsInst;

#define R500_US_SLOT_0          16
#define R500_US_SLOT_HALF       17
#define R500_US_SLOT_ONE        18
#define R500_US_SLOTS           19

/*
 * The predicate bit a nonzero PRED_SEL reads for channel ch (3.2): 1 the
 * channel's own, 2-5 R, G, B, A replicated, 6 and 7 wrap to R, G.
 */
static inline unsigned r500_us_pred_chan(unsigned sel, unsigned ch)
{
    return sel == 1 ? ch : (sel - 2) & 3;
}

/* Source n (0-2, 3: presubtract) channel c (RGBA) of an ALU instruction */
#define R500_US_NEED(n, c)      (1u << ((n) * 4 + (c)))

typedef struct R500UsProg {
    bool valid;
    uint32_t start, end;        /* absolute slots, inclusive */
    uint32_t code[R500_US_INSTS * R500_US_INST_DWORDS];
    R500UsInst inst[R500_US_INSTS];
    bool uses_fc, uses_tex;
    bool uses_kill;             /* a TEX KILL instruction */
    /*
     * Derived (us.c, prog_uniform): the program is straight-line ALU code
     * (no TEX, no FC, no relative addressing) of `straight` instructions
     * per quad, reading no temporary channel before it wrote it except
     * those in temp_in (bit c: channel c).  When the RS fills those with
     * values that are the same at every pixel, so are its outputs:
     * a rectangle of it is one colour (pipe/soft.c, the fill path).
     */
    bool uniform;
    uint32_t straight;
    uint8_t temp_in[R500_US_TEMPS];
    uint64_t decodes;
} R500UsProg;

/* One 2x2 quad in flight: temporaries [reg][channel][pixel], outputs. */
/*
 * Each channel of t[] and out[] is loaded and stored as one 16-byte
 * vector (v4.h): 16-byte aligned, what malloc gives every host, or every
 * load splits a cache line (the shader workload ran 10% slower when a
 * field added elsewhere in R500Chip moved it by 8 bytes).
 */
typedef struct __attribute__((aligned(16))) R500UsQuad {
    float t[R500_US_TEMPS][4][4];
    float out[4][4][4];         /* render target, channel RGBA, pixel */
    float depth[4];             /* W output */
    uint8_t out_written;        /* bit n: render target n written */
    bool depth_written;
    uint8_t cover;              /* bit p: pixel p covered (p = 2y + x) */
    uint8_t kill;               /* bit p: killed by TEXKILL */
    int x, y;                   /* top-left pixel */
    bool back;                  /* primitive facing */
    float z[4];                 /* interpolated window z */
} R500UsQuad;

/* The US's reports made once (R500Us.logged). */
enum {
    /* an upload past the instruction store (once per upload) */
    R500_US_LOG_UPLOAD_OVERRUN = 1u << 0,
};

typedef struct R500Us {
    /* ---- Migrated ("r500/us" subsection) ---- */
    uint32_t inst[R500_US_INSTS * R500_US_INST_DWORDS];
    uint32_t consts[R500_US_CONSTS * 4];   /* IEEE single bits */
    /*
     * next dword of the element being loaded; R500_US_INST_DWORDS: past the
     * store
     */
    uint32_t upload_dword;

    /* ---- Not migrated ---- */
    bool code_dirty;
    uint32_t logged;            /* R500_US_LOG_*: reported (r500_once) */
    R500UsProg prog;
    bool zero_times_anything;
    float kconst[R500_US_CONSTS][4];
    /* instructions left for this draw (the workers run it, pipe/ counts it) */
    uint64_t budget;
    uint64_t quads, insts;
} R500Us;


/* us.c */
bool r500_us_prepare(R500Chip *s);
void r500_us_decode(const uint32_t w[6], R500UsInst *inst);
/*
 * The 7-bit inline constant of seed 002: 4-bit exponent (bias 7), 3-bit
 * mantissa, with denormals.
 */
float r500_us_inline_const(unsigned v);


/* us_exec.c: run the draw's program on w->q (pipe/ctx.h) */
void r500_us_run_quad(R500Worker *w);

#endif
