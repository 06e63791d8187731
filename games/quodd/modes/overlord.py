"""Overlord scenarios: one against all (rulebook: overlord).

One seat is the overlord: the seat that joined with `role:overlord`, else the first seat (house reading: the
rulebook leaves the choice to the table). The overlord's hero
- explores from the top of their own deck (`overlord.json`, 33 cards of our own with the sword mark, stronger than
  the exploration deck's) or from the common lineup (`deck.draw_top` / `deck.own_deck`; once their deck is empty
  they draw from the exploration deck; their discarded cards go back under their deck, never into the others');
- gets the scenario's `overlord_movement` on top of the base movement (the overlord is a powerful character);
- plays for its own objective: `overlord_target` (heist: crystals the overlord banks; race: rally markers in
  order), while the heroes play as one side for the scenario's `target` between them. If the round limit comes
  first, the overlord wins: the heroes did not stop it in time.
"""
from __future__ import annotations

from collections.abc import Sequence

from games.core import Seat
from games.core.words import says

from ..state import Hero, QState

OVERLORD = "overlord"  # the overlord's side
HEROES = "heroes"  # everybody else's side


def overlord_seat(seats: Sequence[Seat]) -> int:
    """The seat that plays the overlord: the one that chose `role:overlord`, else the first."""
    return next((i for i, s in enumerate(seats) if s.choices.get("role") == "overlord"), 0)


def role_problem(mode: str, seats: Sequence[Seat], new: Seat) -> str:
    """Why `new`'s `role:` is refused ("" if it is fine)."""
    role = new.choices.get("role")
    if not role or role == "hero":
        return ""
    if mode != "overlord":
        return "Only overlord scenarios have an overlord: leave out `role:` (or `role:hero`)."
    taken = [s for s in seats if s.choices.get("role") == "overlord"]
    if taken:
        return f"{says(taken[0].name, 'is')} the overlord already: join with `role:hero`."
    return ""


def make_overlord(st: QState, h: Hero, movement: int, target: int, deck: list[str]) -> None:
    """Set up `h` as the overlord: the movement bonus, their own deck, their objective."""
    h.overlord = True
    h.movement += movement
    st.overlord_deck = deck
    st.overlord_target = target


def overlord_of(st: QState) -> Hero | None:
    return next((h for h in st.heroes if h.overlord), None)


def side(h: Hero) -> str:
    return OVERLORD if h.overlord else HEROES
