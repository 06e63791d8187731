"""What players type: the game's commands, its options at `/game new` and its seat options at `/game join`.

The bot builds the slash commands, their autocomplete and the console parser from these
specs. Names and options are part of saved games and posted buttons: never rename one.
"""
from __future__ import annotations

from games.core import CommandSpec, OptionSpec

from .data import HOUSE

OPTIONS = (OptionSpec(name="target", description="Points to win", choices=HOUSE.targets, default=HOUSE.targets[0]),)

SEAT_OPTIONS = (OptionSpec(name="colour", description="Your colour", choices=HOUSE.colours, autocomplete=True),)

COMMANDS = (
    CommandSpec(name="add", description="Add points", options=(
        OptionSpec(name="n", description="1 or 2", autocomplete=True),)),
    CommandSpec(name="roll", description="Roll a die"),
    CommandSpec(name="keep", description="Keep the rolled die"),
    CommandSpec(name="discard", description="Discard the rolled die"),
    CommandSpec(name="end", description="End your turn"),
)
