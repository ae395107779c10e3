/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engines' writes to VRAM in QEMU's dirty memory, without the VGA
 * client's bit (r500_display.c keeps the engines' pages itself): that
 * client then holds the writes of the CPU alone, which is what the
 * host-GL renderer asks for (R500HostOps.vram_cpu_written).  Its own
 * file, compiled per target, because QEMU 10.0 declares the function in
 * target code (exec/ram_addr.h).
 */
#include "qemu/osdep.h"
#include "r500_display.h"
#define R500_COMPAT_DIRTY_MEMORY
#include "r500_compat.h"

void r500_vram_mark_dirty(MemoryRegion *vram, uint64_t off, uint64_t len)
{
    /* migration (and TCG's code pages) as memory_region_set_dirty() */
    physical_memory_set_dirty_range(memory_region_get_ram_addr(vram) + off,
                                    len,
                                    memory_region_get_dirty_log_mask(vram) &
                                    ~(1u << DIRTY_MEMORY_VGA));
}
