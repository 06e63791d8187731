import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from dhelpers import ScriptedDice  # noqa: E402

from games.dungeon import dice as dice_module  # noqa: E402


@pytest.fixture
def dice(monkeypatch):
    """Scripted dice: `dice.push("B2 B0 R3")` fixes the next faces rolled (every roll goes through `dice.roll_dice`)."""
    scripted = ScriptedDice(dice_module.roll_dice)
    monkeypatch.setattr(dice_module, "roll_dice", scripted.roll)
    return scripted
