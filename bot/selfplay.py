"""Computer against computer, without Discord: win rates, decision times, game lengths.

Pure apart from reading the clock to measure how long decisions take (the decisions themselves
never look at it). Seats rotate from game to game so no level always moves first.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games.core import Game, Seat
from games.core.ai.base import first_to_act, heuristic_for
from games.core.ai.players import make_player

CAP = 4000  # actions in one game; a game that runs longer counts as no result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass
class Report:
    game: str
    games: int
    seats: list[str]
    wins: dict[str, int] = field(default_factory=dict)
    decision_s: dict[str, list[float]] = field(default_factory=dict)
    decision_cpu_s: dict[str, list[float]] = field(default_factory=dict)  # the same in CPU time: load aside
    actions: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    unfinished: int = 0
    progress: dict[str, int] = field(default_factory=dict)  # a game's own milestones (dungeon: level 1 cleared)

    def win_rate(self) -> dict[str, float]:
        return {label: self.wins.get(label, 0) / self.games for label in dict.fromkeys(self.seats)}

    def interval(self) -> dict[str, tuple[float, float]]:
        return {label: wilson(self.wins.get(label, 0), self.games) for label in dict.fromkeys(self.seats)}

    def mean_decision_ms(self) -> dict[str, float]:
        return {label: 1000 * sum(t) / len(t) if t else 0.0 for label, t in self.decision_s.items()}

    def max_decision_ms(self) -> dict[str, float]:
        return {label: 1000 * max(t) if t else 0.0 for label, t in self.decision_s.items()}

    def mean_decision_cpu_ms(self) -> dict[str, float]:
        return {label: 1000 * sum(t) / len(t) if t else 0.0 for label, t in self.decision_cpu_s.items()}

    def max_decision_cpu_ms(self) -> dict[str, float]:
        return {label: 1000 * max(t) if t else 0.0 for label, t in self.decision_cpu_s.items()}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "games": self.games, "seats": list(self.seats),
            "win_rate": self.win_rate(), "mean_decision_ms": self.mean_decision_ms(),
            "mean_actions": sum(self.actions) / len(self.actions) if self.actions else 0.0,
        }
        out["win_rate_95"] = {k: list(v) for k, v in self.interval().items()}
        out["max_decision_ms"] = self.max_decision_ms()
        out["mean_decision_cpu_ms"] = self.mean_decision_cpu_ms()
        out["max_decision_cpu_ms"] = self.max_decision_cpu_ms()
        out["mean_rounds"] = sum(self.rounds) / len(self.rounds) if self.rounds else 0.0
        out["unfinished"] = self.unfinished
        out["progress"] = {k: v / self.games for k, v in self.progress.items()}
        return out


def play_one(engine: Game, options: dict[str, str], labels: list[str], seed: int, report: Report) -> None:
    """One game; `labels[i]` plays seat i."""
    seats = [Seat(player=f"cpu{i + 1}", name=f"{label.title()} {i + 1}") for i, label in enumerate(labels)]
    players = {s.player: make_player(label) for s, label in zip(seats, labels, strict=True)}
    label_of = {s.player: label for s, label in zip(seats, labels, strict=True)}
    rngs = {s.player: random.Random(seed * 31 + i) for i, s in enumerate(seats)}
    state = engine.setup(options, seats, seed)
    steps = 0
    while steps < CAP:
        st = engine.status(state)
        if st.finished or not st.to_act:
            break
        t, cpu = time.perf_counter(), time.process_time()
        who = first_to_act(engine, state, list(st.to_act))  # every seat is a computer's: the team picks who goes
        action = players[who].decide(engine, state, who, rngs[who])
        report.decision_s.setdefault(label_of[who], []).append(time.perf_counter() - t)
        report.decision_cpu_s.setdefault(label_of[who], []).append(time.process_time() - cpu)
        state, _ = engine.apply(state, who, action)
        steps += 1
    st = engine.status(state)
    report.actions.append(steps)
    report.rounds.append(st.round)
    if not st.finished:
        report.unfinished += 1
    winners = st.result.winners if st.finished and st.result else []
    for label in {label_of[w] for w in winners if w in label_of}:
        report.wins[label] = report.wins.get(label, 0) + 1
    h = heuristic_for(engine.id)
    if h is not None and hasattr(h, "milestones"):
        for name, reached in h.milestones(engine, state).items():
            report.progress[name] = report.progress.get(name, 0) + int(bool(reached))


def selfplay(engine: Game, labels: list[str], games: int, *, options: dict[str, str] | None = None,
             seed: int = 1, each: Any = None) -> Report:
    """`games` games, seats rotating; `each(i, report)` after every game (progress output)."""
    report = Report(game=engine.id, games=games, seats=list(labels))
    for label in labels:
        make_player(label)  # an unknown level fails before any game is played
    for g in range(games):
        k = g % len(labels)
        play_one(engine, dict(options or {}), labels[k:] + labels[:k], seed + g, report)
        if each is not None:
            each(g, report)
    return report
