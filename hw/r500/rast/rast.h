/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GA, SU, SC and RS: from shaded vertices to 2x2 pixel quads with their
 * fragment-shader inputs.  r500-3d-pipeline.md 2.3-2.8, 4.5, 7; docs/3d.md.
 *
 * setup.c  primitive assembly (every VAP_VF_CNTL type), clipping, the
 *          viewport transform (VTE), culling and facing, point sprites
 *          and lines, triangle setup
 * scan.c   scan conversion into 2x2 quads with coverage masks (1/12
 *          subpixel vertices, top-left rule, scissor, clip rectangles),
 *          the hand-over of each quad to the sink, and RS interpolation
 *          into a worker's US temporaries (r500_rast_interp)
 * rs_glsl.c the RS as GLSL (vertex shader and fragment prologue), for
 *          the host-GL renderer
 *
 * The interfaces (pipe/ctx.h): the draw walk (pipe/) hands the rasteriser
 * a sink, R500RastSink: the shaded R500Vertex of each sequence element
 * (clip-space position and attributes, in the fixed output order of
 * VAP_OUTPUT_VTX_FMT_0/1), the work meter of the split draw, and where
 * each covered quad goes, with its primitive's R500Prim.  The rasteriser
 * calls nothing else of the pipeline: it does not know who shades
 * vertices or quads.  r500_rast_interp() fills a worker's R500UsQuad from
 * the primitive's planes (the RS), on whichever thread shades the quad.
 */
#ifndef HW_R500_RAST_RAST_H
#define HW_R500_RAST_RAST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct R500Chip R500Chip;
typedef struct R500Worker R500Worker;

/* Vertex attributes after the PVS: colours 0-3, then texcoords 0-7. */
#define R500_VTX_ATTRS          48
#define R500_ATTR_COL(n)        (4 * (n))
#define R500_ATTR_TEX(n)        (16 + 4 * (n))

typedef struct R500Vertex {
    /* PVS position: clip space (or window coordinates with VTX_XY_FMT) */
    float clip[4];
    float psize;                /* point size output, pixels (0: none) */
    float attr[R500_VTX_ATTRS];
    /* Set by the rasteriser's viewport transform. */
    float win[4];               /* window x, y, z and 1/w */
    /*
     * A point sprite's stuffed S, T at this corner: set on the corners
     * the rasteriser hands a tri() sink for a stuffed point (scan.c).
     */
    float sprite[2];
} R500Vertex;

/* Where a rasterised value comes from (RS_IP pointers, reference 2.8). */
enum {
    R500_RS_ZERO,
    R500_RS_ONE,
    R500_RS_ATTR,               /* vertex attribute attr */
    R500_RS_STUFF,              /* stuffed coordinate attr: 0 S, 1 T, 2 R */
    R500_RS_FACE,               /* 1.0 for back-facing primitives */
    R500_RS_WINX, R500_RS_WINY, /* window position (fbuffer write) */
};

typedef struct R500RsChan {
    uint8_t src;
    uint8_t attr;
    bool flat;
} R500RsChan;

/* One float4 the RS writes into a US temporary per pixel. */
typedef struct R500RsWrite {
    uint8_t temp;
    R500RsChan ch[4];
} R500RsWrite;

#define R500_RS_WRITES          32      /* 16 instructions x tex + colour */

/*
 * A linear function of the pixel centre, c + dx * (x - x0) + dy * (y - y0);
 * persp: the value is that divided by the 1/w plane (perspective-correct).
 */
typedef struct R500Plane {
    float c, dx, dy;
    bool persp;
} R500Plane;

/* A point of a draw's rasterisation order (a split draw's progress). */
typedef struct R500RastPos {
    uint32_t prims;                     /* input primitive */
    uint32_t sub;                       /* scan call within it */
    int32_t y, x;                       /* quad within that (even) */
} R500RastPos;

/*
 * What a primitive hands to the quads it covers: its facing, polygon
 * offset and interpolation planes.  Immutable once its quads are emitted
 * (the sink copies it when it keeps quads for later).
 */
typedef struct R500Prim {
    uint32_t seq;                       /* changes with every set-up */
    bool back;                          /* facing of the primitive */
    float depth_bias;                   /* polygon offset, 24-bit units */
    float x0, y0;                       /* plane origin */
    R500Plane w;                        /* 1/w (or 1) */
    R500Plane z;                        /* window z */
    R500Plane plane[R500_RS_WRITES][4];
} R500Prim;

/*
 * Where the rasteriser's input comes from and its quads go (pipe/):
 * vertex() returns the shaded vertex of sequence element i (NULL: drop
 * the primitives using it); work() the work this call of the draw has
 * done, in CP budget units; quad() takes a covered quad of prim (pixel
 * mask, top-left pixel x, y).  rect() (may be NULL) is offered a whole
 * axis-aligned rectangle of pixels [x0, x1] x [y0, y1] that would be
 * `quads` quads, none of them clipped otherwise; it draws them at once and
 * returns true, or returns false having done nothing, and the quads come
 * one by one.  A rectangle it draws is drawn whole (the call stops at a
 * quad, never inside it), so it declines once the call's work is spent;
 * its work is the renderer's (work()), its pixels count in `pixels`.
 */
typedef struct R500RastSink {
    const R500Vertex *(*vertex)(void *opaque, uint32_t i);
    uint64_t (*work)(void *opaque);
    void (*quad)(void *quad_opaque, const R500Prim *prim, int x, int y,
                 unsigned mask);
    bool (*rect)(void *quad_opaque, const R500Prim *prim, int x0, int y0,
                 int x1, int y1, uint64_t quads);
    /*
     * tri() (may be NULL): takes each triangle whole, in place of its
     * scan conversion (the host-GL renderer): window-space vertices after
     * clipping, culling and facing, prov the provoking vertex.  No quads
     * are emitted for it and the call does not stop inside it.
     */
    void (*tri)(void *quad_opaque, const R500Prim *prim, const R500Vertex *v0,
                const R500Vertex *v1, const R500Vertex *v2,
                const R500Vertex *prov);
    void *opaque;               /* of vertex() and work() */
    void *quad_opaque;
} R500RastSink;

/* A host cache line, at least: what keeps two threads' data apart. */
#define R500_CACHE_LINE         64

/* Quads one draw may rasterise (2^27 pixels, a few seconds of work). */
#define R500_RAST_QUAD_BUDGET   (1ull << 25)

typedef struct R500Rast {
    /* ---- Per draw (r500_rast_prepare) ---- */
    uint32_t prim_type;
    int sc_x0, sc_y0, sc_x1, sc_y1;     /* scissor, inclusive */
    uint16_t clip_rule;
    int cr[4][4];                       /* cliprects: x0, y0, x1, y1 incl. */
    bool clip_enable;                   /* frustum clipping */
    bool dx_clip;                       /* 0 <= z <= w instead of -w.. */
    uint8_t ucp_enable;
    float ucp[6][4];
    uint32_t vte;                       /* VAP_VTE_CNTL */
    float vport[6];                     /* xs, xo, ys, yo, zs, zo */
    float depth_scale, depth_offset;
    bool cull_front, cull_back, face_cw;
    bool w_select;                      /* GB_SELECT.W_SELECT: no 1/w */
    unsigned provoking;                 /* GA_COLOR_CONTROL 0..3 */
    uint32_t point_hw, point_hh;        /* half size, 1/12 px */
    uint32_t point_min, point_max;
    uint32_t line_hw;                   /* half width, 1/12 px */
    bool point_stuff;
    uint8_t stuff_slot;                 /* texcoord slot receiving S,T(,R) */
    float stuff_s0, stuff_t0, stuff_s1, stuff_t1;
    R500RsWrite rs[R500_RS_WRITES];
    unsigned nrs;
    uint8_t colours;                    /* VAP colours present, bit n */
    bool psize;                         /* the VAP outputs a point size */

    /*
     * ---- Per call, written by the caller while workers read the above
     * for every pixel: not on their cache lines (pipe/soft.h) ----
     */
    uint8_t pad[R500_CACHE_LINE];
    uint64_t quad_budget;               /* quads left in this draw */
    /*
     * A draw split across CP slices (pipe/pipe.c): this call stops once
     * the sink's work() reaches work_limit (0: never), at the start of an
     * input primitive or after a quad, and says where (stop); a call that
     * resumes (skip) passes over what an earlier call drew: the input
     * primitives before skip.prims, in that one the scan calls (triangles
     * and rectangles it was cut into) before skip.sub, and in that one
     * the quads up to (skip.y, skip.x) in scan order, rows jumped over.
     */
    uint64_t work_limit;
    R500RastPos skip, stop;
    uint32_t prim_seq;                  /* input primitives begun */
    uint32_t prim_sub;                  /* scan calls of the current one */
    bool skip_here;                     /* the current one is skip.prims */
    /*
     * Resuming inside a primitive repeats its vertex shading: that work
     * (from redo_from on) is added to work_limit when its scan reaches
     * the stop, so each call still draws about a budget of quads.
     */
    bool redo;
    uint64_t redo_from;
    bool stopped;

    const R500RastSink *sink;           /* this call's (r500_rast_draw) */

    /* ---- Per primitive ---- */
    R500Prim prim;

    /* ---- Statistics ---- */
    uint64_t prims, culled, quads, pixels;
    uint32_t unimp_logged;              /* R500_3D_UNIMP_* reported */
} R500Rast;

/* Unimplemented 3D features, each reported once per reset. */
enum {
    R500_3D_UNIMP_PVS_BYPASS,
    R500_3D_UNIMP_PRIM,
    R500_3D_UNIMP_STUFF,
    R500_3D_UNIMP_RS_OFFSET,
    R500_3D_UNIMP_TX_FORMAT,
    R500_3D_UNIMP_CB_FORMAT,
    R500_3D_UNIMP_ZB_FORMAT,
    R500_3D_UNIMP_MSAA,
    R500_3D_UNIMP_CMASK,
    R500_3D_UNIMP_TX_ANISO,
    R500_3D_UNIMP_LINE_STIPPLE,
    R500_3D_UNIMP_PVS_OP,
    R500_3D_UNIMP_POLY_OFFSET_PARA,
};

#define r500_3d_unimp_once(s, what, ...) do {                           \
        if (r500_once(&(s)->rast.unimp_logged, 1u << (what))) {         \
            r500_unimp((s), __VA_ARGS__);                                \
        }                                                               \
    } while (0)


/* setup.c */
/*
 * Latch this draw's GA/SU/SC/RS state; false when the draw must be
 * skipped.  psize: the vertices carry a point size; ucp: the six user
 * clip planes (float4 bits, from the VAP's PVS memory).
 */
bool r500_rast_prepare(R500Chip *s, uint32_t prim_type, bool psize,
                       const uint32_t ucp[6 * 4]);
/* Assemble and rasterise num sequence elements from sink. */
void r500_rast_draw(R500Chip *s, uint32_t num, const R500RastSink *sink);
/*
 * The triangles of num sequence elements of this draw's primitive type,
 * as r500_rast_draw() assembles them, given as sequence positions a, b, c
 * in the SU's winding, with the provoking vertex pv (for quads and
 * polygons possibly none of the three): for a renderer that shades the
 * vertices itself.  False for points, lines and rectangles, and in
 * polygon mode (GA_POLY_MODE.DUAL).
 */
typedef void (*R500RastSeqTri)(void *opaque, uint32_t a, uint32_t b,
                               uint32_t c, uint32_t pv);
bool r500_rast_tri_seq(R500Chip *s, uint32_t num, R500RastSeqTri tri,
                       void *opaque);

/* scan.c */
/*
 * Rasterise a triangle of window-space vertices (win[] set); prov is the
 * provoking vertex for flat shading.
 */
void r500_rast_triangle(R500Chip *s, const R500Vertex *v0,
                        const R500Vertex *v1, const R500Vertex *v2,
                        const R500Vertex *prov);
/*
 * Rasterise the axis-aligned rectangle [x0, x1) x [y0, y1) in 1/12 pixel
 * units with the attributes of v (point sprites, wide points).
 */
void r500_rast_rect(R500Chip *s, const R500Vertex *v, int64_t x0, int64_t y0,
                    int64_t x1, int64_t y1);
/* RS: the shader inputs and z of w's quad at (x, y) from w->prim. */
void r500_rast_interp(R500Worker *w, int x, int y);
/* Only the quad's z (what an early depth test needs first). */
void r500_rast_interp_z(R500Worker *w, int x, int y);

/*
 * quad.c: one covered quad of prim shaded and written on worker w (RS,
 * US, RB with early Z where the RB allows it); the fill path's
 * questions, shared by the renderers' fills: whether every pixel of a
 * rectangle of prim gets the same colour from this draw's program, and
 * that colour shaded on w from the quad at (x0, y0) (false: the quad was
 * killed, nothing is written).
 */
typedef struct R500DrawCtx R500DrawCtx;
void r500_rast_quad(R500Worker *w, const R500Prim *prim, int x, int y,
                    unsigned mask);
bool r500_rast_rect_uniform(const R500DrawCtx *c, const R500Prim *prim);
bool r500_rast_fill_shade(R500Worker *w, const R500Prim *prim, int x0,
                          int y0);

#endif
