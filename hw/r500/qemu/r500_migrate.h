/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The board's side of hw/r500/migrate.h: each X(kind, field, count) of a
 * list becomes the VMSTATE_<kind> field it stands for, so r500_pci.c and
 * r500_display.c build their subsections from the core's lists:
 *
 *   #define VMS_CMD(kind, f, n) VMS_##kind(f, R500Rb2dCmd, n)
 *   .fields = (const VMStateField[]) { R500_MIG_RB2D_CMD(VMS_CMD) ... }
 *
 * (The lists put the comma after each field.)
 */
#ifndef HW_R500_QEMU_R500_MIGRATE_H
#define HW_R500_QEMU_R500_MIGRATE_H

#include "migration/vmstate.h"
#include "../migrate.h"

#define VMS_BOOL(f, s, n)           VMSTATE_BOOL(f, s)
#define VMS_UINT8(f, s, n)          VMSTATE_UINT8(f, s)
#define VMS_UINT32(f, s, n)         VMSTATE_UINT32(f, s)
#define VMS_INT32(f, s, n)          VMSTATE_INT32(f, s)
#define VMS_UINT64(f, s, n)         VMSTATE_UINT64(f, s)
#define VMS_INT64(f, s, n)          VMSTATE_INT64(f, s)
#define VMS_UINT32_ARRAY(f, s, n)   VMSTATE_UINT32_ARRAY(f, s, n)

#endif
