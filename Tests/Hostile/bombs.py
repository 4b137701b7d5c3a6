"""Hostile image files, as bytes: HEIF and AVIF items whose references form rings, derivations nested deep, and
frame bombs (small files that cost a naive reader gigabytes or minutes).

Each file is named by a kind in `RINGS` or `BOMBS`, and its bytes depend on the kind alone, so the invariants
can tell such a file on disk by its hash whatever it is named or moved to:

- a ring can never be published: whatever the build makes of it, it skips it (`invariants.bad_entries`), and a
  `--strict` build fails on it;
- a bomb may be published or skipped (a GIF's first frame may make a tile while its animation is refused), but
  never at the cost of a crash, a hang, or more memory than invariant 8 allows.

Written with Tests/Tools/heifbox.py, gifbytes.py, pngbytes.py and tiffbytes.py (standard library only); the coded HEVC and
AV1 tiles are those of the committed still.heic and still.avif.
"""
from __future__ import annotations

import functools
import hashlib
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Tools"))

import gifbytes as gif  # noqa: E402
import pngbytes  # noqa: E402
import tiffbytes  # noqa: E402
from heifbox import Coded, full_box, grid_descriptor, heif_file, ispe  # noqa: E402

FORMATS = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "formats"
ALPHA = {b"heic": b"urn:mpeg:hevc:2015:auxid:1\0", b"avif": b"urn:mpeg:mpegB:cicp:systems:auxiliary:alpha\0"}
PIXI = full_box(b"pixi", 0, 0, bytes([3, 8, 8, 8]))


@functools.cache
def coded(brand: bytes) -> Coded:
    return Coded(FORMATS / "heif" / ("still.avif" if brand == b"avif" else "still.heic"))


def _derived(item_id: int, kind: bytes, size: int = 64) -> dict:
    """A derived image of one input: a grid of one tile, an identity, an overlay of one image."""
    data = {b"grid": grid_descriptor(1, 1, size, size),
            b"iovl": struct.pack(">BB4HHHhh", 0, 0, 0, 0, 0, 0xFFFF, size, size, 0, 0),
            b"iden": b""}[kind]
    return {"id": item_id, "type": kind, "data": data, "properties": [ispe(size, size), PIXI], "hidden": item_id > 1}


def _tile(brand: bytes, item_id: int, alpha: bool = False) -> dict:
    c = coded(brand)
    properties = [c.config, ispe(c.width, c.height)] + ([full_box(b"auxC", 0, 0, ALPHA[brand])] if alpha else [])
    return {"id": item_id, "type": c.item_type, "data": c.data, "properties": properties, "essential": [0],
            "hidden": item_id > 1}


def dimg_ring(brand: bytes, kinds: list[bytes]) -> bytes:
    """Items 1..n, each derived from the next and the last from the first (n = 1: an item derived from itself)."""
    items = [_derived(1 + k, kind) for k, kind in enumerate(kinds)]
    references = [(b"dimg", 1 + k, [1 + (k + 1) % len(kinds)]) for k in range(len(kinds))]
    return heif_file(brand, items, 1, references)


def alpha_ring(brand: bytes) -> bytes:
    """Two coded images, each the alpha (auxl) image of the other."""
    return heif_file(brand, [_tile(brand, 1, alpha=True), _tile(brand, 2, alpha=True)], 1,
                     [(b"auxl", 1, [2]), (b"auxl", 2, [1])])


def grid_alpha_ring(brand: bytes) -> bytes:
    """A grid of one coded tile whose alpha image is a grid made of the first grid."""
    size = coded(brand).width
    grid, mask = _derived(1, b"grid", size), _derived(3, b"grid", size)
    mask["properties"] = mask["properties"] + [full_box(b"auxC", 0, 0, ALPHA[brand])]
    return heif_file(brand, [grid, _tile(brand, 2), mask], 1, [(b"dimg", 1, [2]), (b"auxl", 3, [1]), (b"dimg", 3, [1])])


def uncovered_grid(brand: bytes) -> bytes:
    """A grid of one tile that declares itself square, taller than its tile: the rows below the tile are in
    no tile (the standard says the tiles cover the grid). libheif 1.15 leaves them as the memory it got, so
    a published image of it shows whatever that memory held before: the same file gives other bytes after
    other photos."""
    c = coded(brand)
    grid = {"id": 1, "type": b"grid", "data": grid_descriptor(1, 1, c.width, 2 * c.height),
            "properties": [ispe(c.width, 2 * c.height), PIXI]}
    return heif_file(brand, [grid, _tile(brand, 2)], 1, [(b"dimg", 1, [2])])


def nested_grids(brand: bytes, depth: int) -> bytes:
    """`depth` grids, each the one tile of the one before, over a real coded tile: grids of grids."""
    size = coded(brand).width
    items = [_derived(1 + k, b"grid", size) for k in range(depth)] + [_tile(brand, depth + 1)]
    return heif_file(brand, items, 1, [(b"dimg", 1 + k, [2 + k]) for k in range(depth)])


def many_items(brand: bytes, count: int) -> bytes:
    """A real image (item 1) and `count` - 1 more coded images that nothing shows: libheif 1.15 matches every item
    against every iloc and ipma entry, a parse that grows with the square of the items (19,000: 25 s)."""
    items = [_tile(brand, 1)] + [dict(_tile(brand, k), data=b"") for k in range(2, count + 1)]
    return heif_file(brand, items, 1)


# -- animations


def _chunk(tag: bytes, payload: bytes) -> bytes:
    return tag + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")


@functools.cache
def _webp_pixel_frame() -> bytes:
    """The ANMF payload of a 1×1 lossless frame: the committed 60000×60000 bomb's one frame."""
    data = (FORMATS / "webp" / "W41-animated-canvas-60000x60000-bomb.webp").read_bytes()
    at = 12
    while at + 8 <= len(data):
        tag, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if tag == b"ANMF":
            return data[at + 8:at + 8 + size]
        at += 8 + size + (size & 1)
    raise ValueError("no ANMF chunk in W41")


def webp_animation(width: int, height: int, frames: int) -> bytes:
    """An animated WebP: a `width`×`height` canvas and `frames` frames of 1×1 pixel, each 30 bytes."""
    vp8x = _chunk(b"VP8X", bytes([0x02, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    body = b"WEBP" + vp8x + _chunk(b"ANIM", bytes(6)) + _chunk(b"ANMF", _webp_pixel_frame()) * frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def webp_lossless_bitstream(width: int, height: int, palette: bool = False) -> bytes:
    """A VP8L bitstream of one opaque black `width`×`height` image, 9 bytes whatever its size: the header (the
    signature, 14 bits each of width - 1 and height - 1, no alpha, version 0), no transform, no colour cache,
    and five prefix codes of one symbol each (0, 0, 0, alpha 255, distance 0), so no bit a pixel. With
    `palette`, the 13 bytes libwebp's encoder writes for one colour instead: a colour-indexing transform of
    one colour first, which packs 8 pixels into each word the decoder holds."""
    header = (width - 1) | (height - 1) << 14
    return b"\x2f" + header.to_bytes(4, "little") + bytes.fromhex("071011fd0f4444ff03" if palette else "8888fe07")


def webp_lossless(width: int, height: int, palette: bool = False) -> bytes:
    """A still lossless WebP (30 bytes; 34 with `palette`): libwebp's lossless decoder holds it whole as 32-bit
    ARGB, a word a pixel (one word for 8 with the palette)."""
    body = b"WEBP" + _chunk(b"VP8L", webp_lossless_bitstream(width, height, palette))
    return b"RIFF" + struct.pack("<I", len(body)) + body


def webp_lossless_animation(width: int, height: int, frames: int) -> bytes:
    """An animated WebP whose `frames` frames are each a lossless image of the whole canvas (34 bytes each)."""
    vp8x = _chunk(b"VP8X", bytes([0x02, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    frame = (bytes(6) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little") + (100).to_bytes(3, "little")
             + b"\x02" + _chunk(b"VP8L", webp_lossless_bitstream(width, height)))
    body = b"WEBP" + vp8x + _chunk(b"ANIM", bytes(6)) + _chunk(b"ANMF", frame) * frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def gif_animation(width: int, height: int, frames: int) -> bytes:
    """A GIF: a `width`×`height` logical screen and `frames` frames of 1×1 pixel, 23 bytes each."""
    frame = gif.control(delay=2) + gif.image(0, 0, 1, 1, [[1]])
    return (gif.screen(width, height, [(0, 0, 0), (255, 0, 0)]) + gif.netscape(0) + frame * frames + gif.TRAILER)


def gif_restoring(width: int, height: int, restoring_frame: int) -> bytes:
    """A GIF of three 1×1 frames on a `width`×`height` screen, frame `restoring_frame` (1-based) with disposal 3
    (restore what was under it): after the first frame, that takes a second canvas to remember."""
    frames = b"".join(gif.control(disposal=3 if n == restoring_frame else 1, delay=10) + gif.image(n, n, 1, 1, [[1]])
                      for n in range(1, 4))
    return gif.screen(width, height, [(0, 0, 0), (255, 0, 0)]) + gif.netscape(0) + frames + gif.TRAILER


def tiled_grid(brand: bytes, width: int, height: int) -> bytes:
    """A grid of about `width`×`height` made of one coded tile named again for every cell (some 20 KB): libheif
    assembles it in one image of planes, and converts that to RGB."""
    c = coded(brand)
    columns, rows = width // c.width, height // c.height
    grid = {"id": 1, "type": b"grid", "data": grid_descriptor(rows, columns, columns * c.width, rows * c.height),
            "properties": [ispe(columns * c.width, rows * c.height), PIXI]}
    return heif_file(brand, [grid, _tile(brand, 2)], 1, [(b"dimg", 1, [2] * (rows * columns))])


def tiff_one_strip(width: int, height: int, compression: int = 5) -> bytes:
    """A TIFF whose single strip (600 bytes of noise) claims width × height: libtiff would decode the whole
    strip at once."""
    noise = bytes((i * 37 + 11) % 256 for i in range(600))
    w = tiffbytes.Writer()
    return w.finish(w.ifd(tiffbytes.image_entries(width, height, compression=compression, strips=[noise],
                                                  rows_per_strip=height)))


def tiff_strip_table(width: int, height: int, strips_past_end: int) -> bytes:
    """A TIFF of one-row strips whose strip tables lie `strips_past_end` bytes away: past the end of the file."""
    w = tiffbytes.Writer()
    far = ("offset", strips_past_end)
    return w.finish(w.ifd(tiffbytes.image_entries(width, height, strips=[b"\0"], rows_per_strip=1, extra=[
        (tiffbytes.STRIP_OFFSETS, tiffbytes.LONG, far), (tiffbytes.STRIP_BYTES, tiffbytes.LONG, far)])))


def tiff_ifd_loop() -> bytes:
    """A 24×16 TIFF whose IFD0 names itself as the next IFD: a reader walking the chain never ends."""
    row = bytes(value for x in range(24) for value in ((x * 10) % 256, 80, 160))
    return tiffbytes.tiff(24, 16, [row] * 16, next_ifd="self")


def bmp_rle(width: int, height: int) -> bytes:
    """An RLE8 BMP of width × height holding only its end-of-bitmap mark: decoded into one buffer, width ×
    height × 4 bytes, budgeted from the header."""
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, 0, 2835, 2835, 2, 0)
    body = info + bytes(8) + b"\0\1"
    return b"BM" + struct.pack("<IHHI", 14 + len(body), 0, 0, 14 + 40 + 8) + body


# -- the catalogue: (name, extension, bytes), by kind

RINGS = {
    "grid ring": (".heic", lambda: dimg_ring(b"heic", [b"grid", b"grid"])),
    "grid ring (AVIF)": (".avif", lambda: dimg_ring(b"avif", [b"grid", b"grid"])),
    "grid naming itself": (".heic", lambda: dimg_ring(b"heic", [b"grid"])),
    "grid naming itself (AVIF)": (".avif", lambda: dimg_ring(b"avif", [b"grid"])),
    "iden ring of three": (".heic", lambda: dimg_ring(b"heic", [b"iden", b"iden", b"iden"])),
    "iden naming itself (AVIF)": (".avif", lambda: dimg_ring(b"avif", [b"iden"])),
    "iovl ring": (".heic", lambda: dimg_ring(b"heic", [b"iovl", b"iovl"])),
    "iovl ring (AVIF)": (".avif", lambda: dimg_ring(b"avif", [b"iovl", b"iovl"])),
    "ring of five (grid, iden, iovl)": (".heic", lambda: dimg_ring(b"heic", [b"grid", b"iden", b"iovl", b"grid", b"iden"])),
    "alpha images of each other": (".heic", lambda: alpha_ring(b"heic")),
    "alpha images of each other (AVIF)": (".avif", lambda: alpha_ring(b"avif")),
    "grid whose alpha is made of it": (".heic", lambda: grid_alpha_ring(b"heic")),
}

BOMBS = {
    # Memory: a canvas under the pixel cap, and next to nothing on it.
    "WebP: 16000×15000 canvas, three 1×1 frames": (".webp", lambda: webp_animation(16000, 15000, 3)),
    "GIF: 16000×15000 screen, three 1×1 frames": (".gif", lambda: gif_animation(16000, 15000, 3)),
    # Memory a decoder holds beyond its output: an interlaced PNG whole (Adam7: 15800×15800 16-bit RGBA in 1.9 MB
    # is 953 MiB decoded), a lossless WebP whole as ARGB, libwebp's lossless frames beside its two canvases, a
    # GIF's second canvas for "restore previous", a HEIF grid's planes beside its RGB.
    "PNG: Adam7 15800×15800, 16-bit RGBA": (".png", lambda: pngbytes.png(15800, 15800, 16, "rgba", interlace=True)),
    "WebP: lossless 12000×12000 in 30 bytes": (".webp", lambda: webp_lossless(12000, 12000)),
    "WebP: 8000×8000, two lossless frames": (".webp", lambda: webp_lossless_animation(8000, 8000, 2)),
    "GIF: 11500×11500, its second frame restores": (".gif", lambda: gif_restoring(11500, 11500, 2)),
    "HEIC: a 12800×13400 grid of one tile": (".heic", lambda: tiled_grid(b"heic", 12800, 13400)),
    "AVIF: a 12800×13400 grid of one tile": (".avif", lambda: tiled_grid(b"avif", 12800, 13400)),
    # Time: canvas × frames over the animation budget, noticed frame by frame by a naive reader.
    "GIF: 9,999 1×1 frames on 448×448": (".gif", lambda: gif_animation(448, 448, 9999)),
    "GIF: 9,999 1×1 frames on 1000×1000": (".gif", lambda: gif_animation(1000, 1000, 9999)),
    "WebP: 9,999 1×1 frames on 448×448": (".webp", lambda: webp_animation(448, 448, 9999)),
    "HEIC: 19,000 items": (".heic", lambda: many_items(b"heic", 19000)),
    "AVIF: 5,000 items": (".avif", lambda: many_items(b"avif", 5000)),
    # Grids of grids: two levels are a picture, nine are more than any camera writes (both square, over a
    # 320×200 tile: their lower rows are in no tile, as in the next two).
    "HEIC: a grid of a grid": (".heic", lambda: nested_grids(b"heic", 2)),
    "AVIF: grids nested nine deep": (".avif", lambda: nested_grids(b"avif", 9)),
    # A grid taller than its one tile: a reader that does not clear it publishes what its memory held.
    "HEIC: a grid taller than its tile": (".heic", lambda: uncovered_grid(b"heic")),
    "AVIF: a grid taller than its tile": (".avif", lambda: uncovered_grid(b"avif")),
    # TIFF: a strip libtiff would decode whole (20000×10000 in one strip: 1336 MiB with its band), a strip table
    # claiming 200,000 strips past the end of the file, and an IFD chain that loops (only IFD0 is read).
    "TIFF: 20000×10000 in one LZW strip": (".tif", lambda: tiff_one_strip(20000, 10000)),
    "TIFF: 200,000 strips past the end": (".tif", lambda: tiff_strip_table(1, 200000, 1 << 30)),
    "TIFF: IFD0 naming itself as the next": (".tiff", tiff_ifd_loop),
    # BMP: an RLE file is decoded into one buffer: 15000×15000 in 64 bytes would need 859 MiB.
    "BMP: RLE8 15000×15000, nothing but its end": (".bmp", lambda: bmp_rle(15000, 15000)),
}


@functools.cache
def file_bytes(kind: str) -> bytes:
    return (RINGS.get(kind) or BOMBS[kind])[1]()


def extension(kind: str) -> str:
    return (RINGS.get(kind) or BOMBS[kind])[0]


@functools.cache
def ring_hashes() -> frozenset[str]:
    return frozenset(hashlib.sha256(file_bytes(kind)).hexdigest() for kind in RINGS)


@functools.cache
def bomb_hashes() -> frozenset[str]:
    return frozenset(hashlib.sha256(file_bytes(kind)).hexdigest() for kind in BOMBS)
