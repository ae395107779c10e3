/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The harness of the US-to-GLSL translation's tests (us-glsl-host.c):
 * test-us-glsl.c (instructions, textures, predication, derivatives) and
 * test-us-glsl-fc.c (flow control).
 */
#ifndef TESTS_GL_US_GLSL_HOST_H
#define TESTS_GL_US_GLSL_HOST_H

#include "../unit/test-3d.h"
#include "gltest.h"
#include "gl/glsl.h"

#define W 8
#define NIN 4           /* temporaries 0-3 come from the "RS" */

/* Input kinds of fill_inputs() (us-glsl-host.c says which values). */
enum { IN_ANY, IN_POSITIVE, IN_NORMAL };

/* What random_alu_x() adds to random_alu()'s instructions. */
enum {
    X_PRED = 1,         /* predicated writes, predicate bits from OMASK */
    X_REL = 2,          /* ADDRn_REL, ADDRD_REL: aL-relative addresses */
    X_MD = 4,           /* MDH/MDV */
    X_FC = 8,           /* WRITE_INACTIVE and the ALU result bit */
};

/* FC instruction fields (US_FC_INST, US_FC_ADDR; reference 3.10) */
typedef struct TFc {
    unsigned op, func, aop, bop0, bop1, pop, target, int_addr, bool_addr;
    bool any, belse, uncovered;
} TFc;
enum { FC_JUMP, FC_LOOP, FC_ENDLOOP, FC_REP, FC_ENDREP, FC_BREAKLOOP,
       FC_BREAKREP, FC_CONTINUE };
enum { B_NONE, B_DECR, B_INCR };

/* The prologue run_gl() gives the translation: the inputs' texture. */
extern const char prologue[];
extern GString *last_fs;        /* the shader last run, for failures */
extern int edge;                /* covered(): x + y below it */
extern float in[W][W][NIN][4];  /* temp n of pixel (x, y): in[y][x][n] */
extern float soft_out[4][W][W][4];
extern bool soft_kill[W][W];
extern uint64_t soft_max_steps; /* most instructions a quad ran on soft */

bool covered(int x, int y);
/* The GL context and targets; false where there is no OpenGL. */
bool gl_up(void);
void run_gl(TestHost *h, float out[4][W][W][4], bool kill[W][W]);
void run_soft(TestHost *h);
/* The program in the chip's store on both; compare the written targets. */
void check(TestHost *h, unsigned targets, bool tol, const char *what);
void fill_inputs(GRand *r, unsigned mode);
TestHost *host(void);
void random_alu(GRand *r, T3DAlu *a, bool out, bool transcendental);
unsigned rnd(GRand *r, unsigned n);
void random_alu_x(GRand *r, uint32_t w[6], bool out, unsigned x);
void random_fc_consts(TestHost *h, GRand *r);
/* OUT of t<src> to target 0 (t3d_us_passthrough() for another temp). */
void out_temp(uint32_t w[6], unsigned src);
/* The words of an FC instruction. */
void fc_words(const TFc *f, uint32_t w[6]);

#endif
