"""Issue 18, phone-first boards: every text on a board image stays legible when Discord shows the image
600 px wide (a capital letter at least `MIN_CAP_AT_600` px tall there)."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from games.core import Seat, get_game
from games.core.playout import random_playout
from render import common, render_png
from render.recap import MIN_CAP_AT_600, cap_height
from render_guard import clear_caches

GAMES = ["heroball", "dungeon", "quodd"]


def _texts(monkeypatch) -> list[tuple[str, int]]:
    seen: list[tuple[str, int]] = []
    real = common.Pen.text

    def text(self, xy, text, font=None, fill=common.INK, anchor=None, bg=None, size=None, **kw):
        seen.append((text, size if size is not None else font.size))
        return real(self, xy, text, font=font, fill=fill, anchor=anchor, bg=bg, size=size, **kw)

    monkeypatch.setattr(common.Pen, "text", text)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_label_is_legible_when_the_image_is_shown_600_px_wide(game, monkeypatch):
    engine = get_game(game)
    seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(engine.min_seats if engine.min_seats > 1 else 2)]
    states = []
    random_playout(engine, {}, seats, 3, cap=120, each=lambda before, p, a, after, ev: states.append(after))
    for state in states[::20] + states[-1:]:
        clear_caches(game)  # parts drawn once (the key) are drawn again, so their texts are seen too
        seen = _texts(monkeypatch)
        png = render_png(game, engine.view(state, None))
        assert png is not None and seen
        width = Image.open(io.BytesIO(png)).width
        scale = min(1.0, 600 / width)
        small = [(t, s) for t, s in seen if cap_height(s) * scale < MIN_CAP_AT_600]
        assert not small, f"{game}: at 600 px wide these texts have capitals under {MIN_CAP_AT_600} px: {small[:5]}"
        monkeypatch.undo()


def test_numbered_discs_of_actions_ending_on_one_square_are_spread_so_none_hides_another():
    """Issue 18: several actions ending on one square each keep a readable number (render/recap.py `spread`)."""
    import math

    from render.recap import spread

    r = 10
    same = [((100.0, 100.0), str(i), (0, 0, 0)) for i in range(1, 8)]
    placed = spread(same, r)
    assert [t for _, t, _ in placed] == [str(i) for i in range(1, 8)]
    assert placed[0][0] == (100.0, 100.0)  # the first keeps its place
    for i, (a, _, _) in enumerate(placed):
        for b, _, _ in placed[i + 1:]:
            assert math.hypot(a[0] - b[0], a[1] - b[1]) >= 2 * r
        assert math.hypot(a[0] - 100, a[1] - 100) <= 2 * (2 * r + 1) + 0.01  # next to the square, not far off
    apart = [((0.0, 0.0), "1", (0, 0, 0)), ((100.0, 0.0), "2", (0, 0, 0))]
    assert [p for p, _, _ in spread(apart, r)] == [(0.0, 0.0), (100.0, 0.0)]  # discs already apart stay put


@pytest.mark.parametrize("game", GAMES)
def test_the_background_is_the_palettes_first_colour(game):
    """render.common.grown fills what it adds with the palette's first colour: it must be the paper."""
    import importlib

    assert importlib.import_module(f"render.{game}").PALETTE.colours[0] == common.PAPER
