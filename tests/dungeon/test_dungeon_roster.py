"""The roster as data: every hero and monster the rule text names, their cards, and that their abilities act."""
from __future__ import annotations

import pytest
from dhelpers import E, do, legal, scene

from games.core import Seat
from games.dungeon import data as ddata
from games.dungeon import stats

# the names under "Hero Stat Sheets" in the rule text
RULE_TEXT_HEROES = (
    "Amalia", "Brolgur", "Calidor", "Candy", "Captain R", "Clover", "Domriana", "Emerald", "Ethlandel", "Gallien",
    "Jacques", "Kadgron", "Kaelly", "Korinee", "Kumiko", "Luxille", "Lyris", "Marie-Claude", "Nyan-Nyan", "Ruby",
    "Rufaren", "Sophia", "Taali", "Vinoren", "Von Wilding", "Ylendar", "Zindora",
)
# content-notes.md: the published (fan-transcribed) stat lines; everyone else is house
PUBLISHED = {
    "Candy": (6, 3, "2B", "3B", "2B", "1B1R", 5, 3),
    "Ruby": (6, 3, "2B", "3B", "3B", "2B1R", 5, 1),
    "Emerald": (6, 3, "2B", "3B", "1B1R", "2B1R", 5, 1),
    "Von Wilding": (6, 3, "1B1R", "3B", "1B1R", "2R", 5, 2),
    "Nyan-Nyan": (7, 3, "3B", "3B", "2B", "2R", 5, 1),
}


def test_every_hero_the_rule_text_names_is_in_the_data_with_its_stat_line():
    heroes = ddata.content().heroes
    assert len(RULE_TEXT_HEROES) == 27
    assert sorted(h.name for h in heroes.values()) == sorted(RULE_TEXT_HEROES)
    for name in RULE_TEXT_HEROES:
        hd = heroes[ddata.hero_id(name) or ""]
        line = (hd.move, hd.ap, hd.str.text(), hd.arm.text(), hd.will.text(), hd.dex.text(), hd.life, hd.potions)
        if name in PUBLISHED:
            assert line == PUBLISHED[name] and not hd.house, name
        else:
            assert hd.house, f"{name}: a stat line of our own must be marked house"
        assert hd.attacks and hd.unique, name


@pytest.mark.parametrize("name", RULE_TEXT_HEROES)
def test_join_accepts_each_hero_name_and_rules_answers_for_it(name):
    E.check_seat({}, [], Seat(player="ann", name="Ann", choices={"hero": name}))
    st = E.setup({}, [Seat(player="ann", name="Ann", choices={"hero": name})], 1)
    assert stats.hero_stats(st.heroes[0]).name.startswith(name)
    card = E.rules_topics()[name]
    assert name in card and "STR" in card and "AP" in card


@pytest.mark.parametrize("hid", sorted(ddata.content().heroes))
def test_each_heros_unique_actions_are_offered_and_act(hid):
    """Every unique action of every hero is legal in a fitting scene and resolves without a stuck state."""
    c = ddata.content()
    for uid in c.heroes[hid].unique:
        ua = c.unique[uid]
        if ua.kind == "attack":
            st = scene(f"{hid}@B10", "gouger@C10")
        else:
            other = "ruby" if hid != "ruby" else "candy"
            st = scene(f"{hid}@B10 {other}@C10:w2")
        st, _ = do(st, f"activate hero:{hid}")
        offered = [a for a in legal(st) if a.startswith(f"act action:{uid}")]
        assert offered, (hid, uid, legal(st))
        st, text = do(st, offered[0])
        assert ua.name in text or "rolls" in text, text
        while st.attack is not None and st.attack.stage:
            st, _ = do(st, "keep" if st.attack.stage == "reroll" else "heart use:none")
        assert st.activation is not None and st.activation.ap == c.heroes[hid].ap - ua.ap


# the names under "Monster Stat Sheets" in the rule text
RULE_TEXT_MONSTERS = (
    "Billman", "Black Claw Assassin", "Blaze Beetle", "Bombardier", "Bone Head", "Boo Booty", "Burning Gel",
    "Citrine Slime", "Claw Trainer", "Crusher", "Crypt Spider", "Curse Coven Witch", "Dragon Priest", "Drake Hound",
    "Dread Knight", "Dust Coven Necromancer", "Dust Mage", "Ember Hound", "Emerald Slime", "Fire Gel", "Flinger",
    "Frog Knight", "Gouger", "Grobbit Executioner", "Hatchlings", "Ironscale", "King Sprout", "Knucklehead",
    "Miserable Toad", "Mook", "Prowler", "Pudge", "Rabid Squirrel", "Rex", "Roller", "Ruby Slime", "Sapphire Slime",
    "Shamble Priest", "Skullbat", "Slowpoke", "Sprout", "Swampie", "Turniphead", "Whelp", "Wisp", "Wyrmling",
)


def test_every_monster_the_rule_text_names_is_in_the_data_and_has_a_rules_card():
    assert len(RULE_TEXT_MONSTERS) == 46
    names = {m.name: m for m in ddata.content().monsters.values()}
    assert set(RULE_TEXT_MONSTERS) <= set(names)
    extra = set(names) - set(RULE_TEXT_MONSTERS)
    assert all(names[n].house and names[n].rank == "boss" for n in extra), extra  # our level bosses
    topics = E.rules_topics()
    for name in RULE_TEXT_MONSTERS:
        assert name in topics and "STR" in topics[name] and "Attack:" in topics[name], name


@pytest.mark.parametrize("name", RULE_TEXT_MONSTERS)
def test_each_monster_can_take_its_reaction(name):
    """Every monster of the roster, put next to a hero or far from one, acts without error."""
    from games.dungeon import monsters
    kind = next(m.id for m in ddata.content().monsters.values() if m.name == name)
    for square in ("C10", "J10"):
        st = scene("ruby@B10", f"{kind}@{square}")
        lines: list[str] = []
        monsters.monster_act(st, st.monsters[0], lines)
        assert lines, name
