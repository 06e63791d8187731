"""Checking a case transcript again: replay it with every step's checks, and redo the hidden-information
comparisons its header names (`hidden information shows in \\`KEY\\``), so a fixed defect shows as fixed."""
from __future__ import annotations

import random
import re
from typing import Any

from games.core.play import step

from .checks import probes, public_outputs, step_problems
from .games import fuzzers
from .transcript import load_case

HIDDEN_KEY = re.compile(r"hidden information shows in `(?P<key>[^`]+)`")
START = re.compile(r"^# start: (?P<name>.+?) \(", re.M)


def recheck(text: str, perturbations: int = 8) -> list[str]:
    """What is still wrong in the game a case transcript plays (empty: the case passes now)."""
    game_id, options, seats, seed, log = load_case(text)
    fuzz = fuzzers()[game_id]
    engine = fuzz.engine
    state: Any = engine.setup(options, seats, seed)
    late = START.search(text)
    if late is not None:  # a constructed late start (runner.Case.start)
        state = fuzz.rebuild_start(state, late.group("name"))
    out: list[str] = []
    for player, action in log:
        before = engine.dump(state)
        _, after, events = step(engine, state, player, action)
        out += [f"{p} (after `{player}> {action.text()}`)" for p in step_problems(fuzz, state, before, after, events,
                                                                                   seats)]
        state = after
    keys = {m.group("key") for m in HIDDEN_KEY.finditer(text)}
    if not keys:
        return out
    asked: dict[str, list[Any]] = {}
    for key in keys:  # `explain P A` / `preview P A`: ask about that very action
        kind, _, rest = key.partition(" ")
        if kind in ("explain", "preview"):
            player, _, action_text = rest.partition(" ")
            legal = engine.legal_actions(state, player)
            match = [a for a in legal if a.text() == action_text]
            asked.setdefault(player, []).extend(match or probes(engine, state, player, legal, random.Random(0)))
    mine = public_outputs(engine, state, seats, options, asked)
    for i in range(perturbations):
        theirs = public_outputs(engine, fuzz.perturb(state, random.Random(i)), seats, options, asked)
        out += [f"hidden information shows in `{k}`" for k in sorted(keys) if k in mine and theirs.get(k) != mine[k]]
    return sorted(set(out))
