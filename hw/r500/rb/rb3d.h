/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RB3D and ZB: the 3D render backend.  r500-3d-pipeline.md 2.11, 2.12, 6;
 * docs/3d.md.
 *
 * rb3d.c  the block (Hyper-Z RAM ports, reset, migration), per-draw
 *         set-up of the colour and depth buffers, the per-quad back end:
 *         alpha test, depth/stencil, blending, ROP, channel masks and
 *         colour formats of US_OUT_FMT / RB3D_COLORPITCH
 * zb.c    depth and stencil: formats, tests and updates, fast clears
 *         (3D_CLEAR_ZMASK/HIZ expanded lazily, 6.6), the ZB colour clear
 *         (ZB_CB_CLEAR, 6.5)
 * All 3D memory accesses go through the page cache of mem/cache.c.
 */
#ifndef HW_R500_RB_RB3D_H
#define HW_R500_RB_RB3D_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/cache.h"
#include "../mem/tiling.h"

typedef struct R500Chip R500Chip;
typedef struct R500Worker R500Worker;

/* On-chip Hyper-Z RAMs, in dwords (3D_CLEAR_* COUNT is 14 bits). */
#define R500_ZMASK_DWORDS       16384
#define R500_HIZ_DWORDS         16384
#define R500_CMASK_DWORDS       16384

/* RB3D_COLORPITCH.COLORFORMAT (table 6.1) */
enum {
    R500_CF_ARGB10101010 = 0, R500_CF_UV1010 = 1, R500_CF_CI8 = 2,
    R500_CF_ARGB1555 = 3, R500_CF_RGB565 = 4, R500_CF_ARGB2101010 = 5,
    R500_CF_ARGB8888 = 6, R500_CF_ARGB32323232 = 7, R500_CF_I8 = 9,
    R500_CF_ARGB16161616 = 10, R500_CF_VYUY = 11, R500_CF_YVYU = 12,
    R500_CF_UV88 = 13, R500_CF_I10 = 14, R500_CF_ARGB4444 = 15,
};

/* US_OUT_FMT.OUT_FMT (6.1) */
enum {
    R500_OF_C4_8 = 0, R500_OF_C4_10 = 1, R500_OF_C4_10_GAMMA = 2,
    R500_OF_C_16 = 3, R500_OF_C2_16 = 4, R500_OF_C4_16 = 5,
    R500_OF_C_16_MPEG = 6, R500_OF_C2_16_MPEG = 7, R500_OF_C2_4 = 8,
    R500_OF_C_3_3_2 = 9, R500_OF_C_6_5_6 = 10, R500_OF_C_11_11_10 = 11,
    R500_OF_C_10_11_11 = 12, R500_OF_C_2_10_10_10 = 13, R500_OF_UNUSED = 15,
    R500_OF_C_16_FP = 16, R500_OF_C2_16_FP = 17, R500_OF_C4_16_FP = 18,
    R500_OF_C_32_FP = 19, R500_OF_C2_32_FP = 20, R500_OF_C4_32_FP = 21,
};

/*
 * One stored component of a colour format (table 6.1): component Cj
 * (comp), its bit offset in the little-endian pixel and its width, and
 * how it is coded.
 */
enum { R500_FIELD_UNORM, R500_FIELD_HALF, R500_FIELD_FLOAT };

typedef struct R500ColorField {
    uint8_t comp, shift, width, kind;
} R500ColorField;

/* One colour buffer of this draw. */
typedef struct R500ColorTarget {
    bool enabled;
    R500Surf surf;
    uint32_t cformat;           /* COLORFORMAT */
    uint32_t ofmt;              /* OUT_FMT */
    uint8_t csel[4];            /* shader channel (RGBA index) of C0..C3 */
    uint8_t mask;               /* RB3D_COLOR_CHANNEL_MASK bits, C0..C3 */
    uint8_t src;                /* US render target feeding it */
    const struct R500ColorLayout *layout;   /* how C0..C3 are stored */
    bool unorm32;               /* all fields fixed point in one dword */
    uint8_t sign;               /* US_OUT_FMT.OUT_SIGN: Cj signed, bit j */
    float const_color[4];       /* the blend constant as this target sees it */
} R500ColorTarget;

/* One depth/stencil buffer of this draw. */
typedef struct R500DepthTarget {
    bool enabled;               /* a surface is bound and usable */
    R500Surf surf;
    uint32_t format;            /* ZB_FORMAT.DEPTHFORMAT */
} R500DepthTarget;

typedef struct R500Rb3d {
    /* ---- Migrated ("r500/rb3d" subsection) ---- */
    uint32_t zmask_ram[R500_ZMASK_DWORDS];
    uint32_t hiz_ram[R500_HIZ_DWORDS];
    uint32_t cmask_ram[R500_CMASK_DWORDS];
    bool zmask_cleared;         /* a 3D_CLEAR_ZMASK awaits expansion */
    uint32_t zpass;             /* occlusion counter: samples passed */

    /* ---- Not migrated ---- */
    R500Cache cache;
    /* This draw (r500_rb3d_prepare). */
    R500ColorTarget cb[4];
    R500DepthTarget zb;
    bool cb_clear;              /* ZB_BW_CNTL.ZB_CB_CLEAR */
    uint32_t zb_cntl, zs_cntl, ref[2];  /* ref: front, back REFMASK */
    bool z_test, z_write, stencil;
    bool zero_output;
    uint32_t alpha_func;        /* FG_ALPHA_FUNC */
    float alpha_ref;            /* FG_ALPHA_VALUE as FP16 */
    float depth_scale, depth_offset;    /* SU_DEPTH_SCALE/OFFSET */
    bool depth_from_shader;     /* FG_DEPTH_SRC */
    uint32_t blend, ablend, rop;
    /* decoded from them */
    bool blend_on, rop_on, need_dst;
    uint8_t discard;            /* DISCARD_SRC_PIXELS */
    struct {
        uint8_t fn, src, dst;   /* COMB_FCN, SRCBLEND, DESTBLEND */
    } bf[4];                    /* C0..C2 colour, C3 alpha */
    float const_color[4];       /* C0..C3 */
    /*
     * Depth and stencil before the shader: nothing the shader does can
     * change their outcome (no depth output, kill or alpha test).
     */
    bool early_z;
    /* Every pixel's bytes are its colour's (r500_rb3d_fill_begin). */
    bool fill;
    /* The one target, ARGB8888 without ROP or masks: a quad at a time */
    const R500ColorTarget *quad8;
    uint64_t pixels, zfail;
} R500Rb3d;

/* The targets of a fill: colour buffers 0..3 and the ZB colour clear. */
#define R500_FILL_TARGETS       5

typedef struct R500RbFill {
    uint8_t *mem[R500_FILL_TARGETS];    /* base in host memory; NULL: none */
    uint32_t x1[R500_FILL_TARGETS];     /* last column (below the pitch) */
    uint64_t lo[R500_FILL_TARGETS], hi[R500_FILL_TARGETS];  /* VRAM span */
    uint8_t zpx[4], zkeep[4];           /* the depth word, the bits kept */
    bool zmasked;                       /* some of them are kept */
} R500RbFill;


/* rb3d.c */
/* Latch the colour/depth state of this draw; false: nothing can be drawn */
bool r500_rb3d_prepare(R500Chip *s);
/*
 * Test and write the covered, not killed pixels of the worker's quad w->q
 * (pipe/ctx.h): alpha test, depth/stencil (r500_rb3d_quad_z), colour
 * (r500_rb3d_quad_color), through the worker's page cache.  With early_z
 * the renderer runs the first part before the shader and the shader only
 * for quads with a pixel left.
 */
void r500_rb3d_quad(R500Worker *w);
/* Alpha, depth and stencil tests of the live pixels; the mask of passes */
unsigned r500_rb3d_quad_z(R500Worker *w, unsigned live);
/* Colour writes of the pixels in mask. */
void r500_rb3d_quad_color(R500Worker *w, unsigned mask);
/*
 * The fill path, for a rectangle [x0, x1] x [y0, y1] of prim whose every
 * pixel the shader gives the same colour: whether this draw's state lets
 * the RB store it as one colour (R500Rb3d.fill) and one depth word (the
 * ZB colour clear's, or prim's constant depth through tests that always
 * pass, r500_zb_fill_word), with every target's bytes in VRAM and no two
 * targets sharing bytes; then, once w->q holds a shaded quad of the
 * rectangle, store its pixel 0's colour and that word, at memory speed.
 * Nothing is counted here: the caller counts the pixels (pipe/soft.c).
 */
bool r500_rb3d_fill_begin(R500Worker *w, const R500Prim *prim, int x0,
                          int y0, int x1, int y1, R500RbFill *f);
void r500_rb3d_fill(R500Worker *w, const R500RbFill *f, int x0, int y0,
                    int y1);
/*
 * The bytes of one pixel fill target k stores (the colour of w's quad in
 * target k's format, or the depth word for k = 4): for a renderer that
 * fills its own copy of the surfaces.
 */
void r500_rb3d_fill_px(R500Worker *w, const R500RbFill *f, int k,
                       uint8_t px[16]);
/* The draw is over: write back and report the memory touched. */
void r500_rb3d_finish(R500Chip *s);
/*
 * Colour conversion for one target: the four C0..C3 components of a pixel
 * to / from its memory bytes (exposed for the unit tests).
 */
void r500_rb3d_pack(uint32_t cformat, uint32_t ofmt, const float c[4],
                    uint8_t *p);
void r500_rb3d_unpack(uint32_t cformat, uint32_t ofmt, const uint8_t *p,
                      float c[4]);
unsigned r500_rb3d_bytes(uint32_t cformat, uint32_t ofmt);
/*
 * How an enabled target stores its components: the fields (*f) and
 * their number.  And whether blending reads its stored bytes back into
 * components it does not store (I8 as all four, UV88's C0 as C1 and C3):
 * for the host-GL renderer, which must match both.
 */
unsigned r500_rb3d_fields(const R500ColorTarget *t, const R500ColorField **f);
bool r500_rb3d_replicates(const R500ColorTarget *t);

/* zb.c */
bool r500_zb_prepare(R500Chip *s);
/*
 * The stencil state of the front or back face (ZB_STENCILREFMASK(_BF),
 * ZB_ZSTENCILCNTL): the functions and operations are GL's order (2.12).
 */
typedef struct R500ZsFace {
    uint8_t ref, cmask, wmask;
    unsigned func, fail, zfail, zpass;
} R500ZsFace;
R500ZsFace r500_zb_face(const R500Rb3d *rb, bool back);
/*
 * Depth/stencil test of pixel p of the quad at (x, y): z is the 24-bit (or
 * 16-bit) fixed-point depth.  Returns whether the colour may be written;
 * updates the depth/stencil buffer.
 */
bool r500_zb_pixel(R500Worker *w, int x, int y, uint32_t z, bool back);
/*
 * The word a pixel of depth z (fixed point, as r500_zb_pixel) stores when
 * its outcome cannot depend on what is stored (tests ALWAYS or off,
 * stencil ops KEEP, ZERO or REPLACE): *word's bits where *keep is 0, the
 * stored bits where it is 1.  false: it depends on memory.
 */
bool r500_zb_fill_word(const R500Rb3d *rb, uint32_t z, bool back,
                       uint32_t *word, uint32_t *keep);
/* ZB_CB_CLEAR: write ZB_DEPTHCLEARVALUE raw at (x, y). */
void r500_zb_cb_clear(R500Worker *w, int x, int y);
uint64_t r500_zb_clear_cmd(R500Chip *s, unsigned op, uint32_t start,
                           uint32_t count, uint32_t value);

#endif
