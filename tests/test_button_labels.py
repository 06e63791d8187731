"""Button labels say the outcome (issue 18), and fit Discord: a button label holds at most 80 characters, a
select option's at most 100 (docs/discord-facts: the bot cuts longer ones, so a label must never need it).

- Quodd: a tumble says which skill lands on top ("Tumble E → Dash on top"), as does a tumbling skill's move.
- Dungeon: an attack says the attacker's dice against the target's defence ("Melee Goblin (C3): 1B1R vs 2B").
- Heroball: a move, push, throw or hero action says what it costs ("Run → G6 (1 AP)").
"""
from __future__ import annotations

import random

import pytest

from bot.table import Table
from games.core import Action, Seat, get_game
from games.core.playout import random_playout

SEATS = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob"), Seat(player="cat", name="Cat")]
BUTTON_MAX, OPTION_MAX = 80, 100


@pytest.mark.parametrize("game", ["quodd", "dungeon", "heroball"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_button_and_menu_label_fits_discord_without_cutting(game, seed):
    engine = get_game(game)
    seats = SEATS[:2] if game == "heroball" else SEATS
    seen = 0

    def check(before, player, action, after, events) -> None:
        nonlocal seen
        st = engine.status(after)
        if st.finished:
            return
        for p in st.to_act:
            legal = engine.legal_actions(after, p)
            for a in engine.button_actions(after, p, legal):
                label = engine.label(after, a)
                assert len(label) <= BUTTON_MAX, (label, len(label))
                seen += 1
        for menu in Table.menus(engine, after, st, Table.buttons(engine, after, st)):
            for label, _ in menu.options:
                assert len(engine.label(after, Action.parse(_))) <= OPTION_MAX, label

    random_playout(engine, {}, seats, seed, cap=400, each=check)
    assert seen > 100


def _play_until(engine, seed: int, want, cap: int = 3000):
    """States of a random game where `want(state, player, action)` holds for a legal action: yields them."""
    rng = random.Random(seed)
    state = engine.setup({}, SEATS[:2], seed)
    for _ in range(cap):
        st = engine.status(state)
        if st.finished:
            return
        player = st.to_act[0]
        legal = engine.legal_actions(state, player)
        for a in legal:
            if want(state, player, a):
                yield state, player, a
        state, _ = engine.apply(state, player, rng.choice(legal))


def test_quodd_a_tumble_button_names_the_skill_that_lands_on_top():
    from games.quodd import data
    from games.quodd.board import active
    from games.quodd.skills import top_skill

    engine = get_game("quodd")
    checked = 0
    for state, player, a in _play_until(engine, 4, lambda s, p, a: a.cmd == "tumble"):
        label = engine.label(state, a)
        after, events = engine.apply(state, player, a)
        if any("falls" in e.text for e in events[:3]):  # the tumble itself fell: the button said so
            assert label.startswith(f"Tumble {a.get('direction')} → falls ("), label
            continue
        assert label.startswith(f"Tumble {a.get('direction')} → ") and label.endswith(" on top"), label
        hero = next(h for h in after.heroes if h.player == player)
        if any("whirlpool" in e.text.casefold() or "turns" in e.text.casefold() for e in events):
            continue  # a board element turned the cube again on the way
        skill = top_skill(hero)
        said = "Q" if skill == "q" else data.skills()[skill].name
        assert label == f"Tumble {a.get('direction')} → {said} on top", (label, [e.text for e in events])
        assert active(state).player == player
        checked += 1
        if checked >= 12:
            break
    assert checked >= 12


def test_dungeon_an_attack_button_says_attack_dice_against_the_targets_defence():
    from games.dungeon.combat import monster_defence_dice
    from games.dungeon.data import STYLE_STAT, Dice
    from games.dungeon.phases.base import active_hero
    from games.dungeon.sight import key_at
    from games.dungeon.stats import hero_stats, monster

    engine = get_game("dungeon")
    checked = 0
    for state, _, a in _play_until(engine, 3, lambda s, p, a: a.cmd == "attack"):
        key = key_at(state, a.get("target"))
        if not key or key == "spawn":
            continue
        attack = hero_stats(active_hero(state)).dice[STYLE_STAT[a.get("with")]].text()
        colours, stars, _ = monster_defence_dice(state, monster(state, int(key[1:])), a.get("with"))
        defence = Dice(dice=tuple(colours), stars=stars).text() if colours or stars else "no defence"
        label = engine.label(state, a)
        assert label.startswith(a.get("with").title() + " ") and label.endswith(f": {attack} vs {defence}"), label
        checked += 1
        if checked >= 10:
            break
    assert checked >= 10


def test_heroball_a_move_button_says_the_ap_it_costs_and_the_move_spends_exactly_that():
    engine = get_game("heroball")
    checked = 0
    for state, player, a in _play_until(engine, 5, lambda s, p, a: a.cmd in ("step", "run", "sprint", "push")
                                        and a.get("to") is not None or a.cmd == "push"):
        label = engine.label(state, a)
        ap = int(label.rsplit("(", 1)[1].split(" AP)")[0])
        hero = next(h for h in state.heroes if h.player == player)
        after, _ = engine.apply(state, player, a)
        spent = hero.ap - next(h for h in after.heroes if h.player == player).ap
        if after.window is None:  # a reaction window (Distract) may still charge more
            assert spent == ap, (label, spent)
        checked += 1
        if checked >= 15:
            break
    assert checked >= 15
    assert engine.label(state, Action.of("end")) == "End turn"  # a free action says no cost


def test_the_bot_labels_each_button_for_its_owner():
    """Players choosing at once may see one action mean something else for each (a Quodd upgrade tile): the bot
    tells the game whose button it labels (`Game.label(..., player=)`), on buttons, menus and private moves."""
    from bot.board_controls import buttons, menus
    from games.core import Action, Status

    class Stub:
        anytime_commands = ()

        def legal_actions(self, state, player):
            return [Action.parse(f"upgrade tile:{n}") for n in (1, 2, 3)]

        def private_action(self, state, player, action):
            return False

        def button_actions(self, state, player, legal):
            return legal[:1]

        def label(self, state, action, player=None):
            return f"{action.text()} for {player}"

    st = Status(phase="upgrade", to_act=["ann", "bob"])
    shown = buttons(Stub(), None, st, {"ann": "Ann", "bob": "Bob"})  # type: ignore[arg-type]
    assert [b.label for b in shown] == ["Ann: upgrade tile:1 for ann", "Bob: upgrade tile:1 for bob"]
    [menu] = menus(Stub(), None, st, shown)  # type: ignore[arg-type]
    assert menu.player == "ann" and menu.options == (("upgrade tile:2 for ann", "upgrade tile:2"),
                                                     ("upgrade tile:3 for ann", "upgrade tile:3"))


def test_a_shared_turns_button_says_whose_it_is_even_when_its_label_has_a_colon():
    """"Tile 2B: Crush" for Ann and "Tile 2B: +1 explore" for Bob came without their owners' names (a label with
    a colon was taken to name its owner): only a label that starts with its owner's name goes without it."""
    from bot.board_controls import buttons
    from games.core import Action, Status

    class Stub:
        anytime_commands = ()

        def legal_actions(self, state, player):
            return [Action.parse("upgrade tile:2b")]

        def private_action(self, state, player, action):
            return False

        def button_actions(self, state, player, legal):
            return legal

        def label(self, state, action, player=None):
            return {"ann": "Tile 2B: Crush", "bob": "Bob: Tile 2B: +1 explore"}[player]

    st = Status(phase="upgrade", to_act=["ann", "bob"])
    shown = buttons(Stub(), None, st, {"ann": "Ann", "bob": "Bob"})  # type: ignore[arg-type]
    assert [b.label for b in shown] == ["Ann: Tile 2B: Crush", "Bob: Tile 2B: +1 explore"]
