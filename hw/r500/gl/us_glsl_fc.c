/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flow control in the GLSL translation of a US program (us_glsl.c has the
 * instructions): the program runs as us_exec.c runs it, not as a
 * structured rewrite of it.
 *
 * us_exec.c runs a 2x2 quad through one sequence of instructions: an FC
 * instruction decides for the quad whether to jump (from the votes of its
 * active pixels, JUMP_ANY or all), and pixels diverge only through their
 * active bits and branch counters (B_OP0/B_OP1, B_ELSE), which limit
 * writes.  Here every invocation of the quad keeps the same program
 * counter, loop and address stacks: the votes are summed over the quad
 * (r500_quad_masks), so every decision is the quad's, each invocation
 * keeps its own active bit and counter, and the control flow stays
 * uniform within the quad, so GL's derivatives (implicit texture LODs,
 * MDH/MDV) see the whole quad as soft's do.
 *
 * The program is a switch over its blocks (an instruction that starts
 * the program, follows an FC, or is a jump target) inside a loop on the
 * program counter; the loop ends where us_exec.c's does, when the
 * counter leaves START..END, or when the quad has executed
 * R500_US_QUAD_STEPS instructions: then, as on soft, every pixel of the
 * quad is dropped.  So a runaway program ends after at most 2^16
 * instructions per quad on both.  A host may end the loop sooner:
 * llvmpipe ends a shader's loops after 65535 rounds in all, whatever
 * their conditions; a counter still inside the program after the loop
 * drops the quad as well.  That differs from soft only for a program
 * that runs exactly 2^16 instructions in 2^16 blocks of one, which soft
 * draws.  The draw-wide budget of soft (R500_US_DRAW_BUDGET) has no
 * counterpart: GL shades every quad to its own bound, so a caller may
 * ask for a static bound on it (R500UsGlslIn.max_steps, fc_steps()).
 *
 * Why not structured GLSL: the jumps, B_OPs and address stack can say
 * what no if/loop nest says (jumps into loops, per-pixel branch
 * counters, JUMP_ANY); a switch says all of it.  On llvmpipe the switch
 * costs 1.3-1.8 times straight code of the same work, which bounds what
 * a structured translation could win (docs/3d.md has the figures).
 */
#include <glib.h>

#include "us_glsl_int.h"

/*
 * The quad exchange, for the votes and for MDH/MDV: GL gives what
 * neighbouring pixels hold only as fine derivatives, differences with
 * the neighbour in x and in y within the quad.  Differences of integers
 * below 2^16 are exact in floats, so a value crosses the quad exactly as
 * its two 16-bit halves (NaN and infinity bits too).  Pixel p = 2y + x
 * of the quad as us_exec.c numbers them (GL's row 0 is the surface's,
 * rs_glsl.c).  Called in control flow uniform within the quad only.
 */
static const char quad_fns[] =
    /* bits 0-3: the pixels where v, bits 4-7: where w */
    "uint r500_quad_masks(bool v, bool w) {\n"
    "    ivec2 q = ivec2(gl_FragCoord.xy) & 1;\n"
    "    int p = 2 * q.y + q.x;\n"
    "    precise float b = float((v ? 1 << p : 0) + (w ? 16 << p : 0));\n"
    "    precise float dx = dFdxFine(b);\n"
    "    precise float row = b + (q.x == 0 ? b + dx : b - dx);\n"
    "    precise float dy = dFdyFine(row);\n"
    "    return uint(row + (q.y == 0 ? row + dy : row - dy));\n"
    "}\n"
    "vec4 r500_quad_get(vec4 v, int k) {\n"
    "    ivec2 q = ivec2(gl_FragCoord.xy) & 1;\n"
    "    uvec4 b = floatBitsToUint(v);\n"
    "    precise vec4 lo = vec4(b & 0xFFFFu), hi = vec4(b >> 16u);\n"
    "    precise vec4 dlo = dFdxFine(lo), dhi = dFdxFine(hi);\n"
    "    float s = float((k & 1) - q.x);\n"
    "    lo = lo + s * dlo;\n"
    "    hi = hi + s * dhi;\n"
    "    dlo = dFdyFine(lo);\n"
    "    dhi = dFdyFine(hi);\n"
    "    s = float((k >> 1) - q.y);\n"
    "    lo = lo + s * dlo;\n"
    "    hi = hi + s * dhi;\n"
    "    return uintBitsToFloat(uvec4(lo) | uvec4(hi) << 16u);\n"
    "}\n";

/*
 * The loop and address stacks of us_exec.c's UsFlow, innermost at 0: a
 * push moves the others down, a pop up, so that everything else reads
 * fixed elements (an array indexed at run time costs llvmpipe dearly).
 */
static const char stack_fns[] =
    "int r500_nl = 0, r500_na = 0;\n"
    "int r500_lc[8], r500_la[8], r500_ls[8];\n"
    "uint r500_as[8];\n"
    "void r500_loop_push(int c, int a, int s) {\n"
    "    for (int i = 7; i > 0; i--) {\n"
    "        r500_lc[i] = r500_lc[i - 1];\n"
    "        r500_la[i] = r500_la[i - 1];\n"
    "        r500_ls[i] = r500_ls[i - 1];\n"
    "    }\n"
    "    r500_lc[0] = c;\n"
    "    r500_la[0] = a;\n"
    "    r500_ls[0] = s;\n"
    "    r500_nl++;\n"
    "}\n"
    "void r500_loop_pop() {\n"
    "    for (int i = 0; i < 7; i++) {\n"
    "        r500_lc[i] = r500_lc[i + 1];\n"
    "        r500_la[i] = r500_la[i + 1];\n"
    "        r500_ls[i] = r500_ls[i + 1];\n"
    "    }\n"
    "    r500_nl--;\n"
    "}\n"
    "void r500_addr_push(uint a) {\n"
    "    for (int i = 7; i > 0; i--) {\n"
    "        r500_as[i] = r500_as[i - 1];\n"
    "    }\n"
    "    r500_as[0] = a;\n"
    "    r500_na++;\n"
    "}\n"
    "uint r500_addr_pop() {\n"
    "    uint a = r500_as[0];\n"
    "    for (int i = 0; i < 7; i++) {\n"
    "        r500_as[i] = r500_as[i + 1];\n"
    "    }\n"
    "    r500_na--;\n"
    "    return a;\n"
    "}\n";

void r500_us_glsl_quad_fns(const UsGlsl *c, GString *out)
{
    g_string_append(out, quad_fns);
    if (c->fc) {
        g_string_append(out, stack_fns);
    }
}

/* The absolute jump target of an FC (us_exec.c exec_fc). */
static uint32_t fc_target(const UsGlsl *c, const R500UsInst *in)
{
    uint32_t fa = in->fc_addr;
    uint32_t t = R500_FGET(fa, US_FC_ADDR, JUMP_ADDR);

    if (!R500_FGET(fa, US_FC_ADDR, JUMP_GLOBAL)) {
        t += R500_FGET(c->in->regs[R_US_CODE_OFFSET / 4], US_CODE_OFFSET,
                       OFFSET_ADDR);
    }
    return t;
}

/* US_FC_INT_CONST of an FC's INT_ADDR: KR count, KG start, KB step. */
static uint32_t fc_int(const UsGlsl *c, const R500UsInst *in)
{
    return c->in->regs[R500_REGA_AT(US_FC_INT_CONST,
                                    R500_FGET(in->fc_addr, US_FC_ADDR,
                                              INT_ADDR)) / 4];
}

/* B_OP0/B_OP1 on this pixel, after the decision jumped (fc_bop()). */
static void fc_bop(GString *g, const UsGlsl *c, unsigned op, unsigned pop,
                   bool jumped)
{
    if (!c->diverge) {
        /* every pixel stays active: nothing to count */
        return;
    }
    if (op == 1) {
        /* DECR: inactive pixels count down; negative ones wake up */
        g_string_append_printf(g,
            "            if (!r500_act) {\n"
            "                r500_bc -= %u;\n"
            "                if (r500_bc < 0) {\n"
            "                    r500_act = true;\n"
            "                    r500_bc = 0;\n"
            "                }\n"
            "            }\n", pop);
    } else if (op == 2) {
        /* INCR: one level deeper; pixels that went the other way sleep */
        g_string_append_printf(g,
            "            if (!r500_act) {\n"
            "                r500_bc++;\n"
            "            } else if (vote && %swant) {\n"
            "                r500_act = false;\n"
            "                r500_bc = 0;\n"
            "            }\n", jumped ? "!" : "");
    }
}

/* The loop-stack part of an FC by op (exec_fc()'s switch). */
static void fc_loop(GString *g, const UsGlsl *c, const R500UsInst *in)
{
    uint32_t fi = in->fc_inst;
    unsigned op = R500_FGET(fi, US_FC_INST, OP);

    switch (op) {
    case 1:
    case 3: {   /* LOOP, REP: KR iterations, aL from KG step KB */
        uint32_t k = fc_int(c, in);
        char al[16];

        if ((k & 0xFF) == 0) {
            g_string_append(g, "        jump = true;\n");
            break;
        }
        if (op == 1) {
            g_snprintf(al, sizeof(al), "%u", (k >> 8) & 0xFF);
        } else {
            g_strlcpy(al, "r500_al", sizeof(al));
        }
        /* too deep: the loop is skipped (us_exec.c us_too_deep()) */
        g_string_append_printf(g,
            "        if (!jump) {\n"
            "            if (r500_nl >= %u) {\n"
            "                jump = true;\n"
            "            } else {\n"
            "                r500_loop_push(%u, %s, %d);\n"
            "            }\n"
            "        }\n", R500_US_LOOP_DEPTH, k & 0xFF, al,
            op == 1 ? (int8_t)(k >> 16) : 0);
        break;
    }
    case 2: case 4:     /* ENDLOOP, ENDREP */
        g_string_append(g,
            "        if (r500_nl > 0) {\n"
            "            r500_la[0] += r500_ls[0];\n"
            "            r500_lc[0]--;\n"
            "            if (r500_lc[0] == 0) {\n"
            "                jump = false;\n"
            "            }\n"
            "        } else {\n"
            "            jump = false;\n"
            "        }\n"
            "        if (!jump && r500_nl > 0) {\n"
            "            r500_loop_pop();\n"
            "        }\n");
        break;
    case 5: case 6:     /* BREAKLOOP, BREAKREP: leaving pops the loop */
        g_string_append(g, "        if (jump && r500_nl > 0) {\n"
                           "            r500_loop_pop();\n        }\n");
        break;
    default:            /* JUMP, CONTINUE */
        break;
    }
}

/* One FC instruction at absolute slot pc: sets r500_pc (exec_fc()). */
static void fc(GString *g, const UsGlsl *c, const R500UsInst *in,
               uint32_t pc)
{
    uint32_t fi = in->fc_inst, fa = in->fc_addr;
    unsigned func = R500_FGET(fi, US_FC_INST, JUMP_FUNC);
    unsigned aop = R500_FGET(fi, US_FC_INST, A_OP);
    unsigned pop = R500_FGET(fi, US_FC_INST, B_POP_CNT);
    unsigned bval = (c->in->regs[R_US_FC_BOOL_CONST / 4] >>
                     R500_FGET(fa, US_FC_ADDR, BOOL_ADDR)) & 1;
    /* the FC predicate is a replicate select of CMN RGB_PRED_SEL */
    unsigned psel = in->rgb_pred_sel ? in->rgb_pred_sel : 5;
    bool any = R500_FGET(fi, US_FC_INST, JUMP_ANY), iu, all, masks;
    static const char chan[4] = { 'r', 'g', 'b', 'a' };
    const char *vm;
    char *jump;

    g_string_append(g, "    {\n");
    if (R500_FGET(fi, US_FC_INST, B_ELSE)) {
        /* active <-> branch-inactive with a zero counter */
        g_string_append(g, "        if (r500_act) {\n"
                           "            r500_act = false;\n"
                           "            r500_bc = 0;\n"
                           "        } else if (r500_bc == 0) {\n"
                           "            r500_act = true;\n"
                           "        }\n");
    }
    /*
     * Each voter's bit of JUMP_FUNC (ALU result, predicate, boolean) and
     * the quad's decision; what JUMP_FUNC 0x00 and 0xFF decide, and the
     * votes where every pixel votes, need no exchange.
     */
    iu = R500_FGET(fi, US_FC_INST, IGNORE_UNCOVERED);
    all = !c->diverge && !iu;
    g_string_append_printf(g, "        bool vote = %s%s;\n",
                           c->diverge ? "r500_act" : "true",
                           iu ? " && r500_cov" : "");
    if (func == 0xFF || func == 0x00) {
        g_string_append_printf(g, "        bool want = %s;\n",
                               func ? "vote" : "false");
    } else {
        g_string_append_printf(g,
            "        bool want = vote && ((0x%02xu >> (uint(r500_ar) << 2 | "
            "uint(%sr500_pred.%c) << 1 | %uu)) & 1u) != 0u;\n",
            func, in->rgb_pred_inv ? "!" : "",
            chan[r500_us_pred_chan(psel, 3)], bval);
    }
    /* the voters' mask: every pixel's, or exchanged (m, bits 0-3) */
    vm = all ? "15u" : "(m & 15u)";
    if (func == 0xFF) {
        masks = any && !all;
        jump = any ? g_strdup_printf("%s != 0u", vm) : g_strdup("true");
    } else if (func == 0x00) {
        masks = !any && !all;
        jump = any ? g_strdup("false") : g_strdup_printf("%s == 0u", vm);
    } else {
        masks = true;
        jump = g_strdup_printf(any ? "(m >> 4) != 0u" : "(m >> 4) == %s",
                               vm);
    }
    if (masks) {
        g_string_append(g, "        uint m = r500_quad_masks(vote, want);\n");
    }
    g_string_append_printf(g, "        bool jump = %s;\n", jump);
    g_free(jump);
    fc_loop(g, c, in);
    g_string_append(g, "        if (jump) {\n");
    if (aop == 1) {
        /* pop: the address pushed, or the next instruction */
        g_string_append_printf(g,
            "            if (r500_na > 0) {\n"
            "                r500_pc = r500_addr_pop();\n"
            "            } else {\n"
            "                r500_pc = %uu;\n"
            "            }\n", pc + 1);
    } else {
        if (aop == 2) {
            /* push; past the stack the push is lost */
            g_string_append_printf(g,
                "            if (r500_na < %u) {\n"
                "                r500_addr_push(%uu);\n"
                "            }\n", R500_US_LOOP_DEPTH, pc + 1);
        }
        g_string_append_printf(g, "            r500_pc = %uu;\n",
                               fc_target(c, in));
    }
    fc_bop(g, c, R500_FGET(fi, US_FC_INST, B_OP1), pop, true);
    g_string_append(g, "        } else {\n");
    fc_bop(g, c, R500_FGET(fi, US_FC_INST, B_OP0), pop, false);
    g_string_append_printf(g, "            r500_pc = %uu;\n"
                           "        }\n", pc + 1);
    /* aL: the innermost loop's (0 outside loops), us_exec.c us_al() */
    g_string_append(g, "        r500_al = r500_nl > 0 ? r500_la[0] : 0;\n"
                       "    }\n");
}

/*
 * The values aL can take, modulo the 128 temporaries: 0 outside loops,
 * start + i * step for i below the count of each LOOP (ENDLOOP steps aL
 * and counts down together, and leaves at zero), a REP's the enclosing
 * loop's.
 */
bool r500_us_glsl_al(UsGlsl *c, const char **why)
{
    const R500UsProg *p = c->p;
    bool seen[R500_US_TEMPS] = { true };

    if (!c->in || !c->in->regs) {
        *why = "flow control without the FC registers";
        return false;
    }
    for (uint32_t i = 0; i <= p->end - p->start; i++) {
        const R500UsInst *in = &p->inst[i];
        uint32_t k = fc_int(c, in);

        if (in->type != R500_US_FC ||
            R500_FGET(in->fc_inst, US_FC_INST, OP) != 1) {
            continue;
        }
        for (uint32_t n = 0; n < (k & 0xFF); n++) {
            seen[(((k >> 8) & 0xFF) + n * (int8_t)(k >> 16)) &
                 (R500_US_TEMPS - 1)] = true;
        }
    }
    c->nal = 0;
    for (unsigned v = 0; v < R500_US_TEMPS; v++) {
        if (!seen[v]) {
            continue;
        }
        if (c->nal == R500_US_GLSL_AL_MAX) {
            *why = "relative addresses over more than 16 values of aL";
            return false;
        }
        c->al[c->nal++] = v;
    }
    return true;
}

/*
 * A bound on the instructions one quad runs, for a caller that keeps
 * GL's work per pixel near straight code's (R500UsGlslIn.max_steps); 0
 * when the program has none under the quad bound.  It holds for the
 * shape Mesa emits (r500_fragprog_emit.c): loops nested, every LOOP/REP
 * matched by the ENDLOOP/ENDREP after it, whose jump goes back into that
 * loop's body; every other jump forward, into the region of the jump or
 * one that encloses it (a break's, a skipped loop's); no address stack.
 * Then every back edge consumes a count a LOOP/REP of an enclosing loop
 * pushed, so an instruction inside d loops runs at most K^d times, K the
 * largest count any of the loops starts with.  Anything else (a JUMP
 * back, a CALL) may run to the quad bound.
 */
static uint64_t fc_steps(const UsGlsl *c)
{
    const R500UsProg *p = c->p;
    uint32_t n = p->end - p->start + 1;
    /*
     * loop[i]: the LOOP of the innermost loop holding i, or -1;
     * the ENDLOOP belongs to its loop, the LOOP to the enclosing one
     */
    int loop[R500_US_INSTS], end[R500_US_INSTS], open[R500_US_INSTS];
    unsigned depth[R500_US_INSTS], nopen = 0, kmax = 1;
    uint64_t steps = 0, pow[R500_US_INSTS + 1];

    for (uint32_t i = 0; i < n; i++) {
        const R500UsInst *in = &p->inst[i];
        unsigned op = R500_FGET(in->fc_inst, US_FC_INST, OP);

        loop[i] = nopen ? open[nopen - 1] : -1;
        depth[i] = nopen;
        end[i] = -1;
        if (in->type != R500_US_FC) {
            continue;
        }
        if (R500_FGET(in->fc_inst, US_FC_INST, A_OP)) {
            return 0;
        }
        if (op == 1 || op == 3) {
            kmax = MAX(kmax, fc_int(c, in) & 0xFF);
            open[nopen++] = i;
        } else if (op == 2 || op == 4) {
            if (!nopen) {
                return 0;
            }
            end[open[--nopen]] = i;
        }
    }
    if (nopen) {
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        const R500UsInst *in = &p->inst[i];
        unsigned op = R500_FGET(in->fc_inst, US_FC_INST, OP);
        int64_t t;
        int from, to;

        if (in->type != R500_US_FC) {
            continue;
        }
        t = (int64_t)fc_target(c, in) - p->start;
        if (op == 2 || op == 4) {
            /* back into its own loop's body, past the LOOP */
            if (t <= loop[i] || t > i) {
                return 0;
            }
            continue;
        }
        if (t <= (int64_t)i) {
            return 0;
        }
        if (t >= n) {
            continue;           /* past the end: the program ends */
        }
        /*
         * Where it may land: a LOOP/REP's skip on its ENDLOOP/ENDREP or
         * past it in the enclosing region, a break one loop out (it pops
         * one), any other jump in its own region (one leaving a loop
         * would leave its count on the stack for the next ENDLOOP).
         */
        if (op == 1 || op == 3) {
            to = t == end[i] ? loop[i] : loop[t];
            from = loop[i];
        } else if ((op == 5 || op == 6) && loop[i] >= 0) {
            to = loop[t];
            from = loop[loop[i]];
        } else {
            to = loop[t];
            from = loop[i];
        }
        if (to != from || (t < end[i] && (op == 1 || op == 3))) {
            return 0;
        }
    }
    pow[0] = 1;
    for (unsigned d = 1; d <= R500_US_INSTS; d++) {
        pow[d] = MIN(pow[d - 1] * kmax, (uint64_t)R500_US_QUAD_STEPS + 1);
    }
    for (uint32_t i = 0; i < n; i++) {
        steps += pow[depth[i]];
    }
    return steps > R500_US_QUAD_STEPS ? 0 : steps;
}

bool r500_us_glsl_flow(UsGlsl *c, GString *g, const char **why)
{
    const R500UsProg *p = c->p;
    uint32_t n = p->end - p->start + 1;
    bool lead[R500_US_INSTS] = { false };

    if (!c->in || !c->in->regs) {
        *why = "flow control without the FC registers";
        return false;
    }
    if (c->in->max_steps) {
        uint64_t steps = fc_steps(c);

        if (!steps || steps > c->in->max_steps) {
            *why = "flow control that may loop past the renderer's "
                   "bound (soft meters it)";
            return false;
        }
    }
    /*
     * blocks start at the start, after each FC and at each jump target
     * (a popped address is an FC's next)
     */
    lead[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const R500UsInst *in = &p->inst[i];
        uint32_t t;

        if (in->type != R500_US_FC) {
            continue;
        }
        if (i + 1 < n) {
            lead[i + 1] = true;
        }
        /* B_ELSE and B_OP INCR put pixels to sleep; nothing else does */
        c->diverge |= R500_FGET(in->fc_inst, US_FC_INST, B_ELSE) ||
                      R500_FGET(in->fc_inst, US_FC_INST, B_OP0) == 2 ||
                      R500_FGET(in->fc_inst, US_FC_INST, B_OP1) == 2;
        t = fc_target(c, in);
        if (t >= p->start && t <= p->end) {
            lead[t - p->start] = true;
        }
    }
    /*
     * the state of us_exec.c's UsFlow, the same in the quad's pixels but
     * r500_act and r500_bc
     */
    g_string_append_printf(g,
        "    %s\n"
        "    bool r500_ar = false;\n"
        "    int r500_al = 0;\n"
        "    uint r500_pc = %uu, r500_steps = 0u;\n"
        "    while (r500_pc >= %uu && r500_pc <= %uu) {\n"
        "    switch (r500_pc) {\n",
        c->diverge ? "bool r500_act = true;\n    int r500_bc = 0;"
                   : "const bool r500_act = true;",
        p->start, p->start, p->end);
    c->quad = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = 1;

        if (!lead[i]) {
            continue;
        }
        while (i + len < n && !lead[i + len] &&
               p->inst[i + len - 1].type != R500_US_FC) {
            len++;
        }
        /*
         * the quad's instruction bound, counted a block at a time: past
         * it every pixel is dropped, as on soft
         */
        g_string_append_printf(g,
            "    case %uu:\n"
            "        if (r500_steps > %uu) {\n"
            "            r500_killed = true;\n"
            "            r500_pc = 0xFFFFFFFFu;\n"
            "            break;\n"
            "        }\n"
            "        r500_steps += %uu;\n",
            p->start + i, R500_US_QUAD_STEPS - len, len);
        for (uint32_t k = i; k < i + len; k++) {
            const R500UsInst *in = &p->inst[k];

            if (in->type == R500_US_FC) {
                fc(g, c, in, p->start + k);
            } else if (!r500_us_glsl_inst(c, g, in, why)) {
                return false;
            }
        }
        if (p->inst[i + len - 1].type != R500_US_FC) {
            g_string_append_printf(g, "        r500_pc = %uu;\n",
                                   p->start + i + len);
        }
        g_string_append(g, "        break;\n");
        if (g->len > R500_US_GLSL_MAX) {
            *why = "shader text too long";
            return false;
        }
    }
    /* every counter value the program can reach starts a block */
    g_string_append_printf(g,
        "    default:\n"
        "        r500_pc = 0xFFFFFFFFu;\n"
        "        break;\n"
        "    }\n"
        "    }\n"
        /* a loop the host's GL ended before the program did */
        "    if (r500_pc >= %uu && r500_pc <= %uu) {\n"
        "        r500_killed = true;\n"
        "    }\n", p->start, p->end);
    return true;
}
