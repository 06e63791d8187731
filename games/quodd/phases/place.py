"""Setup, placing heroes: each player in turn puts their hero on a free start space, Q up."""
from __future__ import annotations

from typing import Any

from games.core import Action, Event
from games.core.grid import label, parse_label
from games.core.words import says

from .. import data
from ..board import center_facing, hero_at, xy
from ..commands import arg
from ..jobs import decide
from ..sheep import ask_facing
from ..skills import SKILLS_HINT
from ..state import QState
from .base import Asked, Buttons, QuoddPhase, asked, explain_answer


def ask_placement(st: QState) -> None:
    """The next player in the placing order chooses a free start space (a stored `Decision`)."""
    h = st.heroes[st.placing[0]]
    free = [label(x, y) for y in range(st.height) for x in range(st.width)
            if st.rows[y][x] == "s" and hero_at(st, (x, y)) is None]
    decide(st, "place", h.player, h, free, f"{h.name}: choose a start space for {data.heroes()[h.hero].name}")


class PlacePhase(QuoddPhase):
    name = "place"

    def pending(self, game: Any, state: QState) -> Asked:
        return asked(state, f"place-{len(state.placing)}")

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        assert state.pending is not None
        return [Action.of("choose", option=o) for o in state.pending.options]

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        st, lab = state, arg(action, "option")
        h = st.heroes[st.placing.pop(0)]
        st.pending = None
        h.pos = lab
        h.home_front = st.start_facing or center_facing(st, xy(lab))
        h.head, h.front = "U", h.home_front
        piece = data.heroes()[h.hero].name
        events.append(Event(text=f"{says(h.name, 'places')} {piece} on {lab}, Q up, facing {h.front}."))
        if st.placing:
            ask_placement(st)
        else:
            st.phase = "skills"
            if not ask_facing(st):  # sheep rule 1: new sheep face the way the first player chooses, first
                events.append(Event(text=SKILLS_HINT))

    def explain(self, game: Any, state: QState, player: str, action: Action) -> str:
        assert state.pending is not None
        o = action.get("option") or ""
        p = parse_label(o.upper())
        if action.cmd == "choose" and p is not None and 0 <= p[0] < state.width and 0 <= p[1] < state.height:
            free = ", ".join(state.pending.options)
            there = hero_at(state, p)
            if there is not None:  # a start space another hero took
                return (f"{o.upper()} is taken by {data.heroes()[there.hero].name} ({there.name}); "
                        f"free start spaces: {free}.")
            if state.rows[p[1]][p[0]] != "s":
                return f"{o.upper()} is not a start space; free start spaces: {free}."
        why = explain_answer(state, action)
        return why if why is not None else super().explain(game, state, player, action)

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        return f"Start on {arg(action, 'option')}" if action.cmd == "choose" else super().label(game, state, action)

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """The start spaces when they fit on the buttons; otherwise autocomplete offers them."""
        b = Buttons(legal)
        chooses = b.of("choose")
        b.add(chooses if len(chooses) <= 20 else [])
        return b.out

    def skip(self, game: Any, state: QState, player: str) -> Action | None:
        if state.pending is None or player != state.pending.player:
            return None
        return super().skip(game, state, player)
