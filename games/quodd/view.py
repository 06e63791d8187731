"""The public view the renderer draws (secret tokens redacted), and the rules reference."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from games.core.grid import label, parse_label
from games.core.marks import Mark, shown, since_last_turn
from games.core.words import possessive

from . import data
from .beams import paths as beam_paths
from .cube import face_dirs, facing
from .modes import MODE_NAMES
from .modes.bside import faces_text
from .modes.topics import mode_topics
from .rotation import board_box
from .scenarios import scenarios
from .skills import top_face, top_skill
from .state import Hero, QState
from .upgrades import side_of, side_text


class TokenView(BaseModel):
    kind: str
    group: str = ""
    number: int = 0
    dir: str = ""  # a cannon's opening
    hero: str = ""  # a character token's hero (its name)


class HeroView(BaseModel):
    player: str
    name: str
    hero: str
    hero_name: str
    seat: int
    team: str = ""  # mode teams: the hero's team
    pos: str | None
    top_face: str
    top_skill: str  # skill id or "q"
    icon: str
    facing: str
    faces: dict[str, str]  # face -> world direction
    skills: dict[str, str]
    upgraded: list[str]
    movement: int
    explore: int
    explores_earned: int
    carrying: list[str]
    banked: list[str]
    progress: int
    objective: str
    revealed: list[str]
    upgrades: list[str] = Field(default_factory=list)  # the track, left to right, by name ("1B: +1 explore")
    items: list[str] = Field(default_factory=list)  # card names in play
    pets: list[str] = Field(default_factory=list)
    hand_size: int = 0  # how many, never which
    iced: list[str] = Field(default_factory=list)  # skills frozen by an ice bomb until the hero's next turn
    role: str = ""  # "overlord", "buddy" or "" (modes of issue 15)
    controller: str = ""  # a buddy: the display name of the player who runs it
    face_upgrades: dict[str, str] = Field(default_factory=dict)  # board B-side: face -> what its upgrade does


class BombView(BaseModel):
    at: str
    dir: str
    kind: str


class SheepView(BaseModel):
    at: str
    colour: str
    facing: str


class PlatformView(BaseModel):
    cells: list[str]
    kind: str
    dir: str
    pivot: str = ""


class BeamView(BaseModel):
    at: str
    kind: str
    dir: str
    on: bool


class QView(BaseModel):
    scenario: str
    scenario_name: str
    mode: str  # the play mode: solo / coop / ffa / teams / overlord / buddies
    objective: str = ""  # how the scenario is won: race / heist / trial
    round: int
    round_limit: int
    first_player: str
    active_player: str
    phase: str
    waiting_for: str
    width: int
    height: int
    rows: list[str]
    links: dict[str, str]
    tokens: dict[str, TokenView]
    ground: dict[str, list[str]]
    heroes: list[HeroView]
    last_path: list[str]
    last_mover: str
    used_skills: list[str] = Field(default_factory=list)
    result_text: str = ""
    choice_squares: list[str] = Field(default_factory=list)  # squares a pending decision offers
    asked_about: str = ""  # the square of the sheep or cannon a pending question is about (outlined, not chosen)
    to_act: list[str] = Field(default_factory=list)  # names of the players who must act now
    lineup: list[str] = Field(default_factory=list)  # the face-up exploration lineup, card names
    world_event: str = ""  # the world event of this round, by name
    ongoing_events: list[str] = Field(default_factory=list)
    events_on: bool = False
    part: int = 0  # a multi-part scenario: the part being played (0: a scenario of one part)
    overlord_deck: int = 0  # mode overlord: cards left in the overlord's deck
    board: str = ""  # "b": the player board's B-side (upgrades on faces)
    bombs: list[BombView] = Field(default_factory=list)
    sheep: list[SheepView] = Field(default_factory=list)
    platforms: list[PlatformView] = Field(default_factory=list)
    beams: list[BeamView] = Field(default_factory=list)  # beam gadgets
    beam_paths: list[list[str]] = Field(default_factory=list)  # each beam, emitter first (reflectors are corners)
    turned: dict[str, int] = Field(default_factory=dict)  # a turned board's north-west square -> quarter turns cw
    recent: list[Mark] = Field(default_factory=list)  # since the acting player's last turn, numbered in order
    earlier: int = 0  # marks of that span too old to draw


def _scenario_name(sid: str) -> str:
    """The scenario's title; its id when a server's scenario file has gone since the game began."""
    sc = scenarios().get(sid)
    return sc.name if sc is not None else sid


def _turned(st: QState) -> dict[str, int]:
    """Each turned board by its north-west square (where the image draws its badge) and its quarter turns."""
    out = {}
    for bid, quarter in st.turned.items():
        some = next((lab for lab, b in st.board_of.items() if b == bid), None)
        box = board_box(st, some) if some else None
        if box is not None:
            out[label(box[1], box[2])] = quarter
    return out


ABOUT_A_SQUARE = ("sheep_facing", "sheep_pickup", "cannon_dir")  # questions about the piece on one square


def _choice_squares(st: QState) -> list[str]:
    """The squares a pending decision offers (none for a question about one sheep or cannon)."""
    d = st.pending
    if d is None:
        return []
    if d.kind in ABOUT_A_SQUARE:
        return []  # a direction or yes/no is chosen, not a square (`asked_about` outlines the piece's square)
    return [o for o in d.options if o[:1].isalpha() and o[1:].isdigit()]


def build_view(st: QState, waiting: str, to_act: list[str] | None = None) -> QView:
    heroes = []
    for h in st.heroes:
        sk = top_skill(h)
        heroes.append(HeroView(
            player=h.player, name=h.name, hero=h.hero, team=h.team, hero_name=data.heroes()[h.hero].name, seat=h.seat,
            pos=h.pos, top_face=top_face(h), top_skill=sk, icon="Q" if sk == "q" else data.skills()[sk].icon,
            facing=facing(h.head, h.front), faces=face_dirs(h.head, h.front), skills=dict(h.skills),
            upgraded=list(h.upgraded), movement=h.movement, explore=h.explore, explores_earned=h.explores_earned,
            carrying=list(h.carrying), banked=list(h.banked), progress=h.progress,
            objective=(f"{len(h.banked) if st.objective == 'heist' else h.progress}/{st.overlord_target} (overlord)"
                       if h.overlord else f"{len(h.banked)}/{st.target} banked" if st.objective == "heist"
                       else f"marker {h.progress}/{len(st.rally)}"),
            revealed=list(h.revealed), upgrades=[upgrade_name(h, c) for c in h.upgrades],
            items=[data.cards()[c].name for c in h.items], pets=[data.cards()[c].name for c in h.pets],
            hand_size=len(h.hand), iced=list(h.iced),
            role="overlord" if h.overlord else "buddy" if h.controller else "",
            controller=next((x.name for x in st.heroes if x.player == h.controller), ""),
            face_upgrades=faces_text(h),
        ))
    tokens = {lab: TokenView(kind=t.kind, group=t.group, number=t.number, dir=t.dir,
                             hero=data.heroes()[t.hero].name if t.hero in data.heroes() else "")
              for lab, t in st.tokens.items()}
    return QView(
        scenario=st.scenario, scenario_name=_scenario_name(st.scenario), mode=st.mode, objective=st.objective,
        round=st.round,
        round_limit=st.round_limit, first_player=st.heroes[st.first].name, active_player=st.heroes[st.turn].name,
        phase=st.phase, waiting_for=waiting, width=st.width, height=st.height, rows=list(st.rows), links=dict(st.links),
        tokens=tokens, ground={k: list(v) for k, v in st.ground.items()}, heroes=heroes, last_path=list(st.last_path),
        last_mover=st.last_mover, used_skills=list(st.m.used), result_text=st.result_text,
        choice_squares=_choice_squares(st),
        asked_about=st.pending.job.at if st.pending and st.pending.kind in ABOUT_A_SQUARE and st.pending.job else "",
        to_act=[h.name for h in st.heroes if h.player in (to_act or [])],
        lineup=[data.cards()[c].name for c in st.lineup],
        world_event=data.world_events()[st.event_now].name if st.event_now else "",
        ongoing_events=[data.world_events()[e].name for e in st.ongoing], events_on=st.events_on,
        part=st.part, overlord_deck=len(st.overlord_deck), board=st.board,
        bombs=[BombView(at=b.at, dir=b.dir, kind=b.kind) for b in st.bombs],
        sheep=[SheepView(at=s.at, colour=s.colour, facing=s.facing) for s in st.sheep],
        platforms=[PlatformView(cells=list(p.cells), kind=p.kind, dir=p.dir, pivot=p.pivot) for p in st.platforms],
        beams=[BeamView(at=b.at, kind=b.kind, dir=b.dir, on=b.on) for b in st.beams],
        beam_paths=beam_paths(st) if st.beams else [],
        turned=_turned(st),
        **recap(st, tokens, to_act or []),
    )


WHEN = {"passive": "works by itself", "trigger": "acts or asks by itself when its moment comes",
        "action": "use it on your turn in phase 1 or 3 with `/quodd ability name:`",
        "movement": "use it in your movement with `/quodd ability name:`"}


def _side_names(t: data.UpgradeTile) -> str:
    def one(s: data.UpgradeSide) -> str:
        if s.ability:
            return data.abilities()[s.ability].name
        return "+1 movement" if s.movement else "+1 explore" if s.explore else "Upgrade Skill"
    return f"{one(t.a)} / {one(t.b)}"


def ability_topics() -> dict[str, str]:
    """One `/rules` topic per upgrade ability: found by its name or its id (`wall-builder`)."""
    where: dict[str, list[str]] = {}
    for hid, tiles in data.upgrades().items():
        for n, t in enumerate(tiles, start=1):
            for side, s in (("A", t.a), ("B", t.b)):
                if s.ability:
                    where.setdefault(s.ability, []).append(f"{data.heroes()[hid].name} tile {n}{side}")
    out = {}
    for a in data.abilities().values():
        same = a.name in {e.name for e in data.world_events().values()}  # Random Wind, Strong Wind: also events
        key = a.name if a.name.casefold() == a.id and not same else f"{a.name} ({a.id})"
        once = ", once a turn" if a.limit == "turn" else ""
        gap = f" Not yet: {a.gap}." if a.gap else ""
        out[key] = (f"{a.name}: upgrade ability ({WHEN[a.when]}{once}). {a.text}{gap} "
                    f"On: {', '.join(where.get(a.id, ['no tile yet']))}.")
    return out


def upgrade_name(h: Hero, code: str) -> str:
    """A tile on the track by its number, side and what it gives ("3B: +1 movement")."""
    tile, side = int(code[:-1]), code[-1]
    return f"{tile}{side.upper()}: {side_text(side_of(h, tile, side))}"


ELEMENTS = {"@": "whirlpool", "^": "water current", ">": "water current", "v": "water current",
            "<": "water current", "w": "water connection"}  # map features a path names ("through whirlpool")
NOT_ELEMENTS = ("rally", "q", "food", "explore", "item", "pet", "rune", "upgrade", "treasure", "drop_zone")


def recap(st: QState, tokens: dict[str, TokenView], to_act: list[str]) -> dict[str, Any]:
    """The marks since the acting player's last turn; a path's legend line names the elements it went through
    (as the public tokens show them)."""
    recent, earlier = shown(since_last_turn(st.marks, to_act, st.heroes[st.turn].player))
    kinds = data.token_kinds()
    out = []
    for m in recent:
        if m.kind == "tumble":
            through: list[str] = []
            for s in m.path[1:]:
                xy = parse_label(s)
                if xy is not None and 0 <= xy[1] < len(st.rows) and st.rows[xy[1]][xy[0]] in ELEMENTS:
                    through.append(ELEMENTS[st.rows[xy[1]][xy[0]]])
                t = tokens.get(s)
                if t is not None and t.kind in kinds and t.kind not in NOT_ELEMENTS:
                    through.append(kinds[t.kind].name.lower())
            through = list(dict.fromkeys(through))
            if through:
                m = m.model_copy(update={"text": f"{m.text} through {', '.join(through)}"})
        out.append(m)
    return {"recent": out, "earlier": earlier}


def rules_text() -> dict[str, str]:
    sk = data.skills()
    skills = "\n".join(f"- **{s.name}**: {s.text}" for s in sk.values())
    topics = {
        "overview": (
            "Your hero is a cube. One face carries the Q, the other five each carry a movement skill. "
            "Whatever face ends up on top after you roll the cube decides how you may move next.\n"
            "Pick a scenario at `/game new scenario:`; each one says what you are racing for and how many rounds you "
            "have."
        ),
        "turn": (
            "Turns go round the table from the first player. A turn has four phases: 1 power-up, 2 movement, "
            "3 recovery, 4 exploration. Phases 1 and 3 are for cards (`/quodd play`, `/quodd use`); a phase in which "
            "you have nothing to play passes by itself. In phase 4 you draw (`/quodd draw`) and discard down to 5.\n"
            "When everyone has played, the round ends, in this order: 1 upkeep (bombs, platforms, beams, sheep "
            "move), 2 a world event (with `events:on`, see `world events`), 3 the round tracker moves (the game may "
            "end there), 4 every hero takes an upgrade tile, 5 the first player coin passes to the next player."
        ),
        "movement": (
            "Movement starts with the natural tumble: roll one space N, E, S or W (`/quodd tumble direction:`). "
            "You may not tumble into a wall. Then use the skill now on top (`/quodd move`), once. "
            "Your points are your movement icons (1 to start) plus bonuses; you never have to use them all.\n"
            "A tumble skill rolls you in a straight line and then lets you use the face that comes up. Each skill "
            "works once per turn. With the Q on top you may rearrange your skills and use your hero's own Q-power, "
            "each once (`q-powers`).\n"
            "If all four sides are blocked when your movement starts, you respawn first.\n"
            "A dash is typed as a path, one direction per point (`move path:\"N NE\"`), up to 3 steps per command; "
            "points you have left stay ready for another `move path:`. A jump must clear at least one space when it "
            "can; only when every landing beyond is blocked may it hop to the space next door (`distance:0`).\n"
            "Not sure where a move ends? `/quodd preview action:\"tumble direction:E\"` shows you alone a picture "
            "of the result (dice in a preview are stand-ins); the game does not change."
        ),
        "skills": skills + "\nAn upgraded skill gives one more point and an exploration right after.",
        "elements": (
            "Board elements act on every space you enter, before your skill goes on: currents carry you one space "
            "along the arrow; whirlpools spin you a quarter turn (you choose which way; a pusher chooses for the "
            "pushed); springs throw you over 1 space (super springs 2) in a direction you pick; teleporters roll a "
            "die and send you up to that far (a Q blows them up) and end your move; tunnels (optional, your own "
            "turn only) lead to any other tunnel and end your move; water connections send you to the matching letter "
            "and you carry on.\nQ and rearrange tokens let you reassign skills; if the face on top then shows another "
            "skill, your remaining points go to it (without the old skill's boosts). Switches flip the trap doors and "
            "impassable walls of their group. Secret tokens are revealed when you stop on them and act at once; "
            "explore, food, item, pet, rune, upgrade and treasure tokens are taken when you stop on them.\nA cannon "
            "fires when you step on it: the bomb die picks the bomb, which rolls out of the opening. Stopping on a "
            "bomb token sets off an explosion around you; on a rotate board token you turn your board a quarter "
            "(the token goes); on a rotate switch you turn the platform or board it lies on; on a character token "
            "that hero joins you. Beams are walls: they also block the range of cards and Q-powers (count around)."
        ),
        "pits": (
            "Falling into a pit, an open trap door or off the map: first put down anything you carry on safe spaces "
            "beside where you fell, then come back Q-up on the nearest safe respawn point (in races never one nearer "
            "your next marker than where you fell from). If it is taken, pick a space next to it."
        ),
        "pushing": (
            "Moving into another hero pushes them one space the same way, unless something stops them (a wall "
            "behind them stops you too). You decide what the board does to the hero you pushed. Landing a jump on "
            "a hero pushes them one space in a direction you choose; so does coming up under a hero from a tunnel or "
            "water connection."
        ),
        "stealing": (
            "During your movement you may take a collectible from a hero next to you, diagonals included "
            "(`/quodd steal`), once per hero each turn, never in mid-jump, never banked crystals. You carry at most "
            "two. Stealing comes first: entering a space beside such a hero while your move goes on (or the space "
            "does something to you), you are asked before anything else happens there, and the move then goes on "
            "with all its points. `/quodd drop` puts one down on a free space next to you."
        ),
        "scenarios": "\n".join(f"- **{s.id}** ({s.name}, {MODE_NAMES[s.mode]}, {s.min_players}-{s.max_players} "
                               f"players, {s.round_limit} rounds): {s.intro}" for s in scenarios().values()),
        "modes": (
            "Each scenario has an objective (race: reach the rally markers in order; time trial: every hero of a side "
            "reaches the last; heist: bank crystals) and a mode. Solo: one player against the round limit (seated "
            "with friends, a solo scenario is played co-op). Co-op: everyone on one side, all win or all lose. "
            "Free-for-all: everyone for themselves. Teams: pick a team with `/game join team:` (or be dealt one); a "
            "team wins together and may steal from its own heroes. In co-op and teams you may pass a card of your "
            "hand to a teammate within 4 spaces, counted orthogonally, in phase 1 or 3 of your turn: "
            "`/quodd give card: hero:`."
        ),
        "not yet": (
            "Every part of the rulebook is built: see `/rules game:quodd` for the topics (sheep, platforms, beams, "
            "bombs, modes ...)."
        ),
        "upgrades": (
            "At the end of every round (after the round tracker) each hero takes one of their six double-sided "
            "upgrade tiles, on the side they choose, into the left-most free slot of their track: "
            "`/quodd upgrade tile: side:`. A side gives +1 movement (every skill), +1 explore (one more card in "
            "phase 4), or the gold icon: flip a skill of your choice (`skill:`) to its upgraded side, which moves "
            "one further and lets you explore after using it. Other sides carry a named ability: some work by "
            "themselves, some ask a question when their moment comes, and some you use with `/quodd ability name:` "
            "(on your turn in phase 1 or 3; Wall Builder, Trench Digger and Teleport Skill in your movement).\n"
            + "\n".join(f"- {data.heroes()[hid].name}: " + ", ".join(_side_names(t) for t in tiles)
                        for hid, tiles in data.upgrades().items())
            + "\nAsk for one by name, e.g. `/rules game:quodd topic:Mind-Push`."
        ),
        "Explore": "Explore (upgrade side): one more card to draw in every exploration phase (phase 4).",
        "Upgrade Skill": ("Upgrade Skill (the gold upgrade side): flip one of your skill tiles to its upgraded side "
                          "for good: one more point with it, and an exploration after you use it."),
        **ability_topics(),
        "cards": (
            "Phase 4: draw one card per explore icon (plus bonuses and explore tokens you reached this turn) from the "
            "face-up lineup of 5 or the top of the deck; the lineup refills when your turn ends. Then discard down to "
            "5. Your hand is yours alone: `/game hand`.\n"
            "Play cards on your own turn in phase 1 (movement boosts must be played here) or phase 3. Impulse cards "
            "may also be played on another player's turn with `/quodd impulse`, never during a movement. Food, runes "
            "and tools are used up; items and pets stay in their slot (one of each; a new one sends the old one back "
            "to your hand) and can be activated once a turn each (`/quodd use`). Range counts orthogonally from your "
            "hero; a token is never placed under a hero, on a respawn point, on another token or in a pit (walls "
            "excepted).\nFood, item, pet and rune tokens fetch a card of that kind (from the lineup, else the deck); "
            "a treasure token takes a treasure card.\n"
            + "\n".join(f"- {kind}: " + ", ".join(c.name for c in data.cards().values()
                                                  if c.kind == kind and not c.overlord)
                        for kind in data.CARD_KINDS)
            + "\nAsk for one by name, e.g. `/rules game:quodd topic:Trail Mix`."
        ),
        **{c.name: (f"{c.name}: {c.kind}{' (treasure)' if c.treasure else ''}"
                    f"{' (overlord deck)' if c.overlord else ''}{', impulse' if c.impulse else ''}"
                    f"{f', range {c.range}' if c.range else ''}. {c.text}") for c in data.cards().values()},
        **qpower_topics(),
        **event_topics(),
        **mode_topics(),
    }
    for a in data.abilities().values():  # a world event and an upgrade ability of the same name
        if a.name in topics and not topics[a.name].startswith(f"{a.name}: upgrade ability"):
            topics[a.name] += f" (The upgrade ability of the same name: `/rules game:quodd topic:{a.id}`.)"
    return topics


Q_POWERS = {  # power id -> (the rulebook's name, what it does here)
    "place_wall": ("Q: Place Wall or Tunnel", "place a wall, a broken wall or a tunnel within range 7 "
                   "(`/quodd qpower token: at:`)."),
    "place_teleporter": ("Q: Place Teleporter", "place a teleporter within range 7 (`/quodd qpower token:teleporter "
                         "at:`)."),
    "rotate_board": ("Q: Rotate Board", "turn the square board you stand on a quarter turn either way "
                     "(`/quodd qpower way:cw` or `way:ccw`): its squares, tokens, collectibles and heroes turn with "
                     "it, and the heroes on it spin too. Start zones do not turn."),
    "earthquake": ("Q: Earthquake", "roll the direction die; every hero tumbles that way (`/quodd qpower`), the one "
                   "furthest along first. A diagonal is two tumbles, north or south first; a blocked one is not made. "
                   "No skills activate."),
    "bomb": ("Q: Bomb", "fire a bomb N, E, S or W from your space (`/quodd qpower direction:`); the bomb die decides "
             "its kind (see `bombs`)."),
    "copy_q": ("Q: Copy Q-Power", "use the unique Q-power of another hero at the table instead of your own "
               "(`/quodd qpower copy:<hero>` with that power's options)."),
    "flip_upgrade": ("Q: Flip Upgrade", "turn one upgrade tile on your track over to its other side (`/quodd qpower "
                     "tile: side:`, with `skill:` when the new side is gold): the old side's bonus or ability goes, "
                     "the new one comes. A gold side on the track stays (its skill is upgraded for good)."),
    "upgrade": ("Q: Upgrade", "take one more upgrade tile at once, into the next free slot of your track, on the side "
                "you choose (`/quodd qpower tile: side:`, with `skill:` for a gold side)."),
}


def qpower_topics() -> dict[str, str]:
    heroes = data.heroes().values()
    out = {"q-powers": "With the Q on top you may use any or all of your Q-powers, each once a turn: rearrange "
                       "your skills, and your hero's own power (default range 7):\n"
                       + "\n".join(f"- **{h.name}**: {Q_POWERS[h.q_power][0]}, {Q_POWERS[h.q_power][1]}"
                                   for h in heroes if h.q_power in Q_POWERS)}
    for h in heroes:
        if h.q_power in Q_POWERS:
            name, text = Q_POWERS[h.q_power]
            out[name] = f"{name} ({h.name}): {text[0].upper()}{text[1:]}"
            only = " (never dealt at random: choose this hero by name when you join)" if h.by_name_only else ""
            out[h.name] = f"{possessive(h.name)} Q-power is {name}: {text}{only}"
    out["bombs"] = ("A bomb rolls in a straight line: standard bombs 4 spaces, fire and ice bombs 3 (bomb die: "
                    "3 standard, 2 fire, 1 ice faces). It explodes when it runs into a hero (who first jumps two "
                    "spaces away from it), a wall or a crystal (thrown two spaces); into a pit or off the map it is "
                    "gone; if it hits nothing it waits and rolls on at the end of the round. An explosion breaks "
                    "walls and removes common tokens around its centre (a broken wall in a pit stays a bridge) and "
                    "heroes beside it jump one space away. Fire: each hero hit discards a random card. Ice: each "
                    "hero hit loses the skills on the faces turned towards it until their next turn.")
    out["sheep"] = ("At the end of every round each sheep walks, north to south then west to east: grey 1 space, "
                    "white 2, black 3. A point it cannot walk turns it a quarter clockwise. Grey and white sheep are "
                    "stopped by heroes, sheep, walls, pits and crystals; a black sheep pushes heroes, sheep and "
                    "crystals ahead of it. No sheep walks into a pit or a beam. Currents carry sheep, whirlpools turn "
                    "them clockwise, springs throw them the way they walk, teleporters roll the direction die and a "
                    "d6; tunnels are plain ground to them. Stop on a sheep to pick it up (it counts against your "
                    "carry limit; banked on a drop zone it counts as a crystal). A sheep landing on you joins you "
                    "if you have room; in scenarios such as The Stray Flock you are asked first (left, or on a "
                    "deadline, it stays on your square). Explosions and bombs throw sheep as they throw heroes. Where "
                    "the scenario says so, the first player chooses the way each sheep faces at the start.")
    out["platforms"] = ("Moving platforms float over pits: while one covers a pit square it is ground. At the end of "
                        "every round (after bombs) each platform moves, from the north-west: a sliding one a space "
                        "the way its arrow points (blocked: the arrow turns around), a turning one a quarter around "
                        "its marked square (blocked: it waits). What stands or lies on it rides along.")
    out["beams"] = ("A beam runs from its emitter to the next wall or the edge; it is a wall you cannot cross or jump "
                    "(tunnels still lead past). When it lights a square it removes common tokens there, and a hero "
                    "in it respawns. A reflector turns it a quarter (a beam on its back turns the reflector "
                    "clockwise at the end of the round); a mover or rotator it hits moves or turns its platform at "
                    "the end of the round; a power block with a crystal on it switches its emitters on.")
    return out


def event_topics() -> dict[str, str]:
    evs = data.world_events().values()
    out = {"world events": "With `/game new ... events:on` the first player draws a world event at the end of every "
                           "round; it acts on every hero. A new event replaces the last one unless that one is "
                           "ongoing; ongoing events stay in play. The direction die has 8 faces (N, NE, E, SE, S, SW, "
                           "W, NW). Deck:\n" + "\n".join(f"- **{e.name}** (x{e.count}): {e.text}" for e in evs)}
    out.update({e.name: f"{e.name} (world event, {e.count} in the deck): {e.text}" for e in evs})
    return out
