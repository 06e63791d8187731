"""Quodd player board B-side (game option `board:b`): upgrades linked to the hero's faces (rulebook: Player Board
B-Side)."""
from __future__ import annotations

import pytest
from qhelpers import build, do, hero, illegal, legal

from games.core import Seat
from games.core.errors import AmbiguousAction
from games.quodd import ENGINE as E
from games.quodd.modes.bside import is_upgraded
from games.quodd.qpowers import _own
from games.quodd.skills import skill_points

OPEN = ["......"] * 3


def round_end_b():  # noqa: ANN201
    """ann (rok) and bob (trixie) on the B-side at the end of round 1."""
    st = build(OPEN, heroes=[dict(pos="A1", movement=2), dict(pos="F3", movement=2)], phase="explore")
    st.board = "b"
    st.turn = 1
    st, _ = do(st, "bob", "done")
    assert st.phase == "upgrade"
    return st


def test_bside_game_option_sets_every_skills_base_movement_to_two_as_in_the_rulebook_example():
    a = E.setup({}, [Seat(player="a", name="A")], 1)
    b = E.setup({"board": "b"}, [Seat(player="a", name="A")], 1)
    assert a.heroes[0].movement == 1 and b.heroes[0].movement == 2 and b.board == "b" and a.board == ""
    assert '"board":' not in E.dump(a) and '"board":"b"' in E.dump(b)  # an A-side game saves as before


def test_bside_upgrade_goes_on_a_free_face_in_any_order_and_moves_only_that_faces_skill_further():
    st = round_end_b()
    assert "upgrade face:feet side:a tile:1" in legal(st, "ann", "upgrade")
    with pytest.raises(AmbiguousAction, match="face:feet"):  # the B-side names a face
        do(st, "ann", "upgrade tile:1 side:a")
    st, ev = do(st, "ann", "upgrade tile:1 side:a face:feet")  # rok 1a: +1 movement, on the feet (tumble)
    h = hero(st, "ann")
    assert h.faces == {"feet": "1a"} and h.movement == 2  # no universal bonus
    assert skill_points(h, "tumble") == 3 and skill_points(h, "slide") == 2
    assert any("feet face" in e for e in ev)


def test_bside_upgrades_cannot_be_moved_onto_a_taken_face_or_flipped():
    st = round_end_b()
    st, _ = do(st, "ann", "upgrade tile:1 side:a face:feet")
    st, _ = do(st, "bob", E.skip_action(st, "bob").text())
    st.phase, st.ready = "upgrade", []
    assert not any("face:feet" in a for a in legal(st, "ann", "upgrade")) and legal(st, "ann", "upgrade")
    assert "free face" in illegal(st, "ann", "upgrade tile:2 side:a face:feet").reason

    assert _own(st, hero(st, "ann"), "flip_upgrade") == []  # Flip Upgrade finds nothing to turn on the B-side


def test_bside_gold_upgrades_the_skill_on_its_face_and_follows_the_face_when_skills_are_rearranged():
    st = round_end_b()
    st, _ = do(st, "ann", E.skip_action(st, "ann").text())
    st, _ = do(st, "bob", "upgrade tile:2 side:a face:right")  # trixie 2a: gold, on the right face (dash)
    h = hero(st, "bob")
    assert is_upgraded(h, "dash") and not is_upgraded(h, "slide") and h.upgraded == []
    assert skill_points(h, "dash") == 3
    h.skills["right"], h.skills["front"] = "slide", "dash"  # rearranged: slide now sits on the right face
    assert is_upgraded(h, "slide") and not is_upgraded(h, "dash")


def test_bside_movement_and_gold_on_the_q_face_have_no_effect():
    st = round_end_b()
    st, _ = do(st, "ann", "upgrade tile:1 side:a face:q")
    h = hero(st, "ann")
    assert all(skill_points(h, k) == 2 for k in ("slide", "dash", "jump", "tumble", "diagonal"))


def test_bside_explore_on_a_face_draws_one_more_in_phase_four_after_that_faces_skill_was_used():
    st = round_end_b()
    st, _ = do(st, "ann", "upgrade tile:2 side:a face:front")  # rok 2a: +1 explore, on the front (slide)
    h = hero(st, "ann")
    assert h.explore == 1
    st.phase, st.turn = "recovery", 0
    h.hand = ["lantern"]  # a choice keeps phase 3 open until `done`
    st.m.used = ["dash"]
    nxt, _ = do(st, "ann", "done")
    assert nxt.m.draws == 1  # the front's skill was not used
    st.m.used = ["slide"]
    nxt, _ = do(st, "ann", "done")
    assert nxt.m.draws == 2
