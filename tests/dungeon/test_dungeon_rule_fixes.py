"""The rule deviations of issue 16, each fixed and pinned by a test named after the rule it restores."""
from __future__ import annotations

import pytest
from dhelpers import E, do, legal, scene, sq

from games.core import IllegalAction, Seat
from games.dungeon import bosses, combat, levels, monsters, sight, stats, turns
from games.dungeon.board import board
from games.dungeon.commands import OPTIONS


# ---- deviation 2: AP spent means nothing else, free actions included -----------------------------
def test_rule_ap_once_used_up_the_hero_may_do_nothing_else_not_even_a_potion_or_a_drop():
    st = scene("ruby@B10:w2")
    stats.hero(st, "ruby").equipment = ["fencing_foil"]
    st, _ = do(st, "activate hero:ruby")
    assert "potion" in legal(st) and "drop card:fencing_foil" in legal(st)
    st.activation.ap = 0
    assert [a for a in legal(st) if not a.startswith("move")] == ["end"]
    for text in ("potion", "drop card:fencing_foil"):
        with pytest.raises(IllegalAction) as exc:
            do(st, text)
        assert "used up every AP" in exc.value.reason


# ---- deviation 3: a shooter in range attacks; it does not back away --------------------------------
def test_rule_attack_range_a_shooter_next_to_its_target_attacks_instead_of_backing_away():
    st = scene("ruby@H11", "flinger@H10")
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    assert "Flinger (H10) attacks Ruby" in text and "keeps its distance" not in text
    assert (st.monsters[0].x, st.monsters[0].y) == sq("H10")


def test_rule_attack_range_a_shooter_moves_towards_its_target_and_stops_once_in_range():
    st = scene("ruby@B11", "sprout@J11")  # the Sprout's magic reaches 4
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    s = next(m for m in st.monsters if m.kind == "sprout")
    d = sight.route(st, stats.mfp(s), stats.hfp(stats.hero(st, "ruby")))
    assert d == 4, text  # the first square in range on its way, not a square further from the target


# ---- deviation 4: no turn limit unless the host sets one -------------------------------------------
def test_rule_game_end_has_no_turn_limit_by_default():
    st = scene("ruby@B10")
    assert st.turn_limit == 0
    st.turn = 500
    lines: list[str] = []
    turns.new_turn(st, lines)
    assert st.phase == "heroes" and st.result == "" and "Turn 501 begins." in lines


def test_rule_game_end_a_turn_limit_is_a_host_option_off_by_default_and_announced():
    spec = next(o for o in OPTIONS if o.name == "turn_limit")
    assert spec.default is None and spec.kind == "int"
    st = E.setup({"turn_limit": "3"}, [Seat(player="ann", name="Ann", choices={"hero": "ruby"})], 1)
    assert st.turn_limit == 3 and E.summary(st)["turn_limit"] == 3
    assert E.view(st, None).turn_limit == 3  # the panel reads "Turn 1 of 3 (limit)"
    lines: list[str] = []
    turns.new_turn(st, lines)
    assert "Turn 2 of 3 begins (the host's turn limit)." in lines
    st.turn = 3
    turns.new_turn(st, lines)
    assert st.phase == "over" and st.result == "defeat" and "host's turn limit" in st.result_text
    with pytest.raises(IllegalAction):
        E.check_options({"turn_limit": "soon"})


# ---- deviation 5: a boss's special move does not carry its debuff attributes ------------------------
def test_rule_fire_attribute_rides_only_on_basic_offence_actions_not_a_bosss_blast(dice):
    st = scene("ruby@N14", "magma_wyrm@N15")  # Magma Wyrm has Fire; its special move blasts
    wyrm = st.monsters[0]
    dice.push("B2 B2 R3 R3", "B0 B0 B0")
    lines: list[str] = []
    bosses.blast(st, wyrm, 2, lines)
    text = "\n".join(lines)
    assert "hit" in text and "fire" not in stats.hero(st, "ruby").debuffs
    dice.push("B2 B2 R3 R3", "B0 B0 B0")
    lines = []
    combat.monster_attack(st, wyrm, stats.hero(st, "ruby"), lines)  # a basic melee attack
    assert "Ruby suffers fire." in "\n".join(lines)


# ---- deviation 7: heroes in the way block the spawn point's sight ------------------------------------
def test_rule_spawning_needs_line_of_sight_from_the_spawn_point_which_standing_heroes_block():
    # the spawn point is C3; Ruby (B3) and Von Wilding (C2) close its west and north sides, so A1 - the nearest
    # square out of danger, which a check of walls and structures alone picked - is hidden from it
    st = scene("ruby@B3 candy@E3 emerald@F1 vonwilding@C2", pool=["gouger"])
    spawn = board(st.dungeon).spawns[0]
    assert not sight.sees(st, "monsters", (spawn,), set(), (sq("A1"),), set())
    lines: list[str] = []
    assert levels.spawn_one(st, 0, lines)
    g = st.monsters[0]
    assert (g.x, g.y) != sq("A1")
    assert sight.sees(st, "monsters", (spawn,), set(), stats.mfp(g), set()), lines


# ---- deviation 8: Fly does not spare a model from lava --------------------------------------------
def test_rule_lava_sets_a_flier_on_fire_fly_spares_only_difficult_terrain():
    st = scene("ruby@B10", "skullbat@N14")
    bat = st.monsters[0]
    lines: list[str] = []
    monsters.place_monster(st, bat, sq("P15"), (sq("O15"), sq("P15")), lines)  # O15 and P15 are lava
    assert "fire" in bat.debuffs and "Skullbat suffers fire." in lines
    assert combat.terrain_debuff("lava", {"fly"}) == "fire"
    assert combat.terrain_debuff("brambles", {"fly"}) is None  # brambles are difficult terrain: Fly ignores them
    assert combat.terrain_debuff("brambles", set()) == "poison"
