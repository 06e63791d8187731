"""The game's content, loaded from `data/house.json` and validated once at import.

Code holds mechanisms; numbers, names and rules texts live in `data/`. A broken file
raises `RulesDataError` naming the file and the problem, so a typo fails the first test
run instead of a game in progress. A real game keeps its heroes, cards or maps here the
same way, one model per kind of thing.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.core import RulesDataError

DATA_DIR = Path(__file__).parent / "data"


class House(BaseModel):
    """The count game's numbers and words (`data/house.json`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    colours: tuple[str, ...] = Field(min_length=1)  # seat colours, in the order offered
    targets: tuple[str, ...] = Field(min_length=1)  # the `target` game option's choices; the first is the default
    win_at: int = Field(ge=1)  # the points that end the game (see README: house readings)
    last_round: int = Field(ge=1)  # after this round the leader wins
    adds_per_turn: int = Field(ge=0)
    add_amounts: tuple[str, ...] = Field(min_length=1)  # the values of `add n:`
    die: int = Field(ge=2)  # sides of the rolled die
    bonus_die: int = Field(ge=1)  # sides of the die that deals each secret bonus
    decide_hours: float = Field(gt=0)  # how long a rolled die waits for keep or discard
    topics: dict[str, str] = Field(min_length=1)  # /rules topics, in our own words

    @model_validator(mode="after")
    def _consistent(self) -> House:
        if len(set(self.colours)) != len(self.colours):
            raise ValueError("colours must be distinct")
        if not all(a.isdigit() and int(a) > 0 for a in self.add_amounts):
            raise ValueError("add_amounts must be positive whole numbers")
        if not all(t.isdigit() for t in self.targets):
            raise ValueError("targets must be whole numbers")
        if not all(text.strip() for text in self.topics.values()):
            raise ValueError("every rules topic needs a text")
        return self


@cache
def house() -> House:
    path = DATA_DIR / "house.json"
    try:
        return House.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError) as exc:  # JSONDecodeError and ValidationError are ValueErrors
        raise RulesDataError(f"{path.name}: {exc}") from exc


HOUSE = house()
