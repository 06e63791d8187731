"""What the fuzzer needs to know about one game: options and seats to try, progress, invariants, hidden parts."""
from __future__ import annotations

import random
from typing import Any

from games.core import Event, Game, Seat

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


class GameFuzz:
    """The per-game part of the fuzzer. Subclasses fill in what their game has.

    `score` rates a state for `player` (higher is more progress); the guided chooser looks one
    action ahead and takes the best. `invariants` lists what is wrong in a state (empty: nothing).
    `hidden` is everything no player may know (generator, deck order, secret tokens); `perturb`
    returns a copy with only those parts changed.
    """

    game_id: str = ""
    skip_in_lookahead: tuple[str, ...] = ()  # commands the guided chooser does not rate (settings)
    rollouts = 0  # > 0: plan a whole turn by this many random rollouts instead of one action of lookahead
    rollout_depth = 12  # actions per rollout at most
    passive: tuple[str, ...] = ()  # commands a rollout prefers not to take (ending the turn early)
    policy_rate = 0.0  # share of a rollout's steps taken by `policy` (the rest are random)
    weight = 1.0  # share of the time of `playpost fuzz all` (a slow game gets more)
    modes: tuple[str, ...] = ("guided", "mixed", "random", "computer")  # the playouts fuzz_game cycles through
    computer_level = "normal"  # the computer player of the `computer` mode (hard where it is cheap)

    def __init__(self, engine: Game) -> None:
        self.engine = engine

    # ---- a game to play ------------------------------------------------------------------
    def options(self, pick: random.Random) -> dict[str, str]:
        """Game options as `/game new` fills them: a random choice where there are choices, else the default."""
        opts: dict[str, str] = {}
        for spec in self.engine.options:
            if spec.choices:
                opts[spec.name] = pick.choice(spec.choices)
            elif spec.default is not None:
                opts[spec.name] = spec.default
        return opts

    def seats(self, pick: random.Random, options: dict[str, str]) -> list[Seat]:
        """Players named as in a transcript (the console's user id is the name), choices left to setup."""
        lo, hi = self.engine.min_seats, self.engine.max_seats
        n = pick.randint(lo, hi)
        return [Seat(player=name, name=name) for name in NAMES[:n]]

    # ---- guidance ------------------------------------------------------------------------
    def score(self, state: Any, player: str) -> float:
        return 0.0

    def policy(self, state: Any, player: str, legal: list[Any], pick: random.Random) -> Any:
        """The action a guided rollout takes here (a game's idea of a sensible move: attack, advance on the
        objective), or None to leave it to chance. Only rollouts use it; the planner still rates where they end."""
        return None

    def late_start(self, state: Any, seed: int) -> tuple[Any, str] | None:
        """A later position built from the setup `state` with the engine's own functions (the fuzzer's `late`
        mode plays guided from there, to reach the end game often and cheaply), and a short name for it that a
        case transcript records (`# start: NAME`); None when the game has none. Deterministic in `seed`."""
        return None

    def rebuild_start(self, state: Any, name: str) -> Any:
        """The late start a case transcript names, rebuilt from the setup `state`."""
        raise ValueError(f"{self.game_id} has no late start {name!r}")

    # ---- invariants ----------------------------------------------------------------------
    def invariants(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        return []

    # ---- hidden information --------------------------------------------------------------
    def hidden(self, state: Any) -> Any:
        """Everything hidden from every player; an action without an irreversible event leaves it unchanged."""
        rng = getattr(state, "rng", None)
        return None if rng is None else (rng.seed, rng.counter)

    def perturb(self, state: Any, pick: random.Random) -> Any:
        """A copy of `state` in which only hidden parts differ (by default the generator's seed and counter)."""
        other = state.model_copy(deep=True)
        if getattr(other, "rng", None) is not None:
            other.rng.seed = pick.getrandbits(63)
            other.rng.counter = pick.randrange(1000)
        return other

    def deal_again(self, state: Any, pick: random.Random) -> Any:
        """A copy of `state` in which only what players hold in secret differs (the cards of the hands dealt
        anew, sizes kept); its owner may know it, the table may not. By default the game has no such thing."""
        return state

    # ---- what was reached ----------------------------------------------------------------
    def milestones(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        """Names of notable things this step reached (counted in the report: goals, bosses, levels, results)."""
        return []

    def required(self) -> tuple[str, ...]:
        """Milestones a fuzz run of a reasonable size must reach (the CI test checks them)."""
        return ()

