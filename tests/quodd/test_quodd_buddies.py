"""Quodd buddies (rulebook: Buddy Cards, and the FAQ on buddies carrying): one player runs more than one hero."""
from __future__ import annotations

from qhelpers import build, do, hero

from games.quodd import ENGINE as E
from games.quodd.collectibles import drops, steals
from games.quodd.modes.buddies import carry_cap
from games.quodd.movement import do_land
from games.quodd.state import Job, QState

OPEN = ["......"] * 3


def with_buddy(phase: str = "explore", turn: int = 1) -> QState:
    """ann runs Rok and her buddy Trixie (key `ann/trixie`); cat plays Forest. The buddy's turn (`turn` 1)."""
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="C2"), dict(pos="F3")], phase=phase)
    b = st.heroes[1]
    b.player, b.controller, b.name = "ann/trixie", "ann", "Trixie (Ann)"
    st.turn = turn
    return st


def test_buddy_cards_a_player_acts_for_whichever_of_their_heroes_the_game_waits_for():
    st = with_buddy()
    assert E.status(st).to_act == ["ann"]  # the platform sees the player, not the buddy's key
    assert "draw card:deck" in [a.text() for a in E.legal_actions(st, "ann")]
    st, ev = do(st, "ann", "done")
    assert any("Trixie (Ann) stops exploring" in e for e in ev)
    assert st.heroes[st.turn].player == "cat"


def test_buddy_cards_a_buddy_has_no_hand_its_exploration_goes_to_its_controllers_hand():
    st = with_buddy()
    top = st.deck[0]
    st.m.draws = 2
    st, ev = do(st, "ann", "draw card:deck")
    assert hero(st, "ann").hand == [top] and st.heroes[1].hand == []
    assert any("for Ann's hand" in e for e in ev)
    pick = st.lineup[0]
    st, _ = do(st, "ann", f"draw card:{pick}")
    assert hero(st, "ann").hand == [top, pick] and st.heroes[1].hand == []


def test_buddy_cards_the_controller_discards_down_to_five_after_the_buddys_exploration():
    st = with_buddy()
    hero(st, "ann").hand = ["trail-mix", "honey-bun", "lantern", "crowbar", "chisel"]
    st.m.draws = 1
    st, ev = do(st, "ann", "draw card:deck")
    assert st.m.discarding and any("Ann holds 6 cards" in e for e in ev)
    st, _ = do(st, "ann", "discard card:crowbar")
    assert len(hero(st, "ann").hand) == 5 and st.heroes[st.turn].player == "cat"


def test_buddy_cards_no_card_is_played_during_a_buddys_turn():
    st = with_buddy(phase="power")
    hero(st, "ann").hand = ["trail-mix"]
    hero(st, "cat").hand = ["rune-of-unmaking", "broom"]  # impulse cards
    assert [a.text() for a in E.legal_actions(st, "ann")] == ["done"]  # nothing of Ann's hand in the buddy's turn
    assert E.legal_actions(st, "cat") == []  # nor anyone's impulse
    st.turn = 0  # on Ann's own turn her hand is hers to play, and cat's impulses are back
    assert any(a.cmd == "play" for a in E.legal_actions(st, "ann"))
    assert any(a.cmd == "impulse" for a in E.legal_actions(st, "cat"))


def test_faq_a_buddy_carries_up_to_two_collectibles_whatever_the_scenario_allows_heroes():
    st = with_buddy()
    st.carry_limit = 3
    buddy, own = st.heroes[1], hero(st, "ann")
    assert carry_cap(st, buddy) == 2 and carry_cap(st, own) == 3
    st.ground["C2"] = ["plain-crystal"] * 3
    do_land(st, Job(kind="land", hero=buddy.player), [])
    assert len(buddy.carrying) == 2 and st.ground["C2"] == ["plain-crystal"]
    own.pos, own.carrying = "D2", ["red-crystal"]
    assert steals(st, buddy) == []  # full: a buddy steals nothing more
    buddy.carrying = ["plain-crystal"]
    assert steals(st, buddy) and drops(st, buddy)


def test_buddy_cards_a_buddy_controls_no_item_or_pet():
    st = with_buddy(phase="power", turn=0)
    hero(st, "ann").hand = ["boots-of-haste"]
    st, _ = do(st, "ann", "play card:boots-of-haste")
    assert hero(st, "ann").items == ["boots-of-haste"] and st.heroes[1].items == []
