"""The house dice: faces, rolls from the state's generator, scores and how a roll is written.

Every roll goes through `roll_dice` (called as `dice.roll_dice`), so tests can script the faces in one place.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, Protocol, overload

from .data import Content, Dice, per_content
from .state import Die, DungeonState

Colour = Literal["B", "R", "G"]  # a die's colour letter, as the house dice table is keyed
_EXPECT = {"B": 4 / 6, "R": 9 / 6, "G": 11 / 6}
NO_DICE = Dice()


class Rolled(NamedTuple):
    """A die rolled for the moment only (a monster's attack and the hero's defence against it): scored, told
    and forgotten, never kept in the state, so no validated `Die` is built for it."""

    colour: str
    face: int


class Face(Protocol):
    """What scoring and telling a die read of it: a `Die` or a `Rolled`."""

    @property
    def colour(self) -> str: ...

    @property
    def face(self) -> int: ...


@per_content
def _faces(c: Content) -> dict[tuple[str, int], tuple[int, int]]:
    """(colour, face) -> (stars, heart), the house dice table flattened."""
    return {(colour, n): (stars, heart) for colour, faces in c.rules.dice.items()
            for n, (stars, heart) in enumerate(faces)}


def face(d: Face) -> tuple[int, int]:
    """(stars, heart) of a rolled die, by the house dice table."""
    return _faces()[(d.colour, d.face)]


@overload
def roll_dice(st: DungeonState, colours: Sequence[str], kept: Literal[True] = ...) -> list[Die]: ...


@overload
def roll_dice(st: DungeonState, colours: Sequence[str], kept: Literal[False]) -> list[Rolled]: ...


def roll_dice(st: DungeonState, colours: Sequence[str], kept: bool = True) -> Any:
    """One die of each colour from the state's generator. `kept=False`: dice that never enter the state, as
    plain `Rolled` tuples (the same faces from the same draws)."""
    below = st.rng.below
    if kept:
        return [Die(colour=c, face=below(6)) for c in colours]
    return [Rolled(c, below(6)) for c in colours]


def die_text(d: Face, faces: dict[tuple[str, int], tuple[int, int]] | None = None) -> str:
    """How a die is written (`faces`: the house dice table, `_faces()`, when the caller has it)."""
    stars, heart = (faces or _faces())[(d.colour, d.face)]
    shown = "♥" if heart else (str(stars) if stars else "-")
    return f"{d.colour}{shown}"


def score(dice: Sequence[Face], stars: int, discard_highest: bool,
          hearts_as_star: bool = False) -> tuple[int, list[int]]:
    """Total of a roll and the indices of the dice that count (hex/bane discard the highest). A score is a count of
    stars rolled plus flat stars, so it is never below 0: minus stars (explorer difficulty, an aura, a small target,
    feint) can take a roll down to nothing, not under it, and a score of 0 never beats a defence (rule "Stars")."""
    values = []
    faces = _faces()  # `face` written out, the table read once
    for d in dice:
        s, heart = faces[(d.colour, d.face)]
        values.append(s + (1 if heart and hearts_as_star else 0))
    kept = list(range(len(dice)))
    if discard_highest and kept:
        top = max(kept, key=lambda i: (values[i], -i))
        kept.remove(top)
    return max(0, sum(values[i] for i in kept) + stars), kept


def roll_text(dice: Sequence[Face], stars: int, total: int, kept: list[int]) -> str:
    faces = _faces()
    parts = [die_text(d, faces) + ("" if i in kept else "(x)") for i, d in enumerate(dice)]
    if stars:
        parts.append(f"{stars:+d}")
    return (" ".join(parts) if parts else "0") + f" = {total}"


def expected(d: Dice) -> float:
    return sum(_EXPECT[c] for c in d.dice) + d.stars
