"""End of round step 1, board upkeep: the moving board elements in the rulebook's order.

Bombs roll first, then moving platforms, then beam elements, then sheep; within each kind the pieces
go north to south, west to east (each kind's module sorts its own pieces so).
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event

from .beams import ask_back, light, refresh, turn_back, upkeep_beams
from .bombs import upkeep_bombs
from .platforms import upkeep_platforms
from .sheep import upkeep_sheep
from .state import Hero, Job, QState

# The rulebook's order of step 1; a new moving element takes its place in this list.
ORDER: list[tuple[str, Callable[[QState, list[Event]], None]]] = [
    ("bombs", upkeep_bombs),
    ("platforms", upkeep_platforms),
    ("beams", upkeep_beams),
    ("sheep", upkeep_sheep),
]


def upkeep(st: QState, ev: list[Event], start: int = 0) -> None:
    """Move every moving board element, kind by kind in the rulebook's order (from the step `start`); a step that
    asks a question (a reflector hit on the back) stops it, and the answer goes on from there (`_reflected`)."""
    for _, move in ORDER[start:]:
        move(st, ev)
        if st.pending is not None:
            return


def _reflected(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    """The answer for a reflector hit on the back: it turns; the next such reflector is asked, or the beams are
    traced again. Asked during a hero's turn (`job.how` "now") the turn goes on (a reflector the beams newly hit
    on the back then is asked in its turn); asked at the upkeep, the upkeep goes on after the beam step."""
    turn_back(st, job.at, option == "clockwise", ev)
    if job.how == "now":  # the beams move with it: what they newly hit on the back is asked too
        refresh(st, ev, still=tuple(job.item.split()))
        return
    if ask_back(st, job.item.split()):
        return
    light(st, ev)
    upkeep(st, ev, start=[name for name, _ in ORDER].index("beams") + 1)


RESOLVE: dict[str, Callable[[QState, Hero, Job, str, list[Event]], None]] = {"reflector": _reflected}
