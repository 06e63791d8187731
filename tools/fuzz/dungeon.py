"""The dungeon under the fuzzer: heroes close in on monsters and spawn points, finish off the weak ones,
open chests and heal, so that bosses, level changes, victory and defeat all come up."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Event, Seat
from games.dungeon.board import board
from games.dungeon.data import content
from games.dungeon.state import DungeonState
from games.dungeon.stats import hero_stats, is_incap, mfp, monster_def

from .spec import NAMES, GameFuzz


def cards(st: DungeonState) -> Counter[str]:
    """Every card in the game wherever it is: decks, floor, heroes' equipment, a Boo Booty's stash."""
    out = Counter(st.loot_deck) + Counter(st.treasure_deck) + Counter(f.card for f in st.floor)
    out += Counter(st.booty_cards)
    for h in st.heroes:
        out += Counter(h.equipment)
    return out


class DungeonFuzz(GameFuzz):
    game_id = "dungeon"
    rollouts = 10
    weight = 4.0
    passive = ("end", "ready")

    def seats(self, pick: random.Random, options: dict[str, str]) -> list[Seat]:
        """1-6 heroes among 1-3 players; a player with several heroes names each (the console needs it)."""
        n = pick.choice((1, 2, 2, 3, 3, 4, 4, 5, 6))
        players = NAMES[:pick.randint(1, min(3, n))]
        owners = list(players) + [pick.choice(players) for _ in range(n - len(players))]
        pick.shuffle(owners)
        heroes = pick.sample([h.name for h in content().heroes.values()], n)
        out = []
        for i, p in enumerate(owners):
            several = owners.count(p) > 1
            choices = {"hero": heroes[i]} if several or pick.random() < 0.5 else {}
            out.append(Seat(player=p, name=p, choices=choices))
        return out

    def score(self, state: Any, player: str) -> float:
        """The party's progress: levels cleared, spawn points and monsters worn down, few wounds, the active
        hero close to the nearest enemy."""
        st: DungeonState = state
        if st.result == "victory":
            return 1e9
        if st.result == "defeat":
            return -1e9
        value = 1e5 * st.level + 3e4 * sum(lv.destroyed for lv in st.levels)
        value += 5e3 * sum(lv.boss_defeated for lv in st.levels)
        value += 5000.0 * st.levels[st.level].spawn_wounds
        for m in st.monsters:
            value -= 300.0 * max(0, monster_def(m).life - m.wounds)
        for h in st.heroes:
            value -= 4000.0 * is_incap(h) + 400.0 * h.wounds - 60.0 * len(h.equipment) - 50.0 * h.potions
        value += 200.0 * sum(lv.chest in ("open", "booty") for lv in st.levels)
        if not st.levels[st.level].destroyed:
            spots = [board(st.dungeon).spawns[st.level]]
        else:
            spots = [sq for m in st.monsters if m.level == st.level for sq in mfp(m)]
        if spots:
            for h in st.heroes:
                if not is_incap(h):
                    value -= 20.0 * min(max(abs(h.x - x), abs(h.y - y)) for x, y in spots)
        return value

    def hidden(self, state: Any) -> Any:
        st: DungeonState = state
        return (st.rng.seed, st.rng.counter, tuple(st.loot_deck), tuple(st.treasure_deck))

    def perturb(self, state: Any, pick: random.Random) -> Any:
        """Another generator and another order of the face-down decks."""
        other: DungeonState = super().perturb(state, pick)
        pick.shuffle(other.loot_deck)
        pick.shuffle(other.treasure_deck)
        return other

    def invariants(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        st: DungeonState = after
        b = board(st.dungeon)
        out = []
        for h in st.heroes:
            if h.wounds < 0 or h.potions < 0:
                out.append(f"{h.id} has {h.wounds} wounds and {h.potions} potions")
            if h.wounds > hero_stats(h).life:
                out.append(f"{h.id} has {h.wounds} wounds, more than its life {hero_stats(h).life}")
        for m in st.monsters:
            if not 0 <= m.wounds < monster_def(m).life and st.attack is None:
                out.append(f"monster {m.uid} ({m.kind}) has {m.wounds} wounds of {monster_def(m).life} and is still on "
                           "the board")
        taken: dict[tuple[int, int], str] = {}
        models: list[tuple[str, tuple[tuple[int, int], ...]]] = [(f"hero {h.id}", ((h.x, h.y),)) for h in st.heroes]
        models += [(f"monster {m.uid} ({m.kind})", mfp(m)) for m in st.monsters]
        for who, fp in models:
            for sq in fp:
                if not b.inside(sq):
                    out.append(f"{who} stands off the board at {sq}")
                if sq in taken:
                    out.append(f"{who} and {taken[sq]} stand on one square {sq}")
                taken[sq] = who
        a = st.activation
        if a is not None and (a.ap < 0 or a.move_left < 0):
            out.append(f"the activation has {a.ap} AP and {a.move_left} moves left")
        if not 0 <= st.level < len(st.levels) or any(not lv.destroyed for lv in st.levels[:st.level]):
            out.append(f"level {st.level} is open while an earlier spawn point stands")
        grown = cards(st) - cards(before)
        gone = {m.uid for m in before.monsters} - {m.uid for m in st.monsters}
        dropped = Counter(cid for m in before.monsters if m.uid in gone for cid in monster_def(m).boss_cards)
        if grown - dropped:  # a defeated boss drops its own cards; nothing else comes from outside the decks
            out.append(f"cards appeared from nowhere: {dict(grown - dropped)}")
        if st.phase == "over" and st.result not in ("victory", "defeat"):
            out.append(f"the game is over without a result ({st.result!r})")
        return out

    def milestones(self, before: Any, after: Any, events: list[Event]) -> list[str]:
        st: DungeonState = after
        out = []
        if st.level > before.level:
            out.append(f"level {st.level + 1} reached")
        for i, (lv0, lv1) in enumerate(zip(before.levels, st.levels, strict=True)):
            if lv1.destroyed and not lv0.destroyed:
                out.append(f"spawn point {i + 1} destroyed")
            if lv1.boss_defeated and not lv0.boss_defeated:
                out.append("boss defeated")
            if lv1.chest != lv0.chest:
                out.append(f"chest {lv1.chest}")
        bosses = {m.uid for m in st.monsters if monster_def(m).rank == "boss"}
        if bosses - {m.uid for m in before.monsters}:
            out.append("boss appears")
        if st.attack is not None and st.attack.target.startswith("m") and int(st.attack.target[1:]) in bosses:
            out.append("boss attacked")
        if st.phase != before.phase:
            out.append(f"phase {st.phase}")
        if st.result and not before.result:
            out.append(st.result)
        return out

    def required(self) -> tuple[str, ...]:
        return ("level 2 reached", "boss appears", "victory", "defeat", "phase intermission")
