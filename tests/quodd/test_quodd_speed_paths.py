"""Quodd's short cuts for speed (issue 12) answer exactly what the full computation answers.

`QuietPhase.only_done` (asked after every action, to pass phase 1 or 3 when `done` is the only choice) stops at
the first card, ability or drop instead of listing every target; `cards.has_card_action` stops at the first
card with a target. Over every phase-1 and phase-3 state met in seeded random games (power-up cards with
targets, items and pets, abilities, carried items), both agree with the legal list they stand for.
"""
from __future__ import annotations

from typing import Any

import pytest

from games.core import Action, Seat, get_game
from games.core.phases import copy_state
from games.core.playout import random_playout
from games.quodd.board import active
from games.quodd.cards import card_actions, has_card_action
from games.quodd.phases.base import QuietPhase


def _quiet_states(seed: int) -> list[Any]:
    engine = get_game("quodd")
    opts = {o.name: o.default for o in engine.options if o.default is not None}
    seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, 5)]
    seen: list[Any] = []
    random_playout(engine, opts, seats, seed, cap=1500, checked=False,
                   each=lambda before, player, action, after, events: seen.append(after))
    return [s for s in seen if s.phase in ("power", "recovery") and s.pending is None]


@pytest.mark.parametrize("seed", [3, 11])
def test_only_done_and_has_card_action_agree_with_the_legal_list(seed: int) -> None:
    engine = get_game("quodd")
    states = _quiet_states(seed)
    assert states, "random play reaches phases 1 and 3"
    passes = plays = 0
    for original in states:
        emptied = copy_state(original)  # the same position with nothing in hand, in play or carried
        h = active(emptied)
        h.hand, h.items, h.pets, h.carrying = [], [], [], []
        for st in (original, emptied):
            phase = engine.phases[st.phase]
            assert isinstance(phase, QuietPhase)
            h = active(st)
            only = phase.legal(engine, st, h.player) == [Action.of("done")]
            assert phase.only_done(engine, st) == only
            assert has_card_action(st, h) == bool(card_actions(st, h))
            passes += only
            plays += bool(card_actions(st, h))
    assert plays and passes, "some of these states have a card to play, some only `done`"


def test_a_setup_rearrange_copies_only_the_hero_it_changes() -> None:
    """A rearrange in the setup shares every part of the state but the heroes' list and the hero whose skills it
    changes (`engine._setup_rearrange`): the result is what the full copy gives, and the state it came from stays
    as it was, over the setup of a seeded random game (buddies' heroes included)."""
    from games.quodd.engine import QuoddHeroes

    engine = get_game("quodd")
    for scenario, n in (("tutorial", 4), ("buddies", 2)):
        opts = {o.name: o.default for o in engine.options if o.default is not None} | {"scenario": scenario}
        seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, n + 1)]
        checked = 0

        def check(before: Any, player: str, action: Action, after: Any, events: Any) -> None:
            nonlocal checked
            if action.cmd != "rearrange" or before.phase != "skills":
                return
            dumped = engine.dump(before)
            full, full_events = super(QuoddHeroes, engine).apply(before, engine._as(before, player), action)
            assert engine.dump(after) == engine.dump(full) and events == full_events
            assert engine.dump(before) == dumped  # the state it came from is untouched
            changed = [i for i, (a, b) in enumerate(zip(before.heroes, after.heroes, strict=True)) if a is not b]
            assert len(changed) == 1 and after.heroes is not before.heroes
            assert after.heroes[changed[0]].skills is not before.heroes[changed[0]].skills
            checked += 1

        random_playout(engine, opts, seats, 5, cap=400, checked=False, each=check)
        assert checked > 20, scenario


def test_an_action_copy_shares_only_the_frozen_tokens() -> None:
    """`state.action_copy` (the copy every Quodd action but a setup rearrange changes) is `apply_copy`'s copy with
    the tokens shared: Token is frozen, so a rule changing one puts a new token in the copy's own dict."""
    from pydantic import ValidationError

    from games.core.phases import apply_copy
    from games.quodd.state import action_copy

    engine = get_game("quodd")
    opts = {o.name: o.default for o in engine.options if o.default is not None}
    seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, 4)]
    seen: list[Any] = []
    random_playout(engine, opts, seats, 7, cap=1500, checked=False,
                   each=lambda before, player, action, after, events: seen.append(after))
    for st in seen[::25]:
        new = action_copy(st)
        assert engine.dump(new) == engine.dump(apply_copy(st)) == engine.dump(st)
        assert new.tokens == st.tokens and new.tokens is not st.tokens
        assert all(new.tokens[k] is t for k, t in st.tokens.items())
        assert all(a is not b for a, b in zip(new.heroes, st.heroes, strict=True)) and new.m is not st.m
    t = next(iter(seen[-1].tokens.values()))
    with pytest.raises(ValidationError):
        t.kind = "wall"


def test_can_upgrade_agrees_with_the_upgrade_list_it_stands_for() -> None:
    """Upgrade step of the end of round: a hero is asked for an upgrade while it has a tile side it may take
    (`can_upgrade`, asked at every status and label of the upgrade phase, stands for `upgrade_actions` being
    non-empty), on the A-side and the B-side, for every mix of tiles taken, skills upgraded and faces filled."""
    import itertools

    from games.quodd import data
    from games.quodd.modes.bside import FACES
    from games.quodd.upgrades import can_upgrade, upgrade_actions

    engine = get_game("quodd")
    opts = {o.name: o.default for o in engine.options if o.default is not None}
    seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, 5)]
    st = engine.setup(opts, seats, 5)
    skills = list(data.skills())
    checked = {True: 0, False: 0}
    for hero in st.heroes:
        tiles = len(data.upgrades()[hero.hero])
        for taken, upgraded, faces, board in itertools.product(
                (0, 1, tiles - 1, tiles), (0, 1, len(skills)), (0, 2, len(FACES)), ("", "b")):
            on_faces = {f: f"{n}b" for n, f in enumerate(FACES[:faces], 1)}
            h = hero.model_copy(update={"upgrades": [f"{n}a" for n in range(1, taken + 1)],
                                        "upgraded": skills[:upgraded], "faces": on_faces})
            want = bool(upgrade_actions(h, board))
            assert can_upgrade(h, board) is want, (hero.hero, taken, upgraded, faces, board)
            checked[want] += 1
    assert checked[True] and checked[False]
