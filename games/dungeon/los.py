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
    """Every square (a and b excluded) the segment of `line` between a and b touches.

    The same reading as `_ruled_out`, in integers: with y = (M x + K) / L, columns strictly between
    a and b are crossed whole; in a's and b's columns only the part outside the two squares counts."""
    m, c, flip = line
    if flip:
        a, b = (a[1], a[0]), (b[1], b[0])
        width, height = height, width
    if b[0] < a[0]:
        a, b = b, a
    L = m.denominator * c.denominator
    M, K = m.numerator * c.denominator, c.numerator * m.denominator

    def v(x: int) -> int:  # L times the line's height at x
        return M * x + K

    rows: list[tuple[int, range]] = []
    for x0 in range(a[0] + 1, b[0]):
        lo, hi = min(v(x0), v(x0 + 1)), max(v(x0), v(x0 + 1))
        rows.append((x0, range(-(-lo // L) - 1, hi // L + 1)))
    ya, yb = v(a[0] + 1), v(b[0])
    if M >= 0:  # rising: above a up to its height leaving a's column, below b from its height entering b's
        rows.append((a[0], range(a[1] + 1, ya // L + 1)))
        rows.append((b[0], range(-(-yb // L) - 1, b[1])))
    else:
        rows.append((a[0], range(-(-ya // L) - 1, a[1])))
        rows.append((b[0], range(b[1] + 1, yb // L + 1)))
    out = set()
    for x0, ys in rows:
        if 0 <= x0 < width:
            for y0 in ys:
                if 0 <= y0 < height:
                    out.add((y0, x0) if flip else (x0, y0))
    return frozenset(out)


def find_line(a: Sq, b: Sq, boxes: Sequence[Sq], walls: Sequence[Wall]) -> Line | None:
    """A clear line between squares a and b (a != b, not neighbours), or None if there is none.

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
        return (Q(b[1] - a[1], b[0] - a[0]), Q(c2, 2 * (b[0] - a[0])), flip)
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
            return (Q(P, D), Q(c2, 2 * D), flip)
    return None


def _free_c(a: Sq, b: Sq, P: int, D: int, boxes: Sequence[Sq], walls: Sequence[Wall]) -> int | None:
    """At slope P/D (D > 0): 2*D*c for a clear line y = (P/D) x + c between a and b, or None.

    Values of c are handled as numerators over D: the line through (x, y) has c*D = y*D - P*x."""
    def cn(x: int, y: int) -> int:
        return y * D - P * x

    ca = (cn(a[0], a[1]), cn(a[0] + 1, a[1]), cn(a[0], a[1] + 1), cn(a[0] + 1, a[1] + 1))
    cb = (cn(b[0], b[1]), cn(b[0] + 1, b[1]), cn(b[0], b[1] + 1), cn(b[0] + 1, b[1] + 1))
    lo, hi = max(min(ca), min(cb)), min(max(ca), max(cb))  # the lines crossing both open squares
    if lo >= hi:
        return None
    out = _ruled_out(a, b, P, D, boxes, walls, cn)
    out.sort()
    reach = lo
    for start, end in out:
        if start > reach:
            return reach + min(start, hi)
        if end > reach:
            reach = end
            if reach >= hi:
                return None
    return reach + hi if reach < hi else None


_FAR = 1 << 62


def _ruled_out(a: Sq, b: Sq, P: int, D: int, boxes: Sequence[Sq], walls: Sequence[Wall],
               cn: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """For each obstacle, the closed interval of c*D whose segment between a and b touches it.

    Columns strictly between a and b are crossed whole. In a's column only the part after the
    line leaves a counts: rising (P >= 0) it climbs from a's top to its height at x = a.x+1, so
    what lies above a up to that height is touched; falling, what lies below. b's column mirrors
    this with the line's height at x = b.x."""
    ax1, bx = a[0] + 1, b[0]
    rising = P >= 0
    out: list[tuple[int, int]] = []
    for x0, y0 in boxes:
        if ax1 <= x0 < bx:
            cs = (cn(x0, y0), cn(x0 + 1, y0), cn(x0, y0 + 1), cn(x0 + 1, y0 + 1))
            out.append((min(cs), max(cs)))
        elif x0 == a[0]:
            if rising and y0 > a[1]:
                out.append((cn(ax1, y0), _FAR))
            elif not rising and y0 < a[1]:
                out.append((-_FAR, cn(ax1, y0 + 1)))
        elif x0 == bx:
            if rising and y0 < b[1]:
                out.append((-_FAR, cn(bx, y0 + 1)))
            elif not rising and y0 > b[1]:
                out.append((cn(bx, y0), _FAR))
    for x0, y0, x1, y1 in walls:
        if x0 == x1:  # vertical: crossed where the line is at x = x0
            if ax1 <= x0 <= bx:
                out.append((cn(x0, y0), cn(x0, y1)))
            continue
        left, right = max(x0, ax1), min(x1, bx)  # the part over the crossed-whole columns
        if left <= right:
            u, v = cn(left, y0), cn(right, y0)
            out.append((min(u, v), max(u, v)))
        if x0 <= a[0] < x1:  # over a's column
            if rising and y0 > a[1]:
                out.append((cn(ax1, y0), _FAR))
            elif not rising and y0 <= a[1]:
                out.append((-_FAR, cn(ax1, y0)))
        if x0 <= bx < x1:  # over b's column
            if rising and y0 <= b[1]:
                out.append((-_FAR, cn(bx, y0)))
            elif not rising and y0 > b[1]:
                out.append((cn(bx, y0), _FAR))
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
