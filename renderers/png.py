"""PNG bytes for a board, with the compression of unchanged row bands remembered between posts.

Compressing the pixels was half of what a post costs (about 5 ms of a board's 10). But a move changes a
few squares, a seat card and a clock: most rows of a board are the rows of the post before it. So the
image's rows are cut into bands of `BAND_ROWS` rows; each band (its rows, each after its filter byte) is
deflated on its own, ending in a sync flush (byte-aligned, no history carried past it), and the result is
kept, keyed by the band's exact pixels. Deflate blocks that end in a sync flush may follow each other in
one stream, so the IDAT is the zlib header, the bands' outputs in order, an empty final block and the
Adler-32 of all the rows (combined from the bands' own, kept beside them).

A band is found first where it was in the last picture of the same size (one comparison of bytes, no
hashing: the next post of a match), then among all the bands kept (other matches, a board seen before).
A band's output is a function of its bytes alone (a fresh compressor each), so equal images still give
equal bytes, cached or not. A board missed entirely costs what it did before, plus about a tenth.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

COMPRESS_LEVEL = 1
"""zlib level 1: about 5 ms and 80 KB for a whole board, against 10 ms and 65 KB at level 6."""
BAND_ROWS = 16
"""Rows per band: smaller bands find more unchanged rows but compress a little worse (each starts afresh)."""
CACHE_BYTES = 32 * 1024 * 1024
"""The pixels of the bands kept (a band's pixels are its key, so no two bands can be mistaken): about
fifteen boards of bands found in no other board; bands many boards share count once."""
LAST_SIZES = 4
"""Picture sizes whose last picture's bands are kept in place for the next post of that size (beside
`CACHE_BYTES`: at most this many boards more, about 2 MB each)."""
ADLER_BASE = 65521
ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, the header zlib writes at level 1
FINAL_BLOCK = b"\x03\x00"  # an empty final block of fixed codes

Made = tuple[bytes, int]
"""A band deflated (ending in a sync flush) and the Adler-32 of its filtered rows."""


class BandCache:
    """Deflated bands by their pixels, least recently used dropped first; shared by render threads."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._bands: OrderedDict[tuple[int, bytes], Made] = OrderedDict()
        self._last: OrderedDict[tuple[int, int], list[tuple[bytes, Made]]] = OrderedDict()
        self._lock = threading.Lock()

    def bands(self, raw: bytes, width: int, height: int) -> list[Made]:
        """Each band of an RGB image's pixels, deflated, top to bottom."""
        stride = 3 * width
        with self._lock:
            last = self._last.get((width, height), [])
        made: list[tuple[bytes, Made]] = []
        for index, start in enumerate(range(0, len(raw), BAND_ROWS * stride)):
            end = min(len(raw), start + BAND_ROWS * stride)
            if index < len(last) and len(last[index][0]) == end - start and raw.startswith(last[index][0], start):
                made.append(last[index])  # where it was in the last picture of this size
                with self._lock:
                    self.hits += 1
                continue
            pixels = raw[start:end]
            made.append((pixels, self._found_or_made(stride, pixels)))
        with self._lock:
            self._last[width, height] = made
            self._last.move_to_end((width, height))
            while len(self._last) > LAST_SIZES:
                self._last.popitem(last=False)
        return [band for _, band in made]

    def _found_or_made(self, stride: int, pixels: bytes) -> Made:
        key = (stride, pixels)  # the rows' width too: the same bytes cut into other rows are another band
        with self._lock:
            found = self._bands.get(key)
            if found is not None:
                self._bands.move_to_end(key)
                self.hits += 1
                return found
        # Each row after its filter byte, 0 (none): joining ["", row, row...] with b"\0" puts one before each.
        view = memoryview(pixels)
        rows = b"\0".join([b"", *(view[i : i + stride] for i in range(0, len(pixels), stride))])
        compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        made = (compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows))
        with self._lock:
            self.misses += 1
            if key not in self._bands:
                self._bands[key] = made
                self.size += len(pixels)
                while self.size > self.limit:
                    (_, old), _ = self._bands.popitem(last=False)
                    self.size -= len(old)
        return made

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self._last.clear()
            self.size = self.hits = self.misses = 0


BANDS = BandCache()


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's own and the second's length."""
    rem = second_length % ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % ADLER_BASE
    high = ((first >> 16) + (second >> 16) + rem * ((first & 0xFFFF) - 1)) % ADLER_BASE
    return high << 16 | low


def to_png(image: Image.Image, cache: BandCache = BANDS) -> bytes:
    """PNG bytes holding only the pixels (no time, no dpi, no text), so equal images give equal bytes.

    Written by hand because Pillow's encoder tries five row filters per row: on these flat-coloured
    boards that more than doubles the encoding time (about 12 ms against 5) and makes files larger.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    stride = 3 * rgb.width
    parts, adler = [ZLIB_HEADER], 1
    for top, (deflated, band_adler) in zip(
        range(0, rgb.height, BAND_ROWS), cache.bands(rgb.tobytes(), rgb.width, rgb.height), strict=True
    ):
        parts.append(deflated)
        rows = min(BAND_ROWS, rgb.height - top)
        adler = adler32_combine(adler, band_adler, rows * (stride + 1))
    parts += [FINAL_BLOCK, struct.pack(">I", adler)]
    header = struct.pack(">IIBBBBB", rgb.width, rgb.height, 8, 2, 0, 0, 0)  # 8-bit RGB, not interlaced
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts)) + _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
