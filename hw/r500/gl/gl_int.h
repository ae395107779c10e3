/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_int.h: what the host-GL renderer's files share (gl.c, the caller's
 * side; gl_res.c, the surfaces kept on the host; gl_thread.c, the GL
 * thread; gl_state.c, the RB/ZB state and the US epilogue; gl_format.c,
 * the surfaces' formats; gl_tex.c, the texture cache; gl_vertex.c, the
 * vertex stage on the host).  Nothing outside gl/ includes it: the seam
 * is renderer.h.
 */
#ifndef R500_GL_GL_INT_H
#define R500_GL_GL_INT_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <glib.h>

#include "../r500.h"
#include "../blocks.h"
#include "glsl.h"

/*
 * Host memory for textures, bounded by the card's own limits rather than
 * by what a guest writes (docs/reliability.md, "Host resources"): a unit
 * is decoded to RGBA32F (16 bytes a texel) before it goes to GL.  One
 * unit may upload 2^24 texels, R500's largest level (4096 x 4096,
 * TX_FORMAT0/2's 12-bit sizes); the units of one draw together 2^25
 * (512 MiB, staged while the draw is prepared).  Past either the draw is
 * soft's, which samples memory in place and allocates nothing.
 */
#define GL_TEX_MAX_TEXELS       (1u << 24)
#define GL_TEX_DRAW_TEXELS      (1u << 25)
/* Host texture memory the cache keeps (RGBA32F bytes) before evicting. */
#define GL_TEX_CACHE_BYTES      (256ull << 20)
/*
 * Textures evicted between two draws at most (their names go with the
 * next job to the GL thread).
 */
#define GL_TEX_DOOMED           64
/* Largest colour target side (R500 surfaces are at most 4096 wide). */
#define GL_TARGET_MAX           8192
/* Spans of VRAM the renderer may hold at once (gl_hold). */
#define GL_HOLDS                16
/* Linked programs the GL thread keeps (gl_program). */
#define GL_PROG_MAX             1024
/*
 * The instructions a quad of a program with flow control may run on GL
 * (R500UsGlslIn.max_steps): 16 times the longest straight program.  A
 * Mesa loop (255 counts) of a 32-instruction body is under it; a loop
 * that may run to the quad bound (2^16) stays on soft, whose draw budget
 * ends it in seconds where GL could take hours.
 */
#define GL_US_STEPS             8192
/* Bytes of a surface in GART one read or write-back may span. */
#define GL_SPAN_MAX             (64u << 20)

typedef struct GlJob GlJob;

/*
 * The attachments: colour targets 0-3, the depth buffer, and the depth
 * buffer's memory written as colour by the ZB colour clear (CBZB).
 */
#define GL_ATT_ZB               4
#define GL_ATT_CBZB             5
#define GL_ATTS                 6

typedef struct GlRect {
    int x, y, w, h;
} GlRect;

/* Whether rectangle a lies within b. */
static inline bool gl_rect_in(GlRect a, GlRect b)
{
    return a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w &&
           a.y + a.h <= b.y + b.h;
}

/* Whether two surfaces are the same pixels at the same place. */
static inline bool gl_surf_same(const R500Surf *a, const R500Surf *b)
{
    return a->base == b->base && a->pitch == b->pitch && a->bpp == b->bpp &&
           a->macro == b->macro && a->micro == b->micro;
}

/*
 * The surfaces the host may hold at once (targets, depth buffers, in
 * any draw's attachments), and the bytes of their textures together:
 * past either, the least recently drawn goes back to memory.
 */
#define GL_RES_MAX              8
#define GL_RES_BYTES            (256ull << 20)

/*
 * A resident surface's texture: the bytes of a pixel as GL takes them
 * (gl_format.c).  A colour target and the ZB colour clear's 32-bit words
 * are both RGBA8 bytes in memory order, so one copy serves both.
 */
enum {
    GL_KIND_RGBA8,                      /* ARGB8888 target, CBZB of Z24 */
    GL_KIND_RG8,                        /* UV88, CBZB of Z16 */
    GL_KIND_Z16,
    GL_KIND_Z24,                        /* Z24S8 as GL's 24_8 */
    GL_KIND_R8,                         /* I8 */
    GL_KIND_RGB565,
    GL_KIND_RGB5_A1,                    /* ARGB1555 */
    GL_KIND_RGBA4,                      /* ARGB4444 */
    GL_KIND_RGB10_A2,                   /* ARGB2101010 */
    GL_KIND_R16,                        /* UV88 with C_16 */
    GL_KIND_RG16,                       /* ARGB8888 with C2_16 */
    GL_KIND_RGBA16,                     /* ARGB16161616 with C4_16 */
    GL_KIND_R16F,                       /* UV88 with C_16_FP */
    GL_KIND_RG16F,                      /* ARGB8888 with C2_16_FP */
    GL_KIND_RGBA16F,                    /* ARGB16161616 with C4_16_FP */
    GL_KIND_R32F,                       /* ARGB8888 with C_32_FP */
    GL_KIND_RG32F,                      /* ARGB16161616 with C2_32_FP */
    GL_KIND_RGBA32F,                    /* ARGB32323232 */
    GL_KIND_R8_SNORM,                   /* the 8- and 16-bit ones signed */
    GL_KIND_RG8_SNORM,
    GL_KIND_RGBA8_SNORM,
    GL_KIND_R16_SNORM,
    GL_KIND_RG16_SNORM,
    GL_KIND_RGBA16_SNORM,
    GL_KINDS
};

/*
 * A kind as GL stores and takes it: internal format, transfer format and
 * type, bytes a texel (the R500 pixel's), and for colour (n channels) the
 * bits of GL's channel ch[i].comp (0 red .. 3 alpha) in the texel.
 */
typedef struct GlKind {
    GLenum ifmt, fmt, type;
    uint8_t bytes, n;
    bool snorm;
    R500ColorField ch[4];
} GlKind;

/* A GL channel holding no stored component (r500_gl_color_kind) */
#define GL_CH_NONE              4

/* One draw's GL work, prepared by the caller (gl_draw). */
struct GlJob {
    const char *vs, *fs;
    const float *verts;
    uint32_t nverts, stride;            /* floats per vertex */
    R500RsGlslLayout lay;
    float size[2];
    int bx, by, bw, bh;                 /* the rectangle drawn */
    int sc[4];                          /* scissor x, y, w, h */
    uint8_t ntargets;
    struct {
        uint8_t src;                    /* US output */
        uint8_t mask;                   /* GL's channels written */
        uint8_t kind;                   /* its texture (GL_KIND_*) */
    } cb[4];
    /*
     * The surfaces' rectangles to upload before the draw (what of its
     * box is not resident yet): attachment 0-3 colour target i,
     * GL_ATT_ZB the depth buffer, GL_ATT_CBZB its words as colour; each
     * in resident slot `slot', a texture of kind and at least tw x th.
     */
    struct {
        bool used;
        uint8_t slot, kind;
        int tw, th;
        unsigned nup;
        GlRect up[4];
        uint8_t *up_px[4];
    } att[GL_ATTS];
    /* for a sync, what of each slot to read back (w == 0: none) */
    struct {
        GlRect r;
        uint8_t *px;
    } back[GL_RES_MAX];
    /*
     * SC_CLIP_RULE over the four SC_CLIPRECTs (rast/scan.c), per pixel in
     * the epilogue: each rectangle's x0, y0, x1, y1 (inclusive) and the
     * rule, uniforms of the program (off: every pixel is kept)
     */
    bool clip;
    GLint cr[4][4];
    GLuint clip_rule;
    uint32_t drop;                      /* slots whose textures go first */
    bool sync_only;                     /* read back, no draw */
    bool submit;                        /* glFlush, no draw (gl_hold) */
    /*
     * Fills: rectangle fill_r of the attachments in fill_att, each with
     * its pixel's bytes (the surface's own, so the bits are exact): the
     * ZB's fast clear (gl_zb_fill, alone: fill), a draw's rectangle of
     * one colour (gl_rect, before the draw's triangles, if any).
     */
    bool fill;
    GlRect fill_r;
    uint8_t fill_att;
    uint8_t fill_px[GL_ATTS][16];
    /*
     * a move between slots (gl_res_move): copy_r of slot copy_src to
     * (copy_dx, copy_dy) of att[0]'s slot; no draw
     */
    bool copy;
    uint8_t copy_src;
    GlRect copy_r;
    int copy_dx, copy_dy;
    /*
     * The vertex stage on the host (gl_vertex.c): verts holds nverts
     * vertices of vtx.nin vec4 inputs (the PVS inputs the program reads,
     * in its order), elems the triangles' vertices; the SU's and VTE's
     * state as GL's.  Off: verts are window-space vertices of the RS
     * layout (gl_tri), drawn as they come.
     */
    struct {
        bool on;
        unsigned nin;
        const uint32_t *elems;
        uint32_t nelems;
        const float *consts;            /* the PVS constants, 256 vec4 */
        float ucp[6][4];                /* the user clip planes */
        unsigned nclip;                 /* ... enabled */
        float vp[4];                    /* GL's viewport x, y, w, h */
        double depth[2];                /* GL's depth range */
        GLenum cull;                    /* faces culled, 0: none */
        GLenum front;
    } vtx;
    bool counts;                        /* collect the draws' queries */
    uint64_t zpass;                     /* their samples passed */
    struct {
        bool on;                        /* a depth/stencil buffer is used */
        bool z24;                       /* Z24S8, else Z16 */
        uint8_t *px;                    /* bw * bh words of its format */
        bool z_test, z_write, stencil;
        GLenum zfunc;
        struct {
            GLenum func, fail, zfail, zpass;
            GLint ref;
            GLuint cmask, wmask;
        } face[2];                      /* front, back */
    } zb;
    /* ZB_CB_CLEAR: ZB_DEPTHCLEARVALUE's bytes into the ZB's memory */
    bool cbzb;
    unsigned cbzb_bpp;
    float czv[4];
    bool blend;
    GLenum eq[2], sf[2], df[2];         /* colour, alpha */
    GLenum logic_op;                    /* the ROP as GL's logic op, or 0 */
    float const_color[4];
    const float *kconst;
    struct {
        bool used;
        GLenum target;
        unsigned first, last;
        uint32_t w[R500_TX_LEVELS], h[R500_TX_LEVELS], d[R500_TX_LEVELS];
        float *img[R500_TX_LEVELS];     /* NULL: cached as name */
        GLuint name;                    /* the cached texture, or made */
        /*
         * Made on the host from the resident slots of mask from_slots
         * (r500_gl_tex_slot): piece[k].r of the texture is slot k's,
         * its row y the slot's row y - piece[k].oy.
         */
        uint8_t from_slots;
        struct {
            GlRect r;
            int oy;
        } piece[GL_RES_MAX];
        GLenum wrap[3], mag, min;
        float size[4];                  /* r500_tx_glsl_size() */
        float border[4];
    } tex[R500_TX_UNITS];
    GLuint doomed[GL_TEX_DOOMED];       /* textures to delete first */
    unsigned ndoomed;
    const char *error;                  /* set by the GL thread */
};

/* What a texture made from slots was made from (R500Gl.stex). */
typedef struct GlSlotTexKey {
    uint32_t w, h;
    uint8_t from_slots;
    struct {
        GlRect r;
        int oy;
        uint64_t gen;
    } piece[GL_RES_MAX];
} GlSlotTexKey;

/*
 * A texture the GL thread holds: the caller's record, by the hash of the
 * unit's decode state and its bytes in VRAM (gl_tex_key).
 */
typedef struct GlTexEntry {
    uint64_t key;
    GLuint name;
    uint64_t bytes, used;
} GlTexEntry;

struct R500Gl {
    GThread *thread;
    GMutex lock;
    GCond cond;
    GlJob *job;                         /* handed to the thread */
    bool busy, quit, started, ready;
    const char *why;                    /* why there is no context */
    uint32_t kinds_ok;                  /* colour kinds GL draws into */

    /* ---- The GL thread's ---- */
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint fbo, vao, vbo, ebo;
    GLuint cfbo, cvao, cprog;           /* gl_slot_texture()'s */
    float vp_max, vp_range[2];          /* GL's viewport limits */
    struct {
        GLuint tex;                     /* 0: none made */
        int w, h;
        uint8_t kind;
        /* counts what may have changed its texels (gl_slot, gl_drop) */
        uint64_t gen;
    } slot[GL_RES_MAX];
    /*
     * Per unit, the texture gl_slot_texture() made last and what from:
     * made again only when a slot it came from may have changed since
     * (a texture drawn once and sampled by every draw after is made once;
     * one too large to keep is remembered for gl_slot_as_is all the same).
     */
    struct {
        GLuint tex;                     /* 0: none kept (or too large) */
        /* what the last was made from (all zero: none yet) */
        GlSlotTexKey key;
    } stex[R500_TX_UNITS];
    uint64_t stex_passes;               /* conversions run (atomic) */
    uint64_t stex_as_is;                /* slots sampled as they are */
    GHashTable *progs;                  /* vs "\n//fs\n" fs -> program */
    GArray *zq;                         /* the draws' uncollected queries */
    GArray *zfree;                      /* collected ones, to reuse */

    /* ---- The caller's, per draw ---- */
    GArray *verts;
    GArray *elems;                      /* uint32: gl_vertex.c's */
    /* the host's settings (R500HostOps.setting), read at its making */
    bool vtx_cpu;                       /* gl-vertex=cpu: never on the host */
    bool device_sw;                     /* gl-device=software */
    /*
     * gl-fault (testing): the failure to force.  fault_open: the display
     * or the context is not made (GL_FAULT_DISPLAY, GL_FAULT_CONTEXT);
     * fault_draw: the draw job of that number (1: the first) reports an
     * OpenGL error without drawing, as a failing GL command has no effect.
     */
    int fault_open;
    uint64_t fault_draw, draw_jobs;
    int verbose;                        /* gl-verbose: 1 draws, 2 programs */
    R500Chip *s;                        /* for its notes (r500_note) only */
    R500RsGlslLayout lay;
    uint32_t stride;
    int64_t bx0, by0, bx1, by1;         /* the triangles' pixel bounds */
    bool zb_on;                         /* window z to the buffer's scale */
    double zscale, zoffset;             /* SU_DEPTH_SCALE / OFFSET */
    uint64_t tris;
    bool stray;                         /* a quad reached the sink */
    R500Worker *w;                      /* the draw's (r500_pipe_begin) */
    /* the draw's first primitive, a rectangle of one colour (gl_rect) */
    struct {
        bool on;
        GlRect r;
        uint8_t att;                    /* the attachments it fills */
        uint8_t px[GL_ATTS][16];
    } rect;

    /*
     * ---- The surfaces on the host (the caller's record) ----
     * Between sync points the draws' targets stay in GL: each draw
     * uploads only what of its box is not resident yet, and a sync reads
     * back what GL wrote (gl_flush).  Where the host can say the CPU has
     * not written them, they stay across syncs too (gl_res_keep).  Each
     * surface has its slot, so a guest that draws into several (its
     * frames' buffers, a texture drawn then sampled) keeps them all.
     */
    struct {
        bool on;
        uint8_t kind;
        R500Surf surf;
        GlRect res;                     /* valid on the host */
        GlRect dirty;                   /* written by GL (w == 0: none) */
        /* kept across a sync, not yet checked by a draw */
        bool kept;
        int tw, th;                     /* its texture (0: none) */
        uint64_t used;                  /* the tick of its last draw */
    } res[GL_RES_MAX];
    bool writing_back;                  /* gl_flush's own writes */
    bool in_io;                         /* gl_surface_io's own accesses */
    /*
     * Holds (R500HostOps.vram_hold): VRAM spans [lo, hi) whose bytes the
     * host traps, so the slots' pixels GL drew there stay on the host
     * past a fence until someone looks (gl_hold, gl_release).  Every
     * dirty byte of a slot in VRAM that a lazy sync did not write back
     * is in one of them.
     */
    struct {
        uint64_t lo, hi;
    } holds[GL_HOLDS];
    unsigned nholds;
    uint64_t held, released;            /* statistics */
    bool unsubmitted;                   /* GL work since the last glFlush */
    uint64_t flushes;
    uint64_t kept;                      /* copies kept across a flush */
    uint64_t uploaded;                  /* surface bytes sent to GL */
    /* draws since their occlusion counts were added to rb3d.zpass */
    uint64_t uncounted;

    /* ---- The texture cache (the caller's record of it) ---- */
    GHashTable *texc;                   /* key -> GlTexEntry */
    uint64_t texc_bytes, tick;
    GLuint doomed[GL_TEX_DOOMED];
    unsigned ndoomed;

    /* ---- Statistics ---- */
    uint64_t draws, fallbacks, compiles, tex_hits, tex_uploads;
    uint64_t tex_slots;                 /* textures made from slots */
    uint64_t vtx_draws;                 /* vertex stage on the host */
    uint64_t over_limit;                /* draws refused for host memory */
    bool vtx_last;                      /* ... the last draw's */
    uint32_t noted;                     /* R500_GL_NOTE_* said */
    const char *last_why;               /* the last draw's, for soft */
};

enum { GL_FAULT_NONE, GL_FAULT_DISPLAY, GL_FAULT_CONTEXT };

/* Reasons a draw goes to soft, each said once per reset (gl_note). */
enum {
    R500_GL_NOTE_CONTEXT, R500_GL_NOTE_STATE, R500_GL_NOTE_PROGRAM,
    R500_GL_NOTE_TEXTURE, R500_GL_NOTE_TARGET, R500_GL_NOTE_GL,
    R500_GL_NOTE_STRAY, R500_GL_NOTE_LIMIT,
};

/* gl_thread.c: the thread that owns the context, and a call into it */
gpointer r500_gl_thread(gpointer opaque);
void r500_gl_call(R500Gl *g, GlJob *j);

/* gl_state.c: the state GL draws as soft would; NULL, or why not */
const char *r500_gl_state(R500Chip *s, GlJob *j);
const char *r500_gl_depth(R500Chip *s, GlJob *j);
const char *r500_gl_targets(R500Chip *s, GlJob *j, GString *epi);

/*
 * gl_format.c: the kinds, and a colour target's (map: Cj of GL channel
 * i, GL_CH_NONE for none); -1 and why when GL has none
 */
extern const GlKind r500_gl_kinds[GL_KINDS];
int r500_gl_color_kind(const R500ColorTarget *t, uint8_t map[4],
                       const char **why);
bool r500_gl_kind_float(unsigned kind);
uint32_t r500_gl_kinds_probe(GLuint fbo);

/*
 * gl_res.c: the surfaces kept on the host (GL slots): a reason a draw
 * goes to soft, said once (R500_GL_NOTE_*); write-back (flush) of all or
 * some slots, kept or not; holds past a fence; the VRAM watcher's
 * written and release; the slots a draw's targets take, attached to its
 * job; a job's end.
 */
void r500_gl_res_validate(R500Chip *s);
bool r500_gl_res_overlaps(R500Gl *g, uint64_t lo, uint64_t hi,
                          uint32_t skip);
void r500_gl_flush(R500Chip *s, bool keep);
int r500_gl_res_slot(R500Chip *s, GlJob *j, const R500Surf *sf,
                     uint8_t kind, GlRect b, uint32_t taken);
bool r500_gl_attach(R500Chip *s, GlJob *j, unsigned a, unsigned k,
                    const R500Surf *sf, GlRect b, bool covered);
GlRect r500_gl_rect_clip(GlRect a, GlRect b);
void r500_gl_attached(R500Gl *g, unsigned k, const R500Surf *sf, GlRect b,
                      bool written);
void r500_gl_job_free(GlJob *j);
bool r500_gl_hold(R500Chip *s);
void r500_gl_flush_slots(R500Chip *s, uint32_t mask, bool keep);
void r500_gl_written(R500Chip *s, uint64_t offset, uint64_t len);
void r500_gl_release(R500Chip *s, uint64_t offset, uint64_t len);
void r500_gl_note(R500Chip *s, unsigned what, const char *why);

/*
 * gl_res.c: the surfaces GL drew into MC bytes [lo, hi) go to memory first
 * (a vertex or index buffer the draw reads).
 */
void r500_gl_flush_over(R500Chip *s, uint64_t lo, uint64_t hi);

/*
 * gl_vertex.c: whether this draw's vertex stage runs on the host: then
 * j holds its vertices, triangles and state, the RS layout, vs the whole
 * vertex shader and fs the fragment prologue (rs_glsl.c), and the
 * renderer's box and triangle count are set.  False: nothing changed but
 * what memory the host held (written back where the draw reads it).
 */
bool r500_gl_vertex(R500Chip *s, uint32_t num, GlJob *j, GString *vs,
                    GString *fs);

/*
 * gl_tex.c: the units' textures, decoded or from the cache; a refusal
 * sets *note to the kind of its reason (R500_GL_NOTE_LIMIT for host
 * memory, else left as the caller set it).
 */
const char *r500_gl_textures(R500Chip *s, GlJob *j, const uint16_t *ops,
                             R500Worker *w, uint64_t *keys, bool *keyed,
                             unsigned *note);
/*
 * gl_tex.c: the resident slots unit u can be made from on the host (into
 * j->tex[u].piece), or 0
 */
uint32_t r500_gl_tex_slot(R500Chip *s, GlJob *j, unsigned u);
void r500_gl_tex_keep(R500Gl *g, GlJob *j, const uint64_t *keys,
                      const bool *keyed);

#endif
