/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU versions the board builds into (docs/build.md), in one place.
 *
 * The board is written against the newest QEMU the table of
 * scripts/qemu-build.sh holds (10.2); what moved since the oldest it
 * supports (10.0, Debian 13's QEMU) is mapped here, so no other file has
 * an #if on QEMU's version.  scripts/upstream-series.sh drops this header
 * from the series for QEMU's tree, where only the newest names exist.
 */
#ifndef HW_R500_QEMU_R500_COMPAT_H
#define HW_R500_QEMU_R500_COMPAT_H

#include "qom/object.h"

#define R500_QEMU_AT_LEAST(major, minor) \
    (QEMU_VERSION_MAJOR > (major) || \
     (QEMU_VERSION_MAJOR == (major) && QEMU_VERSION_MINOR >= (minor)))

#if !R500_QEMU_AT_LEAST(10, 0)
#error "the r500 board builds into QEMU 10.0 or newer"
#endif

/* 10.2: memory.h moved from exec/ to system/ */
#if R500_QEMU_AT_LEAST(10, 2)
#include "system/memory.h"
#else
#include "exec/memory.h"
#endif

/*
 * 10.2: the dirty-memory functions moved from the target-specific
 * exec/ram_addr.h to system/physmem.h, their cpu_ prefix gone.  Only
 * r500_dirty.c, compiled per target, asks for them.
 */
#ifdef R500_COMPAT_DIRTY_MEMORY
#if R500_QEMU_AT_LEAST(10, 2)
#include "system/physmem.h"
#else
#include "exec/ram_addr.h"
#define physical_memory_set_dirty_range cpu_physical_memory_set_dirty_range
#endif
#endif

/* 10.2: a class_init's data and a type's interfaces are const */
#if R500_QEMU_AT_LEAST(10, 2)
typedef const void *R500ClassData;
typedef const InterfaceInfo R500InterfaceInfo;
#else
typedef void *R500ClassData;
typedef InterfaceInfo R500InterfaceInfo;
#endif

#endif
