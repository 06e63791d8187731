"""Random legal play from a seed: the one playout used by the conformance tests, fuzzing and the benchmark."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from .actions import Action
from .contract import Event, Game, Seat
from .play import step

Chooser = Callable[[random.Random, BaseModel, str, list[Action]], Action]
Observer = Callable[[BaseModel, str, Action, BaseModel, list[Event]], None]


class DeadEndError(AssertionError):
    """A player must act but has no legal action, or nobody must act in an unfinished game."""


@dataclass
class Playout:
    state: BaseModel
    log: list[tuple[str, Action]] = field(default_factory=list)
    finished: bool = False

    @property
    def steps(self) -> int:
        return len(self.log)


def uniform(pick: random.Random, state: BaseModel, player: str, legal: list[Action]) -> Action:
    return pick.choice(legal)


def random_playout(
    engine: Game,
    options: dict[str, str],
    seats: Sequence[Seat],
    seed: int,
    *,
    cap: int = 5000,
    choose: Chooser = uniform,
    each: Observer | None = None,
    checked: bool = True,
    start: BaseModel | None = None,
) -> Playout:
    """Play random legal actions from `engine.setup(...)` until the game ends or `cap` actions.

    `choose` picks among the legal actions (uniformly by default; tests prefer some); `each` sees
    every step (before, player, action, after, events). `checked` sends each action through the
    shared checks (`play.step`); unchecked play calls `apply` directly, as a trusted replay does.
    `start` replaces the setup state (the fuzzer's constructed late-game starts).
    """
    pick = random.Random(seed)
    state = engine.setup(options, seats, seed) if start is None else start
    out = Playout(state=state)
    for _ in range(cap):
        status = engine.status(state)
        if status.finished:
            out.finished = True
            break
        if not status.to_act:
            raise DeadEndError(f"nobody to act in phase {status.phase}")
        player = pick.choice(status.to_act)
        legal = engine.legal_actions(state, player)
        if not legal:
            raise DeadEndError(f"{player} must act in phase {status.phase} but has no legal action")
        action = choose(pick, state, player, legal)
        if checked:
            logged, after, events = step(engine, state, player, action)
            if logged != action:
                raise AssertionError(f"the legal action {action.text()!r} resolved to {logged.text()!r}")
        else:
            after, events = engine.apply(state, player, action)
        if each is not None:
            each(state, player, action, after, events)
        out.log.append((player, action))
        state = after
    else:
        out.finished = engine.status(state).finished
    out.state = state
    return out
