"""Unique Q-powers (first slice): the placing powers of Rok and Forest, range 7, instead of rearranging."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal, legal

from games.core import Action
from games.quodd import ENGINE as E

OPEN = ["........."] * 9


def q_up(hero_id: str = "rok"):  # noqa: ANN201
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E"), dict(pos="H8")])  # tumbling N brings the Q up
    st.heroes[0].hero = hero_id
    st, _ = do(st, "ann", "tumble direction:N")
    assert st.m.ready == "q"
    return st


def test_rok_places_a_wall_broken_wall_or_tunnel_within_range_7_instead_of_rearranging():
    st = q_up("rok")
    acts = [a for a in E.legal_actions(st, "ann") if a.cmd == "qpower"]
    assert {a.get("token") for a in acts} == {"wall", "broken_wall", "tunnel"}
    assert Action.of("qpower", at="H1", token="wall") in acts  # B1 -> H1: 6 away
    assert not [a for a in acts if a.get("at") == "I8"]  # B1 -> I8: 7 + 7 away
    assert not [a for a in acts if a.get("at") in ("B1", "H8")]  # never under a hero
    assert "beyond range 7" in illegal(st, "ann", "qpower at:I8 token:wall").reason
    st, ev = do(st, "ann", "qpower at:D1 token:tunnel")
    assert st.tokens["D1"].kind == "tunnel" and st.m.q_used
    assert not legal(st, "ann", "rearrange") and not legal(st, "ann", "qpower")  # one Q-power a turn


def test_forest_places_a_teleporter_within_range_7():
    st = q_up("forest")
    acts = [a for a in E.legal_actions(st, "ann") if a.cmd == "qpower"]
    assert {a.get("token") for a in acts} == {"teleporter"}
    st, _ = do(st, "ann", "qpower at:C3 token:teleporter")
    assert st.tokens["C3"].kind == "teleporter"
    assert E.label(st, Action.of("qpower", at="C3", token="teleporter")) == "Q-power: Teleporter on C3"


def test_heroes_whose_q_power_is_not_built_yet_still_rearrange():
    st = q_up("aang")
    assert not legal(st, "ann", "qpower") and legal(st, "ann", "rearrange")
    assert "not built yet" in illegal(st, "ann", "qpower at:C3 token:wall").reason


def test_a_q_power_needs_the_q_on_top():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="H8")], tumbled=True, ready="slide", points=1)
    assert hero(st, "ann").hero == "rok"
    assert not legal(st, "ann", "qpower")
    assert "Q on top" in illegal(st, "ann", "qpower at:C3 token:wall").reason
