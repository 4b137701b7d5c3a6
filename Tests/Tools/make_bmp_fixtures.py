#!/usr/bin/env python3
"""Builds the BMP fixtures in Tests/WaterfallKitTests/Fixtures/formats/bmp/ and their expected.json.

Plain bitmaps come from Pillow; what Pillow does not write (core headers, 4-bit, 16-bit, bitfields with and
without alpha, V4 and V5 headers, an embedded or linked colour profile, top-down rows, RLE8 and RLE4 with and
without skips, and hostile headers) is assembled here byte by byte. Every picture is 24×16. expected.json keeps,
for each readable file, the pixels as stored top to bottom (RGBA, hex): Pillow's decode, which is the oracle,
except where the browsers' rules differ from Pillow's and Waterfall follows the browsers (marked "rule"):
a 32-bit BI_RGB file's fourth bytes are alpha when one is not 0 (Pillow ignores them), and pixels an RLE file
skips are transparent (Pillow paints them with palette entry 0).

The output is committed; rerun this only to re-record on purpose (needs the venv: scripts/ensure-venv):
    .venv/bin/python Tests/Tools/make_bmp_fixtures.py
"""
import io
import json
import os
import shutil
import struct
import sys
import warnings

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_tiff_fixtures as tiffs  # noqa: E402  (base, fixed_date)

from PIL import ImageCms  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "Tests", "WaterfallKitTests", "Fixtures", "formats", "bmp")
Image.MAX_IMAGE_PIXELS = None
W, H = 24, 16
BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS, BI_JPEG, BI_PNG, BI_ALPHABITFIELDS = range(7)


def dib(size, width, height, bpp, compression=BI_RGB, colours=0, masks=(0, 0, 0, 0), cs_type=b"BGRs", profile=(0, 0)):
    """A DIB header of `size` bytes (12, 40, 52, 56, 64, 108 or 124)."""
    if size == 12:
        return struct.pack("<IHHHH", 12, width, height, 1, bpp)
    out = struct.pack("<IiiHHIIiiII", size, width, height, 1, bpp, compression, 0, 2835, 2835, colours, 0)
    if size >= 52:
        out += struct.pack("<III", *masks[:3])
    if size >= 56:
        out += struct.pack("<I", masks[3])
    if size == 64:
        out += bytes(8)
    if size >= 108:
        out += cs_type[::-1] + bytes(36) + bytes(12)
    if size >= 124:
        out += struct.pack("<IIII", 4, profile[0], profile[1], 0)
    return out


def bmp(header, pixels, palette=b"", after_header=b"", tail=b"", offset=None):
    """A file: the file header, the DIB header, masks after a 40-byte one, the palette, then the pixels and
    anything after them (a V5 profile)."""
    start = 14 + len(header) + len(after_header) + len(palette)
    body = header + after_header + palette + pixels + tail
    return b"BM" + struct.pack("<IHHI", 14 + len(body), 0, 0, start if offset is None else offset) + body


def padded(rows):
    return b"".join(row + bytes(-len(row) % 4) for row in rows)


def palette_of(image, entry=4):
    """An RGB palette image's palette as BMP stores it (BGR, a fourth byte for 4-byte entries)."""
    colours = image.getpalette()[:3 * len(image.getcolors())]
    return b"".join(bytes([colours[i + 2], colours[i + 1], colours[i]]) + (b"\0" if entry == 4 else b"")
                    for i in range(0, len(colours), 3))


def indices(image, bpp, rows_bottom_up=True):
    """Rows of palette indices packed at `bpp` bits, bottom row first."""
    data = image.tobytes()
    rows = []
    for y in range(H):
        values = data[y * W:(y + 1) * W]
        bits = "".join(format(v, f"0{bpp}b") for v in values)
        bits += "0" * (-len(bits) % 8)
        rows.append(bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)))
    return rows[::-1] if rows_bottom_up else rows


def rgb_rows(image, pack):
    """Rows of pixels packed by `pack(r, g, b, a)`, bottom row first."""
    rgba = image.convert("RGBA")
    return [b"".join(pack(*rgba.getpixel((x, y))) for x in range(W)) for y in reversed(range(H))]


def rle8(image, skip=False):
    """RLE8 of a ≤256-colour image, bottom row first: runs of equal indices, and an absolute run for the
    first row's first five pixels. `skip` leaves out the right four pixels of every other row (an early end
    of line) and the first three of the bottom row (a delta)."""
    data, out = image.tobytes(), bytearray()
    for row_index, y in enumerate(reversed(range(H))):
        row = data[y * W:(y + 1) * W]
        x = 0
        if skip and row_index % 2:
            row = row[:W - 4]
        if skip and row_index == 0:
            out += b"\0\2\3\0"
            x = 3
        elif row_index == 0:
            out += bytes([0, 5]) + bytes(row[:5]) + b"\0"
            x = 5
        while x < len(row):
            run = 1
            while x + run < len(row) and row[x + run] == row[x] and run < 255:
                run += 1
            out += bytes([run, row[x]])
            x += run
        out += b"\0\0"
    return bytes(out[:-2]) + b"\0\1"


def rle4(image):
    """RLE4 (16 colours): a run of each pair of alternating indices."""
    data, out = image.tobytes(), bytearray()
    for y in reversed(range(H)):
        row = data[y * W:(y + 1) * W]
        for x in range(0, W, 2):
            out += bytes([2, row[x] << 4 | row[x + 1]])
        out += b"\0\0"
    return bytes(out[:-2]) + b"\0\1"


def skipped(image):
    """What rle8(image, skip=True) leaves out, as a mask over the picture (top row first)."""
    out = set()
    for row_index, y in enumerate(reversed(range(H))):
        if row_index % 2:
            out |= {(x, y) for x in range(W - 4, W)}
        if row_index == 0:
            out |= {(x, y) for x in range(3)}
    return out


def rgba_hex(image, transparent=()):
    rgba = image.convert("RGBA")
    for x, y in transparent:
        rgba.putpixel((x, y), (0, 0, 0, 0))
    return rgba.tobytes().hex()


def alpha_picture(image):
    out = image.convert("RGBA")
    for y in range(H // 2, H):
        for x in range(W):
            r, g, b, _ = out.getpixel((x, y))
            out.putpixel((x, y), (r, g, b, x * 11))
    return out


def readable():
    """{name: (bytes, expectation)}; "rule": the expected pixels, where Waterfall follows the browsers, not
    Pillow."""
    b = tiffs.base()
    p8, p4 = b.quantize(8), b.quantize(16)
    a = alpha_picture(b)
    srgb = tiffs.fixed_date(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    pixels24 = padded(rgb_rows(b, lambda r, g, b_, a_: bytes([b_, g, r])))
    v5_pixels = padded(rgb_rows(b, lambda r, g, b_, a_: bytes([b_, g, r])))
    v5_at = 124 + len(v5_pixels)  # the profile after the pixels, from the DIB header's start
    argb = lambda r, g, b_, a_: struct.pack("<I", a_ << 24 | r << 16 | g << 8 | b_)
    return {
        "B01-rgb24.bmp": (saved(b), {}),
        "B02-palette8.bmp": (saved(p8), {}),
        "B03-gray8.bmp": (saved(b.convert("L")), {}),
        "B04-bilevel.bmp": (saved(b.convert("1")), {}),
        "B05-bgra32-alpha.bmp": (saved(a), {"alpha": True, "rule": rgba_hex(a)}),
        "B06-core-rgb24.bmp": (bmp(dib(12, W, H, 24), pixels24), {}),
        "B07-core-palette8.bmp": (bmp(dib(12, W, H, 8), padded(indices(p8, 8)), palette_of(p8, 3)), {}),
        "B08-palette4.bmp": (bmp(dib(40, W, H, 4, colours=16), padded(indices(p4, 4)), palette_of(p4) + bytes(4 * (16 - len(p4.getcolors())))), {}),
        # Masks under 8 bits: Waterfall rounds as Chromium does, Pillow truncates: one apart at most.
        "B09-rgb16-555.bmp": (bmp(dib(40, W, H, 16), padded(rgb_rows(b, lambda r, g, b_, a_: struct.pack("<H", (r >> 3) << 10 | (g >> 3) << 5 | b_ >> 3)))),
                              {"tolerance": 1}),
        "B10-rgb16-565-bitfields.bmp": (bmp(dib(40, W, H, 16, BI_BITFIELDS), padded(rgb_rows(b, lambda r, g, b_, a_: struct.pack("<H", (r >> 3) << 11 | (g >> 2) << 5 | b_ >> 3))),
                                            after_header=struct.pack("<III", 0xF800, 0x07E0, 0x001F)), {"tolerance": 1}),
        "B11-argb32-v4-bitfields.bmp": (bmp(dib(108, W, H, 32, BI_BITFIELDS, masks=(0xFF0000, 0xFF00, 0xFF, 0xFF000000)), padded(rgb_rows(a, argb))),
                                        {"alpha": True}),
        "B12-alphabitfields.bmp": (bmp(dib(40, W, H, 32, BI_ALPHABITFIELDS), padded(rgb_rows(a, argb)),
                                       after_header=struct.pack("<IIII", 0xFF0000, 0xFF00, 0xFF, 0xFF000000)),
                                   # Pillow does not read BI_ALPHABITFIELDS: the picture itself is the oracle.
                                   {"alpha": True, "rule": rgba_hex(a), "pillowRefuses": True, "width": W, "height": H}),
        "B13-bgrx32-fourth-bytes-zero.bmp": (bmp(dib(40, W, H, 32), padded(rgb_rows(b, lambda r, g, b_, a_: bytes([b_, g, r, 0])))), {}),
        "B14-top-down.bmp": (bmp(dib(40, W, -H, 24), padded(rgb_rows(b, lambda r, g, b_, a_: bytes([b_, g, r]))[::-1])), {}),
        "B15-rle8.bmp": (bmp(dib(40, W, H, 8, BI_RLE8, colours=len(p8.getcolors())), rle8(p8), palette_of(p8)), {}),
        "B16-rle4.bmp": (bmp(dib(40, W, H, 4, BI_RLE4, colours=len(p4.getcolors())), rle4(p4), palette_of(p4)), {}),
        "B17-rle8-skips.bmp": (bmp(dib(40, W, H, 8, BI_RLE8, colours=len(p8.getcolors())), rle8(p8, skip=True), palette_of(p8)),
                               {"alpha": True, "rule": rgba_hex(p8, skipped(p8))}),
        "B18-v5-embedded-icc.bmp": (bmp(dib(124, W, H, 24, cs_type=b"MBED", profile=(v5_at, len(srgb))), v5_pixels, tail=srgb),
                                    {"icc": len(srgb)}),
        "B19-v5-linked-profile.bmp": (bmp(dib(124, W, H, 24, cs_type=b"LINK", profile=(v5_at, 14)), v5_pixels, tail=b"/etc/hostname\0"), {}),
        "B20-v3-bitfields.bmp": (bmp(dib(56, W, H, 32, BI_BITFIELDS, masks=(0xFF0000, 0xFF00, 0xFF, 0)),
                                     padded(rgb_rows(b, lambda r, g, b_, a_: bytes([b_, g, r, 0x7F])))), {}),
    }


def saved(image):
    buffer = io.BytesIO()
    image.save(buffer, "BMP")
    return buffer.getvalue()


def hostile():
    b = tiffs.base()
    p8 = b.quantize(8)
    plain = saved(b)
    rle = bmp(dib(40, 15000, 15000, 8, BI_RLE8, colours=2), b"\0\1", bytes(8))
    return {
        "H01-bi-jpeg.bmp": (bmp(dib(40, W, H, 0, BI_JPEG), b"\xFF\xD8\xFF\xD9"),
                            {"error": "unsupported", "message": "unsupported BMP compression: a JPEG inside a BMP"}),
        "H02-bi-png.bmp": (bmp(dib(40, W, H, 0, BI_PNG), b"\x89PNG\r\n\x1a\n"),
                           {"error": "unsupported", "message": "unsupported BMP compression: a PNG inside a BMP"}),
        "H03-os2-v2.bmp": (bmp(dib(64, W, H, 24), bytes(W * H * 3)),
                           {"error": "unsupported", "message": "unsupported BMP: an OS/2 2.x header"}),
        "H04-truncated-in-header.bmp": (plain[:30], {"error": "truncated", "message": "truncated BMP: the file ends inside its header"}),
        "H05-truncated-in-pixels.bmp": (plain[:len(plain) - 100], {"derive": "truncated", "deriveMessage": "truncated BMP: the pixel data ends early"}),
        "H06-rle-truncated.bmp": (bmp(dib(40, W, H, 8, BI_RLE8, colours=8), rle8(p8)[:40], palette_of(p8)),
                                  {"derive": "truncated", "deriveMessage": "truncated BMP: the run-length data ends early"}),
        "H07-100000x100000.bmp": (bmp(dib(40, 100000, 100000, 24), bytes(16)),
                                  {"error": "tooLarge", "message": "100000×100000 is 10000 megapixels, over the 250-megapixel limit"}),
        "H08-rle-15000x15000.bmp": (rle, {"derive": "limit", "deriveMessage": "decoding this RLE BMP would need 859 MiB, over the 512 MiB limit",
                                          "pillowRefuses": True, "width": 15000, "height": 15000}),
        "H09-overlapping-masks.bmp": (bmp(dib(40, W, H, 16, BI_BITFIELDS), bytes(W * H * 2), after_header=struct.pack("<III", 0xF800, 0x0FE0, 0x001F)),
                                      {"error": "corrupt", "message": "corrupt BMP: colour masks"}),
        "H10-two-planes.bmp": (plain[:26] + b"\2" + plain[27:], {"error": "corrupt", "message": "corrupt BMP: 2 planes"}),
        "H11-pixels-inside-header.bmp": (bmp(dib(40, W, H, 24), bytes(W * H * 3), offset=20),
                                         {"error": "corrupt", "message": "corrupt BMP: its pixel data (at 20) starts inside its header"}),
        "H12-negative-width.bmp": (bmp(dib(40, -W, H, 24), bytes(W * H * 3)), {"error": "corrupt", "message": "corrupt BMP: a size of -24×16"}),
        "H13-rle-top-down.bmp": (bmp(dib(40, W, -H, 8, BI_RLE8, colours=8), rle8(p8), palette_of(p8)),
                                 {"error": "corrupt", "message": "corrupt BMP: a top-down image cannot be run-length coded"}),
        "H14-pixels-past-the-end.bmp": (bmp(dib(40, W, H, 24), b"", offset=1 << 20),
                                        {"error": "truncated", "message": "truncated BMP: the file ends before its pixel data"}),
    }


def pillow_pixels(path):
    with Image.open(path) as image:
        return image.convert("RGBA").tobytes().hex()


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    expected = {}
    for name, (data, expectation) in {**readable(), **hostile()}.items():
        path = os.path.join(OUT, name)
        with open(path, "wb") as handle:
            handle.write(data)
        entry = {"format": "bmp"}
        if "error" not in expectation:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if not expectation.get("pillowRefuses"):
                    with Image.open(path) as image:
                        entry.update(width=image.size[0], height=image.size[1])
                if "derive" not in expectation:
                    entry["pixels"] = expectation.get("rule") or pillow_pixels(path)
                    entry["pillow"] = "rule" not in expectation
        entry.update({k: v for k, v in expectation.items() if k != "rule"})
        expected[name] = entry
    with open(os.path.join(OUT, "expected.json"), "w") as handle:
        json.dump(expected, handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(f"{len(expected)} fixtures in {OUT}")


if __name__ == "__main__":
    main()
