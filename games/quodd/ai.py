"""Quodd's heuristic for computer players: the next objective, and how far away it is.

Race and time trial: rally markers reached, then the distance to the next one. Heist: crystals
banked, crystals carried, and the distance to the nearest crystal (or sheep) lying about (or, carrying, to
a drop zone). In a free-for-all or teams the best rival's value (another side's hero) is subtracted.
Face-down tokens are judged by their public face only; `determinize` deals their real kinds out again at random.
"""
from __future__ import annotations

import random
from typing import Any

from games.core import Action
from games.core.ai.base import determinize as redeal
from games.core.grid import DIRS8, label, step_xy

from . import data
from .board import is_drop, squares, xy
from .cards import slots
from .modes import TOGETHER, same_side
from .modes.buddies import heroes_of
from .state import QState

BUDGET_SCALE = 0.4  # a Quodd step (a skill's whole movement chain) costs ~4x a Heroball step


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) + min(abs(a[0] - b[0]), abs(a[1] - b[1])) // 2


def _nearest(at: tuple[int, int], where: list[tuple[int, int]]) -> int:
    return min((_dist(at, p) for p in where), default=20)


def _hero_value(st: QState, h: Any, drops: list[tuple[int, int]]) -> float:
    if st.objective == "heist":
        v = 100.0 * len(h.banked) + 45.0 * len(h.carrying)
        if h.pos is None:
            return v - 30.0
        at = xy(h.pos)
        if h.carrying and (len(h.carrying) >= st.carry_limit or len(h.banked) + len(h.carrying) >= st.target):
            return v - 4.0 * _nearest(at, drops)
        crystals = [xy(sq) for sq, items in st.ground.items() if any("crystal" in i for i in items)]
        crystals += [xy(s.at) for s in st.sheep]  # a sheep banks like a crystal (flock)
        v -= 4.0 * _nearest(at, crystals)
        if h.carrying:
            v -= 1.0 * _nearest(at, drops)
        return v
    v = 100.0 * h.progress
    if h.pos is None:
        return v - 30.0
    nxt = st.rally.get(str(h.progress + 1))
    if nxt is not None:
        v -= 4.0 * _dist(xy(h.pos), xy(nxt))
    return v


def evaluate(engine: Any, st: QState, player: str) -> float:
    drops = [p for p in squares(st) if is_drop(st, p)] if st.objective == "heist" else []
    own = heroes_of(st, player) or [next(h for h in st.heroes if h.player == player)]
    mine = own[0]
    values = [_hero_value(st, h, drops) for h in own]  # buddies: a player runs several heroes
    v = max(values) if st.objective == "race" else sum(values)
    if st.mode not in TOGETHER:  # rivals: the heroes of the other sides (a team's own heroes are no rivals)
        rivals = [_hero_value(st, h, drops) for h in st.heroes if h not in own and not same_side(st, mine, h)]
        if rivals:
            v -= 0.7 * max(rivals)
    return v


def _swaps_out(st: QState, player: str, a: Action) -> bool:
    """Whether `a` plays an Item or Pet into a full slot (the card there goes back to the hand). The heuristic
    does not value cards in play, so two pets swapped back and forth for free look as good as ending the turn,
    and a computer did that for ever (Quodd heist, seed 5: Night Owl and Magpie, 4,000 actions in one turn);
    computers play Items and Pets into free slots only."""
    if a.cmd not in ("play", "impulse"):
        return False
    card = data.cards().get(str(a.get("card") or ""))
    if card is None or card.kind not in ("item", "pet"):
        return False
    h = next((x for x in st.heroes if x.player == player), None)
    if h is None:
        return False
    return len(h.items if card.kind == "item" else h.pets) >= slots(h, card.kind)


def prune(engine: Any, st: QState, player: str, moves: list[Action]) -> list[Action]:
    """Cards passed to a teammate are left out; so are Items and Pets that would send one in play back to the
    hand (`_swaps_out`). The 120 ways to arrange skills on the cube are beyond a heuristic's
    judgement: keep them as dealt. A spring that may throw the hero onto another spring: those throws are left out
    when another one is open, or two springs can bounce a computer's hero between them for ever (found by the
    fuzzer, Quodd seed 67); so are throws that currents carry back onto the same spring."""
    if any(a.cmd == "give" for a in moves):  # card sharing (co-op, teams): a hand's worth is beyond the heuristic
        moves = [a for a in moves if a.cmd != "give"] or moves
    if any(a.cmd in ("play", "impulse") for a in moves):
        moves = [a for a in moves if not _swaps_out(st, player, a)] or moves
    if any(a.cmd == "rearrange" for a in moves) and any(a.cmd == "done" for a in moves):
        return [a for a in moves if a.cmd != "rearrange"]
    d = st.pending
    if d is not None and d.kind == "spring":
        h = next((x for x in st.heroes if x.player == d.hero), None)
        if h is not None and h.pos is not None:
            over = (d.job.n if d.job is not None else 1) + 1

            def onto_spring(a: Action) -> bool:
                option = str(a.get("option") or "")
                if option not in DIRS8:
                    return False
                x, y = step_xy(xy(h.pos or ""), option, over)
                if not (0 <= x < st.width and 0 <= y < st.height):  # thrown off the map (no label out there)
                    return False
                t = st.tokens.get(label(x, y))
                return t is not None and t.kind in ("spring", "super_spring")

            redealt = redeal(engine, st, player, random.Random(0))
            legal = set(engine.legal_actions(st, player))  # (only a legal throw is played out)

            def back_here(a: Action) -> bool:
                """The throw ends where it began, on this spring with its choice again: currents carried the hero
                round (overlord seed 1: a hard computer threw its hero W from H4 2,900 times, F4-F5-G5-H5-H4).
                Played on a copy whose hidden parts (face-down tokens, future dice) are dealt again from a fixed
                generator, so it reads nothing hidden."""
                if a not in legal:
                    return False
                try:
                    after, _ = engine.apply(redealt, player, a)
                except Exception:  # a look-ahead never costs the computer its move: a position the engine cannot
                    return False  # play on (tests build spring choices by hand) is taken for no loop
                p = after.pending
                h2 = next((x for x in after.heroes if x.player == d.hero), None)
                return (p is not None and p.kind == "spring" and p.hero == d.hero and h2 is not None
                        and h2.pos == h.pos)

            off = [a for a in moves if not onto_spring(a)] or moves
            return [a for a in off if not back_here(a)] or off
    return moves


def determinize(engine: Any, st: QState, player: str, rng: random.Random) -> QState:
    """Face-down tokens' real kinds dealt out again: the kinds still hidden, shuffled over those tokens."""
    secret = sorted(k for k, t in st.tokens.items() if t.hidden)
    if not secret:
        return st
    kinds = sorted(st.tokens[k].hidden for k in secret)
    rng.shuffle(kinds)
    tokens = dict(st.tokens)
    for k, real in zip(secret, kinds, strict=True):
        tokens[k] = tokens[k].model_copy(update={"hidden": real})
    return st.model_copy(update={"tokens": tokens})
