#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The chip core keeps one direction (scripts/core-graph.py,
docs/architecture.md): no circle, no call up the layers, no oversize file
or function, other than those tests/graph/known.txt still lists; and the
check itself sees a circle, an up-call and an oversize function when one
is put into a copy of the tree.  TAP."""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.normpath(os.path.join(here, "..", ".."))
script = os.path.join(top, "scripts", "core-graph.py")
core = os.path.join(top, "hw", "r500")
known = os.path.join(here, "known.txt")
results = []


def run(root, known_file=known):
    args = [sys.executable, script, "--check"]
    if known_file:
        args += ["--known", known_file]
    p = subprocess.run(args + [root], capture_output=True, text=True)
    return p.returncode, p.stdout


def ok(cond, what, detail=""):
    results.append((cond, what, detail))


rc, out = run(core)
ok(rc == 0, "hw/r500 has no circle, up-call or oversize unit beyond "
   "known.txt, and known.txt lists none that is fixed", out)
calls = [ln for ln in out.splitlines() if ln.startswith("calls:")]
ok(calls and int(calls[0].split()[1]) > 50,
   "the call graph covers the core (more than 50 modules)", out)

with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "r500")
    shutil.copytree(core, copy)
    # memory names the renderer's seam: up the layers, and with the seam's
    # own calls down into memory a circle
    with open(os.path.join(copy, "mem", "tiling.c"), "a") as f:
        f.write("\nvoid r500_graph_probe(R500Chip *s);\n"
                "void r500_graph_probe(R500Chip *s)\n{\n"
                "    r500_pipe_sync(s, 0);\n}\n")
    with open(os.path.join(copy, "pipe", "pipe.c"), "a") as f:
        f.write("\nvoid r500_graph_probe2(R500Chip *s);\n"
                "void r500_graph_probe2(R500Chip *s)\n{\n"
                "    r500_graph_probe(s);\n}\n")
    rc, out = run(copy)
    ok(rc == 1 and "NEW up: mem/tiling.c -> pipe/pipe.c" in out,
       "a call from mem/ up to pipe/ is found", out)
    ok(rc == 1 and any(ln.startswith("  NEW calls circle:") and
                       "mem/tiling.c" in ln and "pipe/pipe.c" in ln
                       for ln in out.splitlines()),
       "the circle it makes is found", out)
    body = "".join("    x += %d;\n" % i for i in range(200))
    with open(os.path.join(copy, "rast", "scan.c"), "a") as f:
        f.write("\nint r500_graph_long(int x);\nint r500_graph_long(int x)\n"
                "{\n%s    return x;\n}\n" % body)
    rc, out = run(copy)
    ok(rc == 1 and "NEW size: rast/scan.c r500_graph_long()" in out,
       "a function over the size limit is found", out)

    with open(os.path.join(copy, "us", "us.h"), "a") as f:
        f.write("\nstruct R500GraphProbe { bool probe_logged; };\n")
    rc, out = run(copy)
    ok(rc == 1 and "NEW report-once: us/us.h" in out,
       "a report-once flag of its own is found", out)

print("1..%d" % len(results))
for i, (cond, what, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if cond else "not ok", i, what))
    if not cond:
        for ln in detail.splitlines()[-40:]:
            print("# " + ln)
sys.exit(0 if all(c for c, _, _ in results) else 1)
