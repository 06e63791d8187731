"""Move searches over a board: where a model may end a move, at what cost in movement and hazards, by which path.

`move_search` is the general search with a heap (large bases, ghosts and burrowers, any tests of the squares):
the reference the tests hold the engine's searches to. The engine searches over square numbers and bitmasks: a
one-square model that respects walls, the common case, by `mask_moves`; large bases, ghosts and burrowers by
`base_moves` (the squares' tests as masks), both with `move_search`'s answer and paths.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable

from .board import Board, Sq, footprint, set_each


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
    # a step is a shift of the squares it may be taken from: walls allowing (`Board.compass_walls`) and, for a
    # diagonal, both side squares passable (the side squares of a step east lie a column on, of one south a row on)
    h = b.height
    wn, wne, we, wse, ws, wsw, ww, wnw = b.compass_walls
    east, west, south, north = free >> h, free << h, free >> 1, free << 1
    wne &= east & north
    wse &= east & south
    wsw &= west & south
    wnw &= west & north
    h1, hm = h + 1, h - 1

    def expand(ring: int) -> int:
        return ((ring & we) << h | (ring & ws) << 1 | (ring & wne) << hm | (ring & wse) << h1
                | (ring & ww) >> h | (ring & wn) >> 1 | (ring & wsw) >> hm | (ring & wnw) >> h1)

    skip = ~(no_end | fbit)
    ends: list[tuple[int, int, int]] = []  # (movement, hazards, the squares of that key it may end on), none empty
    seen = fbit
    layers: list[list[int]] = [[fbit]]  # per movement spent, the squares first reached with each hazard count
    one: list[int] = [expand(fbit)]  # the squares a step from each of the last layer's leads to
    two: list[int] = []  # and from the layer before's
    for c in range(1, allowance + 1):
        if len(one) == 1 and len(two) <= 1:  # the common case: no hazard yet, one layer per movement spent
            x, y = one[0], two[0] if two else 0
            if not (x or y):
                break
            x0 = (x & e10 | y & e20) & ~seen  # the new squares without a hazard, and with one
            x1 = (x & e11 | y & e21) & ~seen
            if x0 & skip:
                ends.append((c, 0, x0 & skip))
            if x1:
                x1 &= ~x0
                seen |= x0 | x1
                layer = [x0, x1]
                if x1 & skip:
                    ends.append((c, 1, x1 & skip))
            elif x0:
                seen |= x0
                layer = [x0]
            else:
                layer = []
        else:
            cand = [0] * ((len(one) if len(one) > len(two) else len(two)) + 1)
            for hz, x in enumerate(one):
                if x:
                    cand[hz] |= x & e10
                    cand[hz + 1] |= x & e11
            for hz, x in enumerate(two):
                if x:
                    cand[hz] |= x & e20
                    cand[hz + 1] |= x & e21
            if not (any(one) or any(two)):
                break
            while cand and not cand[-1] & ~seen:
                cand.pop()
            layer = []
            for x in cand:
                x &= ~seen
                seen |= x
                if x & skip:
                    ends.append((c, len(layer), x & skip))
                layer.append(x)
        layers.append(layer)
        two = one
        one = [expand(x) if x else 0 for x in layer] if c < allowance else []
    found = SmallMoves(b.squares, h, first, b.nsteps, blk, (e10, e11, e20, e21), layers, ends)
    if fill:
        found.fill()
    return found


def search_small(b: Board, first: int, allowance: int, blk: bytearray, stepc: list[int], no_end: bytearray,
                 ) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    """`small_moves` with every square's path: anchor -> (movement spent, hazards entered, path), as
    `move_search` gives it."""
    found = small_moves(b, first, allowance, blk, stepc, no_end)
    return {sq: (c, h, found.path(sq)) for sq, (c, h) in found.items()}


def walk_back(paths: dict[int, tuple[Sq, ...]], squares: list[Sq], n: int, key: tuple[int, int],
              prev: Callable[[int, int, int], tuple[int, int, int]]) -> tuple[Sq, ...]:
    """The path to square number `n` of key (movement, hazards) `key`: back along `prev` (a square's predecessor
    and its key) to a square whose path is known, then forward, remembering each square's path in `paths`."""
    c, hz = key
    chain = []
    node = n
    while node not in paths:
        chain.append(node)
        node, c, hz = prev(node, c, hz)
    path = paths[node]
    for x in reversed(chain):
        path = paths[x] = path + (squares[x],)
    return path


class SmallMoves(dict[Sq, tuple[int, int]]):
    """What `mask_moves` finds: square -> (movement spent, hazards entered), cheapest first and squares of one
    cost in number order (the order a heap of (key, square) takes them); `path` makes a square's path when it is
    asked (most searches move to one square, or none)."""

    def __init__(self, squares: list[Sq], height: int, first: int, nsteps: list[tuple[tuple[int, int, int], ...]],
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
                set_each(self, sqs, ring, (c, hz))
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
        for p, s1, s2 in self._nsteps[n]:  # in number order: the first that fits is the lowest-numbered
            if came >> p & 1 and (s1 < 0 or not (blk >> s1 & 1 or blk >> s2 & 1)):
                return p, c, hz
        raise AssertionError(f"square {n} has no square it was reached from")

    def path(self, sq: Sq) -> tuple[Sq, ...]:
        """The squares entered on the way to `sq` (a square the search found), in order."""
        n = sq[0] * self._height + sq[1]
        path = self._paths.get(n)
        return path if path is not None else walk_back(self._paths, self._squares, n, self.key_of(sq), self._prev)


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


_BASE_DIRS: dict[tuple[str, bool, bool], list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]] = {}


def base_dirs(b: Board, large: bool, ignore_walls: bool) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """`Board.base_steps` over square numbers, for `base_moves`: per direction, (the shift of a step, the anchors
    it may be taken from as far as walls and edges go, the shifts from the anchor to the squares a diagonal
    passes between, and to the squares the base enters); in the board's direction order, once per board, size
    and ghostliness. The squares beside and entered lie at the same offsets from every anchor; a step beside a
    square off the board is left out (no such square may be passed)."""
    key = (b.id, large, ignore_walls)
    found = _BASE_DIRS.get(key)
    if found is None:
        hgt = b.height
        per: dict[int, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
        order: list[int] = []
        for (x, y), steps in b.base_steps(large, ignore_walls).items():
            n = x * hgt + y
            for (nx, ny), sides, entered in steps:
                if not all(b.inside(q) for q in sides):
                    continue  # a square off the board is never passed (a base that starts half off it)
                shift = (nx - x) * hgt + (ny - y)
                offs = (tuple((sx - x) * hgt + (sy - y) for sx, sy in sides),
                        tuple((ex - x) * hgt + (ey - y) for ex, ey in entered))
                old = per.get(shift)
                if old is None:
                    order.append(shift)
                    per[shift] = (1 << n, *offs)
                else:
                    assert old[1:] == offs, "a step's side and entered squares lie at fixed offsets"
                    per[shift] = (old[0] | 1 << n, *offs)
        if len(_BASE_DIRS) > 200:
            _BASE_DIRS.clear()
        found = _BASE_DIRS[key] = [(shift, *per[shift]) for shift in order]
    return found


def _shifted(mask: int, off: int) -> int:
    """The mask whose bit n is bit n + off of `mask`."""
    return mask >> off if off >= 0 else mask << -off


def base_moves(b: Board, first: int, large: bool, ignore_walls: bool, allowance: int, passable: int, enter: int,
               slow: int, hazard: int, endable: int) -> BaseMoves:
    """`move_search` over bitmasks of square numbers (as `mask_moves` is for the plain one-square model): from
    anchor number `first`, `passable` the squares a base may pass (and a diagonal pass between; never one off
    the board), `enter` those
    it may enter (its own first squares too), `slow` those costing 2 movement, `hazard` those that hurt
    (one hazard each square entered), `endable` where a square of its base may end. A step costs the most any
    square it enters costs, and adds a hazard per hurting square entered.

    Worked out one key (movement, hazards) at a time, cheapest first: the anchors of a key are those a step of
    that cost and hazards leads to from the anchors of the key before it, not yet reached. The same keys as the
    heap's, and the same paths (`BaseMoves.path`: from the anchor the heap pops first, the lowest key then the
    lowest number, among those a step leads from at the anchor's key)."""
    hgt = b.height
    dirs = []  # per direction: (shift, [(movement, hazards, anchors a step of that kind is taken from)])
    for shift, allowed, sides, entered in base_dirs(b, large, ignore_walls):
        ok = allowed
        for o in sides:
            ok &= passable >> o if o >= 0 else passable << -o
        for o in entered:
            ok &= enter >> o if o >= 0 else enter << -o
        if not ok:
            continue
        two = 0
        if len(entered) <= 3:  # a base enters at most three squares a step: counted by bits, as an adder does
            hurts = [0, 0, 0]
            for i, o in enumerate(entered):
                two |= slow >> o if o >= 0 else slow << -o
                hurts[i] = hazard >> o if o >= 0 else hazard << -o
            h1, h2, h3 = hurts
            three = h1 & h2 & h3
            # counts[k]: the anchors whose step enters exactly k hurting squares
            counts = [~(h1 | h2 | h3), (h1 ^ h2 ^ h3) & ~three, (h1 & h2 | h1 & h3 | h2 & h3) & ~three, three]
        else:
            counts = [-1]
            for o in entered:
                two |= _shifted(slow, o)
                hurt = _shifted(hazard, o)
                counts = [(counts[k] if k < len(counts) else 0) & ~hurt | (counts[k - 1] & hurt if k else 0)
                          for k in range(len(counts) + 1)]
        kinds = []
        for cost, part in ((1, ok & ~two), (2, ok & two)):
            if part:
                for hz, cnt in enumerate(counts):
                    src = part & cnt
                    if src:
                        kinds.append((cost, hz, src))
        dirs.append((shift, kinds))
    fbit = 1 << first
    seen = fbit
    layers: dict[tuple[int, int], int] = {(0, 0): fbit}
    cand: dict[tuple[int, int], int] = {}

    steps = [(cost, h, src, shift) for shift, kinds in dirs for cost, h, src in kinds]  # the kinds of step in one list
    cheap = [step for step in steps if step[0] == 1]  # those costing 1: all that fit the last movement point

    def spread(c: int, hz: int, ring: int) -> None:
        for cost, h, src, shift in (steps if c + 2 <= allowance else cheap):
            m = ring & src
            if m:
                k = (c + cost, hz + h)
                cand[k] = cand.get(k, 0) | (m << shift if shift > 0 else m >> -shift)

    if allowance >= 1:
        spread(0, 0, fbit)
    for c in range(1, allowance + 1):
        keys = sorted(k for k in cand if k[0] == c)
        for k in keys:
            x = cand.pop(k) & ~seen
            if x:
                seen |= x
                layers[k] = x
                if c < allowance:
                    spread(c, k[1], x)
        if not cand:
            break
    ends = endable
    if large:
        ends &= endable >> hgt & endable >> 1 & endable >> (hgt + 1)
        if ignore_walls:
            ends &= ~_astride(b)
    ends &= ~fbit
    found = BaseMoves(b.squares, hgt, first, dirs, layers)
    sqs = b.squares
    for key in sorted(layers):
        set_each(found, sqs, layers[key] & ends, key)
    return found


_ASTRIDE: dict[str, int] = {}


def _astride(b: Board) -> int:
    """The anchors where a 2x2 base would sit over a wall, as a mask (once per board)."""
    found = _ASTRIDE.get(b.id)
    if found is None:
        if len(_ASTRIDE) > 200:
            _ASTRIDE.clear()
        found = _ASTRIDE[b.id] = sum(1 << (x * b.height + y) for x in range(b.width - 1)
                                     for y in range(b.height - 1) if b.internal_walls(x, y))
    return found


class BaseMoves(dict[Sq, tuple[int, int]]):
    """What `base_moves` finds: anchor -> (movement spent, hazards entered), cheapest first and anchors of one
    key in number order; `path` makes an anchor's path when it is asked."""

    def __init__(self, squares: list[Sq], height: int, first: int,
                 dirs: list[tuple[int, list[tuple[int, int, int]]]], layers: dict[tuple[int, int], int]) -> None:
        super().__init__()
        self._squares, self._height, self._dirs, self._layers, self._first = squares, height, dirs, layers, first
        self._paths: dict[int, tuple[Sq, ...]] = {first: ()}

    def _key(self, n: int) -> tuple[int, int]:
        """The key anchor number `n` was reached at (whether or not the base may end there)."""
        bit = 1 << n
        for key, ring in self._layers.items():
            if ring & bit:
                return key
        raise KeyError(n)

    def _prev(self, n: int, c: int, hz: int) -> tuple[int, int, int]:
        """The anchor the heap reached anchor number `n` (of key (c, hz)) from: of the anchors a step leads from
        to it at its key, the one of the lowest key, then the lowest number."""
        best: tuple[int, int, int] | None = None
        layers = self._layers
        for shift, kinds in self._dirs:
            p = n - shift
            if p < 0:
                continue
            for cost, h, src in kinds:
                if src >> p & 1 and layers.get((c - cost, hz - h), 0) >> p & 1:
                    got = (c - cost, hz - h, p)
                    if best is None or got < best:
                        best = got
        assert best is not None
        return best[2], best[0], best[1]

    def came_from(self, sq: Sq) -> Sq:
        """The anchor the last step of `sq`'s path is taken from (the first anchor for a one-step path)."""
        n = sq[0] * self._height + sq[1]
        path = self._paths.get(n)
        if path is not None:
            return path[-2] if len(path) >= 2 else self._squares[self._first]
        return self._squares[self._prev(n, *self._key(n))[0]]

    def path(self, sq: Sq) -> tuple[Sq, ...]:
        """The anchors entered on the way to `sq` (an anchor the search reached), in order."""
        n = sq[0] * self._height + sq[1]
        path = self._paths.get(n)
        return path if path is not None else walk_back(self._paths, self._squares, n, self._key(n), self._prev)
