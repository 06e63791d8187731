"""The house dice: faces, rolls from the state's generator, scores and how a roll is written.

Every roll goes through `roll_dice` (called as `dice.roll_dice`), so tests can script the faces in one place.
"""
from __future__ import annotations

from typing import Literal, cast

from .data import Dice, content
from .state import Die, DungeonState

Colour = Literal["B", "R", "G"]  # a die's colour letter, as the house dice table is keyed
_EXPECT = {"B": 4 / 6, "R": 9 / 6, "G": 11 / 6}
NO_DICE = Dice()


def face(d: Die) -> tuple[int, int]:
    stars, heart = content().rules.dice[cast(Colour, d.colour)][d.face]
    return stars, heart


def roll_dice(st: DungeonState, colours: tuple[str, ...] | list[str]) -> list[Die]:
    return [Die(colour=c, face=st.rng.below(6)) for c in colours]


def die_text(d: Die) -> str:
    stars, heart = face(d)
    shown = "♥" if heart else (str(stars) if stars else "-")
    return f"{d.colour}{shown}"


def score(dice: list[Die], stars: int, discard_highest: bool, hearts_as_star: bool = False) -> tuple[int, list[int]]:
    """Total of a roll and the indices of the dice that count (hex/bane discard the highest)."""
    values = []
    for d in dice:
        s, heart = face(d)
        values.append(s + (1 if heart and hearts_as_star else 0))
    kept = list(range(len(dice)))
    if discard_highest and kept:
        top = max(kept, key=lambda i: (values[i], -i))
        kept.remove(top)
    return sum(values[i] for i in kept) + stars, kept


def roll_text(dice: list[Die], stars: int, total: int, kept: list[int]) -> str:
    parts = [die_text(d) + ("" if i in kept else "(x)") for i, d in enumerate(dice)]
    if stars:
        parts.append(f"{stars:+d}")
    return (" ".join(parts) if parts else "0") + f" = {total}"


def expected(d: Dice) -> float:
    return sum(_EXPECT[c] for c in d.dice) + d.stars
