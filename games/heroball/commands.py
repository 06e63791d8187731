"""What players type: the `/heroball` commands, the game option and the seat options (names are the interface)."""
from __future__ import annotations

from games.core import CommandSpec, OptionSpec

from .data import Rules
from .state import ORDER_VALUES

REACTION_HOURS = OptionSpec(name="reaction_hours", kind="int", default="12", min=1, max=168,
                            description="Hours a reaction window waits before it counts as a pass (default 12)")
OPTIONS: tuple[OptionSpec, ...] = (REACTION_HOURS,)
# Commands that are player settings, legal for every seated player at any time.
ANYTIME: tuple[str, ...] = ("reactions",)
REPLIES = ("react", "pass", "pay")  # the answers in a reaction window

_HEX = OptionSpec(name="to", description="destination hex, e.g. C4", autocomplete=True)
_DIR = OptionSpec(name="direction", description="or a direction: N NE SE S SW NW",
                  choices=("N", "NE", "SE", "S", "SW", "NW"))
_TARGET = OptionSpec(name="target", description="the hero you act on", autocomplete=True)
_PLACE = OptionSpec(name="place", description="hex where a fumbled object or displaced hero goes", autocomplete=True)
_OBJ = OptionSpec(name="obj", description="object: ball or pole", choices=("ball", "pole"), autocomplete=True)


def _move_cmd(name: str, what: str, extra: tuple[OptionSpec, ...] = ()) -> CommandSpec:
    return CommandSpec(name=name, description=what, options=(_HEX, _DIR, *extra))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(name="seed", description="Place one of your favoured terrain tokens (setup)", options=(_HEX,)),
    _move_cmd("step", "Step 1 hex (or stand up when knocked down)"),
    _move_cmd("run", "Run 1 hex (after your step)"),
    _move_cmd("sprint", "Sprint 1 hex (after your run)", (_TARGET, _PLACE)),
    CommandSpec(name="push", description="Push an adjacent opponent 1 hex away from you", options=(_TARGET, _HEX)),
    CommandSpec(name="fumble", description="Force an adjacent opponent to fumble; you place the object",
                options=(_TARGET, _HEX)),
    CommandSpec(name="throw", description="Throw an object up to 2 hexes", options=(_OBJ, _HEX)),
    CommandSpec(name="drop", description="Drop what you hold into your hex or an adjacent one", options=(_HEX,)),
    CommandSpec(name="hold", description="Pick up an object in your hex", options=(_OBJ,)),
    CommandSpec(name="hero", description="Use one of your hero's own actions", options=(
        OptionSpec(name="action", description="which hero action", required=True, autocomplete=True),
        _TARGET, _HEX, _PLACE)),
    CommandSpec(name="react", description="React now: defend, intercept, catch, distract", options=(_HEX,)),
    CommandSpec(name="pass", description="Do not react (or let a distracted action fail)"),
    CommandSpec(name="pay", description="Pay the extra AP Helen's distraction demands"),
    CommandSpec(name="reactions", description="Standing orders: react automatically or never", options=(
        OptionSpec(name="defend", description="ask | always | never", choices=ORDER_VALUES),
        OptionSpec(name="intercept", description="ask | always | never", choices=ORDER_VALUES),
        OptionSpec(name="distract", description="ask | always | never (Helen)", choices=ORDER_VALUES),
    )),
    CommandSpec(name="end", description="End your turn"),
)


def seat_options(rules: Rules) -> tuple[OptionSpec, ...]:
    """Chosen at `/game join`: hero, god and the two standing orders every hero has."""
    return (
        OptionSpec(name="hero", description="your hero", choices=tuple(h.name for h in rules.heroes),
                   autocomplete=True),
        # every god is a choice so that Hermes reaches check_seat and is refused with the rule's reason
        OptionSpec(name="god", description="your god (gives your favoured terrain)",
                   choices=tuple(g.name for g in rules.gods), autocomplete=True),
        OptionSpec(name="defend", description="standing order for defending", choices=ORDER_VALUES),
        OptionSpec(name="intercept", description="standing order for intercepting", choices=ORDER_VALUES),
    )
