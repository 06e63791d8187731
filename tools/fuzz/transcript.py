"""A fuzz case as a transcript (`name> /command ...` lines, as `playpost script` and tests/*/transcripts read)."""
from __future__ import annotations

from collections.abc import Sequence

from games.core import Action, Seat


def transcript(game_id: str, options: dict[str, str], seats: Sequence[Seat], seed: int,
               log: Sequence[tuple[str, Action]], note: str = "") -> str:
    """The lines that open the same game (same seed, options and seats in the same order) and play `log`.

    The console seats a user under their name in lower case, so the fuzzer's players are lower-case names.
    A player with several seats (the dungeon) joins once per seat, each with its choices.
    """
    lines = [f"# {ln}" for ln in note.splitlines() if ln.strip()]
    host = seats[0].player
    lines.append(f"{host}> /game " + Action(cmd="new", args=(("game", game_id), ("seed", str(seed)),
                                                             *options.items())).text())
    for i, s in enumerate(seats):
        if i > 0 or s.choices:  # the host was seated by `new`; a join with choices replaces that empty seat
            lines.append(f"{s.player}> /game " + Action(cmd="join", args=tuple(s.choices.items())).text())
    lines.append(f"{host}> /game start")
    lines += [f"{player}> /{game_id} {action.text()}" for player, action in log]
    return "\n".join(lines) + "\n"
