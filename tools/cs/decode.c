/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A readable decode of PM4 streams (reference r500-3d-pipeline.md 1) and
 * per-register write counts, with register names from the core's table
 * and packet names from its opcode table (hw/r500/cp/pm4_ops.def).
 */
#include <string.h>

#include "cs.h"

static const char *const prim_names[16] = {
    "NONE", "POINT_LIST", "LINE_LIST", "LINE_STRIP", "TRIANGLE_LIST",
    "TRIANGLE_FAN", "TRIANGLE_STRIP", "TRIANGLE_WITH_WFLAGS", "RECT_LIST",
    "3VRT_POINT_LIST", "3VRT_LINE_LIST", "11", "LINE_LOOP", "QUAD_LIST",
    "QUAD_STRIP", "POLYGON",
};

static void decode_vf_cntl(uint32_t v, GString *out)
{
    g_string_append_printf(out, " VAP_VF_CNTL=0x%08x %s walk=%u %s verts=%u%s",
        v, prim_names[R500_FGET(v, VAP_VF_CNTL, PRIM_TYPE)],
        R500_FGET(v, VAP_VF_CNTL, PRIM_WALK),
        R500_FGET(v, VAP_VF_CNTL, INDEX_SIZE) ? "idx32" : "idx16",
        R500_FGET(v, VAP_VF_CNTL, NUM_VERTICES),
        R500_FGET(v, VAP_VF_CNTL, USE_ALT_NUM_VERTS) ? " (alt count)" : "");
}

static void append_dwords(const uint32_t *d, uint32_t n, GString *out,
                          const char *indent)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i % 6 == 0) {
            g_string_append_printf(out, "\n%s", indent);
        }
        g_string_append_printf(out, " %08x", d[i]);
    }
}

static void decode_pkt3(const uint32_t *ib, uint32_t i, uint32_t n,
                        GString *out)
{
    const uint32_t *d = ib + i + 1;
    uint32_t op = R500_PM4_OPCODE(ib[i]);
    const char *name = r500_pm4_op_name(op);

    g_string_append_printf(out, "PKT3 %s (0x%02x) %u dw", name ? name : "?",
                           op, n);
    switch (op) {
    case R500_PM4_OP_NOP:
        if (n == 1) {
            g_string_append_printf(out, " reloc %u", d[0] / 4);
            return;
        }
        break;
    case R500_PM4_OP_3D_LOAD_VBPNTR: {
        uint32_t arrays = d[0] & 0x1F, k = 1;

        g_string_append_printf(out, " arrays=%u", arrays);
        for (uint32_t a = 0; a < arrays && a < 16; a += 2) {
            uint32_t attr = k < n ? d[k] : 0;

            for (uint32_t b = 0; b < 2 && a + b < arrays; b++) {
                uint32_t sh = b * 16, addr = k + 1 + b < n ? d[k + 1 + b] : 0;
                g_string_append_printf(out, "\n        [%u] size=%u stride=%u "
                                       "addr=0x%08x", a + b,
                                       (attr >> sh) & 0x7F,
                                       (attr >> (sh + 8)) & 0x7F, addr);
            }
            k += 3;
        }
        return;
    }
    case R500_PM4_OP_INDX_BUFFER:
        if (r500_pm4_op_len_ok(op, n)) {
            g_string_append_printf(out, " dest=0x%04x addr=0x%08x dwords=%u",
                                   R500_PM4_INDX_DEST(d[0]), d[1], d[2]);
            return;
        }
        break;
    case R500_PM4_OP_3D_DRAW_VBUF_2:
    case R500_PM4_OP_3D_DRAW_INDX_2:
    case R500_PM4_OP_3D_DRAW_IMMD_2:
        if (r500_pm4_op_len_ok(op, n)) {
            decode_vf_cntl(d[0], out);
            append_dwords(d + 1, n - 1, out, "       ");
            return;
        }
        break;
    case R500_PM4_OP_3D_DRAW_VBUF:
    case R500_PM4_OP_3D_DRAW_INDX:
    case R500_PM4_OP_3D_DRAW_IMMD:
        if (r500_pm4_op_len_ok(op, n)) {
            g_string_append_printf(out, " vtx_fmt=0x%08x", d[0]);
            decode_vf_cntl(d[1], out);
            append_dwords(d + 2, n - 2, out, "       ");
            return;
        }
        break;
    case R500_PM4_OP_3D_CLEAR_HIZ:
    case R500_PM4_OP_3D_CLEAR_ZMASK:
    case R500_PM4_OP_3D_CLEAR_CMASK:
        if (r500_pm4_op_len_ok(op, n)) {
            g_string_append_printf(out, " start=%u count=%u value=0x%08x",
                                   d[0], d[1], d[2]);
            return;
        }
        break;
    default:
        break;
    }
    append_dwords(d, n, out, "       ");
}

void cs_decode(const uint32_t *ib, uint32_t ndw, GString *out)
{
    char name[64];
    uint32_t i = 0;

    while (i < ndw) {
        uint32_t h = ib[i], n;

        g_string_append_printf(out, "%6u: ", i);
        switch (R500_PM4_TYPE(h)) {
        case 0: {
            uint32_t reg = R500_PM4_TYPE0_REG(h);
            bool one = (h & R500_PM4_TYPE0_ONE_REG_WR);

            n = R500_PM4_COUNT(h) + 1;
            if (i + n >= ndw) {
                n = ndw - i - 1;
                g_string_append(out, "(truncated) ");
            }
            if (one) {
                g_string_append_printf(out, "PKT0 %s <= %u dw",
                                       r500_reg_name(reg, name, sizeof(name)),
                                       n);
                append_dwords(ib + i + 1, n, out, "       ");
                g_string_append_c(out, '\n');
            } else {
                g_string_append_printf(out, "PKT0 %u reg%s\n", n,
                                       n == 1 ? "" : "s");
                for (uint32_t k = 0; k < n; k++, reg += 4) {
                    g_string_append_printf(out, "%6u:   %-36s = 0x%08x\n",
                        i + 1 + k, r500_reg_name(reg, name, sizeof(name)),
                        ib[i + 1 + k]);
                }
            }
            i += n + 1;
            continue;
        }
        case 1:
            g_string_append_printf(out, "PKT1 0x%08x (not accepted from "
                                   "userspace)\n", h);
            i += 3;
            continue;
        case 2:
            g_string_append(out, "PKT2\n");
            i++;
            continue;
        default:
            n = R500_PM4_COUNT(h) + 1;
            if (i + n >= ndw) {
                n = ndw - i - 1;
                g_string_append(out, "(truncated) ");
            }
            decode_pkt3(ib, i, n, out);
            g_string_append_c(out, '\n');
            i += n + 1;
            continue;
        }
    }
}

void cs_stats_add(CsStats *st, const uint32_t *ib, uint32_t ndw)
{
    uint32_t i = 0;

    st->streams++;
    st->dwords += ndw;
    while (i < ndw) {
        uint32_t h = ib[i], n = R500_PM4_COUNT(h) + 1;

        switch (R500_PM4_TYPE(h)) {
        case 0: {
            uint32_t reg = R500_PM4_TYPE0_REG(h);

            for (uint32_t k = 0; k < n && i + 1 + k < ndw; k++) {
                st->reg_writes[(reg & (R500_MMIO_SIZE - 1)) / 4]++;
                if (!(h & R500_PM4_TYPE0_ONE_REG_WR)) {
                    reg += 4;
                }
            }
            i += n + 1;
            break;
        }
        case 1:
            i += 3;
            break;
        case 2:
            st->pkt2++;
            i++;
            break;
        default:
            st->pkt3[R500_PM4_OPCODE(h)]++;
            i += n + 1;
            break;
        }
    }
}

void cs_stats_format(const CsStats *st, GString *out)
{
    char name[64];

    g_string_append_printf(out, "streams %" G_GUINT64_FORMAT "\n", st->streams);
    g_string_append_printf(out, "dwords %" G_GUINT64_FORMAT "\n", st->dwords);
    for (unsigned r = 0; r < R500_NUM_REGS; r++) {
        if (st->reg_writes[r]) {
            g_string_append_printf(out, "reg %s 0x%04x %" G_GUINT64_FORMAT "\n",
                                   r500_reg_name(r * 4, name, sizeof(name)),
                                   r * 4, st->reg_writes[r]);
        }
    }
    for (unsigned op = 0; op < 256; op++) {
        if (st->pkt3[op]) {
            const char *n = r500_pm4_op_name(op);
            g_string_append_printf(out, "pkt3 %s 0x%02x %" G_GUINT64_FORMAT "\n",
                                   n ? n : "?", op, st->pkt3[op]);
        }
    }
    if (st->pkt2) {
        g_string_append_printf(out, "pkt2 PACKET2 0x00 %" G_GUINT64_FORMAT "\n",
                               st->pkt2);
    }
}
