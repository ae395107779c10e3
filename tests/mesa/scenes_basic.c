/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenes of the fixed-function pipeline: clears, primitives, draw paths,
 * depth, stencil, scissor, blending, masks, alpha test, points, lines,
 * culling, polygon offset and fog.
 */
#include <stdio.h>
#include <string.h>

#include "scene.h"

/* NDC of pixel edge n of the 64-pixel framebuffer */
#define P(n) ((n) / 32.0f - 1.0f)

static void clear_to(float r, float g, float b, float a)
{
    glClearColor(r, g, b, a);
    glClear(GL_COLOR_BUFFER_BIT);
}

/* An axis-aligned quad at depth z (NDC), in the current colour. */
static void quad_z(float x0, float y0, float x1, float y1, float z)
{
    glBegin(GL_QUADS);
    glVertex3f(x0, y0, z); glVertex3f(x1, y0, z);
    glVertex3f(x1, y1, z); glVertex3f(x0, y1, z);
    glEnd();
}

static void tri(float x0, float y0, float x1, float y1, float x2, float y2)
{
    glBegin(GL_TRIANGLES);
    glVertex2f(x0, y0);
    glVertex2f(x1, y1);
    glVertex2f(x2, y2);
    glEnd();
}

/* ---- clears ---- */

static void clear_color(SceneCtx *c)
{
    clear_to(0.2f, 0.4f, 0.6f, 0.8f);
}

static void clear_all(SceneCtx *c)
{
    glClearColor(0.75f, 0.25f, 0.5f, 1.0f);
    glClearDepth(0.5);
    glClearStencil(0x5A);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

static void clear_scissor(SceneCtx *c)
{
    clear_to(0, 0, 1, 1);
    glEnable(GL_SCISSOR_TEST);
    glScissor(8, 16, 40, 24);
    clear_to(1, 1, 0, 1);
    glScissor(30, 4, 10, 50);
    clear_to(0, 1, 0, 0.5f);
    glDisable(GL_SCISSOR_TEST);
}

static void clear_depth_readback(SceneCtx *c)
{
    static float z[SCENE_W * SCENE_H];

    glClearDepth(0.25);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(16, 16, 32, 32);
    glClearDepth(0.75);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_DEPTH_COMPONENT, GL_FLOAT, z);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        uint8_t v = (uint8_t)(z[i] * 255.0f + 0.5f);
        c->rgba[i * 4 + 0] = c->rgba[i * 4 + 1] = c->rgba[i * 4 + 2] = v;
        c->rgba[i * 4 + 3] = 255;
    }
    c->have_image = true;
}

static void clear_stencil_readback(SceneCtx *c)
{
    static uint8_t s[SCENE_W * SCENE_H];

    glClearStencil(0x33);
    glClear(GL_STENCIL_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(8, 40, 48, 16);
    glClearStencil(0xC4);
    glClear(GL_STENCIL_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, SCENE_W, SCENE_H, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        c->rgba[i * 4 + 0] = c->rgba[i * 4 + 1] = c->rgba[i * 4 + 2] = s[i];
        c->rgba[i * 4 + 3] = 255;
    }
    c->have_image = true;
}

/* ---- triangles and draw paths ---- */

static void tri_flat(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glShadeModel(GL_FLAT);
    glColor4f(1.0f, 0.5f, 0.25f, 1.0f);
    tri(P(8), P(8), P(56), P(16), P(24), P(56));
}

static void tri_smooth(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 0, 0); glVertex2f(P(4), P(4));
    glColor3f(0, 1, 0); glVertex2f(P(60), P(4));
    glColor3f(0, 0, 1); glVertex2f(P(32), P(60));
    glEnd();
}

static void tri_strip(SceneCtx *c)
{
    clear_to(0.1f, 0.1f, 0.1f, 1);
    glBegin(GL_TRIANGLE_STRIP);
    for (int i = 0; i < 8; i++) {
        glColor3f(i / 7.0f, 1 - i / 7.0f, (i & 1) ? 1 : 0);
        glVertex2f(P(4 + i * 8), P((i & 1) ? 48 : 16));
    }
    glEnd();
}

static void tri_fan(SceneCtx *c)
{
    static const int pts[][2] = {
        { 32, 32 }, { 60, 32 }, { 52, 52 }, { 32, 60 }, { 12, 52 },
        { 4, 32 }, { 12, 12 }, { 32, 4 }, { 52, 12 }, { 60, 32 },
    };

    clear_to(0, 0, 0, 1);
    glBegin(GL_TRIANGLE_FAN);
    for (int i = 0; i < 10; i++) {
        glColor3f((i % 3) / 2.0f, (i % 5) / 4.0f, i / 9.0f);
        glVertex2f(P(pts[i][0]), P(pts[i][1]));
    }
    glEnd();
}

static void quads(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glBegin(GL_QUADS);
    glColor3f(1, 0, 0); glVertex2f(P(4), P(4)); glVertex2f(P(28), P(4));
    glColor3f(1, 1, 0); glVertex2f(P(28), P(28)); glVertex2f(P(4), P(28));
    glColor3f(0, 1, 1); glVertex2f(P(36), P(36)); glVertex2f(P(60), P(36));
    glColor3f(0, 0, 1); glVertex2f(P(60), P(60)); glVertex2f(P(36), P(60));
    glEnd();
}

/* A 6x6 grid of vertices (25 cells) with colours, in a VBO. */
static GLuint grid_vbo(void)
{
    float v[36 * 5];
    GLuint b;

    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 6; i++) {
            float *p = v + (j * 6 + i) * 5;
            p[0] = P(2 + i * 12);
            p[1] = P(2 + j * 12);
            p[2] = i / 5.0f;
            p[3] = j / 5.0f;
            p[4] = ((i + j) & 1) ? 1.0f : 0.25f;
        }
    }
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, sizeof(v), v, GL_STATIC_DRAW);
    glVertexPointer(2, GL_FLOAT, 20, (void *)0);
    glColorPointer(3, GL_FLOAT, 20, (void *)8);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    return b;
}

/* Triangle-list indices of the grid's cells, in a buffer object. */
static void draw_grid_elements(GLenum type)
{
    unsigned idx[25 * 6], n = 0;
    uint8_t buf[sizeof(idx)];
    size_t size = type == GL_UNSIGNED_INT ? 4 : type == GL_UNSIGNED_SHORT ? 2 : 1;
    GLuint ib;

    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 5; i++) {
            unsigned a = j * 6 + i;
            /* skip one cell so the index order matters */
            if (i == 2 && j == 2) {
                continue;
            }
            idx[n++] = a; idx[n++] = a + 1; idx[n++] = a + 7;
            idx[n++] = a; idx[n++] = a + 7; idx[n++] = a + 6;
        }
    }
    for (unsigned k = 0; k < n; k++) {
        if (size == 4) {
            memcpy(buf + k * 4, &idx[k], 4);
        } else if (size == 2) {
            uint16_t s = idx[k];
            memcpy(buf + k * 2, &s, 2);
        } else {
            buf[k] = idx[k];
        }
    }
    glGenBuffers(1, &ib);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, n * size, buf, GL_STATIC_DRAW);
    glDrawElements(GL_TRIANGLES, n, type, (void *)0);
}

static void elements_u16(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    grid_vbo();
    draw_grid_elements(GL_UNSIGNED_SHORT);
}

static void elements_u32(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    grid_vbo();
    draw_grid_elements(GL_UNSIGNED_INT);
}

static void elements_u8(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    grid_vbo();
    draw_grid_elements(GL_UNSIGNED_BYTE);
}

static void elements_user(SceneCtx *c)
{
    static const GLushort idx[] = { 0, 5, 35, 0, 35, 30, 14, 15, 21 };

    clear_to(0, 0, 0, 1);
    grid_vbo();
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    /* client-memory indices, odd start: Mesa's inline-index path */
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx + 3);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, idx);
}

static void arrays_vbo(SceneCtx *c)
{
    float v[200 * 3 * 6];
    GLuint b;
    int n = 0;

    clear_to(0, 0, 0, 1);
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 20; i++) {
            float x = P(2 + i * 3), y = P(2 + j * 6);
            float col[3] = { i / 19.0f, j / 9.0f, 0.5f };
            float xy[3][2] = { { x, y }, { x + 3 / 32.0f, y },
                               { x, y + 5 / 32.0f } };
            for (int k = 0; k < 3; k++, n++) {
                memcpy(v + n * 6, xy[k], 8);
                memcpy(v + n * 6 + 2, col, 12);
                v[n * 6 + 5] = 1;
            }
        }
    }
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, n * 24, v, GL_STATIC_DRAW);
    glVertexPointer(2, GL_FLOAT, 24, (void *)0);
    glColorPointer(4, GL_FLOAT, 24, (void *)8);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glDrawArrays(GL_TRIANGLES, 0, n);
}

static void arrays_ubyte_color(SceneCtx *c)
{
    static const float pos[] = { P(4), P(4), P(60), P(4), P(4), P(60),
                                 P(60), P(60) };
    static const uint8_t col[] = { 255, 0, 0, 255,  0, 255, 0, 255,
                                   0, 0, 255, 255,  255, 255, 255, 255 };

    clear_to(0, 0, 0, 1);
    glVertexPointer(2, GL_FLOAT, 0, pos);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static void polygon(SceneCtx *c)
{
    clear_to(0.2f, 0.2f, 0.2f, 1);
    glColor3f(0.9f, 0.6f, 0.1f);
    glBegin(GL_POLYGON);
    glVertex2f(P(32), P(4));
    glVertex2f(P(58), P(20));
    glVertex2f(P(50), P(56));
    glVertex2f(P(14), P(56));
    glVertex2f(P(6), P(20));
    glEnd();
}

/* ---- depth, stencil, scissor ---- */

/* Clear to black and depth z, then test depth with func. */
static void depth_begin(double z, GLenum func)
{
    glClearColor(0, 0, 0, 1);
    glClearDepth(z);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(func);
}

static void depth_less(SceneCtx *c)
{
    depth_begin(1.0, GL_LESS);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 0, 0);
    glVertex3f(P(4), P(4), 0.5f); glVertex3f(P(60), P(4), 0.5f);
    glVertex3f(P(32), P(60), -0.5f);
    glColor3f(0, 1, 0);
    glVertex3f(P(4), P(60), 0.0f); glVertex3f(P(60), P(60), 0.0f);
    glVertex3f(P(32), P(4), 0.0f);
    glEnd();
}

static void depth_greater_mask(SceneCtx *c)
{
    depth_begin(0.0, GL_GREATER);
    glColor3f(0, 0, 1);
    quad_z(P(8), P(8), P(40), P(40), 0.2f);
    glDepthMask(GL_FALSE);
    glColor3f(1, 1, 0);
    quad_z(P(24), P(24), P(56), P(56), 0.6f);   /* passes, writes no depth */
    glDepthMask(GL_TRUE);
    glColor3f(1, 0, 1);
    quad_z(P(16), P(16), P(48), P(48), 0.0f);   /* fails where blue wrote */
}

/*
 * Occlusion queries (GL_SAMPLES_PASSED; r300 resets ZB_ZPASS_DATA and
 * stores each pipe's count through ZB_ZPASS_ADDR): a quad behind a
 * nearer one counts only its visible pixels, one wholly hidden none.
 * The edges are whole pixels, so the counts are exact: a wrong one fails
 * the scene, and each is drawn as a bar of its count / 64 pixels.
 */
static void occlusion_query(SceneCtx *c)
{
    const GLuint want[2] = { 32 * 64 - 16 * 32, 0 };
    GLuint q[2], n[2];

    depth_begin(1.0, GL_LESS);
    glColor3f(0, 0, 1);
    quad_z(P(16), P(16), P(48), P(48), -0.5f);
    glGenQueries(2, q);
    glBeginQuery(GL_SAMPLES_PASSED, q[0]);
    glColor3f(1, 0, 0);
    quad_z(P(32), P(0), P(64), P(64), 0.5f);    /* 16x32 of it hidden */
    glEndQuery(GL_SAMPLES_PASSED);
    glBeginQuery(GL_SAMPLES_PASSED, q[1]);
    glColor3f(0, 1, 0);
    quad_z(P(20), P(20), P(44), P(44), 0.0f);   /* wholly hidden */
    glEndQuery(GL_SAMPLES_PASSED);
    glGetQueryObjectuiv(q[0], GL_QUERY_RESULT, &n[0]);
    glGetQueryObjectuiv(q[1], GL_QUERY_RESULT, &n[1]);
    glDeleteQueries(2, q);
    if (n[0] != want[0] || n[1] != want[1]) {
        scene_fail("occlusion counts %u and %u, want %u and %u", n[0], n[1],
                   want[0], want[1]);
    }
    glDisable(GL_DEPTH_TEST);
    glColor3f(1, 1, 1);
    quad_z(P(0), P(0), P(n[0] / 64), P(2), 0.0f);
    quad_z(P(0), P(4), P(n[1] / 64), P(6), 0.0f);
}

static void stencil_ref(SceneCtx *c)
{
    glClearColor(0, 0, 0, 1);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 1, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    tri(P(8), P(8), P(56), P(8), P(32), P(56));
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilFunc(GL_EQUAL, 1, 0xFF);
    glColor3f(0, 1, 0);
    scene_quad(P(0), P(0), P(64), P(64), 0, 0, 1, 1);
    glStencilFunc(GL_NOTEQUAL, 1, 0xFF);
    glColor3f(0.5f, 0, 0);
    scene_quad(P(0), P(0), P(64), P(32), 0, 0, 1, 1);
}

static void stencil_ops(SceneCtx *c)
{
    glClearColor(0, 0, 0, 1);
    glClearStencil(2);
    glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 0, 0xFF);
    /* front faces increment, back faces invert (two-sided stencil) */
    glStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INCR);
    glStencilOpSeparate(GL_BACK, GL_KEEP, GL_KEEP, GL_INVERT);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    tri(P(4), P(4), P(44), P(4), P(4), P(44));      /* CCW: front */
    tri(P(20), P(20), P(20), P(60), P(60), P(20));  /* CW: back */
    glStencilOpSeparate(GL_FRONT_AND_BACK, GL_KEEP, GL_KEEP, GL_DECR);
    tri(P(30), P(2), P(62), P(2), P(62), P(34));
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    static const struct { GLuint ref; float r, g, b; } show[] = {
        { 1, 1, 0, 0 }, { 2, 0.3f, 0.3f, 0.3f }, { 3, 0, 1, 0 },
        { 0xFD, 0, 0, 1 }, { 0xFC, 1, 1, 0 },
    };
    for (unsigned i = 0; i < sizeof(show) / sizeof(show[0]); i++) {
        glStencilFunc(GL_EQUAL, show[i].ref, 0xFF);
        glColor3f(show[i].r, show[i].g, show[i].b);
        scene_quad(P(0), P(0), P(64), P(64), 0, 0, 1, 1);
    }
}

static void scissor_draw(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glEnable(GL_SCISSOR_TEST);
    glScissor(10, 6, 30, 40);
    glColor3f(1, 0.5f, 0);
    tri(P(0), P(0), P(64), P(0), P(32), P(64));
    glScissor(40, 30, 20, 30);
    glColor3f(0, 0.5f, 1);
    tri(P(0), P(64), P(64), P(64), P(32), P(0));
    glDisable(GL_SCISSOR_TEST);
}

static void viewport(SceneCtx *c)
{
    clear_to(0.1f, 0.1f, 0.3f, 1);
    glViewport(16, 8, 32, 24);
    glColor3f(1, 1, 1);
    tri(-1, -1, 1, -1, 0, 1);
    glViewport(0, 40, 16, 16);
    glColor3f(1, 0, 0);
    scene_quad(-1, -1, 1, 1, 0, 0, 1, 1);
    glViewport(0, 0, SCENE_W, SCENE_H);
}

/* ---- blending and masks ---- */

static void gradient_quad(float x0, float y0, float x1, float y1)
{
    glBegin(GL_QUADS);
    glColor4f(1, 0, 0, 0); glVertex2f(x0, y0);
    glColor4f(0, 1, 0, 1); glVertex2f(x1, y0);
    glColor4f(0, 0, 1, 1); glVertex2f(x1, y1);
    glColor4f(1, 1, 1, 0); glVertex2f(x0, y1);
    glEnd();
}

static void blend_alpha(SceneCtx *c)
{
    clear_to(0.2f, 0.4f, 0.6f, 1);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    gradient_quad(P(4), P(4), P(60), P(60));
}

static void blend_add(SceneCtx *c)
{
    clear_to(0.25f, 0.25f, 0.25f, 0.25f);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    gradient_quad(P(0), P(0), P(48), P(48));
    gradient_quad(P(16), P(16), P(64), P(64));
}

static void blend_minmax(SceneCtx *c)
{
    clear_to(0.5f, 0.5f, 0.5f, 0.5f);
    glEnable(GL_BLEND);
    glBlendEquation(GL_MIN);
    gradient_quad(P(0), P(0), P(40), P(64));
    glBlendEquation(GL_MAX);
    gradient_quad(P(24), P(0), P(64), P(64));
    glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
    glBlendFunc(GL_ONE, GL_ONE);
    glColor4f(0.25f, 0.125f, 0.0625f, 0.5f);
    scene_quad(P(0), P(24), P(64), P(40), 0, 0, 1, 1);
}

static void blend_separate_const(SceneCtx *c)
{
    clear_to(0.1f, 0.6f, 0.3f, 0.9f);
    glEnable(GL_BLEND);
    glBlendColor(0.25f, 0.5f, 0.75f, 0.5f);
    glBlendFuncSeparate(GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR,
                        GL_ONE, GL_ONE_MINUS_CONSTANT_ALPHA);
    gradient_quad(P(4), P(4), P(60), P(60));
    glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_FUNC_ADD);
    glBlendFuncSeparate(GL_DST_COLOR, GL_ZERO, GL_SRC_ALPHA, GL_DST_ALPHA);
    glColor4f(0.5f, 0.25f, 0.125f, 0.5f);
    scene_quad(P(20), P(20), P(44), P(44), 0, 0, 1, 1);
}

static void color_mask(SceneCtx *c)
{
    clear_to(0.5f, 0.5f, 0.5f, 0.5f);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
    gradient_quad(P(4), P(4), P(60), P(60));
    glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
    glColor4f(1, 1, 1, 1);
    tri(P(0), P(0), P(64), P(0), P(0), P(64));
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

static void alpha_test(SceneCtx *c)
{
    clear_to(0, 0, 0.3f, 1);
    glEnable(GL_ALPHA_TEST);
    glAlphaFunc(GL_GREATER, 0.5f);
    gradient_quad(P(0), P(0), P(64), P(32));
    glAlphaFunc(GL_LEQUAL, 0.25f);
    gradient_quad(P(0), P(32), P(64), P(64));
    glDisable(GL_ALPHA_TEST);
}

static void logic_op(SceneCtx *c)
{
    clear_to(0.5f, 0.25f, 0.75f, 1);
    glEnable(GL_COLOR_LOGIC_OP);
    glLogicOp(GL_XOR);
    glColor3f(1, 1, 1);
    tri(P(4), P(4), P(60), P(4), P(32), P(60));
    glLogicOp(GL_AND);
    glColor3f(0.5f, 1, 0);
    scene_quad(P(0), P(40), P(64), P(56), 0, 0, 1, 1);
    glDisable(GL_COLOR_LOGIC_OP);
}

static void dither_off_gradient(SceneCtx *c)
{
    glDisable(GL_DITHER);
    clear_to(0, 0, 0, 1);
    gradient_quad(P(0), P(0), P(64), P(64));
}

/* ---- points and lines ---- */

static void points(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glBegin(GL_POINTS);
    for (int i = 0; i < 16; i++) {
        glColor3f(1, i / 15.0f, 0);
        /* pixel centres */
        glVertex2f(P(4 + i * 3) + 1 / 64.0f, P(8) + 1 / 64.0f);
    }
    glEnd();
    glPointSize(5);
    glBegin(GL_POINTS);
    for (int i = 0; i < 5; i++) {
        glColor3f(0, 1, i / 4.0f);
        glVertex2f(P(8 + i * 12) + 1 / 64.0f, P(40) + 1 / 64.0f);
    }
    glEnd();
}

static void lines(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glBegin(GL_LINES);
    glColor3f(1, 0, 0); glVertex2f(P(2), P(4) + 1 / 64.0f);
    glVertex2f(P(62), P(4) + 1 / 64.0f);
    glColor3f(0, 1, 0); glVertex2f(P(4) + 1 / 64.0f, P(8));
    glVertex2f(P(4) + 1 / 64.0f, P(60));
    glColor3f(1, 1, 0); glVertex2f(P(8), P(8)); glVertex2f(P(60), P(60));
    glEnd();
    glBegin(GL_LINE_STRIP);
    glColor3f(0, 1, 1);
    glVertex2f(P(10), P(50)); glVertex2f(P(30), P(20));
    glVertex2f(P(50), P(50)); glVertex2f(P(58), P(12));
    glEnd();
    glBegin(GL_LINE_LOOP);
    glColor3f(1, 0, 1);
    glVertex2f(P(40), P(8)); glVertex2f(P(60), P(8)); glVertex2f(P(50), P(28));
    glEnd();
}

static void wide_lines(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glLineWidth(4);
    glBegin(GL_LINES);
    glColor3f(1, 0.5f, 0); glVertex2f(P(4), P(16)); glVertex2f(P(60), P(16));
    glColor3f(0, 0.5f, 1); glVertex2f(P(16), P(4)); glVertex2f(P(16), P(60));
    glColor3f(1, 1, 1); glVertex2f(P(24), P(24)); glVertex2f(P(56), P(56));
    glEnd();
}

static void polygon_mode_line(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glColor3f(1, 1, 0);
    tri(P(8), P(8), P(56), P(12), P(28), P(56));
    glPolygonMode(GL_FRONT_AND_BACK, GL_POINT);
    glPointSize(3);
    glColor3f(0, 1, 1);
    tri(P(36), P(40), P(60), P(44), P(48), P(60));
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

/* ---- culling, offset, fog ---- */

static void cull_face(SceneCtx *c)
{
    clear_to(0, 0, 0, 1);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glColor3f(0, 1, 0);
    tri(P(4), P(4), P(30), P(4), P(4), P(30));      /* CCW: drawn */
    glColor3f(1, 0, 0);
    tri(P(34), P(4), P(34), P(30), P(60), P(4));    /* CW: culled */
    glFrontFace(GL_CW);
    glColor3f(0, 0, 1);
    tri(P(4), P(34), P(4), P(60), P(30), P(34));    /* CW front now */
    glCullFace(GL_FRONT);
    glColor3f(1, 1, 0);
    tri(P(34), P(34), P(60), P(34), P(34), P(60));  /* CCW = back: drawn */
    glDisable(GL_CULL_FACE);
    glFrontFace(GL_CCW);
}

static void polygon_offset(SceneCtx *c)
{
    depth_begin(1.0, GL_LESS);
    glColor3f(1, 0, 0);
    tri(P(4), P(4), P(60), P(4), P(32), P(60));
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1, -1);
    glColor3f(0, 1, 0);
    tri(P(4), P(4), P(60), P(4), P(32), P(60));
    glPolygonOffset(4, 4);
    glColor3f(0, 0, 1);
    scene_quad(P(0), P(0), P(64), P(64), 0, 0, 1, 1);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

/*
 * A quad's edges drawn over the same quad filled, pulled in front by
 * GL_POLYGON_OFFSET_LINE (units only): Mesa enables the polygon's FRONT
 * and BACK offsets for polygon-mode lines (piglit polygon-offset); the
 * right half pushed behind, so only the left edges show.
 */
static void polygon_offset_line(SceneCtx *c)
{
    depth_begin(1.0, GL_LESS);
    glColor3f(1, 0, 0);
    scene_quad(P(8.5f), P(8.5f), P(56.5f), P(56.5f), 0, 0, 1, 1);
    glEnable(GL_POLYGON_OFFSET_LINE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glColor3f(0, 0, 1);
    glPolygonOffset(0, -1);
    scene_quad(P(8.5f), P(8.5f), P(32.5f), P(56.5f), 0, 0, 1, 1);
    glPolygonOffset(0, 1);
    scene_quad(P(32.5f), P(8.5f), P(56.5f), P(56.5f), 0, 0, 1, 1);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDisable(GL_POLYGON_OFFSET_LINE);
}

static void fog_linear(SceneCtx *c)
{
    static const float color[] = { 0.6f, 0.7f, 0.8f, 1 };

    clear_to(0, 0, 0, 1);
    glEnable(GL_FOG);
    glFogi(GL_FOG_MODE, GL_LINEAR);
    glFogf(GL_FOG_START, 0);
    glFogf(GL_FOG_END, 1);
    glFogfv(GL_FOG_COLOR, color);
    glFogi(GL_FOG_COORDINATE_SOURCE, GL_FOG_COORDINATE);
    glBegin(GL_QUADS);
    glColor3f(1, 0, 0);
    glFogCoordf(0); glVertex2f(P(4), P(4));
    glFogCoordf(1); glVertex2f(P(60), P(4));
    glFogCoordf(1); glVertex2f(P(60), P(60));
    glFogCoordf(0); glVertex2f(P(4), P(60));
    glEnd();
    glDisable(GL_FOG);
}

const Scene scenes_basic[] = {
    { "clear_color", "glClear of the colour buffer", API_GL, clear_color },
    { "clear", "glClear of colour, depth and stencil together", API_GL,
      clear_all },
    { "clear_scissor", "scissored colour clears", API_GL, clear_scissor },
    { "clear_depth_readback", "depth clears read back with glReadPixels",
      API_GL, clear_depth_readback },
    { "clear_stencil_readback", "stencil clears read back with glReadPixels",
      API_GL, clear_stencil_readback },
    { "tri_flat", "one flat-coloured triangle", API_GL, tri_flat },
    { "tri_smooth", "one smooth-shaded triangle", API_GL, tri_smooth },
    { "tri_strip", "triangle strip, per-vertex colours", API_GL, tri_strip },
    { "tri_fan", "triangle fan", API_GL, tri_fan },
    { "quads", "GL_QUADS", API_GL, quads },
    { "polygon", "GL_POLYGON", API_GL, polygon },
    { "elements_u16", "glDrawElements, 16-bit indices in a buffer object",
      API_GL, elements_u16 },
    { "elements_u32", "glDrawElements, 32-bit indices in a buffer object",
      API_GL, elements_u32 },
    { "elements_u8", "glDrawElements, 8-bit indices", API_GL, elements_u8 },
    { "elements_user", "glDrawElements, user-memory indices at an odd start",
      API_GL, elements_user },
    { "arrays_vbo", "glDrawArrays of 200 triangles from a VBO", API_GL,
      arrays_vbo },
    { "arrays_ubyte_color", "client arrays with unsigned-byte colours",
      API_GL, arrays_ubyte_color },
    { "depth_less", "depth test GL_LESS, intersecting triangles", API_GL,
      depth_less },
    { "depth_greater_mask", "depth test GL_GREATER and glDepthMask", API_GL,
      depth_greater_mask },
    { "occlusion_query", "occlusion query counts of a partly and a wholly "
      "hidden quad", API_GL, occlusion_query },
    { "stencil_ref", "stencil write then EQUAL/NOTEQUAL tests", API_GL,
      stencil_ref },
    { "stencil_ops", "two-sided stencil INCR/INVERT/DECR", API_GL,
      stencil_ops },
    { "scissor", "scissored triangles", API_GL, scissor_draw },
    { "viewport", "draws into smaller viewports", API_GL, viewport },
    { "blend_alpha", "blending SRC_ALPHA, ONE_MINUS_SRC_ALPHA", API_GL,
      blend_alpha },
    { "blend_add", "additive blending", API_GL, blend_add },
    { "blend_minmax", "GL_MIN, GL_MAX and reverse-subtract equations",
      API_GL, blend_minmax },
    { "blend_separate_const", "separate RGB/alpha blend, constant colour",
      API_GL, blend_separate_const },
    { "color_mask", "glColorMask", API_GL, color_mask },
    { "alpha_test", "fixed-function alpha test", API_GL, alpha_test },
    { "logic_op", "colour logic ops XOR and AND", API_GL, logic_op },
    { "gradient_nodither", "smooth gradient with dithering off", API_GL,
      dither_off_gradient },
    { "points", "points of size 1 and 5", API_GL, points },
    { "lines", "lines, line strip, line loop", API_GL, lines },
    { "wide_lines", "4-pixel-wide lines", API_GL, wide_lines },
    { "polygon_mode", "polygon mode GL_LINE and GL_POINT", API_GL,
      polygon_mode_line },
    { "cull_face", "face culling and glFrontFace", API_GL, cull_face },
    { "polygon_offset", "polygon offset on coplanar triangles", API_GL,
      polygon_offset },
    { "polygon_offset_line", "polygon offset of polygon-mode lines", API_GL,
      polygon_offset_line },
    { "fog_linear", "fixed-function linear fog from fog coordinates",
      API_GL, fog_linear },
    { NULL },
};
