"""Skipping what cannot matter: phase 1 or 3 in which the active player has nothing to choose (no card to
play or use, nothing to drop: `done` is the only legal action) passes by itself with one line of text,
inside the action that led there, so the table gets no extra message or image for it.

House reading: other players' impulse cards wait for a phase in which the active player has a choice
(a play-by-post table cannot hold every empty phase open for them)."""
from __future__ import annotations

from typing import Any

from games.core import Event
from games.core.words import says

from ..board import active
from ..state import QState
from .base import QuietPhase

ORDINAL = {"power": "phase 1, power-up", "recovery": "phase 3, recovery"}


def pass_empty_phases(game: Any, st: QState, ev: list[Event], phases: dict[str, Any]) -> None:
    for _ in range(2 * len(st.heroes) + 4):  # each pass moves the turn on; a finite table bounds it
        if st.phase not in ORDINAL or st.pending is not None:
            return
        phase = phases[st.phase]
        assert isinstance(phase, QuietPhase)
        h = active(st)
        if not phase.only_done(game, st):
            return
        ev.append(Event(text=f"{says(h.name, 'has')} nothing to play in {ORDINAL[st.phase]}: it passes."))
        phase.done(st, ev)
