#!/usr/bin/env python3
"""make bench-visitor: what a visitor of the album page waits for, Waterfall beside sigal, in one run.

The album: 40 real photographs from Debian's wallpaper packages (Benchmarks/visitor/photos.txt). The packages
hold only two portrait photographs, so 12 landscapes are cut to portrait (3:4 or 2:3) by jpegtran's lossless
crop at listed offsets (deterministic, the camera's JPEG data kept): 14 portrait, 26 landscape.

Sites, all built from that folder into WORK at the start of the run:
  - Waterfall with its defaults, then with --formats avif,jpeg (labelled), by the binary given as WATERFALL
    (any build: the bench reads whatever pages it writes, and assumes no tile widths or priorities);
  - sigal 2.5 (from .venv) with each of its themes, default settings otherwise: colorbox (sigal's default
    theme), galleria and photoswipe. (sigal's `default` theme folder holds only shared partials; it does
    not build a site on its own.)

Each site is served over HTTP/1.1 on 127.0.0.1 by a Python http.server thread (keep-alive). Each load is a
fresh headless Chromium with a fresh profile, driven through the DevTools protocol (cdp.py):
  - network: Network.emulateNetworkConditions at Lighthouse's slow 4G as its docs state it
    (GoogleChrome/lighthouse docs/throttling.md, core/config/constants.js `mobileSlow4G`): 150 ms round
    trip, 1.6 Mbit/s (1638.4 kbit/s) down, 750 kbit/s up; cache disabled. `--network lighthouse-devtools`
    applies instead what Lighthouse itself sends with --throttling-method=devtools (request latency 150 ms
    × 3.75 = 562.5 ms, 1638.4 × 0.9 = 1474.6 kbit/s down, 750 × 0.9 = 675 up);
  - phone: Emulation.setDeviceMetricsOverride 390×844 at device scale 3, mobile, touch on, CPU 4× slower
    (Emulation.setCPUThrottlingRate 4, Lighthouse's mobile multiplier);
  - desktop: 1440×900 at scale 1, same network, CPU not slowed (Lighthouse's desktop preset uses 1×).

After the load event the bench waits until the network has been quiet for 3 s (at most 60 s), never
scrolls, and reads:
  - LCP: the last 'largest-contentful-paint' entry (observer registered before the page's first byte), and
    its element;
  - CLS: the sum of 'layout-shift' entries without recent input;
  - first screen complete: the latest Resource Timing responseEnd of the files chosen (currentSrc) by the
    images that intersect the first viewport; "never" if one is still incomplete;
  - bytes before scroll: encodedDataLength of every finished request (document, styles, scripts, images:
    what crossed the throttled connection), from the DevTools Network events;
  - first paint: 'first-contentful-paint', and how many first-screen images have a sketch (an inline
    data: background on the image or its tile) to show from then on, not a box of one colour;
  - #high: images with fetchpriority="high"; #eager beyond: images not loading="lazy" whose top is more
    than one screen below the fold (top ≥ 2 × viewport height);
  - sharpness, per first-screen image: the chosen file's pixel size (read from the served file) over the
    image's CSS box × device scale (by object-fit: the blurrier axis for fill and cover), capped at the
    photo's own size; the table shows the minimum. Oversend: the median of the same ratio, uncapped.

Every (site, device) is loaded RUNS times (default 3), interleaved so that the machine's drift spreads over
all sites; the table shows medians, with the goals of issue 27 beside them. The machine is shared: CPU-
throttled timings move with its load (printed before and after), so compare rows of the same run.

  run.py WATERFALL PHOTOS WORK [--runs N] [--sites waterfall,sigal-colorbox,…]
         [--network slow4g|lighthouse-devtools] [--desktop-cpu N]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cdp import Chromium  # noqa: E402
from serve import Server  # noqa: E402

# kbit/s as Lighthouse counts them (1 kbit = 1024 bit); DevTools wants bytes per second.
NETWORKS = {
    "slow4g": {"latency": 150.0, "down": 1638.4, "up": 750.0},
    "lighthouse-devtools": {"latency": 562.5, "down": 1474.56, "up": 675.0},
}
DEVICES = {
    "phone": {"width": 390, "height": 844, "scale": 3, "mobile": True, "cpu": 4},
    "desktop": {"width": 1440, "height": 900, "scale": 1, "mobile": False, "cpu": 1},
}
QUIET_SECONDS = 3.0
SETTLE_LIMIT = 60.0

# Registered before the page's first script: LCP and layout shifts as they come, room for every resource.
INIT_JS = r"""
performance.setResourceTimingBufferSize(10000);
window.__bench = {lcp: [], shifts: [], paint: null};
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') __bench.paint = e.startTime;
}).observe({type: 'paint', buffered: true});
new PerformanceObserver(list => {
  for (const e of list.getEntries()) {
    const el = e.element;
    __bench.lcp.push({time: e.startTime, size: e.size, url: e.url || '',
                      element: el ? (el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')) : ''});
  }
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) __bench.shifts.push({time: e.startTime, value: e.value});
}).observe({type: 'layout-shift', buffered: true});
"""

# Every image on the page as the visitor has it, before any scroll.
MEASURE_JS = r"""
(() => {
  const vw = innerWidth, vh = innerHeight;
  const arrived = url => {
    const ends = performance.getEntriesByName(url).map(e => e.responseEnd).filter(t => t > 0);
    return ends.length ? Math.min(...ends) : null;
  };
  const images = Array.from(document.images).map(img => {
    const r = img.getBoundingClientRect(), style = getComputedStyle(img);
    const shown = r.width > 0 && r.height > 0 && style.visibility !== 'hidden';
    return {src: img.currentSrc, top: r.top + scrollY, width: r.width, height: r.height, shown,
            first: shown && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw,
            lazy: (img.getAttribute('loading') || '').toLowerCase() === 'lazy',
            high: (img.getAttribute('fetchpriority') || '').toLowerCase() === 'high',
            complete: img.complete && img.naturalWidth > 0, fit: style.objectFit,
            sketched: [img, img.closest('li, figure, div')].some(e => e && getComputedStyle(e).backgroundImage.includes('data:')),
            arrived: img.currentSrc.startsWith('data:') ? 0 : arrived(img.currentSrc)};
  });
  const nav = performance.getEntriesByType('navigation')[0];
  return {vw, vh, dpr: devicePixelRatio, scrollY, images, lcp: __bench.lcp, shifts: __bench.shifts, paint: __bench.paint,
          load: nav ? nav.loadEventEnd : null};
})()
"""


# ---------------------------------------------------------------- building the sites

def build_waterfall(waterfall: str, photos: Path, site: Path, formats: str | None) -> float:
    extra = ["--formats", formats] if formats else []
    return timed([waterfall, "build", str(photos), "-o", str(site), "--quiet", *extra])


def build_sigal(photos: Path, site: Path, theme: str) -> float:
    config = site.parent / f"{site.name}.sigal.py"
    config.write_text(f"theme = {theme!r}\n")
    sigal = str(Path(sys.executable).parent / "sigal")
    return timed([sigal, "build", "--quiet", "-c", str(config), str(photos), str(site)])


def timed(command: list[str]) -> float:
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def site_builders(waterfall: str, photos: Path, work: Path) -> dict:
    """key (for --sites) → (label, folder, a function that builds the site there and returns the wall time)."""
    def waterfall_site(formats):
        return lambda site: build_waterfall(waterfall, photos, site, formats)

    def sigal_site(theme):
        return lambda site: build_sigal(photos, site, theme)

    sites = {"waterfall": ("Waterfall (defaults)", waterfall_site(None)),
             "waterfall-avif": ("Waterfall avif,jpeg", waterfall_site("avif,jpeg")),
             "sigal-colorbox": ("sigal colorbox", sigal_site("colorbox")),
             "sigal-galleria": ("sigal galleria", sigal_site("galleria")),
             "sigal-photoswipe": ("sigal photoswipe", sigal_site("photoswipe"))}
    return {key: (label, work / ("site-" + key), build) for key, (label, build) in sites.items()}


# ---------------------------------------------------------------- one load

def load(url: str, device: dict, network: dict) -> dict:
    """One visit with a fresh browser and profile: the page's own measures, plus the DevTools byte count."""
    with Chromium() as browser:
        browser.send("Page.enable")
        browser.send("Network.enable")
        browser.send("Network.setCacheDisabled", cacheDisabled=True)
        browser.send("Network.emulateNetworkConditions", offline=False, latency=network["latency"],
                     downloadThroughput=network["down"] * 1024 / 8, uploadThroughput=network["up"] * 1024 / 8)
        browser.send("Emulation.setDeviceMetricsOverride", width=device["width"], height=device["height"],
                     deviceScaleFactor=device["scale"], mobile=device["mobile"])
        browser.send("Emulation.setTouchEmulationEnabled", enabled=device["mobile"], maxTouchPoints=5)
        browser.send("Emulation.setCPUThrottlingRate", rate=device["cpu"])
        browser.send("Page.addScriptToEvaluateOnNewDocument", source=INIT_JS)
        browser.events.clear()
        browser.send("Page.navigate", url=url)
        settle(browser)
        page = browser.evaluate(MEASURE_JS)
        page["network"] = transfers(browser.events)
        return page


def settle(browser: Chromium):
    """Waits for the load event, then for QUIET_SECONDS without a request in flight (SETTLE_LIMIT at most)."""
    start = time.monotonic()
    while not any(e["method"] == "Page.loadEventFired" for e in browser.events):
        if time.monotonic() - start > SETTLE_LIMIT:
            raise RuntimeError("no load event")
        browser.pump(0.25)
    quiet_since = time.monotonic()
    while time.monotonic() - start < SETTLE_LIMIT:
        before = len(browser.events)
        browser.pump(0.25)
        if in_flight(browser.events) or len(browser.events) != before:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET_SECONDS:
            return


def in_flight(events: list[dict]) -> int:
    started, ended = set(), set()
    for e in events:
        if e["method"] == "Network.requestWillBeSent":
            started.add(e["params"]["requestId"])
        elif e["method"] in ("Network.loadingFinished", "Network.loadingFailed"):
            ended.add(e["params"]["requestId"])
    return len(started - ended)


def transfers(events: list[dict]) -> dict:
    """Bytes that crossed the connection (encodedDataLength of finished requests), by resource type."""
    kinds, by_kind, count = {}, {}, 0
    for e in events:
        if e["method"] == "Network.responseReceived":
            kinds[e["params"]["requestId"]] = e["params"]["type"]
        elif e["method"] == "Network.loadingFinished":
            kind = kinds.get(e["params"]["requestId"], "Other")
            by_kind[kind] = by_kind.get(kind, 0) + e["params"]["encodedDataLength"]
            count += 1
    return {"bytes": sum(by_kind.values()), "by_kind": by_kind, "requests": count,
            "pending": in_flight(events)}


# ---------------------------------------------------------------- reading a load

class Files:
    """Pixel sizes of the served files and of the album's photos (by name), read once each."""

    def __init__(self, photos: Path):
        self.photos = photos
        self.sizes: dict[Path, tuple[int, int] | None] = {}

    def size(self, path: Path) -> tuple[int, int] | None:
        if path not in self.sizes:
            self.sizes[path] = pixel_size(path)
        return self.sizes[path]

    def served(self, root: Path, url: str) -> tuple[int, int] | None:
        if not url or url.startswith("data:"):
            return None
        return self.size(root / unquote(urlparse(url).path).lstrip("/"))

    def photo(self, url: str) -> tuple[int, int] | None:
        """The album photo a served file was made from: same name, less a .avif/.webp added to it."""
        name = Path(unquote(urlparse(url).path)).name
        for suffix in (".avif", ".webp"):
            name = name.removesuffix(suffix)
        candidate = self.photos / name
        return self.size(candidate) if candidate.is_file() else None


def pixel_size(path: Path) -> tuple[int, int] | None:
    """Width and height as displayed (EXIF orientations 5–8 swap them); None when unreadable."""
    from PIL import Image
    try:
        import pillow_heif
        pillow_heif.register_avif_opener()
    except (ImportError, AttributeError):
        pass
    try:
        with Image.open(path) as image:
            width, height = image.size
            if image.getexif().get(0x0112, 1) in (5, 6, 7, 8):
                width, height = height, width
            return width, height
    except (OSError, ValueError):
        return None


def density(file: tuple[int, int], need: tuple[float, float], fit: str) -> float:
    """Image pixels per device pixel of the box: the blurrier axis, except where the box contains the image."""
    x, y = file[0] / need[0], file[1] / need[1]
    return max(x, y) if fit in ("contain", "scale-down") else min(x, y)


def summarise(page: dict, root: Path, files: Files) -> dict:
    vh, dpr = page["vh"], page["dpr"]
    images = [i for i in page["images"] if i["shown"]]
    first = [i for i in images if i["first"]]
    sharp, over = [], []
    for image in first:
        file = files.served(root, image["src"])
        if not file:
            continue
        need = (image["width"] * dpr, image["height"] * dpr)
        over.append(density(file, need, image["fit"]))
        photo = files.photo(image["src"])
        capped = (min(need[0], photo[0]), min(need[1], photo[1])) if photo else need
        sharp.append(density(file, capped, image["fit"]))
    arrivals = [i["arrived"] for i in first]
    complete = all(i["complete"] for i in first) and all(a is not None for a in arrivals)
    lcp = page["lcp"][-1] if page["lcp"] else None
    return {
        "lcp": lcp["time"] / 1000 if lcp else None,
        "lcp_element": (lcp["element"] + " " + unquote(urlparse(lcp["url"]).path).lstrip("/")).strip() if lcp else "",
        "first_screen": (max(arrivals, default=0) / 1000) if complete else float("inf"),
        "first_images": len(first),
        "first_paint": page["paint"] / 1000 if page["paint"] is not None else None,
        "sketched": sum(i["sketched"] for i in first),
        "bytes": page["network"]["bytes"],
        "image_bytes": page["network"]["by_kind"].get("Image", 0),
        "other_bytes": page["network"]["bytes"] - page["network"]["by_kind"].get("Image", 0),
        "requests": page["network"]["requests"],
        "pending": page["network"]["pending"],
        "cls": sum(s["value"] for s in page["shifts"]),
        "min_sharpness": min(sharp) if sharp else None,
        "median_oversend": statistics.median(over) if over else None,
        "high": sum(i["high"] for i in page["images"]),
        "eager_beyond": sum(1 for i in images if not i["lazy"] and i["top"] >= 2 * vh),
        "images": len(page["images"]),
        "viewport": [page["vw"], vh, dpr],
    }


# ---------------------------------------------------------------- the table

GOALS = {"lcp": 1.5, "first_screen": 3.0, "cls": 0.0, "min_sharpness": 0.95, "median_oversend": 1.6,
         "high": 2, "eager_beyond": 0}
GOAL_TEXT = "LCP ≤ 1.5 s | first screen ≤ 3 s | — | CLS 0 | ≥ 0.95 | ≤ 1.6 | ≤ 2 | 0"


def median(values: list):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def misses(row: dict) -> list[str]:
    out = []
    for key, goal in GOALS.items():
        value = row[key]
        if value is None:
            continue
        low_is_good = key not in ("min_sharpness",)
        if (value > goal + 1e-9) if low_is_good else (value < goal - 1e-9):
            out.append({"lcp": "LCP", "first_screen": "first screen", "cls": "CLS", "min_sharpness": "sharpness",
                        "median_oversend": "oversend", "high": "#high", "eager_beyond": "eager"}[key])
    return out


def seconds(value) -> str:
    if value is None:
        return "—"
    return "never" if value == float("inf") else f"{value:.2f}"


def number(value, digits: int) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def print_tables(results: dict, labels: list[str], runs: int):
    print(f"\nMedians of {runs} loads each (fresh browser and profile per load). Goals (issue 27): {GOAL_TEXT}.\n")
    print("| site | device | LCP s | first screen complete s | KiB before scroll | CLS | min sharpness "
          "| median oversend | #high | #eager beyond fold | LCP × sigal colorbox | misses |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for device in DEVICES:
        base = results.get(("sigal colorbox", device))
        for label in labels:
            row = results[(label, device)]
            ratio = f"{row['lcp'] / base['lcp']:.2f}" if base and base["lcp"] and row["lcp"] else "—"
            print(f"| {label} | {device} | {seconds(row['lcp'])} | {seconds(row['first_screen'])} "
                  f"| {row['bytes'] / 1024:.0f} | {number(row['cls'], 3)} | {number(row['min_sharpness'], 2)} "
                  f"| {number(row['median_oversend'], 2)} | {row['high']:.0f} | {row['eager_beyond']:.0f} | {ratio} "
                  f"| {', '.join(misses(row)) or 'none'} |")
        print(f"| goal | {device} | ≤ 1.5 | ≤ 3 | | 0 | ≥ 0.95 | ≤ 1.6 | ≤ 2 | 0 | | |")

    print("\nWhat the loads were made of (medians):\n")
    print("| site | device | first paint s | first-screen images | … with a sketch at first paint | LCP element "
          "| images on page | requests | image KiB | other KiB (page, styles, scripts) | still pending |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for device in DEVICES:
        for label in labels:
            row = results[(label, device)]
            print(f"| {label} | {device} | {seconds(row['first_paint'])} | {row['first_images']:.0f} "
                  f"| {row['sketched']:.0f} | {row['lcp_element'] or '—'} "
                  f"| {row['images']:.0f} | {row['requests']:.0f} | {row['image_bytes'] / 1024:.0f} "
                  f"| {row['other_bytes'] / 1024:.0f} | {row['pending']:.0f} |")


def combine(rows: list[dict]) -> dict:
    """The median of each measure over the runs; for the LCP element and the viewport, the most common."""
    out = {}
    for key in rows[0]:
        values = [r[key] for r in rows]
        if key in ("lcp_element", "viewport"):
            out[key] = max(values, key=values.count)
        else:
            out[key] = median(values)
    return out


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("waterfall")
    parser.add_argument("photos", type=Path)
    parser.add_argument("work", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sites", default="", help="comma-separated, of waterfall, waterfall-avif, sigal-colorbox, "
                        "sigal-galleria, sigal-photoswipe (default: all)")
    parser.add_argument("--network", choices=sorted(NETWORKS), default="slow4g")
    parser.add_argument("--desktop-cpu", type=float, default=DEVICES["desktop"]["cpu"],
                        help="the desktop's CPU slowdown (default 1, as Lighthouse's desktop preset)")
    args = parser.parse_args()
    DEVICES["desktop"]["cpu"] = args.desktop_cpu
    waterfall = str(Path(args.waterfall).resolve())
    photos, work = args.photos.resolve(), args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    network = NETWORKS[args.network]

    builders = site_builders(waterfall, photos, work)
    keys = [k.strip() for k in args.sites.split(",") if k.strip()] or list(builders)
    unknown = [k for k in keys if k not in builders]
    if unknown:
        parser.error(f"unknown site {', '.join(unknown)}; the sites are {', '.join(builders)}")
    labels = [builders[k][0] for k in keys]
    folders = {builders[k][0]: builders[k][1] for k in keys}
    count = sum(1 for p in photos.iterdir() if not p.name.startswith("."))
    version = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"bench-visitor: an album of {count} photographs ({photos}); {version}")
    print(f"network {args.network}: {network['latency']:g} ms latency per request, {network['down']:g} kbit/s down, "
          f"{network['up']:g} kbit/s up, cache disabled")
    for name, d in DEVICES.items():
        print(f"{name}: {d['width']}×{d['height']} at {d['scale']}×, {'mobile, touch' if d['mobile'] else 'desktop'}, "
              f"CPU {d['cpu']:g}× slower")
    print(f"waterfall: {waterfall}\nload average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")

    servers = {}
    print("| site | build wall s |\n|---|---:|")
    for key in keys:
        label, site, build = builders[key]
        shutil.rmtree(site, ignore_errors=True)
        print(f"| {label} | {build(site):.1f} |", flush=True)
        servers[label] = Server(site)

    files = Files(photos)
    raw: dict[tuple[str, str], list[dict]] = {(label, device): [] for label in labels for device in DEVICES}
    try:
        for run in range(args.runs):
            for device_name, device in DEVICES.items():
                for label in labels:
                    page = load(servers[label].url, device, network)
                    row = summarise(page, folders[label], files)
                    raw[(label, device_name)].append(row)
                    print(f"  run {run + 1} {device_name:7} {label:22} LCP {seconds(row['lcp'])} s, first screen "
                          f"{seconds(row['first_screen'])} s, {row['bytes'] / 1024:.0f} KiB", file=sys.stderr, flush=True)
    finally:
        for server in servers.values():
            server.close()

    (work / "results.json").write_text(json.dumps(
        {f"{label} | {device}": rows for (label, device), rows in raw.items()}, indent=1, default=str))
    results = {key: combine(rows) for key, rows in raw.items()}
    print_tables(results, labels, args.runs)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores; the CPU-throttled "
          f"phone timings move with it). Every load: {work / 'results.json'}")


if __name__ == "__main__":
    main()
