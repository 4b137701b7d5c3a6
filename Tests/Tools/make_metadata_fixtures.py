#!/usr/bin/env python3
"""Builds the XMP and IPTC fixtures in Tests/WaterfallKitTests/Fixtures/metadata/.

gallery/: a folder the tests build as one gallery (MetadataBuildTests.swift): tiny photos (64x48, Pillow and
pillow-heif) whose XMP and IPTC are written by exiftool (Debian's libimage-exiftool-perl), XMP sidecars in
both spellings, and the precedence cases; a TIFF whose IFD comes after its pixels (tiffbytes.py), a TIFF
with IPTC only in Photoshop's image resources (tag 34377), and PNGs with a raw IIM profile and a raw XMP
profile as ImageMagick writes them, made byte by byte and by Debian's ImageMagick 6. hostile/: packets and IIM streams made
byte by byte (billion laughs, external entities, invalid UTF-8, UTF-16, an IIM length overflow, 50,000
datasets; TIFF tags whose counts lie or run past the end; PNG raw profiles with bad hex or a lying length),
each inside a photo that must still be published, with one warning. The largest hostile inputs (100,000-deep nesting, a
4 MiB attribute, 100,000 keywords) are written by the Swift test itself, not committed.

The expected answers live in the Swift tests. The output is committed; rerun only to re-record on purpose:
    scripts/ensure-packages libimage-exiftool-perl imagemagick
    .venv/bin/python Tests/Tools/make_metadata_fixtures.py
"""
import io
import os
import shutil
import struct
import subprocess
import sys

from PIL import Image
from PIL.PngImagePlugin import PngInfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tiffbytes as t  # noqa: E402

# Debian's own, by its full name: a `convert` earlier on PATH may be something else.
IMAGEMAGICK = "/usr/bin/convert-im6.q16"

OUT = os.path.join(HERE, "..", "WaterfallKitTests", "Fixtures", "metadata")
GALLERY = os.path.join(OUT, "gallery")
HOSTILE = os.path.join(OUT, "hostile")

# Coordinates no test or template contains by chance: the site must never show them.
GPS_LATITUDE = "47,38.1234N"
GPS_LONGITUDE = "122,19.8765W"


def picture(colour):
    return Image.new("RGB", (64, 48), colour)


def jpeg(path, colour, **options):
    picture(colour).save(path, "JPEG", quality=80, **options)


def exiftool(path, *arguments):
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-m", *arguments, path], check=True)


def xmp_packet(body, extra_namespaces=""):
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        f'{body}\n'
        '</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end="w"?>'
    ).encode("utf-8")


def description(properties, namespaces=""):
    return (
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" '
        f'xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" {namespaces}>\n{properties}\n</rdf:Description>'
    )


def alt(name, text):
    return f'<dc:{name}><rdf:Alt><rdf:li xml:lang="x-default">{text}</rdf:li></rdf:Alt></dc:{name}>'


def sidecar(path, properties):
    with open(path, "wb") as f:
        f.write(xmp_packet(description(properties)))


def make_gallery():
    g = GALLERY
    # Embedded XMP through exiftool: every field read.
    jpeg(f"{g}/xmp.jpg", (200, 40, 40))
    exiftool(f"{g}/xmp.jpg", "-XMP-dc:Title=XMP title", "-XMP-dc:Description=XMP description",
             "-XMP-dc:Subject=red", "-XMP-dc:Subject=sunset", "-XMP-xmp:Rating=4", "-XMP-dc:Creator=Ada Lovelace",
             "-XMP-dc:Rights=CC BY 4.0", "-XMP-exif:DateTimeOriginal=2021:06:01 10:20:30")
    # IPTC only.
    jpeg(f"{g}/iptc.jpg", (40, 200, 40))
    exiftool(f"{g}/iptc.jpg", "-IPTC:ObjectName=IPTC title", "-IPTC:Caption-Abstract=IPTC description",
             "-IPTC:Keywords=green", "-IPTC:Keywords=field", "-IPTC:By-line=Grace Hopper",
             "-IPTC:CopyrightNotice=(c) Grace", "-IPTC:DateCreated=2019:02:03", "-IPTC:TimeCreated=04:05:06",
             "-IPTC:CodedCharacterSet=UTF8")
    # IPTC in Latin-1 without 1:90: "Café" as one byte é.
    jpeg(f"{g}/latin1.jpg", (40, 40, 200))
    exiftool(f"{g}/latin1.jpg", "-charset", "iptc=Latin", "-IPTC:ObjectName=Caf\u00e9 Latin", "-codedcharacterset=")
    # Per field: XMP's title wins over IPTC's and EXIF's; IPTC's description where XMP has none.
    jpeg(f"{g}/both.jpg", (200, 200, 40))
    exiftool(f"{g}/both.jpg", "-XMP-dc:Title=XMP wins", "-IPTC:ObjectName=IPTC loses",
             "-IPTC:Caption-Abstract=IPTC description kept", "-EXIF:ImageDescription=EXIF loses",
             "-IPTC:CodedCharacterSet=UTF8")
    # Sidecars: NAME.jpg.xmp before NAME.xmp, and both before the embedded packet.
    jpeg(f"{g}/sidecar.jpg", (40, 200, 200))
    exiftool(f"{g}/sidecar.jpg", "-XMP-dc:Title=Embedded loses", "-XMP-dc:Description=Embedded description kept")
    sidecar(f"{g}/sidecar.jpg.xmp", alt("title", "Sidecar title") + '<xmp:Rating>5</xmp:Rating>')
    sidecar(f"{g}/sidecar.xmp", alt("title", "Second sidecar loses"))
    jpeg(f"{g}/plain.jpg", (200, 40, 200))
    sidecar(f"{g}/plain.xmp", alt("title", "Plain sidecar title")
            + '<dc:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li>two</rdf:li></rdf:Bag></dc:subject>')
    # NAME.txt beats every XMP.
    jpeg(f"{g}/text.jpg", (120, 120, 120))
    sidecar(f"{g}/text.jpg.xmp", alt("title", "XMP loses to text") + alt("description", "Sidecar description kept"))
    with open(f"{g}/text.txt", "w") as f:
        f.write("Text title\n")
    # Other containers.
    info = PngInfo()
    info.add_itxt("XML:com.adobe.xmp", xmp_packet(description(alt("title", "PNG XMP title"))).decode())
    picture((10, 90, 160)).save(f"{g}/xmp.png", "PNG", pnginfo=info)
    picture((160, 90, 10)).save(f"{g}/xmp.webp", "WEBP", quality=80,
                                  xmp=xmp_packet(description(alt("title", "WebP XMP title"))))
    import pillow_heif
    pillow_heif.register_heif_opener()
    picture((90, 160, 10)).save(f"{g}/xmp.heic", "HEIF", quality=50,
                                  xmp=xmp_packet(description(alt("title", "HEIC XMP title"))))
    make_tiff_and_png_gallery(g)
    # Attributes, several descriptions, prefixes that are not the usual ones, an Alt without x-default.
    packet = xmp_packet(
        '<rdf:Description rdf:about="" xmlns:d="http://purl.org/dc/elements/1.1/"><d:title><rdf:Alt>'
        '<rdf:li xml:lang="fr">Titre</rdf:li><rdf:li xml:lang="x-default">Default title</rdf:li></rdf:Alt></d:title>'
        '</rdf:Description>\n<rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" a:Rating="2"/>'
        '\n<rdf:Description rdf:about="" xmlns:dc="http://example.com/not-dc/"><dc:description>Not Dublin Core'
        '</dc:description></rdf:Description>')
    jpeg(f"{g}/rdf.jpg", (30, 30, 30), xmp=packet)
    # GPS in every XMP: never published.
    gps = (f'<exif:GPSLatitude>{GPS_LATITUDE}</exif:GPSLatitude>'
           f'<exif:GPSLongitude>{GPS_LONGITUDE}</exif:GPSLongitude>')
    jpeg(f"{g}/gps.jpg", (70, 70, 70), xmp=xmp_packet(description(alt("title", "GPS title") + gps)))
    jpeg(f"{g}/gps-sidecar.jpg", (80, 80, 80))
    sidecar(f"{g}/gps-sidecar.jpg.xmp", alt("title", "GPS sidecar title") + gps)


def utf8_iim(*datasets):
    return dataset(1, 90, b"\x1b%G") + b"".join(dataset(2, tag, value.encode()) for tag, value in datasets)


def tiff_with(entries, order="MM", first=False):
    """A 16x12 RGB TIFF with `entries` in IFD0; by default its IFD after the pixels (as libtiff writes it)."""
    rows = [bytes([120, 60, 200] * 16)] * 12
    return t.tiff(16, 12, rows, order=order, rows_per_strip=4, first=first, extra=entries)


def raw_profile(name, data, declared=None):
    """ImageMagick's "Raw profile type" text: a newline, the name, the length (8 wide), the hex in lines."""
    digits = data.hex()
    lines = "\n".join(digits[i:i + 72] for i in range(0, len(digits), 72))
    return f"\n{name}\n{declared if declared is not None else len(data):8d}\n{lines}\n"


def png_with_text(path, keyword, text, colour=(90, 90, 160)):
    info = PngInfo()
    info.add_text(keyword, text)
    picture(colour).save(path, "PNG", pnginfo=info)


def make_tiff_and_png_gallery(g):
    # TIFF: XMP (tag 700) and IPTC (tag 33723, which exiftool writes as LONG) through exiftool. Per field, XMP's
    # title, keywords, rating and rights win; IPTC's description and creator fill in what XMP lacks.
    picture((200, 120, 40)).save(f"{g}/xmp-iptc.tif", "TIFF", compression="tiff_lzw")
    exiftool(f"{g}/xmp-iptc.tif", "-XMP-dc:Title=TIFF XMP title", "-XMP-dc:Subject=tiff-xmp-keyword",
             "-XMP-xmp:Rating=3", "-XMP-dc:Rights=TIFF XMP rights", "-IPTC:ObjectName=TIFF IPTC title loses",
             "-IPTC:Caption-Abstract=TIFF IPTC description", "-IPTC:Keywords=tiff-iptc-keyword-loses",
             "-IPTC:By-line=TIFF IPTC creator", "-IPTC:CopyrightNotice=TIFF IPTC rights loses",
             "-IPTC:CodedCharacterSet=UTF8")
    # The IFD after the pixels, big-endian, XMP as UNDEFINED and IPTC as BYTE.
    packet = xmp_packet(description(alt("title", "TIFF IFD-last XMP title")))
    iim = utf8_iim((120, "TIFF IFD-last IPTC description"))
    with open(f"{g}/ifd-last.tif", "wb") as f:
        f.write(tiff_with([(700, t.UNDEFINED, packet), (33723, t.BYTE, iim)]))
    # PNG: exiftool's raw profile (zTXt, the IIM inside Photoshop's 8BIM resources) and ImageMagick's form of
    # it as tEXt with the bare IIM.
    picture((40, 120, 200)).save(f"{g}/iptc.png", "PNG")
    exiftool(f"{g}/iptc.png", "-IPTC:ObjectName=PNG IPTC title", "-IPTC:Caption-Abstract=PNG IPTC description",
             "-IPTC:Keywords=png-keyword", "-IPTC:CodedCharacterSet=UTF8")
    png_with_text(f"{g}/iptc-raw.png", "Raw profile type iptc",
                  raw_profile("iptc", utf8_iim((5, "PNG raw IIM title"), (80, "PNG raw IIM creator"))))
    # Photoshop keeps a TIFF's IPTC in its image resources (tag 34377), after others such as its resolution.
    with open(f"{g}/photoshop.tif", "wb") as f:
        f.write(tiff_with([(34377, t.UNDEFINED, photoshop_resources(utf8_iim((5, "TIFF Photoshop IPTC title"))))]))
    # Debian's ImageMagick 6 itself: its zTXt raw profiles of an IIM stream and of an XMP packet.
    with open(f"{g}/imagemagick.iptc", "wb") as f:
        f.write(utf8_iim((5, "ImageMagick IPTC title loses"), (120, "ImageMagick IPTC description")))
    with open(f"{g}/imagemagick.xmp", "wb") as f:
        f.write(xmp_packet(description(alt("title", "ImageMagick XMP title"))))
    picture((60, 140, 90)).save(f"{g}/imagemagick-base.png", "PNG")
    subprocess.run([IMAGEMAGICK, f"{g}/imagemagick-base.png", "-profile", f"IPTC:{g}/imagemagick.iptc",
                    "-profile", f"XMP:{g}/imagemagick.xmp", "-define", "png:exclude-chunks=date,time",
                    f"{g}/imagemagick.png"], check=True)
    for name in ("imagemagick-base.png", "imagemagick.iptc", "imagemagick.xmp"):
        os.remove(f"{g}/{name}")
    # ImageMagick 6's XMP in PNG as made here, byte by byte: a zTXt raw profile of the packet.
    info = PngInfo()
    info.add_text("Raw profile type xmp", raw_profile("xmp", xmp_packet(description(alt("title", "PNG raw XMP title")))),
                  zip=True)
    picture((160, 90, 90)).save(f"{g}/xmp-raw.png", "PNG", pnginfo=info)


def photoshop_resources(iim):
    """Photoshop's image resources as a TIFF's tag 34377 holds them: a resolution record, then the IIM's."""
    resolution = b"8BIM" + struct.pack(">H", 0x03ED) + b"\x00\x00" + struct.pack(">I", 16) + bytes(16)
    return resolution + app13(iim)[len(b"Photoshop 3.0\x00"):]


# ---- hostile ----------------------------------------------------------------------------------------------

def with_entry(data, tag, count=None, offset=None):
    """`data` (a TIFF) with IFD0's entry `tag` given another count or value offset: what no writer makes."""
    e = ">" if data[:2] == b"MM" else "<"
    ifd = struct.unpack(e + "I", data[4:8])[0]
    out = bytearray(data)
    for i in range(struct.unpack(e + "H", data[ifd:ifd + 2])[0]):
        at = ifd + 2 + 12 * i
        if struct.unpack(e + "H", data[at:at + 2])[0] != tag:
            continue
        if count is not None:
            out[at + 4:at + 8] = struct.pack(e + "I", count)
        if offset is not None:
            out[at + 8:at + 12] = struct.pack(e + "I", offset)
    return bytes(out)


def make_hostile_tiff_and_png(h):
    kept = utf8_iim((5, "IPTC title kept"))
    packet = xmp_packet(description(alt("title", "XMP title kept")))
    cases = {
        # A count claiming 4 GiB: refused from the count, never allocated or read.
        "tiff-xmp-count.tif": with_entry(tiff_with([(700, t.UNDEFINED, packet), (33723, t.BYTE, kept)]), 700,
                                         count=0xFFFFFFF0),
        "tiff-iptc-count.tif": with_entry(tiff_with([(700, t.UNDEFINED, packet), (33723, t.LONG, [0x1C020500] * 4)]),
                                          33723, count=0x40000000),
        "tiff-iptc-short.tif": tiff_with([(700, t.UNDEFINED, packet), (33723, t.SHORT, [0x1C02, 0x0500])]),
        "tiff-photoshop-count.tif": with_entry(tiff_with([(700, t.UNDEFINED, packet),
                                                          (34377, t.UNDEFINED, photoshop_resources(kept))]),
                                               34377, count=0x7FFFFFFF),
    }
    # An XMP tag whose bytes run past the end of the file (the file cut inside the packet; the IFD comes first).
    whole = tiff_with([(700, t.UNDEFINED, xmp_packet(description(alt("title", "cut"))))], order="II", first=True)
    cases["tiff-xmp-truncated.tif"] = whole[:-200]
    for name, data in cases.items():
        with open(f"{h}/{name}", "wb") as f:
            f.write(data)
    iim = utf8_iim((5, "never read"))
    profiles = {
        "png-iptc-bad-hex.png": raw_profile("iptc", iim).replace("1c", "zz", 1),
        "png-iptc-lying.png": raw_profile("iptc", iim, declared=len(iim) + 40),
        "png-iptc-longer.png": raw_profile("iptc", iim, declared=len(iim) - 4),
        "png-iptc-huge.png": raw_profile("iptc", iim, declared=999999999),
    }
    for name, text in profiles.items():
        png_with_text(f"{h}/{name}", "Raw profile type iptc", text)
    xmp = xmp_packet(description(alt("title", "never read")))
    png_with_text(f"{h}/png-xmp-bad-hex.png", "Raw profile type xmp", raw_profile("xmp", xmp).replace("3c", "zz", 1))
    png_with_text(f"{h}/png-xmp-huge.png", "Raw profile type xmp", raw_profile("xmp", xmp, declared=2000000))
    # For the fuzzer and the sanitizer check: a raw profile's text itself.
    with open(f"{h}/raw-profile-iptc.txt", "w") as f:
        f.write(raw_profile("iptc", utf8_iim((5, "title"), (25, "keyword"))))


def with_app(jpeg_bytes, marker, payload):
    segment = bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    return jpeg_bytes[:2] + segment + jpeg_bytes[2:]


def plain_jpeg(colour):
    out = io.BytesIO()
    picture(colour).save(out, "JPEG", quality=80)
    return out.getvalue()


def xmp_jpeg(path, packet, colour=(100, 0, 0)):
    with open(path, "wb") as f:
        f.write(with_app(plain_jpeg(colour), 0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + packet))


def dataset(record, tag, value):
    return bytes([0x1C, record, tag]) + struct.pack(">H", len(value)) + value


def app13(iim):
    resource = b"8BIM" + struct.pack(">H", 0x0404) + b"\x00\x00" + struct.pack(">I", len(iim)) + iim
    if len(resource) % 2:
        resource += b"\x00"
    return b"Photoshop 3.0\x00" + resource


def iptc_jpeg(path, iim, colour=(0, 100, 0)):
    """IIM over as many APP13 segments as it needs (Photoshop's split: the resource goes on in the next)."""
    payload = app13(iim)
    data = plain_jpeg(colour)
    chunks = [payload[:65000]] + [b"Photoshop 3.0\x00" + payload[i:i + 65000] for i in range(65000, len(payload), 65000)]
    for chunk in reversed(chunks):
        data = with_app(data, 0xED, chunk)
    with open(path, "wb") as f:
        f.write(data)


def make_hostile():
    h = HOSTILE
    laughs = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
              + ']>\n<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              + description(alt("title", "&lol9;")) + '</rdf:RDF></x:xmpmeta>')
    xmp_jpeg(f"{h}/billion-laughs.jpg", laughs.encode())
    for name, url in (("entity-file", "file:///etc/hostname"), ("entity-http", "http://127.0.0.1:9/x.xml")):
        packet = (f'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY ext SYSTEM "{url}">]>\n'
                  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                  + description(alt("title", "&ext;")) + '</rdf:RDF></x:xmpmeta>')
        xmp_jpeg(f"{h}/{name}.jpg", packet.encode())
    xmp_jpeg(f"{h}/invalid-utf8.jpg", xmp_packet(description(alt("title", "bad"))).replace(b"bad", b"b\xff\xfed"))
    # UTF-16 with a BOM is XML too: read, not refused.
    utf16 = xmp_packet(description(alt("title", "UTF-16 title"))).decode().replace('<?xpacket begin="\ufeff"', '<?xpacket begin=""')
    xmp_jpeg(f"{h}/utf16.jpg", "\ufeff".encode("utf-16-le") + utf16.encode("utf-16-le"))
    xmp_jpeg(f"{h}/not-xml.jpg", b"\x00\x01 this is not XML")
    # A declared ISO-8859-1 is read; an encoding expat does not know is refused.
    declared = ('<?xml version="1.0" encoding="ISO-8859-1"?>'
                + xmp_packet(description(alt("title", "Caf\u00e9 declared"))).decode().split("?>", 1)[1])
    xmp_jpeg(f"{h}/latin1-declared.jpg", declared.encode("latin-1"))
    xmp_jpeg(f"{h}/unknown-encoding.jpg", b'<?xml version="1.0" encoding="Shift_JIS"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>')
    # IIM: an extended length that wraps libiptcdata's 32-bit sum; 50,000 datasets.
    overflow = dataset(2, 5, b"ok") + bytes([0x1C, 2, 120, 0x80, 0x04]) + struct.pack(">I", 0xFFFFFFF0) + b"xx"
    iptc_jpeg(f"{h}/iim-overflow.jpg", overflow)
    iptc_jpeg(f"{h}/iim-50000.jpg", b"".join(dataset(2, 25, b"") for _ in range(50000)))
    iptc_jpeg(f"{h}/iim-garbage.jpg", dataset(2, 5, b"title") + b"\x42" * 9)
    make_hostile_tiff_and_png(h)
    # For the fuzzer and the sanitizer check: the raw streams.
    with open(f"{h}/overflow.iim", "wb") as f:
        f.write(overflow)
    with open(f"{h}/billion-laughs.xmp", "wb") as f:
        f.write(laughs.encode())


def main():
    if shutil.which("exiftool") is None:
        sys.exit("exiftool is missing: scripts/ensure-packages libimage-exiftool-perl")
    if not os.path.exists(IMAGEMAGICK):
        sys.exit("ImageMagick 6 is missing: scripts/ensure-packages imagemagick")
    for folder in (GALLERY, HOSTILE):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    make_gallery()
    make_hostile()


if __name__ == "__main__":
    main()
