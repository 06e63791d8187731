"""Golden images of the dungeon board (issue 16/18), PNG bytes pinned: a monster turn drawn on the map (a hero's
move and attack, a monster's attack that hits, a monster's path, a spawn), the map cropped to the explored part,
and the game-over banner. When a change is on purpose, look at the new images and regenerate them:

    DUNGEON_GOLDEN=update .venv/bin/python -m pytest tests/dungeon/test_dungeon_golden.py
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from dhelpers import do, legal, scene
from PIL import Image

from games.dungeon import ENGINE as E
from golden import check_golden
from render.dungeon import render

GOLDEN = Path(__file__).parent / "golden"


def monster_turn():
    """Ruby moves D5-D6 and shoots the Knucklehead (letting the heart she rolls go); the monsters react: Rex hits
    Candy, the Gouger walks round the wall, a Knucklehead spawns at B2. Bob's board shows all of it, numbered."""
    st = scene("ruby@D5 candy@E6/bob", "gouger@E7 knucklehead@G5 rex@F6", pool=["knucklehead", "gouger", "flinger"])
    for text in ("activate hero:ruby", "move to:D6", "attack target:G5 with:ranged"):
        st, _ = do(st, text)
    while st.attack is not None:  # the roll's decisions (rerolls, hearts): take none
        st, _ = do(st, next((a for a in legal(st) if a.endswith(":none")), legal(st)[0]))
    st, _ = do(st, "end")
    return E.view(st, None)


def hero_acting():
    """Ruby is acting and has moved D5-D6: the panel shows her move (and what is left of it), her offence dice with
    each attack's range, her defence dice, and what each action costs in AP."""
    st = scene("ruby@D5 candy@E6/bob", "gouger@E7 knucklehead@G5 rex@F6", pool=["knucklehead", "gouger", "flinger"])
    for text in ("activate hero:ruby", "move to:D6"):
        st, _ = do(st, text)
    return E.view(st, None)


def game_over():
    v = monster_turn()
    return v.model_copy(update={"result": "Every hero is incapacitated: the Dark Consul wins.", "phase": "over"})


SCENES = {"monster_turn": monster_turn, "game_over": game_over, "hero_acting": hero_acting}


def test_the_panel_names_the_acting_heros_dice_ranges_and_action_costs():
    """Issue 16/18: the acting hero's move, offence dice per attack style (STR melee, DEX ranged, WILL magic, the
    game's stat names), ranges, defence dice (ARM; WILL against magic) and the house AP cost of each action."""
    from games.dungeon.data import content
    from render.dungeon import _acting_lines, _costs_line

    v = hero_acting()
    ruby = next(h for h in v.heroes if h.active)
    assert ruby.move > 0 and 0 < ruby.move_left < ruby.move and ruby.attacks and set(ruby.dice) == {
        "STR", "ARM", "WILL", "DEX"}
    lines = _acting_lines(ruby)
    assert lines[0].startswith(f"Move {ruby.move} squares") and f"{ruby.move_left} left" in lines[0]
    for style, rng in ruby.attacks.items():
        stat = {"melee": "STR", "ranged": "DEX", "magic": "WILL"}[style]
        assert f"{style} {stat} {ruby.dice[stat]} range {rng}" in lines[1]
    assert lines[2] == f"Defence: ARM {ruby.dice['ARM']}, WILL {ruby.dice['WILL']} against magic"
    twin = content().unique["twin_strike"]
    assert ruby.unique == {twin.name: (twin.ap, twin.range)}  # her own action, from the data
    assert lines[3] == f"Own actions: {twin.name} {twin.ap} AP range {twin.range}"
    costs = content().rules.ap_costs
    text = _costs_line(v.ap_costs)
    assert f"move action {costs['move']}," in text and f"brew {costs['brew']}," in text
    assert f"attack {costs['melee']}," in text and f"potion {costs['potion']}," in text
    assert not any(h.active for h in monster_turn().heroes)  # between activations nobody's lines are drawn


def test_the_monster_turn_is_recorded_for_the_image():
    v = monster_turn()
    kinds = [(m.kind, m.who, m.hit) for m in v.recent]
    assert ("move", "Ruby", None) in kinds and ("attack", "Ruby", True) in kinds
    assert ("attack", "Rex", True) in kinds and ("move", "Gouger", None) in kinds
    assert ("spawn", "Knucklehead", None) in kinds


def test_the_image_shows_only_the_explored_part_of_the_map():
    """Issue 16: on level 1 the image crops to its quarter (plus a margin), not the whole 24x24 map."""
    v = monster_turn()
    x0, y0, x1, y1 = v.explored
    assert (x0, y0) == (0, 0) and x1 < v.width - 6 and y1 < v.height - 6
    full = render(v.model_copy(update={"explored": (0, 0, v.width - 1, v.height - 1)}))
    assert Image.open(io.BytesIO(render(v))).width < Image.open(io.BytesIO(full)).width


@pytest.mark.parametrize("name", sorted(SCENES))
def test_board_image_matches_the_pinned_golden_png(name, tmp_path):
    check_golden(render(SCENES[name]()), GOLDEN / f"{name}.png", "DUNGEON_GOLDEN", tmp_path,
                 "tests/dungeon/test_dungeon_golden.py")
