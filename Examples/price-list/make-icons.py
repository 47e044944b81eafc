#!/usr/bin/env python3
"""Writes the tiny 16x16 vegetable icons price-list.rt uses (PNG via zlib; no imaging library needed)."""
import struct, zlib

def png(name, draw):
    size = 16
    rows = []
    for y in range(size):
        row = bytearray([0])  # filter: none
        for x in range(size):
            row += bytes(draw(x + 0.5, y + 0.5))
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    with open(name, "wb") as f:
        f.write(data)

def disc(cx, cy, r, color, stem=None):
    def draw(x, y):
        if stem and stem[0] <= x <= stem[1] and stem[2] <= y <= stem[3]:
            return (60, 140, 40, 255)
        if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
            return color + (255,)
        return (0, 0, 0, 0)
    return draw

png("onion.png", disc(8, 9.5, 6, (190, 120, 170), stem=(7, 9, 0.5, 4)))
png("pepper.png", disc(8, 9, 6.5, (210, 40, 30), stem=(7, 9, 0.5, 3)))
png("bean.png", disc(8, 8, 4.5, (120, 80, 40)))
png("carrot.png", lambda x, y: (235, 130, 30, 255) if abs(x - 8) <= (y - 2) * 0.35 and 3 <= y <= 15.5 and y > 3 else ((60, 140, 40, 255) if y < 3.5 and 6 <= x <= 10 else (0, 0, 0, 0)))
