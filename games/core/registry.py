"""Finds the games: every subpackage of `games` that exposes `ENGINE` is registered."""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from .contract import Game


@cache
def all_games() -> dict[str, Game]:
    import games

    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if not info.ispkg or info.name == "core" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"games.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, Game):
            found[engine.id] = engine
    return found


def get_game(game_id: str) -> Game:
    games = all_games()
    if game_id not in games:
        from .errors import IllegalAction

        raise IllegalAction(f"There is no game called `{game_id}`.", "Games: " + ", ".join(sorted(games)) + ".")
    return games[game_id]


def register(engine: Game) -> None:
    """Add an engine that lives outside `games` (tests use this for a fixture game)."""
    all_games()[engine.id] = engine
