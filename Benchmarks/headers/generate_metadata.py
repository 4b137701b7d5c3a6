#!/usr/bin/env python3
"""Generates files for `make bench-headers`' metadata part: camera-like JPEGs that also carry a 6 KB XMP
packet (title, description, keywords, rating, creator, rights, dates: what Lightroom writes) and an IPTC
APP13 block; and TIFFs of 1024×768 RGB with an Exif IFD, half with their IFD before the pixels and half
after them (as scanners and Photoshop write them), so reading the facts must seek to the end.

    generate_metadata.py OUT_DIR COUNT
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Tools"))
sys.path.insert(0, HERE)
import make_header_fixtures as fx  # noqa: E402
import tiffbytes as t  # noqa: E402
from generate import camera_jpeg  # noqa: E402


def xmp_packet(index):
    keywords = "".join(f"<rdf:li>keyword {k} of photo {index}</rdf:li>" for k in range(40))
    body = f"""<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
 xmp:Rating="4" xmp:CreateDate="2024-05-17T08:30:12" photoshop:DateCreated="2024-05-17T08:30:12"
 exif:DateTimeOriginal="2024-05-17T08:30:12+02:00">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Photo {index} at the harbour</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{"A long description of the morning. " * 20}</rdf:li></rdf:Alt></dc:description>
<dc:subject><rdf:Bag>{keywords}</rdf:Bag></dc:subject>
<dc:creator><rdf:Seq><rdf:li>A Photographer</rdf:li></rdf:Seq></dc:creator>
<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">© 2024 A Photographer</rdf:li></rdf:Alt></dc:rights>
</rdf:Description></rdf:RDF></x:xmpmeta>"""
    padding = " " * max(0, 6000 - len(body))
    return (f'<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>{body}{padding}<?xpacket end="w"?>').encode()


def iptc_block(index):
    def dataset(number, text):
        data = text.encode()
        return struct.pack(">BBBH", 0x1C, 2, number, len(data)) + data
    iim = (struct.pack(">BBBH", 0x1C, 1, 90, 3) + b"\x1b%G" + dataset(5, f"Photo {index}") + dataset(120, "A caption " * 20)
           + b"".join(dataset(25, f"keyword {k}") for k in range(20)) + dataset(80, "A Photographer") + dataset(116, "© 2024"))
    resource = b"8BIM" + struct.pack(">H", 0x0404) + b"\x00\x00" + struct.pack(">I", len(iim)) + iim
    if len(iim) % 2:
        resource += b"\x00"
    return b"Photoshop 3.0\x00" + resource


def metadata_jpeg(base, index):
    """`base` (a camera JPEG) with the XMP APP1 and the IPTC APP13 inserted after its Exif."""
    extra = b""
    for marker, payload in ((0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + xmp_packet(index)), (0xED, iptc_block(index))):
        extra += struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload
    return base[:2] + extra + base[2:]


def camera_tiff(index):
    width, height = 1024, 768
    rows = [bytes(((x + y + index) * 7) % 256 for x in range(width * 3)) for y in range(height)]
    exif = [(0x9003, t.ASCII, b"2024:05:17 08:30:12\0"), (0x829A, t.RATIONAL, [(1, 250)]), (0x8827, t.SHORT, [400])]
    extra = [(0x010E, t.ASCII, f"Scan {index}\0".encode()), (0x010F, t.ASCII, b"Nikon\0"), (0x0110, t.ASCII, b"Nikon D850\0"),
             (0x0112, t.SHORT, [1 + index % 8]), (t.EXIF_IFD, t.LONG, ("ifd", exif))]
    return t.tiff(width, height, rows, rows_per_strip=64, first=index % 2 == 0, extra=extra)


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    fx.build_encoder()
    thumb = fx.encode(160, 120, "q=75")
    bases = [camera_jpeg(order, thumb) for order in ("II", "MM")]
    for index in range(count):
        with open(os.path.join(out, f"IMG_{index:05d}.jpg"), "wb") as f:
            f.write(metadata_jpeg(bases[index % len(bases)], index))
    tiffs = max(1, count // 10)
    for index in range(tiffs):
        with open(os.path.join(out, f"SCAN_{index:04d}.tif"), "wb") as f:
            f.write(camera_tiff(index))


if __name__ == "__main__":
    main()
