"""Why Waterfall does not apply a WebP's EXIF orientation (webp_header.c): the browser shows a WebP as stored.

Chromium, Firefox and WebKit (every engine of engines/) turn a JPEG whose EXIF says Orientation 6, and
leave a WebP with the same tag as stored, lossy or lossless, with or without JPEG's "Exif\\0\\0" before the TIFF
header. Were that to change, the WebP header reader would have to follow, and this test says so.
"""
from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "WaterfallKitTests" / "Fixtures"
IMAGES = {
    # file: (stored size, what the browser shows)
    "formats/webp/W06-exif-orientation-6-gps.webp": ((243, 161), (243, 161)),
    "formats/webp/W07-exif-prefixed.webp": ((243, 161), (243, 161)),
    "conformance/exif-orientation/Landscape_6.jpg": ((1200, 1800), (1800, 1200)),  # the control: turned
}

SIZES_JS = """
const done = arguments[arguments.length - 1];
const images = Array.from(document.images);
Promise.all(images.map(i => i.decode().catch(() => null))).then(() =>
    done(images.map(i => [i.getAttribute("src"), i.naturalWidth, i.naturalHeight])));
"""


def test_webp_exif_orientation_is_not_applied(normal_browser, tmp_path):
    tags = []
    for index, name in enumerate(IMAGES):
        copy = f"{index}{Path(name).suffix}"
        shutil.copy(FIXTURES / name, tmp_path / copy)
        tags.append(f'<img src="{copy}">')
    page = tmp_path / "index.html"
    page.write_text("<!doctype html><meta charset=utf-8><body>" + "".join(tags), encoding="utf-8")
    normal_browser.navigate(page.as_uri())
    sizes = normal_browser.run_async(SIZES_JS)
    shown = {name: (width, height) for (_, width, height), name in zip(sizes, IMAGES)}
    assert shown == {name: display for name, (_, display) in IMAGES.items()}
