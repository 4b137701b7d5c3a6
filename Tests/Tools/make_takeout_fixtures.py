#!/usr/bin/env python3
"""Builds the Google Takeout sidecar fixtures in Tests/WaterfallKitTests/Fixtures/takeout/.

Only the JSON files are written (as Takeout writes them: two-space indents, the timestamp a string, GPS in
geoData/geoDataExif); the Swift test (TakeoutSidecarTests.swift) copies one small JPEG under each photo name
listed in PHOTOS, so no image is stored twice. Each case is one naming rule of Takeout's (the 46-character
cut, supplemental-metadata, the duplicate counter moved after the extension, edited copies) or a file that
must not be used (a title that is only the file's name, broken JSON).

Standard library only. The output is committed; rerun this only to re-record on purpose:
    python3 Tests/Tools/make_takeout_fixtures.py
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "WaterfallKitTests", "Fixtures", "takeout")

# A place the site must never show (the test greps every file for these figures).
GEO = {"latitude": 48.8583701, "longitude": 2.2944813, "altitude": 35.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0}

LONG = "PXL_20230615_101010123.PORTRAIT.jpg"  # 35 characters: the supplemental suffix is cut at 46
LONGER = "A_very_long_photo_file_name_from_a_phone_camera_1.jpg"  # 53: the JSON cuts the name itself
ACCENTED = "Été_à_la_plage_avec_toute_la_famille_réunie_2023.jpg"  # 52 scalars, more bytes

# The photo names the test makes, and the JSON each case writes (name, title, description, timestamp).
PHOTOS = ["IMG_0001.jpg", "IMG_0002.jpg", LONG, LONGER, "IMG_0005.jpg", "IMG_0006.jpg", "IMG_0006(1).jpg",
          "IMG_0007.jpg", "IMG_0007-edited.jpg", "IMG_0008.jpg", "IMG_0009.jpg", ACCENTED]
CASES = [
    ("IMG_0001.jpg.json", "Sunset at the pier", "First light over the water", "1700000000"),
    ("IMG_0002.jpg.supplemental-metadata.json", "IMG_0002.jpg", "Its title is only its name", "1600000000"),
    ((LONG + ".supplemental-metadata")[:46] + ".json", LONG, "The supplemental suffix cut short", ""),
    (LONGER[:46] + ".json", LONGER, "The name itself cut short", ""),
    ("IMG_0005.json", "IMG_0005.jpg", "Named without the extension", ""),
    ("IMG_0006.jpg.json", "IMG_0006.jpg", "The first of two", ""),
    ("IMG_0006.jpg(1).json", "IMG_0006.jpg", "The duplicate", ""),
    ("IMG_0007.jpg.json", "IMG_0007.jpg", "Shared with its edited copy", ""),
    ("IMG_0009.jpg.json", "Not this title", "The description only Takeout gives", "1500000000"),
    ((ACCENTED + ".supplemental-metadata")[:46] + ".json", ACCENTED, "Accented name cut at 46 characters", ""),
    ("notes.json", "No photo", "A JSON file beside no photo", ""),
]


def takeout(title, description, timestamp):
    """A sidecar shaped as Takeout writes one."""
    doc = {"title": title, "description": description, "imageViews": "3",
           "creationTime": {"timestamp": "1710000000", "formatted": "Mar 9, 2024, 4:00:00 PM UTC"}}
    if timestamp:
        doc["photoTakenTime"] = {"timestamp": timestamp, "formatted": "(ignored)"}
    doc.update({"geoData": GEO, "geoDataExif": GEO, "people": [{"name": "Someone Private"}],
                "url": "https://photos.google.com/photo/AF1QipN-private",
                "googlePhotosOrigin": {"mobileUpload": {"deviceType": "ANDROID_PHONE"}}})
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for name, title, description, timestamp in CASES:
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(takeout(title, description, timestamp))
    # Broken JSON: one warning, and the photo is still published.
    with open(os.path.join(OUT, "IMG_0008.jpg.json"), "w") as f:
        f.write('{\n  "title": "IMG_0008.jpg",\n  "description": \n')
    # NAME.txt gives the title; Takeout, last in precedence, only the description and the date.
    with open(os.path.join(OUT, "IMG_0009.txt"), "w") as f:
        f.write("Title from the text file\n")
    with open(os.path.join(OUT, "photos.list"), "w", encoding="utf-8") as f:
        f.write("".join(name + "\n" for name in PHOTOS))


if __name__ == "__main__":
    main()
