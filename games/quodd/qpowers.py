"""Unique Q-powers: with the Q on top a hero may use their own Q-power instead of rearranging skills
(one or the other, once a turn). Range 7, counted orthogonally like a card's.

Built so far: the placing powers (Rok: a wall, broken wall or tunnel; Forest: a teleporter). The others
(rotate board, earthquake, bomb, copy Q-power) still offer only the shared "rearrange skills".
"""
from __future__ import annotations

from games.core import Action, Event
from games.core.grid import label

from . import data
from .board import on_map, placement_problem, xy
from .state import Hero, QState, Token

Q_RANGE = 7
PLACES: dict[str, tuple[str, ...]] = {
    "place_wall": ("wall", "broken_wall", "tunnel"),
    "place_teleporter": ("teleporter",),
}


def qpower_actions(st: QState, h: Hero) -> list[Action]:
    kinds = PLACES.get(data.heroes()[h.hero].q_power, ())
    if not kinds or h.pos is None:
        return []
    x, y = xy(h.pos)
    out: list[Action] = []
    for dy in range(-Q_RANGE, Q_RANGE + 1):
        for dx in range(-(Q_RANGE - abs(dy)), Q_RANGE - abs(dy) + 1):
            p = (x + dx, y + dy)
            if not on_map(st, p):
                continue
            out += [Action.of("qpower", at=label(*p), token=k) for k in kinds if not placement_problem(st, k, p)]
    return out


def use_qpower(st: QState, h: Hero, action: Action, ev: list[Event]) -> None:
    at, kind = action.get("at") or "", action.get("token") or ""
    st.tokens[at] = Token(kind=kind)
    ev.append(Event(text=f"{h.name} uses the Q-power {data.heroes()[h.hero].q_power.replace('_', ' ')}: "
                         f"a {data.token_kinds()[kind].name.lower()} on {at}."))


def qpower_label(action: Action) -> str:
    kind = action.get("token") or ""
    name = data.token_kinds()[kind].name if kind in data.token_kinds() else kind
    return f"Q-power: {name} on {action.get('at')}"


def explain_qpower(st: QState, h: Hero, action: Action) -> str:
    power = data.heroes()[h.hero].q_power
    kinds = PLACES.get(power)
    if kinds is None:
        name = data.heroes()[h.hero].name
        return f"{name}'s Q-power ({power.replace('_', ' ')}) is not built yet; `rearrange` works."
    if st.m.ready != "q" or st.m.q_used:
        return "A Q-power is used with the Q on top, once a turn (instead of rearranging)."
    kind, at = action.get("token") or "", (action.get("at") or "").upper()
    if kind not in kinds:
        return "Your Q-power places: " + ", ".join(f"`{k}`" for k in kinds) + " (`token:`)."
    p = xy(at) if at else None
    if p is None or not on_map(st, p) or h.pos is None:
        return f"`{at}` is not a square of the map."
    if abs(p[0] - xy(h.pos)[0]) + abs(p[1] - xy(h.pos)[1]) > Q_RANGE:
        return f"{at} is beyond range {Q_RANGE} (counted orthogonally)."
    return f"Not on {at}: {placement_problem(st, kind, p)}."
