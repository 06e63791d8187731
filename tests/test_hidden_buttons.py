"""Issues 11 and 14: hidden information never reaches a public message's buttons or menus, in every game.

On Discord every control under a channel message is visible to everyone. Random legal play of each game:
after every action, the buttons and menus the board would carry (`Table.buttons`, `Table.menus`) name no
hidden card (a card in a hand, face down, or on top of a deck), while the moves that do name one go to
their player alone (`bot/hand.py`), where they must stay reachable.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot import hand
from bot.table import Table
from games.core import Action, Game, Seat, all_games
from games.core.playout import random_playout
from games.dungeon.data import content as dungeon_content
from games.quodd import data as quodd_data

SEEDS = range(3)
STEPS = 300


# the Quodd scenarios whose players hold hands of cards (a buddies game's buddies hold none, and the conformance
# test plays every scenario anyway): the seeds cycle through these, as they did before the modes came
HANDS = ("heist", "pasture", "trial", "tutorial")


def options_for(engine: Game, seed: int) -> dict[str, str]:
    """Each game option cycles through its choices by seed (as the conformance test does); Quodd's scenario through
    `HANDS`."""
    opts = {spec.name: spec.choices[seed % len(spec.choices)] if spec.choices else spec.default
            for spec in engine.options if spec.choices or spec.default is not None}
    if engine.id == "quodd":
        opts["scenario"] = HANDS[seed % len(HANDS)]
    return opts  # type: ignore[return-value]


def seats_for(engine: Game, seed: int) -> list[Seat]:
    lo, hi = engine.min_seats, min(engine.max_seats, 4)
    return [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, lo + seed % (hi - lo + 1) + 1)]


def quodd_hidden(state: Any) -> set[str]:
    """Every card of every hand (its id and name): a hand is its player's alone."""
    cards = quodd_data.cards()
    return {n for h in state.heroes for cid in h.hand for n in (cid, cards[cid].name)}


def dungeon_hidden(state: Any) -> set[str]:
    """What a Boo Booty carries and the top of each face-down deck (the hero's equipment is public by the rules)."""
    cards = dungeon_content().cards
    ids = set(state.booty_cards) | set(state.loot_deck[:1]) | set(state.treasure_deck[:1])
    return {n for cid in ids for n in (cid, cards[cid].name)}


def heroball_hidden(state: Any) -> set[str]:
    """Heroball has no hands, decks or face-down tokens: only the dice are hidden, and no button names them."""
    return set()


HIDDEN: dict[str, Callable[[Any], set[str]]] = {"quodd": quodd_hidden, "dungeon": dungeon_hidden,
                                                "heroball": heroball_hidden}


def public_words(engine: Game, state: Any) -> list[str]:
    """Every label and action text under the public board now."""
    st = engine.status(state)
    if st.finished:
        return []
    buttons = Table.buttons(engine, state, st)
    menus = Table.menus(engine, state, st, buttons)
    return [w for b in buttons for w in (b.label, b.action)] + \
        [w for m in menus for option in m.options for w in option]


def named(name: str, words: list[str]) -> bool:
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    return any(pattern.search(w) for w in words)


def test_every_game_says_what_it_hides() -> None:
    """A new game adds its hidden names here, so this test covers it too (`count`, the template's test game, keeps a
    number secret: its buttons are numbers, so the fuzzer's differential covers it, not names)."""
    assert set(all_games()) - {"count"} <= set(HIDDEN)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", sorted(HIDDEN))
def test_no_public_button_or_menu_names_a_hidden_card(game_id: str, seed: int) -> None:
    """Rules (issues 11, 14): hands are private, never in public text during play; buttons are public text."""
    engine = all_games()[game_id]
    options, seats = options_for(engine, seed), seats_for(engine, seed)
    seen = {"states": 0, "hidden": 0, "private": 0}

    def check(old: Any, player: str, action: Any, state: Any, events: Any) -> None:
        seen["states"] += 1
        hidden = HIDDEN[game_id](state)
        if not hidden:
            return
        seen["hidden"] += 1
        public_view = engine.view(state, None).model_dump_json().casefold()
        words = public_words(engine, state)
        # a name that is also face up somewhere (another copy in the lineup) is public knowledge anyway
        leaked = sorted(n for n in hidden if n.casefold() not in public_view and named(n, words))
        assert not leaked, f"{game_id}: hidden {leaked} under the public board after `{action.text()}`: {words}"
        st = engine.status(state)
        for p in st.to_act:
            buttons, menus = hand.controls(engine, state, p)
            seen["private"] += len(buttons) + sum(len(m.options) for m in menus)

    random_playout(engine, options, seats, seed, cap=STEPS, each=check)
    assert seen["states"] > 0
    if game_id == "quodd":
        assert seen["hidden"] > 0, "random play should reach hands holding cards"


def test_quodd_card_moves_from_the_hand_are_private_and_cards_in_play_are_not() -> None:
    """Quodd rulebook: the hand is private; an item or pet in play is face up, and so is the lineup."""
    engine = all_games()["quodd"]
    state = engine.setup(options_for(engine, 0), seats_for(engine, 1), 1)
    p = state.heroes[0].player
    assert engine.private_action(state, p, Action.of("play", card="wall-kit"))
    assert engine.private_action(state, p, Action.of("impulse", card="wall-kit"))
    assert engine.private_action(state, p, Action.of("discard", card="wall-kit"))
    assert engine.private_action(state, p, Action.of("ability", name="twister", spin="cw", card="wall-kit"))
    assert engine.private_action(state, p, Action.of("steal", **{"from": "x", "item": "crystal", "card": "wall-kit"}))
    assert not engine.private_action(state, p, Action.of("use", card="wall-kit"))
    assert not engine.private_action(state, p, Action.of("draw", card="wall-kit"))
    assert not engine.private_action(state, p, Action.of("done"))
    assert not engine.private_action(state, p, Action.of("steal", **{"from": "x", "item": "crystal"}))


@pytest.mark.parametrize("game_id", ["dungeon", "heroball"])
def test_games_without_hands_mark_nothing_private(game_id: str) -> None:
    """The dungeon's equipment is public by the rules and Heroball has no hands: their boards keep every button."""
    engine = all_games()[game_id]
    options, seats = options_for(engine, 0), seats_for(engine, 0)

    def check(old: Any, player: str, action: Any, state: Any, events: Any) -> None:
        for p in engine.status(state).to_act:
            assert not any(engine.private_action(state, p, a) for a in engine.legal_actions(state, p))

    random_playout(engine, options, seats, 0, cap=100, each=check)


def test_a_private_command_with_more_moves_than_one_menu_gets_menus_of_25_that_hold_them_all() -> None:
    """A Quodd Rune of Elsewhere with 38 target squares showed 8 buttons and no menu for the other 30 (a menu
    holds 25); the rest now come in menus of 25 with ids of their own, each saying which of the moves it holds."""
    from bot.hand import controls
    from bot.reply import Menu
    from games.core import Action

    moves = [Action.parse(f"play card:rune at:{c}{r}") for r in range(1, 8) for c in "ABCDEF"][:38]

    class Stub:
        def legal_actions(self, state, player):
            return moves + [Action.parse("end")]

        def private_action(self, state, player, action):
            return action.cmd == "play"

        def button_actions(self, state, player, legal):
            return legal[:8]

        def label(self, state, action, player=None):
            return action.text()

    buttons, menus = controls(Stub(), None, "ann")  # type: ignore[arg-type]
    assert len(buttons) == 8 and [(m.part, len(m.options), m.of) for m in menus] == [(1, 25, 30), (2, 5, 30)]
    reachable = {b.action for b in buttons} | {v for m in menus for _, v in m.options}
    assert reachable == {a.text() for a in moves}
    assert [m.placeholder for m in menus] == ["More: play (1-25 of 30)", "More: play (26-30 of 30)"]
    assert Menu("ann", "throw", (("a", "throw to:A1"),) * 17).placeholder == "More: throw (17)"


def test_a_commands_second_menu_has_a_custom_id_of_its_own_that_reads_back_as_the_command() -> None:
    """Discord refuses a message whose components share an id: the second menu of a command is `...:play.2`."""
    import re

    from bot.discord_adapter.components import SELECT_TEMPLATE, GameSelect
    from bot.reply import Menu

    first = GameSelect("1", 3, Menu("ann", "play", (("A1", "play at:A1"), ("B1", "play at:B1")), part=1, of=27))
    second = GameSelect("1", 3, Menu("ann", "play", (("C1", "play at:C1"), ("D1", "play at:D1")), part=2, of=27))
    ids = [first.item.custom_id, second.item.custom_id]
    assert ids == ["pp:sel:1:3:play", "pp:sel:1:3:play.2"]
    assert all(m and m["cmd"] == "play" for m in (re.fullmatch(SELECT_TEMPLATE, i) for i in ids))
    assert second.item.placeholder == "More: play (26-27 of 27)"
