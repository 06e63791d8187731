"""The rulebook FAQ on Freeze-O-Tron and Crystal Extract: an item whose effect is passive (always on) and a food
card's one-point dash outside the movement phase; on water that dash goes as far as you like in a straight line.
Both cards came with the exploration deck's edition 2 (game option `deck:2`)."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal

from games.core import IllegalAction, Seat
from games.quodd import ENGINE as E
from games.quodd import data

# row 2: a river flowing east from B2 to F2, land on either side
RIVER = ["........", ".>>>>>..", "........", "........"]


def _on_the_river(*, item: bool, phase: str = "power", **kw: object):  # noqa: ANN202
    st = build(RIVER, heroes=[dict(pos="B2"), dict(pos="H4")], phase=phase, **kw)  # type: ignore[arg-type]
    h = hero(st, "ann")
    h.hand = ["crystal-extract"]
    if item:
        h.items = ["freeze-o-tron"]
    return st


def _dash_ends(st) -> set[str]:  # noqa: ANN001
    plays = [a for a in E.legal_actions(st, "ann") if a.cmd == "play" and a.get("card") == "crystal-extract"]
    return {a.get("at") or "" for a in plays}


def test_faq_freeze_o_tron_is_passive_so_crystal_extracts_single_point_dash_glides_across_water_as_far_as_you_like():
    """FAQ: with Freeze-O-Tron in play, Crystal Extract's 1-point dash (phase 1, not the movement) may go on in a
    straight line on water as far as you like; the item needs no activation."""
    st = _on_the_river(item=True)
    ends = _dash_ends(st)
    assert {"C2", "D2", "E2", "F2"} <= ends  # east along the river: one point, as far as the water goes
    assert "G2" not in ends  # the ice ends at the bank
    assert {"A1", "B1", "C1", "A2", "A3", "B3", "C3"} <= ends  # the one ordinary space every other way
    st2, ev = do(st, "ann", "play card:crystal-extract at:F2")
    assert hero(st2, "ann").pos == "F2" and not st2.m.tumbled  # the current on F2 does not carry it off
    assert "crystal-extract" in st2.discard and hero(st2, "ann").items == ["freeze-o-tron"]
    assert any("gliding 3 further" in e for e in ev)
    assert not [a for a in E.legal_actions(st, "ann") if a.cmd == "use"]  # passive: nothing to activate


def test_crystal_extract_without_freeze_o_tron_dashes_one_space_and_the_current_acts():
    st = _on_the_river(item=False)
    assert _dash_ends(st) == {"A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"}
    st, _ = do(st, "ann", "play card:crystal-extract at:C2")
    assert hero(st, "ann").pos == "G2"  # the currents C2 to F2 carry it on east to the bank
    why = illegal(_on_the_river(item=False), "ann", "play card:crystal-extract at:E2").reason
    assert "one space" in why and "C2" in why


def test_crystal_extract_is_played_in_phase_one_or_three_never_during_the_movement():
    st = _on_the_river(item=False, phase="recovery")
    assert _dash_ends(st)
    moving = _on_the_river(item=False, phase="move", tumbled=True)
    assert isinstance(illegal(moving, "ann", "play card:crystal-extract at:C2"), IllegalAction)


def test_freeze_o_tron_in_the_movement_a_slide_across_water_costs_one_point():
    """The passive works in the movement too: straight on from water onto water is free, so a 1-point slide
    crosses the whole river; without the item the same slide is refused as too far."""
    st = build(RIVER, heroes=[dict(pos="B2"), dict(pos="H4")], tumbled=True, ready="slide", points=1)
    hero(st, "ann").items = ["freeze-o-tron"]
    assert "distance:4" in {f"distance:{a.get('distance')}" for a in E.legal_actions(st, "ann")
                            if a.cmd == "move" and a.get("direction") == "E"}
    st, ev = do(st, "ann", "move direction:E distance:4")
    assert hero(st, "ann").pos == "F2" and st.m.taken == 1
    assert sum("glides" in e for e in ev) == 3
    plain = build(RIVER, heroes=[dict(pos="B2"), dict(pos="H4")], tumbled=True, ready="slide", points=1)
    assert "too far" in illegal(plain, "ann", "move direction:E distance:4").reason


def test_freeze_o_tron_a_dash_point_glides_on_only_straight_ahead():
    st = build(RIVER, heroes=[dict(pos="B2"), dict(pos="H4")], tumbled=True, ready="dash", points=1)
    hero(st, "ann").items = ["freeze-o-tron"]
    paths = {a.get("path") for a in E.legal_actions(st, "ann") if a.cmd == "move"}
    assert "E E E E" in paths and "E E S" not in paths  # turning costs a point: the one point is spent
    st, _ = do(st, "ann", 'move path:"E E E"')
    assert hero(st, "ann").pos == "E2" and st.m.points == 0


def test_deck_edition_two_adds_crystal_extract_and_freeze_o_tron_and_the_first_edition_keeps_its_deals():
    seats = [Seat(player="a", name="A"), Seat(player="b", name="B")]
    old, first, second = E.setup({}, seats, 5), E.setup({"deck": "1"}, seats, 5), E.setup({"deck": "2"}, seats, 5)
    assert old.deck + old.lineup == first.deck + first.lineup  # a game made before the option deals as it did
    cards = second.deck + second.lineup
    assert {"crystal-extract", "freeze-o-tron"} <= set(cards)
    assert not {"crystal-extract", "freeze-o-tron"} & set(first.deck + first.lineup)
    assert len(cards) == len(first.deck + first.lineup) + 2
    assert data.cards()["freeze-o-tron"].house and not data.cards()["crystal-extract"].house
    try:
        E.check_options({"deck": "4"})
    except IllegalAction as exc:
        assert "deck:1" in exc.hint and "deck:2" in exc.hint
    else:
        raise AssertionError("deck:4 was accepted")
