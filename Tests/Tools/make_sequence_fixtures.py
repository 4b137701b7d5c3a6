#!/usr/bin/env python3
"""AVIF image sequences (`avis`) for SequenceTests: `still.avifs`, three 32×24 frames as avifenc 0.11 writes
them (with the first frame as the file's still image too), and `nostill.avifs`, the same sequence with no
still image (its `meta` box renamed `free` and its `avif` brand dropped, as sequence-only encoders write).

    make_sequence_fixtures.py   (needs avifenc from Debian's libavif-bin, and Pillow)
"""
import os
import subprocess
import tempfile

from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "WaterfallKitTests", "Fixtures", "sequences")


def main():
    with tempfile.TemporaryDirectory() as work:
        frames = []
        for index in range(3):
            frame = os.path.join(work, f"f{index}.png")
            Image.new("RGB", (32, 24), (index * 80, 40, 200 - index * 60)).save(frame)
            frames.append(frame)
        still = os.path.join(OUT, "still.avifs")
        subprocess.run(["avifenc", "--fps", "10", "-s", "10", *frames, still], check=True, capture_output=True)
    data = bytearray(open(still, "rb").read())
    assert data[8:12] == b"avis" and data[16:20] == b"avif"
    data[16:20] = b"miaf"
    meta = data.find(b"meta")
    data[meta:meta + 4] = b"free"
    with open(os.path.join(OUT, "nostill.avifs"), "wb") as file:
        file.write(data)


if __name__ == "__main__":
    main()
