/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Placeholder behind the CP's 3D entry points (draw.h): the 3D pipeline
 * replaces this file.  Draws are accepted, counted and reported once as
 * unimplemented; nothing is rendered.
 */
#include "../r500.h"

static void draw_unimp(R500Chip *s, unsigned opcode)
{
    if (!s->cp.draw_stats.unimp_logged) {
        s->cp.draw_stats.unimp_logged = true;
        r500_unimp(s, "3D: draw and clear packets (first: opcode 0x%02x) are "
                   "decoded and counted but not rendered yet", opcode);
    }
}

uint64_t r500_3d_draw(R500Chip *s, const R500DrawCmd *cmd)
{
    s->cp.draw_stats.draws++;
    s->cp.draw_stats.vertices += cmd->num_vertices;
    draw_unimp(s, cmd->opcode);
    return cmd->num_vertices;
}

uint64_t r500_3d_clear(R500Chip *s, const R500ClearCmd *cmd)
{
    s->cp.draw_stats.clears++;
    draw_unimp(s, cmd->opcode);
    return cmd->count / 64;
}
