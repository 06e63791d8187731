"""Heroes meeting heroes: pushing, landing on a hero, stealing, carrying and dropping."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal, legal

OPEN = ["......", "......", "......", "......", "......"]


def ready(skill="slide", points=1, **kw):
    return build(kw.pop("rows", OPEN), tumbled=True, ready=skill, points=points, **kw)


def test_moving_into_a_hero_pushes_them_the_same_way():
    st = ready(heroes=[dict(pos="A3"), dict(pos="B3")])
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B3" and hero(st, "bob").pos == "C3"
    assert any("pushed" in e for e in ev)


def test_no_push_against_a_wall():
    st = ready(heroes=[dict(pos="A3"), dict(pos="B3")], tokens={"C3": "wall"})
    assert "move direction:E distance:1" not in legal(st, "ann", "move")
    st = build(OPEN, heroes=[dict(pos="A3"), dict(pos="B3")], tokens={"C3": "wall"})
    assert "tumble direction:E" not in legal(st, "ann")


def test_a_push_moves_a_whole_line_of_heroes():
    st = ready(heroes=[dict(pos="A3"), dict(pos="B3"), dict(pos="C3")])
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert [hero(st, p).pos for p in ("ann", "bob", "cat")] == ["B3", "C3", "D3"]


def test_the_pusher_decides_how_the_pushed_hero_spins_on_a_whirlpool():
    st = ready(rows=["......", "......", "..@...", "......"], heroes=[dict(pos="A3"), dict(pos="B3")])
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "spin" and st.pending.player == "ann" and st.pending.hero == "bob"
    assert not legal(st, "bob")
    st, _ = do(st, "ann", "choose option:cw")
    assert hero(st, "bob").front == "S"


def test_pushed_into_a_pit_the_pushed_hero_respawns():
    st = ready(rows=["R.....", "......", "..O...", "......"], heroes=[dict(pos="A3"), dict(pos="B3")], mode="heist")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "bob").pos == "A1" and hero(st, "ann").pos == "B3"
    assert st.phase == "move"  # only the faller's movement would end


def test_jumping_onto_a_hero_pushes_them_one_space_in_a_direction_the_jumper_picks():
    st = ready("jump", heroes=[dict(pos="A3"), dict(pos="C3")])
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "push_dir" and st.pending.player == "ann"
    assert set(st.pending.options) == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"} - {"W"} | {"W"}
    st, _ = do(st, "ann", "choose option:N")
    assert hero(st, "ann").pos == "C3" and hero(st, "bob").pos == "C2"


def test_a_jumper_is_in_the_air_so_the_push_it_lands_with_never_pushes_the_jumper_itself():
    """Landing on a hero pushes them (and whoever stands beyond). The jumper has left its square: a push
    chain running back over that square moves into it and never pushes the jumper (found by the benchmark's
    random play: the jumper was pushed off the map and the engine failed)."""
    st = ready("jump", heroes=[dict(pos="A3"), dict(pos="C3"), dict(pos="B3")])
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "push_dir" and "W" in st.pending.options
    st, _ = do(st, "ann", "choose option:W")
    assert [hero(st, p).pos for p in ("ann", "bob", "cat")] == ["C3", "B3", "A3"]


def test_landing_on_a_hero_who_cannot_move_their_controller_picks_your_landing():
    walls = {lab: "impassable_up" for lab in ("B2", "C2", "D2", "B4", "C4", "D4", "D3")}
    walls["B3"] = "wall"  # Bob cannot be pushed anywhere: he is rooted in place
    st = ready("jump", heroes=[dict(pos="A3"), dict(pos="C3")], tokens=walls)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "land_beside" and st.pending.player == "bob"
    assert st.pending.options == ["B3"]  # the only space beside him: on top of the wall
    st, _ = do(st, "bob", "choose option:B3")
    assert hero(st, "ann").pos == "B3" and hero(st, "bob").pos == "C3"


def test_steal_from_an_adjacent_hero_including_diagonally_once_per_hero_per_turn():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C3", carrying=["red-crystal", "blue-crystal"])],
               tumbled=True)
    assert "steal from:bob item:red-crystal" in legal(st, "ann", "steal")
    st, ev = do(st, "ann", "steal from:Bob item:red-crystal")  # a display name works too
    assert hero(st, "ann").carrying == ["red-crystal"] and hero(st, "bob").carrying == ["blue-crystal"]
    assert not legal(st, "ann", "steal")
    assert "once per hero" in illegal(st, "ann", "steal from:bob item:blue-crystal").reason


def test_no_stealing_from_far_away_banked_crystals_are_locked_and_you_carry_at_most_two():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="E5", carrying=["red-crystal"])], tumbled=True)
    assert not legal(st, "ann", "steal")
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C2", banked=["red-crystal"])], tumbled=True)
    assert not legal(st, "ann", "steal")
    st = build(OPEN, heroes=[dict(pos="B2", carrying=["a-crystal", "b-crystal"]),
                             dict(pos="C2", carrying=["c-crystal"])],
               tumbled=True)
    assert not legal(st, "ann", "steal")


def test_stealing_is_only_for_the_movement_phase():
    st = build(OPEN, heroes=[dict(pos="B2"), dict(pos="C2", carrying=["red-crystal"])], phase="recovery")
    assert not legal(st, "ann", "steal")


def test_you_pick_up_a_crystal_where_you_stop_and_bank_it_on_a_drop_zone():
    rows = ["......", "..D...", "......"]
    st = ready(rows=rows, heroes=[dict(pos="A2", movement=2)], points=2, ground={"B2": ["red-crystal"]}, mode="heist")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").carrying == ["red-crystal"] and "B2" not in st.ground
    st.m.ready, st.m.points = "dash", 1
    st, ev = do(st, "ann", "move path:E")
    assert hero(st, "ann").banked == ["red-crystal"] and hero(st, "ann").carrying == []


def test_carrying_at_most_two_leaves_the_third_crystal_on_the_ground():
    st = ready(heroes=[dict(pos="A2", carrying=["a-crystal", "b-crystal"])], ground={"B2": ["c-crystal"]})
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.ground == {"B2": ["c-crystal"]}


def test_drop_a_collectible_on_an_adjacent_free_space():
    st = build(OPEN, heroes=[dict(pos="B2", carrying=["red-crystal"]), dict(pos="C2")], tokens={"A1": "wall"},
               phase="recovery")
    drops = legal(st, "ann", "drop")
    assert "drop at:C3 item:red-crystal" in drops
    assert "drop at:C2 item:red-crystal" not in drops and "drop at:A1 item:red-crystal" not in drops
    st, _ = do(st, "ann", "drop at:c3")
    assert st.ground == {"C3": ["red-crystal"]}


def test_no_stealing_while_jumping_over_a_hero_only_before_the_jump_or_on_landing():
    st = ready("jump", heroes=[dict(pos="A3"), dict(pos="B3", carrying=["red-crystal"])], points=2)
    assert legal(st, "ann", "steal")  # before the jump, next to Bob
    st, _ = do(st, "ann", "move direction:E distance:2")  # over Bob and one more space
    assert hero(st, "ann").pos == "D3" and hero(st, "ann").carrying == []
    assert not legal(st, "ann", "steal")  # no longer next to him
    st, _ = do(st, "ann", "done")


def test_coming_up_from_a_water_connection_under_a_hero_pushes_them_one_space_the_mover_picks():
    """Surfacing beneath another hero works like landing a jump on them: they move one space, you take the square."""
    st = ready(rows=["w.....", "......", "......", ".....w"], links={"A1": "A", "F4": "A"},
               heroes=[dict(pos="B1"), dict(pos="F4")])
    st, ev = do(st, "ann", "move direction:W distance:1")
    assert st.pending.kind == "surface_push" and st.pending.player == "ann"
    st, ev = do(st, "ann", "choose option:N")
    assert hero(st, "ann").pos == "F4" and hero(st, "bob").pos == "F3"
    assert any("comes up under Bob" in e for e in ev)


def test_a_tunnel_exit_under_a_hero_is_offered_and_pushes_that_hero_aside():
    """An occupied tunnel is still a way out; the hero on it is pushed one space and your movement ends."""
    walls = {lab: "impassable_up" for lab in ("C2", "D2", "E2", "C3", "E3", "C4", "E4")}
    st = ready(tokens={"A1": "tunnel", "D3": "tunnel", **walls}, heroes=[dict(pos="B1"), dict(pos="D3")])
    st, _ = do(st, "ann", "move direction:W distance:1")
    assert st.pending.kind == "tunnel" and "D3" in st.pending.options
    st, ev = do(st, "ann", "choose option:D3")  # Bob's only way out is south: no choice to make
    assert hero(st, "ann").pos == "D3" and hero(st, "bob").pos == "D4"
    assert any("comes up under Bob" in e for e in ev)
    assert st.phase == "explore"  # the movement is over; phase 3 had nothing to play and passed by itself


def test_surfacing_under_a_hero_who_cannot_move_their_controller_picks_where_you_come_up():
    """A rooted hero stays put; the player controlling them chooses the space beside it where you arrive."""
    rows = ["w.....", "......", "......", "......", "......"]
    walls = {lab: "impassable_up" for lab in ("C2", "D2", "E2", "C4", "D4", "E4", "E3")}
    walls["C3"] = "wall"
    st = ready(rows=rows, links={"A1": "A", "D3": "A"}, tokens=walls, heroes=[dict(pos="B1"), dict(pos="D3")])
    st, _ = do(st, "ann", "move direction:W distance:1")
    assert st.pending.kind == "surface_beside" and st.pending.player == "bob"
    assert set(st.pending.options) == {"C3"}
    st, _ = do(st, "bob", "choose option:C3")
    assert hero(st, "ann").pos == "C3" and hero(st, "bob").pos == "D3"
