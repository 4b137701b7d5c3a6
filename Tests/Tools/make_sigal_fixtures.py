#!/usr/bin/env python3
"""Builds the sigal gallery fixture in Tests/WaterfallKitTests/Fixtures/sigal/: a folder as a sigal user has
one (photos, NAME.md sidecars, albums' index.md, .nomedia markers), and sigal-facts.json, what sigal 2.5 makes
of it (sigal_facts.py). SigalImportTests builds it with Waterfall and compares; where sigal is installed it
also runs sigal again, so the recorded facts cannot drift from sigal's.

The photos are one 64x48 JPEG of the header fixtures, copied. Rerun only to re-record on purpose:
    .venv/bin/python Tests/Tools/make_sigal_fixtures.py
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "WaterfallKitTests", "Fixtures")
OUT = os.path.join(FIXTURES, "sigal")
PHOTO = os.path.join(FIXTURES, "headers", "J01-baseline-jfif.jpg")

FILES = {
    # The top album: its title, a cover in a sub-folder (sigal allows one), and a Markdown description.
    "pictures/index.md": "Title: Summer 2024\nThumbnail: beach/IMG_0011.jpg\n\n"
                         "Photos from **our** summer, with a [map](https://example.com/map).\n",
    # A YAML-style block (--- ... ---), a key sigal keeps but shows nowhere (Author), and a table.
    "pictures/IMG_0001.md": "---\nTitle: The first photo\nDate: 2024-06-01T10:30:00\nAuthor: Someone\n---\n\n"
                            "An *emphasised* word and a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    # sigal reads IMG_0002.md, never IMG_0002.jpg.md.
    "pictures/IMG_0002.jpg.md": "Title: Never read\n\nsigal does not read this file.\n",
    # Hostile: raw HTML and a javascript: link (sigal passes both through; Waterfall must not).
    "pictures/IMG_0003.md": "Title: Hostile\n\n<script>alert(\"md\")</script>\n\n"
                            "Click [here](javascript:alert(1)) <img src=x onerror=alert(2)>.\n",
    # A title continued on a second line (sigal keeps the first), a cover that is not the first photo.
    "pictures/beach/index.md": "Title: At the beach\n    and the dunes\nThumbnail: IMG_0012.jpg\n\nSand and *sea*.\n",
    # A description and no title: sigal shows the file's name as the title.
    "pictures/beach/IMG_0011.md": "Waves, seen from the dunes.\n",
    "pictures/beach/IMG_0012.md": "title: Lower-case key\n\nThe cover of its album.\n",
    # sigal's nomedia plugin: a list of names, and an empty marker (the whole folder).
    "pictures/beach/.nomedia": "IMG_0013.jpg\n",
    "pictures/hidden/.nomedia": "",
}
PHOTOS = ["pictures/IMG_0001.jpg", "pictures/IMG_0002.jpg", "pictures/IMG_0003.jpg", "pictures/beach/IMG_0011.jpg",
          "pictures/beach/IMG_0012.jpg", "pictures/beach/IMG_0013.jpg", "pictures/hidden/IMG_0021.jpg"]


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for name, text in FILES.items():
        path = os.path.join(OUT, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    for name in PHOTOS:
        os.makedirs(os.path.dirname(os.path.join(OUT, name)), exist_ok=True)
        shutil.copyfile(PHOTO, os.path.join(OUT, name))
    sys.path.insert(0, HERE)
    import sigal_facts  # noqa: E402
    with open(os.path.join(OUT, "sigal-facts.json"), "w", encoding="utf-8") as f:
        json.dump(sigal_facts.facts(os.path.join(OUT, "pictures")), f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
