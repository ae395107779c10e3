/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer's entry points where the build has no OpenGL
 * (libepoxy): there is no such renderer, and soft draws (renderer.h).
 */
#include "../r500.h"

const R500RendererOps *r500_gl_ops(void)
{
    return NULL;
}

bool r500_gl_probe(R500Chip *s, const char **why)
{
    *why = "this build has no OpenGL (libepoxy)";
    return false;
}

void r500_gl_stats(R500Chip *s, uint64_t *draws, uint64_t *fallbacks)
{
    *draws = *fallbacks = 0;
}

uint64_t r500_gl_kept(R500Chip *s)
{
    return 0;
}

uint64_t r500_gl_uploaded(R500Chip *s)
{
    return 0;
}

uint64_t r500_gl_vertex_draws(R500Chip *s)
{
    return 0;
}

uint64_t r500_gl_slot_textures(R500Chip *s, uint64_t *passes,
                               uint64_t *as_is)
{
    if (passes) {
        *passes = 0;
    }
    if (as_is) {
        *as_is = 0;
    }
    return 0;
}

void r500_gl_holds(R500Chip *s, uint64_t *held, uint64_t *released)
{
    *held = *released = 0;
}

void r500_gl_free(R500Chip *s)
{
}

bool r500_gl_on_thread(void)
{
    return false;
}
