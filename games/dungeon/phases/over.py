"""The game is over: victory when the last spawn point falls, defeat when every hero is down or time runs out."""
from __future__ import annotations

from typing import Any

from games.core import Result, Status

from ..state import DungeonState
from .base import DungeonPhase


class OverPhase(DungeonPhase):
    name = "over"

    def status(self, game: Any, state: DungeonState) -> Status:
        win = state.result == "victory"
        return Status(phase="over", round=state.turn, round_name="turn", finished=True, turn_key=f"over-{state.turn}",
                      result=Result(winners=sorted({h.player for h in state.heroes}) if win else [],
                                    text=state.result_text))
