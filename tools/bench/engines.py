"""engines: random legal actions per CPU second and the rules CPU each move costs, now and at the baseline.

The baseline is the commit named in `baseline.json` (the engines before the speed-up of issue 12).
A full run extracts that commit's `games/` with `git archive` and times it in the same run, game by
game alternately with the current tree, each in a fresh process (`engine_child.py`), so both meet
the same machine and the same load (in `engine_rounds` rounds of fresh processes, each game counting its
least CPU time). Both builds time the same fixed list of seeded random playouts;
each game's fingerprint says whether both builds played it identically, and the speed-up is the
ratio of CPU time over the identical games (a differing game is counted and named in the row). Figures are CPU time of
the measuring process (a busy machine otherwise shows its other work as ours). When the commit
cannot be extracted (no git, a shallow clone) or in `--quick`, the figures recorded in
`baseline.json` stand in, and the row says so.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

from .common import ROOT, SEED, Config, Engine
from .report import Report

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
CHILD = HERE / "engine_child.py"
# issue 12: actions/s against the baseline engines, and the dungeon's rules CPU per move
SPEEDUP_TARGETS = {"dungeon": 20.0, "quodd": 5.0, "heroball": 3.0}
DUNGEON_P99_MS = 10.0


def load_baseline() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BASELINE.read_text(encoding="utf-8"))
    return data


def extract_tree(commit: str, into: Path) -> Path | None:
    """The baseline commit's `games/` package under `into`, or None when git cannot give it."""
    try:
        out = subprocess.run(["git", "archive", "--format=tar", commit, "games"], cwd=ROOT, capture_output=True,
                             timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0 or not out.stdout:
        return None
    with tarfile.open(fileobj=BytesIO(out.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_child(tree: Path, game: str, cfg: Config, moves: bool = True) -> dict[str, Any]:
    args = {"tree": str(tree), "game": game, "seed": SEED, "passes": cfg.engine_passes,
            "playouts": cfg.playouts_of(game), "seeds": cfg.engine_seeds if moves else 0, "cap": cfg.playout_cap}
    out = subprocess.run([sys.executable, "-P", str(CHILD), json.dumps(args)], cwd=tree, capture_output=True,
                         text=True, timeout=900, check=False)
    if out.returncode != 0:
        raise RuntimeError((out.stderr.strip().splitlines() or ["no output"])[-1])
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def bench_engines(cfg: Config, games: dict[str, Engine], rep: Report, quick: bool = False) -> None:
    base = load_baseline()
    info: dict[str, Any] = {"baseline_commit": base["commit"]}
    with tempfile.TemporaryDirectory(prefix="playpost-baseline-") as d:
        old_tree = None if quick else extract_tree(base["commit"], Path(d))
        source = (f"baseline commit {base['commit'][:10]} timed in this run" if old_tree is not None
                  else f"baseline figures recorded in tools/bench/baseline.json ({base['recorded']})")
        info["baseline_source"] = source
        for gid in games:
            try:
                if quick:  # the smoke test: in this process, short
                    from .engine_child import measure
                    now = measure(gid, SEED, cfg.engine_passes, cfg.playouts_of(gid), cfg.engine_seeds,
                                  cfg.playout_cap)
                    old = base["games"].get(gid)
                elif old_tree is None:
                    now, old = run_child(ROOT, gid, cfg), base["games"].get(gid)
                else:  # rounds of fresh processes, the two builds alternately
                    nows, olds = [], []
                    for r in range(cfg.engine_rounds):
                        nows.append(run_child(ROOT, gid, cfg, moves=r == 0))
                        olds.append(run_child(old_tree, gid, cfg, moves=r == 0))
                    now, old = merge_rounds(nows), merge_rounds(olds)
            except Exception as exc:  # a game being written may not play yet
                rep.add("engines", gid, "skipped", f"playout failed: {type(exc).__name__}: {exc}"[:100])
                continue
            same = compare(now, old)
            _rows(rep, gid, now, old, source, same)
            info[gid] = {"now": now, "baseline": old, **same}
    rep.details["engines"] = info


def merge_rounds(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One build's rounds (fresh processes) as one result: each game counts its least CPU time over the rounds
    (the run least disturbed by the machine's other work: on a shared machine the CPU time of the same work
    rises with the load), the moves' figures are the first round's. `cpu_s_rounds` keeps each round's total;
    `same_every_round` says whether every round played the same games (random play is seeded: it must)."""
    out = dict(runs[0])
    if len(runs) == 1:
        return out
    games: dict[int, list[dict[str, Any]]] = {}
    for run in runs:
        for g in run["each_game"]:
            games.setdefault(g["seed"], []).append(g)
    each = []
    for plays in games.values():
        g = dict(plays[0], cpu_s=min(p["cpu_s"] for p in plays), cpu_s_rounds=[p["cpu_s"] for p in plays])
        each.append(g)
    cpu = sum(g["cpu_s"] for g in each)
    actions = sum(g["actions"] for g in each)
    out.update(each_game=each, cpu_s=cpu, actions=actions, actions_per_s=actions / cpu, playouts=len(each),
               playouts_per_s=len(each) / cpu, wall_s=sum(r["wall_s"] for r in runs), rounds=len(runs),
               cpu_s_rounds=[r["cpu_s"] for r in runs],
               same_every_round=all(r["fingerprint"] == out["fingerprint"] for r in runs))
    return out


def compare(now: dict[str, Any], old: dict[str, Any] | None) -> dict[str, Any]:
    """The speed-up over the games both builds played identically (same fingerprint), as a ratio of CPU time.

    Both builds time the same seeded playouts; while their rules agree, they are the same games, action for
    action, so the ratio compares like with like. A game whose fingerprint differs (a rules fix since the
    baseline, or a bug) is left out of the ratio and counted, so the row says so. `speedup_all` is the plain
    ratio of actions per second over every game, as the bench reported before fingerprints.
    """
    if old is None:
        return {"speedup": None}
    out: dict[str, Any] = {"speedup_all": now["actions_per_s"] / old["actions_per_s"]}
    mine = {g["seed"]: g for g in now.get("each_game", [])}
    theirs = {g["seed"]: g for g in old.get("each_game", [])}
    if not mine or not theirs:  # figures recorded before fingerprints: nothing to match
        out.update(speedup=out["speedup_all"], identical_games=None, games=len(mine))
        return out
    both = [s for s in mine if s in theirs and mine[s]["fingerprint"] == theirs[s]["fingerprint"]]
    out["games"], out["identical_games"] = len(mine), len(both)
    out["differing_seeds"] = [s for s in mine if s not in both]
    now_cpu = sum(mine[s]["cpu_s"] for s in both)
    old_cpu = sum(theirs[s]["cpu_s"] for s in both)
    out["speedup"] = old_cpu / now_cpu if both and now_cpu > 0 else out["speedup_all"]
    out["identical"] = len(both) == len(mine) == len(theirs)
    return out


def _rows(rep: Report, gid: str, now: dict[str, Any], old: dict[str, Any] | None, source: str,
          same: dict[str, Any]) -> None:
    subject = f"{gid} ({now['seats']} seats)"
    target = SPEEDUP_TARGETS.get(gid)
    if old is None:
        rep.add("engines", subject, "random actions per CPU second", f"{now['actions_per_s']:,.0f} (no baseline)",
                round(now["actions_per_s"]))
    else:
        x = same["speedup"]
        games = same.get("identical_games")
        if games is None:
            match = "games not compared"
        elif games == same["games"]:
            match = f"the same {games} games on both"
        else:
            match = (f"PLAYOUTS DIFFER: {same['games'] - games} of {same['games']} games play otherwise than the "
                     f"baseline; ratio over the {games} identical" if games else
                     f"PLAYOUTS DIFFER in all {same['games']} games: plain ratio of rates")
        rep.add("engines", subject, "random actions per CPU second: now / baseline (speed-up)",
                f"{now['actions_per_s']:,.0f} / {old['actions_per_s']:,.0f} ({x:.1f}x; {match}; {source})",
                round(x, 2),
                target=f">= {target:g}x" if target else "", ok=(x >= target) if target else None)
    p99 = now["move_p99_ms"]
    was = f"; baseline {old['move_p50_ms']:.1f} / {old['move_p99_ms']:.1f} ms" if old else ""
    rep.add("engines", subject, "rules CPU per move (step+status+dump+view+buttons) p50 / p99 / max",
            f"{now['move_p50_ms']:.1f} / {p99:.1f} / {now['move_max_ms']:.1f} ms over {now['moves_timed']} moves{was}",
            {"p50_ms": now["move_p50_ms"], "p99_ms": p99, "max_ms": now["move_max_ms"]},
            target=f"p99 <= {DUNGEON_P99_MS:g} ms" if gid == "dungeon" else "",
            ok=(p99 <= DUNGEON_P99_MS) if gid == "dungeon" else None)
    rep.add("engines", subject, "random playouts per CPU second",
            f"{now['playouts_per_s']:.1f} ({now['mean_actions']:.0f} actions/game)", round(now["playouts_per_s"], 2))
