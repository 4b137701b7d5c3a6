#!/usr/bin/env python3
"""Builds the header-reader fixtures in Tests/WaterfallKitTests/Fixtures/headers/.

Every case of shared/reference/image-header-cases.md that a file can express, made by encoding with libjpeg
(Tests/Tools/mkjpeg.c) or zlib and then byte-editing. The expected answers live in the Swift tests
(HeaderFixtureTests.swift), not here, so that the table there is an independent statement of the rules.

The output is committed; rerun this only to re-record on purpose:  python3 Tests/Tools/make_header_fixtures.py
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gifbytes  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "WaterfallKitTests", "Fixtures", "headers")
TMP = tempfile.mkdtemp()
MKJPEG = os.path.join(TMP, "mkjpeg")


def build_encoder():
    subprocess.run(["cc", "-O1", "-o", MKJPEG, os.path.join(HERE, "mkjpeg.c"), "-ljpeg"], check=True)


def encode(width, height, *options, markers=()):
    """A real JPEG from libjpeg; markers are (marker byte, payload) written before the frame header."""
    args = [MKJPEG, os.path.join(TMP, "out.jpg"), str(width), str(height), *options]
    for index, (marker, payload) in enumerate(markers):
        path = os.path.join(TMP, f"marker{index}")
        with open(path, "wb") as f:
            f.write(payload)
        args.append(f"marker={marker:02X}:{path}")
    subprocess.run(args, check=True)
    with open(os.path.join(TMP, "out.jpg"), "rb") as f:
        return f.read()


# ---- JPEG segment surgery -------------------------------------------------------------------------------

def split(jpeg):
    """[(marker, payload)] up to (not including) SOS, and the rest (SOS, scan data, EOI)."""
    assert jpeg[:2] == b"\xFF\xD8"
    segments, pos = [], 2
    while True:
        assert jpeg[pos] == 0xFF, pos
        marker = jpeg[pos + 1]
        if marker == 0xDA:
            return segments, jpeg[pos:]
        length = struct.unpack(">H", jpeg[pos + 2:pos + 4])[0]
        segments.append((marker, jpeg[pos + 4:pos + 2 + length]))
        pos += 2 + length


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def join(segments, rest):
    return b"\xFF\xD8" + b"".join(segment(m, p) for m, p in segments) + rest


def insert_after_soi(jpeg, *extra):
    segments, rest = split(jpeg)
    return join(list(extra) + segments, rest)


def is_sof(marker):
    return 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC)


def sof_index(segments):
    return next(i for i, (m, _) in enumerate(segments) if is_sof(m))


def patch_sof(jpeg, marker=None, precision=None, width=None, height=None):
    segments, rest = split(jpeg)
    i = sof_index(segments)
    old_marker, payload = segments[i]
    payload = bytearray(payload)
    if precision is not None:
        payload[0] = precision
    if height is not None:
        payload[1:3] = struct.pack(">H", height)
    if width is not None:
        payload[3:5] = struct.pack(">H", width)
    segments[i] = (marker if marker is not None else old_marker, bytes(payload))
    return join(segments, rest)


# ---- EXIF -----------------------------------------------------------------------------------------------

def tiff(order, entries, ifd0_offset=8, ifd1_entries=None, thumbnail=None, count_override=None, tail=b""):
    """A TIFF structure: header, IFD0 at ifd0_offset, optional IFD1 (with a JPEG thumbnail), then tail.

    entries: [(tag, type, count, value)] where value is an int (packed into the value field) or bytes."""
    e = "<" if order == "II" else ">"
    header = (b"II*\x00" if order == "II" else b"MM\x00*") + struct.pack(e + "I", ifd0_offset)
    body = bytearray(header + b"\x00" * (ifd0_offset - 8))

    def ifd(entries, start, next_offset, count=None):
        out = bytearray(struct.pack(e + "H", len(entries) if count is None else count))
        for tag, typ, cnt, value in entries:
            if typ == 3 and isinstance(value, int):
                field = struct.pack(e + "H", value) + b"\x00\x00"
            elif isinstance(value, int):
                field = struct.pack(e + "I", value)
            else:
                field = value
            out += struct.pack(e + "HHI", tag, typ, cnt) + field
        out += struct.pack(e + "I", next_offset)
        return out

    ifd0_size = 2 + 12 * len(entries) + 4
    ifd1_offset = ifd0_offset + ifd0_size if ifd1_entries is not None else 0
    body += ifd(entries, ifd0_offset, ifd1_offset, count_override)
    if ifd1_entries is not None:
        ifd1_size = 2 + 12 * (len(ifd1_entries) + (2 if thumbnail else 0)) + 4
        thumb_offset = ifd1_offset + ifd1_size
        extra = []
        if thumbnail:
            extra = [(0x0201, 4, 1, thumb_offset), (0x0202, 4, 1, len(thumbnail))]
        body += ifd(ifd1_entries + extra, ifd1_offset, 0)
        if thumbnail:
            body += thumbnail
    return bytes(body) + tail


def exif(order="II", orientation=None, **kwargs):
    entries = [(0x010F, 2, 4, b"Cam\x00")]  # Make, so IFD0 is never trivially empty
    if orientation is not None:
        entries.append((0x0112, 3, 1, orientation))
    entries.append((0x0131, 2, 4, b"wf\x00\x00"))  # Software
    return b"Exif\x00\x00" + tiff(order, sorted(entries), **kwargs)


def app1(payload):
    return (0xE1, payload)


XMP_PREFIX = b"http://ns.adobe.com/xap/1.0/\x00"


def xmp(orientation):
    return XMP_PREFIX + (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="%d"/></rdf:RDF></x:xmpmeta>'
        % orientation).encode()


def icc_chunks(total, chunk=65519):
    """APP2 ICC_PROFILE segments carrying `total` bytes of (fake) profile data."""
    count = (total + chunk - 1) // chunk
    out = []
    for i in range(count):
        size = min(chunk, total - i * chunk)
        out.append((0xE2, b"ICC_PROFILE\x00" + bytes([i + 1, count]) + bytes((j * 7 + i) % 251 for j in range(size))))
    return out


# ---- PNG ------------------------------------------------------------------------------------------------

def chunk(kind, data, crc=None):
    crc = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc & 0xFFFFFFFF)


def ihdr(width, height, depth=8, color=2, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace))


def idat(width, height, channels=3):
    raw = b"".join(b"\x00" + bytes((x * 9 + y * 5) % 256 for x in range(width * channels)) for y in range(height))
    return chunk(b"IDAT", zlib.compress(raw, 9))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(*chunks):
    return PNG_SIGNATURE + b"".join(chunks) + chunk(b"IEND", b"")


def simple_png(width=40, height=30, before_idat=(), after_idat=()):
    return png(ihdr(width, height), *before_idat, idat(width, height), *after_idat)


# ---- the cases ------------------------------------------------------------------------------------------

def cases():
    small = encode(64, 48)
    c = {}
    c["J01-baseline-jfif.jpg"] = small
    for n in range(1, 9):
        c[f"J02-exif-II-orientation-{n}.jpg"] = insert_after_soi(encode(64, 48), app1(exif("II", n)))
        c[f"J10-exif-MM-orientation-{n}.jpg"] = insert_after_soi(encode(64, 48), app1(exif("MM", n)))
    c["J18-exif-MM-ifd0-offset-26.jpg"] = insert_after_soi(small, app1(exif("MM", 6, ifd0_offset=26)))
    c["J18-exif-II-ifd0-offset-5000.jpg"] = insert_after_soi(small, app1(exif("II", 8, ifd0_offset=5000)))
    c["J19-orientation-only-in-ifd1.jpg"] = insert_after_soi(
        small, app1(exif("II", None, ifd1_entries=[(0x0112, 3, 1, 6)])))
    for value in (0, 9, 255):
        c[f"J20-orientation-value-{value}.jpg"] = insert_after_soi(small, app1(exif("II", value)))
    c["J21-orientation-as-long.jpg"] = insert_after_soi(
        small, app1(b"Exif\x00\x00" + tiff("MM", [(0x0112, 4, 1, 6)])))
    c["J21-orientation-count-2.jpg"] = insert_after_soi(
        small, app1(b"Exif\x00\x00" + tiff("II", [(0x0112, 3, 2, b"\x06\x00\x06\x00")])))
    c["J22-ifd0-offset-past-segment.jpg"] = insert_after_soi(
        small, app1(b"Exif\x00\x00" + b"II*\x00" + struct.pack("<I", 0x7FFFFFF0) + b"\x00" * 16))
    c["J22-entry-count-past-segment.jpg"] = insert_after_soi(
        small, app1(b"Exif\x00\x00" + tiff("II", [(0x0112, 3, 1, 6)], count_override=0xFFFF)))
    loop = bytearray(b"Exif\x00\x00" + tiff("II", [(0x010F, 2, 4, b"Cam\x00")]))
    loop[6 + 8 + 2 + 12:6 + 8 + 2 + 12 + 4] = struct.pack("<I", 8)  # IFD0's next-IFD points at IFD0
    c["J22-ifd-loop.jpg"] = insert_after_soi(small, app1(bytes(loop)))

    thumb = encode(160, 120, "q=60")
    main = encode(640, 480, "nojfif", "q=40")
    c["J23-exif-thumbnail-before-sof-no-jfif.jpg"] = insert_after_soi(
        main, app1(exif("II", 6, ifd1_entries=[(0x0103, 3, 1, 6)], thumbnail=thumb)))
    segments, rest = split(insert_after_soi(small))
    i = sof_index(segments)
    segments.insert(i + 1, app1(exif("II", 6)))
    c["J24-exif-after-sof.jpg"] = join(segments, rest)
    c["J25-two-exif-6-then-1.jpg"] = insert_after_soi(small, app1(exif("II", 6)), app1(exif("II", 1)))
    c["J26-xmp-orientation-8-only.jpg"] = insert_after_soi(small, app1(xmp(8)))
    c["J26-exif-1-and-xmp-8.jpg"] = insert_after_soi(small, app1(exif("MM", 1)), app1(xmp(8)))
    big_exif = exif("II", 6, tail=bytes(i % 256 for i in range(60000)))
    c["J27-60k-app1-30k-icc-before-sof.jpg"] = insert_after_soi(small, app1(big_exif), *icc_chunks(30000))
    c["J28-multi-segment-icc-150k.jpg"] = insert_after_soi(small, *icc_chunks(150000))
    c["J29-progressive.jpg"] = encode(64, 48, "progressive")
    sof1 = encode(64, 48, "q=1", "nobaseline")
    assert b"\xFF\xC1" in sof1[:400], "expected an extended-sequential (SOF1) frame"
    c["J30-extended-sof1.jpg"] = sof1
    c["J31-arithmetic-sof9.jpg"] = encode(64, 48, "arith")
    c["J31-arithmetic-progressive-sof10.jpg"] = encode(64, 48, "arith", "progressive")
    for marker in (0xC3, 0xC5, 0xCB, 0xCF):
        c[f"J32-sof-{marker:02X}.jpg"] = patch_sof(small, marker=marker)
    c["J33-12-bit-precision.jpg"] = patch_sof(small, precision=12)
    c["J34-cmyk-adobe.jpg"] = encode(48, 32, "cmyk")
    c["J34-ycck-adobe.jpg"] = encode(48, 32, "ycck")
    c["J34-grayscale.jpg"] = encode(48, 32, "gray")
    c["J47-ycc-444-q70.jpg"] = encode(64, 48, "444", "q=70")
    # Chroma layouts and odd sizes for the planar route (a JPEG resampled in its own Y, Cb and Cr).
    c["J48-ycc-422-odd.jpg"] = encode(157, 93, "photo", "sampling=2x1", "q=90")
    c["J48-ycc-440-odd.jpg"] = encode(157, 93, "photo", "sampling=1x2", "q=90")
    c["J48-ycc-411-odd.jpg"] = encode(157, 93, "photo", "sampling=4x1", "q=90")
    c["J48-ycc-420-odd.jpg"] = encode(157, 93, "photo", "q=90")
    c["J48-ycc-444-odd.jpg"] = encode(157, 93, "photo", "444", "q=90")
    for n in range(1, 9):  # sharp chroma at odd sizes, turned: where the turned planes' chroma lands
        c[f"J49-checks-orientation-{n}.jpg"] = insert_after_soi(encode(99, 67, "checks", "q=95"), app1(exif("II", n)))
    segments, rest = split(small)
    c["J35-fill-bytes-before-markers.jpg"] = b"\xFF\xD8" + b"".join(
        b"\xFF" * 5 + segment(m, p) for m, p in segments) + b"\xFF\xFF\xFF" + rest
    segments, rest = split(small)
    i = sof_index(segments)
    c["J36-sof-right-after-soi.jpg"] = join([segments[i]] + segments[:i] + segments[i + 1:], rest)
    segments, rest = split(small)
    c["J37-com-length-0.jpg"] = b"\xFF\xD8" + b"\xFF\xFE\x00\x00" + b"".join(segment(m, p) for m, p in segments) + rest
    c["J37-app1-length-1.jpg"] = b"\xFF\xD8" + b"\xFF\xE1\x00\x01" + b"".join(segment(m, p) for m, p in segments) + rest
    c["J38-junk-before-soi.jpg"] = b"JUNK" + small
    c["J39-extraneous-bytes-between-segments.jpg"] = b"\xFF\xD8" + b"".join(
        segment(m, p) + b"\x12\x34\x56" for m, p in segments) + rest
    c["J40-sof-height-0.jpg"] = patch_sof(small, height=0)
    c["J41-65500x65500-tiny-file.jpg"] = patch_sof(small, width=65500, height=65500)
    c["J42-65535x65535.jpg"] = patch_sof(small, width=65535, height=65535)
    c["J43-truncated-10-bytes.jpg"] = small[:10]
    segments, rest = split(small)
    i = sof_index(segments)
    before_sof = 2 + sum(4 + len(p) for _, p in segments[:i])
    c["J43-truncated-before-sof.jpg"] = small[:before_sof]
    c["J43-truncated-inside-sof.jpg"] = small[:before_sof + 7]
    dht = next(j for j, (m, _) in enumerate(segments) if m == 0xC4)
    in_dht = 2 + sum(4 + len(p) for _, p in segments[:dht]) + 10
    c["J43-truncated-inside-dht.jpg"] = small[:in_dht]
    c["J44-truncated-inside-scan.jpg"] = main[:len(main) // 2]
    c["J45-empty.jpg"] = b""
    c["J46-png-named.jpg"] = simple_png(40, 30)
    c["J46-jpeg-named.png"] = small
    c["J46-heic-named.jpg"] = struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00mif1heic" + b"\x00" * 32
    c["J46-webp-named.jpg"] = b"RIFF" + struct.pack("<I", 30) + b"WEBPVP8 " + b"\x00" * 22
    # A whole GIF (Waterfall reads GIF): a 40×30 screen, a two-colour table and one frame of colour 0.
    c["J46-gif-named.jpg"] = gifbytes.screen(40, 30, [(0, 0, 0), (255, 255, 255)]) + gifbytes.image(0, 0, 40, 30, [[0] * 40] * 30) + gifbytes.TRAILER
    c["J46-avif-named.jpg"] = struct.pack(">I", 24) + b"ftypavif" + b"\x00\x00\x00\x00mif1avif" + b"\x00" * 32
    c["J46-bmp-named.jpg"] = b"BM" + b"\x00" * 52
    c["J46-tiff-named.jpg"] = b"II*\x00" + b"\x08\x00\x00\x00" + b"\x00" * 20
    c["J46-text-named.jpg"] = b"Hello, this is not an image.\n"
    segments, rest = split(small)
    c["J47-100k-com-markers.jpg"] = b"\xFF\xD8" + b"\xFF\xFE\x00\x02" * 100000 + b"".join(
        segment(m, p) for m, p in segments) + rest
    c["J47-100k-app1-markers.jpg"] = b"\xFF\xD8" + b"\xFF\xE1\x00\x02" * 100000 + b"".join(
        segment(m, p) for m, p in segments) + rest

    c["P01-rgb-16-bit-interlaced.png"] = png(ihdr(33, 17, 16, 2, 1), idat(33, 17, 6))
    cgbi = simple_png(40, 30)
    c["P02-cgbi.png"] = PNG_SIGNATURE + chunk(b"CgBI", b"\x50\x00\x20\x06") + cgbi[8:]
    actl = chunk(b"acTL", struct.pack(">II", 1, 0))
    fctl = chunk(b"fcTL", struct.pack(">IIIIIHHBB", 0, 40, 30, 0, 0, 1, 10, 0, 0))
    c["P03-apng.png"] = simple_png(40, 30, before_idat=[actl, fctl])
    c["P04-exif-6-before-idat.png"] = simple_png(40, 30, before_idat=[chunk(b"eXIf", tiff("MM", [(0x0112, 3, 1, 6)]))])
    c["P04-exif-II-8-before-idat.png"] = simple_png(40, 30, before_idat=[chunk(b"eXIf", tiff("II", [(0x0112, 3, 1, 8)]))])
    c["P05-exif-6-after-idat.png"] = simple_png(40, 30, after_idat=[chunk(b"eXIf", tiff("MM", [(0x0112, 3, 1, 6)]))])
    c["P06-ihdr-2147483647-square.png"] = png(ihdr(2**31 - 1, 2**31 - 1), idat(1, 1))
    c["P07-1000001x10.png"] = png(ihdr(1000001, 10, 1, 0), idat(1, 1))
    good = simple_png(40, 30)
    c["P08-bad-ihdr-crc.png"] = good[:29] + bytes([good[29] ^ 0xFF]) + good[30:]
    c["P09-truncated-inside-ihdr.png"] = good[:20]
    bomb = zlib.compress(b"\x00" * 100_000_000, 9)
    c["P10-iccp-100MB-bomb.png"] = simple_png(40, 30, before_idat=[chunk(b"iCCP", b"bomb\x00\x00" + bomb)])
    c["P10-ztxt-100MB-bomb.png"] = simple_png(40, 30, before_idat=[chunk(b"zTXt", b"Comment\x00\x00" + bomb)])
    # RGBA whose alpha is all 255 but one transparent pixel in the last row (the opaque guess is wrong late),
    # and the same with every alpha 255 (the guess is right).
    def rgba(height, hole):
        rows = []
        for y in range(height):
            row = bytearray()
            for x in range(40):
                row += bytes(((x * 9 + y * 5) % 256, (x * 3) % 256, (y * 7) % 256, 0 if hole and (x, y) == (39, height - 1) else 255))
            rows.append(b"\x00" + bytes(row))
        return png(ihdr(40, height, 8, 6), chunk(b"IDAT", zlib.compress(b"".join(rows), 9)))
    c["P12-rgba-alpha-in-last-row.png"] = rgba(30, True)
    c["P12-rgba-all-opaque.png"] = rgba(30, False)
    # J49's red and blue checks as RGB PNGs with an eXIf orientation: the split into planes (ycc_split.c)
    # must land the chroma on the turned checks, odd sides mirrored included.
    checks = b"".join(b"\x00" + b"".join(bytes((230, 40, 40) if (x // 6 + y // 6) % 2 else (40, 40, 230))
                                         for x in range(99)) for y in range(67))
    for n in range(1, 9):
        c[f"P13-checks-orientation-{n}.png"] = png(ihdr(99, 67), chunk(b"eXIf", tiff("II", [(0x0112, 3, 1, n)])),
                                                  chunk(b"IDAT", zlib.compress(checks, 9)))
    c["P11-two-ihdr.png"] = png(ihdr(40, 30), ihdr(40, 30), idat(40, 30))
    c["P11-ihdr-not-first.png"] = png(chunk(b"tEXt", b"Title\x00x"), ihdr(40, 30), idat(40, 30))
    c["P11-zero-width.png"] = png(ihdr(0, 30), idat(1, 1))
    return c


def main():
    build_encoder()
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
