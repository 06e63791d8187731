"""One type for every off-turn decision: a reaction window, a mid-move choice, a die to keep.

It is derived from the state (the state keeps its own compact record), never stored, so
adding it changes no saved game. The status line, the deadline and what a skip or an expiry
plays all follow from it, in `games.core.phases`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action
from .contract import Status


@dataclass(frozen=True)
class Pending:
    """Who must decide what, now, before play goes on."""

    kind: str  # the phase name shown in the status ("defend", "whirlpool", "reroll", ...)
    player: str  # the player id who decides
    name: str  # how the decider is named in text
    question: str  # "defend against the push by Gorgo or let it through"
    round: int = 0
    turn_key: str = ""
    options: tuple[Action, ...] = ()  # the answers, when the phase lists them up front
    default: Action | None = None  # what expiry or a skip vote plays (None: it cannot be skipped)
    hours: float | None = None  # a short window in hours; None waits under the ordinary deadline
    hours_option: str | None = None  # a game option that overrides `hours` ("reaction_hours")
    round_name: str = "round"
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def waiting_for(self) -> str:
        return f"{self.name} to {self.question}"

    def status(self) -> Status:
        return Status(phase=self.kind, round=self.round, round_name=self.round_name, to_act=[self.player],
                      waiting_for=self.waiting_for, turn_key=self.turn_key)
