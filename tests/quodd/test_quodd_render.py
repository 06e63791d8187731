"""The board image: deterministic, phone-sized, quick, and drawing what the view says where it says."""
from __future__ import annotations

import io

from PIL import Image
from qhelpers import build

from games.core import Seat
from games.quodd import ENGINE as E
from render.common import SEAT_COLORS
from render.quodd import CELL, MARGIN, render
from render_guard import strict_palette


def _png(view) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def test_every_scenario_renders_deterministically_within_the_size_budget():
    """Render time is measured by the benchmark, not here: no test depends on the machine's speed."""
    for sc in ("tutorial", "heist", "trial"):
        n = 6 if sc == "heist" else 1
        st = E.setup({"scenario": sc}, [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)], 2)
        view = E.view(st, None)
        first = render(view)
        again = render(view)
        assert first == again
        img = Image.open(io.BytesIO(first))
        assert img.width <= 640 and img.height <= 1800  # issue 18: phone-shaped, the panel below the map


def test_heroes_are_drawn_in_their_seat_colour_on_their_square():
    st = build(["......"] * 4, heroes=[dict(pos="B2"), dict(pos="E4")])
    img = _png(E.view(st, None))
    for seat, lab in ((0, "B2"), (1, "E4")):
        x, y = ord(lab[0]) - 65, int(lab[1]) - 1
        cx, cy = MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2 + 5  # below the icon letters
        px = img.getpixel((cx, cy))
        assert all(abs(a - b) < 40 for a, b in zip(px, SEAT_COLORS[seat], strict=True)), (lab, px)


def test_a_pit_and_a_wall_look_different_from_ground():
    st = build(["..O..."] * 2, heroes=[dict(pos="A2")], tokens={"E1": "wall"})
    img = _png(E.view(st, None))

    def at(lab):
        x, y = ord(lab[0]) - 65, int(lab[1]) - 1
        return img.getpixel((MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2))

    assert at("C1") != at("D1") and at("E1") != at("D1") and at("C1") != at("E1")


def test_squares_a_pending_decision_offers_are_outlined():
    from qhelpers import do, seed_rolling

    st = build(["........"] * 5, tokens={"B3": "teleporter"}, heroes=[dict(pos="A3")], tumbled=True,
               ready="slide", points=1, seed=seed_rolling(1))
    st, _ = do(st, "ann", "move direction:E distance:1")
    view = E.view(st, None)
    assert sorted(view.choice_squares) == ["A3", "B2", "B4", "C3"]
    img = _png(view)
    x0, y0 = MARGIN + 2 * CELL, MARGIN + 2 * CELL  # C3's top-left corner
    assert img.getpixel((x0 + CELL // 2, y0 + 2)) == (255, 0, 150)


def test_the_busiest_image_of_each_scenario_stays_phone_shaped():
    """Every legend entry present (path, carried, token under a hero, up/down dot, choices) and a full table: at
    most 640 px wide (shown about 600 px wide on a phone, issue 18), the panel below, at most 1800 px tall."""
    for sc in ("tutorial", "heist", "trial"):
        n = min(4 if sc != "heist" else 6, E._scenario({"scenario": sc}).max_players)
        st = E.setup({"scenario": sc}, [Seat(player=f"p{i}", name=f"Player {i}") for i in range(n)], 2)
        view = E.view(st, None)
        token_squares = sorted(view.tokens)
        for i, hv in enumerate(view.heroes):
            hv.pos = token_squares[i]
            hv.facing = "up"
            hv.carrying = ["red-crystal"]
        view.ground = {token_squares[-1]: ["blue-crystal"]}
        view.last_path = token_squares[:3]
        view.last_mover = view.heroes[0].player
        view.choice_squares = token_squares[3:6]
        img = Image.open(io.BytesIO(render(view)))
        assert img.width <= 640 and img.height <= 1800, (sc, img.size)


def test_every_colour_and_text_edge_is_in_the_fixed_palette(monkeypatch):
    """The image is drawn straight in a fixed palette: a colour missing from it would be drawn as the nearest one."""
    import random

    from render import common
    from render.quodd import TOKEN_STYLE, _token

    strict_palette(monkeypatch, "quodd")
    from render.common import PAPER, Pen
    from render.quodd import PALETTE

    pen = Pen(PALETTE.new((60, 60), PAPER), PALETTE)
    for kind in TOKEN_STYLE:  # every token, as seen on the board
        _token(pen, (0, 0, CELL, CELL), kind, 3, "gold")
    for sc in ("tutorial", "heist", "trial"):
        seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(E._scenario({"scenario": sc}).max_players)]
        state = E.setup({"scenario": sc}, seats, 5)
        pick = random.Random(5)
        for i in range(200):
            st = E.status(state)
            if st.finished or not st.to_act:
                break
            if i % 4 == 0:
                render(E.view(state, None))
            player = pick.choice(st.to_act)
            state, _ = E.apply(state, player, pick.choice(E.legal_actions(state, player)))
    common._sprite.cache_clear()


def test_unchanged_hero_cards_are_pasted_from_the_cache_and_a_changed_one_is_drawn_anew():
    """Issue 12: each hero's card is drawn once for what it shows. A second board draws no card; a board where one
    hero's hand changed draws that card only, and its pixels are those of a board drawn with an empty cache."""
    from render.quodd import _card_patch

    st = E.setup({"scenario": "heist"}, [Seat(player=f"p{i}", name=f"P{i}") for i in range(6)], 2)
    view = E.view(st, None)
    _card_patch.cache_clear()
    first = render(view)
    assert _card_patch.cache_info().misses == 6
    assert render(view) == first
    assert _card_patch.cache_info().misses == 6 and _card_patch.cache_info().hits == 6
    heroes = list(view.heroes)
    heroes[2] = heroes[2].model_copy(update={"hand_size": heroes[2].hand_size + 3})
    changed = view.model_copy(update={"heroes": heroes})
    cached = render(changed)
    assert _card_patch.cache_info().misses == 7
    _card_patch.cache_clear()
    assert render(changed) == cached != first


def test_a_rally_marker_is_a_gold_flag_not_a_red_disc_like_the_move_numbers():
    """Play-test: move badges (red discs, white numbers) looked like the rally markers next to them."""
    from render.quodd import TOKEN_STYLE
    from render.recap import MOVE

    st = build(["......"] * 3, heroes=[dict(pos="A1")], rally=["D2", "F3"])
    img = _png(E.view(st, None))
    x, y = MARGIN + 3 * CELL, MARGIN + 1 * CELL  # D2's square
    cell = [img.getpixel((x + i, y + j)) for i in range(CELL) for j in range(CELL)]
    gold = TOKEN_STYLE["rally"][0]
    assert sum(px == gold for px in cell) > CELL * CELL // 8
    assert not any(all(abs(a - b) < 30 for a, b in zip(px, MOVE, strict=True)) for px in cell)


def test_a_legend_entry_too_long_for_its_column_is_set_smaller_instead_of_running_into_the_next():
    """Play-test (pasture): "black sheep (head ahead; walks 3, pu▢moving platform"."""
    from render.common import font
    from render.quodd import LEGEND_W, legend_size

    room = LEGEND_W - 18 - 14
    text = "black sheep (head ahead; walks 3, pushes)"
    assert font(legend_size(text, room)).getlength(text) <= room
    assert legend_size("pit", room) == 14


def test_draws_earned_this_turn_are_shown_with_the_explore_icons_not_as_an_unexplained_plus_by_the_hand():
    from render.quodd import explore_text

    st = build(["......"] * 3, heroes=[dict(pos="A1")])
    st.heroes[0].explores_earned = 1
    hv = E.view(st, None).heroes[0]
    assert explore_text(hv) == f"explore {hv.explore}+1"
