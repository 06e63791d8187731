"""Heroball's heuristic for computer players: score first, then the Godball.

Larger is better for `player`. A hero holding the Godball wants to be near its own goal (a goal
scores for the goal's owner); a hero without it wants to be next to it, and a loose ball near
its goal is good, near another's goal bad. Being knocked down costs, spare AP is worth a little.
Everything read here is public: positions, scores, AP.
"""
from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from games.core import Action


@cache
def _paths(board: Any) -> dict[str, dict[str, int]]:
    """Walking distance between every two hexes: pillars cannot be entered, so they are walked around."""
    out: dict[str, dict[str, int]] = {}
    for start in board.labels:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for n in board.neighbors(here):
                if n not in dist and n not in board.pillars:
                    dist[n] = dist[here] + 1
                    todo.append(n)
        out[start] = dist
    return out


def _dist(engine: Any, a: str, b: str) -> int:
    return _paths(engine.board)[a].get(b, engine.board.dist(a, b) + 2)


def _goal_dist(engine: Any, where: str, corner: str) -> int:
    return min(_dist(engine, where, g) for g in engine.board.goal(corner))


def evaluate(engine: Any, s: Any, player: str) -> float:
    me = engine.hero(s, player)
    others = [h for h in s.heroes if h.player != player]
    best_other = max((h.score for h in others), default=0)
    v = 200.0 * (me.score - best_other)
    if s.phase == "seed":
        return v
    ball = s.objects["ball"]
    at = engine.obj_hex(s, "ball")
    if ball.holder == player:
        v += 40.0 - 6.0 * _goal_dist(engine, me.pos, me.corner)
    elif ball.holder is not None:
        holder = engine.hero(s, ball.holder)
        v -= 40.0 - 6.0 * _goal_dist(engine, holder.pos, holder.corner)
        v -= 3.0 * _dist(engine, me.pos, holder.pos)
    elif at is not None:
        v -= 3.0 * _dist(engine, me.pos, at)
        v -= 1.5 * _goal_dist(engine, at, me.corner)
        near_other = min((_goal_dist(engine, at, h.corner) for h in others), default=12)
        v += 1.0 * near_other
    v -= 8.0 if me.down else 0.0
    v += sum(4.0 for h in others if h.down)
    v += 0.2 * me.ap
    return v


def prune(engine: Any, s: Any, player: str, moves: list[Action]) -> list[Action]:
    """Seeding: only the hexes nearest the centre post are worth comparing. In play, a drop only into
    one's own goal (picking the Godball up and dropping it again is a free loop that goes nowhere)."""
    if s.phase != "seed":
        mine = set(engine.board.goal(engine.hero(s, player).corner))
        return [a for a in moves if a.cmd != "drop" or dict(a.args).get("to") in mine]
    if len(moves) <= 12:
        return moves
    centre = engine.board.centre

    def dist(a: Action) -> int:
        to = dict(a.args).get("to", "")
        return engine.board.dist(to, centre) if to in engine.board.labels else 99

    return sorted(moves, key=lambda a: (dist(a), a.text()))[:12]
