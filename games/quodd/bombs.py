"""Bombs: fired from a hero's space (the Bomb Q-power), rolling on at the end-of-round upkeep.

A bomb rolls its speed in a straight line and explodes when it runs into a hero, a wall, a sheep, a crystal
lying on the ground or a beam (house: a beam is an impassable wall, so the explosion centres on the beam's
square as on a wall it hits); off the edge of the map or into a pit it is gone. A bomb that stops without a
collision stays on its square (`QState.bombs`) and rolls on in the same direction during upkeep,
north to south, west to east. The bomb die (house, content notes): standard x3 (speed 4), fire x2 and
ice x1 (speed 3).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import DIRS4, OPPOSITE, label, step_xy
from games.core.words import agrees, possessive, says

from . import data, marks
from .abilities.track import food_protected
from .board import XY, hero_at, is_pit, kind, on_map, xy
from .cube import face_dirs
from .elements import explode
from .jobs import push_front
from .sheep import sheep_at, throw
from .state import Bomb, Hero, Job, QState

BOMBS: dict[str, int] = {"standard": 4, "fire": 3, "ice": 3}  # kind -> speed
BOMB_DIE = ("standard", "standard", "standard", "fire", "fire", "ice")


def roll_bomb(st: QState) -> str:
    return BOMB_DIE[st.rng.d(6) - 1]


def fire(st: QState, at: str, d: str, bomb_kind: str, ev: list[Event], by: str | None = None) -> None:
    """A bomb leaves `at` towards `d` and rolls its speed (it starts on the firing hero's space)."""
    ev.append(Event(text=f"A {bomb_kind} bomb is fired {d} from {at}.", irreversible=True))
    roll(st, Bomb(at=at, dir=d, kind=bomb_kind), ev, by)


def roll(st: QState, b: Bomb, ev: list[Event], by: str | None = None) -> None:
    """Roll `b` its speed; it explodes on what it runs into, or stays where it stops. The board image draws the
    squares it rolled over (`marks.rolled`)."""
    path = [b.at]
    _roll(st, b, ev, by, path)
    marks.rolled(st, b.kind, path)


def _roll(st: QState, b: Bomb, ev: list[Event], by: str | None, path: list[str]) -> None:
    pos = xy(b.at)
    for _ in range(BOMBS[b.kind]):
        q = step_xy(pos, b.dir)
        if on_map(st, q):
            path.append(label(*q))
        if not on_map(st, q):
            ev.append(Event(text=f"The {b.kind} bomb rolls off the map."))
            return
        target = hero_at(st, q)
        crystal = [c for c in st.ground.get(label(*q), []) if "crystal" in c]
        animal = sheep_at(st, q)
        if animal is not None:  # an animal: it jumps two spaces away, the explosion is centred where it stood
            ev.append(Event(text=f"The {b.kind} bomb hits the {animal.colour} sheep at {label(*q)}."))
            throw(st, animal, b.dir, ev)
            _hit(st, b, q, None, [], ev, by, quiet=True)
            return
        if target is not None or crystal or kind(st, q) in ("wall", "impassable_up"):
            _hit(st, b, q, target, crystal, ev, by)
            return
        if st.lit and label(*q) in st.lit:  # a beam is an impassable wall: the bomb explodes against it
            ev.append(Event(text=f"The {b.kind} bomb rolls into the beam at {label(*q)}."))
            _hit(st, b, q, None, [], ev, by, quiet=True)
            return
        pos = q
        if is_pit(st, q):
            ev.append(Event(text=f"The {b.kind} bomb falls into the pit at {label(*q)}."))
            return
    b.at = label(*pos)
    st.bombs.append(b)
    ev.append(Event(text=f"The {b.kind} bomb stops at {b.at}; it rolls on {b.dir} at the end of the round."))


def _hit(st: QState, b: Bomb, q: XY, target: Hero | None, crystal: list[str], ev: list[Event],
         by: str | None, quiet: bool = False) -> None:
    """What the bomb hit jumps away first (two spaces); the explosion is centred where it stood."""
    lab = label(*q)
    what = target.name if target is not None else "a crystal" if crystal else "the wall"
    if not quiet:
        ev.append(Event(text=f"The {b.kind} bomb hits {what} at {lab}."))
    first: list[Job] = []
    if target is not None:
        first.append(Job(kind="jump", hero=target.player, dir=b.dir, n=1, how="explosion", by=by or ""))
    elif crystal:
        _throw_crystal(st, lab, crystal[0], step_xy(q, b.dir, 2), ev)
    caught = explode(st, q, ev, by)
    push_front(st, first)
    hit = ([target] if target is not None else []) + caught
    if b.kind == "fire":
        for h in hit:
            burnable = [i for i, c in enumerate(h.hand) if not (food_protected(h) and data.cards()[c].kind == "food")]
            if burnable:  # Protected Food: a fire bomb never burns the food cards of a hero who has it
                card = h.hand.pop(burnable[st.rng.below(len(burnable))])
                st.discard.append(card)
                ev.append(Event(text=f"{says(h.name, 'is')} burnt by the fire bomb and {agrees(h.name, 'discards')}"
                                     f" a random card: {data.cards()[card].name} (face up on the discard pile).",
                                irreversible=True))
    if b.kind == "ice":
        for h in hit:
            _freeze(h, q, b.dir if h is target else "", ev)


def _throw_crystal(st: QState, frm: str, item: str, to: XY, ev: list[Event]) -> None:
    st.ground[frm].remove(item)
    if not st.ground[frm]:
        del st.ground[frm]
    if on_map(st, to) and not is_pit(st, to) and kind(st, to) not in ("wall", "impassable_up"):
        st.ground.setdefault(label(*to), []).append(item)
        ev.append(Event(text=f"The {item.replace('-', ' ')} is thrown to {label(*to)}."))
    else:
        ev.append(Event(text=f"The {item.replace('-', ' ')} is thrown away and lost."))


def _freeze(h: Hero, centre: XY, came: str, ev: list[Event]) -> None:
    """Ice: the skill tiles on the faces turned towards the impact point are gone until the hero's next turn.
    The hero the bomb struck faces where the bomb came from; a hero beside the centre faces the centre
    (both faces for a diagonal neighbour)."""
    if h.pos is None:
        return
    if came:
        towards = {OPPOSITE[came]}
    else:
        dx, dy = centre[0] - xy(h.pos)[0], centre[1] - xy(h.pos)[1]
        towards = {d for d, (ux, uy) in DIRS4.items() if (ux and ux == dx) or (uy and uy == dy)}
    faces = [f for f, w in face_dirs(h.head, h.front).items() if w in towards and f in h.skills]
    lost = [h.skills[f] for f in faces if h.skills[f] not in h.iced]
    h.iced += lost
    if lost:
        ev.append(Event(text=f"{possessive(h.name)} " + " and ".join(lost) + " freeze until their next turn."))


def upkeep_bombs(st: QState, ev: list[Event]) -> None:
    """End of round step 1: every bomb rolls on, north to south, west to east."""
    bombs = sorted(st.bombs, key=lambda b: (xy(b.at)[1], xy(b.at)[0]))
    st.bombs = []
    for b in bombs:
        roll(st, b, ev, "")
