"""Setup, assigning skills: everyone at once puts their five skills on the five faces, then `done`."""
from __future__ import annotations

from typing import Any

from games.core import Action, Event, Status
from games.core.words import says

from ..board import hero_of
from ..skills import rearrange, rearranges, swaps
from ..state import QState
from ..turns import start_turn
from .base import BUTTON_CAP, PHASE_NAMES, Buttons, QuoddPhase


class SkillsPhase(QuoddPhase):
    name = "skills"
    done_label = "Keep these skills"

    def status(self, game: Any, state: QState) -> Status:
        waiting = [h for h in state.heroes if h.player not in state.ready]
        return Status(phase=PHASE_NAMES["skills"], round=state.round, to_act=[h.player for h in waiting],
                      turn_key="skills", waiting_for=", ".join(h.name for h in waiting)
                      + " to assign skills to faces (`rearrange`, or `done` to keep them)")

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        if player in state.ready or not any(h.player == player for h in state.heroes):
            return []
        return [Action.of("done")] + rearranges(hero_of(state, player))  # buttons: the common choice first

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        h = hero_of(state, player)
        if action.cmd == "rearrange":
            rearrange(state, h, action, events)
            return
        state.ready.append(player)
        events.append(Event(text=f"{says(h.name, 'is')} ready."))
        if len(state.ready) == len(state.heroes):
            events.append(Event(text="Every hero is ready. Let the tumbling begin!"))
            start_turn(state, state.first, events)

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """`done`, then swaps of the back face (the face a forward tumble brings up); the players still
        choosing share the 20 buttons."""
        b = Buttons(legal)
        b.add(b.of("done"))
        if b.of("rearrange"):
            waiting = max(1, sum(1 for x in state.heroes if x.player not in state.ready))
            b.add(swaps(hero_of(state, player), "back"), max(0, BUTTON_CAP // waiting - 1))
        return b.out
