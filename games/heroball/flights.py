"""Objects in flight: a throw, drop, fumble or swat lands on a hex, and heroes near it may catch it first.

`launch` opens the intercept window and asks the hopefuls in order (on the landing hex, then
nearest the one who let go, then turn order after the active player); standing orders answer
for those who gave them. The intercept phase (phases/reaction.py) takes the answers.
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.actions import action_of

from .marks import caught, flew
from .rulebook import OBJECT_NAMES, Rulebook, cap
from .state import HeroballState, HeroState, ObjectState, Window
from .turns import goal_check


def intercept_options(g: Rulebook, s: HeroballState, h: HeroState, w: Window) -> list[Action]:
    """How `h` may react to the object coming down on `w.target` (catch, Swat on, Predict's move)."""
    b = g.board
    d = b.dist(h.pos, w.target)
    # Lacrosse Stick, Predict and Swat work on a thrown or dropped object; a fumbled one is caught the
    # ordinary way (next to where it lands, or in your hex)
    card = None if w.fumbled else g.hero_data(h).slot("intercept")
    cost = card.cost if card else g.costs.intercept
    out: list[Action] = []
    if d == 0:
        out.append(action_of("react"))  # the object enters your hex: hold it at no cost
    if card is not None and card.effect == "swat":
        if d <= 1 and h.ap >= cost:
            out += [action_of("react", to=t) for t in g.throw_targets(w.target, card.range, exclude=w.target)]
    elif card is not None and card.effect == "long_intercept":
        if 1 <= d <= card.range and h.ap >= cost:
            out.append(action_of("react"))
    elif card is not None and card.effect == "predict":
        if d == 1 and h.ap >= cost:
            out.append(action_of("react"))
        elif 2 <= d <= card.range:
            for y in b.neighbors(h.pos):
                if g.free(s, y) and b.dist(y, w.target) <= 1 and h.ap >= g.predict_cost(s, h, y, cost):
                    out.append(action_of("react", to=y))
    elif d == 1 and h.ap >= cost:
        out.append(action_of("react"))
    return out


def launch(g: Rulebook, s: HeroballState, obj: str, target: str, thrower: str, origin: str,
           ev: list[Event], how: str = "throw", *, fumbled: bool = False) -> None:
    """`obj` is on its way from `origin` to `target` (`fumbled`: not thrown or dropped): queue who may
    intercept, then ask them."""
    act = g.active(s)
    n = len(s.heroes)
    w = Window(kind="intercept", obj=obj, target=target, origin=origin, actor=thrower, fumbled=fumbled)
    if origin != target:
        s.turn.flights.append(f"{origin}>{target}")
        flew(g, s, obj, origin, target, how, g.hero(s, thrower))
    cands = []
    for c in s.heroes:
        if c.player in (thrower, act.player) or c.down:
            continue
        opts = intercept_options(g, s, c, w)
        if not opts:
            continue
        d = g.board.dist(c.pos, target)
        tier = 0 if d == 0 else (2 if all(o.get("to") for o in opts) and g.card(c, "predict") else 1)
        cands.append(((tier, g.board.dist(c.pos, origin), (c.seat - act.seat) % n), c.player))
    w.queue = [p for _, p in sorted(cands)]
    s.window_no += 1
    s.window = w
    run_intercept(g, s, ev)


def run_intercept(g: Rulebook, s: HeroballState, ev: list[Event]) -> None:
    """Ask the next hopeful (standing orders answer at once); when nobody is left the object lands."""
    w = s.window
    if w is None or w.kind != "intercept":
        raise ValueError("no intercept window is open")
    while w.queue:
        c = g.hero(s, w.queue[0])
        opts = intercept_options(g, s, c, w)
        order = c.orders.get("intercept", "ask")
        if not opts or order == "never":
            w.queue.pop(0)
            continue
        if order == "always":
            plain = [o for o in opts if o.get("to") is None]
            pick = plain[0] if plain else (opts[0] if len(opts) == 1 else None)
            if pick is not None:
                catch(g, s, c, pick, ev)
                return
        ev.append(Event(text=f"{cap(OBJECT_NAMES[w.obj])} is coming down on {w.target}: {g.who(c)} may react.",
                        kind="window"))
        return
    s.window = None
    goal_check(g, s, ev, mover=None)  # the object lands


def catch_cost(g: Rulebook, s: HeroballState, c: HeroState, w: Window, to: str | None) -> int:
    """What `c` pays to react with `to` (None: a plain catch): nothing on the landing hex, the intercept (or
    its card) otherwise; Predict's move adds the hex it moves to."""
    card = None if w.fumbled else g.hero_data(c).slot("intercept")
    cost = card.cost if card else g.costs.intercept
    if card is not None and card.effect == "swat" and to is not None:
        return cost
    if to is not None:
        return g.predict_cost(s, c, to, cost)
    return cost if g.board.dist(c.pos, w.target) > 0 else 0


def catch(g: Rulebook, s: HeroballState, c: HeroState, a: Action, ev: list[Event]) -> None:
    """`c` intercepts: takes the object, catches it (Predict: after a 1-hex move) or swats it on."""
    w = s.window
    if w is None:
        raise ValueError("no intercept window is open")
    s.window = None
    d = g.board.dist(c.pos, w.target)
    card = None if w.fumbled else g.hero_data(c).slot("intercept")
    to = a.get("to")
    cost = catch_cost(g, s, c, w, to)
    if card is not None and card.effect == "swat" and to is not None:
        c.ap -= cost
        ev.append(Event(text=f"{g.who(c)} swats {OBJECT_NAMES[w.obj]} on to {to} (1 AP)."))
        s.objects[w.obj] = ObjectState(at=to)
        launch(g, s, w.obj, to, c.player, c.pos, ev, how="swat")
        return
    c.ap -= cost
    if to is not None:  # Gorgo's Predict: move 1 hex, then catch
        start = c.pos
        c.pos = to
        ev.append(Event(text=f"{g.who(c)} reads the play and moves {start} → {to}."))
    if c.holding:
        prev = c.holding
        s.objects[prev] = ObjectState(at=c.pos)
        ev.append(Event(text=f"{g.who(c)} lets {OBJECT_NAMES[prev]} fall on {c.pos}."))
    c.holding = w.obj
    s.objects[w.obj] = ObjectState(holder=c.player)
    caught(g, s, c, w.obj)
    verb = "catches" if d > 0 or to else "takes"
    how = f" ({cost} AP)." if d > 0 or to else " as it lands in their hex."
    ev.append(Event(text=f"{g.who(c)} {verb} {OBJECT_NAMES[w.obj]}" + how))
    goal_check(g, s, ev, mover=None)
