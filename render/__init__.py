"""Board images: one module per game (`render/<game id>.py` or package) with `render(view) -> bytes`.

Renderers are pure functions from an engine's read-only view to PNG bytes; the bot calls
them off the event loop (in a process pool: module-level caches are per process, keep them bounded).

Speed (issue 7): draw straight into a palette image with `render.common.Palette` (every colour
the renderer uses, plus the text/background pairs whose anti-aliased edges it needs) and
`render.common.Pen` (ImageDraw taking RGB colours; text pasted from cached sprites), on a cached
static layer. Then `encode_png` has nothing to quantise and drawing costs a fraction of encoding.
Each renderer's tests check that every colour it draws is in its palette. Issue 12: a board whose panel
sets its height is drawn through `render.common.Recorder` and replayed on an image made at its final size
(`grown` from the cached layer); parts every board of a layout shares (a map's key) are cached `band`s.
A text's mask is put together from its words' cached masks (`render.words`, exactly FreeType's), and a replayed
panel's texts where nothing is drawn yet are copied whole (`Recorder.replay(drawn=...)`).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

Renderer = Callable[..., bytes]


@cache
def renderer_for(game_id: str) -> Renderer | None:
    try:
        module = importlib.import_module(f"render.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"render.{game_id}",):
            return None
        raise
    return getattr(module, "render", None)


def render_png(game_id: str, view: Any, **options: Any) -> bytes | None:
    """PNG bytes of a view, or None when the game has no renderer."""
    fn = renderer_for(game_id)
    return None if fn is None else fn(view, **options)
