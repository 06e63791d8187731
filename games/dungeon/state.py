"""The whole game state of a dungeon crawl: a pydantic model that round-trips JSON exactly."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from games.core import Rng
from games.core.marks import Mark


class HeroState(BaseModel):
    id: str  # hero kind id ("ruby"); one hero of each kind per game
    player: str
    name: str  # the controlling player's display name
    seat: int
    x: int
    y: int
    wounds: int = 0
    potions: int = 0
    debuffs: list[str] = Field(default_factory=list)
    expiring: list[str] = Field(default_factory=list)  # debuffs that wear off when this activation ends
    equipment: list[str] = Field(default_factory=list)
    activated: bool = False
    profile: int = 0  # 0 = base stat line, n = profiles[n-1]
    nine_lives_ready: bool = True
    buffs: list[str] = Field(default_factory=list)  # immunities a card action bestowed (2nd-edition buffs)
    buffs_expiring: list[str] = Field(default_factory=list)  # buffs that wear off when this activation ends


class MonsterState(BaseModel):
    uid: int
    kind: str
    x: int
    y: int
    level: int
    wounds: int = 0
    debuffs: list[str] = Field(default_factory=list)
    charge: int = 0  # Static Charge points (0-3)


class LevelState(BaseModel):
    active: bool = False  # its spawn point has opened
    spawn_wounds: int = 0
    destroyed: bool = False
    boss_defeated: bool = False
    pool: list[str] = Field(default_factory=list)
    chest: Literal["none", "closed", "open", "booty"] = "none"


class FloorCard(BaseModel):
    card: str
    x: int
    y: int


class Die(BaseModel):
    colour: str
    face: int
    rerolled: bool = False


class AttackCtx(BaseModel):
    """An attack in progress: waits for the hero's reroll or heart decisions."""

    hero: str
    action: str  # melee / ranged / magic or a unique action id
    style: str
    stat: str
    bonus: str = "0"  # extra dice spec of a unique action
    inflicts: list[str] = Field(default_factory=list)
    targets: list[str] = Field(default_factory=list)  # still to attack: "m<uid>" or "spawn"
    target: str = ""  # current target
    offence: list[Die] = Field(default_factory=list)
    stage: Literal["", "reroll", "hearts"] = ""
    rerolls_left: int = 0
    hearts_left: int = 0


class Activation(BaseModel):
    hero: str
    ap: int
    move_left: int = 0
    potion_used: bool = False


Difficulty = Literal["explorer", "normal", "veteran"]


class DungeonState(BaseModel):
    # lists the rules only append to, trim, or change the newest entry of (`games.core.phases.apply_copy`)
    append_only: ClassVar[tuple[str, ...]] = ("marks",)

    dungeon: str
    rng: Rng
    phase: Literal["heroes", "intermission", "over"] = "heroes"
    turn: int = 1
    level: int = 0
    activations: int = 0  # hero activations so far (bounds undo)
    heroes: list[HeroState]
    monsters: list[MonsterState] = Field(default_factory=list)
    levels: list[LevelState]
    activation: Activation | None = None
    attack: AttackCtx | None = None
    loot_deck: list[str] = Field(default_factory=list)
    treasure_deck: list[str] = Field(default_factory=list)
    floor: list[FloorCard] = Field(default_factory=list)
    booty_cards: list[str] = Field(default_factory=list)  # what a Boo Booty carries
    next_uid: int = 1
    ready: list[str] = Field(default_factory=list)  # players done with the between-levels break
    result: Literal["", "victory", "defeat"] = ""
    result_text: str = ""
    marks: list[Mark] = Field(default_factory=list)  # what the image draws of recent play (games.core.marks)
    turn_limit: int = 0  # host option: defeat after this many game turns; 0 = none (the rules have no limit)
    difficulty: Difficulty = "normal"  # house option (levels.py, combat.py)
