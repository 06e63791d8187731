"""What the dungeon's memos keep between actions: bounded, and cheap for the garbage collector.

A bot runs for weeks and every full collection scans what the memos hold while holding the interpreter lock
(the event loop waits), so a memo must not keep whole game states alive, and the per-board sight records,
which grow to thousands of pairs a map, must be values the collector does not track (tuples of ints)."""
from __future__ import annotations

import gc
import sys
import types

from games.core import Seat, all_games
from games.core.playout import random_playout
from games.dungeon.board import board
from games.dungeon.state import DungeonState


def _play(games: int) -> None:
    engine = all_games()["dungeon"]
    for k in range(games):
        seats = [Seat(player=f"p{i}", name=f"P {i}") for i in range(1, 7)]
        random_playout(engine, {"dungeon": "crystal_caverns"}, seats, 900 + k, cap=400, checked=False)


def _states_held_by_memos() -> int:
    """DungeonState objects reachable from the module-level dictionaries of the dungeon's modules."""
    seen: set[int] = set()
    found = 0
    stack: list[object] = []
    for name, mod in list(sys.modules.items()):
        if name.startswith("games.dungeon"):
            stack += [v for k, v in vars(mod).items() if isinstance(v, dict) and k.startswith("_")
                      and not k.startswith("__")]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type, types.FunctionType)):
            continue
        seen.add(id(obj))
        if isinstance(obj, DungeonState):
            found += 1
        stack += gc.get_referents(obj)
    return found


def test_memos_keep_no_game_state_alive() -> None:
    """The heroes' side of a monster reaction is found again only for the very state it was made from, and holds
    that state weakly, so its memo keeps none alive (it once kept up to 2,000 dead states, each ~280 tracked
    objects, then the last 17)."""
    _play(12)
    gc.collect()
    assert _states_held_by_memos() == 0


def test_sight_records_are_untracked_values() -> None:
    """Every pair's sight record is a tuple of ints and tuples of ints, which the collector stops tracking."""
    _play(4)
    for _ in range(3):  # a collection untracks a tuple whose items are untracked already: one nesting level each
        gc.collect()
    pairs = board("crystal_caverns").sight_table.pairs
    assert len(pairs) > 100
    tracked = [key for key, rec in pairs.items() if gc.is_tracked(rec)]
    assert not tracked, f"{len(tracked)} of {len(pairs)} sight records are tracked by the garbage collector"
