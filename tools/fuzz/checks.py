"""The platform's invariants, checked after every action of every game, and the hidden-information differential."""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from bot import hand
from bot.table import Table
from games.core import Action, Event, Game, PlaypostError, Seat
from games.core.play import resolve

from .spec import GameFuzz

PROBES = 6  # actions per player whose explain text (refusals) and preview are compared


def step_problems(fuzz: GameFuzz, before: Any, before_text: str, after: Any, events: list[Event],
                  seats: Sequence[Seat]) -> list[str]:
    """What is wrong with one step: the game's own invariants plus the platform's."""
    engine = fuzz.engine
    out: list[str] = []
    if engine.dump(before) != before_text:
        out.append("apply changed the state it was given")
    text = engine.dump(after)
    again = engine.load(text)
    if again != after or engine.dump(again) != text:
        out.append("the state does not round-trip through JSON exactly")
    if not any(e.irreversible for e in events) and fuzz.hidden(before) != fuzz.hidden(after):
        out.append("an action without an irreversible event changed hidden parts (the generator or a secret), "
                   "so undo would let a player see them and try again")
    if any(not e.text.strip() for e in events):
        out.append("an event with no text")
    st = engine.status(after)
    seated = {s.player for s in seats}
    if not st.finished and not set(st.to_act) <= seated:
        out.append(f"players who must act are not seated: {sorted(set(st.to_act) - seated)}")
    if st.finished and st.result is None:
        out.append("a finished game has no result")
    out += fuzz.invariants(before, after, events)
    return out


def probes(engine: Game, state: Any, player: str, legal: list[Action], pick: random.Random) -> list[Action]:
    """Actions to ask `explain` and `preview` about: some legal ones and near misses (an argument swapped
    for another legal action's value, an argument left out, a bare command)."""
    out = pick.sample(legal, min(len(legal), PROBES // 2))
    values: dict[str, list[str]] = {}
    for a in legal:
        for k, v in a.args:
            values.setdefault(k, []).append(v)
    for _ in range(PROBES):
        if legal and pick.random() < 0.7:
            base = pick.choice(legal)
            args = dict(base.args)
            if args and pick.random() < 0.7:
                key = pick.choice(sorted(args))
                args[key] = pick.choice(values[key])
            elif args:
                args.pop(pick.choice(sorted(args)))
            out.append(Action(cmd=base.cmd, args=tuple(args.items())))
        elif engine.commands:
            out.append(Action(cmd=pick.choice(engine.commands).name))
    return out


def public_outputs(engine: Game, state: Any, seats: Sequence[Seat], options: dict[str, str],
                   asked: dict[str, list[Action]], previews: bool = True) -> dict[str, Any]:
    """Everything a player or an onlooker can read about `state` (the board image is drawn from the view)."""
    out: dict[str, Any] = {
        "view": engine.view(state, None).model_dump_json(),
        "status": engine.status(state).model_dump_json(),
        "summary": json.dumps(engine.summary(state), sort_keys=True, default=str),
    }
    timeout = engine.timeout(state, options)
    out["timeout"] = None if timeout is None else (timeout[0], timeout[1].text())
    board = board_outputs(engine, state, options)
    out.update({k: board[k] for k in ("board buttons", "board menus", "your hand")})
    for player in sorted({s.player for s in seats}):
        legal = engine.legal_actions(state, player)
        out[f"legal {player}"] = [a.text() for a in legal]
        out[f"labels {player}"] = [engine.label(state, a) for a in legal]
        out[f"buttons {player}"] = [a.text() for a in engine.button_actions(state, player, legal)]
        out[f"private controls {player}"] = repr(hand.controls(engine, state, player))
        out[f"private {player}"] = engine.private_text(state, player)
        out[f"view of {player}"] = engine.view(state, player).model_dump_json()
        skip = engine.skip_action(state, player)
        out[f"skip {player}"] = None if skip is None else skip.text()
        for a in asked.get(player, []):
            out[f"explain {player} {a.text()}"] = engine.explain(state, player, a)
            if previews and a in legal:
                seen = engine.preview(state, player, a)
                out[f"preview {player} {a.text()}"] = None if seen is None else (
                    engine.view(seen[0], None).model_dump_json(), [(e.text, e.to) for e in seen[1]])
    return out


def board_outputs(engine: Game, state: Any, options: dict[str, str]) -> dict[str, Any]:
    """What everyone at the table reads while `state` stands: the public view, status, summary, timeout, and the
    controls under the public board (on Discord everyone sees them) with who gets a "Your hand" button."""
    st = engine.status(state)
    buttons = Table.buttons(engine, state, st)
    timeout = engine.timeout(state, options)
    return {
        "view": engine.view(state, None).model_dump_json(),
        "status": st.model_dump_json(),
        "summary": json.dumps(engine.summary(state), sort_keys=True, default=str),
        "timeout": None if timeout is None else (timeout[0], timeout[1].text()),
        "board buttons": [(b.label, b.action, b.player) for b in buttons],
        "board menus": [(m.player, m.cmd, m.options) for m in Table.menus(engine, state, st, buttons)],
        "your hand": hand.players(engine, state, st),
    }


def hand_problems(fuzz: GameFuzz, state: Any, options: dict[str, str], pick: random.Random) -> list[str]:
    """Deal the hands anew (only what players hold in secret differs): what the table reads must stay the same,
    the board's buttons and menus above all (issues 11, 14)."""
    other = fuzz.deal_again(state, pick)
    if fuzz.engine.dump(other) == fuzz.engine.dump(state):
        return []
    mine, theirs = board_outputs(fuzz.engine, state, options), board_outputs(fuzz.engine, other, options)
    return [f"a hand shows in `{key}`: {_first_difference(value, theirs.get(key))}"
            for key, value in mine.items() if theirs.get(key) != value]


def hidden_problems(fuzz: GameFuzz, state: Any, seats: Sequence[Seat], options: dict[str, str],
                    pick: random.Random, previews: bool = True) -> list[str]:
    """Change only hidden parts of `state`; every public output must stay the same (previews of a sample of
    legal actions too, unless `previews` is off)."""
    engine = fuzz.engine
    other = fuzz.perturb(state, pick)
    if engine.dump(other) == engine.dump(state):
        return []  # nothing hidden to change here
    asked = {}
    for player in sorted({s.player for s in seats}):
        asked[player] = probes(engine, state, player, engine.legal_actions(state, player), pick)
    mine = public_outputs(engine, state, seats, options, asked, previews)
    theirs = public_outputs(engine, other, seats, options, asked, previews)
    out = []
    for key, value in mine.items():
        if theirs.get(key) != value:
            out.append(f"hidden information shows in `{key}`: {_first_difference(value, theirs.get(key))}")
    return out + hand_problems(fuzz, state, options, pick)


def _first_difference(a: Any, b: Any) -> str:
    sa, sb = str(a), str(b)
    i = next((k for k, (x, y) in enumerate(zip(sa, sb, strict=False)) if x != y), min(len(sa), len(sb)))
    lo = max(0, i - 60)
    return f"…{sa[lo:i + 60]}… became …{sb[lo:i + 60]}…"


def refusal_problems(engine: Game, state: Any, seats: Sequence[Seat], pick: random.Random) -> list[str]:
    """Near misses sent through the shared checks as a player would type them: each resolves to a legal action
    or is refused with a reason (never another exception), and nothing in the state changes."""
    before = engine.dump(state)
    out = []
    for player in sorted({s.player for s in seats}):
        legal = engine.legal_actions(state, player)
        for a in probes(engine, state, player, legal, pick):
            try:
                got = resolve(engine, state, player, a)
            except PlaypostError as exc:
                if not exc.reason.strip():
                    out.append(f"`{player}> {a.text()}` is refused without a reason")
                continue
            except Exception as exc:  # any other error is the finding
                out.append(f"`{player}> {a.text()}` raises {type(exc).__name__}: {exc}")
                continue
            if got not in legal:
                out.append(f"`{player}> {a.text()}` resolves to `{got.text()}`, which is not legal")
    if engine.dump(state) != before:
        out.append("refusing an action changed the state")
    return out


def lobby_problems(engine: Game, options: dict[str, str], seats: Sequence[Seat]) -> list[str]:
    """The lobby as `/game new` and `/game join` use it: the fuzzer's own seats are accepted one by one, every value
    offered for a seat option is accepted, and an unknown value is refused or let through (the platform checks
    declared choices itself) but never crashes."""
    out = []
    bogus = "no-such-thing"

    def refused(call: Any, *args: Any) -> str | None:
        try:
            call(*args)
        except PlaypostError as exc:
            return exc.reason or "(no reason)"
        except Exception as exc:  # any other error is the finding
            return f"crash: {type(exc).__name__}: {exc}"
        return None

    for spec in engine.options:
        why = refused(engine.check_options, {**options, spec.name: bogus})
        if why is not None and why.startswith("crash: "):
            out.append(f"game option `{spec.name}:{bogus}` makes check_options {why}")
        engine.option_choices(spec.name)
    newcomer = Seat(player="zed", name="zed")
    for i, seat in enumerate(seats):
        earlier = [s for s in seats[:i] if s.player != seat.player or engine.multi_seat]
        why = refused(engine.check_seat, options, earlier, seat)
        if why is not None:
            out.append(f"seat {i} ({seat.player}, {seat.choices}) is refused: {why}")
        for spec in engine.seat_options:
            for value in engine.seat_choices(options, seats[:i], spec.name):
                why = refused(engine.check_seat, options, seats[:i],
                              newcomer.model_copy(update={"choices": {spec.name: value}}))
                if why is not None:
                    out.append(f"`{spec.name}:{value}` is offered but refused: {why}")
            why = refused(engine.check_seat, options, seats[:i],
                          newcomer.model_copy(update={"choices": {spec.name: bogus}}))
            if why is not None and why.startswith("crash: "):
                out.append(f"seat option `{spec.name}:{bogus}` makes check_seat {why}")
    return out
