"""Build Quodd positions from a few lines of text, and play commands on them.

    st = build(["....", ".>@.", "...."], tokens={"D1": "wall"}, heroes=[dict(pos="A2")])

Rows use the printed-feature codes of games/quodd/data.py (`.` ground, `O` pit,
`^>v<` currents, `@` whirlpool, `R` respawn, `s` start, `D` drop zone, `w` water
connection, `#` no square). Tokens are `kind` or `kind:group` strings. Heroes are
`ann`, `bob`, `cat` ... in seat order; the first one is in its movement phase.
"""
from __future__ import annotations

from games.core import Action, IllegalAction, Rng
from games.core.play import step
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.deck import new_decks
from games.quodd.skills import top_face
from games.quodd.state import Hero, MoveCtx, QState, Token

NAMES = ["ann", "bob", "cat", "dan"]
SKILLS = {"front": "slide", "right": "dash", "back": "jump", "left": "diagonal", "feet": "tumble"}


def build(rows: list[str], *, tokens: dict[str, str] | None = None, heroes: list[dict] | None = None,
          mode: str = "race", phase: str = "move", tumbled: bool = False, links: dict[str, str] | None = None,
          ground: dict[str, list[str]] | None = None, rally: list[str] | None = None, target: int = 3,
          round_limit: int = 10, seed: int = 1, ready: str = "", points: int = 0, play: str = "",
          teams: list[str] | None = None) -> QState:
    """A hand-made state. `mode` is the objective as tests spelled it before play modes (race, heist, solo = the
    time trial); `play` the play mode (default: solo for the time trial, else free-for-all); `teams` each hero's
    team."""
    objective = {"solo": "trial"}.get(mode, mode)
    play = play or ("solo" if objective == "trial" else "ffa")
    toks: dict[str, Token] = {}
    for lab, spec in (tokens or {}).items():
        kind, _, group = spec.partition(":")
        if kind == "secret":
            toks[lab] = Token(kind="secret", hidden=group)
        else:
            toks[lab] = Token(kind=kind, group=group)
    rally_map = {}
    for i, lab in enumerate(rally or [], start=1):
        toks[lab] = Token(kind="rally", number=i)
        rally_map[str(i)] = lab
    hs = []
    for i, hero_spec in enumerate(heroes or [dict(pos="A1")]):
        d = dict(hero_spec)
        hs.append(Hero(player=NAMES[i], name=NAMES[i].capitalize(), hero=["rok", "trixie", "forest", "aang"][i], seat=i,
                       pos=d.get("pos"), head=d.get("head", "U"), front=d.get("front", "E"),
                       home_front=d.get("front", "E"), skills=d.get("skills", dict(SKILLS)),
                       upgraded=d.get("upgraded", []), movement=d.get("movement", 1),
                       carrying=d.get("carrying", []), banked=d.get("banked", []), progress=d.get("progress", 0),
                       team=(teams or [""] * 4)[i]))
    st = QState(scenario="tutorial", objective=objective, mode=play, round_limit=round_limit, target=target,
                carry_limit=2,
                width=len(rows[0]), height=len(rows), rows=rows, links=links or {}, board_of={}, tokens=toks,
                ground=ground or {}, rally=rally_map, heroes=hs, first=0, turn=0, turn_no=1, phase=phase,
                rng=Rng(seed=seed), m=MoveCtx(tumbled=tumbled, ready=ready, points=points))
    st.deck, st.lineup, st.treasure = new_decks(Rng(seed=seed + 99))  # every game has its decks
    if phase == "move" and hs[0].pos:
        st.last_path = [hs[0].pos]
        st.last_mover = hs[0].player
    return st


def do(st: QState, player: str, text: str) -> tuple[QState, list[str]]:
    """Resolve and apply like the bot does (legality is checked); returns the event texts."""
    _, new, events = step(E, st, player, Action.parse(text))
    assert isinstance(new, QState)
    dumped = E.dump(new)
    assert E.dump(E.load(dumped)) == dumped
    return new, [e.text for e in events]


def illegal(st: QState, player: str, text: str) -> IllegalAction:
    try:
        step(E, st, player, Action.parse(text))
    except IllegalAction as exc:
        return exc
    raise AssertionError(f"{text!r} was accepted")


def legal(st: QState, player: str, cmd: str | None = None) -> list[str]:
    return [a.text() for a in E.legal_actions(st, player) if cmd is None or a.cmd == cmd]


def hero(st: QState, player: str) -> Hero:
    return next(h for h in st.heroes if h.player == player)


def top(st: QState, player: str) -> str:
    return top_face(hero(st, player))


def seed_rolling(first: int, sides: int = 6, second: int | None = None) -> int:
    """A seed whose first d6 (and second, if given) are the rolls asked for."""
    for s in range(10_000):
        r = Rng(seed=s)
        if r.d(sides) == first and (second is None or r.d(sides) == second):
            return s
    raise AssertionError("no seed found")


def grant(st: QState, player: str, ability: str) -> Hero:
    """Give `player`'s hero an upgrade ability: it becomes the hero whose tile carries it, with that side taken."""
    for hid, tiles in data.upgrades().items():
        for n, t in enumerate(tiles, start=1):
            for side, s in (("a", t.a), ("b", t.b)):
                if s.ability == ability:
                    h = hero(st, player)
                    if h.hero != hid:
                        h.hero, h.upgrades = hid, []  # another hero's track: start it afresh
                    h.upgrades.append(f"{n}{side}")
                    return h
    raise AssertionError(f"{ability} is on no hero's tile")
