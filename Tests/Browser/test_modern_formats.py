"""A gallery built with `--formats avif,webp,jpeg`, in every engine: each tile is a <picture> whose <img>
loads the best format the engine decodes (Chromium and Firefox: AVIF; WebKitGTK: whatever it supports,
found on the page itself with HTMLImageElement.decode() of one of the gallery's own AVIF and WebP files);
a copy of the page whose <source> types are unknown shows every JPEG/PNG fallback; and the <picture>
wrapper changes no tile box (the gallery checks of test_gallery.py pass on both pages)."""
from __future__ import annotations

import re
import shutil

import pytest

import harness
from conftest import ARTIFACTS, REPO, Site, _path_from_env

FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures"
PHOTOS = [FIXTURES / "gallery" / name for name in
          ("coffee-cup.jpg", "hubble-tall.jpg", "rocket-panorama.jpg", "cameraman-skyline.png", "chelsea-portrait.jpg")]
CUTOUT = REPO / "SampleGallery" / "chelsea-cutout.png"  # alpha: a PNG fallback, AVIF and WebP with alpha
WIDTHS = [360, 1440]
MODERN_ENGINES = {"chromium": "avif", "firefox": "avif"}  # what these engines must pick; WebKitGTK is probed

# Decodes one of the page's own files of each format: {avif: bool, webp: bool}.
SUPPORT_JS = r"""
const done = arguments[arguments.length - 1];
const first = type => {
  const source = document.querySelector('source[type="' + type + '"]');
  return source ? source.getAttribute('srcset').split(' ')[0] : null;
};
const decodes = url => {
  if (!url) return Promise.resolve(false);
  const image = new Image();
  image.src = url;
  return image.decode().then(() => image.naturalWidth > 0, () => false);
};
Promise.all([decodes(first('image/avif')), decodes(first('image/webp'))])
  .then(([avif, webp]) => done({avif, webp}));
"""

TILE_IMAGES_JS = r"""
return Array.from(document.querySelectorAll('.wf-tile img')).map(i => ({
  currentSrc: i.currentSrc, complete: i.complete, naturalWidth: i.naturalWidth,
  inPicture: i.parentElement.tagName === 'PICTURE'}));
"""


@pytest.fixture(scope="session")
def modern_site(tmp_path_factory) -> Site:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    photos = tmp_path_factory.mktemp("modern") / "photos"
    photos.mkdir()
    for file in PHOTOS + [CUTOUT]:
        shutil.copyfile(file, photos / file.name)
    index = harness.build_site(binary, photos, photos.parent / "site", "--formats", "avif,webp,jpeg")
    return Site(index, harness.inspect_photos(binary, harness.natural_top_level_files(photos)))


@pytest.fixture(scope="session")
def unknown_types_site(modern_site) -> Site:
    """The same page beside the original (so every image path holds) with its sources' types made unknown:
    what a browser that supports neither format sees."""
    html = modern_site.index.read_text(encoding="utf-8")
    rewritten, count = re.subn(r'<source type="image/(avif|webp)"', '<source type="image/x-unknown-\\1"', html)
    assert count == 2 * len(modern_site.photos), f"{count} sources rewritten for {len(modern_site.photos)} photos"
    index = modern_site.index.parent / "unknown-types.html"
    index.write_text(rewritten, encoding="utf-8")
    return Site(index, modern_site.photos)


def test_every_tile_is_a_picture_with_avif_and_webp_sources(modern_site):
    html = modern_site.index.read_text(encoding="utf-8")
    assert html.count("<picture>") == len(modern_site.photos)
    assert html.count('<source type="image/avif"') == html.count('<source type="image/webp"') == len(modern_site.photos)


def check_gallery(run, site: Site) -> list[str]:
    return (harness.check_structure(run.after, site.photos) + harness.check_no_overlap(run.after)
            + harness.check_aspect_and_fill(run.after, site.photos) + harness.check_images_loaded(run)
            + harness.check_no_layout_shift(run))


def best_supported(browser: harness.Browser) -> str | None:
    support = browser.run_async(SUPPORT_JS)
    expected = MODERN_ENGINES.get(browser.engine)
    if expected:
        assert support[expected], f"{browser.engine} does not decode {expected}: {support}"
    return "avif" if support["avif"] else "webp" if support["webp"] else None


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_the_engine_loads_the_best_format_it_supports(modern_site, normal_browser, width):
    run = normal_browser.measure_normal(modern_site.url, width,
                                        screenshot=ARTIFACTS / f"modern-{normal_browser.engine}-{width}.png")
    problems = check_gallery(run, modern_site)
    assert not problems, "\n".join(problems)
    images = normal_browser.run(TILE_IMAGES_JS)
    best = best_supported(normal_browser)
    suffixes = (f".{best}",) if best else (".jpg", ".png")
    assert len(images) == len(modern_site.photos)
    wrong = [i["currentSrc"] for i in images if not i["currentSrc"].endswith(suffixes) or not i["inPicture"]]
    assert not wrong, f"{normal_browser.engine} supports {best or 'neither format'}, but loaded {wrong}"
    assert all(i["complete"] and i["naturalWidth"] > 0 for i in images), images


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_unknown_source_types_fall_back_to_jpeg_and_png(unknown_types_site, normal_browser, width):
    run = normal_browser.measure_normal(unknown_types_site.url, width,
                                        screenshot=ARTIFACTS / f"modern-unknown-{normal_browser.engine}-{width}.png")
    problems = check_gallery(run, unknown_types_site)
    assert not problems, "\n".join(problems)
    images = normal_browser.run(TILE_IMAGES_JS)
    assert len(images) == len(unknown_types_site.photos)
    wrong = [i["currentSrc"] for i in images if not i["currentSrc"].endswith((".jpg", ".png"))]
    assert not wrong, f"{normal_browser.engine} loaded {wrong} for sources of unknown types"
    assert any(i["currentSrc"].endswith(".png") for i in images), "the cut-out's fallback is a PNG"
    assert all(i["complete"] and i["naturalWidth"] > 0 for i in images), images


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_the_picture_wrapper_changes_no_tile_box(modern_site, unknown_types_site, normal_browser, width):
    modern = normal_browser.measure_geometry(modern_site.url, width)
    fallback = normal_browser.measure_geometry(unknown_types_site.url, width)
    problems = harness.check_same_geometry(modern, fallback, "the page with unknown source types")
    assert not problems, "\n".join(problems)
