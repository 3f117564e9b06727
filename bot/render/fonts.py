"""The font every system's pictures draw with: Pillow's scalable built-in font (Pillow >= 10.1), else a
TrueType font shipped in assets/, else the old fixed bitmap font."""
import functools
import pathlib

from PIL import ImageFont

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


@functools.lru_cache(maxsize=64)
def font(size: int):
    size = max(6, int(size))
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, AttributeError, OSError, ImportError):
        pass
    for path in sorted(ASSETS.glob("*.ttf")):
        try:
            return ImageFont.truetype(str(path), size)
        except OSError:
            continue
    return ImageFont.load_default()
