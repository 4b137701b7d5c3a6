"""Fixtures for the browser tests: the site under test (built once per session) and three Chromium browsers.

Environment:
  WATERFALL_BIN      the `waterfall` binary (default: .build/debug/waterfall under the repository root)
  WATERFALL_GALLERY  the folder of photos to build (default: Tests/WaterfallKitTests/Fixtures/gallery)
  WATERFALL_PAGE     an existing index.html to test instead of building one (e.g. the hand-made
                     Tests/Browser/sample_page/index.html); the photos' sizes then come from inspect.json
                     beside it, or from `WATERFALL_BIN inspect --json` on the images under its folder
Relative paths given in these variables are taken from the current directory; the defaults from the
repository root.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import harness

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "Tests" / "Artifacts" / "browser"
WIDTHS = [360, 768, 1024, 1440, 2560]
IMAGE_FORMATS = {".jpg", ".jpeg", ".png"}


def _path_from_env(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value).resolve() if value else default


@dataclass
class Site:
    index: Path
    photos: dict  # file name -> (display width, display height)

    @property
    def url(self) -> str:
        return self.index.as_uri()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Site:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    page = os.environ.get("WATERFALL_PAGE")
    if page:
        index = Path(page).resolve()
        if not index.is_file():
            pytest.fail(f"WATERFALL_PAGE={page}: no such file")
        sidecar = index.parent / "inspect.json"
        if sidecar.is_file():
            photos = harness.photos_from_inspect_json(json.loads(sidecar.read_text(encoding="utf-8")))
        elif binary.is_file():
            images = sorted(p for p in index.parent.rglob("*") if p.suffix.lower() in IMAGE_FORMATS)
            photos = harness.inspect_photos(binary, images)
        else:
            pytest.fail(f"WATERFALL_PAGE={page}: no inspect.json beside it and no {binary} to inspect its images")
        return Site(index, photos)

    gallery = _path_from_env("WATERFALL_GALLERY", REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "gallery")
    if not binary.is_file():
        pytest.fail(f"no waterfall binary at {binary}: build it first (swift build) or set WATERFALL_BIN")
    if not gallery.is_dir():
        pytest.fail(f"no photo folder at {gallery}: set WATERFALL_GALLERY")
    output = tmp_path_factory.mktemp("site")
    try:
        index = harness.build_site(binary, gallery, output)
        photos = harness.inspect_photos(binary, harness.natural_top_level_files(gallery))
    except RuntimeError as error:
        pytest.fail(str(error))
    if not photos:
        pytest.fail(f"{gallery} has no readable photo")
    return Site(index, photos)


# -- browsers: one per configuration, for the whole session, started when first needed ----------------------


@pytest.fixture(scope="session")
def normal_browser():
    browser = harness.Browser.start("normal")
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def blocked_browser():
    browser = harness.Browser.start("images blocked", block_images=True)
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def nojs_browser():
    browser = harness.Browser.start("JavaScript disabled", javascript=False)
    yield browser
    browser.quit()


@dataclass
class Runs:
    """Each measurement made once per width and shared by every test that reads it."""
    request: pytest.FixtureRequest
    site: Site
    cache: dict = field(default_factory=dict)

    def _memo(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def normal(self, width: int) -> harness.NormalRun:
        browser = self.request.getfixturevalue("normal_browser")
        return self._memo(("normal", width), lambda: browser.measure_normal(
            self.site.url, width, screenshot=ARTIFACTS / f"gallery-{width}.png"))

    def blocked(self, width: int) -> harness.Geometry:
        browser = self.request.getfixturevalue("blocked_browser")
        return self._memo(("blocked", width), lambda: browser.measure_geometry(self.site.url, width))

    def nojs(self, width: int) -> harness.Geometry:
        browser = self.request.getfixturevalue("nojs_browser")
        return self._memo(("nojs", width), lambda: browser.measure_geometry(self.site.url, width))


@pytest.fixture(scope="session")
def runs(request, site) -> Runs:
    return Runs(request, site)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def width(request) -> int:
    return request.param
