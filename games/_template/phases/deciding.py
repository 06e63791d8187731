"""The pending decision: a rolled die waits for `keep` or `discard`, one hour at most.

It is a `games.core.Pending` derived from `pending_roll` (never stored): `PhasedGame`
turns its `default` and `hours` into the timeout (expiry plays `discard`) and into the
action a table vote to skip the player plays.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core import Action, Event, Pending, Phase, Status
from games.core.phases import Candidate
from games.core.words import says

from ..data import HOUSE
from ..state import CountState
from .over import finish_if_over
from .turn import turn_key, turn_status

KEEP, DISCARD = Action.of("keep"), Action.of("discard")


class Deciding(Phase[CountState]):
    name = "deciding"

    def pending(self, game: Any, state: CountState) -> Pending:
        i = state.active
        return Pending(kind=self.name, player=state.players[i], name=state.names[i],
                       question=f"keep or discard the {state.pending_roll}", round=state.round,
                       turn_key=turn_key(state), options=(KEEP, DISCARD), default=DISCARD,
                       hours=HOUSE.decide_hours)

    def status(self, game: Any, state: CountState) -> Status:
        # Pending.status() would say "Ann to keep or discard the 4"; this game's line has always named
        # just the player, as its turn does, so it keeps the turn's status with this phase's name.
        return turn_status(state, self.name)

    def candidates(self, game: Any, state: CountState, player: str) -> Iterator[Candidate]:
        for option in self.pending(game, state).options:
            yield option, None

    def apply(self, game: Any, state: CountState, player: str, action: Action, events: list[Event]) -> None:
        s, i = state, state.active
        if action == KEEP:
            s.totals[i] += s.pending_roll or 0
        events.append(Event(text=f"{says(s.names[i], action.cmd + 's')} the {s.pending_roll}."))
        s.pending_roll = None
        finish_if_over(s, events)
