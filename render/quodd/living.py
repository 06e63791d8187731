"""The living board on the Quodd image: moving platforms under everything, sheep with their facing.

Drawn with colours the Quodd palette already holds, so images without them do not change.
`render/quodd/__init__.py` calls `platforms` before the tokens and `sheep` after the collectibles;
`legend_items` / `legend` add their keys to the legend.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core.grid import DIRS8
from games.quodd.view import QView
from render.common import INK, WHITE, Pen

Box = tuple[int, int, int, int]
BoxOf = Callable[[str], Box]

PLANK = (222, 214, 178)  # the ground colour: a platform is ground over the pit
RIM = (170, 80, 10)
MARK = (70, 45, 30)
FLEECE = {"white": WHITE, "grey": (180, 180, 200), "black": (20, 20, 20)}


def _arrowhead(d: Pen, tip: tuple[float, float], way: str, size: float, fill: tuple[int, int, int]) -> None:
    dx, dy = DIRS8[way]
    bx, by = tip[0] - dx * size, tip[1] - dy * size
    d.polygon([tip, (bx - dy * size * 0.7, by + dx * size * 0.7), (bx + dy * size * 0.7, by - dx * size * 0.7)],
              fill=fill)


def platforms(d: Pen, view: QView, box_of: BoxOf) -> None:
    """Each platform: its squares as ground with an orange rim; a slide arrow, or a turning arc on the pivot."""
    for pl in view.platforms:
        for c in pl.cells:
            x0, y0, x1, y1 = box_of(c)
            d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=PLANK, outline=RIM, width=3)
        x0, y0, x1, y1 = box_of(pl.pivot or pl.cells[0])
        cx, cy, cell = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0
        if pl.kind == "slide":
            dx, dy = DIRS8[pl.dir]
            r = cell * 0.34
            d.line([(cx - dx * r, cy - dy * r), (cx + dx * r * 0.6, cy + dy * r * 0.6)], fill=RIM, width=4)
            _arrowhead(d, (cx + dx * r, cy + dy * r), pl.dir, cell * 0.2, RIM)
        else:
            r = cell * 0.3
            d.arc((cx - r, cy - r, cx + r, cy + r), 200, 340, fill=RIM, width=4)
            # the arc's east end points down (clockwise) or its west end points down (counter-clockwise)
            end = (cx + r * 0.94, cy - r * 0.34) if pl.dir == "cw" else (cx - r * 0.94, cy - r * 0.34)
            _arrowhead(d, (end[0], end[1] + cell * 0.14), "S", cell * 0.16, RIM)


def sheep(d: Pen, view: QView, box_of: BoxOf) -> None:
    """A fleece in the sheep's colour, long along the way it faces, with its head on that side (a black sheep's
    head is light, so it never looks like a bomb)."""
    for s in view.sheep:
        x0, y0, x1, y1 = box_of(s.at)
        cx, cy, cell = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0
        black = s.colour == "black"
        if s.facing not in DIRS8:  # its facing not chosen yet (sheep rule 1): a round fleece, no head
            r = cell * 0.3
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FLEECE.get(s.colour, WHITE),
                      outline=WHITE if black else INK, width=2)
            continue
        dx, dy = DIRS8[s.facing]
        along, across = cell * 0.36, cell * 0.27
        rx, ry = (along, across) if dx else (across, along)
        cx, cy = cx - dx * cell * 0.06, cy - dy * cell * 0.06
        d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=FLEECE.get(s.colour, WHITE),
                  outline=WHITE if black else INK, width=2)
        hx, hy, hr = cx + dx * along, cy + dy * along, cell * 0.17
        d.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=FLEECE["grey"] if black else MARK, outline=INK)


def sheep_under(d: Pen, view: QView, box_of: BoxOf) -> None:
    """A sheep sharing its square with a hero (left there, or the hero had no room) peeks out as a small fleece
    in the square's lower right corner, drawn over the hero."""
    stood = {h.pos for h in view.heroes if h.pos}
    for s in view.sheep:
        if s.at not in stood:
            continue
        x0, y0, x1, y1 = box_of(s.at)
        r = (x1 - x0) * 0.17
        cx, cy = x1 - r - 1, y1 - r - 1
        black = s.colour == "black"
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FLEECE.get(s.colour, WHITE),
                  outline=WHITE if black else INK, width=2)


BEAM = (255, 0, 150)  # magenta: the recap draws moves in the seat colours
GADGET = (40, 40, 40)
STEEL = (180, 180, 200)


def beams(d: Pen, view: QView, box_of: BoxOf) -> None:
    """Each beam as a thick red line from its emitter through its reflectors to the wall or edge it meets;
    the gadgets as dark squares: emitters with their nose, reflectors with their mirror, movers with an arrow,
    rotators with an arc, power blocks with a steel ring. A gadget that is off is drawn hollow."""
    for path in view.beam_paths:
        pts = [_centre(box_of(lab)) for lab in path]
        if len(pts) < 2:
            continue  # an emitter facing straight into a wall
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        pts[-1] = (bx + (bx - ax) / 2, by + (by - ay) / 2)  # on half a square, to what stops it
        d.line(pts, fill=BEAM, width=6, joint="curve")
        d.line(pts, fill=WHITE, width=2)
    for b in view.beams:
        x0, y0, x1, y1 = box_of(b.at)
        cx, cy, cell = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0
        inset = cell * 0.16
        fill = GADGET if b.on else None
        d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=fill, outline=GADGET, width=2)
        r = cell * 0.3
        if b.kind in ("emitter", "mover"):
            dx, dy = DIRS8[b.dir]
            _arrowhead(d, (cx + dx * r * 1.3, cy + dy * r * 1.3), b.dir, cell * 0.26, BEAM if b.kind == "emitter"
                       else STEEL)
        elif b.kind == "reflector":
            # the mirror runs corner to corner, with its shiny side towards the two faces it names
            ns, ew = b.dir[0], b.dir[1]
            slash = (ns == "N") == (ew == "W")  # NW / SE mirrors run from the south-west to the north-east
            a = (x0 + inset, y1 - inset) if slash else (x0 + inset, y0 + inset)
            z = (x1 - inset, y0 + inset) if slash else (x1 - inset, y1 - inset)
            d.line([a, z], fill=STEEL, width=4)
            fx, fy = DIRS8[b.dir]
            d.ellipse((cx + fx * r * 0.6 - 3, cy + fy * r * 0.6 - 3, cx + fx * r * 0.6 + 3, cy + fy * r * 0.6 + 3),
                      fill=WHITE)
        elif b.kind == "rotator":
            d.arc((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), 200, 340, fill=STEEL, width=3)
            end = (cx + r * 0.75, cy - r * 0.1) if b.dir == "cw" else (cx - r * 0.75, cy - r * 0.1)
            _arrowhead(d, end, "S", cell * 0.14, STEEL)
        else:
            d.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), outline=STEEL, width=3)


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def legend_items(view: QView) -> list[tuple[str, str]]:
    out = [("sheep", c) for c in ("white", "grey", "black") if any(s.colour == c for s in view.sheep)]
    if view.platforms:
        out.append(("platform", ""))
    if view.beams:
        out.append(("beam", ""))
    return out


def legend(d: Pen, what: str, key: str, box: Box) -> str:
    """Draw the key of a living-board legend item in `box`; its caption."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if what == "beam":
        d.line([(x0, cy), (x1, cy)], fill=BEAM, width=6)
        d.line([(x0, cy), (x1, cy)], fill=WHITE, width=2)
        return "beam: a wall (dark: gadgets)"
    if what == "platform":
        d.rectangle(box, fill=PLANK, outline=RIM, width=3)
        return "moving platform (slides / turns)"
    r = (x1 - x0) / 2 - 2
    d.ellipse((cx - r, cy - r * 0.7, cx + r - 2, cy + r * 0.7), fill=FLEECE[key],
              outline=WHITE if key == "black" else INK)
    d.ellipse((cx + r - 6, cy - 4, cx + r + 2, cy + 4), fill=FLEECE["grey"] if key == "black" else MARK, outline=INK)
    speed = {"grey": "1", "white": "2", "black": "3, pushes"}[key]
    return f"{key} sheep (head ahead; walks {speed})"



