#!/usr/bin/env python3
"""Builds SampleGallery/: the photos, CREDITS and waterfall.json that `make gallery` renders.

Every photo is a crop of one of scikit-image's bundled sample images (only files that ship inside the
scikit-image wheel; nothing is downloaded), encoded with Pillow. Crops keep the native resolution: no
image is ever scaled up (nor down). Some JPEGs are stored transformed and carry an EXIF Orientation tag
(1-8) such that a viewer applying the tag shows them upright; the script checks each one after writing.

The output is committed; rerun this only to re-record on purpose. It is deterministic for given versions
of scikit-image, Pillow (and Pillow's libjpeg/zlib). Recorded with Python 3.11 and:

    python3 -m venv /tmp/sample-venv
    /tmp/sample-venv/bin/pip install scikit-image==0.26.0 Pillow==13.0.0
    /tmp/sample-venv/bin/python Tests/Tools/make_sample_gallery.py        # writes SampleGallery/

Use a venv outside the repository. Options: --out DIR (default: SampleGallery/ of this repository).
Files in the output folder that this script does not make are reported, never deleted.
"""
import argparse
import json
import os
import sys
import unicodedata

import numpy as np
import skimage
import skimage.data as data
from PIL import Image, ImageChops, ImageDraw, ImageOps, ImageStat, TiffImagePlugin

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "..", "SampleGallery"))

# ---- Sources: the licence text is quoted from each skimage.data function's docstring (scikit-image 0.26).
SOURCES = {
    "astronaut": dict(
        load=data.astronaut, file="astronaut.png",
        shows="Astronaut Eileen Collins in her orange launch suit, with a flag and a space shuttle model",
        origin="NASA Great Images database (https://flic.kr/p/r9qvLn)",
        author="NASA",
        licence='Public domain: "No known copyright restrictions, released into the public domain."'),
    "chelsea": dict(
        load=data.chelsea, file="chelsea.png",
        shows="Chelsea the cat",
        origin="photograph by Stefan van der Walt",
        author="Stefan van der Walt",
        licence='CC0: "No copyright restrictions. CC0 by the photographer (Stefan van der Walt)."'),
    "coffee": dict(
        load=data.coffee, file="coffee.png",
        shows="An espresso cup with a spoon on a saucer, on a wooden table",
        origin="photograph courtesy of Pikolo Espresso Bar",
        author="Rachel Michetti",
        licence='CC0: "No copyright restrictions. CC0 by the photographer (Rachel Michetti)."'),
    "rocket": dict(
        load=data.rocket, file="rocket.jpg",
        shows="Falcon 9 carrying DSCOVR on Launch Complex 40, Cape Canaveral, at dusk",
        origin="SpaceX Photos (https://www.flickr.com/photos/spacexphotos/16511594820/)",
        author="SpaceX",
        licence='Public domain: "The image was captured by SpaceX and released in the public domain."'),
    "hubble": dict(
        load=data.hubble_deep_field, file="hubble_deep_field.jpg",
        shows="The Hubble eXtreme Deep Field: thousands of distant galaxies",
        origin="HubbleSite (http://hubblesite.org/newscenter/archive/releases/2012/37/image/a/)",
        author="NASA",
        licence='Public domain: "The image was captured by NASA and may be freely used in the public domain."'),
    "retina": dict(
        load=data.retina, file="retina.jpg",
        shows="Fundus photograph of a normal left human eye (retina, optic disc, macula, blood vessels)",
        origin="Wikimedia Commons (https://commons.wikimedia.org/wiki/File:Fundus_photograph_of_normal_left_eye.jpg)",
        author="Mikael Häggström",
        licence='CC0: "This file is made available under the Creative Commons CC0 1.0 Universal Public Domain Dedication."'),
    "camera": dict(
        load=data.camera, file="camera.png",
        shows="A man with a video camera on a tripod in a field, a city skyline behind (greyscale)",
        origin="photograph by Lav Varshney",
        author="Lav Varshney",
        licence='CC0: "No copyright restrictions. CC0 by the photographer (Lav Varshney)."'),
    "clock": dict(
        load=data.clock, file="clock_motion.png",
        shows="A wall clock, photographed while moving the camera (motion blur, greyscale)",
        origin="photograph by Stefan van der Walt",
        author="Stefan van der Walt",
        licence='Public domain: "Released into the public domain by the photographer (Stefan van der Walt)."'),
    "brick": dict(
        load=data.brick, file="brick.png",
        shows="A brick wall (greyscale)",
        origin="CC0Textures, Bricks25 (https://cc0textures.com/view.php?tex=Bricks25); scikit-image applied "
               "a perspective transform, a 90-degree rotation, a crop and a scale",
        author="CC0Textures",
        licence='CC0: "licensed under the Creative Commons CC0 License."'),
    "gravel": dict(
        load=data.gravel, file="gravel.png",
        shows="Gravel (greyscale)",
        origin="CC0Textures, Gravel04 (https://cc0textures.com/view.php?tex=Gravel04); scikit-image rescaled, "
               "cropped and converted it to greyscale",
        author="CC0Textures",
        licence='CC0: "licensed under the Creative Commons CC0 License."'),
}

# Test metadata written into some JPEGs' EXIF. It is made up by this script: it is NOT the photographers'.
MAKE, MODEL = "Waterfall", "SampleGallery generator"

# ---- The gallery: (file, source, crop box (left, top, right, bottom) in source pixels, options).
# Options: orientation=N (store inverse(N)(upright), tag N), exif=True (Make/Model/DateTimeOriginal/
# ImageDescription), date="YYYY:MM:DD HH:MM:SS", progressive=True, alpha="ellipse" (PNG, RGBA), what="...".
PHOTOS = [
    # Hubble eXtreme Deep Field, 1000 x 872
    ("hubble-deep-field.jpg", "hubble", (0, 0, 1000, 872), dict(exif=True, date="2012:09:25 10:00:00")),
    ("hubble-panorama.jpg", "hubble", (0, 330, 1000, 580), dict(orientation=7, what="a 4:1 strip")),
    ("hubble-tall.jpg", "hubble", (640, 0, 930, 870), dict(what="a 1:3 strip")),
    ("hubble-galaxy-1.jpg", "hubble", (0, 250, 300, 550), dict(what="a spiral galaxy")),
    ("hubble-galaxy-2.jpg", "hubble", (600, 380, 900, 680), dict(orientation=2, what="galaxies and a star")),
    ("hubble-galaxy-10.png", "hubble", (220, 20, 560, 240), dict(what="a group of galaxies")),
    # Retina, 1411 x 1411
    ("retina-fundus.jpg", "retina", (0, 0, 1411, 1411), dict(progressive=True, what="the whole fundus")),
    ("retina-optic-disc.jpg", "retina", (40, 420, 640, 870), dict(orientation=3, exif=True,
                                                                    date="2014:03:02 09:15:00", what="the optic disc")),
    ("retina-panorama.jpg", "retina", (40, 560, 1370, 880), dict(what="a 4:1 strip through the optic disc and macula")),
    ("retina-vessels-tall.jpg", "retina", (700, 60, 1160, 1350), dict(orientation=5, what="a tall strip of blood vessels")),
    ("retina-macula.jpg", "retina", (480, 420, 960, 1060), dict(what="the macula")),
    # Rocket, 640 x 427
    ("rocket-launch.jpg", "rocket", (0, 0, 640, 427), dict(exif=True, date="2015:02:10 18:05:00")),
    ("rocket-launch-tall.jpg", "rocket", (251, 0, 393, 426), dict(orientation=8, what="a 1:3 strip: the rocket")),
    ("rocket-panorama.jpg", "rocket", (0, 267, 640, 427), dict(what="a 4:1 strip: the pad lights")),
    ("rocket-gantry.jpg", "rocket", (400, 0, 640, 427), dict(what="the lightning towers")),
    # Astronaut, 512 x 512
    ("astronaut.jpg", "astronaut", (0, 0, 512, 512), dict(exif=True, date="1992:07:01 11:00:00")),
    ("astronaut-portrait.jpg", "astronaut", (100, 0, 400, 400), dict(orientation=6, exif=True,
                                                                      date="1992:07:01 11:05:00", what="her portrait")),
    ("astronaut-shuttle-model.jpg", "astronaut", (350, 0, 480, 290), dict(what="the space shuttle model")),
    ("astronaut-helmet.jpg", "astronaut", (270, 330, 512, 512), dict(orientation=4, what="the helmet")),
    # Coffee, 600 x 400
    ("coffee-cup.jpg", "coffee", (0, 0, 600, 400), dict(orientation=3, exif=True, date="2013:05:17 08:30:00")),
    ("coffee-espresso.jpg", "coffee", (160, 10, 420, 270), dict(what="the cup, from above")),
    ("coffee-spoon.jpg", "coffee", (310, 60, 430, 330), dict(orientation=6, what="the spoon")),
    ("coffee-panorama.jpg", "coffee", (0, 40, 600, 140), dict(what="a 6:1 strip: the cup, the coffee and the saucer")),
    # Chelsea the cat, 451 x 300
    ("chelsea-the-cat.jpg", "chelsea", (0, 0, 451, 300), dict(exif=True, date="2011:10:09 16:45:00")),
    ("chelsea-eyes.jpg", "chelsea", (110, 60, 370, 180), dict(orientation=2, what="the eyes")),
    ("chelsea-portrait.jpg", "chelsea", (110, 0, 340, 300), dict(orientation=8, what="the face")),
    ("chelsea-cutout.png", "chelsea", (0, 0, 451, 300), dict(alpha="ellipse", what="an elliptical cut-out")),
    # Cameraman, 512 x 512, greyscale
    ("cameraman.jpg", "camera", (0, 0, 512, 512), dict(orientation=1, exif=True, date="2016:02:20 14:00:00")),
    ("cameraman-skyline.png", "camera", (300, 100, 512, 240), dict(what="the skyline")),
    # Clock, 400 x 300, greyscale
    ("clock-motion-blur.jpg", "clock", (0, 0, 400, 300), dict()),
    # Textures, 512 x 512, greyscale
    ("brick-wall.jpg", "brick", (0, 0, 512, 512), dict(orientation=7)),
    ("gravel.png", "gravel", (0, 0, 512, 384), dict()),
    # Coins, 384 x 303, greyscale
    # Immunohistochemistry, 512 x 512
]

# Orientation n: a viewer displays Image.transpose(DISPLAY[n]) of the stored pixels (what
# ImageOps.exif_transpose does). Every one of these is its own inverse except 6 and 8, which swap.
DISPLAY = {
    2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
STORE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
         5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
         8: Image.Transpose.ROTATE_270}
STORED_AS = {2: "mirrored left-right", 3: "rotated 180°", 4: "mirrored top-bottom",
             5: "transposed (mirrored across the main diagonal)", 6: "rotated 90° counter-clockwise",
             7: "transversed (mirrored across the anti-diagonal)", 8: "rotated 90° clockwise"}
QUALITY = 85

_cache = {}


def source_image(key):
    if key not in _cache:
        _cache[key] = Image.fromarray(np.ascontiguousarray(SOURCES[key]["load"]()))
    return _cache[key]


def ellipse_alpha(width, height, feather=4):
    """An anti-aliased elliptical mask: drawn at 4x, then reduced (box filter, deterministic)."""
    scale = 4
    mask = Image.new("L", (width * scale, height * scale), 0)
    inset = feather * scale
    ImageDraw.Draw(mask).ellipse((inset, inset, width * scale - inset - 1, height * scale - inset - 1), fill=255)
    return mask.reduce(scale)


def build_exif(name, key, opts):
    exif = Image.Exif()
    orientation = opts.get("orientation")
    if orientation:
        exif[0x0112] = orientation
    if opts.get("exif"):
        text = f"{SOURCES[key]['shows']} (scikit-image sample data; {SOURCES[key]['author']})"
        # EXIF ASCII fields: spell accented letters without their accents (Häggström -> Haggstrom).
        exif[0x010E] = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
        exif[0x010F] = MAKE
        exif[0x0110] = MODEL
        exif[0x0131] = "make_sample_gallery.py"
        sub = exif.get_ifd(0x8769)
        sub[0x9000] = b"0232"  # ExifVersion
        sub[0x9003] = opts["date"]  # DateTimeOriginal
        sub[0xA001] = 1  # ColorSpace: sRGB
    if orientation or opts.get("exif"):
        exif[0x011A] = exif[0x011B] = TiffImagePlugin.IFDRational(72)  # X/YResolution
        exif[0x0128] = 2  # ResolutionUnit: inches
        exif[0x0213] = 1  # YCbCrPositioning: centred
    return exif


# Sub-albums, to show nested albums: file-name prefix -> album folder.
ALBUMS = {"hubble-": "Space/Hubble", "astronaut": "Space", "rocket-": "Space"}

# Sidecar captions (NAME.txt beside the photo: the first line is the title, the rest the description).
CAPTIONS = {
    "coffee-cup.jpg": "Morning coffee\nAn espresso cup on its saucer, from scikit-image's coffee sample (CC0).",
    "chelsea-the-cat.jpg": "Chelsea\nThe cat of scikit-image's sample data (CC0).",
    "Space/rocket-launch.jpg": "Falcon 9 on the pad\nA SpaceX launch photo (public domain).",
    "Space/Hubble/hubble-deep-field.jpg": "Hubble Deep Field\nThousands of galaxies in a speck of sky.",
}

ALBUM_SETTINGS = {
    "Space": {"title": "Space", "description": "Astronauts, rockets and the deep sky: NASA and SpaceX, public domain.",
              "cover": "rocket-launch.jpg"},
    "Space/Hubble": {"title": "Hubble", "sort": "name"},
}


def album_path(name):
    """The photo's path in the gallery: in its sub-album's folder, if it has one."""
    for prefix, folder in ALBUMS.items():
        if name.startswith(prefix):
            return folder + "/" + name
    return name


def write(out, name, key, box, opts):
    upright = source_image(key).crop(box)
    w, h = upright.size
    sw, sh = source_image(key).size
    assert 0 <= box[0] < box[2] <= sw and 0 <= box[1] < box[3] <= sh, (name, box, (sw, sh))
    path = os.path.join(out, album_path(name))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if name.endswith(".png"):
        assert not opts.get("orientation"), name
        img = upright
        if opts.get("alpha") == "ellipse":
            img = upright.convert("RGBA")
            img.putalpha(ellipse_alpha(w, h))
        img.save(path, "PNG", optimize=False)
        return img
    orientation = opts.get("orientation")
    stored = upright.transpose(STORE[orientation]) if orientation and orientation != 1 else upright
    exif = build_exif(name, key, opts)
    kwargs = dict(quality=QUALITY, optimize=True)
    if opts.get("progressive"):
        kwargs["progressive"] = True
    if len(exif):
        kwargs["exif"] = exif.tobytes()
    stored.save(path, "JPEG", **kwargs)
    return upright


def describe_edit(name, key, box, opts):
    sw, sh = source_image(key).size
    w, h = box[2] - box[0], box[3] - box[1]
    if (w, h) == (sw, sh):
        parts = [f"no crop (the whole {sw}x{sh} image)"]
    else:
        parts = [f"cropped to box (left, top, right, bottom) = {box} of the {sw}x{sh} image, {w}x{h}"]
        if opts.get("what"):
            parts[0] += f", {opts['what']}"
    parts.append("not resized")
    o = opts.get("orientation")
    if o and o != 1:
        parts.append(f"stored {STORED_AS[o]} with EXIF Orientation {o}, so that it displays upright")
    elif o == 1:
        parts.append("EXIF Orientation 1 (stored upright)")
    if opts.get("alpha"):
        parts.append("converted to RGBA, with an anti-aliased elliptical alpha mask (transparent outside)")
    if opts.get("exif"):
        parts.append(f"EXIF Make/Model/DateTimeOriginal/ImageDescription are test metadata "
                     f"written by the generator (DateTimeOriginal {opts['date']}), not the photographer's")
    if name.endswith(".jpg"):
        parts.append(f"JPEG quality {QUALITY}" + (", progressive" if opts.get("progressive") else ", baseline"))
    else:
        parts.append("PNG")
    return "; ".join(parts) + "."


CREDITS_HEAD = """\
Credits for the photos in SampleGallery/

Every photo here is a crop of a sample image that ships with scikit-image (https://scikit-image.org),
version {skv}, in the skimage/data folder of its wheel, read with the named skimage.data function. The
licence of each is quoted from that function's docstring (the scikit-image data README names none).
Crops keep the original pixels: nothing was scaled. The files are made by
Tests/Tools/make_sample_gallery.py (scikit-image {skv}, Pillow {pilv}).

Licences: public domain (NASA, SpaceX, Stefan van der Walt's clock) and CC0 (Chelsea, coffee,
cameraman, retina, brick, gravel). Sample images whose docstrings give no licence, or only "no known
copyright restrictions" (coins, immunohistochemistry), are left out.
"""


def credits_text():
    lines = [CREDITS_HEAD.format(skv=skimage.__version__, pilv=Image.__version__)]
    for name, key, box, opts in PHOTOS:
        s = SOURCES[key]
        lines.append(album_path(name))
        lines.append(f"  Shows:   {s['shows']}" + (f" ({opts['what']})" if opts.get("what") else "") + ".")
        lines.append(f"  Source:  scikit-image, skimage.data.{s['load'].__name__}() (skimage/data/{s['file']}); "
                     f"originally from {s['origin']}.")
        lines.append(f"  Author:  {s['author']}.")
        lines.append(f"  Licence: {s['licence']}")
        lines.append(f"  Edit:    {describe_edit(name, key, box, opts)}")
        lines.append("")
    return "\n".join(lines)


def mean_abs_diff(a, b):
    diff = ImageStat.Stat(ImageChops.difference(a, b)).mean
    return sum(diff) / len(diff)


def check(out, name, upright, opts):
    """Reads the file back as a viewer would and compares it with the upright crop."""
    path = os.path.join(out, album_path(name))
    with Image.open(path) as img:
        img.load()
        fmt, mode = img.format, img.mode
        tag = img.getexif().get(0x0112)
        shown = ImageOps.exif_transpose(img)
        if name.endswith(".jpg"):
            with open(path, "rb") as f:
                raw = f.read()
            sof2 = b"\xff\xc2" in raw[: raw.find(b"\xff\xda")]
            assert sof2 == bool(opts.get("progressive")), (name, "SOF2" if sof2 else "SOF0/1")
    assert tag == opts.get("orientation"), (name, tag)
    assert shown.size == upright.size, (name, shown.size, upright.size)
    a = shown.convert(upright.mode)
    mad = mean_abs_diff(a, upright)
    limit = 0.0 if fmt == "PNG" else 6.0  # JPEG quality 85 of the noisy Hubble field is about 4
    assert mad <= limit, (name, mad)
    # The right orientation must win clearly over every other way of showing the same pixels.
    for wrong in DISPLAY.values():
        other = upright.transpose(wrong)
        if other.size == a.size:
            assert mean_abs_diff(a, other) > 1.5 * mad + 1.0, (name, wrong, mad)
    if opts.get("alpha"):
        assert mode == "RGBA" and shown.getextrema()[3] == (0, 255), name
    return fmt, mode, tag, mad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names = [p[0] for p in PHOTOS]
    assert len(set(names)) == len(names)
    for name, key, box, opts in PHOTOS:
        upright = write(args.out, name, key, box, opts)
        fmt, mode, tag, mad = check(args.out, name, upright, opts)
        size = os.path.getsize(os.path.join(args.out, album_path(name)))
        print(f"{name:30} {fmt:4} {mode:4} orientation={tag!s:4} display={upright.size[0]}x{upright.size[1]:<5} "
              f"{size:>8} B  mean|diff|={mad:.2f}")
    with open(os.path.join(args.out, "CREDITS"), "w", encoding="utf-8") as f:
        f.write(credits_text())
    with open(os.path.join(args.out, "waterfall.json"), "w", encoding="utf-8") as f:
        json.dump({"title": "Waterfall sample gallery",
                   "description": "Photos from scikit-image's sample data: public domain and CC0. See CREDITS."},
                  f, indent=2, ensure_ascii=False)
        f.write("\n")
    for name, text in CAPTIONS.items():
        with open(os.path.join(args.out, os.path.splitext(name)[0] + ".txt"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
    for folder, settings in ALBUM_SETTINGS.items():
        with open(os.path.join(args.out, folder, "waterfall.json"), "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=2, ensure_ascii=False)
            f.write("\n")
    made = {album_path(n) for n in names} | {"CREDITS", "waterfall.json"}
    made |= {os.path.splitext(n)[0] + ".txt" for n in CAPTIONS} | {f + "/waterfall.json" for f in ALBUM_SETTINGS}
    present = {os.path.relpath(os.path.join(d, f), args.out) for d, _, fs in os.walk(args.out) for f in fs}
    extra = sorted(present - made)
    if extra:
        print("not made by this script (left alone):", ", ".join(extra), file=sys.stderr)
    total = sum(os.path.getsize(os.path.join(args.out, n)) for n in made)
    print(f"{len(PHOTOS)} photos, {total} bytes in all")


if __name__ == "__main__":
    main()
