/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the interrupt block (reference radeon-kms-r500.md 6). */
#include "test-host.h"

#define SW_INT      (1u << 25)
#define SW_INT_FIRE (1u << 26)

static void test_sw_int(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 16);
    R500Chip *s = &h->chip;

    /* Fired while disabled: latched, line stays low. */
    r500_reg_write(s, R_GEN_INT_STATUS, SW_INT_FIRE);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, SW_INT);
    g_assert_false(h->host.irq);
    /* Enabling raises the line for the latched source. */
    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    g_assert_true(h->host.irq);
    /* rs600_irq_ack writes back what it read: the line drops. */
    r500_reg_write(s, R_GEN_INT_STATUS, r500_reg_read(s, R_GEN_INT_STATUS));
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, 0);
    g_assert_false(h->host.irq);
    /* A second fence fires again. */
    r500_reg_write(s, R_GEN_INT_STATUS, SW_INT_FIRE);
    g_assert_true(h->host.irq);
    g_assert_cmpuint(h->host.irq_edges, ==, 2);
    /* Disabling drops the line but keeps the status. */
    r500_reg_write(s, R_GEN_INT_CNTL, 0);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, SW_INT);
    /* Writing 0 acknowledges nothing. */
    r500_reg_write(s, R_GEN_INT_STATUS, 0);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, SW_INT);
    /* Reset clears status and line. */
    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    g_assert_true(h->host.irq);
    r500_chip_reset(s);
    g_assert_false(h->host.irq);
    g_assert_cmphex(r500_reg_read(s, R_GEN_INT_STATUS), ==, 0);
    test_host_free(h);
}

static void test_msi_rearm(void)
{
    TestHost *h = test_host_new(R500_MODEL_R520, 16);
    R500Chip *s = &h->chip;
    unsigned calls;

    r500_reg_write(s, R_GEN_INT_CNTL, SW_INT);
    r500_reg_write(s, R_GEN_INT_STATUS, SW_INT_FIRE);
    g_assert_true(h->host.irq);
    calls = h->host.irq_edges;
    /* Still pending at rearm: the host is told again (another MSI). */
    h->host.irq = false;
    r500_reg_write(s, R_MSI_REARM_EN, 1);
    g_assert_true(h->host.irq);
    g_assert_cmpuint(h->host.irq_edges, ==, calls + 1);
    /* Nothing pending: rearm sends nothing. */
    r500_reg_write(s, R_GEN_INT_STATUS, SW_INT);
    h->host.irq = false;
    r500_reg_write(s, R_MSI_REARM_EN, 1);
    g_assert_false(h->host.irq);
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/irq/sw-int", test_sw_int);
    g_test_add_func("/irq/msi-rearm", test_msi_rearm);
    return g_test_run();
}
