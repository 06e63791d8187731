"""The levels: `random` (a kind of move, then a move of it, uniformly), `normal` (greedy on the game's
heuristic), `hard` (flat Monte Carlo)."""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from ..actions import Action
from ..contract import Game
from .base import Budget, candidates, determinize, heuristic_for, value


def _scale(engine: Game, budget: Budget) -> Budget:
    """A game may shrink the default budget (a slow engine: the dungeon's monsters think a lot), and set the
    rollouts' depth of its own (`BUDGET_DEPTH`: actions to the end of a turn)."""
    h = heuristic_for(engine.id)
    scale = getattr(h, "BUDGET_SCALE", 1.0) if h is not None else 1.0
    depth = getattr(h, "BUDGET_DEPTH", None) if h is not None else None
    if scale == 1.0 and depth is None:
        return budget
    return Budget(steps=max(1, int(budget.steps * scale)), playouts=budget.playouts,
                  depth=depth or (max(1, int(budget.depth * scale)) if scale < 1 else budget.depth),
                  width=budget.width)


@dataclass
class RandomPlayer:
    """Any candidate move: first a kind of move (the command), uniformly, then one move of that kind
    (settings a player may change any time are left alone).

    Choosing among all moves alike let the most numerous kind crowd out the rest: in Quodd's skill setup the
    120 ways to `rearrange` left `done` one chance in 121, and an easy computer rearranged its skills hundreds
    of times before it was done. A kind first ends such a run after a couple of moves on average (`done` is
    one of two kinds there); every legal move may still be chosen."""

    level: str = "random"

    def decide(self, engine: Game, state: BaseModel, player: str, rng: random.Random,
               budget: Budget | None = None) -> Action:
        legal = engine.legal_actions(state, player)
        moves = [a for a in legal if a.cmd not in engine.anytime_commands] or legal
        kinds: dict[str, list[Action]] = {}
        for a in moves:
            kinds.setdefault(a.cmd, []).append(a)
        return rng.choice(kinds[rng.choice(list(kinds))])


@dataclass
class Counter:
    steps: int = 0


def greedy_scores(engine: Game, state: BaseModel, player: str, moves: list[Action], rng: random.Random,
                  counter: Counter | None = None, samples: int = 3) -> list[float]:
    """Each move's heuristic value one step ahead on a determinised copy (dice re-sampled); a move that
    rolls dice or reveals something is judged by its mean over `samples` such copies."""
    seen = [determinize(engine, state, player, rng) for _ in range(samples)]
    out = []
    for a in moves:
        after, events = engine.apply(seen[0], player, a)
        total, n = value(engine, after, player), 1
        if any(e.irreversible for e in events):
            for other in seen[1:]:
                again, _ = engine.apply(other, player, a)
                total, n = total + value(engine, again, player), n + 1
        if counter is not None:
            counter.steps += n
        out.append(total / n)
    return out


def _best(moves: list[Action], scores: list[float], rng: random.Random) -> Action:
    top = max(scores)
    return rng.choice([a for a, s in zip(moves, scores, strict=True) if s >= top - 1e-9])


@dataclass
class GreedyPlayer:
    """The move whose immediate result the game's heuristic likes best (ties broken at random)."""

    level: str = "normal"

    def decide(self, engine: Game, state: BaseModel, player: str, rng: random.Random,
               budget: Budget | None = None) -> Action:
        moves = candidates(engine, state, player)
        if len(moves) == 1 or heuristic_for(engine.id) is None:
            return rng.choice(moves)
        return _best(moves, greedy_scores(engine, state, player, moves, rng), rng)


@dataclass
class SearchPlayer:
    """Flat Monte Carlo over determinised states.

    The `width` moves the greedy heuristic likes best are each tried in up to `playouts` rollouts:
    a fresh determinisation (hidden parts re-sampled: other dice, other cards), the move, then the
    rest of the turn played greedily (up to `depth` actions; with `opponents`, the others' answer
    too, greedy over a few sampled moves), and the heuristic judges the position where the turn
    passes on. Rollouts go round the candidates until the step budget is spent; the
    best mean wins. Deterministic for a given generator.
    """

    level: str = "hard"
    budget: Budget = field(default_factory=Budget)
    sample: int = 6  # moves the rollout policy compares at each step (for the other players)
    explore: float = 0.0  # chance the rollout policy moves at random
    opponents: bool = False  # roll on through the others' answer (noisier); by default stop when the turn passes

    def decide(self, engine: Game, state: BaseModel, player: str, rng: random.Random,
               budget: Budget | None = None) -> Action:
        b = _scale(engine, budget or self.budget)
        moves = candidates(engine, state, player)
        if len(moves) == 1 or heuristic_for(engine.id) is None:
            return rng.choice(moves)
        counter = Counter()
        # the greedy pass takes at most half the budget: fewer dice samples per move when there are many moves
        samples = max(1, min(3, b.steps // 2 // len(moves)))
        first = greedy_scores(engine, state, player, moves, rng, counter, samples)
        ranked = sorted(range(len(moves)), key=lambda i: -first[i])[:b.width]
        if len(ranked) == 1:
            return moves[ranked[0]]
        totals = {i: 0.0 for i in ranked}
        counts = {i: 0 for i in ranked}
        rounds = 0
        while counter.steps < b.steps and rounds < b.playouts:
            for i in ranked:
                if counter.steps >= b.steps:
                    break
                totals[i] += self._rollout(engine, state, player, moves[i], rng, b.depth, counter, b.steps)
                counts[i] += 1
            rounds += 1
        means = [(totals[i] / counts[i], first[i]) if counts[i] else (float("-inf"), first[i]) for i in ranked]
        best = max(means)
        return rng.choice([moves[i] for i, m in zip(ranked, means, strict=True) if m == best])

    def _rollout(self, engine: Game, state: BaseModel, player: str, move: Action, rng: random.Random,
                 depth: int, counter: Counter, limit: int) -> float:
        """One rollout; it stops where the step budget (`limit` in all) runs out, so a decision never does
        more than its budget of engine steps past the greedy pass: the bound on its time (issue 17: `hard`
        within 2 s), counted, never clocked."""
        s = determinize(engine, state, player, rng)
        s, _ = engine.apply(s, player, move)
        counter.steps += 1
        left_me = False  # the rollout stops once the others have answered: the turn is back with `player`
        for _ in range(depth):
            if counter.steps >= limit:
                break
            st = engine.status(s)
            if st.finished or not st.to_act:
                break
            who = st.to_act[0]
            if who != player:
                left_me = True
                if not self.opponents:
                    break
            elif left_me:
                break
            legal = candidates(engine, s, who)
            if len(legal) == 1 or rng.random() < self.explore:
                a = rng.choice(legal)
            else:
                pool = legal if who == player else rng.sample(legal, min(self.sample, len(legal)))
                pool = pool[:max(1, limit - counter.steps - 1)]  # what the budget still pays for (and the step)
                scores = []
                for c in pool:
                    after, _ = engine.apply(s, who, c)
                    counter.steps += 1
                    scores.append(value(engine, after, who))
                a = _best(pool, scores, rng)
            s, _ = engine.apply(s, who, a)
            counter.steps += 1
        return value(engine, s, player)


LEVELS: dict[str, Callable[[], RandomPlayer | GreedyPlayer | SearchPlayer]] = {
    "random": RandomPlayer,
    "easy": lambda: RandomPlayer(level="easy"),
    "normal": GreedyPlayer,
    "hard": SearchPlayer,
}


def make_player(level: str) -> RandomPlayer | GreedyPlayer | SearchPlayer:
    """The computer player of a level (`random`/`easy`, `normal`, `hard`)."""
    try:
        return LEVELS[level.casefold()]()
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None
