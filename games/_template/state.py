"""The saved state of a count game: everything the rules need, nothing derived.

Stored as JSON after every action and replayed from the log, so fields are never renamed
or reordered once games are played (add new ones at the end, with a default). What a
player is waiting on (the phase, the pending decision) is derived from these fields in
`engine.phase_of` and the phase modules, never stored twice.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from games.core import Rng


class CountState(BaseModel):
    players: list[str]  # player ids, in seat order
    names: list[str]  # display names, same order
    totals: list[int]  # points scored so far
    secrets: list[int]  # each player's secret bonus (hidden information: see view.py)
    active: int = 0  # the seat whose turn it is
    round: int = 1
    adds: int = 0  # `add` commands used this turn
    pending_roll: int | None = None  # a rolled die waiting for keep or discard
    finished: bool = False
    winners: list[str] = Field(default_factory=list)
    rng: Rng  # the seeded dice: in the state, so a replay rolls the same numbers
