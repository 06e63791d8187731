"""One engine's speed in a fresh process, for any checkout of the project:
`python -P tools/bench/engine_child.py '{"tree": ..., "game": ..., ...}'`.

The engine section runs this for the current tree and for the baseline commit's tree (its
files extracted by `git archive`), one game at a time and alternately, so both are timed on
the same machine in the same minute. It only uses what both have: `games.core.all_games`,
`games.core.playout.random_playout` and `games.core.play.step`. It prints one JSON line.

Every figure is process CPU time (`time.process_time`), not wall time: on a shared machine
another process's work would otherwise count as ours (wall-clock rates of one build varied 3x
from run to run on the busy development machine; CPU rates vary far less).

Measured, after a warm-up game: a fixed list of `playouts` seeded random legal playouts (unchecked
`apply`, as a trusted replay or a fuzzer plays), the same seeds on every build, played `passes`
times by every build (caches a fresh process fills in the first pass serve the next, as in a
long-running bot; `first_cpu_s` is a game's first pass alone). Random play picks from the
legal list with the seed's own generator, so two builds whose rules agree play the very same games:
each game's fingerprint (who acted, every action's text, the result) shows whether they did, and the
CPU time of each game is reported so the ratio can be taken over identical games only. Then the
rules work of every move of `seeds` seeded games as `GameManager.play` and its reply do it (step,
both statuses, dump, view, the legal actions behind the buttons).
"""
from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from typing import Any


def _seats(engine: Any, options: dict[str, str], seat_cls: Any, seed: int) -> int:
    """The most seats (up to 6) these options take (as `tools.bench.common.fit_seats`)."""
    engine.check_options(options)
    for n in range(min(engine.max_seats, 6), engine.min_seats - 1, -1):
        seats = [seat_cls(player=f"b{i}", name=f"Bench {i}") for i in range(1, n + 1)]
        try:
            for i, s in enumerate(seats):
                engine.check_seat(options, seats[:i], s)
            engine.setup(options, seats, seed)
            return n
        except Exception:
            continue
    raise RuntimeError("no seat count works")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _fingerprint(log: list[tuple[str, Any]], state: Any, engine: Any) -> str:
    """What a playout did: who acted, each action's text, and whether and how the game ended."""
    status = engine.status(state)
    moves = "\n".join(f"{player} {action.text()}" for player, action in log)
    winners = sorted(status.result.winners) if status.result is not None else []
    return _digest(f"{moves}\n{status.finished} {winners}")


def measure(game: str, seed: int, passes: int, playouts: int, seeds: int, cap: int) -> dict[str, Any]:
    from games.core import Seat, all_games
    from games.core.play import step
    from games.core.playout import random_playout

    engine = all_games()[game]
    opts = {o.name: o.default for o in engine.options if o.default is not None}
    n_seats = _seats(engine, opts, Seat, seed)

    def seats() -> list[Any]:
        return [Seat(player=f"b{i}", name=f"Bench {i}") for i in range(1, n_seats + 1)]

    random_playout(engine, opts, seats(), seed, cap=cap, checked=False)  # warm-up: imports, data, caches
    numbers = [seed + 1 + k for k in range(playouts)]  # the fixed list: the same games on every build
    cpu = dict.fromkeys(numbers, 0.0)
    prints: dict[int, str] = {}
    lengths: dict[int, int] = {}
    first: dict[int, float] = {}
    t0, w0 = time.process_time(), time.perf_counter()
    for _ in range(passes):
        for number in numbers:
            t = time.process_time()
            p = random_playout(engine, opts, seats(), number, cap=cap, checked=False)
            cpu[number] += time.process_time() - t
            lengths[number] = p.steps
            prints.setdefault(number, _fingerprint(p.log, p.state, engine))
            first.setdefault(number, cpu[number])
    dt, wall = time.process_time() - t0, time.perf_counter() - w0
    actions = passes * sum(lengths.values())
    n = passes * len(numbers)
    each_game = [{"seed": k, "actions": lengths[k], "cpu_s": cpu[k] / passes, "first_cpu_s": first[k],
                  "fingerprint": prints[k]}
                 for k in numbers]

    moves: list[tuple[Any, str, Any]] = []
    for k in range(seeds):
        random_playout(engine, opts, seats(), seed + 1000 + k, cap=cap, checked=False,
                       each=lambda before, player, action, after, events: moves.append((before, player, action)))
    costs = []
    for state, player, action in moves:
        t = time.process_time()
        engine.status(state)
        _, new, _ = step(engine, state, player, action)
        after = engine.status(new)
        engine.dump(new)
        engine.view(new, None)
        for who in after.to_act:
            engine.legal_actions(new, who)
        costs.append(time.process_time() - t)
    costs.sort()
    out = {"game": game, "seats": n_seats, "playouts": n, "cpu_s": dt, "wall_s": wall, "actions": actions,
           "passes": passes, "fingerprint": _digest("".join(prints[k] for k in numbers)), "each_game": each_game,
           "moves_timed": len(costs)}
    if n:  # `playouts` 0: the moves alone (no rate is made up from no playouts)
        out.update(actions_per_s=actions / dt, playouts_per_s=n / dt, mean_actions=statistics.mean(lengths.values()))
    if costs:  # `seeds` 0: the playouts alone (a later round of the bench)
        out.update(move_p50_ms=1000 * statistics.median(costs), move_max_ms=1000 * costs[-1],
                   move_p99_ms=1000 * costs[max(0, -(-99 * len(costs) // 100) - 1)])
    return out


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    sys.path.insert(0, args["tree"])  # the checkout being measured comes first
    print(json.dumps(measure(args["game"], args["seed"], args["passes"], args["playouts"], args["seeds"],
                             args["cap"])))
