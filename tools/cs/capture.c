/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capture files: the command streams a run submitted and the buffers they
 * referenced, so a scene can be replayed without Mesa.  Format version 2
 * (version 1 lacks RESULT and is still read), little-endian, documented
 * in docs/mesa-harness.md:
 *
 *   header   "R500CAP\0", u32 version, u32 flags (0)
 *   record   u32 type, u32 length, payload[length], zero pad to 4 bytes
 *
 * DEVICE comes first and END last; BO announces a buffer (again when its
 * placement or tiling changes), BO_DATA carries its bytes as they were at
 * the next CS, CS the stream as submitted and as the checker patched it,
 * RESULT (after an executed CS) the hashes of the buffers it referenced.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cs.h"

#define CAP_HEADER_SIZE     16
#define CAP_DEVICE_SIZE     40
#define CAP_BO_SIZE         32
#define CAP_DATA_HEAD       24
#define CAP_CS_HEAD         40
#define CAP_RELOC_SIZE      20
#define CAP_RESULT_HEAD     8
#define CAP_RESULT_ENTRY    (8 + CAP_HASH_SIZE)
#define CAP_CS_HAVE_RELOCS  1u
#define CAP_CS_CHECKED      2u
/* A stream larger than the kernel's 1 MiB IB pool cannot exist. */
#define CAP_MAX_IB_DW       (1u << 18)

struct CapWriter {
    FILE *f;
    uint32_t cs_count;
    bool error;
};

/* ---- little-endian helpers ---- */

static void put32(GByteArray *b, uint32_t v)
{
    uint8_t d[4] = { v, v >> 8, v >> 16, v >> 24 };
    g_byte_array_append(b, d, 4);
}

static void put64(GByteArray *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t *p)
{
    return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t get64(const uint8_t *p)
{
    return get32(p) | ((uint64_t)get32(p + 4) << 32);
}

/* Start a record in b; returns the offset of its length field. */
static guint rec_begin(GByteArray *b, uint32_t type)
{
    guint at;

    put32(b, type);
    at = b->len;
    put32(b, 0);
    return at;
}

static void rec_end(GByteArray *b, guint at)
{
    uint32_t len = b->len - at - 4;
    static const uint8_t zero[4];

    b->data[at] = len;
    b->data[at + 1] = len >> 8;
    b->data[at + 2] = len >> 16;
    b->data[at + 3] = len >> 24;
    if (len & 3) {
        g_byte_array_append(b, zero, 4 - (len & 3));
    }
}

static void enc_header(GByteArray *b, uint32_t version)
{
    static const char magic[8] = CAP_MAGIC;

    g_byte_array_append(b, (const uint8_t *)magic, 8);
    put32(b, version);
    put32(b, 0);
}

static void enc_result(GByteArray *b, uint32_t n, const uint8_t *entries)
{
    guint at = rec_begin(b, CAP_RESULT);

    put32(b, n);
    put32(b, 0);
    g_byte_array_append(b, entries, (guint)n * CAP_RESULT_ENTRY);
    rec_end(b, at);
}

static void enc_device(GByteArray *b, const CapDevice *d)
{
    guint at = rec_begin(b, CAP_DEVICE);

    put32(b, d->pci_id);
    put32(b, d->model);
    put64(b, d->vram_size);
    put64(b, d->vram_start);
    put64(b, d->gtt_start);
    put64(b, d->gtt_size);
    rec_end(b, at);
}

static void enc_bo(GByteArray *b, const CapBo *bo)
{
    guint at = rec_begin(b, CAP_BO);

    put32(b, bo->id);
    put32(b, bo->domain);
    put64(b, bo->size);
    put64(b, bo->gpu_addr);
    put32(b, bo->tiling_flags);
    put32(b, bo->pitch);
    rec_end(b, at);
}

static void enc_bo_data(GByteArray *b, uint32_t id, uint64_t off,
                        const void *data, uint64_t len)
{
    guint at = rec_begin(b, CAP_BO_DATA);

    put32(b, id);
    put32(b, 0);
    put64(b, off);
    put64(b, len);
    g_byte_array_append(b, data, len);
    rec_end(b, at);
}

static void enc_u32_record(GByteArray *b, uint32_t type, uint32_t v)
{
    guint at = rec_begin(b, type);

    put32(b, v);
    rec_end(b, at);
}

static void enc_cs(GByteArray *b, const CapCs *cs)
{
    guint at = rec_begin(b, CAP_CS);
    uint32_t flags = (cs->have_relocs ? CAP_CS_HAVE_RELOCS : 0) |
                     (cs->checked ? CAP_CS_CHECKED : 0);

    put32(b, cs->seq);
    put32(b, cs->cs_flags);
    put32(b, cs->ring);
    put32(b, (uint32_t)cs->result);
    put32(b, cs->exec);
    put32(b, cs->owners);
    put32(b, cs->nrelocs);
    put32(b, cs->ndw);
    put32(b, flags);
    put32(b, 0);
    for (uint32_t i = 0; i < cs->nrelocs; i++) {
        put32(b, cs->relocs[i].handle);
        put32(b, cs->relocs[i].bo);
        put32(b, cs->relocs[i].read_domains);
        put32(b, cs->relocs[i].write_domain);
        put32(b, cs->relocs[i].flags);
    }
    for (uint32_t i = 0; i < cs->ndw; i++) {
        put32(b, cs->ib[i]);
    }
    if (cs->checked) {
        for (uint32_t i = 0; i < cs->ndw; i++) {
            put32(b, cs->checked[i]);
        }
    }
    rec_end(b, at);
}

/* ---- writer ---- */

static void flush(CapWriter *w, GByteArray *b)
{
    if (!w->error && fwrite(b->data, 1, b->len, w->f) != b->len) {
        w->error = true;
    }
    g_byte_array_unref(b);
}

CapWriter *cap_create(const char *path, const CapDevice *dev, char **err)
{
    CapWriter *w = g_new0(CapWriter, 1);
    GByteArray *b = g_byte_array_new();

    w->f = fopen(path, "wb");
    if (!w->f) {
        *err = g_strdup_printf("%s: %s", path, g_strerror(errno));
        g_byte_array_unref(b);
        g_free(w);
        return NULL;
    }
    enc_header(b, CAP_VERSION);
    enc_device(b, dev);
    flush(w, b);
    return w;
}

void cap_write_bo(CapWriter *w, const CapBo *bo)
{
    GByteArray *b = g_byte_array_new();

    enc_bo(b, bo);
    flush(w, b);
}

void cap_write_bo_data(CapWriter *w, uint32_t id, uint64_t offset,
                       const void *data, uint64_t len)
{
    GByteArray *b = g_byte_array_sized_new(len + 32);

    enc_bo_data(b, id, offset, data, len);
    flush(w, b);
}

void cap_write_bo_free(CapWriter *w, uint32_t id)
{
    GByteArray *b = g_byte_array_new();

    enc_u32_record(b, CAP_BO_FREE, id);
    flush(w, b);
}

void cap_write_cs(CapWriter *w, const CapCs *cs)
{
    GByteArray *b = g_byte_array_new();

    enc_cs(b, cs);
    flush(w, b);
    w->cs_count++;
    /* A crash of the traced program must not lose the streams so far. */
    fflush(w->f);
}

void cap_hash(const void *data, uint64_t len, uint8_t *out)
{
    GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
    gsize n = CAP_HASH_SIZE;

    while (len) {
        gssize part = MIN(len, (uint64_t)G_MAXSSIZE / 2);

        g_checksum_update(c, data, part);
        data = (const uint8_t *)data + part;
        len -= part;
    }
    g_checksum_get_digest(c, out, &n);
    g_checksum_free(c);
}

void cap_write_result(CapWriter *w, uint32_t n, const uint32_t *ids,
                      const uint8_t *hashes)
{
    GByteArray *b = g_byte_array_new(), *e = g_byte_array_new();

    for (uint32_t i = 0; i < n; i++) {
        put32(e, ids[i]);
        put32(e, 0);
        g_byte_array_append(e, hashes + (size_t)i * CAP_HASH_SIZE,
                            CAP_HASH_SIZE);
    }
    enc_result(b, n, e->data);
    g_byte_array_unref(e);
    flush(w, b);
    fflush(w->f);
}

bool cap_close(CapWriter *w)
{
    GByteArray *b = g_byte_array_new();
    bool ok;

    enc_u32_record(b, CAP_END, w->cs_count);
    flush(w, b);
    ok = !w->error && !ferror(w->f);
    ok = (fclose(w->f) == 0) && ok;
    g_free(w);
    return ok;
}

/* ---- reader ---- */

static bool fail(char **err, size_t at, const char *what)
{
    *err = g_strdup_printf("offset %zu: %s", at, what);
    return false;
}

typedef struct BoInfo {
    uint64_t size;
    bool live;
} BoInfo;

static bool parse_cs(CapFile *f, CapRecord *r, GHashTable *bos, size_t at,
                     char **err)
{
    const uint8_t *p = r->payload;
    CapCs *cs = &r->u.cs;
    uint32_t flags;
    uint64_t need;
    CapCsReloc *relocs;

    if (r->len < CAP_CS_HEAD) {
        return fail(err, at, "CS record too short");
    }
    cs->seq = get32(p);
    cs->cs_flags = get32(p + 4);
    cs->ring = get32(p + 8);
    cs->result = (int32_t)get32(p + 12);
    cs->exec = get32(p + 16);
    cs->owners = get32(p + 20);
    cs->nrelocs = get32(p + 24);
    cs->ndw = get32(p + 28);
    flags = get32(p + 32);
    if ((flags & ~(CAP_CS_HAVE_RELOCS | CAP_CS_CHECKED)) || get32(p + 36)) {
        return fail(err, at, "CS record has unknown flags");
    }
    if (cs->exec > 2 || cs->owners > 3 || cs->ndw > CAP_MAX_IB_DW ||
        cs->nrelocs > CAP_MAX_IB_DW) {
        return fail(err, at, "CS record field out of range");
    }
    cs->have_relocs = flags & CAP_CS_HAVE_RELOCS;
    need = CAP_CS_HEAD + (uint64_t)cs->nrelocs * CAP_RELOC_SIZE +
           (uint64_t)cs->ndw * 4 * ((flags & CAP_CS_CHECKED) ? 2 : 1);
    if (need != r->len) {
        return fail(err, at, "CS record length does not match its counts");
    }
    if ((flags & CAP_CS_CHECKED) && cs->result != 0) {
        return fail(err, at, "rejected CS carries a checked stream");
    }
    p += CAP_CS_HEAD;
    relocs = g_new0(CapCsReloc, cs->nrelocs ? cs->nrelocs : 1);
    g_ptr_array_add(f->owned, relocs);
    for (uint32_t i = 0; i < cs->nrelocs; i++, p += CAP_RELOC_SIZE) {
        relocs[i].handle = get32(p);
        relocs[i].bo = get32(p + 4);
        relocs[i].read_domains = get32(p + 8);
        relocs[i].write_domain = get32(p + 12);
        relocs[i].flags = get32(p + 16);
        /* bo 0: the handle named no buffer (the kernel said -ENOENT) */
        if (relocs[i].bo) {
            BoInfo *bi = g_hash_table_lookup(bos,
                                             GUINT_TO_POINTER(relocs[i].bo));
            if (!bi || !bi->live) {
                return fail(err, at, "CS relocation names an unknown buffer");
            }
        }
    }
    cs->relocs = relocs;
    /* The payload is 4-byte aligned in the file (header and records are). */
    cs->ib = (const uint32_t *)p;
    cs->checked = (flags & CAP_CS_CHECKED) ? (const uint32_t *)p + cs->ndw
                                           : NULL;
    return true;
}

static bool parse_record(CapFile *f, CapRecord *r, GHashTable *bos,
                         size_t at, bool *seen_end, char **err)
{
    const uint8_t *p = r->payload;
    BoInfo *bi;

    switch (r->type) {
    case CAP_DEVICE:
        return fail(err, at, "second DEVICE record");
    case CAP_BO:
        if (r->len != CAP_BO_SIZE) {
            return fail(err, at, "BO record has the wrong length");
        }
        r->u.bo.id = get32(p);
        r->u.bo.domain = get32(p + 4);
        r->u.bo.size = get64(p + 8);
        r->u.bo.gpu_addr = get64(p + 16);
        r->u.bo.tiling_flags = get32(p + 24);
        r->u.bo.pitch = get32(p + 28);
        if (!r->u.bo.id || !r->u.bo.size || (r->u.bo.size & 4095)) {
            return fail(err, at, "BO record with a bad id or size");
        }
        bi = g_hash_table_lookup(bos, GUINT_TO_POINTER(r->u.bo.id));
        if (!bi) {
            bi = g_new0(BoInfo, 1);
            g_hash_table_insert(bos, GUINT_TO_POINTER(r->u.bo.id), bi);
        }
        bi->size = r->u.bo.size;
        bi->live = true;
        return true;
    case CAP_BO_DATA:
        if (r->len < CAP_DATA_HEAD || get32(p + 4)) {
            return fail(err, at, "BO_DATA record malformed");
        }
        r->u.data.id = get32(p);
        r->u.data.offset = get64(p + 8);
        r->u.data.len = get64(p + 16);
        r->u.data.bytes = p + CAP_DATA_HEAD;
        bi = g_hash_table_lookup(bos, GUINT_TO_POINTER(r->u.data.id));
        if (r->u.data.len != r->len - CAP_DATA_HEAD) {
            return fail(err, at, "BO_DATA length does not match the record");
        }
        if (!bi || !bi->live ||
            !r500_span_in(r->u.data.offset, r->u.data.len, bi->size)) {
            return fail(err, at, "BO_DATA outside its buffer");
        }
        return true;
    case CAP_BO_FREE:
        if (r->len != 4) {
            return fail(err, at, "BO_FREE record has the wrong length");
        }
        r->u.free_id = get32(p);
        bi = g_hash_table_lookup(bos, GUINT_TO_POINTER(r->u.free_id));
        if (!bi || !bi->live) {
            return fail(err, at, "BO_FREE of an unknown buffer");
        }
        bi->live = false;
        return true;
    case CAP_CS:
        return parse_cs(f, r, bos, at, err);
    case CAP_RESULT: {
        const CapRecord *prev = f->records->len ?
            &g_array_index(f->records, CapRecord, f->records->len - 1) : NULL;

        if (f->version < 2) {
            return fail(err, at, "RESULT record in a version 1 capture");
        }
        if (!prev || prev->type != CAP_CS || prev->u.cs.result ||
            prev->u.cs.exec) {
            return fail(err, at, "RESULT does not follow an executed CS");
        }
        if (r->len < CAP_RESULT_HEAD || get32(p + 4) ||
            r->len != CAP_RESULT_HEAD +
                      (uint64_t)get32(p) * CAP_RESULT_ENTRY) {
            return fail(err, at, "RESULT record malformed");
        }
        r->u.result.n = get32(p);
        r->u.result.entries = p + CAP_RESULT_HEAD;
        for (uint32_t i = 0; i < r->u.result.n; i++) {
            const uint8_t *e = r->u.result.entries + i * CAP_RESULT_ENTRY;

            bi = g_hash_table_lookup(bos, GUINT_TO_POINTER(get32(e)));
            if (!bi || !bi->live || get32(e + 4)) {
                return fail(err, at, "RESULT names an unknown buffer");
            }
        }
        return true;
    }
    case CAP_END:
        if (r->len != 4) {
            return fail(err, at, "END record has the wrong length");
        }
        r->u.end_count = get32(p);
        *seen_end = true;
        return true;
    default:
        return fail(err, at, "unknown record type");
    }
}

CapFile *cap_parse(uint8_t *data, size_t size, char **err)
{
    CapFile *f = g_new0(CapFile, 1);
    GHashTable *bos = g_hash_table_new_full(NULL, NULL, NULL, g_free);
    bool seen_end = false;
    uint32_t cs_count = 0;
    size_t at;

    f->data = data;
    f->size = size;
    f->records = g_array_new(FALSE, TRUE, sizeof(CapRecord));
    f->owned = g_ptr_array_new_with_free_func(g_free);
    if (size < CAP_HEADER_SIZE || memcmp(data, CAP_MAGIC, 8)) {
        fail(err, 0, "not an r500 capture (bad magic)");
        goto bad;
    }
    f->version = get32(data + 8);
    if (f->version < 1 || f->version > CAP_VERSION || get32(data + 12)) {
        fail(err, 8, "unsupported capture version or flags");
        goto bad;
    }
    at = CAP_HEADER_SIZE;
    while (at < size) {
        CapRecord r = { 0 };
        size_t padded;

        if (seen_end) {
            fail(err, at, "data after the END record");
            goto bad;
        }
        if (size - at < 8) {
            fail(err, at, "truncated record header");
            goto bad;
        }
        r.type = get32(data + at);
        r.len = get32(data + at + 4);
        padded = ((size_t)r.len + 3) & ~(size_t)3;
        if (padded > size - at - 8) {
            fail(err, at, "record runs past the end of the file");
            goto bad;
        }
        r.payload = data + at + 8;
        for (size_t i = r.len; i < padded; i++) {
            if (r.payload[i]) {
                fail(err, at, "non-zero record padding");
                goto bad;
            }
        }
        if (f->records->len == 0) {
            const uint8_t *p = r.payload;

            if (r.type != CAP_DEVICE || r.len != CAP_DEVICE_SIZE) {
                fail(err, at, "the first record is not DEVICE");
                goto bad;
            }
            f->dev.pci_id = get32(p);
            f->dev.model = get32(p + 4);
            f->dev.vram_size = get64(p + 8);
            f->dev.vram_start = get64(p + 16);
            f->dev.gtt_start = get64(p + 24);
            f->dev.gtt_size = get64(p + 32);
            if (f->dev.model >= R500_MODEL__COUNT) {
                fail(err, at, "DEVICE names an unknown model");
                goto bad;
            }
        } else if (!parse_record(f, &r, bos, at, &seen_end, err)) {
            goto bad;
        }
        if (r.type == CAP_CS) {
            cs_count++;
        }
        g_array_append_val(f->records, r);
        at += 8 + padded;
    }
    if (!seen_end) {
        fail(err, size, "no END record (the capturing run did not finish)");
        goto bad;
    }
    if (g_array_index(f->records, CapRecord, f->records->len - 1).u.end_count
        != cs_count) {
        fail(err, size, "END count does not match the CS records");
        goto bad;
    }
    g_hash_table_unref(bos);
    return f;

bad:
    g_hash_table_unref(bos);
    f->data = NULL;         /* the caller still owns it */
    cap_free(f);
    return NULL;
}

CapFile *cap_load(const char *path, char **err)
{
    gchar *data;
    gsize size;
    GError *gerr = NULL;
    CapFile *f;

    if (!g_file_get_contents(path, &data, &size, &gerr)) {
        *err = g_strdup(gerr->message);
        g_error_free(gerr);
        return NULL;
    }
    f = cap_parse((uint8_t *)data, size, err);
    if (!f) {
        g_free(data);
    }
    return f;
}

void cap_free(CapFile *f)
{
    if (!f) {
        return;
    }
    g_free(f->data);
    g_array_unref(f->records);
    g_ptr_array_unref(f->owned);
    g_free(f);
}

GByteArray *cap_serialise(const CapFile *f)
{
    GByteArray *b = g_byte_array_sized_new(f->size);

    enc_header(b, f->version);
    for (guint i = 0; i < f->records->len; i++) {
        const CapRecord *r = &g_array_index(f->records, CapRecord, i);

        switch (r->type) {
        case CAP_DEVICE:
            enc_device(b, &f->dev);
            break;
        case CAP_BO:
            enc_bo(b, &r->u.bo);
            break;
        case CAP_BO_DATA:
            enc_bo_data(b, r->u.data.id, r->u.data.offset, r->u.data.bytes,
                        r->u.data.len);
            break;
        case CAP_BO_FREE:
            enc_u32_record(b, CAP_BO_FREE, r->u.free_id);
            break;
        case CAP_CS:
            enc_cs(b, &r->u.cs);
            break;
        case CAP_END:
            enc_u32_record(b, CAP_END, r->u.end_count);
            break;
        case CAP_RESULT:
            enc_result(b, r->u.result.n, r->u.result.entries);
            break;
        }
    }
    return b;
}
