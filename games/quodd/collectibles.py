"""Carrying collectibles: stealing from a hero next to you and dropping what you carry (legal lists, effect, refusals).

Stealing comes first in the movement priority (1. stealing, 2. board and tokens, 3. skills) and may happen at
any point of your own movement: entering a square beside a hero you may rob, you are asked before the square's
board element acts (`offer_steal`), and the move goes on afterwards with all its points.
Picking up, delivering and losing collectibles happen in movement (`movement.do_land`, `falls`).
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.grid import DIRS8, chebyshev, label, parse_label, step_xy
from games.core.words import says

from .abilities.stealing import after_steal, explain_grip, grip_costs, pay_grip
from .board import ACTIVE, XY, feature, hero_of, is_mover, is_pit, kind, safe_spot, xy
from .jobs import decide, push_front
from .modes.buddies import carry_cap
from .state import Hero, Job, QState

NOT_OWN = ("push", "explosion", "wind", "quake")  # moved by others: not your movement


def steals(st: QState, h: Hero) -> list[Action]:
    if h.pos is None or len(h.carrying) >= carry_cap(st, h):
        return []
    out = []
    for o in st.heroes:
        if o.player == h.player or o.pos is None or o.player in st.m.stolen_from:
            continue
        if chebyshev(xy(o.pos), xy(h.pos)) == 1:
            for item in sorted(set(o.carrying)):
                for card in grip_costs(h, o):  # Flame Grip: one action per card the thief may discard
                    extra = {"card": card} if card else {}
                    out.append(Action.of("steal", **{"from": o.player, "item": item, **extra}))
    return out


def drops(st: QState, h: Hero) -> list[Action]:
    if h.pos is None:
        return []
    p = xy(h.pos)
    out = []
    for item in sorted(set(h.carrying)):
        for d in DIRS8:
            q = step_xy(p, d)
            if safe_spot(st, q):
                out.append(Action.of("drop", item=item, at=label(*q)))
    return out


def steal(st: QState, h: Hero, victim_player: str, item: str, ev: list[Event], card: str = "") -> None:
    victim = hero_of(st, victim_player)
    pay_grip(st, h, card, ev)
    victim.carrying.remove(item)
    h.carrying.append(item)
    st.m.stolen_from.append(victim.player)
    ev.append(Event(text=f"{says(h.name, 'steals')} a {item.replace('-', ' ')} from {victim.name}."))
    after_steal(st, h, ev)


def drop(st: QState, h: Hero, item: str, at: str, ev: list[Event]) -> None:
    h.carrying.remove(item)
    st.ground.setdefault(at, []).append(item)
    ev.append(Event(text=f"{says(h.name, 'drops')} a {item.replace('-', ' ')} on {at}."))


def explain_steal(st: QState, h: Hero, a: dict[str, str]) -> str:
    f = a.get("from", "")
    victim = next((o for o in st.heroes if o.player == f), None)
    if victim is None or victim.player == h.player:
        return "Name another player's hero to steal from."
    if len(h.carrying) >= carry_cap(st, h):
        return f"You already carry {len(h.carrying)}, the most you may carry."
    if victim.player in st.m.stolen_from:
        return f"You stole from {victim.name} already this turn (once per hero per turn)."
    if victim.pos is None or h.pos is None or chebyshev(xy(victim.pos), xy(h.pos)) != 1:
        return f"{says(victim.name, 'is')} not right next to you (diagonals count)."
    if not victim.carrying:
        locked = " (banked crystals are locked)." if victim.banked else "."
        return f"{says(victim.name, 'carries')} nothing to steal" + locked
    grip = explain_grip(st, h, victim.player, a.get("card", ""))
    if grip:
        return grip
    return f"{says(victim.name, 'does')} not carry a {a.get('item', '?').replace('-', ' ')}."


def steal_label(st: QState, option: str) -> str:
    victim, _, item = option.partition(":")
    return f"Steal {item.replace('-', ' ')} from {hero_of(st, victim).name}"


def explain_drop(st: QState, player: str, a: dict[str, str]) -> str:
    try:
        h = hero_of(st, player)
    except KeyError:
        return ""
    item = a.get("item", "")
    if not h.carrying:
        return "You carry nothing to drop."
    if item and item not in h.carrying:
        return f"You do not carry a {item.replace('-', ' ')}."
    at = parse_label(a.get("at", ""))
    if at is None or h.pos is None or chebyshev(at, xy(h.pos)) != 1:
        return "Drop onto a space right next to you (diagonals count)."
    return f"{label(*at)} is not a safe free space (no pit, wall, hero or other collectible)."


def offer_steal(st: QState, job: Job) -> bool:
    """On your own move, before the entered square's board element acts: steal from a hero beside you?
    Asks (answers `player:item` or `skip`) and returns True when there is something to steal."""
    h = hero_of(st, job.hero)
    if (job.item == "asked" or job.by or job.how in NOT_OWN or not is_mover(st, h) or st.m.ended
            or h.pos is None or is_pit(st, xy(h.pos))):
        return False
    options = [f"{a.get('from')}:{a.get('item')}" for a in steals(st, h)]
    goes_on = any(j.hero == h.player and j.kind in ("step", "jump") for j in st.queue)
    if not options or not (goes_on or element_acts(st, xy(h.pos))):
        return False  # the move stops here and nothing acts: the `steal` command comes first anyway
    decide(st, "steal", h.player, h, options + ["skip"],
           f"{h.name}: steal at {h.pos} before anything else happens there? Pick a collectible or skip",
           job=job.model_copy(update={"item": "asked"}))
    return True


def element_acts(st: QState, p: XY) -> bool:
    """Does the square's board element do something to a hero entering it (so a steal must come first)?"""
    k = kind(st, p)
    if k in ("q", "rearrange", "spring", "super_spring", "teleporter", "super_teleporter", "tunnel", "switch",
             "switch_colour"):
        return True
    return k not in ACTIVE and feature(st, p) in ("^", ">", "v", "<", "@", "w")


def _stolen(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    if option != "skip":
        victim, _, item = option.partition(":")
        steal(st, h, victim, item, ev)
    push_front(st, [job])  # now the square's board element acts, and the move goes on


RESOLVE = {"steal": _stolen}
