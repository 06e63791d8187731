"""Rules of defeat and progress, loot, debuffs and the basic actions."""
from __future__ import annotations

import pytest
from dhelpers import E, do, legal, monster_at, scene

from games.core import IllegalAction
from games.dungeon import combat, hero_actions, sight, stats, turns
from games.dungeon.board import board
from games.dungeon.state import FloorCard


# ---- wounds and incapacitation -------------------------------------------------------------------
def test_a_hero_whose_wounds_reach_life_is_incapacitated_and_a_heal_brings_them_back(dice):
    st = scene("ruby@B10:w4 candy@C11", "gouger@B9")
    st, _ = do(st, "activate hero:candy")
    dice.push("B2 B2 B2", "B0 B0 B0")
    st, text = do(st, "end")
    assert "Ruby is incapacitated!" in text
    assert stats.is_incap(stats.hero(st, "ruby"))
    # the next turn Candy heals her adjacent friend back onto her feet
    st, _ = do(st, "activate hero:candy")
    dice.push("B0")  # Candy's healer roll
    st, text = do(st, "act action:heal target:ruby")
    assert "Ruby gets back up." in text and not stats.is_incap(stats.hero(st, "ruby"))


def test_when_every_hero_is_incapacitated_at_once_the_heroes_lose(dice):
    st = scene("ruby@B10:w4", "gouger@B9")
    st, _ = do(st, "activate hero:ruby")
    dice.push("B2 B2 B2", "B0 B0 B0")
    st, text = do(st, "end")
    status = E.status(st)
    assert status.finished and status.result.winners == [] and st.result == "defeat"


def test_nine_lives_may_shake_off_an_incapacitating_wound_once_per_level(dice):
    st = scene("nyannyan@B10:w4", "gouger@B9")
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B2 B2 B2", "B0 B0 B0", "R2")
    st, text = do(st, "end")
    assert "Nine lives" in text and stats.hero(st, "nyannyan").wounds == 3
    assert not stats.hero(st, "nyannyan").nine_lives_ready


def test_an_active_hero_struck_down_by_backlash_ends_the_activation(dice):
    st = scene("ruby@B10:w4", "blaze_beetle@C10")
    st, _ = do(st, "activate hero:ruby")
    dice.push("B0 B0", "B0 B0 R1")  # Ruby misses (then keeps), the beetle's armour holds
    st, _ = do(st, "attack target:C10 with:melee")
    st, text = do(st, "keep")
    assert "backlash" in text and st.phase == "over"


# ---- pools -----------------------------------------------------------------------------------------
def test_destroyed_minions_go_to_the_back_of_the_pool(dice):
    st = scene("nyannyan@B10", "gouger@C10", pool=["flinger"])
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B1 B0 B0", "B0")
    st, _ = do(st, "attack target:C10 with:melee")
    assert st.levels[0].pool == ["flinger", "gouger"]


def test_elites_return_only_while_their_boss_is_undefeated_and_bosses_never(dice):
    st = scene("nyannyan@B10", "flinger@C10 rex@C11:w5", pool=[])
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B1 B0 B0")
    st, _ = do(st, "attack target:C10 with:melee")
    assert st.levels[0].pool == ["flinger"]
    dice.push("B2 B2 B2", "R0 R0 B0 B0".replace("R0", "Rh"))
    st, text = do(st, "attack target:C11 with:melee")
    assert "Rex is destroyed" in text and "rex" not in st.levels[0].pool
    assert st.levels[0].boss_defeated


def test_after_the_boss_falls_elites_stay_destroyed(dice):
    st = scene("nyannyan@B10", "flinger@C10")
    st.levels[0].boss_defeated = True
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B1 B0 B0")
    st, _ = do(st, "attack target:C10 with:melee")
    assert st.levels[0].pool == []


def test_a_destroyed_spawn_point_discards_its_pool(dice):
    st = scene("emerald@C5", "gouger@J11", pool=["gouger", "rex"])
    st.levels[0].spawn_wounds = 2
    st, _ = do(st, "activate hero:emerald")
    dice.push("B2 B0 R1")
    st, text = do(st, "attack target:C3 with:ranged")
    assert "spawn point is destroyed" in text and st.levels[0].pool == []
    assert st.level == 0  # the Gouger still stands


# ---- levels -------------------------------------------------------------------------------------------
def test_clearing_a_level_opens_the_next_one_and_restores_the_heroes(dice):
    st = scene("emerald@C5:w3 ruby@B10:w5", pool=["gouger"])
    st.levels[1].pool = ["mook", "skullbat", "mook"]
    stats.hero(st, "emerald").debuffs = ["poison"]
    st.levels[0].spawn_wounds = 2
    st, _ = do(st, "activate hero:emerald")
    dice.push("B2 B0 R1")
    st, text = do(st, "attack target:C3 with:ranged")
    assert "Level 1 is clear!" in text and st.level == 1 and st.phase == "intermission"
    assert all(h.wounds == 0 and not h.debuffs for h in st.heroes)  # incapacitated Ruby too
    assert st.levels[1].chest == "closed"
    sp = board(st.dungeon).spawns[1]
    assert len(st.monsters) >= 2 and all(max(abs(m.x - sp[0]), abs(m.y - sp[1])) <= 2 for m in st.monsters)
    assert E.status(st).to_act == ["ann"]


def test_between_levels_heroes_equip_and_drop_for_free_then_ready(dice):
    st = scene("emerald@C5 ruby@B10/bob", pool=[])
    st.levels[0].spawn_wounds = 2
    st.floor = [FloorCard(card="iron_sword", x=5, y=5)]
    st, _ = do(st, "activate hero:emerald", "ann")
    dice.push("B2 B0 R1")
    st, _ = do(st, "attack target:C3 with:ranged", "ann")
    assert "equip card:iron_sword hero:emerald" in legal(st, "ann")
    st, _ = do(st, "equip card:iron_sword hero:emerald", "ann")
    st, _ = do(st, "ready", "ann")
    assert E.status(st).to_act == ["bob"]
    st, text = do(st, "ready", "bob")
    assert st.phase == "heroes" and st.turn == 2 and "Turn 2 begins." in text
    assert stats.hero_stats(stats.hero(st, "emerald")).dice["str"].dice == ("B", "B", "B")


def test_monsters_roll_an_extra_die_from_level_two_on(dice):
    st = scene("ruby@N10", "knucklehead@N9", level=1)
    st, _ = do(st, "activate hero:ruby")
    dice.rolled.clear()
    st, _ = do(st, "end")
    assert dice.rolled[:4] == ["B", "B", "B", "B"]  # 3B strength plus the level bonus die


def test_clearing_the_fourth_level_wins_the_game(dice):
    st = scene("emerald@D17", level=3)
    st.levels[3].spawn_wounds = 2
    st, _ = do(st, "activate hero:emerald")
    dice.push("B2 B0 R1", "")
    st, text = do(st, "attack target:D20 with:ranged")
    status = E.status(st)
    assert status.finished and status.result.winners == ["ann"] and "heroes win" in text


def test_the_active_spawn_points_aura_helps_its_monsters(dice):
    st = scene("ruby@C6", "gouger@C5")  # inside the Kobold Warren's war drums
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    assert "aura +1" in text


# ---- loot ------------------------------------------------------------------------------------------------
def test_a_minion_drops_loot_only_on_a_blue_star(dice):
    st = scene("nyannyan@B10", "gouger@C10 gouger@B11")
    st.loot_deck = ["iron_sword", "oak_shield"]
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B1 B0 B0", "B0")
    st, _ = do(st, "attack target:C10 with:melee")
    assert st.floor == []
    dice.push("B1 B0 B0", "B1")
    st, text = do(st, "attack target:B11 with:melee")
    assert [f.card for f in st.floor] == ["iron_sword"] and "Iron Sword drops at B11" in text


def test_an_elite_always_drops_loot(dice):
    st = scene("nyannyan@B10", "flinger@C10")
    st.loot_deck = ["quick_boots"]
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B1 B0 B0")
    st, _ = do(st, "attack target:C10 with:melee")
    assert [f.card for f in st.floor] == ["quick_boots"]


def test_a_boss_drops_treasure_after_its_own_cards_are_shuffled_in(dice):
    st = scene("nyannyan@B10", "rex@C10:w5")
    st.treasure_deck = []
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B2 B2 B2", "Rh Rh B0 B0")
    st, text = do(st, "attack target:C10 with:melee")
    assert [f.card for f in st.floor] == ["rex_fang"]


def test_picking_a_chest_lock_gives_treasure_and_smashing_gives_loot(dice):
    st = scene("ruby@J11")
    st.treasure_deck = ["winged_crown"]
    st.loot_deck = ["oak_shield"]
    st, _ = do(st, "activate hero:ruby")
    dice.push("B0 B0 R1", "B1 B0")  # DEX 1 against the lock's 1: it holds
    st, text = do(st, "act action:picklock")
    assert "it holds" in text and st.levels[0].chest == "closed"
    dice.push("B1 B1 R2", "B1 B0")
    st, text = do(st, "act action:picklock")
    assert "it opens" in text and [f.card for f in st.floor] == ["winged_crown"]
    st2 = scene("nyannyan@J11")
    st2.loot_deck = ["oak_shield"]
    st2, _ = do(st2, "activate hero:nyannyan")
    dice.push("B1 B1 B0")
    st2, text = do(st2, "act action:smash")
    assert [f.card for f in st2.floor] == ["oak_shield"] and st2.activation.ap == 1


def test_a_boo_booty_jumps_out_of_a_chest_and_drops_treasure_when_destroyed(dice):
    st = scene("nyannyan@J11")
    st.treasure_deck = ["boo_booty_a", "winged_crown", "crystal_mail"]
    st.levels[0].destroyed = True  # so that nothing else matters
    st.monsters = []
    st, _ = do(st, "activate hero:nyannyan")
    st.levels[0].destroyed = False
    dice.push("R2 R2", "B0 B0")
    st, text = do(st, "act action:picklock")
    assert "Boo Booty!" in text
    booty = monster_at(st, "K11")
    assert booty.kind == "boo_booty" and st.booty_cards == ["winged_crown"]
    for _ in range(2):  # two life
        dice.push("B2 B2 B2", "B0 B0")
        st, text = do(st, "attack target:K11 with:melee")
    assert sorted(f.card for f in st.floor) == ["crystal_mail", "winged_crown"]


def test_a_hero_carries_at_most_four_cards_and_one_treasure():
    st = scene("ruby@B10")
    h = stats.hero(st, "ruby")
    h.equipment = ["iron_sword", "oak_shield", "crystal_mail"]
    st.floor = [FloorCard(card="dragon_blade", x=1, y=9), FloorCard(card="quick_boots", x=1, y=9)]
    st, _ = do(st, "activate hero:ruby")
    actions = legal(st)
    assert "equip card:quick_boots" in actions and "equip card:dragon_blade" not in actions
    st, _ = do(st, "equip card:quick_boots")
    assert not any(a.startswith("equip") for a in legal(st))


def test_card_bonuses_stack_on_the_stat_line():
    st = scene("ruby@B10")
    h = stats.hero(st, "ruby")
    h.equipment = ["iron_sword", "quick_boots", "potion_belt", "heart_locket"]
    s = stats.hero_stats(h)
    assert s.dice["str"].dice == ("B", "B", "B") and s.move == 7 and s.potions == 2 and s.life == 6


def test_card_stars_ap_affinity_attributes_and_immunities_stack_too():
    """Equipment: flat stars add to the stat, the affinity bonus replaces the standard one for a matching hero."""
    st = scene("ruby@B10 candy@C10")
    ruby, candy = stats.hero(st, "ruby"), stats.hero(st, "candy")
    ruby.equipment = ["ruby_pendant", "winged_crown", "fencing_foil"]  # Ruby's affinity is red
    candy.equipment = ["ruby_pendant", "warm_cloak"]
    rs, cs = stats.hero_stats(ruby), stats.hero_stats(candy)
    assert rs.dice["will"].dice == ("B", "B", "B", "R") and rs.dice["will"].stars == 0  # red: +1R, not +1 star
    assert cs.dice["will"].dice == ("B", "B") and cs.dice["will"].stars == 1  # blue Candy: the standard +1 star
    assert rs.ap == 4 and rs.dice["dex"].stars == 1 and "feint" in rs.attributes
    assert {"ice", "slow"} <= cs.immune


def test_equipping_an_immunity_removes_that_debuff_at_once():
    st = scene("candy@K10")
    candy = stats.hero(st, "candy")
    candy.debuffs = ["slow", "poison"]
    st.floor = [FloorCard(card="warm_cloak", x=10, y=9)]
    st, _ = do(st, "activate hero:candy")
    st, text = do(st, "equip card:warm_cloak")
    assert stats.hero(st, "candy").debuffs == ["poison"] and "Warm Cloak frees Candy of slow." in text


def test_loot_on_another_tile_cannot_be_equipped():
    st = scene("ruby@B10")
    st.floor = [FloorCard(card="iron_sword", x=15, y=2)]
    st, _ = do(st, "activate hero:ruby")
    with pytest.raises(IllegalAction):
        do(st, "equip card:iron_sword")


# ---- debuffs ------------------------------------------------------------------------------------------------
def test_poison_takes_one_ap():
    st = scene("ruby@B10")
    stats.hero(st, "ruby").debuffs = ["poison"]
    st, _ = do(st, "activate hero:ruby")
    assert st.activation.ap == 2


def test_slow_halves_movement_rounded_up():
    st = scene("ruby@B10")
    stats.hero(st, "ruby").debuffs = ["slow"]
    st, _ = do(st, "activate hero:ruby")
    assert max(c for c in hero_actions.move_options(st, stats.hero(st, "ruby")).values())[0] == 3


def test_immobile_allows_no_movement_and_knockdown_must_be_stood_up_first():
    st = scene("ruby@B10")
    stats.hero(st, "ruby").debuffs = ["immobile"]
    st, _ = do(st, "activate hero:ruby")
    assert not any(a.startswith("move") for a in legal(st))
    st = scene("ruby@B10", "gouger@C10")
    stats.hero(st, "ruby").debuffs = ["knockdown"]
    st, _ = do(st, "activate hero:ruby")
    assert legal(st) == ["act action:stand", "end"]
    st, _ = do(st, "act action:stand")
    assert st.activation.ap == 2 and "attack target:C10 with:melee" in legal(st)


def test_hex_discards_the_best_offence_die(dice):
    st = scene("nyannyan@B10", "knucklehead@C10")
    stats.hero(st, "nyannyan").debuffs = ["hex"]
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B2 B1 B0")
    st, text = do(st, "attack target:C10 with:melee")
    assert "B2(x)" in text and "no effect" in text


def test_bane_discards_the_best_defence_die(dice):
    st = scene("ruby@B10", "gouger@C10")
    st, _ = do(st, "activate hero:ruby")
    stats.hero(st, "ruby").debuffs = ["bane"]  # gained during this activation, so it lasts
    dice.push("B2 B0 B0", "B2 B1 B0")
    st, text = do(st, "end")
    assert "Ruby takes 1 wound" in text


def test_fire_wounds_at_the_start_of_each_turn():
    st = scene("ruby@B10")
    st, _ = do(st, "activate hero:ruby")
    stats.hero(st, "ruby").debuffs = ["fire"]  # caught fire during this activation
    st, text = do(st, "end")
    assert "Ruby burns." in text and stats.hero(st, "ruby").wounds == 1


def test_ice_forbids_unique_actions():
    st = scene("ruby@B10", "gouger@C10")
    st, _ = do(st, "activate hero:ruby")
    assert any(a.startswith("act action:twin_strike") for a in legal(st))
    st = scene("ruby@B10", "gouger@C10")
    stats.hero(st, "ruby").debuffs = ["ice"]
    st, _ = do(st, "activate hero:ruby")
    assert not any(a.startswith("act action:twin_strike") for a in legal(st))


def test_a_heros_debuffs_wear_off_at_the_end_of_their_next_activation():
    st = scene("ruby@B10")
    stats.hero(st, "ruby").debuffs = ["slow"]
    st, _ = do(st, "activate hero:ruby")
    st, _ = do(st, "end")
    assert stats.hero(st, "ruby").debuffs == []


def test_immune_models_never_gain_that_debuff(dice):
    st = scene("ruby@B10", "mook@C10")
    st, _ = do(st, "activate hero:ruby")
    mook = st.monsters[0]
    combat.give_debuff_monster(mook, "poison", [])
    assert mook.debuffs == []


# ---- basic actions -------------------------------------------------------------------------------------------
def test_a_potion_is_free_once_per_activation_and_mends_two_wounds_and_all_debuffs():
    st = scene("candy@B10:w3")
    stats.hero(st, "candy").debuffs = ["poison"]
    st, _ = do(st, "activate hero:candy")
    st, text = do(st, "potion")
    h = stats.hero(st, "candy")
    assert h.wounds == 1 and h.debuffs == [] and h.potions == 2 and st.activation.ap == 2
    assert "2 wounds healed (now 1/5)" in text  # the message says what was healed and what is left
    assert "potion" not in legal(st)


def test_brewing_a_potion_costs_two_ap(dice):
    st = scene("ruby@B10")
    stats.hero(st, "ruby").potions = 0
    st, _ = do(st, "activate hero:ruby")
    st, _ = do(st, "act action:brew")
    assert stats.hero(st, "ruby").potions == 1 and st.activation.ap == 1


def test_a_shapeshifter_switches_profile_for_one_ap():
    st = scene("kumiko@B10")
    st, _ = do(st, "activate hero:kumiko")
    st, text = do(st, "act action:switch")
    assert "fox form" in text and stats.hero_stats(stats.hero(st, "kumiko")).move == 7 and st.activation.ap == 2


def test_an_area_unique_action_attacks_every_adjacent_enemy(dice):
    st = scene("kumiko@B10", "gouger@C10 gouger@B11")
    st, _ = do(st, "activate hero:kumiko")
    # magic: the Gougers defend with WILL 2B; each destroyed minion rolls a blue die for loot
    dice.push("B2 B1 R1", "B0 B0", "B0", "B2 B1 R1", "B0 B0", "B0")
    st, text = do(st, "act action:fox_fire")
    assert text.count("Gouger is destroyed") == 2


def test_explain_says_why_a_move_is_refused():
    st = scene("ruby@B10 candy@C10")
    st, _ = do(st, "activate hero:ruby")
    with pytest.raises(IllegalAction) as exc:
        do(st, "move to:C10")
    assert exc.value.reason == "C10 is taken by Candy; end your move on an empty square."
    with pytest.raises(IllegalAction) as exc:
        do(st, "move to:B10")
    assert exc.value.reason == "Ruby already stands on B10."
    with pytest.raises(IllegalAction) as exc:
        do(st, "move to:E4")
    assert "structure" in exc.value.reason


def test_explain_names_the_active_hero_and_misplaced_commands():
    st = scene("ruby@B10 candy@C10")
    st, _ = do(st, "activate hero:ruby")
    for text, reason in (("activate hero:candy", "Ruby is still acting: `end` that activation first."),
                         ("ready", "`ready` is for the break between levels."),
                         ("drop card:iron_sword", "Ruby does not carry that card.")):
        with pytest.raises(IllegalAction) as exc:
            do(st, text)
        assert exc.value.reason == reason


def test_explain_says_why_an_action_is_refused():
    st = scene("ruby@B10 candy@C10:w1")
    stats.hero(st, "ruby").debuffs = ["ice"]
    st, _ = do(st, "activate hero:ruby")
    with pytest.raises(IllegalAction) as exc:
        do(st, "act action:twin_strike target:C10")
    assert "iced" in exc.value.reason
    with pytest.raises(IllegalAction) as exc:
        do(st, "act action:picklock")
    assert "chest" in exc.value.reason
    st, text = do(st, "act action:heal target:C10")  # a square with a hero names that hero
    assert "Ruby heals Candy" in text


# ---- advanced attributes of the starter roster ----------------------------------------------------------------
def test_mob_adds_a_blue_die_per_other_mob_model_next_to_the_target(dice):
    st = scene("ruby@B10", "gouger@C10 knucklehead@B11 knucklehead@C11")
    st, _ = do(st, "activate hero:ruby")
    dice.rolled.clear()
    st, text = do(st, "end")
    assert "mob +2B" in text


def test_stalwart_adds_armour_for_each_adjacent_enemy(dice):
    st = scene("jacques@B10", "gouger@C10 gouger@B11")
    st, _ = do(st, "activate hero:jacques")
    st, text = do(st, "end")
    assert "stalwart +2B" in text


def test_stalwart_adds_only_to_armour_rolls_not_to_willpower_against_magic():
    """Stalwart's extra dice are armour dice: a magic attack is resisted with WILL, which gets none."""
    st = scene("jacques@B10", "gouger@C10 sprout@B11")
    jacques, gouger, sprout = stats.hero(st, "jacques"), monster_at(st, "C10"), monster_at(st, "B11")
    lines: list[str] = []
    combat.monster_attack(st, sprout, jacques, lines)  # Sprout's attack is magic
    assert "stalwart" not in lines[-1]
    lines = []
    combat.monster_attack(st, gouger, jacques, lines)  # a melee attack is met with ARM
    assert "stalwart +2B" in lines[-1]


def test_tough_models_heal_a_wound_at_the_start_of_the_turn():
    st = scene("ruby@B10", "bone_head@J2:w0 mother_mycel@I3:w2")
    st, _ = do(st, "activate hero:ruby")
    st, _ = do(st, "end")
    assert next(m for m in st.monsters if m.kind == "mother_mycel").wounds <= 1


def test_a_burning_tough_model_still_heals_at_the_start_of_the_turn():
    """Fire and Tough both act at the start of a game turn: the burn wounds, then Tough mends one."""
    st = scene("ruby@B10", "mother_mycel@I3:w2:dfire")
    lines: list[str] = []
    turns.new_turn(st, lines)
    mycel = next(m for m in st.monsters if m.kind == "mother_mycel")
    assert "Mother Mycel burns." in lines and mycel.wounds == 2 and mycel.debuffs == []


def test_a_ghost_sees_through_walls():
    st = scene("ruby@C8", "consul_shade@C4")
    shade = st.monsters[0]
    assert sight.sees(st, "monsters", stats.mfp(shade), {"ghost"}, ((2, 7),), set())
    assert not sight.sees(st, "monsters", stats.mfp(shade), set(), ((2, 7),), set())


def test_a_hero_with_dodge_defends_with_dex_when_it_is_better(dice):
    st = scene("kumiko@B10", "gouger@C10")
    st, _ = do(st, "activate hero:kumiko")
    st, _ = do(st, "act action:switch")  # fox form: ARM 1B1R, DEX 2R, dodge
    dice.push("B0 B0 B0", "R1 R1")
    st, text = do(st, "end")
    assert "dodge" in text and "R1 R1 = 2" in text


def test_healer_may_heal_an_extra_wound_on_a_blue_star(dice):
    st = scene("candy@B10 ruby@C10:w3")
    st, _ = do(st, "activate hero:candy")
    dice.push("B1")
    st, text = do(st, "act action:heal target:ruby")
    assert stats.hero(st, "ruby").wounds == 1 and "2 wounds removed" in text


def test_alchemist_may_brew_two_potions_on_a_blue_star(dice):
    st = scene("sophia@B10")
    stats.hero(st, "sophia").potions = 0
    st, _ = do(st, "activate hero:sophia")
    dice.push("B2")
    st, _ = do(st, "act action:brew")
    assert stats.hero(st, "sophia").potions == 2


def test_incapacitated_heroes_still_take_wounds_from_an_area_attack(dice):
    st = scene("ruby@M14:w5 candy@M16", "magma_wyrm@N14", level=2)
    st, _ = do(st, "activate hero:candy")
    # reaction: the wyrm attacks Candy (blocked); special: react again (blocked), then the blast
    # (level 3: monsters add a red die) reaction and special react on Candy are blocked, then the blast
    dice.push("B0 B0 Rh Rh Rh", "B2 B2 B2", "B0 B0 Rh Rh Rh", "B2 B2 B2",
              "B2 B2 R2 R2 Rh", "B0 B0 B0",  # the blast on Ruby, who is down
              "B0 B0 Rh Rh Rh", "B2 B2 B2")
    st, text = do(st, "end")
    assert "Magma Wyrm blasts everyone within 2 squares:" in text
    assert stats.hero(st, "ruby").wounds == 6 and "Ruby takes 1 wound" in text


def test_a_boo_booty_runs_away_from_the_heroes():
    st = scene("ruby@H11", "boo_booty@J11")
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    booty = next(m for m in st.monsters if m.kind == "boo_booty")
    assert sight.route(st, stats.mfp(booty), ((7, 10),)) > 2 and "Boo Booty (J11) moves to" in text


def test_a_boss_special_move_may_summon_from_the_pool(dice):
    """Boss special move (data: summon with no kind): the pool's next monster comes through the spawn point."""
    st = scene("ruby@H22", "consul_shade@C16", level=3, pool=["bone_head", "wisp"])
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    special = text[text.index("Consul's Shade's special move:"):]
    assert "Bone Head spawns at" in text and "Wisp spawns at" in special  # the usual spawn, then the summon
    assert st.levels[3].pool == []


def test_mother_mycel_summons_a_mook_next_to_herself_and_heals_her_allies():
    """Boss special move as data: `summon kind:mook near:self`, then `heal targets:allies range:4`."""
    st = scene("ruby@N11", "mother_mycel@T8 sprout@V8:w1", level=1, pool=["skullbat"])
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    special = text[text.index("Mother Mycel's special move:"):]
    mycel = next(m for m in st.monsters if m.kind == "mother_mycel")
    mooks = [m for m in st.monsters if m.kind == "mook"]
    assert "Mook is summoned at" in special and len(mooks) == 1
    assert sight.route(st, stats.mfp(mycel), stats.mfp(mooks[0])) <= 2  # placed as near her as the board allows
    assert st.levels[1].pool == []  # the skullbat spawned normally; the summon did not take from the pool
    assert "Mother Mycel heals Sprout" in special and next(m for m in st.monsters if m.kind == "sprout").wounds == 0


def test_poison_costs_a_boss_one_step_of_its_special_move_and_ice_leaves_only_reactions():
    """Poison is -1 AP (at least 1) and ice forbids unique actions: on a boss they trim its special move."""
    st = scene("ruby@N11", "mother_mycel@T8:dpoison", level=1)
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    special = text[text.index("Mother Mycel's special move"):]
    assert "poison costs it a step" in special and "Mook is summoned" in special
    assert "Mother Mycel (" not in special  # the last step (its extra reaction: "Mother Mycel (S8) ...") is lost
    st = scene("ruby@N11", "mother_mycel@T8:dice", level=1)
    st, _ = do(st, "activate hero:ruby")
    st, text = do(st, "end")
    special = text[text.index("Mother Mycel's special move"):]
    assert "ice leaves only plain reactions" in special and "summoned" not in special
    assert not any(m.kind == "mook" for m in st.monsters)


def test_reroll_or_hearts_outside_an_attack_are_explained():
    st = scene("ruby@B10")
    st, _ = do(st, "activate hero:ruby")
    with pytest.raises(IllegalAction) as exc:
        do(st, "reroll die:1")
    assert "no roll" in exc.value.reason
