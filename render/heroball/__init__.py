"""Heroball board image: the hex field (every hex labelled) and a side panel with each player's mat."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image

from games.heroball.board import Board, board
from games.heroball.view import HeroballView
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
    encode_png,
    font,
    wrap,
)

SIZE = 34  # hex centre-to-corner, px
SQ3 = math.sqrt(3)
MARGIN = 18
PANEL_W = 360
TERRAIN = {
    "water": ((120, 170, 225), "W"),
    "mountain": ((165, 150, 135), "M"),
    "forest": ((110, 170, 105), "F"),
    "populated": ((230, 190, 120), "P"),
    "wasteland": ((200, 195, 150), "X"),
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
     *_TERRAINS, *(_dark(c) for c in _TERRAINS)],
    [(INK, PAPER), (MUTED, PAPER), (DOWN_RED, PAPER), (MUTED, FIELD), (MUTED, CENTRE), (PILLAR_LABEL, PILLAR),
     *((MUTED, _lighten(c, 0.55)) for c in SEAT_COLORS), *((WHITE, c) for c in SEAT_COLORS),
     *((INK, _lighten(c, 0.5)) for c in SEAT_COLORS), *((INK, c) for c in _TERRAINS),
     *((MUTED, c) for c in _TERRAINS)],
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
    img = PALETTE.new((g.width + PANEL_W, max(g.height, 860)), PAPER)
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


def _label(d: Pen, g: _Geo, lab: str, bg: RGB) -> None:
    x, y = g.center(lab)
    fill = PILLAR_LABEL if lab in g.b.pillars else MUTED
    d.text((x, y - 19), lab, size=12, fill=fill, anchor="mm", bg=bg)


def _arrow(d: Pen, a: tuple[float, float], b: tuple[float, float], color: RGB, width: int = 4) -> None:
    d.line([a, b], fill=color, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    tip = (b[0] - 12 * math.cos(ang), b[1] - 12 * math.sin(ang))
    left = (tip[0] - 9 * math.cos(ang - 2.4), tip[1] - 9 * math.sin(ang - 2.4))
    right = (tip[0] - 9 * math.cos(ang + 2.4), tip[1] - 9 * math.sin(ang + 2.4))
    d.polygon([(b[0] - 4 * math.cos(ang), b[1] - 4 * math.sin(ang)), left, right], fill=color)


def _dashed_arrow(d: Pen, a: tuple[float, float], b: tuple[float, float], color: RGB) -> None:
    (ax, ay), (bx, by) = (a[0], a[1] + 5), (b[0], b[1] + 5)
    n = max(2, int(math.hypot(bx - ax, by - ay) / 9))
    for i in range(0, n - 1, 2):
        p = (ax + (bx - ax) * i / n, ay + (by - ay) * i / n)
        q = (ax + (bx - ax) * (i + 1) / n, ay + (by - ay) * (i + 1) / n)
        d.line([p, q], fill=color, width=3)
    ang = math.atan2(by - ay, bx - ax)
    tip = (bx - 10 * math.cos(ang), by - 10 * math.sin(ang))
    left = (tip[0] - 10 * math.cos(ang - 2.5), tip[1] - 10 * math.sin(ang - 2.5))
    right = (tip[0] - 10 * math.cos(ang + 2.5), tip[1] - 10 * math.sin(ang + 2.5))
    d.polygon([tip, left, right], fill=color)


def render(view: HeroballView, **options: Any) -> bytes:
    """PNG of the public view."""
    g = _geo(view.radius, view.pillar_distance)
    b = g.b
    goals = tuple((h.seat, tuple(h.goal)) for h in view.heroes)
    img = _base(view.radius, view.pillar_distance, goals).copy()
    d = Pen(img, PALETTE)
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
        d.text((x - 21, y + 8), code, size=13, fill=INK, anchor="mm", bg=color)
        _label(d, g, lab, color)
    # last move traced
    trail = [t for t in view.trail if t in b.labels]
    for a, c in zip(trail, trail[1:], strict=False):
        (ax, ay), (cx, cy) = g.center(a), g.center(c)
        _arrow(d, (ax, ay + 5), (cx, cy + 5), (200, 40, 40))
    # objects thrown, dropped, fumbled or swatted this turn: dashed gold arrows
    for a, c in view.flights:
        if a in b.labels and c in b.labels:
            _dashed_arrow(d, g.center(a), g.center(c), (190, 140, 0))
    # loose objects
    for o in view.objects:
        if o.holder is not None or o.at is None:
            continue
        x, y = g.center(o.at)
        y += 5
        if o.id == "ball":
            dx = 0 if not any(h.pos == o.at for h in view.heroes) else 17
            d.ellipse((x + dx - 9, y - 9, x + dx + 9, y + 9), fill=BALL, outline=INK, width=2)
            if o.in_flight:
                d.ellipse((x + dx - 14, y - 14, x + dx + 14, y + 14), outline=(200, 40, 40), width=2)
        elif any(h.pos == o.at for h in view.heroes):  # beside the hero's token, not under it
            d.line([(x - 15, y + 20), (x + 15, y + 16)], fill=POLE, width=4)
        else:
            d.line([(x - 16, y + 10), (x + 16, y - 2)], fill=POLE, width=5)
    # heroes
    tags = token_labels([h.hero for h in view.heroes])
    for h in view.heroes:
        tag = tags[h.hero]
        x, y = g.center(h.pos)
        y += 5
        color = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
        r = 14
        if h.down:
            d.rectangle((x - r, y - r + 4, x + r, y + r - 4), fill=_lighten(color, 0.5), outline=color, width=3)
            d.line([(x - r, y - r + 4), (x + r, y + r - 4)], fill=INK, width=2)
            d.text((x, y + 1), tag, size=12, fill=INK, anchor="mm", bg=_lighten(color, 0.5))
        else:
            d.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=INK if not h.active else (220, 30, 30),
                      width=3 if h.active else 1)
            d.text((x, y + 1), tag, size=13, fill=WHITE, anchor="mm", bg=color)
        if h.holding == "ball":
            d.ellipse((x + 7, y - 17, x + 19, y - 5), fill=BALL, outline=INK, width=2)
        elif h.holding == "pole":
            d.line([(x - 18, y + 14), (x + 18, y - 14)], fill=POLE, width=4)
    _panel(d, view, g.width)
    return encode_png(img)


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


def _panel(d: Pen, view: HeroballView, x0: int) -> None:
    x = x0 + 6
    y = 14
    d.text((x, y), f"Heroball · Round {view.round}/{view.rounds}", font=font(22), fill=INK)
    y += 30
    status = view.result if view.finished else f"Waiting for {view.waiting_for}"
    for line in wrap(status, 42):
        d.text((x, y), line, font=font(14), fill=MUTED)
        y += 18
    ball = next((o for o in view.objects if o.id == "ball"), None)
    if ball is not None:
        holder = next((h for h in view.heroes if h.player == ball.holder), None)
        where = f"held by {holder.name} ({holder.hero}) on {holder.pos}" if holder else f"on {ball.at}"
        if ball.in_flight:
            where += ", in flight"
        d.ellipse((x, y + 3, x + 12, y + 15), fill=BALL, outline=INK)
        d.text((x + 18, y), f"Godball {where}", font=font(14), fill=INK)
        y += 20
    y += 6
    for h in view.heroes:
        color = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
        top = y
        d.rectangle((x, y, x + PANEL_W - 20, y + 4), fill=color)
        y += 8
        marker = "> " if h.active else ""
        d.text((x, y), f"{marker}{h.name}", font=font(17), fill=INK)
        d.text((x + PANEL_W - 24, y), f"{h.score} pt", font=font(17), fill=INK, anchor="ra")
        y += 21
        d.text((x, y), f"{h.hero} · {h.god} ({h.terrain}) · {h.pos}", font=font(15), fill=MUTED)
        y += 20
        # AP pips
        d.text((x, y), "AP", font=font(15), fill=INK)
        for i in range(h.max_ap):
            cx = x + 30 + i * 18
            d.ellipse((cx, y + 1, cx + 13, y + 14), fill=color if i < h.ap else PAPER, outline=INK)
        flags = []
        if h.holding:
            flags.append("holds " + ("Godball" if h.holding == "ball" else h.holding))
        if h.down:
            flags.append("KNOCKED DOWN")
        d.text((x + 30 + h.max_ap * 18 + 6, y), " · ".join(flags), font=font(15), fill=DOWN_RED if h.down else INK)
        y += 20
        if h.spent:
            d.text((x, y), "spent: " + ", ".join(h.spent), font=font(14), fill=MUTED)
            y += 17
        for c in h.cards:
            d.text((x + 6, y), c, font=font(14), fill=INK)
            y += 17
        y += 6
        del top
    y += 4
    for i, (kind, (color, code)) in enumerate(TERRAIN.items()):
        cx, cy = x + (i % 3) * 112, y + (i // 3) * 18
        d.rectangle((cx, cy + 1, cx + 14, cy + 14), fill=color, outline=GRID)
        d.text((cx + 3, cy + 1), code, size=11, fill=INK, bg=color)
        d.text((cx + 19, cy), kind.replace("astral-turf", "Astral-Turf"), font=font(12), fill=MUTED)
    y += 40
    d.text((x, y), "square token = knocked down; red arrows = last move;", font=font(12), fill=MUTED)
    d.text((x, y + 15), "dashed gold arrows = last throw, drop or fumble", font=font(12), fill=MUTED)
    y += 15
    d.text((x, y + 15), "thick outline = goal tile; dark hex = Pillar of Heaven", font=font(12), fill=MUTED)


__all__ = ["render"]
