"""What every section shares: the run's configuration, statistics, seats and options, and the
seeded random games (played once per run by `games.core.playout.random_playout`)."""
from __future__ import annotations

import contextlib
import gc
import itertools
import math
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.manager import GameManager
from bot.reply import Context, Reply
from games.core import Action, Event, Game, Seat, all_games
from games.core.playout import random_playout

ROOT = Path(__file__).resolve().parents[2]
SEED = 20240607
PLAYOUT_CAP = 3000

Engine = Game[Any]

TARGETS = {
    "p99_ms_at_70pct": 150.0,  # move latency p99 at 70 % of capacity (paced)
    "loop_lag_ms": 20.0,  # event-loop lag max, at 70 % of capacity and at 10x overload
    "overload_share": 0.85,  # throughput at 10x overload, as a share of capacity
    "render_floor": 1.5,
    "render_peer": 0.5,
    "png_kb": 250.0,
    "width_px": 800,  # phone-first (issue 18): shown about 600 px wide; the panel sits below, so height varies
    "height_px": 2000,
    "startup_s": 2.0,
    "kb_per_cached_game": 256.0,
    "undo_ms": 100.0,
    "export_ms": 100.0,
}


@dataclass(frozen=True)
class Config:
    image_runs: int
    image_warmup: int
    capacity_channels: int  # closed loop that saturates the bot: its moves/s is the capacity
    overload_channels: int  # closed loop at 10x those channels: the overload
    closed_warmup: float
    closed_window: float
    capacity_window: float  # the capacity runs' window, cut into sub-windows of about 1 s (median taken)
    overload_warmup: float  # long enough for the start-up wave (every channel's first move at once) to pass
    paced_channels: int  # channels of the paced runs; their think time sets the offered load
    paced_shares: tuple[float, ...]  # offered load of the paced runs, as shares of the capacity
    paced_warmup: float
    paced_window: float
    scale_games: int
    scale_active_every: int  # one game in this many is active
    cold_sample: int
    cached_games: int
    startup_runs: int
    undo_runs: int
    engine_passes: int  # times both builds play the fixed list (a fresh process warms its caches in the first)
    engine_min: int  # playouts in the fixed list of a game ENGINE_PLAYOUTS does not name
    engine_seeds: int
    playout_cap: int  # actions per random game (quick mode plays short games)
    undo_actions: int
    max_combos: int = 24  # option combinations tried when looking for a game's largest board
    engine_playouts: tuple[tuple[str, int], ...] = ()  # per game, the seeded playouts both builds time
    engine_rounds: int = 1  # fresh processes per build, alternating; a game counts its least CPU time

    def playouts_of(self, game: str) -> int:
        return dict(self.engine_playouts).get(game, self.engine_min)


FULL = Config(image_runs=40, image_warmup=3, capacity_channels=50, overload_channels=500, closed_warmup=3.0,
              closed_window=5.0, capacity_window=7.0, overload_warmup=10.0, paced_channels=500,
              paced_shares=(0.5, 0.7), paced_warmup=1.0, paced_window=12.0,
              scale_games=10_000, scale_active_every=5, cold_sample=30, cached_games=1000, startup_runs=3,
              undo_runs=10, engine_passes=1, engine_min=3, engine_seeds=3,
              playout_cap=PLAYOUT_CAP, undo_actions=500,
              # about 800 dungeon, 2,300 Quodd and 6,600 Heroball actions: 2-6 s of the baseline's CPU each
              engine_playouts=(("dungeon", 8), ("quodd", 3), ("heroball", 20)), engine_rounds=3)
QUICK = Config(image_runs=2, image_warmup=1, capacity_channels=3, overload_channels=30, closed_warmup=0.1,
               closed_window=0.3, capacity_window=0.3, overload_warmup=0.2, paced_channels=6,
               paced_shares=(0.5, 0.7), paced_warmup=0.1, paced_window=0.3,
               scale_games=30, scale_active_every=5, cold_sample=3, cached_games=10, startup_runs=1,
               undo_runs=2, engine_passes=1, engine_min=1, engine_seeds=1,
               playout_cap=60, undo_actions=40,
               max_combos=4)  # the smoke test: a few combinations show the section works


class SetupFailed(Exception):
    """A game could not be set up or played as the section needs; the section reports it skipped."""


# ---- statistics -------------------------------------------------------------------
def pct(xs: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    s = sorted(xs)
    if not s:
        return float("nan")
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def med(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def ms(x: float) -> float:
    return round(x * 1000, 2)


# ---- games, seats, options --------------------------------------------------------
def bench_games() -> dict[str, Engine]:
    """The shipped games: engines of `games/<id>` packages, as the registry discovers them (the template
    game `games/_template` and other engines that tests register are left out)."""
    def shipped(engine: Engine) -> bool:
        parts = type(engine).__module__.split(".")
        return parts[0] == "games" and len(parts) > 1 and not parts[1].startswith("_")

    return {gid: e for gid, e in sorted(all_games().items()) if shipped(e)}


def seats_for(n: int) -> list[Seat]:
    return [Seat(player=f"b{i}", name=f"Bench {i}") for i in range(1, n + 1)]


def default_options(engine: Engine) -> dict[str, str]:
    return {o.name: o.default for o in engine.options if o.default is not None}


def fit_seats(engine: Engine, options: dict[str, str]) -> int:
    """The most seats (up to 6) these options take: every join accepted and setup works."""
    engine.check_options(options)
    last: Exception | None = None
    for n in range(min(engine.max_seats, 6), engine.min_seats - 1, -1):
        seats = seats_for(n)
        try:
            for i, s in enumerate(seats):
                engine.check_seat(options, seats[:i], s)
            engine.setup(options, seats, SEED)
            return n
        except Exception as exc:
            last = exc
    raise SetupFailed(f"no seat count works: {last}")


def option_combos(engine: Engine, limit: int = 24) -> list[dict[str, str]]:
    base = default_options(engine)
    specs = [o for o in engine.options if o.choices]
    combos: list[dict[str, str]] = []
    for values in itertools.product(*(o.choices for o in specs)):
        combos.append({**base, **{o.name: v for o, v in zip(specs, values, strict=True)}})
        if len(combos) >= limit:
            break
    return combos or [base]


# ---- seeded random games ----------------------------------------------------------
@dataclass(frozen=True)
class Step:
    player: str
    action: Action
    turn_key: str  # the turn key before the action (as the manager logs it)
    barrier: bool  # dice rolled or hidden information revealed: undo stops here


@dataclass
class Played:
    """A whole seeded random game with every state kept."""

    seed: int
    n: int
    options: dict[str, str]
    steps: list[Step]
    states: list[BaseModel]  # the state before each step, then the last
    finished: bool


_PLAYED: dict[tuple[Any, ...], Played] = {}


def played(engine: Engine, options: dict[str, str], seed: int, n: int, cap: int = PLAYOUT_CAP) -> Played:
    """The seeded random game with n seats, played once per run and shared by the sections."""
    key = (engine.id, tuple(sorted(options.items())), seed, n, cap)
    if key not in _PLAYED:
        steps: list[Step] = []
        states: list[BaseModel] = []

        def keep(before: BaseModel, player: str, action: Action, after: BaseModel, events: list[Event]) -> None:
            steps.append(Step(player, action, engine.status(before).turn_key, any(e.irreversible for e in events)))
            states.append(before)

        out = random_playout(engine, options, seats_for(n), seed, cap=cap, each=keep, checked=False)
        _PLAYED[key] = Played(seed, n, options, steps, [*states, out.state], out.finished)
    return _PLAYED[key]


def forget_played() -> None:
    """Free the kept games (thousands of states) before a section whose timings their garbage would disturb."""
    _PLAYED.clear()


# ---- the manager path -------------------------------------------------------------
def ctx(channel: str, k: int, *, image_later: bool = False) -> Context:
    """Bench player k in a channel; `image_later`: as Discord, the reply may leave before its board."""
    return Context(channel_id=channel, user_id=f"b{k}", user_name=f"Bench {k}", guild_id="bench",
                   image_later=image_later)


async def open_table(mgr: GameManager, channel: str, gid: str, n: int, seed: int, options: dict[str, str]) -> Reply:
    """`/game new`, n-1 players `/game join`, the host `/game start`s; returns the start reply."""
    r = await mgr.dispatch(ctx(channel, 1), "game", "new", {"game": gid, "seed": seed, **options})
    if r.game_id is None:
        raise SetupFailed(r.text)
    for k in range(2, n + 1):
        r = await mgr.dispatch(ctx(channel, k), "game", "join", {})
        if r.game_id is None:
            raise SetupFailed(r.text)
    r = await mgr.dispatch(ctx(channel, 1), "game", "start", {})
    if r.game_id is None or r.ephemeral:
        raise SetupFailed(r.text)
    return r


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """What is alive now (the bench's own seeded games, a million objects) left out of the garbage collector's
    scans while a section times its work, and given back at the end: a full collection of it stalled one timed
    board 0.67 s and one undo 0.75 s in a run, a pause no bot's render process or move meets."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
