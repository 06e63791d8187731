"""Exact line of sight between two squares, in rational arithmetic (no sampling, no tolerance).

The rule: a model sees another when some straight line runs from any point of its square to any
point of the other's square without touching a wall or a square that blocks (our house reading:
strict, so grazing a blocking square's corner counts as touching). Squares are closed unit boxes
[x, x+1] x [y, y+1]; walls are closed segments on grid lines.

How it is decided exactly. Whether a segment from square A to square B is clear can only change
when its line passes through a *critical point*: a corner of A or B, of a blocking square, or an
end of a wall (a corner of the box two lines cross can never appear or disappear elsewhere, and
grid edges only meet at grid points). Write a line as y = m x + c: the lines through one point
form a straight line in the (m, c) plane, so the critical points cut the lines through A and B
into open cells of an arrangement, and inside one cell every line is clear or every line is
blocked. The clear lines form an open set, so if any is clear, a whole cell is. Every cell spans
an open range of slopes whose ends are slopes through two critical points, so it is met at a
slope halfway between two consecutive such slopes. At that slope each obstacle rules out a closed
interval of c (the lines whose segment, from where it leaves A to where it enters B, touches it:
the parts inside A and B touch nothing), and a clear line exists iff they leave a gap in the
open interval of lines crossing both squares. Neighbouring squares are decided directly (their
lines are not a bounded set of slopes). tests/dungeon/test_dungeon_sight.py checks all this
against a separate exact computation.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

Sq = tuple[int, int]
Wall = tuple[int, int, int, int]  # a closed wall segment from (x0, y0) to (x1, y1), axis-parallel
Line = tuple[Fraction, Fraction, bool]  # y = m x + c, in transposed coordinates when the flag is set
IntLine = tuple[int, int, int, bool]  # (M, K, L, flip): y = (M x + K) / L, L > 0, transposed when flip is set
Q = Fraction


def merge_walls(vwalls: Iterable[tuple[int, int]], hwalls: Iterable[tuple[int, int]]) -> list[Wall]:
    """Unit wall edges joined into maximal straight segments.

    A vertical edge (X, y) is the line x = X beside row y; a horizontal edge (x, Y) the line y = Y
    beside column x (the board's representation)."""
    out: list[Wall] = []
    vs = sorted(set(vwalls))
    i = 0
    while i < len(vs):
        x, y0 = vs[i]
        y1 = y0 + 1
        while i + 1 < len(vs) and vs[i + 1] == (x, y1):
            i += 1
            y1 += 1
        out.append((x, y0, x, y1))
        i += 1
    hs = sorted(set(hwalls), key=lambda e: (e[1], e[0]))
    i = 0
    while i < len(hs):
        x0, y = hs[i]
        x1 = x0 + 1
        while i + 1 < len(hs) and hs[i + 1] == (x1, y):
            i += 1
            x1 += 1
        out.append((x0, y, x1, y))
        i += 1
    return out


def _corners(s: Sq) -> tuple[tuple[int, int], ...]:
    x, y = s
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def touched(a: Sq, b: Sq, line: Line, width: int, height: int) -> frozenset[Sq]:
    """Every square (a and b excluded) the segment of `line` between a and b touches (`touched_mask`'s squares)."""
    m, c, flip = line
    mask = touched_mask(a, b, (m.numerator * c.denominator, c.numerator * m.denominator,
                               m.denominator * c.denominator, flip), width, height, height)
    return frozenset((n // height, n % height) for n in range(width * height) if mask >> n & 1)


def touched_mask(a: Sq, b: Sq, line: IntLine, width: int, height: int, stride: int) -> int:
    """The squares (a and b excluded, and those off the `width` x `height` board) the segment of `line` between a
    and b touches, as a mask of square numbers x * stride + y.

    The same reading as `_ruled_out`, in integers: with y = (M x + K) / L, columns strictly between
    a and b are crossed whole; in a's and b's columns only the part outside the two squares counts."""
    M, K, L, flip = line
    if flip:
        a, b = (a[1], a[0]), (b[1], b[0])
        width, height = height, width
    if b[0] < a[0]:
        a, b = b, a
    ax, bx = a[0], b[0]
    # per column: (column, first row, row after the last), in the line's coordinates
    rows: list[tuple[int, int, int]] = []
    v0 = M * (ax + 1) + K  # L times the line's height at x = ax + 1 (leaving a's column)
    for x0 in range(ax + 1, bx):
        v1 = v0 + M
        lo, hi = (v0, v1) if v0 <= v1 else (v1, v0)
        rows.append((x0, -(-lo // L) - 1, hi // L + 1))
        v0 = v1
    ya, yb = M * (ax + 1) + K, M * bx + K
    if M >= 0:  # rising: above a up to its height leaving a's column, below b from its height entering b's
        rows.append((ax, a[1] + 1, ya // L + 1))
        rows.append((bx, -(-yb // L) - 1, b[1]))
    else:
        rows.append((ax, -(-ya // L) - 1, a[1]))
        rows.append((bx, b[1] + 1, yb // L + 1))
    out = 0
    for x0, y0, y1 in rows:
        if 0 <= x0 < width:
            if y0 < 0:
                y0 = 0
            if y1 > height:
                y1 = height
            if y0 < y1:
                if flip:  # the column is a row of the board: one square number per square
                    for y in range(y0, y1):
                        out |= 1 << (y * stride + x0)
                else:
                    out |= ((1 << (y1 - y0)) - 1) << (x0 * stride + y0)
    return out


def find_line(a: Sq, b: Sq, boxes: Sequence[Sq], walls: Sequence[Wall]) -> Line | None:
    """A clear line between squares a and b (a != b, not neighbours), or None if there is none (`find_line_ints`'s
    line, as fractions)."""
    line = find_line_ints(a, b, boxes, walls)
    return None if line is None else (Q(line[0], line[2]), Q(line[1], line[2]), line[3])


def find_line_ints(a: Sq, b: Sq, boxes: Sequence[Sq], walls: Sequence[Wall]) -> IntLine | None:
    """A clear line between squares a and b (a != b, not neighbours) as integers (M, K, L, flip): y = (M x + K) / L
    with L > 0, in transposed coordinates when the flag is set; None if there is none.

    For each slope between two consecutive critical slopes, every obstacle rules out a closed
    interval of c (`_ruled_out`); a clear line exists at that slope iff the open interval of c
    whose lines cross both squares is not covered by them. Integer arithmetic: at slope P/D every
    bound is (integer * D - P * integer) / D, so the numerators are compared.
    """
    flip = abs(b[0] - a[0]) < 2
    if flip:  # the x-distance is 0 or 1: work with x and y swapped (then the y-distance is at least 2)
        a, b = (a[1], a[0]), (b[1], b[0])
        boxes = [(s[1], s[0]) for s in boxes]
        walls = [(w[1], w[0], w[3], w[2]) for w in walls]
    if b[0] < a[0]:
        a, b = b, a
    assert b[0] - a[0] >= 2, "neighbouring squares are decided by `neighbours_see`"
    xlo, xhi = a[0], b[0] + 1
    ylo, yhi = min(a[1], b[1]), max(a[1], b[1]) + 1
    # only what lies in the box around a and b can touch a segment between them
    boxes = [s for s in boxes if xlo <= s[0] < xhi and ylo - 1 <= s[1] <= yhi and s != a and s != b]
    walls = [w for w in walls if w[0] <= xhi and w[2] >= xlo and w[1] <= yhi and w[3] >= ylo]
    # a wall across the whole box between the two squares touches every line from one to the other (a line
    # crossing both open squares is strictly inside the box, and between them it crosses the wall's line)
    ymid_lo, ymid_hi = min(a[1], b[1]) + 1, max(a[1], b[1])
    for x0, y0, x1, y1 in walls:
        if x0 == x1:
            if xlo + 1 <= x0 <= xhi - 1 and y0 <= ylo and y1 >= yhi:
                return None
        elif ymid_lo <= y0 <= ymid_hi and x0 <= xlo and x1 >= xhi:
            return None
    if boxes:  # so does a whole column (or row) of blocking squares across the box between them
        bs = set(boxes)
        for x0 in range(xlo + 1, xhi - 1):
            if all((x0, y0) in bs for y0 in range(ylo, yhi)):
                return None
        for y0 in range(ymid_lo, ymid_hi):
            if all((x0, y0) in bs for x0 in range(xlo, xhi)):
                return None
    # first the slope between the centres (most pairs in sight are seen along it), then every cell
    c2 = _free_c(a, b, b[1] - a[1], b[0] - a[0], boxes, walls)
    if c2 is not None:
        return (2 * (b[1] - a[1]), c2, 2 * (b[0] - a[0]), flip)  # slope P / D, c = c2 / (2 D)
    pts = set(_corners(a)) | set(_corners(b))
    for s in boxes:
        pts.update(_corners(s))
    for w in walls:
        pts.add((w[0], w[1]))
        pts.add((w[2], w[3]))
    crit = sorted(p for p in pts if xlo <= p[0] <= xhi and ylo <= p[1] <= yhi)
    # slopes as (rise, run) with run > 0; ordered by value (distinct small fractions are far apart,
    # so their float values order them exactly), halfway slopes as exact integer pairs
    ends = [(q[1] - p[1], q[0] - p[0]) for p in _corners(a) for q in _corners(b)]
    m_lo, m_hi = min(r / d for r, d in ends), max(r / d for r, d in ends)
    slopes = {r / d: (r, d) for r, d in ends if r / d in (m_lo, m_hi)}
    for i, p in enumerate(crit):
        for q in crit[i + 1:]:
            if q[0] != p[0]:
                r, d = q[1] - p[1], q[0] - p[0]
                if d < 0:
                    r, d = -r, -d
                if m_lo < r / d < m_hi:
                    slopes.setdefault(r / d, (r, d))
    ordered = [slopes[v] for v in sorted(slopes)]
    for (r1, d1), (r2, d2) in zip(ordered, ordered[1:], strict=False):
        P, D = r1 * d2 + r2 * d1, 2 * d1 * d2
        c2 = _free_c(a, b, P, D, boxes, walls)
        if c2 is not None:
            return (2 * P, c2, 2 * D, flip)
    return None


def _free_c(a: Sq, b: Sq, P: int, D: int, boxes: Sequence[Sq], walls: Sequence[Wall]) -> int | None:
    """At slope P/D (D > 0): 2*D*c for a clear line y = (P/D) x + c between a and b, or None.

    Values of c are handled as numerators over D: the line through (x, y) has c*D = y*D - P*x. Of a square's
    corners (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1) the lowest is y*D - P*x less P if P > 0, the highest
    that plus D, less P if P < 0."""
    up, down = (P, 0) if P > 0 else (0, P)
    ca = a[1] * D - P * a[0]
    cb = b[1] * D - P * b[0]
    lo = (ca if ca > cb else cb) - up  # the lines crossing both open squares
    hi = (cb if ca > cb else ca) + D - down
    if lo >= hi:
        return None
    out = _ruled_out(a, b, P, D, boxes, walls)
    out.sort()
    reach = lo
    for start, end in out:
        if start > reach:
            return reach + (start if start < hi else hi)
        if end > reach:
            reach = end
            if reach >= hi:
                return None
    return reach + hi if reach < hi else None


_FAR = 1 << 62


def _ruled_out(a: Sq, b: Sq, P: int, D: int, boxes: Sequence[Sq], walls: Sequence[Wall]) -> list[tuple[int, int]]:
    """For each obstacle, the closed interval of c*D whose segment between a and b touches it (c*D of the line
    through (x, y): y*D - P*x, as `_free_c`).

    Columns strictly between a and b are crossed whole. In a's column only the part after the
    line leaves a counts: rising (P >= 0) it climbs from a's top to its height at x = a.x+1, so
    what lies above a up to that height is touched; falling, what lies below. b's column mirrors
    this with the line's height at x = b.x."""
    ax, ay = a
    bx, by = b
    ax1 = ax + 1
    rising = P >= 0
    up, down = (P, 0) if P > 0 else (0, P)
    pa, pb = P * ax1, P * bx  # P*x at a's and b's inner column lines
    out: list[tuple[int, int]] = []
    add = out.append
    for x0, y0 in boxes:
        if ax1 <= x0 < bx:
            c = y0 * D - P * x0
            add((c - up, c + D - down))
        elif x0 == ax:
            if rising:
                if y0 > ay:
                    add((y0 * D - pa, _FAR))
            elif y0 < ay:
                add((-_FAR, (y0 + 1) * D - pa))
        elif x0 == bx:
            if rising:
                if y0 < by:
                    add((-_FAR, (y0 + 1) * D - pb))
            elif y0 > by:
                add((y0 * D - pb, _FAR))
    for x0, y0, x1, y1 in walls:
        if x0 == x1:  # vertical: crossed where the line is at x = x0
            if ax1 <= x0 <= bx:
                px = P * x0
                add((y0 * D - px, y1 * D - px))
            continue
        left = x0 if x0 > ax1 else ax1  # the part over the crossed-whole columns
        right = x1 if x1 < bx else bx
        yd = y0 * D
        if left <= right:
            add((yd - P * right, yd - P * left) if rising else (yd - P * left, yd - P * right))
        if x0 <= ax < x1:  # over a's column
            if rising:
                if y0 > ay:
                    add((yd - pa, _FAR))
            elif y0 <= ay:
                add((-_FAR, yd - pa))
        if x0 <= bx < x1:  # over b's column
            if rising:
                if y0 <= by:
                    add((-_FAR, yd - pb))
            elif y0 > by:
                add((yd - pb, _FAR))
    return out


def neighbours_see(a: Sq, b: Sq, blocked: Iterable[Sq], wall_between: Callable[[Sq, Sq], bool]) -> bool:
    """Line of sight between neighbouring squares (king-move distance 1).

    Side by side: a line crossing the middle of the shared edge touches nothing else, so only a
    wall on that edge blocks. Diagonal: a line passes the shared corner through one of the two
    side squares (or through the corner itself, touching both), so one side square must be free
    with no wall on either of its edges facing a and b."""
    if a[0] == b[0] or a[1] == b[1]:
        return not wall_between(a, b)
    block = set(blocked)
    for side in ((b[0], a[1]), (a[0], b[1])):
        if side not in block and not wall_between(a, side) and not wall_between(side, b):
            return True
    return False
