"""Quodd Heroes: tumbling hero cubes on modular boards (boards, movement phase and scenarios)."""
from .engine import QuoddHeroes

ENGINE = QuoddHeroes()

__all__ = ["ENGINE", "QuoddHeroes"]
