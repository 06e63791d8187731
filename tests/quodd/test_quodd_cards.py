"""Quodd cards: the exploration deck as data, the lineup, drawing in phase 4, tokens that fetch cards,
the treasure deck, the hand limit, private hands, and playing cards in phases 1 and 3."""
from __future__ import annotations

from collections import Counter

from qhelpers import build, do, hero, illegal, legal

from games.core import Action, Rng, Seat
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.deck import HAND_LIMIT, LINEUP

OPEN = ["........"] * 6


def explore_phase(**kw: object) -> object:
    return build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="explore", **kw)  # type: ignore[arg-type]


def to_phase4(st):  # noqa: ANN001, ANN201
    """Enter phase 4 the way phase 3's `done` does."""
    st.phase = "recovery"
    st, _ = do(st, "ann", "done")
    return st


# ---- the deck as data -------------------------------------------------------------------------------

def test_exploration_deck_has_at_least_40_cards_of_every_card_type_the_rulebook_names():
    deck = [c for c in data.cards().values() if not c.treasure for _ in range(c.copies)]
    assert len(deck) >= 40
    kinds = Counter(c.kind for c in deck)
    assert set(kinds) == {"food", "rune", "item", "pet", "tool"}
    assert any(c.impulse for c in deck) and any(c.equipped for c in deck)
    assert all(c.equipped == (c.kind in ("item", "pet")) for c in deck)  # equipped: they stay in play
    assert any(c.range for c in deck if c.kind == "rune")
    assert any(c.treasure for c in data.cards().values())


def test_setup_shuffles_the_deck_and_reveals_a_lineup_of_five():
    st = E.setup({}, [Seat(player="a", name="A"), Seat(player="b", name="B")], 3)
    assert len(st.lineup) == LINEUP
    n = sum(c.copies for c in data.cards().values() if not c.treasure)
    assert len(st.deck) + len(st.lineup) == n
    other = E.setup({}, [Seat(player="a", name="A"), Seat(player="b", name="B")], 4)
    assert other.deck + other.lineup != st.deck + st.lineup  # the seed shuffles
    assert sorted(st.treasure) == sorted(c.id for c in data.cards().values() if c.treasure)
    assert all(h.hand == [] for h in st.heroes)


# ---- phase 4 -----------------------------------------------------------------------------------------

def test_phase_four_draws_one_card_per_explore_icon_from_the_lineup_or_the_deck():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").explore = 2
    st = to_phase4(st)
    assert st.phase == "explore" and st.m.draws == 2
    pick = st.lineup[2]
    top = st.deck[0]
    assert f"draw card:{pick}" in legal(st, "ann") and "draw card:deck" in legal(st, "ann")
    st, _ = do(st, "ann", f"draw card:{pick}")
    assert hero(st, "ann").hand == [pick] and len(st.lineup) == LINEUP - 1  # the gap waits for the turn's end
    st, _ = do(st, "ann", "draw card:deck")
    assert hero(st, "ann").hand == [pick, top]
    assert st.phase == "power" and st.turn == 1  # the last draw ended the turn (hand within the limit)
    assert len(st.lineup) == LINEUP  # replenished after the exploration phase


def test_explore_tokens_reached_and_gold_sides_add_draws_in_phase_four():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").explores_earned = 2
    st = to_phase4(st)
    assert st.m.draws == 3 and hero(st, "ann").explores_earned == 0


def test_explore_token_reached_is_one_more_draw():
    st = build(OPEN, tokens={"C3": "explore"}, heroes=[dict(pos="B3"), dict(pos="F5")], ready="slide", points=1,
               tumbled=True)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").explores_earned == 1


def test_food_item_pet_rune_tokens_take_that_kind_from_the_lineup_else_reveal_from_the_deck():
    for kind in ("food", "item", "pet", "rune"):
        st = build(OPEN, tokens={"C3": kind}, heroes=[dict(pos="B3"), dict(pos="F5")], ready="slide", points=1,
                   tumbled=True)
        in_lineup = [c for c in st.lineup if data.cards()[c].kind == kind]
        st, ev = do(st, "ann", "move direction:E distance:1")
        got = hero(st, "ann").hand
        assert len(got) == 1 and data.cards()[got[0]].kind == kind, kind
        if in_lineup:
            assert got == in_lineup[:1]
        else:
            assert all(data.cards()[c].kind != kind for c in st.discard)  # the others were discarded


def test_food_token_with_no_food_in_the_lineup_reveals_deck_cards_until_one_and_discards_the_rest():
    st = build(OPEN, tokens={"C3": "food"}, heroes=[dict(pos="B3"), dict(pos="F5")], ready="slide", points=1,
               tumbled=True)
    st.lineup = ["rune-of-stone"]
    st.deck = ["crowbar", "magpie", "honey-bun", "trail-mix"]
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").hand == ["honey-bun"] and st.discard == ["crowbar", "magpie"] and st.deck == ["trail-mix"]


def test_treasure_token_takes_the_top_treasure_card():
    st = build(OPEN, tokens={"C3": "treasure"}, heroes=[dict(pos="B3"), dict(pos="F5")], ready="slide", points=1,
               tumbled=True)
    top = st.treasure[0]
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").hand == [top] and data.cards()[top].treasure


def test_hand_limit_discard_down_to_five_at_the_end_of_phase_four():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").hand = ["trail-mix", "honey-bun", "crowbar", "magpie", "lantern"]
    st = to_phase4(st)
    st, ev = do(st, "ann", "draw card:deck")
    assert st.phase == "explore" and st.m.discarding and len(hero(st, "ann").hand) == HAND_LIMIT + 1
    assert set(legal(st, "ann")) == {f"discard card:{c}" for c in hero(st, "ann").hand}
    assert "discard down" in illegal(st, "ann", "done").reason
    st, _ = do(st, "ann", "discard card:crowbar")
    assert len(hero(st, "ann").hand) == HAND_LIMIT and "crowbar" in st.discard and st.turn == 1


def test_the_hand_limit_does_not_apply_before_the_end_of_exploration():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="power")
    hero(st, "ann").hand = ["lantern"] * 6
    st, _ = do(st, "ann", "play card:lantern")  # draws two: eight cards in hand is fine in phase 1
    assert len(hero(st, "ann").hand) == 7 and st.phase == "power"


def test_an_empty_deck_takes_back_the_discard_pile_shuffled():
    st = explore_phase()
    st.m.draws = 1
    st.deck, st.discard = [], ["crowbar", "magpie"]
    st, _ = do(st, "ann", "draw card:deck")
    assert hero(st, "ann").hand[0] in ("crowbar", "magpie") and st.discard == []


# ---- hands are private --------------------------------------------------------------------------------

def test_hands_are_shown_only_to_their_owner_never_in_the_public_view_or_summary():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="power")
    hero(st, "ann").hand = ["rune-of-passage", "golden-feast"]
    mine = E.private_text(st, "ann")
    assert "Rune of Passage" in mine and "Golden Feast" in mine
    assert "Rune of Passage" not in E.private_text(st, "bob")
    public = E.view(st, None).model_dump_json() + repr(E.summary(st)) + E.status(st).model_dump_json()
    for secret in ("rune-of-passage", "Rune of Passage", "golden-feast", "Golden Feast"):
        assert secret not in public
    assert E.summary(st)["players"][0]["hand_size"] == 2  # how many is public, which is not


def test_redact_redeals_the_deck_and_other_hands_but_keeps_your_own():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="power")
    hero(st, "ann").hand = ["crowbar", "magpie"]
    hero(st, "bob").hand = ["lantern", "broom", "shovel"]
    seen = set()
    for s in range(8):
        r = E.redact(st, "ann", Rng(seed=s))
        assert hero(r, "ann").hand == ["crowbar", "magpie"] and len(hero(r, "bob").hand) == 3
        assert Counter(r.deck + hero(r, "bob").hand) == Counter(st.deck + hero(st, "bob").hand)
        assert r.lineup == st.lineup
        seen.add(tuple(r.deck[:3]) + tuple(hero(r, "bob").hand))
    assert len(seen) > 1


def test_hidden_digest_changes_with_deck_order_and_hands():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="power")
    d0 = E.hidden_digest(st)
    st2 = st.model_copy(deep=True)
    st2.deck = list(reversed(st2.deck))
    assert E.hidden_digest(st2) != d0
    st3 = st.model_copy(deep=True)
    hero(st3, "bob").hand = ["crowbar"]
    assert E.hidden_digest(st3) != d0
    st4 = st.model_copy(deep=True)
    st4.lineup = st4.lineup[1:]  # the lineup is face up: not hidden
    assert E.hidden_digest(st4) == d0


def test_draw_actions_are_labelled_with_the_card_name():
    st = explore_phase()
    st.m.draws = 1
    a = Action.of("draw", card=st.lineup[0])
    assert E.label(st, a) == f"Take {data.cards()[st.lineup[0]].name}"
    assert E.label(st, Action.of("draw", card="deck")) == "Draw from the deck"
