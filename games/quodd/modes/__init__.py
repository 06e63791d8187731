"""Play modes: who plays with whom (the scenario's `mode`), apart from how a scenario is won (its `objective`).

- solo: one hero against the round limit; a solo scenario seated with two or more is played as its co-op
  variant (`play_mode`).
- coop: every hero is on one side: they share the objective, win or lose together, and share cards (`coop.py`).
- ffa: every hero for themselves (the race and heist as they always were).
- teams: heroes in named teams (`teams.py`): a team wins together and its members share cards.
- overlord: the overlord alone on one side, every other hero on the other (`overlord.py`).
- buddies: each player's heroes, their own and their buddies, are one side (`buddies.py`).

A *side* is what wins or loses together: `side_of` names it, `teammates` and `same_side` answer who is on it.
"""
from __future__ import annotations

from ..state import Hero, QState

MODES = ("solo", "coop", "ffa", "teams", "overlord", "buddies")
MODE_NAMES = {"solo": "solo", "coop": "co-op", "ffa": "free-for-all", "teams": "teams", "overlord": "overlord",
              "buddies": "buddies"}
TOGETHER = ("solo", "coop")  # one side: every hero at the table
SHARING = ("coop", "teams")  # card sharing between teammates (the rulebook's co-op and team card sharing)


def play_mode(scenario_mode: str, heroes: int) -> str:
    """The game's mode from its scenario's: a solo scenario played by two or more is its co-op variant."""
    if scenario_mode == "solo" and heroes > 1:
        return "coop"
    return scenario_mode


def side_of(st: QState, h: Hero) -> str:
    """The side a hero plays for: `all` in solo and co-op, `team:<name>` in teams, `overlord` or `heroes` in overlord
    scenarios, `hero:<player>` otherwise (a buddy: its controller's side in every mode)."""
    if st.mode in TOGETHER:
        return "all"
    if st.mode == "teams" and h.team:
        return f"team:{h.team}"
    if st.mode == "overlord":  # a buddy (a character token collected) plays for its controller, the overlord's too
        lead = next((x for x in st.heroes if x.player == h.controller), h) if h.controller else h
        return "overlord" if lead.overlord else "heroes"
    return f"hero:{h.controller or h.player}"  # a buddy plays for its controller


def same_side(st: QState, a: Hero, b: Hero) -> bool:
    """Whether two heroes win or lose together (a hero is on their own side)."""
    return side_of(st, a) == side_of(st, b)


def teammates(st: QState, h: Hero) -> list[Hero]:
    """The other heroes on `h`'s side, in seat order (none in a free-for-all)."""
    return [x for x in st.heroes if x is not h and same_side(st, h, x)]


def sides(st: QState) -> dict[str, list[Hero]]:
    """Every side and its heroes, in seat order of each side's first hero."""
    out: dict[str, list[Hero]] = {}
    for h in st.heroes:
        out.setdefault(side_of(st, h), []).append(h)
    return out


def side_name(st: QState, side: str) -> str:
    """How a side reads in the result: the team's name, or its heroes' names."""
    if side.startswith("team:"):
        return f"Team {side[5:]}"
    return " and ".join(h.name for h in sides(st).get(side, []))


def shares_cards(st: QState) -> bool:
    """Whether teammates may trade cards (co-op and teams)."""
    return st.mode in SHARING
