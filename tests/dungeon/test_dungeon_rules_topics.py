"""`/rules game:dungeon topic:<name>` answers for every hero, monster, attribute and card (issue 16), each name
reaching its own card through the bot's topic matching."""
from __future__ import annotations

from bot.manager import GameManager
from games.dungeon import ENGINE as E
from games.dungeon.data import KNOWN_ATTRIBUTES, content
from games.dungeon.glossary import ATTRIBUTES
from storage import open_storage


def every_name() -> dict[str, str]:
    """Each name a player may ask about, with a word its card must contain."""
    c = content()
    names = {hd.name: "STR" for hd in c.heroes.values()}
    names.update({md.name: "Attack:" for md in c.monsters.values()})
    names.update({ATTRIBUTES[a][0]: "Attribute." for a in KNOWN_ATTRIBUTES | {"immune", "vulnerable"}})
    names.update({card.name: "deck" for card in c.cards.values()})
    return names


def test_every_attribute_of_the_rules_has_a_description_and_nothing_else_does():
    assert set(ATTRIBUTES) == KNOWN_ATTRIBUTES | {"immune", "vulnerable"}
    # the 50 the rule text names (Immune and Vulnerable among them); Jinx is a house attribute
    assert len(KNOWN_ATTRIBUTES - {"jinx"}) + len({"immune", "vulnerable"}) == 50


def test_every_hero_monster_attribute_and_card_has_its_own_topic():
    topics = E.rules_topics()
    names = every_name()
    assert len(names) >= 27 + 46 + 50 + 40
    for name, word in names.items():
        assert name in topics, name
        assert word in topics[name], (name, topics[name])


async def test_rules_command_answers_each_name_with_its_card(tmp_path):
    manager = GameManager(await open_storage(str(tmp_path / "t.sqlite3")), render=False)
    topics = E.rules_topics()
    try:
        for name in every_name():
            reply = await manager.rules("dungeon", name.upper())  # as typed, any case
            assert reply.text == f"**{E.name} — {name}**\n{topics[name]}", name
    finally:
        await manager.storage.close()
