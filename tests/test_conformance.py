"""The shared conformance test, run against every registered game.

Random legal play from many seeds to the end: no exception, never a player who must act
without a legal action, no runaway, JSON round-trip identical after every action, the log
replays to the identical state, and the public view carries no private information.
"""
from __future__ import annotations

import pytest

from games.core import IllegalAction, Seat, all_games
from games.core.play import replay
from games.core.playout import DeadEndError, random_playout

SEEDS = range(4)
STEP_CAP = 5000


def game_ids() -> list[str]:
    return sorted(all_games())


def options_for(engine, seed: int) -> dict[str, str]:
    opts: dict[str, str] = {}
    for spec in engine.options:
        if spec.choices:
            opts[spec.name] = spec.choices[seed % len(spec.choices)]
        elif spec.default is not None:
            opts[spec.name] = spec.default
    return opts


def seats_for(engine, seed: int) -> list[Seat]:
    lo, hi = engine.min_seats, min(engine.max_seats, 4)
    n = lo + seed % (hi - lo + 1)
    return [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, n + 1)]


def seat_tables(engine, seed: int) -> list[list[Seat]]:
    """The seed's table first, then the other sizes (a scenario for other numbers of players takes one of those)."""
    lo, hi = engine.min_seats, min(engine.max_seats, 4)
    return [seats_for(engine, seed + k) for k in range(hi - lo + 1)]


def cases() -> list[tuple[str, int]]:
    """Each game with SEEDS, and with more seeds where an option has more choices than that (one game per choice:
    every Quodd scenario, every dungeon, is played once), keeping one game per seed."""
    out = []
    for game_id in game_ids():
        widest = max((len(spec.choices) for spec in all_games()[game_id].options), default=0)
        out += [(game_id, seed) for seed in range(max(len(SEEDS), widest))]
    return out


@pytest.mark.parametrize("game_id,seed", cases())
def test_random_legal_play_to_the_end(game_id: str, seed: int) -> None:
    engine = all_games()[game_id]
    options, seats = options_for(engine, seed), seats_for(engine, seed)
    try:
        engine.check_options(options)
    except Exception:  # an option combination the game refuses is not a conformance failure
        pytest.skip(f"{game_id} refuses options {options}")

    def choose(pick, state, player, legal):
        assert len(set(legal)) == len(legal), "legal actions are listed once each"
        return pick.choice(legal)

    def check(old, player, action, state, events) -> None:
        assert engine.dump(old) == before[0], "apply must not change the state it was given"
        text = engine.dump(state)
        before[0] = text
        again = engine.load(text)
        assert again == state and engine.dump(again) == text, "state round-trips through JSON exactly"
        public = engine.view(state, None).model_dump_json()
        for s in seats:
            secret = engine.private_text(state, s.player)
            for line in (ln.strip() for ln in secret.splitlines()):
                if len(line) >= 8:
                    assert line not in public, "private information leaked into the public view"
        for e in events:
            assert e.text.strip(), "every event says what happened"

    before = [""]
    for table in seat_tables(engine, seed):  # a scenario for other numbers of players (co-op, teams): another table
        try:
            before = [engine.dump(engine.setup(options, table, seed))]
        except IllegalAction:
            continue
        seats = table
        break
    else:
        pytest.skip(f"{game_id} refuses every table of {engine.min_seats}..4 seats with options {options}")
    try:
        game = random_playout(engine, options, seats, seed, cap=STEP_CAP, choose=choose, each=check)
    except DeadEndError as exc:
        pytest.fail(f"dead end: {exc}")
    if not game.finished:
        pytest.fail(f"runaway: {game_id} not finished after {STEP_CAP} random legal actions")
    st = engine.status(game.state)
    assert st.result is not None, "a finished game has a result"
    summary = engine.summary(game.state)
    assert summary.get("players"), "the export summary lists the players"
    for entry in summary["players"]:
        assert {"name", "hero", "position"} <= set(entry), "each summary entry names player, hero and position"
    rebuilt = replay(engine, options, seats, seed, game.log)
    assert engine.dump(rebuilt) == engine.dump(game.state), "log replay rebuilds the identical state"


@pytest.mark.parametrize("game_id", game_ids())
def test_game_declares_what_the_bot_needs(game_id: str) -> None:
    engine = all_games()[game_id]
    assert engine.id == game_id and engine.name
    assert 1 <= engine.min_seats <= engine.max_seats <= 6
    names = [c.name for c in engine.commands]
    assert len(names) == len(set(names)) and all(n == n.lower() for n in names)
    for c in engine.commands:
        assert len(c.options) <= 25 and all(len(o.choices) <= 25 for o in c.options)
