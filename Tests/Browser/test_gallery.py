"""The gallery page that `waterfall build` writes, in a real browser (headless Chromium), at five widths.

The geometry checks read the page after every image has loaded; the comparisons read it again in a browser
that blocks images and in one with JavaScript disabled. See conftest.py for the environment variables.
"""
import harness


def _ok(problems):
    assert not problems, "\n".join(problems)


def test_one_tile_per_photo(runs, site, width):
    _ok(harness.check_structure(runs.normal(width).after, site.photos))


def test_no_javascript_on_the_page(runs):
    _ok(harness.check_no_javascript(runs.normal(1024).after))


def test_tiles_do_not_overlap(runs, width):
    _ok(harness.check_no_overlap(runs.normal(width).after))


def test_tiles_have_the_photos_shape_and_images_fill_them(runs, site, width):
    _ok(harness.check_aspect_and_fill(runs.normal(width).after, site.photos))


def test_footer_is_below_every_tile(runs, width):
    _ok(harness.check_footer(runs.normal(width).after))


def test_no_horizontal_overflow(runs, width):
    _ok(harness.check_no_horizontal_overflow(runs.normal(width).after))


def test_every_image_loads(runs, width):
    _ok(harness.check_images_loaded(runs.normal(width)))


def test_same_geometry_with_images_blocked(runs, width):
    blocked = runs.blocked(width)
    _ok(harness.check_images_blocked(blocked)
        + harness.check_same_geometry(runs.normal(width).after, blocked, "images blocked"))


def test_same_geometry_without_javascript(runs, width):
    _ok(harness.check_same_geometry(runs.normal(width).after, runs.nojs(width), "JavaScript disabled"))


def test_no_layout_shift(runs, width):
    _ok(harness.check_no_layout_shift(runs.normal(width)))


def test_full_page_screenshot(runs, width):
    run = runs.normal(width)
    assert run.screenshot is not None and run.screenshot.is_file()
    assert run.screenshot_size == (width, run.document_height), \
        f"screenshot {run.screenshot_size}, document {width}×{run.document_height}"
