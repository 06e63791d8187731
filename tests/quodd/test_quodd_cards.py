"""Quodd cards: the exploration deck as data, the lineup, drawing in phase 4, tokens that fetch cards,
the treasure deck, the hand limit, private hands, and playing cards in phases 1 and 3."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

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
    deck = [c for c in data.cards().values() if not (c.treasure or c.overlord) for _ in range(c.copies)]
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
    n = sum(c.copies for c in data.cards().values() if not (c.treasure or c.overlord) and c.edition == 1)
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
    assert st.turn == 1 and st.phase == "move"  # the last draw ended the turn (hand within the limit)
    assert len(st.lineup) == LINEUP  # replenished after the exploration phase


def test_a_card_is_named_by_its_shown_name_in_any_case_with_spaces_or_hyphens():
    """Play-test: `draw card:Feast Loaf` was "not in the lineup", `impulse card:Broom` "no card `Broom`"."""
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").explore = 3
    st = to_phase4(st)
    pick = st.lineup[1]
    shown = data.cards()[pick].name
    for written in (shown, shown.upper(), shown.lower().replace(" ", "-"), shown.replace(" ", "_")):
        got, _ = do(st, "ann", f'draw card:"{written}"')
        assert hero(got, "ann").hand == [pick], written
    assert do(st, "ann", "draw card:DECK")[0].m.draws == 2
    assert "There is no card `Nothing`" in illegal(st, "ann", "play card:Nothing").reason  # still refused
    hero(st, "bob").hand = ["broom"]
    got, ev = do(st, "bob", "impulse card:Broom")
    assert any("Broom" in e for e in ev) and "broom" not in hero(got, "bob").hand


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


# ---- playing cards (phases 1 and 3) -------------------------------------------------------------------

def targets(st, player: str, cmd: str = "play") -> set[str]:  # noqa: ANN001
    return {a.get("at") or "" for a in E.legal_actions(st, player) if a.cmd == cmd}


def power(**kw: object):  # noqa: ANN201
    return build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="power", **kw)  # type: ignore[arg-type]


def test_food_boost_played_in_phase_one_adds_movement_to_the_skill():
    st = power()
    hero(st, "ann").hand = ["slick-soup", "honey-bun"]
    st, _ = do(st, "ann", "play card:slick-soup")
    st, _ = do(st, "ann", "play card:honey-bun")
    assert st.m.boost == {"slide": 2, "all": 2} and "slick-soup" in st.discard
    # with the hand empty phase 1 has nothing left to choose: it passes by itself into the movement
    assert st.phase == "move" and st.m.boost == {"slide": 2, "all": 2}  # carried into the movement


def test_a_boost_in_phase_three_is_refused_because_it_cannot_matter():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").hand = ["trail-mix"]
    assert "play card:trail-mix" not in legal(st, "ann")
    assert "phase 1" in illegal(st, "ann", "play card:trail-mix").reason


def test_no_card_is_played_during_a_movement_not_even_an_impulse_card():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="move", tumbled=True, ready="slide", points=1)
    hero(st, "ann").hand = ["rune-of-unmaking", "trail-mix"]
    hero(st, "bob").hand = ["rune-of-blocking"]
    assert not legal(st, "ann", "play") and not legal(st, "bob", "impulse")
    assert "never played during a movement" in illegal(st, "bob", "impulse card:rune-of-blocking at:F4").reason
    assert "never played during a movement" in illegal(st, "ann", "play card:trail-mix").reason


def test_impulse_cards_are_played_on_another_players_turn_other_cards_are_not():
    st = power()
    hero(st, "ann").hand = ["trail-mix"]  # ann still has a choice, so her phase 1 stays open
    hero(st, "bob").hand = ["rune-of-blocking", "rune-of-stone"]
    assert Action.of("impulse", card="rune-of-blocking", at="F4") in E.legal_actions(st, "bob")
    assert not [a for a in legal(st, "bob") if "rune-of-stone" in a]
    assert "not an impulse card" in illegal(st, "bob", "impulse card:rune-of-stone at:F4").reason
    assert "not your move" in illegal(st, "bob", "play card:rune-of-blocking at:F4").reason  # `play` is for your turn
    st, ev = do(st, "bob", "impulse card:rune-of-blocking at:F4")
    assert st.tokens["F4"].kind == "wall" and st.phase == "power" and st.turn == 0  # still ann's phase 1
    assert any("impulse" in e for e in ev)


def test_once_you_explore_you_no_longer_play_cards_but_others_may_play_impulses():
    st = explore_phase(tokens={"C3": "spring", "F4": "spring"})
    st.m.draws = 1
    hero(st, "ann").hand = ["smoke-pellet"]
    hero(st, "bob").hand = ["smoke-pellet"]
    assert "exploration began" in illegal(st, "ann", "play card:smoke-pellet at:C3").reason
    assert not [a for a in E.legal_actions(st, "ann") if a.cmd in ("play", "impulse")]
    st, _ = do(st, "bob", "impulse card:smoke-pellet at:F4")
    assert "F4" not in st.tokens and st.phase == "explore"


def test_runes_place_a_token_within_range_counted_orthogonally_never_under_a_hero():
    st = power()
    hero(st, "ann").hand = ["pocket-spring"]  # range 1
    assert targets(st, "ann") == {"A3", "C3", "B2", "B4"}  # orthogonal count: diagonals are 2 away; B3 is under ann
    assert "out of range" in illegal(st, "ann", "play card:pocket-spring at:C4").reason
    st2 = power()
    hero(st2, "ann").hand = ["rune-of-stone"]  # range 5 reaches bob on F5? B3->F5 is 4+2 = 6: no; F4 is 5
    hero(st2, "bob").pos = "E3"
    assert "under a hero" in illegal(st2, "ann", "play card:rune-of-stone at:E3").reason
    st2, _ = do(st2, "ann", "play card:rune-of-stone at:F4")
    assert st2.tokens["F4"].kind == "wall"


def test_tokens_are_never_placed_on_respawn_points_other_tokens_or_in_pits():
    st = build(["R.O.....", "........"], tokens={"D1": "spring"}, heroes=[dict(pos="B2"), dict(pos="H2")],
               phase="power")
    hero(st, "ann").hand = ["rune-of-leaping"]
    found = targets(st, "ann")
    assert not {"A1", "C1", "D1", "B2"} & found and "E1" in found


def test_runes_remove_non_scenario_tokens_and_break_walls():
    st = power(tokens={"C3": "spring", "D3": "wall", "B4": "switch:a"})
    hero(st, "ann").hand = ["rune-of-unmaking", "rune-of-cracking"]
    assert "scenario token" in illegal(st, "ann", "play card:rune-of-unmaking at:B4").reason
    st, _ = do(st, "ann", "play card:rune-of-unmaking at:C3")
    assert "C3" not in st.tokens
    st, _ = do(st, "ann", "play card:rune-of-cracking at:D3")
    assert st.tokens["D3"].kind == "broken_wall"


def test_runes_move_a_token_from_within_range_to_a_free_square_within_range():
    st = power(tokens={"C3": "spring", "B4": "switch:a"})
    hero(st, "ann").hand = ["rune-of-shifting"]
    moves = [a for a in E.legal_actions(st, "ann") if a.cmd == "play"]
    assert {a.get("at") for a in moves} == {"C3"}  # the switch is a scenario token
    assert "F3" in {a.get("to") for a in moves} and "G3" not in {a.get("to") for a in moves}  # range 4
    assert "B3" not in {a.get("to") for a in moves}  # never under a hero
    assert "to:" in illegal(st, "ann", "play card:rune-of-shifting at:C3 to:B3").reason
    st, ev = do(st, "ann", "play card:rune-of-shifting at:C3 to:e3")
    assert "C3" not in st.tokens and st.tokens["E3"].kind == "spring"
    assert E.label(st, Action.of("play", card="rune-of-shifting", at="C3", to="E3")) == \
        "Play Rune of Shifting on C3 to E3"


def test_items_and_pets_go_into_their_one_slot_and_the_old_one_returns_to_the_hand():
    st = power()
    hero(st, "ann").hand = ["boots-of-haste", "spyglass", "magpie"]
    st, _ = do(st, "ann", "play card:boots-of-haste")
    st, _ = do(st, "ann", "play card:magpie")
    assert hero(st, "ann").items == ["boots-of-haste"] and hero(st, "ann").pets == ["magpie"]
    st, _ = do(st, "ann", "play card:spyglass")
    assert hero(st, "ann").items == ["spyglass"] and hero(st, "ann").hand == ["boots-of-haste"]


def test_one_item_and_one_pet_activation_a_turn():
    st = power()
    h = hero(st, "ann")
    h.items, h.pets = ["spyglass"], ["magpie"]
    st, _ = do(st, "ann", "use card:spyglass")
    assert len(hero(st, "ann").hand) == 1 and "use card:spyglass" not in legal(st, "ann")
    assert "already activated a item" in illegal(st, "ann", "use card:spyglass").reason
    st, _ = do(st, "ann", "use card:magpie")  # the pet has its own activation
    assert len(hero(st, "ann").hand) == 2
    st, _ = do(st, "ann", "done")
    st.phase, st.m.ended = "recovery", True
    assert "use card:spyglass" not in legal(st, "ann")  # still this turn in phase 3


def test_passive_items_and_pets_add_movement_and_explorations_without_activation():
    st = power()
    h = hero(st, "ann")
    h.items, h.pets = ["boots-of-haste"], ["truffle-pig"]
    assert not legal(st, "ann", "use")
    assert "passive" in illegal(st, "ann", "use card:boots-of-haste").reason
    st, _ = do(st, "ann", "done")
    assert st.m.boost.get("all") == 1
    st.phase, st.m.ended = "recovery", True
    st, _ = do(st, "ann", "done")
    assert st.m.draws == 2  # one icon + the truffle pig


def test_play_buttons_and_labels_name_the_card_and_target():
    st = power()
    hero(st, "ann").hand = ["trail-mix", "pocket-spring"]
    lg = E.legal_actions(st, "ann")
    buttons = [E.label(st, a) for a in E.button_actions(st, "ann", lg)]
    assert "Play Trail Mix" in buttons and "Play Pocket Spring on C3" in buttons
    assert "Done: to movement" in buttons


def test_an_unknown_card_or_one_not_in_hand_is_refused_naming_the_hand():
    st = power()
    hero(st, "ann").hand = ["trail-mix"]
    assert "`trail-mix`" in illegal(st, "ann", "play card:honey-bun").reason
    assert "no card" in illegal(st, "ann", "play card:nonsense").reason


# ---- every card: its effect is implemented and does what its data says ------------------------------

def _effect_seen(before, after, c, e, player="ann") -> bool:  # noqa: ANN001
    b, a = hero(before, player), hero(after, player)
    if e.do == "boost":
        return after.m.boost.get(e.skill or "all", 0) == before.m.boost.get(e.skill or "all", 0) + e.points
    if e.do == "place":
        return len([t for t in after.tokens.values() if t.kind == e.token]) == \
            len([t for t in before.tokens.values() if t.kind == e.token]) + 1
    if e.do == "remove":
        return len(after.tokens) == len(before.tokens) - 1
    if e.do == "move":
        return len(after.tokens) == len(before.tokens) and set(after.tokens) != set(before.tokens)
    if e.do == "break":
        return sum(t.kind == "broken_wall" for t in after.tokens.values()) == \
            sum(t.kind == "broken_wall" for t in before.tokens.values()) + 1
    if e.do == "explore":
        return len(a.hand) == len(b.hand) - (c.id in b.hand and not c.equipped) + e.n
    if e.do == "wipe":
        return not set(after.lineup) & set(before.lineup) or after.lineup != before.lineup
    if e.do == "equip":
        return c.id in a.items + a.pets
    if e.do == "dash":
        return a.pos != b.pos
    return False


def test_every_card_has_an_effect_the_engine_implements_and_playing_it_shows_that_effect():
    for c in data.cards().values():
        for how, e in (("play", c.effect), ("use", c.effect.use)):
            if e is None:
                continue
            st = power(tokens={"C3": "wall", "B4": "spring"})
            h = hero(st, "ann")
            if how == "play":
                h.hand = [c.id]
            else:
                (h.items if c.kind == "item" else h.pets).append(c.id)
            st.lineup = ["crowbar", "magpie", "lantern"]
            plays = [a for a in E.legal_actions(st, "ann") if a.cmd == how and a.get("card") == c.id]
            assert plays, f"{c.id}: no legal {how}"
            after, _ = E.apply(st, "ann", plays[0])
            assert _effect_seen(st, after, c, e), f"{c.id} ({how} {e.do}) did not show its effect"
        if c.effect.do == "equip" and c.effect.use is None:
            assert c.effect.movement or c.effect.explore or c.effect.freeze, \
                f"{c.id}: an equipped card needs a passive or a use"


# ---- skipping what cannot matter ----------------------------------------------------------------------

def test_a_phase_with_no_possible_choice_passes_by_itself_in_one_line():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], tumbled=True)
    st, ev = do(st, "ann", "done")  # the movement ends; phase 3 has nothing to play or drop
    assert st.phase == "explore"
    assert [e for e in ev if "nothing to play" in e] == ["Ann has nothing to play in phase 3, recovery: it passes."]
    st, ev = do(st, "ann", "done")  # stop exploring: bob's phase 1 passes too, straight into his movement
    assert st.turn == 1 and st.phase == "move" and not st.m.tumbled
    assert "Bob has nothing to play in phase 1, power-up: it passes." in ev


def test_a_phase_with_a_card_to_play_or_something_to_drop_waits_for_the_player():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5", carrying=["red-crystal"])], phase="explore")
    st, _ = do(st, "ann", "done")
    assert st.turn == 1 and st.phase == "power"  # bob could drop his crystal
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], tumbled=True)
    hero(st, "ann").hand = ["crowbar"]  # no wall near: the crowbar cannot be played
    st, _ = do(st, "ann", "done")
    assert st.phase == "explore"
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], tumbled=True)
    hero(st, "ann").hand = ["lantern"]
    st, _ = do(st, "ann", "done")
    assert st.phase == "recovery"


def test_a_skipped_phase_adds_no_message_or_image_of_its_own():
    """One command, one reply: the pass happens inside the action that led to it (transcripts: no `done`
    for empty phases any more, and one board image per accepted command)."""
    lines = (Path(__file__).parent / "transcripts" / "tutorial.txt").read_text().splitlines()
    dones = [ln for ln in lines if ln.endswith("/quodd done")]
    turns = sum(1 for ln in lines if "/quodd tumble" in ln)
    assert len(dones) <= 3 * turns  # skills setup + end of movement + phase 4; phases 1 and 3 pass


def test_rules_answer_for_every_card_by_name():
    topics = E.rules_topics()
    for c in data.cards().values():
        assert c.text in topics[c.name] and c.name in topics["overlord" if c.overlord else "cards"]
    assert len(topics["cards"]) < 2000  # one Discord message


def test_card_autocomplete_values_read_as_the_card_name_and_text():
    st = power()
    hero(st, "ann").hand = ["trail-mix"]
    text = E.value_label(st, "ann", "play", "card", "trail-mix")
    assert text.startswith("trail-mix: Trail Mix (food)") and len(text) <= 100
    assert E.value_label(st, "ann", "move", "direction", "N") == "N"


def test_a_skip_vote_while_discarding_discards_the_card_drawn_last():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    hero(st, "ann").hand = ["trail-mix", "honey-bun", "crowbar", "magpie", "lantern"]
    st = to_phase4(st)
    st, _ = do(st, "ann", "draw card:deck")
    drawn = hero(st, "ann").hand[-1]
    assert E.skip_action(st, "ann") == Action.of("discard", card=drawn)
    st, _ = do(st, "ann", E.skip_action(st, "ann").text())
    assert st.turn == 1 and len(hero(st, "ann").hand) == HAND_LIMIT


def test_a_card_drawn_from_the_deck_is_named_to_its_owner_alone_and_counted_for_the_others():
    """Play-test: "bob draws 1 from the exploration deck" gave bob no line naming the card."""
    from games.core.play import step

    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="F5")], phase="recovery")
    st = to_phase4(st)
    top = st.deck[0]
    _, st, events = step(E, st, "ann", Action.parse("draw card:deck"))
    public = [e.text for e in events if e.to is None]
    assert any("draws 1 from the exploration deck" in t for t in public)
    assert not any(data.cards()[top].name in t for t in public)  # hidden from the table
    assert [e.text for e in events if e.to == ["ann"]] == [f"Your hand gets {data.cards()[top].name}."]


def test_exploring_a_kind_from_the_deck_names_the_revealed_card_and_whose_hand_it_goes_to():
    """Play-test: "until a item card: it goes to their hand" (an item; the card revealed, the hand named)."""
    from games.core import Event
    from games.quodd.deck import fetch_kind

    st = build(OPEN, heroes=[dict(pos="B3")])
    h = hero(st, "ann")
    st.lineup = [c for c in st.lineup if data.cards()[c].kind != "item"]
    ev: list[Event] = []
    fetch_kind(st, h, "item", ev)
    got = h.hand[-1]
    assert data.cards()[got].kind == "item"
    assert any(f"until an item card turns up: {data.cards()[got].name} goes to Ann's hand" in e.text for e in ev)
