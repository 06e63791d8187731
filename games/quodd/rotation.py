"""Turning one square board of the map a quarter turn (the Rotate Board Q-power).

Everything on the board turns with it: printed squares (currents point the new way), tokens, lying
collectibles, water connection ends, rally markers, bombs, cannons' openings, and the heroes standing on
it, who also spin a quarter turn. `QState.turned` keeps each board's quarter turns since setup (drawn).
Only a square board turns (the 9x9 boards, not the 2x9 start zones).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import label

from .board import XY, xy
from .cube import spin
from .state import QState

CW = {"N": "E", "E": "S", "S": "W", "W": "N", "NE": "SE", "SE": "SW", "SW": "NW", "NW": "NE"}
CCW = {v: k for k, v in CW.items()}
ARROW_CW = {"^": ">", ">": "v", "v": "<", "<": "^"}
ARROW_CCW = {v: k for k, v in ARROW_CW.items()}


def board_box(st: QState, at: str) -> tuple[str, int, int, int] | None:
    """The board under `at` as (id, left, top, size) if it is a whole square board, else None."""
    bid = st.board_of.get(at)
    if bid is None:
        return None
    cells = [xy(lab) for lab, b in st.board_of.items() if b == bid]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if w != h or len(cells) != w * h:
        return None
    return bid, min(xs), min(ys), w


def rotate_board(st: QState, at: str, clockwise: bool, ev: list[Event]) -> None:
    box = board_box(st, at)
    assert box is not None, at
    bid, ox, oy, n = box

    def turn(p: XY) -> XY:
        x, y = p[0] - ox, p[1] - oy
        return (ox + n - 1 - y, oy + x) if clockwise else (ox + y, oy + n - 1 - x)

    def inside(lab: str) -> bool:
        return st.board_of.get(lab) == bid

    def move(lab: str) -> str:
        return label(*turn(xy(lab))) if inside(lab) else lab

    arrows = ARROW_CW if clockwise else ARROW_CCW
    rows = [list(r) for r in st.rows]
    for y in range(oy, oy + n):
        for x in range(ox, ox + n):
            tx, ty = turn((x, y))
            ch = st.rows[y][x]
            rows[ty][tx] = arrows.get(ch, ch)
    st.rows = ["".join(r) for r in rows]
    st.tokens = {move(k): t for k, t in st.tokens.items()}
    for k, t in list(st.tokens.items()):  # a cannon's opening turns with its board (a new token: frozen)
        if t.dir and inside(k):
            st.tokens[k] = t.model_copy(update={"dir": (CW if clockwise else CCW)[t.dir]})
    st.ground = {move(k): v for k, v in st.ground.items()}
    st.links = {move(k): v for k, v in st.links.items()}
    st.rally = {k: move(v) for k, v in st.rally.items()}
    way = CW if clockwise else CCW
    for b in st.bombs:
        if inside(b.at):
            b.at, b.dir = move(b.at), way[b.dir]
    for s in st.sheep:  # the living board (issue 15): sheep, beam gadgets and platforms turn too
        if inside(s.at):
            s.at, s.facing = move(s.at), way[s.facing]
    for piece in st.beams:
        if inside(piece.at):
            piece.at = move(piece.at)
            if piece.kind in ("emitter", "mover"):
                piece.dir = way[piece.dir]
            elif piece.kind == "reflector":
                piece.dir = "".join(sorted({way[piece.dir[0]], way[piece.dir[1]]}, key="NSEW".index))
    for pl in st.platforms:
        pl.cells, pl.pivot = [move(c) for c in pl.cells], move(pl.pivot) if pl.pivot else ""
    for h in st.heroes:
        if h.pos and inside(h.pos):
            h.pos = move(h.pos)
            h.head, h.front = spin(h.head, h.front, clockwise)
    quarter = (st.turned.get(bid, 0) + (1 if clockwise else 3)) % 4
    if quarter:
        st.turned[bid] = quarter
    else:
        st.turned.pop(bid, None)
    ev.append(Event(text=f"Board {bid} turns a quarter {'clockwise' if clockwise else 'counter-clockwise'}, "
                         "with everything on it."))
