#!/usr/bin/env python3
"""Builds the EXIF-facts fixtures in Tests/WaterfallKitTests/Fixtures/exif/.

JPEGs are encoded by libjpeg (make_header_fixtures.encode) and get an Exif APP1 built here; PNGs are made
with zlib. Each case is a fact the reader must find, or a hostile structure it must survive. The expected
answers live in the Swift tests (ExifFixtureTests.swift), not here.

Standard library only. The output is committed; rerun this only to re-record on purpose:
    python3 Tests/Tools/make_exif_fixtures.py
"""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_header_fixtures as h  # noqa: E402  (encode, insert_after_soi, split, join, png, chunk, ...)

OUT = os.path.join(HERE, "..", "WaterfallKitTests", "Fixtures", "exif")
SMALL = None  # a 64x48 JPEG from libjpeg, made once in main(); every JPEG case is it plus segments

# ---- TIFF values ----------------------------------------------------------------------------------------
# A value is (type, count, payload bytes in the file's byte order); build() places payloads over 4 bytes
# after their IFD and writes the offset. A payload may be a callable taking the byte order, for numbers.

ASCII, SHORT, LONG, RATIONAL, UNDEFINED = 2, 3, 4, 5, 7


def ascii(text, count=None):
    data = (text.encode("utf-8") if isinstance(text, str) else text) + b"\x00"
    return (ASCII, len(data) if count is None else count, data)


def short(value, count=1):
    return (SHORT, count, lambda e: struct.pack(e + "H", value))


def long(value, count=1):
    return (LONG, count, lambda e: struct.pack(e + "I", value))


def rational(*pairs):
    return (RATIONAL, len(pairs), lambda e: b"".join(struct.pack(e + "II", n, d) for n, d in pairs))


def pointer(name):
    """An IFD pointer (LONG) to the IFD called `name` in build()."""
    return (LONG, 1, name)


def raw_offset(type_, count, offset):
    """An entry whose value field is the given offset, whatever the type and count claim."""
    return (type_, count, ("offset", offset))


def build(order, ifds, next_of_ifd0=0, gaps=None):
    """A TIFF structure. ifds: [(name, [(tag, value)])], the first is IFD0; gaps: {name: filler bytes placed
    before that IFD}. Returns (bytes, {name: offset})."""
    gaps = gaps or {}
    e = "<" if order == "II" else ">"

    def payload(value):
        type_, count, data = value
        return data(e) if callable(data) else data

    def out_of_line(value):
        data = value[2]
        return not isinstance(data, (str, tuple)) and len(payload(value)) > 4

    offsets, position = {}, 8
    for name, entries in ifds:
        position += gaps.get(name, 0)
        offsets[name] = position
        position += 2 + 12 * len(entries) + 4
        for _, value in entries:
            if out_of_line(value):
                position += (len(payload(value)) + 1) & ~1
    body = bytearray((b"II*\x00" if order == "II" else b"MM\x00*") + struct.pack(e + "I", 8))
    for index, (name, entries) in enumerate(ifds):
        body += b"\xAA" * gaps.get(name, 0)
        assert len(body) == offsets[name]
        data_at = offsets[name] + 2 + 12 * len(entries) + 4
        table, data = bytearray(struct.pack(e + "H", len(entries))), bytearray()
        for tag, value in entries:
            type_, count, content = value
            if isinstance(content, str):
                field = struct.pack(e + "I", offsets[content])
            elif isinstance(content, tuple):
                field = struct.pack(e + "I", content[1])
            elif out_of_line(value):
                field = struct.pack(e + "I", data_at + len(data))
                data += payload(value) + (b"\x00" if len(payload(value)) % 2 else b"")
            else:
                field = payload(value).ljust(4, b"\x00")
            table += struct.pack(e + "HHI", tag, type_, count) + field
        table += struct.pack(e + "I", next_of_ifd0 if index == 0 else 0)
        body += table + data
    return bytes(body), offsets


# ---- the facts ------------------------------------------------------------------------------------------

MAKE, MODEL, LENS = 0x010F, 0x0110, 0xA434
DESCRIPTION, ORIENTATION, SOFTWARE = 0x010E, 0x0112, 0x0131
EXIF_IFD, GPS_IFD = 0x8769, 0x8825
EXPOSURE, FNUMBER, ISO, DATE, OFFSET, FOCAL = 0x829A, 0x829D, 0x8827, 0x9003, 0x9011, 0x920A


def canon_ifd0(extra=()):
    return sorted([(MAKE, ascii("Canon")), (MODEL, ascii("Canon EOS R5")),
                   (DESCRIPTION, ascii("A heron at dawn")), (ORIENTATION, short(1)),
                   (SOFTWARE, ascii("make_exif_fixtures.py")), (EXIF_IFD, pointer("exif")), *extra])


def canon_exif():
    return sorted([(EXPOSURE, rational((1, 250))), (FNUMBER, rational((4, 1))), (ISO, short(400)),
                   (DATE, ascii("2024:05:17 08:30:12")), (OFFSET, ascii("+02:00")),
                   (FOCAL, rational((50, 1))), (LENS, ascii("RF24-105mm F4 L IS USM"))])


def gps_ifd():
    # Values that appear nowhere else: a test proves none of them reaches the facts.
    return [(0x0001, ascii("N")), (0x0002, rational((47, 1), (37, 1), (1234, 100))),
            (0x0003, ascii("W")), (0x0004, rational((122, 1), (20, 1), (5678, 100))),
            (0x0006, rational((1337, 10))), (0x0012, ascii("WGS-84 SECRET-GPS-DATUM")),
            # As if a hostile writer put Exif tags in the GPS IFD too:
            (DATE, ascii("1999:12:31 23:59:59")), (MODEL, ascii("SECRET-GPS-MODEL"))]


def jpeg(tiff_bytes):
    return h.insert_after_soi(SMALL, h.app1(b"Exif\x00\x00" + tiff_bytes))


def facts_tiff(order):
    return build(order, [("ifd0", canon_ifd0()), ("exif", canon_exif())])[0]


def cases():
    c = {}
    c["E01-all-facts-II.jpg"] = jpeg(facts_tiff("II"))
    c["E01-all-facts-MM.jpg"] = jpeg(facts_tiff("MM"))
    c["E02-nikon-iso-long-2s.jpg"] = jpeg(build("MM", [
        ("ifd0", [(MAKE, ascii("NIKON CORPORATION")), (MODEL, ascii("NIKON Z 6")), (EXIF_IFD, pointer("exif"))]),
        ("exif", [(EXPOSURE, rational((2, 1))), (FNUMBER, rational((28, 10))), (ISO, long(12800)),
                  (DATE, ascii("2020:02:29 23:59:59")), (FOCAL, rational((42, 10)))])])[0])

    # The GPS IFD: present and full of values; the facts must equal those of E01, which has none.
    c["E03-gps.jpg"] = jpeg(build("II", [("ifd0", canon_ifd0([(GPS_IFD, pointer("gps"))])),
                                         ("exif", canon_exif()), ("gps", gps_ifd())])[0])
    # The Exif pointer aims at the GPS IFD: that IFD is still never read.
    c["E03-exif-pointer-is-gps.jpg"] = jpeg(build("II", [
        ("ifd0", sorted([(MAKE, ascii("Canon")), (EXIF_IFD, pointer("gps")), (GPS_IFD, pointer("gps"))])),
        ("gps", gps_ifd())])[0])

    # Markup and control characters in ImageDescription: plain text out, controls gone.
    c["E04-html-description.jpg"] = jpeg(build("II", [("ifd0", [
        (DESCRIPTION, ascii(b'<script>alert(1)</script> & "quotes"\x1b[31m\x07\tred\r\nline\x7f\x00junk')),
        (MAKE, ascii("  Canon \x00\x00\x00   ")), (MODEL, ascii(b"\xe2\x80\xaeEOS R5\x00   ")),
    ])])[0])

    # Hostile structure.
    loop, offsets = build("II", [("ifd0", sorted([(MAKE, ascii("Canon")), (MODEL, ascii("Canon EOS R5")),
                                                  (EXIF_IFD, pointer("ifd0")), (DATE, ascii("2001:01:01 00:00:00"))]))],
                          next_of_ifd0=8)
    c["E05-exif-ifd-is-ifd0.jpg"] = jpeg(loop)
    c["E06-out-of-range-offsets.jpg"] = jpeg(build("MM", [
        ("ifd0", [(MAKE, raw_offset(ASCII, 20, 0xFFFFFF00)), (MODEL, ascii("Canon EOS R5")),
                  (DESCRIPTION, raw_offset(ASCII, 10, 0x7FFFFFFF)), (EXIF_IFD, pointer("exif"))]),
        ("exif", [(EXPOSURE, raw_offset(RATIONAL, 1, 0xFFFFFFF8)), (FNUMBER, raw_offset(RATIONAL, 1, 65530)),
                  (ISO, short(100)), (LENS, raw_offset(ASCII, 30, 0xFFFFFFFF))])])[0])
    c["E06-exif-pointer-past-end.jpg"] = jpeg(build("II", [
        ("ifd0", [(MAKE, ascii("Canon")), (EXIF_IFD, raw_offset(LONG, 1, 0x00FFFFF0))])])[0])
    c["E07-huge-counts.jpg"] = jpeg(build("II", [
        ("ifd0", [(MAKE, ascii("Canon")), (MODEL, raw_offset(ASCII, 0xFFFFFFFF, 8)), (EXIF_IFD, pointer("exif"))]),
        ("exif", [(EXPOSURE, raw_offset(RATIONAL, 0x20000000, 8)), (ISO, (SHORT, 0x40000000, ("offset", 8))),
                  (FOCAL, rational((35, 1))), (LENS, raw_offset(ASCII, 100000, 8))])])[0])
    tiff, offsets = build("II", [("ifd0", [(MAKE, ascii("Canon")), (EXIF_IFD, pointer("exif"))]),
                                 ("exif", [(ISO, short(100)), (FOCAL, rational((35, 1)))])])
    patched = bytearray(tiff)
    patched[offsets["exif"]:offsets["exif"] + 2] = struct.pack("<H", 0xFFFF)  # the Exif IFD claims 65535 entries
    c["E07-exif-ifd-entry-count-65535.jpg"] = jpeg(bytes(patched))
    c["E08-zero-denominators.jpg"] = jpeg(build("II", [
        ("ifd0", [(EXIF_IFD, pointer("exif"))]),
        ("exif", [(EXPOSURE, rational((1, 0))), (FNUMBER, rational((0, 0))), (ISO, short(200)),
                  (FOCAL, rational((50, 0)))])])[0])
    c["E09-bad-date.jpg"] = jpeg(build("II", [
        ("ifd0", [(MAKE, ascii("Canon")), (EXIF_IFD, pointer("exif"))]),
        ("exif", [(DATE, ascii("2023:02:29 12:00:00")), (OFFSET, ascii("+25:00"))])])[0])
    c["E10-long-strings.jpg"] = jpeg(build("II", [
        ("ifd0", [(DESCRIPTION, ascii("word " * 1200)), (MAKE, ascii("M" * 300)), (MODEL, ascii("x" + "é" * 200))])])[0])
    c["E11-latin1-and-utf8.jpg"] = jpeg(build("II", [
        ("ifd0", [(DESCRIPTION, ascii(b"Caf\xe9 \x93cr\xe8me\x94 \x80 5")), (MAKE, ascii("Ünïcödé Optik")),
                  (MODEL, ascii("Kamera 東京"))])])[0])

    # Placement: XMP first and the Exif APP1 after SOF (both before SOS); a second Exif is ignored.
    segments, rest = h.split(h.insert_after_soi(SMALL, h.app1(h.xmp(1))))
    sof = h.sof_index(segments)
    segments.insert(sof + 1, h.app1(b"Exif\x00\x00" + facts_tiff("MM")))
    segments.insert(sof + 2, h.app1(b"Exif\x00\x00" + build("II", [("ifd0", [(MAKE, ascii("Second"))])])[0]))
    c["E12-xmp-then-exif-after-sof.jpg"] = h.join(segments, rest)
    # The largest APP1 there is, with the Exif IFD at its far end: the whole payload is read, not just IFD0.
    far_ifds = [("ifd0", [(MAKE, ascii("Canon")), (EXIF_IFD, pointer("exif"))]),
                ("exif", [(ISO, short(3200)), (FOCAL, rational((600, 1)))])]
    unpadded = len(build("II", far_ifds)[0])
    big = build("II", far_ifds, gaps={"exif": 65527 - unpadded})[0]
    assert len(big) == 65527
    c["E13-exif-ifd-at-end-of-64k-app1.jpg"] = jpeg(big)
    # IFD1 (the thumbnail's) carries a Make; IFD0 none: IFD1 is never read.
    c["E14-make-only-in-ifd1.jpg"] = jpeg(h.tiff("II", [(ORIENTATION, SHORT, 1, 1)],
                                                 ifd1_entries=[(MAKE, ASCII, 4, b"Thb\x00")]))
    # The file ends right after the Exif APP1: the facts still count.
    whole = jpeg(facts_tiff("II"))
    segments, _ = h.split(whole)
    c["E15-truncated-after-exif.jpg"] = whole[:2 + 4 + len(segments[0][1])]

    # PNG.
    text = lambda key, value: h.chunk(b"tEXt", key + b"\x00" + value)
    c["P01-exif-and-text.png"] = h.simple_png(40, 30, before_idat=[
        h.chunk(b"eXIf", facts_tiff("MM")), text(b"Title", b"Heron"), text(b"Description", b"A heron at dawn, Lake Geneva")])
    itxt = lambda key, value, compressed=False: h.chunk(b"iTXt", key + b"\x00" + bytes([int(compressed), 0]) + b"fr\x00"
                                                        + key + b"\x00" + (zlib.compress(value) if compressed else value))
    c["P02-itxt-utf8.png"] = h.simple_png(40, 30, before_idat=[
        itxt(b"Description", "Ça va ? Lac Léman au lever du soleil — 東京 🌊".encode()),
        itxt(b"Title", "Überschrift".encode(), compressed=True)])
    c["P03-ztxt-latin1.png"] = h.simple_png(40, 30, before_idat=[
        h.chunk(b"zTXt", b"Description\x00\x00" + zlib.compress("Crème brûlée".encode("latin-1")))])
    # Inflates to 60 MB from under 64 KiB: refused at 64 KiB; the Title after it is still read.
    bomb = zlib.compress(b"\x00" * 60_000_000, 9)
    assert len(bomb) < 64 * 1024
    c["P04-ztxt-bomb-60MB.png"] = h.simple_png(40, 30, before_idat=[
        h.chunk(b"zTXt", b"Description\x00\x00" + bomb), text(b"Title", b"After the bomb")])
    small_bomb = zlib.compress(b"A" * 1_000_000, 9)
    c["P05-many-ztxt-bombs.png"] = h.simple_png(40, 30, before_idat=[text(b"Description", b"First")] + [
        h.chunk(b"zTXt", b"Description\x00\x00" + small_bomb) for _ in range(100)])
    # A 100 KiB XMP iTXt before the Description: skipped, and the Description still read.
    xmp = itxt(b"XML:com.adobe.xmp", b"<x:xmpmeta>" + b" " * 100_000 + b"</x:xmpmeta>")
    c["P06-big-xmp-then-description.png"] = h.simple_png(40, 30, before_idat=[xmp, text(b"Description", b"Kept")])
    c["P07-description-after-idat.png"] = h.simple_png(40, 30, after_idat=[text(b"Description", b"Too late")])
    # A text chunk claiming 2 GiB in a tiny file: nothing is allocated for it, what came before is kept.
    claim = struct.pack(">I", 0x7FFFFFF0) + b"tEXt" + b"Comment\x00" + b"x" * 64
    c["P08-text-claims-2GiB.png"] = h.PNG_SIGNATURE + h.ihdr(40, 30) + text(b"Description", b"Before") + claim
    c["P09-exif-gps.png"] = h.simple_png(40, 30, before_idat=[h.chunk(b"eXIf", build("MM", [
        ("ifd0", canon_ifd0([(GPS_IFD, pointer("gps"))])), ("exif", canon_exif()), ("gps", gps_ifd())])[0])])
    return c


def main():
    global SMALL
    h.build_encoder()
    SMALL = h.encode(64, 48)
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    made = cases()
    for name, data in sorted(made.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(made)} fixtures to {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
