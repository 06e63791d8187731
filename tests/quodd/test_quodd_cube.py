"""The hero cube: exact orientation after tumbles and spins (24 orientations)."""
from __future__ import annotations

import itertools

from games.quodd.cube import all_orientations, face_at, face_dirs, facing, spin, tumble


def test_there_are_exactly_24_orientations_and_tumbles_and_spins_reach_them_all():
    start = ("U", "E")
    seen = {start}
    frontier = [start]
    while frontier:
        o = frontier.pop()
        nxt = [tumble(*o, d) for d in "NESW"] + [spin(*o, True), spin(*o, False)]
        for n in nxt:
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    assert seen == set(all_orientations())
    assert len(seen) == 24


def test_every_orientation_puts_each_of_the_six_faces_on_a_different_side():
    for head, front in all_orientations():
        dirs = face_dirs(head, front)
        assert sorted(dirs.values()) == sorted("UDNESW")


def test_tumbling_rolls_the_face_opposite_the_direction_onto_the_top():
    # Q up, facing east: the right side points south. Rolling north brings the south side up.
    assert face_at("U", "E", "S") == "right"
    head, front = tumble("U", "E", "N")
    assert face_at(head, front, "U") == "right"
    assert face_at(head, front, "N") == "q"  # the old top now faces the way we rolled
    assert face_at(head, front, "S") == "feet"


def test_four_tumbles_one_way_and_a_tumble_back_both_return_the_cube_to_where_it_was():
    for o, d in itertools.product(all_orientations(), "NESW"):
        x = o
        for _ in range(4):
            x = tumble(*x, d)
        assert x == o
        back = {"N": "S", "S": "N", "E": "W", "W": "E"}[d]
        assert tumble(*tumble(*o, d), back) == o


def test_a_whirlpool_spin_keeps_the_top_face_and_turns_the_facing_a_quarter():
    for o in all_orientations():
        for cw in (True, False):
            s = spin(*o, cw)
            assert face_at(*s, "U") == face_at(*o, "U")
            assert spin(*s, not cw) == o
    assert facing(*spin("U", "E", True)) == "S"
    assert facing(*spin("U", "E", False)) == "N"


def test_rolling_east_from_q_up_facing_east_puts_the_back_face_on_top():
    head, front = tumble("U", "E", "E")
    assert face_at(head, front, "U") == "back"
    assert facing(head, front) == "down"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402

MOVES = hs.lists(hs.sampled_from(["N", "E", "S", "W", "cw", "ccw"]), max_size=30)


@settings(max_examples=60, deadline=None)
@given(MOVES)
def test_any_sequence_of_tumbles_and_spins_is_undone_by_its_reverse(moves):
    undo = {"N": "S", "S": "N", "E": "W", "W": "E", "cw": "ccw", "ccw": "cw"}
    o = ("U", "E")
    for m in moves:
        o = spin(*o, m == "cw") if m in ("cw", "ccw") else tumble(*o, m)
        assert o in all_orientations()
    for m in reversed(moves):
        u = undo[m]
        o = spin(*o, u == "cw") if u in ("cw", "ccw") else tumble(*o, u)
    assert o == ("U", "E")
