"""Photo pages fit the window (issue 12): in every engine, at phone, tablet, laptop and big-screen viewports,
every photo page shows its title, the whole view image and the previous / up / next links without any
vertical scrolling of the document. The image keeps its shape exactly, is never larger than its own pixels,
and takes the height the title, the links and the caption leave it.

Two sites are built once per session: SampleGallery (real photos with captions and EXIF facts, in nested
albums) and a generated folder of extreme shapes: 9:16 and 1:3 portraits, a 4:1 panorama, a 64×48 image
that must not be upscaled, and a photo with a very long title (which the neighbours' links repeat) and a
caption with EXIF facts. A third, one tall photo with a caption of many lines, and both sites in a phone
held sideways (844×390), are where the page may scroll: then only the caption goes below the fold, and the
image keeps at least half the window's height (or the size it has at the page's width or its own).

Each page is checked after its image has loaded; `test_photo_box_is_the_same_with_images_blocked` checks that
the same boxes are known before any image byte arrives. Screenshots of a tall photo, the panorama and the
long title go to Tests/Artifacts/browser/photo-ENGINE-NAME-WxH.png, and every page's measurements to
Tests/Artifacts/browser/photo-fit-ENGINE.json.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import harness
from conftest import ARTIFACTS, REPO, _path_from_env

# (width, height): phones, a tablet both ways, a laptop, a big screen.
VIEWPORTS = [(360, 800), (390, 844), (768, 1024), (1024, 768), (1440, 900), (2560, 1440)]
SIDEWAYS = (844, 390)  # a phone held sideways: too short for some captions
TOLERANCE = 1.0  # px: rounding of text and of the image's computed size

LONG_TITLE = ("An extraordinarily long photo title that goes on and on, to check that it wraps onto several "
              "lines instead of overflowing: Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch")

# The generated photos: file name -> (width, height). Sorted by name, so neighbours are known.
SHAPES = {
    "a-tall-9x16.jpg": (1080, 1920),
    "b-long-title.jpg": (1600, 1200),
    "c-very-tall-1x3.jpg": (700, 2100),
    "d-panorama-4x1.jpg": (3200, 800),
    "e-tiny-64x48.png": (64, 48),
    "f-square.jpg": (1200, 1200),
}

# Screenshots worth looking at: (page file name, viewport).
SCREENSHOTS = {("a-tall-9x16.jpg.html", (1440, 900)), ("a-tall-9x16.jpg.html", (390, 844)),
               ("d-panorama-4x1.jpg.html", (1440, 900)), ("d-panorama-4x1.jpg.html", (390, 844)),
               ("b-long-title.jpg.html", (360, 800)), ("retina-vessels-tall.jpg.html", (1440, 900))}

# Everything the checks need, read in one go with the document scrolled to the top. Rects are in viewport
# coordinates; the viewport is [0, clientWidth] × [0, innerHeight].
MEASURE_JS = r"""
window.scrollTo(0, 0);
const de = document.scrollingElement || document.documentElement;
function rect(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
}
// A video's page shows a <video> (its poster, then its frames) where a photo's shows the view image.
const img = document.querySelector('.wf-photo img, .wf-photo video');
const video = img && img.tagName === 'VIDEO';
const caption = document.querySelector('.wf-photo figcaption');
const crumbs = document.querySelector('.wf-breadcrumbs');
const nav = document.querySelector('.wf-photo-nav');
return {
  scrollHeight: de.scrollHeight, scrollWidth: de.scrollWidth, clientWidth: de.clientWidth,
  innerWidth: window.innerWidth, innerHeight: window.innerHeight,
  title: rect(document.querySelector('h1')),
  links: Array.from(document.querySelectorAll('.wf-photo-nav a')).map(a => ({
    text: a.textContent.trim(), rel: a.getAttribute('rel') || a.className, rect: rect(a)})),
  img: img ? {rect: rect(img), width: +img.getAttribute('width'), height: +img.getAttribute('height'),
              naturalWidth: video ? img.videoWidth : img.naturalWidth, naturalHeight: video ? img.videoHeight : img.naturalHeight,
              complete: video ? img.readyState >= 1 : img.complete, video: video,
              color: getComputedStyle(img).backgroundColor} : null,
  // What takes height besides the image: used to check that the image takes the rest.
  caption: rect(caption),
  others: [rect(crumbs), rect(document.querySelector('h1')), rect(nav), rect(caption)]
            .filter(r => r).map(r => r.height),
};
"""


# Resolves once the view image is decoded and two frames later, so a screenshot shows it (decoding="async").
PAINTED_JS = r"""
const done = arguments[arguments.length - 1];
const img = document.querySelector('.wf-photo img');
const after = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
(img && img.decode ? img.decode() : Promise.resolve()).then(after, after);
"""


def make_fixture(folder: Path) -> None:
    from PIL import Image
    folder.mkdir(parents=True)
    for index, (name, size) in enumerate(SHAPES.items()):
        # A gradient, so the mean colour and the image are easy to tell apart in a screenshot.
        image = Image.linear_gradient("L").resize(size).convert("RGB")
        tint = Image.new("RGB", size, [(200, 90, 60), (60, 120, 200), (80, 160, 90), (180, 150, 60),
                                       (140, 80, 170), (60, 160, 170)][index])
        image = Image.blend(image, tint, 0.6)
        exif = None
        if name.startswith("b-"):
            exif = Image.Exif()
            exif[0x010F], exif[0x0110] = "Waterfall", "Test Camera"
            details = exif.get_ifd(0x8769)
            details[0x829A], details[0x829D], details[0x8827] = (1, 250), (28, 10), 200
            details[0x9003] = "2024:05:17 18:42:07"
            details[0x920A] = (35, 1)
        image.save(folder / name, **({"exif": exif} if exif is not None else {}))
    (folder / "b-long-title.txt").write_text(
        LONG_TITLE + "\nA caption under the photo: it may take a few lines on a phone, and the photo takes the height "
        "that is left.\n", encoding="utf-8")
    (folder / "waterfall.json").write_text(json.dumps({"title": "Fit fixture"}), encoding="utf-8")


def make_long_caption_fixture(folder: Path) -> None:
    from PIL import Image
    folder.mkdir(parents=True)
    Image.linear_gradient("L").resize((900, 1600)).convert("RGB").save(folder / "told-at-length.jpg")
    lines = [f"Line {n} of a caption far longer than a window: it must go below the fold, never push the "
             f"title, the links or the photo out of the window, and never squeeze the photo away." for n in range(1, 31)]
    (folder / "told-at-length.txt").write_text("Told at length\n" + "\n".join(lines) + "\n", encoding="utf-8")


def source_of(page: Path, site_root: Path, gallery: Path) -> Path | None:
    """The photo a page shows: ALBUM/photos/NAME.html shows gallery/ALBUM/NAME (when it is there)."""
    relative = page.relative_to(site_root)
    candidate = gallery.joinpath(*relative.parts[:-2], relative.name.removesuffix(".html"))
    return candidate if candidate.is_file() else None


class PhotoSite:
    def __init__(self, name: str, gallery: Path, root: Path, binary: Path):
        self.name, self.gallery, self.root = name, gallery, root
        self.pages = sorted(root.rglob("photos/*.html"))
        sources = {page: source_of(page, root, gallery) for page in self.pages}
        self.sizes = {}  # page -> the original photo's display size (width, height)
        for page, source in sources.items():
            if source is not None:
                self.sizes[page] = harness.inspect_photos(binary, [source])[source.name]


def build(name: str, gallery: Path, work: Path) -> PhotoSite:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    if not binary.is_file():
        pytest.fail(f"no waterfall binary at {binary}: build it first (swift build) or set WATERFALL_BIN")
    index = harness.build_site(binary, gallery, work / "site")
    return PhotoSite(name, gallery, index.parent, binary)


@pytest.fixture(scope="session")
def photo_sites(tmp_path_factory) -> dict[str, PhotoSite]:
    work = tmp_path_factory.mktemp("photo-fit")
    make_fixture(work / "shapes")
    make_long_caption_fixture(work / "long-caption")
    sites = {"shapes": build("shapes", work / "shapes", work / "shapes-out"),
             "sample": build("sample", REPO / "SampleGallery", work / "sample-out"),
             "long-caption": build("long-caption", work / "long-caption", work / "long-caption-out")}
    assert len(sites["shapes"].pages) == len(SHAPES), sites["shapes"].pages
    assert len(sites["long-caption"].pages) == 1, sites["long-caption"].pages
    assert len(sites["sample"].pages) >= 20, sites["sample"].pages
    return sites


def inside(r: dict, width: float, height: float) -> bool:
    return (r["left"] >= -TOLERANCE and r["top"] >= -TOLERANCE and r["right"] <= width + TOLERANCE
            and r["bottom"] <= height + TOLERANCE and r["width"] > 0 and r["height"] > 0)


def fmt(r: dict | None) -> str:
    return "(none)" if r is None else f"[{r['left']:.1f}, {r['top']:.1f} – {r['right']:.1f}, {r['bottom']:.1f}]"


def same_shape(natural, attributes):
    """Natural sizes are whole CSS pixels of an image whose own height was rounded: two pixels of slack."""
    (nw, nh), (w, h) = natural, attributes
    return abs(nh - nw * h / w) <= 2 or abs(nw - nh * w / h) <= 2


def check_fit(m: dict, original: tuple[int, int] | None, *, caption_may_overflow: bool = False,
              see_through: bool = False) -> list[str]:
    """The problems of one page's measurement (empty: it fits). With caption_may_overflow, the document may
    scroll, but only because of the caption, and the image must keep at least half the window's height
    (unless it is smaller at the page's width or at its own size)."""
    problems = []
    width, height = m["clientWidth"], m["innerHeight"]
    overflow = m["scrollHeight"] - height
    if overflow > TOLERANCE:
        caption = m["caption"]
        if not caption_may_overflow:
            problems.append(f"the document scrolls vertically by {overflow} px (scrollHeight {m['scrollHeight']}, "
                            f"innerHeight {height})")
        elif caption is None or caption["bottom"] <= height + TOLERANCE:  # what sticks out is not the caption
            problems.append(f"the document scrolls vertically by {overflow} px, and not because of the caption "
                            f"{fmt(caption)}")
    if m["scrollWidth"] > width:
        problems.append(f"the document scrolls horizontally: scrollWidth {m['scrollWidth']} > clientWidth {width}")
    if m["title"] is None or not inside(m["title"], width, height):
        problems.append(f"the title {fmt(m['title'])} is not inside the {width}×{height} viewport")
    if not any(link["rel"] == "wf-back" for link in m["links"]):
        problems.append(f"no up link among the photo links {[link['text'] for link in m['links']]}")
    for link in m["links"]:
        if not inside(link["rect"], width, height):
            problems.append(f"the link {link['text']!r} {fmt(link['rect'])} is not inside the {width}×{height} viewport")
    img = m["img"]
    if img is None:
        return problems + ["no .wf-photo img"]
    box = img["rect"]
    if not inside(box, width, height):
        problems.append(f"the image {fmt(box)} is not inside the {width}×{height} viewport")
    if not img["complete"] or img["naturalWidth"] == 0:
        problems.append("the image did not load")
    elif not same_shape((img["naturalWidth"], img["naturalHeight"]), (img["width"], img["height"])):
        # With a srcset the natural size is the chosen image's pixels over its density: compare shapes.
        problems.append(f"the {'video' if img['video'] else 'image'} is {img['naturalWidth']}×"
                        f"{img['naturalHeight']} px, not the shape of its attributes' {img['width']}×{img['height']}")
    shapes = [("its width and height attributes", (img["width"], img["height"]))]
    if original is not None:
        shapes.append(("the original photo", original))
    for what, (pw, ph) in shapes:
        expected = box["width"] * ph / pw
        if abs(box["height"] - expected) > TOLERANCE:
            problems.append(f"the image box {box['width']:.2f}×{box['height']:.2f} does not have the shape of "
                            f"{what} {pw}×{ph} (height should be {expected:.2f})")
    natural = (img["width"], img["height"])
    if box["width"] > natural[0] + 0.01 or box["height"] > natural[1] + 0.01:
        problems.append(f"the image is shown at {box['width']:.2f}×{box['height']:.2f}, larger than its "
                        f"{natural[0]}×{natural[1]} pixels")
    # As large as fits: at its own size, as wide as the page, or as tall as the height the rest leaves.
    at_natural = box["width"] >= natural[0] - TOLERANCE
    full_width = box["width"] >= width - 48
    free = height - box["height"] - sum(m["others"])
    if not (at_natural or full_width) and free > 120:
        problems.append(f"the image {box['width']:.1f}×{box['height']:.1f} leaves {free:.0f} px of the viewport's "
                        f"height unused (it is neither at its own size nor as wide as the page)")
    if not (at_natural or full_width) and box["height"] < height / 2 - TOLERANCE:
        problems.append(f"the image {box['width']:.1f}×{box['height']:.1f} is squeezed to less than half the "
                        f"window's height")
    # A see-through image (SampleGallery's cut-out) has none: its colour would show through it once loaded.
    if (img["color"] in ("", "transparent", "rgba(0, 0, 0, 0)")) != see_through:
        problems.append(f"the image has {'a' if see_through else 'no'} placeholder background colour ({img['color']})")
    return problems


def measure_page(browser: harness.Browser, page: Path, viewport: tuple[int, int]) -> dict:
    width, height = viewport
    try:
        browser.load(page.as_uri(), width, height)
    except RuntimeError:
        # The page's vertical scroll bar comes and goes as the width changes by its own width (Chromium's
        # is 15 px): a page that scrolls. Measure it in the plain viewport; the checks say what is wrong.
        browser.driver.set_viewport(width, height)
        browser.navigate(page.as_uri())
    browser.wait_for_image(".wf-photo img, .wf-photo video")
    return browser.run(MEASURE_JS)


# The shapes made for this test at every size; SampleGallery's 25 pages at a phone's and a desktop's.
FIT_CASES = [("shapes", v) for v in VIEWPORTS] + [("sample", (390, 844)), ("sample", (1440, 900))]


@pytest.mark.parametrize("case", FIT_CASES, ids=lambda c: f"{c[0]}-{c[1][0]}x{c[1][1]}")
def test_photo_pages_fit_the_viewport(photo_sites, normal_browser, case):
    which, viewport = case
    site = photo_sites[which]
    browser = normal_browser
    problems, report = [], {}
    for page in site.pages:
        m = measure_page(browser, page, viewport)
        name = str(page.relative_to(site.root))
        report[name] = {"overflow": m["scrollHeight"] - m["innerHeight"], "img": m["img"] and m["img"]["rect"],
                        "title": m["title"], "links": m["links"]}
        problems += [f"{name}: {p}" for p in check_fit(m, site.sizes.get(page), see_through="cutout" in page.name)]
        if (page.name, viewport) in SCREENSHOTS:
            path = ARTIFACTS / f"photo-{browser.engine}-{page.name.removesuffix('.html')}-{viewport[0]}x{viewport[1]}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            browser.run_async(PAINTED_JS)
            path.write_bytes(browser.driver.screenshot_png())
    _record(browser.engine, which, viewport, report)
    assert not problems, f"{browser.engine} at {viewport[0]}×{viewport[1]}:\n" + "\n".join(problems)


@pytest.mark.parametrize("case", [("long-caption", v) for v in VIEWPORTS] + [("shapes", SIDEWAYS), ("sample", SIDEWAYS)],
                         ids=lambda c: f"{c[0]}-{c[1][0]}x{c[1][1]}")
def test_only_the_caption_goes_below_the_fold(photo_sites, normal_browser, case):
    """Where the window is too short for everything (a caption of many lines, a phone held sideways), the
    title, the links and the whole image stay in the window, the image keeps at least half its height (or
    its size at the page's width or its own), and only the caption goes below the fold."""
    which, viewport = case
    site = photo_sites[which]
    problems = []
    for page in site.pages:
        m = measure_page(normal_browser, page, viewport)
        problems += [f"{page.relative_to(site.root)}: {p}"
                     for p in check_fit(m, site.sizes.get(page), caption_may_overflow=True,
                                        see_through="cutout" in page.name)]
    assert not problems, f"{normal_browser.engine} at {viewport[0]}×{viewport[1]}:\n" + "\n".join(problems)


def _record(engine: str, which: str, viewport: tuple[int, int], report: dict) -> None:
    path = ARTIFACTS / f"photo-fit-{engine}.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    data.setdefault(which, {})[f"{viewport[0]}x{viewport[1]}"] = report
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


@pytest.mark.parametrize("viewport", [(390, 844), (1440, 900)], ids=lambda v: f"{v[0]}x{v[1]}")
def test_photo_box_is_the_same_with_images_blocked(photo_sites, normal_browser, blocked_browser, viewport):
    """The fitted box is known before the image arrives: with images blocked, the image, the title and the
    links are where they are once it has loaded."""
    site = photo_sites["shapes"]
    problems = []
    for page in site.pages:
        loaded = measure_page(normal_browser, page, viewport)
        blocked_browser.load(page.as_uri(), *viewport)
        blocked = blocked_browser.run(MEASURE_JS)
        if blocked["img"]["naturalWidth"]:
            problems.append(f"{page.name}: the image loaded although images are blocked")
        for what, a, b in [("image", loaded["img"]["rect"], blocked["img"]["rect"]),
                           ("title", loaded["title"], blocked["title"])] + [
                ("link " + la["text"], la["rect"], lb["rect"]) for la, lb in zip(loaded["links"], blocked["links"])]:
            if any(abs(a[k] - b[k]) > 0.5 for k in ("left", "top", "width", "height")):
                problems.append(f"{page.name}: the {what} is at {fmt(b)} with images blocked, {fmt(a)} once loaded")
    assert not problems, "\n".join(problems)
