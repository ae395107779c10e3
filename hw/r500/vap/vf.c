/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Vertex fetch: indices (inline or INDX_BUFFER), the vertex arrays of
 * 3D_LOAD_VBPNTR or the data embedded in 3D_DRAW_IMMD_2, and the
 * programmable stream control that turns a vertex's dwords into PVS
 * inputs.  r500-3d-pipeline.md 1.3-1.5, 2.1.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "../r500.h"

/* PSC DATA_TYPE (reference 2.1). */
enum {
    PSC_FLOAT_1 = 0, PSC_FLOAT_2 = 1, PSC_FLOAT_3 = 2, PSC_FLOAT_4 = 3,
    PSC_BYTE = 4, PSC_D3DCOLOR = 5, PSC_SHORT_2 = 6, PSC_SHORT_4 = 7,
    PSC_VECTOR_3_TTT = 8, PSC_VECTOR_3_EET = 9, PSC_FLOAT_8 = 10,
    PSC_FLT16_2 = 11, PSC_FLT16_4 = 12,
};

/* The most dwords one vertex's arrays can hold: 16 arrays of 127 dwords. */
#define VTX_DWORDS_MAX  (R500_DRAW_MAX_ARRAYS * 128)
static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    float v;

    if (e == 0) {
        v = ldexpf(m, -24);
    } else if (e == 31) {
        v = m ? NAN : INFINITY;
    } else {
        v = ldexpf(m | 0x400, e - 25);
    }
    return (h & 0x8000) ? -v : v;
}

/* A fixed-point field of n bits (reference 2.1, "Fixed->float"). */
static float fixed_to_float(const R500PscEntry *e, uint32_t raw, unsigned n)
{
    uint32_t mask = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    float max_u = (float)mask;

    raw &= mask;
    if (!e->is_signed) {
        return e->normalize ? raw / max_u : (float)raw;
    }
    {
        int32_t v = (int32_t)(raw << (32 - n)) >> (32 - n);
        float half = (float)((1u << (n - 1)) - 1);

        if (!e->normalize) {
            return (float)v;
        }
        switch (e->sgn_mode) {
        case 0:
            return v / half;
        case 1:
            return MAX(v / half, -1.0f);
        default:
            return (2.0f * v + 1.0f) / max_u;
        }
    }
}

/*
 * Convert one element: returns the dwords it consumes (before SKIP), 0
 * when avail is too short (the element then reads as (0, 0, 0, 1)).
 * out receives X, Y, Z, W before the swizzle; FLOAT_8's second vector
 * follows in out[4..7] when the caller passes 8 floats.
 */
unsigned r500_psc_convert(const R500PscEntry *e, const uint32_t *dw,
                          unsigned avail, float out[4])
{
    static const unsigned size[16] = {
        1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 8, 1, 2, 0, 0, 0,
    };
    unsigned n = size[e->type & 15];

    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    if (!n || n > avail) {
        return 0;
    }
    switch (e->type) {
    case PSC_FLOAT_1:
    case PSC_FLOAT_2:
    case PSC_FLOAT_3:
    case PSC_FLOAT_4:
        memcpy(out, dw, n * 4);
        break;
    case PSC_FLOAT_8:
        memcpy(out, dw, 4 * 4);
        break;
    case PSC_BYTE:
    case PSC_D3DCOLOR:
        for (int i = 0; i < 4; i++) {
            out[i] = fixed_to_float(e, dw[0] >> (8 * i), 8);
        }
        if (e->type == PSC_D3DCOLOR) {
            float t = out[0];
            out[0] = out[2];
            out[2] = t;
        }
        break;
    case PSC_SHORT_4:
        out[2] = fixed_to_float(e, dw[1], 16);
        out[3] = fixed_to_float(e, dw[1] >> 16, 16);
        /* fall through */
    case PSC_SHORT_2:
        out[0] = fixed_to_float(e, dw[0], 16);
        out[1] = fixed_to_float(e, dw[0] >> 16, 16);
        break;
    case PSC_VECTOR_3_TTT:
        out[0] = fixed_to_float(e, dw[0], 10);
        out[1] = fixed_to_float(e, dw[0] >> 10, 10);
        out[2] = fixed_to_float(e, dw[0] >> 20, 10);
        break;
    case PSC_VECTOR_3_EET:
        out[0] = fixed_to_float(e, dw[0], 11);
        out[1] = fixed_to_float(e, dw[0] >> 11, 11);
        out[2] = fixed_to_float(e, dw[0] >> 22, 10);
        break;
    case PSC_FLT16_4:
        out[2] = half_to_float(dw[1]);
        out[3] = half_to_float(dw[1] >> 16);
        /* fall through */
    case PSC_FLT16_2:
        out[0] = half_to_float(dw[0]);
        out[1] = half_to_float(dw[0] >> 16);
        break;
    }
    return n;
}

/* Latch the PSC entries and the index state of this draw. */
bool r500_vf_prepare(R500Chip *s, const R500DrawCmd *cmd)
{
    R500Vap *v = &s->vap;
    uint32_t sgn = s->regs[R_VAP_PSC_SGN_NORM_CNTL / 4];
    uint32_t off;
    bool last = false;

    v->cmd = cmd;
    v->psc_count = 0;
    v->idx_chunk_addr = UINT64_MAX;
    for (unsigned i = 0; i < R500_PVS_PSC_ENTRIES; i++) {
        uint32_t c = s->regs[R500_REGA_AT(VAP_PROG_STREAM_CNTL, i / 2) / 4];
        uint32_t x = s->regs[R500_REGA_AT(VAP_PROG_STREAM_CNTL_EXT, i / 2) / 4];
        R500PscEntry *e = &v->psc[i];

        if (i & 1) {
            c = R500_FGET(c, VAP_PROG_STREAM_CNTL, ENTRY_1);
            x = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, ENTRY_1);
        }
        e->type = R500_FGET(c, VAP_PROG_STREAM_CNTL, DATA_TYPE_0);
        e->skip = R500_FGET(c, VAP_PROG_STREAM_CNTL, SKIP_DWORDS_0);
        e->dst = R500_FGET(c, VAP_PROG_STREAM_CNTL, DST_VEC_LOC_0);
        e->is_signed = R500_FGET(c, VAP_PROG_STREAM_CNTL, SIGNED_0);
        e->normalize = R500_FGET(c, VAP_PROG_STREAM_CNTL, NORMALIZE_0);
        e->sgn_mode = (sgn >> (2 * i)) & 3;
        e->swz[0] = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, SWIZZLE_SELECT_X_0);
        e->swz[1] = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, SWIZZLE_SELECT_Y_0);
        e->swz[2] = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, SWIZZLE_SELECT_Z_0);
        e->swz[3] = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, SWIZZLE_SELECT_W_0);
        e->wmask = R500_FGET(x, VAP_PROG_STREAM_CNTL_EXT, WRITE_ENA_0);
        if (e->type > PSC_FLT16_4) {
            r500_guest_error(s, "3D: PSC entry %u has data type %u; draw "
                             "skipped", i, e->type);
            return false;
        }
        v->psc_count = i + 1;
        if (R500_FGET(c, VAP_PROG_STREAM_CNTL, LAST_VEC_0)) {
            last = true;
            break;
        }
    }
    if (!last) {
        r500_guest_error(s, "3D: no PSC entry has LAST_VEC; using all 16");
    }
    v->max_index = R500_FGET(s->regs[R_VAP_VF_MAX_VTX_INDX / 4],
                             VAP_VF_MAX_VTX_INDX, INDX);
    v->min_index = R500_FGET(s->regs[R_VAP_VF_MIN_VTX_INDX / 4],
                             VAP_VF_MIN_VTX_INDX, INDX);
    off = R500_FGET(s->regs[R_VAP_INDEX_OFFSET / 4], VAP_INDEX_OFFSET, OFFSET);
    v->index_offset = (int32_t)(off << 7) >> 7;     /* 25-bit signed */
    if (cmd->source == R500_DRAW_EMBEDDED && cmd->vtx_size > VTX_DWORDS_MAX) {
        return false;
    }
    return true;
}

/* Index buffer reads, a chunk at a time. */
static bool index_dword(R500Chip *s, uint32_t n, uint32_t *dw)
{
    R500Vap *v = &s->vap;
    const R500DrawCmd *cmd = v->cmd;
    uint64_t addr;

    if (!cmd->index_buffer) {
        if (n >= cmd->data_dwords) {
            return false;
        }
        *dw = cmd->data[n];
        return true;
    }
    if (n >= cmd->index_dwords) {
        return false;
    }
    addr = cmd->index_addr + 4ull * (n - n % R500_VAP_INDEX_CHUNK);
    if (addr != v->idx_chunk_addr) {
        uint32_t len = MIN(R500_VAP_INDEX_CHUNK,
                           cmd->index_dwords - (n - n % R500_VAP_INDEX_CHUNK));

        v->idx_chunk_addr = UINT64_MAX;
        if (!r500_mem_read(s, addr, v->idx_chunk, 4ull * len)) {
            r500_guest_error(s, "3D: index buffer at MC 0x%" G_GINT64_MODIFIER
                             "x unreadable", addr);
            return false;
        }
        v->idx_chunk_addr = addr;
    }
    *dw = GUINT32_FROM_LE(v->idx_chunk[n % R500_VAP_INDEX_CHUNK]);
    return true;
}

bool r500_vf_index(R500Chip *s, uint32_t i, uint32_t *index)
{
    const R500DrawCmd *cmd = s->vap.cmd;
    R500Vap *v = &s->vap;
    int64_t idx;

    if (cmd->source != R500_DRAW_INDICES) {
        idx = i;
    } else {
        uint32_t dw;

        if (!index_dword(s, cmd->index32 ? i : i / 2, &dw)) {
            return false;
        }
        idx = cmd->index32 ? dw : (i & 1) ? dw >> 16 : dw & 0xFFFF;
        idx += v->index_offset;
    }
    /* Clamp to VAP_VF_MIN/MAX_VTX_INDX (reference 1.5). */
    if (idx > (int64_t)v->max_index) {
        idx = v->max_index;
    }
    if (idx < (int64_t)v->min_index) {
        idx = v->min_index;
    }
    *index = (uint32_t)idx;
    return true;
}

static uint32_t vc_swap(uint32_t v, unsigned mode)
{
    switch (mode) {
    case 1:
        return ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
    case 2:
        return GUINT32_SWAP_LE_BE(v);
    case 3:
        return (v << 16) | (v >> 16);
    default:
        return v;
    }
}

/* The dwords of one vertex: embedded, or gathered from the arrays. */
static unsigned vertex_dwords(R500Chip *s, uint32_t index, uint32_t seq,
                              uint32_t *buf)
{
    const R500DrawCmd *cmd = s->vap.cmd;
    unsigned n = 0;

    if (cmd->source == R500_DRAW_EMBEDDED) {
        uint64_t at = (uint64_t)seq * cmd->vtx_size;

        if (at + cmd->vtx_size > cmd->data_dwords) {
            return 0;
        }
        memcpy(buf, cmd->data + at, cmd->vtx_size * 4);
        return cmd->vtx_size;
    }
    for (uint32_t k = 0; k < cmd->num_arrays; k++) {
        const R500DrawArray *a = &cmd->arrays[k];
        uint64_t addr = a->addr + 4ull * a->stride * index;
        unsigned swap = R500_FGET(s->regs[R_VAP_CNTL_STATUS / 4],
                                  VAP_CNTL_STATUS, VC_SWAP);

        if (!a->size) {
            continue;
        }
        if (addr + 4ull * a->size > (1ull << 32) ||
            !r500_mem_read(s, addr, buf + n, 4ull * a->size)) {
            r500_guest_error(s, "3D: vertex %u of array %u at MC 0x%"
                             G_GINT64_MODIFIER "x unreadable; it reads as 0",
                             index, k, addr);
            memset(buf + n, 0, 4ull * a->size);
        }
        for (unsigned i = 0; i < a->size; i++) {
            buf[n + i] = vc_swap(GUINT32_FROM_LE(buf[n + i]), swap);
        }
        n += a->size;
    }
    return n;
}

void r500_vf_fetch(R500Chip *s, uint32_t index, uint32_t seq,
                   R500PvsState *st)
{
    R500Vap *v = &s->vap;
    uint32_t buf[VTX_DWORDS_MAX];
    unsigned avail = vertex_dwords(s, index, seq, buf), pos = 0;

    for (unsigned i = 0; i < v->psc_count; i++) {
        const R500PscEntry *e = &v->psc[i];
        float val[8];
        unsigned used = r500_psc_convert(e, buf + MIN(pos, avail),
                                         avail - MIN(pos, avail), val);

        if (e->type == PSC_FLOAT_8 && used) {
            /* two consecutive vectors into dst and dst + 1 */
            memcpy(val + 4, buf + pos + 4, 16);
        }
        for (unsigned vec = 0; vec < (e->type == PSC_FLOAT_8 ? 2u : 1u);
             vec++) {
            unsigned dst = e->dst + vec;

            if (dst >= R500_PVS_INPUTS) {
                break;
            }
            for (unsigned c = 0; c < 4; c++) {
                if (e->wmask & (1u << c)) {
                    uint8_t sw = e->swz[c];
                    st->in[dst][c] = sw < 4 ? val[vec * 4 + sw] :
                                     sw == 5 ? 1.0f : 0.0f;
                }
            }
        }
        pos += used + e->skip;
    }
}
