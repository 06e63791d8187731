"""The dungeon's words for Discord: game options, the seat option (a hero), and every command with its options.

Command names and options are part of the contract with players and saved games (button custom ids, transcripts).
`preview` stays declared here until the platform offers `/game preview` for every game.
"""
from __future__ import annotations

from games.core import CommandSpec, OptionSpec

from .data import content
from .maps import dungeon_ids

BASIC_STYLES = ("melee", "ranged", "magic")
DIFFICULTIES = ("explorer", "normal", "veteran")

OPTIONS = (
    OptionSpec(name="dungeon", description="Which dungeon to play (random: one built from tiles by the seed)",
               choices=dungeon_ids(), default=next(iter(content().dungeons))),
    OptionSpec(name="difficulty", choices=DIFFICULTIES,
               description="House option: explorer (easier) or veteran (harder); left out: normal"),
    OptionSpec(name="turn_limit", kind="int", min=1, max=999,
               description="House option: heroes lose after this many turns (left out: no limit)"),
)
SEAT_OPTIONS = (
    OptionSpec(name="hero", description="Your hero (left out: one is assigned at start)",
               choices=tuple(h.name for h in content().heroes.values()), autocomplete=True),
)
COMMANDS = (
    CommandSpec(name="activate", description="Activate one of your heroes", options=(
        OptionSpec(name="hero", description="Hero to activate (may be left out when you have one left)",
                   autocomplete=True),)),
    CommandSpec(name="move", description="Move the active hero (1 AP starts a move action)", options=(
        OptionSpec(name="to", description="Square to move to", autocomplete=True),
        OptionSpec(name="path", description='Or a route of directions, e.g. "N N NE"'),)),
    CommandSpec(name="attack", description="Attack an enemy", options=(
        OptionSpec(name="target", description="Square of the enemy", required=True, autocomplete=True),
        OptionSpec(name="with", description="melee, ranged or magic", choices=BASIC_STYLES),)),
    CommandSpec(name="act", description="A unique action or heal, brew, picklock, smash, stand, switch", options=(
        OptionSpec(name="action", description="Which action", required=True, autocomplete=True),
        OptionSpec(name="target", description="Target square or hero", autocomplete=True),)),
    CommandSpec(name="potion", description="Drink a potion (once per activation)"),
    CommandSpec(name="equip", description="Equip a card lying on your hero's tile", options=(
        OptionSpec(name="card", description="Card to equip", required=True, autocomplete=True),
        OptionSpec(name="hero", description="Hero (between levels)", autocomplete=True),)),
    CommandSpec(name="drop", description="Drop an equipped card", options=(
        OptionSpec(name="card", description="Card to drop", required=True, autocomplete=True),
        OptionSpec(name="hero", description="Hero (between levels)", autocomplete=True),)),
    CommandSpec(name="reroll", description="Reroll offence dice, all at once (no going back for the others)", options=(
        OptionSpec(name="die", description="Die number", required=True, kind="int"),
        OptionSpec(name="also", description='More dice rerolled with it, when allowed, e.g. "3" or "2 3"'),)),
    CommandSpec(name="keep", description="Keep the roll as it is"),
    CommandSpec(name="heart", description="Use a heart rolled on a successful attack", options=(
        OptionSpec(name="use", description="heal, cure, potion or none", required=True,
                   choices=("heal", "cure", "potion", "none")),
        OptionSpec(name="hero", description="Hero who benefits", autocomplete=True),
        OptionSpec(name="debuff", description="Debuff to remove (cure)", autocomplete=True),)),
    CommandSpec(name="end", description="End the active hero's activation"),
    CommandSpec(name="ready", description="Done equipping between levels"),
    CommandSpec(name="preview", description="Picture what a move or action would do; nothing changes", options=(
        OptionSpec(name="action", description='The action to try, e.g. "move to:C4"', required=True,
                   autocomplete=True),)),
)
