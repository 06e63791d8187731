"""The monsters' side: whom each monster goes for and how it moves (large bases, push-back, fleeing). Every monster
reacts after each hero activation, closest to a visible hero first; the bosses' special moves are in `bosses.py`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from games.core.grid import label as sq_label

from . import attributes, marks, recap, stats
from .board import Board, Sq, board, footprint, numbers_of, route_rings, set_each
from .combat import give_debuff_monster, monster_attack, step_costs, terrain_debuff
from .data import RANKS, content
from .levels import maybe_advance_level
from .moves import NEVER, SmallMoves, base_moves, bits_of, mask_moves, step_classes
from .nearest import HeroSide, hero_side, nearest_visible_hero
from .sight import HAZARDS, blockers, occupancy, route, sees, structures
from .state import DungeonState, HeroState, MonsterState
from .stats import UID_KIND_SQUARE, hero, hero_attributes, hfp, is_incap, mfp, monster, monster_def, monster_name


# ---- whom a monster goes for, and what it does ----------------------------------------------------
def choose_target(st: DungeonState, m: MonsterState, side: HeroSide | None = None) -> HeroState | None:
    """The nearest standing hero `m` sees, else the nearest standing hero by route (`side`: this state's
    `hero_side`, when the caller has it)."""
    vis = nearest_visible_hero(st, m, side)
    if vis is not None:
        return vis[1]
    best = None
    for h in st.heroes:
        if is_incap(h):
            continue
        d = route(st, mfp(m), hfp(h))
        if best is None or (d, h.seat) < best[0]:
            best = ((d, h.seat), h)
    return best[1] if best else None


def monster_in_reach(st: DungeonState, m: MonsterState, fp: tuple[Sq, ...], h: HeroState) -> bool:
    return reach_test(st, m, h)(fp)


def reach_test(st: DungeonState, m: MonsterState, h: HeroState, side: HeroSide | None = None,
               ) -> Callable[[tuple[Sq, ...]], bool]:
    """Would `m` standing on a footprint have hero `h` in attack range and in sight (the board as it is)?
    What does not depend on the footprint (the route table from the hero, the squares blocking sight) is
    worked out once, for a monster that asks about every square it can move to (`side`: this state's
    `hero_side`, which has the blocking squares of each hero, when the caller has it)."""
    md = monster_def(m)
    rng = md.attack.range
    b = board(st.dungeon)
    hgt = b.height
    hx, hy = h.x, h.y
    hsq = (hx, hy)
    target = (hx * hgt + hy,)
    # routes run both ways alike (see `sight.route`); a side's structures are this state's (`HeroSide.structs`)
    dist = b.route_table((hsq,), structures(st) if side is None else side.structs)
    attrs = md.attributes
    if side is not None:  # the same squares (`blockers` asks the monster only whether it flies, is small)
        block = side.blockers(next(i for i, x in enumerate(st.heroes) if x is h), "fly" in attrs, "small" in attrs)
    else:
        block = blockers(st, "monsters", attrs, hero_attributes(h))
    ghost = "ghost" in attrs
    table = b.sight_table
    sight, sees_one = table.sight, table.sees
    tn = target[0]
    tbit = 1 << tn

    def test(fp: tuple[Sq, ...]) -> bool:
        if len(fp) == 1:
            x, y = fp[0]
            if max(abs(x - hx), abs(y - hy)) > rng:
                return False  # a route is never shorter than the king-move distance
            if fp[0] != hsq and dist.get(fp[0], 999) > rng:
                return False
            n = x * hgt + y  # `SightTable.sight` of one square to one square, asked directly
            return n == tn or sees_one(n, tn, block & ~((1 << n) | tbit), ghost)
        if min(max(abs(s[0] - hx), abs(s[1] - hy)) for s in fp) > rng:
            return False
        if hsq not in fp and min((dist[s] for s in fp if s in dist), default=999) > rng:
            return False
        return sight(tuple(x * hgt + y for x, y in fp), target, block, ghost)

    return test


def monsters_react(st: DungeonState, lines: list[str], lead: str = "") -> None:
    """Every monster takes one action, closest to a visible hero first; equal distances are drawn by lot.

    `lead` starts the block's first line ("Ruby's activation ends. "); the lines that follow are in
    the order the monsters acted, so the draw is on record."""
    keyed = []
    order = list(st.monsters)
    st.rng.shuffle(order)  # the seeded draw that settles ties
    side = hero_side(st)  # the heroes stay as they are while the order is drawn
    for pos, m in enumerate(order):
        vis = nearest_visible_hero(st, m, side)
        keyed.append((vis[0] if vis is not None else 999, pos, m.uid))
    keyed.sort()
    dists = [k[0] for k in keyed if k[0] < 999]
    tie = " (equally close ones in a drawn order)" if len(dists) != len(set(dists)) else ""
    head = f"{lead}The monsters react, closest first{tie}:" if keyed else f"{lead}No monster is on the board."
    full, short = [head], [head]  # told in full and compactly (recap.py)
    movers: list[str] = []
    after: list[str] = []
    for _, _, uid in keyed:
        if st.phase != "heroes":
            break
        actor = monster(st, uid)
        if actor is None:
            continue
        mine: list[str] = []
        monster_act(st, actor, mine)
        full += mine
        recap.add(mine, short, movers)
        if st.levels[st.level].destroyed and maybe_advance_level(st, after):  # (only then is a level clear)
            break
    lines.append(recap.block(full, short, movers))
    lines += after


def monster_act(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    md = monster_def(m)
    if "raise" in md.attributes:
        attributes.raise_undead(st, m, lines)
    if "knockdown" in m.debuffs:
        m.debuffs.remove("knockdown")
        lines.append(f"{monster_name(m)} stands up.")
        return
    if md.behaviour == "cowardly":
        flee(st, m, lines)
        return
    if md.behaviour == "support":
        for f in st.monsters:
            if f.uid == m.uid or f.wounds == 0:
                continue
            if route(st, mfp(m), mfp(f), md.support_range) <= md.support_range and sees(
                    st, "monsters", mfp(m), set(md.attributes), mfp(f), set(monster_def(f).attributes)):
                f.wounds -= 1
                lines.append(f"{monster_name(m)} heals {monster_name(f)} (1 wound).")
                marks.healed(st, md.name, (m.x, m.y), monster_def(f).name, (f.x, f.y), 1, monster=True)
                return
    side = hero_side(st)  # the heroes as they are now, for the target and its sight
    target = choose_target(st, m, side)
    if target is None:
        return
    in_reach = reach_test(st, m, target, side)  # the board as it is now: asked here and by the move
    if in_reach(mfp(m)):  # rule (attack range): in range, it attacks; it never backs away
        monster_attack(st, m, target, lines)
    else:
        move_monster(st, m, target, lines, in_reach, side)
    # Berserk: one more melee attack on its turn that costs nothing
    if "berserk" in md.attributes and md.attack.style == "melee" and monster(st, m.uid) is not None \
            and st.phase == "heroes" and not is_incap(target) and monster_in_reach(st, m, mfp(m), target):
        lines.append(f"{md.name} goes berserk:")
        monster_attack(st, m, target, lines)


# ---- moving ------------------------------------------------------------------------------------
def monster_move_options(st: DungeonState, m: MonsterState) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    """Where `m` may end a move now -> (movement spent, hazards entered, path)."""
    opts, path = monster_moves(st, m)
    return {sq: (c, hz, path(sq)) for sq, (c, hz) in opts.items()}


def monster_moves(st: DungeonState, m: MonsterState, lazy: bool = False, side: HeroSide | None = None,
                  ) -> tuple[Mapping[Sq, tuple[int, int]], Callable[[Sq], tuple[Sq, ...]]]:
    """`monster_move_options` without the paths, and the path to a square when it is asked (a one-square
    monster's search makes only the path it takes). `lazy`: a one-square monster's options may come as an
    unfilled `SmallMoves` (its squares in masks only), for `move_monster`; `side`: this state's `hero_side`
    (the heroes' squares as masks), when the caller has it."""
    md = monster_def(m)
    attrs, debuffs = md.attributes, m.debuffs  # each read once
    allowance = md.move
    if "slow" in debuffs:
        allowance = (allowance + 1) // 2
    if allowance <= 0 or "immobile" in debuffs or (
            attributes.grabbed(st, "monsters", mfp(m), set(attrs)) if side is None
            else side.grabby() and attributes.grabbed_by(st, mfp(m), set(attrs), side.grabby())):
        return {}, _no_path
    b = board(st.dungeon)
    fly = "fly" in attrs
    burrow = "burrow" in attrs  # under structures, walls and enemies; chasms still stop it
    structs = structures(st) if side is None else side.structs
    if not md.large and "ghost" not in attrs and not burrow:  # the common case, searched over numbers
        blk, classes, ends = _small_template(b, structs, m.kind)
        hgt = b.height
        if side is not None:  # the loop below, over the side's masks
            every, standing = side.hero_masks()
            ends |= every
            if not fly:
                blk |= standing
                classes = (classes[0] & ~standing, classes[1] & ~standing, classes[2] & ~standing,
                           classes[3] & ~standing)
        else:
            for h in st.heroes:  # it may not end on another model
                bit = 1 << (h.x * hgt + h.y)
                ends |= bit
                if not fly and not is_incap(h):  # nor pass a standing hero
                    blk |= bit
                    classes = (classes[0] & ~bit, classes[1] & ~bit, classes[2] & ~bit, classes[3] & ~bit)
        large = stats.large_kinds()
        uid = m.uid
        for ouid, kind, x, y in map(UID_KIND_SQUARE, st.monsters):  # `mfp` written out: a large base is squares
            if ouid != uid:  # n, n + 1 and those a column on
                n = x * hgt + y
                ends |= (3 << n | 3 << (n + hgt)) if kind in large else 1 << n
        found = mask_moves(b, m.x * hgt + m.y, allowance, blk, classes, ends, fill=not lazy)
        return found, found.path
    occ = occupancy(st)
    me = f"m:{m.uid}"
    rank = RANKS[md.rank]
    hgt = b.height
    everywhere = (1 << (b.width * hgt)) - 1
    smask, cmask = _mask_of(b, structs), _mask_of(b, b.chasms)
    passable = everywhere if fly else everywhere & ~(cmask if burrow else cmask | smask)
    endable = everywhere & ~(smask | cmask)
    for (x, y), ref in occ.items():
        bit = 1 << (x * hgt + y)
        if ref.startswith("h:"):
            endable &= ~bit
            if not (fly or burrow) and not is_incap(hero(st, ref[2:])):
                passable &= ~bit  # nor pass a standing hero
        elif ref != me:
            other = monster(st, int(ref[2:]))
            # push-back: a larger, higher-ranked friendly model may displace
            if not (md.large and other is not None and not monster_def(other).large
                    and RANKS[monster_def(other).rank] < rank):
                endable &= ~bit
    own = 0
    for x, y in mfp(m):
        own |= 1 << (x * hgt + y)
    slow, hazard = _terrain_masks(b, m.kind)
    moved = base_moves(b, m.x * hgt + m.y, md.large, "ghost" in attrs or burrow, allowance, passable,
                       passable | own, slow, hazard, endable | own)
    if md.large:  # push-back needs a free square of the last step for every small friend displaced
        anchors = others_anchored(st, m)
        others = 0  # where `pushed_by` finds them, and the anchors of the bases over one of them
        for x, y in anchors:
            others |= 1 << (x * hgt + y)
        over = others | others >> 1 | others >> hgt | others >> (hgt + 1)
        sqs = b.squares
        for sq in [sq for sq in map(sqs.__getitem__, numbers_of(over)) if sq in moved  # somebody pushed
                   and pushed_count(anchors, sq) > len(left_free(m, moved.came_from(sq), sq, occ))]:
            del moved[sq]
    return moved, moved.path


_MASKS: dict[tuple[str, frozenset[Sq]], int] = {}


def _mask_of(b: Board, squares: frozenset[Sq]) -> int:
    """A set of squares (structures, chasms) as a mask of square numbers, once per board and set."""
    key = (b.id, squares)
    found = _MASKS.get(key)
    if found is None:
        if len(_MASKS) > 1000:
            _MASKS.clear()
        found = _MASKS[key] = b.sight_table.bits(squares)
    return found


_TERRAIN: dict[tuple[str, str], tuple[int, int]] = {}


def _terrain_masks(b: Board, kind: str) -> tuple[int, int]:
    """For `base_moves`: the squares a step into costs this kind of monster 2 movement (difficult terrain, unless
    it flies or is sure-footed) and those that hurt it (lava, brambles unless it flies), as masks."""
    key = (b.id, kind)
    found = _TERRAIN.get(key)
    if found is None:
        md = content().monsters[kind]
        sure = "fly" in md.attributes or "burrow" in md.attributes or "surefoot" in md.attributes
        e10, e11, e20, e21 = step_classes(step_costs(b, sure, md.attributes))
        if len(_TERRAIN) > 1000:
            _TERRAIN.clear()
        found = _TERRAIN[key] = (e20 | e21, e11 | e21)
    return found


def _no_path(sq: Sq) -> tuple[Sq, ...]:
    raise KeyError(sq)


_TEMPLATES: dict[tuple[str, frozenset[Sq], str], tuple[int, tuple[int, int, int, int], int]] = {}


def _small_template(b: Board, structs: frozenset[Sq], kind: str) -> tuple[int, tuple[int, int, int, int], int]:
    """For `mask_moves`, what a one-square monster of this kind meets on this board whatever the models do:
    squares it may not pass (structures and chasms, unless it flies), what a step into each square costs
    (difficult terrain 2 unless it flies or is sure-footed; a hazard if the terrain would hurt it) and where
    it may not end (structures and chasms), as bitmasks; the heroes and monsters are added per move."""
    key = (b.id, structs, kind)
    found = _TEMPLATES.get(key)
    if found is None:
        md = content().monsters[kind]
        fly = "fly" in md.attributes
        sure = fly or "burrow" in md.attributes or "surefoot" in md.attributes
        hgt = b.height
        size = b.width * hgt
        blk = bytearray(size + 1)
        stepc = step_costs(b, sure, md.attributes)  # hazards too: lava burns fliers, brambles spare them
        ends = bytearray(size)
        for x, y in structs | b.chasms:
            n = x * hgt + y
            ends[n] = 1
            if not fly:
                blk[n] = 1
                stepc[n] = NEVER
        if len(_TEMPLATES) > 1000:
            _TEMPLATES.clear()
        found = _TEMPLATES[key] = (bits_of(blk[:-1]), step_classes(stepc), bits_of(ends))
    return found


def push_spots(st: DungeonState, m: MonsterState, dest: Sq, path: tuple[Sq, ...],
               occ: dict[Sq, str] | None = None) -> list[Sq]:
    """Squares a large monster left with its last step onto `dest` that no other model holds (`occ`: the
    state's `occupancy`, when the caller has it)."""
    return left_free(m, path[-2] if len(path) >= 2 else (m.x, m.y), dest, occupancy(st) if occ is None else occ)


def left_free(m: MonsterState, prev: Sq, dest: Sq, occ: dict[Sq, str]) -> list[Sq]:
    """`push_spots` from the anchor the last step was taken from (`prev`) and the state's `occupancy`."""
    new_fp = footprint(dest[0], dest[1], True)
    return [s for s in footprint(prev[0], prev[1], True)
            if s not in new_fp and occ.get(s, f"m:{m.uid}") == f"m:{m.uid}"]


def others_anchored(st: DungeonState, m: MonsterState) -> dict[Sq, int]:
    """How many monsters other than `m` are anchored on each square (their squares read once, for `pushed_count`)."""
    found: dict[Sq, int] = {}
    uid = m.uid
    for o in st.monsters:
        if o.uid != uid:
            at = (o.x, o.y)
            found[at] = found.get(at, 0) + 1
    return found


def pushed_count(anchors: dict[Sq, int], dest: Sq) -> int:
    """`len(pushed_by(st, m, dest))` from `others_anchored(st, m)`: the others anchored on the base's four squares."""
    x, y = dest
    get = anchors.get
    return get((x, y), 0) + get((x + 1, y), 0) + get((x, y + 1), 0) + get((x + 1, y + 1), 0)


def pushed_by(st: DungeonState, m: MonsterState, dest: Sq) -> list[MonsterState]:
    """Small friendly models a large monster ending on `dest` pushes back (rule: large bases)."""
    new_fp = set(footprint(dest[0], dest[1], True))
    return [o for o in st.monsters if o.uid != m.uid and (o.x, o.y) in new_fp]


def move_monster(st: DungeonState, m: MonsterState, target: HeroState, lines: list[str],
                 in_reach: Callable[[tuple[Sq, ...]], bool] | None = None, side: HeroSide | None = None) -> None:
    """`m` moves towards `target` (`in_reach`: its `reach_test` for the board as it is, and `side` this state's
    `hero_side`, if the caller has them)."""
    md = monster_def(m)
    opts, path = monster_moves(st, m, lazy=True, side=side)
    if in_reach is None:
        in_reach = reach_test(st, m, target)
    structs = structures(st) if side is None else side.structs
    if isinstance(opts, SmallMoves) and not opts.filled:
        _move_small(st, m, target, opts, in_reach, lines, structs)
        return
    if not opts:
        lines.append(f"{monster_name(m)} holds its ground.")
        return
    # rule: it stops once it enters attack range: the cheapest square in reach (asked cheapest first)
    # only a base with a square within the range's king-move distance of the target may be in reach
    rng, hx, hy = md.attack.range, target.x, target.y
    if md.large:  # the base's squares are its anchor's and one more east and south
        order = sorted((cost, haz, sq[1], sq[0]) for sq, (cost, haz) in opts.items()
                       if sq[0] - rng <= hx <= sq[0] + 1 + rng and sq[1] - rng <= hy <= sq[1] + 1 + rng)
        reach = next((r for r in order if in_reach(footprint(r[3], r[2], True))), None)
    else:
        order = sorted((cost, haz, sq[1], sq[0]) for sq, (cost, haz) in opts.items()
                       if abs(sq[0] - hx) <= rng and abs(sq[1] - hy) <= rng)
        reach = next((r for r in order if in_reach(((r[3], r[2]),))), None)
    if reach is not None:
        dest = (reach[3], reach[2])
    else:
        tdist = board(st.dungeon).route_table(hfp(target), structs)
        field: Mapping[Sq, int] = {}
        if md.large:  # the field depends on the board, the structures, the target's square and the monster's kind
            fkey = (st.dungeon, structs, m.kind, target.x, target.y)
            found = _FIELDS.get(fkey)
            if found is None:
                if len(_FIELDS) > 5000:
                    _FIELDS.clear()
                found = _FIELDS[fkey] = large_field(st, m, tdist)
            field = found

        def away(a: Sq) -> int:
            # a 2x2 base may not fit where a small model's route goes: it measures in base positions
            if field:
                return field.get(a, 999)
            return min(tdist.get(s, 999) for s in footprint(a[0], a[1], md.large))

        here = away((m.x, m.y))
        if md.large:
            best = min((away(sq), cost, haz, sq[1], sq[0]) for sq, (cost, haz) in opts.items())
        else:  # a one-square model: its route is the table's
            get = tdist.get
            best = min((get(sq, 999), cost, haz, sq[1], sq[0]) for sq, (cost, haz) in opts.items())
        if best[0] >= here:
            lines.append(f"{monster_name(m)} finds no way closer.")
            return
        dest = (best[4], best[3])
    place_monster(st, m, dest, path(dest), lines)


def _move_small(st: DungeonState, m: MonsterState, target: HeroState, opts: SmallMoves,
                in_reach: Callable[[tuple[Sq, ...]], bool], lines: list[str], structs: frozenset[Sq]) -> None:
    """`move_monster` for a one-square monster, over the masks of its options (`SmallMoves.ends`, cheapest first)
    and of the target's route table (`route_rings`, nearest first): the same square as the lists would give
    (`structs`: the state's structures)."""
    if not opts.ends:
        lines.append(f"{monster_name(m)} holds its ground.")
        return
    b = board(st.dungeon)
    hgt = b.height
    rng, hx, hy = monster_def(m).attack.range, target.x, target.y
    # rule: it stops once it enters attack range: the cheapest square in reach (cheapest first, then by row and
    # column), of those within the range's king-move distance of the target
    y0, y1 = max(0, hy - rng), min(hgt - 1, hy + rng)
    box = 0
    if y0 <= y1:
        column = ((1 << (y1 - y0 + 1)) - 1) << y0
        for x in range(max(0, hx - rng), min(b.width - 1, hx + rng) + 1):
            box |= column << (x * hgt)
    for _c, _hz, mask in opts.ends:
        near = mask & box
        if near:
            for n in sorted(numbers_of(near), key=b.row_order.__getitem__):
                sq = (n // hgt, n % hgt)
                if in_reach((sq,)):
                    place_monster(st, m, sq, opts.path(sq), lines)
                    return
    # else the option nearest the target by route (then cheapest, by row, by column), if nearer than it stands
    here = b.route_table(hfp(target), structs).get((m.x, m.y), 999)
    every = 0
    for _c, _hz, mask in opts.ends:
        every |= mask
    for d, ring in enumerate(route_rings(b, hfp(target), structs)):
        if d >= here:
            break
        hit = ring & every
        if hit:
            for _c, _hz, mask in opts.ends:
                if hit & mask:
                    n = min(numbers_of(hit & mask), key=b.row_order.__getitem__)
                    dest = (n // hgt, n % hgt)
                    place_monster(st, m, dest, opts.path(dest), lines)
                    return
    lines.append(f"{monster_name(m)} finds no way closer.")


_ANCHORS: dict[tuple[str, frozenset[Sq], bool], list[Sq]] = {}
_FIELDS: dict[tuple[object, ...], dict[Sq, int]] = {}  # `large_field`s by all they depend on


def _large_anchors(b: Board, blocked: frozenset[Sq], ghost: bool) -> list[Sq]:
    """Where a 2x2 base fits (inside, on no blocked square, astride no wall unless a ghost), once per set."""
    key = (b.id, blocked, ghost)
    found = _ANCHORS.get(key)
    if found is None:
        def fits(a: Sq) -> bool:
            fp = footprint(a[0], a[1], True)
            return all(b.inside(s) and s not in blocked for s in fp) and (ghost or not b.internal_walls(*a))

        if len(_ANCHORS) > 1000:
            _ANCHORS.clear()
        found = _ANCHORS[key] = [(x, y) for y in range(b.height - 1) for x in range(b.width - 1) if fits((x, y))]
    return found


def large_field(st: DungeonState, m: MonsterState, tdist: Mapping[Sq, int]) -> dict[Sq, int]:
    """Steps from each base position of a large monster to the nearest one within attack range of the
    target (by route, models ignored): so it heads for gaps it fits through. Breadth-first one ring at a
    time over bitmasks of anchor numbers (x * height + y), a step being a shift (`_anchor_steps`)."""
    md = monster_def(m)
    b = board(st.dungeon)
    fly, ghost = "fly" in md.attributes, "ghost" in md.attributes
    blocked = frozenset() if fly else structures(st) | b.chasms
    ok, moves = _anchor_steps(b, blocked, ghost)
    return field_from(b, ok, moves, tdist, md.attack.range)


def field_from(b: Board, ok: int, moves: list[tuple[int, int]], tdist: Mapping[Sq, int], rng: int,
               ) -> dict[Sq, int]:
    """`large_field` from the anchors and steps of `_anchor_steps`, the target's route table and the range."""
    hgt = b.height
    near = 0  # the squares within attack range of the target, then the anchors of bases touching one
    for (x, y), d in tdist.items():
        if d <= rng:
            near |= 1 << (x * hgt + y)
    ring = ok & (near | near >> 1 | near >> hgt | near >> (hgt + 1))
    seen = ring
    sqs = b.squares
    field: dict[Sq, int] = {}
    d = 0
    while ring:
        set_each(field, sqs, ring, d)
        new = 0
        for shift, allowed in moves:
            a = ring & allowed
            if a:
                new |= a << shift if shift > 0 else a >> -shift
        ring = new & ok & ~seen
        seen |= ring
        d += 1
    return field


_ANCHOR_STEPS: dict[tuple[str, frozenset[Sq], bool], tuple[int, list[tuple[int, int]]]] = {}


def _anchor_steps(b: Board, blocked: frozenset[Sq], ghost: bool) -> tuple[int, list[tuple[int, int]]]:
    """For `large_field`: the anchors where a 2x2 base fits (`_large_anchors`) as a mask, and per direction the
    shift of a step and the anchors it may be taken from (every square of the base may step that way, unless a
    ghost, and a diagonal passes no blocked square beside the base); once per board, blocked set and ghostliness."""
    key = (b.id, blocked, ghost)
    found = _ANCHOR_STEPS.get(key)
    if found is None:
        hgt = b.height
        ok = 0
        for x, y in _large_anchors(b, blocked, ghost):
            ok |= 1 << (x * hgt + y)
        moves = []
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            allowed = 0
            for x in range(b.width):
                for y in range(hgt):
                    cur_fp = footprint(x, y, True)
                    if not ghost and any((s, d) not in b.step_set for s in cur_fp):
                        continue
                    if d[0] and d[1] and blocked:
                        new_fp = footprint(x + d[0], y + d[1], True)
                        sides = {q for s in cur_fp for q in ((s[0] + d[0], s[1]), (s[0], s[1] + d[1]))}
                        if any(q in blocked for q in sides if q not in cur_fp and q not in new_fp):
                            continue
                    allowed |= 1 << (x * hgt + y)
            moves.append((d[0] * hgt + d[1], allowed & ok))
        if len(_ANCHOR_STEPS) > 1000:
            _ANCHOR_STEPS.clear()
        found = _ANCHOR_STEPS[key] = (ok, moves)
    return found


_HURTFUL = frozenset(HAZARDS)  # the terrain `terrain_debuff` may answer for (lava, brambles)


def place_monster(st: DungeonState, m: MonsterState, dest: Sq, path: tuple[Sq, ...], lines: list[str]) -> None:
    md = monster_def(m)
    start = monster_name(m)
    free = push_spots(st, m, dest, path) if md.large else []  # worked out before the move
    marks.moved(st, md.name, (m.x, m.y), path or (dest,), monster=True)
    m.x, m.y = dest
    lines.append(f"{start} moves to {sq_label(*dest)}.")
    if md.large:  # push smaller friends back into the squares the last step left
        for other in pushed_by(st, m, dest):
            # each pushed model goes to the nearest square the large model's last step left
            spot = min(free, key=lambda s: (max(abs(s[0] - other.x), abs(s[1] - other.y)), s[1], s[0]))
            free.remove(spot)
            lines.append(f"{md.name} pushes {monster_def(other).name} back from {sq_label(other.x, other.y)} "
                         f"to {sq_label(*spot)}.")
            other.x, other.y = spot
    b = board(st.dungeon)
    hurtful = b.terrain_squares(_HURTFUL)
    if not md.large and hurtful.isdisjoint(path):
        return  # only lava and brambles hurt (`terrain_debuff`)
    for anchor in path:  # rule (lava, brambles): entering hurts; Fly spares only difficult terrain
        for s in footprint(anchor[0], anchor[1], md.large):
            hurt = terrain_debuff(b.terrain_at(s), md.attributes)
            if hurt:
                give_debuff_monster(m, hurt, lines)


def flee(st: DungeonState, m: MonsterState, lines: list[str]) -> None:
    opts, path = monster_moves(st, m)
    alive = [h for h in st.heroes if not is_incap(h)]
    if not opts or not alive:
        lines.append(f"{monster_name(m)} cowers.")
        return

    def gap(fp: tuple[Sq, ...]) -> int:
        return min(route(st, fp, hfp(h)) for h in alive)

    here = gap(mfp(m))
    md = monster_def(m)
    best = max(opts, key=lambda sq: (gap(footprint(sq[0], sq[1], md.large)), -opts[sq][0], -sq[1], -sq[0]))
    if gap(footprint(best[0], best[1], md.large)) <= here:
        lines.append(f"{monster_name(m)} cowers.")
        return
    place_monster(st, m, best, path(best), lines)
