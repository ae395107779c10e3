/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared helpers of the r500 qtests: start a q35 machine with the card,
 * find it, map its BARs, and reach registers the way the Linux driver
 * does (direct MMIO, MM_INDEX/MM_DATA, PLL, MC and PCIE index/data).
 */
#ifndef R500_QTEST_H
#define R500_QTEST_H

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "libqtest.h"
#include "libqos/pci.h"
#include "libqos/pci-pc.h"

/* Register offsets and fields come from the device's own table. */
#include "hw/r500/regs/regs.h"

typedef struct R500Test {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar vram, io, mmio;
    uint64_t vram_bar_size, io_bar_size, mmio_bar_size;
    const char *model;
} R500Test;

/* The four models with their expected PCI device IDs. */
typedef struct R500TestModel {
    const char *name;
    uint16_t device_id;
    bool msi;
    bool mc_r520_map;
    unsigned quad_pipes;
} R500TestModel;
extern const R500TestModel r500_test_models[4];

/*
 * Start QEMU (q35) with -device r500,model=<model> plus extra arguments
 * (may be NULL), find the card and enable it.  map_bars: map BAR0-2.
 */
void r500_test_start(R500Test *t, const char *model, const char *extra,
                     bool map_bars);
void r500_test_stop(R500Test *t);

uint32_t r500_rreg(R500Test *t, uint32_t reg);
void r500_wreg(R500Test *t, uint32_t reg, uint32_t val);
uint32_t r500_rreg_pll(R500Test *t, uint32_t idx);
void r500_wreg_pll(R500Test *t, uint32_t idx, uint32_t val);
uint32_t r500_rreg_mc(R500Test *t, uint32_t idx);
void r500_wreg_mc(R500Test *t, uint32_t idx, uint32_t val);
uint32_t r500_rreg_pcie(R500Test *t, uint32_t idx);
void r500_wreg_pcie(R500Test *t, uint32_t idx, uint32_t val);

/*
 * The card's QOM properties through QMP qom-get: a string property (a
 * new string, g_free it; NULL if it is not one), and one counter of
 * "stats" (asserted present).
 */
char *r500_qom_str(R500Test *t, const char *prop);
uint64_t r500_qom_stat(R500Test *t, const char *name);
/*
 * Whether the card has that counter (each renderer built in has its own:
 * a QEMU without OpenGL has no render-gl-*).
 */
bool r500_qom_has_stat(R500Test *t, const char *name);

/* Size mask of a 32-bit BAR (or the ROM BAR) by the all-ones probe. */
uint32_t r500_bar_probe(R500Test *t, uint8_t cfg_offset);

/*
 * A screendump of the card's console head (QMP screendump, PPM), as
 * 0xRRGGBB pixels.  The card's QOM id is R500_TEST_ID.
 */
#define R500_TEST_ID "r500gpu"
typedef struct R500Image {
    uint32_t width, height;
    uint32_t *rgb;
} R500Image;
void r500_screendump(R500Test *t, int head, R500Image *img);
void r500_image_free(R500Image *img);
static inline uint32_t r500_image_pixel(const R500Image *img, uint32_t x,
                                        uint32_t y)
{
    g_assert(x < img->width && y < img->height);
    return img->rgb[(size_t)y * img->width + x];
}
/* Parse a binary PPM (P6, maxval 255); false if it is not one. */
bool r500_ppm_parse(const uint8_t *data, size_t len, R500Image *img);

/* Register a test once per model: path "/r500/<model>/<name>". */
void r500_add_model_tests(const char *name,
                          void (*fn)(const R500TestModel *m));

#endif
