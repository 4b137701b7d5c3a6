"""The images each engine picks (issue 27), on a gallery of 1800-px photos, at both ends of every band:

- `sizes` is exact: the length it gives at that viewport is the tile's rendered width (within a scroll bar),
  and never less: a band's media condition starts 20 px above the band, so where a classic scroll bar
  leaves the board in the band below, `sizes` says that band's wider tile;
- the file the engine picks for a tile, or for a photo page's view, is at least as wide as the box's device
  pixels (rendered width × devicePixelRatio), at scale 1 in every engine and at 2 and 3 where the driver
  can emulate a device scale (Chromium, Firefox);
- at most two images ask for high priority, and what loads eagerly is the first screen: every tile whose top
  is on the first screen of the narrowest device a band serves loads eagerly, none more than a screen below.

How wide at most an image may be (1.5 times the need) is the unit tests' (ImageChoiceTests): an engine may
take a wider file it already holds, so the browsers check the lower bound only."""
from __future__ import annotations

import shutil

import pytest

import harness
from conftest import REPO, _path_from_env

CONFORMANCE = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "conformance" / "exif-orientation"
BAND_ENDS = [320, 599, 600, 899, 900, 1399, 1400, 2560]
NARROWEST = [320, 600, 900, 1400]  # each band's narrowest board, with the defaults
SCALES = [1, 2, 3]

# Each tile's image: its box relative to the board, what the engine chose, and the attributes.
TILES_JS = r"""
const board = document.querySelector('.wf-board').getBoundingClientRect();
return Array.from(document.querySelectorAll('.wf-tile img')).map(i => {
  const r = i.getBoundingClientRect();
  return {top: r.top - board.top, width: r.width, inView: r.top < innerHeight && r.bottom > 0,
          currentSrc: i.currentSrc, complete: i.complete, srcset: i.getAttribute('srcset'),
          sizes: i.getAttribute('sizes'), loading: i.getAttribute('loading'),
          priority: i.getAttribute('fetchpriority')};
});
"""

# The length `sizes` gives at this viewport, as the engine computes it: the first entry whose media
# condition matches (the last has none), as a probe element's width.
SIZES_JS = r"""
const entries = arguments[0].split(/,(?![^(]*\))/).map(s => s.trim());
let length = entries[entries.length - 1];
for (const entry of entries.slice(0, -1)) {
  const split = entry.indexOf(')') + 1;
  if (matchMedia(entry.slice(0, split)).matches) { length = entry.slice(split).trim(); break; }
}
const probe = document.createElement('div');
probe.style.cssText = 'position:absolute;left:0;top:0;height:1px;width:' + length;
document.body.appendChild(probe);
const width = probe.getBoundingClientRect().width;
probe.remove();
return width;
"""

# Waits (up to 20 s) until every image in the viewport is complete.
WAIT_JS = r"""
const done = arguments[arguments.length - 1];
const start = Date.now();
(function check() {
  const pending = Array.from(document.images).filter(i => {
    const r = i.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0 && !i.complete;
  });
  if (!pending.length || Date.now() - start > 20000) done(pending.length);
  else setTimeout(check, 50);
})();
"""

VIEW_JS = r"""
const i = document.querySelector('.wf-view img');
return {width: i.getBoundingClientRect().width, currentSrc: i.currentSrc, srcset: i.getAttribute('srcset')};
"""


def screen_height(width: int) -> int:
    """The model's screen for a device `width` px wide (FirstScreen.screenHeight)."""
    if width < 600:
        return round(width * 844 / 390)
    if width < 1024:
        return round(width * 4 / 3)
    return round(width * 10 / 16)


def candidates(srcset: str) -> dict[str, int]:
    """`a.jpg 217w, b.jpg 325w` as {file name: width}."""
    out = {}
    for part in srcset.split(", "):
        url, _, descriptor = part.rpartition(" ")
        out[url.rsplit("/", 2)[-2] + "/" + url.rsplit("/", 1)[-1]] = int(descriptor[:-1])
    return out


def chosen_width(current: str, srcset: str) -> int | None:
    key = "/".join(current.split("/")[-2:])
    return candidates(srcset).get(key)


@pytest.fixture(scope="session")
def ladder_site(tmp_path_factory):
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    photos = tmp_path_factory.mktemp("ladder") / "photos"
    photos.mkdir()
    for index in range(24):
        name = ["Landscape_1.jpg", "Portrait_1.jpg", "Landscape_1.jpg"][index % 3]
        shutil.copyfile(CONFORMANCE / name, photos / f"{index:02d}-{name}")
    return harness.build_site(binary, photos, photos.parent / "site")


def load(browser: harness.Browser, url: str, width: int, height: int, scale: int) -> bool:
    """The page at width × height CSS px and the device scale; False where the engine cannot emulate it."""
    browser.driver.set_scale(1)
    browser.load(url, width, height)
    if scale != 1:
        if not browser.driver.set_scale(scale):
            return False
        browser.navigate(url)
    assert browser.run("return window.devicePixelRatio") == scale
    browser.run_async(WAIT_JS)
    return True


@pytest.mark.parametrize("scale", SCALES, ids=lambda s: f"{s}x")
def test_every_tile_gets_an_image_as_sharp_as_its_screen(normal_browser, ladder_site, scale):
    problems = []
    try:
        for width in BAND_ENDS:
            if not load(normal_browser, ladder_site.as_uri(), width, screen_height(width), scale):
                pytest.skip(f"{normal_browser.engine}'s driver cannot emulate a device scale of {scale}")
            tiles = normal_browser.run(TILES_JS)
            sizes = normal_browser.run(SIZES_JS, tiles[0]["sizes"])
            scrollbar = normal_browser.scrollbar
            for index, tile in enumerate(tiles):
                # Exact within a scroll bar; a scroll bar's width above a band's start, the band below's wider tile.
                near = any(0 <= width + scrollbar - start < 20 for start in NARROWEST[1:])
                if not (tile["width"] - 0.5 <= sizes <= (tile["width"] * 1.6 if near else tile["width"] + scrollbar + 0.5)):
                    problems.append(f"{width} px: tile {index} is {tile['width']:.2f} px wide, sizes says {sizes:.2f}")
                if not tile["inView"] or not tile["currentSrc"]:
                    continue
                chosen = chosen_width(tile["currentSrc"], tile["srcset"])
                widest = max(candidates(tile["srcset"]).values())
                need = tile["width"] * scale
                if chosen is None:
                    problems.append(f"{width} px: tile {index} shows {tile['currentSrc']}, not in its srcset")
                elif chosen < need * 0.99 and chosen != widest:
                    problems.append(f"{width} px at {scale}x: tile {index} needs {need:.0f} px, got {chosen}w")
        # A photo page's view, on a phone and a desktop.
        page = ladder_site.parent / "photos" / "01-Portrait_1.jpg.html"
        for width, height in [(390, 844), (1440, 900)]:
            load(normal_browser, page.as_uri(), width, height, scale)
            view = normal_browser.run(VIEW_JS)
            chosen = chosen_width(view["currentSrc"], view["srcset"])
            need = view["width"] * scale
            if chosen is None or (chosen < need * 0.99 and chosen != max(candidates(view["srcset"]).values())):
                problems.append(f"photo page at {width} px, {scale}x: the view needs {need:.0f} px, got {chosen}w")
    finally:
        normal_browser.driver.set_scale(1)
    assert not problems, f"{normal_browser.engine}:\n" + "\n".join(problems)


def test_the_first_screen_loads_first_and_nothing_far_below_it(normal_browser, ladder_site):
    """Eager: on the first screen of some band's narrowest device, and not more than a screen below the fold on
    any (the markup is one for every width); high priority on one or two tiles, which load eagerly too."""
    depths, attributes = {}, None
    for width in NARROWEST:
        height = screen_height(width)
        normal_browser.load(ladder_site.as_uri(), width, height)
        tiles = normal_browser.run(TILES_JS)
        depths[width] = [tile["top"] / height for tile in tiles]
        attributes = [(tile["loading"] != "lazy", tile["priority"] == "high") for tile in tiles]
    high = [index for index, (_, first) in enumerate(attributes) if first]
    assert 1 <= len(high) <= 2, f"{len(high)} images ask for high priority: {high}"
    problems = []
    for index, (eager, first) in enumerate(attributes):
        expected = first or (any(d[index] < 1 for d in depths.values()) and all(d[index] < 2 for d in depths.values()))
        if eager != expected:
            where = ", ".join(f"{w} px: {d[index]:.2f} screens down" for w, d in depths.items())
            problems.append(f"tile {index} {'eager' if eager else 'lazy'} ({where})")
    assert not problems, f"{normal_browser.engine}:\n" + "\n".join(problems)
