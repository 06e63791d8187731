"""What the board image draws of the recent play (issue 18): each call appends one `Mark` to the state.

The rule modules call these where a hero moves, an object flies, an attack is tried or lands and an
object is caught; `view.build_view` picks the marks since the acting player's previous turn.
"""
from __future__ import annotations

from games.core.marks import Mark, add, extend

from .rulebook import OBJECT_NAMES, Rulebook
from .state import HeroballState, HeroState

VERBS = {"push": "pushes", "force fumble": "forces a fumble from", "knock down": "knocks down"}


def moved(g: Rulebook, s: HeroballState, h: HeroState, start: str, to: str, verb: str) -> None:
    """`h` went from `start` to `to`: the active hero's own moves of one turn make one path."""
    act = g.active(s)
    own = h is act and not verb.startswith("is ")
    kind = "move" if own else "push"
    m = Mark(kind=kind, by=act.player, who=h.hero, path=[start], key=f"{s.turn_no}:{h.hero}" if own else "",
             turn=s.turn_no,
             text=f"{h.hero} {verb}" if not own else f"{h.hero} moves")
    if own:
        extend(s.marks, m, to)
    else:
        m.path.append(to)
        add(s.marks, m)


def flew(g: Rulebook, s: HeroballState, obj: str, origin: str, target: str, how: str, by: HeroState) -> None:
    """An object left `origin` for `target` (thrown, kicked, dropped, fumbled, swatted)."""
    add(s.marks, Mark(kind=how, by=g.active(s).player, who=by.hero, path=[origin, target], turn=s.turn_no,
                      text=f"{by.hero} {how}s {OBJECT_NAMES[obj]} {origin} to {target}"))


def attacked(g: Rulebook, s: HeroballState, h: HeroState, v: HeroState, kind: str, hit: bool) -> None:
    """`h` attacked `v` (push, force fumble, knock down); `hit` False when `v` defended."""
    add(s.marks, Mark(kind="attack", by=g.active(s).player, who=h.hero, path=[h.pos, v.pos], hit=hit, turn=s.turn_no,
                      text=f"{h.hero} {VERBS.get(kind, kind)} {v.hero}: {'hit' if hit else 'defended'}"))


def scored(g: Rulebook, s: HeroballState, owner: HeroState, where: str, points: int) -> None:
    add(s.marks, Mark(kind="goal", by=g.active(s).player, who=owner.hero, path=[where], turn=s.turn_no,
                      text=f"GOAL on {where}: {points} point{'s' if points != 1 else ''} for {owner.name}"))


def distracted(g: Rulebook, s: HeroballState, helen: HeroState, actor: HeroState, action: str, outcome: str) -> None:
    """Helen distracted `actor`'s declared `action`; `outcome` says what it costs them (`settled` rewrites it)."""
    add(s.marks, Mark(kind="distract", by=g.active(s).player, who=helen.hero, path=[helen.pos, actor.pos],
                      turn=s.turn_no, text=f"{helen.hero} distracts {actor.hero} ({action}): {outcome}"))


def settled(s: HeroballState, outcome: str) -> None:
    """The distracted player chose: the newest distraction's legend line says how it ended."""
    for m in reversed(s.marks):
        if m.kind == "distract":
            m.text = m.text.rsplit(": ", 1)[0] + ": " + outcome
            return


def caught(g: Rulebook, s: HeroballState, c: HeroState, obj: str) -> None:
    add(s.marks, Mark(kind="catch", by=g.active(s).player, who=c.hero, path=[c.pos], turn=s.turn_no,
                      text=f"{c.hero} catches {OBJECT_NAMES[obj]} on {c.pos}"))
