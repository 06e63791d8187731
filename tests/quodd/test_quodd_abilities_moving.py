"""Upgrade abilities that act during movement (rulebook "Upgrades and Q-powers"): each test names the ability."""
from __future__ import annotations

from qhelpers import build, do, grant, hero, illegal, legal, seed_rolling

from games.quodd import ENGINE as E
from games.quodd.skills import skill_points, top_skill

ROW = ["........"]


def slide(rows, points=3, ready="slide", **kw):  # noqa: ANN001, ANN201
    heroes = kw.pop("heroes", None) or [dict(pos="A1", movement=points)]
    return build(rows, heroes=heroes, tumbled=True, ready=ready, points=points, **kw)


def test_ghost_passes_through_walls_and_may_stop_on_one():
    st = slide(ROW, tokens={"B1": "wall"})
    assert "wall" in illegal(st, "ann", "move direction:E distance:2").reason
    grant(st, "ann", "ghost")
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "C1" and st.tokens["B1"].kind == "wall"
    st = slide(ROW, tokens={"B1": "wall"})
    grant(st, "ann", "ghost")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B1"  # standing on the wall top


def test_crush_smashes_walls_you_move_into_jump_over_or_land_on():
    st = slide(ROW, tokens={"B1": "wall", "D1": "wall"})
    grant(st, "ann", "crush")
    st, ev = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "D1" and st.tokens["B1"].kind == "broken_wall" == st.tokens["D1"].kind
    assert any("Crush" in e for e in ev)
    st = slide(ROW, ready="jump", points=1, tokens={"B1": "wall", "C1": "wall"})
    grant(st, "ann", "crush")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "C1" and st.tokens["B1"].kind == "broken_wall" == st.tokens["C1"].kind


def test_crush_does_not_open_walls_for_a_hero_that_is_not_moving():
    st = slide(ROW, heroes=[dict(pos="C1"), dict(pos="D1")], tokens={"E1": "wall"}, points=1)
    grant(st, "bob", "crush")
    assert "cannot be pushed" in illegal(st, "ann", "move direction:E distance:1").reason


def test_wall_builder_switched_on_leaves_walls_on_the_squares_you_leave():
    st = slide(ROW)
    assert "ability name:wall-builder" not in legal(st, "ann", "ability")
    assert "not on your upgrade track" in illegal(st, "ann", "ability name:wall-builder").reason
    grant(st, "ann", "wall-builder")
    a = next(a for a in E.legal_actions(st, "ann") if a.cmd == "ability")
    assert E.label(st, a) == "Wall Builder on"
    st, _ = do(st, "ann", "ability name:wall-builder")
    assert "already on" in illegal(st, "ann", "ability name:wall-builder").reason
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "C1"
    assert st.tokens["A1"].kind == "wall" and st.tokens["B1"].kind == "wall" and "C1" not in st.tokens


def test_trench_digger_leaves_pit_tokens_only_where_a_token_may_go():
    st = slide([".R......"])
    grant(st, "ann", "trench-digger")
    st, _ = do(st, "ann", "ability name:trench-digger")
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert st.tokens["A1"].kind == "pit" and "B1" not in st.tokens and st.tokens["C1"].kind == "pit"
    assert hero(st, "ann").pos == "D1"


def test_jump_shockwave_explodes_around_the_landing_square():
    st = slide(["........", "........"], ready="jump", points=1, heroes=[dict(pos="A1"), dict(pos="D1")],
               tokens={"C2": "wall", "D2": "spring"})
    grant(st, "ann", "jump-shockwave")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "C1" and any("Jump Shockwave" in e for e in ev)
    assert st.tokens["C2"].kind == "broken_wall" and "D2" not in st.tokens
    assert hero(st, "bob").pos == "F1"  # thrown: a jump over 1 directly away


def test_spring_jump_places_a_spring_under_your_landing_and_throws_you():
    st = slide(["........", "........"], ready="jump", points=1)
    grant(st, "ann", "spring-jump")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.tokens["C1"].kind == "spring" and st.pending is not None and st.pending.kind == "spring"
    st, _ = do(st, "ann", "choose option:E")
    assert hero(st, "ann").pos == "E1"


def test_tumble_spring_springs_you_at_the_end_of_the_tumble_skill_then_the_top_face_acts():
    st = slide(["........", "........"], ready="tumble", points=1)
    grant(st, "ann", "tumble-spring")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.tokens["B1"].kind == "spring" and st.pending is not None
    st, _ = do(st, "ann", "choose option:E")
    h = hero(st, "ann")
    assert h.pos == "D1" and st.m.ready == top_skill(h) and st.m.ready != "tumble"


def test_push_bomb_asks_after_your_push_and_explodes_around_you():
    st = slide(ROW, heroes=[dict(pos="A1"), dict(pos="B1")], points=1)
    grant(st, "ann", "push-bomb")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "bob").pos == "C1" and st.pending is not None and st.pending.kind == "push_bomb"
    assert legal(st, "ann") == ["choose option:explode", "choose option:skip"]
    assert [E.label(st, a) for a in E.legal_actions(st, "ann")] == ["Explode (Push Bomb)", "Skip"]
    st, _ = do(st, "ann", "choose option:explode")
    assert hero(st, "ann").pos == "B1" and hero(st, "bob").pos == "E1"


def test_teleport_skill_moves_you_up_to_the_ready_points_and_uses_the_skill():
    st = slide(["........", "........"], points=2)
    grant(st, "ann", "teleport-skill")
    assert "ability at:B2 name:teleport-skill" in legal(st, "ann", "ability")
    assert "within 2" in illegal(st, "ann", "ability name:teleport-skill at:E1").reason
    st, ev = do(st, "ann", "ability name:teleport-skill at:B2")
    assert hero(st, "ann").pos == "B2" and "slide" in st.m.used and st.m.ready == ""


def test_teleport_plus_two_adds_two_to_your_teleporter_roll():
    rows = ["............"] * 3
    st = slide(rows, tokens={"B2": "teleporter"}, heroes=[dict(pos="A2")], points=1, seed=seed_rolling(2))
    grant(st, "ann", "teleport-plus-two")
    st, ev = do(st, "ann", "move direction:E distance:1")
    far = max(abs(ord(o[0]) - ord("B")) + abs(int(o[1:]) - 2) for o in st.pending.options)
    assert far == 4 and any("+2" in e for e in ev)


def test_teleport_mastery_keeps_the_points_left_after_teleporting():
    rows = ["........"] * 5
    st = slide(rows, tokens={"B3": "teleporter"}, heroes=[dict(pos="A3")], points=3, seed=seed_rolling(2))
    grant(st, "ann", "teleport-mastery")
    st, _ = do(st, "ann", "move direction:E distance:3")
    st, _ = do(st, "ann", "choose option:B5")
    assert hero(st, "ann").pos == "B5" and not st.m.ended and st.m.ready == "slide" and st.m.points == 2
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "D5"


def test_tunnel_mastery_keeps_the_points_left_after_a_tunnel():
    st = slide(["........", "........"], tokens={"B1": "tunnel", "G2": "tunnel"}, points=3)
    grant(st, "ann", "tunnel-mastery")
    st, _ = do(st, "ann", "move direction:E distance:3")
    st, _ = do(st, "ann", "choose option:G2")
    assert hero(st, "ann").pos == "G2" and not st.m.ended and st.m.points == 2 and st.m.ready == "slide"


def test_re_roll_lets_you_roll_a_teleporter_again_once_a_turn():
    rows = ["........"] * 5
    st = slide(rows, tokens={"B3": "teleporter"}, heroes=[dict(pos="A3")], points=1, seed=seed_rolling(6))
    grant(st, "ann", "re-roll")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.pending is not None and st.pending.kind == "reroll" and "B3" in st.tokens  # a Q, not yet final
    st, ev = do(st, "ann", "choose option:reroll")
    assert "re-roll" in st.m.abilities and any("rolls again" in e for e in ev)
    st2 = slide(rows, tokens={"B3": "teleporter"}, heroes=[dict(pos="A3")], points=1, seed=seed_rolling(6))
    grant(st2, "ann", "re-roll")
    st2.m.abilities = ["re-roll"]  # used this turn already: the roll stands
    st2, _ = do(st2, "ann", "move direction:E distance:1")
    assert "B3" not in st2.tokens  # the Q blew the teleporter up


def test_flow_ignores_currents_and_whirlpools():
    st = slide(["..>@...."], points=3)
    grant(st, "ann", "flow")
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "D1" and st.pending is None
    st = slide(["..>....."], points=3)
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "D1"  # without Flow the current carries you on


def test_greed_speed_adds_a_point_per_crystal_carried_or_banked():
    st = slide(ROW, heroes=[dict(pos="A1", carrying=["red-crystal"], banked=["blue-crystal"])])
    before = skill_points(hero(st, "ann"), "slide")
    grant(st, "ann", "greed-speed")
    assert skill_points(hero(st, "ann"), "slide") == before + 2


def test_hunger_boost_adds_a_point_per_food_card_and_shows_them():
    st = build(ROW, heroes=[dict(pos="A1")], phase="power")
    h = grant(st, "ann", "hunger-boost")
    h.hand = ["trail-mix", "honey-bun", "lantern"]
    assert skill_points(h, "slide") == 3
    st, ev = do(st, "ann", "done")
    assert any("shows Trail Mix, Honey Bun" in e and "Hunger-Boost" in e for e in ev)


def test_change_directions_lets_a_slide_turn_as_it_goes():
    st = slide(["........", "........"], points=3)
    assert "path" in illegal(st, "ann", 'move path:"E S"').reason
    grant(st, "ann", "change-directions")
    assert 'move path:"E S"' in legal(st, "ann", "move")
    assert "not a direction this skill goes" in illegal(st, "ann", 'move path:"NE"').reason
    st, _ = do(st, "ann", 'move path:"E S"')
    assert hero(st, "ann").pos == "B2" and st.m.ready == "slide" and st.m.points == 1
