"""A gallery built with `--bottom flush`, in every engine at every width: in each band the build could
level, every column ends on one line with the footer right under it, only the columns' last tiles change
shape and by at most the crop limit, their pictures fill them (object-fit: cover), and the engines agree on
every rectangle. Where a band could not be levelled its page is the natural one, which test_gallery.py
covers."""
from __future__ import annotations

import re

import pytest

import harness
from conftest import ARTIFACTS, ENGINES, REPO, REQUIRED, WIDTHS, Site, _path_from_env

GALLERY = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "gallery"
BAND_MIN_WIDTHS = [0, 600, 900, 1400]  # the default bands (SiteConfiguration.bands)
MAX_CROP = 0.15
INSET = 10  # the default bottom inset between the last row and the footer
TOLERANCE = 0.5


@pytest.fixture(scope="session")
def flush_site(tmp_path_factory) -> Site:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    output = tmp_path_factory.mktemp("flush-site")
    index = harness.build_site(binary, GALLERY, output, "--bottom", "flush")
    return Site(index, harness.inspect_photos(binary, harness.natural_top_level_files(GALLERY)))


def flush_bands(html: str) -> set[int]:
    """The bands the build levelled: those whose tiles carry a --hN height."""
    return {int(n) for n in re.findall(r"--h(\d+):clamp\(", html)}


def test_the_fixture_gallery_is_levelled_in_most_bands(flush_site):
    """Without this the checks below could pass on natural bands alone."""
    levelled = flush_bands(flush_site.index.read_text(encoding="utf-8"))
    assert len(levelled) >= 3, f"bands levelled: {sorted(levelled)} of {len(BAND_MIN_WIDTHS)}"


_runs: dict[tuple[str, int], harness.NormalRun] = {}


def flush_run(browser: harness.Browser, site: Site, width: int) -> harness.NormalRun:
    key = (browser.engine, width)
    if key not in _runs:
        _runs[key] = browser.measure_normal(site.url, width,
                                            screenshot=ARTIFACTS / f"flush-{browser.engine}-{width}.png")
    return _runs[key]


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_flush_columns_end_on_one_line(flush_site, normal_browser, width):
    run = flush_run(normal_browser, flush_site, width)
    geometry = run.after
    problems = harness.check_no_overlap(geometry) + harness.check_footer(geometry) + harness.check_images_loaded(run)
    board = geometry.raw["board"]
    band = max(i for i, minimum in enumerate(BAND_MIN_WIDTHS) if minimum <= board["w"])
    styles = normal_browser.run("return [...document.querySelectorAll('.wf-tile')]"
                                ".map(t => [t.getAttribute('data-tile'), t.getAttribute('style')])")
    reshaped = {index for index, style in styles if f"--h{band}:" in style}
    if band not in flush_bands(flush_site.index.read_text(encoding="utf-8")):
        assert not reshaped
        pytest.skip(f"band {band} was not levelled by the build (its page is the natural one)")

    columns: dict[float, list[dict]] = {}
    for tile in geometry.tiles:
        columns.setdefault(round(tile["box"]["x"], 1), []).append(tile)
    lasts = [max(tiles, key=lambda t: t["box"]["y"]) for tiles in columns.values()]
    bottoms = [t["box"]["y"] + t["box"]["h"] for t in lasts]
    if max(bottoms) - min(bottoms) > TOLERANCE:
        problems.append(f"column bottoms {[round(b, 2) for b in bottoms]} are not level")
    footer = geometry.raw["footer"]
    if abs(footer["y"] - (max(bottoms) + INSET)) > TOLERANCE:
        problems.append(f"footer at {footer['y']:.2f}, expected {INSET} px under the line {max(bottoms):.2f}")
    if not reshaped <= {t["index"] for t in lasts}:
        problems.append(f"tiles {sorted(reshaped - {t['index'] for t in lasts})} are reshaped but not last in a column")

    natural = harness.Geometry({**geometry.raw, "tiles": [t for t in geometry.tiles if t["index"] not in reshaped]})
    problems += harness.check_aspect_and_fill(natural, flush_site.photos)
    for tile in (t for t in geometry.tiles if t["index"] in reshaped):
        name = harness.match_photo(tile, flush_site.photos)
        pw, ph = flush_site.photos[name]
        box, img = tile["box"], tile["img"]["box"]
        shape = box["w"] * ph / pw
        crop = (shape - box["h"]) / shape if box["h"] < shape else 1 - shape / box["h"]
        if crop > MAX_CROP + 0.01:
            problems.append(f"tile {tile['index']} ({name}): {box['h']:.2f} px high for a {shape:.2f} px picture, "
                            f"a {crop:.1%} crop")
        if max(abs(img[k] - box[k]) for k in ("x", "y", "w", "h")) > 1:
            problems.append(f"tile {tile['index']} ({name}): img {harness.fmt(img)} does not fill {harness.fmt(box)}")
    fit = normal_browser.run("return [...new Set([...document.querySelectorAll('.wf-tile img')]"
                             ".map(i => getComputedStyle(i).objectFit))]")
    if fit != ["cover"]:
        problems.append(f"tile images have object-fit {fit}, expected cover (reshaped tiles crop their pictures)")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_engines_agree_on_the_flush_board(flush_site, browsers, width):
    measured = {}
    for engine in ENGINES:
        if engine in browsers.unavailable and engine not in REQUIRED:
            continue
        browser = browsers.get(engine, "normal")
        if browser is None:
            continue
        measured[engine] = flush_run(browser, flush_site, width).after.board_relative()
    if len(measured) < 2:
        pytest.skip(f"fewer than two engines could run here: {sorted(measured)}")
    problems = harness.check_engines_agree(measured, 0.25)
    assert not problems, "\n".join(problems)
