"""Range by route is symmetric, so `sight.route` may search from the target's side (one table per target square)."""
from __future__ import annotations

import random

from games.dungeon.board import board, footprint


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
