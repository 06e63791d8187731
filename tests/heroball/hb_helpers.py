"""Compact Heroball positions for rule tests: one line per board, like a FEN for heroes."""
from __future__ import annotations

import pytest

from games.core import Action, IllegalAction, Seat
from games.core.play import step
from games.heroball import ENGINE as E
from games.heroball.state import HeroballState, ObjectState, TurnState

GODS = ["Zeus", "Poseidon", "Athena", "Ares"]


def build(heroes: str, *, ball: str | None = "G7", terrain: str = "", active: int = 0,
          gods: list[str] | None = None, orders: str = "") -> HeroballState:
    """`"Gorgo@G5 ap=3, Helen@G6 ball down"`: heroes in seat order; player id = hero name in lower case.

    Tokens after the hex: `ap=N`, `down`, `ball`/`pole` (held), `spent=step+run`, `score=N`, `flip=card`.
    `terrain="G4=water H5=forest"`. `orders="helen:defend=always"`; Helen's distract order is
    `never` unless `orders` names it, so that she only interrupts in the tests about her. Round 1,
    action phase of seat `active` (refresh already done), no seed phase.
    """
    specs = [p.split() for p in heroes.split(",")]
    gods = gods or GODS
    seats = [Seat(player=sp[0].split("@")[0].lower(), name=sp[0].split("@")[0],
                  choices={"hero": sp[0].split("@")[0], "god": gods[i]}) for i, sp in enumerate(specs)]
    s = E.setup({}, seats, 1)
    s.phase, s.round, s.active, s.seeds_left = "play", 1, active, 0
    s.turn = TurnState()
    s.objects = {"ball": ObjectState(at=ball)} if ball else {"ball": ObjectState(holder=None, at="G7")}
    for h, sp in zip(s.heroes, specs, strict=True):
        h.pos = sp[0].split("@")[1]
        h.holding = None
        h.ap = 4
        for tok in sp[1:]:
            if tok.startswith("ap="):
                h.ap = int(tok[3:])
            elif tok == "down":
                h.down = True
            elif tok in ("ball", "pole"):
                h.holding = tok
                s.objects[tok] = ObjectState(holder=h.player)
            elif tok.startswith("spent="):
                h.spent = tok[6:].split("+")
            elif tok.startswith("score="):
                h.score = int(tok[6:])
            elif tok.startswith("flip="):
                h.flipped.append(tok[5:])
            else:
                raise ValueError(tok)
    for pair in terrain.split():
        lab, kind = pair.split("=")
        s.terrain[lab] = kind
    if "distract" not in orders:
        for h in s.heroes:
            h.orders["distract"] = "never"
    for pair in orders.split():
        who, kv = pair.split(":")
        k, v = kv.split("=")
        E.hero(s, who).orders[k] = v
    return s


def do(s: HeroballState, player: str, text: str) -> tuple[HeroballState, list[str]]:
    """Resolve and apply one typed action through the framework (legality checked)."""
    _, s2, events = step(E, s, player, Action.parse(text))
    assert isinstance(s2, HeroballState)
    t = E.dump(s2)
    assert E.dump(E.load(t)) == t
    return s2, [e.text for e in events]


def illegal(s: HeroballState, player: str, text: str) -> IllegalAction:
    before = E.dump(s)
    with pytest.raises(IllegalAction) as info:
        step(E, s, player, Action.parse(text))
    assert E.dump(s) == before
    return info.value


def legal(s: HeroballState, player: str, cmd: str | None = None) -> list[str]:
    return [a.text() for a in E.legal_actions(s, player) if cmd is None or a.cmd == cmd]


def hero(s: HeroballState, player: str):
    return E.hero(s, player)


def to_act(s: HeroballState) -> list[str]:
    return E.status(s).to_act
