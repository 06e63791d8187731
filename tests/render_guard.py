"""A guard the renderers' tests share: draw straight in the fixed palette, never quantise per render."""
from __future__ import annotations

import importlib

from PIL import Image

from render import common


def clear_caches(game: str) -> None:
    """Forget what the renderer drew before (sprites, layers, bands): the next board draws everything again."""
    common._sprite.cache_clear()
    common._level_lut.cache_clear()  # tables built before a patch would hide a missing blend
    common._opaque_lut.cache_clear()
    common._rounded.cache_clear()
    module = importlib.import_module(f"render.{game}")
    for value in vars(module).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def strict_palette(monkeypatch, game: str) -> None:
    """Fail on any colour missing from the game's palette, and on any per-render quantising."""
    clear_caches(game)

    def outside(pal, colour):
        raise AssertionError(f"{colour} is not in the {game} palette: add it (or its text/background pair) "
                             f"to render.{game}.PALETTE, or it is drawn as the nearest colour")

    def quantize(*a, **k):
        raise AssertionError("the image is quantised per render: draw it in the palette (render.common.Pen)")

    monkeypatch.setattr(common, "_nearest", outside)
    monkeypatch.setattr(Image.Image, "quantize", quantize)  # the slow path issue 7 removed
