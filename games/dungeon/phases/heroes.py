"""Choosing who activates: every player with a hero still to activate this turn may start one.

Each hero of the party is a candidate with the reason it may not activate (`refusal`), so the legal list
and the refusal text come from one place.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core import Action, Status
from games.core.phases import Candidate
from games.core.words import says

from ..data import content, hero_id
from ..state import Activation, DungeonState, HeroState
from ..stats import hero, hero_stats, heroes_waiting, is_incap
from .base import DungeonPhase, remembered_status


class ChooseHeroPhase(DungeonPhase):
    name = "heroes"

    def status(self, game: Any, state: DungeonState) -> Status:
        names = {h.player: h.name for h in state.heroes}
        todo = list(dict.fromkeys(h.player for h in heroes_waiting(state)))
        return remembered_status(
            ("heroes", state.turn, state.activations, *((p, names[p]) for p in todo)),
            lambda: Status(phase="heroes", round=state.turn, round_name="turn", to_act=todo,
                           turn_key=f"t{state.turn}-a{state.activations}-choosing",
                           waiting_for=", ".join(names[p] for p in todo) + " to activate a hero"))

    def candidates(self, game: Any, state: DungeonState, player: str) -> Iterator[Candidate]:
        for h in state.heroes:
            yield Action.of("activate", hero=h.id), refusal(state, player, h)

    def act(self, game: Any, st: DungeonState, player: str, action: Action, lines: list[str]) -> None:
        h = hero(st, action.argdict["hero"])
        stats = hero_stats(h)
        ap = stats.ap
        if "poison" in h.debuffs:
            ap = max(1, ap - 1)
        st.activation = Activation(hero=h.id, ap=ap)
        st.activations += 1
        h.expiring = [d for d in h.debuffs if d != "knockdown"]
        h.buffs_expiring = list(h.buffs)  # house: a buff lasts until the end of the hero's next activation
        lines.append(f"{says(h.name, 'activates')} {stats.name} ({ap} AP).")

    def explain(self, game: Any, state: DungeonState, player: str, action: Action) -> str:
        if action.cmd == "activate":
            hid = hero_id(action.get("hero", "") or "")
            if hid is None:
                return "There is no such hero in the party."
            h = next((x for x in state.heroes if x.id == hid), None)
            if h is None:
                return f"{content().heroes[hid].name} is not in the party."
            why = refusal(state, player, h)
            if why is not None:
                return why
        return "First activate a hero with `activate hero:`."

    def label(self, game: Any, state: DungeonState, action: Action) -> str | None:
        if action.cmd == "activate":
            return f"Activate {content().heroes[action.argdict['hero']].name}"
        return None

    def buttons(self, game: Any, state: DungeonState, player: str, legal: list[Action]) -> list[Action]:
        return legal[:20]

    def skip(self, game: Any, state: DungeonState, player: str) -> Action | None:
        """A skipped player starts their next hero."""
        return next((a for a in game.legal_actions(state, player) if a.cmd == "activate"), None)


def refusal(st: DungeonState, player: str, h: HeroState) -> str | None:
    """Why `player` may not activate `h` now (None: they may)."""
    if h.player != player:
        return f"{hero_stats(h).name} belongs to {h.name}."
    if is_incap(h):
        return f"{hero_stats(h).name} is incapacitated and cannot activate."
    if h.activated:
        return f"{hero_stats(h).name} has already activated this turn."
    return None


def idle_reason(st: DungeonState, player: str) -> str:
    """What a player with nothing to do is told when a hero of theirs is incapacitated (instead of the plain "It is
    not your move"): who is down, how they get back up, and which of their heroes has already activated."""
    if st.phase != "heroes":
        return ""
    mine = [h for h in st.heroes if h.player == player]
    down = [hero_stats(h).name for h in mine if is_incap(h)]
    if not down or any(not is_incap(h) and not h.activated for h in mine):
        return ""
    done = [hero_stats(h).name for h in mine if not is_incap(h)]
    text = (f"{' and '.join(down)} {'is' if len(down) == 1 else 'are'} incapacitated and cannot act until a friend "
            "heals them (a heal or a heart) or the level is cleared")
    if done:
        text += f"; {' and '.join(done)} {'has' if len(done) == 1 else 'have'} already activated this turn"
    return text + "."
