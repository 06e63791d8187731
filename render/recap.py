"""The drawn recap every board shares (issue 18): the marks since a player's last turn, numbered, with a
legend; the action a player is asked to react to; the game-over banner; the phone-size text rule.

A renderer passes `where(label) -> (x, y) | None` (the centre of a square or hex in pixels); marks whose
squares are off the image are listed in the legend but not drawn.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from games.core.grid import label, parse_label
from games.core.marks import Mark

from .common import INK, PAPER, RGB, WHITE, Pen, font, wrap

Where = Callable[[str], "tuple[float, float] | None"]
Disc = tuple[tuple[float, float], str, RGB]  # a numbered disc: where, its number, its colour

MOVE = (200, 40, 40)  # a mover's path
PUSH = (150, 30, 150)  # a hero moved by someone else
FLIGHT = (190, 120, 0)  # an object in the air
HIT = (200, 0, 0)
MISS = (90, 90, 90)
SPAWN = (120, 60, 170)
LOOT = (0, 120, 110)
BLAST = (230, 110, 0)
PENDING = (230, 0, 90)
BANNER = (25, 25, 30)
BANNER_TEXT = (255, 215, 90)
COLOURS: tuple[RGB, ...] = (MOVE, PUSH, FLIGHT, HIT, MISS, SPAWN, LOOT, BLAST, PENDING, BANNER, BANNER_TEXT)
# (text, background) pairs a renderer's palette needs for the recap: numbers on their discs, the banner
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((WHITE, c) for c in COLOURS[:9]), (BANNER_TEXT, BANNER), (WHITE, BANNER), (INK, PAPER))

KIND_COLOUR = {"move": MOVE, "tumble": MOVE, "push": PUSH, "throw": FLIGHT, "kick": FLIGHT, "drop": FLIGHT,
               "fumble": FLIGHT, "swat": FLIGHT, "catch": FLIGHT, "spawn": SPAWN, "loot": LOOT, "explode": BLAST,
               "goal": BLAST, "area": BLAST}

PATH_KINDS = ("move", "push", "tumble")  # the legend spells their path out
MIN_CAP_AT_600 = 9  # px: the height of a capital letter when the image is shown 600 px wide


@lru_cache(maxsize=256)  # a text size's capital height: the font's bbox of 'H' took a third of a panel's drawing
def cap_height(size: int) -> int:
    left, top, right, bottom = font(size).getbbox("H")
    return int(bottom - top)


@lru_cache(maxsize=1024)
def legible(width: int, base: int) -> int:
    """The smallest text size >= `base` whose capitals stay `MIN_CAP_AT_600` px tall when an image `width`
    px wide is shown 600 px wide (images narrower than 600 px are shown at their size)."""
    scale = min(1.0, 600 / width)
    size = base
    while cap_height(size) * scale < MIN_CAP_AT_600:
        size += 1
    return size


def colour_of(m: Mark) -> RGB:
    if m.kind == "attack":
        return HIT if m.hit else MISS
    return KIND_COLOUR.get(m.kind, MOVE)


def arrowhead(d: Pen, a: tuple[float, float], b: tuple[float, float], colour: RGB, size: float) -> None:
    """A filled arrowhead `size` px long at b, pointing away from a."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    right = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    d.polygon([b, left, right], fill=colour)


def _shorten(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n <= by * 1.5:
        return b
    return b[0] - dx / n * by, b[1] - dy / n * by


def dashed(d: Pen, a: tuple[float, float], b: tuple[float, float], colour: RGB, width: int,
           dash: float = 8) -> None:
    """A line from a to b in dashes about `dash` px long (a throw, a miss, a pending move)."""
    n = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / dash))
    for i in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
        d.line([p, q], fill=colour, width=width)


def disc(d: Pen, xy: tuple[float, float], text: str, colour: RGB, r: float, size: int) -> None:
    """A mark's number on a disc of its colour, ringed white."""
    x, y = xy
    d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=WHITE, width=2)
    d.text((x, y + 1), text, size=size, fill=WHITE, anchor="mm", bg=colour)


def draw_marks(d: Pen, marks: Sequence[Mark], where: Where, cell: float, pending: Sequence[Mark] = (),
               number_size: int = 14) -> None:
    """Each mark as an arrow or a symbol with its number (1 = oldest shown); pending actions dashed, marked '!'."""
    r = max(9, number_size // 2 + 3)
    w = max(3, int(cell / 10))
    discs: list[Disc] = []
    for i, m in enumerate([*marks, *pending], start=1):
        pts = [p for p in (where(lab) for lab in m.path) if p is not None]
        if not pts:
            continue
        is_pending = i > len(marks)
        colour = PENDING if is_pending else colour_of(m)
        tag = "!" if is_pending else str(i)
        if m.kind == "area":  # an effect over an area: its squares outlined, a burst at its centre
            _area(d, m.path[1:], where, cell, colour, w)
            x, y = pts[0]
            burst(d, x, y, cell * 0.42, colour, w)
            discs.append(((x - cell * 0.42, y - cell * 0.42), tag, colour))
            continue
        # a small sideways offset per number keeps paths over the same squares apart
        off = ((i % 3) - 1) * cell * 0.12
        pts = [(x + off, y + off) for x, y in pts]
        if len(pts) >= 2 and m.kind != "attack":
            segs = list(zip(pts, pts[1:], strict=False))
            end = _shorten(*segs[-1], cell * 0.3)
            if is_pending or m.kind in ("throw", "kick", "drop", "fumble", "swat"):
                for k, (a, b) in enumerate(segs):
                    dashed(d, a, end if k == len(segs) - 1 else b, colour, w)
            else:  # one call: Pillow draws a wide polyline segment by segment, as separate lines
                d.line([*pts[:-1], end], fill=colour, width=w)
            arrowhead(d, segs[-1][0], _shorten(*segs[-1], cell * 0.25), colour, cell * 0.3)
            # the number where the piece left (empty now); a pending move's where it would go
            discs.append((pts[-1] if is_pending else pts[0], tag, colour))
        elif len(pts) >= 2:  # an attack: attacker -> target, hit (solid, X) or miss (dashed, O)
            a, b = pts[0], pts[-1]
            end = _shorten(a, b, cell * 0.35)
            (d.line([a, end], fill=colour, width=w) if m.hit or is_pending else dashed(d, a, end, colour, w))
            arrowhead(d, a, end, colour, cell * 0.28)
            n = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
            side = cell * 0.45  # beside the line near its middle, not on the pieces at either end
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            discs.append(((mx - (b[1] - a[1]) / n * side, my + (b[0] - a[0]) / n * side), tag, colour))
            s = cell * 0.22
            if m.hit:
                d.line([(b[0] - s, b[1] - s), (b[0] + s, b[1] + s)], fill=colour, width=w)
                d.line([(b[0] - s, b[1] + s), (b[0] + s, b[1] - s)], fill=colour, width=w)
            elif m.hit is False:
                d.ellipse((b[0] - s, b[1] - s, b[0] + s, b[1] + s), outline=colour, width=w)
        else:
            x, y = pts[0]
            s = cell * 0.42
            if m.kind == "explode":
                burst(d, x, y, s, colour, w)
            else:
                d.rectangle((x - s, y - s, x + s, y + s), outline=colour, width=w)
            discs.append(((x - s, y - s), tag, colour))
    for xy, tag, colour in spread(discs, r):  # numbers on top of every line, none hiding another
        disc(d, xy, tag, colour, r, number_size)


def spread(discs: Sequence[Disc], r: float) -> list[Disc]:
    """Discs moved apart so none covers another: a disc whose place is taken goes to the nearest free place on
    rings around it (several actions ending on one square get their numbers side by side)."""
    placed: list[Disc] = []
    gap = 2 * r + 1

    def free(p: tuple[float, float]) -> bool:
        return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= gap for q, _, _ in placed)

    for (x, y), tag, colour in discs:
        spot = (x, y)
        ring = 1
        while not free(spot) and ring <= 6:
            steps = 6 * ring
            angles = [2 * math.pi * k / steps for k in range(steps)]
            spots = [(x + gap * ring * math.cos(a), y + gap * ring * math.sin(a)) for a in angles]
            spot = next((p for p in spots if free(p)), spot)
            ring += 1
        placed.append((spot, tag, colour))
    return placed


def burst(d: Pen, x: float, y: float, s: float, colour: RGB, w: int) -> None:
    """Eight short rays around (x, y): a blast, a goal."""
    for k in range(8):
        ang = k * math.pi / 4
        d.line([(x + s * 0.4 * math.cos(ang), y + s * 0.4 * math.sin(ang)),
                (x + s * math.cos(ang), y + s * math.sin(ang))], fill=colour, width=w)


def _area(d: Pen, squares: Sequence[str], where: Where, cell: float, colour: RGB, w: int) -> None:
    """The outline of a set of squares (square boards): each side of a square whose neighbour is not in it."""
    inside = set(squares)
    half = cell / 2
    for lab in squares:
        xy, c = parse_label(lab), where(lab)
        if xy is None or c is None:
            continue
        x, y = xy
        cx, cy = c
        for (dx, dy), a, b in (((0, -1), (-1, -1), (1, -1)), ((0, 1), (-1, 1), (1, 1)),
                               ((-1, 0), (-1, -1), (-1, 1)), ((1, 0), (1, -1), (1, 1))):
            if x + dx < 0 or y + dy < 0 or label(x + dx, y + dy) not in inside:
                d.line([(cx + a[0] * half, cy + a[1] * half), (cx + b[0] * half, cy + b[1] * half)],
                       fill=colour, width=max(2, w - 1))


def legend_lines(marks: Sequence[Mark], earlier: int, pending: Sequence[Mark] = ()) -> list[tuple[str, str, RGB]]:
    """(number, text, colour) per line of the recap legend."""
    out: list[tuple[str, str, RGB]] = []
    if earlier:
        out.append(("", f"{earlier} earlier not drawn", INK))
    for i, m in enumerate(marks, start=1):
        text = m.text or f"{m.who} {m.kind}"
        if m.kind in PATH_KINDS and len(m.path) >= 2:
            path = "-".join(m.path) if len(m.path) <= 6 else f"{m.path[0]}-...-{m.path[-1]}"
            head, sep, tail = text.partition(" through ")  # "X moves A1-B1 through whirlpool"
            text = f"{head} {path}{sep}{tail}"
        if m.kind == "attack" and m.hit is not None and ":" not in text:
            text += ": hit" if m.hit else ": miss"
        out.append((str(i), text, colour_of(m)))
    for m in pending:
        out.append(("!", m.text, PENDING))
    return out


def draw_legend(d: Pen, x: int, y: int, width: int, marks: Sequence[Mark], earlier: int,
                pending: Sequence[Mark] = (), size: int = 15, title: str = "Since the last turn") -> int:
    """The numbered legend in a column `width` px wide from (x, y); returns the y below it."""
    lines = legend_lines(marks, earlier, pending)
    if not lines:
        return y
    d.text((x, y), title, size=size + 1, fill=INK)
    y += size + 8
    r = size // 2 + 4
    chars = max(12, int((width - 2 * r - 10) / (size * 0.52)))
    for tag, text, colour in lines:
        y = legend_row(d, x, y, tag, text, colour, size, chars)
    return y


def legend_row(d: Pen, x: int, y: int, tag: str, text: str, colour: RGB, size: int, chars: int) -> int:
    """One legend line: its number on a disc (none for a note), the text wrapped at `chars`; returns the y below."""
    r = size // 2 + 4
    if tag:
        disc(d, (x + r, y + size // 2 + 1), tag, colour, r, size)
    for k, line in enumerate(wrap(text, chars)):
        d.text((x + 2 * r + 8, y), line, size=size, fill=INK)
        y += size + 4 if k == 0 else size + 2
    return y + 3


def banner(d: Pen, width: int, top: int, text: str, size: int = 24) -> int:
    """The game-over banner across the image at `top`: the result in large letters; returns its bottom."""
    chars = max(16, int((width - 24) / (size * 0.55)))
    lines = wrap("GAME OVER · " + text, chars)[:3]
    h = 14 + len(lines) * (size + 6)
    d.rectangle((0, top, width, top + h), fill=BANNER)
    y = top + 8
    for line in lines:
        d.text((width / 2, y), line, size=size, fill=BANNER_TEXT, anchor="ma", bg=BANNER)
        y += size + 6
    return top + h
