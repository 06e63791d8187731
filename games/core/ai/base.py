"""What every computer player shares: the budget, the per-game heuristic, the candidate moves,
and determinisation (re-sampling what the deciding player cannot see)."""
from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from pydantic import BaseModel

from ..actions import Action
from ..contract import Game


@dataclass(frozen=True)
class Budget:
    """How much a search may do: engine steps (apply calls), not seconds, so play is reproducible."""

    steps: int = 1500
    playouts: int = 6  # per candidate, at most
    depth: int = 16  # actions in one rollout before the heuristic judges the position
    width: int = 6  # candidates searched (the best by the greedy heuristic)


class Player(Protocol):
    level: str

    def decide(self, engine: Game, state: BaseModel, player: str, rng: random.Random,
               budget: Budget | None = None) -> Action:
        """One legal action for `player`, chosen from what `player` may know of `state`."""
        ...


class Heuristic(Protocol):
    """A game's `ai` module: how good a state is for a player (larger is better)."""

    def evaluate(self, engine: Any, state: Any, player: str) -> float: ...


@cache
def heuristic_for(game_id: str) -> Any:
    """The game's `games.<id>.ai` module, or None when the game has none (then only `random` plays well)."""
    try:
        return importlib.import_module(f"games.{game_id}.ai")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"games.{game_id}", f"games.{game_id}.ai"):
            raise
        return None


def candidates(engine: Game, state: BaseModel, player: str) -> list[Action]:
    """The moves worth choosing between: legal actions other than settings a player may change any time
    (those never change the position), narrowed by the game's own `prune` when it has one."""
    legal = engine.legal_actions(state, player)
    moves = [a for a in legal if a.cmd not in engine.anytime_commands] or legal
    h = heuristic_for(engine.id)
    if h is not None and hasattr(h, "prune"):
        pruned = h.prune(engine, state, player, moves)
        if pruned:
            return list(pruned)
    return moves


def determinize(engine: Game, state: BaseModel, player: str, rng: random.Random) -> BaseModel:
    """A state `player` cannot tell from `state`: hidden parts re-sampled from `rng`, never read.

    The game's ai module may refine it (deck order, secret tokens); the engine's `determinize`
    hook re-seeds future dice.
    """
    out = engine.determinize(state, player, rng)
    h = heuristic_for(engine.id)
    if h is not None and hasattr(h, "determinize"):
        out = h.determinize(engine, out, player, rng)
    return out


def first_to_act(engine: Game, state: BaseModel, players: list[str]) -> str:
    """Of several computer seats that may move now, the one to go first: the game's ai module may rank them
    (`order`: the dungeon's team chooses which hero activates next, as its players would agree at the table);
    without it, the first listed. It reads what every player sees, nothing hidden."""
    if len(players) < 2:
        return players[0]
    h = heuristic_for(engine.id)
    if h is None or not hasattr(h, "order"):
        return players[0]
    ranked = [p for p in h.order(engine, state, list(players)) if p in players]
    return ranked[0] if ranked else players[0]


def value(engine: Game, state: BaseModel, player: str) -> float:
    """The heuristic value for `player`; a finished game is a win, a shared win or a loss."""
    st = engine.status(state)
    if st.finished:
        winners = st.result.winners if st.result else []
        if player in winners:
            return 10_000.0 / len(winners)
        h = heuristic_for(engine.id)
        if h is not None and getattr(h, "COOPERATIVE", False):
            return -10_000.0
        return -10_000.0 if winners else 0.0
    h = heuristic_for(engine.id)
    return float(h.evaluate(engine, state, player)) if h is not None else 0.0
