#!/usr/bin/env python3
"""Edits ISO base media (MP4, MOV) boxes for the video tests: the display matrix of every video track
(tkhd), as a phone writes it for a portrait video, and the declared sizes (tkhd and the sample entry),
for the hostile cases. Test-only: the FFmpeg 5.1 that Debian 12 ships cannot write a rotation itself.

    mp4box.py rotate FILE DEGREES        (90, 180 or 270, clockwise, as the video is to be shown)
    mp4box.py declare FILE WIDTH HEIGHT  (the sizes the headers claim, whatever the stream holds)
    mp4box.py matrix FILE A B U C D V X Y W   (any display matrix, as stored: 16.16 and 2.30 numbers)
    mp4box.py udta-first FILE            (the movie's user data, cover art included, before its tracks:
                                          ffprobe then counts the cover as the first stream)
    mp4box.py external FILE PATH         (the video track's frames said to be in another file: an 'alis' data
                                          reference to PATH, as old QuickTime reference movies have; the movie
                                          box must come after mdat, as FFmpeg writes MOV)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heifbox import boxes  # noqa: E402  (the same box walk: type, payload start, box end)

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"udta"}


def video_tracks(data):
    """(tkhd payload start, stsd payload start) of each track whose handler is 'vide'."""
    for kind, payload, end in boxes(data, 0, len(data)):
        if kind != b"moov":
            continue
        for trak_kind, trak_payload, trak_end in boxes(data, payload, end):
            if trak_kind != b"trak":
                continue
            found = {}

            def walk(start, stop):
                for k, p, e in boxes(data, start, stop):
                    if k in (b"tkhd", b"hdlr", b"stsd"):
                        found.setdefault(k, p)
                    if k in CONTAINERS:
                        walk(p, e)
            walk(trak_payload, trak_end)
            hdlr = found.get(b"hdlr")
            if hdlr is not None and data[hdlr + 8:hdlr + 12] == b"vide":
                yield found[b"tkhd"], found.get(b"stsd")


def tkhd_fields(data, tkhd):
    """Offsets of the tkhd matrix and of its width (16.16) and height."""
    version = data[tkhd]
    matrix = tkhd + 4 + (32 if version == 1 else 20) + 16
    return matrix, matrix + 36, matrix + 40


def rotate(data, degrees):
    cos, sin = {90: (0, 1), 180: (-1, 0), 270: (0, -1)}[degrees]
    for tkhd, _ in video_tracks(data):
        matrix, width_at, height_at = tkhd_fields(data, tkhd)
        width = struct.unpack(">I", data[width_at:width_at + 4])[0] >> 16
        height = struct.unpack(">I", data[height_at:height_at + 4])[0] >> 16
        tx = {90: height, 180: width, 270: 0}[degrees] << 16
        ty = {90: 0, 180: height, 270: width}[degrees] << 16
        values = [cos << 16, sin << 16, 0, -sin << 16, cos << 16, 0, tx, ty, 1 << 30]
        data[matrix:matrix + 36] = struct.pack(">9i", *values)


def matrix(data, values):
    for tkhd, _ in video_tracks(data):
        at, _, _ = tkhd_fields(data, tkhd)
        data[at:at + 36] = struct.pack(">9i", *values)


def udta_first(data):
    """Moves moov's udta box in front of its first trak (same boxes, same sizes: no offset moves)."""
    for kind, payload, end in boxes(data, 0, len(data)):
        if kind != b"moov":
            continue
        children = [(k, p - 8, e) for k, p, e in boxes(data, payload, end)]
        udta = [c for c in children if c[0] == b"udta"]
        if not udta:
            sys.exit("no udta box in moov")
        others = [c for c in children if c[0] != b"udta"]
        first_trak = next(i for i, c in enumerate(others) if c[0] == b"trak")
        order = others[:first_trak] + udta + others[first_trak:]
        data[payload:end] = b"".join(bytes(data[start:stop]) for _, start, stop in order)


def external(data, path):
    """The video track's data reference: a Macintosh alias record whose absolute path is `path` (the fields
    libavformat's mov_read_dref reads), in place of the 'url ' entry that says 'this file'."""
    def walk(start, stop, chain):
        for kind, payload, end in boxes(data, start, stop):
            if kind == b"url ":
                return chain + [(kind, payload, end)]
            inner = payload + 8 if kind == b"dref" else payload
            if kind in (b"moov", b"trak", b"mdia", b"minf", b"dinf", b"dref"):
                found = walk(inner, end, chain + [(kind, payload, end)])
                if found:
                    return found
        return None
    chain = walk(0, len(data), [])
    if not chain:
        sys.exit("no 'url ' data reference")
    name = path.rsplit(b"/", 1)[-1][:63]
    record = (b"\0" * 10 + bytes([9]) + b"Elsewhere".ljust(27, b"\0") + b"\0" * 12 + bytes([len(name)])
              + name.ljust(63, b"\0") + b"\0" * 16 + struct.pack(">HH", 1, 1) + b"\0" * 16)
    record += struct.pack(">hH", 2, len(path)) + path.ljust(len(path) + (len(path) & 1), b"\0") + struct.pack(">hH", -1, 0)
    alis = struct.pack(">I", 12 + len(record)) + b"alis" + b"\0\0\0\0" + record
    _, payload, end = chain[-1]
    delta = len(alis) - (end - (payload - 8))
    data[payload - 8:end] = alis
    for _, outer, _ in chain[:-1]:
        size = struct.unpack(">I", data[outer - 8:outer - 4])[0]
        data[outer - 8:outer - 4] = struct.pack(">I", size + delta)


def declare(data, width, height):
    for tkhd, stsd in video_tracks(data):
        _, width_at, height_at = tkhd_fields(data, tkhd)
        data[width_at:width_at + 8] = struct.pack(">II", width << 16, height << 16)
        if stsd is not None:
            # The first sample entry: version/flags, count, then size, type, 6 reserved, index, 16 of
            # predefined and reserved, width, height.
            entry = stsd + 8
            data[entry + 32:entry + 36] = struct.pack(">HH", min(width, 65535), min(height, 65535))


def main():
    command, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if command == "rotate":
        rotate(data, int(sys.argv[3]))
    elif command == "matrix":
        matrix(data, [int(value) for value in sys.argv[3:12]])
    elif command == "udta-first":
        udta_first(data)
    elif command == "declare":
        declare(data, int(sys.argv[3]), int(sys.argv[4]))
    elif command == "external":
        external(data, os.fsencode(sys.argv[3]))
    else:
        sys.exit(__doc__)
    with open(path, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
