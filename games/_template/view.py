"""What players may see: the public view (drawn by `render/<id>` if the game has a renderer), private texts, export.

The public view carries no hidden information: the conformance test checks that no line of
any player's `private_text` appears in it.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .state import CountState


class PublicView(BaseModel):
    names: list[str]
    totals: list[int]  # scored points only: the secret bonuses stay out
    active: int
    round: int


def view(s: CountState, player: str | None) -> PublicView:
    """The same for everyone here; a game with hands would add the viewer's own cards for `player`."""
    return PublicView(names=s.names, totals=s.totals, active=s.active, round=s.round)


def private_text(s: CountState, player: str) -> str:
    """`/game hand`: the player's secret bonus (empty for a spectator)."""
    return f"Your secret bonus: {s.secrets[s.players.index(player)]}" if player in s.players else ""


def summary(s: CountState) -> dict[str, Any]:
    """The export's per-player fields (`hero` and `position` are shared keys; this game has neither)."""
    return {"players": [{"name": n, "hero": None, "position": None, "total": t}
                        for n, t in zip(s.names, s.totals, strict=True)]}
