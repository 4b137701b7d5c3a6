"""Real-browser harness for Waterfall's pages, in every engine of engines/ (Chromium, Firefox, WebKit).

Everything a test needs lives here, so that test_gallery.py (the real page) and test_harness_selfcheck.py
(deliberately broken copies of sample_page/) run exactly the same measurement and the same checks, in
every engine.

Measuring: `Browser.measure_normal` loads a page at an exact viewport width, records the geometry right
after the load event, scrolls through the page so lazy images load, waits for every image, records the
geometry again, collects layout shifts, and takes a full-page screenshot. `Browser.measure_geometry`
only loads and records (for the images-blocked and JavaScript-disabled browsers).

Width: the tested width is the page's layout width, document.documentElement.clientWidth, so without a
classic scroll bar (Chromium's 15 px, Firefox's 12 px; WebKitGTK's are overlay and take none). So every
engine lays the board out at the same width, and their rectangles can be compared.

Layout shifts, two ways:
- the Layout Instability API (a buffered `layout-shift` PerformanceObserver): Chromium only (Firefox and
  WebKit do not implement it), so there it is checked as before;
- in every engine, a motion recorder (MOTION_RECORDER_JS) that each normal browser runs at the start of
  every document (engines' preload): on every animation frame from the first one it reads the rectangles
  (in document coordinates, so scrolling is not motion) of every tile, image, footer, board and
  previous/next link, and records any change of more than 0.01 px of an element it saw in an earlier frame.
  That is what a visitor calls a layout shift, seen frame by frame, without the API.

Checks: `check_*` functions take measurements and return a list of problems (strings); empty means pass.

Reading geometry with JavaScript disabled: each engine's "page scripts off" setting (engines/) leaves
WebDriver's own scripts working, so the same geometry script serves every browser; `Browser.start` proves
on a probe page that page scripts really are off (or on) and images blocked (or not) before any test
trusts the browser.
"""
from __future__ import annotations

import ast
import html as html_lib
import json
import operator
import os
import posixpath
import re
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

import engines

# Viewport heights used with each tested width (phone, tablet portrait, tablet landscape, laptop, big screen).
VIEWPORT_HEIGHTS = {360: 740, 768: 1024, 1024: 768, 1440: 900, 2560: 1440}

# The page's own view of itself, in document coordinates (independent of the scroll position).
GEOMETRY_JS = r"""
const sx = window.scrollX, sy = window.scrollY;
function box(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {x: r.left + sx, y: r.top + sy, w: r.width, h: r.height};
}
const tiles = Array.from(document.querySelectorAll('[data-tile]')).map(t => {
  const a = t.querySelector('a'), img = t.querySelector('img');
  return {
    index: t.getAttribute('data-tile'), box: box(t),
    href: a ? a.getAttribute('href') : null,
    img: img ? {
      box: box(img), src: img.getAttribute('src'), width: img.getAttribute('width'),
      height: img.getAttribute('height'), alt: img.getAttribute('alt'), loading: img.getAttribute('loading'),
      decoding: img.getAttribute('decoding')} : null,
  };
});
const footers = document.querySelectorAll('[data-footer]');
const frame = document.querySelector('.wf-frame');
const de = document.documentElement;
const handlers = [];
for (const el of document.querySelectorAll('*'))
  for (const at of el.attributes)
    if (at.name.startsWith('on')) handlers.push(el.tagName.toLowerCase() + '[' + at.name + ']');
return {
  tiles: tiles, footer: footers.length ? box(footers[0]) : null, footerCount: footers.length,
  board: box(document.querySelector('.wf-board')), frame: box(frame),
  frameContentWidth: frame ? parseFloat(getComputedStyle(frame).width) : null,
  scrollWidth: de.scrollWidth, clientWidth: de.clientWidth, scrollHeight: de.scrollHeight,
  innerWidth: window.innerWidth, innerHeight: window.innerHeight,
  images: Array.from(document.images).map(i => ({src: i.getAttribute('src'), complete: i.complete,
                                                 naturalWidth: i.naturalWidth})),
  scripts: document.scripts.length, handlers: handlers,
  javascriptUrls: Array.from(document.querySelectorAll('[href^="javascript:" i],[src^="javascript:" i]')).length,
};
"""

# Installed right after load; `buffered: true` also delivers the shifts that happened before it existed.
# Returns false where the engine has no Layout Instability API (Firefox, WebKit).
LAYOUT_SHIFT_OBSERVER_JS = r"""
window.__wfShifts = [];
if (!(window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes('layout-shift'))) return false;
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__wfShifts.push({
    value: e.value, hadRecentInput: e.hadRecentInput, startTime: e.startTime,
    sources: (e.sources || []).map(s => ({
      node: s.node ? (s.node.outerHTML || s.node.nodeName).slice(0, 100) : null,
      previous: [s.previousRect.x, s.previousRect.y, s.previousRect.width, s.previousRect.height],
      current: [s.currentRect.x, s.currentRect.y, s.currentRect.width, s.currentRect.height]}))});
}).observe({type: 'layout-shift', buffered: true});
return true;
"""

# Run by every normal browser at the start of every document (see the module's docstring).
MOTION_RECORDER_JS = r"""
(() => {
  if (window.__wfMotion) return;
  const SELECTOR = '[data-tile], [data-tile] img, [data-footer], .wf-board, .wf-photo img, .wf-photo video, a[rel="prev"], a[rel="next"]';
  const last = new WeakMap(), moves = [];
  const state = {moves: moves, frames: 0, elements: 0};
  function describe(el) {
    const tile = el.closest('[data-tile]');
    return el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '')
      + (tile ? ' in tile ' + tile.getAttribute('data-tile') : '') + (el.getAttribute('src') ? ' ' + el.getAttribute('src') : '');
  }
  function sample() {
    state.frames++;
    const sx = window.scrollX, sy = window.scrollY;
    const elements = document.querySelectorAll(SELECTOR);
    state.elements = elements.length;
    for (const el of elements) {
      const r = el.getBoundingClientRect();
      const now = [r.left + sx, r.top + sy, r.width, r.height];
      const before = last.get(el);
      if (before && now.some((v, i) => Math.abs(v - before[i]) > 0.01) && moves.length < 50)
        moves.push({node: describe(el), frame: state.frames, time: Math.round(performance.now()),
                    before: before.map(v => Math.round(v * 100) / 100), now: now.map(v => Math.round(v * 100) / 100)});
      last.set(el, now);
    }
    requestAnimationFrame(sample);
  }
  window.__wfMotion = state;
  requestAnimationFrame(sample);
})();
"""

# Waits two frames and a task, so shifts of the last frame have reached the observer and the recorder.
READ_SHIFTS_JS = r"""
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done({
  shifts: window.__wfShifts || null,
  motion: window.__wfMotion ? {moves: window.__wfMotion.moves, frames: window.__wfMotion.frames,
                               elements: window.__wfMotion.elements} : null}), 50)));
"""

# Scrolls to the bottom one viewport at a time, two frames per step so lazy images start loading.
SCROLL_THROUGH_JS = r"""
const done = arguments[arguments.length - 1];
const step = Math.max(100, window.innerHeight);
let y = 0;
function next() {
  window.scrollTo(0, y);
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const bottom = document.documentElement.scrollHeight - window.innerHeight;
    if (y >= bottom) { done(y); } else { y = Math.min(y + step, bottom); next(); }
  }));
}
next();
"""

IMAGES_STATE_JS = r"""
return Array.from(document.images).map(i => ({src: i.getAttribute('src'), complete: i.complete,
                                              naturalWidth: i.naturalWidth}));
"""

# Resolves once the first image matching the selector has loaded or failed (or at once if it already has).
WAIT_FOR_IMAGE_JS = r"""
const done = arguments[arguments.length - 1];
const img = document.querySelector(arguments[0]);
if (!img) done(null);
else if (img.tagName === 'VIDEO') {  // a video page's: its metadata (preload="metadata")
  if (img.readyState >= 1) done(img.videoWidth);
  else { img.addEventListener('loadedmetadata', () => done(img.videoWidth)); img.addEventListener('error', () => done(0), true); }
}
else if (img.complete) done(img.naturalWidth);
else { img.addEventListener('load', () => done(img.naturalWidth)); img.addEventListener('error', () => done(0)); }
"""

BOX_JS = r"""
const el = document.querySelector(arguments[0]);
if (!el) return null;
const r = el.getBoundingClientRect();
return [r.x + window.scrollX, r.y + window.scrollY, r.width, r.height];
"""


# ----------------------------------------------------------------------------------------------------------
# Building the site and reading the photos' expected sizes


def natural_top_level_files(folder: Path) -> list[Path]:
    """Files directly in folder (not in sub-folders), dot-files left out; order does not matter here."""
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def build_site(binary: Path, gallery: Path, output: Path, *options: str) -> Path:
    """Runs `waterfall build GALLERY -o OUTPUT --quiet [OPTIONS]`; returns OUTPUT/index.html."""
    result = subprocess.run([str(binary), "build", str(gallery), "-o", str(output), "--quiet", *options],
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"`{binary} build {gallery} -o {output} --quiet` exited {result.returncode}:\n"
                           f"{result.stderr.strip() or result.stdout.strip()}")
    index = output / "index.html"
    if not index.is_file():
        raise RuntimeError(f"`waterfall build` wrote no {index}")
    return index


def inspect_photos(binary: Path, files: list[Path]) -> dict[str, tuple[int, int]]:
    """`waterfall inspect --json FILES...` as {file name: (display width, display height)}.

    Entries with `error` (files that are not readable photos) are left out; inspect exits 1 for those, so
    exit statuses 0 and 1 are both fine as long as the JSON is there."""
    if not files:
        return {}
    result = subprocess.run([str(binary), "inspect", "--json", *map(str, files)],
                            capture_output=True, text=True, timeout=300)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"`waterfall inspect --json` exited {result.returncode}:\n{result.stderr.strip()}")
    return photos_from_inspect_json(json.loads(result.stdout))


def photos_from_inspect_json(entries: list[dict]) -> dict[str, tuple[int, int]]:
    photos = {}
    for entry in entries:
        if "error" in entry:
            continue
        name = posixpath.basename(entry["path"].replace(os.sep, "/"))
        if name in photos:
            raise RuntimeError(f"two photos are named {name!r}: tiles could not be matched to photos")
        photos[name] = (int(entry["width"]), int(entry["height"]))
    return photos


def fixture_listing(listing: Path) -> list[dict]:
    """The entries of a formats/*/expected.json, each with its `file`: formats/heif lists them under
    "fixtures", formats/webp maps file names to them. Adds `readable` (inspect gives a size), `decodable`
    (its pixels decode: not heif's decodeError nor webp's derive) and `light` (no oversized view)."""
    data = json.loads(listing.read_text(encoding="utf-8"))
    entries = data["fixtures"] if "fixtures" in data else [dict(entry, file=name) for name, entry in data.items()]
    for entry in entries:
        entry.setdefault("format", listing.parent.name)
        entry["readable"] = "error" not in entry and "width" in entry and "height" in entry
        entry["decodable"] = entry["readable"] and "decodeError" not in entry and "derive" not in entry
        entry["light"] = "viewError" not in entry and "view" not in entry
    return entries


# ----------------------------------------------------------------------------------------------------------
# The browser


def tiny_png(width: int = 4, height: int = 3) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


_probe = {}


def probe_page() -> str:
    """A page whose script sets its title and whose image is 4×3: proves what a browser runs and loads."""
    if "url" not in _probe:
        folder = Path(tempfile.mkdtemp(prefix="waterfall-probe-"))
        (folder / "probe.png").write_bytes(tiny_png())
        (folder / "probe.html").write_text("<!doctype html><title>-</title><img src=\"probe.png\">"
                                           "<script>document.title = 'js-ran'</script>", encoding="utf-8")
        _probe.update(url=(folder / "probe.html").as_uri(), folder=folder)
    return _probe["url"]


def remove_probe_page():
    if "folder" in _probe:
        shutil.rmtree(_probe.pop("folder"), ignore_errors=True)
        _probe.pop("url", None)


@dataclass
class Geometry:
    """One reading of GEOMETRY_JS."""
    raw: dict

    @property
    def tiles(self) -> list[dict]:
        return self.raw["tiles"]

    def signature(self) -> dict:
        """Every tile rect and the footer rect, rounded to 0.5 px: what must not change between browsers."""
        def r(box):
            return None if box is None else tuple(round(box[k] * 2) / 2 for k in ("x", "y", "w", "h"))
        return {"tiles": [(t["index"], r(t["box"])) for t in self.tiles], "footer": r(self.raw["footer"])}

    def board_relative(self) -> dict[str, tuple[float, float, float, float]]:
        """Every tile's rect relative to the board's top-left corner (what the build positions exactly)."""
        board = self.raw["board"] or {"x": 0.0, "y": 0.0}
        return {t["index"]: (t["box"]["x"] - board["x"], t["box"]["y"] - board["y"], t["box"]["w"], t["box"]["h"])
                for t in self.tiles}


@dataclass
class NormalRun:
    width: int
    before: Geometry                 # right after the load event
    after: Geometry                  # after scrolling through and every image loaded (or the wait timed out)
    images: list[dict]               # state of every <img> at the end of the wait
    images_waited: float
    shifts: list[dict] | None        # layout-shift entries; None where the engine has no such API
    motion: dict | None = None       # the motion recorder's {moves, frames, elements}; None if it did not run
    engine: str = ""
    screenshot: Path | None = None
    screenshot_size: tuple[int, int] | None = None
    document_height: int = 0


@dataclass
class Browser:
    """One browser of one engine, in one configuration, for the whole session."""
    name: str
    driver: engines.Driver
    javascript: bool = True
    block_images: bool = False
    scrollbar: int = 0  # innerWidth - clientWidth when the page scrolls vertically, learnt

    @property
    def engine(self) -> str:
        return self.driver.engine

    @classmethod
    def start(cls, engine: str, name: str, *, javascript: bool = True, block_images: bool = False) -> "Browser":
        """Starts the browser (raises engines.EngineUnavailable when the engine cannot run here) and proves
        on the probe page that it runs page scripts and loads images exactly as asked."""
        preload = MOTION_RECORDER_JS if javascript and not block_images else None
        driver = engines.start(engine, javascript=javascript, block_images=block_images, preload=preload)
        browser = cls(name, driver, javascript, block_images)
        try:
            driver.set_viewport(800, 600)
            driver.navigate(probe_page())
            ratio, title, natural = driver.run(
                "return [window.devicePixelRatio, document.title, document.images[0].naturalWidth]")
            problems = []
            if ratio != 1:
                problems.append(f"devicePixelRatio {ratio}, expected 1")
            if (title == "js-ran") != javascript:
                problems.append(f"page JavaScript {'ran' if title == 'js-ran' else 'did not run'} on the probe page, "
                                f"expected it {'on' if javascript else 'off'}")
            if (natural == 4) == block_images:
                problems.append(f"the probe image {'loaded' if natural else 'did not load'}, expected it "
                                f"{'blocked' if block_images else 'loaded'}")
            if problems:
                raise RuntimeError(f"{engine} browser {name!r}: " + "; ".join(problems))
        except BaseException:
            driver.quit()
            raise
        return browser

    def quit(self):
        self.driver.quit()

    # -- the driver's interface, for tests -------------------------------------------------------------

    def run(self, body: str, *args):
        return self.driver.run(body, *args)

    def run_async(self, body: str, *args):
        return self.driver.run_async(body, *args)

    def navigate(self, url: str):
        self.driver.navigate(url)

    def click(self, selector: str):
        self.driver.click(selector)

    def url(self) -> str:
        return self.driver.run("return location.href")

    def attribute(self, selector: str, name: str):
        return self.driver.run("const e = document.querySelector(arguments[0]); "
                               "return e ? e.getAttribute(arguments[1]) : null", selector, name)

    def link(self, selector: str) -> str | None:
        """The absolute URL of the first link matching selector."""
        return self.driver.run("const e = document.querySelector(arguments[0]); return e ? e.href : null", selector)

    def text(self, selector: str) -> str | None:
        return self.driver.run("const e = document.querySelector(arguments[0]); "
                               "return e ? e.textContent.trim() : null", selector)

    def box(self, selector: str):
        return self.driver.run(BOX_JS, selector)

    def wait_for_image(self, selector: str):
        return self.driver.run_async(WAIT_FOR_IMAGE_JS, selector)

    # -- viewport ------------------------------------------------------------------------------------------

    def _viewport(self) -> tuple[int, int, int]:
        return tuple(self.driver.run(
            "return [document.documentElement.clientWidth, window.innerWidth, window.innerHeight]"))

    def load(self, url: str, width: int, height: int):
        """Loads url with a layout width (document.documentElement.clientWidth, so without a classic vertical
        scroll bar) of exactly `width` CSS px, and window.innerHeight == height. The page is loaded again
        after every correction, so its whole life (lazy loading, layout shifts) happened at the target size."""
        self.driver.set_viewport(width + self.scrollbar, height)
        self.driver.navigate(url)
        for _ in range(4):
            client_width, inner_width, inner_height = self._viewport()
            if (client_width, inner_height) == (width, height):
                return
            self.scrollbar = inner_width - client_width if inner_width > client_width else 0
            self.driver.set_viewport(width + self.scrollbar, height)
            self.driver.navigate(url)
        raise RuntimeError(f"{self.engine} {self.name}: could not get a {width}x{height} viewport; "
                           f"have {self._viewport()} (clientWidth, innerWidth, innerHeight)")

    # -- measurements ---------------------------------------------------------------------------------------

    def geometry(self) -> Geometry:
        return Geometry(self.driver.run(GEOMETRY_JS))

    def measure_geometry(self, url: str, width: int) -> Geometry:
        self.load(url, width, VIEWPORT_HEIGHTS.get(width, 900))
        return self.geometry()

    def read_shifts(self) -> dict:
        """{shifts: layout-shift entries or None, motion: the recorder's state or None}."""
        return self.driver.run_async(READ_SHIFTS_JS)

    def measure_normal(self, url: str, width: int, *, image_timeout: float = 15.0,
                       screenshot: Path | None = None) -> NormalRun:
        height = VIEWPORT_HEIGHTS.get(width, 900)
        self.load(url, width, height)
        observing = self.driver.run(LAYOUT_SHIFT_OBSERVER_JS)
        before = self.geometry()
        self.driver.run_async(SCROLL_THROUGH_JS)
        started = time.monotonic()
        while True:
            images = self.driver.run(IMAGES_STATE_JS)
            if all(i["complete"] and i["naturalWidth"] > 0 for i in images):
                break
            if time.monotonic() - started > image_timeout:
                break
            time.sleep(0.05)
        waited = time.monotonic() - started
        read = self.read_shifts()
        self.driver.run("window.scrollTo(0, 0)")
        after = self.geometry()
        run = NormalRun(width, before, after, images, waited, read["shifts"] if observing else None,
                        read["motion"], self.engine)
        if screenshot is not None:
            self.full_page_screenshot(run, screenshot)
        return run

    def full_page_screenshot(self, run: NormalRun, path: Path):
        """The whole page at the run's width. Where the engine can capture the document without laying it
        out again (Firefox), that; elsewhere the viewport is made as tall as the document, keeping the
        width, and the viewport is shot.

        Growing the viewport is done in one step to the target width *without* a scroll bar: growing the
        height first, at the scroll bar's width, does not work, because the wider layout without the bar is
        taller (heights scale with the width) and Chromium keeps the bar to stop it flip-flopping."""
        height = self.driver.run("return document.documentElement.scrollHeight")
        png = self.driver.full_page_png()
        if png is None:
            self.driver.set_viewport(run.width, height)
            for _ in range(4):
                client_width, inner_width, inner_height = self._viewport()
                new_height = self.driver.run("return document.documentElement.scrollHeight")
                if client_width == inner_width == run.width and inner_height == new_height:
                    break
                height = new_height
                self.driver.set_viewport(inner_width + run.width - client_width, height)
            height = self.driver.run("return document.documentElement.scrollHeight")
            png = self.driver.screenshot_png()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        run.screenshot, run.screenshot_size, run.document_height = path, png_size(png), height


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


# ----------------------------------------------------------------------------------------------------------
# Checks: each returns a list of problems, empty when the page passes.


def file_name(url: str | None) -> str | None:
    if not url:
        return None
    return unquote(posixpath.basename(urlparse(url).path)) or None


def match_photo(tile: dict, photos: dict) -> str | None:
    """The photo a tile shows: its link's file name, else its image's (URL-decoded). A derived image keeps
    the photo's name, with `.jpg` or `.png` added when its format differs (an opaque PNG becomes JPEG)."""
    for url in (tile.get("href"), (tile.get("img") or {}).get("src")):
        name = file_name(url)
        for candidate in (name, name and name.rsplit(".", 1)[0]):
            if candidate in photos:
                return candidate
    return None


def fmt(box: dict | None) -> str:
    if box is None:
        return "(none)"
    return f"({box['x']:.2f}, {box['y']:.2f}) {box['w']:.2f}×{box['h']:.2f}"


def check_structure(g: Geometry, photos: dict) -> list[str]:
    problems = []
    indices = [t["index"] for t in g.tiles]
    if len(indices) != len(photos):
        problems.append(f"{len(indices)} [data-tile] elements for {len(photos)} readable photos")
    expected = [str(i) for i in range(len(indices))]
    if indices != expected:
        problems.append(f"data-tile values in DOM order are {indices[:20]}{'…' if len(indices) > 20 else ''}, "
                        f"expected 0..{len(indices) - 1}")
    seen = {}
    for t in g.tiles:
        label = f"tile {t['index']}"
        img = t["img"]
        if t["href"] is None:
            problems.append(f"{label}: no <a href>")
        if img is None:
            problems.append(f"{label}: no <img>")
            continue
        for attribute in ("width", "height"):
            value = img[attribute]
            if value is None or not value.isdigit() or int(value) <= 0:
                problems.append(f"{label}: img {attribute}={value!r}, expected a positive integer")
        if img["alt"] is None:
            problems.append(f"{label}: img has no alt attribute")
        if img["loading"] not in (None, "lazy", "eager"):  # no attribute: eager, the HTML default
            problems.append(f"{label}: img loading={img['loading']!r}, expected lazy, eager or none")
        if img["decoding"] != "async":
            problems.append(f"{label}: img decoding={img['decoding']!r}, expected async")
        name = match_photo(t, photos)
        if name is None:
            problems.append(f"{label}: href {t['href']!r} / src {img['src']!r} names none of the photos")
        elif name in seen:
            problems.append(f"{label}: shows {name!r}, already shown by tile {seen[name]}")
        else:
            seen[name] = t["index"]
    missing = sorted(set(photos) - set(seen))
    if missing:
        problems.append(f"photos without a tile: {missing[:10]}")
    if g.raw["footerCount"] != 1:
        problems.append(f"{g.raw['footerCount']} [data-footer] elements, expected 1")
    return problems


def check_no_javascript(g: Geometry) -> list[str]:
    problems = []
    if g.raw["scripts"]:
        problems.append(f"{g.raw['scripts']} <script> element(s)")
    if g.raw["handlers"]:
        problems.append(f"event-handler attributes: {g.raw['handlers'][:10]}")
    if g.raw["javascriptUrls"]:
        problems.append(f"{g.raw['javascriptUrls']} javascript: URL(s)")
    return problems


def overlap_area(a: dict, b: dict) -> float:
    dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return dx * dy if dx > 0 and dy > 0 else 0.0


def check_no_overlap(g: Geometry, tolerance: float = 0.5) -> list[str]:
    problems = []
    tiles = g.tiles
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            area = overlap_area(tiles[i]["box"], tiles[j]["box"])
            if area > tolerance:
                problems.append(f"tiles {tiles[i]['index']} {fmt(tiles[i]['box'])} and {tiles[j]['index']} "
                                f"{fmt(tiles[j]['box'])} overlap by {area:.2f} px²")
    return problems


def check_aspect_and_fill(g: Geometry, photos: dict, tolerance: float = 1.0) -> list[str]:
    problems = []
    for t in g.tiles:
        name = match_photo(t, photos)
        if name is None:
            continue  # reported by check_structure
        pw, ph = photos[name]
        box = t["box"]
        expected_h = box["w"] * ph / pw
        if box["w"] <= 0 or abs(box["h"] - expected_h) > tolerance:
            problems.append(f"tile {t['index']} ({name}, {pw}×{ph}): box {fmt(box)}, height should be "
                            f"{expected_h:.2f}")
        img = t["img"]
        if img is None:
            continue
        ib = img["box"]
        off = max(abs(ib["x"] - box["x"]), abs(ib["y"] - box["y"]), abs(ib["w"] - box["w"]), abs(ib["h"] - box["h"]))
        if off > tolerance:
            problems.append(f"tile {t['index']} ({name}): img {fmt(ib)} does not fill the tile {fmt(box)}")
        if img["width"] and img["height"] and img["width"].isdigit() and img["height"].isdigit():
            aw, ah = int(img["width"]), int(img["height"])
            if aw > 0 and abs(ah - aw * ph / pw) > tolerance:
                problems.append(f"tile {t['index']} ({name}): img width={aw} height={ah} is not the photo's "
                                f"shape {pw}×{ph}")
    return problems


def check_footer(g: Geometry, epsilon: float = 0.02) -> list[str]:
    footer = g.raw["footer"]
    if footer is None:
        return ["no [data-footer] element"]
    problems = []
    for t in g.tiles:
        bottom = t["box"]["y"] + t["box"]["h"]
        if footer["y"] + epsilon < bottom:
            problems.append(f"footer top {footer['y']:.2f} is above the bottom {bottom:.2f} of tile {t['index']}")
    return problems


def check_no_horizontal_overflow(g: Geometry) -> list[str]:
    if g.raw["scrollWidth"] > g.raw["clientWidth"]:
        return [f"scrollWidth {g.raw['scrollWidth']} > clientWidth {g.raw['clientWidth']}"]
    return []


def check_images_loaded(run: NormalRun) -> list[str]:
    bad = [i["src"] for i in run.images if not (i["complete"] and i["naturalWidth"] > 0)]
    if bad:
        return [f"{len(bad)} of {len(run.images)} images not loaded after {run.images_waited:.1f} s: {bad[:10]}"]
    if not run.images:
        return ["the page has no images"]
    return []


def check_images_blocked(g: Geometry) -> list[str]:
    """The images-blocked browser must really have no image (else its comparison proves nothing)."""
    loaded = [i["src"] for i in g.raw["images"] if i["naturalWidth"] > 0]
    return [f"{len(loaded)} image(s) loaded although images are blocked: {loaded[:5]}"] if loaded else []


def check_same_geometry(reference: Geometry, other: Geometry, what: str) -> list[str]:
    a, b = reference.signature(), other.signature()
    if a == b:
        return []
    problems = []
    if len(a["tiles"]) != len(b["tiles"]):
        problems.append(f"{what}: {len(b['tiles'])} tiles instead of {len(a['tiles'])}")
    for (index, ra), (_, rb) in zip(a["tiles"], b["tiles"]):
        if ra != rb:
            problems.append(f"{what}: tile {index} at {rb} instead of {ra} (x, y, w, h)")
    if a["footer"] != b["footer"]:
        problems.append(f"{what}: footer at {b['footer']} instead of {a['footer']}")
    return problems


def check_no_layout_shift(run: NormalRun) -> list[str]:
    """No layout shift, seen three ways: the Layout Instability API where the engine has it (Chromium), the
    motion recorder in every engine, and the tile rects right after load against those at the end."""
    return (check_layout_shift_entries(run.shifts) + check_motion(run.motion)
            + check_same_geometry(run.before, run.after, "after images loaded"))


def check_layout_shift_entries(shifts: list[dict] | None) -> list[str]:
    if shifts is None:
        return []  # no Layout Instability API in this engine; the motion recorder covers it
    counted = [s for s in shifts if not s["hadRecentInput"]]
    total = sum(s["value"] for s in counted)
    if total == 0:
        return []
    detail = "; ".join(f"{s['value']:.4f} at {s['startTime']:.0f} ms by "
                       + ", ".join(f"{src['node']} {src['previous']}→{src['current']}" for src in s["sources"][:2])
                       for s in counted[:3])
    return [f"cumulative layout shift {total:.5f} in {len(counted)} entries: {detail}"]


def check_motion(motion: dict | None) -> list[str]:
    if motion is None:
        return ["the motion recorder did not run on the page (no preload script?)"]
    if motion["frames"] < 2 or motion["elements"] == 0:
        return [f"the motion recorder saw {motion['frames']} frames and {motion['elements']} elements: it "
                "cannot have watched the page load"]
    if not motion["moves"]:
        return []
    detail = "; ".join(f"{m['node']} {m['before']}→{m['now']} in frame {m['frame']}" for m in motion["moves"][:3])
    return [f"elements moved between frames ({len(motion['moves'])} moves): {detail}"]


def check_engines_agree(measured: dict[str, dict], tolerance: float) -> list[str]:
    """measured: engine -> {tile index: board-relative (x, y, w, h)}; all compared with the first engine."""
    (reference, expected), *others = measured.items()
    problems = []
    for engine, rects in others:
        if rects.keys() != expected.keys():
            problems.append(f"{engine} has tiles {sorted(rects)} and {reference} {sorted(expected)}")
            continue
        for index, rect in expected.items():
            off = max(abs(a - b) for a, b in zip(rect, rects[index]))
            if off > tolerance:
                problems.append(f"tile {index}: {engine} {tuple(round(v, 2) for v in rects[index])}, {reference} "
                                f"{tuple(round(v, 2) for v in rect)} (x, y, w, h from the board; off by {off:.2f} px)")
    return problems


def copy_page(source_dir: Path, destination: Path) -> Path:
    """A copy of a page's folder (for breaking it); returns the copy's index.html."""
    shutil.copytree(source_dir, destination)
    return destination / "index.html"
