"""Issue 18, "since your last turn": the shared marks log every game appends to (games/core/marks.py)."""
from __future__ import annotations

import json

import pytest

from games.core import Seat, get_game
from games.core.marks import KEEP, Mark, add, extend, shown, since_last_turn
from games.core.playout import random_playout


def _log(*bys: str) -> list[Mark]:
    marks: list[Mark] = []
    for by in bys:
        add(marks, Mark(kind="move", by=by, path=["A1", "B1"]))
    return marks


def test_a_player_sees_everything_since_their_previous_turn_and_their_own_turn_so_far():
    marks = _log("ann", "bob", "", "cat", "ann", "ann")
    assert [m.n for m in since_last_turn(marks, ["ann"])] == [2, 3, 4, 5, 6]
    assert [m.n for m in since_last_turn(marks, ["bob"])] == [3, 4, 5, 6]


def test_a_player_reacting_during_another_turn_does_not_count_their_old_marks_as_this_turn():
    marks = _log("ann", "bob", "bob", "ann")
    assert [m.n for m in since_last_turn(marks, ["bob"], owner="ann")] == [4]
    marks = _log("ann", "bob", "bob")  # Ann's turn has drawn nothing yet: nothing new for Bob
    assert since_last_turn(marks, ["bob"], owner="ann") == []


def test_the_log_keeps_the_newest_marks_numbered_and_a_move_grows_one_path():
    marks = _log(*["ann"] * (KEEP + 5))
    assert len(marks) == KEEP and marks[0].n == 6 and marks[-1].n == KEEP + 5
    drawn, earlier = shown(marks)
    assert earlier == KEEP - len(drawn) and drawn[-1].n == KEEP + 5
    path: list[Mark] = []
    for to in ("B1", "C1", "C2"):
        extend(path, Mark(kind="move", who="Ann", key="t1", path=["A1"] if not path else []), to)
    assert len(path) == 1 and path[0].path == ["A1", "B1", "C1", "C2"]


@pytest.mark.parametrize("game", ["heroball", "dungeon", "quodd"])
def test_a_state_saved_before_marks_existed_loads_with_none(game):
    engine = get_game(game)
    p = random_playout(engine, {}, [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")], 2, cap=150)
    data = json.loads(engine.dump(p.state))
    assert data["marks"], "the random game drew something"
    del data["marks"]
    old = engine.load(json.dumps(data))
    assert old.marks == [] and engine.view(old, None).recent == []
