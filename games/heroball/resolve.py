"""A declared action on the active player's turn: what it costs, and carrying it out.

The action phase pays the cost and may be interrupted (Helen's Distract); carrying out the
action happens here, either at once or when the distraction is settled (phases/reaction.py).
"""
from __future__ import annotations

from games.core import Action, Event

from .attacks import attack
from .heroes import hero_action, hero_cost
from .movement import move_cost, resolve_move
from .objects import drop, object_cost, throw
from .rulebook import MOVES, Rulebook
from .state import HeroballState, HeroState


def cost(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> int:
    if a.cmd in MOVES:
        return move_cost(g, s, h, a)
    if a.cmd in ("push", "fumble"):
        attack_cost: int = getattr(g.costs, a.cmd)
        return attack_cost
    if a.cmd in ("throw", "drop"):
        return object_cost(g, h, a)
    if a.cmd == "hero":
        return hero_cost(g, s, h, a)
    return 0


def resolve(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    if a.cmd in MOVES:
        resolve_move(g, s, h, a, ev)
    elif a.cmd in ("push", "fumble"):
        attack(g, s, h, a, ev)
    elif a.cmd == "throw":
        throw(g, s, h, a, ev)
    elif a.cmd == "drop":
        drop(g, s, h, a, ev)
    elif a.cmd == "hero":
        hero_action(g, s, h, a, ev)
