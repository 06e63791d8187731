"""The public view the renderer draws (secret tokens redacted), and the rules reference."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from games.core.grid import parse_label
from games.core.marks import Mark, shown, since_last_turn

from . import data
from .cube import face_dirs, facing
from .skills import top_face, top_skill
from .state import QState


class TokenView(BaseModel):
    kind: str
    group: str = ""
    number: int = 0


class HeroView(BaseModel):
    player: str
    name: str
    hero: str
    hero_name: str
    seat: int
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


class QView(BaseModel):
    scenario: str
    scenario_name: str
    mode: str
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
    to_act: list[str] = Field(default_factory=list)  # names of the players who must act now
    recent: list[Mark] = Field(default_factory=list)  # since the acting player's last turn, numbered in order
    earlier: int = 0  # marks of that span too old to draw


def build_view(st: QState, waiting: str, to_act: list[str] | None = None) -> QView:
    heroes = []
    for h in st.heroes:
        sk = top_skill(h)
        heroes.append(HeroView(
            player=h.player, name=h.name, hero=h.hero, hero_name=data.heroes()[h.hero].name, seat=h.seat,
            pos=h.pos, top_face=top_face(h), top_skill=sk, icon="Q" if sk == "q" else data.skills()[sk].icon,
            facing=facing(h.head, h.front), faces=face_dirs(h.head, h.front), skills=dict(h.skills),
            upgraded=list(h.upgraded), movement=h.movement, explore=h.explore, explores_earned=h.explores_earned,
            carrying=list(h.carrying), banked=list(h.banked), progress=h.progress,
            objective=(f"{len(h.banked)}/{st.target} banked" if st.mode == "heist"
                       else f"marker {h.progress}/{len(st.rally)}"),
            revealed=list(h.revealed),
        ))
    tokens = {lab: TokenView(kind=t.kind, group=t.group, number=t.number) for lab, t in st.tokens.items()}
    return QView(
        scenario=st.scenario, scenario_name=data.scenarios()[st.scenario].name, mode=st.mode, round=st.round,
        round_limit=st.round_limit, first_player=st.heroes[st.first].name, active_player=st.heroes[st.turn].name,
        phase=st.phase, waiting_for=waiting, width=st.width, height=st.height, rows=list(st.rows), links=dict(st.links),
        tokens=tokens, ground={k: list(v) for k, v in st.ground.items()}, heroes=heroes, last_path=list(st.last_path),
        last_mover=st.last_mover, used_skills=list(st.m.used), result_text=st.result_text,
        choice_squares=[o for o in (st.pending.options if st.pending else []) if o[:1].isalpha() and o[1:].isdigit()],
        to_act=[h.name for h in st.heroes if h.player in (to_act or [])],
        **recap(st, tokens, to_act or []),
    )


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
    return {
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
            "When everyone has played, the round ends: the round tracker moves (the game may end there) and the first "
            "player coin passes to the next player."
        ),
        "movement": (
            "Movement starts with the natural tumble: roll one space N, E, S or W (`/quodd tumble direction:`). "
            "You may not tumble into a wall. Then use the skill now on top (`/quodd move`), once. "
            "Your points are your movement icons (1 to start) plus bonuses; you never have to use them all.\n"
            "A tumble skill rolls you in a straight line and then lets you use the face that comes up. Each skill "
            "works once per turn. With the Q on top you may rearrange your skills instead.\n"
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
            "explore, food, item, pet, rune, upgrade and treasure tokens are taken when you stop on them."
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
            "two. `/quodd drop` puts one down on a free space next to you."
        ),
        "scenarios": "\n".join(f"- **{s.id}** ({s.name}, {s.min_players}-{s.max_players} players, "
                               f"{s.round_limit} rounds): {s.intro}" for s in data.scenarios().values()),
        "not yet": (
            "Still to come: unique Q-powers (only 'rearrange skills' works now), the named upgrade abilities, "
            "world events, bombs, sheep, platforms and beams."
        ),
        "upgrades": (
            "At the end of every round (after the round tracker) each hero takes one of their six double-sided "
            "upgrade tiles, on the side they choose, into the left-most free slot of their track: "
            "`/quodd upgrade tile: side:`. A side gives +1 movement (every skill), +1 explore (one more card in "
            "phase 4), or the gold icon: flip a skill of your choice (`skill:`) to its upgraded side, which moves "
            "one further and lets you explore after using it."
        ),
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
            + "\n".join(f"- {kind}: " + ", ".join(c.name for c in data.cards().values() if c.kind == kind)
                        for kind in data.CARD_KINDS)
            + "\nAsk for one by name, e.g. `/rules game:quodd topic:Trail Mix`."
        ),
        **{c.name: (f"{c.name}: {c.kind}{' (treasure)' if c.treasure else ''}{', impulse' if c.impulse else ''}"
                    f"{f', range {c.range}' if c.range else ''}. {c.text}") for c in data.cards().values()},
    }
