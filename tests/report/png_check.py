# SPDX-License-Identifier: Apache-2.0
"""Is a PNG screenshot more than a blank page? Decodes it with zlib alone
(8-bit RGB or RGBA, the five filters) and requires at least MIN_COLOURS
distinct colours and MIN_INK of the pixels away from white.
   python3 png_check.py FILE.png   -> prints the counts; exit 1 if blank."""
import struct
import sys
import zlib

MIN_COLOURS = 16
MIN_INK = 0.005


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise SystemExit("%s: not 8-bit RGB(A) (depth %d, colour type %d)" % (path, depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        yield width, height, [tuple(line[i:i + 3]) for i in range(0, stride, bpp)]
        prev = line


def main():
    colours, ink, total, size = set(), 0, 0, None
    for w, h, row in pixels(sys.argv[1]):
        size = (w, h)
        for px in row[::2]:
            colours.add(px)
            total += 1
            ink += min(px) < 235
    share = ink / total if total else 0
    print("%dx%d: %d colours, %.1f%% of pixels not white" % (size[0], size[1], len(colours), 100 * share))
    if len(colours) < MIN_COLOURS or share < MIN_INK:
        print("blank: fewer than %d colours or under %.0f%% ink" % (MIN_COLOURS, 100 * MIN_INK))
        sys.exit(1)


main()
