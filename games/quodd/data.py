"""Rules content loaded from games/quodd/data/: skills, heroes, token kinds, boards, cards, upgrades, events.

Scenarios (their models, the map composed from boards, the checks, the loading) are in `scenarios.py`.

Everything is validated by pydantic at load; a bad file raises RulesDataError naming
the file and what is wrong. The engine refers to content by id only.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.core import RulesDataError
from games.core.grid import label, parse_label

if TYPE_CHECKING:
    from .scenarios import MapLayout, ScenarioDef

DATA = Path(__file__).parent / "data"

# Printed features, one character per square in a board's rows.
FEATURES: dict[str, str] = {
    ".": "ground", "O": "pit", "^": "current", ">": "current", "v": "current", "<": "current",
    "@": "whirlpool", "R": "respawn", "s": "start", "D": "drop", "w": "link",
}
ARROW = {"^": "N", ">": "E", "v": "S", "<": "W"}
VOID = "#"  # no square here: outside every board of the map (counts as a pit)
# Token kinds linked by a group: switches and what they flip.
GROUPED = ("switch", "trap_door", "trap_door_open", "impassable_up", "impassable_down", "switch_colour")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SkillDef(_Strict):
    id: str
    name: str
    icon: str  # two letters drawn on the hero
    mode: Literal["line", "dash", "tumble", "jump"]
    dirs: Literal["orthogonal", "diagonal", "all"]
    upgrade_bonus: int = 1
    upgrade_explore: int = 1
    text: str


class HeroDef(_Strict):
    id: str
    name: str
    q_power: str  # id of its unique Q-power (`qpowers.py`; rearrange is shared)
    q_text: str
    house: bool = False
    by_name_only: bool = False  # never dealt at random: added after games were saved, whose draws must replay
    default_skills: dict[str, str]


class TokenDef(_Strict):
    id: str
    name: str
    glyph: str
    scenario: bool = False  # scenario tokens survive explosions and are not "common stack" tokens
    text: str


class HouseValues(_Strict):
    house: bool = True
    base_movement: int = Field(ge=1)
    base_explore: int = Field(ge=0)
    carry_limit: int = Field(ge=1)
    chain_guard: int = Field(ge=20)
    decision_hours: int = Field(default=12, ge=1, le=168)  # a choice handed to a player off-turn
    bside_movement: int = Field(default=2, ge=1)  # the player board's B-side: every skill's base movement
    note: str = ""


class BoardDef(_Strict):
    id: str
    name: str
    kind: Literal["board", "start"]
    house: bool = True
    rows: list[str]
    links: dict[str, str] = Field(default_factory=dict)  # local label -> water-connection letter

    @model_validator(mode="after")
    def _shape(self) -> BoardDef:
        want = (9, 9) if self.kind == "board" else None
        h, w = len(self.rows), len(self.rows[0]) if self.rows else 0
        if any(len(r) != w for r in self.rows):
            raise ValueError(f"board {self.id}: rows differ in length")
        if want and (w, h) != want:
            raise ValueError(f"board {self.id}: a 9x9 board has 9 rows of 9 squares, got {w}x{h}")
        if self.kind == "start" and sorted((w, h)) != [2, 9]:
            raise ValueError(f"start zone {self.id}: must be 2x9 or 9x2, got {w}x{h}")
        for r in self.rows:
            for ch in r:
                if ch not in FEATURES:
                    raise ValueError(f"board {self.id}: unknown feature code {ch!r}")
        for lab, letter in self.links.items():
            xy = parse_label(lab)
            if xy is None or not (0 <= xy[0] < w and 0 <= xy[1] < h) or self.rows[xy[1]][xy[0]] != "w":
                raise ValueError(f"board {self.id}: water connection {lab} is not on a 'w' square")
            if not (len(letter) == 1 and letter.isalpha() and letter.isupper()):
                raise ValueError(f"board {self.id}: water connection letter {letter!r} must be one capital letter")
        for y, r in enumerate(self.rows):
            for x, ch in enumerate(r):
                if ch == "w" and label(x, y) not in self.links:
                    raise ValueError(f"board {self.id}: water connection at {label(x, y)} has no letter")
        return self


M = TypeVar("M", bound=BaseModel)


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


D = TypeVar("D", bound=_HasId)


def _read(name: str) -> Any:
    path = DATA / name
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"{path.name}: cannot read: {exc}") from exc


def _invalid(name: str, exc: ValidationError) -> RulesDataError:
    return RulesDataError(f"{Path(name).name}: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}")


def _load(name: str, model: type[M]) -> M:
    """One validated object from a data file."""
    raw = _read(name)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise _invalid(name, exc) from exc


def _load_all(name: str, model: type[M]) -> list[M]:
    """A data file holding a list of objects, each validated."""
    raw = _read(name)
    if not isinstance(raw, list):
        raise RulesDataError(f"{Path(name).name}: expected a list")
    try:
        return [model.model_validate(x) for x in raw]
    except ValidationError as exc:
        raise _invalid(name, exc) from exc


def _by_id(items: list[D], what: str) -> dict[str, D]:
    out: dict[str, D] = {}
    for it in items:
        if it.id in out:
            raise RulesDataError(f"{what}: id {it.id!r} appears twice")
        out[it.id] = it
    return out


@cache
def skills() -> dict[str, SkillDef]:
    return _by_id(_load_all("skills.json", SkillDef), "skills.json")


@cache
def heroes() -> dict[str, HeroDef]:
    found = _by_id(_load_all("heroes.json", HeroDef), "heroes.json")
    for h in found.values():
        if sorted(h.default_skills) != sorted(["feet", "front", "back", "left", "right"]) or sorted(
            h.default_skills.values()
        ) != sorted(skills()):
            raise RulesDataError(f"heroes.json: {h.id} default_skills must give each of the five skills one face")
    return found


@cache
def token_kinds() -> dict[str, TokenDef]:
    return _by_id(_load_all("tokens.json", TokenDef), "tokens.json")


@cache
def house() -> HouseValues:
    return _load("house.json", HouseValues)


@cache
def boards() -> dict[str, BoardDef]:
    return _by_id(_load_all("boards.json", BoardDef), "boards.json")


# ---- scenarios: in `scenarios.py`; these spellings stay for callers of this module --------------------------
def scenarios() -> dict[str, ScenarioDef]:
    from .scenarios import scenarios as found
    return found()


def compose(sc: ScenarioDef) -> MapLayout:
    from .scenarios import compose as laid_out
    return laid_out(sc)


def check_scenario(sc: ScenarioDef) -> MapLayout:
    from .scenarios import check_scenario as checked
    return checked(sc)


# ---- the exploration and treasure decks (cards.json) -------------------------------------------------
CARD_KINDS = ("food", "rune", "item", "pet", "tool")
EFFECTS = ("boost", "place", "remove", "move", "break", "explore", "wipe", "equip")
TARGETED = ("place", "remove", "move", "break")  # effects aimed at a square within the card's range


class EffectDef(_Strict):
    """What a card does, as data: the engine implements each `do` once (games/quodd/cards.py)."""

    do: Literal["boost", "place", "remove", "move", "break", "explore", "wipe", "equip", "dash"]
    points: int = 0  # boost: movement points; dash: the points of a dash outside the movement (1)
    skill: str = ""  # boost: one skill id, "" for every skill
    token: str = ""  # place: the token kind
    n: int = 0  # explore: cards drawn from the deck
    movement: int = 0  # equip, passive: movement points every turn
    explore: int = 0  # equip, passive: explorations every turn
    freeze: bool = False  # equip, passive: water is ice to the hero (`board.glides`): currents and whirlpools
    # leave it be, and straight on across water its steps cost nothing (Freeze-O-Tron, rulebook FAQ)
    use: EffectDef | None = None  # equip: the once-per-turn activation


class CardDef(_Strict):
    id: str
    name: str
    kind: Literal["food", "rune", "item", "pet", "tool"]
    impulse: bool = False  # may be played on any player's turn (never during movement)
    equipped: bool = False  # stays in play in its slot (items and pets)
    range: int = Field(default=0, ge=0)  # orthogonal reach from your hero for targeted effects
    copies: int = Field(default=1, ge=1)
    treasure: bool = False  # the treasure deck (loot bag), not the exploration deck
    overlord: bool = False  # the overlord's own deck (`overlord.json`, the rulebook's sword icon), not the others'
    edition: int = Field(default=1, ge=1, le=3)  # the exploration deck's edition that brought it (game option deck)
    house: bool = True
    text: str
    effect: EffectDef

    @model_validator(mode="after")
    def _shape(self) -> CardDef:
        e = self.effect
        if (self.kind in ("item", "pet")) != self.equipped or (e.do == "equip") != self.equipped:
            raise ValueError(f"card {self.id}: items and pets are equipped (effect equip), nothing else is")
        if self.impulse and e.do in ("boost", "equip"):
            raise ValueError(f"card {self.id}: an impulse card cannot boost a movement or be equipped")
        aimed = [x.do for x in (e, e.use) if x is not None and x.do in TARGETED]
        if aimed and self.range < 1:
            raise ValueError(f"card {self.id}: a targeted effect needs a range")
        if e.use is not None and e.use.do == "equip":
            raise ValueError(f"card {self.id}: an activation cannot equip")
        if e.do == "dash" and e.points != 1:
            raise ValueError(f"card {self.id}: a card's dash is one point (`points: 1`)")
        if e.do == "dash" and (self.impulse or self.kind != "food"):
            raise ValueError(f"card {self.id}: a dash is a food card played on your own turn")
        return self


@cache
def cards() -> dict[str, CardDef]:
    """The exploration and treasure decks (`cards.json`) and the overlord deck (`overlord.json`, every card
    `overlord: true`), one id space."""
    mine = _load_all("overlord.json", CardDef)
    if not all(c.overlord for c in mine):
        raise RulesDataError("overlord.json: every card there is an overlord card (`overlord: true`)")
    found = _by_id(_load_all("cards.json", CardDef) + mine, "cards.json + overlord.json")
    for c in found.values():
        for e in (c.effect, c.effect.use):
            if e is None:
                continue
            if e.do == "place" and e.token not in token_kinds():
                raise RulesDataError(f"cards.json: {c.id} places an unknown token {e.token!r}")
            if e.do == "boost" and e.skill and e.skill not in skills():
                raise RulesDataError(f"cards.json: {c.id} boosts an unknown skill {e.skill!r}")
    return found


# ---- upgrade tiles (upgrades.json) --------------------------------------------------------------------
class AbilityDef(_Strict):
    """A named ability of the rulebook's "Upgrades and Q-powers" list that an upgrade side may carry.

    `when` says how it is used: `passive` (always on), `action` (your turn, phases 1 and 3: `/quodd ability`),
    `movement` (your movement phase: `/quodd ability`), `trigger` (it asks or acts by itself when its moment
    comes). `limit`: how often an action may be used (`turn`: once a turn; `""`: as often as its cost is paid).
    `gap`: what of it waits for parts of the game not built yet ("" = nothing)."""

    id: str
    name: str
    when: Literal["passive", "action", "movement", "trigger"]
    limit: Literal["", "turn"] = ""
    text: str
    gap: str = ""


class UpgradeSide(_Strict):
    """One side of an upgrade tile: +movement, +explore, the gold icon (flip a skill of your choice), or one
    named ability (`abilities.json`)."""

    movement: int = Field(default=0, ge=0)
    explore: int = Field(default=0, ge=0)
    gold: bool = False
    ability: str = ""

    @model_validator(mode="after")
    def _one(self) -> UpgradeSide:
        if (self.movement > 0) + (self.explore > 0) + self.gold + bool(self.ability) != 1:
            raise ValueError("an upgrade side gives exactly one of: movement, explore, gold, an ability")
        return self


class UpgradeTile(_Strict):
    a: UpgradeSide
    b: UpgradeSide


class HeroUpgrades(_Strict):
    hero: str
    house: bool = True
    tiles: list[UpgradeTile] = Field(min_length=6, max_length=6)


@cache
def upgrades() -> dict[str, list[UpgradeTile]]:
    found: dict[str, list[UpgradeTile]] = {}
    for u in _load_all("upgrades.json", HeroUpgrades):
        if u.hero not in heroes() or u.hero in found:
            raise RulesDataError(f"upgrades.json: hero {u.hero!r} is unknown or listed twice")
        found[u.hero] = u.tiles
    if set(found) != set(heroes()):
        raise RulesDataError("upgrades.json: every hero needs its six upgrade tiles")
    for hid, tiles in found.items():
        for n, t in enumerate(tiles, start=1):
            for s in (t.a, t.b):
                if s.ability and s.ability not in abilities():
                    raise RulesDataError(f"upgrades.json: {hid} tile {n} names an unknown ability {s.ability!r}")
    return found


@cache
def abilities() -> dict[str, AbilityDef]:
    return _by_id(_load_all("abilities.json", AbilityDef), "abilities.json")


# ---- world events (events.json) -----------------------------------------------------------------------
class EventDef(_Strict):
    """A world event card: a global effect played at the end of the round (step 2), or an ongoing one."""

    id: str
    name: str
    count: int = Field(default=1, ge=1)  # copies in the deck
    do: Literal["wind", "quake", "spin", "wipe", "explore", "ongoing", "clear"]
    n: int = Field(default=0, ge=0)  # spaces (wind), cards (explore)
    aim: Literal["", "die", "choice"] = ""  # wind/quake: the direction die, or the first player's choice
    movement: int = Field(default=0, ge=0)  # ongoing: + every hero's movement points
    explore: int = Field(default=0, ge=0)  # ongoing: + every hero's explorations in phase 4
    rulebook: bool = False  # named in the rulebook (else house)
    text: str


@cache
def world_events() -> dict[str, EventDef]:
    return _by_id(_load_all("events.json", EventDef), "events.json")
