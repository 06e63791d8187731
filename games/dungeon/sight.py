"""The board right now: what stands where, what blocks sight, range by route, and the enemies a hero may aim at."""
from __future__ import annotations

from operator import attrgetter

from games.core.grid import label as sq_label
from games.core.grid import parse_label
from games.core.words import plural

from .board import Sq, board
from .data import Content, per_content
from .state import DungeonState, HeroState
from .stats import (
    KIND_SQUARE,
    hero_attributes,
    hero_lines,
    hero_stats,
    hfp,
    mfp,
    monster,
    monster_def,
    monster_name,
)

HAZARDS = {"lava": "fire", "brambles": "poison"}  # terrain that inflicts a debuff on a model crossing it


def dyn_structures(st: DungeonState) -> frozenset[Sq]:
    b = board(st.dungeon)
    out = {b.spawns[i] for i, lv in enumerate(st.levels) if not lv.destroyed}
    out |= {b.chests[i] for i, lv in enumerate(st.levels) if lv.chest == "closed"}
    return frozenset(out)


# the structures of a board given which spawn points stand and which chests are closed (asked for every
# route and every line of sight; the same few sets all game, a few more per built dungeon: bounded all the same)
_STRUCTURES: dict[tuple[object, ...], frozenset[Sq]] = {}
_LEVEL_KEY = attrgetter("destroyed", "chest")


def level_key(st: DungeonState) -> tuple[tuple[bool, str], ...]:
    """What the structures take from the levels: per level, whether its spawn point is destroyed, and its chest."""
    return tuple(map(_LEVEL_KEY, st.levels))


def structures(st: DungeonState, chests: bool = True) -> frozenset[Sq]:
    """The squares structures stand on: the board's own, the spawn points still standing and (`chests`) the closed
    chests."""
    key = (st.dungeon, chests, tuple(map(_LEVEL_KEY, st.levels)))  # `level_key` written out: asked ~5 times an action
    found = _STRUCTURES.get(key)
    if found is None:
        b = board(st.dungeon)
        out = set(b.static_structures) | {b.spawns[i] for i, lv in enumerate(st.levels) if not lv.destroyed}
        if chests:
            out |= {b.chests[i] for i, lv in enumerate(st.levels) if lv.chest == "closed"}
        if len(_STRUCTURES) > 4096:
            _STRUCTURES.clear()
        found = _STRUCTURES[key] = frozenset(out)
    return found


def occupancy(st: DungeonState) -> dict[Sq, str]:
    occ: dict[Sq, str] = {}
    for h in st.heroes:
        occ[(h.x, h.y)] = f"h:{h.id}"
    for m in st.monsters:
        for s in mfp(m):
            occ[s] = f"m:{m.uid}"
    return occ


def sees(st: DungeonState, side: str, src: tuple[Sq, ...], src_attrs: set[str],
         dst: tuple[Sq, ...], dst_attrs: set[str]) -> bool:
    """Line of sight for a model of `side` ("heroes"/"monsters") to a square set.

    Walls always block (ghosts excepted); structures and opposing models block unless one
    end flies; small opposing models block only when both ends are small; incapacitated
    heroes never block.
    """
    b = board(st.dungeon)
    return b.sight_table.sight(b.numbers(src), b.numbers(dst), blockers(st, side, src_attrs, dst_attrs),
                               "ghost" in src_attrs)


def blockers(st: DungeonState, side: str, src_attrs: set[str] | tuple[str, ...],
             dst_attrs: set[str] | tuple[str, ...]) -> int:
    """The squares that stop the sight of a model of `side` with these attributes of one with those, as a
    bitmask of square numbers (`sightmap`): everything `sees` says blocks (the two ends' own squares are left
    out by `SightTable.sight`)."""
    if "fly" in src_attrs or "fly" in dst_attrs:
        return 0
    both_small = "small" in src_attrs and "small" in dst_attrs
    hgt = board(st.dungeon).height
    block = 0
    if side == "heroes":
        flags = _kind_flags()
        for kind, x, y in map(KIND_SQUARE, st.monsters):
            small, large = flags[kind]
            if small and not both_small:
                continue
            block |= 1 << (x * hgt + y)
            if large:
                block |= 3 << ((x + 1) * hgt + y) | 2 << (x * hgt + y)
    else:
        for line, wounds, x, y in hero_lines(st.heroes):
            if wounds >= line.life:
                continue  # `is_incap`
            if "small" in line.attributes and not both_small:
                continue
            block |= 1 << (x * hgt + y)
    block |= _structures_mask(st, both_small)
    return block


@per_content
def _kind_flags(c: Content) -> dict[str, tuple[bool, bool]]:
    """Whether each monster kind is small and whether it is large (for `blockers`)."""
    return {k: ("small" in md.attributes, md.large) for k, md in c.monsters.items()}


_STRUCTURE_MASKS: dict[tuple[str, frozenset[Sq]], int] = {}


def _structures_mask(st: DungeonState, chests: bool) -> int:
    found = structures(st, chests)  # what stops sight: closed chests only when both ends are small
    key = (st.dungeon, found)
    mask = _STRUCTURE_MASKS.get(key)
    if mask is None:
        if len(_STRUCTURE_MASKS) > 1000:
            _STRUCTURE_MASKS.clear()
        mask = _STRUCTURE_MASKS[key] = board(st.dungeon).sight_table.bits(found)
    return mask


def route(st: DungeonState, src: tuple[Sq, ...], dst: tuple[Sq, ...], limit: int = 99) -> int:
    """Range by the shortest route (around walls and structures, ignoring models); 999 beyond `limit`.

    Routes run both ways alike (steps, walls and the corners structures close are the same either
    way, and only the squares in between may not be structures), so the whole table is taken from
    the destination: one search per target square serves every model and every range asking about it.
    Within 1 (next to it, the question of most callers) the steps from the destination are looked at directly:
    the squares the search reaches first are those one step away (walls allowing, and no structure beside a
    diagonal), so no table is made."""
    if limit <= 1:
        if any(s in dst for s in src):
            return 0
        if limit == 1:
            steps = board(st.dungeon).steps
            structs = None  # looked up for a diagonal step only (most questions meet none)
            for t in dst:
                for _d, nxt, sides in steps[t]:
                    if nxt in src:
                        if not sides:
                            return 1
                        if structs is None:
                            structs = structures(st)
                        if not (sides[0] in structs or sides[1] in structs):
                            return 1
        return 999
    if len(src) == 1:  # the common case, without sets
        if src[0] in dst:
            return 0
        d = board(st.dungeon).route_table(dst, structures(st)).get(src[0], 999)
        return d if d <= limit else 999
    if set(src) & set(dst):
        return 0
    dist = board(st.dungeon).route_table(dst, structures(st))
    d = min((dist[s] for s in src if s in dist), default=999)
    return d if d <= limit else 999


# ---- enemies as targets: "m<uid>" for a monster, "spawn" for the level's spawn point --------------
def target_fp(st: DungeonState, key: str) -> tuple[Sq, ...]:
    if key == "spawn":
        return (board(st.dungeon).spawns[st.level],)
    m = monster(st, int(key[1:]))
    return mfp(m) if m else ()


def target_name(st: DungeonState, key: str) -> str:
    if key == "spawn":
        return f"the spawn point ({sq_label(*board(st.dungeon).spawns[st.level])})"
    m = monster(st, int(key[1:]))
    return monster_name(m) if m else "a vanished monster"


def target_attrs(st: DungeonState, key: str) -> set[str]:
    if key == "spawn":
        return set()
    m = monster(st, int(key[1:]))
    return set(monster_def(m).attributes) if m else set()


def enemy_keys(st: DungeonState) -> list[str]:
    keys = [f"m{m.uid}" for m in st.monsters]
    lv = st.levels[st.level]
    if lv.active and not lv.destroyed:
        keys.append("spawn")
    return keys


def target_label(st: DungeonState, key: str) -> str:
    """The square a player names to aim at this enemy (a large monster: its anchor square)."""
    if key == "spawn":
        return sq_label(*board(st.dungeon).spawns[st.level])
    m = monster(st, int(key[1:]))
    assert m is not None
    return sq_label(m.x, m.y)


def key_at(st: DungeonState, text: str) -> str | None:
    """The enemy standing on the square `text` names, if any."""
    sq = parse_label(text)
    if sq is None:
        return None
    if st.levels[st.level].active and not st.levels[st.level].destroyed and sq == board(st.dungeon).spawns[st.level]:
        return "spawn"
    for m in st.monsters:
        if sq in mfp(m):
            return f"m{m.uid}"
    return None


def hero_can_target(st: DungeonState, h: HeroState, key: str, rng: int,
                    seen: dict[str, bool] | None = None) -> tuple[bool, str]:
    """Can the hero aim an offence action of range `rng` at this enemy? (ok, reason if not)

    `seen` remembers the hero's sight of each enemy for a caller that asks about one state several times
    (every attack style, every unique action), as sight does not depend on the range."""
    fp = target_fp(st, key)
    if not fp:
        return False, "There is no enemy there."
    # the whole route table is made for any limit above 1 (and cached): the exact distance costs nothing more,
    # and the refusal can say how far the target really is
    d = route(st, hfp(h), fp, 99 if rng >= 1 else rng + 1)
    if d > rng:
        name = target_name(st, key)
        far = f"{plural(d, 'square')} away by the shortest route" if d < 999 else "out of reach by any route"
        return False, f"{name[0].upper()}{name[1:]} is {far}; the range is {rng}."
    vis = None if seen is None else seen.get(key)
    if vis is None:
        vis = sees(st, "heroes", hfp(h), hero_attributes(h), fp, target_attrs(st, key))
        if seen is not None:
            seen[key] = vis
    if not vis:
        return False, (f"{hero_stats(h).name} has no line of sight to {target_name(st, key)} "
                       "(walls, structures and monsters in between block it).")
    return True, ""
