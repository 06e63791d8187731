"""Board image of the SDE-S dungeon: the explored part of the map with walls and terrain, models, what happened
since the last turn (issue 16/18), and the panel below it (phone-first: every text legible 600 px wide).

Pure function of the public view; the static layer (floor, terrain, grid, walls, labels)
is cached per dungeon and active level.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image

from games.core.grid import col_letters, parse_label
from games.dungeon.view import DungeonView, HeroView, MonsterView, SpawnView
from render.common import (
    INK,
    MUTED,
    PAPER,
    SEAT_COLORS,
    WHITE,
    Palette,
    Pen,
    Recorder,
    band,
    blend,
    encode_png,
    grown,
    text_width,
    wrap,
)
from render.recap import COLOURS as RECAP_COLOURS
from render.recap import TEXT_PAIRS, banner, cap_height, legible

from . import recent

CELL = 34  # a square's side, while the shown columns fit MAX_W with it (level 1's 14 columns: 532 px)
MIN_CELL = 31  # a whole 24-column map: 800 px, shown on a phone as large as 34 px squares in 884 px were
MAX_W = 800  # phone-first (issue 18): Discord shows a board about 600 px wide
LABELS = 28  # the frame that holds the coordinates' labels
FULL_COLUMNS = 24  # the widest map: in-cell letters are sized for a whole one at the square's size
MARGIN = 22
MIN_W = 460  # narrowest image: room for the panel

FLOOR_ACTIVE = (250, 244, 226)
FLOOR_OTHER = (222, 218, 210)
GRID_LINE = (196, 190, 180)
WALL = (25, 25, 30)
STRUCTURE = (110, 104, 98)
CHASM = (40, 38, 52)
LAVA = (232, 112, 40)
BRAMBLE = (60, 130, 60)
DIFFICULT = (150, 120, 80)
AURA = (150, 90, 200)
WOUND = (200, 30, 40)
RANK_FILL = {"minion": (150, 40, 40), "elite": (110, 50, 150), "boss": (20, 20, 20)}
DEBUFF_STYLE = {
    "bane": ("B", (120, 60, 160)), "fire": ("F", (230, 100, 20)), "hex": ("H", (200, 40, 140)),
    "ice": ("I", (40, 170, 210)), "immobile": ("M", (120, 90, 50)), "knockdown": ("K", (90, 90, 90)),
    "poison": ("P", (40, 150, 60)), "slow": ("S", (40, 80, 200)),
}
FRAME = (214, 160, 40)
STRUCTURE_INK = (255, 236, 150)
LOOT = (240, 190, 30)
AURA_KEY = (214, 196, 230)
SCREEN = (60, 30, 70)  # an unopened spawn point's screen (the dark of a spawn point's square)
AURA_ALPHA = 34 / 255


def _aura_tint(c: tuple[int, int, int]) -> tuple[int, int, int]:
    return blend(c, AURA, AURA_ALPHA)


_UNDER_AURA = [FLOOR_ACTIVE, FLOOR_OTHER, GRID_LINE, WALL, STRUCTURE, CHASM, LAVA, BRAMBLE, DIFFICULT, FRAME,
               STRUCTURE_INK]
# Every colour the image uses, and the (text, background) pairs whose anti-aliased edges it needs:
# the image is drawn straight in this palette, so encoding has nothing left to quantise.
PALETTE = Palette(
    [PAPER, INK, MUTED, WHITE, *SEAT_COLORS, *_UNDER_AURA, AURA, AURA_KEY, WOUND, *RANK_FILL.values(),
     *(c for _, c in DEBUFF_STYLE.values()), LOOT, (120, 80, 0), (150, 95, 40), (110, 65, 20), (240, 200, 60),
     (130, 40, 170), (130, 125, 135), (60, 30, 70), (95, 92, 98), (240, 220, 255), (20, 10, 25), (170, 170, 170),
     (250, 200, 0), *(_aura_tint(c) for c in _UNDER_AURA), *RECAP_COLOURS, *recent.COLOURS],
    [(INK, PAPER), (MUTED, PAPER), (STRUCTURE_INK, STRUCTURE), (INK, LOOT), (WHITE, MUTED),
     *((WHITE, c) for c in RANK_FILL.values()),
     *((WHITE, c) for c in SEAT_COLORS), *((WHITE, c) for _, c in DEBUFF_STYLE.values()), *TEXT_PAIRS,
     *recent.TEXT_PAIRS],
)


class _Grid(NamedTuple):
    """The squares' size in one image and the size of the letters drawn in them."""

    cell: int
    text: int


@lru_cache(maxsize=32)
def _grid(columns: int) -> _Grid:
    cell = max(MIN_CELL, min(CELL, (MAX_W - 2 * LABELS) // max(1, columns)))
    return _Grid(cell, legible(2 * LABELS + FULL_COLUMNS * cell, 14))


def _grid_of(view: DungeonView) -> _Grid:
    x0, _, x1, _ = _shown(view)
    return _grid(x1 - x0 + 1)


def _xy(g: _Grid, x: int, y: int) -> tuple[int, int]:
    return MARGIN + x * g.cell, MARGIN + y * g.cell


@lru_cache(maxsize=16)
def _static_layer(g: _Grid, width: int, height: int, terrain: tuple[str, ...], vwalls: tuple, hwalls: tuple,
                  active_area: tuple[int, int, int, int]) -> Image.Image:
    c = g.cell
    W = MARGIN * 2 + width * c
    H = MARGIN * 2 + height * c
    img = PALETTE.new((W, H), PAPER)
    d = Pen(img, PALETTE)
    ax0, ay0, ax1, ay1 = active_area
    for y in range(height):
        for x in range(width):
            px, py = _xy(g, x, y)
            fill = FLOOR_ACTIVE if ax0 <= x <= ax1 and ay0 <= y <= ay1 else FLOOR_OTHER
            d.rectangle([px, py, px + c, py + c], fill=fill, outline=GRID_LINE)
            _terrain(d, g, terrain[y][x], px, py)
    # active level frame
    px0, py0 = _xy(g, ax0, ay0)
    px1, py1 = _xy(g, ax1 + 1, ay1 + 1)
    d.rectangle([px0 - 1, py0 - 1, px1 + 1, py1 + 1], outline=FRAME, width=3)
    for X, y in vwalls:
        px, py = _xy(g, X, y)
        d.line([px, py - 2, px, py + c + 2], fill=WALL, width=5)
    for x, Y in hwalls:
        px, py = _xy(g, x, Y)
        d.line([px - 2, py, px + c + 2, py], fill=WALL, width=5)
    bx1, by1 = _xy(g, width, height)
    d.rectangle([MARGIN - 2, MARGIN - 2, bx1 + 2, by1 + 2], outline=WALL, width=4)
    return img


@lru_cache(maxsize=8)
def _with_aura(g: _Grid, width: int, height: int, terrain: tuple[str, ...], vwalls: tuple, hwalls: tuple,
               active_area: tuple[int, int, int, int], aura: tuple) -> Image.Image:
    """The static layer with the support auras tinted in (they change only when spawn points do)."""
    img = _static_layer(g, width, height, terrain, vwalls, hwalls, active_area)
    if not aura:
        return img
    img = img.copy()
    for x, y in aura:  # a translucent tint: each cell's colours blended with the aura's
        px, py = _xy(g, x, y)
        box = (px + 1, py + 1, px + g.cell, py + g.cell)
        img.paste(PALETTE.remap(img.crop(box), _aura_tint), box[:2])
    return img


@lru_cache(maxsize=8)
def _with_screens(g: _Grid, width: int, height: int, terrain: tuple[str, ...], vwalls: tuple, hwalls: tuple,
                  active_area: tuple[int, int, int, int], aura: tuple, screens: tuple) -> Image.Image:
    """The static layer with the unopened spawn points' screens outlined too (they change only when a hero comes
    near one or it opens): ~0.3 ms of dashes a screen, drawn once rather than on every board."""
    img = _with_aura(g, width, height, terrain, vwalls, hwalls, active_area, aura)
    if not screens:
        return img
    img = img.copy()
    d = Pen(img, PALETTE)
    for x, y, squares in screens:
        _screen(d, g, x, y, squares)
    return img


def _terrain(d: Pen, g: _Grid, ch: str, px: int, py: int) -> None:
    c = g.cell
    if ch == "#":
        d.rectangle([px + 2, py + 2, px + c - 2, py + c - 2], fill=STRUCTURE)
    elif ch in "CSG":
        d.rectangle([px + 2, py + 2, px + c - 2, py + c - 2], fill=STRUCTURE)
        d.text((px + c / 2, py + c / 2), ch, size=g.text + 2, fill=STRUCTURE_INK, anchor="mm", bg=STRUCTURE)
    elif ch == "~":
        d.rectangle([px + 1, py + 1, px + c - 1, py + c - 1], fill=CHASM)
    elif ch == "^":
        d.rectangle([px + 3, py + 3, px + c - 3, py + c - 3], fill=LAVA)
    elif ch == ",":
        for i in range(3):
            d.rectangle([px + 6 + i * 9, py + c - 10, px + 9 + i * 9, py + c - 7], fill=DIFFICULT)
        _dotted(d, c, px, py, DIFFICULT)
    elif ch == "*":
        for ox, oy in ((9, 9), (c - 10, 12), (13, c - 9)):
            d.line([px + ox - 4, py + oy - 4, px + ox + 4, py + oy + 4], fill=BRAMBLE, width=2)
            d.line([px + ox - 4, py + oy + 4, px + ox + 4, py + oy - 4], fill=BRAMBLE, width=2)
        _dotted(d, c, px, py, BRAMBLE)


def _dotted(d: Pen, c: int, px: int, py: int, colour: tuple[int, int, int]) -> None:
    for t in range(3, c - 2, 6):
        for a, b in ((px + t, py + 2), (px + t, py + c - 3), (px + 2, py + t), (px + c - 3, py + t)):
            d.rectangle([a, b, a + 1, b + 1], fill=colour)


def _pips(d: Pen, x0: float, y: float, wounds: int, life: int, width: float) -> None:
    """Life pips: filled red for wounds, hollow for what is left."""
    n = max(life, 1)
    step = min(7, (width - 4) / n)
    start = x0 + (width - step * n) / 2
    for i in range(n):
        cx = start + i * step + step / 2
        r = max(2.0, step / 2 - 0.5)
        if i < wounds:
            d.ellipse([cx - r, y - r, cx + r, y + r], fill=WOUND)
        else:
            d.ellipse([cx - r, y - r, cx + r, y + r], fill=(255, 255, 255), outline=WOUND)


def _badges(d: Pen, g: _Grid, px: float, py: float, debuffs: list[str]) -> None:
    s = g.text
    for i, name in enumerate(debuffs[:3]):
        letter, colour = DEBUFF_STYLE.get(name, ("?", MUTED))
        bx = px + i * (s - 2)
        d.rectangle([bx, py - 4, bx + s - 3, py + s - 4], fill=colour)
        d.text((bx + (s - 3) / 2, py + s / 2 - 4), letter, size=s - 2, fill=WHITE, anchor="mm", bg=colour)


def render(view: DungeonView, **options: Any) -> bytes:
    """PNG of the public view."""
    return encode_png(draw(view))


def draw(view: DungeonView) -> Image.Image:
    area = tuple(view.areas[view.level])
    g = _grid_of(view)
    c = g.cell
    screens = tuple((sp.x, sp.y, tuple(map(tuple, sp.screen))) for sp in view.spawns
                    if sp.screen and sp.state == "inactive")
    full = _with_screens(g, view.width, view.height, tuple(view.terrain), tuple(map(tuple, view.vwalls)),
                         tuple(map(tuple, view.hwalls)), area, tuple(map(tuple, view.aura)), screens)
    # drawn on a copy of the whole map, then its shown part cut out (drawing straight on the shown part clips
    # the shapes that cross its edge a pixel differently)
    img = full.copy()
    d = Pen(img, PALETTE)
    for sp in view.spawns:
        _spawn(d, g, sp)
    for ch in view.chests:
        if ch.state in ("closed", "open"):
            px, py = _xy(g, ch.x, ch.y)
            fill = (150, 95, 40) if ch.state == "closed" else None
            d.rectangle([px + 5, py + 9, px + c - 5, py + c - 7], fill=fill, outline=(110, 65, 20), width=2)
            if ch.state == "closed":
                d.rectangle([px + c / 2 - 2, py + 14, px + c / 2 + 2, py + 19], fill=(240, 200, 60))
    for m in view.monsters:
        _monster(d, g, m)
    for h in view.heroes:
        _hero(d, g, h)
    # loot last, in the top-right corner, so that a model standing on it does not hide it
    loot_count: dict[tuple[int, int], int] = {}
    for item in view.floor:
        loot_count[(item.x, item.y)] = loot_count.get((item.x, item.y), 0) + 1
    for (x, y), n in sorted(loot_count.items()):
        px, py = _xy(g, x, y)
        cx, cy = px + c - 7, py + 7
        d.polygon([(cx, cy - 6), (cx + 6, cy), (cx, cy + 6), (cx - 6, cy)], fill=LOOT, outline=(120, 80, 0))
        if n > 1:
            d.text((cx + 2, cy + 2), str(n), size=g.text, fill=INK, anchor="mm", bg=LOOT)
    large = {col_letters(m.x) + str(m.y + 1) for m in view.monsters if m.large}

    def where(lab: str) -> tuple[float, float] | None:  # a large model's marks point at its middle
        xy = _mark_xy(g, lab)
        return None if xy is None else (xy[0] + c / 2, xy[1] + c / 2) if lab in large else xy

    x0, y0, x1, y1 = _shown(view)
    (ax, ay), (bx, by) = _xy(g, x0, y0), _xy(g, x1 + 1, y1 + 1)
    discs = recent.draw_recent(d, view.recent, view.pending, where, c, lambda lab: c if lab in large else c / 2,
                               number_size=g.text, bounds=(ax, ay, bx, by))
    for m in view.monsters:  # the names above every mark, then the marks' numbers (on corners) above all
        _monster_name(d, g, m)
    for h in view.heroes:
        _hero_name(d, g, h)
    recent.draw_discs(d, discs, g.text)
    return _frame(view, g, img.crop((ax - 3, ay - 3, bx + 4, by + 4)))


@lru_cache(maxsize=4096)
def _mark_xy(g: _Grid, lab: str) -> tuple[float, float] | None:
    xy = parse_label(lab)
    if xy is None:
        return None
    px, py = _xy(g, *xy)
    return px + g.cell / 2, py + g.cell / 2


def _shown(view: DungeonView) -> tuple[int, int, int, int]:
    return view.explored if view.explored != (0, 0, 0, 0) else (0, 0, view.width - 1, view.height - 1)


def square_at(view: DungeonView, x: int, y: int) -> tuple[int, int]:
    """The top-left pixel of square (x, y) in the image of `view` (which shows only the explored part)."""
    x0, y0, _, _ = _shown(view)
    c = _grid_of(view).cell
    return LABELS + (x - x0) * c, LABELS + (y - y0) * c


def square_size(view: DungeonView) -> int:
    """A square's side in px in the image of `view` (smaller when many columns are shown: at most MAX_W wide)."""
    return _grid_of(view).cell


def _frame(view: DungeonView, g: _Grid, shown: Image.Image) -> Image.Image:
    """The explored part of the map (drawn), labelled on every side, and the panel below it."""
    x0, y0, x1, y1 = _shown(view)
    m = LABELS
    width = max(m * 2 + (x1 - x0 + 1) * g.cell, MIN_W)
    labels = _labels(g, (x0, y0, x1, y1))
    panel = Recorder(PALETTE)  # its height sets the image's
    end = _panel(panel, view, labels.height + 4, width)
    img = grown(labels, (width, end + 10))
    img.paste(shown, (m - 3, m - 3))
    panel.replay(img, drawn=(0, 0, *labels.size))  # the labels' frame and the map in it
    return img


@lru_cache(maxsize=16)
def _labels(g: _Grid, shown: tuple[int, int, int, int]) -> Image.Image:
    """The frame around the map: every shown column's letter and row's number on each side (the same for every
    board of a level, so drawn once; the map pasted into it does not reach the labels)."""
    x0, y0, x1, y1 = shown
    m, c = LABELS, g.cell
    map_w = m * 2 + (x1 - x0 + 1) * c
    width = max(map_w, MIN_W)
    size = legible(width, 13)
    bottom_of_map = m * 2 + (y1 - y0 + 1) * c
    img = PALETTE.new((width, bottom_of_map), PAPER)
    d = Pen(img, PALETTE)
    near, far = (m - 3) // 2, (m - 4) // 2  # the middle of the room between the image's edge and the map's border
    for x in range(x0, x1 + 1):
        cx = m + (x - x0) * c + c // 2
        d.text((cx, near), col_letters(x), size=size, fill=INK, anchor="mm")
        d.text((cx, bottom_of_map - far), col_letters(x), size=size, fill=INK, anchor="mm")
    for y in range(y0, y1 + 1):
        cy = m + (y - y0) * c + c // 2
        d.text((near, cy), str(y + 1), size=size, fill=INK, anchor="mm")
        d.text((map_w - far, cy), str(y + 1), size=size, fill=INK, anchor="mm")
    return img


def _spawn(d: Pen, g: _Grid, sp: SpawnView) -> None:
    px, py = _xy(g, sp.x, sp.y)
    c = g.cell
    if sp.state == "destroyed":
        d.line([px + 8, py + 8, px + c - 8, py + c - 8], fill=MUTED, width=2)
        d.line([px + 8, py + c - 8, px + c - 8, py + 8], fill=MUTED, width=2)
        return
    colour = (130, 40, 170) if sp.state == "active" else (130, 125, 135)
    d.rectangle([px + 1, py + 1, px + c - 1, py + c - 1], fill=(60, 30, 70) if sp.state == "active" else (95, 92, 98))
    d.ellipse([px + 5, py + 4, px + c - 5, py + c - 8], fill=colour, outline=(240, 220, 255), width=2)
    d.ellipse([px + 12, py + 11, px + c - 12, py + c - 15], fill=(20, 10, 25))
    if sp.state == "active":
        _pips(d, px, py + c - 4, sp.wounds, sp.life, c)


def _screen(d: Pen, g: _Grid, sx: int, sy: int, screen: tuple[tuple[int, int], ...]) -> None:
    """An unopened spawn point's screen, the squares no hero may enter: outlined in dashes of its grey."""
    inside = {(x, y) for x, y in screen} | {(sx, sy)}
    c = g.cell
    for x, y in sorted(inside):
        px, py = _xy(g, x, y)
        for (dx, dy), (ax, ay, bx, by) in (((0, -1), (0, 0, c, 0)), ((0, 1), (0, c, c, c)),
                                            ((-1, 0), (0, 0, 0, c)), ((1, 0), (c, 0, c, c))):
            if (x + dx, y + dy) in inside:
                continue
            for t in range(0, c, 8):  # dashes of 5 px, every 8
                e = min(c, t + 5)
                d.line([px + ax + (bx - ax) * t / c, py + ay + (by - ay) * t / c,
                        px + ax + (bx - ax) * e / c, py + ay + (by - ay) * e / c], fill=SCREEN, width=3)


def _monster(d: Pen, g: _Grid, m: MonsterView) -> None:
    px, py = _xy(g, m.x, m.y)
    size = g.cell * (2 if m.large else 1)
    fill = RANK_FILL.get(m.rank, (150, 40, 40))
    d.rounded_rectangle([px + 3, py + 3, px + size - 3, py + size - 3], radius=5, fill=fill, outline=(255, 255, 255),
                        width=1)
    _pips(d, px + 3, py + size - 7, m.wounds, m.life, size - 6)  # (its name comes above the marks: `draw`)
    if m.debuffs:
        _badges(d, g, px + 1, py - 1, m.debuffs)


def _name_plate(d: Pen, x: float, y: float, text: str, size: int, fill: tuple[int, int, int]) -> None:
    """A token's name on a plate of the token's own colour: drawn again above the marks, a line crossing the token
    stops at the plate and the name stays readable (on a token no mark crosses, the plate is the token itself)."""
    w = text_width(text, size)
    h = cap_height(size)
    d.rounded_rectangle([round(x - w / 2 - 2), round(y - h / 2 - 3), round(x + w / 2 + 2), round(y + h / 2 + 3)],
                        radius=3, fill=fill)
    d.text((x, y), text, size=size, fill=WHITE, anchor="mm", bg=fill)


def _monster_name(d: Pen, g: _Grid, m: MonsterView) -> None:
    px, py = _xy(g, m.x, m.y)
    size = g.cell * (2 if m.large else 1)
    fill = RANK_FILL.get(m.rank, (150, 40, 40))
    _name_plate(d, px + size / 2, py + size / 2 - 3, m.code, g.text if not m.large else 26, fill)


def _hero_name(d: Pen, g: _Grid, h: HeroView) -> None:
    if h.incapacitated:
        return
    px, py = _xy(g, h.x, h.y)
    colour = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
    _name_plate(d, px + g.cell / 2, py + g.cell / 2 - 2, h.hero[:2], g.text, colour)


def _hero(d: Pen, g: _Grid, h: HeroView) -> None:
    px, py = _xy(g, h.x, h.y)
    c = g.cell
    colour = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
    if h.incapacitated:
        d.ellipse([px + 4, py + 4, px + c - 4, py + c - 4], fill=(170, 170, 170), outline=colour, width=3)
        d.line([px + 9, py + 9, px + c - 9, py + c - 9], fill=INK, width=2)
        d.line([px + 9, py + c - 9, px + c - 9, py + 9], fill=INK, width=2)
        return
    if h.active:
        d.ellipse([px, py, px + c, py + c], outline=(250, 200, 0), width=3)
    d.ellipse([px + 3, py + 3, px + c - 3, py + c - 3], fill=colour, outline=(255, 255, 255), width=2)
    _pips(d, px + 3, py + c - 6, h.wounds, h.life, c - 6)  # (its name comes above the marks: `draw`)
    if h.debuffs:
        _badges(d, g, px + 1, py - 1, h.debuffs)


_STAT_OF = {"melee": "STR", "ranged": "DEX", "magic": "WILL"}  # the offence dice of each attack style
_COST_NAMES = (("move", "move action"), ("attack", "attack"), ("potion", "potion"), ("heal", "heal"),
               ("brew", "brew"), ("picklock", "pick a lock"), ("smash", "smash"), ("equip", "equip"),
               ("drop", "drop"), ("switch", "switch profile"), ("stand", "stand up"))


def _acting_lines(h: HeroView) -> list[str]:
    """The acting hero's move, offence dice with each attack's range, and defence dice (as the game names them)."""
    left = f" ({h.move_left} left of this one)" if h.move_left else ""
    attacks = ", ".join(f"{style} {_STAT_OF.get(style, '?')} {h.dice.get(_STAT_OF.get(style, ''), '0')} "
                        f"range {rng}" for style, rng in h.attacks.items())
    magic = f", WILL {h.dice.get('WILL', '0')} against magic" if h.dice else ""
    return [f"Move {h.move} squares per move action{left}",
            f"Attack: {attacks}" if attacks else "Attack: none",
            f"Defence: ARM {h.dice.get('ARM', '0')}{magic}"] + (
            ["Own actions: " + ", ".join(f"{name} {ap} AP range {rng}" for name, (ap, rng) in h.unique.items())]
            if h.unique else [])


def _costs_line(costs: dict[str, int]) -> str:
    """'AP costs: move action 1, attack 1, ...' (attack styles share one entry when they cost the same)."""
    styles = {costs[k] for k in ("melee", "ranged", "magic") if k in costs}
    parts = []
    for key, name in _COST_NAMES:
        if key == "attack":
            if len(styles) == 1:
                parts.append(f"attack {styles.pop()}")
            else:
                parts += [f"{k} attack {costs[k]}" for k in ("melee", "ranged", "magic") if k in costs]
        elif key in costs:
            parts.append(f"{name} {costs[key]}")
    return "AP costs: " + ", ".join(parts)


def _panel(d: Pen, v: DungeonView, top: int, width: int) -> int:
    """Below the map: level, turn, whose move (or the result banner), each hero, the spawn point, the monsters,
    the recap legend and the key. Returns the y below it."""
    x0, y = 10, top
    big, mid, small = legible(width, 19), legible(width, 15), legible(width, 13)
    cols = int((width - 20) / (mid * 0.52))
    if v.result:
        y = banner(d, width, y, v.result, size=big) + 8
    d.text((x0, y), f"Level {v.level + 1}: {v.level_name}", size=big, fill=INK)
    y += big + 6
    turn = f"Turn {v.turn} of {v.turn_limit} (limit)" if v.turn_limit else f"Turn {v.turn}"
    for line in wrap(turn if v.result else f"{turn} · {v.waiting_for}", cols)[:3]:
        d.text((x0, y), line, size=mid, fill=MUTED)
        y += mid + 4
    y += 6
    def name_of(h: HeroView) -> str:
        state = " (down)" if h.incapacitated else (" - acting" if h.active else (" - done" if h.activated else ""))
        return f"{h.hero} ({h.player}) {h.square}{state}"

    # each hero's stats in one column beside the names when the width takes them (a phone screen is short)
    beside = x0 + mid + 6 + max((text_width(name_of(h), mid) for h in v.heroes), default=0) + 16
    for h in v.heroes:
        colour = SEAT_COLORS[h.seat % len(SEAT_COLORS)]
        d.ellipse([x0, y + 2, x0 + mid, y + mid + 2], fill=colour)
        d.text((x0 + mid + 6, y), name_of(h), size=mid, fill=INK)
        stats = (f"AP {h.ap_left}  wounds {h.wounds}/{h.life}  potions {h.potions}/{h.max_potions}  "
                 f"cards {len(h.equipment)}" + (f"  {', '.join(h.debuffs)}" if h.debuffs else ""))
        cols_in = int((width - 40) / (small * 0.52))
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if beside + text_width(stats, small) <= width - 10:
            d.text((beside, y + mid - small), stats, size=small, fill=MUTED)
        else:
            lines = [(line, MUTED) for line in wrap(stats, cols_in)]
        y += mid + 5
        if h.active and not v.result:  # the acting hero's dice, ranges and move, in ink
            lines += [(x, INK) for line in _acting_lines(h) for x in wrap(line, cols_in)]
        for line, ink in lines:
            d.text((x0 + mid + 6, y), line, size=small, fill=ink)
            y += small + 4
        y += 4
    if v.ap_costs and not v.result:
        for line in wrap(_costs_line(v.ap_costs), int((width - 20) / (small * 0.52))):
            d.text((x0, y), line, size=small, fill=INK)
            y += small + 4
        y += 4
    for sp in v.spawns:
        if sp.level == v.level:
            state = "destroyed" if sp.state == "destroyed" else f"{sp.wounds}/{sp.life} wounds"
            d.text((x0, y), f"Spawn point {col_letters(sp.x)}{sp.y + 1}: {state}", size=mid, fill=INK)
            y += mid + 5
    for sp in v.spawns:
        if sp.screen and sp.state == "inactive":  # one a hero's move could run into
            for line in wrap(f"Spawn point {col_letters(sp.x)}{sp.y + 1} (level {sp.level + 1}) not open yet: "
                             "heroes may not enter its screen (dashed)", cols):
                d.text((x0, y), line, size=mid, fill=INK)
                y += mid + 5
    nxt = f"Next spawn: {v.next_spawn} ({v.pool_left} in pool)" if v.next_spawn else "No more spawns this level"
    d.text((x0, y), nxt, size=mid, fill=INK)
    y += mid + 5
    d.text((x0, y), f"Monsters on the board: {len(v.monsters)}", size=mid, fill=INK)
    y += mid + 5
    entries = [f"{m.code} {m.name} {col_letters(m.x)}{m.y + 1}  {m.wounds}/{m.life}"
               + (f"  {', '.join(m.debuffs)}" if m.debuffs else "") for m in v.monsters[:12]]
    if len(v.monsters) > 12:
        entries.append(f"... and {len(v.monsters) - 12} more")
    if entries:  # in columns, down then across, as many as the width takes (a phone screen is short)
        col_w = int((max(len(e) for e in entries) + 3) * small * 0.55)
        ncols = max(1, min(3, (width - 20 - 8) // max(1, col_w)))
        rows = -(-len(entries) // ncols)
        for i, entry in enumerate(entries):
            d.text((x0 + 8 + (i // rows) * col_w, y + (i % rows) * (small + 4)), entry, size=small, fill=MUTED)
        y += rows * (small + 4)
    if v.floor:
        d.text((x0, y), f"Loot on the floor: {len(v.floor)}", size=mid, fill=INK)
        y += mid + 5
    y = recent.draw_legend(d, x0, y + 6, width - 20, v.recent, v.earlier, v.pending, size=small,
                           title="Since the last turn (numbered in order)") + 8
    key, key_h = _key_band(width)
    d.band(key, y, fresh=True)  # the panel's foot: nothing is drawn there yet
    return y + key_h


@lru_cache(maxsize=32)
def _key_band(width: int) -> tuple[tuple[Any, Any], int]:
    """The key at the panel's foot, the same on every board this wide: drawn once (at whole pixels, so it can be
    pasted at any height), with its height."""
    size = Recorder(PALETTE)
    end = _key(size, 0, width)
    return band(PALETTE, width, 0, end, lambda d: _key(d, 0, width)), end


def _key(d: Pen, y: int, width: int) -> int:
    """What the models' fills and the marks mean; returns the y below it."""
    x0, small = 10, legible(width, 13)
    lx = x0
    for name, colour in (("minion", RANK_FILL["minion"]), ("elite", RANK_FILL["elite"]), ("boss", RANK_FILL["boss"]),
                         ("lava", LAVA), ("chasm", CHASM), ("structure", STRUCTURE), ("aura", AURA_KEY)):
        w = small + 8 + int(len(name) * small * 0.55) + 14
        if lx + w > width - 10:
            lx, y = x0, y + small + 8
        d.rectangle([lx, y, lx + small, y + small], fill=colour)
        d.text((lx + small + 5, y), name, size=small, fill=INK)
        lx += w
    y += small + 10
    for line in wrap("C champion, S sentinel, G goddess; green x: brambles; dots: difficult; diamond: loot; "
                     "ring: spawn point (grey: not open yet; dark dashes: its screen, closed to heroes); box: chest. "
                     "Marks: blue = heroes, red = monsters; arrows: paths; X = hit, dashed O = no effect; "
                     "green +: a heal; square: spawn (purple) or loot drop (teal); orange outline: the area of a "
                     "blast; numbers in order on square corners, older ones faded; '!' = an attack waiting for "
                     "its dice",
                     int((width - 20) / (small * 0.52))):
        d.text((x0, y), line, size=small, fill=INK)
        y += small + 4
    return y
