"""Between levels: every player equips and drops freely (any card on the floor), then says `ready`."""
from __future__ import annotations

from typing import Any

from games.core import Action, Status
from games.core.words import says

from .. import loot
from ..data import content
from ..state import DungeonState
from ..stats import hero
from ..turns import new_turn
from .base import DungeonPhase, dedupe, player_name

READY = Action.of("ready")


class IntermissionPhase(DungeonPhase):
    name = "intermission"
    skips = (READY,)

    def status(self, game: Any, state: DungeonState) -> Status:
        names = {h.player: h.name for h in state.heroes}
        todo = [p for p in dict.fromkeys(h.player for h in state.heroes) if p not in state.ready]
        return Status(phase="intermission", round=state.turn, round_name="turn", to_act=todo,
                      turn_key=f"t{state.turn}-l{state.level}-break",
                      waiting_for=", ".join(names[p] for p in todo) + " to equip, drop and `ready`")

    def legal(self, game: Any, state: DungeonState, player: str) -> list[Action]:
        if player in state.ready or player not in {h.player for h in state.heroes}:
            return []
        out = []
        for h in state.heroes:
            if h.player != player:
                continue
            for fc in state.floor:
                if loot.can_carry(h, fc.card):
                    out.append(Action.of("equip", card=fc.card, hero=h.id))
            for cid in h.equipment:
                out.append(Action.of("drop", card=cid, hero=h.id))
        out.append(READY)
        return dedupe(out)

    def act(self, game: Any, st: DungeonState, player: str, action: Action, lines: list[str]) -> None:
        a = action.argdict
        if action.cmd == "ready":
            st.ready.append(player)
            lines.append(f"{says(player_name(st, player), 'is ready')}.")
            if all(p in st.ready for p in {h.player for h in st.heroes}):
                st.phase = "heroes"
                st.ready = []
                new_turn(st, lines)
        elif action.cmd == "equip":
            loot.equip(st, hero(st, a["hero"]), a["card"], lines)
        elif action.cmd == "drop":
            loot.drop(st, hero(st, a["hero"]), a["card"], lines)

    def explain(self, game: Any, state: DungeonState, player: str, action: Action) -> str:
        return "Between levels you may only equip, drop or `ready`."

    def label(self, game: Any, state: DungeonState, action: Action) -> str | None:
        a = action.argdict
        if action.cmd in ("equip", "drop"):
            card = content().cards[a["card"]].name
            if a.get("hero") in content().heroes:
                return f"{content().heroes[a['hero']].name}: {action.cmd} {card}"
            return f"{action.cmd.title()} {card}"
        if action.cmd == "ready":
            return "Ready"
        return None

    def buttons(self, game: Any, state: DungeonState, player: str, legal: list[Action]) -> list[Action]:
        if len(legal) <= 20:
            return legal
        return [a for a in legal if a.cmd == "equip"][:19] + [a for a in legal if a.cmd == "ready"]
