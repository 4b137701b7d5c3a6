"""Every format fixture's display size, as an independent reader sees it, against expected.json and against
what `waterfall inspect` says: Pillow (with pillow-heif for HEIC and AVIF, its own recent libheif), which
applies HEIF's irot, imir and clap, shows a WebP's canvas and a GIF's logical screen, as browsers do, and
turns a TIFF upright by its Orientation tag as it opens it, as `inspect`'s display size is.

Fixtures live in Tests/WaterfallKitTests/Fixtures/formats/<format>/ with an expected.json made by the
format's script (Tests/Tools/make_*_fixtures.py); a folder added later is picked up here.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pillow_heif
import pytest
from PIL import Image

pillow_heif.register_heif_opener()

ROOT = Path(__file__).resolve().parents[1] / "WaterfallKitTests" / "Fixtures" / "formats"
WATERFALL = os.environ.get("WATERFALL_BIN", ".build/debug/waterfall")


def entries(folder: Path) -> list[dict]:
    """expected.json as a list of {file, format, width, height, frames?, error?}; the scripts write either a
    list under "fixtures" or an object keyed by file name."""
    data = json.loads((folder / "expected.json").read_text())
    if "fixtures" in data:
        return data["fixtures"]
    return [{"file": name, **entry} for name, entry in data.items() if isinstance(entry, dict)]


# "pillowRefuses": a file Waterfall reads the header of but Pillow will not open (a canvas over its
# decompression-bomb limit), recorded by the fixture script.
READABLE = [(folder.name, entry) for folder in sorted(ROOT.iterdir()) if (folder / "expected.json").exists()
            for entry in entries(folder) if "error" not in entry and "pillowRefuses" not in entry]


@pytest.fixture(scope="module")
def inspected() -> dict[str, dict]:
    files = [str(ROOT / folder / entry["file"]) for folder, entry in READABLE]
    run = subprocess.run([WATERFALL, "inspect", "--json", *files], capture_output=True, text=True)
    return {row["path"]: row for row in json.loads(run.stdout)}


def test_every_format_folder_has_readable_fixtures():
    formats = {entry["format"] for _, entry in READABLE}
    assert {"heic", "avif"} <= formats, formats


def independent_size(path: Path, format: str) -> tuple[tuple[int, int], int]:
    """(width, height), frames. HEIC and AVIF through pillow-heif itself: Pillow's own AVIF plugin reports
    the stored size and leaves irot and imir to an orientation tag."""
    if format in ("heic", "avif"):
        image = pillow_heif.open_heif(path, convert_hdr_to_8bit=False)
        return image.size, 1
    with Image.open(path) as image:
        return image.size, getattr(image, "n_frames", 1)


@pytest.mark.parametrize("folder,entry", READABLE, ids=[f"{f}/{e['file']}" for f, e in READABLE])
def test_pillow_and_inspect_agree_with_expected(folder, entry, inspected):
    path = ROOT / folder / entry["file"]
    pillow_size, pillow_frames = independent_size(path, entry["format"])
    expected = (entry["width"], entry["height"])
    assert pillow_size == expected, f"Pillow shows {pillow_size}, expected.json says {expected}"
    row = inspected[str(path)]
    assert (row.get("width"), row.get("height")) == expected, f"inspect says {row}"
    assert row["format"] == entry["format"]
    if entry.get("frames", 1) > 1:
        # "pillowFrames": where Pillow is known to count otherwise (a GIF cut inside a frame: Pillow counts the
        # cut frame, Waterfall plays the whole ones), recorded by the fixture script.
        assert row.get("animated") is True and row.get("frames") == entry["frames"], row
        assert pillow_frames == entry.get("pillowFrames", entry["frames"]), row
    else:
        assert "animated" not in row, row
