"""The public view, export summary, rules reference and the board image."""
from __future__ import annotations

import io

from dhelpers import E, do, scene
from PIL import Image

from games.dungeon import stats
from render.common import SEAT_COLORS
from render.dungeon import render, square_at, square_size


def test_summary_names_level_turn_heroes_and_monsters():
    st = scene("ruby@B10:w2 candy@C10/bob", "gouger@J2:w0")
    stats.hero(st, "ruby").debuffs = ["poison"]
    s = E.summary(st)
    assert s["level"] == 1 and s["turn"] == 1
    ruby = s["players"][0]
    assert ruby["hero"] == "Ruby" and ruby["position"] == "B10" and ruby["wounds"] == 2
    assert ruby["potions"] == 1 and ruby["ap_left"] == 3 and ruby["debuffs"] == ["poison"]
    assert ruby["incapacitated"] is False and ruby["name"] == "Ann"
    assert s["monsters"] == [{"kind": "Gouger", "position": "J2", "wounds": 0}]


def test_rules_reference_covers_the_main_topics():
    topics = E.rules_topics()
    assert {"turn", "dice", "movement", "targeting", "levels", "loot", "debuffs"} <= set(topics)


def test_the_view_shows_the_side_panel_facts():
    st = scene("ruby@B10", "gouger@J2", pool=["knucklehead", "rex"])
    st, _ = do(st, "activate hero:ruby")
    v = E.view(st, None)
    assert v.next_spawn == "Knucklehead" and v.pool_left == 2
    assert v.heroes[0].active and v.heroes[0].ap_left == 3
    assert v.spawns[0].state == "active" and v.spawns[1].state == "inactive"
    assert v.aura  # the active spawn point's support aura is shown


def _pixel(png: bytes, view, label_xy: tuple[int, int]) -> tuple[int, int, int]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    px, py = square_at(view, *label_xy)
    c = square_size(view)
    return img.getpixel((px + c // 2 - 8, py + c // 2 + 6))


def test_board_image_is_deterministic_small_and_draws_the_heroes():
    """Render time is measured by the benchmark, not here: no test depends on the machine's speed."""
    st = scene("ruby@B10 candy@C10/bob", "gouger@J2 rex@E8")
    v = E.view(st, None)
    png = render(v)
    again = render(v)
    assert png == again and png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.width <= 800 and img.height <= 2000  # issue 18: narrow, with the panel below the map
    assert _pixel(png, v, (1, 9)) == SEAT_COLORS[0]
