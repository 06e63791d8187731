"""Heroball rules content: heroes, cards, gods and house values (data/house.json), validated at load,
and the /rules topics (data/topics.md) filled in from them."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from games.core import RulesDataError

DATA_FILE = Path(__file__).with_name("data") / "house.json"
TOPICS_FILE = DATA_FILE.with_name("topics.md")

Slot = Literal["defend", "intercept", "step", "run", "sprint", "throw", "drop", "push", "fumble", "unique"]
Effect = Literal[
    "knockdown_adjacent", "predict", "sing", "shift_terrain", "kick", "fly", "sprint_knockdown",
    "redecorate", "swat", "long_intercept", "distract", "invulnerable", "pole_vault", "sandals",
    "mirror_shield",
]
CORNERS = ("N", "NE", "SE", "S", "SW", "NW")


class Costs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    step: int
    run: int
    sprint: int
    push: int
    fumble: int
    throw: int
    drop: int
    defend: int
    intercept: int
    terrain: int
    favoured: int


class House(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    note: str = ""
    house: bool
    board_radius: int
    pillar_distance: int
    start_ap: int
    max_ap: int
    refresh_ap: int
    rest_ap: int
    rounds: int
    seed_tokens: int
    cost: Costs
    throw_range: int
    goal_points_carried: int
    goal_points_other: int
    start_corners: dict[str, list[str]]

    @model_validator(mode="before")
    @classmethod
    def _note(cls, v: Any) -> Any:
        if isinstance(v, dict) and "_note" in v:
            v = dict(v)
            v["note"] = v.pop("_note")
        return v

    @model_validator(mode="after")
    def _check(self) -> House:
        if not 0 < self.pillar_distance < self.board_radius:
            raise ValueError("pillar_distance must lie inside the board")
        for n, corners in self.start_corners.items():
            if len(corners) != int(n) or len(set(corners)) != len(corners):
                raise ValueError(f"start_corners[{n}] must name {n} different corners")
            bad = [c for c in corners if c not in CORNERS]
            if bad:
                raise ValueError(f"start_corners[{n}]: unknown corner {bad[0]}")
        if not 0 < self.start_ap <= self.max_ap:
            raise ValueError("start_ap must be between 1 and max_ap")
        return self


class God(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    terrain: str
    house: bool = False
    excluded: str | None = None  # reason a god may not be picked


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    name: str
    slot: Slot
    effect: Effect
    cost: int = 0
    range: int = 0
    reach: int = 0
    extra: int = 0
    flip: str | None = None  # name of the flipped side, if the card turns over
    flip_slot: Slot | None = None  # the slot the flipped side covers, when it moves (Fly's Feed: the sprint)
    house: bool = False
    text: str


class Hero(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    house: bool = False
    cards: tuple[Card, ...]
    objects: tuple[str, ...] = ()

    def card(self, effect: str) -> Card | None:
        for c in self.cards:
            if c.effect == effect:
                return c
        return None

    def slot(self, slot: str) -> Card | None:
        for c in self.cards:
            if c.slot == slot:
                return c
        return None


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    house: House
    terrains: tuple[str, ...]
    gods: tuple[God, ...]
    heroes: tuple[Hero, ...]

    @model_validator(mode="after")
    def _check(self) -> Rules:
        for g in self.gods:
            if g.terrain not in self.terrains:
                raise ValueError(f"god {g.name}: unknown terrain {g.terrain}")
        names = [h.name for h in self.heroes]
        if len(set(names)) != len(names):
            raise ValueError("hero names must be unique")
        for h in self.heroes:
            slots = [c.slot for c in h.cards]
            if len(set(slots)) != len(slots):
                raise ValueError(f"hero {h.name}: two cards on one slot")
            for o in h.objects:
                if o != "pole":
                    raise ValueError(f"hero {h.name}: unknown object {o}")
        ids = [c.id for h in self.heroes for c in h.cards]
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique")
        if len([g for g in self.gods if not g.excluded]) < 4:
            raise ValueError("at least 4 gods must be playable")
        if len(self.heroes) < 4:
            raise ValueError("at least 4 heroes are needed")
        return self

    def hero(self, name: str) -> Hero:
        for h in self.heroes:
            if h.name.casefold() == name.casefold():
                return h
        raise KeyError(name)

    def god(self, name: str) -> God:
        for g in self.gods:
            if g.name.casefold() == name.casefold():
                return g
        raise KeyError(name)

    @property
    def playable_gods(self) -> list[str]:
        return [g.name for g in self.gods if not g.excluded]


def parse_rules(text: str, source: str = "heroball rules") -> Rules:
    try:
        return Rules.model_validate(json.loads(text))
    except (ValidationError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"{source} is not valid Heroball rules data: {exc}") from exc


@cache
def rules() -> Rules:
    return parse_rules(DATA_FILE.read_text(encoding="utf-8"), DATA_FILE.name)


def topics(r: Rules, text: str | None = None) -> dict[str, str]:
    """The /rules reference: each `## topic` of topics.md with the house values filled in, then one topic per hero."""
    hv = r.house
    c = hv.cost
    values = {**hv.model_dump(exclude={"cost", "start_corners", "note"}), **c.model_dump(),
              "favoured_off": abs(c.favoured),
              "gods": ", ".join(f"{g.name} ({g.terrain})" for g in r.gods if not g.excluded)}
    out: dict[str, str] = {}
    for part in (text or TOPICS_FILE.read_text(encoding="utf-8")).split("\n## ")[1:]:
        name, _, body = part.partition("\n")
        out[name.strip()] = body.strip("\n").format(**values)
    for h in r.heroes:
        lines = [f"{card.name} ({card.slot}{', house card' if card.house else ''}): {card.text}" for card in h.cards]
        out[h.name.lower()] = ("House hero. " if h.house else "") + "\n".join(lines)
    # every other named thing, so that `/rules game:heroball topic:` autocompletes it: cards, gods, terrains
    for h in r.heroes:
        for card in h.cards:
            others = ", ".join(o.name for o in h.cards if o is not card)
            out.setdefault(card.name, f"{card.text}\nOne of {h.name}'s cards (the {card.slot} slot"
                                      f"{', a house card' if card.house else ''}); the others: {others}. "
                                      f"`/rules game:heroball topic:{h.name.lower()}` shows them all.")
    for g in r.gods:
        playable = ", ".join(x.name for x in r.gods if not x.excluded)
        out.setdefault(g.name, f"Barred: {g.excluded} Pick one of the others with `/game join god:`: {playable}."
                       if g.excluded else
                       f"A god to play for; favoured terrain: {g.terrain} (moving onto it costs "
                       f"{c.favoured:+d} AP instead of {c.terrain:+d}).")
    for t in r.terrains:
        fans = ", ".join(g.name for g in r.gods if g.terrain == t and not g.excluded)
        out.setdefault(t, f"Terrain: moving onto it costs {c.terrain:+d} AP, {c.favoured:+d} for heroes whose god "
                          f"favours it ({fans or 'none'}). Seed tokens put it on the field before round 1.")
    return out
