/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Texture scenes: every colour format the r300 driver samples (including
 * the compressed ones), upload paths, mipmaps and filters, wrap modes,
 * cube, 3D, rectangle and NPOT textures, multitexturing, point sprites,
 * render-to-texture and copies.
 *
 * Most scenes map texels 1:1 onto pixels with GL_NEAREST, so a pixel shows
 * exactly one texel on any correct implementation.
 */
#include <stdlib.h>
#include <string.h>

#include "scene.h"

#define P(n) ((n) / 32.0f - 1.0f)

static void textured_screen(void)
{
    glEnable(GL_TEXTURE_2D);
    glColor4f(1, 1, 1, 1);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(-1, -1, 1, 1, 0, 0, 1, 1);
}

/* A 64x64 texture of the pattern in internal format c->param, drawn 1:1. */
static void tex_format(SceneCtx *c)
{
    glClearColor(0.5f, 0, 0.5f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    scene_texture(c->param, SCENE_W, SCENE_H, GL_NEAREST);
    textured_screen();
}

/* Upload in a packed client format rather than RGBA bytes. */
static void tex_upload_565(SceneCtx *c)
{
    static uint16_t px[SCENE_W * SCENE_H];
    uint8_t rgba[SCENE_W * SCENE_H * 4];
    GLuint t;

    scene_pattern(rgba, SCENE_W, SCENE_H);
    for (int i = 0; i < SCENE_W * SCENE_H; i++) {
        px[i] = (uint16_t)(((rgba[i * 4] >> 3) << 11) |
                           ((rgba[i * 4 + 1] >> 2) << 5) | (rgba[i * 4 + 2] >> 3));
    }
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, SCENE_W, SCENE_H, 0, GL_RGB,
                 GL_UNSIGNED_SHORT_5_6_5, px);
    textured_screen();
}

static void tex_upload_bgra(SceneCtx *c)
{
    uint8_t px[SCENE_W * SCENE_H * 4];
    GLuint t;

    scene_pattern(px, SCENE_W, SCENE_H);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    /* the pattern's bytes read as BGRA: red and blue swap */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, SCENE_W, SCENE_H, 0, GL_BGRA,
                 GL_UNSIGNED_INT_8_8_8_8_REV, px);
    /* and a sub-image update in the middle */
    glPixelStorei(GL_UNPACK_ROW_LENGTH, SCENE_W);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 8);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 20, 20, 24, 24, GL_RGBA,
                    GL_UNSIGNED_BYTE, px);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    textured_screen();
}

/* ---- compressed formats: blocks built here, no encoder needed ---- */

static uint16_t rgb565(int r, int g, int b)
{
    return (uint16_t)(((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3));
}

/* DXT1 colour block for block (bx, by): endpoints from the block's
 * corners of the pattern, indices varying per texel. */
static void dxt_color_block(uint8_t *b, int bx, int by, bool four)
{
    uint16_t c0 = rgb565(bx * 16, by * 16, 255 - bx * 8);
    uint16_t c1 = rgb565(255 - by * 12, bx * 12, by * 16);
    uint32_t idx = 0;

    if (four == (c0 <= c1)) {           /* order picks the block mode */
        uint16_t t = c0;
        c0 = c1;
        c1 = t;
    }
    if (c0 == c1) {
        c0 ^= 0x0800;
        if (four == (c0 <= c1)) {
            uint16_t t = c0;
            c0 = c1;
            c1 = t;
        }
    }
    for (int t = 0; t < 16; t++) {
        idx |= (uint32_t)((t + bx + by) & 3) << (t * 2);
    }
    b[0] = c0; b[1] = c0 >> 8; b[2] = c1; b[3] = c1 >> 8;
    b[4] = idx; b[5] = idx >> 8; b[6] = idx >> 16; b[7] = idx >> 24;
}

/* An interpolated 8-bit channel block (DXT5 alpha, RGTC). */
static void dxt_alpha_block(uint8_t *b, int bx, int by, bool eight)
{
    uint8_t a0 = (uint8_t)(40 + bx * 12), a1 = (uint8_t)(230 - by * 10);
    uint64_t bits = 0;

    if (eight ? a0 <= a1 : a0 > a1) {
        uint8_t t = a0;
        a0 = a1;
        a1 = t;
    }
    for (int t = 0; t < 16; t++) {
        bits |= (uint64_t)((t * 3 + bx + by * 5) & 7) << (t * 3);
    }
    b[0] = a0;
    b[1] = a1;
    for (int i = 0; i < 6; i++) {
        b[2 + i] = (uint8_t)(bits >> (i * 8));
    }
}

static void tex_compressed(SceneCtx *c)
{
    GLenum format = c->param;
    const int bw = SCENE_W / 4, bh = SCENE_H / 4;
    int block = format == GL_COMPRESSED_RGB_S3TC_DXT1_EXT ||
                format == GL_COMPRESSED_RGBA_S3TC_DXT1_EXT ||
                format == GL_COMPRESSED_SRGB_S3TC_DXT1_EXT ||
                format == GL_COMPRESSED_RED_RGTC1 ? 8 : 16;
    uint8_t *data = calloc(bw * bh, block), *b = data;
    GLuint t;

    for (int by = 0; by < bh; by++) {
        for (int bx = 0; bx < bw; bx++, b += block) {
            switch (format) {
            case GL_COMPRESSED_RGB_S3TC_DXT1_EXT:
            case GL_COMPRESSED_SRGB_S3TC_DXT1_EXT:
                dxt_color_block(b, bx, by, true);
                break;
            case GL_COMPRESSED_RGBA_S3TC_DXT1_EXT:
                /* three colours and transparent black */
                dxt_color_block(b, bx, by, false);
                break;
            case GL_COMPRESSED_RGBA_S3TC_DXT3_EXT:
                for (int i = 0; i < 8; i++) {
                    b[i] = (uint8_t)((i * 0x35 + bx * 7 + by * 11) & 0xFF);
                }
                dxt_color_block(b + 8, bx, by, true);
                break;
            case GL_COMPRESSED_RGBA_S3TC_DXT5_EXT:
                dxt_alpha_block(b, bx, by, (bx + by) & 1);
                dxt_color_block(b + 8, bx, by, true);
                break;
            case GL_COMPRESSED_RED_RGTC1:
                dxt_alpha_block(b, bx, by, (bx + by) & 1);
                break;
            case GL_COMPRESSED_RG_RGTC2:
                dxt_alpha_block(b, bx, by, true);
                dxt_alpha_block(b + 8, by, bx, false);
                break;
            }
        }
    }
    glClearColor(0.2f, 0.2f, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, SCENE_W, SCENE_H, 0,
                           bw * bh * block, data);
    free(data);
    /* show alpha too: blend over the grey background */
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    textured_screen();
}

static void tex_depth(SceneCtx *c)
{
    static float z[32 * 32];
    GLuint t;

    for (int y = 0; y < 32; y++) {
        for (int x = 0; x < 32; x++) {
            z[y * 32 + x] = (x * 32 + y) / 1023.0f;
        }
    }
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_LUMINANCE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 32, 32, 0,
                 GL_DEPTH_COMPONENT, GL_FLOAT, z);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(0), P(0), P(64), P(64), 0, 0, 1, 1);
}

static void tex_shadow(SceneCtx *c)
{
    static float z[16 * 16];
    GLuint t;

    for (int i = 0; i < 16 * 16; i++) {
        z[i] = (i % 16) / 15.0f;
    }
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE,
                    GL_COMPARE_R_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 16, 16, 0,
                 GL_DEPTH_COMPONENT, GL_FLOAT, z);
    scene_program(
        "attribute vec2 pos; attribute vec2 tc; varying vec2 v;\n"
        "void main() { v = tc; gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "uniform sampler2DShadow s; varying vec2 v;\n"
        "void main() { float r = v.y;\n"
        "  gl_FragColor = vec4(shadow2D(s, vec3(v, r)).rrr, 1.0); }\n");
    scene_quad_attribs(-1, -1, 1, 1);
}

/* ---- mipmaps and filtering ---- */

static const uint8_t level_colors[7][4] = {
    { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
    { 255, 255, 0, 255 }, { 0, 255, 255, 255 }, { 255, 0, 255, 255 },
    { 255, 255, 255, 255 },
};

/* Each level a solid colour, drawn with filters min/mag (REPLACE). */
static GLuint mip_texture(GLenum min, GLenum mag)
{
    static uint8_t px[64 * 64 * 4];
    GLuint t;

    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    for (int l = 0, s = 64; s >= 1; l++, s /= 2) {
        for (int i = 0; i < s * s; i++) {
            memcpy(px + i * 4, level_colors[l], 4);
        }
        glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, s, s, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    return t;
}

static void tex_mipmap_nearest(SceneCtx *c)
{
    mip_texture(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
    /* 4 texels a pixel: level 2; 16 a pixel: level 4; 1:1: level 0 */
    scene_quad(P(0), P(0), P(32), P(64), 0, 0, 2, 4);
    scene_quad(P(32), P(0), P(64), P(32), 0, 0, 8, 8);
    scene_quad(P(32), P(32), P(64), P(64), 0, 0, 0.5f, 0.5f);
}

static void tex_mipmap_linear(SceneCtx *c)
{
    mip_texture(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
    /* 2^1.5 texels a pixel: halfway between levels 1 and 2 */
    scene_quad(P(0), P(0), P(64), P(64), 0, 0, 2.8284271f, 2.8284271f);
}

static void tex_generate_mipmap(SceneCtx *c)
{
    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    GL_NEAREST_MIPMAP_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glClear(GL_COLOR_BUFFER_BIT);
    /* level 2 (16x16) drawn 1:1 on a 16x16 quad, level 1 on 32x32 */
    scene_quad(P(0), P(0), P(16), P(16), 0, 0, 1, 1);
    scene_quad(P(24), P(0), P(56), P(32), 0, 0, 1, 1);
}

static void tex_linear_mag(SceneCtx *c)
{
    scene_texture(GL_RGBA8, 8, 8, GL_LINEAR);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(-1, -1, 1, 1, 0, 0, 1, 1);
}

static void tex_linear_min(SceneCtx *c)
{
    scene_texture(GL_RGBA8, 64, 64, GL_LINEAR);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glClear(GL_COLOR_BUFFER_BIT);
    /* half size: each pixel the average of a 2x2 texel square */
    scene_quad(P(16), P(16), P(48), P(48), 0, 0, 1, 1);
}

/* ---- wrap modes: 16x16 texture over texcoords -1.5 .. 2.5 ---- */

static void tex_wrap(SceneCtx *c)
{
    static const float border[] = { 0.25f, 0.5f, 1.0f, 1.0f };
    GLenum mode = c->param;

    scene_texture(GL_RGBA8, 16, 16, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, mode);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, mode);
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(-1, -1, 1, 1, -1.5f, -1.5f, 2.5f, 2.5f);
}

/* ---- cube, 3D, rectangle, NPOT ---- */

/*
 * Face f of a cube map drawn as the quad (x0, y0)-(x1, y1): texture
 * coordinates the face direction plus -k..k of its two tangents.
 */
static void cube_face_quad(int f, float x0, float y0, float x1, float y1,
                           float k)
{
    /* the six face directions and two tangents each */
    static const float dir[6][3][3] = {
        { { 1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
        { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
        { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
        { { 0, 0, -1 }, { 1, 0, 0 }, { 0, 1, 0 } },
    };
    const float (*d)[3] = dir[f];

    glBegin(GL_QUADS);
    for (int v = 0; v < 4; v++) {
        float s = (v == 1 || v == 2) ? k : -k;
        float u = (v >= 2) ? k : -k;

        glTexCoord3f(d[0][0] + s * d[1][0] + u * d[2][0],
                     d[0][1] + s * d[1][1] + u * d[2][1],
                     d[0][2] + s * d[1][2] + u * d[2][2]);
        glVertex2f(s > 0 ? x1 : x0, u > 0 ? y1 : y0);
    }
    glEnd();
}

static void tex_cube(SceneCtx *c)
{
    static const uint8_t face[6][4] = {
        { 255, 0, 0, 255 }, { 0, 255, 255, 255 }, { 0, 255, 0, 255 },
        { 255, 0, 255, 255 }, { 0, 0, 255, 255 }, { 255, 255, 0, 255 },
    };
    uint8_t px[2 * 2 * 4];
    GLuint t;

    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_CUBE_MAP, t);
    for (int f = 0; f < 6; f++) {
        /* 2x2 texels: the face colour and three darker shades */
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                px[i * 4 + k] = (uint8_t)(face[f][k] * (4 - i) / 4);
            }
            px[i * 4 + 3] = 255;
        }
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 2, 2, 0,
                     GL_RGBA, GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_CUBE_MAP);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int f = 0; f < 6; f++) {
        float x0 = P(2 + (f % 3) * 20), y0 = P((f / 3) * 32);

        cube_face_quad(f, x0, y0, x0 + 20 / 32.0f, y0 + 1.0f, 0.9f);
    }
    glDisable(GL_TEXTURE_CUBE_MAP);
}

static void tex_3d(SceneCtx *c)
{
    static uint8_t px[16 * 16 * 4 * 4];
    GLuint t;

    for (int z = 0; z < 4; z++) {
        scene_pattern(px + z * 16 * 16 * 4, 16, 16);
        for (int i = 0; i < 16 * 16; i++) {
            px[(z * 256 + i) * 4 + 2] = (uint8_t)(z * 80);
        }
    }
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_3D, t);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 16, 16, 4, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_3D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    for (int z = 0; z < 4; z++) {
        float x0 = P((z & 1) * 32), y0 = P((z >> 1) * 32), r = (z + 0.5f) / 4;

        glBegin(GL_QUADS);
        glTexCoord3f(0, 0, r); glVertex2f(x0, y0);
        glTexCoord3f(2, 0, r); glVertex2f(x0 + 1, y0);
        glTexCoord3f(2, 2, r); glVertex2f(x0 + 1, y0 + 1);
        glTexCoord3f(0, 2, r); glVertex2f(x0, y0 + 1);
        glEnd();
    }
    glDisable(GL_TEXTURE_3D);
}

static void tex_rect(SceneCtx *c)
{
    uint8_t px[48 * 40 * 4];
    GLuint t;

    scene_pattern(px, 48, 40);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_RECTANGLE_ARB, t);
    glTexImage2D(GL_TEXTURE_RECTANGLE_ARB, 0, GL_RGBA8, 48, 40, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_RECTANGLE_ARB);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(8), P(12), P(56), P(52), 0, 0, 48, 40);
    glDisable(GL_TEXTURE_RECTANGLE_ARB);
}

static void tex_npot(SceneCtx *c)
{
    glClear(GL_COLOR_BUFFER_BIT);
    scene_texture(GL_RGBA8, 60, 36, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(2), P(14), P(62), P(50), 0, 0, 1, 1);
}

/* ---- texture environments ---- */

static void tex_multi(SceneCtx *c)
{
    glClear(GL_COLOR_BUFFER_BIT);
    glActiveTexture(GL_TEXTURE0);
    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glActiveTexture(GL_TEXTURE1);
    scene_texture(GL_RGBA8, 8, 8, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_ADD);
    glColor4f(0.75f, 0.5f, 1.0f, 1.0f);
    glBegin(GL_QUADS);
    glMultiTexCoord2f(GL_TEXTURE0, 0, 0); glMultiTexCoord2f(GL_TEXTURE1, 1, 0);
    glVertex2f(-1, -1);
    glMultiTexCoord2f(GL_TEXTURE0, 1, 0); glMultiTexCoord2f(GL_TEXTURE1, 1, 1);
    glVertex2f(1, -1);
    glMultiTexCoord2f(GL_TEXTURE0, 1, 1); glMultiTexCoord2f(GL_TEXTURE1, 0, 1);
    glVertex2f(1, 1);
    glMultiTexCoord2f(GL_TEXTURE0, 0, 1); glMultiTexCoord2f(GL_TEXTURE1, 0, 0);
    glVertex2f(-1, 1);
    glEnd();
    glDisable(GL_TEXTURE_2D);
    glActiveTexture(GL_TEXTURE0);
}

static void tex_combine(SceneCtx *c)
{
    glClear(GL_COLOR_BUFFER_BIT);
    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
    glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_INTERPOLATE);
    glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_RGB, GL_TEXTURE);
    glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE1_RGB, GL_PRIMARY_COLOR);
    glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE2_RGB, GL_TEXTURE);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND2_RGB, GL_SRC_ALPHA);
    glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_ALPHA, GL_SUBTRACT);
    glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_ALPHA, GL_PRIMARY_COLOR);
    glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE1_ALPHA, GL_TEXTURE);
    glColor4f(0.1f, 0.9f, 0.4f, 1.0f);
    scene_quad(-1, -1, 1, 1, 0, 0, 1, 1);
}

static void point_sprite(SceneCtx *c)
{
    glClear(GL_COLOR_BUFFER_BIT);
    scene_texture(GL_RGBA8, 16, 16, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glEnable(GL_POINT_SPRITE);
    glTexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_TRUE);
    glPointSize(16);
    glBegin(GL_POINTS);
    glVertex2f(P(16), P(16));
    glVertex2f(P(44), P(24));
    glVertex2f(P(28), P(48));
    glEnd();
    glDisable(GL_POINT_SPRITE);
}

/* ---- render to texture, copies ---- */

static void render_to_texture(SceneCtx *c)
{
    GLuint tex, fb;

    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    fb = scene_fbo_texture(tex);
    glViewport(0, 0, 32, 32);
    glClearColor(0.2f, 0.1f, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 0, 0); glVertex2f(-0.75f, -0.75f);
    glColor3f(0, 1, 0); glVertex2f(0.75f, -0.75f);
    glColor3f(0, 0, 1); glVertex2f(0, 0.75f);
    glEnd();
    /* back to the scene's framebuffer, sample the texture twice */
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
    glViewport(0, 0, SCENE_W, SCENE_H);
    glDeleteFramebuffers(1, &fb);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(0), P(0), P(32), P(32), 0, 0, 1, 1);
    scene_quad(P(32), P(32), P(64), P(64), 1, 1, 0, 0);
}

static void copy_tex_subimage(SceneCtx *c)
{
    GLuint tex;

    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBegin(GL_TRIANGLES);
    glColor3f(1, 1, 0); glVertex2f(P(0), P(0));
    glColor3f(0, 1, 1); glVertex2f(P(32), P(0));
    glColor3f(1, 0, 1); glVertex2f(P(0), P(32));
    glEnd();
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 32, 32);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(32), P(32), P(64), P(64), 0, 1, 1, 0);
}

static void blit_framebuffer(SceneCtx *c)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    scene_texture(GL_RGBA8, 64, 64, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(0), P(0), P(32), P(32), 0, 0, 1, 1);
    glDisable(GL_TEXTURE_2D);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, c->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, c->fbo);
    /* non-overlapping copies: 1:1 and mirrored */
    glBlitFramebuffer(0, 0, 32, 32, 32, 0, 64, 32, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    glBlitFramebuffer(0, 0, 32, 32, 32, 64, 0, 32, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
}

static void msaa_resolve(SceneCtx *c)
{
    GLuint fb, rb;
    GLint samples = 0;

    glGetIntegerv(GL_MAX_SAMPLES, &samples);
    if (samples < 4) {
        scene_unsupported("fewer than 4 samples");
    }
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, SCENE_W,
                                     SCENE_H);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    glClearColor(0, 0, 0.25f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glColor3f(1, 1, 1);
    glBegin(GL_TRIANGLES);      /* a steep triangle: partly covered pixels */
    glVertex2f(-0.9f, -0.8f); glVertex2f(0.85f, -0.3f); glVertex2f(-0.2f, 0.9f);
    glEnd();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, c->fbo);
    glBlitFramebuffer(0, 0, SCENE_W, SCENE_H, 0, 0, SCENE_W, SCENE_H,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

/* ---- the TX fidelity fixes (docs/3d.md, TX) ---- */

/*
 * A texture allocated right after a 160x160 colour buffer that was
 * cleared: r300 clears the lower half of such a buffer through the depth
 * unit (CBZB), scissored to the width aligned to 64 (192) at a pitch of
 * 160; nothing beyond the pitch may be written (piglit tex3d).
 */
static void tex_after_wide_clear(SceneCtx *c)
{
    static uint8_t px[16 * 4];
    GLuint fbo, rb, t;

    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 160, 160);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    glViewport(0, 0, 160, 160);
    glClearColor(0.2f, 0.4f, 0.6f, 0.8f);
    glClear(GL_COLOR_BUFFER_BIT);

    /* one row: not tiled, so Mesa writes it straight into its buffer */
    for (int i = 0; i < 16; i++) {
        px[i * 4 + 0] = (uint8_t)(i * 17);
        px[i * 4 + 1] = (uint8_t)(255 - i * 13);
        px[i * 4 + 2] = (uint8_t)(i & 1 ? 200 : 40);
        px[i * 4 + 3] = 255;
    }
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 1, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
    glViewport(0, 0, SCENE_W, SCENE_H);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(0), P(0), P(32), P(32), 0, 0, 1, 1);
    glDisable(GL_TEXTURE_2D);
    /* and the cleared buffer itself, sampled: its right columns too */
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glBlitFramebuffer(0, 0, 160, 160, 32, 32, 64, 64, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
}

/*
 * glDrawPixels of signed bytes: r300 uploads them into a tiled
 * R8G8B8A8_SNORM texture by rendering, with US_OUT_FMT.OUT_SIGN set
 * (piglit draw-pixels, GL_BYTE).
 */
static void drawpix_byte(SceneCtx *c)
{
    static int8_t px[32 * 32 * 4];

    for (int y = 0; y < 32; y++) {
        for (int x = 0; x < 32; x++) {
            int8_t *p = px + (y * 32 + x) * 4;

            p[0] = (int8_t)(x * 4);
            p[1] = (int8_t)(y * 4);
            p[2] = (int8_t)((x ^ y) & 8 ? 127 : -60);
            p[3] = 127;
        }
    }
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glWindowPos2i(8, 16);
    glDrawPixels(32, 32, GL_RGBA, GL_BYTE, px);
    (void)c;
}

/*
 * Rendering into a GL_ALPHA texture (r300: an I8 colour buffer, every
 * output component alpha) or a GL_LUMINANCE_ALPHA one (UV88, alpha in C0)
 * with GL_DST_ALPHA blending, then sampling it (piglit fbo-alpha,
 * fbo-luminance-alpha); the top band blends with a constant colour, whose
 * alpha Mesa hands an A8 target in the green slot.
 */
static void fbo_alpha_blend(SceneCtx *c)
{
    GLenum fmt = c->param ? c->param : GL_ALPHA;
    GLuint t, fbo;

    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, fmt, 64, 64, 0, fmt,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    fbo = scene_fbo_texture(t);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, 64, 64);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 4; i++) {
        glColor4f(0.8f - 0.2f * i, 0, 0, 0.25f * (i + 1));
        scene_quad(P(i * 16), P(0), P(i * 16 + 16), P(64), 0, 0, 1, 1);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_DST_ALPHA, GL_ZERO);         /* alpha = 0.75 * dst */
    glColor4f(0.9f, 0, 0, 0.75f);
    scene_quad(P(0), P(32), P(64), P(48), 0, 0, 1, 1);
    glBlendFunc(GL_ZERO, GL_ONE_MINUS_DST_ALPHA); /* alpha = dst (1 - dst) */
    scene_quad(P(0), P(48), P(64), P(56), 0, 0, 1, 1);
    /* alpha = 0.4 src: the constant's own alpha (or luminance's red) */
    glBlendColor(0.9f, 0.6f, 0.25f, 0.4f);
    glBlendFunc(GL_CONSTANT_COLOR, GL_ZERO);
    scene_quad(P(0), P(56), P(64), P(64), 0, 0, 1, 1);
    glDisable(GL_BLEND);

    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
    glViewport(0, 0, SCENE_W, SCENE_H);
    glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(P(0), P(0), P(64), P(64), 0, 0, 1, 1);
    glDisable(GL_TEXTURE_2D);
    glColor4f(1, 1, 1, 1);
}

/*
 * A mipmapped 16x16 cube map, a colour per face and level, drawn
 * NEAREST_MIPMAP_NEAREST as 4x4 and 8x8 quads (levels 2 and 1) starting
 * on odd rows: the helper pixels of the first row's quads lie past the
 * face's edge, on another face, and must not move the LOD (piglit
 * cubemap, every 4x4 level).
 */
static void tex_cube_mipmap(SceneCtx *c)
{
    static uint8_t px[16 * 16 * 4];
    GLuint t;

    (void)c;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_CUBE_MAP, t);
    for (int l = 0, n = 16; n; l++, n /= 2) {
        for (int f = 0; f < 6; f++) {
            for (int i = 0; i < n * n; i++) {
                px[i * 4 + 0] = (uint8_t)(40 * f + 20);
                px[i * 4 + 1] = (uint8_t)(50 * l + 10);
                px[i * 4 + 2] = (uint8_t)(255 - 30 * f - 20 * l);
                px[i * 4 + 3] = 255;
            }
            glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, l, GL_RGBA8, n,
                         n, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
        }
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER,
                    GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_CUBE_MAP);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int row = 0; row < 2; row++) {
        int size = row ? 8 : 4, y = row ? 21 : 5;

        for (int f = 0; f < 6; f++) {
            int x = 2 + f * 10;

            cube_face_quad(f, P(x), P(y), P(x + size), P(y + size), 1.0f);
        }
    }
    glDisable(GL_TEXTURE_CUBE_MAP);
}

/*
 * Two colour attachments drawn at once, then shown side by side: param 0
 * a fixed-function colour, which Mesa broadcasts to both with
 * RB3D_CCTL.NUM_MULTIWRITES and US_OUT_FMT 1 UNUSED (piglit
 * fbo-drawbuffers-fragcolor); param 1 gl_FragData[0] and [1], each
 * written in its own format.  Both clear the two through the broadcast.
 */
static void fbo_draw_buffers(SceneCtx *c)
{
    static const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0,
                                    GL_COLOR_ATTACHMENT1 };
    GLuint tex[2], fbo;

    glGenTextures(2, tex);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glFramebufferTexture2D(GL_FRAMEBUFFER, bufs[i], GL_TEXTURE_2D,
                               tex[i], 0);
    }
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        scene_unsupported("two-attachment framebuffer incomplete");
    }
    glDrawBuffers(2, bufs);
    glViewport(0, 0, 64, 64);
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (c->param) {
        GLuint prog = scene_program(
            "void main() { gl_Position = gl_Vertex;"
            " gl_TexCoord[0] = gl_MultiTexCoord0; }",
            "void main() {"
            " gl_FragData[0] = vec4(gl_TexCoord[0].st, 0.25, 1.0);"
            " gl_FragData[1] = vec4(0.75, gl_TexCoord[0].ts, 0.5); }");

        glUseProgram(prog);
        scene_quad(P(8), P(8), P(56), P(56), 0, 0, 1, 1);
        glUseProgram(0);
    } else {
        glBegin(GL_TRIANGLES);
        glColor4f(1, 0, 0, 1);
        glVertex2f(P(4), P(4));
        glColor4f(0, 1, 0, 1);
        glVertex2f(P(60), P(8));
        glColor4f(0, 0, 1, 1);
        glVertex2f(P(30), P(60));
        glEnd();
        glColor4f(1, 1, 1, 1);
    }
    /* attachment 0's left half and attachment 1's right half */
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, c->fbo);
    glViewport(0, 0, SCENE_W, SCENE_H);
    for (int i = 0; i < 2; i++) {
        glReadBuffer(bufs[i]);
        glBlitFramebuffer(i * 32, 0, i * 32 + 32, 64, i * 32, 0, i * 32 + 32,
                          64, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
}

/*
 * glTexSubImage3D into a 64x32x8 RGBA8 3D texture (tiled by r300, so the
 * box goes through a blit from a linear staging texture), then its slices
 * drawn texel for texel, NEAREST (piglit texsubimage, GL_TEXTURE_3D).
 * Fails on r300, a driver fault: the blit scales its coordinates to the
 * staging texture's power-of-two size twice (docs/mesa-scenes.md).
 */
static void tex_3d_subimage(SceneCtx *c)
{
    enum { W = 64, H = 32, D = 8 };
    static uint8_t px[W * H * D * 4], sub[13 * 11 * 3 * 4];
    GLuint t;

    (void)c;
    for (int i = 0; i < W * H * D; i++) {
        int x = i % W, y = i / W % H, z = i / (W * H);

        px[i * 4 + 0] = (uint8_t)(x * 4);
        px[i * 4 + 1] = (uint8_t)(y * 8);
        px[i * 4 + 2] = (uint8_t)(z * 32);
        px[i * 4 + 3] = 255;
    }
    for (int i = 0; i < 13 * 11 * 3; i++) {
        sub[i * 4 + 0] = (uint8_t)(255 - (i % 13) * 9);
        sub[i * 4 + 1] = (uint8_t)(i / 13 % 11 * 20);
        sub[i * 4 + 2] = 200;
        sub[i * 4 + 3] = 255;
    }
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_3D, t);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, W, H, D, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 21, 9, 2, 13, 11, 3, GL_RGBA,
                    GL_UNSIGNED_BYTE, sub);
    glEnable(GL_TEXTURE_3D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    /* slices 1..4, each 64x16 pixels showing the rows 8..24 */
    for (int z = 1; z <= 4; z++) {
        float r = (z + 0.5f) / D, y0 = P((z - 1) * 16);

        glBegin(GL_QUADS);
        glTexCoord3f(0, 8.0f / H, r); glVertex2f(P(0), y0);
        glTexCoord3f(1, 8.0f / H, r); glVertex2f(P(64), y0);
        glTexCoord3f(1, 24.0f / H, r); glVertex2f(P(64), y0 + 0.5f);
        glTexCoord3f(0, 24.0f / H, r); glVertex2f(P(0), y0 + 0.5f);
        glEnd();
    }
    glDisable(GL_TEXTURE_3D);
}

/* Level l, slice z of tex_3d_mipmap: a colour per (l, z), checkered */
static void level_slice_texel(uint8_t *p, int l, int z, int x, int y)
{
    p[0] = (uint8_t)(40 + l * 90);
    p[1] = (uint8_t)(30 + z * 60);
    p[2] = ((x ^ y) & 1) ? 230 : 120;
    p[3] = 255;
}

/*
 * A mipmapped 3D texture (16x16x4, 8x8x2, 4x4x1), NEAREST_MIPMAP_NEAREST:
 * each level picks its slice in its own depth.  Quads at 1, 2 and 4
 * texels a pixel (levels 0, 1, 2), each at R = 0.8 and R = 0.3.
 */
static void tex_3d_mipmap(SceneCtx *c)
{
    static uint8_t px[16 * 16 * 4 * 4];
    GLuint t;

    glClearColor(0, 0, 0.25f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_3D, t);
    for (int l = 0, sz = 16, d = 4; l < 3; l++, sz /= 2, d = d > 1 ? d / 2 : 1) {
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < sz; y++) {
                for (int x = 0; x < sz; x++) {
                    level_slice_texel(px + ((z * sz + y) * sz + x) * 4, l, z,
                                      x, y);
                }
            }
        }
        glTexImage3D(GL_TEXTURE_3D, l, GL_RGBA8, sz, sz, d, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAX_LEVEL, 2);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER,
                    GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glEnable(GL_TEXTURE_3D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    for (int q = 0; q < 6; q++) {
        float x0 = P((q % 3) * 20), y0 = P((q / 3) * 32);
        float k = (float)(1 << (q % 3)), r = q / 3 ? 0.3f : 0.8f;

        /* 16 pixels wide: k texels of level 0 per pixel */
        glBegin(GL_QUADS);
        glTexCoord3f(0, 0, r); glVertex2f(x0, y0);
        glTexCoord3f(k, 0, r); glVertex2f(x0 + 0.5f, y0);
        glTexCoord3f(k, k, r); glVertex2f(x0 + 0.5f, y0 + 0.5f);
        glTexCoord3f(0, k, r); glVertex2f(x0, y0 + 0.5f);
        glEnd();
    }
    glDisable(GL_TEXTURE_3D);
}

/* sRGB filtered: the curve comes off each texel before filtering (GL). */
static void tex_srgb_linear(SceneCtx *c)
{
    scene_texture(GL_SRGB8_ALPHA8, 8, 8, GL_LINEAR);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    scene_quad(-1, -1, 1, 1, 0, 0, 1, 1);
}

static const char *const vs_tex =
    "attribute vec2 pos; attribute vec2 tc; varying vec2 uv;\n"
    "void main() { uv = tc; gl_Position = vec4(pos, 0.0, 1.0); }\n";

/*
 * Signed RGTC1/RGTC2 (Mesa sets SIGNED_COMP on ATI1N/ATI2N): the blocks
 * of tex_compressed, sampled in a shader that maps [-1, 1] to [0, 1].
 */
static void tex_rgtc_signed(SceneCtx *c)
{
    GLenum format = c->param;
    const int bw = SCENE_W / 4, bh = SCENE_H / 4;
    int block = format == GL_COMPRESSED_SIGNED_RED_RGTC1 ? 8 : 16;
    uint8_t *data = calloc(bw * bh, block), *b = data;
    GLuint t, p;

    for (int by = 0; by < bh; by++) {
        for (int bx = 0; bx < bw; bx++, b += block) {
            dxt_alpha_block(b, bx, by, (bx + by) & 1);
            if (block == 16) {
                dxt_alpha_block(b + 8, by, bx, !((bx + by) & 1));
            }
        }
    }
    glClearColor(0.2f, 0.2f, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, SCENE_W, SCENE_H, 0,
                           bw * bh * block, data);
    free(data);
    p = scene_program(vs_tex,
                      "varying vec2 uv; uniform sampler2D t;\n"
                      "void main() {\n"
                      "  vec4 v = texture2D(t, uv);\n"
                      "  gl_FragColor = vec4(v.rg * 0.5 + 0.5, 0.25, 1.0);\n"
                      "}\n");
    glUniform1i(glGetUniformLocation(p, "t"), 0);
    scene_quad_attribs(-1, -1, 1, 1);
}

/*
 * A YCbCr 4:2:2 texture (GL_MESA_ycbcr_texture; Mesa r300 samples YUYV
 * and UYVY as VYUY422/YVYU422 with YUV_TO_RGB).  Y ramps across, Cb and
 * Cr by block; studio-range values.
 */
static void tex_ycbcr(SceneCtx *c)
{
    static uint16_t px[SCENE_W * SCENE_H];
    GLuint t;

    for (int y = 0; y < SCENE_H; y++) {
        for (int x = 0; x < SCENE_W; x++) {
            /* GL_UNSIGNED_SHORT_8_8_MESA: chroma high byte, luma low */
            int luma = 16 + (x * 219) / (SCENE_W - 1);
            int chroma = (x & 1) ? 16 + (y / 8) * 28 : 240 - (y / 8) * 28;

            px[y * SCENE_W + x] = (uint16_t)(chroma << 8 | luma);
        }
    }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_YCBCR_MESA, SCENE_W, SCENE_H, 0,
                 GL_YCBCR_MESA, c->param, px);
    textured_screen();
}

const Scene scenes_texture[] = {
    { "tex_rgba8", "texture RGBA8", API_GL, tex_format,
      NULL, GL_RGBA8 },
    { "tex_rgb8", "texture RGB8", API_GL, tex_format,
      NULL, GL_RGB8 },
    { "tex_rgb5", "texture RGB5 (565)", API_GL, tex_format,
      NULL, GL_RGB5 },
    { "tex_rgba4", "texture RGBA4", API_GL, tex_format,
      NULL, GL_RGBA4 },
    { "tex_rgb5_a1", "texture RGB5_A1", API_GL, tex_format,
      NULL, GL_RGB5_A1 },
    { "tex_rgb10_a2", "texture RGB10_A2", API_GL, tex_format,
      NULL, GL_RGB10_A2 },
    { "tex_rgba16", "texture RGBA16 (unorm)", API_GL, tex_format,
      NULL, GL_RGBA16 },
    { "tex_l8", "texture LUMINANCE8", API_GL, tex_format,
      NULL, GL_LUMINANCE8 },
    { "tex_a8", "texture ALPHA8", API_GL, tex_format,
      NULL, GL_ALPHA8 },
    { "tex_la8", "texture LUMINANCE8_ALPHA8", API_GL, tex_format,
      NULL, GL_LUMINANCE8_ALPHA8 },
    { "tex_i8", "texture INTENSITY8", API_GL, tex_format,
      NULL, GL_INTENSITY8 },
    { "tex_l16", "texture LUMINANCE16", API_GL, tex_format,
      NULL, GL_LUMINANCE16 },
    { "tex_r8", "texture R8", API_GL, tex_format,
      "GL_ARB_texture_rg", GL_R8 },
    { "tex_rg8", "texture RG8", API_GL, tex_format,
      "GL_ARB_texture_rg", GL_RG8 },
    { "tex_srgb8_a8", "texture SRGB8_ALPHA8", API_GL, tex_format,
      "GL_EXT_texture_sRGB", GL_SRGB8_ALPHA8 },
    { "tex_rgba16f", "texture RGBA16F", API_GL, tex_format,
      "GL_ARB_texture_float", GL_RGBA16F_ARB },
    { "tex_rgba32f", "texture RGBA32F", API_GL, tex_format,
      "GL_ARB_texture_float", GL_RGBA32F_ARB },
    { "tex_upload_565", "upload as RGB/UNSIGNED_SHORT_5_6_5", API_GL,
      tex_upload_565 },
    { "tex_upload_bgra", "upload as BGRA, then a strided sub-image", API_GL,
      tex_upload_bgra },
    { "tex_dxt1", "compressed DXT1 (RGB)", API_GL, tex_compressed,
      "GL_EXT_texture_compression_s3tc", GL_COMPRESSED_RGB_S3TC_DXT1_EXT },
    { "tex_dxt1a", "compressed DXT1 with 1-bit alpha", API_GL, tex_compressed,
      "GL_EXT_texture_compression_s3tc", GL_COMPRESSED_RGBA_S3TC_DXT1_EXT },
    { "tex_dxt3", "compressed DXT3", API_GL, tex_compressed,
      "GL_EXT_texture_compression_s3tc", GL_COMPRESSED_RGBA_S3TC_DXT3_EXT },
    { "tex_dxt5", "compressed DXT5", API_GL, tex_compressed,
      "GL_EXT_texture_compression_s3tc", GL_COMPRESSED_RGBA_S3TC_DXT5_EXT },
    { "tex_rgtc1", "compressed RGTC1 (ATI1N)", API_GL, tex_compressed,
      "GL_ARB_texture_compression_rgtc", GL_COMPRESSED_RED_RGTC1 },
    { "tex_rgtc2", "compressed RGTC2 (ATI2N)", API_GL, tex_compressed,
      "GL_ARB_texture_compression_rgtc", GL_COMPRESSED_RG_RGTC2 },
    { "tex_depth", "depth texture sampled as luminance", API_GL, tex_depth },
    { "tex_shadow", "depth texture with compare (shadow2D)", API_GL,
      tex_shadow },
    { "tex_mipmap_nearest", "mipmaps, NEAREST_MIPMAP_NEAREST at LOD 0/2/4",
      API_GL, tex_mipmap_nearest },
    { "tex_mipmap_linear", "trilinear filtering between two levels", API_GL,
      tex_mipmap_linear },
    { "tex_generate_mipmap", "glGenerateMipmap", API_GL, tex_generate_mipmap },
    { "tex_linear_mag", "bilinear magnification 8x", API_GL, tex_linear_mag },
    { "tex_linear_min", "bilinear minification 2x", API_GL, tex_linear_min },
    { "tex_wrap_repeat", "wrap GL_REPEAT", API_GL, tex_wrap,
      NULL, GL_REPEAT },
    { "tex_wrap_mirror", "wrap GL_MIRRORED_REPEAT", API_GL, tex_wrap,
      NULL, GL_MIRRORED_REPEAT },
    { "tex_wrap_edge", "wrap GL_CLAMP_TO_EDGE", API_GL, tex_wrap,
      NULL, GL_CLAMP_TO_EDGE },
    { "tex_wrap_border", "wrap GL_CLAMP_TO_BORDER with a border colour", API_GL, tex_wrap,
      NULL, GL_CLAMP_TO_BORDER },
    { "tex_wrap_mirror_once", "wrap GL_MIRROR_CLAMP_TO_EDGE", API_GL, tex_wrap,
      "GL_ATI_texture_mirror_once", GL_MIRROR_CLAMP_TO_EDGE_ATI },
    { "tex_cube", "cube map, every face", API_GL, tex_cube },
    { "tex_cube_mipmap", "mipmapped cube map, quads starting on odd rows",
      API_GL, tex_cube_mipmap },
    { "tex_3d", "3D texture, four slices", API_GL, tex_3d },
    { "tex_3d_subimage", "glTexSubImage3D into a tiled 3D texture", API_GL,
      tex_3d_subimage },
    { "tex_3d_mipmap", "mipmapped 3D texture, slices chosen per level",
      API_GL, tex_3d_mipmap },
    { "fbo_alpha_blend", "GL_ALPHA framebuffer with DST_ALPHA blending",
      API_GL, fbo_alpha_blend },
    { "fbo_la_blend", "GL_LUMINANCE_ALPHA framebuffer with DST_ALPHA "
      "blending", API_GL, fbo_alpha_blend, NULL, GL_LUMINANCE_ALPHA },
    { "fbo_draw_buffers", "two draw buffers, a broadcast colour", API_GL,
      fbo_draw_buffers },
    { "fbo_draw_buffers_glsl", "two draw buffers, gl_FragData[0] and [1]",
      API_GL, fbo_draw_buffers, NULL, 1 },
    { "drawpix_byte", "glDrawPixels of signed bytes", API_GL, drawpix_byte },
    { "tex_after_wide_clear", "texture allocated after a cleared 160-wide "
      "colour buffer", API_GL, tex_after_wide_clear },
    { "tex_srgb8", "texture SRGB8", API_GL, tex_format,
      "GL_EXT_texture_sRGB", GL_SRGB8 },
    { "tex_sluminance8", "texture SLUMINANCE8", API_GL, tex_format,
      "GL_EXT_texture_sRGB", GL_SLUMINANCE8 },
    { "tex_srgb_linear", "SRGB8_ALPHA8, bilinear magnification 8x",
      API_GL, tex_srgb_linear, "GL_EXT_texture_sRGB" },
    { "tex_srgb_dxt1", "compressed sRGB DXT1", API_GL, tex_compressed,
      "GL_EXT_texture_sRGB", GL_COMPRESSED_SRGB_S3TC_DXT1_EXT },
    { "tex_rgtc1_snorm", "compressed signed RGTC1 in a shader", API_GL,
      tex_rgtc_signed, "GL_ARB_texture_compression_rgtc",
      GL_COMPRESSED_SIGNED_RED_RGTC1 },
    { "tex_rgtc2_snorm", "compressed signed RGTC2 in a shader", API_GL,
      tex_rgtc_signed, "GL_ARB_texture_compression_rgtc",
      GL_COMPRESSED_SIGNED_RG_RGTC2 },
    { "tex_ycbcr_rev", "YCbCr 4:2:2 texture (UNSIGNED_SHORT_8_8_REV)",
      API_GL, tex_ycbcr, "GL_MESA_ycbcr_texture",
      GL_UNSIGNED_SHORT_8_8_REV_MESA },
    { "tex_ycbcr", "YCbCr 4:2:2 texture (UNSIGNED_SHORT_8_8)", API_GL,
      tex_ycbcr, "GL_MESA_ycbcr_texture", GL_UNSIGNED_SHORT_8_8_MESA },
    { "tex_rect", "rectangle texture", API_GL, tex_rect,
      "GL_ARB_texture_rectangle" },
    { "tex_npot", "non-power-of-two 2D texture", API_GL, tex_npot },
    { "tex_multi", "two texture units, MODULATE and ADD", API_GL, tex_multi },
    { "tex_combine", "GL_COMBINE texture environment", API_GL, tex_combine },
    { "point_sprite", "textured point sprites", API_GL, point_sprite },
    { "render_to_texture", "draw into a texture, then sample it", API_GL,
      render_to_texture },
    { "copy_tex_subimage", "glCopyTexSubImage2D from the framebuffer", API_GL,
      copy_tex_subimage },
    { "blit_framebuffer", "glBlitFramebuffer, straight and mirrored", API_GL,
      blit_framebuffer },
    { "msaa_resolve", "4x multisampled renderbuffer resolved by a blit",
      API_GL, msaa_resolve },
    { NULL },
};
