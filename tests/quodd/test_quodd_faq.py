"""The rulebook's FAQ, one test named after each entry that no other file names yet (the others:
`test_quodd_movement.py::test_faq_walled_in_during_phase_one_respawns_and_the_movement_ends`,
`test_quodd_rulefixes.py::test_faq_a_broken_wall_in_a_pit_is_a_passable_bridge`,
`test_quodd_buddies.py::test_faq_a_buddy_carries_up_to_two_collectibles_whatever_the_scenario_allows_heroes`,
`test_quodd_campaign.py::test_faq_multi_part_skills_may_be_rearranged_between_the_parts`,
`test_quodd_freeze.py::test_faq_freeze_o_tron_is_passive_so_crystal_extracts_single_point_dash_glides_across_water_as_far_as_you_like`,
`test_quodd_elements.py::test_faq_boosts_of_the_old_skill_do_not_follow_a_rearrange_mid_move`)."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal, legal, seed_rolling

OPEN = ["........."] * 9


def _quake(seed: int, others: list[dict], tokens: dict[str, str] | None = None):  # noqa: ANN202
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E"), *others], seed=seed, tokens=tokens)
    st.heroes[0].hero = "aang"  # the Earthquake Q-power
    st, _ = do(st, "ann", "tumble direction:N")  # the Q comes up
    return do(st, "ann", "qpower")


def test_faq_you_cannot_tumble_in_place_a_blocked_direction_must_be_another():
    """FAQ "Can I tumble my hero in place?": no; a blocked direction is refused and the others are offered (all
    four blocked at the start of the turn: `test_quodd_movement.py::test_blocked_on_all_four_sides_at_turn_start_
    respawns_then_moves_normally`)."""
    st = build(OPEN, tokens={"C2": "wall", "B1": "wall"}, heroes=[dict(pos="B2")])
    assert legal(st, "ann", "tumble") == ["tumble direction:S", "tumble direction:W"]
    assert "wall" in illegal(st, "ann", "tumble direction:N").reason
    assert "done" not in legal(st, "ann")  # no staying put instead


def test_faq_a_tumble_forced_on_you_off_your_turn_activates_no_skill():
    """FAQ "If another player or a world event forces me to tumble when it is not my turn...": no skill of Bob's
    activates when Ann's earthquake tumbles him (a world event's: `test_quodd_events.py::test_earthquake_event_
    tumbles_every_hero_the_way_the_direction_die_shows`)."""
    st, ev = _quake(seed_rolling(3, sides=8), [dict(pos="E5", head="U", front="N")])  # E
    assert hero(st, "bob").pos == "F5" and hero(st, "bob").head == "E"
    assert not any(e.startswith("Bob has") for e in ev)  # no "Bob has <skill> on top: n points"
    assert st.turn == 0 and st.m.ready == "q"  # the turn is still Ann's, her Q-powers as they were


def test_faq_a_diagonal_tumble_from_a_die_goes_north_or_south_first_then_the_other_way():
    """FAQ "If a die roll forces me to tumble diagonally such as NW": north first, then west; a blocked part is
    skipped, and with both blocked there is no tumble."""
    st, ev = _quake(seed_rolling(8, sides=8), [dict(pos="E5"), dict(pos="G7")], tokens={"D4": "wall", "G6": "wall",
                                                                                          "F7": "wall"})  # NW
    assert any("tumbles N then W" in e for e in ev)
    assert hero(st, "bob").pos == "E4"  # north to E4, then west into the wall on D4: skipped
    assert hero(st, "cat").pos == "G7"  # north (G6) and west (F7) both walled: no tumble at all
