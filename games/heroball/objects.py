"""Throw, drop and hold: what a hero does with the Godball or the pole (Pegasus kicks instead of throwing)."""
from __future__ import annotations

from games.core import Action, Event
from games.core.actions import action_of

from .flights import launch
from .rulebook import OBJECT_NAMES, Rulebook, arg, cap
from .state import HeroballState, HeroState, ObjectState

OBJECT_COMMANDS = ("throw", "drop", "hold")


def object_actions(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    b = g.board
    out = []
    kick = g.card(h, "kick")
    if kick is not None:
        if h.ap >= kick.cost:
            for obj, o in s.objects.items():
                if o.holder is None and o.at is not None and b.dist(o.at, h.pos) <= kick.reach:
                    out += [action_of("throw", obj=obj, to=t) for t in g.throw_targets(h.pos, kick.range, exclude=o.at)]
    elif h.holding and h.ap >= g.costs.throw:
        out += _throws(g, h.holding, h.pos, g.rules.house.throw_range)
    if h.holding and h.ap >= g.costs.drop:
        out += _drops(g, h.pos)
    if h.holding is None:
        out += [action_of("hold", obj=obj) for obj, o in s.objects.items() if o.holder is None and o.at == h.pos]
    return out


def _throws(g: Rulebook, obj: str, pos: str, reach: int) -> tuple[Action, ...]:
    """Every throw of `obj` from `pos` (the same for every state: the board's, worked out once)."""
    key = ("throw", obj, pos, reach)
    found = g.memo.get(key)
    if found is None:
        found = g.memo[key] = tuple(action_of("throw", obj=obj, to=t) for t in g.throw_targets(pos, reach))
    return found


def _drops(g: Rulebook, pos: str) -> tuple[Action, ...]:
    b = g.board
    key = ("drop", "", pos, 1)
    found = g.memo.get(key)
    if found is None:
        found = g.memo[key] = tuple(action_of("drop", to=t) for t in (pos, *b.neighbors(pos)) if t not in b.pillars)
    return found


def explain_object(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
    b = g.board
    to = a.get("to")
    obj = a.get("obj")
    if a.cmd == "hold":
        if h.holding:
            return f"You already hold {OBJECT_NAMES[h.holding]}: drop it first."
        here = [o for o, st in s.objects.items() if st.holder is None and st.at == h.pos]
        if obj is not None and obj in s.objects and obj not in here:
            o = s.objects[obj]
            where = f"held by {g.who(g.hero(s, o.holder))}" if o.holder else f"on {o.at}"
            return f"{cap(OBJECT_NAMES[obj])} is {where}, not in your hex ({h.pos})."
        return f"There is nothing loose in your hex ({h.pos}) to hold."
    kick = g.card(h, "kick") if a.cmd == "throw" else None
    if kick is not None:
        if h.ap < kick.cost:
            return f"Kick costs {kick.cost} AP; you have {h.ap}."
        loose = [o for o, st in s.objects.items() if st.holder is None and st.at is not None
                 and b.dist(st.at, h.pos) <= kick.reach]
        if not loose:
            return ("Kick needs a loose object in or next to your hex "
                    "(Pegasus kicks, he does not throw what he holds).")
        if obj is not None and obj not in loose:
            return f"{cap(OBJECT_NAMES.get(obj, obj))} is not loose in or next to your hex."
        if to is not None:
            if to in b.pillars:
                return f"{to} holds a Pillar of Heaven; objects cannot land there."
            if b.dist(to, h.pos) > kick.range:
                return f"{to} is more than {kick.range} hexes from you."
        return ""
    if not h.holding:
        return f"You hold nothing to {a.cmd}."
    if obj is not None and obj != h.holding:
        return f"You hold {OBJECT_NAMES[h.holding]}, not {OBJECT_NAMES.get(obj, obj)}."
    cost: int = getattr(g.costs, a.cmd)
    if h.ap < cost:
        return f"{cap(a.cmd)} costs {cost} AP; you have {h.ap}."
    if to is not None:
        if to in b.pillars:
            return f"{to} holds a Pillar of Heaven; objects cannot land there."
        if a.cmd == "throw":
            reach = g.rules.house.throw_range
            if to == h.pos:
                return "A throw leaves your hex; to let go here use `drop`."
            if b.dist(to, h.pos) > reach:
                return f"{to} is more than {reach} hexes away; throw at most {reach}."
        elif b.dist(to, h.pos) > 1:
            return f"A drop goes into your hex ({h.pos}) or next to it; {to} is too far (throw instead)."
    return ""


def object_cost(g: Rulebook, h: HeroState, a: Action) -> int:
    if a.cmd == "throw":
        kick = g.card(h, "kick")
        return kick.cost if kick else g.costs.throw
    if a.cmd == "drop":
        return g.costs.drop
    return 0  # picking up is free


def hold(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    obj = arg(a, "obj")
    h.holding = obj
    s.objects[obj] = ObjectState(holder=h.player)
    ev.append(Event(text=f"{g.who(h)} picks up {OBJECT_NAMES[obj]}."))


def throw(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    """Throw what `h` holds, or (Pegasus) kick a loose object; it flies and may be intercepted."""
    obj, to = arg(a, "obj"), arg(a, "to")
    origin = h.pos
    if h.holding == obj:
        h.holding = None
    s.objects[obj] = ObjectState(at=to)
    verb = "kicks" if g.card(h, "kick") else "throws"
    ev.append(Event(text=f"{g.who(h)} {verb} {OBJECT_NAMES[obj]} to {to}."))
    launch(g, s, obj, to, h.player, origin, ev, how="kick" if verb == "kicks" else "throw")


def drop(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    obj, to = h.holding, arg(a, "to")
    if obj is None:
        raise ValueError(f"{h.hero} holds nothing to drop")
    h.holding = None
    s.objects[obj] = ObjectState(at=to)
    ev.append(Event(text=f"{g.who(h)} drops {OBJECT_NAMES[obj]} on {to}."))
    launch(g, s, obj, to, h.player, h.pos, ev, how="drop")
