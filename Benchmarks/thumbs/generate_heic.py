#!/usr/bin/env python3
"""Generates iPhone-like 12-megapixel HEICs for `make bench-thumbs`: the camera-like photo of generate.py
(4000×3000, grain and all) cut into 512-pixel tiles, each coded by Debian's heif-enc (x265), behind a
`grid` item, as iPhones store photos; every other one a portrait turned by `irot`, with an Exif item.
Two distinct photos are coded (x265 is slow) and copied under COUNT names.

    generate_heic.py OUT_DIR COUNT
"""
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Tools"))
import generate as jpegs  # noqa: E402  (the camera-like JPEG)
import make_header_fixtures as fx  # noqa: E402
from heifbox import Coded, grid_descriptor, heif_file, irot, ispe  # noqa: E402

TILE = 512


def coded_tiles(image, scratch):
    columns, rows = -(-image.width // TILE), -(-image.height // TILE)
    padded = Image.new("RGB", (columns * TILE, rows * TILE))
    padded.paste(image, (0, 0))
    tiles = []
    for index in range(rows * columns):
        x, y = index % columns * TILE, index // columns * TILE
        png, heic = scratch / f"t{index}.png", scratch / f"t{index}.heic"
        padded.crop((x, y, x + TILE, y + TILE)).save(png)
        subprocess.run(["heif-enc", "-q", "50", str(png), "-o", str(heic)], check=True, capture_output=True)
        tiles.append(Coded(heic))
    return rows, columns, tiles


def photo(image, portrait, scratch):
    rows, columns, tiles = coded_tiles(image, scratch)
    items = [{"id": 1, "type": b"grid", "data": grid_descriptor(rows, columns, image.width, image.height),
              "properties": [ispe(image.width, image.height)] + ([irot(3)] if portrait else []),
              "essential": [1] if portrait else []}]
    items += [{"id": 2 + i, "type": t.item_type, "data": t.data, "hidden": True,
               "properties": [t.config, ispe(TILE, TILE)], "essential": [0]} for i, t in enumerate(tiles)]
    exif = b"\0\0\0\6Exif\0\0" + fx.tiff("MM", [(0x0112, 3, 1, 6 if portrait else 1)])
    exif_id = 2 + len(tiles)
    items.append({"id": exif_id, "type": b"Exif", "data": exif, "hidden": True})
    return heif_file(b"heic", items, 1, [(b"dimg", 1, [2 + i for i in range(len(tiles))]), (b"cdsc", exif_id, [1])])


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    fx.build_encoder()
    source = Image.open(io.BytesIO(fx.encode(4000, 3000, "photo", "q=90"))).convert("RGB")
    files = []
    with tempfile.TemporaryDirectory() as scratch:
        for portrait in (False, True):
            files.append(photo(source.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if portrait else source,
                               portrait, Path(scratch)))
    for i in range(count):
        with open(os.path.join(out, f"IMG_{i:04d}.HEIC"), "wb") as f:
            f.write(files[i % 2])
    print(f"generated {count} iPhone-like HEICs in {out} ({sum(map(len, files)) / 2 / 1e6:.1f} MB each)")


if __name__ == "__main__":
    main()
