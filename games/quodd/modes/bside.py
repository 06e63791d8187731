"""The player board's B-side (game option `board:b`): upgrades linked to the hero's faces.

On the B-side an upgrade tile goes onto one face of the hero (any free face, in any order; once placed it neither
moves nor flips) and enhances whatever skill sits on that face:
- +movement: that skill moves further (the Q face: no effect);
- +explore: one more card in phase 4 of a turn in which that face's skill was used (the Q face: a Q-power used);
- the gold icon (Upgrade Skill): the skill on that face is upgraded while it sits there (rearranging moves the
  upgrade to the skill that comes onto the face; the Q face: no effect);
- an ability: it works only once its face was activated (the face's skill used, the Q face: a Q-power used),
  from then until the hero's next turn begins (`Hero.awake`, house: how long a static bonus lasts); an activation
  cost (a card to discard) counts as paid by activating the face, so the ability then costs nothing.
Every skill's base movement on the B-side is `data.house().bside_movement` (the rulebook's B-side example: 2).
"""
from __future__ import annotations

from .. import data
from ..state import Hero, QState

FACES = ("front", "back", "left", "right", "feet", "q")


def on_bside(st: QState) -> bool:
    return st.board == "b"


def free_faces(h: Hero) -> list[str]:
    return [f for f in FACES if f not in h.faces]


def face_of(h: Hero, skill: str) -> str:
    """The face `skill` sits on ("" if none; "q" for the Q)."""
    if skill == "q":
        return "q"
    return next((f for f, s in h.skills.items() if s == skill), "")


def face_side(h: Hero, face: str) -> data.UpgradeSide | None:
    """The upgrade on `face` (B-side), if any."""
    code = h.faces.get(face)
    if not code:
        return None
    tile = data.upgrades()[h.hero][int(code[:-1]) - 1]
    return tile.a if code[-1] == "a" else tile.b


def face_movement(h: Hero, skill: str) -> int:
    """B-side: the movement the upgrade on `skill`'s face adds to it (never on the Q face)."""
    face = face_of(h, skill)
    s = face_side(h, face) if face != "q" else None
    return s.movement if s else 0


def is_upgraded(h: Hero, skill: str) -> bool:
    """A skill on its upgraded side: flipped for good by a gold side (A-side), or on a face with a gold upgrade."""
    if skill in h.upgraded:
        return True
    face = face_of(h, skill)
    s = face_side(h, face) if face not in ("", "q") else None
    return bool(s and s.gold)


def face_explores(h: Hero, used: list[str], q_used: bool) -> int:
    """B-side: the explorations the faces whose skill was used this turn add to phase 4."""
    n = 0
    for face in FACES:
        s = face_side(h, face)
        if s is None or not s.explore:
            continue
        if (face == "q" and q_used) or (face != "q" and h.skills.get(face) in used):
            n += s.explore
    return n


def faces_text(h: Hero) -> dict[str, str]:
    """What each face's upgrade does, for the view (face -> words)."""
    out: dict[str, str] = {}
    for face in FACES:
        s = face_side(h, face)
        if s is None:
            continue
        out[face] = (f"+{s.movement} movement" if s.movement else f"+{s.explore} explore" if s.explore
                     else data.abilities()[s.ability].name if s.ability else "upgrade skill")
    return out


def wake(h: Hero, face: str) -> None:
    """Activating `face` (its skill used, or a Q-power for the Q) switches on the B-side ability it carries."""
    if h.faces and face and face not in h.awake:
        h.awake.append(face)


def face_abilities(h: Hero) -> dict[str, str]:
    """B-side: each ability on a face, with its face."""
    out: dict[str, str] = {}
    for face in FACES:
        s = face_side(h, face)
        if s is not None and s.ability:
            out.setdefault(s.ability, face)
    return out


def awake_abilities(h: Hero) -> list[str]:
    """B-side: the abilities whose face was activated since this hero's turn began."""
    return [ab for ab, face in face_abilities(h).items() if face in h.awake]
