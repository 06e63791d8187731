"""Compact scenario building for dungeon tests: a board from one line of heroes and monsters."""
from __future__ import annotations

from games.core import Action, Seat
from games.core.grid import parse_label
from games.core.play import step
from games.dungeon import ENGINE, stats
from games.dungeon.dice import Rolled
from games.dungeon.state import Die, DungeonState, MonsterState

E = ENGINE


def sq(label: str) -> tuple[int, int]:
    p = parse_label(label)
    assert p is not None
    return p


def scene(heroes: str, monsters: str = "", *, level: int = 0, seed: int = 1,
          pool: list[str] | None = None) -> DungeonState:
    """`scene("ruby@E5 candy@F6:w2/bob", "knucklehead@E6 rex@H8:w1")`.

    Each hero token is kind@square, optional `:wN` wounds, optional `/player` (default `ann`).
    Monsters belong to `level`; the level's pool is empty unless given, so nothing spawns.
    """
    specs = []
    for tok in heroes.split():
        tok, _, player = tok.partition("/")
        kind, _, rest = tok.partition("@")
        square, *mods = rest.split(":")
        specs.append((kind, square, mods, player or "ann"))
    seats = [Seat(player=p, name=p.title(), choices={"hero": k}) for k, _, _, p in specs]
    st = E.setup({}, seats, seed)
    for h, (_, square, mods, _) in zip(st.heroes, specs, strict=True):
        h.x, h.y = sq(square)
        for m in mods:
            if m.startswith("w"):
                h.wounds = int(m[1:])
    st.monsters = []
    for i, lv in enumerate(st.levels):
        lv.active = i <= level
        lv.destroyed = i < level
        lv.pool = []
        lv.chest = "closed" if i <= level else "none"
        if i < level:
            lv.chest = "open"
    st.level = level
    if pool is not None:
        st.levels[level].pool = list(pool)
    for tok in monsters.split():
        kind, _, rest = tok.partition("@")
        square, *mods = rest.split(":")
        x, y = sq(square)
        m = MonsterState(uid=st.next_uid, kind=kind, x=x, y=y, level=level)
        st.next_uid += 1
        for mod in mods:
            if mod.startswith("w"):
                m.wounds = int(mod[1:])
            elif mod.startswith("d"):
                m.debuffs.append(mod[1:])
        st.monsters.append(m)
    return st


def do(st: DungeonState, text: str, player: str | None = None):
    """Resolve and apply one action like a player typing it; returns (state, the events' full text: the detail
    `/game log` shows, where the table reads a compact form)."""
    if player is None:
        player = E.status(st).to_act[0]
    _, new, events = step(E, st, player, Action.parse(text))
    return new, "\n".join(e.detail or e.text for e in events)


def legal(st: DungeonState, player: str | None = None) -> list[str]:
    if player is None:
        player = E.status(st).to_act[0]
    return [a.text() for a in E.legal_actions(st, player)]


def hero_at(st: DungeonState, hid: str):
    return stats.hero(st, hid)


def monster_at(st: DungeonState, label: str):
    x, y = sq(label)
    return next((m for m in st.monsters if (x, y) in stats.mfp(m)), None)


# faces of the house dice: index of a face with these stars (h = heart)
FACES = {
    "B": {"0": 0, "h": 2, "1": 3, "2": 5},
    "R": {"h": 0, "1": 1, "2": 3, "3": 5},
    "G": {"h": 0, "1": 1, "2": 2, "3": 4},
}


class ScriptedDice:
    """Replaces the dice roller: each queued spec like "B2", "Rh", "B0" is the next face rolled."""

    def __init__(self, real):
        self.real = real
        self.queue: list[str] = []
        self.rolled: list[str] = []

    def push(self, *specs: str) -> None:
        for s in specs:
            self.queue.extend(s.split())

    def roll(self, st, colours, kept=True):
        out = []
        for c in colours:
            if self.queue:
                spec = self.queue.pop(0)
                assert spec[0] == c, f"expected a {spec[0]} die next, the rules rolled {c}"
                n = FACES[c][spec[1:]]
                die = Die(colour=c, face=n) if kept else Rolled(c, n)
                st.rng.next64()  # dice still advance the generator, as real rolls do
            else:
                die = self.real(st, [c], kept)[0]
            self.rolled.append(c)
            out.append(die)
        return out
