"""The fast searches of the dungeon (move options over square numbers, route tables over bitmasks, large
monsters' fields over anchor bitmasks) against plain textbook versions: same answers, same order."""
from __future__ import annotations

import heapq
import random
from collections import deque
from collections.abc import Callable

import pytest

from games.dungeon import monsters
from games.dungeon.board import Board, Sq, board, footprint
from games.dungeon.maps import dungeon_ids
from games.dungeon.moves import _K, NEVER, search_small

MAPS = [d for d in dungeon_ids() if d != "random"] + ["random-1"]


def heap_search(b: Board, first: int, allowance: int, blk: bytearray, stepc: list[int], no_end: bytearray,
                ) -> dict[Sq, tuple[int, int, tuple[Sq, ...]]]:
    """Dijkstra with a heap of (key, square): the reference order of squares reached and of paths."""
    blk[-1] = 0
    blk[first] = 0
    stepc[first] = _K
    over = (allowance + 1) * _K
    best = {first: 0}
    prev: dict[int, int] = {}
    reached = [first]
    heap = [(0, first)]
    while heap:
        key, cur = heapq.heappop(heap)
        if best[cur] < key:
            continue
        for nxt, s1, s2 in b.nsteps[cur]:
            nk = key + stepc[nxt]
            if nk >= best.get(nxt, over) or blk[s1] or blk[s2]:
                continue
            if nxt not in best:
                reached.append(nxt)
            best[nxt] = nk
            prev[nxt] = cur
            heapq.heappush(heap, (nk, nxt))
    out = {}
    for n in reached:
        if n == first or no_end[n]:
            continue
        path = []
        node = n
        while node != first:
            path.append(b.squares[node])
            node = prev[node]
        out[b.squares[n]] = (best[n] // _K, best[n] % _K, tuple(reversed(path)))
    return out


@pytest.mark.parametrize("dungeon_id", MAPS)
def test_move_options_search_finds_the_squares_costs_and_paths_of_a_plain_dijkstra(dungeon_id: str) -> None:
    """Moves cost 1 (2 into difficult terrain), hazards are avoided at equal cost, models block: the search
    over square numbers gives the reference's squares, costs, hazards and paths, in the order a heap takes them."""
    b = board(dungeon_id)
    size = b.width * b.height
    pick = random.Random(7)
    for _ in range(150):
        blk = bytearray(size + 1)
        stepc = [_K] * size
        no_end = bytearray(size)
        for n in pick.sample(range(size), pick.randint(0, 40)):
            stepc[n] = pick.choice((2 * _K, _K + 1, 2 * _K + 1))
        for n in pick.sample(range(size), pick.randint(0, 60)):
            blk[n] = 1
            stepc[n] = NEVER
        for n in pick.sample(range(size), pick.randint(0, 30)):
            no_end[n] = 1
        first, allowance = pick.randrange(size), pick.randint(1, 9)
        want = heap_search(b, first, allowance, bytearray(blk), list(stepc), bytearray(no_end))
        got = search_small(b, first, allowance, bytearray(blk), list(stepc), bytearray(no_end))
        # the same squares, costs, hazards and paths; listed in the order a heap takes them (cheapest first,
        # then by square number: squares order as their numbers do)
        assert list(got.items()) == sorted(want.items(), key=lambda kv: (kv[1][0], kv[1][1], kv[0]))


def plain_routes(b: Board, sources: list[Sq], structures: frozenset[Sq], limit: int) -> dict[Sq, int]:
    dist = {s: 0 for s in sources}
    queue = deque(sources)
    while queue:
        cur = queue.popleft()
        if dist[cur] >= limit or (cur in structures and dist[cur] > 0):
            continue
        for _d, nxt, sides in b.steps[cur]:
            if nxt not in dist and not (sides and (sides[0] in structures or sides[1] in structures)):
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist


@pytest.mark.parametrize("dungeon_id", MAPS)
def test_route_tables_by_rings_of_bitmasks_match_a_plain_breadth_first_search(dungeon_id: str) -> None:
    """Routes go around walls and structures (reached, never passed; no diagonal past one): the ring-by-ring
    bitmask search gives every square the plain search's distance, within the limit."""
    b = board(dungeon_id)
    pick = random.Random(11)
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    for _ in range(60):
        structures = b.static_structures | frozenset(pick.sample(squares, pick.randint(0, 25)))
        sources = pick.sample(squares, pick.randint(1, 3))
        limit = pick.choice((1, 3, 7, 14, 99))
        assert b.route_distances(sources, structures, limit) == plain_routes(b, sources, structures, limit)


def plain_field(b: Board, blocked: frozenset[Sq], ghost: bool, tdist: dict[Sq, int], rng: int) -> dict[Sq, int]:
    def fits(a: Sq) -> bool:
        return all(b.inside(s) and s not in blocked for s in footprint(a[0], a[1], True)) and (
            ghost or not b.internal_walls(*a))

    ok = {(x, y) for x in range(b.width - 1) for y in range(b.height - 1) if fits((x, y))}
    field = {a: 0 for a in ok if min(tdist.get(s, 999) for s in footprint(a[0], a[1], True)) <= rng}
    queue = deque(field)
    while queue:
        cur = queue.popleft()
        cur_fp = footprint(cur[0], cur[1], True)
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            nxt = (cur[0] + d[0], cur[1] + d[1])
            if nxt in field or nxt not in ok:
                continue
            if not ghost and any((s, d) not in b.step_set for s in cur_fp):
                continue
            if d[0] and d[1] and blocked:
                new_fp = footprint(nxt[0], nxt[1], True)
                sides = {q for s in cur_fp for q in ((s[0] + d[0], s[1]), (s[0], s[1] + d[1]))}
                if any(q in blocked for q in sides if q not in cur_fp and q not in new_fp):
                    continue
            field[nxt] = field[cur] + 1
            queue.append(nxt)
    return field


@pytest.mark.parametrize("dungeon_id", MAPS)
def test_large_monster_field_matches_a_plain_search_over_base_positions(dungeon_id: str) -> None:
    """A 2x2 base heads for the nearest base position within attack range of its target, by steps its whole
    base may take (walls, structures beside a diagonal): the bitmask field equals the plain search's."""
    b = board(dungeon_id)
    pick = random.Random(5)
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    for _ in range(20):
        blocked = b.static_structures | b.chasms | frozenset(pick.sample(squares, pick.randint(0, 10)))
        ghost = pick.random() < 0.3
        target = pick.choice(squares)
        tdist = b.route_distances([target], blocked, 99)
        rng = pick.choice((1, 2, 5))
        ok, moves = monsters._anchor_steps(b, blocked, ghost)
        got = monsters.field_from(b, ok, moves, tdist, rng)
        assert got == plain_field(b, blocked, ghost, tdist, rng)


def test_a_one_square_monster_moves_by_masks_as_by_its_listed_options() -> None:
    """A one-square monster picks its square from the masks of its options and of the target's route table
    (`monsters._move_small`): the same square, path, hazards and words as the listed options give (cheapest in
    reach first; else nearest by route, then cheapest, by row, by column; else it finds no way closer), over the
    monsters of random play."""
    from games.core import Seat
    from games.core.phases import copy_state
    from games.core.playout import random_playout
    from games.dungeon.engine import DungeonGame
    from games.dungeon.nearest import hero_side
    from games.dungeon.state import DungeonState
    from games.dungeon.stats import monster_def

    game = DungeonGame()
    states: list[DungeonState] = []
    for seed in range(6):
        seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(1, 5)]
        random_playout(game, {}, seats, seed, cap=150, checked=False,
                       each=lambda before, *_: states.append(before))  # type: ignore[arg-type]
    listed = monsters.monster_moves
    outcomes: set[str] = set()
    for st in states[::3]:
        for m in st.monsters:
            if monster_def(m).large or st.phase != "heroes":
                continue
            target = monsters.choose_target(st, m)
            if target is None:
                continue
            runs = []
            for lazy in (True, False):
                copy = copy_state(st)
                mine = next(o for o in copy.monsters if o.uid == m.uid)
                aim = next(h for h in copy.heroes if h.id == target.id)
                lines: list[str] = []
                if lazy:  # with the heroes' side as a monster's reaction passes it (the heroes as masks)
                    monsters.move_monster(copy, mine, aim, lines, side=hero_side(copy))
                else:  # the options listed in a plain mapping (the heroes one by one): the path that sorts them
                    monsters.monster_moves = lambda s, mm, lazy=False, side=None: listed(s, mm)  # type: ignore[assignment]
                    try:
                        monsters.move_monster(copy, mine, aim, lines)
                    finally:
                        monsters.monster_moves = listed
                runs.append((lines, copy.model_dump_json()))
            assert runs[0] == runs[1]
            outcomes.add(runs[0][0][0].split(" ")[-2] if runs[0][0] else "")
    assert len(states) > 300 and {"to", "way"} <= outcomes  # "moves to ..." and "finds no way closer." both met


def test_a_heros_move_actions_are_its_move_options_by_row_then_column() -> None:
    """The `move` actions come from the search's masks row by row: exactly the squares of `move_options`, ordered
    by row then column, over the active heroes of random play."""
    from games.core import Seat
    from games.core.grid import parse_label
    from games.core.playout import random_playout
    from games.dungeon import hero_actions
    from games.dungeon.engine import DungeonGame
    from games.dungeon.state import DungeonState
    from games.dungeon.stats import hero

    states: list[DungeonState] = []
    for seed in range(4):
        seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(1, 4)]
        random_playout(DungeonGame(), {}, seats, seed, cap=120, checked=False,
                       each=lambda before, *_: states.append(before))  # type: ignore[arg-type]
    checked = 0
    for st in states:
        if st.activation is None:
            continue
        h = hero(st, st.activation.hero)
        got = [parse_label(a.get("to", "") or "") for a in hero_actions.move_actions(st, h)]
        want = sorted(hero_actions.move_options(st, h), key=lambda sq: (sq[1], sq[0]))
        assert got == want
        checked += bool(want)
    assert checked > 50


@pytest.mark.parametrize("dungeon_id", MAPS)
def test_base_moves_over_masks_find_the_squares_costs_and_paths_of_the_heap_search(dungeon_id: str) -> None:
    """Large bases, ghosts and burrowers: the search over masks (`base_moves`) gives `move_search`'s (a heap of
    (movement, hazards, anchor)) anchors, costs, hazards and paths, over random blocked, slow, hurting and
    occupied squares."""
    from games.dungeon.moves import base_moves, move_search

    b = board(dungeon_id)
    hgt = b.height
    pick = random.Random(3)
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    for trial in range(80):
        large, ghost = trial % 2 == 0, trial % 3 == 0
        if not (large or ghost):
            ghost = True
        blocked = set(pick.sample(squares, pick.randint(0, 60)))
        slow = set(pick.sample(squares, pick.randint(0, 50)))
        hurt = set(pick.sample(squares, pick.randint(0, 30)))
        no_end = set(pick.sample(squares, pick.randint(0, 40)))
        start = pick.choice(squares)
        own = set(footprint(*start, large))
        allowance = pick.randint(1, 8)

        def bits(sqs: set[Sq]) -> int:
            return sum(1 << (x * hgt + y) for x, y in sqs if b.inside((x, y)))

        want = move_search(b, start, large, allowance, passable=_test_of(b, blocked, False),
                           can_end=_test_of(b, no_end, True), cost_of=_score_of(slow, 2, 1),
                           hazard_of=_score_of(hurt, 1, 0), ignore_walls=ghost)
        every = (1 << (b.width * hgt)) - 1
        passable = every & ~bits(blocked)
        got = base_moves(b, start[0] * hgt + start[1], large, ghost, allowance, passable, passable | bits(own),
                         bits(slow), bits(hurt), (every & ~bits(no_end)) | bits(own))
        came = {sq: got.came_from(sq) for sq in got}  # asked before the paths are made, and after
        assert {sq: (c, h, got.path(sq)) for sq, (c, h) in got.items()} == want
        assert came == {sq: got.came_from(sq) for sq in got} == {
            sq: path[-2] if len(path) >= 2 else start for sq, (_c, _h, path) in want.items()}
        assert list(got) == sorted(got, key=lambda sq: (*got[sq], sq))


def _test_of(b: Board, sqs: set[Sq], outside: bool) -> Callable[[Sq], bool]:
    """A square test: not one of `sqs` (off the board: `outside`)."""
    return lambda s: s not in sqs and (outside or b.inside(s))


def _score_of(sqs: set[Sq], inside: int, outside: int) -> Callable[[Sq], int]:
    return lambda s: inside if s in sqs else outside


def test_base_moves_count_every_hurting_square_a_step_enters() -> None:
    """A large base's step enters two squares (three on a diagonal), each hurting or not: with hurting squares
    everywhere, in every other column or on a checkerboard, `base_moves` counts the hazards as the heap search does."""
    from games.dungeon.moves import base_moves, move_search

    b = board("crystal_caverns")
    hgt = b.height
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    every = (1 << (b.width * hgt)) - 1
    for hurt in (set(squares), {s for s in squares if s[0] % 2}, {s for s in squares if (s[0] + s[1]) % 2}):
        for start in ((3, 3), (10, 12), (17, 6)):
            want = move_search(b, start, True, 6, passable=_test_of(b, set(), False), can_end=_test_of(b, set(), True),
                               cost_of=_score_of(set(), 2, 1), hazard_of=_score_of(hurt, 1, 0))
            hurts = sum(1 << (x * hgt + y) for x, y in hurt)
            got = base_moves(b, start[0] * hgt + start[1], True, False, 6, every, every, 0, hurts, every)
            assert {sq: (c, h, got.path(sq)) for sq, (c, h) in got.items()} == want
            assert len(want) > 20
