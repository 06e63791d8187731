"""End of the round, step 4: every hero with a tile left takes one upgrade at once (`upgrade tile: side:`),
then the first player coin passes and the next round begins."""
from __future__ import annotations

from typing import Any

from games.core import Action, Event, Status

from ..board import hero_of
from ..skills import LABEL_MAX
from ..state import QState
from ..turns import next_round
from ..upgrades import can_upgrade, explain_upgrade, take_upgrade, upgrade_actions, upgrade_label
from .base import BUTTON_CAP, PHASE_NAMES, Buttons, QuoddPhase


def choosing(st: QState) -> list[str]:
    return [h.player for h in st.heroes if h.player not in st.ready and can_upgrade(h, st.board)]


class UpgradePhase(QuoddPhase):
    name = "upgrade"

    def status(self, game: Any, state: QState) -> Status:
        waiting = choosing(state)
        names = ", ".join(hero_of(state, p).name for p in waiting)
        return Status(phase=PHASE_NAMES["upgrade"], round=state.round, to_act=waiting, turn_key=f"up{state.round}",
                      waiting_for=f"{names} to take an upgrade tile (`upgrade tile: side:"
                                  f"{' face:' if state.board == 'b' else ''}`)")

    def legal(self, game: Any, state: QState, player: str) -> list[Action]:
        if player not in choosing(state):
            return []
        return upgrade_actions(hero_of(state, player), state.board)

    def apply(self, game: Any, state: QState, player: str, action: Action, events: list[Event]) -> None:
        take_upgrade(state, hero_of(state, player), action, events)
        state.ready.append(player)
        if not choosing(state):
            next_round(state, events)

    def skip(self, game: Any, state: QState, player: str) -> Action | None:
        """A skipped player takes the first side of their left-most tile that needs no skill named."""
        legal = self.legal(game, state, player)
        plain = [a for a in legal if not a.get("skill")]
        if plain:
            return plain[0]
        return legal[0] if legal else None

    def explain_own(self, game: Any, state: QState, player: str, action: Action) -> str:
        if action.cmd == "upgrade":
            if player not in [h.player for h in state.heroes]:
                return "Only seated players take upgrades."
            if player in state.ready:
                return "You already took your upgrade this round."
            return explain_upgrade(hero_of(state, player), action, state.board)
        return f"The round is ending: every hero takes an upgrade tile first (`upgrade`), not `{action.cmd}`."

    def label_for(self, game: Any, state: QState, action: Action, player: str) -> str | None:
        if action.cmd == "upgrade" and player in choosing(state):
            return upgrade_label(state, hero_of(state, player), action)
        return None

    def label(self, game: Any, state: QState, action: Action) -> str | None:
        """An upgrade button says what it gives: for its owner's hero when the caller names the owner
        (`label_for`); else what it gives each hero choosing now who may take it, by name when they differ
        ("Tile 1A: +1 movement for you, Crush for bob"), so no choosing player is left guessing."""
        if action.cmd != "upgrade":
            return super().label(game, state, action)
        who = choosing(state)
        takers = [h for h in state.heroes if h.player in who and action in upgrade_actions(h, state.board)]
        texts = [upgrade_label(state, h, action) for h in takers]
        if not texts or len(set(texts)) == 1 and len(takers) == len(who):
            return texts[0] if texts else None  # the same for everyone choosing
        head = texts[0].split(": ", 1)[0]
        whose: dict[str, list[str]] = {}  # each effect and the heroes it is for, in seat order
        for h, t in zip(takers, texts, strict=True):
            whose.setdefault(t.split(": ", 1)[1], []).append(h.name)
        whole = head + ": " + ", ".join(f"{e} for {' and '.join(names)}" for e, names in whose.items())
        return whole if len(whole) <= LABEL_MAX else f"{head}: differs by hero (/rules topic:upgrades)"

    def buttons(self, game: Any, state: QState, player: str, legal: list[Action]) -> list[Action]:
        """Each choosing player gets a share of the 20: non-gold sides first (gold ones name a skill each)."""
        b = Buttons(legal)
        share = max(1, BUTTON_CAP // max(1, len(choosing(state))))
        b.add([a for a in legal if not a.get("skill")], share)
        b.add(legal, share - len(b.out))
        return b.out
