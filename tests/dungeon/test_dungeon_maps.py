"""Dungeons: the hand-made ones as data, and the ones built from tiles (`dungeon:random`).

Rules checked: the heroes clear four levels in order, each opened through the previous one (Game Progression);
no hero may come within three squares of a visible spawn point that has not opened yet (Hero Turn), so no such
screen may shut the way to the level being played; monsters spawn as close to their spawn point as they can and
in its sight (Monsters React); a boss may be a large model that must get round the map (Movement).
"""
from __future__ import annotations

import pytest
from dhelpers import scene

from games.core import IllegalAction, Seat
from games.core.playout import random_playout
from games.dungeon import ENGINE as E
from games.dungeon import maps, monsters, sight
from games.dungeon.board import STRUCTURE_TERRAIN, Board, board
from games.dungeon.commands import OPTIONS
from games.dungeon.data import content, validate_dungeon
from games.dungeon.state import MonsterState

HAND_MADE = list(content().dungeons)  # data order: the default (crystal_caverns) first
SCREEN = content().rules.screen_range


def seats(n: int = 4) -> list[Seat]:
    heroes = ["ruby", "candy", "nyannyan", "emerald", "vonwilding", "jacques"]
    return [Seat(player="ann", name="Ann", choices={"hero": heroes[i]}) for i in range(n)]


def reachable_levels(b: Board) -> list[bool]:
    """For each level k, played with levels > k still shut: can heroes on foot (spawn points and chests standing,
    the screens of the unopened spawn points avoided) get next to the level's spawn point and into its area?"""
    blocked = b.static_structures | b.chasms | set(b.spawns) | set(b.chests)
    out = []
    for k in range(len(b.spawns)):
        screens = set().union(*(b.screen(i, SCREEN) for i in range(k + 1, len(b.spawns))))
        seen = {b.start[0]}
        todo = [b.start[0]]
        while todo:
            sq = todo.pop()
            for _, nxt, sides in b.steps[sq]:
                if nxt in seen or nxt in blocked or nxt in screens or any(s in blocked for s in sides):
                    continue
                seen.add(nxt)
                todo.append(nxt)
        sx, sy = b.spawns[k]
        next_to = any((sx + dx, sy + dy) in seen for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        out.append(next_to and not (set(b.start) & screens))
    return out


def spawn_room(b: Board, level: int) -> int:
    """Free squares within two steps of the spawn point that it sees (where opening monsters appear)."""
    sp = b.spawns[level]
    blocked = b.static_structures | b.chasms | {b.chests[level]}
    near = b.route_distances([sp], b.static_structures | {sp}, 2)
    return sum(1 for sq, d in near.items() if 0 < d <= 2 and sq not in blocked and b.sight([sp], [sq], blocked))


def check_dungeon(d) -> None:
    validate_dungeon(content(), d)
    b = Board(d)
    assert all(reachable_levels(b)), d.id
    assert len(set(b.start)) == 6 and all(b.tile_of(s) == 0 for s in b.start)
    sx, sy = b.spawns[0]  # house: no hero reaches the first spawn point on the first move
    assert min(max(abs(x - sx), abs(y - sy)) for x, y in b.start) >= 6, d.id
    for k, sp in enumerate(b.spawns):
        assert b.tile_of(sp) == k and b.terrain_at(sp) == "open"
        # room for the opening monsters (up to six heroes: six of them) and more in the spawn point's sight
        assert spawn_room(b, k) >= 8, (d.id, k)
        cx, cy = b.chests[k]
        assert b.tile_of(b.chests[k]) == k and max(abs(cx - sp[0]), abs(cy - sp[1])) >= 2, (d.id, k)
    for k in range(1, len(b.spawns)):  # each level is entered from the one before: they share a door
        assert any(b.tile_of(nxt) == k for sq in b.terrain_squares(frozenset({"open", "difficult"}))
                   if b.tile_of(sq) == k - 1 for _, nxt, _ in b.steps[sq]), (d.id, k)


# ---- hand-made dungeons ----------------------------------------------------------------------------
def test_at_least_three_hand_made_dungeons_of_four_levels_each_with_monsters_of_every_rank():
    assert len(HAND_MADE) >= 3
    for did in HAND_MADE:
        d = content().dungeons[did]
        assert len(d.levels) == 4
        for lv in d.levels:
            ranks = [content().monsters[m].rank for m in lv.pool]
            assert ranks.count("boss") == 1 and "minion" in ranks and "elite" in ranks, (did, lv.name)


@pytest.mark.parametrize("dungeon_id", HAND_MADE)
def test_rule_each_hand_made_dungeon_opens_every_level_in_order_and_spawn_points_have_room(dungeon_id):
    check_dungeon(content().dungeons[dungeon_id])


def test_the_dungeon_option_offers_every_hand_made_dungeon_and_random_and_refuses_others():
    spec = next(o for o in OPTIONS if o.name == "dungeon")
    assert spec.choices == (*HAND_MADE, "random") and spec.default == "crystal_caverns"
    for did in (*HAND_MADE, "random"):
        E.check_options({"dungeon": did})
    with pytest.raises(IllegalAction) as exc:
        E.check_options({"dungeon": "moria"})
    assert "random" in exc.value.hint and "gloom_keep" in exc.value.hint


@pytest.mark.parametrize("dungeon_id", HAND_MADE[1:])
def test_a_game_in_a_hand_made_dungeon_starts_on_its_map_and_plays_to_the_end(dungeon_id):
    st = E.setup({"dungeon": dungeon_id}, seats(), 3)
    d = content().dungeons[dungeon_id]
    assert st.dungeon == dungeon_id and len(st.monsters) == 4  # max(2, four heroes) open the first level
    assert {maps.square(s) for s in d.start[:4]} == {(h.x, h.y) for h in st.heroes}
    out = random_playout(E, {"dungeon": dungeon_id}, seats(), 3, cap=4000)
    assert out.finished and out.state.result in ("victory", "defeat")


# ---- dungeons built from tiles -----------------------------------------------------------------------
def test_every_tile_has_room_for_a_spawn_point_and_is_well_formed():
    for t in maps.tiles():
        lay = maps.place_tiles([(t, 0)], [(0, 0)], lambda options: options[0])
        assert lay is not None and maps.spawn_spots(lay, 0, []), t.id


def test_rule_three_hundred_built_dungeons_open_every_level_in_reach_with_spawn_points_as_the_rules_want():
    """Hundreds of seeds: each builds (the generator never gives up), passes the data checks of a hand-made dungeon,
    and for every level: reachable on foot from the start without entering an unopened spawn point's screen,
    entered through the previous level, its spawn point on open ground in its own tile with room in its sight."""
    layouts = set()
    for n in range(300):
        d = maps.built(n)
        assert d.id == f"random-{n}" and maps.dungeon_def(d.id) is d
        layouts.add(d.terrain)
        if n % 15 == 0:  # the board checks (line of sight) on every 15th; each passed the data checks as built
            check_dungeon(d)
    assert len(layouts) > 200  # tiles, turns, orders and doors vary


def test_the_same_number_builds_the_same_dungeon():
    maps.built.cache_clear()
    first = maps.built(12345)
    maps.built.cache_clear()
    assert maps.built(12345) == first


def test_dungeon_random_draws_the_layout_from_the_game_seed():
    a = E.setup({"dungeon": "random"}, seats(), 7)
    b = E.setup({"dungeon": "random"}, seats(), 7)
    c = E.setup({"dungeon": "random"}, seats(), 8)
    assert maps.is_random(a.dungeon) and a.dungeon == b.dungeon and E.dump(a) == E.dump(b)
    assert c.dungeon != a.dungeon
    d = maps.dungeon_def(a.dungeon)
    assert {maps.square(s) for s in d.start[:4]} == {(h.x, h.y) for h in a.heroes}
    assert E.view(a, None).level_name == d.levels[0].name and len(a.monsters) == 4
    assert E.load(E.dump(a)) == a  # the saved game names the layout by its number only
    assert E.status(a).waiting_for.endswith(f"to activate a hero ({d.name}, built from tiles)")  # said at the start


@pytest.mark.parametrize("seed", range(3))
def test_random_dungeon_games_play_to_the_end(seed):
    out = random_playout(E, {"dungeon": "random"}, seats(1 + seed), seed, cap=4000)
    assert out.finished and out.state.result in ("victory", "defeat")


@pytest.mark.parametrize("dungeon_id", [*HAND_MADE[1:], "random-0", "random-1", "random-2"])
def test_every_level_boss_can_reach_almost_all_of_its_level(dungeon_id):
    """Large bosses get round every hand-made and built map (doors and passages two squares wide)."""
    d = maps.dungeon_def(dungeon_id)
    for lvl, ldef in enumerate(d.levels):
        st = scene("ruby@A1", level=lvl)
        st.dungeon = dungeon_id
        b = board(dungeon_id)
        boss = next(k for k in ldef.pool if content().monsters[k].rank == "boss")
        x, y = b.spawns[lvl]
        near_spawn = {(x + dx, y + dy): 0 for dx in range(-2, 3) for dy in range(-2, 3)}
        field = monsters.large_field(st, MonsterState(uid=99, kind=boss, x=0, y=0, level=lvl), near_spawn)
        x0, y0, x1, y1 = b.areas[lvl]
        open_sq = [(i, j) for j in range(y0, y1 + 1) for i in range(x0, x1 + 1)
                   if (i, j) not in sight.structures(st) and (i, j) not in b.chasms
                   and b.terrain[j][i] not in STRUCTURE_TERRAIN]
        reached = [s for s in open_sq if any((s[0] + dx - ax, s[1] + dy - ay) in field
                                             for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                             for ax in (0, 1) for ay in (0, 1))]
        assert len(open_sq) - len(reached) <= 4, (dungeon_id, boss, sorted(set(open_sq) - set(reached)))


def test_boards_of_built_dungeons_are_not_kept_for_ever():
    """A bot running many random games keeps a bounded number of boards (each caches lines of sight)."""
    for n in range(40):
        board(f"random-{n}")
    assert board.cache_info().currsize <= 32 and board.cache_info().maxsize == 32
