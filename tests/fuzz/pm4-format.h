/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The input layout of the fuzz-pm4 target (fuzz-pm4.c), shared with the
 * seed generator (seeds.c): header flags and where things live.  The
 * packets themselves are built with the core's cp/pm4.h.
 */
#ifndef R500_FUZZ_PM4_FORMAT_H
#define R500_FUZZ_PM4_FORMAT_H

#include "fuzz-host.h"
#include "cp/pm4.h"

/* Header byte 0. */
#define PM4_RING_VRAM       (1u << 2)
#define PM4_TABLE_RAM       (1u << 3)
#define PM4_IRQS            (1u << 4)
#define PM4_RERUN           (1u << 5)

/* MC layout: ring (up to 32 pages), write-back page, IB area. */
#define PM4_RING_GTT        FUZZ_GTT_MC
#define PM4_RING_VRAM_MC    0x00400000u
#define PM4_WB_GTT          (FUZZ_GTT_MC + 40 * 4096)
#define PM4_IB_GTT          (FUZZ_GTT_MC + 64 * 4096)
#define PM4_IB_VRAM         0x00100000u
#define PM4_IB_DWORDS       (192u * 1024)   /* the GTT pages after 64 */

/* Surfaces the 2D seeds use: VRAM at 2 MiB, 4096-byte pitch. */
#define PM4_SURF_VRAM       0x00200000u
#define PM4_SURF_PITCH      4096u


#endif
