"""Reading the map in a state: squares, tokens, heroes, and who may enter where."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

from games.core.grid import DIRS4, DIRS8, label, parse_label, step_xy

from .abilities.track import has
from .data import ARROW, VOID, cards, token_kinds
from .state import Hero, QState, Token

XY = tuple[int, int]

BLOCKING = ("impassable_up",)
PIT_TOKENS = ("pit", "trap_door_open")
REVEAL = ("explore", "food", "item", "pet", "rune", "upgrade", "treasure")
# Tokens whose effect covers the printed feature underneath them.
ACTIVE = ("spring", "super_spring", "teleporter", "super_teleporter", "tunnel", "q", "rearrange", "pit",
          "trap_door_open", "wall", "cannon")  # a hero on a wall top stands above the printed square


def xy(lab: str) -> XY:
    p = parse_label(lab)
    assert p is not None, lab
    return p


def point(text: str) -> XY:
    """A job's `at`: a square label or 'x,y' for a point off the map."""
    if "," in text:
        a, b = text.split(",")
        return int(a), int(b)
    return xy(text)


def point_text(p: XY) -> str:
    return f"{p[0]},{p[1]}"


def feature(st: QState, p: XY) -> str:
    x, y = p
    if not (0 <= x < st.width and 0 <= y < st.height):
        return VOID
    return st.rows[y][x]


def on_map(st: QState, p: XY) -> bool:
    x, y = p  # `feature(st, p) != VOID`, written out: asked tens of times per legal list
    return 0 <= x < st.width and 0 <= y < st.height and st.rows[y][x] != VOID


def token(st: QState, p: XY) -> Token | None:
    return st.tokens.get(label(*p)) if on_map(st, p) else None


def kind(st: QState, p: XY) -> str:
    t = token(st, p)
    return t.kind if t else ""


def is_wall(st: QState, p: XY) -> bool:
    return kind(st, p) == "wall"


def is_pit(st: QState, p: XY) -> bool:
    """Pits, open trap doors, pit tokens and everywhere off the map. A wall bridges a pit, and so does
    the broken wall it becomes (FAQ: flipped to its broken side it is a passable space)."""
    if not on_map(st, p):
        return True
    if on_platform(st, p):
        return False  # a moving platform covers the pit (platforms.py)
    k = kind(st, p)
    if k in ("wall", "broken_wall"):
        return False
    return feature(st, p) == "O" or k in PIT_TOKENS


def falls_note(st: QState, p: XY | None) -> str:
    """The warning a button ends with when its move ends at `p` in a pit or off the map ("" elsewhere): every
    label of a move that ends in a fall says so the same way."""
    if p is None or not is_pit(st, p):
        return ""
    return f" → falls ({'off the map' if not on_map(st, p) else 'into a pit'})"


def on_platform(st: QState, p: XY) -> bool:
    lab = label(*p)
    return any(lab in pl.cells for pl in st.platforms)


def is_drop(st: QState, p: XY) -> bool:
    return feature(st, p) == "D" or kind(st, p) == "drop_zone"


def current_dir(st: QState, p: XY) -> str | None:
    return ARROW.get(feature(st, p))


def hero_of(st: QState, player: str) -> Hero:
    for h in st.heroes:
        if h.player == player:
            return h
    raise KeyError(player)


def active(st: QState) -> Hero:
    """The hero whose turn it is."""
    return st.heroes[st.turn]


def is_mover(st: QState, h: Hero) -> bool:
    """Is `h` the hero making its own movement phase now?"""
    return st.phase == "move" and active(st).player == h.player


def passes_walls(st: QState, h: Hero) -> bool:
    """Ghost: walls never stop this hero; Crush: they do not stop it on its own movement (it smashes them)."""
    return has(h, "ghost") or has(h, "crush") and is_mover(st, h)


def hero_at(st: QState, p: XY, *, but: str = "") -> Hero | None:
    if not on_map(st, p):
        return None
    lab = label(*p)
    for h in st.heroes:
        if h.pos == lab and h.player != but:
            return h
    return None


def standable(st: QState, p: XY) -> bool:
    """A square where a hero may be put down (by respawn, drop, teleport): on the map, no wall, no beam."""
    return on_map(st, p) and kind(st, p) not in ("wall", "impassable_up") and label(*p) not in st.lit


def safe_spot(st: QState, p: XY) -> bool:
    """Safe for setting something down: standable, no pit, nobody and nothing there."""
    return standable(st, p) and not is_pit(st, p) and hero_at(st, p) is None and not st.ground.get(label(*p))


def occupancy(st: QState) -> dict[XY, str]:
    return {xy(h.pos): h.player for h in st.heroes if h.pos}


def can_enter(st: QState, h: Hero, frm: XY, d: str, *, occ: dict[XY, str] | None = None, depth: int = 0) -> bool:
    """May `h` move one space from `frm` towards `d` by walking, sliding, tumbling or being pushed?

    Walls stop you unless you already stand on a wall top; impassable walls always stop you;
    a hero in the way is pushed along if it can be (normal rules for it too); off the map is a fall.
    """
    if occ is None:
        occ = occupancy(st)
    dx, dy = DIRS8[d]
    to = (frm[0] + dx, frm[1] + dy)
    x, y = to  # `on_map`, `label`, `kind` written out: asked for every step of every path a legal list tries
    if not (0 <= x < st.width and 0 <= y < st.height and st.rows[y][x] != VOID):
        return True
    lab = label(x, y)
    t = st.tokens.get(lab)
    k = t.kind if t else ""
    if k in BLOCKING or st.lit and lab in st.lit:  # beams are impassable walls above ground (beams.py)
        return False
    if k == "wall" and not is_wall(st, frm) and not passes_walls(st, h):
        return False
    other = occ.get(to)
    if other is not None and other != h.player:
        if depth > len(st.heroes):
            return False
        return can_enter(st, hero_of(st, other), to, d, occ=occ, depth=depth + 1)
    return True


def sim_step(st: QState, h: Hero, frm: XY, d: str, occ: dict[XY, str]) -> XY | None:
    """Move `h` in an occupancy map (pushing others along); None when blocked. Ignores board elements."""
    if not can_enter(st, h, frm, d, occ=occ):
        return None
    dx, dy = DIRS8[d]
    me = h.player
    to = (frm[0] + dx, frm[1] + dy)
    chain = []
    q = to
    while (pid := occ.get(q)) is not None and pid != me:
        chain.append((q, pid))
        q = (q[0] + dx, q[1] + dy)
    for q, pid in reversed(chain):
        del occ[q]
        nq = (q[0] + dx, q[1] + dy)
        if on_map(st, nq):
            occ[nq] = pid
    occ.pop(frm, None)
    if on_map(st, to):
        occ[to] = me
    return to


def stepper(st: QState, h: Hero) -> Callable[[XY, str, dict[XY, str]], XY | None]:
    """`sim_step` for `h` in `st` as it stands, for a search trying many paths: where nobody stands in the way,
    whether `h` may step from a square towards a direction depends on the map alone, so that is worked out once
    per square and direction (a dash's paths meet the same steps again and again); a push takes `sim_step`."""
    me = h.player
    known: dict[tuple[XY, str], bool] = {}

    def step(frm: XY, d: str, occ: dict[XY, str]) -> XY | None:
        dx, dy = DIRS8[d]
        to = (frm[0] + dx, frm[1] + dy)
        who = occ.get(to)
        if who is not None and who != me:
            return sim_step(st, h, frm, d, occ)
        ok = known.get((frm, d))
        if ok is None:
            ok = known[frm, d] = can_enter(st, h, frm, d, occ=occ)
        if not ok:
            return None
        occ.pop(frm, None)  # as `sim_step` without anyone to push
        if on_map(st, to):
            occ[to] = me
        return to

    return step


WATER = "^>v<@w"  # currents, whirlpools, water connections


def is_water(st: QState, p: XY) -> bool:
    """A printed water square no active token covers (a hero on a wall top there is not on the water)."""
    t = token(st, p)
    return feature(st, p) in WATER and (t is None or t.kind not in ACTIVE)


def glides(h: Hero) -> bool:
    """Freeze-O-Tron in play (passive, always on: FAQ): water is ice to this hero."""
    return any(cards()[c].effect.freeze for c in h.items + h.pets)


def free_step(st: QState, h: Hero, frm: XY, to: XY, d: str, before: str) -> bool:
    """Freeze-O-Tron: a step from water onto water going on the way the step `before` went costs no point, so
    one point glides as far as the ice goes in a straight line."""
    return d == before and glides(h) and is_water(st, frm) and is_water(st, to)


def step_costs(st: QState, h: Hero, frm: XY, path: list[str], occ: dict[XY, str]) -> list[int] | None:
    """The point each step of `path` costs `h` from `frm` (0 for a glide on ice); None if a step is blocked
    or one comes after a fall."""
    out: list[int] = []
    pos, before = frm, ""
    for d in path:
        if out and is_pit(st, pos):
            return None
        nxt = sim_step(st, h, pos, d, occ)
        if nxt is None:
            return None
        out.append(0 if free_step(st, h, pos, nxt, d, before) else 1)
        pos, before = nxt, d
    return out


def jump_landing_ok(st: QState, frm: XY, d: str, over: int) -> bool:
    """A jump clears `over` spaces; impassable walls cannot be cleared or landed on."""
    for i in range(1, over + 2):
        q = step_xy(frm, d, i)
        if on_map(st, q) and (kind(st, q) in BLOCKING or label(*q) in st.lit):  # beams cannot be jumped over
            return False
    return True


def walled_in(st: QState, h: Hero) -> bool:
    """Blocked on all four sides: the natural tumble is impossible."""
    if h.pos is None:
        return False
    p = xy(h.pos)
    return not any(can_enter(st, h, p, d) for d in DIRS4)


def center_facing(st: QState, p: XY) -> str:
    """The orthogonal direction pointing most into the map from `p`."""
    cx, cy = (st.width - 1) / 2, (st.height - 1) / 2
    vx, vy = cx - p[0], cy - p[1]
    best = max(DIRS4, key=lambda d: (DIRS4[d][0] * vx + DIRS4[d][1] * vy, d))
    return best


def squares(st: QState) -> Iterator[XY]:
    for y in range(st.height):
        for x in range(st.width):
            if st.rows[y][x] != VOID:
                yield (x, y)


def placement_problem(st: QState, kind_: str, p: XY, *, under_hero_ok: bool = False) -> str:
    """Why a token of `kind_` may not be placed on `p` now ("" if it may): the token placement rules.

    Never on respawn points or on top of another token, never in pits except walls, never
    under a hero unless a rule allows it (secret tokens are put under the hero who found them).
    """
    if kind_ not in token_kinds():
        return f"there is no {kind_} token"
    x, y = p  # `feature`, `hero_at` written out: asked for every square in range of every card with a target
    f = st.rows[y][x] if 0 <= x < st.width and 0 <= y < st.height else VOID
    if f == VOID:
        return "that is not a square of the map"
    lab = label(x, y)
    if f == "R":
        return f"{lab} is a respawn point"
    t = st.tokens.get(lab)
    if t is not None:
        return f"{lab} already holds a {t.kind.replace('_', ' ')}"
    if f == "O" and kind_ != "wall" and not on_platform(st, p):
        return f"{lab} is a pit; only walls go into pits"
    if st.lit and lab in st.lit and kind_ != "wall":
        return f"{lab} is in a beam; only a wall goes there (it cuts the beam), anything else would burn"
    if not under_hero_ok:
        for h in st.heroes:
            if h.pos == lab and h.player != "":  # as `hero_at(st, p)`: the square is on the map
                return f"{lab} is under a hero"
    return ""


@lru_cache(maxsize=1 << 12)
def _diamond(rows: tuple[str, ...], width: int, height: int, frm: XY, r: int) -> dict[XY, int]:
    """`in_range` without beams, per map (the rows) and square: every card, Q-power and aim lists its targets
    from it. Callers get a copy."""
    fx, fy = frm
    return {(fx + dx, fy + dy): abs(dx) + abs(dy) for dy in range(-r, r + 1)
            for dx in range(-(r - abs(dy)), r - abs(dy) + 1)
            if 0 <= fx + dx < width and 0 <= fy + dy < height and rows[fy + dy][fx + dx] != VOID}


def in_range(st: QState, frm: XY, r: int) -> dict[XY, int]:
    """The map squares within range `r` of `frm` (counted orthogonally) and their distance. Beams block range:
    with a beam lit, range is counted around it (rulebook: Beam Walls + Gadgets): its squares may be
    reached (a wall placed there cuts the beam) but never crossed."""
    if not st.lit:
        return dict(_diamond(tuple(st.rows), st.width, st.height, frm, r))
    lit = {xy(lab) for lab in st.lit}
    seen = {frm: 0}
    edge = [frm]
    for n in range(1, r + 1):
        nxt = []
        for p in edge:
            for ux, uy in DIRS4.values():
                q = (p[0] + ux, p[1] + uy)
                if q not in seen and 0 <= q[0] < st.width and 0 <= q[1] < st.height:
                    seen[q] = n
                    if q not in lit:  # a beam square may be aimed at (a wall there cuts the beam), not past
                        nxt.append(q)
        edge = nxt
    return {q: n for q, n in seen.items() if on_map(st, q)}
