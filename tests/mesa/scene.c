/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-scenes: runs one GL scene on whatever Mesa driver EGL picks and
 * writes the 64x64 result as a PAM image.
 *
 *   r500-scenes --list                 name, API and description per line
 *   r500-scenes NAME OUT.pam           run NAME; prints "renderer: ..."
 *
 * Exit status: 0 image written, 77 scene unsupported by this driver,
 * 1 failure.  EGL runs on the surfaceless platform: with the r500 DRM shim
 * preloaded it finds the emulated radeon render node and loads r300;
 * without it (or with LIBGL_ALWAYS_SOFTWARE=1) Mesa falls back to llvmpipe.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

static const Scene *const lists[] = {
    scenes_basic, scenes_texture, scenes_shader,
};

void scene_unsupported(const char *why)
{
    printf("unsupported: %s\n", why);
    fflush(stdout);
    exit(77);
}

void scene_fail(const char *fmt, ...)
{
    va_list ap;

    printf("failed: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(1);
}

bool scene_has_ext(const char *ext)
{
    const char *all = (const char *)glGetString(GL_EXTENSIONS);
    size_t n = strlen(ext);

    for (const char *p = all; p && (p = strstr(p, ext)); p += n) {
        if ((p == all || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    GLint ok;
    char log[2048];

    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderInfoLog(s, sizeof(log), NULL, log);
        scene_fail("shader compile: %s", log);
    }
    return s;
}

GLuint scene_program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    GLint ok;
    char log[2048];

    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "tc");
    glLinkProgram(p);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        glGetProgramInfoLog(p, sizeof(log), NULL, log);
        /* r300 refuses programs it cannot fit: a limit, not a bug here */
        if (strstr(log, "Too many") || strstr(log, "too many")) {
            scene_unsupported(log);
        }
        scene_fail("link: %s", log);
    }
    glUseProgram(p);
    return p;
}

void scene_quad(float x0, float y0, float x1, float y1,
                float s0, float t0, float s1, float t1)
{
    glBegin(GL_QUADS);
    glTexCoord2f(s0, t0); glVertex2f(x0, y0);
    glTexCoord2f(s1, t0); glVertex2f(x1, y0);
    glTexCoord2f(s1, t1); glVertex2f(x1, y1);
    glTexCoord2f(s0, t1); glVertex2f(x0, y1);
    glEnd();
}

void scene_quad_attribs(float x0, float y0, float x1, float y1)
{
    const float v[] = {
        x0, y0, 0, 0,  x1, y0, 1, 0,  x0, y1, 0, 1,  x1, y1, 1, 1,
    };

    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, v);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, v + 2);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisableVertexAttribArray(0);
    glDisableVertexAttribArray(1);
}

void scene_pattern(uint8_t *p, int w, int h)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++, p += 4) {
            bool check = ((x >> 3) ^ (y >> 3)) & 1;
            p[0] = (uint8_t)(x * 255 / (w - 1));
            p[1] = (uint8_t)(y * 255 / (h - 1));
            p[2] = check ? 224 : 32;
            p[3] = (uint8_t)(((x + y) * 255) / (w + h - 2));
        }
    }
}

GLuint scene_texture(GLenum internal, int w, int h, GLenum filter)
{
    uint8_t *data = malloc((size_t)w * h * 4);
    GLuint t;

    scene_pattern(data, w, h);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, internal, w, h, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, data);
    free(data);
    return t;
}

GLuint scene_fbo_texture(GLuint tex)
{
    GLuint fb;

    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                           GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        scene_unsupported("render-to-texture framebuffer incomplete");
    }
    return fb;
}

void scene_read_rgba(SceneCtx *c)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_RGBA, GL_UNSIGNED_BYTE, c->rgba);
    c->have_image = true;
}

/* ---- EGL ---- */

static EGLDisplay display;

static void egl_setup(SceneApi api)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
    static const EGLint gl_attrs[] = { EGL_NONE };
    static const EGLint es_attrs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    EGLConfig cfg = EGL_NO_CONFIG_KHR;
    EGLSurface surf = EGL_NO_SURFACE;
    EGLContext ctx;

    if (!get_display) {
        scene_fail("no eglGetPlatformDisplayEXT");
    }
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                          NULL);
    if (!display || !eglInitialize(display, NULL, NULL)) {
        scene_fail("eglInitialize: 0x%x", eglGetError());
    }
    if (api == API_PBUFFER) {
        static const EGLint want[] = {
            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
            EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24,
            EGL_STENCIL_SIZE, 8, EGL_NONE,
        };
        static const EGLint size[] = {
            EGL_WIDTH, SCENE_W, EGL_HEIGHT, SCENE_H, EGL_NONE,
        };
        EGLint n = 0;

        if (!eglChooseConfig(display, want, &cfg, 1, &n) || n < 1) {
            scene_unsupported("no RGBA8/D24S8 pbuffer config");
        }
        surf = eglCreatePbufferSurface(display, cfg, size);
        if (!surf) {
            scene_fail("eglCreatePbufferSurface: 0x%x", eglGetError());
        }
    }
    eglBindAPI(api == API_GLES2 ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    ctx = eglCreateContext(display, cfg, EGL_NO_CONTEXT,
                           api == API_GLES2 ? es_attrs : gl_attrs);
    if (!ctx) {
        if (api == API_GLES2) {
            scene_unsupported("no OpenGL ES 2.0 context");
        }
        scene_fail("eglCreateContext: 0x%x", eglGetError());
    }
    if (!eglMakeCurrent(display, surf, surf, ctx)) {
        scene_fail("eglMakeCurrent: 0x%x", eglGetError());
    }
}

static GLuint fbo_setup(void)
{
    GLuint fb, rb[2];

    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SCENE_W, SCENE_H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, SCENE_W,
                          SCENE_H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, rb[1]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                              GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        scene_fail("framebuffer incomplete");
    }
    return fb;
}

static bool write_pam(const char *path, const uint8_t *rgba)
{
    FILE *f = fopen(path, "wb");
    bool ok;

    if (!f) {
        return false;
    }
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\n"
            "TUPLTYPE RGB_ALPHA\nENDHDR\n", SCENE_W, SCENE_H);
    /* PAM rows go top to bottom; GL's bottom to top */
    for (int y = SCENE_H - 1; y >= 0; y--) {
        fwrite(rgba + (size_t)y * SCENE_W * 4, 4, SCENE_W, f);
    }
    ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

static const Scene *find(const char *name)
{
    for (unsigned l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
        for (const Scene *s = lists[l]; s->name; s++) {
            if (!strcmp(s->name, name)) {
                return s;
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static SceneCtx ctx;
    static const char *const api_names[] = { "gl", "gles2", "pbuffer" };
    const Scene *s;
    GLenum err;

    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (unsigned l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
            for (s = lists[l]; s->name; s++) {
                printf("%s\t%s\t%s\n", s->name, api_names[s->api], s->what);
            }
        }
        return 0;
    }
    if (argc != 3 || !(s = find(argv[1]))) {
        fprintf(stderr, "usage: r500-scenes --list | NAME OUT.pam\n");
        return 2;
    }
    egl_setup(s->api);
    printf("renderer: %s\nversion: %s\n", glGetString(GL_RENDERER),
           glGetString(GL_VERSION));
    fflush(stdout);
    if (s->api != API_PBUFFER) {
        ctx.fbo = fbo_setup();
    }
    glViewport(0, 0, SCENE_W, SCENE_H);
    if (s->need && !scene_has_ext(s->need)) {
        scene_unsupported(s->need);
    }
    ctx.param = s->param;
    s->run(&ctx);
    if (!ctx.have_image) {
        glBindFramebuffer(GL_FRAMEBUFFER, ctx.fbo);
        scene_read_rgba(&ctx);
    }
    err = glGetError();
    if (err != GL_NO_ERROR) {
        scene_fail("GL error 0x%x", err);
    }
    if (!write_pam(argv[2], ctx.rgba)) {
        scene_fail("cannot write %s", argv[2]);
    }
    eglTerminate(display);
    return 0;
}
