"""Issue 18: an effect over an area is drawn in the recap: a monster's blast (and a hero's attack on everyone
adjacent or around a target) outlines the squares it reaches, with a burst at its centre and its number."""
from __future__ import annotations

import io
import os
from pathlib import Path

from dhelpers import scene
from PIL import Image

from games.core.grid import parse_label
from games.dungeon import ENGINE, bosses, sight, stats
from render import render_png
from render.recap import BLAST


def _blast_colour_pixels(png: bytes) -> int:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {colour: n for n, colour in img.getcolors(1 << 24) or []}.get(BLAST, 0)


def test_rule_a_monsters_blast_within_2_squares_is_drawn_as_the_area_it_reaches(dice):
    st = scene("ruby@N14", "magma_wyrm@N15")
    wyrm = st.monsters[0]
    dice.push("B2 B2 R3 R3", "B0 B0 B0")
    lines: list[str] = []
    before = len(st.marks)
    bosses.blast(st, wyrm, 2, lines)
    area = [m for m in st.marks[before:] if m.kind == "area"]
    assert len(area) == 1
    mark = area[0]
    assert mark.path[0] == "N15" and mark.text == "Magma Wyrm blasts within 2 squares"
    area_squares = {parse_label(lab) for lab in mark.path[1:]}
    assert set(stats.mfp(wyrm)) <= area_squares and parse_label("N14") in area_squares  # Ruby stands in it
    near = {(x, y) for x in range(9, 20) for y in range(9, 20) if sight.route(st, stats.mfp(wyrm), ((x, y),), 2) <= 2}
    assert area_squares == near  # exactly the squares 2 steps away by the route (walls in the way count)
    assert any(m.kind == "attack" for m in st.marks[before:])  # the attack on Ruby is drawn as well

    engine = ENGINE
    drawn = render_png("dungeon", engine.view(st, None))
    st.marks = [m for m in st.marks if m.kind != "area"]
    plain = render_png("dungeon", engine.view(st, None))
    assert drawn is not None and plain is not None
    Path("/tmp/ux_blast.png").write_bytes(drawn) if os.environ.get("PLAYPOST_LOOK") else None
    assert _blast_colour_pixels(drawn) > _blast_colour_pixels(plain) + 200  # the outline and the burst
