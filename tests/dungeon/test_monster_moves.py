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


def test_row_order_sorts_square_numbers_by_row_then_column() -> None:
    """`Board.row_order` (the sort key of the square a monster picks among equally good ones): by row, then column,
    on every shipped map, as (y, x) sorts them."""
    from games.dungeon.data import content

    for dungeon_id in sorted(content().dungeons):
        b = board(dungeon_id)
        numbers = list(range(len(b.squares)))
        assert sorted(b.row_order) == numbers
        by_row = sorted(numbers, key=lambda n: (n % b.height, n // b.height))
        assert sorted(numbers, key=b.row_order.__getitem__) == by_row


def test_shared_stat_lines_stay_as_built_after_play() -> None:
    """Moves and the end of an activation read the hero's shared stat line (`stat_line`, not a copy): after random
    games every hero's shared line still equals one built afresh (no caller changed it)."""
    from games.dungeon.stats import _build_stats, stat_line

    checked = 0
    for st in _states()[::7]:
        for h in st.heroes:
            assert stat_line(h) == _build_stats(h), h.id
            checked += 1
    assert checked > 100


def test_reach_test_is_range_by_route_and_sight() -> None:
    """`reach_test` (with the reaction's `hero_side` and without): a monster on a square has the hero in reach just
    when the route is within its attack range and it sees the hero (`sight.route`, `sight.sees`), over the squares
    around the monsters of random states."""
    from games.dungeon.monsters import reach_test
    from games.dungeon.nearest import hero_side
    from games.dungeon.sight import route, sees
    from games.dungeon.stats import hero_attributes, hfp, is_incap

    checked = hits = 0
    for st in _states()[::9]:
        b = board(st.dungeon)
        side = hero_side(st)
        for m in st.monsters:
            md = monster_def(m)
            if md.large:
                continue
            rng = md.attack.range
            for h in st.heroes:
                if is_incap(h):
                    continue
                tests = (reach_test(st, m, h, side), reach_test(st, m, h))
                for dx in range(-3, 4):
                    for dy in range(-3, 4):
                        sq = (m.x + dx, m.y + dy)
                        if not b.inside(sq):
                            continue
                        want = route(st, (sq,), hfp(h), rng) <= rng and sees(
                            st, "monsters", (sq,), set(md.attributes), hfp(h), hero_attributes(h))
                        assert all(t((sq,)) == want for t in tests), (m.kind, sq, h.id)
                        checked += 1
                        hits += want
    assert checked > 2000 and 0 < hits < checked
