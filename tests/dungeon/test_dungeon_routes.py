"""Range by route is symmetric, so `sight.route` may search from the target's side (one table per target square)."""
from __future__ import annotations

import random

from games.dungeon.board import Board, Sq, board, footprint


def test_route_from_either_end_is_the_same() -> None:
    """Searching from the model (limited to the range, as it used to) or from the target (whole table, then
    cut at the range) gives the same range, for small and large bases, structures anywhere, any range."""
    b = board("crystal_caverns")
    pick = random.Random(2)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    anchors = [(x, y) for y in range(b.height - 1) for x in range(b.width - 1)]
    checked = 0
    for _ in range(1500):
        structs = frozenset(b.static_structures | set(pick.sample(squares, pick.randint(0, 4))))
        src = footprint(*pick.choice(anchors), pick.random() < 0.3)
        dst = (pick.choice(squares),) if pick.random() < 0.8 else footprint(*pick.choice(anchors), True)
        if set(src) & set(dst):
            continue
        limit = pick.choice([1, 2, 3, 5, 99])
        forward = b.route_distances(src, structs, limit)
        there = min((forward[s] for s in dst if s in forward), default=999)
        backward = b.route_table(dst, structs)
        back = min((backward[s] for s in src if s in backward), default=999)
        assert there == (back if back <= limit else 999), (src, dst, limit, sorted(structs))
        checked += 1
    assert checked > 1000


def test_route_within_one_looks_at_the_steps_without_a_table() -> None:
    """`sight.route` with a limit of 1 (or 0) answers from the steps next to the destination: the same range as
    the whole table cut at the limit, for neighbours, diagonals past structures, walls and large bases."""
    from games.core import Seat
    from games.dungeon import sight
    from games.dungeon.engine import DungeonGame

    st = DungeonGame().setup({}, [Seat(player="a", name="A")], 1)
    b = board(st.dungeon)
    pick = random.Random(3)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    anchors = [(x, y) for y in range(b.height - 1) for x in range(b.width - 1)]
    structs = sight.structures(st)
    seen = {0: 0, 1: 0, 999: 0}
    for _ in range(4000):
        src = footprint(*pick.choice(anchors), pick.random() < 0.3)
        near = (src[0][0] + pick.randint(-2, 2), src[0][1] + pick.randint(-2, 2))
        dst = footprint(*near, pick.random() < 0.3) if pick.random() < 0.7 else (pick.choice(squares),)
        if not all(b.inside(s) for s in dst):
            continue
        table = b.route_table(dst, structs)
        d = 0 if set(src) & set(dst) else min((table[s] for s in src if s in table), default=999)
        for limit in (0, 1):
            got = sight.route(st, src, dst, limit)
            assert got == (d if d <= limit else 999), (src, dst, limit)
            seen[got] += 1
    assert min(seen.values()) > 100


def _plain_routes(b: Board, sources: tuple[Sq, ...], structs: frozenset[Sq], limit: int) -> dict[Sq, int]:
    """The route table by a plain breadth-first search over `Board.steps`, square by square: structures are
    reached but not passed through (a source may be one), a diagonal is shut by a structure beside it."""
    found = {s: 0 for s in sources}
    ring = list(sources)
    d = 0
    while ring and d < limit:
        nxt: list[Sq] = []
        for cur in ring:
            if d and cur in structs:
                continue
            for _d, to, sides in b.steps[cur]:
                if to in found or (sides and (sides[0] in structs or sides[1] in structs)):
                    continue
                found[to] = d + 1
                nxt.append(to)
        ring = nxt
        d += 1
    return found


def test_route_tables_built_from_masks_match_a_plain_search() -> None:
    """`board._routes` turns its search's rings into the table in a few whole-board steps (bit planes of the
    distances, `_table_of`): every square and distance as a plain search finds them, for one or several sources,
    structures anywhere and any limit; and `route_rings` holds the same squares per distance."""
    from games.dungeon.board import _routes, route_rings

    b = board("crystal_caverns")
    pick = random.Random(5)
    squares = [(x, y) for y in range(b.height) for x in range(b.width)]
    for _ in range(300):
        structs = frozenset(b.static_structures | set(pick.sample(squares, pick.randint(0, 6))))
        srcs = tuple(sorted(set(pick.sample(squares, pick.choice([1, 1, 1, 2, 4])))))
        limit = pick.choice([0, 1, 3, 14, 40, 99])
        table = _routes(b.id, srcs, structs, limit)
        assert table == _plain_routes(b, srcs, structs, limit), (srcs, limit)
        rings = route_rings(b, srcs, structs, limit)
        for d, ring in enumerate(rings):
            assert ring == b.sight_table.bits([s for s, e in table.items() if e == d])
