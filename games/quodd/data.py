"""Rules content loaded from games/quodd/data/: skills, heroes, token kinds, boards, scenarios.

Everything is validated by pydantic at load; a bad file raises RulesDataError naming
the file and what is wrong. The engine refers to content by id only.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.core import RulesDataError
from games.core.grid import label, parse_label

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


class Placement(_Strict):
    board: str
    at: str  # map label of the board's north-west square after turning
    turn: Literal[0, 90, 180, 270] = 0  # clockwise


class TokenPlacement(_Strict):
    at: str
    kind: str
    number: int = 0  # rally markers
    group: str = ""  # switch / trap door / impassable wall link, water: colour name
    colour: str = ""  # crystals
    dir: Literal["", "N", "E", "S", "W"] = ""  # cannons: the way the opening points (where its bombs roll)
    hero: str = ""  # character tokens: the hero id the token stands for


class SheepPlacement(_Strict):
    at: str
    colour: Literal["grey", "white", "black"]
    facing: Literal["N", "E", "S", "W"] = "N"  # house: the scenario stands in for the first player's choice


class PlatformPlacement(_Strict):
    cells: list[str] = Field(min_length=1)  # pit squares the platform covers at the start
    kind: Literal["slide", "rotate"]
    dir: Literal["N", "E", "S", "W", "cw", "ccw"]
    pivot: str = ""  # rotate: the square it turns around (one of its cells)


class BeamPlacement(_Strict):
    at: str
    kind: Literal["emitter", "reflector", "mover", "rotator", "power"]
    dir: str = ""  # emitter/mover N/E/S/W; reflector NE/SE/SW/NW (the sides its mirror faces); rotator cw/ccw
    on: bool = True
    group: str = ""  # a power block and the emitters it switches

    @model_validator(mode="after")
    def _dir(self) -> BeamPlacement:
        want = {"emitter": ("N", "E", "S", "W"), "mover": ("N", "E", "S", "W"), "reflector": ("NE", "SE", "SW", "NW"),
                "rotator": ("cw", "ccw"), "power": ("",)}[self.kind]
        if self.dir not in want:
            raise ValueError(f"beam {self.kind} at {self.at}: dir must be one of {', '.join(want) or 'nothing'}")
        return self


class ScenarioDef(_Strict):
    id: str
    name: str
    mode: Literal["race", "heist", "solo"]
    house: bool = True
    min_players: int = Field(ge=1)
    max_players: int = Field(le=6)
    round_limit: int = Field(ge=1)
    target: int = 0  # heist: crystals to deliver
    carry_limit: int | None = None
    facing: Literal["N", "E", "S", "W"] | None = None  # default: towards the middle of the map
    pass_coin: bool = True
    boards: list[Placement]
    tokens: list[TokenPlacement] = Field(default_factory=list)
    secret_pool: list[str] = Field(default_factory=list)
    sheep: list[SheepPlacement] = Field(default_factory=list)
    platforms: list[PlatformPlacement] = Field(default_factory=list)
    beams: list[BeamPlacement] = Field(default_factory=list)
    intro: str
    special_rules: list[str] = Field(default_factory=list)


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


def _turn_rows(rows: list[str], links: dict[tuple[int, int], str], turn: int
               ) -> tuple[list[str], dict[tuple[int, int], str]]:
    """Rotate a board clockwise in quarter turns; current arrows turn with it."""
    cw = {"^": ">", ">": "v", "v": "<", "<": "^"}
    for _ in range(turn // 90):
        h, w = len(rows), len(rows[0])
        grid = [["."] * h for _ in range(w)]
        new_links = {}
        for y in range(h):
            for x in range(w):
                nx, ny = h - 1 - y, x
                grid[ny][nx] = cw.get(rows[y][x], rows[y][x])
                if (x, y) in links:
                    new_links[(nx, ny)] = links[(x, y)]
        rows, links = ["".join(r) for r in grid], new_links
    return rows, links


class MapLayout(BaseModel):
    width: int
    height: int
    rows: list[str]
    links: dict[str, str]
    board_of: dict[str, str]  # map label -> board id (for the legend / future board rotation)


def compose(sc: ScenarioDef) -> MapLayout:
    """Lay a scenario's boards out into one map; squares outside every board are void."""
    parts = []
    for p in sc.boards:
        b = boards().get(p.board)
        if b is None:
            raise RulesDataError(f"scenario {sc.id}: unknown board {p.board!r}")
        at = parse_label(p.at)
        if at is None:
            raise RulesDataError(f"scenario {sc.id}: bad board position {p.at!r}")
        links = {xy: v for k, v in b.links.items() if (xy := parse_label(k)) is not None}
        rows, links = _turn_rows(b.rows, links, p.turn)
        parts.append((b.id, at, rows, links))
    width = max(at[0] + len(rows[0]) for _, at, rows, _ in parts)
    height = max(at[1] + len(rows) for _, at, rows, _ in parts)
    grid = [[VOID] * width for _ in range(height)]
    all_links: dict[str, str] = {}
    board_of: dict[str, str] = {}
    for bid, (ox, oy), rows, links in parts:
        for y, r in enumerate(rows):
            for x, ch in enumerate(r):
                if grid[oy + y][ox + x] != VOID:
                    raise RulesDataError(f"scenario {sc.id}: boards overlap at {label(ox + x, oy + y)}")
                grid[oy + y][ox + x] = ch
                board_of[label(ox + x, oy + y)] = bid
        for (x, y), letter in links.items():
            all_links[label(ox + x, oy + y)] = letter
    letters: dict[str, int] = {}
    for letter in all_links.values():
        letters[letter] = letters.get(letter, 0) + 1
    for letter, n in letters.items():
        if n < 2:
            raise RulesDataError(f"scenario {sc.id}: water connection {letter} has no partner")
    return MapLayout(width=width, height=height, rows=["".join(r) for r in grid], links=all_links, board_of=board_of)


def check_scenario(sc: ScenarioDef) -> MapLayout:
    """Compose the map and apply the token placement rules to the scenario's tokens."""
    layout = compose(sc)
    carried = _check_living(sc, layout)
    kinds = token_kinds()
    seen: set[str] = set()
    rally: list[int] = []
    for t in sc.tokens:
        xy = parse_label(t.at)
        where = f"scenario {sc.id}: {t.kind} at {t.at}"
        if t.kind not in kinds:
            raise RulesDataError(f"{where}: unknown token kind")
        if xy is None or not (0 <= xy[0] < layout.width and 0 <= xy[1] < layout.height):
            raise RulesDataError(f"{where}: not on the map")
        ch = layout.rows[xy[1]][xy[0]]
        if ch == VOID:
            raise RulesDataError(f"{where}: no board square there")
        if t.at.upper() in seen:
            raise RulesDataError(f"{where}: a token already lies there (tokens never cover each other)")
        seen.add(t.at.upper())
        if ch == "R":
            raise RulesDataError(f"{where}: tokens may never be placed on respawn points")
        if ch == "O" and t.kind != "wall" and t.at.upper() not in carried:
            raise RulesDataError(f"{where}: only walls may be placed in pits")
        if ch == "s":
            raise RulesDataError(f"{where}: start spaces hold heroes, and tokens never go under a hero")
        if t.kind == "rally":
            rally.append(t.number)
        if t.kind in GROUPED and not t.group:
            raise RulesDataError(f"{where}: needs a group linking switches to what they flip")
        if t.kind == "secret" and not sc.secret_pool:
            raise RulesDataError(f"{where}: the scenario has secret tokens but no secret_pool")
        if (t.kind == "cannon") != bool(t.dir):
            raise RulesDataError(f"{where}: a cannon, and only a cannon, says where its opening points (dir N/E/S/W)")
        if (t.kind == "character") != bool(t.hero) or t.hero and t.hero not in heroes():
            raise RulesDataError(f"{where}: a character token, and only one, names a hero id (hero)")
    for k in sc.secret_pool:
        if k in ("cannon", "character"):
            raise RulesDataError(f"scenario {sc.id}: a secret {k} could not say its direction or hero")
        if k not in kinds:
            raise RulesDataError(f"scenario {sc.id}: secret_pool names unknown token {k!r}")
    secrets = sum(1 for t in sc.tokens if t.kind == "secret")
    if secrets > len(sc.secret_pool):
        raise RulesDataError(f"scenario {sc.id}: {secrets} secret tokens but only {len(sc.secret_pool)} in the pool")
    numbered = sorted(rally) == list(range(1, len(rally) + 1))
    if sc.mode in ("race", "solo") and not numbered or (sc.mode != "heist" and not rally):
        raise RulesDataError(f"scenario {sc.id}: rally markers must be numbered 1..N")
    if sc.mode == "heist":
        if sc.target < 1:
            raise RulesDataError(f"scenario {sc.id}: a heist needs a target of crystals")
        crystals = sum(1 for t in sc.tokens if t.kind == "crystal")
        if crystals < sc.target:
            raise RulesDataError(f"scenario {sc.id}: target {sc.target} but only {crystals} crystals")
        if not any("D" in r for r in layout.rows) and not any(t.kind == "drop_zone" for t in sc.tokens):
            raise RulesDataError(f"scenario {sc.id}: a heist needs a drop zone")
    starts = sum(r.count("s") for r in layout.rows)
    if starts < sc.max_players:
        raise RulesDataError(f"scenario {sc.id}: {starts} start spaces for up to {sc.max_players} players")
    if not any("R" in r for r in layout.rows):
        raise RulesDataError(f"scenario {sc.id}: the map has no respawn point")
    return layout


def _check_living(sc: ScenarioDef, layout: MapLayout) -> set[str]:
    """Sheep stand on free ground; platforms cover pits only, never each other (the squares they cover)."""
    def square(at: str, where: str) -> str:
        p = parse_label(at)
        if p is None or not (0 <= p[0] < layout.width and 0 <= p[1] < layout.height):
            raise RulesDataError(f"scenario {sc.id}: {where} at {at}: not on the map")
        return layout.rows[p[1]][p[0]]
    covered: set[str] = set()
    for pl in sc.platforms:
        where = f"{pl.kind} platform"
        if (pl.kind == "slide") != (pl.dir in ("N", "E", "S", "W")):
            raise RulesDataError(f"scenario {sc.id}: a slide platform points N/E/S/W, a rotating one turns cw/ccw")
        if pl.kind == "rotate" and pl.pivot.upper() not in [c.upper() for c in pl.cells]:
            raise RulesDataError(f"scenario {sc.id}: a rotating platform turns around one of its own cells")
        for c in pl.cells:
            if square(c, where) != "O" or c.upper() in covered:
                raise RulesDataError(f"scenario {sc.id}: {where} at {c}: platforms cover pits, never each other")
            covered.add(c.upper())
    blocks = {b.group for b in sc.beams if b.kind == "power"}
    for b in sc.beams:
        if square(b.at, f"beam {b.kind}") == "O" and b.at.upper() not in covered:
            raise RulesDataError(f"scenario {sc.id}: beam {b.kind} at {b.at}: gadgets stand on ground or platforms")
        if (b.kind == "power" and not b.group) or (b.kind == "emitter" and b.group and b.group not in blocks):
            raise RulesDataError(f"scenario {sc.id}: beam {b.kind} at {b.at}: group {b.group!r} has no power block")
    for sh in sc.sheep:
        if square(sh.at, "sheep") not in ".R" and sh.at.upper() not in covered:
            raise RulesDataError(f"scenario {sc.id}: sheep at {sh.at}: sheep start on plain ground")
    return covered


@cache
def scenarios() -> dict[str, ScenarioDef]:
    out: dict[str, ScenarioDef] = {}
    for path in sorted((DATA / "scenarios").glob("*.json")):
        sc = _load(f"scenarios/{path.name}", ScenarioDef)
        if sc.id in out:
            raise RulesDataError(f"scenario id {sc.id!r} appears twice")
        check_scenario(sc)
        out[sc.id] = sc
    if not out:
        raise RulesDataError("no scenarios found in games/quodd/data/scenarios")
    return out


# ---- the exploration and treasure decks (cards.json) -------------------------------------------------
CARD_KINDS = ("food", "rune", "item", "pet", "tool")
EFFECTS = ("boost", "place", "remove", "move", "break", "explore", "wipe", "equip")
TARGETED = ("place", "remove", "move", "break")  # effects aimed at a square within the card's range


class EffectDef(_Strict):
    """What a card does, as data: the engine implements each `do` once (games/quodd/cards.py)."""

    do: Literal["boost", "place", "remove", "move", "break", "explore", "wipe", "equip"]
    points: int = 0  # boost: movement points
    skill: str = ""  # boost: one skill id, "" for every skill
    token: str = ""  # place: the token kind
    n: int = 0  # explore: cards drawn from the deck
    movement: int = 0  # equip, passive: movement points every turn
    explore: int = 0  # equip, passive: explorations every turn
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
        return self


@cache
def cards() -> dict[str, CardDef]:
    found = _by_id(_load_all("cards.json", CardDef), "cards.json")
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
