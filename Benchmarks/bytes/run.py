#!/usr/bin/env python3
"""make bench-bytes: what a visitor downloads, and what the first build costs, per `formats` set.

For each format set it builds the same folder of real photographs into a fresh site (timing the first build:
wall and CPU of the waterfall process), opens the page in Chromium at 390x844 and 1440x900 (device pixel
ratio 1), and adds up the bytes of the files the browser chose (each image's currentSrc, plus the page and its
stylesheet): the first screen (images that intersect the viewport once loaded) and the whole page (after
scrolling to the bottom, every image loaded). Then the quality: every image the browser chose at 1440 px,
scored with SSIMULACRA2 against the lossless resize of its photo at the same size (Waterfall's own decode
and resample, through the calibration harness), so the byte figures are read at the quality they came with.

  run.py WATERFALL HARNESS PHOTOS WORK
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
import harness  # noqa: E402  (the browser tests' harness: engines, viewport, scrolling)

# (label, --formats, extra settings): the sets at their defaults, then AVIF at a slower speed (its quality
# matched to the JPEG at that speed by default too) to show what more time buys.
BUILDS = [("jpeg", "jpeg", {}), ("webp,jpeg", "webp,jpeg", {}), ("avif,jpeg", "avif,jpeg", {}),
          ("avif,webp,jpeg", "avif,webp,jpeg", {}), ("avif,jpeg speed 6", "avif,jpeg", {"avifSpeed": 6})]
# (width, height, device pixel ratio): a phone as Chromium's defaults see it, a phone as it is (3×), a laptop.
VIEWPORTS = [(390, 844, 1), (390, 844, 3), (1440, 900, 1)]

# Every image on the page and the file it shows; `first` when it intersects the first screen.
CHOSEN_JS = r"""
return Array.from(document.images).map(i => {
  const r = i.getBoundingClientRect();
  return {src: i.currentSrc, complete: i.complete, natural: [i.naturalWidth, i.naturalHeight],
          first: r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth};
});
"""
STYLESHEETS_JS = "return Array.from(document.styleSheets).map(s => s.href).filter(h => h);"


def local(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def build(waterfall: str, photos: Path, site: Path, formats: str, settings: dict) -> tuple[float, float]:
    """A first build into a fresh folder: (wall seconds, CPU seconds of the waterfall process)."""
    shutil.rmtree(site, ignore_errors=True)
    config = site.parent / (site.name + ".json")
    config.write_text(json.dumps(settings))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([waterfall, "build", str(photos), "-o", str(site), "--formats", formats, "--config", str(config), "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def wait_loaded(browser, only_first: bool, timeout: float = 30.0) -> list[dict]:
    started = time.monotonic()
    while True:
        images = browser.run(CHOSEN_JS)
        pending = [i for i in images if (i["first"] or not only_first) and not (i["complete"] and i["natural"][0])]
        if not pending:
            return images
        if time.monotonic() - started > timeout:
            raise RuntimeError(f"{len(pending)} images did not load, e.g. {pending[0]['src']}")
        time.sleep(0.05)


def page_bytes(browser, index: Path, width: int, height: int, scale: int) -> dict:
    """{first, whole: bytes; files: the image files shown on the whole page; first_files}."""
    if scale == 1:
        browser.load(index.as_uri(), width, height)
    else:  # DevTools' device emulation: the viewport in CSS px, each drawn with `scale` device pixels
        browser.driver.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": True})
        browser.navigate(index.as_uri())
        assert browser.run("return [innerWidth, devicePixelRatio]") == [width, scale]
    first = wait_loaded(browser, only_first=True)
    overhead = index.stat().st_size + sum(local(h).stat().st_size for h in browser.run(STYLESHEETS_JS))
    first_files = {local(i["src"]) for i in first if i["first"]}
    browser.run_async(harness.SCROLL_THROUGH_JS)
    whole = wait_loaded(browser, only_first=False)
    files = {local(i["src"]) for i in whole}
    if scale != 1:
        browser.driver.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return {"first": overhead + sum(f.stat().st_size for f in first_files),
            "whole": overhead + sum(f.stat().st_size for f in files),
            "first_files": first_files, "files": files}


def photo_pages(browser, site: Path) -> tuple[int, list[Path]]:
    """The view images Chromium chose on every photo page at 1440x900 (what a visitor who opens every photo
    downloads on top of the gallery page): their bytes, and the files in page order."""
    total, files = 0, []
    for page in sorted((site / "photos").glob("*.html")):
        browser.load(page.as_uri(), 1440, 900)
        chosen = wait_loaded(browser, only_first=False)
        files += [local(i["src"]) for i in chosen]
        total += sum(local(i["src"]).stat().st_size for i in chosen)
    return total, files


def photo_of(file: Path, photos: Path) -> Path:
    """The photo a derived file was made from: its name is the photo's name, then .avif/.webp when modern."""
    name = file.name
    for suffix in (".avif", ".webp"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return photos / name


SCORED_VIEWS = 8  # a 2048 px score takes about 7 s: the first 8 photo pages' views, in every set
VIEW_BOX = (2048, 2048)  # the build's default view size: tiles are resampled from the view-sized image


def scores(harness_bin: str, photos: Path, files: set[Path], work: Path) -> dict[Path, float]:
    from ssimulacra2 import compute_ssimulacra2
    from PIL import Image
    out = {}
    for file in sorted(files):
        photo = photo_of(file, photos)
        dist = file
        if file.suffix in (".avif", ".webp"):
            dist = work / ("decoded-" + file.name + ".png")
            tool = ["avifdec", "-j", "1", str(file), str(dist)] if file.suffix == ".avif" else \
                ["dwebp", "-quiet", str(file), "-o", str(dist)]
            subprocess.run(tool, check=True, stdout=subprocess.DEVNULL)
        w, h = Image.open(dist).size
        ref = work / f"ref-{photo.name}-{w}x{h}.png"
        ref.unlink(missing_ok=True)  # made anew each run: the resampler may have changed
        subprocess.run([harness_bin, "refset", str(photo), str(ref), str(w), str(h), *map(str, VIEW_BOX)],
                       check=True, stdout=subprocess.DEVNULL)
        out[file] = float(compute_ssimulacra2(str(ref), str(dist)))
    return out


def main():
    waterfall, harness_bin = str(Path(sys.argv[1]).resolve()), str(Path(sys.argv[2]).resolve())
    photos, work = Path(sys.argv[3]).resolve(), Path(sys.argv[4]).resolve()
    work.mkdir(parents=True, exist_ok=True)
    count = len([p for p in photos.iterdir() if p.suffix == ".jpg"])
    print(f"bench-bytes: {count} real photographs ({photos}), Chromium\n")
    timings, measured = {}, {}
    site = {label: work / ("site-" + label.replace(",", "-").replace(" ", "-")) for label, _, _ in BUILDS}
    for label, formats, settings in BUILDS:  # all builds first, back to back, so they share the machine's state
        timings[label] = build(waterfall, photos, site[label], formats, settings)
    browser = harness.Browser.start("chromium", "bench-bytes")
    try:
        for label, _, _ in BUILDS:
            measured[label] = {vp: page_bytes(browser, site[label] / "index.html", *vp) for vp in VIEWPORTS}
            measured[label]["photo pages"], measured[label]["views"] = photo_pages(browser, site[label])
    finally:
        browser.quit()

    base_wall, base_cpu = timings["jpeg"]
    print("First build (fresh output folder, all cores):\n")
    print("| formats | wall s | × jpeg | CPU s | × jpeg |")
    print("|---|---:|---:|---:|---:|")
    for formats, (wall, cpu) in timings.items():
        print(f"| {formats} | {wall:.2f} | {wall / base_wall:.2f} | {cpu:.2f} | {cpu / base_cpu:.2f} |")

    print("\nBytes a visitor downloads (page + stylesheet + the images the browser chose), KiB and × jpeg:\n")
    header = " | ".join(f"{w}px {r}× first screen | {w}px {r}× whole page" for w, _, r in VIEWPORTS)
    print(f"| formats | {header} |")
    print("|---|" + "---:|" * (2 * len(VIEWPORTS)))
    for formats, by_vp in measured.items():
        cells = []
        for vp in VIEWPORTS:
            for part in ("first", "whole"):
                value, base = by_vp[vp][part], measured["jpeg"][vp][part]
                cells.append(f"{value / 1024:.0f} ({value / base:.2f})")
        print(f"| {formats} | " + " | ".join(cells) + " |")

    print("\nEvery photo page opened at 1440x900 (the view images Chromium chose), KiB and × jpeg:\n")
    print("| formats | photo pages |")
    print("|---|---:|")
    for label, by_vp in measured.items():
        value, base = by_vp["photo pages"], measured["jpeg"]["photo pages"]
        print(f"| {label} | {value / 1024:.0f} ({value / base:.2f}) |")

    print("\nWhat the time buys: KiB saved per extra CPU second of the first build, against jpeg alone:\n")
    print("| formats | " + " | ".join(f"{w}px {r}× whole page" for w, _, r in VIEWPORTS) + " |")
    print("|---|" + "---:|" * len(VIEWPORTS))
    for label in measured:
        if label == "jpeg":
            continue
        extra = timings[label][1] - base_cpu
        cells = [f"{(measured['jpeg'][vp]['whole'] - measured[label][vp]['whole']) / 1024 / extra:.1f}" for vp in VIEWPORTS]
        print(f"| {label} | " + " | ".join(cells) + " |")

    print_quality("Quality of what Chromium showed at 1440 px (SSIMULACRA2 against the lossless resize; higher is "
                  "better)", "images", {label: by_vp[(1440, 900, 1)]["files"] for label, by_vp in measured.items()},
                  harness_bin, photos, work)
    print_quality(f"Quality of the views Chromium showed on the first {SCORED_VIEWS} photo pages (SSIMULACRA2, as above)",
                  "views", {label: set(by_vp["views"][:SCORED_VIEWS]) for label, by_vp in measured.items()},
                  harness_bin, photos, work)


def print_quality(title: str, unit: str, files: dict[str, set[Path]], harness_bin: str, photos: Path, work: Path):
    """A table of each format set's scores, and each photo's difference from its JPEG (the first set)."""
    print(f"\n{title}:\n")
    print(f"| formats | {unit} | median | min | median Δ vs jpeg, same photo |")
    print("|---|---:|---:|---:|---:|")
    base = {}
    for formats, shown in files.items():
        values = scores(harness_bin, photos, shown, work)
        per_photo = {photo_of(f, photos).name: v for f, v in values.items()}
        if formats == "jpeg":
            base = per_photo
        deltas = [v - base[p] for p, v in per_photo.items() if p in base]
        print(f"| {formats} | {len(values)} | {statistics.median(values.values()):.2f} | {min(values.values()):.2f} "
              f"| {statistics.median(deltas):+.2f} |")

if __name__ == "__main__":
    main()
