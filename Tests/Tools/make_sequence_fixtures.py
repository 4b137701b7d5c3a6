#!/usr/bin/env python3
"""AVIF image sequences (`avis`) for SequenceTests, in Fixtures/formats/avif-sequences (so the sanitizer driver
and the fuzzer's seeds take them too), as avifenc 0.11 writes them:

- `still.avifs`: three 32×24 frames at 10 fps, with the first frame as the file's still image too;
- `nostill.avifs`: the same sequence with no still image (its `meta` box renamed `free` and its `avif` brand
  dropped, as sequence-only encoders write);
- `alpha-10bit.avifs`: four 24×16 frames at 4 fps, 10 bits, with an alpha plane that changes per frame;
- `lying-frame-count.avifs`: `nostill.avifs` whose time-to-sample and sample-size tables claim 20,000 frames;
- `truncated.avifs`: `nostill.avifs` cut inside its media data;
- `bad-frame.avifs`: `nostill.avifs` with its second frame's bytes overwritten.

    make_sequence_fixtures.py   (needs avifenc from Debian's libavif-bin, and Pillow)
"""
import os
import struct
import subprocess
import tempfile

from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "WaterfallKitTests", "Fixtures", "formats",
                   "avif-sequences")


def encode(work, name, frames, fps, extra=()):
    paths = []
    for index, frame in enumerate(frames):
        path = os.path.join(work, f"{name}-{index}.png")
        frame.save(path)
        paths.append(path)
    out = os.path.join(OUT, name)
    subprocess.run(["avifenc", "--fps", str(fps), "-s", "10", *extra, *paths, out], check=True, capture_output=True)
    return bytearray(open(out, "rb").read())


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as file:
        file.write(data)


def box(data, kind, start=0):
    """The offset and size of the first `kind` box at or after `start` (a box's own header included)."""
    at = data.find(kind, start) - 4
    return at, struct.unpack(">I", data[at:at + 4])[0]


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        still = encode(work, "still.avifs", [Image.new("RGB", (32, 24), (i * 80, 40, 200 - i * 60)) for i in range(3)], 10)
        alpha = [Image.new("RGBA", (24, 16), (200, 60 * i, 40, 255 - 60 * i)) for i in range(4)]
        encode(work, "alpha-10bit.avifs", alpha, 4, ["-d", "10"])
    assert still[8:12] == b"avis" and still[16:20] == b"avif"
    nostill = bytearray(still)
    nostill[16:20] = b"miaf"
    meta, _ = box(nostill, b"meta")
    nostill[meta + 4:meta + 8] = b"free"
    write("nostill.avifs", nostill)
    bomb = bytearray(nostill)
    # stts: entry count 1, then its count; stsz: one size for every sample (no table), then the count
    for kind, at, value in ((b"stts", 16, 20000), (b"stsz", 12, 100), (b"stsz", 16, 20000)):
        start, _ = box(bomb, kind)
        bomb[start + at:start + at + 4] = struct.pack(">I", value)
    write("lying-frame-count.avifs", bomb)
    mdat, size = box(nostill, b"mdat", box(nostill, b"moov")[0])
    write("truncated.avifs", nostill[:mdat + size // 2])
    bad = bytearray(nostill)
    stsz, _ = box(bad, b"stsz")
    first = struct.unpack(">I", bad[stsz + 20:stsz + 24])[0]
    second = struct.unpack(">I", bad[stsz + 24:stsz + 28])[0]
    bad[mdat + 8 + first:mdat + 8 + first + second] = b"\xff" * second
    write("bad-frame.avifs", bad)


if __name__ == "__main__":
    main()
