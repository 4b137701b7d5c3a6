"""Fixtures for the page validators: SampleGallery built once per session by the binary under test, and
for axe one browser per engine through Tests/Browser/engines.

Environment: WATERFALL_BIN (default .build/debug/waterfall), WATERFALL_ENGINES and
WATERFALL_REQUIRE_ENGINES as in Tests/Browser/README.md.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))  # the engine drivers and the build helper are shared

import engines  # noqa: E402
import harness  # noqa: E402

ENGINES = [e for e in os.environ.get("WATERFALL_ENGINES", ",".join(engines.ENGINES)).split(",") if e]
_required = os.environ.get("WATERFALL_REQUIRE_ENGINES", "")
REQUIRED = set(engines.ENGINES) if _required == "all" else {e for e in _required.split(",") if e}


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """SampleGallery built into a temporary folder; returns that folder."""
    binary = Path(os.environ.get("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")).resolve()
    if not binary.is_file():
        pytest.fail(f"no waterfall binary at {binary}: build it first (swift build) or set WATERFALL_BIN")
    output = tmp_path_factory.mktemp("sample-site")
    # Originals published, so photo pages carry their download and full-size links too, and every album's
    # archive, so gallery pages carry its download link.
    harness.build_site(binary, REPO / "SampleGallery", output, "--originals", "copy", "--zip")
    return output


@pytest.fixture(scope="session")
def pages(site) -> dict[str, Path]:
    """One page of each kind: the gallery, an album, a photo page."""
    albums = sorted(site.glob("*/index.html"))
    photos = sorted(site.glob("photos/*.html"))
    if not albums or not photos:
        pytest.fail(f"SampleGallery's site at {site} has no album or no photo page")
    # The photo page with the most paragraphs (description, EXIF, original link): most of photo.mustache.
    richest = max(photos, key=lambda page: page.read_text(encoding="utf-8").count("<p"))
    return {"gallery": site / "index.html", "album": albums[0], "photo": richest}


@pytest.fixture(scope="session")
def paged_site(tmp_path_factory) -> Path:
    """Nine photos four to a page, originals published: gallery pages with a pager, photo pages with every
    link. Returns the site's folder."""
    from PIL import Image
    binary = Path(os.environ.get("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")).resolve()
    photos = tmp_path_factory.mktemp("paged-photos")
    for n in range(9):
        size = (2600, 1700) if n % 2 else (1200, 1600)
        Image.linear_gradient("L").resize(size).convert("RGB").save(photos / f"photo-{n}.jpg")
    (photos / "waterfall.json").write_text('{"perPage": 4, "title": "Paged"}', encoding="utf-8")
    output = tmp_path_factory.mktemp("paged-site")
    harness.build_site(binary, photos, output, "--originals", "copy")
    return output


@pytest.fixture
def site_copy(site, tmp_path) -> Path:
    """A copy of the site to break on purpose (the copies keep their relative links to assets and images)."""
    return Path(shutil.copytree(site, tmp_path / "site"))


@pytest.fixture(scope="session", params=ENGINES)
def browser(request):
    try:
        driver = engines.start(request.param)
    except engines.EngineUnavailable as error:
        reason = f"{request.param} unavailable: {error}"
        if request.param in REQUIRED:
            pytest.fail(reason + " (WATERFALL_REQUIRE_ENGINES names it)")
        pytest.skip(reason)
    driver.set_viewport(1024, 768)
    yield driver
    driver.quit()


def pytest_sessionfinish(session):
    engines.shutdown()  # WebKit's Xvfb
