#!/usr/bin/env python3
"""Makes the HEIC and AVIF fixtures in Tests/WaterfallKitTests/Fixtures/formats/heif, and expected.json.

Run it again only on purpose (the files are committed); it needs Debian's libheif-examples (heif-enc,
heif-info) and libavif-bin (avifenc: Debian's heif-enc cannot write 10-bit AVIF), and Pillow with
pillow-heif (PyPI):  python3 -m venv /tmp/v && /tmp/v/bin/pip install pillow
pillow-heif && /tmp/v/bin/python Tests/Tools/make_heif_fixtures.py

Plain stills come from heif-enc (x265 for HEIC, aom for AVIF). What heif-enc cannot write (grids as iPhones
store photos, irot, imir, clap, hostile boxes) is assembled here box by box from the coded images heif-enc
made: an ISO-BMFF writer of ftyp, meta (hdlr, pitm, iinf, iloc, iref, iprp) and mdat.

Every readable fixture's display size is checked with two independent readers before it is recorded:
pillow-heif (its own, recent libheif) and Debian's heif-info. expected.json lists, per file, the format,
display width and height, alpha, bit depth, or the error kind a reader must report.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
import pillow_heif

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heifbox import Coded, box, boxes, clap, find, full_box, grid_descriptor, heif_file, imir, irot, ispe  # noqa: E402

pillow_heif.register_heif_opener()

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "formats" / "heif"
SOURCES = REPO / "SampleGallery"


# ---------------------------------------------------------------- sources and coding

def run(*command: str) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def source(name: str, box_size: tuple[int, int] | None = None, crop: tuple[int, int, int, int] | None = None) -> Image.Image:
    image = Image.open(SOURCES / name)
    image = image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB")
    if crop:
        image = image.crop(crop)
    if box_size:
        image = image.resize(box_size, Image.LANCZOS)
    return image


def encode(image: Image.Image, path: Path, *options: str, sixteen_bit: bool = False) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        png = Path(scratch) / "in.png"
        if sixteen_bit:
            # A 16-bit RGB PNG (Pillow writes 16 bits per sample only for single channels: assemble it).
            write_png16(image, png)
        else:
            image.save(png)
        run("heif-enc", *options, str(png), "-o", str(path))


def encode_avif(image: Image.Image, path: Path, *options: str) -> None:
    """avifenc, from a 16-bit PNG so that deep AVIFs get real 10-bit samples."""
    with tempfile.TemporaryDirectory() as scratch:
        png = Path(scratch) / "in.png"
        write_png16(image, png)
        run("avifenc", "--min", "20", "--max", "30", *options, str(png), str(path))


def srgb_to_linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


BT709_TO_BT2020 = [[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]]


def nits_to_pq(nits: float) -> float:
    m1, m2, c1, c2, c3 = 2610 / 16384, 2523 / 4096 * 128, 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    y = max(nits, 0) / 10000
    return ((c1 + c2 * y ** m1) / (1 + c3 * y ** m1)) ** m2


def scene_to_hlg(e: float) -> float:
    a, b, c = 0.17883277, 0.28466892, 0.55991073
    import math
    return math.sqrt(3 * e) if e <= 1 / 12 else a * math.log(12 * e - b) + c


def as_hdr(image: Image.Image, transfer: str) -> list[list[tuple[float, float, float]]]:
    """The SDR photo as an HDR signal in BT.2020: its white at 203 cd/m² (BT.2408), encoded with PQ, or as
    HLG scene light (reference white at 75% signal, about 0.26 scene light). Samples 0-1."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            linear = [srgb_to_linear(v / 255) for v in pixels[x, y]]
            wide = [sum(BT709_TO_BT2020[r][c] * linear[c] for c in range(3)) for r in range(3)]
            if transfer == "pq":
                row.append(tuple(nits_to_pq(203 * v) for v in wide))
            else:
                row.append(tuple(scene_to_hlg(0.2647 * v) for v in wide))
        rows.append(row)
    return rows


def write_signal_png16(rows, path: Path) -> None:
    import zlib
    raw = b"".join(b"\0" + b"".join(struct.pack(">HHH", *(round(min(max(v, 0), 1) * 65535) for v in pixel)) for pixel in row)
                   for row in rows)
    width, height = len(rows[0]), len(rows)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def encode_hdr(image: Image.Image, path: Path, transfer: str, avif: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        png = Path(scratch) / "in.png"
        write_signal_png16(as_hdr(image, transfer), png)
        cicp = "9/16/9" if transfer == "pq" else "9/18/9"
        if avif:
            run("avifenc", "--min", "20", "--max", "30", "-d", "10", "-y", "420", "--cicp", cicp, str(png), str(path))
        else:
            tc = "16" if transfer == "pq" else "18"
            run("heif-enc", "-q", "60", "-b", "10", "--colour_primaries", "9", "--transfer_characteristic", tc,
                "--matrix_coefficients", "9", str(png), "-o", str(path))


def write_png16(image: Image.Image, path: Path) -> None:
    import zlib
    rgb = image.convert("RGB")
    width, height = rgb.size
    rows = []
    pixels = rgb.load()
    for y in range(height):
        row = bytearray(b"\0")
        for x in range(width):
            for value in pixels[x, y]:
                row += struct.pack(">H", value * 257)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


# ---------------------------------------------------------------- checks by independent readers

def pillow_size(path: Path) -> tuple[int, int]:
    # pillow-heif's own reader (Pillow's AVIF plugin, which Image.open would pick for .avif, leaves irot aside).
    return tuple(pillow_heif.open_heif(str(path), convert_hdr_to_8bit=False).size)


def heif_info_size(path: Path) -> tuple[int, int]:
    match = re.search(r"image: (\d+)x(\d+)", run("heif-info", str(path)))
    return int(match.group(1)), int(match.group(2))


def readable(name: str, fmt: str, width: int, height: int, alpha: bool = False, bits: int = 8, note: str = "") -> dict:
    path = OUT / name
    for reader, size in (("pillow-heif", pillow_size(path)), ("heif-info", heif_info_size(path))):
        if size != (width, height):
            sys.exit(f"{name}: {reader} shows {size[0]}×{size[1]}, not the {width}×{height} meant")
    return {"file": name, "format": fmt, "width": width, "height": height, "alpha": alpha, "bitDepth": bits,
            "checkedBy": [f"pillow-heif {pillow_heif.__version__} (libheif {pillow_heif.libheif_version()})", "heif-info (Debian libheif)"], "note": note}


def refused(name: str, kind: str, message: str, note: str) -> dict:
    return {"file": name, "error": {"kind": kind, "message": message}, "note": note}


def avif_transforms(coded: Coded) -> list[tuple[str, list[bytes], tuple[int, int], str]]:
    """AVIFs whose display needs clap, irot and imir together (libavif's route applies them itself)."""
    w, h = coded.width, coded.height
    return [
        ("clap-irot-270.avif", [clap(200, 80, 10, -4), irot(3)], (80, 200), "clap, then irot 270°"),
        ("irot-90-imir-1.avif", [irot(1), imir(1)], (h, w), "irot 90°, then imir left-right"),
        ("imir-0.avif", [imir(0)], (w, h), "imir top-bottom"),
    ]


# ---------------------------------------------------------------- the fixtures

def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected: list[dict] = []
    scratch = Path(tempfile.mkdtemp())

    # Plain stills from heif-enc.
    photo = source("chelsea-the-cat.jpg", (320, 200))
    encode(photo, OUT / "still.heic", "-q", "60")
    expected.append(readable("still.heic", "heic", 320, 200, note="a plain HEIC (x265)"))
    encode(source("chelsea-the-cat.jpg", (321, 199)), OUT / "odd-size.heic", "-q", "60")
    expected.append(readable("odd-size.heic", "heic", 321, 199, note="odd width and height"))
    encode(photo, OUT / "still.avif", "-q", "60", "-A")
    expected.append(readable("still.avif", "avif", 320, 200, note="a plain AVIF (aom)"))
    cutout = source("chelsea-cutout.png", (200, 240))
    encode(cutout, OUT / "alpha.heic", "-q", "70")
    expected.append(readable("alpha.heic", "heic", 200, 240, alpha=True, note="alpha (an auxl image)"))
    encode(cutout, OUT / "alpha.avif", "-q", "70", "-A")
    expected.append(readable("alpha.avif", "avif", 200, 240, alpha=True, note="alpha"))
    encode(photo, OUT / "ten-bit.heic", "-q", "60", "-b", "10", sixteen_bit=True)
    expected.append(readable("ten-bit.heic", "heic", 320, 200, bits=10, note="10 bits a sample"))
    encode_avif(photo, OUT / "ten-bit.avif", "-d", "10", "-y", "420", "--cicp", "1/13/6")
    expected.append(readable("ten-bit.avif", "avif", 320, 200, bits=10, note="10 bits a sample"))
    encode_hdr(photo, OUT / "hdr-pq.avif", "pq", avif=True)
    expected.append(readable("hdr-pq.avif", "avif", 320, 200, bits=10,
                             note="HDR: the photo in BT.2020 with PQ, its white at 203 cd/m²"))
    encode_hdr(photo, OUT / "hdr-hlg.avif", "hlg", avif=True)
    expected.append(readable("hdr-hlg.avif", "avif", 320, 200, bits=10, note="HDR: the photo in BT.2020 with HLG"))
    encode_avif(photo, OUT / "display-p3.avif", "-d", "8", "-y", "420", "--cicp", "12/13/6")
    expected.append(readable("display-p3.avif", "avif", 320, 200, note="nclx: Display P3 primaries, sRGB curve"))

    # EXIF with an orientation (informative in HEIF: not applied), GPS and a description: from a JPEG, whose
    # Exif heif-enc copies into an Exif item.
    with tempfile.TemporaryDirectory() as temporary:
        jpeg = Path(temporary) / "exif.jpg"
        exif = Image.Exif()
        exif[0x0112] = 6
        exif[0x010E] = "A cat, with an Exif item"
        exif[0x010F] = "Waterfall"
        exif[0x0110] = "Fixture Camera"
        gps = exif.get_ifd(0x8825)
        gps[1], gps[2], gps[3], gps[4] = "N", (48.0, 51.0, 24.0), "E", (2.0, 21.0, 7.0)
        photo.save(jpeg, exif=exif, quality=90)
        run("heif-enc", "-q", "60", str(jpeg), "-o", str(OUT / "exif.heic"))
    expected.append(readable("exif.heic", "heic", 320, 200,
                             note="an Exif item with Orientation 6 (informative only: not applied), GPS and a description"))

    # Boxes assembled here, from coded images.
    tile_h = scratch / "tile.heic"
    encode(source("chelsea-the-cat.jpg", (128, 128), crop=(100, 0, 400, 300)), tile_h, "-q", "60")
    coded = Coded(tile_h)
    still_h = scratch / "wide.heic"
    encode(source("coffee-panorama.jpg", (256, 96)), still_h, "-q", "60")
    wide = Coded(still_h)
    still_a = scratch / "wide.avif"
    encode(source("coffee-panorama.jpg", (256, 96)), still_a, "-q", "60", "-A")
    wide_av1 = Coded(still_a)

    def single(codec: Coded, extra: list[bytes], brand: bytes = b"heic") -> bytes:
        properties = [codec.config, ispe(codec.width, codec.height)] + ([codec.pixi] if codec.pixi else []) + extra
        essential = [0] + [len(properties) - len(extra) + i for i in range(len(extra))]
        item = {"id": 1, "type": codec.item_type, "data": codec.data, "properties": properties, "essential": essential}
        return heif_file(brand, [item], 1)

    w, h = wide.width, wide.height
    for turns in range(4):
        name = f"irot-{turns * 90}.heic"
        (OUT / name).write_bytes(single(wide, [irot(turns)]))
        size = (h, w) if turns % 2 else (w, h)
        expected.append(readable(name, "heic", *size, note=f"irot {turns * 90}° anticlockwise"))
    for axis in (0, 1):
        name = f"imir-{axis}.heic"
        (OUT / name).write_bytes(single(wide, [imir(axis)]))
        expected.append(readable(name, "heic", w, h, note=f"imir axis {axis}"))
    (OUT / "irot-90-imir-1.heic").write_bytes(single(wide, [irot(1), imir(1)]))
    expected.append(readable("irot-90-imir-1.heic", "heic", h, w, note="irot then imir, as the spec orders them"))
    (OUT / "clap.heic").write_bytes(single(wide, [clap(200, 80)]))
    expected.append(readable("clap.heic", "heic", 200, 80, note="a centred clean aperture"))
    (OUT / "clap-irot-270.heic").write_bytes(single(wide, [clap(200, 80, 10, -4), irot(3)]))
    expected.append(readable("clap-irot-270.heic", "heic", 80, 200, note="clap, then irot 270°"))
    (OUT / "irot-90.avif").write_bytes(single(wide_av1, [irot(1)], brand=b"avif"))
    expected.append(readable("irot-90.avif", "avif", wide_av1.height, wide_av1.width, note="AVIF with irot 90°"))
    for name, extra, size, note in avif_transforms(wide_av1):
        (OUT / name).write_bytes(single(wide_av1, extra, brand=b"avif"))
        expected.append(readable(name, "avif", *size, note=note))

    def grid(rows: int, columns: int, width: int, height: int, extra: list[bytes] = (), tile_data=None,
             declared=None) -> bytes:
        tiles = []
        for index in range(rows * columns):
            tiles.append({"id": 2 + index, "type": coded.item_type, "data": tile_data or coded.data, "hidden": True,
                          "properties": [coded.config, ispe(coded.width, coded.height)], "essential": [0]})
        dw, dh = declared or (width, height)
        grid_item = {"id": 1, "type": b"grid", "data": grid_descriptor(rows, columns, width, height),
                     "properties": [ispe(dw, dh)] + list(extra),
                     "essential": [1 + i for i in range(len(extra))]}
        return heif_file(b"heic", [grid_item] + tiles, 1, [(b"dimg", 1, [t["id"] for t in tiles])])

    (OUT / "grid-2x2.heic").write_bytes(grid(2, 2, 256, 256))
    expected.append(readable("grid-2x2.heic", "heic", 256, 256, note="a 2×2 grid of 128-pixel tiles, as iPhones store photos"))
    (OUT / "grid-3x2-cropped.heic").write_bytes(grid(2, 3, 360, 250))
    expected.append(readable("grid-3x2-cropped.heic", "heic", 360, 250,
                             note="a 3×2 grid whose output is smaller than its tiles (the right and bottom tiles padded)"))
    (OUT / "grid-irot-90.heic").write_bytes(grid(2, 3, 360, 250, [irot(1)]))
    expected.append(readable("grid-irot-90.heic", "heic", 250, 360, note="a grid turned by irot, as iPhone portraits are"))

    # Hostile files.
    whole = (OUT / "still.heic").read_bytes()
    meta_start, meta_end = find(whole, [b"meta"])
    mdat_start, _ = find(whole, [b"mdat"])
    for name, cut, kind, message, note in [
        ("truncated-in-ftyp.heic", 20, "truncated", "truncated HEIF: the file ends inside its 'ftyp' box", "cut inside ftyp"),
        ("truncated-in-meta.heic", (meta_start + meta_end) // 2, "truncated",
         "truncated HEIF: the file ends inside its 'meta' box", "cut inside meta"),
    ]:
        (OUT / name).write_bytes(whole[:cut])
        expected.append(refused(name, kind, message, note))
    # Cut inside the image data: libheif 1.15 checks every item's extent while it opens a file, so even the
    # header is refused; a browser shows nothing of it either.
    (OUT / "truncated-in-mdat.heic").write_bytes(whole[:mdat_start + (len(whole) - mdat_start) // 2])
    expected.append(refused("truncated-in-mdat.heic", "truncated", "truncated HEIF: the file ends inside its 'mdat' box",
                            "cut inside the image data"))
    garbage = bytearray(whole)
    for i in range(meta_start + 40, meta_start + 120):
        garbage[i] = 0xA5
    (OUT / "corrupt-meta.heic").write_bytes(bytes(garbage))
    expected.append(refused("corrupt-meta.heic", "corrupt", "corrupt HEIF", "80 bytes of meta overwritten"))
    # The coded image's first NAL unit claims to run past its item: the header reads, the decode fails.
    bad_data = bytearray(whole)
    bad_data[mdat_start:mdat_start + 4] = struct.pack(">I", 0x7FFFFF00)
    (OUT / "corrupt-data.heic").write_bytes(bytes(bad_data))
    expected.append({"file": "corrupt-data.heic", "format": "heic", "width": 320, "height": 200, "alpha": False,
                     "bitDepth": 8, "decodeError": {"kind": "corrupt", "message": "corrupt HEIF"},
                     "note": "a NAL unit longer than its image's data: the header reads, the decode fails"})
    huge = single(wide, [])
    huge = huge.replace(ispe(wide.width, wide.height), ispe(100000, 100000))
    (OUT / "bomb-over-libheif-limit.heic").write_bytes(huge)
    expected.append(refused("bomb-over-libheif-limit.heic", "corrupt", "corrupt HEIF",
                            "ispe claims 100000×100000: over libheif's 32768-pixel side limit, refused while parsing"))
    big = single(wide, []).replace(ispe(wide.width, wide.height), ispe(20000, 20000))
    (OUT / "bomb-over-pixel-cap.heic").write_bytes(big)
    expected.append(refused("bomb-over-pixel-cap.heic", "tooLarge", "20000×20000 is 400 megapixels",
                            "ispe claims 400 megapixels: over Waterfall's pixel cap, refused before any decoding"))
    (OUT / "grid-bomb.heic").write_bytes(grid(2, 2, 32000, 32000))
    expected.append(refused("grid-bomb.heic", "tooLarge", "32000×32000 is 1024 megapixels",
                            "a 2×2 grid of small tiles claiming a 32000×32000 output: refused by the pixel cap before any "
                            "tile is decoded"))
    (OUT / "not-heif.heic").write_bytes(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 40)
    expected.append(refused("not-heif.heic", "corrupt", "corrupt HEIF", "an ftyp and nothing else"))

    (OUT / "expected.json").write_text(json.dumps({
        "made by": "Tests/Tools/make_heif_fixtures.py",
        "fixtures": expected,
    }, indent=2, ensure_ascii=False) + "\n")
    shutil.rmtree(scratch)
    print(f"{len(expected)} fixtures in {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
