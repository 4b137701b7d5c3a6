#!/usr/bin/env python3
"""Makes the colour-profile cap fixtures in Tests/WaterfallKitTests/Fixtures/formats/icc-cap, and expected.json.

Run it again only on purpose (the files are committed); standard library only:
    python3 Tests/Tools/make_icc_cap_fixtures.py

- profile-4mb.png: issue 26's case, a 4 KB PNG whose iCCP chunk inflates to a 4,000,000-byte profile (the
  sRGB profile of Fixtures/thumbnails/srgb.icc with a private tag of zeros): Waterfall 0.2 copied it into
  each of the photo's six derived images.
- colr-prof.heic, colr-prof.avif: still.heic's and still.avif's coded image with that sRGB profile as a
  `colr` prof property, and mdat before meta, so that a test can grow the profile in place (only the sizes
  of colr, ipco, iprp and meta change; iloc's offsets into mdat stay) past the cap without committing
  megabytes.

`padded_profile` below is the recipe the Swift tests follow (IccCapTests.swift) for the other formats.
"""
from __future__ import annotations

import json
import shutil
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heifbox import Coded, box, full_box, ispe  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures"
OUT = FIXTURES / "formats" / "icc-cap"


def padded_profile(size: int) -> bytes:
    """srgb.icc grown to `size` bytes by one more tag, 'wfpd' of type 'data', full of zeros: a valid profile
    (libpng checks the header's size, the tag table and that every tag lies inside)."""
    base = (FIXTURES / "thumbnails" / "srgb.icc").read_bytes()
    count = struct.unpack(">I", base[128:132])[0]
    table = [struct.unpack(">4sII", base[132 + 12 * k:144 + 12 * k]) for k in range(count)]
    data = base[132 + 12 * count:]
    shift = 12
    entries = [(sig, offset + shift, length) for sig, offset, length in table]
    start = len(base) + shift
    start += -start % 4
    padding_length = size - start
    entries.append((b"wfpd", start, padding_length))
    header = bytearray(base[:128])
    struct.pack_into(">I", header, 0, size)
    body = bytes(header) + struct.pack(">I", count + 1) + b"".join(struct.pack(">4sII", *e) for e in entries) + data
    body += bytes(start - len(body))
    body += b"data" + bytes(4) + struct.pack(">I", 0) + bytes(padding_length - 12)
    assert len(body) == size
    return body


def png(width: int, height: int, profile: bytes) -> bytes:
    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    rows = b"".join(b"\0" + b"".join(bytes(((40 + 3 * x) % 256, (90 + 2 * y) % 256, 160)) for x in range(width))
                    for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    iccp = b"Big profile\0\0" + zlib.compress(profile, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"iCCP", iccp) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))


def heif_with_profile(coded: Coded, brand: bytes, profile: bytes) -> bytes:
    """One coded image (item 1) with ispe and colr prof, mdat first."""
    ftyp = box(b"ftyp", brand + struct.pack(">I", 0) + b"mif1" + brand + b"miaf")
    mdat = box(b"mdat", coded.data)
    colr = box(b"colr", b"prof" + profile)
    properties = [coded.config, ispe(coded.width, coded.height)] + ([coded.pixi] if coded.pixi else []) + [colr]
    hdlr = full_box(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\0" * 13)
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", 1))
    iloc = full_box(b"iloc", 1, 0, struct.pack(">BBH", 0x44, 0x00, 1)
                    + struct.pack(">HHHHII", 1, 0, 0, 1, len(ftyp) + 8, len(coded.data)))
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", 1) + full_box(b"infe", 2, 0, struct.pack(">HH", 1, 0) + coded.item_type + b"\0"))
    associations = bytes([0x81] + [2 + k for k in range(len(properties) - 1)])
    ipma = full_box(b"ipma", 0, 0, struct.pack(">IHB", 1, 1, len(properties)) + associations)
    iprp = box(b"iprp", box(b"ipco", b"".join(properties)) + ipma)
    return ftyp + mdat + full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iprp)


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected = []
    (OUT / "profile-4mb.png").write_bytes(png(64, 48, padded_profile(4_000_000)))
    expected.append({"file": "profile-4mb.png", "format": "png", "width": 64, "height": 48, "profileLength": 4_000_000,
                     "pillowRefuses": "ValueError: the iCCP chunk inflates past PngImagePlugin.MAX_TEXT_CHUNK (1 MB)",
                     "note": "a 4 KB PNG whose iCCP inflates to a 4,000,000-byte profile: over the 1 MiB cap, left out"})
    srgb = (FIXTURES / "thumbnails" / "srgb.icc").read_bytes()
    for brand, name, source in ((b"heic", "colr-prof.heic", "still.heic"), (b"avif", "colr-prof.avif", "still.avif")):
        coded = Coded(FIXTURES / "formats" / "heif" / source)
        (OUT / name).write_bytes(heif_with_profile(coded, brand, srgb))
        expected.append({"file": name, "format": name.split(".")[1], "width": coded.width, "height": coded.height,
                         "profileLength": len(srgb),
                         "note": "a colr prof property with the 588-byte sRGB profile, mdat first: tests grow it in place"})
    (OUT / "expected.json").write_text(json.dumps({"made by": "Tests/Tools/make_icc_cap_fixtures.py", "fixtures": expected},
                                                  indent=2, ensure_ascii=False) + "\n")
    print(f"{len(expected)} fixtures in {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
