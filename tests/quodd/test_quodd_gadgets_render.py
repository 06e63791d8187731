"""The image draws the living board's tokens (issue 15): lying bombs with their kind and speed, cannons with
their opening, linked switches, and how far each board has turned; their legend keys."""
from __future__ import annotations

import io

from PIL import Image
from qhelpers import build

from games.core.grid import label
from games.quodd.rotation import rotate_board
from games.quodd.state import Bomb, Token
from games.quodd.view import build_view
from render.quodd import CELL, MARGIN, render
from render.quodd.gadgets import BADGE, BALL, BARREL, LINK, MUZZLE, RIMS, legend_items

OPEN = ["........."] * 9


def _png(st) -> Image.Image:  # noqa: ANN001
    return Image.open(io.BytesIO(render(build_view(st, "")))).convert("RGB")


def _px(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return img.getpixel((round(MARGIN + x * CELL), round(MARGIN + y * CELL)))  # type: ignore[return-value]


def test_a_lying_bomb_shows_its_kind_by_its_rim_and_its_speed_on_the_ball():
    st = build(OPEN, heroes=[dict(pos="I9")])
    st.bombs = [Bomb(at="B2", dir="E", kind="fire"), Bomb(at="E5", dir="N", kind="ice")]
    img = _png(st)
    assert _px(img, 1.5, 1.5 - 0.36) == RIMS["fire"]  # the rim at the top of B2's ball
    assert _px(img, 4.5 - 0.36, 4.5) == RIMS["ice"]  # the rim at the west of E5's ball
    assert BALL in {_px(img, 1.5 - 0.18, 1.5 + d) for d in (-0.1, 0, 0.1)}
    assert ("bomb", "fire") in legend_items(build_view(st, "")) and ("bomb", "standard") not in legend_items(
        build_view(st, ""))


def test_a_cannon_is_drawn_with_its_barrel_towards_its_opening():
    st = build(OPEN, heroes=[dict(pos="I9")])
    st.tokens["C3"] = Token(kind="cannon", dir="E")
    img = _png(st)
    assert _px(img, 2.5 + 0.36, 2.5) == MUZZLE  # the opening on the east side
    assert _px(img, 2.5, 2.5 - 0.3) == BARREL  # the base above the barrel
    assert _px(img, 2.5 - 0.3, 2.5) == BARREL  # no barrel on the west


def test_a_turned_board_carries_a_badge_with_its_quarter_turns():
    st = build(OPEN, heroes=[dict(pos="I9")])
    st.board_of = {label(x, y): "b1" for x in range(9) for y in range(9)}
    before = _png(st)
    rotate_board(st, "E5", False, [])
    assert build_view(st, "").turned == {"A1": 3}
    img = _png(st)
    assert _px(img, 0.6, 0.25) == BADGE and _px(before, 0.6, 0.25) != BADGE


def test_a_switch_and_the_pieces_it_flips_share_a_ring_of_their_colour():
    st = build(OPEN, tokens={"B2": "switch_colour:red", "F6": "trap_door:red", "H3": "switch:gate",
                             "H5": "impassable_up:gate"}, heroes=[dict(pos="I9")])
    img = _png(st)
    assert _px(img, 1.03, 1.5) == LINK["red"] and _px(img, 5.03, 5.5) == LINK["red"]
    gate = _px(img, 7.03, 2.5)
    assert gate == _px(img, 7.03, 4.5) and gate != LINK["red"]
