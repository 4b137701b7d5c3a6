"""A gallery that mixes every image format Waterfall reads, in every engine: each tile has its photo's
display shape (inspect's size, after EXIF orientation or HEIF irot/clap), every image loads and nothing
shifts. The formats come from the fixture folders, so WebP and GIF join when formats/webp and formats/gif
land (their expected.json lists the files)."""
from __future__ import annotations

import shutil

import pytest

import harness
from conftest import ARTIFACTS, REPO, Site, _path_from_env

FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures"
PER_FORMAT = 4
WIDTHS = [360, 1440]  # one column-count change apart; test_gallery.py covers the widths in depth
STILL_FORMATS = [  # (format, fixture files): the plain ones from the gallery, rotated JPEGs from conformance
    ("jpeg", ["gallery/coffee-cup.jpg", "gallery/hubble-tall.jpg", "gallery/rocket-panorama.jpg",
              "conformance/exif-orientation/Landscape_6.jpg", "conformance/exif-orientation/Portrait_5.jpg"]),
    ("png", ["gallery/cameraman-skyline.png", "gallery/hubble-galaxy-10.png"]),
]


def format_fixtures() -> dict[str, list]:
    """format -> fixture files: the lists above, and up to PER_FORMAT readable files of every format in
    formats/*/expected.json, portrait ones first (there the display size is most often not the stored one)."""
    chosen = {name: [FIXTURES / f for f in files] for name, files in STILL_FORMATS}
    for listing in sorted(FIXTURES.glob("formats/*/expected.json")):
        entries = [e for e in harness.fixture_listing(listing) if e["decodable"] and e["light"]]
        entries.sort(key=lambda e: (e["width"] >= e["height"], e["file"]))
        for entry in entries:
            files = chosen.setdefault(entry["format"], [])
            if len(files) < PER_FORMAT:
                files.append(listing.parent / entry["file"])
    return chosen


FORMATS = format_fixtures()


@pytest.fixture(scope="session")
def mixed_site(tmp_path_factory) -> Site:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    photos = tmp_path_factory.mktemp("mixed") / "photos"
    photos.mkdir()
    for name, files in FORMATS.items():
        for file in files:
            shutil.copyfile(file, photos / f"{name}-{file.name}")
    index = harness.build_site(binary, photos, photos.parent / "site")
    return Site(index, harness.inspect_photos(binary, harness.natural_top_level_files(photos)))


def test_every_format_is_in_the_gallery(mixed_site):
    readable = {name.split("-", 1)[0] for name in mixed_site.photos}
    assert readable == set(FORMATS), f"formats with fixtures: {sorted(FORMATS)}; read by inspect: {sorted(readable)}"


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_mixed_gallery_tiles_have_display_shapes_and_do_not_shift(mixed_site, normal_browser, width):
    run = normal_browser.measure_normal(mixed_site.url, width,
                                        screenshot=ARTIFACTS / f"mixed-{normal_browser.engine}-{width}.png")
    problems = (harness.check_structure(run.after, mixed_site.photos) + harness.check_no_overlap(run.after)
                + harness.check_aspect_and_fill(run.after, mixed_site.photos) + harness.check_images_loaded(run)
                + harness.check_no_layout_shift(run))
    assert not problems, "\n".join(problems)
