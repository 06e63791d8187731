"""After the last round: nobody acts; the status carries the result."""
from __future__ import annotations

from games.core import Action, Phase, Status

from ..rulebook import Rulebook
from ..state import HeroballState
from ..turns import result


class Over(Phase[HeroballState]):
    name = "over"

    def status(self, game: Rulebook, state: HeroballState) -> Status:
        return Status(phase="over", round=state.round, finished=True, result=result(state),
                      turn_key=f"t{state.turn_no}:over")

    def explain(self, game: Rulebook, state: HeroballState, player: str, action: Action) -> str:
        return "The game is over."
