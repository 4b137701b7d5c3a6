"""Self-check of the harness: the hand-made sample page passes every check, and deliberately broken copies
of it fail the check meant to catch each fault, in every engine. If one of these tests fails, a check in harness.py has gone
blind (or the sample page has rotted), and a green test_gallery.py would prove nothing.

Runs on sample_page/ whatever WATERFALL_PAGE / WATERFALL_BIN say, and reuses the session's browsers.
"""
from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

import harness

SAMPLE_DIR = Path(__file__).resolve().parent / "sample_page"
SAMPLE_PAGE = SAMPLE_DIR / "index.html"
PHOTOS = harness.photos_from_inspect_json(json.loads((SAMPLE_DIR / "inspect.json").read_text(encoding="utf-8")))
WIDTH = 768


def broken_copy(tmp_path: Path, edit) -> Path:
    """A copy of the sample page whose index.html went through edit(text) -> text; returns index.html."""
    index = harness.copy_page(SAMPLE_DIR, tmp_path / "page")
    text = index.read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text, "the edit did not change the page"
    index.write_text(changed, encoding="utf-8")
    return index


def add_css(css):
    return lambda text: text.replace("</style>", css + "\n</style>")


def tile_tag(text, index):
    match = re.search(rf'<figure class="wf-tile" data-tile="{index}" style="([^"]*)">', text)
    assert match, f"no tile {index} in the sample page"
    return match


def measure(browser, index: Path | str, width=WIDTH, **options) -> harness.NormalRun:
    url = index if isinstance(index, str) else index.as_uri()
    return browser.measure_normal(url, width, **options)


# -- the sample page itself is fine ------------------------------------------------------------------------


@pytest.mark.parametrize("width", [360, 1440])
def test_sample_page_passes_every_check(normal_browser, blocked_browser, nojs_browser, width):
    url = SAMPLE_PAGE.as_uri()
    run = measure(normal_browser, url, width)
    blocked = blocked_browser.measure_geometry(url, width)
    nojs = nojs_browser.measure_geometry(url, width)
    problems = (harness.check_structure(run.after, PHOTOS) + harness.check_no_javascript(run.after)
                + harness.check_no_overlap(run.after) + harness.check_aspect_and_fill(run.after, PHOTOS)
                + harness.check_footer(run.after) + harness.check_no_horizontal_overflow(run.after)
                + harness.check_images_loaded(run) + harness.check_images_blocked(blocked)
                + harness.check_same_geometry(run.after, blocked, "images blocked")
                + harness.check_same_geometry(run.after, nojs, "JavaScript disabled")
                + harness.check_no_layout_shift(run))
    assert not problems, "\n".join(problems)
    # The comparisons are not vacuous: the sample page has lazy images, which loaded only on scrolling.
    assert any(t["img"]["loading"] == "lazy" for t in run.after.tiles)


# -- each broken copy fails its check ------------------------------------------------------------------------


def _overlap_tile_1_on_tile_0(text):
    style0 = tile_tag(text, 0).group(1)
    k1 = re.search(r"--k:[0-9.]+", tile_tag(text, 1).group(1)).group(0)
    return text.replace(tile_tag(text, 1).group(0),
                        f'<figure class="wf-tile" data-tile="1" style="{re.sub(r"--k:[0-9.]+", k1, style0)}">')


def test_overlapping_tiles_are_caught(normal_browser, tmp_path):
    run = measure(normal_browser, broken_copy(tmp_path, _overlap_tile_1_on_tile_0))
    problems = harness.check_no_overlap(run.after)
    assert problems and "tiles 0" in problems[0] and " and 1 " in problems[0], problems


def test_wrong_aspect_ratio_is_caught(normal_browser, tmp_path):
    def edit(text):
        tag = tile_tag(text, 2).group(0)
        return text.replace(tag, re.sub(r"--k:[0-9.]+", "--k:1.100000", tag))  # photo-3 is square
    problems = harness.check_aspect_and_fill(measure(normal_browser, broken_copy(tmp_path, edit)).after, PHOTOS)
    assert any("tile 2" in p and "height should be" in p for p in problems), problems


def test_image_not_filling_its_tile_is_caught(normal_browser, tmp_path):
    run = measure(normal_browser, broken_copy(tmp_path, add_css('[data-tile="4"] img{width:60%}')))
    problems = harness.check_aspect_and_fill(run.after, PHOTOS)
    assert any("tile 4" in p and "does not fill" in p for p in problems), problems


def test_footer_above_a_tile_is_caught(normal_browser, tmp_path):
    run = measure(normal_browser, broken_copy(tmp_path, add_css(".wf-footer{margin-top:40px !important}")))
    assert harness.check_footer(run.after)


def test_horizontal_overflow_is_caught(normal_browser, tmp_path):
    run = measure(normal_browser, broken_copy(tmp_path, add_css("header{width:calc(100vw + 40px)}")))
    assert harness.check_no_horizontal_overflow(run.after)


def test_missing_and_misnumbered_tiles_are_caught(normal_browser, tmp_path):
    def edit(text):
        text = re.sub(r'<figure class="wf-tile" data-tile="3".*?</figure>\n', "", text)
        return text.replace('data-tile="5"', 'data-tile="X"').replace('data-tile="6"', 'data-tile="5"') \
                   .replace('data-tile="X"', 'data-tile="6"')
    problems = harness.check_structure(measure(normal_browser, broken_copy(tmp_path, edit)).after, PHOTOS)
    text = "\n".join(problems)
    assert "7 [data-tile] elements for 8 readable photos" in text and "expected 0..6" in text \
        and "photo-4.png" in text, problems


def test_image_that_does_not_load_is_caught(normal_browser, tmp_path):
    index = broken_copy(tmp_path, lambda text: text.replace('src="photos/photo-5.png"', 'src="photos/gone.png"'))
    run = measure(normal_browser, index, image_timeout=1.0)
    problems = harness.check_images_loaded(run)
    assert problems and "gone.png" in problems[0], problems


def _unsized(text):
    """Images without width/height in tiles whose height comes from the image: the classic shifting page."""
    text = re.sub(r' width="\d+" height="\d+"', "", text)
    return add_css(".wf-tile{position:static !important;height:auto !important;padding-bottom:0 !important;"
                   "margin:10px !important;width:auto !important}"
                   ".wf-tile a,.wf-tile img{position:static !important;height:auto !important}"
                   ".wf-board{padding-bottom:0 !important;height:auto !important}"
                   ".wf-footer{position:static !important;margin:0 !important}")(text)


def test_layout_that_needs_images_is_caught(normal_browser, blocked_browser, tmp_path):
    index = broken_copy(tmp_path, _unsized)
    run = measure(normal_browser, index)
    blocked = blocked_browser.measure_geometry(index.as_uri(), WIDTH)
    assert not harness.check_images_blocked(blocked)
    assert harness.check_same_geometry(run.after, blocked, "images blocked")


def test_layout_that_needs_javascript_is_caught(normal_browser, nojs_browser, tmp_path):
    script = '<script>document.querySelector(\'[data-tile="0"]\').style.marginTop = "300px"</script>\n</body>'
    index = broken_copy(tmp_path, lambda text: text.replace("</body>", script))
    run = measure(normal_browser, index)
    nojs = nojs_browser.measure_geometry(index.as_uri(), WIDTH)
    assert any("tile 0" in p for p in harness.check_same_geometry(run.after, nojs, "JavaScript disabled"))
    assert harness.check_no_javascript(run.after)


class _SlowImages(http.server.SimpleHTTPRequestHandler):
    """Serves a folder on loopback, each image 0.4 s late: long enough for the page to be painted without it."""

    def do_GET(self):
        if self.path.lower().endswith((".png", ".jpg", ".jpeg")):
            time.sleep(0.4)
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def slow_server(tmp_path):
    """serve(folder) -> base URL; the server listens on 127.0.0.1 only and is shut down after the test."""
    servers = []

    def serve(folder: Path) -> str:
        handler = functools.partial(_SlowImages, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def test_layout_shift_is_caught(normal_browser, tmp_path, slow_server):
    # Over file:// the images arrive so fast that a shift may or may not be painted; late images make the
    # shift certain, so this check is proven to see one.
    index = broken_copy(tmp_path, _unsized)
    run = measure(normal_browser, slow_server(index.parent) + "index.html")
    # The motion recorder must see it in every engine; the Layout Instability API too where it exists.
    assert harness.check_motion(run.motion), run.motion
    if run.shifts is not None:
        assert harness.check_layout_shift_entries(run.shifts), run.shifts
    problems = harness.check_no_layout_shift(run)
    assert any(p.startswith("elements moved between frames") for p in problems), problems


def test_tiles_moving_when_lazy_images_arrive_are_caught(normal_browser, tmp_path, slow_server):
    # The same fault seen by the before/after comparison: lazy images far below the first screen have not
    # loaded when the load event fires, so the tiles under them move when they arrive.
    def edit(text):
        return _unsized(text).replace('loading="eager"', 'loading="lazy"') \
            .replace("<header>", '<header style="margin-bottom:4000px">')
    index = broken_copy(tmp_path, edit)
    run = measure(normal_browser, slow_server(index.parent) + "index.html")
    problems = harness.check_no_layout_shift(run)
    assert any("after images loaded" in p for p in problems), problems


def test_a_tile_one_pixel_off_between_engines_is_caught(normal_browser, tmp_path):
    # Two readings standing for two engines: the sample page and a copy with tile 2 one pixel lower.
    index = broken_copy(tmp_path, add_css('[data-tile="2"]{top:1px !important}'))
    good = measure(normal_browser, SAMPLE_PAGE.as_uri()).after.board_relative()
    off = measure(normal_browser, index).after.board_relative()
    assert not harness.check_engines_agree({"a": good, "b": good}, 0.25)
    problems = harness.check_engines_agree({"a": good, "b": off}, 0.25)
    assert len(problems) == 1 and problems[0].startswith("tile 2:"), problems


def test_motion_recorder_runs_in_the_normal_browser(normal_browser):
    # Without it, engines lacking the Layout Instability API would check layout shifts with nothing.
    run = measure(normal_browser, SAMPLE_PAGE.as_uri())
    assert run.motion is not None and run.motion["frames"] >= 2 and run.motion["elements"] > 0, run.motion
    assert harness.check_motion(None)


# -- the build path, with a stand-in for the waterfall binary ------------------------------------------------

FAKE_WATERFALL = r"""#!/usr/bin/env python3
import json, os, shutil, sys
sample, args = sys.argv[0] + ".sample", sys.argv[1:]
if args[0] == "build" and args[1].endswith("empty"):
    print("waterfall: no photos", file=sys.stderr)
    sys.exit(2)
elif args[0] == "build":
    assert args[2] == "-o" and args[4] == "--quiet", args
    shutil.copytree(sample, args[3], dirs_exist_ok=True)
elif args[:2] == ["inspect", "--json"]:
    sizes = {os.path.basename(e["path"]): e for e in json.load(open(os.path.join(sample, "inspect.json")))}
    out = []
    for path in args[2:]:
        entry = sizes.get(os.path.basename(path))
        out.append(dict(entry, path=path) if entry else {"path": path, "error": "not a JPEG or PNG file"})
    print(json.dumps(out))
    sys.exit(0 if all("error" not in e for e in out) else 1)
else:
    sys.exit(64)
"""


def test_build_and_inspect_path(tmp_path):
    """build_site and inspect_photos against a stand-in binary: arguments, exit 1 with error entries, names."""
    fake = tmp_path / "waterfall"
    fake.write_text(FAKE_WATERFALL)
    fake.chmod(0o755)
    (tmp_path / "waterfall.sample").symlink_to(SAMPLE_DIR)
    gallery = tmp_path / "gallery"
    shutil.copytree(SAMPLE_DIR / "photos", gallery)
    (gallery / "CREDITS").write_text("not a photo\n")
    (gallery / ".hidden.png").write_text("dot-files are skipped\n")
    (gallery / "sub").mkdir()  # sub-folders are not part of the gallery
    index = harness.build_site(fake, gallery, tmp_path / "out")
    assert index == tmp_path / "out" / "index.html" and index.is_file()
    photos = harness.inspect_photos(fake, harness.natural_top_level_files(gallery))
    assert photos == PHOTOS
    with pytest.raises(RuntimeError, match="exited 2:\nwaterfall: no photos"):
        harness.build_site(fake, tmp_path / "empty", tmp_path / "out2")
