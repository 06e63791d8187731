"""The rules data file: validated at load, house values marked, and the /rules text in our own words."""
from __future__ import annotations

import json

import pytest
from hb_helpers import build, legal

from games.core import RulesDataError
from games.heroball import ENGINE as E
from games.heroball.data import DATA_FILE, parse_rules, rules


def test_bundled_rules_data_loads_and_marks_house_content():
    r = rules()
    assert r.house.house and r.house.max_ap == 5 and r.house.start_ap == 4 and r.house.rounds == 12
    assert r.house.cost.sprint == 2 and r.house.cost.drop == 0
    perseus = r.hero("Perseus")
    assert perseus.house and 2 <= len(perseus.cards) <= 3 and all(c.house for c in perseus.cards)
    assert r.god("Hermes").excluded and "Hermes" not in r.playable_gods
    assert all(g.house for g in r.gods if not g.excluded)  # favoured terrains are house values


@pytest.mark.parametrize("breakage,needle", [
    (lambda d: d["gods"][0].update(terrain="lava"), "unknown terrain"),
    (lambda d: d["heroes"][0]["cards"][0].update(effect="teleport"), "effect"),
    (lambda d: d["heroes"][0]["cards"].append(dict(d["heroes"][0]["cards"][0], id="x")), "two cards on one slot"),
    (lambda d: d["house"]["start_corners"].update({"3": ["N", "N", "S"]}), "different corners"),
    (lambda d: d["house"].pop("max_ap"), "max_ap"),
])
def test_broken_rules_data_is_refused_with_a_clear_message(breakage, needle):
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    breakage(data)
    with pytest.raises(RulesDataError, match=needle):
        parse_rules(json.dumps(data))


def test_rules_topics_cover_the_game_and_every_hero_in_our_own_words():
    topics = E.rules_topics()
    for key in ("overview", "turn", "movement", "attacks", "objects", "reactions", "scoring", "standing orders"):
        assert topics[key].strip()
    for h in rules().heroes:
        assert h.name.lower() in topics
    text = " ".join(topics.values())
    for sentence in ("each hex of movement must reduce the total distance",
                     "Only 1 hero may occupy a hex at a time",
                     "AP are easy to spend and slow to return"):
        assert sentence.lower() not in text.lower()


def test_commands_are_declared_with_short_option_names_and_autocomplete_for_hexes_and_targets():
    names = {c.name for c in E.commands}
    assert {"step", "run", "sprint", "push", "fumble", "throw", "drop", "hold", "hero", "react", "pass",
            "reactions", "end", "seed"} <= names
    for c in E.commands:
        for o in c.options:
            assert len(o.name) <= 10
            if o.name in ("to", "target", "place"):
                assert o.autocomplete


def test_target_may_be_written_as_the_players_name_and_hexes_in_lower_case():
    from hb_helpers import build

    from games.core import Action

    s = build("Gorgo@G5, Calypso@G6")
    a = E.canonical(s, "gorgo", Action.parse("push target:calypso to:g7"))
    assert a == Action.of("push", target="Calypso", to="G7")


def _words(text: str) -> list[str]:
    import re

    return re.findall(r"[a-z0-9']+", text.lower())


def test_every_rules_topic_is_non_empty_and_shares_no_six_word_run_with_the_rule_texts():
    """`/rules game:heroball topic:` answers in our own words: no 6 words in a row copied from the rules."""
    from pathlib import Path

    rules_dir = Path("/work/shared/rules")
    sources = [rules_dir / "heroball-quickstart.txt"]
    sources = [p for p in sources if p.exists()]
    if not sources:  # the rule texts live outside the repository; the check needs them
        import pytest

        pytest.skip("rule texts not available on this machine")
    n = 6
    copied = set()
    for p in sources:
        w = _words(p.read_text(encoding="utf-8"))
        copied |= {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}
    topics = E.rules_topics()
    assert len(topics) >= 8 + len(rules().heroes)
    for key, text in topics.items():
        w = _words(text)
        assert len(w) >= 15, f"topic {key!r} is too thin"
        shared = {" ".join(w[i:i + n]) for i in range(len(w) - n + 1) if tuple(w[i:i + n]) in copied}
        assert not shared, f"topic {key!r} copies the rules: {sorted(shared)}"


def test_the_push_topic_describes_the_pushes_the_game_offers():
    """A push may go to any free hex next to the victim 2 hexes from the attacker (the quickstart's "away"),
    which is not always straight on: the topic must not say "straight"."""
    text = E.rules_topics()["attacks"]
    assert "straight" not in text and "2 hexes from you" in text
    s = build("Gorgo@F6, Pegasus@G7")
    assert sorted(a.split("to:")[1] for a in legal(s, "gorgo", "push")) == ["G8", "H6", "H7"]
