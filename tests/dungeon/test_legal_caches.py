"""The memos behind the acting hero's legal list are exact and bounded: `reach.Near` gives what a route table
from the hero's square says for every square and range, its table stays under `NEAR_LIMIT`, and
`loot.can_drop`, remembered, answers as the hero weighed afresh."""
from __future__ import annotations

from games.core import Seat
from games.core.playout import random_playout
from games.dungeon import ENGINE, loot, reach
from games.dungeon.board import board
from games.dungeon.data import content
from games.dungeon.sight import structures
from games.dungeon.state import DungeonState
from games.dungeon.stats import hero


def _acting_states() -> list[DungeonState]:
    seen: list[DungeonState] = []
    seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(4)]
    random_playout(ENGINE, {}, seats, 5, cap=200, checked=False,
                   each=lambda before, player, action, after, events: seen.append(before))
    return [s for s in seen if s.activation is not None]


def test_near_masks_are_the_route_table_and_bounded() -> None:
    checked = 0
    for st in _acting_states()[::3]:
        assert st.activation is not None
        h = hero(st, st.activation.hero)
        b = board(st.dungeon)
        near = reach.near(b, (h.x, h.y), structures(st))
        table = b.route_table(((h.x, h.y),), structures(st), 9)
        for rng in (3, 0, 9, 1):  # out of order: grown masks must not depend on it
            mask = near.upto(rng)
            for n, sq in enumerate(b.squares):
                assert bool(mask >> n & 1) == (table.get(sq, 999) <= rng), (sq, rng)
                checked += 1
    assert checked > 10_000
    for i in range(reach.NEAR_LIMIT + 10):
        reach.near(board("crystal_caverns"), (i % 20, i // 20 % 20), frozenset({(0, i)}))
        assert len(reach._NEAR) <= reach.NEAR_LIMIT


def test_can_drop_remembered_answers_as_the_hero_weighed_afresh() -> None:
    """Every card in every acting hero's kit (its own, and each loot or treasure card added to it) is answered alike."""
    cards = sorted(content().cards)
    asked = 0
    for st in _acting_states()[::5]:
        for h in st.heroes:
            for extra in cards:
                kit = h.model_copy(update={"equipment": [*h.equipment, extra]})
                for cid in kit.equipment:
                    assert loot.can_drop(kit, cid) == loot._stands_without(kit, cid), (kit.id, kit.equipment, cid)
                    asked += 1
    assert asked > 500
    assert 0 < len(loot._DROPS) <= loot.DROPS_LIMIT
