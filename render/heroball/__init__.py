"""Heroball board image: the hex field (every hex labelled) and a side panel with each player's mat."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image

from games.core.marks import Mark
from games.core.words import possessive, says
from games.heroball.board import Board, board
from games.heroball.view import HeroballView, HeroView
from render.common import (
    GRID,
    INK,
    MUTED,
    PAPER,
    RGB,
    SEAT_COLORS,
    WHITE,
    Palette,
    Pen,
    Recorder,
    encode_png,
    grown,
    text_width,
    wrap,
)
from render.recap import BLAST, PENDING, TEXT_PAIRS, arrowhead, banner, colour_of, dashed, draw_legend, legible
from render.recap import COLOURS as RECAP_COLOURS

SIZE = 34  # hex centre-to-corner, px
TOKEN_R = 17  # a hero token's radius; marks stop at its edge and numbers stay off it
SQ3 = math.sqrt(3)
MARGIN = 18
TERRAIN = {
    "water": ((120, 170, 225), "W"),
    "mountain": ((165, 150, 135), "M"),
    "forest": ((110, 170, 105), "F"),
    "populated": ((230, 190, 120), "P"),
    "wasteland": ((200, 195, 150), "Ws"),  # not "X": that is an attack's hit
    "astral-turf": ((190, 160, 225), "A"),
}
PILLAR = (90, 90, 100)
BALL = (240, 200, 30)
POLE = (140, 90, 40)
FIELD = (236, 238, 228)


def _lighten(c: tuple[int, int, int], f: float = 0.6) -> tuple[int, int, int]:
    return tuple(int(v + (255 - v) * f) for v in c)  # type: ignore[return-value]


def _dark(c: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(int(v * 0.72) for v in c)  # type: ignore[return-value]


UNKNOWN = (200, 200, 200)
CENTRE = (250, 235, 170)
PILLAR_LABEL = (235, 235, 240)
DOWN_RED = (180, 30, 30)
_TERRAINS = [c for c, _ in TERRAIN.values()] + [UNKNOWN]
# Every colour the image uses, and the (text, background) pairs whose anti-aliased edges it needs:
# the image is drawn straight in this palette, so encoding has nothing left to quantise.
PALETTE = Palette(
    [PAPER, FIELD, GRID, INK, MUTED, WHITE, PILLAR, BALL, POLE, CENTRE, (170, 130, 20), (200, 200, 210),
     (200, 40, 40), (190, 140, 0), (220, 30, 30), PILLAR_LABEL, DOWN_RED, *SEAT_COLORS,
     *(_lighten(c, 0.55) for c in SEAT_COLORS), *(_lighten(c, 0.5) for c in SEAT_COLORS),
     *_TERRAINS, *(_dark(c) for c in _TERRAINS), *RECAP_COLOURS],
    [(INK, PAPER), (MUTED, PAPER), (DOWN_RED, PAPER), (MUTED, FIELD), (MUTED, CENTRE), (PILLAR_LABEL, PILLAR),
     *((MUTED, _lighten(c, 0.55)) for c in SEAT_COLORS), *((WHITE, c) for c in SEAT_COLORS),
     *((INK, _lighten(c, 0.5)) for c in SEAT_COLORS), *((INK, c) for c in _TERRAINS),
     *((MUTED, c) for c in _TERRAINS), *TEXT_PAIRS],
)


class _Geo:
    def __init__(self, b: Board) -> None:
        self.b = b
        self.ox = MARGIN + SIZE + 1.5 * SIZE * b.radius
        self.oy = MARGIN + 10 + SQ3 * SIZE * (b.radius + 0.5)
        self.width = int(2 * self.ox)
        self.height = int(2 * self.oy - 10)

    def center(self, label: str) -> tuple[float, float]:
        q, r = self.b.hex(label)
        return self.ox + 1.5 * SIZE * q, self.oy + SQ3 * SIZE * (r + q / 2)

    def corners(self, label: str, shrink: float = 0.0) -> list[tuple[float, float]]:
        x, y = self.center(label)
        s = SIZE - shrink
        return [(x + s * math.cos(math.radians(60 * i)), y + s * math.sin(math.radians(60 * i))) for i in range(6)]


@lru_cache(maxsize=8)
def _geo(radius: int, pillar_distance: int) -> _Geo:
    return _Geo(board(radius, pillar_distance))


@lru_cache(maxsize=16)  # per process (the bot renders in a pool): a few layouts, about 1 MB each
def _base(radius: int, pillar_distance: int, goals: tuple[tuple[int, tuple[str, ...]], ...]) -> Image.Image:
    """The static layer: field, goal tiles, pillars, centre post; cached per layout."""
    g = _geo(radius, pillar_distance)
    b = g.b
    img = PALETTE.new((g.width, g.height), PAPER)
    d = Pen(img, PALETTE)
    owner = {lab: seat for seat, labs in goals for lab in labs}
    for lab in b.labels:
        fill = FIELD
        if lab in owner:
            fill = _lighten(SEAT_COLORS[owner[lab] % len(SEAT_COLORS)], 0.55)
        d.polygon(g.corners(lab), fill=fill, outline=GRID)
    for lab, seat in owner.items():
        d.polygon(g.corners(lab, 3), outline=SEAT_COLORS[seat % len(SEAT_COLORS)], width=3)
    for lab in b.pillars:
        x, y = g.center(lab)
        d.polygon(g.corners(lab, 2), fill=PILLAR)
        d.ellipse((x - 14, y - 14, x + 14, y + 14), outline=(200, 200, 210), width=3)
    x, y = g.center(b.centre)
    d.regular_polygon((x, y, SIZE - 8), 6, fill=CENTRE, outline=(170, 130, 20))
    for lab in b.labels:
        _label(d, g, lab, _label_bg(g, lab, owner))
    return img


def _label_bg(g: _Geo, lab: str, owner: dict[str, int]) -> tuple[int, int, int]:
    if lab in g.b.pillars:
        return PILLAR
    if lab == g.b.centre:
        return CENTRE
    if lab in owner:
        return _lighten(SEAT_COLORS[owner[lab] % len(SEAT_COLORS)], 0.55)
    return FIELD


def _label(d: Pen, g: _Geo, lab: str, bg: RGB, dx: float = 0) -> None:
    x, y = g.center(lab)
    fill = PILLAR_LABEL if lab in g.b.pillars else MUTED
    d.text((x + dx, y - 18), lab, size=legible(g.width, 12), fill=fill, anchor="mm", bg=bg)


def render(view: HeroballView, **options: Any) -> bytes:
    """PNG of the public view: the field, what happened since the last turn drawn on it, the panel below."""
    g = _geo(view.radius, view.pillar_distance)
    b = g.b
    goals = tuple((h.seat, tuple(h.goal)) for h in view.heroes)
    width = g.width
    d = Recorder(PALETTE)  # drawn once the panel's end sets the height
    small = legible(width, 12)
    # terrain (the static layer has every hex's label: a terrain hex gets its label again on top)
    for lab, kind in sorted(view.terrain.items()):
        if lab not in b.labels:
            continue
        color, code = TERRAIN.get(kind, (UNKNOWN, "?"))
        d.polygon(g.corners(lab, 4), fill=color)
        x, y = g.center(lab)
        dark = _dark(color)
        for off in (-12, 0, 12):  # hatching: terrain never looks like a goal tile
            d.line([(x + off - 7, y + 22), (x + off + 7, y + 8)], fill=dark, width=2)
        # the code right after the hex's own label, read as one ("G9 W"), away from the neighbours' labels
        lw, cw = text_width(lab, small), text_width(code, small)
        left = x - (lw + 5 + cw) / 2
        d.text((left, y - 18), lab, size=small, fill=MUTED, anchor="lm", bg=color)
        d.text((left + lw + 5, y - 18), code, size=small, fill=INK, anchor="lm", bg=color)
    # loose objects
    for o in view.objects:
        if o.holder is not None or o.at is None:
            continue
        x, y = g.center(o.at)
        y += 5
        if o.id == "ball":
            dx = 0 if not any(h.pos == o.at for h in view.heroes) else 17
            d.ellipse((x + dx - 10, y - 10, x + dx + 10, y + 10), fill=BALL, outline=INK, width=2)
            if o.in_flight:
                d.ellipse((x + dx - 15, y - 15, x + dx + 15, y + 15), outline=(200, 40, 40), width=2)
        elif any(h.pos == o.at for h in view.heroes):  # beside the hero's token, not under it
            d.line([(x - 15, y + 20), (x + 15, y + 16)], fill=POLE, width=4)
        else:
            d.line([(x - 16, y + 10), (x + 16, y - 2)], fill=POLE, width=5)
    _songs(d, g, view)
    # what happened since the acting player's last turn, under the tokens; their numbers go on top, beside them
    keep_clear: list[Spot] = []
    discs = _draw_recap(d, g, view, keep_clear)
    # heroes
    tags = token_labels([h.hero for h in view.heroes])
    for h in view.heroes:
        tag = tags[h.hero]
        x, y = g.center(h.pos)
        y += 5
        color = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
        r = 17
        if h.down:
            d.rectangle((x - r, y - r + 4, x + r, y + r - 4), fill=_lighten(color, 0.5), outline=color, width=3)
            d.line([(x - r, y - r + 4), (x + r, y + r - 4)], fill=INK, width=2)
            d.text((x, y + 1), tag, size=small, fill=INK, anchor="mm", bg=_lighten(color, 0.5))
        else:
            d.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=INK if not h.active else (220, 30, 30),
                      width=3 if h.active else 1)
            d.text((x, y + 1), tag, size=small, fill=WHITE, anchor="mm", bg=color)
        if h.holding == "ball":
            d.ellipse((x + 8, y - 20, x + 22, y - 6), fill=BALL, outline=INK, width=2)
        elif h.holding == "pole":
            d.line([(x - 20, y + 16), (x + 20, y - 16)], fill=POLE, width=4)
    _draw_discs(d, g, view, discs, small, keep_clear)
    bottom = _panel(d, view, g.height + 6, width)
    img = grown(_base(view.radius, view.pillar_distance, goals), (width, bottom + 10))
    d.replay(img)
    return encode_png(img)


def _songs(d: Pen, g: _Geo, view: HeroballView) -> None:
    """The area of a Sing in the field: each hex of it ringed in the singer's colour, with a note on the edge."""
    for player, hexes in sorted(view.songs.items()):
        singer = next((h for h in view.heroes if h.player == player), None)
        if singer is None:
            continue
        colour = SEAT_COLORS[singer.seat % len(SEAT_COLORS)]
        for lab in hexes:
            if lab in g.b.labels:
                d.polygon(g.corners(lab, 6), outline=colour, width=2)


def _mark_xy(g: _Geo, lab: str) -> tuple[float, float] | None:
    """Where a mark meets a hex: the centre of a token standing there (a little below the hex's label)."""
    if lab not in g.b.labels:
        return None
    x, y = g.center(lab)
    return x, y + 5


Point = tuple[float, float]
Disc = tuple[Point, str, RGB]
CELL = SIZE * 1.7
LINE = max(3, int(CELL / 10))
FLIGHTS = ("throw", "kick", "drop", "fumble", "swat")


def _toward(a: Point, b: Point, by: float) -> Point:
    """The point `by` px from `a` on the way to `b` (`a` itself when they meet)."""
    n = math.hypot(b[0] - a[0], b[1] - a[1])
    if n <= by:
        return a
    return a[0] + (b[0] - a[0]) / n * by, a[1] + (b[1] - a[1]) / n * by


def _beside(a: Point, b: Point, by: float) -> Point:
    """The point `by` px to the side of the middle of a-b."""
    n = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return mx - (b[1] - a[1]) / n * by, my + (b[0] - a[0]) / n * by


def _occupied(g: _Geo, view: HeroballView) -> set[str]:
    """Hexes whose centre holds something a mark must not cover: a hero token or a loose object."""
    return {h.pos for h in view.heroes} | {o.at for o in view.objects if o.holder is None and o.at is not None}


Spot = tuple[Point, float]  # something a number must not cover: its centre and radius


def _draw_recap(d: Pen, g: _Geo, view: HeroballView, keep_clear: list[Spot]) -> list[Disc]:
    """Each recent mark, then the pending one, drawn so that no token is covered: paths and attack lines stop at a
    token's edge, an attack's X (hit) or O (defended) sits between the two heroes, a goal is rays around its hex
    (a square token means knocked down), a catch is only its number. Returns the numbers to put on top; what they
    must not cover is added to `keep_clear`."""
    full = _occupied(g, view)
    discs: list[Disc] = []
    marks: list[Mark] = [*view.recent, *view.pending]
    for i, m in enumerate(marks, start=1):
        pts = [p for p in (_mark_xy(g, lab) for lab in m.path) if p is not None]
        if not pts:
            continue
        pending = i > len(view.recent)
        colour = PENDING if pending else colour_of(m)
        tag = "!" if pending else str(i)
        if len(pts) == 1 or m.path[0] == m.path[-1]:
            x, y = pts[0]
            if m.kind == "goal":
                for k in range(8):
                    ang = math.pi / 4 * k
                    if k == 6:  # straight up is the hex's label
                        continue
                    d.line([(x + 21 * math.cos(ang), y + 21 * math.sin(ang)),
                            (x + 29 * math.cos(ang), y + 29 * math.sin(ang))], fill=BLAST, width=LINE)
            discs.append(((x - TOKEN_R - 8, y + 6), tag, colour))
            continue
        if m.kind in ("attack", "distract"):  # one hero on another: attacker's edge to target's edge
            a, b = pts[0], pts[-1]
            start, tip = _toward(a, b, TOKEN_R + 1), _toward(b, a, TOKEN_R + 2)
            if m.kind == "distract" or (m.hit is False and not pending):
                dashed(d, start, tip, colour, LINE, dash=6 if m.kind == "distract" else 8)
            else:
                d.line([start, tip], fill=colour, width=LINE)
            arrowhead(d, start, tip, colour, CELL * 0.28)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            s = 6
            keep_clear.append((mid, s + 3))
            if m.kind == "attack" and m.hit and not pending:
                d.line([(mid[0] - s, mid[1] - s), (mid[0] + s, mid[1] + s)], fill=colour, width=LINE)
                d.line([(mid[0] - s, mid[1] + s), (mid[0] + s, mid[1] - s)], fill=colour, width=LINE)
            elif m.kind == "attack" and m.hit is False and not pending:
                d.ellipse((mid[0] - s, mid[1] - s, mid[0] + s, mid[1] + s), fill=PAPER, outline=colour, width=2)
            discs.append((_beside(a, b, CELL * 0.45), tag, colour))
            continue
        off = ((i % 3) - 1) * CELL * 0.08  # paths over the same hexes kept apart
        pts = [(x + off, y + off) for x, y in pts]
        first = _toward(pts[0], pts[1], TOKEN_R + 1) if m.path[0] in full else pts[0]
        cut = TOKEN_R + 2 if m.path[-1] in full else 3  # into an empty hex: to its middle, under its label
        tip = _toward(pts[-1], pts[-2], cut)
        line = [first, *pts[1:-1], tip]
        if pending or m.kind in FLIGHTS:
            for a, b in zip(line, line[1:], strict=False):
                dashed(d, a, b, colour, LINE)
        else:
            d.line(line, fill=colour, width=LINE)
        arrowhead(d, line[-2], tip, colour, CELL * 0.28)
        # the number where the piece left, or (pending) beside the last stretch: never on what is there now
        discs.append((_beside(pts[-2], pts[-1], CELL * 0.3) if pending else pts[0], tag, colour))
    return discs


def _draw_discs(d: Pen, g: _Geo, view: HeroballView, discs: list[Disc], size: int, keep_clear: list[Spot]) -> None:
    """The numbers, each moved to the nearest spot that covers no other number, no token, no attack's X or O and
    no label of a hex where something stands or a mark ends."""
    r = max(9, size // 2 + 3)
    clear = list(keep_clear)
    for lab in _occupied(g, view):
        x, y = g.center(lab)
        clear.append(((x, y + 5), TOKEN_R))
    for lab in _occupied(g, view) | {m.path[-1] for m in [*view.recent, *view.pending] if m.path}:
        if lab in g.b.labels:
            x, y = g.center(lab)
            clear.append(((x, y - 18), 12))
    placed: list[Disc] = []

    def free(p: Point) -> bool:
        return (all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r + 1 for q, _, _ in placed)
                and all(math.hypot(p[0] - c[0], p[1] - c[1]) >= rad + r - 2 for c, rad in clear))

    for (x, y), tag, colour in discs:
        spot = (x, y)
        ring = 1
        while not free(spot) and ring <= 8:
            steps = 6 * ring
            spots = [(x + (r + 2) * ring * math.cos(2 * math.pi * k / steps),
                      y + (r + 2) * ring * math.sin(2 * math.pi * k / steps)) for k in range(steps)]
            spot = next((p for p in spots if free(p)), spot)
            ring += 1
        placed.append((spot, tag, colour))
    for (x, y), tag, colour in placed:
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=WHITE, width=2)
        d.text((x, y + 1), tag, size=size, fill=WHITE, anchor="mm", bg=colour)


def token_labels(heroes: list[str]) -> dict[str, str]:
    """Two letters per hero token, distinct within one game: the first two letters of the name, or, when two
    heroes share them (Helen and Herakles, Pegasus and Perseus), the initial and the first later letter free."""
    out: dict[str, str] = {}
    clash = {n for n in heroes if any(m != n and m[:2] == n[:2] for m in heroes)}
    taken = {n[:2] for n in heroes if n not in clash}
    for n in heroes:
        if n not in clash:
            out[n] = n[:2]
            continue
        tag = next((n[0] + c for c in n[2:] if c.isalpha() and n[0] + c not in taken), n[:2])
        taken.add(tag)
        out[n] = tag
    return out


def _panel(d: Pen, view: HeroballView, top: int, width: int) -> int:
    """Below the field: result or whose move, the Godball, each player's mat (two columns), the recap
    legend and the key. Returns the y below it."""
    x = 10
    y = top
    big, mid, small = legible(width, 22), legible(width, 16), legible(width, 14)
    if view.finished:
        y = banner(d, width, y, view.result, size=big) + 8
    d.text((x, y), f"Heroball · Round {view.round}/{view.rounds}", size=big, fill=INK)
    y += big + 8
    if not view.finished:
        for line in wrap(f"Waiting for {view.waiting_for}", int(width / (mid * 0.55))):
            d.text((x, y), line, size=mid, fill=MUTED)
            y += mid + 4
        acting = next((h for h in view.heroes if h.active), None)
        if acting is not None and acting.costs:
            cols = int((width - 20) / (small * 0.52))
            for line in [part for text in cost_lines(view, acting) for part in wrap(text, cols)]:
                d.text((x, y), line, size=small, fill=INK)
                y += small + 4
            y += 4
    ball = next((o for o in view.objects if o.id == "ball"), None)
    if ball is not None:
        holder = next((h for h in view.heroes if h.player == ball.holder), None)
        where = f"held by {holder.name} ({holder.hero}) on {holder.pos}" if holder else f"on {ball.at}"
        if ball.in_flight:
            where += ", in flight"
        d.ellipse((x, y + 3, x + mid - 2, y + mid + 1), fill=BALL, outline=INK)
        d.text((x + mid + 6, y), f"Godball {where}", size=mid, fill=INK)
        y += mid + 8
    col = (width - 30) // 2
    rows_top = y
    bottoms: list[int] = []
    for i, h in enumerate(view.heroes):
        cx = x + (i % 2) * (col + 10)
        if i % 2 == 0 and i:
            rows_top = max(bottoms)
        bottoms.append(_mat(d, h, cx, rows_top, col, mid, small))
    y = max(bottoms, default=y) + 6
    y = draw_legend(d, x, y, width - 20, view.recent, view.earlier, view.pending, size=small,
                    title="Since the last turn (numbered in order)") + 6
    per = 3
    step = (width - 20) // per
    for i, (kind, (color, code)) in enumerate(TERRAIN.items()):
        cx, cy = x + (i % per) * step, y + (i // per) * (small + 8)
        d.rectangle((cx, cy, cx + small + 4, cy + small + 4), fill=color, outline=GRID)
        d.text((cx + small // 2 + 2, cy + small // 2 + 3), code, size=small, fill=INK, anchor="mm", bg=color)
        d.text((cx + small + 10, cy + 2), kind.replace("astral-turf", "Astral-Turf"), size=small, fill=MUTED)
    y += 2 * (small + 8) + 8
    for line in ("square token = knocked down; thick outline = goal tile; dark hex = Pillar of Heaven",
                 "solid arrows = moves (red) and pushes (purple); dashed gold = throws, drops, fumbles; "
                 "orange rays = a goal",
                 "attacks: X = hit, O = defended; dotted = Helen's distraction; '!' = the action you may react to",
                 *(f"ringed hexes = {possessive(h.name)} Sing: moving away from {h.hero} there costs more AP"
                   for h in view.heroes if h.player in view.songs)):
        for part in wrap(line, int((width - 20) / (small * 0.52))):
            d.text((x, y), part, size=small, fill=MUTED)
            y += small + 4
    return y


def cost_lines(view: HeroballView, h: HeroView) -> list[str]:
    """The acting hero's AP and what each action costs them (the game's own costs, Trample and defend cards
    included), and what terrain adds per hex."""
    c = h.costs
    fav = f"{view.favoured_cost:+d}" if view.favoured_cost else "nothing"
    return [f"{says(h.name, 'has')} {h.ap} of {h.max_ap} AP. Costs: step {c['step']}, run {c['run']}, "
            f"sprint {c['sprint']} "
            f"(each once a turn, in that order), throw {c['throw']}, drop {c['drop']}, push {c['push']}, "
            f"fumble {c['fumble']}; reactions: defend {c['defend']}, intercept {c['intercept']}.",
            f"Moving onto terrain adds {view.terrain_cost:+d} AP a hex ({fav} on your god's favoured terrain)."] + [
            f"{r.name} may react with {r.ap} AP: "
            + ", ".join(f"{k} {r.costs[k]}" for k in ("defend", "intercept", "distract") if k in r.costs) + "."
            for r in view.heroes if r.reacting and r.costs]


def _mat(d: Pen, h: HeroView, x: int, y: int, w: int, mid: int, small: int) -> int:
    """One player's mat in a column `w` px wide; returns the y below it."""
    color = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
    d.rectangle((x, y, x + w, y + 4), fill=color)
    y += 8
    marker = "> " if h.active else ""
    d.text((x, y), f"{marker}{h.name}", size=mid, fill=INK)
    d.text((x + w, y), f"{h.score} pt", size=mid, fill=INK, anchor="ra")
    y += mid + 6
    for line in wrap(f"{h.hero} · {h.god} ({h.terrain}) · {h.pos}", int(w / (small * 0.55))):
        d.text((x, y), line, size=small, fill=MUTED)
        y += small + 4
    d.text((x, y), f"AP {h.ap}", size=small, fill=INK)
    pip = small - 2
    for i in range(h.max_ap):
        cx = x + int(small * 2.6) + i * (pip + 4)
        d.ellipse((cx, y + 2, cx + pip, y + 2 + pip), fill=color if i < h.ap else PAPER, outline=INK)
    y += small + 6
    flags = []
    if h.holding:
        flags.append("holds " + ("Godball" if h.holding == "ball" else h.holding))
    if h.down:
        flags.append("KNOCKED DOWN")
    if flags:
        d.text((x, y), " · ".join(flags), size=small, fill=DOWN_RED if h.down else INK)
        y += small + 4
    if h.spent:
        for line in wrap("spent: " + ", ".join(h.spent), int(w / (small * 0.55))):
            d.text((x, y), line, size=small, fill=MUTED)
            y += small + 4
    for c in h.cards:
        for line in wrap(c, int(w / (small * 0.55))):
            d.text((x, y), line, size=small, fill=INK)
            y += small + 3
    return y + 4


__all__ = ["render"]
