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
static EGLDisplay gl_display(R500Gl *g)
{
    if (g->device_sw &&
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
    g->dpy = g->fault_open == GL_FAULT_DISPLAY ? EGL_NO_DISPLAY
                                                : gl_display(g);
    if (g->dpy == EGL_NO_DISPLAY || !eglInitialize(g->dpy, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_API)) {
        g->why = "no EGL display (surfaceless or software device)";
        return false;
    }
    g->ctx = g->fault_open == GL_FAULT_CONTEXT ? EGL_NO_CONTEXT :
             eglCreateContext(g->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                              attr);
    if (g->ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx)) {
        g->why = "no OpenGL 4.5 core context";
        return false;
    }
    {
        /* every draw's window is GL_TARGET_MAX square (gl_try) */
        GLint dims[2] = { 0, 0 };

        GLfloat range[2] = { 0, 0 };

        glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
        if (dims[0] < GL_TARGET_MAX || dims[1] < GL_TARGET_MAX) {
            g->why = "the host's largest viewport is under 8192 pixels";
            return false;
        }
        /* the VTE's viewports GL can take (gl_vertex.c) */
        glGetFloatv(GL_VIEWPORT_BOUNDS_RANGE, range);
        g->vp_max = MIN(dims[0], dims[1]);
        g->vp_range[0] = range[0];
        g->vp_range[1] = range[1];
    }
    glGenFramebuffers(1, &g->fbo);
    /*
     * A draw with neither colour targets nor a depth buffer still counts
     * its samples (ZB_ZPASS_*): the framebuffer without attachments is
     * the draws' window.
     */
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH,
                            GL_TARGET_MAX);
    glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT,
                            GL_TARGET_MAX);
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(1, &g->vbo);
    glGenBuffers(1, &g->ebo);
    /*
     * Window z is 0..1 as the VTE made it; nothing is clipped again
     * (with the vertex stage on the host, gl_vtx_state() clips).
     */
    glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    glEnable(GL_DEPTH_CLAMP);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* read back the bits stored: a SNORM surface's negative values too */
    glClampColor(GL_CLAMP_READ_COLOR, GL_FALSE);
    g->kinds_ok = r500_gl_kinds_probe(g->fbo);
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
    if (g->verbose >= 2) {
        r500_note(g->s, "gl: new program\n%s\n%s", j->vs, j->fs);
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
    /*
     * A failure is remembered too: it is not compiled again.  A guest
     * that makes ever new programs (each constant window of the vertex
     * program is one) starts the cache afresh past GL_PROG_MAX, so the
     * host's memory stays bounded.
     */
    if (g_hash_table_size(g->progs) >= GL_PROG_MAX) {
        GHashTableIter it;
        gpointer v;

        g_hash_table_iter_init(&it, g->progs);
        while (g_hash_table_iter_next(&it, NULL, &v)) {
            glDeleteProgram(GPOINTER_TO_UINT(v));
        }
        g_hash_table_remove_all(g->progs);
    }
    g_hash_table_insert(g->progs, key, GUINT_TO_POINTER(prog));
    return prog;
}

/*
 * Unit u's texture made from its slot (gl_tex.c r500_gl_tex_slot): the
 * slot's RGBA8 texels as RGBA32F, the values r500_tx_decode gives, c /
 * 255 to the bit.  (llvmpipe's own conversion of UNORM8 is a multiply
 * that misses by an ulp for half the values; rounding to the integer
 * first and dividing is exact.)  A draw into a texture of its own, with
 * every state that could touch it set here: the job's draw sets all of
 * them again.
 */
static const char slot_vs[] =
    "#version 450 core\n"
    "void main() {\n"
    "    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";
static const char slot_fs[] =
    "#version 450 core\n"
    "uniform sampler2D r500_slot;\n"
    "uniform int r500_oy;\n"
    "out vec4 r500_o;\n"
    "void main() {\n"
    "    ivec2 p = ivec2(gl_FragCoord.xy) - ivec2(0, r500_oy);\n"
    "    vec4 c = texelFetch(r500_slot, p, 0);\n"
    "    r500_o = round(c * 255.0) / 255.0;\n"
    "}\n";

/*
 * Unit u's texture as one slot's own RGBA8 texture, sampled as it is, no
 * conversion: when the slot holds the whole texture at its origin and is
 * of its size (GL's coordinates and wraps are the texture's), and the
 * job neither draws into it nor lets it go.  Point samples come out
 * exact (tx_glsl.c r500_tx_glsl_point8); bilinear ones are llvmpipe's
 * 8-bit filtering, as the R500's is fixed point, not RGBA32F's floats
 * (within the scenes' tolerance for filtering, tests/mesa/run.py).
 * 0 where it cannot be.
 */
static GLuint gl_slot_as_is(R500Gl *g, const GlJob *j, unsigned u)
{
    uint32_t from = j->tex[u].from_slots;       /* not 0: made from slots */
    unsigned k = __builtin_ctz(from);
    GlRect whole = { 0, 0, (int)j->tex[u].w[0], (int)j->tex[u].h[0] };

    if ((from & (from - 1)) || j->tex[u].piece[k].oy ||
        memcmp(&j->tex[u].piece[k].r, &whole, sizeof(whole)) ||
        !g->slot[k].tex || g->slot[k].kind != GL_KIND_RGBA8 ||
        g->slot[k].w != whole.w || g->slot[k].h != whole.h ||
        (j->drop >> k & 1)) {
        return 0;
    }
    /* every slot the job writes is an attachment it uses (gl.c) */
    for (unsigned a = 0; a < GL_ATTS; a++) {
        if (j->att[a].used && j->att[a].slot == k) {
            return 0;
        }
    }
    return g->slot[k].tex;
}

/* Kept in R500Gl.stex up to this size; a larger one is made per draw. */
#define GL_STEX_KEEP_BYTES  (8u << 20)

static GLuint gl_slot_texture(R500Gl *g, GlJob *j, unsigned u, bool *as_is)
{
    GLuint name;
    GLint oy;
    const char *err = NULL;
    GlSlotTexKey key;
    bool keep = (uint64_t)j->tex[u].w[0] * j->tex[u].h[0] * 16 <=
                GL_STEX_KEEP_BYTES;

    memset(&key, 0, sizeof(key));
    key.w = j->tex[u].w[0];
    key.h = j->tex[u].h[0];
    key.from_slots = j->tex[u].from_slots;
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        if (j->tex[u].from_slots >> k & 1) {
            key.piece[k].r = j->tex[u].piece[k].r;
            key.piece[k].oy = j->tex[u].piece[k].oy;
            key.piece[k].gen = g->slot[k].gen;
        }
    }
    /* (a key never made is all zero: no slots, never equal) */
    if (!memcmp(&key, &g->stex[u].key, sizeof(key))) {
        /*
         * Texels sampled before and unchanged since: from the slot
         * itself where it can be.  Not the first time: a target read
         * once and drawn into again (the read at the end of a frame)
         * makes llvmpipe's next draw into it slower by more than the
         * conversion costs (host bench, triangles).
         */
        name = gl_slot_as_is(g, j, u);
        if (name) {
            *as_is = true;
            __atomic_fetch_add(&g->stex_as_is, 1, __ATOMIC_RELAXED);
            return name;
        }
        if (g->stex[u].tex) {
            return g->stex[u].tex;
        }
        /* seen, but too large to keep: made again */
    } else if (g->stex[u].tex) {
        /*
         * Not drawn over in place: llvmpipe would first wait for the
         * draws still sampling it (a frame's whole work, where the read
         * of a target at the end of each frame makes this texture).
         */
        glDeleteTextures(1, &g->stex[u].tex);
        g->stex[u].tex = 0;
    }

    if (!g->cprog) {
        GLuint vs = gl_shader(GL_VERTEX_SHADER, slot_vs, &err);
        GLuint fs = gl_shader(GL_FRAGMENT_SHADER, slot_fs, &err);

        if (err) {
            glDeleteShader(vs);
            glDeleteShader(fs);
            j->error = "the slot texture's program does not compile";
            return 0;
        }
        g->cprog = glCreateProgram();
        glAttachShader(g->cprog, vs);
        glAttachShader(g->cprog, fs);
        glLinkProgram(g->cprog);
        glDeleteShader(vs);
        glDeleteShader(fs);
        glGenFramebuffers(1, &g->cfbo);
        glGenVertexArrays(1, &g->cvao);
    }
    glGenTextures(1, &name);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, name);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, j->tex[u].w[0],
                 j->tex[u].h[0], 0, GL_RGBA, GL_FLOAT, NULL);
    g->stex[u].key = key;
    if (keep) {
        g->stex[u].tex = name;
    }
    __atomic_fetch_add(&g->stex_passes, 1, __ATOMIC_RELAXED);
    glBindFramebuffer(GL_FRAMEBUFFER, g->cfbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                           GL_TEXTURE_2D, name, 0);
    glDrawBuffer(GL_COLOR_ATTACHMENT0);
    glEnable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_COLOR_LOGIC_OP);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glDisable(GL_CULL_FACE);
    for (unsigned p = 0; p < 6; p++) {
        glDisable(GL_CLIP_DISTANCE0 + p);
    }
    glColorMaski(0, 1, 1, 1, 1);
    glViewport(0, 0, j->tex[u].w[0], j->tex[u].h[0]);
    glUseProgram(g->cprog);
    glUniform1i(glGetUniformLocation(g->cprog, "r500_slot"), 0);
    oy = glGetUniformLocation(g->cprog, "r500_oy");
    glBindVertexArray(g->cvao);
    /* each slot's piece of the texture */
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        const GlRect *r = &j->tex[u].piece[k].r;

        if (!(j->tex[u].from_slots >> k & 1)) {
            continue;
        }
        glScissor(r->x, r->y, r->w, r->h);
        glUniform1i(oy, j->tex[u].piece[k].oy);
        glBindTexture(GL_TEXTURE_2D, g->slot[k].tex);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    return name;
}

static void gl_upload_texture(R500Gl *g, GlJob *j, unsigned u)
{
    GLenum t = j->tex[u].target;

    glActiveTexture(GL_TEXTURE0 + u);
    if (j->tex[u].from_slots || !j->tex[u].img[j->tex[u].first]) {
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
        } else if (t == GL_TEXTURE_CUBE_MAP) {
            /* the layers of r500_tx_image are the faces in GL's order */
            size_t face = (size_t)j->tex[u].w[l] * j->tex[u].h[l] * 4;

            for (unsigned f = 0; f < 6; f++) {
                glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, l,
                             GL_RGBA32F, j->tex[u].w[l], j->tex[u].h[l], 0,
                             GL_RGBA, GL_FLOAT, j->tex[u].img[l] + f * face);
            }
        } else {
            glTexImage2D(t, l, GL_RGBA32F, j->tex[u].w[l], j->tex[u].h[l], 0,
                         GL_RGBA, GL_FLOAT, j->tex[u].img[l]);
        }
    }
    if (g->verbose >= 2) {
        r500_note(g->s, "gl: unit %u: target 0x%x levels %u..%u, level 0 "
                  "%ux%ux%u, min 0x%x mag 0x%x", u, t, j->tex[u].first,
                  j->tex[u].last, j->tex[u].w[j->tex[u].first],
                  j->tex[u].h[j->tex[u].first], j->tex[u].d[j->tex[u].first],
                  j->tex[u].min, j->tex[u].mag);
    }
sampler:
    /*
     * Levels first..last, the base level first.  The LOD, the unit's
     * bias in, is tx.c's from the shader (tx_glsl.c r500_lod): GL's
     * MIN_LOD, MAX_LOD and LOD_BIAS keep their defaults.
     */
    glTexParameteri(t, GL_TEXTURE_BASE_LEVEL, j->tex[u].first);
    glTexParameteri(t, GL_TEXTURE_MAX_LEVEL, j->tex[u].last);
    glTexParameteri(t, GL_TEXTURE_WRAP_S, j->tex[u].wrap[0]);
    glTexParameteri(t, GL_TEXTURE_WRAP_T, j->tex[u].wrap[1]);
    glTexParameteri(t, GL_TEXTURE_WRAP_R, j->tex[u].wrap[2]);
    glTexParameteri(t, GL_TEXTURE_MAG_FILTER, j->tex[u].mag);
    glTexParameteri(t, GL_TEXTURE_MIN_FILTER, j->tex[u].min);
    glTexParameterfv(t, GL_TEXTURE_BORDER_COLOR, j->tex[u].border);
}

/* The slots the caller let go: their textures' memory is freed. */
static void gl_drop(R500Gl *g, uint32_t drop)
{
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        if ((drop >> k & 1) && g->slot[k].tex) {
            glDeleteTextures(1, &g->slot[k].tex);
            g->slot[k].tex = 0;
            g->slot[k].gen++;
        }
    }
}

/*
 * Attachment a's slot as the job wants it, bound, with the job's strips
 * uploaded.  A texture of another size or kind is made anew: the caller
 * asks for that only of a slot with nothing resident.
 */
static GLuint gl_slot(R500Gl *g, GlJob *j, unsigned a)
{
    unsigned k = j->att[a].slot, kind = j->att[a].kind;
    const GlKind *gk = &r500_gl_kinds[kind];

    /* every caller writes the slot: what was made from it is stale */
    g->slot[k].gen++;
    if (!g->slot[k].tex) {
        glGenTextures(1, &g->slot[k].tex);
        g->slot[k].w = 0;
    }
    glBindTexture(GL_TEXTURE_2D, g->slot[k].tex);
    if (g->slot[k].w != j->att[a].tw || g->slot[k].h != j->att[a].th ||
        g->slot[k].kind != kind) {
        g->slot[k].w = j->att[a].tw;
        g->slot[k].h = j->att[a].th;
        g->slot[k].kind = kind;
        glTexImage2D(GL_TEXTURE_2D, 0, gk->ifmt, g->slot[k].w, g->slot[k].h,
                     0, gk->fmt, gk->type, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    for (unsigned i = 0; i < j->att[a].nup; i++) {
        const GlRect *r = &j->att[a].up[i];

        glTexSubImage2D(GL_TEXTURE_2D, 0, r->x, r->y, r->w, r->h, gk->fmt,
                        gk->type, j->att[a].up_px[i]);
    }
    return g->slot[k].tex;
}

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

/*
 * The vertex stage's fixed functions.  With it on the host (j->vtx.on):
 * the VTE's viewport and depth range, GL's clipping (no depth clamp) with
 * the user planes, the SU's culling and front face (gl_vertex.c).  Off:
 * the triangles come clipped, culled and in GL's winding for their
 * facing (gl_tri), in window coordinates on the GL_TARGET_MAX window.
 */
static void gl_vtx_state(GlJob *j)
{
    for (unsigned p = 0; p < 6; p++) {
        if (j->vtx.on && p < j->vtx.nclip) {
            glEnable(GL_CLIP_DISTANCE0 + p);
        } else {
            glDisable(GL_CLIP_DISTANCE0 + p);
        }
    }
    if (!j->vtx.on) {
        glViewport(0, 0, (GLsizei)j->size[0], (GLsizei)j->size[1]);
        glDepthRange(0.0, 1.0);
        glEnable(GL_DEPTH_CLAMP);
        glDisable(GL_CULL_FACE);
        glFrontFace(GL_CCW);
        return;
    }
    glViewportIndexedf(0, j->vtx.vp[0], j->vtx.vp[1], j->vtx.vp[2],
                       j->vtx.vp[3]);
    glDepthRange(j->vtx.depth[0], j->vtx.depth[1]);
    glDisable(GL_DEPTH_CLAMP);
    if (j->vtx.cull) {
        glEnable(GL_CULL_FACE);
        glCullFace(j->vtx.cull);
    } else {
        glDisable(GL_CULL_FACE);
    }
    glFrontFace(j->vtx.front);
}

static void gl_fills(R500Gl *g, GlJob *j);

static void gl_run_draw(R500Gl *g, GlJob *j);

/*
 * A draw: the textures made from slots first, before the draw's slots
 * change (one may be an attachment too, or dropped), and let go after.
 */
static void gl_run(R500Gl *g, GlJob *j)
{
    bool as_is[R500_TX_UNITS] = { false };

    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        if (j->tex[u].used && j->tex[u].from_slots) {
            j->tex[u].name = gl_slot_texture(g, j, u, &as_is[u]);
        }
    }
    if (!j->error) {
        gl_run_draw(g, j);
    }
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        if (j->tex[u].used && j->tex[u].from_slots) {
            if (j->tex[u].name != g->stex[u].tex && !as_is[u]) {
                glDeleteTextures(1, &j->tex[u].name);
            }
            j->tex[u].name = 0;
        }
    }
}

/* The program in use with the draw's uniforms (constants, sizes, units). */
static void gl_uniforms(GLuint prog, GlJob *j)
{
    GLint loc;

    glUseProgram(prog);
    if (j->vtx.on) {
        loc = glGetUniformLocation(prog, "r500_c");
        if (loc >= 0) {
            glUniform4fv(loc, R500_PVS_CONSTS, j->vtx.consts);
        }
        loc = glGetUniformLocation(prog, "r500_ucp");
        if (loc >= 0) {
            glUniform4fv(loc, 6, &j->vtx.ucp[0][0]);
        }
    }
    glUniform2f(glGetUniformLocation(prog, "r500_size"), j->size[0],
                j->size[1]);
    loc = glGetUniformLocation(prog, "r500_czv");
    if (loc >= 0) {
        glUniform4fv(loc, 1, j->czv);
    }
    /* uniforms, so that new clip rectangles are not a new program */
    if (j->clip) {
        glUniform4iv(glGetUniformLocation(prog, "r500_cr"), 4, j->cr[0]);
        glUniform1ui(glGetUniformLocation(prog, "r500_rule"), j->clip_rule);
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
        g_snprintf(name, sizeof(name), "r500_ts%u", u);
        loc = glGetUniformLocation(prog, name);
        if (loc >= 0) {
            glUniform4fv(loc, 1, j->tex[u].size);
        }
    }
}

/*
 * The framebuffer of the draw's slots: colour target i on attachment
 * and location i, the ZB colour clear's words after them, the ZB as
 * depth (and stencil).
 */
static void gl_framebuffer(R500Gl *g, GlJob *j)
{
    GLenum bufs[4];

    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    for (unsigned i = 0; i < 4; i++) {
        GLuint tex = i < j->ntargets ? gl_slot(g, j, i) : 0;

        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                               GL_TEXTURE_2D, tex, 0);
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

        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                               GL_TEXTURE_2D, gl_slot(g, j, GL_ATT_CBZB), 0);
        bufs[i] = GL_COLOR_ATTACHMENT0 + i;
        glColorMaski(i, 1, 1, 1, 1);
    }
    glDrawBuffers(j->ntargets + j->cbzb, bufs);
    if (j->zb.on) {
        GLuint tex = gl_slot(g, j, GL_ATT_ZB);

        glFramebufferTexture2D(GL_FRAMEBUFFER, j->zb.z24
                               ? GL_DEPTH_STENCIL_ATTACHMENT
                               : GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
        if (!j->zb.z24) {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                                   GL_TEXTURE_2D, 0, 0);
        }
    }
}

static void gl_run_draw(R500Gl *g, GlJob *j)
{
    GLuint prog, q;
    unsigned nattr;

    glDeleteTextures(j->ndoomed, j->doomed);
    if (g->fault_draw && ++g->draw_jobs == g->fault_draw) {
        /* gl-fault=draw:N: as an erring command, nothing drawn */
        j->error = "OpenGL reported an error (forced by gl-fault)";
        return;
    }
    /* a fill alone needs no program */
    prog = j->nverts ? gl_program(g, j) : 0;
    if (!prog && j->nverts) {
        return;
    }
    gl_drop(g, j->drop);
    gl_framebuffer(g, j);
    gl_depth_state(j);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        j->error = "the framebuffer is incomplete";
        return;
    }
    /* a rectangle of one colour first, then the triangles, if any */
    gl_fills(g, j);
    if (!j->nverts) {
        return;
    }
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
    gl_vtx_state(j);
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        if (j->tex[u].used) {
            gl_upload_texture(g, j, u);
        }
    }
    gl_uniforms(prog, j);
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)j->nverts * j->stride * 4,
                 j->verts, GL_STREAM_DRAW);
    /*
     * The PVS inputs, or: win, the attribute groups, back (padded to 16
     * bytes), sprite
     */
    nattr = j->vtx.on ? j->vtx.nin : j->lay.n + 2 + (j->lay.sprite ? 1 : 0);
    for (unsigned k = 0; k < nattr; k++) {
        unsigned n = !j->vtx.on && k == j->lay.back_loc ? 1 : 4;

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
    if (j->vtx.on) {
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                     (GLsizeiptr)j->vtx.nelems * 4, j->vtx.elems,
                     GL_STREAM_DRAW);
        glDrawElements(GL_TRIANGLES, j->vtx.nelems, GL_UNSIGNED_INT, NULL);
    } else {
        glDrawArrays(GL_TRIANGLES, 0, j->nverts);
    }
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

/*
 * The job's fills (GlJob.fill_att): each attachment's pixel bytes over
 * the rectangle, as uploaded, so the bits are exact.  The slots are
 * there (gl_slot).
 */
static void gl_fills(R500Gl *g, GlJob *j)
{
    const GlRect *r = &j->fill_r;

    for (unsigned a = 0; a < GL_ATTS; a++) {
        unsigned kind = j->att[a].kind;

        if (!(j->fill_att >> a & 1)) {
            continue;
        }
        glClearTexSubImage(g->slot[j->att[a].slot].tex, 0, r->x, r->y, 0,
                           r->w, r->h, 1, r500_gl_kinds[kind].fmt,
                           r500_gl_kinds[kind].type, j->fill_px[a]);
    }
    if (glGetError() != GL_NO_ERROR) {
        j->error = "OpenGL reported an error filling a surface";
    }
}

/* A fill alone (the ZB's fast clear). */
static void gl_fill(R500Gl *g, GlJob *j)
{
    gl_drop(g, j->drop);
    for (unsigned a = 0; a < GL_ATTS; a++) {
        if (j->fill_att >> a & 1) {
            gl_slot(g, j, a);
        }
    }
    gl_fills(g, j);
}

/* A move of pixels between two slots of one kind, on the host. */
static void gl_copy(R500Gl *g, GlJob *j)
{
    const GlRect *r = &j->copy_r;
    GLuint dst = gl_slot(g, j, 0);

    glCopyImageSubData(g->slot[j->copy_src].tex, GL_TEXTURE_2D, 0, r->x,
                       r->y, 0, dst, GL_TEXTURE_2D, 0, j->copy_dx,
                       j->copy_dy, 0, r->w, r->h, 1);
    if (glGetError() != GL_NO_ERROR) {
        j->error = "OpenGL reported an error copying between surfaces";
    }
}

/* A sync: read back what the draws since the last one wrote. */
static void gl_read_back(R500Gl *g, GlJob *j)
{
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    for (unsigned i = 0; i < 4; i++) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                               GL_TEXTURE_2D, 0, 0);
    }
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                           GL_TEXTURE_2D, 0, 0);
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        const GlRect *r = &j->back[k].r;
        unsigned kind = g->slot[k].kind;
        bool depth = kind == GL_KIND_Z16 || kind == GL_KIND_Z24;
        GLenum at = kind == GL_KIND_Z24 ? GL_DEPTH_STENCIL_ATTACHMENT
                    : depth ? GL_DEPTH_ATTACHMENT : GL_COLOR_ATTACHMENT0;

        if (!r->w || !g->slot[k].tex) {
            continue;
        }
        glFramebufferTexture2D(GL_FRAMEBUFFER, at, GL_TEXTURE_2D,
                               g->slot[k].tex, 0);
        glReadBuffer(depth ? GL_NONE : GL_COLOR_ATTACHMENT0);
        glReadPixels(r->x, r->y, r->w, r->h, r500_gl_kinds[kind].fmt,
                     r500_gl_kinds[kind].type, j->back[k].px);
        glFramebufferTexture2D(GL_FRAMEBUFFER, at, GL_TEXTURE_2D, 0, 0);
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
        if (g->job->submit) {
            glFlush();
        } else if (g->job->fill) {
            gl_fill(g, g->job);
        } else if (g->job->copy) {
            gl_copy(g, g->job);
        } else if (g->job->sync_only) {
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
