"""The engine contract every game implements, and the value types it speaks in.

A game is a small set of pure functions over a pydantic state: `setup`, `legal_actions`,
`apply`, `view`, `status`, `summary`. The framework (`games.core.play`) does the shared
checks once: finished, whose turn, is the action in the legal set.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action
from .rng import Rng

OptionKind = Literal["str", "int", "bool", "user"]  # "user": a player, by id (Discord's user option)


class OptionSpec(BaseModel):
    """One option of a command, a game or a seat; the bot builds slash options from it."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    kind: OptionKind = "str"
    required: bool = False
    choices: tuple[str, ...] = ()
    default: str | None = None
    autocomplete: bool = False
    min: int | None = None  # the range of an "int" option, both ends included
    max: int | None = None


class CommandSpec(BaseModel):
    """A game command (`/heroball step`): its options become the action's arguments."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    options: tuple[OptionSpec, ...] = ()


class Seat(BaseModel):
    """A seat at the table: who sits there and what they chose when joining."""

    player: str
    name: str
    choices: dict[str, str] = Field(default_factory=dict)


class Event(BaseModel):
    """Something that happened; public unless addressed to some players."""

    text: str
    kind: str = "info"
    to: list[str] | None = None
    irreversible: bool = False  # dice were rolled or hidden information revealed
    detail: str = ""  # the full account when `text` is a summary of it (`/game log` shows it); empty: text is all


class Result(BaseModel):
    winners: list[str] = Field(default_factory=list)  # player ids
    text: str = ""
    scores: dict[str, int] = Field(default_factory=dict)


class Status(BaseModel):
    phase: str
    round: int = 0
    round_name: str = "round"  # what the game calls a round ("turn" in the dungeon)
    to_act: list[str] = Field(default_factory=list)  # player ids who must act now
    turn_key: str = ""  # changes whenever the turn passes on; bounds undo
    waiting_for: str = ""  # e.g. "Ann to intercept or pass"
    finished: bool = False
    result: Result | None = None


S = TypeVar("S", bound=BaseModel)


class Game(ABC, Generic[S]):
    """Base class of a game engine. Subclasses are stateless; all state lives in `S`."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 6
    rules_version: ClassVar[int] = 1
    state_model: ClassVar[type[BaseModel]]
    options: ClassVar[tuple[OptionSpec, ...]] = ()  # chosen at /game new
    seat_options: ClassVar[tuple[OptionSpec, ...]] = ()  # chosen at /game join
    commands: ClassVar[tuple[CommandSpec, ...]] = ()  # /<game id> <command>
    multi_seat: ClassVar[bool] = False  # may one player take several seats?
    logs_details: ClassVar[bool] = False  # some events carry a `detail` that `/game log` shows (it replays the game)
    # commands a seated player may use even when it is not their move (player settings)
    anytime_commands: ClassVar[tuple[str, ...]] = ()

    # ---- lobby -------------------------------------------------------------
    def check_options(self, options: dict[str, str]) -> None:
        """Raise IllegalAction when game options are invalid."""

    def check_seat(self, options: dict[str, str], seats: Sequence[Seat], new: Seat) -> None:
        """Raise IllegalAction when a join (with its choices) is not allowed."""

    def seat_choices(self, options: dict[str, str], seats: Sequence[Seat], option: str) -> list[str]:
        """Values a new seat may still pick for a seat option (for autocomplete)."""
        for spec in self.seat_options:
            if spec.name == option:
                return list(spec.choices)
        return []

    def option_choices(self, option: str) -> list[str]:
        """Values a game option may take (for autocomplete, e.g. scenarios)."""
        for spec in self.options:
            if spec.name == option:
                return list(spec.choices)
        return []

    # ---- the game ----------------------------------------------------------
    @abstractmethod
    def setup(self, options: dict[str, str], seats: Sequence[Seat], seed: int) -> S:
        """Build the first state; assign any seat choice left open with the seeded RNG."""

    @abstractmethod
    def legal_actions(self, state: S, player: str) -> list[Action]:
        """Every action `player` may take now, pending mid-move decisions included."""

    @abstractmethod
    def apply(self, state: S, player: str, action: Action) -> tuple[S, list[Event]]:
        """Return a new state; never mutate `state`. Called only with legal actions."""

    @abstractmethod
    def status(self, state: S) -> Status: ...

    @abstractmethod
    def view(self, state: S, player: str | None) -> BaseModel:
        """What `player` may see; None is the public view (hidden information redacted)."""

    def summary(self, state: S) -> dict[str, Any]:
        """Export summary fields beyond the shared ones; must include `players`."""
        return {"players": []}

    # ---- helpers the bot uses ----------------------------------------------
    def canonical(self, state: S, player: str, action: Action) -> Action:
        """Rewrite an alternative spelling (a direction instead of a hex) to the legal form."""
        return action

    def explain(self, state: S, player: str, action: Action) -> str:
        """Why an action outside the legal set is not allowed (one sentence)."""
        return ""

    def label(self, state: S, action: Action, player: str | None = None) -> str:
        """A short button label for a legal action; `player`: whose button it is, when the bot knows (players who
        choose at once may see the same action mean something else for each, as a Quodd upgrade tile does)."""
        return action.text()

    def button_actions(self, state: S, player: str, legal: list[Action]) -> list[Action]:
        """Which legal actions deserve a button under the board (at most 20 are shown).

        By default all of them when they fit, none when there are too many to be useful
        (a list of 114 hexes is for autocomplete, not buttons). Override to offer the
        common choices (e.g. `done`) when the full list is long.
        """
        return legal if len(legal) <= 20 else []

    def private_action(self, state: S, player: str, action: Action) -> bool:
        """Whether a legal action of `player` (its text or its label) tells something only they may know, a card
        of their hand say. Its button and menu option never go under a public message: the platform offers it to
        `player` alone (an ephemeral reply, `/game hand`). Decide by the kind of action, never by what the hidden
        part holds, or the public buttons left over would tell it instead. By default nothing is private."""
        return False

    def forced_action(self, state: S, player: str) -> Action | None:
        """The move `player` must make with nothing to choose (a turn with nothing left to do but end it): the
        table plays it for them at once, through the same apply path and log as any move. None: they choose.
        By default nothing is forced."""
        return None

    def skip_action(self, state: S, player: str) -> Action | None:
        """The action that passes `player`'s move when the table votes to skip them (None: cannot skip)."""
        legal = self.legal_actions(state, player)
        for name in ("pass", "end", "done"):
            for a in legal:
                if a.cmd == name and not a.args:
                    return a
        return None

    def determinize(self, state: S, player: str, rng: random.Random) -> S:
        """A state `player` cannot tell apart from `state`, its hidden parts re-sampled from `rng`.

        Computer players search these, so they never read what their player cannot see. By
        default future dice are the hidden part: a state's `rng` field gets a seed drawn from
        `rng`. Games with other secrets (deck order, hands, face-down tokens) re-sample those too.
        """
        current = getattr(state, "rng", None)
        if isinstance(current, Rng):
            return state.model_copy(update={"rng": Rng(seed=rng.getrandbits(48))})
        return state

    def preview(self, state: S, player: str, action: Action) -> tuple[S, list[Event]] | None:
        """What a legal action would do, without hidden information or real dice; None: no previews."""
        return None

    def redact(self, state: S, player: str, rng: Rng) -> S:
        """A copy of `state` as `player` may know it: every hidden part re-sampled with `rng`.

        The platform calls this before `preview` (and gives an `rng` independent of the game's
        seed), so a preview can only tell what the player may know. Hidden parts are the order
        of face-down decks, unrevealed tokens, other players' hands and the future dice (the
        state's `rng`). The default re-seeds a field named `rng`: games with more hidden parts
        override this and call it.
        """
        from .phases import copy_state  # the compiled state copier (phases builds on this module)

        out = copy_state(state)
        if isinstance(getattr(out, "rng", None), Rng):
            out.rng = Rng(seed=rng.next64() >> 1)  # type: ignore[attr-defined]
        return out

    def hidden_digest(self, state: S) -> str:
        """A fingerprint of the hidden parts besides the dice (deck order, secret tokens, hands).

        An action that changes it (or moves the state's `rng`) revealed or consumed something
        hidden, so the platform makes it irreversible. The default: nothing else is hidden.
        """
        return ""

    def timeout(self, state: S, options: dict[str, str]) -> tuple[float, Action] | None:
        """A short decision window (a reaction): hours it waits and the action taken when it expires.

        None means the game waits under the ordinary turn deadline, with reminders.
        """
        return None

    def value_label(self, state: S, player: str, command: str, option: str, value: str) -> str:
        """How an autocomplete value reads in the list (e.g. a target with the dice it faces)."""
        return value

    def idle_reason(self, state: S, player: str) -> str:
        """Why `player` has nothing to do now, when the game can say more than "It is not your move." (a hero
        who is down, say); empty for the plain refusal."""
        return ""

    def intro(self, state: S) -> str:
        """Public text for the start of a game: what the setup decided (e.g. heroes drawn at random) and
        what comes first; empty if nothing."""
        return ""

    def private_text(self, state: S, player: str) -> str:
        """What only `player` may read (a hand, secret objectives); empty if nothing."""
        return ""

    def rules_topics(self) -> dict[str, str]:
        """A rules reference in our own words: topic -> text."""
        return {}

    def dump(self, state: S) -> str:
        return state.model_dump_json()

    def load(self, text: str) -> S:
        return self.state_model.model_validate_json(text)  # type: ignore[return-value]
