"""A fuzz case as a transcript (`name> /command ...` lines, as `playpost script` and tests/*/transcripts read)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Action, Seat

FORCED = "# plays itself: "  # a logged move the table plays by itself (`Game.forced_action`): no line to type


def transcript(game_id: str, options: dict[str, str], seats: Sequence[Seat], seed: int,
               log: Sequence[tuple[str, Action]], note: str = "", engine: Any = None, start: Any = None) -> str:
    """The lines that open the same game (same seed, options and seats in the same order) and play `log`.

    The console seats a user under their name in lower case, so the fuzzer's players are lower-case names.
    A player with several seats (the dungeon) joins once per seat, each with its choices. Given the `engine` and
    the `start` state, a move the table plays by itself is written as a comment (`FORCED`), which the console
    skips and `load_case` reads back.
    """
    lines = [f"# {ln}" for ln in note.splitlines() if ln.strip()]
    host = seats[0].player
    lines.append(f"{host}> /game " + Action(cmd="new", args=(("game", game_id), ("seed", str(seed)),
                                                             *options.items())).text())
    for i, s in enumerate(seats):
        if i > 0 or s.choices:  # the host was seated by `new`; a join with choices replaces that empty seat
            lines.append(f"{s.player}> /game " + Action(cmd="join", args=tuple(s.choices.items())).text())
    lines.append(f"{host}> /game start")
    state = start
    for player, action in log:
        line = f"{player}> /{game_id} {action.text()}"
        if engine is not None and state is not None:
            if engine.forced_action(state, player) == action:
                line = FORCED + line  # the console plays it by itself; `load_case` reads it back into the log
            state, _ = engine.apply(state, player, action)
        lines.append(line)
    return "\n".join(lines) + "\n"


def load_case(text: str) -> tuple[str, dict[str, str], list[Seat], int, list[tuple[str, Action]]]:
    """The game a case transcript opens and the actions it plays: (game id, options, seats, seed, log).

    The inverse of `transcript` (joins as the console seats them: a first join with choices by the lone host
    replaces the host's empty seat)."""
    game_id, seed = "", 0
    options: dict[str, str] = {}
    seats: list[Seat] = []
    log: list[tuple[str, Action]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(FORCED):
            line = line[len(FORCED):]
        elif not line or line.startswith("#"):
            continue
        player, _, body = line.partition("> ")
        if body.startswith("/game new "):
            a = Action.parse(body[len("/game "):])
            game_id, seed = a.get("game") or "", int(a.get("seed") or "0")
            options = {k: v for k, v in a.args if k not in ("game", "seed")}
            seats = [Seat(player=player, name=player)]
        elif body.startswith("/game join"):
            choices = dict(Action.parse(body[len("/game "):]).args)
            if len(seats) == 1 and seats[0].player == player and not seats[0].choices:
                seats[0] = Seat(player=player, name=player, choices=choices)
            else:
                seats.append(Seat(player=player, name=player, choices=choices))
        elif game_id and body.startswith(f"/{game_id} "):
            log.append((player, Action.parse(body[len(game_id) + 2:])))
    return game_id, options, seats, seed, log
