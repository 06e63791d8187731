"""The computer heroes' judgement (games/dungeon/ai.py): monsters react after every hero's activation, so a hero
left in reach of several of them is soon down; a summoning boss keeps bringing more monsters, so it comes first."""
from __future__ import annotations

from dhelpers import E, scene

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
