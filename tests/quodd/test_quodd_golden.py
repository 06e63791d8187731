"""Golden images of the Quodd board (issue 18), PNG bytes pinned: a move through elements drawn and numbered with
its legend (a slide over a water current into a whirlpool), and the game-over banner. When a change is on
purpose, look at the new images and regenerate them:

    QUODD_GOLDEN=update .venv/bin/python -m pytest tests/quodd/test_quodd_golden.py
"""
from __future__ import annotations

from pathlib import Path

import pytest
from qhelpers import build, do

from games.quodd import ENGINE as E
from golden import check_golden
from render.quodd import render

GOLDEN = Path(__file__).parent / "golden"


def tumble_through_elements():
    """Ann slides E 3 from A3: the current at B3 carries her to B4, she goes on to D4, a whirlpool, and spins."""
    st = build(["........", "........", ".v......", "...@....", "........", "........"], tokens={"F4": "spring"},
               heroes=[dict(pos="A3", movement=4), dict(pos="H1")], tumbled=True, ready="slide", points=4)
    st, _ = do(st, "ann", "move direction:E distance:3")
    st, _ = do(st, "ann", "choose option:cw")
    return E.view(st, None)


def game_over():
    return tumble_through_elements().model_copy(update={"result_text": "Ann wins the race: all rally markers."})


SCENES = {"tumble_through_elements": tumble_through_elements, "game_over": game_over}


def test_the_move_is_one_numbered_path_naming_the_elements_it_went_through():
    v = tumble_through_elements()
    assert [(m.kind, m.path) for m in v.recent] == [("tumble", ["A3", "B3", "B4", "C4", "D4"])]
    assert v.recent[0].text == "Ann moves through water current, whirlpool"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_board_image_matches_the_pinned_golden_png(name, tmp_path):
    check_golden(render(SCENES[name]()), GOLDEN / f"{name}.png", "QUODD_GOLDEN", tmp_path,
                 "tests/quodd/test_quodd_golden.py")
