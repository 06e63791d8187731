"""End of round step 1, board upkeep: the moving board elements in the rulebook's order.

Bombs roll first, then moving platforms, then beam elements, then sheep; within each kind the pieces
go north to south, west to east (each kind's module sorts its own pieces so).
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event

from .beams import upkeep_beams
from .bombs import upkeep_bombs
from .platforms import upkeep_platforms
from .sheep import upkeep_sheep
from .state import QState

# The rulebook's order of step 1; a new moving element takes its place in this list.
ORDER: list[tuple[str, Callable[[QState, list[Event]], None]]] = [
    ("bombs", upkeep_bombs),
    ("platforms", upkeep_platforms),
    ("beams", upkeep_beams),
    ("sheep", upkeep_sheep),
]


def upkeep(st: QState, ev: list[Event]) -> None:
    """Move every moving board element, kind by kind in the rulebook's order."""
    for _, move in ORDER:
        move(st, ev)
