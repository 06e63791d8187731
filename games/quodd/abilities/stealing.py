"""Abilities around stealing: Flame Grip (a thief must discard a card first), Getaway (dash 1 after a
steal) and Good Fortune (explore 1 more after a steal)."""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.grid import DIRS8
from games.core.words import says

from ..board import can_enter, hero_of, xy
from ..deck import card_name
from ..jobs import decide, push_front
from ..state import Hero, Job, QState
from .track import has


def grip_costs(thief: Hero, victim: Hero) -> list[str]:
    """Flame Grip: the cards the thief may discard to steal from `victim` ([""] when no card is needed)."""
    if not has(victim, "flame-grip"):
        return [""]
    return list(dict.fromkeys(thief.hand))


def pay_grip(st: QState, thief: Hero, card: str, ev: list[Event]) -> None:
    if card:
        thief.hand.remove(card)
        st.discard.append(card)
        # discards go face up on the discard pile, as every other discard (abilities, the hand limit) does
        ev.append(Event(text=f"{says(thief.name, 'discards')} {card_name(card)} to get past the Flame Grip."))


def after_steal(st: QState, h: Hero, ev: list[Event]) -> None:
    """Good Fortune: one more card in phase 4. Getaway: a question, dash 1 space or skip."""
    if has(h, "good-fortune"):
        h.explores_earned += 1
        ev.append(Event(text=f"{h.name} will explore 1 more card in phase 4 (Good Fortune)."))
    if has(h, "getaway") and h.pos is not None and st.phase == "move" and not st.m.ended:
        dirs = [d for d in DIRS8 if can_enter(st, h, xy(h.pos), d)]
        if dirs:
            decide(st, "getaway", h.player, h, dirs + ["skip"],
                   f"{h.name}: dash 1 space (Getaway) in a direction, or skip")


def _got_away(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    if option == "skip":
        ev.append(Event(text=f"{says(h.name, 'stays')} put."))
        return
    push_front(st, [Job(kind="step", hero=h.player, dir=option, how="dash"), Job(kind="land", hero=h.player)])


def explain_grip(st: QState, thief: Hero, victim_player: str, card: str) -> str:
    victim = hero_of(st, victim_player)
    if not has(victim, "flame-grip"):
        return "" if not card else (f"{says(victim.name, 'has')} no Flame Grip: stealing costs no card"
                                    " (leave out `card:`).")
    if not thief.hand:
        return f"{says(victim.name, 'has')} Flame Grip: you must discard a card to steal, and your hand is empty."
    if card not in thief.hand:
        return f"{says(victim.name, 'has')} Flame Grip: name a card of your hand to discard (`card:`)."
    return ""


Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]
RESOLVE: dict[str, Resolver] = {"getaway": _got_away}
