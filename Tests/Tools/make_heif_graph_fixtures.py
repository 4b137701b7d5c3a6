#!/usr/bin/env python3
"""Makes the hostile HEIF item graphs in Tests/WaterfallKitTests/Fixtures/formats/heif-graphs, and expected.json;
the grids with holes in Fixtures/formats/heif-holes; with --items N FILE, one HEIC of N items for measuring (not
a fixture).

Run it again only on purpose (the files are committed); standard library only:
    python3 Tests/Tools/make_heif_graph_fixtures.py
    python3 Tests/Tools/make_heif_graph_fixtures.py --items 19000 /tmp/many.heic

Each file is a few hundred bytes of boxes (heifbox.py): derived images (`grid`, `iden`, `iovl`) whose `dimg`
references form a ring (libheif 1.15 follows such a ring until it dereferences a bad pointer: SIGSEGV), one
that names itself, derivations nested deeper than any camera writes, and item, tile and reference counts
past Waterfall's limits (heif_graph.h), and alpha images in a ring (libheif 1.15 decodes them forever). The well-formed tile some of them need is the coded image of the
committed still.heic or still.avif. expected.json says what every reader must answer: the error kind and
the start of its one-line message.

heif-holes holds grids whose tiles leave part of the picture uncovered: a grid taller than its one tile, and a
tile that declares (`ispe`) twice the height it is coded at. libheif 1.15 leaves those rows as the memory it
got: readable files, which must come out the same (black there) on every build.
"""
from __future__ import annotations

import json
import shutil
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heifbox import Coded, box, full_box, grid_descriptor, heif_file, ispe  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FORMATS = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "formats"
OUT = FORMATS / "heif-graphs"
HOLES = FORMATS / "heif-holes"

# Waterfall's limits (Sources/CImageIO/heif/heif_graph.h): keep them in step.
MAX_ITEMS = 2048
MAX_REFERENCES = 8192
MAX_DECODED_IMAGES = 4096
MAX_DEPTH = 6


def derived(item_id: int, kind: bytes, size: int = 64, data: bytes | None = None) -> dict:
    """A derived image item of `kind` (its data: a grid or overlay descriptor for one input, where it has one)."""
    if data is None:
        if kind == b"grid":
            data = grid_descriptor(1, 1, size, size)
        elif kind == b"iovl":
            # version 0, flags 0 (16-bit fields): a fill colour, the output size, one input's offset
            data = struct.pack(">BB4HHHhh", 0, 0, 0, 0, 0, 0xFFFF, size, size, 0, 0)
        else:
            data = b""
    return {"id": item_id, "type": kind, "data": data, "properties": [ispe(size, size)]}


def ring(brand: bytes, kinds: list[bytes]) -> bytes:
    """Items 1..n of the given kinds, each deriving from the next and the last from the first."""
    items = [derived(1 + k, kind) for k, kind in enumerate(kinds)]
    references = [(b"dimg", 1 + k, [1 + (k + 1) % len(kinds)]) for k in range(len(kinds))]
    return heif_file(brand, items, 1, references)


def alpha_ring() -> bytes:
    """Two coded images, each an `auxl` alpha image of the other."""
    alpha = full_box(b"auxC", 0, 0, b"urn:mpeg:hevc:2015:auxid:1\0")
    first, second = coded_tile(b"heic", 1), coded_tile(b"heic", 2)
    first["hidden"] = False
    for item in (first, second):
        item["properties"] = item["properties"] + [alpha]
    return heif_file(b"heic", [first, second], 1, [(b"auxl", 1, [2]), (b"auxl", 2, [1])])


def grid_alpha_ring() -> bytes:
    """A grid (1) of one tile (2) whose alpha image is a grid (3) made of the first grid."""
    alpha = full_box(b"auxC", 0, 0, b"urn:mpeg:hevc:2015:auxid:1\0")
    size = Coded(FORMATS / "heif" / "still.heic").width
    grid, mask = derived(1, b"grid", size), derived(3, b"grid", size)
    mask["properties"] = mask["properties"] + [alpha]
    mask["hidden"] = True
    return heif_file(b"heic", [grid, coded_tile(b"heic", 2), mask], 1,
                     [(b"dimg", 1, [2]), (b"auxl", 3, [1]), (b"dimg", 3, [1])])


def coded_tile(brand: bytes, item_id: int) -> dict:
    coded = Coded(FORMATS / "heif" / ("still.avif" if brand == b"avif" else "still.heic"))
    return {"id": item_id, "type": coded.item_type, "data": coded.data, "hidden": True,
            "properties": [coded.config, ispe(coded.width, coded.height)], "essential": [0]}


def nested(brand: bytes, depth: int) -> bytes:
    """`depth` grids, each the single tile of the one before, over one coded tile."""
    tile = coded_tile(brand, depth + 1)
    size = Coded(FORMATS / "heif" / ("still.avif" if brand == b"avif" else "still.heic")).width
    items = [derived(1 + k, b"grid", size) for k in range(depth)]
    for item in items[1:]:
        item["hidden"] = True
    references = [(b"dimg", 1 + k, [2 + k]) for k in range(depth)]
    return heif_file(brand, items + [tile], 1, references)


def wide_grid(brand: bytes, rows: int, columns: int) -> bytes:
    """A grid of rows × columns tiles that all name one coded image (one reference each)."""
    tile = coded_tile(brand, 2)
    grid = derived(1, b"grid", 64, grid_descriptor(rows, columns, columns * 64, rows * 64))
    grid["properties"] = [ispe(columns * 64, rows * 64)]
    return heif_file(brand, [grid, tile], 1, [(b"dimg", 1, [2] * (rows * columns))])


def cheap_items(count: int) -> bytes:
    """A plain HEIC (still.heic's image, item 1) and count - 1 `Exif` items of no data: the fewest bytes an
    item can take (21), for the fixture over the item limit."""
    items = [coded_tile(b"heic", 1)] + [{"id": k, "type": b"Exif", "data": b""} for k in range(2, count + 1)]
    items[0]["hidden"] = False
    return heif_file(b"heic", items, 1)


def many_references(count: int) -> bytes:
    """A plain HEIC and an Exif item that says `count` times that it describes the image (`cdsc`)."""
    image = coded_tile(b"heic", 1)
    image["hidden"] = False
    exif = {"id": 2, "type": b"Exif", "data": b""}
    return heif_file(b"heic", [image, exif], 1, [(b"cdsc", 2, [1] * count)])


def many_associations(count: int) -> bytes:
    """A plain HEIC whose ipma lists its one image `count` times (libheif looks every item up in each entry)."""
    image = coded_tile(b"heic", 1)
    image["hidden"] = False
    data = heif_file(b"heic", [image], 1)
    entry = struct.pack(">HB", 1, 2) + bytes([0x81, 0x02])
    old = full_box(b"ipma", 0, 0, struct.pack(">I", 1) + entry)
    new = full_box(b"ipma", 0, 0, struct.pack(">I", count) + entry * count)
    grown = len(new) - len(old)
    at = data.index(old)
    data = data[:at] + new + data[at + len(old):]
    # meta and iprp grow; iloc's offsets into mdat move with them.
    for kind in (b"meta", b"iprp"):
        start = data.index(kind) - 4
        data = data[:start] + struct.pack(">I", struct.unpack(">I", data[start:start + 4])[0] + grown) + data[start + 4:]
    iloc = data.index(b"iloc") + 4 + 4 + 4  # after version/flags, sizes and count: the first entry
    offset_at = iloc + 2 + 2 + 2 + 2  # id, construction method, data reference, extent count
    offset = struct.unpack(">I", data[offset_at:offset_at + 4])[0]
    return data[:offset_at] + struct.pack(">I", offset + grown) + data[offset_at + 4:]


def many_items(count: int) -> bytes:
    """A plain HEIC (still.heic's image as item 1, primary) and count - 1 more items: hidden `mime` items of
    no data, each with an iloc entry (libheif 1.15 looks every item up in iloc: its parse grows with the
    square of such items). 32-bit item ids (iinf 1, infe 3, iloc 2), so that counts past 65,535 fit."""
    tile = coded_tile(b"heic", 1)
    tile["hidden"] = False
    ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heicmiaf")
    hdlr = full_box(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\0" * 13)
    pitm = full_box(b"pitm", 1, 0, struct.pack(">I", 1))
    infos = [full_box(b"infe", 3, 0, struct.pack(">IH", 1, 0) + tile["type"] + b"\0")]
    infos += [full_box(b"infe", 3, 1, struct.pack(">IH", k, 0) + b"mime" + b"\0" + b"text/plain\0") for k in range(2, count + 1)]
    iinf = full_box(b"iinf", 1, 0, struct.pack(">I", count) + b"".join(infos))
    ipco = box(b"ipco", b"".join(tile["properties"]))
    ipma = full_box(b"ipma", 1, 0, struct.pack(">IIB", 1, 1, 2) + bytes([0x81, 0x02]))
    iprp = box(b"iprp", ipco + ipma)

    def meta(mdat_start: int) -> bytes:
        # iloc version 2: 32-bit ids; offset and length 4 bytes, no base offset; one extent for the image,
        # none for the others.
        entries = struct.pack(">IHHHII", 1, 0, 0, 1, mdat_start + 8, len(tile["data"]))
        entries += b"".join(struct.pack(">IHHH", k, 0, 0, 0) for k in range(2, count + 1))
        iloc = full_box(b"iloc", 2, 0, struct.pack(">BBI", 0x44, 0x00, count) + entries)
        return full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iprp)

    head = len(ftyp) + len(meta(0))
    return ftyp + meta(head) + box(b"mdat", tile["data"])


def uncovered(brand: bytes, lying_tile: bool) -> bytes:
    """A grid of one coded tile, twice as tall as the tile is coded: the tile declares its coded size (the grid's
    lower half is in no tile), or, with `lying_tile`, the grid's size (its lower half is not in the bitstream)."""
    coded = Coded(FORMATS / "heif" / ("still.avif" if brand == b"avif" else "still.heic"))
    tile = coded_tile(brand, 2)
    if lying_tile:
        tile["properties"] = [coded.config, ispe(coded.width, 2 * coded.height)]
    grid = derived(1, b"grid", data=grid_descriptor(1, 1, coded.width, 2 * coded.height))
    grid["properties"] = [ispe(coded.width, 2 * coded.height)]
    return heif_file(brand, [grid, tile], 1, [(b"dimg", 1, [2])])


def make_holes() -> None:
    if HOLES.exists():
        shutil.rmtree(HOLES)
    HOLES.mkdir(parents=True)
    (HOLES / "grid-taller-than-tile.heic").write_bytes(uncovered(b"heic", lying_tile=False))
    (HOLES / "grid-taller-than-tile.avif").write_bytes(uncovered(b"avif", lying_tile=False))
    (HOLES / "tile-coded-smaller.heic").write_bytes(uncovered(b"heic", lying_tile=True))
    print(f"3 fixtures in {HOLES.relative_to(REPO)}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--items":
        Path(sys.argv[3]).write_bytes(many_items(int(sys.argv[2])))
        return
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected: list[dict] = []

    def refused(name: str, data: bytes, message: str, note: str, kind: str = "corrupt") -> None:
        (OUT / name).write_bytes(data)
        expected.append({"file": name, "error": {"kind": kind, "message": message}, "note": note})

    for brand, suffix, fmt in ((b"heic", "heic", "HEIF"), (b"avif", "avif", "AVIF")):
        ring_message = f"corrupt {fmt}: its image items refer to each other in a ring"
        refused(f"ring-grid.{suffix}", ring(brand, [b"grid", b"grid"]), ring_message,
                "a grid whose tile is a grid whose tile is the first (libheif 1.15: SIGSEGV)")
        refused(f"ring-iden.{suffix}", ring(brand, [b"iden", b"iden"]), ring_message,
                "two identity-derived images, each derived from the other (libheif 1.15: SIGSEGV)")
        refused(f"ring-iovl.{suffix}", ring(brand, [b"iovl", b"iovl"]), ring_message,
                "two overlays, each the other's input (libheif 1.15: SIGSEGV)")
        refused(f"ring-self.{suffix}", ring(brand, [b"grid"]), ring_message, "a grid whose tile is itself")
        refused(f"ring-long.{suffix}", ring(brand, [b"grid", b"iden", b"iovl", b"grid", b"iden"]), ring_message,
                "a ring through five items of the three derived kinds (libheif 1.15: SIGSEGV)")
        refused(f"nested-too-deep.{suffix}", nested(brand, MAX_DEPTH + 1),
                f"unsupported {fmt}: image items derived from each other {MAX_DEPTH + 1} deep",
                f"{MAX_DEPTH + 1} grids, each the one tile of the one before: no camera nests derived images so deep "
                f"(an `iden` over a grid with an alpha grid is 3)", kind="unsupported")
    # libheif reads an iref's references one after the other whatever size each declares (found by make
    # fuzz-smoke): a ring behind a reference whose box claims 6 bytes is still a ring.
    lying = bytearray(ring(b"heic", [b"iden", b"iden"]))
    second = lying.index(b"dimg", lying.index(b"dimg") + 4) - 4
    lying[second:second + 4] = struct.pack(">I", 6)
    refused("ring-reference-size.heic", bytes(lying), "corrupt HEIF: its image items refer to each other in a ring",
            "ring-iden.heic with its second reference's size set to 6: libheif 1.15 reads it anyway (SIGSEGV)")
    refused("ring-auxl.heic", alpha_ring(), "corrupt HEIF: its image items refer to each other in a ring",
            "two images, each the alpha image of the other (libheif 1.15 decodes them forever)")
    refused("ring-grid-alpha.heic", grid_alpha_ring(), "corrupt HEIF: its image items refer to each other in a ring",
            "a grid whose alpha image is a grid made of the first (libheif 1.15 decodes it forever)")
    refused("tiles-over-limit.heic", wide_grid(b"heic", 65, 64),
            f"unsupported HEIF: its picture is made of {65 * 64 + 1} images",
            f"a 64×65 grid naming one tile 4,160 times: over the {MAX_DECODED_IMAGES}-image limit (an iPhone photo is 49)",
            kind="unsupported")
    refused("references-over-limit.heic", many_references(MAX_REFERENCES + 1),
            f"unsupported HEIF: more than {MAX_REFERENCES} item references",
            f"an Exif item that describes the image {MAX_REFERENCES + 1} times: over the {MAX_REFERENCES}-reference limit",
            kind="unsupported")
    refused("associations-over-limit.heic", many_associations(MAX_ITEMS + 1),
            f"unsupported HEIF: properties for {MAX_ITEMS + 1} items",
            f"ipma lists the one image {MAX_ITEMS + 1} times: over the {MAX_ITEMS}-item limit", kind="unsupported")
    refused("items-over-limit.heic", cheap_items(MAX_ITEMS + 1), f"unsupported HEIF: more than {MAX_ITEMS} items",
            f"a photo and {MAX_ITEMS} empty Exif items: over the {MAX_ITEMS}-item limit (an iPhone photo has about 50)",
            kind="unsupported")

    (OUT / "expected.json").write_text(json.dumps({
        "made by": "Tests/Tools/make_heif_graph_fixtures.py",
        "fixtures": expected,
    }, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(expected)} fixtures in {OUT.relative_to(REPO)}")
    make_holes()


if __name__ == "__main__":
    main()
