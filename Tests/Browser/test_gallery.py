"""The gallery page that `waterfall build` writes, in real browsers (Chromium, Firefox, WebKit; see
engines/), at five widths each.

The geometry checks read the page after every image has loaded; the comparisons read it again in a browser
of the same engine that blocks images and in one with JavaScript disabled. The last test compares the
engines with each other. See conftest.py for the environment variables.
"""
import pytest

import harness
from conftest import ENGINES, REQUIRED, WIDTHS

# Tile rectangles relative to the board agree across engines to about 0.03 px (text metrics differ, but
# only above the board); 0.25 px leaves room for rounding without hiding a misplaced tile.
CROSS_ENGINE_TOLERANCE = 0.25


def _ok(problems):
    assert not problems, "\n".join(problems)


def test_one_tile_per_photo(runs, site, engine, width):
    _ok(harness.check_structure(runs.normal(engine, width).after, site.photos))


def test_no_javascript_on_the_page(runs, engine):
    _ok(harness.check_no_javascript(runs.normal(engine, 1024).after))


def test_tiles_do_not_overlap(runs, engine, width):
    _ok(harness.check_no_overlap(runs.normal(engine, width).after))


def test_tiles_have_the_photos_shape_and_images_fill_them(runs, site, engine, width):
    _ok(harness.check_aspect_and_fill(runs.normal(engine, width).after, site.photos))


def test_footer_is_below_every_tile(runs, engine, width):
    _ok(harness.check_footer(runs.normal(engine, width).after))


def test_no_horizontal_overflow(runs, engine, width):
    _ok(harness.check_no_horizontal_overflow(runs.normal(engine, width).after))


def test_every_image_loads(runs, engine, width):
    _ok(harness.check_images_loaded(runs.normal(engine, width)))


def test_same_geometry_with_images_blocked(runs, engine, width):
    blocked = runs.blocked(engine, width)
    _ok(harness.check_images_blocked(blocked)
        + harness.check_same_geometry(runs.normal(engine, width).after, blocked, "images blocked"))


def test_same_geometry_without_javascript(runs, engine, width):
    _ok(harness.check_same_geometry(runs.normal(engine, width).after, runs.nojs(engine, width), "JavaScript disabled"))


def test_no_layout_shift(runs, engine, width):
    _ok(harness.check_no_layout_shift(runs.normal(engine, width)))


def test_full_page_screenshot(runs, engine, width):
    run = runs.normal(engine, width)
    assert run.screenshot is not None and run.screenshot.is_file()
    assert run.screenshot_size == (width, run.document_height), \
        f"screenshot {run.screenshot_size}, document {width}×{run.document_height}"


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_engines_agree_on_tile_rectangles(runs, browsers, width):
    """Every engine places every tile where Chromium (or the first engine that runs) does, relative to the
    board: the layout is plain CSS, so any difference is a portability bug in the page."""
    measured = {}
    for engine in ENGINES:
        if engine in browsers.unavailable and engine not in REQUIRED:
            continue
        try:
            measured[engine] = runs.normal(engine, width).after.board_relative()
        except pytest.skip.Exception:
            continue
    if len(measured) < 2:
        pytest.skip(f"fewer than two engines could run here: {sorted(measured)} "
                    f"(unavailable: {browsers.unavailable})")
    _ok(harness.check_engines_agree(measured, CROSS_ENGINE_TOLERANCE))
