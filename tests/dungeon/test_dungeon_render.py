"""The board image is drawn straight in a fixed palette: every colour it asks for must be in it."""
from __future__ import annotations

import io
import random

from PIL import Image

from games.core import Seat
from games.dungeon import ENGINE as E
from games.dungeon.data import content
from render import common
from render.dungeon import PALETTE, _aura_tint, render
from render_guard import strict_palette


def _views(seed: int, every: int = 5, cap: int = 600):
    """Views along a seeded random game: six heroes, monsters, debuffs, loot, spawns, auras."""
    heroes = sorted(content().heroes)[:6]
    seats = [Seat(player=f"p{i}", name=f"P{i}", choices={"hero": h}) for i, h in enumerate(heroes)]
    state = E.setup({}, seats, seed)
    pick = random.Random(seed)
    for i in range(cap):
        st = E.status(state)
        if st.finished or not st.to_act:
            break
        if i % every == 0:
            yield E.view(state, None)
        player = pick.choice(st.to_act)
        state, _ = E.apply(state, player, pick.choice(E.legal_actions(state, player)))
    yield E.view(state, None)


def test_every_colour_and_text_edge_is_in_the_fixed_palette(monkeypatch):
    common._sprite.cache_clear()
    common._remap_table(PALETTE, _aura_tint)  # the aura's table maps every entry, to the nearest on purpose
    strict_palette(monkeypatch, "dungeon")
    n = 0
    for seed in (3, 11):
        for view in _views(seed):
            png = render(view)
            n += 1
    assert n > 20
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P" and img.width <= 800 and img.height <= 2000  # issue 18: narrow, the panel below
    common._sprite.cache_clear()  # sprites built under the patch are fine, but start the next test clean



def test_a_full_table_fits_a_phone_screen_stats_beside_the_names_and_monsters_in_columns():
    """Six heroes (the most seats) and ten monsters on the widest map, halfway through the seeded game whose board
    `playpost bench` measures as the largest: each hero's stats share the name's line and the monster list runs in
    columns, so the board stays within 2000 px tall (issue 18's phone limit; one line per hero and per monster
    made this board 2211 px)."""
    from tools.bench.common import SEED, played

    game = played(E, {"dungeon": "crystal_caverns", "difficulty": "explorer"}, SEED, 6)
    view = E.view(game.states[len(game.states) // 2], None)
    assert len(view.heroes) == 6 and len(view.monsters) >= 10  # the crowded table this test is about
    img = Image.open(io.BytesIO(render(view)))
    assert img.width <= 800 and img.height <= 2000, img.size


def test_a_whole_map_fits_800_px_and_a_smaller_shown_part_keeps_the_larger_squares():
    """Phone-first: a board is at most 800 px wide (a whole 24-column map too: its squares shrink to 31 px, shown
    on a phone as large as before); level 1's 14 columns keep 34 px squares."""
    from render.dungeon import CELL, MAX_W, MIN_CELL, square_size

    view = next(_views(3))
    whole = view.model_copy(update={"explored": (0, 0, view.width - 1, view.height - 1)})
    assert view.width == 24 and square_size(whole) == MIN_CELL
    assert Image.open(io.BytesIO(render(whole))).width == MAX_W
    x0, _, x1, _ = view.explored
    assert x1 - x0 + 1 == 14 and square_size(view) == CELL
