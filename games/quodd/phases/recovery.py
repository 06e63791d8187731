"""Phase 3, recovery: playing cards after moving (an item or pet activation, runes, tools)."""
from __future__ import annotations

from games.core import Event

from ..state import Hero, QState
from ..turns import to_explore
from .base import QuietPhase


class RecoveryPhase(QuietPhase):
    name = "recovery"
    done_label = "Done: to exploration"

    def waiting(self, st: QState, h: Hero) -> str:
        return f"{h.name} to play cards for phase 3, recovery, or `done` to explore"

    def done(self, st: QState, ev: list[Event]) -> None:
        to_explore(st, ev)
