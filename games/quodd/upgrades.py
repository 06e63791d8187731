"""Upgrades: each hero's six double-sided tiles (`data/upgrades.json`), one taken by every hero at the end
of each round (step 4), in the left-most free slot of the upgrade track, on the side the player picks.

A side gives +1 movement, +1 explore, the gold icon (flip one skill of your choice to its upgraded side:
one more point with it and an exploration after using it), or a named ability (`data/abilities.json`),
whose effects are in the `abilities` package; `abilities.track` reads them off the track.
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.words import possessive, says

from . import data
from .jobs import decide
from .modes.bside import FACES, free_faces
from .state import Hero, Job, QState


def tiles_left(h: Hero) -> list[int]:
    taken = {int(u[:-1]) for u in h.upgrades}
    return [n for n in range(1, len(data.upgrades()[h.hero]) + 1) if n not in taken]


def side_of(h: Hero, tile: int, side: str) -> data.UpgradeSide:
    t = data.upgrades()[h.hero][tile - 1]
    return t.a if side == "a" else t.b


def upgrade_actions(h: Hero, board: str = "") -> list[Action]:
    """The tiles and sides `h` may take; on the B-side (`board` "b") each onto a free face, no skill named."""
    out: list[Action] = []
    for n in tiles_left(h):
        for side in ("a", "b"):
            s = side_of(h, n, side)
            if board == "b":
                out += [Action.of("upgrade", tile=str(n), side=side, face=f) for f in free_faces(h)]
            elif s.gold:
                out += [Action.of("upgrade", tile=str(n), side=side, skill=k)
                        for k in data.skills() if k not in h.upgraded]
            else:
                out.append(Action.of("upgrade", tile=str(n), side=side))
    return out


def can_upgrade(h: Hero, board: str = "") -> bool:
    """Whether `upgrade_actions(h, board)` lists anything, without building the list (asked for every hero at
    every status and label of the upgrade phase)."""
    for n in tiles_left(h):
        for side in ("a", "b"):
            if board == "b":
                if free_faces(h):
                    return True
            elif not side_of(h, n, side).gold or any(k not in h.upgraded for k in data.skills()):
                return True
    return False


def side_text(s: data.UpgradeSide, skill: str = "") -> str:
    if s.movement:
        return f"+{s.movement} movement"
    if s.explore:
        return f"+{s.explore} explore"
    if s.ability:
        return data.abilities()[s.ability].name
    if skill in data.skills():
        return f"gold: upgrade {data.skills()[skill].name}"
    return f"gold: upgrade {skill}" if skill else "gold: upgrade a skill"


def take_upgrade(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    tile, side, skill = int(action.get("tile") or 0), action.get("side") or "", action.get("skill") or ""
    s = side_of(h, tile, side)
    h.upgrades.append(f"{tile}{side}")
    face = action.get("face") or ""
    if face:  # the B-side: the tile enhances the skill on that face only (`modes/bside.py`)
        h.faces[face] = f"{tile}{side}"
        what = side_text(s, "the skill on that face") if s.gold else side_text(s)
        ev.append(Event(text=f"{says(h.name, 'places')} upgrade tile {tile}, side {side.upper()} on the {face} face: "
                             f"{what}."))
        return
    h.movement += s.movement
    h.explore += s.explore
    if s.gold:
        h.upgraded.append(skill)
    ev.append(Event(text=f"{says(h.name, 'takes')} upgrade tile {tile}, side {side.upper()}: {side_text(s, skill)} "
                         f"(slot {len(h.upgrades)})."))


def offer_token_upgrade(st: QState, h: Hero, ev: list[Event]) -> None:
    """An upgrade token taken: choose and place an upgrade at once, if a tile is left (a question; its options
    are `tile+side`, with `:skill` for a gold side, e.g. `3b` or `4a:jump`)."""
    options = [f"{a.get('tile')}{a.get('side')}" + "".join(f":{a.get(k)}" for k in ("skill", "face") if a.get(k))
               for a in upgrade_actions(h, st.board)]
    if not options:
        ev.append(Event(text=f"All of {possessive(h.name)} upgrade tiles are on the track already: "
                             "the token brings nothing."))
        return
    decide(st, "upgrade_token", h.player, h, options,
           f"{h.name}: the upgrade token lets you place an upgrade now: choose a tile and side")


def token_action(option: str) -> Action:
    """An option `3b`, `4a:jump` (a gold side's skill) or `2a:front` (B-side: the face) as an upgrade."""
    code, _, extra = option.partition(":")
    key = "face" if extra in FACES else "skill"
    return Action.of("upgrade", tile=code[:-1], side=code[-1], **({key: extra} if extra else {}))


def _token_upgraded(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    take_upgrade(st, h, token_action(option), ev)


RESOLVE = {"upgrade_token": _token_upgraded}


def upgrade_label(st: QState, h: Hero, action: Action) -> str:
    tile, side = int(action.get("tile") or 0), action.get("side") or ""
    face = f" on {action.get('face')}" if action.get("face") else ""
    return f"Tile {tile}{side.upper()}{face}: {side_text(side_of(h, tile, side), action.get('skill') or '')}"


def explain_upgrade(h: Hero, action: Action, board: str = "") -> str:
    left = tiles_left(h)
    if not left:
        return "All six of your upgrade tiles are on your track."
    t = action.get("tile") or ""
    if not t.isdigit() or int(t) not in left:
        return f"Tile `{t}` is not one you can take: tiles left are " + ", ".join(map(str, left)) + "."
    if action.get("side") not in ("a", "b"):
        return "Pick a side: `side:a` or `side:b`."
    s = side_of(h, int(t), action.get("side") or "")
    if board == "b":
        return ("On the B-side the tile goes onto a free face of your hero: `face:` one of "
                + ", ".join(free_faces(h)) + " (no `skill:`).")
    if action.get("face"):
        return "Faces take upgrades only on the player board's B-side (`board:b`): leave out `face:`."
    if s.gold:
        free = [k for k in data.skills() if k not in h.upgraded]
        return "The gold side upgrades one skill: `skill:` one of " + (", ".join(free) or "none left") + "."
    return "That side takes no `skill:`."
