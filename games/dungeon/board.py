"""Dungeon geometry: walls between squares, terrain, movement steps, routes and line of sight.

A `Board` is built once per dungeon definition and caches what never changes (per pair of
squares: whether walls leave any sight line, the squares clear lines touch, in `sightmap.py`; line of
sight itself is exact, see `los.py`). Whatever moves (models,
spawn points, chests) is passed in as sets of squares.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import compress
from typing import TypeVar

from games.core.grid import DIRS8, parse_label

from .data import TERRAIN_CHARS, DungeonDef, parse_wall
from .los import merge_walls
from .maps import dungeon_def
from .sightmap import SightTable

Sq = tuple[int, int]
# per direction (shift, squares a step may be taken from): four steps to higher square numbers, then four to lower
# ones with the shift as a positive count (`_step_masks`)
Moves = tuple[tuple[int, int], ...]
T = TypeVar("T")
V = TypeVar("V")

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
        self.terrain: list[tuple[str, ...]] = [tuple([TERRAIN_CHARS[ch] for ch in row]) for row in d.terrain]
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
        # (tuples throughout, here and below: values the garbage collector stops tracking, as every board a
        # process has built stays cached)
        self.steps: dict[Sq, tuple[tuple[tuple[int, int], Sq, tuple[Sq, ...]], ...]] = {}
        for y in range(self.height):
            for x in range(self.width):
                lst = []
                for step in DIRS8.values():
                    if self.step_walls_ok((x, y), step):
                        nxt = (x + step[0], y + step[1])
                        sides: tuple[Sq, ...] = ((nxt[0], y), (x, nxt[1])) if step[0] and step[1] else ()
                        lst.append((step, nxt, sides))
                self.steps[(x, y)] = tuple(lst)
        self.step_set = {(sq, d) for sq, lst in self.steps.items() for d, _, _ in lst}
        # the same steps over square numbers x * height + y (numbers order as the squares do), for `search_small`:
        # number -> [(next number, side numbers of a diagonal or -1)], in order of the next number
        self.squares: list[Sq] = [(x, y) for x in range(self.width) for y in range(self.height)]
        self.nsteps: list[tuple[tuple[int, int, int], ...]] = [
            tuple(sorted([(nxt[0] * self.height + nxt[1],
                           *((s[0] * self.height + s[1] for s in sides) if sides else (-1, -1)))
                          for _d, nxt, sides in self.steps[sq]])) for sq in self.squares]
        self.wall_segments = merge_walls(self.vwalls, self.hwalls)
        # per direction, for `mask_moves`: (the square-number shift of a step, the squares it may be taken from as
        # far as walls and edges go, and for a diagonal the shifts to its two side squares, else 0, 0)
        self.dir_masks: list[tuple[int, int, int, int]] = []
        for dx, dy in DIRS8.values():
            allowed = 0
            for (x, y), there in self.steps.items():
                if any(d == (dx, dy) for d, _, _ in there):
                    allowed |= 1 << (x * self.height + y)
            diagonal = bool(dx and dy)
            self.dir_masks.append((dx * self.height + dy, allowed, dx * self.height if diagonal else 0,
                                   dy if diagonal else 0))
        # the same squares a step may be taken from (walls and edges), per direction: north, north-east, east,
        # south-east, south, south-west, west, north-west (`mask_moves` takes them in that order)
        walls_of = {(dx, dy): allowed for (dx, dy), (_, allowed, _, _) in zip(DIRS8.values(), self.dir_masks,
                                                                              strict=True)}
        self.compass_walls: tuple[int, ...] = tuple(walls_of[d] for d in ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1),
                                                                          (-1, 1), (-1, 0), (-1, -1)))
        # per square number, its place row by row (y * width + x): squares sorted by it go by row, then column
        self.row_order: list[int] = [y * self.width + x for x, y in self.squares]
        # per row y, the squares of that row (numbers y, height + y, ...): a row's squares in column order
        self.row_masks: list[int] = [sum(1 << (x * self.height + y) for x in range(self.width))
                                     for y in range(self.height)]
        self._sight_table: SightTable | None = None
        self._terrain_sets: dict[frozenset[str], frozenset[Sq]] = {}
        self._screen: dict[int, frozenset[Sq]] = {}
        self._aura: dict[int, frozenset[Sq]] = {}
        self._base_steps: dict[tuple[bool, bool], dict[Sq, tuple[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]], ...]]] = {}

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

    def base_steps(self, large: bool, ignore_walls: bool,
                   ) -> dict[Sq, tuple[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]], ...]]:
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
                         ) -> tuple[tuple[Sq, tuple[Sq, ...], tuple[Sq, ...]], ...]:
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
        return tuple(out)

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


def numbers_of(mask: int) -> list[int]:
    """The set bits of a mask of square numbers, lowest first (its binary digits read once: cheaper than
    peeling bits off a wide integer)."""
    digits = bin(mask)[:1:-1]  # bit n is character n
    out = []
    n = digits.find("1")
    while n >= 0:
        out.append(n)
        n = digits.find("1", n + 1)
    return out


_SELECTORS = bytes.maketrans(b"01", b"\x00\x01")


def set_each(found: dict[T, V], items: Sequence[T], mask: int, value: V) -> None:
    """Set `found[items[n]] = value` for every set bit n of a mask, lowest first (`items`: the board's squares by
    number, say). A few bits are peeled one at a time (`numbers_of`); from about 32 the mask's binary digits, read
    once, select the items in `itertools.compress`, the whole scan in C (fewer instructions from there on)."""
    if mask.bit_count() < 32:
        digits = bin(mask)[:1:-1]  # bit n is character n
        n = digits.find("1")
        while n >= 0:
            found[items[n]] = value
            n = digits.find("1", n + 1)
    else:
        found.update(dict.fromkeys(compress(items, bin(mask)[:1:-1].encode().translate(_SELECTORS)), value))


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
        ring = next_ring(ring, seen, moves, stop, d == 0)
        seen |= ring
        rings.append(ring)
        d += 1
    found = _table_of(b.squares, rings)
    if len(_ROUTE_CACHE) > 50000:
        _ROUTE_CACHE.clear()
        _RINGS.clear()
    _ROUTE_CACHE[key] = found
    _RINGS[key] = tuple(rings)
    return found


def next_ring(ring: int, seen: int, moves: Moves, stop: int, first: bool) -> int:
    """One step of the ring search (`_routes`, `reach.Near`): the squares one step from `ring` not in `seen`, with
    `_step_masks`' `moves` and `stop`; a structure is reached, not passed through, unless it is the source (`first`)."""
    grow = ring if first else ring & ~stop
    (u0, a0), (u1, a1), (u2, a2), (u3, a3), (d0, b0), (d1, b1), (d2, b2), (d3, b3) = moves
    return ((grow & a0) << u0 | (grow & a1) << u1 | (grow & a2) << u2 | (grow & a3) << u3
            | (grow & b0) >> d0 | (grow & b1) >> d1 | (grow & b2) >> d2 | (grow & b3) >> d3) & ~seen


_LESS_ONE = bytes((0, *range(255)))  # byte d -> d - 1 (0 stays 0)


def _bytes_of(mask: int) -> int:
    """A mask spread out to one byte per bit: byte n of the answer is bit n of the mask (0 or 1)."""
    return int.from_bytes(bin(mask)[:1:-1].encode().translate(_SELECTORS), "little")


def _table_of(sqs: list[Sq], rings: list[int]) -> dict[Sq, int]:
    """The route table of a search's rings (the squares at distance 0, 1, ...): square -> distance, in square-number
    order. Built in C, a few whole-board steps rather than one per square: bit k of every square's distance is set in
    the union of the rings at distances with bit k (a handful of unions), and those, spread to a byte per square and
    shifted by k, add up with the reached squares' spread to each square's distance + 1 in its byte (0: not reached),
    which selects the squares and their distances in `itertools.compress`."""
    if len(rings) > 127:  # a distance + 1 no longer fits a byte (no board is that large): square by square
        found: dict[Sq, int] = {}
        for d, ring in enumerate(rings):
            set_each(found, sqs, ring, d)
        return found
    planes = [0] * (len(rings) - 1).bit_length()  # planes[k]: the squares whose distance has bit k set
    reached = 0
    for d, ring in enumerate(rings):
        reached |= ring
        k = 0
        while d:
            if d & 1:
                planes[k] |= ring
            d >>= 1
            k += 1
    total = _bytes_of(reached)
    for k, plane in enumerate(planes):
        if plane:
            total += _bytes_of(plane) << k
    dist = total.to_bytes(len(sqs), "little")  # per square number: its distance + 1, 0 where not reached
    return dict(zip(compress(sqs, dist), compress(dist.translate(_LESS_ONE), dist), strict=True))


_RINGS: dict[tuple, tuple[int, ...]] = {}  # the same tables as masks: per distance, the squares at it


def route_rings(b: Board, sources: tuple[Sq, ...], structures: frozenset[Sq], limit: int = 99) -> tuple[int, ...]:
    """`Board.route_table` as masks of square numbers: the squares at distance 0, 1, ... (the same search)."""
    srcs = sources if type(sources) is tuple and len(sources) == 1 else tuple(sorted(set(sources)))
    key = (b.id, srcs, structures, limit)
    found = _RINGS.get(key)
    if found is None:
        _routes(b.id, srcs, structures, limit)
        found = _RINGS[key]
    return found


_MASKS: dict[tuple[str, frozenset[Sq]], tuple[Moves, int]] = {}


def _step_masks(b: Board, structures: frozenset[Sq]) -> tuple[Moves, int]:
    """For `_routes`: per direction, the square-number shift of a step and the squares it may be taken from
    (walls and the board's edges allow it, and no structure stands on a side square of a diagonal), and the
    structures as a mask; once per set of structures. The steps to higher numbers come first, then those to lower
    numbers with their shift as a positive count (`Moves`)."""
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
        shifts = [(d[0] * hgt + d[1], allowed.get(d, 0)) for d in DIRS8.values()]
        # the four steps to higher square numbers (east, and south), then the four to lower ones with their shift
        # as a positive count, as `next_ring` takes them
        moves = tuple([(n, m) for n, m in shifts if n > 0] + [(-n, m) for n, m in shifts if n < 0])
        assert len(moves) == 8, "a board is at least two squares high and wide"
        if len(_MASKS) > 1000:
            _MASKS.clear()
        found = _MASKS[key] = (moves, stop)
    return found
