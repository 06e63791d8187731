"""Phase 1, power-up: playing cards before moving (cards come in issue 14; now a single `done`)."""
from __future__ import annotations

from games.core import Event

from ..state import Hero, QState
from .base import QuietPhase
from .move import begin as begin_movement


class PowerPhase(QuietPhase):
    name = "power"
    done_label = "Done: to movement"

    def waiting(self, st: QState, h: Hero) -> str:
        return f"{h.name} to end phase 1, power-up (no cards yet: `done` starts the movement)"

    def done(self, st: QState, ev: list[Event]) -> None:
        begin_movement(st, ev)
