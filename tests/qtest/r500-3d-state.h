/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The smallest 3D state that draws, shared by the unit tests
 * (tests/unit/test-3d.c, through the core's register path) and the qtests
 * (r500-3d-env.c, by MMIO): a linear ARGB8888 colour buffer, window-space
 * vertices of 8 floats (x y z w r g b a) read as two FLOAT_4 streams, a
 * vertex program passing both through, Gouraud colour 0 into temporary 0,
 * a fragment program that outputs it, no depth, no blending.
 *
 * R500_3D_STATE(W, cb, w, h) expands to W(register, value) for each
 * write, in order, for a w x h colour buffer at MC address cb; the two
 * programs are uploaded after it (r500_3d_pvs_passthrough through
 * VAP_PVS_VECTOR_DATA_REG_128 then VAP_PVS_CODE_CNTL_0 =
 * R500_3D_PVS_CODE_CNTL_0; r500_3d_us_out through GA_US_VECTOR_DATA).
 * test-3d.c checks that the instruction words below are what its field
 * encoders build.
 */
#ifndef R500_3D_STATE_H
#define R500_3D_STATE_H

#include <stdint.h>

#define R500_3D_STATE(W, cb, w, h)                                          \
    /* colour buffer 0: ARGB8888 (format 6), linear */                     \
    W(R_RB3D_CCTL, R500_FMASK(RB3D_CCTL, INDEPENDENT_COLORFORMAT_ENABLE))   \
    W(R_RB3D_COLOROFFSET, (cb))                                             \
    W(R_RB3D_COLORPITCH, (w) | 6u << 21)                                    \
    W(R_RB3D_COLOR_CHANNEL_MASK, 0xF)                                       \
    W(R_RB3D_BLENDCNTL, 0)                                                  \
    W(R_RB3D_ROPCNTL, 0)                                                    \
    /* C4_8, C0 = red, C1 = green, C2 = blue, C3 = alpha; others unused */ \
    W(R_US_OUT_FMT, 1u << 8 | 2u << 10 | 3u << 12)                          \
    W(R500_REGA_AT(US_OUT_FMT, 1), 15)                                      \
    W(R500_REGA_AT(US_OUT_FMT, 2), 15)                                      \
    W(R500_REGA_AT(US_OUT_FMT, 3), 15)                                      \
    W(R_ZB_CNTL, 0)                                                         \
    W(R_ZB_BW_CNTL, 0)                                                      \
    W(R_FG_ALPHA_FUNC, 0)                                                   \
    W(R_SU_DEPTH_SCALE, 0x4B7FFFFFu)            /* 16777215.0f */           \
    W(R_SU_CULL_MODE, 0)                                                    \
    W(R_RE_SCISSORS_TL, 0)                                                  \
    W(R_RE_SCISSORS_BR, ((w) - 1) | ((h) - 1) << 13)                        \
    W(R_SC_CLIP_RULE, 0xFFFF)                                               \
    /* window-space vertices, no clipping (the blitter's set-up) */        \
    W(R_VAP_CLIP_CNTL, R500_FMASK(VAP_CLIP_CNTL, CLIP_DISABLE))             \
    W(R_VAP_VTE_CNTL, R500_FMASK(VAP_VTE_CNTL, VTX_XY_FMT) |                \
                      R500_FMASK(VAP_VTE_CNTL, VTX_Z_FMT))                  \
    W(R_VAP_CNTL, 0)                                                        \
    W(R_VAP_CNTL_STATUS, 0)                                                 \
    /* PSC: FLOAT_4 -> v0, FLOAT_4 -> v1 (last), xyzw, all written */      \
    W(R_VAP_PROG_STREAM_CNTL, 3 | (3 | 1u << 8 | 1u << 13) << 16)           \
    W(R_VAP_PROG_STREAM_CNTL_EXT, 0xF688u * 0x10001u)                       \
    W(R_VAP_VTX_SIZE, 8)                                                    \
    W(R_VAP_VF_MAX_VTX_INDX, 0xFFFFFF)                                      \
    W(R_VAP_VF_MIN_VTX_INDX, 0)                                             \
    W(R_VAP_PVS_CONST_CNTL, 0)                                              \
    W(R_VAP_PVS_FLOW_CNTL_OPC, 0)                                           \
    /* outputs: position, colour 0 */                                      \
    W(R_VAP_OUTPUT_VTX_FMT_0, 3)                                            \
    W(R_VAP_OUTPUT_VTX_FMT_1, 0)                                            \
    /* RS: colour 0 (RGBA) -> temp 0, Gouraud, last vertex provokes */      \
    W(R_GB_ENABLE, 0)                                                       \
    W(R_RS_IP, 0)                                                           \
    W(R_RS_COUNT, 1u << 7)                                                  \
    W(R_RS_INST_COUNT, 0)                                                   \
    W(R_RS_INST, 1u << 16)                                                  \
    W(R_GA_COLOR_CONTROL, 0xAAAA | 3u << 16)                                \
    W(R_GA_POLY_MODE, 0)                                                    \
    W(R_TX_ENABLE, 0)                                                       \
    W(R_US_CONFIG, 0)

/* PVS: o0 = v0 + 0, o1 = v1 + 0 (VE_ADD), instructions 0..1 */
static const uint32_t r500_3d_pvs_passthrough[8] = {
    0x00f00203, 0x00d10001, 0x01248001, 0x01248001,
    0x00f02203, 0x00d10021, 0x01248021, 0x01248021,
};
#define R500_3D_PVS_CODE_CNTL_0     (1u << 20 | 1u << 10)

/* US ALU + OUT: rgb = t0.rgb * 1 + 0, a = t0.a * 1 + 0 */
static const uint32_t r500_3d_us_out[6] = {
    0x00078001, 0x08020000, 0x08020000, 0x00db0220, 0x00c0c000, 0x20490000,
};

#endif
