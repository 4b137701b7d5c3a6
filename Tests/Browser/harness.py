"""Real-browser harness for Waterfall's gallery page: headless Chromium (Debian's) driven by Selenium.

Everything a test needs lives here, so that test_gallery.py (the real page) and test_harness_selfcheck.py
(deliberately broken copies of sample_page/) run exactly the same measurement and the same checks.

Measuring: `Browser.measure_normal` loads a page at an exact viewport width, records the geometry right
after the load event, scrolls through the page so lazy images load, waits for every image, records the
geometry again, collects layout shifts, and takes a full-page screenshot. `Browser.measure_geometry`
only loads and records (for the images-blocked and JavaScript-disabled browsers).

Checks: `check_*` functions take measurements and return a list of problems (strings); empty means pass.

Reading geometry with JavaScript disabled: Chrome's content setting
`profile.managed_default_content_settings.javascript = 2` stops the *page's* scripts (a <script> does not
run, <noscript> content is rendered), but WebDriver's execute_script still works: chromedriver evaluates
it through the DevTools protocol (Runtime.callFunctionOn), which the content setting does not gate.
So the same geometry script serves all three browsers; `Browser.start` proves on a probe page that page
scripts really are off (or on) in each browser before any test trusts it.
"""
from __future__ import annotations

import json
import os
import posixpath
import shutil
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("WATERFALL_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("WATERFALL_CHROMEDRIVER", "/usr/bin/chromedriver")
BLOCKED_IMAGE_URLS = ["*.jpg", "*.jpeg", "*.png", "*.JPG", "*.JPEG", "*.PNG"]
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
const de = document.documentElement;
const handlers = [];
for (const el of document.querySelectorAll('*'))
  for (const at of el.attributes)
    if (at.name.startsWith('on')) handlers.push(el.tagName.toLowerCase() + '[' + at.name + ']');
return {
  tiles: tiles, footer: footers.length ? box(footers[0]) : null, footerCount: footers.length,
  scrollWidth: de.scrollWidth, clientWidth: de.clientWidth, scrollHeight: de.scrollHeight,
  innerWidth: window.innerWidth, innerHeight: window.innerHeight,
  images: Array.from(document.images).map(i => ({src: i.getAttribute('src'), complete: i.complete,
                                                 naturalWidth: i.naturalWidth})),
  scripts: document.scripts.length, handlers: handlers,
  javascriptUrls: Array.from(document.querySelectorAll('[href^="javascript:" i],[src^="javascript:" i]')).length,
};
"""

# Installed right after load; `buffered: true` also delivers the shifts that happened before it existed.
LAYOUT_SHIFT_OBSERVER_JS = r"""
window.__wfShifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__wfShifts.push({
    value: e.value, hadRecentInput: e.hadRecentInput, startTime: e.startTime,
    sources: (e.sources || []).map(s => ({
      node: s.node ? (s.node.outerHTML || s.node.nodeName).slice(0, 100) : null,
      previous: [s.previousRect.x, s.previousRect.y, s.previousRect.width, s.previousRect.height],
      current: [s.currentRect.x, s.currentRect.y, s.currentRect.width, s.currentRect.height]}))});
}).observe({type: 'layout-shift', buffered: true});
return PerformanceObserver.supportedEntryTypes.includes('layout-shift');
"""

# Waits two frames and a task, so shifts of the last frame have reached the observer.
READ_SHIFTS_JS = r"""
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(window.__wfShifts || null), 50)));
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

PROBE_PAGE = "data:text/html,<title>-</title><script>document.title='js-ran'</script>"


# ----------------------------------------------------------------------------------------------------------
# Building the site and reading the photos' expected sizes


def natural_top_level_files(folder: Path) -> list[Path]:
    """Files directly in folder (not in sub-folders), dot-files left out; order does not matter here."""
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def build_site(binary: Path, gallery: Path, output: Path) -> Path:
    """Runs `waterfall build GALLERY -o OUTPUT --quiet`; returns OUTPUT/index.html."""
    result = subprocess.run([str(binary), "build", str(gallery), "-o", str(output), "--quiet"],
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


# ----------------------------------------------------------------------------------------------------------
# The browser


def chrome_options(*, javascript: bool = True) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--force-device-scale-factor=1", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                     "--hide-crash-restore-bubble", "--font-render-hinting=none"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to start its sandbox as root
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return options


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


@dataclass
class NormalRun:
    width: int
    before: Geometry                 # right after the load event
    after: Geometry                  # after scrolling through and every image loaded (or the wait timed out)
    images: list[dict]               # state of every <img> at the end of the wait
    images_waited: float
    shifts: list[dict] | None        # layout-shift entries, None if the observer could not be installed
    screenshot: Path | None = None
    screenshot_size: tuple[int, int] | None = None
    document_height: int = 0


@dataclass
class Browser:
    name: str
    driver: webdriver.Chrome
    offset: list = field(default_factory=lambda: [0, 0])  # window size minus viewport size, learnt

    @classmethod
    def start(cls, name: str, *, javascript: bool = True, block_images: bool = False) -> "Browser":
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=chrome_options(javascript=javascript))
        try:
            driver.set_script_timeout(60)
            driver.set_page_load_timeout(60)
            if block_images:
                # Blocks for every later navigation of this tab, file:// URLs included (checked per page).
                driver.execute_cdp_cmd("Network.enable", {})
                driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED_IMAGE_URLS})
            driver.get(PROBE_PAGE)
            ratio = driver.execute_script("return window.devicePixelRatio")
            if ratio != 1:
                raise RuntimeError(f"browser {name!r}: devicePixelRatio {ratio}, expected 1")
            ran = driver.title == "js-ran"
            if ran != javascript:
                raise RuntimeError(f"browser {name!r}: page JavaScript {'ran' if ran else 'did not run'} "
                                   f"on the probe page, expected it {'on' if javascript else 'off'}")
        except BaseException:
            driver.quit()
            raise
        return cls(name, driver)

    def quit(self):
        self.driver.quit()

    # -- viewport ------------------------------------------------------------------------------------------

    def _viewport(self) -> tuple[int, int]:
        return tuple(self.driver.execute_script(
            "return [document.documentElement.clientWidth, window.innerHeight]"))

    def _correct(self, width: int, height: int, *, learn: bool = True) -> bool:
        """Resizes the window so that clientWidth == width and innerHeight == height; True if it had to.
        With learn, remembers the window-minus-viewport difference for the next load (so that usually one
        load per width is enough)."""
        client_width, inner_height = self._viewport()
        if (client_width, inner_height) == (width, height):
            return False
        size = self.driver.get_window_size()
        new_width, new_height = size["width"] + width - client_width, size["height"] + height - inner_height
        self.driver.set_window_size(new_width, new_height)
        if learn:
            self.offset = [new_width - width, new_height - height]
        return True

    def load(self, url: str, width: int, height: int):
        """Loads url with a viewport (document.documentElement.clientWidth, so without the vertical scroll bar)
        of exactly `width` CSS px, and window.innerHeight == height. The page is loaded again after every
        correction, so its whole life (lazy loading, layout shifts) happened at the target size."""
        self.driver.set_window_size(width + self.offset[0], height + self.offset[1])
        self.driver.get(url)
        for _ in range(4):
            if not self._correct(width, height):
                return
            self.driver.get(url)
        raise RuntimeError(f"{self.name}: could not get a {width}x{height} viewport; have {self._viewport()}")

    # -- measurements ---------------------------------------------------------------------------------------

    def geometry(self) -> Geometry:
        return Geometry(self.driver.execute_script(GEOMETRY_JS))

    def measure_geometry(self, url: str, width: int) -> Geometry:
        self.load(url, width, VIEWPORT_HEIGHTS.get(width, 900))
        return self.geometry()

    def measure_normal(self, url: str, width: int, *, image_timeout: float = 15.0,
                       screenshot: Path | None = None) -> NormalRun:
        height = VIEWPORT_HEIGHTS.get(width, 900)
        self.load(url, width, height)
        observing = self.driver.execute_script(LAYOUT_SHIFT_OBSERVER_JS)
        before = self.geometry()
        self.driver.execute_async_script(SCROLL_THROUGH_JS)
        started = time.monotonic()
        while True:
            images = self.driver.execute_script(IMAGES_STATE_JS)
            if all(i["complete"] and i["naturalWidth"] > 0 for i in images):
                break
            if time.monotonic() - started > image_timeout:
                break
            time.sleep(0.05)
        waited = time.monotonic() - started
        shifts = self.driver.execute_async_script(READ_SHIFTS_JS) if observing else None
        self.driver.execute_script("window.scrollTo(0, 0)")
        after = self.geometry()
        run = NormalRun(width, before, after, images, waited, shifts)
        if screenshot is not None:
            self.full_page_screenshot(run, screenshot)
        return run

    def full_page_screenshot(self, run: NormalRun, path: Path):
        """Makes the viewport as tall as the document, keeping the width, then shoots the viewport.

        The window is resized in one step to the target width *without* a scroll bar: growing the height
        first, at the scroll bar's width, does not work, because the wider layout without the bar is taller
        (heights scale with the width) and Chrome keeps the bar to stop it flip-flopping."""
        state_js = ("const d = document.documentElement; return [d.clientWidth, window.innerWidth, "
                    "window.innerHeight, d.scrollHeight]")
        size = self.driver.get_window_size()
        _, inner_width, inner_height, height = self.driver.execute_script(state_js)
        chrome_x, chrome_y = size["width"] - inner_width, size["height"] - inner_height
        self.driver.set_window_size(run.width + chrome_x, height + chrome_y)
        for _ in range(4):
            client_width, inner_width, inner_height, height = self.driver.execute_script(state_js)
            if client_width == inner_width == run.width and inner_height == height:
                break
            size = self.driver.get_window_size()
            self.driver.set_window_size(size["width"] + run.width - client_width, height + chrome_y)
        png = self.driver.get_screenshot_as_png()
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
    if run.shifts is None:
        return ["the browser does not support layout-shift entries"]
    counted = [s for s in run.shifts if not s["hadRecentInput"]]
    total = sum(s["value"] for s in counted)
    problems = []
    if total != 0:
        detail = "; ".join(f"{s['value']:.4f} at {s['startTime']:.0f} ms by "
                           + ", ".join(f"{src['node']} {src['previous']}→{src['current']}" for src in s["sources"][:2])
                           for s in counted[:3])
        problems.append(f"cumulative layout shift {total:.5f} in {len(counted)} entries: {detail}")
    problems += check_same_geometry(run.before, run.after, "after images loaded")
    return problems


def copy_page(source_dir: Path, destination: Path) -> Path:
    """A copy of a page's folder (for breaking it); returns the copy's index.html."""
    shutil.copytree(source_dir, destination)
    return destination / "index.html"
