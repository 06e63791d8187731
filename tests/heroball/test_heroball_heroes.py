"""Every hero card's effect (the quickstart's cards plus our house Perseus)."""
from __future__ import annotations

from hb_helpers import build, do, hero, illegal, legal, to_act

from games.core import Action
from games.heroball import ENGINE as E
from games.heroball.board import board
from games.heroball.data import rules
from games.heroball.view import card_states

B = board()


def test_every_card_in_the_data_has_a_test_here():
    import inspect
    import sys

    src = inspect.getsource(sys.modules[__name__])
    for h in rules().heroes:
        for c in h.cards:
            assert f"def test_{c.id}_" in src, f"no test for {h.name}'s {c.name}"


# ---- Gorgo ----------------------------------------------------------------------------------
def test_pummel_knocks_an_adjacent_hero_down_and_their_object_is_fumbled():
    s = build("Gorgo@G5, Calypso@G6 ball, Pegasus@H7", orders="calypso:defend=never pegasus:intercept=never")
    assert "hero action:pummel place:G7 target:Calypso" in legal(s, "gorgo")
    s, ev = do(s, "gorgo", "hero action:pummel target:Calypso place:G7")
    c = hero(s, "calypso")
    assert c.down and c.holding is None and s.objects["ball"].at == "G7" and hero(s, "gorgo").ap == 3
    # knocked-down heroes are not pummelled again
    assert not any("target:Calypso" in a for a in legal(s, "gorgo", "hero"))


def test_pummel_can_be_defended():
    s = build("Gorgo@G5, Calypso@G6 ap=2")
    s, _ = do(s, "gorgo", "hero action:pummel target:Calypso")
    s, _ = do(s, "calypso", "react")
    assert not hero(s, "calypso").down and hero(s, "gorgo").ap == 3


def test_predict_lets_gorgo_move_1_hex_from_2_away_and_catch():
    # Calypso throws from G6 to G8; Gorgo on I9 is 2 away and may move to H8 (next to G8) and catch.
    s = build("Calypso@G6 ball, Gorgo@I9 ap=3")
    s, _ = do(s, "calypso", "throw to:G8")
    opts = legal(s, "gorgo", "react")
    assert "react to:H8" in opts and all(B.dist(o.split(":")[1], "G8") <= 1 for o in opts)
    s, ev = do(s, "gorgo", "react to:H8")
    g = hero(s, "gorgo")
    assert g.pos == "H8" and g.holding == "ball" and g.ap == 2


def test_predict_comes_after_every_ordinary_interceptor():
    # Pegasus (adjacent to G8) is asked before Gorgo even though Gorgo is nearer the thrower.
    s = build("Calypso@G6 ball, Gorgo@E7 ap=3, Pegasus@H8")
    assert B.dist("E7", "G8") == 2 and B.dist("E7", "G6") < B.dist("H8", "G6")
    s, _ = do(s, "calypso", "throw to:G8")
    assert s.window.queue == ["pegasus", "gorgo"]
    s, _ = do(s, "pegasus", "react")
    assert hero(s, "gorgo").pos == "E7" and s.window is None


# ---- Calypso --------------------------------------------------------------------------------
def test_sing_makes_heroes_within_2_pay_1_more_to_move_away_until_her_next_turn():
    s = build("Calypso@G7, Gorgo@H8 ap=5")
    s, _ = do(s, "calypso", "hero action:sing")
    assert hero(s, "calypso").ap == 3 and hero(s, "calypso").field == ["sing"]
    s, _ = do(s, "calypso", "end")
    s1, _ = do(s, "gorgo", "step to:I9")  # away: 1 + 1
    assert hero(s1, "gorgo").ap == 3
    s2, _ = do(s, "gorgo", "step to:H7")  # towards: normal
    assert hero(s2, "gorgo").ap == 4
    s, _ = do(s2, "gorgo", "end")
    # back on Calypso's turn: Sing returns to the unique slot, spent
    assert hero(s, "calypso").field == [] and "unique" in hero(s, "calypso").spent
    assert "hero action:sing" not in legal(s, "calypso")


def test_the_area_of_calypsos_sing_is_in_the_view_and_ringed_on_the_board():
    """Issue 18: while Sing is in the field, the view lists the hexes within its range of Calypso and the image
    rings them in her colour (with a line in the key); once it leaves the field, neither."""
    from render.heroball import render
    s = build("Calypso@G7, Gorgo@H8 ap=5")
    quiet = render(E.view(s, None))
    s, _ = do(s, "calypso", "hero action:sing")
    v = E.view(s, None)
    assert set(v.songs) == {"calypso"} and {"G7", "H8"} <= set(v.songs["calypso"])
    assert all(B.dist(lab, "G7") <= 2 for lab in v.songs["calypso"]) and "G10" not in v.songs["calypso"]
    assert render(v) != quiet
    s, _ = do(s, "calypso", "end")
    s, _ = do(s, "gorgo", "end")
    assert not E.view(s, None).songs


def test_shifting_land_sprint_then_slide_favoured_terrain_and_move_whatever_stands_there():
    # Calypso's god Zeus favours mountain. She sprints onto mountain G8, then slides it onto G9 where Gorgo stands.
    s = build("Calypso@G6 ap=5 spent=step+run, Gorgo@G9", terrain="G8=mountain")
    s.heroes[0].pos = "G7"
    s, _ = do(s, "calypso", "sprint to:G8")
    assert hero(s, "calypso").ap == 4  # 2 - 1 favoured
    opts = legal(s, "calypso", "hero")
    assert "hero action:shift place:H9 to:G9" in opts and "hero action:shift to:H8" in opts
    s, ev = do(s, "calypso", "hero action:shift to:G9 place:H9")
    assert s.terrain == {"G9": "mountain"} and hero(s, "gorgo").pos == "H9" and hero(s, "calypso").ap == 3
    assert not any("shift" in a for a in legal(s, "calypso"))  # no favoured terrain underfoot any more


def test_shifting_land_needs_the_sprint_and_favoured_terrain_underfoot():
    s = build("Calypso@G8 ap=5, Gorgo@A10", terrain="G8=mountain")
    assert not any("shift" in a for a in legal(s, "calypso"))


# ---- Pegasus --------------------------------------------------------------------------------
def test_kick_throws_a_loose_object_from_his_hex_or_next_to_it_up_to_2_from_him():
    s = build("Pegasus@G6, Gorgo@A10", ball="G7")
    kicks = legal(s, "pegasus", "throw")
    assert kicks and all(B.dist(a.split("to:")[1], "G6") <= 2 for a in kicks)
    s, _ = do(s, "pegasus", "throw to:G8")  # obj:ball filled in: the only loose object
    assert s.objects["ball"].at == "G8" and hero(s, "pegasus").ap == 3
    s = build("Pegasus@G6 ball, Gorgo@A10")
    assert legal(s, "pegasus", "throw") == []  # a held object is not kicked: drop it first


def test_fly_ignores_terrain_cost_for_the_turn_then_turns_to_feed():
    s = build("Pegasus@G6 ap=5, Gorgo@A10", terrain="G7=water")
    s, _ = do(s, "pegasus", "hero action:fly")
    assert hero(s, "pegasus").ap == 5 and "fly" in hero(s, "pegasus").flipped
    s, _ = do(s, "pegasus", "step to:G7")
    assert hero(s, "pegasus").ap == 4
    assert "hero action:fly" not in legal(s, "pegasus")


def test_fly_also_drops_the_favoured_terrain_discount_and_its_button_says_so():
    # the card ignores every hex cost; on favoured terrain that cost is -1, so Fly makes it +0 there too
    s = build("Pegasus@G5, Gorgo@J10", gods=["Ares", "Zeus"], terrain="G6=forest")
    assert E.label(s, Action.parse("step to:G6")) == "Step → G6 (free)"
    assert E.label(s, Action.parse("hero action:fly")) == "Fly (free; all terrain +0, favoured too)"
    s, _ = do(s, "pegasus", "hero action:fly")
    assert E.label(s, Action.parse("step to:G6")) == "Step → G6 (1 AP)"


def test_feed_is_shown_on_the_sprint_slot_and_trample_under_it_is_a_plain_sprint():
    s = build("Pegasus@G6 flip=fly, Gorgo@A10")
    assert card_states(E, hero(s, "pegasus")) == [
        "throw: Kick", "sprint: Feed (flipped)", "sprint: Trample (under Feed: a plain sprint)"]


def test_feed_resting_on_astral_turf_turns_fly_back():
    s = build("Pegasus@G6 ap=3 flip=fly, Gorgo@A10", terrain="G6=astral-turf")
    s, ev = do(s, "pegasus", "end")
    assert "fly" not in hero(s, "pegasus").flipped and any("Fly is back" in e for e in ev)


def test_trample_after_step_and_run_the_sprint_knocks_down_one_adjacent_hero():
    s = build("Pegasus@G5 ap=5 spent=step+run, Gorgo@G7 ball, Calypso@F6",
              orders="gorgo:defend=never calypso:intercept=never")
    opts = legal(s, "pegasus", "sprint")
    assert any("target:Gorgo" in a for a in opts) and any("target:Calypso" in a for a in opts)
    assert not any(a == "sprint to:G6" for a in opts)  # someone adjacent: one must be knocked down
    s, _ = do(s, "pegasus", "sprint to:G6 target:Gorgo place:H7")
    assert hero(s, "gorgo").down and s.objects["ball"].at == "H7" and not hero(s, "calypso").down
    assert hero(s, "pegasus").ap == 3


def test_trample_is_replaced_by_a_plain_sprint_while_feed_covers_the_slot():
    s = build("Pegasus@G5 ap=5 spent=step+run flip=fly, Gorgo@G7")
    assert "sprint to:G6" in legal(s, "pegasus", "sprint")


# ---- Herakles -------------------------------------------------------------------------------
def test_redecorate_lifts_adjacent_terrain_then_sets_it_on_a_free_bare_hex():
    s = build("Herakles@G5 ap=3, Gorgo@A10", terrain="G6=forest")
    s, _ = do(s, "herakles", "hero action:redecorate to:G6")
    h = hero(s, "herakles")
    assert s.terrain == {} and h.tile == "forest" and "redecorate" in h.flipped and h.ap == 2
    assert "hero action:set to:A10" not in legal(s, "herakles") and "hero action:set to:G4" not in legal(s, "herakles")
    s, _ = do(s, "herakles", "hero action:set to:C3")
    assert s.terrain == {"C3": "forest"} and hero(s, "herakles").tile is None and hero(s, "herakles").ap == 1


def test_swat_bats_an_object_landing_next_to_him_up_to_2_hexes_on():
    s = build("Gorgo@G6 ball, Herakles@H8, Calypso@A10")
    s, _ = do(s, "gorgo", "throw to:G8")
    swats = legal(s, "herakles", "react")
    assert "react" not in swats and all(1 <= B.dist(a.split(":")[1], "G8") <= 2 for a in swats)
    assert "react to:G10" not in swats  # never onto a pillar
    s, ev = do(s, "herakles", "react to:E8")
    assert s.objects["ball"].at == "E8" and hero(s, "herakles").ap == 3 and s.window is None


def test_swat_window_asks_herakles_to_swat_not_to_catch():
    """Swat takes the place of an ordinary catch, so the waiting line offers him a swat; standing on the
    landing hex he may also just take the object."""
    s = build("Gorgo@G6 ball, Herakles@H8, Calypso@A10")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert E.status(s).waiting_for == "Herakles to swat the Godball coming down on G8 or pass"
    s = build("Gorgo@G6 ball, Herakles@G8, Calypso@A10")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert E.status(s).waiting_for == "Herakles to take or swat the Godball coming down on G8 or pass"
    assert "react" in legal(s, "herakles", "react")


def test_swat_opens_a_new_intercept_for_others_but_not_for_herakles():
    s = build("Gorgo@G6 ball, Herakles@H8, Calypso@F10")
    s, _ = do(s, "gorgo", "throw to:G8")
    s, _ = do(s, "herakles", "react to:G9")
    assert B.dist("F10", "G9") > 1 and B.dist("H8", "G9") == 1
    assert s.window is None
    s = build("Gorgo@G6 ball, Herakles@H8, Calypso@F9")
    s, _ = do(s, "gorgo", "throw to:G8")
    s, _ = do(s, "herakles", "react to:G9")
    assert to_act(s) == ["calypso"]
    s, _ = do(s, "calypso", "react")
    assert hero(s, "calypso").holding == "ball"


# ---- Helen ----------------------------------------------------------------------------------
def test_lacrosse_stick_catches_from_2_hexes_away():
    s = build("Gorgo@G6 ball, Helen@G10")
    s, _ = do(s, "gorgo", "throw to:G8")
    assert to_act(s) == ["helen"]
    s, _ = do(s, "helen", "react")
    assert hero(s, "helen").holding == "ball" and hero(s, "helen").ap == 3 and hero(s, "helen").pos == "G10"


def test_distract_makes_an_acting_hero_within_2_pay_1_more_or_lose_the_action():
    s = build("Gorgo@G6 ap=4 ball, Helen@G8 ap=2", orders="helen:distract=ask")  # carrying: Helen is asked
    s, _ = do(s, "gorgo", "step to:G5")
    assert E.status(s).phase == "distract" and to_act(s) == ["helen"]
    s, ev = do(s, "helen", "react")
    assert hero(s, "helen").ap == 1 and "distract" in hero(s, "helen").flipped
    assert to_act(s) == ["gorgo"] and sorted(legal(s, "gorgo", "pay") + legal(s, "gorgo", "pass")) == ["pass", "pay"]
    s_pay, _ = do(s, "gorgo", "pay")
    assert hero(s_pay, "gorgo").pos == "G5" and hero(s_pay, "gorgo").ap == 2
    s_fail, _ = do(s, "gorgo", "pass")
    g = hero(s_fail, "gorgo")
    assert g.pos == "G6" and g.ap == 3 and "step" not in g.spent  # the AP is gone, the step may be tried again
    assert "step to:G5" in legal(s_fail, "gorgo")


def test_distract_is_one_use_until_study_opponent_turns_it_back():
    s = build("Helen@G8 ap=3 flip=distract, Gorgo@G6")
    assert "hero action:study" in legal(s, "helen")
    s, _ = do(s, "helen", "hero action:study")
    assert "distract" not in hero(s, "helen").flipped and hero(s, "helen").ap == 2


def test_helen_passing_on_distract_lets_the_action_happen():
    s = build("Gorgo@G6 ap=4 ball, Helen@G8 ap=2", orders="helen:distract=ask")
    s, _ = do(s, "gorgo", "step to:G5")
    s, _ = do(s, "helen", "pass")
    assert hero(s, "gorgo").pos == "G5" and hero(s, "helen").ap == 2


def test_distract_ask_asks_helen_only_when_it_can_matter_always_distracts_every_action():
    """Distract (house reading of the standing order `ask`): a plain step of an empty-handed hero who can pay
    the extra AP opens no window; a throw, a carrier's move or an actor who cannot pay does; `always` asks
    nothing and distracts every action in range."""
    s = build("Gorgo@G6 ap=4, Helen@G8 ap=2", orders="helen:distract=ask")
    s2, _ = do(s, "gorgo", "step to:G5")
    assert s2.window is None and hero(s2, "gorgo").pos == "G5"
    s3, ev = do(build("Gorgo@G6 ap=1, Helen@G8 ap=2", orders="helen:distract=ask"), "gorgo", "step to:G5")
    assert E.status(s3).phase == "distract"  # 0 AP left after the step: a distraction would make it fail
    assert any("/heroball reactions distract:always" in e for e in ev)
    s3, ev = do(s3, "helen", "react")  # Gorgo cannot pay: nothing to choose, the step fails at once
    assert s3.window is None and hero(s3, "gorgo").pos == "G6" and to_act(s3) == ["gorgo"]
    assert "cannot pay" in ev[-1] and "fails" in ev[-1]
    s4, _ = do(build("Gorgo@G6 ap=4 ball, Helen@G8 ap=2", orders="helen:distract=ask"), "gorgo", "throw to:F5")
    assert E.status(s4).phase == "distract"
    s5, _ = do(build("Gorgo@G6 ap=4, Helen@G8 ap=2", orders="helen:distract=always"), "gorgo", "step to:G5")
    assert E.status(s5).phase == "distracted" and to_act(s5) == ["gorgo"]


# ---- Achilles -------------------------------------------------------------------------------
def test_invulnerable_achilles_cannot_be_targeted_and_flips_at_each_refresh():
    s = build("Gorgo@G5, Achilles@G6 ball")
    assert legal(s, "gorgo", "push") == [] and legal(s, "gorgo", "fumble") == []
    assert "Invulnerable" in illegal(s, "gorgo", "push target:Achilles to:G7").reason
    s, _ = do(s, "gorgo", "end")
    assert "invulnerable" in hero(s, "achilles").flipped  # his refresh turned it to Vulnerable


def test_vulnerable_achilles_can_be_attacked_and_cannot_defend():
    s = build("Gorgo@G5, Achilles@G6 ap=4 flip=invulnerable", orders="achilles:defend=always")
    s, _ = do(s, "gorgo", "push target:Achilles to:G7")
    assert hero(s, "achilles").pos == "G7" and hero(s, "achilles").ap == 4 and s.window is None


def test_pole_vault_after_a_run_drop_the_pole_and_vault_up_to_2_hexes_over_heroes():
    s = build("Achilles@G5 pole ap=5, Gorgo@G7, Calypso@A10")
    s.heroes[0].spent = ["step"]
    assert not any("vault" in a for a in legal(s, "achilles"))
    s, _ = do(s, "achilles", "run to:G6")
    assert "hero action:vault to:G8" in legal(s, "achilles")  # over Gorgo on G7
    s, ev = do(s, "achilles", "hero action:vault to:G8")
    a = hero(s, "achilles")
    assert a.pos == "G8" and a.holding is None and s.objects["pole"].at == "G6" and a.ap == 4


def test_pole_vault_must_follow_the_run_immediately():
    s = build("Achilles@G5 pole ap=5 spent=step, Gorgo@A10")
    s, _ = do(s, "achilles", "run to:G6")
    s, _ = do(s, "achilles", "drop to:G6")
    s, _ = do(s, "achilles", "hold obj:pole")
    assert not any("vault" in a for a in legal(s, "achilles"))


def test_the_pole_can_be_handled_by_others_but_only_achilles_vaults():
    s = build("Gorgo@G6, Achilles@A10", ball="A4")
    s.objects["pole"] = s.objects["ball"].model_copy(update={"at": "G6"})
    s, _ = do(s, "gorgo", "hold obj:pole")
    s, _ = do(s, "gorgo", "step to:G5")
    s, _ = do(s, "gorgo", "run to:H5")
    assert not any("vault" in a for a in legal(s, "gorgo"))
    assert legal(s, "gorgo", "throw")


# ---- Perseus (house) -------------------------------------------------------------------------
def test_sandals_fly_2_hexes_straight_over_a_hero_then_spent():
    s = build("Perseus@G5 ap=3, Gorgo@G6")
    assert "hero action:sandals to:G7" in legal(s, "perseus")
    assert not any(a.endswith("to:G3") for a in legal(s, "perseus", "hero"))  # over the pillar on G4
    s, _ = do(s, "perseus", "hero action:sandals to:G7")
    assert hero(s, "perseus").pos == "G7" and hero(s, "perseus").ap == 2
    assert not any("sandals" in a for a in legal(s, "perseus"))


def test_mirror_shield_a_defended_push_throws_the_pusher_back():
    s = build("Gorgo@G6, Perseus@G7 ap=2", orders="perseus:defend=always")
    s, ev = do(s, "gorgo", "push target:Perseus to:G8")
    assert hero(s, "perseus").pos == "G7" and hero(s, "gorgo").pos == "G5" and hero(s, "perseus").ap == 1


# ---- Sing against the other heroes' own movement ----------------------------------------------
def _sung(s):
    hero(s, "calypso").field = ["sing"]  # she sang on her last turn; the card lies in the field
    return s


def test_sing_also_charges_gorgos_predict_move_away_from_calypso():
    """Predict costs 1 AP + hex cost; Calypso's song adds 1 to that hex cost when the move goes away from her."""
    def throw(gorgo_ap):
        s = _sung(build(f"Calypso@G8, Helen@C5 ball, Gorgo@G6 ap={gorgo_ap}", active=1))
        s, _ = do(s, "helen", "throw to:E6")
        return s
    assert B.dist("F6", "G8") == B.dist("G6", "G8") == 2 and B.dist("F5", "G8") == 3
    s = throw(1)
    assert legal(s, "gorgo", "react") == ["react to:F6"]  # F5 would move away: 1 + 1 AP, too dear
    s2, _ = do(s, "gorgo", "react to:F6")
    assert hero(s2, "gorgo").ap == 0 and hero(s2, "gorgo").holding == "ball"
    s = throw(2)
    assert "react to:F5" in legal(s, "gorgo", "react")
    s, _ = do(s, "gorgo", "react to:F5")
    assert hero(s, "gorgo").pos == "F5" and hero(s, "gorgo").ap == 0
    # without the song the same move costs only the intercept
    s = build("Calypso@G8, Helen@C5 ball, Gorgo@G6 ap=1", active=1)
    s, _ = do(s, "helen", "throw to:E6")
    assert "react to:F5" in legal(s, "gorgo", "react")


def test_sing_also_charges_a_pole_vault_away_from_calypso():
    """Pole Vault itself is free, but vaulting away from a singing Calypso costs her extra 1 AP."""
    s = _sung(build("Calypso@G8, Achilles@G6 pole ap=1 spent=step", active=1))
    s, _ = do(s, "achilles", "run to:H6")  # H6 is as far from Calypso as G6: no extra
    a = hero(s, "achilles")
    assert a.ap == 0 and B.dist("H4", "G8") > B.dist("H6", "G8") >= B.dist("I8", "G8")
    vaults = legal(s, "achilles", "hero")
    assert "hero action:vault to:I8" in vaults and "hero action:vault to:H4" not in vaults
    assert "costs 1 AP; you have 0" in illegal(s, "achilles", "hero action:vault to:H4").reason
    s = _sung(build("Calypso@G8, Achilles@G6 pole ap=2 spent=step", active=1))
    s, _ = do(s, "achilles", "run to:H6")
    s, _ = do(s, "achilles", "hero action:vault to:H4")
    assert hero(s, "achilles").pos == "H4" and hero(s, "achilles").ap == 0


# ---- intercept cards work on thrown or dropped objects, not fumbled ones ------------------------------
NO_DEFENCE = "pegasus:defend=never"  # Pegasus lets the forced fumble happen without a defend window
FUMBLE = "fumble target:Pegasus to:H6"
def test_lacrosse_stick_catches_a_thrown_object_2_away_but_not_a_fumbled_one():
    """Lacrosse Stick (Helen): 'a thrown or dropped object' within 2 hexes; a fumble is neither."""
    assert B.dist("I8", "H6") == 2
    thrown, _ = do(build("Calypso@G5 ball, Pegasus@A10, Helen@I8 ap=3"), "calypso", "throw to:H6")
    assert legal(thrown, "helen", "react") == ["react"]
    fumbled, _ = do(build("Calypso@G5, Pegasus@G6 ball, Helen@I8 ap=3", orders=NO_DEFENCE), "calypso", FUMBLE)
    assert fumbled.window is None and fumbled.objects["ball"].at == "H6"  # nobody may catch it: it lands


def test_swat_bats_on_a_thrown_object_but_a_fumbled_one_is_only_caught_the_ordinary_way():
    """Swat (Herakles): 'a thrown or dropped object'; next to a fumbled object he may only catch it."""
    fumbled, _ = do(build("Calypso@G5, Pegasus@G6 ball, Herakles@H7 ap=3", orders=NO_DEFENCE), "calypso", FUMBLE)
    assert legal(fumbled, "herakles", "react") == ["react"]  # an ordinary catch, no `react to:` swats
    fumbled, _ = do(fumbled, "herakles", "react")
    assert hero(fumbled, "herakles").holding == "ball" and hero(fumbled, "herakles").ap == 2


def test_predict_moves_gorgo_to_a_thrown_object_but_not_to_a_fumbled_one():
    """Predict (Gorgo): 'after an object is thrown or dropped'; a fumble 2 hexes away is out of her reach."""
    thrown, _ = do(build("Calypso@G5 ball, Gorgo@I8 ap=3"), "calypso", "throw to:H6")
    assert legal(thrown, "gorgo", "react")  # she may move 1 hex and catch
    fumbled, _ = do(build("Calypso@G5, Pegasus@G6 ball, Gorgo@I8 ap=3", orders=NO_DEFENCE), "calypso", FUMBLE)
    assert fumbled.window is None


def test_predict_costs_1_ap_plus_hex_cost_with_the_favoured_terrain_discount():
    """Predict: '1 AP + Hex Cost'; on the hero's favoured terrain the hex costs -1, as for Winged Sandals."""
    # Gorgo sits in seat 2, so her god is Poseidon (water); H8 is next to the landing hex G8
    s = build("Calypso@G6 ball, Gorgo@I9 ap=3", terrain="H8=water")
    s, _ = do(s, "calypso", "throw to:G8")
    s, _ = do(s, "gorgo", "react to:H8")
    assert hero(s, "gorgo").pos == "H8" and hero(s, "gorgo").ap == 3  # 1 AP - 1 for favoured terrain
    s = build("Calypso@G6 ball, Gorgo@I9 ap=3", terrain="H8=forest")
    s, _ = do(s, "calypso", "throw to:G8")
    s, _ = do(s, "gorgo", "react to:H8")
    assert hero(s, "gorgo").ap == 1  # 1 AP + 1 for other terrain
