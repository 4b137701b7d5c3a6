#!/usr/bin/env python3
"""Builds a gallery of each public corpus and checks every file in it.

    run.py WATERFALL CORPORA_DIR [--record]

CORPORA_DIR holds one folder per corpus of corpora.json (a checkout of its repository). Each corpus is
copied (its photos and videos only, under plain names) into one input folder and built once. Then every
file must be either published, with a photo page whose view image has the shape Pillow reads for the file
(EXIF orientation applied) and, for an animation, as many frames, or skipped with a one-line reason. expected.json records which files are
skipped and why; any other outcome fails, and so does a build that does not finish. --record writes
expected.json from this run, to be reviewed in the diff.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MEDIA = {".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".avifs", ".heic", ".heif", ".hif", ".tif", ".tiff",
         ".bmp", ".dng", ".mp4", ".mov", ".m4v", ".webm", ".ogv", ".avi", ".mkv"}


def plain_name(index, relative):
    stem, extension = os.path.splitext(relative)
    stem = re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-")[:60]
    return f"{index:03d}-{stem}{extension.lower()}"


def gather(corpus_dir, input_dir):
    """Copies the corpus's media files into input_dir: plain name -> path in the corpus."""
    found = []
    for root, folders, files in os.walk(corpus_dir):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(files):
            if os.path.splitext(name)[1].lower() in MEDIA:
                found.append(os.path.relpath(os.path.join(root, name), corpus_dir))
    names = {}
    for index, relative in enumerate(found):
        name = plain_name(index, relative)
        shutil.copyfile(os.path.join(corpus_dir, relative), os.path.join(input_dir, name))
        names[name] = relative
    return names


def pillow_frames(path):
    """How many frames Pillow reads in an animation (a GIF, a WebP, an AVIF sequence), 1 for a still, or None
    where it cannot read the file. (A HEIF's other top-level images are a collection, not frames.)"""
    try:
        from PIL import Image
        with Image.open(path) as image:
            animation = image.format in ("GIF", "WEBP") or path.endswith(".avifs")
            return getattr(image, "n_frames", 1) if animation else 1
    except Exception:
        return None


def pillow_shape(path):
    """(width, height) as displayed, or None where Pillow cannot read the file."""
    try:
        from PIL import Image, ImageOps
        try:
            import pillow_heif
            pillow_heif.register_heif_opener()
        except ImportError:
            pass
        with Image.open(path) as image:
            # pillow-heif turns a HEIF itself; Pillow gives an AVIF's irot and imir as an EXIF orientation.
            image = ImageOps.exif_transpose(image) if image.format != "HEIF" else image
            return image.size
    except Exception:
        return None


def view_shape(page):
    """The photo page's view: ((width, height), its image's path in the site or None for a video), or None."""
    with open(page, encoding="utf-8") as file:
        html = file.read()
    for tag in re.findall(r"<(?:img|video)\b[^>]*>", html):
        width, height = re.search(r'\bwidth="(\d+)"', tag), re.search(r'\bheight="(\d+)"', tag)
        if width and height and "wf-" not in tag.split(" ")[0]:
            source = re.search(r'\bsrc="\.\./([^"]+)"', tag) if tag.startswith("<img") else None
            return (int(width.group(1)), int(height.group(1))), source.group(1) if source else None
    return None


def check_corpus(binary, name, corpus_dir, expected, work):
    input_dir = os.path.join(work, "in", name)
    output = os.path.join(work, "out", name)
    os.makedirs(input_dir)
    names = gather(corpus_dir, input_dir)
    run = subprocess.run([binary, "build", input_dir, "-o", output, "--cache-dir", os.path.join(work, "cache"),
                          "--report", "json", "--quiet"], capture_output=True, text=True, timeout=3600)
    problems, outcome = [], {}
    if run.returncode != 0:
        problems.append(f"{name}: the build exited {run.returncode}: {run.stderr.strip()[-400:]}")
        return problems, outcome
    report = json.loads(run.stdout)
    skipped = {os.path.basename(item["path"]): item["reason"] for item in report["skipped"]}
    for plain, relative in sorted(names.items()):
        if plain in skipped:
            reason = skipped[plain]
            outcome[relative] = "skipped: " + reason
            if "\n" in reason or not reason.strip():
                problems.append(f"{name}/{relative}: skipped without a one-line reason: {reason!r}")
            continue
        page = os.path.join(output, "photos", plain + ".html")
        if not os.path.exists(page):
            problems.append(f"{name}/{relative}: neither published nor skipped")
            continue
        outcome[relative] = "published"
        view, oracle = view_shape(page), pillow_shape(os.path.join(input_dir, plain))
        shape = view[0] if view else None
        # An animation's view is an animation of as many frames as Pillow reads in the file.
        frames = pillow_frames(os.path.join(input_dir, plain))
        if view and view[1] and frames and frames > 1 and pillow_frames(os.path.join(output, view[1])) != frames:
            problems.append(f"{name}/{relative}: {frames} frames, but its view {view[1]} has "
                            f"{pillow_frames(os.path.join(output, view[1]))}")
        if shape and oracle and abs(shape[0] / shape[1] - oracle[0] / oracle[1]) > 0.02 * oracle[0] / oracle[1] + 1 / min(shape):
            problems.append(f"{name}/{relative}: published {shape[0]}x{shape[1]}, but Pillow reads {oracle[0]}x{oracle[1]}")
    for relative, result in outcome.items():
        want = expected.get(name, {}).get(relative, "published")
        if result != want:
            problems.append(f"{name}/{relative}: {result}; expected.json says {want}")
    return problems, outcome


def fetch(corpus, folder):
    """Clones the corpus at its pinned commit; False when that cannot be done (no network)."""
    temporary = folder + ".part"
    shutil.rmtree(temporary, ignore_errors=True)
    steps = [["git", "init", "-q", temporary],
             ["git", "-C", temporary, "fetch", "-q", "--depth", "1", corpus["repository"], corpus["commit"]],
             ["git", "-C", temporary, "checkout", "-q", "FETCH_HEAD"]]
    for step in steps:
        if subprocess.run(step, capture_output=True).returncode != 0:
            shutil.rmtree(temporary, ignore_errors=True)
            return False
    os.rename(temporary, folder)
    return True


def main():
    binary, corpora_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    record = "--record" in sys.argv
    with open(os.path.join(HERE, "corpora.json")) as file:
        corpora = json.load(file)["corpora"]
    expected_path = os.path.join(HERE, "expected.json")
    expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {}
    problems, recorded = [], {}
    with tempfile.TemporaryDirectory() as work:
        for corpus in corpora:
            folder = os.path.join(corpora_dir, corpus["name"])
            if not os.path.isdir(folder) and not fetch(corpus, folder):
                problems.append(f"{corpus['name']}: missing, and it could not be fetched from {corpus['repository']}")
                continue
            found, outcome = check_corpus(binary, corpus["name"], folder, expected, work)
            published = sum(1 for result in outcome.values() if result == "published")
            print(f"{corpus['name']:20} {len(outcome):4} files  {published:4} published  {len(outcome) - published:4} skipped")
            recorded[corpus["name"]] = {k: v for k, v in sorted(outcome.items()) if v != "published"}
            problems += found
    if record:
        with open(expected_path, "w") as file:
            json.dump(recorded, file, indent=2, ensure_ascii=False)
            file.write("\n")
        print(f"recorded {expected_path}")
    shape_problems = [p for p in problems if "expected.json says" not in p or not record]
    for problem in shape_problems:
        print("FAIL " + problem)
    return 1 if shape_problems else 0


if __name__ == "__main__":
    sys.exit(main())
