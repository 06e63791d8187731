"""The dungeon under the fuzzer: heroes close in on monsters and spawn points, finish off the weak ones,
open chests and heal, so that bosses, level changes, victory and defeat all come up."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Action, Event, Seat
from games.core.grid import parse_label
from games.dungeon.board import board
from games.dungeon.data import content
from games.dungeon.levels import open_level
from games.dungeon.loot import can_carry
from games.dungeon.phases.activation import useful_moves
from games.dungeon.sight import enemy_keys, structures, target_fp
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


LATE_STARTS = ("level 2", "level 3", "level 4", "level 4", "level 4 weakened")


class DungeonFuzz(GameFuzz):
    game_id = "dungeon"
    rollouts = 10
    weight = 4.0
    passive = ("end", "ready")
    # half the games start late (the end game is rare), one in seven is played by the computer heroes
    modes = ("late", "guided", "late", "mixed", "late", "random", "computer")
    policy_rate = 0.85

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

    def policy(self, state: Any, player: str, legal: list[Action], pick: random.Random) -> Action | None:
        """A hero fights: attacks (or an offensive unique action) when an enemy is in reach, drinks a potion when
        badly hurt, heals a wounded friend now and then, otherwise closes in on the nearest enemy (a square in
        reach of it, else the square nearest to it) and ends the activation when nothing else is left. Between
        levels heroes pick up what lies on the floor, then get ready. Dice decisions are left to chance: the
        rollouts see the real generator, so the planner keeps the lucky ones."""
        st: DungeonState = state
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.cmd, []).append(a)
        if st.phase == "intermission":
            return pick.choice(by.get("equip") or by.get("ready") or legal)
        if st.activation is None or st.attack is not None:
            return None
        h = next(x for x in st.heroes if x.id == st.activation.hero)
        unique = content().unique
        offence = by.get("attack", []) + [a for a in by.get("act", []) if a.get("action") in unique
                                           and unique[a.get("action") or ""].kind == "attack"]
        life = hero_stats(h).life
        if "potion" in by and h.wounds * 2 >= life:
            return by["potion"][0]
        if offence and pick.random() < 0.9:
            return pick.choice(offence)
        heals = [a for a in by.get("act", []) if a.get("action") == "heal"]
        if heals and pick.random() < 0.3:
            return pick.choice(heals)
        chest = [a for a in by.get("act", []) if a.get("action") in ("picklock", "smash")]
        if chest and pick.random() < 0.5:
            return pick.choice(chest)
        moves = by.get("move", [])
        if moves:
            near = useful_moves(st, h, moves)
            if near:
                return near[0] if pick.random() < 0.7 else pick.choice(near[:4])
            goals = [sq for k in enemy_keys(st) for sq in target_fp(st, k)]
            if goals:
                def gap(a: Action) -> int:
                    x, y = parse_label(a.get("to") or "") or (h.x, h.y)
                    return min(max(abs(x - gx), abs(y - gy)) for gx, gy in goals)
                best = min(gap(a) for a in moves)
                if best < min(max(abs(h.x - gx), abs(h.y - gy)) for gx, gy in goals):
                    return pick.choice([a for a in moves if gap(a) == best])
        return by["end"][0] if "end" in by else None

    def late_start(self, state: Any, seed: int) -> tuple[Any, str] | None:
        """Level 2, 3 or 4, and most often a weakened level 4 (the quickest way to the end game)."""
        name = random.Random(seed).choice(LATE_STARTS)
        return self.rebuild_start(state, name), name

    def rebuild_start(self, state: Any, name: str) -> Any:
        """The party at the break before level N: the earlier spawn points destroyed with their bosses, their monsters
        and pools gone, their chests opened; each hero has picked up one card per level from the top of the
        loot deck and one from the treasure deck (as far as it may carry) and walked to the new level, to the
        free squares five to seven steps from its spawn point; then the engine's own `open_level` opens level
        N (heroes restored, its monsters spawned, the break between levels). `weakened`: the spawn point has
        one life left and its pool only its last three monsters (the boss among them). The runner checks the
        invariants on the result before play starts."""
        words = name.split()
        if words[:1] != ["level"] or len(words) not in (2, 3) or not words[1].isdigit() or words[2:] not in (
                [], ["weakened"]):
            raise ValueError(f"no late start called {name!r} (level N, or level N weakened)")
        st: DungeonState = state.model_copy(deep=True)
        level = int(words[1]) - 1
        if not 0 < level < len(st.levels):
            raise ValueError(f"the dungeon has no level {level + 1} to start at")
        for lv in st.levels[:level]:
            lv.active, lv.destroyed, lv.boss_defeated, lv.pool, lv.spawn_wounds = True, True, True, [], 0
            lv.chest = "open"
        st.monsters = []
        for _ in range(level):
            for h in st.heroes:
                if st.loot_deck and can_carry(h, st.loot_deck[0]):
                    h.equipment.append(st.loot_deck.pop(0))
        for h in st.heroes:  # and one treasure card each, as the opened chests gave
            if st.treasure_deck and can_carry(h, st.treasure_deck[0]):
                h.equipment.append(st.treasure_deck.pop(0))
        b = board(st.dungeon)
        dist = b.route_distances([b.spawns[level]], structures(st), 12)
        # structures, and every level's chest: the new level's chest is placed (closed) when the level opens
        blocked = structures(st) | set(b.chests)
        free = sorted((d, sq[1], sq[0]) for sq, d in dist.items()
                      if 5 <= d <= 7 and b.tile_of(sq) == level and sq not in b.chasms and sq not in blocked)
        for h, (_, y, x) in zip(st.heroes, free, strict=False):
            h.x, h.y = x, y
        if "weakened" in words:
            st.levels[level].spawn_wounds = content().rules.spawn_point.life - 1
            st.levels[level].pool = st.levels[level].pool[-3:]
        open_level(st, level, [], breather=True)
        return st

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
            # wounds past life are allowed (rule: an incapacitated hero can still receive wounds), but such a
            # hero does nothing at all: an activation it is in has no AP left
            if is_incap(h) and st.activation is not None and st.activation.hero == h.id and st.activation.ap > 0:
                out.append(f"{h.id} is incapacitated ({h.wounds} wounds) but still has {st.activation.ap} AP")
        for m in st.monsters:
            if not 0 <= m.wounds < monster_def(m).life and st.attack is None:
                out.append(f"monster {m.uid} ({m.kind}) has {m.wounds} wounds of {monster_def(m).life} and is still on "
                           "the board")
        taken: dict[tuple[int, int], str] = {}
        blocked = structures(st)
        models: list[tuple[str, tuple[tuple[int, int], ...]]] = [(f"hero {h.id}", ((h.x, h.y),)) for h in st.heroes]
        models += [(f"monster {m.uid} ({m.kind})", mfp(m)) for m in st.monsters]
        for who, fp in models:
            for sq in fp:
                if not b.inside(sq):
                    out.append(f"{who} stands off the board at {sq}")
                elif sq in blocked or (who.startswith("hero") and sq in b.chasms):
                    out.append(f"{who} stands on a structure{' or in a chasm' * who.startswith('hero')} at {sq}")
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
        return ("level 2 reached", "level 3 reached", "level 4 reached", "phase intermission", "boss appears",
                "boss defeated", "victory", "defeat")
