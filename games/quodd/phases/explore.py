"""Phase 4, exploration: explorations are counted (the decks come in issue 14); `done` ends the turn."""
from __future__ import annotations

from games.core import Event

from ..state import Hero, QState
from ..turns import end_turn
from .base import QuietPhase


class ExplorePhase(QuietPhase):
    name = "explore"
    done_label = "End turn"

    def waiting(self, st: QState, h: Hero) -> str:
        return f"{h.name} to end phase 4, exploration (recorded for now: `done` ends the turn)"

    def done(self, st: QState, ev: list[Event]) -> None:
        end_turn(st, ev)
