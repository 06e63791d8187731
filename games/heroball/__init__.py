"""Heroball: the quickstart Godball sports game (2-4 players, hex field, reactions off-turn)."""
from .engine import Heroball

ENGINE = Heroball()

__all__ = ["ENGINE", "Heroball"]
