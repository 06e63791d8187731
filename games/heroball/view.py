"""What the board image and the bot show: view models built from the state (Heroball has no hidden information)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from games.core import Action, Status
from games.core.marks import Mark, shown

from .attacks import attack_kind, defend_cost
from .movement import base_cost
from .rulebook import Rulebook
from .state import HeroballState, HeroState


class HeroView(BaseModel):
    player: str
    name: str
    hero: str
    god: str
    terrain: str
    seat: int
    pos: str
    ap: int
    max_ap: int
    score: int
    down: bool
    holding: str | None
    spent: list[str]
    cards: list[str]  # short card states, e.g. "Pummel", "Fly (flipped: Feed)"
    goal: list[str]
    orders: dict[str, str]
    active: bool
    costs: dict[str, int] = Field(default_factory=dict)  # AP each action costs this hero (before terrain)
    reacting: bool = False  # asked to react (defend, intercept) in another hero's turn


class ObjectView(BaseModel):
    id: str
    at: str | None
    holder: str | None
    in_flight: bool = False


class HeroballView(BaseModel):
    radius: int
    pillar_distance: int
    round: int
    rounds: int
    phase: str
    waiting_for: str
    heroes: list[HeroView]
    objects: list[ObjectView]
    terrain: dict[str, str]
    trail: list[str]
    flights: list[tuple[str, str]] = Field(default_factory=list)  # (from, to) of objects in the air this turn
    finished: bool
    result: str = ""
    recent: list[Mark] = Field(default_factory=list)  # since the acting player's last turn, numbered in order
    earlier: int = 0  # marks of that span too old to draw
    pending: list[Mark] = Field(default_factory=list)  # the action a player is asked to react to
    songs: dict[str, list[str]] = Field(default_factory=dict)  # a singer's player -> the hexes her Sing holds
    terrain_cost: int = 0  # AP added for moving onto a terrain hex
    favoured_cost: int = 0  # ... and what the god's favoured terrain adds instead


def card_states(g: Rulebook, h: HeroState) -> list[str]:
    """Each card as the mat shows it: "sprint: Trample", "sprint: Feed (flipped)", "[in field]"; a flipped side
    that moves to another slot (Fly's Feed onto the sprint) is shown there, and the card it covers says so."""
    out = []
    cards = g.hero_data(h).cards
    covered = {c.flip_slot: c.flip for c in cards if c.flip and c.flip_slot and c.id in h.flipped}
    for c in cards:
        label = f"{c.slot}: {c.name}"
        if c.flip and c.id in h.flipped:
            label = f"{c.flip_slot or c.slot}: {c.flip.capitalize()} (flipped)"
        elif c.slot in covered:
            label += f" (under {str(covered[c.slot]).capitalize()}: a plain {c.slot})"
        if c.id in h.field:
            label += " [in field]"
        if c.id == "redecorate" and h.tile:
            label += f" [holds {h.tile}]"
        out.append(label)
    return out


def build_view(g: Rulebook, s: HeroballState, st: Status) -> HeroballView:
    """The whole table for everyone (`st` is the game's status now)."""
    hv = g.rules.house
    heroes = [HeroView(player=h.player, name=h.name, hero=h.hero, god=h.god, terrain=g.favoured(h), seat=h.seat,
                       pos=h.pos, ap=h.ap, max_ap=hv.max_ap, score=h.score, down=h.down, holding=h.holding,
                       spent=list(h.spent), cards=card_states(g, h), goal=g.board.goal(h.corner),
                       orders=dict(h.orders), active=(i == s.active and s.phase != "over"), costs=costs(g, h),
                       reacting=(i != s.active and h.player in st.to_act))
              for i, h in enumerate(s.heroes)]
    w = s.window
    objects = [ObjectView(id=k, at=o.at, holder=o.holder, in_flight=bool(w and w.kind == "intercept" and w.obj == k))
               for k, o in s.objects.items()]
    now = bool(s.turn.trail or s.turn.flights)
    trail = s.turn.trail if now else s.last_trail
    flights = [_flight(f) for f in (s.turn.flights if now else s.last_flights)]
    return HeroballView(radius=hv.board_radius, pillar_distance=hv.pillar_distance, round=s.round, rounds=hv.rounds,
                        phase=st.phase, waiting_for=st.waiting_for, heroes=heroes, objects=objects,
                        terrain=dict(s.terrain), trail=list(trail), flights=flights, finished=st.finished,
                        result=st.result.text if st.result else "", songs=songs(g, s), terrain_cost=g.costs.terrain,
                        favoured_cost=g.costs.favoured, **recap(s, st))


def songs(g: Rulebook, s: HeroballState) -> dict[str, list[str]]:
    """The hexes of each Sing in the field: moving away from the singer within its range costs more there."""
    out = {}
    for c in s.heroes:
        card = g.card(c, "sing")
        if card is not None and "sing" in c.field:
            out[c.player] = [lab for lab in g.board.labels if g.board.dist(lab, c.pos) <= card.range]
    return out


def costs(g: Rulebook, h: HeroState) -> dict[str, int]:
    """What each action costs this hero in AP before terrain: the moves (Trample replaces the sprint's cost), the
    ball actions, and the reactions (a defend card replaces the defend cost)."""
    out = {k: base_cost(g, h, k) for k in ("step", "run", "sprint")}
    out.update(throw=g.costs.throw, drop=g.costs.drop, push=g.costs.push, fumble=g.costs.fumble,
               defend=defend_cost(g, h), intercept=g.costs.intercept)
    card = g.card(h, "distract")
    if card is not None and "distract" not in h.flipped:  # Helen's reaction while the card shows Distract
        out["distract"] = card.cost
    return out


def last_turn(s: HeroballState, st: Status) -> int:
    """The number of the previous turn of whoever must act now (turns go round the table, one per seat): the
    image draws what happened after it. At the end: the last round."""
    n = len(s.heroes)
    seats = [h.seat for h in s.heroes if h.player in st.to_act]
    if s.phase == "over" or not seats:
        return s.turn_no - n - 1
    back = min((s.active - seat) % n or n for seat in seats)  # the actor's own turn: a whole round back
    return s.turn_no - back


def recap(s: HeroballState, st: Status) -> dict[str, Any]:
    """The view's `recent`, `earlier` and `pending`: what the image draws of the play since the last turn."""
    recent, earlier = shown([m for m in s.marks if m.turn > last_turn(s, st)])
    pending: list[Mark] = []
    w = s.window
    if w is not None and w.kind == "defend" and w.queue:
        h = next(x for x in s.heroes if x.player == w.actor)
        v = next(x for x in s.heroes if x.player == w.queue[0])
        a = Action.parse(w.action)
        path = [v.pos, a.get("to") or v.pos] if a.cmd == "push" else [h.pos, v.pos]
        pending.append(Mark(kind="push" if a.cmd == "push" else "attack", by=w.actor, who=h.hero, path=path,
                            text=f"{h.hero} tries to {attack_kind(a)} {v.hero}: {v.name} may defend"))
    elif w is not None and w.kind == "intercept" and w.origin != w.target:
        pending.append(Mark(kind="throw", by=w.actor, path=[w.origin, w.target],
                            text=f"in flight to {w.target}: it may be caught"))
    elif w is not None and w.kind in ("distract", "distracted") and w.queue:
        actor = next(x for x in s.heroes if x.player == w.actor)
        asked = next(x for x in s.heroes if x.player == w.queue[0])
        a = Action.parse(w.action)
        if w.kind == "distract":
            text = f"{actor.hero} declared {w.action}: {asked.hero} may distract it"
        else:
            text = f"{actor.hero} declared {w.action}: {actor.name} may pay more AP or let it fail"
        pending.append(declared(s, actor, a, text))
    return {"recent": recent, "earlier": earlier, "pending": pending}


def declared(s: HeroballState, h: HeroState, a: Action, text: str) -> Mark:
    """A declared action of `h` as a mark: a move (with Winged Sandals or the pole) to its hex, a throw, kick or
    drop to where it lands, a push to where the victim goes, an attack on its target; anything else at `h`."""
    to, target = a.get("to"), a.get("target")
    victim = next((x for x in s.heroes if x.hero == target), None)
    start = h.pos
    if a.cmd == "throw" and a.get("obj"):
        o = s.objects.get(a.get("obj") or "")
        start = o.at if o is not None and o.holder is None and o.at else h.pos  # a kick starts where it lies
    if a.cmd == "push" and victim is not None and to:
        kind, path = "push", [victim.pos, to]
    elif victim is not None:
        kind, path = "attack", [h.pos, victim.pos]
    elif a.cmd in ("throw", "drop") and to:
        kind, path = a.cmd, [start, to]
    elif to:
        kind, path = "move", [h.pos, to]
    else:
        kind, path = "move", [h.pos]
    return Mark(kind=kind, by=h.player, who=h.hero, path=path, text=text)


def _flight(text: str) -> tuple[str, str]:
    """A stored flight "G6>G8" as (from, to)."""
    origin, _, target = text.partition(">")
    return origin, target


def summary(g: Rulebook, s: HeroballState) -> dict[str, object]:
    """The export's game fields: round, where the Godball is, each player's hero, place, AP and score."""
    ball = s.objects["ball"]
    return {
        "round": s.round,
        "ball": ball.at if ball.holder is None else g.player_name(s, ball.holder),
        "players": [{"name": h.name, "hero": h.hero, "god": h.god, "position": h.pos, "ap": h.ap, "score": h.score,
                     "holding": h.holding, "knocked_down": h.down} for h in s.heroes],
    }
