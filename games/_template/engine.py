"""The count game's engine: its identity, the phase table, setup and the lobby.

Everything a player does goes through `games.core.PhasedGame`: it asks `phase_of(state)` which
phase the game is in and hands `status`, `legal_actions`, `apply`, `explain`, `label`,
`button_actions`, `timeout` and `skip_action` to that phase's module in `phases/`. This file
keeps only what is not a phase's business.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import IllegalAction, PhasedGame, Rng, Seat, UniqueChoice

from . import view as views
from .commands import COMMANDS, OPTIONS, SEAT_OPTIONS
from .data import HOUSE
from .phases import PHASES
from .state import CountState
from .view import PublicView

# No two seats share a colour. The bot already checks a typed colour against the choices,
# so it resolves to itself; a game with names and nicknames (heroes) would look them up here.
COLOUR = UniqueChoice(option="colour", values=lambda: ((c, c) for c in HOUSE.colours),
                      resolve=lambda typed: typed if typed in HOUSE.colours else None)


class CountGame(PhasedGame[CountState]):
    """Add points, roll a die and keep or discard it; the secret bonus counts at the end."""

    id = "count"
    name = "Count"
    min_seats = 1
    max_seats = 4
    state_model = CountState
    options = OPTIONS
    seat_options = SEAT_OPTIONS
    commands = COMMANDS
    phases = PHASES

    def phase_of(self, state: CountState) -> str:
        if state.finished:
            return "over"
        return "deciding" if state.pending_roll is not None else "turn"

    # ---- lobby ----------------------------------------------------------------------------
    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        colour = new.choices.get(COLOUR.option)
        if colour is not None and colour in COLOUR.taken(seats):
            raise IllegalAction(f"{colour} is taken.", "Free: " + ", ".join(COLOUR.free(seats)) + ".")

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        if option == COLOUR.option:
            return COLOUR.free(seats)
        return super().seat_choices(options, seats, option)

    # ---- the game -------------------------------------------------------------------------
    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> CountState:
        rng = Rng(seed=seed)
        return CountState(players=[s.player for s in seats], names=[s.name for s in seats],
                          totals=[0] * len(seats), secrets=[rng.d(HOUSE.bonus_die) for _ in seats], rng=rng)

    def view(self, state: CountState, player: str | None) -> PublicView:
        return views.view(state, player)

    def private_text(self, state: CountState, player: str) -> str:
        return views.private_text(state, player)

    def summary(self, state: CountState) -> dict[str, Any]:
        return views.summary(state)

    def rules_topics(self) -> dict[str, str]:
        return dict(HOUSE.topics)
