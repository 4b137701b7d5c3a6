#!/usr/bin/env python3
"""Generates the galleries of `make bench-thumbs` for the input formats other than JPEG and HEIC (issue 14:
each format's first build against that format's own floor). The same files on every run: fixed seeds, the
pinned Pillow of requirements-dev.txt, Debian's encoders.

    generate_formats.py FORMAT OUT_DIR

avif  40 camera-like 12-megapixel AVIFs: the picture of generate.py (4000×3000, grain and all) coded by
      Debian's avifenc (libaom at its default speed 6, 4:2:0, 8 bits, quantizer 20-30; about 2.5 MB each),
      every other one a portrait stored landscape and turned by `irot`, like generate_heic.py's HEICs. Two
      distinct photos (libaom is slow), copied under 40 names.
webp  40 camera-like 12-megapixel WebPs: the same picture by cwebp -q 85 (about 4 MB each), every other one
      stored as a 3000×4000 portrait (WebP has no rotation box). Two distinct photos under 40 names.
png   24 PNGs as Pillow writes them (zlib level 6, adaptive filters): 16 screenshots of 2 to 4 megapixels
      (desktop and phone sizes: flat colours, anti-aliased text, a photo in some windows; half of them RGBA
      with every pixel opaque, as macOS writes them), 4 renders (smooth shading and fine noise, two RGBA
      with every pixel opaque) and 4 camera-like 12-megapixel photos (RGB, two distinct ones twice).
gif   20 still GIFs: 10 photos of 1600×1200 or 1200×1600 (crops of the picture, median-cut palette,
      Floyd-Steinberg dithering) and 10 screenshot-like graphics of 1920×1080 (256 colours, no dithering).
"""
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Tools"))
import make_header_fixtures as fx  # noqa: E402  (the camera-like JPEG of generate.py)

LETTERS = "etaoinshrdlucmfwypvbgkjqxz"


def camera_picture():
    """generate.py's camera-like picture, 4000×3000, as decoded pixels."""
    fx.build_encoder()
    return Image.open(io.BytesIO(fx.encode(4000, 3000, "photo", "q=90"))).convert("RGB")


def copies(out, distinct, count, extension):
    """`count` files named IMG_0000.EXT..., cycling through the encoded `distinct` ones."""
    for i in range(count):
        with open(os.path.join(out, f"IMG_{i:04d}.{extension}"), "wb") as f:
            f.write(distinct[i % len(distinct)])
    return sum(map(len, distinct)) / len(distinct)


def encoded(command, picture, scratch, suffix):
    """`picture` through an encoder command, with IN and OUT standing for the input PNG and the output."""
    source, target = os.path.join(scratch, "in.png"), os.path.join(scratch, "out" + suffix)
    picture.save(source, compress_level=1)
    subprocess.run([{"IN": source, "OUT": target}.get(a, a) for a in command], check=True, capture_output=True)
    with open(target, "rb") as f:
        return f.read()


def avif(out, scratch):
    picture = camera_picture()
    command = ["avifenc", "--jobs", "all", "--speed", "6", "--yuv", "420", "--depth", "8", "--min", "20", "--max", "30"]
    distinct = [encoded([*command, "IN", "OUT"], picture, scratch, ".avif"),
                encoded([*command, "--irot", "3", "IN", "OUT"], picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
                        scratch, ".avif")]
    return copies(out, distinct, 40, "avif"), "camera-like AVIFs"


def webp(out, scratch):
    picture = camera_picture()
    portrait = picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT).transpose(Image.Transpose.ROTATE_90)
    command = ["cwebp", "-quiet", "-mt", "-q", "85", "IN", "-o", "OUT"]
    distinct = [encoded(command, image, scratch, ".webp") for image in (picture, portrait)]
    return copies(out, distinct, 40, "webp"), "camera-like WebPs"


def text_font(size):
    return ImageFont.load_default(size)


def screenshot(rng, width, height, photo=None, windows=3):
    """A desktop or phone screen: a gradient wallpaper, flat windows with title bars, lines of anti-aliased
    text, and (given `photo`) a photo shown in one window."""
    top, bottom = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(2)]
    image = ImageOps.colorize(Image.linear_gradient("L").resize((width, height)), top, bottom)
    draw = ImageDraw.Draw(image)
    font = text_font(max(12, height // 80))
    line = font.size + font.size // 2
    for index in range(windows):
        w, h = rng.randrange(width // 3, width * 9 // 10), rng.randrange(height // 3, height * 9 // 10)
        x, y = rng.randrange(width - w), rng.randrange(height - h)
        dark = rng.random() < 0.3
        draw.rectangle((x, y, x + w, y + h), fill=(32, 33, 36) if dark else (250, 250, 250), outline=(120, 120, 120))
        draw.rectangle((x, y, x + w, y + 2 * line), fill=(58, 58, 60) if dark else (225, 225, 228))
        if photo is not None and index == windows - 1:
            crop = photo.crop((0, 0, min(photo.width, w * 2), min(photo.height, (h - 2 * line) * 2)))
            image.paste(crop.resize((w - 2, h - 2 * line - 1), Image.Resampling.LANCZOS), (x + 1, y + 2 * line))
            continue
        ink = (230, 230, 230) if dark else (30, 30, 30)
        for row in range(y + 3 * line, y + h - line, line):
            words, text = rng.randrange(3, 14), []
            for _ in range(words):
                text.append("".join(rng.choice(LETTERS) for _ in range(rng.randrange(2, 10))))
            draw.text((x + line, row), " ".join(text), font=font, fill=ink)
    return image


def render(rng, width, height):
    """A rendered scene: shaded spheres on a smooth floor, with a path tracer's fine noise."""
    sky, floor = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(2)]
    image = ImageOps.colorize(Image.linear_gradient("L").resize((width, height)), sky, floor)
    for _ in range(6):
        radius = rng.randrange(height // 10, height // 3)
        colour = tuple(rng.randrange(256) for _ in range(3))
        shade = ImageOps.colorize(ImageOps.invert(Image.radial_gradient("L")).resize((2 * radius, 2 * radius)),
                                  (0, 0, 0), colour)
        mask = Image.new("L", shade.size, 0)
        ImageDraw.Draw(mask).ellipse((0, 0, 2 * radius - 1, 2 * radius - 1), fill=255)
        image.paste(shade, (rng.randrange(width - radius) - radius // 2, rng.randrange(height - radius) - radius // 2),
                    mask)
    noise = Image.frombytes("L", (width, height), bytes(b % 13 for b in rng.randbytes(width * height)))
    return ImageChops.add(image, Image.merge("RGB", (noise, noise, noise)), offset=-6)


def png(out, scratch):
    rng = random.Random(14)
    picture = camera_picture()
    files = []
    sizes = [(2560, 1440), (1920, 1080), (2560, 1600), (1170, 2532)]  # 3.7, 2.1, 4.1 and 3.0 megapixels
    for i in range(16):
        width, height = sizes[i % 4]
        image = screenshot(rng, width, height, photo=picture if i % 3 == 0 else None, windows=rng.randrange(2, 5))
        files.append((f"screenshot-{i:02d}.png", image.convert("RGBA") if i % 2 else image))
    for i in range(4):
        image = render(rng, *((2048, 2048) if i % 2 else (2400, 1350)))
        files.append((f"render-{i}.png", image.convert("RGBA") if i < 2 else image))
    portrait = picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT).transpose(Image.Transpose.ROTATE_90)
    for i, image in enumerate([picture, portrait]):
        files.append((f"IMG_{i:04d}.png", image))
    total = 0
    for name, image in files:
        image.save(os.path.join(out, name))
        total += os.path.getsize(os.path.join(out, name))
    for i in range(2):  # the two photos once more: PNG encoding of 12 megapixels is slow
        shutil.copyfile(os.path.join(out, f"IMG_{i:04d}.png"), os.path.join(out, f"IMG_{i + 2:04d}.png"))
        total += os.path.getsize(os.path.join(out, f"IMG_{i:04d}.png"))
    return total / 24, "PNGs (screenshots, renders, photos)"


def gif(out, scratch):
    rng = random.Random(89)
    picture = camera_picture()
    total = 0
    for i in range(10):
        width = rng.randrange(2400, 4001, 4)
        x, y = rng.randrange(4000 - width + 1), rng.randrange(3000 - width * 3 // 4 + 1)
        image = picture.crop((x, y, x + width, y + width * 3 // 4)).resize((1600, 1200), Image.Resampling.LANCZOS)
        if i % 2:
            image = image.transpose(Image.Transpose.ROTATE_90)
        path = os.path.join(out, f"photo-{i:02d}.gif")
        image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG).save(path)
        total += os.path.getsize(path)
    for i in range(10):
        image = screenshot(rng, 1920, 1080, windows=rng.randrange(2, 5))
        path = os.path.join(out, f"graphic-{i:02d}.gif")
        image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path)
        total += os.path.getsize(path)
    return total / 20, "still GIFs (photos, graphics)"


def main():
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    make = {"avif": avif, "webp": webp, "png": png, "gif": gif}[kind]
    with tempfile.TemporaryDirectory() as scratch:
        size, what = make(out, scratch)
    count = len([f for f in os.listdir(out) if not f.startswith(".")])
    print(f"generated {count} {what} in {out} ({size / 1e6:.1f} MB each)")


if __name__ == "__main__":
    main()
