"""Teams: picking a team in the lobby (seat option `team:`), the rest dealt in seat order at the start.

House reading: a player may name their team when joining (`/game join team:Red`); the players who leave it out
are dealt, in seat order, each to the team with the fewest heroes so far (the first such team in the scenario's
order). Every team needs two heroes or more at the start (the rulebook's teams are of two or more players).
"""
from __future__ import annotations

from collections.abc import Sequence

from games.core import IllegalAction, Seat

from ..scenarios import ScenarioDef


def team_named(sc: ScenarioDef, text: str) -> str | None:
    """The scenario's team a player named, in any case."""
    t = text.strip().casefold()
    return next((name for name in sc.teams if name.casefold() == t), None)


def check_team_choice(sc: ScenarioDef, want: str) -> None:
    """A join's `team:` must name one of the scenario's teams (and only a teams scenario has them)."""
    if not sc.teams:
        raise IllegalAction(f"{sc.name} is not played in teams, so there is no team to pick.",
                            "Join without `team:`.")
    if team_named(sc, want) is None:
        raise IllegalAction(f"{sc.name} has no team called `{want}`.", "Teams: " + ", ".join(sc.teams) + ".")


def deal_teams(sc: ScenarioDef, seats: Sequence[Seat]) -> list[str]:
    """Each seat's team: the one they picked, else the smallest team so far in seat order ("" without teams)."""
    if not sc.teams:
        return ["" for _ in seats]
    picked = [team_named(sc, s.choices.get("team", "")) for s in seats]
    size = {t: sum(1 for p in picked if p == t) for t in sc.teams}
    out: list[str] = []
    for p in picked:
        if p is None:
            p = min(sc.teams, key=lambda t: size[t])  # min keeps the first of equals: the scenario's order
            size[p] += 1
        out.append(p)
    short = [t for t in sc.teams if size[t] < 2]
    if short:
        raise IllegalAction(f"Every team needs two heroes or more; {', '.join(short)} would have fewer.",
                            "Seat more players, or pick teams again with `/game join team:`.")
    return out
