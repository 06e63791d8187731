"""Random legal games from many seeds: no crash, no dead end, no runaway, exact round-trips and replay."""
from __future__ import annotations

import random
import time

import pytest

from games.core import Seat
from games.core.play import replay, step
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


def play(seed: int, cap: int = 4000):
    seats = seats_for(seed)
    state = E.setup({}, seats, seed)
    pick = random.Random(seed)
    log = []
    for _ in range(cap):
        st = E.status(state)
        if st.finished:
            return state, seats, log
        assert st.to_act, st
        player = pick.choice(st.to_act)
        legal = E.legal_actions(state, player)
        assert legal, f"{player} has nothing to do in {st.phase}"
        # lean towards doing things rather than ending at once, as players do
        choices = [a for a in legal if a.cmd not in ("end", "ready")] or legal
        action = pick.choice(choices if pick.random() < 0.85 else legal)
        logged, state, _ = step(E, state, player, action)
        assert logged == action
        log.append((player, action))
        text = E.dump(state)
        assert E.dump(E.load(text)) == text and E.load(text) == state
    pytest.fail(f"runaway: seed {seed} not finished after {cap} actions")


@pytest.mark.parametrize("seed", range(10))
def test_random_legal_games_end_in_victory_or_defeat_and_replay_exactly(seed):
    state, seats, log = play(seed)
    assert state.result in ("victory", "defeat")
    assert E.status(state).result is not None
    rebuilt = replay(E, {}, seats, seed, log)
    assert E.dump(rebuilt) == E.dump(state)


def test_random_games_are_quick_enough():
    t = time.perf_counter()
    for seed in range(20, 23):
        play(seed)
    assert time.perf_counter() - t < 12
