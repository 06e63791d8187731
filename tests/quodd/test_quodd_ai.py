"""Quodd's computer players: what their candidate moves leave out (games/quodd/ai.py `prune`)."""
from __future__ import annotations

import random

from qhelpers import build, do, hero, legal

from games.core.ai import candidates, make_player
from games.quodd import ENGINE as E

OPEN = ["......"] * 6


def _recovery(pets: list[str], hand: list[str]):  # noqa: ANN202
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    st.m.ended = True
    h = hero(st, "ann")
    h.pets, h.hand = pets, hand
    return st


def test_computers_play_a_pet_into_a_free_slot_but_never_swap_one_back_to_the_hand():
    """Card rule 4 lets a player put a new Pet in play and take the old one back to the hand, for free and any
    number of times a turn (rule 2). Our heuristic does not value the cards in play, so a computer once swapped
    Night Owl and Magpie for ever (heist seed 5: the game hit the 4,000-action cap in one turn). The swap stays
    legal for players; a computer plays Items and Pets into free slots only."""
    full = _recovery(["magpie"], ["night-owl"])
    assert "play card:night-owl" in legal(full, "ann")  # the rule: a player may swap
    assert all(a.text() != "play card:night-owl" for a in candidates(E, full, "ann"))
    for level in ("normal", "hard"):
        for seed in range(3):
            assert make_player(level).decide(E, full, "ann", random.Random(seed)).text() != "play card:night-owl"
    free = _recovery([], ["night-owl"])
    assert any(a.text() == "play card:night-owl" for a in candidates(E, free, "ann"))


def test_computers_leave_out_a_spring_throw_that_currents_carry_back_onto_the_same_spring():
    # all-computer overlord game, seed 1: a hard computer threw its hero W from the spring at H4 2,900 times in one
    # turn; the currents F4 (S), F5 (E), G5 (E), H5 (N) carried it back onto the spring, with the same choice again
    rows = ["........", "........", "........", ".....v..", ".....>>^", "........"]
    st = build(rows, tokens={"H4": "spring"}, heroes=[dict(pos="G4", movement=1)], tumbled=True, ready="slide",
               points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending is not None and st.pending.kind == "spring"
    again, _ = do(st, "ann", "choose option:W")
    assert again.pending is not None and again.pending.kind == "spring" and hero(again, "ann").pos == "H4"
    offered = [a.text() for a in candidates(E, st, "ann")]
    assert "choose option:W" not in offered and offered
    for level in ("normal", "hard"):
        assert make_player(level).decide(E, st, "ann", random.Random(1)).text() != "choose option:W"
