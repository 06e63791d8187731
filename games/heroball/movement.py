"""Step, run and sprint: one hex each, in that order, once per turn; Trample on Pegasus' sprint; standing up."""
from __future__ import annotations

from games.core import Action, Event
from games.core.actions import action_of

from .attacks import attack
from .rulebook import INVULNERABLE, Rulebook, cap
from .state import HeroballState, HeroState
from .turns import goal_check, move


def base_cost(g: Rulebook, h: HeroState, kind: str) -> int:
    """The move's own cost before terrain: Trample replaces the sprint's."""
    base: int = getattr(g.costs, kind)
    card = g.sprint_card(h) if kind == "sprint" else None
    if card is not None and card.effect == "sprint_knockdown":
        base = card.cost
    return base


def move_actions(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    kind = g.next_move(h)
    if kind is None:
        return []
    base = base_cost(g, h, kind)
    card = g.sprint_card(h) if kind == "sprint" else None
    trample = card is not None and card.effect == "sprint_knockdown"
    pillars = g.board.pillars
    taken = {x.pos for x in s.heroes}  # `g.free`, for every neighbour at once
    # `g.move_cost` for every neighbour at once: terrain (none while flying), then Calypso's song
    terrain = {} if s.turn.fly and h is g.active(s) else s.terrain
    favoured, costs = g.favoured(h), g.costs
    singing = any(c is not h and "sing" in c.field for c in s.heroes)
    out = []
    for dest in g.board.neighbors(h.pos):
        if dest in pillars or dest in taken:
            continue
        t = terrain.get(dest)
        cost = base if t is None else base + (costs.favoured if t == favoured else costs.terrain)
        if singing:
            cost += g.sing_extra(s, h, dest)
        if max(0, cost) > h.ap:
            continue
        if trample:
            out += trample_options(g, s, h, dest)
        else:
            a = _ACTS.get((kind, dest))
            out.append(a if a is not None else _ACTS.setdefault((kind, dest), action_of(kind, to=dest)))
    return out


_ACTS: dict[tuple[str, str], Action] = {}  # (step/run/sprint, hex) -> `kind to:hex` (actions are shared values)


def trample_options(g: Rulebook, s: HeroballState, h: HeroState, dest: str) -> list[Action]:
    near = (g.at(s, n) for n in g.board.neighbors(dest))
    victims = [v for v in near if v is not None and v is not h and not v.down and g.targetable(v)]
    if not victims:
        return [action_of("sprint", to=dest)]
    out = []
    for v in victims:
        places = g.fumble_places(s, v, moved=(h.pos, dest)) if v.holding else []
        if places:
            out += [action_of("sprint", to=dest, target=v.hero, place=p) for p in places]
        else:
            out.append(action_of("sprint", to=dest, target=v.hero))
    return out


def explain_move(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
    to = a.get("to")
    if h.down:
        if to is not None:
            return "You are knocked down: a plain `step` stands you up; it does not move you."
        if a.cmd != "step":
            return "You are knocked down: `step` (no destination) stands you up."
        if "step" in h.spent:
            return "Your step is spent this turn: you can stand up on your next turn."
        return f"Standing up costs {g.costs.step} AP; you have {h.ap}."
    nxt = g.next_move(h)
    if a.cmd != nxt:
        if a.cmd in h.spent:
            return f"You have already used your {a.cmd} this turn (each move once per turn)."
        if nxt is None:
            return "All your movement actions are spent this turn."
        return f"You must {nxt} before you can {a.cmd} (step, then run, then sprint)."
    if to is None:
        return "Say where: `to:HEX` or `direction:`."
    if g.board.dist(h.pos, to) != 1:
        return f"{to} is not next to {h.hero} ({h.pos}); each move goes 1 hex."
    if to in g.board.pillars:
        return f"{to} holds a Pillar of Heaven; nobody can enter it."
    occ = g.at(s, to)
    if occ is not None:
        return f"{to} is occupied by {g.who(occ)}."
    base = base_cost(g, h, a.cmd)
    card = g.sprint_card(h) if a.cmd == "sprint" else None
    if card is not None and card.effect == "sprint_knockdown" and a.get("target"):
        v = next((x for x in s.heroes if x.hero == a.get("target")), None)
        if v is None or v is h or g.board.dist(v.pos, to) != 1:
            return f"Trample knocks down a hero next to {to}; {a.get('target')} is not there."
        if v.down:
            return f"{v.hero} is already knocked down."
        if not g.targetable(v):
            return INVULNERABLE
    cost = g.move_cost(s, h, base, to)
    if cost > h.ap:
        parts = cost_parts(g, s, h, base, to)
        detail = f" ({parts})" if "," in parts else ""
        return f"{cap(a.cmd)} to {to} costs {cost} AP{detail}; you have {h.ap}."
    return ""


def cost_parts(g: Rulebook, s: HeroballState, h: HeroState, base: int, dest: str) -> str:
    parts = [f"{base} for the move"]
    fly = s.turn.fly and h is g.active(s)
    t = s.terrain.get(dest)
    if t is not None and not fly:
        parts.append(f"{g.hex_cost(s, h, dest):+d} for {t}")
    sing = g.sing_extra(s, h, dest)
    if sing:
        parts.append(f"+{sing} for moving away from Calypso's song")
    return ", ".join(parts)


def move_cost(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> int:
    """What the declared step, run or sprint costs (standing up costs a step)."""
    to = a.get("to")
    if to is None:
        return g.costs.step
    return g.move_cost(s, h, base_cost(g, h, a.cmd), to)


def resolve_move(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    """Stand up, or move 1 hex; a sprint may then shift terrain (Calypso) or trample (Pegasus)."""
    cmd = a.cmd
    to = a.get("to")
    if to is None:
        h.down = False
        h.spent.append("step")
        ev.append(Event(text=f"{g.who(h)} stands up (step)."))
        return
    move(g, s, h, to, ev, verb=cmd)
    h.spent.append(cmd)
    if goal_check(g, s, ev, mover=h.player):
        return
    card = g.sprint_card(h) if cmd == "sprint" else None
    if card is not None and card.effect == "shift_terrain":
        s.turn.shift_ready = True
    if cmd in ("run", "sprint") and h.holding == "pole" and g.card(h, "pole_vault"):
        s.turn.vault_ready = True
    if card is not None and card.effect == "sprint_knockdown" and a.get("target"):
        attack(g, s, h, a, ev)

