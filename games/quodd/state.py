"""The whole game state as pydantic models: it round-trips through JSON exactly."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from games.core import Rng
from games.core.marks import Mark
from games.core.phases import apply_copy, copy_state
from games.core.statecopy import Retype, compile_copier


class Token(BaseModel):
    """A token on a square. Frozen: a change is a new token in `QState.tokens` (`t.model_copy(update=...)`), so a
    state copied for an action shares its tokens with the state it came from (`state.action_copy`)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    group: str = ""
    number: int = 0
    hidden: str = ""  # a secret token's real kind (never in the public view)
    dir: str = ""  # a cannon: where its opening points (N/E/S/W); issue 15, saved only when set (`QState`)
    hero: str = ""  # a character token: the hero id it stands for; saved only when set


class Hero(BaseModel):
    player: str
    name: str
    hero: str
    seat: int
    team: str = ""  # mode teams: the team's name; "" in every other mode (`modes/`)
    pos: str | None = None
    head: str = "U"
    front: str = "E"
    home_front: str = "E"
    skills: dict[str, str] = Field(default_factory=dict)  # face -> skill id
    upgraded: list[str] = Field(default_factory=list)
    movement: int = 1
    explore: int = 1
    carrying: list[str] = Field(default_factory=list)
    banked: list[str] = Field(default_factory=list)  # delivered: locked, cannot be stolen
    progress: int = 0  # rally markers reached in order
    explores_earned: int = 0  # explorations owed (cards come in a later issue)
    revealed: list[str] = Field(default_factory=list)  # reveal-on-landing tokens taken
    finished_round: int = 0
    hand: list[str] = Field(default_factory=list)  # card ids: private to the player (never in the public view)
    items: list[str] = Field(default_factory=list)  # item cards in play (one slot)
    pets: list[str] = Field(default_factory=list)  # pet cards in play (one slot)
    upgrades: list[str] = Field(default_factory=list)  # the upgrade track, left to right: tile number + side ("3b")
    iced: list[str] = Field(default_factory=list)  # skills an ice bomb took away until this hero's next turn
    # the modes of issue 15 (saved only when set, so older games save as before: `HERO_EXTRAS`)
    controller: str = ""  # a buddy: the player who runs it (its `player` is then a key of its own, `modes/buddies.py`)
    overlord: bool = False  # mode overlord: this hero is the overlord (`modes/overlord.py`)
    faces: dict[str, str] = Field(default_factory=dict)  # board B-side: face -> the upgrade tile on it ("3b")
    awake: list[str] = Field(default_factory=list)  # board B-side: faces activated since this hero's turn began

    @model_serializer(mode="wrap")
    def _skip_empty_extras(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if isinstance(out, dict):
            for key in HERO_EXTRAS:
                if not out.get(key, True):
                    del out[key]
        return out


HERO_EXTRAS = ("controller", "overlord", "faces", "awake")


class Bomb(BaseModel):
    """A fired bomb die lying on the board: it rolls on in `dir` during the end-of-round upkeep."""

    at: str
    dir: str
    kind: str  # standard / fire / ice (`bombs.BOMBS`)


class Sheep(BaseModel):
    """A sheep wandering the board (`sheep.py`): it walks `facing` at the end-of-round upkeep."""

    at: str
    colour: str  # grey / white / black (`sheep.SPEED`)
    facing: str = "N"  # "" while the first player has still to choose it (a scenario's `"facing": "choose"`)


class Platform(BaseModel):
    """A moving platform floating over pits (`platforms.py`): its squares are ground while it covers them."""

    cells: list[str]
    kind: str  # slide / rotate
    dir: str  # slide: N/E/S/W (the arrow token); rotate: cw / ccw
    pivot: str = ""  # rotate: the square it turns around (the token's square)


class BeamPiece(BaseModel):
    """A beam gadget (`beams.py`): emitter, reflector, mover, rotator or power block."""

    at: str
    kind: str
    dir: str = ""  # emitter / mover: N/E/S/W; reflector: the two sides its mirror faces (NE/SE/SW/NW); rotator: cw/ccw
    on: bool = True  # emitters and reflectors are two-sided (on/off)
    group: str = ""  # a power block and the emitters it powers


class Job(BaseModel):
    """One pending piece of movement resolution; the queue resumes after decisions."""

    kind: str
    hero: str
    dir: str = ""
    n: int = 0
    by: str = ""  # who makes choices for this hero now ("" = the hero's own controller)
    how: str = ""  # tumble / slide / push / current / spring / jump / explosion / link / skill
    seq: int = 0  # the skill use (move command) this job belongs to; 0 = none
    at: str = ""  # a square label, or "x,y" for a point off the map
    prev: str = ""
    item: str = ""


class Decision(BaseModel):
    """A mid-move choice the rules give a player; answered with `choose option:...`."""

    kind: str
    player: str  # who decides
    hero: str  # whose hero it concerns
    options: list[str]
    prompt: str
    job: Job | None = None  # context for resuming
    allow_rearrange: bool = False


class MoveCtx(BaseModel):
    tumbled: bool = False
    blocked_at_start: bool = False
    ended: bool = False
    ready: str = ""  # the skill (or "q") the player may use now
    points: int = 0  # points for `ready`
    used: list[str] = Field(default_factory=list)
    current: str = ""  # the skill being executed
    taken: int = 0  # points spent with the current skill
    q_used: bool = False  # the shared Q-power (rearranging skills) was used this turn
    stolen_from: list[str] = Field(default_factory=list)
    seq: int = 0
    boost: dict[str, int] = Field(default_factory=dict)  # phase-1 bonuses: skill id (or "all") -> points
    item_used: bool = False  # one item activation a turn
    pet_used: bool = False  # one pet activation a turn
    draws: int = 0  # phase 4: cards still to explore
    discarding: bool = False  # phase 4 is over: discarding down to the hand limit
    abilities: list[str] = Field(default_factory=list)  # upgrade abilities used (or switched on) this turn
    power_used: bool = False  # the hero's own Q-power was used this turn

    def q_left(self) -> bool:
        """With the Q on top a hero may use any or all of their Q-powers: rearranging and their own, once each."""
        return not (self.q_used and self.power_used)


OLD_OBJECTIVES = {"race": "race", "heist": "heist", "solo": "trial"}  # a saved game's `mode` before modes came


class QState(BaseModel):
    # lists the rules only append to, trim, or change the newest entry of (`games.core.phases.apply_copy`)
    append_only: ClassVar[tuple[str, ...]] = ("marks",)

    scenario: str
    objective: str  # how the scenario is won: race / heist / trial (`goals.py`)
    mode: str  # who plays with whom: solo / coop / ffa / teams / overlord / buddies (`modes/`)
    round_limit: int
    target: int
    carry_limit: int
    pass_coin: bool = True
    start_facing: str = ""  # the scenario's facing for placed heroes; "" = towards the middle of the map
    width: int
    height: int
    rows: list[str]
    links: dict[str, str]
    board_of: dict[str, str]
    tokens: dict[str, Token]
    ground: dict[str, list[str]] = Field(default_factory=dict)  # collectibles lying on squares
    rally: dict[str, str] = Field(default_factory=dict)  # marker number -> square ("1" -> "J3")
    heroes: list[Hero]
    first: int = 0
    turn: int = 0  # seat index of the active player
    turn_no: int = 0
    round: int = 1
    phase: str = "place"  # place / skills / power / move / recovery / explore / upgrade / over
    placing: list[int] = Field(default_factory=list)
    ready: list[str] = Field(default_factory=list)
    m: MoveCtx = Field(default_factory=MoveCtx)
    queue: list[Job] = Field(default_factory=list)
    pending: Decision | None = None
    last_path: list[str] = Field(default_factory=list)
    last_mover: str = ""
    marks: list[Mark] = Field(default_factory=list)  # what the image draws of recent play (games.core.marks)
    winners: list[str] = Field(default_factory=list)
    result_text: str = ""
    rng: Rng
    deck: list[str] = Field(default_factory=list)  # the exploration deck, top first (hidden order)
    lineup: list[str] = Field(default_factory=list)  # face up, at most `LINEUP` cards
    discard: list[str] = Field(default_factory=list)  # the common discard pile, face up
    treasure: list[str] = Field(default_factory=list)  # the treasure deck, top first (hidden order)
    bombs: list[Bomb] = Field(default_factory=list)  # fired bombs that have not hit anything yet
    events_on: bool = False  # the world event deck is in play (game option `events`)
    event_deck: list[str] = Field(default_factory=list)  # world events, top first (hidden order)
    event_discard: list[str] = Field(default_factory=list)
    event_now: str = ""  # the world event drawn this round ("" = none)
    ongoing: list[str] = Field(default_factory=list)  # ongoing world events staying in play
    events_played: list[str] = Field(default_factory=list)  # every world event drawn, in order
    eor: int = 0  # the end-of-round step being resolved (1 upkeep, 2 world event); 0 = not ending a round
    sheep: list[Sheep] = Field(default_factory=list)  # the flock on the board (carried sheep are `carrying` items)
    platforms: list[Platform] = Field(default_factory=list)  # moving platforms (`platforms.py`)
    beams: list[BeamPiece] = Field(default_factory=list)  # beam gadgets (`beams.py`)
    lit: list[str] = Field(default_factory=list)  # squares a beam crosses (and active power blocks): impassable
    spun: list[str] = Field(default_factory=list)  # rotators a beam hits now (a newly hit one turns at once)
    backs: list[str] = Field(default_factory=list)  # reflectors a beam hits on the back now (newly hit: a question)
    turned: dict[str, int] = Field(default_factory=dict)  # board id -> quarter turns clockwise since setup (1-3)
    # the flock rules as the rulebook has them (scenario `sheep_pickup: ask`): a sheep coming down on a hero is that
    # hero's question (rule 4), and a heist's words name the sheep banked (`goals.loot`)
    sheep_ask: bool = False
    # the modes of issue 15, saved only when set (`MODE_EXTRAS`)
    board: str = ""  # the player board side: "" = A (the printed upgrade track), "b" = face-linked upgrades
    overlord_deck: list[str] = Field(default_factory=list)  # mode overlord: its own deck, top first (hidden order)
    overlord_target: int = 0  # mode overlord: what the overlord must reach (heist: crystals; race: markers)
    part: int = 0  # a multi-part scenario: which part this is (0 = a scenario of one part)
    next_part: str = ""  # the scenario the game goes on with when this part is won (`modes/campaign.py`)

    @model_serializer(mode="wrap")
    def _skip_empty_living(self, handler: SerializerFunctionWrapHandler) -> Any:
        """The living board's fields (issue 15) are left out while empty, and so are the tokens' `dir` and `hero`,
        so a game without them saves exactly as before they existed (older saves load: every such field has a
        default)."""
        out = handler(self)
        if isinstance(out, dict):
            for key in LIVING + MODE_EXTRAS:
                if not out.get(key, True):
                    del out[key]
            for t in out.get("tokens", {}).values():  # a token's `dir` and `hero` (issue 15) likewise
                if not t["dir"]:
                    del t["dir"]
                if not t["hero"]:
                    del t["hero"]
        return out


# QState fields of the living board, saved only when they hold something
LIVING = ("sheep", "platforms", "beams", "lit", "spun", "backs", "turned", "sheep_ask")
# QState fields of the modes of issue 15 (board side, overlord, multi-part), saved only when set
MODE_EXTRAS = ("board", "overlord_deck", "overlord_target", "part", "next_part")


def from_before_modes(raw: dict[str, Any]) -> dict[str, Any]:
    """A game saved before play modes held its objective in `mode` (race / heist / solo): it becomes the
    objective (solo: the time trial), and the mode is its scenario's. A time trial saved with friends stays
    `solo` (all win or lose together, as it did), not the co-op variant new games get: card sharing would
    change how the rest of a saved game plays. (`QuoddHeroes.load` calls this; the state model itself has no
    validator, so the compiled state copier of `games.core.statecopy` handles it.)"""
    if "objective" not in raw and raw.get("mode") in OLD_OBJECTIVES:
        from .scenarios import scenarios
        raw = dict(raw)
        raw["objective"] = OLD_OBJECTIVES[raw["mode"]]
        sc = scenarios().get(str(raw.get("scenario", "")))
        raw["mode"] = sc.mode if sc is not None else ("solo" if raw["objective"] == "trial" else "ffa")
    return raw


_COPY: list[Callable[[QState], QState] | None] = []  # the compiled copier below, once built


def action_copy(state: QState) -> QState:
    """The copy an action changes: `games.core.phases.apply_copy`, sharing the tokens too. Tokens are frozen, so the
    copy gets a dict of its own holding the same tokens (a state's largest part: up to 40 in a long game). Anything
    the compiled copier would not copy as it is (`games.core.statecopy.Retype`) takes `apply_copy` itself."""
    if not _COPY:
        _COPY.append(compile_copier(QState, (*QState.append_only, "tokens")))
    fast = _COPY[0]
    tokens = state.tokens
    if fast is None or type(tokens) is not dict or not set(map(type, tokens.values())) <= {Token}:
        return apply_copy(state)
    try:
        new = fast(state)
    except Retype:
        return apply_copy(state)
    for name in QState.append_only:  # as `apply_copy`: a list of its own, the newest entry copied
        mine = list(state.__dict__[name])
        if mine:
            mine[-1] = copy_state(mine[-1])
        new.__dict__[name] = mine
    new.__dict__["tokens"] = dict(tokens)
    return new
