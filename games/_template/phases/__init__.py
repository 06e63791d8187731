"""The phase table: one module per phase, each owning its legal actions, their effect and the words about them."""
from __future__ import annotations

from .deciding import Deciding
from .over import Over
from .turn import Turn

PHASES = {phase.name: phase for phase in (Turn(), Deciding(), Over())}

__all__ = ["PHASES", "Deciding", "Over", "Turn"]
