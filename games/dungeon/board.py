"""Dungeon geometry: walls between squares, terrain, movement steps, routes and line of sight.

A `Board` is built once per dungeon definition and caches what never changes (per pair of
squares: whether walls leave any sight line, the squares clear lines touch, in `sightmap.py`; line of
sight itself is exact, see `los.py`). Whatever moves (models,
spawn points, chests) is passed in as sets of squares.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from games.core.grid import DIRS8, parse_label

from .data import TERRAIN_CHARS, DungeonDef, parse_wall
from .los import merge_walls
from .maps import dungeon_def
from .sightmap import SightTable

Sq = tuple[int, int]

STRUCTURE_TERRAIN = frozenset({"structure", "champion", "sentinel", "goddess"})
SLOW_TERRAIN = frozenset({"difficult", "brambles"})  # a step into it costs 2 movement (fliers excepted)
def footprint(x: int, y: int, large: bool) -> tuple[Sq, ...]:
    """The squares a model covers: its anchor (north-west square), plus three more if large."""
    if large:
        return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
    return ((x, y),)


class Board:
    """Static geometry of one dungeon."""

    def __init__(self, d: DungeonDef) -> None:
        self.id = d.id
        self.width, self.height = d.width, d.height
        self.terrain: list[list[str]] = [[TERRAIN_CHARS[ch] for ch in row] for row in d.terrain]
        self.vwalls: set[tuple[int, int]] = set()
        self.hwalls: set[tuple[int, int]] = set()
        for w in d.walls:
            for kind, a, b in parse_wall(w, d.width, d.height):
                (self.vwalls if kind == "v" else self.hwalls).add((a, b))
        self.static_structures = frozenset(
            (x, y) for y in range(self.height) for x in range(self.width) if self.terrain[y][x] in STRUCTURE_TERRAIN
        )
        self.chasms = frozenset(
            (x, y) for y in range(self.height) for x in range(self.width) if self.terrain[y][x] == "chasm"
        )
        self.areas: list[tuple[int, int, int, int]] = []
        for lv in d.levels:
            corner_a, _, corner_b = lv.area.partition("-")
            pa, pb = parse_label(corner_a), parse_label(corner_b)
            assert pa and pb
            self.areas.append((min(pa[0], pb[0]), min(pa[1], pb[1]), max(pa[0], pb[0]), max(pa[1], pb[1])))
        self.spawns: list[Sq] = [parse_label(lv.spawn) for lv in d.levels]  # type: ignore[misc]
        self.chests: list[Sq] = [parse_label(lv.chest) for lv in d.levels]  # type: ignore[misc]
        self.start: list[Sq] = [parse_label(s) for s in d.start]  # type: ignore[misc]
        # legal steps as far as walls go: square -> [(direction, next square, the two side squares of a diagonal)]
        self.steps: dict[Sq, list[tuple[tuple[int, int], Sq, tuple[Sq, ...]]]] = {}
        for y in range(self.height):
            for x in range(self.width):
                lst = []
                for step in DIRS8.values():
                    if self.step_walls_ok((x, y), step):
                        nxt = (x + step[0], y + step[1])
                        sides: tuple[Sq, ...] = ((nxt[0], y), (x, nxt[1])) if step[0] and step[1] else ()
                        lst.append((step, nxt, sides))
                self.steps[(x, y)] = lst
        self.step_set = {(sq, d) for sq, lst in self.steps.items() for d, _, _ in lst}
        # the same steps over square numbers x * height + y (numbers order as the squares do), for `search_small`:
        # number -> [(next number, side numbers of a diagonal or -1)]
        self.squares: list[Sq] = [(x, y) for x in range(self.width) for y in range(self.height)]
        self.nsteps: list[list[tuple[int, int, int]]] = [
            [(nxt[0] * self.height + nxt[1], *((s[0] * self.height + s[1] for s in sides) if sides else (-1, -1)))
             for _d, nxt, sides in self.steps[sq]] for sq in self.squares]
        self.wall_segments = merge_walls(self.vwalls, self.hwalls)
        # per direction, for `mask_moves`: (the square-number shift of a step, the squares it may be taken from as
        # far as walls and edges go, and for a diagonal the shifts to its two side squares, else 0, 0)
        self.dir_masks: list[tuple[int, int, int, int]] = []
        for dx, dy in DIRS8.values():
            allowed = 0
            for (x, y), lst in self.steps.items():
                if any(d == (dx, dy) for d, _, _ in lst):
                    allowed |= 1 << (x * self.height + y)
            diagonal = bool(dx and dy)
            self.dir_masks.append((dx * self.height + dy, allowed, dx * self.height if diagonal else 0,
                                   dy if diagonal else 0))
        # per row y, the squares of that row (numbers y, height + y, ...): a row's squares in column order
        self.row_masks: list[int] = [sum(1 << (x * self.height + y) for x in range(self.width))
                                     for y in range(self.height)]
        self._sight_table: SightTable | None = None
        self._terrain_sets: dict[frozenset[str], frozenset[Sq]] = {}
        self._screen: dict[int, frozenset[Sq]] = {}
        self._aura: dict[int, frozenset[Sq]] = {}
        self._base_steps: dict[tuple[bool, bool], dict[Sq, list[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]]]]] = {}

    # ---- basic squares ---------------------------------------------------
    def inside(self, sq: Sq) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def terrain_at(self, sq: Sq) -> str:
        return self.terrain[sq[1]][sq[0]]

    def terrain_squares(self, kinds: frozenset[str]) -> frozenset[Sq]:
        """Every square whose terrain is one of `kinds`."""
        found = self._terrain_sets.get(kinds)
        if found is None:
            found = self._terrain_sets[kinds] = frozenset(
                (x, y) for y in range(self.height) for x in range(self.width) if self.terrain[y][x] in kinds)
        return found

    def tile_of(self, sq: Sq) -> int:
        """Index of the level area a square lies in (-1 if none)."""
        for i, (x0, y0, x1, y1) in enumerate(self.areas):
            if x0 <= sq[0] <= x1 and y0 <= sq[1] <= y1:
                return i
        return -1

    def wall_between(self, a: Sq, b: Sq) -> bool:
        """Wall between two orthogonally adjacent squares."""
        if a[1] == b[1]:
            return (max(a[0], b[0]), a[1]) in self.vwalls
        return (a[0], max(a[1], b[1])) in self.hwalls

    def step_walls_ok(self, a: Sq, d: tuple[int, int]) -> bool:
        """May a step from `a` in direction d cross the walls? A diagonal needs all four edges at the corner open."""
        b = (a[0] + d[0], a[1] + d[1])
        if not self.inside(b):
            return False
        if d[0] == 0 or d[1] == 0:
            return not self.wall_between(a, b)
        side1, side2 = (b[0], a[1]), (a[0], b[1])
        return not (
            self.wall_between(a, side1) or self.wall_between(a, side2)
            or self.wall_between(side1, b) or self.wall_between(side2, b)
        )

    def base_steps(self, large: bool, ignore_walls: bool) -> dict[Sq, list[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]]]]:
        """For `move_search`: anchor -> [(next anchor, squares a diagonal step passes between, squares the
        base enters)] for every step the board's edges and walls allow a base of this size (walls ignored
        by a ghost or burrower); worked out once per board. Whether the side squares may be passed and
        the entered squares entered depends on the models, so the search asks that."""
        key = (large, ignore_walls)
        found = self._base_steps.get(key)
        if found is None:
            found = self._base_steps[key] = {}
            for y in range(self.height):
                for x in range(self.width):
                    found[(x, y)] = self._base_steps_from((x, y), large, ignore_walls)
        return found

    def _base_steps_from(self, cur: Sq, large: bool, ignore_walls: bool,
                         ) -> list[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]]]:
        cur_fp = footprint(*cur, large)
        out = []
        for d in DIRS8.values():
            nxt = (cur[0] + d[0], cur[1] + d[1])
            new_fp = footprint(*nxt, large)
            sides: list[Sq] = []
            ok = True
            for s in cur_fp:
                t = (s[0] + d[0], s[1] + d[1])
                if not self.inside(t) or (not ignore_walls and (s, d) not in self.step_set):
                    ok = False
                    break
                if d[0] and d[1]:
                    sides += [q for q in ((t[0], s[1]), (s[0], t[1])) if q not in cur_fp and q not in new_fp]
            if not ok or (large and not ignore_walls and self.internal_walls(*nxt)):
                continue
            out.append((nxt, tuple(dict.fromkeys(sides)), tuple(q for q in new_fp if q not in cur_fp)))
        return out

    def internal_walls(self, x: int, y: int) -> bool:
        """Would a 2x2 base anchored at (x, y) sit over a wall?"""
        return (
            self.wall_between((x, y), (x + 1, y)) or self.wall_between((x, y + 1), (x + 1, y + 1))
            or self.wall_between((x, y), (x, y + 1)) or self.wall_between((x + 1, y), (x + 1, y + 1))
        )

    # ---- routes ----------------------------------------------------------
    def route_distances(self, sources: Iterable[Sq], structures: frozenset[Sq], limit: int = 99) -> dict[Sq, int]:
        """Shortest route (steps, diagonals allowed past open corners) from any source, ignoring models.

        Structures can be reached (they are targets, e.g. a spawn point) but not passed through.
        """
        return dict(self.route_table(sources, structures, limit))

    def route_table(self, sources: Iterable[Sq], structures: frozenset[Sq], limit: int = 99) -> Mapping[Sq, int]:
        """`route_distances` without the copy: the cached table itself, to be read, never changed."""
        srcs = sources if type(sources) is tuple and len(sources) == 1 else tuple(sorted(set(sources)))
        return _routes(self.id, srcs, structures, limit)

    # ---- sight -----------------------------------------------------------
    @property
    def sight_table(self) -> SightTable:
        """Per pair of squares, what never changes about sight between them (see `sightmap`)."""
        if self._sight_table is None:
            self._sight_table = SightTable(self.width, self.height, self.wall_segments, self.wall_between)
        return self._sight_table

    def numbers(self, squares: Iterable[Sq]) -> tuple[int, ...]:
        hgt = self.height
        return tuple(x * hgt + y for x, y in squares)

    def sees(self, a: Sq, b: Sq, block: frozenset[Sq] | set[Sq], ignore_walls: bool = False) -> bool:
        """Exact line of sight between squares a and b when the squares in `block` stop it (see `los`)."""
        t = self.sight_table
        hgt = self.height
        return t.sees(a[0] * hgt + a[1], b[0] * hgt + b[1], t.bits(block), ignore_walls)

    def sight(self, froms: Iterable[Sq], tos: Iterable[Sq], blockers: frozenset[Sq] | set[Sq],
              ignore_walls: bool = False) -> bool:
        """Line of sight from any part of any `froms` square to any part of any `tos` square.

        `blockers` are the squares that stop sight here (structures, opposing models); the
        caller leaves out whatever does not block for this pair (fliers, small models...).
        """
        t = self.sight_table
        return t.sight(self.numbers(froms), self.numbers(tos), t.bits(blockers), ignore_walls)

    # ---- spawn point screens and auras -------------------------------------
    def screen(self, level: int, reach: int) -> frozenset[Sq]:
        """Squares within `reach` of an inactive spawn point that can see it: heroes may not enter."""
        if level not in self._screen:
            self._screen[level] = self._near_visible(self.spawns[level], reach)
        return self._screen[level]

    def aura(self, level: int, reach: int) -> frozenset[Sq]:
        """Squares an active spawn point's support aura covers."""
        if level not in self._aura:
            self._aura[level] = self._near_visible(self.spawns[level], reach)
        return self._aura[level]

    def _near_visible(self, sp: Sq, reach: int) -> frozenset[Sq]:
        dist = self.route_distances([sp], self.static_structures | {sp}, reach)
        return frozenset(
            sq for sq, d in dist.items()
            if 0 < d <= reach and self.sight([sp], [sq], self.static_structures)
        )


@lru_cache(maxsize=32)  # bounded: every built dungeon (`random-<n>`) is a board of its own
def board(dungeon_id: str) -> Board:
    return Board(dungeon_def(dungeon_id))


_ROUTE_CACHE: dict[tuple, dict[Sq, int]] = {}


def _routes(board_id: str, sources: tuple[Sq, ...], structures: frozenset[Sq], limit: int) -> dict[Sq, int]:
    key = (board_id, sources, structures, limit)
    hit = _ROUTE_CACHE.get(key)
    if hit is not None:
        return hit
    b = board(board_id)
    # breadth-first, one whole ring of squares at a time, as bitmasks of square numbers (x * height + y):
    # a step in one direction is a shift of the squares it may be taken from (`_step_masks`)
    hgt = b.height
    moves, stop = _step_masks(b, structures)
    seen = 0
    for x, y in sources:
        seen |= 1 << (x * hgt + y)
    ring = seen
    rings = [seen]
    d = 0
    while ring and d < limit:
        grow = ring & ~stop if d else ring  # a structure is reached, not passed through (a source may be one)
        new = 0
        for shift, allowed in moves:
            m = grow & allowed
            if m:
                new |= m << shift if shift > 0 else m >> -shift
        ring = new & ~seen
        seen |= ring
        rings.append(ring)
        d += 1
    sqs = b.squares
    found: dict[Sq, int] = {}
    for d, ring in enumerate(rings):
        bits = bin(ring)[:1:-1]  # bit n is character n
        n = bits.find("1")
        while n >= 0:
            found[sqs[n]] = d
            n = bits.find("1", n + 1)
    if len(_ROUTE_CACHE) > 50000:
        _ROUTE_CACHE.clear()
        _RINGS.clear()
    _ROUTE_CACHE[key] = found
    _RINGS[key] = rings
    return found


_RINGS: dict[tuple, list[int]] = {}  # the same tables as masks: per distance, the squares at it


def route_rings(b: Board, sources: tuple[Sq, ...], structures: frozenset[Sq], limit: int = 99) -> list[int]:
    """`Board.route_table` as masks of square numbers: the squares at distance 0, 1, ... (the same search)."""
    srcs = sources if type(sources) is tuple and len(sources) == 1 else tuple(sorted(set(sources)))
    key = (b.id, srcs, structures, limit)
    found = _RINGS.get(key)
    if found is None:
        _routes(b.id, srcs, structures, limit)
        found = _RINGS[key]
    return found


_MASKS: dict[tuple[str, frozenset[Sq]], tuple[list[tuple[int, int]], int]] = {}


def _step_masks(b: Board, structures: frozenset[Sq]) -> tuple[list[tuple[int, int]], int]:
    """For `_routes`: per direction, the square-number shift of a step and the squares it may be taken from
    (walls and the board's edges allow it, and no structure stands on a side square of a diagonal), and the
    structures as a mask; once per set of structures."""
    key = (b.id, structures)
    found = _MASKS.get(key)
    if found is None:
        hgt = b.height
        stop = 0
        for x, y in structures:
            if 0 <= x < b.width and 0 <= y < hgt:
                stop |= 1 << (x * hgt + y)
        allowed: dict[tuple[int, int], int] = {}
        for (x, y), steps in b.steps.items():
            for d, _nxt, sides in steps:
                if sides and (sides[0] in structures or sides[1] in structures):
                    continue
                allowed[d] = allowed.get(d, 0) | 1 << (x * hgt + y)
        moves = [(d[0] * hgt + d[1], allowed[d]) for d in DIRS8.values() if d in allowed]
        if len(_MASKS) > 1000:
            _MASKS.clear()
        found = _MASKS[key] = (moves, stop)
    return found


def move_search(
    b: Board,
    start: Sq,
    large: bool,
    allowance: int,
    *,
    passable: Callable[[Sq], bool],
    can_end: Callable[[Sq], bool],
    cost_of: Callable[[Sq], int],
    hazard_of: Callable[[Sq], int],
    ignore_walls: bool = False,
) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    """Every anchor a model can end a move on: anchor -> (movement spent, hazards entered, path).

    A step must be legal for every square of the base; a diagonal step is blocked when
    either orthogonal neighbour is blocked (wall at the corner, or a square it may not pass).
    Dijkstra on (movement, hazards), so a route avoiding lava or brambles is preferred.
    """
    if not large and not ignore_walls:
        return _move_search_small(b, start, allowance, passable, can_end, cost_of, hazard_of)
    table = b.base_steps(large, ignore_walls)
    own0 = set(footprint(*start, large))
    best: dict[Sq, tuple[int, int]] = {start: (0, 0)}
    paths: dict[Sq, tuple[Sq, ...]] = {start: ()}
    heap: list[tuple[int, int, Sq]] = [(0, 0, start)]
    # per square asked about: (may be passed (its own squares always may), step cost, hazard); the tests are
    # fixed for the whole search, so each square is asked once
    info: dict[Sq, tuple[bool, bool, int, int]] = {}

    def about(q: Sq) -> tuple[bool, bool, int, int]:
        ok = passable(q)
        found = info[q] = (ok, ok or q in own0, cost_of(q), hazard_of(q))
        return found

    while heap:
        cost, haz, cur = heapq.heappop(heap)
        if best.get(cur, (999, 999)) < (cost, haz):
            continue
        for nxt, sides, entered in table[cur]:
            shut = False
            for q in sides:
                if not (info.get(q) or about(q))[0]:
                    shut = True
                    break
            if shut:
                continue
            step_cost = nhaz = 0
            for q in entered:
                ok, enter, c, hz = info.get(q) or about(q)
                if not enter:
                    shut = True
                    break
                if c > step_cost:
                    step_cost = c
                nhaz += hz
            if shut:
                continue
            ncost = cost + step_cost
            if ncost > allowance:
                continue
            nhaz += haz
            if best.get(nxt, (999, 999)) <= (ncost, nhaz):
                continue
            best[nxt] = (ncost, nhaz)
            paths[nxt] = paths[cur] + (nxt,)
            heapq.heappush(heap, (ncost, nhaz, nxt))
    out = {}
    ends: dict[Sq, bool] = {}  # per square asked about: may the base end over it (its own squares always may)

    def may_end(q: Sq) -> bool:
        found = ends.get(q)
        if found is None:
            found = ends[q] = q in own0 or can_end(q)
        return found

    for sq, (c, h) in best.items():
        if sq == start:
            continue
        if large and ignore_walls and b.internal_walls(*sq):
            continue  # a large ghost passes through walls but may not end its move astride one
        x, y = sq
        if may_end(sq) and (not large or (may_end((x + 1, y)) and may_end((x, y + 1)) and may_end((x + 1, y + 1)))):
            out[sq] = (c, h, paths[sq])
    return out


_K = 1 << 20  # movement and hazards in one integer: cost * _K + hazards, ordered as the pair (cost, hazards)


NEVER = 1 << 60  # a step cost no allowance reaches: the square is never entered


def step_classes(stepc: list[int]) -> tuple[int, int, int, int]:
    """What `stepc` (as `small_moves` takes it) says of each square, as four bitmasks of square numbers: the
    squares a step enters for 1 movement without a hazard, 1 with a hazard, 2 without, 2 with (`NEVER`: in none)."""
    masks = [0, 0, 0, 0]
    for n, c in enumerate(stepc):
        if c < NEVER:
            cost, haz = divmod(c, _K)
            assert 1 <= cost <= 2 and haz <= 1, "a step costs 1 or 2 movement and at most one hazard"
            masks[2 * (cost - 1) + haz] |= 1 << n
    return masks[0], masks[1], masks[2], masks[3]


def bits_of(flags: bytearray) -> int:
    """A bytearray of 0/1 flags per square number as a bitmask (bit n set where flags[n])."""
    return int(bytes(flags).translate(_FLAG_DIGITS)[::-1] or b"0", 2)


_FLAG_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def small_moves(b: Board, first: int, allowance: int, blk: bytearray, stepc: list[int], no_end: bytearray,
                ) -> SmallMoves:
    """`move_search` for a one-square model that respects walls, over square numbers x * height + y: from square
    `first`, `blk` marking the squares that may not be passed (one cell more, for "no side square"), `stepc` what
    a step into each square adds to the key (`_K` per movement point, 1 per hazard, `NEVER` if it may not be
    entered), `no_end` where it may not end. The arrays' form of `mask_moves`, which the engine calls."""
    return mask_moves(b, first, allowance, bits_of(blk[:-1]), step_classes(stepc), bits_of(no_end))


def mask_moves(b: Board, first: int, allowance: int, blk: int, classes: tuple[int, int, int, int], no_end: int,
               fill: bool = True) -> SmallMoves:
    """Every square a one-square model that respects walls can end a move on, from square number `first`: Dijkstra
    on (movement, hazards), worked out one key at a time over bitmasks of square numbers. `blk`: the squares that
    may not be passed (nor a diagonal taken beside one); `classes`: the squares a step enters for 1 movement
    without a hazard, 1 with one, 2 without, 2 with (`step_classes`); `no_end`: where it may not end. The model's
    own square never blocks it and is never entered again.

    The squares of one key are those of the keys a step before it (1 or 2 movement less, the hazard of the square
    entered less) stepped from and not yet reached; a step in one direction is a shift of the squares it may be
    taken from (walls, and a diagonal's side squares passable). `fill` False leaves the answer's squares in its
    `ends` masks only (`SmallMoves.fill` lists them), for a caller that picks one by masks. The answer is that of
    a heap of (key, square):
    the same keys, and the same path to each square (`SmallMoves.path`: from the lowest-numbered square of the
    cheapest key a step before, the square a heap would have reached it from first)."""
    fbit = 1 << first
    blk &= ~fbit
    free = ~blk
    e10, e11, e20, e21 = classes
    keep = ~fbit
    e10, e11, e20, e21 = e10 & keep, e11 & keep, e20 & keep, e21 & keep
    dirs = []
    for shift, walls, side1, side2 in b.dir_masks:
        if side1:  # a diagonal: both side squares passable
            walls &= (free >> side1 if side1 > 0 else free << -side1) & (free >> side2 if side2 > 0 else free << -side2)
        dirs.append((shift, walls))

    def expand(ring: int) -> int:
        out = 0
        for shift, allowed in dirs:
            m = ring & allowed
            if m:
                out |= m << shift if shift > 0 else m >> -shift
        return out

    seen = fbit
    layers: list[list[int]] = [[fbit]]  # per movement spent, the squares first reached with each hazard count
    grown: list[list[int]] = [[expand(fbit)]]  # the squares a step from each of those leads to
    for c in range(1, allowance + 1):
        one = grown[c - 1]
        two = grown[c - 2] if c >= 2 else []
        if not (any(one) or any(two)):
            break
        cand = [0] * (max(len(one), len(two)) + 1)
        for hz, x in enumerate(one):
            if x:
                cand[hz] |= x & e10
                cand[hz + 1] |= x & e11
        for hz, x in enumerate(two):
            if x:
                cand[hz] |= x & e20
                cand[hz + 1] |= x & e21
        while cand and not cand[-1] & ~seen:
            cand.pop()
        layer = []
        for x in cand:
            x &= ~seen
            seen |= x
            layer.append(x)
        layers.append(layer)
        grown.append([expand(x) if x else 0 for x in layer] if c < allowance else [])
    skip = ~(no_end | fbit)
    found = SmallMoves(b.squares, b.height, first, b.nsteps, blk, (e10, e11, e20, e21), layers,
                       [(c, hz, ring & skip) for c, layer in enumerate(layers) for hz, ring in enumerate(layer)
                        if ring & skip])
    if fill:
        found.fill()
    return found


def search_small(b: Board, first: int, allowance: int, blk: bytearray, stepc: list[int], no_end: bytearray,
                 ) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    """`small_moves` with every square's path: anchor -> (movement spent, hazards entered, path), as
    `move_search` gives it."""
    found = small_moves(b, first, allowance, blk, stepc, no_end)
    return {sq: (c, h, found.path(sq)) for sq, (c, h) in found.items()}


class SmallMoves(dict[Sq, tuple[int, int]]):
    """What `mask_moves` finds: square -> (movement spent, hazards entered), cheapest first and squares of one
    cost in number order (the order a heap of (key, square) takes them); `path` makes a square's path when it is
    asked (most searches move to one square, or none)."""

    def __init__(self, squares: list[Sq], height: int, first: int, nsteps: list[list[tuple[int, int, int]]],
                 blk: int, classes: tuple[int, int, int, int], layers: list[list[int]],
                 ends: list[tuple[int, int, int]]) -> None:
        super().__init__()
        self._squares, self._height, self._nsteps, self._blk = squares, height, nsteps, blk
        self._classes, self._layers = classes, layers  # per movement spent, per hazards: the squares reached
        self.ends = ends  # (movement, hazards, mask of the squares it may end on) cheapest first, none empty
        self.filled = False
        self._paths: dict[int, tuple[Sq, ...]] = {first: ()}

    def key_of(self, sq: Sq) -> tuple[int, int]:
        """(movement spent, hazards entered) to a square it may end on (as the filled mapping gives it)."""
        bit = 1 << (sq[0] * self._height + sq[1])
        for c, hz, ring in self.ends:
            if ring & bit:
                return c, hz
        raise KeyError(sq)

    def fill(self) -> SmallMoves:
        """List the squares of `ends` in the mapping (once), cheapest first and each cost's in number order."""
        if not self.filled:
            self.filled = True
            sqs = self._squares
            for c, hz, ring in self.ends:
                key = (c, hz)
                digits = bin(ring)[:1:-1]  # bit n is character n
                n = digits.find("1")
                while n >= 0:
                    self[sqs[n]] = key
                    n = digits.find("1", n + 1)
        return self

    def _prev(self, n: int, c: int, hz: int) -> tuple[int, int, int]:
        """The square the search reached square number `n` (of key (c, hz)) from, and its key: of the squares a
        step from it (a diagonal beside no blocked square) whose key is n's less the step into it, the lowest-
        numbered."""
        bit = 1 << n
        e10, e11, e20, _ = self._classes
        c, hz = (c - 1, hz) if e10 & bit else (c - 1, hz - 1) if e11 & bit else (c - 2, hz) if e20 & bit \
            else (c - 2, hz - 1)
        came = self._layers[c][hz]  # the squares of the key it was reached from
        blk = self._blk
        best = -1
        for p, s1, s2 in self._nsteps[n]:
            if came >> p & 1 and (s1 < 0 or not (blk >> s1 & 1 or blk >> s2 & 1)) and (best < 0 or p < best):
                best = p
        assert best >= 0
        return best, c, hz

    def path(self, sq: Sq) -> tuple[Sq, ...]:
        """The squares entered on the way to `sq` (a square the search found), in order."""
        sqs, paths = self._squares, self._paths
        n = sq[0] * self._height + sq[1]
        path = paths.get(n)
        if path is None:
            c, hz = self.key_of(sq)
            chain = []
            node = n
            while node not in paths:
                chain.append(node)
                node, c, hz = self._prev(node, c, hz)
            path = paths[node]
            for x in reversed(chain):
                path = paths[x] = path + (sqs[x],)
        return path


def _move_search_small(b: Board, start: Sq, allowance: int, passable, can_end, cost_of, hazard_of):
    """`move_search` for a one-square model that respects walls (the common case, kept fast)."""
    best: dict[Sq, tuple[int, int]] = {start: (0, 0)}
    prev: dict[Sq, Sq] = {}
    heap: list[tuple[int, int, Sq]] = [(0, 0, start)]
    ok_cache: dict[Sq, bool] = {}

    def ok(s: Sq) -> bool:
        v = ok_cache.get(s)
        if v is None:
            v = ok_cache[s] = s == start or passable(s)
        return v

    while heap:
        cost, haz, cur = heapq.heappop(heap)
        if best[cur] < (cost, haz):
            continue
        for _d, nxt, sides in b.steps[cur]:
            if sides and not (ok(sides[0]) and ok(sides[1])):
                continue
            if not ok(nxt):
                continue
            ncost = cost + cost_of(nxt)
            if ncost > allowance:
                continue
            key = (ncost, haz + hazard_of(nxt))
            old = best.get(nxt)
            if old is not None and old <= key:
                continue
            best[nxt] = key
            prev[nxt] = cur
            heapq.heappush(heap, (key[0], key[1], nxt))
    out = {}
    for sq, (c, h) in best.items():
        if sq == start or not can_end(sq):
            continue
        path = []
        node = sq
        while node != start:
            path.append(node)
            node = prev[node]
        out[sq] = (c, h, tuple(reversed(path)))
    return out
