"""Quodd upgrades: six double-sided tiles per hero, one taken by every hero at the end of each round."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal

from games.core import Action
from games.core.errors import AmbiguousAction
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.skills import skill_points
from games.quodd.upgrades import side_of, tiles_left, upgrade_label

OPEN = ["......"] * 3


def round_end():  # noqa: ANN201
    """ann (rok) and bob (trixie) at the end of round 1: bob ends the round with `done` in phase 4."""
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="F3")], phase="explore")
    st.turn = 1
    st, _ = do(st, "bob", "done")
    return st


def test_every_hero_has_six_double_sided_tiles_each_side_one_implemented_effect():
    for hid in data.heroes():
        tiles = data.upgrades()[hid]
        assert len(tiles) == 6
        for t in tiles:
            for s in (t.a, t.b):
                assert (s.movement > 0) + (s.explore > 0) + s.gold + bool(s.ability) == 1
                assert not s.ability or s.ability in data.abilities()


def test_the_round_ends_with_every_hero_taking_an_upgrade_then_the_coin_passes():
    st = round_end()
    assert st.phase == "upgrade" and sorted(E.status(st).to_act) == ["ann", "bob"] and st.round == 1
    st, _ = do(st, "bob", E.skip_action(st, "bob").text())
    assert st.phase == "upgrade" and "not your move" in illegal(st, "bob", "upgrade tile:1 side:a").reason
    st, ev = do(st, "ann", "upgrade tile:1 side:a")
    assert st.round == 2 and any("first player coin" in e for e in ev)


def test_the_game_ends_at_the_round_limit_before_any_upgrade():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="F3")], phase="explore", round_limit=1, rally=["C2"])
    st.turn = 1
    st, _ = do(st, "bob", "done")
    assert E.status(st).finished


def test_a_movement_side_adds_one_point_to_every_skill():
    st = round_end()
    h = hero(st, "ann")
    tile = next(n for n in tiles_left(h) if side_of(h, n, "a").movement or side_of(h, n, "b").movement)
    side = "a" if side_of(h, tile, "a").movement else "b"
    before = skill_points(h, "slide")
    st, ev = do(st, "ann", f"upgrade tile:{tile} side:{side}")
    assert hero(st, "ann").movement == 2 and skill_points(hero(st, "ann"), "slide") == before + 1
    assert hero(st, "ann").upgrades == [f"{tile}{side}"]


def test_an_explore_side_adds_one_draw_in_phase_four():
    st = round_end()
    h = hero(st, "ann")
    side = "a" if side_of(h, 1, "a").explore else "b"
    st, _ = do(st, "ann", f"upgrade tile:1 side:{side}")
    assert hero(st, "ann").explore == 2
    st.phase, st.turn = "recovery", 0
    hero(st, "ann").hand = ["lantern"]  # a choice keeps phase 3 open until `done`
    st, _ = do(st, "ann", "done")
    assert st.m.draws == 2


def test_a_gold_side_flips_a_skill_of_your_choice_to_its_upgraded_side():
    """Mayor Trixie (bob) has a gold side."""
    st = round_end()
    h = hero(st, "bob")
    tile = next(n for n in tiles_left(h) if side_of(h, n, "a").gold or side_of(h, n, "b").gold)
    side = "a" if side_of(h, tile, "a").gold else "b"
    try:  # without a skill the command could mean any of the five: the reply lists them
        do(st, "bob", f"upgrade tile:{tile} side:{side}")
        raise AssertionError("accepted without a skill")
    except AmbiguousAction as exc:
        assert "skill:jump" in str(exc) and "skill:slide" in str(exc)
    st, _ = do(st, "bob", f"upgrade tile:{tile} side:{side} skill:jump")
    h = hero(st, "bob")
    assert h.upgraded == ["jump"] and skill_points(h, "jump") == skill_points(h, "slide") + 1
    assert not [a for a in E.legal_actions(st, "bob") if a.get("skill") == "jump"]


def test_upgrades_fill_the_track_from_the_left_and_a_tile_is_taken_once():
    st = round_end()
    hero(st, "ann").upgrades = ["1a", "4b"]
    assert tiles_left(hero(st, "ann")) == [2, 3, 5, 6]
    assert "not one you can take" in illegal(st, "ann", "upgrade tile:4 side:a").reason
    side = "a" if not side_of(hero(st, "ann"), 2, "a").gold else "b"
    st, _ = do(st, "ann", f"upgrade tile:2 side:{side}")
    assert hero(st, "ann").upgrades == ["1a", "4b", f"2{side}"]


def test_with_every_tile_taken_the_upgrade_step_passes():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="F3")], phase="explore")
    for h in st.heroes:
        h.upgrades = [f"{n}a" for n in range(1, 7)]
    st.turn = 1
    st, _ = do(st, "bob", "done")
    assert st.round == 2 and st.phase != "upgrade"


def test_upgrade_buttons_are_labelled_with_the_tile_side_and_effect():
    st = round_end()
    gold = next(a for a in E.legal_actions(st, "bob") if a.get("skill"))  # Mayor Trixie has gold sides
    assert "gold: upgrade" in E.label(st, gold)
    st, _ = do(st, "bob", "upgrade tile:1 side:a")  # ann chooses alone now: her buttons name her sides
    lg = E.legal_actions(st, "ann")
    labels = [E.label(st, a) for a in E.button_actions(st, "ann", lg)]
    assert labels and all(x.startswith("Tile ") for x in labels)
    assert any("+1 explore" in x for x in labels)
    assert any(x == "Tile 2B: Crush" for x in labels)  # an ability side reads as the ability's name
    assert E.skip_action(st, "ann") in lg and not E.skip_action(st, "ann").get("skill")
    assert Action.of("upgrade", tile="1", side="a") in lg or Action.of("upgrade", tile="1", side="b") in lg


def test_the_summary_lists_each_players_upgrades():
    st = round_end()
    st, _ = do(st, "ann", "upgrade tile:1 side:b")
    assert E.summary(st)["players"][0]["upgrades"] == ["1B: +1 explore"]  # by name: tile, side, what it gives
    hero(st, "ann").upgrades += ["2b", "4a"]
    assert E.summary(st)["players"][0]["upgrades"] == ["1B: +1 explore", "2B: Crush", "4A: Jump Shockwave"]


def _ability_tests() -> list[str]:
    import ast
    from pathlib import Path

    names = []
    for f in sorted(Path(__file__).parent.glob("test_quodd_abilities_*.py")):
        names += [n.name for n in ast.walk(ast.parse(f.read_text())) if isinstance(n, ast.FunctionDef)
                  and n.name.startswith("test_")]
    return names


def test_every_upgrade_ability_has_a_test_of_its_effect_and_a_tile_that_carries_it():
    """The data test: every ability in abilities.json is on some hero's tile and has a test named after it."""
    tests = _ability_tests()
    on_tiles = {s.ability for tiles in data.upgrades().values() for t in tiles for s in (t.a, t.b)}
    for aid in data.abilities():
        assert aid in on_tiles, f"{aid}: on no hero's tile"
        assert any(aid.replace("-", "_") in t for t in tests), f"{aid} has no test of its effect"
    assert len(on_tiles - {""}) == 41
    assert len(data.abilities()) == 41  # the rulebook's 51 entries less Explore, Upgrade Skill and 8 Q-powers


def test_rules_answers_for_every_upgrade_ability_by_name_or_id():
    topics = E.rules_topics()

    def lookup(topic: str) -> str:  # as `/rules` finds a topic: the exact name, else the first containing it
        match = [t for t in topics if t.casefold() == topic.casefold()] or \
                [t for t in topics if topic.casefold() in t.casefold()]
        return topics[match[0]]

    events = {e.name for e in data.world_events().values()}
    for a in data.abilities().values():
        for asked in (a.id,) if a.name in events else (a.name, a.id):
            text = lookup(asked)
            assert text.startswith(f"{a.name}: upgrade ability") and a.text in text, asked
        if a.name in events:  # the world event of that name points to the ability
            assert f"topic:{a.id}" in lookup(a.name)
    assert "gold" in lookup("Upgrade Skill") and "one more card" in lookup("Explore")
    assert "Crush" in topics["upgrades"] and "/quodd ability" in topics["upgrades"]


def test_using_an_ability_you_do_not_have_or_at_the_wrong_time_says_why():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="F3")], phase="power")
    hero(st, "ann").hand = ["lantern"]
    assert "not on your upgrade track" in illegal(st, "ann", "ability name:twister spin:cw card:lantern").reason
    assert "no ability `fly`" in illegal(st, "ann", "ability name:fly").reason
    hero(st, "ann").upgrades = ["2b"]  # Rok's Crush: works by itself
    assert "Crush" in illegal(st, "ann", "ability name:twister spin:cw card:lantern").reason
    assert "works by itself" in illegal(st, "ann", "ability name:crush").reason
    hero(st, "ann").upgrades = ["3a"]  # Rok's Wall Builder: switched on in the movement
    assert "used in your own movement phase" in illegal(st, "ann", "ability name:wall-builder").reason
    st.phase, st.m.draws = "explore", 1
    hero(st, "ann").hero, hero(st, "ann").upgrades = "aang", ["1b"]  # Twister
    assert "your own turn, in phase 1 or 3" in illegal(st, "ann", "ability name:twister spin:cw card:lantern").reason


def test_ability_buttons_name_the_ability_its_target_and_its_cost():
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="C1")], phase="power")
    h = hero(st, "ann")
    h.hero, h.upgrades, h.hand = "aang", ["4b"], ["lantern"]  # Mind-Push
    lg = E.legal_actions(st, "ann")
    labels = [E.label(st, a) for a in E.button_actions(st, "ann", lg)]
    assert "Mind-Push Bob N (discard Lantern)" in labels


def test_an_upgrade_button_never_names_another_heros_side():
    """A tile whose sides differ between the heroes choosing now: told the button's owner, the label names that
    hero's side alone; not told, it names each hero's side by the hero's name; once one hero is left, its
    buttons name its side."""
    st = round_end()  # ann is Rok (tile 2B: Crush), bob is Mayor Trixie (tile 2B: +1 explore)
    assert E.label(st, Action.of("upgrade", tile="2", side="b")) == "Tile 2B: Crush for Ann, +1 explore for Bob"
    assert E.label(st, Action.of("upgrade", tile="2", side="b"), player="bob") == "Tile 2B: +1 explore"
    st, _ = do(st, "ann", "upgrade tile:1 side:a")
    assert E.label(st, Action.of("upgrade", tile="2", side="b")) == "Tile 2B: +1 explore"


def test_the_image_panel_names_a_whole_track_of_six_abilities():
    from render.quodd import _upgrade_lines

    st = round_end()
    h = hero(st, "bob")
    h.hero, h.upgrades = "nyx", ["1a", "2b", "3b", "4b", "5a", "6a"]
    text = " ".join(_upgrade_lines(E.view(st, None).heroes[1]))
    assert "Getaway" in text and "+2 to Rune Range" in text  # the first and the sixth


def test_an_upgrade_token_lets_you_choose_and_place_an_upgrade_at_once():
    """Rulebook, upgrade token: when revealed, choose and play an upgrade at once, if possible."""
    st = build(["......"] * 3, tokens={"C1": "upgrade"}, heroes=[dict(pos="A1")], tumbled=True, ready="slide",
               points=2)
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert st.pending is not None and st.pending.kind == "upgrade_token" and "1a" in st.pending.options
    labels = {a.get("option"): E.label(st, a) for a in E.legal_actions(st, "ann")}
    assert labels["2b"] == "Tile 2B: Crush" and labels["1a"] == "Tile 1A: +1 movement"
    st, _ = do(st, "ann", "choose option:1a")
    assert hero(st, "ann").upgrades == ["1a"] and hero(st, "ann").movement == 2 and "C1" not in st.tokens
    st = build(["......"] * 3, tokens={"C1": "upgrade"}, heroes=[dict(pos="A1")], tumbled=True, ready="slide",
               points=2)
    hero(st, "ann").upgrades = [f"{n}a" for n in range(1, 7)]
    st, ev = do(st, "ann", "move direction:E distance:2")
    assert st.pending is None and any("brings nothing" in e for e in ev)


def test_with_several_heroes_choosing_each_upgrade_button_says_what_it_gives_and_to_whom():
    """Play-test: "[1] you: Tile 1A | [2] you: Tile 1B" named no effect while two players chose at once."""
    st = round_end()
    assert sorted(E.status(st).to_act) == ["ann", "bob"]
    for p in ("ann", "bob"):
        for a in E.button_actions(st, p, E.legal_actions(st, p)):
            mine = E.label(st, a, player=p)  # the button's owner known: that hero's side alone
            assert mine == upgrade_label(st, hero(st, p), a) and ": " in mine
            shared = E.label(st, a)  # the owner unknown: every chooser's effect, named where they differ
            effect = mine.split(": ", 1)[1]
            assert shared == mine or f"{effect} for {hero(st, p).name}" in shared, (shared, mine)
    one = Action.of("upgrade", tile="2", side="b")  # ann's Crush, bob's something else
    assert E.label(st, one, player="ann") == "Tile 2B: Crush"
    assert E.label(st, one).startswith("Tile 2B: ") and "Crush for Ann" in E.label(st, one)
