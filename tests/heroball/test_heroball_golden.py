"""Golden images: two board pictures whose PNG bytes are pinned.

A change to render/heroball (or to what the view carries) that alters the picture fails here.
When the change is on purpose, look at the new images and regenerate them:

    HEROBALL_GOLDEN=update .venv/bin/python -m pytest tests/heroball/test_heroball_golden.py

then open tests/heroball/golden/*.png, check them by eye, and commit them with the renderer change.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hb_helpers import build, do

from games.heroball import ENGINE as E
from golden import check_golden
from render.heroball import render

GOLDEN = Path(__file__).parent / "golden"


def midgame():
    """Four seats, every terrain, the Godball held, Calypso knocked down, Achilles with his pole, a traced move."""
    s = build("Gorgo@G6 ball, Calypso@H8 down, Achilles@C4 pole, Perseus@J10",
              terrain="G9=water C5=forest H3=astral-turf K6=mountain E9=populated I10=wasteland")
    s.turn.trail = ["F5", "G5", "G6"]
    s.heroes[0].spent = ["step", "run"]
    s.heroes[1].score, s.heroes[3].score = 2, 1
    return s


def intercept_window():
    """Two seats: Calypso threw the Godball to G8 and Pegasus is asked whether to catch it; the pole lies loose."""
    s = build("Calypso@G6 ball, Pegasus@G9", terrain="H9=forest")
    s.objects["pole"] = s.objects["ball"].model_copy(update={"at": "F8", "holder": None})
    s, _ = do(s, "calypso", "throw to:G8")
    assert s.window is not None and s.window.queue == ["pegasus"]
    return s


def _push(s, attacker):
    return next(a.text() for a in E.legal_actions(s, attacker) if a.cmd == "push")


def recap_push_and_throw():
    """Issue 18: Calypso's board after Gorgo's turn: his step, his push of Calypso (H6 to H7) and his throw
    to E7, numbered 1-3 on the field and in the legend below it."""
    s = build("Gorgo@G5 ball, Calypso@H6, Perseus@D8", terrain="G9=water C5=forest",
              orders="calypso:defend=never perseus:intercept=never calypso:intercept=never")
    for text in ("step to:G6", "push target:Calypso to:H7", "throw obj:ball to:E7", "end"):
        s, _ = do(s, "gorgo", text)
    return s


def defend_pending():
    """Issue 18: Calypso is asked to defend: the push she may stop is drawn (the '!' arrow) with Gorgo's moves."""
    s = build("Gorgo@G6, Calypso@G7 ball, Perseus@D8")
    for text in ("step to:F6", "run to:G6", "push target:Calypso to:F7"):
        s, _ = do(s, "gorgo", text)
    assert s.window is not None and s.window.kind == "defend"
    return s


def game_over():
    """Issue 18: the last turn of the last round ends: the final image carries the result banner."""
    s = build("Gorgo@G6 score=3, Calypso@G8 score=1", active=1)
    s.round = E.rules.house.rounds
    s, _ = do(s, "calypso", "step to:G9")
    s, _ = do(s, "calypso", "end")
    assert s.phase == "over"
    return s


SCENES = {"midgame": midgame, "intercept_window": intercept_window, "recap_push_and_throw": recap_push_and_throw,
          "defend_pending": defend_pending, "game_over": game_over}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_board_image_matches_the_pinned_golden_png(name, tmp_path):
    check_golden(render(E.view(SCENES[name](), None)), GOLDEN / f"{name}.png", "HEROBALL_GOLDEN", tmp_path,
                 "tests/heroball/test_heroball_golden.py")


def test_the_panel_names_the_acting_heros_ap_and_the_cost_of_each_action():
    """Issue 18: the panel gives the acting hero's AP and the house cost of each action (step, run, sprint, throw,
    drop, push, fumble, defend, intercept) and of terrain, as the engine charges them."""
    from render.heroball import cost_lines

    v = E.view(midgame(), None)
    gorgo = next(h for h in v.heroes if h.active)
    assert gorgo.name == "Gorgo" and gorgo.ap > 0
    first, second = cost_lines(v, gorgo)
    assert first.startswith(f"Gorgo has {gorgo.ap} of {gorgo.max_ap} AP.")
    for key in ("step", "run", "sprint", "throw", "drop", "push", "fumble", "defend", "intercept"):
        assert f"{key} {gorgo.costs[key]}" in first
        assert gorgo.costs[key] == getattr(E.costs, key)  # Gorgo has no card that changes a cost
    assert v.terrain_cost == E.costs.terrain and v.favoured_cost == E.costs.favoured
    assert f"adds {v.terrain_cost:+d} AP" in second and f"({v.favoured_cost:+d} on" in second


def test_in_a_reaction_window_the_panel_names_the_reactors_ap_and_defend_cost():
    """Issue 18: while Calypso may defend against Gorgo's push, the panel gives her AP and what defending (and
    intercepting) costs her, besides the turn's hero's costs."""
    from render.heroball import cost_lines

    v = E.view(defend_pending(), None)
    acting = next(h for h in v.heroes if h.active)
    calypso = next(h for h in v.heroes if h.reacting)
    assert acting.name == "Gorgo" and calypso.name == "Calypso" and not any(h.reacting for h in v.heroes if h.active)
    assert cost_lines(v, acting)[-1] == (f"Calypso may react with {calypso.ap} AP: defend {E.costs.defend}, "
                                         f"intercept {E.costs.intercept}.")
    assert not any(h.reacting for h in E.view(midgame(), None).heroes)
