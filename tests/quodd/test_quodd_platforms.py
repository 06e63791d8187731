"""Moving platforms (rulebook: Moving Platforms, How Platforms Work; End-of-Round step 1 order)."""
from __future__ import annotations

from qhelpers import build

from games.core import Event
from games.quodd import data, scenarios
from games.quodd.board import is_pit
from games.quodd.platforms import upkeep_platforms
from games.quodd.state import Bomb, Platform, QState, Sheep, Token
from games.quodd.upkeep import upkeep

CHASM = [".........", ".........", "OOOOOOOOO", "OOOOOOOOO", ".........", "........."]


def chasm(*platforms: Platform, heroes: list[dict] | None = None) -> QState:
    st = build(CHASM, heroes=heroes or [dict(pos="I6")])
    st.platforms = list(platforms)
    return st


def texts(ev: list[Event]) -> list[str]:
    return [e.text for e in ev]


def test_a_platform_covers_the_pit_so_heroes_stand_on_it():
    st = chasm(Platform(cells=["C3", "D3"], kind="slide", dir="E"))
    assert not is_pit(st, (2, 2)) and is_pit(st, (4, 2))


def test_sliding_platform_moves_one_space_the_way_its_arrow_points_carrying_heroes_and_tokens():
    """Sliding platforms move 1 space in the arrow's direction, with whatever is on them."""
    st = chasm(Platform(cells=["C3", "D3"], kind="slide", dir="E"), heroes=[dict(pos="C3"), dict(pos="I6")])
    st.tokens["D3"] = Token(kind="spring")
    st.ground["C3"] = ["plain-crystal"]
    st.sheep = [Sheep(at="D3", colour="grey", facing="S")]
    upkeep_platforms(st, [])
    assert st.platforms[0].cells == ["D3", "E3"]
    assert st.heroes[0].pos == "D3" and st.heroes[0].front == "E"  # a slide does not spin the hero
    assert "E3" in st.tokens and "D3" not in st.tokens and st.ground == {"D3": ["plain-crystal"]}
    assert st.sheep[0].at == "E3"


def test_a_blocked_sliding_platform_turns_its_arrow_around_and_moves_back_next_round():
    """Blocked (the edge, solid ground, another platform): the arrow turns 180 degrees; next round it moves."""
    st = chasm(Platform(cells=["H3", "I3"], kind="slide", dir="E"))
    ev: list[Event] = []
    upkeep_platforms(st, ev)
    assert st.platforms[0].cells == ["H3", "I3"] and st.platforms[0].dir == "W"
    assert "cannot slide E (the edge of the map)" in texts(ev)[0]
    upkeep_platforms(st, ev)
    assert st.platforms[0].cells == ["G3", "H3"]
    st = chasm(Platform(cells=["C3"], kind="slide", dir="N"))
    upkeep_platforms(st, [])
    assert st.platforms[0].dir == "S" and st.platforms[0].cells == ["C3"]  # ground at C2 stops it
    st = chasm(Platform(cells=["C3"], kind="slide", dir="E"), Platform(cells=["D3"], kind="slide", dir="N"))
    upkeep_platforms(st, [])  # C3 first (west): D3 is another platform, so it turns; then D3 hits ground
    assert [(p.cells, p.dir) for p in st.platforms] == [(["C3"], "W"), (["D3"], "S")]


def test_platforms_move_from_the_north_west_row_by_row():
    """Upkeep for platforms works as for sheep: north-west first, west to east, then down the board."""
    st = chasm(Platform(cells=["D4"], kind="slide", dir="N"), Platform(cells=["C3"], kind="slide", dir="E"))
    upkeep_platforms(st, [])  # C3 (north) goes first into D3; then D4 finds D3 covered and turns
    assert [(p.cells, p.dir) for p in st.platforms] == [(["D4"], "S"), (["D3"], "E")]


def test_rotating_platform_turns_a_quarter_around_its_token_and_heroes_spin_with_it():
    """Rotating platforms turn 90 degrees around the token, the way its arrows show."""
    st = chasm(Platform(cells=["D3", "E3"], kind="rotate", dir="cw", pivot="D3"),
               heroes=[dict(pos="E3", front="E"), dict(pos="I6")])
    st.bombs = [Bomb(at="D3", dir="E", kind="standard")]
    upkeep_platforms(st, [])
    assert sorted(st.platforms[0].cells) == ["D3", "D4"]
    assert st.heroes[0].pos == "D4" and st.heroes[0].front == "S"
    assert st.bombs[0].dir == "S"


def test_a_blocked_rotating_platform_waits():
    """A rotating platform that is obstructed does nothing until it is free."""
    st = chasm(Platform(cells=["D3", "D4"], kind="rotate", dir="cw", pivot="D3"))
    ev: list[Event] = []
    upkeep_platforms(st, ev)  # D4 would swing to C3... (south of the pivot turns west): C3 is a pit: free
    assert sorted(st.platforms[0].cells) == ["C3", "D3"]
    upkeep_platforms(st, ev)  # C3 would swing to D2: solid ground, so it waits
    assert sorted(st.platforms[0].cells) == ["C3", "D3"] and st.platforms[0].dir == "cw"
    assert "cannot turn (solid ground at D2); it waits" in texts(ev)[-1]


def test_upkeep_moves_platforms_after_bombs_and_before_sheep():
    """End-of-Round step 1: bombs, then platforms, then sheep. The platform slides first, so the sheep that
    stood on it rides along to D3 and then walks north to D2 (had it walked first, it would be on C2)."""
    st = chasm(Platform(cells=["C3"], kind="slide", dir="E"))
    st.sheep = [Sheep(at="C3", colour="grey", facing="N")]
    upkeep(st, [])
    assert st.platforms[0].cells == ["D3"]
    assert (st.sheep[0].at, st.sheep[0].facing) == ("D2", "N")


def test_scenario_platforms_cover_pits_only_and_rotate_around_their_own_cell():
    base = data.scenarios()["pasture"]
    data.check_scenario(base)
    for bad in ({"cells": ["A1"], "kind": "slide", "dir": "E"},
                {"cells": [base.platforms[0].cells[0]], "kind": "slide", "dir": "cw"},
                {"cells": [base.platforms[0].cells[0]], "kind": "rotate", "dir": "cw", "pivot": "A1"}):
        sc = base.model_copy(update={"platforms": [scenarios.PlatformPlacement(**bad)]})  # type: ignore[arg-type]
        try:
            data.check_scenario(sc)
        except data.RulesDataError as exc:
            assert "platform" in str(exc)
        else:
            raise AssertionError(bad)
