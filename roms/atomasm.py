# SPDX-License-Identifier: GPL-2.0-or-later
"""Assembler for the card's AtomBIOS: readable sources in, ATOM image out.

The source syntax is described in docs/atombios.md.  The assembler parses
roms/atom/*.atom, resolves register names through hw/r500/regs/*.def,
encodes the data and command tables and lays out the ATOM image at its
final ROM offset (every ATOM pointer is an absolute 16-bit ROM offset).
roms/atomverify.py then checks the encoded result.
"""
import ast
import os
import re
import struct

import atomisa as isa

FIELD_SUFFIX = re.compile(r"^(.*?)\s*\[\s*(\d+)\s*:\s*(\d+)\s*\]$")
SEL_BY_RANGE = {(31, 0): 0, (15, 0): 1, (23, 8): 2, (31, 16): 3,
                (7, 0): 4, (15, 8): 5, (23, 16): 6, (31, 24): 7}
SPACES = {"ps": isa.ARG_PS, "ws": isa.ARG_WS, "fb": isa.ARG_FB,
          "pll": isa.ARG_PLL, "mc": isa.ARG_MC, "id": isa.ARG_ID}
# A whole name: not part of a longer one, not a field after a dot.
NAME_RE = r"(?<![\w.])%s(?!\w)"
HEADER_SIZE = 0x24
TABLE_ALIGN = 4


class AsmError(Exception):
    def __init__(self, loc, msg):
        super().__init__("%s:%d: %s" % (loc[0], loc[1], msg) if loc else msg)
        self.loc = loc


class Opnd:
    def __init__(self, kind, value, sel, text):
        self.kind, self.value, self.sel, self.text = kind, value, sel, text


class DataTable:
    def __init__(self, name, loc):
        self.name, self.loc = name, loc
        self.index = isa.DATA_TABLES.index(name)
        self.frev = self.crev = None
        self.items = []          # (type, name, expr text, at, loc)
        self.fields = {}         # name -> [offset]
        self.offset = None       # ROM offset once laid out
        self.data = None


class CmdTable:
    def __init__(self, name, loc):
        self.name, self.loc = name, loc
        self.index = isa.COMMAND_TABLES.index(name)
        self.frev = self.crev = None
        self.ws_dwords = 0
        self.ps_bytes = 0
        self.lines = []          # (text, loc, defines)
        self.offset = None
        self.code = None         # encoded table, header included
        self.locs = {}           # table-relative offset -> source loc


def split_args(text):
    """Split at top-level commas (not inside brackets or parentheses)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def strip_comment(line):
    out, quoted = "", False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            break
        out += ch
    return out.rstrip()


class Assembler:
    def __init__(self, defs, model):
        self.defs, self.model = defs, model
        self.consts = {}
        self.macros = {}
        self.data = {}
        self.cmds = {}
        self.message = None
        self.expansions = 0

    # ---- Sources ----

    def load(self, path):
        self._parse(self._read(path, set()))

    def _read(self, path, seen):
        path = os.path.normpath(path)
        if path in seen:
            raise AsmError(None, "%s included twice" % path)
        seen.add(path)
        out = []
        with open(path) as f:
            for n, raw in enumerate(f, 1):
                line = strip_comment(raw).strip()
                m = re.match(r'^include\s+"([^"]+)"$', line)
                if m:
                    out += self._read(os.path.join(os.path.dirname(path),
                                                   m.group(1)), seen)
                elif line:
                    out.append((line, (path, n)))
        return out

    def _parse(self, lines):
        it = iter(lines)
        for line, loc in it:
            word = line.split()[0]
            if word == "const":
                m = re.match(r"^const\s+(\w+)\s*=\s*(.+)$", line)
                if not m:
                    raise AsmError(loc, "const NAME = EXPRESSION")
                if m.group(1) in self.consts:
                    raise AsmError(loc, "const %s defined twice" % m.group(1))
                self.consts[m.group(1)] = self.eval(m.group(2), loc)
            elif word == "message":
                m = re.match(r'^message\s+"([^"]*)"$', line)
                if not m:
                    raise AsmError(loc, 'message "TEXT"')
                self.message = m.group(1).replace("{MODEL}",
                                                  self.model.upper())
            elif word == "macro":
                m = re.match(r"^macro\s+(\w+)\s*\(([^)]*)\)$", line)
                if not m:
                    raise AsmError(loc, "macro NAME(PARAM, ...)")
                body = self._block(it, loc, "endm")
                self.macros[m.group(1)] = (split_args(m.group(2)), body)
            elif word in ("data", "table"):
                m = re.match(r"^(data|table)\s+(\w+)$", line)
                if not m:
                    raise AsmError(loc, "%s NAME" % word)
                body = self._block(it, loc, "end")
                if word == "data":
                    self._parse_data(m.group(2), body, loc)
                else:
                    self._parse_cmd(m.group(2), body, loc)
            else:
                raise AsmError(loc, "unexpected '%s' at top level" % word)

    @staticmethod
    def _block(it, loc, end):
        body = []
        for line, l2 in it:
            if line == end:
                return body
            body.append((line, l2))
        raise AsmError(loc, "missing '%s'" % end)

    def _revision(self, t, line, loc):
        m = re.match(r"^revision\s+(\d+)\s+(\d+)$", line)
        if not m:
            raise AsmError(loc, "revision FREV CREV")
        t.frev, t.crev = int(m.group(1)), int(m.group(2))

    def _parse_data(self, name, body, loc):
        if name not in isa.DATA_TABLES:
            raise AsmError(loc, "no data table called %s" % name)
        t = DataTable(name, loc)
        for line, l2 in body:
            if line.startswith("revision"):
                self._revision(t, line, l2)
                continue
            m = re.match(r"^(u8|u16|u32)\s+(\w+)\s*=\s*(.+?)(?:\s+@\s*(\S+))?$",
                         line)
            p = re.match(r"^pad\s+(\d+)$", line)
            if m:
                t.items.append((m.group(1), m.group(2), m.group(3),
                                m.group(4), l2))
            elif p:
                t.items.append(("pad", None, p.group(1), None, l2))
            else:
                raise AsmError(l2, "expected 'u8|u16|u32 NAME = VALUE [@OFF]'"
                               " or 'pad N'")
        if t.frev is None:
            raise AsmError(loc, "data %s has no revision" % name)
        self._layout_fields(t)
        self.data[name] = t

    @staticmethod
    def _layout_fields(t):
        off = 4
        for typ, name, expr, at, loc in t.items:
            if at is not None and int(at, 0) != off:
                raise AsmError(loc, "%s is at offset 0x%x, not %s" %
                               (name, off, at))
            if name:
                t.fields.setdefault(name, []).append(off)
            off += int(expr) if typ == "pad" else int(typ[1:]) // 8
        t.size = off

    def _parse_cmd(self, name, body, loc):
        if name not in isa.COMMAND_TABLES:
            raise AsmError(loc, "no command table called %s" % name)
        t = CmdTable(name, loc)
        defines = {}
        for line, l2 in self._expand(body, 0):
            m = re.match(r"^(\w+)\s+(.*)$", line)
            key = m.group(1) if m else line
            if key == "revision":
                self._revision(t, line, l2)
            elif key == "workspace":
                t.ws_dwords = self.eval(m.group(2), l2)
            elif key == "params":
                t.ps_bytes = self.eval(m.group(2), l2)
            elif key == "define":
                d = re.match(r"^define\s+(\w+)\s+(.+)$", line)
                if not d:
                    raise AsmError(l2, "define NAME OPERAND")
                defines = dict(defines)
                defines[d.group(1)] = d.group(2).strip()
            else:
                t.lines.append((line, l2, defines))
        if t.frev is None:
            raise AsmError(loc, "table %s has no revision" % name)
        self.cmds[name] = t

    def _expand(self, body, depth):
        if depth > 8:
            raise AsmError(body[0][1] if body else None, "macros nest too deep")
        out = []
        for line, loc in body:
            m = re.match(r"^(\w+)\s*\((.*)\)$", line)
            if not m or m.group(1) not in self.macros:
                out.append((line, loc))
                continue
            params, mbody = self.macros[m.group(1)]
            args = split_args(m.group(2))
            if len(args) != len(params):
                raise AsmError(loc, "%s takes %d arguments" %
                               (m.group(1), len(params)))
            self.expansions += 1
            text = []
            subst = dict(zip(params, args))
            pat = NAME_RE % "(%s)" % "|".join(map(re.escape, params))
            for l2, loc2 in mbody:
                if params:
                    l2 = re.sub(pat, lambda m: subst[m.group(1)], l2)
                l2 = re.sub(r"%(\w+)", r"\1__m%d" % self.expansions, l2)
                text.append((l2, loc))
            out += self._expand(text, depth + 1)
        return out

    # ---- Expressions ----

    def eval(self, text, loc):
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError:
            raise AsmError(loc, "bad expression '%s'" % text)
        return self._ev(tree.body, loc)

    def reg_dword(self, name, loc):
        off = self.defs.regs.get(name)
        if off is None:
            raise AsmError(loc, "no register %s in r500_regs.def" % name)
        return off // 4

    def _ev(self, n, loc):
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            if n.id in self.consts:
                return self.consts[n.id]
            return self.reg_dword(n.id, loc)
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            return self.reg_dword("%s[%d]" % (n.value.id,
                                              self._ev(n.slice, loc)), loc)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            base, field = n.value.id, n.attr
            if base in self.data:
                offs = self.data[base].fields.get(field, [])
                if len(offs) != 1:
                    raise AsmError(loc, "%s.%s names %d fields" %
                                   (base, field, len(offs)))
                return offs[0]
            try:
                return self.defs.field_mask(base, field)
            except KeyError as e:
                raise AsmError(loc, str(e))
        if isinstance(n, ast.BinOp):
            a, b = self._ev(n.left, loc), self._ev(n.right, loc)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b,
                   ast.Mult: lambda: a * b, ast.FloorDiv: lambda: a // b,
                   ast.Mod: lambda: a % b, ast.LShift: lambda: a << b,
                   ast.RShift: lambda: a >> b, ast.BitOr: lambda: a | b,
                   ast.BitAnd: lambda: a & b, ast.BitXor: lambda: a ^ b}
            if type(n.op) in ops:
                return ops[type(n.op)]()
        if isinstance(n, ast.UnaryOp):
            v = self._ev(n.operand, loc)
            ops = {ast.USub: -v, ast.UAdd: v, ast.Invert: ~v}
            if type(n.op) in ops:
                return ops[type(n.op)]
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            return self._call(n, loc)
        raise AsmError(loc, "unsupported expression: %s" % ast.dump(n))

    def _call(self, n, loc):
        f = n.func.id
        if f == "model":
            for kw in n.keywords:
                if kw.arg == self.model:
                    return self._ev(kw.value, loc)
            raise AsmError(loc, "model() has no value for %s" % self.model)
        args = [self._ev(a, loc) for a in n.args]
        if f == "lsb" and len(args) == 1 and args[0] > 0:
            return (args[0] & -args[0]).bit_length() - 1
        if f == "ilog2" and len(args) == 1 and args[0] > 0 \
                and args[0] & (args[0] - 1) == 0:
            return args[0].bit_length() - 1
        raise AsmError(loc, "bad call %s(%s)" % (f, args))

    # ---- Operands ----

    def operand(self, text, loc, defines):
        for name, repl in defines.items():
            text = re.sub(NAME_RE % re.escape(name), lambda _: repl, text)
        text = text.strip()
        sel = None
        m = FIELD_SUFFIX.match(text)
        if m and (int(m.group(2)), int(m.group(3))) in SEL_BY_RANGE:
            text, sel = m.group(1), SEL_BY_RANGE[(int(m.group(2)),
                                                 int(m.group(3)))]
        m = re.match(r"^(ps|ws|fb|pll|mc|id)\s*\[(.*)\]$", text)
        if m:
            kind, inner = SPACES[m.group(1)], m.group(2).strip()
            if kind == isa.ARG_WS and inner in isa.WS_SPECIAL:
                value = isa.WS_SPECIAL[inner]
            elif kind == isa.ARG_PLL:
                if inner not in self.defs.pll:
                    raise AsmError(loc, "no PLL register %s" % inner)
                value = self.defs.pll[inner]
            elif kind == isa.ARG_MC:
                try:
                    value = self.defs.mc_index(self.model, inner)
                except KeyError as e:
                    raise AsmError(loc, str(e))
            else:
                value = self.eval(inner, loc)
            return Opnd(kind, value, sel or 0, text)
        name = re.sub(r"\s+", "", text)
        if name in self.defs.regs:
            off = self.defs.regs[name]
            return Opnd(isa.ARG_REG, off // 4, sel or 0, text)
        if sel is not None:
            raise AsmError(loc, "an immediate has no field: %s" % text)
        return Opnd(isa.ARG_IMM, self.eval(text, loc), None, text)

    # ---- Encoding ----

    @staticmethod
    def _pack(value, width, loc):
        if not -(1 << (8 * width)) <= value < (1 << (8 * width)):
            raise AsmError(loc, "value 0x%x does not fit %d bytes" %
                           (value, width))
        value &= (1 << (8 * width)) - 1
        return value.to_bytes(width, "little")

    def _opnd_bytes(self, o, sel, loc):
        if o.kind in (isa.ARG_REG, isa.ARG_ID):
            return self._pack(o.value, 2, loc)
        if o.kind == isa.ARG_IMM:
            return self._pack(o.value, isa.SEL_BYTES[sel], loc)
        return self._pack(o.value, 1, loc)

    @staticmethod
    def _imm_sel(dsel):
        """(source selector, d) of an immediate for a destination field:
        immediates use the unshifted selectors (dword, [15:0], [7:0]) so
        Linux and AMD's parser read them alike (docs/atombios.md)."""
        if dsel == isa.SEL_DWORD:
            return isa.SEL_DWORD, 0
        if dsel <= isa.SEL_W16:
            return isa.SEL_W0, dsel - 1
        return isa.SEL_B0, dsel - 4

    def _attr(self, dst, src, loc):
        """attr byte for dst <- src (or op1, op2)."""
        if src.kind == isa.ARG_IMM:
            ssel, d = self._imm_sel(dst.sel)
            src.sel = ssel
        else:
            ssel = src.sel
            d = [d for d in range(4) if isa.DST_TO_SRC[ssel][d] == dst.sel
                 and (ssel != 0 or d == 0) and not (1 <= ssel <= 3 and d == 3)]
            if not d:
                raise AsmError(loc, "cannot combine %s%s with %s%s: source and"
                               " destination fields must have the same width"
                               % (dst.text, isa.SEL_TEXT[dst.sel], src.text,
                                  isa.SEL_TEXT[ssel]))
            d = d[0]
        return src.kind | (ssel << 3) | (d << 6)

    def _dst(self, o, loc, mnem):
        if o.kind not in isa.DST_KINDS:
            raise AsmError(loc, "%s cannot have %s as its first operand" %
                           (mnem, o.text))
        return isa.DST_KINDS.index(o.kind)

    def encode_insn(self, t, text, loc, defines, fixups, pos):
        m = re.match(r"^(\w+)\s*(.*)$", text)
        mnem, rest = m.group(1), m.group(2)
        args = split_args(rest)
        ops = lambda: [self.operand(a, loc, defines) for a in args]

        def want(n):
            if len(args) != n:
                raise AsmError(loc, "%s takes %d operands" % (mnem, n))

        if mnem in isa.FAMILIES:
            base, form = isa.FAMILIES[mnem]
            if form in ("dst_src", "operands"):
                want(2)
                dst, src = ops()
                op = base + self._dst(dst, loc, mnem)
                attr = self._attr(dst, src, loc)
                return (bytes([op, attr]) + self._opnd_bytes(dst, 0, loc) +
                        self._opnd_bytes(src, src.sel, loc))
            if form == "shift":
                want(2)
                dst = self.operand(args[0], loc, defines)
                op = base + self._dst(dst, loc, mnem)
                attr = isa.ARG_IMM | (dst.sel << 3) | \
                    (isa.DEF_DST[dst.sel] << 6)
                return (bytes([op, attr]) + self._opnd_bytes(dst, 0, loc) +
                        self._pack(self.eval(args[1], loc), 1, loc))
            if form == "clear":
                want(1)
                dst = self.operand(args[0], loc, defines)
                op = base + self._dst(dst, loc, mnem)
                attr = (dst.sel << 3) | (isa.DEF_DST[dst.sel] << 6)
                return bytes([op, attr]) + self._opnd_bytes(dst, 0, loc)
            if form == "mask":
                want(3)
                dst = self.operand(args[0], loc, defines)
                mask = self.eval(args[1], loc)
                src = self.operand(args[2], loc, defines)
                op = base + self._dst(dst, loc, mnem)
                attr = self._attr(dst, src, loc)
                return (bytes([op, attr]) + self._opnd_bytes(dst, 0, loc) +
                        self._pack(mask, isa.SEL_BYTES[src.sel], loc) +
                        self._opnd_bytes(src, src.sel, loc))
        if mnem in isa.JUMPS:
            want(1)
            fixups.append((pos + 1, args[0], loc))
            return bytes([isa.JUMPS[mnem], 0, 0])
        if mnem == "switch":
            if len(args) < 2:
                raise AsmError(loc, "switch SOURCE, VALUE: LABEL, ...")
            src = self.operand(args[0], loc, defines)
            if src.kind == isa.ARG_IMM:
                raise AsmError(loc, "switch on an immediate")
            out = bytes([0x42, src.kind | (src.sel << 3)]) + \
                self._opnd_bytes(src, src.sel, loc)
            for case in args[1:]:
                c = re.match(r"^(.+?)\s*:\s*(\w+)$", case)
                if not c:
                    raise AsmError(loc, "switch case VALUE: LABEL")
                out += bytes([isa.CASE_MAGIC]) + self._pack(
                    self.eval(c.group(1), loc), isa.SEL_BYTES[src.sel], loc)
                fixups.append((pos + len(out), c.group(2), loc))
                out += b"\0\0"
            return out + struct.pack("<H", isa.CASE_END)
        if mnem in isa.SINGLES:
            op, form = isa.SINGLES[mnem]
            if form == "":
                want(0)
                return bytes([op])
            want(1)
            if mnem == "call_table":
                if args[0] not in isa.COMMAND_TABLES:
                    raise AsmError(loc, "no command table %s" % args[0])
                return bytes([op, isa.COMMAND_TABLES.index(args[0])])
            if mnem == "set_data_block":
                if args[0] == "this":
                    return bytes([op, 255])
                if args[0] not in isa.DATA_TABLES:
                    raise AsmError(loc, "no data table %s" % args[0])
                return bytes([op, isa.DATA_TABLES.index(args[0])])
            if form in ("u8", "u16"):
                return bytes([op]) + self._pack(self.eval(args[0], loc),
                                                1 if form == "u8" else 2, loc)
        raise AsmError(loc, "unknown instruction '%s'" % mnem)

    def encode_cmd(self, t):
        code = bytearray(6)
        labels, fixups = {}, []
        for text, loc, defines in t.lines:
            m = re.match(r"^(\w+):$", text)
            if m:
                if m.group(1) in labels:
                    raise AsmError(loc, "label %s defined twice" % m.group(1))
                labels[m.group(1)] = len(code)
                continue
            t.locs[len(code)] = loc
            code += self.encode_insn(t, text, loc, defines, fixups, len(code))
        for at, label, loc in fixups:
            if label not in labels:
                raise AsmError(loc, "no label %s in %s" % (label, t.name))
            struct.pack_into("<H", code, at, labels[label])
        if len(code) > 0xFFFF:
            raise AsmError(t.loc, "table too large")
        struct.pack_into("<HBBBB", code, 0, len(code), t.frev, t.crev,
                         4 * t.ws_dwords, t.ps_bytes)
        t.code = bytes(code)
        t.labels = labels

    def encode_data(self, t):
        out = bytearray(4)
        for typ, name, expr, at, loc in t.items:
            if typ == "pad":
                out += bytes(int(expr))
            else:
                out += self._pack(self.eval(expr, loc), int(typ[1:]) // 8, loc)
        struct.pack_into("<HBB", out, 0, len(out), t.frev, t.crev)
        t.data = bytes(out)

    # ---- Layout ----

    def build(self, base, subsystem, pcir_offset):
        """The ATOM image, to be placed at ROM offset base."""
        if self.message is None:
            raise AsmError(None, "no boot message")
        for t in self.data.values():
            self.encode_data(t)
        for t in self.cmds.values():
            self.encode_cmd(t)
        img = bytearray(HEADER_SIZE)
        msg_off = base + len(img)
        img += b"\r\n" + self.message.encode("ascii") + b"\r\n\0"

        def align():
            while (base + len(img)) % TABLE_ALIGN:
                img.append(0)

        align()
        cmd_master = base + len(img)
        img += bytes(4 + 2 * len(isa.COMMAND_TABLES))
        data_master = base + len(img)
        img += bytes(4 + 2 * len(isa.DATA_TABLES))
        for t in sorted(self.data.values(), key=lambda t: t.index):
            align()
            t.offset = base + len(img)
            img += t.data
        for t in sorted(self.cmds.values(), key=lambda t: t.index):
            align()
            t.offset = base + len(img)
            img += t.code
        if base + len(img) > 0x10000:
            raise AsmError(None, "ATOM image ends past 64 KiB")
        rel = lambda off: off - base
        struct.pack_into("<HBB", img, rel(cmd_master),
                         4 + 2 * len(isa.COMMAND_TABLES), 1, 1)
        struct.pack_into("<HBB", img, rel(data_master),
                         4 + 2 * len(isa.DATA_TABLES), 1, 1)
        for t in self.cmds.values():
            struct.pack_into("<H", img, rel(cmd_master) + 4 + 2 * t.index,
                             t.offset)
        for t in self.data.values():
            struct.pack_into("<H", img, rel(data_master) + 4 + 2 * t.index,
                             t.offset)
        hdr = struct.pack("<HBB4sHHHHHHHHHHHHHBB", HEADER_SIZE, 1, 1, b"ATOM",
                          0xC000, 0, 0, 0, msg_off, 0, 0, 0, subsystem[0],
                          subsystem[1], pcir_offset, cmd_master, data_master,
                          0, 0)
        img[0:HEADER_SIZE] = hdr
        return bytes(img)


def assemble(defs, model, main_source, base, subsystem, pcir_offset):
    """Parse, encode and lay out; returns the Assembler (image in .image)."""
    asm = Assembler(defs, model)
    asm.load(main_source)
    asm.image = asm.build(base, subsystem, pcir_offset)
    asm.base = base
    return asm
