"""Scenarios: the models of a scenario file, composing its map from board tiles, the checks, and loading.

The shipped scenarios are `games/quodd/data/scenarios/*.json`; a server adds its own from the directory named by
the environment variable `PLAYPOST_QUODD_SCENARIOS` (read once, at the first load). A shipped file that is wrong
stops the bot (it is our mistake); a server's file that is wrong is refused with its file, line and reason
(`refused()`, and a warning in the log) and the bot plays on with the good ones. The format is documented in
`games/quodd/data/README.md`.
"""
from __future__ import annotations

import bisect
import json
import logging
import os
from functools import cache
from json.decoder import scanstring  # type: ignore[attr-defined]  # the C scanner, not in the stubs
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from games.core import RulesDataError
from games.core.grid import label, parse_label

from .data import DATA, GROUPED, VOID, _Strict, boards, token_kinds
from .data import heroes as hero_defs

SERVER_DIR_ENV = "PLAYPOST_QUODD_SCENARIOS"
log = logging.getLogger(__name__)


class ScenarioError(RulesDataError):
    """A scenario that breaks a rule of the format; `loc` is the path of the offending key in its file."""

    def __init__(self, text: str, loc: tuple[str | int, ...] = ()) -> None:
        super().__init__(text)
        self.loc = loc


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
    # "choose": the first player chooses once the heroes are placed (rule 1); a direction: the scenario chose it
    # (the first reading, kept so that the games of scenarios written so replay unchanged)
    facing: Literal["N", "E", "S", "W", "choose"] = "N"


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
    objective: Literal["race", "heist", "trial"]  # how it is won (`goals.py`)
    mode: Literal["solo", "coop", "ffa", "teams", "overlord", "buddies"]  # who plays with whom (`modes/`)
    teams: list[str] = Field(default_factory=list)  # mode teams: the teams' names, two or more
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
    # a sheep coming down on a hero with room: "ask" the hero (rule 4), or "auto" (the first reading: taken
    # unasked; the default, so that the games of scenarios written before replay unchanged)
    sheep_pickup: Literal["auto", "ask"] = "auto"
    intro: str
    special_rules: list[str] = Field(default_factory=list)
    # the overlord, buddies and multi-part scenarios (`modes/overlord.py`, `modes/buddies.py`, `modes/campaign.py`)
    overlord_target: int = Field(default=0, ge=0)  # mode overlord: the overlord's own objective (crystals/markers)
    overlord_movement: int = Field(default=0, ge=0)  # mode overlord: the overlord's movement bonus
    buddies: int = Field(default=0, ge=0, le=2)  # mode buddies: buddy heroes each player runs besides their own
    next_part: str = ""  # multi-part: the scenario this one leads into when won (`modes/campaign.py`)



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
    for i, p in enumerate(sc.boards):
        b = boards().get(p.board)
        if b is None:
            raise ScenarioError(f"scenario {sc.id}: unknown board {p.board!r}", ("boards", i, "board"))
        at = parse_label(p.at)
        if at is None:
            raise ScenarioError(f"scenario {sc.id}: bad board position {p.at!r}", ("boards", i, "at"))
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
                    raise ScenarioError(f"scenario {sc.id}: boards overlap at {label(ox + x, oy + y)}", ("boards",))
                grid[oy + y][ox + x] = ch
                board_of[label(ox + x, oy + y)] = bid
        for (x, y), letter in links.items():
            all_links[label(ox + x, oy + y)] = letter
    letters: dict[str, int] = {}
    for letter in all_links.values():
        letters[letter] = letters.get(letter, 0) + 1
    for letter, n in letters.items():
        if n < 2:
            raise ScenarioError(f"scenario {sc.id}: water connection {letter} has no partner", ("boards",))
    return MapLayout(width=width, height=height, rows=["".join(r) for r in grid], links=all_links, board_of=board_of)


def check_scenario(sc: ScenarioDef) -> MapLayout:
    """Compose the map and apply the token placement rules to the scenario's tokens."""
    layout = compose(sc)
    carried = _check_living(sc, layout)
    kinds = token_kinds()
    seen: set[str] = set()
    rally: list[int] = []
    for i, t in enumerate(sc.tokens):
        loc: tuple[str | int, ...] = ("tokens", i)
        xy = parse_label(t.at)
        where = f"scenario {sc.id}: {t.kind} at {t.at}"
        if t.kind not in kinds:
            raise ScenarioError(f"{where}: unknown token kind", (*loc, "kind"))
        if xy is None or not (0 <= xy[0] < layout.width and 0 <= xy[1] < layout.height):
            raise ScenarioError(f"{where}: not on the map", (*loc, "at"))
        ch = layout.rows[xy[1]][xy[0]]
        if ch == VOID:
            raise ScenarioError(f"{where}: no board square there", (*loc, "at"))
        if t.at.upper() in seen:
            raise ScenarioError(f"{where}: a token already lies there (tokens never cover each other)", (*loc, "at"))
        seen.add(t.at.upper())
        if ch == "R":
            raise ScenarioError(f"{where}: tokens may never be placed on respawn points", (*loc, "at"))
        if ch == "O" and t.kind != "wall" and t.at.upper() not in carried:
            raise ScenarioError(f"{where}: only walls may be placed in pits", (*loc, "at"))
        if ch == "s":
            raise ScenarioError(f"{where}: start spaces hold heroes, and tokens never go under a hero", (*loc, "at"))
        if t.kind == "rally":
            rally.append(t.number)
        if t.kind in GROUPED and not t.group:
            raise ScenarioError(f"{where}: needs a group linking switches to what they flip", loc)
        if t.kind == "secret" and not sc.secret_pool:
            raise ScenarioError(f"{where}: the scenario has secret tokens but no secret_pool", loc)
        if (t.kind == "cannon") != bool(t.dir):
            raise ScenarioError(f"{where}: a cannon, and only a cannon, says where its opening points (dir N/E/S/W)",
                                (*loc, "dir"))
        if (t.kind == "character") != bool(t.hero) or t.hero and t.hero not in hero_defs():
            raise ScenarioError(f"{where}: a character token, and only one, names a hero id (hero)", (*loc, "hero"))
    for k in sc.secret_pool:
        if k in ("cannon", "character"):
            raise ScenarioError(f"scenario {sc.id}: a secret {k} could not say its direction or hero", ("secret_pool",))
        if k not in kinds:
            raise ScenarioError(f"scenario {sc.id}: secret_pool names unknown token {k!r}", ("secret_pool",))
    secrets = sum(1 for t in sc.tokens if t.kind == "secret")
    if secrets > len(sc.secret_pool):
        raise ScenarioError(f"scenario {sc.id}: {secrets} secret tokens but only {len(sc.secret_pool)} in the pool",
                            ("secret_pool",))
    numbered = sorted(rally) == list(range(1, len(rally) + 1))
    if sc.objective != "heist" and not (rally and numbered):
        raise ScenarioError(f"scenario {sc.id}: rally markers must be numbered 1..N", ("tokens",))
    if sc.objective == "heist":
        if sc.target < 1:
            raise ScenarioError(f"scenario {sc.id}: a heist needs a target of crystals", ("objective",))
        crystals = sum(1 for t in sc.tokens if t.kind == "crystal")
        if crystals + len(sc.sheep) < sc.target:  # a sheep banked on a drop zone counts as a crystal does
            flock = f" and {len(sc.sheep)} sheep" if sc.sheep else ""
            raise ScenarioError(f"scenario {sc.id}: target {sc.target} but only {crystals} crystals{flock}",
                                ("target",))
        if not any("D" in r for r in layout.rows) and not any(t.kind == "drop_zone" for t in sc.tokens):
            raise ScenarioError(f"scenario {sc.id}: a heist needs a drop zone", ("tokens",))
    starts = sum(r.count("s") for r in layout.rows)
    heroes = sc.max_players * (1 + (sc.buddies if sc.mode == "buddies" else 0))  # a buddy is placed like a hero
    if starts < heroes:
        raise ScenarioError(f"scenario {sc.id}: {starts} start spaces for up to {heroes} heroes", ("max_players",))
    if not any("R" in r for r in layout.rows):
        raise ScenarioError(f"scenario {sc.id}: the map has no respawn point", ("boards",))
    _check_mode(sc)
    return layout


def _check_mode(sc: ScenarioDef) -> None:
    """Who plays with whom fits the seats: co-op needs two heroes, teams two or more teams of two or more."""
    if not sc.id or sc.id != sc.id.lower() or not sc.id.replace("-", "").replace("_", "").isalnum():
        raise ScenarioError(f"scenario {sc.id!r}: an id is lower-case letters, digits, - and _ (what players type)",
                            ("id",))
    if sc.min_players > sc.max_players:
        raise ScenarioError(f"scenario {sc.id}: min_players {sc.min_players} is above max_players {sc.max_players}",
                            ("min_players",))
    if sc.mode == "teams":
        if len(sc.teams) < 2 or len(set(sc.teams)) != len(sc.teams) or not all(t.strip() for t in sc.teams):
            raise ScenarioError(f"scenario {sc.id}: a teams scenario names two or more different teams", ("teams",))
        if sc.min_players < 2 * len(sc.teams):
            raise ScenarioError(f"scenario {sc.id}: {len(sc.teams)} teams of two or more need min_players "
                                f"{2 * len(sc.teams)} or more", ("min_players",))
    elif sc.teams:
        raise ScenarioError(f"scenario {sc.id}: only a scenario of mode teams names teams", ("teams",))
    if sc.mode == "overlord":
        if sc.min_players < 2:
            raise ScenarioError(f"scenario {sc.id}: one against all needs two players or more", ("min_players",))
        if sc.overlord_target < 1:
            raise ScenarioError(f"scenario {sc.id}: the overlord needs an objective (overlord_target)",
                                ("overlord_target",))
    elif sc.overlord_target or sc.overlord_movement:
        raise ScenarioError(f"scenario {sc.id}: only an overlord scenario has overlord_ fields", ("overlord_target",))
    if (sc.mode == "buddies") != (sc.buddies > 0):
        raise ScenarioError(f"scenario {sc.id}: a buddies scenario (and only one) says how many `buddies` each "
                            "player runs", ("buddies",))
    if sc.mode == "coop" and sc.min_players < 2:
        raise ScenarioError(f"scenario {sc.id}: co-op is for two or more players (one player: mode solo)",
                            ("min_players",))


def _check_living(sc: ScenarioDef, layout: MapLayout) -> set[str]:
    """Sheep stand on free ground; platforms cover pits only, never each other (the squares they cover)."""
    def square(at: str, where: str, loc: tuple[str | int, ...]) -> str:
        p = parse_label(at)
        if p is None or not (0 <= p[0] < layout.width and 0 <= p[1] < layout.height):
            raise ScenarioError(f"scenario {sc.id}: {where} at {at}: not on the map", loc)
        return layout.rows[p[1]][p[0]]
    covered: set[str] = set()
    for i, pl in enumerate(sc.platforms):
        ploc: tuple[str | int, ...] = ("platforms", i)
        where = f"{pl.kind} platform"
        if (pl.kind == "slide") != (pl.dir in ("N", "E", "S", "W")):
            raise ScenarioError(f"scenario {sc.id}: a slide platform points N/E/S/W, a rotating one turns cw/ccw",
                                ploc)
        if pl.kind == "rotate" and pl.pivot.upper() not in [c.upper() for c in pl.cells]:
            raise ScenarioError(f"scenario {sc.id}: a rotating platform turns around one of its own cells", ploc)
        for c in pl.cells:
            if square(c, where, ploc) != "O" or c.upper() in covered:
                raise ScenarioError(f"scenario {sc.id}: {where} at {c}: platforms cover pits, never each other", ploc)
            covered.add(c.upper())
    blocks = {b.group for b in sc.beams if b.kind == "power"}
    for i, b in enumerate(sc.beams):
        bloc: tuple[str | int, ...] = ("beams", i)
        if square(b.at, f"beam {b.kind}", bloc) == "O" and b.at.upper() not in covered:
            raise ScenarioError(f"scenario {sc.id}: beam {b.kind} at {b.at}: gadgets stand on ground or platforms",
                                bloc)
        if (b.kind == "power" and not b.group) or (b.kind == "emitter" and b.group and b.group not in blocks):
            raise ScenarioError(f"scenario {sc.id}: beam {b.kind} at {b.at}: group {b.group!r} has no power block",
                                bloc)
    for i, sh in enumerate(sc.sheep):
        if square(sh.at, "sheep", ("sheep", i)) not in ".R" and sh.at.upper() not in covered:
            raise ScenarioError(f"scenario {sc.id}: sheep at {sh.at}: sheep start on plain ground", ("sheep", i))
    return covered


# ---- loading: the shipped files, then a server's own -----------------------------------------------------
def key_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """The line of every key (and list item) of a JSON text, by its path: where a validation error points."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    dec = json.JSONDecoder()
    out: dict[tuple[str | int, ...], int] = {}

    def line(i: int) -> int:
        return bisect.bisect_left(newlines, i) + 1

    def ws(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: tuple[str | int, ...]) -> int:
        i = ws(i)
        out.setdefault(path, line(i))
        if text[i] not in "{[":
            return dec.raw_decode(text, i)[1]
        close, n = ("}" if text[i] == "{" else "]"), 0
        i = ws(i + 1)
        while text[i] != close:
            if close == "}":
                at = i
                key, i = scanstring(text, i + 1)
                out[(*path, key)] = line(at)
                i = value(ws(i) + 1, (*path, key))  # past the colon
            else:
                i = value(i, (*path, n))
                n += 1
            i = ws(i)
            if text[i] == ",":
                i = ws(i + 1)
        return i + 1

    value(0, ())
    return out


def _where(text: str, loc: tuple[str | int, ...]) -> int:
    """The line of the deepest part of `loc` the text has (line 1 for the file as a whole)."""
    lines = key_lines(text)
    for n in range(len(loc), 0, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return 1


def load_file(path: Path) -> ScenarioDef:
    """One scenario file, checked; a ScenarioError names the file, the line and the reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path.name}: cannot read: {exc}") from exc
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path.name}, line {exc.lineno}: not JSON: {exc.msg}") from exc
    try:
        sc = ScenarioDef.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        where = ".".join(str(x) for x in loc) or "the file"
        raise ScenarioError(f"{path.name}, line {_where(text, loc)}: {where}: {err['msg']}", loc) from exc
    try:
        check_scenario(sc)
    except ScenarioError as exc:
        raise ScenarioError(f"{path.name}, line {_where(text, exc.loc)}: {exc}", exc.loc) from exc
    except RulesDataError as exc:
        raise ScenarioError(f"{path.name}, line 1: {exc}") from exc
    return sc


def server_dir() -> Path | None:
    """The server's own scenario directory (`PLAYPOST_QUODD_SCENARIOS`), if one is set."""
    value = os.environ.get(SERVER_DIR_ENV, "").strip()
    return Path(value) if value else None


@cache
def _loaded() -> tuple[dict[str, ScenarioDef], tuple[str, ...]]:
    out: dict[str, ScenarioDef] = {}
    for path in sorted((DATA / "scenarios").glob("*.json")):
        sc = load_file(path)  # a shipped file that is wrong is our bug: it stops the load
        if sc.id in out:
            raise RulesDataError(f"scenario id {sc.id!r} appears twice")
        out[sc.id] = sc
    if not out:
        raise RulesDataError("no scenarios found in games/quodd/data/scenarios")
    problems: list[str] = []
    extra = server_dir()
    if extra is not None:
        if not extra.is_dir():
            problems.append(f"{SERVER_DIR_ENV}={extra}: not a directory")
        for path in sorted(extra.glob("*.json")) if extra.is_dir() else []:
            try:
                sc = load_file(path)
            except RulesDataError as exc:
                problems.append(str(exc))
                continue
            if sc.id in out:
                problems.append(f"{path.name}, line {_where(path.read_text(encoding='utf-8'), ('id',))}: "
                                f"scenario id {sc.id!r} is taken")
                continue
            out[sc.id] = sc
    for sid, why in check_parts(out):
        problems.append(why)
        out.pop(sid, None)
    for p in problems:
        log.warning("Quodd scenario refused: %s", p)
    return out, tuple(problems)


def check_parts(found: dict[str, ScenarioDef]) -> list[tuple[str, str]]:
    """A multi-part scenario leads into one that exists, and never back round: (scenario id, why) of each that does
    not. A shipped scenario's mistake stops the load (it is ours)."""
    bad: list[tuple[str, str]] = []
    for sc in found.values():
        seen, nxt = {sc.id}, sc.next_part
        while nxt:
            why = (f"scenario {sc.id}: next_part {nxt!r} is not a scenario" if nxt not in found else
                   f"scenario {sc.id}: its parts lead round in a circle at {nxt!r}" if nxt in seen else "")
            if why:
                if (DATA / "scenarios" / f"{sc.id}.json").exists():
                    raise ScenarioError(why, ("next_part",))
                bad.append((sc.id, why))
                break
            seen.add(nxt)
            nxt = found[nxt].next_part
    return bad


def scenarios() -> dict[str, ScenarioDef]:
    """Every scenario by id: the shipped ones and the server's good ones."""
    return _loaded()[0]


def refused() -> tuple[str, ...]:
    """The server's scenario files refused at load: file, line and reason each."""
    return _loaded()[1]


def reload() -> None:
    """Forget what was loaded (tests; a server picks up its directory at the next start)."""
    _loaded.cache_clear()
