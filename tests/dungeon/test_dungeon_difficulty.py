"""Difficulty: the number of heroes scales the monsters, and the house option `difficulty` (explorer / veteran).

The rule text opens each level by spawning monsters round its spawn point as at the start of level 1; its
set-up section is missing from our copy, so the count is the house value `max(2, number of heroes)` (README).
"""
from __future__ import annotations

import pytest
from dhelpers import do, scene

from games.core import IllegalAction, Seat
from games.dungeon import ENGINE as E
from games.dungeon import combat, stats

HEROES = ["ruby", "candy", "nyannyan", "emerald", "vonwilding", "jacques"]


def seats(n: int) -> list[Seat]:
    return [Seat(player="ann", name="Ann", choices={"hero": HEROES[i]}) for i in range(n)]


@pytest.mark.parametrize(("heroes", "opening"), [(1, 2), (2, 2), (3, 3), (4, 4), (6, 6)])
def test_rule_more_heroes_meet_more_monsters_when_a_level_opens(heroes, opening):
    st = E.setup({}, seats(heroes), 1)
    assert len(st.monsters) == opening and st.difficulty == "normal"


@pytest.mark.parametrize(("level", "heroes", "opening"),
                         [("explorer", 4, 3), ("explorer", 1, 1), ("veteran", 4, 5), ("veteran", 1, 3)])
def test_house_difficulty_changes_the_monsters_opening_a_level_by_one(level, heroes, opening):
    st = E.setup({"difficulty": level}, seats(heroes), 1)
    assert st.difficulty == level and len(st.monsters) == opening


def test_house_difficulty_holds_for_the_next_level_too(dice):
    st = scene("emerald@C5 ruby@B10 candy@B11 nyannyan@D10", pool=[])
    st.difficulty = "veteran"
    st.levels[1].pool = ["mook", "skullbat", "mook", "sprout", "mook", "skullbat"]
    st.levels[0].spawn_wounds = 2
    st, _ = do(st, "activate hero:emerald")
    dice.push("B2 B0 R1")
    st, text = do(st, "attack target:C3 with:ranged")
    assert st.level == 1 and len(st.monsters) == 5  # four heroes, one more for veterans
    assert "Level 2, Mushroom Grotto: its spawn point opens and a chest appears. (veteran difficulty" in text


@pytest.mark.parametrize(("level", "note", "total"),
                         [("veteran", "veteran +1", "= 5"), ("explorer", "explorer -1", "= 3"), ("normal", "", "= 4")])
def test_house_difficulty_gives_monsters_offence_one_star_more_or_less(dice, level, note, total):
    st = scene("ruby@B10", "gouger@C10")  # away from the aura and any champion
    st.difficulty = level  # type: ignore[assignment]
    dice.push("B2 B1 B1", "B0 B0 B0")
    lines: list[str] = []
    combat.monster_attack(st, st.monsters[0], stats.hero(st, "ruby"), lines)
    assert total in lines[-1] and (note in lines[-1] if note else "explorer" not in lines[-1]
                                   and "veteran" not in lines[-1]), lines[-1]


def test_house_difficulty_leaves_the_heroes_rolls_alone(dice):
    st = scene("nyannyan@B10", "gouger@C10")
    st.difficulty = "veteran"
    st, _ = do(st, "activate hero:nyannyan")
    dice.push("B2 B1 B1")
    st, text = do(st, "attack target:C10 with:melee")
    assert "= 4 vs" in text and "veteran" not in text.split("vs")[0]


def test_house_difficulty_is_announced_at_the_start_and_in_the_export():
    st = E.setup({"difficulty": "explorer"}, seats(2), 1)
    start = E.status(st).waiting_for
    assert start == "Ann to activate a hero (explorer difficulty)"
    assert E.summary(st)["difficulty"] == "explorer" and E.view(st, None).difficulty == "explorer"
    normal = E.setup({}, seats(2), 1)
    assert "difficulty" not in E.status(normal).waiting_for and "difficulty" not in E.summary(normal)
    st, _ = do(st, "activate hero:ruby")
    st, _ = do(st, "end")
    assert "difficulty" not in E.status(st).waiting_for  # said once, at the start


def test_an_unknown_difficulty_is_refused_and_the_choices_named():
    with pytest.raises(IllegalAction) as exc:
        E.check_options({"difficulty": "nightmare"})
    assert "explorer" in exc.value.hint and "veteran" in exc.value.hint
    E.check_options({"difficulty": "veteran"})
