"""Sheep and the end-of-round board upkeep (rulebook: End-of-Round Phase step 1, Board Upkeep;
Sheep: Managing the Flock, rules 1-9 and the grey, white and black sheep)."""
from __future__ import annotations

import pytest
from pydantic import ValidationError
from qhelpers import build, do

from games.core import Event
from games.core.grid import label
from games.quodd import ENGINE as E
from games.quodd import data, scenarios, upkeep
from games.quodd.board import center_facing, xy
from games.quodd.bombs import roll
from games.quodd.movement import answer, run
from games.quodd.sheep import upkeep_sheep
from games.quodd.state import Bomb, Job, QState, Sheep
from render.quodd import render

OPEN = ["........."] * 9


def flock(st: QState, *sheep: tuple[str, str, str]) -> QState:
    st.sheep = [Sheep(at=at, colour=colour, facing=facing) for at, colour, facing in sheep]
    return st


def where(st: QState) -> list[tuple[str, str, str]]:
    return [(s.at, s.colour, s.facing) for s in st.sheep]


def texts(ev: list[Event]) -> list[str]:
    return [e.text for e in ev]


# ---- the upkeep order -----------------------------------------------------------------------

def test_upkeep_order_is_bombs_then_platforms_then_beams_then_sheep():
    """End-of-Round step 1: bombs, moving platforms, beam elements, sheep (the ones built so far, in order)."""
    rulebook = ["bombs", "platforms", "beams", "sheep"]
    built = [k for k, _ in upkeep.ORDER]
    assert built == [k for k in rulebook if k in built] and built[0] == "bombs" and built[-1] == "sheep"


def test_upkeep_rolls_the_bomb_before_the_sheep_walks():
    """Bombs before sheep: a bomb rolling to B5 stops there first, so the grey sheep at A5 finds it in its way
    and turns instead of walking into B5 (if the sheep went first, it would stand on B5)."""
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("A5", "grey", "E"))
    st.bombs = [Bomb(at="B1", dir="S", kind="standard")]  # speed 4: B2..B5
    ev: list[Event] = []
    upkeep.upkeep(st, ev)
    assert st.bombs[0].at == "B5"
    assert where(st) == [("A5", "grey", "S")]
    t = texts(ev)
    assert t.index("The standard bomb stops at B5; it rolls on S at the end of the round.") < \
        t.index("The grey sheep at A5 cannot walk E and turns to face S.")


def test_sheep_move_north_to_south_then_west_to_east():
    """Sheep rule 2: the sheep further north goes first, then west before east. The white sheep on C1 walks
    south into C2 before the grey sheep on B2 (further south) may walk east into it: the grey one must turn."""
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("B2", "grey", "E"), ("C1", "grey", "S"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    assert sorted(where(st)) == [("B2", "grey", "S"), ("C2", "grey", "S")]
    t = texts(ev)
    assert t.index("The grey sheep walks S to C2.") < t.index("The grey sheep at B2 cannot walk E and turns to face S.")
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("D1", "grey", "W"), ("B1", "grey", "E"))
    upkeep_sheep(st, [])  # same row: B1 (west) goes first into C1, so D1 finds it in the way and turns
    assert sorted(where(st)) == [("C1", "grey", "E"), ("D1", "grey", "N")]


def test_end_of_round_runs_the_sheep_upkeep():
    """The end of the round (turns.end_round) moves the flock in step 1."""
    st = build(OPEN, heroes=[dict(pos="A1"), dict(pos="I9")], phase="explore")
    st.turn = 1
    flock(st, ("E5", "white", "N"))
    from games.quodd.turns import end_turn
    ev: list[Event] = []
    end_turn(st, ev)
    assert where(st) == [("E3", "white", "N")]


# ---- the three colours ----------------------------------------------------------------------

def test_grey_sheep_walks_one_space_a_round():
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("E5", "grey", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E4", "grey", "N")]


def test_white_sheep_walks_two_spaces_and_a_blocked_point_turns_it_clockwise():
    """White sheep: 2 a round; blocked, it turns 90 degrees clockwise instead of stepping."""
    st = flock(build(OPEN, tokens={"E3": "wall"}, heroes=[dict(pos="I9")]), ("E5", "white", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E4", "white", "E")]  # one step, then the wall: it turns right


def test_grey_and_white_sheep_are_blocked_by_heroes_sheep_walls_pits_crystals_and_the_edge():
    """Grey and white sheep: blocked by heroes, sheep, walls, pits, crystals (and the edge); they turn right."""
    rows = ["........."] * 3 + ["....O...."] + ["........."] * 5
    cases = {"hero": "E4", "sheep": "E4", "wall": "E4", "crystal": "E4", "pit": "E5", "edge": "E1"}
    for blocker, at in cases.items():
        for colour in ("grey", "white"):
            st = build(rows, heroes=[dict(pos="E3" if blocker == "hero" else "I9")],
                       tokens={"E3": "wall"} if blocker == "wall" else None,
                       ground={"E3": ["plain-crystal"]} if blocker == "crystal" else None)
            flock(st, (at, colour, "N"))
            if blocker == "sheep":  # a sheep further north that cannot move either (walled in on E, N and W)
                st.sheep.insert(0, Sheep(at="E3", colour="grey", facing="N"))
                for lab in ("E2", "F3", "D3"):
                    st.tokens[lab] = st.tokens.get(lab) or _wall()
            upkeep_sheep(st, [])
            mine = st.sheep[-1]
            # grey: its one point turns it right; white: the first point turns it, the second walks east
            want = at if colour == "grey" else label(xy(at)[0] + 1, xy(at)[1])
            assert (mine.at, mine.facing) == (want, "E"), (blocker, colour)


def _wall():  # noqa: ANN202
    from games.quodd.state import Token
    return Token(kind="wall")


def test_black_sheep_walks_three_and_pushes_heroes_sheep_and_crystals():
    """Black sheep: 3 a round, pushing heroes, sheep and crystals along as it goes."""
    st = build(OPEN, heroes=[dict(pos="B5"), dict(pos="I9")], ground={"C5": ["plain-crystal"]})
    flock(st, ("A5", "black", "E"), ("D5", "grey", "S"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    run(st, ev)
    black = next(s for s in st.sheep if s.colour == "black")
    grey = next(s for s in st.sheep if s.colour == "grey")
    assert (black.at, black.facing) == ("D5", "E")
    assert st.heroes[0].pos == "E5" and st.ground == {"F5": ["plain-crystal"]}
    assert grey.at == "G6"  # pushed from D5 to G5, then it walks its own point (it goes after A5)


def test_black_sheep_pushes_a_hero_into_a_pit_but_never_walks_into_one():
    """Sheep rule 5: pits are obstacles to a sheep, but what it pushes can fall in."""
    rows = ["........."] * 4 + ["...O....."] + ["........."] * 4
    st = build(rows, heroes=[dict(pos="C5"), dict(pos="I9")])
    flock(st, ("B5", "black", "E"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    assert where(st) == [("C6", "black", "S")]  # pushed Ann into D5; the pit stops it: it turns, walks S
    run(st, ev)
    assert any("falls" in e or "pit" in e for e in texts(ev))


def test_black_sheep_is_stopped_when_the_line_it_pushes_meets_a_wall():
    st = build(OPEN, tokens={"D5": "wall"}, heroes=[dict(pos="C5"), dict(pos="I9")])
    flock(st, ("B5", "black", "E"))
    upkeep_sheep(st, [])
    assert st.heroes[0].pos == "C5"
    assert where(st) == [("B7", "black", "S")]  # the first point turns it, the other two walk south


# ---- board elements (rules 3, 6, 7, 8) ------------------------------------------------------

def test_sheep_are_carried_by_currents_and_turned_by_whirlpools():
    """Sheep rule 3: board elements they step on act on them."""
    rows = ["........."] * 4 + [".>..@...."] + ["........."] * 4
    st = flock(build(rows, heroes=[dict(pos="I9")]), ("A5", "grey", "E"), ("D6", "grey", "N"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    a, d = st.sheep
    assert (a.at, a.facing) == ("C5", "E")  # walked onto the current at B5, carried on to C5
    assert (d.at, d.facing) == ("D5", "N")
    st = flock(build(rows, heroes=[dict(pos="I9")]), ("E6", "grey", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E5", "grey", "E")]  # the whirlpool turns it a quarter clockwise


def test_sheep_on_a_spring_springs_the_way_it_walks_even_into_a_pit():
    """Sheep rule 7."""
    st = flock(build(OPEN, tokens={"E4": "spring"}, heroes=[dict(pos="I9")]), ("E5", "grey", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E2", "grey", "N")]
    rows = ["....O...."] + ["........."] * 8
    st = flock(build(rows, tokens={"E3": "spring"}, heroes=[dict(pos="I9")]), ("E4", "grey", "N"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    assert st.sheep == [] and "The grey sheep springs N into a pit and is lost." in texts(ev)


def test_sheep_teleported_off_the_west_edge_is_lost_off_the_map():
    """Sheep rule 6 at the edge: a teleporter that sends the sheep past the board's west edge loses it off the map
    (a square there has no label: naming it before the edge check looped for ever and hung a random game)."""
    seed = next(s for s in range(10_000) if _dice(s) == (7, 3))  # W, 3 spaces: from B5 to two columns off the map
    st = flock(build(OPEN, tokens={"B5": "teleporter"}, heroes=[dict(pos="I9")], seed=seed), ("B6", "grey", "N"))
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    assert st.sheep == [] and "The grey sheep teleports 3 W off the map and is lost." in texts(ev)


def test_sheep_on_a_teleporter_rolls_the_direction_and_the_distance():
    """Sheep rule 6: both dice decide where it goes (the direction die d8, then the teleporter die)."""
    seed = next(s for s in range(10_000) if _dice(s) == (3, 2))  # E, 2 spaces
    st = flock(build(OPEN, tokens={"C5": "teleporter"}, heroes=[dict(pos="I9")], seed=seed), ("C6", "grey", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E5", "grey", "N")]


def _dice(seed: int) -> tuple[int, int]:
    from games.core import Rng
    r = Rng(seed=seed)
    return r.d(8), r.d(6)


def test_sheep_cannot_use_tunnels():
    """Sheep rule 8: a tunnel is plain ground to a sheep."""
    st = flock(build(OPEN, tokens={"E4": "tunnel:t1", "A1": "tunnel:t1"}, heroes=[dict(pos="I9")]),
               ("E5", "white", "N"))
    upkeep_sheep(st, [])
    assert where(st) == [("E3", "white", "N")]


# ---- picking sheep up (rules 4 and 9) ----------------------------------------------------------

def test_a_hero_picks_up_a_sheep_by_stopping_on_it_not_by_passing():
    """Sheep rule 9: land on the sheep's space to pick it up."""
    st = flock(build(OPEN, heroes=[dict(pos="A1"), dict(pos="I9")]), ("B1", "grey", "S"), ("C1", "white", "S"))
    st.queue = [Job(kind="step", hero="ann", dir="E", how="slide"), Job(kind="step", hero="ann", dir="E", how="slide"),
                Job(kind="land", hero="ann")]
    run(st, [])
    assert st.heroes[0].pos == "C1" and st.heroes[0].carrying == ["white-sheep"]
    assert where(st) == [("B1", "grey", "S")]


def test_a_sheep_coming_down_on_a_hero_is_picked_up_and_walks_again_once_set_down():
    """Sheep rule 4 (a spring lands the sheep on Ann, who has room); a sheep set down walks again."""
    st = flock(build(OPEN, tokens={"E4": "spring"}, heroes=[dict(pos="E2"), dict(pos="I9")]), ("E5", "grey", "N"))
    upkeep_sheep(st, [])
    assert st.sheep == [] and st.heroes[0].carrying == ["grey-sheep"]
    st.heroes[0].carrying = []
    st.ground["G7"] = ["grey-sheep"]
    upkeep_sheep(st, [])
    assert where(st) == [("G6", "grey", "N")] and st.ground == {}


def test_a_bomb_hitting_a_sheep_throws_it_two_spaces_and_explodes_where_it_stood():
    """Bombs collide with animals: the sheep jumps two spaces away, the explosion is centred on its square."""
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("B4", "grey", "N"))
    ev: list[Event] = []
    roll(st, Bomb(at="B1", dir="S", kind="standard"), ev)
    assert where(st) == [("B6", "grey", "N")]
    assert "An explosion at B4 breaks walls and scatters tokens around it." in texts(ev)


def test_a_trap_door_opening_under_a_sheep_loses_it():
    """Trap Door: any hero, sheep or crystal on the door when it opens is lost."""
    from games.quodd.elements import flip_group
    st = flock(build(OPEN, tokens={"E5": "trap_door:g"}, heroes=[dict(pos="I9")]), ("E5", "grey", "N"))
    flip_group(st, "g", [])
    assert st.sheep == []


def test_the_flock_survives_a_save_and_old_saves_load_without_sheep():
    st = flock(build(OPEN, heroes=[dict(pos="I9")]), ("E5", "black", "W"))
    again = QState.model_validate_json(st.model_dump_json())
    assert where(again) == [("E5", "black", "W")]
    raw = st.model_dump()
    del raw["sheep"]
    assert QState.model_validate(raw).sheep == []


def test_a_game_without_sheep_saves_exactly_as_before_the_flock_existed():
    """Save format: the new field is left out while empty, so older games' saves (and their pinned hashes) stay."""
    st = build(OPEN, heroes=[dict(pos="I9")])
    assert '"sheep"' not in st.model_dump_json()
    flock(st, ("E5", "grey", "N"))
    assert '"sheep"' in st.model_dump_json()


def test_an_explosion_throws_a_sheep_next_to_it_over_one_space_and_a_pit_loses_it():
    """Basic explosion: what is next to the centre jumps over 1 space directly away (sheep as heroes)."""
    from games.quodd.elements import explode
    rows = ["........."] * 4 + ["........O"] + ["........."] * 4
    st = flock(build(rows, heroes=[dict(pos="A1")]), ("E4", "grey", "N"), ("G5", "white", "S"))
    explode(st, (4, 4), [])  # centre E5: E4 is north of it, G5 is not next to it
    assert where(st) == [("E2", "grey", "N"), ("G5", "white", "S")]
    st = flock(build(rows, heroes=[dict(pos="A1")]), ("G5", "grey", "N"))
    explode(st, (5, 4), [])  # centre F5: G5 jumps east to I5, a pit
    assert st.sheep == []


def test_rules_topics_explain_sheep_platforms_and_beams():
    from games.quodd import ENGINE
    topics = ENGINE.rules_topics()
    assert "grey 1 space, white 2, black 3" in topics["sheep"]
    assert "arrow turns around" in topics["platforms"] and "wall you cannot cross" in topics["beams"]
    assert "bombs, platforms, beams, sheep" in topics["turn"]


# ---- winds ----------------------------------------------------------------------------------

def test_random_wind_and_strong_wind_blow_the_sheep_as_they_slide_the_heroes():
    """Random Wind / Strong Wind (and the world events): a sheep slides like a hero once the heroes have slid,
    lost in a pit or off the map, stopped by what stands in its way."""
    from games.quodd.sweep import sweep
    rows = list(OPEN)
    rows[4] = "O........"  # a pit at A5
    st = flock(build(rows, heroes=[dict(pos="E1"), dict(pos="H8")]), ("F1", "white", "N"), ("G1", "grey", "S"),
               ("B2", "grey", "N"), ("C5", "black", "E"), ("D6", "grey", "N"))
    st.ground["B6"] = ["red-crystal"]
    ev: list[Event] = []
    sweep(st, "wind", "W", 2, ev, split=False)
    run(st, ev)
    assert st.heroes[0].pos == "C1" and st.heroes[1].pos == "F8"
    # the white sheep waits for Ann to slide away, then goes 2; the grey behind it follows; facings stay
    assert ("D1", "white", "N") in where(st) and ("E1", "grey", "S") in where(st)
    assert ("C6", "grey", "N") in where(st)  # the crystal on B6 stops it
    assert not [s for s in st.sheep if s.at in ("A2", "B2", "A5", "B5", "C5")]
    assert "The grey sheep is blown W off the map and is lost." in texts(ev)
    assert "The black sheep is blown W into a pit and is lost." in texts(ev)
    assert len(st.sheep) == 3 and not st.queue


# ---- rule 1: the first player chooses the facing of new sheep ----------------------------------------------

def _placed(scenario: str, n: int = 2, seed: int = 3) -> QState:
    from games.core import Seat
    st = E.setup({"scenario": scenario}, [Seat(player=p, name=p.capitalize()) for p in ("ann", "bob", "cat")[:n]],
                 seed)
    while st.phase == "place":
        st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    return st


def test_sheep_rule_1_the_first_player_chooses_each_new_sheeps_facing_once_the_heroes_are_placed():
    """Sheep rule 1 (flock: every sheep's facing is chosen): after the last hero is placed, the first player is
    asked for each sheep, north to south, a button a direction; skills are set once the flock faces somewhere."""
    st = _placed("flock")
    first = st.heroes[st.first].player
    assert [s.facing for s in st.sheep] == ["", "", ""]
    asked = []
    for way in ("S", "W", "E"):
        assert E.phase_of(st) == "decide" and st.pending.kind == "sheep_facing" and st.pending.player == first
        asked.append(st.pending.job.at)
        acts = E.legal_actions(st, first)
        assert [E.label(st, a) for a in E.button_actions(st, first, acts)] == [
            "Face N ↑", "Face E →", "Face S ↓", "Face W ←"]
        other = next(h.player for h in st.heroes if h.player != first)
        assert E.legal_actions(st, other) == []  # nobody sets skills before the flock faces somewhere
        st, out = do(st, first, f"choose option:{way}")
    assert asked == ["G2", "I8", "E9"]  # north to south
    assert where(st) == [("G2", "white", "S"), ("I8", "grey", "W"), ("E9", "black", "E")]
    assert st.phase == "skills" and st.pending is None and "put your skills on faces" in out[-1]


def test_sheep_rule_1_the_facing_question_has_a_deadline_that_faces_the_sheep_into_the_map():
    """Sheep rule 1 at the table: the question waits `decision_hours`, then faces the sheep towards the middle of
    the map (as heroes are placed); until it is answered the image draws the sheep without a head."""
    st = _placed("flock")
    p = E.pending(st)
    assert p.hours == data.house().decision_hours
    assert p.default.get("option") == center_facing(st, xy(st.pending.job.at)) == "E"
    assert E.timeout(st, {}) == (float(data.house().decision_hours), p.default)
    view = E.view(st, None)
    assert view.sheep[0].facing == "" and view.asked_about == "G2" and view.choice_squares == []  # outlined
    assert render(view)[:4] == b"\x89PNG"
    st, _ = do(st, st.pending.player, "choose option:E")  # what the deadline plays
    assert where(st)[0] == ("G2", "white", "E")


def test_sheep_rule_1_a_facing_the_scenario_gives_is_kept_without_a_question():
    """A scenario sheep with a facing (pasture, written before rule 1 was asked): no question, so its games
    replay unchanged; the skills are set right after placing."""
    st = _placed("pasture")
    assert st.phase == "skills" and st.pending is None
    assert where(st) == [("H2", "black", "W"), ("E7", "grey", "E"), ("N8", "white", "N")]


def test_sheep_rule_1_a_scenario_sheep_facing_is_a_direction_or_choose():
    sc = scenarios.scenarios()["flock"].model_copy(deep=True)
    assert {s.facing for s in sc.sheep} == {"choose"}
    with pytest.raises(ValidationError):
        scenarios.SheepPlacement(at="C3", colour="grey", facing="NE")


# ---- rule 4: a sheep that comes down on a hero: that hero may pick it up -------------------------------------

def _asking(*sheep: tuple[str, str, str], tokens: dict[str, str], ann: str = "E3") -> QState:
    st = flock(build(OPEN, tokens=tokens, heroes=[dict(pos=ann), dict(pos="I9")]), *sheep)
    st.sheep_ask = True
    return st


def test_sheep_rule_4_a_sheep_coming_down_on_a_hero_asks_that_hero_who_may_pick_it_up():
    """Sheep rule 4: a spring lands the grey sheep on Ann; Ann is asked (after the flock has walked), yes picks
    it up."""
    st = _asking(("E5", "grey", "N"), tokens={"E4": "spring"}, ann="E2")
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    run(st, ev)
    assert st.pending is not None and st.pending.kind == "sheep_pickup" and st.pending.player == "ann"
    assert st.pending.options == ["pick_up", "skip"] and where(st) == [("E2", "grey", "N")]
    answer(st, "pick_up", ev)
    assert st.sheep == [] and st.heroes[0].carrying == ["grey-sheep"]


def test_sheep_rule_4_a_sheep_left_stays_on_the_heros_square_and_walks_on_at_the_next_upkeep():
    """Sheep rule 4, house: a sheep the hero leaves stays on the hero's square (as one a hero with no room stops
    on); it walks on at the next upkeep."""
    st = _asking(("E5", "grey", "N"), tokens={"E4": "spring"}, ann="E2")
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    run(st, ev)
    answer(st, "skip", ev)
    assert "Ann leaves the grey sheep at E2." in texts(ev)
    assert where(st) == [("E2", "grey", "N")] and st.heroes[0].carrying == []
    upkeep_sheep(st, ev)
    run(st, ev)
    assert where(st) == [("E1", "grey", "N")] and st.pending is None


def test_sheep_rule_4_a_sheep_waiting_for_the_heros_answer_walks_no_further():
    """Sheep rule 4: a white sheep springs onto Ann with its first point; it spends no more points while Ann
    decides (in the first reading it was picked up at once, which stopped it too)."""
    st = _asking(("E6", "white", "N"), tokens={"E5": "spring"}, ann="E3")
    upkeep_sheep(st, [])
    assert where(st) == [("E3", "white", "N")]
    run(st, [])
    assert st.pending is not None and st.pending.kind == "sheep_pickup"


def test_sheep_rule_4_no_question_for_a_hero_with_no_room_the_sheep_stays_put():
    st = _asking(("E5", "grey", "N"), tokens={"E4": "spring"}, ann="E2")
    st.heroes[0].carrying = ["red-crystal", "blue-crystal"]
    ev: list[Event] = []
    upkeep_sheep(st, ev)
    run(st, ev)
    assert st.pending is None and where(st) == [("E4", "grey", "N")]


def test_sheep_rule_4_at_the_upkeep_the_question_times_out_to_leaving_the_sheep():
    """Sheep rule 4 at the table: at the upkeep it is nobody's turn, so the question has a deadline
    (`decision_hours`) and then leaves the sheep where it came down (the quiet answer)."""
    st = _asking(("E5", "grey", "N"), tokens={"E4": "spring"}, ann="E2")
    st.turn, st.phase, st.eor = 1, "upkeep", 1  # Bob played last; Ann is asked off her turn
    upkeep_sheep(st, [])
    run(st, [])
    p = E.pending(st)
    assert p.player == "ann" and p.hours == data.house().decision_hours and p.default.get("option") == "skip"
    assert E.timeout(st, {}) == (float(data.house().decision_hours), p.default)
    assert [E.label(st, a) for a in p.options] == ["Pick up the sheep", "Leave it"]
    st.turn = 0  # and on Ann's own turn too: a sheep is never a reason to wait for ever
    assert E.pending(st).hours == data.house().decision_hours


def test_sheep_rule_4_a_bomb_throwing_a_sheep_onto_a_hero_asks_that_hero():
    """Sheep rule 4 with a bomb: the sheep hit is thrown two spaces away onto Bob, who is asked once the blast is
    over (in the first reading Bob took it at once)."""
    st = _asking(("B4", "grey", "N"), tokens={}, ann="I1")
    st.heroes[1].pos = "B6"
    ev: list[Event] = []
    roll(st, Bomb(at="B1", dir="S", kind="standard"), ev)
    run(st, ev)
    assert st.pending is not None and st.pending.kind == "sheep_pickup" and st.pending.player == "bob"
    assert where(st) == [("B6", "grey", "N")]
    answer(st, "pick_up", ev)
    assert st.heroes[1].carrying == ["grey-sheep"]


# ---- heists bank sheep like crystals -------------------------------------------------------------------------

def test_a_sheep_banked_on_a_drop_zone_counts_like_a_crystal_in_a_heist():
    """Drop zones take collectibles (the rulebook leaves what they take to the scenario): in our heists a sheep
    delivered counts as a crystal does; with the flock rules (flock) the win says what was banked, a game of an
    older scenario keeps its old words (its stored result replays)."""
    for flock_rules, words in ((True, "Ann banks 1 crystal and 1 sheep and wins the heist!"),
                               (False, "Ann banks 2 crystals and wins the heist!")):
        st = build(["D........"] + ["........."] * 8, mode="heist", target=2,
                   heroes=[dict(pos="B1", carrying=["grey-sheep", "red-crystal"]), dict(pos="I9")])
        st.sheep_ask = flock_rules
        st.queue = [Job(kind="step", hero="ann", dir="W", how="slide"), Job(kind="land", hero="ann")]
        ev: list[Event] = []
        run(st, ev)
        assert st.heroes[0].banked == ["grey-sheep", "red-crystal"] and st.phase == "over"
        assert words in texts(ev)


def test_sheep_rule_4_in_a_flock_game_the_round_waits_for_the_answer_then_goes_on():
    """Sheep rule 4 at the table (flock): the white sheep faced south springs off G4 onto Ann at G6 at the end of
    round 1; the round's end waits for Ann's answer, then goes on to the upgrades."""
    from games.quodd.turns import end_round
    st = _placed("flock")
    for way in ("S", "N", "N"):
        st, _ = do(st, st.pending.player, f"choose option:{way}")
    for p in ("ann", "bob"):
        st, _ = do(st, p, "done")
    st.heroes[0].pos, st.turn = "G6", (st.first - 1) % 2  # Ann waits where the sheep comes down; the round ends
    ev: list[Event] = []
    end_round(st, ev)
    assert "The white sheep springs S to G6." in texts(ev)
    assert E.phase_of(st) == "decide" and st.pending.kind == "sheep_pickup" and st.pending.player == "ann"
    taken, out = do(st, "ann", "choose option:pick_up")
    assert taken.heroes[0].carrying == ["white-sheep"] and taken.phase == "upgrade"
    left, out = do(st, "ann", "choose option:skip")
    assert "Ann leaves the white sheep at G6." in out and left.phase == "upgrade" and left.heroes[0].carrying == []
