"""Quodd Heroes board image: the map with every feature and token, heroes, last path, legend, side panel."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import GRID, INK, MUTED, PAPER, SEAT_COLORS, encode_png, font, text_center

CELL = 34
MARGIN = 22  # room for the row and column labels
PANEL = 330
CARD_W = 300  # one hero's card in the panel
CARD_H = 122
HEADER_H = 80
LEGEND_ROW = 18

ARROWS = {"^": "N", ">": "E", "v": "S", "<": "W"}
DIRV = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0), "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}

GROUND = (222, 214, 178)
FEATURE_FILL = {
    ".": GROUND, "O": (48, 40, 44), "^": (150, 200, 235), ">": (150, 200, 235), "v": (150, 200, 235),
    "<": (150, 200, 235), "@": (95, 150, 215), "R": (200, 232, 190), "s": (246, 233, 160), "D": (247, 190, 120),
    "w": (120, 175, 230),
}
FEATURE_NAMES = {
    ".": "ground", "O": "pit", "^": "water current (arrow = flow)", "@": "whirlpool", "R": "respawn point",
    "s": "start space", "D": "drop zone", "w": "water connection (letter)",
}
TOKEN_STYLE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], str]] = {
    # kind: (fill, text colour, glyph)
    "wall": ((120, 84, 60), (255, 255, 255), ""),
    "broken_wall": ((200, 170, 140), (90, 60, 40), "bw"),
    "impassable_up": ((40, 40, 48), (255, 90, 90), "IW"),
    "impassable_down": ((210, 205, 195), (60, 60, 70), "iw"),
    "tunnel": ((70, 55, 45), (255, 230, 180), "Tn"),
    "teleporter": ((150, 80, 200), (255, 255, 255), "Tp"),
    "super_teleporter": ((110, 40, 170), (255, 230, 90), "ST"),
    "spring": ((90, 170, 90), (255, 255, 255), "Sp"),
    "super_spring": ((40, 120, 40), (255, 240, 120), "SS"),
    "pit": ((48, 40, 44), (200, 200, 200), "Pt"),
    "q": ((255, 210, 60), (60, 40, 0), "Q"),
    "rearrange": ((255, 170, 60), (60, 30, 0), "Rs"),
    "switch": ((180, 180, 190), (30, 30, 35), "Sw"),
    "switch_colour": ((230, 190, 40), (30, 30, 35), "CS"),
    "trap_door": ((160, 120, 80), (255, 255, 255), "TD"),
    "trap_door_open": ((30, 25, 25), (230, 160, 90), "OT"),
    "secret": ((90, 90, 110), (255, 255, 255), "?"),
    "rally": ((230, 60, 60), (255, 255, 255), "#"),
    "drop_zone": ((240, 140, 60), (40, 20, 0), "DZ"),
    "explore": ((70, 140, 200), (255, 255, 255), "Ex"),
    "food": ((200, 120, 60), (255, 255, 255), "Fd"),
    "item": ((120, 120, 200), (255, 255, 255), "It"),
    "pet": ((200, 100, 160), (255, 255, 255), "Pe"),
    "rune": ((90, 60, 140), (255, 255, 255), "Ru"),
    "upgrade": ((230, 200, 60), (50, 40, 0), "Up"),
    "treasure": ((200, 160, 40), (255, 255, 255), "Tr"),
}
TOKEN_NAMES = {
    "wall": "wall", "broken_wall": "broken wall", "impassable_up": "impassable wall (up)",
    "impassable_down": "impassable wall (down)", "tunnel": "tunnel", "teleporter": "teleporter",
    "super_teleporter": "super teleporter", "spring": "spring", "super_spring": "super spring", "pit": "pit token",
    "q": "Q token", "rearrange": "rearrange skills", "switch": "switch", "switch_colour": "coloured switch",
    "trap_door": "trap door", "trap_door_open": "open trap door", "secret": "secret token", "rally": "rally marker",
    "drop_zone": "drop zone", "explore": "explore", "food": "food", "item": "item", "pet": "pet", "rune": "rune",
    "upgrade": "upgrade", "treasure": "treasure",
}
CRYSTAL = {"red": (220, 50, 60), "blue": (50, 110, 230), "green": (40, 170, 80)}
SKILL_SHORT = {"slide": "Sl", "diagonal": "Di", "dash": "Da", "tumble": "Tu", "jump": "Ju"}
FACE_SHORT = {"front": "Fr", "back": "Bk", "left": "Lf", "right": "Rt", "feet": "Ft"}


def _g(view: Any, key: str):
    return view[key] if isinstance(view, dict) else getattr(view, key)


def _col(x: int) -> str:
    s, x = "", x + 1
    while x:
        x, r = divmod(x - 1, 26)
        s = chr(65 + r) + s
    return s


def _xy(lab: str) -> tuple[int, int]:
    i = 0
    while lab[i].isalpha():
        i += 1
    x = 0
    for ch in lab[:i]:
        x = x * 26 + ord(ch) - 64
    return x - 1, int(lab[i:]) - 1


def _cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _arrow(d: ImageDraw.ImageDraw, cx: float, cy: float, direction: str, size: float, fill) -> None:
    ux, uy = DIRV[direction]
    n = math.hypot(ux, uy)
    dx, dy = ux / n, uy / n
    px, py = -dy, dx
    tip = (cx + dx * size, cy + dy * size)
    base = (cx - dx * size * 0.6, cy - dy * size * 0.6)
    d.line([base, tip], fill=fill, width=3)
    head = [tip, (tip[0] - dx * size * 0.6 + px * size * 0.45, tip[1] - dy * size * 0.6 + py * size * 0.45),
            (tip[0] - dx * size * 0.6 - px * size * 0.45, tip[1] - dy * size * 0.6 - py * size * 0.45)]
    d.polygon(head, fill=fill)


@lru_cache(maxsize=16)
def _base(rows: tuple[str, ...], links: tuple[tuple[str, str], ...]) -> Image.Image:
    """The printed map with labels: drawn once per map layout."""
    h, w = len(rows), len(rows[0])
    img = Image.new("RGB", (MARGIN * 2 + w * CELL, MARGIN * 2 + h * CELL), PAPER)
    d = ImageDraw.Draw(img)
    link_of = dict(links)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                continue
            box = _cell_box(x, y)
            d.rectangle(box, fill=FEATURE_FILL[ch], outline=GRID)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            if ch in ARROWS:
                _arrow(d, cx, cy, ARROWS[ch], CELL * 0.3, (20, 80, 160))
            elif ch == "@":
                for r in (4, 8, 12):
                    d.arc((cx - r, cy - r, cx + r, cy + r), 30 * r, 30 * r + 270, fill=(230, 240, 255), width=2)
            elif ch == "O":
                d.ellipse((box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5), fill=(15, 10, 12))
            elif ch == "R":
                d.ellipse((box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6), outline=(40, 130, 50), width=3)
                text_center(d, (cx, cy), "R", 12, (40, 130, 50))
            elif ch == "s":
                text_center(d, (cx, cy + 9), "start", 9, (150, 120, 30))
            elif ch == "D":
                d.rectangle((box[0] + 4, box[1] + 4, box[2] - 4, box[3] - 4), outline=(170, 80, 10), width=2)
                text_center(d, (cx, cy), "DZ", 11, (140, 60, 0))
            elif ch == "w":
                d.ellipse((box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5), outline=(255, 255, 255), width=2)
                text_center(d, (cx, cy), link_of.get(f"{_col(x)}{y + 1}", "?"), 15, (255, 255, 255))
    for x in range(w):
        cx = MARGIN + x * CELL + CELL / 2
        text_center(d, (cx, MARGIN / 2), _col(x), 12, INK)
        text_center(d, (cx, MARGIN * 1.5 + h * CELL), _col(x), 12, INK)
    for y in range(h):
        cy = MARGIN + y * CELL + CELL / 2
        text_center(d, (MARGIN / 2, cy), str(y + 1), 12, INK)
        text_center(d, (MARGIN * 1.5 + w * CELL, cy), str(y + 1), 12, INK)
    return img


def _token(d: ImageDraw.ImageDraw, box, kind: str, number: int, group: str) -> None:
    fill, ink, glyph = TOKEN_STYLE.get(kind, ((128, 128, 128), (255, 255, 255), kind[:2]))
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == "wall":
        d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=fill, outline=(70, 45, 30), width=2)
        for yy in (y0 + 12, y0 + 22):
            d.line([(x0 + 3, yy), (x1 - 3, yy)], fill=(80, 55, 40), width=1)
        return
    if kind == "rally":
        d.ellipse((x0 + 4, y0 + 4, x1 - 4, y1 - 4), fill=fill, outline=(120, 20, 20), width=2)
        text_center(d, (cx, cy), str(number), 14, ink)
        return
    if kind in ("impassable_up", "trap_door_open", "pit"):
        d.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), fill=fill, outline=ink, width=2)
    else:
        d.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=6, fill=fill, outline=(40, 40, 40))
    text_center(d, (cx, cy - (4 if group else 0)), glyph, 12, ink)
    if group:
        text_center(d, (cx, cy + 8), group[:4], 8, ink)


def _crystals(d: ImageDraw.ImageDraw, box, items: list[str], alone: bool) -> None:
    """Crystals lying on a square: big in the middle, or small in a corner when a token is there too."""
    x0, y0, x1, y1 = box
    for i, item in enumerate(items[:3]):
        colour = CRYSTAL.get(item.split("-")[0], (180, 180, 200))
        if alone:
            cx, cy, r = (x0 + x1) / 2 + (i - (len(items[:3]) - 1) / 2) * 10, (y0 + y1) / 2, 10
        else:
            cx, cy, r = x1 - 7 - i * 9, y1 - 8, 6
        d.polygon([(cx, cy - r), (cx + r * 0.65, cy), (cx, cy + r), (cx - r * 0.65, cy)], fill=colour, outline=(20, 20, 20))


def _hero(d: ImageDraw.ImageDraw, box, colour, icon: str, face: str, carrying: int) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = CELL * 0.36
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(255, 255, 255), width=2)
    text_center(d, (cx, cy), icon, 13 if len(icon) > 1 else 16, (255, 255, 255))
    if face in DIRV:
        dx, dy = DIRV[face]
        tx, ty = cx + dx * (r + 4), cy + dy * (r + 4)
        px, py = -dy, dx
        d.polygon([(tx, ty), (cx + dx * (r - 2) + px * 5, cy + dy * (r - 2) + py * 5),
                   (cx + dx * (r - 2) - px * 5, cy + dy * (r - 2) - py * 5)], fill=(20, 20, 20))
    else:  # the front faces up or down: a ring marks it
        d.ellipse((cx - 4, cy - r - 1, cx + 4, cy - r + 7), fill=(20, 20, 20) if face == "up" else (255, 255, 255),
                  outline=(20, 20, 20))
    if carrying:
        d.ellipse((x1 - 12, y0, x1, y0 + 12), fill=(255, 255, 255), outline=(20, 20, 20))
        text_center(d, (x1 - 6, y0 + 6), str(carrying), 9, INK)


def render(view: Any, **options: Any) -> bytes:
    rows = tuple(_g(view, "rows"))
    links = tuple(sorted(_g(view, "links").items()))
    base = _base(rows, links)
    heroes = list(_g(view, "heroes"))
    present_f = sorted({ch if ch not in ARROWS else "^" for r in rows for ch in r if ch != "#"},
                       key=list(FEATURE_NAMES).index)
    tokens = _g(view, "tokens")
    present_t = sorted({_g(t, "kind") for t in tokens.values()}, key=list(TOKEN_STYLE).index)
    legend_items = [("f", ch) for ch in present_f] + [("t", k) for k in present_t]
    if _g(view, "ground"):
        legend_items.append(("c", "crystal"))
    legend_items.append(("h", "hero"))
    if _g(view, "choice_squares"):
        legend_items.append(("p", "choice"))
    per_row = max(1, (base.width - 10) // 175)
    legend_h = 14 + LEGEND_ROW * ((len(legend_items) + per_row - 1) // per_row)
    below = base.width >= 600  # wide maps: players under the map, so phones show the map larger
    if below:
        cols = max(1, (base.width - 16) // CARD_W)
        panel_top = base.height + legend_h
        width = base.width
        height = panel_top + HEADER_H + CARD_H * ((len(heroes) + cols - 1) // cols) + 6
    else:
        cols, panel_top = 1, 0
        width = base.width + PANEL
        height = max(base.height + legend_h, HEADER_H + 10 + CARD_H * len(heroes))
    img = Image.new("RGB", (width, height), PAPER)
    img.paste(base, (0, 0))
    d = ImageDraw.Draw(img)
    for lab, t in tokens.items():
        x, y = _xy(lab)
        _token(d, _cell_box(x, y), _g(t, "kind"), _g(t, "number"), _g(t, "group"))
    for lab, items in _g(view, "ground").items():
        x, y = _xy(lab)
        _crystals(d, _cell_box(x, y), list(items), lab not in tokens)
    # the path of the last move, in the mover's colour
    path = list(_g(view, "last_path"))
    mover = next((hv for hv in heroes if _g(hv, "player") == _g(view, "last_mover")), None)
    if mover is not None and len(path) > 1:
        colour = SEAT_COLORS[_g(mover, "seat") % len(SEAT_COLORS)]
        pts = []
        for lab in path:
            x, y = _xy(lab)
            pts.append((MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2))
        d.line(pts, fill=colour, width=4, joint="curve")
        for p in pts[:-1]:
            d.ellipse((p[0] - 4, p[1] - 4, p[0] + 4, p[1] + 4), fill=colour)
    for hv in heroes:
        pos = _g(hv, "pos")
        if not pos:
            continue
        x, y = _xy(pos)
        colour = SEAT_COLORS[_g(hv, "seat") % len(SEAT_COLORS)]
        box = _cell_box(x, y)
        _hero(d, box, colour, _g(hv, "icon"), _g(hv, "facing"), len(_g(hv, "carrying")))
        under = tokens.get(pos)
        if under is not None:  # what the hero stands on stays readable in a corner badge
            kind = _g(under, "kind")
            fill, ink, glyph = TOKEN_STYLE.get(kind, ((128, 128, 128), (255, 255, 255), "?"))
            text = str(_g(under, "number")) if kind == "rally" else (glyph or "W")
            d.rectangle((box[0] + 1, box[1] + 1, box[0] + 13, box[1] + 11), fill=fill, outline=(20, 20, 20))
            text_center(d, (box[0] + 7, box[1] + 6), text[:2], 8, ink)
    for lab in _g(view, "choice_squares"):  # where a pending decision may send something
        x0, y0, x1, y1 = _cell_box(*_xy(lab))
        d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=(255, 0, 150), width=3)
    _legend(d, legend_items, base.height + 4, per_row)
    if below:
        d.line([(8, panel_top - 4), (width - 8, panel_top - 4)], fill=GRID, width=1)
        _panel(d, view, heroes, 10, panel_top, cols)
    else:
        _panel(d, view, heroes, base.width + 8, 0, 1)
    return encode_png(img)


def _legend(d: ImageDraw.ImageDraw, items, top: int, per_row: int) -> None:
    for i, (what, key) in enumerate(items):
        x = 10 + (i % per_row) * 175
        y = top + (i // per_row) * LEGEND_ROW
        box = (x, y, x + 16, y + 16)
        if what == "f":
            d.rectangle(box, fill=FEATURE_FILL[key], outline=GRID)
            if key == "^":
                _arrow(d, x + 8, y + 8, "E", 5, (20, 80, 160))
            name = FEATURE_NAMES[key]
        elif what == "t":
            fill, ink, glyph = TOKEN_STYLE[key]
            d.rectangle(box, fill=fill, outline=(40, 40, 40))
            text_center(d, (x + 8, y + 8), glyph[:2], 8, ink)
            name = TOKEN_NAMES[key]
        elif what == "p":
            d.rectangle(box, outline=(255, 0, 150), width=3)
            name = "you may choose this square"
        elif what == "c":
            d.polygon([(x + 8, y + 1), (x + 13, y + 8), (x + 8, y + 15), (x + 3, y + 8)], fill=CRYSTAL["red"])
            name = "crystal (on the ground)"
        else:
            d.ellipse(box, fill=SEAT_COLORS[0])
            name = "hero: top skill, facing"
        d.text((x + 21, y + 8), name, font=font(11), fill=INK, anchor="lm")


def _panel(d: ImageDraw.ImageDraw, view, heroes, left: int, top: int, cols: int) -> None:
    """Scenario, round and first player, then one card per hero (several columns when below the map)."""
    y = top + 8
    d.text((left, y), _g(view, "scenario_name"), font=font(16), fill=INK)
    y += 22
    first = _g(view, "first_player")
    d.text((left, y), f"Round {_g(view, 'round')}/{_g(view, 'round_limit')}   first player: {first}", font=font(12), fill=INK)
    y += 18
    result = _g(view, "result_text")
    status = result or _g(view, "waiting_for")
    for line in _wrap(status, 46 if cols == 1 else 46 * cols)[:2]:
        d.text((left, y), line, font=font(11), fill=MUTED)
        y += 14
    active = _g(view, "active_player")
    for i, hv in enumerate(heroes):
        x = left + (i % cols) * CARD_W
        y = top + HEADER_H + (i // cols) * CARD_H
        _card(d, view, hv, x, y, active, first, bool(result))


def _card(d: ImageDraw.ImageDraw, view, hv, left: int, y: int, active: str, first: str, over: bool) -> None:
    colour = SEAT_COLORS[_g(hv, "seat") % len(SEAT_COLORS)]
    d.rectangle((left, y + 2, left + 12, y + 14), fill=colour)
    mark = "  <- to move" if _g(hv, "name") == active and not over else ""
    mark += "  (first)" if _g(hv, "name") == first else ""
    d.text((left + 18, y), f"{_g(hv, 'name')} - {_g(hv, 'hero_name')}{mark}", font=font(13), fill=INK)
    y += 18
    top = _g(hv, "top_skill")
    d.text((left + 18, y), f"at {_g(hv, 'pos') or '-'}   top: {'Q' if top == 'q' else top}   facing {_g(hv, 'facing')}",
           font=font(11), fill=INK)
    y += 15
    skills = _g(hv, "skills")
    upg = set(_g(hv, "upgraded"))
    faces = "  ".join(f"{FACE_SHORT[f]}:{SKILL_SHORT[s]}{'+' if s in upg else ''}" for f, s in skills.items())
    d.text((left + 18, y), faces, font=font(11), fill=INK)
    y += 15
    d.text((left + 18, y), f"move {_g(hv, 'movement')}  explore {_g(hv, 'explore')}  explores earned "
           f"{_g(hv, 'explores_earned')}", font=font(11), fill=INK)
    y += 15
    carry = ", ".join(c.replace("-crystal", "") + " crystal" for c in _g(hv, "carrying")) or "nothing"
    d.text((left + 18, y), f"carrying: {carry}", font=font(11), fill=INK)
    y += 15
    d.text((left + 18, y), f"objective: {_g(hv, 'objective')}", font=font(11), fill=INK)
    y += 15
    if _g(hv, "name") == active and not over and _g(view, "used_skills"):
        d.text((left + 18, y), "used this turn: " + ", ".join(_g(view, "used_skills")), font=font(11), fill=MUTED)


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        out.append(line)
    return out
