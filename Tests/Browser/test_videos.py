"""Videos in the gallery, in every engine: the tile is the video's display size (a phone's portrait video
turned by its display matrix included), and on the photo page the <video> has its final box before
anything arrives, keeps it when the poster, the metadata and the frames arrive, and plays, where the
engine has a decoder for the codec (canPlayType says: all three play H.264 and VP9 here, WebKitGTK
through GStreamer's libav plugins; Firefox and WebKitGTK play HEVC through FFmpeg's decoder, Debian's
Chromium does not).

The videos are made by FFmpeg's test sources; the site is built by the binary under test.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import harness
from conftest import REPO, _path_from_env

# file: (how ffmpeg makes it, the display size, the MIME type the page gives)
VIDEOS = {
    "portrait.mp4": (["-c:v", "libx264", "-c:a", "aac"], (240, 320), 'video/mp4; codecs="avc1.64000d, mp4a.40.2"'),
    "landscape.mp4": (["-c:v", "libx264"], (320, 240), 'video/mp4; codecs="avc1.64000d"'),
    "web.webm": (["-c:v", "libvpx-vp9", "-c:a", "libopus"], (320, 240), 'video/webm; codecs="vp9, opus"'),
    # As iPhones record by default: published as it is, played where the system has an HEVC decoder.
    "iphone-hevc.mp4": (["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-c:a", "aac"], (320, 240),
                        'video/mp4; codecs="hvc1.1.6.L60.90, mp4a.40.2"'),
    # The sample gallery's own: a portrait pan as a phone stores it (copied, not made).
    "hubble-pan.mp4": (None, (360, 640), 'video/mp4; codecs="avc1.64001e"'),
}
SAMPLE_VIDEO = REPO / "SampleGallery" / "Phone" / "hubble-pan.mp4"

# The <video>'s box, what it has loaded, and its picture's size once known.
STATE_JS = """
const v = document.querySelector('video');
const r = v.getBoundingClientRect();
return {box: [r.left + scrollX, r.top + scrollY, r.width, r.height], ready: v.readyState, time: v.currentTime,
        natural: [v.videoWidth, v.videoHeight], error: v.error ? v.error.code : null, poster: v.getAttribute('poster')};
"""

# Plays it muted (as browsers allow without a gesture) until half a second has played, or 20 s pass.
PLAY_JS = """
const done = arguments[arguments.length - 1];
const v = document.querySelector('video');
v.muted = true;
const started = performance.now();
const check = () => {
  if (v.currentTime >= 0.5 || v.error || performance.now() - started > 20000) done(v.currentTime);
  else setTimeout(check, 50);
};
const playing = v.play();
if (playing) playing.catch(() => {});
check();
"""

CAN_PLAY_JS = "return document.createElement('video').canPlayType(arguments[0]);"


def make_videos(folder: Path):
    folder.mkdir(parents=True, exist_ok=True)
    for name, (codec, _, _) in VIDEOS.items():
        if codec is None:
            shutil.copy(SAMPLE_VIDEO, folder / name)
            continue
        sound = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3"] if "-c:a" in codec else []
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin", "-f", "lavfi", "-i",
                        "testsrc2=size=320x240:rate=25:duration=3", *sound, *codec, "-pix_fmt", "yuv420p",
                        str(folder / name)], check=True)
    subprocess.run(["python3", str(REPO / "Tests" / "Tools" / "mp4box.py"), "rotate", str(folder / "portrait.mp4"), "90"],
                   check=True)


@pytest.fixture(scope="session")
def video_site(tmp_path_factory) -> Path:
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    work = tmp_path_factory.mktemp("videos")
    make_videos(work / "videos")
    return harness.build_site(binary, work / "videos", work / "site").parent


def test_video_tiles_have_the_display_size(normal_browser, video_site):
    normal_browser.load((video_site / "index.html").as_uri(), 1024, 768)
    tiles = normal_browser.run("""
        return Array.from(document.querySelectorAll('[data-tile]')).map(t => {
          const r = t.getBoundingClientRect(), m = t.querySelector('.wf-video-mark');
          const mark = m ? m.getBoundingClientRect() : null;
          return [t.querySelector('img').getAttribute('alt'), r.width / r.height, !!m,
                  mark ? [mark.left >= r.left - 0.5, mark.right <= r.right + 0.5, mark.top >= r.top - 0.5, mark.bottom <= r.bottom + 0.5] : null,
                  t.querySelector('.wf-duration') ? t.querySelector('.wf-duration').textContent : null];
        });""")
    assert len(tiles) == len(VIDEOS)
    for alt, ratio, marked, inside, duration in tiles:
        name = next(n for n in VIDEOS if n.split('.')[0].replace('-', ' ') == alt)
        width, height = VIDEOS[name][1]
        assert abs(ratio - width / height) < 0.02, f"{name}: tile ratio {ratio:.3f}, display {width}x{height}"
        expected = "0:06" if name == "hubble-pan.mp4" else "0:03"
        assert marked and inside == [True] * 4 and duration == expected, f"{name}: {marked} {inside} {duration}"


@pytest.mark.parametrize("name", list(VIDEOS))
def test_video_page_keeps_its_box_and_plays(normal_browser, video_site, name):
    page = video_site / "photos" / f"{name}.html"
    normal_browser.load(page.as_uri(), 390, 844)
    first = normal_browser.run(STATE_JS)
    width, height = VIDEOS[name][1]
    box = first["box"]
    assert abs(box[2] / box[3] - width / height) < 0.01, f"{name}: box {box}, display {width}x{height}"
    assert first["poster"], "no poster"
    playable = normal_browser.run(CAN_PLAY_JS, VIDEOS[name][2])
    if not playable:
        pytest.skip(f"{normal_browser.engine} cannot play {VIDEOS[name][2]} here (canPlayType is empty)")
    played = normal_browser.run_async(PLAY_JS)
    after = normal_browser.run(STATE_JS)
    assert after["error"] is None, f"{name}: media error {after['error']}"
    assert played >= 0.5, f"{name}: played {played} s of it in 20 s"
    # The picture the engine decoded is the display size (the matrix applied), and nothing moved.
    assert after["natural"][0] * height == after["natural"][1] * width, f"{name}: video {after['natural']}"
    assert all(abs(a - b) < 0.01 for a, b in zip(first["box"], after["box"])), f"{name}: {first['box']} -> {after['box']}"
