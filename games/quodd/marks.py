"""What the board image draws of the recent play (issue 18): each hero's movement as one path (tumbles, slides,
jumps, through whirlpools, water and tunnels), heroes pushed or thrown by others, explosions. One-line calls in
the rule modules append to the state's `marks`; the view picks those since the acting player's last turn."""
from __future__ import annotations

from games.core.marks import Mark, add, extend
from games.core.words import says

from .board import active, is_mover
from .state import Hero, QState


def went(st: QState, h: Hero, start: str | None, to: str | None) -> None:
    """`h` went from `start` to `to` (None: off the map): the mover's own movement makes one path."""
    if to is None:
        return
    by = active(st).player
    key = f"{st.round}:{st.turn}"
    if is_mover(st, h):
        m = Mark(kind="tumble", by=by, who=h.name, path=[start] if start else [], key=key,
                 text=f"{says(h.name, 'moves')}")
        if not _grow(st, "tumble", h.name, key, start, to):
            extend(st.marks, m, to)
    elif start is not None and start != to and not _grow(st, "push", h.name, key, start, to):
        add(st.marks, Mark(kind="push", by=by, who=h.name, path=[start, to], key=key,
                           text=f"{says(h.name, 'is')} moved"))


def _grow(st: QState, kind: str, who: str, key: str, start: str | None, to: str) -> bool:
    """Go on with `who`'s path of this turn where the newest marks are only its own and the pushes it made (a
    dash pushing a hero step by step is one path for each, not a new number per step)."""
    for i in range(len(st.marks) - 1, -1, -1):
        m = st.marks[i]
        if m.key != key or m.kind not in ("tumble", "push"):
            return False
        if m.kind == kind and m.who == who:
            if not m.path or m.path[-1] != start:
                return False
            if m.path[-1] != to:  # a new mark in the list: only the newest is the action's own copy (apply_copy)
                st.marks[i] = m.model_copy(update={"path": [*m.path, to]})
            return True
    return False


def exploded(st: QState, at: str) -> None:
    add(st.marks, Mark(kind="explode", by=active(st).player, path=[at], text=f"explosion at {at}"))


def rolled(st: QState, kind: str, path: list[str]) -> None:
    """A fired bomb's roll from where it lay to where it stopped or hit, drawn dashed like a throw."""
    if len(path) >= 2:
        add(st.marks, Mark(kind="throw", by=active(st).player, who=kind, path=list(path),
                           text=f"{kind} bomb rolls {path[0]}-{path[-1]}"))
