"""What the image shows of the modes of issue 15: the overlord (a crown on its hero, a tag on its card), a buddy
(a small badge with its controller's initial, the controller named on the card), the player board's B-side
(each face's upgrade on the card) and the part of a multi-part scenario (in the round line)."""
from __future__ import annotations

from games.quodd.view import HeroView, QView
from render.common import WHITE, Pen, text_center, wrap

CROWN = (150, 20, 30)  # the overlord's dark red
BADGE = (60, 60, 60)
SHORT = {"front": "fr", "back": "bk", "left": "lt", "right": "rt", "feet": "ft", "q": "Q"}


def title(hv: HeroView) -> str:
    """The card's title after the hero's name: the overlord's tag, whose buddy this is."""
    if hv.role == "overlord":
        return "  OVERLORD"
    if hv.role == "buddy":  # its name already says whose: "Trixie (Ann)"
        return "  buddy" if f"({hv.controller})" in hv.name else f"  buddy of {hv.controller}"
    return ""


def round_extra(view: QView) -> str:
    """Words added to the round line: the part of a multi-part scenario, the overlord deck, the B-side."""
    out = f"   part {view.part}" if view.part else ""
    if any(h.role == "overlord" for h in view.heroes):
        out += f"   overlord deck {view.overlord_deck}"
    return out + ("   board B" if view.board == "b" else "")


def face_lines(faces: tuple[tuple[str, str], ...]) -> list[str]:
    """B-side: each face's upgrade (a hero's face_upgrades items), e.g. 'faces: ft +1 move, rt upgrade skill'."""
    if not faces:
        return []
    text = ", ".join(f"{SHORT.get(f, f)} {w.replace('movement', 'move')}" for f, w in faces)
    return wrap("faces: " + text, 44)[:3]


def mark(d: Pen, box: tuple[int, int, int, int], hv: HeroView, cell: float, size: int) -> None:
    """On the board: a crown above the overlord's hero; a badge with the controller's initial on a buddy."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    if hv.role == "overlord":  # a dark red ring round the hero, and a crown on the top-left corner
        cy, r = (y0 + y1) / 2, cell * 0.36 + 3
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=CROWN, width=3)
        w, h, left, top = cell * 0.46, cell * 0.3, x0 - 3, y0 - 4
        d.polygon([(left, top + h), (left, top), (left + w / 4, top + h / 2), (left + w / 2, top),
                   (left + 3 * w / 4, top + h / 2), (left + w, top), (left + w, top + h)], fill=CROWN, outline=WHITE)
    elif hv.role == "buddy" and hv.controller:
        r = size * 0.55
        bx, by = x0 + r, y1 - r
        d.ellipse((bx - r, by - r, bx + r, by + r), fill=BADGE, outline=WHITE)
        text_center(d, (bx, by), hv.controller[:1].upper(), size - 2, WHITE, bg=BADGE)



