"""The platform's state copy (`games.core.phases.copy_state`, used by every `apply`): for every game, the
copy of states met in random play equals the original, dumps to the same JSON, shares no model, list or
dict with it, and changing the copy leaves the original as it was. Also the shared action constructor."""
from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from games.core import Action, Seat, all_games
from games.core.phases import apply_copy, copy_state
from games.core.playout import random_playout
from games.core.statecopy import Retype, compile_copier


def _mutables(value: Any, out: dict[int, Any]) -> dict[int, Any]:
    """Every model, list, dict and set inside `value` (by identity), `value` included."""
    if isinstance(value, BaseModel):
        out[id(value)] = value
        for v in value.__dict__.values():
            _mutables(v, out)
    elif isinstance(value, dict):
        out[id(value)] = value
        for v in value.values():
            _mutables(v, out)
    elif isinstance(value, (list, set)):
        out[id(value)] = value
        for v in value:
            _mutables(v, out)
    elif isinstance(value, tuple):
        for v in value:
            _mutables(v, out)
    return out


def _states(game_id: str) -> list[BaseModel]:
    engine = all_games()[game_id]
    opts = {o.name: o.default for o in engine.options if o.default is not None}
    seats = [Seat(player=f"p{i}", name=f"Player {i}") for i in range(1, engine.min_seats + 2)][:engine.max_seats]
    seen: list[BaseModel] = []
    random_playout(engine, opts, seats, 7, cap=120, checked=False,
                   each=lambda before, player, action, after, events: seen.append(after))
    return seen[::10] + seen[-1:]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_copy_is_equal_and_independent(game_id: str) -> None:
    for state in _states(game_id):
        dump = state.model_dump()
        new = copy_state(state)
        assert new is not state and type(new) is type(state)
        assert new == state
        assert new.model_dump() == dump
        shared = _mutables(new, {}).keys() & _mutables(state, {}).keys()
        assert not shared, f"{game_id}: the copy shares {len(shared)} mutable objects with the original"
        # change every list and dict of the copy: the original's dump stays as it was
        for obj in _mutables(new, {}).values():
            if isinstance(obj, list):
                obj.append("changed")
            elif isinstance(obj, dict):
                obj["changed"] = "changed"
        assert state.model_dump() == dump


def test_action_of_shares_equal_actions_and_keeps_value_types_apart() -> None:
    a = Action.of("move", to="C4", n=2)
    assert a is Action.of("move", to="C4", n=2)
    assert a == Action(cmd="move", args=(("n", "2"), ("to", "C4")))
    # equal-hashing values of different types keep their own text (1 == True, hash(1) == hash(True))
    assert Action.of("x", v=True).get("v") == "True"
    assert Action.of("x", v=1).get("v") == "1"
    assert Action.of("x", v=1.0).get("v") == "1.0"
    assert Action.of("x", v=None) == Action(cmd="x")
    assert Action.of("x", v=[1]).get("v") == "[1]"  # an unhashable value is built, not remembered


def _same(a: Any, b: Any, path: str) -> None:
    """`a` and `b` hold the same values of exactly the same types, all the way down."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, BaseModel):
        assert list(a.__dict__) == list(b.__dict__), path
        assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__, path
        assert (a.__pydantic_extra__, a.__pydantic_private__) == (b.__pydantic_extra__, b.__pydantic_private__), path
        for k, v in a.__dict__.items():
            _same(v, b.__dict__[k], f"{path}.{k}")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k, v in a.items():
            _same(v, b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_compiled_copy_is_the_revalidating_copy(game_id: str) -> None:
    """The plain-Python copier compiled from the schema (`statecopy`) gives exactly what pydantic-core's
    revalidating copy gives, types included, for every game's states."""
    states = _states(game_id)
    cls = type(states[0])
    fast = compile_copier(cls)
    assert fast is not None, f"{game_id}: its state schema is not compiled"
    revalidate = _revalidating(cls)
    for state in states:
        _same(fast(state), revalidate(state), game_id)


def test_compiled_copy_gives_up_where_validation_would_convert() -> None:
    """A bool in an int field, an int in a float field or a tuple in a list field: the revalidating copy
    converts them, so the compiled copier leaves that state to it (`copy_state` still converts)."""

    class Inner(BaseModel):
        n: int = 0

    class Model(BaseModel):
        i: int = 0
        f: float = 0.0
        xs: list[str] = []
        inner: Inner = Inner()

    fast = compile_copier(Model)
    assert fast is not None
    ok = Model(xs=["a"])
    assert fast(ok) == ok and fast(ok).xs is not ok.xs and fast(ok).inner is not ok.inner
    for change in ({"i": True}, {"f": 1}, {"xs": ("a",)}, {"inner": {"n": 1}}):
        odd = Model()
        for k, v in change.items():
            setattr(odd, k, v)
        with pytest.raises(Retype):
            fast(odd)
    odd = Model()
    odd.i = True
    copied = copy_state(odd)
    assert type(copied.i) is int and copied.i == 1


def _revalidating(cls: type[BaseModel]) -> Any:
    """pydantic-core's revalidating copy of `cls` alone (what `copy_state` used before `statecopy`)."""
    import games.core.phases as phases

    saved = phases.compile_copier
    phases.compile_copier = lambda c, shared=(): None  # type: ignore[assignment]
    try:
        return phases._copier(cls)
    finally:
        phases.compile_copier = saved


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_apply_copy_shares_only_the_settled_entries_of_append_only_lists(game_id: str) -> None:
    """`apply_copy` (what every `apply` changes) is `copy_state` but for the lists a state model names `append_only`:
    there the copy has its own list holding the original's entries, the newest copied and the others shared (the
    rules never change them). Changing the copy as the rules may (every list and dict, the newest entry of an
    append-only list) leaves the original as it was."""
    for state in _states(game_id):
        shared = getattr(type(state), "append_only", ())
        dump = state.model_dump()
        new = apply_copy(state)
        assert new is not state and type(new) is type(state)
        assert new == state
        assert new.model_dump() == dump
        allowed: dict[int, Any] = {}
        for name in shared:
            mine, theirs = getattr(new, name), getattr(state, name)
            assert mine is not theirs
            if theirs:
                assert mine[-1] is not theirs[-1]
                for entry in theirs[:-1]:
                    _mutables(entry, allowed)
        shared_now = (_mutables(new, {}).keys() & _mutables(state, {}).keys()) - allowed.keys()
        assert not shared_now, f"{game_id}: the copy shares {len(shared_now)} mutable objects beyond settled entries"
        for name in shared:
            entries = getattr(new, name)
            if entries:
                for obj in _mutables(entries[-1], {}).values():
                    if isinstance(obj, list):
                        obj.append("changed")
            entries.append(entries[-1] if entries else None)
            del entries[0]
        for obj in (_mutables(new, {}).keys() - allowed.keys()):
            value = _mutables(new, {})[obj]
            if isinstance(value, list):
                value.append("changed")
            elif isinstance(value, dict):
                value["changed"] = "changed"
        assert state.model_dump() == dump


def test_the_dungeon_keeps_its_marks_append_only() -> None:
    """The dungeon's marks are its append-only list, and a played game's states still equal their full copies."""
    from games.dungeon.state import DungeonState
    assert DungeonState.append_only == ("marks",)
    states = _states("dungeon")
    assert any(len(s.marks) > 2 for s in states)
    for s in states:
        assert apply_copy(s) == copy_state(s) == s
