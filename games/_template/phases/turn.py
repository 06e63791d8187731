"""A player's turn: `add n:1|2` at most twice, `roll` a die (which opens the decision), `end`.

`candidates` lists every action a player might try here with the reason it is refused (None:
legal). The legal list and the refusal text both come from it, so they cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core import Action, Event, Phase, Status
from games.core.phases import Candidate
from games.core.words import says  # a player's name may be "you" (the console): "you add"

from ..data import HOUSE
from ..state import CountState
from .over import finish_if_over


def turn_key(s: CountState) -> str:
    """Changes whenever the turn passes on: undo never reaches back into another player's turn."""
    return f"{s.round}:{s.active}"


def turn_status(s: CountState, phase: str) -> Status:
    """The active player must act; the status line names just them."""
    return Status(phase=phase, round=s.round, to_act=[s.players[s.active]], turn_key=turn_key(s),
                  waiting_for=s.names[s.active])


class Turn(Phase[CountState]):
    name = "turn"

    def status(self, game: Any, state: CountState) -> Status:
        return turn_status(state, self.name)

    def candidates(self, game: Any, state: CountState, player: str) -> Iterator[Candidate]:
        spent = state.adds >= HOUSE.adds_per_turn
        for n in HOUSE.add_amounts:
            yield Action.of("add", n=n), (f"You may add only {HOUSE.adds_per_turn} times a turn." if spent else None)
        yield Action.of("roll"), None
        yield Action.of("end"), None

    def apply(self, game: Any, state: CountState, player: str, action: Action, events: list[Event]) -> None:
        s, i = state, state.active
        if action.cmd == "add":
            s.totals[i] += int(action.get("n") or 0)
            s.adds += 1
            events.append(Event(text=f"{says(s.names[i], 'adds')} {action.get('n')}."))
        elif action.cmd == "roll":
            s.pending_roll = s.rng.d(HOUSE.die)  # the decision phase (deciding.py) follows from this field
            events.append(Event(text=f"{says(s.names[i], 'rolls')} {s.pending_roll}.", irreversible=True))
        elif action.cmd == "end":
            s.adds = 0
            s.active = (s.active + 1) % len(s.players)
            if s.active == 0:
                s.round += 1
            events.append(Event(text=f"{says(s.names[i], 'ends')} the turn."))
        finish_if_over(s, events)
