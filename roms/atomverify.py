# SPDX-License-Identifier: GPL-2.0-or-later
"""Bytecode verifier and structure lint of a built ROM.

Rejects what the Linux interpreter would mishandle (guide sections 1.6, 2
and 7.1-7.2; rules listed in docs/atombios.md):
  * every command table decodes completely inside its declared size, every
    path ends in EOT, jump and switch targets are instruction boundaries,
    no unreachable bytes;
  * no opcode Linux lacks or mis-decodes, and only operand encodings that
    Linux and AMD's own parser read alike;
  * workspace indices below the declared workspace (or the shared 0x40-0x48
    slots), parameter-space indices inside the structure radeon passes,
    also through nested CALL_TABLE windows;
  * REG operands, after the register block, name registers of
    hw/r500/regs/r500_regs.def; PLL and MC operands registers of the
    model's indirect spaces; ID reads inside their data table.
"""
import struct

import atomisa as isa

TOP = None            # unknown value in the abstract interpretation
MAX_SET = 32          # larger value sets widen to TOP
FB_SCRATCH = 20 * 1024  # Linux's FB scratch without VRAM_UsageByFirmware


class VerifyError(Exception):
    pass


def _join(a, b):
    if a is TOP or b is TOP:
        return TOP
    u = a | b
    return u if len(u) <= MAX_SET else TOP


def _map(s, f):
    if s is TOP:
        return TOP
    return frozenset(f(v) & 0xFFFFFFFF for v in s)


class State:
    """Register block, data block and workspace values on one path."""

    def __init__(self, rb, db, ws=None):
        self.rb, self.db = rb, db
        self.ws = dict(ws or {})

    def wsval(self, i):
        if i == isa.WS_SPECIAL["regptr"]:
            return self.rb
        if i >= 0x40:
            return TOP
        return self.ws.get(i, frozenset([0]))   # WS is zeroed per call

    def copy(self):
        return State(self.rb, self.db, self.ws)

    def join(self, o):
        keys = set(self.ws) | set(o.ws)
        return State(_join(self.rb, o.rb), _join(self.db, o.db),
                     {k: _join(self.wsval(k), o.wsval(k)) for k in keys})

    def key(self):
        return (self.rb, self.db, tuple(sorted(self.ws.items(),
                                               key=lambda kv: kv[0])))


class TableInfo:
    def __init__(self, name, off, size, frev, crev, ws, ps):
        self.name, self.off, self.size = name, off, size
        self.frev, self.crev, self.ws, self.ps = frev, crev, ws, ps
        self.max_ps = -1
        self.calls = set()


class Verifier:
    def __init__(self, rom, defs, model, locs=None):
        self.rom, self.defs, self.model = rom, defs, model
        self.locs = locs or {}
        self.errors = []
        self.hdr, self.cmd_master, self.data_master = isa.atom_header(rom)
        self.cmd = isa.master_entries(rom, self.cmd_master,
                                      len(isa.COMMAND_TABLES))
        self.data = isa.master_entries(rom, self.data_master,
                                       len(isa.DATA_TABLES))
        self.regs = set(defs.regs.values())
        cmap = defs.models[model]["mc_map"]
        self.mc = {i[cmap] for i in defs.mc.values() if cmap in i}
        self.pll = set(defs.pll.values())
        self.tables = {}
        self.summaries = {}
        self.active = set()

    def error(self, table, pos, msg):
        loc = self.locs.get(table, {}).get(pos)
        where = "%s:%d: " % loc if loc else ""
        self.errors.append("%s%s+0x%x: %s" % (where, table, pos, msg))

    # ---- Per-table decoding ----

    def load_tables(self):
        for idx, off in enumerate(self.cmd):
            if not off:
                continue
            name = isa.COMMAND_TABLES[idx]
            if off + 6 > len(self.rom):
                self.error(name, 0, "header outside the ROM")
                continue
            size, frev, crev, ws, ps = isa.table_header(self.rom, off)
            t = TableInfo(name, off, size, frev, crev, ws, ps)
            self.tables[name] = t
            if size < 7 or off + size > len(self.rom):
                self.error(name, 0, "declared size %d does not fit" % size)
                continue
            abi = isa.DRIVER_ABI.get(name)
            if abi is None:
                self.error(name, 0, "not in the driver parameter catalogue "
                           "(atomisa.DRIVER_ABI): radeon never runs it")
                continue
            if abi[1] is not None and (frev, crev) not in abi[1]:
                self.error(name, 0, "revision %d.%d is not one radeon accepts"
                           % (frev, crev))
            if ws % 4:
                self.error(name, 0, "workspace size %d is not in whole dwords"
                           % ws)
            if ps % 4 or ps > abi[0]:
                self.error(name, 0, "declared parameter space %d bytes: not "
                           "dwords or beyond the %d bytes radeon passes" %
                           (ps, abi[0]))
            self._sweep(t)

    def _sweep(self, t):
        code = self.rom[t.off:t.off + t.size]
        t.insns, pos = {}, 6
        while pos < t.size:
            try:
                insn = isa.decode(code, pos, t.size)
            except isa.DecodeError as e:
                self.error(t.name, pos, str(e))
                t.insns = None
                return
            t.insns[pos] = insn
            self._static_checks(t, insn)
            pos += insn.size
        for insn in t.insns.values():
            for target in insn.targets():
                if target not in t.insns:
                    self.error(t.name, insn.pos, "jump target 0x%x is not an "
                               "instruction of the table" % target)

    def _static_checks(self, t, insn):
        if insn.op in isa.FORBIDDEN:
            self.error(t.name, insn.pos, isa.FORBIDDEN[insn.op])
        if insn.name == "set_ati_port" and insn.count != 0:
            self.error(t.name, insn.pos, "indirect I/O ports are not used")
        if insn.name == "call_table":
            if insn.count >= len(self.cmd) or not self.cmd[insn.count]:
                self.error(t.name, insn.pos, "CALL_TABLE %d: no such table" %
                           insn.count)
            else:
                t.calls.add(isa.COMMAND_TABLES[insn.count])
        if insn.name == "set_data_block" and insn.count not in (0, 255) and \
                (insn.count >= len(self.data) or not self.data[insn.count]):
            self.error(t.name, insn.pos, "SET_DATA_BLOCK %d: no such table" %
                       insn.count)
        if insn.form in ("dst_src", "operands", "mask"):
            attr = self.rom[t.off + insn.pos + 1]
            sel, d = (attr >> 3) & 7, attr >> 6
            if sel == 0 and d != 0 or 1 <= sel <= 3 and d == 3:
                self.error(t.name, insn.pos, "operand encoding %s with "
                           "destination code %d: Linux and AMD's parser "
                           "disagree" % (isa.SEL_TEXT[sel], d))
            unshifted = (isa.SEL_DWORD, isa.SEL_W0, isa.SEL_B0)
            if (insn.src.kind == isa.ARG_IMM or insn.form == "mask") and \
                    sel not in unshifted:
                self.error(t.name, insn.pos, "immediate or MASK source with a"
                           " shifted selector %s" % isa.SEL_TEXT[sel])
        for o in (insn.dst, insn.src):
            if o is None:
                continue
            if o.kind == isa.ARG_PS:
                t.max_ps = max(t.max_ps, o.value)
            elif o.kind == isa.ARG_WS:
                if o.value >= 0x40:
                    if o.value > 0x48:
                        self.error(t.name, insn.pos, "WS[0x%x] does not exist"
                                   % o.value)
                    elif o is insn.dst and o.value in (0x44, 0x45, 0x46, 0x47):
                        self.error(t.name, insn.pos, "WS[0x%x] is not written "
                                   "by these tables" % o.value)
                elif o.value >= t.ws // 4:
                    self.error(t.name, insn.pos, "WS[%d] beyond the declared "
                               "workspace of %d bytes" % (o.value, t.ws))
            elif o.kind == isa.ARG_FB:
                if o.value % 4 or o.value * 4 + 4 > FB_SCRATCH:
                    self.error(t.name, insn.pos, "FB[%d]: index must be a "
                               "multiple of 4 inside the scratch" % o.value)
            elif o.kind == isa.ARG_PLL and o.value not in self.pll:
                self.error(t.name, insn.pos, "PLL[0x%x] is not a register of "
                           "pll_regs.def" % o.value)
            elif o.kind == isa.ARG_MC and o.value not in self.mc:
                self.error(t.name, insn.pos, "MC[0x%x] is not a register of "
                           "the %s MC map" % (o.value, self.model))

    # ---- Abstract interpretation (register and data blocks) ----

    def summary(self, name, rb, db):
        """Exit (register block, data block) of a table entered with these,
        checking every REG and ID operand on the way."""
        key = (name, rb, db)
        if key in self.summaries:
            return self.summaries[key]
        t = self.tables.get(name)
        if t is None or t.insns is None:
            return TOP, TOP
        if name in self.active:
            self.error(name, 0, "recursive CALL_TABLE")
            return TOP, TOP
        self.active.add(name)
        states = {6: State(rb, db)}
        work = [6]
        out_rb, out_db = frozenset(), frozenset()
        reported = set()
        while work:
            pos = work.pop()
            insn, st = t.insns[pos], states[pos].copy()
            self._check_operands(t, insn, st, reported)
            nxt = self._transfer(t, insn, st)
            if insn.name == "eot":
                out_rb, out_db = _join(out_rb, st.rb), _join(out_db, st.db)
                continue
            succ = list(insn.targets())
            if insn.falls_through():
                succ.append(pos + insn.size)
            for s in succ:
                if s < t.size and s not in t.insns:
                    continue            # reported by the sweep
                if s >= t.size:
                    if (pos, "end") not in reported:
                        reported.add((pos, "end"))
                        self.error(name, pos, "a path runs off the end of the "
                                   "table without EOT")
                    continue
                new = nxt if s not in states else states[s].join(nxt)
                if s not in states or new.key() != states[s].key():
                    states[s] = new
                    work.append(s)
        for pos in t.insns:
            if pos not in states and (pos, "dead") not in reported:
                reported.add((pos, "dead"))
                self.error(name, pos, "unreachable instruction")
        self.active.discard(name)
        self.summaries[key] = (out_rb, out_db)
        return out_rb, out_db

    def _check_operands(self, t, insn, st, reported):
        for o in (insn.dst, insn.src):
            if o is None:
                continue
            if o.kind == isa.ARG_REG:
                if st.rb is TOP:
                    msg = "REG operand with an unknown register block"
                else:
                    bad = [(o.value + b) * 4 for b in sorted(st.rb)
                           if (o.value + b) * 4 not in self.regs]
                    msg = bad and "REG 0x%x (+ block) is not a register of " \
                        "r500_regs.def" % bad[0]
                    if o is insn.dst and insn.name != "compare" and \
                            insn.name != "test" and \
                            any(o.value + b == 0 for b in st.rb):
                        msg = "MM_INDEX written (Linux shifts the value)"
                if msg and (insn.pos, msg) not in reported:
                    reported.add((insn.pos, msg))
                    self.error(t.name, insn.pos, msg)
            elif o.kind == isa.ARG_ID:
                self._check_id(t, insn, o, st, reported)

    def _check_id(self, t, insn, o, st, reported):
        msg = None
        if st.db is TOP:
            msg = "ID operand without a known SET_DATA_BLOCK"
        else:
            for db in st.db:
                if db == 0:
                    msg = "ID operand relative to ROM offset 0"
                    continue
                size = struct.unpack_from("<H", self.rom, db)[0]
                if db == t.off:
                    size = t.size
                if o.value + 4 > size:
                    msg = "ID[0x%x] reads past its %d-byte table" % (o.value,
                                                                     size)
        if msg and (insn.pos, msg) not in reported:
            reported.add((insn.pos, msg))
            self.error(t.name, insn.pos, msg)

    def _transfer(self, t, insn, st):
        """The state after insn (tracking values only where the register
        block depends on them: whole-dword workspace arithmetic)."""
        name, dst, src = insn.name, insn.dst, insn.src
        if name == "set_reg_block":
            st.rb = frozenset([insn.count])
        elif name == "set_data_block":
            if insn.count in (0, 255):
                st.db = frozenset([0 if insn.count == 0 else t.off])
            elif insn.count < len(self.data):
                st.db = frozenset([self.data[insn.count]])
            else:
                st.db = TOP
        elif name == "call_table":
            rb, db = self.summary(isa.COMMAND_TABLES[insn.count], st.rb, st.db)
            st.rb, st.db = rb, db
        elif dst is not None and dst.kind == isa.ARG_WS and \
                insn.form != "operands":
            self._ws_write(insn, st)
        if name in ("mul", "div"):
            st.ws.pop(0x40, None)
        return st

    def _ws_write(self, insn, st):
        name, dst, src = insn.name, insn.dst, insn.src
        idx = dst.value
        val = TOP
        whole = dst.sel == isa.SEL_DWORD
        if src is not None and src.kind == isa.ARG_IMM:
            sv = frozenset([src.value])
        elif src is not None and src.kind == isa.ARG_WS and \
                src.sel == isa.SEL_DWORD:
            sv = st.wsval(src.value)
        else:
            sv = TOP
        cur = st.wsval(idx)
        if whole:
            if name == "move":
                val = sv
            elif name == "clear":
                val = frozenset([0])
            elif name in ("shift_left", "shift_right"):
                n = insn.count
                val = _map(cur, (lambda v: v << n) if name == "shift_left"
                           else (lambda v: v >> n))
            elif name == "and" and sv is not TOP and len(sv) == 1:
                m = next(iter(sv))
                if cur is TOP and bin(m).count("1") <= 4:
                    bits = [1 << b for b in range(32) if m >> b & 1]
                    val = frozenset(sum(c) for k in range(len(bits) + 1)
                                    for c in _combos(bits, k))
                else:
                    val = _map(cur, lambda v: v & m)
            elif name in ("or", "add", "sub", "xor") and sv is not TOP \
                    and cur is not TOP:
                f = {"or": lambda a, b: a | b, "add": lambda a, b: a + b,
                     "sub": lambda a, b: a - b, "xor": lambda a, b: a ^ b}
                val = frozenset(f[name](a, b) & 0xFFFFFFFF
                                for a in cur for b in sv)
                if len(val) > MAX_SET:
                    val = TOP
        if idx == isa.WS_SPECIAL["regptr"]:
            st.rb = val
        elif idx == isa.WS_SPECIAL["dataptr"]:
            st.db = val
        elif idx < 0x40:
            st.ws[idx] = val

    # ---- Whole-ROM checks ----

    def check_windows(self):
        """PS use of every table, through nested calls, inside what radeon
        passes to the table it called."""
        for name, (alloc, _) in isa.DRIVER_ABI.items():
            if name in self.tables:
                self._window(name, name, 0, alloc // 4, [])

    def _window(self, root, name, off, limit, chain):
        t = self.tables[name]
        if t.insns is None or name in chain:
            return
        if off + t.max_ps + 1 > limit:
            self.error(name, 0, "uses PS[%d] at dword %d of the %d-dword "
                       "structure radeon passes to %s" %
                       (t.max_ps, off + t.max_ps, limit, root))
        for callee in sorted(t.calls):
            self._window(root, callee, off + t.ps // 4, limit, chain + [name])

    def run(self):
        self.load_tables()
        for name in sorted(self.tables):
            self.summary(name, frozenset([0]), TOP)
        self.check_windows()
        self.errors += check_structure(self.rom, self.defs, self.model)
        return self.errors


def _combos(items, k):
    if k == 0:
        yield ()
        return
    for i in range(len(items)):
        for rest in _combos(items[i + 1:], k - 1):
            yield (items[i],) + rest


def check_structure(rom, defs, model):
    """Guide 1.6 / 7.1 lint of the whole option ROM."""
    errs = []
    if rom[0:2] != b"\x55\xaa":
        return ["no 55 AA signature"]
    size = rom[2] * 512
    if size != len(rom):
        errs.append("size byte says %d bytes, ROM has %d" % (size, len(rom)))
    if sum(rom[:size]) & 0xFF:
        errs.append("checksum of the image is not 0")
    pcir = struct.unpack_from("<H", rom, 0x18)[0]
    if rom[pcir:pcir + 4] != b"PCIR" or pcir % 4:
        return errs + ["no dword-aligned PCIR at 0x%x" % pcir]
    vendor, device = struct.unpack_from("<HH", rom, pcir + 4)
    if (vendor, device) != (0x1002, defs.models[model]["device_id"]):
        errs.append("PCIR IDs %04x:%04x are not the model's" % (vendor, device))
    if struct.unpack_from("<H", rom, pcir + 0x10)[0] * 512 != size:
        errs.append("PCIR image length does not match the size byte")
    if rom[pcir + 0x14] != 0:
        errs.append("PCIR code type is not 0 (x86)")
    if not rom[pcir + 0x15] & 0x80:
        errs.append("PCIR last-image flag is clear")
    if rom[pcir + 0x0D:pcir + 0x10] != b"\x00\x00\x03":
        errs.append("PCIR class code is not VGA")
    try:
        hdr, cmd_master, data_master = isa.atom_header(rom)
    except ValueError as e:
        return errs + [str(e)]
    for what, off, n in (("command", cmd_master, len(isa.COMMAND_TABLES)),
                         ("data", data_master, len(isa.DATA_TABLES))):
        if off + 4 + 2 * n > size:
            errs.append("master %s table outside the image" % what)
            return errs
        for i, e in enumerate(isa.master_entries(rom, off, n)):
            if e and e + struct.unpack_from("<H", rom, e)[0] > size:
                errs.append("%s table %d ends outside the image" % (what, i))
    msg = struct.unpack_from("<H", rom, hdr + 0x10)[0]
    name = rom[msg:msg + 64].lstrip(b"\r\n")
    n = 0
    while n < len(name) and 0x2E <= name[n] <= 0x7A:
        n += 1
    if n < 4:
        errs.append("boot message is empty under the '.'..'z' rule")
    data = isa.master_entries(rom, data_master, len(isa.DATA_TABLES))
    need = ("FirmwareInfo", "IndirectIOAccess", "SupportedDevicesInfo",
            "GPIO_I2C_Info")
    for t in need:
        if not data[isa.DATA_TABLES.index(t)]:
            errs.append("data table %s missing" % t)
    if errs:
        return errs
    iio = data[isa.DATA_TABLES.index("IndirectIOAccess")]
    end = iio + struct.unpack_from("<H", rom, iio)[0]
    p = iio + 4
    while p < end and rom[p] == 1:          # atom_index_iio's walk
        p += 2
        while p < end and rom[p] != 9:
            p += [1, 2, 3, 3, 3, 3, 4, 4, 4, 3][min(rom[p], 9)]
        p += 3
    if p >= end or rom[p] == 1:
        errs.append("IndirectIOAccess is not terminated inside the table")
    gpio = data[isa.DATA_TABLES.index("GPIO_I2C_Info")]
    gsize = struct.unpack_from("<H", rom, gpio)[0]
    if (gsize - 4) % 27:
        errs.append("GPIO_I2C_Info size %d is not 4 + 27 n" % gsize)
    ids = {rom[gpio + 4 + 27 * i + 16] for i in range((gsize - 4) // 27)}
    fw = data[isa.DATA_TABLES.index("FirmwareInfo")]
    sclk, mclk = struct.unpack_from("<II", rom, fw + 8)
    vco_max = struct.unpack_from("<I", rom, fw + 0x20)[0]
    ref = struct.unpack_from("<H", rom, fw + 0x52)[0]
    if not (sclk and mclk and vco_max and ref):
        errs.append("FirmwareInfo clocks, reference or max PLL output is 0")
    sd = data[isa.DATA_TABLES.index("SupportedDevicesInfo")]
    mask = struct.unpack_from("<H", rom, sd + 4)[0]
    for i in range(10):
        if mask >> i & 1 and rom[sd + 6 + 2 * i + 1] not in ids:
            errs.append("SupportedDevicesInfo device %d uses I2C id 0x%02x "
                        "absent from GPIO_I2C_Info" % (i, rom[sd + 7 + 2 * i]))
    return errs
