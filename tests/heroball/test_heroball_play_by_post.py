"""What a player meets in the channel: reasons for refused moves, buttons, window deadlines."""
from __future__ import annotations

import re

import pytest
from hb_helpers import build, do, hero, illegal, legal

from games.core import Action, Seat
from games.core.play import step
from games.heroball import ENGINE as E


def seeded():
    seats = [Seat(player="ann", name="ann", choices={"hero": "Gorgo", "god": "Zeus"}),
             Seat(player="bob", name="bob", choices={"hero": "Pegasus", "god": "Ares"})]
    return E.setup({}, seats, 7)


# ---- explain(): the reason behind each common mistake ------------------------------------------
@pytest.mark.parametrize("where, text, reason", [
    ("seed", "seed to:G4", "G4 holds a Pillar of Heaven"),
    ("seed", "seed to:G7", "G7 is the centre post"),
    ("seed", "seed to:H1", "H1 is part of ann's goal tile"),
    ("seed", "seed to:Z9", "Z9 is not a hex on the field"),
    ("seed", "step to:G2", "Setup first"),
    ("Gorgo@G5, Pegasus@G6", "step to:G4", "G4 holds a Pillar of Heaven"),
    ("Gorgo@G5, Pegasus@G6", "step to:G6", "G6 is occupied by Pegasus (Pegasus)"),
    ("Gorgo@G5, Pegasus@G6", "step to:G9", "G9 is not next to Gorgo (G5)"),
    ("Gorgo@G5, Pegasus@G6", "run to:H5", "You must step before you can run"),
    ("Gorgo@G5 spent=step, Pegasus@G6", "step to:H5", "already used your step"),
    ("Gorgo@G5 ap=0, Pegasus@G8", "step to:H5", "costs 1 AP; you have 0"),
    ("Gorgo@G5 ap=1 spent=step+run, Pegasus@G8", "sprint to:H5", "costs 2 AP; you have 1"),
    ("Gorgo@G5 ap=0, Pegasus@G8", "step to:G6", "Step to G6 costs 2 AP (1 for the move, +1 for water)"),
    ("Gorgo@G5 down, Pegasus@G8", "push target:Pegasus to:G9", "Gorgo is knocked down: `step`"),
    ("Gorgo@G5 down, Pegasus@G8", "step to:G6", "a plain `step` stands you up"),
    ("Gorgo@G5, Pegasus@G8", "push target:Pegasus to:G9", "Pegasus (G8) is not next to Gorgo (G5)"),
    ("Gorgo@G5, Pegasus@G6", "push target:Pegasus to:F5", "1 hex away from you; F5 is not such a hex"),
    ("Gorgo@G5 ap=0, Pegasus@G6", "push target:Pegasus to:G7", "Push costs 1 AP; you have 0"),
    ("Gorgo@G5, Pegasus@G6", "fumble target:Pegasus to:G7", "Pegasus holds nothing to fumble"),
    ("Gorgo@G5, Pegasus@G6", "push target:Gorgo to:G7", "cannot target yourself"),
    ("Gorgo@G5, Achilles@G6", "push target:Achilles to:G7", "Achilles is Invulnerable"),
    ("Gorgo@G5, Pegasus@G8", "throw to:G6", "You hold nothing to throw"),
    ("Gorgo@G5, Pegasus@G8", "drop to:G6", "You hold nothing to drop"),
    ("Gorgo@G5 ball, Pegasus@G8", "throw to:G2", "G2 is more than 2 hexes away"),
    ("Gorgo@G5 ball, Pegasus@G8", "throw to:G4", "objects cannot land there"),
    ("Gorgo@G5 ball, Pegasus@G8", "drop to:G3", "too far (throw instead)"),
    ("Gorgo@G5, Pegasus@G8", "hold", "nothing loose in your hex (G5)"),
    ("Gorgo@G5 ball, Pegasus@G8", "hold obj:ball", "You already hold the Godball: drop it first"),
    ("Gorgo@G5, Pegasus@G8", "hold obj:ball", "The Godball is on G7, not in your hex (G5)"),
    ("Gorgo@G5 spent=unique, Pegasus@G6", "hero action:pummel target:Pegasus", "Pummel is spent"),
    ("Gorgo@G5, Pegasus@G6 down", "hero action:pummel target:Pegasus", "Pegasus is already knocked down"),
    ("Gorgo@G5, Pegasus@G6", "hero action:fly", "Gorgo's hero actions: `pummel`"),
    ("Pegasus@G5 flip=fly, Gorgo@G9", "hero action:fly", "Feed side"),
    ("Achilles@G5 pole, Gorgo@G9", "hero action:vault to:G3", "right after a run or sprint"),
    ("Gorgo@G5, Pegasus@G8", "react", "nothing to react to"),
    ("Gorgo@G5, Pegasus@G8", "seed to:A4", "before round 1 only"),
])
def test_explain_names_the_reason_for_the_common_mistakes(where, text, reason):
    s = seeded() if where == "seed" else build(where, terrain="G6=water")
    player = s.heroes[0].player
    assert reason in illegal(s, player, text).reason


def test_explain_in_a_reaction_window_says_what_is_being_decided():
    s = build("Gorgo@G5, Pegasus@G6")
    s, _ = do(s, "gorgo", "push target:Pegasus to:G7")
    assert "defend against the push by Gorgo or let it through" in illegal(s, "pegasus", "step to:F6").reason


# ---- buttons ------------------------------------------------------------------------------------
def buttons(s, player):
    chosen = E.button_actions(s, player, E.legal_actions(s, player))
    return [E.label(s, a) for a in chosen], chosen


def test_defend_window_buttons_read_defend_and_let_it_through():
    s = build("Gorgo@G5, Pegasus@G6")
    s, _ = do(s, "gorgo", "push target:Pegasus to:G7")
    labels, chosen = buttons(s, "pegasus")
    assert labels == ["Defend (1 AP)", "Let it through"]
    assert [a.text() for a in chosen] == ["react", "pass"]


def test_intercept_window_buttons_name_the_hex_and_its_cost_and_pass_comes_last():
    s = build("Calypso@G6 ball, Gorgo@I9 ap=3, Pegasus@G9", terrain="H8=mountain")
    s, _ = do(s, "calypso", "throw to:G8")
    assert buttons(s, "pegasus")[0] == ["Catch at G8 (1 AP)", "Pass"]
    s, _ = do(s, "pegasus", "pass")
    labels, _ = buttons(s, "gorgo")  # Predict: move next to G8, then catch; 1 AP + the hex (mountain: +1)
    assert labels[-1] == "Pass" and "Move to H8, catch (2 AP)" in labels
    s, events = do(s, "gorgo", "react to:H8")
    assert hero(s, "gorgo").ap == 1 and any("catches the Godball (2 AP)." in e for e in events)


def test_distract_windows_read_distract_pay_and_let_it_fail():
    s = build("Gorgo@G5 ball, Helen@G7", orders="helen:distract=ask")
    s, _ = do(s, "gorgo", "step to:G6")
    assert buttons(s, "helen")[0] == ["Distract (1 AP)", "Let it be"]
    s, _ = do(s, "helen", "react")
    assert buttons(s, "gorgo")[0] == ["Pay 1 AP", "Let it fail"]


def test_action_phase_buttons_keep_moves_and_end_turn_when_the_legal_list_is_long():
    # Gorgo holds the Godball: 18 throws and 7 drops make the legal list too long for buttons.
    s = build("Gorgo@G5 ball, Pegasus@J10")
    legal_now = E.legal_actions(s, "gorgo")
    assert len(legal_now) > 20
    labels, chosen = buttons(s, "gorgo")
    assert len(chosen) <= 20 and labels[-1] == "End turn"
    assert {a.text() for a in chosen if a.cmd == "step"} == {a.text() for a in legal_now if a.cmd == "step"}
    assert "Drop → G5 (free)" in labels and not any(a.cmd in ("throw", "reactions") for a in chosen)
    # knocked down: stand up or end
    s = build("Gorgo@G5 down, Pegasus@J10")
    assert buttons(s, "gorgo")[0] == ["Stand up (1 AP)", "End turn"]


def test_seed_buttons_offer_the_free_hexes_near_your_hero_and_the_rest_stay_with_the_command():
    s = seeded()
    legal_seeds = E.legal_actions(s, "ann")
    shown = E.button_actions(s, "ann", legal_seeds)
    assert len(legal_seeds) > 100 and 0 < len(shown) <= 15
    ann = s.heroes[0]
    assert all(E.board.dist(ann.pos, a.get("to")) <= 2 and a in legal_seeds for a in shown)
    assert E.label(s, shown[0]).startswith("Seed mountain → ")  # Zeus's terrain


def test_the_seed_phase_says_which_terrain_how_many_left_and_which_hexes_are_forbidden():
    s = seeded()
    assert E.status(s).waiting_for == "ann to place mountain seed terrain (4 tokens left in all)"
    intro = E.intro(s)
    assert "ann plays Gorgo for Zeus (mountain); bob plays Pegasus for Ares (forest)" in intro
    for hexes in ("G4", "G10", "centre post G7", "H1"):  # pillars, the centre post, a goal hex
        assert hexes in intro


# ---- deadlines and skipping ----------------------------------------------------------------------
def test_a_reaction_window_expires_after_reaction_hours_as_a_pass():
    s = build("Gorgo@G5, Pegasus@G6")
    assert E.timeout(s, {}) is None  # an ordinary turn waits under the table's turn deadline
    s, _ = do(s, "gorgo", "push target:Pegasus to:G7")
    hours, action = E.timeout(s, {"reaction_hours": "3"})
    assert hours == 3 and action == Action.of("pass") and action in E.legal_actions(s, "pegasus")
    assert E.timeout(s, {})[0] == 12
    s, _ = do(s, "pegasus", action.text())
    assert hero(s, "pegasus").pos == "G7"


def test_skipping_a_player_ends_their_turn_or_passes_their_window():
    s = build("Gorgo@G5, Pegasus@G6")
    assert E.skip_action(s, "gorgo") == Action.of("end")
    s, _ = do(s, "gorgo", "push target:Pegasus to:G7")
    assert E.skip_action(s, "pegasus") == Action.of("pass")


def test_standing_orders_are_an_anytime_command_and_a_seat_option():
    assert "reactions" in E.anytime_commands
    assert {"defend", "intercept"} <= {o.name for o in E.seat_options}
    s = build("Gorgo@G5, Pegasus@G6")
    assert "reactions defend:always" in legal(s, "pegasus")  # off-turn


def test_preview_shows_the_move_without_changing_the_game():
    s = build("Gorgo@G5 ball, Pegasus@J10")
    before = E.dump(s)
    seen, events = E.preview(s, "gorgo", Action.parse("throw obj:ball to:G7"))
    assert E.dump(s) == before
    assert seen.objects["ball"].at == "G7" and any("throws the Godball to G7" in e.text for e in events)


def test_a_scoring_throw_gets_a_button_marked_goal_even_among_many_throws():
    # Gorgo's goal is the north corner G1 with F1 and H1; from G3 with the Godball she can throw into it.
    s = build("Gorgo@G3 ball, Pegasus@J10")
    labels, chosen = buttons(s, "gorgo")
    assert len(E.legal_actions(s, "gorgo")) > 20
    assert {"Throw → G1 (goal! +1, 1 AP)", "Throw → F1 (goal! +1, 1 AP)", "Throw → H1 (goal! +1, 1 AP)"} <= set(labels)
    assert labels[-1] == "End turn" and "Step → G2 (1 AP)" in labels
    # carrying the Godball next to the goal: the scoring step is marked
    s = build("Gorgo@G2 ball, Pegasus@J10")
    assert "Step → G1 (goal! +2, 1 AP)" in buttons(s, "gorgo")[0]
    labels = buttons(s, "gorgo")[0]
    assert "Drop → G1 (goal! +1, free)" in labels and "Drop → G2 (free)" in labels  # a drop into your goal scores 1
    # Pegasus kicks rather than throws, and his buttons say so
    s = build("Pegasus@G2, Gorgo@J10", ball="G3")
    assert "Kick → G1 (goal! +1, 1 AP)" in buttons(s, "pegasus")[0]


def test_a_skipped_seed_turn_places_the_token_so_setup_goes_on():
    s = seeded()
    a = E.skip_action(s, "ann")
    assert a is not None and a.cmd == "seed" and a in E.legal_actions(s, "ann")
    s2, _ = E.apply(s, "ann", a)
    assert E.status(s2).to_act == ["bob"] and s2.terrain == {a.get("to"): "mountain"}


def test_every_action_of_the_turn_says_the_ap_left():
    s = build("Gorgo@G5 ap=4, Pegasus@G9")
    s, ev = do(s, "gorgo", "step to:H5")
    assert ev[-1] == "Gorgo: 3 AP left."
    s, ev = do(s, "gorgo", "end")
    assert not any("AP left" in e for e in ev)


# ---- a scoring action is labelled as one, whatever carries the Godball in --------------------


@pytest.mark.parametrize("where, ball", [
    ("Perseus@G3 ball, Gorgo@J10", None),  # Winged Sandals into the goal while carrying it
    ("Gorgo@G3, Pegasus@G2 ball", None),  # push, fumble or Pummel the holder into the goal
    ("Pegasus@G2 ball spent=step+run, Gorgo@H2", None),  # Trample carrying it
    ("Pegasus@G3 spent=step+run, Gorgo@H2 ball", None),  # Trample its holder: the fumble goes in
    ("Pegasus@G3, Gorgo@J10", "G3"),  # a kick
    ("Gorgo@G2 ball, Pegasus@J10", None),  # step, throw, drop
])
def test_every_action_labelled_goal_scores_those_points_and_no_other_action_scores(where, ball):
    names = [spec.split("@")[0].lower() for spec in where.split(", ")]
    s = build(where, ball=ball, orders=" ".join(f"{n}:{k}=never" for n in names for k in ("defend", "intercept")))
    me = s.heroes[0].player
    labelled = 0
    for a in E.legal_actions(s, me):
        if a.cmd in ("end", "reactions"):
            continue
        label = E.label(s, a)
        after, _ = do(s, me, a.text())
        gained = hero(after, me).score - hero(s, me).score
        if gained:
            labelled += 1
            assert f"(goal! +{gained}" in label, (a.text(), label)
        else:
            assert "goal!" not in label, (a.text(), label)
    assert labelled


def test_winged_sandals_into_your_goal_is_the_first_button_and_scoring_buttons_go_best_first():
    s = build("Perseus@G3 ball, Gorgo@J10")
    labels, _ = buttons(s, "perseus")
    assert labels[0] == "Sandals → G1 (goal! +2, 1 AP)"
    points = [int(lab.split("goal! +")[1][0]) for lab in labels if "goal!" in lab]
    assert points == sorted(points, reverse=True) and labels.index("Sandals → G1 (goal! +2, 1 AP)") == 0
    s = build("Gorgo@G2 ball, Pegasus@J10")
    labels, _ = buttons(s, "gorgo")
    assert [lab for lab in labels[:6]] == ["Step → G1 (goal! +2, 1 AP)", "Step → H1 (goal! +2, 1 AP)",
                                           "Step → F1 (goal! +2, 1 AP)", "Throw → F1 (goal! +1, 1 AP)",
                                           "Throw → G1 (goal! +1, 1 AP)", "Throw → H1 (goal! +1, 1 AP)"]


def test_buttons_show_every_cost_and_free_when_nothing_is_paid():
    s = build("Gorgo@G5 down, Pegasus@J10")
    assert buttons(s, "gorgo")[0][0] == "Stand up (1 AP)"
    s = build("Gorgo@G5, Pegasus@J10", terrain="G6=mountain")  # Zeus: mountain is Gorgo's favoured terrain
    assert "Step → G6 (free)" in buttons(s, "gorgo")[0]
    s = build("Helen@G5 flip=distract, Pegasus@J10")
    assert "Study Opponent (1 AP)" in buttons(s, "helen")[0]


# ---- standing orders: several at once, the current ones on request, told to the player alone ------
def test_reactions_without_an_option_shows_your_standing_orders_and_changes_nothing():
    s = build("Helen@G5, Gorgo@J10", orders="helen:distract=always")
    why = illegal(s, "gorgo", "reactions").reason
    assert why.startswith("Your standing orders: defend ask, intercept ask (")
    assert "distract" not in why.split("(")[0]
    assert "Your standing orders: defend ask, intercept ask, distract always" in illegal(s, "helen", "reactions").reason


def test_reactions_takes_several_orders_at_once_and_skips_those_already_set():
    s = build("Helen@G5, Gorgo@J10")
    s2, events = do(s, "gorgo", "reactions defend:ask intercept:never")  # defend is already ask
    assert hero(s2, "gorgo").orders == {**hero(s, "gorgo").orders, "intercept": "never"}
    s3, _ = do(s, "helen", "reactions intercept:never defend:always distract:ask")
    assert {k: hero(s3, "helen").orders[k] for k in ("defend", "intercept", "distract")} == {
        "defend": "always", "intercept": "never", "distract": "ask"}
    assert "already say intercept ask" in illegal(s, "gorgo", "reactions intercept:ask").reason


def test_distract_orders_from_a_hero_without_distract_say_only_helen_has_it():
    s = build("Helen@G5, Gorgo@J10")
    assert illegal(s, "gorgo", "reactions distract:always").reason == (
        "Only Helen has Distract: your standing orders are defend and intercept.")


def test_a_standing_order_is_told_to_its_player_alone():
    s = build("Helen@G5, Gorgo@J10")
    _, s2, events = step(E, s, "helen", Action.parse("reactions distract:always"))
    assert [(e.text, e.to) for e in events] == [
        ("Your standing orders now: defend ask, intercept ask, distract always.", ["helen"])]


def test_a_refused_seed_lists_the_free_hexes_nearest_your_hero_first():
    s = seeded()
    pos = hero(s, "ann").pos
    hint = illegal(s, "ann", "seed to:G4").hint
    listed = re.findall(r"`seed to:([A-M]\d+)`", hint)
    b = E.board
    dists = [b.dist(pos, lab) for lab in listed]
    assert len(listed) == 12 and dists[0] == 1 and dists == sorted(dists) and dists[-1] <= 3


def test_an_attack_with_nobody_next_to_you_says_nobody_is_in_reach():
    s = build("Gorgo@G5, Pegasus@J10")
    assert illegal(s, "gorgo", "push").reason == (
        "Nobody is next to Gorgo (G5) to push: an attack needs an opponent in a neighbouring hex.")
    assert "Nobody is next to Gorgo (G5) to force a fumble from" in illegal(s, "gorgo", "fumble").reason
    s = build("Gorgo@G5, Achilles@G6")
    assert "Achilles is Invulnerable" in illegal(s, "gorgo", "push").reason


# ---- Helen's Distract on the board: the '!' action, the panel's costs, the recap -------------------
def test_the_distract_windows_draw_the_declared_action_and_the_panel_names_distract():
    from render.heroball import cost_lines

    s = build("Gorgo@G5 ball, Helen@G7", orders="helen:distract=ask")
    s, _ = do(s, "gorgo", "step to:G6")
    v = E.view(s, None)
    assert [(m.kind, m.path) for m in v.pending] == [("move", ["G5", "G6"])]
    assert "Helen may distract it" in v.pending[0].text
    acting = next(h for h in v.heroes if h.active)
    assert cost_lines(v, acting)[-1] == "Helen may react with 4 AP: defend 1, intercept 1, distract 1."
    s, _ = do(s, "helen", "react")
    v = E.view(s, None)
    assert [(m.kind, m.path) for m in v.pending] == [("move", ["G5", "G6"])]
    assert "Gorgo may pay more AP or let it fail" in v.pending[0].text


@pytest.mark.parametrize("answer, outcome", [("pay", "paid 1 more AP and carried on"),
                                             ("pass", "let it fail (its AP is lost)")])
def test_since_the_last_turn_lists_the_distraction_and_what_it_cost(answer, outcome):
    s = build("Gorgo@G5 ball, Helen@G7", orders="helen:distract=ask")
    s, _ = do(s, "gorgo", "step to:G6")
    s, _ = do(s, "helen", "react")
    s, _ = do(s, "gorgo", answer)
    s, _ = do(s, "gorgo", "end")
    texts = [m.text for m in E.view(s, None).recent]
    assert f"Helen distracts Gorgo (step to:G6): {outcome}" in texts
