"""Random legal games from many seeds: no crash, no dead end, no runaway, exact round-trips and replay."""
from __future__ import annotations

import random

import pytest

from games.core import Action, Seat
from games.core.play import replay
from games.core.playout import random_playout
from games.dungeon import ENGINE as E
from games.dungeon.data import content

HEROES = list(content().heroes)


def seats_for(seed: int) -> list[Seat]:
    r = random.Random(seed)
    n = 1 + seed % 6
    players = ["ann", "bob", "cat"][: 1 + seed % 3]
    picks = r.sample(HEROES, n)
    seats = []
    for i in range(n):
        choice = {"hero": picks[i]} if r.random() < 0.5 else {}
        seats.append(Seat(player=players[i % len(players)], name=players[i % len(players)].title(), choices=choice))
    return seats


def lean_to_doing(pick: random.Random, state, player: str, legal: list[Action]) -> Action:
    """Lean towards doing things rather than ending at once, as players do."""
    choices = [a for a in legal if a.cmd not in ("end", "ready")] or legal
    return pick.choice(choices if pick.random() < 0.85 else legal)


def round_trips(before, player: str, action: Action, after, events) -> None:
    text = E.dump(after)
    assert E.dump(E.load(text)) == text and E.load(text) == after


def play(seed: int, cap: int = 4000):
    seats = seats_for(seed)
    out = random_playout(E, {}, seats, seed, cap=cap, choose=lean_to_doing, each=round_trips)
    if not out.finished:
        pytest.fail(f"runaway: seed {seed} not finished after {cap} actions")
    return out.state, seats, out.log


@pytest.mark.parametrize("seed", range(10))
def test_random_legal_games_end_in_victory_or_defeat_and_replay_exactly(seed):
    state, seats, log = play(seed)
    assert state.result in ("victory", "defeat")
    assert E.status(state).result is not None
    rebuilt = replay(E, {}, seats, seed, log)
    assert E.dump(rebuilt) == E.dump(state)


def test_random_games_end_within_a_bounded_number_of_actions():
    """Engine speed is measured by the benchmark's engine section; here only what cannot depend on the
    machine: a random game ends, and in a bounded number of actions."""
    for seed in range(20, 23):
        state, _, log = play(seed)
        assert E.status(state).finished and len(log) < 5000
