"""engines: random legal playouts per second (pure engine), and the rules work each move costs."""
from __future__ import annotations

import itertools
import statistics
import time
from typing import Any

from games.core.play import step
from games.core.playout import random_playout

from .common import SEED, Config, Engine, Played, default_options, fit_seats, med, ms, pct, played, seats_for
from .report import Report


def bench_engines(cfg: Config, games: dict[str, Engine], rep: Report) -> None:
    info: dict[str, dict[str, Any]] = {}
    for gid, engine in games.items():
        try:
            opts = default_options(engine)
            seats = fit_seats(engine, opts)
            game = played(engine, opts, SEED, seats, cfg.playout_cap)  # warm-up (shared with the other sections)
            n = actions = 0
            lengths: list[int] = []
            t0 = time.perf_counter()
            seeds = itertools.count(SEED + 1)
            while n < cfg.engine_min or time.perf_counter() - t0 < cfg.engine_budget:
                p = random_playout(engine, opts, seats_for(seats), next(seeds), cap=cfg.playout_cap, checked=False)
                n += 1
                actions += p.steps
                lengths.append(p.steps)
            dt = time.perf_counter() - t0
        except Exception as exc:  # a game being written may not play yet
            rep.add("engines", gid, "skipped", f"playout failed: {type(exc).__name__}: {exc}"[:100])
            continue
        on_loop = _move_costs(engine, game)
        # the manager runs this work in a worker thread; it is reported for its size, not as loop time
        rep.add("engines", f"{gid} ({seats} seats)", "rules CPU per move (step+dump+buttons) p50 / p99 / max",
                f"{ms(med(on_loop)):.1f} / {ms(pct(on_loop, 99)):.1f} / {ms(max(on_loop)):.1f} ms",
                {"p50_ms": ms(med(on_loop)), "p99_ms": ms(pct(on_loop, 99)), "max_ms": ms(max(on_loop))})
        info[gid] = {"seats": seats, "playouts_per_s": n / dt, "actions_per_s": actions / dt, "playouts": n,
                     "mean_actions": statistics.mean(lengths), "max_actions": max(lengths)}
        rep.add("engines", f"{gid} ({seats} seats)", "random playouts/s",
                f"{n / dt:.1f} ({actions / dt:.0f} actions/s, {statistics.mean(lengths):.0f} actions/game)",
                round(n / dt, 2))
    rep.details["engines"] = info


def _move_costs(engine: Engine, game: Played) -> list[float]:
    """The rules work of each move of a game, as GameManager.play and its reply do it:
    step (resolve + apply), both statuses, dump, the view, and the legal actions behind the buttons."""
    out = []
    for s, state in zip(game.steps, game.states, strict=False):
        t0 = time.perf_counter()
        engine.status(state)
        _, new, _ = step(engine, state, s.player, s.action)
        after = engine.status(new)
        engine.dump(new)
        engine.view(new, None)
        for who in after.to_act:
            engine.legal_actions(new, who)
        out.append(time.perf_counter() - t0)
    return out
