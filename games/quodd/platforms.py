"""Moving platforms: pieces of ground floating over pits that slide or turn at the end-of-round upkeep.

A platform covers pit squares (`Platform.cells`); while it does, they are ground (`board.is_pit`). In step 1
of the end of the round, after the bombs, each platform moves, the one whose north-west square lies furthest
north (then west) first. A sliding platform moves one space the way its arrow points; blocked, its arrow turns
around and it moves back next round. A rotating platform turns a quarter around its pivot square the way
its arrows show; blocked, it waits. It is blocked where a square it would cover is off the map, not a pit,
holds a token (a wall in a pit) or is covered by another platform (house: platforms float over pits only).
Everything on a platform rides along: heroes (who also spin when it turns), tokens, collectibles, sheep and
bombs (sheep and bombs turn with it).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import OPPOSITE, label, step_xy

from .board import XY, feature, on_map, xy
from .cube import spin
from .state import Platform, QState

CW = {"N": "E", "E": "S", "S": "W", "W": "N"}
CCW = {v: k for k, v in CW.items()}


def turned(p: XY, pivot: XY, clockwise: bool) -> XY:
    """`p` turned a quarter around `pivot` (y grows southwards: north turns to east clockwise)."""
    dx, dy = p[0] - pivot[0], p[1] - pivot[1]
    return (pivot[0] - dy, pivot[1] + dx) if clockwise else (pivot[0] + dy, pivot[1] - dx)


def destination(pl: Platform) -> dict[str, str]:
    """Where each of the platform's squares goes if it moves now."""
    if pl.kind == "slide":
        return {c: label(*step_xy(xy(c), pl.dir)) for c in pl.cells}
    return {c: label(*turned(xy(c), xy(pl.pivot), pl.dir == "cw")) for c in pl.cells}


def blocked(st: QState, pl: Platform, moves: dict[str, str]) -> str:
    """Why the platform cannot move to `moves` ("" when it can)."""
    others = {c for o in st.platforms if o is not pl for c in o.cells}
    for to in moves.values():
        if to in pl.cells:
            continue
        p = xy(to)
        if not on_map(st, p):
            return "the edge of the map"
        if to in others:
            return "another platform"
        if feature(st, p) != "O":
            return f"solid ground at {to}"
        if to in st.tokens:
            return f"the {st.tokens[to].kind.replace('_', ' ')} at {to}"
    return ""


def carry(st: QState, moves: dict[str, str], clockwise: bool | None) -> None:
    """Everything on the moved squares goes along (all at once); on a turn, heroes spin, sheep and bombs turn."""
    def move(lab: str) -> str:
        return moves.get(lab, lab)
    st.tokens = {move(k): t for k, t in st.tokens.items()}
    st.ground = {move(k): v for k, v in st.ground.items()}
    st.rally = {k: move(v) for k, v in st.rally.items()}
    way = None if clockwise is None else CW if clockwise else CCW
    arrived = set(moves.values())
    for k, t in list(st.tokens.items()):  # a cannon's opening turns with its platform (a new token: frozen)
        if way and t.dir and k in arrived:
            st.tokens[k] = t.model_copy(update={"dir": way[t.dir]})
    for h in st.heroes:
        if h.pos in moves:
            h.pos = moves[h.pos]
            if clockwise is not None:
                h.head, h.front = spin(h.head, h.front, clockwise)
    for s in st.sheep:
        if s.at in moves:
            s.at, s.facing = moves[s.at], way[s.facing] if way else s.facing
    for b in st.bombs:
        if b.at in moves:
            b.at, b.dir = moves[b.at], way[b.dir] if way else b.dir
    for piece in st.beams:  # beam gadgets ride along; a turn turns their arrows and mirrors
        if piece.at in moves:
            piece.at = moves[piece.at]
            if way and piece.kind in ("emitter", "mover"):
                piece.dir = way[piece.dir]
            elif way and piece.kind == "reflector":
                piece.dir = "".join(sorted({way[piece.dir[0]], way[piece.dir[1]]}, key="NSEW".index))


def move_platform(st: QState, pl: Platform, ev: list[Event]) -> None:
    moves = destination(pl)
    why = blocked(st, pl, moves)
    if why and pl.kind == "slide":
        ev.append(Event(text=f"The platform at {pl.cells[0]} cannot slide {pl.dir} ({why}); its arrow turns "
                             f"to {OPPOSITE[pl.dir]}."))
        pl.dir = OPPOSITE[pl.dir]
        return
    if why:
        ev.append(Event(text=f"The platform at {pl.pivot} cannot turn ({why}); it waits."))
        return
    carry(st, moves, None if pl.kind == "slide" else pl.dir == "cw")
    start = pl.cells[0]
    pl.cells = [moves[c] for c in pl.cells]
    if pl.kind == "rotate":
        ev.append(Event(text=f"The platform around {pl.pivot} turns a quarter "
                             f"{'clockwise' if pl.dir == 'cw' else 'counter-clockwise'}."))
    else:
        ev.append(Event(text=f"The platform at {start} slides {pl.dir} to {pl.cells[0]}."))


def pushed(st: QState, pl: Platform, d: str, ev: list[Event]) -> bool:
    """A beam mover moves the platform it sits on one space `d` (when it can); True if it moved."""
    moves = {c: label(*step_xy(xy(c), d)) for c in pl.cells}
    if blocked(st, pl, moves):
        return False
    carry(st, moves, None)
    pl.cells = [moves[c] for c in pl.cells]
    pl.pivot = moves.get(pl.pivot, pl.pivot)
    ev.append(Event(text=f"The beam mover pushes its platform {d} (now at {', '.join(pl.cells)})."))
    return True


def turned_about(st: QState, pl: Platform, pivot: str, clockwise: bool, ev: list[Event],
                 what: str = "beam rotator") -> bool:
    """A beam rotator (or a rotate switch) turns the platform it sits on a quarter around itself (when it can);
    True if it turned."""
    moves = {c: label(*turned(xy(c), xy(pivot), clockwise)) for c in pl.cells}
    if blocked(st, pl, moves):
        return False
    carry(st, moves, clockwise)
    pl.cells = [moves[c] for c in pl.cells]
    pl.pivot = moves.get(pl.pivot, pl.pivot)
    if pl.kind == "slide":  # its arrow token turns with it
        pl.dir = (CW if clockwise else CCW)[pl.dir]
    ev.append(Event(text=f"The {what} turns its platform a quarter "
                         f"{'clockwise' if clockwise else 'counter-clockwise'}."))
    return True


def upkeep_platforms(st: QState, ev: list[Event]) -> None:
    """End of round step 1, second part: platforms from the north-west, row by row."""
    def nw(pl: Platform) -> tuple[int, int]:
        return min((xy(c)[1], xy(c)[0]) for c in pl.cells)
    for pl in sorted(st.platforms, key=nw):
        move_platform(st, pl, ev)
