"""Buddies (the rulebook's buddy cards): one player runs more than one hero.

A buddy is a hero of its own on the board (its own cube, skills, upgrades, turn) whose `controller` is the seat's
player; its `player` is a key of its own (`buddy_key`), so every rule that names a hero by its player still names
one hero. The engine turns the seat's player into the key of whichever of their heroes must act now (`acting`),
and every key back into its player for the platform (`controller`).

What sets a buddy apart (rulebook, buddy cards, and its FAQ):
- it has no hand: a card it would draw (exploring, a Q-power, a token) goes to its controller's hand (`holder`);
- no card is played during a buddy's turn (its phases 1 and 3 have nothing to play, and nobody plays an impulse);
- it controls no item or pet (having no hand it never plays one);
- it carries up to 2 collectibles (`BUDDY_CARRY`), whatever more the scenario allows heroes.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..state import Hero, QState

BUDDY_CARRY = 2  # the FAQ: a buddy carries up to two collectibles
TURN_PHASES = ("power", "move", "recovery", "explore")


def controller(h: Hero) -> str:
    """The player who runs `h`: its own player, or a buddy's controller."""
    return h.controller or h.player


def is_buddy(h: Hero) -> bool:
    return bool(h.controller)


def buddy_key(player: str, hero: str) -> str:
    """The key a buddy goes by in the state (its `Hero.player`): its controller and its hero."""
    return f"{player}/{hero}"


def heroes_of(st: QState, player: str) -> list[Hero]:
    """The heroes `player` runs, their own first, then their buddies in seat order."""
    return [h for h in st.heroes if controller(h) == player]


def holder(st: QState, h: Hero) -> Hero:
    """Whose hand a card for `h` goes to: a buddy's controller's own hero (else `h`)."""
    if not h.controller:
        return h
    return next((x for x in st.heroes if x.player == h.controller), h)


def carry_cap(st: QState, h: Hero) -> int:
    """How many collectibles `h` may carry: the scenario's limit; a buddy at most 2."""
    return min(st.carry_limit, BUDDY_CARRY) if h.controller else st.carry_limit


def buddy_turn(st: QState) -> bool:
    """A buddy's own turn is on (phases 1 to 4): nobody plays a card now."""
    if st.phase not in TURN_PHASES or not st.heroes:
        return False
    return is_buddy(st.heroes[st.turn])


def any_buddies(st: QState) -> bool:
    for h in st.heroes:  # `any(h.controller ...)` written out: asked several times for every action
        if h.controller:
            return True
    return False


def acting(st: QState, player: str, to_act: Iterable[str]) -> str:
    """The key `player` acts as now: the first of their heroes the game waits for (else their own)."""
    keys = [h.player for h in heroes_of(st, player)]
    if len(keys) <= 1:
        return player
    waiting = set(to_act)
    return next((k for k in keys if k in waiting), player)


def players(st: QState, keys: Iterable[str]) -> list[str]:
    """Hero keys as the platform's players (each once, in order)."""
    by_key = {h.player: controller(h) for h in st.heroes}
    return list(dict.fromkeys(by_key.get(k, k) for k in keys))


def buddy_problem(mode: str, taken: list[str], want: str) -> str:
    """Why a `buddy:` seat choice is refused ("" if fine); `want` is a hero id (or "" if unknown)."""
    if mode != "buddies":
        return "Only buddies scenarios have buddies: leave out `buddy:`."
    if not want:
        return "There is no such hero for your buddy."
    if want in taken:
        return "That hero is taken: choose another buddy."
    return ""


def make_buddy(controller_hero: Hero, hero: str, hero_name: str, seat: int, movement: int, explore: int,
               skills: dict[str, str]) -> Hero:
    """A buddy for `controller_hero`'s player: a hero of its own, named after its hero and its controller."""
    return Hero(player=buddy_key(controller_hero.player, hero), name=f"{hero_name.split()[0]} ({controller_hero.name})",
                hero=hero, seat=seat, skills=dict(skills), movement=movement, explore=explore,
                controller=controller_hero.player)
