"""The phases of Quodd Heroes, one module each, in the order of play.

`place` and `skills` are the setup; a turn is `power`, `move`, `recovery`, `explore`; `decide` is a
choice handed to a player in the middle of a movement; `over` ends the game.
"""
from __future__ import annotations

from typing import Any

from games.core import Phase

from .base import PHASE_NAMES
from .decide import DecidePhase
from .explore import ExplorePhase
from .move import MovePhase
from .over import OverPhase
from .passing import pass_empty_phases
from .place import PlacePhase, ask_placement
from .power import PowerPhase
from .recovery import RecoveryPhase
from .skills import SkillsPhase
from .upgrade import UpgradePhase

PHASES: dict[str, Phase[Any]] = {p.name: p for p in (
    PlacePhase(), SkillsPhase(), PowerPhase(), MovePhase(), DecidePhase(), RecoveryPhase(), ExplorePhase(),
    UpgradePhase(), OverPhase(),
)}

__all__ = ["PHASES", "PHASE_NAMES", "ask_placement", "pass_empty_phases"]
