"""Which fuzz module drives which game."""
from __future__ import annotations

from games.core import all_games

from .spec import GameFuzz


def fuzzers() -> dict[str, GameFuzz]:
    """A fuzz driver per registered game (a game without its own module gets the generic one: random play,
    the platform's invariants, the generator as its only hidden part)."""
    from .dungeon import DungeonFuzz
    from .heroball import HeroballFuzz
    from .quodd import QuoddFuzz

    known: dict[str, type[GameFuzz]] = {"heroball": HeroballFuzz, "dungeon": DungeonFuzz, "quodd": QuoddFuzz}
    return {gid: known.get(gid, GameFuzz)(engine) for gid, engine in sorted(all_games().items())}
