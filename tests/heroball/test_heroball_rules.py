"""Heroball rules, one test per rule (our own wording of the quickstart plus house values)."""
from __future__ import annotations

import pytest
from hb_helpers import build, do, hero, illegal, legal, to_act

from games.core import IllegalAction, Seat
from games.heroball import ENGINE as E
from games.heroball.board import board

B = board()


# ---- board and setup -------------------------------------------------------------------------
def test_board_is_a_radius_6_hexagon_with_pillars_centre_and_corner_goals():
    assert len(B.labels) == 127
    assert B.centre == "G7"
    assert all(B.dist(p, B.centre) == 3 for p in B.pillars) and len(B.pillars) == 6
    for corner in B.corner:
        goal = B.goal(corner)
        assert len(goal) == 3 and all(B.dist(g, B.centre) == 6 for g in goal)


@pytest.mark.parametrize("n,corners", [(2, ["G1", "G13"]), (3, ["G1", "M10", "A10"]), (4, ["M4", "M10", "A10", "A4"])])
def test_heroes_start_evenly_spaced_on_corners(n, corners):
    seats = [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)]
    s = E.setup({}, seats, 3)
    assert [h.pos for h in s.heroes] == corners
    assert all(h.ap == 4 for h in s.heroes)
    assert s.objects["ball"].at == "G7"


def test_hermes_is_refused_with_the_rules_reason():
    with pytest.raises(IllegalAction) as info:
        E.check_seat({}, [], Seat(player="a", name="Ann", choices={"god": "Hermes"}))
    assert "incident" in info.value.reason and "Zeus" in info.value.hint


def test_a_hero_or_god_cannot_be_taken_twice_and_open_choices_are_drawn_at_setup():
    ann = Seat(player="a", name="Ann", choices={"hero": "Achilles", "god": "Zeus"})
    with pytest.raises(IllegalAction):
        E.check_seat({}, [ann], Seat(player="b", name="Bob", choices={"hero": "achilles"}))
    with pytest.raises(IllegalAction):
        E.check_seat({}, [ann], Seat(player="b", name="Bob", choices={"god": "Zeus"}))
    bob = Seat(player="b", name="Bob")
    s1, s2 = E.setup({}, [ann, bob], 11), E.setup({}, [ann, bob], 11)
    assert s1 == s2 and s1.heroes[1].hero != "Achilles" and s1.heroes[1].god not in ("Zeus", "Hermes")
    assert s1.heroes[0].holding == "pole" and s1.objects["pole"].holder == "a"


def test_seed_terrain_is_placed_in_turn_order_as_real_turns_then_round_1_starts():
    seats = [Seat(player="a", name="Ann", choices={"god": "Zeus"}),
             Seat(player="b", name="Bob", choices={"god": "Ares"})]
    s = E.setup({}, seats, 5)
    assert E.status(s).phase == "seed" and to_act(s) == ["a"]
    for lab in ("G1", "F1", "G7", "G4", "G13"):  # hero/goal, goal, centre post, pillar
        assert f"seed to:{lab}" not in legal(s, "a")
    s, _ = do(s, "a", "seed to:C4")
    assert to_act(s) == ["b"]
    assert "seed to:C4" not in legal(s, "b")  # not on another token
    s, _ = do(s, "b", "seed to:C5")
    s, _ = do(s, "a", "seed to:C6")
    s, ev = do(s, "b", "seed to:C7")
    assert s.terrain == {"C4": "mountain", "C5": "forest", "C6": "mountain", "C7": "forest"}
    st = E.status(s)
    assert st.phase == "action" and st.round == 1 and st.to_act == ["a"]
    assert hero(s, "a").ap == 5  # refresh: 4 + 1


# ---- turn structure ----------------------------------------------------------------------------
def test_refresh_gives_1_ap_up_to_5_and_clears_everyones_spent_tokens():
    s = build("Gorgo@G5 ap=5, Helen@J10 ap=4 spent=step+run")
    s, _ = do(s, "gorgo", "step to:G6")
    s, _ = do(s, "gorgo", "end")
    assert hero(s, "helen").ap == 5 and hero(s, "helen").spent == [] and hero(s, "gorgo").spent == []
    s, _ = do(s, "helen", "end")  # rested: spent 0 AP
    assert hero(s, "gorgo").ap == 5  # 4 left + refresh, capped at 5


def test_clean_up_rest_gives_1_ap_only_if_nothing_was_spent():
    s = build("Gorgo@G5 ap=2, Helen@J10 ap=2")
    s, ev = do(s, "gorgo", "end")
    assert hero(s, "gorgo").ap == 3 and any("rests" in e for e in ev)
    s, _ = do(s, "helen", "step to:J11")
    s, _ = do(s, "helen", "end")
    assert hero(s, "helen").ap == 2  # 2 +1 refresh -1 step, no rest


def test_resting_on_a_full_ap_track_gains_nothing_and_says_so():
    """Rest adds 1 AP, but the track stops at 5: a hero already on 5 keeps 5 and the message does not claim +1."""
    s = build("Gorgo@G5 ap=5, Helen@J10")
    s, ev = do(s, "gorgo", "end")
    assert hero(s, "gorgo").ap == 5
    assert "Gorgo (Gorgo) rests, but the AP track is full (5)." in ev and not any("+1 AP" in e for e in ev)


def test_game_ends_after_round_12_highest_score_wins_and_ties_share():
    s = build("Gorgo@G5 score=3, Helen@J10 score=3, Herakles@C4 score=1")
    s.round = 12
    for p in ("gorgo", "helen", "herakles"):
        s, _ = do(s, p, "end")
    st = E.status(s)
    assert st.finished and sorted(st.result.winners) == ["gorgo", "helen"] and "shared" in st.result.text
    assert st.round == 12


def test_the_result_is_one_sentence_naming_the_winner_and_the_last_event_does_not_repeat_it():
    s = build("Gorgo@G5 score=2, Helen@J10 score=1")
    s.round = 12
    s, _ = do(s, "gorgo", "end")
    s, events = do(s, "helen", "end")
    st = E.status(s)
    assert st.result.text == "Gorgo wins with 2 points. Final scores: Gorgo 2, Helen 1."
    assert events[-1] == "Round 12 is over: that was the last round."
    assert not any("Final scores" in e or "wins" in e for e in events)


def test_end_is_always_legal_in_the_action_phase_even_when_knocked_down():
    s = build("Gorgo@G5 ap=0 down, Helen@J10")
    assert "end" in legal(s, "gorgo")


# ---- movement ----------------------------------------------------------------------------------
def test_step_run_sprint_go_in_order_once_each_costing_1_1_2():
    s = build("Gorgo@G5 ap=5, Helen@J10")
    assert legal(s, "gorgo", "run") == [] and legal(s, "gorgo", "sprint") == []
    err = illegal(s, "gorgo", "run to:G6")
    assert "step before" in err.reason
    s, _ = do(s, "gorgo", "step to:G6")
    s, _ = do(s, "gorgo", "run to:G7")
    s, _ = do(s, "gorgo", "sprint to:G8")
    assert hero(s, "gorgo").ap == 1 and hero(s, "gorgo").pos == "G8"
    assert legal(s, "gorgo", "step") == []
    assert "already used" in illegal(s, "gorgo", "step to:G9").reason


def test_terrain_adds_1_and_favoured_terrain_takes_1_off():
    # Gorgo's god is Zeus (mountain)
    s = build("Gorgo@G5 ap=5, Helen@J10", terrain="G6=water F5=mountain")
    s1, _ = do(s, "gorgo", "step to:G6")
    assert hero(s1, "gorgo").ap == 3
    s2, _ = do(s, "gorgo", "step to:F5")
    assert hero(s2, "gorgo").ap == 5


def test_sprint_into_favoured_terrain_costs_1():
    s = build("Gorgo@G5 ap=5 spent=step+run, Helen@J10", terrain="F5=mountain")
    s, _ = do(s, "gorgo", "sprint to:F5")
    assert hero(s, "gorgo").ap == 4


def test_occupied_hexes_and_pillars_are_blocked_and_the_reason_names_the_hero():
    s = build("Gorgo@G5, Helen@G6")
    assert "step to:G6" not in legal(s, "gorgo") and "step to:G4" not in legal(s, "gorgo")
    err = illegal(s, "gorgo", "step to:G6")
    assert "occupied by Helen" in err.reason
    assert "Pillar" in illegal(s, "gorgo", "step to:G4").reason


def test_a_direction_is_another_spelling_of_the_destination():
    s = build("Gorgo@G5, Helen@J10")
    s, _ = do(s, "gorgo", "step direction:se")
    assert hero(s, "gorgo").pos == B.toward("G5", "SE")


def test_an_illegal_move_changes_nothing():
    s = build("Gorgo@G5 ap=0, Helen@J10")
    err = illegal(s, "gorgo", "step to:G6")
    assert "costs 1 AP; you have 0" in err.reason
    illegal(s, "helen", "step to:J11")  # not her turn


# ---- attacks -----------------------------------------------------------------------------------
def test_push_moves_an_adjacent_opponent_1_hex_away_to_a_hex_the_attacker_picks():
    s = build("Gorgo@G5, Helen@G6", orders="helen:defend=never")
    dests = sorted(a.split("to:")[1] for a in legal(s, "gorgo", "push"))
    assert dests == sorted(h for h in B.neighbors("G6") if B.dist(h, "G5") == 2)
    s, _ = do(s, "gorgo", "push target:Helen to:G7")
    assert hero(s, "helen").pos == "G7" and hero(s, "gorgo").ap == 3


def test_push_never_goes_into_an_occupied_hex_and_needs_a_destination():
    s = build("Gorgo@G5, Helen@G6, Herakles@G7", orders="helen:defend=never")
    assert "push target:Helen to:G7" not in legal(s, "gorgo")
    away = [h for h in B.neighbors("G6") if B.dist(h, "G5") == 2]
    assert len(away) == 3 and "G7" in away
    # G4 (a pillar), F4 and H4 are the 'away' hexes when Gorgo on G6 pushes Helen on G5
    s = build("Gorgo@G6, Helen@G5, Calypso@F4, Pegasus@H4")
    assert sorted(h for h in B.neighbors("G5") if B.dist(h, "G6") == 2) == ["F4", "G4", "H4"]
    assert legal(s, "gorgo", "push") == []


def test_defended_push_costs_the_attacker_the_ap_and_may_be_tried_again():
    s = build("Gorgo@G5 ap=4, Helen@G6 ap=3")
    s, ev = do(s, "gorgo", "push target:Helen to:G7")
    assert to_act(s) == ["helen"] and E.status(s).phase == "defend"
    assert "gorgo" not in to_act(s)
    assert sorted(legal(s, "helen", "react") + legal(s, "helen", "pass")) == ["pass", "react"]
    illegal(s, "gorgo", "pass")  # nobody but the defender can answer
    s, ev = do(s, "helen", "react")
    assert hero(s, "helen").pos == "G6" and hero(s, "helen").ap == 2 and hero(s, "gorgo").ap == 3
    assert to_act(s) == ["gorgo"]
    s, _ = do(s, "gorgo", "push target:Helen to:G7")
    s, _ = do(s, "helen", "pass")
    assert hero(s, "helen").pos == "G7" and hero(s, "gorgo").ap == 2


def test_defend_needs_1_ap():
    s = build("Gorgo@G5, Helen@G6 ap=0")
    s, _ = do(s, "gorgo", "push target:Helen to:G7")
    assert hero(s, "helen").pos == "G7"


def test_force_fumble_places_the_object_next_to_the_victim_then_others_may_intercept():
    s = build("Gorgo@G5, Helen@G6 ball, Herakles@H7", orders="helen:defend=never")
    places = sorted(a.split("to:")[1] for a in legal(s, "gorgo", "fumble"))
    assert places == sorted(h for h in B.neighbors("G6") if h != "G5")
    s, _ = do(s, "gorgo", "fumble target:Helen to:G7")
    assert s.objects["ball"].at == "G7" and hero(s, "helen").holding is None
    # Herakles (Swat) is next to H7 and may react; Helen fumbled it and may not
    assert to_act(s) == ["herakles"]


# ---- objects -----------------------------------------------------------------------------------
def test_hold_is_free_on_your_turn_and_you_must_drop_before_holding_another():
    s = build("Achilles@G7 pole, Helen@J10")
    assert legal(s, "achilles", "hold") == []
    assert "drop it first" in illegal(s, "achilles", "hold obj:ball").reason
    s, _ = do(s, "achilles", "drop to:G7")
    assert hero(s, "achilles").ap == 4  # drop costs 0
    s, _ = do(s, "achilles", "hold obj:ball")
    assert hero(s, "achilles").holding == "ball" and s.objects["pole"].at == "G7"


def test_held_objects_move_with_the_hero():
    s = build("Gorgo@G7, Helen@J10")
    s, _ = do(s, "gorgo", "hold")
    s, _ = do(s, "gorgo", "step to:G8")
    assert E.summary(s)["ball"] == "Gorgo" and E.summary(s)["players"][0]["position"] == "G8"


def test_throw_reaches_up_to_2_hexes_for_1_ap_never_onto_a_pillar():
    s = build("Gorgo@G6 ball, Helen@J10")
    targets = {a.split("to:")[1] for a in legal(s, "gorgo", "throw")}
    assert targets == {h for h in B.within("G6", 1, 2) if h not in B.pillars}
    s, _ = do(s, "gorgo", "throw to:G8")
    assert s.objects["ball"].at == "G8" and hero(s, "gorgo").ap == 3


def test_drop_goes_into_your_hex_or_an_adjacent_one():
    s = build("Gorgo@G6 ball, Helen@J10")
    assert {a.split("to:")[1] for a in legal(s, "gorgo", "drop")} == {
        "G6", *[n for n in B.neighbors("G6") if n not in B.pillars]}


# ---- intercepts --------------------------------------------------------------------------------
def test_intercept_by_adjacent_hero_costs_only_the_interceptor_1_ap():
    s = build("Gorgo@G6 ball, Calypso@H8")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert to_act(s) == ["calypso"] and E.status(s).phase == "intercept"
    s, ev = do(s, "calypso", "react")
    assert hero(s, "calypso").holding == "ball" and hero(s, "calypso").ap == 3 and hero(s, "gorgo").ap == 3


def test_the_thrower_never_intercepts_their_own_throw():
    s = build("Gorgo@G6 ball, Calypso@A10")
    s, _ = do(s, "gorgo", "drop to:G6")  # nobody else near: it just lands
    assert s.window is None and s.objects["ball"].at == "G6"


def test_intercept_priority_hero_in_target_hex_then_closest_to_thrower_then_turn_order():
    # Throw from G6 to G8. Calypso stands on G8; Achilles (G7) is nearer the thrower than Pegasus (H8).
    s = build("Gorgo@G6 ball, Pegasus@H8, Achilles@G7, Calypso@G8")
    assert B.dist("G7", "G6") < B.dist("H8", "G6")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert s.window.queue == ["calypso", "achilles", "pegasus"]
    s, _ = do(s, "calypso", "pass")
    assert to_act(s) == ["achilles"]
    s, _ = do(s, "achilles", "pass")
    s, ev = do(s, "pegasus", "react")
    assert hero(s, "pegasus").holding == "ball"


def test_intercept_priority_tie_goes_to_the_next_hero_in_turn_order_after_the_active_one():
    # Gorgo at G6 throws to G8; F8 and H8 are equally far from G6 -> turn order after Gorgo decides.
    s = build("Gorgo@G6 ball, Pegasus@H8, Calypso@F8")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert B.dist("H8", "G6") == B.dist("F8", "G6")
    assert s.window.queue == ["pegasus", "calypso"]
    s = build("Calypso@F8, Gorgo@G6 ball, Pegasus@H8", active=1)
    s, _ = do(s, "gorgo", "throw to:G8")
    assert s.window.queue == ["pegasus", "calypso"]


def test_a_hero_on_the_landing_hex_may_take_the_object_for_free():
    s = build("Gorgo@G6 ball, Calypso@G8 ap=0")
    s, _ = do(s, "gorgo", "throw to:G8")
    s, ev = do(s, "calypso", "react")
    assert hero(s, "calypso").holding == "ball" and hero(s, "calypso").ap == 0


def test_intercept_drops_what_the_interceptor_held():
    s = build("Gorgo@G6 ball, Achilles@H8 pole")
    s, _ = do(s, "gorgo", "throw to:G8")
    s, _ = do(s, "achilles", "react")
    assert hero(s, "achilles").holding == "ball" and s.objects["pole"].at == "H8"


def test_standing_orders_resolve_the_window_at_once():
    s = build("Gorgo@G6 ball, Calypso@H8, Achilles@F8", orders="achilles:intercept=never calypso:intercept=always")
    s, ev = do(s, "gorgo", "throw to:G8")
    assert s.window is None and hero(s, "calypso").holding == "ball" and to_act(s) == ["gorgo"]


def test_pass_is_always_legal_in_a_window():
    s = build("Gorgo@G6 ball, Calypso@H8")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert "pass" in legal(s, "calypso")


def test_reactions_setting_is_legal_for_every_seated_player_at_any_time():
    s = build("Gorgo@G6 ball, Calypso@H9, Helen@A10")
    for p in ("gorgo", "calypso", "helen"):
        assert any(a.startswith("reactions ") for a in legal(s, p))
    s2, _ = E.apply(s, "helen", __import__("games.core", fromlist=["Action"]).Action.parse("reactions defend:always"))
    assert hero(s2, "helen").orders["defend"] == "always"
    assert "reactions distract:always" in legal(s, "helen") and "reactions distract:always" not in legal(s, "gorgo")


# ---- knockdown -----------------------------------------------------------------------------------
def test_knocked_down_hero_must_step_to_stand_and_can_do_nothing_else_but_defend():
    s = build("Helen@J10, Gorgo@G5 down ap=3", active=1)
    orders = [a for a in legal(s, "gorgo") if a.startswith("reactions")]
    assert sorted(legal(s, "gorgo", None)) == sorted(["step", "end", *orders])
    assert "stand up first" in illegal(s, "gorgo", "push target:Helen to:J11").reason
    s, ev = do(s, "gorgo", "step")
    assert not hero(s, "gorgo").down and hero(s, "gorgo").pos == "G5" and hero(s, "gorgo").ap == 2
    assert legal(s, "gorgo", "run")  # standing used the step
    # a knocked-down hero may still defend
    s = build("Helen@G6, Calypso@G5 down ap=2")
    push = "push target:Calypso to:G4"
    s, _ = do(s, "helen", push if push in legal(s, "helen") else legal(s, "helen", "push")[0])
    assert E.status(s).phase == "defend"


# ---- scoring -----------------------------------------------------------------------------------
def test_running_the_godball_into_your_goal_scores_2_returns_the_ball_and_ends_the_turn():
    s = build("Gorgo@G3 ball ap=5, Helen@G13")  # Gorgo's goal: G1 F1 H1
    s, _ = do(s, "gorgo", "step to:G2")
    s, ev = do(s, "gorgo", "run to:G1")
    assert hero(s, "gorgo").score == 2 and s.objects["ball"].at == "G7" and hero(s, "gorgo").holding is None
    assert to_act(s) == ["helen"] and any("GOAL" in e for e in ev)


def test_throwing_the_godball_into_your_goal_scores_1():
    s = build("Gorgo@G3 ball, Helen@G13")
    s, ev = do(s, "gorgo", "throw to:G1")
    assert hero(s, "gorgo").score == 1 and s.objects["ball"].at == "G7" and to_act(s) == ["helen"]


def test_the_godball_reaching_someone_elses_goal_any_other_way_scores_1_for_them():
    s = build("Gorgo@G11 ball, Helen@A4")  # Helen's goal: G13 F12 H12
    s, _ = do(s, "gorgo", "step to:G12")
    s, ev = do(s, "gorgo", "run to:G13")
    assert hero(s, "helen").score == 1 and hero(s, "gorgo").score == 0


def test_pushed_into_your_own_goal_with_the_ball_counts_as_any_other_way():
    s = build("Gorgo@G2 ball, Helen@G3", active=1, orders="gorgo:defend=never")
    s, _ = do(s, "helen", "push target:Gorgo to:G1")
    assert hero(s, "gorgo").score == 1


def test_a_throw_into_a_goal_can_still_be_intercepted_before_it_lands():
    s = build("Gorgo@G3 ball, Calypso@G2")
    s, _ = do(s, "gorgo", "throw to:G1")
    assert to_act(s) == ["calypso"] and hero(s, "gorgo").score == 0
    s, _ = do(s, "calypso", "react")
    assert hero(s, "calypso").holding == "ball" and hero(s, "gorgo").score == 0


# ---- export -------------------------------------------------------------------------------------
def test_summary_has_round_ball_and_per_player_fields():
    s = build("Gorgo@G6 ball down, Helen@J10")
    summ = E.summary(s)
    assert summ["round"] == 1 and summ["ball"] == "Gorgo"
    assert summ["players"][0] == {"name": "Gorgo", "hero": "Gorgo", "god": "Zeus", "position": "G6", "ap": 4,
                                  "score": 0, "holding": "ball", "knocked_down": True}


def test_a_knocked_down_hero_gets_no_intercept_and_no_distract_only_defend():
    """Lying down, the only action a hero has is defend: a throw landing beside them opens no window for them,
    and a knocked-down Helen does not interrupt an action near her."""
    s = build("Helen@G5 ball, Gorgo@G8 down, Calypso@A10", orders="gorgo:intercept=always")
    s, ev = do(s, "helen", "throw to:G7")
    assert s.window is None and s.objects["ball"].at == "G7" and hero(s, "gorgo").ap == 4
    s = build("Gorgo@G6 ap=4, Helen@G8 ap=2 down", orders="helen:distract=always")
    s, _ = do(s, "gorgo", "step to:G5")
    assert s.window is None and hero(s, "gorgo").pos == "G5" and hero(s, "helen").ap == 2
