"""The computer heroes' judgement (games/dungeon/ai.py): monsters react after every hero's activation, so a hero
left in reach of several of them is soon down; a summoning boss keeps bringing more monsters, so it comes first."""
from __future__ import annotations

from dhelpers import E, do, scene

from games.core.ai.base import candidates
from games.dungeon import ai


def test_threat_falls_on_the_hero_each_monster_goes_for_and_only_within_its_reach():
    # rule (monsters react): each monster goes for the hero closest to it; one in reach attacks at once, one a move
    # away gets there first
    st = scene("ruby@T3 clover@C2", "mook@U2 mook@U3", level=1)
    danger = ai.threat(E.view(st, None))
    assert danger["ruby"] > 1.0  # two mooks next to her, each reacting about twice before she acts again
    assert danger["clover"] == 0.0  # far from both, and they go for Ruby anyway
    far = scene("ruby@K4 clover@C2", "mook@U2 mook@U3", level=1)
    assert ai.threat(E.view(far, None))["ruby"] == 0.0  # beyond a mook's move and reach


def test_a_hero_in_reach_of_a_crowd_is_worth_less_than_one_out_of_reach_though_nearer_the_spawn_point():
    near = scene("ruby@T3 clover@C2", "mook@U2 mook@U3 skullbat@S2", level=1)
    away = scene("ruby@K4 clover@C2", "mook@U2 mook@U3 skullbat@S2", level=1)
    assert ai.evaluate(E, near, "ann") < ai.evaluate(E, away, "ann")


def test_a_wound_on_the_summoning_boss_counts_more_than_one_on_an_elite():
    # Mother Mycel summons a Mook every turn: the team that trades blows with her minions never ends the level
    boss_hit = scene("ruby@O5", "mother_mycel@T2:w1 king_sprout@T4", level=1)
    elite_hit = scene("ruby@O5", "mother_mycel@T2 king_sprout@T4:w1", level=1)
    assert ai.evaluate(E, boss_hit, "ann") > ai.evaluate(E, elite_hit, "ann")


def test_the_judgement_reads_the_public_view_only():
    st = scene("ruby@T3 clover@C2", "mook@U2", level=1)
    other = st.model_copy(deep=True)
    other.loot_deck.reverse()
    other.treasure_deck.reverse()
    assert ai.evaluate(E, st, "ann") == ai.evaluate(E, other, "ann")


def test_rule_a_potion_needs_ap_so_a_hero_about_to_go_down_drinks_before_it_attacks():
    # rule (AP): once a hero's AP are spent it may do nothing else, a potion included; a hero with 2 life left
    # next to two mooks that spent its AP on an attack would meet their reactions with the potion in its bag
    st, _ = do(scene("ruby@T3:w3", "mook@U2 mook@U3", level=1), "activate hero:ruby")
    assert "potion" in [a.text() for a in E.legal_actions(st, "ann")]
    assert [a.text() for a in candidates(E, st, "ann")] == ["potion"]
    calm, _ = do(scene("ruby@K4:w3", "mook@U2 mook@U3", level=1), "activate hero:ruby")
    assert len(candidates(E, calm, "ann")) > 1  # out of every monster's reach: no hurry


def test_rule_a_level_counts_as_cleared_once_its_spawn_point_and_every_monster_are_gone():
    # rule (game progression): the next level opens only when the spawn point and all of its monsters are
    # destroyed; a party that broke the spawn point and then fell to the monsters left did not clear the level
    broken = scene("ruby@K4", "knucklehead@E6", level=0)
    broken.levels[0].destroyed = True
    assert ai.milestones(E, broken)["level1_cleared"] is False
    assert ai.milestones(E, scene("ruby@O5", "mook@T2", level=1)) == {
        "level1_cleared": True, "level2_cleared": False, "level3_cleared": False}
