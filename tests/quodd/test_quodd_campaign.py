"""Quodd multi-part scenarios (FAQ: one scenario leading straight into the next keeps every upgrade; skills may be
rearranged between the parts)."""
from __future__ import annotations

import pytest
from qhelpers import do, hero

from games.core import RulesDataError, Seat
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.scenarios import check_parts
from games.quodd.state import QState


def started(n: int = 1) -> QState:
    pairs = (("ann", "rok"), ("bob", "forest"))[:n]
    seats = [Seat(player=p, name=p.capitalize(), choices={"hero": h}) for p, h in pairs]
    st = E.setup({"scenario": "expedition"}, seats, 2)
    while st.phase == "place":
        st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    for p in [h.player for h in st.heroes]:
        st, _ = do(st, p, "done")
    return st


def at_the_last_marker(st: QState) -> QState:
    """The active hero one tumble west of the last rally marker, having touched the others."""
    h = st.heroes[st.turn]
    last = st.rally[str(len(st.rally))]
    h.pos = f"{chr(ord(last[0]) - 1)}{last[1:]}"
    h.progress = len(st.rally) - 1
    st.phase = "move"
    return st


def test_a_multi_part_scenario_names_an_existing_next_part_and_never_leads_round_in_a_circle():
    assert data.scenarios()["expedition"].next_part == "expedition-2"
    bad = data.scenarios()["expedition-2"].model_copy(update={"next_part": "expedition"})
    with pytest.raises(RulesDataError, match="circle"):
        check_parts({**data.scenarios(), "expedition-2": bad})
    # a server's scenario leading nowhere is refused (the shipped ones stop the load, as above)
    refused = check_parts({"x": bad.model_copy(update={"id": "x", "next_part": "nowhere"})})
    assert refused == [("x", "scenario x: next_part 'nowhere' is not a scenario")]


def test_faq_multi_part_the_next_part_follows_a_won_part_and_every_upgrade_stays_as_it_was():
    st = at_the_last_marker(started())
    h = hero(st, "ann")
    h.upgrades, h.movement, h.explore, h.upgraded = ["1a", "2a"], 2, 2, ["jump"]
    h.hand, h.items = ["trail-mix"], ["boots-of-haste"]
    h.carrying = ["plain-crystal"]
    st, ev = do(st, "ann", "tumble direction:E")
    assert not E.status(st).finished
    assert st.scenario == "expedition-2" and st.part == 2 and st.next_part == "" and st.round == 1
    assert st.phase == "place" and st.pending is not None and st.pending.kind == "place"
    h = hero(st, "ann")
    assert (h.upgrades, h.movement, h.explore, h.upgraded) == (["1a", "2a"], 2, 2, ["jump"])
    assert h.hand == ["trail-mix"] and h.items == ["boots-of-haste"]
    assert h.pos is None and h.progress == 0 and h.carrying == []  # what it carried stays with part 1's map
    assert set(st.rally) == {"1", "2"} and st.rally["2"] == "J9"
    assert any("On to part 2" in e for e in ev)
    assert E.summary(st)["part"] == 2


def test_faq_multi_part_skills_may_be_rearranged_between_the_parts():
    st = at_the_last_marker(started())
    st, _ = do(st, "ann", "tumble direction:E")
    st, _ = do(st, "ann", f"choose option:{st.pending.options[0]}")
    assert st.phase == "skills"
    assert any(a.cmd == "rearrange" for a in E.legal_actions(st, "ann"))
    st, _ = do(st, "ann", "rearrange front:jump back:slide")
    assert hero(st, "ann").skills["front"] == "jump"


def test_multi_part_the_last_part_won_ends_the_game():
    st = at_the_last_marker(started())
    st, _ = do(st, "ann", "tumble direction:E")
    st, _ = do(st, "ann", f"choose option:{st.pending.options[0]}")
    st, _ = do(st, "ann", "done")
    st = at_the_last_marker(st)
    st, _ = do(st, "ann", "tumble direction:E")
    assert E.status(st).finished and E.status(st).result.winners == ["ann"]


def test_multi_part_time_running_out_in_a_part_loses_the_whole_scenario():
    st = started()
    st.round = st.round_limit
    st.phase, st.m.draws = "explore", 0
    st, _ = do(st, "ann", "done")
    assert E.status(st).finished and E.status(st).result.winners == [] and st.scenario == "expedition"
