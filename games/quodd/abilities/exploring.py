"""Abilities that add cards to phase 4: Explore: Food / Item / Pet / Rune (a card of that kind: the
left-most in the lineup, else revealed from the deck) and Explore From Deck (the top card of the deck),
taken when the hero's exploration phase begins, before the draws its explore icons give."""
from __future__ import annotations

from games.core import Event
from games.core.words import says

from ..deck import draw_top, fetch_kind
from ..state import Hero, QState
from .track import abilities_of, name

KINDS = {"explore-food": "food", "explore-item": "item", "explore-pet": "pet", "explore-rune": "rune"}


def explore_bonus(st: QState, h: Hero, ev: list[Event]) -> None:
    for ab in abilities_of(h):
        if ab in KINDS:
            kind = KINDS[ab]
            ev.append(Event(text=f"{says(h.name, 'explores')} {'an' if kind[0] in 'aeiou' else 'a'} {kind} card"
                                 f" ({name(ab)})."))
            fetch_kind(st, h, KINDS[ab], ev)
        elif ab == "explore-from-deck":
            ev.append(Event(text=f"{says(h.name, 'explores')} the top card of the deck ({name(ab)})."))
            draw_top(st, h, 1, ev)
