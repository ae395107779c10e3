/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gl_tex: the textures of the host-GL renderer (gl.c).  A unit the
 * program samples is decoded by the TX (r500_tx_image) to RGBA32F, so GL
 * samples what soft would fetch, and kept by the hash of its decode state
 * and its bytes in VRAM: a texture is uploaded again only when its bytes
 * changed (docs/3d.md).
 */
#include <stdio.h>
#include <string.h>

#include "gl_int.h"

static GLenum gl_wrap(unsigned mode)
{
    switch (mode) {
    case 0:
        return GL_REPEAT;
    case 1:
        return GL_MIRRORED_REPEAT;
    case 2:
        return GL_CLAMP_TO_EDGE;
    case 3:
        return GL_MIRROR_CLAMP_TO_EDGE;
    default:
        return GL_CLAMP_TO_BORDER;
    }
}

/* A 64-bit hash of n bytes (not cryptographic: see gl_tex_key). */
static uint64_t gl_hash(uint64_t h, const uint8_t *p, size_t n)
{
    uint64_t w;

    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    while (n--) {
        h = (h ^ *p++) * 0x9E3779B97F4A7C15ull;
    }
    return h ^ (h >> 32);
}

/*
 * The cache key of a unit's image: its decode state and every byte of
 * its chain in VRAM (the content, so a texture rewritten by the CPU, the
 * 2D engine, a DMA or a draw is a new key).  False when the chain is not
 * wholly in VRAM: such a texture is decoded for its draw and not kept.
 * A guest that made two textures collide would see its own texels in
 * the other's place: the key needs no more strength than that.
 */
static bool gl_tex_key(R500Chip *s, const R500TxUnit *t, uint64_t *key)
{
    const uint8_t *lo = NULL;
    uint64_t base = t->level[0].surf.base, off, h;
    struct {
        uint32_t fmt, first, last;
        uint8_t sign, pow2fix, gamma, gamma_mask, yuv, swap_yuv, endian,
                fetch, finish, dxtc, coord;
    } k;

    if (t->chain_end <= base ||
        !r500_mc_vram_span(s, base, t->chain_end - base, &off)) {
        return false;
    }
    lo = s->vram + off;
    memset(&k, 0, sizeof(k));
    k.fmt = t->fmt;
    k.first = t->first;
    k.last = t->last;
    k.sign = t->sign;
    k.pow2fix = t->pow2fix;
    k.gamma = t->gamma;
    k.gamma_mask = t->gamma_mask;
    k.yuv = t->yuv_to_rgb;
    k.swap_yuv = t->swap_yuv;
    k.endian = t->endian;
    k.fetch = t->fetch;
    k.finish = t->finish;
    k.dxtc = t->dxtc_swizzle;
    k.coord = t->coord_type;
    h = gl_hash(0x52353030ull, (const uint8_t *)&k, sizeof(k));
    for (unsigned l = t->first; l <= t->last; l++) {
        const R500TxLevel *lv = &t->level[l];
        uint64_t d[8] = {
            lv->surf.base - base, lv->surf.pitch, lv->surf.bpp,
            lv->surf.macro, lv->surf.micro, lv->w, lv->h,
            (uint64_t)lv->d << 32 | r500_tx_layers(t, l),
        };

        h = gl_hash(h, (const uint8_t *)d, sizeof(d));
    }
    *key = gl_hash(h, lo, t->chain_end - base);
    return true;
}

/* Forget the cache's least recently used texture (its name doomed). */
static bool gl_tex_evict(R500Gl *g)
{
    GHashTableIter it;
    gpointer v;
    GlTexEntry *old = NULL;

    if (g->ndoomed == GL_TEX_DOOMED) {
        return false;
    }
    g_hash_table_iter_init(&it, g->texc);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        GlTexEntry *e = v;

        if (!old || e->used < old->used) {
            old = e;
        }
    }
    if (!old) {
        return false;
    }
    g->doomed[g->ndoomed++] = old->name;
    g->texc_bytes -= old->bytes;
    g_hash_table_remove(g->texc, &old->key);
    return true;
}

/* After a job: keep the textures it made, within the cache's bytes. */
void r500_gl_tex_keep(R500Gl *g, GlJob *j, const uint64_t *keys,
                        const bool *keyed)
{
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        GlTexEntry *e;
        uint64_t bytes = 0;

        if (!j->tex[u].used || !j->tex[u].img[j->tex[u].first] ||
            !j->tex[u].name) {
            continue;           /* cached already, or never made */
        }
        if (!keyed[u] || g_hash_table_contains(g->texc, &keys[u]) ||
            g->ndoomed == GL_TEX_DOOMED) {
            /* not kept (or made twice in one draw): gone with the next */
            if (g->ndoomed < GL_TEX_DOOMED) {
                g->doomed[g->ndoomed++] = j->tex[u].name;
            }
            continue;
        }
        for (unsigned l = j->tex[u].first; l <= j->tex[u].last; l++) {
            bytes += (uint64_t)j->tex[u].w[l] * j->tex[u].h[l] *
                     j->tex[u].d[l] * 16;
        }
        while (g->texc_bytes + bytes > GL_TEX_CACHE_BYTES &&
               gl_tex_evict(g)) {
            continue;
        }
        e = g_new(GlTexEntry, 1);
        *e = (GlTexEntry) {
            .key = keys[u], .name = j->tex[u].name, .bytes = bytes,
            .used = g->tick,
        };
        g_hash_table_insert(g->texc, &e->key, e);
        g->texc_bytes += bytes;
    }
}

/*
 * Render to texture: a unit whose one 2D level is a surface the resident
 * slots hold as RGBA8 (an ARGB8888 target: GL's R..A are the bytes in
 * memory order), sampled as 8_8_8_8 unsigned with nothing to finish, is
 * made on the host from the slots' textures (gl_thread.c
 * gl_slot_texture(), with the decode's exact values) instead of the
 * slots written back and memory decoded: what r300 does to read a
 * target back (a blit through the texture unit), and what a program that
 * draws into a texture and samples it does.  The slots are the surface's
 * or pieces of it whole rows of tiles away (the halves of r300's CBZB
 * clear, gl_res_move), one copy of a byte each, and together they must
 * hold every texel.
 */
uint32_t r500_gl_tex_slot(R500Chip *s, GlJob *j, unsigned u)
{
    R500Gl *g = s->gl;
    const R500TxUnit *t = &s->tx.unit[u];
    const R500Surf *sf = &t->level[0].surf;
    int64_t unit = sf->macro ? sf->Mth : sf->tiled ? sf->mth : 1;
    uint64_t area = 0;
    uint32_t mask = 0;
    int w = t->level[0].w, h = t->level[0].h;

    if (t->coord_type || t->first || t->last || r500_tx_layers(t, 0) != 1 ||
        !r500_tx_plain8(t) || t->pow2fix || t->endian || !sf->row_bytes) {
        return 0;
    }
    for (unsigned k = 0; k < GL_RES_MAX; k++) {
        const R500Surf *sk = &g->res[k].surf;
        int64_t d = (int64_t)(sk->base - sf->base), oy;
        GlRect r = g->res[k].res;
        int x0, y0, x1, y1;

        if (!g->res[k].on || g->res[k].kind != GL_KIND_RGBA8 ||
            sk->pitch != sf->pitch || sk->bpp != sf->bpp ||
            sk->macro != sf->macro || sk->micro != sf->micro ||
            sk->tiled != sf->tiled || d % (int64_t)sf->row_bytes) {
            continue;
        }
        oy = d / (int64_t)sf->row_bytes * unit;
        if (oy <= -GL_TARGET_MAX || oy >= GL_TARGET_MAX) {
            continue;
        }
        x0 = MAX(r.x, 0);
        x1 = MIN(r.x + r.w, w);
        y0 = MAX(r.y + oy, 0);
        y1 = MIN(r.y + r.h + oy, h);
        if (x1 <= x0 || y1 <= y0) {
            continue;
        }
        j->tex[u].piece[k].r = (GlRect) { x0, y0, x1 - x0, y1 - y0 };
        j->tex[u].piece[k].oy = oy;
        area += (uint64_t)(x1 - x0) * (y1 - y0);
        mask |= 1u << k;
    }
    /* the slots hold disjoint bytes: their areas add up to the whole */
    return area == (uint64_t)w * h ? mask : 0;
}

/*
 * A draw refused for host memory: counted (render-gl-over-limit), and
 * said as the guest's doing once per reset with the figures; *note
 * becomes R500_GL_NOTE_LIMIT, whose bit this line has set, so gl_try's
 * note of the same refusal says nothing more (one line, not two).
 */
static const char *gl_tex_over(R500Chip *s, unsigned u, uint64_t texels,
                               uint64_t limit, const char *why,
                               unsigned *note)
{
    R500Gl *g = s->gl;
    char where[16] = "all units";

    g->over_limit++;
    if (r500_once(&g->noted, 1u << R500_GL_NOTE_LIMIT)) {
        if (u < R500_TX_UNITS) {
            snprintf(where, sizeof(where), "unit %u", u);
        }
        r500_guest_error(s, "3D: renderer gl: %s (%s: %" G_GUINT64_FORMAT
                         " texels, limit %" G_GUINT64_FORMAT "); such "
                         "draws are drawn by soft", why, where, texels,
                         limit);
    }
    *note = R500_GL_NOTE_LIMIT;
    return why;
}

/* Decode the units the program samples (r500_tx_image) into j. */
const char *r500_gl_textures(R500Chip *s, GlJob *j, const uint16_t *ops,
                             R500Worker *w, uint64_t *keys, bool *keyed,
                             unsigned *note)
{
    R500Gl *g = s->gl;
    uint64_t staged = 0;

    static const GLenum targets[3] = {
        GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_CUBE_MAP,
    };

    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];
        uint64_t texels = 0;

        if (!ops[u]) {
            continue;
        }
        for (unsigned l = t->first; targets[t->coord_type] ==
             GL_TEXTURE_CUBE_MAP && l <= t->last; l++) {
            /* GL's cube faces are square (glTexImage2D fails else) */
            if (t->level[l].w != t->level[l].h) {
                return "a cube map of faces not square";
            }
        }
        for (unsigned l = t->first; l <= t->last; l++) {
            texels += (uint64_t)t->level[l].w * t->level[l].h *
                      r500_tx_layers(t, l);
        }
        if (texels > GL_TEX_MAX_TEXELS) {
            return gl_tex_over(s, u, texels, GL_TEX_MAX_TEXELS,
                               "a texture larger than the renderer uploads",
                               note);
        }
        j->tex[u].used = true;
        j->tex[u].target = targets[t->coord_type];
        j->tex[u].first = t->first;
        j->tex[u].last = t->last;
        if (j->tex[u].from_slots) {
            /* made on the GL thread; not kept */
            j->tex[u].w[0] = t->level[0].w;
            j->tex[u].h[0] = t->level[0].h;
            j->tex[u].d[0] = 1;
            keyed[u] = false;
            g->tex_slots++;
        } else {
            keyed[u] = gl_tex_key(s, t, &keys[u]);
        }
        if (keyed[u]) {
            GlTexEntry *e = g_hash_table_lookup(g->texc, &keys[u]);

            if (e) {
                e->used = g->tick;
                j->tex[u].name = e->name;
                g->tex_hits++;
            }
        }
        if (!j->tex[u].name && !j->tex[u].from_slots) {
            staged += texels;
        }
        for (int k = 0; k < 3; k++) {
            j->tex[u].wrap[k] = gl_wrap(t->wrap[k]);
        }
        /* FILTER0: LINEAR and ANISO filter linearly, POINT and 4 not */
        j->tex[u].mag = t->mag >= 2 ? GL_LINEAR : GL_NEAREST;
        if (t->mip == 0) {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR : GL_NEAREST;
        } else if (t->mip == 1) {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR_MIPMAP_NEAREST
                                        : GL_NEAREST_MIPMAP_NEAREST;
        } else {
            j->tex[u].min = t->min >= 2 ? GL_LINEAR_MIPMAP_LINEAR
                                        : GL_NEAREST_MIPMAP_LINEAR;
        }
        r500_tx_glsl_size(t, j->tex[u].size);
        memcpy(j->tex[u].border, t->border, 16);
    }

    /* what the draw stages, known before any of it is allocated */
    if (staged > GL_TEX_DRAW_TEXELS) {
        return gl_tex_over(s, R500_TX_UNITS, staged, GL_TEX_DRAW_TEXELS,
                           "textures larger together than one draw uploads",
                           note);
    }
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        const R500TxUnit *t = &s->tx.unit[u];

        if (!j->tex[u].used || j->tex[u].name || j->tex[u].from_slots) {
            continue;
        }
        for (unsigned l = t->first; l <= t->last; l++) {
            const R500TxLevel *lv = &t->level[l];

            j->tex[u].w[l] = lv->w;
            j->tex[u].h[l] = lv->h;
            j->tex[u].d[l] = r500_tx_layers(t, l);
            j->tex[u].img[l] = g_new(float, (size_t)lv->w * lv->h *
                                     r500_tx_layers(t, l) * 4);
            r500_tx_image(w, t, l, j->tex[u].img[l]);
        }
        g->tex_uploads++;
    }
    return NULL;
}
