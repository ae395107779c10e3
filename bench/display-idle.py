#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Host CPU cost of an (almost) idle 1024x768x32 screen on the r500 card.

    bench/display-idle.py BUILD_DIR [SECONDS]

Starts a guest-less q35 machine under the qtest accelerator with the card
and a VNC display, sets a mode through qtest register writes, connects a
minimal VNC client that keeps asking for updates like a viewer, and
measures the QEMU process's CPU time (/proc/PID/stat) over SECONDS (30),
and its resident set at the end (/proc/PID/status).  bench/run.py runs it
as part of the benchmark (docs/bench.md).

A VNC server that sees no change backs off to one refresh per 3 s, so the
measured screens have one pixel that changes every 10 ms (a blinking
text cursor, in effect): the display refreshes at QEMU's 30 ms GUI rate
while almost nothing changes.  Cases:

  baseline     the same pixel writes, no VNC client (no refreshes at all)
  vga          1024x768x32 through the VGA core (Bochs VBE registers)
  native       1024x768x32 AVIVO scanout of D1 (the driver's fbdev mode)
  native-full  the same, but a LUT entry is rewritten with its own value
               every 30 ms, so every refresh converts the whole frame
               although nothing changes: what the dirty tracking saves
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import base64

VRAM = 0xC0000000
MMIO = 0xD0000000
IOBAR = 0xC000

# Register offsets, from hw/r500/regs/*.def through the one reader.
REGS = {}


def load_regs(src):
    sys.path.insert(0, os.path.join(src, "roms"))
    import r500defs
    REGS.update(r500defs.default_defs(src).regs)


class QTest:
    def __init__(self, sock):
        self.f = sock.makefile("rw")

    def cmd(self, line):
        self.f.write(line + "\n")
        self.f.flush()
        while True:
            reply = self.f.readline().strip()
            if reply.startswith("OK"):
                return reply
            if reply.startswith("FAIL") or reply.startswith("ERR"):
                raise RuntimeError(f"qtest: {line!r}: {reply}")
            # IRQ notifications and the like

    def outl(self, port, v):
        self.cmd(f"outl 0x{port:x} 0x{v:x}")

    def outw(self, port, v):
        self.cmd(f"outw 0x{port:x} 0x{v:x}")

    def outb(self, port, v):
        self.cmd(f"outb 0x{port:x} 0x{v:x}")

    def inb(self, port):
        return int(self.cmd(f"inb 0x{port:x}").split()[1], 16)

    def inl(self, port):
        return int(self.cmd(f"inl 0x{port:x}").split()[1], 16)

    def writel(self, addr, v):
        self.cmd(f"writel 0x{addr:x} 0x{v:x}")

    def wreg(self, name, v):
        self.writel(MMIO + REGS[name], v)

    def b64write(self, addr, data):
        self.cmd(f"b64write 0x{addr:x} 0x{len(data):x} "
                 + base64.b64encode(data).decode())


def pci_setup(qt):
    """Find the card on bus 0, place its BARs, enable it."""
    for dev in range(32):
        addr = 0x80000000 | dev << 11
        qt.outl(0xCF8, addr)
        if qt.inl(0xCFC) & 0xFFFF == 0x1002:
            for reg, val in ((0x10, VRAM), (0x14, IOBAR), (0x18, MMIO)):
                qt.outl(0xCF8, addr | reg)
                qt.outl(0xCFC, val)
            qt.outl(0xCF8, addr | 0x04)
            qt.outl(0xCFC, 0x7)
            return
    raise RuntimeError("no r500 card found")


def fill_pattern(qt):
    row = bytearray()
    for x in range(1024):
        row += struct.pack("<I", (x * 0x010203) & 0xFFFFFF)
    for y in range(0, 768, 64):
        qt.b64write(VRAM + y * 4096, bytes(row) * 64)


def native_mode(qt):
    """SetPixelClock + SetCRTC_UsingDTDTiming + set_base, DAC A on."""
    for name, v in (("EXT1_PPLL_REF_DIV", 9), ("EXT1_PPLL_FB_DIV", 130 << 16),
                    ("EXT1_PPLL_POST_DIV", 6), ("P1PLL_CNTL", 0),
                    ("D1CRTC_H_TOTAL", 0x53F),
                    ("D1CRTC_H_BLANK_START_END", 0x01280528),
                    ("D1CRTC_V_TOTAL", 0x325),
                    ("D1CRTC_V_BLANK_START_END", 0x00230323),
                    ("D1VGA_CONTROL", 0),
                    ("D1GRPH_PRIMARY_SURFACE_ADDRESS", 0),
                    ("D1GRPH_CONTROL", 2), ("D1GRPH_X_END", 1024),
                    ("D1GRPH_Y_END", 768), ("D1GRPH_PITCH", 1024),
                    ("D1GRPH_ENABLE", 1),
                    ("D1MODE_VIEWPORT_SIZE", 1024 << 16 | 768),
                    ("DACA_SOURCE_SELECT", 0), ("DACA_ENABLE", 1),
                    ("D1CRTC_CONTROL", 1)):
        qt.wreg(name, v)


def vga_mode(qt):
    """Bochs VBE 1024x768x32 with a linear framebuffer, video on."""
    qt.inb(0x3DA)
    qt.outb(0x3C0, 0x20)
    for index, v in ((1, 1024), (2, 768), (3, 32), (4, 0x41 | 0x80)):
        qt.outw(0x1CE, index)
        qt.outw(0x1CF, v)


def vnc_client(port):
    """RFB 3.8, no security, raw + DesktopSize; returns the socket."""
    s = socket.create_connection(("127.0.0.1", port))
    s.recv(12)
    s.sendall(b"RFB 003.008\n")
    n = s.recv(1)[0]
    s.recv(n)
    s.sendall(b"\x01")
    assert struct.unpack(">I", recv_all(s, 4))[0] == 0
    s.sendall(b"\x01")
    w, h = struct.unpack(">HH", recv_all(s, 4))
    recv_all(s, 16)
    recv_all(s, struct.unpack(">I", recv_all(s, 4))[0])
    s.sendall(struct.pack(">BxHii", 2, 2, 0, -223))
    return s, w, h


def recv_all(s, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


UPDATES = [0, 0]      # framebuffer updates, rectangles received


def vnc_pump(s, size, deadline):
    """Ask for incremental updates and read them until deadline."""
    while time.monotonic() < deadline:
        s.settimeout(max(deadline - time.monotonic(), 0.001))
        try:
            t = recv_all(s, 1)[0]
        except socket.timeout:
            return size
        s.settimeout(None)
        if t == 0:
            nrects = struct.unpack(">xH", recv_all(s, 3))[0]
            UPDATES[0] += 1
            UPDATES[1] += nrects
            for _ in range(nrects):
                x, y, w, h, enc = struct.unpack(">HHHHi", recv_all(s, 12))
                if enc == -223:
                    size = (w, h)
                else:
                    recv_all(s, w * h * 4)
            s.sendall(struct.pack(">BBHHHH", 3, 1, 0, 0, *size))
        elif t == 2:
            pass
        elif t == 3:
            recv_all(s, struct.unpack(">xxxI", recv_all(s, 7))[0])
        else:
            raise RuntimeError(f"VNC message {t}")
    return size


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    """Resident set of the process now, MiB (/proc/PID/status VmRSS)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_case(qemu, src, case, seconds, vnc_display):
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "qtest.sock")
    lsock = socket.socket(socket.AF_UNIX)
    lsock.bind(path)
    lsock.listen(1)
    proc = subprocess.Popen([qemu, "-machine", "q35", "-accel", "qtest",
                             "-qtest", "unix:" + path, "-qtest-log", "/dev/null",
                             "-m", "128",
                             "-nodefaults", "-vga", "none",
                             "-device", "r500",
                             "-display", f"vnc=127.0.0.1:{vnc_display}"],
                            stdout=subprocess.DEVNULL)
    conn, _ = lsock.accept()
    qt = QTest(conn)
    pci_setup(qt)
    fill_pattern(qt)
    if case.startswith("native"):
        native_mode(qt)
    elif case == "vga":
        vga_mode(qt)
    vnc = None
    size = (1024, 768)
    if case != "baseline":
        time.sleep(0.5)
        vnc, w, h = vnc_client(5900 + vnc_display)
        size = (w, h)
        vnc.sendall(struct.pack(">BBHHHH", 3, 1, 0, 0, *size))
    time.sleep(1)
    start = cpu_seconds(proc.pid)
    end_time = time.monotonic() + seconds
    blink = 0
    while time.monotonic() < end_time:
        tick = time.monotonic() + 0.01
        blink += 1
        qt.writel(VRAM + 384 * 4096 + 512 * 4, blink & 0xFFFFFF)
        if case == "native-full":
            # LUT entry 0 rewritten with its value: nothing on screen
            # changes, but the scanout is redrawn from scratch.
            qt.wreg("DC_LUT_RW_INDEX", 0)
            qt.wreg("DC_LUT_30_COLOR", 0)
        if vnc:
            size = vnc_pump(vnc, size, tick)
        else:
            time.sleep(max(0, tick - time.monotonic()))
    used = cpu_seconds(proc.pid) - start
    rss = rss_mib(proc.pid)
    updates = UPDATES[0]
    UPDATES[0] = UPDATES[1] = 0
    proc.terminate()
    proc.wait()
    return used / seconds * 100, updates / seconds, rss


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    qemu = os.path.join(build, "qemu/build/qemu-system-x86_64")
    load_regs(src)
    for i, case in enumerate(("baseline", "vga", "native", "native-full")):
        pct, rate, rss = run_case(qemu, src, case, seconds, 70 + i)
        print(f"{case:12s} {pct:6.2f} % of one host CPU over {seconds:.0f} s, "
              f"{rate:5.1f} VNC updates/s, RSS {rss:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
