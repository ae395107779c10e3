/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r500-hostile: a hostile guest program (docs/reliability.md, "A hostile
 * guest").  Run as root in the test guest while X and a GL client draw
 * on the card, it maps the card's register BAR and VRAM aperture through
 * sysfs (resource2, resource0) and, from a seed, for a bounded time,
 * writes garbage where a buggy or malicious driver could: any register,
 * the 3D state, the indirect MC/PLL/PCIE spaces, VRAM, and rings of
 * garbage packets in VRAM that the CP is pointed at and started on.  The
 * host QEMU must survive it with its monitor answering and its memory
 * bounded (tests/guest/run.py judges that); the guest may not.
 *
 *   r500-hostile PCI-DEVICE SEED SECONDS
 *
 * Prints "HOSTILE seed=S ops=N reg=N state=N ind=N vram=N ring=N
 * read=N" when the time is up.  Built static on the host (meson), so it
 * needs nothing of the guest's libraries.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Registers (r500_regs.def; Linux radeon_reg.h, rv515d.h). */
#define MM_INDEX        0x0000
#define MM_DATA         0x0004
#define PCIE_INDEX      0x0030
#define PCIE_DATA       0x0034
#define MC_IND_INDEX    0x0070
#define MC_IND_DATA     0x0074
#define CLOCK_INDEX     0x0008
#define CLOCK_DATA      0x000C
#define CP_RB_BASE      0x0700
#define CP_RB_CNTL      0x0704
#define CP_RB_RPTR_WR   0x071C
#define CP_RB_WPTR      0x0714
#define CP_CSQ_CNTL     0x0740
#define RBBM_SOFT_RESET 0x00F0

typedef struct Map {
    /* device memory: every access must reach the card, in order */
    volatile uint32_t *p;
    size_t size;
} Map;

static uint64_t rng;

/* xorshift64*: the same sequence for the same seed on every machine. */
static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

static uint32_t below(uint32_t n)
{
    return n ? (uint32_t)(next() % n) : 0;
}

/* A value drivers and fuzzers find bugs with: edges, masks, garbage. */
static uint32_t value(void)
{
    static const uint32_t edge[] = {
        0, 1, 2, 0xFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
        0x1000, 0x00FFFFFF, 0x10000000, 0xFFFFFFF0,
    };

    switch (below(4)) {
    case 0:
        return edge[below(sizeof(edge) / sizeof(edge[0]))];
    case 1:
        return 1u << below(32);
    case 2:
        return below(0x10000);
    default:
        return (uint32_t)next();
    }
}

static int map(const char *dev, int bar, Map *m)
{
    char path[256];
    struct stat st;
    int fd;

    snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource%d",
             dev, bar);
    fd = open(path, O_RDWR | O_SYNC);
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, "r500-hostile: %s: %s\n", path, strerror(errno));
        return -1;
    }
    m->size = st.st_size;
    m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m->p == MAP_FAILED) {
        fprintf(stderr, "r500-hostile: mmap %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void wreg(Map *r, uint32_t off, uint32_t v)
{
    r->p[(off % r->size) / 4] = v;
}

/*
 * A PM4 stream of garbage at VRAM offset off: packet headers of each
 * type with random registers, opcodes and counts (often past the end),
 * and payload; then the CP pointed at it and started (CP_RB_BASE is an
 * MC address: radeon places VRAM at MC 0).
 */
static void ring(Map *r, Map *v)
{
    uint32_t bufsz = below(12);
    uint32_t dwords = 2u << bufsz;
    uint32_t off = (below(v->size / 4096) * 4096) % v->size;

    if (off + dwords * 4 > v->size) {
        off = v->size - dwords * 4;
    }
    for (uint32_t i = 0; i < dwords; i++) {
        uint32_t d;

        switch (below(4)) {
        case 0:     /* type 0: a register run */
            d = below(0x4000) | below(64) << 16;
            break;
        case 1:     /* type 3: an opcode */
            d = 3u << 30 | below(0x100) << 8 | below(64) << 16;
            break;
        case 2:     /* type 2 filler, type 1 pair */
            d = below(2) ? 2u << 30 : 1u << 30 | below(0x800) << 11 |
                below(0x800);
            break;
        default:
            d = value();
        }
        v->p[off / 4 + i] = d;
    }
    /* rs600_asic_reset's way to move the read pointer: RB_RPTR_WR_ENA */
    wreg(r, CP_CSQ_CNTL, 0);
    wreg(r, CP_RB_CNTL, bufsz | 1u << 31);
    wreg(r, CP_RB_RPTR_WR, 0);
    wreg(r, CP_RB_CNTL, bufsz);
    wreg(r, CP_RB_BASE, off);
    wreg(r, CP_CSQ_CNTL, below(2) ? 4u << 28 : value());
    wreg(r, CP_RB_WPTR, below(dwords + 1));
}

int main(int argc, char **argv)
{
    unsigned long long n[6] = { 0 }, ops = 0;
    /* keeps the reads (they may have side effects on the card) */
    volatile uint32_t sink = 0;
    struct timespec t0, t;
    Map r, v;
    long secs;

    if (argc != 4) {
        fprintf(stderr, "usage: r500-hostile PCI-DEVICE SEED SECONDS\n");
        return 2;
    }
    rng = strtoull(argv[2], NULL, 0) * 0x9E3779B97F4A7C15ull | 1;
    secs = strtol(argv[3], NULL, 0);
    if (map(argv[1], 2, &r) || map(argv[1], 0, &v)) {
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if ((ops & 1023) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - t0.tv_sec >= secs) {
                break;
            }
        }
        ops++;
        switch (below(100)) {
        case 0 ... 29:      /* any register */
            wreg(&r, below(r.size / 4) * 4, value());
            n[0]++;
            break;
        case 30 ... 54:     /* the 3D state: VAP, GA, SU, RS, US, TX, RB */
            wreg(&r, 0x2000 + below(0x3000 / 4) * 4, value());
            n[1]++;
            break;
        case 55 ... 64: {   /* the indirect spaces */
            static const uint32_t idx[4][2] = {
                { MM_INDEX, MM_DATA }, { PCIE_INDEX, PCIE_DATA },
                { MC_IND_INDEX, MC_IND_DATA }, { CLOCK_INDEX, CLOCK_DATA },
            };
            uint32_t k = below(4);

            wreg(&r, idx[k][0], value());
            wreg(&r, idx[k][1], value());
            n[2]++;
            break;
        }
        case 65 ... 84: {   /* VRAM: a burst of garbage */
            uint32_t at = below(v.size / 4), len = 1 + below(256);

            for (uint32_t i = 0; i < len && at + i < v.size / 4; i++) {
                v.p[at + i] = value();
            }
            n[3]++;
            break;
        }
        case 85 ... 89:     /* a ring of garbage packets, started */
            ring(&r, &v);
            n[4]++;
            break;
        case 90 ... 91:     /* now and then a soft reset of some blocks */
            wreg(&r, RBBM_SOFT_RESET, value());
            wreg(&r, RBBM_SOFT_RESET, 0);
            n[0]++;
            break;
        default:            /* reads (status, FIFO, index/data) */
            sink += r.p[below(r.size / 4)];
            n[5]++;
        }
    }
    printf("HOSTILE seed=%s ops=%llu reg=%llu state=%llu ind=%llu "
           "vram=%llu ring=%llu read=%llu\n", argv[2], ops, n[0], n[1],
           n[2], n[3], n[4], n[5]);
    return 0;
}
