"""Random legal play to the end: no exception, no dead end, exact JSON round-trip, replayable log."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import Seat
from games.core.play import replay
from games.core.playout import random_playout
from games.heroball import ENGINE as E

STEP_CAP = 3000


def play_random(seed: int, n: int, *, check_json: bool = True):
    """The shared random playout, with Heroball's checks at every step."""
    seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)]

    def choose(pick, state, player, legal):
        status = E.status(state)
        assert status.to_act, status
        for p in status.to_act:
            assert E.legal_actions(state, p), f"{p} must act in {status.phase} but has nothing legal"
        assert len(set(legal)) == len(legal)
        if status.phase in ("defend", "intercept", "distract"):
            assert any(a.cmd == "pass" for a in legal), "pass is always legal in a reaction window"
        return pick.choice(legal)

    def check(before, player, action, state, events):
        if check_json:
            text = E.dump(state)
            again = E.load(text)
            assert again == state and E.dump(again) == text

    game = random_playout(E, {}, seats, seed, cap=STEP_CAP, choose=choose, each=check)
    if not game.finished:
        pytest.fail(f"runaway: not finished after {STEP_CAP} actions")
    return seats, game.state, game.log


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_legal_games_finish_and_replay_identically(seed, n):
    seats, state, log = play_random(seed, n)
    st_ = E.status(state)
    assert st_.finished and st_.round == 12 and st_.result.winners
    assert E.dump(replay(E, {}, seats, seed, log)) == E.dump(state)
    E.view(state, None)
    assert set(E.summary(state)) >= {"round", "ball", "players"}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), n=st.integers(min_value=2, max_value=4))
def test_property_random_games_round_trip_json_after_every_action(seed, n):
    play_random(seed, n)


def test_random_games_stay_short_enough_for_play_by_post_limits():
    lengths = [len(play_random(seed, 4, check_json=False)[2]) for seed in range(3)]
    assert max(lengths) < 1500, lengths
