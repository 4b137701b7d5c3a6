#!/usr/bin/env python3
"""Builds the WebP fixtures in Tests/WaterfallKitTests/Fixtures/formats/webp/ and their expected.json.

Real files come from Debian's libwebp tools (cwebp, img2webp, webpmux) and Pillow, made from SampleGallery's
own photos; hostile ones (truncated, corrupt, bombs) are those files cut or rewritten chunk by chunk here.
Every answer written to expected.json for a readable file is checked against Pillow (which bundles its own,
newer libwebp) and `webpinfo`; a refused file must be refused by `dwebp` or Pillow too, unless it is a bomb
(well-formed, refused by Waterfall's limits only) or its header is fine and only its image data is damaged.

The output is committed; rerun this only to re-record on purpose (needs the venv: scripts/ensure-venv):
    .venv/bin/python Tests/Tools/make_webp_fixtures.py
"""
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from PIL import Image, ImageCms, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_exif_fixtures as x  # noqa: E402  (build, ascii, short, pointer, canon_exif, gps_ifd, ...)

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "Tests", "WaterfallKitTests", "Fixtures", "formats", "webp")
Image.MAX_IMAGE_PIXELS = None  # the bombs are opened on purpose

MAX_FRAMES = 10000  # WF_MAX_FRAMES in Sources/CImageIO/common/animation.h
DESCRIPTION = "Chelsea the cat, as a WebP"


# ---- RIFF ------------------------------------------------------------------------------------------------

def chunk(tag, payload):
    return tag + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")


def riff(chunks, size=None):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body) if size is None else size) + body


def chunks_of(data):
    """[(tag, payload)] of a RIFF WebP."""
    out, at, end = [], 12, 8 + struct.unpack("<I", data[4:8])[0]
    while at + 8 <= end:
        tag, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        out.append((tag, data[at + 8:at + 8 + size]))
        at += 8 + size + (size & 1)
    return out


def vp8x(flags, width, height):
    return chunk(b"VP8X", bytes([flags, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


def anmf(x, y, width, height, duration, payload_chunks, flags=0):
    header = ((x // 2).to_bytes(3, "little") + (y // 2).to_bytes(3, "little") + (width - 1).to_bytes(3, "little")
              + (height - 1).to_bytes(3, "little") + duration.to_bytes(3, "little") + bytes([flags]))
    return chunk(b"ANMF", header + b"".join(payload_chunks))


ANIMATION, XMP, EXIF, ALPHA, ICC = 0x02, 0x04, 0x08, 0x10, 0x20


# ---- sources ---------------------------------------------------------------------------------------------

def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Work:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="webp-fixtures-")

    def path(self, name):
        return os.path.join(self.folder, name)

    def png(self, name, image):
        image.save(self.path(name), optimize=False)
        return self.path(name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def cwebp(self, source, name, *options):
        run("cwebp", "-quiet", "-metadata", "none", *options, source, "-o", self.path(name))
        return self.read(name)


def photo(size):
    image = Image.open(os.path.join(ROOT, "SampleGallery", "chelsea-the-cat.jpg")).convert("RGB")
    return image.resize(size, Image.LANCZOS)


def cutout(size):
    image = Image.open(os.path.join(ROOT, "SampleGallery", "chelsea-cutout.png")).convert("RGBA")
    return image.resize(size, Image.LANCZOS)


def exif_tiff(order, orientation, description, with_gps):
    extra = [(x.GPS_IFD, x.pointer("gps"))] if with_gps else []
    ifd0 = sorted([(x.MAKE, x.ascii("Canon")), (x.MODEL, x.ascii("Canon EOS R5")), (x.DESCRIPTION, x.ascii(description)),
                   (x.ORIENTATION, x.short(orientation)), (x.EXIF_IFD, x.pointer("exif")), *extra])
    ifds = [("ifd0", ifd0), ("exif", x.canon_exif())] + ([("gps", x.gps_ifd())] if with_gps else [])
    return x.build(order, ifds)[0]


def flat_frames(size, count):
    """GIF-like frames: a few flat colours, a shape that moves."""
    frames = []
    for i in range(count):
        image = Image.new("RGB", size, (250, 240, 200))
        draw = ImageDraw.Draw(image)
        w, h = size
        draw.rectangle([i * w // (count + 2), h // 4, i * w // (count + 2) + w // 4, 3 * h // 4], fill=(200, 30, 40))
        draw.ellipse([w // 2, (i * 7) % (h // 2), w // 2 + h // 3, (i * 7) % (h // 2) + h // 3], fill=(20, 60, 160))
        frames.append(image)
    return frames


def photo_frames(size, count, alpha):
    """Photographic frames: a slow pan and zoom over the cat (or the cut-out, with alpha)."""
    base = cutout((451, 300)) if alpha else photo((451, 300))
    frames = []
    for i in range(count):
        left, top = 8 * i, 5 * i
        frames.append(base.crop((left, top, left + 451 - 12 * count, top + 300 - 8 * count)).resize(size, Image.LANCZOS))
    return frames


# ---- the fixtures ----------------------------------------------------------------------------------------

def make(work):
    """{name: (bytes, expectation)}; an expectation is what the Swift tests check (see expected.json)."""
    c = {}

    def ok(width, height, alpha=False, frames=1, **more):
        return dict(format="webp", width=width, height=height, animated=frames > 1, frames=frames, alpha=alpha, **more)

    def error(kind, message, **more):
        return dict(error=kind, message=message, **more)

    cat = work.png("cat.png", photo((243, 161)))  # odd sizes: the scaled decode rounds up
    cut = work.png("cutout.png", cutout((150, 100)))
    lossy = work.cwebp(cat, "lossy.webp", "-q", "80")
    lossless = work.cwebp(cat, "lossless.webp", "-lossless")
    c["W01-lossy.webp"] = (lossy, ok(243, 161))
    c["W02-lossless.webp"] = (lossless, ok(243, 161))
    c["W03-alpha-lossy.webp"] = (work.cwebp(cut, "alpha-lossy.webp", "-q", "80"), ok(150, 100, alpha=True))
    c["W04-alpha-lossless.webp"] = (work.cwebp(cut, "alpha-lossless.webp", "-lossless"), ok(150, 100, alpha=True))

    # VP8X with an ICC profile (LittleCMS's sRGB, through Pillow).
    profile = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    # LittleCMS stamps the creation time (and a profile ID over it): fixed, so a rerun gives the same bytes.
    profile[24:36] = struct.pack(">6H", 2026, 1, 1, 0, 0, 0)
    profile[84:100] = bytes(16)
    profile = bytes(profile)
    with open(work.path("profile.icc"), "wb") as f:
        f.write(profile)
    run("webpmux", "-set", "icc", work.path("profile.icc"), work.path("lossy.webp"), "-o", work.path("icc.webp"))
    c["W05-icc.webp"] = (work.read("icc.webp"), ok(243, 161, icc=len(profile)))

    # EXIF: orientation 6 (browsers do not apply it to WebP: see webp_header.c), GPS, a description.
    tiff = exif_tiff("II", 6, DESCRIPTION, with_gps=True)
    with open(work.path("o6.exif"), "wb") as f:
        f.write(tiff)
    run("webpmux", "-set", "exif", work.path("o6.exif"), work.path("lossy.webp"), "-o", work.path("exif.webp"))
    c["W06-exif-orientation-6-gps.webp"] = (work.read("exif.webp"),
                                            ok(243, 161, exif=dict(description=DESCRIPTION, make="Canon", gps=True)))
    prefixed = b"Exif\x00\x00" + exif_tiff("MM", 6, "Prefixed by its writer", with_gps=False)
    with open(work.path("prefixed.exif"), "wb") as f:
        f.write(prefixed)
    run("webpmux", "-set", "exif", work.path("prefixed.exif"), work.path("lossless.webp"), "-o", work.path("prefixed.webp"))
    c["W07-exif-prefixed.webp"] = (work.read("prefixed.webp"),
                                   ok(243, 161, exif=dict(description="Prefixed by its writer", make="Canon", gps=False)))

    # Animations: img2webp (flat colours, mixed lossy/lossless frames), Pillow (photographic, alpha).
    flat = [work.png(f"flat{i}.png", frame) for i, frame in enumerate(flat_frames((90, 60), 4))]
    durations = [100, 200, 300, 400]
    args = ["img2webp", "-loop", "3", "-mixed"]
    for path, duration in zip(flat, durations):
        args += ["-d", str(duration), path]
    run(*args, "-o", work.path("flat.webp"))
    # img2webp flags alpha in VP8X for its animations (frames are blended over the canvas), opaque as they are:
    # "alpha" is what the header says; the tile is opaque (a JPEG).
    c["W08-animated-flat.webp"] = (work.read("flat.webp"), ok(90, 60, alpha=True, frames=4, durations=durations, loop=3))
    run("webpmux", "-set", "icc", work.path("profile.icc"), work.path("flat.webp"), "-o", work.path("flat-icc.webp"))
    c["W13-animated-icc.webp"] = (work.read("flat-icc.webp"), ok(90, 60, alpha=True, frames=4, durations=durations, loop=3,
                                                                 icc=len(profile)))
    buffer = io.BytesIO()
    frames = photo_frames((120, 80), 5, alpha=True)
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], duration=[70, 90, 110, 130, 150], loop=0,
                   quality=70, method=4)
    c["W09-animated-photo-alpha.webp"] = (buffer.getvalue(), ok(120, 80, alpha=True, frames=5,
                                                                durations=[70, 90, 110, 130, 150], loop=0))
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=[], duration=[500], loop=0, lossless=True)
    one = buffer.getvalue()
    c["W10-animation-of-one-frame.webp"] = (one, ok(120, 80, alpha=True, frames=1))

    # Odd but valid: bytes after the RIFF (ignored), an unknown chunk before the image.
    c["W11-trailing-bytes.webp"] = (lossy + b"JUNK" * 5, ok(243, 161))
    parts = chunks_of(work.read("exif.webp"))
    unknown = [parts[0], (b"ABCD", b"whatever, unknown chunks are skipped")] + parts[1:]
    c["W12-unknown-chunk-before-image.webp"] = (riff([chunk(t, p) for t, p in unknown]), ok(243, 161))

    # Truncated: every cut is refused by the header reader (the RIFF says how long the file is).
    anim = work.read("flat.webp")
    # Under 12 bytes nothing says WebP yet (the sniffer needs "RIFF", a size and "WEBP").
    c["W20-truncated-8-bytes.webp"] = (lossy[:8], error("unsupported", "not an image format Waterfall reads (starts with 52 49 46 46)"))
    c["W21-truncated-inside-first-chunk-header.webp"] = (lossy[:16], error("truncated", "truncated WebP: the file ends after 16 bytes, its RIFF header says"))
    c["W22-truncated-inside-image-data.webp"] = (lossy[:len(lossy) // 2], error("truncated", "truncated WebP: the file ends after"))
    c["W23-truncated-last-byte.webp"] = (lossless[:-1], error("truncated", "truncated WebP: the file ends after"))
    c["W24-animated-truncated-mid-frames.webp"] = (anim[:len(anim) * 2 // 3], error("truncated", "truncated WebP: the file ends after"))
    cut_anim = anim[:len(anim) * 2 // 3]
    c["W25-truncated-riff-size-rewritten.webp"] = (cut_anim[:4] + struct.pack("<I", len(cut_anim) - 8) + cut_anim[8:],
                                                   error("corrupt", "corrupt WebP: the ANMF chunk at offset"))

    # Corrupt.
    vp8 = dict(chunks_of(lossy))[b"VP8 "]
    c["W30-first-chunk-unknown.webp"] = (riff([chunk(b"JUNK", b"1234"), chunk(b"VP8 ", vp8)]),
                                         error("corrupt", "corrupt WebP: the first chunk is 'JUNK', not VP8, VP8L or VP8X"))
    broken = bytearray(vp8)
    broken[3:6] = b"\x00\x00\x00"  # the VP8 start code 9D 01 2A
    c["W31-vp8-bad-start-code.webp"] = (riff([chunk(b"VP8 ", bytes(broken))]), error("corrupt", "corrupt WebP: invalid VP8 chunk header"))
    c["W32-riff-size-too-small.webp"] = (lossy[:4] + struct.pack("<I", 4) + lossy[8:],
                                         error("corrupt", "corrupt WebP: the RIFF size (4) is not one a WebP can have"))
    c["W33-vp8x-canvas-mismatch.webp"] = (riff([vp8x(0, 100, 100), chunk(b"VP8 ", vp8)]),
                                          error("corrupt", "corrupt WebP: the image is 243×161, its VP8X canvas 100×100"))
    anim_chunks = chunks_of(anim)
    moved = []
    for tag, payload in anim_chunks:
        if tag == b"ANMF" and len([m for m in moved if m[0] == b"ANMF"]) == 1:
            payload = (60).to_bytes(3, "little") + payload[3:]  # x = 120, past the 90-pixel canvas
        moved.append((tag, payload))
    c["W34-frame-outside-canvas.webp"] = (riff([chunk(t, p) for t, p in moved]), error("corrupt", "corrupt WebP: frame 2"))
    anim_tags = [t for t, _ in anim_chunks]
    swapped = list(anim_chunks)
    i, j = anim_tags.index(b"ANIM"), anim_tags.index(b"ANMF")
    swapped[i], swapped[j] = swapped[j], swapped[i]
    c["W35-anmf-before-anim.webp"] = (riff([chunk(t, p) for t, p in swapped]),
                                      error("corrupt", "corrupt WebP: an ANMF chunk before the ANIM chunk"))
    c["W36-animation-without-frames.webp"] = (riff([chunk(t, p) for t, p in anim_chunks if t != b"ANMF"]),
                                              error("corrupt", "corrupt WebP: an animation without frames"))
    c["W37-vp8x-without-image.webp"] = (riff([vp8x(ICC, 243, 161), chunk(b"ICCP", profile)]),
                                        error("corrupt", "corrupt WebP: no image chunk"))
    big = lossy[:12] + b"VP8 " + struct.pack("<I", len(vp8) + 1000) + lossy[20:]
    c["W38-chunk-past-riff.webp"] = (big, error("corrupt", "corrupt WebP: the VP8 chunk at offset 12"))
    # A sound header over damaged image data: read fine, refused when decoded.
    vp8l = dict(chunks_of(lossless))[b"VP8L"]
    damaged = vp8l[:40] + bytes(b ^ 0x5A for b in vp8l[40:])
    c["W39-lossless-damaged-data.webp"] = (riff([chunk(b"VP8L", damaged)]), ok(243, 161, derive="corrupt"))

    # Bombs: declared sizes far over the pixel cap, refused from the header before anything is decoded.
    header = 0x2F.to_bytes(1, "little") + (16383 | 16383 << 14).to_bytes(4, "little")  # 16384×16384, no alpha
    c["W40-vp8l-16384x16384-bomb.webp"] = (riff([chunk(b"VP8L", header + bytes(32))]),
                                           error("tooLarge", "16384×16384 is 268.4 megapixels, over the 250-megapixel limit"))
    pixel = dict(chunks_of(work.cwebp(work.png("pixel.png", Image.new("RGBA", (1, 1), (255, 0, 0, 255))), "pixel.webp",
                                      "-lossless")))[b"VP8L"]
    frame = anmf(0, 0, 1, 1, 100, [chunk(b"VP8L", pixel)])
    anim_header = [vp8x(ANIMATION, 60000, 60000), chunk(b"ANIM", bytes(4) + b"\x00\x00")]
    c["W41-animated-canvas-60000x60000-bomb.webp"] = (riff(anim_header + [frame]),
                                                      error("tooLarge", "60000×60000 is 3600 megapixels, over the 250-megapixel limit"))
    bomb = [vp8x(ANIMATION, 16, 16), chunk(b"ANIM", bytes(6))] + [frame] * (MAX_FRAMES + 1)
    c["W42-frame-count-bomb.webp"] = (riff(bomb), error("unsupported", f"unsupported WebP: more than {MAX_FRAMES} frames"))
    # Under both caps alone, over the animation budget (2,000,000,000 canvas pixels × frames): the tile is
    # made from the first frame, the animated view is refused before any frame is decoded.
    budget = [vp8x(ANIMATION, 5000, 5000), chunk(b"ANIM", bytes(6))] + [frame] * 81
    # Its 1-pixel frame leaves the rest of the canvas transparent in libwebp's WebPAnimDecoder, so the tile is a
    # PNG; Pillow decodes it as RGB (black) because VP8X has no alpha flag, so its answer is not asked for.
    c["W43-frame-pixels-bomb.webp"] = (riff(budget), ok(5000, 5000, frames=81, view="tooLarge", tile="png"))
    return c


# ---- independent checks ----------------------------------------------------------------------------------

def pillow_facts(path, decode=True):
    with Image.open(path) as image:
        frames = getattr(image, "n_frames", 1)
        durations = []
        for index in range(frames if frames <= 64 and decode else 0):
            image.seek(index)
            image.load()  # Pillow sets a WebP frame's duration when it decodes it
            durations.append(image.info.get("duration"))
        return dict(width=image.width, height=image.height, frames=frames, alpha=image.mode == "RGBA",
                    loop=image.info.get("loop"), durations=durations)


def tile_format(path):
    """What a tile of it should be, from Pillow's decode of the first frame: PNG when some pixel is transparent."""
    with Image.open(path) as image:
        image.seek(0)
        alpha = image.convert("RGBA").getchannel("A")
        return "png" if alpha.getextrema()[0] < 255 else "jpeg"


def refused_elsewhere(path):
    """dwebp or Pillow refuses it too (a decode, not just a header)."""
    if subprocess.run(["dwebp", path, "-o", "/dev/null"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        return True
    try:
        with Image.open(path) as image:
            image.load()
        return False
    except Exception:
        return True


def check(path, expected):
    if "error" in expected:
        if expected["error"] == "tooLarge" or expected["message"].startswith("unsupported WebP"):
            return  # well-formed; only Waterfall's limits refuse it
        assert refused_elsewhere(path), f"{path}: Waterfall refuses it, dwebp and Pillow do not"
        return
    facts = pillow_facts(path, decode=expected.get("derive") != "corrupt")
    for key in ("width", "height", "frames"):
        assert facts[key] == expected[key], f"{path}: {key} {facts[key]} (Pillow) != {expected[key]}"
    if expected["frames"] == 1 and "view" not in expected:
        assert facts["alpha"] == expected["alpha"], f"{path}: alpha {facts['alpha']} (Pillow) != {expected['alpha']}"
    if "durations" in expected:
        assert facts["durations"] == expected["durations"], f"{path}: durations {facts['durations']} (Pillow)"
        assert facts["loop"] == expected["loop"], f"{path}: loop {facts['loop']} (Pillow)"
    info = subprocess.run(["webpinfo", "-quiet", path], capture_output=True, text=True)
    assert info.returncode == 0, f"{path}: webpinfo finds an error: {info.stdout}"
    if expected["frames"] > 1:  # an animation's alpha is VP8X's flag (Pillow decodes every animation as RGBA)
        flags = subprocess.run(["webpinfo", path], capture_output=True, text=True).stdout
        assert ("Alpha: 1" in flags) == expected["alpha"], f"{path}: VP8X alpha flag != {expected['alpha']}"
    if expected.get("derive") != "corrupt":
        decoded = subprocess.run(["dwebp", path, "-o", "/dev/null"], capture_output=True)
        assert decoded.returncode == 0 or expected["frames"] > 1 or "view" in expected, f"{path}: dwebp fails"
    else:
        assert refused_elsewhere(path), f"{path}: damaged data that dwebp and Pillow decode"


def main():
    work = Work()
    try:
        cases = make(work)
    finally:
        shutil.rmtree(work.folder)
    if os.path.isdir(OUT):
        for name in os.listdir(OUT):
            os.remove(os.path.join(OUT, name))
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    for name, (data, expectation) in sorted(cases.items()):
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(data)
        check(path, expectation)
        if "error" not in expectation and "tile" not in expectation and expectation.get("derive") != "corrupt":
            expectation["tile"] = tile_format(path)
        expected[name] = expectation
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(f"{len(cases)} fixtures in {os.path.relpath(OUT, ROOT)}, checked against Pillow, webpinfo and dwebp")


if __name__ == "__main__":
    main()
