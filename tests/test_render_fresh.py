"""Issue 12, boards drawn faster with the same pixels: a noted panel replayed below a grown base copies the texts
that lie where nothing is drawn yet whole from opaque sprites (`Recorder.replay(drawn=...)`), and every
board is byte for byte what the masked paste of every text gives. (The dungeon's panel is noted alone; Heroball's
and Quodd's Recorders hold the whole board, where following every shape cost what the panel's texts saved.)"""
from __future__ import annotations

import pytest
from PIL import Image

from games.core import Seat, get_game
from games.core.playout import random_playout
from render import common, render_png
from render.common import INK, PAPER, Palette, Recorder
from render_guard import clear_caches


def _boards(game: str) -> list[object]:
    engine = get_game(game)
    seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(max(2, engine.min_seats))]
    states: list[object] = []
    random_playout(engine, {}, seats, 11, cap=150, each=lambda before, p, a, after, ev: states.append(after))
    return [engine.view(st, None) for st in states[::10] + states[-1:]]


@pytest.mark.parametrize("game", ["dungeon"])  # the renderer whose Recorder holds its panel alone
def test_boards_replayed_with_fresh_texts_have_the_pixels_of_masked_texts(game, monkeypatch):
    views = _boards(game)
    copied = []
    real_opaque = common._opaque

    def counted(*key):
        copied.append(key[1])
        return real_opaque(*key)

    monkeypatch.setattr(common, "_opaque", counted)
    fast = [render_png(game, v) for v in views]
    assert len(copied) > 5 * len(views)  # most of a panel's lines take the whole copy

    real_replay = Recorder.replay
    monkeypatch.setattr(Recorder, "replay", lambda self, img, drawn=None: real_replay(self, img))
    clear_caches(game)
    plain = [render_png(game, v) for v in views]
    assert fast == plain


PAL = Palette([PAPER, INK, (200, 40, 40)], [(INK, PAPER), ((255, 255, 255), (200, 40, 40))])


def _replayed(ops, base: tuple[int, int, int, int], told: bool) -> bytes:
    rec = Recorder(PAL)
    ops(rec)
    img = PAL.new((220, 120), PAPER)
    img.paste(PAL[(200, 40, 40)], base)  # drawn before: the base, the rest fresh
    rec.replay(img, drawn=base if told else None)
    return img.tobytes()


@pytest.mark.parametrize("name,ops", [
    ("a text over a shape drawn before it", lambda d: (d.rectangle([10, 40, 60, 60], fill=(200, 40, 40)),
                                                       d.text((12, 42), "over the box", size=14))),
    ("a text over a text", lambda d: (d.text((10, 40), "first line", size=16),
                                      d.text((14, 46), "second, lower", size=16))),
    ("a text drawn back up over a line above", lambda d: (d.text((10, 40), "first line", size=16),
                                                          d.text((10, 80), "far below", size=16),
                                                          d.text((14, 46), "back up, over it", size=16))),
    ("a text reaching into the drawn base", lambda d: d.text((10, 22), "half above", size=16)),
    ("a text under an unknown shape", lambda d: (d.arc([0, 0, 200, 110], 0, 180, fill=INK),
                                                 d.text((40, 80), "under the arc", size=14))),
    ("texts above one another, then a low one", lambda d: (d.text((10, 40), "top", size=14),
                                                           d.text((10, 60), "middle", size=14),
                                                           d.ellipse([100, 58, 120, 78], fill=(200, 40, 40)),
                                                           d.text((104, 62), "x", size=14),
                                                           d.text((10, 95), "bottom", size=14))),
])
def test_a_text_copied_whole_leaves_what_was_drawn_before_it(name, ops):
    assert _replayed(ops, (0, 0, 220, 30), True) == _replayed(ops, (0, 0, 220, 30), False), name


@pytest.mark.parametrize("x", [104, 96, 60])  # beside the base, reaching into it, on it
def test_a_text_beside_a_narrow_base_is_copied_whole_only_off_it(x):
    def ops(d):
        d.text((x, 20), "beside", size=16)
    assert _replayed(ops, (0, 0, 100, 60), True) == _replayed(ops, (0, 0, 100, 60), False)


def test_the_opaque_sprite_is_the_masked_paste_on_the_first_colour():
    key = (PAL, "Sprite 12 · ok", 15, "la", INK, PAPER)
    idx, mask, _, _, w, h = common._sprite(*key)
    on_paper = PAL.new((w, h), PAPER)
    on_paper.im.paste(idx, (0, 0, w, h), mask)
    whole = Image.new("P", (w, h))
    whole.im.paste(common._opaque(*key), (0, 0, w, h))
    assert whole.tobytes() == on_paper.tobytes()
