#!/usr/bin/env python3
"""Makes SampleGallery/Phone/hubble-pan.mp4: a six-second pan across the Hubble Deep Field sample photo,
recorded as a phone records a portrait video (the frames stored landscape, 640x360, with a display matrix
that turns them a quarter clockwise, so players show 360x640 upright). H.264 in MP4, no sound.

The output is committed; rerun this only to re-record on purpose. Deterministic for a given FFmpeg and
x264 (one thread, bit-exact muxing); recorded with Debian 12's FFmpeg 5.1 and x264 164:

    python3 Tests/Tools/make_sample_video.py        # writes SampleGallery/Phone/hubble-pan.mp4
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(REPO, "SampleGallery", "Space", "Hubble", "hubble-deep-field.jpg")
OUT = os.path.join(REPO, "SampleGallery", "Phone", "hubble-pan.mp4")

SECONDS, RATE = 6, 25


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    # A 360x640 window moving right across the 1000x872 photo (and a little down), then turned a quarter
    # anticlockwise for storage, as a phone held upright stores it.
    crop = f"crop=360:640:'(iw-360)*t/{SECONDS}':'(ih-640)*t/{SECONDS}'"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin",
                    "-loop", "1", "-framerate", str(RATE), "-t", str(SECONDS), "-i", SOURCE,
                    "-vf", f"{crop},transpose=2,format=yuv420p", "-c:v", "libx264", "-preset", "slow", "-crf", "26",
                    "-threads", "1", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
                    "-movflags", "+faststart", out], check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "mp4box.py"), "rotate", out, "90"], check=True)
    print(f"wrote {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
