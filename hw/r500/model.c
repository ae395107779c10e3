/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The modelled chips; the facts live in models.def. */
#include <glib.h>
#include <string.h>

#include "r500.h"

static const R500ModelInfo models[R500_MODEL__COUNT] = {
#define R500_MODEL(id, nm, devid, qp, zp, mw, has_msi, map, mkt) \
    [R500_MODEL_##id] = {                                       \
        .name = #nm, .marketing = mkt, .device_id = devid,      \
        .quad_pipes = qp, .z_pipes = zp, .mem_width_code = mw,  \
        .msi = has_msi, .mc_map = R500_MC_MAP_##map,            \
    },
#include "models.def"
#undef R500_MODEL
};

const R500ModelInfo *r500_model_info(R500Model model)
{
    g_assert(model < R500_MODEL__COUNT);
    return &models[model];
}

int r500_model_from_name(const char *name)
{
    for (int i = 0; i < R500_MODEL__COUNT; i++) {
        if (name && strcmp(name, models[i].name) == 0) {
            return i;
        }
    }
    return -1;
}
