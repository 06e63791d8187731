"""Movement phase: natural tumble, the five skills, and the rulebook's worked example."""
from __future__ import annotations

from qhelpers import build, do, hero, illegal, legal, top

from games.core import Action
from games.quodd import ENGINE as E

OPEN = ["......", "......", "......", "......", "......"]


def test_rulebook_worked_example_tumble_current_whirlpool_tumble_current_whirlpool_jump_onto_wall():
    """Example "Moving and Interacting with the Board", step by step."""
    rows = [".......",
            ".>@v...",  # A2 start, B2 current east, C2 whirlpool, D2 current south
            "...@...",  # D3 the second whirlpool
            ".......",  # walls on D4 and D5: the jump clears D4 and lands on top of D5
            ".......",
            "......."]
    skills = {"back": "tumble", "right": "jump", "front": "slide", "left": "dash", "feet": "diagonal"}
    st = build(rows, tokens={"D4": "wall", "D5": "wall"}, heroes=[dict(pos="A2", front="E", skills=skills)])
    # (1) natural tumble east onto the current; (2) it carries Ann to the whirlpool (3).
    st, ev = do(st, "ann", "tumble direction:E")
    assert hero(st, "ann").pos == "C2"
    assert any("current" in e for e in ev)
    assert st.pending.kind == "spin"
    # the back face came up on the tumble: spinning keeps it on top
    assert top(st, "ann") == "back"
    st, _ = do(st, "ann", "choose option:cw")
    assert top(st, "ann") == "back" and st.m.ready == "tumble"
    # (4) tumble skill east onto the second current (5), which carries Ann south onto the whirlpool (6).
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert hero(st, "ann").pos == "D3"
    assert st.pending.kind == "spin"
    st, _ = do(st, "ann", "choose option:ccw")
    # the tumble skill activates the face now on top: the right face, holding jump
    assert top(st, "ann") == "right" and st.m.ready == "jump"
    # (7) jump over the first wall and land on top of the second.
    assert "move direction:S distance:1" in legal(st, "ann", "move")
    st, ev = do(st, "ann", "move direction:S distance:1")
    assert hero(st, "ann").pos == "D5"
    assert any("on top of a wall" in e for e in ev)
    assert st.last_path == ["A2", "B2", "C2", "D2", "D3", "D5"]


def test_natural_tumble_never_in_place_and_never_into_a_wall():
    st = build(OPEN, tokens={"C2": "wall"}, heroes=[dict(pos="B2")])
    assert legal(st, "ann", "tumble") == ["tumble direction:N", "tumble direction:S", "tumble direction:W"]
    assert "wall" in illegal(st, "ann", "tumble direction:E").reason
    assert "natural tumble" in illegal(st, "ann", "move direction:E distance:1").reason
    assert "done" not in legal(st, "ann")  # movement must begin with the natural tumble


def test_blocked_on_all_four_sides_at_turn_start_respawns_then_moves_normally():
    """FAQ: walled in at the start of your turn: respawn, then the movement phase goes on."""
    rows = ["R.....", "......", "......"]
    st = build(rows, tokens={"C1": "wall", "E2": "wall", "D1": "wall", "D3": "wall"},
               heroes=[dict(pos="D2", front="S")], phase="power")
    # D2 is walled in on N (D1), E (E2), S (D3); W is C2: wall it too
    st.tokens["C2"] = st.tokens["C1"].model_copy()
    st.m.blocked_at_start = True
    st, ev = do(st, "ann", "done")
    assert hero(st, "ann").pos == "A1" and st.phase == "move"
    assert any("walled in" in e for e in ev)
    assert legal(st, "ann", "tumble")


def test_faq_walled_in_during_phase_one_respawns_and_the_movement_ends():
    rows = ["R.....", "......", "......"]
    st = build(rows, tokens={"C2": "wall", "E2": "wall", "D1": "wall", "D3": "wall"},
               heroes=[dict(pos="D2")], phase="power")
    st.m.blocked_at_start = False
    st, ev = do(st, "ann", "done")
    assert hero(st, "ann").pos == "A1"
    assert st.phase == "explore"  # the movement is over; phase 3 had nothing to play and passed by itself


def test_after_the_tumble_the_skill_on_the_top_face_is_ready_with_base_movement():
    st = build(OPEN, heroes=[dict(pos="B2", front="E")])
    st, _ = do(st, "ann", "tumble direction:E")  # back comes up: jump in the default layout
    assert top(st, "ann") == "back" and st.m.ready == "jump" and st.m.points == 1


def test_q_on_top_offers_the_rearrange_q_power_instead_of_a_skill():
    st = build(OPEN, heroes=[dict(pos="B2", head="S", front="E")])  # Q faces south: tumbling north brings it up
    st, _ = do(st, "ann", "tumble direction:N")
    assert top(st, "ann") == "q" and st.m.ready == "q"
    assert not legal(st, "ann", "move")
    assert len(legal(st, "ann", "rearrange")) == 119
    st, _ = do(st, "ann", "rearrange front:jump back:slide")
    assert hero(st, "ann").skills["front"] == "jump" and hero(st, "ann").skills["back"] == "slide"
    assert {a.split()[0] for a in legal(st, "ann")} == {"done", "qpower"}  # any or all Q-powers: her own is left


def test_slide_goes_in_a_straight_orthogonal_line_and_walls_stop_it():
    st = build(OPEN, tokens={"E3": "wall"}, heroes=[dict(pos="B3", movement=3)], tumbled=True, ready="slide", points=3)
    moves = legal(st, "ann", "move")
    assert "move direction:E distance:2" in moves and "move direction:E distance:3" not in moves
    assert not any("NE" in m for m in moves)
    st, _ = do(st, "ann", "move direction:E distance:1")  # never required to use the full distance
    assert hero(st, "ann").pos == "C3" and st.m.ready == "" and "slide" in st.m.used


def test_diagonal_slide_moves_only_diagonally():
    st = build(OPEN, heroes=[dict(pos="C3", movement=2)], tumbled=True, ready="diagonal", points=2)
    moves = legal(st, "ann", "move")
    assert {m.split()[1] for m in moves} == {"direction:NE", "direction:SE", "direction:SW", "direction:NW"}
    st, _ = do(st, "ann", "move direction:SE distance:2")
    assert hero(st, "ann").pos == "E5"


def test_dash_may_change_direction_with_every_point_and_continue_later():
    st = build(OPEN, heroes=[dict(pos="C3", movement=3)], tumbled=True, ready="dash", points=3)
    st, _ = do(st, "ann", 'move path:"N E"')
    assert hero(st, "ann").pos == "D2"
    assert st.m.ready == "dash" and st.m.points == 1
    st, _ = do(st, "ann", "move path:SE")
    assert hero(st, "ann").pos == "E3" and st.m.ready == ""


def test_jump_clears_at_least_one_space_lands_on_walls_and_walks_along_wall_tops():
    st = build(OPEN, tokens={"C3": "wall", "D3": "wall", "E3": "wall"}, heroes=[dict(pos="B3", movement=2)],
               tumbled=True, ready="jump", points=2)
    assert "move direction:E distance:1" in legal(st, "ann", "move")
    st, ev = do(st, "ann", "move direction:E distance:1")  # over C3, onto the wall D3
    assert hero(st, "ann").pos == "D3"
    # standing on a wall, the next movement may go along the wall tops
    st.m.ready, st.m.points = "slide", 1
    assert "move direction:E distance:1" in legal(st, "ann", "move")
    st2 = build(OPEN, tokens={"D3": "wall"}, heroes=[dict(pos="C3")], tumbled=True, ready="slide", points=1)
    assert "move direction:E distance:1" not in legal(st2, "ann", "move")


def test_tumble_skill_rolls_in_a_line_then_activates_the_new_top_face_once_per_turn():
    skills = {"back": "tumble", "front": "slide", "right": "dash", "left": "jump", "feet": "diagonal"}
    st = build(OPEN, heroes=[dict(pos="A3", movement=2, skills=skills)])
    st, _ = do(st, "ann", "tumble direction:E")  # back (tumble) up
    assert st.m.ready == "tumble" and st.m.points == 2
    st, _ = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").pos == "D3"
    # two more rolls east: feet then front come up
    assert top(st, "ann") == "front" and st.m.ready == "slide"
    st, _ = do(st, "ann", "move direction:S distance:1")
    assert st.m.used == ["tumble", "slide"]


def test_a_skill_already_used_this_turn_does_not_activate_again():
    skills = {"back": "tumble", "front": "slide", "right": "dash", "left": "jump", "feet": "diagonal"}
    st = build(OPEN, heroes=[dict(pos="A3", movement=4, skills=skills)])
    st, _ = do(st, "ann", "tumble direction:E")
    st, ev = do(st, "ann", "move direction:E distance:4")  # four rolls: back on top again
    assert top(st, "ann") == "back"
    assert st.m.ready == "" and any("already used" in e for e in ev)


def test_upgraded_skill_gives_one_more_point_and_an_exploration():
    st = build(OPEN, heroes=[dict(pos="B3", upgraded=["jump"])])
    st, _ = do(st, "ann", "tumble direction:E")
    assert st.m.ready == "jump" and st.m.points == 2
    st, ev = do(st, "ann", "move direction:E distance:2")
    assert hero(st, "ann").explores_earned == 1
    assert any("exploration" in e for e in ev)


def test_movement_phase_ends_with_done_and_phase_three_and_four_follow():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="E5")])
    st, _ = do(st, "ann", "tumble direction:E")
    st, ev = do(st, "ann", "done")
    assert st.phase == "explore"  # phase 3 follows the movement and, with nothing to play, passes by itself
    assert "Ann has nothing to play in phase 3, recovery: it passes." in ev
    # the base explore icon is one draw in phase 4 (cards: tests/quodd/test_quodd_cards.py); `done` forgoes it
    assert st.m.draws == 1 and Action.of("draw", card="deck") in E.legal_actions(st, "ann")
    st, ev = do(st, "ann", "done")
    assert st.phase == "move" and st.turn == 1 and not st.m.tumbled  # bob's phase 1 passed: no cards
    assert hero(st, "ann").hand == [] and hero(st, "ann").explores_earned == 0


def test_status_names_who_must_act_and_the_turn_key_changes_with_the_turn():
    st = build(OPEN, heroes=[dict(pos="B3"), dict(pos="E5")], phase="explore")
    s1 = E.status(st)
    assert s1.to_act == ["ann"]
    st, _ = do(st, "ann", "done")
    s2 = E.status(st)
    assert s2.to_act == ["bob"] and s2.turn_key != s1.turn_key


def test_a_jump_clears_at_least_one_space_only_if_possible_else_it_hops_next_door():
    """Rule: "a jump must clear at least 1 space, if possible" - with the landing beyond blocked, a short hop."""
    st = build(OPEN, tokens={"D3": "impassable_up"}, heroes=[dict(pos="B3")], tumbled=True, ready="jump", points=1)
    moves = legal(st, "ann", "move")
    assert "move direction:E distance:0" in moves and "move direction:E distance:1" not in moves
    assert "move direction:N distance:0" not in moves and "move direction:N distance:1" in moves
    assert "must" in illegal(st, "ann", "move direction:N distance:0").reason
    st, ev = do(st, "ann", "move direction:E distance:0")
    assert hero(st, "ann").pos == "C3" and st.m.points == 0


def test_a_hero_pushed_by_another_heros_move_is_numbered_on_the_board_image():
    """Play-test: Trixie pushed G4->G3 by bob's dash was missing from the numbered list."""
    from qhelpers import build, do

    st = build(["......"] * 4, heroes=[dict(pos="A2", movement=2), dict(pos="B2")], tumbled=True, ready="dash",
               points=2)
    st, _ = do(st, "ann", 'move path:"E E"')  # two steps, two pushes: one numbered path each
    assert [(m.kind, m.who, m.path) for m in st.marks] == [("push", "Bob", ["B2", "C2", "D2"]),
                                                           ("tumble", "Ann", ["A2", "B2", "C2"])]
