"""Computer players (pure: no I/O, no clock in any decision).

A computer decides from its own player's view only: before it looks ahead it re-samples every
hidden part of the state (future dice, deck order, secret tokens) with its own random generator
(`determinize`), so two states that differ only in hidden parts give the same choices for the
same generator. Levels: `random` (alias `easy`) picks a kind of move, then one of it, uniformly;
`normal` is greedy on the game's heuristic (`games/<id>/ai.py`); `hard` runs flat Monte Carlo over
determinised states with heuristic rollouts, bounded by a count of engine steps, not by the clock.
"""
from __future__ import annotations

from .base import Budget, Heuristic, Player, candidates, determinize, first_to_act, heuristic_for
from .players import LEVELS, GreedyPlayer, RandomPlayer, SearchPlayer, make_player

__all__ = ["LEVELS", "Budget", "GreedyPlayer", "Heuristic", "Player", "RandomPlayer", "SearchPlayer",
           "candidates", "determinize", "first_to_act", "heuristic_for", "make_player"]
