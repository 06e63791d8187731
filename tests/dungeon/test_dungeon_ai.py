"""The computer heroes' judgement (games/dungeon/ai.py): monsters react after every hero's activation, so a hero
left in reach of several of them is soon down; a summoning boss keeps bringing more monsters, so it comes first."""
from __future__ import annotations

from dhelpers import E, do, scene

from games.core.ai.base import candidates, first_to_act
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


def test_rule_the_spawn_point_calls_a_monster_after_every_activation_so_a_blow_that_breaks_it_may_come_first():
    # rule (monsters react, spawning): while the spawn point stands it calls the next monster of its pool after
    # every activation, the boss at its end; a hero about to go down next to a spawn point with one wound left
    # may strike it before it drinks (the search weighs both); with more left, it drinks first
    last, _ = do(scene("ruby@T3:w3", "mook@U2 mook@U3", level=1), "activate hero:ruby")
    last.levels[1].spawn_wounds = 2
    moves = [a.text() for a in candidates(E, last, "ann")]
    assert "potion" in moves and any(m.startswith("attack target:U4") for m in moves)


def test_rule_the_spawn_point_calls_a_monster_after_every_activation_so_a_hero_that_may_strike_it_does():
    # rule (monsters react, spawning): every activation the spawn point stands calls the next monster of its pool;
    # a hero in reach of it strikes it (attack or an own action on it) rather than walking off with the AP
    st, _ = do(scene("jacques@T3 clover@C2", "mook@U2", level=1), "activate hero:jacques")
    moves = [a.text() for a in candidates(E, st, "ann")]
    assert moves and all("target:U4" in m for m in moves)
    far, _ = do(scene("jacques@K4 clover@C2", "mook@U2", level=1), "activate hero:jacques")
    assert any(m.cmd == "move" for m in candidates(E, far, "ann"))  # not in reach: it closes in


def test_rule_the_next_level_opens_when_its_last_monster_dies_so_the_party_spares_it_until_it_is_in_place():
    # rule (the next level): killing the level's last monster (its spawn point down) opens the next spawn point,
    # which calls monsters at once; the heroes spare a weak last monster until every standing one is at the next
    # spawn point's screen, and strike it as it opens
    def level_one(heroes: str, monsters: str):
        st = scene(heroes, monsters, level=0)
        st.levels[0].destroyed = True
        return st

    away, _ = do(level_one("ruby@H6 clover@B8/bob", "knucklehead@I6"), "activate hero:ruby")
    assert ai._holding(E.view(away, None))
    assert not any(a.text().endswith("target:I6") or "target:I6 " in a.text() for a in candidates(E, away, "ann"))
    assert ai._holding(E.view(level_one("ruby@H6 clover@B8/bob", "rex@I6"), None)) is False  # a boss: no
    assert ai._holding(E.view(level_one("ruby@H6 clover@B8/bob", "king_sprout@I6:w2"), None)) is False  # rooted
    two = level_one("ruby@H6 clover@B8/bob", "knucklehead@I6 knucklehead@E8")
    assert ai._holding(E.view(two, None)) is False  # the second-to-last may die
    one = level_one("ruby@H6 clover@B8/bob", "knucklehead@I6")
    assert ai.evaluate(E, one, "ann") > ai.evaluate(E, two, "ann")  # killing a monster never costs value
    # a Frog Knight's Grabby holds the hero next to it: it may not walk away, so it strikes (fuzz seed 41 waited
    # 440 turns)
    held, _ = do(level_one("ruby@H6 clover@B8/bob", "frog_knight@I6"), "activate hero:ruby")
    assert not any(a.cmd == "move" for a in E.legal_actions(held, "ann"))
    assert any("target:I6" in a.text() for a in candidates(E, held, "ann"))


def test_a_hero_whose_line_of_sight_is_blocked_closes_in_as_a_melee_hero_would():
    # in range by the route is not in range: a wall between the hero and the spawn point blocks its shot
    # at P4 Ruby's bow reaches U4 by the route, but a wall stands in the way: she walks round (to R9, in sight)
    st, _ = do(scene("ruby@P4", "", level=1), "activate hero:ruby")
    assert not [a for a in E.legal_actions(st, "ann") if "target:U4" in a.text()]
    assert "move to:R9" in [a.text() for a in candidates(E, st, "ann")]


def test_rule_a_level_counts_as_cleared_once_its_spawn_point_and_every_monster_are_gone():
    # rule (game progression): the next level opens only when the spawn point and all of its monsters are
    # destroyed; a party that broke the spawn point and then fell to the monsters left did not clear the level
    broken = scene("ruby@K4", "knucklehead@E6", level=0)
    broken.levels[0].destroyed = True
    assert ai.milestones(E, broken)["level1_cleared"] is False
    assert ai.milestones(E, scene("ruby@O5", "mook@T2", level=1)) == {
        "level1_cleared": True, "level2_cleared": False, "level3_cleared": False}


def test_rule_heroes_activate_in_any_order_so_the_team_sends_the_hero_in_danger_first():
    # rule (hero turn): the heroes activate in any order; of several computer heroes the one the monsters in reach
    # may bring down goes first (it falls back or heals before more reactions come), then one close enough to
    # strike the standing spawn point, then the one farthest behind (the party closes up)
    st = scene("ruby@K4/ann clover@C2/bob brolgur@T3:w4/cy", "mook@U2 mook@U3", level=1)
    assert ai.order(E, st, ["ann", "bob", "cy"])[0] == "cy"
    calm = scene("ruby@S6/ann clover@C2/bob brolgur@N3/cy", "", level=1)  # the spawn point stands at U4
    assert ai.order(E, calm, ["ann", "bob", "cy"]) == ["ann", "bob", "cy"]  # Ruby strikes it, Clover is behind
    assert first_to_act(E, calm, ["bob", "cy"]) == "bob"
    assert first_to_act(E, calm, ["cy"]) == "cy"


def test_rule_heroes_may_walk_ahead_so_with_the_spawn_point_down_they_wait_at_the_next_ones_screen():
    # rule (hero turn): heroes may go anywhere in the dungeon but within 3 squares of a spawn point not yet open;
    # once the level's spawn point is down and only weak monsters are left, the party meets them on its way to the
    # next spawn point, so it strikes that one as the next level opens, before its pool brings out the boss
    def level_one(heroes: str, monsters: str):
        st = scene(heroes, monsters, level=0)
        st.levels[0].destroyed = True
        return E.view(st, None)

    on_the_way = level_one("ruby@H6", "knucklehead@E6")
    assert ai._stage(on_the_way, 14, 7, 6) is not None  # O8, near Mushroom Grotto's spawn point
    assert ai._stage(on_the_way, 14, 7, 6) < ai._stage(on_the_way, 4, 4, 6)  # ... than E5, at the back
    assert ai._stage(level_one("ruby@H6", "rex@E6"), 14, 7, 6) is None  # a boss left: finish it together
    assert ai._stage(level_one("ruby@H6", "knucklehead@E6 knucklehead@E8 gouger@E9 gouger@E10"), 14, 7, 6) is None
    st = scene("ruby@H6", "knucklehead@E6", level=0)  # the spawn point stands: it comes first
    assert ai._stage(E.view(st, None), 14, 7, 6) is None
    near = scene("ruby@O8", "knucklehead@E6", level=0)
    back = scene("ruby@B8", "knucklehead@E6", level=0)
    for s in (near, back):
        s.levels[0].destroyed = True
    assert ai.evaluate(E, near, "ann") > ai.evaluate(E, back, "ann")


def test_a_hero_counts_its_distance_from_where_its_strongest_attack_reaches_not_its_longest():
    # Kadgron's melee rolls three dice (STR BBR) and his shot one (DEX B): he walks up to strike, where
    # counting from his shot's range had him throw one die at the spawn point from five squares (seed 1);
    # Ruby's bow is her strongest attack (DEX BBR against STR BB), so she keeps her distance
    v = E.view(scene("kadgron@D5 ruby@E6", "", level=1), None)
    kadgron, ruby = (next(h for h in v.heroes if h.hero.casefold().startswith(n)) for n in ("kadgron", "ruby"))
    assert max(kadgron.attacks.values()) > 1 and ai._reach(kadgron) == kadgron.attacks["melee"] == 1
    assert ai._reach(ruby) == ruby.attacks["ranged"] == max(ruby.attacks.values())
