"""What the board image draws of the recent play (issue 16/18): hero and monster paths, attacks with hit or
miss, heals, spawns and loot drops, each appended to the state's `marks` by a one-line call in the rule modules.
Every mark carries the game turn it happened in (the legend groups the marks by turn)."""
from __future__ import annotations

from collections.abc import Iterable

from games.core.grid import label
from games.core.marks import Mark, extend
from games.core.marks import add as add_mark

from .board import board
from .sight import structures
from .state import DungeonState

Sq = tuple[int, int]


def add(marks: list[Mark], mark: Mark, turn: int) -> Mark:
    """`games.core.marks.add` with the game turn set."""
    mark.turn = turn
    return add_mark(marks, mark)


def _by(st: DungeonState) -> str:
    """The player whose hero is acting (monsters react inside that hero's activation: theirs is "")."""
    if st.activation is None:
        return ""
    return next((h.player for h in st.heroes if h.id == st.activation.hero), "")


def moved(st: DungeonState, who: str, start: Sq, path: Iterable[Sq], monster: bool = False) -> None:
    """A model walked from `start` along `path` (the squares it entered, in order)."""
    labels = [label(*start)] + [label(*s) for s in path if s != start]
    if len(labels) < 2:
        return
    if monster:
        add(st.marks, Mark(kind="move", who=who, path=labels, text=f"{who} moves"), st.turn)
        return
    key = f"{st.activations}:{who}"
    last = st.marks[-1] if st.marks else None
    if last is not None and last.key == key and last.kind == "move" and last.who == who:
        m = last  # the same activation's move goes on (`extend` grows it): no new mark to build
    else:
        m = Mark(kind="move", by=_by(st), who=who, path=labels[:1], key=key, text=f"{who} moves", turn=st.turn)
    for lab in labels[1:]:  # one activation's moves make one path
        m = extend(st.marks, m, lab)


def attacked(st: DungeonState, who: str, at: Sq, target: str, target_at: Sq, hit: bool,
             monster: bool = False) -> None:
    add(st.marks, Mark(kind="attack", by="" if monster else _by(st), who=who, path=[label(*at), label(*target_at)],
                       hit=hit, text=f"{who} attacks {target}: {'hit' if hit else 'no effect'}"), st.turn)


def healed(st: DungeonState, who: str, at: Sq, target: str, target_at: Sq, wounds: int, monster: bool = False) -> None:
    """A model healed a friend (or itself: then the path is its one square)."""
    path = [label(*at)] if at == target_at else [label(*at), label(*target_at)]
    whom = "itself" if at == target_at and monster else ("" if at == target_at else target)
    text = f"{who} heals {whom}".strip() + f" ({wounds} wound{'s' if wounds != 1 else ''})"
    add(st.marks, Mark(kind="heal", by="" if monster else _by(st), who=who, path=path, text=text), st.turn)


def spawned(st: DungeonState, who: str, at: Sq) -> None:
    add(st.marks, Mark(kind="spawn", who=who, path=[label(*at)], text=f"{who} spawns at {label(*at)}"), st.turn)


def dropped(st: DungeonState, card: str, at: Sq) -> None:
    add(st.marks, Mark(kind="loot", by=_by(st), who=card, path=[label(*at)], text=f"{card} drops at {label(*at)}"),
        st.turn)


def area(st: DungeonState, who: str, source: tuple[Sq, ...], reach: int, text: str, monster: bool = False) -> None:
    """An effect over an area (a monster's blast, a hero's attack on everyone adjacent): the path is its
    centre, then every square within `reach` by the route from `source` (the image outlines them)."""
    squares = sorted(sq for sq, d in board(st.dungeon).route_table(source, structures(st), reach).items()
                     if d <= reach)
    add(st.marks, Mark(kind="area", by="" if monster else _by(st), who=who,
                       path=[label(*source[0])] + [label(*sq) for sq in squares], text=text), st.turn)
