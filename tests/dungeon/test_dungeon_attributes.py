"""One test per advanced attribute added for issue 16 (SDE-S "Advanced Model Attributes"), and a test over the data."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from dhelpers import do, legal, monster_at, scene, sq

from games.core import IllegalAction
from games.dungeon import combat, levels, monsters, stats
from games.dungeon import data as ddata


def attack(st, monster_square, hero_id):
    lines: list[str] = []
    combat.monster_attack(st, monster_at(st, monster_square), stats.hero(st, hero_id), lines)
    return "\n".join(lines)


def test_rule_blood_scent_a_monster_adds_two_against_an_adjacent_wounded_target(dice):
    st = scene("ruby@B10:w1", "drake_hound@C10")
    dice.push("B0 B0 R1", "B0 B0 B0")
    text = attack(st, "C10", "ruby")
    assert "blood scent +2" in text and "= 3 vs" in text


def test_rule_pile_on_adds_a_blue_die_against_a_knocked_down_adjacent_target(dice):
    st = scene("ruby@B10", "hatchlings@C10")
    stats.hero(st, "ruby").debuffs = ["knockdown"]
    dice.push("B0 B0 B2", "B0 B0 B0")  # 2B and the pile-on die
    text = attack(st, "C10", "ruby")
    assert "pile-on +1B" in text and "hit" in text


def test_rule_virulent_adds_a_blue_die_against_a_poisoned_target(dice):
    st = scene("ruby@B10", "swampie@C10")
    stats.hero(st, "ruby").debuffs = ["poison"]
    dice.push("B0 B0 B1", "B0 B0 B0")
    text = attack(st, "C10", "ruby")
    assert "virulent +1B" in text and "hit" in text


def test_rule_savage_a_friend_next_to_a_savage_model_adds_one_to_str_offence(dice):
    st = scene("ruby@B10", "gouger@C10 crusher@D10")
    dice.push("B0 B0 B0", "B0 B0 B0")
    text = attack(st, "C10", "ruby")
    assert "savage +1" in text and "hit" in text


def test_rule_dawn_of_the_dead_undead_within_three_add_one_to_melee(dice):
    st = scene("ruby@B10", "bone_head@C10 shamble_priest@E10")
    dice.push("B0 B0 R1", "B0 B0 B0")
    text = attack(st, "C10", "ruby")
    assert "dawn of the dead +1" in text and "= 2 vs" in text


def test_rule_dragon_rage_kobolds_within_three_add_one_to_str(dice):
    st = scene("ruby@B10", "knucklehead@C10 claw_trainer@E10")
    dice.push("B0 B0 B0", "B0 B0 B0")
    text = attack(st, "C10", "ruby")
    assert "dragon rage +1" in text


def test_rule_packmaster_gives_drakes_nearby_the_mob_attribute(dice):
    st = scene("ruby@B10", "drake_hound@C10 drake_hound@C11 claw_trainer@E10")
    dice.push("B0 B0 R1 B0", "B0 B0 B0")  # 2B1R and one mob die for the other (now mobbing) hound
    text = attack(st, "C10", "ruby")
    assert "mob +1B" in text and "dragon rage +1" in text


def test_rule_stealth_an_attacker_loses_one_per_square_beyond_three(dice):
    st = scene("emerald@B10", "prowler@G10")
    st, _ = do(st, "activate hero:emerald")
    dice.push("B2 B2 R3")  # 7 - 2 for the two squares beyond 3; the Prowler has no armour dice
    st, text = do(st, "attack target:G10 with:ranged")
    if st.attack is not None:  # Emerald's Beast Hunter offers a reroll against the Prowler (a Beast)
        st, text = do(st, "keep")
    assert "stealth -2" in text and "= 5 vs" in text


def test_rule_vulnerable_an_action_that_inflicts_the_named_debuff_gains_one(dice):
    st = scene("amalia@B10", "curse_coven_witch@D10")  # Vulnerable: Fire; Amalia's Sacred Flame inflicts fire
    st, _ = do(st, "activate hero:amalia")
    dice.push("B0 B0 R1", "B0 B0 R1")
    st, text = do(st, "act action:sacred_flame target:D10")
    assert "vulnerable +1" in text and "hit" in text and "Curse Coven Witch suffers fire." in text


def test_rule_raise_heals_a_wound_on_visible_undead_friends_within_three():
    st = scene("ruby@B20", "dust_coven_necromancer@H10 crypt_spider@J10:w1")
    lines: list[str] = []
    monsters.monster_act(st, monster_at(st, "H10"), lines)
    assert "raises Crypt Spider" in "\n".join(lines) and monster_at(st, "J10").wounds == 0


def test_rule_berserk_a_free_melee_attack_on_its_turn():
    st = scene("ruby@B10", "grobbit_executioner@C10")
    lines: list[str] = []
    monsters.monster_act(st, monster_at(st, "C10"), lines)
    text = "\n".join(lines)
    assert "goes berserk" in text and text.count("attacks Ruby") == 2


def test_rule_ambush_a_spawning_ambusher_attacks_an_adjacent_visible_enemy_at_once():
    st = scene("ruby@A2", pool=["black_claw_assassin"])  # the spawn point is C3
    lines: list[str] = []
    assert levels.spawn_one(st, 0, lines)
    text = "\n".join(lines)
    assert "springs an ambush" in text and "attacks Ruby" in text


def test_rule_grabby_a_hero_next_to_a_grabby_monster_may_not_move():
    st = scene("ruby@B10", "frog_knight@C10")
    st, _ = do(st, "activate hero:ruby")
    assert not [a for a in legal(st) if a.startswith("move")]
    with pytest.raises(IllegalAction) as exc:
        do(st, "move to:A10")
    assert "grabby" in exc.value.reason
    st.monsters = []
    assert [a for a in legal(st) if a.startswith("move")]


def test_rule_surefoot_difficult_terrain_costs_no_extra():
    st = scene("ruby@B20", "slowpoke@E6")  # F6 and G6 are difficult terrain
    opts = monsters.monster_move_options(st, monster_at(st, "E6"))
    assert opts[sq("G6")][0] == 2
    st = scene("ruby@B20", "mook@E6")
    assert monsters.monster_move_options(st, monster_at(st, "E6"))[sq("F6")][0] == 2


def test_rule_burrow_moves_under_enemy_models():
    st = scene("ruby@B1 candy@A2 emerald@B2", "roller@A1")
    assert sq("C1") in monsters.monster_move_options(st, monster_at(st, "A1"))
    st = scene("ruby@B1 candy@A2 emerald@B2", "gouger@A1")
    assert monsters.monster_move_options(st, monster_at(st, "A1")) == {}


def test_rule_gross_a_defeated_gross_model_splatters_adjacent_heroes_with_poison(dice):
    st = scene("ruby@B10", "pudge@C10")
    dice.push("R3 R3", "B0 B0 B0")
    lines: list[str] = []
    combat.destroy_monster(st, monster_at(st, "C10"), lines)
    text = "\n".join(lines)
    assert "bursts (gross)" in text and "Ruby suffers poison." in text and "Pudge is destroyed" in text


def test_rule_forced_shift_a_destroyed_model_becomes_its_other_form():
    st = scene("ruby@B10", "turniphead@E10")
    lines: list[str] = []
    combat.destroy_monster(st, monster_at(st, "E10"), lines)
    assert monster_at(st, "E10").kind == "mook" and "shifts into Mook" in "\n".join(lines)


def test_every_attribute_a_model_uses_is_implemented():
    """Every attribute of a hero, profile, monster or card is a known one, and every known attribute has code that
    reads it (its name appears in a mechanism module); the debuff ones ride on the basic offence actions."""
    c = ddata.content()
    used = set()
    for h in c.heroes.values():
        used |= set(h.attributes) | {a for p in h.profiles for a in (p.attributes or ())}
    for m in c.monsters.values():
        used |= set(m.attributes)
    for card in c.cards.values():
        used |= set(card.attributes)
    assert all(ddata.known_attribute(a) for a in used), sorted(a for a in used if not ddata.known_attribute(a))
    texts = ("data.py", "glossary.py")  # names and descriptions, not mechanisms
    source = "\n".join(p.read_text() for p in Path(ddata.__file__).parent.glob("*.py") if p.name not in texts)
    by_data = {"shapeshifter"}  # a hero's `profiles` and the `switch` action carry it
    missing = [a for a in sorted(ddata.KNOWN_ATTRIBUTES - set(ddata.DEBUFFS) - by_data)
               if not re.search(rf'"{a}"', source)]
    assert not missing, f"attributes named in data.py that no mechanism reads: {missing}"
    assert all(h.profiles for h in c.heroes.values() if "shapeshifter" in h.attributes)
    assert "vulnerable:" in source


DEBUFF_MONSTERS = sorted(m.id for m in ddata.content().monsters.values()
                         if set(m.attributes) & set(ddata.DEBUFFS) and m.rank != "boss")


def test_rule_debuff_attributes_every_monster_with_one_really_inflicts_it_on_a_hit(dice):
    assert len(DEBUFF_MONSTERS) >= 15
    best = {"B": "B2", "R": "R3", "G": "G3"}
    for kind in DEBUFF_MONSTERS:
        md = ddata.content().monsters[kind]
        st = scene("ruby@B10", f"{kind}@C10")
        spec = getattr(md, ddata.STYLE_STAT[md.attack.style])
        dice.push(" ".join(best[c] for c in spec.dice) or "", "B0 B0 B0")
        text = attack(st, "C10", "ruby")
        ruby = stats.hero(st, "ruby")
        for d in set(md.attributes) & set(ddata.DEBUFFS):
            assert d in ruby.debuffs, (kind, d, text)


def test_rule_treasure_map_a_picked_chest_gives_one_more_treasure_card(dice):
    st = scene("captain_r@J11")  # the level 1 chest is K11
    st.treasure_deck = [c for c in st.treasure_deck if not ddata.content().cards[c].booty]
    first, second = st.treasure_deck[:2]
    st, _ = do(st, "activate hero:captain_r")
    dice.push("B2 B2", "B0 B0")  # DEX 2B against the lock's 2B
    st, text = do(st, "act action:picklock")
    assert "treasure map shows one more" in text
    assert [f.card for f in st.floor] == [first, second]


def test_rule_luck_draws_two_treasure_cards_keeps_one_and_shuffles_the_other_back(dice):
    st = scene("taali@J11")
    booty = next(c for c in st.treasure_deck if ddata.content().cards[c].booty)
    plain = [c for c in st.treasure_deck if not ddata.content().cards[c].booty]
    st.treasure_deck = [booty, plain[0]] + plain[1:]
    st, _ = do(st, "activate hero:taali")
    dice.push("B2 B2", "B0 B0")
    st, text = do(st, "act action:picklock")
    assert "Luck: Taali draws two treasure cards and keeps one." in text
    assert [f.card for f in st.floor] == [plain[0]]  # the Boo Booty is not the one kept...
    assert booty in st.treasure_deck and len(st.treasure_deck) == len(plain)  # ...it went back into the deck


def test_rule_sidestep_a_successful_defence_lets_the_monster_step_one_free_square(dice):
    st = scene("nyannyan@B10", "prowler@C10")
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B0 B0 B0")  # 0 against the Prowler's bare 0: a tie, the defence holds
    st, text = do(st, "attack target:C10 with:melee")
    p = st.monsters[0]
    assert "Prowler sidesteps to" in text and (p.x, p.y) != sq("C10")
    assert max(abs(p.x - sq("C10")[0]), abs(p.y - sq("C10")[1])) == 1


def test_rule_static_charge_each_wounding_adds_a_blue_die_to_str_and_arm_up_to_three(dice):
    st = scene("ruby@B10", "crusher@C10")
    crusher = monster_at(st, "C10")
    for _ in range(2):
        combat.wound_monster(st, crusher, 1, [])
    assert crusher.charge == 2
    crusher.wounds = 0
    for _ in range(3):
        combat.wound_monster(st, crusher, 1, [])
        crusher.wounds = 0
    assert crusher.charge == 3  # never more than 3
    dice.push("R1 R1 B0 B0 B0", "B0 B0 B0")  # STR 2R plus three charge dice
    text = attack(st, "C10", "ruby")
    assert "static charge +3B" in text
    colours, _, notes = combat.monster_defence_pool(st, crusher, "melee")
    assert len(colours) == 6 and "static charge +3B" in notes  # ARM 2B1R plus three
