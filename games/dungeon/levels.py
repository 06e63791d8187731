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
from .stats import hero_stats, hfp, is_incap, monster_def, stat_line

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
        if len(_SPAWN_SQUARES) > 2000:
            _SPAWN_SQUARES.clear()
        found = _SPAWN_SQUARES[key] = [(x * b.height + y, (x, y)) for _d, y, x in order]
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
    danger = set()
    for h in st.heroes:
        if not is_incap(h):
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    danger.add((h.x + dx, h.y + dy))
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
    else:
        dist = b.route_table(srcs, structs | set(srcs), 14)
        cands = []
        for sq, d in dist.items():
            if d == 0 or sq in srcs:
                continue
            fp = footprint(sq[0], sq[1], True)
            if b.internal_walls(*sq):
                continue
            if not all(b.inside(s) and s not in structs and s not in b.chasms and s not in occ for s in fp):
                continue  # as `can_stand`
            dd = min(dist.get(s, 99) for s in fp)
            in_danger = any(s in danger for s in fp)
            cands.append((not in_danger if ambush else in_danger, dd, sq[1], sq[0]))
        cands.sort()
        found = next((c for c in cands if sight(src_n, b.numbers(footprint(c[3], c[2], True)), block, False)), None)
        best = None if found is None else (found[2], found[3])
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
