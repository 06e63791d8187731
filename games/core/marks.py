"""Marks: what the board image draws of the actions since a player's last turn (issue 18).

An engine appends a `Mark` to its state's `marks` list where something visible happens (a move and
its path, a push, a throw and its landing, an attack and whether it hit, a spawn, a loot drop, an
explosion). The list is short and rolling (`KEEP` newest), so a state stays small; a state saved
before marks existed loads with an empty list. Views pick the marks since the acting player's
previous turn (`since_last_turn`) and the renderers draw them numbered, with a legend.
"""
from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

KEEP = 40  # marks kept in a state: enough for a round of six players, small enough to stay cheap
SHOWN = 12  # marks drawn on one image (the newest); older ones are counted in the legend


class Mark(BaseModel):
    """One visible thing that happened. `path` holds board labels ("G6", "C4") in order: a mover's
    path, or attacker then target, or a single square for a spawn, a drop or an explosion."""

    n: int = 0  # running number within the game (set by `add`)
    kind: str  # move, push, throw, drop, fumble, swat, catch, attack, spawn, loot, tumble, explode, ...
    by: str = ""  # the player whose turn it was (""): the game's own turn (monsters, the world)
    who: str = ""  # short name of the piece drawn ("Pe", "Ironscale")
    path: list[str] = Field(default_factory=list)
    hit: bool | None = None  # attacks: hit or miss
    text: str = ""  # one short legend line
    key: str = ""  # marks with the same key and kind may be extended (one move drawn as one path)
    turn: int = 0  # the game's turn counter when it happened, where the game numbers its turns


def add(marks: list[Mark], mark: Mark) -> Mark:
    """Append `mark` numbered after the last one; keep only the newest `KEEP`."""
    mark.n = (marks[-1].n + 1) if marks else 1
    marks.append(mark)
    if len(marks) > KEEP:
        del marks[: len(marks) - KEEP]
    return mark


def extend(marks: list[Mark], mark: Mark, to: str) -> Mark:
    """Grow the newest mark's path when it is the same move (same key, kind and piece); else start `mark`."""
    last = marks[-1] if marks else None
    if last is not None and mark.key and last.key == mark.key and last.kind == mark.kind and last.who == mark.who:
        if not last.path or last.path[-1] != to:
            last.path.append(to)
        return last
    if not mark.path or mark.path[-1] != to:
        mark.path.append(to)
    return add(marks, mark)


def since_last_turn(marks: Sequence[Mark], actors: Sequence[str], owner: str | None = None) -> list[Mark]:
    """The marks a player who must act now has not seen: their own turn so far, and everything done
    since their previous turn. Walking back from the newest mark: first the actors' own marks (this
    turn), then other turns' marks, up to the first mark of an earlier turn of theirs. `owner`: whose turn
    it is; when the actors only react during it, their newest marks are from an earlier turn."""
    out: list[Mark] = []
    mine = owner is None or owner in actors
    for m in reversed(marks):
        ours = m.by in actors and m.by != ""
        if mine and not ours:
            mine = False
        elif not mine and ours:
            break
        out.append(m)
    out.reverse()
    return out


def shown(marks: Sequence[Mark]) -> tuple[list[Mark], int]:
    """The marks to draw (the newest `SHOWN`) and how many older ones are left out."""
    keep = list(marks[-SHOWN:])
    return keep, len(marks) - len(keep)
