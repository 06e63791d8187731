"""The two rule deviations of issue 14, fixed: a broken wall in a pit is a bridge (FAQ), and stealing
comes before board elements at any point of a movement (Movement: Priority, 1. Stealing 2. Board & Tokens)."""
from __future__ import annotations

from qhelpers import build, do, hero

from games.core import Event
from games.core.grid import label
from games.quodd import ENGINE as E
from games.quodd.board import is_pit
from games.quodd.bombs import roll
from games.quodd.state import Bomb

PIT_ROW = ["....O...."] + ["........."] * 8


def test_faq_a_broken_wall_in_a_pit_is_a_passable_bridge():
    st = build(PIT_ROW, heroes=[dict(pos="D1"), dict(pos="H8")], tokens={"E1": "broken_wall"}, tumbled=True,
               ready="slide", points=2)
    assert not is_pit(st, (4, 0))
    st, ev = do(st, "ann", "move direction:E distance:2")  # D1 over the bridge on E1 to F1
    assert hero(st, "ann").pos == "F1" and not any("falls" in e for e in ev)


def test_faq_a_wall_in_a_pit_broken_by_an_explosion_stays_a_bridge():
    st = build(PIT_ROW, heroes=[dict(pos="A1"), dict(pos="H8")], tokens={"E1": "wall"})
    ev: list[Event] = []
    roll(st, Bomb(at="B1", dir="E", kind="standard"), ev)  # C1, D1, then the wall on E1 in the pit
    assert st.tokens["E1"].kind == "broken_wall" and not is_pit(st, (4, 0))
    assert label(4, 0) == "E1"


OPEN = ["........."] * 9


def test_priority_stealing_comes_before_a_water_connection_the_tumble_lands_on():
    rows = ["..w......"] + ["........."] * 7 + ["......w.."]
    st = build(rows, links={"C1": "A", "G9": "A"}, heroes=[dict(pos="B1"), dict(pos="C2", carrying=["red-crystal"])])
    st, ev = do(st, "ann", "tumble direction:E")
    assert st.pending is not None and st.pending.kind == "steal" and hero(st, "ann").pos == "C1"
    assert st.pending.options == ["bob:red-crystal", "skip"]
    st, ev = do(st, "ann", 'choose option:"bob:red-crystal"')
    assert hero(st, "ann").carrying == ["red-crystal"] and hero(st, "ann").pos == "G9"  # then the connection


def test_stealing_mid_slide_keeps_the_rest_of_the_slide():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="B2", carrying=["blue-crystal"])], tumbled=True,
               ready="slide", points=3)
    st, ev = do(st, "ann", "move direction:E distance:3")
    assert st.pending is not None and hero(st, "ann").pos == "B1"  # beside Bob, with two steps still to go
    st, ev = do(st, "ann", 'choose option:"bob:blue-crystal"')
    assert hero(st, "ann").carrying == ["blue-crystal"] and hero(st, "ann").pos == "D1"


def test_skipping_the_steal_lets_the_move_go_on_and_no_question_where_the_move_simply_stops():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="B2", carrying=["blue-crystal"])], tumbled=True,
               ready="slide", points=3)
    st, _ = do(st, "ann", "move direction:E distance:3")
    st, _ = do(st, "ann", "choose option:skip")  # at B1
    assert hero(st, "ann").pos == "C1" and st.pending is not None  # Bob on B2 is still beside her on C1
    st, _ = do(st, "ann", "choose option:skip")
    assert hero(st, "ann").pos == "D1" and not hero(st, "ann").carrying
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="B2", carrying=["blue-crystal"])], tumbled=True,
               ready="slide", points=3)
    st, _ = do(st, "ann", "move direction:E distance:1")  # stops beside Bob on plain ground: the command steals
    assert st.pending is None and "steal from:bob item:blue-crystal" in [a.text() for a in E.legal_actions(st, "ann")]
