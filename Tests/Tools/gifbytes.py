"""GIF files written byte by byte, so that every field (and every hostile value) is under the caller's control.

Used by make_gif_fixtures.py. Follows the GIF89a specification: a header, the logical screen descriptor with an
optional global colour table, then blocks (image descriptors with LZW data in sub-blocks, extensions) and the
trailer. Nothing here checks that the values make sense: that is the point.
"""
import struct


def colour_table(colours, entries=None):
    """(size bits for the packed field, table bytes): a table of 2**n entries, padded with black."""
    entries = entries or max(2, len(colours))
    bits = max(1, (entries - 1).bit_length())
    padded = list(colours) + [(0, 0, 0)] * ((1 << bits) - len(colours))
    return bits - 1, b"".join(bytes(c) for c in padded)


def screen(width, height, table=None, background=0, version=b"GIF89a", aspect=0):
    packed = 0
    data = b""
    if table is not None:
        size, data = colour_table(table)
        packed = 0x80 | (7 << 4) | size
    return version + struct.pack("<HHBBB", width, height, packed, background, aspect) + data


def control(disposal=0, delay=0, transparent=None, user_input=False):
    """A Graphic Control Extension: disposal method, delay in centiseconds, transparent colour index."""
    packed = (disposal & 7) << 2 | (2 if user_input else 0) | (1 if transparent is not None else 0)
    return b"\x21\xF9\x04" + struct.pack("<BHB", packed, delay, transparent or 0) + b"\x00"


def netscape(loops):
    """The NETSCAPE2.0 application extension: how many times to play (0 = forever)."""
    return b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loops) + b"\x00"


def comment(text):
    return b"\x21\xFE" + sub_blocks(text) + b"\x00"


def sub_blocks(data):
    """Data in sub-blocks of at most 255 bytes, each after its length byte (no terminator)."""
    return b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255))


def lzw(indices, minimum):
    """GIF's variable-length LZW, codes packed least significant bit first; a clear code first and whenever the
    dictionary is full, the end-of-information code last."""
    clear, end = 1 << minimum, (1 << minimum) + 1
    out, buffer, bits = bytearray(), 0, 0
    size, table, next_code = minimum + 1, {}, end + 1

    def emit(code):
        nonlocal buffer, bits
        buffer |= code << bits
        bits += size
        while bits >= 8:
            out.append(buffer & 0xFF)
            buffer >>= 8
            bits -= 8

    emit(clear)
    prefix = None
    for index in indices:
        if prefix is None:
            prefix = (index,)
            continue
        candidate = prefix + (index,)
        if candidate in table:
            prefix = candidate
            continue
        emit(table[prefix] if len(prefix) > 1 else prefix[0])
        if next_code < 4096:
            table[candidate] = next_code
            next_code += 1
            # The decoder widens one code later than the encoder adds: widen once the next code needs it.
            if next_code > (1 << size) and size < 12:
                size += 1
        else:
            emit(clear)
            table, next_code, size = {}, end + 1, minimum + 1
        prefix = (index,)
    if prefix is not None:
        emit(table[prefix] if len(prefix) > 1 else prefix[0])
    emit(end)
    if bits:
        out.append(buffer & 0xFF)
    return bytes(out)


def interlaced_order(height):
    """The stored row order of an interlaced image: rows 0, 8, 16, …; 4, 12, …; 2, 6, …; 1, 3, …."""
    return [y for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for y in range(start, height, step)]


def image(x, y, width, height, pixels, table=None, interlace=False, minimum=None, data=None):
    """An image descriptor, its local colour table and its LZW data. `pixels` is a list of rows of colour
    indices (in display order; interlacing reorders them); `data` replaces the compressed bytes outright."""
    packed = 0x40 if interlace else 0
    local = b""
    if table is not None:
        size, local = colour_table(table)
        packed |= 0x80 | size
    minimum = minimum or max(2, max((max(row) for row in pixels), default=1).bit_length())
    rows = [pixels[r] for r in interlaced_order(height)] if interlace else pixels
    if data is None:
        data = lzw([i for row in rows for i in row], minimum)
    return (b"\x2C" + struct.pack("<HHHHB", x, y, width, height, packed) + local + bytes([minimum])
            + sub_blocks(data) + b"\x00")


TRAILER = b"\x3B"
