"""TIFF files assembled byte by byte (standard library only), for the TIFF fixtures (make_tiff_fixtures.py) and
the hostile-folder bombs (Tests/Hostile/bombs.py): what Pillow's writer will not make (an IFD after the data on
purpose, 16-bit RGB, tiles, separate planes, an IFD chain that loops, a header claiming sizes no file holds,
codecs nobody writes any more).

An entry is (tag, type, value): value is a list of numbers, bytes (BYTE, ASCII, UNDEFINED), ("data", [bytes])
for StripOffsets or TileOffsets (the blocks are written and their offsets stored), ("ifd", [entries]) for a
sub-IFD pointer such as the Exif IFD's, or ("offset", n) for a value field holding n whatever the count says.
"""
import struct

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, DOUBLE = 1, 2, 3, 4, 5, 7, 12

WIDTH, HEIGHT, BITS, COMPRESSION, PHOTOMETRIC = 256, 257, 258, 259, 262
STRIP_OFFSETS, ORIENTATION, SAMPLES, ROWS_PER_STRIP, STRIP_BYTES = 273, 274, 277, 278, 279
PLANAR, TILE_WIDTH, TILE_LENGTH, TILE_OFFSETS, TILE_BYTES = 284, 322, 323, 324, 325
SUBFILE, EXTRA_SAMPLES, SAMPLE_FORMAT, DNG_VERSION, EXIF_IFD, GPS_IFD = 254, 338, 339, 50706, 34665, 34853

_FORMATS = {BYTE: "B", SHORT: "H", LONG: "I", 6: "b", 8: "h", 9: "i", 11: "f", DOUBLE: "d"}


class Writer:
    """One TIFF in the making: the header first, then IFDs and their values in the order they are written."""

    def __init__(self, order="II"):
        self.e = "<" if order == "II" else ">"
        self.out = bytearray((b"II*\x00" if order == "II" else b"MM\x00*") + b"\x00\x00\x00\x00")

    def blob(self, data):
        if len(self.out) % 2:
            self.out += b"\x00"
        at = len(self.out)
        self.out += data
        return at

    def _pack(self, type_, value):
        if isinstance(value, (bytes, bytearray)):
            return bytes(value), len(value)
        if type_ == RATIONAL:
            return b"".join(struct.pack(self.e + "II", n, d) for n, d in value), len(value)
        return b"".join(struct.pack(self.e + _FORMATS[type_], v) for v in value), len(value)

    def _field(self, tag, type_, value):
        """(tag, type, count, 4-byte field) with any out-of-line value written now."""
        if isinstance(value, tuple) and value[0] == "offset":
            return tag, type_, 1, struct.pack(self.e + "I", value[1])
        if isinstance(value, tuple) and value[0] == "ifd":
            return tag, LONG, 1, struct.pack(self.e + "I", self.ifd(value[1], first=False))
        if isinstance(value, tuple) and value[0] == "data":
            value = [self.blob(block) for block in value[1]]
            type_ = LONG
        data, count = self._pack(type_, value)
        if len(data) > 4:
            return tag, type_, count, struct.pack(self.e + "I", self.blob(data))
        return tag, type_, count, data.ljust(4, b"\x00")

    def ifd(self, entries, first=True, next_ifd=0):
        """Writes an IFD; `first`: its table before its values and data (as Pillow writes), else after them (as
        libtiff does: the IFD after the image data). `next_ifd`: an offset, or "self" for a loop. Its offset."""
        entries = sorted(entries, key=lambda entry: entry[0])
        size = 2 + 12 * len(entries) + 4
        at = self.blob(b"\x00" * size) if first else None
        fields = [self._field(*entry) for entry in entries]
        if at is None:
            at = self.blob(b"\x00" * size)
        table = struct.pack(self.e + "H", len(fields))
        for tag, type_, count, field in fields:
            table += struct.pack(self.e + "HHI", tag, type_, count) + field
        table += struct.pack(self.e + "I", at if next_ifd == "self" else next_ifd)
        self.out[at:at + size] = table
        return at

    def finish(self, ifd0):
        self.out[4:8] = struct.pack(self.e + "I", ifd0)
        return bytes(self.out)


def image_entries(width, height, *, samples=3, bits=8, photometric=2, compression=1, strips, rows_per_strip,
                  extra=()):
    """The tags of a striped image whose strips (bytes, coded) are `strips`."""
    entries = [(WIDTH, LONG, [width]), (HEIGHT, LONG, [height]), (BITS, SHORT, [bits] * samples),
               (COMPRESSION, SHORT, [compression]), (PHOTOMETRIC, SHORT, [photometric]),
               (SAMPLES, SHORT, [samples]), (ROWS_PER_STRIP, LONG, [rows_per_strip]),
               (STRIP_BYTES, LONG, [len(s) for s in strips]), (STRIP_OFFSETS, LONG, ("data", strips))]
    tags = {tag for tag, _, _ in extra}
    return [entry for entry in entries if entry[0] not in tags] + list(extra)


def striped(width, height, rows, row_bytes, rows_per_strip):
    """Raw rows (a list of bytes) cut into strips."""
    return [b"".join(rows[y:y + rows_per_strip]) for y in range(0, height, rows_per_strip)]


def tiff(width, height, rows, *, order="II", samples=3, bits=8, photometric=2, rows_per_strip=None, first=True,
         extra=(), next_ifd=0):
    """An uncompressed striped TIFF of `rows` (bytes each, as stored)."""
    rows_per_strip = rows_per_strip or height
    w = Writer(order)
    strips = striped(width, height, rows, None, rows_per_strip)
    ifd0 = w.ifd(image_entries(width, height, samples=samples, bits=bits, photometric=photometric,
                               strips=strips, rows_per_strip=rows_per_strip, extra=extra), first=first, next_ifd=next_ifd)
    return w.finish(ifd0)
