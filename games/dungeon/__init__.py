"""SDE-S co-operative dungeon crawl (game id `dungeon`): heroes against bot-run monsters."""
from .engine import DungeonGame

ENGINE = DungeonGame()

__all__ = ["ENGINE", "DungeonGame"]
