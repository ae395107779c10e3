/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_thread: the host-GL renderer's thread (gl.c says the design).  It
 * alone has the EGL context current: it compiles the translated
 * programs, keeps the colour, depth and texture objects, runs each job
 * the caller prepared (gl_run) and reads back at a sync (gl_read_back).
 */
#include <string.h>

#include "gl_int.h"

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
    {
        /* every draw's window is GL_TARGET_MAX square (gl_try) */
        GLint dims[2] = { 0, 0 };

        glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
        if (dims[0] < GL_TARGET_MAX || dims[1] < GL_TARGET_MAX) {
            g->why = "the host's largest viewport is under 8192 pixels";
            return false;
        }
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
    GLuint prog, q;
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
    if (j->logic_op) {
        glEnable(GL_COLOR_LOGIC_OP);
        glLogicOp(j->logic_op);
    } else {
        glDisable(GL_COLOR_LOGIC_OP);
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
    /*
     * Every draw is counted, as the ZB counts (ZB_ZPASS_*): samples that
     * passed the depth and stencil tests, collected at the next sync.
     */
    if (g->zfree->len) {
        q = g_array_index(g->zfree, GLuint, g->zfree->len - 1);
        g_array_set_size(g->zfree, g->zfree->len - 1);
    } else {
        glGenQueries(1, &q);
    }
    glBeginQuery(GL_SAMPLES_PASSED, q);
    glDrawArrays(GL_TRIANGLES, 0, j->nverts);
    glEndQuery(GL_SAMPLES_PASSED);
    g_array_append_val(g->zq, q);
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

/*
 * The draws' occlusion counts since the last collection, summed.  Their
 * query objects are kept for the next draws (GL_QUERY_POOL at most: one
 * CP run's draws, as every run ends in a sync), not made per draw.
 */
#define GL_QUERY_POOL 1024

static void gl_counts(R500Gl *g, GlJob *j)
{
    guint keep = MIN(g->zq->len, GL_QUERY_POOL - g->zfree->len);

    for (guint i = 0; i < g->zq->len; i++) {
        GLuint q = g_array_index(g->zq, GLuint, i);
        GLuint64 n = 0;

        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &n);
        j->zpass += n;
    }
    g_array_append_vals(g->zfree, g->zq->data, keep);
    if (g->zq->len > keep) {
        glDeleteQueries(g->zq->len - keep, (GLuint *)g->zq->data + keep);
    }
    g_array_set_size(g->zq, 0);
}

gpointer r500_gl_thread(gpointer opaque)
{
    R500Gl *g = opaque;
    bool ok;

    on_gl_thread = true;
    g->zq = g_array_new(false, false, sizeof(GLuint));
    g->zfree = g_array_new(false, false, sizeof(GLuint));
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
            if (g->job->counts) {
                gl_counts(g, g->job);
            }
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
    /* the queries went with the context */
    g_array_free(g->zq, true);
    g_array_free(g->zfree, true);
    return NULL;
}

/* Run the job on the GL thread and wait for it. */
void r500_gl_call(R500Gl *g, GlJob *j)
{
    g_mutex_lock(&g->lock);
    g->job = j;
    g_cond_broadcast(&g->cond);
    while (g->job) {
        g_cond_wait(&g->cond, &g->lock);
    }
    g_mutex_unlock(&g->lock);
}

