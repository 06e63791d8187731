"""The living board's tokens on the Quodd image: lying bombs with their speed, cannons with their opening,
switches and what they are linked to, and how far each board has turned.

`render/quodd/__init__.py` rings linked tokens in their group's colour (`link_colours`, `ring`), calls `cannon`
for a cannon token, `bombs` after the collectibles and `turned` last on the map; `legend_items` / `legend` add
their keys to the legend. Every colour here is in the Quodd palette (`COLOURS`).
"""
from __future__ import annotations

from collections.abc import Callable

from games.core.grid import DIRS8
from games.quodd.view import QView
from render.common import INK, WHITE, Pen, text_center

Box = tuple[int, int, int, int]
BoxOf = Callable[[str], Box]
RGB = tuple[int, int, int]

BALL = (30, 25, 25)
DIGIT = (230, 160, 90)  # the speed on the ball (a text pair the palette already has)
NOSE = (120, 20, 20)
RIMS: dict[str, RGB] = {"standard": WHITE, "fire": (240, 140, 60), "ice": (150, 200, 235)}
SPEED = {"standard": 4, "fire": 3, "ice": 3}
BARREL = (180, 180, 190)
MUZZLE = (20, 20, 20)
BADGE = (200, 120, 60)
# linked switches: a coloured switch's own colour, else one colour per group in order of appearance
LINK: dict[str, RGB] = {"red": (220, 50, 60), "blue": (50, 110, 230), "green": (40, 170, 80),
                        "yellow": (230, 190, 40)}
CYCLE: tuple[RGB, ...] = ((50, 110, 230), (220, 50, 60), (40, 170, 80), (230, 190, 40))
LINKED = ("switch", "switch_colour", "trap_door", "trap_door_open", "impassable_up", "impassable_down")
COLOURS: tuple[RGB, ...] = (BALL, DIGIT, NOSE, *RIMS.values(), BARREL, MUZZLE, BADGE, *LINK.values())
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = ((DIGIT, BALL), (WHITE, BADGE))


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def link_colours(view: QView) -> dict[str, RGB]:
    """The colour of each switch group on the map."""
    groups = sorted({t.group for t in view.tokens.values() if t.kind in LINKED and t.group})
    return {g: LINK.get(g.lower(), CYCLE[i % len(CYCLE)]) for i, g in enumerate(groups)}


def ring(d: Pen, box: Box, colour: RGB) -> None:
    """The group colour around a linked token."""
    x0, y0, x1, y1 = box
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=colour, width=3)


def cannon(d: Pen, box: Box, way: str) -> None:
    """A steel square base with a black barrel reaching the side its opening points to, the opening a white
    ring (never round like a lying bomb)."""
    x0, y0, x1, y1 = box
    cx, cy = _centre(box)
    cell = x1 - x0
    r = cell * 0.34
    d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=BARREL, outline=INK)
    dx, dy = DIRS8.get(way, (0, -1))
    tip = (cx + dx * cell * 0.36, cy + dy * cell * 0.36)
    d.line([(cx - dx * cell * 0.15, cy - dy * cell * 0.15), tip], fill=MUZZLE, width=max(4, round(cell * 0.3)))
    m = cell * 0.15
    d.ellipse((tip[0] - m, tip[1] - m, tip[0] + m, tip[1] + m), fill=MUZZLE, outline=WHITE, width=2)


def bombs(d: Pen, view: QView, box_of: BoxOf) -> None:
    """Lying bombs: a black ball with its speed, the rim the bomb's kind (white standard, orange fire, blue ice),
    a red nose towards where it rolls next."""
    for b in view.bombs:
        x0, y0, x1, y1 = box_of(b.at)
        cx, cy = _centre((x0, y0, x1, y1))
        r = (x1 - x0) * 0.38
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BALL, outline=RIMS.get(b.kind, WHITE), width=4)
        text_center(d, (cx, cy), str(SPEED.get(b.kind, "")), max(12, round(r * 1.3)), DIGIT, bg=BALL)
        dx, dy = DIRS8.get(b.dir, (0, 0))
        n = (x1 - x0) * 0.12
        d.ellipse((cx + dx * r - n, cy + dy * r - n, cx + dx * r + n, cy + dy * r + n), fill=NOSE, outline=WHITE)


def turned(d: Pen, view: QView, box_of: BoxOf, size: int) -> None:
    """A badge on the north-west square of each turned board: how far it has turned clockwise since setup."""
    for lab, quarter in view.turned.items():
        x0, y0, x1, y1 = box_of(lab)
        w = (x1 - x0) * 1.5
        d.rounded_rectangle((x0 + 1, y0 + 1, x0 + w, y0 + size + 4), radius=4, fill=BADGE, outline=WHITE)
        text_center(d, (x0 + 1 + w / 2, y0 + size / 2 + 3), f"{quarter * 90}°", size, WHITE, bg=BADGE)


def legend_items(view: QView) -> list[tuple[str, str]]:
    out = [("bomb", k) for k in ("standard", "fire", "ice") if any(b.kind == k for b in view.bombs)]
    if any(t.kind == "cannon" for t in view.tokens.values()):
        out.append(("cannon", ""))
    if view.turned:
        out.append(("turned", ""))
    if link_colours(view):
        out.append(("link", ""))
    return out


def legend(d: Pen, what: str, key: str, box: Box) -> str:
    """Draw the key of a legend item in `box`; its caption."""
    x0, y0, x1, y1 = box
    cx, cy = _centre(box)
    if what == "bomb":
        r = (x1 - x0) / 2 - 1
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BALL, outline=RIMS[key], width=2)
        text_center(d, (cx, cy), str(SPEED[key]), 12, DIGIT, bg=BALL)
        return f"{key} bomb: speed {SPEED[key]}, red dot: its way"
    if what == "cannon":
        cannon(d, box, "E")
        return "cannon (fires from the ring)"
    if what == "turned":
        d.rounded_rectangle(box, radius=4, fill=BADGE)
        text_center(d, (cx, cy), "°", 12, WHITE, bg=BADGE)
        return "board turned clockwise since setup"
    ring(d, box, CYCLE[0])
    return "switch + what it flips: same ring"
