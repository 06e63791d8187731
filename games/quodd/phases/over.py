"""The game is over: the result and the scores; nobody acts."""
from __future__ import annotations

from typing import Any

from games.core import Result, Status

from ..goals import scores
from ..state import QState
from .base import QuoddPhase


class OverPhase(QuoddPhase):
    name = "over"

    def status(self, game: Any, state: QState) -> Status:
        return Status(phase="over", round=state.round, finished=True, turn_key=f"over-{state.turn_no}",
                      result=Result(winners=list(state.winners), text=state.result_text, scores=scores(state)))
