/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The blocks of the chip, in reset and run order: the block diagram. */
#include <glib.h>

#include "blocks.h"

const R500Block *const r500_blocks[] = {
    &r500_core_block,
    &r500_irq_block,
    &r500_mc_block,
    &r500_hdp_block,
    &r500_rb2d_block,
    &r500_pipe_block,
    &r500_vap_block,
    &r500_rast_block,
    &r500_us_block,
    &r500_tx_block,
    &r500_rb3d_block,
    &r500_cp_block,
    &r500_crtc_block,
    &r500_cursor_block,
    &r500_lut_block,
    &r500_output_block,
    &r500_ddc_block,
};
const unsigned r500_num_blocks = G_N_ELEMENTS(r500_blocks);
