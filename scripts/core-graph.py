#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The include and call graph of the chip core (hw/r500), from its sources.

docs/architecture.md draws the layers; this script reads what the code
really does and checks it against them:

  - includes: file -> file, for every #include "..." that resolves inside
    hw/r500;
  - calls: module -> module, where a module is a .c file together with the
    header of the same name beside it, and an edge means the module names a
    function (calls it, or takes its address for a table) that another
    module defines;
  - circles: strongly connected components of either graph with more than
    one node;
  - up-edges: an edge from a lower layer to a higher one (LAYERS below);
  - sizes: files over MAX_FILE_LINES, functions over MAX_FUNC_LINES;
  - placement: the host's GL (epoxy) named outside gl/;
  - report-once: a bool ..._logged flag of its own instead of r500_once.

  scripts/core-graph.py [--check] [--known FILE] [--dot includes|calls]
                        [ROOT]

Without --check it prints a report; with --check it exits 1 when there is
a circle, an up-edge or an oversize unit that FILE does not list, or when
FILE lists one that is gone (the list only shrinks: tests/graph/known.txt,
the problems the core had when the check came, until they are fixed).
tests/graph runs it in CI.
"""
import os
import re
import sys

MAX_FILE_LINES = 1200
MAX_FUNC_LINES = 150

# The block diagram, top to bottom (docs/architecture.md).  A path belongs
# to the first layer with a matching prefix; an edge may go down or stay in
# its layer, never up.
LAYERS = [
    ("board", ["qemu/"]),
    ("core", ["r500.c", "r500.h", "blocks.", "model.c", "migrate.h"]),
    ("cp", ["cp/"]),
    ("pipe", ["pipe/pipe.", "pipe/ctx.h", "pipe/draw.h", "pipe/renderer.h"]),
    ("renderers", ["pipe/soft.", "pipe/gl", "gl/"]),
    ("engines", ["vap/", "rast/", "us/", "tx/", "rb/", "disp/"]),
    ("mem", ["mem/", "hdp."]),
    ("base", ["base/", "regs/"]),
]

# Renderers stand side by side: neither names the other's functions.
RENDERERS = [["pipe/soft."], ["pipe/gl", "gl/"]]

KEYWORDS = set("""if for while switch return sizeof do else case default
typeof __typeof__ _Static_assert defined offsetof alignof _Alignof
__attribute__ G_STATIC_ASSERT QEMU_BUILD_BUG_ON""".split())

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")


def layer_of(path):
    for i, (name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if path == p or path.startswith(p):
                return i, name
    return None, None


def renderer_of(path):
    for i, prefixes in enumerate(RENDERERS):
        if any(path.startswith(p) for p in prefixes):
            return i
    return None


def strip(text):
    """Comments, strings and character constants removed, line count kept;
    preprocessor lines (with their continuations) blanked."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" 0 ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = "".join(out).split("\n")
    res, cont = [], False
    for ln in lines:
        pp = cont or ln.lstrip().startswith("#")
        cont = pp and ln.rstrip().endswith("\\")
        res.append("" if pp else ln)
    return "\n".join(res)


def parse(text):
    """Top-level function definitions (name, static, first line, last
    line) and, per definition or initialiser, the identifiers used."""
    body = strip(text)
    defs, uses = [], set()
    depth = 0
    tokens = []  # tokens at depth 0 since the last ';' or '}'
    cur = None   # the function whose body we are in
    line = 1
    for m in re.finditer(r"\n|[A-Za-z_]\w*|\d[\w.]*|\S", body):
        t = m.group(0)
        if t == "\n":
            line += 1
            continue
        if depth == 0:
            if t == "{":
                name = None
                # name ( params ) [attributes] {
                if ")" in tokens and "=" not in tokens:
                    k = tokens.index("(") if "(" in tokens else -1
                    if k > 0 and re.match(r"[A-Za-z_]\w*$", tokens[k - 1]):
                        name = tokens[k - 1]
                if name and name not in KEYWORDS:
                    cur = [name, "static" in tokens[:k], line, line]
                    defs.append(cur)
                else:
                    cur = None
                depth = 1
                tokens = []
                continue
            if t == ";":
                tokens = []
                continue
            tokens.append(t)
            if "=" in tokens and re.match(r"[A-Za-z_]\w*$", t):
                uses.add(t)   # initialisers: tables of functions
            continue
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                if cur:
                    cur[3] = line
                cur = None
                tokens = []
        elif re.match(r"[A-Za-z_]\w*$", t):
            uses.add(t)
    return defs, uses


def module_of(path):
    return os.path.splitext(path)[0]


def scan(root):
    files = {}
    for d, _, names in os.walk(root):
        for f in sorted(names):
            if f.endswith((".c", ".h")):
                p = os.path.relpath(os.path.join(d, f), root)
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    files[p] = fh.read()
    return files


def graphs(root):
    files = scan(root)
    inc = {p: set() for p in files}
    for p, text in files.items():
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            cand = [os.path.normpath(os.path.join(os.path.dirname(p), m[1])),
                    os.path.normpath(m[1])]
            for c in cand:
                if c in files and c != p:
                    inc[p].add(c)
                    break
    defs, uses = {}, {}
    glob = {}
    for p, text in files.items():
        d, u = parse(text)
        mod = module_of(p)
        defs.setdefault(mod, []).extend((p, *x) for x in d)
        uses.setdefault(mod, set()).update(u)
        for name, static, _, _ in d:
            # a header's static inline is as visible as an extern
            if not static or p.endswith(".h"):
                glob.setdefault(name, set()).add(mod)
    calls = {m: set() for m in defs}
    for mod, u in uses.items():
        local = {x[1] for x in defs[mod]}
        for name in u - local:
            for owner in glob.get(name, ()):
                if owner != mod:
                    calls[mod].add(owner)
    return files, inc, calls, defs


def sccs(g):
    """Tarjan's strongly connected components with more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def up_edges(g, ext=""):
    bad = []
    for a, bs in sorted(g.items()):
        la, na = layer_of(a + ext if ext and not a.endswith((".c", ".h"))
                          else a)
        for b in sorted(bs):
            lb, nb = layer_of(b + ext if ext and not b.endswith((".c", ".h"))
                              else b)
            if la is None or lb is None:
                bad.append((a, b, "no layer for %s" % (a if la is None
                                                       else b)))
            elif lb < la:
                bad.append((a, b, "%s -> %s" % (na, nb)))
            elif (la == lb and na == "renderers" and
                  renderer_of(a) != renderer_of(b)):
                bad.append((a, b, "one renderer -> another"))
    return bad


def mod_layer_path(mod, files):
    for ext in (".c", ".h"):
        if mod + ext in files:
            return mod + ext
    return mod


def main(argv):
    check = "--check" in argv
    dot = known_file = None
    args = [a for a in argv if a != "--check"]
    if "--known" in args:
        k = args.index("--known")
        known_file = args[k + 1]
        del args[k:k + 2]
    if "--dot" in args:
        k = args.index("--dot")
        dot = args[k + 1]
        del args[k:k + 2]
    root = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "hw", "r500")
    files, inc, calls, defs = graphs(root)
    if dot:
        g = inc if dot == "includes" else calls
        print("digraph r500 {")
        for a, bs in sorted(g.items()):
            for b in sorted(bs):
                print('  "%s" -> "%s";' % (a, b))
        print("}")
        return 0
    # calls are between modules; a module's layer is its .c (or .h) file's
    cl = {mod_layer_path(m, files): {mod_layer_path(x, files) for x in bs}
          for m, bs in calls.items()}
    problems = []
    for kind, g in (("includes", inc), ("calls", cl)):
        edges = sum(len(v) for v in g.values())
        circles = sccs(g)
        # includes: only circles (r500.h gathers every block's state, as a
        # QEMU device's state struct does); calls: circles and layers
        ups = up_edges(g) if kind == "calls" else []
        print("%s: %d nodes, %d edges, %d circles, %d up-edges"
              % (kind, len(g), edges, len(circles), len(ups)))
        problems += ["%s circle: %s" % (kind, " ".join(c)) for c in circles]
        problems += ["up: %s -> %s (%s)" % u for u in ups]
    for p, text in sorted(files.items()):
        # the host's GL only in gl/ (not built without it)
        if re.search(r'^\s*#\s*include\s*[<"]epoxy/', text, re.M) and \
                not p.startswith("gl/"):
            problems.append("placement: %s includes epoxy outside gl/" % p)
        # one report-once mechanism (base/log.c r500_once on a flags
        # word), not a flag of its own per report
        if not p.startswith("qemu/") and \
                re.search(r"\bbool\s+\w*_logged\b", strip(text)):
            problems.append("report-once: %s keeps a bool ..._logged "
                            "(use r500_once)" % p)
        n = text.count("\n")
        if n > MAX_FILE_LINES:
            problems.append("size: %s (%d lines, at most %d)"
                            % (p, n, MAX_FILE_LINES))
    for mod, ds in sorted(defs.items()):
        for p, name, _, first, last in ds:
            if last - first + 1 > MAX_FUNC_LINES:
                problems.append("size: %s %s() (%d lines, at most %d)"
                                % (p, name, last - first + 1, MAX_FUNC_LINES))
    known = set()
    if known_file:
        with open(known_file, encoding="utf-8") as fh:
            known = {ln.split(" (")[0].strip() for ln in fh
                     if ln.strip() and not ln.startswith("#")}
    keys = {x.split(" (")[0] for x in problems}
    new = [x for x in problems if x.split(" (")[0] not in known]
    fixed = sorted(known - keys)
    for x in problems:
        print(("  known " if x.split(" (")[0] in known else "  NEW ") + x)
    for x in fixed:
        print("  FIXED (take it off the known list) " + x)
    print("%d problem(s), %d of them known, %d known one(s) fixed"
          % (len(problems), len(problems) - len(new), len(fixed)))
    return 1 if check and (new or fixed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
