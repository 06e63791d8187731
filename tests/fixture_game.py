"""A tiny game used only by tests: it exercises the manager and storage generically.

Each turn the active player may `add n:1|2` (at most twice), `roll` a die (then must
`keep` or `discard` it: a pending decision), and `end`. Each player holds a secret
bonus (hidden information). First to 12 points, or the leader after round 6, wins.
"""
from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from games.core import Action, CommandSpec, Event, Game, IllegalAction, OptionSpec, Result, Rng, Seat, Status


class CountState(BaseModel):
    players: list[str]
    names: list[str]
    totals: list[int]
    secrets: list[int]
    active: int = 0
    round: int = 1
    adds: int = 0
    pending_roll: int | None = None
    finished: bool = False
    winners: list[str] = Field(default_factory=list)
    rng: Rng


class PublicView(BaseModel):
    names: list[str]
    totals: list[int]
    active: int
    round: int


class CountGame(Game[CountState]):
    id = "count"
    name = "Count"
    min_seats = 1
    max_seats = 4
    state_model = CountState
    options = (OptionSpec(name="target", description="Points to win", choices=("12", "20"), default="12"),)
    seat_options = (OptionSpec(name="colour", description="Your colour", choices=("red", "blue", "green", "gold"),
                               autocomplete=True),)
    commands = (
        CommandSpec(name="add", description="Add points", options=(
            OptionSpec(name="n", description="1 or 2", autocomplete=True),)),
        CommandSpec(name="roll", description="Roll a die"),
        CommandSpec(name="keep", description="Keep the rolled die"),
        CommandSpec(name="discard", description="Discard the rolled die"),
        CommandSpec(name="end", description="End your turn"),
    )

    def check_seat(self, options, seats: Sequence[Seat], new: Seat) -> None:
        taken = {s.choices.get("colour") for s in seats}
        c = new.choices.get("colour")
        if c is not None and c in taken:
            raise IllegalAction(f"{c} is taken.", "Free: " + ", ".join(x for x in ("red", "blue", "green", "gold")
                                                                       if x not in taken) + ".")

    def setup(self, options, seats, seed) -> CountState:
        rng = Rng(seed=seed)
        return CountState(players=[s.player for s in seats], names=[s.name for s in seats],
                          totals=[0] * len(seats), secrets=[rng.d(3) for _ in seats], rng=rng)

    def _target(self, s: CountState) -> int:
        return 12

    def legal_actions(self, s: CountState, player: str) -> list[Action]:
        if s.finished or s.players[s.active] != player:
            return []
        if s.pending_roll is not None:
            return [Action.of("keep"), Action.of("discard")]
        out = [Action.of("add", n=n) for n in ("1", "2")] if s.adds < 2 else []
        return out + [Action.of("roll"), Action.of("end")]

    def apply(self, state: CountState, player: str, action: Action):
        s = state.model_copy(deep=True)
        i = s.active
        ev: list[Event] = []
        if action.cmd == "add":
            s.totals[i] += int(action.argdict["n"])
            s.adds += 1
            ev.append(Event(text=f"{s.names[i]} adds {action.get('n')}."))
        elif action.cmd == "roll":
            s.pending_roll = s.rng.d(6)
            ev.append(Event(text=f"{s.names[i]} rolls {s.pending_roll}.", irreversible=True))
        elif action.cmd in ("keep", "discard"):
            if action.cmd == "keep":
                s.totals[i] += s.pending_roll or 0
            ev.append(Event(text=f"{s.names[i]} {action.cmd}s the {s.pending_roll}."))
            s.pending_roll = None
        elif action.cmd == "end":
            s.adds = 0
            s.active = (s.active + 1) % len(s.players)
            if s.active == 0:
                s.round += 1
            ev.append(Event(text=f"{s.names[i]} ends the turn."))
        best = max(t + b for t, b in zip(s.totals, s.secrets, strict=True))
        if best >= self._target(s) or s.round > 6:
            s.finished = True
            s.winners = [p for p, t, b in zip(s.players, s.totals, s.secrets, strict=True) if t + b == best]
            ev.append(Event(text="The game ends.", irreversible=True))
        return s, ev

    def status(self, s: CountState) -> Status:
        if s.finished:
            return Status(phase="over", round=min(s.round, 6), finished=True,
                          result=Result(winners=s.winners, text="Highest total wins."))
        who = s.players[s.active]
        return Status(phase="deciding" if s.pending_roll is not None else "turn", round=s.round,
                      to_act=[who], turn_key=f"{s.round}:{s.active}", waiting_for=s.names[s.active])

    def view(self, s: CountState, player: str | None) -> PublicView:
        return PublicView(names=s.names, totals=s.totals, active=s.active, round=s.round)

    def timeout(self, s: CountState, options) -> tuple[float, Action] | None:
        """A rolled die waits one hour for keep/discard; then it is discarded."""
        return (1.0, Action.of("discard")) if s.pending_roll is not None else None

    def private_text(self, s: CountState, player: str) -> str:
        return f"Your secret bonus: {s.secrets[s.players.index(player)]}" if player in s.players else ""

    def summary(self, s: CountState) -> dict:
        return {"players": [{"name": n, "hero": None, "position": None, "total": t}
                            for n, t in zip(s.names, s.totals, strict=True)]}

    def rules_topics(self) -> dict[str, str]:
        return {"turn": "Add up to twice, roll if you dare, then end.", "winning": "Reach 12 first."}


ENGINE = CountGame()
