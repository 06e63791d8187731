"""Attacks and defence: push, force fumble and knock down (Pummel, Trample), the defend window, Mirror Shield."""
from __future__ import annotations

from games.core import Action, Event
from games.core.actions import action_of

from .flights import launch
from .marks import attacked, moved
from .rulebook import INVULNERABLE, OBJECT_NAMES, Rulebook, arg, cap
from .state import HeroballState, HeroState, ObjectState, Window
from .turns import goal_check, move

ATTACK_VERBS = {"push": "push", "force fumble": "force a fumble from", "knock down": "knock down"}


def attack_kind(a: Action) -> str:
    if a.cmd == "push":
        return "push"
    if a.cmd == "fumble":
        return "force fumble"
    return "knock down"


def defend_cost(g: Rulebook, h: HeroState) -> int:
    c = g.card(h, "mirror_shield")
    return c.cost if c else g.costs.defend


def can_defend(g: Rulebook, h: HeroState) -> bool:
    # Achilles' Defend slot holds Invulnerable/Vulnerable: he never defends.
    return g.card(h, "invulnerable") is None and h.ap >= defend_cost(g, h)


# ---- legal attacks and why not ---------------------------------------------------------------
def attack_actions(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    out = []
    for v in g.opponents_adjacent(s, h):
        if h.ap >= g.costs.push:
            out += [action_of("push", target=v.hero, to=d) for d in g.push_dests(s, h, v)]
        if h.ap >= g.costs.fumble and v.holding:
            out += [action_of("fumble", target=v.hero, to=d) for d in g.fumble_places(s, v)]
    return out


def target_reason(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> tuple[HeroState | None, str]:
    """The adjacent opponent `a` names, or why there is none."""
    target = a.get("target")
    if target is None:
        return None, "Name the hero: `target:` (a hero or a player)."
    v = next((x for x in s.heroes if x.hero == target), None)
    if v is None:
        return None, f"No hero called {target} plays here."
    if v is h:
        return None, "You cannot target yourself."
    if not g.targetable(v):
        return None, INVULNERABLE
    if g.board.dist(v.pos, h.pos) != 1:
        return None, f"{v.hero} ({v.pos}) is not next to {h.hero} ({h.pos})."
    return v, ""


def explain_attack(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
    if a.get("target") is None and not g.opponents_adjacent(s, h):
        near = [x for x in s.heroes if x is not h and g.board.dist(x.pos, h.pos) == 1]
        if near:  # only Invulnerable Achilles stands next to you
            return INVULNERABLE
        verb = "push" if a.cmd == "push" else "force a fumble from"
        return f"Nobody is next to {h.hero} ({h.pos}) to {verb}: an attack needs an opponent in a neighbouring hex."
    v, why = target_reason(g, s, h, a)
    if v is None:
        return why
    cost: int = getattr(g.costs, a.cmd)
    if h.ap < cost:
        return f"{cap(a.cmd)} costs {cost} AP; you have {h.ap}."
    to = a.get("to")
    if a.cmd == "fumble":
        if not v.holding:
            return f"{v.hero} holds nothing to fumble."
        if to is not None and to not in g.fumble_places(s, v):
            return f"The fumbled object goes on a free hex next to {v.hero} ({v.pos}); {to} is not one."
        return ""
    if to is not None:
        if g.board.dist(to, h.pos) != 2 or g.board.dist(to, v.pos) != 1:
            return f"A push moves {v.hero} 1 hex away from you; {to} is not such a hex."
        if not g.free(s, to):
            occ = g.at(s, to)
            return f"{to} is blocked by {g.who(occ)}." if occ else f"{to} holds a Pillar of Heaven."
    if not g.push_dests(s, h, v):
        return f"There is no free hex behind {v.hero} to push them into."
    return ""


# ---- what an attack does ---------------------------------------------------------------------
def attack(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    """`h` attacks the hero `a` targets: the victim may defend (a window), else it hits."""
    v = next(x for x in s.heroes if x.hero == arg(a, "target"))
    kind = attack_kind(a)
    if can_defend(g, v) and v.orders.get("defend") != "never":
        s.window_no += 1
        s.window = Window(kind="defend", action=a.text(), actor=h.player, queue=[v.player])
        if v.orders.get("defend") == "always":
            defend(g, s, v, ev)
        else:
            ev.append(Event(text=f"{g.who(h)} tries to {ATTACK_VERBS[kind]} {g.who(v)}; {v.name} may defend.",
                            kind="window"))
        return
    hit(g, s, h, v, a, ev)


def defend(g: Rulebook, s: HeroballState, v: HeroState, ev: list[Event]) -> None:
    """`v` defends: the attack fails; Mirror Shield throws a pusher back 1 hex if there is room."""
    w = s.window
    if w is None:
        raise ValueError("no defend window is open")
    s.window = None
    a = Action.parse(w.action)
    attacker = g.hero(s, w.actor)
    v.ap -= defend_cost(g, v)
    ev.append(Event(text=f"{g.who(v)} defends: the {attack_kind(a)} by {g.who(attacker)} fails."))
    attacked(g, s, attacker, v, attack_kind(a), hit=False)
    if g.card(v, "mirror_shield") and a.cmd == "push":
        d = g.board.direction(v.pos, attacker.pos)
        dest = g.board.toward(attacker.pos, d) if d else None
        if dest is not None and g.free(s, dest):
            move(g, s, attacker, dest, ev, verb="is thrown back")
            goal_check(g, s, ev, mover=None)


def hit(g: Rulebook, s: HeroballState, h: HeroState, v: HeroState, a: Action, ev: list[Event]) -> None:
    """The attack lands: a push moves `v`, a forced fumble or a knock-down makes `v` let go."""
    if a.cmd == "push":
        to = arg(a, "to")
        start = v.pos
        v.pos = to
        moved(g, s, v, start, to, f"is pushed by {h.hero}")
        ev.append(Event(text=f"{g.who(h)} pushes {g.who(v)} {start} → {to}."))
        goal_check(g, s, ev, mover=None)
        return
    attacked(g, s, h, v, attack_kind(a), hit=True)
    if a.cmd == "fumble":
        fumble(g, s, v, arg(a, "to"), ev, by=h)
        return
    v.down = True
    if a.cmd == "sprint":
        ev.append(Event(text=f"{g.who(h)} tramples {g.who(v)}: knocked down."))
    else:
        ev.append(Event(text=f"{g.who(h)} knocks {g.who(v)} down."))
    if v.holding:
        place = a.get("place")
        if place:
            fumble(g, s, v, place, ev, by=h)
        else:
            ev.append(Event(text=f"There is no free hex beside {g.who(v)}: {OBJECT_NAMES[v.holding]} stays put."))


def fumble(g: Rulebook, s: HeroballState, v: HeroState, to: str, ev: list[Event], by: HeroState) -> None:
    obj = v.holding
    if obj is None:
        raise ValueError(f"{v.hero} holds nothing to fumble")
    v.holding = None
    s.objects[obj] = ObjectState(at=to)
    ev.append(Event(text=f"{g.who(v)} fumbles {OBJECT_NAMES[obj]}; {g.who(by)} places it on {to}."))
    launch(g, s, obj, to, v.player, v.pos, ev, how="fumble", fumbled=True)
