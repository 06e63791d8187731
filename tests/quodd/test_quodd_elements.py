"""Board elements and tokens acting on every step, in the rulebook's priority order."""
from __future__ import annotations

from qhelpers import build, do, hero, legal, seed_rolling, top

from games.quodd import ENGINE as E
from games.quodd.board import placement_problem
from games.quodd.elements import do_enter
from games.quodd.state import Job

OPEN = ["......", "......", "......", "......", "......"]


def slide_ready(rows, tokens=None, pos="A3", points=3, **kw):
    heroes = kw.pop("heroes", None) or [dict(pos=pos, movement=points)]
    return build(rows, tokens=tokens, heroes=heroes, tumbled=True, ready="slide", points=points, **kw)


def test_water_current_carries_you_one_space_when_you_land_on_it():
    st = slide_ready(["......", "......", ".v....", "......"], pos="A3", points=1)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B4"


def test_water_current_acts_when_you_move_over_it_and_the_move_goes_on_from_there():
    st = slide_ready(["......", "......", ".v....", "......", "......"], pos="A3", points=3)
    st, _ = do(st, "ann", "move direction:E distance:3")
    # B3 pushes Ann to B4; the two remaining points carry her on east
    assert hero(st, "ann").pos == "D4"


def test_water_current_into_a_wall_leaves_you_in_place():
    st = slide_ready(["......", "......", ".v....", "......"], tokens={"B4": "wall"}, pos="A3", points=1)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B3"


def test_whirlpool_spins_a_quarter_turn_in_the_movers_chosen_direction():
    st = slide_ready(["......", "......", ".@....", "......"], pos="A3", points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "spin" and st.pending.player == "ann"
    assert legal(st, "ann") == ["choose option:cw", "choose option:ccw"]
    before = top(st, "ann")
    st, _ = do(st, "ann", "choose option:ccw")
    assert hero(st, "ann").front == "N" and top(st, "ann") == before


def test_spring_jumps_one_space_in_a_chosen_orthogonal_direction():
    st = slide_ready(OPEN, tokens={"B3": "spring"}, pos="A3", points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "spring"
    st, _ = do(st, "ann", "choose option:N")
    assert hero(st, "ann").pos == "B1"


def test_super_spring_jumps_two_spaces():
    st = slide_ready(OPEN, tokens={"B3": "super_spring"}, pos="A3", points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    st, _ = do(st, "ann", "choose option:E")
    assert hero(st, "ann").pos == "E3"


def test_teleporter_rolls_a_die_and_sends_you_up_to_that_far_and_ends_movement():
    st = slide_ready(["........"] * 7, tokens={"B4": "teleporter"}, pos="A4", points=3, seed=seed_rolling(2))
    st, ev = do(st, "ann", "move direction:E distance:3")
    assert st.pending.kind == "teleport"
    opts = set(st.pending.options)
    assert "D4" in opts and "B6" in opts and "C5" in opts and "E4" not in opts and "B4" not in opts
    st, _ = do(st, "ann", "choose option:D4")
    assert hero(st, "ann").pos == "D4"
    assert st.phase == "explore"  # using a teleporter ends the movement (phase 3, nothing to play, passes)


def test_teleporter_rolling_q_explodes_and_you_stay():
    st = slide_ready(["........"] * 7, tokens={"B4": "teleporter", "C4": "wall", "B3": "spring"},
                     heroes=[dict(pos="A4"), dict(pos="B5")], points=1, seed=seed_rolling(6))
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B4"
    assert "B4" not in st.tokens and st.tokens["C4"].kind == "broken_wall" and "B3" not in st.tokens
    assert hero(st, "bob").pos == "B7"  # caught in the blast: jumps over 1 directly away
    assert any("explodes" in e for e in ev)


def test_super_teleporter_rolls_two_dice_and_doubles_destroy_it():
    st = slide_ready(["........"] * 7, tokens={"B4": "super_teleporter"}, pos="A4", points=1,
                     seed=seed_rolling(3, second=3))
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert "B4" not in st.tokens and st.pending is None
    st = slide_ready(["........"] * 7, tokens={"B4": "super_teleporter"}, pos="A4", points=1,
                     seed=seed_rolling(1, second=2))
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert max(abs(ord(o[0]) - ord("B")) + abs(int(o[1:]) - 4) for o in st.pending.options) == 3


def test_pushed_onto_a_teleporter_the_pusher_rolls_and_chooses():
    st = slide_ready(["........"] * 5, tokens={"C3": "teleporter"}, heroes=[dict(pos="A3"), dict(pos="B3")],
                     points=1, seed=seed_rolling(1))
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "bob").pos == "C3"
    assert st.pending.kind == "teleport" and st.pending.player == "ann" and st.pending.hero == "bob"
    st, _ = do(st, "ann", "choose option:C4")
    assert hero(st, "bob").pos == "C4"
    assert st.phase == "move"  # the pusher's own movement goes on


def test_tunnel_is_optional_leads_to_another_tunnel_and_ends_movement():
    st = slide_ready(OPEN, tokens={"B3": "tunnel", "F5": "tunnel"}, pos="A3", points=3)
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert st.pending.kind == "tunnel" and st.pending.options == ["F5", "stay"]
    st2, _ = do(st, "ann", "choose option:stay")
    assert hero(st2, "ann").pos == "D3"  # chose to stay: the slide goes on
    st, _ = do(st, "ann", "choose option:F5")
    assert hero(st, "ann").pos == "F5" and st.phase == "explore"  # phase 3 (nothing to play) passed


def test_being_pushed_onto_a_tunnel_has_no_effect():
    st = slide_ready(OPEN, tokens={"C3": "tunnel", "F5": "tunnel"}, heroes=[dict(pos="A3"), dict(pos="B3")], points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "bob").pos == "C3" and st.pending is None


def test_pit_respawns_q_up_at_the_nearest_safe_respawn_point_and_ends_movement():
    rows = ["R.....", "......", "..O...", "......", ".....R"]
    st = slide_ready(rows, heroes=[dict(pos="A3", head="N", front="E")], points=3, mode="heist")
    st, ev = do(st, "ann", "move direction:E distance:2")
    h = hero(st, "ann")
    assert h.pos == "A1" and top(st, "ann") == "q"
    assert st.phase == "explore"  # phase 3 (nothing to play) passed


def test_a_respawn_point_with_only_pits_around_it_is_not_safe():
    rows = ["ROO...", "O.....", "..O...", "......", ".....R"]
    st = slide_ready(rows, pos="A3", points=3, mode="heist")
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "F5"


def test_occupied_respawn_point_lets_you_choose_an_adjacent_space():
    rows = ["......", ".R....", "...O..", "......"]
    st = slide_ready(rows, heroes=[dict(pos="B3"), dict(pos="B2")], points=2, mode="heist")
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert st.pending.kind == "respawn_beside" and "A1" in st.pending.options and "B3" in st.pending.options
    st, _ = do(st, "ann", "choose option:A1")
    assert hero(st, "ann").pos == "A1"


def test_falling_drops_carried_collectibles_on_safe_spots_of_your_choice():
    rows = ["R.....", "......", "..O...", "......"]
    st = slide_ready(rows, heroes=[dict(pos="B3", carrying=["red-crystal", "blue-crystal"])], points=1, mode="heist")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "drop" and "C2" in st.pending.options and "C3" not in st.pending.options
    st, _ = do(st, "ann", "choose option:D3")
    st, _ = do(st, "ann", "choose option:D4")
    assert st.ground == {"D3": ["red-crystal"], "D4": ["blue-crystal"]}
    assert hero(st, "ann").carrying == [] and hero(st, "ann").pos == "A1"


def test_off_the_map_counts_as_a_pit():
    rows = ["R.....", "......", "......"]
    st = slide_ready(rows, pos="E3", points=2, mode="heist")
    assert "move direction:E distance:2" in legal(st, "ann", "move")
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "A1"
    st = build(["#..", "...", "R.."], heroes=[dict(pos="B1")])
    st, ev = do(st, "ann", "tumble direction:W")  # A1 is no square of any board
    assert hero(st, "ann").pos == "A3" and any("void" in e for e in ev)


def test_in_a_race_you_never_respawn_ahead_of_where_you_fell_from():
    rows = ["R.........", "..........", "....O....R", ".........."]
    st = slide_ready(rows, pos="D3", points=1, rally=["J4"])
    st, _ = do(st, "ann", "move direction:E distance:1")
    # J3 is nearer the fall than A1, but it lies ahead towards the next marker
    assert hero(st, "ann").pos == "A1"


def test_water_connection_sends_you_to_the_matching_letter_and_the_move_goes_on():
    rows = ["......", ".w....", "......", "....w.", "......"]
    st = slide_ready(rows, pos="A2", points=2, links={"B2": "A", "E4": "A"})
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "F4"


def test_q_token_lets_you_rearrange_and_the_remaining_points_go_to_the_new_skill():
    """FAQ: landing on a Q token mid-move and rearranging changes the face-up skill: spend the rest with it."""
    st = slide_ready(OPEN, tokens={"B3": "q"}, heroes=[dict(pos="A3", movement=3, head="N", front="U")], points=3)
    # head N, front U: the front (slide) is on top
    assert top(st, "ann") == "front"
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "B3" and st.pending.kind == "token" and st.pending.allow_rearrange
    st, ev = do(st, "ann", "rearrange front:dash right:slide")
    assert hero(st, "ann").pos == "B3"
    assert st.m.ready == "dash" and st.m.points == 2
    st, _ = do(st, "ann", 'move path:"S SE"')
    assert hero(st, "ann").pos == "C5"


def test_skipping_the_q_token_keeps_the_move_going():
    st = slide_ready(OPEN, tokens={"B3": "q"}, heroes=[dict(pos="A3", movement=3, head="N", front="U")], points=3)
    st, _ = do(st, "ann", "move direction:E distance:3")
    st, _ = do(st, "ann", "choose option:skip")
    assert hero(st, "ann").pos == "D3"


def test_rearranging_mid_tumble_without_changing_the_top_face_lets_the_tumble_roll_on():
    """The FAQ switch to a new skill is for a rearrange that changes what the top face shows; a tumble skill
    that already rolled a face up is not cut short by a rearrange of faces that are not on top."""
    st = build(["......"], tokens={"B1": "q"}, tumbled=True, ready="tumble", points=3,
               heroes=[dict(pos="A1", head="W", front="N", movement=3)])
    st, _ = do(st, "ann", "move direction:E distance:3")
    assert hero(st, "ann").pos == "B1" and top(st, "ann") == "q" and st.pending.kind == "token"
    st, _ = do(st, "ann", "rearrange left:dash right:diagonal")  # swaps two side faces; the Q stays on top
    assert hero(st, "ann").pos == "D1"
    assert st.m.taken == 3


def test_rearrange_token_before_the_skill_changes_which_skill_activates():
    st = build(OPEN, tokens={"B3": "rearrange"}, heroes=[dict(pos="A3", front="E")])
    st, _ = do(st, "ann", "tumble direction:E")  # back comes up (jump)
    assert st.pending.kind == "token"
    st, _ = do(st, "ann", "rearrange back:dash right:jump")
    assert st.m.ready == "dash"


def test_switch_flips_its_group_and_a_hero_on_an_opening_trap_door_falls():
    rows = ["R.....", "......", "......"]
    st = slide_ready(rows, tokens={"B2": "switch:a", "E3": "trap_door:a", "F1": "trap_door_open:a",
                                   "E1": "impassable_up:b"},
                     heroes=[dict(pos="A2"), dict(pos="E3")], points=1, mode="heist", ground={"E3": []})
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.tokens["E3"].kind == "trap_door_open" and st.tokens["F1"].kind == "trap_door"
    assert st.tokens["E1"].kind == "impassable_up"  # another group: untouched
    assert hero(st, "bob").pos == "A1"


def test_coloured_switch_flips_only_its_colour_and_impassable_walls_block_until_lowered():
    st = slide_ready(OPEN, tokens={"B3": "switch_colour:gold", "D3": "impassable_up:gold", "D1": "impassable_up:red"},
                     pos="A3", points=3)
    st.m.ready, st.m.points = "jump", 3
    jumps = legal(st, "ann", "move")
    assert "move direction:E distance:1" in jumps  # lands short of it
    # not onto, not over
    assert "move direction:E distance:2" not in jumps and "move direction:E distance:3" not in jumps
    st.m.ready, st.m.points = "slide", 3
    assert legal(st, "ann", "move").count("move direction:E distance:1") == 1
    assert "move direction:E distance:3" not in legal(st, "ann", "move")
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.tokens["D3"].kind == "impassable_down" and st.tokens["D1"].kind == "impassable_up"


def test_secret_token_is_hidden_then_revealed_placed_under_you_and_activated():
    st = slide_ready(OPEN, tokens={"B3": "secret:spring"}, pos="A3", points=1)
    public = E.view(st, None).model_dump_json()
    assert "spring" not in public
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert st.tokens["B3"].kind == "spring" and st.pending.kind == "spring"
    assert any("secret" in e for e in ev)


def test_reveal_tokens_are_taken_and_recorded_when_you_stop_on_them():
    st = slide_ready(OPEN, tokens={"B3": "food", "C3": "explore"}, pos="A3", points=2)
    st, _ = do(st, "ann", "move direction:E distance:2")  # passes food, stops on explore
    h = hero(st, "ann")
    assert h.revealed == ["explore"] and "B3" in st.tokens and h.explores_earned == 1


def test_an_element_covered_by_a_token_does_not_act():
    st = slide_ready(["......", "......", ".v....", "......"], tokens={"B3": "tunnel"}, pos="A3", points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "B3"  # the tunnel (alone on the board) covers the current


def test_faq_boosts_of_the_old_skill_do_not_follow_a_rearrange_mid_move():
    """FAQ: a food boost for Slide stays with Slide; the new skill gets only the unused base points."""
    st = slide_ready(OPEN, tokens={"B3": "q"}, heroes=[dict(pos="A3", movement=2, head="N", front="U")], points=4)
    st.m.boost = {"slide": 2}
    st, _ = do(st, "ann", "move direction:E distance:4")
    st, _ = do(st, "ann", "rearrange front:dash right:slide")
    assert st.m.ready == "dash" and st.m.points == 1  # 2 base - 1 spent; the +2 for slide stays behind


def test_preview_of_stepping_on_a_secret_token_does_not_reveal_it():
    from games.core import Action

    st = slide_ready(OPEN, tokens={"B3": "secret:teleporter"}, pos="A3", points=1)
    new, ev = E.preview(st, "ann", Action.parse("move direction:E distance:1"))
    assert all("teleporter" not in e.text.lower() for e in ev)
    assert new.tokens["B3"].kind == "secret" and st.tokens["B3"].hidden == "teleporter"


def test_a_spring_with_nowhere_to_throw_you_does_nothing():
    walls = {"B2": "impassable_up", "B4": "impassable_up", "C3": "impassable_up", "A3": "impassable_up"}
    st = build(OPEN, tokens={"B3": "spring", **walls}, heroes=[dict(pos="B3")], tumbled=True)
    st.m.ready, st.m.points = "", 0
    ev = []
    do_enter(st, Job(kind="enter", hero="ann"), ev)
    assert st.pending is None and st.queue == [] and "cannot throw" in ev[0].text


def test_after_teleporting_the_element_you_arrive_on_acts_too():
    st = slide_ready(["........"] * 5, tokens={"B3": "teleporter"}, pos="A3", points=1, seed=seed_rolling(2))
    st.rows[3] = "..>....."  # C4: a current east
    st, _ = do(st, "ann", "move direction:E distance:1")
    st, _ = do(st, "ann", "choose option:C4")
    assert hero(st, "ann").pos == "D4"


def test_token_placement_rules_for_tokens_placed_during_play():
    st = build(["R.O...", "......"], tokens={"D1": "spring"}, heroes=[dict(pos="E2")])
    assert "respawn" in placement_problem(st, "wall", (0, 0))
    assert "pit" in placement_problem(st, "spring", (2, 0))
    assert placement_problem(st, "wall", (2, 0)) == ""  # walls are the only tokens for pits
    assert "already" in placement_problem(st, "wall", (3, 0))
    assert "under a hero" in placement_problem(st, "tunnel", (4, 1))
    assert placement_problem(st, "tunnel", (4, 1), under_hero_ok=True) == ""
    assert placement_problem(st, "tunnel", (1, 1)) == ""


def test_standing_on_a_wall_top_the_printed_square_below_does_not_act():
    st = build(["......", "......", "..v...", "......"], tokens={"C3": "wall"}, heroes=[dict(pos="A3")],
               tumbled=True, ready="jump", points=1)
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "C3"


def test_a_hero_left_without_a_square_comes_back_when_their_movement_starts():
    st = build(["R.....", "......"], heroes=[dict(pos=None)], phase="power")
    st, _ = do(st, "ann", "done")
    assert hero(st, "ann").pos == "A1" and st.phase == "move"


def test_currents_running_in_a_circle_stop_the_move_instead_of_running_forever():
    st = slide_ready(["......", ".>v...", ".^<...", "......"], pos="A2", points=1)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert any("circle" in e for e in ev) and st.phase == "explore"  # phase 3 (nothing to play) passed


def test_currents_in_a_circle_stop_at_the_first_repeat_of_the_position_with_one_line_saying_so():
    st = slide_ready(["......", ".>v...", ".^<...", "......"], pos="A2", points=1)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert sum("carried by the current" in e for e in ev) == 4  # one lap, back on B2, then rest
    assert [e for e in ev if "circle" in e] == [
        "The currents carry Ann round in a circle back to the same position; everything comes to rest here."]
    assert hero(st, "ann").pos == "B2"


def test_two_heroes_on_facing_currents_stop_at_the_first_repeat_instead_of_pushing_each_other_hundreds_of_times():
    # play-test game 1: currents down onto a whirlpool, currents up onto it; a slide onto the lower currents
    rows = [".v.", ".v.", ".v.", ".@.", ".^.", ".^.", ".^."]
    st = slide_ready(rows, pos="A7", points=1, heroes=[dict(pos="A7", movement=1), dict(pos="B4")])
    st, ev = do(st, "ann", "move direction:E distance:1")
    if st.pending is not None:  # the whirlpool's spin, asked of whoever pushed
        st, more = do(st, st.pending.player, "choose option:cw")
        ev += more
    assert len(ev) < 25 and sum("circle" in e for e in ev) == 1
    assert any("carry Ann and Bob round in a circle" in e or "carry Bob and Ann round in a circle" in e for e in ev)
    assert st.phase == "explore"


def test_with_several_matching_water_connections_the_mover_picks_one():
    rows = ["w.....", ".w....", "......", "....w."]
    st = slide_ready(rows, pos="A2", points=1, links={"A1": "B", "B2": "B", "E4": "B"})
    st, _ = do(st, "ann", "move direction:E distance:1")
    assert st.pending.kind == "link" and sorted(st.pending.options) == ["A1", "E4"]
    st, _ = do(st, "ann", "choose option:E4")
    assert hero(st, "ann").pos == "E4"


def test_crystals_on_an_opening_trap_door_are_lost():
    st = slide_ready(OPEN, tokens={"B3": "switch:a", "E1": "trap_door:a"}, pos="A3", points=1,
                     ground={"E1": ["red-crystal"]}, mode="heist")
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert "E1" not in st.ground and any("lost" in e for e in ev)


def test_explanations_say_why_a_move_is_refused():
    from qhelpers import illegal

    st = slide_ready(OPEN, tokens={"B3": "wall"}, pos="A3", points=1)
    assert "stopped E of A3: B3 holds a wall" in illegal(st, "ann", "move direction:E distance:1").reason
    assert "natural tumble is done" in illegal(st, "ann", "tumble direction:E").reason
    st.m.ready, st.m.points = "", 0
    assert "No skill is ready" in illegal(st, "ann", "move direction:E distance:1").reason
    st.phase = "recovery"
    assert "movement phase" in illegal(st, "ann", "tumble direction:E").reason
