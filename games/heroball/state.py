"""Heroball game state: plain pydantic models that round-trip JSON exactly (what views show is in view.py)."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from games.core import Rng
from games.core.marks import Mark

ORDER_VALUES = ("ask", "always", "never")


def default_orders() -> dict[str, str]:
    return {"defend": "ask", "intercept": "ask", "distract": "ask"}


class HeroState(BaseModel):
    """One seat: its hero token, mat and score."""

    player: str
    name: str
    hero: str
    god: str
    seat: int
    corner: str  # start corner, also the goal tile's centre
    pos: str
    ap: int
    score: int = 0
    down: bool = False  # knocked down: token flipped
    holding: str | None = None
    spent: list[str] = Field(default_factory=list)  # slots with a tracking token: step, run, sprint, unique
    flipped: list[str] = Field(default_factory=list)  # card ids showing their other side
    field: list[str] = Field(default_factory=list)  # card ids lying in the field slot (Sing)
    tile: str | None = None  # terrain carried on Herakles' Redecorate card
    orders: dict[str, str] = Field(default_factory=default_orders)  # standing orders


class ObjectState(BaseModel):
    at: str | None = None  # hex label when loose
    holder: str | None = None  # player id when held


class Window(BaseModel):
    """A pause for reactions: defend, intercept, Helen's distract, or the distracted player's choice."""

    kind: Literal["defend", "intercept", "distract", "distracted"]
    action: str = ""  # the action being resolved (text form)
    actor: str = ""  # whose action it is (attacker, thrower, acting player)
    obj: str = ""  # intercept: the object in flight
    target: str = ""  # intercept: where it lands
    origin: str = ""  # intercept: hex of the thrower/dropper/fumbler
    fumbled: bool = False  # intercept: the object was fumbled (not thrown or dropped): no intercept card applies
    queue: list[str] = Field(default_factory=list)  # players to ask, first is asked now


class TurnState(BaseModel):
    spent_ap: int = 0
    fly: bool = False  # Pegasus' Fly is active this turn
    shift_ready: bool = False  # Calypso sprinted with Shifting Land this turn
    vault_ready: bool = False  # Achilles just ran or sprinted with the pole
    trail: list[str] = Field(default_factory=list)  # hexes the active hero moved through
    flights: list[str] = Field(default_factory=list)  # "G6>G8": objects thrown, dropped, fumbled or swatted


class HeroballState(BaseModel):
    # lists the rules only append to, trim, or change the newest entry of (`games.core.phases.apply_copy`)
    append_only: ClassVar[tuple[str, ...]] = ("marks",)

    heroes: list[HeroState]
    objects: dict[str, ObjectState]
    terrain: dict[str, str] = Field(default_factory=dict)  # hex label -> terrain kind
    phase: Literal["seed", "play", "over"] = "seed"
    round: int = 0
    active: int = 0  # seat index of the player whose turn it is
    turn_no: int = 0
    seeds_left: int = 0
    turn: TurnState = Field(default_factory=TurnState)
    window: Window | None = None
    window_no: int = 0
    last_trail: list[str] = Field(default_factory=list)  # the previous turn's moves, for the image
    last_flights: list[str] = Field(default_factory=list)  # the previous turn's object flights, for the image
    rng: Rng
    marks: list[Mark] = Field(default_factory=list)  # what the image draws of recent play (games.core.marks)
