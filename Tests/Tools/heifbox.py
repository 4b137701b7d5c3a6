"""An ISO-BMFF (HEIF) reader and writer small enough to read: the boxes the fixture, sample and benchmark
scripts assemble when heif-enc cannot write what they need (grids as iPhones store photos, irot, imir,
clap, Exif items, hostile boxes). Standard library only.
"""
from __future__ import annotations

import struct
from pathlib import Path


# ---------------------------------------------------------------- ISO-BMFF reading and writing

def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind: bytes, version: int, flags: int, payload: bytes) -> bytes:
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def boxes(data: bytes, start: int = 0, end: int | None = None):
    """(type, payload start, payload end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind, at + header, at + size
        at += size


def find(data: bytes, path: list[bytes], start: int = 0, end: int | None = None):
    """The payload range of the first box along `path` (meta and iinf/iloc are full boxes: the caller skips
    their 4 header bytes)."""
    for kind, s, e in boxes(data, start, end):
        if kind == path[0]:
            if len(path) == 1:
                return s, e
            inner = s + 4 if kind in (b"meta",) else s
            return find(data, path[1:], inner, e)
    raise KeyError(path)


class Coded:
    """What a single-image file made by heif-enc holds: the codec configuration box and the coded data."""

    def __init__(self, path: Path):
        data = path.read_bytes()
        meta_start, meta_end = find(data, [b"meta"])
        ipco_start, ipco_end = find(data, [b"meta", b"iprp", b"ipco"])
        self.config = None
        self.colr = None
        self.pixi = None
        for kind, s, e in boxes(data, ipco_start, ipco_end):
            whole = data[s - 8:e]
            if kind in (b"hvcC", b"av1C") and self.config is None:
                self.config = whole
                self.item_type = b"hvc1" if kind == b"hvcC" else b"av01"
            if kind == b"colr" and self.colr is None:
                self.colr = whole
            if kind == b"pixi" and self.pixi is None:
                self.pixi = whole
            if kind == b"ispe":
                self.width, self.height = struct.unpack(">II", data[s + 4:s + 12])
        pitm_start, _ = find(data, [b"meta", b"pitm"])
        primary = struct.unpack(">H", data[pitm_start + 4:pitm_start + 6])[0]
        self.data = self._item_data(data, primary)

    @staticmethod
    def _item_data(data: bytes, item: int) -> bytes:
        s, e = find(data, [b"meta", b"iloc"])
        version = data[s]
        at = s + 4
        sizes = data[at] << 8 | data[at + 1]
        offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
        index_size = sizes & 15 if version in (1, 2) else 0
        at += 2
        count = struct.unpack(">H", data[at:at + 2])[0]
        at += 2

        def number(n: int) -> int:
            nonlocal at
            value = int.from_bytes(data[at:at + n], "big") if n else 0
            at += n
            return value

        for _ in range(count):
            item_id = number(2)
            if version in (1, 2):
                number(2)  # construction method
            number(2)  # data reference index
            base = number(base_size)
            extents = number(2)
            parts = []
            for _ in range(extents):
                number(index_size)
                offset, length = number(offset_size), number(length_size)
                parts.append(data[base + offset:base + offset + length])
            if item_id == item:
                return b"".join(parts)
        raise KeyError(item)


def ispe(width: int, height: int) -> bytes:
    return full_box(b"ispe", 0, 0, struct.pack(">II", width, height))


def irot(quarter_turns_anticlockwise: int) -> bytes:
    return box(b"irot", bytes([quarter_turns_anticlockwise & 3]))


def imir(axis: int) -> bytes:
    return box(b"imir", bytes([axis & 1]))


def clap(width: int, height: int, horizontal_offset: int = 0, vertical_offset: int = 0) -> bytes:
    """A clean aperture of whole pixels, centred plus the offsets (in pixels, relative to the centre)."""
    return box(b"clap", struct.pack(">IIIIiIiI", width, 1, height, 1, horizontal_offset, 1, vertical_offset, 1))


def heif_file(brand: bytes, items: list[dict], primary: int, references: list[tuple[bytes, int, list[int]]] = ()) -> bytes:
    """A whole file. Each item: id, type, data, properties (boxes, in order), essential (indices into them),
    hidden. Item data goes to mdat in order; iloc points at it."""
    compatible = [b"mif1", brand, b"miaf"]
    ftyp = box(b"ftyp", brand + struct.pack(">I", 0) + b"".join(compatible))
    properties: list[bytes] = []
    associations = []
    for item in items:
        indices = []
        for number, prop in enumerate(item.get("properties", [])):
            if prop not in properties:
                properties.append(prop)
            index = properties.index(prop) + 1
            essential = number in item.get("essential", [])
            indices.append((essential, index))
        associations.append((item["id"], indices))

    def meta(mdat_start: int) -> bytes:
        hdlr = full_box(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\0" * 12 + b"\0")
        pitm = full_box(b"pitm", 0, 0, struct.pack(">H", primary))
        infos = b"".join(full_box(b"infe", 2, 1 if item.get("hidden") else 0,
                                  struct.pack(">HH", item["id"], 0) + item["type"] + b"\0") for item in items)
        iinf = full_box(b"iinf", 0, 0, struct.pack(">H", len(items)) + infos)
        entries = b""
        at = mdat_start + 8
        for item in items:
            entries += struct.pack(">HHHHII", item["id"], 0, 0, 1, at, len(item["data"]))
            at += len(item["data"])
        iloc = full_box(b"iloc", 1, 0, struct.pack(">BBH", 0x44, 0x00, len(items)) + entries)
        refs = b"".join(box(kind, struct.pack(">HH", source, len(targets)) + b"".join(struct.pack(">H", t) for t in targets))
                        for kind, source, targets in references)
        iref = full_box(b"iref", 0, 0, refs) if references else b""
        ipco = box(b"ipco", b"".join(properties))
        ipma_entries = b"".join(struct.pack(">HB", item_id, len(indices)) +
                                bytes((0x80 if essential else 0) | index for essential, index in indices)
                                for item_id, indices in associations)
        ipma = full_box(b"ipma", 0, 0, struct.pack(">I", len(associations)) + ipma_entries)
        iprp = box(b"iprp", ipco + ipma)
        return full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)

    size = len(ftyp) + len(meta(0))
    mdat = box(b"mdat", b"".join(item["data"] for item in items))
    return ftyp + meta(size) + mdat


def grid_descriptor(rows: int, columns: int, width: int, height: int) -> bytes:
    return struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
