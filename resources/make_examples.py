#!/usr/bin/env python3
"""Writes the image lab's example pictures (resources/examples/*.png) and the window icon.

Run from anywhere: python3 resources/make_examples.py. Standard library only, so the pictures
can be made again on any machine and checked byte for byte against the committed ones.
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(path, width, height, channels, rows):
    """rows: one bytes object per row, `channels` bytes per pixel (1 = gray, 3 = RGB, 4 = RGBA)."""
    colour_type = {1: 0, 3: 2, 4: 6}[channels]

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def zone_plate(size=1024):
    # cos(pi r^2 / size): the local frequency grows linearly from the centre to 0.5 cycles per
    # pixel (the Nyquist limit) at the middle of each edge. Any resampling error shows as rings
    # that should not be there (aliasing) or as contrast lost towards the edges (blur).
    c = size / 2 - 0.5
    rows = []
    for y in range(size):
        dy2 = (y - c) ** 2
        rows.append(bytes(round(127.5 + 127.5 * math.cos(math.pi * ((x - c) ** 2 + dy2) / size)) for x in range(size)))
    return size, size, 1, rows


def checkerboard(size=1024, cell=2):
    # Two-pixel cells: rotated by a few degrees, nearest sampling breaks them into moire and
    # bilinear turns them grey; at 0 and 90 degrees both must give them back unchanged.
    rows = []
    for y in range(size):
        rows.append(bytes(255 if ((x // cell) + (y // cell)) % 2 == 0 else 0 for x in range(size)))
    return size, size, 1, rows


def gradient(size=1024):
    # Red grows left to right and green top to bottom, four pixels a level, blue stays 128:
    # the red and green histograms are flat (4096 pixels in every bin) and the blue one is a
    # single bar, so a histogram kernel's mistakes show at a glance.
    rows = []
    for y in range(size):
        g = y * 256 // size
        rows.append(b"".join(bytes((x * 256 // size, g, 128)) for x in range(size)))
    return size, size, 3, rows


def one_colour(size=512):
    # Every pixel the same: every work-item adds to the same three bins at once, the worst
    # case for a histogram built with atomics.
    return size, size, 3, [bytes((200, 120, 40)) * size for _ in range(size)]


def icon(size):
    # A dark tile with a few bright bodies around a centre of mass: the N-body lab in 32 or 64 pixels.
    bodies = [(0.50, 0.50, 0.16, (255, 214, 120)), (0.24, 0.30, 0.07, (120, 190, 255)),
              (0.76, 0.34, 0.06, (150, 230, 180)), (0.30, 0.76, 0.06, (255, 140, 120)),
              (0.74, 0.72, 0.08, (200, 160, 255))]
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            px, py = (x + 0.5) / size, (y + 0.5) / size
            # rounded square: corners of radius 0.18 cut away
            qx, qy = max(abs(px - 0.5) - 0.32, 0.0), max(abs(py - 0.5) - 0.32, 0.0)
            if math.hypot(qx, qy) > 0.18:
                row += bytes((0, 0, 0, 0))
                continue
            r, g, b = 22, 26, 34
            for bx, by, radius, colour in bodies:
                d = math.hypot(px - bx, py - by) / radius
                glow = min(1.0, 1.6 * max(0.0, 1.0 - d) ** 0.8)
                r, g, b = (min(255, round(c + glow * (k - c))) for c, k in zip((r, g, b), colour))
            row += bytes((r, g, b, 255))
        rows.append(bytes(row))
    return size, size, 4, rows


def main():
    examples = os.path.join(HERE, "examples")
    os.makedirs(examples, exist_ok=True)
    for name, make in (("zone_plate", zone_plate), ("checkerboard", checkerboard), ("gradient", gradient),
                       ("one_colour", one_colour)):
        write_png(os.path.join(examples, name + ".png"), *make())
    for size in (32, 64):
        write_png(os.path.join(HERE, "icon-%d.png" % size), *icon(size))


if __name__ == "__main__":
    main()
