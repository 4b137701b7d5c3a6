#!/usr/bin/env python3
"""PNG files of one colour written chunk by chunk, large in pixels and small in bytes: what it costs to decode
them is the point, not what they show.

Standard library only. The image data is all zeros (filter byte 0 and samples 0 on every row, of every Adam7
pass), deflated a megabyte once and repeated (zeros_deflated), so a 15800×15800 16-bit RGBA interlaced PNG (2 GB
of rows) takes some 2 MB and a fraction of a second.

    python3 Tests/Tools/pngbytes.py OUT.png WIDTH HEIGHT [--depth 8|16] [--colour rgba|rgb|gray|palette]
                                     [--interlace]

Used by the Swift tests (TrustDecoderBudgetTests.swift) and the hostile folders (Tests/Hostile/bombs.py):
- the hostile tester's case: `OUT.png 15800 15800 --depth 16 --colour rgba --interlace` (1.9 MB; 998 MB once
  decoded to 8 bits a sample, which libpng must hold whole to put Adam7's seven passes together);
- the same image not interlaced, which a decoder can read a row at a time.
"""
from __future__ import annotations

import argparse
import struct
import zlib

# PNG colour types, and channels a pixel.
COLOURS = {"gray": (0, 1), "rgb": (2, 3), "palette": (3, 1), "rgba": (6, 4)}

# Adam7: each pass's (first column, first row, column step, row step).
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def row_bytes(width: int, depth: int, channels: int) -> int:
    """The stored bytes of one row of `width` pixels, its filter byte included."""
    return 1 + (width * depth * channels + 7) // 8


def raw_length(width: int, height: int, depth: int, channels: int, interlace: bool) -> int:
    """The inflated size of the image data: every row of every pass, each with its filter byte."""
    if not interlace:
        return height * row_bytes(width, depth, channels)
    total = 0
    for x0, y0, dx, dy in ADAM7:
        columns, rows = max(0, (width - x0 + dx - 1) // dx), max(0, (height - y0 + dy - 1) // dy)
        if columns and rows:
            total += rows * row_bytes(columns, depth, channels)
    return total


def zeros_deflated(length: int) -> bytes:
    """A zlib stream of `length` zero bytes, without deflating them all: one megabyte of zeros deflated by a
    fresh compressor and ended by a full flush (byte-aligned, no reference back) is the same bytes every
    time, so the stream repeats it, deflates the rest, and ends with the Adler-32 of n zeros, which is
    (n mod 65521) << 16 | 1."""
    block = 1 << 20

    def raw(count: int, mode: int) -> bytes:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        return compressor.compress(bytes(count)) + compressor.flush(mode)

    stream = raw(block, zlib.Z_FULL_FLUSH) * (length // block) + raw(length % block, zlib.Z_FINISH)
    return b"\x78\xda" + stream + struct.pack(">I", (length % 65521) << 16 | 1)


def png(width: int, height: int, depth: int = 8, colour: str = "rgba", interlace: bool = False) -> bytes:
    """A `width`×`height` PNG of zeros (black; transparent black with alpha; a one-entry black palette)."""
    colour_type, channels = COLOURS[colour]
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 1 if interlace else 0)
    palette = chunk(b"PLTE", bytes(3)) if colour == "palette" else b""
    data = zeros_deflated(raw_length(width, height, depth, channels, interlace))
    # IDAT in chunks of 1 MiB, as encoders write them.
    idat = b"".join(chunk(b"IDAT", data[at:at + (1 << 20)]) for at in range(0, len(data), 1 << 20))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + palette + idat + chunk(b"IEND", b"")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("--depth", type=int, default=8, choices=(1, 2, 4, 8, 16))
    parser.add_argument("--colour", default="rgba", choices=sorted(COLOURS))
    parser.add_argument("--interlace", action="store_true")
    arguments = parser.parse_args()
    with open(arguments.out, "wb") as f:
        f.write(png(arguments.width, arguments.height, arguments.depth, arguments.colour, arguments.interlace))


if __name__ == "__main__":
    main()
