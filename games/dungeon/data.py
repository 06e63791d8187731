"""Rules content of the dungeon game: heroes, monsters, cards, dungeons and house values.

Everything here is loaded from `data/*.json` and validated by pydantic at import time;
a broken file raises `RulesDataError` naming the file and the problem.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from games.core import RulesDataError
from games.core.grid import parse_label

DATA_DIR = Path(__file__).parent / "data"

DEBUFFS = ("bane", "fire", "hex", "ice", "immobile", "knockdown", "poison", "slow")
STATS = ("str", "arm", "will", "dex")
STYLES = ("melee", "ranged", "magic")
STYLE_STAT = {"melee": "str", "ranged": "dex", "magic": "will"}
RANKS = {"minion": 0, "elite": 1, "boss": 2}
Text = str  # models below have a field called `str` (the STR stat)
_DICE_RE = re.compile(r"(\d+)([BRGS])")


class Dice(BaseModel):
    """A roll spec: coloured dice plus flat stars ("2B1R", "1S", "0")."""

    model_config = ConfigDict(frozen=True)

    dice: tuple[Text, ...] = ()  # colours, e.g. ("B", "B", "R")
    stars: int = 0

    @classmethod
    def parse(cls, text: str) -> Dice:
        text = text.replace(" ", "").upper()
        if text in ("", "0"):
            return cls()
        pos, dice, stars = 0, [], 0
        for m in _DICE_RE.finditer(text):
            if m.start() != pos:
                break
            pos = m.end()
            n, kind = int(m.group(1)), m.group(2)
            if kind == "S":
                stars += n
            else:
                dice.extend([kind] * n)
        if pos != len(text):
            raise ValueError(f"`{text}` is not a dice spec like 2B1R or 1S")
        order = {"B": 0, "R": 1, "G": 2}
        return cls(dice=tuple(sorted(dice, key=order.__getitem__)), stars=stars)

    def __add__(self, other: Dice) -> Dice:
        order = {"B": 0, "R": 1, "G": 2}
        return Dice(dice=tuple(sorted(self.dice + other.dice, key=order.__getitem__)), stars=self.stars + other.stars)

    def text(self) -> str:
        parts = []
        for colour in "BRG":
            n = self.dice.count(colour)
            if n:
                parts.append(f"{n}{colour}")
        if self.stars or not parts:
            parts.append(f"{self.stars}S" if self.stars >= 0 else f"{self.stars}S")
        return "".join(parts)


def _dice_field(v: object) -> Dice:
    if isinstance(v, Dice):
        return v
    if isinstance(v, str):
        return Dice.parse(v)
    raise ValueError("expected a dice spec string")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bonus(_Model):
    str: Dice = Dice()
    arm: Dice = Dice()
    will: Dice = Dice()
    dex: Dice = Dice()
    move: int = 0
    ap: int = 0
    potions: int = 0
    life: int = 0

    @field_validator("str", "arm", "will", "dex", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)


class Profile(_Model):
    """An alternative stat line a hero can switch to (shapeshifters)."""

    name: Text
    move: int | None = None
    str: Dice | None = None
    arm: Dice | None = None
    will: Dice | None = None
    dex: Dice | None = None
    attacks: dict[Literal["melee", "ranged", "magic"], int] | None = None
    attributes: tuple[Text, ...] | None = None
    unique: tuple[Text, ...] | None = None

    @field_validator("str", "arm", "will", "dex", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice | None:
        return None if v is None else _dice_field(v)


class HeroDef(_Model):
    id: Text
    name: Text
    house: bool = False
    species: Text = ""
    affinity: tuple[Text, ...] = ()
    move: int
    ap: int
    str: Dice
    arm: Dice
    will: Dice
    dex: Dice
    life: int
    potions: int
    attacks: dict[Literal["melee", "ranged", "magic"], int]
    attributes: tuple[Text, ...] = ()
    immune: tuple[Text, ...] = ()
    unique: tuple[Text, ...] = ()
    profiles: tuple[Profile, ...] = ()

    @field_validator("str", "arm", "will", "dex", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)


class UniqueAction(_Model):
    name: Text
    kind: Literal["attack", "heal", "buff"]  # buff: an assist giving `buff` immunities (2nd-edition cards)
    ap: int
    range: int = 1
    style: Literal["melee", "ranged", "magic"] | None = None
    stat: Literal["str", "dex", "will"] | None = None
    bonus: Dice = Dice()
    inflicts: tuple[Text, ...] = ()
    area: Literal["single", "adjacent", "around_target", "all"] = "single"
    amount: int = 1
    cure: bool = False
    buff: tuple[Text, ...] = ()  # immunities a successful action bestows as a buff ("all" or debuffs)
    dangerous: bool = False  # the user risks a wound (house reading, games/dungeon/cards.py)

    @field_validator("bonus", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)

    @model_validator(mode="after")
    def _attack_has_style(self) -> UniqueAction:
        if self.kind == "attack" and (self.style is None or self.stat is None):
            raise ValueError(f"attack action {self.name} needs style and stat")
        for d in self.inflicts + self.buff:
            if d not in DEBUFFS + ("all",):
                raise ValueError(f"{self.name} names unknown debuff {d}")
        return self


class MonsterAttack(_Model):
    style: Literal["melee", "ranged", "magic"]
    range: int = 1


class SpecialStep(_Model):
    """One step of a boss's special move, as data: an effect kind and its parameters.

    react: take `amount` more reactions. summon: bring `amount` monsters into play, the level pool's
    next ones (`kind` empty) or new ones of `kind`, placed next to the spawn point or (`near: self`)
    next to the boss. heal: remove `amount` wounds from the boss (`targets: self`) or from every
    friendly monster within `range` in sight (`targets: allies`). blast: attack every hero within
    `range` in sight, incapacitated ones too, with the boss's attack stat plus `bonus` dice,
    inflicting `inflicts` on a hit.
    """

    effect: Literal["react", "summon", "heal", "blast"]
    amount: int = Field(default=1, ge=1, le=6)
    range: int = Field(default=2, ge=0, le=12)
    kind: Text = ""
    near: Literal["spawn", "self"] = "spawn"
    targets: Literal["self", "allies"] = "self"
    bonus: Dice = Dice()
    inflicts: tuple[Text, ...] = ()

    @field_validator("bonus", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)

    @model_validator(mode="after")
    def _known_debuffs(self) -> SpecialStep:
        for d in self.inflicts:
            if d not in DEBUFFS:
                raise ValueError(f"special step inflicts unknown debuff {d}")
        return self


class MonsterDef(_Model):
    id: Text
    name: Text
    house: bool = False
    rank: Literal["minion", "elite", "boss"]
    species: tuple[Text, ...] = ()
    affinity: tuple[Text, ...] = ()  # the colours Goop works with
    move: int
    ap: int = 1
    large: bool = False
    str: Dice
    arm: Dice
    will: Dice
    dex: Dice
    life: int
    attributes: tuple[Text, ...] = ()
    immune: tuple[Text, ...] = ()
    attack: MonsterAttack
    behaviour: Literal["melee", "ranged", "support", "cowardly"] = "melee"
    support_range: int = 0
    special: tuple[SpecialStep, ...] = ()
    boss_cards: tuple[Text, ...] = ()
    guardian: bool = False  # a chest's Boo Booty: not part of any level's count
    shift_to: Text = ""  # Forced Shift: the monster it becomes when destroyed

    @field_validator("str", "arm", "will", "dex", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)


class Card(_Model):
    id: Text
    name: Text
    deck: Literal["loot", "treasure", "boss"]
    bonus: Bonus = Bonus()
    affinity: Text | None = None
    affinity_bonus: Bonus | None = None
    attributes: tuple[Text, ...] = ()
    immune: tuple[Text, ...] = ()
    booty: bool = False
    actions: tuple[Text, ...] = ()  # card actions (unique actions the card gives), ids in cards.json `actions`


class Aura(_Model):
    name: Text
    side: Literal["heroes", "monsters"]
    roll: Literal["offence", "defence"]
    bonus: int


class LevelDef(_Model):
    name: Text
    area: Text
    spawn: Text
    chest: Text
    pool: tuple[Text, ...]
    aura: Aura


class DungeonDef(_Model):
    id: Text
    name: Text
    width: int = Field(ge=4, le=40)
    height: int = Field(ge=4, le=40)
    terrain: tuple[Text, ...]
    walls: tuple[Text, ...]
    start: tuple[Text, ...]
    levels: tuple[LevelDef, ...]


class SpawnPointDef(_Model):
    armour: Dice
    life: int

    @field_validator("armour", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)


class HouseRules(_Model):
    house: bool = True
    dice: dict[Literal["B", "R", "G"], tuple[tuple[int, int], ...]]
    ap_costs: dict[Text, int]
    picklock_defence: Dice
    smash_defence: Dice
    potion_heals: int
    potion_cures_all: bool
    heal_amount: int
    heal_range: int
    max_equipment: int
    max_treasure: int
    screen_range: int
    aura_range: int
    level_bonus: tuple[tuple[Literal["B", "R", "G"], ...], ...]
    spawn_point: SpawnPointDef
    opening_spawn_min: int

    @field_validator("picklock_defence", "smash_defence", mode="before")
    @classmethod
    def _d(cls, v: object) -> Dice:
        return _dice_field(v)

    @field_validator("dice")
    @classmethod
    def _six_faces(cls, v: dict) -> dict:
        for colour, faces in v.items():
            if len(faces) != 6:
                raise ValueError(f"die {colour} must have 6 faces")
        return v


TERRAIN_CHARS = {
    ".": "open", "#": "structure", ",": "difficult", "*": "brambles", "~": "chasm",
    "^": "lava", "C": "champion", "S": "sentinel", "G": "goddess",
}
KNOWN_ATTRIBUTES = {
    "alchemist", "backlash", "bane", "beast_hunter", "dodge", "dragon_spite", "feint", "fire", "flesh_bane",
    "fly", "ghost", "healer", "hex", "holy", "ice", "immobile", "jinx", "knockdown", "mob", "natures_bane",
    "nine_lives", "poison", "shapeshifter", "slow", "small", "stalwart", "tough", "enhanced_defences",
    # issue 16 (games/dungeon/attributes.py and the hooks it names)
    "ambush", "berserk", "blood_scent", "burrow", "dawn_of_the_dead", "dragon_rage", "forced_shift", "grabby",
    "gross", "packmaster", "pile_on", "raise", "savage", "stealth", "surefoot", "virulent", "luck", "treasure_map",
    "sidestep", "static_charge", "goop",
}


def known_attribute(a: str) -> bool:
    """A name in KNOWN_ATTRIBUTES, or `vulnerable:<debuff>` (Vulnerable: Debuff)."""
    if a.startswith("vulnerable:"):
        return a.split(":", 1)[1] in DEBUFFS
    return a in KNOWN_ATTRIBUTES


class Content(BaseModel):
    """All rules data, cross-checked."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    rules: HouseRules
    heroes: dict[Text, HeroDef]
    unique: dict[Text, UniqueAction]
    monsters: dict[Text, MonsterDef]
    cards: dict[Text, Card]
    dungeons: dict[Text, DungeonDef]


def _read(name: str) -> Any:
    path = DATA_DIR / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"{name}: cannot be read: {exc}") from exc


def _read_object(name: str) -> dict[str, Any]:
    """A data file's top-level object with its notes stripped."""
    d = _strip_notes(_read(name))
    if not isinstance(d, dict):
        raise RulesDataError(f"{name}: the top level must be an object")
    return d


def _strip_notes(d: object) -> object:
    """Drop `_note` style keys (comments in the JSON files) at every depth."""
    if isinstance(d, dict):
        return {k: _strip_notes(v) for k, v in d.items() if not k.startswith("_")}
    if isinstance(d, list):
        return [_strip_notes(v) for v in d]
    return d


def _check_area(text: str) -> tuple[int, int, int, int]:
    a, _, b = text.partition("-")
    pa, pb = parse_label(a), parse_label(b)
    if pa is None or pb is None:
        raise ValueError(f"area `{text}` must look like A1-L12")
    return min(pa[0], pb[0]), min(pa[1], pb[1]), max(pa[0], pb[0]), max(pa[1], pb[1])


def validate_content(c: Content) -> None:
    """Cross-file checks: every id referenced exists, maps are well formed."""
    for h in c.heroes.values():
        for u in h.unique + tuple(x for p in h.profiles for x in (p.unique or ())):
            if u not in c.unique:
                raise ValueError(f"hero {h.id} names unknown unique action {u}")
        for a in h.attributes + tuple(x for p in h.profiles for x in (p.attributes or ())):
            if not known_attribute(a):
                raise ValueError(f"hero {h.id} has unknown attribute {a}")
    for m in c.monsters.values():
        for a in m.attributes:
            if not known_attribute(a):
                raise ValueError(f"monster {m.id} has unknown attribute {a}")
        if ("forced_shift" in m.attributes) != bool(m.shift_to) or (m.shift_to and m.shift_to not in c.monsters):
            raise ValueError(f"monster {m.id}: forced_shift needs shift_to naming a monster (and the other way round)")
        for cid in m.boss_cards:
            if cid not in c.cards or c.cards[cid].deck != "boss":
                raise ValueError(f"monster {m.id} names unknown boss card {cid}")
        for step in m.special:
            if step.kind and (step.kind not in c.monsters or c.monsters[step.kind].rank == "boss"):
                raise ValueError(f"monster {m.id} summons unknown or boss monster `{step.kind}`")
    for card in c.cards.values():
        for a in card.attributes:
            if not known_attribute(a):
                raise ValueError(f"card {card.id} grants unknown attribute {a}")
        for u in card.actions:
            if u not in c.unique:
                raise ValueError(f"card {card.id} names unknown card action {u}")
    if len(c.rules.level_bonus) < 1:
        raise ValueError("rules.level_bonus must list one entry per level")
    for d in c.dungeons.values():
        validate_dungeon(c, d)


def validate_dungeon(c: Content, d: DungeonDef) -> None:
    """One dungeon's map and levels: well formed, and every level reachable from the start (hand-made or built)."""
    if len(d.terrain) != d.height or any(len(row) != d.width for row in d.terrain):
        raise ValueError(f"dungeon {d.id}: terrain must be {d.height} rows of {d.width} characters")
    for row in d.terrain:
        for ch in row:
            if ch not in TERRAIN_CHARS:
                raise ValueError(f"dungeon {d.id}: unknown terrain character {ch!r}")
    if len(d.levels) != len(c.rules.level_bonus):
        raise ValueError(f"dungeon {d.id}: needs {len(c.rules.level_bonus)} levels")
    for w in d.walls:
        parse_wall(w, d.width, d.height)
    for s in d.start:
        p = parse_label(s)
        if p is None or not (0 <= p[0] < d.width and 0 <= p[1] < d.height):
            raise ValueError(f"dungeon {d.id}: start square {s} is off the map")
    for lv in d.levels:
        x0, y0, x1, y1 = _check_area(lv.area)
        for sq in (lv.spawn, lv.chest):
            p = parse_label(sq)
            if p is None or not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
                raise ValueError(f"dungeon {d.id}: {sq} is not inside level area {lv.area}")
            if d.terrain[p[1]][p[0]] != ".":
                raise ValueError(f"dungeon {d.id}: {sq} must be open terrain")
        bosses = [k for k in lv.pool if k in c.monsters and c.monsters[k].rank == "boss"]
        for k in lv.pool:
            if k not in c.monsters:
                raise ValueError(f"dungeon {d.id}: level {lv.name} pool names unknown monster {k}")
        if len(bosses) != 1:
            raise ValueError(f"dungeon {d.id}: level {lv.name} needs exactly one boss in its pool")
    _check_connected(d)


def _check_connected(d: DungeonDef) -> None:
    """Every level's spawn point and chest must be reachable on foot from the heroes' start."""
    vwalls: set[tuple[int, int]] = set()
    hwalls: set[tuple[int, int]] = set()
    for w in d.walls:
        for kind, a, b in parse_wall(w, d.width, d.height):
            (vwalls if kind == "v" else hwalls).add((a, b))

    def open_sq(x: int, y: int) -> bool:
        return 0 <= x < d.width and 0 <= y < d.height and TERRAIN_CHARS[d.terrain[y][x]] not in (
            "structure", "champion", "sentinel", "goddess", "chasm")

    start = parse_label(d.start[0])
    assert start is not None
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for nx, ny, blocked in ((x + 1, y, (x + 1, y) in vwalls), (x - 1, y, (x, y) in vwalls),
                                (x, y + 1, (x, y + 1) in hwalls), (x, y - 1, (x, y) in hwalls)):
            if not blocked and (nx, ny) not in seen and open_sq(nx, ny):
                seen.add((nx, ny))
                todo.append((nx, ny))
    for lv in d.levels:
        for sq in (lv.spawn, lv.chest):
            p = parse_label(sq)
            assert p is not None
            near = [(p[0] + dx, p[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
            if not any(n in seen for n in near):
                raise ValueError(f"dungeon {d.id}: {sq} of level {lv.name} cannot be reached from the start")


def parse_wall(text: str, width: int, height: int) -> list[tuple[str, int, int]]:
    """'A1-A5 E' -> edges. An edge ('v', X, y) is the line x=X beside row y; ('h', x, Y) likewise."""
    try:
        span, side = text.split()
        a, _, b = span.partition("-")
        pa = parse_label(a)
        pb = parse_label(b or a)
    except ValueError:
        pa = pb = None
        side = ""
    if pa is None or pb is None or side not in ("N", "E", "S", "W") or (pa[0] != pb[0] and pa[1] != pb[1]):
        raise ValueError(f"wall `{text}` must look like `A1-A5 E` (one row or column, side N/E/S/W)")
    edges = []
    for x in range(min(pa[0], pb[0]), max(pa[0], pb[0]) + 1):
        for y in range(min(pa[1], pb[1]), max(pa[1], pb[1]) + 1):
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"wall `{text}` leaves the map")
            if side == "E":
                edges.append(("v", x + 1, y))
            elif side == "W":
                edges.append(("v", x, y))
            elif side == "N":
                edges.append(("h", x, y))
            else:
                edges.append(("h", x, y + 1))
    return edges


T = TypeVar("T")  # a `per_content` table


class per_content(Generic[T]):  # noqa: N801 - used as a decorator, named as a function
    """`fn(content())` once per content object (`held`: it and the table), for loops over every model."""

    held: tuple[Content, T] | None

    def __init__(self, fn: Callable[[Content], T]) -> None:
        self.fn, self.held = fn, None

    def __call__(self) -> T:
        c, held = content(), self.held
        if held is None or held[0] is not c:
            held = self.held = (c, self.fn(c))
        return held[1]


@cache
def content() -> Content:
    """Load and validate every data file once."""
    try:
        heroes_raw = _read_object("heroes.json")
        monsters_raw = _read_object("monsters.json")
        cards_raw = _read_object("cards.json")
        dungeons_raw = _read_object("dungeons.json")
        rules = HouseRules.model_validate(_read_object("rules.json"))
        heroes = [HeroDef.model_validate(h) for h in heroes_raw["heroes"]]
        unique = {k: UniqueAction.model_validate(v) for k, v in heroes_raw["unique_actions"].items()}
        card_actions = {k: UniqueAction.model_validate(v) for k, v in cards_raw.get("actions", {}).items()}
        if set(unique) & set(card_actions):
            raise ValueError(f"card actions reuse unique action ids {sorted(set(unique) & set(card_actions))}")
        unique.update(card_actions)
        monsters = [MonsterDef.model_validate(m) for m in monsters_raw["monsters"]]
        cards = [Card.model_validate(x) for x in cards_raw["cards"]]
        dungeons = [DungeonDef.model_validate(x) for x in dungeons_raw["dungeons"]]
        for kind, items in (("hero", heroes), ("monster", monsters), ("card", cards), ("dungeon", dungeons)):
            ids = [i.id for i in items]
            if len(ids) != len(set(ids)):
                raise ValueError(f"duplicate {kind} id")
        c = Content(
            rules=rules,
            heroes={h.id: h for h in heroes},
            unique=unique,
            monsters={m.id: m for m in monsters},
            cards={x.id: x for x in cards},
            dungeons={x.id: x for x in dungeons},
        )
        validate_content(c)
    except (ValidationError, ValueError, KeyError) as exc:
        if isinstance(exc, RulesDataError):
            raise
        raise RulesDataError(f"dungeon rules data is invalid: {exc}") from exc
    return c


# ---- names players type -> ids ---------------------------------------------------------------------
def norm(text: str) -> str:
    """A name as compared with what a player typed: case, spaces and punctuation ignored."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def hero_id(text: str) -> str | None:
    """The hero kind a player's text names (by id or name), if any."""
    key = norm(text)
    for hid, hd in content().heroes.items():
        if key in (hid, norm(hd.name)):
            return hid
    return None


def card_id(text: str) -> str | None:
    """The card a player's text names (by id or name), if any."""
    want = norm(text)
    for cid, card in content().cards.items():
        if want in (norm(cid), norm(card.name)):
            return cid
    return None
