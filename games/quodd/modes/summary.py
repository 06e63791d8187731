"""What the export summary says of the overlord, buddies, the B-side and multi-part scenarios (only where they
are in play, so other games' summaries stay as they were)."""
from __future__ import annotations

from typing import Any

from ..state import Hero, QState
from .bside import faces_text


def mode_fields(h: Hero) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if h.overlord:
        out["overlord"] = True
    if h.controller:
        out["buddy_of"] = h.controller
    if h.faces:
        out["faces"] = faces_text(h)
    return out


def game_fields(st: QState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if st.board == "b":
        out["board"] = "b"
    if st.part:
        out["part"] = st.part
    if any(h.overlord for h in st.heroes):
        out["overlord_target"] = st.overlord_target
        out["overlord_deck"] = len(st.overlord_deck)
    return out
