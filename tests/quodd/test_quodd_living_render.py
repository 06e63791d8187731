"""The image draws the living board (issue 15): platforms over pits, sheep with their facing, their legend keys."""
from __future__ import annotations

import io

from PIL import Image
from qhelpers import build

from games.quodd.state import Platform, Sheep, Token
from games.quodd.view import build_view
from render.quodd import CELL, MARGIN, render
from render.quodd.living import FLEECE, PLANK, RIM

ROWS = [".........", "OOOOOOOOO", "........."]


def _png(st) -> Image.Image:  # noqa: ANN001
    return Image.open(io.BytesIO(render(build_view(st, "")))).convert("RGB")


def _px(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return img.getpixel((round(MARGIN + x * CELL), round(MARGIN + y * CELL)))  # type: ignore[return-value]


def test_a_platform_is_drawn_as_ground_with_a_rim_over_the_pit():
    st = build(ROWS, heroes=[dict(pos="I3")])
    st.platforms = [Platform(cells=["C2", "D2"], kind="slide", dir="E")]
    img = _png(st)
    assert _px(img, 2.2, 1.2) == PLANK  # C2, away from the arrow in the middle
    assert _px(img, 2.04, 1.5) == RIM
    assert _px(img, 5.2, 1.2) != PLANK  # F2 is still a pit


def test_sheep_are_drawn_in_their_colour_with_the_head_on_the_side_they_face():
    st = build(ROWS, heroes=[dict(pos="I3")])
    st.sheep = [Sheep(at="B1", colour="grey", facing="E"), Sheep(at="F3", colour="black", facing="N")]
    img = _png(st)
    assert _px(img, 1.45, 0.5) == FLEECE["grey"]  # the fleece, a bit behind the middle
    assert _px(img, 1.86, 0.5) != FLEECE["grey"]  # the head on the east side
    assert _px(img, 5.5, 2.6) == FLEECE["black"]
    assert _px(img, 5.5, 2.14) == FLEECE["grey"]  # a black sheep's head is light (never a bomb)


def test_a_beam_is_drawn_as_a_line_from_its_emitter_to_what_stops_it():
    from games.quodd.beams import light
    from games.quodd.state import BeamPiece
    from render.quodd.living import BEAM, GADGET
    st = build([".........", ".........", "........."], heroes=[dict(pos="I3")])
    st.beams = [BeamPiece(at="B2", kind="emitter", dir="E")]
    st.tokens["G2"] = Token(kind="wall")
    light(st, [])
    img = _png(st)
    assert _px(img, 3.5, 1.5 - 2 / CELL) == BEAM  # D2: the red line (above its white core)
    assert _px(img, 5.9, 1.5 - 2 / CELL) == BEAM  # it runs to the wall's edge
    assert _px(img, 7.5, 1.5 - 2 / CELL) != BEAM  # and not past it
    assert _px(img, 1.3, 1.3) == GADGET  # the emitter


def test_a_sheep_whose_facing_is_not_chosen_is_drawn_without_a_head_and_one_under_a_hero_peeks_out():
    """Sheep rule 1 on the image: until the first player chooses, a new sheep is a round fleece (no head); a sheep
    sharing a hero's square (left there, rule 4) shows as a small fleece in the square's lower right corner."""
    st = build(ROWS, heroes=[dict(pos="I3"), dict(pos="D3")])
    st.sheep = [Sheep(at="B1", colour="grey", facing=""), Sheep(at="D3", colour="grey", facing="N")]
    img = _png(st)
    assert _px(img, 1.5, 0.5) == FLEECE["grey"]  # the middle of the round fleece
    assert _px(img, 1.5, 0.3) == FLEECE["grey"] and _px(img, 1.5, 0.7) == FLEECE["grey"]  # round: no head on a side
    assert _px(img, 3.83, 2.83) == FLEECE["grey"]  # the corner fleece, over the hero on D3
