"""Defaults and small helpers the game manager's parts share: settings, the export format, text matching."""
from __future__ import annotations

from typing import Any

from games.core import IllegalAction, OptionSpec, Seat
from games.core.actions import echo
from storage import GameRecord

DEFAULT_SETTINGS: dict[str, Any] = {"deadline_hours": 48, "reminder_hours": 24, "paused": False}
EXPORT_FORMAT = "playpost-export"
EXPORT_VERSION = 1


def squash(text: str) -> str:
    """Case, spaces and punctuation do not matter when matching typed text: 'Von W' finds 'vonwilding'."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def pick(spec: OptionSpec, value: str, game: str) -> str:
    """A value for an option with fixed choices, spelled as the choice is (any case accepted)."""
    if not spec.choices:
        return value
    for choice in spec.choices:
        if choice.casefold() == value.strip().casefold():
            return choice
    article = "an" if spec.name[:1].lower() in "aeiou" else "a"  # "not an intercept", "not a dungeon"
    raise IllegalAction(f"`{echo(value)}` is not {article} {spec.name} in {game}.",
                        "Choose one of: " + ", ".join(spec.choices) + ".")


def seats_of(rec: GameRecord) -> list[Seat]:
    return [Seat(player=s.player, name=s.name, choices=dict(s.choices)) for s in rec.seats]
