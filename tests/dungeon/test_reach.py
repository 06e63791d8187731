"""The acting hero's remembered ranges and sight (`reach.Reach`, used to list legal actions) give the verdicts of
the reference checks they stand in for: `sight.hero_can_target` for attacks and offence actions (range by
route, then line of sight), `hero_actions.heal_reach` for heals and assists, `sight.target_label` for the square
named, over every state of a few random games."""
from __future__ import annotations

from games.core import Seat
from games.core.playout import random_playout
from games.dungeon import ENGINE
from games.dungeon.hero_actions import heal_reach
from games.dungeon.reach import Reach
from games.dungeon.sight import enemy_keys, hero_can_target, target_label
from games.dungeon.state import DungeonState
from games.dungeon.stats import hero


def _acting_states() -> list[DungeonState]:
    seen: list[DungeonState] = []
    for seed, n in ((3, 6), (11, 4), (19, 2)):
        seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)]
        random_playout(ENGINE, {}, seats, seed, cap=250, checked=False,
                       each=lambda before, player, action, after, events: seen.append(before))
    return [s for s in seen if s.activation is not None]


def test_reach_gives_the_reference_verdicts_for_enemies_and_heroes() -> None:
    checked = hits = 0
    for st in _acting_states():
        assert st.activation is not None
        h = hero(st, st.activation.hero)
        r = Reach(st, h)
        assert r.keys == enemy_keys(st)
        for key in r.keys:
            assert r.label(key) == target_label(st, key)
            for rng in (3, 0, 1, 2, 6):  # asked out of order: the remembered answers must not depend on it
                want = hero_can_target(st, h, key, rng)[0]
                assert r.can_target(key, rng) == want, (key, rng)
                checked += 1
                hits += want
        for rng in (1, 0, 3):
            assert r.targets(rng) == [k for k in enemy_keys(st) if hero_can_target(st, h, k, rng)[0]]
            for t in st.heroes:
                assert r.reaches_hero(t, rng) == heal_reach(st, h, t, rng), (t.id, rng)
    assert checked > 500 and 0 < hits < checked  # enough states, and both verdicts met
