"""The dungeon's drawing of the recent play (the play-test's busy boards): the shared recap (`render.recap`) drew
every number on a square's centre and every hit cross on the target, in one red for heroes and monsters alike,
so a crowded board hid the tokens' names. Here:

- the heroes' moves and attacks are blue, the monsters' red (the tokens' own colours: seats and red ranks);
  heals are green, spawns purple, loot drops teal, as in the shared recap;
- a number sits on a corner of a square (where four squares meet, clear of the round hero tokens and of the
  monsters' names), never on a token's centre; an attack runs from edge to edge, its hit cross or miss ring on the
  target's edge towards the attacker, not on its name;
- marks older than the newest `BRIGHT` are drawn faded and thinner;
- the tokens' names are drawn again above every mark (`labels`, called by the renderer after these);
- the legend groups the marks by game turn, so marks of the previous turn read as such.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from games.core.marks import Mark
from render.common import INK, PAPER, RGB, WHITE, Pen, blend
from render.recap import BLAST, LOOT, MOVE, PENDING, SPAWN, arrowhead, burst, dashed, disc, legend_lines, legend_row

Where = Callable[[str], "tuple[float, float] | None"]

HERO_MARK = (25, 95, 190)  # the heroes' moves and attacks
MONSTER_MARK = MOVE  # the monsters' (red, as their tokens)
HEAL = (20, 135, 60)
BRIGHT = 6  # the newest marks drawn in full colour; older ones faded
FADE = 0.45  # how far an older mark's colour goes towards the floor
FLOOR = (250, 244, 226)  # the active level's floor (render/dungeon FLOOR_ACTIVE), what a faded mark fades towards
SOLID: tuple[RGB, ...] = (HERO_MARK, MONSTER_MARK, HEAL, SPAWN, LOOT, BLAST)
COLOURS: tuple[RGB, ...] = (*SOLID, *(blend(c, FLOOR, FADE) for c in SOLID), PENDING)
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = tuple((WHITE, c) for c in COLOURS)


def colour_of(m: Mark) -> RGB:
    """A mark's colour: whose it is for moves, attacks and heals; its kind for the rest."""
    if m.kind == "heal":
        return HEAL
    if m.kind in ("move", "attack"):
        return HERO_MARK if m.by else MONSTER_MARK
    return {"spawn": SPAWN, "loot": LOOT, "area": BLAST}.get(m.kind, MONSTER_MARK if not m.by else HERO_MARK)


def faded(colour: RGB, old: bool) -> RGB:
    return blend(colour, FLOOR, FADE) if old else colour


def _towards(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float]:
    """The point `by` px from `b` towards `a` (b itself when they are closer than that)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    n = math.hypot(dx, dy)
    if n <= by:
        return b
    return b[0] + dx / n * by, b[1] + dy / n * by


def corners(p: tuple[float, float], half: float) -> list[tuple[float, float]]:
    """The corners of the square (or 2x2 base) centred on `p`: top-right first (the debuff badges sit top-left)."""
    x, y = p
    return [(x + half, y - half), (x - half, y - half), (x + half, y + half), (x - half, y + half)]


Disc = tuple[tuple[float, float], str, RGB]  # a number's place, the number, its colour


def disc_radius(number_size: int) -> int:
    return max(9, number_size // 2 + 3)


def draw_recent(d: Pen, marks: Sequence[Mark], pending: Sequence[Mark], where: Where, cell: float,
                half_of: Callable[[str], float], number_size: int,
                bounds: tuple[float, float, float, float]) -> list[Disc]:
    """Each mark's line or symbol; returns the numbers placed on square corners (1 = oldest shown; '!' =
    pending), which the caller draws last (`draw_discs`), above the tokens' names.

    `half_of(label)`: half the side of the model standing there (a large base is twice a square); `bounds`: the
    pixels of the map's shown part (x0, y0, x1, y1), which every number is kept inside."""
    r = disc_radius(number_size)
    w = max(3, int(cell / 10))
    wants: list[tuple[list[tuple[float, float]], str, RGB]] = []  # each number's places, best first
    everything = [*marks, *pending]
    for i, m in enumerate(everything, start=1):
        pts = [p for p in (where(lab) for lab in m.path) if p is not None]
        if not pts:
            continue
        is_pending = i > len(marks)
        old = not is_pending and i <= len(marks) - BRIGHT
        colour = PENDING if is_pending else faded(colour_of(m), old)
        width = max(2, w - 1) if old else w
        tag = "!" if is_pending else str(i)
        here = corners(pts[0], half_of(m.path[0]))
        if m.kind == "area":  # an effect over an area: its squares outlined, a burst at its centre
            _area(d, m.path[1:], where, cell, colour, width)
            burst(d, *pts[0], cell * 0.42, colour, width)
        elif m.kind in ("attack", "heal") and len(pts) >= 2:
            a, b = pts[0], pts[-1]
            # from the attacker's edge to the target's (no head: the X, ring or plus at the end says which end),
            # moved sideways a little per number so that two attacks between the same models both show
            n = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
            off = ((i % 3) - 1) * cell * 0.12
            side = (-(b[1] - a[1]) / n * off, (b[0] - a[0]) / n * off)
            start = _towards(b, a, half_of(m.path[0]) * 0.8)
            tip = _towards(a, b, half_of(m.path[-1]))
            start, tip = (start[0] + side[0], start[1] + side[1]), (tip[0] + side[0], tip[1] + side[1])
            if m.hit is False and not is_pending:
                dashed(d, start, tip, colour, width)
            else:
                d.line([start, tip], fill=colour, width=width)
            s = cell * 0.18
            if m.kind == "heal":  # a plus on the healed one's edge
                d.line([(tip[0] - s, tip[1]), (tip[0] + s, tip[1])], fill=colour, width=width)
                d.line([(tip[0], tip[1] - s), (tip[0], tip[1] + s)], fill=colour, width=width)
            elif m.hit:
                d.line([(tip[0] - s, tip[1] - s), (tip[0] + s, tip[1] + s)], fill=colour, width=width)
                d.line([(tip[0] - s, tip[1] + s), (tip[0] + s, tip[1] - s)], fill=colour, width=width)
            elif m.hit is False:
                d.ellipse((tip[0] - s, tip[1] - s, tip[0] + s, tip[1] + s), outline=colour, width=width)
            # the number on the corner nearest the line's middle, of either end's square
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            here = sorted(here + corners(b, half_of(m.path[-1])),
                          key=lambda p: (round(math.hypot(p[0] - mid[0], p[1] - mid[1]), 1), p[1], p[0]))
        elif len(pts) >= 2:  # a path: a polyline with a head; its number on a corner of the square it left
            off = ((i % 3) - 1) * cell * 0.1  # paths over the same squares kept apart
            pts = [(x + off, y + off) for x, y in pts]
            end = _towards(pts[-2], pts[-1], cell * 0.3)
            if is_pending:
                for k, (p, q) in enumerate(zip(pts, pts[1:], strict=False)):
                    dashed(d, p, end if k == len(pts) - 2 else q, colour, width)
            else:
                d.line([*pts[:-1], end], fill=colour, width=width)
            arrowhead(d, pts[-2], _towards(pts[-2], pts[-1], cell * 0.25), colour, cell * 0.3)
            if is_pending:
                here = corners(pts[-1], half_of(m.path[-1]))
        elif m.kind == "heal":  # a model healed itself: a plus on its corner
            x, y = here[0]
            s = cell * 0.2
            d.line([(x - s, y), (x + s, y)], fill=colour, width=width)
            d.line([(x, y - s), (x, y + s)], fill=colour, width=width)
        else:  # one square: a spawn or a loot drop, outlined
            x, y = pts[0]
            s = cell * 0.42
            d.rectangle((x - s, y - s, x + s, y + s), outline=colour, width=width)
        wants.append((here, tag, colour))
    return place(wants, r, cell, bounds)


def draw_discs(d: Pen, discs: Sequence[Disc], number_size: int) -> None:
    r = disc_radius(number_size)
    for xy, tag, colour in discs:
        disc(d, xy, tag, colour, r, number_size)


def place(wants: Sequence[tuple[list[tuple[float, float]], str, RGB]], r: float, cell: float,
          bounds: tuple[float, float, float, float]) -> list[Disc]:
    """Each number at its first free place: its own corners in order, then the grid corners around the first one,
    nearest first (every grid corner is clear of the tokens' names); one that finds none takes its first place.
    A place is free when no number placed before covers it and the whole disc is on the shown map."""
    placed: list[Disc] = []
    gap = 2 * r + 1
    x0, y0, x1, y1 = bounds

    def free(p: tuple[float, float]) -> bool:
        return (x0 + r <= p[0] <= x1 - r and y0 + r <= p[1] <= y1 - r
                and all(math.hypot(p[0] - q[0], p[1] - q[1]) >= gap for q, _, _ in placed))

    for spots, tag, colour in wants:
        x, y = spots[0]
        around = sorted(((x + dx * cell, y + dy * cell) for dx in range(-2, 3) for dy in range(-2, 3)),
                        key=lambda p: (math.hypot(p[0] - x, p[1] - y), p[1], p[0]))
        spot = next((p for p in [*spots, *around] if free(p)), spots[0])
        placed.append((spot, tag, colour))
    return placed


def _area(d: Pen, squares: Sequence[str], where: Where, cell: float, colour: RGB, w: int) -> None:
    """The outline of a set of squares: each side of a square whose neighbour is not in it."""
    centres = {p for p in (where(lab) for lab in squares) if p is not None}
    half = cell / 2
    for cx, cy in centres:
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            if not any(abs(cx + dx * cell - x) < 1 and abs(cy + dy * cell - y) < 1 for x, y in centres):
                ax, ay = cx + dx * half - dy * half, cy + dy * half - dx * half
                bx, by = cx + dx * half + dy * half, cy + dy * half + dx * half
                d.line([(ax, ay), (bx, by)], fill=colour, width=max(2, w - 1))


def draw_legend(d: Pen, x: int, y: int, width: int, marks: Sequence[Mark], earlier: int, pending: Sequence[Mark],
                size: int, title: str) -> int:
    """The numbered legend in the map's colours, under a heading per game turn when the marks span several;
    returns the y below it."""
    lines = legend_lines(marks, earlier)
    if not lines and not pending:
        return y
    d.text((x, y), title, size=size + 1, fill=INK)
    y += size + 8
    r = size // 2 + 4
    chars = max(12, int((width - 2 * r - 10) / (size * 0.52)))
    if earlier:
        d.text((x + 2 * r + 8, y), lines[0][1], size=size, fill=INK)
        y += size + 7
        lines = lines[1:]
    turns = {m.turn for m in marks}
    heading = len(turns) > 1 and 0 not in turns
    last_turn = None
    rows: list[tuple[str, str, RGB]] = []
    for i, (m, (tag, text, _)) in enumerate(zip(marks, lines, strict=True), start=1):
        if heading and m.turn != last_turn:
            rows.append(("", f"Turn {m.turn}", PAPER))
            last_turn = m.turn
        rows.append((tag, text, faded(colour_of(m), i <= len(marks) - BRIGHT)))
    rows += [("!", m.text, PENDING) for m in pending]
    for tag, text, colour in rows:
        if not tag:  # a turn's heading
            d.text((x, y), text, size=size, fill=INK)
            y += size + 5
            continue
        y = legend_row(d, x, y, tag, text, colour, size, chars)
    return y
