"""Beams (rulebook: Token reference, Beam Emitter / Mover / Power Block / Reflector / Rotator; Beam Walls +
Gadgets; End-of-Round step 1 order)."""
from __future__ import annotations

from qhelpers import build, do

from games.core import Event
from games.quodd import ENGINE as E
from games.quodd import data, scenarios
from games.quodd.beams import light, upkeep_beams
from games.quodd.board import can_enter, jump_landing_ok
from games.quodd.movement import answer, run
from games.quodd.sheep import upkeep_sheep
from games.quodd.state import BeamPiece, Platform, QState, Sheep
from games.quodd.turns import end_round
from games.quodd.upkeep import ORDER

OPEN = ["........."] * 9


def lab(st: QState) -> list[str]:
    return sorted(st.lit)


def test_an_emitter_lights_a_line_up_to_the_next_wall_or_the_edge():
    """Beam Emitter: an impassable wall between it and the next surface (a wall or the edge)."""
    st = build(OPEN, tokens={"F5": "wall"}, heroes=[dict(pos="A1")])
    st.beams = [BeamPiece(at="B5", kind="emitter", dir="E"), BeamPiece(at="H2", kind="emitter", dir="S")]
    light(st, [])
    assert lab(st) == sorted(["C5", "D5", "E5", "H3", "H4", "H5", "H6", "H7", "H8", "H9"])


def test_a_beam_is_impassable_and_cannot_be_jumped_over():
    """Beam walls cannot be crossed or jumped over (above ground)."""
    st = build(OPEN, heroes=[dict(pos="B4")])
    st.beams = [BeamPiece(at="A5", kind="emitter", dir="E")]
    light(st, [])
    h = st.heroes[0]
    assert not can_enter(st, h, (1, 3), "S")
    assert not jump_landing_ok(st, (1, 3), "S", 1)
    assert can_enter(st, h, (1, 3), "E")


def test_turning_a_beam_on_destroys_common_tokens_but_not_walls_or_scenario_tokens():
    """A beam turned on destroys the non-wall, non-scenario tokens it passes over."""
    st = build(OPEN, tokens={"C5": "spring", "D5": "rally", "E5": "wall"}, heroes=[dict(pos="A1")])
    st.beams = [BeamPiece(at="A5", kind="emitter", dir="E")]
    ev: list[Event] = []
    light(st, ev)
    assert "C5" not in st.tokens and st.tokens["D5"].kind == "rally" and st.tokens["E5"].kind == "wall"
    assert lab(st) == ["B5", "C5", "D5"]


def test_a_hero_in_the_path_of_a_beam_respawns():
    """Beam Emitter: a hero in the beam's path when it turns on respawns at the nearest checkpoint."""
    rows = ["R........"] + ["........."] * 8
    st = build(rows, heroes=[dict(pos="D5"), dict(pos="I9")], phase="upkeep")
    st.beams = [BeamPiece(at="A5", kind="emitter", dir="E")]
    ev: list[Event] = []
    light(st, ev)
    run(st, ev)
    assert st.heroes[0].pos == "A1"
    assert "Ann is caught in the beam at D5 and respawns." in [e.text for e in ev]


def test_a_power_block_with_a_crystal_switches_its_emitters_on_and_off_without():
    """Beam Power Block: a crystal on it turns the connected emitters on; none turns them off. Active, it is
    impassable."""
    st = build(OPEN, heroes=[dict(pos="A1")], ground={"G7": ["plain-crystal"]})
    st.beams = [BeamPiece(at="G7", kind="power", group="p"), BeamPiece(at="B3", kind="emitter", dir="E", group="p",
                                                                      on=False)]
    light(st, [])
    assert st.beams[1].on and "C3" in st.lit and "G7" in st.lit
    st.ground = {}
    light(st, [])
    assert not st.beams[1].on and st.lit == []


def test_a_reflector_turns_the_beam_a_quarter_and_its_back_stops_it_and_turns_it():
    """Beam Reflector: deflects a beam 90 degrees; a beam on its back turns it 90 degrees (the way the first
    player chooses at the upkeep: `test_a_reflector_hit_on_the_back_turns_the_way_the_player_chooses`)."""
    st = build(OPEN, heroes=[dict(pos="A1")])
    st.beams = [BeamPiece(at="B5", kind="emitter", dir="E"), BeamPiece(at="E5", kind="reflector", dir="SW")]
    light(st, [])  # comes in from the west side of a mirror facing south and west: leaves southwards
    assert lab(st) == sorted(["C5", "D5", "E5", "E6", "E7", "E8", "E9"])
    st.beams[1].dir = "NE"  # the beam now hits its back
    ev: list[Event] = []
    upkeep_beams(st, ev)
    assert st.pending is not None and st.pending.kind == "reflector" and st.beams[1].dir == "NE"
    answer(st, "clockwise", ev)
    assert st.beams[1].dir == "SE"
    assert lab(st) == ["C5", "D5"]  # the turned mirror still shows its back to the west
    st.beams[1].on = False  # off: the beam passes
    light(st, [])
    assert "I5" in st.lit


def test_a_mover_in_a_beam_moves_its_platform_and_a_rotator_turns_it():
    """Beam Mover: moves the object it sits on 1 space the way of its arrow, each round. Beam Rotator: turns
    the object it sits on 90 degrees the way of its arrow."""
    rows = ["........."] * 3 + ["OOOOOOOOO"] * 3 + ["........."] * 3
    st = build(rows, heroes=[dict(pos="A1")])
    st.platforms = [Platform(cells=["D5", "E5"], kind="slide", dir="N")]
    st.beams = [BeamPiece(at="D2", kind="emitter", dir="S"), BeamPiece(at="D5", kind="mover", dir="E")]
    light(st, [])
    assert lab(st) == ["D3", "D4"]  # the mover stops the beam
    upkeep_beams(st, [])
    assert st.platforms[0].cells == ["E5", "F5"] and st.beams[1].at == "E5"
    assert lab(st) == sorted(["D3", "D4", "D5", "D6", "D7", "D8", "D9"])  # the beam now runs past
    st = build(rows, heroes=[dict(pos="A1")])
    st.platforms = [Platform(cells=["D5", "E5"], kind="slide", dir="N")]
    st.beams = [BeamPiece(at="D2", kind="emitter", dir="S"), BeamPiece(at="D5", kind="rotator", dir="cw")]
    upkeep_beams(st, [])
    assert sorted(st.platforms[0].cells) == ["D5", "D6"]


def test_sheep_do_not_walk_into_beams_and_a_beam_turning_on_loses_a_sheep():
    st = build(OPEN, heroes=[dict(pos="A1")])
    st.beams = [BeamPiece(at="A5", kind="emitter", dir="E")]
    light(st, [])
    st.sheep = [Sheep(at="C6", colour="grey", facing="N")]
    upkeep_sheep(st, [])
    assert (st.sheep[0].at, st.sheep[0].facing) == ("C6", "E")
    st.sheep = [Sheep(at="C4", colour="grey", facing="N"), Sheep(at="F5", colour="white", facing="N")]
    st.lit = []
    light(st, [])
    assert [s.at for s in st.sheep] == ["C4"]


def test_beams_take_their_turn_after_platforms_and_before_sheep():
    assert [k for k, _ in ORDER] == ["bombs", "platforms", "beams", "sheep"]


def test_scenario_beam_gadgets_are_checked_at_load():
    base = data.scenarios()["pasture"]
    for bad, why in (({"at": "C4", "kind": "emitter", "dir": "NE"}, "dir"),
                     ({"at": "C5", "kind": "emitter", "dir": "E"}, "ground or platforms"),
                     ({"at": "B3", "kind": "emitter", "dir": "E", "group": "x"}, "no power block")):
        try:
            data.check_scenario(base.model_copy(update={"beams": [scenarios.BeamPlacement(**bad)]}))  # type: ignore[arg-type]
        except (data.RulesDataError, ValueError) as exc:
            assert why in str(exc)
        else:
            raise AssertionError(bad)


def test_a_hero_caught_in_a_beam_respawns_at_the_nearest_respawn_point_not_in_a_beam():
    """Beam Emitter: the hero respawns at the nearest checkpoint; one under a beam is no place to stand."""
    rows = ["R...R...."] + ["........."] * 8
    st = build(rows, heroes=[dict(pos="D5"), dict(pos="I9")], phase="upkeep")
    st.beams = [BeamPiece(at="A5", kind="emitter", dir="E"), BeamPiece(at="E3", kind="emitter", dir="N")]
    light(st, [])
    run(st, [])
    assert "E1" in st.lit and st.heroes[0].pos == "A1"  # E1 is nearer to D5, but a beam crosses it


def _back_hit_at_the_end_of_the_round(first: int = 0) -> QState:
    """Two heroes; the last turn of the round ends with a beam on the back of the reflector at E5."""
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="A9")], phase="explore")
    st.beams = [BeamPiece(at="B5", kind="emitter", dir="E"), BeamPiece(at="E5", kind="reflector", dir="NE")]
    st.sheep = [Sheep(at="H8", colour="grey", facing="E")]
    light(st, [])
    st.first, st.turn = first, 1 - first
    st.pending = None
    return st


def test_a_reflector_hit_on_the_back_turns_the_way_the_player_chooses():
    """Beam Reflector: a beam on its back turns it 90 degrees in the direction of the active player's choice. At
    the end-of-round upkeep the first player chooses (house: the rulebook's rule for end-of-round choices), with a
    button each way; the upkeep waits for the answer (the sheep walk after it), then the round goes on."""
    st = _back_hit_at_the_end_of_the_round()
    ev: list[Event] = []
    end_round(st, ev)
    assert st.pending is not None and st.pending.kind == "reflector" and st.pending.player == "ann"
    assert E.phase_of(st) == "decide" and st.sheep[0].at == "H8"  # the sheep wait: they come after the beams
    labels = {E.label(st, a) for a in E.legal_actions(st, "ann")}
    assert labels == {"Turn ↻", "Turn ↺"}
    assert E.legal_actions(st, "bob") == []
    st, texts = do(st, "ann", "choose option:counter-clockwise")
    assert st.beams[1].dir == "NW" and st.pending is None
    assert "The beam hits the back of the reflector at E5; it turns a quarter counter-clockwise." in texts
    # the mirror now faces north and west: the beam from the west leaves northwards (clockwise would have shown
    # it the back again, as in the test above)
    assert lab(st) == sorted(["C5", "D5", "E5", "E4", "E3", "E2", "E1"])
    assert st.sheep[0].at == "I8" and st.phase == "upgrade"  # the upkeep went on, then the round (step 4)


def test_a_reflector_question_off_the_first_players_turn_times_out_to_clockwise():
    """A sensible default under deadlines: the first answer, clockwise (what the table did before it asked)."""
    st = _back_hit_at_the_end_of_the_round(first=1)  # bob holds the coin; ann played last
    end_round(st, [])
    assert st.pending is not None and st.pending.player == "bob"
    pending = E.pending(st)
    assert pending is not None and pending.default is not None
    assert pending.default.get("option") == "clockwise" and pending.hours == data.house().decision_hours


def test_two_reflectors_hit_on_the_back_are_asked_one_after_the_other_north_to_south():
    st = _back_hit_at_the_end_of_the_round()
    st.beams += [BeamPiece(at="B2", kind="emitter", dir="E"), BeamPiece(at="F2", kind="reflector", dir="SE")]
    light(st, [])
    end_round(st, [])
    assert st.pending is not None and st.pending.job is not None and st.pending.job.at == "F2"
    st, _ = do(st, "ann", "choose option:clockwise")
    assert st.beams[3].dir == "SW" and st.pending is not None and st.pending.job is not None
    assert st.pending.job.at == "E5"
    st, _ = do(st, "ann", "choose option:clockwise")
    assert st.beams[1].dir == "SE" and st.pending is None


def _back_hit_in_anns_turn() -> QState:
    """Ann's power phase: a crystal dropped on the power block at B3 switches on the emitter at B5, whose beam
    meets the reflector at E5 on its back."""
    st = build(OPEN, heroes=[dict(pos="A3", carrying=["plain-crystal"]), dict(pos="A9")], phase="power")
    st.beams = [BeamPiece(at="B3", kind="power", group="p", on=False),
                BeamPiece(at="B5", kind="emitter", dir="E", group="p", on=False),
                BeamPiece(at="E5", kind="reflector", dir="NE")]
    light(st, [])
    st.turn, st.first = 0, 1  # ann's turn; bob holds the first player coin
    return st


def test_a_reflector_hit_on_the_back_during_a_turn_is_the_active_players_question_at_once():
    """Beam Reflector: the active player chooses which way it turns, at the moment the beam hits its back (not at
    the upkeep, and not the first player); then the turn goes on."""
    st = _back_hit_in_anns_turn()
    assert st.lit == [] and st.backs == []
    st, _ = do(st, "ann", "drop item:plain-crystal at:B3")
    assert st.pending is not None and st.pending.kind == "reflector" and st.pending.player == "ann"
    assert st.pending.job is not None and st.pending.job.at == "E5" and E.legal_actions(st, "bob") == []
    assert {E.label(st, a) for a in E.legal_actions(st, "ann")} == {"Turn ↻", "Turn ↺"}
    st, texts = do(st, "ann", "choose option:counter-clockwise")
    assert st.beams[2].dir == "NW" and st.pending is None and st.phase in ("power", "move")  # the turn goes on
    assert "The beam hits the back of the reflector at E5; it turns a quarter counter-clockwise." in texts
    assert {"E4", "E3", "E2", "E1"} <= set(st.lit)  # the beam now leaves northwards


def test_a_reflector_still_hit_on_the_back_after_its_turn_is_not_asked_again_in_that_turn():
    """Turned clockwise the reflector shows the beam its back again: the question is not asked over and over
    (only a reflector newly hit on the back is); the upkeep asks the first player about it as before."""
    st = _back_hit_in_anns_turn()
    st, _ = do(st, "ann", "drop item:plain-crystal at:B3")
    st, _ = do(st, "ann", "choose option:clockwise")
    assert st.pending is None and st.backs == ["E5"] and st.phase in ("power", "move")
    run(st, [])
    assert st.pending is None
