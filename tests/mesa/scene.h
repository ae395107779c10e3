/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GL scenes for the host Mesa harness (docs/mesa-harness.md).  Each scene
 * draws into a 64x64 RGBA8 framebuffer (an FBO with a depth/stencil
 * renderbuffer, or an EGL pbuffer) and leaves the image to compare; the
 * runner (run.py) renders it on llvmpipe and on Mesa r300 over the chip.
 *
 * Geometry uses NDC multiples of 1/32, i.e. whole window pixels, so both
 * rasterizers see the same edges whatever their sub-pixel precision.
 */
#ifndef R500_SCENE_H
#define R500_SCENE_H

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdbool.h>
#include <stdint.h>

#define SCENE_W 64
#define SCENE_H 64

typedef enum SceneApi {
    API_GL,         /* OpenGL 2.1 compatibility context, FBO */
    API_GLES2,      /* OpenGL ES 2.0 context, FBO */
    API_PBUFFER,    /* OpenGL 2.1 context on an EGL pbuffer */
} SceneApi;

typedef struct SceneCtx {
    uint8_t rgba[SCENE_W * SCENE_H * 4];  /* bottom row first, like GL */
    bool have_image;        /* the scene filled rgba itself */
    GLuint fbo;             /* the scene's framebuffer (0 for pbuffers) */
    unsigned param;         /* Scene.param */
} SceneCtx;

typedef struct Scene {
    const char *name;
    const char *what;       /* one line for the scene table */
    SceneApi api;
    void (*run)(SceneCtx *c);
    const char *need;       /* GL extension required, or NULL */
    unsigned param;         /* for scenes that share a run function */
} Scene;

/* The scene lists, each ended by an entry without a name. */
extern const Scene scenes_basic[];
extern const Scene scenes_texture[];
extern const Scene scenes_shader[];

/* ---- helpers (scene.c) ---- */

/* Report "unsupported: why" and exit 77 (no such feature here). */
void scene_unsupported(const char *why) __attribute__((noreturn));
/* Report a failure and exit 1. */
void scene_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
bool scene_has_ext(const char *ext);

GLuint scene_program(const char *vs, const char *fs);
/* A quad from (x0,y0) to (x1,y1) in NDC with texcoords (s0,t0)-(s1,t1). */
void scene_quad(float x0, float y0, float x1, float y1,
                float s0, float t0, float s1, float t1);
/* The same quad through attribute 0 (position) and 1 (texcoord). */
void scene_quad_attribs(float x0, float y0, float x1, float y1);

/* A 64x64 RGBA8 test pattern: gradients and a checker. */
void scene_pattern(uint8_t *rgba, int w, int h);
/* GL texture object with the pattern, given internal format and filters. */
GLuint scene_texture(GLenum internal, int w, int h, GLenum filter);
/* A framebuffer of (w,h) rendering to texture tex (level 0). */
GLuint scene_fbo_texture(GLuint tex);
/* Store the 64x64 framebuffer, read as RGBA8, into c->rgba. */
void scene_read_rgba(SceneCtx *c);

#endif
