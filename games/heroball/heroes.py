"""Hero actions (`/heroball hero action:WORD`): the cards that add an action of their own.

Pummel, Sing, Shifting Land, Fly, Redecorate (lift, then `set`), Study Opponent (Distract's other
side), Pole Vault and Winged Sandals. Cards that change another slot (Predict, Kick, Trample,
Swat, Lacrosse Stick, Invulnerable, Mirror Shield, Distract) live with the action they change.
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.actions import action_of

from .attacks import attack, target_reason
from .data import Card
from .flights import launch
from .rulebook import OBJECT_NAMES, Rulebook, arg, cap
from .state import HeroballState, HeroState, ObjectState
from .turns import goal_check, move

# the word a player types -> the card effect it uses
HERO_WORDS = {"pummel": "knockdown_adjacent", "sing": "sing", "shift": "shift_terrain", "fly": "fly",
              "redecorate": "redecorate", "set": "redecorate", "study": "distract", "vault": "pole_vault",
              "sandals": "sandals"}
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def hero_words(g: Rulebook, h: HeroState) -> list[str]:
    effects = {c.effect for c in g.hero_data(h).cards}
    return [w for w, e in HERO_WORDS.items() if e in effects]


def word_card(g: Rulebook, h: HeroState, word: str) -> Card:
    card = g.card(h, HERO_WORDS[word])
    if card is None:
        raise KeyError(f"{h.hero} has no card for `{word}`")
    return card


# ---- legal hero actions ----------------------------------------------------------------------
def hero_actions(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    out: list[Action] = []
    unique_spent = "unique" in h.spent
    for card in g.hero_data(h).cards:
        e = card.effect
        if e == "knockdown_adjacent" and not unique_spent and h.ap >= card.cost:
            out += _pummels(g, s, h)
        elif e == "sing" and not unique_spent and "sing" not in h.field and h.ap >= card.cost:
            out.append(action_of("hero", action="sing"))
        elif (e == "shift_terrain" and s.turn.shift_ready and s.terrain.get(h.pos) == g.favoured(h)
              and h.ap >= card.cost):
            out += _shifts(g, s, h)
        elif e == "fly" and "fly" not in h.flipped and not s.turn.fly:
            out.append(action_of("hero", action="fly"))
        elif e == "redecorate" and h.ap >= card.cost:
            if h.tile is None:
                out += [action_of("hero", action="redecorate", to=n) for n in g.board.neighbors(h.pos)
                        if n in s.terrain]
            else:
                out += [action_of("hero", action="set", to=t) for t in g.free_tile_hexes(s)]
        elif e == "distract" and "distract" in h.flipped and h.ap >= card.cost:
            out.append(action_of("hero", action="study"))
        elif e == "pole_vault" and s.turn.vault_ready and h.holding == "pole":
            out += _vaults(g, s, h, card)
        elif e == "sandals" and not unique_spent:
            out += _sandal_flights(g, s, h, card)
    return out


def _pummels(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    out: list[Action] = []
    for v in g.opponents_adjacent(s, h):
        if v.down:
            continue
        places = g.fumble_places(s, v) if v.holding else []
        if places:
            out += [action_of("hero", action="pummel", target=v.hero, place=p) for p in places]
        else:
            out.append(action_of("hero", action="pummel", target=v.hero))
    return out


def _shifts(g: Rulebook, s: HeroballState, h: HeroState) -> list[Action]:
    out: list[Action] = []
    for t in g.board.neighbors(h.pos):
        if g.tile_hex(s, t):
            continue
        occupant = g.at(s, t)
        loose = [o for o, st in s.objects.items() if st.holder is None and st.at == t]
        if occupant is None and not loose:
            out.append(action_of("hero", action="shift", to=t))
        else:
            out += [action_of("hero", action="shift", to=t, place=p) for p in g.board.neighbors(t) if g.free(s, p)]
    return out


def _vaults(g: Rulebook, s: HeroballState, h: HeroState, card: Card) -> list[Action]:
    b = g.board
    out: list[Action] = []
    for t in b.within(h.pos, 1, card.range):
        if not g.free(s, t):
            continue
        if b.dist(t, h.pos) == 2 and not any(m not in b.pillars for m in b.neighbors(h.pos) if b.dist(m, t) == 1):
            continue
        if card.cost + g.sing_extra(s, h, t) > h.ap:  # Calypso's song also holds back a vault
            continue
        out.append(action_of("hero", action="vault", to=t))
    return out


def _sandal_flights(g: Rulebook, s: HeroballState, h: HeroState, card: Card) -> list[Action]:
    out: list[Action] = []
    for d in DIRECTIONS:
        mid, t = g.board.toward(h.pos, d, 1), g.board.toward(h.pos, d, 2)
        if mid is None or t is None or mid in g.board.pillars or not g.free(s, t):
            continue
        if g.move_cost(s, h, card.cost, t) <= h.ap:
            out.append(action_of("hero", action="sandals", to=t))
    return out


# ---- why not ---------------------------------------------------------------------------------
def explain_hero(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> str:
    act = a.get("action")
    words = hero_words(g, h)
    if act is None or act not in words:
        have = ", ".join(f"`{w}`" for w in words) or "none (their cards change other slots)"
        return f"{h.hero}'s hero actions: {have}."
    card = word_card(g, h, act)
    if card.slot == "unique" and "unique" in h.spent and act not in ("set", "study", "vault", "fly"):
        return f"{card.name} is spent until your next turn."
    why = _WHY[act](g, s, h, a, card) if act in _WHY else None
    if why is not None:
        return why
    if card.cost > h.ap:
        return f"{card.name} costs {card.cost} AP; you have {h.ap}."
    return ""


def _why_fly(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    if "fly" in h.flipped:
        return "Fly shows its Feed side: rest (spend no AP) on Astral-Turf to turn it back."
    return "Fly is already active this turn."


def _why_sing(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    return "Sing is already in the field until your next turn." if "sing" in h.field else None


def _why_study(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    if "distract" not in h.flipped:
        return "Study Opponent is only there after Distract was used."
    return f"Study Opponent costs {card.cost} AP; you have {h.ap}."


def _why_vault(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    if h.holding != "pole":
        return "Pole Vault needs Achilles to hold the pole."
    if not s.turn.vault_ready:
        return "Pole Vault comes right after a run or sprint, before any other action."
    to = a.get("to")
    if to is not None:
        if not g.free(s, to):
            return f"{to} is blocked: Achilles must land on a free hex."
        if g.board.dist(to, h.pos) > card.range:
            return f"{to} is more than {card.range} hexes away."
        cost = card.cost + g.sing_extra(s, h, to)
        if cost > h.ap:
            return f"Vaulting away from Calypso's song costs {cost} AP; you have {h.ap}."
    return ""


def _why_shift(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    if not s.turn.shift_ready:
        return "Shifting Land comes after you sprint this turn."
    if s.terrain.get(h.pos) != g.favoured(h):
        return f"Shifting Land needs you to stand on your favoured terrain ({g.favoured(h)})."
    to = a.get("to")
    if to is not None and (g.board.dist(to, h.pos) != 1 or g.tile_hex(s, to)):
        return f"The terrain slides 1 hex onto a bare hex without a tile; {to} is not one."
    return None


def _why_redecorate(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    act = a.get("action")
    to = a.get("to")
    if act == "redecorate" and h.tile is not None:
        return f"Redecorate already holds {h.tile}: use `hero action:set to:HEX` to put it down."
    if act == "set" and h.tile is None:
        return "There is no terrain on Redecorate yet: lift an adjacent one first (`hero action:redecorate`)."
    if act == "redecorate" and to is not None and (to not in s.terrain or g.board.dist(to, h.pos) != 1):
        return f"Redecorate lifts terrain from a hex next to you; {to} has none or is not adjacent."
    if act == "set" and to is not None and (g.tile_hex(s, to) or g.at(s, to) is not None):
        return f"{to} is not a free bare hex."
    return None


def _why_pummel(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    v, why = target_reason(g, s, h, a)
    if v is None:
        return why
    if v.down:
        return f"{v.hero} is already knocked down."
    return None


def _why_sandals(g: Rulebook, s: HeroballState, h: HeroState, a: Action, card: Card) -> str | None:
    to = a.get("to")
    if to is None:
        return None
    if g.board.direction(h.pos, to) is None or g.board.dist(h.pos, to) != 2:
        return "Winged Sandals fly exactly 2 hexes in a straight line."
    if not g.free(s, to):
        return f"{to} is not a free hex to land on."
    cost = g.move_cost(s, h, card.cost, to)
    if cost > h.ap:
        return f"That flight costs {cost} AP; you have {h.ap}."
    return None


_WHY = {"fly": _why_fly, "sing": _why_sing, "study": _why_study, "vault": _why_vault, "shift": _why_shift,
        "redecorate": _why_redecorate, "set": _why_redecorate, "pummel": _why_pummel, "sandals": _why_sandals}


# ---- cost and effect -------------------------------------------------------------------------
def hero_cost(g: Rulebook, s: HeroballState, h: HeroState, a: Action) -> int:
    act = arg(a, "action")
    card = word_card(g, h, act)
    if act == "sandals":
        return g.move_cost(s, h, card.cost, arg(a, "to"))
    if act == "vault":
        return card.cost + g.sing_extra(s, h, arg(a, "to"))
    return card.cost


def hero_action(g: Rulebook, s: HeroballState, h: HeroState, a: Action, ev: list[Event]) -> None:
    act = arg(a, "action")
    if act == "pummel":
        attack(g, s, h, a, ev)
    elif act == "sing":
        h.field.append("sing")
        ev.append(Event(text=f"{g.who(h)} sings: heroes within 2 hexes pay 1 more AP to move away from her "
                             "until her next turn."))
    elif act == "shift":
        _shift(g, s, h, arg(a, "to"), a.get("place"), ev)
    elif act == "fly":
        s.turn.fly = True
        h.flipped.append("fly")
        ev.append(Event(text=f"{g.who(h)} takes wing: terrain costs nothing this turn, "
                             "favoured terrain included (Fly turns to Feed on the sprint slot)."))
    elif act == "redecorate":
        to = arg(a, "to")
        h.tile = s.terrain.pop(to)
        h.flipped.append("redecorate")
        ev.append(Event(text=f"{g.who(h)} lifts the {h.tile} terrain off {to}."))
    elif act == "set":
        to = arg(a, "to")
        if h.tile is None:
            raise ValueError("Redecorate holds no terrain")
        s.terrain[to] = h.tile
        ev.append(Event(text=f"{g.who(h)} sets the {h.tile} terrain down on {to}."))
        h.tile = None
        h.flipped.remove("redecorate")
    elif act == "study":
        h.flipped.remove("distract")
        ev.append(Event(text=f"{g.who(h)} studies her opponents: Distract is ready again."))
    elif act == "vault":
        start = h.pos
        h.holding = None
        s.objects["pole"] = ObjectState(at=start)
        move(g, s, h, arg(a, "to"), ev, verb="vaults")
        s.turn.vault_ready = False
        launch(g, s, "pole", start, h.player, start, ev, how="drop")
    elif act == "sandals":
        h.spent.append("unique")
        move(g, s, h, arg(a, "to"), ev, verb="flies")
        goal_check(g, s, ev, mover=h.player)


def _shift(g: Rulebook, s: HeroballState, h: HeroState, to: str, place: str | None, ev: list[Event]) -> None:
    """Shifting Land: the favoured terrain under Calypso slides 1 hex; whatever stood there moves aside."""
    kind = s.terrain.pop(h.pos)
    s.terrain[to] = kind
    ev.append(Event(text=f"{g.who(h)} shifts the {kind} from {h.pos} to {to}."))
    if place:
        occ = g.at(s, to)
        if occ is not None:
            occ.pos = place
            ev.append(Event(text=f"{g.who(occ)} is moved aside to {place}."))
        for o, st in s.objects.items():
            if st.holder is None and st.at == to:
                st.at = place
                ev.append(Event(text=f"{cap(OBJECT_NAMES[o])} is moved aside to {place}."))
        goal_check(g, s, ev, mover=None)
