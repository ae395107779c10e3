/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-bench-gl: the 3D workloads of the benchmark (docs/bench.md).  One
 * GL program, rendered by whatever Mesa driver EGL picks: llvmpipe
 * (LIBGL_ALWAYS_SOFTWARE=1) or r300 on the emulated chip (the DRM shim of
 * tools/drm-shim preloaded).  bench/run.py runs both and compares.
 *
 *   r500-bench-gl --list
 *   r500-bench-gl NAME [-s WxH] [-n FRAMES] [-w WARMUP] [-o OUT.pam]
 *
 * Every frame ends with glFinish, and the timed frames with a read of
 * one pixel, so a frame's time is the whole work of the driver and the
 * GPU (llvmpipe's threads, or the chip core inside the shim's CS ioctl
 * and its host-GL renderer): the card says a fence is done once its
 * renderer has the work, and llvmpipe under the renderer may still be
 * drawing it (the holds, docs/3d.md); the read waits for all of it.  Prints "key: value" lines: renderer, frames, wall_ms
 * and cpu_ms (getrusage of the process, every thread) of the timed
 * frames, maxrss_kb.  The last frame is written as a PAM with -o, so the
 * runner can check that both drivers drew the same picture.
 */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static int W = 512, H = 512;

typedef struct Workload {
    const char *name;
    const char *what;
    void (*setup)(void);
    void (*frame)(unsigned n);
} Workload;

static void die(const char *fmt, const char *arg)
{
    printf("failed: ");
    printf(fmt, arg);
    printf("\n");
    exit(1);
}

/* ---- GL helpers ---- */

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    GLint ok;
    static char log[4096];

    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderInfoLog(s, sizeof(log), NULL, log);
        die("shader compile: %s", log);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    GLint ok;
    static char log[4096];

    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "attr");
    glLinkProgram(p);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        glGetProgramInfoLog(p, sizeof(log), NULL, log);
        die("link: %s", log);
    }
    glUseProgram(p);
    return p;
}

/* A buffer object of n floats, bound to GL_ARRAY_BUFFER. */
static void vbo(const float *v, size_t n)
{
    GLuint b;

    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, n * sizeof(float), v, GL_STATIC_DRAW);
}

/* Attribute 0: xyz, attribute 1: 4 floats, interleaved in the bound VBO. */
static void attribs7(void)
{
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 28, (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 28, (void *)12);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
}

/* Full-screen quads (triangle strips of 4) at depths z[i], one colour each. */
static void quads_vbo(unsigned n, const float *z, const float (*rgba)[4])
{
    float *v = calloc(n * 4 * 7, sizeof(float));

    for (unsigned i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            float *p = v + (i * 4 + k) * 7;

            p[0] = k & 1 ? 1.0f : -1.0f;
            p[1] = k & 2 ? 1.0f : -1.0f;
            p[2] = z[i];
            memcpy(p + 3, rgba[i], 16);
            /* a gradient, so interpolation and blending have work */
            p[3] *= 0.5f + 0.5f * (k & 1);
            p[4] *= 0.5f + 0.5f * (k >> 1);
        }
    }
    vbo(v, n * 4 * 7);
    attribs7();
    free(v);
}

static const char *const vs_colour =
    "attribute vec3 pos; attribute vec4 attr; varying vec4 col;\n"
    "void main() { col = attr; gl_Position = vec4(pos, 1.0); }\n";
static const char *const fs_colour =
    "varying vec4 col;\n"
    "void main() { gl_FragColor = col; }\n";

/* ---- Workloads ---- */

/* clear: colour, depth and stencil cleared, a new colour every frame. */
static void clear_setup(void)
{
}

static void clear_frame(unsigned n)
{
    glClearColor((n % 7) / 7.0f, (n % 5) / 5.0f, (n % 3) / 3.0f, 1.0f);
    glClearDepth(1.0);
    glClearStencil(n & 0xFF);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

/* triangles: a 128x128-cell grid, 32768 small smooth-shaded triangles. */
#define GRID 128

static void triangles_setup(void)
{
    float *v = malloc((GRID + 1) * (GRID + 1) * 7 * sizeof(float));
    uint16_t *idx = malloc(GRID * GRID * 6 * sizeof(uint16_t));
    GLuint ib;
    unsigned n = 0;

    for (int j = 0; j <= GRID; j++) {
        for (int i = 0; i <= GRID; i++) {
            float *p = v + (j * (GRID + 1) + i) * 7;

            p[0] = i * 2.0f / GRID - 1.0f;
            p[1] = j * 2.0f / GRID - 1.0f;
            p[2] = 0.0f;
            p[3] = (float)i / GRID;
            p[4] = (float)j / GRID;
            p[5] = ((i ^ j) & 1) ? 0.9f : 0.2f;
            p[6] = 1.0f;
        }
    }
    for (int j = 0; j < GRID; j++) {
        for (int i = 0; i < GRID; i++) {
            uint16_t a = j * (GRID + 1) + i;

            idx[n++] = a;
            idx[n++] = a + 1;
            idx[n++] = a + GRID + 2;
            idx[n++] = a;
            idx[n++] = a + GRID + 2;
            idx[n++] = a + GRID + 1;
        }
    }
    vbo(v, (GRID + 1) * (GRID + 1) * 7);
    attribs7();
    glGenBuffers(1, &ib);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, n * 2, idx, GL_STATIC_DRAW);
    free(v);
    free(idx);
    program(vs_colour, fs_colour);
}

static void triangles_frame(unsigned n)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawElements(GL_TRIANGLES, GRID * GRID * 6, GL_UNSIGNED_SHORT, NULL);
}

/* fill: 8 full-screen gradient quads blended over each other. */
#define LAYERS 8

static void fill_setup(void)
{
    float z[LAYERS], c[LAYERS][4];

    for (int i = 0; i < LAYERS; i++) {
        z[i] = 0.0f;
        c[i][0] = (i & 1) ? 0.9f : 0.3f;
        c[i][1] = (i & 2) ? 0.8f : 0.2f;
        c[i][2] = (i & 4) ? 0.7f : 0.1f;
        c[i][3] = 0.25f + i * 0.05f;
    }
    quads_vbo(LAYERS, z, (const float (*)[4])c);
    program(vs_colour, fs_colour);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

static void fill_frame(unsigned n)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < LAYERS; i++) {
        glDrawArrays(GL_TRIANGLE_STRIP, i * 4, 4);
    }
}

/* texture: 4 full-screen quads sampling a 256x256 RGBA8 texture, bilinear. */
static void texture_setup(void)
{
    enum { TW = 256 };
    uint8_t *t = malloc(TW * TW * 4);
    float z[4] = { 0, 0, 0, 0 }, c[4][4];
    GLuint tex;

    for (int y = 0; y < TW; y++) {
        for (int x = 0; x < TW; x++) {
            uint8_t *p = t + (y * TW + x) * 4;

            p[0] = x;
            p[1] = y;
            p[2] = ((x >> 4) ^ (y >> 4)) & 1 ? 230 : 40;
            p[3] = 255;
        }
    }
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, TW, TW, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, t);
    free(t);
    /* texcoords in the colour slot: each layer shifted and scaled */
    for (int i = 0; i < 4; i++) {
        c[i][0] = 1.0f + 0.25f * i;
        c[i][1] = 1.0f + 0.25f * i;
        c[i][2] = 0.1f * i;
        c[i][3] = 0.5f;
    }
    quads_vbo(4, z, (const float (*)[4])c);
    program("attribute vec3 pos; attribute vec4 attr; varying vec2 uv;\n"
            "void main() { uv = (pos.xy * 0.5 + 0.5) * attr.xy + attr.zz;\n"
            "  gl_Position = vec4(pos, 1.0); }\n",
            "uniform sampler2D t; varying vec2 uv;\n"
            "void main() { gl_FragColor = texture2D(t, uv) * 0.5; }\n");
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
}

static void texture_frame(unsigned n)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 4; i++) {
        glDrawArrays(GL_TRIANGLE_STRIP, i * 4, 4);
    }
}

/* shader: one full-screen quad with about 60 ALU instructions a pixel. */
static void shader_setup(void)
{
    float z[1] = { 0 }, c[1][4] = { { 1, 1, 1, 1 } };

    quads_vbo(1, z, (const float (*)[4])c);
    program("attribute vec3 pos; attribute vec4 attr; varying vec2 uv;\n"
            "void main() { uv = pos.xy * 1.5;\n"
            "  gl_Position = vec4(pos, 1.0); }\n",
            /* six unrolled Julia-set steps, then shading */
            "varying vec2 uv;\n"
            "void main() {\n"
            "  vec2 z = uv, c = vec2(-0.4, 0.6);\n"
            "  float m = 0.0;\n"
            "  for (int i = 0; i < 6; i++) {\n"
            "    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;\n"
            "    m += clamp(4.0 - dot(z, z), 0.0, 1.0);\n"
            "  }\n"
            "  vec3 n = normalize(vec3(z * 0.1, 1.0));\n"
            "  float l = max(dot(n, vec3(0.3, 0.5, 0.8)), 0.0);\n"
            "  gl_FragColor = vec4(m / 6.0, l, fract(length(z)),\n"
            "                      sin(m) * 0.5 + 0.5);\n"
            "}\n");
}

static void shader_frame(unsigned n)
{
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/*
 * overdraw: 12 full-screen quads with depth test LESS, drawn front to
 * back: the first passes, the other 11 fail the test at every pixel.
 */
#define DEPTH_LAYERS 12

static void overdraw_setup(void)
{
    float z[DEPTH_LAYERS], c[DEPTH_LAYERS][4];

    for (int i = 0; i < DEPTH_LAYERS; i++) {
        z[i] = -0.9f + i * 0.15f;
        c[i][0] = (i % 3) / 2.0f;
        c[i][1] = (i % 4) / 3.0f;
        c[i][2] = 1.0f - i / 12.0f;
        c[i][3] = 1.0f;
    }
    quads_vbo(DEPTH_LAYERS, z, (const float (*)[4])c);
    program(vs_colour, fs_colour);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
}

static void overdraw_frame(unsigned n)
{
    glClearColor(0, 0, 0, 1);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    for (int i = 0; i < DEPTH_LAYERS; i++) {
        glDrawArrays(GL_TRIANGLE_STRIP, i * 4, 4);
    }
}

static const Workload workloads[] = {
    { "clear", "glClear of colour, depth and stencil", clear_setup,
      clear_frame },
    { "triangles", "32768 small smooth-shaded triangles (indexed VBO)",
      triangles_setup, triangles_frame },
    { "fill", "8 full-screen gradient quads, alpha blended", fill_setup,
      fill_frame },
    { "texture", "4 full-screen quads, 256x256 RGBA8 texture, bilinear, "
      "additive blend", texture_setup, texture_frame },
    { "shader", "1 full-screen quad, ~60-instruction fragment shader",
      shader_setup, shader_frame },
    { "overdraw", "12 full-screen quads front to back, depth test LESS",
      overdraw_setup, overdraw_frame },
    { NULL },
};

/* ---- EGL, framebuffer, output ---- */

static EGLDisplay display;

static void egl_setup(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
    static const EGLint attrs[] = { EGL_NONE };
    EGLContext ctx;
    GLuint fb, rb[2];

    if (!get_display) {
        die("%s", "no eglGetPlatformDisplayEXT");
    }
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                          NULL);
    if (!display || !eglInitialize(display, NULL, NULL)) {
        die("%s", "eglInitialize");
    }
    eglBindAPI(EGL_OPENGL_API);
    ctx = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
    if (!ctx || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                                ctx)) {
        die("%s", "eglCreateContext/eglMakeCurrent");
    }
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, rb[1]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                              GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        die("%s", "framebuffer incomplete");
    }
    glViewport(0, 0, W, H);
}

static bool write_pam(const char *path)
{
    uint8_t *rgba = malloc((size_t)W * H * 4);
    FILE *f = fopen(path, "wb");
    bool ok;

    if (!f) {
        free(rgba);
        return false;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\n"
            "TUPLTYPE RGB_ALPHA\nENDHDR\n", W, H);
    for (int y = H - 1; y >= 0; y--) {
        fwrite(rgba + (size_t)y * W * 4, 4, W, f);
    }
    ok = !ferror(f);
    free(rgba);
    return fclose(f) == 0 && ok;
}

/* One pixel read back: waits for every frame drawn before it. */
static void read_pixel(void)
{
    uint8_t px[4];

    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

static double now_ms(clockid_t clk)
{
    struct timespec ts;

    clock_gettime(clk, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    const Workload *w = NULL;
    const char *out = NULL;
    unsigned frames = 10, warmup = 2;
    double t0, c0;
    struct rusage ru;
    GLenum err;

    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (w = workloads; w->name; w++) {
            printf("%s\t%s\n", w->name, w->what);
        }
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "-s") &&
            sscanf(argv[i + 1], "%dx%d", &W, &H) == 2 && W > 0 && H > 0 &&
            W <= 4096 && H <= 4096) {
            i++;
        } else if (i + 1 < argc && !strcmp(argv[i], "-n")) {
            frames = strtoul(argv[++i], NULL, 0);
        } else if (i + 1 < argc && !strcmp(argv[i], "-w")) {
            warmup = strtoul(argv[++i], NULL, 0);
        } else if (i + 1 < argc && !strcmp(argv[i], "-o")) {
            out = argv[++i];
        } else {
            argc = 0;
        }
    }
    for (const Workload *k = workloads; argc > 1 && k->name; k++) {
        if (!strcmp(k->name, argv[1])) {
            w = k;
        }
    }
    if (!w || !frames) {
        fprintf(stderr, "usage: r500-bench-gl --list | NAME [-s WxH] "
                "[-n FRAMES] [-w WARMUP] [-o OUT.pam]\n");
        return 2;
    }
    egl_setup();
    printf("renderer: %s\n", glGetString(GL_RENDERER));
    fflush(stdout);
    w->setup();
    /*
     * Each warm-up frame ends in the read too, so the programs of the
     * read and of a frame after a read are made before the clock starts.
     */
    for (unsigned n = 0; n < warmup; n++) {
        w->frame(n);
        glFinish();
        read_pixel();
    }
    t0 = now_ms(CLOCK_MONOTONIC);
    c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    for (unsigned n = 0; n < frames; n++) {
        w->frame(warmup + n);
        glFinish();
    }
    read_pixel();
    printf("frames: %u\nwall_ms: %.3f\ncpu_ms: %.3f\n", frames,
           now_ms(CLOCK_MONOTONIC) - t0,
           now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
    err = glGetError();
    if (err != GL_NO_ERROR) {
        printf("failed: GL error 0x%x\n", err);
        return 1;
    }
    if (out && !write_pam(out)) {
        die("cannot write %s", out);
    }
    getrusage(RUSAGE_SELF, &ru);
    printf("maxrss_kb: %ld\n", ru.ru_maxrss);
    eglTerminate(display);
    return 0;
}
