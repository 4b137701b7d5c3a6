#!/usr/bin/env python3
"""Makes Tests/WaterfallKitTests/Fixtures/live/: tiny Live Photos (64x48 stills, short clips) as an iPhone
writes them, and the cases beside them that must stay two tiles.

A still's content identifier is the Apple MakerNote's tag 0x0011 (Exif 0x927C: `Apple iOS\\0`, version
00 01, `MM`, one IFD at offset 14 whose offsets count from the note's start). exiftool cannot create a
MakerNote from nothing, so the bytes are built here and Pillow (pillow-heif for HEIC) writes them. A clip's
is the QuickTime key com.apple.quicktime.content.identifier, which Debian's FFmpeg writes with
`-movflags use_metadata_tags`. H.264 + AAC in MOV, so every browser engine plays the published clip.

Beside them, Fixtures/live-hevc/: Live Photos whose clips are HEVC (libx265, 8-bit 4:2:0, tagged hvc1) with
AAC, as iPhones record them, which Waterfall converts to H.264: one pair by name and identifier, one by
identifier across names.

The outputs are committed; rerun this only to re-record on purpose (.venv's Pillow and pillow-heif, ffmpeg):

    .venv/bin/python Tests/Tools/make_live_photo_fixtures.py [LIVE_FOLDER [HEVC_FOLDER]]

Read back with `exiftool -a -G1 -MakerNotes:all` (Debian's 12.57 names the tag MediaGroupUUID) and
`ffprobe -show_entries format_tags`.
"""
import os
import struct
import subprocess
import sys

from PIL import Image, ImageDraw
import pillow_heif

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "WaterfallKitTests", "Fixtures", "live")
OUT_HEVC = OUT + "-hevc"

ID_PAIR = "1F3C8B2A-0001-4C6E-9D1B-7A2E5F0C3D41"
ID_STILL_2 = "1F3C8B2A-0002-4C6E-9D1B-7A2E5F0C3D41"
ID_CLIP_2 = "1F3C8B2A-0002-4C6E-9D1B-AAAAAAAAAAAA"
ID_ONLY_CLIP = "1F3C8B2A-0005-4C6E-9D1B-7A2E5F0C3D41"
ID_BOTH_STILLS = "1F3C8B2A-0006-4C6E-9D1B-7A2E5F0C3D41"
ID_NAMES = "1F3C8B2A-0008-4C6E-9D1B-7A2E5F0C3D41"
ID_TRIP = "1F3C8B2A-0007-4C6E-9D1B-7A2E5F0C3D41"
ID_HEVC = "1F3C8B2A-0010-4C6E-9D1B-7A2E5F0C3D41"
ID_HEVC_NAMES = "1F3C8B2A-0011-4C6E-9D1B-7A2E5F0C3D41"


def maker_note(identifier):
    """Apple's MakerNote with one entry: 0x0011, ASCII, the identifier (NUL-terminated) after the IFD."""
    value = identifier.encode("ascii") + b"\0"
    header = b"Apple iOS\0" + b"\x00\x01" + b"MM"
    ifd_start = len(header)
    value_offset = ifd_start + 2 + 12 + 4  # count, one entry, the next-IFD pointer
    ifd = struct.pack(">H", 1) + struct.pack(">HHII", 0x0011, 2, len(value), value_offset) + struct.pack(">I", 0)
    return header + ifd + value


def still(path, hue, identifier=None):
    image = Image.new("RGB", (64, 48), hue)
    ImageDraw.Draw(image).rectangle((8, 8, 40, 32), fill=(250, 250, 250))
    exif = Image.Exif()
    exif[0x010F] = "Apple"
    exif[0x0110] = "iPhone 15"
    if identifier:
        exif.get_ifd(0x8769)[0x927C] = maker_note(identifier)
    if path.lower().endswith(".heic"):
        pillow_heif.register_heif_opener()
        image.save(path, format="HEIF", quality=60, exif=exif.tobytes())
    else:
        image.save(path, format="JPEG", quality=80, exif=exif.tobytes())


H264 = ["-c:v", "libx264", "-preset", "slow", "-crf", "30"]
HEVC = ["-c:v", "libx265", "-preset", "medium", "-crf", "32", "-tag:v", "hvc1", "-x265-params", "log-level=error:pools=1"]


def clip(path, seconds, identifier=None, codec=H264):
    metadata = ["-movflags", "use_metadata_tags", "-metadata", f"com.apple.quicktime.content.identifier={identifier}"] \
        if identifier else []
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin",
                    "-f", "lavfi", "-i", f"testsrc=size=64x48:rate=10:duration={seconds}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=22050:duration={seconds}"]
                   + codec + ["-pix_fmt", "yuv420p", "-threads", "1",
                    "-c:a", "aac", "-b:a", "24k", "-shortest", "-map_metadata", "-1",
                    "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact"]
                   + metadata + ["-f", "mov", path], check=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    os.makedirs(os.path.join(out, "Trip"), exist_ok=True)
    j = lambda name: os.path.join(out, name)
    # 1: the same identifier: one Live Photo.
    still(j("IMG_0001.HEIC"), (200, 60, 40), ID_PAIR)
    clip(j("IMG_0001.MOV"), 2.5, ID_PAIR)
    # 2: identifiers that differ, the same name: two tiles.
    still(j("IMG_0002.JPG"), (40, 160, 60), ID_STILL_2)
    clip(j("IMG_0002.MOV"), 2.5, ID_CLIP_2)
    # 3: no identifier, the same name, 2.5 s: one Live Photo.
    still(j("IMG_0003.JPG"), (40, 60, 200))
    clip(j("IMG_0003.MOV"), 2.5)
    # 4: no identifier, the same name, 9 s: two tiles (a video of its own).
    still(j("IMG_0004.JPG"), (200, 200, 40))
    clip(j("IMG_0004.MOV"), 9)
    # 5: an identifier on the video only, the same name, 2.5 s: one Live Photo.
    still(j("IMG_0005.JPG"), (160, 40, 160))
    clip(j("IMG_0005.MOV"), 2.5, ID_ONLY_CLIP)
    # 6: HEIC and JPEG of one shot and its clip, one identifier: the HEIC (first by name) takes the clip.
    still(j("IMG_0006.HEIC"), (40, 200, 200), ID_BOTH_STILLS)
    still(j("IMG_0006.JPG"), (40, 200, 200), ID_BOTH_STILLS)
    clip(j("IMG_0006.MOV"), 2.5, ID_BOTH_STILLS)
    # 8: one identifier, names that differ: one Live Photo.
    still(j("Still_A.JPG"), (120, 120, 120), ID_NAMES)
    clip(j("Clip_B.MOV"), 2.5, ID_NAMES)
    # 7: a Live Photo in a sub-album, for --shard.
    still(j("Trip/IMG_0007.JPG"), (90, 30, 10), ID_TRIP)
    clip(j("Trip/IMG_0007.MOV"), 2.5, ID_TRIP)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print(f"wrote {out} ({total} bytes)")
    hevc(sys.argv[2] if len(sys.argv) > 2 else OUT_HEVC)


def hevc(out):
    os.makedirs(out, exist_ok=True)
    j = lambda name: os.path.join(out, name)
    # 10: an iPhone's Live Photo, its clip in HEVC.
    still(j("IMG_0010.HEIC"), (30, 90, 200), ID_HEVC)
    clip(j("IMG_0010.MOV"), 1, ID_HEVC, HEVC)
    # 11: the same across names (paired by the identifier alone).
    still(j("Still_C.JPG"), (200, 90, 30), ID_HEVC_NAMES)
    clip(j("Clip_D.MOV"), 1, ID_HEVC_NAMES, HEVC)
    total = sum(os.path.getsize(j(f)) for f in os.listdir(out))
    print(f"wrote {out} ({total} bytes)")


if __name__ == "__main__":
    main()
