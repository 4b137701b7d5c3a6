#!/usr/bin/env python3
"""Prints what sigal makes of a folder, as JSON: each album's title, description (HTML), cover and photos
(each photo's title and description). Run with the venv's Python, where sigal 2.5 is installed:
    .venv/bin/python Tests/Tools/sigal_facts.py FOLDER

It builds sigal's own Gallery (with its nomedia plugin) over FOLDER into a scratch destination, so the answer
is sigal's reading of the Markdown sidecars and .nomedia markers, not a copy of its rules. SigalImportTests
compares Waterfall's site with it; make_sigal_fixtures.py records it beside the fixtures.
"""
import json
import logging
import os
import sys
import tempfile
from urllib.parse import unquote


def facts(source):
    from sigal.gallery import Gallery
    from sigal.settings import create_settings
    from sigal.utils import init_plugins

    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as destination:
        settings = create_settings(source=os.path.abspath(source), destination=destination,
                                   plugins=["sigal.plugins.nomedia"])
        init_plugins(settings)
        gallery = Gallery(settings, ncpu=1)
        albums = {}
        for path, album in sorted(gallery.albums.items()):
            key = "" if path == "." else path
            albums[key] = {
                "title": album.title,
                "description": str(album.description),
                "cover": cover(album, key, settings),
                "photos": {media.src_filename: {"title": media.title, "description": str(media.description)}
                           for media in album.medias},
            }
        return albums


def cover(album, key, settings):
    """The source path (from the top) of the photo on the album's tile."""
    thumbnail = album.thumbnail
    if not thumbnail:
        return None
    parts = unquote(thumbnail).split("/")[1:]  # the album's own name first
    parts = [p for p in parts if p != settings["thumb_dir"]]
    name = "/".join(parts)
    return os.path.normpath(os.path.join(key, name)) if key else name


if __name__ == "__main__":
    json.dump(facts(sys.argv[1]), sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
