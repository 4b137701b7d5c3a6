#!/usr/bin/env python3
"""Generates iPhone-like HEIC files for `make bench-headers`: a 4032×3024 photo stored as an 8×6 grid of
512-pixel HEVC tiles (coded by Debian's heif-enc), a hidden 320×240 thumbnail, a Display P3-sized ICC
profile, and an Exif item with a maker-note-sized tail; a third of them are portraits turned by `irot`
(Exif orientation 6 beside it, as iPhones write both). The tiles repeat one coded tile, so the files stay
small on disk while their boxes are what a phone writes.

    generate_heic.py OUT_DIR COUNT
"""
import os
import random
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Tools"))
import make_header_fixtures as fx  # noqa: E402
from heifbox import Coded, box, grid_descriptor, heif_file, irot, ispe  # noqa: E402

TILE, COLUMNS, ROWS, WIDTH, HEIGHT = 512, 8, 6, 4032, 3024


def coded_tile(size):
    """One HEVC-coded gradient tile of size×size, by heif-enc."""
    raw = b"".join(b"\x00" + bytes(((x + y) // 4 % 256, x // 2 % 256, y // 2 % 256)[c] for x in range(size) for c in range(3))
                   for y in range(size))
    with tempfile.TemporaryDirectory() as scratch:
        png, heic = os.path.join(scratch, "tile.png"), os.path.join(scratch, "tile.heic")
        with open(png, "wb") as f:
            f.write(fx.png(fx.ihdr(size, size), fx.chunk(b"IDAT", zlib.compress(raw, 6))))
        subprocess.run(["heif-enc", "-q", "50", png, "-o", heic], check=True, capture_output=True)
        from pathlib import Path
        return Coded(Path(heic))


def photo(tile, thumbnail, orientation):
    colr = box(b"colr", b"prof" + bytes(i % 251 for i in range(536)))
    grid_properties = [ispe(WIDTH, HEIGHT), colr] + ([irot(3)] if orientation == 6 else [])
    tiles = [{"id": 2 + i, "type": tile.item_type, "data": tile.data, "hidden": True,
              "properties": [tile.config, ispe(TILE, TILE), colr], "essential": [0]} for i in range(ROWS * COLUMNS)]
    thumb_id, exif_id = 2 + len(tiles), 3 + len(tiles)
    makernote = bytes((i * 31) % 256 for i in range(2400))
    exif = b"\0\0\0\6Exif\0\0" + fx.tiff("MM", [(0x0112, 3, 1, orientation)], tail=makernote)
    items = [{"id": 1, "type": b"grid", "data": grid_descriptor(ROWS, COLUMNS, WIDTH, HEIGHT),
              "properties": grid_properties, "essential": [2] if orientation == 6 else []}]
    items += tiles
    items.append({"id": thumb_id, "type": thumbnail.item_type, "data": thumbnail.data,
                  "properties": [thumbnail.config, ispe(thumbnail.width, thumbnail.height), colr]
                  + ([irot(3)] if orientation == 6 else []), "essential": [0]})
    items.append({"id": exif_id, "type": b"Exif", "data": exif, "hidden": True})
    references = [(b"dimg", 1, [t["id"] for t in tiles]), (b"thmb", thumb_id, [1]), (b"cdsc", exif_id, [1])]
    return heif_file(b"heic", items, 1, references)


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    tile, thumbnail = coded_tile(TILE), coded_tile(256)
    files = {orientation: photo(tile, thumbnail, orientation) for orientation in (1, 6)}
    rng = random.Random(42)
    for i in range(count):
        with open(os.path.join(out, f"IMG_{i:05d}.HEIC"), "wb") as f:
            f.write(files[rng.choice([1, 1, 6])])
    print(f"generated {count} HEIC files in {out} ({len(files[1])} bytes each)")


if __name__ == "__main__":
    main()
