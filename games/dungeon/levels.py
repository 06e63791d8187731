"""Levels and their spawn points: when a level is clear, opening the next one, and placing new monsters."""
from __future__ import annotations

from games.core.grid import label as sq_label

from . import marks
from .board import Board, Sq, board, footprint
from .combat import monster_attack
from .data import content
from .maps import dungeon_def, is_random
from .sight import blockers, occupancy, route, sees, structures
from .state import DungeonState, MonsterState
from .stats import hero_def, hero_stats, hfp, is_incap, monster_def, stat_line

DIFFICULTY_SPAWNS = {"explorer": -1, "normal": 0, "veteran": 1}  # house: monsters opening a level, +/-


def difficulty_note(st: DungeonState) -> str:
    """How the host's difficulty option changes the game, said as each level opens."""
    if st.difficulty == "normal":
        return ""
    more = DIFFICULTY_SPAWNS[st.difficulty]
    return (f" ({st.difficulty} difficulty, a house option: each level opens with one monster "
            f"{'more' if more > 0 else 'fewer'}, monsters' attack rolls {more:+d} star)")


def start_note(st: DungeonState) -> str:
    """Said once as the game starts (the engine's `intro`): a built dungeon's name (its number rebuilds it) and a
    difficulty other than normal; empty for a hand-made dungeon at normal difficulty."""
    out = []
    if is_random(st.dungeon):
        out.append(f"{dungeon_def(st.dungeon).name}, built from tiles by the seed: four levels round a square of "
                   "tiles, each entered through a door from the one before.")
    if st.difficulty != "normal":
        more = DIFFICULTY_SPAWNS[st.difficulty]
        out.append(f"{st.difficulty.title()} difficulty (a house option): each level opens with one monster "
                   f"{'more' if more > 0 else 'fewer'}, and monsters' attack rolls get {more:+d} star.")
    return " ".join(out)


def level_cleared(st: DungeonState) -> bool:
    lv = st.levels[st.level]
    if not lv.destroyed:
        return False
    return not any(m.level == st.level and not monster_def(m).guardian for m in st.monsters)


def maybe_advance_level(st: DungeonState, lines: list[str]) -> bool:
    """If the level is clear, open the next one (or win). True if something changed."""
    if st.phase != "heroes" or st.attack is not None or not level_cleared(st):
        return False
    if st.level + 1 >= len(st.levels):
        st.phase = "over"
        st.result = "victory"
        st.result_text = "All four spawn points are destroyed: the heroes win!"
        lines.append(st.result_text)
        st.activation = None
        return True
    lines.append(f"Level {st.level + 1} is clear!")
    open_level(st, st.level + 1, lines, breather=True)
    return True


def open_level(st: DungeonState, level: int, lines: list[str], breather: bool) -> None:
    st.level = level
    lv = st.levels[level]
    lv.active = True
    lv.chest = "closed"
    name = dungeon_def(st.dungeon).levels[level].name
    lines.append(f"Level {level + 1}, {name}: its spawn point opens and a chest appears." + difficulty_note(st))
    st.monsters = [m for m in st.monsters if not monster_def(m).guardian]
    make_way(st, level, lines)
    st.booty_cards = []
    if breather:
        for h in st.heroes:
            stats = hero_stats(h)
            h.wounds = 0
            h.debuffs = []
            h.expiring = []
            h.potions = stats.potions
            h.nine_lives_ready = True
        lines.append("The heroes catch their breath: wounds, debuffs and potions are restored. "
                     "Equip and drop freely, then `ready`.")
        st.phase = "intermission"
        st.ready = []
        st.activation = None
        st.attack = None
    # more heroes, more monsters; the house difficulty option adds or takes one (at least one spawns)
    n = max(1, max(content().rules.opening_spawn_min, len(st.heroes)) + DIFFICULTY_SPAWNS[st.difficulty])
    for _ in range(n):
        if not spawn_one(st, level, lines):
            break


def make_way(st: DungeonState, level: int, lines: list[str]) -> None:
    """A model standing where the opening level's spawn point or chest appears steps to the nearest square it
    may stand on (house: the rules set both up on their squares and say nothing of a model already there; left
    there, a hero stood inside the chest, which it could then neither open nor leave as the rules mean)."""
    b = board(st.dungeon)
    new = {b.spawns[level], b.chests[level]}
    structs = structures(st)
    for h in st.heroes:
        if (h.x, h.y) in new:
            occ = occupancy(st)
            to = next((sq for _n, sq in _spawn_squares(b, ((h.x, h.y),), structs) if sq not in occ), None)
            if to is not None:
                what = "spawn point" if (h.x, h.y) == b.spawns[level] else "chest"
                h.x, h.y = to
                lines.append(f"{hero_def(h).name} steps aside from the new {what} to {sq_label(*to)}.")
    for m in st.monsters:
        fp = footprint(m.x, m.y, monster_def(m).large)
        if new.isdisjoint(fp):
            continue
        occ = {sq: who for sq, who in occupancy(st).items() if who != f"m:{m.uid}"}
        if monster_def(m).large:
            to = next(((x, y) for fp2, _n, (y, x) in _large_spawn_squares(b, fp, structs)
                       if not any(sq in occ for sq in fp2)), None)
        else:
            to = next((sq for _n, sq in _spawn_squares(b, fp, structs) if sq not in occ), None)
        if to is not None:
            m.x, m.y = to
            lines.append(f"{monster_def(m).name} steps aside to {sq_label(*to)}.")


# ---- spawning --------------------------------------------------------------------------
def can_stand(st: DungeonState, fp: tuple[Sq, ...], occ: dict[Sq, str], me: str = "") -> bool:
    b = board(st.dungeon)
    structs = structures(st)
    for s in fp:
        if not b.inside(s) or s in structs or s in b.chasms:
            return False
        if s in occ and occ[s] != me:
            return False
    return True


_SPAWN_SQUARES: dict[tuple[object, ...], list[tuple[int, Sq]]] = {}


def _spawn_squares(b: Board, srcs: tuple[Sq, ...], structs: frozenset[Sq]) -> list[tuple[int, Sq]]:
    """Where a one-square model may appear from these source squares, models aside: (square number, square)
    within 14 squares by route (the sources count as structures), not on a source, a structure or a chasm, by
    distance, then row, then column (the order of preference but for danger)."""
    key = (b.id, srcs, structs)
    found = _SPAWN_SQUARES.get(key)
    if found is None:
        dist = b.route_table(srcs, structs | set(srcs), 14)
        order = sorted((d, sq[1], sq[0]) for sq, d in dist.items()
                       if d and sq not in srcs and sq not in structs and sq not in b.chasms)
        if len(_SPAWN_SQUARES) > _SPAWN_MEMO:
            _SPAWN_SQUARES.clear()
        found = _SPAWN_SQUARES[key] = [(x * b.height + y, (x, y)) for _d, y, x in order]
    return found


_LARGE_SPAWN_SQUARES: dict[tuple[object, ...], list[tuple[tuple[Sq, ...], tuple[int, ...], tuple[int, int]]]] = {}
_SPAWN_MEMO = 2000  # entries each of the two memos above holds at most


def _large_spawn_squares(b: Board, srcs: tuple[Sq, ...], structs: frozenset[Sq],
                         ) -> list[tuple[tuple[Sq, ...], tuple[int, ...], tuple[int, int]]]:
    """Where a large model may appear from these source squares, models aside: (its four squares, their square
    numbers, (row, column) of its anchor) for the anchors within 14 squares by route (the sources count as
    structures) whose base sits over no wall, off the board's edge, structures and chasms; by distance (its
    nearest square's), then row, then column (the order of preference but for danger)."""
    key = (b.id, srcs, structs)
    found = _LARGE_SPAWN_SQUARES.get(key)
    if found is None:
        dist = b.route_table(srcs, structs | set(srcs), 14)
        order = []
        for sq, d in dist.items():
            if d == 0 or sq in srcs or b.internal_walls(*sq):
                continue
            fp = footprint(sq[0], sq[1], True)
            if all(b.inside(s) and s not in structs and s not in b.chasms for s in fp):
                order.append((min(dist.get(s, 99) for s in fp), sq[1], sq[0], fp))
        order.sort()  # (distance, row, column) tell every anchor apart: the squares are never compared
        if len(_LARGE_SPAWN_SQUARES) > _SPAWN_MEMO:
            _LARGE_SPAWN_SQUARES.clear()
        found = _LARGE_SPAWN_SQUARES[key] = [(fp, b.numbers(fp), (y, x)) for _d, y, x, fp in order]
    return found


def spawn_one(st: DungeonState, level: int, lines: list[str], kind: str = "",
              source: tuple[Sq, ...] = ()) -> bool:
    """Place the pool's next monster (or a new one of `kind`) as close to the spawn point (or to
    the `source` squares, a summoning boss) as possible, in its sight and out of danger if it can be."""
    lv = st.levels[level]
    from_pool = not kind
    if from_pool and (lv.destroyed or not lv.pool):
        return False
    kind = kind or lv.pool[0]
    md = content().monsters[kind]
    b = board(st.dungeon)
    srcs = tuple(source) or (b.spawns[level],)
    occ = occupancy(st)
    structs = structures(st)
    danger: set[Sq] = set()
    for h in st.heroes:
        if not is_incap(h):
            hx, hy = h.x, h.y
            danger.update([(hx + dx, hy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)])
    ambush = "ambush" in md.attributes
    attrs = set(md.attributes)
    # rule (spawning): in sight of the spawn point, so standing heroes in the way block it (fliers see over);
    # the best square in sight, found by asking in order of preference (sight is the costly test): first the
    # squares out of danger (not next to a standing hero; house: an Ambush model comes out looking for a fight, so
    # it prefers the squares next to one), then the closest by route, then by row and column
    block, src_n = blockers(st, "monsters", (), attrs), b.numbers(srcs)
    sight = b.sight_table.sight
    best: tuple[int, int] | None = None
    if not md.large:  # a one-square model: the squares in order of distance from a per-board list
        later = []
        for n, sq in _spawn_squares(b, srcs, structs):
            if sq in occ:
                continue
            if (sq in danger) != ambush:
                later.append((n, sq))
            elif sight(src_n, (n,), block, False):
                best = sq[1], sq[0]
                break
        else:
            best = next(((sq[1], sq[0]) for n, sq in later if sight(src_n, (n,), block, False)), None)
    else:  # a large model: its anchors in order from a per-board list, the same way
        later_large = []
        for fp, numbers, row_col in _large_spawn_squares(b, srcs, structs):
            if fp[0] in occ or fp[1] in occ or fp[2] in occ or fp[3] in occ:
                continue  # as `can_stand`
            if (fp[0] in danger or fp[1] in danger or fp[2] in danger or fp[3] in danger) != ambush:
                later_large.append((numbers, row_col))
            elif sight(src_n, numbers, block, False):
                best = row_col
                break
        else:
            best = next((row_col for numbers, row_col in later_large if sight(src_n, numbers, block, False)), None)
    if best is None:
        lines.append(f"No room for {md.name} to spawn.")
        return False
    y, x = best
    if from_pool:
        lv.pool.pop(0)
    m = MonsterState(uid=st.next_uid, kind=kind, x=x, y=y, level=level)
    st.next_uid += 1
    st.monsters.append(m)
    lines.append(f"{md.name} {'spawns' if from_pool else 'is summoned'} at {sq_label(x, y)}.")
    marks.spawned(st, md.name, (x, y))
    if "ambush" in md.attributes:  # Ambush: a free attack on an adjacent, visible enemy as it arrives
        fp = footprint(x, y, md.large)
        for h in sorted(st.heroes, key=lambda h: h.seat):
            if not is_incap(h) and route(st, fp, hfp(h), 1) <= 1 and sees(
                    st, "monsters", fp, set(md.attributes), hfp(h), stat_line(h).attributes):
                lines.append(f"{md.name} springs an ambush:")
                monster_attack(st, m, h, lines)
                break
    return True
