"""durability: what `synchronous=FULL` costs per move, against NORMAL (SQLite, WAL).

Each move is one `append_action` transaction (the guarded state update and its log entry) with a
state as big as a shipped game's; FULL syncs the WAL at every commit, so an acknowledged move
survives power loss, where NORMAL may lose the last commits. Same file system, same sizes, modes
alternated in rounds so a busy moment hits both alike.
"""
from __future__ import annotations

import time
from pathlib import Path

from storage import GameRecord, LogEntry, SQLiteStorage
from storage.sqlite import Synchronous

from .common import SEED, Config, Engine, default_options, fit_seats, med, ms, pct, seats_for
from .report import Report

MODES: tuple[Synchronous, ...] = ("NORMAL", "FULL")


def _state(games: dict[str, Engine]) -> str:
    """The largest starting state of the shipped games, as stored (JSON)."""
    texts = []
    for engine in games.values():
        opts = default_options(engine)
        texts.append(engine.dump(engine.setup(opts, seats_for(fit_seats(engine, opts)), SEED)))
    return max(texts, key=len)


async def bench_durability(cfg: Config, games: dict[str, Engine], rep: Report, tmp: Path) -> None:
    state = _state(games)
    moves = max(40, cfg.image_runs * 5)  # 200 in a full run
    rounds = 4
    times: dict[str, list[float]] = {m: [] for m in MODES}
    stores: dict[str, tuple[SQLiteStorage, GameRecord, int]] = {}
    try:
        for mode in MODES:
            store = SQLiteStorage(tmp / f"durability-{mode.lower()}.sqlite3", synchronous=mode)
            await store.open()
            rec = await store.create_game(GameRecord(channel_id=mode, kind="bench", host_id="p0", seed=SEED,
                                                     status="active", state=state))
            stores[mode] = (store, rec, 0)
        for _ in range(rounds):
            for mode in MODES:
                store, rec, seq = stores[mode]
                for _ in range(moves // rounds):
                    seq += 1
                    entry = LogEntry(seq=seq, player="p0", action=f"move n:{seq}", at=time.time())
                    t0 = time.perf_counter()
                    rec = await store.append_action(rec, rec.version, entry, state)
                    times[mode].append(time.perf_counter() - t0)
                stores[mode] = (store, rec, seq)
    finally:
        for store, _, _ in stores.values():
            await store.close()
    for mode in MODES:
        xs = times[mode]
        rep.add("durability", f"sqlite {mode}", "commit per move",
                f"median {ms(med(xs))} ms, p95 {ms(pct(xs, 95))} ms ({len(xs)} moves, {len(state)} B state)",
                value={"median_ms": ms(med(xs)), "p95_ms": ms(pct(xs, 95)), "moves": len(xs)})
    extra = med(times["FULL"]) - med(times["NORMAL"])
    rep.add("durability", "sqlite", "cost of FULL",
            f"{ms(extra):+} ms per move (median), the price of an acknowledged move surviving power loss"
            + (" (below the noise in this run)" if extra <= 0 else ""),
            value={"extra_median_ms": ms(extra)})
