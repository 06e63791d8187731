"""What every renderer shares: fonts, a palette for seats, and deterministic PNG encoding."""
from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

# Colour-blind-friendly seat colours (Okabe-Ito), in seat order.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # green
    (204, 121, 167),  # purple
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky
)
INK = (30, 30, 35)
PAPER = (248, 246, 240)
GRID = (160, 160, 160)
MUTED = (110, 110, 115)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font: the same glyphs on every machine."""
    return ImageFont.load_default(size=size)


def text_center(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill=INK) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def encode_png(img: Image.Image, *, palette: bool = True) -> bytes:
    """PNG bytes with fixed settings (no timestamps): same image, same bytes."""
    if palette and img.mode == "RGB":
        # fast octree: deterministic, ~10x quicker than median cut, and boards have few colours
        img = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
