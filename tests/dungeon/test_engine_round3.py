"""The third round of engine work (identical play): what the faster paths read equals what they replaced."""
from __future__ import annotations

from games.core import Seat, all_games
from games.core.playout import random_playout
from games.dungeon import stats
from games.dungeon.board import board
from games.dungeon.data import content
from games.dungeon.phases import base

ENGINE = all_games()["dungeon"]


def _states(seed: int) -> list:
    seen: list = []
    seats = [Seat(player=f"b{i}", name=f"Bench {i}") for i in range(1, 5)]
    random_playout(ENGINE, {}, seats, seed, cap=300, checked=False, each=lambda b, p, a, after, e: seen.append(after))
    return seen


def test_hero_fields_read_from_the_dict_equal_the_attributes_and_statuses_equal_fresh_ones() -> None:
    for st in _states(7)[::5]:
        for h in st.heroes:
            assert stats.is_incap(h) == (h.wounds >= stats.stat_line(h).life)
        assert stats.hero_side_key(st.heroes) == tuple(
            ((h.id, h.profile, *h.equipment), h.x, h.y, h.seat, stats.is_incap(h)) for h in st.heroes)
        assert [t[1:] for t in stats.hero_lines(st.heroes)] == [(h.wounds, h.x, h.y) for h in st.heroes]
        status = ENGINE.status(st)
        base._STATUSES.clear()  # fails if the remembered status differs from one built afresh
        assert ENGINE.status(st) == status


def test_hidden_cards_compare_as_the_digest_does() -> None:
    assert not [c for c in content().cards if "," in c or "|" in c]  # what makes tuples and digest agree
    states = _states(11)
    for a, b in zip(states, states[1:], strict=False):
        same = ENGINE.hidden_digest(a) == ENGINE.hidden_digest(b)
        assert (ENGINE.hidden_parts(a) == ENGINE.hidden_parts(b)) == same


def test_a_squares_steps_are_in_number_order() -> None:
    b = board(_states(3)[0].dungeon)
    assert all(list(steps) == sorted(steps) for steps in b.nsteps)
