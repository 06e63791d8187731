"""Quodd overlord scenarios (rulebook: Overlord): one against all, the overlord exploring from their own deck."""
from __future__ import annotations

from qhelpers import build, do, hero

from games.core import Event, Rng
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.deck import draw_top, new_decks, new_overlord_deck
from games.quodd.state import QState

OPEN = ["......"] * 3


def overlord_exploring() -> QState:
    """ann is the overlord, in phase 4 with two draws; bob is a hero."""
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="F3")], phase="explore")
    hero(st, "ann").overlord = True
    st.overlord_deck = new_overlord_deck(Rng(seed=5))
    st.m.draws = 2
    return st


def test_overlord_deck_is_33_cards_of_our_own_marked_overlord_and_stronger_than_the_exploration_decks():
    mine = [c for c in data.cards().values() if c.overlord]
    assert sum(c.copies for c in mine) == 33  # the rulebook's count
    assert all(c.house and not c.treasure for c in mine)
    deck, lineup, treasure = new_decks(Rng(seed=1))
    assert not any(data.cards()[c].overlord for c in deck + lineup + treasure)  # never in the others' decks
    best = max(c.effect.points for c in data.cards().values() if c.effect.do == "boost" and not c.overlord
               and not c.treasure)
    assert max(c.effect.points for c in mine if c.effect.do == "boost") > best


def test_overlord_explores_from_the_top_of_their_own_deck():
    st = overlord_exploring()
    top = st.overlord_deck[0]
    assert E.label(st, next(a for a in E.legal_actions(st, "ann") if a.get("card") == "deck")) \
        == "Draw from the overlord deck"
    st, ev = do(st, "ann", "draw card:deck")
    assert hero(st, "ann").hand == [top] and len(st.overlord_deck) == 32
    assert any("from the overlord deck" in e for e in ev)


def test_overlord_may_also_explore_from_the_main_lineup():
    st = overlord_exploring()
    pick = st.lineup[2]
    st, _ = do(st, "ann", f"draw card:{pick}")
    assert pick in hero(st, "ann").hand and len(st.overlord_deck) == 33


def test_heroes_never_draw_from_the_overlord_deck():
    st = overlord_exploring()
    top = st.deck[0]
    draw_top(st, hero(st, "bob"), 1, [])
    assert hero(st, "bob").hand == [top] and len(st.overlord_deck) == 33


def test_overlord_cards_in_the_discard_pile_go_back_under_the_overlord_deck_not_into_the_exploration_deck():
    st = overlord_exploring()
    st.deck, st.discard = [], ["ol-war-ration", "trail-mix", "ol-dark-tome"]
    st.overlord_deck = ["ol-spike-wall"]
    ev: list[Event] = []
    draw_top(st, hero(st, "bob"), 1, ev)
    assert hero(st, "bob").hand == ["trail-mix"] and st.deck == []
    assert st.overlord_deck == ["ol-spike-wall", "ol-war-ration", "ol-dark-tome"]


def test_an_overlord_with_an_empty_deck_explores_from_the_exploration_deck():
    st = overlord_exploring()
    st.overlord_deck = []
    top = st.deck[0]
    st, _ = do(st, "ann", "draw card:deck")
    assert hero(st, "ann").hand == [top]


def test_the_overlord_deck_order_is_hidden_information():
    st = overlord_exploring()
    other = st.model_copy(deep=True)
    other.overlord_deck = list(reversed(other.overlord_deck))
    assert E.hidden_digest(st) != E.hidden_digest(other)
    seen = E.redact(st, "bob", Rng(seed=3))
    assert sorted(seen.overlord_deck) == sorted(st.overlord_deck)
