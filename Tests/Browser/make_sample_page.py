#!/usr/bin/env python3
"""Writes Tests/Browser/sample_page/: a small hand-made gallery page that follows the page contract of
`waterfall build`, so the browser harness can be developed and self-checked without the real build.

    python3 Tests/Browser/make_sample_page.py [OUT_DIR]

Eight PNG photos of different shapes (written with zlib and struct, no imaging library), an index.html whose
tiles are placed by CSS alone (percentages of the board's width plus px, in `calc()`), with container queries
on `.wf-frame` and a media-query fallback, and inspect.json: what `waterfall inspect --json` prints for the
photos (the harness reads it instead of running the binary when it tests this page).

Layout: round-robin columns (tile i in column i mod C), 10 px insets and gaps, a 50 px footer under the
tallest column; C = 2 below 600 px of board width, 3 up to 1200 px, 4 above. The frame is at most 1800 px wide.
Deterministic: the same bytes every run.
"""
import html
import json
import struct
import sys
import zlib
from pathlib import Path
from urllib.parse import quote

# (file name, width, height, colour)  -- a space in one name exercises URL decoding.
PHOTOS = [
    ("photo-1.png", 60, 40, (196, 82, 64)),
    ("photo-2.png", 30, 45, (72, 132, 190)),
    ("photo-3.png", 50, 50, (96, 168, 96)),
    ("photo-4.png", 40, 70, (214, 170, 60)),
    ("photo-5.png", 80, 30, (150, 96, 180)),
    ("photo-6.png", 45, 60, (60, 160, 160)),
    ("photo 7.png", 70, 50, (200, 110, 150)),
    ("photo-10.png", 36, 64, (120, 120, 120)),
]
INSET, GAP, FOOTER = 10.0, 10.0, 50.0
BANDS = [(0, 600, 2), (600, 1200, 3), (1200, 1800, 4)]  # (min board width, max considered, columns)
MAX_FRAME = 1800


def png(width, height, colour):
    """A stripy RGB PNG: darker every 4th row and column, so screenshots show scaling."""
    r, g, b = colour
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            f = 0.7 if (x % 8 < 2 or y % 8 < 2) else 1.0
            row += bytes((int(r * f), int(g * f), int(b * f)))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


class Affine:
    """a·W + b, W being the board width."""

    def __init__(self, a=0.0, b=0.0):
        self.a, self.b = a, b

    def __add__(self, other):
        other = other if isinstance(other, Affine) else Affine(0, other)
        return Affine(self.a + other.a, self.b + other.b)

    def scale(self, k):
        return Affine(self.a * k, self.b * k)

    def at(self, w):
        return self.a * w + self.b

    def css(self):
        sign = "-" if self.b < 0 else "+"
        return f"calc({self.a * 100:.5f}% {sign} {abs(self.b):.3f}px)"


def band_layout(columns, low, high):
    item = Affine(1.0 / columns, -(2 * INSET + (columns - 1) * GAP) / columns)
    pitch = item + GAP
    tops = [Affine(0, INSET) for _ in range(columns)]
    frames = []
    for index, (_, w, h, _) in enumerate(PHOTOS):
        column = index % columns
        frames.append((column, tops[column]))
        tops[column] = tops[column] + item.scale(h / w) + GAP
    # The tallest column must be the same one over the whole band (heights are linear in W).
    tallest = {max(range(columns), key=lambda c: tops[c].at(w)) for w in (max(low, 200), high)}
    assert len(tallest) == 1, f"tallest column changes inside band {low}-{high}"
    footer_y = tops[tallest.pop()]  # already includes one GAP below the last tile
    content = footer_y + FOOTER + INSET
    return item, pitch, frames, footer_y, content


def rules(number, item, pitch, footer_y, content):
    return (f".wf-board{{padding-bottom:{content.css()}}}"
            f".wf-tile{{left:calc({INSET:.0f}px + var(--c{number}) * {pitch.css()});margin-top:var(--t{number});"
            f"width:{item.css()};padding-bottom:calc(var(--k) * {item.css()})}}"
            f".wf-footer{{margin-top:{footer_y.css()}}}\n")


def page():
    styles = [f"--k:{h / w:.6f}" for _, w, h, _ in PHOTOS]
    css_bands = []
    for number, (low, high, columns) in enumerate(BANDS):
        item, pitch, frames, footer_y, content = band_layout(columns, low, high)
        for index, (column, top) in enumerate(frames):
            styles[index] += f";--c{number}:{column};--t{number}:{top.css()}"
        css_bands.append((low, rules(number, item, pitch, footer_y, content)))
    css = "*{box-sizing:border-box}\nbody{margin:0;font:16px/1.4 sans-serif;background:#f4f1ec;color:#222}\n"
    css += "header{padding:10px}h1{margin:0;font-size:20px}\n"
    css += f".wf-frame{{container:wf / inline-size;max-width:{MAX_FRAME}px;margin:0 auto}}\n"
    css += ".wf-board{position:relative;height:0}\n"
    css += ".wf-tile{position:absolute;top:0;height:0;margin:0;background:#ddd}\n"
    css += ".wf-tile a,.wf-tile img{position:absolute;left:0;top:0;width:100%;height:100%;display:block}\n"
    css += (".wf-footer{position:absolute;top:0;left:10px;right:10px;height:50px;margin:0;"
            "border-top:1px solid #bbb;font-size:13px;color:#666;padding-top:8px}\n")
    css += css_bands[0][1]
    for low, text in css_bands[1:]:
        css += f"@container wf (min-width:{low}px){{{text}}}\n"
    css += "@supports not (container-type:inline-size){\n"
    for low, text in css_bands[1:]:
        css += f"@media (min-width:{low}px){{{text}}}\n"
    css += "}\n"

    tiles = []
    for index, (name, w, h, _) in enumerate(PHOTOS):
        url = "photos/" + quote(name)
        loading = "eager" if index < 3 else "lazy"
        tiles.append(f'<figure class="wf-tile" data-tile="{index}" style="{styles[index]}">'
                     f'<a href="{url}"><img src="{url}" width="{w}" height="{h}" '
                     f'alt="{html.escape(name.rsplit(".", 1)[0])}" loading="{loading}" decoding="async"></a></figure>')
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>Sample gallery</title>\n<style>\n" + css + "</style>\n</head>\n<body>\n"
            "<header><h1>Sample gallery</h1></header>\n<main class=\"wf-frame\">\n<div class=\"wf-board\">\n"
            + "\n".join(tiles) + "\n<footer class=\"wf-footer\" data-footer>8 photos</footer>\n"
            "</div>\n</main>\n</body>\n</html>\n")


def main(out):
    out = Path(out)
    (out / "photos").mkdir(parents=True, exist_ok=True)
    inspect = []
    for name, w, h, colour in PHOTOS:
        (out / "photos" / name).write_bytes(png(w, h, colour))
        inspect.append({"path": f"photos/{name}", "format": "png", "pixelWidth": w, "pixelHeight": h,
                        "orientation": 1, "width": w, "height": h})
    (out / "index.html").write_text(page(), encoding="utf-8")
    (out / "inspect.json").write_text(json.dumps(inspect, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent / "sample_page")
