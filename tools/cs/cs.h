/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command streams as the radeon kernel driver sees them, for the host
 * tools (the DRM shim and r500-replay):
 *
 *   checker.c  the R300/R500 CS checker: packet walk, relocations, safe
 *              register bitmap, r300_packet0_check / r300_packet3_check
 *              and the r100_cs_track bounds checks, with the kernel's
 *              rejection messages (Linux radeon_cs.c, r100.c, r300.c)
 *   decode.c   a readable decode of PM4 streams and per-register counts
 *   capture.c  the capture file format (docs/mesa-harness.md)
 */
#ifndef R500_TOOLS_CS_H
#define R500_TOOLS_CS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "r500.h"

/*
 * PM4 headers and type-3 opcodes: the core's hw/r500/cp/pm4.h (through
 * r500.h), whose R500_PM4_F_CS flag says what r300_packet3_check accepts.
 */

/* ---- The checker ---- */

/*
 * One entry of the RELOCS chunk (struct drm_radeon_cs_reloc) with what the
 * kernel knows of its buffer after lookup.
 */
typedef struct CsReloc {
    uint32_t handle;
    uint32_t read_domains;
    uint32_t write_domain;
    uint32_t flags;
    uint64_t gpu_offset;     /* MC address of the buffer */
    uint64_t size;           /* radeon_bo_size() */
    uint32_t tiling_flags;   /* RADEON_TILING_* of the buffer */
    uint32_t bo;             /* buffer identity (bounds checks, capture) */
} CsReloc;

typedef struct CsConfig {
    R500Model model;
    uint32_t cs_flags;       /* RADEON_CS_KEEP_TILING_FLAGS, ... */
    bool hyperz_owner;       /* this file owns Hyper-Z (RADEON_INFO_WANT_HYPERZ) */
    bool cmask_owner;        /* this file owns CMASK (RADEON_INFO_WANT_CMASK) */
} CsConfig;

/*
 * Check the IB (ndw dwords) and patch its relocations in place, as
 * r300_cs_parse does.  relocs holds reloc_dw / 4 entries; have_relocs is
 * false when the CS had no RELOCS chunk.  Returns 0 or a negative errno;
 * the kernel's messages for a rejection are appended to log, one a line.
 */
int cs_check(const CsConfig *cfg, uint32_t *ib, uint32_t ndw,
             const CsReloc *relocs, uint32_t reloc_dw, bool have_relocs,
             GString *log);

/* Whether r300_cs_parse would hand reg to r300_packet0_check. */
bool cs_reg_checked(uint32_t reg);

/* ---- Decode and statistics ---- */

/* Append a readable decode of a PM4 stream, one line per packet/write. */
void cs_decode(const uint32_t *ib, uint32_t ndw, GString *out);

/* Register writes and packets seen, summed over streams. */
typedef struct CsStats {
    uint64_t streams;
    uint64_t dwords;
    uint64_t reg_writes[R500_NUM_REGS];
    uint64_t pkt3[256];
    uint64_t pkt2;
} CsStats;

void cs_stats_add(CsStats *st, const uint32_t *ib, uint32_t ndw);
/* Text form: "reg <name> <offset> <count>" / "pkt3 <name> <op> <count>". */
void cs_stats_format(const CsStats *st, GString *out);

/* ---- Capture files ---- */

#define CAP_MAGIC       "R500CAP"   /* 8 bytes with the NUL */
#define CAP_VERSION     2           /* written; 1 is still read */
#define CAP_HASH_SIZE   32          /* SHA-256 */

typedef enum CapType {
    CAP_DEVICE = 1,
    CAP_BO = 2,
    CAP_BO_DATA = 3,
    CAP_BO_FREE = 4,
    CAP_CS = 5,
    CAP_END = 6,
    CAP_RESULT = 7,             /* version 2 */
} CapType;

typedef struct CapDevice {
    uint32_t pci_id;
    uint32_t model;             /* R500Model */
    uint64_t vram_size;
    uint64_t vram_start;        /* MC address */
    uint64_t gtt_start;         /* MC address of the GART aperture */
    uint64_t gtt_size;
} CapDevice;

typedef struct CapBo {
    uint32_t id;
    uint32_t domain;            /* RADEON_GEM_DOMAIN_VRAM / _GTT */
    uint64_t size;
    uint64_t gpu_addr;
    uint32_t tiling_flags;
    uint32_t pitch;
} CapBo;

typedef struct CapCsReloc {
    uint32_t handle, bo, read_domains, write_domain, flags;
} CapCsReloc;

typedef struct CapCs {
    uint32_t seq;
    uint32_t cs_flags;
    uint32_t ring;
    int32_t result;             /* 0 or -errno, as the ioctl returned */
    uint32_t exec;              /* ShimExec: 0 executed, 1 no CP, 2 stalled */
    uint32_t owners;            /* bit 0 Hyper-Z owner, bit 1 CMASK owner */
    uint32_t nrelocs;           /* entries; the chunk had nrelocs * 4 dwords */
    uint32_t ndw;
    bool have_relocs;
    const CapCsReloc *relocs;
    const uint32_t *ib;         /* as submitted */
    const uint32_t *checked;    /* after the checker, NULL when rejected */
} CapCs;

typedef struct CapWriter CapWriter;

CapWriter *cap_create(const char *path, const CapDevice *dev, char **err);
void cap_write_bo(CapWriter *w, const CapBo *bo);
void cap_write_bo_data(CapWriter *w, uint32_t id, uint64_t offset,
                       const void *data, uint64_t len);
void cap_write_bo_free(CapWriter *w, uint32_t id);
void cap_write_cs(CapWriter *w, const CapCs *cs);
/*
 * After an executed CS: the SHA-256 of each buffer it referenced, as the
 * stream left them (n entries: ids[i], hashes + 32 i).
 */
void cap_write_result(CapWriter *w, uint32_t n, const uint32_t *ids,
                      const uint8_t *hashes);
/* SHA-256 of len bytes into out[CAP_HASH_SIZE]. */
void cap_hash(const void *data, uint64_t len, uint8_t *out);
/* Writes the END record and closes; returns false on an I/O error. */
bool cap_close(CapWriter *w);

/* A parsed capture: the records in file order, pointing into data. */
typedef struct CapRecord {
    uint32_t type;
    uint32_t len;               /* payload bytes */
    const uint8_t *payload;
    union {
        CapBo bo;
        struct {
            uint32_t id;
            uint64_t offset, len;
            const uint8_t *bytes;
        } data;
        uint32_t free_id;
        CapCs cs;
        uint32_t end_count;
        struct {
            uint32_t n;
            const uint8_t *entries;     /* n x (u32 id, u32 0, hash) */
        } result;
    } u;
} CapRecord;

typedef struct CapFile {
    uint8_t *data;
    size_t size;
    uint32_t version;
    CapDevice dev;
    GArray *records;            /* CapRecord */
    GPtrArray *owned;           /* relocation arrays the parser built */
} CapFile;

/* Parse and validate every record; NULL with a message on any defect. */
CapFile *cap_load(const char *path, char **err);
CapFile *cap_parse(uint8_t *data, size_t size, char **err);
void cap_free(CapFile *f);
/* Serialise the parsed records again (for the round-trip check). */
GByteArray *cap_serialise(const CapFile *f);

#endif
