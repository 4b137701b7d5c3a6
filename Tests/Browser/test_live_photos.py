"""Live Photos in every engine (Tests/WaterfallKitTests/Fixtures/live and live-hevc, built by the binary under
test): the board shows each pair as its still with a "Live" mark (and "Live Photo" for screen readers); the
photo page shows the still first, with its video hidden and not loaded; the Live button plays the video over
the still, with its sound, and an iPhone's HEVC clip plays as H.264; without JavaScript the button is a
plain link to the video.

Screenshots of the board and a Live Photo's page at a phone's and a desktop's size go to
Tests/Artifacts/browser/live-*.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import harness
from conftest import ARTIFACTS, REPO, _path_from_env

FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "live"
# Live Photos whose clips are HEVC, as iPhones record them: published as H.264, which every engine plays.
HEVC_FIXTURES = FIXTURES.parent / "live-hevc"
# The tiles with the mark: the pairs of the root album (by the tile's alt text).
LIVE = {"IMG 0001", "IMG 0003", "IMG 0005", "IMG 0006", "Still A"}
SIZES = [(390, 844), (1440, 900)]
# Fresh loads of a Live Photo's page without scripts, each checked for the still first.
LOADS = 8

TILES_JS = """
return Array.from(document.querySelectorAll('.wf-tile:not(.wf-album)')).map(t => {
  const r = t.getBoundingClientRect(), m = t.querySelector('.wf-live-mark');
  const b = m ? m.getBoundingClientRect() : null;
  return {alt: t.querySelector('img').getAttribute('alt'), src: t.querySelector('img').getAttribute('src'),
          mark: m ? {inside: b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom,
                     shown: b.width > 20 && b.height > 10 && getComputedStyle(m).visibility === 'visible',
                     spoken: m.querySelector('.wf-hidden').textContent} : null};
});
"""

# How the hidden clip rests: a fade declared there (`fade`) runs on load wherever the engine styled the video
# before the theme's sheet applied (Chromium did so about one load in eight: the clip faded out over the
# still from opacity 1), so none may be, and none may be running (`moving`).
STILL_STATE_JS = """
const STILL_STATE = video => ({fade: getComputedStyle(video).transitionDuration,
  moving: video.getAnimations().map(a => a.constructor.name + ' of ' + (a.transitionProperty || a.animationName))});
"""

PAGE_JS = STILL_STATE_JS + """
const holder = document.querySelector('.wf-live-photo'), img = holder.querySelector('img');
const video = holder.querySelector('video'), button = holder.querySelector('.wf-live-button');
const i = img.getBoundingClientRect(), v = video.getBoundingClientRect(), b = button.getBoundingClientRect();
return {img: [i.left, i.top, i.width, i.height], video: [v.left, v.top, v.width, v.height],
        // (In the still's corner; a 64-px still is narrower than the button.)
        button: b.width > 0 && b.left >= i.left && b.top >= i.top && b.left < i.right && b.top < i.bottom,
        opacity: getComputedStyle(video).opacity, paused: video.paused, ready: video.readyState,
        href: button.getAttribute('href'), playing: holder.classList.contains('wf-playing'),
        // (Where the pointer rests over the photo as the page loads, a device that hovers plays it at once.)
        hovered: holder.matches(':hover'), ...STILL_STATE(video)};
"""

# Clicks the Live button, then waits until a third of a second has played over the still (or 20 s pass).
PLAY_JS = """
const done = arguments[arguments.length - 1];
const holder = document.querySelector('.wf-live-photo'), video = holder.querySelector('video');
const started = performance.now();
const check = () => {
  const over = getComputedStyle(video).opacity === '1' && holder.classList.contains('wf-playing');
  if ((over && video.currentTime >= 0.3) || video.error || performance.now() - started > 20000)
    done({time: video.currentTime, over: over, error: video.error ? video.error.code : null,
          // (Time also runs on the sound alone, where the engine has no decoder for the picture.)
          size: [video.videoWidth, video.videoHeight], frames: video.getVideoPlaybackQuality().totalVideoFrames});
  else setTimeout(check, 50);
};
holder.querySelector('.wf-live-button').click();
check();
"""


@pytest.fixture(scope="session")
def live_site(tmp_path_factory) -> Path:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    return harness.build_site(binary, FIXTURES, tmp_path_factory.mktemp("live") / "site").parent


@pytest.fixture(scope="session")
def hevc_site(tmp_path_factory) -> Path:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    return harness.build_site(binary, HEVC_FIXTURES, tmp_path_factory.mktemp("live-hevc") / "site").parent


def shoot(browser, name: str):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"live-{name}-{browser.engine}.png").write_bytes(browser.driver.screenshot_png())


@pytest.mark.parametrize("width,height", SIZES, ids=lambda v: str(v))
def test_live_photo_tile_and_page(normal_browser, live_site, width, height):
    normal_browser.load((live_site / "index.html").as_uri(), width, height)
    tiles = normal_browser.run(TILES_JS)
    shoot(normal_browser, f"board-{width}")
    marked = {t["alt"] for t in tiles if t["mark"]}
    assert marked == LIVE, f"marked {sorted(marked)}"
    for tile in tiles:
        assert not tile["src"].endswith(".mp4"), tile
        if tile["mark"]:
            assert tile["mark"] == {"inside": True, "shown": True, "spoken": "Live Photo"}, tile

    # (A query of each size's own: no page as another test's script left it is restored from the cache.)
    normal_browser.load((live_site / "photos" / "IMG_0001.HEIC.html").as_uri() + f"?w={width}", width, height)
    first = normal_browser.run(PAGE_JS)
    shoot(normal_browser, f"page-{width}")
    # The still first: the video hidden over it, the same box, nothing of it loaded.
    if not first["hovered"]:
        assert first["opacity"] == "0" and first["paused"] and not first["playing"], first
        assert first["fade"] in ("0s", "0ms") and first["moving"] == [], first
    assert all(abs(a - b) < 1 for a, b in zip(first["img"], first["video"])), first
    assert first["button"] and first["href"].endswith("IMG_0001.HEIC.mp4"), first
    played = normal_browser.run_async(PLAY_JS)
    assert played["error"] is None and played["over"] and played["time"] >= 0.3, played
    if width == 390:
        shoot(normal_browser, f"playing-{width}")


def test_live_photo_without_javascript(nojs_browser, live_site):
    # Loads of their own (a query each: none restored from the cache), several, as the fault was a race.
    for load in range(LOADS):
        nojs_browser.load((live_site / "photos" / "IMG_0001.HEIC.html").as_uri() + f"?nojs={load}", 390, 844)
        state = nojs_browser.run(STILL_STATE_JS + """
            const a = document.querySelector('.wf-live-button'), v = document.querySelector('.wf-motion');
            return {href: a.href, shown: a.getBoundingClientRect().width > 0, hidden: getComputedStyle(v).opacity,
                    ...STILL_STATE(v)};""")
        assert state["href"].endswith("/images/video/IMG_0001.HEIC.mp4") and state["shown"], state
        assert state["hidden"] == "0" and state["fade"] in ("0s", "0ms") and state["moving"] == [], (load, state)


@pytest.mark.parametrize("page", ["IMG_0010.HEIC", "Still_C.JPG"])
def test_an_hevc_live_photo_plays(normal_browser, hevc_site, page):
    # (Paired by name, and by identifier across names.) The Live button plays the clip over the still, its
    # pictures decoded: Debian's Chromium has no HEVC decoder and played the copied clip's sound alone.
    normal_browser.load((hevc_site / "photos" / f"{page}.html").as_uri(), 390, 844)
    assert normal_browser.run("return document.querySelector('.wf-live-button').getAttribute('href')") \
        == f"../images/video/{page}.mp4"
    played = normal_browser.run_async(PLAY_JS)
    assert played["error"] is None and played["over"] and played["time"] >= 0.3, played
    assert played["size"] == [64, 48] and played["frames"] > 0, played


SOUND_JS = """
const done = arguments[arguments.length - 1];
const holder = document.querySelector('.wf-live-photo'), video = holder.querySelector('video');
const started = performance.now();
const check = () => {
  if (video.currentTime >= 0.3 || video.error || performance.now() - started > 20000)
    done({time: video.currentTime, muted: video.muted, volume: video.volume, paused: video.paused,
          playing: holder.classList.contains('wf-playing'), error: video.error ? video.error.code : null});
  else setTimeout(check, 50);
};
check();
"""


def test_the_live_button_plays_with_sound(normal_browser, hevc_site):
    # The visitor's click plays the clip with its sound (the clip has AAC). A script's click is no gesture
    # of the visitor's: the engines refuse it sound, and the page plays the clip muted instead.
    page = (hevc_site / "photos" / "IMG_0010.HEIC.html").as_uri()
    normal_browser.load(page + "?click", 390, 844)
    normal_browser.click(".wf-live-button")
    heard = normal_browser.run_async(SOUND_JS)
    assert heard["error"] is None and heard["playing"] and heard["time"] >= 0.3, heard
    assert not heard["muted"] and heard["volume"] == 1, heard
    normal_browser.load(page + "?script", 390, 844)
    normal_browser.run("document.querySelector('.wf-live-button').click()")
    muted = normal_browser.run_async(SOUND_JS)
    assert muted["error"] is None and muted["playing"] and muted["time"] >= 0.3 and muted["muted"], muted
