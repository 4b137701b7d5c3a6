#!/usr/bin/env python3
"""Generates camera-like files for `make bench-headers`: JPEGs with an Exif APP1 carrying maker-note-sized
padding and a 160×120 thumbnail, an ICC profile in APP2, and a real 1024×768 scan; PNGs with eXIf, a
compressed iCCP and real IDAT data. Orientations and byte orders vary from file to file.

    generate.py OUT_DIR COUNT
"""
import os
import random
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Tools"))
import make_header_fixtures as fx  # noqa: E402


def camera_jpeg(order, thumb):
    makernote = bytes((i * 31) % 256 for i in range(24000))
    app1 = fx.exif(order, 6, ifd1_entries=[(0x0103, 3, 1, 6)], thumbnail=thumb, tail=makernote)
    return fx.encode(1024, 768, "nojfif", "q=85", markers=[(0xE1, app1)] + fx.icc_chunks(3144))


def camera_png():
    width, height = 640, 480
    raw = b"".join(b"\x01" + bytes((x * 3 + y) % 256 for x in range(width * 3)) for y in range(height))
    iccp = fx.chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(bytes(i % 97 for i in range(3144))))
    exif = fx.chunk(b"eXIf", fx.tiff("MM", [(0x0112, 3, 1, 6)]))
    return fx.png(fx.ihdr(width, height), iccp, exif, fx.chunk(b"IDAT", zlib.compress(raw, 6)))


def with_orientation(data, value):
    """Patches the first orientation tag's value (SHORT, either byte order)."""
    for tag, pack in ((b"\x12\x01\x03\x00\x01\x00\x00\x00", "<H"), (b"\x01\x12\x00\x03\x00\x00\x00\x01", ">H")):
        at = data.find(tag)
        if at >= 0:
            at += len(tag)
            return data[:at] + struct.pack(pack, value) + data[at + 2:]
    return data


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    fx.build_encoder()
    thumb = fx.encode(160, 120, "q=75")
    bases = {"II": camera_jpeg("II", thumb), "MM": camera_jpeg("MM", thumb)}
    png = camera_png()
    rng = random.Random(42)
    for i in range(count):
        orientation = rng.choice([1, 1, 1, 6, 6, 8, 3])
        if i % 5 == 4:
            name, data = f"SCR_{i:05d}.png", with_orientation(png, orientation)
        else:
            name, data = f"IMG_{i:05d}.jpg", with_orientation(bases["II" if i % 2 else "MM"], orientation)
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"generated {count} files in {out} (JPEG {len(bases['II'])} bytes, PNG {len(png)} bytes each)")


if __name__ == "__main__":
    main()
