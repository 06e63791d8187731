"""Upgrade abilities used in phases 1 and 3 (`/quodd ability`), around stealing, cards and exploring (rulebook
"Upgrades and Q-powers"): each test names the ability."""
from __future__ import annotations

from qhelpers import build, do, grant, hero, illegal, legal, seed_rolling

from games.core import Event
from games.core.grid import DIRS8
from games.quodd import ENGINE as E
from games.quodd.abilities.track import food_protected
from games.quodd.bombs import roll
from games.quodd.state import Bomb
from games.quodd.turns import end_round

OPEN = ["........"] * 5


def power(heroes=None, **kw):  # noqa: ANN001, ANN201
    """ann's phase 1 (power-up), bob beside her."""
    return build(OPEN, heroes=heroes or [dict(pos="C3"), dict(pos="E3")], phase="power", **kw)


def test_mind_push_discards_a_card_to_slide_another_hero_once_a_turn():
    st = power()
    h = grant(st, "ann", "mind-push")
    h.hand = ["trail-mix", "lantern"]
    assert "ability card:lantern direction:E hero:bob name:mind-push" in legal(st, "ann", "ability")
    assert "`direction:` must be one of" in illegal(st, "ann", "ability name:mind-push hero:bob direction:NE "
                                                               "card:lantern").reason
    st, ev = do(st, "ann", "ability name:Mind-Push hero:Bob direction:e card:lantern")  # names in any case
    assert hero(st, "bob").pos == "F3" and hero(st, "ann").hand == ["trail-mix"] and "lantern" in st.discard
    assert "once a turn" in illegal(st, "ann", "ability name:mind-push hero:bob direction:E card:trail-mix").reason


def test_twister_spins_every_other_hero_a_quarter_turn():
    st = power()
    h = grant(st, "ann", "twister")
    h.hand = ["lantern"]
    bob_front, ann_front = hero(st, "bob").front, hero(st, "ann").front
    st, _ = do(st, "ann", "ability name:twister spin:cw card:lantern")
    assert hero(st, "bob").front != bob_front and hero(st, "ann").front == ann_front
    assert {"N": "E", "E": "S", "S": "W", "W": "N"}[bob_front] == hero(st, "bob").front


def test_good_aim_destroys_a_token_or_breaks_a_wall_within_range_five():
    st = power(tokens={"C1": "wall", "H3": "spring", "A5": "rally"})
    h = grant(st, "ann", "good-aim")
    h.hand = ["lantern", "trail-mix"]
    targets = {a.get("at") for a in E.legal_actions(st, "ann") if a.cmd == "ability"}
    assert targets == {"C1", "H3"}  # the rally marker is a scenario token
    st, _ = do(st, "ann", "ability name:good-aim at:C1 card:lantern")
    assert st.tokens["C1"].kind == "broken_wall"
    st, _ = do(st, "ann", "ability name:good-aim at:H3 card:trail-mix")  # no limit while you can pay
    assert "H3" not in st.tokens


def test_timely_removal_discards_two_cards_to_discard_another_heros_item():
    st = power()
    h = grant(st, "ann", "timely-removal")
    h.hand = ["lantern", "trail-mix", "broom"]
    hero(st, "bob").items = ["boots-of-haste"]
    assert "`target:` must be one of `boots-of-haste`" in illegal(
        st, "ann", "ability name:timely-removal hero:bob target:spyglass card:lantern card2:trail-mix").reason
    st, _ = do(st, "ann", "ability name:timely-removal hero:bob target:boots-of-haste card:lantern card2:trail-mix")
    assert hero(st, "bob").items == [] and {"boots-of-haste", "lantern", "trail-mix"} <= set(st.discard)
    assert hero(st, "ann").hand == ["broom"]


def test_timely_trades_discards_a_card_for_one_more_exploration_once_a_turn():
    st = power()
    h = grant(st, "ann", "timely-trades")
    h.hand = ["lantern", "broom"]
    st, _ = do(st, "ann", "ability name:timely-trades card:lantern")
    assert hero(st, "ann").explores_earned == 1
    assert "once a turn" in illegal(st, "ann", "ability name:timely-trades card:broom").reason


def test_crystal_bomb_destroys_tokens_within_range_four_and_throws_neighbours():
    st = power(heroes=[dict(pos="C3", carrying=["red-crystal"]), dict(pos="D3")],
               tokens={"C1": "wall", "G3": "spring", "H3": "spring", "A5": "rally"})
    grant(st, "ann", "crystal-bomb")
    st, ev = do(st, "ann", "ability name:crystal-bomb item:red-crystal")
    assert hero(st, "ann").carrying == [] and st.tokens["C1"].kind == "broken_wall"
    assert "G3" not in st.tokens and st.tokens["H3"].kind == "spring" and "A5" in st.tokens  # H3 is 5 away
    assert hero(st, "bob").pos == "F3"  # thrown like a basic explosion


def test_swap_skills_swaps_two_skills_on_another_heros_faces():
    st = power()
    grant(st, "ann", "swap-skills").hand = ["lantern"]  # a card to play keeps phase 1 open
    before = dict(hero(st, "bob").skills)
    st, _ = do(st, "ann", 'ability name:swap-skills hero:bob faces:"left right"')
    after = hero(st, "bob").skills
    assert after["left"] == before["right"] and after["right"] == before["left"] and after["back"] == before["back"]
    assert "once a turn" in illegal(st, "ann", 'ability name:swap-skills hero:bob faces:"left right"').reason


def test_random_wind_slides_every_hero_one_space_the_die_shows():
    st = power(seed=seed_rolling(3, sides=8))  # the third direction of the die: E
    grant(st, "ann", "random-wind")
    assert list(DIRS8)[2] == "E"
    st, ev = do(st, "ann", "ability name:random-wind")
    assert hero(st, "ann").pos == "D3" and hero(st, "bob").pos == "F3"
    assert any("shows E" in e for e in ev)


def test_strong_wind_slides_every_hero_two_spaces_your_way():
    st = power(heroes=[dict(pos="C3"), dict(pos="D3")])
    grant(st, "ann", "strong-wind").hand = ["lantern"]  # a card to play keeps phase 1 open
    st, _ = do(st, "ann", "ability name:strong-wind direction:W")
    assert hero(st, "ann").pos == "A3" and hero(st, "bob").pos == "B3"
    assert "once a turn" in illegal(st, "ann", "ability name:strong-wind direction:W").reason


def test_wipe_the_lineup_deals_a_new_lineup_once_a_turn():
    st = power()
    grant(st, "ann", "wipe-the-lineup")
    old = list(st.lineup)
    st, _ = do(st, "ann", "ability name:wipe-the-lineup")
    assert set(old) <= set(st.discard) and len(st.lineup) == 5 and not set(old) & set(st.lineup)


def test_flame_grip_makes_a_thief_discard_a_card_to_steal():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C3", carrying=["red-crystal"])])
    grant(st, "bob", "flame-grip")
    hero(st, "ann").hand = ["lantern"]
    assert legal(st, "ann", "steal") == ["steal card:lantern from:bob item:red-crystal"]
    assert "Flame Grip" in illegal(st, "ann", "steal from:bob item:red-crystal card:broom").reason
    st, ev = do(st, "ann", "steal from:bob item:red-crystal card:lantern")
    assert hero(st, "ann").carrying == ["red-crystal"] and st.discard[-1] == "lantern" and not hero(st, "ann").hand
    assert any("discards Lantern" in e for e in ev)  # face up on the discard pile, like every other discard
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C3", carrying=["red-crystal"])])
    grant(st, "bob", "flame-grip")
    assert legal(st, "ann", "steal") == []  # an empty hand cannot pay


def test_getaway_offers_a_dash_of_one_after_a_steal():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C3", carrying=["red-crystal"])])
    grant(st, "ann", "getaway")
    st, _ = do(st, "ann", "steal from:bob item:red-crystal")
    assert st.pending is not None and st.pending.kind == "getaway" and "skip" in st.pending.options
    assert E.label(st, next(a for a in E.legal_actions(st, "ann") if a.get("option") == "NW")) == "Dash NW (Getaway)"
    st, _ = do(st, "ann", "choose option:NW")
    assert hero(st, "ann").pos == "A1"


def test_good_fortune_adds_an_exploration_after_a_steal():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C3", carrying=["red-crystal"])])
    grant(st, "ann", "good-fortune")
    st, ev = do(st, "ann", "steal from:bob item:red-crystal")
    assert hero(st, "ann").explores_earned == 1 and any("Good Fortune" in e for e in ev)


def test_extra_item_in_play_holds_two_items():
    st = power()
    h = grant(st, "ann", "extra-item")
    h.hand = ["boots-of-haste", "spyglass", "wall-kit"]
    st, _ = do(st, "ann", "play card:boots-of-haste")
    st, _ = do(st, "ann", "play card:spyglass")
    assert hero(st, "ann").items == ["boots-of-haste", "spyglass"]
    st, _ = do(st, "ann", "play card:wall-kit")  # full: the oldest goes back to the hand
    assert hero(st, "ann").items == ["spyglass", "wall-kit"] and "boots-of-haste" in hero(st, "ann").hand


def test_extra_pet_in_play_holds_two_pets():
    st = power()
    h = grant(st, "ann", "extra-pet")
    h.hand = ["quick-ferret", "magpie"]
    st, _ = do(st, "ann", "play card:quick-ferret")
    st, _ = do(st, "ann", "play card:magpie")
    assert hero(st, "ann").pets == ["quick-ferret", "magpie"]


def test_rune_range_adds_two_to_rune_cards():
    st = power()
    hero(st, "ann").hand = ["rune-of-the-deep", "pocket-spring"]  # range 3 rune, range 1 tool
    assert "out of range 3" in illegal(st, "ann", "play card:rune-of-the-deep at:H3").reason
    grant(st, "ann", "rune-range")
    assert "play at:H3 card:rune-of-the-deep" in legal(st, "ann", "play")
    assert "play at:C5 card:pocket-spring" not in legal(st, "ann", "play")  # tools keep their range


def test_underdog_places_a_token_under_your_hero_and_it_acts_at_once():
    st = power()
    hero(st, "ann").hand = ["pocket-spring", "lantern"]
    assert "play at:C3 card:pocket-spring" not in legal(st, "ann", "play")
    grant(st, "ann", "underdog")
    assert "play at:C3 card:pocket-spring" in legal(st, "ann", "play")
    assert "play at:E3 card:pocket-spring" not in legal(st, "ann", "play")  # never under another hero
    st, ev = do(st, "ann", "play card:pocket-spring at:C3")
    assert st.tokens["C3"].kind == "spring" and st.pending is not None and st.pending.kind == "spring"
    st, _ = do(st, "ann", "choose option:N")
    assert hero(st, "ann").pos == "C1" and st.phase == "power"


def _explore_kind(ability: str, kind: str) -> None:
    st = build(OPEN, heroes=[dict(pos="C3")], phase="recovery")
    h = grant(st, "ann", ability)
    h.hand = ["lantern"]  # a card to play keeps phase 3 open
    st, ev = do(st, "ann", "done")
    got = [c for c in hero(st, "ann").hand if c != "lantern"]
    from games.quodd import data
    assert len(got) == 1 and data.cards()[got[0]].kind == kind and st.m.draws == 1
    article = "an" if kind[0] in "aeiou" else "a"  # play-test: "you explore a item card"
    assert any(e.startswith(f"Ann explores {article} {kind} card (") for e in ev), ev


def test_explore_food_takes_a_food_card_each_exploration():
    _explore_kind("explore-food", "food")


def test_explore_item_takes_an_item_card_each_exploration():
    _explore_kind("explore-item", "item")


def test_explore_pet_takes_a_pet_card_each_exploration():
    _explore_kind("explore-pet", "pet")


def test_explore_rune_takes_a_rune_card_each_exploration():
    _explore_kind("explore-rune", "rune")


def test_explore_from_deck_draws_the_top_card_each_exploration():
    st = build(OPEN, heroes=[dict(pos="C3")], phase="recovery")
    h = grant(st, "ann", "explore-from-deck")
    h.hand = ["lantern"]
    top = st.deck[0]
    st, _ = do(st, "ann", "done")
    assert hero(st, "ann").hand == ["lantern", top] and st.m.draws == 1


def test_ignore_world_events_leaves_you_where_winds_and_spins_would_move_you():
    st = build(OPEN, heroes=[dict(pos="C3"), dict(pos="E3")], phase="explore", seed=seed_rolling(3, sides=8))  # E
    st.events_on, st.event_deck = True, ["random_wind"]
    grant(st, "ann", "ignore-world-events")
    ev: list[Event] = []
    end_round(st, ev)
    assert hero(st, "ann").pos == "C3" and hero(st, "bob").pos == "F3"
    assert any("ignores the world event" in e.text for e in ev)
    st = build(OPEN, heroes=[dict(pos="C3", front="E"), dict(pos="E3", front="E")], phase="explore")
    st.events_on, st.event_deck = True, ["whirling_winds"]
    grant(st, "ann", "ignore-world-events")
    end_round(st, [])
    st, _ = do(st, "ann", "choose option:cw")
    assert hero(st, "ann").front == "E" and hero(st, "bob").front == "S"


def test_protected_food_is_never_burnt_by_a_fire_bomb():
    st = build(OPEN, heroes=[dict(pos="A3"), dict(pos="E3")])
    grant(st, "bob", "protected-food").hand = ["trail-mix", "lantern", "honey-bun"]
    roll(st, Bomb(at="B3", dir="E", kind="fire"), [])  # C3, D3, hits Bob at E3
    assert hero(st, "bob").hand == ["trail-mix", "honey-bun"] and st.discard == ["lantern"]
    assert food_protected(hero(st, "bob")) and not food_protected(hero(st, "ann"))
