"""Photo pages and pagination in real browsers (every engine): a tile opens its photo page, next and previous walk the
album, the back link returns to the gallery page that holds the photo, a pager link reaches page 2, and
photo pages do not shift while their image loads."""
import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

import harness
from conftest import REPO, _path_from_env

PER_PAGE = 6


@pytest.fixture(scope="module")
def paged_site(tmp_path_factory):
    """The fixture gallery built with a few photos per page, so that it has several gallery pages."""
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    gallery = _path_from_env("WATERFALL_GALLERY", REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "gallery")
    work = tmp_path_factory.mktemp("paged")
    config = work / "waterfall.json"
    config.write_text(json.dumps({"title": "Paged gallery", "perPage": PER_PAGE}), encoding="utf-8")
    out = work / "site"
    result = subprocess.run([str(binary), "build", str(gallery), "-o", str(out), "--config", str(config), "--quiet"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out


def page_name(url: str) -> str:
    return unquote(Path(urlparse(url).path).name)


def click(browser, selector: str) -> str:
    """Follows the first link matching selector, as a click would, without depending on scrolling."""
    href = browser.link(selector)
    assert href, f"no link {selector!r} on {browser.url()}"
    browser.navigate(href)
    return href


def test_tile_to_photo_page_and_through_the_album(paged_site, normal_browser):
    browser = normal_browser
    browser.load((paged_site / "index.html").as_uri(), 1024, 800)
    first = click(browser, '[data-tile="0"] a')
    assert "/photos/" in first and page_name(first).endswith(".html")
    seen = [page_name(browser.url())]
    # Walk forward with "next" over the end of page 1, then back with "previous".
    for _ in range(PER_PAGE + 1):
        click(browser, 'a[rel="next"]')
        seen.append(page_name(browser.url()))
    assert len(set(seen)) == len(seen), f"next visited a page twice: {seen}"
    back = click(browser, "a.wf-back")
    assert page_name(back).startswith("page-2.html"), f"photo {PER_PAGE + 1} is on page 2, back went to {back}"
    assert urlparse(back).fragment == f"tile-{(PER_PAGE + 1) % PER_PAGE}"  # photo 7 is the second tile of page 2
    assert page_name(browser.link(f"#{urlparse(back).fragment} a")) == seen[-1]
    browser.navigate(paged_site.joinpath("photos", seen[-1]).as_uri())
    for _ in range(PER_PAGE + 1):
        click(browser, 'a[rel="prev"]')
    assert page_name(browser.url()) == seen[0]


def test_pager_reaches_page_two(paged_site, normal_browser):
    browser = normal_browser
    browser.load((paged_site / "index.html").as_uri(), 1024, 800)
    assert browser.text('.wf-pager [aria-current="page"]') == "1"
    href = click(browser, '.wf-pager a[rel="next"]')
    assert page_name(href) == "page-2.html"
    assert browser.text('.wf-pager [aria-current="page"]') == "2"
    tiles = browser.run("return document.querySelectorAll('[data-tile]').length")
    assert 0 < tiles <= PER_PAGE


PHOTO_BOX = ".wf-photo img"
WAIT_FOR_PHOTO_JS = ("const done = arguments[0]; const img = document.querySelector('.wf-photo img');"
                     "if (img.complete) done(); else img.addEventListener('load', () => done());")


@pytest.mark.parametrize("width", [360, 1440])
def test_photo_pages_do_not_shift(paged_site, normal_browser, width):
    browser = normal_browser
    photo_page = sorted((paged_site / "photos").glob("*.html"))[1]
    browser.load(photo_page.as_uri(), width, 800)
    observing = browser.run(harness.LAYOUT_SHIFT_OBSERVER_JS)
    box = browser.box(PHOTO_BOX)
    browser.run_async(WAIT_FOR_PHOTO_JS)
    after = browser.box(PHOTO_BOX)
    assert box == after and box[2] > 0 and box[3] > 0, (box, after)
    read = browser.read_shifts()
    problems = (harness.check_layout_shift_entries(read["shifts"] if observing else None)
                + harness.check_motion(read["motion"]))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("width", [360, 1440])
def test_photo_page_box_is_known_without_the_image(paged_site, normal_browser, blocked_browser, width):
    """The view image's box with images blocked equals its box once loaded: fixed before any byte arrives."""
    photo_page = sorted((paged_site / "photos").glob("*.html"))[1]
    blocked_browser.load(photo_page.as_uri(), width, 800)
    without = blocked_browser.box(PHOTO_BOX)
    normal_browser.load(photo_page.as_uri(), width, 800)
    normal_browser.run_async(WAIT_FOR_PHOTO_JS)
    loaded = normal_browser.box(PHOTO_BOX)
    assert without[2] > 0 and without[3] > 0, without
    assert [round(v, 1) for v in without] == [round(v, 1) for v in loaded], (without, loaded)


@pytest.fixture(scope="module")
def zipped_site(tmp_path_factory):
    """The fixture gallery built with every album's archive of its originals (`--zip`)."""
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    gallery = _path_from_env("WATERFALL_GALLERY", REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "gallery")
    out = tmp_path_factory.mktemp("zipped") / "site"
    result = subprocess.run([str(binary), "build", str(gallery), "-o", str(out), "--zip", "--quiet"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.parametrize("width", [360, 1440])
def test_download_link_is_a_target_above_the_board(zipped_site, normal_browser, width):
    """The album's download link (zip: true) is at least 24 × 24 CSS px (WCAG 2.2's target size), leads to the
    archive, and sits above the board, whose tiles it does not move."""
    browser = normal_browser
    browser.load((zipped_site / "index.html").as_uri(), width, 800)
    x, y, w, h = browser.box(".wf-download a")
    assert w >= 24 and h >= 24, (w, h)
    href = browser.link(".wf-download a")
    assert urlparse(href).path.endswith(".zip") and Path(unquote(urlparse(href).path)).is_file(), href
    board = browser.box(".wf-board")
    assert y + h <= board[1], ("the link overlaps the board", (x, y, w, h), board)
    assert "ZIP)" in browser.text(".wf-download a")
