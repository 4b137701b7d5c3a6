#!/usr/bin/env python3
"""Makes the GIF fixtures in Tests/WaterfallKitTests/Fixtures/formats/gif, and expected.json.

Run it again only on purpose (the files are committed); it needs Pillow (requirements-dev.txt):
    scripts/ensure-venv && .venv/bin/python Tests/Tools/make_gif_fixtures.py

Photos (a still, an animation Pillow optimises into offset frames) come from Pillow; everything whose every
field must be known (disposal methods, transparency, interlace, local palettes, clipped frames, delays, loop
counts, and the hostile files) is written byte by byte with gifbytes.py.

Each readable fixture's logical screen size is checked against Pillow before it is recorded, and its frame
count too where Pillow counts the same way. For the hand-written animations, expected.json also holds every
frame's canvas (RGBA, hex) as a browser composes it, computed here by `compose` below: a small compositor
written apart from the C one, following the GIF89a specification and what browsers do where it is silent
(the canvas starts transparent and disposal 2 clears to transparent, not to the background colour; delays
of 0 or 1 centisecond play as 100 ms; NETSCAPE2.0's count is of repeats, so plays = count + 1).
Pillow decodes each still too, and its pixels must match `compose`'s.
"""
from __future__ import annotations

import io
import json
import shutil
import struct
import sys
from pathlib import Path

from PIL import Image, ImageSequence
import PIL

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gifbytes as g  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "formats" / "gif"
SOURCES = REPO / "SampleGallery"

RED, GREEN, BLUE, WHITE = (220, 30, 40), (30, 200, 60), (40, 60, 230), (255, 255, 255)
PALETTE = [RED, GREEN, BLUE, WHITE]


# ---------------------------------------------------------------- an independent compositor

class Frame:
    def __init__(self, x, y, rows, table=None, disposal=0, delay=0, transparent=None, interlace=False):
        self.x, self.y, self.rows, self.table = x, y, rows, table
        self.disposal, self.delay, self.transparent, self.interlace = disposal, delay, transparent, interlace

    def encode(self) -> bytes:
        return (g.control(self.disposal, self.delay, self.transparent)
                + g.image(self.x, self.y, len(self.rows[0]), len(self.rows), self.rows, self.table, self.interlace))


def compose(width, height, frames, global_table):
    """Every frame's canvas, RGBA bytes, as browsers show them."""
    canvas = bytearray(width * height * 4)
    shown = []
    for frame in frames:
        before = bytes(canvas)
        table = frame.table or global_table
        for j, row in enumerate(frame.rows):
            for i, index in enumerate(row):
                x, y = frame.x + i, frame.y + j
                if x >= width or y >= height or index == frame.transparent or index >= len(table):
                    continue
                canvas[(y * width + x) * 4:(y * width + x) * 4 + 4] = bytes(table[index]) + b"\xff"
        shown.append(bytes(canvas))
        w, h = len(frame.rows[0]), len(frame.rows)
        for y in range(frame.y, min(frame.y + h, height)):
            for x in range(frame.x, min(frame.x + w, width)):
                at = (y * width + x) * 4
                if frame.disposal == 2:
                    canvas[at:at + 4] = b"\0\0\0\0"
                elif frame.disposal == 3:
                    canvas[at:at + 4] = before[at:at + 4]
    return shown


def animation(width, height, frames, global_table=PALETTE, loops=None) -> bytes:
    return (g.screen(width, height, global_table) + (g.netscape(loops) if loops is not None else b"")
            + b"".join(f.encode() for f in frames) + g.TRAILER)


def fill(width, height, index):
    return [[index] * width for _ in range(height)]


# ---------------------------------------------------------------- checks and records

def pillow(path: Path):
    with Image.open(path) as image:
        return image.size, getattr(image, "n_frames", 1)


def pillow_still_matches(path: Path, canvas: bytes, width: int, frame: Frame) -> bool:
    """Pillow's RGBA of a one-frame GIF against `compose`'s, inside the frame (colour compared only where
    opaque). Outside the frame Pillow paints the background colour; browsers leave it transparent."""
    with Image.open(path) as image:
        rgba = image.convert("RGBA").tobytes()
    for at in range(0, len(canvas), 4):
        x, y = (at // 4) % width, (at // 4) // width
        if not (frame.x <= x < frame.x + len(frame.rows[0]) and frame.y <= y < frame.y + len(frame.rows)):
            continue
        if rgba[at + 3] != canvas[at + 3] or (canvas[at + 3] and rgba[at:at + 3] != canvas[at:at + 3]):
            return False
    return True


def block_flags(path: Path):
    """(a transparent colour in some Graphic Control Extension, some frame interlaced), from the blocks: Pillow
    reads both but keeps neither once it has composed the frames."""
    data = path.read_bytes()
    at = 13 + (3 << ((data[10] & 7) + 1) if data[10] & 0x80 else 0)
    transparent = interlaced = False

    def skip_sub_blocks(at):
        while data[at]:
            at += data[at] + 1
        return at + 1

    while at < len(data) and data[at] != 0x3B:
        if data[at] == 0x21:
            if data[at + 1] == 0xF9:
                transparent |= bool(data[at + 3] & 1)
            at = skip_sub_blocks(at + 2)
        else:
            packed = data[at + 9]
            interlaced |= bool(packed & 0x40)
            at += 10 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
            at = skip_sub_blocks(at + 1)
    return transparent, interlaced


def readable(name, width, height, frames, alpha=False, note="", count_with_pillow=True, **extra) -> dict:
    path = OUT / name
    size, count = pillow(path)
    if size != (width, height):
        sys.exit(f"{name}: Pillow shows {size[0]}×{size[1]}, not the {width}×{height} meant")
    if count_with_pillow and count != frames:
        sys.exit(f"{name}: Pillow counts {count} frames, not the {frames} meant")
    entry = {"file": name, "format": "gif", "width": width, "height": height, "frames": frames,
             "animated": frames > 1, "alpha": alpha, "checkedBy": ["Pillow " + PIL.__version__]}
    entry.update(extra)
    entry["note"] = note
    return entry


def with_canvases(entry: dict, canvases, durations=None, loop_count=None, frames=None) -> dict:
    entry["canvases"] = [c.hex() for c in canvases]
    if durations is not None:
        entry["durations"] = durations
    if loop_count is not None:
        entry["loopCount"] = loop_count
    if len(canvases) == 1 and not pillow_still_matches(OUT / entry["file"], canvases[0], entry["width"], frames[0]):
        sys.exit(f"{entry['file']}: Pillow's pixels differ from the compositor's")
    return entry


def refused(name, kind, message, note) -> dict:
    return {"file": name, "error": {"kind": kind, "message": message}, "note": note}


def write(name: str, data: bytes) -> None:
    (OUT / name).write_bytes(data)


# ---------------------------------------------------------------- the fixtures

def photos(expected):
    with Image.open(SOURCES / "chelsea-the-cat.jpg") as cat:
        cat = cat.convert("RGB")
        still = cat.resize((160, 100), Image.LANCZOS)
        still.quantize(256, dither=Image.Dither.NONE).save(OUT / "still.gif")
        alpha, interlaced = block_flags(OUT / "still.gif")
        expected.append(readable("still.gif", 160, 100, 1, alpha=alpha, interlaced=interlaced,
                                 note="a photo quantised to 256 colours by Pillow (which interlaces by default)"))
        # The cat's eyes panning: Pillow stores every frame after the first as the rectangle that changed,
        # offset on the screen, as real animated GIFs are.
        frames = []
        for step in range(6):
            frame = cat.crop((100 + step * 12, 40, 300 + step * 12, 160)).resize((120, 72), Image.LANCZOS)
            frames.append(frame.quantize(64, dither=Image.Dither.NONE).convert("RGB"))
        frames[0].save(OUT / "photo-animated.gif", save_all=True, append_images=frames[1:], duration=80, loop=0,
                       optimize=True)
    alpha, interlaced = block_flags(OUT / "photo-animated.gif")
    expected.append(readable("photo-animated.gif", 120, 72, 6, alpha=alpha, interlaced=interlaced,
                             note="six frames from Pillow (optimised: offset frames), 80 ms each, looping forever",
                             durations=[80] * 6, loopCount=0))


def disposals(expected):
    """The same three frames under each disposal method: a full red frame, a green square with a transparent
    hole, and a blue bar partly outside the screen."""
    hole = fill(4, 4, 1)
    hole[1][1] = hole[1][2] = hole[2][1] = hole[2][2] = 3
    for disposal, word in [(0, "none"), (1, "keep"), (2, "background"), (3, "previous")]:
        frames = [Frame(0, 0, fill(12, 8, 0), disposal=disposal, delay=10),
                  Frame(2, 2, hole, disposal=disposal, delay=20, transparent=3),
                  Frame(8, 6, fill(6, 3, 2), disposal=disposal, delay=30)]
        name = f"animated-dispose-{word}.gif"
        write(name, animation(12, 8, frames, loops=0))
        entry = readable(name, 12, 8, 3, alpha=True, note=f"three frames, each with disposal {disposal} ({word}); the "
                         "last one partly outside the screen")
        expected.append(with_canvases(entry, compose(12, 8, frames, PALETTE), [100, 200, 300], 0))


def features(expected):
    # Interlaced: every row its own colour, so a row out of place shows.
    table = [(i * 16, 255 - i * 16, (i * 40) % 256) for i in range(16)]
    rows = [[y] * 5 for y in range(11)]
    frames = [Frame(0, 0, rows, table=None, interlace=True)]
    write("interlaced.gif", animation(5, 11, frames, table))
    expected.append(with_canvases(readable("interlaced.gif", 5, 11, 1, interlaced=True,
                                           note="interlaced rows (passes 0/8, 4/8, 2/4, 1/2), each row its own colour"),
                                  compose(5, 11, frames, table), frames=frames))

    # Transparency: a ring of transparent pixels around an opaque middle.
    rows = [[3 if x in (0, 5) or y in (0, 3) else (x + y) % 3 for x in range(6)] for y in range(4)]
    frames = [Frame(0, 0, rows, transparent=3)]
    write("transparency.gif", animation(6, 4, frames))
    expected.append(with_canvases(readable("transparency.gif", 6, 4, 1, alpha=True,
                                           note="colour 3 transparent: the border is see-through"),
                                  compose(6, 4, frames, PALETTE), frames=frames))

    # A frame smaller than the screen and offset: the rest of the screen stays transparent.
    frames = [Frame(3, 2, fill(4, 3, 2))]
    write("offset-frame.gif", animation(10, 7, frames))
    expected.append(with_canvases(readable("offset-frame.gif", 10, 7, 1, alpha=True,
                                           note="one 4×3 frame at (3, 2) of a 10×7 screen"),
                                  compose(10, 7, frames, PALETTE), frames=frames))

    # A frame partly outside the screen: clipped. (Only a later frame: readers disagree over a first frame
    # outside the screen. Pillow grows the screen to hold it; Firefox takes the first frame's size when it is
    # larger than the screen; Waterfall keeps the logical screen and clips, as for every other frame.)
    frames = [Frame(0, 0, fill(10, 10, 3), delay=10),
              Frame(6, 5, [[(x + y) % 3 for x in range(8)] for y in range(8)], delay=10)]
    write("clipped-frame.gif", animation(10, 10, frames))
    entry = readable("clipped-frame.gif", 10, 10, 2, note="a white screen, then an 8×8 frame at (6, 5): 4×5 of it shows")
    expected.append(with_canvases(entry, compose(10, 10, frames, PALETTE), [100, 100], 1))

    # Local palettes only (no global table): each frame its own colours.
    t1, t2 = [(250, 200, 0), (0, 0, 0)], [(0, 120, 255), (255, 0, 255), (9, 9, 9), (90, 90, 90)]
    frames = [Frame(0, 0, [[x % 2 for x in range(8)] for _ in range(6)], table=t1, delay=5),
              Frame(2, 1, [[(x + y) % 4 for x in range(4)] for y in range(4)], table=t2, delay=5)]
    write("local-palettes.gif", g.screen(8, 6) + b"".join(f.encode() for f in frames) + g.TRAILER)
    entry = readable("local-palettes.gif", 8, 6, 2, note="no global colour table: each frame has its own")
    expected.append(with_canvases(entry, compose(8, 6, frames, None), [50, 50], 1))

    # Delays and the loop count: 0 and 1 cs play as 100 ms; NETSCAPE2.0 says 3 repeats, so 4 plays.
    frames = [Frame(0, 0, fill(4, 4, i), delay=d) for i, d in enumerate([0, 1, 2, 50])]
    write("delays.gif", animation(4, 4, frames, loops=3))
    entry = readable("delays.gif", 4, 4, 4, note="delays 0, 1, 2 and 50 cs; NETSCAPE2.0 loop count 3 (4 plays)")
    expected.append(with_canvases(entry, compose(4, 4, frames, PALETTE), [100, 100, 20, 500], 4))

    # GIF87a, and a file without its trailer (browsers show it).
    frames = [Frame(0, 0, [[(x * y) % 4 for x in range(7)] for y in range(5)])]
    write("gif87a.gif", g.screen(7, 5, PALETTE, version=b"GIF87a") + g.image(0, 0, 7, 5, frames[0].rows) + g.TRAILER)
    expected.append(with_canvases(readable("gif87a.gif", 7, 5, 1, note="GIF87a (no extensions)"),
                                  compose(7, 5, frames, PALETTE), frames=frames))
    write("no-trailer.gif", animation(7, 5, frames)[:-1])
    expected.append(with_canvases(readable("no-trailer.gif", 7, 5, 1, note="no trailer byte: browsers show it"),
                                  compose(7, 5, frames, PALETTE), frames=frames))


def hostile(expected):
    frames = [Frame(0, 0, [[(x + y + i) % 4 for x in range(40)] for y in range(30)], delay=10) for i in range(4)]
    whole = animation(40, 30, frames, loops=0)
    first = whole.index(b"\x2C")  # the first image descriptor
    write("truncated-in-screen.gif", whole[:10])
    expected.append(refused("truncated-in-screen.gif", "truncated",
                            "truncated GIF: the file ends inside its logical screen descriptor", "10 bytes"))
    write("truncated-in-palette.gif", whole[:20])
    expected.append(refused("truncated-in-palette.gif", "truncated",
                            "truncated GIF: the file ends inside its global colour table", "cut inside the colour table"))
    still = animation(40, 30, frames[:1])
    at = still.index(b"\x2C")
    write("truncated-in-image-data.gif", still[:at + 20])
    expected.append(refused("truncated-in-image-data.gif", "truncated",
                            "truncated GIF: the file ends inside its first frame", "a still cut inside its LZW data"))
    # Cut inside the third frame: the two whole frames play, as in browsers.
    starts = [i for i in range(len(whole)) if whole[i:i + 10] == b"\x2C" + struct.pack("<HHHH", 0, 0, 40, 30) + b"\x00"]
    write("truncated-mid-animation.gif", whole[:starts[2] + 30])
    entry = readable("truncated-mid-animation.gif", 40, 30, 2, count_with_pillow=False,
                     note="cut inside frame 3 of 4: Waterfall plays the two whole frames; Pillow counts the cut third")
    entry["pillowFrames"] = pillow(OUT / "truncated-mid-animation.gif")[1]
    if entry["pillowFrames"] != 3:
        sys.exit(f"truncated-mid-animation.gif: Pillow counts {entry['pillowFrames']} frames, not 3")
    expected.append(entry)

    bad = bytearray(still)
    bad[at + 10] = 12  # the LZW minimum code size
    write("corrupt-code-size.gif", bytes(bad))
    expected.append(refused("corrupt-code-size.gif", "corrupt", "corrupt GIF: frame 1 has an LZW code size of 12",
                            "LZW code size 12: no 12-bit code is left for data"))
    write("corrupt-block.gif", still[:at] + b"\x00" + still[at:])
    expected.append(refused("corrupt-block.gif", "corrupt", "corrupt GIF: unknown block 0x00",
                            "a zero byte where a block must start"))
    write("corrupt-zero-screen.gif", g.screen(63, 0, PALETTE) + g.image(0, 0, 8, 6, fill(8, 6, 1)) + g.TRAILER)
    expected.append(refused("corrupt-zero-screen.gif", "corrupt", "corrupt GIF: a logical screen of 63×0",
                            "a logical screen 0 pixels high (found by make fuzz); browsers would use the frame's size"))
    write("no-image.gif", g.screen(8, 8, PALETTE) + g.comment(b"nothing here") + g.TRAILER)
    expected.append(refused("no-image.gif", "corrupt", "corrupt GIF: no image in the file", "a screen and a comment"))
    # LZW data that is no LZW stream (codes past the table): the blocks are whole, so the header reads.
    garbage = g.screen(16, 16, PALETTE) + g.image(0, 0, 16, 16, fill(16, 16, 1), data=b"\xff" * 40) + g.TRAILER
    write("corrupt-lzw-data.gif", garbage)
    expected.append({"file": "corrupt-lzw-data.gif", "format": "gif", "width": 16, "height": 16, "frames": 1,
                     "animated": False, "alpha": False,
                     "decodeError": {"kind": "corrupt", "message": "corrupt GIF"},
                     "note": "LZW codes past the table: the header reads, the decode fails"})

    write("bomb-screen.gif", g.screen(65535, 65535, PALETTE) + g.image(0, 0, 1, 1, [[0]]) + g.TRAILER)
    expected.append(refused("bomb-screen.gif", "tooLarge", "65535×65535 is 4294.8 megapixels",
                            "a 65535×65535 logical screen in 40 bytes: refused before decoding"))
    empty = b"\x2C" + struct.pack("<HHHHB", 0, 0, 0, 0, 0) + b"\x02\x00"
    write("bomb-frame-count.gif", g.screen(1, 1, PALETTE) + empty * 10001 + g.TRAILER)
    expected.append(refused("bomb-frame-count.gif", "unsupported", "unsupported GIF: more than 10000 frames",
                            "10001 empty frames: the header walk stops past 10000"))
    # A small first frame, then two frames declaring 65535×65535 each, in a few bytes: the tile (the first
    # frame) is made; the animation is refused before any of the huge frames is decoded.
    huge = b"\x2C" + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x02" + g.sub_blocks(g.lzw([0] * 8, 2)) + b"\x00"
    write("bomb-huge-frames.gif", g.screen(100, 100, PALETTE) + g.image(0, 0, 100, 100, fill(100, 100, 2)) + huge * 2
          + g.TRAILER)
    entry = readable("bomb-huge-frames.gif", 100, 100, 3,
                     note="a 100×100 first frame, then two frames declaring 65535×65535 each, in under 200 bytes: the "
                          "tile is made, the animated view refused from the blocks before any frame is decoded")
    entry["viewError"] = {"kind": "tooLarge",
                          "message": "GIF frames of 8589712450 pixels in all, over the 2000000000-pixel limit"}
    expected.append(entry)


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected: list[dict] = []
    photos(expected)
    disposals(expected)
    features(expected)
    hostile(expected)
    (OUT / "expected.json").write_text(json.dumps({
        "made by": "Tests/Tools/make_gif_fixtures.py",
        "fixtures": expected,
    }, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(expected)} fixtures in {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
