"""Line of sight is exact: the board's answer equals an exact geometric computation.

The rule (and our strict reading of it): a model sees another when a straight segment runs from
some point of its square to some point of the other's square touching no wall and no blocking
square (squares are closed, so grazing a corner touches). The reference below decides that from
first principles, in rational arithmetic, by a different route than `games/dungeon/los.py`: it
tests one line in every cell of the arrangement of lines through critical points (every corner of
the two squares and of blocking squares, every wall end), walking the segment against every wall
and every blocking square. A segment is clear or not throughout a cell, so the answers are exact.

Checked over every pair of squares of every shipped map (the hand-made dungeons and some built
from tiles) with the map's own blockers (walls and structures), and with random models in the
way; plus the answer for ghosts (walls ignored).
"""
from __future__ import annotations

import os
import random
from fractions import Fraction as Q

import pytest

from games.dungeon.board import Board, board
from games.dungeon.data import content
from games.dungeon.los import Wall, merge_walls
from games.dungeon.maps import dungeon_def

Sq = tuple[int, int]


def _segment_clear(p: tuple[Q, Q], q: tuple[Q, Q], boxes: list[Sq], walls: list[Wall]) -> bool:
    """Does the closed segment p-q miss every closed box and wall segment? (parametric clipping)"""
    for x0, y0 in boxes:
        if _clip(p, q, Q(x0), Q(y0), Q(x0 + 1), Q(y0 + 1)):
            return False
    for x0, y0, x1, y1 in walls:
        if _clip(p, q, Q(x0), Q(y0), Q(x1), Q(y1)):
            return False
    return True


def _clip(p: tuple[Q, Q], q: tuple[Q, Q], x0: Q, y0: Q, x1: Q, y1: Q) -> bool:
    """Does segment p-q meet the closed axis-parallel box [x0,x1]x[y0,y1] (possibly flat: a wall)?"""
    t0, t1 = Q(0), Q(1)
    for d, lo, hi, start in ((q[0] - p[0], x0, x1, p[0]), (q[1] - p[1], y0, y1, p[1])):
        if d == 0:
            if not lo <= start <= hi:
                return False
            continue
        ta, tb = (lo - start) / d, (hi - start) / d
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 > t1:
            return False
    return True


def _exit_points(a: Sq, b: Sq, m: Q, c: Q) -> tuple[tuple[Q, Q], tuple[Q, Q]]:
    """Where y = m x + c leaves the closed square a and enters b (a.x < b.x)."""
    def span(s: Sq) -> tuple[Q, Q]:
        lo, hi = Q(s[0]), Q(s[0] + 1)
        if m != 0:
            e1, e2 = (s[1] - c) / m, (s[1] + 1 - c) / m
            lo, hi = max(lo, min(e1, e2)), min(hi, max(e1, e2))
        return lo, hi
    xa, xb = span(a)[1], span(b)[0]
    return (xa, m * xa + c), (xb, m * xb + c)


def reference_sees(a: Sq, b: Sq, blockers: set[Sq], walls: list[Wall]) -> bool:
    if a == b:
        return True
    boxes = sorted(blockers - {a, b})
    if a[0] == b[0]:  # a vertical pair: swap the axes (lines of the form y = m x + c cannot be vertical)
        return reference_sees((a[1], a[0]), (b[1], b[0]), {(s[1], s[0]) for s in boxes},
                              [(w[1], w[0], w[3], w[2]) for w in walls])
    if b[0] < a[0]:
        a, b = b, a
    # a segment between a and b stays in the box around them: nothing else can touch it
    x0, x1, y0, y1 = a[0], b[0] + 1, min(a[1], b[1]), max(a[1], b[1]) + 1
    boxes = [s for s in boxes if x0 - 1 <= s[0] <= x1 and y0 - 1 <= s[1] <= y1]
    walls = [w for w in walls if w[0] <= x1 and w[2] >= x0 and w[1] <= y1 and w[3] >= y0]
    if _fenced(a, b, boxes, walls) or _fenced(*_transposed(a, b, boxes, walls)):
        return False
    if _simple_lines_clear(a, b, boxes, walls):  # a clear segment between simple points settles it
        return True
    pts = {(s[0] + i, s[1] + j) for s in [a, b, *boxes] for i in (0, 1) for j in (0, 1)}
    pts |= {(w[0], w[1]) for w in walls} | {(w[2], w[3]) for w in walls}
    pts_l = sorted(p for p in pts if x0 <= p[0] <= x1 and y0 <= p[1] <= y1)
    # lines crossing both open squares have slopes strictly between these corner-to-corner slopes;
    # for squares in neighbouring columns they are unbounded: then the range is widened past every
    # slope between two points of the map, which leaves no event outside it
    corner_slopes = [Q(qy - py, qx - px) for px, py in _corners(a) for qx, qy in _corners(b) if qx != px]
    lo_m, hi_m = min(corner_slopes), max(corner_slopes)
    if b[0] == a[0] + 1:
        lo_m, hi_m = lo_m - 1000, hi_m + 1000  # steep lines through neighbours: far enough past every event
    slopes = {lo_m, hi_m}
    for i, p in enumerate(pts_l):
        for q in pts_l[i + 1:]:
            if q[0] != p[0]:
                s = Q(q[1] - p[1], q[0] - p[0])
                if lo_m < s < hi_m:
                    slopes.add(s)
    ordered = sorted(slopes)
    for m in ((u + v) / 2 for u, v in zip(ordered, ordered[1:], strict=False)):
        ca = [y - m * x for x, y in _corners(a)]
        cb = [y - m * x for x, y in _corners(b)]
        c_lo, c_hi = max(min(ca), min(cb)), min(max(ca), max(cb))
        if c_lo >= c_hi:
            continue
        cs = sorted({c_lo, c_hi} | {y - m * x for x, y in pts_l if c_lo < y - m * x < c_hi})
        for c in ((u + v) / 2 for u, v in zip(cs, cs[1:], strict=False)):
            leave, enter = _exit_points(a, b, m, c)
            if _segment_clear(leave, enter, boxes, walls):
                return True
    return False


_INNER = ((1, 1), (3, 1), (1, 3), (3, 3), (2, 2))  # points inside a square, in quarters


def _simple_lines_clear(a: Sq, b: Sq, boxes: list[Sq], walls: list[Wall]) -> bool:
    """Is one of the segments between the centres and quarter points of a and b clear?"""
    rects = [(4 * x, 4 * y, 4 * x + 4, 4 * y + 4) for x, y in boxes] + [(4 * w[0], 4 * w[1], 4 * w[2], 4 * w[3])
                                                                       for w in walls]
    return any(_segment_misses((4 * a[0] + i, 4 * a[1] + j), (4 * b[0] + k, 4 * b[1] + m), rects)
               for i, j in _INNER for k, m in _INNER)


def _segment_misses(p: Sq, q: Sq, rects: list[tuple[int, int, int, int]]) -> bool:
    """Does segment p-q (integer coordinates) miss every closed rectangle? A rectangle (or a wall) and a
    segment are apart iff an axis or the segment's normal separates them strictly."""
    px, py = p
    qx, qy = q
    for x0, y0, x1, y1 in rects:
        if max(px, qx) < x0 or min(px, qx) > x1 or max(py, qy) < y0 or min(py, qy) > y1:
            continue
        sides = {(qx - px) * (cy - py) - (qy - py) * (cx - px) for cx in (x0, x1) for cy in (y0, y1)}
        if all(v > 0 for v in sides) or all(v < 0 for v in sides):
            continue
        return False
    return True


def _transposed(a: Sq, b: Sq, boxes: list[Sq], walls: list[Wall]) -> tuple[Sq, Sq, list[Sq], list[Wall]]:
    """The same question with x and y swapped, the pair in increasing x."""
    ta, tb = (a[1], a[0]), (b[1], b[0])
    if tb[0] < ta[0]:
        ta, tb = tb, ta
    return ta, tb, [(s[1], s[0]) for s in boxes], [(w[1], w[0], w[3], w[2]) for w in walls]


def _fenced(a: Sq, b: Sq, boxes: list[Sq], walls: list[Wall]) -> bool:
    """A shortcut for the many pairs behind walls: is there a grid line x = X between a and b
    (a.x < b.x) along which obstacles cover every height a line from a to b can cross it at?

    The lines crossing both open squares cross x = X strictly between the lowest and highest
    corner-to-corner line there; if closed obstacles on x = X cover that interval, every segment
    from a to b touches one."""
    pairs = [(px, py, qx, qy) for px, py in _corners(a) for qx, qy in _corners(b) if qx != px]
    for X in range(a[0] + 1, b[0] + 1):
        spans = sorted([(w[1], w[3]) for w in walls if w[0] == w[2] == X]
                       + [(w[1], w[1]) for w in walls if w[1] == w[3] and w[0] <= X <= w[2]]
                       + [(y, y + 1) for x, y in boxes if x in (X - 1, X)])
        if not spans:
            continue
        # the obstacles' spans have integer ends: the interval is covered iff [floor(lo), ceil(hi)] is
        nums = [(py * (qx - px) + (qy - py) * (X - px), qx - px) for px, py, qx, qy in pairs]
        lo, hi = min(n // d for n, d in nums), max(-(-n // d) for n, d in nums)
        reach = lo
        for start, end in spans:
            if start > reach:
                break
            reach = max(reach, end)
        if reach >= hi:
            return True
    return False


def _corners(s: Sq) -> list[Sq]:
    return [(s[0] + i, s[1] + j) for i in (0, 1) for j in (0, 1)]


def _walls(b: Board) -> list[Wall]:
    return merge_walls(b.vwalls, b.hwalls)


def _fresh(dungeon_id: str) -> Board:
    return Board(dungeon_def(dungeon_id))


# Every shipped map: the hand-made dungeons and a few built from tiles (`random-<n>`, as dungeon:random makes).
# Every pair of a 24x24 map is about 161,000 pairs, 90-110 s of CPU per map for both computations (the exact
# reference is 85 % of it), so by default each map checks a fixed sample of its pairs (`SIGHT_SAMPLE`) and
# `PLAYPOST_SIGHT_ALL=1` checks every pair of every map (run before a change to `los.py`, `sightmap.py` or
# `board.py` lands; last run on every pair of these six maps: no pair differs).
SIGHT_MAPS = [*sorted(content().dungeons), "random-1", "random-2"]
SIGHT_ALL = os.environ.get("PLAYPOST_SIGHT_ALL") == "1"
SIGHT_SAMPLE = 3000  # pairs per map by default


@pytest.mark.parametrize("dungeon_id", SIGHT_MAPS)
def test_sight_between_every_pair_of_squares_is_exact(dungeon_id: str) -> None:
    """Pairs of squares of the map (a fixed sample; every pair with PLAYPOST_SIGHT_ALL=1), its walls and structures
    blocking: the board agrees with the exact reference."""
    b = _fresh(dungeon_id)  # no answers cached by other tests
    walls = _walls(b)
    static = set(b.static_structures)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    wrong = []
    pairs = 0
    every = [(a, c) for i, a in enumerate(squares) if a not in static for c in squares[i:] if c not in static]
    assert len(every) == sum(range(len(squares) - len(static) + 1))
    checked = every if SIGHT_ALL else random.Random(dungeon_id).sample(every, min(SIGHT_SAMPLE, len(every)))
    for a, c in checked:
        pairs += 1
        got = b.sight([a], [c], frozenset(static))
        if got != reference_sees(a, c, static, walls):
            wrong.append((a, c, got))
    assert not wrong, f"{len(wrong)} pairs differ from the exact computation, e.g. {wrong[:5]}"


@pytest.mark.parametrize("dungeon_id", SIGHT_MAPS)
def test_sight_with_models_in_the_way_is_exact(dungeon_id: str) -> None:
    """Random squares held by blocking models (and ghosts ignoring walls): the board agrees with the reference."""
    b = _fresh(dungeon_id)
    walls = _walls(b)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    pick = random.Random(12)
    wrong = []
    for k in range(1000):
        a, c = pick.choice(squares), pick.choice(squares)
        near = [s for s in squares if min(a[0], c[0]) - 1 <= s[0] <= max(a[0], c[0]) + 1
                and min(a[1], c[1]) - 1 <= s[1] <= max(a[1], c[1]) + 1 and s not in (a, c)]
        blockers = set(pick.sample(near, min(len(near), pick.randint(1, 6)))) | set(b.static_structures)
        blockers -= {a, c}
        ghost = k % 5 == 0
        got = b.sight([a], [c], frozenset(blockers), ignore_walls=ghost)
        if got != reference_sees(a, c, blockers, [] if ghost else walls):
            wrong.append((a, c, sorted(blockers), ghost, got))
    assert not wrong, f"{len(wrong)} checks differ from the exact computation, e.g. {wrong[:3]}"


def test_grazing_a_corner_blocks_and_a_clear_gap_does_not() -> None:
    """Strict reading: a line that must pass exactly through a blocker's corner is blocked;
    a line that fits past blockers is found."""
    b = board("crystal_caverns")
    # two blockers meeting corner to corner on the diagonal between a and c: the only lines touch them
    a, c = (0, 0), (2, 2)
    assert b.sight([a], [c], frozenset())
    assert not b.sight([a], [c], frozenset({(1, 1)}))
    assert b.sight([a], [c], frozenset({(1, 0)}))  # the line passes above it, through (0, 1) and (1, 1)
    assert b.sight([a], [c], frozenset({(2, 0), (0, 2)}))
    # both squares beside c: every line into c from (1, 1) passes the corner they share with it
    assert not b.sight([a], [c], frozenset({(2, 1), (1, 2)}))
    # both squares beside a: a line leaves a by its right side, its top, or the corner between them
    assert not b.sight([a], [c], frozenset({(1, 0), (0, 1)}))
    for blockers in ({(1, 1)}, {(1, 0)}, {(2, 0), (0, 2)}, {(2, 1), (1, 2)}, {(1, 0), (0, 1)}):
        assert reference_sees(a, c, blockers, []) == b.sight([a], [c], frozenset(blockers)), blockers


def test_sight_asked_again_with_other_blockers_is_exact() -> None:
    """The board remembers, per pair, the squares clear lines touched and reuses them for later questions:
    one pair asked about many sets of blockers in turn still agrees with the reference every time."""
    b = _fresh("crystal_caverns")
    walls = _walls(b)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    pick = random.Random(5)
    wrong = []
    for _ in range(30):
        a, c = pick.sample(squares, 2)
        near = [s for s in squares if min(a[0], c[0]) - 1 <= s[0] <= max(a[0], c[0]) + 1
                and min(a[1], c[1]) - 1 <= s[1] <= max(a[1], c[1]) + 1 and s not in (a, c)]
        for _ in range(40):
            blockers = set(pick.sample(near, min(len(near), pick.randint(1, 4))))
            if b.sight([a], [c], frozenset(blockers)) != reference_sees(a, c, blockers, walls):
                wrong.append((a, c, sorted(blockers)))
    assert not wrong, f"{len(wrong)} answers differ from the exact computation, e.g. {wrong[:3]}"


def test_a_wall_or_a_line_of_blockers_across_the_way_blocks_and_a_gap_in_it_does_not() -> None:
    """`find_line` answers "no line" at once when one wall, or a whole column or row of blocking squares,
    spans the box between the two squares (every line between them touches it); a shorter wall, a gap, or
    one just outside the way must not count. Every case agrees with the exact reference."""
    from games.dungeon.los import find_line

    a, c = (0, 1), (4, 3)  # the box: x 0..5, y 1..4
    cases: list[tuple[list[Sq], list[Wall], bool]] = [
        ([], [(2, 1, 2, 4)], False),  # a wall across the box at x = 2
        ([], [(2, 1, 2, 2)], True),  # ... ending lower: a line passes above it
        ([], [(5, 0, 5, 9)], True),  # a wall on c's far side is not between them
        ([], [(0, 2, 5, 2)], False),  # a wall across the box at y = 2
        ([], [(0, 2, 2, 2)], True),  # ... only part of the way
        ([(2, 1), (2, 2), (2, 3)], [], False),  # a column of blockers between them
        ([(2, 1), (2, 3)], [], True),  # ... with a gap in the middle
        ([(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)], [], False),  # a row of blockers between them
    ]
    for boxes, walls, seen in cases:
        assert reference_sees(a, c, set(boxes), walls) == seen, (boxes, walls)
        assert (find_line(a, c, boxes, walls) is not None) == seen, (boxes, walls)


def test_only_squares_touching_the_hull_of_the_pair_count_as_blockers() -> None:
    """A pair's record keeps as blockers that matter just the squares touching the convex hull of its two squares
    (every segment between them runs inside it), found per column; here against a plain test of each square's
    corners (closed squares: touching the hull's edge counts), over random pairs of every direction."""
    b = _fresh("crystal_caverns")
    t = b.sight_table
    h = b.height
    pick = random.Random(4)
    for _ in range(3000):
        a, c = (pick.randrange(b.width), pick.randrange(h)), (pick.randrange(b.width), pick.randrange(h))
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) <= 1:
            continue
        dx, dy = c[0] - a[0], c[1] - a[1]
        band = [dx * (a[1] + j) - dy * (a[0] + i) for i in (0, 1) for j in (0, 1)]
        x0, x1 = max(0, min(a[0], c[0]) - 1), min(b.width - 1, max(a[0], c[0]) + 1)
        y0, y1 = max(0, min(a[1], c[1]) - 1), min(h - 1, max(a[1], c[1]) + 1)
        want = 0
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                ks = [dx * (y + j) - dy * (x + i) for i in (0, 1) for j in (0, 1)]
                if (x, y) not in (a, c) and max(ks) >= min(band) and min(ks) <= max(band):
                    want |= 1 << (x * h + y)
        assert t._corridor(a, c, x0, x1, y0, y1) == want, (a, c)


def test_a_barrier_across_the_way_blocks_every_line() -> None:
    """The barriers a pair's record starts from (per column or row strictly between the two squares, the squares
    the hull meets along its middle line) each leave no line when they all block, walls or none: checked with the
    exact reference over random pairs; and the smallest sets they are (the squares straight between two squares
    in a row) are met."""
    b = _fresh("gloom_keep")
    t = b.sight_table
    h = b.height
    pick = random.Random(8)
    checked = 0
    for _ in range(120):
        a, c = (pick.randrange(b.width), pick.randrange(h)), (pick.randrange(b.width), pick.randrange(h))
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2 or abs(a[0] - c[0]) + abs(a[1] - c[1]) > 12:
            continue
        for mask in t._barriers(a, c):
            squares = set(t.squares(mask))
            assert squares and not reference_sees(a, c, squares, []), (a, c, sorted(squares))
            checked += 1
    assert checked > 100
    assert t._barriers((3, 5), (6, 5)) == [1 << (4 * h + 5), 1 << (5 * h + 5)]


def test_a_fence_of_walls_and_blockers_on_a_grid_line_leaves_no_line() -> None:
    """The table's quick "no line" proof (`SightTable._fenced`: walls and blocking squares on one grid line between
    the two squares cover every height a segment crosses it at) is only ever given when the exact reference finds
    no line, over random pairs with random blockers, walls heeded or ignored; and it does catch pairs behind walls."""
    b = _fresh("crystal_caverns")
    t = b.sight_table
    walls = _walls(b)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    pick = random.Random(21)
    fenced = 0
    for _ in range(600):
        a, c = pick.sample(squares, 2)
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2 or abs(a[0] - c[0]) + abs(a[1] - c[1]) > 14:
            continue
        near = [s for s in squares if min(a[0], c[0]) - 1 <= s[0] <= max(a[0], c[0]) + 1
                and min(a[1], c[1]) - 1 <= s[1] <= max(a[1], c[1]) + 1 and s not in (a, c)]
        boxes = pick.sample(near, min(len(near), pick.choice([0, 0, 2, 5, 10])))
        ghost = pick.random() < 0.2
        if t._fenced(a, c, boxes, ghost):
            fenced += 1
            assert not reference_sees(a, c, set(boxes), [] if ghost else walls), (a, c, boxes, ghost)
    assert fenced > 100
    # a wall across the way, and the same wall with a gap closed by a blocker; a gap left open is no fence
    t2 = _fresh("crystal_caverns").sight_table
    t2.vcover = [0] * len(t2.vcover)
    t2.hcover = [0] * len(t2.hcover)
    t2.vcover[2] = (1 << 9) - 1  # x = 2 covered from y = 0 to y = 4
    assert t2._fenced((0, 1), (4, 3), [], False)
    assert not t2._fenced((0, 1), (4, 3), [], True)  # a ghost ignores the wall
    t2.vcover[2] = ((1 << 3) - 1) | (((1 << 5) - 1) << 4)  # covered 0..1 and 2..4: open between 1 and 2
    assert not t2._fenced((0, 1), (4, 3), [], False)
    assert t2._fenced((0, 1), (4, 3), [(1, 1)], False)  # the blocker's right side closes the gap


def test_the_segment_between_two_centres_is_clear_of_walls_just_when_no_wall_touches_it() -> None:
    """`SightTable._centre_clear` (which tests only the wall edges beside two squares the segment touches) agrees
    with a plain test of the segment between the two centres against every wall, over random pairs of two maps."""
    from games.dungeon.sightmap import _centre_line

    for dungeon_id in ("crystal_caverns", "random-2"):
        b = _fresh(dungeon_id)
        t = b.sight_table
        h = b.height
        rects = [(4 * w[0], 4 * w[1], 4 * w[2], 4 * w[3]) for w in _walls(b)]
        pick = random.Random(dungeon_id)
        clear = 0
        for _ in range(3000):
            a, c = sorted(((pick.randrange(b.width), pick.randrange(h)), (pick.randrange(b.width), pick.randrange(h))))
            if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2:
                continue
            lx, ly = min(a[0], c[0]), min(a[1], c[1])
            centre = _centre_line(h, a[0] - lx, a[1] - ly, c[0] - lx, c[1] - ly) << (lx * h + ly)
            want = _segment_misses((4 * a[0] + 2, 4 * a[1] + 2), (4 * c[0] + 2, 4 * c[1] + 2), rects)
            assert t._centre_clear(a, c, centre) == want, (dungeon_id, a, c)
            clear += want
        assert 300 < clear < 2700


def test_a_pairs_corridor_taken_from_another_pair_of_the_same_shape_is_its_own() -> None:
    """A record's corridor comes from the first pair of its shape, moved (`SightTable.corridors`): over every pair of
    a map, near the edges and corners too, it equals the pair's own `_corridor`."""
    b = _fresh("gloom_keep")
    t = b.sight_table
    h = b.height
    squares = [(x, y) for x in range(b.width) for y in range(h)]
    pick = random.Random(3)
    kinds = set()
    for _ in range(4000):
        a, c = sorted(pick.sample(squares, 2))
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2:
            continue
        x0, x1 = max(0, min(a[0], c[0]) - 1), min(b.width - 1, max(a[0], c[0]) + 1)
        y0, y1 = max(0, min(a[1], c[1]) - 1), min(h - 1, max(a[1], c[1]) + 1)
        rec = t._record((a[0] * h + a[1]) * t.size + c[0] * h + c[1], a, c, False)
        # a pair walls leave no line needs none (no blocker can matter)
        assert rec[0] == (t._corridor(a, c, x0, x1, y0, y1) if rec[1] else 0), (a, c)
        kinds.add(rec[1])
    assert len(t.corridors) < 4000 and kinds == {True, False}  # shapes were shared; pairs in and out of sight


def test_a_found_line_is_clear_and_its_touched_squares_are_those_its_segment_meets() -> None:
    """`find_line_ints` (integers, as the sight table asks it) finds a line just when the reference sees; the segment
    of its line from where it leaves one square to where it enters the other touches no obstacle; and
    `touched_mask` holds exactly the board's squares that closed segment meets (both ends' squares left out),
    the squares a later question's blockers are tested against."""
    from games.dungeon.los import find_line, find_line_ints, touched, touched_mask

    pick = random.Random(8)
    width, height = 9, 11
    squares = [(x, y) for x in range(width) for y in range(height)]
    lines = blocked = 0
    for _ in range(700):
        a, c = pick.sample(squares, 2)
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2:
            continue
        boxes = [s for s in pick.sample(squares, pick.randint(0, 5)) if s not in (a, c)]
        walls: list[Wall] = []
        for _ in range(pick.randint(0, 4)):
            x, y, n = pick.randint(0, width), pick.randint(0, height), pick.randint(1, 4)
            walls.append((x, y, x, min(height, y + n)) if pick.random() < 0.5 else (x, y, min(width, x + n), y))
        line = find_line_ints(a, c, boxes, walls)
        assert (line is not None) == reference_sees(a, c, set(boxes), walls), (a, c, boxes, walls)
        if line is None:
            blocked += 1
            assert find_line(a, c, boxes, walls) is None
            continue
        lines += 1
        M, K, L, flip = line
        assert find_line(a, c, boxes, walls) == (Q(M, L), Q(K, L), flip)
        # in the line's own coordinates (x and y swapped when flipped), from the square of lower x
        p, q = ((a[1], a[0]), (c[1], c[0])) if flip else (a, c)
        fboxes = [(s[1], s[0]) for s in boxes] if flip else boxes
        fwalls = [(w[1], w[0], w[3], w[2]) for w in walls] if flip else walls
        if q[0] < p[0]:
            p, q = q, p
        leave, enter = _exit_points(p, q, Q(M, L), Q(K, L))
        assert _segment_clear(leave, enter, fboxes, fwalls), (a, c, line)
        want = 0
        for x, y in squares:
            s = (y, x) if flip else (x, y)
            if s not in (p, q) and _clip(leave, enter, Q(s[0]), Q(s[1]), Q(s[0] + 1), Q(s[1] + 1)):
                want |= 1 << (x * height + y)
        assert touched_mask(a, c, line, width, height, height) == want, (a, c, line)
        assert touched(a, c, (Q(M, L), Q(K, L), flip), width, height) == {
            (n // height, n % height) for n in range(width * height) if want >> n & 1}
    assert lines > 200 and blocked > 30


def test_a_pairs_barriers_taken_from_another_pair_of_the_same_shape_are_its_own() -> None:
    """The barriers a pair's record starts from come from the first pair of its shape, moved (`_barrier_sets`): over
    pairs anywhere on a map, at its edges too, they equal the pair's own `_barriers`, in order; shapes are shared."""
    b = _fresh("crystal_caverns")
    t = b.sight_table
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    pick = random.Random(4)
    checked = 0
    for _ in range(3000):
        a, c = pick.sample(squares, 2)
        if max(abs(a[0] - c[0]), abs(a[1] - c[1])) < 2:
            continue
        got = t._barrier_sets(a, c)
        assert got == tuple(t._barriers(a, c)), (a, c)
        checked += bool(got)
    assert checked > 1500 and len(t.barrier_shapes) < 2500
