#!/usr/bin/env python3
"""Reference images and fixtures for the Thumbnail tests, made by an independent implementation: Pillow.

    python3 -m venv /tmp/thumbs-venv && /tmp/thumbs-venv/bin/pip install Pillow
    /tmp/thumbs-venv/bin/python Tests/Tools/make_thumbnail_references.py

Writes Tests/WaterfallKitTests/Fixtures/thumbnails/:
  cases.tsv                   kind, source (relative to the repository), box width, reference PNG
  orientation/*.png           each EXIF orientation example, exif_transpose'd, resized to 200 wide (LANCZOS)
  quality/*.png               photos decoded in full (no DCT scaling), upright, resized with LANCZOS
  cmyk/*.png                  J34 CMYK/YCCK fixtures, naive CMYK -> RGB, resized with LANCZOS
  pngsuite.tsv                every readable PngSuite file: width, height, whether any pixel is transparent
  srgb.icc                    Pillow's (littleCMS's) sRGB profile
  gps-xmp-comment-icc.jpg     a photo with EXIF (orientation 6, GPS), XMP, a COM marker and srgb.icc
  text-exif-icc-alpha.png     an RGBA PNG with iCCP, tEXt, zTXt, iTXt (XMP) and eXIf (GPS)
  text-exif-icc-opaque.png    the same, opaque RGB
  README.md                   what made them (the Pillow version)

Sizes follow wf_derive's rule, so both sides resize to exactly the same size: the box's axis is exact and
the other is rounded half up, (h * W + w / 2) / w.
"""
import io
import os
import struct
import sys

import PIL
from PIL import ExifTags, Image, ImageCms, ImageOps, PngImagePlugin

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "WaterfallKitTests", "Fixtures")
OUT = os.path.join(FIXTURES, "thumbnails")


def rel(path):
    return os.path.relpath(path, ROOT)


def fit_width(size, width):
    w, h = size
    if width >= w:
        return size
    return width, max(1, (h * width + w // 2) // w)


def reference(source, width, target, convert=None):
    """Decode in full, turn upright, resize with Lanczos-3; write a PNG."""
    with Image.open(source) as im:
        im.load()
        im = ImageOps.exif_transpose(im)
        if convert:
            im = convert(im)
        if im.mode not in ("L", "LA", "RGB", "RGBA"):
            im = im.convert("RGBA" if "A" in im.mode or "transparency" in im.info else "RGB")
        im = im.resize(fit_width(im.size, width), Image.Resampling.LANCZOS)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        im.save(target, optimize=True)
    return target


def has_transparent_pixel(im, path):
    """Whether any pixel has alpha < 255 once tRNS is applied. Pillow 13 compares a gray tRNS value with the
    pixels unscaled (tbbn0g04: tRNS 15 of 4 bits, pixels scaled to 8) and turns I;16 + tRNS into all-
    transparent RGBA, so gray tRNS is matched here against the samples at the file's own bit depth."""
    with open(path, "rb") as f:
        ihdr = f.read(33)
    depth, color_type = ihdr[24], ihdr[25]
    if color_type == 0 and "transparency" in im.info:
        key = im.info["transparency"]
        scale = 255 // ((1 << depth) - 1) if depth < 8 else 1
        return any(v == key * scale for v in im.get_flattened_data())
    return im.convert("RGBA").getextrema()[3][0] < 255


def naive_cmyk_to_rgb(im):
    """Pillow hands Adobe CMYK over un-inverted (ink amounts); the naive conversion is (255-C)(255-K)/255."""
    assert im.mode == "CMYK", im.mode
    out = Image.new("RGB", im.size)
    pixels = [(((255 - c) * (255 - k) + 127) // 255, ((255 - m) * (255 - k) + 127) // 255,
               ((255 - y) * (255 - k) + 127) // 255) for c, m, y, k in im.get_flattened_data()]
    out.putdata(pixels)
    return out


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


XMP = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       b'<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,22.5N" '
       b'exif:GPSLongitude="4,53.2E"/></rdf:RDF></x:xmpmeta>')


def gps_exif(orientation=None):
    exif = Image.Exif()
    if orientation:
        exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.Make] = "Waterfall test camera"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps.update({1: "N", 2: (52.0, 22.0, 30.5), 3: "E", 4: (4.0, 53.0, 12.0)})
    return exif


def metadata_fixtures(icc):
    with Image.open(os.path.join(ROOT, "SampleGallery", "chelsea-the-cat.jpg")) as im:
        photo = im.convert("RGB")
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=90, exif=gps_exif(orientation=6).tobytes(), icc_profile=icc)
    jpeg = buffer.getvalue()
    # XMP (a second APP1) and a comment, right after SOI.
    extra = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + XMP) + segment(0xFE, b"shot at home, 52.375N 4.887E")
    with open(os.path.join(OUT, "gps-xmp-comment-icc.jpg"), "wb") as f:
        f.write(jpeg[:2] + extra + jpeg[2:])

    for name, mode in (("text-exif-icc-alpha.png", "RGBA"), ("text-exif-icc-opaque.png", "RGB")):
        im = photo.resize((160, 106), Image.Resampling.LANCZOS).convert(mode)
        if mode == "RGBA":
            # A soft transparent hole in the middle.
            alpha = Image.new("L", im.size, 255)
            alpha.paste(0, (50, 30, 110, 76))
            im.putalpha(alpha)
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", "shot at home, 52.375N 4.887E")
        info.add_text("Author", "someone", zip=True)
        info.add_itxt("XML:com.adobe.xmp", XMP.decode())
        im.save(os.path.join(OUT, name), icc_profile=icc, exif=gps_exif().tobytes(), pnginfo=info)


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = []

    orientation = os.path.join(FIXTURES, "conformance", "exif-orientation")
    for name in sorted(os.listdir(orientation)):
        if name.endswith(".jpg"):
            target = os.path.join(OUT, "orientation", name.replace(".jpg", ".png"))
            cases.append(("orientation", os.path.join(orientation, name), 200, reference(os.path.join(orientation, name), 200, target)))

    # Photos and boxes chosen so that the JPEG side decodes at 1/2 or 1/4 scale.
    quality = [
        ("SampleGallery/retina-fundus.jpg", 300),        # progressive, 1411², 1/2
        ("SampleGallery/Space/Hubble/hubble-deep-field.jpg", 240),    # 1000×872, 1/2
        ("SampleGallery/Space/astronaut.jpg", 120),            # 512², 1/2
        ("SampleGallery/chelsea-the-cat.jpg", 100),      # 451×300, 1/2
        ("SampleGallery/coffee-cup.jpg", 150),           # orientation 3
        ("SampleGallery/brick-wall.jpg", 100),           # gray, orientation 7
        ("SampleGallery/retina-vessels-tall.jpg", 100),  # orientation 5
        ("SampleGallery/chelsea-cutout.png", 150),       # RGBA: premultiplied alpha
        ("SampleGallery/gravel.png", 128),               # gray PNG
        ("Tests/WaterfallKitTests/Fixtures/conformance/exif-orientation/Landscape_1.jpg", 200),  # 1/4
        ("Tests/WaterfallKitTests/Fixtures/conformance/exif-orientation/Portrait_6.jpg", 250),   # 1/2, turned
    ]
    for source, width in quality:
        stem = os.path.splitext(os.path.basename(source))[0]
        target = os.path.join(OUT, "quality", f"{stem}-{width}.png")
        cases.append(("quality", os.path.join(ROOT, source), width, reference(os.path.join(ROOT, source), width, target)))

    for name in ("J34-cmyk-adobe.jpg", "J34-ycck-adobe.jpg"):
        source = os.path.join(FIXTURES, "headers", name)
        target = os.path.join(OUT, "cmyk", name.replace(".jpg", ".png"))
        cases.append(("cmyk", source, 24, reference(source, 24, target, convert=naive_cmyk_to_rgb)))

    with open(os.path.join(OUT, "cases.tsv"), "w") as f:
        for kind, source, width, target in cases:
            f.write(f"{kind}\t{rel(source)}\t{width}\t{os.path.relpath(target, OUT)}\n")

    suite = os.path.join(FIXTURES, "conformance", "pngsuite")
    with open(os.path.join(OUT, "pngsuite.tsv"), "w") as f:
        for name in sorted(os.listdir(suite)):
            if not name.endswith(".png") or name.startswith("x"):
                continue
            with Image.open(os.path.join(suite, name)) as im:
                im.load()
                f.write(f"{name}\t{im.size[0]}\t{im.size[1]}\t{int(has_transparent_pixel(im, os.path.join(suite, name)))}\n")

    # littleCMS stamps the profile with the time it was made: keep the committed one, so re-runs are stable.
    profile = os.path.join(OUT, "srgb.icc")
    if not os.path.exists(profile):
        with open(profile, "wb") as f:
            f.write(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with open(profile, "rb") as f:
        icc = f.read()
    metadata_fixtures(icc)

    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write("# Thumbnail test references\n\n"
                f"Made by `Tests/Tools/make_thumbnail_references.py` with Pillow {PIL.__version__} "
                f"(Python {sys.version.split()[0]}). Re-run it to re-record them, on purpose, never silently.\n")
    print(f"{len(cases)} references, Pillow {PIL.__version__}")


if __name__ == "__main__":
    main()
