/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer's vertex stage on the host (hw/r500/pipe/
 * gl_vertex.c, gl/pvs_glsl.c, gl/rs_glsl.c's r500_rs_glsl_pvs): draws
 * in the state of a driver with hardware TCL (clip-space positions from
 * a vertex program, the VTE's viewport, clipping on), made on soft and on
 * gl, leave the same pixels within the edges' rounding, and gl shaded
 * their vertices on the host (r500_gl_vertex_draws):
 *
 *   perspective  a projected, rotated mesh of triangles with one crossing
 *                the near plane and one past the viewport's edge;
 *   types        the same quad drawn as a list, a strip, a fan, quads, a
 *                quad strip and a polygon, additively, in one target;
 *   indexed      an indexed grid from a vertex array in VRAM, each
 *                vertex shared by up to six triangles;
 *   cull         back faces culled, then drawn with the back colour of
 *                two-sided lighting, with FACE both ways and y flipped;
 *   flat         flat shading, the first and the last vertex provoking;
 *                on quads the CPU keeps the vertex stage (the provoking
 *                vertex is not one of the second triangle's);
 *   ucp          a user clip plane cuts the mesh;
 *   depth        two intersecting triangles over a Z24S8 buffer, LESS;
 *   declined     what stays on the CPU's vertex stage (window-space
 *                vertices, points, polygon offset, flow control) still
 *                draws on gl, and R500_GL_VERTEX=cpu keeps every draw
 *                there.
 */
#include <math.h>
#include <string.h>

#include "gl-host.h"
#include "gl/glsl.h"
#include "../qtest/r500-driver-seq.h"

enum {
    POINTS = 1, TRI_FAN = 5, TRI_STRIP = 6, QUADS = 13,
    QUAD_STRIP = 14, POLYGON = 15,
};

/* VE_DOT_PRODUCT and VE_ADD (reference 4.4) */
#define OP_DP4          1
#define OP_ADD          3

/*
 * The transform in constants 0-3 (rows): a rotation by angle about z and
 * by 0.5 about x, 2.2 away from the eye, and GL's perspective projection
 * with near 1 and far 10 (w = -eye z): w varies over the mesh, and a
 * vertex that comes within 1 of the eye is past the near plane.
 */
static void set_matrix(TestHost *h, float angle)
{
    const float e = 1.6f, d = 2.2f, a = -11.0f / 9.0f, b = -20.0f / 9.0f;
    float c = cosf(angle), s = sinf(angle), ct = cosf(0.5f), st = sinf(0.5f);
    const float m[4][4] = {
        { e * c, -e * s, 0.0f, 0.0f },
        { e * s * ct, e * c * ct, -e * st, 0.0f },
        { a * s * st, a * c * st, a * ct, -a * d + b },
        { -s * st, -c * st, -ct, d },
    };

    for (unsigned r = 0; r < 4; r++) {
        uint32_t w[4] = { t3d_fbits(m[r][0]), t3d_fbits(m[r][1]), t3d_fbits(m[r][2]),
                          t3d_fbits(m[r][3]) };

        t3d_pvs_upload(h, 1024 + r, w, 4);
    }
}

/*
 * A driver's TCL state over t3d's: o0 = M v0 (four DP4 with c0-c3),
 * o1 = v1 (colour 0), o2 = v1.zyxw (colour 2, the back colour of
 * two-sided lighting where the output format has it); the VTE's
 * viewport over the 64x64 target (y down when flip), clipping on.
 */
static void tcl_setup(TestHost *h, bool flip)
{
    R500Chip *s = &h->chip;
    uint32_t code[6 * 4];

    for (unsigned r = 0; r < 4; r++) {
        code[4 * r] = t3d_pvs_dst(OP_DP4, false, PVS_DO, 0, 1u << r);
        code[4 * r + 1] = t3d_pvs_src(PVS_C, r, PVS_XYZW, 0);
        code[4 * r + 2] = t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0);
        code[4 * r + 3] = code[4 * r + 2];
    }
    code[16] = t3d_pvs_dst(OP_ADD, false, PVS_DO, 1, 0xF);
    code[17] = t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0);
    code[18] = t3d_pvs_src(PVS_V, 1, PVS_ZERO4, 0);
    code[19] = code[18];
    code[20] = t3d_pvs_dst(OP_ADD, false, PVS_DO, 2, 0xF);
    code[21] = t3d_pvs_src(PVS_V, 1, PVS_SWZ(2, 1, 0, 3), 0);
    code[22] = code[18];
    code[23] = code[18];
    t3d_pvs_upload(h, 0, code, 24);
    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_0, 5u << 20);
    r500_reg_write(s, R_VAP_PVS_CONST_CNTL, 3u << 16);
    set_matrix(h, 0.3f);
    r500_seq_3d_tcl(r500_seq_chip_w, s, T3D_W, T3D_H, flip);
}

/* A host on renderer w (gl-host.h) in the TCL state, y flipped or not. */
static TestHost *tcl_host(const char *w, bool flip)
{
    TestHost *h = host(w);

    tcl_setup(h, flip);
    return h;
}

/* An object-space vertex, alpha 0.25. */
static void obj_vtx(float *v, float x, float y, float z, float r, float g,
                    float b)
{
    const float in[8] = { x, y, z, 1.0f, r, g, b, 0.25f };

    memcpy(v, in, sizeof(in));
}

/*
 * A mesh of n x n quads over object x, y in [-1, 1] as a triangle list,
 * with colours by position, z bent so that one corner comes near the
 * eye (past the near plane after the transform).
 */
static unsigned mesh(float *v, unsigned n)
{
    unsigned k = 0;

    for (unsigned j = 0; j < n; j++) {
        for (unsigned i = 0; i < n; i++) {
            const unsigned c[6][2] = {
                { i, j }, { i + 1, j }, { i, j + 1 },
                { i + 1, j }, { i + 1, j + 1 }, { i, j + 1 },
            };

            for (unsigned q = 0; q < 6; q++) {
                float x = -1.0f + 2.0f * c[q][0] / n;
                float y = -1.0f + 2.0f * c[q][1] / n;

                obj_vtx(v + 8 * k++, x * 1.3f, y * 1.3f, x * y * 1.4f,
                        0.1f + 0.1f * x, 0.15f, 0.1f - 0.05f * y);
            }
        }
    }
    return k;
}

static void sync_gl(TestHost *h)
{
    r500_pipe_sync(&h->chip, R500_SYNC_FENCE);
}

/* The gl host's draws all went to gl, with the vertex stage on the host
 * for `host` of them. */
static void assert_draws(TestHost *h, uint64_t draws, uint64_t host)
{
    uint64_t d, soft;

    d = r500_chip_stat(&h->chip, "render-gl-draws");

    soft = r500_chip_stat(&h->chip, "render-gl-fallbacks");
    g_assert_cmpuint(d, ==, draws);
    g_assert_cmpuint(soft, ==, 0);
    g_assert_cmpuint(r500_chip_stat(&h->chip, "render-gl-vertex-draws"), ==, host);
}

static void test_perspective(void)
{
    TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);
    float *v = g_new(float, 8 * 6 * 64);
    unsigned n = mesh(v, 8);

    t3d_draw(soft, TRIANGLES, v, n);
    t3d_draw(gl, TRIANGLES, v, n);
    sync_gl(gl);
    g_assert_cmpuint(differ(soft, gl, 2, 1500), <, 60);
    assert_draws(gl, 1, 1);
    /* what the CPU's path counts: each vertex once, every triangle */
    g_assert_cmpuint(gl->chip.vap.vertices, ==, n);
    g_free(v);
    test_host_free(soft);
    test_host_free(gl);
}

/* One quad (object corners a, b, c, d counter-clockwise) as each type. */
static void test_types(void)
{
    TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);
    TestHost *hs[2] = { soft, gl };
    float q[4][2] = { { -0.9f, -0.8f }, { 0.8f, -0.9f }, { 0.9f, 0.8f },
                      { -0.8f, 0.9f } };
    float list[6 * 8], strip[4 * 8], fan[4 * 8], quad[4 * 8], qs[4 * 8];
    const unsigned lo[6] = { 0, 1, 2, 0, 2, 3 }, so[4] = { 0, 1, 3, 2 };

    for (unsigned i = 0; i < 6; i++) {
        obj_vtx(list + 8 * i, q[lo[i]][0], q[lo[i]][1], 0, 0.02f, 0.01f, 0.03f);
    }
    for (unsigned i = 0; i < 4; i++) {
        obj_vtx(strip + 8 * i, q[so[i]][0], q[so[i]][1], 0, 0.02f, 0.01f,
                0.03f);
        obj_vtx(fan + 8 * i, q[i][0], q[i][1], 0, 0.02f * i, 0.01f, 0.03f);
        obj_vtx(quad + 8 * i, q[i][0], q[i][1], 0, 0.01f, 0.02f * i, 0.03f);
        obj_vtx(qs + 8 * i, q[so[i]][0], q[so[i]][1], 0, 0.01f, 0.01f,
                0.02f * i);
    }
    for (unsigned k = 0; k < 2; k++) {
        t3d_draw(hs[k], TRIANGLES, list, 6);
        t3d_draw(hs[k], TRI_STRIP, strip, 4);
        t3d_draw(hs[k], TRI_FAN, fan, 4);
        t3d_draw(hs[k], QUADS, quad, 4);
        t3d_draw(hs[k], QUAD_STRIP, qs, 4);
        t3d_draw(hs[k], POLYGON, fan, 4);
    }
    sync_gl(gl);
    g_assert_cmpuint(differ(soft, gl, 6, 1200), <, 60);
    assert_draws(gl, 6, 6);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * An indexed grid from a vertex array in VRAM (8 floats a vertex:
 * position, colour), 16-bit indices inline: each vertex fetched once.
 */
#define GRID    9
#define VB_OFF  0x380000u

static void draw_grid(TestHost *h)
{
    uint16_t idx[6 * (GRID - 1) * (GRID - 1)];
    uint32_t dw[G_N_ELEMENTS(idx) / 2];
    unsigned n = 0;
    R500DrawCmd cmd = {
        .opcode = 0x34, .source = R500_DRAW_INDICES,
        .prim_type = TRIANGLES, .num_vertices = G_N_ELEMENTS(idx),
        .data = dw, .data_dwords = G_N_ELEMENTS(dw), .num_arrays = 1,
        .arrays = { { .addr = VB_OFF, .size = 8, .stride = 8 } },
    };

    for (unsigned j = 0; j < GRID; j++) {
        for (unsigned i = 0; i < GRID; i++) {
            float v[8];

            obj_vtx(v, -1.2f + 2.4f * i / (GRID - 1),
                    -1.2f + 2.4f * j / (GRID - 1), 0.3f * sinf(i + j),
                    0.02f * i, 0.03f * j, 0.1f);
            for (unsigned c = 0; c < 8; c++) {
                uint32_t b = t3d_fbits(v[c]);

                memcpy(h->vram + VB_OFF + ((j * GRID + i) * 8 + c) * 4, &b,
                       4);
            }
        }
    }
    for (unsigned j = 0; j + 1 < GRID; j++) {
        for (unsigned i = 0; i + 1 < GRID; i++) {
            const uint16_t a = j * GRID + i, b = a + 1, c = a + GRID,
                           d = c + 1;
            const uint16_t t[6] = { a, b, c, b, d, c };

            memcpy(idx + n, t, sizeof(t));
            n += 6;
        }
    }
    memcpy(dw, idx, sizeof(idx));
    cmd.vf_cntl = TRIANGLES | 1u << 4 | G_N_ELEMENTS(idx) << 16;
    r500_3d_draw(&h->chip, &cmd);
}

static void test_indexed(void)
{
    TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);

    draw_grid(soft);
    draw_grid(gl);
    sync_gl(gl);
    g_assert_cmpuint(differ(soft, gl, 2, 1500), <, 60);
    assert_draws(gl, 1, 1);
    g_assert_cmpuint(gl->chip.vap.vertices, ==, GRID * GRID);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * Culling and two-sided colour: the mesh with back faces culled, then
 * all of it with the back colour (o2) for back faces, with FACE 0 and 1
 * and y up and down: the facing GL sees must be the SU's in every case.
 */
static void test_cull(void)
{
    float *v = g_new(float, 2 * 8 * 6 * 64);
    unsigned n = mesh(v, 8);

    /* the left half as it is, the right half mirrored: either facing */
    for (unsigned i = 0; i < n; i++) {
        memcpy(v + 8 * (n + i), v + 8 * i, 32);
        v[8 * i] = v[8 * i] * 0.5f - 0.7f;
        v[8 * (n + i)] = v[8 * (n + i)] * -0.5f + 0.7f;
    }
    n *= 2;

    for (unsigned c = 0; c < 8; c++) {
        bool flip = c & 1, cw = c & 2, two = c & 4;
        TestHost *soft = tcl_host("soft", flip), *gl = tcl_host("gl", flip);
        TestHost *hs[2] = { soft, gl };

        for (unsigned k = 0; k < 2; k++) {
            /* CULL_BACK, FACE */
            r500_reg_write(&hs[k]->chip, R_SU_CULL_MODE,
                           (two ? 0 : 2) | (cw ? 4 : 0));
            /* position, colour 0 and, two-sided, colour 2 */
            r500_reg_write(&hs[k]->chip, R_VAP_OUTPUT_VTX_FMT_0,
                           two ? 1 | 2 | 8 : 3);
            t3d_draw(hs[k], TRIANGLES, v, n);
        }
        sync_gl(gl);
        g_assert_cmpuint(differ(soft, gl, 2, 300), <, 60);
        assert_draws(gl, 1, 1);
        test_host_free(soft);
        test_host_free(gl);
    }
    g_free(v);
}

static void test_flat(void)
{
    float *v = g_new(float, 8 * 6 * 64);
    unsigned n = mesh(v, 8);
    float quad[4 * 8];

    for (unsigned i = 0; i < 4; i++) {
        obj_vtx(quad + 8 * i, i == 1 || i == 2 ? 0.7f : -0.7f,
                i >= 2 ? 0.7f : -0.7f, 0, 0.1f * i, 0.2f, 0.05f * i);
    }
    for (unsigned pv = 0; pv < 4; pv += 3) {
        TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);
        TestHost *hs[2] = { soft, gl };

        for (unsigned k = 0; k < 2; k++) {
            /* colour 0 flat (1 in each of its fields), provoking pv */
            r500_reg_write(&hs[k]->chip, R_GA_COLOR_CONTROL,
                           0xAAA5 | pv << 16);
            t3d_draw(hs[k], TRIANGLES, v, n);
            t3d_draw(hs[k], QUADS, quad, 4);
        }
        sync_gl(gl);
        g_assert_cmpuint(differ(soft, gl, 2, 1500), <, 60);
        /* the quads' provoking vertex is not in their second triangle */
        assert_draws(gl, 2, 1);
        test_host_free(soft);
        test_host_free(gl);
    }
    g_free(v);
}

/* User clip plane 2 (x + y < 0.2 in clip space) over the mesh. */
static void test_ucp(void)
{
    TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);
    TestHost *hs[2] = { soft, gl };
    float *v = g_new(float, 8 * 6 * 64);
    unsigned n = mesh(v, 8);
    const uint32_t plane[4] = { t3d_fbits(-1.0f), t3d_fbits(-1.0f), 0, t3d_fbits(0.2f) };

    for (unsigned k = 0; k < 2; k++) {
        t3d_pvs_upload(hs[k], 1536 + 2, plane, 4);
        r500_reg_write(&hs[k]->chip, R_VAP_CLIP_CNTL, 1u << 2);
        t3d_draw(hs[k], TRIANGLES, v, n);
    }
    sync_gl(gl);
    g_assert_cmpuint(differ(soft, gl, 2, 600), <, 60);
    assert_draws(gl, 1, 1);
    /* the plane cut: the corner beyond it is empty on both */
    g_assert_cmphex(t3d_px(gl, 60, 60), ==, 0);
    g_assert_cmphex(t3d_px(soft, 60, 60), ==, 0);
    g_free(v);
    test_host_free(soft);
    test_host_free(gl);
}

/* Two triangles through each other over a Z24S8 buffer, LESS. */
static void test_depth(void)
{
    TestHost *soft = tcl_host("soft", false), *gl = tcl_host("gl", false);
    TestHost *hs[2] = { soft, gl };
    float v[6 * 8];

    obj_vtx(v, -1, -1, -0.9f, 0.5f, 0, 0);
    obj_vtx(v + 8, 1, -0.8f, 0.9f, 0.5f, 0, 0);
    obj_vtx(v + 16, 0, 1, 0.0f, 0.5f, 0, 0);
    obj_vtx(v + 24, -1, 0.9f, 0.9f, 0, 0.5f, 0);
    obj_vtx(v + 32, 1, 1, -0.9f, 0, 0.5f, 0);
    obj_vtx(v + 40, 0.1f, -1, 0.0f, 0, 0.5f, 0);
    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;

        set_matrix(hs[k], 0.0f);
        r500_reg_write(s, R_RB3D_BLENDCNTL, 0);
        /* Z24S8; Z_ENABLE, ZWRITE; ZFUNC LESS */
        t3d_depth(hs[k], 2, 6, 1);
        memset(hs[k]->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
        t3d_draw(hs[k], TRIANGLES, v, 6);
    }
    sync_gl(gl);
    g_assert_cmpuint(differ(soft, gl, 1, 800), <, 60);
    /*
     * The depth words: soft takes z from its plane through the vertices
     * snapped to 1/12 pixel, GL through its own: they differ by the
     * depth's slope times the snap (here up to ~2^24 / 3000); a wrong
     * depth range would be off by a tenth or more.
     */
    {
        unsigned off = 0, same = 0;

        for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
            uint32_t a, b;

            memcpy(&a, soft->vram + T3D_ZB + 4 * i, 4);
            memcpy(&b, gl->vram + T3D_ZB + 4 * i, 4);
            off += ABS((int64_t)(a >> 8) - (int64_t)(b >> 8)) >
                   (1 << 24) / 1000;
            same += a != 0xFFFFFFFFu && (a & 0xFF) == (b & 0xFF);
        }
        g_assert_cmpuint(off, <, 60);
        g_assert_cmpuint(same, >, 800);
    }
    assert_draws(gl, 1, 1);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * What keeps the CPU's vertex stage still draws on gl: window-space
 * vertices (t3d's own set-up), points, polygon offset and a vertex
 * program with flow control; and with R500_GL_VERTEX=cpu, every draw.
 */
static void test_declined(void)
{
    TestHost *gl = tcl_host("gl", false);
    float *v = g_new(float, 8 * 6 * 64);
    unsigned n = mesh(v, 4);
    R500Chip *s = &gl->chip;

    r500_reg_write(s, R_SU_POLY_OFFSET_ENABLE, 1);
    t3d_draw(gl, TRIANGLES, v, n);
    r500_reg_write(s, R_SU_POLY_OFFSET_ENABLE, 0);
    t3d_draw(gl, POINTS, v, 3);
    /* a JUMP slot (flow control) from instruction 0 to 1: no change */
    r500_reg_write(s, R500_REGA_AT(VAP_PVS_FLOW_CNTL_ADDRS_LW, 0), 1u << 16);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 1);
    t3d_draw(gl, TRIANGLES, v, n);
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, 0);
    t3d_draw(gl, TRIANGLES, v, n);
    sync_gl(gl);
    assert_draws(gl, 4, 1);
    test_host_free(gl);

    g_setenv("R500_GL_VERTEX", "cpu", true);
    gl = tcl_host("gl", false);
    t3d_draw(gl, TRIANGLES, v, n);
    sync_gl(gl);
    assert_draws(gl, 1, 0);
    g_unsetenv("R500_GL_VERTEX");
    test_host_free(gl);
    g_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/vertex/perspective", test_perspective);
    g_test_add_func("/gl/vertex/types", test_types);
    g_test_add_func("/gl/vertex/indexed", test_indexed);
    g_test_add_func("/gl/vertex/cull", test_cull);
    g_test_add_func("/gl/vertex/flat", test_flat);
    g_test_add_func("/gl/vertex/ucp", test_ucp);
    g_test_add_func("/gl/vertex/depth", test_depth);
    g_test_add_func("/gl/vertex/declined", test_declined);
    return g_test_run();
}
