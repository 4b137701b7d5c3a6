"""The original image files in each engine: the size a browser shows (naturalWidth × naturalHeight, which
honours EXIF orientation and HEIF's irot/imir/clap) must be the display size `waterfall inspect` reports,
since tiles are shaped from inspect's numbers.

Files: every entry of Tests/WaterfallKitTests/Fixtures/formats/*/expected.json with a width and height and
no `error` (new format folders join by themselves), and the EXIF orientation examples. An engine that
cannot show a file (it fires `error`, e.g. HEIC outside Safari) is skipped for that file with the reason;
which engines show which formats is written to Tests/Artifacts/browser/natural-sizes.json.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import harness
from conftest import ARTIFACTS, REPO, _path_from_env

FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures"

# Resolves with every image's state once each has loaded or failed.
NATURAL_SIZES_JS = r"""
const done = arguments[arguments.length - 1];
const settled = Array.from(document.images).map(img => new Promise(resolve => {
  if (img.complete) resolve(); else { img.onload = resolve; img.onerror = resolve; }
}));
Promise.all(settled).then(() => done(Array.from(document.images).map(img => ({
  id: img.id, loaded: img.complete && img.naturalWidth > 0, width: img.naturalWidth, height: img.naturalHeight}))));
"""


@dataclass(frozen=True)
class Case:
    path: Path
    format: str
    expected: tuple[int, int] | None  # from expected.json; None for the EXIF examples
    decode_error: bool = False         # expected.json says the pixels cannot be decoded

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


def cases() -> list[Case]:
    found = []
    for listing in sorted(FIXTURES.glob("formats/*/expected.json")):
        for entry in harness.fixture_listing(listing):
            if entry["readable"]:
                found.append(Case(listing.parent / entry["file"], entry["format"], (entry["width"], entry["height"]),
                                  not entry["decodable"]))
    for jpeg in sorted(FIXTURES.glob("conformance/exif-orientation/*.jpg")):
        found.append(Case(jpeg, "jpeg", None))
    return found


CASES = cases()

# Engines that show a file at a size other than its display size, checked to be exactly this wrong size:
# (engine, case id) -> (the size the engine shows, why). If the engine is fixed (it shows inspect's size),
# the test fails and asks for the entry to go; if it shows yet another size, the test fails as usual.
KNOWN_ENGINE_ERRORS = {
    ("webkit", "heif/irot-90.avif"): ((256, 96), "WebKitGTK 2.50 ignores the AVIF's irot (90° rotation) box and "
                                      "shows the stored 256×96; Chromium and Firefox show the display size 96×256, "
                                      "as inspect does. Galleries are not affected: AVIF photos are served as JPEG"),
    ("webkit", "heif/irot-90-imir-1.avif"): ((256, 96), "WebKitGTK 2.50 ignores irot here too (imir does not change the "
                                             "size): the stored 256×96, where Chromium and Firefox show 96×256"),
    ("webkit", "heif/clap-irot-270.avif"): ((256, 96), "WebKitGTK 2.50 ignores both the clean aperture (clap) and irot: "
                                            "the stored 256×96; Firefox shows the 80×200 that inspect, libheif and "
                                            "pillow-heif give"),
    ("chromium", "heif/clap-irot-270.avif"): ((96, 256), "Chromium turns the AVIF by irot but ignores its clean "
                                              "aperture (clap): 96×256 instead of the 80×200 that Firefox, "
                                              "inspect, libheif and pillow-heif give. Galleries are not affected: "
                                              "AVIF photos are served as JPEG, cropped and turned"),
}


@pytest.fixture(scope="session")
def inspected(tmp_path_factory) -> dict[Path, dict]:
    """`waterfall inspect --json` on every case's file: path -> its entry."""
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    import subprocess
    result = subprocess.run([str(binary), "inspect", "--json", *(str(c.path) for c in CASES)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    return {Path(entry["path"]).resolve(): entry for entry in json.loads(result.stdout)}


@pytest.fixture(scope="session")
def natural_page(tmp_path_factory) -> str:
    """One page with every case's file (copied beside it, so no engine refuses a cross-folder file:// load)."""
    folder = tmp_path_factory.mktemp("natural")
    images = []
    for number, case in enumerate(CASES):
        name = f"{number:03d}-{case.path.parent.name}-{case.path.name}"
        shutil.copyfile(case.path, folder / name)
        # hidden: loaded (so naturalWidth is known) but never painted, so no big animation is decoded
        images.append(f'<img id="i{number}" src="{name}" alt="" hidden>')
    (folder / "index.html").write_text("<!doctype html><meta charset=utf-8><title>natural sizes</title>\n"
                                       + "\n".join(images), encoding="utf-8")
    return (folder / "index.html").as_uri()


class Shown:
    """What each engine showed, read once per engine; also written out as the artifact summary."""
    by_engine: dict[str, dict] = {}

    @classmethod
    def read(cls, browser, url: str) -> dict:
        if browser.engine not in cls.by_engine:
            browser.load(url, 1024, 768)
            states = browser.run_async(NATURAL_SIZES_JS)
            cls.by_engine[browser.engine] = {case.id: state for case, state in zip(CASES, states)}
            cls.write_summary(browser)
        return cls.by_engine[browser.engine]

    @classmethod
    def write_summary(cls, browser):
        path = ARTIFACTS / "natural-sizes.json"
        summary = json.loads(path.read_text()) if path.is_file() else {}
        summary[browser.engine] = {"version": browser.driver.version, "images": {
            case_id: ([state["width"], state["height"]] if state["loaded"] else "not shown")
            for case_id, state in cls.by_engine[browser.engine].items()}}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary, indent=1) + "\n")


def test_inspect_matches_expected_json(inspected):
    """The expected sizes this file trusts are inspect's own (the unit tests check them in depth)."""
    wrong = [f"{c.id}: inspect {inspected[c.path.resolve()]}, expected.json {c.expected}" for c in CASES
             if c.expected and (inspected[c.path.resolve()].get("width"), inspected[c.path.resolve()].get("height"))
             != c.expected]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_browser_shows_the_size_inspect_reports(normal_browser, natural_page, inspected, case):
    shown = Shown.read(normal_browser, natural_page)[case.id]
    entry = inspected[case.path.resolve()]
    assert "error" not in entry, f"inspect could not read {case.id}: {entry['error']}"
    if not shown["loaded"]:
        pytest.skip(f"{case.id} not shown by {normal_browser.engine} {normal_browser.driver.version}: "
                    + why_not_shown(case, Shown.by_engine[normal_browser.engine]))
    verdict, message = compare(normal_browser.engine, case.id, (shown["width"], shown["height"]),
                               (entry["width"], entry["height"]), KNOWN_ENGINE_ERRORS)
    if verdict == "known":
        pytest.xfail(f"{normal_browser.engine} {normal_browser.driver.version}: {message}")
    assert verdict == "same", message


def compare(engine: str, case_id: str, size: tuple, inspect_size: tuple, known_errors: dict) -> tuple[str, str]:
    """("same", ""), ("known", why) for a listed engine error seen exactly, or ("differ", the problem)."""
    known = known_errors.get((engine, case_id))
    if size == inspect_size:
        if known:
            return "differ", f"{engine} now shows {case_id} at inspect's size {size}: remove its KNOWN_ENGINE_ERRORS entry"
        return "same", ""
    if known and size == known[0]:
        return "known", f"shows {size[0]}×{size[1]}: {known[1]}"
    return "differ", f"{engine} shows {case_id} as {size[0]}×{size[1]}, inspect says {inspect_size[0]}×{inspect_size[1]}"


def test_a_size_inspect_gets_wrong_is_caught(normal_browser, tmp_path):
    # A real reading of a 4×3 PNG in this engine, against right, wrong and stale expectations.
    (tmp_path / "four-by-three.png").write_bytes(harness.tiny_png(4, 3))
    (tmp_path / "index.html").write_text('<!doctype html><img src="four-by-three.png" hidden>', encoding="utf-8")
    normal_browser.load((tmp_path / "index.html").as_uri(), 800, 600)
    (state,) = normal_browser.run_async(NATURAL_SIZES_JS)
    size = (state["width"], state["height"])
    assert compare("e", "x", size, (4, 3), {}) == ("same", "")
    assert compare("e", "x", size, (3, 4), {})[0] == "differ"
    assert compare("e", "x", size, (3, 4), {("e", "x"): ((4, 3), "why")}) == ("known", "shows 4×3: why")
    assert compare("e", "x", size, (3, 4), {("e", "x"): ((5, 5), "why")})[0] == "differ"
    assert compare("e", "x", size, (4, 3), {("e", "x"): ((5, 5), "why")})[0] == "differ"


def why_not_shown(case: Case, shown: dict) -> str:
    if case.decode_error:
        return "its pixels are corrupt (expected.json: decodeError or derive)"
    others = [c.id for c in CASES if c.format == case.format and shown[c.id]["loaded"]]
    if not others:
        return f"the engine decodes no {case.format} file"
    return f"the engine shows other {case.format} files ({len(others)}) but not this one"
