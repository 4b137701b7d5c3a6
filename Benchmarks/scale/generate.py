#!/usr/bin/env python3
"""Generates a big library of small camera-like JPEGs for `make bench-scale`: 160×120 photos with an Exif
block (orientation, a date) in albums of 1,000, orientations varied.

    generate.py OUT_DIR COUNT
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "headers"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Tools"))
import generate as headers  # noqa: E402
import make_header_fixtures as fx  # noqa: E402


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    fx.build_encoder()
    base = fx.encode(160, 120, "photo", "nojfif", "q=85", markers=[(0xE1, fx.exif("II", 6))])
    rng = random.Random(11)
    for i in range(count):
        album = os.path.join(out, f"album-{i // 1000:03d}")
        if i % 1000 == 0:
            os.makedirs(album, exist_ok=True)
        with open(os.path.join(album, f"IMG_{i:06d}.jpg"), "wb") as f:
            f.write(headers.with_orientation(base, rng.choice([1, 1, 3, 6, 8])))
    print(f"generated {count} photos ({len(base)} bytes each) in {count // 1000 + (count % 1000 > 0)} albums in {out}")


if __name__ == "__main__":
    main()
