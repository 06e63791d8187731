"""What every dungeon phase shares: effects write sentences, and the sentences of one action become one event."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from games.core import Action, Event, Status
from games.core.phases import Phase

from ..recap import compact
from ..state import DungeonState, HeroState
from ..stats import hero


class DungeonPhase(Phase[DungeonState]):
    """A phase whose effect appends sentences to `lines`; `apply` turns them into the action's one event.

    `skips` lists, in order of preference, what a table vote to skip a player plays here (when legal).
    """

    skips: ClassVar[tuple[Action, ...]] = ()

    def act(self, game: Any, st: DungeonState, player: str, action: Action, lines: list[str]) -> None:
        raise NotImplementedError(f"phase {self.name} takes no actions")

    def apply(self, game: Any, state: DungeonState, player: str, action: Action, events: list[Event]) -> None:
        rolled_before, hidden_before = state.rng.counter, game.hidden_parts(state)
        lines: list[str] = []
        self.act(game, state, player, action, lines)
        if lines:
            kind = "monsters" if any("monsters react" in ln for ln in lines) else "info"
            # dice rolled or a face-down card drawn: no undo past this (the platform checks the same)
            changed = state.rng.counter != rolled_before or game.hidden_parts(state) != hidden_before
            # the table reads the monsters compactly; the log (`/game log` prints only details) reads every action
            # in full, also when nothing was shortened
            full, text = "\n".join(lines), compact(lines)
            events.append(Event(text=text, kind=kind, irreversible=changed, detail=full))

    def skip(self, game: Any, state: DungeonState, player: str) -> Action | None:
        legal = game.legal_actions(state, player)
        return next((a for a in self.skips if a in legal), None)


# statuses by everything they are made of (`remembered_status`), bounded
_STATUSES: dict[tuple[object, ...], Status] = {}


def remembered_status(key: tuple[object, ...], make: Callable[[], Status]) -> Status:
    """The status `make` builds, remembered by `key`, which holds everything it is made of: a phase's status is
    asked about twice an action, and building the validated `Status` cost more than the rest of the question.
    Shared between the states that ask it: callers only read a status."""
    found = _STATUSES.get(key)
    if found is None:
        if len(_STATUSES) > 4096:
            _STATUSES.clear()
        found = _STATUSES[key] = make()
    return found


def player_name(st: DungeonState, player: str) -> str:
    """How a player is named in text: the name of their first hero's seat."""
    return next((h.name for h in st.heroes if h.player == player), player)


def dedupe(actions: list[Action]) -> list[Action]:
    """The actions with repeats left out, in order (an action is its command and arguments: those are compared,
    without pydantic's hashing of the model)."""
    seen: dict[tuple[str, tuple[tuple[str, str], ...]], Action] = {}
    for a in actions:
        seen.setdefault((a.cmd, a.args), a)
    return list(seen.values())


def active_hero(st: DungeonState) -> HeroState:
    """The hero whose activation is running."""
    assert st.activation is not None
    return hero(st, st.activation.hero)


def activation_key(st: DungeonState) -> str:
    """The turn key of a running activation (undo stays within it)."""
    return f"t{st.turn}-a{st.activations}-acting"
