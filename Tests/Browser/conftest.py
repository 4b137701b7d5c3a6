"""Fixtures for the browser tests: the site under test (built once per session) and, for every engine in
engines/ (Chromium, Firefox, WebKit), three browsers: normal, images blocked, JavaScript disabled.

Environment:
  WATERFALL_BIN      the `waterfall` binary (default: .build/debug/waterfall under the repository root)
  WATERFALL_GALLERY  the folder of photos to build (default: Tests/WaterfallKitTests/Fixtures/gallery)
  WATERFALL_PAGE     an existing index.html to test instead of building one (e.g. the hand-made
                     Tests/Browser/sample_page/index.html); the photos' sizes then come from inspect.json
                     beside it, or from `WATERFALL_BIN inspect --json` on the images under its folder
  WATERFALL_ENGINES  the engines to run, comma-separated (default: chromium,firefox,webkit)
  WATERFALL_REQUIRE_ENGINES  engines that must run (comma-separated, or "all"): fail instead of skip
Relative paths given in these variables are taken from the current directory; the defaults from the
repository root.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import engines
import harness

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "Tests" / "Artifacts" / "browser"
WIDTHS = [360, 768, 1024, 1440, 2560]
IMAGE_FORMATS = {".jpg", ".jpeg", ".png", ".heic", ".heif", ".avif", ".webp", ".gif"}


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


# -- browsers: per engine, one per configuration, started when first needed ----------------------------------

# WATERFALL_ENGINES narrows the engines run (comma-separated); WATERFALL_REQUIRE_ENGINES names engines that
# must run (comma-separated, or "all"): for those, an engine that cannot start fails instead of skipping.
ENGINES = [e for e in os.environ.get("WATERFALL_ENGINES", ",".join(engines.ENGINES)).split(",") if e]
_required = os.environ.get("WATERFALL_REQUIRE_ENGINES", "")
REQUIRED = set(engines.ENGINES) if _required == "all" else {e for e in _required.split(",") if e}

CONFIGS = {"normal": {}, "images blocked": {"block_images": True}, "JavaScript disabled": {"javascript": False}}


class Browsers:
    """Every browser of the session, by (engine, configuration). An engine that cannot start is remembered
    with its reason, so its later tests skip (or fail, if required) at once instead of retrying."""

    def __init__(self):
        self.open: dict[tuple[str, str], harness.Browser] = {}
        self.unavailable: dict[str, str] = {}

    def get(self, engine: str, config: str = "normal") -> harness.Browser:
        if engine in self.unavailable:
            self._give_up(engine)
        key = (engine, config)
        if key not in self.open:
            try:
                self.open[key] = harness.Browser.start(engine, config, **CONFIGS[config])
            except engines.EngineUnavailable as error:
                self.unavailable[engine] = str(error)
                self._give_up(engine)
        return self.open[key]

    def _give_up(self, engine: str):
        reason = f"{engine} unavailable: {self.unavailable[engine]}"
        if engine in REQUIRED:
            pytest.fail(reason + " (WATERFALL_REQUIRE_ENGINES names it)")
        pytest.skip(reason)

    def close(self, engine: str):
        for key in [k for k in self.open if k[0] == engine]:
            self.open.pop(key).quit()

    def close_all(self):
        for engine in {k[0] for k in self.open}:
            self.close(engine)


@pytest.fixture(scope="session")
def browsers():
    pool = Browsers()
    yield pool
    pool.close_all()
    engines.shutdown()  # WebKit's Xvfb
    harness.remove_probe_page()


@pytest.fixture(scope="session", params=ENGINES)
def engine(request, browsers):
    """Session-scoped, so pytest runs one engine's tests together and its browsers close before the next."""
    yield request.param
    browsers.close(request.param)


@pytest.fixture
def normal_browser(browsers, engine) -> harness.Browser:
    return browsers.get(engine, "normal")


@pytest.fixture
def blocked_browser(browsers, engine) -> harness.Browser:
    return browsers.get(engine, "images blocked")


@pytest.fixture
def nojs_browser(browsers, engine) -> harness.Browser:
    return browsers.get(engine, "JavaScript disabled")


@dataclass
class Runs:
    """Each measurement made once per engine and width, and shared by every test that reads it."""
    browsers: Browsers
    site: Site
    cache: dict = field(default_factory=dict)

    def _memo(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def normal(self, engine: str, width: int) -> harness.NormalRun:
        return self._memo(("normal", engine, width), lambda: self.browsers.get(engine).measure_normal(
            self.site.url, width, screenshot=ARTIFACTS / f"gallery-{engine}-{width}.png"))

    def blocked(self, engine: str, width: int) -> harness.Geometry:
        return self._memo(("blocked", engine, width), lambda: self.browsers.get(engine, "images blocked")
                          .measure_geometry(self.site.url, width))

    def nojs(self, engine: str, width: int) -> harness.Geometry:
        return self._memo(("nojs", engine, width), lambda: self.browsers.get(engine, "JavaScript disabled")
                          .measure_geometry(self.site.url, width))


@pytest.fixture(scope="session")
def runs(browsers, site) -> Runs:
    return Runs(browsers, site)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def width(request) -> int:
    return request.param
