"""The dungeon's heuristic for computer heroes, written against the public view only.

The heroes play as one team, so every hero's value is the team's: levels cleared, the level's
spawn point worn down, monsters wounded and killed, heroes' health (a hero heals when low because
wounds cost more than a potion), and the heroes' distance to the spawn point (the objective).
It reads `engine.view(state, player)`, never the state's fields, so it does not depend on how the
engine stores its state.
"""
from __future__ import annotations

import random
from typing import Any

from games.core import Action
from games.core.grid import parse_label

COOPERATIVE = True
BUDGET_SCALE = 0.07  # monsters think through every hero's activation: a dungeon step costs ~10-50x a Heroball step


def _d(ax: int, ay: int, bx: int, by: int) -> int:
    return max(abs(ax - bx), abs(ay - by))


def evaluate(engine: Any, state: Any, player: str) -> float:
    v = engine.view(state, player)
    out = 1000.0 * v.level
    spawn = next((s for s in v.spawns if s.level == v.level), None)
    if spawn is not None:
        if spawn.state == "destroyed":
            out += 600.0
        else:
            out += 120.0 * spawn.wounds  # the spawn point keeps calling monsters: wearing it down comes first
    for h in v.heroes:
        if h.incapacitated:
            out -= 150.0
            continue
        left = h.life - h.wounds
        out += 12.0 * left - (20.0 if left <= 1 else 0.0)
        out += 4.0 * h.potions + 6.0 * len(h.equipment)
        if spawn is not None and spawn.state != "destroyed":
            out -= 4.0 * _d(h.x, h.y, spawn.x, spawn.y)
    for m in v.monsters:
        out -= 30.0 + 8.0 * (m.life - m.wounds)
    return out


def prune(engine: Any, state: Any, player: str, moves: list[Action]) -> list[Action]:
    """Of the many squares a hero may move to, those nearest the spawn point and the nearest monsters;
    every other action stays."""
    steps = [a for a in moves if a.cmd == "move" and parse_label(dict(a.args).get("to", "")) is not None]
    if len(steps) <= 10:
        return moves
    v = engine.view(state, player)
    spawn = next((s for s in v.spawns if s.level == v.level and s.state != "destroyed"), None)
    goals = [(m.x, m.y) for m in v.monsters] + ([(spawn.x, spawn.y)] * 3 if spawn is not None else [])

    def near(a: Action) -> tuple[int, str]:
        x, y = parse_label(dict(a.args)["to"]) or (0, 0)
        return (min((_d(x, y, gx, gy) for gx, gy in goals), default=0), a.text())

    keep = {a.text() for a in sorted(steps, key=near)[:8]}
    return [a for a in moves if a.cmd != "move" or a.text() in keep]


def determinize(engine: Any, state: Any, player: str, rng: random.Random) -> Any:
    """Deck order is hidden: the cards still in each deck are dealt in a fresh order (sorted first, so
    the real order is never read)."""
    update = {}
    for name in ("loot_deck", "treasure_deck"):
        deck = getattr(state, name, None)
        if isinstance(deck, list) and len(deck) > 1:
            fresh = sorted(deck)
            rng.shuffle(fresh)
            update[name] = fresh
    return state.model_copy(update=update) if update else state


def milestones(engine: Any, state: Any) -> dict[str, bool]:
    """What selfplay counts besides wins: was the first level cleared (the heroes went on to level 2)?"""
    v = engine.view(state, None)
    first = next((s for s in v.spawns if s.level == 0), None)
    return {"level1_cleared": v.level > 0 or (first is not None and first.state == "destroyed")}
