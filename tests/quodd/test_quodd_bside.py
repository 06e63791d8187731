"""Quodd player board B-side (game option `board:b`): upgrades linked to the hero's faces (rulebook: Player Board
B-Side)."""
from __future__ import annotations

import pytest
from qhelpers import build, do, hero, illegal, legal

from games.core import Seat
from games.core.errors import AmbiguousAction
from games.quodd import ENGINE as E
from games.quodd.abilities.track import has
from games.quodd.modes.bside import face_abilities, is_upgraded
from games.quodd.qpowers import _own
from games.quodd.skills import skill_points
from games.quodd.state import Token
from games.quodd.turns import start_turn

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


# ---- abilities on faces (rulebook: an activation cost counts as paid once the skill is activated; a static bonus
# applies only after activating the assigned face) ----------------------------------------------------------------

def _rok_on_b(phase: str, faces: dict[str, str], **kw: object):  # noqa: ANN202
    """ann (rok) on the B-side; SKILLS put the dash on the right face and the slide on the front."""
    st = build(["........."] * 5, tokens={"E3": "spring"}, heroes=[dict(pos="C3", movement=2), dict(pos="I5")],
               phase=phase, **kw)  # type: ignore[arg-type]
    st.board = "b"
    h = hero(st, "ann")
    h.upgrades = list(faces.values())
    h.faces = dict(faces)
    h.hand = ["crowbar"]
    return st


def test_bside_ability_works_only_after_its_face_is_activated_and_its_card_cost_is_then_paid():
    """B-side: Good Aim (rok 6b, normally paid with a card) on the right face (dash): in phase 3 of a turn whose
    dash was not used it is refused naming the face; once the dash was used it is offered with no card to
    discard, and using it keeps the hand."""
    st = _rok_on_b("recovery", {"right": "6b"})
    assert not [a for a in E.legal_actions(st, "ann") if a.cmd == "ability"]
    why = illegal(st, "ann", "ability name:good-aim at:E3").reason
    assert "right face" in why and "dash" in why
    st = _rok_on_b("move", {"right": "6b"}, tumbled=True, ready="dash", points=2)
    st, _ = do(st, "ann", 'move path:"S"')
    assert hero(st, "ann").awake == ["right"]
    st, _ = do(st, "ann", "done")  # phase 3
    aims = [a for a in E.legal_actions(st, "ann") if a.cmd == "ability"]
    assert aims and all(a.get("card") is None for a in aims)
    st.tokens["E4"] = Token(kind="spring")
    hero(st, "ann").hand = ["crowbar", "lantern"]  # a card to play keeps phase 3 open after the ability
    st, _ = do(st, "ann", "ability name:good-aim at:E3")
    assert "E3" not in st.tokens and hero(st, "ann").hand == ["crowbar", "lantern"] and st.phase == "recovery"
    # the activation paid for one use: a second Good Aim this turn is refused (it would otherwise be endless)
    assert "once a turn" in illegal(st, "ann", "ability name:good-aim at:E4").reason


def test_bside_static_ability_applies_from_its_faces_activation_until_the_heros_next_turn():
    """B-side: Crush (rok 2b) on the front face (slide) does nothing until the slide is used; then it holds until
    ann's next turn begins."""
    st = _rok_on_b("move", {"front": "2b"}, tumbled=True, ready="slide", points=2)
    h = hero(st, "ann")
    assert not has(h, "crush") and "crush" in face_abilities(h)
    h.awake = ["front"]
    assert has(h, "crush")
    st.heroes[0].awake = []
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert has(hero(st, "ann"), "crush")
    start_turn(st, 0, [])
    assert not has(hero(st, "ann"), "crush") and hero(st, "ann").awake == []
    assert '"awake"' not in E.dump(st)  # saved only when set: A-side games save as before


def test_bside_q_face_ability_wakes_when_a_q_power_is_used():
    st = _rok_on_b("move", {"q": "2b"}, tumbled=True, ready="q")
    assert not has(hero(st, "ann"), "crush")
    rearr = next(a for a in E.legal_actions(st, "ann") if a.cmd == "rearrange")
    st, _ = E.apply(st, "ann", rearr)
    assert hero(st, "ann").awake == ["q"] and has(hero(st, "ann"), "crush")
