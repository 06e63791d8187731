"""A game as a table of phases: each phase owns its legal actions, their effect and the words about them.

The state names its phase (`PhasedGame.phase_of`); the engine declares `phases`, a table from
phase name to a `Phase` object, as boardgame.io's `phases` and Rally the Troops' `states` do.
Every contract hook (`status`, `legal_actions`, `apply`, `explain`, `label`, `button_actions`,
`timeout`, `skip_action`) is dispatched here once, so a phase module writes only what it has and
a rule lives in one file.

Off-turn decisions (a reaction window, a mid-move choice) are a `Pending` the phase derives
from the state: who decides, what they are asked, how long it waits and what expiry does.
The status line, the timeout and the skip action follow from it.

Actions that are legal in every phase (standing orders, player settings) are the engine's
`common_actions` / `apply_common`; they bypass the phase table.

A move nobody has to choose plays itself (`forced_action`, played by the table right after the move
or start that led to it, logged under its player and said in the reply). It is forced when the
phase's legal list for the player holds exactly one action, whatever its arguments (a lone `end`,
the last hero left to activate, the one free start space, a mid-move choice with one answer), and
  - it is a plain pass, end or done; or
  - the player is the only one the game waits for: while others may act too, when to make even a
    lone move is a choice (in the dungeon the order of activations matters, and another player's
    move may open new options, a card dropped on the floor between levels).
This is sound because legality is membership (`games.core.play.resolve` refuses whatever the list
lacks): the list is every move the player could make, including moves with free-text or numeric
arguments, so one entry means one option. What the list leaves out is not a move of this phase:
every-phase settings (`common_actions`), table commands (`/game undo`, `/game concede`), previews.
A lone answer that declines (a bare `pass` in a reaction window) plays itself like any other; an
answer that could be refused always comes with its refusal (`pass`, `keep`, `heart use:none`), so
it is never alone. `/game undo` takes a forced move back with the move that led to it.
"""
from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel
from pydantic_core import SchemaValidator

from .actions import Action
from .contract import Event, Game, Status
from .pending import Pending
from .statecopy import Retype, compile_copier

S = TypeVar("S", bound=BaseModel)
Candidate = tuple[Action, str | None]  # an action and why it is refused (None: it is legal)


class Phase(Generic[S]):
    """One state of a game's flow. Subclasses override what they have; the defaults are the contract's.

    A phase may instead yield `candidates`: every action a player might try here, each with the
    reason it is refused (None when legal). Then the legal list and the refusal come from one
    source and cannot drift apart.
    """

    name: ClassVar[str] = ""

    def status(self, game: Any, state: S) -> Status:
        pending = self.pending(game, state)
        if pending is None:
            raise NotImplementedError(f"phase {self.name} must define status or pending")
        return pending.status()

    def pending(self, game: Any, state: S) -> Pending | None:
        """The off-turn decision this phase waits for, if any."""
        return None

    def candidates(self, game: Any, state: S, player: str) -> Iterable[Candidate]:
        return ()

    def legal(self, game: Any, state: S, player: str) -> list[Action]:
        return [a for a, why in self.candidates(game, state, player) if why is None]

    def apply(self, game: Any, state: S, player: str, action: Action, events: list[Event]) -> None:
        """Change `state` (a private copy) in place and append what happened."""
        raise NotImplementedError(f"phase {self.name} takes no actions")

    def explain(self, game: Any, state: S, player: str, action: Action) -> str:
        for candidate, why in self.candidates(game, state, player):
            if why is not None and candidate == action:
                return why
        return ""

    def label(self, game: Any, state: S, action: Action) -> str | None:
        """A button label, or None for the engine's default."""
        return None

    def buttons(self, game: Any, state: S, player: str, legal: list[Action]) -> list[Action]:
        return legal if len(legal) <= 20 else []

    def private(self, game: Any, state: S, player: str, action: Action) -> bool:
        """Whether the action names something only `player` may know (`Game.private_action`); by default not."""
        return False

    def forced(self, game: Any, state: S, player: str, alone: bool) -> Action | None:
        """What `player` must do with nothing to choose (`Game.forced_action`); `alone`: nobody else may act now.

        By default (the rule in the module docstring): the phase's legal list for `player` holds one action, and
        either it is a plain pass, end or done, or `player` is the only one the game waits for. A phase whose
        lone action can still be a real choice overrides this."""
        legal = self.legal(game, state, player)
        if len(legal) != 1:
            return None
        if _passing(legal) is not None:
            return legal[0]
        return legal[0] if alone else None

    def skip(self, game: Any, state: S, player: str) -> Action | None:
        """What a table vote to skip `player` plays here; by default the pending default or pass/end/done."""
        pending = self.pending(game, state)
        if pending is not None and pending.default is not None:
            return pending.default
        return _passing(game.legal_actions(state, player))


def copy_state(state: S) -> S:
    """An exact deep copy of a state model, sharing nothing mutable with the original.

    pydantic-core re-validates the model instance itself with `revalidate_instances="always"` on every
    model of the state's schema (`_copier`): every model, list and dict is rebuilt in Rust, about 1.8x
    faster than `model_validate(model_dump())` (which first builds a whole dict tree) and 4-7x faster
    than `model_copy(deep=True)`. States are plain data (models, lists, dicts, scalars), so the copy is
    equal to the original; tests/test_state_copy.py checks equality and independence for every game.
    Where it can, the same copy is made by plain Python compiled from the schema (`statecopy`), which
    skips validating what is already valid and is faster again.
    """
    copier = _COPIERS.get(type(state))
    if copier is None:
        copier = _COPIERS[type(state)] = _copier(type(state))
    new = copier(state)
    if new is state:  # never shared: a pydantic that passes instances through gets the plain copy
        copier = _COPIERS[type(state)] = _plain_copy
        new = copier(state)
    return new


def apply_copy(state: S) -> S:
    """The copy an `apply` changes: `copy_state`, except in the lists the state's model names in its class
    variable `append_only` (e.g. `marks`, a rolling record of what happened).

    In such a list the rules only ever append, drop the oldest entries or change the newest one in place,
    so the copy gets a list of its own holding the original's entries, all shared but the newest, which is
    copied. A state copied per action then costs what changes, not its whole history; tests/test_state_copy.py
    checks equality, and that the original stays as it was when the copy's lists and newest entries change."""
    shared: tuple[str, ...] = getattr(type(state), "append_only", ())
    if not shared:
        return copy_state(state)
    key = (type(state), shared)
    copier = _COPIERS.get(key)
    if copier is None:
        copier = _COPIERS[key] = _copier(type(state), shared)
    new = copier(state)
    if new is state or copier is _plain_copy:
        return copy_state(state)
    for name in shared:
        old = state.__dict__[name]
        mine = list(old)
        if mine:
            mine[-1] = copy_state(mine[-1])
        new.__dict__[name] = mine
    return new


def _plain_copy(state: Any) -> Any:
    return type(state).model_validate(state.model_dump())


_COPIERS: dict[Any, Callable[[Any], Any]] = {}
_BUILDING = threading.Lock()


def _copier(cls: type[BaseModel], shared: tuple[str, ...] = ()) -> Callable[[Any], Any]:
    """A validator of `cls` that rebuilds model instances instead of passing them through.

    The class's own schema is copied with `revalidate_instances="always"` on each model in it. While it
    is compiled the model classes are marked incomplete, or pydantic-core would reuse their own
    (pass-through) validators for the nested models. If this cannot be done (a pydantic change), the
    plain dump-and-validate copy is used. The fields named in `shared` are passed through as they are
    (`apply_copy` gives them their own lists)."""
    schema = copy.deepcopy(cls.__pydantic_core_schema__)
    if shared:
        fields = schema.get("schema", {}).get("fields", {}) if schema.get("type") == "model" else {}
        if not all(name in fields for name in shared):
            return _plain_copy
        for name in shared:
            fields[name]["schema"] = {"type": "any"}
    classes: set[type] = set()

    def mark(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "model":
                node["config"] = {**(node.get("config") or {}), "revalidate_instances": "always"}
                classes.add(node["cls"])
            for v in node.values():
                mark(v)
        elif isinstance(node, list):
            for v in node:
                mark(v)

    mark(schema)
    with _BUILDING:
        saved = [(c, c.__dict__.get("__pydantic_complete__")) for c in classes]
        try:
            for c, _ in saved:
                type.__setattr__(c, "__pydantic_complete__", False)
            validator = SchemaValidator(schema)
        except Exception:
            return _plain_copy
        finally:
            for c, was in saved:
                if was is None:
                    type.__delattr__(c, "__pydantic_complete__")
                else:
                    type.__setattr__(c, "__pydantic_complete__", was)
    return _compiled(cls, validator.validate_python, shared)


def _compiled(cls: type[BaseModel], revalidate: Callable[[Any], Any],
              shared: tuple[str, ...] = ()) -> Callable[[Any], Any]:
    """The plain-Python copier compiled for `cls` (`statecopy`), which gives the same copy faster, or
    `revalidate` where it cannot (a schema it does not handle, or a value the validator would convert).
    Both pass the fields named in `shared` through as they are."""
    fast = compile_copier(cls, shared)
    if fast is None:
        return revalidate

    def copy(state: Any) -> Any:
        try:
            return fast(state)
        except Retype:
            return revalidate(state)

    return copy


def _passing(legal: list[Action]) -> Action | None:
    for name in ("pass", "end", "done"):
        for a in legal:
            if a.cmd == name and not a.args:
                return a
    return None


class PhasedGame(Game[S]):
    """A `Game` whose hooks dispatch on the state's phase through the `phases` table."""

    phases: ClassVar[Mapping[str, Phase[Any]]] = {}

    def phase_of(self, state: S) -> str:
        """The name of the phase `state` is in (a key of `phases`)."""
        return str(state.phase)  # type: ignore[attr-defined]

    def phase(self, state: S) -> Phase[Any]:
        return self.phases[self.phase_of(state)]

    # ---- actions legal in every phase (settings, standing orders) ------------------------
    def common_actions(self, state: S, player: str) -> list[Action]:
        return []

    def apply_common(self, state: S, player: str, action: Action, events: list[Event]) -> bool:
        """Apply an every-phase action to `state` (a copy); False if `action` is not one."""
        return False

    def is_seated(self, state: S, player: str) -> bool:
        return True

    # ---- the contract, dispatched ---------------------------------------------------------
    def status(self, state: S) -> Status:
        return self.phase(state).status(self, state)

    def legal_actions(self, state: S, player: str) -> list[Action]:
        if not self.is_seated(state, player):
            return []
        status = self.status(state)
        out: list[Action] = []
        if not status.finished and player in status.to_act:
            out = self.phase(state).legal(self, state, player)
        if not status.finished:
            out += self.common_actions(state, player)
        return out

    def apply(self, state: S, player: str, action: Action) -> tuple[S, list[Event]]:
        new = apply_copy(state)
        events: list[Event] = []
        if not self.apply_common(new, player, action, events):
            self.phase(new).apply(self, new, player, action, events)
        return new, events

    def explain(self, state: S, player: str, action: Action) -> str:
        return self.phase(state).explain(self, state, player, action)

    def label(self, state: S, action: Action, player: str | None = None) -> str:
        text = self.phase(state).label(self, state, action)
        return action.text() if text is None else text

    def button_actions(self, state: S, player: str, legal: list[Action]) -> list[Action]:
        return self.phase(state).buttons(self, state, player, legal)

    def private_action(self, state: S, player: str, action: Action) -> bool:
        return self.phase(state).private(self, state, player, action)

    def pending(self, state: S) -> Pending | None:
        return self.phase(state).pending(self, state)

    def timeout(self, state: S, options: dict[str, str]) -> tuple[float, Action] | None:
        pending = self.pending(state)
        if pending is None or pending.default is None or pending.hours is None:
            return None
        hours = pending.hours
        if pending.hours_option is not None:
            hours = float(options.get(pending.hours_option, str(pending.hours)))
        return hours, pending.default

    def skip_action(self, state: S, player: str) -> Action | None:
        return self.phase(state).skip(self, state, player)

    def forced_action(self, state: S, player: str) -> Action | None:
        if not self.is_seated(state, player):
            return None
        status = self.status(state)
        if status.finished or player not in status.to_act:
            return None
        return self.phase(state).forced(self, state, player, status.to_act == [player])
