"""The public view of a dungeon crawl: everything the board image and the side panel show, and the export summary."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from games.core import Status
from games.core.grid import label as sq_label
from games.core.marks import Mark, shown, since_last_turn

from .board import board
from .data import content
from .maps import dungeon_def
from .sight import target_name
from .state import DungeonState, HeroState
from .stats import Stats, hero_stats, is_incap, monster_def, stat_line


class HeroView(BaseModel):
    id: str
    hero: str
    player: str
    seat: int
    x: int
    y: int
    square: str
    wounds: int
    life: int
    potions: int
    max_potions: int
    ap_left: int
    equipment: list[str]
    treasure: int
    debuffs: list[str]
    activated: bool
    incapacitated: bool
    active: bool
    move: int = 0  # squares one move action buys (halved when slowed)
    move_left: int = 0  # squares left of the move action under way (the acting hero only)
    dice: dict[str, str] = Field(default_factory=dict)  # STR / ARM / WILL / DEX as dice specs, e.g. "2B1R"
    attacks: dict[str, int] = Field(default_factory=dict)  # attack style -> range in squares
    unique: dict[str, tuple[int, int]] = Field(default_factory=dict)  # own action name -> (AP cost, range)


class MonsterView(BaseModel):
    uid: int
    kind: str
    name: str
    code: str  # two letters drawn on the token
    rank: str
    x: int
    y: int
    large: bool
    wounds: int
    life: int
    debuffs: list[str]


class SpawnView(BaseModel):
    level: int
    x: int
    y: int
    state: str  # inactive / active / destroyed
    wounds: int
    life: int
    # an unopened spawn point near the heroes: its screen, the squares no hero may enter (empty: not drawn)
    screen: list[tuple[int, int]] = Field(default_factory=list)


class ChestView(BaseModel):
    level: int
    x: int
    y: int
    state: str


class LootView(BaseModel):
    name: str
    x: int
    y: int


class DungeonView(BaseModel):
    dungeon: str
    width: int
    height: int
    terrain: list[str]
    vwalls: list[tuple[int, int]]
    hwalls: list[tuple[int, int]]
    areas: list[tuple[int, int, int, int]]
    level: int
    level_name: str
    turn: int
    phase: str
    waiting_for: str
    heroes: list[HeroView]
    monsters: list[MonsterView]
    spawns: list[SpawnView]
    chests: list[ChestView]
    floor: list[LootView]
    next_spawn: str
    pool_left: int
    aura: list[tuple[int, int]] = Field(default_factory=list)
    result: str = ""
    turn_limit: int = 0  # the host's turn limit (0: none)
    difficulty: str = "normal"  # the house difficulty option: explorer, normal or veteran
    dungeon_name: str = ""
    recent: list[Mark] = Field(default_factory=list)  # since the acting player's last turn, numbered in order
    earlier: int = 0  # marks of that span too old to draw
    pending: list[Mark] = Field(default_factory=list)  # an attack waiting for its roller's decision
    explored: tuple[int, int, int, int] = (0, 0, 0, 0)  # columns and rows the image shows: x0, y0, x1, y1
    ap_costs: dict[str, int] = Field(default_factory=dict)  # what each hero action costs in AP (the house table)


def _code(name: str) -> str:
    words = [w for w in name.replace("'", "").split() if w]
    return (words[0][0] + words[1][0]).upper() if len(words) > 1 else name[:2].title()


def build_view(st: DungeonState, status: Status) -> DungeonView:
    b = board(st.dungeon)
    dd = dungeon_def(st.dungeon)
    c = content()
    heroes = []
    for h in st.heroes:
        s = stat_line(h)
        active = st.activation is not None and st.activation.hero == h.id
        ap_left = st.activation.ap if active and st.activation else (0 if h.activated or h.wounds >= s.life else s.ap)
        fixed = _hero_fixed(h, s)
        heroes.append(HeroView(
            id=h.id, player=h.name, seat=h.seat, x=h.x, y=h.y, square=sq_label(h.x, h.y),
            wounds=min(h.wounds, s.life), potions=h.potions, ap_left=ap_left,
            debuffs=h.debuffs, activated=h.activated, incapacitated=h.wounds >= s.life, active=active,
            move=(s.move + 1) // 2 if "slow" in h.debuffs else s.move,
            move_left=st.activation.move_left if active and st.activation else 0, **fixed))
    monsters = []
    for m in st.monsters:
        monsters.append(MonsterView(uid=m.uid, kind=m.kind, x=m.x, y=m.y, wounds=m.wounds, debuffs=m.debuffs,
                                    **_monster_fixed(m.kind)))
    life = c.rules.spawn_point.life
    near = near_screens(st)
    spawns = [SpawnView(level=i, x=b.spawns[i][0], y=b.spawns[i][1],
                        state="destroyed" if lv.destroyed else ("active" if lv.active else "inactive"),
                        wounds=lv.spawn_wounds, life=life,
                        screen=_screen(st.dungeon, i, c.rules.screen_range) if i in near else [])
                   for i, lv in enumerate(st.levels)]
    chests = [ChestView(level=i, x=b.chests[i][0], y=b.chests[i][1], state=lv.chest)
              for i, lv in enumerate(st.levels) if lv.chest != "none"]
    lv = st.levels[st.level]
    nxt = c.monsters[lv.pool[0]].name if lv.pool and not lv.destroyed else ""
    aura = _aura(st.dungeon, st.level, c.rules.aura_range) if lv.active and not lv.destroyed else []
    return DungeonView(
        level=st.level, level_name=dd.levels[st.level].name, turn=st.turn, phase=status.phase,
        waiting_for=status.waiting_for, heroes=heroes, monsters=monsters, spawns=spawns, chests=chests,
        floor=[LootView(name=c.cards[f.card].name, x=f.x, y=f.y) for f in st.floor],
        next_spawn=nxt, pool_left=0 if lv.destroyed else len(lv.pool), aura=aura,
        result=st.result_text, turn_limit=st.turn_limit, difficulty=st.difficulty,
        explored=explored(st), ap_costs=c.rules.ap_costs, **_map_fixed(st.dungeon), **recap(st, status))


# What a view repeats from move to move, worked out once: the map's, a stat line's and a monster kind's part
# (the view model copies every list and dict it is given, so these are never shared with a view). Keyed by the
# content they come from, which does not change while the process runs.
_FIXED: dict[tuple[object, ...], dict[str, Any]] = {}


def _fixed(key: tuple[object, ...]) -> dict[str, Any] | None:
    if len(_FIXED) > 5_000:
        _FIXED.clear()
    return _FIXED.get((id(content()), *key))


def _keep(key: tuple[object, ...], value: dict[str, Any]) -> dict[str, Any]:
    _FIXED[(id(content()), *key)] = value
    return value


def _map_fixed(dungeon: str) -> dict[str, Any]:
    found = _fixed(("map", dungeon))
    if found is None:
        b, dd = board(dungeon), dungeon_def(dungeon)
        found = _keep(("map", dungeon), dict(
            dungeon=dungeon, width=b.width, height=b.height, terrain=list(dd.terrain), vwalls=sorted(b.vwalls),
            hwalls=sorted(b.hwalls), areas=list(b.areas), dungeon_name=dd.name))
    return found


def _aura(dungeon: str, level: int, reach: int) -> list[tuple[int, int]]:
    found = _fixed(("aura", dungeon, level, reach))
    if found is None:
        found = _keep(("aura", dungeon, level, reach), {"aura": sorted(board(dungeon).aura(level, reach))})
    return list(found["aura"])


def _screen(dungeon: str, level: int, reach: int) -> list[tuple[int, int]]:
    found = _fixed(("screen", dungeon, level, reach))
    if found is None:
        found = _keep(("screen", dungeon, level, reach), {"screen": sorted(board(dungeon).screen(level, reach))})
    return list(found["screen"])


def near_screens(st: DungeonState) -> set[int]:
    """The levels whose unopened spawn point is near a standing hero: its screen is within one move action and the
    screen's range of the hero (the rule bars heroes from a visible unopened spawn point's screen, so the image
    shows the ones a move could run into, and the map's shown part takes them in)."""
    b = board(st.dungeon)
    reach = content().rules.screen_range
    out: set[int] = set()
    for i, lv in enumerate(st.levels):
        if lv.active or lv.destroyed:
            continue
        sx, sy = b.spawns[i]
        for h in st.heroes:
            if not is_incap(h) and max(abs(h.x - sx), abs(h.y - sy)) <= stat_line(h).move + reach:
                out.add(i)
                break
    return out


def _hero_fixed(h: HeroState, s: Stats) -> dict[str, Any]:
    """The parts of a hero's view that follow from its kind, profile and equipment."""
    key = ("hero", h.id, h.profile, *h.equipment)
    found = _fixed(key)
    if found is None:
        c = content()
        found = _keep(key, dict(
            hero=s.name, life=s.life, max_potions=s.potions, equipment=[c.cards[x].name for x in h.equipment],
            treasure=sum(1 for x in h.equipment if c.cards[x].deck != "loot"),
            dice={k.upper(): d.text() for k, d in s.dice.items()}, attacks=s.attacks,
            unique={c.unique[u].name: (c.unique[u].ap, c.unique[u].range) for u in s.unique if u in c.unique}))
    return found


def _monster_fixed(kind: str) -> dict[str, Any]:
    found = _fixed(("monster", kind))
    if found is None:
        md = content().monsters[kind]
        found = _keep(("monster", kind), dict(name=md.name, code=_code(md.name), rank=md.rank, large=md.large,
                                             life=md.life))
    return found


def recap(st: DungeonState, status: Status) -> dict[str, Any]:
    """The view's `recent`, `earlier` and `pending`: what the image draws of the play since the last turn."""
    recent, earlier = shown(since_last_turn(st.marks, status.to_act))
    pending: list[Mark] = []
    ctx = st.attack
    if ctx is not None and ctx.target:
        h = next(x for x in st.heroes if x.id == ctx.hero)
        key = ctx.target
        if key == "spawn":
            at = board(st.dungeon).spawns[st.level]
        else:
            m = next((x for x in st.monsters if x.uid == int(key[1:])), None)
            at = (m.x, m.y) if m is not None else (h.x, h.y)
        pending.append(Mark(kind="attack", by=h.player, who=hero_stats(h).name,
                            path=[sq_label(h.x, h.y), sq_label(*at)],
                            text=f"{hero_stats(h).name} attacks {target_name(st, key)}: dice to decide"))
    return {"recent": recent, "earlier": earlier, "pending": pending}


def explored(st: DungeonState) -> tuple[int, int, int, int]:
    """The part of the map the image shows: the areas of the levels reached so far and every model on the
    map, plus a margin of two squares, clipped to the map (x0, y0, x1, y1, inclusive)."""
    b = board(st.dungeon)
    xs: list[int] = []
    ys: list[int] = []
    for i, area in enumerate(b.areas):
        if i <= st.level:
            xs += [area[0], area[2]]
            ys += [area[1], area[3]]
    for px, py in [(h.x, h.y) for h in st.heroes] + [(m.x, m.y) for m in st.monsters] + \
            [(f.x, f.y) for f in st.floor]:
        xs.append(px)
        ys.append(py)
    reach = content().rules.screen_range
    for i in near_screens(st):  # an unopened spawn point a move could run into, with its whole screen
        sx, sy = b.spawns[i]
        xs += [sx - reach, sx + reach]
        ys += [sy - reach, sy + reach]
    if not xs:
        return 0, 0, b.width - 1, b.height - 1
    return (max(0, min(xs) - 2), max(0, min(ys) - 2), min(b.width - 1, max(xs) + 2), min(b.height - 1, max(ys) + 2))


def summary(st: DungeonState) -> dict[str, Any]:
    """The export's summary: level, turn, result, each hero's state and each monster."""
    players = []
    for h in st.heroes:
        stats = hero_stats(h)
        active = st.activation is not None and st.activation.hero == h.id
        ap_left = st.activation.ap if active and st.activation else (0 if h.activated or is_incap(h) else stats.ap)
        players.append({
            "name": h.name, "player": h.player, "hero": stats.name, "position": sq_label(h.x, h.y),
            "wounds": h.wounds, "life": stats.life, "potions": h.potions, "ap_left": ap_left,
            "debuffs": list(h.debuffs), "incapacitated": is_incap(h),
            "equipment": [content().cards[c].name for c in h.equipment],
        })
    out: dict[str, Any] = {
        "level": st.level + 1,
        "turn": st.turn,
        "result": st.result,
        "players": players,
        "monsters": [{"kind": monster_def(m).name, "position": sq_label(m.x, m.y), "wounds": m.wounds}
                     for m in st.monsters],
    }
    if st.turn_limit:
        out["turn_limit"] = st.turn_limit
    if st.difficulty != "normal":
        out["difficulty"] = st.difficulty
    return out
