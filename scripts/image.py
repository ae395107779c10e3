#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Small image helpers without third-party modules: read PPM (QEMU's
screendump) and XWD (xwd -root), write PNG, find one image inside another.

    image.py png IN.ppm OUT.png      convert a screendump for docs/
"""
import struct
import sys
import zlib


class Image:
    """width x height, rgb: bytes of 3 per pixel, rows top to bottom."""

    def __init__(self, width, height, rgb):
        assert len(rgb) == width * height * 3
        self.width, self.height, self.rgb = width, height, bytes(rgb)

    def row(self, y):
        w3 = self.width * 3
        return self.rgb[y * w3:(y + 1) * w3]


def read_ppm(data):
    """Binary PPM (P6, maxval 255), as QEMU's screendump writes it."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise ValueError("not a P6 PPM with maxval 255")
    w, h = int(fields[1]), int(fields[2])
    pos += 1
    return Image(w, h, data[pos:pos + w * h * 3])


def read_xwd(data):
    """An X window dump of a TrueColor ZPixmap at 24 or 32 bits per pixel
    (what xwd -root writes for an Xvfb screen of depth 24)."""
    hdr = struct.unpack(">25I", data[:100])
    header_size, version, fmt, depth, w, h = hdr[:6]
    byte_order, bpp, bpl = hdr[7], hdr[11], hdr[12]
    red_mask, green_mask, blue_mask = hdr[15], hdr[16], hdr[17]
    ncolors = hdr[19]
    if version != 7 or fmt != 2 or bpp not in (24, 32):
        raise ValueError("unsupported XWD: version %d format %d bpp %d"
                         % (version, fmt, bpp))
    pix = data[header_size + ncolors * 12:]
    step = bpp // 8
    out = bytearray(w * h * 3)
    shifts = [(m & -m).bit_length() - 1 for m in (red_mask, green_mask,
                                                  blue_mask)]
    # byte index of each channel in a pixel (masks are whole bytes)
    idx = []
    for s in shifts:
        b = s // 8
        idx.append(b if byte_order == 0 else step - 1 - b)
    for y in range(h):
        src = pix[y * bpl:y * bpl + w * step]
        dst = bytearray(w * 3)
        for c in range(3):
            dst[c::3] = src[idx[c]::step]
        out[y * w * 3:(y + 1) * w * 3] = dst
    return Image(w, h, out)


def write_png_bytes(path, w, h, pixels, channels):
    """A PNG of w x h pixels of 3 (RGB) or 4 (RGBA) bytes, rows top down."""
    stride = w * channels
    raw = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride]
                   for y in range(h))

    def chunk(kind, body):
        c = struct.pack(">I", len(body)) + kind + body
        return c + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8,
                                           6 if channels == 4 else 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def write_png(img, path):
    write_png_bytes(path, img.width, img.height, img.rgb, 3)


def find(needle, hay):
    """(x, y) where needle appears pixel for pixel inside hay, or None."""
    if needle.width > hay.width or needle.height > hay.height:
        return None
    # anchor on the needle's most varied row, so a black first row does
    # not match everywhere
    best = max(range(needle.height),
               key=lambda y: len(set(needle.row(y)[i:i + 3] for i in
                                     range(0, needle.width * 3, 3))))
    key = needle.row(best)
    for hy in range(best, hay.height - (needle.height - best) + 1):
        row = hay.row(hy)
        pos = row.find(key)
        while pos >= 0:
            if pos % 3 == 0:
                x, y = pos // 3, hy - best
                if all(hay.row(y + r)[x * 3:(x + needle.width) * 3] ==
                       needle.row(r) for r in range(needle.height)):
                    return (x, y)
            pos = row.find(key, pos + 1)
    return None


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "png":
        with open(sys.argv[2], "rb") as f:
            write_png(read_ppm(f.read()), sys.argv[3])
    else:
        sys.exit(__doc__)
