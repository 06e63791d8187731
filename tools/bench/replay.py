"""replay: `/game replay` of a whole seeded random game per game (issue 18: a 12-round Heroball game in under
30 s and under Discord's 10 MB)."""
from __future__ import annotations

import time

from games.core.playout import random_playout
from render.replay import replay_record

from .common import SEED, Config, Engine, seats_for
from .report import Report

LIMIT_S = 30.0
LIMIT_MB = 10.0


def bench_replay(cfg: Config, games: dict[str, Engine], rep: Report) -> None:
    details = {}
    for gid, engine in games.items():
        seats = seats_for(2 if engine.max_seats >= 2 else 1)
        game = random_playout(engine, {}, seats, SEED, cap=cfg.playout_cap, checked=False)
        t0 = time.perf_counter()
        gif = replay_record(engine, {}, seats, SEED, game.log)
        took = time.perf_counter() - t0
        mb = len(gif) / 1024 / 1024
        rounds = engine.status(game.state).round
        subject = f"{gid} (2 seats, {len(game.log)} actions, round {rounds}, finished {game.finished})"
        held = took < LIMIT_S and mb < LIMIT_MB
        rep.add("replay", subject, "animated GIF: time / size", f"{took:.1f} s / {mb:.2f} MB",
                {"s": round(took, 2), "mb": round(mb, 2)}, f"< {LIMIT_S:.0f} s, < {LIMIT_MB:.0f} MB", held)
        details[gid] = {"actions": len(game.log), "round": rounds, "finished": game.finished,
                        "s": round(took, 2), "bytes": len(gif)}
    rep.details["replay"] = details
