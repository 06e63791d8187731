"""The monsters' move search reads each model's square once: its counts of the friends a large base would push back
(`monsters.pushed_count`, from `others_anchored`) are those of `pushed_by`, over the states of a few random games."""
from __future__ import annotations

from games.core import Seat
from games.core.playout import random_playout
from games.dungeon import ENGINE
from games.dungeon.board import board
from games.dungeon.monsters import others_anchored, pushed_by, pushed_count
from games.dungeon.state import DungeonState
from games.dungeon.stats import monster_def


def _states() -> list[DungeonState]:
    seen: list[DungeonState] = []
    for seed, n in ((5, 6), (13, 3)):
        seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)]
        random_playout(ENGINE, {}, seats, seed, cap=300, checked=False,
                       each=lambda before, player, action, after, events: seen.append(before))
    return seen


def test_pushed_count_is_the_number_of_friends_pushed_by() -> None:
    checked = pushing = 0
    for st in _states()[::3]:
        b = board(st.dungeon)
        for m in st.monsters:
            if not monster_def(m).large:
                continue
            anchors = others_anchored(st, m)
            assert sum(anchors.values()) == len(st.monsters) - 1
            for x in range(b.width - 1):
                for y in range(b.height - 1):
                    want = len(pushed_by(st, m, (x, y)))
                    assert pushed_count(anchors, (x, y)) == want, (m.uid, (x, y))
                    checked += 1
                    pushing += want > 0
    assert checked > 5000 and 0 < pushing < checked


def test_a_heroes_side_has_its_states_structures() -> None:
    """A monster's reaction takes the structures from its `hero_side` (`HeroSide.structs`): over random states, and
    after a spawn point of the same state falls or a chest opens, the side found is of the structures as they are."""
    from games.dungeon.nearest import hero_side
    from games.dungeon.sight import structures

    changed = 0
    for st in _states()[::4]:
        assert hero_side(st).structs == structures(st)
        before = structures(st)
        for lv in st.levels:
            if not lv.destroyed:
                lv.destroyed = True
                break
        else:
            continue
        assert hero_side(st).structs == structures(st) != before
        changed += 1
    assert changed > 20


def test_kinds_with_an_attribute_are_those_whose_attributes_hold_it() -> None:
    """`attributes.kinds_with` (the quick "no monster here has it" test of the friends' auras) for every attribute
    the content gives a monster, and for one none has."""
    from games.dungeon.attributes import kinds_with
    from games.dungeon.data import content

    monsters = content().monsters
    every = {a for md in monsters.values() for a in md.attributes}
    assert {"savage", "mob", "packmaster"} <= every
    for attr in every:
        assert kinds_with(attr) == {k for k, md in monsters.items() if attr in md.attributes}
    assert kinds_with("no such attribute") == frozenset()


def test_a_sides_blocking_squares_are_those_of_sight_blockers() -> None:
    """`HeroSide.blockers` (remembered per hero and per kind of monster) gives `sight.blockers`' squares for a
    monster that flies or is small or not, asked first and again, for every hero of random states."""
    from games.dungeon.nearest import hero_side
    from games.dungeon.sight import blockers
    from games.dungeon.stats import hero_attributes

    checked = 0
    for st in _states()[::5]:
        side = hero_side(st)
        for _ in range(2):
            for i, h in enumerate(st.heroes):
                for fly in (False, True):
                    for small in (False, True):
                        attrs = ("fly",) * fly + ("small",) * small
                        assert side.blockers(i, fly, small) == blockers(st, "monsters", attrs, hero_attributes(h))
                        checked += 1
    assert checked > 1000
