/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl: the renderer on the host's OpenGL, below the seam (DESIGN.md
 * section 6; renderer.h; docs/3d.md "The host-GL renderer").
 *
 * The draw walk stays the chip's: vertex shading (vap/), assembly,
 * clipping, culling, facing and the viewport (rast/setup.c) run on the
 * caller's thread as for soft, and the rasteriser hands each triangle to
 * this renderer's sink (R500RastSink.tri) instead of scan converting it.
 * The triangles go to GL with the RS as a vertex shader and the US
 * program as a fragment shader (rast/rs_glsl.c, us/us_glsl.c,
 * tx/tx_glsl.c), into textures that hold the draw's colour targets.
 *
 * Memory stays the truth: between the sync points of renderer.h the
 * draws' colour and depth surfaces stay in GL (each draw uploads what of
 * its box is not there yet), and a sync writes back what GL drew
 * (gl_flush).  Textures are cached by the hash of their bytes in VRAM.
 *
 * Threads: the renderer's EGL context lives on its own thread, made on
 * first use, so no other context of the process (QEMU's UI, a Mesa client
 * in the harness) ever finds it current, nor it theirs.  The caller
 * prepares everything that touches chip memory (which in QEMU may need
 * the big lock it holds) and hands the GL work over, waiting for it.
 *
 * What the translation or this renderer cannot express (ROPs, formats
 * other than ARGB8888, cube maps, flow control, ...) is drawn by soft,
 * that draw only, and said once per reason and reset (R500_GL_NOTE_*).
 */
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"
#include "../blocks.h"

/* Texels one unit may upload in one draw (floats: 4 per texel). */
#define GL_TEX_MAX_TEXELS       (1u << 24)
/* Host texture memory the cache keeps (RGBA32F bytes) before evicting. */
#define GL_TEX_CACHE_BYTES      (256ull << 20)
/* Textures evicted between two draws at most (their names go with the
 * next job to the GL thread). */
#define GL_TEX_DOOMED           64
/* Largest colour target side (R500 surfaces are at most 4096 wide). */
#define GL_TARGET_MAX           8192
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
        uint8_t mask;                   /* C0..C3 written */
    } cb[4];
    /*
     * The surfaces' rectangles to upload before the draw (what of its
     * box is not resident yet) and, for a sync, to read back: attachment
     * 0-3 colour target i, GL_ATT_ZB the depth buffer.
     */
    struct {
        bool used;
        int tw, th;                     /* the texture's size at least */
        unsigned nup;
        GlRect up[4];
        uint8_t *up_px[4];
        GlRect back;                    /* w == 0: none */
        uint8_t *back_px;
    } att[GL_ATTS];
    bool sync_only;                     /* read back, no draw */
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
    float const_color[4];
    const float *kconst;
    struct {
        bool used;
        GLenum target;
        unsigned first, last;
        uint32_t w[R500_TX_LEVELS], h[R500_TX_LEVELS], d[R500_TX_LEVELS];
        float *img[R500_TX_LEVELS];     /* NULL: cached as name */
        GLuint name;                    /* the cached texture, or made */
        GLenum wrap[3], mag, min;
        float bias, border[4];
    } tex[R500_TX_UNITS];
    GLuint doomed[GL_TEX_DOOMED];       /* textures to delete first */
    unsigned ndoomed;
    const char *error;                  /* set by the GL thread */
};

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

    /* ---- The GL thread's ---- */
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint fbo, vao, vbo, cb_tex[4], zb_tex, cbzb_tex;
    int cbzb_w, cbzb_h;
    unsigned cbzb_bpp;
    int cb_w[4], cb_h[4], zb_w, zb_h;
    bool zb_z24;
    /* the textures' sizes as the caller knows them (gl_flush) */
    int att_w[GL_ATTS], att_h[GL_ATTS];
    GHashTable *progs;                  /* vs "\n//fs\n" fs -> program */

    /* ---- The caller's, per draw ---- */
    GArray *verts;
    R500RsGlslLayout lay;
    uint32_t stride;
    int64_t bx0, by0, bx1, by1;         /* the triangles' pixel bounds */
    bool zb_on;                         /* window z to the buffer's scale */
    double zscale, zoffset;             /* SU_DEPTH_SCALE / OFFSET */
    uint64_t tris;
    bool stray;                         /* a quad reached the sink */

    /*
     * ---- The surfaces on the host (the caller's record) ----
     * Between sync points the draws' targets stay in GL: each draw
     * uploads only what of its box is not resident yet, and a sync reads
     * back what GL wrote (gl_flush).
     */
    struct {
        bool on;
        R500Surf surf;
        GlRect res;                     /* valid on the host */
        GlRect dirty;                   /* written by GL (w == 0: none) */
    } res[GL_ATTS];
    bool res_z24;
    uint64_t flushes;

    /* ---- The texture cache (the caller's record of it) ---- */
    GHashTable *texc;                   /* key -> GlTexEntry */
    uint64_t texc_bytes, tick;
    GLuint doomed[GL_TEX_DOOMED];
    unsigned ndoomed;

    /* ---- Statistics ---- */
    uint64_t draws, fallbacks, compiles, tex_hits, tex_uploads;
    uint32_t noted;                     /* R500_GL_NOTE_* said */
    const char *last_why;               /* the last draw's, for soft */
};

/* ---- The GL thread ---- */

/* The EGL display: the software device when asked, else surfaceless. */
static EGLDisplay gl_display(void)
{
    const char *dev = g_getenv("R500_GL_DEVICE");

    if (dev && !strcmp(dev, "software") &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration")) {
        /*
         * The Mesa harness runs Mesa r300 in this process through a DRM
         * shim: a surfaceless display could find the shim's device and
         * render on the very chip it serves.  Its software device cannot.
         */
        EGLDeviceEXT devs[16];
        EGLint n = 0;

        if (eglQueryDevicesEXT(16, devs, &n)) {
            for (EGLint i = 0; i < n; i++) {
                const char *ext = eglQueryDeviceStringEXT(devs[i],
                                                          EGL_EXTENSIONS);

                if (ext && strstr(ext, "EGL_MESA_device_software")) {
                    return eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT,
                                                    devs[i], NULL);
                }
            }
        }
        return EGL_NO_DISPLAY;
    }
    return eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                    EGL_DEFAULT_DISPLAY, NULL);
}

static bool gl_context(R500Gl *g)
{
    static const EGLint attr[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };

    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base")) {
        g->why = "EGL has no platform displays";
        return false;
    }
    g->dpy = gl_display();
    if (g->dpy == EGL_NO_DISPLAY || !eglInitialize(g->dpy, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_API)) {
        g->why = "no EGL display (surfaceless or software device)";
        return false;
    }
    g->ctx = eglCreateContext(g->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                              attr);
    if (g->ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx)) {
        g->why = "no OpenGL 4.5 core context";
        return false;
    }
    glGenFramebuffers(1, &g->fbo);
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(1, &g->vbo);
    glGenTextures(4, g->cb_tex);
    glGenTextures(1, &g->zb_tex);
    glGenTextures(1, &g->cbzb_tex);
    /* window z is 0..1 as the VTE made it; nothing is clipped again */
    glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    glEnable(GL_DEPTH_CLAMP);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    g->progs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return true;
}

static GLuint gl_shader(GLenum type, const char *src, const char **err)
{
    GLuint sh = glCreateShader(type);
    GLint ok = 0;

    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        *err = "a translated shader did not compile";
    }
    return sh;
}

/* The program of the job's shaders: made once per text. */
static GLuint gl_program(R500Gl *g, GlJob *j)
{
    char *key = g_strconcat(j->vs, "\n//fs\n", j->fs, NULL);
    gpointer p = g_hash_table_lookup(g->progs, key);
    GLuint prog, vs, fs;
    GLint ok = 0;

    if (p) {
        g_free(key);
        return GPOINTER_TO_UINT(p);
    }
    if (g_getenv("R500_GL_VERBOSE") &&
        !strcmp(g_getenv("R500_GL_VERBOSE"), "2")) {
        g_printerr("r500 gl: new program\n%s\n%s\n", j->vs, j->fs);
    }
    prog = glCreateProgram();
    vs = gl_shader(GL_VERTEX_SHADER, j->vs, &j->error);
    fs = gl_shader(GL_FRAGMENT_SHADER, j->fs, &j->error);
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok && !j->error) {
        j->error = "a translated program did not link";
    }
    if (j->error) {
        glDeleteProgram(prog);
        prog = 0;
    }
    /* a failure is remembered too: it is not compiled again */
    g_hash_table_insert(g->progs, key, GUINT_TO_POINTER(prog));
    return prog;
}

static void gl_upload_texture(R500Gl *g, GlJob *j, unsigned u)
{
    GLenum t = j->tex[u].target;

    glActiveTexture(GL_TEXTURE0 + u);
    if (!j->tex[u].img[j->tex[u].first]) {
        /* cached: the same decode state and bytes as when it was made */
        glBindTexture(t, j->tex[u].name);
        goto sampler;
    }
    glGenTextures(1, &j->tex[u].name);
    glBindTexture(t, j->tex[u].name);
    for (unsigned l = j->tex[u].first; l <= j->tex[u].last; l++) {
        if (t == GL_TEXTURE_3D) {
            glTexImage3D(t, l, GL_RGBA32F, j->tex[u].w[l], j->tex[u].h[l],
                         j->tex[u].d[l], 0, GL_RGBA, GL_FLOAT,
                         j->tex[u].img[l]);
        } else {
            glTexImage2D(t, l, GL_RGBA32F, j->tex[u].w[l], j->tex[u].h[l], 0,
                         GL_RGBA, GL_FLOAT, j->tex[u].img[l]);
        }
    }
    if (g_getenv("R500_GL_VERBOSE") &&
        !strcmp(g_getenv("R500_GL_VERBOSE"), "2")) {
        g_printerr("r500 gl: unit %u: target 0x%x levels %u..%u, level 0 "
                   "%ux%ux%u, min 0x%x mag 0x%x\n", u, t, j->tex[u].first,
                   j->tex[u].last, j->tex[u].w[j->tex[u].first],
                   j->tex[u].h[j->tex[u].first], j->tex[u].d[j->tex[u].first],
                   j->tex[u].min, j->tex[u].mag);
    }
sampler:
    glTexParameteri(t, GL_TEXTURE_BASE_LEVEL, j->tex[u].first);
    glTexParameteri(t, GL_TEXTURE_MAX_LEVEL, j->tex[u].last);
    glTexParameteri(t, GL_TEXTURE_MIN_LOD, j->tex[u].first);
    glTexParameteri(t, GL_TEXTURE_WRAP_S, j->tex[u].wrap[0]);
    glTexParameteri(t, GL_TEXTURE_WRAP_T, j->tex[u].wrap[1]);
    glTexParameteri(t, GL_TEXTURE_WRAP_R, j->tex[u].wrap[2]);
    glTexParameteri(t, GL_TEXTURE_MAG_FILTER, j->tex[u].mag);
    glTexParameteri(t, GL_TEXTURE_MIN_FILTER, j->tex[u].min);
    glTexParameterf(t, GL_TEXTURE_LOD_BIAS, j->tex[u].bias);
    glTexParameterfv(t, GL_TEXTURE_BORDER_COLOR, j->tex[u].border);
}

/* Make colour texture i at least w x h; its contents are undefined. */
static void gl_target(R500Gl *g, unsigned i, int w, int h)
{
    glBindTexture(GL_TEXTURE_2D, g->cb_tex[i]);
    if (g->cb_w[i] < w || g->cb_h[i] < h) {
        g->cb_w[i] = MAX(g->cb_w[i], w);
        g->cb_h[i] = MAX(g->cb_h[i], h);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, g->cb_w[i], g->cb_h[i], 0,
                     GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
}

/* Make the depth texture at least w x h of the job's format. */
static void gl_depth_target(R500Gl *g, GlJob *j, int w, int h)
{
    glBindTexture(GL_TEXTURE_2D, g->zb_tex);
    if (g->zb_w < w || g->zb_h < h || g->zb_z24 != j->zb.z24) {
        g->zb_w = MAX(g->zb_w, w);
        g->zb_h = MAX(g->zb_h, h);
        g->zb_z24 = j->zb.z24;
        glTexImage2D(GL_TEXTURE_2D, 0, j->zb.z24 ? GL_DEPTH24_STENCIL8
                     : GL_DEPTH_COMPONENT16, g->zb_w, g->zb_h, 0,
                     j->zb.z24 ? GL_DEPTH_STENCIL : GL_DEPTH_COMPONENT,
                     j->zb.z24 ? GL_UNSIGNED_INT_24_8 : GL_UNSIGNED_SHORT,
                     NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
}

/* The ZB's words as colour (the ZB colour clear): RGBA8 or RG8 bytes. */
#define CBZB_GL_FORMAT(bpp)     ((bpp) == 4 ? GL_RGBA : GL_RG)

static void gl_cbzb_target(R500Gl *g, GlJob *j, int w, int h)
{
    glBindTexture(GL_TEXTURE_2D, g->cbzb_tex);
    if (g->cbzb_w < w || g->cbzb_h < h || g->cbzb_bpp != j->cbzb_bpp) {
        g->cbzb_w = MAX(g->cbzb_w, w);
        g->cbzb_h = MAX(g->cbzb_h, h);
        g->cbzb_bpp = j->cbzb_bpp;
        glTexImage2D(GL_TEXTURE_2D, 0, j->cbzb_bpp == 4 ? GL_RGBA8 : GL_RG8,
                     g->cbzb_w, g->cbzb_h, 0, CBZB_GL_FORMAT(j->cbzb_bpp),
                     GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
}

/* The words of the ZB as GL takes them: Z24S8 is GL's 24_8 packing. */
#define ZB_GL_FORMAT(j)  ((j)->zb.z24 ? GL_DEPTH_STENCIL : GL_DEPTH_COMPONENT)
#define ZB_GL_TYPE(j)    ((j)->zb.z24 ? GL_UNSIGNED_INT_24_8 : GL_UNSIGNED_SHORT)

static void gl_depth_state(GlJob *j)
{
    if (!j->zb.on) {
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_STENCIL_TEST);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                               GL_TEXTURE_2D, 0, 0);
        return;
    }
    if (j->zb.z_test) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(j->zb.zfunc);
        glDepthMask(j->zb.z_write);
    } else {
        /* no test: GL neither tests nor writes, as ZB_CNTL says */
        glDisable(GL_DEPTH_TEST);
    }
    if (j->zb.stencil) {
        glEnable(GL_STENCIL_TEST);
        for (int f = 0; f < 2; f++) {
            GLenum face = f ? GL_BACK : GL_FRONT;

            glStencilFuncSeparate(face, j->zb.face[f].func,
                                  j->zb.face[f].ref, j->zb.face[f].cmask);
            glStencilOpSeparate(face, j->zb.face[f].fail,
                                j->zb.face[f].zfail, j->zb.face[f].zpass);
            glStencilMaskSeparate(face, j->zb.face[f].wmask);
        }
    } else {
        glDisable(GL_STENCIL_TEST);
    }
}

static void gl_run(R500Gl *g, GlJob *j)
{
    GLuint prog;
    GLenum bufs[4];
    GLint loc;
    unsigned nattr;

    glDeleteTextures(j->ndoomed, j->doomed);
    prog = gl_program(g, j);

    if (!prog) {
        return;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    for (unsigned i = 0; i < 4; i++) {
        if (i < j->ntargets) {
            gl_target(g, i, j->att[i].tw, j->att[i].th);
            for (unsigned k = 0; k < j->att[i].nup; k++) {
                const GlRect *r = &j->att[i].up[k];

                glTexSubImage2D(GL_TEXTURE_2D, 0, r->x, r->y, r->w, r->h,
                                GL_RGBA, GL_UNSIGNED_BYTE,
                                j->att[i].up_px[k]);
            }
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                                   GL_TEXTURE_2D, g->cb_tex[i], 0);
            bufs[i] = GL_COLOR_ATTACHMENT0 + j->cb[i].src;
        } else {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                                   GL_TEXTURE_2D, 0, 0);
        }
    }
    /*
     * Attachment i is target i; the epilogue writes target i's channels
     * to location i (gl_draw), so the draw buffers are the identity.
     */
    for (unsigned i = 0; i < j->ntargets; i++) {
        bufs[i] = GL_COLOR_ATTACHMENT0 + i;
        glColorMaski(i, j->cb[i].mask & 1, (j->cb[i].mask >> 1) & 1,
                     (j->cb[i].mask >> 2) & 1, (j->cb[i].mask >> 3) & 1);
    }
    if (j->cbzb) {
        /* the ZB colour clear's words: the output after the targets' */
        unsigned i = j->ntargets;

        gl_cbzb_target(g, j, j->att[GL_ATT_CBZB].tw,
                       j->att[GL_ATT_CBZB].th);
        for (unsigned k = 0; k < j->att[GL_ATT_CBZB].nup; k++) {
            const GlRect *r = &j->att[GL_ATT_CBZB].up[k];

            glTexSubImage2D(GL_TEXTURE_2D, 0, r->x, r->y, r->w, r->h,
                            CBZB_GL_FORMAT(j->cbzb_bpp), GL_UNSIGNED_BYTE,
                            j->att[GL_ATT_CBZB].up_px[k]);
        }
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                               GL_TEXTURE_2D, g->cbzb_tex, 0);
        bufs[i] = GL_COLOR_ATTACHMENT0 + i;
        glColorMaski(i, 1, 1, 1, 1);
    }
    glDrawBuffers(j->ntargets + j->cbzb, bufs);
    if (j->zb.on) {
        gl_depth_target(g, j, j->att[GL_ATT_ZB].tw, j->att[GL_ATT_ZB].th);
        for (unsigned k = 0; k < j->att[GL_ATT_ZB].nup; k++) {
            const GlRect *r = &j->att[GL_ATT_ZB].up[k];

            glTexSubImage2D(GL_TEXTURE_2D, 0, r->x, r->y, r->w, r->h,
                            ZB_GL_FORMAT(j), ZB_GL_TYPE(j),
                            j->att[GL_ATT_ZB].up_px[k]);
        }
        glFramebufferTexture2D(GL_FRAMEBUFFER, j->zb.z24
                               ? GL_DEPTH_STENCIL_ATTACHMENT
                               : GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
                               g->zb_tex, 0);
        if (!j->zb.z24) {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                                   GL_TEXTURE_2D, 0, 0);
        }
    }
    gl_depth_state(j);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        j->error = "the framebuffer is incomplete";
        return;
    }
    glViewport(0, 0, (GLsizei)j->size[0], (GLsizei)j->size[1]);
    glEnable(GL_SCISSOR_TEST);
    glScissor(j->sc[0], j->sc[1], j->sc[2], j->sc[3]);
    if (j->blend) {
        glEnable(GL_BLEND);
        glBlendEquationSeparate(j->eq[0], j->eq[1]);
        glBlendFuncSeparate(j->sf[0], j->df[0], j->sf[1], j->df[1]);
        glBlendColor(j->const_color[0], j->const_color[1],
                     j->const_color[2], j->const_color[3]);
        if (j->cbzb) {
            glDisablei(GL_BLEND, j->ntargets);
        }
    } else {
        glDisable(GL_BLEND);
    }
    glDisable(GL_CULL_FACE);
    /* the triangles come in GL's winding for their facing (gl_tri) */
    glFrontFace(GL_CCW);
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        if (j->tex[u].used) {
            gl_upload_texture(g, j, u);
        }
    }
    glUseProgram(prog);
    glUniform2f(glGetUniformLocation(prog, "r500_size"), j->size[0],
                j->size[1]);
    loc = glGetUniformLocation(prog, "r500_czv");
    if (loc >= 0) {
        glUniform4fv(loc, 1, j->czv);
    }
    loc = glGetUniformLocation(prog, "r500_k");
    if (loc >= 0) {
        glUniform4fv(loc, R500_US_CONSTS, j->kconst);
    }
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        char name[16];

        g_snprintf(name, sizeof(name), "r500_s%u", u);
        loc = glGetUniformLocation(prog, name);
        if (loc >= 0) {
            glUniform1i(loc, u);
        }
    }
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)j->nverts * j->stride * 4,
                 j->verts, GL_STREAM_DRAW);
    /* win, the attribute groups, back (padded to 16 bytes), sprite */
    nattr = j->lay.n + 2 + (j->lay.sprite ? 1 : 0);
    for (unsigned k = 0; k < nattr; k++) {
        unsigned n = k == j->lay.back_loc ? 1 : 4;

        glEnableVertexAttribArray(k);
        glVertexAttribPointer(k, n, GL_FLOAT, GL_FALSE, j->stride * 4,
                              (void *)(uintptr_t)(k * 16));
    }
    glDrawArrays(GL_TRIANGLES, 0, j->nverts);
    for (unsigned k = 0; k < nattr; k++) {
        glDisableVertexAttribArray(k);
    }
    if (glGetError() != GL_NO_ERROR && !j->error) {
        j->error = "OpenGL reported an error";
    }
}

static __thread bool on_gl_thread;

bool r500_gl_on_thread(void)
{
    return on_gl_thread;
}

/* A sync: read back what the draws since the last one wrote. */
static void gl_read_back(R500Gl *g, GlJob *j)
{
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    for (unsigned a = 0; a < GL_ATTS; a++) {
        const GlRect *r = &j->att[a].back;

        if (!r->w) {
            continue;
        }
        if (a != GL_ATT_ZB) {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                   GL_TEXTURE_2D, a < 4 ? g->cb_tex[a]
                                   : g->cbzb_tex, 0);
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                                   GL_TEXTURE_2D, 0, 0);
            glReadBuffer(GL_COLOR_ATTACHMENT0);
            glReadPixels(r->x, r->y, r->w, r->h, a < 4 ? GL_RGBA
                         : CBZB_GL_FORMAT(g->cbzb_bpp), GL_UNSIGNED_BYTE,
                         j->att[a].back_px);
        } else {
            for (unsigned i = 0; i < 4; i++) {
                glFramebufferTexture2D(GL_FRAMEBUFFER,
                                       GL_COLOR_ATTACHMENT0 + i,
                                       GL_TEXTURE_2D, 0, 0);
            }
            glFramebufferTexture2D(GL_FRAMEBUFFER, g->zb_z24
                                   ? GL_DEPTH_STENCIL_ATTACHMENT
                                   : GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
                                   g->zb_tex, 0);
            glReadBuffer(GL_NONE);
            glReadPixels(r->x, r->y, r->w, r->h, g->zb_z24 ? GL_DEPTH_STENCIL
                         : GL_DEPTH_COMPONENT, g->zb_z24
                         ? GL_UNSIGNED_INT_24_8 : GL_UNSIGNED_SHORT,
                         j->att[a].back_px);
        }
    }
    if (glGetError() != GL_NO_ERROR) {
        j->error = "OpenGL reported an error reading back";
    }
}

static gpointer gl_thread(gpointer opaque)
{
    R500Gl *g = opaque;
    bool ok;

    on_gl_thread = true;
    ok = gl_context(g);

    g_mutex_lock(&g->lock);
    g->ready = ok;
    g->started = true;
    g_cond_broadcast(&g->cond);
    while (ok) {
        while (!g->job && !g->quit) {
            g_cond_wait(&g->cond, &g->lock);
        }
        if (g->quit) {
            break;
        }
        g_mutex_unlock(&g->lock);
        if (g->job->sync_only) {
            gl_read_back(g, g->job);
        } else {
            gl_run(g, g->job);
        }
        g_mutex_lock(&g->lock);
        g->job = NULL;
        g_cond_broadcast(&g->cond);
    }
    g_mutex_unlock(&g->lock);
    if (g->ctx != EGL_NO_CONTEXT && g->dpy != EGL_NO_DISPLAY) {
        eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
                       EGL_NO_CONTEXT);
        eglDestroyContext(g->dpy, g->ctx);
    }
    if (g->progs) {
        g_hash_table_destroy(g->progs);
    }
    return NULL;
}

/* Run the job on the GL thread and wait for it. */
static void gl_call(R500Gl *g, GlJob *j)
{
    g_mutex_lock(&g->lock);
    g->job = j;
    g_cond_broadcast(&g->cond);
    while (g->job) {
        g_cond_wait(&g->cond, &g->lock);
    }
    g_mutex_unlock(&g->lock);
}

/* ---- The caller's side ---- */

static R500Gl *gl_get(R500Chip *s)
{
    R500Gl *g = s->gl;

    if (!g) {
        g = s->gl = g_new0(R500Gl, 1);
        g_mutex_init(&g->lock);
        g_cond_init(&g->cond);
        g->ctx = EGL_NO_CONTEXT;
        g->dpy = EGL_NO_DISPLAY;
        g->verts = g_array_new(false, false, sizeof(float));
        g->texc = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                        g_free);
        g->thread = g_thread_new("r500-gl", gl_thread, g);
        g_mutex_lock(&g->lock);
        while (!g->started) {
            g_cond_wait(&g->cond, &g->lock);
        }
        g_mutex_unlock(&g->lock);
    }
    return g;
}

bool r500_gl_probe(R500Chip *s, const char **why)
{
    R500Gl *g = gl_get(s);

    *why = g->why;
    return g->ready;
}

/* Reasons a draw goes to soft, each said once per reset. */
enum {
    R500_GL_NOTE_CONTEXT, R500_GL_NOTE_STATE, R500_GL_NOTE_PROGRAM,
    R500_GL_NOTE_TEXTURE, R500_GL_NOTE_TARGET, R500_GL_NOTE_GL,
    R500_GL_NOTE_STRAY,
};

static void gl_note(R500Chip *s, unsigned what, const char *why)
{
    R500Gl *g = s->gl;

    g->last_why = why;
    if (!(g->noted & (1u << what))) {
        g->noted |= 1u << what;
        r500_unimp(s, "3D: renderer gl: %s; such draws are drawn by soft",
                   why);
    }
}

/* GL_ZERO is 0: what gl_factor() gives for a factor GL has not */
#define GL_NO_FACTOR            0xFFFFu

/* The GL blend factor of an RB3D_BLENDCNTL factor (rb3d.c). */
static GLenum gl_factor(unsigned f)
{
    switch (f) {
    case 1: case 32: return GL_ZERO;
    case 2: case 33: return GL_ONE;
    case 3: case 34: return GL_SRC_COLOR;
    case 4: case 35: return GL_ONE_MINUS_SRC_COLOR;
    case 5: case 12: case 38: return GL_SRC_ALPHA;
    case 6: case 13: case 39: return GL_ONE_MINUS_SRC_ALPHA;
    case 7: case 40: return GL_DST_ALPHA;
    case 8: case 41: return GL_ONE_MINUS_DST_ALPHA;
    case 9: case 36: return GL_DST_COLOR;
    case 10: case 37: return GL_ONE_MINUS_DST_COLOR;
    case 11: case 42: return GL_SRC_ALPHA_SATURATE;
    case 43: return GL_CONSTANT_COLOR;
    case 44: return GL_ONE_MINUS_CONSTANT_COLOR;
    case 45: return GL_CONSTANT_ALPHA;
    case 46: return GL_ONE_MINUS_CONSTANT_ALPHA;
    default: return GL_NO_FACTOR;
    }
}

static GLenum gl_equation(unsigned fn)
{
    static const GLenum eq[8] = {
        GL_FUNC_ADD, GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_SUBTRACT,
        GL_MIN, GL_MAX, GL_FUNC_REVERSE_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT,
    };

    return eq[fn & 7];
}

/* The state GL draws as soft would; NULL, or why not. */
static const char *gl_state(R500Chip *s, GlJob *j)
{
    const R500Rb3d *rb = &s->rb3d;
    const R500Rast *r = &s->rast;

    if (r->clip_rule != 0xFFFF) {
        return "clip rectangles";
    }
    if (rb->rop_on || rb->zero_output) {
        return "ROP or ZERO_OUTPUT_MASK";
    }
    if (rb->blend_on) {
        for (int c = 0; c < 2; c++) {
            int i = c ? 3 : 0;

            j->eq[c] = gl_equation(rb->bf[i].fn);
            j->sf[c] = gl_factor(rb->bf[i].src);
            j->df[c] = gl_factor(rb->bf[i].dst);
            if (j->sf[c] == GL_NO_FACTOR || j->df[c] == GL_NO_FACTOR) {
                return "a blend factor";
            }
            /* fixed-point targets clamp every result (blend4), as GL */
        }
        for (int i = 1; i < 3; i++) {
            if (memcmp(&rb->bf[i], &rb->bf[0], sizeof(rb->bf[0]))) {
                return "per-channel blend";
            }
        }
        j->blend = true;
    }
    return NULL;
}

/* ZB_ZSTENCILCNTL's functions and stencil operations in GL (2.12). */
static const GLenum gl_func[8] = {
    GL_NEVER, GL_LESS, GL_LEQUAL, GL_EQUAL, GL_GEQUAL, GL_GREATER,
    GL_NOTEQUAL, GL_ALWAYS,
};
static const GLenum gl_stencil_op[8] = {
    GL_KEEP, GL_ZERO, GL_REPLACE, GL_INCR, GL_DECR, GL_INVERT, GL_INCR_WRAP,
    GL_DECR_WRAP,
};

/*
 * Depth and stencil (zb.c): the buffer's words are GL's (Z24S8 is GL's
 * 24_8 packing, Z16 its 16-bit depth); window z goes to the buffer's
 * scale with SU_DEPTH_SCALE/OFFSET and the primitive's polygon offset at
 * the vertices (gl_tri), so GL's depth is soft's depth_fixed() but for
 * rounding.
 */
static const char *gl_depth(R500Chip *s, GlJob *j)
{
    const R500Rb3d *rb = &s->rb3d;
    const R500UsProg *p = &s->us.prog;
    R500Gl *g = s->gl;
    bool writes_w = false;

    g->zb_on = false;
    if (rb->cb_clear) {
        /*
         * The ZB colour clear (zb.c r500_zb_cb_clear): no depth or
         * stencil, the raw ZB_DEPTHCLEARVALUE into every covered pixel
         * of the ZB's memory, the colour targets written as ever.
         */
        j->cbzb = rb->zb.enabled;
        j->cbzb_bpp = rb->zb.surf.bpp;
        return NULL;
    }
    for (uint32_t i = 0; p->valid && i <= p->end - p->start; i++) {
        writes_w |= p->inst[i].type == R500_US_OUT && p->inst[i].w_omask;
    }
    if (!rb->zb.enabled || (!rb->z_test && !rb->stencil)) {
        /* nothing reads the depth: whatever the program writes there */
        return NULL;
    }
    if (writes_w && !rb->depth_from_shader) {
        return "a depth output the ZB does not take";
    }
    if (writes_w && (rb->depth_scale != 16777215.0f || rb->depth_offset ||
                     (s->regs[R_SU_POLY_OFFSET_ENABLE / 4] & 3))) {
        return "shader depth with a depth scale or polygon offset";
    }
    j->zb.on = true;
    j->zb.z24 = rb->zb.format == 2;
    j->zb.z_test = rb->z_test;
    j->zb.z_write = rb->z_write;
    j->zb.zfunc = gl_func[R500_FGET(rb->zs_cntl, ZB_ZSTENCILCNTL, ZFUNC)];
    /* only a Z24S8 buffer has a stencil byte (zb.c) */
    j->zb.stencil = rb->stencil && j->zb.z24;
    for (int f = 0; f < 2; f++) {
        R500ZsFace z = r500_zb_face(rb, f);

        j->zb.face[f].func = gl_func[z.func & 7];
        j->zb.face[f].fail = gl_stencil_op[z.fail & 7];
        j->zb.face[f].zfail = gl_stencil_op[z.zfail & 7];
        j->zb.face[f].zpass = gl_stencil_op[z.zpass & 7];
        j->zb.face[f].ref = z.ref;
        j->zb.face[f].cmask = z.cmask;
        j->zb.face[f].wmask = z.wmask;
    }
    g->zb_on = true;
    g->zscale = rb->depth_scale;
    g->zoffset = rb->depth_offset;
    return NULL;
}

/*
 * The colour targets: ARGB8888 written as four 8-bit components, its
 * rectangle read from VRAM.  GL's channels are the stored C0..C3, so
 * blending and masks act on what soft's act on.
 */
static const char *gl_targets(R500Chip *s, GlJob *j, GString *epi)
{
    static const char ch[4] = { 'r', 'g', 'b', 'a' };
    const R500Rb3d *rb = &s->rb3d;

    j->ntargets = 0;
    for (int i = 0; i < 4; i++) {
        const R500ColorTarget *t = &rb->cb[i];

        if (!t->enabled) {
            continue;
        }
        if (i != j->ntargets) {
            return "colour targets with gaps";
        }
        if (t->cformat != R500_CF_ARGB8888 || t->ofmt != R500_OF_C4_8 ||
            t->sign) {
            return "a colour format other than ARGB8888";
        }
        if (i > 0 && rb->blend_on &&
            memcmp(t->const_color, rb->cb[0].const_color, 16)) {
            return "blend constants differing per target";
        }
        memcpy(j->const_color, rb->cb[0].const_color, 16);
        j->cb[i].src = t->src;
        j->cb[i].mask = t->mask;
        g_string_append_printf(epi, "layout(location = %d) out vec4 "
                               "r500_c%d;\n", i, i);
        j->ntargets++;
    }
    if (j->cbzb) {
        uint32_t v = s->regs[R_ZB_DEPTHCLEARVALUE / 4];

        if (j->ntargets > 3) {
            return "the ZB colour clear with four targets";
        }
        /*
         * Its bytes as 8-bit unorm channels, stored exactly; a uniform,
         * so a new clear value is not a new program.
         */
        g_string_append_printf(epi, "layout(location = %d) out vec4 "
                               "r500_cz;\nuniform vec4 r500_czv;\n",
                               j->ntargets);
        for (int k = 0; k < 4; k++) {
            j->czv[k] = ((v >> (8 * k)) & 0xFF) / 255.0f;
        }
    }
    if (!j->ntargets) {
        return "no colour target";
    }
    g_string_append(epi, "void r500_epilogue() {\n");
    if (R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN)) {
        /*
         * The alpha test (rb3d.c alpha_test()) on output 0's alpha: the
         * 8-bit compare of its quantised value, or the FP16 reference.
         */
        static const char *const op[8] = {
            "false", "<", "==", "<=", ">", "!=", ">=", "true",
        };
        unsigned f = R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_FUNC);
        bool b8 = R500_FGET(rb->alpha_func, FG_ALPHA_FUNC, AF_EN_8BIT);
        float ref = b8 ? (float)R500_FGET(rb->alpha_func, FG_ALPHA_FUNC,
                                          AF_VAL) : rb->alpha_ref;
        uint32_t bits;

        memcpy(&bits, &ref, 4);
        g_string_append_printf(epi, "    float aa = %s;\n",
                               b8 ? "roundEven(clamp(r500_o0.a, 0.0, 1.0) "
                                    "* 255.0)" : "r500_o0.a");
        if (f == 0 || f == 7) {
            g_string_append_printf(epi, "    if (!%s) {\n", op[f]);
        } else {
            g_string_append_printf(epi, "    if (!(aa %s uintBitsToFloat("
                                   "0x%08xu))) {\n", op[f], bits);
        }
        g_string_append(epi, "        discard;\n    }\n");
    }
    if (rb->blend_on && rb->discard && rb->discard != 7) {
        /*
         * DISCARD_SRC_PIXELS (rb3d.c discard()): the shader's R, G, B, A
         * as 8-bit values against the thresholds' bytes B, G, R, A.
         */
        unsigned mode = rb->discard, first, last;
        bool gte = mode >= 4;
        uint32_t thr = s->regs[(gte ? R_RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD
                                    : R_RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD)
                               / 4];
        static const unsigned byte_of[4] = { 2, 1, 0, 3 };

        if (j->ntargets > 1) {
            return "DISCARD_SRC_PIXELS with several targets";
        }
        first = (mode == 1 || mode == 4) ? 3 : 0;
        last = (mode == 2 || mode == 5) ? 2 : 3;
        g_string_append_printf(epi, "    uvec4 d = uvec4(roundEven(clamp("
                               "r500_o%u, 0.0, 1.0) * 255.0));\n"
                               "    if (true", rb->cb[0].src);
        for (unsigned c = first; c <= last; c++) {
            g_string_append_printf(epi, " && d.%c %s %uu", ch[c],
                                   gte ? ">=" : "<=",
                                   (thr >> (8 * byte_of[c])) & 0xFF);
        }
        g_string_append(epi, ") {\n        discard;\n    }\n");
    }
    if (j->cbzb) {
        g_string_append(epi, "    r500_cz = r500_czv;\n");
    }
    for (int i = 0; i < j->ntargets; i++) {
        const R500ColorTarget *t = &rb->cb[i];

        g_string_append_printf(epi, "    r500_c%d = vec4(", i);
        for (int c = 0; c < 4; c++) {
            g_string_append_printf(epi, "r500_o%u.%c%s", t->src,
                                   ch[t->csel[c] & 3], c < 3 ? ", " : ");\n");
        }
    }
    g_string_append(epi, "}\n");
    return NULL;
}

static GLenum gl_wrap(unsigned mode)
{
    switch (mode) {
    case 0: return GL_REPEAT;
    case 1: return GL_MIRRORED_REPEAT;
    case 2: return GL_CLAMP_TO_EDGE;
    case 3: return GL_MIRROR_CLAMP_TO_EDGE;
    default: return GL_CLAMP_TO_BORDER;
    }
}

/* A 64-bit hash of n bytes (not cryptographic: see gl_tex_key). */
static uint64_t gl_hash(uint64_t h, const uint8_t *p, size_t n)
{
    uint64_t w;

    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    while (n--) {
        h = (h ^ *p++) * 0x9E3779B97F4A7C15ull;
    }
    return h ^ (h >> 32);
}

/*
 * The cache key of a unit's image: its decode state and every byte of
 * its chain in VRAM (the content, so a texture rewritten by the CPU, the
 * 2D engine, a DMA or a draw is a new key).  False when the chain is not
 * wholly in VRAM: such a texture is decoded for its draw and not kept.
 * A guest that made two textures collide would see its own texels in
 * the other's place: the key needs no more strength than that.
 */
static bool gl_tex_key(R500Chip *s, const R500TxUnit *t, uint64_t *key)
{
    const uint8_t *lo = NULL;
    uint64_t base = t->level[0].surf.base, off, h;
    struct {
        uint32_t fmt, first, last;
        uint8_t sign, pow2fix, gamma, gamma_mask, yuv, swap_yuv, endian,
                fetch, finish, dxtc, coord;
    } k;

    if (t->chain_end <= base ||
        !r500_mc_vram_span(s, base, t->chain_end - base, &off)) {
        return false;
    }
    lo = s->vram + off;
    memset(&k, 0, sizeof(k));
    k.fmt = t->fmt;
    k.first = t->first;
    k.last = t->last;
    k.sign = t->sign;
    k.pow2fix = t->pow2fix;
    k.gamma = t->gamma;
    k.gamma_mask = t->gamma_mask;
    k.yuv = t->yuv_to_rgb;
    k.swap_yuv = t->swap_yuv;
    k.endian = t->endian;
    k.fetch = t->fetch;
    k.finish = t->finish;
    k.dxtc = t->dxtc_swizzle;
    k.coord = t->coord_type;
    h = gl_hash(0x52353030ull, (const uint8_t *)&k, sizeof(k));
    for (unsigned l = t->first; l <= t->last; l++) {
        const R500TxLevel *lv = &t->level[l];
        uint64_t d[8] = {
            lv->surf.base - base, lv->surf.pitch, lv->surf.bpp,
            lv->surf.macro, lv->surf.micro, lv->w, lv->h,
            (uint64_t)lv->d << 32 | r500_tx_layers(t, l),
        };

        h = gl_hash(h, (const uint8_t *)d, sizeof(d));
    }
    *key = gl_hash(h, lo, t->chain_end - base);
    return true;
}

/* Forget the cache's least recently used texture (its name doomed). */
static bool gl_tex_evict(R500Gl *g)
{
    GHashTableIter it;
    gpointer v;
    GlTexEntry *old = NULL;

    if (g->ndoomed == GL_TEX_DOOMED) {
        return false;
    }
    g_hash_table_iter_init(&it, g->texc);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        GlTexEntry *e = v;

        if (!old || e->used < old->used) {
            old = e;
        }
    }
    if (!old) {
        return false;
    }
    g->doomed[g->ndoomed++] = old->name;
    g->texc_bytes -= old->bytes;
    g_hash_table_remove(g->texc, &old->key);
    return true;
}

/* After a job: keep the textures it made, within the cache's bytes. */
static void gl_tex_keep(R500Gl *g, GlJob *j, const uint64_t *keys,
                        const bool *keyed)
{
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        GlTexEntry *e;
        uint64_t bytes = 0;

        if (!j->tex[u].used || !j->tex[u].img[j->tex[u].first] ||
            !j->tex[u].name) {
            continue;           /* cached already, or never made */
        }
        if (!keyed[u] || g_hash_table_contains(g->texc, &keys[u]) ||
            g->ndoomed == GL_TEX_DOOMED) {
            /* not kept (or made twice in one draw): gone with the next */
            if (g->ndoomed < GL_TEX_DOOMED) {
                g->doomed[g->ndoomed++] = j->tex[u].name;
            }
            continue;
        }
        for (unsigned l = j->tex[u].first; l <= j->tex[u].last; l++) {
            bytes += (uint64_t)j->tex[u].w[l] * j->tex[u].h[l] *
                     j->tex[u].d[l] * 16;
        }
        while (g->texc_bytes + bytes > GL_TEX_CACHE_BYTES &&
               gl_tex_evict(g)) {
            continue;
        }
        e = g_new(GlTexEntry, 1);
        *e = (GlTexEntry) {
            .key = keys[u], .name = j->tex[u].name, .bytes = bytes,
            .used = g->tick,
        };
        g_hash_table_insert(g->texc, &e->key, e);
        g->texc_bytes += bytes;
    }
}

/* Decode the units the program samples (r500_tx_image) into j. */
static const char *gl_textures(R500Chip *s, GlJob *j, const uint16_t *ops,
                               R500Worker *w, uint64_t *keys, bool *keyed)
{
    R500Gl *g = s->gl;

    static const GLenum targets[3] = {
        GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_CUBE_MAP,
    };

    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];
        uint64_t texels = 0;

        if (!ops[u]) {
            continue;
        }
        if (t->coord_type > 1) {
            return "cube maps";
        }
        if (t->wrap[0] == 6 || t->wrap[1] == 6 || t->wrap[2] == 6) {
            for (int k = 0; k < 4; k++) {
                if (t->sel[k] != k) {
                    return "border colour with selects";
                }
            }
        }
        for (unsigned l = t->first; l <= t->last; l++) {
            texels += (uint64_t)t->level[l].w * t->level[l].h *
                      r500_tx_layers(t, l);
        }
        if (texels > GL_TEX_MAX_TEXELS) {
            return "a texture larger than the renderer uploads";
        }
        j->tex[u].used = true;
        j->tex[u].target = targets[t->coord_type];
        j->tex[u].first = t->first;
        j->tex[u].last = t->last;
        keyed[u] = gl_tex_key(s, t, &keys[u]);
        if (keyed[u]) {
            GlTexEntry *e = g_hash_table_lookup(g->texc, &keys[u]);

            if (e) {
                e->used = g->tick;
                j->tex[u].name = e->name;
                g->tex_hits++;
            }
        }
        for (unsigned l = t->first; l <= t->last && !j->tex[u].name; l++) {
            const R500TxLevel *lv = &t->level[l];

            j->tex[u].w[l] = lv->w;
            j->tex[u].h[l] = lv->h;
            j->tex[u].d[l] = r500_tx_layers(t, l);
            j->tex[u].img[l] = g_new(float, (size_t)lv->w * lv->h *
                                     r500_tx_layers(t, l) * 4);
            r500_tx_image(w, t, l, j->tex[u].img[l]);
        }
        g->tex_uploads += !j->tex[u].name;
        for (int k = 0; k < 3; k++) {
            j->tex[u].wrap[k] = gl_wrap(t->wrap[k]);
        }
        /* FILTER0: LINEAR and ANISO filter linearly, POINT and 4 not */
        j->tex[u].mag = t->mag >= 2 ? GL_LINEAR : GL_NEAREST;
        if (t->mip == 0) {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR : GL_NEAREST;
        } else if (t->mip == 1) {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR_MIPMAP_NEAREST
                                        : GL_NEAREST_MIPMAP_NEAREST;
        } else {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR_MIPMAP_LINEAR
                                        : GL_NEAREST_MIPMAP_LINEAR;
        }
        j->tex[u].bias = t->lod_bias;
        memcpy(j->tex[u].border, t->border, 16);

    }
    return NULL;
}

/* A window coordinate as a pixel index, bounded (NaN: 0). */
static int64_t px_index(float v, bool up)
{
    float f = up ? ceilf(v) : floorf(v);

    return f > 1e9f ? 1000000000 : f < -1e9f ? -1000000000
           : f == f ? (int64_t)f : 0;
}

/* The rasteriser's triangles, as vertices of the RS layout. */
static void gl_tri(void *opaque, const R500Prim *prim, const R500Vertex *v0,
                   const R500Vertex *v1, const R500Vertex *v2,
                   const R500Vertex *prov)
{
    R500Chip *s = opaque;
    R500Gl *g = s->gl;
    const R500Vertex *v[3] = { v0, v1, v2 };
    float back = prim->back ? 1.0f : 0.0f;
    double area = ((double)v1->win[0] - v0->win[0]) *
                  ((double)v2->win[1] - v0->win[1]) -
                  ((double)v2->win[0] - v0->win[0]) *
                  ((double)v1->win[1] - v0->win[1]);

    /*
     * GL's facing (for two-sided stencil) from the winding: counter-
     * clockwise in GL's window, where y is the surface's row, is front.
     */
    if ((area < 0) != prim->back) {
        v[1] = v2;
        v[2] = v1;
    }
    for (int k = 0; k < 3; k++) {
        float win[4] = { v[k]->win[0], v[k]->win[1], v[k]->win[2],
                         v[k]->win[3] };

        if (g->zb_on) {
            /* depth_fixed() (rb3d.c) in GL's 0..1 of the buffer */
            double z = fmin(fmax(win[2], 0.0), 1.0);

            win[2] = (float)((z * g->zscale + g->zoffset + prim->depth_bias) /
                             16777215.0);
        }
        g_array_append_vals(g->verts, win, 4);
        g->bx0 = MIN(g->bx0, px_index(v[k]->win[0], false));
        g->by0 = MIN(g->by0, px_index(v[k]->win[1], false));
        g->bx1 = MAX(g->bx1, px_index(v[k]->win[0], true));
        g->by1 = MAX(g->by1, px_index(v[k]->win[1], true));
        for (unsigned i = 0; i < g->lay.n; i++) {
            const R500Vertex *src = g->lay.flat[i] ? prov : v[k];
            unsigned grp = g->lay.group[i];

            /* two-sided colour: back faces take colours 2/3 (scan.c) */
            if (prim->back && grp < 2 &&
                ((s->rast.colours >> (2 + grp)) & 1)) {
                grp += 2;
            }
            g_array_append_vals(g->verts, &src->attr[4 * grp], 4);
        }
        g_array_append_vals(g->verts, &back, 1);
        /* padding: every attribute starts at a multiple of 16 bytes */
        g_array_append_vals(g->verts, (const float[3]) { 0, 0, 0 }, 3);
        if (g->lay.sprite) {
            const float st[4] = { v[k]->sprite[0], v[k]->sprite[1], 0, 0 };

            g_array_append_vals(g->verts, st, 4);
        }
    }
    g->tris++;
}

/* With tri() set the rasteriser emits no quads (rast.h): a bug if one
 * comes. */
static void gl_stray_quad(void *opaque, const R500Prim *prim, int x, int y,
                          unsigned mask)
{
    R500Chip *s = opaque;

    s->gl->stray = true;
}

/*
 * Read (or write) rectangle r of a surface between memory and px (rows of
 * r->w pixels of sf->bpp bytes): VRAM directly, GART through the MC;
 * false (a guest error logged by the MC) when part of it is neither.
 */
static bool gl_surface_io(R500Chip *s, const R500Surf *sf, const GlRect *r,
                          uint8_t *px, bool write)
{
    uint64_t lo, hi, off;
    uint8_t *mem, *tmp = NULL;

    r500_surf_rect_span(sf, r->x, r->y, r->x + r->w - 1, r->y + r->h - 1,
                        &lo, &hi);
    if (r500_mc_vram_span(s, sf->base + lo, hi - lo, &off)) {
        mem = s->vram + off - lo;       /* the surface's base in VRAM */
    } else {
        /*
         * GART (or a bad address): the span through the MC in one piece,
         * checked; written back whole (the bytes between the rectangle's
         * pixels as they were read: nobody else writes meanwhile).
         */
        if (hi - lo > GL_SPAN_MAX) {
            return false;
        }
        tmp = g_malloc(hi - lo);
        if (!r500_mem_read(s, sf->base + lo, tmp, hi - lo)) {
            g_free(tmp);
            return false;
        }
        mem = tmp - lo;
    }
    for (int y = 0; y < r->h; y++) {
        for (int x = 0; x < r->w;) {
            uint32_t n = r500_surf_run(sf, r->x + x, r->w - x);
            uint8_t *m = mem + r500_surf_offset(sf, r->x + x, r->y + y);
            uint8_t *p = px + ((size_t)y * r->w + x) * sf->bpp;

            if (write) {
                memcpy(m, p, n * sf->bpp);
            } else {
                memcpy(p, m, n * sf->bpp);
            }
            x += n;
        }
    }
    if (tmp) {
        bool ok = !write || r500_mem_write(s, sf->base + lo, tmp, hi - lo);

        g_free(tmp);
        return ok;
    }
    if (write) {
        r500_vram_dirty(s, off, hi - lo);
    }
    return true;
}

static GlRect rect_union(GlRect a, GlRect b)
{
    int x0, y0, x1, y1;

    if (!a.w) {
        return b;
    }
    if (!b.w) {
        return a;
    }
    x0 = MIN(a.x, b.x);
    y0 = MIN(a.y, b.y);
    x1 = MAX(a.x + a.w, b.x + b.w);
    y1 = MAX(a.y + a.h, b.y + b.h);
    return (GlRect) { x0, y0, x1 - x0, y1 - y0 };
}

/*
 * Write back what GL drew since the last sync and forget the host
 * copies: memory is the truth again.  Nothing happens when nothing is
 * resident.
 */
static void gl_flush(R500Chip *s)
{
    R500Gl *g = s->gl;
    GlJob j = { .sync_only = true };
    bool any = false;

    if (!g) {
        return;
    }
    for (unsigned a = 0; a < GL_ATTS; a++) {
        if (g->res[a].on && g->res[a].dirty.w) {
            j.att[a].back = g->res[a].dirty;
            j.att[a].back_px = g_malloc((size_t)g->res[a].dirty.w *
                                        g->res[a].dirty.h *
                                        g->res[a].surf.bpp);
            any = true;
        }
    }
    if (any) {
        gl_call(g, &j);
        g->flushes++;
        for (unsigned a = 0; a < GL_ATTS; a++) {
            if (j.att[a].back_px && !j.error) {
                gl_surface_io(s, &g->res[a].surf, &j.att[a].back,
                              j.att[a].back_px, true);
            }
            g_free(j.att[a].back_px);
        }
        if (j.error) {
            gl_note(s, R500_GL_NOTE_GL, j.error);
        }
    }
    for (unsigned a = 0; a < GL_ATTS; a++) {
        g->res[a].on = false;
    }
}

static bool surf_same(const R500Surf *a, const R500Surf *b)
{
    return a->base == b->base && a->pitch == b->pitch && a->bpp == b->bpp &&
           a->macro == b->macro && a->micro == b->micro;
}

/* Whether MC bytes [lo, hi) may hold a resident surface's pixels. */
static bool gl_res_overlaps(R500Gl *g, uint64_t lo, uint64_t hi)
{
    for (unsigned a = 0; a < GL_ATTS; a++) {
        uint64_t slo, shi;
        const GlRect *r = &g->res[a].res;

        if (!g->res[a].on) {
            continue;
        }
        r500_surf_rect_span(&g->res[a].surf, r->x, r->y, r->x + r->w - 1,
                            r->y + r->h - 1, &slo, &shi);
        if (lo < g->res[a].surf.base + shi && g->res[a].surf.base + slo < hi) {
            return true;
        }
    }
    return false;
}

/*
 * Attachment a of this draw, surface sf, box b: what to upload (the
 * strips of the new resident rectangle not resident yet), read from
 * memory.  False when they are not in memory.
 */
static bool gl_attach(R500Chip *s, GlJob *j, unsigned a, const R500Surf *sf,
                      GlRect b)
{
    R500Gl *g = s->gl;
    GlRect r = g->res[a].on ? g->res[a].res : (GlRect) { 0 };
    GlRect u = rect_union(r, b);
    GlRect strips[4];
    unsigned n = 0;

    if (!r.w) {
        strips[n++] = u;
    } else {
        /* above and below r across u, left and right of it in its rows */
        if (r.y > u.y) {
            strips[n++] = (GlRect) { u.x, u.y, u.w, r.y - u.y };
        }
        if (u.y + u.h > r.y + r.h) {
            strips[n++] = (GlRect) { u.x, r.y + r.h, u.w,
                                     u.y + u.h - (r.y + r.h) };
        }
        if (r.x > u.x) {
            strips[n++] = (GlRect) { u.x, r.y, r.x - u.x, r.h };
        }
        if (u.x + u.w > r.x + r.w) {
            strips[n++] = (GlRect) { r.x + r.w, r.y,
                                     u.x + u.w - (r.x + r.w), r.h };
        }
    }
    j->att[a].used = true;
    j->att[a].nup = n;
    for (unsigned k = 0; k < n; k++) {
        j->att[a].up[k] = strips[k];
        j->att[a].up_px[k] = g_malloc((size_t)strips[k].w * strips[k].h *
                                      sf->bpp);
        if (!gl_surface_io(s, sf, &strips[k], j->att[a].up_px[k], false)) {
            return false;
        }
    }
    g->att_w[a] = j->att[a].tw = MAX(g->att_w[a], u.x + u.w);
    g->att_h[a] = j->att[a].th = MAX(g->att_h[a], u.y + u.h);
    return true;
}

/* After the draw: the attachment's resident and written rectangles. */
static void gl_attached(R500Gl *g, unsigned a, const R500Surf *sf, GlRect b,
                        bool written)
{
    GlRect r = g->res[a].on ? g->res[a].res : (GlRect) { 0 };
    GlRect d = g->res[a].on ? g->res[a].dirty : (GlRect) { 0 };

    g->res[a].on = true;
    g->res[a].surf = *sf;
    g->res[a].res = rect_union(r, b);
    g->res[a].dirty = written ? rect_union(d, b) : d;
}

static void gl_job_free(GlJob *j)
{
    for (unsigned a = 0; a < GL_ATTS; a++) {
        for (unsigned k = 0; k < 4; k++) {
            g_free(j->att[a].up_px[k]);
        }
        g_free(j->att[a].back_px);
    }
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        for (unsigned l = 0; l < R500_TX_LEVELS; l++) {
            g_free(j->tex[u].img[l]);
        }
    }
}

/*
 * Draw on GL; false (nothing drawn, nothing counted) when soft must: the
 * reason noted.
 */
static bool gl_try(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    R500Gl *g = gl_get(s);
    R500Worker *w;
    GlJob j = { 0 };
    GString *vs, *fs, *pro, *epi;
    uint16_t ops[16] = { 0 };
    uint64_t keys[R500_TX_UNITS];
    bool keyed[R500_TX_UNITS] = { false };
    const char *why = NULL;
    R500UsGlslIn gin = { 0 };
    R500RastSink sink = *in;
    unsigned note = R500_GL_NOTE_STATE;
    bool ok = false;

    g->last_why = NULL;
    if (!g->ready) {
        gl_note(s, R500_GL_NOTE_CONTEXT, g->why ? g->why : "no context");
        return false;
    }
    why = gl_state(s, &j);
    vs = g_string_new(NULL);
    pro = g_string_new(NULL);
    fs = g_string_new(NULL);
    epi = g_string_new(NULL);
    if (!why) {
        why = gl_depth(s, &j);
    }
    if (!why) {
        note = R500_GL_NOTE_TARGET;
        why = gl_targets(s, &j, epi);
    }
    if (!why && !r500_rs_glsl(&s->rast, vs, pro, &j.lay, &why)) {
        note = R500_GL_NOTE_PROGRAM;
    }
    if (!why) {
        gin.prologue = pro->str;
        gin.ztae = s->us.zero_times_anything;
        gin.epilogue = true;
        if (!r500_us_glsl(&s->us.prog, &gin, fs, ops, &why)) {
            note = R500_GL_NOTE_PROGRAM;
        }
    }
    for (unsigned u = 0; u < 16 && !why; u++) {
        if (ops[u] && !r500_tx_glsl(&s->tx.unit[u], u, ops[u], fs, &why)) {
            note = R500_GL_NOTE_TEXTURE;
        }
    }
    if (why) {
        goto out;
    }
    g_string_append(fs, epi->str);
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];

        /* a texture drawn into since the last sync: memory first */
        if (ops[u] && t->valid &&
            gl_res_overlaps(g, t->level[0].surf.base, t->chain_end)) {
            gl_flush(s);
            break;
        }
    }
    w = r500_soft_begin(s);
    note = R500_GL_NOTE_TEXTURE;
    g->tick++;
    why = gl_textures(s, &j, ops, w, keys, keyed);
    if (why) {
        goto out;
    }

    /* the draw walk, the triangles collected */
    g->lay = j.lay;
    g->stride = 4 + 4 * j.lay.n + 4 + (j.lay.sprite ? 4 : 0);
    g_array_set_size(g->verts, 0);
    g->bx0 = g->by0 = INT64_MAX;
    g->bx1 = g->by1 = INT64_MIN;
    g->tris = 0;
    g->stray = false;
    sink.tri = gl_tri;
    sink.quad = gl_stray_quad;
    sink.rect = NULL;
    sink.quad_opaque = s;
    r500_rast_draw(s, num, &sink);
    ok = true;
    if (g->stray) {
        gl_note(s, R500_GL_NOTE_STRAY, "a quad reached the triangle sink");
    }
    if (!g->tris) {
        goto out;
    }

    /* the rectangle the triangles can touch: their bounds in the scissor */
    {
        const R500Rast *r = &s->rast;
        int64_t x0 = MAX(g->bx0 - 1, r->sc_x0), y0 = MAX(g->by0 - 1, r->sc_y0);
        int64_t x1 = MIN(g->bx1 + 1, r->sc_x1), y1 = MIN(g->by1 + 1, r->sc_y1);

        x0 = MAX(x0, 0);
        y0 = MAX(y0, 0);
        x1 = MIN(x1, (int64_t)s->rb3d.cb[0].surf.pitch - 1);
        if (j.zb.on || j.cbzb) {
            /*
             * No pixel past the ZB's pitch passes (zb.c); the ZB colour
             * clear writes none there either (its colour target, the
             * other half of one surface, has the same pitch).
             */
            x1 = MIN(x1, (int64_t)s->rb3d.zb.surf.pitch - 1);
        }
        y1 = MIN(y1, GL_TARGET_MAX - 1);
        if (x1 < x0 || y1 < y0) {
            goto out;
        }
        j.bx = x0;
        j.by = y0;
        j.bw = x1 - x0 + 1;
        j.bh = y1 - y0 + 1;
        j.sc[0] = j.bx;
        j.sc[1] = j.by;
        j.sc[2] = j.bw;
        j.sc[3] = j.bh;
        j.size[0] = s->rb3d.cb[0].surf.pitch;
        j.size[1] = y1 + 1;
    }
    /*
     * The resident surfaces go on only if this draw's are the same ones
     * (and their textures need not grow, which loses their contents).
     */
    {
        GlRect b = { j.bx, j.by, j.bw, j.bh };
        bool same = true;

        for (unsigned a = 0; a < GL_ATTS; a++) {
            const R500Surf *sf = a < 4 ? &s->rb3d.cb[a].surf
                                       : &s->rb3d.zb.surf;
            bool want = a < 4 ? a < j.ntargets
                        : a == GL_ATT_ZB ? j.zb.on : j.cbzb;
            GlRect u = rect_union(g->res[a].on ? g->res[a].res
                                                : (GlRect) { 0 }, b);

            if (g->res[a].on && (!want || !surf_same(&g->res[a].surf, sf) ||
                                 (a == GL_ATT_ZB &&
                                  g->res_z24 != j.zb.z24))) {
                same = false;
            }
            if (g->res[a].on && want && (u.x + u.w > g->att_w[a] ||
                                         u.y + u.h > g->att_h[a])) {
                same = false;
            }
        }
        if (!same) {
            gl_flush(s);
        }
        for (unsigned i = 0; i < j.ntargets; i++) {
            if (!gl_attach(s, &j, i, &s->rb3d.cb[i].surf, b)) {
                /*
                 * Not wholly in VRAM.  The vertices are shaded already,
                 * so the draw is finished here: the guest's bad address
                 * draws nothing, as soft drops the pixels it cannot write.
                 */
                r500_guest_error(s, "3D: renderer gl: colour target %u "
                                 "is not in memory; draw dropped", i);
                goto out;
            }
        }
        if (j.cbzb && !gl_attach(s, &j, GL_ATT_CBZB, &s->rb3d.zb.surf, b)) {
            r500_guest_error(s, "3D: renderer gl: the depth buffer is not "
                             "in memory; draw dropped");
            goto out;
        }
        if (j.zb.on && !gl_attach(s, &j, GL_ATT_ZB, &s->rb3d.zb.surf, b)) {
            r500_guest_error(s, "3D: renderer gl: the depth buffer is not "
                             "in memory; draw dropped");
            goto out;
        }
    }
    j.vs = vs->str;
    j.fs = fs->str;
    j.verts = (const float *)g->verts->data;
    j.nverts = g->verts->len / g->stride;
    j.stride = g->stride;
    j.kconst = &s->us.kconst[0][0];
    memcpy(j.doomed, g->doomed, sizeof(j.doomed));
    j.ndoomed = g->ndoomed;
    g->ndoomed = 0;
    gl_call(g, &j);
    gl_tex_keep(g, &j, keys, keyed);
    if (j.error) {
        gl_note(s, R500_GL_NOTE_GL, j.error);
        goto out;
    }
    {
        GlRect b = { j.bx, j.by, j.bw, j.bh };

        for (unsigned i = 0; i < j.ntargets; i++) {
            gl_attached(g, i, &s->rb3d.cb[i].surf, b, j.cb[i].mask != 0);
        }
        if (j.cbzb) {
            gl_attached(g, GL_ATT_CBZB, &s->rb3d.zb.surf, b, true);
        }
        if (j.zb.on) {
            g->res_z24 = j.zb.z24;
            gl_attached(g, GL_ATT_ZB, &s->rb3d.zb.surf, b,
                        j.zb.z_write || j.zb.stencil);
        }
    }
    s->rb3d.pixels += (uint64_t)j.bw * j.bh;

out:
    if (why) {
        gl_note(s, note, why);
    }
    /*
     * The texels were read through the page cache soft's draws use
     * (r500_soft_begin): drop it as soft does at a draw's end, or the next
     * draw reads pages of GART memory the CPU has rewritten since.
     */
    r500_rb3d_finish(s);
    gl_job_free(&j);
    g_string_free(vs, true);
    g_string_free(pro, true);
    g_string_free(fs, true);
    g_string_free(epi, true);
    return ok;
}

static void gl_draw(R500Chip *s, uint32_t num, const R500RastSink *in)
{
    static int verbose = -1;
    bool ok = gl_try(s, num, in);

    if (verbose < 0) {
        /* R500_GL_VERBOSE: say on stderr where each draw went */
        verbose = g_getenv("R500_GL_VERBOSE") != NULL;
    }
    if (verbose) {
        g_printerr("r500 gl: draw %" G_GUINT64_FORMAT " of %u vertices: %s\n",
                   s->gl->draws + s->gl->fallbacks, num,
                   ok ? "gl" : s->gl->last_why ? s->gl->last_why : "soft");
    }
    if (ok) {
        s->gl->draws++;
        return;
    }
    s->gl->fallbacks++;
    /* soft reads and writes memory: the host's surfaces go there first */
    gl_flush(s);
    r500_soft_renderer.draw(s, num, in);
}

static uint64_t gl_work(R500Chip *s)
{
    /* soft's, for the draws it draws; GL's own work is not metered */
    return r500_soft_renderer.work(s);
}

/* Whoever looks next sees memory: the surfaces GL holds go back. */
static void gl_sync(R500Chip *s, R500Sync why)
{
    gl_flush(s);
}

static void gl_reset(R500Chip *s)
{
    if (s->gl) {
        /* written back by the reset's sync (core.c): nothing resident */
        s->gl->noted = 0;
    }
    r500_soft_renderer.reset(s);
}

void r500_gl_free(R500Chip *s)
{
    R500Gl *g = s->gl;

    if (!g) {
        return;
    }
    if (g->ready) {
        /* a renderer switched away from leaves memory the truth */
        gl_flush(s);
    }
    g_mutex_lock(&g->lock);
    g->quit = true;
    g_cond_broadcast(&g->cond);
    g_mutex_unlock(&g->lock);
    g_thread_join(g->thread);
    g_array_free(g->verts, true);
    /* the textures went with the context */
    g_hash_table_destroy(g->texc);
    g_mutex_clear(&g->lock);
    g_cond_clear(&g->cond);
    g_free(g);
    s->gl = NULL;
}

static void gl_fini(R500Chip *s)
{
    r500_soft_renderer.fini(s);
    r500_gl_free(s);
}

void r500_gl_stats(R500Chip *s, uint64_t *draws, uint64_t *fallbacks)
{
    *draws = s->gl ? s->gl->draws : 0;
    *fallbacks = s->gl ? s->gl->fallbacks : 0;
}

static const R500RendererOps gl_renderer = {
    .name = "gl",
    .draw = gl_draw,
    .work = gl_work,
    .sync = gl_sync,
    .reset = gl_reset,
    .fini = gl_fini,
};

const R500RendererOps *r500_gl_ops(void)
{
    return &gl_renderer;
}
