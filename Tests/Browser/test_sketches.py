"""Sketches (issue 27): before any image arrives, the first screen shows each photo's colours, not boxes.

A first-screen tile of an opaque photo carries its sketch inline (a PNG of its colours on a small grid, as a
data URL in the tile's style); lazy tiles and photos with transparency carry none, and a photo page shows its
photo's sketch in the view's place. The site is copied with its images taken away (no `src`, no `srcset`, no
alt text to draw), which is how a page looks before its images arrive; each engine must then paint the
sketch upright and stretched over the tile: the photos are dark at the top and light at the bottom."""
from __future__ import annotations

import io
import re
import shutil

import pytest

import harness
from conftest import REPO, _path_from_env

VIEWPORTS = [(390, 844), (1440, 900)]

# Each tile: its box, whether it loads eagerly, and the sketch its style carries.
TILES_JS = r"""
return Array.from(document.querySelectorAll('.wf-tile')).map(t => {
  const r = t.getBoundingClientRect();
  return {name: t.querySelector('img').getAttribute('data-name'), left: r.left, top: r.top, width: r.width,
          height: r.height, eager: t.querySelector('img').getAttribute('loading') !== 'lazy',
          background: getComputedStyle(t).backgroundImage};
});
"""

VIEW_JS = r"""
const r = document.querySelector('.wf-photo img').getBoundingClientRect();
return {left: r.left, top: r.top, width: r.width, height: r.height,
        background: getComputedStyle(document.querySelector('.wf-photo img')).backgroundImage};
"""


def make_photos(folder):
    from PIL import Image
    folder.mkdir(parents=True)
    sizes = [(1600, 1200), (900, 1600), (1200, 1200), (2000, 800), (1000, 1500), (1500, 1000)] * 5
    for index, size in enumerate(sizes):
        tint = [(200, 90, 60), (60, 120, 200), (80, 160, 90)][index % 3]
        image = Image.blend(Image.linear_gradient("L").resize(size).convert("RGB"), Image.new("RGB", size, tint), 0.5)
        image.save(folder / f"{index:02d}-gradient.jpg", quality=90)
    cutout = Image.new("RGBA", (1200, 900), (0, 0, 0, 0))
    cutout.paste((200, 40, 40, 255), (300, 200, 900, 700))
    cutout.save(folder / "00-cutout.png")


def without_images(site, copy):
    """The site as it looks before its images arrive: no image to fetch and no alt text to draw."""
    shutil.copytree(site, copy)
    for page in copy.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        text = re.sub(r' (src|srcset)="[^"]*"', "", text)
        text = re.sub(r'(<img[^>]*?) alt="([^"]*)"', r'\1 alt="" data-name="\2"', text)
        page.write_text(text, encoding="utf-8")
    return copy


@pytest.fixture(scope="session")
def sketch_site(tmp_path_factory):
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    work = tmp_path_factory.mktemp("sketches")
    make_photos(work / "photos")
    index = harness.build_site(binary, work / "photos", work / "site")
    return without_images(index.parent, work / "bare")


def brightness(image, x: float, y: float) -> int:
    return sum(image.getpixel((int(x), int(y)))[:3])


def screenshot(browser):
    from PIL import Image
    return Image.open(io.BytesIO(browser.driver.screenshot_png())).convert("RGB")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_first_screen_tiles_show_their_sketch(normal_browser, sketch_site, viewport):
    browser = normal_browser
    browser.load((sketch_site / "index.html").as_uri(), *viewport)
    tiles = browser.run(TILES_JS)
    image = screenshot(browser)
    scale = image.width / viewport[0]
    problems, painted = [], 0
    for tile in tiles:
        has_sketch = "data:image/png" in tile["background"]
        should = tile["eager"] and "cutout" not in tile["name"]
        if has_sketch != should:
            problems.append(f"{tile['name']}: {'a' if has_sketch else 'no'} sketch on a "
                            f"{'first-screen' if tile['eager'] else 'lazy'} tile")
        if not has_sketch or tile["top"] < 0 or tile["top"] + tile["height"] > viewport[1]:
            continue
        x = (tile["left"] + tile["width"] / 2) * scale
        top = brightness(image, x, (tile["top"] + tile["height"] * 0.15) * scale)
        bottom = brightness(image, x, (tile["top"] + tile["height"] * 0.85) * scale)
        painted += 1
        if bottom - top < 90:
            problems.append(f"{tile['name']}: the sketch is not the photo's light (top {top}, bottom {bottom})")
    assert painted >= 2, f"{browser.engine}: {painted} sketches on the first screen"
    assert not problems, f"{browser.engine} at {viewport[0]}×{viewport[1]}:\n" + "\n".join(problems)


def test_photo_pages_show_their_sketch(normal_browser, sketch_site):
    browser = normal_browser
    pages = sorted(sketch_site.glob("photos/*.html"))
    assert len(pages) == 31
    problems = []
    for page in pages:
        browser.load(page.as_uri(), 390, 844)
        view = browser.run(VIEW_JS)
        has_sketch = "data:image/png" in view["background"]
        if has_sketch == ("cutout" in page.name):
            problems.append(f"{page.name}: {'a' if has_sketch else 'no'} sketch")
        if not has_sketch or "gradient" not in page.name or page.name > "03":
            continue
        image = screenshot(browser)
        scale = image.width / 390
        x = (view["left"] + view["width"] / 2) * scale
        top = brightness(image, x, (view["top"] + view["height"] * 0.15) * scale)
        bottom = brightness(image, x, (view["top"] + view["height"] * 0.85) * scale)
        if bottom - top < 90:
            problems.append(f"{page.name}: the sketch is not the photo's light (top {top}, bottom {bottom})")
    assert not problems, f"{browser.engine}:\n" + "\n".join(problems)
