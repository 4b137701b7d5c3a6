#!/usr/bin/env python3
"""Builds the TIFF fixtures in Tests/WaterfallKitTests/Fixtures/formats/tiff/ and their expected.json.

Real files come from Pillow (its own libtiff: LZW, Deflate, PackBits, JPEG, ZSTD, pages, CMYK, alpha, ICC,
BigTIFF); what Pillow will not write (16-bit RGB, tiles, separate planes, the IFD after the image data with an
Exif IFD, an IFD chain that loops, old-style JPEG, DNG, headers claiming sizes no file holds) is assembled by
tiffbytes.py. Every picture is tiny (24×16, or 16×24 turned): expected.json keeps, for each readable one,
Pillow's decode of it as stored (RGBA, hex), the oracle the Swift tests hold Waterfall's decoder to, and its
display size with the Orientation tag applied (Pillow's exif_transpose), which `make formats-test` checks
against Pillow and `waterfall inspect` again.

The output is committed; rerun this only to re-record on purpose (needs the venv: scripts/ensure-venv):
    .venv/bin/python Tests/Tools/make_tiff_fixtures.py
"""
import io
import json
import os
import shutil
import struct
import sys
import warnings

from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tiffbytes as t  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "Tests", "WaterfallKitTests", "Fixtures", "formats", "tiff")
Image.MAX_IMAGE_PIXELS = None
W, H = 24, 16
DESCRIPTION = "A heron at dawn, as a TIFF"


def base():
    """24×16: four quadrants of distinct colours and a gradient along the top row, so that any mirror or turn
    shows."""
    image = Image.new("RGB", (W, H))
    colours = [(220, 40, 30), (30, 180, 60), (40, 60, 210), (240, 220, 40)]
    for y in range(H):
        for x in range(W):
            image.putpixel((x, y), colours[(y >= H // 2) * 2 + (x >= W // 2)])
    for x in range(W):
        image.putpixel((x, 0), (x * 10, 255 - x * 10, 128))
    return image


def smooth():
    """24×16 gradients, for JPEG (flat quadrants ring)."""
    image = Image.new("RGB", (W, H))
    for y in range(H):
        for x in range(W):
            image.putpixel((x, y), (40 + x * 8, 60 + y * 10, 200 - x * 4))
    return image


def saved(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "TIFF", **options)
    return buffer.getvalue()


# The inverse of each orientation: stored such that turning it by the tag gives the base picture upright.
STORED = {1: lambda i: i, 2: lambda i: i.transpose(Image.FLIP_LEFT_RIGHT), 3: lambda i: i.transpose(Image.ROTATE_180),
          4: lambda i: i.transpose(Image.FLIP_TOP_BOTTOM), 5: lambda i: i.transpose(Image.TRANSPOSE),
          6: lambda i: i.transpose(Image.ROTATE_90), 7: lambda i: i.transpose(Image.TRANSVERSE),
          8: lambda i: i.transpose(Image.ROTATE_270)}


def rows_of(image, bits=8):
    """Raw rows of an RGB image, 8 or 16 bits a sample (16: each 8-bit value v as v × 257, little-endian)."""
    data = image.tobytes()
    if bits == 16:
        data = b"".join(struct.pack("<H", v * 257) for v in data)
    step = len(data) // image.height
    return [data[y * step:(y + 1) * step] for y in range(image.height)]


def exif_entries():
    """IFD0's facts and an Exif IFD, and a GPS IFD whose values must never surface."""
    exif = [(0x9003, t.ASCII, b"2024:05:17 08:30:12\0"), (0x9011, t.ASCII, b"+02:00\0"),
            (0x829A, t.RATIONAL, [(1, 250)]), (0x829D, t.RATIONAL, [(4, 1)]), (0x8827, t.SHORT, [400]),
            (0x920A, t.RATIONAL, [(50, 1)]), (0xA434, t.ASCII, b"RF24-105mm F4 L IS USM\0")]
    gps = [(1, t.ASCII, b"N\0"), (2, t.RATIONAL, [(47, 1), (37, 1), (1234, 100)]), (0x12, t.ASCII, b"WGS-84 SECRET\0")]
    return [(0x010E, t.ASCII, DESCRIPTION.encode() + b"\0"), (0x010F, t.ASCII, b"Canon\0"),
            (0x0110, t.ASCII, b"Canon EOS R5\0"), (t.EXIF_IFD, t.LONG, ("ifd", exif)), (t.GPS_IFD, t.LONG, ("ifd", gps))]


def readable():
    """{name: (bytes, expectation)} of files Waterfall reads."""
    b, s = base(), smooth()
    srgb = fixed_date(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    cases = {
        "T01-plain.tif": (saved(b), {}),
        "T02-lzw.tif": (saved(b, compression="tiff_lzw"), {}),
        "T03-deflate.tif": (saved(b, compression="tiff_adobe_deflate"), {}),
        "T04-packbits.tif": (saved(b, compression="packbits"), {}),
        "T05-jpeg.tif": (saved(s, compression="jpeg", quality=95), {"tolerance": 3}),
        "T06-zstd.tif": (saved(b, compression="zstd"), {}),
        "T07-icc.tif": (saved(b, compression="tiff_lzw", icc_profile=srgb), {"icc": len(srgb)}),
        "T08-pages.tif": (saved(b, save_all=True, append_images=[Image.new("RGB", (40, 30), "red"), Image.new("RGB", (8, 8))]),
                          {"pages": 3}),
        "T09-gray.tif": (saved(b.convert("L"), compression="tiff_lzw"), {"gray": True}),
        "T10-cmyk.tif": (saved(b.convert("CMYK")), {"tolerance": 2, "cmyk": True}),
        # libtiff associates the colour with the alpha and Waterfall undoes it: off by one at most.
        "T11-alpha.tif": (saved(alpha_image(b), compression="tiff_adobe_deflate"), {"alpha": True, "tolerance": 1}),
        "T12-gray-alpha.tif": (saved(alpha_image(b).convert("LA")), {"alpha": True, "gray": True}),
        "T13-palette.tif": (saved(b.quantize(8)), {}),
        "T14-bilevel.tif": (saved(b.convert("1")), {"gray": True}),
        "T15-gray16.tif": (saved(gray16(b)), {"gray": True, "bits": 16, "tolerance": 1}),
        "T16-rgb16-big-endian.tif": (t.tiff(W, H, [swap16(r) for r in rows_of(b, 16)], order="MM", bits=16),
                                     {"bits": 16, "tolerance": 1}),
        "T17-ifd-after-data-exif.tif": (t.tiff(W, H, rows_of(b), order="MM", rows_per_strip=5, first=False,
                                               extra=exif_entries()),
                                        {"exif": {"make": "Canon", "model": "Canon EOS R5", "description": DESCRIPTION,
                                                  "date": "2024-05-17T08:30:12+02:00"}}),
        # 48×40 in 32×32 tiles: four, padded at the right and the bottom.
        "T18-tiled.tif": (tiled(b.resize((48, 40), Image.NEAREST), 32), {}),
        # libtiff 4.5 refuses an uncompressed tile whose size is not a multiple of 1024 bytes when the file is
        # read rather than mapped (tif_read.c compares the tile's size with its read buffer, rounded up to
        # 1 KiB): a 16×16 RGB tile is 768 bytes. Recorded, so that the day libtiff reads it this fails.
        "T22-tiles-16x16-uncompressed.tif": (tiled(b, 16), {"derive": "corrupt",
                                                             "deriveMessage": "corrupt TIFF: invalid tile byte count"}),
        "T19-separate-planes.tif": (planes(b), {}),
        "T20-bigtiff.tif": (saved(b, big_tiff=True), {}),
        "T21-ifd-loop.tif": (t.tiff(W, H, rows_of(b), next_ifd="self"), {}),
    }
    for orientation in range(1, 9):
        cases[f"T3{orientation}-orientation-{orientation}.tif"] = (
            saved(STORED[orientation](b), tiffinfo={274: orientation}), {"orientation": orientation})
    return cases


def fixed_date(profile):
    """LittleCMS stamps a profile with the time it was made: a fixed date (2024-01-01) and no profile ID, so
    that the fixtures are the same bytes on every run."""
    return profile[:24] + struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + profile[36:84] + bytes(16) + profile[100:]


def alpha_image(image):
    out = image.convert("RGBA")
    for y in range(H):
        for x in range(W):
            r, g, b_, _ = out.getpixel((x, y))
            out.putpixel((x, y), (r, g, b_, (x * 11) % 256 if y >= H // 2 else 255))
    return out


def gray16(image):
    out = Image.new("I;16", image.size)
    for y in range(H):
        for x in range(W):
            out.putpixel((x, y), image.convert("L").getpixel((x, y)) * 257)
    return out


def swap16(row):
    return b"".join(row[i + 1:i + 2] + row[i:i + 1] for i in range(0, len(row), 2))


def tiled(image, size):
    """Tiles of size×size (the last ones padded), uncompressed."""
    w = t.Writer()
    W, H = image.size
    raw, tiles = image.tobytes(), []
    for ty in range(0, H, size):
        for tx in range(0, W, size):
            tile = b""
            for y in range(ty, ty + size):
                for x in range(tx, tx + size):
                    tile += raw[(y * W + x) * 3:(y * W + x) * 3 + 3] if x < W and y < H else b"\0\0\0"
            tiles.append(tile)
    entries = [(t.WIDTH, t.LONG, [W]), (t.HEIGHT, t.LONG, [H]), (t.BITS, t.SHORT, [8, 8, 8]),
               (t.COMPRESSION, t.SHORT, [1]), (t.PHOTOMETRIC, t.SHORT, [2]), (t.SAMPLES, t.SHORT, [3]),
               (t.TILE_WIDTH, t.SHORT, [size]), (t.TILE_LENGTH, t.SHORT, [size]),
               (t.TILE_BYTES, t.LONG, [len(x) for x in tiles]), (t.TILE_OFFSETS, t.LONG, ("data", tiles))]
    return w.finish(w.ifd(entries))


def planes(image):
    """PlanarConfiguration 2: all reds, then greens, then blues, one strip each."""
    w = t.Writer()
    bands = [band.tobytes() for band in image.split()]
    entries = [(t.WIDTH, t.LONG, [W]), (t.HEIGHT, t.LONG, [H]), (t.BITS, t.SHORT, [8, 8, 8]),
               (t.COMPRESSION, t.SHORT, [1]), (t.PHOTOMETRIC, t.SHORT, [2]), (t.SAMPLES, t.SHORT, [3]),
               (t.ROWS_PER_STRIP, t.LONG, [H]), (t.PLANAR, t.SHORT, [2]),
               (t.STRIP_BYTES, t.LONG, [len(x) for x in bands]), (t.STRIP_OFFSETS, t.LONG, ("data", bands))]
    return w.finish(w.ifd(entries))


def hostile():
    """{name: (bytes, expectation)}: refused by the header reader ("error", "message"), or read and then refused
    by the decoder ("derive", "deriveMessage"), never a crash, a hang or a library's own output."""
    b = base()
    plain = saved(b)
    garbage = bytes((i * 37 + 11) % 256 for i in range(600))
    one = [b"\0" * 4]

    def entries(width, height, **options):
        return t.image_entries(width, height, strips=options.pop("strips", one),
                               rows_per_strip=options.pop("rows_per_strip", height), **options)

    def file(entry_list, **options):
        w = t.Writer()
        return w.finish(w.ifd(entry_list, **options))

    unsupported = {"error": "unsupported"}
    return {
        "H01-old-style-jpeg.tif": (file(entries(W, H, compression=6, strips=[garbage])),
                                   {**unsupported, "message": "unsupported TIFF compression: old-style JPEG"}),
        "H02-jbig.tif": (file(entries(W, H, compression=34661, strips=[garbage])),
                         {**unsupported, "message": "unsupported TIFF compression: JBIG"}),
        "H03-dng.dng": (file(entries(W, H, extra=[(t.DNG_VERSION, t.BYTE, b"\x01\x04\x00\x00"), (t.SUBFILE, t.LONG, [1])])),
                        {**unsupported, "message": "unsupported TIFF: a DNG camera raw file"}),
        "H04-reduced-resolution.tif": (file(entries(W, H, extra=[(t.SUBFILE, t.LONG, [1])])),
                                       {**unsupported, "message": "unsupported TIFF: its first image is a reduced-resolution preview"}),
        "H05-float.tif": (file(entries(W, H, samples=1, bits=32, photometric=1, extra=[(t.SAMPLE_FORMAT, t.SHORT, [3])])),
                          {**unsupported, "message": "unsupported TIFF: floating-point samples"}),
        # A strip table that claims a billion strips, lying past the end of the file: loaded on demand, never
        # allocated; the first strip's offset cannot be read.
        "H06-billion-strips.tif": (file(entries(W, H, rows_per_strip=1, extra=[
            (t.STRIP_OFFSETS, t.LONG, ("offset", 1 << 30)), (t.STRIP_BYTES, t.LONG, ("offset", 1 << 30))])),
            {"derive": "truncated"}),
        # 100000×100000 from a 128-byte file: refused by the pixel cap from its header.
        "H07-100000x100000.tif": (file(entries(100000, 100000, rows_per_strip=1, extra=[
            (t.STRIP_OFFSETS, t.LONG, ("offset", 1 << 30)), (t.STRIP_BYTES, t.LONG, ("offset", 1 << 30))])),
            {"error": "tooLarge", "message": "100000×100000 is 10000 megapixels, over the 250-megapixel limit"}),
        # 20000×10000 (under the pixel cap) in one LZW strip: a band of 10,000 rows would need 1335 MiB.
        "H08-one-strip-200-megapixels.tif": (file(entries(20000, 10000, compression=5, strips=[garbage])),
                                             {"derive": "limit", "deriveMessage": "decoding this TIFF would need",
                                              "pillowRefuses": True}),
        "H09-corrupt-lzw.tif": (file(entries(W, H, compression=5, strips=[garbage])), {"derive": "corrupt"}),
        "H10-truncated-in-data.tif": (plain[:len(plain) - 200], {"derive": "truncated"}),
        "H11-truncated-before-ifd.tif": (t.tiff(W, H, rows_of(b), first=False)[:600],
                                         {"error": "truncated", "message": "truncated TIFF: the file ends"}),
        "H12-ifd-past-the-end.tif": (b"II*\x00" + struct.pack("<I", 1 << 20) + b"\0" * 32,
                                     {"error": "truncated", "message": "truncated TIFF: the file ends"}),
        "H13-no-ifd.tif": (b"II*\x00\x00\x00\x00\x00" + b"\0" * 32, {"error": "corrupt", "message": "corrupt TIFF: it has no first directory (IFD0 at offset 0)"}),
    }


def pillow_pixels(path, expectation):
    """Pillow's decode as stored, RGBA: Pillow turns a TIFF upright as it loads it, so the picture is turned
    back by the tag's inverse. 16-bit gray is scaled as libtiff scales it (Pillow would clip)."""
    with Image.open(path) as image:
        image.load()
        if image.mode == "I;16":
            data = image.tobytes()
            gray = Image.new("L", image.size)
            gray.putdata([round(v / 257) for v in struct.unpack(f"<{len(data) // 2}H", data)])
            upright = gray.convert("RGBA")
        else:
            upright = image.convert("RGBA")
        return STORED[expectation.get("orientation", 1)](upright).tobytes().hex()


def display_size(path):
    """The size Pillow gives: Pillow turns a TIFF upright by its Orientation tag as it opens it."""
    with Image.open(path) as image:
        return image.size


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    expected = {}
    for name, (data, expectation) in {**readable(), **hostile()}.items():
        path = os.path.join(OUT, name)
        with open(path, "wb") as handle:
            handle.write(data)
        entry = {"format": "tiff"}
        if "error" not in expectation:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if expectation.get("pillowRefuses"):
                    width, height = struct_size(data)
                else:
                    width, height = display_size(path)
            entry.update(width=width, height=height, orientation=expectation.get("orientation", 1))
            if "derive" not in expectation:
                entry["pixels"] = pillow_pixels(path, expectation)
        entry.update({k: v for k, v in expectation.items() if k != "orientation"})
        expected[name] = entry
    with open(os.path.join(OUT, "expected.json"), "w") as handle:
        json.dump(expected, handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(f"{len(expected)} fixtures in {OUT}")


def struct_size(data):
    """Width and height from IFD0 of a little-endian TIFF of ours (for files Pillow refuses to open)."""
    at = struct.unpack("<I", data[4:8])[0]
    count = struct.unpack("<H", data[at:at + 2])[0]
    tags = {}
    for i in range(count):
        tag, type_, _, value = struct.unpack("<HHII", data[at + 2 + 12 * i:at + 14 + 12 * i])
        tags[tag] = value if type_ == t.LONG else value & 0xFFFF
    return tags[t.WIDTH], tags[t.HEIGHT]


if __name__ == "__main__":
    main()
