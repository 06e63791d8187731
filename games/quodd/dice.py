"""Re-roll a Die for the direction die and the bomb die (the teleporter die asks in `elements.teleport`).

Random Wind, the Earthquake Q-power and the Bomb Q-power roll on the roller's own turn; a hero with Re-roll a
Die who has not re-rolled yet this turn sees the roll and is asked `keep` or `reroll` (the same question as for
a teleporter); the new roll stands. World events are rolled at the end of the round, on no one's turn: no
re-roll there. `roll_or_ask` rolls and either asks (True) or leaves the caller to apply the roll (False).
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.words import says

from .abilities.track import has, mark, used
from .board import active
from .bombs import fire, roll_bomb
from .jobs import decide, name
from .state import Hero, Job, QState
from .sweep import parts, roll_direction, sweep

Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]
ROLLS: dict[str, Callable[[QState], str]] = {"wind": roll_direction, "quake": roll_direction, "bomb": roll_bomb}
DIE = {"wind": "direction die", "quake": "direction die", "bomb": "bomb die"}


def may_reroll(st: QState, h: Hero) -> bool:
    return has(h, "re-roll") and h.player == active(st).player and not used(st, "re-roll")


def roll_or_ask(st: QState, h: Hero, what: str, ev: list[Event], *, at: str = "", d: str = "") -> str | None:
    """Roll the die of `what` (wind, quake, bomb) for `h`: the result, or None when `h` is asked first."""
    shown = ROLLS[what](st)
    if not may_reroll(st, h):
        return shown
    ev.append(Event(text=f"{says(h.name, 'rolls')} {shown} on the {DIE[what]}.", irreversible=True))
    decide(st, "reroll_die", h.player, h, ["keep", "reroll"],
           f"{h.name}: keep {shown} on the {DIE[what]} or roll again (Re-roll a Die, once a turn)",
           job=Job(kind="none", hero=h.player, item=what, prev=shown, at=at, dir=d))
    return None


def apply_roll(st: QState, h: Hero, what: str, shown: str, ev: list[Event], *, at: str = "", d: str = "") -> None:
    """What the rolled die does: a wind slides every hero 1 space, a quake tumbles them, a bomb is fired."""
    if what == "wind":
        ev.append(Event(text=f"The direction die shows {shown}: every hero slides 1 space {shown}.", irreversible=True))
        sweep(st, "wind", shown, 1, ev, split=False)
    elif what == "quake":
        ev.append(Event(text=f"The direction die shows {shown}; every hero tumbles {' then '.join(parts(shown))} "
                             "(no skills activate).", irreversible=True))
        sweep(st, "quake", shown, 1, ev, split=True)
    else:
        fire(st, at, d, shown, ev, h.player)


def _rerolled(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    shown = job.prev
    if option == "reroll":
        mark(st, "re-roll")
        shown = ROLLS[job.item](st)
        ev.append(Event(text=f"{says(name(st, h.player), 'rolls')} again (Re-roll a Die).", irreversible=True))
    apply_roll(st, h, job.item, shown, ev, at=job.at, d=job.dir)


RESOLVE: dict[str, Resolver] = {"reroll_die": _rerolled}
