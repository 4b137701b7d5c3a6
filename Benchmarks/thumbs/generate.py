#!/usr/bin/env python3
"""Generates camera-like 12-megapixel JPEGs for `make bench-thumbs`: photo-like content with grain (about
5 MB at quality 90), an Exif APP1 with maker-note-sized data and a thumbnail, an ICC profile; landscape and
portrait, one in five progressive (as exported for the web; cameras write baseline), orientations 1, 3, 6, 8.

    generate.py OUT_DIR COUNT
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "headers"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Tools"))
import generate as headers  # noqa: E402  (with_orientation)
import make_header_fixtures as fx  # noqa: E402


def camera(width, height, *options, thumb):
    makernote = bytes((i * 31) % 256 for i in range(24000))
    app1 = fx.exif("II", 6, ifd1_entries=[(0x0103, 3, 1, 6)], thumbnail=thumb, tail=makernote)
    return fx.encode(width, height, "photo", "nojfif", "q=90", *options, markers=[(0xE1, app1)] + fx.icc_chunks(3144))


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    fx.build_encoder()
    thumb = fx.encode(160, 120, "q=75")
    variants = [
        camera(4000, 3000, thumb=thumb),
        camera(4000, 3000, "progressive", thumb=thumb),
        camera(3000, 4000, thumb=thumb),
        camera(3000, 4000, "progressive", thumb=thumb),  # index: 2 * portrait + progressive
    ]
    rng = random.Random(7)
    total = 0
    for i in range(count):
        shape, progressive = i % 2, i % 5 == 4
        data = headers.with_orientation(variants[2 * shape + progressive], rng.choice([1, 1, 3, 6, 8]))
        with open(os.path.join(out, f"IMG_{i:04d}.jpg"), "wb") as f:
            f.write(data)
        total += len(data)
    print(f"generated {count} camera-like JPEGs in {out} ({total / count / 1e6:.1f} MB each)")


if __name__ == "__main__":
    main()
