"""The end: when the game finishes and what the result says."""
from __future__ import annotations

from typing import Any

from games.core import Event, Phase, Result, Status

from ..data import HOUSE
from ..state import CountState


class Over(Phase[CountState]):
    """Nothing is legal (the default `candidates` is empty); the status carries the result."""

    name = "over"

    def status(self, game: Any, state: CountState) -> Status:
        return Status(phase=self.name, round=min(state.round, HOUSE.last_round), finished=True,
                      result=Result(winners=state.winners, text="Highest total wins."))


def finish_if_over(s: CountState, events: list[Event]) -> None:
    """After every action: someone reached the target (secret bonus included), or the last round is done."""
    best = max(t + b for t, b in zip(s.totals, s.secrets, strict=True))
    if best >= HOUSE.win_at or s.round > HOUSE.last_round:
        s.finished = True
        s.winners = [p for p, t, b in zip(s.players, s.totals, s.secrets, strict=True) if t + b == best]
        events.append(Event(text="The game ends.", irreversible=True))
