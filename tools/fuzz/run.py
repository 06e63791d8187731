"""`playpost fuzz GAME|all`: play fuzz games for a while and report what was reached and what failed."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .games import fuzzers
from .runner import Report, fuzz_game

ROOT = Path(__file__).resolve().parents[2]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game id, or `all`")
    p.add_argument("--seconds", type=float, default=None,
                   help="how long to fuzz (for `all` split among the games by their weight)")
    p.add_argument("--games", type=int, default=None, help="or how many games to play per game id")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (game i uses seed+i)")
    p.add_argument("--json", default=None, help="also write the report as JSON here")
    p.add_argument("--out", default="data/fuzz", help="where failing cases are written as transcripts")
    p.add_argument("--strict", action="store_true", help="stop a game at known defects too (tools/fuzz/known.py)")
    p.add_argument("--coverage", action="store_true",
                   help="measure line coverage of games/ by the fuzzer (needs coverage.py: the test extra)")


def fuzz_main(args: argparse.Namespace) -> int:
    if args.coverage:
        return _with_coverage(args)
    drivers = fuzzers()
    ids = sorted(drivers) if args.game == "all" else [args.game]
    unknown = [g for g in ids if g not in drivers]
    if unknown:
        print(f"no game called {unknown[0]}; games: {', '.join(sorted(drivers))}", file=sys.stderr)
        return 2
    if args.seconds is None and args.games is None:
        args.seconds = 60.0
    total = sum(drivers[g].weight for g in ids)
    reports: list[Report] = []
    for gid in ids:
        seconds = None if args.seconds is None else args.seconds * drivers[gid].weight / total
        rep = fuzz_game(drivers[gid], seed=args.seed, games=args.games, seconds=seconds, out_dir=Path(args.out),
                        strict=args.strict)
        reports.append(rep)
        print(_line(rep), flush=True)
    out: dict[str, Any] = {"games": [r.as_json() for r in reports]}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")
    failed = sum(len(r.cases) for r in reports)
    print(f"{failed} failing case{'s' if failed != 1 else ''}" + (f", written to {args.out}/" if failed else "."))
    return 1 if failed else 0


def _line(r: Report) -> str:
    text = (f"{r.game_id}: {r.games} games ({r.finished} finished), {r.actions} actions, "
            f"{r.hidden_checks} hidden-information checks, {r.seconds:.0f} s, {len(r.cases)} failing")
    text += "\n  reached: " + ", ".join(f"{k} {v}" for k, v in sorted(r.milestones.items()))
    missing = [m for m in fuzzers()[r.game_id].required() if m not in r.milestones]
    if missing:
        text += "\n  not reached: " + ", ".join(missing)
    for name, n in r.known.items():
        text += f"\n  known defect seen {n}x: {name}"
    for c in r.cases:
        text += f"\n  FAIL seed {c.seed} ({c.mode}): {c.problems[0][:300]}" + (f" -> {c.path}" if c.path else "")
    return text


def _with_coverage(args: argparse.Namespace) -> int:
    """Run the same fuzz under coverage.py in a child process (so the games' modules are measured from their
    import on), then report line coverage of games/ per package."""
    try:
        import coverage
    except ModuleNotFoundError:
        print("--coverage needs coverage.py (pip install -e '.[test]')", file=sys.stderr)
        return 2
    argv = [a for a in sys.argv[1:] if a != "--coverage"]
    if argv and argv[0] == "fuzz":
        argv = argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "coverage")
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        rc = subprocess.call([sys.executable, "-m", "coverage", "run", f"--data-file={data}",
                              f"--source={ROOT / 'games'}", "-m", "tools.fuzz", *argv], env=env, cwd=ROOT)
        cov = coverage.Coverage(data_file=data)
        cov.load()
        table = coverage_by_package(cov)
        files = {str(path.relative_to(ROOT)): cov.analysis2(str(path))[4]  # the lines never run, as ranges
                 for path in sorted((ROOT / "games").rglob("*.py"))}
    print("line coverage of games/ by the fuzzer:")
    for pkg, (run, total, missed) in table.items():
        print(f"  {pkg:10} {100.0 * run / max(total, 1):5.1f} %  ({run}/{total} lines)"
              + ("; least covered: " + ", ".join(missed) if missed else ""))
    if args.json:
        path = Path(args.json)
        report = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        report["coverage"] = {pkg: {"lines": total, "run": run, "percent": round(100.0 * run / max(total, 1), 1)}
                              for pkg, (run, total, _) in table.items()}
        report["coverage_missing"] = {name: lines for name, lines in files.items() if lines}
        path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return rc


def coverage_by_package(cov: Any) -> dict[str, tuple[int, int, list[str]]]:
    """(lines run, lines, the three least covered files) per package of games/, and for games/ as a whole."""
    per: dict[str, list[tuple[str, int, int]]] = {}
    for path in sorted((ROOT / "games").rglob("*.py")):
        _, statements, _, missing, _ = cov.analysis2(str(path))
        pkg = path.relative_to(ROOT / "games").parts[0]
        pkg = "games/" + (pkg if pkg != path.name else "")
        per.setdefault(pkg, []).append((str(path.relative_to(ROOT)), len(statements), len(statements) - len(missing)))
    out: dict[str, tuple[int, int, list[str]]] = {}
    everything = [f for files in per.values() for f in files]
    for pkg, files in [*sorted(per.items()), ("games (all)", everything)]:
        if not sum(f[1] for f in files):
            continue
        worst = sorted((f for f in files if f[1] and f[2] < f[1]), key=lambda f: f[2] / f[1])[:3]
        out[pkg] = (sum(f[2] for f in files), sum(f[1] for f in files),
                    [f"{name} {100.0 * r / n:.0f} %" for name, n, r in worst])
    return out
