/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the chip: the list of blocks (r500.c) and the services blocks
 * offer each other.  Not for the board or other users of r500.h.
 */
#ifndef HW_R500_BLOCKS_H
#define HW_R500_BLOCKS_H

#include "r500.h"

#ifndef MiB
#define MiB (1024u * 1024u)
#endif

/* In reset and run order. */
extern const R500Block *const r500_blocks[];
extern const unsigned r500_num_blocks;

extern const R500Block r500_core_block;
extern const R500Block r500_regfile_block;
extern const R500Block r500_irq_block;
extern const R500Block r500_mc_block;
extern const R500Block r500_hdp_block;
extern const R500Block r500_cp_block;
extern const R500Block r500_rb2d_block;
/* Display controller (disp/). */
extern const R500Block r500_crtc_block;
extern const R500Block r500_cursor_block;
extern const R500Block r500_lut_block;
extern const R500Block r500_output_block;
extern const R500Block r500_ddc_block;
/* 3D pipeline (pipe/, vap/, rast/, us/, tx/, rb/). */
extern const R500Block r500_pipe_block;
extern const R500Block r500_vap_block;
extern const R500Block r500_rast_block;
extern const R500Block r500_us_block;
extern const R500Block r500_tx_block;
extern const R500Block r500_rb3d_block;

#endif
