#!/usr/bin/env python3
"""Makes SampleGallery/Phone/: the sample gallery's photos as phones and the web store them.

Run it again only on purpose (the files are committed). Every file is made from a photo already in
SampleGallery (so CREDITS covers its source), with Debian's tools where they can write it: heif-enc
(libheif-examples) for HEIC and AVIF, cwebp (webp) for WebP; Pillow for the animated GIF. What heif-enc
cannot write (a grid as iPhones store photos, a photo stored sideways with `irot`) is assembled box by box
by the HEIF fixture script's writer. Needs Pillow and pillow-heif (PyPI), as make_heif_fixtures.py:

    python3 -m venv /tmp/v && /tmp/v/bin/pip install pillow pillow-heif
    /tmp/v/bin/python Tests/Tools/make_sample_formats.py
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_heif_fixtures as heif  # noqa: E402  (the box writer and heif-enc helpers)

REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "SampleGallery"
OUT = SOURCES / "Phone"


def upright(name: str) -> Image.Image:
    """A sample photo as it displays (its EXIF orientation applied), in RGB or RGBA."""
    from PIL import ImageOps
    image = ImageOps.exif_transpose(Image.open(SOURCES / name))
    return image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB")


def heic(image: Image.Image, scratch: Path, *options: str) -> heif.Coded:
    path = scratch / f"coded-{len(list(scratch.iterdir()))}.heic"
    heif.encode(image, path, "-q", "70", *options)
    return heif.Coded(path)


def grid_heic(image: Image.Image, tile: int, scratch: Path) -> bytes:
    """The photo cut into tile×tile HEVC tiles behind a `grid` item, as an iPhone stores a photo."""
    columns, rows = -(-image.width // tile), -(-image.height // tile)
    padded = Image.new(image.mode, (columns * tile, rows * tile))
    padded.paste(image, (0, 0))
    items = []
    for index in range(rows * columns):
        x, y = index % columns * tile, index // columns * tile
        coded = heic(padded.crop((x, y, x + tile, y + tile)), scratch)
        items.append({"id": 2 + index, "type": coded.item_type, "data": coded.data, "hidden": True,
                      "properties": [coded.config, heif.ispe(tile, tile)], "essential": [0]})
    grid = {"id": 1, "type": b"grid", "data": heif.grid_descriptor(rows, columns, image.width, image.height),
            "properties": [heif.ispe(image.width, image.height)], "essential": []}
    return heif.heif_file(b"heic", [grid] + items, 1, [(b"dimg", 1, [item["id"] for item in items])])


def sideways_heic(image: Image.Image, scratch: Path) -> bytes:
    """The photo stored a quarter turn clockwise, with `irot` turning it back (as cameras store portraits).
    Even sides: for odd ones heif-enc writes a derived item around the coded image, not one plain item."""
    image = image.crop((0, 0, image.width // 2 * 2, image.height // 2 * 2))
    coded = heic(image.transpose(Image.Transpose.ROTATE_270), scratch)
    properties = [coded.config, heif.ispe(coded.width, coded.height), heif.irot(1)]
    item = {"id": 1, "type": coded.item_type, "data": coded.data, "properties": properties, "essential": [0, 2]}
    return heif.heif_file(b"heic", [item], 1)


def animated_gif(image: Image.Image, path: Path, size: tuple[int, int], frames: int) -> None:
    """A slow pan across the photo: `frames` crops of `size`, 120 ms each, looping."""
    width, height = size
    crops = []
    for index in range(frames):
        x = round((image.width - width) * index / (frames - 1))
        y = round((image.height - height) * index / (frames - 1))
        crops.append(image.crop((x, y, x + width, y + height)).quantize(64, dither=Image.Dither.NONE))
    crops[0].save(path, save_all=True, append_images=crops[1:], duration=120, loop=0, optimize=False)


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()
    with tempfile.TemporaryDirectory() as temporary:
        scratch = Path(temporary)
        (OUT / "astronaut-grid.heic").write_bytes(grid_heic(upright("Space/astronaut.jpg"), 256, scratch))
        (OUT / "rocket-gantry-turned.heic").write_bytes(sideways_heic(upright("Space/rocket-gantry.jpg"), scratch))
        heif.encode(upright("retina-macula.jpg"), OUT / "retina-macula.avif", "-q", "60", "-A")
        png = scratch / "cutout.png"
        upright("chelsea-cutout.png").save(png)
        subprocess.run(["cwebp", "-quiet", "-q", "80", "-alpha_q", "100", "-metadata", "none", str(png),
                        "-o", str(OUT / "chelsea-cutout.webp")], check=True)
    animated_gif(upright("chelsea-the-cat.jpg"), OUT / "chelsea-pan.gif", (240, 180), 10)
    (OUT / "waterfall.json").write_text('{\n  "title": "From a phone and the web"\n}\n')
    (OUT / "chelsea-pan.txt").write_text("Chelsea the cat, in a slow pan (an animated GIF).\n")
    for path in sorted(OUT.iterdir()):
        if path.suffix in (".heic", ".avif", ".webp", ".gif"):
            with Image.open(path) as image:
                print(f"{path.relative_to(REPO)}: {image.size[0]}x{image.size[1]} {image.mode}"
                      f"{' animated, %d frames' % image.n_frames if getattr(image, 'n_frames', 1) > 1 else ''}")


if __name__ == "__main__":
    main()
