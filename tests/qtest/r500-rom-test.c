/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option ROM as a guest reads it through the ROM BAR, for every model:
 * the model's own ROM is the default romfile (found without -L), its PCI
 * data structure names the card, and the AtomBIOS lies inside the image
 * SeaBIOS shadows (docs/rom.md, docs/atombios.md).
 */
#include "r500-qtest.h"
#include "standard-headers/linux/pci_regs.h"

static uint32_t le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

static void test_rom_bar(const R500TestModel *m)
{
    R500Test t;
    uint32_t probe, bar_size, addr, len, pcir, hdr, msg;
    g_autofree uint8_t *rom = NULL;
    g_autofree char *name = g_ascii_strup(m->name, -1);

    r500_test_start(&t, m->name, NULL, true);
    probe = r500_bar_probe(&t, PCI_ROM_ADDRESS);
    bar_size = ~(probe & PCI_ROM_ADDRESS_MASK) + 1;
    g_assert_cmpuint(bar_size, >=, 32 * KiB);
    addr = QEMU_ALIGN_UP(t.bus->mmio_alloc_ptr, bar_size);
    g_assert_cmpuint(addr + bar_size, <=, t.bus->mmio_limit);
    qpci_config_writel(t.dev, PCI_ROM_ADDRESS, addr | PCI_ROM_ADDRESS_ENABLE);
    rom = g_malloc(bar_size);
    qtest_memread(t.qts, addr, rom, bar_size);

    g_assert_cmphex(le(rom, 2), ==, 0xAA55);
    len = rom[2] * 512;
    g_assert_cmpuint(len, <=, bar_size);
    pcir = le(rom + 0x18, 2);
    g_assert_cmpmem(rom + pcir, 4, "PCIR", 4);
    g_assert_cmphex(le(rom + pcir + 4, 2), ==, 0x1002);
    g_assert_cmphex(le(rom + pcir + 6, 2), ==, m->device_id);
    g_assert_cmpuint(le(rom + pcir + 0x10, 2) * 512, ==, len);
    /* AtomBIOS: signature, header inside the shadowed length. */
    g_assert_cmpmem(rom + 0x30, 10, " 761295520", 10);
    hdr = le(rom + 0x48, 2);
    g_assert_cmpuint(hdr + 0x24, <=, len);
    g_assert_cmpmem(rom + hdr + 4, 4, "ATOM", 4);
    /* The header's subsystem matches the card's. */
    g_assert_cmphex(le(rom + hdr + 0x18, 2), ==,
                    qpci_config_readw(t.dev, PCI_SUBSYSTEM_VENDOR_ID));
    g_assert_cmphex(le(rom + hdr + 0x1A, 2), ==,
                    qpci_config_readw(t.dev, PCI_SUBSYSTEM_ID));
    msg = le(rom + hdr + 0x10, 2);
    g_assert_cmpuint(msg, <, len);
    g_assert_nonnull(g_strstr_len((const char *)rom + msg, 64, name));
    qpci_config_writel(t.dev, PCI_ROM_ADDRESS, 0);
    r500_test_stop(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    r500_add_model_tests("rom-bar", test_rom_bar);
    return g_test_run();
}
