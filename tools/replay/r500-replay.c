/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-replay: read a capture written by the DRM shim (R500_CAPTURE=file),
 * validate it, run every command stream through the checker again and
 * compare with what the shim recorded, and decode the streams.
 *
 *   r500-replay [--decode] [--stats] [--rewrite OUT] [--roundtrip]
 *               [--execute] [--verbose] FILE
 *
 * Exit status: 0 when the file is valid, every stream checks the same way
 * again and, with --execute, every stream run on a fresh chip core leaves
 * its buffers bit-identical to the recording (execute.c); 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cs.h"
#include "replay.h"

#define DOMAIN_CPU 0x1

typedef struct Replay {
    CapFile *f;
    GHashTable *bos;            /* id -> const CapBo * (the latest record) */
    bool decode;
    CsStats *stats;
    unsigned cs, accepted, rejected, mismatches;
} Replay;

static const char *exec_name(uint32_t e)
{
    static const char *const n[] = { "executed", "not executed (no CP)",
                                     "CP stalled" };
    return e < 3 ? n[e] : "?";
}

/* The relocation stage of radeon_cs_parser_relocs, then the checker. */
static int recheck(Replay *rp, const CapCs *cs, uint32_t *ib, GString *log)
{
    CsReloc *relocs = g_new0(CsReloc, cs->nrelocs ? cs->nrelocs : 1);
    CsConfig cfg = {
        .model = rp->f->dev.model, .cs_flags = cs->cs_flags,
        .hyperz_owner = cs->owners & 1, .cmask_owner = cs->owners & 2,
    };
    int r = 0;

    for (uint32_t i = 0; i < cs->nrelocs && !r; i++) {
        const CapCsReloc *c = &cs->relocs[i];
        uint32_t domain = c->write_domain ? c->write_domain : c->read_domains;
        const CapBo *bo;

        if (!c->bo) {
            g_string_append_printf(log, "gem object lookup failed 0x%x\n",
                                   c->handle);
            r = -ENOENT;
            break;
        }
        bo = g_hash_table_lookup(rp->bos, GUINT_TO_POINTER(c->bo));
        if (domain & DOMAIN_CPU) {
            g_string_append(log, "RADEON_GEM_DOMAIN_CPU is not valid for "
                            "command submission\n");
            r = -EINVAL;
            break;
        }
        relocs[i] = (CsReloc){
            .handle = c->handle, .read_domains = c->read_domains,
            .write_domain = c->write_domain, .flags = c->flags,
            .gpu_offset = bo->gpu_addr, .size = bo->size,
            .tiling_flags = bo->tiling_flags, .bo = bo->id,
        };
    }
    if (!r) {
        r = cs_check(&cfg, ib, cs->ndw, relocs, cs->nrelocs * 4,
                     cs->have_relocs, log);
    }
    g_free(relocs);
    return r;
}

static void replay_cs(Replay *rp, const CapCs *cs)
{
    uint32_t *ib = g_memdup2(cs->ib, cs->ndw * 4);
    GString *log = g_string_new(NULL);
    int r = recheck(rp, cs, ib, log);
    bool same = r == cs->result &&
                (!cs->checked || !memcmp(ib, cs->checked, cs->ndw * 4));

    rp->cs++;
    if (cs->result) {
        rp->rejected++;
    } else {
        rp->accepted++;
        if (rp->stats) {
            cs_stats_add(rp->stats, cs->checked, cs->ndw);
        }
    }
    if (!same) {
        rp->mismatches++;
        printf("CS %u: MISMATCH: recorded result %d, checker now %d%s\n",
               rp->cs, cs->result, r,
               cs->checked && r == cs->result ? " (patched IB differs)" : "");
    }
    if (rp->decode) {
        printf("=== CS %u: seq %u, %u dwords, %u relocs, flags 0x%x, ring %u: ",
               rp->cs, cs->seq, cs->ndw, cs->nrelocs, cs->cs_flags, cs->ring);
        if (cs->result) {
            printf("rejected (%d)\n%s", cs->result, log->str);
        } else {
            printf("accepted, %s\n", exec_name(cs->exec));
        }
        for (uint32_t i = 0; i < cs->nrelocs; i++) {
            const CapCsReloc *c = &cs->relocs[i];
            const CapBo *bo = c->bo ? g_hash_table_lookup(rp->bos,
                                          GUINT_TO_POINTER(c->bo)) : NULL;
            printf("  reloc %u: handle %u bo %u read 0x%x write 0x%x", i,
                   c->handle, c->bo, c->read_domains, c->write_domain);
            if (bo) {
                printf(" -> %s 0x%08" G_GINT64_MODIFIER "x size %" G_GUINT64_FORMAT
                       " tiling 0x%x", bo->domain == 4 ? "VRAM" : "GTT",
                       bo->gpu_addr, bo->size, bo->tiling_flags);
            }
            printf("\n");
        }
        {
            GString *d = g_string_new(NULL);
            cs_decode(cs->checked ? cs->checked : cs->ib, cs->ndw, d);
            fputs(d->str, stdout);
            g_string_free(d, TRUE);
        }
    }
    g_string_free(log, TRUE);
    g_free(ib);
}

static int usage(void)
{
    fprintf(stderr, "usage: r500-replay [--decode] [--stats] [--rewrite OUT] "
            "[--roundtrip] [--execute] [--verbose] FILE\n");
    return 2;
}

int main(int argc, char **argv)
{
    Replay rp = { 0 };
    const char *path = NULL, *rewrite = NULL;
    bool roundtrip = false, execute = false, verbose = false, ok = true;
    char *err = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--decode")) {
            rp.decode = true;
        } else if (!strcmp(argv[i], "--stats")) {
            rp.stats = g_new0(CsStats, 1);
        } else if (!strcmp(argv[i], "--roundtrip")) {
            roundtrip = true;
        } else if (!strcmp(argv[i], "--execute")) {
            execute = true;
        } else if (!strcmp(argv[i], "--verbose")) {
            verbose = true;
        } else if (!strcmp(argv[i], "--rewrite") && i + 1 < argc) {
            rewrite = argv[++i];
        } else if (argv[i][0] == '-' || path) {
            return usage();
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        return usage();
    }
    rp.f = cap_load(path, &err);
    if (!rp.f) {
        fprintf(stderr, "r500-replay: %s: %s\n", path, err);
        return 1;
    }
    rp.bos = g_hash_table_new(NULL, NULL);
    printf("capture v%u: %s (PCI 1002:%04x), %" G_GUINT64_FORMAT " MiB VRAM at "
           "0x%08" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT " MiB GTT at 0x%08"
           G_GINT64_MODIFIER "x, %u records\n", rp.f->version,
           r500_model_info(rp.f->dev.model)->name, rp.f->dev.pci_id,
           rp.f->dev.vram_size >> 20, rp.f->dev.vram_start,
           rp.f->dev.gtt_size >> 20, rp.f->dev.gtt_start, rp.f->records->len);
    for (guint i = 0; i < rp.f->records->len; i++) {
        const CapRecord *r = &g_array_index(rp.f->records, CapRecord, i);

        switch (r->type) {
        case CAP_BO:
            g_hash_table_insert(rp.bos, GUINT_TO_POINTER(r->u.bo.id),
                                (gpointer)&r->u.bo);
            break;
        case CAP_BO_FREE:
            g_hash_table_remove(rp.bos, GUINT_TO_POINTER(r->u.free_id));
            break;
        case CAP_CS:
            replay_cs(&rp, &r->u.cs);
            break;
        default:
            break;
        }
    }
    printf("%u command streams: %u accepted, %u rejected; %u differ from the "
           "recording\n", rp.cs, rp.accepted, rp.rejected, rp.mismatches);
    ok = rp.mismatches == 0;
    if (rp.stats) {
        GString *s = g_string_new(NULL);
        cs_stats_format(rp.stats, s);
        fputs(s->str, stdout);
        g_string_free(s, TRUE);
    }
    if (execute) {
        ok = replay_execute(rp.f, verbose) && ok;
    }
    if (roundtrip || rewrite) {
        GByteArray *b = cap_serialise(rp.f);

        if (roundtrip) {
            bool same = b->len == rp.f->size && !memcmp(b->data, rp.f->data,
                                                         b->len);
            printf("round trip: %s (%u bytes)\n", same ? "identical" : "DIFFERS",
                   b->len);
            ok = ok && same;
        }
        if (rewrite) {
            GError *gerr = NULL;
            if (!g_file_set_contents(rewrite, (const char *)b->data, b->len,
                                     &gerr)) {
                fprintf(stderr, "r500-replay: %s\n", gerr->message);
                g_error_free(gerr);
                ok = false;
            }
        }
        g_byte_array_unref(b);
    }
    g_hash_table_unref(rp.bos);
    g_free(rp.stats);
    cap_free(rp.f);
    return ok ? 0 : 1;
}
