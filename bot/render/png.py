"""PNG bytes of a paletted picture, written here rather than by Pillow.

Deflating the pixels is most of the cost of a map (bench/render.py), and
Pillow's PNG writer always deflates with zlib. ISA-L's deflate (the `isal`
package) makes the same standard stream about six times faster, a few
percent larger. Without `isal` installed (a platform with no wheel for
it), zlib does the work and only the speed differs.
"""
import struct
import zlib

from PIL import Image

try:
    from isal import isal_zlib as _deflate
    COMPRESSOR, COMPRESS_LEVEL = "isal", 1  # ISA-L's levels run 0-3; 1 is as fast as 0 and ~15% smaller
except ImportError:  # pragma: no cover - exercised where isal has no wheel
    _deflate = zlib
    COMPRESSOR, COMPRESS_LEVEL = "zlib", 3  # zlib: as fast as 1 on maps, and smaller

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def paletted_png(im, level: int | None = None) -> bytes:
    """`im` (Pillow, mode "P") as PNG: 8 bits a pixel, rows unfiltered (the
    filters help photographs, not palette indices)."""
    if im.mode != "P":
        raise ValueError(f"a paletted image is needed, not mode {im.mode}")
    width, height = im.size
    # each row: its filter byte (0, none) then its pixels, as the picture one pixel wider, moved right by
    # one, gives them: one copy in C rather than a slice and a join a row
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(im, (1, 0))
    rows = framed.tobytes()
    palette = bytes(im.getpalette()[:3 * 256])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit, colour type 3 (palette)
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", _deflate.compress(rows, COMPRESS_LEVEL if level is None else level)),
                     _chunk(b"IEND", b"")))
