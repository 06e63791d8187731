"""Play fuzz games of one engine: guided, mixed and random playouts, every step checked."""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.core import Action, Seat
from games.core.play import replay
from games.core.playout import random_playout

from .checks import hidden_problems, lobby_problems, refusal_problems, step_problems
from .games import fuzzers
from .guide import Chooser
from .known import known
from .spec import GameFuzz
from .transcript import transcript

CAP = 5000  # actions before a game counts as a runaway


class Found(AssertionError):
    """An invariant failed; the playout stops here."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class Case:
    """A failure, with everything needed to play it again."""

    game_id: str
    seed: int
    mode: str
    problems: list[str]
    options: dict[str, str]
    seats: list[Seat]
    log: list[tuple[str, Action]]
    path: str = ""
    start: str = ""  # a constructed late start (GameFuzz.late_start) the log plays from, by its name

    def transcript(self) -> str:
        note = (f"fuzz case: {self.game_id} seed {self.seed} ({self.mode} playout), {len(self.log)} actions\n"
                + "\n".join(f"fails: {p}" for p in self.problems))
        if self.start:  # `playpost script` cannot build it; tools.fuzz.cases.recheck does
            note += f"\nstart: {self.start} (built by tools/fuzz from the setup; replay with tools.fuzz.cases.recheck)"
        fuzz = fuzzers()[self.game_id]
        start = fuzz.engine.setup(self.options, self.seats, self.seed)
        if self.start:
            start = fuzz.rebuild_start(start, self.start)
        return transcript(self.game_id, self.options, self.seats, self.seed, self.log, note, fuzz.engine, start)


@dataclass
class Report:
    game_id: str
    games: int = 0
    finished: int = 0
    actions: int = 0
    hidden_checks: int = 0
    seconds: float = 0.0
    modes: Counter[str] = field(default_factory=Counter)
    phases: Counter[str] = field(default_factory=Counter)
    milestones: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)  # known defects seen (and played past)
    cases: list[Case] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "games": self.games, "finished": self.finished, "actions": self.actions,
                "hidden_checks": self.hidden_checks, "seconds": round(self.seconds, 1),
                "modes": dict(self.modes), "phases": dict(sorted(self.phases.items())),
                "milestones": dict(sorted(self.milestones.items())), "known": dict(self.known),
                "failures": [{"seed": c.seed, "mode": c.mode, "problems": c.problems, "actions": len(c.log),
                              "transcript": c.path} for c in self.cases]}


def play_one(fuzz: GameFuzz, seed: int, mode: str, report: Report, *, hidden_rate: float = 0.05,
             previews: bool = True, strict: bool = False, cap: int = CAP) -> Case | None:
    """One playout from `seed` in `mode`; returns the failure, if any (the report counts what was reached).
    Known defects (`known.py`) are counted and played past unless `strict`."""
    engine = fuzz.engine
    pick = random.Random(seed * 7919 + 17)  # options, seats and checks; the playout has its own Random(seed)
    options = fuzz.options(pick)
    seats = fuzz.seats(pick, options)
    chooser = Chooser(fuzz, mode)
    log: list[tuple[str, Action]] = []
    start, start_name = engine.setup(options, seats, seed), ""
    built = fuzz.late_start(start, seed) if mode == "late" else None
    report.games += 1
    report.modes[mode] += 1
    if built is not None:  # a constructed position must hold the same invariants as a played one
        setup, (start, start_name) = start, built
        report.milestones[f"start {start_name}"] += 1
        text = engine.dump(start)
        wrong = fuzz.invariants(setup, start, []) + (["the late start does not round-trip through JSON exactly"]
                                                    if engine.dump(engine.load(text)) != text else [])
        if wrong:
            return Case(engine.id, seed, mode, [f"late start {start_name}: {p}" for p in wrong], options, seats, [],
                        start=start_name)
    last = [engine.dump(start)]

    def each(before: Any, player: str, action: Action, after: Any, events: list[Any]) -> None:
        log.append((player, action))
        report.actions += 1
        report.phases[engine.status(before).phase] += 1
        problems = step_problems(fuzz, before, last[0], after, events, seats)
        if chooser.predicted is not None and engine.dump(chooser.predicted) != engine.dump(after):
            problems.append("apply is not deterministic: the same action on the same state gave another state")
        for m in fuzz.milestones(before, after, events):
            report.milestones[m] += 1
        if pick.random() < hidden_rate:
            report.hidden_checks += 1
            problems += hidden_problems(fuzz, after, seats, options, pick, previews)
            problems += refusal_problems(engine, after, seats, pick)
        problems = [f"{p} (after `{player}> {action.text()}`)" for p in problems]
        if not strict:
            for p in list(problems):
                name = known(engine.id, p)
                if name is not None:
                    report.known[name] += 1
                    problems.remove(p)
        if problems:
            raise Found(problems)
        last[0] = engine.dump(after)

    def case(problems: list[str]) -> Case:
        return Case(engine.id, seed, mode, problems, options, seats, list(log), start=start_name)

    lobby = lobby_problems(engine, options, seats)
    if lobby:
        return case(lobby)
    try:
        out = random_playout(engine, options, seats, seed, cap=cap, choose=chooser, each=each, start=start)
    except Found as exc:
        return case(exc.problems)
    except Exception as exc:  # a crash or a dead end: the action being tried is part of the case
        if chooser.calls > len(log) and chooser.last is not None:
            log.append(chooser.last)
        return case([f"{type(exc).__name__}: {exc}"])
    report.phases[engine.status(out.state).phase] += 1
    if not out.finished:
        return case([f"runaway: not finished after {cap} actions"])
    report.finished += 1
    if start_name:
        rebuilt = fuzz.rebuild_start(engine.setup(options, seats, seed), start_name)
        for player, action in log:
            rebuilt, _ = engine.apply(rebuilt, player, action)
    else:
        rebuilt = replay(engine, options, seats, seed, log, trusted=True)
    if engine.dump(rebuilt) != engine.dump(out.state):
        return case(["replaying the log does not rebuild the identical state"])
    return None


def fuzz_game(fuzz: GameFuzz, *, seed: int = 0, games: int | None = None, seconds: float | None = None,
              out_dir: Path | None = None, hidden_rate: float = 0.05, previews: bool = True,
              strict: bool = False, cap: int = CAP) -> Report:
    """Play games from `seed` on, cycling through the game's modes (guided, mixed, random, late starts), for `games`
    games or `seconds` (whichever is given; a game under way is finished). Each failure is written as a
    transcript under `out_dir` (if given)."""
    report = Report(fuzz.engine.id)
    t0 = time.perf_counter()
    i = 0
    while (games is None or i < games) and (seconds is None or time.perf_counter() - t0 < seconds):
        case = play_one(fuzz, seed + i, fuzz.modes[i % len(fuzz.modes)], report, hidden_rate=hidden_rate,
                        previews=previews, strict=strict, cap=cap)
        if case is not None:
            if out_dir is not None:
                out_dir.mkdir(parents=True, exist_ok=True)
                path = out_dir / f"{case.game_id}-seed{case.seed}.txt"
                path.write_text(case.transcript(), encoding="utf-8")
                case.path = str(path)
            report.cases.append(case)
        i += 1
    report.seconds = time.perf_counter() - t0
    return report
