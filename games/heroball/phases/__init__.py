"""Heroball's phases, one module each: seed turns, the active player's turn, reaction windows, the end."""
from .action import Turn
from .over import Over
from .reaction import Defend, Distract, Distracted, Intercept
from .seed import Seed

__all__ = ["Defend", "Distract", "Distracted", "Intercept", "Over", "Seed", "Turn"]
