"""The monsters' reactions told two ways: in full (every roll's modifiers, each push, in the order the monsters
acted: the event's `detail`, shown by `/game log`) and compactly for the table: one line per monster that did
more than move, with its dice and result, and the monsters that only moved together on one line."""
from __future__ import annotations

import re

_MOVE = re.compile(r"^(?P<who>.+?) \((?P<src>[A-Z]+\d+)\) moves to (?P<dst>[A-Z]+\d+)\.$")
_PUSH = re.compile(r"^.+? pushes (?P<whom>.+?) back from [A-Z]+\d+ to [A-Z]+\d+\.$")
_NOTES = re.compile(r" \[[^\]]*\]")  # the roll's modifiers ("[mob +1B, aura +1]"): in the full account only


class Told(str):
    """A block of sentences whose text is the full account, and which also knows its compact form (`short`)."""

    short: str

    def __new__(cls, full: list[str], short: list[str]) -> Told:
        told = super().__new__(cls, "\n".join(full))
        told.short = "\n".join(short)
        return told


def add(mine: list[str], short: list[str], movers: list[str]) -> None:
    """One monster's reaction (its full lines) into the compact lines: a plain move (and the friends it pushed
    aside) becomes an entry of the shared movers' line, anything else one line of its own."""
    if not mine:
        return
    move = _MOVE.match(mine[0]) if " moves to " in mine[0] else None  # (the words the pattern needs: cheaper)
    pushed = [p.group("whom") for p in map(_PUSH.match, mine[1:]) if p] if move else []
    if move and len(pushed) == len(mine) - 1:
        entry = f"{move.group('who')} {move.group('src')}→{move.group('dst')}"
        movers.append(entry + (f" (pushing {', '.join(pushed)} aside)" if pushed else ""))
        return
    short.append(" ".join(_NOTES.sub("", line) if " [" in line else line for line in mine))


def plain(lines: list[str]) -> Told:
    """Sentences told in full and, for the table, without the rolls' modifiers (a boss's special move)."""
    return Told(lines, [_NOTES.sub("", line) for line in lines])


def block(full: list[str], short: list[str], movers: list[str]) -> Told:
    """The whole reaction: the full lines, and the compact ones with the movers' line last."""
    return Told(full, short + ([f"On the move: {', '.join(movers)}."] if movers else []))


def compact(lines: list[str]) -> str:
    """An action's sentences as the table reads them (a `Told` block in its compact form)."""
    return "\n".join(line.short if isinstance(line, Told) else line for line in lines)
