#!/usr/bin/env python3
"""Makes the animation budget fixtures in Tests/WaterfallKitTests/Fixtures/formats/animation-budgets, and
expected.json; with --measure DIR, the full-size cases of issue 26 for timing (not fixtures).

Run it again only on purpose (the files are committed); standard library only:
    python3 Tests/Tools/make_animation_budget_fixtures.py
    python3 Tests/Tools/make_animation_budget_fixtures.py --measure /tmp/bombs

Animations whose every frame is tiny and whose cost is all in the canvas: a WebP canvas too large for the
decoder's memory (libwebp's animation decoder keeps two), and a GIF and a WebP of the same numbers whose
frames × canvas are over the animation budget (Sources/CImageIO/common/animation.h). Each must be refused
from its headers before a frame is decoded, with the same words whatever the format. The WebP frame is the
1×1 lossless pixel of the committed W41 fixture; GIFs are written with gifbytes.py.
"""
from __future__ import annotations

import json
import shutil
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gifbytes as g  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FORMATS = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "formats"
OUT = FORMATS / "animation-budgets"

# Sources/CImageIO/common/animation.h and the decoder memory default (wf_derive_request.max_memory).
MAX_FRAME_PIXELS = 2_000_000_000
MAX_MEMORY_MIB = 512


def chunk(tag: bytes, payload: bytes) -> bytes:
    return tag + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) % 2 else b"")


def riff(chunks: list[bytes]) -> bytes:
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def pixel_vp8l() -> bytes:
    """The 1×1 VP8L bitstream inside W41's one ANMF frame."""
    data = (FORMATS / "webp" / "W41-animated-canvas-60000x60000-bomb.webp").read_bytes()
    at = data.index(b"VP8L")
    size = struct.unpack("<I", data[at + 4:at + 8])[0]
    return data[at + 8:at + 8 + size]


def webp_animation(width: int, height: int, frames: int) -> bytes:
    frame = chunk(b"ANMF", bytes(6) + bytes(3) + bytes(3) + (100).to_bytes(3, "little") + b"\0"
                  + chunk(b"VP8L", pixel_vp8l()))
    vp8x = chunk(b"VP8X", bytes([0x02 | 0x10, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    return riff([vp8x, chunk(b"ANIM", bytes(6))] + [frame] * frames)


def gif_animation(width: int, height: int, frames: int) -> bytes:
    one = g.control(delay=10) + g.image(0, 0, 1, 1, [[1]])
    return g.screen(width, height, [(0, 0, 0), (220, 30, 40)]) + g.netscape(0) + one * frames + g.TRAILER


def budget_message(fmt: str, width: int, height: int, frames: int) -> str:
    return f"{fmt} frames of {(width * height + 1) * frames} pixels in all, over the {MAX_FRAME_PIXELS}-pixel limit"


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        folder = Path(sys.argv[2])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "canvas-16000x15000-3-frames.webp").write_bytes(webp_animation(16000, 15000, 3))
        (folder / "9999-frames-448x448.gif").write_bytes(gif_animation(448, 448, 9999))
        (folder / "9999-frames-448x448.webp").write_bytes(webp_animation(448, 448, 9999))
        return
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected: list[dict] = []

    (OUT / "canvas-memory.webp").write_bytes(webp_animation(16000, 15000, 3))
    expected.append({"file": "canvas-memory.webp", "format": "webp", "width": 16000, "height": 15000, "frames": 3,
                     "tileError": {"kind": "limit", "message": "a 16000×15000 WebP canvas would need 1831 MiB, over the 512 MiB limit"},
                     "viewError": {"kind": "limit", "message": "a 16000×15000 WebP canvas would need 1831 MiB, over the 512 MiB limit"},
                     "pillowRefuses": "DecompressionBombError (240 megapixels)",
                     "note": "188 bytes: three 1×1 frames on a 240-megapixel canvas (under the pixel cap); libwebp's "
                             "animation decoder would allocate two 960 MB canvases for it"})
    # 501 frames of 2000×2000 (and their one pixel each): just over the 2,000,000,000-pixel budget.
    for fmt, suffix, make in (("GIF", "gif", gif_animation), ("WebP", "webp", webp_animation)):
        name = f"frames-budget.{suffix}"
        (OUT / name).write_bytes(make(2000, 2000, 501))
        expected.append({"file": name, "format": suffix, "width": 2000, "height": 2000, "frames": 501,
                         "viewError": {"kind": "tooLarge", "message": budget_message(fmt, 2000, 2000, 501)},
                         "note": "501 one-pixel frames on a 2000×2000 canvas: the tile (the first frame) is made, "
                                 "the animated view refused from the headers before a frame is decoded"})

    (OUT / "expected.json").write_text(json.dumps({
        "made by": "Tests/Tools/make_animation_budget_fixtures.py",
        "fixtures": expected,
    }, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(expected)} fixtures in {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
