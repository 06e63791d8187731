"""Quodd Heroes board image: the map with every feature and token, heroes, last path, legend, side panel."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from games.core.grid import DIRS8, col_letters
from games.quodd.view import HeroView, QView
from render.common import (
    GRID,
    INK,
    MUTED,
    PAPER,
    RGB,
    SEAT_COLORS,
    WHITE,
    Pen,
    Recorder,
    band,
    encode_png,
    font,
    grown,
    sheet,
    text_center,
    wrap,
)
from render.recap import banner

from . import gadgets, living, modes, recap
from .style import (  # noqa: F401 - the board's measures and tables, read by the tests and gadgets too
    ARROWS,
    CARD_W,
    CELL,
    CELL_TEXT,
    CRYSTAL,
    FACE_ORDER,
    FEATURE_FILL,
    FEATURE_NAMES,
    GROUND,
    HEADER_H,
    LEGEND_ROW,
    LEGEND_W,
    MARGIN,
    PALETTE,
    PANEL,
    PHONE_W,
    RECAP_SIZE,
    SKILL_NAMES,
    SKILL_SHORT,
    TOKEN_NAMES,
    TOKEN_STYLE,
    UNKNOWN_TOKEN,
    Box,
    S,
    _arrow,
    _box_of,
    _cell_box,
    _xy,
    ts,
    u,
)


@lru_cache(maxsize=16)
def _base(rows: tuple[str, ...], links: tuple[tuple[str, str], ...]) -> Image.Image:
    """The printed map with labels: drawn once per map layout."""
    h, w = len(rows), len(rows[0])
    img = PALETTE.new((MARGIN * 2 + w * CELL, MARGIN * 2 + h * CELL), PAPER)
    d = Pen(img, PALETTE)
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
                for r in (u(4), u(8), u(12)):
                    d.arc((cx - r, cy - r, cx + r, cy + r), 22 * r, 22 * r + 270, fill=(230, 240, 255), width=u(2))
            elif ch == "O":
                d.ellipse((box[0] + u(5), box[1] + u(5), box[2] - u(5), box[3] - u(5)), fill=(15, 10, 12))
            elif ch == "R":
                d.ellipse((box[0] + u(6), box[1] + u(6), box[2] - u(6), box[3] - u(6)), outline=(40, 130, 50),
                          width=u(3))
                text_center(d, (cx, cy), "R", ts(12), (40, 130, 50), bg=FEATURE_FILL["R"])
            elif ch == "s":  # the pale yellow says it (the legend names it): no word fits a phone-sized square
                pass
            elif ch == "D":
                d.rectangle((box[0] + u(4), box[1] + u(4), box[2] - u(4), box[3] - u(4)), outline=(170, 80, 10),
                            width=u(2))
                text_center(d, (cx, cy), "DZ", ts(11), (140, 60, 0), bg=FEATURE_FILL["D"])
            elif ch == "w":
                d.ellipse((box[0] + u(5), box[1] + u(5), box[2] - u(5), box[3] - u(5)), outline=(255, 255, 255),
                          width=u(2))
                text_center(d, (cx, cy), link_of.get(f"{col_letters(x)}{y + 1}", "?"), ts(15), WHITE,
                            bg=FEATURE_FILL["w"])
    for x in range(w):
        cx = MARGIN + x * CELL + CELL / 2
        text_center(d, (cx, MARGIN / 2), col_letters(x), 16, INK)
        text_center(d, (cx, MARGIN * 1.5 + h * CELL), col_letters(x), 16, INK)
    for y in range(h):
        cy = MARGIN + y * CELL + CELL / 2
        text_center(d, (MARGIN / 2, cy), str(y + 1), 16, INK)
        text_center(d, (MARGIN * 1.5 + w * CELL, cy), str(y + 1), 16, INK)
    return img


def _rally(d: Pen, box: Box, text: str, size: int) -> None:
    """A rally marker as a gold swallow-tailed flag on a pole, its number on the cloth: nothing like the red
    numbered discs of the recent moves drawn over the board."""
    fill, ink, _ = TOKEN_STYLE["rally"]
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pole = x0 + w * 0.18
    top, bottom = y0 + h * 0.12, y0 + h * 0.72
    d.line([(pole, y0 + h * 0.08), (pole, y1 - h * 0.08)], fill=ink, width=max(2, int(w / 14)))
    d.polygon([(pole, top), (x1 - w * 0.08, top), (x1 - w * 0.26, (top + bottom) / 2), (x1 - w * 0.08, bottom),
               (pole, bottom)], fill=fill, outline=ink)
    text_center(d, (pole + (x1 - w * 0.26 - pole) / 2 + w * 0.02, (top + bottom) / 2), text, size, ink, bg=fill)


def _token(d: Pen, box: Box, kind: str, number: int, group: str, way: str = "") -> None:
    fill, ink, glyph = TOKEN_STYLE.get(kind, ((128, 128, 128), (255, 255, 255), kind[:2]))
    x0, y0, x1, y1 = box
    if kind == "cannon":
        gadgets.cannon(d, box, way)
        return
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == "wall":
        d.rectangle((x0 + u(2), y0 + u(2), x1 - u(2), y1 - u(2)), fill=fill, outline=(70, 45, 30), width=u(2))
        for yy in (y0 + u(12), y0 + u(22)):
            d.line([(x0 + u(3), yy), (x1 - u(3), yy)], fill=(80, 55, 40), width=1)
        return
    if kind == "rally":
        _rally(d, box, str(number), ts(14))
        return
    if kind in ("impassable_up", "trap_door_open", "pit"):
        d.rectangle((x0 + u(3), y0 + u(3), x1 - u(3), y1 - u(3)), fill=fill, outline=ink, width=u(2))
    else:
        d.rounded_rectangle((x0 + u(4), y0 + u(4), x1 - u(4), y1 - u(4)), radius=u(6), fill=fill, outline=(40, 40, 40))
    text_center(d, (cx, cy - (u(7) if group else 0)), glyph, ts(12), ink, bg=fill)
    if group:
        text_center(d, (cx, cy + u(8)), group[:2], ts(8), ink, bg=fill)


def _crystals(d: Pen, box: Box, items: list[str], alone: bool) -> None:
    """Crystals lying on a square: big in the middle, or small in a corner when a token is there too."""
    x0, y0, x1, y1 = box
    for i, item in enumerate(items[:3]):
        colour = CRYSTAL.get(item.split("-")[0], (180, 180, 200))
        if alone:
            cx, cy, r = (x0 + x1) / 2 + (i - (len(items[:3]) - 1) / 2) * u(10), (y0 + y1) / 2, u(10)
        else:
            cx, cy, r = x1 - u(7) - i * u(9), y1 - u(8), u(6)
        d.polygon([(cx, cy - r), (cx + r * 0.65, cy), (cx, cy + r), (cx - r * 0.65, cy)], fill=colour,
                  outline=(20, 20, 20))


def _hero(d: Pen, box: Box, colour: RGB, icon: str, face: str, carrying: int) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = CELL * 0.36
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(255, 255, 255), width=u(2))
    text_center(d, (cx, cy), icon, ts(13) if len(icon) > 1 else ts(16), WHITE, bg=colour)
    if face in DIRS8:
        dx, dy = DIRS8[face]
        tx, ty = cx + dx * (r + u(4)), cy + dy * (r + u(4))
        px, py = -dy, dx
        d.polygon([(tx, ty), (cx + dx * (r - 2) + px * u(5), cy + dy * (r - 2) + py * u(5)),
                   (cx + dx * (r - 2) - px * u(5), cy + dy * (r - 2) - py * u(5))], fill=(20, 20, 20))
    else:  # the front faces up or down: a ring marks it
        d.ellipse((cx - u(4), cy - r - 1, cx + u(4), cy - r + u(7)),
                  fill=(20, 20, 20) if face == "up" else (255, 255, 255), outline=(20, 20, 20))
    if carrying:
        d.ellipse((x1 - CELL_TEXT - 2, y0 - 3, x1 + 2, y0 + CELL_TEXT + 1), fill=(255, 255, 255), outline=(20, 20, 20))
        text_center(d, (x1 - CELL_TEXT / 2, y0 + CELL_TEXT / 2 - 1), str(carrying), CELL_TEXT, INK, bg=WHITE)


def render(view: QView, **options: Any) -> bytes:
    rows = tuple(view.rows)
    links = tuple(sorted(view.links.items()))
    base = _base(rows, links)
    heroes = list(view.heroes)
    present_f = sorted({ch if ch not in ARROWS else "^" for r in rows for ch in r if ch != "#"},
                       key=list(FEATURE_NAMES).index)
    tokens = view.tokens
    present_t = sorted({t.kind for t in tokens.values()}, key=list(TOKEN_STYLE).index)
    legend_items = [("f", ch) for ch in present_f] + [("t", k) for k in present_t]
    if view.ground:
        legend_items.append(("c", "crystal"))
    legend_items.append(("h", "hero"))
    if any(hv.facing in ("up", "down") and hv.pos for hv in heroes):
        legend_items.append(("v", "updown"))
    if any(hv.carrying for hv in heroes):
        legend_items.append(("b", "carried"))
    if any(hv.pos in tokens for hv in heroes if hv.pos):
        legend_items.append(("u", "under"))
    if view.recent:
        legend_items.append(("l", "path"))
    if view.choice_squares:
        legend_items.append(("p", "choice"))
    if view.asked_about:
        legend_items.append(("p", "about"))
    legend_items += gadgets.legend_items(view) + living.legend_items(view)
    per_row = max(1, (max(base.width, PHONE_W) - 10) // LEGEND_W)
    legend_h = 14 + LEGEND_ROW * ((len(legend_items) + per_row - 1) // per_row + 1)  # + the skill icon key
    below = base.width + PANEL > PHONE_W  # players under the map, so phones show the map larger
    if below:
        width = max(base.width, PHONE_W)
        cols = max(1, (width - 16) // CARD_W)
        panel_top = base.height + legend_h
        height = panel_top + _header_h(view, cols) + _card_h(view) * ((len(heroes) + cols - 1) // cols) + 6
    else:
        cols, panel_top = 1, 0
        width = base.width + PANEL
        height = max(base.height + legend_h, _header_h(view, cols) + 10 + _card_h(view) * len(heroes))
    recap_h = recap.legend_height(view, width, RECAP_SIZE) + 8
    if view.result_text:  # the game-over banner above the recap: at most three lines
        recap_h += 3 * (RECAP_SIZE + 10) + 22
    height += recap_h
    d = Recorder(PALETTE)  # drawn once the recap legend's end sets the height
    mover = next((hv for hv in heroes if hv.player == view.last_mover), None)
    mover_colour = SEAT_COLORS[mover.seat % len(SEAT_COLORS)] if mover is not None else SEAT_COLORS[0]
    # the key first, where nothing is drawn yet: pasted whole
    d.band(_legend_band(tuple(legend_items), base.height + 4, per_row, mover_colour, width), base.height + 4,
           fresh=True)
    living.platforms(d, view, _box_of)
    linked = gadgets.link_colours(view)
    for lab, t in tokens.items():
        x, y = _xy(lab)
        _token(d, _cell_box(x, y), t.kind, t.number, t.hero[:2] if t.kind == "character" else t.group, t.dir)
        if t.group in linked and t.kind in gadgets.LINKED:
            gadgets.ring(d, _cell_box(x, y), linked[t.group])
    for lab, items in view.ground.items():
        x, y = _xy(lab)
        _crystals(d, _cell_box(x, y), list(items), lab not in tokens)
    living.beams(d, view, _box_of)
    gadgets.bombs(d, view, _box_of)
    living.sheep(d, view, _box_of)
    for hv in heroes:
        pos = hv.pos
        if not pos:
            continue
        x, y = _xy(pos)
        colour = SEAT_COLORS[hv.seat % len(SEAT_COLORS)]
        box = _cell_box(x, y)
        if rows[y][x] == "s":  # the word "start" would peek out under the hero
            d.rectangle(box, fill=FEATURE_FILL["s"], outline=GRID)
        _hero(d, box, colour, hv.icon, hv.facing, len(hv.carrying))
        modes.mark(d, box, hv, CELL, CELL_TEXT)
        under = tokens.get(pos)
        if under is not None:  # what the hero stands on stays readable in a corner badge
            kind = under.kind
            fill, ink, glyph = TOKEN_STYLE.get(kind, ((128, 128, 128), (255, 255, 255), "?"))
            text = str(under.number) if kind == "rally" else (glyph or "W")
            d.rectangle((box[0] - 2, box[1] - 2, box[0] + CELL_TEXT + 6, box[1] + CELL_TEXT + 1), fill=fill,
                        outline=(20, 20, 20))
            text_center(d, (box[0] + CELL_TEXT / 2 + 2, box[1] + CELL_TEXT / 2), text[:2], CELL_TEXT, ink, bg=fill)
    living.sheep_under(d, view, _box_of)
    gadgets.turned(d, view, _box_of, CELL_TEXT)
    # where a pending decision may send something, or the piece it asks about
    for lab in view.choice_squares + ([view.asked_about] if view.asked_about else []):
        x0, y0, x1, y1 = _cell_box(*_xy(lab))
        d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=(255, 0, 150), width=u(3))
    recap.overlay(d, view, MARGIN, CELL, RECAP_SIZE)  # what happened since the last turn, numbered
    if below:
        d.line([(8, panel_top - 4), (width - 8, panel_top - 4)], fill=GRID, width=1)
        _panel(d, view, heroes, 10, panel_top, cols, width)
    else:
        _panel(d, view, heroes, base.width + 8, 0, 1, width)
    top = height - recap_h
    if view.result_text:
        top = banner(d, width, top, view.result_text, size=RECAP_SIZE + 4) + 8
    end = recap.legend(d, view, top, width, RECAP_SIZE)
    img = grown(base, (width, max(height - recap_h, end + 8)))
    d.replay(img)
    return encode_png(img)


@lru_cache(maxsize=64)
def _legend_band(items: tuple[tuple[str, str], ...], top: int, per_row: int, colour: RGB,
                 width: int) -> tuple[Any, Any]:
    """The map's key, the same on every board of a game until a new kind of thing appears: drawn once."""
    rows = (len(items) + per_row - 1) // per_row
    return band(PALETTE, width, top, (rows + 2) * LEGEND_ROW, lambda d: _legend(d, items, top, per_row, colour))


def legend_size(name: str, room: float) -> int:
    """The text size a key's words fit their column in (14 where they fit): never into the next column's key."""
    size = 14
    while size > 10 and font(size).getlength(name) > room:
        size -= 1
    return size


def _legend(d: Pen, items: Sequence[tuple[str, str]], top: int, per_row: int, colour: RGB = SEAT_COLORS[0]) -> None:
    sq = CELL_TEXT + 4
    for i, (what, key) in enumerate(items):
        x = 10 + (i % per_row) * LEGEND_W
        y = top + (i // per_row) * LEGEND_ROW
        box = (x, y, x + sq, y + sq)
        mid = (x + sq / 2, y + sq / 2)
        if what == "f":
            d.rectangle(box, fill=FEATURE_FILL[key], outline=GRID)
            if key == "^":
                _arrow(d, mid[0], mid[1], "E", sq * 0.35, (20, 80, 160))
            elif key in ("w", "R", "D"):
                text_center(d, mid, {"w": "A", "R": "R", "D": "DZ"}[key], CELL_TEXT, WHITE if key == "w" else INK,
                            bg=FEATURE_FILL[key])
            name = FEATURE_NAMES[key]
        elif what == "t":
            fill, ink, glyph = TOKEN_STYLE[key]
            if key == "rally":
                _rally(d, box, "1", CELL_TEXT - 2)
            else:
                d.rectangle(box, fill=fill, outline=(40, 40, 40))
                text_center(d, mid, glyph[:2], CELL_TEXT, ink, bg=fill)
            name = TOKEN_NAMES[key]
        elif what == "p":
            d.rectangle(box, outline=(255, 0, 150), width=3)
            name = "you may choose this square" if key == "choice" else "the question is about this square"
        elif what == "c":
            d.polygon([(mid[0], y + 1), (x + sq - 3, mid[1]), (mid[0], y + sq - 1), (x + 3, mid[1])],
                      fill=CRYSTAL["red"])
            name = "crystal (on the ground)"
        elif what == "b":
            d.ellipse(box, fill=(255, 255, 255), outline=(20, 20, 20))
            text_center(d, mid, "2", CELL_TEXT, INK, bg=WHITE)
            name = "collectibles a hero carries"
        elif what == "u":
            d.rectangle(box, fill=(90, 170, 90), outline=(20, 20, 20))
            text_center(d, mid, "Sp", CELL_TEXT, WHITE, bg=(90, 170, 90))
            name = "token under a hero (corner)"
        elif what in ("bomb", "cannon", "turned", "link"):
            name = gadgets.legend(d, what, key, box)
        elif what in ("sheep", "platform", "beam"):
            name = living.legend(d, what, key, box)
        elif what == "v":
            d.ellipse((x, y + 4, x + sq - 4, y + sq), fill=colour)
            d.ellipse((x + sq / 2 - 6, y, x + sq / 2, y + 6), fill=(20, 20, 20))
            name = "top dot: front faces up/down"
        elif what == "l":
            d.line([(x, mid[1]), (x + sq, mid[1])], fill=colour, width=u(4))
            d.ellipse((x - 3, mid[1] - 3, x + 3, mid[1] + 3), fill=colour)
            name = "numbered: moves since the last turn"
        else:
            d.ellipse(box, fill=colour)
            d.polygon([(x + sq + 4, mid[1]), (x + sq - 1, mid[1] - 4), (x + sq - 1, mid[1] + 4)], fill=(20, 20, 20))
            name = "hero: top skill, arrow = facing"
        room = LEGEND_W - sq - 14 if i % per_row < per_row - 1 else d.img.width - x - sq - 12
        d.text((x + sq + 8, mid[1]), name, font=font(legend_size(name, room)), fill=INK, anchor="lm")
    rows = (len(items) + per_row - 1) // per_row
    key = "hero icons: " + ", ".join(f"{SKILL_SHORT[k]} {n}" for k, n in SKILL_NAMES.items()) + ", Q Q-powers"
    d.text((10, top + rows * LEGEND_ROW + sq / 2), key, font=font(14), fill=MUTED, anchor="lm")


def _status_lines(view: QView, cols: int) -> list[str]:
    return wrap((view.result_text or view.waiting_for).replace("`", ""), 52 if cols == 1 else 52 * cols)[:2]


def _panel(d: Pen, view: QView, heroes: list[HeroView], left: int, top: int, cols: int, width: int) -> None:
    """Scenario, round and first player, the status, the world event and the lineup, then one card per hero
    (several columns when below the map)."""
    y = top + 8
    d.text((left, y), view.scenario_name, font=font(20), fill=INK)
    y += 28
    first = view.first_player
    shown = {"coop": "   co-op", "teams": "   teams"}
    d.text((left, y), f"Round {view.round} of {view.round_limit}   first player: {first}"
           f"{shown.get(view.mode, '')}{modes.round_extra(view)}",
           font=font(15), fill=INK)
    y += 22
    for line in _status_lines(view, cols):
        d.text((left, y), line, font=font(14), fill=MUTED)
        y += 18
    for line in _lineup_lines(view, cols):
        d.text((left, y), line, font=font(14), fill=INK)
        y += 18
    rows = tuple(_card_rows(view).items())
    header, card_h = _header_h(view, cols), _card_h(view)
    over = bool(view.result_text)
    for i, hv in enumerate(heroes):
        x = left + (i % cols) * CARD_W
        y = top + header + (i // cols) * card_h
        w = CARD_W if i % cols < cols - 1 else width - x  # the last column's card reaches the image's edge
        active = hv.name in view.to_act and not over
        used = ""
        if hv.name == view.active_player and not over and view.phase == "move" and view.used_skills:
            used = ", ".join(SKILL_NAMES.get(s, s) for s in view.used_skills)
        card = _card_patch(hv.model_dump_json(), w, card_h, rows, active, hv.name == view.first_player, used)
        d.sheet(card, x, y)


@lru_cache(maxsize=64)
def _card_patch(hero: str, width: int, height: int, rows: tuple[tuple[str, int], ...], active: bool, first: bool,
                used: str) -> Any:
    """One hero's card, drawn once for what it shows (`hero`: the HeroView as JSON; whether the hero is to act,
    moves first, the skills used this turn) and pasted: between two boards of a game most cards are unchanged.
    Nothing else is drawn where a card goes, so it is a `sheet`, pasted whole: a card drawn anew costs what drawing it
    in place did (64 cards of 600 x 170 px: 6.5 MB a render process)."""
    hv = HeroView.model_validate_json(hero)
    return sheet(PALETTE, width, height, lambda d: _card(d, hv, 0, 0, dict(rows), active, first, used))


def _upgrade_lines(hv: HeroView) -> list[str]:
    """The track grouped by kind, in the order first taken: 'upgrades (4): 2x +1 explore, gold, +1 move'."""
    return list(_upgrade_lines_of(tuple(hv.upgrades), tuple(hv.face_upgrades.items())))


@lru_cache(maxsize=512)  # a board asks for each card's lines four times (rows, heights, the card)
def _upgrade_lines_of(upgrades: tuple[str, ...], faces: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    if faces:  # the B-side: each face's upgrade
        return tuple(modes.face_lines(faces))
    kinds: dict[str, int] = {}
    for u_ in upgrades:
        k = _short_upgrade(u_)
        kinds[k] = kinds.get(k, 0) + 1
    track = ", ".join(f"{n}x {k}" if n > 1 else k for k, n in kinds.items())
    return tuple(wrap(f"upgrades ({len(upgrades)}): {track}" if track else "upgrades: none yet", 44)[:3])


def _card_rows(view: QView) -> dict[str, int]:
    """Rows every card of this image reserves, so the cards line up: upgrade lines, in play, frozen."""
    hs = view.heroes
    return {"upgrades": max((len(_upgrade_lines(h)) for h in hs), default=1),
            "in_play": int(any(h.items or h.pets for h in hs))}


def _card_h(view: QView) -> int:
    """Name, position (and frozen skills), faces, icons, upgrades, in play, carried and goal, the used skills, a gap."""
    return 22 + 18 * (5 + sum(_card_rows(view).values())) + 8


def _card(d: Pen, hv: HeroView, left: int, y: int, rows: dict[str, int], active: bool, first: bool,
          used: str) -> None:
    """A hero's card: who, where and facing, the faces, the icons, the upgrade track, what is in play, carried
    and the goal; `used`: the skills the moving hero has used this turn ("" for none or another hero)."""
    colour = SEAT_COLORS[hv.seat % len(SEAT_COLORS)]
    d.rectangle((left, y + 3, left + 14, y + 17), fill=colour)
    mark = "  <- to act" if active else ""
    mark += "  (first)" if first else ""
    team = f" ({hv.team})" if hv.team else ""
    d.text((left + 20, y), f"{hv.name}{team} - {hv.hero_name}{modes.title(hv)}{mark}", font=font(16),
           fill=modes.CROWN if hv.role == "overlord" else INK)
    y += 22
    top = hv.top_skill
    frozen = f"   frozen: {', '.join(SKILL_SHORT.get(k, k) for k in hv.iced)}" if hv.iced else ""
    d.text((left + 20, y), f"at {hv.pos or '-'}   top: {'Q' if top == 'q' else SKILL_NAMES[top]}   "
           f"facing {hv.facing}{frozen}", font=font(14), fill=INK)
    y += 18
    skills = hv.skills
    upg = set(hv.upgraded)
    faces = "  ".join(f"{f} {SKILL_SHORT[skills[f]]}{'+' if skills[f] in upg else ''}" for f in FACE_ORDER)
    d.text((left + 20, y), faces, font=font(14), fill=INK)
    y += 18
    _icons(d, hv, left + 20, y)
    y += 18
    for i, line in enumerate(_upgrade_lines(hv)):
        d.text((left + 20, y + 18 * i), line, font=font(14), fill=INK)
    y += 18 * rows["upgrades"]
    if rows["in_play"]:
        in_play = f"item: {', '.join(hv.items) or '-'}   pet: {', '.join(hv.pets) or '-'}"
        d.text((left + 20, y), in_play[:48], font=font(14), fill=INK)
        y += 18
    carry = ", ".join(c.replace("-crystal", "") for c in hv.carrying) or "nothing"
    d.text((left + 20, y), f"carries: {carry}   goal: {hv.objective}", font=font(14), fill=INK)
    y += 18
    if used:
        d.text((left + 20, y), "used this turn: " + used, font=font(14), fill=MUTED)


MOVE_PIP = (40, 130, 50)
EXPLORE_PIP = TOKEN_STYLE["explore"][0]


def explore_text(hv: HeroView) -> str:
    """"explore 2", or "explore 2+1" with a draw this turn earned besides the track (a token, an ability): said
    where the draws are, not beside the hand."""
    return f"explore {hv.explore}" + (f"+{hv.explores_earned}" if hv.explores_earned else "")


def _icons(d: Pen, hv: HeroView, x: int, y: int) -> None:
    """Movement and explore icons as pips (one per icon on the track), the owed explorations and the hand size."""
    d.text((x, y), f"move {hv.movement}", font=font(14), fill=INK)
    for i in range(min(hv.movement, 8)):  # arrow heads
        px = x + 58 + i * 9
        d.polygon([(px, y + 4), (px + 7, y + 9), (px, y + 14)], fill=MOVE_PIP)
    ex = x + 136
    earned = hv.explores_earned  # draws this turn brought besides the track (tokens, abilities): hollow eyes
    text = explore_text(hv)
    d.text((ex, y), text, font=font(14), fill=INK)
    start = ex + int(font(14).getlength(text)) + 6
    room = max(0, (x + 262 - start) // 9)  # eyes up to the hand's place (the numbers say the rest)
    for i in range(min(hv.explore + earned, room)):
        px = start + i * 9
        if i < hv.explore:
            d.ellipse((px, y + 5, px + 7, y + 12), fill=EXPLORE_PIP)
        else:
            d.ellipse((px, y + 5, px + 7, y + 12), outline=EXPLORE_PIP)
    d.text((x + 266, y), f"hand {hv.hand_size}", font=font(14), fill=INK)


def _lineup_lines(view: QView, cols: int) -> list[str]:
    """The world event (with events on) and the lineup, wrapped to the panel's width."""
    text = "Lineup: " + (", ".join(view.lineup) or "empty")
    if view.events_on:
        ongoing = [e for e in view.ongoing_events if e != view.world_event]
        now = " (ongoing)" if view.world_event in view.ongoing_events else ""
        more = f", ongoing: {', '.join(ongoing)}" if ongoing else ""
        event = f"World event: {view.world_event or 'none yet'}{now}{more}."
        return wrap(event, 52)[:2] + wrap(text, 52)[:2] if cols == 1 else wrap(f"{event}   {text}", 52 * cols)[:3]
    return wrap(text, 52 if cols == 1 else 52 * cols)[:2]


def _header_h(view: QView, cols: int) -> int:
    lines = len(_status_lines(view, cols)) + len(_lineup_lines(view, cols))
    return HEADER_H + 18 * lines + 8


def _short_upgrade(name: str) -> str:
    """'3B: +1 movement' -> '+1 move'; a gold side is 'gold' (the skill it flipped shows a + on the faces line)."""
    what = name.split(": ", 1)[-1]
    if what.startswith("gold"):
        return "gold"
    return what.replace("movement", "move")

