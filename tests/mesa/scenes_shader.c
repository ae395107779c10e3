/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GLSL scenes (fragment and vertex shader math, flow control, many
 * varyings, built-ins), readback in several formats, OpenGL ES 2.0 and an
 * EGL pbuffer.  Shaders are GLSL 1.10 / ESSL 1.00, what r300 compiles.
 */
#include <math.h>
#include <string.h>

#include "scene.h"

#define P(n) ((n) / 32.0f - 1.0f)

static const char *const vs_pass =
    "attribute vec2 pos; attribute vec2 tc; varying vec2 uv;\n"
    "void main() { uv = tc; gl_Position = vec4(pos, 0.0, 1.0); }\n";

/* Clear to black and use fs (of uv in [0,1]) with the pass-through VS. */
static GLuint fs_begin(const char *fs)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    return scene_program(vs_pass, fs);
}

/* A full-screen quad through fs. */
static void fs_scene(const char *fs)
{
    fs_begin(fs);
    scene_quad_attribs(-1, -1, 1, 1);
}

static void fs_arith(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  vec2 a = uv * 3.7 - vec2(0.4, 1.1);\n"
             "  vec4 r;\n"
             "  r.x = fract(a.x) * 0.5 + abs(a.y) * 0.25;\n"
             "  r.y = clamp(a.x * a.y, 0.0, 1.0) + floor(a.y) * 0.1;\n"
             "  r.z = mix(uv.x, 1.0 - uv.y, 0.3) / (1.0 + uv.x);\n"
             "  r.w = max(min(a.x, 0.8), step(0.5, uv.y) * 0.5);\n"
             "  gl_FragColor = r;\n"
             "}\n");
}

static void fs_dot(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  vec3 n = normalize(vec3(uv - 0.5, 0.35));\n"
             "  vec3 l = normalize(vec3(0.3, 0.6, 1.0));\n"
             "  vec3 h = cross(n, l);\n"
             "  float d = max(dot(n, l), 0.0);\n"
             "  gl_FragColor = vec4(d, length(h), distance(uv, vec2(0.7)),\n"
             "                      dot(vec4(uv, n.xy), vec4(0.25)));\n"
             "}\n");
}

static void fs_exp_log(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  float x = uv.x * 4.0 - 2.0, y = uv.y + 0.05;\n"
             "  gl_FragColor = vec4(exp2(x) / 4.0, log2(y * 8.0) / 3.0,\n"
             "                      pow(y, 2.2) + sqrt(uv.x) * 0.2,\n"
             "                      inversesqrt(y) * 0.25 + exp(-x * x) * 0.3);\n"
             "}\n");
}

static void fs_trig(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  float a = (uv.x - 0.5) * 6.2831853, b = uv.y * 12.0;\n"
             "  gl_FragColor = vec4(sin(a) * 0.5 + 0.5, cos(b) * 0.5 + 0.5,\n"
             "                      sin(a + b) * 0.25 + 0.5, 1.0);\n"
             "}\n");
}

static void fs_conditional(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  vec4 c = vec4(0.1, 0.2, 0.3, 1.0);\n"
             "  if (uv.x > 0.5) {\n"
             "    c.r = uv.y;\n"
             "    if (uv.y < 0.25) c.g = 1.0; else c.b = 0.8;\n"
             "  } else if (uv.y > uv.x) {\n"
             "    c = vec4(uv, 1.0 - uv.x, 1.0);\n"
             "  }\n"
             "  gl_FragColor = c;\n"
             "}\n");
}

static void fs_loop(SceneCtx *c)
{
    GLuint p = fs_begin(
             "varying vec2 uv; uniform int n;\n"
             "void main() {\n"
             "  vec3 acc = vec3(0.0);\n"
             "  for (int i = 0; i < 8; i++)\n"
             "    acc += vec3(uv.x, uv.y, 0.5) / float(i + 2);\n"
             "  float s = 0.0;\n"
             "  for (int i = 0; i < n; i++) {\n"
             "    s += uv.x * 0.1;\n"
             "    if (s > 0.45) break;\n"
             "  }\n"
             "  gl_FragColor = vec4(acc * 0.45, s);\n"
             "}\n");
    glUniform1i(glGetUniformLocation(p, "n"), 6);
    scene_quad_attribs(-1, -1, 1, 1);
}

static void fs_discard(SceneCtx *c)
{
    fs_scene("varying vec2 uv;\n"
             "void main() {\n"
             "  if (distance(uv, vec2(0.5)) > 0.4) discard;\n"
             "  gl_FragColor = vec4(uv, 0.5, 1.0);\n"
             "}\n");
}

static void fs_uniforms(SceneCtx *c)
{
    static const float pal[4][4] = {
        { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 0.5f },
    };
    GLuint p = fs_begin(
             "varying vec2 uv; uniform vec4 pal[4]; uniform float k;\n"
             "void main() {\n"
             "  vec4 a = uv.x < 0.5 ? pal[0] : pal[1];\n"
             "  vec4 b = uv.y < 0.5 ? pal[2] : pal[3];\n"
             "  gl_FragColor = mix(a, b, k);\n"
             "}\n");
    glUniform4fv(glGetUniformLocation(p, "pal"), 4, &pal[0][0]);
    glUniform1f(glGetUniformLocation(p, "k"), 0.375f);
    scene_quad_attribs(-1, -1, 1, 1);
}

static void fs_fragcoord_facing(SceneCtx *c)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    scene_program(vs_pass,
             "void main() {\n"
             "  vec2 p = gl_FragCoord.xy / 64.0;\n"
             "  gl_FragColor = gl_FrontFacing ? vec4(p, 0.0, 1.0)\n"
             "                                : vec4(0.0, p, 1.0);\n"
             "}\n");
    {
        const float v[] = { P(4), P(4), 0, 0,  P(60), P(4), 0, 0,
                            P(4), P(30), 0, 0,
                            P(4), P(34), 0, 0,  P(4), P(60), 0, 0,
                            P(60), P(34), 0, 0 };
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, v);
        glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, v + 2);
        glEnableVertexAttribArray(0);
        glEnableVertexAttribArray(1);
        glDrawArrays(GL_TRIANGLES, 0, 6);    /* one CCW, one CW */
    }
}

static void fs_texture_math(SceneCtx *c)
{
    GLuint p;

    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    p = fs_begin(
             "varying vec2 uv; uniform sampler2D t;\n"
             "void main() {\n"
             "  vec4 a = texture2D(t, uv);\n"
             "  vec4 b = texture2D(t, uv.yx);\n"
             "  gl_FragColor = vec4(a.rg * b.b, dot(a.rgb, b.rgb) / 3.0,\n"
             "                      a.a);\n"
             "}\n");
    glUniform1i(glGetUniformLocation(p, "t"), 0);
    scene_quad_attribs(-1, -1, 1, 1);
}

/* A 64x64 mipmapped texture whose levels are solid colours. */
static void level_texture(void)
{
    static const uint8_t col[7][4] = {
        { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
        { 255, 255, 0, 255 }, { 0, 255, 255, 255 }, { 255, 0, 255, 255 },
        { 128, 128, 128, 255 },
    };
    static uint8_t px[64 * 64 * 4];
    GLuint t;

    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    for (int l = 0, sz = 64; sz >= 1; l++, sz /= 2) {
        for (int i = 0; i < sz * sz; i++) {
            memcpy(px + i * 4, col[l], 4);
        }
        glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, sz, sz, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

/*
 * texture2D with a bias that differs between the pixels of a 2x2 quad
 * (TXB: LODBIAS with the bias in each pixel's Q).  Drawn 1:1 (LOD 0), so
 * the level is the bias: 1 + x mod 2 + 2 (y mod 2) picks levels 1-4.
 * The reference runs llvmpipe with per-pixel LOD (run.py SCENE_ENV).
 */
static void fs_tex_bias_pixel(SceneCtx *c)
{
    GLuint p;

    level_texture();
    p = fs_begin(
             "varying vec2 uv; uniform sampler2D t;\n"
             "void main() {\n"
             "  vec2 q = mod(floor(gl_FragCoord.xy), 2.0);\n"
             "  gl_FragColor = texture2D(t, uv, 1.0 + q.x + 2.0 * q.y);\n"
             "}\n");
    glUniform1i(glGetUniformLocation(p, "t"), 0);
    scene_quad_attribs(-1, -1, 1, 1);
}

/*
 * Texture lookups inside a loop with a uniform bound, their coordinates
 * from an array indexed by the loop counter (relative addressing where
 * the compiler keeps the loop).
 */
static void fs_loop_tex(SceneCtx *c)
{
    GLuint p;

    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    p = fs_begin(
             "varying vec2 uv; uniform sampler2D t; uniform int n;\n"
             "void main() {\n"
             "  vec2 o[4];\n"
             "  o[0] = vec2(0.0, 0.0); o[1] = vec2(0.25, 0.0);\n"
             "  o[2] = vec2(0.0, 0.25); o[3] = vec2(0.25, 0.25);\n"
             "  vec4 s = vec4(0.0);\n"
             "  for (int i = 0; i < n; i++)\n"
             "    s += texture2D(t, fract(uv + o[i])) * 0.25;\n"
             "  gl_FragColor = s;\n"
             "}\n");
    glUniform1i(glGetUniformLocation(p, "t"), 0);
    glUniform1i(glGetUniformLocation(p, "n"), 4);
    scene_quad_attribs(-1, -1, 1, 1);
}

static void vs_math(SceneCtx *c)
{
    float v[33 * 2 * 2];

    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    scene_program(
        "attribute vec2 pos; varying vec4 col;\n"
        "void main() {\n"
        "  float a = pos.x * 3.14159;\n"
        "  float r = 0.3 + 0.6 * pos.y;\n"
        "  gl_Position = vec4(r * cos(a), r * sin(a), 0.0, 1.0);\n"
        "  col = vec4(pow(pos.y, 1.5), exp2(-pos.x * pos.x * 2.0),\n"
        "             log2(pos.y + 1.0), 1.0);\n"
        "}\n",
        "varying vec4 col; void main() { gl_FragColor = col; }\n");
    for (int i = 0; i <= 32; i++) {
        v[i * 4 + 0] = v[i * 4 + 2] = i / 16.0f - 1.0f;
        v[i * 4 + 1] = 0.0f;
        v[i * 4 + 3] = 1.0f;
    }
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 66);
}

static void vs_matrix(SceneCtx *c)
{
    const float s = sinf(0.5f), k = cosf(0.5f);
    const float m[16] = { k * 0.8f, s * 0.8f, 0, 0,  -s * 0.8f, k * 0.8f, 0, 0,
                          0, 0, 1, 0,  0.1f, -0.05f, 0, 1 };
    GLuint p;

    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    p = scene_program(
        "attribute vec2 pos; attribute vec2 tc; uniform mat4 m;\n"
        "uniform mat3 cm; varying vec3 col;\n"
        "void main() {\n"
        "  gl_Position = m * vec4(pos, 0.0, 1.0);\n"
        "  col = cm * vec3(tc, 1.0);\n"
        "}\n",
        "varying vec3 col; void main() { gl_FragColor = vec4(col, 1.0); }\n");
    glUniformMatrix4fv(glGetUniformLocation(p, "m"), 1, GL_FALSE, m);
    {
        const float cm[9] = { 0.9f, 0.1f, 0, 0, 0.7f, 0.3f, 0.05f, 0.1f, 0.2f };
        glUniformMatrix3fv(glGetUniformLocation(p, "cm"), 1, GL_FALSE, cm);
    }
    scene_quad_attribs(-0.75f, -0.75f, 0.75f, 0.75f);
}

static void vs_flow(SceneCtx *c)
{
    GLuint p;

    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    p = scene_program(
        "attribute vec2 pos; attribute vec2 tc; uniform int n;\n"
        "varying vec4 col;\n"
        "void main() {\n"
        "  vec4 c = vec4(0.0);\n"
        "  for (int i = 0; i < n; i++) c += vec4(tc, 0.25, 0.1);\n"
        "  if (tc.x > 0.5) c.b = 1.0 - c.b;\n"
        "  col = c / float(n);\n"
        "  gl_Position = vec4(pos, 0.0, 1.0);\n"
        "}\n",
        "varying vec4 col; void main() { gl_FragColor = col; }\n");
    glUniform1i(glGetUniformLocation(p, "n"), 5);
    scene_quad_attribs(-1, -1, 1, 1);
}

static void varyings_many(SceneCtx *c)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    scene_program(
        "attribute vec2 pos; attribute vec2 tc;\n"
        "varying vec4 v0, v1, v2, v3, v4, v5, v6, v7;\n"
        "void main() {\n"
        "  v0 = vec4(tc, 0.0, 1.0); v1 = vec4(tc.yx, 0.5, 0.25);\n"
        "  v2 = vec4(1.0 - tc, tc.x * tc.y, 0.0); v3 = vec4(0.1, 0.2, tc);\n"
        "  v4 = vec4(tc * 0.5, 0.75, 1.0); v5 = vec4(tc.x, 0.3, tc.y, 0.6);\n"
        "  v6 = vec4(0.9, tc, 0.4); v7 = vec4(tc.y * 0.8, 0.1, 0.2, tc.x);\n"
        "  gl_Position = vec4(pos, 0.0, 1.0);\n"
        "}\n",
        "varying vec4 v0, v1, v2, v3, v4, v5, v6, v7;\n"
        "void main() {\n"
        "  vec4 s = v0 * 0.2 + v1 * 0.1 + v2 * 0.15 + v3 * 0.1\n"
        "         + v4 * 0.1 + v5 * 0.15 + v6 * 0.1 + v7 * 0.1;\n"
        "  gl_FragColor = vec4(s.rgb, 1.0) + vec4(0.0, 0.0, 0.0, s.a - 1.0);\n"
        "}\n");
    scene_quad_attribs(-1, -1, 1, 1);
}

/* ---- readback in other formats, converted to RGBA8 here ---- */

static void draw_reference(void)
{
    glClearColor(0.25f, 0.5f, 0.75f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBegin(GL_TRIANGLES);
    glColor4f(1, 0, 0, 1); glVertex2f(P(4), P(4));
    glColor4f(0, 1, 0, 0.5f); glVertex2f(P(60), P(4));
    glColor4f(0, 0, 1, 0); glVertex2f(P(32), P(60));
    glEnd();
    glFinish();
}

static void readback_bgra(SceneCtx *c)
{
    uint8_t px[SCENE_W * SCENE_H * 4];

    draw_reference();
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_BGRA, GL_UNSIGNED_BYTE, px);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        c->rgba[i * 4 + 0] = px[i * 4 + 2];
        c->rgba[i * 4 + 1] = px[i * 4 + 1];
        c->rgba[i * 4 + 2] = px[i * 4 + 0];
        c->rgba[i * 4 + 3] = px[i * 4 + 3];
    }
    c->have_image = true;
}

static void readback_rgb(SceneCtx *c)
{
    uint8_t px[SCENE_W * SCENE_H * 3];

    draw_reference();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_RGB, GL_UNSIGNED_BYTE, px);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        memcpy(c->rgba + i * 4, px + i * 3, 3);
        c->rgba[i * 4 + 3] = 255;
    }
    c->have_image = true;
}

static void readback_565(SceneCtx *c)
{
    uint16_t px[SCENE_W * SCENE_H];

    draw_reference();
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, px);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        c->rgba[i * 4 + 0] = (uint8_t)(((px[i] >> 11) & 31) * 255 / 31);
        c->rgba[i * 4 + 1] = (uint8_t)(((px[i] >> 5) & 63) * 255 / 63);
        c->rgba[i * 4 + 2] = (uint8_t)((px[i] & 31) * 255 / 31);
        c->rgba[i * 4 + 3] = 255;
    }
    c->have_image = true;
}

static void readback_float(SceneCtx *c)
{
    static float px[SCENE_W * SCENE_H * 4];

    draw_reference();
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_RGBA, GL_FLOAT, px);
    for (int i = 0; i < SCENE_W * SCENE_H * 4; i++) {
        float v = px[i] < 0 ? 0 : px[i] > 1 ? 1 : px[i];
        c->rgba[i] = (uint8_t)(v * 255.0f + 0.5f);
    }
    c->have_image = true;
}

static void readback_sub(SceneCtx *c)
{
    uint8_t px[40 * 24 * 4 + 64];

    draw_reference();
    memset(c->rgba, 0, sizeof(c->rgba));
    glPixelStorei(GL_PACK_ROW_LENGTH, 40);
    glReadPixels(12, 20, 37, 24, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    for (int y = 0; y < 24; y++) {
        memcpy(c->rgba + ((20 + y) * SCENE_W + 12) * 4, px + y * 40 * 4, 37 * 4);
    }
    c->have_image = true;
}

/* ---- other APIs ---- */

static void gles2_triangle(SceneCtx *c)
{
    static const float v[] = {
        P(6), P(6), 1, 0, 0,  P(58), P(10), 0, 1, 0,  P(30), P(58), 0, 0, 1,
    };
    GLuint p, b;

    glClearColor(0.1f, 0.1f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    p = scene_program(
        "attribute vec2 pos; attribute vec2 tc; attribute vec3 col;\n"
        "varying mediump vec3 c;\n"
        "void main() { c = col; gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "precision mediump float; varying vec3 c;\n"
        "void main() { gl_FragColor = vec4(c, 1.0); }\n");
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, sizeof(v), v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 20, (void *)0);
    {
        GLint loc = glGetAttribLocation(p, "col");
        glVertexAttribPointer(loc, 3, GL_FLOAT, GL_FALSE, 20, (void *)8);
        glEnableVertexAttribArray(loc);
    }
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

static void gles2_clear_scissor(SceneCtx *c)
{
    glClearColor(0.9f, 0.3f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(16, 8, 24, 40);
    glClearColor(0.1f, 0.3f, 0.9f, 0.5f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

static void pbuffer_scene(SceneCtx *c)
{
    glClearColor(0.3f, 0.3f, 0.3f, 1);
    glClearDepth(1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 0.5f, 0); glVertex3f(P(4), P(4), 0.2f);
    glVertex3f(P(60), P(4), 0.2f); glVertex3f(P(32), P(60), 0.2f);
    glColor3f(0, 0.5f, 1); glVertex3f(P(4), P(60), 0.5f);
    glVertex3f(P(60), P(60), 0.5f); glVertex3f(P(32), P(4), -0.5f);
    glEnd();
}

const Scene scenes_shader[] = {
    { "fs_arith", "fragment shader arithmetic: fract, floor, abs, clamp, "
      "mix, step, min, max, division", API_GL, fs_arith },
    { "fs_dot", "dot, cross, normalize, length, distance", API_GL, fs_dot },
    { "fs_exp_log", "exp2, log2, exp, pow, sqrt, inversesqrt", API_GL,
      fs_exp_log },
    { "fs_trig", "sin and cos", API_GL, fs_trig },
    { "fs_conditional", "nested if/else", API_GL, fs_conditional },
    { "fs_loop", "constant and uniform-bounded loops with break", API_GL,
      fs_loop },
    { "fs_discard", "discard", API_GL, fs_discard },
    { "fs_uniforms", "uniform arrays and scalars", API_GL, fs_uniforms },
    { "fs_fragcoord_facing", "gl_FragCoord and gl_FrontFacing", API_GL,
      fs_fragcoord_facing },
    { "fs_texture_math", "two texture lookups combined in the shader", API_GL,
      fs_texture_math },
    { "fs_tex_bias_pixel", "texture2D with a bias differing within a quad",
      API_GL, fs_tex_bias_pixel },
    { "fs_loop_tex", "texture lookups in a uniform-bounded loop", API_GL,
      fs_loop_tex },
    { "vs_math", "vertex shader sin, cos, pow, exp2, log2", API_GL, vs_math },
    { "vs_matrix", "vertex shader mat4 and mat3 uniforms", API_GL, vs_matrix },
    { "vs_flow", "vertex shader loop and branch", API_GL, vs_flow },
    { "varyings_many", "eight vec4 varyings", API_GL, varyings_many },
    { "readback_bgra", "glReadPixels as BGRA bytes", API_GL, readback_bgra },
    { "readback_rgb", "glReadPixels as RGB bytes", API_GL, readback_rgb },
    { "readback_565", "glReadPixels as RGB 5_6_5", API_GL, readback_565 },
    { "readback_float", "glReadPixels as RGBA floats", API_GL,
      readback_float },
    { "readback_sub", "glReadPixels of a sub-rectangle with a row length",
      API_GL, readback_sub },
    { "gles2_triangle", "OpenGL ES 2.0: smooth triangle from a VBO",
      API_GLES2, gles2_triangle },
    { "gles2_clear_scissor", "OpenGL ES 2.0: clears with a scissor",
      API_GLES2, gles2_clear_scissor },
    { "pbuffer", "EGL pbuffer: clear and depth-tested triangles",
      API_PBUFFER, pbuffer_scene },
    { NULL },
};
