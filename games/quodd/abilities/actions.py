"""Abilities used with `/quodd ability name:` on your own turn in phase 1 or 3 ("non-movement upgrades are
generally activated during phase 1 or 3"): what each may target, its cost (a card, two cards, a crystal),
its effect, its button label and why a try is refused.

Effects that move heroes queue movement jobs (slides with `by` = the user, who decides what the board
does to them); the phase runs the queue (`phases/base.py`).
"""
from __future__ import annotations

from itertools import combinations

from games.core import Action, Event
from games.core.grid import DIRS4, DIRS8, label
from games.core.words import possessive, says

from .. import data
from ..board import active, can_enter, hero_of, in_range, on_map, squares, token, xy
from ..cube import SKILL_FACES, spin
from ..deck import can_draw, card_name, wipe_lineup
from ..dice import apply_roll, roll_or_ask
from ..elements import explode
from ..modes.bside import face_abilities
from ..state import Hero, Job, QState
from ..sweep import sweep
from .track import abilities_of, mark, name, used

ACTIONS = ("mind-push", "twister", "good-aim", "timely-removal", "timely-trades", "crystal-bomb", "swap-skills",
           "random-wind", "strong-wind", "wipe-the-lineup")
ONE_CARD = ("mind-push", "twister", "good-aim", "timely-trades")
PAID = ONE_CARD + ("timely-removal",)  # paid with cards: on the B-side the face's activation pays, once a turn
PHASES = ("power", "recovery")
AIM_RANGE, BOMB_RANGE = 5, 4


def _others(st: QState, h: Hero) -> list[Hero]:
    return [o for o in st.heroes if o.player != h.player and o.pos is not None]


def _aim_targets(st: QState, h: Hero) -> list[str]:
    """Good Aim: squares within range 5 holding a token that is not a scenario token (a wall breaks)."""
    if h.pos is None:
        return []
    reach = in_range(st, xy(h.pos), AIM_RANGE)  # counted around beams
    out = []
    for q in squares(st):
        if q not in reach:  # the range first: a token lookup for every square of the map was most of phase 1
            continue
        t = token(st, q)
        if t is not None and not data.token_kinds()[t.kind].scenario and not t.hidden:
            out.append(label(*q))
    return out


def _removal_targets(st: QState, h: Hero) -> list[tuple[str, str]]:
    return [(o.player, c) for o in st.heroes if o.player != h.player for c in dict.fromkeys(o.items + o.pets)]


def _card_pairs(h: Hero) -> list[tuple[str, str]]:
    pairs = set(combinations(sorted(h.hand), 2))
    return sorted(pairs)


def _paid(h: Hero) -> list[dict[str, str]]:
    """The card arguments of an ability paid with one card; on the B-side none: activating the face paid it."""
    return [{}] if h.faces else [{"card": c} for c in dict.fromkeys(h.hand)]


def _plays(st: QState, h: Hero, ab: str) -> list[Action]:
    cards = _paid(h)
    if ab == "mind-push":
        return [Action.of("ability", name=ab, hero=o.player, direction=d, **c) for o in _others(st, h)
                for d in DIRS4 if can_enter(st, o, xy(o.pos or ""), d) for c in cards]
    if ab == "twister":
        return [Action.of("ability", name=ab, spin=s, **c) for s in ("cw", "ccw") for c in cards]
    if ab == "good-aim":
        return [Action.of("ability", name=ab, at=t, **c) for t in _aim_targets(st, h) for c in cards]
    if ab == "timely-trades":
        return [Action.of("ability", name=ab, **c) for c in cards]
    if ab == "timely-removal":
        pairs = [{}] if h.faces else [{"card": a, "card2": b} for a, b in _card_pairs(h)]
        return [Action.of("ability", name=ab, hero=p, target=t, **c) for p, t in _removal_targets(st, h)
                for c in pairs]
    if ab == "crystal-bomb":
        return [Action.of("ability", name=ab, item=i) for i in sorted(set(h.carrying)) if "crystal" in i]
    if ab == "swap-skills":
        return [Action.of("ability", name=ab, hero=o.player, faces=f"{a} {b}") for o in st.heroes
                if o.player != h.player for a, b in combinations(SKILL_FACES, 2)]
    if ab == "strong-wind":
        return [Action.of("ability", name=ab, direction=d) for d in DIRS8]
    if ab == "wipe-the-lineup" and not can_draw(st):
        return []
    return [Action.of("ability", name=ab)]


def when_problem(st: QState, h: Hero, ab: str) -> str:
    """Why `h` cannot use `ab` now, whatever its arguments ("" if it can)."""
    asleep = face_abilities(h).get(ab, "") if h.faces else ""
    if asleep and ab not in abilities_of(h):
        what = "a Q-power is used" if asleep == "q" else f"its skill ({h.skills.get(asleep, '')}) is used"
        return (f"{name(ab)} sits on your {asleep} face (board B-side): it works once {what}, until your next "
                "turn begins")
    if ab not in abilities_of(h):
        mine = [name(a) for a in abilities_of(h)]
        return f"{name(ab)} is not on your upgrade track" + (f" (yours: {', '.join(mine)})" if mine else "")
    when = data.abilities()[ab].when
    if when in ("passive", "trigger"):
        return f"{name(ab)} is not used with a command: it works by itself ({data.abilities()[ab].text})"
    if when == "movement":
        return f"{name(ab)} is used in your own movement phase"
    if active(st).player != h.player or st.phase not in PHASES or st.pending is not None:
        return f"{name(ab)} is used on your own turn, in phase 1 or 3"
    if (data.abilities()[ab].limit == "turn" or h.faces and ab in PAID) and used(st, ab):
        why = " (board B-side: activating its face pays for one use)" if h.faces and ab in PAID else ""
        return f"{name(ab)} works once a turn{why}, and you used it this turn"
    return ""


def ability_actions(st: QState, h: Hero) -> list[Action]:
    out: list[Action] = []
    for ab in dict.fromkeys(abilities_of(h)):
        if ab in ACTIONS and not when_problem(st, h, ab):
            out += _plays(st, h, ab)
    return out


def _pay(st: QState, h: Hero, cards: list[str], ab: str, ev: list[Event]) -> None:
    for c in cards:
        h.hand.remove(c)
        st.discard.append(c)
    if cards:
        ev.append(Event(text=f"{says(h.name, 'discards')} {', '.join(card_name(c) for c in cards)} for {name(ab)}."))


def use_ability(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    """The action is legal; heroes to move are queued, the phase runs the queue."""
    ab = action.get("name") or ""
    a = action.argdict
    mark(st, ab)
    ev.append(Event(text=f"{says(h.name, 'uses')} {name(ab)}."))
    _pay(st, h, [c for c in (a.get("card"), a.get("card2")) if c], ab, ev)
    if ab == "mind-push":
        o = hero_of(st, a["hero"])
        st.queue += [Job(kind="step", hero=o.player, dir=a["direction"], how="mind", by=h.player),
                     Job(kind="land", hero=o.player, by=h.player)]
    elif ab == "twister":
        for o in _others(st, h):
            o.head, o.front = spin(o.head, o.front, a["spin"] == "cw")
        way = "clockwise" if a["spin"] == "cw" else "counter-clockwise"
        ev.append(Event(text=f"Every other hero spins a quarter turn {way}."))
    elif ab == "good-aim":
        t = st.tokens[a["at"]]
        if t.kind == "wall":
            st.tokens[a["at"]] = t.model_copy(update={"kind": "broken_wall"})  # tokens are frozen
            ev.append(Event(text=f"The wall on {a['at']} breaks."))
        else:
            del st.tokens[a["at"]]
            ev.append(Event(text=f"The {data.token_kinds()[t.kind].name.lower()} on {a['at']} is destroyed."))
    elif ab == "timely-trades":
        h.explores_earned += 1
        ev.append(Event(text=f"{h.name} will explore 1 more card in phase 4."))
    elif ab == "timely-removal":
        o = hero_of(st, a["hero"])
        (o.items if a["target"] in o.items else o.pets).remove(a["target"])
        st.discard.append(a["target"])
        ev.append(Event(text=f"{possessive(o.name)} {card_name(a['target'])} goes to the discard pile."))
    elif ab == "crystal-bomb":
        _crystal_bomb(st, h, a["item"], ev)
    elif ab == "swap-skills":
        o = hero_of(st, a["hero"])
        f1, f2 = a["faces"].split()
        o.skills[f1], o.skills[f2] = o.skills[f2], o.skills[f1]
        ev.append(Event(text=f"{possessive(o.name)} {f1} and {f2} skills swap: "
                             f"{f1} {o.skills[f1]}, {f2} {o.skills[f2]}."))
    elif ab == "random-wind":  # the winds of the world events (`sweep`): furthest first, pushing as slides do
        d = roll_or_ask(st, h, "wind", ev)  # Re-roll a Die may ask first (`dice`)
        if d is not None:
            apply_roll(st, h, "wind", d, ev)
    elif ab == "strong-wind":
        ev.append(Event(text=f"Every hero slides 2 spaces {a['direction']}."))
        sweep(st, "wind", a["direction"], 2, ev, split=False)
    elif ab == "wipe-the-lineup":
        wipe_lineup(st, ev)


def _crystal_bomb(st: QState, h: Hero, item: str, ev: list[Event]) -> None:
    """The crystal is destroyed; tokens (not scenario ones) within range 4 go, walls break into broken walls;
    the heroes next to `h` are thrown as by a basic explosion."""
    assert h.pos is not None
    h.carrying.remove(item)
    c = xy(h.pos)
    ev.append(Event(text=f"{says(h.name, 'shatters')} a {item.replace('-', ' ')}: a crystal bomb!"))
    explode(st, c, ev)
    kinds = data.token_kinds()
    reach = in_range(st, c, BOMB_RANGE)  # counted around beams
    for q in squares(st):
        t = token(st, q)
        if t is None or not 2 <= reach.get(q, 0) or kinds[t.kind].scenario or not on_map(st, q):
            continue
        if t.kind == "wall":
            st.tokens[label(*q)] = t.model_copy(update={"kind": "broken_wall"})  # tokens are frozen
        else:
            del st.tokens[label(*q)]


def ability_label(st: QState, action: Action) -> str:
    a = action.argdict
    ab = a.get("name", "")
    if ab not in data.abilities():
        return ab
    text = name(ab)
    who = hero_of(st, a["hero"]).name if a.get("hero") in {o.player for o in st.heroes} else ""
    if ab == "mind-push":
        text += f" {who} {a.get('direction', '')}"
    elif ab == "twister":
        text += " ↻" if a.get("spin") == "cw" else " ↺"
    elif ab in ("good-aim", "teleport-skill"):
        text += f" {a.get('at', '')}"
    elif ab == "timely-removal":
        text += f": {possessive(who)} {card_name(a.get('target', ''))}" if a.get("target") in data.cards() else ""
    elif ab == "swap-skills":
        text += f": {who} {a.get('faces', '').replace(' ', '/')}"
    elif ab == "strong-wind":
        text += f" {a.get('direction', '')}"
    elif ab in ("wall-builder", "trench-digger"):
        text += " on"
    paid = [card_name(c) for c in (a.get("card"), a.get("card2")) if c in data.cards()]
    return text + (f" (discard {', '.join(paid)})" if paid else "")


def explain_args(legal: list[Action], action: Action) -> str:
    """Which argument of `action` no legal use of the same ability matches, and what it may be."""
    a = action.argdict
    keys = [k for k in ("hero", "direction", "spin", "at", "target", "faces", "item", "card", "card2")
            if any(k in x.argdict for x in legal)]
    for k in keys:
        fits = [x for x in legal if x.get(k) == a.get(k)]
        if not fits:
            values = list(dict.fromkeys(x.get(k) or "" for x in legal))
            shown = ", ".join(f"`{v}`" for v in values[:12]) + (" ..." if len(values) > 12 else "")
            return f"`{k}:` must be one of {shown}" + (f" (not `{a[k]}`)" if a.get(k) else "")
        legal = fits
    return ""


def explain_ability(st: QState, h: Hero, action: Action) -> str:
    ab = action.get("name") or ""
    if ab not in data.abilities():
        mine = ", ".join(f"`{x}`" for x in dict.fromkeys(abilities_of(h))) or "none yet"
        return f"There is no ability `{ab}`. Yours: {mine}."
    why = when_problem(st, h, ab)
    if why:
        return why[0].upper() + why[1:] + "."
    legal = _plays(st, h, ab)
    if not legal:
        return f"{name(ab)} has nothing to work on now: {data.abilities()[ab].text}"
    return explain_args(legal, action) + "." if explain_args(legal, action) else ""
