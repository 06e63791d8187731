"""Beams: emitters fire beams across the board; reflectors turn them, movers and rotators act when hit,
power blocks switch emitters with a crystal.

A beam leaves an emitter that is on and runs straight until it meets a wall, an impassable wall or the edge
(or a gadget that stops it). Its squares (`QState.lit`) are impassable walls above ground: no hero or sheep
enters or jumps over them (`board.can_enter`, `board.jump_landing_ok`); tunnels and water connections still
lead past. A reflector that is on turns a beam arriving on its mirror side a quarter (its `dir` names the two sides
the mirror faces: a beam coming in on one leaves by the other); a beam hitting its back stops there, and at the
end-of-round upkeep the reflector turns a quarter the way the first player chooses (the rulebook: the active
player; at the end of the round the first player stands in). A reflector that is off lets the beam through. A mover
or rotator stops the beam and, at the beam step of the end-of-round upkeep, moves the platform it sits on a space
the way of its arrow, or turns it a quarter around the rotator (a rotator on no platform turns the square board
under it; a mover on no platform does nothing). A power block with a crystal on it switches the emitters of its
group on (and is impassable itself); without one it switches them off.

Beams are traced when the game is set up, at the beam step of the upkeep (after bombs and platforms,
before sheep), emitters north to south, west to east, and again whenever something may have changed them
mid-round (`refresh`, from the movement queue: a crystal on or off a power block, a wall placed or broken, a
turned board, platform or reflector); a rotator a beam newly hits turns at once.
Whatever a beam newly crosses loses its tokens that are neither walls nor scenario tokens; a hero in a
beam respawns (keeping what it carries), a sheep in one runs off and is lost (house).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import OPPOSITE, label, step_xy
from games.core.words import agrees, says

from . import data
from .board import XY, active, kind, on_map, xy
from .jobs import decide, push_front
from .platforms import pushed, turned_about
from .rotation import board_box, rotate_board
from .state import BeamPiece, Job, QState

TURN_CW = {"NE": "SE", "SE": "SW", "SW": "NW", "NW": "NE"}
WAYS = ("clockwise", "counter-clockwise")  # the answers of a reflector hit on its back (clockwise first)
STOP = ("wall", "impassable_up")


def _key(p: BeamPiece) -> tuple[int, int]:
    x, y = xy(p.at)
    return y, x


def power(st: QState) -> None:
    """Power blocks switch the emitters of their group: on with a crystal lying on the block, else off."""
    for block in st.beams:
        if block.kind == "power":
            block.on = any("crystal" in c for c in st.ground.get(block.at, []))
            for e in st.beams:
                if e.kind == "emitter" and e.group == block.group:
                    e.on = block.on


def trace(st: QState) -> tuple[list[str], list[BeamPiece], list[BeamPiece]]:
    """The squares the beams cross now, the movers and rotators they hit, the reflectors hit on the back."""
    lit, hits, backs, _ = _trace(st)
    return lit, hits, backs


def paths(st: QState) -> list[list[str]]:
    """Each beam as the squares it runs through, from its emitter to its last square (for the image)."""
    return _trace(st)[3]


def _trace(st: QState) -> tuple[list[str], list[BeamPiece], list[BeamPiece], list[list[str]]]:
    at = {p.at: p for p in st.beams}
    lit: list[str] = [p.at for p in st.beams if p.kind == "power" and p.on]
    hits: list[BeamPiece] = []
    backs: list[BeamPiece] = []
    lines: list[list[str]] = []
    for e in sorted((p for p in st.beams if p.kind == "emitter" and p.on), key=_key):
        pos, d = xy(e.at), e.dir
        line = [e.at]
        lines.append(line)
        seen: set[tuple[XY, str]] = set()
        while (pos, d) not in seen:
            seen.add((pos, d))
            q = step_xy(pos, d)
            if not on_map(st, q) or kind(st, q) in STOP:
                break
            piece = at.get(label(*q))
            if piece is not None and piece.kind == "reflector" and piece.on:
                came = OPPOSITE[d]  # the side the beam comes in by
                if came not in piece.dir:
                    backs.append(piece)
                    break
                d = piece.dir.replace(came, "")
            elif piece is not None and piece.kind != "reflector":
                if piece.kind in ("mover", "rotator"):
                    hits.append(piece)
                break
            if label(*q) not in lit:
                lit.append(label(*q))
            line.append(label(*q))
            pos = q
    return lit, hits, backs, lines


def _burn(st: QState, before: list[str], ev: list[Event]) -> None:
    """What a beam newly crosses loses its common tokens; heroes in a beam respawn, sheep in one are lost."""
    gadgets = {p.at for p in st.beams}
    kinds = data.token_kinds()
    for lab in st.lit:
        t = st.tokens.get(lab)
        fresh = lab not in before and lab not in gadgets
        if fresh and t is not None and t.kind != "wall" and not kinds[t.kind].scenario:
            del st.tokens[lab]
            ev.append(Event(text=f"The beam destroys the {t.kind.replace('_', ' ')} token at {lab}."))
    jobs: list[Job] = []
    for h in st.heroes:
        if h.pos in st.lit and h.pos not in gadgets:
            ev.append(Event(text=f"{says(h.name, 'is')} caught in the beam at {h.pos} and "
                                 f"{agrees(h.name, 'respawns')}."))
            jobs.append(Job(kind="respawn", hero=h.player, at=h.pos, prev=h.pos))
            h.pos = None
    for s in [s for s in st.sheep if s.at in st.lit]:
        st.sheep.remove(s)
        ev.append(Event(text=f"The {s.colour} sheep at {s.at} is caught in the beam, runs off and is lost."))
    push_front(st, jobs)


def light(st: QState, ev: list[Event]) -> tuple[list[BeamPiece], list[BeamPiece]]:
    """Switch emitters by their power blocks, trace every beam, and burn what it newly crosses."""
    power(st)
    before = list(st.lit)
    st.lit, hits, backs = trace(st)
    st.spun = [p.at for p in hits if p.kind == "rotator"]
    st.backs = [p.at for p in sorted(backs, key=_key)]
    _burn(st, before, ev)
    return hits, backs


# the phases of a hero's turn: a reflector newly hit on the back then is the active player's question at once
TURN_PHASES = ("power", "move", "recovery", "explore")


def refresh(st: QState, ev: list[Event], still: tuple[str, ...] = ()) -> None:
    """Trace the beams again after anything that may have changed them mid-round (a crystal put on or taken
    off a power block, a wall placed or broken, a board, platform or reflector turned): squares a beam newly
    crosses burn, and a rotator a beam newly hits turns its platform or board at once (then again at each
    upkeep while the beam stays on it). Movers act only at the upkeep ("each round"). A reflector newly hit on
    its back during a hero's turn is turned the way the active player chooses, asked at once (`ask_back`), and
    so are those in `still` (asked already, not answered yet) that the beams still hit on the back."""
    backs = _retrace(st, ev)
    hit = [p.at for p in sorted(backs, key=_key)]
    ask = [at for at in hit if at not in st.backs or at in still]
    st.backs = hit
    if ask and st.phase in TURN_PHASES and st.pending is None:
        ask_back(st, ask, now=True)


def _retrace(st: QState, ev: list[Event]) -> list[BeamPiece]:
    """`refresh`'s tracing and rotators; the reflectors hit on the back when it is done."""
    backs: list[BeamPiece] = []
    for _ in range(4):  # a rotator turning may move the beams again; four quarter turns bring all back
        power(st)
        lit, hits, backs = trace(st)
        fresh = [p for p in hits if p.kind == "rotator" and p.at not in st.spun]
        if lit == st.lit and not fresh and len(st.spun) == sum(p.kind == "rotator" for p in hits):
            return backs
        before = list(st.lit)
        st.lit = lit
        st.spun = [p.at for p in hits if p.kind == "rotator"]
        _burn(st, before, ev)
        if not fresh:
            return backs
        for piece in sorted(fresh, key=_key):
            ev.append(Event(text=f"The beam newly hits the rotator at {piece.at}."))
            _act(st, piece, ev)
    return backs


def _act(st: QState, piece: BeamPiece, ev: list[Event]) -> None:
    """A mover or rotator in a beam moves or turns the platform (or the board) it sits on."""
    pl = next((p for p in st.platforms if piece.at in p.cells), None)
    if piece.kind == "mover" and pl is not None:
        if not pushed(st, pl, piece.dir, ev):
            ev.append(Event(text=f"The beam mover at {piece.at} cannot move its platform {piece.dir}."))
    elif piece.kind == "rotator" and pl is not None:
        if not turned_about(st, pl, piece.at, piece.dir == "cw", ev):
            ev.append(Event(text=f"The beam rotator at {piece.at} cannot turn its platform."))
    elif piece.kind == "rotator" and board_box(st, piece.at) is not None:
        rotate_board(st, piece.at, piece.dir == "cw", ev)


def upkeep_beams(st: QState, ev: list[Event]) -> None:
    """End of round step 1, third part: movers and rotators in a beam act (north to south, west to east), each
    reflector hit on the back turns the way the first player chooses (`ask_back`), then the beams are traced
    again (`upkeep.py` does that once the last reflector is answered)."""
    hits, backs = light(st, ev)
    for piece in sorted(hits, key=_key):
        _act(st, piece, ev)
    if not ask_back(st, [p.at for p in sorted(backs, key=_key)]):
        light(st, ev)


def ask_back(st: QState, backs: list[str], *, now: bool = False) -> bool:
    """The rulebook: a reflector hit on its back turns a quarter the way the active player chooses. During a
    hero's turn (`now`) that is the hero's player, asked at once; at the end of the round nobody is active: the
    first player chooses (house, as for the world events' choices; on a deadline clockwise, the first answer).
    Asks about the first of `backs` (the rest ride in the job, `how` says which of the two); False if none."""
    if not backs:
        return False
    who = active(st) if now else st.heroes[st.first]
    decide(st, "reflector", who.player, who, list(WAYS),
           f"{who.name}: the beam hits the back of the reflector at {backs[0]}; turn it a quarter clockwise or "
           "counter-clockwise", job=Job(kind="none", hero=who.player, at=backs[0], item=" ".join(backs[1:]),
                                        how="now" if now else ""))
    return True


def turn_back(st: QState, at: str, clockwise: bool, ev: list[Event]) -> None:
    """Turn the reflector on `at` a quarter (its mirror's two sides move round with it)."""
    piece = next(p for p in st.beams if p.at == at and p.kind == "reflector")
    piece.dir = TURN_CW[piece.dir] if clockwise else next(k for k, v in TURN_CW.items() if v == piece.dir)
    way = "clockwise" if clockwise else "counter-clockwise"
    ev.append(Event(text=f"The beam hits the back of the reflector at {at}; it turns a quarter {way}."))
