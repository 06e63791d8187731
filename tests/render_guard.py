"""A guard the renderers' tests share: draw straight in the fixed palette, never quantise per render."""
from __future__ import annotations

from PIL import Image

from render import common


def strict_palette(monkeypatch, game: str) -> None:
    """Fail on any colour missing from the game's palette, and on any per-render quantising."""
    common._sprite.cache_clear()
    common._level_lut.cache_clear()  # tables built before the patch would hide a missing blend

    def outside(pal, colour):
        raise AssertionError(f"{colour} is not in the {game} palette: add it (or its text/background pair) "
                             f"to render.{game}.PALETTE, or it is drawn as the nearest colour")

    def quantize(*a, **k):
        raise AssertionError("the image is quantised per render: draw it in the palette (render.common.Pen)")

    monkeypatch.setattr(common, "_nearest", outside)
    monkeypatch.setattr(Image.Image, "quantize", quantize)  # the slow path issue 7 removed
