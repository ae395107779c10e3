/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the display controller: services its files offer each other. */
#ifndef HW_R500_DISP_DISP_INT_H
#define HW_R500_DISP_DISP_INT_H

#include "../blocks.h"
#include "disp.h"

/* Register of CRTC c: D1 offset + 0x800 for D2. */
#define CRTC_REG(c, d1reg)  ((d1reg) + (c) * R500_CRTC2_OFFSET)
#define REG(s, r)           ((s)->regs[(r) / 4])
#define CREG(s, c, d1reg)   REG(s, CRTC_REG(c, d1reg))

static inline int64_t disp_now(R500Chip *s)
{
    return s->ops->clock_ns ? s->ops->clock_ns(s->host) : 0;
}

/* 10-bit colour registers (BLACK_COLOR...): B | G << 10 | R << 20. */
static inline uint32_t disp_rgb30_to_x8r8g8b8(uint32_t v)
{
    return ((v >> 22) & 0xFF) << 16 | ((v >> 12) & 0xFF) << 8 |
           ((v >> 2) & 0xFF);
}

/*
 * Reports about a CRTC's scanout, each logged once per distinct value:
 * the display is scanned out every frame, and a guest that changes the
 * setting again deserves a line again (the value, plus one, is kept).
 */
enum { DISP_LOG_SIZE, DISP_LOG_SCALER, DISP_LOG_FORMAT, DISP_LOG_TILING,
       DISP_LOG_CROSSBAR, DISP_LOG_ADDRESS, DISP_LOG_CURSOR, DISP_LOG__COUNT };
static inline void disp_log_once(R500Chip *s, unsigned c, unsigned what_id,
                                 uint32_t v, R500LogKind kind,
                                 const char *what)
{
    uint32_t *logged = &s->disp.logged[c][what_id];

    G_STATIC_ASSERT(DISP_LOG__COUNT <= G_N_ELEMENTS(s->disp.logged[0]));
    if (*logged != v + 1) {
        *logged = v + 1;
        r500_log(s, kind, "D%u: %s (0x%08x)", c + 1, what, v);
    }
}

/* crtc.c */
bool crtc_running(R500Chip *s, unsigned c);
const R500CrtcTiming *crtc_timing(R500Chip *s, unsigned c);
uint64_t crtc_vblank_count(R500Chip *s, unsigned c, int64_t now);
void crtc_retime(R500Chip *s);
void crtc_sync_flip(R500Chip *s, unsigned c, int64_t now);
bool crtc_vga_mode(R500Chip *s, unsigned c);
/* Pure timing arithmetic, exposed for the unit tests. */
void crtc_compute_timing(const uint32_t *regs, unsigned c,
                         R500CrtcTiming *t);

/* lut.c */
const R500Lut8 *lut_get8(R500Chip *s, unsigned lut);

/* cursor.c */
void cursor_compose(R500Chip *s, const R500Scanout *so, pixman_image_t *dst,
                    uint32_t y0, uint32_t y1);

/* output.c */
bool output_crtc_live(R500Chip *s, unsigned c);

#endif
