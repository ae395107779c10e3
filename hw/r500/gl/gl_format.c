/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_format: the host-GL renderer's surface formats (gl.c).  A surface on
 * the host is a texture whose texels are the surface's pixels byte for
 * byte: it is uploaded from memory and read back to it with no
 * conversion, so what GL did not draw goes back unchanged and what it did
 * is what GL stored (docs/3d.md "The host-GL renderer").  Each kind is a
 * GL internal format with the transfer format and type whose bytes are
 * that format's texels, and where its channels' bits lie in them.
 *
 * A colour target takes the kind whose channels sit at the bits of its
 * stored components (rb3d.c's table 6.1 layouts, r500_rb3d_fields): GL's
 * red, green, blue and alpha are then some permutation of C0..C3, which
 * the epilogue, the channel mask and the blend constant follow.  Where no
 * GL format has the R500 format's bits, soft draws it.
 */
#include <string.h>

#include "gl_int.h"

#define U(c, s, w)      { c, s, w, R500_FIELD_UNORM }
#define H(c, s)         { c, s, 16, R500_FIELD_HALF }
#define F(c, s)         { c, s, 32, R500_FIELD_FLOAT }

/*
 * The channels' bits in the texel as GL packs them with the transfer
 * type (GL 4.5 section 8.4.4.2): the packed types put the first
 * component of the format in the most significant bits, the _REV ones in
 * the least; byte and word types in memory order.  ch[].comp is GL's
 * channel (0 red .. 3 alpha).
 */
const GlKind r500_gl_kinds[GL_KINDS] = {
    [GL_KIND_RGBA8] = { GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4, false,
                        { U(0, 0, 8), U(1, 8, 8), U(2, 16, 8), U(3, 24, 8) } },
    [GL_KIND_RG8] = { GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, 2, false,
                      { U(0, 0, 8), U(1, 8, 8) } },
    [GL_KIND_Z16] = { GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT,
                      GL_UNSIGNED_SHORT, 2 },
    /* the words of Z24S8 are GL's 24_8 packing */
    [GL_KIND_Z24] = { GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL,
                      GL_UNSIGNED_INT_24_8, 4 },
    [GL_KIND_R8] = { GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, 1, false,
                     { U(0, 0, 8) } },
    /* RGB565: red in bits 15:11, blue in 4:0 */
    [GL_KIND_RGB565] = { GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2, 3,
                         false, { U(0, 11, 5), U(1, 5, 6), U(2, 0, 5) } },
    /* BGRA with 1_5_5_5_REV: blue in bits 4:0, alpha in bit 15 */
    [GL_KIND_RGB5_A1] = { GL_RGB5_A1, GL_BGRA, GL_UNSIGNED_SHORT_1_5_5_5_REV,
                          2, 4, false,
                          { U(2, 0, 5), U(1, 5, 5), U(0, 10, 5),
                            U(3, 15, 1) } },
    [GL_KIND_RGBA4] = { GL_RGBA4, GL_BGRA, GL_UNSIGNED_SHORT_4_4_4_4_REV, 2,
                        4, false,
                        { U(2, 0, 4), U(1, 4, 4), U(0, 8, 4), U(3, 12, 4) } },
    /* RGBA with 2_10_10_10_REV: red in bits 9:0, alpha in 31:30 */
    [GL_KIND_RGB10_A2] = { GL_RGB10_A2, GL_RGBA,
                           GL_UNSIGNED_INT_2_10_10_10_REV, 4, 4, false,
                           { U(0, 0, 10), U(1, 10, 10), U(2, 20, 10),
                             U(3, 30, 2) } },
    [GL_KIND_R16] = { GL_R16, GL_RED, GL_UNSIGNED_SHORT, 2, 1, false,
                      { U(0, 0, 16) } },
    [GL_KIND_RG16] = { GL_RG16, GL_RG, GL_UNSIGNED_SHORT, 4, 2, false,
                       { U(0, 0, 16), U(1, 16, 16) } },
    [GL_KIND_RGBA16] = { GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8, 4, false,
                         { U(0, 0, 16), U(1, 16, 16), U(2, 32, 16),
                           U(3, 48, 16) } },
    [GL_KIND_R16F] = { GL_R16F, GL_RED, GL_HALF_FLOAT, 2, 1, false,
                       { H(0, 0) } },
    [GL_KIND_RG16F] = { GL_RG16F, GL_RG, GL_HALF_FLOAT, 4, 2, false,
                        { H(0, 0), H(1, 16) } },
    [GL_KIND_RGBA16F] = { GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, 4, false,
                          { H(0, 0), H(1, 16), H(2, 32), H(3, 48) } },
    [GL_KIND_R32F] = { GL_R32F, GL_RED, GL_FLOAT, 4, 1, false, { F(0, 0) } },
    [GL_KIND_RG32F] = { GL_RG32F, GL_RG, GL_FLOAT, 8, 2, false,
                        { F(0, 0), F(1, 32) } },
    [GL_KIND_RGBA32F] = { GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, 4, false,
                          { F(0, 0), F(1, 32), F(2, 64), F(3, 96) } },
    /* OUT_SIGN targets: two's complement fields, GL's SNORM */
    [GL_KIND_R8_SNORM] = { GL_R8_SNORM, GL_RED, GL_BYTE, 1, 1, true,
                           { U(0, 0, 8) } },
    [GL_KIND_RG8_SNORM] = { GL_RG8_SNORM, GL_RG, GL_BYTE, 2, 2, true,
                            { U(0, 0, 8), U(1, 8, 8) } },
    [GL_KIND_RGBA8_SNORM] = { GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, 4, 4, true,
                              { U(0, 0, 8), U(1, 8, 8), U(2, 16, 8),
                                U(3, 24, 8) } },
    [GL_KIND_R16_SNORM] = { GL_R16_SNORM, GL_RED, GL_SHORT, 2, 1, true,
                            { U(0, 0, 16) } },
    [GL_KIND_RG16_SNORM] = { GL_RG16_SNORM, GL_RG, GL_SHORT, 4, 2, true,
                             { U(0, 0, 16), U(1, 16, 16) } },
    [GL_KIND_RGBA16_SNORM] = { GL_RGBA16_SNORM, GL_RGBA, GL_SHORT, 8, 4,
                               true, { U(0, 0, 16), U(1, 16, 16),
                                       U(2, 32, 16), U(3, 48, 16) } },
};

#undef U
#undef H
#undef F

int r500_gl_color_kind(const R500ColorTarget *t, uint8_t map[4],
                       const char **why)
{
    const R500ColorField *f;
    unsigned n = r500_rb3d_fields(t, &f), fixed = 0, sign = 0;

    for (unsigned i = 0; i < n; i++) {
        if (f[i].kind == R500_FIELD_UNORM) {
            fixed |= 1u << i;
            sign |= ((t->sign >> f[i].comp) & 1u) << i;
        }
    }
    if (sign && sign != fixed) {
        *why = "a colour target with signed and unsigned components";
        return -1;
    }
    for (int k = 0; k < GL_KINDS; k++) {
        const GlKind *g = &r500_gl_kinds[k];
        unsigned hit = 0;

        if (!n || g->n != n || g->bytes != t->surf.bpp ||
            g->snorm != (sign != 0)) {
            continue;
        }
        memset(map, GL_CH_NONE, 4);
        for (unsigned i = 0; i < n; i++) {
            for (unsigned c = 0; c < g->n; c++) {
                if (g->ch[c].shift == f[i].shift &&
                    g->ch[c].width == f[i].width &&
                    g->ch[c].kind == f[i].kind) {
                    map[g->ch[c].comp] = f[i].comp;
                    hit++;
                }
            }
        }
        if (hit == n) {
            return k;
        }
    }
    *why = sign ? "a signed colour format GL has no SNORM format for"
                : "a colour format GL has no format for";
    return -1;
}

bool r500_gl_kind_float(unsigned kind)
{
    return r500_gl_kinds[kind].n &&
           r500_gl_kinds[kind].ch[0].kind != R500_FIELD_UNORM;
}

/*
 * On the GL thread, once: the colour kinds the host can draw into (a
 * texture of each as the one attachment of a framebuffer that is
 * complete).  GL 4.5 requires most of them to be colour-renderable, not
 * the SNORM ones; a kind the host lacks is soft's.
 */
uint32_t r500_gl_kinds_probe(GLuint fbo)
{
    uint32_t ok = 0;

    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    for (unsigned k = 0; k < GL_KINDS; k++) {
        const GlKind *g = &r500_gl_kinds[k];
        GLuint tex;

        if (!g->n) {
            continue;
        }
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexImage2D(GL_TEXTURE_2D, 0, g->ifmt, 4, 4, 0, g->fmt, g->type,
                     NULL);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                               GL_TEXTURE_2D, tex, 0);
        if (glGetError() == GL_NO_ERROR &&
            glCheckFramebufferStatus(GL_FRAMEBUFFER) ==
            GL_FRAMEBUFFER_COMPLETE) {
            ok |= 1u << k;
        }
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                               GL_TEXTURE_2D, 0, 0);
        glDeleteTextures(1, &tex);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}
