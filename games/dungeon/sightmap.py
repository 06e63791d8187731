"""Line of sight over square numbers and bitmasks: what one board's pairs of squares need, worked out once.

Squares are numbered n = x * height + y (as `Board.nsteps`) and a set of squares is an int with bit n set
for each. Per pair of squares (and per reading: walls stop sight, or a ghost's, which ignores them) a
`SightTable` keeps what never changes:

- `area`: the squares whose blocking could matter (those touching the convex hull of the pair's two squares,
  where every segment between them runs; both ends left out; none when walls leave no line),
- `clear`: whether any line runs between them touching no wall,
- `seen`: for lines found clear of walls, the squares each one touches (any one of them free of
  blockers: the pair sees),
- `blocking`: sets of blocking squares known to leave no line (any set holding one of them blocks too:
  more blockers never open a line): first the barriers across the way (`_barriers`), then those found.

A question with blockers is then a few integer ANDs; only when every remembered line is blocked is the
exact computation (`los.find_line`) asked, and its answer is remembered by the blocking squares that
matter (and its line, if any, joins `seen`). A pair's first record takes the segment between the two centres
when no wall touches it (`_centre_clear`). Before the search (there and for a pair's first record),
`_fenced` looks for a grid line between the two squares that walls and blockers cover across the way: most
pairs without a line are proved so by one, in a few integer operations over masks made once per board.
Neighbouring squares are settled completely from their table entry (which sides a diagonal line may pass,
see `los.neighbours_see`). The answers are those of
`los.py` exactly; tests/dungeon/test_dungeon_sight.py checks them against a separate exact computation.
"""
from __future__ import annotations

from collections.abc import Callable

from .los import Wall, find_line_ints, touched_mask

Sq = tuple[int, int]
# a pair's record (area, clear, seen, complete, blocking): tuples of ints, which the garbage collector stops
# tracking, so a board's thousands of records cost no collector time; a change replaces the record
Record = tuple[int, bool, tuple[int, ...], bool, "tuple[int, ...] | None"]


def _no_wall(a: Sq, b: Sq) -> bool:
    return False


class SightTable:
    """The sight records of one board (built lazily, pair by pair)."""

    def __init__(self, width: int, height: int, walls: list[Wall], wall_between: Callable[[Sq, Sq], bool]) -> None:
        self.width, self.height = width, height
        self.size = width * height
        self.walls = walls
        self.wall_between = wall_between
        # (ignore_walls * size + a) * size + b, a < b -> (area, clear, seen masks, complete, blocking masks)
        self.pairs: dict[int, Record] = {}
        self.misses: dict[tuple[int, int], bool] = {}  # (pair key, blocking squares that matter) -> sight
        self.corridors: dict[tuple[int, ...], int] = {}  # `_corridor` per shape, moved to the box's corner (0, 0)
        self.barrier_shapes: dict[tuple[int, int, int, int], tuple[int, ...]] = {}  # `_barriers` so, per shape
        # wall points: walls[X][Y] counts the grid points (x, y), x < X and y < Y, that some wall passes through
        # (a wall meets a box of grid lines just when one of its points lies in it)
        points: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in walls:
            points.update((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
        self.wall_points = [[0] * (height + 2) for _ in range(width + 2)]
        for x in range(width + 1):
            for y in range(height + 1):
                self.wall_points[x + 1][y + 1] = ((x, y) in points) + self.wall_points[x][y + 1] \
                    + self.wall_points[x + 1][y] - self.wall_points[x][y]
        # wall edges between two squares of the board (`_centre_clear`): bit n of `vedges` for a wall between square
        # n = x * height + y and square n + height (x + 1, y), of `hedges` between square n and n + 1 (x, y + 1)
        self.vedges = self.hedges = 0
        for x0, y0, x1, y1 in walls:
            if x0 == x1:
                if 0 < x0 < width:
                    for y in range(y0, y1):
                        self.vedges |= 1 << ((x0 - 1) * height + y)
            elif 0 < y0 < height:
                for x in range(x0, x1):
                    self.hedges |= 1 << (x * height + y0 - 1)
        # fences (`_fenced`): per vertical grid line x = X, the heights walls cover on it, as a mask over doubled
        # heights (bit 2y: the point y, bit 2y + 1: the open unit between y and y + 1); per horizontal line, the same
        self.vcover = [0] * (width + 1)
        self.hcover = [0] * (height + 1)
        for x0, y0, x1, y1 in walls:
            if x0 == x1:
                self.vcover[x0] |= ((1 << (2 * (y1 - y0) + 1)) - 1) << (2 * y0)
                for y in range(y0, y1 + 1):
                    self.hcover[y] |= 1 << (2 * x0)
            else:
                self.hcover[y0] |= ((1 << (2 * (x1 - x0) + 1)) - 1) << (2 * x0)
                for x in range(x0, x1 + 1):
                    self.vcover[x] |= 1 << (2 * y0)

    def bits(self, squares: tuple[Sq, ...] | frozenset[Sq] | set[Sq] | list[Sq]) -> int:
        h = self.height
        out = 0
        for x, y in squares:
            out |= 1 << (x * h + y)
        return out

    def squares(self, mask: int) -> list[Sq]:
        """The squares of a mask, in increasing order (as sorted squares)."""
        h = self.height
        out = []
        while mask:
            low = mask & -mask
            n = low.bit_length() - 1
            out.append((n // h, n % h))
            mask ^= low
        return out

    def _record(self, key: int, a: Sq, b: Sq, ignore_walls: bool) -> Record:
        h = self.height
        rec: Record
        if abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1:
            wall = _no_wall if ignore_walls else self.wall_between
            if a[0] == b[0] or a[1] == b[1]:
                rec = (0, not wall(a, b), (0,), True, ())
            else:
                sides = [s for s in ((b[0], a[1]), (a[0], b[1])) if not wall(a, s) and not wall(s, b)]
                seen = tuple([1 << (s[0] * h + s[1]) for s in sides])
                area = 0
                for s in seen:
                    area |= s
                rec = (area, bool(sides), seen, True, ())
        else:
            lx, ly = min(a[0], b[0]), min(a[1], b[1])
            hx, hy = max(a[0], b[0]) + 1, max(a[1], b[1]) + 1
            w = self.wall_points
            # the squares the segment between the two centres touches (the line `find_line` finds with no wall
            # near): they depend only on where b lies from a (the same squares moved)
            centre = _centre_line(h, a[0] - lx, a[1] - ly, b[0] - lx, b[1] - ly) << (lx * h + ly)
            if ignore_walls or not w[hx + 1][hy + 1] - w[lx][hy + 1] - w[hx + 1][ly] + w[lx][ly] \
                    or self._centre_clear(a, b, centre):
                # no wall meets the box of the two squares, or none touches the segment between the centres
                rec = (self._area(a, b), True, (centre,), False, None)
            else:
                line = None if self._fenced(a, b, [], False) else find_line_ints(a, b, (), self.walls)
                if line is None:  # walls leave no line: no blocker can matter
                    rec = (0, False, (), False, None)
                else:
                    rec = (self._area(a, b), True, (touched_mask(a, b, line, self.width, h, h),), False, None)
        self.pairs[key] = rec
        return rec

    def _area(self, a: Sq, b: Sq) -> int:
        """The `_corridor` of squares a and b (not neighbours), from the first pair of its shape, moved."""
        h = self.height
        x0, x1 = max(0, min(a[0], b[0]) - 1), min(self.width - 1, max(a[0], b[0]) + 1)
        y0, y1 = max(0, min(a[1], b[1]) - 1), min(h - 1, max(a[1], b[1]) + 1)
        # the corridor moves with the pair: one per shape (b from a, a in the box, the box cut by the edges)
        shape = (b[0] - a[0], b[1] - a[1], a[0] - x0, a[1] - y0, x1 - x0, y1 - y0)
        corner = x0 * h + y0
        found = self.corridors.get(shape)
        if found is None:
            found = self._corridor(a, b, x0, x1, y0, y1) >> corner  # every square of it lies past the corner
            if len(self.corridors) > 100_000:
                self.corridors.clear()
            self.corridors[shape] = found
        return found << corner

    def _corridor(self, a: Sq, b: Sq, x0: int, x1: int, y0: int, y1: int) -> int:
        """The squares of columns x0..x1 and rows y0..y1 (the box around a and b and one square more) that touch
        the convex hull of squares a and b (both left out), as a mask: every segment from a point of a to a point
        of b lies in the hull, so no other square can touch one. The hull of a square and its copy moved by
        d = b - a is the box around both cut to the band of points p whose cross product d x p lies between the
        square's corners' (the same for both squares); a closed square touches it just when the ranges of x, y
        and d x p of its corners meet the hull's (convex shapes apart are told apart by one of those axes)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        ax, ay = a
        offsets = (0, -dy, dx, dx - dy)  # d x corner - d x (x, y), for the corners of square (x, y)
        m0, m1 = min(offsets), max(offsets)
        lo, hi = dx * ay - dy * ax + m0, dx * ay - dy * ax + m1  # the band: a's corners' range
        h = self.height
        area = 0
        for x in range(x0, x1 + 1):
            # square (x, y) has corners' range [k + m0, k + m1] with k = dx * y - dy * x: it meets the band when
            # k + m1 >= lo and k + m0 <= hi
            low, high = lo - m1 + dy * x, hi - m0 + dy * x  # low <= dx * y <= high
            if dx > 0:
                ya, yb = -(-low // dx), high // dx
            elif dx < 0:
                ya, yb = -(high // -dx), -low // -dx  # dx * y >= low  <=>  y <= low / dx, and so on
            else:
                ya, yb = (y0, y1) if low <= 0 <= high else (1, 0)
            ya, yb = max(ya, y0), min(yb, y1)
            if ya <= yb:
                area |= ((1 << (yb - ya + 1)) - 1) << (x * h + ya)
        return area & ~((1 << (ax * h + ay)) | (1 << (b[0] * h + b[1])))

    def _barrier_sets(self, a: Sq, b: Sq) -> tuple[int, ...]:
        """`_barriers` of squares a and b, from the first pair of the same shape (where b lies from a): their squares
        lie in the box of the two squares (columns or rows between them, the rows or columns of the box), so they
        are that pair's moved with the box."""
        lx, ly = min(a[0], b[0]), min(a[1], b[1])
        shape = (a[0] - lx, a[1] - ly, b[0] - lx, b[1] - ly)
        found = self.barrier_shapes.get(shape)
        if found is None:
            if len(self.barrier_shapes) > 100_000:
                self.barrier_shapes.clear()
            found = self.barrier_shapes[shape] = tuple(self._barriers((shape[0], shape[1]), (shape[2], shape[3])))
        corner = lx * self.height + ly
        return tuple([mask << corner for mask in found])

    def _barriers(self, a: Sq, b: Sq) -> list[int]:
        """Sets of squares that, all blocking, leave no line between squares a and b (two or more columns or rows
        apart), as masks: for each column strictly between them, the squares of it that the hull of a and b
        (where every segment between them runs, see `_corridor`) meets along the column's middle line. Every
        segment crosses that line inside the hull, so inside one of those closed squares; likewise for rows."""
        h = self.height
        out = []
        for flip in (False, True):
            p, q = ((a[1], a[0]), (b[1], b[0])) if flip else (a, b)
            if q[0] < p[0]:
                p, q = q, p
            dx, dy = q[0] - p[0], q[1] - p[1]
            if dx < 2:
                continue
            offsets = (0, -dy, dx, dx - dy)
            lo, hi = dx * p[1] - dy * p[0] + min(offsets), dx * p[1] - dy * p[0] + max(offsets)
            ylo, yhi = min(p[1], q[1]), max(p[1], q[1]) + 1
            for x0 in range(p[0] + 1, q[0]):
                # at x = x0 + 1/2 the hull holds the y with lo <= dx * y - dy * x <= hi, within the box's rows
                mid = dy * (2 * x0 + 1)
                r0, r1 = max(ylo, (2 * lo + mid) // (2 * dx)), min(yhi, -(-(2 * hi + mid) // (2 * dx)))
                mask = 0
                for r in range(r0, r1):
                    mask |= 1 << ((r * h + x0) if flip else (x0 * h + r))
                if mask:
                    out.append(mask)
        return out

    def _centre_clear(self, a: Sq, b: Sq, centre: int) -> bool:
        """Does the segment between the centres of squares a and b (a before b in number order, not neighbours)
        touch no wall? `centre` is the mask of the squares it touches (a and b left out). A wall edge it touches
        is touched at a point of both squares beside the edge, so only edges with both squares among those and
        a and b are tested (exactly, in doubled coordinates: the centres are then odd integers); with none
        such, nothing is tested at all (`vedges`, `hedges`)."""
        h = self.height
        t = centre | (1 << (a[0] * h + a[1])) | (1 << (b[0] * h + b[1]))
        cv = self.vedges & t & (t >> h)
        ch = self.hedges & t & (t >> 1)
        if not cv and not ch:
            return True
        px, py = 2 * a[0] + 1, 2 * a[1] + 1
        ddx, ddy = 2 * (b[0] - a[0]), 2 * (b[1] - a[1])
        while cv:  # the edge between squares (x, y) and (x + 1, y) (then a.x < b.x): the segment's height there
            low = cv & -cv
            cv ^= low
            x, y = divmod(low.bit_length() - 1, h)
            v = py * ddx + ddy * (2 * x + 2 - px)  # ddx times the doubled height on the line x + 1
            if 2 * y * ddx <= v <= (2 * y + 2) * ddx:
                return False
        while ch:  # the edge between squares (x, y) and (x, y + 1) (then a.y != b.y): where the segment crosses it
            low = ch & -ch
            ch ^= low
            x, y = divmod(low.bit_length() - 1, h)
            u = px * ddy + ddx * (2 * y + 2 - py)  # ddy times the doubled x there
            lo, hi = 2 * x * ddy, (2 * x + 2) * ddy
            if min(lo, hi) <= u <= max(lo, hi):
                return False
        return True

    def _fenced(self, a: Sq, b: Sq, boxes: list[Sq], ignore_walls: bool) -> bool:
        """Is there a grid line between squares a and b (not neighbours) along which walls (unless ignored) and the
        blocking squares `boxes` cover every height a segment between them crosses it at? Then there is no line.

        Every segment from a to b crosses each line x = X with a.x < X <= b.x (a.x < b.x) inside the hull of the
        two squares, whose cross-section there runs from the hull's low edge to its high edge (square a moved along
        d = b - a: with d.y >= 0 the low edge is the track of its corner (x + 1, y), the high edge that of (x, y + 1);
        with d.y < 0 those of (x, y) and (x + 1, y + 1)). A clear segment could be moved a little into the open
        squares, so it crosses strictly inside that cross-section; the closed obstacles on the line have integer
        ends, so they cover its open inside just when they cover it from the floor of its low end to the ceiling of
        its high end. Likewise for the lines y = Y. Coverage is a mask over doubled heights (as `vcover`)."""
        for flip in (False, True):
            if flip:
                px, py, qx, qy, cover = a[1], a[0], b[1], b[0], self.hcover
            else:
                px, py, qx, qy, cover = a[0], a[1], b[0], b[1], self.vcover
            if qx < px:
                px, py, qx, qy = qx, qy, px, py
            dx, dy = qx - px, qy - py
            if not dx:
                continue
            boxed: dict[int, int] = {}
            for s in boxes:
                x, y = (s[1], s[0]) if flip else s
                if px <= x <= qx:  # a closed square covers its two sides' lines from y to y + 1
                    span = 7 << (2 * y)
                    boxed[x] = boxed.get(x, 0) | span
                    boxed[x + 1] = boxed.get(x + 1, 0) | span
            if ignore_walls and not boxed:
                continue
            # dx times the low and high ends of the cross-section at x = X, from X = p.x + 1 on (dy more each step)
            if dy >= 0:
                lo_n, hi_n = py * dx, (py + 1) * dx + dy
            else:
                lo_n, hi_n = py * dx + dy, (py + 1) * dx
            if boxed:
                covers = [(0 if ignore_walls else cover[X]) | boxed.get(X, 0) for X in range(px + 1, qx + 1)]
            else:  # walls alone (a pair's first record): the lines' cover as it is
                covers = cover[px + 1:qx + 1]
            for have in covers:
                if have:
                    need = ((2 << (2 * -(-hi_n // dx))) - 1) ^ ((1 << (2 * (lo_n // dx))) - 1)
                    if have & need == need:
                        return True
                lo_n += dy
                hi_n += dy
        return False

    def sees(self, na: int, nb: int, block: int, ignore_walls: bool = False) -> bool:
        """Exact line of sight between squares numbered na and nb when the squares of `block` stop it."""
        if na == nb:
            return True
        if nb < na:
            na, nb = nb, na
        size = self.size
        key = ((size if ignore_walls else 0) + na) * size + nb
        rec = self.pairs.get(key)
        if rec is None:
            h = self.height
            rec = self._record(key, (na // h, na % h), (nb // h, nb % h), ignore_walls)
        if not rec[1]:
            return False
        rel = rec[0] & block
        if not rel:
            return True
        for seen in rec[2]:
            if not seen & rel:
                return True
        if rec[3]:
            return False
        known_sets = rec[4]
        if known_sets is None:  # first asked with blockers: start from the barriers across the way
            h = self.height
            known_sets = self._barrier_sets((na // h, na % h), (nb // h, nb % h))
            self.pairs[key] = rec = rec[:4] + (known_sets,)
        for known in known_sets:  # more blockers never open a line: blocked by a subset, blocked
            if rel & known == known:
                return False
        hit = self.misses.get((key, rel))
        if hit is None:
            h = self.height
            a, b = (na // h, na % h), (nb // h, nb % h)
            boxes = self.squares(rel)
            line = None if self._fenced(a, b, boxes, ignore_walls) else \
                find_line_ints(a, b, boxes, [] if ignore_walls else self.walls)
            hit = line is not None
            if line is not None and len(rec[2]) < 64:
                self.pairs[key] = (rec[0], rec[1], rec[2] + (touched_mask(a, b, line, self.width, h, h),), rec[3],
                                   rec[4])
            elif line is None and len(known_sets) < 80:
                self.pairs[key] = rec[:4] + (known_sets + (rel,),)
            if len(self.misses) > 200_000:
                self.misses.clear()
            self.misses[(key, rel)] = hit
        return hit

    def sight(self, froms: tuple[int, ...], tos: tuple[int, ...], block: int, ignore_walls: bool = False) -> bool:
        """Line of sight from any of the squares numbered `froms` to any of `tos` (their own squares never
        block: a model does not hide itself or its target)."""
        if len(froms) == 1 and len(tos) == 1:  # the common question: one square to one square
            a, b = froms[0], tos[0]
            return a == b or self.sees(a, b, block & ~((1 << a) | (1 << b)), ignore_walls)
        own = 0
        for n in froms:
            own |= 1 << n
        tmask = 0
        for n in tos:
            tmask |= 1 << n
        if own & tmask:
            return True
        own |= tmask
        block &= ~own
        for a in froms:
            for b in tos:
                if self.sees(a, b, block, ignore_walls):
                    return True
        return False


_CENTRE_LINES: dict[tuple[int, int, int, int, int], int] = {}


def _centre_line(height: int, ax: int, ay: int, bx: int, by: int) -> int:
    """The squares (a and b left out) touched by the line `find_line` finds between squares a and b with no
    wall near, as a bitmask of square numbers x * height + y, for squares placed from the corner (0, 0)."""
    key = (height, ax, ay, bx, by)
    found = _CENTRE_LINES.get(key)
    if found is None:
        a, b = (ax, ay), (bx, by)
        line = find_line_ints(a, b, (), [])
        assert line is not None  # two squares with nothing between them see each other
        found = touched_mask(a, b, line, max(ax, bx) + 1, max(ay, by) + 1, height)
        if len(_CENTRE_LINES) > 100_000:
            _CENTRE_LINES.clear()
        _CENTRE_LINES[key] = found
    return found
