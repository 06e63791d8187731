"""Phase 1, power-up: play cards (boosts count for the coming movement), use an item or pet; `done` moves on."""
from __future__ import annotations

from games.core import Event
from games.core.words import possessive

from .. import data
from ..abilities.track import has
from ..board import active
from ..deck import card_name, passive
from ..state import Hero, QState
from .base import QuietPhase
from .move import begin as begin_movement


class PowerPhase(QuietPhase):
    name = "power"
    done_label = "Done: to movement"

    def waiting(self, st: QState, h: Hero) -> str:
        return f"{h.name} to play cards for phase 1, power-up, or `done` to start the movement"

    def done(self, st: QState, ev: list[Event]) -> None:
        bonus = passive(active(st), "movement")
        if bonus:  # items and pets in play: every skill moves further
            st.m.boost["all"] = st.m.boost.get("all", 0) + bonus
            ev.append(Event(text=f"{possessive(active(st).name)} items and pets in play: "
                                 f"every skill +{bonus} this turn."))
        hungry = [card_name(c) for c in active(st).hand if data.cards()[c].kind == "food"]
        if hungry and has(active(st), "hunger-boost"):  # the food cards are shown: every skill +1 for each
            ev.append(Event(text=f"{active(st).name} shows {', '.join(hungry)}: every skill +{len(hungry)} "
                                 "this turn (Hunger-Boost)."))
        begin_movement(st, ev)
